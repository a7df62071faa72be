"""Property-based verification of any rules file, built on hypothesis.

``verify(game, ...)`` plays games from player counts and seeds drawn by
hypothesis, choosing each move from ``legal_moves()``, and after every step
checks the engine's invariants (DESIGN.md) and the rules file's own
``invariant`` declarations. A failure is shortened to a short move sequence
(by deleting runs of moves while the same check still breaks) and returned as
a :class:`Failure`, which ``to_log()`` turns into a replay file.

The search is not uniform: each game plays in its own style (swarm testing:
some move names preferred, some avoided, some never chosen while another move
is legal), some games steer towards moves no game has taken yet, and a game
runs to its end however long it is. The report says what the games covered
(:mod:`ruledsl.coverage`).
"""

from __future__ import annotations

import random
import time

import attrs

from ..engine.coverage import Coverage, instrument
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observe import move_seen, observation
from ..engine.state import State
from ..engine.worlds import follow_cards, told, trade_groups
from ..language.errors import IllegalMove, RuledslError, RulesRuntimeError
from .canon import position_hash, same_position
from .deal import deal_finding
from .disclosure import told_apart
from .leaks import LEAK, counterpart, number_message

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
    ("information flow", "along the same moves, what a player observes (their view, whose decision is next, "
                         "others' moves as shown to them) does not change when cards they cannot see trade places"),
    ("secret choices", "while players choose together, what the others observe does not depend on the "
                       "choices already made"),
    ("save and clone", "a clone and a JSON round trip give an equal state"),
    ("replay", "replaying the seed and the moves gives the same state"),
    ("termination", "the game ends within the rules' move limit"),
    ("random deal", "the setup deals the hidden cards differently for different seeds (a shuffle is not missing)"),
    ("cycle", "no position comes back: players cannot repeat moves and keep the game going forever"),
]


@attrs.define
class Failure:
    """A broken invariant and the shortest game that shows it."""

    check: str
    message: str
    players: int
    seed: int
    moves: list  # [[name, *args], ...] up to and including the step that broke it
    params: dict | None = None  # parameters other than the game's it was found under (verify --small)

    def to_log(self, rules: str, params: dict) -> dict:
        return {
            "format": LOG_FORMAT, "version": LOG_VERSION, "rules": rules, "params": {**params, **(self.params or {})},
            "players": self.players, "seed": self.seed, "moves": self.moves,
            "failure": {"check": self.check, "message": self.message},
        }


@attrs.define
class Report:
    checks: list  # [(name, description)]
    examples: int = 0
    steps: int = 0
    failure: Failure | None = None
    coverage: Coverage | None = None  # what the games played covered
    longest: int = 0  # moves in the longest game played
    shrink_stopped: bool = False  # shortening the failure ran out of time
    spaces: list = attrs.Factory(list)  # [explore.Space]: the deals explored, position by position
    out_of_time: bool = False  # the time budget stopped the search before its last game
    interrupted: bool = False  # Ctrl-C stopped it: the report holds what was found so far
    phase: str = ""  # what the search is doing now, for progress lines

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


def _check_rules(s: State, conservation: bool) -> None:
    """Card conservation (if asked), a decision with moves exactly while the game goes on, the invariants."""
    if conservation:
        for card, where in s.card_locations().items():
            if len(where) != 1:
                place = "no zone" if not where else " and ".join(where)
                raise Broken("conservation", f"card {card} ({s.card_label(card)}) is in {place}")
    legal = s.legal_moves()
    if s.is_over and legal:
        raise Broken("decisions", f"the game is over but {len(legal)} moves are listed")
    if not s.is_over and not legal:
        raise Broken("decisions", f"player {s.current_player} must decide `{s.decision}` but no move is listed")
    for problem in s.broken_invariants():
        raise Broken(f"invariant {problem.split('`')[1]}", problem)
    if s.is_over and s.program.statistics:  # what simulate and the reports work out when a game ends
        try:
            s.statistics
        except RulesRuntimeError as err:
            raise Broken("runs", f"when the game ends: {err}") from None


def check_state(s: State) -> None:
    """The checks that look at one state."""
    _check_rules(s, conservation=True)
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
        apply_listed(s.clone(), m)
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


def apply_listed(s: State, m: Move) -> None:
    """Apply a move legal_moves() listed; a refusal or a failing rule is a broken check."""
    try:
        s.apply(m)
    except IllegalMove as err:  # apply left the state as it was: describe the move there
        raise Broken("listed moves apply", f"{s.describe(m)} is listed but refused: {err.reason}") from None
    except RulesRuntimeError as err:
        raise Broken("runs", f"{s.describe(m)}: {err}") from None


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
    out = [(z, i) for z, i in out if not (z == -1 and i in visible)]
    shown = s.shown_cards(player)  # cards a `reveal` shows wherever they lie
    if shown:
        out = [(z, i) for z, i in out if (s.places[i] if z == -1 else s.zones[z][i]) not in shown]
    return out


