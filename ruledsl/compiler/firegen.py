"""The trigger check of a generated module (flowgen.py): ``_fire``, and its calls after effects.

After each effect that changes what some trigger reads, ``_fire(s, L, ch)`` runs: the triggers whose
condition holds fire, first declared first, until none holds. ``ch`` is the effect's change mask; the
first round asks only the triggers that read a family in it (``Program.trigger_masks``), since every
trigger was false at the check before (``State._quiet``) and nothing else they read has changed. Where
every condition can be asked without the locals, the conditions are asked in place after the effect
instead (firecheck.py), and ``_fire`` is called only when one holds.

A part of the generator, split out by concept: a mixin of :class:`flowgen.Flow`, whose ``_line``,
``_cond``, ``_names``, ``program``, ``watched``, ``weights`` and ``ns`` it uses.
"""

from __future__ import annotations

from .firecheck import constant_values, held_lines, in_place
from .slotref import put_for_slot
from .srctext import reads_only_slot, rules_line


class TriggerCheck:
    """The lines of ``_fire`` and of the check after an effect (a mixin of flowgen.Flow)."""

    def _fire_call(self, pc: int, where: str, changed, indent: str = "    ") -> None:
        """The trigger check after the effect of step ``pc``, whose change mask is ``changed`` (a
        constant, or the name of the variable that holds it)."""
        pre = self._fire_precheck()
        if pre is None:
            self._line(f"{indent}s.pc = {pc + 1}{where}", pc)
            self._line(f"{indent}if _fire(s, L, {changed}):", pc)
            self._line(f"{indent}    return -1", pc)
            return
        # _fire only when some trigger's condition holds; else what _fire leaves when none does. The
        # step to go on from is set only for _fire (the test reads no pc; every way out of the stretch
        # that does not fire sets pc again: a decision, the end, or the step it returns)
        test, leaves, _ = pre
        self._line(f"{indent}if {test}:{where}", pc)
        self._line(f"{indent}    s.pc = {pc + 1}", pc)
        self._line(f"{indent}    if _fire(s, L, _held):", pc)
        self._line(f"{indent}        return -1", pc)
        if leaves:
            self._line(f"{indent}else:", pc)
            for text in leaves:
                self._line(f"{indent}    {text}", pc)

    def _fire_precheck(self):
        """firecheck.in_place for this program (worked out once), or None: _fire is called."""
        if not hasattr(self, "_pre"):
            self._pre = in_place(self.program.triggers, self._names())
        return self._pre

    def _fire_fn(self) -> None:
        """Triggers whose condition holds run, first declared first, until none holds.
        Returns True if a trigger's body ended the game."""
        p = self.program
        self._line("")
        if not p.triggers:
            self._line("def _fire(s, L):")
            self._line("    return False")
            return
        # `held`: the number of the test of the check in place that held first (_fire_precheck), whose
        # trigger and variables are set without asking the conditions again; 0: the check asks them
        pre = self._fire_precheck()
        # `ch`: the families the effect changed. Every trigger was found false by the last check (s._quiet,
        # see State), so the first round asks only the triggers that read what the effect changed: the
        # others would find what they found then, and leave their variable as it is. After a firing,
        # and while s._quiet is false (a new game, a position set up by hand), all are asked.
        masks = p.trigger_masks if pre is None and len(p.trigger_masks) == len(p.triggers) else None
        if masks is not None and all(m == -1 or m & self.watched == self.watched for m in masks):
            masks = None  # every check after an effect asks every trigger (one trigger, or all read alike)
        self._line("def _fire(s, L, held=0):" if pre is not None else "def _fire(s, L, ch=-1):")
        if masks is not None:
            self._line("    if not s._quiet:")
            self._line("        ch = -1")
        self._line("    fired = 0")
        self._line("    while True:")
        out = "        "
        if pre is not None:
            for text in held_lines(pre[2]):
                self._line(f"        {text}")
            out = "            "
        self._line(f"{out}t = -1")
        for i, t in enumerate(p.triggers):
            span = t.span
            where = f"  # trigger {t.name}, {rules_line(span)}"
            cond = self._cond(t.cond)
            guard = ["t < 0"] if i else []
            if masks is not None and masks[i] != -1:
                guard.append(f"ch & {masks[i]}")
            pad = out + "    " if guard else out
            if guard:
                self._line(f"{out}if {' and '.join(guard)}:", t.span)
            values = constant_values(t)
            fixed = values is not None
            if fixed and reads_only_slot(cond, t.slot):
                # a few values known when compiling, and a condition that reads the trigger's variable
                # only as L[slot]: each value written into the test (the constants fold); L[slot] is
                # left as the step-by-step check leaves it (the value that held, else the last one)
                for k, v in enumerate(values):
                    test = put_for_slot(cond, t.slot, str(v))
                    self._line(f"{pad}{'if' if k == 0 else 'elif'} {test}:{where if k == 0 else ''}", t.span)
                    self._line(f"{pad}    t = {i}", t.span)
                    self._line(f"{pad}    L[{t.slot}] = {v}", t.span)
                self._line(f"{pad}else:", t.span)
                self._line(f"{pad}    L[{t.slot}] = {values[-1]}", t.span)
            elif fixed:
                # a few values known when compiling (an enum): one test after another, no loop
                for k, v in enumerate(values):
                    inner = pad + "    " * k
                    self._line(f"{inner}L[{t.slot}] = {v}{where if k == 0 else ''}", t.span)
                    self._line(f"{inner}if {cond}:", t.span)
                    self._line(f"{inner}    t = {i}", t.span)
                    if k < len(values) - 1:
                        self._line(f"{inner}else:", t.span)
            elif t.domain is not None:
                self._line(f"{pad}for L[{t.slot}] in {self._expr(t.domain)}:{where}", t.span)
                self._line(f"{pad}    if {cond}:", t.span)
                self._line(f"{pad}        t = {i}", t.span)
                self._line(f"{pad}        break", t.span)
            else:
                self._line(f"{pad}if {cond}:{where}", t.span)
                self._line(f"{pad}    t = {i}", t.span)
        self._line("        if t < 0:")
        if masks is not None:
            self._line("            s._quiet = True")
        self._line("            return False")
        if masks is not None:
            self._line("        ch = -1")
        self._line("        fired += 1")
        self._line("        if fired > _MAX_FIRINGS:")
        self._line("            s._keeps_firing(t)")
        self.ns["_TRIGGER_BODIES"] = [t.body for t in p.triggers]
        self.ns["_W"] = self.weights
        self.ns["_CHECK"] = getattr(p, "trigger_work", 0)
        self._line("        pc = _TRIGGER_BODIES[t]")
        # the work of the checks again after this firing and of the body's stretches, taken off the
        # triggers' budget of this move (work.py; State._charge_triggers makes it, and says when it is spent)
        self._line("        _left = s._trigger_work")
        self._line("        if _left is None:")
        self._line("            s._charge_triggers(t, 0)")
        self._line("            _left = s._trigger_work")
        self._line("        _left[0] -= _CHECK")
        self._line("        while pc >= 0:")
        self._line("            _left[0] -= _W[pc]")
        self._line("            if _left[0] < 0:")
        self._line("                s._charge_triggers(t, 0)")
        self._line("            pc = _BLOCKS[pc](s, L)")
        self._line("        if pc == -1:")
        self._line("            return True")
