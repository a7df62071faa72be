"""Picking, ordering and seats: `best ... by`, keys, `first`/`sorted`/`list`, `leave`/`rejoin`,
`break`/`continue`, `for ... where`, `random` over any domain, and `card + card`."""

import textwrap

import pytest
from rules_text import diagnostics

import ruledsl
from ruledsl import RulesError

HEAD = textwrap.dedent("""\
    game "Picks"
    players 2..4
    limit 100 moves
    enum suit { clubs, hearts }
    kind card { suit: suit  rank: 1..5  show "{rank}{suit}" }
    cards card(suit: each, rank: each) in deck
    zone deck: pile hidden
    zone hand[player]: row public
    zone out: pile public
    var n[player]: int = 0
    var who: player
    var other: player
    var picked: card
    var total: int = 0
    """)


def game(body: str, extra: str = ""):
    return ruledsl.loads(HEAD + textwrap.dedent(extra) + "flow {\n" + textwrap.dedent(body) + "\n"
                         "choose wait by 0 { move done { end game } } }\n", "picks.rules")


def run(body: str, extra: str = "", players: int = 3, seed: int = 1):
    return game(body, extra).new_game(players, seed)


def errors(text: str) -> list:
    return diagnostics(text, before=HEAD, name="picks.rules")


def label(s, c):
    return s.card_label(c)


# ---- best ... by


def test_best_picks_the_highest_key_and_the_first_on_a_tie():
    s = run("""
        n[0] = 4
        n[1] = 5
        n[2] = 5
        who = best p in players by n[p]
        picked = best c in deck by c.rank
    """)
    assert s.get_var("who") == 1
    deck = s.zones[s.program.zone_families["deck"][0]]
    fives = [c for c in deck if s.program.card_attrs["rank"][c] == 5]
    assert len(fives) == 2 and s.get_var("picked") == fives[0]  # the one nearer the bottom


def test_best_ties_go_to_the_first_in_the_walk_from_the_given_player():
    s = run("""
        for p in players { n[p] = 1 }
        who = best p in players from 2 by n[p]
    """)
    assert s.get_var("who") == 2


def test_best_by_lowest_and_with_where():
    s = run("""
        picked = best c in deck where c.suit == hearts by lowest c.rank
    """)
    assert label(s, s.get_var("picked")) == "1hearts"


def test_best_of_nothing_is_none():
    s = run("""
        picked = best c in deck where c.rank > 9 by c.rank
        if picked == none { total = 7 }
    """)
    assert s.get_var("total") == 7


def test_a_key_of_several_parts_compares_the_first_part_first():
    s = run("""
        let lead = hearts
        picked = best c in deck by (c.suit == lead, c.rank)
        if (1, 5) < (2, 0) and (1, 2) < (1, 2, 0) and (true, 1) > (false, 9) { total = 1 }
    """)
    assert label(s, s.get_var("picked")) == "5hearts"
    assert s.get_var("total") == 1


def test_sorted_orders_cards_by_a_key_and_keeps_ties_in_place():
    s = run("""
        put sorted(each c in deck by highest (c.rank % 2, c.rank)) into out
    """)
    cards = [label(s, c) for c in s.zones[s.program.zone_families["out"][0]]]
    assert cards == ["5clubs", "5hearts", "3clubs", "3hearts", "1clubs", "1hearts",
                     "4clubs", "4hearts", "2clubs", "2hearts"]


def test_list_makes_a_key_from_a_domain():
    s = run("""
        deal 3 from deck into hand[0]
        deal 3 from deck into hand[1]
        let a = list(c.rank for each c in sorted(each c in hand[0] by highest c.rank))
        let b = list(c.rank for each c in sorted(each c in hand[1] by highest c.rank))
        if a > b { who = 0 } else { who = 1 }
    """, seed=5)
    ranks = [sorted((s.program.card_attrs["rank"][c] for c in s.zones[s.program.zone_families["hand"][0] + p]),
                    reverse=True) for p in (0, 1)]
    assert s.get_var("who") == (0 if ranks[0] > ranks[1] else 1)


