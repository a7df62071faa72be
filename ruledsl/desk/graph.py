"""The flow of a rules file as a Graphviz diagram.

Phases and loops are boxes (clusters) with a head node that the body returns
to; decisions are hexagons with one edge per move; procedures that contain a
decision are drawn inside a box named after them, other effects are plain
boxes quoting the rules. A trigger is drawn beside the effects that may make
it fire: those that change a zone or variable its condition reads.
"""

from __future__ import annotations

import shutil
import subprocess

from ..checker.declare import Model
from ..language import ast as A
from .walk import descendants, source_of

LOOPS = (A.Repeat, A.While, A.For, A.Turns)
MAX_LINES = 4
MAX_WIDTH = 60


class GraphvizMissing(Exception):
    """Graphviz's ``dot`` program is not installed."""


def flow_dot(model: Model) -> str:
    """The DOT text of the diagram of a checked model."""
    return _Diagram(model).build()


def render(dot_text: str, fmt: str) -> bytes:
    """Run Graphviz's ``dot`` to turn DOT text into ``svg`` or ``png`` bytes."""
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizMissing("Graphviz's `dot` program is not installed (Debian: apt-get install graphviz); "
                              "--format dot writes the diagram without it")
    done = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True, timeout=120)
    if done.returncode != 0:
        raise GraphvizMissing(f"dot failed: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _clip(text: str) -> str:
    return text if len(text) <= MAX_WIDTH else text[:MAX_WIDTH - 1] + "…"


class _Diagram:
    def __init__(self, model: Model):
        self.m = model
        self.texts = model.texts
        self.lines: list[str] = []
        self.count = 0
        self.effects: list[tuple[str, set]] = []  # node id, families its statements change
        self.expanding: list[str] = []  # procedures being drawn, against recursion

    # ---- output

    def new_id(self, prefix: str = "n") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def node(self, label: str, **attrs) -> str:
        nid = self.new_id()
        extra = "".join(f", {k}={_quote(v)}" for k, v in attrs.items())
        self.lines.append(f"  {nid} [label={_quote(label)}{extra}];")
        return nid

    def edge(self, a: str, b: str, **attrs) -> None:
        extra = ", ".join(f"{k}={_quote(v)}" for k, v in attrs.items())
        self.lines.append(f"  {a} -> {b}" + (f" [{extra}]" if extra else "") + ";")

    def link(self, exits: list, entry: str, **attrs) -> None:
        for e in exits:
            self.edge(e, entry, **attrs)

    def text(self, node) -> str:
        return _clip(source_of(node, self.texts, first_line_only=True))

    # ---- the diagram

    def build(self) -> str:
        name = self.m.name
        self.lines = [
            "digraph flow {",
            f"  label={_quote(name + ': the flow of a game')}; labelloc=t; fontsize=20;",
            '  fontname="Helvetica"; compound=true; rankdir=TB; nodesep=0.35; ranksep=0.4;',
            '  node [fontname="Helvetica", fontsize=11, shape=box, style="rounded,filled", fillcolor="#ffffff"];',
            '  edge [fontname="Helvetica", fontsize=10];',
        ]
        start = self.node("start", shape="circle", fillcolor="#d8f0d8")
        body = self.m.flow.body if self.m.flow is not None else ()
        entry, exits = self.seq(body)
        end = self.node("game over", shape="doublecircle", fillcolor="#f0d8d8")
        if entry is None:
            self.edge(start, end)
        else:
            self.edge(start, entry)
            self.link(exits, end)
        self.triggers()
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def seq(self, stmts) -> tuple:
        """Draw statements in order; return (first node, nodes that lead on) or (None, [])."""
        entry, exits = None, []
        plain: list = []

        def flush():
            nonlocal entry, exits
            if not plain:
                return
            label = "\n".join(self.text(s) for s in plain[:MAX_LINES])
            if len(plain) > MAX_LINES:
                label += f"\n… ({len(plain) - MAX_LINES} more)"
            nid = self.node(label)
            writes: set = set()
            for s in plain:
                writes |= self.writes(s)
            self.effects.append((nid, writes))
            if entry is None:
                entry = nid
            self.link(exits, nid)
            exits = [nid]
            plain.clear()

        for s in stmts:
            if not self.interesting(s):
                plain.append(s)
                continue
            flush()
            first, last = self.stmt(s)
            if first is None:
                continue
            if entry is None:
                entry = first
            self.link(exits, first)
            exits = last
        flush()
        return entry, exits

    def interesting(self, s) -> bool:
        """Whether a statement is drawn as its own shape rather than as a line of an effect box."""
        return isinstance(s, LOOPS) or self.has_choice(s)

    def has_choice(self, s, seen: frozenset = frozenset()) -> bool:
        for n in descendants(s):
            if isinstance(n, A.Choose):
                return True
            if isinstance(n, A.CallStmt) and n.name in self.m.procedures and n.name not in seen:
                if self.has_choice(self.m.procedures[n.name], seen | {n.name}):
                    return True
        return False

    def stmt(self, s) -> tuple:
        if isinstance(s, LOOPS):
            return self.loop(s)
        if isinstance(s, A.Choose):
            return self.choose(s)
        if isinstance(s, A.If):
            return self.branch(s)
        if isinstance(s, A.CallStmt) and s.name in self.m.procedures and s.name not in self.expanding:
            return self.procedure(s)
        if isinstance(s, (A.Reveal, A.AtOnce)):
            return self.cluster(self.text(s).split("{")[0].strip(), s.body, "#f4f4f4")
        nid = self.node(self.text(s))
        self.effects.append((nid, self.writes(s)))
        return nid, [nid]

    def cluster(self, label: str, body, colour: str) -> tuple:
        self.lines.append(f"  subgraph cluster_{self.new_id('c')} {{")
        self.lines.append(f'  label={_quote(label)}; style="rounded,filled"; fillcolor="{colour}"; color="#999999";')
        entry, exits = self.seq(body)
        self.lines.append("  }")
        return entry, exits

    def loop(self, s) -> tuple:
        words = {A.Repeat: "repeat", A.While: "while", A.For: "for each", A.Turns: "turns"}[type(s)]
        self.lines.append(f"  subgraph cluster_{self.new_id('c')} {{")
        self.lines.append(f'  label={_quote(words)}; style="rounded,filled"; fillcolor="#eef3fb"; color="#6b8cc7";')
        head = self.node(self.text(s).split("{")[0].strip(), shape="ellipse", fillcolor="#dbe6f7")
        entry, exits = self.seq(s.body)
        if entry is not None:
            self.edge(head, entry)
            if len(exits) > 1:  # the ways through the body meet before going round again
                join = self.node("", shape="point", width="0.08", color="#6b8cc7")
                self.link(exits, join, color="#6b8cc7")
                exits = [join]
            self.link(exits, head, style="dashed", label="again", color="#6b8cc7", constraint="false")
        self.lines.append("  }")
        return head, [head]

    def choose(self, s: A.Choose) -> tuple:
        head = self.node(f"decision {s.name}\nby {self.text(s.actor)}", shape="hexagon", fillcolor="#fff4c2")
        exits = []
        options = list(s.options) + list(self.m.extensions.get(s.name, ()))
        for o in options:
            label = self.text(o).split("{")[0].strip()
            mid = self.node(label, fillcolor="#fffbe6")
            self.edge(head, mid)
            if any(self.interesting(b) for b in o.body):
                # the body is drawn below the move: its own boxes carry its effects
                entry, out = self.seq(o.body)
                self.edge(mid, entry)
                exits.extend(out)
            else:
                writes: set = set()
                for b in o.body:
                    writes |= self.writes(b)
                self.effects.append((mid, writes))
                exits.append(mid)
        return head, exits

    def branch(self, s: A.If) -> tuple:
        exits = []
        first = None
        previous = None
        for cond, body in s.branches:
            test = self.node(f"if {self.text(cond)}", shape="polygon", sides="4", orientation="45", fillcolor="#f3e8fb")
            if previous is None:
                first = test
            else:
                self.edge(previous, test, label="no")
            entry, out = self.seq(body)
            if entry is None:
                exits.append(test)
            else:
                self.edge(test, entry, label="yes")
                exits.extend(out)
            previous = test
        if s.otherwise:
            entry, out = self.seq(s.otherwise)
            if entry is None:
                exits.append(previous)
            else:
                self.edge(previous, entry, label="no")
                exits.extend(out)
        else:
            exits.append(previous)
        return first, exits

    def procedure(self, s: A.CallStmt) -> tuple:
        proc = self.m.procedures[s.name]
        self.expanding.append(s.name)
        try:
            return self.cluster(f"{self.text(s)}", proc.body, "#f7f7f7")
        finally:
            self.expanding.pop()

    # ---- triggers

    def names_in(self, node, seen: set | None = None) -> set:
        """Zone and variable names that ``node`` mentions, following defines and procedures."""
        seen = set() if seen is None else seen
        found = set()
        families = set(self.m.zones) | set(self.m.vars)
        for n in descendants(node):
            name = getattr(n, "name", None)
            if isinstance(n, (A.Name, A.ZoneRef, A.Assign)) and name in families:
                found.add(name)
            elif isinstance(n, (A.Call, A.CallStmt)) and name not in seen:
                target = self.m.defines.get(name) or self.m.procedures.get(name)
                if target is not None:
                    seen.add(name)
                    found |= self.names_in(target, seen)
        return found

    def writes(self, s, seen: set | None = None) -> set:
        """The zones and variables a statement may change: assigned variables, the zones cards
        are put into or taken from (as far as the statement names them), following procedures."""
        seen = set() if seen is None else seen
        out: set = set()
        for n in descendants(s):
            if isinstance(n, A.Assign):
                out.add(n.name)
            elif isinstance(n, A.Put):
                out.add(n.zone.name)
                out |= {z for z in self.names_in(n.cards) if z in self.m.zones}
            elif isinstance(n, A.Deal):
                out |= {n.source.name, n.target.name}
            elif isinstance(n, A.Shuffle):
                out.add(n.zone.name)
            elif isinstance(n, A.Gather):
                out |= set(self.m.zones)
            elif isinstance(n, A.CallStmt) and n.name in self.m.procedures and n.name not in seen:
                seen.add(n.name)
                out |= self.writes(self.m.procedures[n.name], seen)
        return out

    def triggers(self) -> None:
        if not self.m.triggers:
            return
        self.lines.append("  subgraph cluster_triggers {")
        self.lines.append('  label="triggers: checked after the effects that point to them"; style="dashed"; color="#c76b1f";')
        ids = []
        for t in self.m.triggers:
            head = self.text(t).split("{")[0].strip()
            tid = self.node(head, shape="note", fillcolor="#fde2cf", color="#c76b1f")
            ids.append((tid, t))
        self.lines.append("  }")
        for tid, t in ids:
            reads = self.names_in(t.cond)
            for nid, writes in self.effects:
                if writes & reads:
                    self.edge(nid, tid, style="dotted", color="#c76b1f", arrowhead="vee", constraint="false")
