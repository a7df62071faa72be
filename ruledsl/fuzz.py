"""A fuzzer that a maintainer can leave running: ``python -m ruledsl.fuzz --minutes 30``.

It makes rules files three ways and checks each one in a worker process:

- ``grammar``: files written from a small grammar of the language (declarations,
  statements, expressions by type), so that most of them pass the checker and
  reach the engine;
- ``mutation``: the game files of ``games/`` with tokens or lines deleted,
  duplicated, swapped or replaced;
- ``limits``: files at the edges the language must bound (deep nesting, long
  chains, defines built on defines, huge numbers, moves with many parameters,
  endless loops over long ranges and big zones).

Each file is loaded (checked and compiled) and, if it loads, played by random
moves for up to 1,000 moves, with the views, descriptions, invariants, scores
and a save and load along the way. What counts as a finding:

- an exception outside ruledsl's error family (``RuledslError``), in the check
  or in the play (``RecursionError``, ``ValueError`` ...);
- a check over 2 s of CPU, a play of the first 1,000 moves over 5 s of CPU;
- a worker that does not answer at all (a hang: killed after ``--timeout`` s).

Findings are written to ``--out`` (one file each, with what was found in a
comment at its top, so that it can be run again with ``ruledsl check``) and
counted at the end. The same ``--seed`` makes the same files. docs/fuzzing.md.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import multiprocessing
import os
import random
import re
import sys
import time
import traceback
from pathlib import Path

try:
    import resource
except ImportError:  # not on Windows: the CPU time of this process alone is counted there
    resource = None

CHECK_CPU_LIMIT = 2.0  # seconds of CPU for loading one file
RUN_LIMIT = 5.0  # seconds of CPU for the first RUN_MOVES moves
RUN_MOVES = 1000
SOURCES = ("grammar", "mutation", "limits")


def games_folder() -> Path:
    return Path(__file__).resolve().parent.parent / "games"


def game_texts() -> dict:
    """The game files (not the library, not the scenario files), by path."""
    folder = games_folder()
    files = sorted(p for p in folder.glob("*.rules") if not p.name.endswith(".test.rules"))
    return {str(p): p.read_text(encoding="utf-8") for p in files}


# ---- the grammar


INTS = ["0", "1", "2", "3", "5", "13", "52", "100000"]
ZONES = ["z", "h[current]", "h[0]", "h[next(current)]"]
DECLARATIONS = [
    'players 2..3',
    'include "standard.rules"',
    'enum e { a, b }',
    'kind k {\n  r: 1..5\n  s: e\n  show "{r}{s}"\n}',
    'cards k(r: 1..5, s: each) in z',
    'cards standard52 in deck',
    'zone z: pile public',
    'zone deck: pile hidden',
    'zone h[player]: row owner',
    'zone t: track(n) public',
    'var v: int = 0',
    'var w[player]: int = 0',
    'var pos: int = 0',
    'var flag: bool = false',
    'param n = 3 in 1..10',
    'define d(y) = y + 1',
    'limit 60 moves',
]
# The grammar's `players` line now and then (DECLARATIONS keeps the usual one): one player, a fixed
# count, and the widest ranges, where a setup that fails is tried again for many counts (dealing.py).
PLAYERS = ["players 1..1", "players 2..2", "players 2..13", "players 1..20", "players 3..6"]


class Grammar:
    """Rules files from the grammar, by a seeded generator (the same seed, the same file)."""

    def __init__(self, rng: random.Random):
        self.r = rng
        # half the files are "clean": every declaration, one kind of card, no expression of any type,
        # so that they pass the checker and reach the engine; the others reach the checker's errors
        self.clean = rng.random() < 0.5

    def pick(self, items):
        return self.r.choice(items)

    def expr(self, kind: str, depth: int, local=()) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.35:
            return self.leaf(kind, local)
        d = depth - 1
        if kind == "int":
            return self.pick([
                lambda: f"({self.expr('int', d, local)} {self.pick(['+', '-', '*', '/', '%'])} {self.expr('int', d, local)})",
                lambda: f"(-{self.expr('int', d, local)})",
                lambda: f"{self.expr('card', d, local)}.r",
                lambda: f"w[{self.expr('player', d, local)}]",
                lambda: f"d({self.expr('int', d, local)})",
                lambda: f"(if {self.expr('bool', d, local)} then {self.expr('int', d, local)} else {self.expr('int', d, local)})",
                lambda: f"sum(q.r for each q in {self.pick(ZONES)})",
                lambda: f"count(each q in {self.pick(ZONES)} where q.r > {self.expr('int', d, local)})",
                lambda: "max(w[q] for each q in players)",
            ])()
        if kind == "bool":
            return self.pick([
                lambda: f"({self.expr('int', d, local)} {self.pick(['==', '!=', '<', '<=', '>', '>='])} {self.expr('int', d, local)})",
                lambda: f"({self.expr('bool', d, local)} {self.pick(['and', 'or'])} {self.expr('bool', d, local)})",
                lambda: f"(not {self.expr('bool', d, local)})",
                lambda: f"({self.expr('card', d, local)} == {self.expr('card', d, local)})",
                lambda: f"({self.expr('card', d, local)} in {self.pick(ZONES)})",
                lambda: f"({self.expr('card', d, local)}.s == a)",
                lambda: f"any(each q in players where w[q] > {self.expr('int', d, local)})",
                lambda: f"all(each q in {self.pick(ZONES)} where q.r != {self.expr('int', d, local)})",
            ])()
        if kind == "player":
            return self.pick([lambda: f"next({self.expr('player', d, local)})",
                              lambda: f"(if {self.expr('bool', d, local)} then {self.expr('player', d, local)} "
                                      f"else {self.expr('player', d, local)})"])()
        return f"(if {self.expr('bool', d, local)} then {self.expr('card', d, local)} else {self.expr('card', d, local)})"

    def leaf(self, kind: str, local=()) -> str:
        if kind == "int":
            return self.pick(INTS + ["v", "w[current]", "w[0]", "n", "pos", "size(z)", "size(h[current])", "d(1)",
                                     "top(z).r"])
        if kind == "bool":
            return self.pick(["true", "false", "flag", "empty(z)", "empty(h[current])", "empty(deck)"])
        if kind == "player":
            return self.pick(["current", "next(current)"])
        return self.pick(["top(z)", "bottom(z)", "top(h[current])", "top(deck)", *(["c"] if "c" in local else [])])

    def chaos(self, depth: int = 3) -> str:
        """An expression of any type at all, for the checker's type errors."""
        names = ["v", "n", "flag", "current", "players", "a", "none", "z", "h", "t", "top(z)", "e", '"text"']
        if depth <= 0 or self.r.random() < 0.4:
            return self.pick(INTS + names)
        d = depth - 1
        return self.pick([
            lambda: f"({self.chaos(d)} {self.pick(['+', '==', 'and', 'in', '<'])} {self.chaos(d)})",
            lambda: f"{self.chaos(d)}.{self.pick(['r', 'kind', 'id', 'x'])}",
            lambda: f"{self.pick(['w', 'h', 't', 'z'])}[{self.chaos(d)}]",
            lambda: f"{self.pick(['size', 'top', 'next', 'abs', 'd', 'random'])}({self.chaos(d)})",
        ])()

    def simple(self, local=()) -> str:
        e = lambda kind: self.expr(kind, 2, local)  # noqa: E731
        return self.pick([
            lambda: f"{self.pick(['v', 'w[current]', 'pos'])} {self.pick(['=', '+=', '-='])} {e('int')}",
            lambda: f"flag = {e('bool')}",
            lambda: f"let k{self.r.randint(0, 2)} = {e('int')}",
            lambda: f"put {e('card')} into {self.pick(ZONES)}",
            lambda: f"put random(each q in {self.pick(ZONES)} where q.r >= {e('int')}) into {self.pick(ZONES)}",
            lambda: f"put {e('card')} under {self.pick(ZONES)}",
            lambda: f"put {e('card')} into t at {e('int')}",
            lambda: f"deal {e('int')} from {self.pick(ZONES)} into {self.pick(ZONES)}",
            lambda: f"shuffle {self.pick(ZONES)}",
            lambda: "gather all cards into deck",
            lambda: "end game",
            lambda: f"pr({e('int')})",
            lambda: f"{self.pick(['v', 'flag', 'pos', 'w[current]'])} = {self.chaos()}" if not self.clean
            else f"v = {e('int')}",
        ])()

    def body(self, depth: int, local=(), most: int = 3) -> str:
        return "{ " + "\n".join(self.stmt(depth, local) for _ in range(self.r.randint(0, most))) + " }"

    def stmt(self, depth: int, local=()) -> str:
        if depth <= 0 or self.r.random() < 0.3:
            return self.simple(local)
        d = depth - 1
        b = lambda: self.expr("bool", 2, local)  # noqa: E731

        def option():
            return self.pick([
                lambda: f"move {self.pick(['m1', 'm2'])} {self.body(d, local)}",
                lambda: f"move {self.pick(['m3', 'm4'])} where {b()} {self.body(d, local)}",
                lambda: f"move play(c in {self.pick(ZONES)}) where {b()} {self.body(d, local + ('c',), 2)}",
                lambda: f"move pick(k in 1..3) {self.body(d, local)}",
            ])()

        return self.pick([
            lambda: self.simple(local),
            lambda: f"if {b()} {self.body(d, local)} else {self.body(d, local)}",
            lambda: f"for c in {self.pick(ZONES)} {self.body(d, local + ('c',), 2)}",
            lambda: f"for q in players {self.body(d, local)}",
            lambda: f"repeat {self.expr('int', 2, local)} times {self.body(d, local)}",
            lambda: f"while {b()} {self.body(d, local)}",
            lambda: f"turns from {self.expr('player', 2, local)} until {b()} {self.body(d, local)}",
            lambda: "choose ch by " + self.expr("player", 1, local) + " { "
                    + "\n".join(option() for _ in range(self.r.randint(1, 3))) + " }",
            lambda: f"reveal {self.pick(ZONES)} to {self.expr('player', 1, local)} {self.body(d, local)}",
            lambda: f"at once {self.body(d, local)}",
        ])()

    def file(self) -> str:
        r = self.r
        lines = ['game "Fuzz"']
        missing = set(r.sample(DECLARATIONS, r.randint(0, 2)))  # now and then a declaration is missing
        if self.clean:
            missing = {'include "standard.rules"', "cards standard52 in deck"}
        lines.extend(x for x in DECLARATIONS if x not in missing)
        if r.random() < 0.2:  # another player count (or one where the usual line is missing)
            if DECLARATIONS[0] in lines:
                lines[lines.index(DECLARATIONS[0])] = self.pick(PLAYERS)
            else:
                lines.insert(1, self.pick(PLAYERS))
        proc = self.simple()
        while "pr(" in proc:
            proc = self.simple()
        lines.append("procedure pr(y) { " + proc + " }")
        if r.random() < 0.5:
            lines.append(f"trigger tr when {self.expr('bool', 2)} {{ {self.simple()} }}")
        if r.random() < 0.5:
            lines.append(f"invariant inv: {self.expr('bool', 2)}")
        if r.random() < 0.5:
            lines.append(f"define score(p) = w[p] + {self.expr('int', 2)}")
            lines.append(f"winner(p): {self.pick(['highest', 'lowest'])} score(p)")
        lines.append("flow {\n" + "\n".join(self.stmt(2) for _ in range(r.randint(1, 4))) + "\n}")
        return "\n".join(lines) + "\n"


