"""A Pygments lexer for ``.rules`` files (rules and scenarios).

Registered under the entry point group ``pygments.lexers``, so after
installing ruledsl ``pygmentize -l ruledsl FILE`` highlights a file and
documentation tools highlight fenced blocks marked ``rules``. The keywords are
the quoted words of the grammar, read when this module loads.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

from ..checker import types as T
from .symbols import grammar_keywords

# Words that open a declaration: the name after them is being defined.
DECLARING = ("param", "enum", "kind", "deck", "zone", "var", "define", "procedure", "trigger", "invariant",
             "choose", "move", "scenario")
CONSTANTS = ("true", "false", "none")
BUILTINS = tuple(sorted(set(T.BUILTINS) | set(T.AGGREGATES) | set(T.FOLDS)))
SPECIAL = tuple(sorted(T.SPECIAL_NAMES))
# `players` opens the `players 2..6` declaration and is the list of players in expressions.
KEYWORDS = tuple(w for w in grammar_keywords() if w not in DECLARING and w not in CONSTANTS and w not in SPECIAL)


class RuledslLexer(RegexLexer):
    """Rules files of ruledsl, the card-game rules language."""

    name = "ruledsl"
    aliases = ["ruledsl", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-ruledsl"]
    url = "https://example.invalid/ruledsl"  # no public site yet

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"([^"\\\n]|\\.)*"', String.Double),
            (r"\b(" + "|".join(DECLARING) + r")(\s+)([A-Za-z_][A-Za-z0-9_]*)",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\bplayers\b(?=\s+[0-9])", Keyword),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(KEYWORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(BUILTINS, prefix=r"\b", suffix=r"\b(?=\s*\()"), Name.Builtin),
            (words(SPECIAL, prefix=r"\b", suffix=r"\b"), Name.Builtin.Pseudo),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"[0-9]+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|\+=|-=|[-+*/%<>=]", Operator),
            (r"[{}()\[\],:.]", Punctuation),
            (r"[^\x00-\x7F\s(),:{}\[\]\"#]+", String.Symbol),  # card symbols such as the suits of 7♥
            (r".", Error),  # nothing a rules file may hold
        ],
    }
