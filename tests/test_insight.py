"""Design metrics (docs/scale.md), each on a tiny game whose value is known by construction."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.play.insight import design, dominance, skill, skill_runs
from ruledsl.play.scale import run_games
from ruledsl.play.trajectory import game_metrics, leader

DATA = Path(__file__).parent / "data"


def _run(name, games=40, bots="random", seed=0):
    path = DATA / f"{name}.rules"
    game = ruledsl.load(path)
    return game, path, run_games(game, path, {}, 2, seed, games, bots)


def test_one_lead_change_game_has_exactly_one_lead_change():
    # seat 0 leads 1-0, seat 1 goes ahead 1-3 and wins 2-3: samples (0,0) (1,0) (1,3) (2,3)
    _, _, run = _run("one_lead")
    per = run.records[0]["design"]
    assert per["lead_changes"] == 1
    assert per["behind"] == 0.25  # behind in one sample of four
    assert per["depth"] == 1.0  # and then last by the whole spread
    assert per["decided_at"] == 0.5  # the winner leads from the third sample of four on
    d = design(run.records, 2)
    assert d["lead_changes"]["mean"] == 1.0 and d["lead_changes"]["ci95"] == [1.0, 1.0]
    assert d["lead_changes"]["at_least_one"]["rate"] == 1.0
    assert d["drama"]["behind"]["mean"] == 0.25
    assert d["drama"]["ever_behind"]["rate"] == 1.0
    assert d["decided_at"]["mean"] == 0.5
    assert d["first_mover"]["share"] == 0.0  # seat 1 always wins
    assert d["stalemate"]["rate"] == 0.0
    assert d["length"]["mean"] == 4 and d["length"]["sd"] == 0.0


def test_game_metrics_by_hand():
    assert leader([1, 1, 0]) is None and leader([0, 2, 1]) == 1
    # a tie at the top is skipped: 0 leads, tie, 0 leads again, 1 wins: one change
    m = game_metrics([[1, 0], [1, 1], [2, 1]], [1])
    assert m["lead_changes"] == 1 and m["decided_at"] == 1.0 and m["behind"] == pytest.approx(2 / 3)
    # a shared win has no winner to be behind
    m = game_metrics([[1, 0], [0, 1]], [0, 1])
    assert m["lead_changes"] == 1 and m["behind"] is None and m["decided_at"] is None


def test_shared_wins_count_as_fractions_for_the_first_mover():
    # greedy players always take: every game is a shared win, 3 points each
    _, _, run = _run("take", games=10, bots="greedy")
    assert all(r["winners"] == [0, 1] for r in run.records)
    d = design(run.records, 2)
    assert d["first_mover"]["share"] == 0.5 and d["first_mover"]["advantage"] == 0.0


def test_a_pure_luck_game_has_no_skill():
    game, path, _ = _run("coin", games=1)
    # every deal is played by greedy against random in each seat and by greedy against itself:
    # the cards decide, so each deal gives the same shares: skill exactly 0
    out = skill_runs(game, path, {}, 2, 0, 60, "greedy")
    assert out["skill"]["index"] == 0.0 and out["skill"]["ci95"] == [0.0, 0.0]
    assert out["dominance"]["dominant"] == [] and out["dominance"]["never"] == []


def test_a_pure_skill_game_has_its_skill_and_its_dominant_move():
    # greedy always takes; random takes k of 3 (binomial): greedy wins unless k = 3 (a shared win),
    # so its share against random is 7/8 + 1/16 = 0.9375; against itself always 0.5: skill 0.875
    game, path, _ = _run("take", games=1)
    out = skill_runs(game, path, {}, 2, 0, 80, "greedy")
    s = out["skill"]
    assert s["against_itself"]["mean"] == 0.5
    assert s["ci95"][0] <= 0.875 <= s["ci95"][1]
    assert out["dominance"]["dominant"] == ["take"] and out["dominance"]["never"] == ["pass"]


def test_skill_and_dominance_by_hand():
    # seat 0 always wins: in each deal the strong bot wins in one seat of two, as against itself
    rnd = [{"winners": [0], "strong": s, "scores": [1, 0], "index": i} for i in range(3) for s in range(2)]
    me = [{"winners": [0], "scores": [1, 0], "index": i} for i in range(3)]
    assert skill(rnd, me)["index"] == 0.0
    rnd = [{"winners": [s], "strong": s, "scores": [1, 0], "index": i} for i in range(3) for s in range(2)]
    assert skill(rnd, me)["index"] == 1.0  # it wins in every seat
    d = dominance([{"offered": {"a": 5, "b": 5}, "picked": {"a": 5}}])
    assert d["dominant"] == ["a"] and d["never"] == ["b"]
    assert dominance([{"offered": {"a": 4, "b": 4}, "picked": {"a": 4}}])["dominant"] == []  # too few


def test_stalemates_and_length_spread():
    recs = [{"winners": [], "finding": "the move bound", "length": 10, "design": {"lead_changes": 0}},
            {"winners": [0], "finding": None, "length": 20, "design": {"lead_changes": 0}},
            {"winners": [], "finding": None, "length": 30, "design": {"lead_changes": 0}}]
    d = design(recs, 2)
    assert d["stalemate"]["rate"] == pytest.approx(2 / 3) and d["stalemate"]["at_move_bound"] == 1
    assert d["length"]["mean"] == 20 and d["length"]["sd"] == 10 and d["length"]["quartiles"] == [15, 20, 25]
    assert d["length"]["sd_ci95"][0] < 10 < d["length"]["sd_ci95"][1]
