"""What a rules file (or a game log) from anyone may open: `include`, `extends` and a log's "rules" path.

They reach only .rules files inside the opened file's folder tree, a shared folder
(RULEDSL_PATH, --include-dir) or the standard library, symlinks resolved; anything
else is E003 with the path as written, and nothing of that file is ever printed.
"""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl import RulesError
from ruledsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "games" / "lib" / "standard.rules"
SECRET = "TOP-SECRET-MARKER-4711"
GAME = 'game "G"\nplayers 2..2\nflow { end game }\n'


def invoke(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


def codes(text, path):
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, str(path))
    return info.value


@pytest.fixture
def tree(tmp_path):
    """proj/ holds the game; outside/ holds files the game must not reach (each with a secret)."""
    proj, outside = tmp_path / "proj", tmp_path / "outside"
    (proj / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "x.rules").write_text(f"{SECRET} and more\n", encoding="utf-8")
    (outside / "ok.rules").write_text("define shared_one = 1\n", encoding="utf-8")
    (proj / "notes.txt").write_text(f"{SECRET}=1\n", encoding="utf-8")
    return proj, outside


def check_output(path, *extra, env=None):
    result = invoke("check", path, *extra, env=env)
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes is not None else "")


@pytest.mark.parametrize("name", ["/etc/passwd", "/proc/self/environ", "../outside/x.rules",
                                  "../../outside/x.rules", "sub/../../outside/x.rules"])
def test_an_include_out_of_the_folder_tree_is_refused_without_showing_the_file(tree, name):
    proj, outside = tree
    game = proj / "sub" / "game.rules" if name.startswith("../../") else proj / "game.rules"
    game.write_text(f'include "{name}"\n{GAME}', encoding="utf-8")
    code, out = check_output(game, env={"SOME_SECRET_VAR": SECRET})
    assert code == 1
    assert f'error[E003]: the included file "{name}" is outside the folders a rules file may include from' in out
    assert SECRET not in out and "root:" not in out and "Traceback" not in out
    assert "--include-dir" in out  # says what to do


def test_extends_obeys_the_same_rule(tree):
    proj, _ = tree
    (proj / "v.rules").write_text('extends "../outside/x.rules"\n', encoding="utf-8")
    err = codes((proj / "v.rules").read_text(encoding="utf-8"), proj / "v.rules")
    assert [d.code for d in err.diagnostics] == ["E003"] and "base file" in err.diagnostics[0].message
    assert SECRET not in str(err)


def test_a_symlink_is_judged_by_where_it_leads(tree):
    proj, outside = tree
    (proj / "out.rules").symlink_to(outside / "x.rules")
    (proj / "in.rules").symlink_to(proj / "sub" / "real.rules")
    (proj / "sub" / "real.rules").write_text("define here_one = 1\n", encoding="utf-8")
    (proj / "linked").symlink_to(outside, target_is_directory=True)
    for name in ("out.rules", "linked/x.rules"):
        err = codes(f'include "{name}"\n{GAME}', proj / "game.rules")
        assert [d.code for d in err.diagnostics] == ["E003"] and SECRET not in str(err)
    ruledsl.loads(f'include "in.rules"\n{GAME}', str(proj / "game.rules"))


def test_only_rules_files_can_be_included(tree):
    proj, _ = tree
    err = codes(f'include "notes.txt"\n{GAME}', proj / "game.rules")
    [d] = err.diagnostics
    assert d.code == "E003" and d.message == 'the included file "notes.txt" is not a .rules file'
    assert SECRET not in str(err) and ".rules" in d.hint


def test_an_included_file_that_is_not_utf8_shows_no_excerpt(tree):
    proj, _ = tree
    (proj / "bin.rules").write_bytes(SECRET.encode() + b"\xb2\xff\n")
    err = codes(f'include "bin.rules"\n{GAME}', proj / "game.rules")
    [d] = err.diagnostics
    assert d.code == "E002" and d.source_line is None and SECRET not in str(err)


def test_includes_inside_the_tree_and_the_library_still_work(tree):
    proj, _ = tree
    (proj / "sub" / "b.rules").write_text('include "../c.rules"\n', encoding="utf-8")
    (proj / "c.rules").write_text("define c_one = 1\n", encoding="utf-8")
    ruledsl.loads(f'include "sub/b.rules"\ninclude "standard.rules"\ninclude "{LIBRARY}"\n{GAME}',
                  str(proj / "game.rules"))


