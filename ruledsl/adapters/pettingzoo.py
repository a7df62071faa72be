"""Any rules file as a PettingZoo AEC environment: ``env(path, players=..., params=...)``.

- Agents are ``player_0`` ... in seat order; ``agent_selection`` is the player
  who must decide.
- Actions: ``Discrete(n)`` over :class:`ruledsl.adapters.steps.StepCodec`'s
  fixed action space (a move of several arguments is chosen one argument an
  action, by the same agent; ``actions="flat"``: one action per move);
  ``observe(agent)["action_mask"]`` marks the legal ones (all zero for an
  agent who is not deciding).
- Observations: ``{"observation": ..., "action_mask": ...}``, the observation
  being :class:`ruledsl.encode.ObservationCodec` of ``State.view(agent)``
  (values in [0, 1]; ``raw=True`` keeps counts raw), then what the agent has
  chosen so far of a move in steps, then (in rules that build sets of cards)
  the cards of the set it is building, counted by face.
- Rewards: 0 until the game ends, then +1 for a win, -1 for a loss, 0 for a
  shared win (:func:`ruledsl.encode.outcome`); ``returns="score"`` gives the
  rules' scores instead, negated where the lowest score wins. A game stopped
  at the rules' move limit is truncated, one that ended is terminated.
- ``reset(seed=s)`` starts the game with engine seed ``s``; without a seed it
  draws one from the environment's own generator.
- ``infos[agent]``: ``"chosen_so_far"`` while the agent chooses a move in steps;
  with ``describe_moves=True`` also ``"legal_moves"``, the deciding agent's legal
  moves in words (``State.describe``) and, while it builds a set of cards,
  ``"set_so_far"`` (``strike(9♦, 6♠)``; the observation holds it as numbers),
  written at every step (which costs about a fifth of a step, so it is asked
  for, not given); with ``mask_in_infos=True``
  also ``"action_mask"``, the deciding agent's action mask (the one ``observe``
  gives), so that ``last(observe=False)`` is enough to decide. An agent who is
  not deciding has none of these.
- ``render()`` returns the state as text (``render_mode="ansi"``) or prints it
  (``"human"``); ``render_view=True`` shows only what the selected agent may see.
"""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..checker import types as T
from ..language.errors import IllegalMove, ParameterError
from .encode import ObservationCodec, outcome, state_text
from .steps import NO_LEADS, NONE, StepCodec


