"""The measuring scripts of scripts/ still run on the engine as it is (they measure only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_move_work_counts_the_work_of_moves_with_triggers():
    # Trolley Car's moves fire triggers (a card reaching the end of its track): their work counts too
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "move_work.py"), "1", "games/trolley_car.rules"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    (row,) = [line for line in out.stdout.splitlines() if line.startswith("| trolley_car.rules |")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    largest, mean, moves = (int(cells[i].replace(",", "")) for i in (2, 4, 5))
    assert 0 < mean <= largest and moves > 2  # a setup and moves at two player counts
