"""``ruledsl.search`` is :mod:`ruledsl.play.search`: the documented path, kept as the same module."""

import sys

from .play import search as _module

sys.modules[__name__] = _module
