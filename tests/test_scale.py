"""Many games at once: the same results in one process, in several and on Dask; reports; paired comparison."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.play.report import balance, paired, proportion_ci
from ruledsl.play.scale import coverage_of, run_games
from ruledsl.play.sim import add_up, derive_seed, simulate

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
CAR = ROOT / "games" / "trolley_car.rules"
BET = ROOT / "games" / "trolley_car_bet.rules"


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def race():
    return ruledsl.load(DATA / "race.rules")


def test_simulate_with_jobs_prints_what_one_process_prints():
    one = invoke("simulate", CAR, "--games", 12, "--seed", 3, "--json")
    two = invoke("simulate", CAR, "--games", 12, "--jobs", 2, "--seed", 3, "--json")
    assert one.exit_code == 0 and two.exit_code == 0, two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert one.stderr == ""  # --json alone: nothing on stderr
    assert "12 games in " in two.stderr and "games/s" in two.stderr  # the throughput, on stderr


def test_records_and_coverage_do_not_depend_on_the_number_of_processes(race):
    path = DATA / "race.rules"
    one = run_games(race, path, {}, 3, 5, 30, "random", jobs=1, coverage=True)
    two = run_games(race, path, {}, 3, 5, 30, "random", jobs=2, coverage=True)
    assert one.records == two.records
    assert one.coverage == two.coverage
    assert [r["index"] for r in one.records] == list(range(30))
    assert [r["seed"] for r in one.records] == [derive_seed(5, i) for i in range(30)]
    # and the records add up to what simulate() finds game by game
    stats = add_up(one.records, race.name, 30, 3, 5, {"goal": 6}, ["random"] * 3)
    assert stats == simulate(race, 30, 3, 5)
    assert sum(r["decisions"] for r in one.records) == sum(r["length"] for r in one.records)


def test_a_dask_cluster_gives_the_results_of_a_local_run(race):
    import distributed  # in the dev and scale extras
    path = DATA / "race.rules"
    local = run_games(race, path, {}, 2, 11, 40, "random", jobs=1, coverage=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_games(race, path, {}, 2, 11, 40, "random", dask=cluster.scheduler_address, coverage=True)
        result = invoke("simulate", path, "--games", 40, "--seed", 11, "--json", "--dask", cluster.scheduler_address)
    assert remote.records == local.records
    assert remote.coverage == local.coverage
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["wins"] == add_up(local.records, race.name, 40, 2, 11, {}, []).wins
    assert "on Dask at" in result.stderr


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch):
    import distributed  # noqa: F401  (in the dev and scale extras: the test must not be skipped)
    monkeypatch.setenv("RULEDSL_DASK_TIMEOUT", "1")
    result = invoke("simulate", DATA / "race.rules", "--games", 2, "--dask", "tcp://127.0.0.1:9")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_a_rule_that_fails_in_a_worker_is_reported_as_in_one_process():
    one = invoke("simulate", DATA / "stuck.rules", "--games", 4, "--seed", 2)
    two = invoke("simulate", DATA / "stuck.rules", "--games", 4, "--seed", 2, "--jobs", 2)
    assert one.exit_code == two.exit_code == 1
    assert "has no legal move" in two.stderr
    assert f"game 0 of the simulation (seed {derive_seed(2, 0)})" in two.stderr
    assert one.stderr.splitlines()[:3] == two.stderr.splitlines()[:3]


def test_the_confidence_interval_is_scipys_wilson_interval():
    low, high = proportion_ci(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert proportion_ci(0, 10)[0] == 0.0


def test_balance_counts_wins_moves_and_coverage(race):
    run = run_games(race, DATA / "race.rules", {}, 2, 1, 25, "random", coverage=True)
    rep = balance(run.records, 2, coverage_of(race, run.coverage))
    assert rep["games"] == 25
    for seat in rep["seats"]:
        assert seat["win_rate_ci95"][0] <= seat["win_rate"] <= seat["win_rate_ci95"][1]
    assert sum(rep["moves_chosen"].values()) == sum(r["length"] for r in run.records)
    assert sum(rep["length"]["histogram"].values()) == 25
    assert rep["mean_legal_moves"] >= 1
    assert "summary" in rep["coverage"] and isinstance(rep["coverage"]["lines_never_run"], list)


def test_simulate_report_writes_a_page_with_plots(tmp_path):
    out = tmp_path / "rep"
    result = invoke("simulate", DATA / "race.rules", "--games", 20, "--seed", 1, "--report", out, "--json")
    assert result.exit_code == 0, result.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    images = [line for line in page.split("<img ")[1:]]
    assert len(images) >= 4
    for img in images:
        name = img.split('src="')[1].split('"')[0]
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["balance"]["games"] == 20
    assert json.loads(result.stdout)["wins"] == data["wins"]  # stdout stays the plain --json


def test_a_report_directory_that_cannot_be_made_is_a_usage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = invoke("simulate", DATA / "race.rules", "--games", 2, "--report", blocker / "sub")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot make the report directory")


def test_paired_comparison_of_a_game_with_itself_changes_nothing(race):
    run = run_games(race, DATA / "race.rules", {}, 2, 4, 30, "random")
    result = paired(run.records, run.records, 2)
    for seat in result["seats"]:
        assert seat["win_rate_change"] == 0 and seat["mcnemar_p"] == 1.0
        assert seat["mean_score_change_ci95"] == [0.0, 0.0]


def test_compare_finds_the_change_of_a_parameter():
    result = invoke("compare", DATA / "race.rules", DATA / "race.rules", "--games", 30, "--seed", 1,
                    "--variant-set", "goal=3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["variant"]["params"] == {"goal": 3} and data["games"] == 30
    assert data["length_change"] < 0  # a lower goal ends the race sooner
    lo, hi = data["length_change_ci95"]
    assert lo <= data["length_change"] <= hi < 0


def test_compare_prints_paired_differences_with_intervals():
    result = invoke("compare", CAR, BET, "--games", 16, "--seed", 1, "--jobs", 2)
    assert result.exit_code == 0, result.stderr
    assert "95% CI" in result.stdout and "McNemar p" in result.stdout
    assert "game length change" in result.stdout


def test_compare_refuses_a_player_count_one_side_cannot_seat(tmp_path):
    result = invoke("compare", DATA / "race.rules", CAR, "--players", 9)
    assert result.exit_code == 2
    assert "not 9 (use --players)" in result.stderr


def test_verify_with_jobs_reaches_the_verdict_of_one_process(tmp_path):
    good = DATA / "race.rules"
    bad = tmp_path / "race_low.rules"
    bad.write_text(good.read_text(encoding="utf-8") +
                   'invariant low for p in players: points[p] < 4 "nobody gets far"\n', encoding="utf-8")
    for rules, code in ((good, 0), (bad, 1)):
        one = invoke("verify", rules, "-k", 6, "--shrink-seconds", 2, "--out", tmp_path / "one.json")
        two = invoke("verify", rules, "-k", 6, "--shrink-seconds", 2, "--jobs", 2, "--out", tmp_path / "two.json")
        assert one.exit_code == two.exit_code == code, two.stdout + two.stderr
        if code == 0:
            assert "ok: every check held in 6 games" in two.stdout
        else:
            assert "FAILED: invariant low" in one.stdout and "FAILED: invariant low" in two.stdout
            assert json.loads((tmp_path / "two.json").read_text(encoding="utf-8"))["failure"]["check"] == \
                "invariant low"


def test_verify_shards_split_the_examples(race):
    from ruledsl.verify.parallel import verify_parallel, verify_shards

    assert verify_shards(7, 3, 1) == [(7, 3)]
    assert [k for k, _ in verify_shards(7, 3, 3)] == [3, 2, 2]
    assert len({s for _, s in verify_shards(7, 3, 3)}) == 3
    a = verify_parallel(race, DATA / "race.rules", {}, None, 5, 1, 2, 1.0)
    b = verify_parallel(race, DATA / "race.rules", {}, None, 5, 1, 2, 1.0)
    assert a.ok and a.examples == 5
    assert (a.steps, a.longest, a.coverage.summary()) == (b.steps, b.longest, b.coverage.summary())


def test_search_bots_with_settings_give_the_same_games_in_every_mode(race):
    """Bots are rebuilt in each game from their name, settings and the game's seed, wherever it is played."""
    import distributed

    path = DATA / "race.rules"
    bots = ["mcts:iterations=8", "random"]
    one = run_games(race, path, {}, 2, 7, 6, bots, jobs=1, coverage=True)
    two = run_games(race, path, {}, 2, 7, 6, bots, jobs=2, coverage=True)
    assert one.records == two.records and one.coverage == two.coverage
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_games(race, path, {}, 2, 7, 6, bots, dask=cluster.scheduler_address)
    assert [r["scores"] for r in remote.records] == [r["scores"] for r in one.records]
    stats = simulate(race, 6, 2, 7, bots)
    assert add_up(one.records, race.name, 6, 2, 7, {"goal": 6}, stats.bots) == stats
    assert stats.bots == bots
    # the search's imagined games do not count as coverage: only the moves played are noted
    assert sum(one.coverage["taken"].values()) == sum(r["length"] for r in one.records)
    ones = sum(r["chosen"].get("one", 0) for r in one.records)
    lines = {i.what: i.counts[0] for i in coverage_of(race, one.coverage).items() if i.kind == "line"}
    assert lines["`move one { points[current] += 1 }`"] == ones > 0


