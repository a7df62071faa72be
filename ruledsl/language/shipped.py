"""Where the files shipped with ruledsl are: the grammar and the library of rules files."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent  # the package folder (ruledsl/)


def data_path(*parts: str) -> Path:
    """A file shipped with ruledsl: inside an installed wheel, or at the top of a checkout."""
    installed = _HERE.joinpath("_data", *parts)
    if installed.exists():
        return installed
    top = {"grammar": _HERE.parent / "grammar", "lib": _HERE.parent / "games" / "lib"}[parts[0]]
    return top.joinpath(*parts[1:])
