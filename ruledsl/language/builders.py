"""The tree builder's methods for tables of constants, copies worked out at setup and labelled moves.

A part of :class:`ruledsl.language.reader._Builder` (a mixin), kept apart so
that reader.py stays one concept: the core statements and expressions.
"""

from __future__ import annotations

from lark import v_args

from . import ast as A
from . import bounds, setmoves, windows


def _unquote(token) -> str:
    """A STRING token's text without its quotes, escapes read."""
    raw = str(token)[1:-1]
    return raw.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in raw else raw


class LaterBuilders:
    """Builder methods for `table`, deck copies from an expression, labelled move parameters, move
    bounds and `until claimed` (needs ``_span`` and a list ``hidden``)."""

    @v_args(meta=True, inline=True)
    def table_def(self, meta, name, index, *entries):
        return A.TableDef(str(name), index, tuple(entries), span=self._span(meta))

    @v_args(meta=True, inline=True)
    def table_entry(self, meta, key, value):
        low, high = key
        return A.TableEntry(low, high, value, span=self._span(meta))

    @v_args(inline=True)
    def key_one(self, key):
        return key, None

    @v_args(inline=True)
    def key_range(self, low, high):
        return low, high

    def key_else(self, _children):
        return None, None

    @v_args(meta=True, inline=True)
    def option_param(self, meta, name, domain, label=None):
        if label is not None:
            label = (A.StrLit(_unquote(label), span=self._tok(label)) if label.type == "STRING"
                     else A.Name(str(label), span=self._tok(label)))
        return A.OptionParam(str(name), domain, label, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def return_stmt(self, meta, value):
        return A.Return(value, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def swap_stmt(self, meta, first, second):
        return A.Swap(first, second, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deck_copies(self, meta, copies, term):
        if isinstance(copies, A.Expr):
            return A.DeckCopies(1, term, copies, span=self._span(meta))
        return A.DeckCopies(int(copies), term, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deck_table_count(self, meta, name, index):
        table = A.Name(str(name), span=self._tok(name))
        return A.Index(table, (index,), span=self._span(meta))

    @v_args(meta=True)
    def respond_stmt(self, meta, children):
        name, var, domain, start, where, claimed, *options = children
        chooser = A.Name(str(var), span=self._span(meta))
        options, resets = self._bounded(options, chooser, True)
        options = setmoves.expand_all(options, chooser)
        return windows.expand(str(name), str(var), domain, start, where, tuple(options), self._span(meta),
                              claimed is not None, tuple(resets))

    def claimed(self, _children):
        return True

    def _bounded(self, options, chooser, in_window: bool) -> tuple:
        """The moves with their bounds written out (bounds.py); the variables they count in are
        declared with the file, and the window's resets are returned."""
        options, decls, resets = bounds.apply(options, chooser, in_window)
        self.hidden.extend(decls)
        return options, resets

    @v_args(meta=True)
    def move_bound(self, meta, children):
        count, *pers = children
        return bounds.make(count, pers, self._span(meta))

    @v_args(meta=True)
    def move_once(self, meta, pers):
        return bounds.make(A.IntLit(1, span=self._span(meta)), pers, self._span(meta))

    @v_args(inline=True)
    def bound_per(self, name):
        return name