# ---- mutations of the game files

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[+\-=!<>]=|\s+|.', re.S)
ODD_TOKENS = ["0", "-1", "100000", "{", "}", "(", ")", "[", "]", "..", "=", ",", "\"", "\"{\"", "none", "each",
              "current", "players", "track(0)", "in", "if", "move", "\ufeff", "\u00e9", "99999999999999999999"]


def mutate(rng: random.Random, texts: dict) -> tuple[str, str]:
    path = rng.choice(sorted(texts))
    text = texts[path]
    for _ in range(rng.randint(1, 4)):
        units = text.splitlines(keepends=True) if rng.random() < 0.5 else TOKEN.findall(text)
        if not units:
            break
        i, j = rng.randrange(len(units)), rng.randrange(len(units))
        how = rng.choice(["delete", "duplicate", "swap", "replace"])
        if how == "delete":
            del units[i]
        elif how == "duplicate":
            units.insert(i, units[i])
        elif how == "swap":
            units[i], units[j] = units[j], units[i]
        else:
            units[i] = rng.choice(ODD_TOKENS) if rng.random() < 0.5 else rng.choice(units)
        text = "".join(units)
    return path, text


# ---- the edges the language must bound (issue 22, parts 2 and 3)

BASE = ('game "Edge"\nplayers 2..2\nvar v: int = 2\nvar w[player]: int = 0\nvar flag: bool = false\n'
        'zone z: pile public\n')


