"""``ruledsl.parse`` is :mod:`ruledsl.language.parse`: the documented path, kept as the same module."""

import sys

from .language import parse as _module

sys.modules[__name__] = _module
