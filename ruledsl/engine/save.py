"""Reading a saved state back (:meth:`ruledsl.engine.state.State.to_json` writes it), checked field by field."""

from __future__ import annotations

import json

from ..compiler.steps import CHOOSE
from ..language.errors import IllegalMove, ParameterError, RulesRuntimeError, SaveError
from .moves import Move
from .seal import SAVE_FIELDS, _check_seal
from .state import SAVE_FORMAT, SAVE_VERSION, State


def _load_state(game, text) -> State:
    p = game.program
    try:
        data = json.loads(text) if isinstance(text, (str, bytes)) else text
    except ValueError as exc:
        raise SaveError(f"not a saved state: the text is not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError("not a saved ruledsl state: the 'format' field is missing or wrong")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"saved with format version {data.get('version')!r}; this ruledsl reads version {SAVE_VERSION}")
    if data.get("game") != p.name:
        raise SaveError(f"the save is of the game {data.get('game')!r}, not {p.name!r}")
    if data.get("params") != p.params:
        raise SaveError(f"the save was made with parameters {data.get('params')}, not {p.params}")

    def need(key, check, what):
        value = data.get(key)
        if not check(value):
            raise SaveError(f"field '{key}' should be {what}")
        return value

    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool)

    def int_list(v, length):
        return isinstance(v, list) and len(v) == length and all(is_int(x) for x in v)

    n = need("players", lambda v: is_int(v) and p.min_players <= v <= p.max_players,
             f"a player count from {p.min_players} to {p.max_players}")
    p = game.program_for(n)
    seed = need("seed", is_int, "a whole number")
    zones = need("zones", lambda v: isinstance(v, list) and len(v) == len(p.zones)
                 and all(isinstance(z, list) and all(is_int(c) for c in z) for z in v),
                 f"a list of {len(p.zones)} lists of card ids")
    places = need("places", lambda v: int_list(v, p.place_count), f"a list of {p.place_count} card ids or -1")
    counts = [0] * p.card_count
    loc = [0] * p.card_count
    for zid, cards in enumerate(zones):
        for c in cards:
            if not 0 <= c < p.card_count:
                raise SaveError(f"zone {p.zones[zid].name} holds card {c}, which does not exist")
            counts[c] += 1
            loc[c] = zid
    for q, c in enumerate(places):
        if c >= 0:
            if c >= p.card_count:
                raise SaveError(f"a board place holds card {c}, which does not exist")
            counts[c] += 1
            loc[c] = -q - 1
        elif c != -1:
            raise SaveError("an empty board place is written -1")
    for z in p.zones:
        if z.exists is not None and zones[z.zid] and not (isinstance(data.get("vars"), list) and len(
                data["vars"]) == p.var_count and data["vars"][z.exists] is True):
            raise SaveError(f"zone {z.name} holds cards but is not open")
    for c, k in enumerate(counts):
        if k != 1:
            raise SaveError(f"card {c} ({p.card_labels[c]}) is in {k} places; every card must be in exactly one")
    s = State.__new__(State)
    s.game, s.program, s.n, s.seed = game, p, n, seed
    s.zones, s.places, s.loc = zones, places, loc
    s.vars = need("vars", lambda v: isinstance(v, list) and len(v) == p.var_count, f"a list of {p.var_count} values")
    s.locals = need("locals", lambda v: isinstance(v, list) and len(v) == p.local_count,
                    f"a list of {p.local_count} values")
    s.pc = need("pc", lambda v: is_int(v) and 0 <= v < len(p.code), "a step of the program")
    s.choice = need("choice", lambda v: is_int(v) and -1 <= v < len(p.choices), "a decision number or -1")
    s.actor = need("actor", lambda v: is_int(v) and -1 <= v < n, "a player or -1")
    s.current = need("current", lambda v: is_int(v) and 0 <= v < max(n, 1), "a player")
    s.rng = need("rng", lambda v: is_int(v) and 0 <= v < 2 ** 64, "the generator's 64-bit state")
    s.grants = need("grants", lambda v: isinstance(v, list) and all(
        isinstance(g, list) and len(g) == 2 and all(is_int(x) for x in g) for g in v),
        "a list of [zone, player] (a zone of -1 - c: the card c)")
    if "shown" not in data:
        data = dict(data, shown=[])  # saved before `show` existed
    s.shown = need("shown", lambda v: isinstance(v, list) and all(
        isinstance(x, list) and len(x) == 2 and is_int(x[0]) and 0 <= x[0] < p.card_count and is_int(x[1])
        and 0 <= x[1] < n for x in v), "a list of [card, player]")
    if "known" not in data:
        data = dict(data, known=[])  # saved before `tell` existed
    s.known = need("known", lambda v: isinstance(v, list) and all(
        isinstance(x, list) and len(x) == 3 and is_int(x[0]) and -1 <= x[0] < p.card_count
        and x[1] in p.attr_types and is_int(x[2]) and 0 <= x[2] < n for x in v), "a list of [card, attribute, player]")
    raw_moves = need("moves", lambda v: isinstance(v, list), "a list of moves")
    try:
        s.moves = [Move.parse(m) for m in raw_moves]
    except IllegalMove:
        raise SaveError("field 'moves' holds something that is not a move") from None
    s.over = need("over", lambda v: isinstance(v, bool), "true or false")
    s.finding = need("finding", lambda v: v is None or isinstance(v, str), "null or a message")
    if not s.over and (s.choice < 0 or s.actor < 0 or p.code[s.pc][0] != CHOOSE):
        raise SaveError("the save says the game goes on, but no decision is pending")
    s._set_by_hand()
    s._trigger_work = None
    _check_seal(data)
    _check_replay(game, s, data)
    return s


