"""The expectations of a scenario (`expect ...`), each checked against the position reached.

:class:`Expectations` is a part of the scenario runner (:mod:`.runner`, a
mixin): one method per kind of expectation, each raising the failure that
:mod:`.outcome` shows with the position.
"""

from __future__ import annotations

from ..engine.moves import Move
from ..engine.state import State
from ..language.errors import (
    IllegalMove,
    ParameterError,
    RulesRuntimeError,
)
from .outcome import (
    _RULE_ERRORS,
    _SHOWN,
    _Error,
    _Failed,
    _finding,
    _moves_text,
    _names,
    _value_text,
)
from .syntax import (
    Expect,
    MoveText,
)


class Expectations:
    """The `expect` statements of a scenario (see the module's docstring)."""

    def do_expect(self, s: State, e: Expect) -> None:
        getattr(self, "expect_" + e.kind)(s, e, *e.args)
        self.checked += 1

    def expect_holds(self, s: State, e: Expect, expr) -> None:
        inv, sides = self.expects[id(e)]  # every game of the file is compiled with every expectation
        try:
            ok = inv.cond(s, s.locals.copy())
        except RulesRuntimeError as err:
            raise _Failed(e, f"it cannot be worked out: {_finding(err)}", s, _names(expr)) from None
        except _RULE_ERRORS as exc:
            raise _Failed(e, f"it cannot be worked out: {exc}", s, _names(expr)) from None
        if not ok:
            values = [f"{text} is {_value_text(s, fn, t)}" for text, fn, t in sides
                      if t in _SHOWN or t.startswith("enum:")]
            raise _Failed(e, "; ".join(values) if values else "it does not hold", s, _names(expr))

    def expect_legal(self, s: State, e: Expect, moves) -> None:
        legal = {s.describe(m) for m in s.legal_moves()} | {s.describe(m, names=True) for m in s.legal_moves()}
        missing = [str(m) for m in moves if str(m) not in legal]
        if missing:
            raise _Failed(e, f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not legal "
                             f"(legal: {_moves_text(s)})", s)

    def expect_illegal(self, s: State, e: Expect, move: MoveText, reason) -> None:
        if self.find(s, move) is not None:
            raise _Failed(e, f"{move} is legal", s)
        if reason is None:
            return
        why = self.reason(s, move)
        if reason not in why:
            raise _Failed(e, f"{move} is illegal, but the reason given is: {why}", s)

    def reason(self, s: State, text: MoveText) -> str:
        args = []
        for i, (kind, value) in enumerate(text.args):
            if kind == "card":
                ids = s.cards_named(value)
                place = text.place(i)
                if place is not None:
                    ids = [c for c in ids if s.card_place(c) == place]
                if not ids:
                    return f"there is no card {value}" + (f" in {place}" if place is not None else "")
                args.append(ids[0])
            elif kind == "name" and value in ("true", "false"):
                args.append(value == "true")
            elif kind == "name":
                idx = [e.index(value) for e in [*s.program.enums.values(), *s.program.enum_labels.values()]
                       if value in e]
                if not idx:
                    return f"`{value}` is neither a card nor an enum value"
                args.append(idx[0])
            else:
                args.append(value)
        try:
            s.clone().apply(Move(text.name, tuple(args)))
        except IllegalMove as err:
            return err.reason
        except RulesRuntimeError as err:
            return f"a rule failed: {_finding(err)}"
        return "it is legal"

    def expect_moves(self, s: State, e: Expect, name, moves) -> None:
        listed = [m for m in s.legal_moves() if name is None or m.name == name]
        legal = list(dict.fromkeys(s.describe(m) for m in listed))
        wanted = {str(m) for m in moves}
        if set(legal) != wanted and set(dict.fromkeys(s.describe(m, names=True) for m in listed)) != wanted:
            what = f"the legal {name} moves are" if name else "the legal moves are"
            raise _Failed(e, f"{what} {', '.join(legal) or 'none'}", s)

    def expect_decision(self, s: State, e: Expect, name, by) -> None:
        if s.over:
            raise _Failed(e, "the game is over", s)
        if s.decision != name or (by is not None and s.current_player != by):
            raise _Failed(e, f"player {s.current_player} decides `{s.decision}`", s)

    def expect_over(self, s: State, e: Expect) -> None:
        if not s.over:
            raise _Failed(e, f"the game goes on: player {s.current_player} decides `{s.decision}`", s)

    def expect_not_over(self, s: State, e: Expect) -> None:
        if s.over:
            raise _Failed(e, "the game is over" + (f" ({s.finding})" if s.finding else ""), s)

    def expect_scores(self, s: State, e: Expect, scores) -> None:
        found = self.value(s, e, lambda: s.scores)
        if list(scores) != found:
            raise _Failed(e, "scores " + ", ".join(map(str, found)), s)

    def expect_winners(self, s: State, e: Expect, winners) -> None:
        if not s.over:
            raise _Failed(e, f"the game goes on: player {s.current_player} decides `{s.decision}`", s)
        found = self.value(s, e, lambda: s.winners)
        if sorted(winners) != found:
            raise _Failed(e, "winners " + (", ".join(map(str, found)) or "none") + "; scores "
                          + ", ".join(map(str, s.scores)), s)

    def value(self, s: State, e: Expect, fn):
        try:
            return fn()
        except RulesRuntimeError as err:
            raise _Failed(e, f"a rule failed: {_finding(err)}", s) from None
        except _RULE_ERRORS as exc:
            raise _Failed(e, f"a rule could not be carried out: {exc}", s) from None

    def expect_cards(self, s: State, e: Expect, ref, labels) -> None:
        z = self.zone(s, ref)
        found = [c for c in s.cards_in(z.name) if c is not None]
        wanted = [c for c in labels if c is not None]
        if sorted(found) != sorted(wanted):
            raise _Failed(e, f"{z.name}: {' '.join(found) or 'none'}", s, {ref.name})

    def expect_slots(self, s: State, e: Expect, ref, first, labels) -> None:
        z = self.zone(s, ref)
        slots = s.cards_in(z.name)
        size = len(z.places)
        if not size:
            raise _Error(f"{z.name} has no slots; only tracks do (write `{z.name}: ...`)", ref.span)
        if not 0 <= first < size:
            raise _Error(f"{z.name} has slots 0 to {size - 1}, not {first}", e.span)
        found = [slots[(first + i) % size] for i in range(len(labels))]
        if found != list(labels):
            shown = " ".join("none" if c is None else c for c in found)
            raise _Failed(e, f"{z.name} at {first}: {shown}", s, {ref.name})

    def expect_card_in(self, s: State, e: Expect, label, ref) -> None:
        z = self.zone(s, ref)
        if not s.cards_named(label):
            raise _Error(f"there is no card {label} in this game", e.span)
        if label not in s.cards_in(z.name):
            raise _Failed(e, f"{z.name}: {' '.join(c for c in s.cards_in(z.name) if c) or 'none'}", s, {ref.name})

    def expect_card_not_in(self, s: State, e: Expect, label, ref) -> None:
        z = self.zone(s, ref)
        if not s.cards_named(label):
            raise _Error(f"there is no card {label} in this game", e.span)
        if label in s.cards_in(z.name):
            raise _Failed(e, f"{z.name}: {' '.join(c for c in s.cards_in(z.name) if c)}", s, {ref.name})

    def viewer(self, s: State, e: Expect, player: int) -> int:
        if not 0 <= player < s.n:
            raise _Error(f"there is no player {player} in this {s.n}-player game", e.span)
        return player

    def zone_cards(self, s: State, z) -> list:
        if z.places:
            return [s.places[q] for q in z.places if s.places[q] >= 0]
        return list(s.zones[z.zid])

    def expect_sees(self, s: State, e: Expect, player, ref) -> None:
        """Every card of the zone shows its face to the player; an empty zone, if its cards would."""
        p, z = self.viewer(s, e, player), self.zone(s, ref)
        cards = self.zone_cards(s, z)
        hidden = [c for c in cards if not s.card_visible(p, c)]
        if hidden or (not cards and s.sees(p, z.zid) != "all"):
            shown = f"{len(hidden)} of its {len(cards)} cards are hidden" if cards else "it is empty and hidden"
            raise _Failed(e, f"player {p} does not see {z.name}: {shown} (it is `{z.visibility}`)", s, {ref.name})

    def expect_does_not_see(self, s: State, e: Expect, player, ref) -> None:
        """No card of the zone shows its face to the player (a hidden pile's top card neither)."""
        p, z = self.viewer(s, e, player), self.zone(s, ref)
        seen = [s.program.card_labels[c] for c in self.zone_cards(s, z) if s.card_visible(p, c)]
        if seen or (not self.zone_cards(s, z) and s.sees(p, z.zid) != "count"):
            shown = " ".join(seen) if seen else "none yet, but its cards would show"
            raise _Failed(e, f"player {p} sees {z.name}: {shown} (it is `{z.visibility}`)", s, {ref.name})

    def expect_differs(self, s: State, e: Expect, ref, seed) -> None:
        """The scenario played again to this line with another seed leaves other cards (or another order)."""
        z = self.zone(s, ref)
        other = self.replay_until(e, seed)
        try:
            for stmt in self.file.steps(self.scenario):
                if stmt is e:
                    break
                other.step(stmt)
            t = other.start(e.span)
        except _Failed as f:
            raise _Failed(e, f"with seed {seed} the scenario cannot be played to here: {f.found}", f.state) from None
        mine, theirs = s.cards_in(z.name), t.cards_in(z.name)
        if mine == theirs:
            shown = " ".join("none" if c is None else c for c in mine) or "none"
            raise _Failed(e, f"with seed {seed} too, {z.name}: {shown}", s, {ref.name})

    def expect_ends(self, s: State, e: Expect, ref, end, labels) -> None:
        """The top cards of a zone, the top one first (or its bottom cards, the bottom one first)."""
        z = self.zone(s, ref)
        if z.places:
            raise _Error(f"{z.name} is a track; say which slots, as in `{z.name} at 0: ...`", ref.span)
        cards = s.cards_in(z.name)
        found = (list(reversed(cards)) if end == "top" else list(cards))[:len(labels)]
        if found != [c for c in labels if c is not None]:
            raise _Failed(e, f"{z.name} {end}: {' '.join(found) or 'none'}", s, {ref.name})

    def expect_refused(self, s: State, e: Expect, count) -> None:
        try:
            s.game.player_count(count)
        except ParameterError:
            return
        raise _Failed(e, f"a game of {count} players is allowed", s)