def test_winner_ranks_by_a_key():
    g = game("""
        n[1] = 3
        n[2] = 3
        leave 1
    """, "winner(p): highest (p in players, n[p])\n")
    s = g.new_game(3, 1)
    s.apply("done")
    assert s.winners == [2]


def test_key_errors_name_the_problem():
    diags = errors("""
        flow {
          who = best p in players by hand[p]
          if (1, 2) < 3 { total = 1 }
          let k = sorted(each p in players by n[p])
        }
    """)
    text = "\\n".join(d.message for d in diags)
    assert "the key of `best` should be a number, true/false or a key" in text
    assert "'<' compares a key with a key" in text
    assert "`sorted` gives cards; this domain holds a player" in text


# ---- first, random over any domain, card + card


def test_first_finds_the_next_player_who_meets_a_condition():
    s = run("""
        n[0] = 1
        n[3] = 1
        who = first(each q in players from next(0) where n[q] > 0)
    """, players=4)
    assert s.get_var("who") == 3


def test_random_picks_a_player_and_a_number_with_the_games_generator():
    g = game("""
        who = random(players)
        total = random(each k in 1..6)
        other = random(each p in players where p != who)
    """)
    seen = set()
    for seed in range(12):
        s = g.new_game(3, seed)
        again = g.new_game(3, seed)
        values = [s.get_var(v) for v in ("who", "total", "other")]
        assert values == [again.get_var(v) for v in ("who", "total", "other")]
        assert 1 <= values[1] <= 6 and values[2] != values[0]
        seen.add(values[0])
    assert seen == {0, 1, 2}


def test_two_single_cards_make_a_list():
    s = run("""
        put top(deck) + bottom(deck) into out
    """)
    assert [label(s, c) for c in s.zones[s.program.zone_families["out"][0]]] == ["5hearts", "1clubs"]


def test_random_in_a_define_is_refused():
    diags = errors("""
        define pick = random(players)
        flow { }
    """)
    assert any("`random`" in d.message and d.code == "E206" for d in diags)


# ---- leave and rejoin


def test_players_who_left_are_skipped_by_players_next_for_and_turns():
    g = game("""
        leave 1
        for p in players { n[p] += 1 }
        for p in players from 1 {
          if total == 0 { who = p }
          total += 1
        }
        turns from 0 until n[0] > 2 {
          n[current] += 1
        }
    """)
    s = g.new_game(4, 1)
    assert [s.get_var(f"n[{p}]") for p in range(4)] == [3, 0, 2, 2]
    assert s.get_var("total") == 3 and s.get_var("who") == 2  # the walk from seat 1, who left, starts at 2
    assert g.new_game(4, 1).get_var("who") == 2
    assert s.get_var("who") == s.view(0)["vars"]["who"]
    assert not any(name.startswith("#") for name in s.view(0)["vars"])


def test_seats_are_every_seat_those_who_left_too():
    g = game("""
        leave 1
        for p in seats { n[p] += 1 }
        total = count(each p in seats) * 10 + count(each p in players)
        who = first(each q in seats from 1 where n[q] > 0)
        for p in seats from 3 { if n[0] < 5 { n[0] += 1 } }
    """)
    s = g.new_game(4, 1)
    assert [s.get_var(f"n[{p}]") for p in range(4)] == [5, 1, 1, 1]  # seat 1 left, and is counted
    assert s.get_var("total") == 43
    assert s.get_var("who") == 1  # the walk over seats starts at seat 1 even though it left
    assert 1 not in [p for p in range(4) if s.get_var(f"n[{p}]") == 0]


def test_seats_is_a_name_of_the_language():
    (d,) = errors("var seats: int = 0\nflow { }\n")
    assert d.code == "E204" and d.message == "`seats` is already a name of the language; choose another name"


def test_rejoin_brings_a_player_back_and_saves_carry_who_is_out():
    g = game("""
        leave 0
        leave 2
        rejoin 0
        total = count(each p in players)
    """)
    s = g.new_game(3, 1)
    assert s.get_var("total") == 2
    loaded = g.state_from_json(s.to_json())
    assert loaded == s
    assert loaded.clone() == s


