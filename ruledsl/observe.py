"""``ruledsl.observe`` is :mod:`ruledsl.engine.observe`: the documented path, kept as the same module."""

import sys

from .engine import observe as _module

sys.modules[__name__] = _module
