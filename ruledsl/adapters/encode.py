"""Numbers for learning libraries: a fixed action space and a fixed observation vector.

Both are derived from the compiled program alone, so every rules file gets them
with no code of its own. The OpenSpiel and PettingZoo adapters share them.

Actions: every distinct move shape (a move name with the types of its
arguments, over all decisions) owns a block of consecutive ids, in the order
the rules declare them. Inside a block the arguments count in mixed radix, the
last argument fastest. An argument's values are: a card -> a card id
(``card_count`` values; see below for cards that look alike), a player -> the seat (``players`` values), a value of
an enumeration -> its index, true/false -> 0 and 1, a number -> ``int_values`` (0 to 63 by default,
widened to hold the members of the largest growing zone family).

Observations: built from ``State.view(player)`` only, so nothing a player may
not see gets in. For every zone (in declaration order): how many visible cards
of each face it holds, how many hidden cards, and the face of its top card; for
a track, each slot's face (or empty / hidden). Then each variable as a pair
(shown?, value), the observer's and the current player's seats, the pending
decision, and whether the game is over. Normalised (the default), every value
is in [0, 1]: a count of a face divided by the game's copies of that face, a
count of cards by the game's number of cards, a number squashed by
:func:`squash`; ``normalise=False`` keeps counts and numbers raw.

Cards that look alike (the same label and attributes, such as the two 5♥ of
a double deck) are numbered by where they stand in the list of legal moves, not
by which copy they are: in a move's argument, the first 5♥ the list names gets
the first 5♥'s id, the next one the second's. A player cannot tell the copies
apart, so two positions that look the same to the player list the same actions
(OpenSpiel's ISMCTS keys its tree by what the player knows, and would meet an
action it never listed), while two copies in different places (a hand and a
row of declared cards) stay two actions. ``decode`` gives a move with the
copy the number names; the adapters make the move the legal list maps the
action to.

The adapters number moves in steps (:mod:`.steps`, a move of several arguments
chosen one argument at a time); :class:`ActionCodec` is the flat numbering
they build on, one number per move.
"""

from __future__ import annotations

import json

import numpy as np

from ..checker import types as T
from ..engine.moves import Move
from ..engine.table import set_choices, set_so_far
from ..language.errors import ParameterError, RuledslError

DEFAULT_INT_VALUES = 64
KEPT_MOVES = 100_000  # moves whose action id ActionCodec.legal keeps


class ActionSpaceError(RuledslError):
    """A legal move that the fixed action space cannot number (a number argument outside its window)."""