def permute_hidden(s: State, player: int, rng: random.Random, keep=frozenset(), same=()) -> State:
    """A copy of ``s`` in which the cards ``player`` cannot see trade places at random (the cards
    in ``keep`` stay where they are; a card trades places only with cards that agree on the
    attributes ``same``: what `tell` told the player, see :func:`worlds.trade_groups`). It is a
    relabelling: a rule's memory of a card (a variable, a ``let``, a value or zone indexed by the card,
    what `tell` told of it) follows the place, so "the card just drawn" is the card now lying there
    (see :func:`worlds.follow_cards`)."""
    c = s.clone()
    positions = hidden_positions(c, player)
    if keep:
        positions = [(z, i) for z, i in positions if (c.places[i] if z == -1 else c.zones[z][i]) not in keep]
    cards = [c.places[i] if z == -1 else c.zones[z][i] for z, i in positions]
    shuffled = list(cards)
    for ks in trade_groups(c.program, cards, same):
        mixed = [cards[k] for k in ks]
        rng.shuffle(mixed)
        for k, card in zip(ks, mixed):
            shuffled[k] = card
    relabel = {a: b for a, b in zip(cards, shuffled) if a != b}
    for (z, i), card in zip(positions, shuffled):
        if z == -1:
            c.places[i] = card
            c.loc[card] = -i - 1
        else:
            c.zones[z][i] = card
            c.loc[card] = z
    if relabel:
        follow_cards(c, relabel)
    c._set_by_hand()
    return c


def check_hidden(s: State, rng: random.Random) -> None:
    if s.is_over:
        return
    p = s.current_player
    view = s.view(p)
    # cards `show` just showed stay in place; cards trade places only with cards that agree on what
    # `tell` told the player (who may know that the cards not pointed out are not red)
    other = permute_hidden(s, p, rng, keep=frozenset(s.shown_to(p)), same=told(s, p))
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


def check_secret(before: State, after: State, m, rng: random.Random) -> None:
    """``m`` was one player's choice among players who choose together. Had they chosen another
    move, every other player must observe the same (view, whose decision is next, the move as shown),
    as long as the others are still choosing (once all have chosen, the moves are carried out)."""
    choice = before.program.choices[before.choice]
    if after.over or not choice.together.made(after):
        return  # the last choice (or the last card of the last set): all moves were carried out
    other = rng.choice([x for x in before.legal_moves() if x != m])
    world = before.clone()
    world.apply(other)
    for v in range(before.n):
        if v == before.actor:
            continue
        here, there = move_seen(before, after, m, v), move_seen(before, world, other, v)
        if here != there or observation(after, v) != observation(world, v):
            raise Broken("secret choices", f"player {v} can tell player {before.actor}'s choice in "
                         f"`{choice.name}` before all have chosen: {here} or {there} "
                         f"({after.describe(m)} or {before.describe(other)}) look different to them")


def check_replay(s: State) -> None:
    try:
        again = s.game.replay(s.n, s.seed, list(s.moves))
    except RuledslError as err:
        raise Broken("replay", f"replaying the moves fails: {err}") from None
    if again != s:
        raise Broken("replay", "replaying the seed and moves gives a different state")


# ---------------------------------------------------------------- information flow

FLOW_WINDOW = 4  # moves replayed in a world where the hidden cards lie elsewhere


def _visible_cards(s: State, player: int) -> set:
    """The cards ``player`` sees where they lie (the same as State.card_visible, zone by zone)."""
    out: set = set()
    for z in s.program.zones:
        how = s.sees(player, z.zid)
        if how == "count":
            continue
        if z.places:
            out.update(c for c in (s.places[q] for q in z.places) if c >= 0)
        elif how == "all":
            out.update(s.zones[z.zid])
        elif s.zones[z.zid]:
            out.add(s.zones[z.zid][-1])
    return out | s.shown_cards(player) | set(s.shown_to(player))  # `show`: seen for a moment


