"""Worlds a player cannot tell apart: the hidden cards dealt again at random.

A search bot that looked at the real state would know every hidden card. It
searches instead over *worlds*: copies of the state in which the cards its
player cannot see are dealt at random among the places where such cards lie,
while everything the player can see stays exactly where it is.

:func:`determinize` makes one such world. It keeps

- every card the player can see (own hand, public rows, top cards, cards
  revealed to the player) in its zone, at its position;
- the size of every zone and which slots of every track are taken;
- card conservation: every card is still in exactly one place;
- the variables and flow locals that name a hidden card: they name the card
  that now lies where the old one lay (``let c = top(deck)`` still means the
  top card of the deck); values and zones indexed by a hidden card
  (``var x[card]``, ``zone under[card]``) move with them to the new card;
- the flow, the visibility grants, the variables and the list of moves made;
- cards seen where they lie: zones the player sees (``owner``, ``others``
  held by someone else, ``public``, ``top``, granted by ``reveal``), cards a
  ``reveal`` showed (card grants) and cards ``show`` showed during the last move;
- what ``tell`` told the player: a hidden card only trades places with cards
  that agree on every attribute told to the player (about any card), and the
  hint follows the card, so a world never contradicts a hint.

While players choose together in secret (``choose NAME by each p in ...``),
a world forgets the choices the *other* players already made and makes them
again at random among their legal moves (the player's own choice is kept), so
a search bot deciding in a secret choice never sees others' pending choices. A
set of cards chosen together is forgotten and drawn again card by card.

A hidden card only trades places with hidden cards of its *back group*: the
cards whose kinds start the game together in one zone (``cards ... in
deck``). Cards that start apart are taken to have different backs, so a
player can tell them apart face down: a hidden money pile never gets a card
of a kind that started elsewhere.

The world's random generator is drawn from the caller's generator, and its
seed is cleared: a world holds no trace of the real game's future shuffles.

What a world does not model (a player may know more than it keeps):

- cards the player saw earlier and that were hidden again (a card drawn and
  put back, a hand seen during a reveal), unless a ``known`` map says which
  zone each lies in (:class:`~ruledsl.engine.sight.Sight` keeps it): then
  such a card is dealt to a place of its zone, anywhere in it;
- the order of a hidden pile the player knows (a stack sorted at setup):
  it is shuffled like any other hidden pile of its back group;
- inferences from the other players' past moves, unless ``rules`` give them
  (:meth:`~ruledsl.engine.sight.Sight.ruled_out`: zones that hold at most so
  many of some cards, such as a player who did not play a card like the one led); then every
  world keeps them;
- flow locals whose type the compiler does not know as a card;
- the real values of variables the player may not see (``var x: int
  hidden``, another player's ``owner`` variable): in every world they hold
  the value they had when the game started (the ``var``'s initial value),
  whatever their real value is, so a world never tells a bot another player's
  secret bid; a ``card`` variable starts at ``none``. Flow locals that copied
  such a value (``let b = bid[p]``) are not reset.

:class:`Knowledge` is what a search bot gets: one canonical world with no
secret in it at all (the hidden cards in a fixed order), from which it samples
as many worlds as it likes. Two real states that differ only in cards the
player cannot see give equal Knowledge, so a bot that decides from it cannot
peek.
"""

from __future__ import annotations

import itertools
import random
import weakref

from ..compiler.rng import seed_state
from ..language.errors import RulesRuntimeError
from .state import State

#: The generator state of a canonical world: a constant, so it carries nothing of the real game.
_CANONICAL_RNG = seed_state(0)
_back_groups: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_card_families: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_unseen_vars: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def back_groups(program) -> list[int]:
    """For each card id, the number of its back group (kinds that start the game in one zone)."""
    groups = _back_groups.get(program)
    if groups is not None:
        return groups
    parent: dict[str, str] = {}

    def find(k):
        while parent.setdefault(k, k) != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    by_zone: dict[int, str] = {}
    for zid, ids in program.initial:
        for c in ids:
            kind = find(program.card_kind[c])
            if zid in by_zone:
                parent[kind] = find(by_zone[zid])
            else:
                by_zone[zid] = kind
    names: dict[str, int] = {}
    groups = [names.setdefault(find(program.card_kind[c]), len(names)) for c in range(program.card_count)]
    _back_groups[program] = groups
    return groups


