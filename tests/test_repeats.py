"""A part of a value the bots ask for (`heuristic`, `score`) written out more than once is worked out
once (compiler._player_define with hoist.shared_parts, given the functions made for the value as pure).
The rewritten value must be the value as written: checked here on hand-made texts (where a part may
and may not be kept) and, for every game of games/, on the heuristic and the score of every player
at positions of seeded random games, compiled with the pass and without it."""

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.compiler import compiler as compiler_module
from ruledsl.compiler.hoist import shared_parts
from ruledsl.engine.load import forget

GAMES = sorted(p for p in (Path(__file__).parent.parent / "games").glob("*.rules")
               if not p.name.endswith(".test.rules"))


class Counted:
    """A pure function ``_dN(s, L)`` for the texts below that counts its calls."""

    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self, s, L):
        self.calls += 1
        return self.value + L[0]


def once(text: str, pure: set) -> str | None:
    """The text with its repeats worked out once, or None if it is left as it is."""
    out = shared_parts(text, {}, "_rp", frozenset(pure))
    return None if out == text else out


def run(text: str, **values) -> tuple:
    """The value of ``text`` and how many times each ``_dN`` was called, with L = [1]."""
    ns = {"__builtins__": {}, "len": len, "min": min, "max": max, "abs": abs}
    ns.update({k: Counted(v) for k, v in values.items()})
    value = eval(f"lambda s, L: {text}", ns)(None, [1])  # noqa: S307 - the test's own text
    return value, {k: ns[k].calls for k in values}


def test_a_part_repeated_where_it_is_surely_worked_out_is_read_back():
    text = "_d1(s, L) * _d1(s, L) + min(8, 2 * _d1(s, L))"
    short = once(text, {"_d1"})
    assert short == "(_rp0 := _d1(s, L)) * _rp0 + min(8, 2 * _rp0)"
    assert run(text, _d1=3) == (4 * 4 + 8, {"_d1": 3})
    assert run(short, _d1=3) == (24, {"_d1": 1})


def test_the_biggest_repeated_part_is_kept_whole_then_the_parts_inside_it():
    text = "(0 if _d1(s, L) == 0 else min(8, 2 * _d1(s, L) + _d2(s, L))) * (0 if _d1(s, L) == 0 else min(8, 2 * _d1(s, L) + _d2(s, L)))"
    short = once(text, {"_d1", "_d2"})
    assert short == "((_rp0 := 0 if (_rp1_0 := _d1(s, L)) == 0 else min(8, 2 * _rp1_0 + _d2(s, L)))) * (_rp0)"
    value, calls = run(short, _d1=2, _d2=5)
    assert value == run(text, _d1=2, _d2=5)[0] == 64
    assert calls == {"_d1": 1, "_d2": 1}


def test_a_part_first_met_in_a_branch_is_worked_out_again_later():
    # the first `_d1` is asked only when `_d2` is 0: keeping it there would leave `_rp0` unset
    text = "(_d1(s, L) if _d2(s, L) == 0 else 1) + _d1(s, L)"
    assert once(text, {"_d1", "_d2"}) is None
    # after `and`, `or` and a chained comparison's first pair, likewise
    for text in ("(_d2(s, L) and _d1(s, L)) + _d1(s, L)", "(_d2(s, L) or _d1(s, L)) + _d1(s, L)",
                 "(0 < _d2(s, L) < _d1(s, L)) + _d1(s, L)"):
        assert once(text, {"_d1", "_d2"}) is None, text
    # but a part surely worked out first may be read back inside a later branch
    text = "_d1(s, L) + (_d1(s, L) if _d2(s, L) else 0)"
    assert once(text, {"_d1", "_d2"}) == "(_rp0 := _d1(s, L)) + (_rp0 if _d2(s, L) else 0)"
    assert run(once(text, {"_d1", "_d2"}), _d1=3, _d2=1) == (8, {"_d1": 1, "_d2": 1})


def test_only_pure_calls_are_kept():
    # a function not known to be pure (a closure `_fN`, a generated function made elsewhere) is
    # called every time it is written
    assert once("_f1(s, L) + _f1(s, L)", {"_d1"}) is None
    assert once("_d1(s, L) + _d1(s, L)", set()) is None
    assert once("_d1(s, L) + _d1(s, L)", {"_d1"}) == "(_rp0 := _d1(s, L)) + _rp0"
    # a part with no pure call in it is cheap: left alone
    assert once("len(s.zones[3]) + len(s.zones[3])", {"_d1"}) is None
    # a call with other arguments, or any text the pass does not read, is left as it is
    assert once("_d1(s, M) + _d1(s, M)", {"_d1"}) is None
    assert once("[_d1(s, L) for x in y] + [_d1(s, L) for x in y]", {"_d1"}) is None
    assert once("(_x := _d1(s, L)) + _d1(s, L)", {"_d1"}) is None
    assert once("_d1(s, L) +", {"_d1"}) is None


def _values(game, state) -> list:
    program = game.program
    out = []
    for p in range(state.n):
        for fn in (program.heuristic, program.score):
            try:
                out.append(fn(state, p) if fn is not None else None)
            except Exception as exc:  # the same error both ways
                out.append((type(exc).__name__, str(exc)))
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_games_heuristic_and_score_are_the_values_as_written(path, monkeypatch):
    shortened = ruledsl.load(path)
    monkeypatch.setattr(compiler_module, "shared_parts", lambda text, ns, prefix, pure: text)
    forget()  # compiled again with the patched compiler, not the program kept from the load above
    written = ruledsl.load(path)
    assert shortened.program is not written.program
    players = max(shortened.program.min_players, 3 if shortened.program.max_players >= 3 else 2)
    rng = random.Random(path.stem)
    compared = 0
    for seed in range(3):
        a, b = shortened.new_game(players, seed), written.new_game(players, seed)
        for _ in range(400):
            if a.is_over:
                break
            assert _values(shortened, a) == _values(written, b)
            compared += 1
            legal = a.legal_moves()
            k = rng.randrange(len(legal))
            a._apply(legal[k])
            b._apply(b.legal_moves()[k])
    assert compared > 0
