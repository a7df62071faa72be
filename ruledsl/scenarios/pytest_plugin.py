"""A pytest plugin: every scenario of a ``*.test.rules`` file is one pytest item.

pyproject.toml loads it for this repository (``-p ruledsl.pytest_plugin``);
another project can load it the same way. A failing scenario is reported with
its own message (where, the expectation, what was found, the position), not
with a Python traceback; a broken scenario or rules file fails one item that
shows its errors.
"""

from __future__ import annotations

import pytest

from ..language.errors import RulesError
from .runner import SUFFIX, ScenarioFile, load_scenarios


def pytest_collect_file(file_path, parent):
    if file_path.name.endswith(SUFFIX):
        return ScenarioFileNode.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    """A scenario that did not pass; its message is the scenario's report."""


class ScenarioFileNode(pytest.File):
    def collect(self):
        try:
            loaded = load_scenarios(self.path)
            loaded.check()
        except RulesError as err:
            yield BrokenFileItem.from_parent(self, name="<file>", errors=str(err))
            return
        for sc in loaded.scenarios:
            yield ScenarioItem.from_parent(self, name=sc.name, file=loaded, scenario=sc)


class ScenarioItem(pytest.Item):
    def __init__(self, *, file: ScenarioFile, scenario, **kwargs):
        super().__init__(**kwargs)
        self.file = file
        self.scenario = scenario

    def runtest(self) -> None:
        outcome = self.file.run(self.scenario)
        if not outcome.passed:
            raise ScenarioFailed(outcome.message())

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.scenario.span.line - 1, f"scenario {self.scenario.name}"


class BrokenFileItem(pytest.Item):
    def __init__(self, *, errors: str, **kwargs):
        super().__init__(**kwargs)
        self.errors = errors

    def runtest(self) -> None:
        raise ScenarioFailed(self.errors)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, "scenario file"
