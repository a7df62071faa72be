"""``ruledsl.pytest_plugin`` is :mod:`ruledsl.scenarios.pytest_plugin`: the documented path, kept as the same module."""

import sys

from .scenarios import pytest_plugin as _module

sys.modules[__name__] = _module
