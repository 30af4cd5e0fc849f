"""A standard game of Risk on the Clone Wars galaxy (rulebook 002, CW-STD-01..12).

``clonewars-standard`` sets aside everything the Clone Wars edition adds (ships, Separatist
tokens, the Order 66 track, d8 dice, factions; CW-STD-01/12) and plays classic world
conquest on the 42 planets of ``boards/clonewars`` (:mod:`~risk_core.rulesets.clonewars_data`):

* cards (CW-STD-02): both faction decks mixed into one, without the cards showing Anakin; a
  card counts only by its ship class (its trade symbol);
* dice (CW-STD-03): d6 only, the core's 3 against 2;
* players (CW-STD-04, DEC-37/GAP-25): 3 with 35 troops each or 4 with 30; 2 is not described;
* setup (CW-STD-11): the core's claiming, one planet then one troop at a time from the
  highest d6 roll, no Republic-first claim;
* the turn (CW-STD-05): reinforcements (planets / 3, at least 3, plus system bonuses), cards,
  placement, invasions, one free move along own planets (CW-STD-08), one card after a
  conquest (CW-STD-09);
* sets (CW-STD-10, DEC-37): 3 fighters 4, 3 corvettes 5, 3 capital ships 6, one of each 7
  (option ``trade_values``); a hand of 5 cards must trade;
* elimination (CW-STD-06): the eliminator takes the cards and trades at once while it holds
  5 or more;
* victory (CW-STD-07): the last player, holding all 42 planets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from risk_core.errors import RuleError
from risk_core.model import GameState, Seat, TerritoriesDealt
from risk_core.rng import Rng
from risk_core.rulesets.base import Emit, Option
from risk_core.rulesets.classic import COMMON_OPTIONS, ClassicConquest, escalating_value
from risk_core.rulesets.clonewars_data import SHIP_CLASSES, anakin_cards

# CW-21 / DEC-37 (A): troops for three cards of a class, and for one of each class.
SHIP_SET_VALUES = {"fighter": 4, "corvette": 5, "capital": 6}
MIXED_SET_VALUE = 7
STANDARD_TROOPS = {3: 35, 4: 30}  # CW-STD-04 (002 l.184-190)


class CloneWarsStandard(ClassicConquest):
    """CLONEWARS-STANDARD: world conquest on the galaxy board, one mixed deck, d6 only."""

    name = "clonewars-standard"
    title = "Standard Risk on the Clone Wars galaxy (3–4 players)"
    board_name = "clonewars"
    min_players = 3
    max_players = 4  # DEC-37 / GAP-25: 2 players are not described
    options: ClassVar[dict[str, Option]] = {
        "first_player": COMMON_OPTIONS["first_player"],
        "trade_values": Option(
            default="ship_class",
            choices=("ship_class", "escalating"),
            doc="DEC-37 (CW-STD-10): the Clone Wars table, 3 fighters 4, 3 corvettes 5, "
            "3 capital ships 6, one of each 7 (ship_class, recommended: the only table of "
            "rulebook 002), or the classic escalating values 4, 6, 8, 10, 12, 15, 20, 25, "
            "+5 (escalating).",
        ),
    }

    # ------------------------------------------------------------------ setup
    def starting_armies(self, state: GameState) -> int:
        return STANDARD_TROOPS[len(state.players)]  # CW-STD-04

    def deal_territories(self, state: GameState, emit: Emit) -> None:
        """CW-STD-11: every planet starts unclaimed; players claim them one at a time."""
        n_seats, n = len(state.players), self.n_territories
        rng = Rng(state.seed, state.rng)
        start = self.starting_armies(state)
        emit(
            TerritoriesDealt(
                owners=(-1,) * n, armies=(0,) * n, setup_left=(start,) * n_seats, rng=rng.counter
            )
        )

    def all_cards(self) -> list[int]:
        """CW-STD-02: both faction decks in one pile, less the cards showing Anakin."""
        anakin = anakin_cards(self.board)
        return [c.id for c in self.board.cards if c.id not in anakin]

    def scenario_deck(self) -> list[int]:
        return self.all_cards()  # a scenario's hands and pile: the standard deck (CW-STD-02)

    # ------------------------------------------------------------------ cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """CW-STD-10 with DEC-37: three of a ship class, or one of each class."""
        if len(cards) != 3:
            return None
        classes = [self.board.card_symbols[c] for c in cards]
        same = len(set(classes)) == 1
        mixed = sorted(classes) == sorted(SHIP_CLASSES)
        if not (same or mixed):
            return None
        if state.options.get("trade_values", "ship_class") == "escalating":
            return escalating_value(state.trades + 1)
        return SHIP_SET_VALUES[classes[0]] if same else MIXED_SET_VALUE

    # ------------------------------------------------------------------ moves
    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        return None  # CW-STD-08: any player may attack any other, at any time

    def fortify_mode(self, state: GameState) -> str:
        return "connected"  # CW-STD-08 / 002 l.470-474: a path of your own planets

    def elimination_forced_trade(self, state: GameState) -> bool:
        return True  # CW-STD-06: trade at once while the hand holds 5 or more
