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
    from .checks import verify

    game = _game(task)
    report = verify(game, task["counts"], task["examples"], task["seed"], None, task["shrink_seconds"])
    cov = report.coverage
    return {"examples": report.examples, "steps": report.steps, "longest": report.longest,
            "failure": None if report.failure is None else attrs.asdict(report.failure),
            "shrink_stopped": report.shrink_stopped,
            "coverage": {"runs": cov.runs, "true": cov.true, "false": cov.false, "fired": cov.fired,
                         "offered": cov.offered, "taken": cov.taken, "shapes": cov.shapes}}


def verify_parallel(game, path, params: dict, counts, examples: int, seed: int, jobs: int,
                    shrink_seconds: float = 30.0, progress: Callable[[int, int], None] | None = None):
    """``verify`` split into :func:`verify_shards` played by ``jobs`` processes; one merged Report.

    The report counts the games and moves of every shard and sums their
    coverage; its failure is the shortest one found (the first shard's on a tie).
    """
    from concurrent.futures import ProcessPoolExecutor

    from .checks import Failure, Report, checks_of

    text = read_source(path)
    tasks = [{"path": str(Path(path).resolve()), "text": text, "params": dict(params), "counts": counts,
              "examples": k, "seed": s, "shrink_seconds": shrink_seconds} for k, s in verify_shards(examples, seed, jobs)]
    outs = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for out in pool.map(_verify_shard, tasks):
            outs.append(out)
            if progress is not None:
                progress(sum(o["examples"] for o in outs), examples)
    total = None
    for out in outs:
        total = _merge_coverage(total, out["coverage"])
    report = Report(checks_of(game), coverage=coverage_of(game, total))
    report.examples = sum(o["examples"] for o in outs)
    report.steps = sum(o["steps"] for o in outs)
    report.longest = max(o["longest"] for o in outs)
    failed = [o for o in outs if o["failure"] is not None]
    if failed:
        first = min(failed, key=lambda o: len(o["failure"]["moves"]))
        report.failure = Failure(**first["failure"])
        report.shrink_stopped = first["shrink_stopped"]
    return report
