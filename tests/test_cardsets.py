"""Moves that take a set of cards (`move m(cs subset of ZONE) where COND`): offered once, built card by
card inside one decision, `done` once the set is valid; the checker's errors; verify stays green."""

import textwrap

import pytest

import ruledsl
from ruledsl import RulesError
from ruledsl.verify.checks import verify

STRIKES = textwrap.dedent("""\
    game "Strikes"
    players 2..3
    limit 500 moves
    kind card { rank: 1..6  show "R{rank}" }
    cards 4 * card(rank: each) in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    zone pile: pile public
    var hits[player]: int = 0
    define strength(c) = c.rank
    flow {
      shuffle deck
      for p in players { deal 5 from deck into hand[p] }
      turns from 0 until empty(deck) {
        choose turn by current {
          move attack(cs subset of hand[current]) where sum(strength(c) for each c in cs) >= 8 {
            for c in cs { put c into pile }
            hits[current] += 1
          }
          move draw { put top(deck) into hand[current] }
        }
      }
    }
    """)


def game(text=STRIKES):
    return ruledsl.loads(text, "strikes.rules")


def test_a_set_is_offered_once_and_built_card_by_card():
    s = game().new_game(players=2, seed=3)
    assert [m.name for m in s.legal_moves()] == ["attack", "draw"]  # one listing, not one per subset
    s.apply(ruledsl.Move("attack", ()))
    assert (s.decision, s.current_player) == ("attack", 0)
    hand = [m.args[0] for m in s.legal_moves() if m.name == "add"]
    assert len(hand) == 5 and "done" not in [m.name for m in s.legal_moves()]
    ranks = {c: int(s.describe(ruledsl.Move("add", (c,)))[len("add(R"):-1]) for c in hand}
    chosen, picked = 0, []
    for c in sorted(hand, key=ranks.get, reverse=True):
        s.apply(ruledsl.Move("add", (c,)))
        chosen += ranks[c]
        picked.append(c)
        names = [m.name for m in s.legal_moves()]
        assert ("done" in names) == (chosen >= 8)  # done once the set is valid
        assert ruledsl.Move("add", (c,)) not in s.legal_moves()  # a card is added once
        if chosen >= 8:
            break
    s.apply(ruledsl.Move("done", ()))
    assert s.decision == "turn" and s.current_player == 1
    assert s.get_var("hits[0]") == 1
    assert sorted(s.cards_in("pile")) == sorted(s.card_label(c) for c in picked)  # the whole set, played at once


def test_a_set_move_is_not_offered_when_even_the_whole_zone_fails():
    text = STRIKES.replace(">= 8", ">= 100")
    s = game(text).new_game(players=2, seed=3)
    assert [m.name for m in s.legal_moves()] == ["draw"]


def test_a_set_beside_other_parameters_is_an_error():
    text = STRIKES.replace("move attack(cs subset of hand[current])",
                           "move attack(cs subset of hand[current], q in players)")
    with pytest.raises(RulesError) as e:
        game(text)
    assert "takes a set of cards beside other parameters" in str(e.value)
    assert str(e.value).count("error[") == 1  # no follow-on errors about `cs`


def test_a_set_in_a_choice_made_together_needs_a_condition():
    """Chosen together, a set is complete as soon as its condition holds (tests/test_together.py): it needs one."""
    text = STRIKES.replace("choose turn by current {", "choose turn by each q in players {").replace(
        "hand[current]) where", "hand[q]) where").replace("hits[current] += 1", "hits[q] += 1")
    state = game(text).new_game(2, 1)
    assert state.decision == "turn"  # with a condition: accepted
    with pytest.raises(RulesError) as e:
        game(text.replace(" where sum(strength(c) for each c in cs) >= 8", ""))
    message = str(e.value)
    assert "E206" in message and "choose turn by each" in message and "takes a set of cards" in message
    assert message.startswith("strikes.rules:16:")  # the position of `cs subset of ...`
    assert message.count("error[") == 1  # no follow-on errors about `cs`


def test_set_moves_keep_verify_green():
    report = verify(game(), players=[2, 3], examples=3, shrink_seconds=0)
    assert report.ok, report


# ---- `subset of ZONE while COND`: sets that must stay completable

MELDS = textwrap.dedent("""\
    game "Melds"
    players 2..3
    limit 500 moves
    kind card { rank: 1..4  suit: 1..3  show "R{rank}S{suit}" }
    cards card(rank: each, suit: each) in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    zone melds[player]: row public
    define one_rank(cs) = all(each a in cs where all(each b in cs where b.rank == a.rank))
    define can_meld(p, cs) = one_rank(cs) and size(cs) <= 3
        and any(each c in hand[p] where all(each d in cs where d.rank == c.rank)
                and count(each d in hand[p] where d.rank == c.rank) >= 3)
    flow {
      shuffle deck
      turns from 0 until empty(deck) {
        choose turn by current {
          move meld(cs subset of hand[current] while can_meld(current, cs)) where one_rank(cs) and size(cs) == 3 {
            for c in cs { put c into melds[current] }
          }
          move draw { put top(deck) into hand[current] }
        }
      }
    }
    """)


