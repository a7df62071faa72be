"""A designer's desk: tools around a rules file rather than the language itself.

- :mod:`.symbols`  the names a rules file declares, with their comments (hover, definition, completion)
- :mod:`.lsp`      the language server (``ruledsl lsp``), built on pygls
- :mod:`.lexer`    the Pygments lexer for ``.rules`` files
- :mod:`.textmate` the TextMate grammar of editors/ruledsl.tmLanguage.json
- :mod:`.graph`    the flow of a game as a Graphviz diagram (``ruledsl graph``)
- :mod:`.viewer`   a local web page that shows a game, seat by seat (``ruledsl view``)
- :mod:`.commands` the click commands above, registered by the CLI

pygls, Pygments and selenium come with the ``desk`` extra: ``pip install -e '.[desk]'``.
"""
