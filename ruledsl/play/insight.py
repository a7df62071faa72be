"""Design metrics: how a game feels, from the games a simulation already plays.

Each game played by :func:`ruledsl.scale.play_chunk` carries a small
*trajectory*: every player's standing sampled at the start of every turn
(:class:`Trajectory`). From it the worker works out the game's own numbers
(lead changes, how often and how far the eventual winner was behind, when the
lead was settled) and keeps only those and a thinned curve in the record, so
nothing is played twice and records stay small. :func:`design` adds the
records of a run up into the metrics with their 95% intervals;
:func:`skill` and :func:`dominance` read the extra games of the strongest bot
against random play and against itself (:func:`skill_runs`).

The definitions, with their references (RECYCLE/CardStock's heuristics,
Browne's game-quality measures), are in docs/scale.md ("Design metrics").
"""

from __future__ import annotations

import math

from ..language.errors import ParameterError
from .intervals import _mean_ci, _scipy_stats, proportion_ci

# ---- a run's records added up


def _mean_entry(values: list, share: bool = False) -> dict:
    """Mean and 95% t interval; ``share``: the values lie in [0, 1], and so does the interval."""
    n = len(values)
    ci = _mean_ci(values) if n else None
    if ci is not None and share:
        ci = [max(0.0, ci[0]), min(1.0, ci[1])]
    return {"mean": sum(values) / n if n else None, "ci95": ci, "games": n}


def _share_entry(k: int, n: int) -> dict:
    return {"rate": k / n if n else None, "ci95": proportion_ci(k, n) if n else None, "games": n}


def share(winners: list, seat: int) -> float:
    """A seat's share of a game's win: 1 for a sole winner, 1/k for each of k tied winners, else 0."""
    return 1.0 / len(winners) if seat in winners else 0.0


def design(records: list, players: int) -> dict:
    """The design metrics of a run's records, each with its 95% interval (docs/scale.md)."""
    n = len(records)
    stats = _scipy_stats()
    per = [r.get("design") or {} for r in records]
    changes = [d["lead_changes"] for d in per if "lead_changes" in d]
    won = [d for d in per if d.get("behind") is not None]
    depths = [d["depth"] for d in won if d.get("depth") is not None]
    out = {
        "lead_changes": {**_mean_entry(changes),
                         "at_least_one": _share_entry(sum(1 for c in changes if c > 0), len(changes))},
        "drama": {"behind": _mean_entry([d["behind"] for d in won], True),
                  "ever_behind": _share_entry(len(depths), len(won)),
                  "depth": _mean_entry(depths, True)},
        "decided_at": _mean_entry([d["decided_at"] for d in won], True),
    }
    decided = [r for r in records if r["winners"]]
    seats = []
    for p in range(players):
        shares = [share(r["winners"], p) for r in decided]
        entry = _mean_entry(shares, True)
        test = stats.ttest_1samp(shares, 1 / players) if len(shares) > 1 and len(set(shares)) > 1 else None
        entry["p_value"] = float(test.pvalue) if test is not None else (1.0 if not shares or
                                                                        shares[0] == 1 / players else 0.0)
        seats.append({"seat": p, **entry})
    out["first_mover"] = {"share": seats[0]["mean"], "fair_share": 1 / players,
                          "advantage": None if seats[0]["mean"] is None else seats[0]["mean"] - 1 / players,
                          "ci95": seats[0]["ci95"], "p_value": seats[0]["p_value"], "seats": seats}
    stalled = sum(1 for r in records if r["finding"] is not None or not r["winners"])
    out["stalemate"] = {**_share_entry(stalled, n),
                        "at_move_bound": sum(1 for r in records if r["finding"] is not None)}
    out["length"] = _spread([r["length"] for r in records])
    out["lead_change_histogram"] = _counts(changes)
    out["decided_at_histogram"] = _counts([round(d["decided_at"], 1) for d in won])
    return out


def _counts(values: list) -> dict:
    c: dict = {}
    for v in values:
        c[v] = c.get(v, 0) + 1
    return {str(k): c[k] for k in sorted(c)}


def _spread(values: list) -> dict:
    """Mean, standard deviation (with a chi-square interval), quartiles and range of game lengths."""
    n = len(values)
    if not n:
        return {"mean": None, "ci95": None, "sd": None, "sd_ci95": None, "quartiles": None, "min": None, "max": None}
    stats = _scipy_stats()
    mean = sum(values) / n
    s = sorted(values)
    q = [float(x) for x in _quantiles(s, (0.25, 0.5, 0.75))]
    if n < 2:
        return {"mean": mean, "ci95": [mean, mean], "sd": 0.0, "sd_ci95": [0.0, 0.0], "quartiles": q,
                "min": s[0], "max": s[-1], "cv": 0.0}
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    sd = math.sqrt(var)
    lo = math.sqrt((n - 1) * var / stats.chi2.ppf(0.975, n - 1))
    hi = math.sqrt((n - 1) * var / stats.chi2.ppf(0.025, n - 1))
    return {"mean": mean, "ci95": _mean_ci(values), "sd": sd, "sd_ci95": [lo, hi], "quartiles": q,
            "min": s[0], "max": s[-1], "cv": sd / mean if mean else 0.0}


