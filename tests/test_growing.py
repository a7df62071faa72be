"""Growing zone families (`zone meld[player, *]`), index ranges sized by constants, and `c has attr`
with the checker's guard for attributes a card kind lacks."""

import json
import random
from pathlib import Path
import textwrap

import pytest
from rules_text import diagnostics

import ruledsl
from ruledsl import RulesRuntimeError, SaveError
from ruledsl.scenarios.runner import load_scenarios
from ruledsl.verify.checks import verify

ROOT = Path(__file__).resolve().parent.parent

MELDS = textwrap.dedent("""\
    game "Melds"
    players 2..3
    limit 200 moves
    param hand_size = 5
    param most = 4
    kind card { rank: 1..6  show "R{rank}" }
    kind wild { show "W" }
    cards 4 * card(rank: each) + 2 * wild in deck
    zone deck: pile hidden
    zone hand[player]: row owner
    var seen[player, 1..hand_size]: int = 0
    zone meld[player, *]: row public max_members(most) {
      zone pot: pile public
      var rank: int = 0
      var wilds: int
    }
    var big_melds: int = 0
    trigger grown for p in players
        when any(each i in members(meld[p]) where size(meld[p, i]) >= 3 and meld[p, i].wilds >= 0) {
      for i in members(meld[p]) {
        if size(meld[p, i]) >= 3 {
          meld[p, i].wilds = -1
          big_melds += 1
        }
      }
    }
    flow {
      shuffle deck
      for p in players { deal hand_size from deck into hand[p] }
      turns from 0 until empty(deck) {
        choose turn by current {
          move open(c in hand[current]) where c has rank and count(each i in members(meld[current])) < most {
            new meld[current] as i
            meld[current, i].rank = c.rank
            put c into meld[current, i]
          }
          move add(c in hand[current], i in members(meld[current]))
              where not (c has rank) or c.rank == meld[current, i].rank {
            put c into meld[current, i]
            if c.kind == wild { meld[current, i].wilds += 1 }
          }
          move drop(i in members(meld[current])) {
            put meld[current, i] into deck
            remove meld[current, i]
            shuffle deck
          }
          move pass {}
        }
        if not empty(deck) { put top(deck) into hand[current] }
      }
    }
    define score(p) = count(each i in members(meld[p]))
    invariant melds_hold_cards for p in players: all(each i in members(meld[p]) where not empty(meld[p, i]))
    """)


@pytest.fixture(scope="module")
def melds():
    return ruledsl.loads(MELDS, "melds.rules")


def errors(text: str, params=None) -> list:
    return diagnostics(text, name="m.rules", params=params)


def opened(game, player=0, seed=1):
    """A state in which `player` has opened one meld (with its first card)."""
    s = game.new_game(2, seed)
    if s.current_player != player:
        s.apply("pass")
    move = next(m for m in s.legal_moves() if m.name == "open")
    s.apply(move)
    return s


# ---- growing families: the engine


def test_new_opens_the_lowest_free_member_and_gives_its_values(melds):
    s = melds.new_game(2, seed=1)
    assert s.view(0)["zones"].get("meld[0, 1]") is None  # no member before `new`
    card = next(m for m in s.legal_moves() if m.name == "open").args[0]
    s.apply(f"open({card})")
    view = s.view(1)
    assert view["zones"]["meld[0, 1]"] == [s.card_label(card)]
    assert view["zones"]["meld[0, 1].pot"] == []
    assert view["vars"]["meld[0, 1].rank"] == melds.program.card_attrs["rank"][card]
    assert view["vars"]["meld[0, 1].wilds"] == 0  # an int without `= ...` starts at 0
    assert "meld[0, 2]" not in view["zones"] and "meld[0, 2].rank" not in view["vars"]
    assert not any(name.startswith("#") for name in view["vars"])


