"""`state.evaluate(name, *args)`: a define of the rules worked out from Python, with clear errors."""

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl import ParameterError, RulesRuntimeError

GAMES = Path(__file__).resolve().parent.parent / "games"


def highlow(seed=1, players=3):
    return ruledsl.load(GAMES / "tutorial_highlow.rules").new_game(players, seed)


def test_a_define_gives_what_the_rules_give():
    s = highlow()
    rng = random.Random(4)
    while not s.is_over:
        assert [s.evaluate("score", p) for p in range(3)] == s.scores
        # can_play(p) agrees with the moves offered: a player who can play has a `play` move
        if s.current_player >= 0:
            offered = any(m.name == "play" for m in s.legal_moves())
            assert s.evaluate("can_play", s.current_player) == offered
        assert s.evaluate("game_over") is False
        s.apply(rng.choice(s.legal_moves()))
    assert s.evaluate("game_over") is True


def test_a_card_is_given_by_its_id_or_its_label():
    s = highlow()
    top = s.cards_in("pile")[-1]
    rank = top.rstrip("♠♥♦♣")
    for label in s.cards_in("hand[0]"):
        card = s.cards_named(label)[0]
        expected = label.rstrip("♠♥♦♣") != rank
        assert s.evaluate("playable", card) is expected
        assert s.evaluate("playable", label) is expected


def test_evaluating_changes_nothing():
    s = highlow()
    before = s.clone()
    s.evaluate("can_play", 2)
    s.evaluate("playable", s.cards_in("hand[1]")[0])
    assert s == before and s.to_json() == before.to_json()


def test_enum_values_zones_and_card_results():
    s = ruledsl.load(GAMES / "trolley_car.rules", params={"single_round": True}).new_game(3, 2)
    laid = s.evaluate("laid", "red")
    assert isinstance(laid, int)
    with pytest.raises(ParameterError, match=r"`laid` takes a value of colour as `\w+`, not 'purple'"):
        s.evaluate("laid", "purple")
    text = """
game "Z"
players 2..2
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
define first_of(z) = top(z)
define both(p) = hand[p] + hand[next(p)]
flow { deal 2 from deck into hand[0]
  choose t by 0 { move a {} } }
"""
    z = ruledsl.loads(text, "z.rules").new_game(2, 1)
    assert z.evaluate("first_of", "deck") == z.zones[z.zone_id("deck")][-1]
    assert z.evaluate("first_of", "hand[0]") == z.zones[z.zone_id("hand[0]")][-1]
    assert sorted(z.evaluate("both", 0)) == sorted(z.zones[z.zone_id("hand[0]")])
    with pytest.raises(ParameterError, match=r"`first_of` takes a zone .* not 'hnd\[0\]'"):
        z.evaluate("first_of", "hnd[0]")


@pytest.mark.parametrize("call, message", [
    (("can_ply", 1), "the rules have no define 'can_ply'; did you mean `can_play`? "
                     "(defines: can_play, game_over, playable, score)"),
    (("tricks",), "the rules have no define 'tricks'; `tricks` is a variable: read it with "
                  "state.get_var('tricks[0]')"),
    ((3,), "the rules have no define 3"),
    (("can_play",), "`can_play` takes 1 argument (p), not 0"),
    (("game_over", 1), "`game_over` takes 0 arguments, not 1"),
    (("can_play", 7), "`can_play` takes a player (a seat number) as `p`, not 7 (this game has players 0 to 2)"),
    (("can_play", "x"), "`can_play` takes a player (a seat number) as `p`, not 'x'"),
    (("can_play", True), "`can_play` takes a player (a seat number) as `p`, not True"),
    (("playable", 999), "`playable` takes a card (its id, or its label like 'K♥') as `c`, not 999 "
                        "(card ids are 0 to 51)"),
    (("playable", "Z♥"), "`playable` takes a card (its id, or its label like 'K♥') as `c`, not 'Z♥'"),
    (("playable", [1]), "`playable` takes a card (its id, or its label like 'K♥') as `c`, not [1]"),
])
def test_mistakes_are_told_not_raised_as_tracebacks(call, message):
    s = highlow()
    with pytest.raises(ParameterError) as err:
        s.evaluate(*call)
    assert str(err.value).startswith(message)


def test_a_rule_that_cannot_be_worked_out_is_a_finding_at_its_line():
    s = ruledsl.load(GAMES / "goofspiel.rules").new_game(2, 1)
    with pytest.raises(RulesRuntimeError) as err:
        s.evaluate("high_bid")  # the bids are not on the table yet
    assert err.value.span.line == 29 and "the zone is empty" in err.value.message


def test_every_define_of_every_game_can_be_evaluated_or_is_refused_clearly():
    from ruledsl.engine.evaluate import _compiled, parameter_uses

    params = {"trolley_car": {"single_round": True}, "tramwaje": {"max_rounds": 3}}
    for path in sorted(GAMES.glob("*.rules")):
        if path.name.endswith(".test.rules"):
            continue
        game = ruledsl.load(path, params=params.get(path.stem, {}))
        s = game.new_game(game.program.min_players, 3)
        model = game.program.compiler.m
        for name, d in model.defines.items():
            uses = parameter_uses(model, d, _compiled.setdefault(game.program, {}))
            args = [next((model.enums[u[5:]].values[0] for u in kinds if u.startswith("enum:")), 0)
                    for kinds in uses]
            try:
                s.evaluate(name, *args)
            except (RulesRuntimeError, ParameterError):
                pass  # a finding of the position, or arguments that do not fit: told, not a traceback
