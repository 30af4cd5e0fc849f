"""Risk Napoléon "Mission" (rulebook 000, NAP-MIS-*): four secret objectives, first to four wins.

Each player draws one mission card of each rank (Caporal, Capitaine, Général, Empereur) from
four shuffled piles (NAP-MIS-02; the reconstructed deck of ``boards/napoleon/missions.json``).
Sets are worth a fixed 4/6/8/10 by their symbols instead of the Golden Cavalry (NAP-MIS-04).
A player announces an objective with ``ClaimMission`` when its conditions hold at that moment
(NAP-MIS-06, DEC-21): at most one per turn, during their own turn at any step (the turn waits
after the free move so that one can still be announced then).  An achieved objective stays
achieved (NAP-MIS-07); after three the fourth is revealed (NAP-MIS-08); four win at once
(NAP-MIS-09).  An eliminator takes the loser's territory cards, never its missions (NAP-MIS-05).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from risk_core.board import MISSION_RANKS, Mission
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    Command,
    Event,
    FamilyState,
    Fortified,
    Fortify,
    GameStarted,
    GameState,
    GameWon,
    LegalMove,
    OptionValue,
    PositionSet,
    Seat,
    SeatInfo,
    command,
    event,
)
from risk_core.rng import Rng
from risk_core.rulesets.base import BotGoals, Emit, Option, RuleSet
from risk_core.rulesets.napoleon import NAPOLEON_CARD_OPTIONS, Napoleon
from risk_core.views import mission_view

MISSIONS_TO_WIN = len(MISSION_RANKS)  # NAP-MIS-01: one objective of each rank
# NAP-MIS-04: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10.
TRIPLE_VALUE = {"infantry": 4, "cavalry": 6, "artillery": 8}
ONE_OF_EACH = 10


class Objectives(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's secret missions, those achieved (public) and the turn of its last
    announcement (one per turn).  Frozen: replaced whole, copies share it."""

    missions: tuple[str, ...]
    achieved: tuple[str, ...] = ()
    announced: int = 0


NO_OBJECTIVES = Objectives(missions=())


class MissionState(FamilyState, frozen=True):
    """Napoleon Mission: every seat's objectives, and the turn in which the free move was made
    (the turn may go on after it for a last announcement, DEC-21)."""

    objectives: tuple[Objectives, ...] = ()
    maneuvered: int = 0


def mission_state(state: GameState) -> MissionState:
    family = state.family
    assert isinstance(family, MissionState), "not a napoleon-mission state"
    return family


def objectives(state: GameState, seat: Seat) -> Objectives:
    """A seat's missions (none before they are dealt)."""
    goals = mission_state(state).objectives
    return goals[seat] if goals else NO_OBJECTIVES


def fixed_set_value(symbols: Sequence[str]) -> int | None:
    """NAP-MIS-04: the value of three card symbols, or None when they are no set.

    A joker stands for whichever symbol its holder likes (NAP-MIS-04), so a set that can be read
    several ways (two jokers and a cavalry: three cavalry or one of each) is worth its best
    reading.
    """
    if len(symbols) != 3:
        return None
    plain = [s for s in symbols if s != "joker"]
    best: int | None = None
    if len(set(plain)) <= 1:
        triple = plain[0] if plain else "artillery"
        best = TRIPLE_VALUE[triple]
    if len(set(plain)) == len(plain):  # the jokers fill in the missing symbols
        best = max(best or 0, ONE_OF_EACH)
    return best


@command
class ClaimMission(Command, frozen=True, tag="claim_mission"):
    """Announce that the conditions of one of your missions hold now (NAP-MIS-06)."""

    mission: str


@event
class MissionHandsDealt(Event, frozen=True, tag="mission_hands_dealt"):
    """NAP-MIS-02: each seat's four secret missions, one per rank, in rank order."""

    missions: tuple[tuple[str, ...], ...]
    rng: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        """Each seat sees its own four missions only."""
        d["missions"] = [m if i == seat else None for i, m in enumerate(d["missions"])]


@event
class MissionAchieved(Event, frozen=True, tag="mission_achieved"):
    """NAP-MIS-06: ``seat`` showed ``mission``; it stays achieved (NAP-MIS-07)."""

    seat: Seat
    mission: str