def test_remove_frees_the_number_for_the_next_new(melds):
    s = melds.new_game(2, seed=1)
    for player in (0, 1, 0):
        s.apply(next(m for m in s.legal_moves() if m.name == "open"))
    assert [m for m in s.legal_moves() if m.name == "drop"] == [ruledsl.Move("drop", (1,))]
    s.apply(ruledsl.Move("drop", (1,)))  # player 1 drops their only meld
    assert "meld[1, 1]" not in s.view(0)["zones"]
    assert "meld[1, 1].rank" not in s.view(0)["vars"]
    s.apply(next(m for m in s.legal_moves() if m.name == "open"))  # player 0's third meld
    assert "meld[0, 3]" in s.view(1)["zones"]
    s.apply(next(m for m in s.legal_moves() if m.name == "open"))  # player 1 gets number 1 again
    assert "meld[1, 1]" in s.view(0)["zones"]
    assert s.get_var("meld[1, 1].wilds") == 0


def test_members_iterate_only_what_exists_and_triggers_see_member_values(melds):
    s = melds.new_game(2, seed=5)
    r = random.Random(2)
    while not s.is_over:
        s.apply(r.choice(s.legal_moves()))
        for p in range(2):
            open_ = [k for k in range(1, 5) if f"meld[{p}, {k}]" in s.view(p)["zones"]]
            drops = sorted(m.args[0] for m in s.legal_moves() if m.name == "drop") if s.current_player == p else None
            if drops is not None:
                assert drops == open_
        assert s.broken_invariants() == []
        # every meld of three cards or more was counted by the trigger
        big = sum(1 for p in range(2) for k in range(1, 5)
                  if f"meld[{p}, {k}]" in s.view(p)["zones"] and s.get_var(f"meld[{p}, {k}].wilds") == -1)
        assert s.get_var("big_melds") >= big


def test_saved_cloned_and_replayed_states_carry_the_members(melds):
    s = opened(melds)
    r = random.Random(4)
    for _ in range(12):
        if s.is_over:
            break
        s.apply(r.choice(s.legal_moves()))
    again = melds.state_from_json(s.to_json())
    assert again == s and hash(again) == hash(s)
    assert again.view(0) == s.view(0)
    assert s.clone() == s
    assert melds.replay(2, 1, s.moves) == s


def test_a_save_with_cards_in_a_member_that_is_not_open_is_refused(melds):
    s = melds.new_game(2, seed=1)
    data = json.loads(s.to_json())
    zid = s.zone_id("meld[0, 3]")
    card = data["zones"][s.zone_id("deck")].pop()
    data["zones"][zid].append(card)
    with pytest.raises(SaveError, match=r"zone meld\[0, 3\] holds cards but is not open"):
        melds.state_from_json(json.dumps(data))


def test_the_position_editor_opens_members(melds):
    s = melds.new_game(2, seed=1)
    with pytest.raises(ruledsl.ParameterError, match="not open"):
        s.place("R3", "meld[1, 1]")
    assert s.new_member("meld[1]", rank=3) == 1
    assert s.new_member("meld[1]") == 2
    s.place("R3", "meld[1, 1]")
    assert s.cards_in("meld[1, 1]") == ["R3"] and s.get_var("meld[1, 1].rank") == 3
    with pytest.raises(ruledsl.ParameterError, match="no growing zone family"):
        s.new_member("hand[0]")


def test_reading_a_member_that_does_not_exist_is_a_runtime_error_at_the_rule():
    g = ruledsl.loads(textwrap.dedent("""\
        game "G"
        players 1..1
        kind k { n: 1..2 }
        cards k(n: each) in deck
        zone deck: pile hidden
        zone meld[player, *]: row public
        var pick: int = 2
        flow {
          new meld[0] as i
          put top(deck) into meld[0, pick]
        }
        """), "g.rules")
    with pytest.raises(RulesRuntimeError) as info:
        g.new_game(1)
    assert info.value.span.line == 10
    assert info.value.message == "meld[0] has no member 2 (members: 1)"


def test_growth_is_bounded_by_max_members():
    g = ruledsl.loads(textwrap.dedent("""\
        game "G"
        players 1..1
        zone meld[player, *]: row public max_members(3)
        flow { repeat 4 times { new meld[0] as i } }
        """), "g.rules")
    with pytest.raises(RulesRuntimeError, match=r"meld\[0\] already has 3 members, the most it may have") as info:
        g.new_game(1)
    assert info.value.span.line == 4


