"""Stage 2, the checker: a syntax tree to a checked Model, every error at once.

:mod:`.declare` reads the declarations into the Model's symbol tables;
:mod:`.check` walks the bodies (:mod:`.statements`, :mod:`.expressions`,
questions about a subtree in :mod:`.treewalk`) with the typing rules of
:mod:`.types`, the attribute guards of :mod:`.guards` and the size limits of
:mod:`.limits`. It imports only the language stage.
"""
