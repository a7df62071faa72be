"""The results of ``ruledsl mutate`` as a table for the designer, or as JSON.

Each mutant becomes an :class:`Entry`: where it is (file:line:col), the
lines it changes before and after (a diff), the comment block above it (the
rule sentence it belongs to), the equivalent-marker that speaks for it, and
its verdict. Survivors are printed grouped by that comment block; marked
equivalent mutants, stale marks and invalid mutants are listed apart.
"""

from __future__ import annotations

import attrs

from .comments import Comments, Mark, picks
from .operators import Mutant
from .run import INVALID, KILLED, SURVIVED, Verdict

EQUIVALENT = "equivalent"
DIFF_LINES = 6  # lines shown on each side of a diff; more are counted


@attrs.frozen
class Entry:
    id: int
    mutant: Mutant
    line: int
    column: int
    original: str  # the whole lines the mutant changes, as written
    mutated: str  # the same lines in the mutant ("" when they are removed)
    group_line: int  # the first line of the nearest comment block above (0: none)
    group: str
    mark: Mark | None
    verdict: Verdict
    path: str = ""  # the file it changes: the named rules file, or a base file of a variant
    suggest: str = ""  # for a survivor: the mark that would pick it alone (``mark_text``)

    @property
    def status(self) -> str:
        if self.verdict.status == SURVIVED and self.mark is not None:
            return EQUIVALENT
        return self.verdict.status



def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def changed_lines(text: str, m: Mutant) -> tuple[str, str]:
    """The whole lines a mutant touches, before and after."""
    first = text.rfind("\n", 0, m.start) + 1
    last = text.find("\n", max(m.end - 1, m.start))
    last = len(text) if last < 0 else last
    before = text[first:last]
    after = text[first:m.start] + m.replacement + text[m.end:last] if m.end <= last else \
        text[first:m.start] + m.replacement
    return before, "" if not after.strip() else after  # removed lines stay as empty lines


def entries(texts: dict, mutants, verdicts, comments: dict) -> list[Entry]:
    """``texts`` and ``comments``: by the path of each file mutated (a mutant's ``path``)."""
    first = next(iter(texts))
    out = []
    for i, (m, v) in enumerate(zip(mutants, verdicts)):
        path = m.path or first
        text, notes = texts[path], comments[path]
        line, col = _line_col(text, m.at)
        before, after = changed_lines(text, m)
        group_line, group = notes.group_of(line)
        out.append(Entry(i + 1, m, line, col, before, after, group_line, group,
                         notes.mark_of(line, m.operator, m.key, before, after), v, path))
    return out


def line_of(texts: dict, m: Mutant) -> int:
    return _line_col(texts[m.path or next(iter(texts))], m.at)[0]


def mark_text(texts: dict, m: Mutant, others) -> str:
    """The mark that picks ``m`` and none of ``others`` (the mutants of its line): ``OPERATOR `TEXT```.

    Its operator alone when it is the only one of its kind on the line; else its key (the new
    token, what it drops) when that is enough; else the shortest stretch of its changed line,
    around the change, that the original line does not hold."""
    text = texts[m.path or next(iter(texts))]
    before, after = changed_lines(text, m)
    same = [o for o in others if o is not m and o.operator == m.operator]
    if not same:
        return m.operator

    def alone(t: str) -> bool:
        return bool(t.strip()) and "`" not in t and picks((m.operator, t), m.operator, m.key, before, after) and \
            not any(picks((m.operator, t), o.operator, o.key, *changed_lines(text, o)) for o in same)

    if len(m.key) <= 40 and alone(m.key):
        return f"{m.operator} `{m.key}`"
    first = text.rfind("\n", 0, m.start) + 1
    at, end = m.start - first, m.start - first + len(m.replacement.split("\n")[0])
    line = after.split("\n")[0]
    for grow in range(1, len(line) + 1):
        piece = line[max(0, at - grow):end + grow].strip()
        if alone(piece):
            return f"{m.operator} `{piece}`"
    return m.operator  # nothing tells it apart: a mark for the operator picks it with the others


@attrs.frozen
class Stale:
    """A mark that excuses no survivor, or excuses killed mutants too."""

    path: str
    line: int  # the mark's line
    what: str  # the selector as written: `constant `- 4``, or "the line"
    reason: str