def test_a_member_that_holds_cards_cannot_be_removed():
    g = ruledsl.loads(textwrap.dedent("""\
        game "G"
        players 1..1
        kind k { n: 1..2 }
        cards k(n: each) in deck
        zone deck: pile hidden
        zone meld[*]: row public { zone pot: pile public }
        flow {
          new meld as i
          put top(deck) into meld[i].pot
          remove meld[i]
        }
        """), "g.rules")
    with pytest.raises(RulesRuntimeError, match=r"meld\[1\]\.pot still holds cards") as info:
        g.new_game(1)
    assert info.value.span.line == 10


def test_verify_passes_on_a_game_with_growing_families(melds):
    report = verify(melds, players=[2, 3], examples=4, seed=3)
    assert report.ok, report.failure


# ---- growing families: the checker


@pytest.mark.parametrize("body, code, message, hint", [
    ("flow { put top(deck) into meld[0, 0] }", "E215",
     "`meld` has members 1 to 32 at most, so member 0 never exists",
     "use the number `new meld[player] as i` gives, or `for i in members(meld[player])`"),
    ("flow { new hand[0] as i }", "E215", "`new` works on a growing zone family; `hand` has a fixed size",
     "declare it with a growing index: zone hand[..., *]"),
    ("flow { new meld[0, 1] as i }", "E205",
     "`new` picks the member's number itself; name only the family: meld[player]", None),
    ("flow { for i in members(meld[0]) { meld[0, i].size = 2 } }", "E201",
     "zone `meld` has no member `size` (members: pot, rank)", None),
    ("flow { for i in members(hand[0]) { } }", "E202",
     "`members(...)` takes a growing zone family, as in members(meld[p])", None),
    ("flow { remove meld[0] }", "E205", "`meld` needs 2 indexes, but 1 is given", "write meld[player, i]"),
])
def test_checker_errors_for_growing_families(body, code, message, hint):
    text = """\
        game "G"
        players 2..2
        kind k { n: 1..2 }
        cards k(n: each) in deck
        zone deck: pile hidden
        zone hand[player]: row owner
        zone meld[player, *]: row public {
          zone pot: pile public
          var rank: int = 0
        }
        """
    found = errors(text + body + "\n")
    assert [(d.code, d.message) for d in found] == [(code, message)]
    assert found[0].line == 11
    if hint:
        assert found[0].hint == hint


@pytest.mark.parametrize("decl, message", [
    ("zone meld[*, player]: row public", "the growing index `*` must come last"),
    ("var count[player, *]: int", "only a zone family can grow (`*`)"),
    ("zone meld[player]: row public max_members(4)",
     "`max_members` bounds a growing family; this zone has no `*` index"),
    ("zone meld[player, *]: row public max_members(0)", "`max_members` must be from 1 to 1000, not 0"),
    ("zone meld[player, *]: track(3) public", "a growing zone family cannot be a track"),
    ("zone meld: row public { var rank: int }", "zone `meld` is a single zone; only a family (with an index) has members"),
    ("zone meld[player, 5]: row public", "an index is `player`, an enum, a range like 1..10 or `*`"),
    ("zone meld[player, *]: row public { var top[player]: int }", "`top` has the indices of `meld`; write it without [...]"),
])
def test_checker_errors_for_growing_declarations(decl, message):
    found = errors(f'game "G"\nplayers 2..2\n{decl}\nflow {{ }}\n')
    assert message in [d.message for d in found]
    assert all(d.line == 3 for d in found if d.message == message)


def test_no_card_starts_in_a_growing_family():
    found = errors('game "G"\nplayers 2..2\nkind k { n: 1..2 }\ncards k(n: each) in meld[0, 1]\n'
                   'zone meld[player, *]: row public\nflow { }\n')
    assert [(d.code, d.line) for d in found] == [("E215", 4)]
    assert "none of its members exists when the game starts" in found[0].message


# ---- index ranges sized by a parameter


def test_an_index_range_sized_by_a_parameter(melds):
    names = melds.program.var_names
    assert [n for n in names if n.startswith("seen[0")] == [f"seen[0, {i}]" for i in range(1, 6)]
    bigger = ruledsl.loads(MELDS, "melds.rules", params={"hand_size": 7})
    assert sum(n.startswith("seen[1, ") for n in bigger.program.var_names) == 7


