"""The parser is built once and kept on disk; a changed grammar never uses an old build."""

from __future__ import annotations

import lark
import lark.lark
import pytest

from ruledsl.language import grammar_cache
from ruledsl.language import parse

GRAMMAR = """
start: WORD+
WORD: /[a-z]+/
%ignore " "
"""
CHANGED = GRAMMAR.replace("/[a-z]+/", "/[a-z0-9]+/")


def no_building(*args, **kwargs):
    raise AssertionError("the grammar was built, not loaded from the cache")


def test_second_build_is_loaded_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    first = grammar_cache.build(GRAMMAR)
    files = list(tmp_path.iterdir())
    assert files == [grammar_cache.cache_file(GRAMMAR, tmp_path)]
    monkeypatch.setattr(lark.lark, "load_grammar", no_building)
    second = grammar_cache.build(GRAMMAR)
    assert second.parse("two words") == first.parse("two words")


def test_a_changed_grammar_gets_its_own_build(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    old = grammar_cache.build(GRAMMAR)
    with pytest.raises(lark.exceptions.UnexpectedInput):
        old.parse("route 66")
    new = grammar_cache.build(CHANGED)  # the old file must not be used for the new grammar
    assert [str(t) for t in new.parse("route 66").children] == ["route", "66"]
    assert len(list(tmp_path.iterdir())) == 2
    # and the built-from-scratch check: loading the changed grammar again needs no building
    monkeypatch.setattr(lark.lark, "load_grammar", no_building)
    assert [str(t) for t in grammar_cache.build(CHANGED).parse("route 66").children] == ["route", "66"]


def test_a_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    grammar_cache.cache_file(GRAMMAR, tmp_path).write_bytes(b"not a parser\n\x00garbage")
    assert len(grammar_cache.build(GRAMMAR).parse("a b c").children) == 3
    # and the file was written again, whole: the next build loads it
    monkeypatch.setattr(lark.lark, "load_grammar", no_building)
    assert len(grammar_cache.build(GRAMMAR).parse("a b c").children) == 3
    assert [p.name for p in tmp_path.iterdir()] == [grammar_cache.cache_file(GRAMMAR, tmp_path).name]


def test_an_unusable_cache_dir_falls_back_to_building(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the directory should be")
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(blocker / "sub"))
    assert len(grammar_cache.build(GRAMMAR).parse("a b").children) == 2
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")  # caching off
    assert grammar_cache.cache_dir() is None
    assert len(grammar_cache.build(GRAMMAR).parse("a b").children) == 2


def test_the_rules_parser_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    grammar = parse.data_path("grammar", "ruledsl.lark").read_text(encoding="utf-8")
    parse.parser.cache_clear()
    try:
        parse.parser()
        assert grammar_cache.cache_file(grammar, tmp_path).exists()
    finally:
        parse.parser.cache_clear()


def test_old_builds_are_pruned_and_the_one_in_use_is_kept(tmp_path, monkeypatch):
    import os
    monkeypatch.setenv("RULEDSL_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(grammar_cache, "KEEP", 2)
    grammars = [GRAMMAR.replace("[a-z]", f"[a-z{digit}]") for digit in "123"]
    for age, grammar in enumerate(grammars[:2]):
        grammar_cache.build(grammar)
        path = grammar_cache.cache_file(grammar, tmp_path)
        os.utime(path, (1000 + age, 1000 + age))  # the first is the oldest
    grammar_cache.build(grammars[0])  # loading it marks it as used now
    grammar_cache.build(grammars[2])  # a third build: only two stay
    kept = {p.name for p in tmp_path.iterdir()}
    assert kept == {grammar_cache.cache_file(g, tmp_path).name for g in (grammars[0], grammars[2])}
