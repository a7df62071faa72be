"""How long start-up takes for each game, each in a fresh Python process.

    python benchmarks/load.py              # 5 fresh processes per game, median
    python benchmarks/load.py --runs 9

A fresh process is what the command line pays on every call. Per game: `import ruledsl`
(lazy: next to nothing); `ruledsl.load(...)` + `new_game()` with the user's cache filled
(the built parser, the parsed tree and the compiled generated module, see
ruledsl/language/diskcache.py; one process is run first to fill it), the same with every cache
turned off (RULEDSL_CACHE_DIR=""), a second load + new_game of the same file in the same
process, and the wall time of the whole command `ruledsl check FILE` (Python's start
included). Nothing is asserted. Run it with bytecode on (PYTHONDONTWRITEBYTECODE unset, as an
installed ruledsl has): otherwise every import compiles its module's source.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json, sys, time
t0 = time.perf_counter()
import ruledsl
t1 = time.perf_counter()
ruledsl.load(sys.argv[1]).new_game()
t2 = time.perf_counter()
ruledsl.load(sys.argv[1]).new_game()
t3 = time.perf_counter()
print(json.dumps([(t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000]))
"""


def fresh(path: Path, env: dict) -> tuple[float, float, float]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                         check=True, env=env, cwd=ROOT).stdout
    return tuple(json.loads(out))


def check_wall(path: Path, env: dict) -> float:
    """Milliseconds of wall time of `ruledsl check FILE` in a fresh process."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ruledsl", "check", str(path)], capture_output=True,
                   check=True, env=env, cwd=ROOT)
    return (time.perf_counter() - t) * 1000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per game (default 5)")
    args = parser.parse_args(argv)
    games = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
    env = dict(os.environ)
    off = dict(env, RULEDSL_CACHE_DIR="")
    for path in games:
        fresh(path, env)  # fill the caches
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; median of {args.runs} fresh processes")
    print("| Rules file | import ruledsl (ms) | load + new_game (ms) | the same, no cache (ms) "
          "| again in the process (ms) | `ruledsl check` wall (ms) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for path in games:
        runs = [fresh(path, env) for _ in range(args.runs)]
        cold = statistics.median(fresh(path, off)[1] for _ in range(max(1, args.runs // 2)))
        check = statistics.median(check_wall(path, env) for _ in range(args.runs))
        print(f"| {path.name} | {statistics.median(r[0] for r in runs):.0f} | "
              f"{statistics.median(r[1] for r in runs):.0f} | {cold:.0f} | "
              f"{statistics.median(r[2] for r in runs):.0f} | {check:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
