"""The ``ruledsl`` command: check rules files, run games between bots, simulate many.

Every command lives in the module of its concept and registers itself on the
one command group, :data:`main` (:mod:`.common`, which also holds the exit
codes and the helpers the commands share). Importing this package brings them
all in; ``ruledsl.cli:main`` is the console script.

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

from . import (  # noqa: F401 - each adds its commands to main
    compare,
    compile,
    explain,
    games,
    mutate,
    new,
    terminal,
    tune,
    verify_replay,
)
from .common import include_dir_option, main
from .desk import COMMANDS as _DESK_COMMANDS
from .testing import test_command

main.add_command(test_command)
for _command in _DESK_COMMANDS:
    main.add_command(_command)
for _command in main.commands.values():  # --include-dir on every command, the last option added
    _command.params.append(include_dir_option())

__all__ = ["main"]
