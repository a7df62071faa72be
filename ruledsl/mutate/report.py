"""The results of ``ruledsl mutate`` as a table for the designer, or as JSON.

Each mutant becomes an :class:`Entry`: where it is (file:line:col), the
lines it changes before and after (a diff), the comment block above it (the
rule sentence it belongs to), the equivalent-marker that speaks for it, and
its verdict. Survivors are printed grouped by that comment block; marked
equivalent mutants, stale marks and invalid mutants are listed apart.
"""

from __future__ import annotations

import attrs

from .comments import Comments, Mark
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

    @property
    def status(self) -> str:
        if self.verdict.status == SURVIVED and self.mark is not None:
            return EQUIVALENT
        return self.verdict.status

    @property
    def stale_mark(self) -> bool:
        return self.mark is not None and self.verdict.status == KILLED


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
                         notes.mark_of(line, m.operator), v, path))
    return out


def counts(items: list[Entry]) -> dict:
    c = {KILLED: 0, SURVIVED: 0, EQUIVALENT: 0, INVALID: 0}
    for e in items:
        c[e.status] += 1
    judged = c[KILLED] + c[SURVIVED]
    return {"mutants": len(items), **c, "stale_marks": sum(e.stale_mark for e in items),
            "score": round(c[KILLED] / judged, 4) if judged else 1.0}


def to_json(rules: str, scenarios: str, items: list[Entry], seconds: float, jobs: int, skipped: int) -> dict:
    return {
        "rules": rules,
        "scenarios": scenarios,
        **counts(items),
        "duplicates_skipped": skipped,
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


def render(out, rules: str, items: list[Entry], seconds: float, jobs: int, unknown_marks=()) -> None:
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
    stale = [e for e in items if e.stale_mark]
    if stale:
        out.print(f"\n[bold yellow]stale marks[/] ({len(stale)}): marked equivalent, yet killed")
        for e in stale:
            out.print(f"  {escape(e.path or rules)}:{e.line}:{e.column} {e.mutant.operator} "
                      f"{escape(e.mutant.description)}: killed by {escape(e.verdict.by or '?')} "
                      f"(mark on line {e.mark.line})")
    for mark in unknown_marks:
        out.print(f"\n[bold yellow]warning[/]: {escape(rules)}:{mark.line}: the mark names no operator: "
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
    out.print(f"\n[{colour}]score: {c[KILLED]}/{judged} killed ({100 * c['score']:.0f}%)"
              f", {c[SURVIVED]} survived[/]" + (f"; not counted: {', '.join(extra)}" if extra else ""))
