"""Any rules file as an OpenSpiel game: ``load_game(path, players=..., params=...)``.

The game is the Python game ``python_ruledsl`` registered with pyspiel, so it
can also be loaded by name (``pyspiel.load_game("python_ruledsl(path=...,players=3)")``),
saved and restored with ``pyspiel.serialize_game_and_state``.

- Chance: the engine draws every random event (shuffles, random picks) from
  one generator seeded at the start of a game. The game starts with a single
  chance node whose ``seeds`` equally likely outcomes (1000 by default) are
  the seeds; after it the game is played by the players alone.
- Actions: :class:`ruledsl.adapters.steps.StepCodec`: a move of several
  arguments is chosen one argument an action (``actions="flat"``: one action
  per move, :class:`ruledsl.encode.ActionCodec`); chance outcomes are seeds.
- Observations: :class:`ruledsl.encode.ObservationCodec` over
  ``State.view(player)``, values in [0, 1] (``raw=True``: counts as they are),
  then what the deciding player has chosen so far of a move in steps; the
  observation string is the view as JSON. The information state string is the
  player's views after every step, one per line (perfect recall); the
  information state tensor is the observation tensor followed by the moves the
  player has seen (:class:`ruledsl.adapters.history.HistoryCodec`).
- Resampling: ``resample_from_infostate(player, sampler)`` (OpenSpiel's
  ``ResampleFromInfostate``, which its ``ISMCTSBot`` calls) gives a state the
  player cannot tell from this one: the world that ruledsl's own ``ismcts``
  samples (:class:`ruledsl.worlds.Knowledge`), drawn with a generator seeded
  from ``sampler``. The player's information state string is kept; the other
  players' start again from what they see in the sampled world.
- Returns: :func:`ruledsl.encode.outcome`: +1 for a win, -1 for a loss, 0 for
  a shared win (and 0 for everybody when the game stopped at its move limit).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from ..engine.moves import Move
from ..engine.worlds import Knowledge
from ..language.errors import IllegalMove, ParameterError
from .encode import (
    ObservationCodec,
    format_params,
    outcome,
    parse_params,
    state_text,
)
from .history import HistoryCodec
from .steps import NO_ANSWER, NONE, StepCodec

SHORT_NAME = "python_ruledsl"
_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL
DEFAULT_SEEDS = 1000
MAX_PLAYERS = 16


def _game_type(min_players: int = 1, max_players: int = MAX_PLAYERS) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="ruledsl rules file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification={"path": "", "players": 0, "params": "", "seeds": DEFAULT_SEEDS,
                                 "actions": "steps", "raw": False},
    )


class _Setup:
    """What a game needs besides its parameters: the compiled rules and the codecs (cached by parameters,
    because pyspiel copies and re-creates game objects from their parameters alone)."""

    def __init__(self, params: dict):
        from ..engine.load import load

        path = str(params.get("path", ""))
        if not path:
            raise ParameterError("an OpenSpiel ruledsl game needs path=<rules file>")
        self.params_text = str(params.get("params", ""))
        self.rules = load(path, params=parse_params(self.params_text))
        self.path = path
        self.players = self.rules.player_count(int(params.get("players", 0)) or None)
        program = self.rules.program_for(self.players)
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        if self.seeds < 1:
            raise ParameterError(f"seeds must be at least 1, not {self.seeds}")
        self.action_mode = str(params.get("actions", "steps"))
        if self.action_mode not in ("steps", "flat"):
            raise ParameterError(f"actions must be 'steps' or 'flat', not {self.action_mode!r}")
        self.raw = bool(params.get("raw", False))
        self.actions = StepCodec(program, self.players, steps=self.action_mode == "steps")
        self.observations = ObservationCodec(program, self.players, normalise=not self.raw)
        self.history = HistoryCodec(program, self.players)
        self.observation_size = self.observations.size + self.actions.pending_size + self.observations.set_size


_SETUPS: dict = {}


def _setup(params: dict) -> _Setup:
    key = tuple(sorted((k, str(v)) for k, v in params.items()))
    if key not in _SETUPS:
        _SETUPS[key] = _Setup(params)
    return _SETUPS[key]


class RuledslGame(pyspiel.Game):
    """A rules file, its parameters and a player count as an OpenSpiel game."""

    def __init__(self, params=None):
        setup = _setup(dict(params or {}))
        program = setup.rules.program
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions.num_actions,
            max_chance_outcomes=setup.seeds,
            num_players=setup.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=program.limit * max(1, setup.actions.longest) + 1,
        )
        game_params = {"path": setup.path, "players": setup.players, "params": setup.params_text,
                       "seeds": setup.seeds, "actions": setup.action_mode, "raw": setup.raw}
        super().__init__(_game_type(program.min_players, program.max_players), info, game_params)

    @property
    def setup(self) -> _Setup:
        return _setup(self.get_parameters())

    def new_initial_state(self):
        return RuledslState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """A player's own observation (or, with perfect recall, information state); the views of ruledsl
        are what one player may know, so observers of public information alone are not offered."""
        if params:
            raise ParameterError(f"the observer takes no parameters, not {params}")
        if iig_obs_type is None:
            return _Observer(self.setup, False)
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        none = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if iig_obs_type.perfect_recall:
            if iig_obs_type.public_info and single:
                return _Observer(self.setup, True)
            raise ParameterError("a perfect-recall observer of a ruledsl game is a player's information state "
                                 "(public_info=True, private_info=SINGLE_PLAYER)")
        if iig_obs_type.public_info and single:
            return _Observer(self.setup, False)
        if iig_obs_type.public_info and none:
            return _Observer(self.setup, False, "public")
        if not iig_obs_type.public_info and single:
            return _Observer(self.setup, False, "private")
        raise ParameterError("a ruledsl game is observed by one player (private_info=SINGLE_PLAYER), or as its "
                             "public part (public_info=True, private_info=NONE)")


class RuledslState(pyspiel.State):
    """An OpenSpiel state around a ruledsl State (None until the chance node has chosen the seed)."""

    def __init__(self, game: RuledslGame):
        super().__init__(game)
        self._box = _Box(dict(game.get_parameters()), None)

    @property
    def _rules_game(self) -> _Setup:
        return self._box.setup

    @property
    def inner(self):
        """The ruledsl State, or None before the chance node."""
        return self._box.state

    # ---- the OpenSpiel API

    def current_player(self):
        inner = self._box.state
        if inner is None:
            return _CHANCE
        if inner.is_over:
            return _TERMINAL
        return inner.actor

    def legal_actions(self, player=None):
        """The legal actions (of ``player``, else of the one to act), from Python without the round
        trip through pyspiel's C++ (which calls ``_legal_actions`` and ``current_player`` back);
        C++ callers still get the same list through ``_legal_actions``."""
        box = self._box
        inner = box.state
        if inner is None:
            if player is None or player == _CHANCE:
                return list(range(box.setup.seeds))
            return []
        if inner.is_over or (player is not None and player != inner.actor):
            return []
        answer = box.answer
        legal = inner._legal
        if answer[0] is legal and answer[1] is box.pending:  # kept for this state
            return list(answer[2])
        if legal is not None and not box.pending:  # the first actions of a new list: worked out here, kept
            ids, leads = box.setup.actions.first(inner, legal)
            box.answer = (legal, NONE, ids, leads)
            return list(ids)
        return list(box.legal()[0])

    def _legal_actions(self, player):
        inner = self._box.state
        if inner is None or inner.is_over or player != inner.actor:
            return []
        return list(self._box.legal()[0])

    @property
    def pending(self):
        """What the deciding player has chosen so far of a move taken in steps: ``()`` or
        ``(block, arguments)`` (:class:`ruledsl.adapters.steps.StepCodec`)."""
        return self._box.pending

    def chance_outcomes(self):
        n = self._rules_game.seeds
        return [(i, 1.0 / n) for i in range(n)]

    def move_of(self, action: int):
        """What the legal ``action`` does now: the ruledsl ``Move`` it makes (of cards that look alike,
        the copy the list of legal moves names, which may not be the copy ``decode`` would give), or,
        for one more argument of a move taken in steps, the new ``pending`` (a tuple).
        IllegalMove if it is not legal now; a chance node has no moves."""
        box = self._box
        inner = box.state
        if inner is None:
            raise IllegalMove(f"seed {action}", "the chance node chooses a seed, not a move", [])
        answer = box.answer
        if answer[0] is inner._legal and answer[1] is box.pending:  # by action id, worked out once per state
            leads = answer[3]
        else:
            leads = box.legal()[1]
        if action in leads:
            return leads[action]
        words = box.setup.actions.describe(action, box.pending)
        raise IllegalMove(words, f"action {action} is not legal now", inner.legal_moves())

    def _apply_action(self, action):
        box = self._box
        if box.state is None:
            g = box.setup
            box.state = g.rules.new_game(g.players, seed=int(action))
            return
        move = self.move_of(action)
        if move.__class__ is tuple:  # one more argument of a move taken in steps
            box.pending = move
            return
        box.pending = NONE
        box.state._apply(move)  # a move the adapter listed: made without checking it again

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        codec = self._rules_game.actions
        pending = self._box.pending if player == self.current_player() else NONE
        words = codec.describe(action, pending)
        try:
            move = codec.decode(action, pending)
        except ParameterError:
            return words
        if isinstance(move, Move):
            return f"{words} [{move}]" if move.args else words
        name = codec.flat.blocks[move[0]][0]  # a step: told apart by the card ids (two cards may look alike)
        so_far = str(Move(name, tuple(move[1])))  # its arguments written as a move writes them (true, not True)
        return f"{words} [{so_far[:-1]}, …)]"

    def is_terminal(self):
        inner = self._box.state
        return inner is not None and inner.is_over

    def returns(self):
        if self.inner is None or not self.inner.is_over:
            return [0.0] * self._rules_game.players
        return outcome(self.inner, "win")

    def __str__(self):
        if self.inner is None:
            return "seed not chosen"
        text = state_text(self.inner)
        if self._box.pending:
            text += f"\n  chosen so far: {self._rules_game.actions.pending_text(self._box.pending)}"
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler):
        """A state ``player_id`` cannot tell from this one: the hidden cards dealt again at random
        (:meth:`ruledsl.worlds.Knowledge.sample`), with a generator seeded from ``probability_sampler``.
        Before the chance node, the state itself (nothing is known yet, nothing to resample)."""
        clone = self.clone()
        if self.inner is None or self.inner.is_over:
            return clone
        seed = int(float(probability_sampler()) * (1 << 53))
        given = self._box.knowledge
        if given is not None and given[0].player == player_id and given[1] == len(self.inner.moves):
            knowledge = given[0]  # what the player knows of the world this state became (see become)
        else:
            knowledge = Knowledge(self.inner, player_id)
        world = knowledge.sample(random.Random(seed))
        seen, records = self._box.recall()
        histories = [list(seen[p]) if p == player_id else ["resampled", ObservationCodec.text(world.view(p))]
                     for p in range(self.inner.n)]
        fresh = self._box.setup.history.start()
        records = [records[p] if p == player_id else fresh[p] for p in range(self.inner.n)]
        clone._box.state = world
        clone._box.memory = (len(world.moves), world.clone(), histories, records)
        return clone

    def become(self, world, knowledge=None) -> None:
        """Make this state the ruledsl state ``world``, such as a world sampled from a player's
        Knowledge. A world has no seed to replay its history from, so every player's history (views and
        moves seen) starts again from what they see in it (as the other players' do after resample_from_infostate).
        With ``knowledge`` (the Knowledge ``world`` was sampled from, which may know what the player saw
        and what the others' moves ruled out: engine/sight.py), resampling for its player here draws
        from it, as ruledsl's own search does."""
        self._box.state = world
        self._box.knowledge = None if knowledge is None else (knowledge, len(world.moves))
        self._box.memory = (len(world.moves), world.clone(),
                            [["resampled", ObservationCodec.text(world.view(p))] for p in range(world.n)],
                            self._box.setup.history.start())  # the moves seen: none yet, in the world

    def information_state_text(self, player: int) -> str:
        """The player's views after the chance node and after every move, one a line."""
        if self.inner is None:
            return "seed not chosen"
        lines = self._box.recall()[0][player]
        if self._box.pending and player == self.inner.actor:
            lines = lines + [f"chosen so far: {self._box.setup.actions.pending_text(self._box.pending)}"]
        built = self._box.setup.observations.set_labels(self.inner, player)
        if built:
            lines = lines + [f"set so far: {ObservationCodec.set_text(built)}"]
        return "\n".join(lines)

    def information_state_vector(self, player: int) -> np.ndarray:
        """The player's observation tensor, then the moves they have seen (``HistoryCodec``)."""
        g = self._box.setup
        if self.inner is None:
            return np.zeros(g.observation_size + g.history.size, np.float32)
        return np.concatenate([observation_vector(self, player), g.history.encode(self._box.recall()[1][player])])


class _Box:
    """The ruledsl part of a state. pyspiel clones a Python state with copy.deepcopy: this copies
    the ruledsl State with its own clone(), sharing the compiled program."""

    def __init__(self, params, state, memory=None, pending=NONE):
        self.params = params
        self.setup = _setup(params)
        self.state = state
        # (moves seen, a state after them, each player's views so far, each player's record of the
        # moves seen): computed when asked for, shared by clones (a clone's history starts with its
        # original's) and never changed in place
        self.memory = memory
        self.pending = pending  # what the deciding player has chosen so far of a move in steps
        # (the list of legal moves, the pending, and the codec's answer for them): the legal actions
        # and what each leads to, worked out once per state; a clone shares it while it shares the
        # list (State.clone does), and an action or a new state gives a new list, so a new answer
        self.answer = NO_ANSWER
        self.knowledge = None  # (a Knowledge, the number of moves of the world it was given for): become()

    def legal(self) -> tuple:
        """``(sorted legal action ids, {action id: move or new pending})`` of the deciding player now."""
        answer = self.answer
        if answer[0] is self.state._legal and answer[1] is self.pending:
            return answer[2], answer[3]
        ids, leads = self.setup.actions.legal(self.state, self.pending)  # (it lists the moves if need be)
        self.answer = (self.state._legal, self.pending, ids, leads)
        return ids, leads

    def recall(self) -> tuple:
        """(each player's views after every step, each player's record of the moves seen), extending
        what an earlier call remembered."""
        s = self.state
        memory = self.memory
        history = self.setup.history
        if memory is None or memory[1].seed != s.seed or memory[1].moves != s.moves[:memory[0]]:
            # (a resampled world has no seed to replay from: its memory was set when it was made)
            start = s.game.new_game(s.n, s.seed)
            memory = (0, start, [[ObservationCodec.text(start.view(p))] for p in range(s.n)], history.start())
        done, at, seen, records = memory
        if done < len(s.moves):
            at = at.clone()
            seen = [list(x) for x in seen]
            records = history.copy(records)
            for move in s.moves[done:]:
                before = history.seen_before(at, move)
                at._apply(move)
                history.note(records, before, at, move)
                for p in range(s.n):
                    seen[p].append(ObservationCodec.text(at.view(p)))
            memory = (len(s.moves), at, seen, records)
        self.memory = memory
        return seen, records

    def __deepcopy__(self, memo):
        box = _Box(self.params, None if self.state is None else self.state.clone(), self.memory, self.pending)
        box.answer = self.answer  # never changed in place, and keyed by the legal list the clone shares
        box.knowledge = self.knowledge
        return box

    def __reduce__(self):  # pickling (pyspiel serializes a Python state with pickle): the state as JSON
        return _unbox, (self.params, None if self.state is None else self.state.to_json(), self.pending)


def _unbox(params, text, pending=NONE) -> _Box:
    state = None if text is None else _setup(params).rules.state_from_json(text)
    return _Box(params, state, pending=pending)


def observation_vector(state: RuledslState, player: int, part: str = "all") -> np.ndarray:
    """``player``'s observation tensor: their view (or its public or private part) encoded, then
    what they have chosen so far of a move in steps, then the cards of a set of cards they are
    building (both zero for the others and for the public part)."""
    g = state._box.setup
    inner = state.inner
    if inner is None:
        return np.zeros(g.observation_size, np.float32)
    view = inner.view(player) if part == "all" else view_part(inner, player, part)
    mine = player == inner.actor and part != "public"
    pending = state._box.pending if mine else NONE
    built = g.observations.set_labels(inner, player) if mine else None
    return np.concatenate([g.observations.encode(view), g.actions.pending_vector(pending),
                           g.observations.set_vector(built)])


class _Observer:
    """The PyObserver of a ruledsl game: tensor and string from ``view(player)``, or from its public or
    its private part (OpenSpiel's factored observations, which its playthrough tool asks for)."""

    def __init__(self, setup: _Setup, recall: bool, part: str = "all"):
        self.recall = recall
        self.part = part
        self.setup = setup
        size = setup.observation_size + (setup.history.size if recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.recall:
            self.tensor[:] = state.information_state_vector(player)
        else:
            self.tensor[:] = observation_vector(state, player, self.part)

    def string_from(self, state, player):
        if self.recall:
            return state.information_state_text(player)
        if state.inner is None:
            return "seed not chosen"
        inner = state.inner
        view = inner.view(player) if self.part == "all" else view_part(inner, player, self.part)
        if state.pending and player == inner.actor and self.part != "public":
            view = dict(view, chosen_so_far=self.setup.actions.pending_text(state.pending))
        built = self.setup.observations.set_labels(inner, player) if self.part != "public" else None
        if built:
            view = dict(view, set_so_far=ObservationCodec.set_text(built))
        return ObservationCodec.text(view)


def view_part(inner, player: int, part: str) -> dict:
    """The part of ``player``'s view that every player sees (``public``: a card every view shows at that
    place, a variable every view holds with that value, whose decision it is), or what only this player
    sees of it (``private``: the rest of their view, with their legal moves); what is not in the part
    is ``?`` (a card) or left out (a variable)."""
    mine = inner.view(player)
    others = [inner.view(q) for q in range(inner.n) if q != player]
    zones = {}
    for name, cards in mine["zones"].items():
        shared = []
        for i, c in enumerate(cards):
            seen_by_all = all(i < len(o["zones"].get(name) or ()) and o["zones"][name][i] == c for o in others)
            shared.append(seen_by_all)
        if part == "public":
            zones[name] = [c if ok else "?" for c, ok in zip(cards, shared)]
        else:
            zones[name] = ["?" if ok or c == "?" else c for c, ok in zip(cards, shared)]
    public_vars = {k for k, v in mine["vars"].items() if all(k in o["vars"] and o["vars"][k] == v for o in others)}
    fields = [k for k in mine if k not in ("zones", "vars", "legal_moves")]
    same = {k for k in fields if all(o.get(k) == mine[k] for o in others)}  # whose decision it is, the end ...
    out = {k: mine[k] for k in fields if (k in same) == (part == "public")}
    out["zones"] = zones
    if part == "public":
        out["vars"] = {k: v for k, v in mine["vars"].items() if k in public_vars}
    else:
        out["vars"] = {k: v for k, v in mine["vars"].items() if k not in public_vars}
        out["legal_moves"] = mine.get("legal_moves", [])
    return out


pyspiel.register_game(_game_type(), RuledslGame)


def load_game(path, players: int | None = None, params: dict | None = None, seeds: int = DEFAULT_SEEDS,
              actions: str = "steps", raw: bool = False):
    """The rules file at ``path`` as a pyspiel game for ``players`` players (the fewest allowed if None);
    ``actions="flat"`` numbers every move as one action, ``raw=True`` keeps observations' counts raw."""
    game_params = {"path": str(path), "params": format_params(params), "seeds": int(seeds),
                   "actions": str(actions), "raw": bool(raw)}
    if players is not None:
        game_params["players"] = int(players)
    return pyspiel.load_game(SHORT_NAME, game_params)
