"""Mutation operators: single changes of a rules file, found in its syntax tree.

How a mutant is made. The rules text is parsed with the language's own Lark
parser (``ruledsl.parse.parser``); each operator looks for its kind of node
in that concrete tree (a comparison, a ``where``, a ``put ... into``, a
zone's options ...) and writes a replacement text at that node's position
(Lark keeps the start and end offset of every rule and token). Everything
else in the file stays as it was, byte for byte: comments, layout and line
numbers, so a mutant reads as a one-line diff of the lines the designer
wrote, and ``# mutate:`` markers and comment blocks still sit where they
were.

Why not rebuild the text from the attrs AST (``ruledsl.ast``): the language
has no printer, and the AST is partly desugared (a response window, a move
over a set of cards expand to several nodes that share one span), so its
spans cannot always be written back. The concrete tree has every token the
operators need (``into``/``under``, the comparison operator, a zone's
visibility word) with its offset.

A change never removes a line break: a removal leaves the lines it empties
in place (as empty lines), and dropping a condition that spans two lines
leaves the break. So every line after a change keeps its number: messages
about a mutant point at the designer's lines, and the runner can reuse the
syntax tree of every declaration the mutant does not touch
(``ruledsl.mutate.run``).

A mutant whose text equals the original or an earlier mutant is dropped (it
cannot be told apart; :func:`generate` counts them in ``skipped``). Each
replacement is made to be valid syntax (an operand keeps its parentheses, a
removed move or statement leaves a block that may be empty); the runner
parses and checks every mutant anyway, and one that does not parse or check
is counted apart as ``invalid``, never as killed.

Files a rules file includes (a library such as the standard deck) are never
mutated. A variant's base file (``extends "base.rules"``) is, line by line,
but for the declarations the variant replaces (``replace define ...``: they
are not part of the variant's game): the variant's game is its base's rules
plus its own, and its scenarios (which may include the base's,
docs/language.md §10.1) should pin down all of them. Each mutant says which
file it changes (``Mutant.path``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import attrs
import lark

from ..language import ast as A
from ..language.assemble import assemble
from ..language.errors import RulesError
from ..language.parse import parse, parser

# name -> what it does; the names are those of --operator and of `# mutate: equivalent NAME — why`
OPERATORS = {
    "compare": "a comparison flipped or moved by one: >= and >, <= and <, == and !=, in and not in",
    "constant": "a number in an expression moved by one (+1 and -1); true and false swapped",
    "and-or": "`and` made `or` and `or` made `and`",
    "operand": "one operand of an `and` or an `or` dropped",
    "not": "a `not` removed",
    "where": "the `where` condition of a loop, a move, a window or an aggregate dropped",
    "shuffle": "a `shuffle` removed",
    "visibility": "a zone's visibility changed (hidden, owner, others, public, top)",
    "top-bottom": "`put ... into` made `put ... under` and the other way (top and bottom of a zone)",
    "remove-move": "a move removed from a decision",
    "bound": "a move's bound (`once per s per turn`, `at most 2 per turn`) or a window's `until claimed` dropped",
    "remove-trigger": "a trigger removed",
    "param": "a parameter's default moved by one (or true and false swapped)",
    "players": "the `players` range widened by one at either end",
    "swap": "two adjacent statements of a block swapped",
    "zone": "the zone an effect puts cards into swapped for another zone of the same shape and index",
}

# The words of ruledsl.declare (VISIBILITIES, ZONE_SHAPES), written out so that this package reads
# only the parser's and the assembler's output; tests/test_mutate.py checks that they agree.
VISIBILITY_WORDS = ("hidden", "owner", "others", "public", "top")
PER_PLAYER_ONLY = ("owner", "others")  # a zone needs an index `player` to use these
SHAPES = ("pile", "row", "track")
ZONE_SWAPS_PER_SITE = 2  # another zone of the same type: at most this many per effect, the next in order
# the rules with an optional `where`, and the position of the condition among their children
WHERE_RULES = {"for_stmt": 3, "aggregate": 4, "best": 3, "fold": 4, "respond_stmt": 4, "option": 2}


@attrs.frozen
class Mutant:
    """One change: the text from ``start`` to ``end`` becomes ``replacement``."""

    operator: str
    start: int
    end: int
    replacement: str
    description: str
    at: int  # the offset the report points at (the operator, the keyword, the statement)
    path: str = ""  # the file it changes: the named rules file or a base file ("" until generate says)
    key: str = ""  # what tells it from the other mutants of its operator on its line: the new token, what is dropped


    def apply(self, text: str) -> str:
        return text[:self.start] + self.replacement + text[self.end:]


@attrs.frozen
class Generated:
    mutants: tuple
    skipped: int  # replacements that gave the text of the original or of another mutant
    texts: dict = attrs.field(factory=dict)  # path -> text of each file mutated: the named one first, its bases
    replaced: int = 0  # mutants of base declarations the variant replaces: not made


def _pos(node) -> tuple[int, int]:
    if isinstance(node, lark.Token):
        return node.start_pos, node.end_pos
    return node.meta.start_pos, node.meta.end_pos


def _is_tree(node, *names) -> bool:
    return isinstance(node, lark.Tree) and (not names or node.data in names)


class _Finder:
    def __init__(self, text: str, zones: dict):
        self.text = text
        self.zones = zones  # zone name -> its type (shape, index), for the zone-swap operator
        self.out: list[Mutant] = []
        self.defaults: set = set()  # ids of a parameter's default (the `param` operator's) and accepted range

    def add(self, operator, start, end, replacement, description, at=None, key=None):
        missing = self.text.count("\n", start, end) - replacement.count("\n")
        if missing > 0:  # every line keeps its number: the lines a change joins stay, as line breaks
            replacement += "\n" * missing
        key = " ".join((replacement if key is None else key).split())
        self.out.append(Mutant(operator, start, end, replacement, description, start if at is None else at, key=key))

    def src(self, node) -> str:
        s, e = _pos(node)
        return self.text[s:e]

    def whole_lines(self, start: int, end: int) -> tuple[int, int]:
        """Widen a removal to whole lines when the text removed stands alone on its lines."""
        line_start = self.text.rfind("\n", 0, start) + 1
        line_end = self.text.find("\n", end)
        line_end = len(self.text) if line_end < 0 else line_end
        if self.text[line_start:start].strip() == "" and self.text[end:line_end].strip() == "":
            return line_start, min(line_end + 1, len(self.text))
        return start, end

    def remove(self, operator, node, description, key=None):
        """Remove a node; the lines it stood on stay, empty (see ``add``)."""
        s, e = _pos(node)
        ws, we = self.whole_lines(s, e)
        self.add(operator, ws, we, "", description, at=s, key=self.src(node) if key is None else key)

    # ---- the walk

    def run(self, tree) -> list[Mutant]:
        for node in tree.find_data("param"):
            value = node.children[1]
            self.defaults.update({id(value), *(id(c) for c in value.children if _is_tree(c))})
            if node.children[2] is not None:  # the values a parameter accepts: not a rule of play
                self.defaults.update(id(t) for t in node.children[2].iter_subtrees())
        for item in tree.children:
            self.top_level(item)
        for node in tree.iter_subtrees_topdown():
            handler = getattr(self, f"on_{node.data}", None)
            if handler is not None:
                handler(node)
            if node.data in WHERE_RULES:
                self.where(node, WHERE_RULES[node.data])
        return self.out

    def top_level(self, item) -> None:
        inner = item.children[0] if _is_tree(item, "replace") else item
        if _is_tree(inner, "trigger_def"):
            self.remove("remove-trigger", item, f"removed trigger `{inner.children[0]}`", key=str(inner.children[0]))

    # expressions

    def on_compare(self, node) -> None:
        op = node.children[1]
        flips = {">=": ">", ">": ">=", "<=": "<", "<": "<=", "==": "!=", "!=": "=="}
        self.add("compare", op.start_pos, op.end_pos, flips[str(op)], f"`{op}` → `{flips[str(op)]}`")

    def _between(self, node):
        left, right = node.children
        return _pos(left)[1], _pos(right)[0]

    def on_member(self, node) -> None:
        s, e = self._between(node)
        word = self.text[s:e]
        if word.strip() == "in":
            i = s + word.index("in")
            self.add("compare", i, i + 2, "not in", "`in` → `not in`")

    def on_not_member(self, node) -> None:
        s, e = self._between(node)
        word = self.text[s:e]
        if " ".join(word.split()) == "not in":
            i = s + word.index("not")
            j = s + word.rindex("in") + 2
            self.add("compare", i, j, "in", "`not in` → `in`")

    def _logic(self, node, word: str, other: str) -> None:
        s, e = self._between(node)
        gap = self.text[s:e]
        if gap.strip() != word:
            return  # a comment between the operands: leave it alone
        i = s + gap.index(word)
        self.add("and-or", i, i + len(word), other, f"`{word}` → `{other}`")
        left, right = node.children
        start, end = _pos(node)
        self.add("operand", start, end, self.src(right), f"dropped `{_short(self.src(left))} {word}`", at=start,
                 key=f"{self.src(left)} {word}")
        self.add("operand", start, end, self.src(left), f"dropped `{word} {_short(self.src(right))}`", at=i,
                 key=f"{word} {self.src(right)}")

    def on_or_op(self, node) -> None:
        self._logic(node, "or", "and")

    def on_and_op(self, node) -> None:
        self._logic(node, "and", "or")

    def on_not_op(self, node) -> None:
        start, _ = _pos(node)
        operand_start = _pos(node.children[0])[0]
        self.add("not", start, operand_start, "", f"removed `not` before `{_short(self.src(node.children[0]))}`",
                 key="not " + self.src(node.children[0]))

    def on_int_lit(self, node) -> None:
        if id(node) in self.defaults:
            return
        tok = node.children[0]
        n = int(tok)
        self.add("constant", tok.start_pos, tok.end_pos, str(n + 1), f"{n} → {n + 1}")
        self.add("constant", tok.start_pos, tok.end_pos, str(n - 1), f"{n} → {n - 1}")

    def _bool(self, node, value: bool) -> None:
        if id(node) in self.defaults:
            return
        s, e = _pos(node)
        self.add("constant", s, e, "false" if value else "true", f"{str(value).lower()} → {str(not value).lower()}")

    def on_true_lit(self, node) -> None:
        self._bool(node, True)

    def on_false_lit(self, node) -> None:
        self._bool(node, False)

    def where(self, node, index: int) -> None:
        cond = node.children[index]
        if cond is None:
            return
        start, end = _pos(cond)
        before = self.text[:start].rstrip()
        if not before.endswith("where"):
            return
        kw = len(before) - len("where")
        cut = len(self.text[:kw].rstrip())
        self.add("where", cut, end, "", f"dropped `where {_short(self.src(cond))}`", at=kw,
                 key="where " + self.src(cond))

    # statements

    def on_shuffle(self, node) -> None:
        self.remove("shuffle", node, f"removed `{self.src(node)}`")

    def on_put(self, node) -> None:
        place = node.children[1].children[0]
        other = "under" if str(place) == "into" else "into"
        self.add("top-bottom", place.start_pos, place.end_pos, other, f"`{place}` → `{other}`")
        self.zone_swap(node.children[2])

    def on_deal(self, node) -> None:
        self.zone_swap(node.children[2])

    def on_gather(self, node) -> None:
        self.zone_swap(node.children[0])

    def on_put_each(self, node) -> None:
        self.zone_swap(node.children[2])

    def zone_swap(self, ref) -> None:
        name = ref.children[0]
        if ref.children[-1] is not None and isinstance(ref.children[-1], lark.Token):
            return  # a zone that lives with a member of a family (`meld[p, i].pot`)
        kind = self.zones.get(str(name))
        if kind is None:
            return
        names = list(self.zones)
        i = names.index(str(name))
        others = [n for n in names[i + 1:] + names[:i] if self.zones[n] == kind]
        for other in others[:ZONE_SWAPS_PER_SITE]:
            self.add("zone", name.start_pos, name.end_pos, other, f"into `{name}` → into `{other}`")

    def on_block(self, node) -> None:
        stmts = [c for c in node.children if c is not None]
        for a, b in itertools.pairwise(stmts):
            sa, ea = _pos(a)
            sb, eb = _pos(b)
            between = self.text[ea:sb]
            self.add("swap", sa, eb, self.src(b) + between + self.src(a),
                     f"swapped `{_short(self.src(a))}` and `{_short(self.src(b))}`", key=self.src(b))

    def _options(self, node) -> None:
        for c in node.children:
            if _is_tree(c, "option"):
                self.remove("remove-move", c, f"removed move `{c.children[0]}`", key=str(c.children[0]))

    on_choose_stmt = on_choose_each = on_respond_stmt = on_extend_choice = _options

    def on_move_bound(self, node) -> None:
        """The bound dropped: the move may be made as often as its condition allows."""
        self._drop("bound", node, f"dropped the bound `{_short(self.src(node))}`")

    on_move_once = on_move_bound

    def on_claimed(self, node) -> None:
        """`until claimed` dropped: the window goes round until all pass in a row."""
        self._drop("bound", node, "dropped `until claimed`: the window goes on after a claim")

    def _drop(self, operator: str, node, description: str) -> None:
        start, end = _pos(node)
        cut = len(self.text[:start].rstrip())
        self.add(operator, cut, end, "", description, at=start, key=self.src(node))

    # declarations

    def on_zone_def(self, node) -> None:
        per_player = _indexed_by_player(node)
        for opt in node.children:
            if not _is_tree(opt, "zone_option"):
                continue
            word = opt.children[0]
            if str(word) not in VISIBILITY_WORDS:
                continue
            for other in VISIBILITY_WORDS:
                if other == str(word) or (other in PER_PLAYER_ONLY and not per_player):
                    continue
                self.add("visibility", word.start_pos, word.end_pos, other,
                         f"zone `{node.children[0]}`: `{word}` → `{other}`")

    def on_param(self, node) -> None:
        value = node.children[1]
        name = node.children[0]
        if _is_tree(value, "int_lit"):
            n = int(value.children[0])
            s, e = _pos(value)
            for m in (n + 1, n - 1):
                self.add("param", s, e, str(m), f"param `{name}` = {n} → {m}")
        elif _is_tree(value, "neg") and _is_tree(value.children[0], "int_lit"):
            n = -int(value.children[0].children[0])
            s, e = _pos(value)
            for m in (n + 1, n - 1):
                self.add("param", s, e, str(m), f"param `{name}` = {n} → {m}")
        elif _is_tree(value, "true_lit", "false_lit"):
            now = value.data == "true_lit"
            s, e = _pos(value)
            self.add("param", s, e, "false" if now else "true",
                     f"param `{name}` = {str(now).lower()} → {str(not now).lower()}")

    def on_players_range(self, node) -> None:
        low, high = node.children
        if int(low) > 1:
            self.add("players", low.start_pos, low.end_pos, str(int(low) - 1),
                     f"players {low}..{high} → {int(low) - 1}..{high}", key=f"{int(low) - 1}..{high}")
        self.add("players", high.start_pos, high.end_pos, str(int(high) + 1),
                 f"players {low}..{high} → {low}..{int(high) + 1}", key=f"{low}..{int(high) + 1}")


def _indexed_by_player(zone_def) -> bool:
    spec = zone_def.children[1]
    if not _is_tree(spec, "index_spec") or not spec.children:
        return False
    first = spec.children[0]
    return (_is_tree(first, "index_named") and _is_tree(first.children[0], "name")
            and str(first.children[0].children[0]) == "player")


def _short(text: str, width: int = 40) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[:width - 1] + "…"


# ---- zone types, from the assembled file (its own zones, its library's and its base's)


def _bound(expr) -> object:
    if isinstance(expr, A.IntLit):
        return expr.value
    if isinstance(expr, A.Name):
        return expr.name
    return "?"


def zone_types(text: str, path: str) -> dict:
    """Zone name -> (shape, index): zones of one type may be swapped for one another."""
    try:
        items = assemble(text, path).items
    except RulesError:
        return {}
    out = {}
    for item in items:
        if not isinstance(item, A.ZoneDef):
            continue
        shape = next(((o.name, _bound(o.arg) if o.arg is not None else None)
                      for o in item.options if o.name in SHAPES), None)
        index = tuple("*" if d.grows else d.name if d.name else ("range", _bound(d.low), _bound(d.high))
                      for d in item.index)
        out[item.name] = (shape, index)
    return out


# ---- all mutants of a file


def _invariant_spans(tree) -> list[tuple[int, int]]:
    return [_pos(node) for node in tree.find_data("invariant_def")]


def bases(text: str, path: str) -> list[tuple[str, str]]:
    """The (path, text) of the file a variant extends, and of the file that one extends ...

    The paths are those the assembler gives the files (its messages and spans use them). A base
    found elsewhere than beside the variant (a shared folder) is not listed: it is not mutated."""
    try:
        texts = assemble(text, path).texts
    except RulesError:
        return []
    by_real = {Path(k).resolve(): k for k in texts}
    out, here, src = [], path, text
    while True:
        ext = next((i for i in parse(src, here).items if isinstance(i, A.Extends)), None)
        found = by_real.get((Path(here).parent / ext.path).resolve()) if ext is not None else None
        if found is None or any(found == p for p, _ in out):
            return out
        out.append((found, texts[found]))
        here, src = found, texts[found]


def _replaced_lines(texts: list[tuple[str, str]]) -> dict:
    """path -> the line ranges of a base's declarations that a later file of the chain replaces."""
    out: dict = {}
    later: set = set()
    for p, t in texts:  # the variant first, then its base, its base's base
        items = parse(t, p).items
        out[p] = [(i.span.line, i.span.end_line) for i in items
                  if not isinstance(i, A.Replace) and (type(i), getattr(i, "name", None)) in later]
        later |= {(type(i.item), getattr(i.item, "name", None)) for i in items if isinstance(i, A.Replace)}
    return out


