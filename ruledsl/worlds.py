"""``ruledsl.worlds`` is :mod:`ruledsl.engine.worlds`: the documented path, kept as the same module."""

import sys

from .engine import worlds as _module

sys.modules[__name__] = _module
