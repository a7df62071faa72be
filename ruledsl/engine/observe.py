"""What one player observes of a game: their view, whose decision is next, and the moves of others
as they are shown to that player.

A move's card argument is shown to a player only if that player can see the card just before
or just after the move (a card played face up onto the table is shown; a card put face down,
or taken from the deck into another player's hand, is shown as ``?``). Everything else about a
move (its name, numbers, players) is public: every player sees which move was made, except in a
secret choice (`choose NAME by each p in ...`): the others are shown only ``NAME: ?``.
"""

from __future__ import annotations

from ..checker import types as T


def move_seen(before, after, move, viewer) -> str:
    """``move``, made in state ``before`` and leading to ``after``, as ``viewer`` is shown it
    (``viewer``: a player, or several players sharing one screen).

    A card argument is its label if the viewer sees the card before or after the move, else ``?``;
    a card that lay face up for everybody (a public zone) is said where it came from:
    ``play(2♥ from declared[0])``. Nothing here depends on a card the viewer cannot see."""
    viewers = [viewer] if isinstance(viewer, int) else sorted(viewer)
    if not before.over and before.choice >= 0 and before.program.choices[before.choice].secret \
            and viewers != [before.actor]:
        # a hidden commitment of players who choose together: the others learn only that it was made
        return f"{before.program.choices[before.choice].name}: ?"
    kinds = _kinds(before, move)
    parts = []
    for i, a in enumerate(move.args):
        if i < len(kinds) and kinds[i] == T.CARD and 0 <= a < before.program.card_count:
            if all(_seen(before, v, a) for v in viewers):
                where = before.loc[a]
                zone = before.program.zones[where] if where >= 0 else None
                public = zone is None or zone.visibility == "public"
                parts.append(before.describe_arg(move, i) + (f" from {before.card_place(a)}" if public else ""))
            elif all(_seen(before, v, a) or _seen(after, v, a) for v in viewers):
                parts.append(before.describe_arg(move, i))
            else:
                parts.append("?")
        else:
            parts.append(before.describe_arg(move, i))
    text = move.name + (f"({', '.join(parts)})" if parts else "")
    shown = [c for c in after.shown_to(viewers[0]) if all(c in after.shown_to(v) for v in viewers[1:])]
    if shown:  # cards `show` showed the viewer during the move
        text += " showing " + ", ".join(after.program.card_labels[c] for c in shown)
    return text


def observation(state, viewer: int) -> dict:
    """Everything ``viewer`` may know of ``state``: their view, with the pending decision and its actor."""
    return state.view(viewer)


def _kinds(state, move) -> list:
    if state.over or state.choice < 0:
        return []
    for o in state.program.choices[state.choice].options:
        if o.name == move.name and len(o.params) == len(move.args):
            return o.kinds
    return []


def _seen(state, viewer: int, card) -> bool:
    return isinstance(card, int) and 0 <= card < state.program.card_count and state.card_visible(viewer, card)
