"""benchmarks/ladder.py and matches.py (bots.py's ladder and games): OpenSpiel's ISMCTSBot in a ruledsl seat, and the ladder's rows (docs/bots.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import ruledsl
from ruledsl.engine.worlds import Knowledge
from tests.rules_text import MINI

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import ladder  # noqa: E402  (benchmarks/ladder.py)
import matches  # noqa: E402  (benchmarks/matches.py)

# every move takes two arguments, a card and a suit: OpenSpiel's adapter takes it in two steps
TWO_STEPS = MINI + """\
zone pile: pile public
flow {
  shuffle deck
  for p in players { deal 3 from deck into hand[p] }
  while not empty(hand[0]) {
    for p in players {
      choose turn by p { move lay(c in hand[p], s in suit) { put c into pile } }
    }
  }
}
define score(p) = 0
winner(p): highest score(p)
"""


def test_the_openspiel_seat_takes_a_two_argument_move_in_its_steps(tmp_path):
    path = tmp_path / "two.rules"
    path.write_text(TWO_STEPS)
    game = ruledsl.load(path)
    state = game.new_game(2, 3)
    seat = matches.OpenSpielIsmcts(str(path), {}, 2, 0.002, seed=1)
    for _ in range(4):
        player = state.current_player
        legal = state.legal_moves()
        move = seat.choose(None, legal, Knowledge(state, player))
        assert move in legal  # a whole move (card and suit), not the first of its steps
        state.apply(move)


def test_the_openspiel_seat_plays_the_copy_of_a_card_its_hand_holds():
    """Trolley Car has two copies of every card, and an action names a card by where the list names
    it, not by the copy: the seat's move is the legal move of its hand, never the other copy."""
    path = "games/trolley_car.rules"
    params = {"single_round": True}
    game = ruledsl.load(path, params=params)
    seat = matches.OpenSpielIsmcts(path, params, 2, 0.002, seed=1)
    state = game.new_game(2, 3)
    second_copies = 0
    for _ in range(40):
        player = state.current_player
        legal = state.legal_moves()
        move = seat.choose(None, legal, Knowledge(state, player))
        assert move in legal
        second_copies += any(type(a) is int and a >= 52 for a in move.args)  # the second deck's ids
        state.apply(move)
    assert second_copies > 0  # some moves were of a card of the second deck


def test_saved_rows_add_runs_at_different_starts_and_drop_a_half_pair(tmp_path):
    def row(start, games, wins, decisions, cpu):
        return {"short": "uno", "rules": "games/uno.rules", "bot": "ismcts", "opponent": "greedy",
                "start": start, "games": games, "wins": wins, "shared": 0, "win_rate": wins / games,
                "decisions": decisions, "cpu_seconds_per_decision": cpu, "seconds_per_decision": cpu,
                "opponent_cpu_seconds_per_decision": 0.0, "iterations_per_decision": 0.0,
                "opponent_iterations_per_decision": 0.0}
    first = tmp_path / "a.log"
    first.write_text("\n".join(json.dumps(r) for r in [row(0, 2, 1, 10, 0.1), row(0, 3, 2, 15, 0.1)]))
    second = tmp_path / "b.log"
    second.write_text("not a row\n" + json.dumps(row(100, 4, 4, 30, 0.2)))
    (merged,) = ladder.saved_rows([str(first), str(second)])
    assert merged["games"] == 6  # 2 of the first run (its third game is half a pair) and 4 of the second
    assert merged["wins"] == 5
    assert merged["win_rate"] == pytest.approx(5 / 6)
    assert merged["cpu_seconds_per_decision"] == pytest.approx((10 * 0.1 + 30 * 0.2) / 40)
    assert merged["ci95"] == pytest.approx(list(matches.wilson(5, 6)))


def test_a_rung_names_a_search_bots_settings():
    assert ladder.searching("ismcts", 0.05) == "ismcts:seconds=0.05"
    assert ladder.searching("ismcts:widen=0", 0.05) == "ismcts:widen=0,seconds=0.05"
    assert ladder.searching("ismcts:seconds=0.1", 0.05) == "ismcts:seconds=0.1"
    assert ladder.searching("greedy", 0.05) == "greedy"


