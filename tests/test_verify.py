"""ruledsl verify: the generic checks pass on the real games and catch every planted bug.

Each planted bug is either a broken copy of a game (made from the real file by
one textual change, asserted to apply) or, for the invariants no rules file
can break, a deliberately broken engine patched in the test. For each, verify
must report the broken check, and the shrunk replay must reproduce it.
"""

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.moves import Move
from ruledsl.engine.state import State
from ruledsl.language.errors import IllegalMove
from ruledsl.verify.checks import replay_log, verify

TROLLEY = Path("games/trolley_car.rules")
ONE_ROUND = {"single_round": True}


def broken_copy(old: str, new: str, params=ONE_ROUND) -> ruledsl.Game:
    text = TROLLEY.read_text(encoding="utf-8")
    assert old in text, "the planted change no longer applies to the rules file"
    return ruledsl.loads(text.replace(old, new, 1), str(TROLLEY), params)


def assert_caught(game, check, examples: int = 20, **options):
    """``check``: the name of the check that must break, or a tuple of names that may."""
    options.setdefault("shrink_seconds", 6)
    report = verify(game, examples=examples, seed=3, **options)
    assert report.failure is not None, "verify missed the planted bug"
    assert report.failure.check in ((check,) if isinstance(check, str) else check), report.failure
    check = report.failure.check
    log = report.failure.to_log("planted.rules", game.params)
    broken, step = replay_log(game, log)
    assert step == len(report.failure.moves)
    assert broken is not None, "the shrunk replay does not reproduce the failure"
    assert broken.check == check
    return report.failure


def test_real_games_pass():
    for path in ("games/trolley_car.rules", "games/trolley_car_bet.rules"):
        report = verify(ruledsl.load(path, params=ONE_ROUND), examples=4, seed=1)
        assert report.ok, report.failure
        assert report.examples == 4 and report.steps > 100


def test_a_player_who_sees_an_opponents_hand():
    game = broken_copy("    # With the deck empty, a player who cannot play passes.",
                       "    move guess(c in hand[next(current)]) {}\n")
    failure = assert_caught(game, "hidden information")
    assert "legal moves" in failure.message


def test_a_move_whose_legality_depends_on_the_hidden_deck():
    game = broken_copy("move draw where not empty(deck) {", "move peek where not empty(deck) and top(deck).rank == 13 {}\n    move draw where not empty(deck) {")
    assert_caught(game, ("hidden information", "information flow"))


def test_a_game_that_never_ends():
    text = TROLLEY.read_text(encoding="utf-8")
    for old, new in (("turns from next(dealer) until round_over {", "turns from next(dealer) until false {"),
                     ("limit 5000 moves", "limit 400 moves")):
        assert old in text
        text = text.replace(old, new)
    game = ruledsl.loads(text, str(TROLLEY), ONE_ROUND)
    report = verify(game, examples=5, seed=3, shrink_seconds=5)
    assert report.failure.check == "termination"
    assert "reached its limit of 400 moves" in report.failure.message
    assert len(report.failure.moves) == 400
    broken, step = replay_log(game, report.failure.to_log("x.rules", game.params))
    assert broken.check == "termination" and step == 400


def test_a_declared_invariant_that_a_rule_breaks():
    game = broken_copy("define score(p) = total[p]",
                       "define score(p) = total[p]\ninvariant hand_limit for p in players: size(hand[p]) <= 15 "
                       "\"a hand never grows\"")
    failure = assert_caught(game, "invariant hand_limit")
    # the shrunk game is 1-minimal: leaving out any one of its moves no longer shows the failure
    for i in range(len(failure.moves)):
        moves = failure.moves[:i] + failure.moves[i + 1:]
        broken, _ = replay_log(game, {"players": failure.players, "seed": failure.seed, "moves": moves})
        assert broken is None or broken.check != "invariant hand_limit"


