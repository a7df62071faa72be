"""Moves with a bound (`once per q per turn`, `at most N per window`, docs/language.md §4.12.9) and
windows the first claim closes (`respond ... until claimed`, §4.12.8): who may move, when the
counts start again, the checker's errors, verify across them, and the mutate operator."""

from pathlib import Path

import pytest

import ruledsl
from ruledsl import Move
from ruledsl.mutate.operators import generate
from ruledsl.scenarios.runner import load_scenarios
from ruledsl.verify.checks import verify
from tests.rules_text import MINI, diagnostics

ROOT = Path(__file__).resolve().parent.parent
BARTER = ROOT / "tests/data/barter.rules"

# each turn: up to two bids and two waves; after a wave, a window where each other player may
# cheer twice
BIDS = MINI + """\
var stake: int = 0
var cheers[player]: int = 0
var rounds: int = 0
flow {
  shuffle deck
  for p in players { deal 2 from deck into hand[p] }
  turns from 0 until rounds >= 4 {
    let going = true
    while going {
      choose turn by current {
        move bid(n in 1..3) at most 2 per turn { stake += n }
        move wave where stake > 0 at most 2 per turn {
          respond crowd by p in players where p != current {
            move cheer at most 2 per window { cheers[p] += 1 }
          }
        }
        move stop { going = false }
      }
    }
    rounds += 1
  }
}
"""


def names(state) -> list:
    return sorted({m.name for m in state.legal_moves()})


def test_at_most_two_bids_a_turn_and_the_count_starts_again_next_turn():
    s = ruledsl.loads(BIDS, "bids.rules").new_game(players=2, seed=3)
    s.apply(Move("bid", (1,)))
    assert "bid" in names(s)
    s.apply(Move("bid", (3,)))
    assert names(s) == ["stop", "wave"]  # two bids made: no third, whatever its number
    s.apply(Move("stop", ()))
    assert (s.current_player, names(s)) == (1, ["bid", "stop", "wave"])  # player 1's own count
    s.apply(Move("bid", (2,)))
    s.apply(Move("stop", ()))
    assert s.current_player == 0 and "bid" in names(s)  # a new turn: player 0 may bid again


def test_per_window_counts_each_asked_player_apart_and_start_again_when_the_window_opens():
    s = ruledsl.loads(BIDS, "bids.rules").new_game(players=3, seed=3)
    s.apply(Move("bid", (1,)))
    s.apply(Move("wave", ()))
    for seat in (1, 2, 1, 2):  # the window goes round: each asked player cheers twice, four in all
        assert (s.current_player, names(s)) == (seat, ["cheer", "pass"])
        s.apply(Move("cheer", ()))
    for seat in (1, 2):  # each has used their own two cheers of this window
        assert (s.current_player, names(s)) == (seat, ["pass"])
        s.apply(Move("pass", ()))
    assert (s.current_player, s.decision) == (0, "turn")  # all passed in a row: the window closed
    assert [s.get_var(f"cheers[{p}]") for p in range(3)] == [0, 2, 2]
    s.apply(Move("wave", ()))
    assert (s.current_player, names(s)) == (1, ["cheer", "pass"])  # a new window: counts start again


def test_a_choice_made_together_counts_for_each_chooser():
    text = MINI + """\
var asks[player]: int = 0
var rounds: int = 0
flow {
  shuffle deck
  turns from 0 until rounds >= 3 {
    repeat 2 times {
      choose ask by each p in players {
        move ask once per turn { asks[p] += 1 }
        move skip {}
      }
    }
    rounds += 1
  }
}
"""
    s = ruledsl.loads(text, "each.rules").new_game(players=2, seed=1)
    offered = []
    for _ in range(6):
        offered.append((s.current_player, names(s)))
        s.apply(s.legal_moves()[0])
    assert offered == [(0, ["ask", "skip"]), (1, ["ask", "skip"]), (0, ["skip"]), (1, ["skip"]),
                       (0, ["ask", "skip"]), (1, ["ask", "skip"])]
    assert [s.get_var(f"asks[{p}]") for p in range(2)] == [2, 2]


