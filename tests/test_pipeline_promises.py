"""The pipeline keeps its promises (issue 29): what `check` accepts runs, what `run --log` writes
`ruledsl replay` plays again to the same end, a state saves, loads and clones after every move,
every legal move is described and numbered by the adapters' encoding, and verify's generic checks
hold.

Over every game of games/ (with parameters that keep a game short) and over small generated rules
files that use every kind of move parameter (numbers, players, cards, enum values, true/false,
sets of numbers and of enum values, sets of cards) and every kind of winner key (a number,
true/false, an enum value, a key of several parts).

Sized for CI: a few tens of seconds in all (examples, moves per game and the moves verify's
checks follow are capped below). The random choices come from hypothesis only, so a failure
replays exactly.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.cli import main
from ruledsl.encode import ActionCodec
from ruledsl.engine.setlog import unfold
from ruledsl.sim import play_game
from ruledsl.verify.checks import play_checked, verify

GAMES = Path(__file__).resolve().parent.parent / "games"

# parameters that keep each game of games/ short; a game not named here plays with its own
SHORT = {
    "goofspiel.rules": {},
    "knockout_whist.rules": {"first_hand": 3},
    "trambahn.rules": {"scorings_to_end": 1, "hand_size": 3},
    "tramwaje.rules": {"deal_size": 4, "max_rounds": 10},
    "trolley_car.rules": {"single_round": True, "hand_size": 4},
    "trolley_car_bet.rules": {"single_round": True, "hand_size": 4},
    "tutorial_highlow.rules": {"hand_size": 3},
    "uno.rules": {"hand_size": 3},
}
GAME_FILES = sorted(p.name for p in GAMES.glob("*.rules") if not p.name.endswith(".test.rules"))

MOVES = 120  # moves of a game checked move by move (save, load, clone, describe, encode, view)
VERIFIED_MOVES = 12  # moves of a game that verify's generic checks follow, in full
CLI_MOVES = 400  # a game longer than this is not replayed through the command line (its checks are slow)

# ---------------------------------------------------------------- small generated rules files

OPTIONS = {
    "ints": "move step(n in 1..3) { points[current] += n }",
    "int sets": "move jump(n in {2, 5}) { points[current] += n }",
    "players": "move gift(q in players) where q != current { points[q] += 1  mark[current] = q }",
    "cards": "move play(c in hand[current]) { put c into table  points[current] += c.value  last = c }",
    "enums": "move paint(k in colour) where k != shade[current] { shade[current] = k  points[current] += 1 }",
    "enum sets": "move warm(k in {red, green}) { shade[current] = k  points[current] += 1 }",
    "booleans": "move order_up(alone in {false, true}) { flag[current] = alone\n"
                "        if alone { points[current] += 2 } else { points[current] += 1 } }",
    "card sets": "move meld(cs subset of hand[current]) where size(cs) >= 2 {\n"
                 "        for c in cs { put c into table }  points[current] += size(cs) }",
}
KEYS = {
    "number": "highest points[p]",
    "true/false": "highest flag[p]",
    "enum": "lowest shade[p]",
    "key": "highest (flag[p], points[p]), lowest size(hand[p])",
}


def rules_text(options, key: str, max_players: int = 3) -> str:
    """A small game whose turn offers the ``options`` (names of OPTIONS), ranked by the winner ``key``."""
    body = "\n      ".join(OPTIONS[o] for o in options)
    return f'''game "Generated"
players 2..{max_players}
limit 60 moves

enum colour {{ red "Red", green "Green", blue "Blue" }}
kind token {{
  colour: colour
  value: 1..4
  show "{{colour}}{{value}}"
}}
cards 2 * token(colour: each, value: each) in deck

zone deck: pile hidden
zone hand[player]: row owner
zone table: row public

var points[player]: int = 0
var flag[player]: bool = false
var shade[player]: colour = blue
var mark[player]: player = 0
var last: card = none

flow {{
  shuffle deck
  for p in players {{ deal 3 from deck into hand[p] }}
  turns from 0 until any(each p in players where points[p] >= 10) {{
    choose turn by current {{
      {body}
      move draw where not empty(deck) {{ put top(deck) into hand[current] }}
      move pass {{ points[current] += 1 }}
    }}
  }}
}}

define score(p) = points[p]
winner(p): {KEYS[key]}
'''


_FILES = Path(tempfile.mkdtemp(prefix="ruledsl-promises-"))


@lru_cache(maxsize=None)
def generated(options: tuple, key: str) -> tuple[str, ruledsl.Game]:
    path = _FILES / f"generated_{abs(hash((options, key)))}.rules"
    path.write_text(rules_text(options, key), encoding="utf-8")
    return str(path), ruledsl.load(path)  # what check accepts (RulesError here: a checker or generator bug)


@lru_cache(maxsize=None)
def game_of(name: str) -> ruledsl.Game:
    return ruledsl.load(GAMES / name, params=SHORT.get(name) or None)


@lru_cache(maxsize=None)
def codec(game: ruledsl.Game, players: int) -> ActionCodec:
    return ActionCodec(game.program, players)


# ---------------------------------------------------------------- the promises


def play_and_check(game: ruledsl.Game, players: int, seed: int, moves: int = MOVES) -> ruledsl.State:
    """A game of random legal moves, checked after every move: no rule fails of the engine's making;
    every legal move has a description and an action id that decodes back to it; every player's view
    can be made; a clone and a JSON round trip give the same state; replaying the moves gives the
    same state, to the last byte of its JSON."""
    rng = random.Random(seed)
    s = game.new_game(players, seed)
    actions = codec(game, players)
    while not s.is_over and len(s.moves) < moves:
        legal = s.legal_moves()
        assert legal, f"player {s.current_player} must decide `{s.decision}` with no move listed"
        texts = s.describe_moves(legal)
        assert all(isinstance(t, str) and t for t in texts)
        for m in legal:
            assert actions.decode(actions.encode(s, m), s) == m, m
        for p in range(players):
            json.dumps(s.view(p))
        s.apply(legal[rng.randrange(len(legal))])
        assert s.clone() == s
        text = s.to_json()
        back = game.state_from_json(text)
        assert back == s and back.to_json() == text, "a saved state loads back different"
    again = game.replay(players, seed, [m.to_json() for m in s.moves])
    assert again.to_json() == s.to_json(), "replaying the moves gives another state"
    if s.is_over:
        assert len(s.scores) == players and all(0 <= w < players for w in s.winners)
    return s


def verify_prefix(game: ruledsl.Game, players: int, seed: int, moves: int = VERIFIED_MOVES) -> None:
    """Verify's generic checks (conservation, listed and unlisted moves, hidden information, information
    flow, save and clone, replay, the file's invariants) over the first ``moves`` moves of a game."""
    rng = random.Random(seed)

    def choose(s, legal):
        return None if len(s.moves) >= moves else rng.randrange(len(legal))

    play_checked(game, players, seed, choose)


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()