class ActionCodec:
    """Move <-> action id, fixed for a game and a player count."""

    def __init__(self, program, players: int, int_values: range | None = None):
        self.program = program
        self.players = players
        if int_values is None:
            most = max((sizes[-1] for name, (_, sizes, _) in program.var_families.items()
                        if name.startswith("#") and sizes), default=0)
            int_values = range(max(DEFAULT_INT_VALUES, most + 1))
        self.int_values = int_values
        self.blocks = []  # [(name, kinds, radices, first id)]
        self._block_of = {}  # (name, kinds) -> index in blocks
        first = 0
        for choice in program.choices:
            for option in choice.options:
                key = (option.name, tuple(option.kinds))
                if key in self._block_of:
                    continue
                radices = [self._radix(k) for k in option.kinds]
                size = 1
                for r in radices:
                    size *= r
                self._block_of[key] = len(self.blocks)
                self.blocks.append((option.name, key[1], radices, first))
                first += size
        self.num_actions = first
        # card id -> the ids of the cards that look like it (label and attributes), lowest first; None
        # when no two cards look alike (then a card's action is its id, worked out once per move)
        self._alike = _alike(program)
        self._card_places: dict = {}  # (decision, name, arity) -> the arguments that are cards
        self._ids: dict = {}  # decision -> {id(move): action id}, for the moves in _kept
        self._kept: list = []
        self._last = None  # (the list of legal moves met last, its sorted action ids, {id: move}, renaming)

    def _radix(self, kind: str) -> int:
        if kind == T.CARD:
            return self.program.card_count
        if kind == T.PLAYER:
            return self.players
        if kind.startswith("enum:"):
            return len(self.program.enums.get(kind[5:], ())) or 1
        if kind == T.BOOL:
            return 2
        return len(self.int_values)

    def _digit(self, kind: str, value: int, move: Move) -> int:
        if kind == T.CARD or kind == T.PLAYER or kind.startswith("enum:"):
            return value
        if kind == T.BOOL:
            return int(value)
        if value not in self.int_values:
            raise ActionSpaceError(
                f"move {move} has the number {value}, outside the action space's numbers "
                f"{self.int_values.start}..{self.int_values.stop - 1} (pass int_values=range(...) to widen it)")
        return value - self.int_values.start

    def _value(self, kind: str, digit: int) -> int:
        if kind == T.CARD or kind == T.PLAYER or kind.startswith("enum:"):
            return digit
        if kind == T.BOOL:
            return bool(digit)
        return digit + self.int_values.start

    def kinds_of(self, state, move: Move) -> tuple:
        """The argument types of ``move`` in the decision pending in ``state``."""
        for option in state.program.choices[state.choice].options:
            if option.name == move.name and len(option.kinds) == len(move.args):
                return tuple(option.kinds)
        raise ActionSpaceError(f"decision `{state.decision}` has no move {move}")

    def encode(self, state, move: Move, rename: dict | None = None) -> int:
        """The action id of ``move`` (a move of the decision pending in ``state``); where cards look
        alike, by ``rename`` (:meth:`renaming` of the state's legal moves, worked out if not given)."""
        kinds = self.kinds_of(state, move)
        _, kinds, radices, first = self.blocks[self._block_of[(move.name, kinds)]]
        if rename is None and self._alike is not None:
            rename = self.rename_of(state)
        number = 0
        for i, (kind, radix, value) in enumerate(zip(kinds, radices, move.args)):
            if rename is not None and kind == T.CARD:
                value = self.card_as(rename, move, i)
            number = number * radix + self._digit(kind, value, move)
        return first + number

    def card_as(self, rename: dict, move: Move, i: int) -> int:
        """The card id that numbers argument ``i`` (a card) of ``move``: by ``rename`` where cards look
        alike, the first of its look-alikes for a move the renaming does not list."""
        card = move.args[i]
        return rename.get((move.name, len(move.args), i, card), self._alike[card][0])

    def renaming(self, state, legal) -> dict:
        """``{(move name, arity, argument, card): card id that numbers it}`` for the legal moves
        ``legal`` of ``state``: in each argument of each move name, the look-alikes of one card
        take that card's ids in the order the list first names them. A card no list names twice
        in one argument is numbered as the first of its look-alikes, with or without a renaming."""
        alike = self._alike
        out = {}
        given = {}  # (move name, arity, argument, first look-alike) -> copies given so far
        for m in legal:
            for i in self._places(state, m):
                card = m.args[i]
                copies = alike[card]
                key = (m.name, len(m.args), i, card)
                if len(copies) > 1 and key not in out:
                    group = (m.name, len(m.args), i, copies[0])
                    k = given.get(group, 0)
                    given[group] = k + 1
                    out[key] = copies[k]
        return out

    def rename_of(self, state) -> dict | None:
        """The :meth:`renaming` of the legal moves of ``state`` (None when no cards look alike)."""
        if self._alike is None:
            return None
        self.legal(state)
        return self._last[3]

    def _places(self, state, move: Move) -> tuple:
        key = (state.choice, move.name, len(move.args))
        places = self._card_places.get(key)
        if places is None:
            kinds = self.kinds_of(state, move)
            places = self._card_places[key] = tuple(i for i, k in enumerate(kinds) if k == T.CARD)
        return places

    def look(self, card: int) -> int:
        """The first id of the cards that look like ``card`` (what a player can tell of it)."""
        return card if self._alike is None else self._alike[card][0]

    def _block(self, action) -> tuple:
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) \
                or not 0 <= action < self.num_actions:
            raise ParameterError(f"there is no action {action!r}; actions are 0 to {self.num_actions - 1}")
        found = self.blocks[0]
        for block in self.blocks:
            if block[3] <= action:
                found = block
        return found

    def decode(self, action: int, state=None) -> Move:
        """The move an action id stands for (whether or not it is legal now); with ``state``, the legal
        move of ``state`` it makes where there is one (of cards that look alike, the copy it names there)."""
        if state is not None:
            move = self.legal(state)[1].get(action)
            if move is not None:
                return move
        name, kinds, radices, first = self._block(action)
        number = int(action) - first
        digits = []
        for radix in reversed(radices):
            number, d = divmod(number, radix)
            digits.append(d)
        digits.reverse()
        return Move(name, tuple(self._value(k, d) for k, d in zip(kinds, digits)))

    def legal_actions(self, state) -> list[int]:
        """The legal moves of ``state`` as sorted action ids."""
        return list(self.legal(state)[0])

    def legal(self, state) -> tuple:
        """``(sorted action ids, {action id: move})`` of the legal moves of ``state``.

        Worked out once per list of legal moves: the engine makes a new list when a move is made
        (and a clone shares its original's), so the last list met and its actions are kept, and
        each move's id is kept per decision (the moves a program lists are made once and shared:
        flowgen.Interned). The adapters make a move from this map without checking it again."""
        legal = state._legal
        if legal is None:
            state.legal_moves()
            legal = state._legal
        last = self._last
        if last is not None and last[0] is legal:
            return last[1], last[2]
        if self._alike is not None:  # cards that look alike: numbered by the whole list, not per move
            return self._legal_alike(state, legal)
        memo = self._memo(state.choice)
        get = memo.get
        moves = {}
        ids = []
        for m in legal:
            a = get(id(m))
            if a is None:
                a = memo[id(m)] = self.encode(state, m)
                self._kept.append(m)  # alive as long as the codec: its id stays its own
            moves[a] = m
            ids.append(a)
        ids.sort()
        actions = tuple(ids)
        self._last = (legal, actions, moves, None)
        return actions, moves

    def _memo(self, choice: int) -> dict:
        """{id(move): what legal keeps of it} for decision ``choice``."""
        if len(self._kept) > KEPT_MOVES:  # moves made afresh each time (not shared): start again
            self._ids.clear()
            self._kept.clear()
        memo = self._ids.get(choice)
        if memo is None:
            memo = self._ids[choice] = {}
        return memo

    def _legal_alike(self, state, legal) -> tuple:
        """``legal`` where cards look alike: each move's number with every card as the first of its
        look-alikes is kept per decision; a list that names two copies of one card in one argument
        (two moves with one number) is numbered again by its :meth:`renaming`."""
        memo = self._memo(state.choice)
        moves = {}
        rename: dict = {}
        for m in legal:
            a = memo.get(id(m))
            if a is None:
                a = memo[id(m)] = self.encode(state, m, rename)
                self._kept.append(m)
            if a in moves:
                rename = self.renaming(state, legal)
                moves = {self.encode(state, m, rename): m for m in legal}
                break
            moves[a] = m
        actions = tuple(sorted(moves))
        self._last = (legal, actions, moves, rename)
        return actions, moves

    def mask(self, state) -> np.ndarray:
        out = np.zeros(self.num_actions, np.int8)
        actions = self.legal(state)[0]
        if actions:
            out[list(actions)] = 1
        return out

    def describe(self, action: int) -> str:
        """An action in words with card labels, e.g. ``play(K♥)``; needs no state."""
        kinds = self._block(action)[1]
        move = self.decode(action)
        parts = []
        for kind, v in zip(kinds, move.args):
            if kind == T.CARD:
                parts.append(self.program.card_labels[v])
            elif kind.startswith("enum:"):
                parts.append((self.program.enum_labels or self.program.enums)[kind[5:]][v])  # as State.describe
            elif kind == T.PLAYER:
                parts.append(f"player {v}")
            elif kind == T.BOOL:
                parts.append("true" if v else "false")
            else:
                parts.append(str(v))
        return move.name + (f"({', '.join(parts)})" if parts else "")


