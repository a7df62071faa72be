"""`ruledsl play`: a human seat at the terminal."""

from pathlib import Path

from click.testing import CliRunner

from ruledsl.cli import main

DATA = Path(__file__).parent / "data"
TROLLEY = Path(__file__).resolve().parent.parent / "games" / "trolley_car.rules"


def play(*args, input=""):
    return CliRunner().invoke(main, ["play", *map(str, args)], input=input, catch_exceptions=False)


def test_a_human_plays_a_whole_game_against_a_bot():
    # goal 6: the human always takes two points, the `first` bot always one
    result = play(DATA / "race.rules", "--bot", "first", input="2\n2\n2\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("player 1 (first): one") == 2
    assert result.output.splitlines()[-3:] == ["game over", "  player 0 (you): 6  winner", "  player 1: 2"]


def test_bad_input_is_asked_again():
    result = play(DATA / "race.rules", "--bot", "first", input="x\n7\n2\n2\n2\n")
    assert result.output.count("type a number from 1 to 2, or q") == 2
    assert "player 0 (you): 6  winner" in result.output


def test_quitting_and_end_of_input_leave_the_game():
    assert play(DATA / "race.rules", input="q\n").output.splitlines()[-1] == "game left unfinished"
    assert play(DATA / "race.rules", input="").output.splitlines()[-1] == "game left unfinished"


def test_the_human_sees_only_their_view():
    result = play(TROLLEY, "--players", "3", "--seat", "1", input="q\n")
    shown = result.output
    assert "--- player 1, deciding `declare`" in shown
    assert "  hand[0]: 15 hidden cards" in shown and "  hand[2]: 15 hidden cards" in shown
    hand = next(line for line in shown.splitlines() if line.startswith("  hand[1]: "))
    assert "?" not in hand and len(hand.split()) == 16
    assert "deck: " in shown and "hidden cards" in next(l for l in shown.splitlines() if "deck:" in l)


def test_a_seat_outside_the_game():
    result = play(DATA / "race.rules", "--seat", "5")
    assert result.exit_code == 2
    assert result.output.strip() == "error: --seat 5: the seats are 0 to 1"


TRAMWAJE = Path(__file__).resolve().parent.parent / "games" / "tramwaje.rules"


def test_a_forced_move_is_made_by_itself_unless_no_auto():
    # attack_player(player 1): the attack's cards are chosen in `attack_cards`, whose only move is strike
    auto = play(TRAMWAJE, "--players", "3", "--bot", "first", input="11\nq\n").output
    assert "player 0 (you): strike (the only move)" in auto
    assert "deciding `attack_cards`" not in auto and "building strike: {no cards yet}" in auto
    asked = play(TRAMWAJE, "--players", "3", "--bot", "first", "--no-auto", input="11\nq\n").output
    assert "deciding `attack_cards`" in asked and "(the only move)" not in asked


def test_an_attack_says_its_strength_and_its_effect_at_the_terminal():
    # seat 0 attacks player 1 with 9♣ (strength 9: a deliberate accident); the bot endures it
    out = play(TRAMWAJE, "--players", "3", "--bot", "first", input="11\n2\n10\nq\n").output
    assert "9♣ hand[0] → battle; attack_strength 0 → 9" in out
    endured = next(line for line in out.splitlines()[out.splitlines().index("player 1 (first): endure") + 1:])
    assert "hand[1] −2 hidden" in endured and "attack_effect none → accident" in endured
    assert "attack_strength=9, attack_effect=accident" in out  # the table after it, enum values by name
