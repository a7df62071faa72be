"""Verification of any rules file: the engine's invariants and the rules' own, checked with hypothesis.

:mod:`.checks` plays games move by move and checks every promise after each
step, shrinks a failure and replays logs; :mod:`.parallel` splits a run over
processes. It builds on the engine (and its worlds, :mod:`ruledsl.engine.worlds`).
"""

from __future__ import annotations

from .checks import Failure, Report, checks_of, replay_log, verify

__all__ = ["Failure", "Report", "checks_of", "replay_log", "verify"]