def _alike(program) -> list | None:
    """Card id -> the ids of the cards with its label and attributes (lowest first), or None when
    every card looks different."""
    columns = [program.card_attrs[a] for a in sorted(program.card_attrs)]
    groups: dict = {}
    for c, label in enumerate(program.card_labels):
        groups.setdefault((label, *(col[c] for col in columns)), []).append(c)
    if all(len(g) == 1 for g in groups.values()):
        return None
    out = [()] * len(program.card_labels)
    for g in groups.values():
        for c in g:
            out[c] = tuple(g)
    return out


class ObservationCodec:
    """A player's view as a fixed-length vector of numbers, each in [0, 1] (``normalise``, the
    default: a count divided by the most it can be, a number squashed by :func:`squash`) or raw
    (``normalise=False``: counts and numbers as they are)."""

    def __init__(self, program, players: int, normalise: bool = True):
        self.program = program
        self.players = players
        self.normalise = bool(normalise)
        self.faces = sorted(set(program.card_labels))
        self.face_index = {f: i for i, f in enumerate(self.faces)}
        copies: dict = {}
        for label in program.card_labels:
            copies[label] = copies.get(label, 0) + 1
        # what one card of a face, a hidden card or a card of a zone's size counts for
        one = 1.0 / max(1, program.card_count) if normalise else 1.0
        self._per_face = [1.0 / copies[f] if normalise else 1.0 for f in self.faces]
        self._per_card = one
        self._plain_hidden = "?" not in self.face_index  # '?' is a hidden card, never a face
        F = len(self.faces)
        self.zones = []  # (name, slots or None, offset)
        size = 0
        for z in program.zones:
            if z.owner is not None and z.owner >= players:
                continue
            slots = len(z.places) if z.places else None
            self.zones.append((z.name, slots, size))
            size += 1 + (slots * (F + 2) if slots is not None else 2 * F + 2)
        self.vars_offset = size
        self.var_names = [name for slot, name in enumerate(program.var_names)
                          if slot not in program.flag_slots]
        size += 2 * len(self.var_names)
        self.decisions = sorted({c.name for c in program.choices})
        self.header_offset = size
        size += 2 * players + len(self.decisions) + 1
        self.size = size
        # a set of cards being built (set_labels): one value per face, in rules that build sets
        self.set_choices = set_choices(program)
        self.set_size = F if self.set_choices else 0
        self._enum_index = {}
        for values in program.enums.values():
            for i, v in enumerate(values):
                self._enum_index.setdefault(v, (i, max(1, len(values) - 1)))

    def encode(self, view: dict) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        F = len(self.faces)
        fi = self.face_index
        zones = view["zones"]
        for name, slots, at in self.zones:
            cards = zones.get(name)
            if cards is None:
                continue  # a member of a growing family that is not open
            out[at] = 1.0
            if slots is not None:
                for k, label in enumerate(cards[:slots]):
                    base = at + 1 + k * (F + 2)
                    if label is None:
                        out[base + F] = 1.0
                    elif label not in fi:  # hidden
                        out[base + F + 1] = 1.0
                    else:
                        out[base + fi[label]] = 1.0
                continue
            per_face, per_card = self._per_face, self._per_card
            size = len(cards)
            if size and self._plain_hidden and cards.count("?") == size:  # every card hidden: no loop
                out[at + 1 + F] = out[at + 2 + 2 * F] = size * per_card
                continue
            counts: dict = {}
            for label in cards:
                k = fi.get(label, F)  # '?', or what the player was told of a hidden card ("red ?")
                counts[k] = counts.get(k, 0) + 1
            for k, count in counts.items():  # divided once, so that every copy of a face makes exactly 1
                out[at + 1 + k] = count * (per_card if k == F else per_face[k])
            if cards and cards[-1] in fi:
                out[at + 2 + F + fi[cards[-1]]] = 1.0
            out[at + 2 + 2 * F] = len(cards) * per_card
        variables = view["vars"]
        for i, name in enumerate(self.var_names):
            if name not in variables:
                continue
            known, value = self._scalar(variables[name])
            out[self.vars_offset + 2 * i] = known
            out[self.vars_offset + 2 * i + 1] = value
        h = self.header_offset
        out[h + view["player"]] = 1.0
        if view["current_player"] >= 0:
            out[h + self.players + view["current_player"]] = 1.0
        if view["decision"] is not None:
            out[h + 2 * self.players + self.decisions.index(view["decision"])] = 1.0
        out[-1] = 1.0 if view["over"] else 0.0
        return out

    def set_labels(self, state, player: int) -> tuple | None:
        """``(move, labels of the cards added so far)`` of the set of cards ``player`` is building, or
        None. Only its builder knows it, and ``State.view`` does not show it (the table does:
        engine/table.py); without it two sets begun differently would look the same to their builder
        while listing different cards to add."""
        if state.choice not in self.set_choices or player != state.actor or state.over:
            return None
        return set_so_far(state)

    def set_vector(self, built: tuple | None) -> np.ndarray:
        """The cards of a set being built (:meth:`set_labels`) counted by face, as a zone's are; all
        zero when no set is (and empty in rules that build none)."""
        out = np.zeros(self.set_size, np.float32)
        if built:
            for label in built[1]:
                k = self.face_index[label]
                out[k] += self._per_face[k]
        return out

    @staticmethod
    def set_text(built: tuple | None) -> str | None:
        """A set being built in words, ``strike(9♦, 6♠)``, or None."""
        return None if built is None else f"{built[0]}({', '.join(built[1])})"

    def _scalar(self, v) -> tuple[float, float]:
        """(shown?, value). Raw: a number (a seat too) as itself, a card by its face's number from 1,
        an enum value by its index. Normalised: a number squashed into (0, 1), a card's face number
        divided by the number of faces, an enum value's index by the enum's last index."""
        if v is None or v == "?":
            return 0.0, 0.0
        if isinstance(v, bool):
            return 1.0, float(v)
        if isinstance(v, int):
            return 1.0, squash(v) if self.normalise else float(v)
        if isinstance(v, str):
            if v in self.face_index:
                number = self.face_index[v] + 1
                return 1.0, number / len(self.faces) if self.normalise else float(number)
            index, last = self._enum_index.get(v, (0, 1))
            return 1.0, index / last if self.normalise else float(index)
        return 1.0, 0.0

    @staticmethod
    def text(view: dict) -> str:
        """The view as compact JSON text (for observation strings)."""
        return json.dumps({k: v for k, v in view.items() if k != "legal_moves"},
                          ensure_ascii=False, sort_keys=True, separators=(",", ":"))


