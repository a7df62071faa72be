"""The TextMate grammar of ``.rules`` files, for editors that take one (VS Code, Sublime Text, ...).

``python -m ruledsl.desk.textmate > editors/ruledsl.tmLanguage.json`` writes
it; its keywords are the quoted words of grammar/ruledsl.lark, as the test of
the file checks.
"""

from __future__ import annotations

import json

from ..checker import types as T
from .lexer import BUILTINS, CONSTANTS, DECLARING
from .symbols import grammar_keywords


def _alternatives(names) -> str:
    return "\\b(" + "|".join(sorted(names)) + ")\\b"


def textmate_grammar() -> dict:
    keywords = [w for w in grammar_keywords() if w not in DECLARING and w not in CONSTANTS]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "ruledsl",
        "scopeName": "source.ruledsl",
        "fileTypes": ["rules"],
        "patterns": [
            {"include": "#comment"},
            {"include": "#string"},
            {"include": "#declaration"},
            {"include": "#keyword"},
            {"include": "#constant"},
            {"include": "#builtin"},
            {"include": "#number"},
            {"include": "#operator"},
        ],
        "repository": {
            "comment": {"name": "comment.line.number-sign.ruledsl", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.ruledsl", "begin": '"', "end": '"',
                "patterns": [{"name": "constant.character.escape.ruledsl", "match": "\\\\."}],
            },
            "declaration": {
                "match": "\\b(" + "|".join(DECLARING) + ")\\s+([A-Za-z_][A-Za-z0-9_]*)",
                "captures": {"1": {"name": "storage.type.ruledsl"}, "2": {"name": "entity.name.function.ruledsl"}},
            },
            "keyword": {"name": "keyword.control.ruledsl", "match": _alternatives(keywords)},
            "constant": {"name": "constant.language.ruledsl", "match": _alternatives(CONSTANTS)},
            "builtin": {"name": "support.function.ruledsl",
                        "match": _alternatives(set(BUILTINS) | set(T.SPECIAL_NAMES))},
            "number": {"name": "constant.numeric.ruledsl", "match": "\\b[0-9]+\\b"},
            "operator": {"name": "keyword.operator.ruledsl", "match": "\\.\\.|==|!=|<=|>=|\\+=|-=|[-+*/%<>=]"},
        },
    }


def main() -> None:
    print(json.dumps(textmate_grammar(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