def test_a_card_that_vanishes(monkeypatch):
    monkeypatch.setenv("RULEDSL_CACHE_DIR", "")  # a program of its own, not one kept for other loads
    game = ruledsl.load(TROLLEY, params=ONE_ROUND)
    code = game.program.code
    deck = next(z.zid for z in game.program.zones if z.name == "deck")
    line = next(i for i, step in enumerate(code) if step[3].line and "deal hand_size" in
                game.program.source[step[3].file].splitlines()[step[3].line - 1])
    original = code[line][1]

    def deal_and_drop(st, L):
        changed = original(st, L)
        st.zones[deck].pop()  # the card is taken from the deck and put nowhere
        return changed

    code[line][1] = deal_and_drop
    try:
        failure = assert_caught(game, "conservation", examples=3)
    finally:
        code[line][1] = original
    assert "is in no zone" in failure.message


def test_a_listed_move_that_apply_refuses(monkeypatch):
    game = ruledsl.load(TROLLEY, params=ONE_ROUND)
    legal_moves = State.legal_moves  # (the generated code lists a decision's moves; the phantom is added on top)

    def with_phantom(self):
        moves = legal_moves(self)
        return moves + [Move("phantom")] if self.decision == "turn" else moves

    monkeypatch.setattr(State, "legal_moves", with_phantom)
    failure = assert_caught(game, "listed moves apply", examples=3)
    assert "phantom" in failure.message


def test_a_refused_move_that_changes_the_state(monkeypatch):
    game = ruledsl.load(TROLLEY, params=ONE_ROUND)
    apply = State.apply

    def leaky_apply(self, move):
        try:
            apply(self, move)
        except IllegalMove:
            self.vars[0] = (self.vars[0] or 0) + 1  # the refused move leaves a trace
            raise

    monkeypatch.setattr(State, "apply", leaky_apply)
    failure = assert_caught(game, "unlisted moves refused", examples=3)
    assert "changed the state" in failure.message


def test_failure_log_is_a_replay_file():
    game = broken_copy("move draw where not empty(deck) {", "move peek where not empty(deck) and top(deck).rank == 13 {}\n    move draw where not empty(deck) {")
    report = verify(game, examples=10, seed=3)
    log = report.failure.to_log("x.rules", game.params)
    assert log["format"] == "ruledsl-log" and log["version"] == 1
    assert log["players"] == report.failure.players and log["seed"] == report.failure.seed
    assert all(isinstance(m, list) and isinstance(m[0], str) for m in log["moves"])
    assert log["failure"]["check"] in ("hidden information", "information flow")


@pytest.mark.parametrize("players", [2, 6])
def test_verify_respects_player_counts(players):
    report = verify(ruledsl.load(TROLLEY, params=ONE_ROUND), players=[players], examples=2, seed=2)
    assert report.ok


# ---- planted bugs that uniform random play misses: only biased play reaches them

TUTORIAL = Path("games/tutorial_highlow.rules")
BEFORE_PASS = Path("tests/data/tutorial_before_pass.rules")


def uniform_games(game, games: int, check) -> int:
    """How many of ``games`` seeded games with uniformly random moves ``check(state)`` flags."""
    import random

    from ruledsl.language.errors import RulesRuntimeError

    found = 0
    for seed in range(games):
        rng = random.Random(seed)
        try:
            s = game.new_game(rng.choice(range(game.program.min_players, game.program.max_players + 1)), seed)
            while not s.is_over and not check(s):
                s.apply(rng.choice(s.legal_moves()))
            found += check(s)
        except RulesRuntimeError:
            found += 1
    return found


def test_the_tutorial_before_its_pass_move_gets_stuck_and_verify_finds_it():
    """tests/data/tutorial_before_pass.rules is the tutorial game before step 5 adds `pass`: with
    the deck empty, a player who cannot play has no move. Uniform play rarely gets there; players
    who like to draw do, and verify's default search finds it."""
    text = TUTORIAL.read_text(encoding="utf-8")
    assert BEFORE_PASS.read_text(encoding="utf-8").split("game \"High-Low\"")[1] == \
        text.replace("      move pass where empty(deck) and not can_play(current) {}\n", "").split("game \"High-Low\"")[1]
    game = ruledsl.load(BEFORE_PASS)
    assert uniform_games(game, 60, lambda s: False) == 0  # uniform random play never gets stuck here
    report = verify(game, shrink_seconds=5)  # default examples and seed
    assert report.failure is not None and report.failure.check == "runs"
    assert "must decide `turn` but has no legal move" in report.failure.message
    broken, made = replay_log(game, report.failure.to_log(str(BEFORE_PASS), game.params))
    assert broken is not None and broken.check == "runs" and made == len(report.failure.moves)
    # the finished tutorial, with its pass move, holds
    assert verify(ruledsl.load(TUTORIAL), examples=10, shrink_seconds=5).ok