def check_flow(states: list, moves: list, player: int, rng: random.Random) -> None:
    """``states[i + 1]`` is ``states[i]`` after ``moves[i]``. In a world where the cards ``player``
    never sees along these states trade places, the same moves (while they stay legal) must show
    ``player`` the same things: their view, whose decision is next, and each move as shown to them.
    The end of the game is not compared (final scoring may depend on hidden cards), nor anything
    from a move that draws from the random generator on: a shuffle may turn cards face up and back
    within one move, which the states between moves do not show."""
    seen: set = set()
    for st in states:
        seen |= _visible_cards(st, player)
    same = tuple(sorted({a for st in states for a in told(st, player)}))
    world = permute_hidden(states[0], player, rng, keep=frozenset(seen), same=same)
    if world.zones == states[0].zones and world.places == states[0].places:
        return  # nothing traded places
    for i, m in enumerate(moves):
        if world.over:
            return
        after = states[i + 1]
        if after.over or after.rng != states[i].rng:
            return  # the end, or a shuffle (cards may have shown face up during it, then gone back)
        before = world.clone()
        shown = move_seen(states[i], after, m, player)
        there = counterpart(states[i], world, m, player)
        if there is None:
            return  # the world cannot go on
        if there is LEAK:
            raise Broken("information flow", number_message(player, states[i], shown))
        world = there[1]
        if told_apart(after, world):
            return  # an announcement tells this world from the real game: intended (disclosure.py)
        shown_there = move_seen(before, world, m, player)
        here, there = observation(after, player), observation(world, player)
        if shown != shown_there or here != there:
            if shown == shown_there and {**here, "legal_moves": None} == {**there, "legal_moves": None}:
                # only the moves the player may make differ: what the hidden-information check reports
                raise Broken("hidden information", f"player {player} deciding `{after.decision}` can tell hidden "
                             "cards apart: moving cards they cannot see changes the legal moves in their view")
            raise Broken("information flow", _flow_message(player, states[i], m, shown, shown_there, here, there))


def _flow_message(player, before, m, shown, shown_there, here, there) -> str:
    who = f"player {before.current_player}'s move {shown}"
    if shown != shown_there:
        what = f"the move is shown to them as {shown} or as {shown_there}"
    elif (here["decision"], here["current_player"]) != (there["decision"], there["current_player"]):
        def nxt(o):
            return "the game is over" if o["over"] else f"player {o['current_player']} decides `{o['decision']}`"
        what = f"next, {nxt(here)}, or else {nxt(there)}"
    else:
        diff = [k for k in here["zones"] if here["zones"][k] != there["zones"].get(k)]
        what = f"their view of {', '.join(diff)} differs" if diff else \
            "their legal moves differ" if here.get("legal_moves") != there.get("legal_moves") else "the variables differ"
        what = "after it, " + what
    return (f"player {player} can learn about cards they cannot see from the shape of play: after {who}, "
            f"depending on where those cards lie, {what}")


# ---------------------------------------------------------------- running

FULL_CHECK_MOVES = 300  # the costly checks run after every move up to here, then after every FULL_CHECK_EVERY
FULL_CHECK_EVERY = 7


class OutOfTime(Exception):
    """The time budget ran out in the middle of a game."""


def play_checked(game: Game, players: int, seed: int, choose, on_step=None, deadline: float | None = None,
                 start: State | None = None, focus: str | None = None) -> State:
    """Play one game, checking every step; ``choose(state, legal)`` gives the index of the next move,
    or None to stop early. Raises Broken on the first failure, OutOfTime past ``deadline``.
    ``start``: go on from this state of a game already checked up to it, instead of a new game.
    ``focus``: the name of one check: only it and the cheap checks run, after every move (shortening
    a failure replays its game many times)."""
    if start is not None:
        s = start
    else:
        try:
            s = game.new_game(players, seed)
        except RulesRuntimeError as err:
            raise Broken("runs", str(err)) from None
        check_state(s)
        if focus in (None, "random deal"):
            found = deal_finding(game, players, seed, s)
            if found:
                raise Broken("random deal", found)
    recent = [s.clone()]  # the states before the last FLOW_WINDOW moves, and now
    recent_moves: list = []
    step = len(s.moves)
    cycles = focus in (None, "cycle")
    positions = {position_hash(s): step} if cycles else None  # the positions of this game: hash -> step
    while not s.is_over:
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime()
        legal = s.legal_moves()
        full = focus is None and (step < FULL_CHECK_MOVES or step % FULL_CHECK_EVERY == 0)
        # each check has its own generator, from the seed and the step: a replay checks the same
        if full or focus in ("listed moves apply", "unlisted moves refused"):
            check_moves(s, random.Random(seed * 1_000_003 + step))
        if step == len(recent_moves) == 0 and (full or focus == "hidden information"):
            check_hidden(s, random.Random(seed * 1_000_033 + step))  # the position the setup reached
        i = choose(s, legal)
        if i is None:
            return s
        m = legal[i]
        secret = (full or focus == "secret choices") and s.program.choices[s.choice].secret and len(legal) > 1
        before = s.clone() if secret else None
        apply_listed(s, m)
        step += 1
        if secret:
            check_secret(before, s, m, random.Random(seed * 1_000_039 + step))
        if on_step:
            on_step(s)
        if cycles:
            check_repeat(s, positions, step)
        if full or focus == "save and clone":
            check_state(s)
        else:
            check_light(s, conservation=focus is not None)
        if full or focus == "hidden information":
            check_hidden(s, random.Random(seed * 1_000_033 + step))
        if focus is not None and focus != "information flow":
            continue
        recent.append(s.clone())
        recent_moves.append(m)
        if len(recent_moves) > FLOW_WINDOW:
            del recent[0], recent_moves[0]
        if (full or focus == "information flow") and s.n > 1:
            check_flow(recent, recent_moves, step % s.n, random.Random(seed * 1_000_037 + step))
    check_replay(s)
    return s