LIMIT_KINDS = ("defines", "ifs", "and", "literal", "squaring", "params", "score", "parens", "work")


def limits(rng: random.Random, kind: str) -> str:
    if kind == "defines":  # each define uses the one before twice
        depth = rng.randint(8, 20)
        lines = ["define d0(y) = y + 1"] + [f"define d{i}(y) = d{i - 1}(y) + d{i - 1}(y)" for i in range(1, depth)]
        return BASE + "\n".join(lines) + f"\nflow {{ v = d{depth - 1}(1) }}\n"
    if kind == "ifs":
        depth = rng.randint(50, 600)
        return BASE + "flow {\n" + "if flag { " * depth + "v = 1" + " }" * depth + "\n}\n"
    if kind == "and":
        terms = rng.randint(50, 800)
        return BASE + "flow {\n  flag = " + " and ".join(["v > 0"] * terms) + "\n}\n"
    if kind == "literal":
        digits = rng.randint(100, 6000)
        return BASE + f"flow {{ v = {'9' * digits} }}\n"
    if kind == "squaring":
        times = rng.randint(5, 40)
        return BASE + f"flow {{ repeat {times} times {{ v = v * v }} }}\n"
    if kind == "params":
        size, count = rng.choice([10, 100, 1000]), rng.randint(1, 3)
        names = ", ".join(f"a{i} in 1..{size}" for i in range(count))
        return BASE + ("flow {\n  turns from 0 until v > 3 {\n    choose go by current {\n"
                       f"      move m({names}) {{ v += 1 }}\n    }}\n  }}\n}}\n")
    if kind == "work":  # an endless loop whose every step goes through a long range or a big zone
        size = rng.choice([1000, 10000, 100000])
        if rng.random() < 0.5:
            return BASE + f"flow {{ while true {{ v = count(each i in 1..{size} where i > v) }} }}\n"
        cards = min(size, 10000)
        return BASE.replace("zone z: pile public\n", f"kind token {{ n: 1..{cards} }}\ncards token(n: each) in z\n"
                            "zone z: pile public\nzone y: pile public\n") + rng.choice([
            "flow { while true { v = count(each c in z where c.n > v) } }\n",
            "flow { while true { put z into y\n put y into z } }\n",
            "flow { while true { shuffle z } }\n"])
    if kind == "score":
        times = rng.randint(10, 16)
        return BASE + (f"define score(p) = v\nwinner(p): highest score(p)\n"
                       f"flow {{ repeat {times} times {{ v = v * v }} }}\n")
    depth = rng.randint(50, 2000)
    return BASE + "flow { v = " + "(" * depth + "1" + ")" * depth + " }\n"


