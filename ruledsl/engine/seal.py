"""What a save promises, its first half: the digest over a save's canonical JSON (written by
:meth:`~ruledsl.engine.state.State.to_json`, checked by :mod:`.save` when it is read back).

A save (State.to_json) is the whole state, its seed and its moves, plus a digest: the SHA-256 of
its canonical JSON (keys sorted, no spaces) without the digest. Loading promises that the state
is one the rules reach: the digest must match (so a save damaged or edited by hand is refused),
and the moves, replayed from the seed, must give exactly the saved state (so a save whose digest
was recomputed after an edit, or that has none, is refused too: whose turn it is, the cards, the
variables all follow from the moves). The digest is no signature: anyone can recompute it; the
replay is what makes an edited save useless.
"""

from __future__ import annotations

import hashlib
import json

from ..language.errors import SaveError

SAVE_FIELDS = ("players", "seed", "zones", "places", "vars", "locals", "pc", "choice", "actor", "current",
               "rng", "grants", "shown", "known", "moves", "over", "finding")


def _canonical(data: dict) -> str:
    return json.dumps({k: v for k, v in data.items() if k != "digest"}, ensure_ascii=False,
                      separators=(",", ":"), sort_keys=True)


def _sealed(data: dict) -> str:
    digest = hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest()
    return json.dumps({**data, "digest": digest}, ensure_ascii=False, separators=(",", ":"))


def _check_seal(data: dict) -> None:
    """A save's digest, when it has one (saves written before digests existed have none)."""
    if "digest" not in data:
        return
    digest = data["digest"]
    if not isinstance(digest, str) or digest != hashlib.sha256(_canonical(data).encode("utf-8")).hexdigest():
        raise SaveError("the save was changed after it was written: its digest does not match its contents "
                        "(load the save as it was written, or replay the game from its log)")
