"""How big a game may be: sizes a rules file (or a parameter given to it) cannot exceed.

A rules file is untrusted input: `cards 1000000 * standard52` or `track(100000000)`
would take minutes or all memory. Each size is checked before memory is taken
for it, and a file that exceeds one gets a positioned checker error naming the
limit. docs/language.md (section 7.7) lists them.
"""

from ..language import ast as A
from ..language.assemble import diag
from ..language.errors import RulesError, RulesRuntimeError

MAX_PLAYERS = 100  # the highest player count of a `players LOW..HIGH` line
MAX_CARDS = 10_000  # cards in the universe, over every `cards` line
MAX_SLOTS = 10_000  # slots of one track
MAX_ZONES = 10_000  # zones of one zone family, e.g. zone pile[1..100, player]
MAX_VALUES = 100_000  # values of one variable family, e.g. var seen[1..1000, player]
MAX_RANGE = 100_000  # values of a range gone through while playing, e.g. count(each i in 1..N where ...)
MIN_INT, MAX_INT = -(2**63), 2**63 - 1  # the whole numbers a game may store (64-bit)
MAX_INLINED = 2_000  # defines written out where they are used, over one rules file (games/ need 149 at most)
MAX_MOVE_COMBINATIONS = 100_000  # argument combinations one move can list (the product of its domains' sizes)
# units of work the rules may do between two decisions (a move, or the setup), and the triggers' bodies beside
# them: a value gone through is one unit, a step ten (compiler/work.py; docs/language.md 7.7)
MAX_WORK = 50_000_000


def check_card_count(compiler) -> None:
    """Count the cards of every `cards` line before the compiler builds them: a huge deck is refused."""
    total = 0
    for c in compiler.m.cards:
        total += deck_count(compiler, c.deck)
        if total > MAX_CARDS:
            raise RulesError([diag(compiler.m.texts, "E212", f"the `cards` lines make {total:,} cards or more, "
                                   f"more than ruledsl allows (at most {MAX_CARDS:,})", c.span)])


def deck_count(compiler, d) -> int:
    """The number of cards of a deck expression, worked out without building them."""
    m = compiler.m
    if isinstance(d, A.DeckSum):
        return deck_count(compiler, d.left) + deck_count(compiler, d.right)
    if isinstance(d, A.DeckCopies):
        return deck_count(compiler, d.term) * m.copies_of(d)
    if isinstance(d, A.DeckRef):
        if d.name in m.decks:
            return deck_count(compiler, m.decks[d.name].deck)
        return deck_count(compiler, A.DeckCard(d.name, (), span=d.span))
    kind = m.kinds[d.kind]
    given = {f.name: f for f in d.fields}
    count = 1
    for name, attr in kind.attributes.items():
        if attr.derived is not None:
            continue
        f = given.get(name)
        if f is None or f.value is None:
            count *= len(compiler._attr_values(attr))
        else:
            value = compiler._static(f.value, {})
            if isinstance(value, (list, tuple, range, frozenset)):
                count *= len(value)
    return count


def checked_range(low, high, span) -> range:
    """The values of a range gone through while playing; ends that are not numbers, or more values
    than MAX_RANGE, are a finding at the range."""
    if not isinstance(low, int) or not isinstance(high, int):
        raise RulesRuntimeError(f"a range runs from a number to a number, not from {_text(low)} to {_text(high)}",
                                span)
    if high - low >= MAX_RANGE:
        raise RulesRuntimeError(f"the range {low}..{high} has {high - low + 1:,} values, more than ruledsl goes "
                                f"through (at most {MAX_RANGE:,})", span)
    return range(low, high + 1)


def _text(value) -> str:
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)


def index_fits(dims, sizes, values, players: int) -> bool:
    """Whether constant index values name an entry of a family in every game (a player index: in a
    game of the fewest players)."""
    for dim, size, v in zip(dims, sizes, values):
        if not isinstance(v, int) or isinstance(v, bool):
            return False
        low = dim[1] if dim[0] in ("range", "grow") else 0
        if not 0 <= v - low < (players if dim[0] == "player" else size):
            return False
    return True


def within_int(value, span):
    """``value`` if it is a whole number of the language (or not a number at all); else a finding."""
    if type(value) is int and not MIN_INT <= value <= MAX_INT:
        sign = "-" if value < 0 else ""
        raise RulesRuntimeError(f"a number went past the language's whole numbers ({sign}about 2^{value.bit_length()},"
                                f" but at most 2^63 - 1 = {MAX_INT:,}): a rule that multiplies or adds "
                                "without end?", span)
    return value