def make_case(source: str, seed: int, index: int, texts: dict) -> tuple[str, str]:
    """The file (name, text) number ``index`` of ``source`` for ``seed``: the same every time."""
    rng = random.Random(f"{source}:{seed}:{index}")
    if source == "grammar":
        return str(games_folder() / "fuzz.rules"), Grammar(rng).file()
    if source == "mutation":
        return mutate(rng, texts)
    kind = rng.choice(LIMIT_KINDS)
    return str(games_folder() / f"edge-{kind}.rules"), limits(rng, kind)


# ---- checking one file (in a worker)


def check_one(name: str, text: str, seed: int, report=lambda phase: None) -> dict:
    """Load ``text`` and play it; what happened, with the CPU time of the check and the play's time."""
    import ruledsl
    from ruledsl import RuledslError, RulesError

    out = {"loaded": False, "check_cpu": 0.0, "run_seconds": 0.0, "run_cpu": 0.0, "moves": 0, "problem": None}
    report("check")
    started = time.process_time()
    try:
        game = ruledsl.loads(text, name)
        out["loaded"] = True
    except RulesError:
        pass
    except RuledslError:
        pass
    except BaseException as exc:  # noqa: BLE001 - this is what the fuzzer looks for
        out["problem"] = _escaped("check", exc)
    out["check_cpu"] = time.process_time() - started
    if not out["loaded"]:
        return out
    report("run")
    rng = random.Random(seed)
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        state = game.new_game(None, seed)
        while not state.is_over and out["moves"] < RUN_MOVES:
            moves = state.legal_moves()
            state.describe(moves[0])
            state.view(state.current_player)
            state.apply(rng.choice(moves))
            out["moves"] += 1
        state.broken_invariants()
        game.state_from_json(state.to_json())
        str(state.scores), str(state.winners)  # as the command prints them
    except RuledslError:
        pass
    except BaseException as exc:  # noqa: BLE001
        out["problem"] = _escaped("run", exc)
    out["run_seconds"] = time.perf_counter() - started
    out["run_cpu"] = time.process_time() - cpu_started
    return out


