"""Differential tests: games/trolley_car.rules (through the engine) against the independent
hand-written model of tests/oracle_trolley.py.

Each round is synchronised once, right after the deal (hands, deck order, the two start
cards); from then on model and engine play the same moves side by side and are compared
after every step: decision, whose turn it is, the legal moves (multisets of described
moves), both lines slot by slot, the set-aside piles, hands, declarations, deck, the card
just drawn, running totals, and at the end the scores and winners.
See docs/games/trolley_car_oracle.md.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import ruledsl
from oracle_trolley import BLACK, COLOURS, RED, TrolleyCar

# TROLLEY_ORACLE_RULES points the test at another copy of the rules file (for trying a fix).
RULES = Path(os.environ.get("TROLLEY_ORACLE_RULES")
             or Path(__file__).resolve().parent.parent / "games" / "trolley_car.rules")

_GAMES: dict = {}


def game(single_round: bool) -> ruledsl.Game:
    if single_round not in _GAMES:
        _GAMES[single_round] = ruledsl.load(RULES, params={"single_round": single_round})
    return _GAMES[single_round]


# ---------------------------------------------------------------------------
# Reading the engine's position
# ---------------------------------------------------------------------------

def ids_in(s, zone: str) -> list[int]:
    """Card ids of a pile or row of the engine, bottom to top."""
    return list(s.zones[s.zone_id(zone)])


def start_card(s, colour: str) -> int:
    where = f"line[{colour}] slot 0"
    found = [c for c, names in s.card_locations().items() if where in names]
    assert len(found) == 1, f"engine: expected one card at {where}, found {found}"
    return found[0]


def sync_deal(model: TrolleyCar, s) -> None:
    """Give the model the engine's freshly dealt round."""
    n = model.n
    assert s.decision == "declare", f"engine: a new round should start with 'declare', not {s.decision}"
    dealer = s.get_var("dealer")
    assert dealer == model.dealer, f"dealer of round {model.rounds_played + 1}: model says {model.dealer}, engine says {dealer}"
    for colour in COLOURS:
        assert [c for c in s.cards_in(f"line[{colour}]")[1:] if c] == [], f"engine: {colour} line not empty at the deal"
        assert s.cards_in(f"aside[{colour}]") == [], f"engine: aside[{colour}] not empty at the deal"
    for p in range(n):
        assert s.cards_in(f"declared[{p}]") == [], f"engine: declared[{p}] not empty at the deal"
    model.deal(
        dealer,
        [ids_in(s, f"hand[{p}]") for p in range(n)],
        ids_in(s, "deck"),
        start_card(s, RED),
        start_card(s, BLACK),
    )


# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------

def model_view(m: TrolleyCar) -> dict:
    lab = m.label
    view = {"decision": m.decision, "current": m.current, "totals": list(m.totals)}
    if m.decision in ("deal", "over"):
        view["legal"] = Counter()
    else:
        view["legal"] = Counter(m.describe(mv) for mv in m.legal_moves())
    if m.decision != "deal":
        for colour in COLOURS:
            view[f"line[{colour}]"] = [None if c is None else lab(c) for c in m.line(colour)]
            view[f"aside[{colour}] count"] = len(m.aside[colour])
            view[f"aside[{colour}]"] = sorted(lab(c) for c in m.aside[colour])
        for p in range(m.n):
            view[f"hand[{p}]"] = sorted(lab(c) for c in m.hands[p])
            view[f"declared[{p}]"] = sorted(lab(c) for c in m.declared[p])
            view[f"drawn[{p}]"] = [lab(m.drawn)] if m.drawn is not None and p == m.current else []
        view["deck"] = [lab(c) for c in m.deck]
    return view