def test_a_set_with_while_is_offered_only_when_it_can_be_completed_and_adds_only_fitting_cards():
    text = MELDS.replace("move draw { put top(deck) into hand[current] }", "move draw { put top(deck) into hand[current] }\n"
                         "          move nothing {}")
    for seed in range(1, 40):
        s = ruledsl.loads(text, "melds.rules").new_game(players=2, seed=seed)
        hand = s.cards_in("hand[0]")
        assert hand == []  # nothing dealt: draw until a rank has three cards
        while "meld" not in [m.name for m in s.legal_moves()]:
            s.apply(ruledsl.Move("draw"))
            s.apply(ruledsl.Move("nothing"))  # player 1
            ranks = [c[1] for c in s.cards_in("hand[0]")]
            can = any(ranks.count(r) >= 3 for r in ranks)
            assert ("meld" in [m.name for m in s.legal_moves()]) == can  # offered exactly when completable
        s.apply(ruledsl.Move("meld"))
        adds = [m for m in s.legal_moves() if m.name == "add"]
        first = adds[0]
        rank = s.describe(first)[len("add(R")]
        s.apply(first)
        for m in s.legal_moves():
            if m.name == "add":
                assert s.describe(m)[len("add(R")] == rank  # only cards that keep the set completable
        assert "done" not in [m.name for m in s.legal_moves()]
        while "done" not in [m.name for m in s.legal_moves()]:
            s.apply([m for m in s.legal_moves() if m.name == "add"][0])
        assert [m.name for m in s.legal_moves()] == ["done"]  # three of a rank: valid, and no fourth card
        s.apply(ruledsl.Move("done"))
        assert len(s.cards_in("melds[0]")) == 3 and len({c[1] for c in s.cards_in("melds[0]")}) == 1
        return
    raise AssertionError("no seed gave a meld")


def test_a_while_condition_that_is_not_true_or_false_is_an_error_at_its_position():
    text = MELDS.replace("while can_meld(current, cs))", "while size(cs) + 1)")
    with pytest.raises(RulesError) as e:
        ruledsl.loads(text, "melds.rules")
    message = str(e.value)
    assert "E202" in message and "should be a true/false value" in message
    assert message.startswith("melds.rules:17:50:")  # `size(cs) + 1`, not the move
    assert len(e.value.diagnostics) == 1  # one cause, one error (the condition is checked in two places)


def test_while_sets_keep_verify_green():
    report = verify(ruledsl.loads(MELDS, "melds.rules"), players=[2], examples=3, shrink_seconds=0)
    assert report.ok, report


# ---- a set in a log is one record


def test_a_log_records_a_set_as_one_record_and_replays_it():
    from ruledsl.engine.setlog import fold, unfold
    from ruledsl.play.sim import play_game

    g = game()
    result = play_game(g, 2, 5, "random")
    records = fold(g, 2, 5, result.moves)
    sets = [r for r in records if isinstance(r[-1], list)]
    assert sets and all(r[0] == "attack" for r in sets)
    assert not any(r[0] in ("add", "done") for r in records)  # no steps left over
    assert unfold(records) == [list(m) for m in result.moves]
    # the records replay to the same end as the steps (old logs), through the API
    assert g.replay(2, 5, records).to_json() == g.replay(2, 5, result.moves).to_json()


def test_a_log_cut_in_the_middle_of_a_set_keeps_its_steps():
    from ruledsl.engine.setlog import fold

    g = game()
    s = g.new_game(players=2, seed=3)
    s.apply(ruledsl.Move("attack"))
    add = [m for m in s.legal_moves() if m.name == "add"][0]
    steps = [["attack"], add.to_json()]
    assert fold(g, 2, 3, steps) == steps


def test_run_log_and_replay_show_a_set_as_one_move(tmp_path):
    import json

    from click.testing import CliRunner

    from ruledsl.cli import main

    rules = tmp_path / "strikes.rules"
    rules.write_text(STRIKES, encoding="utf-8")
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["run", str(rules), "--seed", "5", "--log", str(log)])
    assert result.exit_code == 0, result.output
    moves = json.loads(log.read_text(encoding="utf-8"))["moves"]
    sets = [m for m in moves if isinstance(m[-1], list)]
    assert sets and not any(m[0] in ("add", "done") for m in moves)
    listed = CliRunner().invoke(main, ["replay", str(log)])
    assert listed.exit_code == 0, listed.output
    assert "attack{R" in listed.output and "add(" not in listed.output
    assert "every check held" in listed.output
    # a log written with the steps (before records) replays the same
    data = json.loads(log.read_text(encoding="utf-8"))
    from ruledsl.engine.setlog import unfold
    data["moves"] = unfold(data["moves"])
    log.write_text(json.dumps(data), encoding="utf-8")
    again = CliRunner().invoke(main, ["replay", str(log)])
    assert again.exit_code == 0 and "attack{R" in again.output and "every check held" in again.output