def test_compare_report_draws_base_and_variant_on_shared_axes(tmp_path):
    out = tmp_path / "rep"
    result = invoke("compare", DATA / "race.rules", DATA / "race.rules", "--games", 10, "--variant-set",
                    "goal=4", "--report", out, "--quiet")
    assert result.exit_code == 0, result.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    names = [img.split('src="')[1].split('"')[0] for img in page.split("<img ")[1:]]
    for shared in ("compare_win_rates.png", "compare_scores.png", "compare_margin.png", "compare_length.png"):
        assert shared in names and (out / shared).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not any(n.endswith(("_win_rates.png", "_scores.png")) and n.startswith("run") for n in names)
    assert not (out / "run0_win_rates.png").exists()
    assert "run0_lead_changes.png" in names  # the measures drawn one run at a time stay


def _record(winners, scores=(0, 0)):
    return {"winners": list(winners), "scores": list(scores), "length": 1, "decisions": 1, "chosen": {},
            "finding": None, "legal": 1, "standings": [], "trajectory": []}


def test_the_first_player_test_counts_a_shared_win_as_a_share():
    from ruledsl.play.report import _first_player
    from ruledsl.play.intervals import _scipy_stats

    stats = _scipy_stats()
    # every game a tie of both seats: seat 0 wins every game counted whole, yet has no advantage
    tied = _first_player([_record([0, 1])] * 20, 2, stats)
    assert tied["win_rate"] == 1.0 and tied["win_share"] == 0.5 and tied["advantage"] == 0.0
    assert tied["p_value"] == 1.0 and tied["test"] == "t"
    # no shared wins: the exact binomial test
    plain = _first_player([_record([0])] * 15 + [_record([1])] * 5, 2, stats)
    assert plain["test"] == "binomial" and plain["win_share"] == 0.75
    assert plain["p_value"] == pytest.approx(float(stats.binomtest(15, 20, 0.5).pvalue))
    # games without a winner are left out
    assert _first_player([_record([])] * 3 + [_record([0])], 2, stats)["decided"] == 1
