"""``ruledsl mutate``: do a game's scenarios notice when a rule changes?

Mutation testing for rules files. :mod:`.operators` makes single changes of a
rules file from its syntax tree (a comparison flipped, a ``where`` dropped, a
``shuffle`` removed, a zone made public ...); :mod:`.run` runs the game's
scenarios (its ``.test.rules`` file) against each, in one process or several;
:mod:`.comments` reads the designer's ``# mutate: equivalent — why`` marks and
the comment blocks survivors are grouped by; :mod:`.report` prints the
survivors as diffs, or JSON. A mutant no scenario fails on *survived*: a rule
the tests do not pin down. docs/language.md §10.6 describes the command.

No other module of ruledsl imports this package; the command is added to the
CLI by :mod:`ruledsl.cli_mutate`.
"""

from .operators import OPERATORS, Mutant, generate

__all__ = ["OPERATORS", "Mutant", "generate"]
