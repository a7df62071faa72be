"""Zone visibilities beyond hidden/owner/public/top: `others` (cards held facing away)."""

from pathlib import Path

import pytest

import ruledsl
from ruledsl.language.errors import RuledslError
from ruledsl.engine.observe import move_seen
from ruledsl.verify.checks import verify

AWAY = Path(__file__).parent / "data" / "away.rules"


def test_everybody_but_the_owner_sees_a_hand_held_facing_away():
    game = ruledsl.load(AWAY)
    s = game.new_game(3, 5)
    for viewer in range(3):
        v = s.view(viewer)
        for p in range(3):
            hand = v["zones"][f"hand[{p}]"]
            assert len(hand) == 3
            if p == viewer:
                assert hand == ["?", "?", "?"]
            else:
                assert "?" not in hand and None not in hand
    # the others agree on what they see of player 0's hand
    assert s.view(1)["zones"]["hand[0]"] == s.view(2)["zones"]["hand[0]"]


def test_a_card_played_from_a_hand_facing_away_is_shown_to_all():
    s = ruledsl.load(AWAY).new_game(2, 1)
    move = s.legal_moves()[0]
    before = s.clone()
    s.apply(move)
    assert move_seen(before, s, move, 0) == move_seen(before, s, move, 1) == "play(0)"
    assert s.view(0)["zones"]["hand[0]"][0] is None  # slot 0 is empty now
    assert s.view(0)["zones"]["pile"] == s.view(1)["zones"]["pile"] != ["?"]


def test_verify_passes_a_game_with_hands_facing_away():
    report = verify(ruledsl.load(AWAY), examples=5, seed=2)
    assert report.ok, report.failure


def test_verify_catches_an_owner_who_picks_their_unseen_cards_by_name():
    text = AWAY.read_text(encoding="utf-8").replace(
        "zone hand[player]: track(3) others", "zone hand[player]: track(3) others\nzone held[player]: row others"
    ).replace("      move play(k in 0..2)",
              "      move keep(c in held[current]) { put c into pile }\n      move play(k in 0..2)").replace(
        "  turns from 0", "  deal 2 from deck into held[0]\n  deal 2 from deck into held[1]\n  turns from 0")
    game = ruledsl.loads(text, str(AWAY), None)
    report = verify(game, examples=10, seed=3, shrink_seconds=4, players=[2])
    assert report.failure is not None and report.failure.check == "hidden information", report.failure
    assert "legal moves" in report.failure.message


def test_others_visibility_needs_an_owner():
    text = AWAY.read_text(encoding="utf-8").replace("zone pile: pile public", "zone pile: pile others")
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(text, str(AWAY))
    assert ":10:17:" in str(err.value) and "everybody but its owner" in str(err.value)
    assert "zone pile[player]" in str(err.value)


# ---- reveal of several zones and of cards

PEEK = Path(__file__).parent / "data" / "peek.rules"


def test_reveal_of_zones_and_cards_shows_them_to_that_player_only_while_the_body_runs():
    game = ruledsl.load(PEEK)
    s = game.new_game(3, 4)
    assert s.current_player == 0 and s.decision == "turn"
    mine = s.view(0)
    assert "?" not in mine["zones"]["hand[1]"] + mine["zones"]["hand[2]"]
    deck = mine["zones"]["deck"]
    assert deck[-2:] != ["?", "?"] and "?" not in deck[-2:] and set(deck[:-2]) == {"?"}
    # the others see nothing new
    theirs = s.view(1)
    assert set(theirs["zones"]["hand[2]"]) == {"?"} and set(theirs["zones"]["deck"]) == {"?"}
    s.apply("skip")
    # the grant is withdrawn; the next player gets theirs
    again = s.view(0)
    assert set(again["zones"]["hand[1]"]) == {"?"} and set(again["zones"]["deck"]) == {"?"}
    assert s.current_player == 1 and "?" not in s.view(1)["zones"]["hand[0]"]


