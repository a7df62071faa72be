"""Games played: bots (:mod:`.bots`, :mod:`.botbase`, tree search in :mod:`.search`,
the worlds a player cannot tell apart in :mod:`.worlds`), headless games and
statistics (:mod:`.sim`), many games in processes or on Dask (:mod:`.scale`)
and balance reports (:mod:`.report`). It builds on the engine."""
