"""``ruledsl play``: a game at the terminal, the humans' seats asked for their moves, bots in the others."""

from __future__ import annotations

import click

from ..language.errors import RulesRuntimeError
from .common import (
    CliError,
    _check_bots,
    _check_players,
    _fail_at_runtime,
    _load_game,
    _plural,
    main,
)


@main.command("play")
@click.argument("file")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players [default: the fewest the game allows].")
@click.option("--seat", "seats", type=int, multiple=True,
              help="A seat you play (repeatable) [default: seat 0]; bots play the others.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the random generator.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Set a parameter of the rules file.")
@click.option("--bot", "bot_name", default="random", show_default=True, metavar="BOT[:KEY=VALUE,...]",
              callback=_check_bots, help="The bot in the other seats (see docs/bots.md).")
def play_command(file, players, seats, seed, sets, bot_name) -> None:
    """Play FILE at the terminal: you choose the moves of your seats, bots the others'."""
    from ..engine.observe import move_seen
    from ..engine.setlog import building
    from ..play.botbase import decide
    from ..play.bots import make_bot

    game = _load_game(file, sets)
    n = _check_players(game, players)
    humans = set(seats or (0,))
    for seat in humans:
        if not 0 <= seat < n:
            raise CliError(f"--seat {seat}: the seats are 0 to {n - 1}")
    bots = {p: make_bot(bot_name, seed=seed * 31 + p) for p in range(n) if p not in humans}
    opener, picked = "", []  # a bot's set of cards being built, shown once done
    try:
        state = game.new_game(n, seed)
        while not state.is_over:
            player = state.current_player
            legal = state.legal_moves()
            if player in bots:
                bot = bots[player]
                move = decide(bot, state, player, legal)
                before = state.clone()
                state.apply(move)
                # shown as the human seats may see it: a card none of them can see is a '?'
                seen = move_seen(before, state, move, humans)
                if building(before) and before.actor == player:  # a step of a set: the set is one move
                    if move.name == "add":
                        picked.append(seen[len("add("):-1])
                    if move.name != "done":
                        continue
                    seen = opener + "{" + ", ".join(picked) + "}"
                elif building(state) and state.actor == player and state.decision == move.name:
                    opener, picked = seen, []  # the set's cards are shown when it is done
                    continue
                click.echo(f"player {player} ({bot.label}): {seen}")
                continue
            move = _ask_move(state, player, legal)
            if move is None:
                click.echo("game left unfinished")
                return
            state.apply(move)
    except RulesRuntimeError as err:
        _fail_at_runtime(game, err, file, sets)
    click.echo("game over" + (f": {state.finding}" if state.finding else ""))
    for p, score in enumerate(state.scores):
        mark = "  winner" if p in state.winners else ""
        click.echo(f"  player {p}{' (you)' if p in humans else ''}: {score}{mark}")


def _show_view(view: dict) -> None:
    click.echo(f"--- player {view['player']}, deciding `{view['decision']}`")
    for name, cards in view["zones"].items():
        if not cards or all(c is None for c in cards):
            continue
        if all(c == "?" for c in cards):
            click.echo(f"  {name}: {_plural(len(cards), 'hidden card')}")
        else:
            shown = " ".join("." if c is None else c for c in cards)
            click.echo(f"  {name}: {shown}")
    if view["vars"]:
        click.echo("  " + ", ".join(f"{k}={v}" for k, v in view["vars"].items()))


def _ask_move(state, player: int, legal: list):
    """Show the player's view and read a move number; None when input ends or they quit."""
    _show_view(state.view(player))
    for i, m in enumerate(legal, 1):
        click.echo(f"  {i:>2}) {state.describe(m)}")
    while True:
        try:
            answer = click.prompt(f"player {player}, your move (1-{len(legal)}, q to quit)",
                                  default="", show_default=False)
        except (click.Abort, EOFError):
            click.echo()
            return None
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        click.echo(f"  type a number from 1 to {len(legal)}, or q")
