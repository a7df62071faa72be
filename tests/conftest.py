"""Shared helpers: the hypothesis profile for CI, and for the Trolley Car tests the loaded games and
card helpers. (Positions of rule tests are set up in scenario files, games/*.test.rules.)"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import os

import pytest
from hypothesis import settings

import ruledsl

# In CI (CI=true) hypothesis draws the same examples every run, so a result
# depends only on the code; locally it explores new examples each run.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

GAMES = Path(__file__).resolve().parent.parent / "games"
TROLLEY = GAMES / "trolley_car.rules"
TROLLEY_BET = GAMES / "trolley_car_bet.rules"

# The crossings declared by the `connect` lines of trolley_car.rules: red slot -> black slot.
CROSSINGS = {2: 11, 4: 1, 10: 3, 12: 9}

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@lru_cache(maxsize=None)
def load(path: Path = TROLLEY, **params) -> ruledsl.Game:
    """A compiled rules file, loaded once per set of parameters."""
    return ruledsl.load(path, params=params or None)


@pytest.fixture(scope="session")
def trolley() -> ruledsl.Game:
    """Trolley Car, one round."""
    return load(TROLLEY, single_round=True)


@pytest.fixture(scope="session")
def trolley_match() -> ruledsl.Game:
    """Trolley Car as a match: one round per dealer."""
    return load(TROLLEY)


def rank_of(label: str) -> int:
    """The rank of a card label such as 'K♥' (13) or '10♦' (10)."""
    text = label[:-1]
    return RANKS[text] if text in RANKS else int(text)


def colour_of(label: str) -> str:
    return "red" if label[-1] in "♥♦" else "black"
