"""``ruledsl explain``: rulebooks written from the checked model; the checked-in pages stay up to date."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.desk.explain import rulebook, to_html

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ["tramwaje", "trolley_car", "trolley_car_bet", "trambahn", "goofspiel", "knockout_whist", "uno",
         "tutorial_highlow"]


@pytest.mark.parametrize("name", SEEDS)
def test_the_checked_in_rulebook_is_up_to_date(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    page = ROOT / "docs" / "games" / f"{name}.rulebook.md"
    assert page.read_text(encoding="utf-8") == rulebook(f"games/{name}.rules"), (
        f"regenerate it: ruledsl explain games/{name}.rules -o docs/games/{name}.rulebook.md")


def test_a_rulebook_has_every_part(monkeypatch):
    monkeypatch.chdir(ROOT)
    book = rulebook("games/tramwaje.rules")
    for heading in ("## How to win", "## Components", "## Parameters", "## Who starts", "## Setup and play",
                    "## As soon as ...", "## Appendix: terms used in these rules", "## Appendix: bookkeeping"):
        assert heading in book
    assert book.index("## How to win") < book.index("## Components") < book.index("## Setup and play")
    assert "54 cards start in the stack: 52 × playing card, 2 × joker card." in book
    assert "| hand | each player | a row | only its owner sees its cards; shown to a player in *attack* |" in book
    assert "| `deal_size` | 10 | 1 to 10 | cards dealt to each player |" in book
    # a commented define in the designer's words, an uncommented one in words from its formula
    assert '(*wild* (c): A wild card: an Ace or a Joker. "2 Aces, or 2 Jokers,' in book  # used in one part: there
    assert "- *strength* (c): \"A card's strength is its number" in book  # used in two parts: the appendix
    assert "(*strength* (c)" not in book
    assert "rank count" not in book and "trams in" not in book  # read only by formulas the rules file keeps
    assert "*next line*" not in book  # only the bots' heuristic reads it
    assert "**repel** (with c from v's hand), if *wild* (c):" in book  # a move with its condition
    assert "A round of answers (**offers**) opens" in book  # a window read back as one step
    assert "As soon as, for a player p, not founded and *company* (p):" in book


def test_a_variant_marks_what_it_changes(monkeypatch):
    monkeypatch.chdir(ROOT)
    book = rulebook("games/trolley_car_bet.rules")
    assert "betting cards laid before a player **[new in this variant]**" in book
    assert [line for line in book.splitlines() if "(*deduction*" in line][0].endswith(
        "**[changed by this variant]**")
    assert "- Also, in **turn** **[new in this variant]**:" in book
    assert "[new in this variant]" not in rulebook("games/trolley_car.rules")


def test_explain_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    out = runner.invoke(main, ["explain", "tests/data/one_lead.rules"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("# One lead change: the rules")
    page = tmp_path / "book.html"
    out = runner.invoke(main, ["explain", "tests/data/one_lead.rules", "--format", "html", "-o", str(page)])
    assert out.exit_code == 0 and "<h1>One lead change: the rules</h1>" in page.read_text()
    broken = tmp_path / "broken.rules"
    broken.write_text('game "B"\nplayers 2..2\nflow { put nowhere into hand }\n')
    out = runner.invoke(main, ["explain", str(broken)])
    assert out.exit_code == 1
    assert runner.invoke(main, ["explain", str(tmp_path / "missing.rules")]).exit_code == 2


def test_html_page():
    assert "<h1>T</h1>" in to_html("# T\n", "t")


def test_tramwaje_reads_as_a_rulebook(monkeypatch):
    """The gaps a reader found (docs/games/tramwaje.md): bookkeeping, the rule for a line, the end, who starts."""
    monkeypatch.chdir(ROOT)
    book = rulebook("games/tramwaje.rules")
    win = book[book.index("## How to win"):book.index("## Components")]
    assert "The founder of the first complete company wins" in win  # the designer's comment on the winner
    assert ("- as soon as founded becomes true (A company has been founded: its founder has won, and no more "
            "actions are taken), which happens as soon as, for a player p, not founded and *company* (p) (the rule "
            "*found*, below). The turn stops there:") in win
    assert "at the end of the turn in which one of these" not in win and "cut short" not in win
    assert "- *company* (p): see *How to win* (above)." in book
    assert "40000" not in win and "40000 decisions" in book[book.index("## For the computer referee"):]
    assert "(*president* (p): A president: a King in the player's hand." in win  # what company reads, in words
    assert "`max_rounds` × the number of players" in win
    assert "- Player 0 (the first seat) has the first turn" in book
    # bookkeeping: its steps are left out of the rules and listed in the appendix
    assert "Set founder to p." not in book and "Set rank of" not in book
    play = book[:book.index("## Appendix")]
    assert "| founder |" not in play and "| founder | the table |" in book
    # a move's bound (once per v per turn) is a rule, in words, and keeps no mark of its own
    assert "and you have not yet made it with this v this turn:" in play and "uses" not in book
    assert "line's rank" not in book  # a mark no rule reads (scenarios do) is no bookkeeping for players
    assert "| moves played |" in play  # a shown counter stays with the components
    # the rule for a line, in the designer's words where the move is
    lay = book[book.index("- **lay**"):book.index("- **add driver**")]
    assert "such that *is line* (cs) and *can become line* (you, cs)." in lay  # the card-by-card check is a rule
    assert "(*is line* (cs): The set is the size of a line" in lay and "(*can become line* (p, cs): The cards" in lay
    assert "four trams of one rank from 2 to 10, or three of them and one pair of wild cards" in lay
    assert "two and four" not in book and "tram of one line" not in book
    assert "some r in 2 to 10" not in book  # the formula is the rules file's
    assert "if (c is not a joker card and c's rank is 11 or 12) and not *complete* (you, i)" in book
    # the offers window runs after the move that ends the turn too
    turn = book[book.index("### *take turn*"):book.index("### *start of move*")]
    assert "  - After each **action**, whichever move was made (**end move** too):\n    - If not founded:" in turn
    assert "*When:* in *take turn*, after each **action** (**end move** included), if not founded." in book
    # the score decides nothing the founding does not: no score section
    assert "**Score**" not in book and "progress" not in book and "329" not in book
    assert book.rstrip().splitlines()[-3] == "## For the computer referee"
    # procedures in the order play reaches them
    assert book.index("### *take turn*") < book.index("### *start of move*") < book.index("### *attack*")


def test_who_starts_and_the_end_from_any_flow(monkeypatch):
    monkeypatch.chdir(ROOT)
    trolley = rulebook("games/trolley_car.rules")
    assert "- The player after the dealer has the first turn" in trolley
    assert "  - After each round: set the dealer to the player after the dealer." in trolley
    assert "- after a number of rounds: 1 if `single_round`, else the number of players;" in trolley
    trambahn = rulebook("games/trambahn.rules")
    assert "- at once, in *draw up*, as soon as the draw pile is empty;" in trambahn
    assert "- at once, by the rule *scoring* (below), as soon as" in trambahn
    uno = rulebook("games/uno.rules")
    assert "- when *hand over*;" in uno
    assert "*WILD FOUR*" in uno and "(*WILD FOUR*: 14.)" not in uno  # a named constant keeps its name


def test_terms_and_bookkeeping_on_a_small_game(tmp_path):
    rules = tmp_path / "small.rules"
    rules.write_text(
        'game "Small"\nplayers 2..2\n'
        "var tries[player]: int unshown = 0\n"
        "var points[player]: int = 0\n"
        "# a big gain: more than two points at once\n"
        "define big(n) = n > 2\n"
        "define twice(n) = 2 * n\n"
        "flow {\n  turns from 1 until points[0] >= 5 {\n"
        "    choose turn by current {\n"
        "      move gain(n in 1..3) where big(twice(n)) { points[current] += n  tries[current] += 1 }\n"
        "    }\n  }\n}\n"
        "winner(p): highest points[p]\n")
    book = rulebook(str(rules))
    # a decision with one move is a step; a short define written out, a commented one explained there
    assert "- You choose n from 1 to 3 such that *big* (2 × n):" in book  # no move name: nothing else names it
    assert "  - (*big* (n): a big gain: more than two points at once)" in book
    assert "tries" not in book and "## Appendix: bookkeeping" not in book  # set, never read
    assert "- Player 1 (the first seat) has the first turn" in book
    assert "- at the end of the turn in which player 0's points reaches 5;" in book


TINY = """game "Tiny"
players 2..3
limit 500 moves
param rounds = 3 in 1..9 "rounds to play"
enum amount { small, big, huge }
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
zone pot: row public
# the game is won
var done_flag: bool unshown = false
var champ: player unshown = 0  # the player who won
var hit[player]: bool unshown = false  # hit this turn
var turns_played: int = 0
# how many cards an amount takes
define takes(z) = if z == huge then 3 else if z == big then 2 else 1
trigger win for p in players when not done_flag and size(hand[p]) >= 12 {
  done_flag = true
  champ = p
}
procedure grab(z) {
  if z == small { put top(deck) into hand[current] }
  else if z == big { repeat min(2, size(deck)) times { put top(deck) into hand[current] } }
  else { put top(deck) into pot }
}
procedure answers() {
  respond claims by b in players where b != current {
    move claim where not empty(pot) { put top(pot) into hand[b] }
  }
}
procedure turn() {
  for p in players { hit[p] = false }
  let going = true
  let acts = 0
  while going and not done_flag and acts < 4 {
    acts += 1
    choose act by current {
      move take(z in amount) where takes(z) <= size(deck) { grab(z) }
      move poke(v in players) where v != current and not hit[v] { hit[v] = true }
      move stop { going = false }
    }
    if not done_flag { answers() }
  }
  choose discard by current {
    # give a card to the pot
    move drop(c in hand[current]) { put c into pot }
  }
}
flow {
  shuffle deck
  turns from 0 until done_flag or turns_played >= rounds * count(each p in players) {
    turn()
    turns_played += 1
  }
}
define score(p) = SCORE
winner(p) when done_flag: highest score(p)
"""


def _tiny(tmp_path, score="if done_flag and champ == p then 100 else size(hand[p])"):
    rules = tmp_path / "tiny.rules"
    rules.write_text(TINY.replace("SCORE", score))
    return rulebook(str(rules))


def test_an_enum_chain_is_a_table_and_an_if_on_its_values_one_entry_each(tmp_path):
    book = _tiny(tmp_path)
    assert "| amount | takes (z) |\n|---|---|\n| small | 1 |\n| big | 2 |\n| huge | 3 |" in book
    assert "- *takes*: how many cards an amount takes" in book  # under the table, not the if-else chain
    assert "(*takes* (z)" not in book and "- *takes* (z)" not in book  # and nowhere else
    grab = book[book.index("### *grab*"):book.index("### *answers*")]
    assert "- Then, according to z (an amount):" in grab
    assert grab.index("**Small**:") < grab.index("**Big**:") < grab.index("**Huge**:")
    assert "Repeat up to 2 times (no more than the number of cards in the deck):" in grab
    assert "the smaller of" not in grab and "Do this" not in grab


def test_a_loop_of_actions_reads_as_repeat_until_a_move(tmp_path):
    book = _tiny(tmp_path)
    assert ("- Repeat the following until the move **stop** has been chosen (at most 4 times, and only as long as "
            "not done flag):" in book)
    assert "Let going" not in book and "Let acts" not in book and "Add 1 to acts" not in book
    assert ("    - **stop**:\n      - This is the last time: what comes after the decision (below) still happens "
            "once more, and then the repeating stops.") in book
    assert "  - After each **act**, whichever move was made (**stop** too):\n    - If not done flag:" in book
    assert "- Follow *grab* (below), with z." in book and "Do *" not in book


def test_a_window_says_when_it_opens_and_what_passing_does(tmp_path):
    book = _tiny(tmp_path)
    assert "*When:* in *turn*, after each **act** (**stop** included), if not done flag." in book
    assert "*When:* in *turn*, in the move **take**." in book  # grab
    assert "A round of answers (**claims**) opens: starting with the player after you" in book
    assert "  - **pass**: nothing happens now; a player who passed is asked again" in book


def test_the_end_is_said_once_and_program_limits_apart(tmp_path):
    book = _tiny(tmp_path)
    win = book[book.index("## How to win"):book.index("## Components")]
    assert ("- as soon as done flag becomes true (the game is won), which happens as soon as, for a player p, not "
            "done flag and the number of cards in p's hand is at least 12 (the rule *win*, below). The turn stops "
            "there: the step under way is finished, the steps of *turn* done only while not done flag are left out, "
            "and the game ends;") in win
    assert "- at the end of the turn in which the turns played reaches `rounds` × the number of players;" in win
    assert "one of these is true" not in win  # the two ends happen at different times: said apart
    assert "500" not in win and "--set" not in book[:book.index("## For the computer referee")]
    assert "stops a game with no winner after 500 decisions" in book[book.index("## For the computer referee"):]
    assert "The rules do not say who sits in seat 0" in book


def test_a_score_only_one_player_can_top_is_no_tiebreak(tmp_path):
    book = _tiny(tmp_path)
    assert "When done flag, the champ wins. Otherwise the game ends with no winner." in book
    assert "**Score**" not in book and "at most 52" not in book  # a score that decides nothing is not said
    assert "tied share the win" not in book
    # a hand of 52 cards can reach 40: the score may decide, so it stays a ranking
    close = _tiny(tmp_path, "if done_flag and champ == p then 40 else size(hand[p])")
    assert "the player with the highest *score* (p) wins; players still tied share the win" in close


def test_when_marks_change_is_in_the_appendix_and_where_they_are_read(tmp_path):
    book = _tiny(tmp_path)
    assert ("| hit | each player | yes or no | false | everybody | hit this turn | back to false at the start of each "
            "*turn*; becomes true in the move **poke** of *turn* |") in book
    assert ("(hit: hit this turn; back to false at the start of each *turn*; becomes true in the move **poke** of "
            "*turn*)") in book
    # champ is read only under done_flag, raised only where champ is set: its start value is never seen
    assert ("| champ | the table | a player | - (set before it is needed) | everybody | the player who won | set in "
            "the rule *win* to p |") in book


SWAP = """game "Swap"
players 2..3
include "standard.rules"
cards standard52 in deck
enum mood { calm, cross }
zone deck: pile hidden
zone hand[player]: row owner
zone offer[player]: row public
zone set[player, *]: row public max_members(13)
var asked[player, player]: bool unshown = false  # asked (a, b): a asked b this turn
var last_mood: mood
define pairs(cs) = count(each c in cs) == 2
# the cards chosen so far are of one rank
define one_rank(cs) = all(each c in cs where all(each d in cs where d.rank == c.rank))
procedure turn() {
  for a in players { for b in players { asked[a, b] = false } }
  # Unsold cards go back: as many new ones come.
  let back = size(offer[current])
  put offer[current] under deck
  deal back from deck into hand[current]
  choose act by current {
    move meld(cs subset of hand[current] while one_rank(cs)) where pairs(cs) {
      new set[current] as i
      for c in cs { put c into set[current, i] }
    }
    move unmeld(i in members(set[current])) {
      put set[current, i] into hand[current]
      remove set[current, i]
    }
    move ask(v in players) where v != current and not asked[current, v] {
      asked[current, v] = true
      let refused = false
      choose reply by v {
        move give(c in hand[v]) { put c into hand[current] }
        move refuse { refused = true }
      }
      if refused {
        last_mood = cross
        reveal hand[v] to current {
          choose grab by current {
            move take(c in hand[v]) { put c into hand[current] }
          }
        }
      } else {
        last_mood = calm
      }
    }
  }
}
flow {
  shuffle deck
  for p in players { deal 5 from deck into hand[p] }
  turns from 0 until empty(deck) {
    turn()
  }
}
winner(p): highest size(hand[p])
"""


def _swap(tmp_path):
    rules = tmp_path / "swap.rules"
    rules.write_text(SWAP)
    return rulebook(str(rules))


def test_you_for_the_current_player_and_a_decision_of_one_move_as_a_sentence(tmp_path):
    book = _swap(tmp_path)
    assert "In these rules, *you* are the player whose turn it is." in book
    assert "the current player" not in book
    assert "- You decide (**act**), one of:" in book
    assert "        - You choose c from v's hand:\n          - Put c into your hand" in book  # no "in the move take"
    assert "in the move **take**" not in book and "in the move **grab**" not in book


def test_a_flag_set_by_one_decision_reads_as_the_move_chosen(tmp_path):
    book = _swap(tmp_path)
    assert "    - If player v chose **refuse**:" in book
    assert "      - **refuse**: nothing happens." in book
    assert "refused" not in book


def test_counted_cards_put_back_and_dealt_again_are_one_step_with_its_comment(tmp_path):
    book = _swap(tmp_path)
    assert ("- *Unsold cards go back: as many new ones come.*\n- Put all the cards of your offer at the bottom of "
            "the deck, then deal as many cards from the deck into your hand.") in book
    assert "Work out" not in book and "call it back" not in book and "Deal back" not in book


def test_who_sees_a_card_passed_between_two_players_and_a_shown_zone(tmp_path):
    book = _swap(tmp_path)
    give = book[book.index("**give**"):book.index("**refuse**")]
    assert "Put c into your hand (only v and you see it; the others do not)." in give
    assert "- You are shown the cards of v's hand (the others are not), and then:" in book
    assert "| hand | each player | a row | only its owner sees its cards; shown to a player in *turn* |" in book


def test_a_set_of_cards_says_the_condition_it_keeps_and_members_open_and_close_in_words(tmp_path):
    book = _swap(tmp_path)
    assert "Choose a set of cards cs from your hand such that the number of c in cs is 2 and *one rank* (cs)." in book
    assert "- Start a new set of yours: call it set i." in book
    assert "- Your set i is no longer one of your sets." in book


def test_marks_of_a_pair_of_players_and_an_enum_counter(tmp_path):
    book = _swap(tmp_path)
    assert "| asked | each pair of players | yes or no | false |" in book
    assert "| last mood | the table | one of: calm, cross | none | everybody |" in book
    lines = book.rstrip().splitlines()
    assert lines[-3] == "## For the computer referee" and "--set" not in book  # no parameters


SHARED = """game "Shared"
players 2..2
limit 200 moves
include "standard.rules"
cards standard52 in deck
zone deck: pile hidden
zone hand[player]: row owner
zone pot: row public
define red_count(p) = count(each c in hand[p] where c.suit in {hearts, diamonds} and c.rank > 1 and c.rank < 13)
# a hand is rich: many red cards
define rich(p) = red_count(p) >= 3 and size(hand[p]) > 2 and size(hand[p]) < 40 and size(pot) < 40
# the pot is big: more than the hands of both players together, give or take
define big_pot = size(pot) > size(hand[0]) + size(hand[1]) and size(pot) > 5 and size(pot) < 50
procedure give() {
  if rich(current) and not big_pot { put top(hand[current]) into pot }
}
procedure take() {
  if rich(current) { put top(pot) into hand[current] }
}
flow {
  shuffle deck
  for p in players { deal 5 from deck into hand[p] }
  turns from 0 until empty(deck) {
    give()
    take()
    put top(deck) into hand[current]
  }
}
"""


def test_each_term_is_explained_once(tmp_path):
    rules = tmp_path / "shared.rules"
    rules.write_text(SHARED)
    book = rulebook(str(rules))
    terms = book[book.index("## Appendix: terms"):]
    # used in two parts: explained in the appendix only, named where it is used
    assert "- *rich* (p): a hand is rich: many red cards" in terms
    assert book.count("many red cards") == 1
    # used in one part: explained there only
    give = book[book.index("### *give*"):book.index("### *take*")]
    assert "(*big pot*: the pot is big" in give and "*big pot*" not in terms and book.count("the pot is big") == 1
    # read only by a formula the rules file keeps (rich has a comment): no term of the rulebook
    assert "red count" not in book