@event
class MissionRevealed(Event, frozen=True, tag="mission_revealed"):
    """NAP-MIS-08: after three objectives the fourth is shown face up to everyone."""

    seat: Seat
    mission: str


MISSION_OPTIONS: dict[str, Option] = {
    **NAPOLEON_CARD_OPTIONS,  # no Golden Cavalry track (DEC-01): sets have fixed values
    "announce_window": Option(
        default="own_turn",
        choices=("own_turn", "any_time"),
        doc="DEC-21: an objective is announced during your own turn, at any step (own_turn, "
        "the turn waits after the free move for a last announcement), or at any moment of the "
        "game, other players' turns included (any_time); at most one per player per turn.",
    ),
}


class NapoleonMission(Napoleon):
    """NAPOLEON-MISSION: four secret objectives per player, fixed set values."""

    name = "napoleon-mission"
    title = "Risk Napoléon Mission: first to four secret objectives (3–6 players)"
    options: ClassVar[dict[str, Option]] = dict(MISSION_OPTIONS)
    family_state = MissionState
    # NAP-23: announcing an objective is no move; the cards just taken may still be traded.
    trade_window_follow_ups = RuleSet.trade_window_follow_ups | {MissionAchieved, MissionRevealed}
    cli_module = "risk_cli.napoleon_moves"

    def __init__(self) -> None:
        super().__init__()
        self.missions: dict[str, Mission] = {m.id: m for m in self.board.missions}
        self.capitals = tuple(self.board.capitals.values())

    # ------------------------------------------------------------------ setup
    def opening(self, state: GameState, emit: Emit) -> None:
        """NAP-MIS-02/03: missions first, then the basic setup (the track is not used)."""
        emit(self.deal_missions(state))
        super().opening(state, emit)

    def deal_missions(self, state: GameState) -> MissionHandsDealt:
        """NAP-MIS-02: shuffle each rank's pile; every seat draws one card from each."""
        rng = Rng(state.seed, state.rng)
        seats = len(state.players)
        hands: list[list[str]] = [[] for _ in range(seats)]
        for rank in MISSION_RANKS:
            pile = [m.id for m in self.board.missions if m.rank == rank]
            if len(pile) < seats:
                raise SetupError(
                    "missing_data",
                    f"Board {self.board.id} has {len(pile)} {rank} missions for {seats} players.",
                )
            order = rng.shuffle(list(range(len(pile))))
            for seat in range(seats):
                hands[seat].append(pile[order[-1 - seat]])  # top card last, as the draw pile
        return MissionHandsDealt(missions=tuple(tuple(h) for h in hands), rng=rng.counter)

    def start_position(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        position: PositionSet,
        **kw: Any,
    ) -> list[Event]:
        """A scenario position gets its missions dealt right after it (before the turn),
        unless it sets every seat's itself (``[family.missions]``, ``scenario_family``).

        Nothing after the position depends on missions until one is announced, so the deal can
        follow the events the basic rules produce.
        """
        events = super().start_position(players, seed, options, position, **kw)
        if isinstance(position.family, dict) and position.family.get("objectives"):
            return events
        at = next(i for i, ev in enumerate(events) if isinstance(ev, PositionSet)) + 1
        started = events[0]
        assert isinstance(started, GameStarted)
        state = self.initial_state(started)
        for ev in events[1:at]:
            self.apply(state, ev)
        return [*events[:at], self.deal_missions(state), *events[at:]]

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> MissionState:
        """A scenario's ``[family]``: missions, achieved objectives, announcements, free move.

        ``[family.missions]`` gives every seat (by name or number) its four missions, one of
        each rank (NAP-MIS-02), no card twice; then no deal follows the position.  Without it
        they are dealt from the seed as in any game.  ``[family.achieved]``: objectives already
        announced, at most three (four have won, NAP-MIS-09); ``[family.announced]``: the turn
        of a seat's last announcement (the scenario's turn: no other this turn, NAP-MIS-06);
        ``maneuvered``: the turn whose free move was made (it waits for an announcement, DEC-21).
        """
        shapes: dict[str, Any] = {
            "missions": dict[str, list[str]],
            "achieved": dict[str, list[str]],
            "announced": dict[str, int],
            "maneuvered": int,
        }
        table: dict[str, Any] = {}
        for key, value in data.items():
            if key not in shapes:
                raise SetupError(
                    "bad_scenario",
                    f"{self.name}'s [family] table has no {key!r} (it takes: {', '.join(shapes)}).",
                )
            try:
                table[key] = msgspec.convert(value, shapes[key])
            except msgspec.ValidationError as e:
                raise SetupError("bad_scenario", f"Invalid [family.{key}]: {e}") from None
        hands: dict[Seat, tuple[str, ...]] = {}
        for ref, ids in table.get("missions", {}).items():
            unknown = [mid for mid in ids if mid not in self.missions]
            if unknown:
                known = ", ".join(sorted(self.missions))
                raise SetupError(
                    "bad_scenario", f"Unknown mission {unknown[0]!r} (missions: {known})."
                )
            rank = {mid: MISSION_RANKS.index(str(self.missions[mid].rank)) for mid in ids}
            if sorted(rank.values()) != list(range(MISSIONS_TO_WIN)) or len(ids) != len(rank):
                raise SetupError(
                    "bad_scenario",
                    f"[family.missions]: {ref} needs one mission of each rank "
                    f"({', '.join(MISSION_RANKS)}), not {', '.join(ids)}.",
                )
            hands[seat(ref)] = tuple(sorted(ids, key=rank.__getitem__))
        dealt = [m for h in hands.values() for m in h]
        if len(dealt) != len(set(dealt)):
            raise SetupError("bad_scenario", "[family.missions]: a mission is in two hands.")
        missing = [s.name for i, s in enumerate(seats) if hands and i not in hands]
        if missing:
            raise SetupError(
                "bad_scenario",
                f"[family.missions] names every seat's missions or none (missing: "
                f"{', '.join(missing)}).",
            )
        achieved: dict[Seat, tuple[str, ...]] = {}
        for ref, ids in table.get("achieved", {}).items():
            s = seat(ref)
            if any(mid not in hands.get(s, ()) for mid in ids) or len(set(ids)) != len(ids):
                raise SetupError(
                    "bad_scenario",
                    f"[family.achieved]: {seats[s].name}'s achieved objectives must be distinct "
                    "missions of theirs in [family.missions].",
                )
            if len(ids) >= MISSIONS_TO_WIN:
                raise SetupError(
                    "bad_scenario", f"[family.achieved]: {seats[s].name} would have won already."
                )
            achieved[s] = tuple(ids)
        announced = {seat(ref): turn for ref, turn in table.get("announced", {}).items()}
        if announced and not hands:
            raise SetupError("bad_scenario", "[family.announced] needs [family.missions].")
        goals = tuple(
            Objectives(
                missions=hands[s], achieved=achieved.get(s, ()), announced=announced.get(s, 0)
            )
            for s in range(len(seats))
            if hands
        )
        return MissionState(objectives=goals, maneuvered=table.get("maneuvered", 0))

    # ------------------------------------------------------------------ cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        if not self.is_set(cards):
            return None
        return fixed_set_value([self.board.card_symbols[c] for c in cards])

    # ------------------------------------------------------------------ missions
    def mission_met(self, state: GameState, seat: Seat, m: Mission) -> bool:
        """Whether every condition printed on ``m`` holds for ``seat`` now (GAP-08 fields)."""
        owner, armies = state.owner, state.armies
        territories = m.territories
        if m.destroy is not None:
            victim = next((i for i, p in enumerate(state.players) if p.colour == m.destroy), None)
            if victim is not None and victim != seat and not state.players[victim].eliminated:
                return False
            if victim is not None and state.players[victim].eliminated_by == seat:
                return True
            territories = m.fallback_territories  # absent, yourself, or destroyed by another
        if territories:
            held = sum(1 for t, o in enumerate(owner) if o == seat and armies[t] >= m.min_armies)
            if held < territories:
                return False
        index = self.board.index
        if any(owner[index[t]] != seat for t in m.hold):
            return False
        if m.capitals and sum(1 for t in self.capitals if owner[t] == seat) < m.capitals:
            return False
        if m.armies_total and (
            sum(a for a, o in zip(armies, owner, strict=True) if o == seat) < m.armies_total
        ):
            return False
        if m.eliminate_any and (
            sum(1 for p in state.players if p.eliminated and p.eliminated_by == seat)
            < m.eliminate_any
        ):
            return False
        gi, members = self.board.group_index, self.board.group_members
        whole = {g for g, ts in enumerate(members) if all(owner[t] == seat for t in ts)}
        required = {gi[g] for g in m.groups}
        return required <= whole and len(whole - required) >= m.extra_groups

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """Achieved objectives and a revealed last one are public (NAP-MIS-07/08); the
        missions themselves are the seat's own secret."""
        goals = objectives(state, seat)
        if not goals.missions:
            return {}
        board = self.board
        hidden = [m for m in goals.missions if m not in goals.achieved]
        out: dict[str, Any] = {
            "achieved": [mission_view(board, m) for m in goals.achieved],
            "revealed": mission_view(board, hidden[0]) if len(hidden) == 1 else None,
        }
        if seat == viewer:
            out["missions"] = [mission_view(board, m) for m in goals.missions]
        return out

    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """NAP-MIS: the empires and territories of the objectives not yet achieved."""
        gi, index = self.board.group_index, self.board.index
        goals = objectives(state, seat)
        groups: set[int] = set()
        holds: set[int] = set()
        extra = 0
        for mid in goals.missions:
            if mid not in goals.achieved:
                m = self.missions[mid]
                groups.update(gi[g] for g in m.groups)
                extra = max(extra, m.extra_groups)
                holds.update(index[t] for t in m.hold)
        return BotGoals(groups=frozenset(groups), extra_groups=extra, holds=frozenset(holds))

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """NAP-MIS-06: announce an objective as soon as one holds."""
        claimable = self.claimable(state, seat)
        return ClaimMission(seat=seat, mission=claimable[0]) if claimable else None

    def claimable(self, state: GameState, seat: Seat) -> list[str]:
        """Missions ``seat`` could announce now, hardest rank first (NAP-MIS-06, DEC-21)."""
        if self._claim_error(state, seat) is not None:
            return []
        p = objectives(state, seat)
        return [
            mid
            for mid in reversed(p.missions)
            if mid not in p.achieved and self.mission_met(state, seat, self.missions[mid])
        ]

    def _any_time(self, state: GameState) -> bool:
        return state.options.get("announce_window") == "any_time"

    def _claim_error(self, state: GameState, seat: Seat) -> RuleError | None:
        """Why ``seat`` may not announce any objective at this moment, if it may not."""
        p = state.players[seat]
        if state.phase in ("setup", "over") or state.turn == 0:
            return RuleError("wrong_phase", "Objectives are announced once the game has begun.")
        if p.eliminated:
            return RuleError("eliminated", f"{p.name} is out of the game.")
        if not self._any_time(state):
            if seat != state.current:
                return RuleError("not_your_turn", "Announce objectives during your own turn.")
            if state.phase == "occupy":
                return self.must_occupy(state)
        if objectives(state, seat).announced == state.turn:
            return RuleError(
                "one_per_turn", "You have already announced an objective this turn (NAP-MIS-06)."
            )
        return None

    def _claim(self, state: GameState, cmd: ClaimMission, emit: Emit) -> None:
        seat = cmd.seat
        p = objectives(state, seat)
        if cmd.mission not in p.missions:
            raise RuleError(
                "not_your_mission",
                f"{cmd.mission!r} is not one of your missions; they are {', '.join(p.missions)}.",
            )
        if cmd.mission in p.achieved:
            raise RuleError("already_achieved", "This objective is already achieved.")
        err = self._claim_error(state, seat)
        if err is not None:
            raise err
        m = self.missions[cmd.mission]
        if not self.mission_met(state, seat, m):
            raise RuleError("mission_not_met", f"The objective is not met: {m.text_en}")
        was_waiting = self._waiting(state)
        emit(MissionAchieved(seat=seat, mission=cmd.mission))
        achieved = objectives(state, seat).achieved
        if len(achieved) == MISSIONS_TO_WIN - 1:
            last = next(mid for mid in p.missions if mid not in achieved)
            emit(MissionRevealed(seat=seat, mission=last))
        if was_waiting and len(achieved) < MISSIONS_TO_WIN:
            self.end_turn(state, emit)  # the announcement was all the turn waited for

    def out_of_turn(self, state: GameState, cmd: Command) -> bool:
        """DEC-21 ``any_time``: an objective may be announced while others play."""
        return isinstance(cmd, ClaimMission) and self._any_time(state)

    def winner(self, state: GameState) -> GameWon | None:
        """NAP-MIS-09: four achieved objectives win at once; else the basic end (all 48)."""
        for seat in range(len(state.players)):
            achieved = objectives(state, seat).achieved
            if len(achieved) >= MISSIONS_TO_WIN:
                return GameWon(seat=seat, reason="mission", mission=achieved[-1])
        return super().winner(state)

    # ------------------------------------------------------------------ the end of a turn
    def _waiting(self, state: GameState) -> bool:
        """DEC-21: after the free move the turn waits for a last announcement, if none was made."""
        return (
            mission_state(state).maneuvered == state.turn
            and state.phase == "attack"
            and not self._any_time(state)
            and objectives(state, state.current).announced != state.turn
        )

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        if not self._waiting(state):
            super().after_fortify(state, emit)

    def _fortify(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        if self._waiting(state):
            raise RuleError("maneuver_done", "The free move is made: announce or end the turn.")
        RuleSet._fortify(self, state, cmd, emit)

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        if self._waiting(state):
            return RuleError("maneuver_done", "The free move ends your offensives (NAP-09).")
        return super().attack_error(state, seat, origin, target)

    def attack_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        if self._waiting(state):
            return iter(())
        return super().attack_options(state, seat)

    def fortify_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        if self._waiting(state):
            return iter(())
        return super().fortify_options(state, seat)

    def legal_commands(self, state: GameState) -> list[Command]:
        cmds = super().legal_commands(state)
        if state.phase == "over":
            return cmds
        seat = self.to_act(state)
        claims: list[Command] = [
            ClaimMission(seat=seat, mission=mid) for mid in self.claimable(state, seat)
        ]
        return [*claims, *cmds]

    def legal_moves(self, state: GameState) -> list[LegalMove]:
        """``legal_commands`` with counts as ranges (issue 14): the same claims first."""
        moves = super().legal_moves(state)
        if state.phase == "over":
            return moves
        seat = self.to_act(state)
        claims = [
            LegalMove(command=ClaimMission(seat=seat, mission=mid))
            for mid in self.claimable(state, seat)
        ]
        return [*claims, *moves]

    # ------------------------------------------------------------------ projector
    def _on_hands_dealt(self, state: GameState, ev: MissionHandsDealt) -> None:
        state.rng = ev.rng
        goals = tuple(Objectives(missions=hand) for hand in ev.missions)
        state.family = msgspec.structs.replace(mission_state(state), objectives=goals)

    def _on_achieved(self, state: GameState, ev: MissionAchieved) -> None:
        family = mission_state(state)
        goals = list(family.objectives)
        before = goals[ev.seat]
        goals[ev.seat] = msgspec.structs.replace(
            before, achieved=(*before.achieved, ev.mission), announced=state.turn
        )
        state.family = msgspec.structs.replace(family, objectives=tuple(goals))

    def _on_mission_revealed(self, state: GameState, ev: MissionRevealed) -> None:
        """Public knowledge only: the card is already in the seat's hand."""

    def _on_fortified(self, state: GameState, ev: Fortified) -> None:
        RuleSet._on_fortified(self, state, ev)
        state.family = msgspec.structs.replace(mission_state(state), maneuvered=state.turn)

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        ClaimMission: _claim,
        Fortify: _fortify,
    }
    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        MissionHandsDealt: _on_hands_dealt,
        MissionAchieved: _on_achieved,
        MissionRevealed: _on_mission_revealed,
        Fortified: _on_fortified,
    }
