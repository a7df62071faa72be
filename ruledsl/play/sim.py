"""Headless games between bots, one at a time or many for statistics.

:func:`play_game` plays one game and returns a :class:`GameResult`;
:func:`simulate` plays many and returns a :class:`SimulationStats`. Both are
pure: no printing, no files; a caller that wants a progress bar passes a
callback.

Everything is determined by the seed. A game played with seed ``s`` uses ``s``
for the game's own generator and :func:`derive_seed` ``(s, seat)`` for the
generator of the bot in each seat; game ``i`` of a simulation with base seed
``b`` is played with seed :func:`derive_seed` ``(b, i)``. So any game of a
simulation can be played again on its own from the seed it reports.
"""

from __future__ import annotations

from typing import Callable, Sequence

import attrs

from ..engine.game import Game
from ..language.errors import IllegalMove, ParameterError, RulesRuntimeError
from .botbase import Bot, decide, sight_for
from .bots import make_bot
from .intervals import statistic_summary

_MASK64 = (1 << 64) - 1
#: Derived seeds stay below 2**53 so that they survive JSON readers that use doubles.
_SEED_BITS = 53


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def derive_seed(base: int, *path: int) -> int:
    """A seed derived from ``base`` and the integers in ``path``: the same inputs, the same seed.

    Nearby inputs give unrelated seeds (unlike ``base + i``, which would give
    games whose shuffles overlap).
    """
    x = _mix(base & _MASK64)
    for part in path:
        x = _mix(x ^ (part & _MASK64))
    return x >> (64 - _SEED_BITS)


@attrs.frozen
class GameResult:
    """The outcome of one game. ``moves`` are JSON-ready lists ``[name, *args]``."""

    game: str
    players: int
    seed: int
    params: dict
    bots: list
    scores: list
    winners: list  # [] when the game was stopped at its move bound
    moves: list
    length: int
    finding: str | None  # why the game was stopped early, or None
    teams: list | None = None  # each seat's partnership at the end (partnerships, cooperative games); else None
    statistics: dict | None = None  # the rules' `statistic NAME = EXPR` values at the end; None without any

    def to_dict(self) -> dict:
        """The result as a plain dict of JSON values."""
        extra = {} if self.teams is None else {"teams": list(self.teams)}
        if self.statistics is not None:
            extra["statistics"] = dict(self.statistics)
        return {**extra, 
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "params": dict(self.params),
            "bots": list(self.bots),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "moves": [list(m) for m in self.moves],
            "length": self.length,
            "finding": self.finding,
        }


@attrs.frozen
class SimulationStats:
    """What many games between bots add up to.

    ``wins[i]`` counts the games seat ``i`` won. A win shared by tied players
    counts as a whole win for each of them, so ``sum(wins)`` may exceed the
    number of games; ``shared`` counts the games that ended in such a tie.
    Games stopped at their move bound have no winner; they count in
    ``stopped`` and in the means of scores and lengths (with the scores they
    had when stopped).
    """

    game: str
    games: int
    players: int
    seed: int
    params: dict
    bots: list
    wins: list
    win_rate: list
    mean_scores: list
    mean_moves: float
    max_moves: int
    stopped: int
    shared: int
    stopped_seeds: list = attrs.Factory(list)  # the seeds of the games stopped at their bound, in game order
    #: with partnerships (``define team(p)``) or a cooperative game: wins per partnership, a
    #: partnership named by its seats ("0+2"; the whole table in a cooperative game), each game
    #: one win for the partnership that won it (and then ``shared`` counts games won by several)
    team_wins: dict | None = None
    cooperative: bool = False
    #: the rules' `statistic NAME = EXPR`, by name: ``[share?, games, sum, sum of squares]`` over the
    #: games (true counts 1); :meth:`statistic` gives each one's mean and interval. None without any
    statistic_sums: dict | None = None

    def statistic(self, name: str, intervals: bool = True) -> dict:
        """One statistic over the games: ``kind`` (share or mean), ``mean``, ``ci95`` (None without scipy)."""
        share, n, total, squares = self.statistic_sums[name]
        return statistic_summary(share, n, total, squares, intervals)

    def to_dict(self) -> dict:
        """The statistics as a plain dict of JSON values."""
        extra = {}
        if self.team_wins is not None:
            per = self.games or 1
            extra = {"team_wins": dict(self.team_wins),
                     "team_win_rate": {t: w / per for t, w in self.team_wins.items()},
                     "cooperative": self.cooperative}
        if self.statistic_sums is not None:
            extra["statistics"] = {name: self.statistic(name) for name in self.statistic_sums}
        return {**extra, 
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "params": dict(self.params),
            "bots": list(self.bots),
            "wins": list(self.wins),
            "win_rate": list(self.win_rate),
            "mean_scores": list(self.mean_scores),
            "mean_moves": self.mean_moves,
            "max_moves": self.max_moves,
            "stopped": self.stopped,
            "stopped_seeds": list(self.stopped_seeds),  # `ruledsl run FILE --seed S` plays one again
            "shared": self.shared,
        }


