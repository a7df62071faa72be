"""Property-based verification of any rules file, built on hypothesis.

``verify(game, ...)`` plays games from drawn seeds and player counts, choosing
each move from ``legal_moves()`` with hypothesis, and after every step checks
the engine's invariants (DESIGN.md) and the rules file's own ``invariant``
declarations. A failure is shrunk by hypothesis to a short move sequence and
returned as a :class:`Failure`, which ``to_log()`` turns into a replay file.
"""

from __future__ import annotations

import random

import attrs

from .engine import Game, Move, State
from .errors import IllegalMove, RuledslError, RulesRuntimeError

LOG_FORMAT = "ruledsl-log"
LOG_MISMATCH = "log"  # the check name when a log's move is not legal: the log does not fit the rules
LOG_VERSION = 1

# (name, what it promises), in the order they are checked after each step.
ENGINE_CHECKS = [
    ("runs", "the rules can be carried out: no rule fails in a position reached by legal moves"),
    ("conservation", "every card is in exactly one zone after every step"),
    ("decisions", "legal_moves() is empty exactly when the game is over"),
    ("listed moves apply", "every move legal_moves() lists applies cleanly"),
    ("unlisted moves refused", "a move not listed is refused and leaves the state as it was"),
    ("hidden information", "permuting the cards a player cannot see leaves that player's view unchanged"),
    ("save and clone", "a clone and a JSON round trip give an equal state"),
    ("replay", "replaying the seed and the moves gives the same state"),
    ("termination", "the game ends within the rules' move limit"),
]


@attrs.define
class Failure:
    """A broken invariant and the shortest game that shows it."""

    check: str
    message: str
    players: int
    seed: int
    moves: list  # [[name, *args], ...] up to and including the step that broke it

    def to_log(self, rules: str, params: dict) -> dict:
        return {
            "format": LOG_FORMAT, "version": LOG_VERSION, "rules": rules, "params": params,
            "players": self.players, "seed": self.seed, "moves": self.moves,
            "failure": {"check": self.check, "message": self.message},
        }


@attrs.define
class Report:
    checks: list  # [(name, description)]
    examples: int = 0
    steps: int = 0
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


class Broken(AssertionError):
    """One check failed on the current game."""

    def __init__(self, check: str, message: str):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


def checks_of(game: Game) -> list:
    return ENGINE_CHECKS + [(f"invariant {inv.name}", inv.message or "declared in the rules file")
                            for inv in game.program.invariants]


# ---------------------------------------------------------------- the checks


def check_state(s: State) -> None:
    """The checks that look at one state."""
    locations = s.card_locations()
    for card, where in locations.items():
        if len(where) != 1:
            place = "no zone" if not where else " and ".join(where)
            raise Broken("conservation", f"card {card} ({s.card_label(card)}) is in {place}")
    legal = s.legal_moves()
    if s.is_over and legal:
        raise Broken("decisions", f"the game is over but {len(legal)} moves are listed")
    if not s.is_over and not legal:
        raise Broken("decisions", f"player {s.current_player} must decide `{s.decision}` but no move is listed")
    for problem in s.broken_invariants():
        name = problem.split("`")[1]
        raise Broken(f"invariant {name}", problem)
    c = s.clone()
    if c != s:
        raise Broken("save and clone", "a clone differs from its original")
    try:
        back = s.game.state_from_json(s.to_json())
    except RuledslError as err:
        raise Broken("save and clone", f"a saved state does not load back: {err}") from None
    if back != s:
        raise Broken("save and clone", "a saved state loads back different")
    if s.is_over and s.finding:
        raise Broken("termination", s.finding)


def check_moves(s: State, rng: random.Random, sample: int = 3) -> None:
    """Listed moves apply; unlisted ones are refused without a trace."""
    legal = s.legal_moves()
    for m in rng.sample(legal, min(sample, len(legal))):
        apply_listed(s.clone(), m, s.describe(m))
    for bad in unlisted_moves(s, legal, rng):
        before = s.clone()
        try:
            s.apply(bad)
        except IllegalMove:
            if s != before:
                s._restore(before)
                raise Broken("unlisted moves refused", f"refusing {bad} changed the state") from None
            continue
        except RuledslError as err:
            s._restore(before)
            raise Broken("unlisted moves refused", f"{bad} is not listed, but applying it raised {err!r}") from None
        s._restore(before)
        raise Broken("unlisted moves refused", f"{bad} is not listed, but it was applied")