def test_a_revealed_card_stays_seen_where_it_goes_and_saves_keep_the_grant():
    s = ruledsl.load(PEEK).new_game(2, 9)
    keep = next(m for m in s.legal_moves() if m.name == "keep")
    label = s.card_label(keep.args[0])
    assert label in s.view(0)["zones"]["deck"]
    s.apply(keep)
    assert s.view(0)["zones"]["hand[0]"][-1] == label  # in the owner's hand: seen anyway
    s = ruledsl.load(PEEK).new_game(2, 9)
    again = s.game.state_from_json(s.to_json())
    assert again.grants == s.grants and len(s.grants) == 3  # one hand (both neighbours are seat 1), two cards
    assert again.view(0) == s.view(0)


def test_verify_passes_reveals_of_several_zones_and_cards():
    report = verify(ruledsl.load(PEEK), examples=5, seed=4)
    assert report.ok, report.failure


@pytest.mark.parametrize("what, word", [("3", "a number"), ("current", "a player")])
def test_reveal_says_what_it_takes(what, word):
    text = PEEK.read_text(encoding="utf-8").replace(
        "hand[next(current)] + hand[previous(current)] + top(deck, 2) to", f"hand[0] + {what} to")
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(text, str(PEEK))
    msg = str(err.value)
    assert "`reveal` shows a zone, zones joined by `+`, a card or a list of cards, not " + word in msg
    assert "reveal hand[a] + hand[b] to p" in msg


# ---- show: cards seen for a moment, without moving them

SHOWOFF = Path(__file__).parent / "data" / "showoff.rules"


def test_show_lets_every_player_see_the_card_drawn_until_the_next_move():
    s = ruledsl.load(SHOWOFF).new_game(3, 2)
    before = s.clone()
    s.apply("draw")
    card = s.zones[s.program.zones[[z.name for z in s.program.zones].index("hand[0]")].zid][-1]
    label = s.card_label(card)
    for p in range(3):
        assert s.view(p)["shown"] == [label]
        assert move_seen(before, s, s.moves[-1], p) == f"draw showing {label}"
    assert s.view(1)["zones"]["hand[0]"] == ["?"]  # the card did not stay on the table
    s.apply("draw")
    assert label not in s.view(1).get("shown", [])  # the moment has passed


def test_show_to_one_player_shows_the_hand_to_that_player_only():
    s = ruledsl.load(SHOWOFF).new_game(3, 2)
    for _ in range(4):
        s.apply("draw")
    before = s.clone()
    s.apply("boast")  # player 1 shows their hand to player 2
    hand = [s.card_label(c) for c in before.zones[[z.name for z in s.program.zones].index("hand[1]")]]
    assert s.view(2)["shown"] == hand
    assert "shown" not in s.view(0)
    assert move_seen(before, s, s.moves[-1], 0) == "boast"
    assert move_seen(before, s, s.moves[-1], 2) == "boast showing " + ", ".join(hand)
    again = s.game.state_from_json(s.to_json())
    assert again == s and again.view(2) == s.view(2)


def test_verify_passes_show_and_catches_a_show_that_depends_on_a_hidden_card():
    assert verify(ruledsl.load(SHOWOFF), examples=4, seed=1).ok
    text = SHOWOFF.read_text(encoding="utf-8").replace(
        "        show c\n        if c.rank > 10 {\n", "        if c.rank > 10 {\n          show c\n")
    report = verify(ruledsl.loads(text, str(SHOWOFF)), examples=10, seed=1, shrink_seconds=4)
    assert report.failure is not None and report.failure.check == "information flow", report.failure
    assert "showing" in report.failure.message


def test_show_says_what_it_takes():
    text = SHOWOFF.read_text(encoding="utf-8").replace("show c\n", "show c.rank\n")
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(text, str(SHOWOFF))
    assert "`show` shows a zone, zones joined by `+`, a card or a list of cards, not a number" in str(err.value)


# ---- variables that not everyone sees

TALLY = Path(__file__).parent / "data" / "tally.rules"