class RuledslEnv(AECEnv):
    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "name": "ruledsl", "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, returns: str = "win", render_mode: str | None = None,
                 render_view: bool = False, actions: str = "steps", raw: bool = False,
                 describe_moves: bool = False, mask_in_infos: bool = False):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ParameterError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if returns not in ("score", "win"):
            raise ParameterError(f"returns must be 'score' or 'win', not {returns!r}")
        if describe_moves not in (True, False):
            raise ParameterError(f"describe_moves must be True or False, not {describe_moves!r}")
        if mask_in_infos not in (True, False):
            raise ParameterError(f"mask_in_infos must be True or False, not {mask_in_infos!r}")
        self.describe_moves = bool(describe_moves)
        self.mask_in_infos = bool(mask_in_infos)
        self._informs = self.describe_moves or self.mask_in_infos  # whether a decision's infos say anything
        self._mask_only = self.mask_in_infos and not self.describe_moves
        self.game = game
        self.players = game.player_count(players)
        self.returns = returns
        self.render_mode = render_mode
        self.render_view = render_view
        self.metadata = dict(self.metadata, name=f"ruledsl {game.name}")
        if actions not in ("steps", "flat"):
            raise ParameterError(f"actions must be 'steps' or 'flat', not {actions!r}")
        self.actions = StepCodec(game.program_for(self.players), self.players, steps=actions == "steps")
        self.observations = ObservationCodec(game.program_for(self.players), self.players, normalise=not raw)
        self.pending = NONE  # what the selected agent has chosen so far of a move taken in steps
        size = self.observations.size + self.actions.pending_size + self.observations.set_size
        low, high = (-np.inf, np.inf) if raw else (0.0, 1.0)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.actions.num_actions
        self._zeros = np.zeros(n, np.int8)  # an empty action mask, copied for each mask made
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            })
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self._words: dict = {}  # decision -> {id(move): (move, its plain words, its card arguments)}
        # (the list of legal moves, the pending, {action: the move it makes or the pending it leaves}) of
        # the decision that step worked out for the mask in the infos (mask_in_infos)
        self._leads = NO_LEADS
        self.game_state = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng.seed(seed)
            game_seed = int(seed)
        else:
            game_seed = self._rng.randrange(2**53)
        self.game_state = self.game.new_game(self.players, seed=game_seed)
        self.pending = NONE
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        """The deciding agent selected, with its infos (``step`` does the same in place)."""
        s = self.game_state
        if not s.is_over:
            agent = self.agent_selection = self.possible_agents[s.actor]
            self.infos[agent] = self._info(s)

    def _info(self, s) -> dict:
        """The deciding agent's infos: the mask and the words when asked for, what is chosen so far."""
        info = {"legal_moves": self._described(s)} if self.describe_moves else {}
        if self.mask_in_infos:
            info["action_mask"] = self._mask(self._legal()[0])
        if self.pending:
            info["chosen_so_far"] = self.actions.pending_text(self.pending)
        if self.describe_moves and s.choice in self.observations.set_choices:  # words, when asked for
            built = self.observations.set_labels(s, s.actor)
            if built is not None:
                info["set_so_far"] = self.observations.set_text(built)
        return info

    def _mask(self, ids) -> np.ndarray:
        """A new action mask with the actions ``ids`` set (one at a time: cheaper than ``mask[list(ids)]``
        for the few legal actions of a decision)."""
        mask = self._zeros.copy()
        for a in ids:
            mask[a] = 1
        return mask

    def _described(self, s) -> list[str]:
        """``s.describe_moves(s.legal_moves())``, with each move's plain words (which depend only on
        the decision and the move) worked out once; moves that read alike are told apart by the
        state as describe_moves does."""
        legal = s._legal
        if legal is None:
            s.legal_moves()
            legal = s._legal
        memo = self._words.get(s.choice)
        if memo is None:
            memo = self._words[s.choice] = {}
        get = memo.get
        texts = []
        for m in legal:
            text = get(id(m))
            if text is None or text[0] is not m:
                text = memo[id(m)] = (m, s._plain(m), self._card_args(s, m))  # kept with it: its id stays its own
            texts.append(text[1])
        if len(set(texts)) == len(texts):
            return texts
        groups: dict = {}
        for m, text in zip(legal, texts):
            groups.setdefault(text, []).append(m)
        out = []
        for m, text in zip(legal, texts):
            alike = groups[text]
            if len(alike) > 1 and not self._same_places(s, alike, memo[id(m)][2]):
                text = s.describe(m)
            out.append(text)
        return out

    @staticmethod
    def _card_args(s, m) -> tuple:
        """The positions of ``m``'s arguments that are cards (State.describe adds their place)."""
        return tuple(i for i, a in enumerate(m.args)
                     if s._arg_kind(m, i) == T.CARD and a.__class__ is int and 0 <= a < s.program.card_count)

    @staticmethod
    def _same_places(s, alike: list, card_args: tuple) -> bool:
        """Whether every card argument of the moves ``alike`` (which read the same) is in one place:
        then State.describe gives each its plain words (it adds a card's place only where another
        move that reads the same takes its card from elsewhere)."""
        for i in card_args:
            places = {s.card_place(m.args[i]) for m in alike}
            if len(places) > 1:
                return False
        return True

    def _legal(self) -> tuple:
        """``(sorted legal action ids, {action id: move or new pending})``: ``self.actions.legal``, which
        keeps its last answer (for the state's list of legal moves and the pending)."""
        return self.actions.legal(self.game_state, self.pending)

    def observe(self, agent):
        player = self._index[agent]
        s = self.game_state
        deciding = not s.is_over and s.current_player == player
        mask = self._mask(self._legal()[0] if deciding else ())
        codec = self.observations
        observation = np.concatenate([codec.encode(s.view(player)),
                                      self.actions.pending_vector(self.pending if deciding else NONE),
                                      codec.set_vector(codec.set_labels(s, player) if deciding else None)])
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        s = self.game_state
        if s.is_over:  # every agent is terminated or truncated (set together, when the game ended)
            self._was_dead_step(action)
            return
        pending = self.pending
        legal = s._legal
        kept = self._leads  # what the last step worked out for the mask in the infos
        if kept[0] is legal and kept[1] is pending:
            move = kept[2].get(action)
        else:
            last = self.actions._last  # the codec's answer for the list of legal moves it met last
            if last[0] is legal and last[1] is pending:  # worked out once per state
                move = last[2][1].get(action)
            else:
                move = self._legal()[1].get(action)
        if move is None:  # an action the mask rules out: the state is unchanged
            raise IllegalMove(self.actions.describe(action, pending), f"action {action} is not legal now",
                              s.legal_moves())
        # (rewards and cumulative rewards are all 0 until the game ends: nothing to clear before then)
        if move.__class__ is tuple:  # one more argument of a move taken in steps: the same agent goes on
            self.pending = move
            self.infos[self.agent_selection] = self._info(s)
            return
        self.pending = NONE
        s._apply(move)  # a legal move: made without checking it again
        if not s.is_over:
            before = self.agent_selection
            agent = self.agent_selection = self.possible_agents[s.actor]
            infos = self.infos
            if self._mask_only:  # the mask, from the legal actions worked out here (nothing pending), unsorted
                legal = s._legal
                if legal is None:
                    s.legal_moves()
                    legal = s._legal
                leads = self.actions.leads(s, legal)
                self._leads = (legal, NONE, leads)
                mask = self._zeros.copy()
                for a in leads:
                    mask[a] = 1
                infos[agent] = {"action_mask": mask}
                if before != agent:  # an agent not deciding has no mask
                    infos[before] = {}
            elif self._informs:  # the words (and the mask) of the new decision; none for an agent not deciding
                infos[agent] = self._info(s)
                if before != agent:
                    infos[before] = {}
            elif infos[before]:  # the mover's "chosen_so_far" of a move now made
                infos[before] = {}
        else:
            results = outcome(s, self.returns)
            stopped = s.finding is not None
            for a in self.agents:
                self.rewards[a] = results[self._index[a]]
                self.terminations[a] = not stopped
                self.truncations[a] = stopped
                self.infos[a] = {"scores": s.scores, "winners": s.winners, "finding": s.finding}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]

    def render(self):
        if self.render_mode is None:
            return None
        if self.game_state is None:
            text = "not started: call reset()"
        else:
            player = self._index[self.agent_selection] if self.render_view else None
            text = state_text(self.game_state, player)
            if self.pending:
                text += f"\n  chosen so far: {self.actions.pending_text(self.pending)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(path, players: int | None = None, params: dict | None = None, **options) -> RuledslEnv:
    """The rules file at ``path`` (with ``params``) as an AEC environment for ``players`` players."""
    from ..engine.load import load

    return RuledslEnv(load(path, params=params), players, **options)