def stale_marks(texts: dict, generated, items: list[Entry], comments: dict) -> list[Stale]:
    """The marks (and each mutant-selector of a mark) that pick no mutant of their lines, or pick
    a mutant that is not a survivor (killed, or invalid). ``generated``: every mutant made, before
    --match or --operator chose some; a selector whose mutants were not all judged is not judged."""
    first = next(iter(texts))
    judged = {id(e.mutant): e for e in items}
    picked: dict = {}
    for m in generated:
        path = m.path or first
        notes = comments[path]
        line = line_of(texts, m)
        before, after = changed_lines(texts[path], m)
        for mark in notes.marks_for(line):
            for sel in mark.selectors or ((None, None),):
                hit = mark.picks(m.operator, m.key, before, after) if sel[0] is None else \
                    picks(sel, m.operator, m.key, before, after)
                picked.setdefault((path, mark.line, sel), [])
                if hit:
                    picked[(path, mark.line, sel)].append(m)
    for path, notes in comments.items():  # marks that speak for no line a mutant is on
        for mark in notes.marks.values():
            if not mark.skip and not (mark.unknown and not mark.selectors):
                for sel in mark.selectors or ((None, None),):
                    picked.setdefault((path, mark.line, sel), [])
    out = []
    for (path, line, sel), ms in sorted(picked.items(), key=lambda kv: (kv[0][0] != first, kv[0][0], kv[0][1])):
        what = "the line" if sel[0] is None else sel[0] + (f" `{sel[1]}`" if sel[1] is not None else "")
        if not ms:
            out.append(Stale(path, line, what, "picks no mutant: its line or operator changed, or the text "
                                                "names none of them"))
            continue
        if any(id(m) not in judged for m in ms):
            continue  # --match or --operator left some out
        bad = [judged[id(m)] for m in ms if judged[id(m)].verdict.status == KILLED]
        if not bad:
            if not any(judged[id(m)].verdict.status == SURVIVED for m in ms):
                out.append(Stale(path, line, what, "every mutant it picks is invalid (does not check): "
                                                    "the mark can go"))
            continue
        shown = "; ".join(f"{e.mutant.description} ({e.verdict.status}"
                          + (f" by {e.verdict.by}" if e.verdict.by else "") + ")" for e in bad[:3])
        more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
        survivors = [m for m in ms if judged[id(m)].verdict.status == SURVIVED]
        if not survivors:
            reason = f"every mutant it picks is killed: {shown}{more}; the mark can go"
        else:
            keep = sorted({mark_text(texts, e.mutant, [o for o in generated if o.path == e.mutant.path and line_of(texts, o) == e.line])
                           for e in (judged[id(m)] for m in ms) if e.verdict.status == SURVIVED})
            reason = f"it also picks {len(bad)} killed mutant(s): {shown}{more}; name the survivors: {', '.join(keep)}"
        out.append(Stale(path, line, what, reason))
    return out


@attrs.frozen
class Skipped:
    """A ``# mutate: skip — why`` mark, the lines it keeps from being mutated and how many mutants it skips."""

    path: str
    mark: Mark
    first: int
    last: int
    mutants: int


def counts(items: list[Entry], stale=(), skipped=()) -> dict:
    c = {KILLED: 0, SURVIVED: 0, EQUIVALENT: 0, INVALID: 0}
    for e in items:
        c[e.status] += 1
    judged = c[KILLED] + c[SURVIVED]
    return {"mutants": len(items), **c, "stale_marks": len(stale), "skipped": sum(k.mutants for k in skipped),
            "score": round(c[KILLED] / judged, 4) if judged else 1.0}


def to_json(rules: str, scenarios: str, items: list[Entry], seconds: float, jobs: int, duplicates: int,
            stale=(), skipped=()) -> dict:
    return {
        "rules": rules,
        "scenarios": scenarios,
        **counts(items, stale, skipped),
        "duplicates_skipped": duplicates,
        "stale": [{"file": x.path, "line": x.line, "mark": x.what, "reason": x.reason} for x in stale],
        "skips": [{"file": k.path, "line": k.mark.line, "lines": [k.first, k.last], "why": k.mark.why,
                   "mutants": k.mutants} for k in skipped],
        "seconds": round(seconds, 2),
        "jobs": jobs,
        "results": [{
            "id": e.id,
            "operator": e.mutant.operator,
            "description": e.mutant.description,
            "file": e.path or rules,
            "line": e.line,
            "column": e.column,
            "original": e.original,
            "mutated": e.mutated,
            "status": e.status,
            "by": e.verdict.by,
            "detail": e.verdict.detail,
            "group": {"line": e.group_line, "comment": e.group},
            "equivalent": None if e.mark is None else {"line": e.mark.line, "why": e.mark.why},
            "mark": e.suggest or None,
            "seconds": round(e.verdict.seconds, 3),
        } for e in items],
    }


def _dedent(*chunks: str) -> list[list[str]]:
    split = [[line.rstrip() for line in c.split("\n")] if c else [] for c in chunks]
    indents = [len(line) - len(line.lstrip()) for lines in split for line in lines if line.strip()]
    cut = min(indents) if indents else 0
    return [[line[cut:] for line in lines] for lines in split]


