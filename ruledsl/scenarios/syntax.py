"""The syntax of scenario files: parsing a ``.test.rules`` file into frozen nodes.

The grammar is the scenario section of grammar/ruledsl.lark (start rule
``scenario_file``); expressions and zone references are built by the rules
parser's own builder, so an expectation is an ordinary expression node that
the checker and compiler take as they are. :mod:`ruledsl.scenario` runs the
parsed scenarios.
"""

from __future__ import annotations

import functools

import attrs
import lark
from lark import v_args

from ..language import ast as A
from ..language.errors import Diagnostic, RulesError, Span, source_line
from ..language.reader import _Builder, _syntax_error, _unquote
from ..language.shipped import data_path
from ..language.sizes import size_errors

# ---- the syntax of a scenario file -------------------------------------------


def _node(cls):
    return attrs.frozen(eq=False)(cls)


@_node
class Stmt:
    span: Span


@_node
class Players(Stmt):
    count: int


@_node
class Seed(Stmt):
    seed: int


@_node
class SetParam(Stmt):
    name: str
    value: object


@_node
class Gather(Stmt):
    zone: A.ZoneRef


@_node
class Cards(Stmt):
    zone: A.ZoneRef
    cards: tuple  # labels; None for `none`
    top_first: bool = False


@_node
class Slots(Stmt):
    zone: A.ZoneRef
    first: int
    cards: tuple


@_node
class Assign(Stmt):
    target: A.ZoneRef
    value: object  # int, bool, ("name", str) or ("card", str)


@_node
class New(Stmt):
    """``new meld[0]``: open the lowest free member of a growing zone family."""

    zone: A.ZoneRef


@_node
class MoveText:
    """A move as ``State.describe`` prints it: ``play(7♥)``, ``draw``, ``bet(player 2)``."""

    name: str
    args: tuple  # ("card", label) | ("int", n) | ("name", s) | ("player", n)
    span: Span
    places: tuple = ()  # per argument: the zone a card comes from (`play(2♥ from hand[1])`), or None

    def place(self, i: int):
        return self.places[i] if i < len(self.places) else None

    def __str__(self) -> str:
        parts = []
        for i, (kind, value) in enumerate(self.args):
            text = f"player {value}" if kind == "player" else str(value)
            parts.append(text + (f" from {self.place(i)}" if self.place(i) is not None else ""))
        return self.name + (f"({', '.join(parts)})" if parts else "")


@attrs.frozen
class _CardFrom:
    card: tuple
    place: str


@_node
class Play(Stmt):
    moves: tuple
    fails: str | None  # the finding the last move must raise


@_node
class Expect(Stmt):
    kind: str  # holds legal illegal moves decision over scores winners cards slots card_in card_not_in
    # sees does_not_see differs ends refused
    args: tuple
    text: str  # the expectation as written


@_node
class Scenario:
    name: str
    base: str | None
    stmts: tuple
    span: Span
    options: tuple | None = None  # an included scenario: the settings of its own file (None: this file's)


@_node
class Include:
    """``include "base.test.rules" except a, b``: another file's scenarios, run against this file's rules."""

    path: str  # as written, relative to the including file
    leave_out: tuple  # (name, Span) pairs
    span: Span


@_node
class ScenarioSource:
    """A parsed scenario file."""

    path: str
    text: str
    rules: str  # the rules file named, as written
    rules_span: Span
    options: tuple  # Players / Seed / SetParam for every scenario
    scenarios: tuple  # the included files' scenarios first (ruledsl.scenarios.runner adds them), then its own
    includes: tuple = ()  # Include nodes, as written
    texts: tuple = ()  # (path, text) of every included file, for messages


@functools.lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    text = data_path("grammar", "ruledsl.lark").read_text(encoding="utf-8")
    return lark.Lark(text, parser="lalr", start="scenario_file", propagate_positions=True,
                     maybe_placeholders=True)


