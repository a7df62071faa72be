"""What a state shows: moves and cards in words, who sees which zone and card, a player's view.

:class:`Seeing` is a part of :class:`~ruledsl.engine.state.State` (a mixin):
the view a player gets (``State.view``) is computed here from the zones'
visibility, the temporary grants and the cards shown, and nothing else.
"""

from __future__ import annotations

import weakref

from ..checker import types as T
from ..language.errors import ParameterError
from .moves import Move

# program -> {(players, player): (zones, variables)}: what view() reads, worked out once (_plan)
_plans: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
PLAIN, HIDDEN, CARD = 0, 1, 2  # how a variable is shown: its value, '?', a card by whether it is seen


def _sight(z, player: int) -> str:
    """How ``player`` sees zone ``z`` by its visibility alone (no `reveal` grants): 'all', 'top' or 'count'."""
    if z.visibility == "public" or (z.visibility == "owner" and z.owner == player):
        return "all"
    if z.visibility == "others" and z.owner != player:
        return "all"  # cards held facing away: everybody but the owner sees them
    return "top" if z.visibility == "top" else "count"


def _strides(sizes, dims) -> list:
    """(stride, size, dim) of each index of a variable family, in its slots' row-major order."""
    out, stride = [], 1
    for n, d in zip(reversed(sizes), reversed(dims)):
        out.append((stride, n, d))
        stride *= n
    return out[::-1]


class Seeing:
    """A state's descriptions and views (see the module's docstring)."""

    __slots__ = ()

    def card_label(self, card: int | None) -> str:
        return "none" if card is None else self.program.card_labels[card]

    def describe(self, move, names: bool = False) -> str:
        """A move in words, e.g. ``play(K♥)``, with the labels the view shows (an enum value's label,
        ``true``/``false``); ``names``: enum values by their names instead. When another listed move
        reads the same (the same card in hand and on the table), the card's place is added:
        ``play(2♥ from declared[0])``."""
        m = Move.parse(move)
        text = self._plain(m, names)
        if not m.args or self.over or self.choice < 0:
            return text
        same = [x for x in self.legal_moves() if x != m and x.name == m.name and len(x.args) == len(m.args)
                and self._plain(x, names) == text]
        if not same:
            return text
        parts = []
        for i, a in enumerate(m.args):
            part = self.describe_arg(m, i, names)
            if self._arg_kind(m, i) == T.CARD and 0 <= a < self.program.card_count and any(
                    self.card_place(x.args[i]) != self.card_place(a) for x in same):
                part += f" from {self.card_place(a)}"
            parts.append(part)
        return f"{m.name}({', '.join(parts)})"

    def describe_moves(self, moves: list) -> list[str]:
        """``[self.describe(m) for m in moves]``, faster when most moves read differently."""
        plain = [self._plain(m) for m in moves]
        counts: dict = {}
        for text in plain:
            counts[text] = counts.get(text, 0) + 1
        return [text if counts[text] == 1 else self.describe(m) for m, text in zip(moves, plain)]

    def _plain(self, m: Move, names: bool = False) -> str:
        parts = [self.describe_arg(m, i, names) for i in range(len(m.args))]
        return m.name + (f"({', '.join(parts)})" if parts else "")

    def _arg_label(self, m: Move, i: int, a) -> str | None:
        """A number's label by its move parameter's `as`, or None."""
        if not self.over and self.choice >= 0:
            for o in self.program.choices[self.choice].options:
                if o.name == m.name and i < len(o.labels) and o.labels[i] is not None:
                    label = o.labels[i]
                    if isinstance(label, dict):
                        return label.get(a)
                    return label[0].replace("{" + label[1] + "}", str(a))
        return None

    def _arg_kind(self, m: Move, i: int) -> str:
        if not self.over and self.choice >= 0:
            for o in self.program.choices[self.choice].options:
                if o.name == m.name and i < len(o.kinds):
                    return o.kinds[i]
        return T.ANY

    def describe_arg(self, move, i: int, names: bool = False) -> str:
        """Argument ``i`` of ``move`` in words: a card's label, an enum value's label (as a card
        shows it; ``names``: its name), a player, true/false."""
        m = Move.parse(move)
        a = m.args[i]
        kind = self._arg_kind(m, i)
        if kind == T.CARD and 0 <= a < self.program.card_count:
            return self.program.card_labels[a]
        if kind.startswith("enum:") and 0 <= a < len(self.program.enums.get(kind[5:], ())):
            table = self.program.enums if names else (self.program.enum_labels or self.program.enums)
            return table[kind[5:]][a]
        if kind == T.PLAYER:
            return f"player {a}"
        if isinstance(a, bool):
            return "true" if a else "false"
        if kind == T.INT and not names:
            label = self._arg_label(m, i, a)
            if label is not None:
                return label
        return str(a)

    def card_place(self, card: int) -> str:
        """The name of the zone that holds ``card`` (a track's name for a card on the board)."""
        where = self.loc[card]
        if where >= 0:
            return self.program.zones[where].name
        place = -where - 1
        return next(z.name for z in self.program.zones if place in z.places)

    def sees(self, player: int, zid: int) -> str:
        """How ``player`` sees zone ``zid``: 'all', 'top' or 'count'."""
        how = _sight(self.program.zones[zid], player)
        if how != "all":
            for g in self.grants:
                if g[0] == zid and g[1] == player:
                    return "all"
        return how

    def shown_cards(self, player: int) -> set:
        """The cards ``player`` sees wherever they lie: card grants of `reveal` (``[-1 - card, player]``)."""
        return {-1 - g[0] for g in self.grants if g[0] < 0 and g[1] == player}

    def known_to(self, player: int) -> dict:
        """What `tell` told ``player`` about cards: card -> the attributes they know, in the order told."""
        out: dict = {}
        for c, attr, q in self.known:
            if q == player and c >= 0:  # -1: the attribute was told of (maybe of no card)
                out.setdefault(c, []).append(attr)
        return out

    def _hint(self, card: int, attrs: list) -> str:
        """A hidden card with the attributes its viewer knows: ``red ?``, ``red 5 ?``."""
        p = self.program
        words = []
        for a in attrs:
            v, t = p.card_attrs[a][card], p.attr_types.get(a, "")
            words.append(p.enums[t[5:]][v] if t.startswith("enum:") and v is not None else str(v))
        return " ".join(words + ["?"])

    def shown_to(self, player: int) -> list:
        """The cards `show` showed ``player`` during the last move, in the order shown."""
        return list(dict.fromkeys(c for c, q in self.shown if q == player))

    def card_visible(self, player: int, card: int) -> bool:
        """Whether ``player`` sees the face of ``card`` where it lies now."""
        if self.grants and card in self.shown_cards(player):
            return True
        where = self.loc[card]
        if where >= 0:
            how = self.sees(player, where)
            return how == "all" or (how == "top" and self.zones[where][-1] == card)
        place = -where - 1
        return any(place in z.places and self.sees(player, z.zid) != "count" for z in self.program.zones)

    def view(self, player: int) -> dict:
        """What ``player`` may know: visible cards by label, hidden ones as '?', and the variables."""
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise ParameterError(f"there is no player {player!r} in a {self.n}-player game")
        p = self.program
        labels = p.card_labels
        zone_plan, var_plan = _plan(p, self.n, player)
        grants, V = self.grants, self.vars
        shown = self.shown_cards(player) if grants else ()
        known = self.known_to(player) if self.known else {}
        plain = not shown and not known  # every card this player does not see is '?'

        def face(c):  # a card this player does not see where it lies
            return labels[c] if c in shown else self._hint(c, known[c]) if c in known else "?"

        zones = {}
        for name, zid, places, exists, how in zone_plan:
            if exists is not None and not V[exists]:
                continue  # a member of a growing family that is not open
            if grants and how != "all":
                how = self.sees(player, zid)
            if places is not None:
                cards = [self.places[q] for q in places]
                zones[name] = [None if c < 0 else (labels[c] if how == "all" else face(c)) for c in cards]
                continue
            cards = self.zones[zid]
            if how == "all":
                zones[name] = [labels[c] for c in cards]
            elif how == "top":
                if cards:
                    zones[name] = (["?"] * (len(cards) - 1) if plain else [face(c) for c in cards[:-1]]) \
                        + [labels[cards[-1]]]
                else:
                    zones[name] = []
            else:
                zones[name] = ["?"] * len(cards) if plain else [face(c) for c in cards]
        variables = {}
        for label, slot, exists, how in var_plan:
            if exists >= 0 and not V[exists]:
                continue
            if how == HIDDEN:
                variables[label] = "?"  # a variable this player may not see
                continue
            v = V[slot]
            if how == CARD and v is not None:
                v = labels[v] if self.card_visible(player, v) else "?"
            variables[label] = v
        out = {
            "player": player,
            "current_player": self.current_player,
            "decision": self.decision,
            "zones": zones,
            "vars": variables,
            "over": self.over,
        }
        left = self.players_left()
        if left is not None:
            out["left"] = left  # the players who have left the game (rules that use `leave`)
        if not self.over and self.choice >= 0 and self.program.choices[self.choice].together is not None:
            # players choosing together, in secret: who has chosen is public, not what
            choosers, done = self.program.choices[self.choice].together(self.locals)
            out["chosen"], out["waiting"] = list(choosers[:done]), list(choosers[done:])
        shown = self.shown_to(player)
        if shown:
            out["shown"] = [labels[c] for c in shown]  # cards `show` let this player see during the last move
        if player == self.current_player:
            out["legal_moves"] = self.describe_moves(self.legal_moves())
        return out