def told(state: State, player: int) -> tuple:
    """The card attributes `tell` has told ``player`` about some card (sorted)."""
    return tuple(sorted({a for _, a, q in state.known if q == player}))


def trade_groups(program, cards: list, same: tuple) -> list[list[int]]:
    """The indices of ``cards`` grouped so that cards in one group agree on every attribute in ``same``
    (what `tell` told a player): hidden cards may trade places only within a group."""
    if not same:
        return [list(range(len(cards)))]
    columns = [program.card_attrs[a] for a in same]
    groups: dict = {}
    for k, card in enumerate(cards):
        groups.setdefault(tuple(col[card] for col in columns), []).append(k)
    return list(groups.values())


def hidden_positions(state: State, player: int) -> list[tuple[int, int]]:
    """Where the cards ``player`` cannot see lie, in a fixed order: ``(zone id, index)`` for a pile or
    row, ``(-1 - place, 0)`` for a board place. Cards a `reveal` or `show` let the player see are left out."""
    out = _positions(state, player)
    seen = (state.shown_cards(player) if state.grants else set()) | set(state.shown_to(player))
    if seen:
        out = [(z, i) for z, i in out if (state.zones[z][i] if z >= 0 else state.places[-1 - z]) not in seen]
    return out


def _positions(state: State, player: int) -> list[tuple[int, int]]:
    program = state.program
    out = []
    seen_places = set()
    for z in program.zones:
        how = state.sees(player, z.zid)
        if z.places:
            if how != "count":
                seen_places.update(z.places)
            continue
        if how == "all":
            continue
        k = len(state.zones[z.zid])
        if how == "top":
            k -= 1
        out.extend((z.zid, i) for i in range(k))
    for q, c in enumerate(state.places):
        if c >= 0 and q not in seen_places:
            out.append((-1 - q, 0))
    return out


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A copy of ``state`` with the cards ``player`` cannot see dealt at random (see the module text)."""
    world = _redeal(state, player, rng)
    _choose_again(world, _unmake_secrets(world, player), rng)
    return world


def canonical(state: State, player: int) -> State:
    """A copy of ``state`` with the cards ``player`` cannot see in a fixed order: the same for every
    state that differs from this one only in those cards. Secret choices made together are left
    unmade (see :func:`_unmake_secrets`)."""
    world = _redeal(state, player, None)
    _unmake_secrets(world, player)
    return world


def _unmake_secrets(world: State, player: int) -> list:
    """If players are choosing together in secret and some have chosen (or are building a set), forget
    their choices: the world goes back to the first chooser. Returns what to choose again:
    ``[(chooser, moves or None)]``, the moves kept for ``player``'s own choice, None for another's (to be
    drawn at random)."""
    if world.over or world.choice < 0:
        return []
    choice = world.program.choices[world.choice]
    together = choice.together
    if choice.rewind is None or together is None:
        return []
    made = together.made(world)
    if not made:
        return []
    choosers, _ = together(world.locals)
    redo = [(q, list(ms) if q == player else None) for q, ms in zip(choosers, made)]
    together.rewind(world)
    world.actor = world.program.choices[world.choice].actor(world, world.locals)
    world._set_by_hand()
    return redo


def _choose_again(world: State, redo: list, rng: random.Random) -> None:
    """Make the secret choices forgotten by :func:`_unmake_secrets` again: the player's own as it was,
    the others' at random among their legal moves (a set: card by card, until it is complete)."""
    if not redo:
        return
    together = world.program.choices[world.choice].together
    for i, (q, ms) in enumerate(redo):
        if ms is not None:
            for m in ms:
                legal = world.legal_moves()
                world.apply(m if m in legal else rng.choice(legal))
            continue
        while True:
            world.apply(rng.choice(world.legal_moves()))
            if world.over or together(world.locals)[1] != i or len(together.made(world)) != i + 1:
                break