def test_an_owner_variable_is_seen_by_its_player_and_a_hidden_one_by_nobody():
    s = ruledsl.load(TALLY).new_game(3, 6)
    for _ in range(3):
        s.apply("draw")
    ranks = [s.vars[s.program.var_names.index(f"total[{p}]")] for p in range(3)]
    assert all(r > 0 for r in ranks)
    for viewer in range(3):
        v = s.view(viewer)["vars"]
        assert v[f"total[{viewer}]"] == ranks[viewer]
        assert [v[f"total[{p}]"] for p in range(3) if p != viewer] == ["?", "?"]
        assert v["last"] == "?" and v["draws"] == 3


def test_verify_passes_owner_variables_and_catches_a_public_one_worked_out_from_hidden_cards():
    text = TALLY.read_text(encoding="utf-8")
    assert verify(ruledsl.load(TALLY), examples=4, seed=2).ok
    public = ruledsl.loads(text.replace("int owner = 0 ", "int = 0 "), str(TALLY))
    report = verify(public, examples=4, seed=2, shrink_seconds=4)
    assert report.failure is not None and report.failure.check == "information flow", report.failure
    assert "variables differ" in report.failure.message


@pytest.mark.parametrize("old, new, message", [
    ("var draws: int = 0", "var draws: int owner = 0", "variable `draws` is seen by its owner, but it has no owner"),
    ("var draws: int = 0", "var draws: int secret = 0", "unknown variable visibility `secret`"),
])
def test_variable_visibility_errors(old, new, message):
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(TALLY.read_text(encoding="utf-8").replace(old, new), str(TALLY))
    assert message in str(err.value) and ":13:1:" in str(err.value)


# ---- tell: what a player knows about a card without seeing it

HINTS = Path(__file__).parent / "data" / "hints.rules"


def _hinted(seed: int = 0):
    s = ruledsl.load(HINTS).new_game(3, seed)
    z = {z.name: z for z in s.program.zones}["hand[1]"]
    hand = [s.places[q] for q in z.places]
    colours = s.program.card_attrs["colour"]
    red = s.program.enums["colour"].index("red")
    return s, hand, [colours[c] == red for c in hand], red


def test_tell_shows_the_attribute_of_pointed_out_cards_to_every_player():
    s, hand, is_red, red = _hinted()
    s.apply(f"hint(1, {red})")
    mine = s.view(1)["zones"]["hand[1]"]
    assert mine == ["red ?" if r else "?" for r in is_red]
    assert s.view(2)["zones"]["hand[1]"] == [s.card_label(c) for c in hand]  # the others see the faces anyway
    assert s.get_var("hints") == 5


def test_what_was_told_follows_the_card_when_it_moves():
    for seed in range(20):
        s, hand, is_red, red = _hinted(seed)
        if is_red[0]:
            break
    assert is_red[0], "no seed dealt player 1 a red first card"
    s.apply(f"hint(1, {red})")
    s.apply("play(1)")  # player 1 plays slot 1; slot 0 keeps the told card
    s.apply("play(0)")  # player 2
    s.apply("play(0)")  # player 0
    s.apply("play(0)")  # player 1 plays the told card onto the pile: face up now
    assert s.view(1)["zones"]["pile"][-1] == s.card_label(hand[0])
    again = s.game.state_from_json(s.to_json())
    assert again == s and again.view(1) == s.view(1)
    assert [hand[0], "colour", 1] in s.known


def test_verify_passes_hints_and_tell_errors_say_what_is_wrong():
    assert verify(ruledsl.load(HINTS), examples=4, seed=5).ok
    text = HINTS.read_text(encoding="utf-8")
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(text.replace("tell colour of", "tell color of"), str(HINTS))
    assert "no kind of card has an attribute `color`" in str(err.value) and "colour" in str(err.value)
    with pytest.raises(RuledslError) as err:
        ruledsl.loads(text.replace("tell colour of cards(each c in hand[q] where c.colour == k)",
                                   "tell colour of k"), str(HINTS))
    assert "`tell` tells about a zone, zones joined by `+`, a card or a list of cards, not a colour" in str(err.value)
