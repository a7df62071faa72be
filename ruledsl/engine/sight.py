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

The engine's own generated code runs a whole move at once; a Sight follows a
copy of the game (a *shadow*) on a copy of the rules whose every effect step
tells it when it has run, so ordinary play and the bots' playouts never pay
for it.
"""

from __future__ import annotations

import weakref

import attrs

from ..compiler.steps import EFFECT
from .state import State
from .worlds import hidden_positions


class Sight:
    """Follows a game move by move and knows, for every player, where the cards they saw go hidden lie.

    ``Sight(state)`` starts from ``state`` (usually a new game); :meth:`catch_up` with the real state
    follows the moves it made since (or call :meth:`follow` with every move, after it is made), and
    :meth:`known` gives a player's map."""

    def __init__(self, state: State):
        self.shadow = state.clone()
        self.shadow.program = _watched(state.program)
        self.shadow._legal = None
        self.players = state.n
        self._known: list[dict] = [{} for _ in range(state.n)]
        self._looks = [_look(self.shadow, p) for p in range(state.n)]

    def known(self, player: int) -> dict:
        """``card -> zone id`` of the cards ``player`` cannot see now but knows the zone of."""
        return dict(self._known[player])

    def catch_up(self, state: State) -> None:
        """Follow the moves ``state`` has made since this Sight last looked (a driver calls this before
        each search bot decides). A state that is not the same game further on (taken back, another
        game) starts the Sight again from it: what was seen before is then forgotten."""
        done = len(self.shadow.moves)
        moves = state.moves
        if len(moves) < done or (done and moves[done - 1] != self.shadow.moves[-1]) or state.n != self.players:
            self.__init__(state)
            return
        for m in moves[done:]:
            self.follow(m)

    def follow(self, move) -> None:
        """Make ``move`` in the shadow game, step by step, after the real game has made it."""
        shadow = self.shadow
        if shadow.shown:  # what `show` showed lasts until the next move begins: it ends here
            shadow.shown = []
            self.look()
        _following.append(self)
        try:
            shadow._apply(move)
        finally:
            _following.pop()
        self.look()

    def look(self) -> None:
        """What every player sees now, against what they saw at the last look."""
        for p in range(self.players):
            now = _look(self.shadow, p)
            _learn(self._known[p], self._looks[p], now)
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


#: The Sights whose shadow game is making a move now (innermost last): the watched steps report to it.
_following: list = []
_watched_programs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _watched(program):
    """A copy of ``program`` whose effect steps each end with a look of the Sight following it (made
    once per program: its generated code is built on first use)."""
    found = _watched_programs.get(program)
    if found is None:
        code = []
        for kind, a, b, span in program.code:
            if kind == EFFECT:
                a = _looking(a)
            code.append([kind, a, b, span])
        found = _watched_programs[program] = attrs.evolve(program, code=code)
    return found


def _looking(fn):
    def step(st, L):
        out = fn(st, L)
        if _following and _following[-1].shadow is st:
            _following[-1].look()
        return out
    return step
