"""The generated Python (flowgen.py): it plays exactly as the steps do, names the rules line of an
error, and `ruledsl compile --emit-python` prints it."""

import random
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
import step_interpreter
from ruledsl import RulesRuntimeError
from ruledsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
SHORT = {"hand_size": 5, "single_round": True}  # shorter games where a game has such parameters
MOVES = 250  # moves compared per game at most


def load_short(path):
    names = ruledsl.load(path).params
    return ruledsl.load(path, params={k: v for k, v in SHORT.items() if k in names})


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_generated_code_plays_as_the_steps_do(path):
    """Every game, random moves: after each move, the state the generated code reached equals the
    state reached by walking the steps and calling their closures, and so do the legal moves
    (tables of card conditions included)."""
    game = load_short(path)
    p = game.program
    for n in sorted({p.min_players, min(p.max_players, 4)}):
        for seed in range(3):
            step_interpreter.play_both_ways(game, n, seed, limit=MOVES)


OOPS = textwrap.dedent("""\
    game "Oops"
    players 2..2
    enum colour { red, black }
    kind chip { colour: colour  value: 1..4 }
    deck chips = chip(colour: each, value: each)
    cards chips in pool
    zone pool: pile hidden
    zone hand[player]: row owner
    var pick: card = none
    var total: int = 0
    flow {
      choose go by 0 {
        move safe { total += 1 }
        move oops {
          total += 2
          total += pick.value
        }
      }
    }
    """)


def test_an_error_in_generated_code_names_its_rules_line():
    """`pick.value` of no card fails inside the generated function: the finding names line 16."""
    game = ruledsl.loads(OOPS, "oops.rules")
    s = game.new_game(2)
    before = s.clone()
    with pytest.raises(RulesRuntimeError) as info:
        s.apply("oops")
    assert info.value.span.file == "oops.rules" and info.value.span.line == 16
    assert "none" in info.value.message
    assert s == before  # a refused move changes nothing
    s.apply("safe")
    assert s.get_var("total") == 1


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_emit_python_prints_the_module_the_engine_runs(path):
    result = invoke("compile", "--emit-python", path)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    program = ruledsl.load(path).program
    module = text.split("\n# ---- the names used above")[0]
    compile(module, "emitted", "exec")  # it is Python
    # _fire takes the number of the test that held when the triggers are checked in place, else the
    # change mask of the effect (none without triggers)
    assert "def _b0(s, L):" in module and any(f"def _fire(s, L{extra}):" in module
                                              for extra in ("", ", held=0", ", ch=-1"))
    for cid, choice in enumerate(program.choices):
        assert f"def _m{cid}(s, L):  # decision {choice.name}, " in module
    assert f"# {path}:" in module or f"{path.name}:" in module  # steps name their rules lines
    assert text == ruledsl.load(path).python_listing()


def test_compile_without_emit_python_says_ok():
    result = invoke("compile", ROOT / "tests" / "data" / "race.rules")
    assert result.exit_code == 0
    assert result.stdout.startswith("ok: ") and "lines of Python" in result.stdout


def test_compile_takes_parameters():
    path = ROOT / "games" / "trolley_car.rules"
    one = invoke("compile", "--emit-python", path, "--set", "loop_length=20").stdout
    other = invoke("compile", "--emit-python", path).stdout
    assert "% 20)" in one and "% 16)" in other
    bad = invoke("compile", path, "--set", "loop_length=2")
    assert bad.exit_code == 2 and "loop_length" in bad.stderr