def test_a_hand_that_outgrows_its_declared_limit_only_when_players_like_to_draw():
    game = broken_copy("define score(p) = total[p]",
                       "define score(p) = total[p]\ninvariant hand_limit for p in players: size(hand[p]) <= 34 "
                       "\"a hand holds at most 34 cards\"")
    hand = [z.zid for z in game.program.zones if z.name.startswith("hand[")]
    assert uniform_games(game, 30, lambda s: any(len(s.zones[z]) > 34 for z in hand)) == 0
    assert_caught(game, "invariant hand_limit", examples=25, shrink_seconds=5)


# ---- information flow: the shape of play must not depend on hidden cards

LEAKY_DRAW = """      choose drawn_card by current {
        move play_drawn where fits(c) { lay(c) }
        move keep { put c into hand[current] }  # mutate: equivalent top-bottom — no rule reads the order of a hand, only its cards
      }"""
OLD_DRAW = """      if fits(c) {
        choose drawn_card by current {
          move play_drawn { lay(c) }
          move keep { put c into hand[current] }
        }
      } else {
        put c into hand[current]
      }"""


def test_a_question_asked_only_when_a_hidden_card_fits_is_caught():
    """The old Trolley Car draw: `play_drawn`/`keep` was asked only if the drawn card fitted, so
    everybody could tell. The information-flow check catches it with default settings."""
    game = broken_copy(LEAKY_DRAW, OLD_DRAW, params=None)
    report = verify(game, shrink_seconds=5)
    assert report.failure is not None and report.failure.check == "information flow", report.failure
    assert "draw" in report.failure.message and "decides `drawn_card`" in report.failure.message
    broken, made = replay_log(game, report.failure.to_log("leaky.rules", game.params))
    assert broken is not None and broken.check == "information flow"


def test_others_see_a_face_down_card_argument_as_a_question_mark():
    from ruledsl.engine.observe import move_seen

    text = TUTORIAL.read_text(encoding="utf-8").replace(
        "      move draw where not empty(deck) {",
        "      move bury(c in hand[current]) where size(hand[current]) > 1 {\n        put c into deck\n      }\n"
        "      move draw where not empty(deck) {")
    s = ruledsl.loads(text, str(TUTORIAL)).new_game(2, 1)
    bury = next(m for m in s.legal_moves() if m.name == "bury")
    label = s.card_label(bury.args[0])
    before = s.clone()
    s.apply(bury)
    assert move_seen(before, s, bury, 0) == f"bury({label})"  # the mover saw the card
    assert move_seen(before, s, bury, 1) == "bury(?)"
    play = next(m for m in s.legal_moves() if m.name == "play")
    before = s.clone()
    s.apply(play)
    assert move_seen(before, s, play, 0) == f"play({s.card_label(play.args[0])})"  # face up on the pile


# ---- coverage


def test_coverage_says_which_moves_triggers_conditions_and_lines_the_games_reached():
    from ruledsl.engine.coverage import instrument

    text = TUTORIAL.read_text(encoding="utf-8").replace(
        "      move draw where not empty(deck) {",
        "      move shout where size(hand[current]) > 60 {}\n      move draw where not empty(deck) {")
    game = ruledsl.loads(text, str(TUTORIAL))
    report = verify(game, examples=5, seed=1)
    assert report.ok
    items = {(i.kind, i.what): i for i in report.coverage.items()}
    shout_line = text.splitlines().index("      move shout where size(hand[current]) > 60 {}") + 1
    shout = items[("move", "move shout (decision `turn`)")]
    assert shout.where == f"{TUTORIAL}:{shout_line}" and shout.counts == (0, 0) and not shout.covered
    play = items[("move", "move play (decision `turn`)")]
    assert play.counts[0] >= play.counts[1] > 0 and play.covered
    assert items[("trigger", "trigger trick")].counts[0] > 0
    assert shout in report.coverage.missed()
    assert any(i.kind == "branch" for i in items.values()) and any(i.kind == "line" for i in items.values())
    moves = [i for i in items.values() if i.kind == "move"]
    offered = sum(1 for i in moves if i.counts[0])
    taken = sum(1 for i in moves if i.covered)
    assert offered >= 2 and len(moves) == 4  # play and draw at least; shout never
    assert report.coverage.summary().startswith(f"moves offered {offered}/4, taken {taken}/4, triggers fired 1/1")
    # off, it costs nothing: instrumenting makes a copy and leaves the game's own steps alone
    steps = [step[1] for step in game.program.code]
    copy, cov = instrument(game)
    assert copy.program is not game.program and [step[1] for step in game.program.code] == steps
    copy.new_game(2, 0)
    assert sum(cov.runs) > 0


