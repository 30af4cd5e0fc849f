"""Risk 2008 (rulebook 003, R08-*): cities, capitals, star cards and face-up missions.

What every Risk 2008 game shares (catalogue §6.1), on the classic world map with the sections of
``boards/risk2008`` (:mod:`risk_core.rulesets.risk2008_data`):

* income (R08-09): ``max(3, (territories + cities) // 3)``, continent bonuses, +1 per capital
  held (your own included), +2 with the 2 Regiments reward; the ``base`` of ``turn_started``
  is everything but the continents;
* star trades (R08-10, DEC-38): one trade per turn in the reinforcement phase, of any cards
  totalling 2 to 10 stars, worth the board's table; never forced;
* missions (R08-14/15): after attacking, take one face-up mission fulfilled this turn by
  discarding a card (DEC-40); attacks are over then, the reorganisation follows; an
  eliminator takes the loser's completed missions (R08-13);
* the end of the turn (R08-16/17, DEC-39): one reorganisation along own territories, a card
  if you invaded a territory, none in a turn you took an opponent's missions;
* victory (R08-18): three completed missions and your own capital at the end of your turn.

Rewards (Command Center only, R08-CC-09..17) are held in the family state; their effects are
in the hooks below (dice, income, card draw, maneuvers).  This class registers no rule set:
the Training game is in :mod:`risk_core.rulesets.risk2008_training`, the Command Center and
Conquest games in :mod:`risk_core.rulesets.risk2008_command`; the board data sections in
:mod:`~risk_core.rulesets.risk2008_data`, the state, commands and events in
:mod:`~risk_core.rulesets.risk2008_state`, scenario tables in
:mod:`~risk_core.rulesets.risk2008_scenario`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from risk_core.dice import DiceSpec, d6
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    BattleFought,
    CardsTraded,
    Command,
    EndTurn,
    Event,
    Fortified,
    Fortify,
    GameStarted,
    GameState,
    GameWon,
    LegalMove,
    OptionValue,
    PendingAttack,
    Place,
    PlayerEliminated,
    PositionSet,
    Seat,
    SeatInfo,
    SetupPlaced,
    TerritoryConquered,
    Trade,
    TurnEnded,
    TurnStarted,
)
from risk_core.rulesets.base import CORE_PHASES, BotGoals, Emit, Option, RuleSet
from risk_core.rulesets.risk2008_data import (
    City,
    R08Mission,
    Reward,
    StarTrade,
    TrainingSetup,
)
from risk_core.rulesets.risk2008_scenario import scenario_state
from risk_core.rulesets.risk2008_state import (
    AirfieldPlaced,
    CapitalPlaced,
    MissionTaken,
    PlaceAirfield,
    PlaceCapital,
    R08BoardSet,
    R08State,
    StrategicMove,
    StrategicMoved,
    TakeMission,
    replace_at,
)

MISSIONS_TO_WIN = 3  # R08-18

R08_OPTIONS: dict[str, Option] = {
    "trades_per_turn": Option(
        default="one",
        choices=("one", "several"),
        doc="DEC-38 (R08-10): one star trade per turn, in the reinforcement phase, of cards "
        "totalling 2 to 10 stars (one, recommended: the 10-star cap would mean nothing "
        "otherwise), or several trades of 2 to 10 stars each (several).",
    ),
    "no_card_after": Option(
        default="mission_from_opponent",
        choices=("mission_from_opponent", "mission_taken"),
        doc="DEC-39 (R08-17): no card is drawn in a turn in which you took an eliminated "
        "opponent's missions (mission_from_opponent, the literal reading), or in a turn in "
        "which you took a mission from the board (mission_taken).",
    ),
    "empty_hand_mission": Option(
        default="refused",
        choices=("refused", "free"),
        doc="DEC-40 (R08-14): a mission costs a card from your hand, so with no card it cannot "
        "be taken (refused, recommended), or it is taken for free when the hand is empty (free).",
    ),
    "enemy_capitals": Option(
        default="any_other",
        choices=("any_other", "living_players"),
        doc="DEC-45 (R08-15): an 'enemy capital' is any capital but your own, eliminated "
        "players' included, since buildings stay on the board (any_other, recommended), or only "
        "the capitals of players still in the game (living_players).",
    ),
}

R08_PHASES: dict[str, str] = {
    **CORE_PHASES,
    "attack": "attack, take a fulfilled mission, reorganise or end the turn",
    "setup": "place your capital (Command Center), claim territories, place starting regiments",
    "reinforce": "trade star cards (2 to 10 stars, once a turn) and place reinforcements",
}


def r08(state: GameState) -> R08State:
    family = state.family
    assert isinstance(family, R08State), "not a Risk 2008 state"
    return family


class Risk2008Family(RuleSet):
    """What the three Risk 2008 rule sets share (no name: not registered itself)."""

    die_sides_max = 6  # d6: the bonus die and the airfield's +1 change no die's sides

    board_name = "risk2008"
    min_players = 3
    max_players = 5  # R08-05
    phases: ClassVar[dict[str, str]] = R08_PHASES
    family_state = R08State
    cli_module = "risk_cli.risk2008_moves"
    options: ClassVar[dict[str, Option]] = dict(R08_OPTIONS)
    set_sizes = tuple(range(1, 11))  # any number of cards: 10 stars need at least 5 cards
    rewards_in_play: ClassVar[bool] = False  # R08-TR-06: rewards only in Command Center
    missions_win: ClassVar[bool] = True  # R08-18 (not in Conquest, R08-CQ-01)

    def __init__(self) -> None:
        super().__init__()
        board = self.board
        trades: tuple[StarTrade, ...] = board.section("r08_star_trades") or ()
        self.star_table = {row.stars: row.regiments for row in trades}
        missions: tuple[R08Mission, ...] = board.section("r08_missions") or ()
        self.missions = {m.id: m for m in missions}
        cities: tuple[City, ...] = board.section("r08_training_cities") or ()
        self.training_cities = tuple(c.territory for c in cities)
        rewards: tuple[Reward, ...] = board.section("r08_rewards") or ()
        self.rewards = {r.id: r for r in rewards}
        setups: tuple[TrainingSetup, ...] = board.section("r08_training_setups") or ()
        self.setups = {s.players: s for s in setups}
        self.stars = tuple(c.stars for c in board.cards)
        if not (self.star_table and self.missions and self.training_cities):
            raise SetupError("missing_data", f"Board {board.id} lacks the Risk 2008 sections.")

    # ------------------------------------------------------------------ family state
    def new_family_state(self, ev: GameStarted) -> R08State:
        n = len(ev.players)
        return R08State(capitals=("",) * n, completed=((),) * n, rewards=((),) * n)

    def holds(self, state: GameState, seat: Seat, ability: str) -> bool:
        """Whether ``seat`` holds a reward with ``ability`` (R08-CC-09, DEC-42: permanent)."""
        return any(self.rewards[r].ability == ability for r in r08(state).rewards[seat])

    def city_count(self, state: GameState, seat: Seat) -> int:
        index, owner = self.board.index, state.owner
        return sum(1 for c in r08(state).cities if owner[index[c]] == seat)

    def capital_count(self, state: GameState, seat: Seat) -> int:
        index, owner = self.board.index, state.owner
        return sum(1 for c in r08(state).capitals if c and owner[index[c]] == seat)

    # ------------------------------------------------------------------ income (R08-09)
    def income(self, state: GameState, seat: Seat) -> tuple[int, int, tuple[str, ...]]:
        """R08-09: ``max(3, (territories + cities) // 3)`` + capitals held (+2, R08-CC-16),
        as the turn's base; continents apart, as in CORE."""
        count, _, groups = super().income(state, seat)
        base = max(3, (count + self.city_count(state, seat)) // 3)
        base += self.capital_count(state, seat)
        if self.holds(state, seat, "two_regiments"):
            base += 2
        return count, base, groups

    # ------------------------------------------------------------------ cards (R08-10)
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """R08-10: the board's table for the cards' star total (2 to 10), else None."""
        if not cards:
            return None
        return self.star_table.get(sum(self.stars[c] for c in cards))

    def must_trade(self, state: GameState, seat: Seat) -> bool:
        return False  # DEC-38: never forced, no hand limit

    def elimination_trade_due(self, state: GameState, seat: Seat) -> bool:
        return False  # the cards taken wait for the reinforcement phase (DEC-38)

    def trade_closed(self, state: GameState) -> RuleError | None:
        if state.phase != "reinforce":
            return RuleError(
                "wrong_phase", "Star cards are traded in the reinforcement phase (R08-10)."
            )
        if state.turn_trades and state.options.get("trades_per_turn", "one") == "one":
            return RuleError("one_per_turn", "You have already traded stars this turn (DEC-38).")
        return None

    def valid_sets(self, state: GameState, seat: Seat) -> Iterator[tuple[int, ...]]:
        if self.trade_closed(state) is None:
            yield from self.sets_in_hand(state, seat)

    def sets_in_hand(self, state: GameState, seat: Seat) -> Iterator[tuple[int, ...]]:
        """One trade per star total the hand can make (2 to 10): every combination of up to
        ten cards would be thousands of equivalent commands."""
        hand = sorted(state.players[seat].hand, key=lambda c: (self.stars[c], c))
        reach: dict[int, tuple[int, ...]] = {0: ()}
        for c in hand:  # the first way found to reach each total, few cards first
            for total, combo in sorted(reach.items()):
                new = total + self.stars[c]
                if new <= max(self.star_table) and new not in reach:
                    reach[new] = (*combo, c)
        for total in sorted(reach):
            if total in self.star_table:
                yield tuple(sorted(reach[total]))

    def _trade(self, state: GameState, cmd: Trade, emit: Emit) -> None:
        """R08-10/19: any cards of your hand totalling 2 to 10 stars (``bad_star_count``)."""
        closed = self.trade_closed(state)
        if closed is not None:
            raise closed
        hand = state.players[cmd.seat].hand
        cards = tuple(cmd.cards)
        if not cards:
            raise RuleError("not_in_hand", "Name the cards of your hand to trade.")
        if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
            raise self.not_in_hand(hand, cards)
        stars = sum(self.stars[c] for c in cards)
        value = self.star_table.get(stars)
        if value is None:
            low, high = min(self.star_table), max(self.star_table)
            raise RuleError(
                "bad_star_count",
                f"These cards show {stars} star{'' if stars == 1 else 's'}: trade {low} to "
                f"{high} stars (R08-10).",
            )
        emit(CardsTraded(seat=cmd.seat, cards=cards, value=value))

    # ------------------------------------------------------------------ missions (R08-14/15)
    def enemy_capitals(self, state: GameState, seat: Seat) -> int:
        """Capitals other than ``seat``'s own it controls (DEC-45 option ``enemy_capitals``)."""
        living = state.options.get("enemy_capitals", "any_other") == "living_players"
        index, owner = self.board.index, state.owner
        return sum(
            1
            for s, c in enumerate(r08(state).capitals)
            if c
            and s != seat
            and owner[index[c]] == seat
            and not (living and state.players[s].eliminated)
        )

    def whole_groups(self, state: GameState, seat: Seat) -> list[str]:
        owner = state.owner
        return [
            self.board.groups[g].id
            for g, members in enumerate(self.board.group_members)
            if all(owner[t] == seat for t in members)
        ]

    def mission_met(self, state: GameState, seat: Seat, m: R08Mission) -> bool:
        """R08-15: whether ``seat`` fulfils ``m`` now, "this turn" missions judged from the
        turn's record (territories taken, continents held at its start)."""
        family = r08(state)
        if m.test == "groups":
            return set(m.groups) <= set(self.whole_groups(state, seat))
        if m.test == "any_groups":
            return len(self.whole_groups(state, seat)) >= m.count
        if m.test == "cities":
            return self.city_count(state, seat) >= m.count
        if m.test == "enemy_capitals":
            return self.enemy_capitals(state, seat) >= m.count
        if m.test == "territories":
            return state.owner.count(seat) >= m.count
        if seat != state.current:
            return False  # the turn's record is the mover's
        if m.test == "territories_this_turn":
            return len(family.taken) >= m.count
        if m.test == "cities_this_turn":
            return len(set(family.taken) & set(family.cities)) >= m.count
        new = set(self.whole_groups(state, seat)) - set(family.start_groups)
        return len(new) >= max(1, m.count)  # group_this_turn

    def mission_error(self, state: GameState, seat: Seat) -> RuleError | None:
        """Why ``seat`` may take no mission at this moment (R08-14/19), if it may not."""
        if state.phase == "occupy":
            return self.must_occupy(state)
        if state.phase != "attack":
            return RuleError(
                "wrong_phase",
                f"Missions are taken after your attacks, not in the {state.phase} phase (R08-14).",
            )
        if r08(state).maneuvers:
            return RuleError(
                "wrong_phase", "Missions are taken before the reorganisation (R08-08)."
            )
        if r08(state).mission_taken:
            return RuleError(
                "one_mission_per_turn", "You have already completed a mission this turn (R08-14)."
            )
        free = state.options.get("empty_hand_mission", "refused") == "free"
        if not state.players[seat].hand and not free:
            return RuleError(
                "no_card_to_discard",
                "Taking a mission costs a card from your hand, and yours is empty (DEC-40).",
            )
        return None

    def claimable(self, state: GameState, seat: Seat) -> list[str]:
        """Face-up missions ``seat`` could take now, major ones first."""
        if self.mission_error(state, seat) is not None:
            return []
        found = [m for m in r08(state).missions if self.mission_met(state, seat, self.missions[m])]
        return sorted(found, key=lambda m: self.missions[m].kind != "major")

    def discard_choice(self, state: GameState, seat: Seat) -> int | None:
        """The card a bot gives up for a mission: its fewest stars, lowest id."""
        hand = state.players[seat].hand
        return min(hand, key=lambda c: (self.stars[c], c)) if hand else None

    def _take_mission(self, state: GameState, cmd: TakeMission, emit: Emit) -> None:
        family, seat = r08(state), cmd.seat
        m = self.missions.get(cmd.mission)
        if m is None:
            known = ", ".join(family.missions) or "none"
            raise RuleError("unknown_mission", f"No mission {cmd.mission!r} (face up: {known}).")
        if cmd.mission not in family.missions:
            raise RuleError(
                "mission_not_available", f"'{m.text_en}' is not face up on the board (R08-14)."
            )
        err = self.mission_error(state, seat)
        if err is not None:
            raise err
        hand = state.players[seat].hand
        card = cmd.card
        if card is None and hand:
            raise RuleError("card_required", "Name the card you discard for the mission (R08-14).")
        if card is not None and card not in hand:
            raise RuleError("not_in_hand", f"You hold no card {card}.")
        if not self.mission_met(state, seat, m):
            raise RuleError(
                "mission_not_met", f"You have not fulfilled '{m.text_en}' this turn (R08-19)."
            )
        reward = family.rewards_on[family.missions.index(cmd.mission)]
        emit(MissionTaken(seat=seat, mission=cmd.mission, card=card, reward=reward))

    # ------------------------------------------------------------------ end of turn
    def fortify_mode(self, state: GameState) -> str:
        return "connected"  # R08-16: along a chain of own territories

    def maneuvers_allowed(self, state: GameState, seat: Seat) -> int:
        return 2 if self.holds(state, seat, "bonus_maneuver") else 1  # R08-CC-12

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        if r08(state).maneuvers >= self.maneuvers_allowed(state, state.current):
            self.end_turn(state, emit)

    def _fortify(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        """R08-16/19: one reorganisation along own territories, leaving 1 behind (a second
        one with the Bonus Maneuver, R08-CC-12); CORE's checks, in the closing step too."""
        if state.phase != "attack":
            if state.phase == "occupy":
                raise self.must_occupy(state)
            raise RuleError("wrong_phase", f"You cannot reorganise in the {state.phase} phase.")
        o, t = self._reorganisation(state, cmd)
        seat = cmd.seat
        ids = self.board.territories
        emit(Fortified(seat=seat, origin=ids[o].id, target=ids[t].id, count=cmd.count))
        self.after_fortify(state, emit)

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """R08-08: the attacks are over once a mission is taken or the regiments reorganised."""
        family = r08(state)
        if family.mission_taken or family.maneuvers:
            return RuleError(
                "attacks_over",
                "Your attacks are over: you have taken a mission or reorganised (R08-08).",
            )
        return None

    def card_due(self, state: GameState, seat: Seat) -> int:
        """Cards drawn at the end of the turn: R08-17 (DEC-39) and the Bonus Card (R08-CC-13)."""
        family = r08(state)
        blocked = (
            family.mission_taken
            if state.options.get("no_card_after") == "mission_taken"
            else family.seized
        )
        due = 1 if state.conquered and not blocked else 0
        if self.holds(state, seat, "bonus_card"):
            due = self.bonus_card_draw(state, due)
        return due

    def bonus_card_draw(self, state: GameState, due: int) -> int:
        return due + 1  # DEC-42: in addition to the conquest card

    def end_turn(self, state: GameState, emit: Emit) -> None:
        seat = state.current
        for _ in range(self.card_due(state, seat)):
            self.draw_card(state, seat, emit)
        emit(TurnEnded(seat=seat))
        if self.victory(state, seat):
            return  # ``winner`` ends the game (R08-18)
        self.start_next_turn(state, emit)

    def victory(self, state: GameState, seat: Seat) -> bool:
        """R08-18: three completed missions and your own capital, at the end of your turn."""
        if not self.missions_win:
            return False
        family = r08(state)
        capital = family.capitals[seat]
        return (
            len(family.completed[seat]) >= MISSIONS_TO_WIN
            and bool(capital)
            and state.owner[self.board.index[capital]] == seat
        )

    def winner(self, state: GameState) -> GameWon | None:
        family = state.family
        if isinstance(family, R08State) and family.closed and self.victory(state, state.current):
            done = family.completed[state.current]
            return GameWon(seat=state.current, reason="mission", mission=done[-1])
        return super().winner(state)

    # ------------------------------------------------------------------ dice (R08-CC-10/14/15)
    def airfield_bonus(self, state: GameState, seat: Seat, order: PendingAttack) -> bool:
        """R08-CC-10 (DEC-41): an airfield of ``seat`` on the attacked territory or next to it
        (option ``airfield_scope`` either: the attacking one too); +1 once at most."""
        family = r08(state)
        if not family.airfields:
            return False
        index, owner, nbrs = self.board.index, state.owner, self.board.neighbour_sets
        places = [order.target]
        if state.options.get("airfield_scope", "attacked") == "either":
            places.append(order.origin)
        for a in family.airfields:
            t = index[a]
            if owner[t] == seat and any(t == p or t in nbrs[p] for p in places):
                return True
        return False

    def side_dice(
        self, state: GameState, seat: Seat, order: PendingAttack, count: int, bonus: str
    ) -> DiceSpec:
        """R08-CC-17: normal dice plus the bonus die (best ``count`` kept), then the airfield's
        +1 on the highest die (a 6 becomes 7)."""
        if not self.rewards_in_play:
            return d6(count)
        extra = 1 if self.holds(state, seat, bonus) else 0
        ranked = (1,) if self.airfield_bonus(state, seat, order) else ()
        if not extra and not ranked:
            return d6(count)
        return DiceSpec(
            count=count + extra, keep=count if extra else 0, ranked=ranked, cap=not ranked
        )

    def attack_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        return self.side_dice(state, state.current, order, count, "bonus_attack_die")

    def defence_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        return self.side_dice(state, order.defender, order, count, "bonus_defence_die")

    # ------------------------------------------------------------------ rewards (CC)
    def _place_airfield(self, state: GameState, cmd: PlaceAirfield, emit: Emit) -> None:
        if state.phase != "airfield":
            raise RuleError("no_airfield", "You have no airfield to place (R08-CC-10).")
        t = self.territory(cmd.territory)
        if state.owner[t] != cmd.seat:
            raise RuleError(
                "not_owner",
                f"Place the airfield on a territory you control, not "
                f"{self.board.name(t)} (R08-CC-19).",
            )
        emit(AirfieldPlaced(seat=cmd.seat, territory=self.board.territories[t].id))

    def strategic_error(self, state: GameState, seat: Seat) -> RuleError | None:
        if not self.holds(state, seat, "strategic_maneuver"):
            return RuleError(
                "no_such_reward", "You do not hold the Strategic Maneuver reward (R08-CC-19)."
            )
        family = r08(state)
        if state.phase != "attack" or family.fought or family.mission_taken or family.maneuvers:
            return RuleError(
                "wrong_phase",
                "The Strategic Maneuver comes after placing and before your first "
                "attack (R08-CC-11).",
            )
        if family.strategic_used:
            return RuleError("reward_used", "You have made your Strategic Maneuver this turn.")
        return None

    def _reorganisation(self, state: GameState, cmd: Fortify | StrategicMove) -> tuple[int, int]:
        """(origin, target) of a reorganisation or a Strategic Maneuver, checked (R08-16):
        between two own territories joined by own ones, leaving 1 behind."""
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        if state.owner[o] != seat or state.owner[t] != seat or o == t:
            raise RuleError("not_owner", "Move between two different territories you own.")
        if not self.fortify_reachable(state, seat, o, t):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through your "
                "own territories (R08-16).",
            )
        if not 1 <= cmd.count <= state.armies[o] - 1:
            raise RuleError(
                "not_enough_armies", self.movable_text(o, state.armies[o] - 1, "regiment")
            )
        return o, t

    def _strategic(self, state: GameState, cmd: StrategicMove, emit: Emit) -> None:
        err = self.strategic_error(state, cmd.seat)
        if err is not None:
            raise err
        o, t = self._reorganisation(state, cmd)
        seat = cmd.seat
        ids = self.board.territories
        emit(StrategicMoved(seat=seat, origin=ids[o].id, target=ids[t].id, count=cmd.count))

    # ------------------------------------------------------------------ setup (capitals, CC)
    def capitals_missing(self, state: GameState) -> bool:
        """R08-CC-05: the setup's first round, each seat placing its capital."""
        return state.phase == "setup" and "" in r08(state).capitals

    def _place(self, state: GameState, cmd: Place, emit: Emit) -> None:
        if self.capitals_missing(state):
            raise RuleError(
                "capital_first", "Every player places a capital before claiming (R08-CC-05)."
            )
        RuleSet._place(self, state, cmd, emit)

    def _place_capital(self, state: GameState, cmd: PlaceCapital, emit: Emit) -> None:
        if not self.capitals_missing(state):
            raise RuleError("capital_placed", "Capitals are placed once, at the start (R08-07).")
        t = self.territory(cmd.territory)
        if state.owner[t] != -1:
            raise RuleError(
                "already_claimed", f"{self.board.name(t)} is occupied: choose an empty territory."
            )
        tid = self.board.territories[t].id
        emit(CapitalPlaced(seat=cmd.seat, territory=tid))
        emit(SetupPlaced(seat=cmd.seat, territory=tid, count=1))

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Trade: _trade,
        Fortify: _fortify,
        Place: _place,
        TakeMission: _take_mission,
        PlaceAirfield: _place_airfield,
        StrategicMove: _strategic,
        PlaceCapital: _place_capital,
    }

    # ------------------------------------------------------------------ projectors
    def _set(self, state: GameState, **changes: Any) -> None:
        state.family = msgspec.structs.replace(r08(state), **changes)

    def _on_board_set(self, state: GameState, ev: R08BoardSet) -> None:
        state.rng = ev.rng
        self._set(
            state,
            cities=ev.cities,
            capitals=ev.capitals,
            missions=ev.missions,
            rewards_on=ev.rewards,
        )

    def _on_capital(self, state: GameState, ev: CapitalPlaced) -> None:
        """The capital only: its regiment follows as ``setup_placed`` (CORE's setup pools)."""
        self._set(state, capitals=replace_at(r08(state).capitals, ev.seat, ev.territory))

    def _on_turn_started_r08(self, state: GameState, ev: TurnStarted) -> None:
        self._on_turn_started(state, ev)
        self._set(
            state,
            start_groups=tuple(self.whole_groups(state, ev.seat)),
            taken=(),
            mission_taken=False,
            seized=False,
            fought=False,
            strategic_used=False,
            maneuvers=0,
            closed=False,
        )

    def _on_battle_r08(self, state: GameState, ev: BattleFought) -> None:
        self._on_battle(state, ev)
        if not r08(state).fought:
            self._set(state, fought=True)

    def _on_conquered_r08(self, state: GameState, ev: TerritoryConquered) -> None:
        self._on_conquered(state, ev)
        family = r08(state)
        airfields = tuple(a for a in family.airfields if a != ev.target)  # R08-CC-10: destroyed
        self._set(state, taken=(*family.taken, ev.target), airfields=airfields)

    def _on_eliminated_r08(self, state: GameState, ev: PlayerEliminated) -> None:
        """R08-13: the eliminator takes the completed missions; rewards leave with their owner
        (R08-CC-09)."""
        self._on_eliminated(state, ev)
        family = r08(state)
        lost = family.completed[ev.seat]
        completed = replace_at(family.completed, ev.by, (*family.completed[ev.by], *lost))
        self._set(
            state,
            completed=replace_at(completed, ev.seat, ()),
            rewards=replace_at(family.rewards, ev.seat, ()),
            seized=family.seized or bool(lost),
        )

    def _on_mission_taken(self, state: GameState, ev: MissionTaken) -> None:
        family = r08(state)
        i = family.missions.index(ev.mission)
        if ev.card is not None:
            state.players[ev.seat].hand.remove(ev.card)
            state.discard.append(ev.card)
        rewards = family.rewards
        if ev.reward:
            rewards = replace_at(rewards, ev.seat, (*rewards[ev.seat], ev.reward))
        self._set(
            state,
            missions=(*family.missions[:i], *family.missions[i + 1 :]),
            rewards_on=(*family.rewards_on[:i], *family.rewards_on[i + 1 :]),
            completed=replace_at(
                family.completed, ev.seat, (*family.completed[ev.seat], ev.mission)
            ),
            rewards=rewards,
            mission_taken=True,
        )
        if ev.reward and self.rewards[ev.reward].ability == "airfield":
            state.phase = "airfield"  # R08-CC-10: placed at once, then the turn goes on

    def _on_airfield(self, state: GameState, ev: AirfieldPlaced) -> None:
        self._set(state, airfields=(*r08(state).airfields, ev.territory))
        state.phase = "attack"

    def _on_strategic(self, state: GameState, ev: StrategicMoved) -> None:
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.count
        state.armies[idx[ev.target]] += ev.count
        self._set(state, strategic_used=True)

    def _on_fortified_r08(self, state: GameState, ev: Fortified) -> None:
        self._on_fortified(state, ev)
        self._set(state, maneuvers=r08(state).maneuvers + 1)  # the attacks are over (R08-08)

    def _on_turn_ended_r08(self, state: GameState, ev: TurnEnded) -> None:
        self._on_turn_ended(state, ev)
        self._set(state, closed=True)

    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        R08BoardSet: _on_board_set,
        CapitalPlaced: _on_capital,
        TurnStarted: _on_turn_started_r08,
        BattleFought: _on_battle_r08,
        TerritoryConquered: _on_conquered_r08,
        PlayerEliminated: _on_eliminated_r08,
        MissionTaken: _on_mission_taken,
        AirfieldPlaced: _on_airfield,
        StrategicMoved: _on_strategic,
        Fortified: _on_fortified_r08,
        TurnEnded: _on_turn_ended_r08,
    }

    # ------------------------------------------------------------------ legal commands
    def legal_commands(self, state: GameState) -> list[Command]:
        cmds = super().legal_commands(state)
        if state.phase != "attack":
            return cmds
        return [*(c for move in self._attack_extras(state) for c in move.commands()), *cmds]

    def legal_moves(self, state: GameState) -> list[LegalMove]:
        """``legal_commands`` with counts as ranges (issue 14): the same extra commands first."""
        moves = super().legal_moves(state)
        if state.phase != "attack":
            return moves
        return [*self._attack_extras(state), *moves]

    def _attack_extras(self, state: GameState) -> list[LegalMove]:
        """The attack phase's commands beyond the core's: missions to take, strategic moves
        (every count ``_reorganisation`` takes)."""
        seat = state.current
        # R08-14: any card of the hand may be the one discarded (none when the hand is empty).
        discards: list[int | None] = [*sorted(set(state.players[seat].hand))] or [None]
        extra = [
            LegalMove(command=TakeMission(seat=seat, mission=m, card=card))
            for m in self.claimable(state, seat)
            for card in discards
        ]
        if self.strategic_error(state, seat) is None:
            ids = self.board.territories
            extra += [
                LegalMove(
                    command=StrategicMove(seat=seat, origin=ids[o].id, target=ids[t].id, count=1),
                    field="count",
                    low=1,
                    high=state.armies[o] - 1,
                )
                for o, t in self.fortify_options(state, seat)
            ]
        return extra

    def _legal_setup_r08(self, state: GameState, seat: Seat) -> Iterator[Command]:
        if not self.capitals_missing(state):
            yield from self._legal_setup(state, seat)
            return
        for t, o in enumerate(state.owner):
            if o == -1:
                yield PlaceCapital(seat=seat, territory=self.board.territories[t].id)

    def _legal_airfield(self, state: GameState, seat: Seat) -> Iterator[Command]:
        for t in self.territories_of(state, seat):
            yield PlaceAirfield(seat=seat, territory=self.board.territories[t].id)

    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "setup": _legal_setup_r08,
    }

    # ------------------------------------------------------------------ bots
    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """The continents face-up missions name, and every capital but one's own."""
        family = r08(state)
        gi, index = self.board.group_index, self.board.index
        groups = {gi[g] for m in family.missions for g in self.missions[m].groups}
        extra = 2 if "control_2_continents" in family.missions else 0
        holds = {index[c] for s, c in enumerate(family.capitals) if c}
        return BotGoals(groups=frozenset(groups), extra_groups=extra, holds=frozenset(holds))

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """Greedy: take a mission once done attacking; use the rewards' moves and airfields."""
        ids = self.board.territories
        if self.capitals_missing(state):
            free = [t for t, o in enumerate(state.owner) if o == -1]
            best = max(free, key=lambda t: (reading._claim_score(t), reading.tie(t)))
            return PlaceCapital(seat=seat, territory=ids[best].id)
        if state.phase == "airfield":
            return PlaceAirfield(seat=seat, territory=ids[reading.placement_spot(1)].id)
        if state.phase != "attack":
            return None
        if self.strategic_error(state, seat) is None:
            move = reading.fortify()
            if isinstance(move, Fortify):
                return StrategicMove(
                    seat=seat, origin=move.origin, target=move.target, count=move.count
                )
        cmd: Command = reading.attack()
        if isinstance(cmd, Fortify | EndTurn):
            claimable = self.claimable(state, seat)
            if claimable:
                card = self.discard_choice(state, seat)
                return TakeMission(seat=seat, mission=claimable[0], card=card)
        return cmd

    # ------------------------------------------------------------------ views
    def mission_view(self, mission: str, reward: str = "") -> dict[str, Any]:
        m = self.missions[mission]
        out: dict[str, Any] = {
            "id": m.id,
            "kind": m.kind,
            "text_en": m.text_en,
            "text_fr": m.text_fr,
        }
        if reward:
            out["reward"] = self.reward_view(reward)
        return out

    def reward_view(self, reward: str) -> dict[str, Any]:
        r = self.rewards[reward]
        return {"id": r.id, "kind": r.kind, "ability": r.ability, "text_en": r.text_en}

    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """Buildings and face-up missions with their rewards are public (R08-14)."""
        family = r08(state)
        return {
            "cities": list(family.cities),
            "capitals": list(family.capitals),
            "airfields": list(family.airfields),
            "missions": [
                self.mission_view(m, r)
                for m, r in zip(family.missions, family.rewards_on, strict=True)
            ],
            "star_trades": {str(k): v for k, v in self.star_table.items()},
        }

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """Completed missions, rewards and capital are public; the hand's stars the seat's own."""
        family = r08(state)
        out: dict[str, Any] = {
            "capital": family.capitals[seat] or None,
            "completed": [self.mission_view(m) for m in family.completed[seat]],
            "rewards": [self.reward_view(r) for r in family.rewards[seat]],
        }
        if seat == viewer:
            out["hand_stars"] = sum(self.stars[c] for c in state.players[seat].hand)
        return out

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        family = r08(state)
        tid = self.board.territories[t].id
        out: dict[str, Any] = {}
        if tid in family.cities:
            out["city"] = True
        if tid in family.capitals:
            out["capital_of"] = family.capitals.index(tid)
        if tid in family.airfields:
            out["airfield"] = True
        return out

    # ------------------------------------------------------------------ audits
    def check_invariants(self, state: GameState) -> list[str]:
        """Missions and rewards are each in one place; an airfield stands on its owner's
        territory; a capital or city never moves (checked by ``check_transition``)."""
        family = state.family
        if not isinstance(family, R08State):
            return ["no Risk 2008 state"]
        problems = []
        held = [m for done in family.completed for m in done]
        if len(set(held) | set(family.missions)) != len(held) + len(family.missions):
            problems.append(f"a mission is in two places: {held} {family.missions}")
        if len(family.rewards_on) != len(family.missions):
            problems.append("rewards and face-up missions differ in number")
        for s, p in enumerate(state.players):
            if p.eliminated and (family.completed[s] or family.rewards[s]):
                problems.append(f"eliminated seat {s} keeps missions or rewards")
        return problems

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """R08-07/19: buildings never move once set; missions only leave the board taken."""
        b, a = before.family, after.family
        if not isinstance(b, R08State) or not isinstance(a, R08State):
            return []
        problems = []
        if b.cities and a.cities != b.cities:
            problems.append(f"cities moved on {type(ev).__name__}")
        if any(c and c != a.capitals[s] for s, c in enumerate(b.capitals)):
            problems.append(f"a capital moved on {type(ev).__name__}")
        if len(a.missions) < len(b.missions) and not isinstance(ev, MissionTaken):
            problems.append(f"a mission left the board on {type(ev).__name__}")
        return problems

    # ------------------------------------------------------------------ scenarios
    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> R08State:
        """A scenario's ``[family]`` table (``risk2008_scenario.scenario_state``)."""
        return scenario_state(self, data, len(seats), seat)

    def default_missions(self) -> list[str]:
        return [m.id for m in self.missions.values() if m.training]

    def start_position(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        position: PositionSet,
        **kwargs: Any,
    ) -> list[Event]:
        """A scenario without a ``[family]`` table gets the defaults of ``scenario_family``;
        a seat without a capital gets one on its first territory."""
        family = position.family
        if family is msgspec.UNSET:
            seats = self.seats_for(players)
            state = self.scenario_family({}, seats, lambda ref: int(ref))
        else:
            state = msgspec.convert(family, R08State, strict=False)
        ids = self.board.territories
        capitals = tuple(
            ids[position.owners.index(s)].id if not c and s in position.owners else c
            for s, c in enumerate(state.capitals)
        )
        state = msgspec.structs.replace(state, capitals=capitals)
        opts = self.resolve_options(options or {})
        if not self.rewards_played(opts) and (
            any(state.rewards) or state.airfields or any(state.rewards_on)
        ):
            raise SetupError(
                "bad_scenario",
                "[family]: rewards are used only in the Command Center game (R08-TR-06), not "
                "in one set up from the Training card (conquest_setup=training, DEC-44).",
            )
        aside = self.cards_set_aside(opts, state.cities)
        held = next((c for hand in position.hands for c in hand if c in aside), None)
        if held is not None:
            raise SetupError(
                "bad_scenario",
                f"{self.card_label(held)} is out of the game: the cities' cards are set aside "
                "(city_cards=set_aside, DEC-43).",
            )
        position = msgspec.structs.replace(
            position,
            family=msgspec.to_builtins(state, str_keys=True),
            deck=tuple(c for c in position.deck if c not in aside),
        )
        return super().start_position(players, seed, options, position, **kwargs)

    def cards_set_aside(
        self, options: dict[str, OptionValue], cities: Sequence[str]
    ) -> frozenset[int]:
        """The cards out of the game with these options and cities (none: Command Center's
        ``city_cards`` may set the cities' aside)."""
        return frozenset()

    def rewards_played(self, options: dict[str, OptionValue]) -> bool:
        """Whether a game with these options plays the rewards (R08-TR-06: Command Center)."""
        return self.rewards_in_play

    # ------------------------------------------------------------------ openings
    def deal_start_cards(self, state: GameState, counts: Sequence[int], emit: Emit) -> None:
        """Starting cards from the top of the pile, seat by seat in turn order."""
        n = len(state.players)
        for k, count in enumerate(counts):
            for _ in range(count):
                self.draw_card(state, (state.first + k) % n, emit)
