"""``ruledsl.sim`` is :mod:`ruledsl.play.sim`: the documented path, kept as the same module."""

import sys

from .play import sim as _module

sys.modules[__name__] = _module