SQUASH = 8  # the number that squash() puts at 3/4


def squash(v: int) -> float:
    """A number of any size as a value in (0, 1): ``1/2 + v / (2 (|v| + 8))``; 0 is 1/2, 8 is 3/4,
    -8 is 1/4. Monotone, so no two numbers get the same value (numbers have no declared maximum)."""
    return 0.5 + v / (2.0 * (abs(v) + SQUASH))


def outcome(state, kind: str = "win") -> list[float]:
    """Each player's result when the game is over (0 for all before, and for a game stopped at its
    move limit).

    ``win`` (the default of both adapters): +1 for a win, -1 for a loss, 0 for a win shared with
    another seat or partnership (a tie); partners (``define team(p)``) win or lose together, and in
    a cooperative game the whole table gets +1 or -1. ``score``: the rules' scores, negated when
    the rules rank the lowest score first (``winner(p): lowest score(p)``), so that in every game
    a larger return is a better result."""
    if kind == "score":
        scores = [float(x) for x in state.scores]
        keys = state.program.winner_keys
        if keys and not keys[0][1]:  # the lowest first: a lower score is the better result
            scores = [-x for x in scores]
        return scores
    if kind != "win":
        raise ParameterError(f"returns must be 'win' or 'score', not {kind!r}")
    n = state.n
    if not state.is_over or state.finding:
        return [0.0] * n
    winners = set(state.winners)
    if not winners:  # a cooperative game lost, or nobody met the rules' `when`
        return [-1.0] * n
    teams = state.teams
    shared = len({teams[w] for w in winners}) > 1
    return [(0.0 if shared else 1.0) if i in winners else -1.0 for i in range(n)]


