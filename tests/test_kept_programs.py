"""Rules loaded again in the same process are not checked nor compiled again (engine/load.py keeps
the programs compiled last), and what is kept is only ever used for exactly the same texts and
parameters. No timing is looked at."""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl import ParameterError
from ruledsl.engine import load as load_module

TROLLEY = "games/trolley_car.rules"

BASE = """\
game "Kept"
players 2..2
include "points.rules"
param goal = 3 in 1..9 "points to win"
var points[player]: int = 0
flow {
  turns from 0 until any(each p in players where points[p] >= goal) {
    choose turn by current {
      move step { points[current] += gain }
    }
  }
}
define score(p) = points[p]
winner(p): highest score(p)
"""


@pytest.fixture(autouse=True)
def _kept_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path / "cache"))
    load_module.forget()
    yield
    load_module.forget()


def _no_compiling(monkeypatch):
    def refuse(*args, **kwargs):
        pytest.fail("compiled again")

    monkeypatch.setattr(load_module, "compile_model", refuse)
    monkeypatch.setattr(load_module, "check", refuse)


def _moves_to_end(game, players, seed):
    state, rng, seen = game.new_game(players, seed), random.Random(seed), []
    while not state.is_over:
        moves = state.legal_moves()
        seen.append((state.to_json(), [str(m) for m in moves]))
        state.apply(rng.choice(moves))
    seen.append(state.to_json())
    return seen


def test_a_second_load_of_the_same_file_shares_its_program_and_compiles_nothing(monkeypatch):
    first = ruledsl.load(TROLLEY)
    first.new_game(3)
    _no_compiling(monkeypatch)
    second = ruledsl.load(TROLLEY)
    assert second is not first and second.program is first.program
    assert second.program.flow is not None  # the generated code built by the first game's new_game


def test_a_kept_program_plays_as_one_compiled_afresh(monkeypatch):
    kept = ruledsl.load(TROLLEY)
    again = ruledsl.load(TROLLEY)
    assert again.program is kept.program
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")  # every cache off: compiled afresh
    fresh = ruledsl.load(TROLLEY)
    assert fresh.program is not kept.program
    for seed in (1, 2):
        assert _moves_to_end(again, 4, seed) == _moves_to_end(fresh, 4, seed)


def test_a_changed_included_file_is_compiled_again(tmp_path):
    (tmp_path / "points.rules").write_text("define gain = 1\n", encoding="utf-8")
    (tmp_path / "kept.rules").write_text(BASE, encoding="utf-8")
    one = ruledsl.load(tmp_path / "kept.rules")
    assert ruledsl.load(tmp_path / "kept.rules").program is one.program
    (tmp_path / "points.rules").write_text("define gain = 2\n", encoding="utf-8")
    two = ruledsl.load(tmp_path / "kept.rules")
    assert two.program is not one.program
    for game, gain in ((one, 1), (two, 2)):
        state = game.new_game()
        state.apply(state.legal_moves()[0])
        assert state.view(0)["vars"]["points[0]"] == gain


def test_other_parameters_or_another_name_are_other_programs():
    default = ruledsl.load(TROLLEY)
    assert ruledsl.load(TROLLEY, {"hand_size": 15}).program is not default.program
    short = ruledsl.load(TROLLEY, {"hand_size": 5})
    assert short.program is not default.program
    assert ruledsl.load(TROLLEY, {"hand_size": 5}).program is short.program
    text = open(TROLLEY, encoding="utf-8").read()
    assert ruledsl.loads(text, "elsewhere.rules").program is not default.program


def test_an_equal_value_of_another_type_is_checked_as_given():
    ruledsl.load(TROLLEY, {"single_round": True})
    with pytest.raises(ParameterError):
        ruledsl.load(TROLLEY, {"single_round": 1})
    ruledsl.load(TROLLEY, {"hand_size": 5})
    with pytest.raises(ParameterError):
        ruledsl.load(TROLLEY, {"hand_size": 5.0})


def test_only_the_programs_compiled_last_are_kept(monkeypatch):
    first = ruledsl.load(TROLLEY, {"hand_size": 1})
    for size in range(2, load_module.KEPT + 2):
        ruledsl.load(TROLLEY, {"hand_size": size})
    assert len(load_module._kept) == load_module.KEPT
    assert ruledsl.load(TROLLEY, {"hand_size": 1}).program is not first.program  # pushed out
    _no_compiling(monkeypatch)
    assert ruledsl.load(TROLLEY, {"hand_size": 1}).program is not None  # kept again


def test_a_broken_file_keeps_nothing(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BASE.replace("points[current] += gain", "points[current] += nothing_here"), encoding="utf-8")
    (tmp_path / "points.rules").write_text("define gain = 1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ruledsl.RulesError):
            ruledsl.load(broken)
    assert not load_module._kept


def test_loads_from_several_threads_share_one_kept_program():
    """The desk's server loads rules from several threads at once."""
    from concurrent.futures import ThreadPoolExecutor

    def load_and_play(seed):
        game = ruledsl.load(TROLLEY, {"hand_size": 1 + seed % 3})
        return game.program, _moves_to_end(game, 2, seed)[-1]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(load_and_play, range(12)))
    load_module.forget()
    for seed, (program, end) in enumerate(results):
        assert program is results[seed % 3][0]  # one program per parameters
        assert end == _moves_to_end(ruledsl.load(TROLLEY, {"hand_size": 1 + seed % 3}), 2, seed)[-1]


def test_one_rules_compiling_does_not_hold_up_loads_of_other_rules(monkeypatch):
    """A compile holds up only the loads that want the same rules: here the first load's compile
    waits until a load of other rules, made meanwhile from another thread, has finished."""
    import threading

    compiled = load_module._compiled
    other_loaded = threading.Event()
    first_started = threading.Event()

    def slow_for_the_first(assembly, params):
        if params == {"hand_size": 2}:
            first_started.set()
            assert other_loaded.wait(30), "the other rules' load waited for this compile"
        return compiled(assembly, params)

    monkeypatch.setattr(load_module, "_compiled", slow_for_the_first)
    got = {}
    first = threading.Thread(target=lambda: got.setdefault("first", ruledsl.load(TROLLEY, {"hand_size": 2})))
    first.start()
    assert first_started.wait(30)
    got["other"] = ruledsl.load(TROLLEY, {"hand_size": 3})
    other_loaded.set()
    first.join(30)
    assert not first.is_alive() and set(got) == {"first", "other"}
    assert got["first"].program is ruledsl.load(TROLLEY, {"hand_size": 2}).program  # kept once compiled
    assert not load_module._compiling  # nothing is left marked as being compiled


def test_loads_waiting_for_one_compile_get_its_program(monkeypatch):
    """Threads wanting the rules another thread is compiling wait for it and share its program; the
    rules are compiled once."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    compiled = load_module._compiled
    calls = []
    gate = threading.Event()

    def counted(assembly, params):
        calls.append(params)
        assert gate.wait(30)
        return compiled(assembly, params)

    monkeypatch.setattr(load_module, "_compiled", counted)
    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(ruledsl.load, TROLLEY, {"hand_size": 4}) for _ in range(4)]
        gate.set()
        programs = {id(f.result(timeout=60).program) for f in futures}
    assert len(programs) == 1 and len(calls) == 1
    assert not load_module._compiling
