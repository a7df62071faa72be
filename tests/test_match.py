"""``match`` on an enum (docs/language.md §4.7.1): checked complete, run as its if-chain, explained per value."""

from pathlib import Path

import pytest

import ruledsl
from ruledsl.desk.explain import rulebook
from rules_text import diagnostics

ROOT = Path(__file__).resolve().parent.parent
POWERS = (ROOT / "tests/data/powers.rules").read_text()
ARMS = """          gem: { points[current] += c.strength }
          storm: {
            if not empty(hand[next(current)]) { put top(hand[next(current)]) into discard }
          }
          mirror, echo: {
            repeat 2 times { if not empty(deck) { put top(deck) into hand[current] } }
          }
"""


def with_arms(arms: str, subject: str = "c.power") -> str:
    assert ARMS in POWERS
    return POWERS.replace("match c.power", f"match {subject}").replace(ARMS, arms)


def test_a_value_without_an_arm_is_named_with_a_hint():
    (d,) = diagnostics(with_arms("          gem: { points[current] += 1 }\n"), name="powers.rules")
    assert d.code == "E205"
    assert "no arm for `storm`, `mirror`, `echo`" in d.message
    assert "`storm: { }`" in d.hint and "else:" in d.hint
    assert d.span.line == POWERS[:POWERS.index("match c.power")].count("\n") + 1


def test_else_covers_the_values_without_an_arm():
    game = ruledsl.loads(with_arms("          gem: { points[current] += 1 }\n          else: { }\n"), "powers.rules")
    assert game is not None


def test_an_else_that_can_never_run_is_an_error():
    (d,) = diagnostics(with_arms(ARMS + "          else: { }\n"), name="powers.rules")
    assert d.code == "E205" and "`else:` never runs" in d.message


def test_a_value_named_twice_is_an_error():
    (d,) = diagnostics(with_arms(ARMS + "          gem: { }\n"), name="powers.rules")
    assert d.code == "E204" and "`gem` has two arms" in d.message


def test_a_value_of_another_enum_or_none_is_an_error():
    text = with_arms(ARMS + "          red: { }\n").replace("enum power {", "enum colour { red }\nenum power {")
    (d,) = diagnostics(text, name="powers.rules")
    assert d.code == "E202" and "`red` is not a value of `power`" in d.message
    assert "gem, storm, mirror, echo" in d.hint
    (d,) = diagnostics(with_arms(ARMS + "          fog: { }\n"), name="powers.rules")
    assert d.code == "E202" and "`fog` is not a value of `power`" in d.message


def test_a_subject_that_is_not_an_enum_is_an_error():
    (d,) = diagnostics(with_arms(ARMS, subject="c.strength"), name="powers.rules")
    assert d.code == "E202" and "chooses by the value of an enum; this is" in d.message
    assert "if ... else if" in d.hint


def test_an_unknown_subject_is_reported_once():
    ds = diagnostics(with_arms(ARMS, subject="c.colour"), name="powers.rules")
    assert len(ds) == 1 and ds[0].code != "E205"


def test_a_match_without_arms_does_not_parse():
    ds = diagnostics(with_arms(""), name="powers.rules")
    assert ds[0].code.startswith("E1")


IF_CHAIN = """          if c.power == gem { points[current] += c.strength }
          else if c.power == storm {
            if not empty(hand[next(current)]) { put top(hand[next(current)]) into discard }
          }
          else if c.power == mirror or c.power == echo {
            repeat 2 times { if not empty(deck) { put top(deck) into hand[current] } }
          }
"""


def _play(game, seed):
    state = game.new_game(players=3, seed=seed)
    trail = []
    while not state.is_over:
        moves = state.legal_moves()
        move = moves[(seed + state.move_count) % len(moves)]
        trail.append((state.current_player, state.describe(move)))
        state.apply(move)
    return trail, state.scores, state.winners


@pytest.mark.parametrize("seed", range(6))
def test_a_match_plays_as_its_if_chain(seed):
    matched = ruledsl.loads(POWERS, "powers.rules")
    text = POWERS.replace("        match c.power {\n" + ARMS + "        }\n", IF_CHAIN)
    assert "match" not in text.split("flow {")[1]
    chained = ruledsl.loads(text, "powers.rules")
    assert _play(matched, seed) == _play(chained, seed)


def test_explain_gives_one_entry_per_value(monkeypatch):
    monkeypatch.chdir(ROOT)
    book = rulebook("tests/data/powers.rules")
    assert "Then, according to c's power (a power):" in book
    for entry in ("**Gem**:", "**Storm**:", "**Mirror**, **Echo**:"):
        assert entry in book
    assert "(Match)" not in book
