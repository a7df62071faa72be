"""Scenarios: tests a game designer writes in the rules language.

A scenario file (``games/x.test.rules``) names the rules file it tests and
lists named scenarios. Each sets up a position in game terms (player count,
seed, parameters, cards by label into zones and track slots, variables),
plays moves by their described names (``play(5♥)``) and states what must
hold at that point (``expect ...``). :mod:`ruledsl.scenario_syntax` parses
such files; this module compiles the rules file once per set of parameters
with the scenarios' expressions in scope, and runs scenarios into
:class:`Outcome` values. The CLI (``ruledsl test``) and the pytest plugin
print them.

Expressions after ``expect`` are compiled by the ordinary checker and
compiler: each becomes a hidden invariant of the compiled game, so an
expectation sees exactly the names a rule sees.
"""

from __future__ import annotations

import difflib
import fnmatch
from pathlib import Path

import attrs

from ..checker.check import check
from ..compiler.compiler import _Compiler
from ..engine.game import Game
from ..engine.state import State
from ..language import ast as A
from ..language.assemble import Assembly, assemble
from ..language.errors import (
    Diagnostic,
    ParameterError,
    RulesError,
    RulesRuntimeError,
    Span,
    decode_source,
)
from .expectations import Expectations
from .outcome import (
    Outcome,
    _Error,
    _Failed,
    _finding,
    _moves_text,
    _sides,
    _Synthetic,
    position,
)
from .syntax import (
    Assign,
    Cards,
    Expect,
    Gather,
    MoveText,
    New,
    Play,
    Players,
    Scenario,
    ScenarioSource,
    Seed,
    SetParam,
    Slots,
    _diag,
    _text_of,
    parse_scenarios,
)

SUFFIX = ".test.rules"
_EXPECT_PREFIX = "scenario_expect_"


# ---- the loaded file: the games it plays ---------------------------------------