def _quantiles(s: list, qs) -> list:
    out = []
    for q in qs:
        x = q * (len(s) - 1)
        i = int(x)
        out.append(s[i] if i + 1 >= len(s) else s[i] + (s[i + 1] - s[i]) * (x - i))
    return out


# ---- skill against luck, and dominant moves


def skill(against_random: list, against_itself: list) -> dict:
    """Skill against luck from the strongest bot's games, deal by deal.

    ``against_random``: records with ``strong`` (the strong bot's seat, random play in the others)
    and ``index`` (the deal); every seat plays every deal. ``against_itself``: the strong bot in
    every seat, the same deals. For deal *i*, ``R_i`` is the strong bot's mean win share over its
    seats against random play and ``S_i`` its mean share over the seats against itself (1/players
    when the game has a winner). ``index = (mean R - mean S) / (1 - mean S)``: 0 when search wins
    no more often against random play than against itself (luck decides), 1 when it always wins
    against random play. The interval is a percentile bootstrap over the deals (paired).
    """
    import numpy as np

    deals: dict = {}
    for r in against_random:
        deals.setdefault(r["index"], []).append(share(r["winners"], r["strong"]))
    itself = {r["index"]: sum(share(r["winners"], p) for p in range(len(r["scores"]))) / len(r["scores"])
              for r in against_itself}
    keys = [i for i in sorted(deals) if i in itself]
    a = [sum(deals[i]) / len(deals[i]) for i in keys]
    b = [itself[i] for i in keys]
    out = {"deals": len(keys), "against_random": _mean_entry(a, True), "against_itself": _mean_entry(b, True),
           "index": None, "ci95": None}
    if not keys:
        return out

    def index(x, y, axis=-1):
        mx, my = np.mean(x, axis=axis), np.mean(y, axis=axis)
        return (mx - my) / np.where(my < 1, 1 - my, 1.0)

    x, y = np.array(a), np.array(b)
    value = float(index(x, y))
    out["index"] = value
    if len(keys) < 2 or np.all(x - y == (x - y)[0]) and np.all(y == y[0]):
        out["ci95"] = [value, value]
        return out
    res = _scipy_stats().bootstrap((x, y), index, n_resamples=999, method="percentile", paired=True,
                                   vectorized=True, random_state=0)
    out["ci95"] = [float(res.confidence_interval.low), float(res.confidence_interval.high)]
    return out


def dominance(records: list, least: int = 5) -> dict:
    """Moves the strong bot picks whenever they are legal, and moves it never picks.

    Counted over the strong bot's decisions that offered more than one kind of move (records'
    ``offered``/``picked``: move name -> decisions). A move offered at least ``least`` times
    is *dominant* if it was picked every time (pick rate 1), *shunned* if never.
    """
    offered: dict = {}
    picked: dict = {}
    for r in records:
        for k, v in (r.get("offered") or {}).items():
            offered[k] = offered.get(k, 0) + v
        for k, v in (r.get("picked") or {}).items():
            picked[k] = picked.get(k, 0) + v
    moves = []
    for name in sorted(offered, key=lambda k: (-offered[k], k)):
        k, n = picked.get(name, 0), offered[name]
        moves.append({"move": name, "offered": n, "picked": k, "rate": k / n, "ci95": proportion_ci(k, n)})
    return {"moves": moves,
            "dominant": [m["move"] for m in moves if m["offered"] >= least and m["picked"] == m["offered"]],
            "never": [m["move"] for m in moves if m["offered"] >= least and m["picked"] == 0]}


def skill_runs(game, path, params: dict, players: int, seed: int, games: int, strong: str, jobs: int = 1,
               dask: str | None = None, progress=None) -> dict:
    """Play the strongest bot's games and return ``{"skill": ..., "dominance": ...}``.

    ``games`` deals (seeds derived from ``seed``), each played once with the strong bot in each
    seat against random play and once with the strong bot in every seat: ``(players + 1) *
    games`` games, paired deal by deal.
    """
    from .scale import run_games
    from .sim import derive_seed

    if games < 1:
        raise ParameterError(f"--skill-games must be at least 1, not {games}")
    base = derive_seed(seed, 0x5C111)
    against_random = []
    for s in range(players):
        bots = ["random"] * players
        bots[s] = strong
        run = run_games(game, path, params, players, base, games, bots, jobs=jobs, dask=dask, watch=[s])
        against_random += [{**r, "strong": s} for r in run.records]
        if progress is not None:
            progress((s + 1) * games, (players + 1) * games)
    run = run_games(game, path, params, players, base, games, [strong] * players, jobs=jobs, dask=dask,
                    watch=list(range(players)))
    if progress is not None:
        progress((players + 1) * games, (players + 1) * games)
    return {"bot": strong, "games": games, "skill": skill(against_random, run.records),
            "dominance": dominance(run.records + against_random)}


