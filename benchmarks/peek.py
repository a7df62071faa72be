"""What hidden cards are worth to a bot: the ladder's games with one bot shown what its player may not see.

    python benchmarks/peek.py --game uno --bot ismcts --opponent greedy --games 100              # the others' hands
    python benchmarks/peek.py --game uno --bot ismcts --opponent greedy --games 100 --sees all    # the real state
    python benchmarks/peek.py --game whist --bot greedy --opponent greedy --games 100

A probe, not a bot anyone should play: the seats of ``--bot`` are dealt worlds that cheat. With
``--sees hands`` (the default) every card that lies in another player's zone (a hand, a card just
drawn: any zone but the stack ``deck`` and the player's own) is kept where it really is in every
world the bot samples, and only the stack and what the player may see are dealt as fair worlds deal
them (with what the player saw go hidden and what the others' moves ruled out, as in play); with
``--sees all`` every world is the real state, the stack's order too. The opponent plays fair. Games
are the ladder's (benchmarks/ladder.py: the same seeds, pairs with seats swapped, search bots at
``--seconds`` of CPU time per decision).

It measures why a game's ladder does not separate two bots (docs/bots.md, "The ladder"): if a search
bot that sees the others' hands beats the fair bot below it by far while the fair search does not,
the search is sound and what it lacks is what a fair player cannot know. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ladder import LADDER_GAMES, searching  # noqa: E402  (the ladder's games and its bots' names)
from matches import measure  # noqa: E402  (games between two bots, summed up as a row)

import ruledsl.play.sim as sim  # noqa: E402
from ruledsl.engine.worlds import Knowledge  # noqa: E402
from ruledsl.play.botbase import seen  # noqa: E402

STACK = "deck"  # the zone a probe of the others' hands leaves to chance


class RealWorld:
    """Knowledge that is the real state: each sample is a copy of it."""

    def __init__(self, state, player: int):
        self.player = player
        self.world = state

    def sample(self, rng):
        return self.world.clone()

    def view(self) -> dict:
        return self.world.view(self.player)


def peeking(sees: str, probed: str, counts: dict):
    """sim.decide for a game where the seats whose bot is ``probed`` (its label: name and settings) see
    what ``sees`` says; ``counts`` gets the decisions each label made, probed or fair."""
    fair = sim.decide

    def decide(bot, state, player, legal, sight=None):
        if bot.label != probed or not bot.wants_worlds:
            counts[("fair", bot.label)] = counts.get(("fair", bot.label), 0) + 1
            return fair(bot, state, player, legal, sight)
        counts[("probed", bot.label)] = counts.get(("probed", bot.label), 0) + 1
        view = state.view(player) if bot.wants_view else None
        if sees == "all":
            return bot.choose(view, legal, RealWorld(state, player))
        known, rules = seen(state, player, sight)
        known = dict(known or {})
        names = [z.name for z in state.program.zones]
        own = f"[{player}]"
        for card, zone in enumerate(state.loc):
            if zone >= 0 and names[zone] != STACK and not names[zone].endswith(own):
                known[card] = zone
        return bot.choose(view, legal, Knowledge(state, player, known, rules))

    return decide


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=list(LADDER_GAMES), help="a game of the ladder")
    ap.add_argument("--bot", default="ismcts", help="the bot that sees more (a search bot, or greedy)")
    ap.add_argument("--opponent", default="greedy", help="the fair bot it plays against")
    ap.add_argument("--sees", choices=("hands", "all"), default="hands",
                    help="hands: the cards in the other players' zones (not the stack); all: the real state")
    ap.add_argument("--games", type=int, default=100, help="games (an even number: pairs with seats swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=0.05, help="CPU time per decision of a search bot")
    ap.add_argument("--progress", action="store_true", help="print the row after every game to stderr, as JSON")
    args = ap.parse_args()
    if args.games < 2 or args.games % 2:
        ap.error(f"--games {args.games}: give an even number, 2 or more")
    bot, opponent = searching(args.bot, args.seconds), searching(args.opponent, args.seconds)
    if bot == opponent:
        ap.error("--bot and --opponent are the same: give the probed bot another setting to tell the seats apart")
    path, params, players = LADDER_GAMES[args.game]
    counts: dict = {}
    sim.decide = peeking(args.sees, bot, counts)
    report = (lambda r: print(json.dumps(r), file=sys.stderr, flush=True)) if args.progress else None
    row = measure(path, params, bot, opponent, args.games, args.seed, paired=True, players=players,
                       progress=report)
    if set(counts) - {("probed", bot), ("fair", opponent)} or ("probed", bot) not in counts:
        raise SystemExit(f"the probe did not see the seats apart: decisions by kind and bot {counts}")
    low, high = row["ci95"]
    seen = "the real state" if args.sees == "all" else "the others' hands"
    print(f"{row['game']}: {bot} seeing {seen} won "
          f"{row['win_rate']:.0%} of {row['games']} games against {opponent} ({low:.0%} to {high:.0%}); "
          f"{row['pairs_split']} of {row['pairs']} pairs split; {row['iterations_per_decision']:.0f} iterations "
          f"and {row['cpu_seconds_per_decision'] * 1000:.0f} ms of CPU a decision")


if __name__ == "__main__":
    main()
