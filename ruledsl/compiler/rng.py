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


GOLDEN = 0x9E3779B97F4A7C15
C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_LANES: dict = {}
_PACKED = range(16, 257)  # lengths worth packing (a swap position must fit one byte)


def shuffle(s, items: list) -> None:
    """Fisher-Yates shuffle of ``items`` in place, with the state's generator
    (``randbelow(s, i + 1)`` for each i from the top down).

    For 16 to 256 items every draw is computed at once: the generator's states x+G, x+2G, ...
    are packed into one big int, 128 bits a lane, and SplitMix64's shifts, xors and
    multiplications by its constants run on all lanes together (a lane's product fits its 128
    bits, so lanes never carry into each other; a mask clears what a shift brings in from the
    next lane). Each draw is then multiplied by its i + 1, bit by bit of i + 1 with lane masks,
    and its swap position is the byte at bit 64 of its lane. Only the swaps are a Python loop.
    The same swaps as :func:`shuffle_loop` (tests/test_speed_paths.py compares them)."""
    n = len(items)
    if n not in _PACKED:
        shuffle_loop(s, items)
        return
    x = s.rng
    ones, steps, low, bits, k, down = _LANES.get(n) or _lanes(n)
    z = (x * ones + steps) & low
    z = ((z ^ (z >> 30)) & low) * C1 & low
    z = ((z ^ (z >> 27)) & low) * C2 & low
    z = (z ^ (z >> 31)) & low
    y = z & bits[0]
    for b in range(1, len(bits)):
        y += (z & bits[b]) << b
    z = y
    for i, j in zip(down, z.to_bytes(16 * k, "little")[8::16]):
        items[i], items[j] = items[j], items[i]
    s.rng = (x + k * GOLDEN) & MASK


def _lanes(n: int) -> tuple:
    """The constants of a packed shuffle of n items: lane i is the draw for position n-1-i."""
    k = n - 1
    ones = sum(1 << (128 * i) for i in range(k))
    bits = tuple(sum(MASK << (128 * i) for i in range(k) if ((n - i) >> b) & 1) for b in range(n.bit_length()))
    got = _LANES[n] = (ones, GOLDEN * sum((i + 1) << (128 * i) for i in range(k)), ones * MASK, bits, k,
                       range(n - 1, 0, -1))
    return got


def shuffle_loop(s, items: list) -> None:
    """The plain loop of the same shuffle, one draw at a time (short and very long lists)."""
    x = s.rng
    for i in range(len(items) - 1, 0, -1):
        x = (x + GOLDEN) & MASK
        z = ((x ^ (x >> 30)) * C1) & MASK
        z = ((z ^ (z >> 27)) * C2) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    s.rng = x