def generate(text: str, path: str, operators=None, invariants: bool = False, with_bases: bool = True) -> Generated:
    """The mutants of ``text`` (the rules file at ``path``), in the order of the file.

    ``operators``: the operator names to use (default: all). ``invariants``: mutate the
    ``invariant`` declarations too; only ``verify`` checks them (scenarios do not), so
    without it their mutants could only survive. ``with_bases``: mutate the base files of a
    variant too (see the module's docstring). Raises RulesError when the text does not parse."""
    parse(text, path)  # a broken file: the positioned syntax error
    zones = zone_types(text, path)
    files = [(path, text)] + (bases(text, path) if with_bases else [])
    dead = _replaced_lines(files)
    chosen = set(operators or OPERATORS)
    out = []
    skipped = replaced = 0
    for here, src in files:
        tree = parser().parse(src)
        found = _Finder(src, zones).run(tree)
        outside = [] if invariants else _invariant_spans(tree)
        seen = {src}
        for m in sorted(found, key=lambda m: (m.at, m.start, list(OPERATORS).index(m.operator))):
            if m.operator not in chosen or any(s <= m.at < e for s, e in outside):
                continue
            line = src.count("\n", 0, m.at) + 1
            if any(a <= line <= b for a, b in dead[here]):
                replaced += 1
                continue
            mutated = m.apply(src)
            if mutated in seen:
                skipped += 1
                continue
            seen.add(mutated)
            out.append(attrs.evolve(m, path=here))
    return Generated(tuple(out), skipped, dict(files), replaced)
