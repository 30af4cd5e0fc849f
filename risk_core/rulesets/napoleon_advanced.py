"""Risk Napoléon, advanced game (rulebooks 000 booklet 2 and 001, NAP-ADV-*, NAP-CAP-*).

Five rounds, then the most victory points win (NAP-ADV-01, DEC-05).  On the Napoléon map with
its 8 sea zones (``boards/napoleon/advanced``), each player has regiments, ships, generals,
admirals and fortifications; four epidemics roam the map.  The rules themselves are the pure
functions of :mod:`~risk_core.rulesets.napoleon_advanced_rules`; this class wires them into
the turn, with the state, commands and events of
:mod:`~risk_core.rulesets.napoleon_advanced_state`.

Set-up: missions dealt (one per rank), territories claimed one at a time, regiments placed one
at a time with at most 10 on a territory; each player then places a general and a
fortification (phase ``pieces``); 4 epidemics in 4 empires; a new roll for the first player;
starting cards by seat (NAP-ADV-06..12, DEC-27).

The turn (NAP-ADV-13), with the engine's phase names: start of turn (automatic: VP for empires
and routes, missions shown and scored); ``reinforce`` (census with sea zones, fixed-value
trades with +2 per card territory held, fortification income, conversions, reinforcement
cards, ransoms); ``attack`` (naval combats first, the forced ones before anything else, then
land offensives with naval landings; cards raise dice); the maneuvers, still in the ``attack``
phase once the combat is over (one land, one naval, one per general and admiral); then, when
the turn ends, epidemics, end-of-turn missions, up to 3 cards and, on the last round, census VP.

Automatic decisions, documented as such in the README: missions are shown and scored as soon
as they are fulfilled at the start or end of the turn (never against the player's interest); an
Empire mission's regiments go on the player's largest stack of that empire; the defender of a
naval battle throws the most dice; the captor's ransom regiment goes on his largest stack.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from boards import BOARDS_DIR
from risk_core.board import MISSION_RANKS, Mission
from risk_core.dice import DiceSpec, d6, throw_battle
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    ArmiesPlaced,
    Attack,
    BattleFought,
    Command,
    DeckFormed,
    DeckReshuffled,
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
    RoundsCompleted,
    Seat,
    SeatInfo,
    TerritoryConquered,
    TurnEnded,
    TurnStarted,
)
from risk_core.rng import Rng
from risk_core.rulesets import napoleon_advanced_rules as nar
from risk_core.rulesets.base import (
    CORE_PHASES,
    BotGoals,
    Emit,
    Option,
    RuleSet,
    compare_faces,
    dice_count_error,
)
from risk_core.rulesets.napoleon import Napoleon
from risk_core.rulesets.napoleon_advanced_data import CardEffect, EmpireMission, MissionVP
from risk_core.rulesets.napoleon_advanced_scenario import scenario_state
from risk_core.rulesets.napoleon_advanced_state import (
    AdvMissionsDealt,
    AdvState,
    ArmyPerished,
    CardPlayed,
    CombatEnded,
    Convert,
    Converted,
    DefenceRaised,
    EpidemicCardDrawn,
    EpidemicMoved,
    EpidemicPenalty,
    EpidemicsPlaced,
    EpidemicStruck,
    FinalRanking,
    FleetMoved,
    FortDestroyed,
    GeneralMoved,
    Lead,
    LeadChosen,
    LeadersAdvanced,
    LeadersCaptured,
    LeadersCommitted,
    MissionAccomplished,
    MoveAdmiral,
    MoveFleet,
    MoveGeneral,
    NavalAttack,
    NavalBattle,
    PiecePlaced,
    PiecesDue,
    PlacePiece,
    PlayCard,
    Ransom,
    Ransomed,
    VPScored,
    add_at,
    replace_at,
)
from risk_core.rulesets.napoleon_mission import NapoleonMission

ADVANCED_BOARD = BOARDS_DIR / "napoleon" / "advanced"
GENERAL_TOKENS, ADMIRAL_TOKENS = 3, 2  # NAP-ADV-03: per colour

ADV_PHASES: dict[str, str] = {
    **CORE_PHASES,
    "setup": "claim territories, then place regiments one at a time (10 at most on one)",
    "pieces": "place a general, then a fortification, on own territories",
    "reinforce": "trade, play reinforcement cards, convert, ransom and place reinforcements",
    "attack": "fight naval combats first, then land offensives; then maneuver or end the turn",
    "final": "the last round is over: victory points decide",
}


def adv(state: GameState) -> AdvState:
    family = state.family
    assert isinstance(family, AdvState), "not a napoleon-advanced state"
    return family


class NapoleonAdvanced(Napoleon):
    """NAPOLEON-ADVANCED: 5 rounds of ships, generals, fortifications and epidemics for VP."""

    die_sides_max = 6  # d6, its generals' and forts' bonuses added to the faces
    name = "napoleon-advanced"
    title = "Risk Napoléon, advanced game: five rounds for victory points (3–6 players)"
    board_dir = str(ADVANCED_BOARD)
    options: ClassVar[dict[str, Option]] = dict(nar.NAP_ADV_OPTIONS)
    phases: ClassVar[dict[str, str]] = ADV_PHASES
    family_state = AdvState
    cli_module = "risk_cli.napoleon_advanced_moves"
    elimination_trade_at = 5  # DEC-04 (option elimination_trade_from)
    trade_window_follow_ups = RuleSet.trade_window_follow_ups | {
        LeadersCaptured,
        LeadersAdvanced,
        FortDestroyed,
        FinalRanking,
        RoundsCompleted,
    }

    def __init__(self) -> None:
        super().__init__()
        board = self.board
        self.zones = tuple(z.id for z in board.sea_zones)
        self.zone_index = {z: i for i, z in enumerate(self.zones)}
        self.shore = nar.coasts(board)
        self.zone_links = {z.id: z.zones for z in board.sea_zones}
        effects: tuple[CardEffect, ...] = board.section("nap_card_effects") or ()
        by_territory = {e.territory: e for e in effects}
        self.effects: dict[int, CardEffect] = {}
        for c in range(len(board.card_symbols)):
            t = board.card_territory(c)
            if t is not None and board.territories[t].id in by_territory:
                self.effects[c] = by_territory[board.territories[t].id]
        vps: tuple[MissionVP, ...] = board.section("nap_mission_vp") or ()
        self.mission_vp = {m.mission: m.vp for m in vps}
        empire: tuple[EmpireMission, ...] = board.section("nap_empire_missions") or ()
        self.empire_missions = {m.id: m for m in empire}
        self.basic_missions: dict[str, Mission] = {m.id: m for m in board.missions}
        self.capitals = tuple(board.capitals.values())  # for the basic missions' tests
        if not (self.effects and self.mission_vp and self.zones):
            raise SetupError("missing_data", f"Board {board.id} lacks the advanced sections.")

    # ================================================================== family state
    def new_family_state(self, ev: GameStarted) -> AdvState:
        return self.new_family_state_for(len(ev.players))

    def new_family_state_for(self, n: int) -> AdvState:
        z, t = len(self.zones), self.n_territories
        return AdvState(
            vp=(0,) * n,
            ships=((0,) * n,) * z,
            admirals=((0,) * n,) * z,
            generals=(0,) * t,
            captured_generals=((0,) * n,) * n,
            captured_admirals=((0,) * n,) * n,
            epidemics=(0,) * t,
            missions=((),) * n,
            piles=((),) * len(MISSION_RANKS),
            done=((),) * n,
            mission_since=(False,) * n,
            pieces=(2,) * n,
        )

    def start_position(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        position: PositionSet,
        **kwargs: Any,
    ) -> list[Event]:
        """A scenario's first turn gets the census of its round (NAP-CAP-02 counts rounds)."""
        if kwargs.get("income") is None:
            state, _, emit = self._begin(players, seed, options, (), "")
            emit(position)
            kwargs["income"] = self.census(state, position.first, kwargs.get("round", 1)).total
        return super().start_position(players, seed, options, position, **kwargs)

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> AdvState:
        """A scenario's ``[family]`` table (``napoleon_advanced_scenario``)."""
        return scenario_state(self, data, len(seats), seat)

    def _set(self, state: GameState, **changes: Any) -> None:
        state.family = msgspec.structs.replace(adv(state), **changes)

    def ships(self, state: GameState) -> dict[str, dict[Seat, int]]:
        """``{zone: {seat: ships}}`` for the pure rules."""
        fam = adv(state)
        return {
            z: {s: n for s, n in enumerate(fam.ships[i]) if n} for i, z in enumerate(self.zones)
        }

    def zone_owner(self, state: GameState, zone: int) -> Seat | None:
        row = adv(state).ships[zone]
        return nar.zone_controller(dict(enumerate(row)))

    def held_zones(self, state: GameState, seat: Seat) -> list[str]:
        return [z for i, z in enumerate(self.zones) if self.zone_owner(state, i) == seat]

    def generals_in_play(self, state: GameState, seat: Seat) -> int:
        fam = adv(state)
        return sum(g for t, g in enumerate(fam.generals) if state.owner[t] == seat)

    def admirals_in_play(self, state: GameState, seat: Seat) -> int:
        return sum(row[seat] for row in adv(state).admirals)

    def stock(self, state: GameState, seat: Seat, kind: str) -> int:
        """NAP-ADV-03/25: tokens of ``kind`` neither in play nor held by a captor."""
        fam = adv(state)
        if kind == "general":
            return (
                GENERAL_TOKENS
                - self.generals_in_play(state, seat)
                - sum(fam.captured_generals[seat])
            )
        return (
            ADMIRAL_TOKENS - self.admirals_in_play(state, seat) - sum(fam.captured_admirals[seat])
        )

    def forts_free(self, state: GameState) -> int | None:
        pool = nar.fortification_tokens(self.board)
        return None if pool is None else pool - len(adv(state).forts)

    def zone_name(self, zone: int) -> str:
        """A sea zone's English name, for messages (its id is for events)."""
        return self.board.sea_zones[zone].name_en

    def zone(self, name: str) -> int:
        i = self.zone_index.get(name)
        if i is None:
            raise RuleError("unknown_zone", f"There is no sea zone '{name}' on this board.")
        return i

    # ================================================================== set-up
    def opening(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-07 then NAP-ADV-08: missions first (to be read before claiming), the deck,
        a random first claimer, every territory empty."""
        emit(self.deal_missions(state))
        super().opening(state, emit)

    def deal_missions(self, state: GameState) -> AdvMissionsDealt:
        """NAP-ADV-07: all mission cards (Empire missions included) in 4 piles by rank, each
        shuffled; every seat draws one of each rank."""
        rng = Rng(state.seed, state.rng)
        seats = len(state.players)
        hands: list[list[str]] = [[] for _ in range(seats)]
        piles: list[tuple[str, ...]] = []
        for rank in MISSION_RANKS:
            pile = [m.id for m in self.board.missions if m.rank == rank]
            pile += [m.id for m in self.empire_missions.values() if m.rank == rank]
            if len(pile) < seats:
                raise SetupError("missing_data", f"Only {len(pile)} {rank} missions.")
            order = [pile[i] for i in rng.shuffle(list(range(len(pile))))]
            for seat in range(seats):
                hands[seat].append(order.pop())
            piles.append(tuple(order))
        return AdvMissionsDealt(
            missions=tuple(tuple(h) for h in hands), piles=tuple(piles), rng=rng.counter
        )

    def starting_armies(self, state: GameState) -> int:
        return nar.STARTING_REGIMENTS[len(state.players)]  # NAP-ADV-06

    def _setup_place(self, state: GameState, seat: Seat, t: int, count: int, emit: Emit) -> None:
        """NAP-ADV-09/47: never more than 10 regiments on a territory during set-up."""
        if state.armies[t] + count > nar.SETUP_CAP:
            raise RuleError(
                "setup_cap",
                f"{self.board.name(t)} would hold {state.armies[t] + count} regiments: at most "
                f"{nar.SETUP_CAP} on a territory during set-up (NAP-ADV-09).",
            )
        super()._setup_place(state, seat, t, count, emit)

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-09: then each player places a general and a fortification."""
        emit(PiecesDue(seat=state.first))

    def _place_piece(self, state: GameState, cmd: PlacePiece, emit: Emit) -> None:
        if state.phase != "pieces":
            raise RuleError("wrong_phase", f"No piece to place in the {state.phase} phase.")
        left = adv(state).pieces[cmd.seat]
        due = "general" if left == 2 else "fortification"
        if cmd.kind != due:
            raise RuleError("wrong_piece", f"Place your {due} now (NAP-ADV-09).")
        t = self.territory(cmd.territory)
        if state.owner[t] != cmd.seat:
            raise RuleError("not_owner", f"You do not control {self.board.name(t)}.")
        if cmd.kind == "fortification" and self.board.territories[t].id in adv(state).forts:
            raise RuleError("already_fortified", f"{self.board.name(t)} has a fortification.")
        emit(PiecePlaced(seat=cmd.seat, kind=cmd.kind, territory=self.board.territories[t].id))
        if not any(adv(state).pieces):
            self.finish_setup(state, emit)

    def place_start_epidemics(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-10: 4 epidemics in 4 empires, from cards drawn off a shuffled pile."""
        rng = Rng(state.seed, state.rng)
        cards = rng.shuffle(list(range(len(self.board.card_symbols))))
        drawn = [self.board.card_territory(c) for c in reversed(cards)]
        placed = nar.place_epidemics(self.board, drawn)
        ids = self.board.territories
        emit(EpidemicsPlaced(territories=tuple(ids[t].id for t in placed), rng=rng.counter))

    def finish_setup(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-10..12 (DEC-27): epidemics, a new roll for the first player, then the
        starting cards by place in the turn order, and the first turn."""
        self.place_start_epidemics(state, emit)
        rng = Rng(state.seed, state.rng)
        emit(DeckFormed(deck=tuple(rng.shuffle(sorted(state.deck))), rng=rng.counter))
        self.choose_first_player(state, emit)
        n = len(state.players)
        for k, count in enumerate(nar.starting_cards(self.board, n)):
            for _ in range(count):
                self.draw_card(state, (state.first + k) % n, emit)
        self.start_next_turn(state, emit)

    # ================================================================== turns
    def rounds(self, state: GameState) -> int:
        return int(state.options.get("rounds", nar.ROUNDS))

    def round_limit(self, state: GameState) -> int | None:
        return self.rounds(state)

    def start_next_turn(self, state: GameState, emit: Emit) -> None:
        """CORE's turn order with the census (NAP-ADV-18) and the start of turn (NAP-ADV-14..16)."""
        if state.turn == 0 and any(adv(state).pieces):
            return  # the general and fortification come first (NAP-ADV-09)
        n = len(state.players)
        if state.turn == 0:
            seat, rnd = state.first, 1
        else:
            seat = self.next_seat(state, state.current)
            wrapped = (seat - state.first) % n <= (state.current - state.first) % n
            rnd = state.round + 1 if wrapped else state.round
        if rnd > self.rounds(state) or len(self.active_seats(state)) < 2:
            self.finish_game(state, emit)
            return
        census = self.census(state, seat, rnd)
        emit(
            TurnStarted(
                seat=seat,
                turn=state.turn + 1,
                round=rnd,
                territories=census.territories,
                base=census.total - self.group_bonus(census.empires),
                groups=census.empires,
                income=census.total,
            )
        )
        self.income_placed(state, seat, emit)
        self.start_of_turn(state, emit)

    def income_placed(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """NAP-ADV-21 ("ajoutez 1 régiment dans chaque territoire où vous possédez 1
        fortification"): each fortification on the seat's territories, all built before this
        turn, gives 1 regiment of the turn's income, placed there at once."""
        for f in adv(state).forts:
            if state.owner[self.board.index[f]] == seat:
                emit(ArmiesPlaced(seat=seat, territory=f, count=1))

    def census(self, state: GameState, seat: Seat, rnd: int | None = None) -> nar.Census:
        """NAP-ADV-18/19/21 (+ NAP-CAP-01/02): this seat's reinforcements now."""
        fam = adv(state)
        index = self.board.index
        return nar.census(
            self.board,
            state.owner,
            self.ships(state),
            seat,
            fortified=[index[f] for f in fam.forts],
            permanent=self.permanent_bonus(state, seat),
            capitals=bool(state.options.get("capitals")),
            capital_kind=str(state.options.get("capital_bonus_kind", "reinforcement")),
            round=state.round if rnd is None else rnd,
        )

    def income(self, state: GameState, seat: Seat) -> tuple[int, int, tuple[str, ...]]:
        c = self.census(state, seat)
        return c.territories, c.total - self.group_bonus(c.empires), c.empires

    def permanent_bonus(self, state: GameState, seat: Seat) -> int:
        """NAP-ADV-17/19: face-up Empire missions whose test still holds."""
        total = 0
        ships = self.ships(state)
        for m in adv(state).done[seat]:
            em = self.empire_missions.get(m)
            if (
                em
                and em.permanent
                and nar.empire_mission_done(self.board, em, state.owner, ships, seat)
            ):
                total += em.permanent
        return total

    def start_of_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-14..16 (DEC-26, DEC-31): VP for empires, routes (and capitals when they
        score VP), then the missions fulfilled."""
        seat = state.current
        empires = nar.held_empires(self.board, state.owner, seat)
        routes = nar.held_routes(self.board, self.ships(state), seat)
        route_vp = bool(state.options.get("route_vp", True))
        vp = nar.start_vp(self.board, state.owner, self.ships(state), seat, route_vp=route_vp)
        if vp:
            detail = (*empires, *(routes if route_vp else ()))
            emit(VPScored(seat=seat, vp=vp, reason="empires", detail=detail))
        if state.options.get("capitals") and state.options.get("capital_bonus_kind") == "vp":
            caps = nar.capital_holdings(self.board, state.owner, seat, state.round)
            if caps:
                emit(
                    VPScored(
                        seat=seat,
                        vp=nar.capital_bonus(self.board, caps),
                        reason="capitals",
                        detail=caps,
                    )
                )
        self.check_missions(state, seat, emit)

    # ------------------------------------------------------------------ missions
    def mission_rank(self, mission: str) -> str:
        em = self.empire_missions.get(mission)
        if em is not None:
            return em.rank
        return self.basic_missions[mission].rank or ""

    def mission_met(self, state: GameState, seat: Seat, mission: str) -> bool:
        em = self.empire_missions.get(mission)
        if em is not None:
            return nar.empire_mission_done(self.board, em, state.owner, self.ships(state), seat)
        return NapoleonMission.mission_met(self, state, seat, self.basic_missions[mission])  # type: ignore[arg-type]

    def check_missions(self, state: GameState, seat: Seat, emit: Emit, final: bool = False) -> None:
        """NAP-ADV-15/17/42/46: show and score every mission fulfilled, one per rank a turn;
        an Empire mission's regiments go on the seat's largest stack of its empire; its
        permanent bonus, shown at the start of the turn, joins this turn's reinforcements
        (NAP-ADV-13: the start of turn comes before the census of NAP-ADV-19)."""
        starting = state.phase == "reinforce" and seat == state.current and not final
        for mission in adv(state).missions[seat]:
            rank = self.mission_rank(mission)
            if not final and rank in adv(state).ranks_claimed:
                continue
            if not self.mission_met(state, seat, mission):
                continue
            em = self.empire_missions.get(mission)
            vp = em.vp if em is not None else self.mission_vp.get(mission, 1)
            immediate, placed = 0, ""
            if em is not None and em.immediate and not final:
                spot = self.largest_stack(state, seat, em.target if em.test != "route" else None)
                if spot is not None:
                    immediate, placed = em.immediate, self.board.territories[spot].id
            pile = adv(state).piles[MISSION_RANKS.index(rank)]
            drawn = pile[-1] if pile and not final else ""
            extra = em.permanent if em is not None and starting else 0
            emit(
                MissionAccomplished(
                    seat=seat,
                    mission=mission,
                    vp=vp,
                    immediate=immediate,
                    placed_on=placed,
                    drawn=drawn,
                    final=final,
                    reinforcements=extra or msgspec.UNSET,
                )
            )

    def largest_stack(self, state: GameState, seat: Seat, empire: str | None) -> int | None:
        spots = [t for t, o in enumerate(state.owner) if o == seat]
        if empire is not None:
            members = set(self.board.group_members[self.board.group_index[empire]])
            spots = [t for t in spots if t in members] or spots
        return max(spots, key=lambda t: (state.armies[t], -t)) if spots else None

    # ================================================================== cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """NAP-ADV-20: fixed values; the Renfort card adds 4 regiments."""
        symbols = [self.board.card_symbols[c] for c in cards]
        value = nar.set_value(symbols)
        if value is None:
            return None
        return value + sum(
            e.amount for c in cards if (e := self.effects.get(c)) and e.effect == "renfort"
        )

    def is_set(self, cards: Sequence[int]) -> bool:
        return nar.set_value([self.board.card_symbols[c] for c in cards]) is not None

    def card_bonus_territories(
        self, state: GameState, seat: Seat, cards: Sequence[int]
    ) -> list[int]:
        """NAP-ADV-20 (DEC-22 on): +2 on each traded card's territory you control."""
        territory = self.board.card_territory
        return [t for c in cards if (t := territory(c)) is not None and state.owner[t] == seat]

    def elimination_from(self, state: GameState) -> int:
        return int(state.options.get("elimination_trade_from", nar.FORCED_TRADE_AT))

    def elimination_trade_due(self, state: GameState, seat: Seat) -> bool:
        """NAP-ADV-38 (DEC-04 option ``elimination_trade_from``): the cards taken from an
        eliminated player force a trade at once from this many cards, if they hold a set."""
        hand = len(state.players[seat].hand)
        return hand >= self.elimination_from(state) and (
            next(self.sets_in_hand(state, seat), None) is not None
        )

    def must_trade(self, state: GameState, seat: Seat) -> bool:
        """NAP-ADV-20: 5 cards or more at reinforcement (DEC-04 after an elimination): trade
        until fewer than 5.  Below 5 (``elimination_trade_from`` 3 or 4) the threshold forces
        only the first set, while the elimination's trade is still open (``may_trade``): the
        target stays "fewer than 5", so 3 or 4 cards left are kept."""
        hand = len(state.players[seat].hand)
        if state.phase == "elim_trade":
            if hand < nar.FORCED_TRADE_AT and not (
                state.may_trade and hand >= self.elimination_from(state)
            ):
                return False
            return next(self.sets_in_hand(state, seat), None) is not None
        return (
            state.phase == "reinforce"
            and hand >= nar.FORCED_TRADE_AT
            and next(self.valid_sets(state, seat), None) is not None
        )

    def one_set_per_turn(self, state: GameState) -> bool:
        return False

    def draw_epidemic_card(self, state: GameState, emit: Emit) -> int | None:
        """Turn the top card for an epidemic (NAP-ADV-40/41): its territory, None for a joker
        or when no card is left to turn."""
        if not state.deck and state.discard:
            rng = Rng(state.seed, state.rng, state.dice_script)
            emit(DeckReshuffled(deck=tuple(rng.shuffle(sorted(state.discard))), rng=rng.counter))
        if not state.deck:
            return None
        card = state.deck[-1]
        emit(EpidemicCardDrawn(card=card))
        return self.board.card_territory(card)

    def epidemic_destination(self, state: GameState, avoid: int, emit: Emit) -> int | None:
        """Draw until a card names a territory holding regiments (not ``avoid``)."""
        for _ in range(len(self.board.card_symbols) * 2):
            t = self.draw_epidemic_card(state, emit)
            if t is not None and t != avoid and state.armies[t] > 0:
                return t
            if not state.deck and not state.discard:
                return None
        return None

    def card_phase(self, state: GameState, seat: Seat) -> str:
        if state.phase == "defend":
            return "combat"
        if state.phase == "attack":
            return "maneuver" if adv(state).maneuvering else "combat"
        return state.phase

    def _play_card(self, state: GameState, cmd: PlayCard, emit: Emit) -> None:
        """NAP-ADV-26: a card's effect in its window, then +2 on its territory if held."""
        seat = cmd.seat
        if cmd.card not in state.players[seat].hand:
            raise RuleError("not_in_hand", f"You hold no card {cmd.card}.")
        effect = self.effects.get(cmd.card)
        if effect is None or effect.effect == "renfort":
            raise RuleError(
                "no_effect",
                "Jokers and the Renfort card have no effect to play: trade them (NAP-ADV-26).",
            )
        own = seat == state.current
        phase = self.card_phase(state, seat)
        if state.phase not in ("reinforce", "attack", "defend") or not nar.card_window_open(
            effect.window, own, phase
        ):
            raise RuleError(
                "wrong_window",
                f"This card is played in the {effect.window.replace('_', ' ')} window, not "
                f"now (NAP-ADV-26).",
            )
        target = self.card_target(state, seat, effect, cmd.target, phase)
        if effect.effect == "extra_maneuver" and not adv(state).maneuvering:
            self.end_combat(state, seat, emit)
        t = self.board.card_territory(cmd.card)
        bonus = self.board.territories[t].id if t is not None and state.owner[t] == seat else ""
        emit(
            CardPlayed(
                seat=seat,
                card=cmd.card,
                effect=effect.effect,
                amount=effect.amount,
                target=target,
                bonus_on=bonus,
            )
        )
        if effect.effect == "move_epidemic":
            self.move_epidemic(state, target, emit)

    def card_target(
        self, state: GameState, seat: Seat, effect: CardEffect, target: str, phase: str
    ) -> str:
        """Check what the effect needs now; return its target as recorded."""
        kind = effect.effect
        if kind in ("regiments", "ships") and phase != "reinforce":
            raise RuleError("wrong_window", "Reinforcement cards are played while reinforcing.")
        if kind == "attack_bonus" and (phase != "combat" or seat != state.current):
            raise RuleError("wrong_window", "Attack cards are played in your combat phase.")
        if kind == "defence_bonus" and state.phase != "defend":
            raise RuleError("wrong_window", "Defence cards are played when you defend.")
        if kind == "extra_maneuver" and adv(state).forced:
            raise RuleError("naval_combat_pending", self.forced_text(state))
        if kind in ("ships", "move_epidemic") and not target:
            wanted = "the sea zone its ships go to" if kind == "ships" else "FROM>TO territories"
            raise RuleError("no_target", f"This card needs a target: {wanted} (NAP-ADV-26).")
        if kind == "ships":
            z = self.zone(target)
            if self.zones[z] not in nar.build_zones(self.board, state.owner, seat):
                raise RuleError("not_coastal", "Place ships in a zone next to your territories.")
            return target
        if kind == "move_epidemic":
            if seat != state.current or state.phase not in ("reinforce", "attack"):
                raise RuleError("wrong_window", "Epidemic cards are played in your own turn.")
            origin, _, dest = target.partition(">")
            o, t = self.territory(origin), self.territory(dest)
            if adv(state).epidemics[o] < 1 or o == t:
                raise RuleError(
                    "no_epidemic", "Move an epidemic from a territory that has one to another."
                )
            if state.owner[t] == seat and state.armies[t] == 1 and state.owner.count(seat) == 1:
                raise RuleError("own_last_territory", "That would empty your last territory.")
            ids = self.board.territories
            return f"{ids[o].id}>{ids[t].id}"
        return ""

    def move_epidemic(self, state: GameState, target: str, emit: Emit) -> None:
        """NAP-ADV-41: the moved epidemic kills 1 regiment; if that was the last, it moves on
        (card draw) with no new casualty."""
        origin, _, dest = target.partition(">")
        t = self.board.index[dest]
        killed = 1 if state.armies[t] > 0 else 0
        then = ""
        if killed and state.armies[t] == 1:
            nxt = self.epidemic_destination(state, t, emit)
            then = self.board.territories[nxt].id if nxt is not None else ""
        victim = state.owner[t]
        emit(EpidemicMoved(origin=origin, target=dest, killed=killed, then=then))
        if killed and victim >= 0 and victim not in state.owner:
            self.perish(state, victim, emit)

    def perish(self, state: GameState, seat: Seat, emit: Emit) -> None:
        emit(ArmyPerished(seat=seat, cards=tuple(state.players[seat].hand)))
        if len(self.active_seats(state)) < 2:
            self.finish_game(state, emit)

    # ================================================================== reinforcement
    def _convert(self, state: GameState, cmd: Convert, emit: Emit) -> None:
        """NAP-ADV-22/23/47: reinforcement regiments into ships, a general, an admiral or a
        fortification, after the census and before placing."""
        seat = cmd.seat
        if state.phase != "reinforce":
            raise RuleError("wrong_phase", "Conversions are made while reinforcing (NAP-ADV-22).")
        if self.must_trade(state, seat):
            raise RuleError("must_trade", "You hold 5 cards or more: trade a set first.")
        single = cmd.kind != "ship"
        if cmd.count < 1 or (single and cmd.count != 1):
            raise RuleError("bad_count", "Convert 1 regiment (any number into ships).")
        if cmd.count > state.reserve:
            raise RuleError("not_enough_armies", f"You have only {state.reserve} to convert.")
        fam = adv(state)
        if cmd.kind in ("ship", "admiral"):
            z = self.zone(cmd.where)
            if cmd.kind == "ship" and cmd.where not in nar.build_zones(
                self.board, state.owner, seat
            ):
                raise RuleError(
                    "not_coastal",
                    f"{self.zone_name(z)} touches none of your territories (NAP-ADV-22).",
                )
            if cmd.kind == "admiral":
                if self.stock(state, seat, "admiral") < 1:
                    raise RuleError(
                        "too_many_admirals", "No admiral of yours is free (2 at most, NAP-ADV-03)."
                    )
                nar.check_conversion(
                    "admiral",
                    admirals=self.admirals_in_play(state, seat),
                    own_ships_here=fam.ships[z][seat] > 0,
                )
            where = self.zones[z]
        else:
            t = self.territory(cmd.where)
            if cmd.kind == "general" and self.stock(state, seat, "general") < 1:
                raise RuleError(
                    "too_many_generals", "No general of yours is free (3 at most, NAP-ADV-03)."
                )
            nar.check_conversion(
                cmd.kind,
                generals=self.generals_in_play(state, seat),
                fort_here=self.board.territories[t].id in fam.forts,
                epidemic_here=fam.epidemics[t] > 0,
                forts_free=self.forts_free(state),
                own_territory=state.owner[t] == seat,
            )
            where = self.board.territories[t].id
        emit(Converted(seat=seat, kind=cmd.kind, where=where, count=cmd.count))

    def _ransom(self, state: GameState, cmd: Ransom, emit: Emit) -> None:
        """NAP-ADV-25 (DEC-29): with none left in stock, buy a captured piece back for 1
        reinforcement regiment; the captor places 1 regiment on his largest stack."""
        seat, captor = cmd.seat, cmd.captor
        if state.phase != "reinforce" or state.reserve < 1:
            raise RuleError("wrong_phase", "A ransom is paid with a reinforcement regiment.")
        if not 0 <= captor < len(state.players):
            raise RuleError("unknown_seat", f"There is no seat {captor}.")
        fam = adv(state)
        table = fam.captured_generals if cmd.kind == "general" else fam.captured_admirals
        if table[seat][captor] < 1:
            raise RuleError("nothing_to_ransom", f"Seat {captor} holds no {cmd.kind} of yours.")
        if self.stock(state, seat, cmd.kind) > 0:
            raise RuleError(
                "stock_left", f"You still have a {cmd.kind} in stock: no ransom (NAP-ADV-25)."
            )
        spot = self.largest_stack(state, captor, None)
        placed = self.board.territories[spot].id if spot is not None else ""
        back = 1 if state.options.get("ransom_vp") == "returned" else 0
        emit(Ransomed(seat=seat, kind=cmd.kind, captor=captor, placed_on=placed, vp_back=back))

    # ================================================================== combat
    def forced_text(self, state: GameState) -> str:
        zones = ", ".join(adv(state).forced)
        return f"Finish the naval combat you must fight first in {zones} (NAP-ADV-27)."

    def _attack(self, state: GameState, cmd: Attack, emit: Emit) -> None:
        if state.phase == "attack":
            fam = adv(state)
            if fam.forced:
                raise RuleError("naval_combat_pending", self.forced_text(state))
            if fam.maneuvering:
                raise RuleError("attacks_over", "Your attacks are over: maneuver or end the turn.")
        super()._attack(state, cmd, emit)

    def attack_graph(self, state: GameState, seat: Seat) -> Sequence[Sequence[int]]:
        """NAP-ADV-36: borders, sea lines and naval landings through up to 3 held zones."""
        held = self.held_zones(state, seat)
        if not held:
            return self.board.neighbours
        out = []
        for t, nbrs in enumerate(self.board.neighbours):
            if state.owner[t] == seat:
                extra = nar.landing_reach(self.board, t, held) - set(nbrs)
                out.append(tuple(sorted({*nbrs, *extra})) if extra else nbrs)
            else:
                out.append(nbrs)
        return out

    def attack_edge(self, state: GameState, seat: Seat, a: int, b: int) -> str:
        """NAP-ADV-36: a territory reached through held zones is a naval landing."""
        return self.board.edge_kind(a, b) or "landing"

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """NAP-ADV-32/DEC-24: the origin must keep 2 regiments after the epidemic penalty;
        NAP-ADV-27: no land offensive while a forced naval combat is pending."""
        fam = adv(state)
        if fam.forced:
            return RuleError("naval_combat_pending", self.forced_text(state))
        if fam.maneuvering:
            return RuleError("attacks_over", "Your attacks are over: maneuver or end the turn.")
        n = self.penalty_due(state, origin, target)
        if n and not nar.epidemic_penalty_ok(state.armies[origin], n):
            return RuleError(
                "epidemic_penalty",
                f"{self.board.name(target)} has {n} epidemic(s): invading it costs {n} "
                f"regiment(s) of {self.board.name(origin)}, which must keep 2 (NAP-ADV-32).",
            )
        return None

    def penalty_due(self, state: GameState, origin: int, target: int) -> int:
        fam = adv(state)
        n = fam.epidemics[target]
        if not n:
            return 0
        ids = self.board.territories
        per_battle = state.options.get("epidemic_penalty") == "per_battle"
        if not per_battle and f"{ids[origin].id}>{ids[target].id}" in fam.charged:
            return 0
        return n

    def launch(self, state: GameState, cmd: Attack, o: int, t: int, emit: Emit) -> None:
        """NAP-ADV-31/32/37, DEC-23/24/28: the epidemic penalty, the generals committed, then
        the battles — or, on an empty territory, the invasion without dice."""
        ids = self.board.territories
        n = self.penalty_due(state, o, t)
        if n:
            emit(EpidemicPenalty(seat=cmd.seat, origin=ids[o].id, target=ids[t].id, count=n))
        commit = state.options.get("general_model", "commit") == "commit"
        leaders = self.leading(state, o) if commit and state.owner[t] != -1 else 0
        if leaders or adv(state).committed:  # (a new order: the last one's generals are home)
            emit(LeadersCommitted(seat=cmd.seat, origin=ids[o].id, count=leaders))
        fam = adv(state)
        fortified = ids[t].id in fam.forts
        if state.owner[t] >= 0 and (fam.generals[t] or fortified):
            emit(
                DefenceRaised(
                    target=ids[t].id,
                    defender=state.owner[t],
                    generals=fam.generals[t],
                    fortified=fortified,
                    bonus=nar.ranked_bonus(min(2, fam.generals[t]), fortified),
                )
            )
        if state.owner[t] == -1:  # NAP-ADV-37 (DEC-28): no dice
            order = PendingAttack(
                defender=-1, origin=o, target=t, dice=1, until="once", stop_at=1, move=cmd.move
            )
            self.conquer(state, order, 1, emit)
            return
        super().launch(state, cmd, o, t, emit)

    def leading(self, state: GameState, origin: int) -> int:
        """DEC-23: the generals of ``origin`` that lead an attack: the number chosen this turn
        (``lead``), else the two that raise dice (fewer when fewer are there)."""
        fam = adv(state)
        here = fam.generals[origin]
        tid = self.board.territories[origin].id
        for entry in reversed(fam.leads):
            name, _, count = entry.partition("=")
            if name == tid:
                return min(int(count), here)
        return min(2, here)

    def odds_position(self, state: GameState, origin: int, target: int) -> GameState:
        """DEC-23 (NAP-ADV-33): a new attack's odds count the generals its launch commits
        (``leading``), not those of the last order, which are home again."""
        if state.options.get("general_model", "commit") != "commit":
            return state
        leaders = self.leading(state, origin) if state.owner[target] != -1 else 0
        if leaders == adv(state).committed:
            return state
        position = copy.copy(state)
        position.family = msgspec.structs.replace(adv(state), committed=leaders)
        return position

    def _lead(self, state: GameState, cmd: Lead, emit: Emit) -> None:
        """DEC-23: choose how many of a territory's generals lead its attacks this turn."""
        if state.phase != "attack" or adv(state).maneuvering:
            raise RuleError("wrong_phase", "Generals are chosen to lead during your attacks.")
        if state.options.get("general_model", "commit") != "commit":
            raise RuleError(
                "generals_not_committed",
                "With general_model=aura every general of the origin gives its bonus (DEC-23).",
            )
        o = self.territory(cmd.origin)
        if state.owner[o] != cmd.seat:
            raise RuleError("not_owner", f"You do not hold {self.board.name(o)}.")
        here = adv(state).generals[o]
        if not here:
            raise RuleError("no_general", f"None of your generals is in {self.board.name(o)}.")
        if not 0 <= cmd.generals <= here:
            raise RuleError(
                "no_general", f"Lead with 0 to {here} generals from {self.board.name(o)}."
            )
        emit(LeadChosen(seat=cmd.seat, origin=self.board.territories[o].id, generals=cmd.generals))

    def battle_ends_order(self, state: GameState, order: PendingAttack, emit: Emit) -> bool:
        """DEC-23: committed generals are taken when every attacking regiment of the battle
        is destroyed; DEC-24 ``per_battle``: the penalty again before the next battle."""
        fam = adv(state)
        ids = self.board.territories
        o, t = order.origin, order.target
        if fam.lost_all and fam.committed:
            owner, by = self.generals_lost_to(state, order)
            emit(
                LeadersCaptured(
                    kind="general",
                    owner=owner,
                    by=by,
                    count=fam.committed,
                    where=ids[o].id,
                )
            )
        last = order.until == "once" or state.armies[o] <= max(order.stop_at, 1)
        if state.options.get("epidemic_penalty") == "per_battle" and not last:
            n = fam.epidemics[t]
            if n:
                if not nar.epidemic_penalty_ok(state.armies[o], n):
                    return True
                emit(
                    EpidemicPenalty(seat=state.current, origin=ids[o].id, target=ids[t].id, count=n)
                )
        return False

    def generals_lost_to(self, state: GameState, order: PendingAttack) -> tuple[Seat, Seat]:
        """DEC-23: whose committed generals are taken, and by whom: the mover's, by the
        defender."""
        return state.current, order.defender

    def leaders_for(self, state: GameState, t: int, attacking: bool) -> int:
        fam = adv(state)
        if attacking and state.options.get("general_model", "commit") == "commit":
            return fam.committed
        return min(2, fam.generals[t])

    def attack_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        """NAP-ADV-33: +1 on the highest die per general (2 at most), and a card's bonus."""
        fam = adv(state)
        ranked = list(nar.ranked_bonus(self.leaders_for(state, order.origin, True)))
        return self.spec(state, count, ranked, fam.attack_boost)

    def defence_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        """NAP-ADV-33/34: the defending generals and the fortification, and a card's bonus."""
        fam = adv(state)
        t = order.target
        fort = self.board.territories[t].id in fam.forts
        ranked = list(nar.ranked_bonus(self.leaders_for(state, t, False), fort))
        return self.spec(state, count, ranked, fam.defence_boost)

    def spec(self, state: GameState, count: int, ranked: list[int], boost: int) -> DiceSpec:
        if boost:
            ranked = [ranked[0] + boost, *ranked[1:]] if ranked else [boost]
        if not ranked:
            return d6(count)
        # Every game records its options; ``True`` is the reading before the option was
        # recorded, so that no older game replays otherwise.
        cap = bool(state.options.get("die_cap", True))
        return DiceSpec(count=count, ranked=tuple(ranked), cap=cap)

    def conquer(self, state: GameState, order: PendingAttack, dice: int, emit: Emit) -> None:
        """NAP-ADV-24/35/38: the defending generals are taken and the fortification falls
        (after a combat); the committed generals follow the regiments (DEC-23); the last
        territory of a player eliminates it and removes its ships."""
        o, t = order.origin, order.target
        ids = self.board.territories
        previous = state.owner[t]
        defenders = adv(state).generals[t]
        fortified = ids[t].id in adv(state).forts
        emit(
            TerritoryConquered(
                seat=state.current,
                origin=ids[o].id,
                target=ids[t].id,
                previous=previous,
                min=dice,
                max=self.occupation_max(state, o, dice),
            )
        )
        if previous >= 0:
            if defenders:
                emit(
                    LeadersCaptured(
                        kind="general",
                        owner=previous,
                        by=state.current,
                        count=defenders,
                        where=ids[t].id,
                    )
                )
            if fortified:
                emit(FortDestroyed(territory=ids[t].id))
        committed = adv(state).committed
        if committed and previous >= 0:
            emit(
                LeadersAdvanced(
                    seat=state.current, origin=ids[o].id, target=ids[t].id, count=committed
                )
            )
        if previous >= 0 and previous not in state.owner:
            emit(
                PlayerEliminated(
                    seat=previous, by=state.current, cards=tuple(state.players[previous].hand)
                )
            )
            if len(self.active_seats(state)) < 2:
                self.last_conquest(state, order, emit)
                self.finish_game(state, emit)
                return
        occ = state.occupation
        if occ is not None and order.move is not None:
            emit(self._occupied(state, state.current, occ, max(occ.min, min(occ.max, order.move))))

    def occupation_max(self, state: GameState, origin: int, dice: int) -> int:
        """The most regiments a conquest from ``origin`` may move in, before any moves (all
        but 1; at least the ``dice`` thrown, which move in anyway)."""
        return state.armies[origin] - 1

    def last_conquest(self, state: GameState, order: PendingAttack, emit: Emit) -> None:
        """What the conquest that leaves one player standing earns, before the game ends
        (the advanced game: nothing; a family that scores conquests scores this one too)."""

    # ------------------------------------------------------------------ naval combat
    def _naval_attack(self, state: GameState, cmd: NavalAttack, emit: Emit) -> None:
        """NAP-ADV-27/28/30: naval combat, before any land offensive; a forced combat in the
        zone where you built is fought there, every ship taking part."""
        seat = cmd.seat
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"No naval combat in the {state.phase} phase.")
        fam = adv(state)
        if fam.maneuvering:
            raise RuleError("attacks_over", "Your attacks are over: maneuver or end the turn.")
        if fam.land_started:
            raise RuleError(
                "naval_after_land",
                "Naval combats come before the first land offensive of the turn (NAP-ADV-27).",
            )
        o, t = self.zone(cmd.origin), self.zone(cmd.target)
        err = dice_count_error(cmd.dice, 3)
        if err is not None:
            raise err
        own = fam.ships[o][seat]
        if own < 1:
            raise RuleError("no_ships", f"You have no ships in {self.zone_name(o)}.")
        if o == t:
            enemy = self.enemy_in(state, t, seat)
            if enemy is None:
                raise RuleError("no_enemy_ships", f"No enemy ships share {self.zone_name(t)}.")
            self.naval_fight(state, seat, o, t, enemy, cmd, emit)
            return
        if fam.forced:
            raise RuleError("naval_combat_pending", self.forced_text(state))
        if self.zones[t] not in self.zone_links[self.zones[o]]:
            raise RuleError(
                "not_adjacent",
                f"{self.zone_name(o)} does not touch {self.zone_name(t)} (NAP-ADV-28).",
            )
        if own < 2:
            raise RuleError(
                "not_enough_ships",
                f"Keep 1 ship in {self.zone_name(o)}: you have {own} (NAP-ADV-28).",
            )
        if fam.ships[t][seat]:
            raise RuleError("own_zone", f"Your ships are already in {self.zone_name(t)}: maneuver.")
        enemy = self.enemy_in(state, t, seat)
        if enemy is None:  # an empty zone: moving in is its invasion
            count = self.ships_moving(own, cmd.move, cmd.dice)
            emit(FleetMoved(seat=seat, origin=self.zones[o], target=self.zones[t], ships=count))
            return
        self.naval_fight(state, seat, o, t, enemy, cmd, emit)

    @staticmethod
    def ships_moving(own: int, move: int | None, dice: int) -> int:
        wanted = dice if move is None else move
        return max(1, min(own - 1, wanted))

    def enemy_in(self, state: GameState, zone: int, seat: Seat) -> Seat | None:
        row = adv(state).ships[zone]
        return next((s for s, n in enumerate(row) if n and s != seat), None)

    def naval_fight(
        self,
        state: GameState,
        seat: Seat,
        o: int,
        t: int,
        enemy: Seat,
        cmd: NavalAttack,
        emit: Emit,
    ) -> None:
        same = o == t
        while True:
            fam = adv(state)
            own = fam.ships[o][seat]
            theirs = fam.ships[t][enemy]
            a = min(cmd.dice, 3, own if same else own - 1)
            d = min(2, theirs)
            a_adm = min(2, fam.admirals[o][seat])
            d_adm = min(2, fam.admirals[t][enemy])
            ranked_a = list(nar.ranked_bonus(a_adm))
            a_spec = self.spec(state, a, ranked_a, fam.attack_boost)
            d_spec = self.spec(state, d, list(nar.ranked_bonus(d_adm)), 0)
            rng = Rng(state.seed, state.rng, state.dice_script)
            (a_nat, a_faces), (d_nat, d_faces) = throw_battle(rng, a_spec, d_spec)
            a_loss, d_loss = compare_faces(a_faces, d_faces)
            own_left, theirs_left = own - a_loss, theirs - d_loss
            # NAP-ADV-24 (DEC-23): admirals fall with the last ships they fought with.
            if same:
                a_taken = fam.admirals[o][seat] if own_left == 0 else 0
            else:
                a_taken = a_adm if a_adm and a_loss == a else 0
            d_taken = fam.admirals[t][enemy] if theirs_left == 0 else 0
            emit(
                NavalBattle(
                    seat=seat,
                    origin=self.zones[o],
                    target=self.zones[t],
                    defender=enemy,
                    attack=a_faces,
                    defence=d_faces,
                    attack_natural=a_nat,
                    defence_natural=d_nat,
                    attack_bonus=a_spec.ranked,
                    defence_bonus=d_spec.ranked,
                    attacker_losses=a_loss,
                    defender_losses=d_loss,
                    rng=rng.counter,
                    scripted=rng.scripted,
                    attacker_admirals_taken=a_taken,
                    defender_admirals_taken=d_taken,
                )
            )
            fam = adv(state)
            if fam.ships[t][enemy] == 0:
                if not same:
                    own = fam.ships[o][seat]
                    count = self.ships_moving(own, cmd.move, a)
                    committed = min(fam.admirals[o][seat], a_adm)
                    emit(
                        FleetMoved(
                            seat=seat,
                            origin=self.zones[o],
                            target=self.zones[t],
                            ships=count,
                            admirals=committed,
                        )
                    )
                return
            if same and fam.ships[o][seat] == 0:
                return
            if cmd.until == "once" or (not same and fam.ships[o][seat] < 2):
                return

    # ================================================================== maneuvers
    def end_combat(self, state: GameState, seat: Seat, emit: Emit) -> None:
        if adv(state).forced:
            raise RuleError("naval_combat_pending", self.forced_text(state))
        emit(CombatEnded(seat=seat))

    def maneuver_ready(self, state: GameState, seat: Seat, emit: Emit) -> None:
        if state.phase != "attack":
            if state.phase == "occupy":
                raise self.must_occupy(state)
            raise RuleError("wrong_phase", f"No maneuver in the {state.phase} phase.")
        if not adv(state).maneuvering:
            self.end_combat(state, seat, emit)

    def _fortify(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        """NAP-ADV-39: the land maneuver (one, +1 per maneuver card), along own territories."""
        seat = cmd.seat
        if state.phase == "attack" and adv(state).land_moves < 1:
            raise RuleError("maneuver_used", "You have made your land maneuver this turn.")
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"You cannot maneuver in the {state.phase} phase.")
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        if state.owner[o] != seat or state.owner[t] != seat or o == t:
            raise RuleError("not_owner", "Maneuver between two territories you control.")
        if not self.fortify_reachable(state, seat, o, t):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through "
                "your own territories (NAP-ADV-39).",
            )
        if not 1 <= cmd.count <= state.armies[o] - 1:
            raise RuleError("not_enough_armies", self.movable_text(o, state.armies[o] - 1))
        self.maneuver_ready(state, seat, emit)
        ids = self.board.territories
        emit(Fortified(seat=seat, origin=ids[o].id, target=ids[t].id, count=cmd.count))

    def _move_general(self, state: GameState, cmd: MoveGeneral, emit: Emit) -> None:
        """NAP-ADV-39/47: one maneuver per general, with regiments that were with it when the
        maneuvers began; it arrives on an own territory (so never alone)."""
        seat = cmd.seat
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"No maneuver in the {state.phase} phase.")
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        fam = adv(state)
        if state.owner[o] != seat or fam.generals[o] < 1:
            raise RuleError("no_general", f"You have no general in {self.board.name(o)}.")
        if state.owner[t] != seat or o == t or not self.fortify_reachable(state, seat, o, t):
            raise RuleError(
                "not_connected", f"{self.board.name(t)} is not one of your connected territories."
            )
        fresh = fam.fresh_generals[o] if fam.maneuvering else fam.generals[o]
        if fresh < 1:
            raise RuleError("general_moved", "Every general there has maneuvered this turn.")
        start = fam.start_units[o] if fam.maneuvering else state.armies[o]
        most = min(start, state.armies[o] - 1)
        if not 0 <= cmd.count <= most:
            raise RuleError(
                "not_enough_armies",
                f"The general may take 0 to {max(most, 0)} regiments that were with it when "
                "the maneuvers began (NAP-ADV-39).",
            )
        self.maneuver_ready(state, seat, emit)
        ids = self.board.territories
        emit(GeneralMoved(seat=seat, origin=ids[o].id, target=ids[t].id, count=cmd.count))

    def zones_connected(self, state: GameState, seat: Seat, o: int, t: int) -> bool:
        """A chain of zones ``seat`` controls from ``o`` to ``t``."""
        held = set(self.held_zones(state, seat))
        seen, stack = {self.zones[o]}, [self.zones[o]]
        while stack:
            for n in self.zone_links[stack.pop()]:
                if n in held and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return self.zones[t] in seen

    def _move_fleet(self, state: GameState, cmd: MoveFleet, emit: Emit) -> None:
        """NAP-ADV-39 (DEC-25): one naval maneuver between connected zones you control."""
        seat = cmd.seat
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"No maneuver in the {state.phase} phase.")
        o, t = self.zone(cmd.origin), self.zone(cmd.target)
        fam = adv(state)
        if fam.naval_moved:
            raise RuleError("maneuver_used", "You have made your naval maneuver this turn.")
        self.check_fleet_route(state, seat, o, t)
        keep = 1 if state.options.get("naval_leave_one", True) else 0
        most = fam.ships[o][seat] - keep - (1 if fam.admirals[o][seat] and not keep else 0)
        if not 1 <= cmd.ships <= most:
            raise RuleError(
                "not_enough_ships", f"Move 1 to {max(most, 0)} ships (DEC-25 leaves 1 behind)."
            )
        self.maneuver_ready(state, seat, emit)
        emit(
            FleetMoved(
                seat=seat,
                origin=self.zones[o],
                target=self.zones[t],
                ships=cmd.ships,
                kind="maneuver",
            )
        )

    def check_fleet_route(self, state: GameState, seat: Seat, o: int, t: int) -> None:
        if self.zone_owner(state, o) != seat or self.zone_owner(state, t) != seat or o == t:
            raise RuleError("not_your_zone", "Maneuver between two zones you control.")
        if not self.zones_connected(state, seat, o, t):
            raise RuleError(
                "not_connected",
                f"{self.zone_name(t)} is not joined to {self.zone_name(o)} by your zones.",
            )

    def _move_admiral(self, state: GameState, cmd: MoveAdmiral, emit: Emit) -> None:
        """NAP-ADV-39 (DEC-25): an admiral's maneuver, alone only to a zone with own ships."""
        seat = cmd.seat
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"No maneuver in the {state.phase} phase.")
        o, t = self.zone(cmd.origin), self.zone(cmd.target)
        fam = adv(state)
        if fam.admirals[o][seat] < 1:
            raise RuleError("no_admiral", f"You have no admiral in {self.zone_name(o)}.")
        self.check_fleet_route(state, seat, o, t)
        fresh = fam.fresh_admirals[o] if fam.maneuvering else fam.admirals[o][seat]
        if fresh < 1:
            raise RuleError("admiral_moved", "Every admiral there has maneuvered this turn.")
        start = fam.start_ships[o] if fam.maneuvering else fam.ships[o][seat]
        left_admirals = fam.admirals[o][seat] - 1
        most = min(start, fam.ships[o][seat] - (1 if left_admirals else 0))
        most = min(most, fam.ships[o][seat] - 1)  # the zone stays yours
        if not 0 <= cmd.ships <= max(most, 0):
            raise RuleError(
                "not_enough_ships",
                f"The admiral may take 0 to {max(most, 0)} of the ships that were with it.",
            )
        self.maneuver_ready(state, seat, emit)
        emit(
            FleetMoved(
                seat=seat,
                origin=self.zones[o],
                target=self.zones[t],
                ships=cmd.ships,
                admirals=1,
                kind="admiral",
            )
        )

    # ================================================================== end of turn
    def _end(self, state: GameState, cmd: EndTurn, emit: Emit) -> None:
        if state.phase == "attack" and adv(state).forced:
            raise RuleError("naval_combat_pending", self.forced_text(state))
        super()._end(state, cmd, emit)

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        """Maneuvers go on until the player ends the turn."""

    def end_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-40..44: epidemics, end-of-turn missions, card draws, last-turn census VP."""
        seat = state.current
        self.epidemics(state, seat, emit)
        if state.phase in ("over", "final"):
            return
        if not state.players[seat].eliminated:
            self.check_missions(state, seat, emit)  # (a mission never eliminates its holder)
        self.close_turn(state, emit)

    def close_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-43/44: the card draws and, in the last round, the census VP; the turn ends."""
        seat = state.current
        if not state.players[seat].eliminated:
            for _ in range(self.card_draws(state, seat)):
                self.draw_card(state, seat, emit)
            if state.round >= self.rounds(state):
                zones = len(self.held_zones(state, seat))
                vp = nar.last_turn_vp(state.owner.count(seat), zones)
                if vp:
                    emit(VPScored(seat=seat, vp=vp, reason="census"))
        emit(TurnEnded(seat=seat))
        self.start_next_turn(state, emit)

    def card_draws(self, state: GameState, seat: Seat) -> int:
        """NAP-ADV-43 (NAP-CAP-03)."""
        fam = adv(state)
        return nar.card_draws(
            conquered_enemy=fam.conquered_enemy,
            mission_since_last_turn=fam.mission_since[seat],
            holds_empire_or_route=self.holds_empire_or_route(state, seat),
            capitals=bool(state.options.get("capitals")),
        )

    def holds_empire_or_route(self, state: GameState, seat: Seat) -> bool:
        """NAP-ADV-43: a whole empire or a sea route held earns a card."""
        return bool(nar.held_empires(self.board, state.owner, seat)) or bool(
            nar.held_routes(self.board, self.ships(state), seat)
        )

    def epidemics(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """NAP-ADV-40: 1 regiment per epidemic in each of your territories; an emptied
        territory's epidemics move to drawn territories holding regiments."""
        ids = self.board.territories
        for t in range(self.n_territories):
            n = adv(state).epidemics[t]
            if not n or state.owner[t] != seat:
                continue
            lost = min(n, state.armies[t])
            moved: list[str] = []
            if lost == state.armies[t]:
                for _ in range(n):
                    dest = self.epidemic_destination(state, t, emit)
                    if dest is not None:
                        moved.append(ids[dest].id)
            emit(EpidemicStruck(seat=seat, territory=ids[t].id, lost=lost, moved_to=tuple(moved)))
            if seat not in state.owner:
                self.perish(state, seat, emit)
                return

    # ================================================================== the end
    def finish_game(self, state: GameState, emit: Emit) -> None:
        """NAP-ADV-46: every remaining mission revealed, those fulfilled scored; the ranking
        (DEC-30); then the score decides."""
        revealed = tuple(adv(state).missions)
        for seat in range(len(state.players)):
            self.check_missions(state, seat, emit, final=True)
        fam = adv(state)
        regiments, holdings = self.ranking_counts(state)
        missions = tuple(len(d) for d in fam.done)
        places = nar.final_ranking(
            fam.vp,
            regiments,
            missions,
            holdings=holdings,
            tie=str(state.options.get("final_tie", "shared")),
        )
        emit(
            FinalRanking(
                places=tuple(places),
                revealed=revealed,
                vp=fam.vp,
                regiments=regiments,
                missions=missions,
            )
        )
        emit(RoundsCompleted(rounds=state.round))

    def ranking_counts(self, state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per seat, DEC-30's tie-breaks after VP: regiments on the board, and territories
        plus sea zones held."""
        n = len(state.players)
        regiments = tuple(
            sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == s)
            for s in range(n)
        )
        holdings = tuple(state.owner.count(s) + len(self.held_zones(state, s)) for s in range(n))
        return regiments, holdings

    def scores(self, state: GameState) -> tuple[int, ...]:
        return adv(state).vp

    def final_result(self, state: GameState) -> GameWon:
        fam = adv(state)
        best = fam.ranking[0][0] if fam.ranking else 0
        return GameWon(seat=best, reason="score", scores=fam.vp, rounds=state.round)

    def winner(self, state: GameState) -> GameWon | None:
        """NAP-ADV-01: only the score decides, after the last round (or the last army)."""
        if state.turn and state.phase == "final":
            return self.final_result(state)
        return None

    # ================================================================== audits
    def army_change(self, before: GameState, ev: Event) -> int:
        """CORE-03 with the advanced game's own placements and losses."""
        if isinstance(ev, EpidemicPenalty):
            return -ev.count
        if isinstance(ev, EpidemicStruck):
            return -ev.lost
        if isinstance(ev, EpidemicMoved):
            return -ev.killed
        if isinstance(ev, CardPlayed):
            return nar.CARD_TERRITORY_BONUS if ev.bonus_on else 0
        if isinstance(ev, MissionAccomplished):
            return ev.immediate if ev.placed_on else 0
        if isinstance(ev, Ransomed):
            return 1 if ev.placed_on else 0
        return super().army_change(before, ev)

    def reserve_change(self, before: GameState, ev: Event) -> int:
        if isinstance(ev, Converted):
            return -ev.count
        if isinstance(ev, Ransomed):
            return -1
        if isinstance(ev, CardPlayed) and ev.effect == "regiments":
            return ev.amount
        if isinstance(ev, MissionAccomplished) and ev.reinforcements is not msgspec.UNSET:
            return ev.reinforcements
        return 0

    def uncontrolled(self, state: GameState, t: int) -> bool:
        """NAP-ADV-45: a territory an epidemic emptied belongs to nobody."""
        return state.turn > 0 and state.armies[t] == 0

    def check_invariants(self, state: GameState) -> list[str]:
        """NAP-ADV-03/23/47: leaders accompanied and within their numbers; no negative
        count; at most one fortification a territory."""
        fam = state.family
        if not isinstance(fam, AdvState):
            return ["no napoleon-advanced state"]
        problems = []
        for t, g in enumerate(fam.generals):
            if g and state.owner[t] < 0:  # (0 regiments only between a battle and its conquest)
                problems.append(f"a general without regiments in {self.board.territories[t].id}")
        for z, row in enumerate(fam.admirals):
            for s, a in enumerate(row):
                if a and fam.ships[z][s] < 1:
                    problems.append(f"an admiral of seat {s} without ships in {self.zones[z]}")
        if any(n < 0 for row in fam.ships for n in row) or min(fam.epidemics, default=0) < 0:
            problems.append("a negative count of ships or epidemics")
        if len(set(fam.forts)) != len(fam.forts):
            problems.append("two fortifications in one territory")
        for s in range(len(state.players)):
            if self.generals_in_play(state, s) > nar.MAX_GENERALS:
                problems.append(f"seat {s} has more than 3 generals")
            if self.admirals_in_play(state, s) > nar.MAX_ADMIRALS:
                problems.append(f"seat {s} has more than 2 admirals")
            if self.stock(state, s, "general") < 0 or self.stock(state, s, "admiral") < 0:
                problems.append(f"seat {s} has more leaders than tokens")
        return problems

    # ================================================================== legal commands
    def _legal_setup_adv(self, state: GameState, seat: Seat) -> Iterator[Command]:
        index = self.board.index
        for cmd in self._legal_setup(state, seat):
            assert isinstance(cmd, Place)
            if state.armies[index[cmd.territory]] + cmd.count <= nar.SETUP_CAP:
                yield cmd

    def _legal_pieces(self, state: GameState, seat: Seat) -> Iterator[Command]:
        kind = "general" if adv(state).pieces[seat] == 2 else "fortification"
        forts = adv(state).forts
        for t in self.territories_of(state, seat):
            tid = self.board.territories[t].id
            if kind == "general" or tid not in forts:
                yield PlacePiece(seat=seat, kind=kind, territory=tid)  # type: ignore[arg-type]

    # The family's reinforcement and attack phases list their moves as runs (``LegalMove``:
    # a count as a range, as the core's do) and their commands by expanding the runs, so that
    # ``risk moves`` and the random player see every count a conversion or a maneuver allows.
    def _moves_reinforce_adv(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        yield from self._moves_reinforce(state, seat)
        if state.phase != "reinforce" or self.must_trade(state, seat) or state.reserve < 1:
            return
        yield from self.conversions(state, seat)
        yield from _singles(self.card_plays(state, seat))
        fam = adv(state)
        for kind, table in (("general", fam.captured_generals), ("admiral", fam.captured_admirals)):
            if self.stock(state, seat, kind) == 0:
                for captor, n in enumerate(table[seat]):
                    if n:
                        ransom = Ransom(seat=seat, kind=kind, captor=captor)  # type: ignore[arg-type]
                        yield LegalMove(command=ransom)

    def _legal_reinforce_adv(self, state: GameState, seat: Seat) -> Iterator[Command]:
        return _expanded(self._moves_reinforce_adv(state, seat))

    def conversions(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        """NAP-ADV-22: any number of the reserve into ships, one regiment into anything else."""
        fam = adv(state)
        ids = self.board.territories
        for z in nar.build_zones(self.board, state.owner, seat):
            ships = Convert(seat=seat, kind="ship", where=z)
            yield LegalMove(command=ships, field="count", low=1, high=state.reserve)
            i = self.zone_index[z]
            if fam.ships[i][seat] and self.stock(state, seat, "admiral") > 0:
                yield LegalMove(command=Convert(seat=seat, kind="admiral", where=z))
        free = self.forts_free(state)
        for t in self.territories_of(state, seat):
            if self.stock(state, seat, "general") > 0:
                yield LegalMove(command=Convert(seat=seat, kind="general", where=ids[t].id))
            if ids[t].id not in fam.forts and not fam.epidemics[t] and (free is None or free > 0):
                fort = Convert(seat=seat, kind="fortification", where=ids[t].id)
                yield LegalMove(command=fort)

    def card_plays(self, state: GameState, seat: Seat) -> Iterator[Command]:
        """Cards ``seat`` may play now, with a first valid target each."""
        phase = self.card_phase(state, seat)
        own = seat == state.current
        ids = self.board.territories
        for card in sorted(set(state.players[seat].hand)):
            effect = self.effects.get(card)
            if effect is None or effect.effect == "renfort":
                continue
            if not nar.card_window_open(effect.window, own, phase):
                continue
            target = ""
            if effect.effect == "ships":
                zones = nar.build_zones(self.board, state.owner, seat)
                if not zones:
                    continue
                target = zones[0]
            elif effect.effect == "move_epidemic":
                fam = adv(state)
                source = next((t for t, n in enumerate(fam.epidemics) if n), None)
                dest = next(
                    (t for t, o in enumerate(state.owner) if o not in (seat, -1) and t != source),
                    None,
                )
                if source is None or dest is None:
                    continue
                target = f"{ids[source].id}>{ids[dest].id}"
            cmd = PlayCard(seat=seat, card=card, target=target)
            try:
                self.decide(state, cmd)
            except RuleError:
                continue
            yield cmd

    def _moves_attack_adv(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        fam = adv(state)
        if fam.forced:
            for z in fam.forced:
                if fam.ships[self.zone_index[z]][seat]:
                    yield LegalMove(command=NavalAttack(seat=seat, origin=z, target=z))
            return
        if not fam.maneuvering:
            if state.may_trade:
                yield from _singles(self._legal_trades(state, seat))
            if not fam.land_started:
                yield from _singles(self.naval_options(state, seat))
            ids = self.board.territories
            if state.options.get("general_model", "commit") == "commit":
                for t in self.territories_of(state, seat):
                    if fam.generals[t]:
                        lead = Lead(seat=seat, origin=ids[t].id, generals=0)
                        yield LegalMove(command=lead, field="generals", low=0, high=fam.generals[t])
            for o, t in self.attack_options(state, seat):
                most = min(self.attack_dice_max, state.armies[o] - 1)
                if most >= 1:
                    attack = Attack(seat=seat, origin=ids[o].id, target=ids[t].id, dice=1)
                    yield LegalMove(command=attack, field="dice", low=1, high=most)
        yield from self.maneuver_options(state, seat)
        yield from _singles(self.card_plays(state, seat))
        yield LegalMove(command=EndTurn(seat=seat))

    def _legal_attack_adv(self, state: GameState, seat: Seat) -> Iterator[Command]:
        return _expanded(self._moves_attack_adv(state, seat))

    def naval_options(self, state: GameState, seat: Seat) -> Iterator[NavalAttack]:
        fam = adv(state)
        for i, z in enumerate(self.zones):
            own = fam.ships[i][seat]
            if own < 2:
                continue
            for n in self.zone_links[z]:
                if not fam.ships[self.zone_index[n]][seat]:
                    yield NavalAttack(seat=seat, origin=z, target=n, dice=min(3, own - 1))

    def maneuver_options(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        """NAP-ADV-39 (DEC-25): the land, general, naval and admiral maneuvers, each with the
        counts ``_fortify``, ``_move_general``, ``_move_fleet`` and ``_move_admiral`` accept."""
        fam = adv(state)
        ids = self.board.territories
        if fam.land_moves > 0:
            for o, t in self.fortify_options(state, seat):
                move = Fortify(seat=seat, origin=ids[o].id, target=ids[t].id, count=1)
                yield LegalMove(command=move, field="count", low=1, high=state.armies[o] - 1)
        for o in self.territories_of(state, seat):
            fresh = fam.fresh_generals[o] if fam.maneuvering else fam.generals[o]
            if fresh < 1:
                continue
            start = fam.start_units[o] if fam.maneuvering else state.armies[o]
            most = max(0, min(start, state.armies[o] - 1))
            for t in sorted(self.connected_own(state, seat, o) - {o}):
                general = MoveGeneral(seat=seat, origin=ids[o].id, target=ids[t].id, count=0)
                yield LegalMove(command=general, field="count", low=0, high=most)
        held = self.held_zones(state, seat)
        keep = 1 if state.options.get("naval_leave_one", True) else 0
        for z in held:
            i = self.zone_index[z]
            ships = fam.ships[i][seat]
            fleet_most = ships - keep - (1 if fam.admirals[i][seat] and not keep else 0)
            fresh = fam.fresh_admirals[i] if fam.maneuvering else fam.admirals[i][seat]
            start = fam.start_ships[i] if fam.maneuvering else ships
            # An admiral left behind keeps a ship with it; the zone stays yours (1 ship).
            stays = 1 if fam.admirals[i][seat] > 1 else 0
            with_admiral = min(start, ships - stays, ships - 1)
            for other in held:
                j = self.zone_index[other]
                if i == j or not self.zones_connected(state, seat, i, j):
                    continue
                if not fam.naval_moved and fleet_most >= 1:
                    fleet = MoveFleet(seat=seat, origin=z, target=other, ships=1)
                    yield LegalMove(command=fleet, field="ships", low=1, high=fleet_most)
                if fresh >= 1 and fam.admirals[i][seat] >= 1:
                    admiral = MoveAdmiral(seat=seat, origin=z, target=other, ships=0)
                    yield LegalMove(
                        command=admiral, field="ships", low=0, high=max(with_admiral, 0)
                    )

    def _legal_defend_adv(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_defend(state, seat)
        yield from self.card_plays(state, seat)

    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "setup": _legal_setup_adv,
        "pieces": _legal_pieces,
        "reinforce": _legal_reinforce_adv,
        "attack": _legal_attack_adv,
        "defend": _legal_defend_adv,
    }
    LEGAL_RUNS: ClassVar[
        dict[Callable[..., Iterator[Command]], Callable[..., Iterator[LegalMove]]]
    ] = {
        **RuleSet.LEGAL_RUNS,
        _legal_reinforce_adv: _moves_reinforce_adv,
        _legal_attack_adv: _moves_attack_adv,
    }

    # ================================================================== bots
    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """The empires and territories the seat's missions name."""
        fam = adv(state)
        gi, index = self.board.group_index, self.board.index
        groups: set[int] = set()
        holds: set[int] = set()
        for m in fam.missions[seat] if fam.missions else ():
            em = self.empire_missions.get(m)
            if em is not None:
                if em.test == "empire":
                    groups.add(gi[em.target])
                continue
            basic = self.basic_missions[m]
            groups |= {gi[g] for g in basic.groups}
            holds |= {index[t] for t in basic.hold}
        return BotGoals(groups=frozenset(groups), holds=frozenset(holds))

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """Greedy: claim and place under the cap; convert into generals, ships and admirals;
        fight at sea first; then the core reading's offensives; end the turn."""
        phase = state.phase
        ids = self.board.territories
        if phase == "setup":
            if -1 in state.owner:
                return None  # claiming: the core reading
            spot = reading.placement_spot(1)
            if state.armies[spot] >= nar.SETUP_CAP:
                under = [t for t in self.territories_of(state, seat) if state.armies[t] < 10]
                spot = min(under, key=lambda t: (state.armies[t], t))
            return Place(seat=seat, territory=ids[spot].id)
        if phase == "pieces":
            return self.bot_piece(state, seat, reading)
        if phase == "reinforce":
            return self.bot_reinforce(state, seat, reading)
        if phase == "attack":
            return self.bot_attack(state, seat, reading)
        return None

    def bot_piece(self, state: GameState, seat: Seat, reading: Any) -> Command:
        fam = adv(state)
        own = self.territories_of(state, seat)
        front = [t for t in reading.front if t in own] or own
        if fam.pieces[seat] == 2:
            t = max(front, key=lambda t: (state.armies[t], reading.tie(t)))
            return PlacePiece(seat=seat, kind="general", territory=ids_of(self, t))
        free = [t for t in front if ids_of(self, t) not in fam.forts] or [
            t for t in own if ids_of(self, t) not in fam.forts
        ]
        t = max(free, key=lambda t: (reading.threat(t), reading.tie(t)))
        return PlacePiece(seat=seat, kind="fortification", territory=ids_of(self, t))

    def bot_reinforce(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        fam = adv(state)
        if self.must_trade(state, seat) or len(state.players[seat].hand) >= 3:
            return None  # the core reading trades first
        if state.reserve >= 4:
            spot = reading.placement_spot(state.reserve)
            if self.stock(state, seat, "general") > 0 and self.generals_in_play(state, seat) < 2:
                return Convert(seat=seat, kind="general", where=ids_of(self, spot))
            zones = [
                z
                for z in nar.build_zones(self.board, state.owner, seat)
                if self.enemy_in(state, self.zone_index[z], seat) is None
            ]
            mine = sum(row[seat] for row in fam.ships)
            if zones and mine < 2 * state.round + 2:
                best = max(zones, key=lambda z: (fam.ships[self.zone_index[z]][seat] > 0, z))
                return Convert(seat=seat, kind="ship", where=best, count=2)
            for z in zones:
                i = self.zone_index[z]
                if (
                    fam.ships[i][seat] >= 3
                    and self.stock(state, seat, "admiral") > 0
                    and self.admirals_in_play(state, seat) < 1
                ):
                    return Convert(seat=seat, kind="admiral", where=z)
        return None

    def bot_attack(self, state: GameState, seat: Seat, reading: Any) -> Command:
        fam = adv(state)
        for z in fam.forced:
            if fam.ships[self.zone_index[z]][seat]:
                return NavalAttack(seat=seat, origin=z, target=z, until="conquer")
        if not fam.maneuvering and not fam.land_started:
            for i, z in enumerate(self.zones):
                own = fam.ships[i][seat]
                for n in self.zone_links[z]:
                    j = self.zone_index[n]
                    enemy = self.enemy_in(state, j, seat)
                    if fam.ships[j][seat]:
                        continue
                    if enemy is not None and own - 1 >= fam.ships[j][enemy] + 2:
                        return NavalAttack(
                            seat=seat, origin=z, target=n, dice=min(3, own - 1), until="conquer"
                        )
                    if enemy is None and own >= 3:
                        return NavalAttack(seat=seat, origin=z, target=n, dice=1, move=1)
        if fam.maneuvering:
            return EndTurn(seat=seat)
        cmd: Command = reading.attack()
        if isinstance(cmd, Fortify) and fam.land_moves < 1:
            return EndTurn(seat=seat)
        return cmd

    # ================================================================== views
    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """The round and year, sea zones (ships, admirals, control), fortifications,
        epidemics and, at the end, the ranking: public facts (NAP-ADV-05, -14, -29)."""
        fam = adv(state)
        zones = []
        for i, z in enumerate(self.zones):
            zones.append(
                {
                    "id": z,
                    "ships": {str(s): n for s, n in enumerate(fam.ships[i]) if n},
                    "admirals": {str(s): n for s, n in enumerate(fam.admirals[i]) if n},
                    "controller": self.zone_owner(state, i),
                }
            )
        ids = self.board.territories
        return {
            "round_limit": self.rounds(state),
            "year": nar.year_of_round(self.board, max(state.round, 1)),
            "sea_zones": zones,
            "fortifications": list(fam.forts),
            "epidemics": {ids[t].id: n for t, n in enumerate(fam.epidemics) if n},
            "generals": {ids[t].id: g for t, g in enumerate(fam.generals) if g},
            "forced_naval_combat": list(fam.forced),
            "ranking": [list(p) for p in fam.ranking],
        }

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """VP, leaders in play, in stock and captured, accomplished missions (public); the
        missions in hand only to their holder (NAP-ADV-07)."""
        fam = adv(state)
        out: dict[str, Any] = {
            "vp": fam.vp[seat] if fam.vp else 0,
            "generals": self.generals_in_play(state, seat) if fam.generals else 0,
            "admirals": self.admirals_in_play(state, seat) if fam.admirals else 0,
            "generals_in_stock": self.stock(state, seat, "general") if fam.vp else 0,
            "admirals_in_stock": self.stock(state, seat, "admiral") if fam.vp else 0,
            "captured": {
                "generals": {str(c): n for c, n in enumerate(fam.captured_generals[seat]) if n},
                "admirals": {str(c): n for c, n in enumerate(fam.captured_admirals[seat]) if n},
            }
            if fam.vp
            else {},
            "accomplished": list(fam.done[seat]) if fam.done else [],
        }
        if seat == viewer and fam.missions:
            out["missions"] = [self.mission_info(m) for m in fam.missions[seat]]
        return out

    def mission_info(self, mission: str) -> dict[str, Any]:
        """A mission as views show it: id, texts, rank and VP (NAP-ADV-17)."""
        em = self.empire_missions.get(mission)
        if em is not None:
            text_en, text_fr, vp = em.text_en, em.text_fr, em.vp
        else:
            basic = self.basic_missions[mission]
            text_en, text_fr = basic.text_en, basic.text_fr
            vp = self.mission_vp.get(mission, 1)
        rank = self.mission_rank(mission)
        return {"id": mission, "text_en": text_en, "text_fr": text_fr, "rank": rank, "vp": vp}

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        fam = adv(state)
        out: dict[str, Any] = {}
        if fam.generals and fam.generals[t]:
            out["generals"] = fam.generals[t]
        if self.board.territories[t].id in fam.forts:
            out["fortification"] = True
        if fam.epidemics and fam.epidemics[t]:
            out["epidemics"] = fam.epidemics[t]
        return out

    # ================================================================== projectors
    def _on_missions_dealt(self, state: GameState, ev: AdvMissionsDealt) -> None:
        state.rng = ev.rng
        self._set(state, missions=ev.missions, piles=ev.piles)

    def _on_pieces_due(self, state: GameState, ev: PiecesDue) -> None:
        state.phase = "pieces"
        state.current = ev.seat

    def _on_piece(self, state: GameState, ev: PiecePlaced) -> None:
        fam = adv(state)
        t = self.board.index[ev.territory]
        if ev.kind == "general":
            self._set(state, generals=replace_at(fam.generals, t, fam.generals[t] + 1))
        else:
            self._set(state, forts=(*fam.forts, ev.territory))
        fam = adv(state)
        pieces = replace_at(fam.pieces, ev.seat, fam.pieces[ev.seat] - 1)
        self._set(state, pieces=pieces)
        if pieces[ev.seat] == 0:
            n = len(pieces)
            state.current = next(
                ((ev.seat + k) % n for k in range(1, n + 1) if pieces[(ev.seat + k) % n]),
                ev.seat,
            )

    def _on_epidemics(self, state: GameState, ev: EpidemicsPlaced) -> None:
        state.rng = ev.rng
        epi = list(adv(state).epidemics)
        for name in ev.territories:
            epi[self.board.index[name]] += 1
        self._set(state, epidemics=tuple(epi))

    def _on_turn_started_adv(self, state: GameState, ev: TurnStarted) -> None:
        self._on_turn_started(state, ev)
        self._set(
            state,
            ranks_claimed=(),
            conquered_enemy=False,
            land_started=False,
            forced=(),
            charged=(),
            committed=0,
            leads=(),
            attack_boost=0,
            defence_boost=0,
            maneuvering=False,
            lost_all=False,
            land_moves=1,
            naval_moved=False,
            start_units=(),
            start_ships=(),
            fresh_generals=(),
            fresh_admirals=(),
        )

    def _on_vp(self, state: GameState, ev: VPScored) -> None:
        fam = adv(state)
        self._set(state, vp=replace_at(fam.vp, ev.seat, fam.vp[ev.seat] + ev.vp))

    def _on_accomplished(self, state: GameState, ev: MissionAccomplished) -> None:
        fam = adv(state)
        seat = ev.seat
        rank = self.mission_rank(ev.mission)
        r = MISSION_RANKS.index(rank)
        hand = tuple(m for m in fam.missions[seat] if m != ev.mission)
        piles = fam.piles
        if ev.drawn:
            hand = (*hand, ev.drawn)
            piles = replace_at(piles, r, piles[r][:-1])
        if ev.placed_on:
            state.armies[self.board.index[ev.placed_on]] += ev.immediate
        if ev.reinforcements is not msgspec.UNSET:
            state.reserve += ev.reinforcements
        self._set(
            state,
            vp=replace_at(fam.vp, seat, fam.vp[seat] + ev.vp),
            missions=replace_at(fam.missions, seat, hand),
            piles=piles,
            done=replace_at(fam.done, seat, (*fam.done[seat], ev.mission)),
            mission_since=replace_at(fam.mission_since, seat, True),
            ranks_claimed=(*fam.ranks_claimed, rank)
            if seat == state.current and not ev.final
            else fam.ranks_claimed,
        )

    def _on_converted(self, state: GameState, ev: Converted) -> None:
        fam = adv(state)
        seat = ev.seat
        if ev.kind in ("ship", "admiral"):
            z = self.zone_index[ev.where]
            if ev.kind == "ship":
                ships = add_at(fam.ships, z, seat, ev.count)
                others = any(n for s, n in enumerate(ships[z]) if s != seat)
                forced = (
                    (*fam.forced, ev.where) if others and ev.where not in fam.forced else fam.forced
                )
                self._set(state, ships=ships, forced=forced)
            else:
                self._set(state, admirals=add_at(fam.admirals, z, seat, 1))
        else:
            t = self.board.index[ev.where]
            if ev.kind == "general":
                self._set(state, generals=replace_at(fam.generals, t, fam.generals[t] + 1))
            else:
                self._set(state, forts=(*fam.forts, ev.where))
        self._spend(state, ev.count, ev.seat)

    def _spend(self, state: GameState, count: int, seat: Seat) -> None:
        state.reserve -= count
        if state.reserve == 0 and not self.must_trade(state, seat):
            state.phase = (
                self.after_reinforce_phase(state) if state.phase == "reinforce" else "attack"
            )

    def _on_ransomed(self, state: GameState, ev: Ransomed) -> None:
        fam = adv(state)
        if ev.kind == "general":
            self._set(
                state, captured_generals=add_at(fam.captured_generals, ev.seat, ev.captor, -1)
            )
        else:
            self._set(
                state, captured_admirals=add_at(fam.captured_admirals, ev.seat, ev.captor, -1)
            )
        if ev.placed_on:
            state.armies[self.board.index[ev.placed_on]] += 1
        if ev.vp_back:
            fam = adv(state)
            vp = replace_at(fam.vp, ev.seat, fam.vp[ev.seat] + ev.vp_back)
            vp = replace_at(vp, ev.captor, vp[ev.captor] - ev.vp_back)
            self._set(state, vp=vp)
        self._spend(state, 1, ev.seat)

    def _on_naval_battle(self, state: GameState, ev: NavalBattle) -> None:
        self._consume(state, ev.rng, ev.scripted)
        fam = adv(state)
        o, t = self.zone_index[ev.origin], self.zone_index[ev.target]
        ships = add_at(fam.ships, o, ev.seat, -ev.attacker_losses)
        ships = add_at(ships, t, ev.defender, -ev.defender_losses)
        admirals, vp = fam.admirals, fam.vp
        captured = fam.captured_admirals
        for owner, by, zone, n in (
            (ev.seat, ev.defender, o, ev.attacker_admirals_taken),
            (ev.defender, ev.seat, t, ev.defender_admirals_taken),
        ):
            if n:  # NAP-ADV-24: 1 VP from the owner to the captor each
                admirals = add_at(admirals, zone, owner, -n)
                captured = add_at(captured, owner, by, n)
                vp = replace_at(replace_at(vp, owner, vp[owner] - n), by, vp[by] + n)
        self._set(
            state,
            ships=ships,
            admirals=admirals,
            captured_admirals=captured,
            vp=vp,
            attack_boost=0,
        )
        self._clear_forced(state)

    def _clear_forced(self, state: GameState) -> None:
        fam = adv(state)
        forced = tuple(
            z for z in fam.forced if sum(1 for n in fam.ships[self.zone_index[z]] if n) > 1
        )
        if forced != fam.forced:
            self._set(state, forced=forced)

    def _on_fleet_moved(self, state: GameState, ev: FleetMoved) -> None:
        fam = adv(state)
        o, t = self.zone_index[ev.origin], self.zone_index[ev.target]
        ships = add_at(add_at(fam.ships, o, ev.seat, -ev.ships), t, ev.seat, ev.ships)
        admirals = fam.admirals
        if ev.admirals:
            admirals = add_at(add_at(admirals, o, ev.seat, -ev.admirals), t, ev.seat, ev.admirals)
        changes: dict[str, Any] = {"ships": ships, "admirals": admirals}
        if ev.kind == "maneuver":
            changes["naval_moved"] = True
        if ev.kind == "admiral" and fam.maneuvering:
            changes["fresh_admirals"] = replace_at(fam.fresh_admirals, o, fam.fresh_admirals[o] - 1)
            changes["start_ships"] = replace_at(
                fam.start_ships, o, max(0, fam.start_ships[o] - ev.ships)
            )
        self._set(state, **changes)

    def _on_defence_raised(self, state: GameState, ev: DefenceRaised) -> None:
        """The log's explanation only: the dice hooks read the same facts."""

    def _on_lead(self, state: GameState, ev: LeadChosen) -> None:
        fam = adv(state)
        self._set(state, leads=(*fam.leads, f"{ev.origin}={ev.generals}"))

    def _on_committed(self, state: GameState, ev: LeadersCommitted) -> None:
        self._set(state, committed=ev.count, land_started=True)

    def _on_captured(self, state: GameState, ev: LeadersCaptured) -> None:
        fam = adv(state)
        vp = replace_at(fam.vp, ev.owner, fam.vp[ev.owner] - ev.count)
        vp = replace_at(vp, ev.by, vp[ev.by] + ev.count)
        if ev.kind == "general":
            t = self.board.index[ev.where]
            committed = fam.committed
            if ev.owner == state.current and state.owner[t] == ev.owner:
                committed = 0  # the attacking generals of DEC-23
            self._set(
                state,
                vp=vp,
                generals=replace_at(fam.generals, t, max(0, fam.generals[t] - ev.count)),
                captured_generals=add_at(fam.captured_generals, ev.owner, ev.by, ev.count),
                committed=committed,
            )
        else:
            z = self.zone_index[ev.where]
            self._set(
                state,
                vp=vp,
                admirals=add_at(fam.admirals, z, ev.owner, -ev.count),
                captured_admirals=add_at(fam.captured_admirals, ev.owner, ev.by, ev.count),
            )

    def _on_advanced(self, state: GameState, ev: LeadersAdvanced) -> None:
        fam = adv(state)
        o, t = self.board.index[ev.origin], self.board.index[ev.target]
        generals = replace_at(fam.generals, o, fam.generals[o] - ev.count)
        self._set(state, generals=replace_at(generals, t, generals[t] + ev.count), committed=0)

    def _on_fort_destroyed(self, state: GameState, ev: FortDestroyed) -> None:
        self._set(state, forts=tuple(f for f in adv(state).forts if f != ev.territory))

    def _on_penalty(self, state: GameState, ev: EpidemicPenalty) -> None:
        state.armies[self.board.index[ev.origin]] -= ev.count
        fam = adv(state)
        key = f"{ev.origin}>{ev.target}"
        charged = fam.charged if key in fam.charged else (*fam.charged, key)
        self._set(state, charged=charged, land_started=True)

    def _on_battle_adv(self, state: GameState, ev: BattleFought) -> None:
        self._on_battle(state, ev)
        self._set(
            state,
            land_started=True,
            attack_boost=0,
            defence_boost=0,
            lost_all=ev.attacker_losses == len(ev.attack),
        )

    def _on_conquered_adv(self, state: GameState, ev: TerritoryConquered) -> None:
        t = self.board.index[ev.target]
        fam = adv(state)
        self._on_conquered(state, ev)
        self._set(
            state,
            generals=replace_at(fam.generals, t, 0),
            # NAP-ADV-43a, NAP-2PA-08/13: only a conquest by one's own regiments draws a card
            # (one by an ally's, in the 1796 campaign, leaves the territory the ally's).
            conquered_enemy=fam.conquered_enemy or (ev.previous >= 0 and state.owner[t] == ev.seat),
            land_started=True,
            lost_all=False,
        )

    def _on_eliminated_adv(self, state: GameState, ev: PlayerEliminated) -> None:
        self._on_eliminated(state, ev)
        self._remove_fleet(state, ev.seat)

    def _remove_fleet(self, state: GameState, seat: Seat) -> None:
        """NAP-ADV-38: an eliminated player's ships (and admirals) leave the board."""
        fam = adv(state)
        ships = tuple(replace_at(row, seat, 0) for row in fam.ships)
        admirals = tuple(replace_at(row, seat, 0) for row in fam.admirals)
        self._set(state, ships=ships, admirals=admirals)
        self._clear_forced(state)

    def _on_perished(self, state: GameState, ev: ArmyPerished) -> None:
        player = state.players[ev.seat]
        player.eliminated = True
        state.discard.extend(player.hand)
        player.hand = []
        self._remove_fleet(state, ev.seat)

    def _on_struck(self, state: GameState, ev: EpidemicStruck) -> None:
        t = self.board.index[ev.territory]
        state.armies[t] -= ev.lost
        if state.armies[t] == 0:
            self._empty(state, t, ev.moved_to)

    def _empty(self, state: GameState, t: int, moved_to: Sequence[str]) -> None:
        """NAP-ADV-40/45: nobody controls an emptied territory; its generals go back to their
        owner's stock, its fortification stays, its epidemics move on."""
        state.owner[t] = -1
        fam = adv(state)
        epi = list(fam.epidemics)
        for name in moved_to:
            epi[t] -= 1
            epi[self.board.index[name]] += 1
        self._set(state, epidemics=tuple(epi), generals=replace_at(fam.generals, t, 0))

    def _on_epidemic_card(self, state: GameState, ev: EpidemicCardDrawn) -> None:
        state.deck.pop()
        state.discard.append(ev.card)

    def _on_card_played(self, state: GameState, ev: CardPlayed) -> None:
        player = state.players[ev.seat]
        player.hand.remove(ev.card)
        state.discard.append(ev.card)
        if ev.bonus_on:
            state.armies[self.board.index[ev.bonus_on]] += nar.CARD_TERRITORY_BONUS
        fam = adv(state)
        if ev.effect == "regiments":
            state.reserve += ev.amount
        elif ev.effect == "ships":
            z = self.zone_index[ev.target]
            ships = add_at(fam.ships, z, ev.seat, ev.amount)
            others = any(n for s, n in enumerate(ships[z]) if s != ev.seat)
            forced = (
                (*fam.forced, ev.target) if others and ev.target not in fam.forced else fam.forced
            )
            self._set(state, ships=ships, forced=forced)
        elif ev.effect == "attack_bonus":
            self._set(state, attack_boost=fam.attack_boost + ev.amount)
        elif ev.effect == "defence_bonus":
            self._set(state, defence_boost=fam.defence_boost + ev.amount)
        elif ev.effect == "extra_maneuver":
            self._set(state, land_moves=fam.land_moves + ev.amount)

    def _on_epidemic_moved(self, state: GameState, ev: EpidemicMoved) -> None:
        fam = adv(state)
        o, t = self.board.index[ev.origin], self.board.index[ev.target]
        epi = list(fam.epidemics)
        epi[o] -= 1
        epi[t] += 1
        self._set(state, epidemics=tuple(epi))
        state.armies[t] -= ev.killed
        if ev.killed and state.armies[t] == 0:
            self._empty(state, t, (ev.then,) if ev.then else ())

    def _on_combat_ended(self, state: GameState, ev: CombatEnded) -> None:
        fam = adv(state)
        seat = ev.seat
        self._set(
            state,
            maneuvering=True,
            start_units=tuple(state.armies),
            start_ships=tuple(row[seat] for row in fam.ships),
            fresh_generals=tuple(
                g if state.owner[t] == seat else 0 for t, g in enumerate(fam.generals)
            ),
            fresh_admirals=tuple(row[seat] for row in fam.admirals),
        )

    def _on_fortified_adv(self, state: GameState, ev: Fortified) -> None:
        self._on_fortified(state, ev)
        fam = adv(state)
        self._set(state, land_moves=fam.land_moves - 1)

    def _on_general_moved(self, state: GameState, ev: GeneralMoved) -> None:
        fam = adv(state)
        o, t = self.board.index[ev.origin], self.board.index[ev.target]
        state.armies[o] -= ev.count
        state.armies[t] += ev.count
        generals = replace_at(fam.generals, o, fam.generals[o] - 1)
        self._set(
            state,
            generals=replace_at(generals, t, generals[t] + 1),
            fresh_generals=replace_at(fam.fresh_generals, o, fam.fresh_generals[o] - 1),
            start_units=replace_at(fam.start_units, o, max(0, fam.start_units[o] - ev.count)),
        )

    def _on_turn_ended_adv(self, state: GameState, ev: TurnEnded) -> None:
        self._on_turn_ended(state, ev)
        fam = adv(state)
        self._set(state, mission_since=replace_at(fam.mission_since, ev.seat, False))

    def _on_ranking(self, state: GameState, ev: FinalRanking) -> None:
        self._set(state, ranking=ev.places)

    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        AdvMissionsDealt: _on_missions_dealt,
        PiecesDue: _on_pieces_due,
        PiecePlaced: _on_piece,
        EpidemicsPlaced: _on_epidemics,
        TurnStarted: _on_turn_started_adv,
        VPScored: _on_vp,
        MissionAccomplished: _on_accomplished,
        Converted: _on_converted,
        Ransomed: _on_ransomed,
        NavalBattle: _on_naval_battle,
        FleetMoved: _on_fleet_moved,
        LeadersCommitted: _on_committed,
        LeadChosen: _on_lead,
        DefenceRaised: _on_defence_raised,
        LeadersCaptured: _on_captured,
        LeadersAdvanced: _on_advanced,
        FortDestroyed: _on_fort_destroyed,
        EpidemicPenalty: _on_penalty,
        BattleFought: _on_battle_adv,
        TerritoryConquered: _on_conquered_adv,
        PlayerEliminated: _on_eliminated_adv,
        ArmyPerished: _on_perished,
        EpidemicStruck: _on_struck,
        EpidemicCardDrawn: _on_epidemic_card,
        CardPlayed: _on_card_played,
        EpidemicMoved: _on_epidemic_moved,
        CombatEnded: _on_combat_ended,
        Fortified: _on_fortified_adv,
        GeneralMoved: _on_general_moved,
        TurnEnded: _on_turn_ended_adv,
        FinalRanking: _on_ranking,
    }

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Attack: _attack,
        Fortify: _fortify,
        EndTurn: _end,
        PlacePiece: _place_piece,
        Convert: _convert,
        Ransom: _ransom,
        NavalAttack: _naval_attack,
        PlayCard: _play_card,
        MoveGeneral: _move_general,
        MoveFleet: _move_fleet,
        MoveAdmiral: _move_admiral,
        Lead: _lead,
    }


def ids_of(rs: NapoleonAdvanced, t: int) -> str:
    return rs.board.territories[t].id


def _singles(commands: Iterable[Command]) -> Iterator[LegalMove]:
    """Commands without a count to range over, as ``LegalMove`` entries."""
    return (LegalMove(command=cmd) for cmd in commands)


def _expanded(moves: Iterable[LegalMove]) -> Iterator[Command]:
    """Every command of ``moves``, in order (``legal_commands`` from ``legal_moves``)."""
    return (cmd for move in moves for cmd in move.commands())