def run_then_replay(path: str, players: int, seed: int, params: dict, tmp: Path) -> None:
    """`ruledsl run --log` then `ruledsl replay` of its log: both exit 0, never a traceback; replay
    counts the moves as the log does and ends with the log's scores and winners."""
    log = tmp / f"log_{players}_{seed}.json"
    sets = [arg for k, v in params.items() for arg in ("--set", f"{k}={str(v).lower()}")]
    cli = runner()
    ran = cli.invoke(main, ["run", path, "--players", str(players), "--seed", str(seed), "--log", str(log), *sets])
    assert ran.exit_code == 0, ran.stdout + ran.stderr
    data = json.loads(log.read_text(encoding="utf-8"))
    if len(unfold(data["moves"])) > CLI_MOVES:
        return
    replayed = cli.invoke(main, ["replay", str(log), "--rules", path])  # the log is outside the rules' folder
    out = replayed.stdout + replayed.stderr
    assert replayed.exit_code == 0, out
    assert "Traceback" not in out
    listed = re.findall(r"^\s+\d+\. ", replayed.stdout, re.M)
    counted = int(re.search(r"ok: (\d+) moves? replayed", replayed.stdout).group(1))
    assert len(listed) == counted == len(data["moves"]), out[-400:]
    assert f"scores: {data['scores']}" in replayed.stdout or data["finding"] is not None


SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)


@pytest.mark.parametrize("name", GAME_FILES)
@settings(max_examples=2, **SETTINGS)
@given(data=st.data())
def test_every_game_keeps_the_pipelines_promises(name, data, tmp_path_factory):
    game = game_of(name)
    p = game.program
    players = data.draw(st.integers(p.min_players, min(p.max_players, 4)), label="players")
    seed = data.draw(st.integers(0, 2 ** 16), label="seed")
    play_and_check(game, players, seed)
    verify_prefix(game, players, seed)
    run_then_replay(str(GAMES / name), players, seed, SHORT.get(name, {}), tmp_path_factory.mktemp("logs"))


@settings(max_examples=10, **SETTINGS)
@given(options=st.sets(st.sampled_from(sorted(OPTIONS)), min_size=1, max_size=4),
       key=st.sampled_from(sorted(KEYS)), players=st.integers(2, 3), seed=st.integers(0, 2 ** 16))
def test_generated_rules_keep_the_pipelines_promises(options, key, players, seed, tmp_path_factory):
    path, game = generated(tuple(sorted(options)), key)
    s = play_and_check(game, players, seed)
    assert s.is_over
    for bot in ("random", "greedy"):
        result = play_game(game, players, seed, bot)
        assert result.finding is None or "limit" in result.finding
    report = verify(game, [players], examples=2, seed=seed, shrink_seconds=1)
    assert report.ok, f"{report.failure.check}: {report.failure.message}"
    run_then_replay(path, players, seed, {}, tmp_path_factory.mktemp("logs"))


def test_every_option_and_key_is_generated_together_once():
    """The whole domain table in one file, for each winner key: each loads and plays to its end."""
    for key in KEYS:
        path, game = generated(tuple(sorted(OPTIONS)), key)
        assert play_and_check(game, 3, 7).is_over


@settings(max_examples=6, **SETTINGS)
@given(hand=st.integers(1, 51), players=st.integers(2, 6))
def test_a_parameter_in_its_range_plays_or_is_refused_before_the_game(hand, players):
    """Trolley Car's `hand_size` in 1..51 at every player count: either the game sets up, or the new
    game is refused with a ParameterError that names the combination, never a rule failing at setup."""
    game = ruledsl.load(GAMES / "trolley_car.rules", params={"hand_size": hand, "single_round": True})
    try:
        game.new_game(players, 0)
    except ruledsl.ParameterError as err:
        assert f"hand_size={hand}" in str(err) and f"{players} players" in str(err)