@pytest.mark.parametrize("params, message", [
    ({"hand_size": 0}, "the index range 1..0 is empty"),
    ({"hand_size": 5000}, "the index range 1..5000 has 5000 values, more than the 1000 an index may have"),
])
def test_a_bad_size_is_a_load_time_error(params, message):
    found = errors(MELDS, params=params)
    assert [(d.code, d.message, d.line) for d in found] == [("E205", message, 11)]


def test_an_index_range_takes_constant_expressions():
    g = ruledsl.loads('game "G"\nplayers 2..2\nparam n = 3\nzone line[player, 0..n * 2 - 1]: row public\n'
                      'flow { }\n', "g.rules")
    assert [z.name for z in g.program.zones if z.owner == 1][-1] == "line[1, 5]"
    found = errors('game "G"\nplayers 2..2\nvar x: int = 1\nzone line[player, 1..x]: row public\nflow { }\n')
    assert found[0].code == "E213" and found[0].line == 4


# ---- attributes a kind lacks


KINDS = textwrap.dedent("""\
    game "K"
    players 2..2
    kind card { rank: 1..3 }
    kind wild { colour: 1..2 }
    cards card(rank: each) + wild(colour: each) in deck
    zone deck: pile public
    define is_wild(c) = c.kind == wild
    var total: int = 0
    """)


@pytest.mark.parametrize("guarded", [
    "define f(c) = c has rank and c.rank > 1",
    "define f(c) = if is_wild(c) then false else c.rank > 1",
    "define f(c) = not (c has rank) or c.rank > 1",
    "define f(c) = c.kind == card and c.rank > 1",
    "define f(c) = c.kind != wild and c.rank > 1",
    "define f(c) = is_wild(c) or c.rank > 1",
    "define f(c) = sum(d.rank for each d in deck where d has rank) > 1",
    "define f(c) = c.kind in {card} and c.rank > 1",
])
def test_guarded_reads_are_accepted(guarded):
    ruledsl.loads(textwrap.dedent(KINDS) + guarded + "\nflow { }\n", "k.rules")


def test_an_unguarded_read_is_flagged_with_the_guard_as_hint():
    found = errors(KINDS + "define f(c) = c.rank > 1 or c has rank\nflow { }\n")
    assert [(d.code, d.line, d.column) for d in found] == [("E214", 9, 15)]
    assert found[0].message == ("`c.rank`: cards of kind `wild` have no `rank`, and nothing here says `c` is "
                                "not one")
    assert found[0].hint == ("guard the read: `c has rank and ...`, or give kind `wild` a value: "
                             "`rank: ... = VALUE`")


def test_guards_in_statements_reach_their_blocks():
    body = """\
        flow {
          choose go by 0 {
            move take(c in deck) where c has rank { total += c.rank }
          }
          if is_wild(top(deck)) { total = 0 } else { total += top(deck).rank }
          total += top(deck).rank
        }
        """
    found = errors(KINDS + textwrap.dedent(body))
    assert [(d.code, d.line) for d in found] == [("E214", 14)]


def test_a_kind_without_cards_in_the_game_needs_no_guard():
    text = KINDS.replace("+ wild(colour: each) ", "")
    ruledsl.loads(textwrap.dedent(text) + "define f(c) = c.rank > 1\nflow { }\n", "k.rules")


def test_has_at_run_time():
    g = ruledsl.loads(textwrap.dedent(KINDS) + textwrap.dedent("""\
        flow {
          total = count(each c in deck where c has rank) * 10 + count(each c in deck where c has colour)
        }
        """), "k.rules")
    s = g.new_game(2)
    assert s.is_over and s.get_var("total") == 32


def test_has_names_an_attribute_some_kind_has():
    found = errors(KINDS + "define f(c) = c has rnak\nflow { }\n")
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("E201", "no card kind has an attribute `rnak`", "did you mean `rank`?")]


# ---- scenarios set up members