def test_next_of_a_player_who_left_is_the_first_player_after_their_seat_still_in():
    """docs/language.md 4.17: `next(p)` and `previous(p)` of a `p` who left walk on from p's seat."""
    s = run("""
        leave 1
        leave 2
        who = next(1)
        other = previous(2)
        if next(2) == 3 and previous(1) == 0 { total = 1 }
    """, players=4)
    assert (s.get_var("who"), s.get_var("other"), s.get_var("total")) == (3, 0, 1)
    alone = run("""
        leave 1
        leave 2
        leave 3
        who = next(0)
        other = previous(2)
    """, players=4)
    assert (alone.get_var("who"), alone.get_var("other")) == (0, 0)  # the last player still in is their own next


def test_next_with_nobody_left_is_a_runtime_finding():
    g = game("""
        for p in players { leave p }
        who = next(0)
    """)
    with pytest.raises(ruledsl.RulesRuntimeError) as info:
        g.new_game(2, 1)
    assert "no player is left" in str(info.value)


def test_games_without_leave_have_no_hidden_seat_flags():
    assert "#out[0]" not in game("total = 1").program.var_names
    assert "#out[0]" in game("leave 0").program.var_names


# ---- loops


def test_break_and_continue_in_every_kind_of_loop():
    s = run("""
        for c in deck {
          if c.rank == 2 { continue }
          if c.rank == 4 { break }
          total += c.rank          # 1 + 3
        }
        repeat 5 times {
          n[0] += 1
          if n[0] == 2 { break }
        }
        while true {
          n[1] += 1
          if n[1] < 3 { continue }
          break
        }
        turns from 0 until false {
          n[2] += 1
          if current == 1 { break }
        }
    """)
    assert s.get_var("total") == 4
    assert [s.get_var(f"n[{p}]") for p in range(3)] == [2, 3, 2]  # turns: players 0 and 1


def test_for_where_is_tested_when_the_value_comes():
    s = run("""
        for p in players where n[p] == 0 {
          n[p] = 1
          n[2] = 5       # player 2's turn is skipped: the condition is tested then
        }
    """)
    assert [s.get_var(f"n[{p}]") for p in range(3)] == [1, 1, 5]


def test_break_outside_a_loop_is_an_error_with_its_position():
    diags = errors("""
        procedure p() { break }
        flow {
          continue
          for q in players { reveal hand[q] to q { break } }
          repeat 2 times { at once { break } }
          for q in players { break }
        }
    """)
    assert [(d.code, d.line) for d in diags] == [("E206", 16), ("E206", 18), ("E206", 19), ("E206", 20)]
    assert "`continue` is not inside a loop" in diags[1].message


# ---- moving many zones at once; burying a card


def test_put_each_passes_every_hand_to_the_next_player_at_once():
    g = game("""
        for p in players { deal 2 from deck into hand[p] }
        put each hand[p] into hand[next(p)] for p in players
    """)
    s = g.new_game(3, 1)
    hands = [s.program.zone_families["hand"][0] + p for p in range(3)]
    before = ruledsl.loads(HEAD + "flow { for p in players { deal 2 from deck into hand[p] }\n"
                           "choose wait by 0 { move done { end game } } }\n").new_game(3, 1)
    assert [s.zones[hands[(p + 1) % 3]] for p in range(3)] == [before.zones[h] for h in hands]
    assert all(s.loc[c] == hands[(p + 1) % 3] for p in range(3) for c in s.zones[hands[(p + 1) % 3]])
    assert all(len(where) == 1 for where in s.card_locations().values())


def test_put_each_skips_players_who_left_and_joins_zones_that_meet():
    s = run("""
        for p in players { deal 1 from deck into hand[p] }
        leave 1
        put each hand[p] into out for p in players
    """)
    out = s.zones[s.program.zone_families["out"][0]]
    hands = [s.zones[s.program.zone_families["hand"][0] + p] for p in range(3)]
    assert len(out) == 2 and len(hands[1]) == 1 and not hands[0] and not hands[2]


