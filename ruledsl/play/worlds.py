"""``ruledsl.play.worlds`` is :mod:`ruledsl.engine.worlds`, kept as the same module.

Worlds a player cannot tell apart live in the engine stage, so that the bots
(play/) and the learning environments (adapters/, OpenSpiel's
``ResampleFromInfostate``) sample the same worlds without importing each other."""

import sys

from ..engine import worlds as _module

sys.modules[__name__] = _module