def apply_listed(s: State, m: Move, text: str) -> None:
    """Apply a move legal_moves() listed; a refusal or a failing rule is a broken check."""
    try:
        s.apply(m)
    except IllegalMove as err:
        raise Broken("listed moves apply", f"{text} is listed but refused: {err.reason}") from None
    except RulesRuntimeError as err:
        raise Broken("runs", f"{text}: {err}") from None


def unlisted_moves(s: State, legal: list, rng: random.Random) -> list:
    """A few moves from the game's move space that are not legal now."""
    listed = set(legal)
    out = [Move("no_such_move")]
    choice = s.program.choices[s.choice]
    for option in choice.options:
        arity = len(option.params)
        for _ in range(2):
            args = tuple(rng.randrange(-1, s.program.card_count + 1) for _ in range(arity))
            m = Move(option.name, args)
            if m not in listed:
                out.append(m)
        if arity:
            m = Move(option.name, ())
            if m not in listed:
                out.append(m)
    for name in {c.options[0].name for c in s.program.choices if c is not choice and c.options}:
        if name not in {o.name for o in choice.options}:
            out.append(Move(name))
            break
    return out


def hidden_positions(s: State, player: int) -> list:
    """(zone id, index) of every card ``player`` cannot see, and track places as (-1, place)."""
    out = []
    seen_places = set()
    for z in s.program.zones:
        how = s.sees(player, z.zid)
        if z.places:
            if how == "count":
                for q in z.places:
                    if q not in seen_places and s.places[q] >= 0:
                        seen_places.add(q)
                        out.append((-1, q))
            continue
        cards = s.zones[z.zid]
        hidden = len(cards) if how == "count" else len(cards) - 1 if how == "top" else 0
        out.extend((z.zid, i) for i in range(hidden))
    # a shared place is visible if any of its tracks is
    visible = {q for z in s.program.zones if z.places and s.sees(player, z.zid) != "count" for q in z.places}
    return [(z, i) for z, i in out if not (z == -1 and i in visible)]


def permute_hidden(s: State, player: int, rng: random.Random) -> State:
    """A copy of ``s`` in which the cards ``player`` cannot see trade places at random."""
    c = s.clone()
    positions = hidden_positions(c, player)
    cards = [c.places[i] if z == -1 else c.zones[z][i] for z, i in positions]
    rng.shuffle(cards)
    for (z, i), card in zip(positions, cards):
        if z == -1:
            c.places[i] = card
            c.loc[card] = -i - 1
        else:
            c.zones[z][i] = card
            c.loc[card] = z
    c._legal = None
    return c


def check_hidden(s: State, rng: random.Random) -> None:
    if s.is_over:
        return
    p = s.current_player
    view = s.view(p)
    other = permute_hidden(s, p, rng)
    try:
        again = other.view(p)
    except RuledslError as err:
        raise Broken("hidden information", f"player {p}'s view depends on hidden cards: {err}") from None
    if again != view:
        diff = [k for k in view["zones"] if view["zones"][k] != again["zones"].get(k)]
        what = f"zones {', '.join(diff)}" if diff else "the legal moves" if view.get(
            "legal_moves") != again.get("legal_moves") else "the variables"
        raise Broken("hidden information",
                     f"player {p} deciding `{s.decision}` can tell hidden cards apart: "
                     f"moving cards they cannot see changes {what} in their view")


def check_replay(s: State) -> None:
    try:
        again = s.game.replay(s.n, s.seed, list(s.moves))
    except RuledslError as err:
        raise Broken("replay", f"replaying the moves fails: {err}") from None
    if again != s:
        raise Broken("replay", "replaying the seed and moves gives a different state")


# ---------------------------------------------------------------- running


