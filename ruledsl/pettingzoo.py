"""``ruledsl.pettingzoo`` is :mod:`ruledsl.adapters.pettingzoo`: the documented path, kept as the same module."""

import sys

from .adapters import pettingzoo as _module

sys.modules[__name__] = _module
