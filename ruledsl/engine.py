"""The engine: a game's state as plain data, and step / legal_moves / apply.

A :class:`State` holds the zones, the board's places, the variables, the
flow's program counter and locals, whose decision is pending, the random
generator and the moves made. It can be cloned, compared, hashed and saved to
JSON; the same rules, parameters, seed and moves always give the same state.
"""

from __future__ import annotations

import json
import re

import attrs

from . import types as T
from .compile import CHOOSE, MAX_TRIGGER_FIRINGS, Program
from .declare import SEATS_OUT
from .errors import NOWHERE, IllegalMove, ParameterError, RulesRuntimeError, SaveError, Span
from .flowgen import Flow
from .picking import descending
from .rng import seed_state

MAX_STEPS_PER_MOVE = 200_000
_MOVE_TEXT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\((\s*-?[0-9]+\s*(?:,\s*-?[0-9]+\s*)*|\s*)\))?")
SAVE_FORMAT = "ruledsl-state"
SAVE_VERSION = 1


@attrs.frozen(order=True)
class Move:
    """One move a player may make: the name of an option of a decision and its arguments."""

    name: str
    args: tuple = ()

    def __str__(self) -> str:
        return self.name + (f"({', '.join(map(str, self.args))})" if self.args else "")

    def to_json(self) -> list:
        return [self.name, *self.args]

    @classmethod
    def parse(cls, value) -> "Move":
        """A move from a Move, a list/tuple ``[name, *args]`` or text such as ``play(17)``."""
        if isinstance(value, Move):
            return value
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
            args = value[1:]
            if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
                return cls(value[0], tuple(args))
        if isinstance(value, str):
            found = _MOVE_TEXT.fullmatch(value.strip())
            if found:
                inner = found.group(2)
                args = tuple(int(a) for a in inner.split(",")) if inner and inner.strip() else ()
                return cls(found.group(1), args)
        raise IllegalMove(value, "a move is a name and numbers, like play(17) or [\"play\", 17]")


