"""Risk Napoléon, basic game (rulebook 000, NAP-*): Europe 1811, 3–6 players, world conquest.

Differences from the classic rules: territories are claimed one at a time; a second roll after
setup decides who plays first (NAP-08); the Golden Cavalry track sets every set's value
(NAP-11/DEC-01); the strategic maneuver follows a chain of own territories (NAP-24); no
territory-card bonus (NAP-16/DEC-22); no protected rounds.  Trade obligations (DEC-02): a hand
of 5+ cards at reinforcement must trade down to 4; after an elimination (DEC-03) a hand of 6+
must trade down to 4 at once.  Several sets may be traded in one turn, the track advancing after
each (DEC-46).  Each of these decisions is an option (``NAPOLEON_OPTIONS``) whose default is the
catalogue's recommended reading.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from risk_core.model import DeckFormed, GameState, Seat, TerritoriesDealt
from risk_core.rng import Rng
from risk_core.rulesets.base import Emit, Option, RuleSet

# DEC-01: readings of the scrambled OCR track "4 40 6 20 8 25 10 30 45 50" (000 l.154-164):
# the spaces of the track, and what each set past the last one adds (0: it stays there).
GOLDEN_CAVALRY_TRACKS: dict[str, tuple[tuple[int, ...], int]] = {
    # (C), recommended: the escalation of rulebook 004 (l.176-187) continued by fives.
    "escalation": ((4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50), 5),
    # (B): "40" is a misplaced cell and 15 and 35 were lost.
    "fives": ((4, 6, 8, 10, 15, 20, 25, 30, 35, 40, 45, 50), 5),
    # (A): the legible numbers in order, nothing added; the track ends at 50.
    "printed": ((4, 6, 8, 10, 20, 25, 30, 40, 45, 50), 0),
}
GOLDEN_CAVALRY = GOLDEN_CAVALRY_TRACKS["escalation"][0]
STARTING_REGIMENTS = {3: 40, 4: 35, 5: 30, 6: 25}  # NAP-04
# NAP-23: after an elimination, trade "pour revenir à 4 cartes ou moins".
ELIMINATION_HAND_LIMIT = 4


def golden_cavalry_value(k: int, track: str = "escalation") -> int:
    """NAP-11/DEC-01: the value of the k-th set of the game on the ``track`` reading."""
    spaces, step = GOLDEN_CAVALRY_TRACKS[track]
    if k <= len(spaces):
        return spaces[k - 1]
    return spaces[-1] + step * (k - len(spaces))


# DEC-22, DEC-02, DEC-03 and DEC-46: options of every Napoleon rule set using the basic cards
# rules (the mission and team games leave out those with no effect there).
NAPOLEON_CARD_OPTIONS: dict[str, Option] = {
    "card_territory_bonus": Option(
        default=False,
        doc="DEC-22: +2 regiments on each traded card's territory you occupy (off in the basic "
        "game; the rule exists in the advanced game).",
    ),
    "forced_trade_at": Option(
        default=5,
        minimum=3,
        maximum=5,
        doc="DEC-02 (NAP-13): a hand of this many cards at reinforcement must trade sets, "
        "while it holds this many and a set: 5 (recommended, down to 4), or 3 for the literal "
        "'si vous possédez 3 cartes ou plus, vous DEVEZ échanger une série'.",
    ),
    "elimination_trade_at": Option(
        default=6,
        minimum=3,
        maximum=6,
        doc="DEC-03 (NAP-23): a hand of this many cards after taking an eliminated player's "
        "must trade at once, down to 4 cards: 6 (recommended, reading B), 5 (reading C), or 3 "
        "for the literal '3 cartes ou plus' (then at least one set, if the hand holds one).",
    ),
    "sets_per_turn": Option(
        default="several",
        choices=("several", "one"),
        doc="DEC-46 (NAP-14): several sets may be traded in one reinforcement phase, the track "
        "advancing after each (several), or one set only (one; the trades after an "
        "elimination still follow NAP-23/DEC-03).",
    ),
}

NAPOLEON_OPTIONS: dict[str, Option] = {
    "golden_cavalry": Option(
        default="escalation",
        choices=tuple(GOLDEN_CAVALRY_TRACKS),
        doc="DEC-01 (NAP-11): the Golden Cavalry track: 4, 6, 8, 10, 12, 15, 20 ... 50 then +5 "
        "a set (escalation, recommended); 4, 6, 8, 10, 15, 20 ... 50 then +5 (fives: '40' "
        "misplaced, 15 and 35 lost); or the legible 4, 6, 8, 10, 20, 25, 30, 40, 45, 50, "
        "staying at 50 (printed).",
    ),
    **NAPOLEON_CARD_OPTIONS,
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
        """NAP-11: the Golden Cavalry value (DEC-01 option ``golden_cavalry``)."""
        if not self.is_set(cards):
            return None
        track = str(state.options.get("golden_cavalry", "escalation"))
        return golden_cavalry_value(state.trades + 1, track)

    def is_set(self, cards: Sequence[int]) -> bool:
        """NAP-12: three alike or one of each; a joker stands for any symbol."""
        if len(cards) != 3:
            return False
        plain = {self.board.card_symbols[c] for c in cards} - {"joker"}
        jokers = sum(1 for c in cards if self.board.card_symbols[c] == "joker")
        return jokers > 0 or len(plain) in (1, 3)

    def must_trade(self, state: GameState, seat: Seat) -> bool:
        """NAP-13/DEC-02 at reinforcement: a hand of ``forced_trade_at`` cards (option) or more
        trades while it holds a set it may trade (DEC-46).  NAP-23/DEC-03 in the ``elim_trade``
        step: down to 4 cards; and the first set at once when the threshold is below 5."""
        hand = len(state.players[seat].hand)
        if state.phase == "elim_trade":
            if hand > ELIMINATION_HAND_LIMIT:
                return True
            return state.may_trade and self.elimination_trade_due(state, seat)
        at = int(state.options.get("forced_trade_at", self.forced_trade_at))
        return hand >= at and _any(self.valid_sets(state, seat))

    def elimination_trade_due(self, state: GameState, seat: Seat) -> bool:
        """NAP-23/DEC-03: a hand of ``elimination_trade_at`` cards (option) or more after taking
        an eliminated player's, holding a set (3 or 4 cards need not hold one)."""
        at = int(state.options.get("elimination_trade_at", self.elimination_trade_at))
        return len(state.players[seat].hand) >= at and _any(self.sets_in_hand(state, seat))

    def one_set_per_turn(self, state: GameState) -> bool:
        return state.options.get("sets_per_turn", "several") == "one"  # DEC-46

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


def _any(sets: Iterator[tuple[int, ...]]) -> bool:
    return next(sets, None) is not None
