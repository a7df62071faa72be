"""Random playouts per second for every game in games/, beside a hand-written reference.

    python benchmarks/bench.py                  # about 1 second per game
    python benchmarks/bench.py --seconds 5      # steadier numbers
    python benchmarks/bench.py --playouts 50    # a fixed amount of work instead of a time budget

A playout starts a new game with seed 0, 1, 2, ... and plays it to the end,
each move drawn uniformly from the legal moves by a random.Random seeded like
the game (the same work ruledsl's RandomBot does, without the bookkeeping of
ruledsl.sim). The reference is the same kind of playout of a simple
shedding game (match the suit or the rank of the top card, or draw) written
by hand in plain Python, measured in the same run: read the engine's moves per
second as a ratio to it. Nothing is asserted; this only measures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402


CLOCK = [time.perf_counter]  # what a slice is timed by: wall time, or with --cpu this process's CPU time


class Measure:
    def __init__(self, label: str, players: int):
        self.label = label
        self.players = players
        self.playouts = 0
        self.moves = 0
        self.seconds = 0.0
        self.stopped = 0
        self.rates: list[tuple[float, float]] = []  # (moves/s, playouts/s) of each slice

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def _run(measure: Measure, playout, seconds: float, playouts: int | None) -> Measure:
    """Call ``playout(seed)`` (which returns its number of moves) until the budget is spent, the seeds
    going on from the playouts ``measure`` has already counted (so slices of one measure add up);
    returns the measure, with this slice's rate in ``measure.rates``."""
    start = CLOCK[0]()
    seed = first = measure.playouts
    moves = 0
    while True:
        made, stopped = playout(seed)
        moves += made
        measure.stopped += stopped
        seed += 1
        elapsed = CLOCK[0]() - start
        if (playouts is not None and seed - first >= playouts) or (playouts is None and elapsed >= seconds):
            break
    measure.moves += moves
    measure.playouts = seed
    measure.seconds += elapsed
    measure.rates.append((moves / elapsed, (seed - first) / elapsed))
    return measure


def in_turn(measures: list, playouts: list, seconds: float, count: int | None, rounds: int) -> None:
    """Time the playouts in turn: ``rounds`` slices each (seconds/rounds, or count/rounds playouts, at
    least one),
    in a rotated order each round, after one untimed playout each (which builds a game's generated
    code). A busy moment of a shared machine then falls on all of them alike; compare them round by
    round (``Measure.rates``)."""
    for playout in playouts:
        playout(10 ** 6)  # warm-up, a seed never timed
    k = len(measures)
    per_slice = None if count is None else max(1, count // rounds)
    for r in range(rounds):
        for i in list(range(r % k, k)) + list(range(r % k)):
            _run(measures[i], playouts[i], seconds / rounds, per_slice)


def ratios(mine: Measure, theirs: Measure, which: int = 0) -> list[float]:
    """Round by round: mine's rate over theirs (which 0: moves/s, 1: playouts/s)."""
    return [a[which] / b[which] for a, b in zip(mine.rates, theirs.rates) if b[which]]


def spread(values: list[float], fmt: str = "{:.3f}") -> str:
    if not values:
        return "-"
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def engine_playout(game, players: int):
    def playout(seed: int):
        state = game.new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_moves()
            state._apply(legal[rng.randrange(len(legal))])
        return len(state.moves), state.finding is not None

    return playout


def reference_playout(players: int, hand: int = 7):
    """A shedding game by hand: play a card of the top card's suit or rank, or draw; first empty hand wins."""

    def playout(seed: int):
        rng = random.Random(seed)
        deck = [(rank, suit) for suit in range(4) for rank in range(1, 14)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(hand)] for _ in range(players)]
        pile = [deck.pop()]
        player, moves, passes = 0, 0, 0
        while passes < players:
            top_rank, top_suit = pile[-1]
            cards = hands[player]
            legal = [c for c in cards if c[0] == top_rank or c[1] == top_suit]
            options = len(legal) + (1 if deck else 0)
            moves += 1
            if options == 0:
                passes += 1
            else:
                passes = 0
                pick = rng.randrange(options)
                if pick < len(legal):
                    cards.remove(legal[pick])
                    pile.append(legal[pick])
                    if not cards:
                        break
                else:
                    cards.append(deck.pop())
            player = (player + 1) % players
        return moves, False

    return playout


