"""Whether cards chosen so far can still grow into a meld: the `while` a set move gets for free.

A set move whose condition is made of the meld tests over the set
(``same``, ``distinct``, ``run`` by a key) and bounds on its size
(docs/language.md §4.12.7) is built card by card like any set move; the
language stage (:mod:`ruledsl.language.setmoves`) gives it a
:class:`~ruledsl.language.ast.Completable` test as its `while` condition, and
this module answers that test: is there a set of the zone's cards, holding the
chosen ones, that meets every test and the bounds?

Each card is seen as its keys, one per test, in the tests' order. The answer
is worked out directly for the common shapes of a meld (all of one value;
consecutive values that share another key; all different values), and by a
search over the zone's cards otherwise.
"""

from __future__ import annotations

import itertools
import operator
from collections import defaultdict

from ..checker import types as T
from ..language.errors import RulesRuntimeError
from .purity import condition_key

MAX_SEARCH = 100_000  # cards looked at for one answer at most, for a mix of tests worked out by searching


def completable(chosen: list, rest: list, kinds: tuple, low: int, high: int) -> bool:
    """Whether ``chosen`` (the keys of the cards chosen) plus some of ``rest`` (those of the zone's other
    cards) meet every test of ``kinds`` ("same", "distinct" or "run", one per key) with ``low`` to
    ``high`` cards."""
    return Plan(kinds)(chosen, rest, low, high)


class Plan:
    """:func:`completable` for one list of tests, its work on them done once."""

    def __init__(self, kinds: tuple):
        self.kinds = kinds
        same = [i for i, k in enumerate(kinds) if k == "same"]
        self.alike = operator.itemgetter(*same) if same else None

    def __call__(self, chosen: list, rest: list, low: int, high: int) -> bool:
        kinds, alike = self.kinds, self.alike
        low = max(low, len(chosen))
        if low > high or (len(chosen) > 1 and not _open(chosen, kinds)):
            return False
        if alike is None:
            return _fits(chosen, rest, kinds, low, high)
        if chosen:
            first = alike(chosen[0])
            return _fits(chosen, [r for r in rest if alike(r) == first], kinds, low, high)
        by_key = defaultdict(list)
        for r in rest:
            by_key[alike(r)].append(r)
        return any(_fits(chosen, group, kinds, low, high) for group in by_key.values()) or _fits([], [], kinds, low, high)


def _open(cards: list, kinds: tuple) -> bool:
    """The tests no card added can mend: `same` and `distinct` hold, a run's numbers do not repeat."""
    for i, kind in enumerate(kinds):
        values = [keys[i] for keys in cards]
        if kind == "same" and any(v != values[0] for v in values):
            return False
        if kind in ("distinct", "run") and len(set(values)) != len(values):
            return False
    return True


def _fits(chosen: list, group: list, kinds: tuple, low: int, high: int) -> bool:
    """``chosen`` plus cards of ``group`` (all alike on the `same` keys), with ``low`` to ``high`` cards."""
    distinct = [i for i, k in enumerate(kinds) if k == "distinct"]
    runs = [i for i, k in enumerate(kinds) if k == "run"]
    if not distinct and not runs:
        return len(chosen) + len(group) >= low
    if not runs and len(distinct) == 1:
        (d,) = distinct
        taken = {keys[d] for keys in chosen}
        return len(chosen) + len({keys[d] for keys in group} - taken) >= low
    if not distinct and len(runs) == 1:
        return _run_fits(chosen, group, runs[0], low, high)
    apart = distinct + runs
    candidates = [k for k in group if all(k[i] != c[i] for c in chosen for i in apart)]
    return _search(list(chosen), candidates, apart, runs, low, high, [MAX_SEARCH])


