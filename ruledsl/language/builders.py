"""The tree builder's methods for tables of constants and copies worked out at setup.

A part of :class:`ruledsl.language.parse._Builder` (a mixin), kept apart so
that parse.py stays one concept: the core statements and expressions.
"""

from __future__ import annotations

from lark import v_args

from . import ast as A


class LaterBuilders:
    """Builder methods for `table`, deck copies from an expression (needs ``_span``)."""

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
    def deck_copies(self, meta, copies, term):
        if isinstance(copies, A.Expr):
            return A.DeckCopies(1, term, copies, span=self._span(meta))
        return A.DeckCopies(int(copies), term, span=self._span(meta))

    @v_args(meta=True, inline=True)
    def deck_table_count(self, meta, name, index):
        table = A.Name(str(name), span=self._tok(name))
        return A.Index(table, (index,), span=self._span(meta))