def test_a_scenario_opens_members_and_sets_them_up(tmp_path):
    (tmp_path / "melds.rules").write_text(MELDS, encoding="utf-8")
    (tmp_path / "melds.test.rules").write_text(textwrap.dedent("""\
        scenarios for "melds.rules"
        scenario adds_to_an_open_meld {
          players 2
          gather all cards into deck
          new meld[0]
          new meld[0]
          meld[0, 2]: "R4"
          meld[0, 2].rank = 4
          meld[0, 2].pot: "R6"
          hand[0]: "R4" "W"
          expect moves add: add(R4, 2), add(W, 1), add(W, 2)
          move add("W", 2)
          expect meld[0, 2]: "R4" "W"
          expect meld[0, 2].wilds == 1 and size(meld[0, 2].pot) == 1
        }
        scenario a_member_that_is_not_open_cannot_be_set_up {
          players 2
          meld[1, 1]: "R4"
        }
        """), encoding="utf-8")
    loaded = load_scenarios(tmp_path / "melds.test.rules")
    loaded.check()
    passing, broken = (loaded.run(s) for s in loaded.scenarios)
    assert passing.passed, passing.message()
    assert broken.status == "error"
    assert (broken.diagnostic.line, broken.diagnostic.message) == (18, "meld[1, 1] is not open")
    assert broken.diagnostic.hint == "open it first: new meld[1]"


# ---- gather all cards and open members (docs §4.6)


def test_gather_all_cards_leaves_open_members_open_and_empty_with_their_values():
    game = ruledsl.loads(textwrap.dedent("""\
        game "Gather"
        players 2..2
        kind card { rank: 1..6 }
        cards 4 * card(rank: each) in deck
        zone deck: pile hidden
        zone meld[player, *]: row public {
          zone bonus: pile public
          var rank: int = 0
        }
        var open_before: int = 0
        var after: int = 0
        var cleared: int = 0
        var kept: int = 0
        var empty_after: bool = false
        flow {
          new meld[0] as i
          meld[0, i].rank = 5
          put top(deck) into meld[0, i]
          put top(deck) into meld[0, i].bonus
          new meld[0] as j
          open_before = count(each i in members(meld[0]))
          gather all cards into deck
          after = count(each i in members(meld[0]))
          kept = meld[0, 1].rank
          empty_after = all(each i in members(meld[0]) where empty(meld[0, i]) and empty(meld[0, i].bonus))
          for i in members(meld[0]) { remove meld[0, i] }
          cleared = count(each i in members(meld[0]))
          choose stop by 0 { move stop {} }
        }
        """), "gather.rules")
    s = game.new_game(2, seed=1)
    assert (s.get_var("open_before"), s.get_var("after"), s.get_var("cleared")) == (2, 2, 0)
    assert s.get_var("kept") == 5 and s.get_var("empty_after") is True
    assert len(s.zones[s.zone_id("deck")]) == 24  # every card came back, none is left in a member


MEMBER_READS = textwrap.dedent("""\
    game "Reads"
    players 2..2
    kind k { n: 1..4 }
    cards 2 * k(n: each) in deck
    zone deck: pile hidden
    zone meld[player, *]: row public max_members(3)
    var who: int = {who}
    var pick: int = {pick}
    define seat = if any(each c in deck where c.n > 9) then 0 else who
    flow {
      new meld[0] as i
      new meld[1] as j
      put top(deck) into meld[{prefix}, {number}]
    }
    """)


@pytest.mark.parametrize("prefix", ["who", "seat", "0"])
@pytest.mark.parametrize("number", ["pick", "1 + pick - 1"])
@pytest.mark.parametrize("who, pick", [(0, 1), (1, 1), (0, 2), (2, 1), (-1, 1), (0, 0), (0, 4), (5, 9)])
def test_a_member_index_written_in_place_finds_what_the_closure_finds(monkeypatch, prefix, number, who, pick):
    """The index of a member is generated code (in place for `meld[0, pick]`, a function of its own
    where the player is checked, `who`, or the number is worked out, `1 + pick - 1`; `seat`, a define
    with a quantifier, keeps the closure); the closure is the oracle: the same card moved, or the same finding at the
    same rules position (a player outside the family before a missing member, as the closure asks)."""
    from ruledsl.compiler import members

    text = (MEMBER_READS.replace("{who}", str(who)).replace("{pick}", str(pick))
            .replace("{prefix}", prefix).replace("{number}", number))

    def outcome(comment=""):  # a comment makes a text of its own: compiled again, not a program kept
        try:
            state = ruledsl.loads(text + comment, "reads.rules").new_game(2, 0)
        except RulesRuntimeError as exc:
            return exc.message, exc.span.line, exc.span.column
        return state.to_json()

    generated = outcome()
    monkeypatch.setattr(members, "_source", lambda c, fn: None)  # every index by the closure
    assert generated == outcome("# by the closure\n")


