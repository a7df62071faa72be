"""``ruledsl.worlds`` is :mod:`ruledsl.play.worlds`: the documented path, kept as the same module."""

import sys

from .play import worlds as _module

sys.modules[__name__] = _module
