"""Stage 3, the compiler: a checked Model to a Program the engine runs.

:mod:`.compiler` is the front (``compile_model``); the compiler is one class
made of a part per concept: the card universe and the table's layout
(:mod:`.layout`), expressions (:mod:`.expressions`, built-in calls in
:mod:`.calls`, picks and keys in :mod:`.picking`), statements and flow
(:mod:`.statements`, loops in :mod:`.loops`), growing families
(:mod:`.members`), showing cards (:mod:`.showing`), choosing together
(:mod:`.together`). What it gives the engine is plain data
(:mod:`.program`, the step kinds of :mod:`.steps`); :mod:`.flowgen` writes the
flow out as one generated Python module, with the tables of :mod:`.purity`,
the statement source of :mod:`.stmtsrc` (its text read by :mod:`.srctext`) and
the answers of :mod:`.listed` (an `any` the moves listed before answer). :mod:`.rng` is the seeded generator
the compiled rules draw from. It imports the language and checker stages.
"""
