"""What the compiler gives the engine: the Program and its parts (plain data, no syntax tree).

A :class:`Program` holds the card universe and the table's layout (numbered
zones, places and variable slots), the flow as a flat list of steps with jumps,
the decisions (:class:`Choice`, each with its :class:`Option` moves), the
triggers, the invariants, and the closures that compute scores and winners.
The engine (:mod:`ruledsl.engine`) runs it; nothing in it points back at the
syntax tree but spans, for messages. The small closures at the end (a local,
a constant) are the leaves every compiled expression is built from.
"""

from __future__ import annotations

import attrs

from ..language.errors import RulesRuntimeError, Span

MAX_TRIGGER_FIRINGS = 1000


@attrs.define(eq=False)
class Option:
    name: str
    params: list  # [(slot, domain fn)]
    where: object  # fn or None
    body: int  # pc
    kinds: list = attrs.Factory(list)  # the type of each parameter, for printing moves
    span: Span = Span()  # where the move is written, for coverage reports
    key: str | None = None  # a condition of one card and a few values only: their key, as Python (purity.py) ...
    card_slot: int | None = None  # ... the card: this local's, or the move's parameter's if None
    labels: list = attrs.Factory(list)  # per parameter: None, {number: label} or (template, name) (`as`)
    # the condition as the generated listing asks it, an `any` in it answered by the options listed
    # before (listed.py): source text only (it reads the listing's `_lsI_J`), and those options' runs
    # (I, J) of indices
    listed_where: object = None
    listed_from: tuple = ()


@attrs.define(eq=False)
class Choice:
    name: str
    actor: object
    options: list
    span: Span
    secret: bool = False  # one of the hidden commitments of `choose NAME by each p in DOMAIN`
    together: object = None  # for a secret choice: fn(L) -> (the choosers, how many have chosen)
    rewind: object = None  # for a secret choice: fn(state) forgets the choices made, back to the first chooser
    no_move_end: bool = False  # `when no move: end game`: no legal move ends the game instead of asking


@attrs.define(eq=False)
class Trigger:
    name: str
    slot: int | None
    domain: object
    cond: object
    body: int
    span: Span


@attrs.define(eq=False)
class Invariant:
    name: str
    message: str | None
    slot: int | None
    domain: object
    cond: object
    span: Span


@attrs.define(eq=False)
class Program:
    """A compiled rules file: everything the engine needs, and nothing it must re-derive."""

    name: str
    min_players: int
    max_players: int
    limit: int
    params: dict
    card_count: int
    card_kind: list  # card id -> kind name
    card_attrs: dict  # attribute -> list over card ids
    card_labels: list
    initial: list  # [(zid, [card ids])]
    zones: list  # layout.ZoneInstance
    zone_families: dict  # family name -> (base zid, dims sizes)
    place_count: int
    var_count: int
    var_names: list  # slot -> printable name
    var_init: list  # [(slot, fn)]
    var_families: dict
    local_count: int
    code: list  # steps: (kind, a, b, span)
    choices: list
    triggers: list
    invariants: list
    score: object  # fn(state, player) -> int
    winner_keys: list  # [fn(state, player) -> int, highest?]
    source: dict  # file -> text
    enums: dict = attrs.Factory(dict)  # enum name -> value names
    param_defaults: dict = attrs.Factory(dict)  # parameter -> the file's own value (params: the ones in force)
    enum_labels: dict = attrs.Factory(dict)  # enum name -> value labels (the names where none is given)
    trigger_mask: int = 0  # families some trigger reads: only effects touching them are followed by a check
    trigger_masks: tuple = ()  # per trigger, the families it reads: a check after an effect asks those it touched
    card_slots: frozenset = frozenset()  # variable slots that hold a card
    var_exists: dict = attrs.Factory(dict)  # variable slot of a growing family's member -> its open flag's slot
    flag_slots: frozenset = frozenset()  # the open flags themselves (not shown as variables)
    winner_when: object = None  # fn(state, locals) -> bool: the game has winners only when it holds
    kind_has: dict = attrs.Factory(dict)  # attribute -> per card id, whether its kind has it
    member_inits: dict = attrs.Factory(dict)  # growing family -> [(variable base, first-value fn)]
    card_locals: frozenset = frozenset()  # local slots that hold a card (or none)
    card_list_locals: frozenset = frozenset()  # local slots that hold a list of cards (loops' lists too)
    attr_types: dict = attrs.Factory(dict)  # card attribute -> its type (for showing what a player knows)
    var_visibility: dict = attrs.Factory(dict)  # variable name -> owner or hidden (public ones are left out)
    unshown: frozenset = frozenset()  # variables marked `unshown`: in views, but not shown on the table
    compiler: object = attrs.field(default=None, repr=False)  # what built it: evaluate.py compiles defines with it
    namespace: dict = attrs.Factory(dict)  # the names the generated expression code refers to
    heuristic: object = None  # fn(state, player) -> number, from `define heuristic(p)`; None without one
    team: object = None  # fn(state, player) -> the player's partnership, from `define team(p)`; None without one
    cooperative: bool = False  # `winner: all when C`: the players win or lose together
    #: `statistic NAME = EXPR`: (name, fn(state, locals), true/false?, span), in file order
    statistics: tuple = ()
    #: step -> the spans of the procedure calls it was compiled under, outermost first (a procedure's
    #: body is compiled once per call); steps outside procedures are left out. Coverage names them.
    call_sites: dict = attrs.Factory(dict)
    announced: frozenset = frozenset()  # variable slots set by `announce`: told on purpose (verify/disclosure.py)
    step_work: list = attrs.Factory(list)  # step -> the units of work it may do at most (work.py)
    trigger_work: int = 0  # the units of one check of every trigger's condition (work.py)
    flow: object = attrs.field(default=None, init=False)  # flowgen.Flow, made on first use (not copied by evolve)


def _runtime(message: str, span: Span):
    raise RulesRuntimeError(message, span)


def _changed_all(s, L) -> int:
    return -1


_changed_all.changed = -1
_changed_all.stmt = []


def _const(value):
    def const(s, L):
        return value

    const.constant = True
    if value is None or type(value) in (int, bool, str):
        const.src = repr(value)
    return const


def _local(slot: int):
    def local(s, L):
        return L[slot]

    local.src = f"L[{slot}]"
    local.slot = slot
    return local
