"""Stage 1, the language: rules text to a syntax tree.

The grammar is ``grammar/ruledsl.lark`` (the reference of the syntax);
:mod:`.parse` builds the Lark parser (kept on disk by :mod:`.grammar_cache`)
and turns a parse tree into the frozen nodes of :mod:`.ast`, rewriting the
constructs that are written in terms of others (:mod:`.setmoves`,
:mod:`.togethersets`, :mod:`.windows`); :mod:`.assemble` follows ``include``
and ``extends``. :mod:`.errors` holds every error type a user can meet, for
every stage. This stage imports no other stage.
"""
