"""The ``ruledsl`` command: check rules files, run games between bots, simulate many.

Every command lives in the module of its concept and registers itself on the
one command group, :data:`main` (:mod:`.common`, which also holds the exit
codes and the helpers the commands share). A command's module is imported when
the command is first asked for (:func:`_load`), so that ``ruledsl check`` starts
quickly; ``ruledsl.cli:main`` is the console script.

- :mod:`.games`: ``check``, ``run``, ``simulate``;
- :mod:`.verify_replay`: ``verify``, ``replay``;
- :mod:`.terminal`: ``play``;
- :mod:`.testing`: ``test`` (scenarios);
- :mod:`.scale` and :mod:`.compare`: many games in processes or on Dask, ``compare``;
- :mod:`.compile`: ``compile``;
- :mod:`.desk`: ``lsp``, ``graph``, ``view``.
"""

from __future__ import annotations

from .common import main

_LOADED: set = set()


def _load(name: str | None) -> None:
    """Import the module that adds command ``name`` to :data:`main` (every module for None or a
    name not listed here); each one once."""
    if name in ("check", "run", "simulate"):
        from . import games  # noqa: F401 - adds its commands to main
    elif name in ("verify", "replay"):
        from . import verify_replay  # noqa: F401
    elif name == "compile":
        from . import compile  # noqa: F401
    elif name == "play":
        from . import terminal  # noqa: F401
    elif name == "compare":
        from . import compare  # noqa: F401
    elif name == "test":
        _add("test")
    elif name in ("lsp", "graph", "view"):
        _add("desk")
    else:
        from . import compare, compile, games, terminal, verify_replay  # noqa: F401, F811
        _add("test")
        _add("desk")


def _add(which: str) -> None:
    """The commands made with click.command (not on main): added once."""
    if which in _LOADED:
        return
    _LOADED.add(which)
    if which == "test":
        from .testing import test_command

        main.add_command(test_command)
    else:
        from .desk import COMMANDS

        for command in COMMANDS:
            main.add_command(command)


main.loader = _load

__all__ = ["main"]
