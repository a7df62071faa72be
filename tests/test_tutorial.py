"""docs/tutorial.md builds its game step by step: the reader's file after each step, put together as the
page says, loads (or fails as the page shows), prints what the page prints, and after the last step plays
the same game as games/tutorial_highlow.rules."""

from __future__ import annotations

import ast
import os
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ruledsl
from ruledsl import RulesError

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
GAME = ROOT / "games" / "tutorial_highlow.rules"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)


def section(title: str) -> str:
    return PAGE.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def blocks(n: int, lang: str) -> list[str]:
    """The blocks of one language (``""``: printed output) of step ``n``, in page order."""
    return [text for kind, text in BLOCK.findall(section(f"Step {n}:")) if kind == lang]


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def files() -> dict:
    """The reader's highlow.rules after each step."""
    f = {1: blocks(1, "rules")[0]}
    f[2] = f[1] + "\n" + blocks(2, "rules")[0]
    f[3] = f[2] + "\n" + blocks(3, "rules")[0]
    turns4, playable = blocks(4, "rules")
    # "inside the flow after the setup": before the flow's closing brace; the define outside the flow
    assert f[3].endswith("}\n")
    f[4] = f[3][:-2] + turns4 + "}\n\n" + playable
    defines, turns5, pass_move = blocks(5, "rules")
    # the turns of step 5 in place of the first version's, and the pass among the turn's moves
    turns5 = textwrap.indent(turns5, "  ")
    draw_end = "        put top(deck) into hand[current]\n      }\n"
    f[5] = replaced(f[4], turns4, replaced(turns5, draw_end, draw_end + pass_move)) + "\n" + defines
    f[6] = f[5] + "\n" + blocks(6, "rules")[0]
    f[7] = f[6] + "\n" + blocks(7, "rules")[0]
    # "Use hand_size in the deal and trick_size in the trigger"
    with_params = replaced(replaced(f[7], "deal 6 from deck", "deal hand_size from deck"),
                           "size(pile) >= 5", "size(pile) >= trick_size")
    f[8] = with_params + "\n" + blocks(8, "rules")[0]
    f[9] = f[8] + "\n" + blocks(9, "rules")[0]
    f[12] = f[9] + "\n" + blocks(12, "rules")[0]
    return f


FILES = files()


def load(n: int):
    return ruledsl.loads(FILES[n], "highlow.rules")


@pytest.mark.parametrize("n", [1, 2])
def test_before_the_flow_the_file_is_refused_as_step_1_shows(n):
    shown = blocks(1, "")[0].splitlines()[0]
    with pytest.raises(RulesError) as info:
        load(n)
    assert str(info.value).splitlines()[0] == shown


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 9, 12])
def test_each_step_loads_and_plays_to_its_end(n):
    game = load(n)
    rng = random.Random(n)
    state = game.new_game(players=2, seed=n)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    assert state.is_over and state.finding is None


def run_snippet(code: str, rules: str, folder: Path) -> str:
    (folder / "highlow.rules").write_text(rules, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_step_3_prints_the_dealt_table(tmp_path):
    out = run_snippet(blocks(3, "python")[0], FILES[3], tmp_path).splitlines()
    shown = blocks(3, "")[0]
    assert out[0] == shown.splitlines()[0] == "True"
    zones = ast.literal_eval(out[1])
    for name in ("pile", "hand[0]", "hand[1]", "won[0]", "won[1]"):
        assert f"'{name}': {zones[name]!r}" in shown.replace("\n ", " "), name
    assert zones["deck"] == ["?"] * 39 and "39 `'?'`" in section("Step 3:")


def test_step_4_prints_the_first_decision(tmp_path):
    out = run_snippet(blocks(4, "python")[0], FILES[4], tmp_path)
    assert out == blocks(4, "")[0]


def play_drawing(game, seed: int):
    """A game of players who like to draw (step 9: random players hardly ever reach an empty deck)."""
    rng, state = random.Random(seed), game.new_game(players=2, seed=seed)
    while not state.is_over:
        legal = state.legal_moves()
        draws = [m for m in legal if m.name == "draw"]
        state.apply(draws[0] if draws and rng.random() < 0.9 else rng.choice(legal))
    return state


def test_step_5_needs_the_pass_it_adds():
    without = ruledsl.loads(FILES[5].replace(blocks(5, "rules")[2], ""), "highlow.rules")
    stuck = 0
    for seed in range(20):
        try:
            play_drawing(without, seed)
        except ruledsl.RulesRuntimeError as err:
            assert "must decide `turn` but has no legal move" in str(err)  # step 5's words
            stuck += 1
    assert stuck > 0
    assert all(play_drawing(load(5), seed).finding is None for seed in range(20))


def test_the_last_step_plays_the_game_in_games():
    built, game = load(12), ruledsl.load(GAME)
    for seed in range(12):
        players = 2 + seed % 3
        a, b = built.new_game(players=players, seed=seed), game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            assert a.describe_moves(a.legal_moves()) == b.describe_moves(b.legal_moves())
            move = rng.choice(a.legal_moves())
            a.apply(move)
            b.apply(move)
        assert b.is_over and (a.scores, a.winners) == (b.scores, b.winners)
    assert [s[0] for s in built.program.statistics] == [s[0] for s in game.program.statistics]


def test_the_mistakes_of_when_something_is_wrong_give_the_errors_shown():
    text = GAME.read_text(encoding="utf-8")
    shown = [b for kind, b in BLOCK.findall(section("When something is wrong")) if kind == ""]
    mistakes = [replaced(text, "        put c into pile\n", "        put c into piles\n"),
                replaced(text, "c.rank != top(pile).rank", "c.rank != top(pile)")]
    for wrong, expected in zip(mistakes, shown, strict=True):
        with pytest.raises(RulesError) as info:
            ruledsl.loads(wrong, "highlow.rules")
        assert str(info.value).splitlines()[0] == expected.splitlines()[0]


def test_step_12_prints_what_simulate_prints():
    from click.testing import CliRunner

    from ruledsl.cli import main

    def simulate(*extra):
        result = CliRunner().invoke(main, ["simulate", str(GAME), "-n", "200", "--seed", "1", *extra])
        assert result.exit_code == 0, result.output
        return result.output

    shown_games, shown_statistics = blocks(12, "")
    out = simulate()
    assert out.startswith(shown_games) and shown_statistics in out
    for players, hand, held in (("4", "10", 84), ("4", "12", 198)):  # the page's "84 of 200 games, with 12 in 198"
        out = simulate("-p", players, "--set", f"hand_size={hand}")
        assert f"statistic deck_ran_out: held in {held} of 200 games" in out
    assert "up in 84 of 200 games, with `hand_size=12` in 198" in section("Step 12:").replace("\n", " ")
