"""Missing randomness: a deal that does not depend on the seed.

After the setup, the cards some player cannot see (a face-down deck, the
others' hands) should lie differently for different seeds; if every such zone
holds the same cards in the same order for three seeds, nothing in the setup
drew from the generator for them, and a ``shuffle`` is probably missing. Zones
that everybody sees are not compared (a face-up market may be laid out on
purpose), nor is a game without hidden cards; one hidden zone that varies is
enough (hands dealt the same in every game beside a shuffled deck are fine).
"""

from __future__ import annotations

from ..engine.game import Game
from ..language.errors import RulesRuntimeError

OTHER_SEEDS = (1, 7919)  # added to the game's seed: the deals compared with its own


def hidden_layout(s) -> dict:
    """The cards, in order, of every zone (and board place) some player cannot see: name -> cards."""
    out = {}
    for z in s.program.zones:
        if z.owner is not None and z.owner >= s.n:
            continue
        if all(s.sees(p, z.zid) == "all" for p in range(s.n)):
            continue
        if z.places:
            out[z.name] = tuple(s.places[q] for q in z.places)
        else:
            out[z.name] = tuple(s.zones[z.zid])
    return out


def deal_finding(game: Game, players: int, seed: int, first=None) -> str | None:
    """The message if the hidden cards after the setup lie the same for ``seed`` and two other
    seeds, else None. ``first``: the new game of ``seed``, if already made."""
    s = first if first is not None else game.new_game(players, seed)
    layout = hidden_layout(s)
    if sum(1 for cards in layout.values() for c in cards if c >= 0) < 2:
        return None
    seeds = [seed + d for d in OTHER_SEEDS]
    for other in seeds:
        try:
            if hidden_layout(game.new_game(players, other)) != layout:
                return None
        except RulesRuntimeError:
            return None  # the runs check reports that one
    names = ", ".join(name for name, cards in layout.items() if any(c >= 0 for c in cards))
    return (f"the deal does not depend on the seed: a shuffle may be missing (seeds {seed}, {seeds[0]} and "
            f"{seeds[1]} deal the same cards, in the same order, to {names}, which some player cannot see)")
