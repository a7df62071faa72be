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
@click.option("--auto/--no-auto", default=True, show_default=True,
              help="Make a move by itself when it is your only legal one, and say so.")
def play_command(file, players, seats, seed, sets, bot_name, auto) -> None:
    """Play FILE at the terminal: you choose the moves of your seats, bots the others'."""
    from ..engine.observe import move_seen
    from ..engine.setlog import building
    from ..engine.table import changes, in_window, table_view, window_open
    from ..play.botbase import decide, sight_for
    from ..play.bots import make_bot

    game = _load_game(file, sets)
    n = _check_players(game, players)
    humans = set(seats or (0,))
    for seat in humans:
        if not 0 <= seat < n:
            raise CliError(f"--seat {seat}: the seats are 0 to {n - 1}")
    watcher = min(humans)  # whose table the effects of moves are told from
    bots = {p: make_bot(bot_name, seed=seed * 31 + p) for p in range(n) if p not in humans}
    opener, picked, table = "", [], None  # a bot's set of cards being built, shown once done
    passing: dict = {}  # human seat -> the window they pass for the rest of
    try:
        state = game.new_game(n, seed)
        sight = sight_for(state, bots)
        while not state.is_over:
            player = state.current_player
            legal = state.legal_moves()
            for seat, window in list(passing.items()):
                if not window_open(state, window):
                    del passing[seat]
            if player in bots:
                bot = bots[player]
                move = decide(bot, state, player, legal, sight)
                before = state.clone()
                if table is None:
                    table = table_view(before, watcher)
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
                _tell(f"player {player} ({bot.label}): {seen}", changes(table, table_view(state, watcher)))
                table = None
                continue
            window = in_window(state)
            why = None
            if window is not None and passing.get(player) == window and any(m.name == "pass" for m in legal):
                move, why = next(m for m in legal if m.name == "pass"), "passing for the rest of this window"
            elif auto and len(legal) == 1:
                move, why = legal[0], "the only move"
            else:
                move = _ask_move(state, player, legal, table_view(state, player),
                                 window is not None and any(m.name == "pass" for m in legal))
                if move is None:
                    click.echo("game left unfinished")
                    return
                if move == "window":
                    passing[player] = window
                    move, why = next(m for m in legal if m.name == "pass"), "passing for the rest of this window"
            before = table_view(state, watcher)
            text = state.describe(move)
            state.apply(move)
            if why is not None or not building(state):
                _tell(f"player {player} (you): {text}" + (f" ({why})" if why else ""),
                      changes(before, table_view(state, watcher)))
    except RulesRuntimeError as err:
        _fail_at_runtime(game, err, file, sets)
    click.echo("game over" + (f": {state.finding}" if state.finding else ""))
    for p, score in enumerate(state.scores):
        mark = "  winner" if p in state.winners else ""
        click.echo(f"  player {p}{' (you)' if p in humans else ''}: {score}{mark}")


def _tell(line: str, changed: list) -> None:
    """A move, and what it did as the table shows it."""
    click.echo(line)
    if changed:
        click.echo("    " + "; ".join(changed))


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
    built = view.get("building")
    if built is not None:
        cards = ", ".join(built["cards"]) or "no cards yet"
        click.echo(f"  building {built['move']}: {{{cards}}}"
                   + (f"; {built['condition']}" if built["condition"] else ""))


def _ask_move(state, player: int, legal: list, view: dict, window: bool = False):
    """Show the player's table and read a move number; None when input ends or they quit, "window"
    when they pass for the rest of a response window (``window``: the decision is one)."""
    _show_view(view)
    for i, m in enumerate(legal, 1):
        click.echo(f"  {i:>2}) {state.describe(m)}")
    if window:
        click.echo("   w) pass for the rest of this window")
    keys = ", w" if window else ""
    while True:
        try:
            answer = click.prompt(f"player {player}, your move (1-{len(legal)}{keys}, q to quit)",
                                  default="", show_default=False)
        except (click.Abort, EOFError):
            click.echo()
            return None
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return None
        if window and answer == "w":
            return "window"
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        click.echo(f"  type a number from 1 to {len(legal)}{keys}, or q")