class PlayoutFailed(RulesRuntimeError):
    """A rule failed during a bot game; says which game, so it can be played again.

    A subclass of RulesRuntimeError with the same message and span, plus the
    game's ``seed``, ``players``, the ``moves`` made before the failure and, in
    a simulation, the game's ``index``.
    """

    def __init__(self, cause: RulesRuntimeError, seed: int, players: int, moves: list, index: int | None = None):
        super().__init__(cause.message, cause.span)
        self.cause = cause
        self.seed = seed
        self.players = players
        self.moves = moves
        self.index = index


def _seat_bots(bots, n: int, seed: int) -> list[Bot]:
    if bots is None:
        bots = "random"
    if isinstance(bots, (str, Bot)):
        bots = [bots] * n
    bots = list(bots)
    if len(bots) != n:
        raise ParameterError(f"{len(bots)} bots given for {n} players; give one bot per player")
    out = []
    for seat, b in enumerate(bots):
        if isinstance(b, str):
            out.append(make_bot(b, derive_seed(seed, seat)))
        elif isinstance(b, Bot):
            out.append(b)
        else:
            raise ParameterError(f"a bot is a name or a Bot, not {b!r}")
    return out


def play_game(game: Game, players: int | None = None, seed: int = 0,
              bots: str | Sequence[str | Bot] | None = None,
              on_decision: Callable | None = None) -> GameResult:
    """Play one game between bots and return its result.

    ``players`` defaults to the fewest the game allows. ``bots`` is a bot name
    for every seat (default ``"random"``), or a list with one name or
    :class:`~ruledsl.bots.Bot` per seat; bots given by name are seeded from
    ``seed`` and their seat. Raises ParameterError for a bad player count or
    bot, and :class:`PlayoutFailed` (a RulesRuntimeError) if a rule fails.
    """
    n = game.program.min_players if players is None else players
    try:
        state = game.new_game(n, seed)
    except RulesRuntimeError as err:
        raise PlayoutFailed(err, seed, n, []) from None
    seated = _seat_bots(bots, n, seed)
    sight = sight_for(state, seated)  # search bots' worlds keep what their players saw go hidden
    try:
        while not state.is_over:
            player = state.current_player
            legal = state.legal_moves()
            bot = seated[player]
            move = decide(bot, state, player, legal, sight)
            if move not in legal:
                raise IllegalMove(move, f"bot {bot!r} in seat {player} chose a move that is not legal", legal)
            if on_decision is not None:
                on_decision(state, legal, move)
            state._apply(move)
        scores, winners = list(state.scores), list(state.winners)
        statistics = state.statistics if game.program.statistics else None
    except RulesRuntimeError as err:
        raise PlayoutFailed(err, seed, n, [m.to_json() for m in state.moves]) from None
    return GameResult(
        game=game.program.name,
        players=n,
        seed=seed,
        params=dict(game.program.params),
        bots=[b.label for b in seated],
        scores=scores,
        winners=winners,
        moves=[m.to_json() for m in state.moves],
        length=len(state.moves),
        finding=state.finding,
        teams=_teams(state),
        statistics=statistics,
    )


def _teams(state) -> list | None:
    """The partnerships of a finished game as plain numbers, or None when each seat plays alone."""
    program = state.program
    if program.team is None and not program.cooperative:
        return None
    return list(state.teams)


