"""The benchmark scripts still run (they measure only; nothing here looks at a speed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_reports_the_ratio_to_the_speed_minded_reference(capsys):
    bench = _module("bench")
    assert bench.main(["--playouts", "1", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "benchmarks/hand/trolley_car.py" in out and "uno.rules" in out
    for row in ("random playouts", "clone()", "legal_moves()"):
        assert out.count(row) == 3, row  # 2, 4 and 6 players
    # the peer rows (UNO against OpenSpiel's crazy_eights and RLCard), or why each was left out
    assert "OpenSpiel crazy_eights" in out or "pyspiel is not installed" in out
    assert "RLCard env" in out or "the peer row: RLCard is not installed" in out
    assert "÷ release" in out


def test_bench_times_by_cpu_and_prints_only_the_speed_table_when_asked(capsys):
    bench = _module("bench")
    try:
        assert bench.main(["--playouts", "1", "--seconds", "0.02", "--cpu", "--only-speed"]) == 0
        assert bench.CLOCK[0] is bench.time.process_time
    finally:
        bench.CLOCK[0] = bench.time.perf_counter
    out = capsys.readouterr().out
    assert out.count("random playouts") == 3 and "uno.rules" not in out


def test_bench_compares_with_the_release_file(tmp_path, capsys):
    """--save writes a release file; a later run prints its ratio to it for every game."""
    bench = _module("bench")
    saved = tmp_path / "release.json"
    args = ["--playouts", "1", "--rounds", "2", "--no-speed", "--no-peer"]
    assert bench.main(args + ["--save", str(saved), "--label", "test"]) == 0
    import json

    figures = json.loads(saved.read_text())
    assert figures["release"] == "test" and "uno.rules/2" in figures["games"]
    assert set(figures["games"]["uno.rules/2"]) == {"players", "moves_per_second", "per_reference"}
    capsys.readouterr()
    assert bench.main(args + ["--release", str(saved)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "uno.rules" in line)
    assert row.count(".") >= 3  # ÷ reference, its spread and ÷ release are numbers, not "-"


def test_the_release_file_checked_in_names_games_that_exist():
    """Every game of the previous release's figures is still a game; a game added since (it has no
    figure yet: bench.py prints `-` for it) is the only kind allowed to be missing."""
    import json

    bench = _module("bench")
    release = json.loads(bench.RELEASE.read_text())
    names = {key.split("/")[0] for key in release["games"]}
    games = {p.name for p in bench.top_level_games(ROOT / "games")}
    assert names <= games
    assert games - names <= {"partnership_whist.rules", "stairway.rules"}  # added after the release file was measured


def test_the_playouts_of_the_rules_file_and_the_reference_play_the_same_games_on_average():
    """The reference keeps hands as card counts and lists its moves in its own order, so with the same
    seed the two sides play different (equally likely) games; tests/test_hand_reference.py shows
    move by move that the games are the same. Here: over 200 seeds, the same mean length of a round
    (a deterministic check, the seeds are fixed; the means differ by about 1%)."""
    bench = _module("bench")
    import ruledsl

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    for players in (2, 4):
        engine, hand = bench.engine_playout(game, players), bench.hand_trolley_playout(players)
        mine = sum(hand(seed)[0] for seed in range(200))
        theirs = sum(engine(seed)[0] for seed in range(200))
        assert abs(mine - theirs) < 0.03 * theirs, (players, mine, theirs)


def test_compare_references_runs(tmp_path, capsys):
    """benchmarks/compare_references.py times the rules file beside an old and the current reference."""
    old = tmp_path / "old.py"
    old.write_text((ROOT / "benchmarks" / "hand" / "trolley_car.py").read_text())  # any version will do
    compare = _module("compare_references")
    assert compare.main([str(old), "--seconds", "0.03", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 4 and "new ÷ old" in out


def test_load_prints_each_start_up_figure_beside_its_target(capsys):
    load = _module("load")
    assert load.main(["--runs", "1", "--game", "tutorial_highlow"]) == 0
    out = capsys.readouterr().out
    assert 'python -c "import ruledsl"' in out and "(≤ 150: " in out
    (row,) = [line for line in out.splitlines() if line.startswith("| tutorial_highlow.rules |")]
    assert "(≤ 100: " in row and "(≤ 300: " in row


def test_playouts_plays_both_sides_for_a_profiler():
    playouts = _module("playouts")
    assert playouts.main(["hand", "3", "2"]) == 0
    assert playouts.main(["rules", "3", "1"]) == 0
