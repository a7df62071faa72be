"""``State.view`` reads a plan worked out once per program, seat count and player (engine/seeing.py):
at every step of random games of every game, and of the rules that reveal, tell and show, it gives
exactly what the zones and variables part of a view was before the plan, written out here in full
as the oracle (every zone and variable asked about on each call)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.seeing import _strides

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted(str(p) for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules")) + [
    str(ROOT / "tests" / "data" / name) for name in ("ask.rules", "forty.rules", "hints.rules")]


def reference_parts(s, player: int) -> tuple:
    """The zones and variables of ``s.view(player)``, as view() worked them out before its plan."""
    p = s.program
    labels = p.card_labels
    zones = {}
    shown = s.shown_cards(player) if s.grants else ()
    known = s.known_to(player) if s.known else {}

    def face(c):
        return labels[c] if c in shown else s._hint(c, known[c]) if c in known else "?"

    for z in p.zones:
        if z.owner is not None and z.owner >= s.n:
            continue
        if z.exists is not None and not s.vars[z.exists]:
            continue
        how = s.sees(player, z.zid)
        if z.places:
            cards = [s.places[q] for q in z.places]
            zones[z.name] = [None if c < 0 else (labels[c] if how == "all" else face(c)) for c in cards]
            continue
        cards = s.zones[z.zid]
        if how == "all":
            zones[z.name] = [labels[c] for c in cards]
        elif how == "top":
            zones[z.name] = [face(c) for c in cards[:-1]] + [labels[cards[-1]]] if cards else []
        else:
            zones[z.name] = [face(c) for c in cards]
    variables = {}
    for name, (base, sizes, dims) in p.var_families.items():
        count = 1
        for n in sizes:
            count *= n
        vis = p.var_visibility.get(name)
        seats = [(stride, n) for stride, n, d in _strides(sizes, dims) if d[0] == "player" and n > s.n]
        for i in range(count):
            slot = base + i
            if seats and any(i // stride % n >= s.n for stride, n in seats):
                continue
            if slot in p.flag_slots or (slot in p.var_exists and not s.vars[p.var_exists[slot]]):
                continue
            v = s.vars[slot]
            if vis == "hidden" or (vis == "owner" and i // max(1, count // sizes[0]) != player):
                variables[p.var_names[slot]] = "?"
                continue
            if slot in p.card_slots and v is not None:
                v = labels[v] if s.card_visible(player, v) else "?"
            variables[p.var_names[slot]] = v
    return zones, variables


@pytest.mark.parametrize("path", RULES, ids=lambda p: Path(p).stem)
def test_a_view_is_what_it_was_before_its_plan(path):
    game = ruledsl.load(path)
    program = game.program
    counts = sorted({program.min_players, min(program.max_players, max(program.min_players, 3))})
    compared = 0
    for n in counts:
        for seed in range(2):
            s, rng = game.new_game(n, seed), random.Random(seed)
            for _step in range(300):
                for player in range(n):
                    view = s.view(player)
                    zones, variables = reference_parts(s, player)
                    assert list(view["zones"].items()) == list(zones.items())  # in the same order too
                    assert list(view["vars"].items()) == list(variables.items())
                    compared += 1
                if s.is_over:
                    break
                s._apply(rng.choice(s.legal_moves()))
    assert compared > 0


@pytest.mark.parametrize("path", RULES, ids=lambda p: Path(p).stem)
def test_an_all_hidden_zone_encodes_as_its_cards_counted_one_by_one(path):
    """ObservationCodec.encode counts a zone whose cards are all '?' at once; a hidden card with a
    hint (``red ?``) goes through the loop that counts card by card and lands in the same place, so
    the view with every '?' written as a hint must encode exactly as the view itself."""
    from ruledsl.adapters.encode import ObservationCodec

    game = ruledsl.load(path)
    n = game.program.min_players
    codec = ObservationCodec(game.program_for(n), n)
    s, rng = game.new_game(n, 1), random.Random(1)
    for _step in range(200):
        for player in range(n):
            view = s.view(player)
            hinted = dict(view, zones={name: [("hint ?" if c == "?" else c) for c in cards] if cards and
                                       None not in cards else cards for name, cards in view["zones"].items()})
            assert codec.encode(view).tolist() == codec.encode(hinted).tolist()
        if s.is_over:
            break
        s._apply(rng.choice(s.legal_moves()))
