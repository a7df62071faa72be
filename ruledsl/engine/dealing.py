"""A game that cannot be set up for some player counts with some parameters, said before it starts.

A parameter's range is checked when the rules are loaded, but whether the
cards go round depends on the player count too: a deal of 51 cards each from
one 104-card deck works for 2 players and not for 3. When the setup of a new game (the flow up to
its first decision) fails, :func:`setup_failure` tries the other player
counts with the same parameters: if some of them can be set up, the fault is
the combination of parameters and players, told as a ParameterError that says
which counts fit; with the file's own parameters it is the rules' fault (their
player range or a parameter's value), told as a finding at the failing rule.
"""

from __future__ import annotations

from ..language.errors import ParameterError, RulesRuntimeError
from .rules import MAX_WORK_PER_MOVE

MAX_COUNTS_TRIED = 12  # the other counts tried
# The work all those tries may do together (units of work, compiler/work.py): a setup that loops endlessly
# would otherwise do its MAX_WORK_PER_MOVE once per count (12 times over, several seconds for a loop of a
# few statements). A real setup does a few thousand units per count; when the budget runs out the counts
# not tried yet are not counted as fitting.
TRIES_WORK = MAX_WORK_PER_MOVE


def setup_failure(game, players: int, err: RulesRuntimeError) -> Exception:
    """What to raise when setting up a game for ``players`` failed with ``err``."""
    p = game.program
    fine = []
    steps = [TRIES_WORK]
    for n in range(p.min_players, min(p.max_players, p.min_players + MAX_COUNTS_TRIED - 1) + 1):
        if n == players:
            continue
        if steps[0] <= 0:
            break
        try:
            game.new_game(n, 0, _diagnose=False, _steps=steps)
        except (RulesRuntimeError, ParameterError):
            continue
        fine.append(n)
    if not fine:
        return err  # no player count can be set up: a rule, whatever the parameters
    given = {k: v for k, v in p.params.items() if k in p.param_defaults and p.param_defaults[k] != v}
    counts = _counts(fine)
    if not given:
        return RulesRuntimeError(
            f"{err.message} (the setup fails for {players} players and works for {counts}: the file's "
            f"`players` line or its parameters' values do not hold for every player count it allows)", err.span)
    values = ", ".join(f"{k}={_text(v)}" for k, v in given.items())
    own = ", ".join(f"{k}={_text(p.param_defaults[k])}" for k in given)
    return ParameterError(
        f"{p.name} cannot be set up for {players} players with {values} (at {err.span}: {err.message}); "
        f"with {'this value' if len(given) == 1 else 'these values'} it is for {counts} only: play with "
        f"{'that count' if len(fine) == 1 else 'one of those counts'}, or give {'another value' if len(given) == 1 else 'other values'} "
        f"(the file's own: {own})")


def _text(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _counts(ns: list) -> str:
    """``[2, 3, 4]`` -> ``2 to 4 players``; ``[2, 5]`` -> ``2 or 5 players``."""
    if len(ns) == 1:
        return f"{ns[0]} player{'s' if ns[0] != 1 else ''}"
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]} players"
    return ", ".join(map(str, ns[:-1])) + f" or {ns[-1]} players"
