"""A move as the engine takes it: a name and its arguments (card ids, players, enum positions, numbers,
true/false)."""

from __future__ import annotations

import re

import attrs

from ..language.errors import IllegalMove

_ARG = r"\s*(?:-?[0-9]+|true|false)\s*"
_MOVE_TEXT = re.compile(rf"([A-Za-z_][A-Za-z0-9_]*)(?:\(({_ARG}(?:,{_ARG})*|\s*)\))?")


def _arg_text(a) -> str:
    return ("true" if a else "false") if isinstance(a, bool) else str(a)


def _arg_of(text: str):
    text = text.strip()
    return True if text == "true" else False if text == "false" else int(text)


@attrs.frozen(order=True)
class Move:
    """One move a player may make: the name of an option of a decision and its arguments."""

    name: str
    args: tuple = ()

    def __str__(self) -> str:
        return self.name + (f"({', '.join(map(_arg_text, self.args))})" if self.args else "")

    def to_json(self) -> list:
        return [self.name, *self.args]

    @classmethod
    def parse(cls, value) -> "Move":
        """A move from a Move, a list/tuple ``[name, *args]`` or text such as ``play(17)``; an argument is a
        whole number or true/false (a move option over ``{false, true}``)."""
        if isinstance(value, Move):
            return value
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
            args = value[1:]
            if all(isinstance(a, int) for a in args):  # bool is an int: true/false options
                return cls(value[0], tuple(args))
        if isinstance(value, str):
            found = _MOVE_TEXT.fullmatch(value.strip())
            if found:
                inner = found.group(2)
                args = tuple(_arg_of(a) for a in inner.split(",")) if inner and inner.strip() else ()
                return cls(found.group(1), args)
        raise IllegalMove(value, "a move is a name and numbers or true/false, like play(17), "
                                 "[\"play\", 17] or [\"order_up\", true]")
