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
import platform
import random
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402


class Measure:
    def __init__(self, label: str, players: int):
        self.label = label
        self.players = players
        self.playouts = 0
        self.moves = 0
        self.seconds = 0.0
        self.stopped = 0

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def _run(measure: Measure, playout, seconds: float, playouts: int | None) -> Measure:
    """Call ``playout(seed)`` (which returns its number of moves) until the budget is spent."""
    start = time.perf_counter()
    seed = 0
    while True:
        moves, stopped = playout(seed)
        measure.moves += moves
        measure.stopped += stopped
        measure.playouts += 1
        seed += 1
        elapsed = time.perf_counter() - start
        if (playouts is not None and seed >= playouts) or (playouts is None and elapsed >= seconds):
            break
    measure.seconds = elapsed
    return measure


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
    calls, start = 0, time.perf_counter()
    while True:
        for p in positions:
            call(p)
        calls += len(positions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def _fresh_legal(state):
    state._legal = None  # as on a state just reached: the engine lists the moves from the rules
    return state.legal_moves()


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
                        help="leave out the row of games/uno.rules against RLCard's UNO (benchmarks/peers.py)")
    parser.add_argument("--games-dir", type=Path, default=ROOT / "games", help="where the .rules files are")
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log file or a pipe: do not squeeze the table into 80 columns

    measures: list[Measure] = []
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
        label = path.name
        try:
            measures.append(_run(Measure(label, n), engine_playout(game, n), args.seconds, args.playouts))
        except ruledsl.RulesRuntimeError as err:
            skipped.append(f"{path.name}: a rule failed ({err})")

    ref_players = args.players or 2
    reference = _run(Measure("reference (by hand)", ref_players),
                     reference_playout(ref_players), args.seconds, args.playouts)

    # The same game both ways: the rules file and a hand-written Python model of it.
    pair = []
    trolley = args.games_dir / "trolley_car.rules"
    if trolley.is_file():
        n = args.players or 2
        game = ruledsl.load(trolley, params={"single_round": True})
        pair = [_run(Measure("trolley_car.rules, one round", n), engine_playout(game, n), args.seconds,
                     args.playouts),
                _run(Measure("Trolley Car by hand (clarity-first model), one round", n),
                     trolley_by_hand_playout(game.program.card_labels, n), args.seconds, args.playouts)]

    budget = f"{args.playouts} playouts" if args.playouts else f"{args.seconds:g} s"
    table = Table(title=f"Random playouts, {budget} per game — Python {platform.python_version()} "
                        f"on {platform.machine() or 'unknown'}")
    for name, justify in (("Rules file", "left"), ("Players", "right"), ("Playouts", "right"),
                          ("Moves/playout", "right"), ("Playouts/s", "right"), ("Moves/s", "right"),
                          ("÷ reference", "right"), ("At bound", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for m in measures + [reference]:
        ratio = m.moves_per_second / reference.moves_per_second if reference.moves_per_second else 0.0
        table.add_row(m.label, str(m.players), str(m.playouts), f"{m.moves / max(m.playouts, 1):.0f}",
                      f"{m.playouts_per_second:,.1f}", f"{m.moves_per_second:,.0f}", f"{ratio:.3f}",
                      str(m.stopped), style="dim" if m is reference else None)
    console.print(table)
    console.print("÷ reference: the engine's moves per second over the hand-written reference's "
                  "(a plain-Python shedding game, same players).", highlight=False)
    if pair:
        same = Table(title="The same game: the rules file beside a hand-written Python model "
                           "(tests/oracle_trolley.py, written for clarity)")
        for name in ("Implementation", "Players", "Playouts", "Moves/s", "÷ by hand"):
            same.add_column(name, justify="left" if name == "Implementation" else "right", no_wrap=True)
        for m in pair:
            ratio = m.moves_per_second / pair[1].moves_per_second if pair[1].moves_per_second else 0.0
            same.add_row(m.label, str(m.players), str(m.playouts), f"{m.moves_per_second:,.0f}", f"{ratio:.2f}")
        console.print(same)
    if trolley.is_file() and not args.no_speed:
        console.print(speed_table(trolley, args))
        console.print("÷ by hand: the rules file's rate over the speed-minded hand-written round's "
                      "(benchmarks/hand/trolley_car.py), same seeds, same moves. Target ≥ 0.5, aim 1.0.",
                      highlight=False)
    if not args.no_peer:
        peer = peer_table(args.seconds)
        if isinstance(peer, str):
            skipped.append(peer)
        else:
            console.print(peer)
            console.print("÷ RLCard env: decisions per second of games/uno.rules over RLCard's UNO environment's, "
                          "same players (benchmarks/peers.py has more rows). Target ≥ 1.", highlight=False)
    for line in skipped:
        console.print(f"skipped {line}", highlight=False, markup=False)
    return 0


def peer_table(seconds: float):
    """Issue #9's peer row: games/uno.rules beside RLCard's UNO environment, or why it was left out."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("peers", ROOT / "benchmarks" / "peers.py")
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return "the peer row: RLCard is not installed (pip install -e '.[bench]')"
    table = Table(title="UNO, one hand, random legal moves: the rules file ÷ RLCard's UNO environment")
    for name in ("Players", "uno.rules decisions/s", "RLCard env decisions/s", "÷ RLCard env"):
        table.add_column(name, justify="right", no_wrap=True)
    for n in (2, 4):
        _, mine, mine_s = peers.run(peers.rules_playout(n), seconds)
        _, theirs, theirs_s = peers.run(peers.rlcard_env_playout(n), seconds)
        table.add_row(str(n), f"{mine / mine_s:,.0f}", f"{theirs / theirs_s:,.0f}",
                      f"{(mine / mine_s) / (theirs / theirs_s):.2f}")
    return table


def speed_table(trolley: Path, args) -> Table:
    """Issue #9's yardstick: the rules file against Trolley Car written by hand for speed."""
    game = ruledsl.load(trolley, params={"single_round": True})
    TrolleyRound = hand_trolley_module().TrolleyRound
    table = Table(title="Trolley Car, one round: the rules file ÷ the same game written by hand for speed")
    for name in ("Measure", "Players", "Rules file /s", "By hand /s", "÷ by hand"):
        table.add_column(name, justify="left" if name == "Measure" else "right", no_wrap=True)
    for n in (2, 4):
        engine = _run(Measure("rules", n), engine_playout(game, n), args.seconds, args.playouts)
        byhand = _run(Measure("hand", n), hand_trolley_playout(n), args.seconds, args.playouts)
        rows = [("random playouts", engine.playouts_per_second, byhand.playouts_per_second)]
        engine_positions = sample_positions(game.new_game, lambda st, m: st._apply(m), n)
        hand_positions = sample_positions(TrolleyRound, lambda st, m: st.apply(m), n)
        budget = args.seconds / 2
        rows.append(("clone()", calls_per_second(engine_positions, lambda st: st.clone(), budget),
                     calls_per_second(hand_positions, lambda st: st.clone(), budget)))
        rows.append(("legal_moves()", calls_per_second(engine_positions, _fresh_legal, budget),
                     calls_per_second(hand_positions, lambda st: st.legal_moves(), budget)))
        for label, mine, theirs in rows:
            table.add_row(label, str(n), f"{mine:,.0f}", f"{theirs:,.0f}", f"{mine / theirs:.3f}" if theirs else "-")
    return table


if __name__ == "__main__":
    sys.exit(main())
