"""A position set up and read by name: cards placed into zones, variables set and read, defines worked out.

:class:`Positions` is a part of :class:`~ruledsl.engine.state.State` (a
mixin) for scenarios, tests and tools: they name zones, cards and variables
as the rules file does, and these methods find the numbers behind the names.
"""

from __future__ import annotations

from ..checker.declare import SEATS_OUT
from ..language.errors import ParameterError, Span
from .rules import _run_rule


class Positions:
    """Setting up and reading a position by name (see the module's docstring)."""

    __slots__ = ()

    def cards_named(self, label: str) -> list[int]:
        """The ids of the cards shown as ``label`` (two decks give two ids per label)."""
        return [c for c, text in enumerate(self.program.card_labels) if text == label]

    def zone_id(self, name: str) -> int:
        key = name.replace(" ", "")
        for z in self.program.zones:
            if z.name.replace(" ", "") == key:
                if z.owner is not None and z.owner >= self.n:
                    break
                return z.zid
        known = ", ".join(z.name for z in self.program.zones if (z.owner is None or z.owner < self.n)
                          and (z.exists is None or self.vars[z.exists]))
        raise ParameterError(f"there is no zone {name!r} (zones: {known})")

    def cards_in(self, zone: str) -> list[str]:
        """The labels of the cards in a zone, bottom to top (a track: slot by slot, None for empty)."""
        z = self.program.zones[self.zone_id(zone)]
        if z.places:
            return [None if self.places[q] < 0 else self.card_label(self.places[q]) for q in z.places]
        return [self.card_label(c) for c in self.zones[z.zid]]

    def place(self, card, zone: str, slot: int | None = None) -> int:
        """Move one card (an id, or a label: the first such card not already there) to the top of
        ``zone``, or into ``slot`` of a track. Returns the card's id. Triggers do not run."""
        zid = self.zone_id(zone)
        z = self.program.zones[zid]
        if z.exists is not None and not self.vars[z.exists]:
            raise ParameterError(f"{z.name} is not open; open the member first (State.new_member)")
        if isinstance(card, str):
            ids = self.cards_named(card)
            if not ids:
                raise ParameterError(f"there is no card {card!r}")
            elsewhere = [c for c in ids if self.loc[c] != zid
                         and not (self.loc[c] < 0 and -self.loc[c] - 1 in z.places)]
            cid = (elsewhere or ids)[0]
        else:
            cid = card
            if not isinstance(cid, int) or not 0 <= cid < self.program.card_count:
                raise ParameterError(f"there is no card {card!r}")
        if z.places:
            if slot is None or not 0 <= slot < len(z.places):
                raise ParameterError(f"{z.name} is a track: give a slot from 0 to {len(z.places) - 1}")
            q = z.places[slot]
            if self.places[q] >= 0 and self.places[q] != cid:
                raise ParameterError(f"slot {slot} of {z.name} already holds {self.card_label(self.places[q])}")
        elif slot is not None:
            raise ParameterError(f"{z.name} has no slots; only tracks do")
        old = self.loc[cid]
        if old >= 0:
            self.zones[old].remove(cid)
        else:
            self.places[-old - 1] = -1
        if z.places:
            self.places[z.places[slot]] = cid
            self.loc[cid] = -z.places[slot] - 1
        else:
            self.zones[zid].append(cid)
            self.loc[cid] = zid
        self._set_by_hand()
        return cid

    def new_member(self, family: str, **values) -> int:
        """Open the lowest free member of a growing family, as `new` does: ``new_member("meld[0]")``
        gives the member's number. ``values`` set the member's variables (enum values by name)."""
        p = self.program
        key = family.replace(" ", "")

        def prefix(z):  # `meld[0, 3]` -> `meld[0]`; `pool[3]` -> `pool`
            head = z.name.replace(" ", "").rsplit(",", 1)[0] + "]" if len(z.index) > 1 else z.family
            return head

        zones = [z for z in p.zones if z.exists is not None and "." not in z.family and prefix(z) == key
                 and (z.owner is None or z.owner < self.n)]
        if not zones:
            raise ParameterError(f"there is no growing zone family {family!r}")
        free = [z for z in zones if not self.vars[z.exists]]
        if not free:
            raise ParameterError(f"{family} already has {len(zones)} members, the most it may have")
        z = free[0]
        self.vars[z.exists] = True
        flat = z.zid - p.zone_families[z.family][0]
        for base, fn in p.member_inits.get(z.family, ()):
            self.vars[base + flat] = _run_rule(fn, self, self.locals.copy(), Span())
        number = z.index[-1] + 1
        for name, value in values.items():
            self.set_var(f"{z.name}.{name}", value)
        self._set_by_hand()
        return number

    def stack(self, zone: str, labels: list) -> list[int]:
        """Put the named cards on top of ``zone`` so the first label ends on top: stacks a deck."""
        return [self.place(card, zone) for card in reversed(labels)]

    def set_var(self, name: str, value) -> None:
        """Set a variable such as ``dealer`` or ``rank[red]``: a number, true/false, an enum value's
        name, or a card label."""
        p = self.program
        index = self._var_index(name)
        if isinstance(value, str):
            labels = self.cards_named(value)
            enum_values = {v: i for e in getattr(p, "enums", {}).values() for i, v in enumerate(e)}
            if value in enum_values:
                value = enum_values[value]
            elif labels:
                value = labels[0]
            else:
                raise ParameterError(f"{value!r} is neither a card nor an enum value")
        self.vars[index] = value
        self._set_by_hand()

    def players_left(self) -> list[int] | None:
        """The players who have left the game (`leave`), in seat order; None if the rules never use `leave`."""
        family = self.program.var_families.get(SEATS_OUT)
        if family is None:
            return None
        return [p for p in range(self.n) if self.vars[family[0] + p]]

    def get_var(self, name: str):
        return self.vars[self._var_index(name)]

    def evaluate(self, name: str, *args):
        """The value of the rules' ``define name(...)`` here, for ``args`` (docs/api.md); ParameterError
        for an unknown define or arguments that do not fit, RulesRuntimeError if the rule fails."""
        from .evaluate import evaluate

        return evaluate(self, name, *args)

    def _var_index(self, name: str) -> int:
        key = name.replace(" ", "")
        for i, label in enumerate(self.program.var_names):
            if label.replace(" ", "") == key:
                return i
        raise ParameterError(f"there is no variable {name!r} (variables: {', '.join(self.program.var_names)})")

    def card_locations(self) -> dict[int, list[str]]:
        """Where every card is, found by scanning every zone: card id -> zone names."""
        where: dict[int, list[str]] = {c: [] for c in range(self.program.card_count)}
        for z in self.program.zones:
            if z.places:
                continue
            for c in self.zones[z.zid]:
                where.setdefault(c, []).append(z.name)
        seen_places = set()
        for z in self.program.zones:
            for q in z.places:
                if q in seen_places:
                    continue
                seen_places.add(q)
                c = self.places[q]
                if c >= 0:
                    where.setdefault(c, []).append(f"{z.name} slot {z.places.index(q)}")
        return where

    def broken_invariants(self) -> list[str]:
        """The rules file's own invariants that do not hold here, as messages."""
        out = []
        L = self.locals.copy()
        for inv in self.program.invariants:
            values = _run_rule(inv.domain, self, L, inv.span) if inv.domain is not None else (None,)
            for v in list(values):
                if inv.slot is not None:
                    L[inv.slot] = v
                if not _run_rule(inv.cond, self, L, inv.span):
                    what = f" for {v}" if inv.slot is not None else ""
                    out.append(f"invariant `{inv.name}`{what} is broken" + (f": {inv.message}" if inv.message else ""))
        return out