def _plan(state: State, player: int) -> list[tuple[list, list]]:
    """The hidden cards by back group: ``[(positions, cards now there)]``, positions in a fixed order."""
    groups = back_groups(state.program)
    columns = [state.program.card_attrs[a] for a in told(state, player)]
    pools: dict[tuple, tuple[list, list]] = {}
    for pos in hidden_positions(state, player):
        zid, i = pos
        card = state.zones[zid][i] if zid >= 0 else state.places[-1 - zid]
        key = (groups[card],) + tuple(col[card] for col in columns)  # same back, same hints
        spots, cards = pools.setdefault(key, ([], []))
        spots.append(pos)
        cards.append(card)
    return list(pools.values())


def _card_indexed(program) -> tuple[list, list]:
    """The variable and zone families indexed by a card: ``[(base, sizes, positions of the card indices)]``."""
    found = _card_families.get(program)
    if found is None:
        found = tuple([(base, sizes, [i for i, d in enumerate(dims) if d[0] == "card"])
                       for base, sizes, dims in families.values() if any(d[0] == "card" for d in dims)]
                      for families in (program.var_families, program.zone_families))
        _card_families[program] = found
    return found


def _moved(sizes: list, at: list, mapping: dict) -> list[tuple[int, int]]:
    """``(old flat index, new flat index)`` of the family members whose card index changes under ``mapping``."""
    out = []
    for old, index in enumerate(itertools.product(*[range(n) for n in sizes])):
        if any(index[i] in mapping for i in at):
            new = list(index)
            for i in at:
                new[i] = mapping.get(new[i], new[i])
            flat = 0
            for size, v in zip(sizes, new):
                flat = flat * size + v
            out.append((old, flat))
    return out


def follow_cards(state: State, mapping: dict) -> None:
    """Relabel the memory of ``state`` after its cards traded places: ``mapping`` takes a card to the
    card that now lies where it lay. A variable or flow local naming a card names the new card, and a
    value or zone indexed by a card (``var x[card]``, ``zone under[card]``) moves to the new card's index.
    The one swapping helper of determinized worlds and of verify's hidden-information check."""
    program = state.program
    variables = state.vars
    for slot in program.card_slots:
        v = variables[slot]
        if v in mapping:
            variables[slot] = mapping[v]
    L = state.locals
    for slot in program.card_locals:
        v = L[slot]
        if type(v) is int and v in mapping:
            L[slot] = mapping[v]
    for slot in program.card_list_locals:
        v = L[slot]
        if isinstance(v, list):
            L[slot] = [mapping.get(c, c) if type(c) is int else c for c in v]
    var_families, zone_families = _card_indexed(program)
    for base, sizes, at in var_families:
        moves = _moved(sizes, at, mapping)
        old = {i: variables[base + i] for i, _ in moves}
        for i, j in moves:
            variables[base + j] = old[i]
    zones, loc = state.zones, state.loc
    for base, sizes, at in zone_families:
        moves = _moved(sizes, at, mapping)
        old = {i: zones[base + i] for i, _ in moves}
        for i, j in moves:
            zones[base + j] = old[i]
            for c in old[i]:
                loc[c] = base + j
    if state.known:  # what `tell` told follows the card (new lists: a clone shares them)
        state.known = [[mapping.get(c, c) if c >= 0 else c, a, q] for c, a, q in state.known]
    if state.shown:
        state.shown = [[mapping.get(c, c), q] for c, q in state.shown]


def unseen_variables(program, player: int) -> list:
    """The variable slots ``player`` cannot see (hidden ones, others' ``owner`` ones), each with the
    function giving its initial value (None: no value)."""
    cache = _unseen_vars.setdefault(program, {})
    found = cache.get(player)
    if found is None:
        inits = dict(program.var_init)
        members = {base: fn for values in program.member_inits.values() for base, fn in values}
        found = []
        for name, vis in program.var_visibility.items():
            base, sizes, _ = program.var_families[name]
            count = 1
            for size in sizes:
                count *= size
            for i in range(count):
                if vis == "owner" and i // max(1, count // sizes[0]) == player:
                    continue  # the player's own value: seen
                found.append((base + i, inits.get(base + i, members.get(base))))
        cache[player] = found
    return found


def _forget_variables(world: State, player: int) -> None:
    """Give the variables ``player`` cannot see their initial values: a world holds nothing of the real ones."""
    variables = world.vars
    for slot, init in unseen_variables(world.program, player):
        try:
            variables[slot] = init(world, world.locals) if init is not None else None
        except (RulesRuntimeError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError):
            # an initial value that cannot be worked out here: no value
            variables[slot] = None


