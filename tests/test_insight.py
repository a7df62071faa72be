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
    assert per["depth"] == 0.5  # by 1, and the widest gap of the game is 2 (1-3)
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


def test_tune_finds_the_goal_that_gives_the_length(tmp_path):
    from click.testing import CliRunner

    from ruledsl.cli import main

    png = tmp_path / "tune.png"
    out = CliRunner().invoke(main, ["tune", str(DATA / "race.rules"), "--param", "goal=2..8", "--target",
                                    "length=6", "--games", "20", "--json", "--plot", str(png)])
    assert out.exit_code == 0, out.output
    import json

    data = json.loads(out.output.splitlines()[-1])
    best = data["best"]
    assert best["params"]["goal"] in (5, 6) and best["ci95"][0] <= best["value"] <= best["ci95"][1]
    assert len(data["candidates"]) == 7 and all(c["games"] == 20 for c in data["candidates"])
    assert png.stat().st_size > 0


def test_tune_by_halving_plays_fewer_games():
    from ruledsl.play.tune import grid, parse_range, parse_target, tune

    game = ruledsl.load(DATA / "race.rules")
    assert grid([("a", 1, 20)], 4) == [{"a": 1}, {"a": 7}, {"a": 14}, {"a": 20}]
    assert parse_range("goal=2..8") == ("goal", 2, 8) and parse_target("length=6") == ("length", 6.0)
    result = tune(lambda p: ruledsl.load(DATA / "race.rules", p), DATA / "race.rules", 2, 0, 40, "random",
                  [("goal", 2, 9)], "length", 6.0, search="halving")
    assert result["played"] < 8 * 40 and result["best"]["games"] == 40
    assert game is not None


def test_tune_refuses_bad_options():
    from click.testing import CliRunner

    from ruledsl.cli import main

    runner = CliRunner()
    assert runner.invoke(main, ["tune", str(DATA / "race.rules"), "--param", "goal=2"]).exit_code == 2
    assert runner.invoke(main, ["tune", str(DATA / "race.rules"), "--param", "nope=1..2"]).exit_code == 2
    assert runner.invoke(main, ["tune", str(DATA / "race.rules"), "--param", "goal=2..3",
                                "--target", "fun"]).exit_code == 2


def _tune_json(*args):
    import json

    from click.testing import CliRunner

    from ruledsl.cli import main

    out = CliRunner().invoke(main, ["tune", *args, "--json", "-q"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output.splitlines()[-1])


def test_tune_a_true_false_parameter_for_fairness():
    # tunable.rules: fair_deal=false gives seat 0 every win; true deals one card each (half the wins each)
    data = _tune_json(str(DATA / "tunable.rules"), "--param", "fair_deal", "--target", "fair", "--games", "60")
    values = {c["params"]["fair_deal"]: c for c in data["candidates"]}
    assert set(values) == {False, True}
    assert values[False]["value"] == 1.0 and values[False]["cost"] == 0.5
    assert data["best"]["params"] == {"fair_deal": True}
    assert data["best"]["ci95"][0] < 0.5 < data["best"]["ci95"][1]


def test_tune_lists_of_numbers_and_texts_for_a_length():
    # a "long" game lasts pace rounds of two moves; a "short" one one round
    data = _tune_json(str(DATA / "tunable.rules"), "--param", "pace=1,3,5", "--target", "length=6", "--games", "5")
    assert [c["params"]["pace"] for c in data["candidates"]] == [1, 3, 5]
    assert [c["value"] for c in data["candidates"]] == [2.0, 6.0, 10.0]
    assert data["best"]["params"] == {"pace": 3} and data["indistinguishable"] == [{"pace": 3}]
    data = _tune_json(str(DATA / "tunable.rules"), "--param", "mode=long,short", "--target", "length=2",
                      "--games", "5")
    assert [c["params"]["mode"] for c in data["candidates"]] == ["long", "short"]
    assert data["best"]["params"] == {"mode": "short"} and data["best"]["value"] == 2.0


def test_tune_for_drama(tmp_path):
    # comeback.rules: with comeback the winner is behind after three of the four turns, without it never
    png = tmp_path / "drama.png"
    data = _tune_json(str(DATA / "comeback.rules"), "--param", "comeback=false,true", "--target", "drama",
                      "--games", "6", "--plot", str(png))
    values = {c["params"]["comeback"]: c["value"] for c in data["candidates"]}
    assert values == {False: 0.0, True: 0.75} and data["best"]["params"] == {"comeback": True}
    assert png.stat().st_size > 0


def test_tune_parameter_forms_and_their_errors():
    from ruledsl.language.errors import ParameterError
    from ruledsl.play.tune import grid, parse_param, resolve

    assert parse_param("a=1..3") == ("a", 1, 3)
    assert parse_param("a=1,5,9") == ("a", [1, 5, 9]) and parse_param("m=x, y") == ("m", ["x", "y"])
    assert parse_param("flag") == ("flag", None)
    assert resolve(("flag", None), False) == ("flag", [False, True])
    assert resolve(("flag", ["True", "false"]), True) == ("flag", [True, False])
    assert grid([("a", 1, 3), ("f", [False, True])], 8) == [
        {"a": 1, "f": False}, {"a": 1, "f": True}, {"a": 2, "f": False}, {"a": 2, "f": True},
        {"a": 3, "f": False}, {"a": 3, "f": True}]
    for bad in ("a=1", "a=1,1", "a=,2", "9a=1,2"):
        with pytest.raises(ParameterError):
            parse_param(bad)
    for spec, default in ((("m", None), "text"), (("m", 1, 3), "text"), (("f", ["yes", "no"]), False),
                          (("n", ["one", "two"]), 3), (("f", 1, 2), True)):
        with pytest.raises(ParameterError):
            resolve(spec, default)
