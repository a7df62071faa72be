"""The syntax tree of a rules file: frozen nodes, each with its source span.

Nodes compare by identity (``eq=False``) so later passes can keep side tables
keyed by node. The tree is built by :mod:`ruledsl.language.reader`.

A node class is written as an attrs class would be (annotated fields, defaults, ``field(default=...,
kw_only=True)``) under ``@node``, and is one to attrs' functions: ``attrs.fields``, ``attrs.evolve``,
``attrs.has`` and ``attrs.asdict`` read its ``__attrs_attrs__``, real ``attrs.Attribute`` records. But
``node`` builds the class itself, with one constructor shared by every node: attrs generates and
compiles an ``__init__`` for each class and builds each class a second time for its slots, which
for the ~100 node classes was half of the Python run to import the whole pipeline.
"""

from __future__ import annotations

import inspect

import attrs

from .errors import NOWHERE, Span


class field:
    """A field's default, and whether the constructor takes it by keyword only (as ``span``)."""

    __slots__ = ("default", "kw_only")

    def __init__(self, default=attrs.NOTHING, kw_only: bool = False):
        self.default, self.kw_only = default, kw_only


def node(cls):
    """Make ``cls`` a frozen node class: its fields are those of its bases, then its own annotations."""
    own = inspect.get_annotations(cls)  # the class's own, not its bases'
    fields = [_attribute(a.name, a.default, a.type, a.kw_only, True)
              for a in getattr(cls, "__attrs_attrs__", ()) if a.name not in own]
    for name, kind in own.items():
        value = cls.__dict__.get(name, attrs.NOTHING)
        kw_only = False
        if isinstance(value, field):
            value, kw_only = value.default, value.kw_only
        elif value is not attrs.NOTHING and type(value).__module__.startswith("attr"):  # attrs.field, Factory
            raise TypeError(f"{cls.__name__}.{name}: write ast.field(default=..., kw_only=...) in a node")
        if name in cls.__dict__:
            delattr(cls, name)
        fields.append(_attribute(name, value, kind, kw_only, False))
    positional = tuple(a.name for a in fields if not a.kw_only)
    keyword = tuple(a.name for a in fields if a.kw_only)
    defaults = {a.name: a.default for a in fields if a.default is not attrs.NOTHING}
    cls.__attrs_attrs__ = tuple(fields)
    cls._node_fields = (positional, keyword, defaults)
    return cls


def _attribute(name: str, default, kind, kw_only: bool, inherited: bool) -> attrs.Attribute:
    return attrs.Attribute(name=name, default=default, validator=None, repr=True, cmp=None, hash=None,
                           init=True, inherited=inherited, type=kind, kw_only=kw_only, alias=name)


@node
class Node:
    span: Span = field(default=NOWHERE, kw_only=True)

    def __init__(self, *args, **kwargs):
        positional, keyword, defaults = type(self)._node_fields
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__}() takes {len(positional)} positional arguments, "
                            f"{len(args)} given")
        values = self.__dict__
        values.update(zip(positional, args))
        for name in positional[len(args):] + keyword:
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif name in defaults:
                values[name] = defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}() missing the argument {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got unexpected arguments {sorted(kwargs)}")

    def __setattr__(self, name, value):
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name):
        raise attrs.exceptions.FrozenInstanceError

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in type(self).__attrs_attrs__)
        return f"{type(self).__qualname__}({fields})"


# ---- expressions -----------------------------------------------------------


@node
class Expr(Node):
    pass


@node
class IntLit(Expr):
    value: int


@node
class StrLit(Expr):
    value: str


@node
class BoolLit(Expr):
    value: bool


@node
class NoneLit(Expr):
    pass


@node
class Name(Expr):
    name: str


@node
class Attr(Expr):
    obj: Expr
    name: str


@node
class Index(Expr):
    obj: Expr
    indices: tuple


@node
class Call(Expr):
    name: str
    args: tuple


