"""``ruledsl.coverage`` is :mod:`ruledsl.engine.coverage`: the documented path, kept as the same module."""

import sys

from .engine import coverage as _module

sys.modules[__name__] = _module
