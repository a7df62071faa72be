"""`announce v = EXPR`: truthful answers about hidden cards, and verify's rule for them
(docs/language.md §4.14.3, ruledsl/verify/disclosure.py)."""

import textwrap
from pathlib import Path


import ruledsl
from ruledsl.verify.checks import verify
from rules_text import MINI, diagnostics

ASK = Path(__file__).resolve().parent / "data" / "ask.rules"

BASE = MINI + """\
var told: bool = false
var secret: bool hidden = false
var pick: card
"""


errors = diagnostics


def test_announce_sets_a_variable_every_viewer_sees():
    game = ruledsl.loads(BASE + textwrap.dedent("""\
        flow {
          shuffle deck
          deal 5 from deck into hand[1]
          announce told = any(each c in hand[1] where c.rank == 7)
          choose t by 0 { move stop {} }
        }
        """), "mini.rules")
    state = game.new_game(2, 0)
    holds = any(state.card_label(c).startswith("7") for c in state.zones[state.program.zone_families["hand"][0] + 1])
    assert state.get_var("told") is holds
    assert state.view(0)["vars"]["told"] is holds
    assert game.program.announced


def test_a_local_cannot_be_announced():
    (d,) = errors(BASE + "flow {\n  let x = 1\n  announce x = 2\n}\n")
    assert (d.code, d.line, d.column) == ("E202", 12, 3)
    assert d.message == "`announce` tells the value of a variable; `x` is a local name"
    assert d.hint == "declare it: var x: bool (public: everyone is told; owner: its player is)"


def test_a_hidden_variable_cannot_be_announced():
    (d,) = errors(BASE + "flow {\n  announce secret = true\n}\n")
    assert (d.code, d.line) == ("E202", 11)
    assert d.message == "`secret` is hidden: an announcement would tell nobody"
    assert d.hint == "make it public (var secret: ...) or owner, to tell the player of its index"


def test_a_card_cannot_be_announced():
    (d,) = errors(BASE + "flow {\n  announce pick = top(deck)\n}\n")
    assert (d.code, d.line) == ("E202", 11)
    assert d.message == "`announce` tells a number, true/false, a player or an enum value, not a card"
    assert d.hint == "to let players see a card, use `show` or move it face up"


def test_an_announced_variable_is_set_only_by_announce():
    (d,) = errors(BASE + "flow {\n  announce told = empty(deck)\n  told = false\n}\n")
    assert (d.code, d.line) == ("E206", 12)
    assert d.message == "`told` is announced (line 11): set it only with `announce`"
    assert d.hint == "write announce told... = ..., so that every value players see of it is told"


def test_verify_takes_an_announcement_as_intended_disclosure():
    report = verify(ruledsl.load(ASK), players=[2], examples=6, seed=0, shrink_seconds=0)
    assert report.ok, report.failure


def test_the_same_answer_set_without_announce_is_a_leak(tmp_path):
    plain = tmp_path / "ask.rules"
    plain.write_text(ASK.read_text(encoding="utf-8").replace("announce answer", "answer"), encoding="utf-8")
    report = verify(ruledsl.load(plain), players=[2], examples=6, seed=0, shrink_seconds=0)
    assert report.failure is not None and report.failure.check == "information flow"
