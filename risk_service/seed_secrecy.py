"""A finished branch's seeds stay hidden while the game they came from is still played.

A game reveals its dice seeds when it ends (``seed_revealed``) so that anyone may audit its
dice.  A branch holds its ancestors' seeds: its ``game_started`` (and so its opening seed,
which also shuffled the cards and dealt the missions) is its parent's, and with ``--dice same``
or ``script`` the parent's seed stream goes on in it.  So a branch that ends while the game it
branched from is still being played would tell that game's dice, draws and missions to come.

The rule: a revealed seed that came from an ancestor not over yet (the first game up the
branch chain, in the store, that holds it) is shown as ``None``, and the event names that game
(``withheld``); it is shown once that game is over.  A seed a branch took for itself
(``--dice reseed``) is its own to reveal.  The other way round, a game that ends reveals its
seeds whatever its branches do: a branch is a what-if on a history whose seeds come out when
that history ends.

The stored events are never changed: what is withheld is what is shown of them (events served
to a seat or a spectator, the web viewer and its export, the service's export).  The store's
owner still holds everything (``risk export`` and ``risk audit`` on a store of one's own).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from risk_core import RiskError
from risk_service.history import branch_parents
from risk_service.store import GameService

JsonDict = dict[str, Any]


def ancestors(service: GameService, game_id: str) -> list[str]:
    """``game_id``'s parent chain, root first, as the store's branch points tell it (the root
    may be a game the store does not hold)."""
    parent_of = {gid: p.parent for gid, p in branch_parents(service).items()}
    chain = [game_id]
    while chain[-1] in parent_of and parent_of[chain[-1]] not in chain:
        chain.append(parent_of[chain[-1]])
    return chain[:0:-1]


def in_play(service: GameService, game_id: str, seeds: Iterable[int]) -> dict[int, str]:
    """Each of ``seeds`` that came from an ancestor of ``game_id`` not over yet, with that
    ancestor: the first game of the chain, from the root, that holds it.  An ancestor whose
    state cannot be read here (its rule set is not loaded) may hold any seed still to be
    played: every seed not placed higher up is then its own."""
    left = set(seeds)
    out: dict[int, str] = {}
    for gid in ancestors(service, game_id) if left else []:
        try:
            state = service.state(gid)
        except RiskError as e:
            if e.code == "unknown_game":  # a parent not in the store is played nowhere here
                continue
            held, over = left, False
        else:
            held, over = left & {*state.previous_seeds, state.seed}, state.phase == "over"
        out.update({} if over else dict.fromkeys(held, gid))
        left -= held
    return out


def withhold(service: GameService, game_id: str, shown: list[JsonDict]) -> list[JsonDict]:
    """``shown`` (``game_id``'s events as served) with each revealed seed that came from an
    ancestor still in play replaced by None, and those ancestors named in ``withheld``
    (changed in place, and returned).  Without a ``seed_revealed`` it costs a look at each
    event's type."""
    for d in shown:
        if d.get("type") == "seed_revealed":
            held = in_play(service, game_id, d["seeds"])
            if held:
                d["seeds"] = [None if s in held else s for s in d["seeds"]]
                d["withheld"] = sorted(set(held.values()))
    return shown
