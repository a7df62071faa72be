"""The bots' contracts: a legal move, the same choices for the same seed, no peeking, clear settings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.play.botbase import decide, rewards, standing
from ruledsl.play.bots import GreedyBot, make_bot, parse_bot
from ruledsl.play.search import IsmctsBot, MctsBot
from ruledsl.play.sim import play_game, simulate
from ruledsl.play.worlds import determinize, hidden_positions

ROOT = Path(__file__).resolve().parent.parent
RACE = (Path(__file__).parent / "data" / "race.rules").read_text(encoding="utf-8")
SEARCHERS = ["greedy:samples=2", "mcts:iterations=4", "ismcts:iterations=4", "ismcts:iterations=3,depth=0"]

# A race where fewer points is better: a greedy bot must take the smaller step.
CRAWL = RACE.replace('game "Race"', 'game "Crawl"').replace("highest score(p)", "lowest score(p)")


@pytest.fixture(scope="module")
def race():
    return ruledsl.loads(RACE, "race.rules")


@pytest.fixture(scope="module")
def trolley():
    return ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"hand_size": 5, "single_round": True})


@pytest.fixture(scope="module")
def highlow():
    return ruledsl.load(ROOT / "games" / "tutorial_highlow.rules", params={"hand_size": 4})


# ---- settings


def test_settings_are_parsed_and_shown():
    assert parse_bot("ismcts:iterations=300, c=1.5") == ("ismcts", {"iterations": 300, "c": 1.5})
    assert parse_bot("greedy") == ("greedy", {})
    bot = make_bot("ismcts:iterations=30,depth=0", seed=4)
    assert isinstance(bot, IsmctsBot) and bot.iterations == 30 and bot.depth == 0 and bot.seed == 4
    assert bot.label == "ismcts:iterations=30,depth=0"
    assert make_bot("mcts").label == "mcts" and isinstance(make_bot("mcts"), MctsBot)
    assert make_bot("greedy:samples=3").samples == 3


@pytest.mark.parametrize("spec, message", [
    ("ismcts:iters=3", r"^bot 'ismcts' has no setting 'iters' \(its settings: c, depth, few, grade, guide, iterations, lookahead, margin, own, prior, scaled, seconds, setdone, time, widen\)$"),
    ("ismcts:iterations=0", r"^bot 'ismcts': setting 'iterations' must be a finite number of at least 1, not 0$"),
    ("ismcts:iterations=2.5", r"^bot 'ismcts': setting 'iterations' must be a whole number, not '2.5'$"),
    ("mcts:c=fast", r"^bot 'mcts': setting 'c' must be a number, not 'fast'$"),
    ("mcts:c=nan", r"must be a finite number of at least 0.0, not nan"),
    ("mcts:c=inf", r"must be a finite number of at least 0.0, not inf"),
    ("greedy:samples", r"^bot 'greedy': setting 'samples' needs a value"),
    ("greedy:", r"give settings after the colon"),
    ("random:samples=2", r"^bot 'random' has no setting 'samples' \(its settings: none\)$"),
    ("ismcts:c=1,c=2", r"setting 'c' is given twice"),
    ("clever:x=1", r"^unknown bot 'clever'"),
])
def test_bad_settings_are_refused_with_the_reason(spec, message):
    with pytest.raises(ruledsl.ParameterError, match=message):
        make_bot(spec)


# ---- every bot plays legal moves, the same way for the same seed


@pytest.mark.parametrize("spec", SEARCHERS)
def test_a_search_bot_plays_legal_games_and_replays_from_its_seed(trolley, spec):
    # play_game refuses any move that is not legal
    a = play_game(trolley, 2, seed=5, bots=[spec, "random"])
    b = play_game(trolley, 2, seed=5, bots=[spec, "random"])
    assert a.moves == b.moves and a.winners == b.winners
    assert a.bots == [spec, "random"]


def test_search_bots_play_the_other_games(highlow):
    for spec in SEARCHERS:
        result = play_game(highlow, 3, seed=2, bots=[spec, "random", spec])
        assert result.finding is None and result.winners


def test_greedy_takes_the_move_that_helps_most_by_the_rules_own_order(race):
    result = play_game(race, 2, seed=1, bots=["greedy", "random"])
    assert all(move == ["two"] for move in result.moves[0::2])
    crawl = ruledsl.loads(CRAWL, "crawl.rules")
    result = play_game(crawl, 2, seed=1, bots=["greedy", "random"])
    assert all(move == ["one"] for move in result.moves[0::2])


def test_greedy_breaks_ties_with_its_own_seed():
    tie = ruledsl.loads(RACE.replace("define score(p) = points[p]", "define score(p) = 0"), "tie.rules")
    seen = {tuple(map(tuple, play_game(tie, 2, seed=s, bots="greedy").moves)) for s in range(6)}
    assert len(seen) > 1


@pytest.mark.parametrize("spec", ["mcts:iterations=60", "ismcts:iterations=60"])
def test_search_finds_the_obvious_move(race, spec):
    """In the race, taking two steps is always right: the search sees it from its rollouts."""
    state = race.new_game(2, 0)
    bot = make_bot(spec, seed=3)
    assert decide(bot, state, 0, state.legal_moves()).name == "two"


def test_a_forced_move_is_taken_without_searching(race):
    one_way = ruledsl.loads(RACE.replace("move two { points[current] += 2 }", ""), "one.rules")
    state = one_way.new_game(2, 0)
    bot = make_bot("ismcts", seed=1)
    assert decide(bot, state, 0, state.legal_moves()).name == "one"
    assert bot.last_iterations == 0


def test_simulate_takes_bot_settings_by_name(trolley):
    stats = simulate(trolley, 1, 2, seed=3, bots=["ismcts:iterations=3", "random"])
    assert stats.bots == ["ismcts:iterations=3", "random"]
    assert stats.games == 1 and sum(stats.wins) >= 1


# ---- no peeking


@pytest.mark.parametrize("spec", SEARCHERS)
@pytest.mark.parametrize("moves", [0, 9, 23])
def test_a_bot_does_not_see_cards_hidden_from_it(trolley, spec, moves):
    """Move the cards the player cannot see: the bot's choice does not change."""
    state = trolley.new_game(2, 11)
    rng = random.Random(moves)
    for _ in range(moves):
        legal = state.legal_moves()
        state._apply(legal[rng.randrange(len(legal))])
    player = state.current_player
    legal = state.legal_moves()
    choices = set()
    for i in range(3):
        other = determinize(state, player, random.Random(100 + i))
        assert other.view(player) == state.view(player)
        choices.add(decide(make_bot(spec, seed=8), other, player, legal))
    choices.add(decide(make_bot(spec, seed=8), state, player, legal))
    assert len(choices) == 1


