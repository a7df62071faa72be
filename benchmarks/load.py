"""How long start-up takes, each measure in fresh Python processes, beside issue #24's targets.

    python benchmarks/load.py                       # every game, the best of 5 runs of each measure
    python benchmarks/load.py --runs 9 --game trolley_car

A fresh process is what the command line pays on every call. First, for the whole package:
`python -c "import ruledsl"` (wall time of the process, beside `python -c pass`). Then per game:

- `ruledsl.load(...)` + `new_game()` in a fresh process whose user cache is filled (the built
  parser, the parsed tree and the compiled generated module, see ruledsl/language/diskcache.py; one
  process is run first to fill it): the time from before the first `import ruledsl` to after
  `new_game()`, so it includes importing the pipeline;
- the same with every cache off (`RULEDSL_CACHE_DIR=""`);
- a second load + `new_game()` of the same file in the same process;
- `ruledsl check FILE`: the wall time of the whole command (Python's own start included) and its
  CPU time (user + system, from the operating system's account of the child).

Each figure is the minimum over the runs (the machine's other work only ever adds time); the
median is printed beside the check's. The targets of issue #24 part 3 are printed beside their
measures: `import ruledsl` ≤ 150 ms, `ruledsl check games/trolley_car.rules` ≤ 300 ms wall, a
second load + new_game of the same file ≤ 100 ms (on a quiet machine). Nothing is asserted.
Run it with bytecode on (PYTHONDONTWRITEBYTECODE unset, as an installed ruledsl has): otherwise
every import compiles its module's source.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"import": 150.0, "check": 300.0, "again": 100.0}  # ms, issue #24 part 3
PROBE = """
import json, sys, time
w0, c0 = time.perf_counter(), time.process_time()
import ruledsl
ruledsl.load(sys.argv[1]).new_game()
w1, c1 = time.perf_counter(), time.process_time()
ruledsl.load(sys.argv[1]).new_game()
w2, c2 = time.perf_counter(), time.process_time()
print(json.dumps([(w1 - w0) * 1000, (c1 - c0) * 1000, (w2 - w1) * 1000, (c2 - c1) * 1000]))
"""

def fresh(path: Path, env: dict) -> list[float]:
    """In a fresh process, in ms: wall and CPU time of the first load + new_game (with the imports
    it needs), then wall and CPU time of a second one."""
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                         check=True, env=env, cwd=ROOT).stdout
    return json.loads(out)


def command(args: list[str], env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms) of running ``python ARGS`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], capture_output=True, check=True, env=env, cwd=ROOT)
    wall = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def verdict(value: float, target: float) -> str:
    return f"{value:.0f} (≤ {target:.0f}: {'met' if value <= target else 'over'})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per measure (default 5)")
    parser.add_argument("--game", action="append", help="only this game (a name in games/, repeatable)")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    games = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
    if args.game:
        games = [p for p in games if p.stem in args.game or p.name in args.game]
    env = dict(os.environ)
    off = dict(env, RULEDSL_CACHE_DIR="")
    for path in games:
        fresh(path, env)  # fill the caches
    command(["-c", "import ruledsl"], env)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average {load:.1f}; "
          f"best of {runs} fresh processes per measure (ms)")
    nothing = min(command(["-c", "pass"], env)[0] for _ in range(runs))
    imported = [command(["-c", "import ruledsl"], env) for _ in range(runs)]
    print(f"python -c pass: {nothing:.0f} wall; python -c \"import ruledsl\": "
          f"{verdict(min(w for w, _ in imported), TARGETS['import'])} wall, {min(c for _, c in imported):.0f} CPU")
    print()
    print("| Rules file | load + new_game, fresh process, cache filled: wall, CPU | the same, no cache: wall "
          f"| second load + new_game in the process: wall (target ≤ {TARGETS['again']:.0f}), CPU "
          f"| `ruledsl check`: wall (target ≤ {TARGETS['check']:.0f}), median wall, CPU |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for path in games:
        warm = [fresh(path, env) for _ in range(runs)]
        cold = min(fresh(path, off)[0] for _ in range(max(1, runs // 2)))
        check = [command(["-m", "ruledsl", "check", str(path)], env) for _ in range(runs)]
        walls = [w for w, _ in check]
        best = [min(r[i] for r in warm) for i in range(4)]
        print(f"| {path.name} | {best[0]:.0f}, {best[1]:.0f} | {cold:.0f} | "
              f"{verdict(best[2], TARGETS['again'])}, {best[3]:.0f} | "
              f"{verdict(min(walls), TARGETS['check'])}, {statistics.median(walls):.0f}, "
              f"{min(c for _, c in check):.0f} |")
    print()
    print("The targets are for wall time on a quiet machine; on a busy one the wall time mostly measures "
          "the wait for a core: read the CPU time beside it, and the load average.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
