"""Rules files for learning libraries: a fixed encoding of actions and observations
(:mod:`.encode`), OpenSpiel games (:mod:`.openspiel`) and PettingZoo environments
(:mod:`.pettingzoo`)."""