def _plan(p, players: int, player: int) -> tuple:
    """What ``view`` reads for ``player`` in a game of ``players``, worked out once per program:
    ``(zones, variables)``; zones as ``(name, zone id, board places or None, the slot of the flag that
    opens it or None, how the player sees it without grants)``, the zones of seats the game does not
    have left out; variables as ``(label, slot, the slot of the flag that opens it or -1, PLAIN,
    HIDDEN or CARD)``, flags and the values of seats the game does not have left out."""
    by_program = _plans.get(p)
    if by_program is None:
        by_program = _plans[p] = {}
    got = by_program.get((players, player))
    if got is not None:
        return got
    zones = []
    for z in p.zones:
        if z.owner is not None and z.owner >= players:
            continue
        zones.append((z.name, z.zid, tuple(z.places) if z.places else None, z.exists, _sight(z, player)))
    variables = []
    card_slots, flags, var_exists = p.card_slots, p.flag_slots, p.var_exists
    for name, (base, sizes, dims) in p.var_families.items():
        count = 1
        for n in sizes:
            count *= n
        vis = p.var_visibility.get(name)
        # a value of a seat the game does not have (any `player` index) is never shown
        seats = [(stride, n) for stride, n, d in _strides(sizes, dims) if d[0] == "player" and n > players]
        for i in range(count):
            slot = base + i
            if seats and any(i // stride % n >= players for stride, n in seats):
                continue
            if slot in flags:
                continue
            if vis == "hidden" or (vis == "owner" and i // max(1, count // sizes[0]) != player):
                how = HIDDEN
            else:
                how = CARD if slot in card_slots else PLAIN
            variables.append((p.var_names[slot], slot, var_exists.get(slot, -1), how))
    got = by_program[(players, player)] = (tuple(zones), tuple(variables))
    return got
