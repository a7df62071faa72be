"""What each player has seen of the cards now hidden from them: a card seen going into a hidden zone.

A player who saw a card go face down into a zone (a trick taken face down, cards
put under the stack, a hand shown and then held again) knows the card lies
there, until a card leaves that zone in a way the player cannot follow. A world
that deals that card anywhere else (say, into an opponent's hand) contradicts
what the player saw. :class:`Sight` follows a game step by step and keeps, for
every player, the zone each such card is known to be in; a
:class:`~ruledsl.engine.worlds.Knowledge` given that map deals the card only to
its zone.

What a player knows is worked out from what the player sees after every step
of the rules (a statement that moves cards, not a whole move, which may put
cards under a pile and then draw from its top): the cards whose faces the
player sees, and how many hidden cards each zone holds (sizes are public).
Nothing else is read, so the map holds no secret:

- cards that left the player's sight in a step in which exactly one zone
  gained hidden cards (at least as many) are known to be in that zone
  (cards turned face down where they lie, too: their zone is the one that
  gained);
- a zone that lost hidden cards the player did not then see appear (dealt
  from the stack into an opponent's hand) forgets what it was known to hold:
  any of them may be among the cards that left. A zone emptied of hidden
  cards hands what it was known to hold on to the one zone that gained, if
  there is one (gather all cards into the stock);
- a card the player sees again is forgotten (it is seen, not inferred).

Zones, not places in them, are known: a known card may lie anywhere in its
zone (a shuffle keeps it in). Within one step a zone that gains and loses as
many hidden cards looks unchanged, so a rule that puts a seen card into a
pile and takes another card from it in one statement is read as if the pile
only gained: the card is then believed in the pile while it may have left
(a belief the player could hold too, never a secret).

It also keeps what the others' moves rule out (:meth:`Sight.ruled_out`): a
move another player made is tried in worlds the observer cannot tell from the
game just before it (its Knowledge then), with the cards the move named in
the mover's hand; if some of those worlds do not allow it, each card the
observer cannot see is put in the mover's hand in place of a few of its
cards, in worlds that do, and a card that makes the move illegal wherever it
goes is one the mover did not hold (a player who did not play a card like
the one led holds none like it). The rule is kept as "these zones hold at most so many of these
cards", the allowance growing with every hidden card the zones take in after.
Only sampled worlds are read, so a rule too holds no secret; it is found by
sampling, so a card the mover could have held in a rare world may be ruled
out (none was, in random games of every game in ``games/``).

The engine's own generated code runs a whole move at once; a Sight follows a
copy of the game (a *shadow*) on a copy of the rules whose every effect step
tells it when it has run, so ordinary play and the bots' playouts never pay
for it.
"""

from __future__ import annotations

import random
import weakref

import attrs

from ..checker import types as T
from ..compiler.steps import EFFECT
from ..language.errors import RulesRuntimeError
from .state import State
from .worlds import Knowledge, follow_cards, hidden_positions

#: Worlds tried to see whether a move tells anything (it does when some of them do not allow it), and
#: worlds allowing it in which each card is tried in the mover's hand.
TELLS_TRIES, ALLOWING_TRIES, ALLOWING_WORLDS = 6, 40, 2
#: Places of the mover's hand each card is tried in, in each world: ruled out only if none allows the move.
PLACES_TRIED = 3


