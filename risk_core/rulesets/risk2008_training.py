"""Risk 2008, the Training game (rulebook 003 §Entraînement, R08-TR-*).

The Training card fixes the position (GAP-23: reconstructed, see ``boards/risk2008``): the
colours in turn order (3 players: yellow, green, blue; seat 0 plays first), every regiment and
capital, the 15 cities of 003 l.226-244 and the 8 Training missions, with no rewards
(R08-TR-06); the last seats start with cards (3 players: blue 1; 4-5 players as R08-CC-08).
The goal is R08-18: three missions and your own capital at the end of your turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import msgspec

from risk_core.errors import SetupError
from risk_core.model import (
    DeckFormed,
    FirstPlayerChosen,
    GameState,
    SeatInfo,
    TerritoriesDealt,
)
from risk_core.rng import Rng
from risk_core.rulesets.base import Emit
from risk_core.rulesets.risk2008 import R08_PHASES, Risk2008Family
from risk_core.rulesets.risk2008_state import R08BoardSet


def training_colours(
    rs: Risk2008Family, seats: list[SeatInfo], players: Sequence[str | SeatInfo]
) -> list[SeatInfo]:
    """R08-TR-01: seats in the Training card's turn order take its colours (seats given as
    plain names or without a colour; a SeatInfo with a colour keeps its own)."""
    setup = rs.setups.get(len(seats))
    if setup is None:
        return seats
    return [
        s if isinstance(p, SeatInfo) and p.colour else msgspec.structs.replace(s, colour=c.colour)
        for p, s, c in zip(players, seats, setup.seats, strict=True)
    ]


def training_opening(rs: Risk2008Family, state: GameState, emit: Emit) -> None:
    """R08-TR-02..04: the Training card's position, cities and missions (no rewards); the
    pile; seat 0 (the card's first colour) starts (GAP-23)."""
    n = len(state.players)
    setup = rs.setups.get(n)
    if setup is None:
        raise SetupError("missing_data", f"Board {rs.board.id} has no {n}-player setup.")
    owners, armies = [-1] * rs.n_territories, [0] * rs.n_territories
    for s, seat in enumerate(setup.seats):
        for tid, count in seat.regiments.items():
            owners[rs.board.index[tid]], armies[rs.board.index[tid]] = s, count
    missions = tuple(rs.default_missions())
    emit(
        R08BoardSet(
            cities=rs.training_cities,
            capitals=tuple(seat.capital for seat in setup.seats),
            missions=missions,
            rewards=("",) * len(missions),
            rng=state.rng,
        )
    )
    rng = Rng(state.seed, state.rng)
    emit(DeckFormed(deck=tuple(rng.shuffle(rs.board.deck_cards("main"))), rng=rng.counter))
    emit(FirstPlayerChosen(rolls=(), seat=0, rng=state.rng))
    emit(
        TerritoriesDealt(
            owners=tuple(owners), armies=tuple(armies), setup_left=(0,) * n, rng=state.rng
        )
    )


def training_cards(rs: Risk2008Family, state: GameState, emit: Emit) -> None:
    """R08-TR-05: the Training card's starting cards (GAP-23 for 4-5 players)."""
    setup = rs.setups[len(state.players)]
    rs.deal_start_cards(state, [seat.cards for seat in setup.seats], emit)


class Risk2008Training(Risk2008Family):
    """RISK2008-TRAINING: the Training card's position, 15 fixed cities, 8 fixed missions."""

    name = "risk2008-training"
    title = "Risk 2008, Training game: fixed start, 3 missions and your capital (3–5 players)"
    phases: ClassVar[dict[str, str]] = {
        **R08_PHASES,
        "setup": "none: the Training card sets every regiment, city and capital at once",
    }

    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        return training_colours(self, super().seats_for(players), players)

    def starting_armies(self, state: GameState) -> int:
        return 0  # R08-TR-02: every regiment is on the board from the start

    def opening(self, state: GameState, emit: Emit) -> None:
        training_opening(self, state, emit)

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        training_cards(self, state, emit)