def trolley_by_hand_playout(labels: list, players: int):
    """Trolley Car, one round, played by the hand-written model of tests/oracle_trolley.py."""
    sys.path.insert(0, str(ROOT / "tests"))
    from oracle_trolley import BLACK, RED, TrolleyCar, colour_of

    def playout(seed: int):
        rng = random.Random(seed)
        deck = list(range(len(labels)))
        while True:  # deal as the rules do: 15 each, then turn up cards until both colours show
            rng.shuffle(deck)
            cards = list(deck)
            hands = [[cards.pop() for _ in range(15)] for _ in range(players)]
            first = cards.pop()
            turned = []
            while cards and colour_of(labels[cards[-1]]) == colour_of(labels[first]):
                turned.append(cards.pop())
            if cards:
                break
        second = cards.pop()
        cards.extend(turned)
        rng.shuffle(cards)
        starts = {colour_of(labels[first]): first, colour_of(labels[second]): second}
        model = TrolleyCar(players, labels, single_round=True)
        model.deal(0, hands, cards, starts[RED], starts[BLACK])
        moves = 0
        while not model.is_over:
            legal = model.legal_moves()
            model.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return moves, False

    return playout


def hand_trolley_module():
    """benchmarks/hand/trolley_car.py: Trolley Car, one round, written by hand for speed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hand_trolley_car", ROOT / "benchmarks" / "hand" / "trolley_car.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hand_trolley_playout(players: int):
    """The speed reference: the same deal and, with the same picks, the same moves as the rules file."""
    TrolleyRound = hand_trolley_module().TrolleyRound

    def playout(seed: int):
        state = TrolleyRound(players, seed)
        rng = random.Random(seed)
        moves = 0
        while state.decision != 3:  # OVER
            legal = state.legal
            state.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return moves, False

    return playout


def sample_positions(new_state, step, players: int, count: int = 400) -> list:
    """Positions met in random playouts (seeds 0, 1, ...), every 5th move: what a search bot clones.
    ``step(state, move)`` makes a move without checking it."""
    found, seed = [], 0
    while len(found) < count:
        state = new_state(players, seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_over and len(found) < count:
            if k % 5 == 0:
                found.append(state.clone())
            legal = state.legal_moves()
            step(state, legal[rng.randrange(len(legal))])
            k += 1
        seed += 1
    return found


def calls_per_second(positions: list, call, seconds: float) -> float:
    """How many times per second ``call(position)`` runs, cycling through the positions."""
    calls, start = 0, CLOCK[0]()
    while True:
        for p in positions:
            call(p)
        calls += len(positions)
        elapsed = CLOCK[0]() - start
        if elapsed >= seconds:
            return calls / elapsed


def _fresh_legal(state):
    state._legal = None  # as on a state just reached: the engine lists the moves from the rules
    return state.legal_moves()


RELEASE = ROOT / "benchmarks" / "release.json"


def key_of(m: Measure) -> str:
    return f"{m.label}/{m.players}"


def load_release(path: Path | None) -> dict:
    """The previous release's figures (``--save`` writes them): {"games": {"uno.rules/2": {...}}}."""
    try:
        release = json.loads(path.read_text())
    except (OSError, ValueError, AttributeError):
        return {}
    try:
        release["source"] = str(path.resolve().relative_to(ROOT))
    except ValueError:
        release["source"] = str(path)
    return release