# ---- shown: as lines of text, on the report page, in plots, side by side


def _fmt(x, pct: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x:.1%}" if pct else f"{x:.2f}"


def _iv(ci, pct: bool = False) -> str:
    return "" if ci is None else f" [{_fmt(ci[0], pct)}, {_fmt(ci[1], pct)}]"


def rows(rep: dict) -> list:
    """``(metric, value with its 95% interval)`` pairs of a balance report's design metrics."""
    d = rep["design"]
    f = d["first_mover"]
    ln = d["length"]
    out = [
        ("lead changes per game", _fmt(d["lead_changes"]["mean"]) + _iv(d["lead_changes"]["ci95"])),
        ("games with a lead change", _fmt(d["lead_changes"]["at_least_one"]["rate"], True)
         + _iv(d["lead_changes"]["at_least_one"]["ci95"], True)),
        ("drama: share of the game the winner was behind", _fmt(d["drama"]["behind"]["mean"], True)
         + _iv(d["drama"]["behind"]["ci95"], True)),
        ("drama: games the winner was ever behind", _fmt(d["drama"]["ever_behind"]["rate"], True)
         + _iv(d["drama"]["ever_behind"]["ci95"], True)),
        ("drama: how far behind (share of the spread)", _fmt(d["drama"]["depth"]["mean"], True)
         + _iv(d["drama"]["depth"]["ci95"], True)),
        ("decided at (share of the game)", _fmt(d["decided_at"]["mean"], True) + _iv(d["decided_at"]["ci95"], True)),
        ("first mover's share of wins", _fmt(f["share"], True) + _iv(f["ci95"], True)
         + f" (fair {f['fair_share']:.1%}, p = {f['p_value']:.3g})"),
        ("stalemates", _fmt(d["stalemate"]["rate"], True) + _iv(d["stalemate"]["ci95"], True)),
        ("length: mean", _fmt(ln["mean"]) + _iv(ln["ci95"])),
        ("length: spread (sd)", _fmt(ln["sd"]) + _iv(ln["sd_ci95"])
         + (f", quartiles {ln['quartiles'][0]:g}/{ln['quartiles'][1]:g}/{ln['quartiles'][2]:g}, "
            f"{ln['min']}..{ln['max']}" if ln["quartiles"] else "")),
    ]
    sk = rep.get("skill")
    if sk:
        s = sk["skill"]
        out.append((f"skill vs luck ({sk['bot']}, {sk['games']} deals)", _fmt(s["index"]) + _iv(s["ci95"])
                    + f"; wins {_fmt(s['against_random']['mean'], True)} against random, "
                      f"{_fmt(s['against_itself']['mean'], True)} against itself"))
        dom = sk["dominance"]
        out.append(("dominant moves (always taken)", ", ".join(dom["dominant"]) or "none"))
        out.append(("moves never taken", ", ".join(dom["never"]) or "none"))
    return out


def design_html(rep: dict) -> str:
    """The design metrics of a balance report as an HTML table (docs/scale.md defines them)."""
    import html

    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows(rep))
    out = f"<h2>Design metrics</h2><table><tr><th>metric</th><th>value [95% interval]</th></tr>{body}</table>"
    sk = rep.get("skill")
    if sk:
        moves = "".join(f"<tr><td>{html.escape(m['move'])}</td><td>{m['offered']}</td><td>{m['picked']}</td>"
                        f"<td>{m['rate']:.1%} [{m['ci95'][0]:.1%}, {m['ci95'][1]:.1%}]</td></tr>"
                        for m in sk["dominance"]["moves"])
        out += (f"<h3>Moves the strongest bot ({html.escape(sk['bot'])}) takes when it has a choice</h3>"
                f"<table><tr><th>move</th><th>offered</th><th>taken</th><th>rate [95% interval]</th></tr>"
                f"{moves}</table>")
    return out


def design_plots(rep: dict, plt, save) -> None:
    """Plots of the design metrics: lead changes per game, when games were decided."""
    per_game = rep["design"]
    hist = per_game.get("lead_change_histogram") or {}
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.bar([int(k) for k in hist], list(hist.values()), color="#e45756")
    ax.set_xlabel("lead changes in the game")
    ax.set_ylabel("games")
    save(fig, "lead_changes", "Lead changes")
    hist = per_game.get("decided_at_histogram") or {}
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.bar([float(k) for k in hist], list(hist.values()), width=0.09, color="#72b7b2")
    ax.set_xlabel("share of the game played when the winner took the lead for good")
    ax.set_ylabel("games")
    save(fig, "decided_at", "When the game was decided")


def side_by_side(base: dict, variant: dict) -> list:
    """``(metric, base, variant)`` rows of two balance reports' design metrics."""
    b, v = rows(base), rows(variant)
    bd, vd = dict(b), dict(v)
    names = [k for k, _ in b] + [k for k, _ in v if k not in bd]
    return [(k, bd.get(k, "-"), vd.get(k, "-")) for k in names]