def team_label(teams: list, team) -> str:
    """A partnership named by its seats: ``0+2``."""
    return "+".join(str(i) for i, t in enumerate(teams) if t == team)


def simulate(game: Game, games: int, players: int | None = None, seed: int = 0,
             bots: str | Sequence[str] | None = None,
             progress: Callable[[int, int], None] | None = None) -> SimulationStats:
    """Play ``games`` games between bots and add up wins, scores and lengths.

    Game ``i`` is played with seed ``derive_seed(seed, i)``. ``bots`` are given
    by name (instances would carry state from one game to the next).
    ``progress(done, total)`` is called after each game. A rule that fails
    raises :class:`PlayoutFailed` with the failing game's index and seed.
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ParameterError(f"the number of games must be a whole number of at least 0, not {games!r}")
    if bots is not None and not isinstance(bots, str) and any(isinstance(b, Bot) for b in bots):
        raise ParameterError("simulate takes bots by name, so that every game gets fresh bots")
    n = game.player_count(players)
    names = bot_names(bots, n, seed)

    def results():
        for i in range(games):
            try:
                result = play_game(game, n, derive_seed(seed, i), bots)
            except PlayoutFailed as err:
                err.index = i
                raise
            yield result
            if progress is not None:
                progress(i + 1, games)

    return add_up(results(), game.program.name, games, n, seed, dict(game.program.params), names,
                  game.program.cooperative, statistic_kinds(game.program))


def statistic_kinds(program) -> dict:
    """The rules' statistics by name: True for a true/false one (a share of games), False for a number."""
    return {name: share for name, _fn, share, _span in program.statistics}


def bot_names(bots, n: int, seed: int = 0) -> list[str]:
    """The names of the bots seated for ``n`` players (checks the bots as play would)."""
    return [b.label for b in _seat_bots(bots, n, seed)]


def add_up(results, name: str, games: int, n: int, seed: int, params: dict, names: list,
           cooperative: bool = False, statistics: dict | None = None) -> SimulationStats:
    """The :class:`SimulationStats` of ``results`` (GameResults, or dicts with the same keys), in game order.

    Local, parallel and distributed runs all add up through here, so that
    they give the same statistics for the same games.
    """
    wins = [0] * n
    score_sums = [0] * n
    total_moves = 0
    max_moves = 0
    stopped = 0
    stopped_seeds = []
    shared = 0
    team_wins = None
    sums = {k: [share, 0, 0, 0] for k, share in statistics.items()} if statistics else None
    for result in results:
        if isinstance(result, dict):
            winners, scores, length, finding = result["winners"], result["scores"], result["length"], result["finding"]
            game_seed = result.get("seed")
            teams = result.get("teams")
            values = result.get("statistics")
        else:
            winners, scores, length, finding = result.winners, result.scores, result.length, result.finding
            game_seed = result.seed
            teams = result.teams
            values = result.statistics
        if sums is not None and values is not None:
            for k, v in values.items():
                acc = sums[k]
                acc[1] += 1
                acc[2] += int(v)
                acc[3] += int(v) * int(v)
        for w in winners:
            wins[w] += 1
        if teams is not None:  # a partnership's win is one win; shared: won by several partnerships
            team_wins = {} if team_wins is None else team_wins
            for t in dict.fromkeys(teams):
                team_wins.setdefault(team_label(teams, t), 0)
            won = list(dict.fromkeys(teams[w] for w in winners))
            for t in won:
                team_wins[team_label(teams, t)] += 1
            if len(won) > 1:
                shared += 1
        elif len(winners) > 1:
            shared += 1
        for p, s in enumerate(scores):
            score_sums[p] += s
        total_moves += length
        max_moves = max(max_moves, length)
        if finding is not None:
            stopped += 1
            stopped_seeds.append(game_seed)
    per = games or 1
    return SimulationStats(
        game=name,
        games=games,
        players=n,
        seed=seed,
        params=params,
        bots=names,
        wins=wins,
        win_rate=[w / per for w in wins],
        mean_scores=[s / per for s in score_sums],
        mean_moves=total_moves / per,
        max_moves=max_moves,
        stopped=stopped,
        shared=shared,
        stopped_seeds=stopped_seeds,
        team_wins=team_wins,
        cooperative=cooperative,
        statistic_sums=sums,
    )
