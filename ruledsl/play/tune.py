"""Tuning a game's parameters: paired games over a grid of values, or a successive-halving search.

A parameter is tuned over a range of whole numbers (``NAME=LOW..HIGH``), a
list of values of any type (``NAME=a,b,c``: numbers, texts, ``true,false``),
or, for a true/false parameter, both its values (``NAME`` alone).

Every value of the parameters is played with the same seeds and bots (game
``i`` with seed ``derive_seed(seed, i)``), so the values are compared on the
same deals and a difference comes from the rules, not from the cards. A
*target* says what is best:

- ``fair``: the seats' shares of the wins (a shared win counts as a fraction,
  docs/scale.md) as close to ``1/players`` as can be: the cost is the largest
  distance of a seat's share from the fair share, the value shown is the first
  mover's share;
- ``length=N``: the mean game length (moves) as close to ``N`` as can be;
- ``drama``: the share of the game the eventual winner was behind, as large as can be.

:func:`tune` returns a plain dict (the candidates with the target's estimate
and its 95% interval, the best one, and the values that cannot be told apart
from it); :func:`plot` draws the target against each parameter with matplotlib.
"""

from __future__ import annotations

import itertools
import math

from ..language.errors import ParameterError
from .insight import design, share
from .intervals import _mean_ci


def parse_range(text: str) -> tuple[str, int, int]:
    """``"hand_size=8..15"`` -> ``("hand_size", 8, 15)``; raises ParameterError otherwise."""
    name, eq, rest = text.partition("=")
    lo, dots, hi = rest.partition("..")
    name = name.strip()
    try:
        low, high = int(lo), int(hi)
    except ValueError:
        low = high = None
    if not eq or not dots or not name.isidentifier() or low is None:
        raise ParameterError(f"--param takes NAME=LOW..HIGH with whole numbers (for example hand_size=8..15), "
                             f"not {text!r}")
    if low > high:
        raise ParameterError(f"--param {name}: {low}..{high} is empty; give the low value first")
    return name, low, high


def parse_param(text: str):
    """One ``--param``: ``NAME=LOW..HIGH`` -> ``(name, low, high)``; ``NAME=a,b,c`` -> ``(name, [a, b, c])``;
    ``NAME`` alone -> ``(name, None)`` (every value of a true/false parameter, filled in by :func:`resolve`)."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    if not name.isidentifier():
        raise ParameterError(f"--param takes NAME=LOW..HIGH, NAME=a,b,c or NAME (a true/false parameter), "
                             f"not {text!r}")
    if not eq:
        return name, None
    if ".." in rest:
        return parse_range(text)
    values = [v.strip() for v in rest.split(",")]
    if len(values) < 2 or not all(values):
        raise ParameterError(f"--param {name}: give two values or more (NAME=a,b,c) or a range "
                             f"(NAME=LOW..HIGH), not {text!r}")
    if len(set(values)) != len(values):
        raise ParameterError(f"--param {name}: a value is given twice in {rest!r}")
    return name, [_number(v) for v in values]


def _number(v: str):
    try:
        return int(v)
    except ValueError:
        return v


def resolve(spec, default):
    """``(name, None)`` of a true/false parameter -> ``(name, [False, True])``; list values of one checked type."""
    name = spec[0]
    if len(spec) == 3:
        if isinstance(default, bool) or not isinstance(default, int):
            raise ParameterError(f"--param {name}: a range is for number parameters; {name} is "
                                 f"{_kind(default)}: give its values as {name}=a,b")
        return spec
    values = spec[1]
    if values is None:
        if not isinstance(default, bool):
            raise ParameterError(f"--param {name} without values is for a true/false parameter; {name} is "
                                 f"{_kind(default)}: give {name}=LOW..HIGH or {name}=a,b,c")
        return name, [False, True]
    if isinstance(default, bool):
        words = {"true": True, "false": False}
        if any(str(v).lower() not in words for v in values):
            raise ParameterError(f"--param {name}: {name} is true or false, not {', '.join(map(str, values))}")
        return name, [words[str(v).lower()] for v in values]
    if isinstance(default, int) and not all(isinstance(v, int) for v in values):
        raise ParameterError(f"--param {name}: {name} is a number, not {', '.join(map(str, values))}")
    if isinstance(default, str):
        return name, [str(v) for v in values]
    return name, values


def _kind(value) -> str:
    return "true or false" if isinstance(value, bool) else "a number" if isinstance(value, int) else "a text"


def shown(value) -> str:
    """A parameter value as ``--set`` takes it (and a table shows it)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parse_target(text: str) -> tuple[str, float | None]:
    """``fair``, ``drama`` or ``length=N``."""
    t = text.strip()
    if t in ("fair", "drama"):
        return t, None
    if t.startswith("length="):
        try:
            n = float(t[len("length="):])
        except ValueError:
            n = float("nan")
        if n > 0 and math.isfinite(n):
            return "length", n
    raise ParameterError(f"--target is fair, drama or length=N (a mean game length in moves), not {text!r}")


