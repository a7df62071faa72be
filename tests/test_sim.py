"""Bots and simulations: determinism, seeds, the records they return, their counting of wins."""

import json
from pathlib import Path

import pytest

import ruledsl
from ruledsl.play.bots import BOTS, FirstMoveBot, RandomBot, make_bot
from ruledsl.play.botbase import Bot
from ruledsl.play.sim import GameResult, PlayoutFailed, SimulationStats, derive_seed, play_game, simulate

ROOT = Path(__file__).resolve().parent.parent

RACE = (Path(__file__).parent / "data" / "race.rules").read_text(encoding="utf-8")

# Every player always ties: each game is a shared win for all.
TIE = """\
game "Tie"
players 2..3
var n: int = 0
flow {
  choose turn by 0 { move go { n += 1 } }
}
define score(p) = 0
winner(p): highest score(p)
"""

# Never ends: stopped by its move bound.
LOOP = """\
game "Loop"
players 2..2
limit 10 moves
var n: int = 0
flow {
  while true {
    choose turn by 0 {
      move up { n += 1 }
      move down { n -= 1 }
    }
  }
}
define score(p) = n
winner(p): highest score(p)
"""

# The first decision has no legal move: a finding at run time.
STUCK = (Path(__file__).parent / "data" / "stuck.rules").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def race():
    return ruledsl.loads(RACE, "race.rules")


@pytest.fixture(scope="module")
def trolley():
    return ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"hand_size": 5, "single_round": "true"})


# ---- seeds