def test_a_partnership_game_seats_the_bot_in_one_partnership():
    row = matches.measure("games/partnership_whist.rules", {}, "first", "random", 2, 1, paired=True, players=4)
    assert row["games"] == 2 and row["players"] == 4
    assert row["wins"] + row["shared"] <= 2


# a game nobody wins: it ends after one move each, and `winner ... when` never holds
NOBODY_WINS = MINI + """\
var moved[player]: int = 0
flow {
  for p in players {
    choose turn by p { move left { moved[p] += 1 } move right { moved[p] += 2 } }
  }
}
define score(p) = moved[p]
winner(p) when false: highest score(p)
"""


def test_a_game_nobody_won_counts_half_for_each_side(tmp_path):
    path = tmp_path / "nobody.rules"
    path.write_text(NOBODY_WINS)
    row = matches.measure(str(path), {}, "first", "random", 4, 1, paired=True)
    # before, a game with no winner counted as a loss of the bot measured, and so as a win of its opponent
    assert row["nobody"] == 4 and row["wins"] == 0 and row["shared"] == 0
    assert row["win_rate"] == 0.5
    table = ladder.ladder_table([dict(row, short="x")], 0.05, "cmd")
    assert "| 4 | 4 | 50% |" in table


# the deal decides: whoever is dealt the higher card wins, whatever either player does
DEALT_HIGHER_WINS = MINI + """\
var moved[player]: int = 0
flow {
  shuffle deck
  for p in players { deal 1 from deck into hand[p] }
  for p in players {
    choose turn by p { move left { moved[p] += 1 } move right { moved[p] += 2 } }
  }
}
define score(p) = sum(c.rank for each c in hand[p])
winner(p): highest score(p)
"""
# the play decides: `right` beats `left`, whoever sits where
RIGHT_WINS = NOBODY_WINS.replace("winner(p) when false:", "winner(p):")


def test_a_pair_is_split_when_the_deal_decides_and_swept_when_the_play_does(tmp_path):
    """Games in pairs of one seed with seats swapped: a pair is split (the bot won one of its two
    games, so the same seat won both) when the cards dealt decide, and not when one bot plays better."""
    dealt = tmp_path / "dealt.rules"
    dealt.write_text(DEALT_HIGHER_WINS)
    row = matches.measure(str(dealt), {}, "random", "first", 12, 1, paired=True)
    ties = row["shared"]  # two cards of one rank: a shared win, half of each game; not a split
    assert row["pairs"] == 6 and row["pairs_split"] >= 6 - ties and row["pairs_split"] > 0
    played = tmp_path / "played.rules"
    played.write_text(RIGHT_WINS)
    row = matches.measure(str(played), {}, "first", "random", 40, 1, paired=True)
    # `first` always moves left: it wins only a pair's game where random moved left too (shared)
    assert row["pairs"] == 20 and row["pairs_split"] == 0 and row["wins"] == 0
    saved = tmp_path / "a.log"
    saved.write_text(json.dumps(dict(row, start=0, short="x")) + "\n"
                     + json.dumps(dict(row, start=40, short="x")) + "\n")
    merged = ladder.saved_rows([str(saved)])[0]
    assert (merged["pairs"], merged["pairs_split"], merged["games"]) == (40, 0, 80)


def test_merging_rows_into_the_ladders_table_replaces_a_row_and_adds_one_after_its_game():
    def row(game, bot, games, rate):
        return {"game": game, "bot": bot, "opponent": "greedy", "games": games, "nobody": 0, "win_rate": rate,
                "ci95": list(matches.wilson(rate * games, games)), "cpu_seconds_per_decision": 0.05,
                "opponent_cpu_seconds_per_decision": 0.001}

    old = ladder.ladder_table([row("UNO", "ismcts", 40, 0.5), row("Tramwaje", "ismcts", 40, 0.57),
                              row("Tramwaje", "mcts", 20, 0.4)], 0.05, "the old run")
    new = ladder.ladder_table([row("Tramwaje", "ismcts", 122, 0.62), row("UNO", "ismcts:few=3", 100, 0.52),
                              row("Goofspiel", "ismcts", 40, 0.9)], 0.05, "the new run")
    merged = ladder.merged_table(old, new)
    rows = [line for line in merged.split("\n") if ladder._is_row(line)]
    assert [line.split(" | ")[:4] for line in rows] == [
        ["| UNO", "`ismcts`", "`greedy`", "40"],
        ["| UNO", "`ismcts:few=3`", "`greedy`", "100"],  # after its game's rows
        ["| Tramwaje", "`ismcts`", "`greedy`", "122"],  # replaced where it stood
        ["| Tramwaje", "`mcts`", "`greedy`", "20"],
        ["| Goofspiel", "`ismcts`", "`greedy`", "40"],  # a game not in the table: at the end
    ]
    assert "the old run" in merged and "the new run" not in merged  # the table's own footnote kept
    assert merged.startswith(ladder.LADDER_START) and merged.endswith(ladder.LADDER_END)
    assert ladder.merged_table(merged, new) == merged  # merging the same rows again changes nothing


