"""The static types of the language and the typing rules shared by the checker and the compiler.

A type is a short string: ``int``, ``bool``, ``str``, ``none``, ``player``,
``card``, ``cards`` (a list of cards), ``zone`` (one pile or row), ``track``
(one slotted zone), ``kind``, ``players`` (the players, as a domain),
``range`` (an int range, as a domain), ``enum:NAME`` (a value of an
enumeration), ``type:NAME`` (an enumeration, as a domain), ``set:T`` and
``key`` (numbers compared in order, first item first: ``(c.suit == lead, c.rank)``) and
``any`` (unknown; accepted everywhere, so one error does not cause others).
"""

from __future__ import annotations

INT, BOOL, STR, NONE, PLAYER, CARD, CARDS = "int", "bool", "str", "none", "player", "card", "cards"
ZONE, TRACK, KIND, PLAYERS, RANGE, ANY = "zone", "track", "kind", "players", "range", "any"
KEY = "key"

CARD_SOURCES = (ZONE, TRACK, CARDS)


def enum(name: str) -> str:
    return "enum:" + name


def enum_type(name: str) -> str:
    return "type:" + name


def set_of(t: str) -> str:
    return "set:" + t


def describe(t: str) -> str:
    """A type as a designer would say it, for messages."""
    if t.startswith("enum:"):
        return f"a {t[5:]}"
    if t.startswith("type:"):
        return f"the values of {t[5:]}"
    if t.startswith("set:"):
        return f"a set of {describe(t[4:])}"
    return {
        INT: "a number", BOOL: "a true/false value", STR: "a string", NONE: "none", PLAYER: "a player",
        CARD: "a card", CARDS: "a list of cards", ZONE: "a zone", TRACK: "a track", KIND: "a card kind",
        PLAYERS: "the players", RANGE: "a range of numbers", ANY: "a value",
        KEY: "a key (numbers compared in order)",
    }.get(t, t)


def fits(actual: str, expected: str) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted."""
    if ANY in (actual, expected) or actual == expected:
        return True
    if expected == CARDS and actual in CARD_SOURCES:
        return True
    if expected == ZONE and actual == TRACK:
        return True
    if expected == PLAYER and actual == INT:  # players are numbered from 0 in seat order
        return True
    if actual == NONE and (expected == CARD or expected.startswith("enum:") or expected == PLAYER):
        return True
    return False


def element(domain: str) -> str | None:
    """The type of the values a domain (``for x in D``) runs over, or None if it is no domain."""
    if domain in CARD_SOURCES:
        return CARD
    if domain == PLAYERS:
        return PLAYER
    if domain == RANGE:
        return INT
    if domain.startswith("type:"):
        return enum(domain[5:])
    if domain.startswith("set:"):
        return domain[4:]
    if domain == ANY:
        return ANY
    return None


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def binop(op: str, left: str, right: str) -> tuple[str, str | None]:
    """The result type of ``left op right`` and an error message, or None."""
    if op in ("and", "or"):
        bad = [t for t in (left, right) if not fits(t, BOOL)]
        return BOOL, (f"'{op}' joins true/false values, not {describe(bad[0])}" if bad else None)
    if op in ("==", "!="):
        ok = fits(left, right) or fits(right, left) or NONE in (left, right)
        return BOOL, None if ok else f"cannot compare {describe(left)} with {describe(right)}"
    if op in COMPARISONS and KEY in (left, right):
        ok = all(t in (KEY, ANY) for t in (left, right))
        return BOOL, None if ok else f"'{op}' compares a key with a key, not {describe(left)} and {describe(right)}"
    if op in COMPARISONS:
        ok = all(fits(t, INT) for t in (left, right))
        return BOOL, None if ok else f"'{op}' compares numbers, not {describe(left)} and {describe(right)}"
    if op in ("in", "not in"):
        inner = element(right)
        if inner is None or right in (RANGE,):
            return BOOL, f"'{op}' needs a set, a zone or a list of cards on its right, not {describe(right)}"
        ok = fits(left, inner) or fits(inner, left)
        return BOOL, None if ok else f"cannot look for {describe(left)} among {describe(right)}"
    if op == "+" and (left in CARD_SOURCES or right in CARD_SOURCES or CARD in (left, right)):
        ok = all(fits(t, CARDS) or t == CARD for t in (left, right))
        return CARDS, None if ok else f"'+' joins zones or lists of cards, not {describe(left)} and {describe(right)}"
    if op in ("+", "-", "*", "/", "%"):
        bad = [t for t in (left, right) if not fits(t, INT)]
        result = ANY if ANY in (left, right) and op == "+" else INT
        return result, (f"'{op}' works on numbers, not {describe(bad[0])}" if bad else None)
    return ANY, f"unknown operator '{op}'"


# name: (argument types (alternatives per position), result type, pure)
BUILTINS: dict[str, tuple[tuple, str, bool]] = {
    "size": (((ZONE, TRACK, CARDS),), INT, True),
    "empty": (((ZONE, TRACK, CARDS),), BOOL, True),
    "top": (((ZONE, CARDS),), CARD, True),
    "bottom": (((ZONE, CARDS),), CARD, True),
    "at": (((TRACK,), (INT,)), CARD, True),
    "occupied": (((TRACK,), (INT,)), BOOL, True),
    "abs": (((INT,),), INT, True),
    "min": (((INT,), (INT,)), INT, True),
    "max": (((INT,), (INT,)), INT, True),
    "next": (((PLAYER,),), PLAYER, True),
    "previous": (((PLAYER,),), PLAYER, True),
    "random": (((ZONE, TRACK, CARDS),), CARD, False),
    # a card and every card on it, from that card up (docs §4.3.2)
    "stack_from": (((ZONE, CARDS), (CARD,)), CARDS, True),
}
# top(zone, n) gives the top n cards.
TOP_N = (((ZONE, CARDS), (INT,)), CARDS)

AGGREGATES = {"any": BOOL, "all": BOOL, "count": INT, "cards": CARDS, "random": ANY, "first": ANY, "sorted": CARDS,
              "same": BOOL, "distinct": BOOL, "run": BOOL}
# the aggregates that compare the values of a domain by a key (`by KEY`): melds (docs §5.6.1); the
# language stage, which cannot read this module, names them too (language/setmoves.py)
MELD_TESTS = ("same", "distinct", "run")
FOLDS = {"sum", "min", "max", "list"}
# what a key may be made of: numbers, true/false (true above false) and keys
KEY_PARTS = (INT, BOOL, KEY, ANY)
# what a move's parameter may run over (and an enum's values): what a move, its log and its save hold
MOVE_ARGS = (INT, BOOL, PLAYER, CARD, ANY)

# `players`: the seats still in the game; `seats`: every seat, those who left too
SPECIAL_NAMES = {"players": PLAYERS, "seats": PLAYERS, "player_count": INT, "current": PLAYER}


# ---- what `reveal`, `show` and `tell` accept (checked here, compiled by compiler/showing.py)

REVEALABLE = "a zone, zones joined by `+`, a card or a list of cards"


def parts(e) -> list:
    """The terms of a `+` chain: `hand[a] + hand[b] + c` -> [hand[a], hand[b], c]."""
    from ..language.ast import BinOp

    if isinstance(e, BinOp) and e.op == "+":
        return parts(e.left) + parts(e.right)
    return [e]


def revealable(t: str) -> bool:
    return t in (ZONE, TRACK, CARD, CARDS, ANY)
