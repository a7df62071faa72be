"""`ruledsl play` in a real terminal: tmux runs it, the test types keys and reads the screen.

One Tramwaje game, three players, seat 0 at the keyboard, the `first` bot in the others (so the
game goes the same way every run): seat 0 attacks, building the attack's set card by card while the
table shows the cards chosen and the strength so far; the forced `strike` is made by itself; the
attack's effect is told; later a response window asks seat 0, who passes for the rest of it.
CI installs tmux (.ci/run); the test is not skipped there."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux")

if TMUX is None and not os.environ.get("CI"):
    pytest.skip("tmux is not installed (apt-get install tmux)", allow_module_level=True)


class Terminal:
    """A tmux session running one command, wide and tall enough for Tramwaje's table."""

    def __init__(self, command: list[str]):
        self.name = f"ruledsl-test-{uuid.uuid4().hex[:8]}"
        env = f"PYTHONPATH={shlex.quote(str(ROOT))} COLUMNS=160"
        shell = f"cd {shlex.quote(str(ROOT))} && {env} {' '.join(map(shlex.quote, command))}; sleep 60"
        subprocess.run([TMUX, "new-session", "-d", "-s", self.name, "-x", "160", "-y", "50", shell], check=True)
        subprocess.run([TMUX, "set-option", "-t", self.name, "history-limit", "20000"], check=True)

    def screen(self) -> str:
        """Everything the terminal has shown, its scrollback too."""
        out = subprocess.run([TMUX, "capture-pane", "-p", "-J", "-S", "-", "-t", self.name],
                             capture_output=True, text=True, check=True)
        return out.stdout

    def wait_for(self, text: str, after: int = 0, timeout: float = 60) -> int:
        """Wait until ``text`` shows after position ``after`` of the screen; where it ends."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.screen()
            at = shown.find(text, after)
            if at >= 0:
                return at + len(text)
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed; the screen:\n{self.screen()[after:]}")

    def type(self, keys: str) -> None:
        subprocess.run([TMUX, "send-keys", "-t", self.name, keys, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run([TMUX, "kill-session", "-t", self.name], check=False)


@pytest.fixture
def terminal():
    t = Terminal([sys.executable, "-m", "ruledsl", "play", "games/tramwaje.rules", "--players", "3",
                  "--seat", "0", "--seed", "0", "--bot", "first"])
    yield t
    t.close()


def test_a_tramwaje_attack_built_card_by_card_and_a_window_passed(terminal):
    t = terminal
    at = t.wait_for("player 0, your move (1-13, q to quit):")
    assert "~uses~" not in t.screen()  # the counts the moves' bounds keep are bookkeeping: not on the table
    assert "moves_played=0" in t.screen()
    t.type("11")  # attack_player(player 1); its only next move, strike, is made by itself
    at = t.wait_for("player 0 (you): strike (the only move)", at)
    at = t.wait_for("building strike: {no cards yet}; sum(strength(c) for each c in cs) is 0 so far; "
                    "done when >= 5", at)
    t.type("1")  # add(7♦)
    at = t.wait_for("building strike: {7♦}; sum(strength(c) for each c in cs) is 7 so far; done when >= 5", at)
    t.type("1")  # add(9♣)
    at = t.wait_for("building strike: {7♦, 9♣}; sum(strength(c) for each c in cs) is 16 so far", at)
    at = t.wait_for("   9) done", at)
    t.type("9")
    at = t.wait_for("player 0 (you): done\n    7♦, 9♣ hand[0] → battle", at)
    # strength 16 is an offer you can't refuse: the victim's hand is shown, two cards taken
    at = t.wait_for("player 1 (first): endure\n    hand[1] shown: 7♣, 8♥, J♣", at)
    at = t.wait_for("deciding `seize`", at)
    t.type("1")
    at = t.wait_for("player 0 (you): take(7♣)\n    7♣ hand[1] → hand[0]", at)
    at = t.wait_for("deciding `seize`", at)
    t.type("1")
    at = t.wait_for("hand[1] no longer shown: J♣", at)
    at = t.wait_for("12) end_move", at)
    t.type("12")
    at = t.wait_for("player 0 (you): end_move\n    moves_played 0 → 1", at)
    # a response window: seat 0 could make an offer, and passes for the rest of the window
    at = t.wait_for("--- player 0, deciding `offers`", at)
    at = t.wait_for("   w) pass for the rest of this window\nplayer 0, your move (1-2, w, q to quit):", at)
    t.type("w")
    at = t.wait_for("player 0 (you): pass (passing for the rest of this window)", at)
    at = t.wait_for("--- player 0, deciding `offers`", at)  # the next window asks again
    t.type("q")
    t.wait_for("game left unfinished", at)