def _text_of(text: str, span: Span) -> str:
    lines = text.splitlines()
    if not span.line or span.line > len(lines):
        return ""
    if span.end_line == span.line:
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    first = lines[span.line - 1][span.column - 1:]
    return " ".join([first.strip()] + [ln.strip() for ln in lines[span.line:span.end_line - 1]]
                    + [lines[span.end_line - 1][:span.end_column - 1].strip()])


class _ScenarioBuilder(_Builder):
    def __init__(self, path: str, text: str):
        super().__init__(path)
        self.text = text

    def _expect(self, meta, kind, *args):
        span = self._span(meta)
        return (kind, args, span)

    @v_args(inline=True)
    def sc_int(self, tok):
        return int(tok)

    @v_args(inline=True)
    def sc_neg_int(self, tok):
        return -int(tok)

    @v_args(inline=True)
    def sc_name(self, tok):
        return ("name", str(tok))

    @v_args(inline=True)
    def sc_card_label(self, tok):
        text = str(tok)
        return ("card", _unquote(tok) if text.startswith('"') else text)

    def sc_empty(self, _):
        return ("card", None)

    def sc_true(self, _):
        return True

    def sc_false(self, _):
        return False

    @v_args(inline=True)
    def sc_player_arg(self, word, number):
        if str(word) != "player":
            raise _BuildError(f"`{word} {number}` is no move argument; a player is written `player {number}`",
                              self._tok(word))
        return ("player", int(number))

    @v_args(inline=True)
    def sc_card_from(self, card, place):
        return _CardFrom(card, place)

    def sc_place(self, children):
        name, *rest = children
        member = rest.pop() if rest else None
        indices = [str(i[1]) if isinstance(i, tuple) else str(i) for i in rest if i is not None]
        return str(name) + (f"[{', '.join(indices)}]" if indices else "") + (f".{member}" if member else "")

    @v_args(meta=True)
    def sc_move_text(self, meta, children):
        name, *args = children
        args = [a for a in args if a is not None]
        out = []
        places = []
        for a in args:
            places.append(a.place if isinstance(a, _CardFrom) else None)
            if isinstance(a, _CardFrom):
                a = a.card
            if isinstance(a, int):
                out.append(("int", a))
            elif a[0] == "card" and a[1] is None:
                raise _BuildError("a move's argument cannot be `none`", self._span(meta))
            else:
                out.append(a)
        return MoveText(str(name), tuple(out), self._span(meta), tuple(places) if any(places) else ())

    def sc_move_list(self, children):
        return tuple(children)

    def sc_no_moves(self, _):
        return ()

    @v_args(meta=True, inline=True)
    def sc_players(self, meta, count):
        return Players(self._span(meta), int(count))

    @v_args(meta=True, inline=True)
    def sc_seed(self, meta, seed):
        return Seed(self._span(meta), int(seed))

    @v_args(meta=True, inline=True)
    def param(self, meta, name, value, accepted, doc):
        span = self._span(meta)
        if accepted:
            raise _BuildError("a scenario gives a parameter its value; the range it may take belongs in the "
                              "rules file", accepted[0].span)
        if isinstance(value, (A.BoolLit, A.IntLit)):
            v = value.value
        elif isinstance(value, A.Neg) and isinstance(value.operand, A.IntLit):
            v = -value.operand.value
        else:
            raise _BuildError("a scenario sets a parameter to a number, `true` or `false`", value.span)
        return SetParam(span, str(name), v)

    @v_args(meta=True, inline=True)
    def gather(self, meta, zone):
        return Gather(self._span(meta), zone)

    @v_args(meta=True)
    def sc_cards(self, meta, children):
        return Cards(self._span(meta), children[0], tuple(c[1] for c in children[1:]))

    @v_args(meta=True)
    def sc_top(self, meta, children):
        return Cards(self._span(meta), children[0], tuple(c[1] for c in children[1:]), True)

    @v_args(meta=True)
    def sc_slots(self, meta, children):
        return Slots(self._span(meta), children[0], children[1], tuple(c[1] for c in children[2:]))

    @v_args(meta=True, inline=True)
    def sc_new(self, meta, zone):
        return New(self._span(meta), zone)

    @v_args(meta=True, inline=True)
    def sc_assign(self, meta, target, value):
        return Assign(self._span(meta), target, value)

    def sc_set(self, children):
        return tuple(children)

    @v_args(meta=True)
    def sc_move(self, meta, children):
        *moves, fails = children
        return Play(self._span(meta), tuple(moves), _unquote(fails) if fails is not None else None)

    # expectations: (kind, args, span), wrapped into Expect by sc_expect
    @v_args(meta=True, inline=True)
    def exp_holds(self, meta, expr):
        return self._expect(meta, "holds", expr)

    @v_args(meta=True)
    def exp_legal(self, meta, children):
        return self._expect(meta, "legal", tuple(children))

    @v_args(meta=True, inline=True)
    def exp_illegal(self, meta, move, reason):
        return self._expect(meta, "illegal", move, _unquote(reason) if reason is not None else None)

    @v_args(meta=True, inline=True)
    def exp_moves(self, meta, name, moves):
        return self._expect(meta, "moves", str(name) if name is not None else None, moves)

    @v_args(meta=True, inline=True)
    def exp_decision(self, meta, name, by):
        return self._expect(meta, "decision", str(name), by)

    @v_args(meta=True)
    def exp_over(self, meta, _):
        return self._expect(meta, "over")

    @v_args(meta=True)
    def exp_not_over(self, meta, _):
        return self._expect(meta, "not_over")

    @v_args(meta=True)
    def exp_scores(self, meta, children):
        return self._expect(meta, "scores", tuple(children))

    @v_args(meta=True)
    def exp_winners(self, meta, children):
        return self._expect(meta, "winners", tuple(children))

    @v_args(meta=True)
    def exp_no_winners(self, meta, _):
        return self._expect(meta, "winners", ())

    @v_args(meta=True)
    def exp_cards(self, meta, children):
        return self._expect(meta, "cards", _as_zone(children[0]), tuple(c[1] for c in children[1:]))

    @v_args(meta=True)
    def exp_slots(self, meta, children):
        return self._expect(meta, "slots", _as_zone(children[0]), children[1], tuple(c[1] for c in children[2:]))

    @v_args(meta=True, inline=True)
    def exp_card_in(self, meta, card, zone):
        return self._expect(meta, "card_in", str(card), zone)

    @v_args(meta=True, inline=True)
    def exp_card_not_in(self, meta, card, zone):
        return self._expect(meta, "card_not_in", str(card), zone)

    @v_args(meta=True, inline=True)
    def exp_sees(self, meta, word, player, zone):
        return self._expect(meta, "sees", self._viewer(word, player), zone)

    @v_args(meta=True, inline=True)
    def exp_does_not_see(self, meta, word, player, zone):
        return self._expect(meta, "does_not_see", self._viewer(word, player), zone)

    def _viewer(self, word, number) -> int:
        if str(word) != "player":
            raise _BuildError(f"`{word} {number}` is no player; write `player {number}`", self._tok(word))
        return int(number)

    @v_args(meta=True, inline=True)
    def exp_differs(self, meta, zone, seed):
        return self._expect(meta, "differs", _as_zone(zone), int(seed))

    @v_args(meta=True)
    def exp_top(self, meta, children):
        return self._expect(meta, "ends", _as_zone(children[0]), "top", tuple(c[1] for c in children[1:]))

    @v_args(meta=True)
    def exp_bottom(self, meta, children):
        return self._expect(meta, "ends", _as_zone(children[0]), "bottom", tuple(c[1] for c in children[1:]))

    @v_args(meta=True, inline=True)
    def exp_refused(self, meta, count):
        return self._expect(meta, "refused", int(count))

    @v_args(meta=True, inline=True)
    def sc_expect(self, meta, found):
        kind, args, _ = found
        span = self._span(meta)
        return Expect(span, kind, args, _text_of(self.text, span))

    @v_args(meta=True)
    def scenario(self, meta, children):
        name, base, *stmts = children
        flat = []
        for s in stmts:
            flat.extend(s if isinstance(s, tuple) else (s,))
        return Scenario(str(name), str(base) if base is not None else None, tuple(flat), self._span(meta))

    @v_args(meta=True, inline=True)
    def scenarios_for(self, meta, path):
        return (_unquote(path), self._tok(path))

    @v_args(meta=True)
    def sc_include(self, meta, children):
        path, *names = children
        return Include(_unquote(path), tuple((str(n), self._tok(n)) for n in names if n is not None),
                       self._span(meta))

    def scenario_file(self, children):
        return children


