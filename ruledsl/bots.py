"""``ruledsl.bots`` is :mod:`ruledsl.play.bots`: the documented path, kept as the same module."""

import sys

from .play import bots as _module

sys.modules[__name__] = _module