def _played(text, players, seeds, moves, monkeypatch=None):
    """Every state's key and listing along seeded random games of ``text`` (None where it failed)."""
    game = ruledsl.loads(text, "played.rules")
    out = []
    for seed in seeds:
        try:
            state = game.new_game(players, seed)
        except RulesRuntimeError as exc:
            out.append((exc.message, exc.span.line))
            continue
        rng = random.Random(seed)
        for _ in range(moves):
            if state.is_over:
                break
            legal = state.legal_moves()
            out.append((state._key(), legal))
            state._apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("game, players, seeds, moves", [
    ("trambahn", 2, range(3), 300), ("tramwaje", 2, range(2), 400), ("tramwaje", 3, range(2), 400)])
def test_a_member_read_under_its_own_members_quantifier_plays_as_the_checked_read(monkeypatch, game, players,
                                                                                   seeds, moves):
    """Inside `any(each i in members(column[p]) where ... column[p, i] ...)` the member exists while the
    quantifier runs (an expression changes nothing), so its index is read with no check
    (members.members_read); the same games with every read checked give the same states and moves."""
    from ruledsl.compiler import expressions

    text = (ROOT / "games" / f"{game}.rules").read_text(encoding="utf-8")
    fast = _played(text, players, seeds, moves)
    monkeypatch.setattr(expressions, "members_read", lambda domain, slot: None)
    checked = _played(text + "\n# every member read checked\n", players, seeds, moves)
    assert fast == checked and len(fast) > 100


SHADOWED = textwrap.dedent("""\
    game "Shadowed"
    players 2..2
    kind k { n: 1..4 }
    cards 2 * k(n: each) in deck
    zone deck: pile hidden
    zone meld[player, *]: row public max_members(3)
    define seen_by_all = any(each i in members(meld[0]) where i == 2 and all(each p in players where size(meld[p, i]) >= 0))
    define own = count(each i in members(meld[0]) where size(meld[0, i]) > 0)
    var n: int = 0
    flow {
      new meld[0] as a
      new meld[0] as b
      new meld[1] as c
      put top(deck) into meld[0, 2]
      n = own
      if seen_by_all { n = 9 }
    }
    """)


def test_a_member_read_under_another_prefix_keeps_its_check():
    """`meld[p, i]` inside `all(each p in players ...)`, itself inside `each i in members(meld[0])`, reads
    another prefix than the one `members` listed: it keeps its check, and player 1's missing member 2
    is the finding at the rule (while `own`, read under its own prefix, counted 1 first)."""
    with pytest.raises(RulesRuntimeError) as info:
        ruledsl.loads(SHADOWED, "shadowed.rules").new_game(2, 0)
    assert info.value.message == "meld[1] has no member 2 (members: 1)"
    assert info.value.span.line == 7


REMOVED = textwrap.dedent("""\
    game "Removed"
    players 2..2
    kind k { n: 1..4 }
    cards 2 * k(n: each) in deck
    zone deck: pile hidden
    zone meld[player, *]: row public max_members(3)
    flow {
      new meld[0] as a
      choose drop by 0 {
        move close(i in members(meld[0])) where size(meld[0, i]) == 0 {
          remove meld[0, i]
          put top(deck) into meld[0, i]
        }
      }
    }
    """)


def test_a_move_argument_over_members_is_unchecked_in_its_condition_only():
    """`close(i in members(meld[0])) where size(meld[0, i]) == 0` reads the member unchecked in its
    condition (asked while the moves are listed); its body, which removes the member, still finds that
    it is gone."""
    state = ruledsl.loads(REMOVED, "removed.rules").new_game(2, 0)
    (move,) = state.legal_moves()
    before = state.clone()
    with pytest.raises(RulesRuntimeError) as info:
        state.apply(move)
    assert info.value.message == "meld[0] has no member 1 (members: none yet)"
    assert info.value.span.line == 12 and state == before