class ScenarioFile:
    """A scenario file with the rules file it names, compiled once per set of parameters."""

    def __init__(self, source: ScenarioSource, rules_path: str, rules_text: str, read=None):
        self.read = read  # how the files the rules include or extend are read (None: from disk)
        self.source = source
        self.path = source.path
        self.rules_path = rules_path
        self.rules_text = rules_text
        self.by_name = {s.name: s for s in source.scenarios}
        self._games: dict = {}
        self._expects: dict = {}  # id(Expect) -> invariant index, per game
        self.texts = {source.path: source.text, **dict(source.texts)}

    @property
    def scenarios(self) -> tuple:
        return self.source.scenarios

    def steps(self, scenario: Scenario) -> list:
        """The statements a scenario runs: its base's first, then its own."""
        chain = []
        cur = scenario
        while cur is not None:
            chain.append(cur)
            cur = self.by_name.get(cur.base) if cur.base else None
        out = list(self.source.options if scenario.options is None else scenario.options)
        for sc in reversed(chain):
            out.extend(sc.stmts)
        return out

    def params_of(self, scenario: Scenario) -> dict:
        return {s.name: s.value for s in self.steps(scenario) if isinstance(s, SetParam)}

    def game(self, params: dict) -> tuple[Game, dict]:
        """The rules compiled with ``params`` and every expectation of the file; RulesError if broken."""
        key = tuple(sorted(params.items()))
        if key not in self._games:
            holds = [s for sc in self.scenarios for s in sc.stmts if isinstance(s, Expect) and s.kind == "holds"]
            base = assemble(self.rules_text, self.rules_path, read=self.read)
            extra = tuple(A.InvariantDef(f"{_EXPECT_PREFIX}{i}", None, None, e.args[0], None, span=e.span)
                          for i, e in enumerate(holds))
            texts = dict(base.texts)
            texts[self.path] = self.source.text
            texts.update(self.source.texts)
            assembly = Assembly(base.items + extra, texts, base.replaced, base.extensions)
            model = check(assembly, params)
            counts = range(model.min_players, model.max_players + 1) if model.by_players else [None]
            programs, found = {}, {}  # found: per player count (None: one program for every count)
            for n in counts:
                compiler = _Compiler(model if n is None else model.for_players(n))
                program = compiler.run()
                found[n] = {}
                for inv in program.invariants:
                    if inv.name.startswith(_EXPECT_PREFIX):
                        e = holds[int(inv.name[len(_EXPECT_PREFIX):])]
                        sides = [(_text_of(texts.get(x.span.file, ''), x.span), *compiler.expr(x)) for x in _sides(e.args[0])]
                        found[n][id(e)] = (inv, sides)
                program.invariants = [inv for inv in program.invariants if not inv.name.startswith(_EXPECT_PREFIX)]
                programs[n] = program
            first = programs[counts[0]]
            self._games[key] = (Game(first, programs if model.by_players else None), found)
            self.texts.update(texts)
        return self._games[key]

    def check(self) -> None:
        """Compile the rules with every scenario's parameters; raise RulesError listing the problems."""
        errors = []
        seen = set()
        for sc in self.scenarios:
            params = self.params_of(sc)
            key = tuple(sorted(params.items()))
            if key in seen:
                continue
            seen.add(key)
            try:
                self.game(params)
            except RulesError as err:
                errors.extend(d for d in err.diagnostics if d not in errors)
            except ParameterError as err:
                errors.append(_diag(self.texts, "E302", str(err), self._param_span(sc, str(err))))
        if not errors:
            checked = set()
            for sc in self.scenarios:
                program = self.game(self.params_of(sc))[0].program
                for stmt in sc.stmts:
                    if id(stmt) not in checked:
                        checked.add(id(stmt))
                        errors.extend(_lint(self.texts, program, stmt))
        if errors:
            raise RulesError(errors)

    def _param_span(self, scenario: Scenario, message: str) -> Span:
        """The `param` statement a parameter error is about, or the scenario."""
        for stmt in self.steps(scenario):
            if isinstance(stmt, SetParam) and f"'{stmt.name}'" in message or (
                    isinstance(stmt, SetParam) and f"`{stmt.name}`" in message):
                return stmt.span
        return scenario.span

    def select(self, pattern: str | None) -> list[Scenario]:
        """The scenarios whose name contains ``pattern`` or matches it as a glob (all if None)."""
        if not pattern:
            return list(self.scenarios)
        return [s for s in self.scenarios if pattern in s.name or fnmatch.fnmatchcase(s.name, pattern)]

    def run(self, scenario: Scenario) -> "Outcome":
        return _Run(self, scenario).go()


def scenario_file_for(path) -> Path | None:
    """The scenario file beside a rules file: ``x.rules`` -> ``x.test.rules``, if it exists."""
    p = Path(path)
    if p.name.endswith(SUFFIX):
        return p
    candidate = p.with_name(p.name[:-len(".rules")] + SUFFIX) if p.name.endswith(".rules") else None
    return candidate if candidate is not None and candidate.is_file() else None