def test_derive_seed_is_deterministic_and_spreads():
    assert derive_seed(1, 0) == derive_seed(1, 0)
    seeds = {derive_seed(1, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert all(0 <= s < 2 ** 53 for s in seeds)
    assert derive_seed(1, 0) != derive_seed(2, 0)
    assert derive_seed(-5, 3) >= 0


# ---- bots


def test_registry_makes_bots_by_name():
    assert set(BOTS) >= {"random", "first"}
    assert isinstance(make_bot("random", 3), RandomBot)
    assert isinstance(make_bot("first"), FirstMoveBot)
    with pytest.raises(ruledsl.ParameterError, match=r"^unknown bot 'clever' \(bots: first, greedy, ismcts, mcts, random\)$"):
        make_bot("clever")


def test_random_bot_is_seeded():
    legal = [ruledsl.Move("play", (i,)) for i in range(50)]
    a, b = RandomBot(seed=4), RandomBot(seed=4)
    assert [a.choose(None, legal) for _ in range(20)] == [b.choose(None, legal) for _ in range(20)]
    assert len({RandomBot(seed=s).choose(None, legal) for s in range(20)}) > 1


def test_first_move_bot_always_takes_the_first_move(race):
    result = play_game(race, 2, seed=3, bots="first")
    assert all(m == ["one"] for m in result.moves)
    assert result.bots == ["first", "first"]


def test_bots_get_the_view_of_their_own_seat_only_when_they_ask(race):
    seen = []

    class Watcher(Bot):
        name = "watcher"
        wants_view = True

        def choose(self, view, legal):
            seen.append(view)
            return legal[-1]

    class Blind(FirstMoveBot):
        def choose(self, view, legal):
            assert view is None
            return legal[0]

    result = play_game(race, 2, seed=1, bots=[Watcher(), Blind()])
    assert seen and all(v["player"] == 0 == v["current_player"] for v in seen)
    assert result.bots == ["watcher", "first"]


def test_a_bot_that_breaks_the_rules_is_refused(race):
    class Cheater(Bot):
        def choose(self, view, legal):
            return ruledsl.Move("three")

    with pytest.raises(ruledsl.IllegalMove, match="chose a move that is not legal"):
        play_game(race, 2, seed=1, bots=[Cheater(), "random"])


def test_one_bot_per_seat(race):
    with pytest.raises(ruledsl.ParameterError, match="^3 bots given for 2 players; give one bot per player$"):
        play_game(race, 2, seed=1, bots=["random"] * 3)


# ---- one game


def test_play_game_returns_a_json_ready_record(trolley):
    result = play_game(trolley, 3, seed=11)
    assert isinstance(result, GameResult)
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["game"] == "Trolley Car" and data["players"] == 3 and data["seed"] == 11
    assert data["params"]["hand_size"] == 5
    assert data["length"] == len(data["moves"]) > 0
    assert all(isinstance(m, list) and isinstance(m[0], str) for m in data["moves"])
    assert len(data["scores"]) == 3 and data["winners"] and data["finding"] is None


def test_play_game_is_deterministic_and_replays(trolley):
    a, b = play_game(trolley, 3, seed=11), play_game(trolley, 3, seed=11)
    assert a == b
    assert play_game(trolley, 3, seed=12).moves != a.moves
    state = trolley.replay(3, 11, a.moves)
    assert state.is_over and state.scores == a.scores and state.winners == a.winners


def test_players_default_to_the_fewest(race):
    assert play_game(race, seed=0).players == 2


def test_bad_player_count(race):
    with pytest.raises(ruledsl.ParameterError, match="^Race is for 2 to 4 players, not 7$"):
        play_game(race, 7, seed=0)


def test_a_game_stopped_at_its_bound_has_a_finding_and_no_winner():
    result = play_game(ruledsl.loads(LOOP, "loop.rules"), seed=0)
    assert result.length == 10 and result.winners == [] and "limit of 10 moves" in result.finding


def test_a_failing_rule_says_which_game():
    game = ruledsl.loads(STUCK, "stuck.rules")
    with pytest.raises(PlayoutFailed) as info:
        play_game(game, 2, seed=5)
    err = info.value
    assert isinstance(err, ruledsl.RulesRuntimeError)
    assert (err.seed, err.players, err.moves, err.index) == (5, 2, [], None)
    assert str(err) == "stuck.rules:5:3: player 0 must decide `turn` but has no legal move"


# ---- many games


def test_simulate_adds_up(race):
    stats = simulate(race, 12, players=3, seed=2)
    assert isinstance(stats, SimulationStats)
    assert stats.games == 12 and stats.players == 3 and stats.stopped == 0
    # Every game has at least one winner; a shared win counts once per tied winner.
    assert sum(stats.wins) == 12 + _extra_winners(race, 12, 3, 2) >= 12
    assert stats.win_rate == [w / 12 for w in stats.wins]
    assert len(stats.mean_scores) == 3 and all(s >= 0 for s in stats.mean_scores)
    assert 0 < stats.mean_moves <= stats.max_moves
    data = stats.to_dict()
    assert json.loads(json.dumps(data)) == data
    for key in ("games", "players", "wins", "win_rate", "mean_scores", "mean_moves", "max_moves", "stopped"):
        assert key in data


def _extra_winners(game, games, players, seed):
    return sum(len(play_game(game, players, derive_seed(seed, i)).winners) - 1 for i in range(games))


def test_simulate_plays_game_i_with_a_derived_seed(race):
    stats = simulate(race, 5, players=2, seed=9)
    results = [play_game(race, 2, derive_seed(9, i)) for i in range(5)]
    assert stats.max_moves == max(r.length for r in results)
    assert stats.wins == [sum(p in r.winners for r in results) for p in range(2)]
    assert simulate(race, 5, players=2, seed=9) == stats


def test_ties_count_a_win_for_each_tied_player():
    stats = simulate(ruledsl.loads(TIE, "tie.rules"), 4, players=3, seed=0)
    assert stats.wins == [4, 4, 4] and stats.shared == 4 and stats.win_rate == [1.0, 1.0, 1.0]


def test_games_stopped_at_the_bound_are_counted():
    stats = simulate(ruledsl.loads(LOOP, "loop.rules"), 3, seed=0)
    assert stats.stopped == 3 and stats.wins == [0, 0] and stats.max_moves == 10 and stats.mean_moves == 10


def test_progress_is_reported_after_each_game(race):
    calls = []
    simulate(race, 4, seed=0, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_zero_games(race):
    stats = simulate(race, 0, seed=0)
    assert stats.games == 0 and stats.wins == [0, 0] and stats.mean_moves == 0


def test_simulate_refuses_bad_input(race):
    with pytest.raises(ruledsl.ParameterError, match="^Race is for 2 to 4 players, not 1$"):
        simulate(race, 3, players=1)
    with pytest.raises(ruledsl.ParameterError, match="number of games"):
        simulate(race, -1)
    with pytest.raises(ruledsl.ParameterError, match="bots by name"):
        simulate(race, 1, bots=[RandomBot(), RandomBot()])


def test_a_failing_rule_in_a_simulation_names_the_game():
    with pytest.raises(PlayoutFailed) as info:
        simulate(ruledsl.loads(STUCK, "stuck.rules"), 3, seed=4)
    assert info.value.index == 0 and info.value.seed == derive_seed(4, 0)