class Sight:
    """Follows a game move by move and knows, for every player, where the cards they saw go hidden lie.

    ``Sight(state)`` starts from ``state`` (usually a new game); :meth:`catch_up` with the real state
    follows the moves it made since (or call :meth:`follow` with every move, after it is made), and
    :meth:`known` gives a player's map."""

    def __init__(self, state: State, observers=None, infer: bool = True):
        self.shadow = state.clone()
        self.shadow.program = _watched(state.program)
        self.shadow._set_by_hand()
        self.players = state.n
        #: the players whose knowledge is kept (default: all); ``infer``: also what others' moves rule out
        self.observers = list(range(state.n)) if observers is None else sorted(set(observers))
        self.infer = infer
        self._known: list[dict] = [{} for _ in range(state.n)]
        self._rules: list[list] = [[] for _ in range(state.n)]
        self._glimpsed: list[set] = [set() for _ in range(state.n)]  # cards seen during the move being made
        self._looks = [_look(self.shadow, p) for p in range(state.n)]

    def known(self, player: int) -> dict:
        """``card -> zone id`` of the cards ``player`` cannot see now but knows the zone of."""
        return dict(self._known[player])

    def ruled_out(self, player: int) -> list:
        """What others' moves told ``player``: ``(zones, cards, allowance)``, each saying that the zones
        hold at most ``allowance`` of ``cards`` (a player who did not play a card like the one led holds none like it;
        a player who drew, unable to play, held nothing playable: at most the one card drawn)."""
        return [tuple(r) for r in self._rules[player]]

    def catch_up(self, state: State) -> None:
        """Follow the moves ``state`` has made since this Sight last looked (a driver calls this before
        each search bot decides). A state that is not the same game further on (taken back, another
        game) starts the Sight again from it: what was seen before is then forgotten."""
        done = len(self.shadow.moves)
        moves = state.moves
        if len(moves) < done or (done and moves[done - 1] != self.shadow.moves[-1]) or state.n != self.players:
            self.__init__(state, self.observers, self.infer)
            return
        for m in moves[done:]:
            self.follow(m)

    def follow(self, move) -> None:
        """Make ``move`` in the shadow game, step by step, after the real game has made it."""
        shadow = self.shadow
        if shadow.shown:  # what `show` showed lasts until the next move begins: it ends here
            shadow.shown = []
            self.look()
        actor = shadow.actor
        watching = [o for o in self.observers if o != actor] if self.infer and actor >= 0 else []
        before = shadow.clone() if watching else None
        looks = list(self._looks)
        self._glimpsed = [set() for _ in range(self.players)]
        knew = {o: (dict(self._known[o]), self.ruled_out(o)) for o in watching}
        _following.append(self)
        try:
            shadow._apply(move)
        finally:
            _following.pop()
        self.look()
        for o in watching:
            rule = _told(before, move, actor, o, knew[o], looks[o], self._looks[o], self._glimpsed[o])
            if rule is not None:
                self._rules[o].append(rule)

    def look(self) -> None:
        """What every observer sees now, against what they saw at the last look."""
        for p in self.observers:
            now = _look(self.shadow, p)
            self._glimpsed[p] |= self._looks[p].unseen - now.unseen  # seen at some moment of the move
            _learn(self._known[p], self._looks[p], now)
            _widen(self._rules[p], self._looks[p], now)
            self._looks[p] = now


@attrs.frozen
class _Look:
    """What one player sees at one moment: the cards whose faces they do not see, where every card lies
    (a seen card's place is what they see of it), and how many hidden cards each zone (or board place,
    ``-1 - place``) holds."""

    unseen: frozenset
    loc: tuple
    hidden: dict  # zone id or -1 - place -> hidden cards there

    def __eq__(self, other) -> bool:  # what the player sees: the seen cards' places, not the hidden ones'
        if not isinstance(other, _Look) or self.unseen != other.unseen or self.hidden != other.hidden:
            return False
        return all(a == b for c, (a, b) in enumerate(zip(self.loc, other.loc)) if c not in self.unseen)

    __hash__ = None


def _look(state: State, player: int) -> _Look:
    hidden: dict = {}
    unseen = []
    zones, places = state.zones, state.places
    for zid, i in hidden_positions(state, player):
        hidden[zid] = hidden.get(zid, 0) + 1
        unseen.append(zones[zid][i] if zid >= 0 else places[-1 - zid])
    return _Look(frozenset(unseen), tuple(state.loc), hidden)