def engine_view(s, n: int, keys) -> dict:
    view = {}
    if s.is_over:
        view["decision"], view["current"], view["legal"] = "over", None, Counter()
    else:
        view["decision"], view["current"] = s.decision, s.current_player
        view["legal"] = Counter(s.describe(mv) for mv in s.legal_moves())
    view["totals"] = [s.get_var(f"total[{p}]") for p in range(n)]
    for k in keys:
        if k in view:
            continue
        if k.endswith(" count"):
            view[k] = len(s.cards_in(k[: -len(" count")]))
        elif k.startswith("line[") or k == "deck":
            view[k] = s.cards_in(k)
        else:
            view[k] = sorted(s.cards_in(k))
    return view


class Duel:
    """One game played by the model and the engine side by side."""

    def __init__(self, players: int, seed: int, single_round: bool = True, order: str = "declared"):
        self.players, self.seed, self.single_round = players, seed, single_round
        self.s = game(single_round).new_game(players=players, seed=seed)
        self.m = TrolleyCar(players, self.s.program.card_labels, single_round=single_round, order=order)
        self.step = 0
        self.history: list[str] = []    # 'p1: play(K♥)' ...
        self.laps = Counter()
        self.crossings = Counter()
        sync_deal(self.m, self.s)
        self.check("after the deal of round 1")

    def where(self) -> str:
        return (f"{self.players} players, seed {self.seed}, single_round={self.single_round}, "
                f"round {self.m.rounds_played + 1}, step {self.step}")

    def position(self) -> str:
        m = self.m
        if m.decision in ("deal", "over"):
            return f"model: {m.decision}, totals {m.totals}, round scores {m.round_scores}"
        lines = []
        for colour in COLOURS:
            ln = m.lines[colour]
            slots = " ".join(f"{i}:{'.' if c is None else m.label(c)}" for i, c in enumerate(m.line(colour)))
            lines.append(f"  {colour:5} pos {ln.pos} start {ln.start} rank {ln.rank} aside {len(m.aside[colour])} | {slots}")
        for p in range(m.n):
            lines.append(f"  hand[{p}] {sorted(m.label(c) for c in m.hands[p])} declared {[m.label(c) for c in m.declared[p]]}")
        lines.append(f"  deck {len(m.deck)} (top {[m.label(c) for c in m.deck[-3:]][::-1]}), dealer {m.dealer}, current {m.current}")
        try:
            eng = " ".join(f"{c}: pos {self.s.get_var(f'pos[{c}]')} start {self.s.get_var(f'start[{c}]')} rank {self.s.get_var(f'rank[{c}]')}" for c in COLOURS)
            lines.append(f"  engine variables: {eng}")
        except Exception:     # only a diagnostic; the variables may be renamed
            pass
        return "model position:\n" + "\n".join(lines)

    def check(self, what: str) -> None:
        mv = model_view(self.m)
        ev = engine_view(self.s, self.players, mv.keys())
        diffs = [f"  {k}: model says {mv[k]!r}, engine says {ev[k]!r}" for k in mv if mv[k] != ev[k]]
        if diffs:
            raise AssertionError(
                f"disagreement {what} ({self.where()}):\n" + "\n".join(diffs)
                + f"\n  model events of the last move: {self.m.events}"
                + f"\nlast moves: {self.history[-8:]}\n" + self.position()
            )

    def engine_move(self, move):
        for em in self.s.legal_moves():
            if em.name == move[0] and tuple(em.args) == tuple(move[1:]):
                return em
        raise AssertionError(
            f"step {self.step} ({self.where()}): model move {self.m.describe(move)} {move} has no engine "
            f"counterpart; engine moves: {[(self.s.describe(e), e.args) for e in self.s.legal_moves()]}\n"
            + self.position())

    def play(self, move) -> None:
        m = self.m
        text = f"p{m.current}: {m.describe(move)}"
        self.s.apply(self.engine_move(move))
        m.apply(move)
        self.step += 1
        self.history.append(text)
        for e in m.events:
            kind = e.split()[1]
            (self.laps if kind == "laps" else self.crossings)[e.split()[0]] += 1
        if m.decision == "deal":
            # the round is over and scored; the engine has dealt the next one already,
            # so only the running totals can be compared before re-synchronising
            totals = [self.s.get_var(f"total[{p}]") for p in range(self.players)]
            assert totals == m.totals, (
                f"totals at the end of round {m.rounds_played} (after {text}; {self.where()}): "
                f"model says {m.totals} (round scores {m.round_scores}), engine says {totals}\n"
                f"last moves: {self.history[-8:]}")
            sync_deal(m, self.s)
            self.check(f"after the deal of round {m.rounds_played + 1}")
        else:
            self.check(f"after {text}")

    def finish(self) -> None:
        assert self.m.is_over and self.s.is_over
        assert list(self.s.scores) == self.m.totals, (
            f"final scores ({self.where()}): model says {self.m.totals}, engine says {list(self.s.scores)}; "
            f"model round scores {self.m.round_scores}")
        assert sorted(self.s.winners) == self.m.winners, (
            f"winners ({self.where()}): model says {self.m.winners}, engine says {sorted(self.s.winners)}")


