"""How long `ruledsl.load` takes for each game, each in a fresh Python process.

    python benchmarks/load.py              # 5 fresh processes per game, median
    python benchmarks/load.py --runs 9

A fresh process is what the command line pays on every call. `import ruledsl` is timed
apart from `ruledsl.load(...)`. The Lark parser is kept on disk after the first build
(ruledsl/grammar_cache.py); one process is run first to fill that cache, and the last
column shows a load with the cache turned off (RULEDSL_CACHE_DIR=""). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json, sys, time
t0 = time.perf_counter()
import ruledsl
t1 = time.perf_counter()
ruledsl.load(sys.argv[1])
t2 = time.perf_counter()
print(json.dumps([(t1 - t0) * 1000, (t2 - t1) * 1000]))
"""


def fresh(path: Path, env: dict) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                         check=True, env=env, cwd=ROOT).stdout
    return tuple(json.loads(out))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per game (default 5)")
    args = parser.parse_args(argv)
    games = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
    env = dict(os.environ)
    off = dict(env, RULEDSL_CACHE_DIR="")
    fresh(games[0], env)  # fill the cache
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; median of {args.runs} fresh processes")
    print(f"| Rules file | import ruledsl (ms) | ruledsl.load (ms) | load, no parser cache (ms) |")
    print("| --- | ---: | ---: | ---: |")
    for path in games:
        runs = [fresh(path, env) for _ in range(args.runs)]
        cold = statistics.median(fresh(path, off)[1] for _ in range(max(1, args.runs // 2)))
        print(f"| {path.name} | {statistics.median(r[0] for r in runs):.0f} | "
              f"{statistics.median(r[1] for r in runs):.0f} | {cold:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