def test_names_like_the_bound_words_stay_free():
    text = MINI + """\
var most: int = 0
var per: int = 0
var claimed: int = 0
var window: int = 0
flow { turns from 0 until most + per + claimed + window > 0 { choose t by current { move m { most += 1 } } } }
"""
    assert ruledsl.loads(text, "free.rules") is not None


def test_the_barter_scenarios_pass():
    loaded = load_scenarios(ROOT / "tests/data/barter.test.rules")
    loaded.check()
    outcomes = [loaded.run(sc) for sc in loaded.scenarios]
    assert [o.status for o in outcomes] == ["passed"] * 6


def test_verify_holds_across_bounds_and_first_claim_windows():
    report = verify(ruledsl.load(BARTER), players=[2, 3], examples=4, shrink_seconds=0)
    assert report.ok, report.failure


def test_verify_holds_across_per_window_counts():
    report = verify(ruledsl.loads(BIDS, "bids.rules"), players=[3], examples=4, shrink_seconds=0)
    assert report.ok, report.failure


def test_a_first_claim_window_that_asks_by_a_hidden_hand_is_an_information_flow_finding():
    text = BARTER.read_text(encoding="utf-8")
    leaky = text.replace("where p != current until claimed",
                         "where p != current and any(each c in hand[p] where c.rank <= 7) until claimed")
    assert leaky != text
    report = verify(ruledsl.loads(leaky, str(BARTER)), players=[3], examples=6, shrink_seconds=0)
    assert report.failure is not None and report.failure.check == "information flow"
    assert "decides `takers`" in report.failure.message


def test_the_bound_operator_drops_a_bound_and_until_claimed():
    text = BARTER.read_text(encoding="utf-8")
    made = generate(text, str(BARTER), operators=["bound"]).mutants
    assert sorted(m.description for m in made) == [
        "dropped `until claimed`: the window goes on after a claim",
        "dropped the bound `once per q per turn`",
    ]
    for m in made:
        changed = m.apply(text)
        assert changed.count("\n") == text.count("\n")
        assert sum(text.count(w) - changed.count(w) for w in ("until claimed", "once per q per turn")) == 1
        assert ruledsl.loads(changed, str(BARTER)) is not None


def test_the_editor_lists_no_count_of_a_bound_among_the_variables():
    from ruledsl.desk.symbols import build_index

    index = build_index(BARTER.read_text(encoding="utf-8"), str(BARTER))
    assert "turns_played" in index.symbols and "offer" in index.symbols
    assert [n for n in index.symbols if "~" in n] == []


# ---- the checker's errors

TURNS = """\
flow {{
  turns from 0 until empty(deck) {{
    choose t by current {{
      {move}
      move draw {{ put top(deck) into hand[current] }}
    }}
  }}
}}
"""


def error_of(move: str, extra: str = ""):
    (d,) = diagnostics(TURNS.format(move=move) + extra, before=MINI + "enum mood { calm, keen }\n")
    return d.code, d.line, d.column, d.message, d.hint