def top_level_games(directory: Path) -> list[Path]:
    # *.test.rules files hold scenarios (tests of a game), not games
    return sorted(p for p in directory.glob("*.rules") if p.is_file() and not p.name.endswith(".test.rules"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per game (default 1.0)")
    parser.add_argument("--playouts", type=int, default=None, help="a fixed number of playouts per game instead")
    parser.add_argument("--players", type=int, default=None, help="players per game (default: each game's fewest)")
    parser.add_argument("--no-speed", action="store_true",
                        help="leave out the table against the speed-minded Trolley Car by hand")
    parser.add_argument("--no-peer", action="store_true",
                        help="leave out the rows of games/uno.rules against OpenSpiel and RLCard (benchmarks/peers.py)")
    parser.add_argument("--games-dir", type=Path, default=ROOT / "games", help="where the .rules files are")
    parser.add_argument("--rounds", type=int, default=5,
                        help="slices of each measure, taken in turn with the others (default 5)")
    parser.add_argument("--release", type=Path, default=RELEASE,
                        help="the previous release's figures to compare with (default benchmarks/release.json)")
    parser.add_argument("--cpu", action="store_true",
                        help="time by this process's CPU time instead of wall time (a shared machine)")
    parser.add_argument("--only-speed", action="store_true",
                        help="only the table against the speed-minded Trolley Car by hand")
    parser.add_argument("--save", type=Path, default=None, help="write this run's figures as a release file")
    parser.add_argument("--label", default=None, help="with --save: which version the figures are of")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    console = Console()
    if not console.is_terminal:
        console = Console(width=150)  # a log file or a pipe: do not squeeze the table into 80 columns

    if args.only_speed:
        trolley = args.games_dir / "trolley_car.rules"
        console.print(speed_table(trolley, args))
        return 0
    rounds = max(1, args.rounds)
    measures: list[Measure] = []
    playouts: list = []
    skipped: list[str] = []
    for path in top_level_games(args.games_dir):
        try:
            game = ruledsl.load(path)
        except ruledsl.RuledslError as err:
            skipped.append(f"{path.name}: does not load ({str(err).splitlines()[0]})")
            continue
        n = args.players or game.program.min_players
        if not game.program.min_players <= n <= game.program.max_players:
            skipped.append(f"{path.name}: not for {n} players")
            continue
        playout = engine_playout(game, n)
        try:
            playout(0)  # a rule that fails shows here, before any timing
        except ruledsl.RulesRuntimeError as err:
            skipped.append(f"{path.name}: a rule failed ({err})")
            continue
        measures.append(Measure(path.name, n))
        playouts.append(playout)

    ref_players = args.players or 2
    reference = Measure("reference (by hand)", ref_players)
    in_turn(measures + [reference], playouts + [reference_playout(ref_players)], args.seconds, args.playouts, rounds)
    release = load_release(args.release)
    figures = {key_of(m): {"players": m.players, "moves_per_second": round(m.moves_per_second),
                           "per_reference": round(statistics.median(ratios(m, reference)), 4)}
               for m in measures}

    # The same game both ways: the rules file and a hand-written Python model of it.
    pair = []
    trolley = args.games_dir / "trolley_car.rules"
    if trolley.is_file():
        n = args.players or 2
        game = ruledsl.load(trolley, params={"single_round": True})
        pair = [Measure("trolley_car.rules, one round", n),
                Measure("Trolley Car by hand (clarity-first model), one round", n)]
        in_turn(pair, [engine_playout(game, n), trolley_by_hand_playout(game.program.card_labels, n)],
                args.seconds, args.playouts, rounds)

    budget = f"{args.playouts} playouts" if args.playouts else f"{args.seconds:g} s"
    table = Table(title=f"Random playouts, {budget} per game in {rounds} slices taken in turn — "
                        f"Python {platform.python_version()} on {platform.machine() or 'unknown'}")
    for name, justify in (("Rules file", "left"), ("Players", "right"), ("Playouts", "right"),
                          ("Moves/playout", "right"), ("Playouts/s", "right"), ("Moves/s", "right"),
                          ("÷ reference", "right"), ("÷ release", "right"), ("At bound", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for m in measures + [reference]:
        per_round = ratios(m, reference)
        now = statistics.median(per_round) if per_round else 0.0
        then = release.get("games", {}).get(key_of(m), {}).get("per_reference")
        table.add_row(m.label, str(m.players), str(m.playouts), f"{m.moves / max(m.playouts, 1):.0f}",
                      f"{m.playouts_per_second:,.1f}", f"{m.moves_per_second:,.0f}",
                      spread(per_round) if m is not reference else "1.000",
                      f"{now / then:.2f}" if then and m is not reference else "-",
                      str(m.stopped), style="dim" if m is reference else None)
    console.print(table)
    if args.save:
        args.save.write_text(json.dumps({
            "release": args.label or "unnamed",
            "measured": f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores",
            "command": shlex.join(["python", "benchmarks/bench.py", *(argv if argv is not None else sys.argv[1:])]),
            "games": figures}, indent=1, ensure_ascii=False) + "\n")
        console.print(f"saved these figures to {args.save}", highlight=False)
    console.print("÷ reference: the engine's moves per second over the hand-written reference's "
                  "(a plain-Python shedding game, same players) in the same round: median (min–max) over the "
                  "rounds. ÷ release: that median over the one in " + release.get("source", "(no release file)")
                  + f" ({release.get('release', '-')}); below 1 is slower than the release.", highlight=False)
    if pair:
        same = Table(title="The same game: the rules file beside a hand-written Python model "
                           "(tests/oracle_trolley.py, written for clarity)")
        for name in ("Implementation", "Players", "Playouts", "Moves/s", "÷ by hand"):
            same.add_column(name, justify="left" if name == "Implementation" else "right", no_wrap=True)
        for m in pair:
            same.add_row(m.label, str(m.players), str(m.playouts), f"{m.moves_per_second:,.0f}",
                         spread(ratios(m, pair[1]), "{:.2f}"))
        console.print(same)
    if trolley.is_file() and not args.no_speed:
        console.print(speed_table(trolley, args))
        console.print("÷ by hand: the rules file's rate over the speed-minded hand-written round's "
                      "(benchmarks/hand/trolley_car.py) in the same round, median (min–max) over the rounds; "
                      "the same seeds, the same games on average (the moves per playout show it). "
                      "Target (issue #24) ≥ 0.9.", highlight=False)
    if not args.no_peer:
        peer, missing = peer_table(args.seconds, rounds)
        skipped += missing
        if peer is not None:
            console.print(peer)
            console.print("uno.rules ÷ peer: decisions per second of games/uno.rules over the peer's, in the "
                          "same round, median (min–max); benchmarks/peers.py has more rows. Targets: ≥ 1 "
                          "against RLCard's env, ≥ 0.5 against OpenSpiel's C++ (issue #24).", highlight=False)
    for line in skipped:
        console.print(f"skipped {line}", highlight=False, markup=False)
    return 0


def peer_table(seconds: float, rounds: int):
    """The peer rows: games/uno.rules beside OpenSpiel's C++ crazy_eights and RLCard's UNO environment,
    each warmed up and timed in turn (benchmarks/peers.py); (table or None, lines for peers left out)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("peers", ROOT / "benchmarks" / "peers.py")
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    missing = []
    if not peers.openspiel_available():
        missing.append("the OpenSpiel peer row: pyspiel is not installed (pip install open-spiel)")
    if not peers.rlcard_available():
        missing.append("the peer row: RLCard is not installed (pip install -e '.[bench]')")
    if len(missing) == 2:
        return None, missing
    table = Table(title=f"UNO, one hand, random legal moves: the rules file ÷ its peers ({rounds} rounds)")
    for name in ("Players", "Peer", "uno.rules decisions/s", "peer decisions/s", "uno.rules ÷ peer"):
        table.add_column(name, justify="left" if name == "Peer" else "right", no_wrap=True)
    for n in (2, 4):
        rows = {"uno.rules": peers.rules_playout(n)}
        if peers.openspiel_available():
            rows["OpenSpiel crazy_eights (C++)"] = peers.openspiel_playout(n)
        if peers.rlcard_available():
            rows["RLCard env"] = peers.rlcard_env_playout(n)
        result = peers.measure(rows, seconds, rounds)
        mine = result.pop("uno.rules")["rates"]
        for label, row in result.items():
            table.add_row(str(n), label, f"{statistics.median(mine):,.0f}", f"{statistics.median(row['rates']):,.0f}",
                          spread([a / b for a, b in zip(mine, row["rates"])], "{:.2f}"))
    return table, missing


def speed_table(trolley: Path, args) -> Table:
    """Issue #24's yardstick: the rules file against Trolley Car written by hand for speed, in turn."""
    game = ruledsl.load(trolley, params={"single_round": True})
    TrolleyRound = hand_trolley_module().TrolleyRound
    rounds = max(1, args.rounds)
    table = Table(title="Trolley Car, one round: the rules file ÷ the same game written by hand for speed "
                        f"({rounds} rounds taken in turn)")
    for name in ("Measure", "Players", "Moves/playout (rules / hand)", "Rules file /s", "By hand /s", "÷ by hand"):
        table.add_column(name, justify="left" if name == "Measure" else "right", no_wrap=True)
    for n in (2, 4, 6):
        engine, byhand = Measure("rules", n), Measure("hand", n)
        in_turn([engine, byhand], [engine_playout(game, n), hand_trolley_playout(n)], args.seconds,
                args.playouts, rounds)
        table.add_row("random playouts", str(n), f"{engine.moves / engine.playouts:.0f} / {byhand.moves / byhand.playouts:.0f}",
                      f"{engine.playouts_per_second:,.0f}", f"{byhand.playouts_per_second:,.0f}",
                      spread(ratios(engine, byhand, which=1)))
        engine_positions = sample_positions(game.new_game, lambda st, m: st._apply(m), n)
        hand_positions = sample_positions(TrolleyRound, lambda st, m: st.apply(m), n)
        budget = args.seconds / 2 / rounds
        for label, mine, theirs in (("clone()", lambda st: st.clone(), lambda st: st.clone()),
                                    ("legal_moves()", _fresh_legal, lambda st: st.legal_moves())):
            rates = [(calls_per_second(engine_positions, mine, budget), calls_per_second(hand_positions, theirs, budget))
                     for _ in range(rounds)]
            table.add_row(label, str(n), "", f"{statistics.median(a for a, _ in rates):,.0f}",
                          f"{statistics.median(b for _, b in rates):,.0f}", spread([a / b for a, b in rates]))
    return table


if __name__ == "__main__":
    sys.exit(main())
