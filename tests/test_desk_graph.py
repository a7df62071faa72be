"""`ruledsl graph`: the flow as a Graphviz diagram (DOT, and SVG/PNG through Graphviz's dot)."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.language.assemble import assemble
from ruledsl.checker.check import check
from ruledsl.cli import main
from ruledsl.desk.walk import descendants
from ruledsl.language import ast as A

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "trolley_car.rules"
GAMES = sorted(p for p in ROOT.joinpath("games").glob("*.rules") if not p.name.endswith(".test.rules"))

NODE = re.compile(r'^\s*(n\d+) \[label="((?:[^"\\]|\\.)*)"', re.M)
EDGE = re.compile(r"^\s*(n\d+) -> (n\d+)(?: \[(.*)\])?;", re.M)


def graph(*args):
    result = CliRunner().invoke(main, ["graph", *map(str, args)])
    return result


def parse_dot(text):
    labels = {nid: label.replace("\\n", "\n").replace('\\"', '"') for nid, label in NODE.findall(text)}
    edges = [(a, b, attrs or "") for a, b, attrs in EDGE.findall(text)]
    return labels, edges


def node(labels, start):
    found = [nid for nid, label in labels.items() if label.startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def test_the_flow_of_the_game_as_dot():
    result = graph(GAME)
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("digraph flow {") and text.rstrip().endswith("}")
    labels, edges = parse_dot(text)
    # phases and loops
    repeat = node(labels, "repeat if single_round then 1 else player_count times")
    turns = node(labels, "turns from next(dealer) until round_over")
    assert 'label="play_turn()"' in text and 'label="declarations()"' in text
    # decisions with their moves
    turn = node(labels, "decision turn\nby current")
    moves = {labels[b].split("(")[0].split(" where")[0] for a, b, _ in edges if a == turn}
    assert moves == {"move play", "move draw", "move pass"}
    drawn = node(labels, "decision drawn_card")
    assert {labels[b] for a, b, _ in edges if a == drawn} == {"move play_drawn where fits(c)", "move keep"}
    # the nested decision hangs under the draw move, after the statements that take the card
    draw = node(labels, "move draw")
    take = node(labels, "let c = top(deck)")
    assert any(a == draw and b == take for a, b, _ in edges)
    assert any(a == take and b == drawn for a, b, _ in edges)
    # loops return to their head
    assert any(b == turns and "again" in attrs for _, b, attrs in edges)
    assert any(a == repeat and labels[b] == "deal_round()" for a, b, _ in edges)
    # triggers beside the effects that can make them fire
    lap = node(labels, "trigger lap")
    cross = node(labels, "trigger cross")
    play = node(labels, "move play(")
    fired = {(a, b) for a, b, attrs in edges if "dotted" in attrs}
    assert {(play, lap), (play, cross), (node(labels, "move play_drawn"), lap)} <= fired
    assert not any(a in (node(labels, "move pass where"), node(labels, "move keep")) for a, _ in fired)
    assert not any(a == draw for a, _ in fired)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_decision_of_every_game_is_drawn(path):
    result = graph(path)
    assert result.exit_code == 0, result.output
    model = check(assemble(path.read_text(encoding="utf-8"), str(path)))
    decisions = {n.name for d in list(model.procedures.values()) + [model.flow]
                 for n in descendants(d) if isinstance(n, A.Choose)}
    labels, _ = parse_dot(result.output)
    drawn = {label.split("\n")[0].removeprefix("decision ") for label in labels.values()
             if label.startswith("decision ")}
    assert decisions and drawn == decisions


@pytest.mark.parametrize("fmt, magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_graphviz_renders_svg_and_png(tmp_path, fmt, magic):
    out = tmp_path / f"flow.{fmt}"
    result = graph(GAME, "-o", out)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert magic in data[:400] and len(data) > 5000


def test_a_broken_file_gets_its_errors_and_no_diagram(tmp_path):
    broken = tmp_path / "broken.rules"
    text = GAME.read_text(encoding="utf-8")
    assert "{ lay(c) }" in text
    broken.write_text(text.replace("{ lay(c) }", "{ lay(d) }", 1), encoding="utf-8")
    result = graph(broken, "-o", tmp_path / "x.svg")
    assert result.exit_code == 1
    assert re.search(r"broken\.rules:\d+:\d+: error\[E200\]: unknown name `d`", result.output)
    assert not (tmp_path / "x.svg").exists()
    missing = graph(tmp_path / "nothere.rules")
    assert missing.exit_code == 2 and "does not exist" in missing.output
