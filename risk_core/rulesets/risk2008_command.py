"""Risk 2008, Command Center and Conquest (rulebook 003, R08-CC-*, R08-CQ-*).

Command Center (``risk2008``) sets up at random (R08-CC-01..08): 15 city cards drawn, 4 of the
6 minor and 4 of the 6 major missions face up (DEC-43), a small reward on each minor mission and
a supreme one on each major (GAP-24: one token of each kind), 30/25/20 regiments; capitals are
placed first in dice order (``PlaceCapital``: the capital and 1 regiment on an empty
territory), then territories are claimed one regiment at a time and the rest placed one at a
time; turn order from the first player, who starts with no card (then 0, 1, 1, 2).

Completing a mission also wins its reward (R08-CC-09), kept while its owner plays (DEC-42:
permanent abilities): an airfield placed at once on one of your territories (+1 to your best
die in battles on it or next to it, DEC-41; destroyed when the territory falls), the
Strategic Maneuver (``StrategicMove`` before the first attack), the Bonus Maneuver (a second
reorganisation), the Bonus Card (a card every turn, in addition to the conquest card), the
bonus attack and defence dice (one more die, best kept) and 2 regiments a turn.  The dice
modifiers apply in the order of R08-CC-17.

Conquest (``risk2008-conquest``) plays the same game (DEC-44) but only holding all 42
territories wins; missions and their rewards can still be taken (R08-CQ-01/02).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import ClassVar

from risk_core.model import (
    Command,
    DeckFormed,
    GameState,
    OptionValue,
    TerritoriesDealt,
)
from risk_core.rng import Rng
from risk_core.rulesets.base import Emit, Option
from risk_core.rulesets.risk2008 import R08_OPTIONS, R08_PHASES, Risk2008Family
from risk_core.rulesets.risk2008_state import R08BoardSet
from risk_core.rulesets.risk2008_training import training_cards, training_opening

STARTING_REGIMENTS = {3: 30, 4: 25, 5: 20}  # R08-CC-04
STARTING_CARDS = (0, 0, 1, 1, 2)  # R08-CC-08, by place in the turn order
CITIES = 15  # R08-CC-01
MISSIONS_EACH = 4  # R08-CC-02: 4 minor and 4 major face up

COMMAND_OPTIONS: dict[str, Option] = {
    **R08_OPTIONS,
    "airfield_scope": Option(
        default="attacked",
        choices=("attacked", "either"),
        doc="DEC-41 (R08-CC-10): an airfield helps its owner in battles whose attacked territory "
        "is the airfield's or next to it (attacked, recommended: a battle 'takes place' on the "
        "attacked territory), or whose attacking or attacked territory is (either).",
    ),
    "bonus_card": Option(
        default="additional",
        choices=("additional", "instead"),
        doc="DEC-42 (R08-CC-13): the Bonus Card reward draws a card at the end of every turn in "
        "addition to the conquest card (additional, recommended: 2 cards after a conquest), or "
        "one card every turn, conquest or not (instead).",
    ),
    "city_cards": Option(
        default="reshuffle",
        choices=("reshuffle", "set_aside"),
        doc="DEC-43 (R08-CC-01): the 15 cards drawn to place the cities go back and all 42 are "
        "shuffled into the pile (reshuffle, recommended), or they stay out of the game and the "
        "pile has 27 cards (set_aside).",
    ),
}

COMMAND_PHASES: dict[str, str] = {
    **R08_PHASES,
    "airfield": "place the airfield you have just won on one of your territories",
}


class Risk2008Command(Risk2008Family):
    """RISK2008 (Command Center): random cities, capitals first, missions with rewards."""

    name = "risk2008"
    title = "Risk 2008, Command Center: capitals, cities, missions with rewards (3–5 players)"
    options: ClassVar[dict[str, Option]] = dict(COMMAND_OPTIONS)
    phases: ClassVar[dict[str, str]] = COMMAND_PHASES
    rewards_in_play = True
    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **Risk2008Family.LEGAL,
        "airfield": Risk2008Family._legal_airfield,
    }

    def starting_armies(self, state: GameState) -> int:
        return STARTING_REGIMENTS[len(state.players)]

    def opening(self, state: GameState, emit: Emit) -> None:
        self.command_opening(state, emit)

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        """R08-CC-08: starting cards by place in the turn order: 0, 0, 1, 1, 2."""
        self.deal_start_cards(state, STARTING_CARDS[: len(state.players)], emit)

    def command_opening(self, state: GameState, emit: Emit) -> None:
        """R08-CC-01..07 in order: cities, missions and rewards; the pile (DEC-43); the roll for
        the first player; every territory empty, each seat's regiments to place."""
        rng = Rng(state.seed, state.rng)
        ids = [t.id for t in self.board.territories]
        drawn = sorted(rng.shuffle(list(range(self.n_territories)))[:CITIES])
        missions: list[str] = []
        rewards: list[str] = []
        for kind, token in (("minor", "small"), ("major", "supreme")):
            pool = [m for m in self.missions.values() if m.kind == kind]
            tokens = [r.id for r in self.rewards.values() if r.kind == token]
            picked = rng.shuffle(list(range(len(pool))))[:MISSIONS_EACH]
            missions += [pool[i].id for i in picked]
            order = rng.shuffle(list(range(len(tokens))))
            rewards += [tokens[order[k % len(tokens)]] for k in range(MISSIONS_EACH)]
        n = len(state.players)
        cities = tuple(ids[t] for t in drawn)
        emit(
            R08BoardSet(
                cities=cities,
                capitals=("",) * n,
                missions=tuple(missions),
                rewards=tuple(rewards),
                rng=rng.counter,
            )
        )
        aside = self.cards_set_aside(state.options, cities)
        pile = [c for c in self.board.deck_cards("main") if c not in aside]
        rng = Rng(state.seed, state.rng)
        emit(DeckFormed(deck=tuple(rng.shuffle(pile)), rng=rng.counter))
        self.choose_first_player(state, emit)  # R08-CC-05: highest roll places first
        start = self.starting_armies(state)
        emit(
            TerritoriesDealt(
                owners=(-1,) * self.n_territories,
                armies=(0,) * self.n_territories,
                setup_left=(start,) * n,
                rng=state.rng,
            )
        )

    def cards_set_aside(
        self, options: dict[str, OptionValue], cities: Sequence[str]
    ) -> frozenset[int]:
        """DEC-43 option ``city_cards=set_aside``: the cards of the cities stay out of the
        game (at the opening, and in a scenario position, whose cities its ``[family]`` or the
        Training card gives)."""
        if options.get("city_cards") != "set_aside":
            return frozenset()
        card = self.board.territory_card
        index = self.board.index
        return frozenset(c for t in cities if (c := card(index[t])) is not None)

    def bonus_card_draw(self, state: GameState, due: int) -> int:
        """DEC-42 option ``bonus_card``: one more card (additional) or one in all (instead)."""
        return 1 if state.options.get("bonus_card") == "instead" else due + 1


