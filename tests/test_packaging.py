"""An installed wheel carries the grammar and the rules library and runs without the source tree."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_grammar_and_library(tmp_path):
    from hatchling.builders.wheel import WheelBuilder

    wheel = Path(next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path / "dist"), versions=["standard"])))
    names = zipfile.ZipFile(wheel).namelist()
    assert "ruledsl/_data/grammar/ruledsl.lark" in names
    assert "ruledsl/_data/lib/standard.rules" in names

    # A wheel is a zip of the installed files: unpack it and run from elsewhere.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    game = ROOT / "games" / "trolley_car.rules"
    code = (
        "import ruledsl, sys; "
        "assert ruledsl.__file__.startswith(sys.argv[1]), ruledsl.__file__; "
        f"g = ruledsl.load({str(game)!r}); s = g.new_game(players=2, seed=1); print(s.decision)"
    )
    run = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PATH": ""})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "declare"