@pytest.mark.parametrize("move, expected", [
    ("move call(q in players) once per q per round {}",
     ("E200", 11, 31, "a move's bound counts per turn or per window, not per `round`",
      "write `per turn`, or `per window` for a move of a `respond` window")),
    ("move call(q in players) once per q per window {}",
     ("E206", 11, 31, "move `call` counts `per window`, but it is not a move of a `respond` window",
      "write `per turn`, or move it into a `respond ... { ... }`")),
    ("move call(q in players) once per k per turn {}",
     ("E200", 11, 31, "move `call` has no parameter `k` to count by (its parameters: `q`)",
      "`per k` counts the move apart for each value of its parameter `k`")),
    ("move call(c in hand[current]) once per c per turn {}",
     ("E202", 11, 37, ("the bound of move `call` counts by `c`, which runs over neither players, an enum "
                       "nor a range; a move is counted apart by players, enum values or numbers of a range only"),
      "count by a parameter such as `q in players`, or leave `per c` out")),
    ("move call(c in deck) once per c per turn {}",
     ("E202", 11, 22, ("the bound of move `call` counts by a parameter that runs over the cards of `deck`; a move "
                       "is counted apart by players, enum values or numbers of a range only"),
      "count by a parameter such as `q in players`, or leave its `per` out")),
    ("move call(cs subset of hand[current]) once per cs per turn {}",
     ("E202", 11, 45, ("the bound of move `call` counts by `cs`, which runs over a set of cards; a move is "
                       "counted apart by players, enum values or numbers of a range only"),
      "count by a parameter such as `q in players`, or leave `per cs` out")),
    ("move call(q in players, k in mood) once per q per q per turn {}",
     ("E204", 11, 42, "the bound of move `call` names `q` twice", "write `per q` once")),
    ("move call(n in 1..size(hand[current])) once per n per turn {}",
     ("E213", 11, 25, "a constant is needed here: a number, true/false, a string or a parameter",
      ("a variable, a zone or a function of them is part of the state; a size is worked out once, when a "
       "game is set up, from numbers, parameters, `player_count` and defines of those"))),
])
def test_a_bound_that_cannot_be_kept_is_reported_at_it(move, expected):
    assert error_of(move) == expected


def test_a_bound_in_extend_choose_is_reported():
    got = error_of("move wait {}", "extend choose t {\n  move nap once per turn {}\n}\n")
    assert got == ("E206", 17, 12, ("move `nap` of `extend choose` has a bound; a bound belongs to a move "
                                    "written in its `choose` or `respond`"),
                   "write the move (with its bound) where the decision is, or count in a variable of your own")


def test_a_bound_that_is_not_a_number_is_a_type_error():
    code, line, _col, message, _hint = error_of("move call at most true per turn {}")
    assert (code, line, message) == ("E202", 11, "'<' compares numbers, not a number and a true/false value")


def test_bound_errors_come_with_the_files_other_errors():
    text = TURNS.format(move="move call(q in players) once per q per round { put top(dek) into hand[q] }")
    found = diagnostics(text, before=MINI)
    assert [d.code for d in found] == ["E200", "E200"]
    assert "per `round`" in found[0].message and "`dek`" in found[1].message


def test_a_first_claim_window_of_its_own_pass_is_two_moves_of_one_name():
    text = BARTER.read_text(encoding="utf-8").replace("move take {", "move pass {")
    (d,) = diagnostics(text, name="barter.rules")
    assert (d.code, d.line, d.column, d.message) == ("E204", 48, 7, "decision `takers` offers two moves named `pass`")


BASE = """\
game "Base"
players 2..3
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
var rounds: int = 0
procedure act() {
  choose t by current { move stop {} }
}
flow {
  shuffle deck
  turns from 0 until rounds >= 4 {
    act()
    rounds += 1
  }
}
"""

VARIANT = """\
extends "base.rules"
var bumps: int = 0
replace procedure act() {
  let going = true
  while going {
    choose t by current {
      move bump at most 2 per turn { bumps += 1 }
      move stop { going = false }
    }
  }
}
"""


def test_a_variant_s_bounded_move_counts_per_turn_of_the_base_s_turns(tmp_path):
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "variant.rules").write_text(VARIANT, encoding="utf-8")
    s = ruledsl.load(tmp_path / "variant.rules").new_game(players=2, seed=1)
    seen = []
    for _ in range(8):
        seen.append((s.current_player, names(s)))
        s.apply(s.legal_moves()[0])
    both, stop = ["bump", "stop"], ["stop"]
    assert seen == [(0, both), (0, both), (0, stop), (1, both), (1, both), (1, stop), (0, both), (0, both)]