def parse_params(text: str) -> dict:
    """Rules parameters from ``name:value;name:value`` text (the form used in OpenSpiel game strings)."""
    out = {}
    for part in filter(None, (text or "").split(";")):
        name, sep, value = part.partition(":")
        if not sep or not name.strip():
            raise ParameterError(f"rules parameters are name:value pairs separated by ';', not {part!r}")
        out[name.strip()] = value.strip()
    return out


def format_params(params: dict | None) -> str:
    """The inverse of :func:`parse_params`."""
    parts = []
    for name, value in (params or {}).items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if any(ch in text for ch in ";:,()="):
            raise ParameterError(f"parameter {name}: the value {text!r} cannot be written in a game string")
        parts.append(f"{name}:{text}")
    return ";".join(parts)


def state_text(state, player: int | None = None) -> str:
    """A state as plain text, one zone or variable a line: everything (``player`` None, as a referee
    sees it) or what ``player`` may see ('?' for a hidden card, '.' for an empty slot)."""
    s = state
    lines = [f"{s.program.name}: {s.n} players, seed {s.seed}, {s.move_count} moves"]
    if s.is_over:
        lines.append(f"over: scores {s.scores}, winners {s.winners}" + (f" ({s.finding})" if s.finding else ""))
    else:
        lines.append(f"player {s.current_player} to decide {s.decision}")
    view = s.view(0 if player is None else player)
    for name in view["zones"]:
        cards = s.cards_in(name) if player is None else view["zones"][name]
        lines.append(f"  {name}: " + " ".join("." if c is None else c for c in cards))
    for name, value in view["vars"].items():
        if player is None:
            value = s.get_var(name)
            value = s.card_label(value) if name in _card_var_names(s) and value is not None else value
        lines.append(f"  {name} = {value}")
    return "\n".join(lines)


def _card_var_names(s) -> set:
    return {s.program.var_names[slot] for slot in s.program.card_slots}
