"""The game's seeded random generator, kept in the state as one integer.

SplitMix64: small, fast and good enough for shuffles; a state is cloned and
saved by copying the integer, so replays from a seed are exact everywhere.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(s) -> int:
    x = (s.rng + 0x9E3779B97F4A7C15) & MASK
    s.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def randbelow(s, n: int) -> int:
    """A uniform integer in [0, n) drawn from the state ``s``'s generator."""
    return (next_u64(s) * n) >> 64


def shuffle(s, items: list) -> None:
    """Fisher-Yates shuffle of ``items`` in place, with the state's generator
    (``randbelow(s, i + 1)`` for each i from the top down, written out in one loop)."""
    x = s.rng
    for i in range(len(items) - 1, 0, -1):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    s.rng = x
