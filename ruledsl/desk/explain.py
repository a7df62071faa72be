"""``ruledsl explain``: a rulebook written from the checked Model of a rules file.

The rulebook is generated from what the checker made of the rules (the
:class:`~ruledsl.checker.declare.Model`: zones, variables, parameters,
defines, procedures, triggers, the flow and the winner), not from their text,
so it is always in step with them; the designer's comments above each part
(read as :mod:`ruledsl.desk.symbols` reads them) are printed with it. The
card counts come from the compiled card universe. A variant (a file that
``extends`` another) marks each part it adds or replaces.

:func:`rulebook` gives Markdown; :func:`to_html` a standalone page of it.
"""

from __future__ import annotations

import html
import re
from collections import Counter

from ..checker.check import check
from ..engine.load import loads
from ..language import ast as A
from ..language.assemble import assemble
from ..language.errors import read_source
from .goal import how_to_win, sole_winner, who_starts
from .prose import call_sites, enum_chain, read_anywhere, set_before_read, settings, stopping_moves
from .symbols import _comment
from .walk import descendants
from .wording import HIDDEN_DEFINES, VISIBILITY, Words, words


class _Book:
    def __init__(self, path: str, params: dict | None):
        text = read_source(path)
        self.path = str(path)
        self.assembly = assemble(text.removeprefix("\ufeff"), self.path)
        self.model = check(self.assembly, params)
        self.program = loads(text, self.path, params).program
        self.say = Words(self.model, self.comment)
        self.say.mark = self.mark
        self.texts = self.model.texts
        self.base_names = self._base_names() if self._extends() else set()
        self.lines: list[str] = []
        self.tables = self._tables()
        self.say.tables = {name: enum for enum, cols in self.tables.items() for name in cols}
        self.say.marks = {n: self._marks(n) for n, v in self.model.vars.items() if not v.shown}
        self.say.order = self._called_order()
        self.say.named_moves = self._named_moves()
        self.stops = stopping_moves(self.model)
        self.goal_terms: list = []  # the terms *How to win* explains (set when it is written)

    def _named_moves(self) -> set:
        """The moves the rulebook names outside their decision (where a part is reached, when a mark is set)."""
        m, named = self.model, set()
        for name in m.procedures:
            named |= {site[1] for site in call_sites(m, name) if site[1] is not None}
        for var, v in m.vars.items():
            if not v.shown and read_anywhere(m, var):  # the marks the bookkeeping appendix lists
                named |= {move for _, _, _, move in settings(m, var) if move is not None}
        return named

    def _extends(self) -> bool:
        text = self.texts.get(self.path, "")
        return bool(re.search(r'^\s*extends\s+"', text, re.MULTILINE))

    def _base_names(self) -> set:
        return {getattr(i, "name", None) for i in self.assembly.items if i.span.file != self.path}

    # ---- pieces

    def comment(self, node) -> str:
        span = node.span
        return _comment(self.texts.get(span.file, ""), span.line) if span.line else ""

    def mark(self, node, name: str | None = None) -> str:
        """For a variant: whether this part is the variant's own (new, or in place of the base's)."""
        if not self._extends() or node.span.file != self.path:
            return ""
        replaced = any(r.item is node for r in self.assembly.replaced)
        if replaced or (name is not None and name in self.base_names):
            return " **[changed by this variant]**"
        return " **[new in this variant]**"

    def out(self, line: str = "") -> None:
        self.lines.append(line)

    def note(self, node) -> None:
        c = self.comment(node)
        if c:
            for para in c.split("\n"):
                self.out(f"> {para}")
            self.out()

    def steps(self, items: list, depth: int = 0) -> None:
        for item in items:
            if isinstance(item, tuple):
                head, sub = item
                if head:
                    self.out("  " * depth + f"- {head}")
                    self.steps(sub, depth + 1)
                else:
                    self.steps(sub, depth)
            else:
                self.out("  " * depth + f"- {item}")

    # ---- the book

    def write(self) -> str:
        m = self.model
        game = next((i for i in self.assembly.items if isinstance(i, A.GameName) and i.span.file == self.path),
                    None) or next((i for i in self.assembly.items if isinstance(i, A.GameName)), None)
        self.out(f"# {m.name}: the rules")
        self.out()
        if game is not None:
            self.note(game)
        players = f"{m.min_players}" if m.min_players == m.max_players else f"{m.min_players} to {m.max_players}"
        self.out(f"**Players:** {players}.")
        self.out()
        how_to_win(self)
        self.components()
        self.parameters()
        self.enum_tables()
        who_starts(self)
        self.flow()
        self.procedures()
        self.triggers()
        self.invariants()
        self.terms()
        self.bookkeeping()
        self.limits()
        return "\n".join(self.lines).rstrip() + "\n"

    def components(self) -> None:
        m, p = self.model, self.program
        self.out("## Components")
        self.out()
        if p.card_count:
            self.out(f"**Cards:** {p.card_count} cards.")
            self.out()
            names = {z.zid: z for z in p.zones}
            for zid, ids in p.initial:
                kinds = Counter(p.card_kind[c] for c in ids)
                listed = ", ".join(f"{n} × {words(k)}" for k, n in kinds.items())
                zone = names[zid].name if zid in names else "?"
                self.out(f"- {len(ids)} cards start in the {words(zone)}: {listed}.")
            for decl in m.cards:
                self.note(decl)
            self._card_attributes()
            self.out()
        self.out("**Places for cards** (zones):")
        self.out()
        shown = self._revealed()
        self.out("| zone | one for | kind | who sees the cards | notes |")
        self.out("|---|---|---|---|---|")
        for name, z in m.zones.items():
            per = self._dims(z.dims)
            if "." in name:
                owner, member = name.split(".", 1)
                name, per = f"{owner}'s {member}", f"each {words(owner)}"
            spaces = _by_count(z.sizes) if z.sizes else f"{z.size} spaces"
            kind = {"pile": "a pile (a top card)", "row": "a row", "track": f"a track of {spaces}"}.get(
                z.shape, z.shape)
            seen = VISIBILITY.get(z.visibility, z.visibility)
            if z.visibility in ("owner", "hidden") and shown.get(name):
                seen += f"; shown to a player in {', '.join(f'*{words(p)}*' for p in shown[name])}"
            self.out(f"| {words(name)} | {per} | {kind} | {seen} | "
                     f"{self._cell(self.comment(z.node))}{self.mark(z.node, name)} |")
        self.out()
        for name, t in m.tables.items():
            if t.dims[0][0] in ("range", "enum") and len(t.dims[0]) <= 3:
                keys = (m.enums[t.dims[0][1]].values if t.dims[0][0] == "enum"
                        else [self._key_text(t.dims[0], t, i) for i in range(len(t.values))])
                shown = ", ".join(f"{k}: {self._table_text(t, v)}" for k, v in zip(keys, t.values))
                self.out(f"**Table {words(name)}** ({self._cell(self.comment(t.node)) or 'one value each'}): "
                         f"{shown}.{self.mark(t.node, name)}")
                self.out()
        shown = [(n, v) for n, v in m.vars.items() if not n.startswith("#") and "~" not in n and v.shown]
        if shown:
            self.out("**Counters and marks** (what the players keep track of):")
            self.out()
            self._var_table(shown)

    def _revealed(self) -> dict:
        """The zones a ``reveal`` shows to a player, with the procedures that do it: {zone: [procedure]}."""
        out: dict = {}
        for pname, proc in self.model.procedures.items():
            for n in descendants(proc):
                if isinstance(n, A.Reveal):
                    for part in _zones_of(n.what):
                        if pname not in out.setdefault(part, []):
                            out[part].append(pname)
        return out

    def _var_table(self, rows, marks: bool = False) -> None:
        extra = " when it changes |" if marks else ""
        self.out("| name | one for | kind | starts at | who knows it | notes |" + extra)
        self.out("|---|---|---|---|---|---|" + ("---|" if marks else ""))
        for name, v in rows:
            init = self.say.expr(v.init) if v.init is not None else ("none" if v.type.startswith("enum:") else "-")
            mark = self.say.marks.get(name, "") if marks else None
            if v.type == "player" and init.isdigit():
                init = f"player {init}"
            if v.init is not None and set_before_read(self.model, name):
                init = "- (set before it is needed)"
            per = self._dims(v.dims)
            if "." in name:
                owner, member = name.split(".", 1)
                name, per = f"{owner}'s {member}", f"each {words(owner)}"
            kind = {"int": "a number", "bool": "yes or no", "player": "a player", "card": "a card"}.get(
                v.type, v.type)
            enum = self.model.enums.get(v.type.removeprefix("enum:")) if v.type.startswith("enum:") else None
            if enum is not None:
                kind = f"one of: {', '.join(words(x) for x in enum.values)}"
            who = {"public": "everybody", "owner": "its owner", "hidden": "nobody"}.get(v.visibility, v.visibility)
            self.out(f"| {words(name)} | {per} | {kind} | {init} | {who} | "
                     f"{self._cell(self.comment(v.node))}{self.mark(v.node, name)} |"
                     + (f" {self._cell(mark)} |" if marks else ""))
        self.out()

    def bookkeeping(self) -> None:
        """The ``unshown`` variables: what the rules keep track of for the players, and where."""
        rows = [(n, v) for n, v in self.model.vars.items()
                if not v.shown and "~" not in n and read_anywhere(self.model, n)]
        if not rows:
            return
        self.out("## Appendix: bookkeeping")
        self.out()
        self.out("Marks that one player (or a referee) keeps during play, to apply the rules above; the steps "
                 "that only set them are left out there, and said here.")
        self.out()
        self._var_table(rows, marks=True)

    def _marks(self, var: str) -> str:
        """When a bookkeeping variable is set, in words: "true in *attack*; false at the start of each ..."."""
        said = []
        for part, assign, first, move in settings(self.model, var):
            value = self.say.expr(assign.value)
            where = f"the move **{words(move)}** of {words(part)}" if move else words(part)
            if assign.op != "=":
                text = f"{value} {'added' if assign.op == '+=' else 'taken off'} in {where}"
            elif not isinstance(assign.value, (A.BoolLit, A.IntLit)):
                text = f"set in {where} to {value}"
            else:
                info = self.model.vars.get(var)
                again = info is not None and info.init is not None and self.say.expr(info.init) == value
                text = f"{'back to' if again else 'becomes'} {value} " + (
                    f"at the start of each {where}" if first and part.startswith("*") and not move else f"in {where}")
            if text not in said:
                said.append(text)
        return "; ".join(said)

    def _table_text(self, t, value) -> str:
        if t.type.startswith("enum:") and isinstance(value, int):
            return self.model.enums[t.type[5:]].values[value]
        return ("yes" if value else "no") if isinstance(value, bool) else "none" if value is None else str(value)

    def _key_text(self, dim, t, pos) -> str:
        number = dim[1] + pos
        return next((k for k, v in t.labels.items() if v == number), str(number))

    def _card_attributes(self) -> None:
        for name, kind in self.model.kinds.items():
            if kind.index is None or not kind.attributes:
                continue
            parts = []
            for a in kind.attributes.values():
                enum = self.model.enums.get(a.type.removeprefix("enum:"))
                if enum is not None:
                    parts.append(f"{words(a.name)} ({', '.join(words(v) for v in enum.values)})")
                elif a.labels:
                    labels = ", ".join(f"{k} {v}" for k, v in list(a.labels.items())[:14])
                    parts.append(f"{words(a.name)} ({a.low} to {a.high}; {labels})")
                elif a.derived is not None:
                    parts.append(f"{words(a.name)} (= {self.say.expr(a.derived)})")
                else:
                    parts.append(f"{words(a.name)} ({a.low} to {a.high})")
            noun = words(name) if name.endswith("card") else f"{words(name)} card"
            self.out(f"- a {noun} has: {'; '.join(parts)}.")

    def _dims(self, dims) -> str:
        if not dims:
            return "the table"
        if len(dims) == 2 and all(d[0] == "player" for d in dims):
            return "each pair of players"
        parts = []
        for d in dims:
            if d[0] == "player":
                parts.append("each player")
            elif d[0] == "enum":
                parts.append(f"each {words(d[1])}")
            elif d[0] == "grow":
                most = d[2] if len(d) > 2 and d[2] else None
                parts.append("as many as are laid" + (f" (at most {most})" if most else ""))
            else:
                parts.append(f"each number {d[1]} to {d[2]}")
        return ", and ".join(parts)

    @staticmethod
    def _cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    def parameters(self) -> None:
        ps = self.model.params
        if not ps:
            return
        self.out("## Parameters")
        self.out()
        self.out("The players may agree on other values before a game; the rules use these unless they do.")
        self.out()
        self.out("| parameter | default | values | what it is | notes |")
        self.out("|---|---|---|---|---|")
        for name, p in ps.items():
            value = p.value
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            node = p.node
            accepted = (f"{self.say.expr(node.low)} to {self.say.expr(node.high)}"
                        if getattr(node, "low", None) is not None else "not limited")
            self.out(f"| `{name}` | {shown} | {accepted} | {self._cell(p.doc or '')} | "
                     f"{self._cell(self.comment(node))}{self.mark(node, name)} |")
        self.out()

    def appendix_terms(self, noted: dict) -> set:
        """The terms said in more than one part, and the terms their formulas in words read: each is explained
        once, in the terms appendix, and only named where it is used (a term of one part is explained there)."""
        m, say = self.model, self.say
        out = {n for n, parts in noted.items() if len(parts) > 1}
        todo = list(out)
        while todo:
            d = m.defines[todo.pop()]
            if self.comment(d):
                continue  # the designer's words: the formula, and what it reads, stay in the rules file
            for n in descendants(d.body):
                name = n.name if isinstance(n, (A.Name, A.Call)) else None
                if (name in m.defines and name not in out and name not in HIDDEN_DEFINES
                        and name not in say.tables and not isinstance(m.defines[name].body, (A.IntLit, A.StrLit, A.BoolLit))):
                    out.add(name)  # a term written out is left out below, but what it reads is read by the formula
                    todo.append(name)
        return {n for n in out if not say.inline(n)}

    def terms(self) -> None:
        back = set(self.goal_terms) & self.say.named_later
        ds = [(n, d) for n, d in self.model.defines.items() if n in self.say.appendix or n in back]
        if not ds:
            return
        self.out("## Appendix: terms used in these rules")
        self.out()
        self.out("The terms in italics that several parts of the rules use; a term used in one part only is "
                 "explained there.")
        self.out()
        for name, d in ds:
            params = f" ({', '.join(d.params)})" if d.params else ""
            c = self.comment(d)
            if name in self.goal_terms:
                body = "see *How to win* (above)."
            elif c:
                body = c.replace(chr(10), " ") + ("" if c.rstrip().endswith((".", "!", "?", '"', ")")) else ".")
            else:
                body = self.say.expr(d.body) + "."
            self.out(f"- *{words(name)}*{params}: {body}{self.mark(d, name)}")
        self.out()

    def _used(self) -> set:
        """The defines the rules read (the heuristic, advice for bots only, does not count)."""
        m = self.model
        scored = sole_winner(self) is None  # a score only the winner can top is not printed
        roots = [m.flow, m.winner if scored else getattr(m.winner, "when", None), *m.procedures.values(), *m.triggers, *m.invariants,
                 *(d for n, d in m.defines.items() if n == "score" and scored), *self.assembly.extensions]
        seen: set = set()
        todo = [r for r in roots if r is not None]
        while todo:
            node = todo.pop()
            for n in descendants(node):
                name = n.name if isinstance(n, (A.Name, A.Call)) else None
                if name in m.defines and name not in seen:
                    seen.add(name)
                    todo.append(m.defines[name])
        return seen

    def flow(self) -> None:
        f = self.model.flow
        if f is None:
            return
        self.out("## Setup and play")
        self.out()
        self.note(f)
        self.steps(self._said(f.body))
        self.out()

    def _said(self, body) -> list:
        """A part's steps in words, bookkeeping left out, each term explained at its first use in the part."""
        self.say.explained = set(self.say.known)
        self.say.hide = True
        try:
            return self.say.steps(body)
        finally:
            self.say.hide = False

    def _called_order(self) -> list:
        """The procedures in the order play reaches them (depth first from the flow), then any others."""
        m, order = self.model, []

        def visit(node):
            for n in descendants(node):
                if isinstance(n, (A.CallStmt, A.Call)) and n.name in m.procedures and n.name not in order:
                    order.append(n.name)
                    visit(m.procedures[n.name])

        for root in [m.flow, *m.triggers]:
            if root is not None:
                visit(root)
        return order + [n for n in m.procedures if n not in order]

    def procedures(self) -> None:
        for name in self._called_order():
            proc = self.model.procedures[name]
            params = f" ({', '.join(proc.params)})" if proc.params else ""
            self.out(f"### *{words(name)}*{params}{self.mark(proc, name)}")
            self.out()
            self.note(proc)
            reached = self._reached(name)
            if reached:
                self.out(f"*When:* {reached}.")
                self.out()
            self.say.part = name
            self.steps(self._said(proc.body))
            self.say.part = None
            self._extensions(proc)
            self.out()

    def _reached(self, name: str) -> str:
        """Where a procedure is reached from, in words: "in *take turn*, after each **action**, if not founded"."""
        said = []
        for caller, option, prev, conds, looped in call_sites(self.model, name):
            where = {"the flow": "in the setup", "each turn": "in each turn"}.get(caller, f"in *{words(caller)}*")
            if option is not None:
                where += f", in the move **{words(option)}**"
            if prev is not None:
                where += f", after {'each' if looped else 'the'} **{words(prev)}**"
                if looped and prev in self.stops:
                    where += f" ({', '.join(f'**{words(x)}**' for x in self.stops[prev])} included)"
            if conds:
                where += ", if " + " and ".join(self.say.expr(c) for c in conds)
            if where not in said:
                said.append(where)
        return "; ".join(said)

    def _tables(self) -> dict:
        """The defines that are an if-else chain on an enum's values, by enum: {enum: {define: {value: expr}}}."""
        used, out = self._used(), {}
        for name, d in self.model.defines.items():
            if name in HIDDEN_DEFINES or name not in used:
                continue
            chain = enum_chain(self.model, d)
            if chain is not None:
                out.setdefault(chain[1], {})[name] = chain
        return out

    def enum_tables(self) -> None:
        if not self.tables:
            return
        self.out("## Tables")
        self.out()
        for enum, cols in self.tables.items():
            info = self.model.enums[enum]
            self.out(f"### The table of {words(enum)}")
            self.out()
            self.note(info.node)
            names = list(cols)
            heads = [f"{words(n)} ({', '.join(self.model.defines[n].params)})" for n in names]
            self.out(f"| {words(enum)} | " + " | ".join(heads) + " |")
            self.out("|---|" + "---|" * len(names))
            for value in info.values:
                cells = []
                for n in names:
                    param, _, rows = cols[n]
                    self.say.bound = {param: words(value)}
                    cells.append(self._cell(self.say.expr(rows[value])))
                    self.say.bound = {}
                self.out(f"| {words(value)} | " + " | ".join(cells) + " |")
            self.out()
            for n in names:
                c = self.comment(self.model.defines[n])
                if c:
                    self.out(f"- *{words(n)}*: {c.replace(chr(10), ' ')}")
            self.out()

    def limits(self) -> None:
        """What the program adds that is no rule (the move bound), and where the rulebook comes from: last."""
        self.out("## For the computer referee")
        self.out()
        self.out(f"Not rules of the game. The program stops a game with no winner after {self.model.limit} "
                 "decisions" + (", and a parameter is set with `--set NAME=VALUE`" if self.model.params else "")
                 + ". " + ("It has a set of cards chosen one card at a time, each keeping the condition of the "
                           "set true. " if self.say.set_checks else "")
                 + f"This page is written by `ruledsl explain` from {self.path}, where each term's formula "
                 "stands beside the words given here.")
        self.out()

    def _extensions(self, proc) -> None:
        names = {n.name for n in _chooses(proc.body)}
        for ext in self.assembly.extensions:
            if ext.name in names:
                self.out(f"- Also, in **{words(ext.name)}**{self.mark(ext)}:")
                self.note(ext)
                for o in ext.options:
                    self.steps([self.say.option(o)], 1)

    def triggers(self) -> None:
        ts = self.model.triggers
        if not ts:
            return
        self.out("## As soon as ...")
        self.out()
        self.out("These rules apply the moment what they ask becomes true, in anybody's turn and in the middle "
                 "of any step" + (" (they are looked at in the order given here)" if len(ts) > 1 else "")
                 + (". A rule for a player p is looked at for each player in seat order, from seat 0."
                    if any(t.var for t in ts) else "."))
        self.out()
        for t in ts:
            who = self.say.for_each(t.var, t.domain)
            self.out(f"### {words(t.name)}{self.mark(t, t.name)}")
            self.out()
            self.note(t)
            self.say.explained = set(self.say.known)
            self.out(f"As soon as{who} {self.say.expr(t.cond)}:")
            self.out()
            self.steps(self.say.notes(t.cond) + self.say.steps(t.body))
            self.out()

    def invariants(self) -> None:
        inv = self.model.invariants
        if not inv:
            return
        self.out("## Always true")
        self.out()
        for i in inv:
            if i.message:
                self.out(f"- {i.message[0].upper()}{i.message[1:]}.")
            else:
                who = f"For every {i.var} in {self.say.domain(i.domain)}: " if i.var else ""
                self.out(f"- {words(i.name)}: {who}{self.say.expr(i.cond)}.")
        self.out()


