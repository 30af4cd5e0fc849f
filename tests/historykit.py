"""Long games for the history tests (audit, export, import): played by random legal commands,
attacks preferred, as the records a store or an export holds."""

from __future__ import annotations

import random

import risk_core as rc
from risk_core.model import Attack
from risk_service.store import GameRecord

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def played_records(game_id: str, events: int, seed: int) -> list[GameRecord]:
    """A classic game named ``game_id`` of about ``events`` events (random legal commands,
    attacks 70% of the time when there are some): its opening, then one record per command."""
    rnd = random.Random(seed)
    opening = rc.start("classic", PLAYERS, seed=seed, game_id=game_id)
    state = rc.replay(opening)
    records = [GameRecord(version=state.version, command=None, events=tuple(opening))]
    while state.version < events and state.phase != "over":
        legal = rc.legal_commands(state)
        attacks = [c for c in legal if isinstance(c, Attack)]
        cmd = rnd.choice(attacks if attacks and rnd.random() < 0.7 else legal)
        out = rc.decide(state, cmd)
        rc.apply_in_place(state, out)
        records.append(GameRecord(version=state.version, command=cmd, events=tuple(out)))
    return records