CALLED = """\
game "Called"
players 2..2
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
var rounds: int = 0
procedure take(p) {
  choose turn by p {
    move draw { put top(deck) into hand[p] }
    move skip {}
  }
  rounds += 1
}
flow {
  take(0)
  if rounds > 5 {
    take(1)
  }
  take(1)
}
"""


def test_coverage_names_the_call_of_a_procedure_each_count_comes_from():
    from ruledsl.engine.coverage import Coverage, instrument

    game, cov = instrument(ruledsl.loads(CALLED, "called.rules"))
    s = game.new_game(2, 0)
    while not s.over:
        cov.note_moves(s, s.legal_moves(), s.legal_moves()[0])
        s.apply(s.legal_moves()[0])
    items = {(i.kind, i.what): i for i in cov.items()}
    # the decision is compiled once per call: each move item says which call it counts
    assert items[("move", "move draw (decision `turn`, called at line 16)")].counts == (1, 1)
    assert items[("move", "move draw (decision `turn`, called at line 18)")].counts == (0, 0)
    assert items[("move", "move draw (decision `turn`, called at line 20)")].counts == (1, 1)
    assert items[("move", "move skip (decision `turn`, called at line 20)")].where == "called.rules:11"
    # and so does each line of its body
    assert items[("line", "`rounds += 1` (called at line 18)")].counts == (0,)
    assert items[("line", "`rounds += 1` (called at line 20)")].counts == (1,)
    # a line outside any procedure names no call
    assert ("branch", "condition `if rounds > 5 {`") in items
    assert isinstance(cov, Coverage)


def test_coverage_names_nested_calls_innermost_first():
    from ruledsl.engine.coverage import instrument

    text = CALLED.replace("flow {\n  take(0)", "procedure twice() {\n  take(0)\n  take(1)\n}\nflow {\n  twice()")
    game, cov = instrument(ruledsl.loads(text, "called.rules"))
    whats = [i.what for i in cov.items() if i.kind == "move"]
    assert "move draw (decision `turn`, called at line 16, from line 20)" in whats
    assert "move draw (decision `turn`, called at line 17, from line 20)" in whats


def test_a_game_that_never_ends_is_reported_within_the_shrink_budget():
    import time

    text = TROLLEY.read_text(encoding="utf-8")
    for old, new in (("turns from next(dealer) until round_over {", "turns from next(dealer) until false {"),
                     ("limit 5000 moves", "limit 2000 moves")):
        assert old in text
        text = text.replace(old, new)
    game = ruledsl.loads(text, str(TROLLEY))
    started = time.monotonic()
    report = verify(game, players=[5], shrink_seconds=2)
    assert time.monotonic() - started < 60
    assert report.failure.check == "termination" and len(report.failure.moves) == 2000


def test_shortening_stops_when_its_time_is_up_and_says_so():
    game = ruledsl.load(BEFORE_PASS)
    report = verify(game, shrink_seconds=0)
    assert report.failure is not None and report.failure.check == "runs"
    assert report.shrink_stopped  # no time to shorten: the game is reported as found
    broken, made = replay_log(game, report.failure.to_log(str(BEFORE_PASS), game.params))
    assert broken is not None and broken.check == "runs" and made == len(report.failure.moves)
    shortened = verify(game, shrink_seconds=30)
    assert not shortened.shrink_stopped
    assert len(shortened.failure.moves) <= len(report.failure.moves)
