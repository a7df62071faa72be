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
  top card of the deck);
- the flow, the visibility grants, the variables and the list of moves made.

A hidden card only trades places with hidden cards of its *back group*: the
cards whose kinds start the game together in one zone (``cards ... in
deck``). Cards that start apart are taken to have different backs, so a
player can tell them apart face down: a hidden money pile never gets a card
of a kind that started elsewhere.

The world's random generator is drawn from the caller's generator, and its
seed is cleared: a world holds no trace of the real game's future shuffles.

What a world does not model (a player may know more than it keeps):

- cards the player saw earlier and that were hidden again (a card drawn and
  put back, a hand seen during a reveal): they are dealt at random again;
- the order of a hidden pile the player knows (a stack sorted at setup):
  it is shuffled like any other hidden pile of its back group;
- inferences from the other players' past moves (a player who drew instead
  of playing probably had nothing to play);
- flow locals whose type the compiler does not know as a card.

:class:`Knowledge` is what a search bot gets: one canonical world with no
secret in it at all (the hidden cards in a fixed order), from which it samples
as many worlds as it likes. Two real states that differ only in cards the
player cannot see give equal Knowledge, so a bot that decides from it cannot
peek.
"""

from __future__ import annotations

import random
import weakref

from .engine import State
from .rng import seed_state

#: The generator state of a canonical world: a constant, so it carries nothing of the real game.
_CANONICAL_RNG = seed_state(0)
_back_groups: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


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


def hidden_positions(state: State, player: int) -> list[tuple[int, int]]:
    """Where the cards ``player`` cannot see lie, in a fixed order: ``(zone id, index)`` for a pile or
    row, ``(-1 - place, 0)`` for a board place."""
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
    return _redeal(state, player, rng)


def canonical(state: State, player: int) -> State:
    """A copy of ``state`` with the cards ``player`` cannot see in a fixed order: the same for every
    state that differs from this one only in those cards."""
    return _redeal(state, player, None)


def _plan(state: State, player: int) -> list[tuple[list, list]]:
    """The hidden cards by back group: ``[(positions, cards now there)]``, positions in a fixed order."""
    groups = back_groups(state.program)
    pools: dict[int, tuple[list, list]] = {}
    for pos in hidden_positions(state, player):
        zid, i = pos
        card = state.zones[zid][i] if zid >= 0 else state.places[-1 - zid]
        spots, cards = pools.setdefault(groups[card], ([], []))
        spots.append(pos)
        cards.append(card)
    return list(pools.values())


def _redeal(state: State, player: int, rng: random.Random | None, plan=None) -> State:
    program = state.program
    world = state.clone()
    mapping = {}
    zones, places, loc = world.zones, world.places, world.loc
    for spots, cards in plan if plan is not None else _plan(state, player):
        new = sorted(cards)
        if rng is not None:
            rng.shuffle(new)
        for (zid, i), old, card in zip(spots, cards, new):
            mapping[old] = card
            if zid >= 0:
                zones[zid][i] = card
            else:
                places[-1 - zid] = card
            loc[card] = zid
    if mapping:
        variables = world.vars
        for slot in program.card_slots:
            v = variables[slot]
            if v in mapping:
                variables[slot] = mapping[v]
        L = world.locals
        for slot in program.card_locals:  # a card, or a list of cards
            v = L[slot]
            if type(v) is int and v in mapping:
                L[slot] = mapping[v]
            elif isinstance(v, list):
                L[slot] = [mapping.get(c, c) if type(c) is int else c for c in v]
    world.seed = 0
    world.rng = _CANONICAL_RNG if rng is None else seed_state(rng.getrandbits(63))
    world._legal = None
    return world


class Knowledge:
    """What a player may know of a game, for a search bot: sample worlds from it, never the state.

    It keeps only a canonical world (:func:`canonical`), so nothing secret is
    inside it; ``sample(rng)`` deals that world's hidden cards at random.
    """

    __slots__ = ("player", "world", "_plan")

    def __init__(self, state: State, player: int):
        self.player = player
        self.world = canonical(state, player)
        self._plan = _plan(self.world, player)  # the same for every sample: worked out once

    def sample(self, rng: random.Random) -> State:
        """A world that agrees with everything the player can see, drawn with ``rng``."""
        return _redeal(self.world, self.player, rng, self._plan)

    def view(self) -> dict:
        """The player's view (the same as the real state's)."""
        return self.world.view(self.player)
