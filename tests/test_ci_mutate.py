"""A test suite is whole when changing any rule breaks a test: CI's mutate step (.ci/run) runs `ruledsl mutate`
on every game in games/, and this test keeps a new game from being left out of it unnoticed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Games CI does not mutate yet, each with the reason. A game leaves this list when `ruledsl mutate` reports
# 0 unmarked survivors for it and it is added to .ci/run.
NOT_MUTATED_IN_CI: dict[str, str] = {}  # none today: every game is whole


def mutated_in_ci() -> set[str]:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace("\\\n", " ")
    [loop] = [line for line in script.splitlines() if line.startswith("for g in ") and "ruledsl mutate" in
              script.split(line, 1)[1].split("done", 1)[0]]
    return set(re.findall(r"games/(\w+)\.rules", loop))


def games() -> set[str]:
    return {p.name[:-len(".rules")] for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules")}


def test_every_game_is_mutated_in_ci_or_named_with_a_reason():
    assert games() - set(NOT_MUTATED_IN_CI) == mutated_in_ci()


def test_an_exception_names_a_game_that_exists_and_has_a_reason():
    assert set(NOT_MUTATED_IN_CI) <= games()
    assert all(why.strip() for why in NOT_MUTATED_IN_CI.values())