def check_repeat(s: State, positions: dict, step: int) -> None:
    """The position after move ``step`` must not be one this game was in before (a cycle: the
    players could repeat the moves between forever). ``positions`` maps hashes to steps."""
    if s.is_over:
        return
    h = position_hash(s)
    at = positions.get(h)
    if at is None:
        positions[h] = step
        return
    if same_position(s.game.replay(s.n, s.seed, list(s.moves[:at])), s):
        raise Broken("cycle", cycle_message(at, step - at))
    positions[h] = step  # two positions with one hash: the newer one is remembered


def cycle_message(at: int, length: int) -> str:
    where = "the deal" if at == 0 else f"move {at}"
    return (f"the position after {where} comes back after {length} more move{'s' if length != 1 else ''} "
            f"(moves {at + 1} to {at + length}): the players can repeat them forever, and the game never ends")


def check_light(s: State, conservation: bool = False) -> None:
    """The cheap checks, for the moves of a long game between the full ones."""
    _check_rules(s, conservation)
    if s.is_over:
        check_state(s)


# Swarm testing: each game gives every move name one of these weights (0: never, while another move is legal).
STYLE_WEIGHTS = (4, 0, 1, 32)
NOVELTY = 16  # how much more likely a move no game has taken yet is, in a game that seeks them
BRANCHES = 4  # games played on from the rarest position each game reached
BRANCH_MOVES = 150  # moves each of them plays at most
PROGRESS_SECONDS = 2.0


