"""``ruledsl.scenario`` is :mod:`ruledsl.scenarios.runner`: the documented path, kept as the same module."""

import sys

from .scenarios import runner as _module

sys.modules[__name__] = _module