def _learn(known: dict, before: _Look, now: _Look) -> None:
    """Update ``known`` (card -> zone) from one step's change of what the player sees."""
    if before.unseen == now.unseen and before.hidden == now.hidden:
        return  # no card left or came into sight, no zone gained or lost a hidden card
    left = now.unseen - before.unseen  # seen before, hidden now
    came = before.unseen - now.unseen  # hidden before, seen now
    for c in came:
        known.pop(c, None)
    zones = set(before.hidden) | set(now.hidden)
    gained = [z for z in zones if now.hidden.get(z, 0) > before.hidden.get(z, 0)]
    lost = {z: before.hidden.get(z, 0) - now.hidden.get(z, 0) for z in zones
            if before.hidden.get(z, 0) > now.hidden.get(z, 0)}
    # a card that came into sight left a hidden place: in the zone it lies in now if that zone lost
    # hidden cards (turned up where it lay), else in the one zone that lost some, if only one did
    elsewhere = 0
    for c in came:
        z = now.loc[c]
        if lost.get(z, 0) > 0:
            lost[z] -= 1
        else:
            elsewhere += 1
    losing = [z for z, k in lost.items() if k > 0]
    if len(losing) == 1:
        lost[losing[0]] -= min(elsewhere, lost[losing[0]])
    receiver = gained[0] if len(gained) == 1 else None
    for z, k in lost.items():
        if k <= 0:
            continue
        # hidden cards left z unseen: what z was known to hold may have left with them
        emptied = now.hidden.get(z, 0) == 0
        for c in [c for c, at in known.items() if at == z]:
            if emptied and receiver is not None:
                known[c] = receiver
            else:
                del known[c]
    if left and receiver is not None and now.hidden[receiver] - before.hidden.get(receiver, 0) >= len(left):
        for c in left:
            known[c] = receiver


def _widen(rules: list, before: _Look, now: _Look) -> None:
    """Hidden cards that came into a ruled zone may be any cards: each one more the zones may hold. A
    rule that allows as many as the zones hold says nothing any more, and is dropped."""
    for rule in list(rules):
        zones, _cards, allowance = rule
        held_before = sum(before.hidden.get(z, 0) for z in zones)
        held = sum(now.hidden.get(z, 0) for z in zones)
        if held > held_before:
            rule[2] = allowance = allowance + held - held_before
        if allowance >= held:
            rules.remove(rule)


def _told(before: State, move, actor: int, player: int, knew: tuple, look_before: _Look,
          look_after: _Look, glimpsed: set):
    """What ``actor``'s ``move`` (made in ``before``) rules out for ``player``: a rule ``[zones, cards,
    allowance]`` (see :meth:`Sight.ruled_out`), or None when it tells nothing this can find.

    The move is tried in worlds ``player`` cannot tell from ``before`` (its Knowledge then), with the
    cards it names in ``actor``'s hand (the player saw them come out of it). If every world tried allows
    it, it tells nothing. Else, in worlds that allow it, each card the player cannot see is put in
    ``actor``'s hand in place of another: a card that makes the move illegal in every such world is one
    ``actor`` did not hold. Only the worlds are read: nothing secret."""
    program = before.program
    option = next((o for o in program.choices[before.choice].options if o.name == move.name), None)
    if option is None:
        return None
    named = [a for a, kind in zip(move.args, option.kinds) if kind == T.CARD]
    if any(c in look_before.unseen and c not in glimpsed for c in named):
        return None  # the player never saw which card the move took: they cannot test it
    zones = frozenset(z.zid for z in program.zones
                      if before.sees(actor, z.zid) == "all" and before.sees(player, z.zid) != "all")
    if not zones:
        return None
    known, rules = knew
    rng = random.Random(len(before.moves) * 7919 + player)
    try:
        knowledge = Knowledge(before, player, known, rules)
    except RulesRuntimeError:
        return None
    allowing = []
    for tried in range(1, ALLOWING_TRIES + 1):
        world = _pinned(knowledge.sample(rng), named, zones, player, rng)
        if world is not None and _allows(world, move, actor):
            allowing.append(world)
        if tried == TELLS_TRIES and len(allowing) == TELLS_TRIES:
            return None  # every world tried allows it: it tells nothing
        if tried >= TELLS_TRIES and len(allowing) >= ALLOWING_WORLDS:
            break
    if not allowing:
        return None
    possible = set(named)
    hidden = look_before.unseen - set(named) - set(known)  # a card known elsewhere is not tried
    for world in allowing[:ALLOWING_WORLDS]:
        spots = [(z, i) for z, i in hidden_positions(world, player) if z in zones
                 and world.zones[z][i] not in possible.intersection(named)]
        inside = {world.zones[z][i] for z, i in spots}
        possible |= inside
        for x in hidden - possible:
            if not spots:
                break
            # x in the hand in place of a few of its cards: a move that only some cards allow (the card
            # just drawn fits) must not rule x out for the place it was tried in
            for z, i in rng.sample(spots, min(PLACES_TRIED, len(spots))):
                if _allows(_swapped(world, x, world.zones[z][i]), move, actor):
                    possible.add(x)
                    break
    out = frozenset(hidden - possible)
    if not out:
        return None
    came = len(look_before.unseen - look_after.unseen) + len(glimpsed & look_after.unseen)
    held = sum(look_after.hidden.get(z, 0) for z in zones)
    allowance = max(0, held - sum(look_before.hidden.get(z, 0) for z in zones) + came)
    return [zones, out, allowance] if allowance < held else None


