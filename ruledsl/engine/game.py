"""A compiled rules file with its parameters, the factory of states: new games, replays, loaded saves."""

from __future__ import annotations

from ..compiler.program import Program
from ..compiler.rng import seed_state
from ..language.errors import NOWHERE, ParameterError, RulesRuntimeError
from .dealing import setup_failure
from .rules import _run_rule, flow_of
from .save import _load_state
from .state import State


class Game:
    """A compiled rules file with its parameters: the factory of states."""

    def __init__(self, program: Program, programs: dict | None = None):
        self.program = program  # for the fewest players when sizes depend on the count (`programs`)
        self.programs = programs or {}
        self._starts: dict = {}  # id(program) -> (zones, card locations) before the flow runs

    def program_for(self, players: int) -> Program:
        """The program a game of ``players`` players runs: its own when a size depends on the count."""
        return self.programs.get(players, self.program)

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

    def new_game(self, players: int | None = None, seed: int = 0, _diagnose: bool = True,
                 _steps: list | None = None) -> "State":
        """A new game for ``players`` players (the fewest allowed if None), run to its first decision.
        A setup that fails for this player count but not for others raises ParameterError (dealing.py);
        ``_steps`` is the step budget that diagnosis shares among its tries (State._run)."""
        n = self.player_count(players)
        p = self.program_for(n)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ParameterError(f"the seed must be a whole number, not {seed!r}")
        s = State.__new__(State)
        s.game = self
        s.program = p
        s.n = n
        s.seed = seed
        start = self._starts.get(id(p)) or self._starting_zones(p)
        s.zones = list(map(list.copy, start[0]))
        s.places = [-1] * p.place_count
        s.loc = start[1].copy()
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
        s._set_by_hand()
        s._trigger_work = _steps  # the triggers' bodies share the tries' budget too (None: their own)
        for slot, fn in p.var_init:
            s.vars[slot] = _run_rule(fn, s, s.locals, NOWHERE)
        try:
            s._run(_steps)
        except RulesRuntimeError as err:
            if not _diagnose:
                raise
            raise setup_failure(self, n, err) from None
        return s

    def _starting_zones(self, p: Program) -> tuple:
        """The zones and each card's zone before the flow runs (the cards where `cards ... in` puts
        them), worked out once per program and copied by every new game."""
        zones = [[] for _ in p.zones]
        loc = [0] * p.card_count
        for zid, ids in p.initial:
            zones[zid].extend(ids)
            for c in ids:
                loc[c] = zid
        self._starts[id(p)] = (zones, loc)
        return zones, loc

    def replay(self, players: int, seed: int, moves) -> "State":
        """The state reached from a new game by playing ``moves`` in order (a logged set of cards,
        ``["attack", [3, 17]]``, stands for its steps)."""
        from .setlog import unfold

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