def _dealt(spots: list, cards: list, known: dict | None, rng: random.Random | None, rules=()) -> list:
    """The cards of one pool for its spots, in the spots' order: at random (in a fixed order without
    ``rng``), but a card ``known`` to lie in a zone goes to one of that zone's spots, and the spots of
    a rule's zones get at most its allowance of its cards (``rules``: ``(zones, cards, allowance)``,
    what others' moves told; engine/sight.py)."""
    if not known and not rules:
        new = sorted(cards)
        if rng is not None:
            rng.shuffle(new)
        return new
    out: list = [None] * len(spots)
    known = known or {}
    by_zone: dict = {}
    for c in cards:
        z = known.get(c)
        if z is not None:
            by_zone.setdefault(z, []).append(c)
    free = [c for c in cards if c not in known]
    for z, kept in sorted(by_zone.items()):
        places = [k for k, (zid, _) in enumerate(spots) if zid == z]
        if len(kept) > len(places):  # more than the zone holds now: not a knowledge to trust
            free.extend(kept)
            continue
        kept.sort()
        if rng is not None:
            places = rng.sample(places, len(kept))
            rng.shuffle(kept)
        for k, c in zip(places, kept):
            out[k] = c
    free.sort()
    if rng is not None:
        rng.shuffle(free)
    for zones, ruled, allowance in rules:
        places = [k for k, (zid, _) in enumerate(spots) if zid in zones and out[k] is None]
        budget = allowance - sum(1 for k, (zid, _) in enumerate(spots) if zid in zones and out[k] in ruled)
        picked, rest = [], []
        for c in free:
            if len(picked) < len(places) and (c not in ruled or budget > 0):
                budget -= c in ruled
                picked.append(c)
            else:
                rest.append(c)
        if len(picked) < len(places):  # not cards enough outside the rule: it cannot hold here
            continue
        for k, c in zip(places, picked):
            out[k] = c
        free = rest
    rest = iter(free)
    return [c if c is not None else next(rest) for c in out]


def _redeal(state: State, player: int, rng: random.Random | None, plan=None, known: dict | None = None,
            rules=()) -> State:
    program = state.program
    world = state.clone()
    mapping = {}
    zones, places, loc = world.zones, world.places, world.loc
    for spots, cards in plan if plan is not None else _plan(state, player):
        new = _dealt(spots, cards, known, rng, rules)
        for (zid, i), old, card in zip(spots, cards, new):
            mapping[old] = card
            if zid >= 0:
                zones[zid][i] = card
            else:
                places[-1 - zid] = card
            loc[card] = zid
    if mapping:
        follow_cards(world, mapping)
    if program.var_visibility:
        _forget_variables(world, player)
    world.seed = 0
    world.rng = _CANONICAL_RNG if rng is None else seed_state(rng.getrandbits(63))
    world._set_by_hand()
    return world


class Knowledge:
    """What a player may know of a game, for a search bot: sample worlds from it, never the state.

    It keeps only a canonical world (:func:`canonical`), so nothing secret is
    inside it; ``sample(rng)`` deals that world's hidden cards at random.
    """

    __slots__ = ("player", "world", "known", "rules", "_plan", "_redo", "_view")

    def __init__(self, state: State, player: int, known: dict | None = None, rules=()):
        self.player = player
        #: card -> zone: hidden cards the player saw go into a zone (engine/sight.py), dealt only there
        self.known = known or None
        #: (zones, cards, allowance): what others' moves told (engine/sight.py), kept by every world
        self.rules = tuple(rules)
        world = _redeal(state, player, None, known=self.known, rules=self.rules)
        self._plan = _plan(world, player)  # the same for every sample: worked out once
        self._view = world.view(player)  # before secret choices are unmade: the real state's view
        self._redo = _unmake_secrets(world, player)  # others' secret choices: drawn again per sample
        self.world = world

    def sample(self, rng: random.Random) -> State:
        """A world that agrees with everything the player can see, drawn with ``rng``."""
        world = _redeal(self.world, self.player, rng, self._plan, self.known, self.rules)
        _choose_again(world, self._redo, rng)
        return world

    def view(self) -> dict:
        """The player's view (the same as the real state's)."""
        return self.world.view(self.player) if not self._redo else self._view