# ---- what a save promises, its second half: the moves replayed from the seed give the saved state
# (engine/seal.py says why)

_REPLAYS: dict = {}  # program -> ((players, seed), moves, state): the last replay, resumed when a save goes on


def _replay_of(game, n: int, seed: int, moves: list) -> State:
    """The state the moves give from the seed; a save that extends the last one checked resumes it
    (verify saves after every step: each is checked in the time of its last move, not of them all)."""
    last = _REPLAYS.get(game.program)
    if last is not None and last[0] == (n, seed) and len(last[1]) <= len(moves) and moves[:len(last[1])] == last[1]:
        state, start = last[2].clone(), len(last[1])
    else:
        try:
            state, start = game.new_game(n, seed), 0
        except (ParameterError, RulesRuntimeError) as err:
            raise SaveError(f"the save's seed and player count do not start a game of these rules: {err}") from None
    for i in range(start, len(moves)):
        if state.over:
            raise SaveError(f"the save lists {len(moves)} moves, but the game is over after {i}")
        try:
            state.apply(moves[i])
        except (IllegalMove, RulesRuntimeError) as err:
            raise SaveError(f"move {i + 1} of the save, {moves[i]}, cannot be made where its moves before it "
                            f"lead ({err}); the save is not of a game these rules played") from None
    _REPLAYS.clear()  # one entry: the cache never grows
    _REPLAYS[game.program] = ((n, seed), list(moves), state.clone())
    return state


def _check_replay(game, s: State, data: dict) -> None:
    """The saved state must be the one its moves give from its seed; else SaveError naming what differs."""
    replayed = json.loads(_replay_of(game, s.n, s.seed, s.moves).to_json())
    saved = json.loads(json.dumps(data))  # the same plain form (lists, not tuples) as the replay's
    for key in SAVE_FIELDS:
        if replayed.get(key) != saved.get(key):
            if key == "current" or key == "actor":
                what = (f"player {saved.get(key)} is to decide, but its moves lead to the decision of "
                        f"player {replayed.get(key)}")
            else:
                what = f"its '{key}' is not what its moves lead to"
            raise SaveError(f"the save does not follow from its own moves: {what} (replaying its "
                            f"{len(s.moves)} moves from seed {s.seed}); a save of a position set up by hand "
                            "(place, stack, set_var, new_member) cannot be loaded either")