def _allows(world: State, move, actor: int) -> bool:
    if world.over or world.actor != actor:
        return False
    try:
        return move in world.legal_moves()
    except RulesRuntimeError:
        return False


def _pinned(world: State, cards: list, zones: frozenset, player: int, rng: random.Random):
    """``world`` with ``cards`` in the ``zones`` (hidden from ``player``), each traded for a hidden card
    there; None if there is no room."""
    for c in cards:
        if world.loc[c] in zones:
            continue
        spots = [(z, i) for z, i in hidden_positions(world, player)
                 if z in zones and world.zones[z][i] not in cards]
        if not spots or world.loc[c] < 0:
            return None
        z, i = spots[rng.randrange(len(spots))]
        world = _swapped(world, c, world.zones[z][i])
    return world


def _swapped(world: State, x: int, y: int) -> State:
    """A copy of ``world`` with cards ``x`` and ``y`` in each other's places (both in zones)."""
    out = world.clone()
    zones, loc = out.zones, out.loc
    zx, zy = loc[x], loc[y]
    if zx < 0 or zy < 0:
        return out
    ix, iy = zones[zx].index(x), zones[zy].index(y)
    zones[zx][ix], zones[zy][iy] = y, x
    loc[x], loc[y] = zy, zx
    follow_cards(out, {x: y, y: x})
    out._set_by_hand()
    return out


#: The Sights whose shadow game is making a move now (innermost last): the watched steps report to it.
_following: list = []
_watched_programs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _watched(program):
    """A copy of ``program`` whose effect steps each end with a look of the Sight following it (made
    once per program: its generated code is built on first use). Steps that count themselves for rule
    coverage (engine/coverage.py) are taken back first: the shadow game's moves are not played twice."""
    found = _watched_programs.get(program)
    if found is None:
        code = []
        for kind, a, b, span in program.code:
            a = getattr(a, "__wrapped__", a)
            if kind == EFFECT:
                a = _looking(a)
            code.append([kind, a, b, span])
        triggers = [attrs.evolve(t, cond=getattr(t.cond, "__wrapped__", t.cond)) for t in program.triggers]
        found = _watched_programs[program] = attrs.evolve(program, code=code, triggers=triggers)
    return found


def _looking(fn):
    def step(st, L):
        out = fn(st, L)
        if _following and _following[-1].shadow is st:
            _following[-1].look()
        return out
    return step
