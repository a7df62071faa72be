"""Zone visibilities beyond hidden/owner/public/top: `others` (cards held facing away)."""

from pathlib import Path

import pytest

import ruledsl
from ruledsl.errors import RuledslError
from ruledsl.observe import move_seen
from ruledsl.verify import verify

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