def play_out(duel: Duel, choose) -> Duel:
    while not duel.m.is_over:
        moves = duel.m.legal_moves()
        duel.play(moves[choose(moves)])
    duel.finish()
    return duel


def biased(rnd: random.Random, play_bias: float):
    """A chooser: a play (or play_drawn) with probability play_bias when there is one."""
    def choose(moves):
        plays = [i for i, mv in enumerate(moves) if mv[0] in ("play", "play_drawn")]
        if plays and rnd.random() < play_bias:
            return rnd.choice(plays)
        return rnd.randrange(len(moves))
    return choose


# ---------------------------------------------------------------------------
# Hypothesis: seeds, player counts and every move drawn
# ---------------------------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_differential_single_round_hypothesis(players, seed, data):
    duel = Duel(players, seed, single_round=True)
    play_out(duel, lambda moves: data.draw(st.integers(0, len(moves) - 1)))


# Shrinking a policy's random stream does not make a smaller game; it only costs time.
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


@settings(max_examples=15, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1), policy_seed=st.integers(0, 2**31 - 1),
       bias=st.sampled_from([0.0, 0.5, 0.9, 1.0]))
def test_differential_single_round_policies_hypothesis(players, seed, policy_seed, bias):
    """Long games (laps, several crossings) need play-heavy policies; hypothesis picks the
    deal, the policy and its random stream."""
    play_out(Duel(players, seed, single_round=True), biased(random.Random(policy_seed), bias))


@settings(max_examples=6, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1), policy_seed=st.integers(0, 2**31 - 1),
       bias=st.sampled_from([0.3, 0.9, 1.0]))
def test_differential_match_hypothesis(players, seed, policy_seed, bias):
    duel = play_out(Duel(players, seed, single_round=False), biased(random.Random(policy_seed), bias))
    assert duel.m.rounds_played == players


# ---------------------------------------------------------------------------
# Fixed seeds: full matches for 2..6 players
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("seed,bias", [(1, 0.9), (2, 1.0), (3, 0.3)])
def test_differential_full_match(players, seed, bias):
    duel = play_out(Duel(players, seed, single_round=False), biased(random.Random(1000 * seed + players), bias))
    assert duel.m.rounds_played == players
    assert len(duel.m.round_scores) == players


def test_fixed_seeds_reach_laps_and_crossings():
    """The fixed matches are only worth something if laps and pass-overs happen in them."""
    laps, crossings = Counter(), Counter()
    for players in (2, 4):
        duel = play_out(Duel(players, 7, single_round=False), biased(random.Random(7), 1.0))
        laps += duel.laps
        crossings += duel.crossings
    assert laps[RED] and laps[BLACK], laps
    assert crossings[RED] and crossings[BLACK], crossings


# ---------------------------------------------------------------------------
# The oracle alone
# ---------------------------------------------------------------------------

def _labels():
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    one = [f"{r}{s}" for s in "♣♦♥♠" for r in ranks]
    return one + one