class _BuildError(Exception):
    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.message = message
        self.span = span


def _as_zone(e) -> A.ZoneRef:
    if isinstance(e, A.Name):
        return A.ZoneRef(e.name, (), span=e.span)
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
        return A.ZoneRef(e.obj.name, tuple(e.indices), span=e.span)
    if isinstance(e, A.Attr) and isinstance(e.obj, A.Index) and isinstance(e.obj.obj, A.Name):
        return A.ZoneRef(e.obj.obj.name, tuple(e.obj.indices), e.name, span=e.span)  # a member zone
    raise _BuildError("a zone goes here, such as `hand[0]` or `deck`", e.span)


def _diag(texts: dict, code: str, message: str, span: Span, hint: str | None = None) -> Diagnostic:
    text = texts.get(span.file)
    return Diagnostic(code, message, span, hint, source_line(text, span.line) if text and span.line else None)


def parse_scenarios(text: str, path: str = "<scenarios>") -> ScenarioSource:
    """Parse a scenario file; raise RulesError with a positioned diagnostic on bad syntax."""
    try:
        tree = _parser().parse(text)
    except lark.exceptions.UnexpectedInput as err:
        raise RulesError([_syntax_error(err, text, path)]) from None
    too_big = size_errors(tree, text, path)
    if too_big:
        raise RulesError(too_big)
    try:
        items = _ScenarioBuilder(path, text).transform(tree)
    except lark.exceptions.VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, _BuildError):
            raise RulesError([_diag({path: text}, "E300", inner.message, inner.span)]) from None
        raise
    (rules, rules_span), *rest = items
    includes = tuple(i for i in rest if isinstance(i, Include))
    options = tuple(i for i in rest if not isinstance(i, (Scenario, Include)))
    scenarios = tuple(i for i in rest if isinstance(i, Scenario))
    texts = {path: text}
    errors = []
    seen: dict[str, Scenario] = {}
    for sc in scenarios:
        if sc.name in seen:
            errors.append(_diag(texts, "E301", f"scenario `{sc.name}` is defined twice (first at line "
                                f"{seen[sc.name].span.line})", sc.span))
        seen[sc.name] = sc
    for sc in scenarios:  # with an include, a base may be an included scenario: checked once they are read
        if sc.base is not None and sc.base not in seen and not includes:
            errors.append(_diag(texts, "E301", f"scenario `{sc.name}` starts from `{sc.base}`, "
                                "which is no scenario of this file", sc.span))
    for sc in scenarios:
        chain, cur = [], sc
        while cur is not None and cur.base is not None and cur.base in seen:
            if cur.name in chain:
                errors.append(_diag(texts, "E301", f"scenario `{sc.name}` starts from itself", sc.span))
                break
            chain.append(cur.name)
            cur = seen[cur.base]
    if errors:
        raise RulesError(errors)
    return ScenarioSource(path, text, rules, rules_span, options, scenarios, includes)
