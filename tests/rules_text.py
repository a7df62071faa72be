"""Rules texts for the checker's tests: the first lines of a small game, and the diagnostics of a
text that must not check (the tests assert their codes, positions, messages and hints)."""

from __future__ import annotations

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError

# A small game's opening: its deck and a hand per player; each test file adds what it needs.
MINI = """\
game "Mini"
players 2..4
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
"""


def diagnostics(text: str, *, before: str = "", name: str = "mini.rules", params=None) -> list:
    """The diagnostics of `before` + the dedented `text`, which must fail to load."""
    with pytest.raises(RulesError) as info:
        ruledsl.loads(before + textwrap.dedent(text), name, params=params)
    return info.value.diagnostics