def diff_lines(e: Entry) -> list[tuple[str, str]]:
    """(sign, line) pairs: the original lines with `-`, the mutated with `+` (none when removed)."""
    before, after = _dedent(e.original, e.mutated)
    out = []
    for sign, lines in (("-", before), ("+", after)):
        for line in lines[:DIFF_LINES]:
            out.append((sign, line))
        if len(lines) > DIFF_LINES:
            out.append((sign, f"… ({len(lines) - DIFF_LINES} more lines)"))
    return out


def _group_heading(e: Entry) -> str:
    if not e.group_line:
        return "(no comment above)"
    if not e.group.startswith("#"):
        return f"(no comment: the lines from {e.group_line}, `{e.group.split('#')[0].strip()}`)"
    lines = e.group.split("\n")
    shown = lines[:2]
    return "\n".join(shown) + ("\n# …" if len(lines) > 2 else "")


def render(out, rules: str, items: list[Entry], seconds: float, jobs: int, unknown_marks=(), stale=(),
           skipped=()) -> None:
    """The table for a terminal (or a log): ``out`` is a rich Console."""
    from rich.markup import escape

    c = counts(items)
    out.print(f"[bold]{escape(rules)}[/]: {c['mutants']} mutants in {seconds:.1f} s "
              f"({c['mutants'] / seconds if seconds else 0:.1f}/s, {jobs} job{'s' if jobs != 1 else ''})")

    def show(e: Entry, note: str = "") -> None:
        out.print(f"  [cyan]{escape(e.path or rules)}:{e.line}:{e.column}[/] [bold]{e.mutant.operator}[/] "
                  f"{escape(e.mutant.description)}{note}")
        for sign, line in diff_lines(e):
            colour = "red" if sign == "-" else "green"
            out.print(f"    [{colour}]{sign} {escape(line)}[/]")
        if e.status == SURVIVED and e.suggest:
            out.print(f"    [dim]if no game can tell it apart: # mutate: equivalent {escape(e.suggest)} — WHY[/]")

    survivors = [e for e in items if e.status == SURVIVED]
    if survivors:
        out.print(f"\n[bold red]survived[/] ({len(survivors)}): no scenario noticed these changes")
        last = None
        for e in sorted(survivors, key=lambda e: (e.path != rules, e.path, e.group_line, e.line, e.column, e.id)):
            if (e.path, e.group_line) != last:
                last = (e.path, e.group_line)
                out.print("\n[dim]" + escape(_group_heading(e)) + "[/]")
            show(e)
    marked = [e for e in items if e.status == EQUIVALENT]
    if marked:
        out.print(f"\n[bold]marked equivalent[/] ({len(marked)}): survive, as their marks say")
        for e in marked:
            show(e, f" [dim]— {escape(e.mark.why or 'no reason given')} (line {e.mark.line})[/]")
    if skipped:
        out.print(f"\n[bold]skipped[/] ({sum(k.mutants for k in skipped)} mutants): not mutated, as their "
                  "marks say")
        for k in skipped:
            out.print(f"  {escape(k.path)}:{k.first}-{k.last}: {k.mutants} mutant(s) — "
                      f"{escape(k.mark.why or 'no reason given')} (mark on line {k.mark.line})")
    if stale:
        out.print(f"\n[bold yellow]stale marks[/] ({len(stale)}): marks that excuse no survivor, or killed "
                  "mutants too")
        for x in stale:
            out.print(f"  {escape(x.path)}:{x.line}: `# mutate: equivalent` {escape(x.what)}: {escape(x.reason)}")
    for path, mark in unknown_marks:
        out.print(f"\n[bold yellow]warning[/]: {escape(path)}:{mark.line}: the mark names no operator: "
                  f"{escape(', '.join(mark.unknown))}")
    crashed = [e for e in items if e.verdict.by in ("internal error", "timeout")]
    if crashed:
        out.print(f"\n{len(crashed)} mutant(s) killed by a timeout or an internal error of ruledsl "
                  "(--json has the details)")
    if c[INVALID]:
        out.print(f"\n[dim]{c[INVALID]} invalid mutant(s) do not check, and are not counted "
                  "(--json lists them with their first error)[/]")
    judged = c[KILLED] + c[SURVIVED]
    colour = "bold green" if not c[SURVIVED] else "bold red"
    extra = []
    if c[EQUIVALENT]:
        extra.append(f"{c[EQUIVALENT]} marked equivalent")
    if c[INVALID]:
        extra.append(f"{c[INVALID]} invalid")
    if skipped:
        extra.append(f"{sum(k.mutants for k in skipped)} skipped")
    out.print(f"\n[{colour}]score: {c[KILLED]}/{judged} killed ({100 * c['score']:.0f}%)"
              f", {c[SURVIVED]} survived[/]" + (f"; not counted: {', '.join(extra)}" if extra else ""))