def _escaped(phase: str, exc: BaseException) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    where = [f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in frames if "ruledsl" in f.filename][-3:]
    return {"phase": phase, "type": type(exc).__name__, "message": str(exc)[:300], "where": where}


def prepared_worker() -> contextlib.AbstractContextManager:
    """Make this process a worker of the fuzzer, for as long as the returned context lasts.

    What is the same for every case is made once: the built parser is read (from the user's cache,
    or built); then the disk cache is turned off for this process (``RULEDSL_CACHE_DIR=""``), so that
    no case writes a syntax tree and a compiled module to it (two files a case, each write pruning
    the directory, and the user's own games pushed out of it), and a text parsed once is not parsed
    again while it lasts (the library files the cases include, ``mutate.run.shared_parses``). A case
    is checked exactly as without them: a cache only ever gives the tree or code of the same text."""
    from ruledsl.language.parse import parser
    from ruledsl.mutate.run import shared_parses

    parser()
    os.environ["RULEDSL_CACHE_DIR"] = ""
    return shared_parses()


def _worker(conn) -> None:
    if resource is not None:
        try:
            limit = 2 * 1024 ** 3  # a file that takes more memory than this is a finding, not a swapped machine
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):
            pass
    with prepared_worker():
        while True:
            job = conn.recv()
            if job is None:
                return
            name, text, seed = job
            result = check_one(name, text, seed, lambda phase: conn.send(("phase", phase)))
            result["worker_cpu"] = time.process_time()  # this process's CPU so far, for the running figures
            conn.send(("result", result))


