"""Text to syntax tree with Lark: the parser over grammar/ruledsl.lark, its errors in a designer's
words, and the builder of the frozen nodes (with builders.py). Only a text that is not in the user's
cache is read here (parse.py), so a run that finds every tree in the cache never imports Lark."""

from __future__ import annotations

import difflib
import functools
import re

import lark
from lark import Transformer, v_args

from . import ast as A
from . import setmoves, togethersets
from .builders import LaterBuilders, _unquote
from .errors import Diagnostic, RulesError, Span, source_line
from .shipped import data_path
from .sizes import size_errors


@functools.lru_cache(maxsize=1)
def parser() -> lark.Lark:
    """The parser of grammar/ruledsl.lark, built once and kept on disk (see grammar_cache)."""
    from .grammar_cache import build

    return build(data_path("grammar", "ruledsl.lark").read_text(encoding="utf-8"))

# Terminal names as a designer would call them, for "expected ..." messages.
_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','",
    "EQUAL": "'='", "DOT": "'.'", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "PERCENT": "'%'", "ASSIGN_OP": "'=' or '+=' or '-='", "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
    "LOWEST": "'lowest'", "HIGHEST": "'highest'", "CARD": "a card such as 7♥", "EACH": "'each'", "$END": "the end of the file",
}


def _readable(term: str) -> str:
    if term in _READABLE:
        return _READABLE[term]
    try:
        pattern = parser().get_terminal(term).pattern
        if isinstance(pattern, lark.lexer.PatternStr):
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return term.lower()


def _found(token) -> str:
    if token is None or getattr(token, "type", None) == "$END":
        return "the end of the file"
    return f"'{token}'"


def _syntax_error(err: lark.exceptions.UnexpectedInput, text: str, path: str) -> Diagnostic:
    line, col = getattr(err, "line", 0) or 0, getattr(err, "column", 0) or 0
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        message = f"unexpected character '{ch}'"
        hint = "names use letters, digits and '_'; strings use double quotes"
    elif isinstance(err, lark.exceptions.UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        expected = sorted({_readable(t) for t in err.expected})
        message = "the file ends too early; expected " + _join(expected)
        hint = _open_brace_hint(text) if "'}'" in expected else None
        opened = _open_brace(text, len(text)) if "'}'" in expected else None
    else:
        token = err.token
        expected = sorted({_readable(t) for t in err.expected})
        message = f"unexpected {_found(token)}; expected " + _join(expected)
        hint = _hint_for(token, err.expected)
        before = text[:getattr(token, "start_pos", None) or 0]
        # a block left open further up: say which, and where (the parser only finds out here)
        opened = _open_brace(text, len(before)) if "'}'" in expected else None
        if opened is not None and (hint is None or getattr(token, "column", 0) == 1):
            hint = _still_open(opened)  # a word at the start of a line: most likely a declaration
        single = re.search(r"\bplayers\s+(\d+)\s*$", before) if expected == ["'..'"] else None
        if single is not None:  # `players 2`: say so at that line, not at the next one
            line = before.count("\n", 0, single.start(1)) + 1
            col = single.start(1) - (before.rfind("\n", 0, single.start(1)) + 1) + 1
            n = single.group(1)
            message = "`players` takes a range of player counts, not one number"
            hint = f"write `players {n}..{n}` for exactly {n} players"
            err.token = single.group(1)
        if token is not None and token.type == "$END":
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
            message = "the file ends too early; expected " + _join(expected)
            hint = _open_brace_hint(text) if "'}'" in expected else None
            opened = _open_brace(text, len(text)) if "'}'" in expected else None
    width = len(str(getattr(err, "token", "") or "x"))
    span = Span(path, line, col, line, col + max(width, 1))
    related = ()
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        opened = None
    if opened is not None and (opened[0], opened[1]) != (line, col):
        where = Span(path, opened[0], opened[1], opened[0], opened[1] + 1)
        related = ((where, f"the block `{opened[2]}` opened here is still open", source_line(text, opened[0])),)
    return Diagnostic("E100", message, span, hint, source_line(text, line), related)


def _hint_for(token, expected) -> str | None:
    """What a designer most likely meant, for the common slips."""
    if token is None:
        return None
    value = str(token)
    if value == "=" and ("COMPARE" in expected or "LBRACE" in expected or "THEN" in expected):
        return "to compare two values, write `==`"
    if token.type not in ("NAME", "INT", "STRING") and value.isidentifier() and "NAME" in expected:
        return f"`{value}` is a word of the language; choose another name"
    if token.type == "COMPARE":
        return "comparisons do not chain: write `a < b and b < c`"
    if token.type == "NAME":
        words = [w for w in (_readable(t).strip("'") for t in expected) if w.isidentifier()]
        close = difflib.get_close_matches(value, words, n=1, cutoff=0.6)
        if close:
            return f"did you mean `{close[0]}`?"
    return None


def _open_brace_hint(text: str) -> str:
    """Name the innermost '{' that is never closed."""
    opened = _open_brace(text, len(text))
    return _still_open(opened) if opened is not None else "is a '}' missing?"


def _still_open(opened: tuple) -> str:
    line, col, head = opened
    return f"the innermost block that needs to be closed is `{head}`, opened at line {line}, column {col}"


def _open_brace(text: str, end: int):
    """(line, column, what it opens) of the innermost '{' of ``text[:end]`` not closed before ``end``;
    what it opens is the line's text before the brace, such as ``procedure attack(v)``."""
    stack = []
    lines = text[:end].splitlines()
    for number, line in enumerate(lines, 1):
        in_string = False
        for col, ch in enumerate(line, 1):
            if ch == '"':
                in_string = not in_string
            elif in_string:
                continue
            elif ch == "#":
                break
            elif ch == "{":
                stack.append((number, col))
            elif ch == "}" and stack:
                stack.pop()
    if not stack:
        return None
    line, col = stack[-1]
    head, at = " ".join(lines[line - 1][:col - 1].split()), line - 1
    while not head and at > 0:  # a brace on a line of its own: what the line above opens
        at -= 1
        head = " ".join(lines[at].split("#")[0].split())
    if len(head) > 40:
        head = head[:39] + "…"
    return line, col, head or "{"


def _join(items: list[str]) -> str:
    if "'}'" in items:  # the most likely fix comes first
        items = ["'}'"] + [i for i in items if i != "'}'"]
    if len(items) > 8:
        items = items[:8] + ["..."]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]