def _run_fits(chosen: list, group: list, r: int, low: int, high: int) -> bool:
    """One run key: the numbers must be one stretch without a gap, holding the chosen ones."""
    values = {keys[r] for keys in chosen} | {keys[r] for keys in group}
    if low == 0:
        return True  # the empty set: nothing chosen, and none needed
    if chosen:
        first, last = min(keys[r] for keys in chosen), max(keys[r] for keys in chosen)
        if any(v not in values for v in range(first, last + 1)):
            return False
        lo, hi = first, last
        while lo - 1 in values:
            lo -= 1
        while hi + 1 in values:
            hi += 1
        return max(low, last - first + 1) <= min(high, hi - lo + 1)
    longest = 0
    for v in values:
        if v - 1 not in values:  # the start of a stretch
            end = v
            while end + 1 in values:
                end += 1
            longest = max(longest, end - v + 1)
    return low <= longest


class SearchTooLong(Exception):
    """The search of a mix of meld tests looked at more than MAX_SEARCH cards (the compiled test reports it)."""


def _search(cards: list, candidates: list, apart: list, runs: list, low: int, high: int, budget: list) -> bool:
    """Several distinct or run keys: add the candidates in turn. No key of `apart` may repeat, so the
    candidates are the cards none of whose `apart` keys is among ``cards`` yet."""
    if low <= len(cards) <= high and all(_stretch([keys[r] for keys in cards]) for r in runs):
        return True
    if len(cards) >= high or len(cards) + len(candidates) < low:
        return False
    for j, keys in enumerate(candidates):
        budget[0] -= len(candidates) - j
        if budget[0] < 0:
            raise SearchTooLong
        rest = [k for k in candidates[j + 1:] if all(k[i] != keys[i] for i in apart)]
        cards.append(keys)
        found = _search(cards, rest, apart, runs, low, high, budget)
        cards.pop()
        if found:
            return True
    return False


def _stretch(values: list) -> bool:
    """Whole numbers that follow each other once sorted (none or one is a stretch)."""
    return all(b == a + 1 for a, b in itertools.pairwise(sorted(values)))


def completable_fn(c, e):
    """A closure for a :class:`~ruledsl.language.ast.Completable` test (``c`` is the compiler)."""
    chosen_fn, chosen_t = c.expr(e.chosen)
    zone_fn, zone_t = c.expr(e.zone)
    chosen = c.cards(chosen_fn, chosen_t, e.chosen.span)
    zone = c.cards(zone_fn, zone_t, e.zone.span)
    keys, fixed = [], True
    for test in e.tests:
        b = c._binding(test, test.var)
        slot = c.slot(b)
        c.env[b] = (c.local(slot), T.CARD)
        keys.append((slot, c.expr(test.key)[0]))
        fixed = fixed and condition_key(c, test.key, b) == ()
    span = e.span
    plan = Plan(tuple(test.func for test in e.tests))
    lows = [c.expr(x)[0] for x in e.lows]
    highs = [c.expr(x)[0] for x in e.highs]
    table = [None] * c.card_total  # a card's keys, when they are its attributes' alone (c.rank): worked out once

    def keyed(s, L, card):
        out = []
        for slot, key in keys:
            L[slot] = card
            out.append(key(s, L))
        return tuple(out)

    def keys_of(s, L, cards, taken=()):
        if not fixed:
            return [keyed(s, L, x) for x in cards if x not in taken]
        out = [table[x] for x in cards if x not in taken]
        if None in out:  # cards met for the first time
            for x in cards:
                if table[x] is None:
                    table[x] = keyed(s, L, x)
            out = [table[x] for x in cards if x not in taken]
        return out

    def test(s, L):
        picked = chosen(s, L)
        cards = zone(s, L)
        low = max([f(s, L) for f in lows]) if lows else 0
        high = min([f(s, L) for f in highs]) if highs else len(cards)
        try:
            return plan(keys_of(s, L, picked), keys_of(s, L, cards, set(picked)), low, high)
        except SearchTooLong:
            raise RulesRuntimeError(
                f"the set move looked at more than {MAX_SEARCH:,} cards to tell whether the cards chosen can still "
                f"meet its meld tests (a mix of several `distinct` or `run` tests over a big zone): write a "
                f"`while` of your own for it", span) from None

    return test