def grid(ranges: list, points: int) -> list[dict]:
    """Every combination of at most ``points`` evenly spread whole values of each range (and every value
    of each list, in its order)."""
    axes = []
    for spec in ranges:
        if len(spec) == 2:
            axes.append([(spec[0], v) for v in spec[1]])
            continue
        name, low, high = spec
        span = high - low
        if span + 1 <= points:
            values = list(range(low, high + 1))
        else:
            values = sorted({low + round(k * span / (points - 1)) for k in range(points)})
        axes.append([(name, v) for v in values])
    return [dict(combo) for combo in itertools.product(*axes)]


def measure(records: list, players: int, target: str, goal: float | None) -> dict:
    """The target's estimate for one candidate's records, with a 95% interval; ``cost``: smaller is better."""
    if target == "length":
        lengths = [r["length"] for r in records]
        mean = sum(lengths) / len(lengths)
        return {"value": mean, "ci95": _mean_ci(lengths), "cost": abs(mean - goal), "what": "mean length"}
    if target == "drama":
        d = design(records, players)["drama"]["behind"]
        mean = d["mean"] if d["mean"] is not None else 0.0
        return {"value": mean, "ci95": d["ci95"] or [0.0, 0.0], "cost": -mean,
                "what": "share of the game the winner was behind"}
    decided = [r for r in records if r["winners"]]
    seats = []
    for p in range(players):
        shares = [share(r["winners"], p) for r in decided]
        mean = sum(shares) / len(shares) if shares else 0.0
        seats.append((mean, _mean_ci(shares) if shares else [0.0, 1.0]))
    cost = max(abs(m - 1 / players) for m, _ in seats)
    return {"value": seats[0][0], "ci95": seats[0][1], "cost": cost, "fair_share": 1 / players,
            "shares": [m for m, _ in seats], "what": "first mover's share of wins"}


def tune(game_for, path, players: int, seed: int, games: int, bots, ranges: list, target: str,
         goal: float | None = None, search: str = "grid", points: int = 8, jobs: int = 1,
         dask: str | None = None, progress=None) -> dict:
    """Play every candidate value (``game_for(params) -> Game``) and return what was found.

    ``search="grid"`` plays ``games`` games for every candidate. ``"halving"``
    plays every candidate with a few games, keeps the better half, doubles the
    games and goes on until one is left or the games reach ``games``; the
    games of a round are always games ``0 .. k-1`` of the same seeds.
    """
    from .scale import run_games

    if search not in ("grid", "halving"):
        raise ParameterError(f"--search is grid or halving, not {search!r}")
    candidates = grid(ranges, points)
    rounds = 1
    count = games
    if search == "halving" and len(candidates) > 1:
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        count = max(10, games // 2 ** (rounds - 1))
    alive = list(range(len(candidates)))
    results: dict = {}
    played = 0
    for r in range(rounds):
        if r == rounds - 1:
            count = games
        for i in alive:
            params = candidates[i]
            game = game_for({k: shown(v) for k, v in params.items()})
            within = None if progress is None else (lambda done, _total, before=played: progress(before + done))
            run = run_games(game, path, {k: shown(v) for k, v in params.items()}, players, seed, count, bots,
                            jobs=jobs, dask=dask, progress=within)
            played += count
            results[i] = {"params": params, "games": count, **measure(run.records, players, target, goal)}
            if progress is not None:
                progress(played)
        if r < rounds - 1:
            alive = sorted(alive, key=lambda i: results[i]["cost"])[:max(1, math.ceil(len(alive) / 2))]
            count = min(games, count * 2)
    final = [results[i] for i in alive]
    best = min(final, key=lambda c: c["cost"])
    close = [c["params"] for c in final if _overlaps(c, best)]
    return {"target": target if goal is None else f"{target}={goal:g}", "search": search, "seed": seed,
            "games": games, "players": players, "played": played,
            "candidates": [results[i] for i in sorted(results)], "best": best, "indistinguishable": close}


def _overlaps(c: dict, best: dict) -> bool:
    return c["ci95"][0] <= best["ci95"][1] and best["ci95"][0] <= c["ci95"][1]


def plot(result: dict, ranges: list, out) -> None:
    """The target against each parameter (one panel each), with 95% intervals, into the PNG ``out``."""
    from .report import _plt

    plt = _plt()
    fig, axes = plt.subplots(1, len(ranges), figsize=(5 * len(ranges), 3.4), squeeze=False)
    for ax, spec in zip(axes[0], ranges):
        name = spec[0]
        numeric = len(spec) == 3
        cands = sorted(result["candidates"], key=lambda c: c["params"][name]) if numeric else \
            sorted(result["candidates"], key=lambda c: spec[1].index(c["params"][name]))
        xs = [c["params"][name] if numeric else shown(c["params"][name]) for c in cands]
        ys = [c["value"] for c in cands]
        err = [[c["value"] - c["ci95"][0] for c in cands], [c["ci95"][1] - c["value"] for c in cands]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, color="#4c78a8")
        best_x = result["best"]["params"][name]
        ax.plot([best_x if numeric else shown(best_x)], [result["best"]["value"]], "o", color="#e45756",
                label="best")
        fair = result["best"].get("fair_share")
        if fair is not None:
            ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label="fair share")
        ax.set_xlabel(name)
        ax.set_ylabel(f"{result['best']['what']} (95% interval)", fontsize=8)
        ax.legend(fontsize=8)
    fig.suptitle(f"target {result['target']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)
