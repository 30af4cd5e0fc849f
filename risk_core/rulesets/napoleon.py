"""Risk Napoléon, basic game (rulebook 000, NAP-*): Europe 1811, 3–6 players, world conquest.

Differences from the classic rules: territories are claimed one at a time; a second roll after
setup decides who plays first (NAP-08); the Golden Cavalry track sets every set's value
(NAP-11/DEC-01); the strategic maneuver follows a chain of own territories (NAP-24); no
territory-card bonus (NAP-16/DEC-22); no protected rounds.  Trade obligations (DEC-02): a hand
of 5+ cards at reinforcement must trade down to 4; after an elimination (DEC-03) a hand of 6+
must trade down to 4 at once.  Several sets may be traded in one turn, the track advancing after
each (DEC-46).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from risk_core.model import DeckFormed, GameState, Seat, TerritoriesDealt
from risk_core.rng import Rng
from risk_core.rulesets.base import Emit, Option, RuleSet

# DEC-01: the scrambled OCR track "4 40 6 20 8 25 10 30 45 50" read as one ascending track.
GOLDEN_CAVALRY = (4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50)
STARTING_REGIMENTS = {3: 40, 4: 35, 5: 30, 6: 25}  # NAP-04


def golden_cavalry_value(k: int) -> int:
    """NAP-11/DEC-01: the k-th set of the game; past the printed track, +5 per set."""
    if k <= len(GOLDEN_CAVALRY):
        return GOLDEN_CAVALRY[k - 1]
    return GOLDEN_CAVALRY[-1] + 5 * (k - len(GOLDEN_CAVALRY))


NAPOLEON_OPTIONS: dict[str, Option] = {
    "card_territory_bonus": Option(
        default=False,
        doc="DEC-22: +2 regiments on each traded card's territory you occupy (off in the basic "
        "game; the rule exists in the advanced game).",
    ),
}


class Napoleon(RuleSet):
    """NAPOLEON: claim-by-turn setup, Golden Cavalry trade track, own all 48 to win."""

    name = "napoleon"
    title = "Risk Napoléon, basic game: conquer Europe 1811 (3–6 players)"
    board_name = "napoleon"
    options: ClassVar[dict[str, Option]] = dict(NAPOLEON_OPTIONS)
    elimination_trade_at = 6  # DEC-03: 6+ cards after an elimination → trade down to 4

    def starting_armies(self, state: GameState) -> int:
        return STARTING_REGIMENTS[len(state.players)]

    # ------------------------------------------------------------------ setup
    def opening(self, state: GameState, emit: Emit) -> None:
        rng = Rng(state.seed, state.rng)
        deck = rng.shuffle(list(range(len(self.board.card_symbols))))  # NAP-05: jokers in
        emit(DeckFormed(deck=tuple(deck), rng=rng.counter))
        self.choose_first_player(state, emit)  # NAP-05: highest die claims first
        self.claim_setup(state, emit)

    def claim_setup(self, state: GameState, emit: Emit) -> None:
        """NAP-06/07: every territory empty; claims then placements, one at a time."""
        n = self.n_territories
        start = self.starting_armies(state)
        emit(
            TerritoriesDealt(
                owners=(-1,) * n,
                armies=(0,) * n,
                setup_left=tuple(0 if p.neutral else start for p in state.players),
                rng=state.rng,
            )
        )

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        """NAP-08: a fresh roll decides who plays the first turn."""
        self.choose_first_player(state, emit)

    # ------------------------------------------------------------------ cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        if not self.is_set(cards):
            return None
        return golden_cavalry_value(state.trades + 1)

    def is_set(self, cards: Sequence[int]) -> bool:
        """NAP-12: three alike or one of each; a joker stands for any symbol."""
        if len(cards) != 3:
            return False
        plain = {self.board.card_symbols[c] for c in cards} - {"joker"}
        jokers = sum(1 for c in cards if self.board.card_symbols[c] == "joker")
        return jokers > 0 or len(plain) in (1, 3)

    def card_bonus_territories(
        self, state: GameState, seat: Seat, cards: Sequence[int]
    ) -> list[int]:
        if not state.options.get("card_territory_bonus"):
            return []
        territory = self.board.card_territory
        return [t for c in cards if (t := territory(c)) is not None and state.owner[t] == seat]

    # ------------------------------------------------------------------ moves
    def fortify_mode(self, state: GameState) -> str:
        return "connected"  # NAP-24: along a chain of own territories