def _ids(labels, wanted):
    """Distinct ids for the wanted labels (the two copies of a label may both be asked for)."""
    used, out = set(), []
    for w in wanted:
        c = next(i for i, lab in enumerate(labels) if lab == w and i not in used)
        used.add(c)
        out.append(c)
    return out


def test_oracle_crossing_takes_rank_and_lap_sets_aside():
    """Scenario from the readings: black passes over red's card at Red 4 = Black 1 and takes its rank."""
    labels = _labels()
    red_start, black_start, *hand0 = _ids(labels, ["5♥", "9♠", "6♥", "7♦", "8♥", "9♦", "2♣"])
    m = TrolleyCar(2, labels)
    m.deal(0, [hand0, _ids(labels, ["3♣", "K♠"])], _ids(labels, ["4♣", "4♦"]), red_start, black_start)
    for _ in range(2):
        m.apply(("pass",))
    assert m.current == 1                       # the seat after the dealer begins
    m.current = 0                               # let player 0 lay red cards in a row
    for label in ["6♥", "7♦", "8♥", "9♦"]:    # red 1, 2 (= black 11), 3, 4 (= black 1)
        card = next(c for c in m.hands[0] if labels[c] == label)
        m.current = 0
        m.apply(("play", card))
    black = m.lines[BLACK]
    assert (black.pos, black.rank) == (1, 9)    # passed over the 9♦ at its next space
    assert m.line(BLACK)[1] == m.line(RED)[4]
    assert m.laid(RED) == 5 and m.laid(BLACK) == 1   # the 9♦ belongs to red


def test_oracle_lap():
    labels = _labels()
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3"]
    cards = _ids(labels, [f"{r}{'♥' if i % 2 else '♦'}" for i, r in enumerate(ranks)])
    red_start, run = cards[0], cards[1:]
    m = TrolleyCar(2, labels)
    m.deal(0, [run + _ids(labels, ["K♣"]), _ids(labels, ["K♠"])], _ids(labels, ["Q♠"]), red_start,
           _ids(labels, ["5♣"])[0])
    m.apply(("pass",))
    m.apply(("pass",))
    for card in run:
        m.current = 0
        m.apply(("play", card))
    red = m.lines[RED]
    # the 15th card went on space 15; the next space is the start: 15 cards set aside
    assert (red.pos, red.start) == (15, 15)
    assert len(m.aside[RED]) == 15 and m.laid(RED) == 16
    assert [c for c in m.line(RED) if c is not None and m.colour(c) == RED] == [run[-1]]


def _random_deal(rnd: random.Random, players: int, labels):
    cards = list(range(104))
    rnd.shuffle(cards)
    hands = [cards[15 * p: 15 * (p + 1)] for p in range(players)]
    rest = cards[15 * players:]
    red = next(c for c in rest if labels[c][-1] in "♥♦")
    black = next(c for c in rest if labels[c][-1] in "♠♣")
    deck = [c for c in rest if c not in (red, black)]
    return hands, deck, red, black


def test_oracle_check_order_makes_no_difference():
    """The readings give two orders for the lap and crossing checks (declaration order over
    red, black; or line by line). Play many play-heavy games with both orders in lockstep."""
    labels = _labels()
    for g in range(150):
        rnd = random.Random(g)
        players = 2 + g % 5
        deal = _random_deal(rnd, players, labels)
        a = TrolleyCar(players, labels, order="declared")
        b = TrolleyCar(players, labels, order="per_line")
        a.deal(0, *deal)
        b.deal(0, *deal)
        choose = biased(rnd, 1.0)
        while not a.is_over:
            move = a.legal_moves()[choose(a.legal_moves())]
            a.apply(move)
            b.apply(move)
            for colour in COLOURS:
                la, lb = a.lines[colour], b.lines[colour]
                assert (a.line(colour), a.aside[colour], la.pos, la.start, la.rank) == \
                    (b.line(colour), b.aside[colour], lb.pos, lb.start, lb.rank), (g, a.events, b.events)
        assert a.totals == b.totals