def play_checked(game: Game, players: int, seed: int, choose, on_step=None) -> State:
    """Play one game, checking every step; ``choose(state, legal)`` gives the index of the next move,
    or None to stop early. Raises Broken on the first failure."""
    rng = random.Random(seed)
    try:
        s = game.new_game(players, seed)
    except RulesRuntimeError as err:
        raise Broken("runs", str(err)) from None
    check_state(s)
    while not s.is_over:
        legal = s.legal_moves()
        check_moves(s, rng)
        check_hidden(s, rng)
        i = choose(s, legal)
        if i is None:
            return s
        m = legal[i]
        apply_listed(s, m, s.describe(m))
        if on_step:
            on_step(s)
        check_state(s)
    check_replay(s)
    return s


class _OutOfTime(Exception):
    """Shrinking ran past its time budget: every further example fails at once, so it stops."""


def verify(game: Game, players: list | None = None, examples: int = 25, seed: int = 0, progress=None,
           shrink_seconds: float = 30.0) -> Report:
    """Run the checks on ``examples`` drawn games; the report holds the shortest failure found, if any.

    Hypothesis shrinks a failure towards a short move sequence; ``shrink_seconds`` bounds that work
    (a game that never ends cannot be shortened, and each try plays it to its move limit)."""
    import time

    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    p = game.program
    counts = players or list(range(p.min_players, p.max_players + 1))
    report = Report(checks_of(game))
    best: list = []  # the shortest failure seen: [Failure]
    clock: dict = {}

    @hypothesis_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, print_blob=False, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def property_(data):
        if "failed" in clock and time.monotonic() - clock["failed"] > shrink_seconds:
            raise _OutOfTime()
        n = data.draw(st.sampled_from(counts), label="players")
        game_seed = data.draw(st.integers(0, 2 ** 31 - 1), label="seed")
        moves: list = []

        def choose(s, legal):
            i = data.draw(st.integers(0, len(legal) - 1))
            moves.append(legal[i].to_json())
            return i

        def step(s):
            report.steps += 1

        try:
            play_checked(game, n, game_seed, choose, step)
        except Broken as err:
            clock.setdefault("failed", time.monotonic())
            if not best or len(moves) < len(best[0].moves):
                best[:] = [Failure(err.check, err.message, n, game_seed, list(moves))]
            raise
        report.examples += 1
        if progress:
            progress(report.examples)

    try:
        property_()
    except Exception:  # noqa: BLE001 - a stopped shrink can upset hypothesis's own bookkeeping
        if not best:
            raise
    if best:
        deadline = time.monotonic() + shrink_seconds
        report.failure = minimise(game, best[0], deadline)
    return report


def minimise(game: Game, failure: Failure, deadline: float) -> Failure:
    """Shorten a failing move sequence further by deleting runs of moves, while the same check
    still breaks (hypothesis shrinks the choices; this shrinks the game)."""
    import time

    current = failure
    size = max(1, len(current.moves) // 2)
    while size >= 1 and time.monotonic() < deadline:
        start = 0
        shortened = False
        while start < len(current.moves) and time.monotonic() < deadline:
            moves = current.moves[:start] + current.moves[start + size:]
            log = {"players": current.players, "seed": current.seed, "moves": moves}
            broken, made = replay_log(game, log)
            if broken is not None and broken.check == current.check:
                current = Failure(broken.check, broken.message, current.players, current.seed, moves[:made])
                shortened = True
            else:
                start += size
        if not shortened:
            size //= 2
    return current


def replay_log(game: Game, log: dict):
    """Re-run a game log with every check, up to its last move and the checks after it.

    Returns (Broken or None, the number of moves made)."""
    moves = [Move.parse(m) for m in log["moves"]]
    made = []

    def follow(s, legal):
        if len(made) == len(moves):
            return None
        m = moves[len(made)]
        if m not in legal:
            raise Broken(LOG_MISMATCH, f"move {len(made) + 1} of the log, {m}, is not legal here")
        made.append(m)
        return legal.index(m)

    try:
        play_checked(game, log["players"], log["seed"], follow)
    except Broken as err:
        return err, len(made)
    return None, len(made)
