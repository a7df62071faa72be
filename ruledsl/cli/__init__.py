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
- :mod:`.new`: ``new`` (a game to start from);
- :mod:`.mutate`: ``mutate`` (do the scenarios notice when a rule changes?);
- :mod:`.desk`: ``lsp``, ``graph``, ``view``;
- :mod:`.tune`: ``tune`` (parameters that meet a target);
- :mod:`.explain`: ``explain`` (the rules as a rulebook).
"""

from __future__ import annotations

from importlib import import_module

from .common import include_dir_option, main

_LOADED: set = set()

#: the module that adds each command to :data:`main` (imported when the command is asked for)
_MODULES = {
    "check": "games", "run": "games", "simulate": "games", "verify": "verify_replay", "replay": "verify_replay",
    "compile": "compile", "play": "terminal", "compare": "compare", "explain": "explain", "tune": "tune",
    "mutate": "mutate", "new": "new", "test": "testing", "lsp": "desk", "graph": "desk", "view": "desk",
}


def _load(name: str | None) -> None:
    """Import the module that adds command ``name`` to :data:`main` (every module for None or a
    name not listed here); each one once. Every command then gets --include-dir."""
    wanted = [_MODULES[name]] if name in _MODULES else sorted(set(_MODULES.values()))
    for module in wanted:
        if module in _LOADED:
            continue
        _LOADED.add(module)
        if module == "testing":
            from .testing import test_command

            main.add_command(test_command)
        elif module == "desk":
            from .desk import COMMANDS

            for command in COMMANDS:
                main.add_command(command)
        else:
            import_module(f"{__name__}.{module}")
    for command in main.commands.values():  # --include-dir on every command, the last option added
        if not any(p.name == "include_dir" for p in command.params):
            command.params.append(include_dir_option())

main.loader = _load

__all__ = ["main"]
