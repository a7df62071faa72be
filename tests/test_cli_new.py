"""`ruledsl new NAME`: the game it writes checks, runs, verifies and passes its scenarios; nothing is overwritten."""


from pathlib import Path

from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.scenarios.runner import load_scenarios
from ruledsl.verify import verify


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def test_the_new_game_checks_runs_verifies_and_passes_its_scenarios(tmp_path):
    result = invoke("new", "card_race", "--dir", tmp_path)
    assert result.exit_code == 0, result.output
    rules, scenarios = tmp_path / "card_race.rules", tmp_path / "card_race.test.rules"
    assert result.output.startswith(f"wrote {rules} and {scenarios}\n")
    game = ruledsl.load(rules)
    assert game.name == "Card Race"
    assert 'scenarios for "card_race.rules"' in scenarios.read_text(encoding="utf-8")
    file = load_scenarios(scenarios)
    outcomes = [file.run(s) for s in file.scenarios]
    assert len(outcomes) == 3 and all(o.passed for o in outcomes), [o.message for o in outcomes]
    assert invoke("run", rules, "--seed", "2").exit_code == 0
    assert verify(game, examples=2, seed=1, shrink_seconds=2).ok


def test_a_title_names_the_game_and_the_files_say_how_to_run_them(tmp_path):
    assert invoke("new", "x", "--dir", tmp_path, "--title", "Pile Up").exit_code == 0
    text = (tmp_path / "x.rules").read_text(encoding="utf-8")
    assert 'game "Pile Up"' in text and "ruledsl test x.rules" in text
    assert "$" not in text  # every placeholder of the template filled in


def test_nothing_is_overwritten_without_force(tmp_path):
    (tmp_path / "mine.test.rules").write_text("my scenarios", encoding="utf-8")
    result = invoke("new", "mine", "--dir", tmp_path)
    assert result.exit_code == 2
    assert result.output == (f"error: {tmp_path / 'mine.test.rules'} exists already "
                             "(give --force to overwrite, or choose another NAME)\n")
    assert not (tmp_path / "mine.rules").exists()  # nothing half-written
    assert (tmp_path / "mine.test.rules").read_text(encoding="utf-8") == "my scenarios"
    assert invoke("new", "mine", "--dir", tmp_path, "--force").exit_code == 0
    assert (tmp_path / "mine.test.rules").read_text(encoding="utf-8").startswith("# Scenarios for Mine")


def test_a_name_that_is_not_a_file_name_is_refused(tmp_path):
    for bad in ("../up", "9lives", "a b", ""):
        result = invoke("new", bad, "--dir", tmp_path)
        assert result.exit_code == 2, bad
        assert "is not a name for a game file" in result.output
    assert list(tmp_path.iterdir()) == []


def test_help_lists_each_commands_whole_first_sentence():
    result = invoke("--help")
    listing = result.output[result.output.index("Commands:"):]
    assert "..." not in listing
    joined = " ".join(listing.split())
    assert "compare Play the same seeds with BASE and VARIANT and report the paired change of win rates and scores." in joined
    assert "new Start a new game: write NAME.rules and NAME.test.rules, a small game and its scenarios." in joined


def test_compare_and_report_without_the_report_extra_say_which_extra_to_install(tmp_path, monkeypatch):
    """The core install has no scipy or matplotlib: the commands that need them say so before any game."""
    import sys

    monkeypatch.setitem(sys.modules, "scipy", None)  # `import scipy` now raises ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    game = Path(__file__).resolve().parent.parent / "games" / "trolley_car.rules"
    extra = "which the `report` extra brings: pip install 'ruledsl[report]'"
    compare = invoke("compare", game, game, "-n", "2")
    assert compare.exit_code == 2 and extra in compare.output and "games in" not in compare.output
    report = invoke("simulate", game, "-n", "2", "--report", tmp_path / "out")
    assert report.exit_code == 2 and extra in report.output and "games in" not in report.output
    assert invoke("simulate", game, "-n", "2").exit_code == 0  # a plain simulation needs neither


def test_shell_completion_as_the_readme_says(monkeypatch):
    """README's `_RULEDSL_COMPLETE=bash_source ruledsl` prints a completion script for the shell."""
    monkeypatch.setenv("_RULEDSL_COMPLETE", "bash_source")
    result = CliRunner().invoke(main, [], prog_name="ruledsl")
    assert result.exit_code == 0
    assert "_ruledsl_completion()" in result.output and "complete -o nosort -F _ruledsl_completion ruledsl" in result.output
