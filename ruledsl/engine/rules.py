"""Running a compiled rule: a Python error inside one becomes the rules author's finding.

Also the generated code of a program (:func:`flow_of`), made once and kept with it.
"""

from __future__ import annotations

from ..checker.limits import MAX_WORK
from ..compiler.flowgen import Flow
from ..compiler.program import MAX_TRIGGER_FIRINGS, Program
from ..language.errors import RulesRuntimeError
from .moves import Move

MAX_WORK_PER_MOVE = MAX_WORK  # units of work between two decisions (compiler/work.py weighs each step)


def flow_of(program: Program) -> Flow:
    """The program's generated code (flowgen.py), made on first use and kept with the program."""
    flow = program.flow
    if flow is None:
        flow = program.flow = Flow(program, Move, MAX_TRIGGER_FIRINGS)
    return flow


def _run_rule(fn, s, L, span):
    try:
        return fn(s, L)
    except RulesRuntimeError:
        raise
    except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
        raise RulesRuntimeError(f"a rule could not be carried out: {_explain(exc)}", span) from None


def _explain(exc: Exception) -> str:
    """A Python error inside a compiled rule, in the rules author's words."""
    text = str(exc)
    if "NoneType" in text:
        return "a value is none where a card or a number is needed (no card there, or a variable never set)"
    if isinstance(exc, IndexError):
        return "an index is outside its zone or variable"
    return text