def test_rules_given_as_text_reach_the_working_folder_and_the_library_only(tree, monkeypatch):
    proj, _ = tree
    monkeypatch.chdir(proj)
    (proj / "here.rules").write_text("define here_one = 1\n", encoding="utf-8")
    ruledsl.loads(f'include "here.rules"\ninclude "standard.rules"\n{GAME}')
    err = codes(f'include "/etc/passwd"\n{GAME}', "<rules>")
    assert [d.code for d in err.diagnostics] == ["E003"]


def test_odd_include_paths_are_errors_not_crashes(tree):
    proj, _ = tree
    for name in ("", ".", "sub", "a\x00b.rules", "x" * 5000 + ".rules", "/"):
        err = codes(f'include "{name}"\n{GAME}', proj / "game.rules")
        assert {d.code for d in err.diagnostics} <= {"E003", "E208", "E100"}, (name[:20], str(err))


def test_a_shared_folder_is_named_with_include_dir_or_ruledsl_path(tree, monkeypatch):
    proj, outside = tree
    game = proj / "game.rules"
    game.write_text(f'include "ok.rules"\n{GAME}', encoding="utf-8")
    code, out = check_output(game)
    assert code == 1 and 'cannot find the included file "ok.rules"' in out and "RULEDSL_PATH" in out
    code, out = check_output(game, "--include-dir", outside)
    assert code == 0, out
    assert "RULEDSL_PATH" not in os.environ  # the option lasts for its command only
    code, out = check_output(game, env={"RULEDSL_PATH": str(outside)})
    assert code == 0, out
    # a path into the shared folder is fine as well, but not beyond it
    game.write_text(f'include "../outside/ok.rules"\n{GAME}', encoding="utf-8")
    assert check_output(game, "--include-dir", outside)[0] == 0
    game.write_text(f'include "../outside/../../x.rules"\n{GAME}', encoding="utf-8")
    assert check_output(game, "--include-dir", outside)[0] == 1


# ---- a game log's "rules" path


@pytest.fixture
def log_of(tmp_path):
    rules = tmp_path / "logs" / "race.rules"
    rules.parent.mkdir()
    rules.write_text((ROOT / "games" / "tutorial_highlow.rules").read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "logs" / "game.json"
    assert invoke("run", rules, "--seed", "3", "--log", log).exit_code == 0
    data = json.loads(log.read_text(encoding="utf-8"))

    def write(rules_path):
        log.write_text(json.dumps({**data, "rules": rules_path}), encoding="utf-8")
        return log

    return write


@pytest.mark.parametrize("named", ["/etc/passwd", "../outside.rules", "/proc/self/environ"])
def test_a_log_naming_rules_outside_its_folder_is_refused(log_of, tmp_path, named):
    (tmp_path / "outside.rules").write_text(f"{SECRET}\n", encoding="utf-8")
    result = invoke("replay", log_of(named), "-q")
    assert result.exit_code == 2
    assert f"the log names the rules file {named}, which is outside the log's folder" in result.output
    assert "--rules" in result.output and SECRET not in result.output and "root:" not in result.output


def test_a_log_naming_a_file_that_is_not_rules_is_refused(log_of, tmp_path):
    log = log_of("notes.txt")
    (log.parent / "notes.txt").write_text(f"{SECRET}\n", encoding="utf-8")
    result = invoke("replay", log, "-q")
    assert result.exit_code == 2 and "not a .rules file" in result.output and SECRET not in result.output


def test_a_logs_rules_path_is_relative_to_the_log_and_rules_overrides(log_of, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("replay", log_of("race.rules"), "-q").exit_code == 0  # beside the log, not the working folder
    outside = tmp_path / "elsewhere.rules"
    outside.write_text((tmp_path / "logs" / "race.rules").read_text(encoding="utf-8"), encoding="utf-8")
    log = log_of(str(outside))
    assert invoke("replay", log, "-q").exit_code == 2
    assert invoke("replay", log, "-q", "--rules", outside).exit_code == 0
    assert invoke("replay", log, "-q", "--include-dir", tmp_path).exit_code == 0