def _zones_of(e) -> list:
    """The zone names in ``hand[v]``, ``payment[b] + sale[b]``."""
    if isinstance(e, A.BinOp) and e.op == "+":
        return _zones_of(e.left) + _zones_of(e.right)
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
        return [e.obj.name]
    return [e.name] if isinstance(e, A.Name) else []


def _chooses(body):
    for s in body:
        for n in descendants(s):
            if isinstance(n, A.Choose):
                yield n


def rulebook(path, params: dict | None = None) -> str:
    """The rulebook of the rules file at ``path`` as Markdown (RulesError if the rules are broken)."""
    draft = _Book(path, params)  # a first writing counts in how many parts each term is explained
    draft.write()
    book = _Book(path, params)
    book.say.appendix = book.appendix_terms(draft.say.noted)
    return book.write()


def to_html(markdown: str, title: str) -> str:
    """A standalone HTML page of a rulebook (markdown-it if installed, else the text in <pre>)."""
    try:
        from markdown_it import MarkdownIt

        body = MarkdownIt("commonmark").enable("table").render(markdown)
    except ImportError:
        body = f"<pre>{html.escape(markdown)}</pre>"
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>'
            "body { font-family: sans-serif; max-width: 50em; margin: 2em auto; line-height: 1.4; }"
            "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: .2em .5em; }"
            "blockquote { color: #555; border-left: 3px solid #ccc; margin-left: 0; padding-left: 1em; }"
            f"</style></head><body>\n{body}</body></html>\n")


def _by_count(sizes: dict) -> str:
    """{2: 7, 3: 5, 4: 4, 5: 4} -> `7 spaces with 2 players, 5 with 3, 4 with 4 to 5`."""
    runs: list = []
    for n, v in sorted(sizes.items()):
        if runs and runs[-1][2] == v and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n, v])
    parts = [f"{v} with {a}" + ("" if a == b else f" to {b}") for a, b, v in runs]
    return parts[0].replace(" with", " spaces with", 1) + " players" + "".join(", " + p for p in parts[1:])