def test_at_random_buries_a_card_at_a_depth_drawn_by_the_generator():
    g = game("""
        put bottom(deck) into out
        put top(out) into deck at random
    """)
    depths = set()
    for seed in range(20):
        s = g.new_game(2, seed)
        deck = s.zones[s.program.zone_families["deck"][0]]
        assert len(deck) == 10 and sorted(deck) == list(range(10))
        depths.add(deck.index(0))  # card 0 was the bottom card
        assert g.new_game(2, seed).zones == s.zones  # the same seed buries it at the same depth
    assert len(depths) > 3


def test_put_each_and_at_random_errors():
    diags = errors("""
        zone line: track(4) public
        flow {
          put each line into hand[p] for p in players
          put top(deck) into line at random
          put top(deck) into out at 2
        }
    """)
    messages = [d.message for d in diags]
    assert any("`put each` moves piles and rows, not tracks" in m for m in messages)
    assert any("`at random` buries a card in a pile or row" in m for m in messages)
    assert any("only a track has slots" in m and "at random" in (d.hint or "") for m, d in zip(messages, diags))


# ---- messages that used to mislead


def syntax(text: str):
    with pytest.raises(RulesError) as info:
        ruledsl.loads(text, "m.rules")
    [d] = info.value.diagnostics
    return d


def test_a_single_player_count_is_reported_at_its_own_line():
    d = syntax('game "x"\nplayers 3\n\nflow { }\n')
    assert (d.line, d.column) == (2, 9)
    assert d.message == "`players` takes a range of player counts, not one number"
    assert d.hint == "write `players 3..3` for exactly 3 players"


def test_a_misspelled_keyword_gets_a_did_you_mean():
    d = syntax('game "x"\nflwo { }\n')
    assert (d.line, d.hint) == (2, "did you mean `flow`?")


def test_chained_comparisons_say_that_they_do_not_chain():
    d = syntax('game "x"\nflow { if 1 < 2 < 3 { } }\n')
    assert d.hint == "comparisons do not chain: write `a < b and b < c`"


def test_max_is_not_said_to_add_up():
    diags = errors("flow { total = max(hand[p] for each p in players) }\n")
    assert any("what `max` compares" in d.message for d in diags)
    assert not any("add" in d.message for d in diags)


# ---- values and cards that belong to a card


WASABI = textwrap.dedent("""\
    game "Wasabi"
    players 2..2
    kind sushi { value: 0..3  show "S{value}" }
    kind wasabi { value: 0..3 = 0  show "W" }
    cards 2 * sushi(value: each) + wasabi() in deck
    zone deck: pile hidden
    zone table[player]: row public
    zone on[card]: pile public          # a nigiri placed on a wasabi is kept with it
    var used[card]: bool = false
    var total: int = 0
    flow {
      put cards(each c in deck where c.kind == wasabi) into table[0]
      let w = top(table[0])
      let nigiri = best c in deck where c.kind == sushi by c.value
      put nigiri into on[w]
      used[w] = true
      total = 3 * top(on[w]).value + count(each c in table[0] where used[c])
      choose x by 0 { move done { end game } }
    }
    """)


def test_a_card_can_index_a_variable_and_a_zone():
    g = ruledsl.loads(WASABI, "wasabi.rules")
    s = g.new_game(2, 1)
    assert s.get_var("total") == 3 * 3 + 1
    assert s.view(1)["zones"]["on[W]"] == ["S3"]
    assert s.get_var("used[W]") is True
    assert s.get_var("used[S3 #3]") is False  # copies of a card are told apart by their id
    assert g.state_from_json(s.to_json()) == s


def test_a_card_index_must_be_a_card():
    diags = errors("""
        var used[card]: bool = false
        flow { used[1] = true }
    """)
    assert any(d.code == "E202" and "the index of `used`" in d.message for d in diags)


# ---- setup: triggers wait until the deal is done


TRIGGER = """
trigger refill for p in players when size(hand[p]) == 1 and n[p] == 0 { n[p] = 1 }
"""


def test_triggers_fire_during_a_deal_but_not_inside_setup():
    deal = "repeat 2 times { for p in players { deal 1 from deck into hand[p] } }"
    plain = run(deal, TRIGGER)
    quiet = run("setup { " + deal + " }", TRIGGER)
    assert [plain.get_var(f"n[{p}]") for p in range(3)] == [1, 1, 1]
    assert [quiet.get_var(f"n[{p}]") for p in range(3)] == [0, 0, 0]


