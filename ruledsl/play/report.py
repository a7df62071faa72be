"""Balance reports: statistics of many games, variant comparison, and an HTML page with plots.

The statistics come from scipy (confidence intervals of proportions, paired
tests); the plots from matplotlib with its Agg backend (no display needed).
Both come with the ``report`` extra (``pip install 'ruledsl[report]'``); without
them every other command works and these say which extra to install.

:func:`balance` turns the records of :func:`ruledsl.scale.run_games` into a
plain dict (``report.json``); :func:`paired` compares two runs played with the
same seeds and bots; :func:`write_report` writes ``report.json``,
``report.html`` and the PNG plots beside it into a directory.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path

from ..language.errors import ParameterError
from .insight import design, design_html, design_plots
from .intervals import _mean_ci, _scipy_stats, proportion_ci, statistic_summary


def require(plots: bool) -> None:
    """Raise ParameterError, saying which extra to install, if the statistics (or the plots) are missing.

    Asked before any game is played, so that a long run does not end in the message."""
    _scipy_stats()
    if plots:
        _plt()


def _histogram(values: list) -> dict:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


def _first_player(records: list, players: int, stats) -> dict:
    """Seat 0's share of the wins against the fair share 1/players, over the games that have winners.

    A k-way shared win gives each of its winners 1/k (the shares of a game add up to 1, so under
    no advantage each seat's mean share is 1/players); counting it whole for each would make the rates
    add up to more than 100% and find an advantage that is not there. Without shared wins the test is
    the exact binomial test; with them, a t test of the mean share."""
    fair = 1 / players
    shares = [1 / len(r["winners"]) if 0 in r["winners"] else 0.0 for r in records if r["winners"]]
    m = len(shares)
    share = sum(shares) / m if m else 0.0
    if all(x in (0.0, 1.0) for x in shares):
        k = sum(1 for x in shares if x == 1.0)
        ci, p, test = proportion_ci(k, m), float(stats.binomtest(k, m, fair).pvalue) if m else 1.0, "binomial"
    else:
        ci, test = _mean_ci(shares), "t"
        p = float(stats.ttest_1samp(shares, fair).pvalue) if len(set(shares)) > 1 else (1.0 if share == fair else 0.0)
    return {"win_rate": _wins_rate(records, 0), "win_share": share, "fair_share": fair, "advantage": share - fair,
            "ci95": ci, "p_value": p, "test": test, "decided": m}


def _wins_rate(records: list, seat: int) -> float:
    """The share of games ``seat`` won, a shared win counted whole."""
    return sum(1 for r in records if seat in r["winners"]) / len(records) if records else 0.0


def _statistic_values(records: list) -> dict:
    """The rules' statistics of each record, by name: the list of per-game values (true/false kept)."""
    names = list(dict.fromkeys(k for r in records for k in r.get("statistics", ())))
    return {k: [r["statistics"][k] for r in records if k in r.get("statistics", ())] for k in names}


def statistics_of(records: list) -> dict:
    """Each `statistic` of a run: its mean (a share of games for a true/false one) and 95% interval."""
    out = {}
    for name, values in _statistic_values(records).items():
        share = bool(values) and all(isinstance(v, bool) for v in values)
        nums = [int(v) for v in values]
        out[name] = statistic_summary(share, len(nums), sum(nums), sum(v * v for v in nums))
    return out


def balance(records: list, players: int, coverage=None) -> dict:
    """The statistics of a run: win rates with intervals, first-player advantage, distributions, moves."""
    n = len(records)
    stats = _scipy_stats()
    wins = [sum(1 for r in records if p in r["winners"]) for p in range(players)]
    seats = []
    for p in range(players):
        scores = [r["scores"][p] for r in records]
        seats.append({"seat": p, "wins": wins[p], "win_rate": wins[p] / n if n else 0.0,
                      "win_rate_ci95": proportion_ci(wins[p], n),
                      "mean_score": sum(scores) / n if n else 0.0, "mean_score_ci95": _mean_ci(scores)})
    first = _first_player(records, players, stats)
    margins = []
    for r in records:
        s = sorted(r["scores"], reverse=True)
        margins.append(s[0] - s[1] if len(s) > 1 else 0)
    decisions = sum(r["decisions"] for r in records)
    chosen = Counter()
    for r in records:
        chosen.update(r["chosen"])
    out = {
        "games": n,
        "players": players,
        "seats": seats,
        "first_player": first,
        "stopped": sum(1 for r in records if r["finding"] is not None),
        "shared_wins": sum(1 for r in records if len(r["winners"]) > 1),
        "length": {"mean": sum(r["length"] for r in records) / n if n else 0.0,
                   "max": max((r["length"] for r in records), default=0),
                   "histogram": _histogram([r["length"] for r in records])},
        "margin": {"mean": sum(margins) / n if n else 0.0, "histogram": _histogram(margins)},
        "scores": [_histogram([r["scores"][p] for r in records]) for p in range(players)],
        "decisions_per_game": decisions / n if n else 0.0,
        "mean_legal_moves": sum(r["legal"] for r in records) / decisions if decisions else 0.0,
        "moves_chosen": dict(chosen.most_common()),
        "design": design(records, players),
    }
    if any("statistics" in r for r in records):
        out["statistics"] = statistics_of(records)
    if coverage is not None:
        items = coverage.items()
        out["coverage"] = {
            "summary": coverage.summary(),
            "moves_never_offered": [{"where": i.where, "what": i.what} for i in items
                                    if i.kind == "move" and not i.counts[0]],
            "triggers_never_fired": [{"where": i.where, "what": i.what} for i in items
                                     if i.kind == "trigger" and not i.counts[0]],
            "branches_not_both_ways": [{"where": i.where, "what": i.what, "true": i.counts[0], "false": i.counts[1]}
                                       for i in items if i.kind == "branch" and not i.covered],
            "lines_never_run": [{"where": i.where, "what": i.what} for i in items
                                if i.kind == "line" and not i.counts[0]],
        }
    return out


def paired(base: list, variant: list, players: int) -> dict:
    """Seat by seat, the change from ``base`` to ``variant`` of games played with the same seeds and bots.

    Win rate: the mean of the per-game difference of win indicators with a
    paired t interval, and McNemar's exact test (a binomial test of the games
    won in one run only). Mean score: the mean paired difference with a t
    interval, the paired t-test and the Wilcoxon signed-rank test.
    """
    stats = _scipy_stats()
    if len(base) != len(variant) or any(a["seed"] != b["seed"] for a, b in zip(base, variant)):
        raise ParameterError("paired runs must play the same games with the same seeds")
    n = len(base)
    seats = []
    for p in range(players):
        wb = [1 if p in r["winners"] else 0 for r in base]
        wv = [1 if p in r["winners"] else 0 for r in variant]
        only_variant = sum(1 for a, b in zip(wb, wv) if b and not a)
        only_base = sum(1 for a, b in zip(wb, wv) if a and not b)
        discordant = only_variant + only_base
        mcnemar = float(stats.binomtest(only_variant, discordant, 0.5).pvalue) if discordant else 1.0
        win_diff = [b - a for a, b in zip(wb, wv)]
        sb = [r["scores"][p] for r in base]
        sv = [r["scores"][p] for r in variant]
        score_diff = [b - a for a, b in zip(sb, sv)]
        if n > 1 and any(score_diff):
            t_p = float(stats.ttest_rel(sv, sb).pvalue)
            w_p = float(stats.wilcoxon(score_diff).pvalue)
        else:
            t_p = w_p = 1.0
        seats.append({
            "seat": p,
            "win_rate": [sum(wb) / n if n else 0.0, sum(wv) / n if n else 0.0],
            "win_rate_change": sum(win_diff) / n if n else 0.0,
            "win_rate_change_ci95": _mean_ci(win_diff),
            "mcnemar_p": mcnemar,
            "mean_score": [sum(sb) / n if n else 0.0, sum(sv) / n if n else 0.0],
            "mean_score_change": sum(score_diff) / n if n else 0.0,
            "mean_score_change_ci95": _mean_ci(score_diff),
            "paired_t_p": t_p,
            "wilcoxon_p": w_p,
        })
    lengths = [b["length"] - a["length"] for a, b in zip(base, variant)]
    out = {"games": n, "players": players, "seats": seats,
           "length_change": sum(lengths) / n if n else 0.0, "length_change_ci95": _mean_ci(lengths)}
    statistics = _paired_statistics(base, variant, stats)
    if statistics:
        out["statistics"] = statistics
    return out


def _paired_statistics(base: list, variant: list, stats) -> dict:
    """The statistics both runs have, game by game: the mean change with a paired t interval, and
    McNemar's exact test for a true/false one, the paired t-test for a number."""
    out = {}
    vb, vv = _statistic_values(base), _statistic_values(variant)
    for name in vb:
        if name not in vv or len(vb[name]) != len(vv[name]):
            continue
        a, b = [int(x) for x in vb[name]], [int(x) for x in vv[name]]
        n = len(a)
        share = all(isinstance(x, bool) for x in vb[name] + vv[name])
        diff = [y - x for x, y in zip(a, b)]
        if share:
            gained = sum(1 for d in diff if d > 0)
            discordant = sum(1 for d in diff if d)
            p = float(stats.binomtest(gained, discordant, 0.5).pvalue) if discordant else 1.0
        else:
            p = float(stats.ttest_rel(b, a).pvalue) if n > 1 and len(set(diff)) > 1 else (1.0 if not any(diff) else 0.0)
        out[name] = {"kind": "share" if share else "mean", "games": n,
                     "mean": [sum(a) / n if n else 0.0, sum(b) / n if n else 0.0],
                     "change": sum(diff) / n if n else 0.0, "change_ci95": _mean_ci(diff),
                     "p_value": p, "test": "McNemar" if share else "paired t"}
    return out


# ---- the page


def _plt():
    try:
        import matplotlib
    except ImportError:
        raise ParameterError("--report needs matplotlib, which the `report` extra brings: "
                             "pip install 'ruledsl[report]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _bar_hist(ax, hist: dict, color=None, label=None, alpha=1.0):
    xs = [float(k) for k in hist]
    ax.bar(xs, list(hist.values()), width=max(0.8, (max(xs) - min(xs)) / 60) if xs else 0.8,
           color=color, label=label, alpha=alpha)


def plots(report: dict, out: Path, prefix: str = "") -> list:
    """Write the PNG plots of a balance report into ``out``; return ``(file, title)`` pairs."""
    plt = _plt()
    made = []

    def save(fig, name, title):
        path = out / f"{prefix}{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        made.append((path.name, title))

    seats = report["seats"]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    rates = [s["win_rate"] for s in seats]
    low = [s["win_rate"] - s["win_rate_ci95"][0] for s in seats]
    high = [s["win_rate_ci95"][1] - s["win_rate"] for s in seats]
    ax.bar([str(s["seat"]) for s in seats], rates, yerr=[low, high], capsize=4, color="#4c78a8")
    ax.axhline(1 / report["players"], color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (95% interval)")
    ax.legend()
    save(fig, "win_rates", "Win rate per seat")

    fig, ax = plt.subplots(figsize=(5, 3.2))
    for p, hist in enumerate(report["scores"]):
        ax.step([float(k) for k in hist], list(hist.values()), where="mid", label=f"seat {p}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend()
    save(fig, "scores", "Final scores")

    fig, ax = plt.subplots(figsize=(5, 3.2))
    _bar_hist(ax, report["margin"]["histogram"], color="#f58518")
    ax.set_xlabel("winner's margin over the runner-up")
    ax.set_ylabel("games")
    save(fig, "margins", "Winning margin")

    fig, ax = plt.subplots(figsize=(5, 3.2))
    _bar_hist(ax, report["length"]["histogram"], color="#54a24b")
    ax.set_xlabel("moves in the game")
    ax.set_ylabel("games")
    save(fig, "lengths", "Game length")

    chosen = list(report["moves_chosen"].items())[:20]
    fig, ax = plt.subplots(figsize=(5, 0.6 + 0.25 * max(1, len(chosen))))
    ax.barh([k for k, _ in chosen][::-1], [v for _, v in chosen][::-1], color="#b279a2")
    ax.set_xlabel("times chosen")
    ax.tick_params(axis="x", labelrotation=30)
    save(fig, "moves", "Moves chosen")
    design_plots(report, plt, save)
    return made


RUNS = (("base", "#4c78a8", "-"), ("variant", "#f58518", "--"))


def overlay_plots(base: dict, variant: dict, out: Path) -> list:
    """The plots of a comparison: base and variant drawn on the same axes, one figure per measure, so
    they are compared by eye; return ``(file, title)`` pairs."""
    plt = _plt()
    made = []
    runs = list(zip((base, variant), RUNS))

    def save(fig, name, title):
        path = out / f"compare_{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        made.append((path.name, title))

    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    width = 0.38
    for k, (rep, (name, color, _style)) in enumerate(runs):
        seats = rep["seats"]
        xs = [s["seat"] + (k - 0.5) * width for s in seats]
        rates = [s["win_rate"] for s in seats]
        err = [[s["win_rate"] - s["win_rate_ci95"][0] for s in seats],
               [s["win_rate_ci95"][1] - s["win_rate"] for s in seats]]
        ax.bar(xs, rates, width=width, yerr=err, capsize=3, color=color, label=name)
    ax.axhline(1 / base["players"], color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xticks(range(base["players"]))
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (95% interval)")
    ax.legend()
    save(fig, "win_rates", "Win rate per seat, base and variant")

    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    for rep, (name, color, style) in runs:
        for p, hist in enumerate(rep["scores"]):
            ax.step([float(k) for k in hist], list(hist.values()), where="mid", linestyle=style,
                    color=color, alpha=1.0 - 0.5 * p / max(1, rep["players"] - 1), label=f"{name}, seat {p}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    save(fig, "scores", "Final scores, base and variant")

    for key, xlabel, title in (("margin", "winner's margin over the runner-up", "Winning margin"),
                               ("length", "moves in the game", "Game length")):
        fig, ax = plt.subplots(figsize=(5.5, 3.2))
        for rep, (name, color, style) in runs:
            hist = rep[key]["histogram"]
            ax.step([float(k) for k in hist], list(hist.values()), where="mid", linestyle=style, color=color,
                    label=name)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.legend()
        save(fig, key, f"{title}, base and variant")
    return made


def _table(rows: list, head: list) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _ci(ci: list, pct: bool = True) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]" if pct else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _balance_html(report: dict, images: list) -> str:
    parts = [_table([[s["seat"], s["wins"], _pct(s["win_rate"]), _ci(s["win_rate_ci95"]), f"{s['mean_score']:.2f}",
                      _ci(s["mean_score_ci95"], False)] for s in report["seats"]],
                    ["seat", "wins", "win rate", "95% interval", "mean score", "95% interval"])]
    f = report["first_player"]
    parts.append(f"<p>First player: {_pct(f['win_share'])} of the wins of {f['decided']} decided games (a k-way "
                 f"shared win counts 1/k) against a fair share of {_pct(f['fair_share'])} "
                 f"(advantage {f['advantage']:+.1%}, {f['test']} test p = {f['p_value']:.3g}).</p>")
    parts.append(f"<p>Game length: mean {report['length']['mean']:.1f} moves, longest {report['length']['max']}; "
                 f"{report['decisions_per_game']:.1f} decisions per game with {report['mean_legal_moves']:.2f} "
                 f"legal moves each on average; {report['stopped']} stopped at the move bound; "
                 f"{report['shared_wins']} shared wins.</p>")
    parts.append("".join(f'<figure><img src="{html.escape(name)}" alt="{html.escape(title)}">'
                         f"<figcaption>{html.escape(title)}</figcaption></figure>" for name, title in images))
    parts.append(design_html(report))
    if report.get("statistics"):
        parts.append("<h2>Statistics of the rules</h2>" + _table(
            [[name, st["kind"], _pct(st["mean"]) if st["kind"] == "share" else f"{st['mean']:.2f}",
              _ci(st["ci95"], st["kind"] == "share") if st["ci95"] else "", st["games"]]
             for name, st in report["statistics"].items()],
            ["statistic", "kind", "mean (share of games)", "95% interval", "games"]))
    cov = report.get("coverage")
    if cov:
        parts.append(f"<h2>Rule coverage</h2><p>{html.escape(cov['summary'])}</p>")
        for key, title in [("moves_never_offered", "Moves never offered"),
                           ("triggers_never_fired", "Triggers that never fired"),
                           ("branches_not_both_ways", "Conditions that never went one of the ways"),
                           ("lines_never_run", "Rule lines that never ran")]:
            rows = [[i["where"], i["what"]] for i in cov[key]]
            parts.append(f"<h3>{title} ({len(rows)})</h3>" + (_table(rows, ["where", "what"]) if rows else ""))
    return "\n".join(parts)


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title><style>
body {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; }}
table {{ border-collapse: collapse; margin: 1em 0; }} td, th {{ border: 1px solid #ccc; padding: .2em .6em; }}
figure {{ display: inline-block; margin: .5em; }} img {{ max-width: 28em; }}
</style></head><body><h1>{title}</h1>
{body}
</body></html>
"""


def write_report(directory, title: str, data: dict, balances: dict, comparison: dict | None = None) -> Path:
    """Write ``report.json``, the plots and ``report.html`` into ``directory``; return the page's path.

    ``balances`` maps a heading ('' for a single run) to a :func:`balance` report.
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(f"cannot make the report directory {out}: {exc.strerror or exc}") from None
    body = []
    if comparison is not None:
        rows = [[s["seat"], f"{_pct(s['win_rate'][0])} -> {_pct(s['win_rate'][1])}",
                 f"{s['win_rate_change']:+.1%}", _ci(s["win_rate_change_ci95"]), f"{s['mcnemar_p']:.3g}",
                 f"{s['mean_score'][0]:.2f} -> {s['mean_score'][1]:.2f}", f"{s['mean_score_change']:+.2f}",
                 _ci(s["mean_score_change_ci95"], False), f"{s['paired_t_p']:.3g}"] for s in comparison["seats"]]
        body.append("<h2>Paired differences (variant minus base)</h2>" + _table(
            rows, ["seat", "win rate", "change", "95% interval", "McNemar p", "mean score", "change",
                   "95% interval", "paired t p"]))
        if comparison.get("statistics"):
            pct = {name: st["kind"] == "share" for name, st in comparison["statistics"].items()}
            body.append("<h3>Statistics of the rules</h3>" + _table(
                [[name, " -> ".join(_pct(x) if pct[name] else f"{x:.2f}" for x in st["mean"]),
                  f"{st['change']:+.1%}" if pct[name] else f"{st['change']:+.2f}", _ci(st["change_ci95"], pct[name]),
                  f"{st['test']} p = {st['p_value']:.3g}"] for name, st in comparison["statistics"].items()],
                ["statistic", "base -> variant", "change", "95% interval", "test"]))
    together = comparison is not None and len(balances) == 2
    if together:  # base and variant on shared axes, to be compared by eye
        images = overlay_plots(*balances.values(), out)
        body.append("<h2>Base and variant</h2>" + "".join(
            f'<figure><img src="{html.escape(name)}" alt="{html.escape(title)}">'
            f"<figcaption>{html.escape(title)}</figcaption></figure>" for name, title in images))
    for i, (heading, rep) in enumerate(balances.items()):
        if heading:
            body.append(f"<h2>{html.escape(heading)}</h2>")
        images = plots(rep, out, prefix=f"run{i}_" if len(balances) > 1 else "")
        if together:  # the plots drawn on shared axes above are not drawn again, one run at a time
            shared = {"win_rates", "scores", "margins", "lengths"}
            drawn = [(name, title) for name, title in images
                     if name.removeprefix(f"run{i}_").removesuffix(".png") in shared]
            for name, _title in drawn:
                (out / name).unlink(missing_ok=True)
            images = [image for image in images if image not in drawn]
        body.append(_balance_html(rep, images))
    try:
        (out / "report.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
        page = out / "report.html"
        page.write_text(_PAGE.format(title=html.escape(title), body="\n".join(body)), encoding="utf-8")
    except OSError as exc:
        raise ParameterError(f"cannot write the report into {out}: {exc.strerror or exc}") from None
    return page