def process_cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the workers, once joined)."""
    if resource is None:
        return time.process_time()
    own, ended = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


class Worker:
    def __init__(self, ctx):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.cpu = 0.0  # the CPU the worker has used so far, as it last said

    def run(self, name: str, text: str, seed: int, timeout: float) -> tuple[str, dict | str]:
        """("result", outcome) or ("hang", phase) when the worker does not finish in time (it is stopped)."""
        self.conn.send((name, text, seed))
        phase = "check"
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self.conn.poll(left):
                self.stop()
                return "hang", phase
            try:
                kind, value = self.conn.recv()
            except (EOFError, OSError):
                self.stop()
                return "died", phase
            if kind == "phase":
                phase = value
                if value == "run":
                    deadline = time.monotonic() + timeout
            else:
                self.cpu = value.pop("worker_cpu", self.cpu)
                return "result", value

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)


# ---- the run


def signature(finding: dict) -> str:
    """Findings alike share one signature: only the first of each is written out."""
    text = f"{finding['kind']} {finding.get('type', '')} {finding.get('phase', '')} {finding.get('source', '')}"
    if finding.get("source") == "limits":  # one of each edge: edge-ifs.rules, edge-and.rules ...
        text += " " + Path(finding["file"]).name
    return re.sub(r"\d+", "N", text + " " + " ".join(finding.get("where", [])[-1:]))


def fuzz(minutes: float | None = None, cases: int | None = None, seed: int = 0, sources=SOURCES,
         out: str | None = None, timeout: float = 30.0, echo=print, offset: int = 0, stride: int = 1) -> dict:
    """Check generated files until ``minutes`` pass or ``cases`` are done; the figures and the findings.

    With ``stride`` > 1 this is one of several fuzzers side by side: it takes files ``offset``,
    ``offset + stride`` ... of the sequence, so that together they check each file once."""
    texts = game_texts()
    ctx = multiprocessing.get_context("spawn")
    worker = Worker(ctx)
    stop_at = None if minutes is None else time.monotonic() + minutes * 60
    stats = {"cases": 0, "by_source": {s: 0 for s in sources}, "loaded": 0, "escaped": 0, "slow_checks": 0,
             "slow_runs": 0, "hangs": 0, "max_check_cpu": 0.0, "max_run_seconds": 0.0, "max_run_cpu": 0.0,
             "max_check_case": "", "max_run_case": "", "max_run_moves": 0, "moves": 0,
             "findings": [], "seconds": 0.0, "cpu": 0.0, "seed": seed, "found_by_source": {}}
    seen: set = set()
    started, cpu_started = time.monotonic(), process_cpu()
    last_echo = started
    folder = Path(out) if out else None
    parent = os.getppid()  # a fuzzer side by side stops when the run that started it is gone (killed)
    try:
        index = offset
        while (cases is None or stats["cases"] < cases) and (stop_at is None or time.monotonic() < stop_at):
            if stride > 1 and os.getppid() != parent:
                break
            source = sources[index % len(sources)]
            name, text = make_case(source, seed, index // len(sources), texts)
            kind, value = worker.run(name, text, index // len(sources), timeout)  # seed N, as --case plays it
            stats["cases"] += 1
            stats["by_source"][source] += 1
            found = []
            if kind != "result":
                stats["hangs"] += 1
                found.append({"kind": "hang" if kind == "hang" else "worker died", "phase": value,
                              "message": f"no answer in {timeout:.0f} s" if kind == "hang" else "the worker died"})
                worker = Worker(ctx)
            else:
                stats["loaded"] += value["loaded"]
                stats["moves"] += value["moves"]
                case = f"{source}:{index // len(sources)}"
                if value["check_cpu"] > stats["max_check_cpu"]:
                    stats["max_check_cpu"], stats["max_check_case"] = value["check_cpu"], case
                if value["run_cpu"] > stats["max_run_cpu"]:
                    stats["max_run_cpu"], stats["max_run_case"] = value["run_cpu"], case
                    stats["max_run_seconds"], stats["max_run_moves"] = value["run_seconds"], value["moves"]
                if value["problem"]:
                    stats["escaped"] += 1
                    found.append({"kind": "exception", **value["problem"]})
                if value["check_cpu"] > CHECK_CPU_LIMIT:
                    stats["slow_checks"] += 1
                    found.append({"kind": "slow check", "message": f"{value['check_cpu']:.1f} s CPU"})
                if value["run_cpu"] > RUN_LIMIT:  # CPU, not the clock: a busy machine is no finding
                    stats["slow_runs"] += 1
                    found.append({"kind": "slow run", "message": f"{value['run_cpu']:.1f} s CPU "
                                  f"({value['run_seconds']:.1f} s) for {value['moves']} moves"})
            for f in found:
                f.update(source=source, case=index // len(sources), file=name)
                stats["found_by_source"][source] = stats["found_by_source"].get(source, 0) + 1
                sig = signature(f)
                if sig in seen:
                    continue
                seen.add(sig)
                stats["findings"].append(f)
                echo(f"found: {f['kind']} ({source} #{index // len(sources)}): {f.get('type', '')} "
                     f"{f.get('message', '')[:160]}")
                if folder is not None:
                    folder.mkdir(parents=True, exist_ok=True)
                    number = f"{offset}-{len(stats['findings']):03d}" if stride > 1 else f"{len(stats['findings']):03d}"
                    path = folder / f"{number}-{source}-{f['kind'].replace(' ', '_')}.rules"
                    header = "".join(f"# {k}: {v}\n" for k, v in f.items() if k != "file")
                    path.write_text(header + f"# reproduce: python -m ruledsl.fuzz --seed {seed} --case "
                                             f"{source}:{index // len(sources)}\n" + text, encoding="utf-8")
                    f["saved"] = str(path)
            index += stride
            if time.monotonic() - last_echo > 30:
                last_echo = time.monotonic()
                stats["cpu"] = process_cpu() - cpu_started + worker.cpu
                echo(_summary(stats, time.monotonic() - started))
    finally:
        try:
            worker.conn.send(None)
        except OSError:
            pass
        worker.stop()
    stats["seconds"] = time.monotonic() - started
    stats["cpu"] = process_cpu() - cpu_started  # the workers' too: each is joined by now
    return stats


def _summary(stats: dict, seconds: float) -> str:
    """The figures of a run in one paragraph, as docs/fuzzing.md quotes them."""
    rate = stats["cases"] / seconds * 60 if seconds else 0.0
    cpu = stats.get("cpu", 0.0)
    per_cpu = f", {stats['cases'] / cpu * 60:,.0f} per CPU-minute ({cpu:,.0f} s CPU)" if cpu else ""
    sources = ", ".join(f"{k} {v:,}" + (f" with {stats['found_by_source'][k]} findings"
                                        if stats["found_by_source"].get(k) else "")
                        for k, v in stats["by_source"].items())
    slowest_check = f"{stats['max_check_cpu']:.2f} s CPU" + (f" ({stats['max_check_case']})"
                                                            if stats.get("max_check_case") else "")
    slowest_run = f"{stats['max_run_cpu']:.2f} s CPU, {stats['max_run_seconds']:.2f} s on the clock" + (
        f", {stats['max_run_moves']} moves ({stats['max_run_case']})" if stats.get("max_run_case") else "")
    return (f"{stats['cases']:,} files ({sources}) in {seconds:,.0f} s: {rate:,.0f} a minute{per_cpu}; "
            f"{stats['loaded']:,} loaded, {stats['moves']:,} moves played; {stats['escaped']} exceptions outside "
            f"ruledsl's errors, {stats['slow_checks']} checks over {CHECK_CPU_LIMIT:.0f} s CPU, {stats['slow_runs']} "
            f"runs over {RUN_LIMIT:.0f} s CPU, {stats['hangs']} hangs; slowest check {slowest_check}, "
            f"slowest run {slowest_run}")


def _one_of_many(job: dict) -> dict:
    job = dict(job)
    prefix = f"[{job['offset'] + 1}/{job['stride']}] "
    job["echo"] = lambda line: print(prefix + line, flush=True)
    return fuzz(**job)


def fuzz_side_by_side(jobs: int, **kwargs) -> dict:
    """``jobs`` fuzzers in their own processes, each a share of the files; their figures added up."""
    from concurrent.futures import ProcessPoolExecutor

    cases = kwargs.pop("cases", None)
    tasks = [{**kwargs, "offset": k, "stride": jobs,
              "cases": None if cases is None else (cases - k + jobs - 1) // jobs} for k in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(_one_of_many, tasks))
    return add_up(parts)


def add_up(parts: list) -> dict:
    """The figures of fuzzers run side by side as one run's: counts and CPU added, the clock of the
    longest, the slowest case of all (with its name)."""
    total = copy.deepcopy(parts[0])
    for part in parts[1:]:
        # the slowest case of all, with its name (and the play's clock and moves)
        for phase, also in (("check", ()), ("run", ("max_run_seconds", "max_run_moves"))):
            if part[f"max_{phase}_cpu"] > total[f"max_{phase}_cpu"]:
                for key in (f"max_{phase}_cpu", f"max_{phase}_case", *also):
                    total[key] = part[key]
        for key, value in part.items():
            if key in ("by_source", "found_by_source"):
                for k, v in value.items():
                    total[key][k] = total[key].get(k, 0) + v
            elif key.startswith("max_"):
                continue
            elif key == "seconds":
                total[key] = max(total[key], value)
            elif key == "findings":
                total[key] = total[key] + value
            elif key != "seed":
                total[key] += value
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ruledsl.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=None, help="stop after this many minutes")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many files")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the generators (default 0)")
    parser.add_argument("--sources", default=",".join(SOURCES),
                        help=f"which generators, separated by commas (default {','.join(SOURCES)})")
    parser.add_argument("--out", default="fuzz-findings", help="folder for the findings (default fuzz-findings)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a file counts as a hang")
    parser.add_argument("--jobs", type=int, default=1, help="fuzzers side by side, one per core (default 1)")
    parser.add_argument("--case", default=None, metavar="SOURCE:N", help="print file N of SOURCE and check it")
    args = parser.parse_args(argv)
    sources = tuple(s for s in args.sources.split(",") if s)
    unknown = [s for s in sources if s not in SOURCES]
    if unknown or not sources:
        parser.error(f"--sources: choose from {', '.join(SOURCES)}")
    if args.case:
        source, _, n = args.case.partition(":")
        if source not in SOURCES or not n.isdigit():
            parser.error("--case: SOURCE:N, such as grammar:12")
        name, text = make_case(source, args.seed, int(n), game_texts())
        print(text, end="")
        print(check_one(name, text, int(n)), file=sys.stderr)
        return 0
    if args.minutes is None and args.cases is None:
        args.minutes = 10.0
    try:
        common = dict(minutes=args.minutes, cases=args.cases, seed=args.seed, sources=sources, out=args.out,
                      timeout=args.timeout)
        stats = fuzz(**common) if args.jobs <= 1 else fuzz_side_by_side(args.jobs, **common)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    print(_summary(stats, stats["seconds"]))
    return 1 if stats["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
