"""A move as the engine takes it: a name and whole-number arguments (card ids, players, numbers)."""

from __future__ import annotations

import re

import attrs

from ..language.errors import IllegalMove

_MOVE_TEXT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\((\s*-?[0-9]+\s*(?:,\s*-?[0-9]+\s*)*|\s*)\))?")


@attrs.frozen(order=True)
class Move:
    """One move a player may make: the name of an option of a decision and its arguments."""

    name: str
    args: tuple = ()

    def __str__(self) -> str:
        return self.name + (f"({', '.join(map(str, self.args))})" if self.args else "")

    def to_json(self) -> list:
        return [self.name, *self.args]

    @classmethod
    def parse(cls, value) -> "Move":
        """A move from a Move, a list/tuple ``[name, *args]`` or text such as ``play(17)``."""
        if isinstance(value, Move):
            return value
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
            args = value[1:]
            if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
                return cls(value[0], tuple(args))
        if isinstance(value, str):
            found = _MOVE_TEXT.fullmatch(value.strip())
            if found:
                inner = found.group(2)
                args = tuple(int(a) for a in inner.split(",")) if inner and inner.strip() else ()
                return cls(found.group(1), args)
        raise IllegalMove(value, "a move is a name and numbers, like play(17) or [\"play\", 17]")
