"""The package's imports keep its pipeline: one direction between stages, no circle anywhere.

Read from the source itself (an AST walk, so imports inside functions count
too). docs/architecture.md draws the stages; ``STAGES`` below is that drawing
as data. Each test of the rule is also run on a small planted package, so a
checker that stopped finding anything would fail here too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ruledsl"

# The stages in pipeline order: a module may import its own subpackage and
# earlier stages, never a later one nor another subpackage of its own rank.
# The modules at the top (the documented API paths, `ruledsl/__init__`) come
# last: they may import everything and nothing in a stage may import them,
# except `ruledsl.version`, which imports nothing.
STAGES = {
    "version": 0,
    "language": 1,
    "checker": 2,
    "compiler": 3,
    "engine": 4,
    "play": 5, "adapters": 5, "scenarios": 5,
    "verify": 6,
    "desk": 7, "mutate": 7,
    "cli": 8,
}
FRONT = 9


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name."""
    out = {}
    for f in root.rglob("*.py"):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def imports(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, anywhere in its text."""
    mods = modules(root)
    top = root.name
    edges: dict[str, set[str]] = {}
    for name, f in mods.items():
        package = name if f.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != top:
                    continue
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in mods]
                found.update(subs)
                if not subs and target in mods:
                    found.add(target)
        found.discard(name)
        edges[name] = found
    return edges


def stage(module: str) -> tuple[int, str]:
    """(rank, subpackage) of a dotted module name; the front door has FRONT."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in STAGES:
        return STAGES[parts[1]], parts[1]
    return FRONT, ""


def wrong_way(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a later stage, or of another subpackage of the same rank."""
    found = []
    for a, targets in sorted(edges.items()):
        ra, pa = stage(a)
        for b in sorted(targets):
            rb, pb = stage(b)
            if rb > ra or (rb == ra and pa != pb):
                found.append(f"{a} imports {b}")
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_package():
    assert circles(imports(PACKAGE)) == []


def test_no_stage_imports_a_later_one():
    assert wrong_way(imports(PACKAGE)) == []


def test_every_subpackage_has_a_stage():
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert subpackages <= set(STAGES), subpackages - set(STAGES)


def test_no_module_is_over_800_lines():
    long = {name: n for name, f in modules(PACKAGE).items()
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}


def _plant(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "ruledsl"
    for rel, text in files.items():
        f = pkg / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8")
    for d in [pkg, *(p for p in pkg.rglob("*") if p.is_dir())]:
        (d / "__init__.py").touch()
    return pkg


@pytest.fixture
def planted(tmp_path):
    """A small package laid out as ruledsl is, whose parser reaches into the engine inside a function."""
    return _plant(tmp_path, {
        "language/parse.py": "from .errors import E\n\ndef f():\n    from ..engine.state import State\n",
        "language/errors.py": "E = 1\n",
        "engine/state.py": "from ..language.parse import f\n\nState = 1\n",
        "cli/main.py": "from ..engine.state import State\nfrom .. import sim\n",
        "sim.py": "from .engine import state\n",
    })


def test_a_planted_import_of_a_later_stage_is_found(planted):
    assert wrong_way(imports(planted)) == ["ruledsl.cli.main imports ruledsl.sim",
                                           "ruledsl.language.parse imports ruledsl.engine.state"]


def test_a_planted_circle_is_found_through_an_import_inside_a_function(planted):
    assert circles(imports(planted)) == [["ruledsl.engine.state", "ruledsl.language.parse"]]


def test_the_front_door_may_import_every_stage(planted):
    edges = imports(planted)
    assert edges["ruledsl.sim"] == {"ruledsl.engine.state"}
    assert not [w for w in wrong_way(edges) if w.startswith("ruledsl.sim ")]
