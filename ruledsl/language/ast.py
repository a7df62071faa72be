"""The syntax tree of a rules file: frozen attrs nodes, each with its source span.

Nodes compare by identity (``eq=False``) so later passes can keep side tables
keyed by node. The tree is built by :mod:`ruledsl.parse`.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .errors import NOWHERE, Span


def node(cls):
    return attrs.frozen(eq=False)(cls)


@node
class Node:
    span: Span = attrs.field(default=NOWHERE, kw_only=True)


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
    """``count(each c in hand[p] where c.rank > 5)``: any, all, count, cards, random, first, sorted.

    ``start`` (``from e``) starts a walk round the players at ``e``; ``key`` (``by k``) is the
    order of ``sorted``, lowest first unless ``highest``."""

    func: str
    var: str
    domain: Expr
    where: Optional[Expr]
    start: Optional[Expr] = None
    key: Optional[Expr] = None
    highest: bool = False


@node
class Fold(Expr):
    """``sum(c.rank for each c in line[red] where ...)``: sum, min, max, list (a key of numbers)."""

    func: str
    expr: Expr
    var: str
    domain: Expr
    where: Optional[Expr]
    default: Optional[Expr] = None  # `max(... , default: 0)`: the value of min/max over nothing


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
    start: Optional[Expr]
    where: Optional[Expr]
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
    member: Optional[str] = None  # `meld[p, i].pot`: a zone that lives with each member


@node
class Assign(Stmt):
    name: str
    indices: tuple
    op: str
    value: Expr
    member: Optional[str] = None  # `meld[p, i].rank = 3`: a value that lives with each member
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
    at: Optional[Expr]


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
    otherwise: Optional[tuple]


@node
class Match(If):
    """``match x { A: {...} B, C: {...} else: {...} }``: read as the if-chain ``if x == A {...} else if
    x == B or x == C {...} else {...}`` (``branches``), with the arms kept so the checker can find the
    enum's values each names and the ones none names."""

    subject: Expr = attrs.field(default=None, kw_only=True)
    arms: tuple = attrs.field(default=(), kw_only=True)  # (the value Names of an arm, ...), one per branch


@node
class For(Stmt):
    var: str
    domain: Expr
    start: Optional[Expr]
    body: tuple
    where: Optional[Expr] = None


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

    zone: "ZoneRef"


@node
class Return(Stmt):
    """`return EXPR`: the result of the procedure it stands in."""

    value: Expr


@node
class Swap(Stmt):
    """`swap a with b`: the cards of two zones change places (a track's slot by slot)."""

    first: "ZoneRef"
    second: "ZoneRef"


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
    label: Optional[Expr] = None  # `as NAME` (a Name) or `as "{n} tricks"` (a StrLit): how a number is shown


@node
class Option(Node):
    name: str
    params: tuple
    where: Optional[Expr]
    body: tuple
    bound: Optional[Node] = None  # `at most N per ... per turn`: a MoveBound the builder could not write out


@node
class MoveBound(Node):
    """``at most N per k ... per PERIOD`` on a move (docs §4.12.7): written out by :mod:`.bounds`.

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
    each: Optional[str] = None  # `choose NAME by each p in DOMAIN`: the players choose together, in secret
    domain: Optional[Expr] = None
    no_move_end: Optional[Node] = None  # `when no move: end game`: the game ends when no move is legal


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
    to: Optional[Expr]  # None: every player


@node
class Tell(Stmt):
    attr: str  # the attribute the players learn
    what: Expr  # as in Reveal
    to: Optional[Expr]  # None: every player


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
    doc: Optional[str]
    low: Optional[Expr] = None  # `in LOW..HIGH`: the values the parameter accepts
    high: Optional[Expr] = None


@node
class EnumValue(Node):
    name: str
    label: Optional[str]


@node
class EnumDef(Decl):
    name: str
    values: tuple


@node
class TypeRef(Node):
    name: Optional[str]  # an enum name or int/bool/...; None for a range
    low: int = 0
    high: int = 0


@node
class Attribute(Node):
    name: str
    type: TypeRef
    labels: tuple  # ((int, str), ...)
    derived: Optional[Expr]


@node
class KindDef(Decl):
    name: str
    attributes: tuple
    show: Optional[str]
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
    count: Optional[Expr] = None  # copies worked out at setup (a parameter, `player_count`): `copies` is 1 then


@node
class Field(Node):
    name: str
    value: Optional[Expr]  # None means "each"


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
    name: Optional[str]  # an enum name or "player"; None for a range or `*`
    low: Optional[Expr] = None  # a range's ends: constant expressions
    high: Optional[Expr] = None
    grows: bool = False  # `*`: members are opened in play


@node
class ZoneOption(Node):
    name: str
    arg: Optional[Expr]


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
    init: Optional[Expr]
    visibility: Optional[str] = None  # public (None), owner or hidden
    shown: bool = True  # False: `unshown`, bookkeeping the table (play, view) leaves out


@node
class TableEntry(Node):
    low: Optional[Expr]  # the key, or the first key of `LOW..HIGH`; None for `else`
    high: Optional[Expr]  # the last key of a range, else None
    value: Expr


@node
class TableDef(Decl):
    name: str
    index: "IndexDomain"
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
    var: Optional[str]
    domain: Optional[Expr]
    cond: Expr
    body: tuple


@node
class InvariantDef(Decl):
    name: str
    var: Optional[str]
    domain: Optional[Expr]
    cond: Expr
    message: Optional[str]


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