@node
class Aggregate(Expr):
    """``count(each c in hand[p] where c.rank > 5)``: any, all, count, cards, random, first, sorted,
    and the meld tests same, distinct, run.

    ``start`` (``from e``) starts a walk round the players at ``e``; ``key`` (``by k``) is the
    order of ``sorted``, lowest first unless ``highest``, and what the meld tests compare;
    ``ordered`` says `lowest` or `highest` was written (a `run` in the domain's order)."""

    func: str
    var: str
    domain: Expr
    where: Expr | None
    start: Expr | None = None
    key: Expr | None = None
    highest: bool = False
    ordered: bool = False


@node
class Fold(Expr):
    """``sum(c.rank for each c in line[red] where ...)``: sum, min, max, list (a key of numbers)."""

    func: str
    expr: Expr
    var: str
    domain: Expr
    where: Expr | None
    default: Expr | None = None  # `max(... , default: 0)`: the value of min/max over nothing


@node
class Completable(Expr):
    """Whether the cards ``chosen`` and more cards of ``zone`` can still meet every meld test of ``tests``
    (``same``/``distinct``/``run`` aggregates over the set being built) with at least each of ``lows`` and at
    most each of ``highs`` cards: the `while` that a set move whose condition is made of meld tests gets
    (made by language/setmoves.py, answered by compiler/melds.py; docs §4.12.7)."""

    chosen: Expr
    zone: Expr
    tests: tuple
    lows: tuple = ()
    highs: tuple = ()


@node
class SetLit(Expr):
    items: tuple


@node
class TupleLit(Expr):
    """``(c.suit == lead, c.rank)``: a key of numbers that compares in order, first item first."""

    items: tuple


@node
class Best(Expr):
    """``best c in trick by (c.suit == lead, c.rank)``: the value of a domain with the highest
    (or ``lowest``) key; the first in the domain's order on a tie; none if there is none."""

    var: str
    domain: Expr
    start: Expr | None
    where: Expr | None
    key: Expr
    highest: bool = True


@node
class Range(Expr):
    low: Expr
    high: Expr


