"""Many games at once: in this process, in local worker processes, or on a Dask cluster.

The games of a run are cut into chunks of consecutive game indices. A chunk is
a plain dict (:func:`chunks`) that names the rules by their text and path, so
a worker on another machine can compile them itself; :func:`play_chunk` plays
one and returns one record per game, plus the rule-coverage counts when asked.
The records are put back in game order before anything is added up, and game
``i`` is always played with seed ``derive_seed(seed, i)`` and bots rebuilt
from their names, so one process, N processes and a cluster give the same
results for the same seed.

A game whose rule fails in a worker comes back as an error record; the caller
plays that game again here, where the failure is raised as the usual
:class:`~ruledsl.sim.PlayoutFailed` with its message and position.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Callable

import attrs

from ..language.errors import ParameterError, RulesRuntimeError, read_source
from .botbase import Bot
from .sim import PlayoutFailed, _seat_bots, derive_seed, play_game
from .trajectory import Trajectory

_GAMES: dict = {}  # (path, text, params) -> compiled game, one per worker process


@attrs.frozen
class Run:
    """The games of a run, in game order, and what they covered of the rules."""

    records: list  # one dict per game (see play_chunk)
    coverage: dict | None  # summed coverage counts, or None when not asked for


def chunks(path, params: dict, players: int, seed: int, games: int, bots, coverage: bool = False,
           size: int = 50, watch: list | None = None) -> list[dict]:
    """The work of ``games`` games cut into chunks of at most ``size`` consecutive games.

    ``watch``: the seats whose decisions are counted move by move (``offered``/``picked``)."""
    text = read_source(path)
    size = max(1, size)
    return [{"path": str(Path(path).resolve()), "text": text, "params": dict(params), "players": players,
             "seed": seed, "bots": bots, "start": start, "stop": min(games, start + size), "coverage": coverage,
             "watch": watch}
            for start in range(0, games, size)]


def _game(task):
    from ..engine.load import loads

    key = (task["path"], task["text"], tuple(sorted(task["params"].items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = loads(task["text"], task["path"], task["params"])
    return game


def play_chunk(task: dict) -> dict:
    """Play the games ``task['start']`` to ``task['stop'] - 1``; return their records.

    A record holds the game's ``index``, ``seed``, ``scores``, ``winners``,
    ``length``, ``finding``, ``decisions`` (moves chosen), ``legal`` (legal
    moves listed, summed over the decisions) and ``chosen`` (move name ->
    times), ``design`` (its trajectory's numbers, :mod:`ruledsl.play.trajectory`) and, for
    watched seats, ``offered``/``picked`` (move name -> their decisions that offered more than one
    kind of move and listed it / where they took it). A game whose rule failed is ``{"index", "seed", "error"}`` and ends
    the chunk.
    """
    game = _game(task)
    cov = None
    if task["coverage"]:
        from ..engine.coverage import instrument

        game, cov = instrument(game)
    records = []
    watch = set(task.get("watch") or ())
    for i in range(task["start"], task["stop"]):
        seed = derive_seed(task["seed"], i)
        counts = {"legal": 0, "chosen": Counter(), "offered": Counter(), "picked": Counter()}
        trail = Trajectory()

        def note(state, legal, move):
            counts["legal"] += len(legal)
            counts["chosen"][move.name] += 1
            trail.note(state)
            if watch and state.actor in watch:
                names = {m.name for m in legal}
                if len(names) > 1:
                    counts["offered"].update(names)
                    counts["picked"][move.name] += 1
            if cov is not None:
                cov.note_moves(state, legal, move)

        bots = task["bots"]
        if cov is not None:  # a bot that searches plays imagined games: they must not count as coverage
            bots = [_Unseen(b, cov) if b.wants_worlds else b for b in _seat_bots(bots, task["players"], seed)]
        try:
            result = play_game(game, task["players"], seed, bots, on_decision=note)
        except RulesRuntimeError as err:
            records.append({"index": i, "seed": seed, "error": str(err)})
            break
        records.append({"index": i, "seed": seed, "scores": list(result.scores), "winners": list(result.winners),
                        "length": result.length, "finding": result.finding,
                        "decisions": sum(counts["chosen"].values()), "legal": counts["legal"],
                        "chosen": dict(counts["chosen"]), "design": trail.finish(list(result.winners)),
                        **({} if result.teams is None else {"teams": list(result.teams)}),
                        **({} if result.statistics is None else {"statistics": dict(result.statistics)})})
        if watch:
            records[-1].update(offered=dict(counts["offered"]), picked=dict(counts["picked"]))
    out = {"start": task["start"], "records": records}
    if cov is not None:
        out["coverage"] = {"runs": cov.runs, "true": cov.true, "false": cov.false, "fired": cov.fired,
                           "offered": cov.offered, "taken": cov.taken, "shapes": cov.shapes}
    return out


class _Unseen(Bot):
    """A bot whose thinking leaves the coverage counts as they were (only the moves played count)."""

    def __init__(self, inner: Bot, cov):
        self.inner = inner
        self.cov = cov
        self.name = inner.name
        self.wants_view = inner.wants_view
        self.wants_worlds = inner.wants_worlds
        self.given = getattr(inner, "given", {})

    def choose(self, *args):
        cov = self.cov
        before = (list(cov.runs), list(cov.true), list(cov.false), list(cov.fired))
        try:
            return self.inner.choose(*args)
        finally:
            cov.runs[:], cov.true[:], cov.false[:], cov.fired[:] = before

    def __repr__(self) -> str:
        return repr(self.inner)


def _merge_coverage(total: dict | None, part: dict) -> dict:
    if total is None:
        return {k: (list(v) if isinstance(v, list) else dict(v)) for k, v in part.items()}
    for k, v in part.items():
        if isinstance(v, list):
            total[k] = [a + b for a, b in zip(total[k], v)]
        else:
            for key, n in v.items():
                total[k][key] = total[k].get(key, 0) + n
    return total


def coverage_of(game, counts: dict):
    """A :class:`~ruledsl.coverage.Coverage` of ``game`` holding summed ``counts``."""
    from ..engine.coverage import Coverage

    cov = Coverage(game.program)
    for k, v in counts.items():
        setattr(cov, k, v)
    return cov


def run_games(game, path, params: dict, players: int, seed: int, games: int, bots, jobs: int = 1,
              dask: str | None = None, coverage: bool = False,
              progress: Callable[[int, int], None] | None = None, watch: list | None = None) -> Run:
    """Play games ``0 .. games-1`` of ``path`` (compiled here as ``game``) and return their records in order.

    ``jobs`` local processes play the chunks (1: this process), or the Dask
    scheduler at ``dask`` does. ``progress(done, total)`` follows the games.
    Raises :class:`PlayoutFailed` for the first game (in game order) whose rule failed.
    """
    if jobs < 1:
        raise ParameterError(f"--jobs must be at least 1, not {jobs}")
    parts = 1 if dask is None else 4
    size = max(1, min(200, games // (max(jobs, parts) * 8) or 1))
    tasks = chunks(path, params, players, seed, games, bots, coverage, size, watch)
    done = 0
    results = []

    def finished(out):
        nonlocal done
        results.append(out)
        done += len(out["records"])
        if progress is not None:
            progress(done, games)

    if dask is not None:
        for out in _on_dask(dask, tasks):
            finished(out)
    elif jobs == 1:
        if tasks:
            t = tasks[0]
            _GAMES[(t["path"], t["text"], tuple(sorted(t["params"].items())))] = game
        for task in tasks:
            finished(play_chunk(task))
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for fut in as_completed([pool.submit(play_chunk, t) for t in tasks]):
                finished(fut.result())
    results.sort(key=lambda out: out["start"])
    records = [r for out in results for r in out["records"]]
    failed = next((r for r in records if "error" in r), None)
    if failed is not None:  # play it again here, for the real error with its position
        try:
            play_game(game, players, failed["seed"], bots)
        except PlayoutFailed as err:
            err.index = failed["index"]
            raise
        raise RulesRuntimeError(f"game {failed['index']} (seed {failed['seed']}) failed in a worker: {failed['error']}")
    total = None
    if coverage:
        for out in results:
            total = _merge_coverage(total, out["coverage"])
    return Run(records, total)


def _on_dask(address: str, tasks: list):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ParameterError("--dask needs the 'distributed' package: pip install 'ruledsl[scale]'") from None
    try:
        client = Client(address, timeout=float(os.environ.get("RULEDSL_DASK_TIMEOUT", "10")))
    except OSError as err:
        raise ParameterError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        futures = client.map(play_chunk, tasks, pure=False)
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.close()