def test_the_knowledge_given_to_a_bot_holds_no_hidden_card(trolley):
    state = trolley.new_game(2, 4)
    player = state.current_player
    seen = []

    class Spy(GreedyBot):
        def choose(self, view, legal, knowledge):
            seen.append(knowledge)
            return legal[0]

    decide(Spy(), state, player, state.legal_moves())
    world = seen[0].world
    assert world.view(player) == state.view(player)
    # the hidden cards (one back group here) lie in a fixed order, not where they really are
    spots = hidden_positions(state, player)
    real = [state.zones[z][i] for z, i in spots]
    assert [world.zones[z][i] for z, i in spots] == sorted(real) != real
    assert world.seed == 0 and world.rng != state.rng


# ---- judging positions


def test_rewards_and_standing(race):
    state = race.new_game(2, 0)
    state.set_var("points[0]", 3)
    assert standing(state, 0) == (3,) and standing(state, 1) == (-3,)
    assert rewards(state) == [1.0, 0.0]  # not over: who is ahead
    state.set_var("points[1]", 3)
    assert rewards(state) == [0.5, 0.5]
    state.apply("two")
    state.apply("two")
    state.apply("two")
    assert state.is_over and state.winners == [0]
    assert rewards(state) == [1.0, 0.0]


# ---- the examples of docs/bots.md run


def test_the_bot_examples_in_the_docs_run(monkeypatch, capsys):
    import re

    from ruledsl.play.bots import BOTS

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 3  # OpenSpiel's ISMCTSBot on a rules file, a bot of one's own, simulating with it
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("ruledsl.bots.BOTS", dict(BOTS))  # the example registers a bot: not for the other tests
    import ruledsl.bots as bots_module
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/bots.md", "exec"), namespace)  # noqa: S102 - our own documentation
    assert "flat" in bots_module.BOTS and "flat" not in BOTS
    assert type(namespace["bot"]).__name__ == "ISMCTSBot"
    winners, rates = capsys.readouterr().out.splitlines()
    assert winners in ("[0]", "[1]", "[0, 1]")
    assert len(eval(rates)) == 2


# ---- every game

GAME_FILES = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))


def test_every_game_is_played_by_the_searchers():
    assert {"knockout_whist.rules", "uno.rules"} <= {p.name for p in GAME_FILES}


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_search_bots_choose_legal_moves_in_every_game(path):
    """Deep into a game (seats that left, growing zones, cards with their own values), each bot's
    choice is one of the legal moves, and it does not depend on the cards hidden from it."""
    game = ruledsl.load(path)
    rng = random.Random(path.stem)
    for players in sorted({game.program.min_players, max(game.program.min_players, min(game.program.max_players, 3))}):
        state = game.new_game(players, 5)
        for moves in range(120):
            if state.is_over:
                break
            legal = state.legal_moves()
            if moves % 40 == 39 and len(legal) > 1:
                player = state.current_player
                other = determinize(state, player, random.Random(moves))
                for spec in ("greedy:samples=1", "ismcts:iterations=3,depth=3"):
                    move = decide(make_bot(spec, seed=1), state, player, legal)
                    assert move in legal
                    assert decide(make_bot(spec, seed=1), other, player, legal) == move
            state._apply(legal[rng.randrange(len(legal))])


def test_every_setting_of_the_search_bots_has_a_row_in_the_docs_table():
    """docs/bots.md's table of the search bots' settings names each one, its default first in its row."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    rows = {cells[1].strip().strip("`"): cells[2].strip()
            for cells in (line.split("|") for line in text.splitlines() if line.startswith("| `"))}
    for bot in (MctsBot, IsmctsBot):
        for name, setting in bot.settings.items():
            assert name in rows, f"{bot.name}'s setting {name} has no row in docs/bots.md"
            assert rows[name].split(";")[0] == f"{setting.default:g}", (name, setting.default, rows[name])
