"""Scenarios, tests a designer writes in the rules language: their syntax (:mod:`.syntax`),
running them (:mod:`.runner`) and the pytest plugin (:mod:`.pytest_plugin`)."""
