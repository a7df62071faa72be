"""``verify --jobs N``: the examples of a verify run split over processes, and the findings merged."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import attrs

from ..language.errors import read_source
from ..play.scale import _game, _merge_coverage, coverage_of
from ..play.sim import derive_seed


def verify_shards(examples: int, seed: int, jobs: int) -> list[tuple[int, int]]:
    """How ``verify --jobs`` splits its work: ``(examples, seed)`` of each shard.

    With ``jobs`` 1 there is one shard, the search ``verify`` makes on its own.
    Otherwise shard ``j`` makes an independent search of its share of the
    examples with seed ``derive_seed(seed, j)``.
    """
    if jobs <= 1:
        return [(examples, seed)]
    shares = [examples // jobs + (1 if j < examples % jobs else 0) for j in range(jobs)]
    return [(k, derive_seed(seed, j)) for j, k in enumerate(shares) if k]


def _verify_shard(task: dict) -> dict:
    from .session import run

    game = _game(task)
    small = None
    if task.get("small"):
        small = (_game({**task, "params": {**task["params"], **task["small"]}}), task["small"])
    report = run(game, task["counts"], task["examples"], task["seed"], task.get("seconds"), task.get("states"),
                 task.get("explore_only", False), small, None, task["shrink_seconds"])
    cov = report.coverage
    return {"examples": report.examples, "steps": report.steps, "longest": report.longest,
            "failure": None if report.failure is None else attrs.asdict(report.failure),
            "shrink_stopped": report.shrink_stopped, "spaces": [attrs.asdict(s) for s in report.spaces],
            "out_of_time": report.out_of_time, "interrupted": report.interrupted,
            "coverage": {"runs": cov.runs, "true": cov.true, "false": cov.false, "fired": cov.fired,
                         "offered": cov.offered, "taken": cov.taken, "shapes": cov.shapes}}


def verify_parallel(game, path, params: dict, counts, examples: int | None, seed: int, jobs: int,
                    shrink_seconds: float = 30.0, progress: Callable[[int, int], None] | None = None,
                    seconds: float | None = None, states: int | None = None, explore_only: bool = False,
                    small: dict | None = None):
    """``verify`` split into :func:`verify_shards` played by ``jobs`` processes; one merged Report.

    Each shard is a whole run (:func:`.session.run`: exploration from its own seed, then its share
    of the random games) within ``seconds`` of CPU time. The report counts the games and moves of
    every shard, lists the deals each explored and sums their coverage; its failure is the
    shortest one found (the first shard's on a tie). Ctrl-C stops every shard: the report holds
    what the shards had found.
    """
    from concurrent.futures import ProcessPoolExecutor, wait

    from .checks import Failure, Report, checks_of
    from .explore import Space

    text = read_source(path)
    if examples is None:  # games until the time is up: every shard plays until its budget is spent
        shards = [(None, derive_seed(seed, j) if jobs > 1 else seed) for j in range(jobs)]
    else:
        shards = verify_shards(examples, seed, jobs)
    tasks = [{"path": str(Path(path).resolve()), "text": text, "params": dict(params), "counts": counts,
              "examples": k, "seed": s, "shrink_seconds": shrink_seconds, "seconds": seconds, "states": states,
              "explore_only": explore_only, "small": small} for k, s in shards]
    outs = []
    interrupted = False
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_verify_shard, task) for task in tasks]
        try:
            for f in futures:
                outs.append(f.result())
                if progress is not None:
                    progress(sum(o["examples"] for o in outs), examples)
        except KeyboardInterrupt:  # the shards were interrupted too: they return what they found
            interrupted = True
            done, _ = wait(futures, timeout=10)
            outs = [f.result() for f in futures if f in done and f.exception() is None]
    total = None
    for out in outs:
        total = _merge_coverage(total, out["coverage"])
    report = Report(checks_of(game), coverage=coverage_of(game, total))
    report.examples = sum(o["examples"] for o in outs)
    report.steps = sum(o["steps"] for o in outs)
    report.longest = max((o["longest"] for o in outs), default=0)
    report.spaces = [Space(**s) for o in outs for s in o["spaces"]]
    report.out_of_time = any(o["out_of_time"] for o in outs)
    report.interrupted = interrupted or any(o["interrupted"] for o in outs)
    failed = [o for o in outs if o["failure"] is not None]
    if failed:
        first = min(failed, key=lambda o: len(o["failure"]["moves"]))
        report.failure = Failure(**first["failure"])
        report.shrink_stopped = first["shrink_stopped"]
    return report