def read(text: str, path: str) -> A.RulesFile:
    """Parse one rules file with Lark and build its syntax tree (no cache); raise RulesError with a
    positioned diagnostic on bad syntax."""
    try:
        tree = parser().parse(text)
    except lark.exceptions.UnexpectedInput as err:
        raise RulesError([_syntax_error(err, text, path)]) from None
    too_big = size_errors(tree, text, path)
    if too_big:
        raise RulesError(too_big)
    builder = _Builder(path)
    items = builder.transform(tree)
    return A.RulesFile(path, text, tuple(items.children) + tuple(builder.hidden), span=Span(path, 1, 1, 1, 1))


def _split_member(parts) -> tuple:
    """The indices of a reference and the member name after its `.`, if any."""
    parts = [p for p in parts if p is not None]
    if parts and isinstance(parts[-1], lark.Token):
        return tuple(parts[:-1]), str(parts[-1])
    return tuple(parts), None


class _Builder(LaterBuilders, Transformer):
    """Lark tree to frozen AST nodes, each with its span."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self.hidden: list = []  # declarations the constructs written out need (bounds.py)

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok(self, token) -> Span:
        return Span(self.path, token.line, token.column, token.end_line, token.end_column)

    # ---- expressions
    @v_args(inline=True)
    def int_lit(self, tok):
        return A.IntLit(int(tok), span=self._tok(tok))

    @v_args(inline=True)
    def str_lit(self, tok):
        return A.StrLit(_unquote(tok), span=self._tok(tok))

    @v_args(meta=True)
    def true_lit(self, meta, _):
        return A.BoolLit(True, span=self._span(meta))

    @v_args(meta=True)
    def false_lit(self, meta, _):
        return A.BoolLit(False, span=self._span(meta))

    @v_args(meta=True)
    def none_lit(self, meta, _):
        return A.NoneLit(span=self._span(meta))

    @v_args(inline=True)
    def name(self, tok):
        return A.Name(str(tok), span=self._tok(tok))

    @v_args(meta=True, inline=True)
    def attr(self, meta, obj, name):
        return A.Attr(obj, str(name), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, children):
        return A.Index(children[0], tuple(children[1:]), span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        args = tuple(a for a in children[1:] if a is not None)
        return A.Call(str(children[0]), args, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def aggregate(self, meta, func, var, domain, start, where, order, key):
        return A.Aggregate(str(func), str(var), domain, where, start, key, str(order or "") == "highest",
                           order is not None, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def best(self, meta, var, domain, start, where, order, key):
        return A.Best(str(var), domain, start, where, key, str(order or "highest") == "highest",
                      span=self._span(meta))

    @v_args(meta=True)
    def tuple_lit(self, meta, children):
        return A.TupleLit(tuple(children), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def fold(self, meta, func, expr, var, domain, where, default=None):
        return A.Fold(str(func), expr, str(var), domain, where, default, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def reverse_stmt(self, meta, zone):
        return A.Reverse(zone, span=self._span(meta))

    @v_args(meta=True)
    def set_lit(self, meta, children):
        return A.SetLit(tuple(children), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def range(self, meta, low, high):
        return A.Range(low, high, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def if_expr(self, meta, cond, then, otherwise):
        return A.IfExpr(cond, then, otherwise, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def or_op(self, meta, left, right):
        return A.BinOp("or", left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def and_op(self, meta, left, right):
        return A.BinOp("and", left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def not_op(self, meta, operand):
        return A.Not(operand, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def compare(self, meta, left, op, right):
        return A.BinOp(str(op), left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def member(self, meta, left, right):
        return A.BinOp("in", left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def not_member(self, meta, left, right):
        return A.BinOp("not in", left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def binary(self, meta, left, op, right):
        return A.BinOp(str(op), left, right, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def has_attr(self, meta, obj, name):
        return A.Has(obj, str(name), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def neg(self, meta, operand):
        return A.Neg(operand, span=self._span(meta))

    # ---- statements
    @v_args(meta=True)
    def zone_ref(self, meta, children):
        indices, member = _split_member(children[1:])
        return A.ZoneRef(str(children[0]), indices, member, span=self._span(meta))

    def block(self, children):
        out = []
        for c in children:  # a statement that stands for several (a response window) is a tuple
            out.extend(c) if isinstance(c, tuple) else out.append(c)
        return tuple(out)

    @v_args(meta=True)
    def target(self, meta, children):
        indices, member = _split_member(children[1:])
        return (str(children[0]), indices, member)

    @v_args(meta=True, inline=True)
    def assign(self, meta, target, op, value):
        return A.Assign(target[0], target[1], str(op), value, target[2], span=self._span(meta))

    @v_args(meta=True, inline=True)
    def announce_stmt(self, meta, target, op, value):
        return A.Assign(target[0], target[1], str(op), value, target[2], announced=True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def let(self, meta, name, value):
        return A.Let(str(name), value, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def put(self, meta, cards, place, zone, at):
        return A.Put(cards, str(place.children[0]) == "under", zone, at, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def put_each(self, meta, _each, source, target, var, domain):
        return A.PutEach(source, target, str(var), domain, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deal(self, meta, count, source, target):
        return A.Deal(count, source, target, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def shuffle(self, meta, zone):
        return A.Shuffle(zone, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def gather(self, meta, zone):
        return A.Gather(zone, span=self._span(meta))

    @v_args(inline=True)
    def elif_part(self, cond, body):
        return (cond, body)

    @v_args(inline=True)
    def else_part(self, body):
        return ("else", body)

    @v_args(meta=True)
    def if_stmt(self, meta, children):
        branches = [(children[0], children[1])]
        otherwise = None
        for part in children[2:]:
            if part[0] == "else":
                otherwise = part[1]
            else:
                branches.append(part)
        return A.If(tuple(branches), otherwise, span=self._span(meta))

    def match_arm(self, children):
        return (tuple(A.Name(str(n), span=self._tok(n)) for n in children[:-1]), children[-1])

    @v_args(inline=True)
    def match_else(self, body):
        return body

    @v_args(meta=True)
    def match_stmt(self, meta, children):
        subject, arms, otherwise = children[0], children[1:-1], children[-1]
        branches = []
        for names, body in arms:
            cond = None
            for n in names:
                test = A.BinOp("==", subject, n, span=n.span)
                cond = test if cond is None else A.BinOp("or", cond, test, span=n.span)
            branches.append((cond, body))
        return A.Match(tuple(branches), otherwise, subject=subject, arms=tuple(names for names, _ in arms),
                       span=self._span(meta))

    @v_args(meta=True, inline=True)
    def for_stmt(self, meta, var, domain, start, where, body):
        return A.For(str(var), domain, start, body, where, span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, _):
        return A.Break(span=self._span(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, _):
        return A.Break(True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def leave_stmt(self, meta, player):
        return A.Leave(player, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def rejoin_stmt(self, meta, player):
        return A.Leave(player, True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def next_turn_stmt(self, meta, player):
        return A.NextTurn(player, span=self._span(meta))

    @v_args(meta=True)
    def final_round_stmt(self, meta, _):
        return A.FinalRound(span=self._span(meta))

    @v_args(meta=True, inline=True)
    def repeat_stmt(self, meta, count, body):
        return A.Repeat(count, body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def while_stmt(self, meta, cond, body):
        return A.While(cond, body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def turns_stmt(self, meta, start, until, body):
        return A.Turns(start, until, body, span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, children):
        options = self._bounded(children[2:-1], children[1], False)[0]
        options = setmoves.expand_all(options, children[1])
        return A.Choose(str(children[0]), children[1], options, no_move_end=children[-1], span=self._span(meta))

    @v_args(meta=True)
    def no_move_end(self, meta, _):
        return A.NoMoveEnd(span=self._span(meta))

    @v_args(meta=True, inline=True)
    def set_param(self, meta, name, domain, keep=None):
        return setmoves.SetParam(str(name), domain, keep, span=self._span(meta))

    @v_args(meta=True)
    def choose_each(self, meta, children):
        name, _each, var, domain, *options = children
        span = self._span(meta)
        options = self._bounded(options, A.Name(str(var), span=span), False)[0]
        options = togethersets.expand_all(options, A.Name(str(var), span=span))
        return A.Choose(str(name), A.Name(str(var), span=span), tuple(options), str(var), domain, span=span)

    @v_args(meta=True, inline=True)
    def option(self, meta, name, params, where, bound, body):
        return A.Option(str(name), params or (), where, body, bound, span=self._span(meta))

    def option_params(self, children):
        return tuple(children)

    @v_args(meta=True, inline=True)
    def reveal_stmt(self, meta, what, to, body):
        return A.Reveal(what, to, body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def show_stmt(self, meta, what, to):
        return A.Show(what, to, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def tell_stmt(self, meta, attr, what, to):
        return A.Tell(str(attr), what, to, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def at_once(self, meta, body):
        return A.AtOnce(body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def setup_block(self, meta, body):
        return A.AtOnce(body, True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def new_stmt(self, meta, zone, var):
        return A.New(zone, str(var), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def remove_stmt(self, meta, zone):
        return A.Remove(zone, span=self._span(meta))

    @v_args(meta=True)
    def end_game(self, meta, _):
        return A.EndGame(span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, children):
        args = tuple(a for a in children[1:] if a is not None)
        return A.CallStmt(str(children[0]), args, span=self._span(meta))

    # ---- declarations
    @v_args(meta=True, inline=True)
    def game_name(self, meta, name):
        return A.GameName(_unquote(name), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def players_range(self, meta, low, high):
        return A.PlayersRange(int(low), int(high), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def include(self, meta, path):
        return A.Include(_unquote(path), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def extends(self, meta, path):
        return A.Extends(_unquote(path), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def limit(self, meta, moves):
        return A.Limit(int(moves), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def param(self, meta, name, value, accepted, doc):
        low, high = accepted if accepted else (None, None)
        return A.Param(str(name), value, _unquote(doc) if doc else None, low, high, span=self._span(meta))

    @v_args(inline=True)
    def param_range(self, low, high):
        return (low, high)

    @v_args(meta=True)
    def enum_def(self, meta, children):
        return A.EnumDef(str(children[0]), tuple(children[1:]), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def enum_value(self, meta, name, label):
        return A.EnumValue(str(name), _unquote(label) if label else None, span=self._span(meta))

    @v_args(meta=True)
    def kind_def(self, meta, children):
        attributes = tuple(c for c in children[1:] if isinstance(c, A.Attribute))
        shows = [c for c in children[1:] if isinstance(c, tuple)]
        return A.KindDef(str(children[0]), attributes, shows[-1][0] if shows else None,
                         tuple(span for _, span in shows), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def show(self, meta, text):
        return (_unquote(text), self._span(meta))

    @v_args(meta=True, inline=True)
    def attribute(self, meta, name, type_ref, labels, derived):
        return A.Attribute(str(name), type_ref, labels or (), derived, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def named_type(self, meta, name):
        return A.TypeRef(str(name), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def range_type(self, meta, low, high):
        return A.TypeRef(None, int(low), int(high), span=self._span(meta))

    def label_table(self, children):
        return tuple(children)

    @v_args(inline=True)
    def label(self, number, text):
        return (int(number), _unquote(text))

    @v_args(meta=True, inline=True)
    def deck_def(self, meta, name, deck):
        return A.DeckDef(str(name), deck, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deck_sum(self, meta, left, right):
        return A.DeckSum(left, right, span=self._span(meta))

    @v_args(meta=True)
    def deck_card(self, meta, children):
        fields = tuple(f for f in children[1:] if f is not None)
        return A.DeckCard(str(children[0]), fields, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deck_ref(self, meta, name):
        return A.DeckRef(str(name), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def field_range(self, meta, low, high):
        return A.Range(low, high, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def field(self, meta, name, value):
        if isinstance(value, lark.Token) and value.type == "EACH":
            value = None
        return A.Field(str(name), value, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def cards_def(self, meta, deck, zone):
        return A.CardsDef(deck, zone, span=self._span(meta))

    @v_args(meta=True)
    def zone_def(self, meta, children):
        name = str(children[0])
        index = ()
        rest = children[1:]
        if rest and isinstance(rest[0], tuple):
            index, rest = rest[0], rest[1:]
        elif rest and rest[0] is None:
            rest = rest[1:]
        members = ()
        if rest and (rest[-1] is None or isinstance(rest[-1], list)):
            members, rest = tuple(rest[-1] or ()), rest[:-1]
        return A.ZoneDef(name, index, tuple(rest), members, span=self._span(meta))

    def member_block(self, children):
        return list(children)

    def index_spec(self, children):
        return tuple(children)

    @v_args(meta=True, inline=True)
    def index_named(self, meta, expr):
        if not isinstance(expr, A.Name):
            # a single number or expression: reported by the checker, which knows the position
            return A.IndexDomain(None, expr, None, span=self._span(meta))
        return A.IndexDomain(expr.name, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def index_range(self, meta, low, high):
        return A.IndexDomain(None, low, high, span=self._span(meta))

    @v_args(meta=True)
    def index_grow(self, meta, _):
        return A.IndexDomain(None, grows=True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def zone_option(self, meta, name, arg):
        return A.ZoneOption(str(name), arg, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def connect_def(self, meta, first, first_slot, second, second_slot):
        return A.ConnectDef(first, first_slot, second, second_slot, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def var_def(self, meta, name, index, type_name, first, second, init):
        # after the type: who sees the value, `unshown` (left off the table), both or neither
        words = [str(w) for w in (first, second) if w is not None]
        shown = "unshown" not in words
        if not shown:
            words.remove("unshown")
        return A.VarDef(str(name), index or (), str(type_name), init,
                        " ".join(words) or None, shown=shown, span=self._span(meta))

    def params(self, children):
        return tuple(str(c) for c in children if c is not None)

    @v_args(meta=True, inline=True)
    def define_def(self, meta, name, params, body):
        return A.DefineDef(str(name), params or (), body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def procedure_def(self, meta, name, params, body):
        return A.ProcedureDef(str(name), params or (), body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def flow_def(self, meta, body):
        return A.FlowDef(body, span=self._span(meta))

    @v_args(inline=True)
    def binder(self, var, domain):
        return (str(var), domain)

    @v_args(meta=True, inline=True)
    def trigger_def(self, meta, name, binder, cond, body):
        var, domain = binder or (None, None)
        return A.TriggerDef(str(name), var, domain, cond, body, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def invariant_def(self, meta, name, binder, cond, message):
        var, domain = binder or (None, None)
        return A.InvariantDef(str(name), var, domain, cond, _unquote(message) if message else None,
                              span=self._span(meta))

    @v_args(meta=True)
    def winner_def(self, meta, children):
        return A.WinnerDef(str(children[0]), tuple(children[2:]), when=children[1], span=self._span(meta))

    @v_args(meta=True, inline=True)
    def winner_all(self, meta, when):
        return A.WinnerDef("", (), when=when, everyone=True, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def statistic_def(self, meta, name, expr):
        return A.StatisticDef(str(name), expr, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def order_key(self, meta, order, expr):
        return A.OrderKey(str(order) == "highest", expr, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def replace(self, meta, item):
        return A.Replace(item, span=self._span(meta))

    @v_args(meta=True)
    def extend_choice(self, meta, children):
        return A.ExtendChoice(str(children[0]), tuple(children[1:]), span=self._span(meta))
