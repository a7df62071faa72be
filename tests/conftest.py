"""Shared helpers: the hypothesis profile for CI, and for the Trolley Car tests the loaded games and
a position builder."""

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
    """Trolley Car, one round: a scenario ends the game when its round ends."""
    return load(TROLLEY, single_round=True)


@pytest.fixture(scope="session")
def trolley_match() -> ruledsl.Game:
    """Trolley Car as a match: one round per dealer."""
    return load(TROLLEY)


@pytest.fixture(scope="session")
def trolley_bet() -> ruledsl.Game:
    """The "increase the bet" variant, one round."""
    return load(TROLLEY_BET, single_round=True)


def rank_of(label: str) -> int:
    """The rank of a card label such as 'K♥' (13) or '10♦' (10)."""
    text = label[:-1]
    return RANKS[text] if text in RANKS else int(text)


def colour_of(label: str) -> str:
    return "red" if label[-1] in "♥♦" else "black"


def past_declarations(state: ruledsl.State) -> ruledsl.State:
    """Every player passes their declaration; the state then waits for the first turn."""
    while state.decision == "declare":
        state.apply("pass")
    return state


def card_ids(state: ruledsl.State, zone: str) -> list[int]:
    """The ids of the cards in a pile or row, bottom to top."""
    return list(state.zones[state.zone_id(zone)])


class Table:
    """A real game at its first turn, with every card gathered into the deck so that a
    scenario can lay out exactly the position it needs with the position editor."""

    def __init__(self, game: ruledsl.Game | ruledsl.State, players: int = 2, seed: int = 0):
        state = game if isinstance(game, ruledsl.State) else game.new_game(players=players, seed=seed)
        self.s = past_declarations(state)
        for cid, names in self.s.card_locations().items():
            if names != ["deck"]:
                self.s.place(cid, "deck")
        for colour in ("red", "black"):
            for var in ("pos", "start", "rank"):
                self.s.set_var(f"{var}[{colour}]", 0)

    @property
    def current(self) -> int:
        return self.s.current_player

    def take(self, label: str, zone: str, slot: int | None = None) -> int:
        """Move a copy of ``label`` that is still in the deck into ``zone`` (or a track slot)."""
        where = self.s.card_locations()
        spare = [c for c in self.s.cards_named(label) if where[c] == ["deck"]]
        assert spare, f"both copies of {label} are already in use in this scenario"
        return self.s.place(spare[0], zone, slot)

    def line(self, colour: str, labels: list, first: int = 0, start: int | None = None) -> None:
        """Lay ``labels`` on a line in consecutive slots from ``first`` (None leaves a slot as it is);
        the line then stands on the last slot, with the last card's rank, starting at ``start``."""
        length = len(self.s.cards_in(f"line[{colour}]"))
        slot = first
        for label in labels:
            if label is not None:
                self.take(label, f"line[{colour}]", slot)
                last = label
            slot = (slot + 1) % length
        self.at(colour, pos=(slot - 1) % length, rank=rank_of(last), start=first if start is None else start)

    def at(self, colour: str, pos: int, rank: int, start: int) -> None:
        self.s.set_var(f"pos[{colour}]", pos)
        self.s.set_var(f"rank[{colour}]", rank)
        self.s.set_var(f"start[{colour}]", start)

    def hand(self, player: int, labels: list[str]) -> list[int]:
        return [self.take(label, f"hand[{player}]") for label in labels]

    def declare(self, player: int, label: str) -> int:
        return self.take(label, f"declared[{player}]")

    def deck_top(self, labels: list[str]) -> None:
        """Put copies of ``labels`` (already in the deck) on top of it, the first label on top."""
        for label in reversed(labels):
            self.take(label, "deck")

    def empty_deck(self) -> None:
        """Take every card out of the deck (into the setup row `turned`, which plays no part)."""
        for cid in card_ids(self.s, "deck"):
            self.s.place(cid, "turned")

    # ---- moves by name

    def moves(self, name: str | None = None) -> list[str]:
        """The legal moves in words, e.g. ['play(K♥)', 'draw'], optionally only those named ``name``."""
        return [self.s.describe(m) for m in self.s.legal_moves() if name is None or m.name == name]

    def labels(self, name: str = "play") -> list[str]:
        """The labels of the cards of the legal moves named ``name``, sorted."""
        return sorted(self.s.card_label(m.args[0]) for m in self.s.legal_moves() if m.name == name)

    def do(self, text: str) -> None:
        """Apply the legal move described as ``text`` (e.g. 'play(7♠)' or 'draw')."""
        for m in self.s.legal_moves():
            if self.s.describe(m) == text:
                self.s.apply(m)
                return
        raise AssertionError(f"{text} is not a legal move; legal: {self.moves()}")