def test_triggers_are_checked_when_setup_ends_and_setup_may_ask_players():
    g = game("""
        setup {
          deal 1 from deck into hand[0]
          choose keep by 0 { move yes { total = 1 } move no { deal 1 from deck into hand[0] } }
        }
        deal 1 from deck into hand[1]
    """, TRIGGER)
    s = g.new_game(2, 1)
    s.apply("yes")
    assert s.get_var("n[0]") == 1 and s.get_var("n[1]") == 1  # player 0's after the block, 1's at once
    s = g.new_game(2, 1)
    s.apply("no")
    assert s.get_var("n[0]") == 0  # two cards by the end of setup: the condition never held outside it


def test_at_once_with_a_decision_points_to_setup():
    diags = errors("""
        flow { at once { choose x by 0 { move a { } } } }
    """)
    assert any("use `setup { ... }`" in (d.hint or "") for d in diags)


# ---- a house that is not a seat (the example of docs/language.md 11.8)


def test_the_house_example_of_the_docs_runs_for_one_player():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    example = text.split("### 11.8 A dealer or house", 1)[1].split("```rules\n", 1)[1].split("```", 1)[0]
    g = ruledsl.loads(example, "house.rules")
    outcomes = set()
    for seed in range(15):
        s = g.new_game(1, seed)
        while not s.is_over:
            s.apply("stand")
        house = [s.program.card_attrs["rank"][c] for c in s.zones[s.program.zone_families["house"][0]]]
        assert sum(min(r, 10) for r in house) >= 17  # the house drew to 17 by its fixed rule
        outcomes.add(s.scores[0])
    assert outcomes == {0, 1}


def test_views_say_who_has_left():
    s = run("leave 2")
    assert s.view(0)["left"] == [2] and s.players_left() == [2]
    assert "left" not in run("total = 1").view(0)


def test_a_bad_parameter_used_as_several_index_sizes_is_reported_once():
    diags = errors("""
        var seen[player, 1..size_of_hand]: bool = false
        zone row[1..size_of_hand]: row public
        param size_of_hand = hand_size + nothing
        param hand_size = 3
        flow { }
    """)
    assert [(d.code, d.line, d.column) for d in diags] == [("E213", 18, 34)]
    assert diags[0].hint == "`nothing` is not a parameter"


def test_a_poker_like_key_ranks_a_pair_above_high_cards_then_by_its_ranks():
    extra = """
    define same(c, h) = count(each d in h where d.rank == c.rank)
    define hand_key(h) = (max(same(c, h) for each c in h),
                          list(c.rank for each c in sorted(each c in h by highest (same(c, h), c.rank))))
    """
    s = run("""
        put cards(each c in deck where c.rank == 2) into hand[0]
        put cards(each c in deck where c.rank == 5 and c.suit == clubs) into hand[0]
        put cards(each c in deck where c.rank > 2 and c.suit == hearts) into hand[1]
        put cards(each c in deck where c.rank == 1) into hand[2]
        put cards(each c in deck where c.rank == 4 and c.suit == clubs) into hand[2]
        who = best p in players by hand_key(hand[p])
        let k = hand_key(hand[2])
        if k > hand_key(hand[1]) and k < hand_key(hand[0]) { total = 1 }
    """, extra)
    assert s.get_var("who") == 0     # 2 2 5 beats 5 4 3 and 1 1 4 (pairs first, then the pair's rank)
    assert s.get_var("total") == 1   # 1 1 4 sits between them


def test_an_enum_value_in_a_key_counts_by_its_place_in_the_enum():
    s = run("""
        put sorted(each c in deck where c.rank < 3 by highest (c.suit, c.rank)) into out
    """)
    assert [label(s, c) for c in s.zones[s.program.zone_families["out"][0]]] == \
        ["2hearts", "1hearts", "2clubs", "1clubs"]


def test_max_of_players_points_to_best():
    diags = errors("flow { who = max(p for each p in players where n[p] > 0) }\n")
    [d] = diags
    assert "to pick the player whose value is highest, use `best`" in d.message
    assert d.hint == "write best p in ... by VALUE"
