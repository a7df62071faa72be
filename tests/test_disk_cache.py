"""What is kept on disk between runs (syntax trees, compiled generated modules) gives exactly what
building it again gives, and a cache file that is foreign, corrupt or unwritable is never a reason
to fail nor ever used. No timing is looked at."""

from __future__ import annotations

import marshal
import os
import pickle
from pathlib import Path

import pytest

import ruledsl
from ruledsl.compiler import codecache, compiler
from ruledsl.engine.load import forget
from ruledsl.language import diskcache
from ruledsl.language import parse as P

TROLLEY = "games/trolley_car.rules"


@pytest.fixture(autouse=True)
def _compiled_afresh():
    """Each test's loads go through the disk caches, not a program another test kept in memory."""
    forget()
    yield
    forget()


def _trees(tmp_path):
    return sorted(p.name for p in tmp_path.glob("tree-*.pickle"))


def _same_tree(a, b) -> bool:
    # nodes compare by identity: compare their repr (every field, every span, node types)
    return repr(a) == repr(b)


def test_a_parsed_tree_is_kept_and_read_back_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    text = Path(TROLLEY).read_text(encoding="utf-8")
    first = P.parse(text, TROLLEY)
    assert len(_trees(tmp_path)) == 1
    monkeypatch.setattr(P, "_parse", lambda *a: pytest.fail("parsed again, not read from the cache"))
    second = P.parse(text, TROLLEY)
    assert second is not first and _same_tree(first, second)


def test_another_text_or_path_gets_its_own_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    text = Path(TROLLEY).read_text(encoding="utf-8")
    P.parse(text, TROLLEY)
    changed = P.parse(text.replace("hand_size", "hand_size ", 1), TROLLEY)
    moved = P.parse(text, "elsewhere.rules")
    assert len(_trees(tmp_path)) == 3
    assert moved.path == "elsewhere.rules"
    assert changed.text != text


def test_a_corrupt_or_foreign_tree_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    text = "game {{ oops\n"
    name = P._tree_file(text, "x.rules")
    (tmp_path / name).write_bytes(b"\x80\x05garbage")
    with pytest.raises(ruledsl.RulesError):  # parsed afresh: the real (broken) file's error
        P.parse(text, "x.rules")
    good = Path(TROLLEY).read_text(encoding="utf-8")
    name = P._tree_file(good, TROLLEY)
    (tmp_path / name).write_bytes(pickle.dumps("not a tree"))
    assert P.parse(good, TROLLEY).items  # a value of another kind: parsed afresh
    os.chmod(tmp_path / name, 0o666)  # another user could have written it: never read
    monkeypatch.setattr(P, "_parse", lambda *a: pytest.fail("must parse"))
    with pytest.raises(pytest.fail.Exception):
        P.parse(good, TROLLEY)


def test_an_unusable_cache_dir_still_loads(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(blocker / "sub"))
    game = ruledsl.load(TROLLEY)
    assert game.new_game(2).legal_moves()
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")
    assert ruledsl.load(TROLLEY).new_game(2).legal_moves()


def test_trusted_wants_the_users_own_file_writable_by_nobody_else(tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"x")
    os.chmod(f, 0o600)
    assert diskcache.trusted(f)
    os.chmod(f, 0o620)
    assert not diskcache.trusted(f)
    os.chmod(f, 0o602)
    assert not diskcache.trusted(f)
    assert not diskcache.trusted(tmp_path / "missing")


