"""One cause, one error: what is built on a reported error is not reported again (no knock-on errors)."""


import pytest

from rules_text import MINI, diagnostics

BASE = MINI + """\
zone table[player]: row public
var total[player]: int = 0
"""


def errors(text: str) -> list:
    return diagnostics(text, before=BASE)


def turn(moves: str, until: str = "false") -> str:
    return f"flow {{\n  turns from 0 until {until} {{\n    choose turn by current {{\n{moves}\n    }}\n  }}\n}}\n"


CASES = {
    # an unknown name in a comparison, then used again in the same move
    "comparison": (turn("      move a where bonus > 3 and bonus < total[current] { total[current] += bonus }"),
                   (12, 20), "unknown name `bonus`"),
    # an unknown variable in a sum: the sum's value is used in a comparison and an assignment
    "sum": ("define worth(p) = sum(c.rank for each c in hand[p]) + extra[p]\n"
            + turn("      move a where worth(current) > 10 { total[current] = worth(current) * 2 }"),
            (9, 55), "unknown zone or variable `extra`"),
    # an unknown name as a zone index, used in several statements
    "zone index": (turn("      move a(c in hand[current]) {\n        put c into table[plr]\n"
                        "        total[plr] += size(table[plr])\n      }"),
                   (13, 26), "unknown name `plr`"),
    # an unknown zone as a move parameter's domain: the parameter is used as a card after it
    "move parameter": (turn("      move a(c in hnd[current]) where c.rank > 3 and c.suit == hearts {\n"
                            "        put c into table[current]\n        total[current] += c.rank\n      }"),
                       (12, 19), "unknown zone or variable `hnd`"),
    # an unknown parameter as the end of a move parameter's range: the number is used after it
    "move parameter range": (turn("      move take(n in 1..most) where n <= size(hand[current]) {\n"
                                  "        total[current] += n * 2\n      }"),
                             (12, 25), "unknown name `most`"),
    # a define misspelt where it is declared, used correctly in three places
    "misspelt define": ("define can_ply(p) = any(each c in hand[p] where c.rank > 3)\n"
                        + turn("      move a where can_play(current) { total[current] += 1 }\n"
                               "      move b where not can_play(current) {}", until="not can_play(0)"),
                        (11, 26), "unknown function `can_play`"),
    # a wrong-typed expression (a card plus a number) feeding a define, a comparison and an assignment
    "wrong type feeds another": ("define lead_card(p) = top(hand[p])\ndefine worth(p) = lead_card(p) + 1\n"
                                 "define rich(p) = worth(p) > 20\n"
                                 + turn("      move a where rich(current) { total[current] = worth(current) }",
                                        until="worth(0) > 30"),
                                 (10, 19), "'+' joins zones or lists of cards, not a card and a number"),
    # `max` of cards (meant: the card with the highest value), used as a card afterwards
    "max of cards": ("define high(p) = max(c for each c in hand[p])\n"
                     + turn("      move a where high(current).rank > 3 { put high(current) into table[current] }"),
                     (9, 22), "`max` compares numbers"),
    # a zone declared with a misspelt index: its uses are not told that their index is of the wrong type
    "declaration": ("zone pool[plyr]: row owner\n"
                    + turn("      move a(c in hand[current]) { put c into pool[current] }",
                           until="size(pool[0]) > 3"),
                    (9, 11), "unknown index `plyr`"),
    # a misspelt attribute read in several places
    "attribute": (turn("      move a(c in hand[current]) where c.rnk > 3 {\n        total[current] += c.rnk\n      }"),
                  (12, 40), "no card kind has an attribute `rnk`"),
    # an if-expression whose branches disagree, used as a number
    "branches": ("define pick(p) = if total[p] > 3 then top(hand[p]) else 0\n"
                 + turn("      move a where pick(current) > 2 { total[current] = pick(current) + 1 }"),
                 (9, 18), "both branches should give the same type"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_cause_gives_one_error_at_the_cause(name):
    text, (line, column), message = CASES[name]
    found = errors(text)
    assert len(found) == 1, "\n".join(d.render() for d in found)
    assert (found[0].line, found[0].column) == (line, column), found[0].render()
    assert message in found[0].message


def test_the_other_uses_of_an_unknown_name_are_listed_in_its_hint():
    d, = errors(CASES["misspelt define"][0])
    assert d.hint == "did you mean `can_ply`? (also used at 13:20 and 14:24)"


def test_two_different_causes_still_give_two_errors_in_file_order():
    found = errors(turn("      move a where bonus > 3 { total[current] += top(hand[current]) }\n"
                        "      move b where malus > 3 {}"))
    assert [(d.line, d.message) for d in found] == [
        (12, "unknown name `bonus`"),
        (12, "the value of `+=` should be a number, but this is a card"),
        (13, "unknown name `malus`"),
    ]


def test_a_knock_on_error_before_its_cause_is_not_reported_first():
    """A define used above the line where it goes wrong: the use is not reported, only the cause."""
    found = errors(turn("      move a where worth(current) > 2 {}") + "define worth(p) = hand[p] + 1\n")
    assert [(d.line, d.column) for d in found] == [(16, 19)]
