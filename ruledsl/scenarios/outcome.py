"""What a scenario's run says: its outcome, and the position shown beside a failed expectation."""

from __future__ import annotations

import attrs

from ..checker import types as T
from ..engine.state import State
from ..language import ast as A
from ..language.errors import (
    Diagnostic,
    RuledslError,
    RulesRuntimeError,
    Span,
)

_RULE_ERRORS = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError)
_SHOWN = (T.INT, T.BOOL, T.PLAYER, T.CARD, T.CARDS, T.NONE, T.STR)  # the types an expectation shows the value of
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
_LONG = 10  # a zone of more cards is shown by its top few


@attrs.frozen
class Outcome:
    """How a scenario ended: passed, failed (an expectation did not hold) or error (it cannot run)."""

    name: str
    span: Span
    status: str  # "passed" | "failed" | "error"
    expectation: str = ""  # the statement that failed, as written
    where: Span | None = None
    found: str = ""  # what was found instead
    position: tuple = ()  # the position at that point, line by line
    diagnostic: Diagnostic | None = None
    checked: int = 0  # expectations that held

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def message(self) -> str:
        """The failure as text: where, the expectation, what was found and the position."""
        if self.status == "passed":
            return f"{self.name}: passed ({self.checked} expectations)"
        if self.status == "error":
            return self.diagnostic.render() if self.diagnostic else f"{self.span}: error in scenario {self.name}"
        lines = [f"{self.where}: scenario `{self.name}` failed",
                 f"    {self.expectation}",
                 f"    found: {self.found}"]
        if self.position:
            lines.append("    position:")
            lines.extend(f"      {line}" for line in self.position)
        return "\n".join(lines)


class _Failed(Exception):
    def __init__(self, stmt, found: str, state: State | None, focus=()):
        self.stmt = stmt
        self.found = found
        self.state = state
        self.focus = focus


class _Error(Exception):
    def __init__(self, message: str, span: Span, hint: str | None = None):
        self.message = message
        self.span = span
        self.hint = hint


@attrs.frozen
class _Synthetic:
    """A statement-like object for failures of one move of a list."""

    span: Span
    text: str = ""


def _finding(err: RulesRuntimeError) -> str:
    return f"{err.message} ({err.span})" if err.span.line else err.message


def _moves_text(s: State, keep: int = 12) -> str:
    texts = [s.describe(m) for m in s.legal_moves()]
    shown = ", ".join(texts[:keep])
    return (shown + ", ..." if len(texts) > keep else shown) or "none"


def _sides(expr) -> list:
    """The compared values of an expectation (both sides of each comparison), to show them when it fails."""
    if isinstance(expr, A.BinOp) and expr.op in ("and", "or"):
        return _sides(expr.left) + _sides(expr.right)
    if isinstance(expr, A.Not):
        return _sides(expr.operand)
    if isinstance(expr, A.BinOp) and expr.op in _COMPARISONS:
        return [x for x in (expr.left, expr.right) if _names(x)]
    return []


def _value_text(s: State, fn, type_: str) -> str:
    try:
        v = fn(s, s.locals + [None] * 64)
    except (RuledslError, *_RULE_ERRORS):
        return "(cannot be worked out)"
    p = s.program
    if v is None:
        return "none"
    if type_ == T.CARD and isinstance(v, int):
        return p.card_labels[v]
    if type_.startswith("enum:") and isinstance(v, int) and v < len(p.enums.get(type_[5:], ())):
        return p.enums[type_[5:]][v]
    if isinstance(v, (bool, int, str)):
        return str(v).lower() if isinstance(v, bool) else str(v)
    if isinstance(v, (list, tuple)) and all(isinstance(c, int) for c in v) and type_ == T.CARDS:
        return "{" + " ".join(p.card_labels[c] for c in v) + "}"
    return str(v)


def _names(expr) -> set:
    """The names an expression mentions, to show the variables and zones it reads."""
    found = set()

    def walk(node):
        if isinstance(node, A.Name):
            found.add(node.name)
        elif isinstance(node, A.ZoneRef):
            found.add(node.name)
        if attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                walk(getattr(node, f.name))
        elif isinstance(node, (tuple, list)):
            for x in node:
                walk(x)

    walk(expr)
    return found


def position(s: State, focus=()) -> list[str]:
    """A position as lines of text: whose decision, the zones that hold cards, the variables.

    Everything is shown face up (a scenario's author sees the whole table). Zones and variables
    named in ``focus`` come first; long piles show their size and top cards."""
    p = s.program
    lines = []
    if s.over:
        over = "the game is over"
        try:
            over += f"; scores {', '.join(map(str, s.scores))}"
        except (RuledslError, *_RULE_ERRORS):
            pass
        lines.append(over + (f" ({s.finding})" if s.finding else ""))
    else:
        lines.append(f"player {s.current_player} decides `{s.decision}`; legal: {_moves_text(s)}")
    zones = [z for z in p.zones if z.owner is None or z.owner < s.n]
    zones.sort(key=lambda z: z.family not in focus)
    for z in zones:
        if z.places:
            slots = s.cards_in(z.name)
            held = [f"{i}:{c}" for i, c in enumerate(slots) if c is not None]
            if held or z.family in focus:
                lines.append(f"{z.name}: {' '.join(held) or 'empty'}")
            continue
        cards = s.cards_in(z.name)
        if not cards and z.family not in focus:
            continue
        if len(cards) > _LONG and (z.shape == "pile" or len(cards) > 4 * _LONG):
            lines.append(f"{z.name}: {len(cards)} cards, top {' '.join(reversed(cards[-3:]))}")
        else:
            lines.append(f"{z.name}: {' '.join(cards) or 'empty'}")
    values = []
    for name, (base, sizes, dims) in p.var_families.items():
        count = 1
        for n in sizes:
            count *= n
        for i in range(count):
            label = p.var_names[base + i]
            if dims and dims[0][0] == "player" and i // max(1, count // sizes[0]) >= s.n:
                continue
            if base + i in p.flag_slots or (base + i in p.var_exists and not s.vars[p.var_exists[base + i]]):
                continue  # a growing family's bookkeeping, or a member that is not open
            v = s.vars[base + i]
            if base + i in p.card_slots and v is not None:
                v = p.card_labels[v]
            values.append((name not in focus, f"{label} = {v}"))
    values.sort(key=lambda t: t[0])
    if values:
        lines.append("; ".join(text for _, text in values))
    if s.players_left():
        lines.append("left the game: " + ", ".join(f"player {p}" for p in s.players_left()))
    return lines