class Game:
    """A compiled rules file with its parameters: the factory of states."""

    def __init__(self, program: Program):
        self.program = program

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def params(self) -> dict:
        return dict(self.program.params)

    def player_count(self, players: int | None = None) -> int:
        """``players``, or the fewest the game allows if None; ParameterError if the game is not for them."""
        p = self.program
        n = p.min_players if players is None else players
        if not isinstance(n, int) or isinstance(n, bool) or not p.min_players <= n <= p.max_players:
            allowed = str(p.min_players) if p.min_players == p.max_players else f"{p.min_players} to {p.max_players}"
            raise ParameterError(f"{p.name} is for {allowed} players, not {players}")
        return n

    def new_game(self, players: int | None = None, seed: int = 0) -> "State":
        """A new game for ``players`` players (the fewest allowed if None), run to its first decision."""
        p = self.program
        n = self.player_count(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ParameterError(f"the seed must be a whole number, not {seed!r}")
        s = State.__new__(State)
        s.game = self
        s.program = p
        s.n = n
        s.seed = seed
        s.zones = [[] for _ in p.zones]
        s.places = [-1] * p.place_count
        s.loc = [0] * p.card_count
        for zid, ids in p.initial:
            s.zones[zid].extend(ids)
            for c in ids:
                s.loc[c] = zid
        s.vars = [None] * p.var_count
        s.locals = [None] * p.local_count
        s.pc = 0
        s.choice = -1
        s.actor = -1
        s.current = 0
        s.rng = seed_state(seed)
        s.grants = []
        s.shown = []
        s.known = []
        s.moves = []
        s.is_over = False
        s.finding = None
        s._legal = None
        for slot, fn in p.var_init:
            s.vars[slot] = _run_rule(fn, s, s.locals, NOWHERE)
        s._run()
        return s

    def replay(self, players: int, seed: int, moves) -> "State":
        """The state reached from a new game by playing ``moves`` in order (a logged set of cards,
        ``["attack", [3, 17]]``, stands for its steps)."""
        from .cardsets import unfold

        s = self.new_game(players, seed)
        for m in unfold(moves):
            s.apply(m)
        return s

    def python_listing(self) -> str:
        """The Python module the engine runs for these rules (flowgen.py), followed by the
        definitions of the names it uses: what ``ruledsl compile --emit-python`` prints."""
        return flow_of(self.program).listing()

    def state_from_json(self, text) -> "State":
        """A state saved with :meth:`State.to_json`; raises SaveError with the reason if it is corrupt."""
        return _load_state(self, text)


def flow_of(program: Program) -> Flow:
    """The program's generated code (flowgen.py), made on first use and kept with the program."""
    flow = program.flow
    if flow is None:
        flow = program.flow = Flow(program, Move, MAX_TRIGGER_FIRINGS)
    return flow


def _run_rule(fn, s, L, span):
    try:
        return fn(s, L)
    except RulesRuntimeError:
        raise
    except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
        raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None


def _explain(exc: Exception) -> str:
    """A Python error inside a compiled rule, in the rules author's words."""
    text = str(exc)
    if "NoneType" in text:
        return "a value is none where a card or a number is needed (no card there, or a variable never set)"
    if isinstance(exc, IndexError):
        return "an index is outside its zone or variable"
    return text


class State:
    """Where a game stands. Plain data: clone(), ==, hash(), to_json()."""

    __slots__ = ("game", "program", "n", "seed", "zones", "places", "loc", "vars", "locals", "pc",
                 "choice", "actor", "current", "rng", "grants", "shown", "known", "moves", "is_over",
                 "finding", "_legal")

    # ---- the OpenSpiel-like surface

    @property
    def current_player(self) -> int:
        """The player who must decide now, or -1 when the game is over."""
        return -1 if self.over else self.actor

    # `is_over` is a plain field (what a playout loop reads after every move); `over` is its other name
    @property
    def over(self) -> bool:
        return self.is_over

    @over.setter
    def over(self, value: bool) -> None:
        self.is_over = value

    @property
    def decision(self) -> str | None:
        """The name of the pending decision (e.g. ``turn``), or None when the game is over."""
        return None if self.over else self.program.choices[self.choice].name

    @property
    def move_count(self) -> int:
        return len(self.moves)

    @property
    def scores(self) -> list[int]:
        score = self.program.score
        span = getattr(score, "span", NOWHERE)
        values = [_run_rule(score, self, i, span) for i in range(self.n)]
        for i, v in enumerate(values):
            if not isinstance(v, int):
                raise RulesRuntimeError(f"the score of player {i} is {'none' if v is None else repr(v)}, "
                                        "not a number", span)
        return values

    @property
    def winners(self) -> list[int]:
        """The players ranked first by the rules' ``winner`` order (ties share it); [] if stopped early."""
        if not self.over or self.finding:
            return []
        when = self.program.winner_when
        if when is not None and not when(self, list(self.locals)):
            return []
        keys = []
        for i in range(self.n):
            key = []
            for fn, highest in self.program.winner_keys:
                span = getattr(fn, "span", NOWHERE)
                v = _run_rule(fn, self, i, span)
                if v is None or isinstance(v, (bool, str)):
                    raise RulesRuntimeError(f"the winner order gives {'none' if v is None else v!r} for player {i}, "
                                            "not a number or a key", span)
                key.append(descending(v) if highest else v)
            keys.append(tuple(key))
        best = min(keys)
        return [i for i in range(self.n) if keys[i] == best]

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make, in a stable order; [] when the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_over else self._enumerate()
        return legal[:]

    def apply(self, move) -> None:
        """Make a move. An illegal move raises IllegalMove and leaves the state unchanged."""
        m = Move.parse(move)
        if self.over:
            raise IllegalMove(m, "the game is over")
        legal = self.legal_moves()
        if m not in legal:
            option_names = {o.name for o in self.program.choices[self.choice].options}
            if m.name not in option_names:
                reason = (f"player {self.actor} is deciding `{self.decision}`, whose moves are "
                          + ", ".join(sorted(option_names)))
            else:
                reason = f"it is not allowed now (legal: {', '.join(self.describe(x) for x in legal[:12])}"
                reason += ", ...)" if len(legal) > 12 else ")"
            raise IllegalMove(m, reason, legal)
        saved = self.clone()
        try:
            self._apply(m)
        except BaseException:
            self._restore(saved)
            raise

    def clone(self) -> "State":
        s = State.__new__(State)
        s.game = self.game
        s.program = self.program
        s.n = self.n
        s.seed = self.seed
        s.zones = list(map(list.copy, self.zones))
        s.places = self.places.copy()
        s.loc = self.loc.copy()
        s.vars = self.vars.copy()
        s.locals = self.locals.copy()
        s.pc = self.pc
        s.choice = self.choice
        s.actor = self.actor
        s.current = self.current
        s.rng = self.rng
        s.grants = list(map(list.copy, self.grants)) if self.grants else []
        s.shown = list(map(list.copy, self.shown)) if self.shown else []
        s.known = self.known  # never changed in place
        s.moves = self.moves.copy()
        s.is_over = self.is_over
        s.finding = self.finding
        s._legal = self._legal
        return s

    def _restore(self, other: "State") -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))

    def _key(self) -> tuple:
        return (self.n, self.seed, tuple(map(tuple, self.zones)), tuple(self.places), tuple(self.vars),
                tuple(_freeze(v) for v in self.locals), self.pc, self.choice, self.actor, self.current,
                self.rng, tuple(map(tuple, self.grants)), tuple(map(tuple, self.shown)),
                tuple(map(tuple, self.known)), tuple(self.moves), self.is_over, self.finding)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.program is other.program and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        status = "over" if self.over else f"player {self.actor} to decide {self.decision}"
        return f"<State {self.program.name}: {self.n} players, {len(self.moves)} moves, {status}>"

    # ---- what players see

    def card_label(self, card: int | None) -> str:
        return "none" if card is None else self.program.card_labels[card]

    def describe(self, move) -> str:
        """A move in words, e.g. ``play(K♥)``. When another listed move reads the same (the same card
        in hand and on the table), the card's place is added: ``play(2♥ from declared[0])``."""
        m = Move.parse(move)
        text = self._plain(m)
        if not m.args or self.over or self.choice < 0:
            return text
        same = [x for x in self.legal_moves() if x != m and x.name == m.name and len(x.args) == len(m.args)
                and self._plain(x) == text]
        if not same:
            return text
        parts = []
        for i, a in enumerate(m.args):
            part = self.describe_arg(m, i)
            if self._arg_kind(m, i) == T.CARD and 0 <= a < self.program.card_count and any(
                    self.card_place(x.args[i]) != self.card_place(a) for x in same):
                part += f" from {self.card_place(a)}"
            parts.append(part)
        return f"{m.name}({', '.join(parts)})"

    def describe_moves(self, moves: list) -> list[str]:
        """``[self.describe(m) for m in moves]``, faster when most moves read differently."""
        plain = [self._plain(m) for m in moves]
        counts: dict = {}
        for text in plain:
            counts[text] = counts.get(text, 0) + 1
        return [text if counts[text] == 1 else self.describe(m) for m, text in zip(moves, plain)]

    def _plain(self, m: Move) -> str:
        parts = [self.describe_arg(m, i) for i in range(len(m.args))]
        return m.name + (f"({', '.join(parts)})" if parts else "")

    def _arg_kind(self, m: Move, i: int) -> str:
        if not self.over and self.choice >= 0:
            for o in self.program.choices[self.choice].options:
                if o.name == m.name and i < len(o.kinds):
                    return o.kinds[i]
        return T.ANY

    def describe_arg(self, move, i: int) -> str:
        """Argument ``i`` of ``move`` in words: a card's label, an enum value's name, a player."""
        m = Move.parse(move)
        a = m.args[i]
        kind = self._arg_kind(m, i)
        if kind == T.CARD and 0 <= a < self.program.card_count:
            return self.program.card_labels[a]
        if kind.startswith("enum:") and 0 <= a < len(self.program.enums.get(kind[5:], ())):
            return self.program.enums[kind[5:]][a]
        if kind == T.PLAYER:
            return f"player {a}"
        return str(a)

    def card_place(self, card: int) -> str:
        """The name of the zone that holds ``card`` (a track's name for a card on the board)."""
        where = self.loc[card]
        if where >= 0:
            return self.program.zones[where].name
        place = -where - 1
        return next(z.name for z in self.program.zones if place in z.places)

    def sees(self, player: int, zid: int) -> str:
        """How ``player`` sees zone ``zid``: 'all', 'top' or 'count'."""
        z = self.program.zones[zid]
        if z.visibility == "public":
            return "all"
        if z.visibility == "owner" and z.owner == player:
            return "all"
        if z.visibility == "others" and z.owner != player:
            return "all"  # cards held facing away: everybody but the owner sees them
        for g in self.grants:
            if g[0] == zid and g[1] == player:
                return "all"
        if z.visibility == "top":
            return "top"
        return "count"

    def shown_cards(self, player: int) -> set:
        """The cards ``player`` sees wherever they lie: card grants of `reveal` (``[-1 - card, player]``)."""
        return {-1 - g[0] for g in self.grants if g[0] < 0 and g[1] == player}

    def known_to(self, player: int) -> dict:
        """What `tell` told ``player`` about cards: card -> the attributes they know, in the order told."""
        out: dict = {}
        for c, attr, q in self.known:
            if q == player and c >= 0:  # -1: the attribute was told of (maybe of no card)
                out.setdefault(c, []).append(attr)
        return out

    def _hint(self, card: int, attrs: list) -> str:
        """A hidden card with the attributes its viewer knows: ``red ?``, ``red 5 ?``."""
        p = self.program
        words = []
        for a in attrs:
            v, t = p.card_attrs[a][card], p.attr_types.get(a, "")
            words.append(p.enums[t[5:]][v] if t.startswith("enum:") and v is not None else str(v))
        return " ".join(words + ["?"])

    def shown_to(self, player: int) -> list:
        """The cards `show` showed ``player`` during the last move, in the order shown."""
        return list(dict.fromkeys(c for c, q in self.shown if q == player))

    def card_visible(self, player: int, card: int) -> bool:
        """Whether ``player`` sees the face of ``card`` where it lies now."""
        if self.grants and card in self.shown_cards(player):
            return True
        where = self.loc[card]
        if where >= 0:
            how = self.sees(player, where)
            return how == "all" or (how == "top" and self.zones[where][-1] == card)
        place = -where - 1
        return any(place in z.places and self.sees(player, z.zid) != "count" for z in self.program.zones)

    def view(self, player: int) -> dict:
        """What ``player`` may know: visible cards by label, hidden ones as '?', and the variables."""
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise ParameterError(f"there is no player {player!r} in a {self.n}-player game")
        p = self.program
        labels = p.card_labels
        zones = {}
        shown = self.shown_cards(player) if self.grants else ()
        known = self.known_to(player) if self.known else {}

        def face(c):  # a card this player does not see where it lies
            return labels[c] if c in shown else self._hint(c, known[c]) if c in known else "?"

        for z in p.zones:
            if z.owner is not None and z.owner >= self.n:
                continue
            if z.exists is not None and not self.vars[z.exists]:
                continue  # a member of a growing family that is not open
            how = self.sees(player, z.zid)
            if z.places:
                cards = [self.places[q] for q in z.places]
                zones[z.name] = [None if c < 0 else (labels[c] if how == "all" else face(c)) for c in cards]
                continue
            cards = self.zones[z.zid]
            if how == "all":
                zones[z.name] = [labels[c] for c in cards]
            elif how == "top":
                zones[z.name] = [face(c) for c in cards[:-1]] + [labels[cards[-1]]] if cards else []
            else:
                zones[z.name] = [face(c) for c in cards]
        variables = {}
        card_slots, flags, var_exists = p.card_slots, p.flag_slots, p.var_exists
        for name, (base, sizes, dims) in p.var_families.items():
            count = 1
            for n in sizes:
                count *= n
            vis = p.var_visibility.get(name)
            for i in range(count):
                label = p.var_names[base + i]
                if dims and dims[0][0] == "player" and i // max(1, count // sizes[0]) >= self.n:
                    continue
                if base + i in flags or (base + i in var_exists and not self.vars[var_exists[base + i]]):
                    continue
                v = self.vars[base + i]
                if vis == "hidden" or (vis == "owner" and i // max(1, count // sizes[0]) != player):
                    variables[label] = "?"  # a variable this player may not see
                    continue
                if base + i in card_slots and v is not None:
                    v = labels[v] if self.card_visible(player, v) else "?"
                variables[label] = v
        out = {
            "player": player,
            "current_player": self.current_player,
            "decision": self.decision,
            "zones": zones,
            "vars": variables,
            "over": self.over,
        }
        left = self.players_left()
        if left is not None:
            out["left"] = left  # the players who have left the game (rules that use `leave`)
        if not self.over and self.choice >= 0 and self.program.choices[self.choice].together is not None:
            # players choosing together, in secret: who has chosen is public, not what
            choosers, done = self.program.choices[self.choice].together(self.locals)
            out["chosen"], out["waiting"] = list(choosers[:done]), list(choosers[done:])
        shown = self.shown_to(player)
        if shown:
            out["shown"] = [labels[c] for c in shown]  # cards `show` let this player see during the last move
        if player == self.current_player:
            out["legal_moves"] = self.describe_moves(self.legal_moves())
        return out

    # ---- running the flow

    def _flow(self) -> Flow:
        return flow_of(self.program)

    def _enumerate(self) -> list[Move]:
        flow = self.program.flow or self._flow()
        try:
            return flow.moves[self.choice](self, self.locals)  # it copies the locals before changing them
        except RulesRuntimeError:
            raise
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            span = self.program.choices[self.choice].span
            raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None

    def _apply(self, m: Move) -> None:
        flow = self.program.flow or self._flow()
        args = m.args
        entry = flow.entries[self.choice].get(m.name)
        if entry is None or entry[0] != len(args):
            entry = flow.entries_by_arity[self.choice].get((m.name, len(args)))
            if entry is None:
                choice = self.program.choices[self.choice]
                raise IllegalMove(m, f"decision `{choice.name}` has no move {m.name} with {len(args)} argument(s)")
        count, body, slots, first = entry
        L = self.locals
        if count:
            if count == 1:
                L[slots[0]] = args[0]
            else:
                for slot, v in zip(slots, args):
                    L[slot] = v
        moves = self.moves
        moves.append(m)
        if self.shown:
            self.shown = []  # `show`: the cards shown during this move, as [card, player]
        # (pc, choice, actor and the legal moves are set where the move's code stops: a decision or the end)
        try:  # the first stretch of the move's body, called here; the rest (rarely any) by _run
            pc = first(self, L)
        except (RulesRuntimeError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            self._failed(flow, exc, body)
        if pc >= 0:
            self.pc = pc
            self._run()
        if len(moves) >= flow.limit and not self.is_over:
            self._end()
            self.finding = f"the game reached its limit of {flow.limit} moves without ending"

    def _run(self) -> None:
        """Carry out steps until a player must decide or the game ends (the generated code of flowgen.py:
        one function per stretch of steps, each returning the step to go on from, or -1)."""
        flow = self.program.flow or self._flow()
        blocks = flow.blocks
        L = self.locals
        budget = MAX_STEPS_PER_MOVE
        pc = self.pc
        try:
            while pc >= 0:
                budget -= 1
                if budget < 0:
                    raise RulesRuntimeError(
                        f"the rules ran {MAX_STEPS_PER_MOVE} steps without asking any player to move "
                        "(an endless loop?)", self.program.code[pc][3])
                pc = blocks[pc](self, L)
        except (RulesRuntimeError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            self._failed(flow, exc, pc)

    def _failed(self, flow: Flow, exc: Exception, pc: int):
        """A rule failed in the generated code run from step ``pc``: the finding, at the rule's line
        (found from the generated line that failed)."""
        if isinstance(exc, RulesRuntimeError):
            if exc.span.line:
                raise exc
            span = flow.failing_span(exc.__traceback__) or self.program.code[pc][3]
            raise RulesRuntimeError(exc.message, span) from None
        span = flow.failing_span(exc.__traceback__) or self.program.code[pc][3]
        raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None

    # The generated code stops at a decision by setting pc, choice, actor and _legal (flowgen.Flow._choose);
    # these two are its ways out when the actor is no player or nobody can move.

    def _check_actor(self, cid: int, actor) -> int:
        choice = self.program.choices[cid]
        if not isinstance(actor, int) or not 0 <= actor < self.n:
            raise RulesRuntimeError(f"decision `{choice.name}` is asked of {actor!r}, who is no player", choice.span)
        return actor

    def _no_moves(self, cid: int) -> None:
        choice = self.program.choices[cid]
        raise RulesRuntimeError(f"player {self.actor} must decide `{choice.name}` but has no legal move", choice.span)

    def _end(self) -> None:
        self.is_over = True
        self.choice = -1
        self.actor = -1
        self._legal = []

    def _fire(self) -> bool:
        """Run triggers whose condition holds, first declared first, until none does.
        Returns True if a trigger ended the game."""
        return self._flow().fire(self, self.locals)

    def _keeps_firing(self, t: int):
        trigger = self.program.triggers[t]
        raise RulesRuntimeError(f"trigger `{trigger.name}` keeps firing ({MAX_TRIGGER_FIRINGS} times after one step); "
                                "its body must make its condition false", trigger.span)

    # ---- setting up a position (tests, puzzles, teaching)

    def cards_named(self, label: str) -> list[int]:
        """The ids of the cards shown as ``label`` (two decks give two ids per label)."""
        return [c for c, text in enumerate(self.program.card_labels) if text == label]

    def zone_id(self, name: str) -> int:
        key = name.replace(" ", "")
        for z in self.program.zones:
            if z.name.replace(" ", "") == key:
                if z.owner is not None and z.owner >= self.n:
                    break
                return z.zid
        known = ", ".join(z.name for z in self.program.zones if (z.owner is None or z.owner < self.n)
                          and (z.exists is None or self.vars[z.exists]))
        raise ParameterError(f"there is no zone {name!r} (zones: {known})")

    def cards_in(self, zone: str) -> list[str]:
        """The labels of the cards in a zone, bottom to top (a track: slot by slot, None for empty)."""
        z = self.program.zones[self.zone_id(zone)]
        if z.places:
            return [None if self.places[q] < 0 else self.card_label(self.places[q]) for q in z.places]
        return [self.card_label(c) for c in self.zones[z.zid]]

    def place(self, card, zone: str, slot: int | None = None) -> int:
        """Move one card (an id, or a label: the first such card not already there) to the top of
        ``zone``, or into ``slot`` of a track. Returns the card's id. Triggers do not run."""
        zid = self.zone_id(zone)
        z = self.program.zones[zid]
        if z.exists is not None and not self.vars[z.exists]:
            raise ParameterError(f"{z.name} is not open; open the member first (State.new_member)")
        if isinstance(card, str):
            ids = self.cards_named(card)
            if not ids:
                raise ParameterError(f"there is no card {card!r}")
            elsewhere = [c for c in ids if self.loc[c] != zid
                         and not (self.loc[c] < 0 and -self.loc[c] - 1 in z.places)]
            cid = (elsewhere or ids)[0]
        else:
            cid = card
            if not isinstance(cid, int) or not 0 <= cid < self.program.card_count:
                raise ParameterError(f"there is no card {card!r}")
        if z.places:
            if slot is None or not 0 <= slot < len(z.places):
                raise ParameterError(f"{z.name} is a track: give a slot from 0 to {len(z.places) - 1}")
            q = z.places[slot]
            if self.places[q] >= 0 and self.places[q] != cid:
                raise ParameterError(f"slot {slot} of {z.name} already holds {self.card_label(self.places[q])}")
        elif slot is not None:
            raise ParameterError(f"{z.name} has no slots; only tracks do")
        old = self.loc[cid]
        if old >= 0:
            self.zones[old].remove(cid)
        else:
            self.places[-old - 1] = -1
        if z.places:
            self.places[z.places[slot]] = cid
            self.loc[cid] = -z.places[slot] - 1
        else:
            self.zones[zid].append(cid)
            self.loc[cid] = zid
        self._legal = None
        return cid

    def new_member(self, family: str, **values) -> int:
        """Open the lowest free member of a growing family, as `new` does: ``new_member("meld[0]")``
        gives the member's number. ``values`` set the member's variables (enum values by name)."""
        p = self.program
        key = family.replace(" ", "")

        def prefix(z):  # `meld[0, 3]` -> `meld[0]`; `pool[3]` -> `pool`
            head = z.name.replace(" ", "").rsplit(",", 1)[0] + "]" if len(z.index) > 1 else z.family
            return head

        zones = [z for z in p.zones if z.exists is not None and "." not in z.family and prefix(z) == key
                 and (z.owner is None or z.owner < self.n)]
        if not zones:
            raise ParameterError(f"there is no growing zone family {family!r}")
        free = [z for z in zones if not self.vars[z.exists]]
        if not free:
            raise ParameterError(f"{family} already has {len(zones)} members, the most it may have")
        z = free[0]
        self.vars[z.exists] = True
        flat = z.zid - p.zone_families[z.family][0]
        for base, fn in p.member_inits.get(z.family, ()):
            self.vars[base + flat] = _run_rule(fn, self, self.locals.copy(), Span())
        number = z.index[-1] + 1
        for name, value in values.items():
            self.set_var(f"{z.name}.{name}", value)
        self._legal = None
        return number

    def stack(self, zone: str, labels: list) -> list[int]:
        """Put the named cards on top of ``zone`` so the first label ends on top: stacks a deck."""
        return [self.place(card, zone) for card in reversed(labels)]

    def set_var(self, name: str, value) -> None:
        """Set a variable such as ``dealer`` or ``rank[red]``: a number, true/false, an enum value's
        name, or a card label."""
        p = self.program
        index = self._var_index(name)
        if isinstance(value, str):
            labels = self.cards_named(value)
            enum_values = {v: i for e in getattr(p, "enums", {}).values() for i, v in enumerate(e)}
            if value in enum_values:
                value = enum_values[value]
            elif labels:
                value = labels[0]
            else:
                raise ParameterError(f"{value!r} is neither a card nor an enum value")
        self.vars[index] = value
        self._legal = None

    def players_left(self) -> list[int] | None:
        """The players who have left the game (`leave`), in seat order; None if the rules never use `leave`."""
        family = self.program.var_families.get(SEATS_OUT)
        if family is None:
            return None
        return [p for p in range(self.n) if self.vars[family[0] + p]]

    def get_var(self, name: str):
        return self.vars[self._var_index(name)]

    def evaluate(self, name: str, *args):
        """The value of the rules' ``define name(...)`` here, for ``args`` (docs/api.md); ParameterError
        for an unknown define or arguments that do not fit, RulesRuntimeError if the rule fails."""
        from .evaluate import evaluate

        return evaluate(self, name, *args)

    def _var_index(self, name: str) -> int:
        key = name.replace(" ", "")
        for i, label in enumerate(self.program.var_names):
            if label.replace(" ", "") == key:
                return i
        raise ParameterError(f"there is no variable {name!r} (variables: {', '.join(self.program.var_names)})")

    # ---- checks used by tests and verify

    def card_locations(self) -> dict[int, list[str]]:
        """Where every card is, found by scanning every zone: card id -> zone names."""
        where: dict[int, list[str]] = {c: [] for c in range(self.program.card_count)}
        for z in self.program.zones:
            if z.places:
                continue
            for c in self.zones[z.zid]:
                where.setdefault(c, []).append(z.name)
        seen_places = set()
        for z in self.program.zones:
            for q in z.places:
                if q in seen_places:
                    continue
                seen_places.add(q)
                c = self.places[q]
                if c >= 0:
                    where.setdefault(c, []).append(f"{z.name} slot {z.places.index(q)}")
        return where

    def broken_invariants(self) -> list[str]:
        """The rules file's own invariants that do not hold here, as messages."""
        out = []
        L = self.locals.copy()
        for inv in self.program.invariants:
            values = _run_rule(inv.domain, self, L, inv.span) if inv.domain is not None else (None,)
            for v in list(values):
                if inv.slot is not None:
                    L[inv.slot] = v
                if not _run_rule(inv.cond, self, L, inv.span):
                    what = f" for {v}" if inv.slot is not None else ""
                    out.append(f"invariant `{inv.name}`{what} is broken" + (f": {inv.message}" if inv.message else ""))
        return out

    # ---- saving

    def to_json(self) -> str:
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.program.name,
            "params": self.program.params,
            "players": self.n,
            "seed": self.seed,
            "zones": self.zones,
            "places": self.places,
            "vars": self.vars,
            "locals": [_plain(v) for v in self.locals],
            "pc": self.pc,
            "choice": self.choice,
            "actor": self.actor,
            "current": self.current,
            "rng": self.rng,
            "grants": self.grants,
            "shown": self.shown,
            "known": self.known,
            "moves": [m.to_json() for m in self.moves],
            "over": self.over,
            "finding": self.finding,
        }
        return _sealed(data)


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, range):
        return tuple(v)
    return v


def _plain(v):
    if isinstance(v, (list, tuple, range)):
        return [_plain(x) for x in v]
    return v


def _load_state(game: Game, text) -> State:
    p = game.program
    try:
        data = json.loads(text) if isinstance(text, (str, bytes)) else text
    except ValueError as exc:
        raise SaveError(f"not a saved state: the text is not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError("not a saved ruledsl state: the 'format' field is missing or wrong")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"saved with format version {data.get('version')!r}; this ruledsl reads version {SAVE_VERSION}")
    if data.get("game") != p.name:
        raise SaveError(f"the save is of the game {data.get('game')!r}, not {p.name!r}")
    if data.get("params") != p.params:
        raise SaveError(f"the save was made with parameters {data.get('params')}, not {p.params}")

    def need(key, check, what):
        value = data.get(key)
        if not check(value):
            raise SaveError(f"field '{key}' should be {what}")
        return value

    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool)

    def int_list(v, length):
        return isinstance(v, list) and len(v) == length and all(is_int(x) for x in v)

    n = need("players", lambda v: is_int(v) and p.min_players <= v <= p.max_players,
             f"a player count from {p.min_players} to {p.max_players}")
    seed = need("seed", is_int, "a whole number")
    zones = need("zones", lambda v: isinstance(v, list) and len(v) == len(p.zones)
                 and all(isinstance(z, list) and all(is_int(c) for c in z) for z in v),
                 f"a list of {len(p.zones)} lists of card ids")
    places = need("places", lambda v: int_list(v, p.place_count), f"a list of {p.place_count} card ids or -1")
    counts = [0] * p.card_count
    loc = [0] * p.card_count
    for zid, cards in enumerate(zones):
        for c in cards:
            if not 0 <= c < p.card_count:
                raise SaveError(f"zone {p.zones[zid].name} holds card {c}, which does not exist")
            counts[c] += 1
            loc[c] = zid
    for q, c in enumerate(places):
        if c >= 0:
            if c >= p.card_count:
                raise SaveError(f"a board place holds card {c}, which does not exist")
            counts[c] += 1
            loc[c] = -q - 1
        elif c != -1:
            raise SaveError("an empty board place is written -1")
    for z in p.zones:
        if z.exists is not None and zones[z.zid] and not (isinstance(data.get("vars"), list) and len(
                data["vars"]) == p.var_count and data["vars"][z.exists] is True):
            raise SaveError(f"zone {z.name} holds cards but is not open")
    for c, k in enumerate(counts):
        if k != 1:
            raise SaveError(f"card {c} ({p.card_labels[c]}) is in {k} places; every card must be in exactly one")
    s = State.__new__(State)
    s.game, s.program, s.n, s.seed = game, p, n, seed
    s.zones, s.places, s.loc = zones, places, loc
    s.vars = need("vars", lambda v: isinstance(v, list) and len(v) == p.var_count, f"a list of {p.var_count} values")
    s.locals = need("locals", lambda v: isinstance(v, list) and len(v) == p.local_count,
                    f"a list of {p.local_count} values")
    s.pc = need("pc", lambda v: is_int(v) and 0 <= v < len(p.code), "a step of the program")
    s.choice = need("choice", lambda v: is_int(v) and -1 <= v < len(p.choices), "a decision number or -1")
    s.actor = need("actor", lambda v: is_int(v) and -1 <= v < n, "a player or -1")
    s.current = need("current", lambda v: is_int(v) and 0 <= v < max(n, 1), "a player")
    s.rng = need("rng", lambda v: is_int(v) and 0 <= v < 2 ** 64, "the generator's 64-bit state")
    s.grants = need("grants", lambda v: isinstance(v, list) and all(
        isinstance(g, list) and len(g) == 2 and all(is_int(x) for x in g) for g in v),
        "a list of [zone, player] (a zone of -1 - c: the card c)")
    if "shown" not in data:
        data = dict(data, shown=[])  # saved before `show` existed
    s.shown = need("shown", lambda v: isinstance(v, list) and all(
        isinstance(x, list) and len(x) == 2 and is_int(x[0]) and 0 <= x[0] < p.card_count and is_int(x[1])
        and 0 <= x[1] < n for x in v), "a list of [card, player]")
    if "known" not in data:
        data = dict(data, known=[])  # saved before `tell` existed
    s.known = need("known", lambda v: isinstance(v, list) and all(
        isinstance(x, list) and len(x) == 3 and is_int(x[0]) and -1 <= x[0] < p.card_count
        and x[1] in p.attr_types and is_int(x[2]) and 0 <= x[2] < n for x in v), "a list of [card, attribute, player]")
    raw_moves = need("moves", lambda v: isinstance(v, list), "a list of moves")
    try:
        s.moves = [Move.parse(m) for m in raw_moves]
    except IllegalMove:
        raise SaveError("field 'moves' holds something that is not a move") from None
    s.over = need("over", lambda v: isinstance(v, bool), "true or false")
    s.finding = need("finding", lambda v: v is None or isinstance(v, str), "null or a message")
    if not s.over and (s.choice < 0 or s.actor < 0 or p.code[s.pc][0] != CHOOSE):
        raise SaveError("the save says the game goes on, but no decision is pending")
    s._legal = None
    _check_seal(data)
    _check_replay(game, s, data)
    return s


# ---- what a save promises
#
# A save (State.to_json) is the whole state, its seed and its moves, plus a digest: the SHA-256 of
# its canonical JSON (keys sorted, no spaces) without the digest. Loading promises that the state
# is one the rules reach: the digest must match (so a save damaged or edited by hand is refused),
# and the moves, replayed from the seed, must give exactly the saved state (so a save whose digest
# was recomputed after an edit, or that has none, is refused too: whose turn it is, the cards, the
# variables all follow from the moves). The digest is no signature: anyone can recompute it; the
# replay is what makes an edited save useless.

SAVE_FIELDS = ("players", "seed", "zones", "places", "vars", "locals", "pc", "choice", "actor", "current",
               "rng", "grants", "shown", "known", "moves", "over", "finding")


def _canonical(data: dict) -> str:
    return json.dumps({k: v for k, v in data.items() if k != "digest"}, ensure_ascii=False,
                      separators=(",", ":"), sort_keys=True)


def _sealed(data: dict) -> str:
    import hashlib

    digest = hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest()
    return json.dumps({**data, "digest": digest}, ensure_ascii=False, separators=(",", ":"))


def _check_seal(data: dict) -> None:
    """A save's digest, when it has one (saves written before digests existed have none)."""
    import hashlib

    if "digest" not in data:
        return
    digest = data["digest"]
    if not isinstance(digest, str) or digest != hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest():
        raise SaveError("the save was changed after it was written: its digest does not match its contents "
                        "(load the save as it was written, or replay the game from its log)")


_REPLAYS: dict = {}  # program -> ((players, seed), moves, state): the last replay, resumed when a save goes on


def _replay_of(game: Game, n: int, seed: int, moves: list) -> State:
    """The state the moves give from the seed; a save that extends the last one checked resumes it
    (verify saves after every step: each is checked in the time of its last move, not of them all)."""
    last = _REPLAYS.get(game.program)
    if last is not None and last[0] == (n, seed) and len(last[1]) <= len(moves) and moves[:len(last[1])] == last[1]:
        state, start = last[2].clone(), len(last[1])
    else:
        try:
            state, start = game.new_game(n, seed), 0
        except (ParameterError, RulesRuntimeError) as err:
            raise SaveError(f"the save's seed and player count do not start a game of these rules: {err}") from None
    for i in range(start, len(moves)):
        if state.over:
            raise SaveError(f"the save lists {len(moves)} moves, but the game is over after {i}")
        try:
            state.apply(moves[i])
        except (IllegalMove, RulesRuntimeError) as err:
            raise SaveError(f"move {i + 1} of the save, {moves[i]}, cannot be made where its moves before it "
                            f"lead ({err}); the save is not of a game these rules played") from None
    _REPLAYS.clear()  # one entry: the cache never grows
    _REPLAYS[game.program] = ((n, seed), list(moves), state.clone())
    return state


def _check_replay(game: Game, s: State, data: dict) -> None:
    """The saved state must be the one its moves give from its seed; else SaveError naming what differs."""
    replayed = json.loads(_replay_of(game, s.n, s.seed, s.moves).to_json())
    saved = json.loads(json.dumps(data))  # the same plain form (lists, not tuples) as the replay's
    for key in SAVE_FIELDS:
        if replayed.get(key) != saved.get(key):
            if key == "current" or key == "actor":
                what = (f"player {saved.get(key)} is to decide, but its moves lead to the decision of "
                        f"player {replayed.get(key)}")
            else:
                what = f"its '{key}' is not what its moves lead to"
            raise SaveError(f"the save does not follow from its own moves: {what} (replaying its "
                            f"{len(s.moves)} moves from seed {s.seed}); a save of a position set up by hand "
                            "(place, stack, set_var, new_member) cannot be loaded either")