class Risk2008Conquest(Risk2008Command):
    """RISK2008-CONQUEST: Command Center rules; only holding every territory wins (R08-CQ)."""

    name = "risk2008-conquest"
    title = "Risk 2008, world conquest: Command Center rules, hold all 42 to win (3–5 players)"
    missions_win = False  # R08-CQ-01/02: missions and rewards, but no mission victory
    options: ClassVar[dict[str, Option]] = {
        **COMMAND_OPTIONS,
        "conquest_setup": Option(
            default="command",
            choices=("command", "training"),
            doc="DEC-44 (R08-CQ-01): the conquest game is set up as Command Center (command, "
            "recommended: random cities, capitals placed, missions with rewards) or from the "
            "Training card (training: fixed position, cities and missions, no rewards).",
        ),
    }

    def training(self, state: GameState) -> bool:
        return state.options.get("conquest_setup") == "training"

    def cards_set_aside(
        self, options: dict[str, OptionValue], cities: Sequence[str]
    ) -> frozenset[int]:
        """The Training card places its cities without drawing cards: none is set aside."""
        if options.get("conquest_setup") == "training":
            return frozenset()
        return super().cards_set_aside(options, cities)

    def rewards_played(self, options: dict[str, OptionValue]) -> bool:
        """DEC-44 ``conquest_setup=training``: the Training card's missions carry no reward."""
        return options.get("conquest_setup") != "training"

    def starting_armies(self, state: GameState) -> int:
        return 0 if self.training(state) else super().starting_armies(state)

    def opening(self, state: GameState, emit: Emit) -> None:
        if self.training(state):
            training_opening(self, state, emit)
        else:
            self.command_opening(state, emit)

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        if self.training(state):
            training_cards(self, state, emit)
        else:
            super().setup_complete(state, emit)