@node
class IfExpr(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@node
class BinOp(Expr):
    """Arithmetic (+ - * / %), comparison, and/or, in / not in."""

    op: str
    left: Expr
    right: Expr


@node
class Has(Expr):
    """``c has rank``: whether the card's kind has the attribute."""

    obj: Expr
    name: str


@node
class Not(Expr):
    operand: Expr


@node
class Neg(Expr):
    operand: Expr


# ---- statements ------------------------------------------------------------


@node
class Stmt(Node):
    pass


@node
class ZoneRef(Node):
    name: str
    indices: tuple
    member: str | None = None  # `meld[p, i].pot`: a zone that lives with each member


@node
class Assign(Stmt):
    name: str
    indices: tuple
    op: str
    value: Expr
    member: str | None = None  # `meld[p, i].rank = 3`: a value that lives with each member
    announced: bool = False  # `announce v = EXPR`: an intended disclosure (docs §4.14.3)


@node
class Let(Stmt):
    name: str
    value: Expr


@node
class Put(Stmt):
    cards: Expr
    under: bool
    zone: ZoneRef
    at: Expr | None


@node
class PutEach(Stmt):
    """``put each hand[p] into hand[next(p)] for p in players``: every source zone's cards go
    onto its target, all taken before any is placed."""

    source: ZoneRef
    target: ZoneRef
    var: str
    domain: Expr


@node
class Deal(Stmt):
    count: Expr
    source: ZoneRef
    target: ZoneRef


@node
class Shuffle(Stmt):
    zone: ZoneRef


@node
class Gather(Stmt):
    zone: ZoneRef


@node
class If(Stmt):
    branches: tuple  # ((cond, body), ...)
    otherwise: tuple | None


@node
class Match(If):
    """``match x { A: {...} B, C: {...} else: {...} }``: read as the if-chain ``if x == A {...} else if
    x == B or x == C {...} else {...}`` (``branches``), with the arms kept so the checker can find the
    enum's values each names and the ones none names."""

    subject: Expr = field(default=None, kw_only=True)
    arms: tuple = field(default=(), kw_only=True)  # (the value Names of an arm, ...), one per branch


@node
class For(Stmt):
    var: str
    domain: Expr
    start: Expr | None
    body: tuple
    where: Expr | None = None


@node
class Break(Stmt):
    """``break`` leaves the innermost loop; ``continue`` (``again``) goes on with its next round."""

    again: bool = False


@node
class Leave(Stmt):
    """``leave p``: the player leaves the game (``rejoin p``: comes back, as after sitting out a hand)."""

    player: Expr
    back: bool = False


@node
class Reverse(Stmt):
    """``reverse pile``: the zone's cards in the opposite order (the top card becomes the bottom one)."""

    zone: ZoneRef


@node
class Return(Stmt):
    """`return EXPR`: the result of the procedure it stands in."""

    value: Expr


@node
class Swap(Stmt):
    """`swap a with b`: the cards of two zones change places (a track's slot by slot)."""

    first: ZoneRef
    second: ZoneRef


@node
class NextTurn(Stmt):
    """``next turn p``, inside `turns`: p moves after this turn, not the next player in seat order."""

    player: Expr


@node
class FinalRound(Stmt):
    """``final round``, inside `turns`: every player still in takes one more turn, then the turns end."""


@node
class Repeat(Stmt):
    count: Expr
    body: tuple


@node
class While(Stmt):
    cond: Expr
    body: tuple


@node
class Turns(Stmt):
    start: Expr
    until: Expr
    body: tuple


@node
class OptionParam(Node):
    name: str
    domain: Expr
    label: Expr | None = None  # `as NAME` (a Name) or `as "{n} tricks"` (a StrLit): how a number is shown


@node
class Option(Node):
    name: str
    params: tuple
    where: Expr | None
    body: tuple
    bound: Optional[Node] = None  # `at most N per ... per turn`: a MoveBound the builder could not write out


@node
class MoveBound(Node):
    """``at most N per k ... per PERIOD`` on a move (docs §4.12.9): written out by :mod:`.bounds`.

    A bound left on an Option after building is one the checker reports: ``problem`` says why
    (code, message, hint), or None for a bound in a place it cannot be (`extend choose`)."""
    count: Expr
    keys: tuple  # names of the move's parameters counted apart
    period: str  # "turn" or "window", as written
    problem: Optional[tuple] = None


@node
class Choose(Stmt):
    name: str
    actor: Expr
    options: tuple
    each: str | None = None  # `choose NAME by each p in DOMAIN`: the players choose together, in secret
    domain: Expr | None = None
    no_move_end: Node | None = None  # `when no move: end game`: the game ends when no move is legal


@node
class NoMoveEnd(Node):
    """``when no move: end game`` in a decision: ends the game instead of asking a player who cannot move."""


@node
class Reveal(Stmt):
    what: Expr  # a zone, zones joined by `+`, a card or a list of cards
    to: Expr
    body: tuple


@node
class Show(Stmt):
    what: Expr  # as in Reveal
    to: Expr | None  # None: every player


@node
class Tell(Stmt):
    attr: str  # the attribute the players learn
    what: Expr  # as in Reveal
    to: Expr | None  # None: every player


@node
class AtOnce(Stmt):
    """Effects that happen together: triggers are checked after the whole block, not inside it.
    ``setup { ... }`` is the same, and may ask players to decide."""

    body: tuple
    setup: bool = False


@node
class New(Stmt):
    """``new meld[p] as i``: open a member of a growing zone family and bind its number."""

    zone: ZoneRef
    var: str


@node
class Remove(Stmt):
    """``remove meld[p, i]``: close an empty member; its number may be opened again."""

    zone: ZoneRef


@node
class EndGame(Stmt):
    pass


@node
class CallStmt(Stmt):
    name: str
    args: tuple


# ---- declarations ----------------------------------------------------------


@node
class Decl(Node):
    pass


@node
class GameName(Decl):
    name: str


@node
class PlayersRange(Decl):
    low: int
    high: int


@node
class Include(Decl):
    path: str


@node
class Extends(Decl):
    path: str


@node
class Limit(Decl):
    moves: int
    name: str = "limit"


@node
class Param(Decl):
    name: str
    value: Expr
    doc: str | None
    low: Expr | None = None  # `in LOW..HIGH`: the values the parameter accepts
    high: Expr | None = None


@node
class EnumValue(Node):
    name: str
    label: str | None


@node
class EnumDef(Decl):
    name: str
    values: tuple


@node
class TypeRef(Node):
    name: str | None  # an enum name or int/bool/...; None for a range
    low: int = 0
    high: int = 0


@node
class Attribute(Node):
    name: str
    type: TypeRef
    labels: tuple  # ((int, str), ...)
    derived: Expr | None


@node
class KindDef(Decl):
    name: str
    attributes: tuple
    show: str | None
    show_spans: tuple = ()  # where each `show` line of the kind is


@node
class DeckExpr(Node):
    pass


@node
class DeckSum(DeckExpr):
    left: DeckExpr
    right: DeckExpr


@node
class DeckCopies(DeckExpr):
    copies: int
    term: DeckExpr
    count: Expr | None = None  # copies worked out at setup (a parameter, `player_count`): `copies` is 1 then


@node
class Field(Node):
    name: str
    value: Expr | None  # None means "each"


@node
class DeckCard(DeckExpr):
    kind: str
    fields: tuple


@node
class DeckRef(DeckExpr):
    name: str


@node
class DeckDef(Decl):
    name: str
    deck: DeckExpr


@node
class CardsDef(Decl):
    deck: DeckExpr
    zone: ZoneRef


@node
class IndexDomain(Node):
    name: str | None  # an enum name or "player"; None for a range or `*`
    low: Expr | None = None  # a range's ends: constant expressions
    high: Expr | None = None
    grows: bool = False  # `*`: members are opened in play


@node
class ZoneOption(Node):
    name: str
    arg: Expr | None


@node
class ZoneDef(Decl):
    name: str
    index: tuple
    options: tuple
    members: tuple = ()  # ZoneDef / VarDef that live with each member of the family


@node
class ConnectDef(Decl):
    first: ZoneRef
    first_slot: Expr
    second: ZoneRef
    second_slot: Expr


@node
class VarDef(Decl):
    name: str
    index: tuple
    type: str
    init: Expr | None
    visibility: str | None = None  # public (None), owner or hidden
    shown: bool = True  # False: `unshown`, bookkeeping the table (play, view) leaves out


@node
class TableEntry(Node):
    low: Expr | None  # the key, or the first key of `LOW..HIGH`; None for `else`
    high: Expr | None  # the last key of a range, else None
    value: Expr


@node
class TableDef(Decl):
    name: str
    index: IndexDomain
    entries: tuple


@node
class DefineDef(Decl):
    name: str
    params: tuple
    body: Expr


@node
class ProcedureDef(Decl):
    name: str
    params: tuple
    body: tuple


@node
class FlowDef(Decl):
    body: tuple
    name: str = "flow"


@node
class TriggerDef(Decl):
    name: str
    var: str | None
    domain: Expr | None
    cond: Expr
    body: tuple


@node
class InvariantDef(Decl):
    name: str
    var: str | None
    domain: Expr | None
    cond: Expr
    message: str | None


@node
class OrderKey(Node):
    highest: bool
    expr: Expr


@node
class WinnerDef(Decl):
    var: str
    keys: tuple
    name: str = "winner"
    when: object = None  # Expr or None: without it the game has no winners
    everyone: bool = False  # `winner: all when C`: a cooperative game (no keys)


@node
class StatisticDef(Decl):
    """`statistic NAME = EXPR`: a number or true/false worked out when a game ends, for the reports."""
    name: str
    expr: Expr


@node
class Replace(Decl):
    item: Decl


@node
class ExtendChoice(Decl):
    name: str
    options: tuple


@node
class RulesFile(Node):
    path: str
    text: str
    items: tuple


@node
class PerTurn(Decl):
    """Statements run as each turn of every `turns` begins: the counts of moves bounded per turn start
    again. Made by the builder, spliced into the `turns` bodies by :func:`.bounds.splice_turns`."""
    body: tuple