def test_compiled_code_is_kept_and_used_only_for_its_own_source(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    src = "x = 1 + 2\n"
    first = codecache.compiled(src, "<t>")
    assert len(list(tmp_path.glob("code-*.marshal"))) == 1
    second = codecache.compiled(src, "<t>")
    ns: dict = {}
    exec(second, ns)  # noqa: S102
    assert ns["x"] == 3 and second.co_filename == "<t>" and first.co_code == second.co_code
    other = codecache.compiled("x = 5\n", "<t>")
    ns = {}
    exec(other, ns)  # noqa: S102
    assert ns["x"] == 5
    for path in tmp_path.glob("code-*.marshal"):
        path.write_bytes(b"corrupt")
    ns = {}
    exec(codecache.compiled(src, "<t>"), ns)  # noqa: S102
    assert ns["x"] == 3


def test_a_foreign_code_file_is_never_run(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    src = "x = 1 + 2\n"
    codecache.compiled(src, "<t>")
    (kept,) = tmp_path.glob("code-*.marshal")
    kept.write_bytes(marshal.dumps(compile("x = 99\n", "<t>", "exec")))  # planted under this source's name
    ns: dict = {}
    exec(codecache.compiled(src, "<t>"), ns)  # noqa: S102
    assert ns["x"] == 99  # the user's own file is trusted: this is what the check below guards
    os.chmod(kept, 0o666)  # now anyone could have written it: compiled afresh instead
    kept.write_bytes(marshal.dumps(compile("x = 99\n", "<t>", "exec")))
    ns = {}
    exec(codecache.compiled(src, "<t>"), ns)  # noqa: S102
    assert ns["x"] == 3


def test_another_ruledsl_version_keeps_its_own_files(tmp_path, monkeypatch):
    """A cache filled by another version of ruledsl (a stale cache) is never read by this one."""
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    text = Path(TROLLEY).read_text(encoding="utf-8")
    P.parse(text, TROLLEY)
    codecache.compiled("x = 1\n", "<t>")
    before = set(tmp_path.iterdir())
    monkeypatch.setattr(diskcache, "__version__", "0.0.0-another")
    monkeypatch.setattr(P, "_parse", lambda *a: pytest.fail("parsed afresh"))
    with pytest.raises(pytest.fail.Exception):  # the old version's tree is not this version's
        P.parse(text, TROLLEY)
    codecache.compiled("x = 1\n", "<t>")
    added = set(tmp_path.iterdir()) - before
    assert [p.name.startswith("code-") for p in added] == [True]


def test_an_unwritable_cache_dir_runs_from_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    os.chmod(tmp_path, 0o500)  # readable, not writable
    try:
        if os.geteuid() == 0:  # root writes anyway: refuse the rename that puts a file in place
            os.chmod(tmp_path, 0o700)
            monkeypatch.setattr(diskcache.os, "replace", _refuse)
        ns: dict = {}
        exec(codecache.compiled("x = 4\n", "<t>"), ns)  # noqa: S102
        assert ns["x"] == 4
        game = ruledsl.load(TROLLEY)
        assert game.new_game(2).legal_moves()
        assert not list(tmp_path.iterdir())  # nothing kept, not even a half-written file
    finally:
        os.chmod(tmp_path, 0o700)


def _refuse(*args):
    raise PermissionError("read-only cache directory")


def test_a_game_from_cached_code_plays_as_one_built_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")
    fresh = ruledsl.load(TROLLEY).new_game(3, seed=5)
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    ruledsl.load(TROLLEY).new_game(3, seed=5)  # fills the cache
    assert list(tmp_path.glob("code-*.marshal")) and list(tmp_path.glob("tree-*.pickle"))
    cached = ruledsl.load(TROLLEY).new_game(3, seed=5)
    import random

    rng = random.Random(1)
    while not fresh.is_over:
        assert fresh.to_json() == cached.to_json()
        moves = fresh.legal_moves()
        assert moves == cached.legal_moves()
        m = rng.choice(moves)
        fresh.apply(m)
        cached.apply(m)
    assert cached.is_over and fresh.to_json() == cached.to_json()


def test_a_lazily_compiled_expression_is_the_lambda_it_stands_for():
    ns = {"k": 10}
    fn = compiler._lazy_lambda("s + L * k", ns)
    assert fn.__defaults__ is not None  # not compiled yet
    assert fn(1, 2) == 21
    assert fn.__defaults__ is None and fn(3, 1) == 13  # now the lambda itself
    with pytest.raises(TypeError):
        fn(1, 2, 3)
