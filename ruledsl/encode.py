"""``ruledsl.encode`` is :mod:`ruledsl.adapters.encode`: the documented path, kept as the same module."""

import sys

from .adapters import encode as _module

sys.modules[__name__] = _module