def test_a_plan_names_its_rows_and_a_bad_line_says_where(tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("# rows\nhighlow 4 ismcts greedy   # a comment\nstairway 2 greedy -\n")
    assert ladder.read_plan(plan, 0.05) == [("highlow", 4, "ismcts:seconds=0.05", "greedy"),
                                           ("stairway", 2, "greedy", None)]
    for line, words in [("highlow 3 ismcts greedy", "even number"), ("chess 4 ismcts greedy", "no game 'chess'"),
                        ("highlow 4 ismcts", "GAME GAMES BOT OPPONENT"), ("highlow 4 ismctz greedy", "unknown bot"),
                        ("highlow 4 ismcts:c=x greedy", "must be a number"),
                        ("highlow 6 ismcts greedy", "the row of line 2 again")]:
        plan.write_text("# rows\nhighlow 4 ismcts greedy\n" + line + "\n")
        with pytest.raises(ladder.PlanError, match=f"plan.txt:3: .*{words}"):
            ladder.read_plan(plan, 0.05)
    with pytest.raises(ladder.PlanError, match="cannot read the plan"):
        ladder.read_plan(tmp_path / "none.txt", 0.05)


def test_a_plan_played_in_runs_and_processes_adds_up_to_the_row_played_at_once(tmp_path):
    rows = [("highlow", 6, "first", "random"), ("highlow", 4, "greedy", "random")]
    whole = [matches.measure("games/tutorial_highlow.rules", {}, bot, opponent, games, 1, paired=True)
             for _short, games, bot, opponent in rows]
    logs = tmp_path / "logs"
    said = []
    played = ladder.run_plan(rows, 1, jobs=2, chunk=2, logs=logs, say=said.append)
    assert [(r["bot"], r["games"]) for r in played] == [("first", 6), ("greedy", 4)]  # the plan's order
    for r, w in zip(played, whole):
        assert (r["wins"], r["shared"], r["nobody"], r["pairs"], r["pairs_split"], r["decisions"]) == \
            (w["wins"], w["shared"], w["nobody"], w["pairs"], w["pairs_split"], w["decisions"])
        assert r["win_rate"] == pytest.approx(w["win_rate"])
    assert len(list(logs.glob("*.log"))) == 5 and said[0].endswith("0 already logged, 5 to play in 2 process(es)")

    def not_again(*args, **kwargs):
        raise AssertionError("a logged run was played again")
    ladder.measure, measure = not_again, ladder.measure
    try:  # all logged: nothing is played, the same rows come back
        again = ladder.run_plan(rows, 1, jobs=2, chunk=2, logs=logs, say=said.append)
    finally:
        ladder.measure = measure
    assert again == played and "5 already logged, 0 to play" in said[-1]


def test_the_ladder_refuses_a_game_it_does_not_have_before_writing_any_table(tmp_path):
    import subprocess

    docs = (ROOT / "docs" / "bots.md").read_text()
    for args in (["--plan", "benchmarks/ladder-plan.txt", "--game", "chess"], ["--game", "chess"],
                 ["--plan", str(tmp_path / "none.txt")]):
        done = subprocess.run([sys.executable, "benchmarks/bots.py", "--ladder", "--write-docs", *args], cwd=ROOT,
                              capture_output=True, text=True)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "chess" in done.stderr or "cannot read the plan" in done.stderr
    assert (ROOT / "docs" / "bots.md").read_text() == docs