def _read_scenarios(path, stack: tuple = ()) -> ScenarioSource:
    """Read and parse a scenario file, with the scenarios of the files it includes."""
    p = Path(path)
    shown = str(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise RulesError([Diagnostic("E001", f"no such scenario file: {path}", Span(shown))]) from None
    except OSError as exc:
        raise RulesError([Diagnostic("E001", f"cannot read {path}: {exc.strerror or exc}", Span(shown))]) from None
    text = decode_source(data, shown)  # a byte-order mark is dropped; bytes that are not UTF-8 are E002
    source = parse_scenarios(text, shown)
    return _with_includes(source, p, stack + (p.resolve(),)) if source.includes else source


def _with_includes(source: ScenarioSource, p: Path, stack: tuple) -> ScenarioSource:
    """``include "x.test.rules" except a, b``: x's scenarios (but a and b), with x's own settings, first.

    They run against the rules this file names, not the ones x names: a variant's scenario file
    includes its base game's, so the variant is held to every rule it does not change."""
    texts = {source.path: source.text}
    errors = []
    merged: list = []
    own = {sc.name: sc for sc in source.scenarios}
    for inc in source.includes:
        target = p.parent / inc.path
        if not inc.path.endswith(SUFFIX):
            errors.append(_diag(texts, "E300", f"an included file is a scenario file (*{SUFFIX}): \"{inc.path}\"",
                                inc.span))
            continue
        if target.resolve() in stack:
            errors.append(_diag(texts, "E300", f"\"{inc.path}\" includes itself", inc.span))
            continue
        if not target.is_file():
            errors.append(_diag(texts, "E300", f"cannot find the scenario file \"{inc.path}\"", inc.span,
                                "the path is relative to the scenario file that includes it"))
            continue
        included = _read_scenarios(target, stack)
        texts.update({included.path: included.text, **dict(included.texts)})
        names = {sc.name: sc for sc in included.scenarios}
        left_out = set()
        for name, span in inc.leave_out:
            if name not in names:
                errors.append(_diag(texts, "E301", f"\"{inc.path}\" has no scenario `{name}` to leave out", span,
                                    _close(name, names)))
            left_out.add(name)
        for sc in included.scenarios:
            if sc.name in left_out:
                continue
            if sc.base in left_out:
                errors.append(_diag(texts, "E301", f"`{sc.base}` is left out, but `{sc.name}` of \"{inc.path}\" "
                                    "starts from it", inc.span))
                continue
            if sc.name in own or any(m.name == sc.name for m in merged):
                clash = own.get(sc.name)
                errors.append(_diag(texts, "E301", f"scenario `{sc.name}` is defined twice (also in \"{inc.path}\")",
                                    clash.span if clash is not None else inc.span))
                continue
            merged.append(sc if sc.options is not None else attrs.evolve(sc, options=included.options))
    known = {sc.name for sc in merged} | set(own)
    for sc in source.scenarios:
        if sc.base is not None and sc.base not in known:
            errors.append(_diag(texts, "E301", f"scenario `{sc.name}` starts from `{sc.base}`, "
                                "which is no scenario of this file or of the files it includes", sc.span))
    if errors:
        raise RulesError(errors)
    return attrs.evolve(source, scenarios=tuple(merged) + source.scenarios,
                        texts=tuple((k, v) for k, v in texts.items() if k != source.path))


def load_scenarios(path) -> ScenarioFile:
    """Read a scenario file and the rules file it names; raise RulesError if either cannot be read or parsed."""
    p = Path(path)
    shown = str(path)
    source = _read_scenarios(path)
    text = source.text
    rules = p.parent / source.rules
    try:
        rules_data = rules.read_bytes()
    except OSError:
        raise RulesError([_diag({shown: text}, "E208", f"cannot read the rules file \"{source.rules}\"",
                                source.rules_span, "the path is relative to the scenario file")]) from None
    rules_text = decode_source(rules_data, str(rules))
    return ScenarioFile(source, str(rules), rules_text)


def _lint(texts: dict, program, stmt) -> list:
    """Names a statement uses that the game does not have: zones, cards, variables, moves."""
    out = []

    def zone(ref):
        if ref.name not in program.zone_families:
            out.append(_diag(texts, "E303", f"there is no zone `{ref.name}`", ref.span,
                             _close(ref.name, program.zone_families)))

    def cards(labels, span):
        for label in labels:
            if label is not None and label not in program.card_labels:
                out.append(_diag(texts, "E303", f"there is no card {label} in this game", span,
                                 _close(label, set(program.card_labels))))

    def moves(texts_, span):
        names = {o.name for c in program.choices for o in c.options}
        for m in texts_:
            if m.name not in names:
                out.append(_diag(texts, "E303", f"no decision of the game has a move `{m.name}`", m.span,
                                 _close(m.name, names)))
            cards([v for kind, v in m.args if kind == "card"], m.span)
            families = {f.partition(".")[0] for f in program.zone_families}
            for place in m.places:
                if place is not None and place.partition("[")[0].partition(".")[0] not in families:
                    out.append(_diag(texts, "E303", f"there is no zone `{place}`", m.span,
                                     _close(place.partition("[")[0], families)))

    if isinstance(stmt, (Gather, Cards, Slots)):
        zone(stmt.zone)
        if not isinstance(stmt, Gather):
            cards(stmt.cards, stmt.span)
    elif isinstance(stmt, New):
        zone(stmt.zone)
    elif isinstance(stmt, Assign):
        name = stmt.target.name + (f".{stmt.target.member}" if stmt.target.member else "")
        if name != "current" and name not in program.var_families:
            out.append(_diag(texts, "E303", f"there is no variable `{name}`", stmt.target.span,
                             _close(name, program.var_families)))
        if isinstance(stmt.value, tuple) and stmt.value[0] == "card" and stmt.value[1] is not None:
            cards([stmt.value[1]], stmt.span)
    elif isinstance(stmt, Play):
        moves(stmt.moves, stmt.span)
    elif isinstance(stmt, Expect):
        if stmt.kind in ("legal", "moves"):  # an illegal move may well name no move of the game
            moves([a for a in stmt.args if isinstance(a, MoveText)]
                  + [m for a in stmt.args if isinstance(a, tuple) for m in a if isinstance(m, MoveText)],
                  stmt.span)
        if stmt.kind in ("cards", "slots", "card_in", "card_not_in", "sees", "does_not_see", "differs", "ends"):
            zone(next(a for a in stmt.args if isinstance(a, A.ZoneRef)))
        if stmt.kind in ("cards", "slots", "ends"):
            cards(stmt.args[-1], stmt.span)
        if stmt.kind in ("card_in", "card_not_in"):
            cards([stmt.args[0]], stmt.span)
        if stmt.kind == "decision" and stmt.args[0] not in {c.name for c in program.choices}:
            names = {c.name for c in program.choices}
            out.append(_diag(texts, "E303", f"the game has no decision `{stmt.args[0]}`", stmt.span,
                             _close(stmt.args[0], names)))
    return out


def _close(name: str, candidates) -> str | None:
    found = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return f"did you mean `{found[0]}`?" if found else None


# ---- running a scenario ----------------------------------------------------------


class _Run(Expectations):
    def __init__(self, file: ScenarioFile, scenario: Scenario):
        self.file = file
        self.scenario = scenario
        self.players = None
        self.players_span = None
        self.seed = 0
        self.params: dict = {}
        self.state: State | None = None
        self.placed: set = set()
        self.checked = 0

    def go(self) -> Outcome:
        sc = self.scenario
        stmt = None
        try:
            for stmt in self.file.steps(sc):
                self.step(stmt)
            self.start(sc.span)
        except RulesRuntimeError as err:  # a rule that fails where no statement expects it (listing the moves)
            where = stmt.span if stmt is not None else sc.span
            text = (getattr(stmt, "text", "") or _text_of(self.file.texts.get(where.file, ''), where)) if stmt is not None else ""
            return Outcome(sc.name, sc.span, "failed", text, where, f"a rule could not be carried out: {_finding(err)}",
                           tuple(position(self.state)) if self.state is not None else (), checked=self.checked)
        except _Failed as f:
            text = getattr(f.stmt, "text", "") or _text_of(self.file.texts.get(f.stmt.span.file, ''), f.stmt.span)
            return Outcome(sc.name, sc.span, "failed", text, f.stmt.span, f.found,
                           tuple(position(f.state, f.focus)) if f.state is not None else (), checked=self.checked)
        except _Error as e:
            return Outcome(sc.name, sc.span, "error", diagnostic=_diag(self.file.texts, "E303", e.message, e.span,
                                                                       e.hint))
        except RulesError as err:
            return Outcome(sc.name, sc.span, "error", diagnostic=err.diagnostics[0] if len(err.diagnostics) == 1
                           else Diagnostic("E303", str(err), sc.span))
        return Outcome(sc.name, sc.span, "passed", checked=self.checked)

    # ---- the game

    def start(self, span: Span) -> State:
        if self.state is None:
            game, expects = self._game(span)
            try:
                self.state = game.new_game(self.players, self.seed)
                self.expects = expects.get(self.state.n, expects.get(None))
            except ParameterError as err:
                raise _Error(str(err), self.players_span or span) from None
            except RulesRuntimeError as err:
                raise _Failed(_Synthetic(span), f"the game cannot start: {_finding(err)}", None) from None
        return self.state

    def _game(self, span: Span):
        try:
            return self.file.game(self.params)
        except ParameterError as err:
            raise _Error(str(err), span) from None

    def step(self, stmt) -> None:
        if isinstance(stmt, (Players, Seed, SetParam)):
            if self.state is not None:
                word = {Players: "players", Seed: "seed", SetParam: "param"}[type(stmt)]
                raise _Error(f"`{word}` must come before the position is set up or a move is made", stmt.span)
            if isinstance(stmt, Players):
                self.players = stmt.count
                self.players_span = stmt.span
            elif isinstance(stmt, Seed):
                self.seed = stmt.seed
            else:
                self.params[stmt.name] = stmt.value
            return
        s = self.start(stmt.span)
        handler = getattr(self, "do_" + type(stmt).__name__.lower())
        handler(s, stmt)

    # ---- setting up a position

    def zone_name(self, ref: A.ZoneRef) -> str:
        parts = []
        for e in ref.indices:
            if isinstance(e, A.IntLit):
                parts.append(str(e.value))
            elif isinstance(e, A.Name):
                parts.append(e.name)
            else:
                raise _Error("write a number or a name inside the brackets here", e.span)
        member = f".{ref.member}" if ref.member else ""
        return ref.name + (f"[{', '.join(parts)}]" if parts else "") + member

    def zone(self, s: State, ref: A.ZoneRef):
        name = self.zone_name(ref)
        try:
            return s.program.zones[s.zone_id(name)]
        except ParameterError as err:
            raise _Error(str(err), ref.span) from None

    def card(self, s: State, label, span: Span) -> int:
        if label is None:
            raise _Error("`none` stands for an empty slot of a track; here list the cards", span,
                         "to empty a zone, gather all cards into another zone first")
        ids = s.cards_named(label)
        if not ids:
            raise _Error(f"there is no card {label} in this game", span)
        spare = [c for c in ids if c not in self.placed]
        if not spare:
            copies = "its only copy" if len(ids) == 1 else f"all {len(ids)} copies"
            raise _Error(f"no spare {label}: this scenario has already placed {copies}", span,
                         "a card can be in one place only")
        self.placed.add(spare[0])
        return spare[0]

    def do_gather(self, s: State, stmt: Gather) -> None:
        z = self.zone(s, stmt.zone)
        if z.places:
            raise _Error(f"{z.name} is a track; gather the cards into a pile or a row", stmt.zone.span)
        for cid in range(s.program.card_count):
            if s.loc[cid] != z.zid:
                s.place(cid, z.name)
        self.placed.clear()

    def do_cards(self, s: State, stmt: Cards) -> None:
        z = self.zone(s, stmt.zone)
        if z.places:
            raise _Error(f"{z.name} is a track: say where, as in `{z.name} at 0: ...`", stmt.zone.span)
        if z.exists is not None and not s.vars[z.exists]:
            head = z.name.split("].")[0].rstrip("]")  # meld[1, 1].pot -> meld[1, 1
            family = head.rsplit(",", 1)[0] + "]" if len(z.index) > 1 else z.family.split(".")[0]
            raise _Error(f"{z.name} is not open", stmt.zone.span, f"open it first: new {family}")
        labels = list(reversed(stmt.cards)) if stmt.top_first else list(stmt.cards)
        for label in labels:
            s.place(self.card(s, label, stmt.span), z.name)

    def do_slots(self, s: State, stmt: Slots) -> None:
        z = self.zone(s, stmt.zone)
        size = len(z.places)
        if not size:
            raise _Error(f"{z.name} has no slots; only tracks do (write `{z.name}: ...`)", stmt.zone.span)
        if not 0 <= stmt.first < size:
            raise _Error(f"{z.name} has slots 0 to {size - 1}, not {stmt.first}", stmt.span)
        for i, label in enumerate(stmt.cards):
            if label is None:
                continue
            slot = (stmt.first + i) % size
            cid = self.card(s, label, stmt.span)
            try:
                s.place(cid, z.name, slot)
            except ParameterError as err:
                raise _Error(str(err), stmt.span) from None

    def do_new(self, s: State, stmt: New) -> None:
        try:
            s.new_member(self.zone_name(stmt.zone))
        except ParameterError as err:
            raise _Error(str(err), stmt.span) from None

    def do_assign(self, s: State, stmt: Assign) -> None:
        name = self.zone_name(stmt.target)
        value = stmt.value
        if name == "current":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < s.n:
                raise _Error(f"`current` is a player from 0 to {s.n - 1}", stmt.span)
            s.current = value
            if not s.over and s.choice >= 0:
                s.actor = s.program.choices[s.choice].actor(s, s.locals)
            s._set_by_hand()
            return
        if isinstance(value, tuple):
            value = value[1]
        try:
            s.set_var(name, value)
        except ParameterError as err:
            raise _Error(str(err), stmt.span) from None

    # ---- moves

    def find(self, s: State, text: MoveText):
        wanted = str(text)
        for m in s.legal_moves():
            if s.describe(m) == wanted:
                return m
        for m in s.legal_moves():  # an enum value may be written by its name as well as by its label
            if s.describe(m, names=True) == wanted:
                return m
        return None

    def do_play(self, s: State, stmt: Play) -> None:
        for i, text in enumerate(stmt.moves):
            last = i == len(stmt.moves) - 1
            if s.over:
                raise _Failed(stmt, f"the game is over before {text}", s)
            m = self.find(s, text)
            if m is None:
                raise _Failed(_Synthetic(text.span, f"move {text}"),
                              f"{text} is not a legal move here (legal: {_moves_text(s)})", s)
            try:
                s.apply(m)
            except RulesRuntimeError as err:
                if last and stmt.fails is not None and stmt.fails in err.message:
                    self.checked += 1
                    return
                raise _Failed(_Synthetic(text.span, f"move {text}"), f"a rule failed: {_finding(err)}", s) from None
            if last and stmt.fails is not None:
                raise _Failed(stmt, f"{text} was played without any rule failing", s)

    # ---- expectations


    # ---- who sees what, the seed, the player count


    def replay_until(self, until, seed: int) -> "_Run":
        """A run of the same scenario with another seed, to be played up to the expectation ``until``."""
        return _Replay(self.file, self.scenario, until, seed)


class _Replay(_Run):
    """A scenario played again with another seed, up to an expectation `differs`."""

    def __init__(self, file: ScenarioFile, scenario: Scenario, until: Expect, seed: int):
        super().__init__(file, scenario)
        self.until = until
        self.forced_seed = seed
        self.seed = seed

    def step(self, stmt) -> None:
        if isinstance(stmt, Seed):
            return  # the seed is the one asked for
        if isinstance(stmt, Expect):
            self.start(stmt.span)  # the expectations held on the first run; only the position matters
            return
        super().step(stmt)
