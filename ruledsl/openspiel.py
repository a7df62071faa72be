"""``ruledsl.openspiel`` is :mod:`ruledsl.adapters.openspiel`: the documented path, kept as the same module."""

import sys

from .adapters import openspiel as _module

sys.modules[__name__] = _module