def verify(game: Game, players: list | None = None, examples: int | None = 25, seed: int = 0, progress=None,
           shrink_seconds: float = 30.0, deadline: float | None = None, clock=time.process_time,
           report: Report | None = None, instrumented: tuple | None = None) -> Report:
    """Run the checks on ``examples`` drawn games; the report holds the shortest failure found, if any,
    and the rule coverage the games reached.

    ``progress(report)`` is called after each game and every few seconds within one. A failure is
    shortened by deleting runs of moves for at most ``shrink_seconds`` (a game that never ends is
    reported as found). ``deadline``: a value of ``clock()`` (CPU time by default) after which no
    game is begun or played on (``examples`` None: games until then). ``report`` and
    ``instrumented`` (the game and its Coverage, from :func:`instrument`): go on filling these.
    Ctrl-C stops the search at once; the report then holds what was found so far."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    p = game.program
    counts = players or list(range(p.min_players, p.max_players + 1))
    played, cov = instrumented or instrument(game)
    if report is None:
        report = Report(checks_of(game), coverage=cov)
    names = sorted({o.name for c in p.choices for o in c.options})
    best: list = []  # the shortest failure seen: [Failure]

    timer = clock
    clock = {"shown": time.monotonic()}

    def out_of_time() -> bool:
        if deadline is not None and timer() > deadline:
            report.out_of_time = True
        return report.out_of_time

    # no shrinking by hypothesis: it would only vary the seeds, and ruledsl shortens the game itself
    @hypothesis_seed(seed)
    @settings(max_examples=examples or 1_000_000, deadline=None, database=None, print_blob=False,
              report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate])
    @given(st.data())
    def property_(data):
        if "failed" in clock or out_of_time():
            raise OutOfTime()
        n = data.draw(st.sampled_from(counts), label="players")
        game_seed = data.draw(st.integers(0, 2 ** 31 - 1), label="seed")
        # the style is drawn from a generator hypothesis seeds: uniform, where hypothesis favours edge values
        style = random.Random(data.draw(st.integers(0, 2 ** 32 - 1), label="seed of the game's style"))
        weights = {name: style.choice(STYLE_WEIGHTS) for name in names}
        seek = style.random() < 0.5
        # Moves are chosen by a generator hypothesis seeds, not drawn one by one: how a game is played
        # depends on what earlier games covered, which hypothesis must not see as its own draws
        # changing. Shortening is ruledsl's, by deleting moves (minimise).
        pick = random.Random(data.draw(st.integers(0, 2 ** 32 - 1), label="seed of the moves"))
        moves: list = []
        limit = [p.limit + 1]  # a branch plays BRANCH_MOVES moves at most
        rare: list = []  # [global count of its shape, state, moves before it]: where to branch from

        def choose(s, legal):
            if len(moves) >= limit[0]:
                return None
            shape = (s.choice, frozenset(m.name for m in legal))
            seen = cov.shapes.get(shape, 0)
            if not rare or seen < rare[0]:
                rare[:] = [seen, s.clone(), len(moves)]
            if len(legal) == 1:
                i = 0
            else:
                ws = [weights[m.name] for m in legal]
                if seek:
                    ws = [w * NOVELTY if not cov.was_taken(s.choice, m.name) else w for w, m in zip(ws, legal)]
                if not any(ws):
                    ws = [1] * len(legal)
                total = sum(ws)
                r = pick.randrange(total)
                i = 0
                while r >= ws[i]:
                    r -= ws[i]
                    i += 1
            cov.note_moves(s, legal, legal[i])
            moves.append(legal[i].to_json())
            return i

        def step(s):
            report.steps += 1
            if report.steps % 32 == 0 and out_of_time():
                raise OutOfTime()
            if progress and time.monotonic() - clock["shown"] > PROGRESS_SECONDS:
                clock["shown"] = time.monotonic()
                progress(report)

        try:
            play_checked(played, n, game_seed, choose, step)
            report.longest = max(report.longest, len(moves))
            # Branch: from the rarest position this game reached, play on in other ways.
            if rare and "failed" not in clock:
                _, fork, at = rare
                prefix = moves[:at]
                for _ in range(BRANCHES):
                    moves[:] = list(prefix)
                    limit[0] = at + BRANCH_MOVES
                    weights.update({name: style.choice(STYLE_WEIGHTS) for name in names})
                    seek = style.random() < 0.5
                    play_checked(played, n, game_seed, choose, step, start=fork.clone())
        except Broken as err:
            clock.setdefault("failed", time.monotonic())
            if not best or len(moves) < len(best[0].moves):
                best[:] = [Failure(err.check, err.message, n, game_seed, list(moves))]
            raise
        report.examples += 1
        if progress:
            progress(report)

    try:
        property_()
    except KeyboardInterrupt:
        report.interrupted = True
    except Exception:  # noqa: BLE001 - a stopped search can upset hypothesis's own bookkeeping
        if not best and not report.out_of_time:
            raise
    if best:
        if best[0].check == "termination" or report.interrupted:
            report.failure = best[0]  # a game that never ends is not shortened
        else:
            try:
                report.failure, report.shrink_stopped = minimise(game, best[0], time.monotonic() + shrink_seconds)
            except KeyboardInterrupt:
                report.failure, report.shrink_stopped, report.interrupted = best[0], True, True
    return report


def minimise(game: Game, failure: Failure, deadline: float) -> tuple:
    """Shorten a failing move sequence further by deleting runs of moves, while the same check
    still breaks (hypothesis shrinks the choices; this shrinks the game). Returns the shortest
    failure and whether the deadline stopped the work."""
    current = failure
    size = max(1, len(current.moves) // 2)
    try:
        while size >= 1:
            start = 0
            shortened = False
            while start < len(current.moves):
                moves = current.moves[:start] + current.moves[start + size:]
                log = {"players": current.players, "seed": current.seed, "moves": moves}
                broken, made = replay_log(game, log, deadline, current.check)
                if broken is not None and broken.check == current.check:
                    current = Failure(broken.check, broken.message, current.players, current.seed, moves[:made])
                    shortened = True
                else:
                    start += size
            if not shortened:
                size //= 2
    except OutOfTime:
        return current, True
    return current, False


def replay_log(game: Game, log: dict, deadline: float | None = None, focus: str | None = None):
    """Re-run a game log with every check, up to its last move and the checks after it.

    Returns (Broken or None, the number of moves made)."""
    from ..engine.setlog import unfold

    moves = [Move.parse(m) for m in unfold(log["moves"])]  # a set record stands for its steps
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
        play_checked(game, log["players"], log["seed"], follow, deadline=deadline, focus=focus)
    except Broken as err:
        return err, len(made)
    return None, len(made)
