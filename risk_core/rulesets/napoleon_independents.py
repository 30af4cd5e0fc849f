"""Active independent armies (NAP-2PA), shared by napoleon-2p and the 1796 campaign.

The commands and events of the active independents, and :class:`ActiveIndependents`, the
mechanics both families play by in the same way: gifts of cards that move an independent one
step toward the giver (NAP-2PA-03/04), the influence step closed by any reinforcement
(NAP-2PA-02), the allies' reinforcement step and the placement of their regiments by the
mover (NAP-2PA-06/15), and an ally's maneuver along a chain of its own territories
(NAP-2PA-12).  What the two families rule differently (how an ally's income is counted, when
an ally maneuvers, the status dice) stays in :mod:`~risk_core.rulesets.napoleon_2p` and
:mod:`~risk_core.rulesets.napoleon_1796`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from risk_core.errors import RuleError
from risk_core.model import (
    Command,
    Event,
    GameState,
    Phase,
    Place,
    Seat,
    Trade,
    TurnStarted,
    command,
    event,
)
from risk_core.rulesets.allies import AllyPlaced
from risk_core.rulesets.base import Emit, RuleSet


# --------------------------------------------------------------------------- commands
@command
class GiveCard(Command, frozen=True, tag="give_card"):
    """NAP-2PA-03: give ``card`` face down to ``independent`` (its seat): one step toward you."""

    independent: Seat
    card: int


@command
class ReinforceAlly(Command, frozen=True, tag="reinforce_ally"):
    """NAP-2PA-06: roll ``ally``'s die (its seat) now and place that many regiments for it.

    In the ``ally_reinforce`` step, once your own regiments are placed; one die per ally and
    turn, each decided knowing the dice already rolled.
    """

    ally: Seat


@command
class AllyManeuver(Command, frozen=True, tag="ally_maneuver"):
    """NAP-2PA-12: an ally's free maneuver, along a chain of that ally's territories."""

    origin: str
    target: str
    count: int


@command
class EndPhase(Command, frozen=True, tag="end_phase"):
    """Close an optional step: stop influencing, stop reinforcing allies, or end the allies'
    maneuvers (and the turn)."""


# --------------------------------------------------------------------------- events
@event
class CardGiven(Event, frozen=True, tag="card_given"):
    seat: Seat
    independent: Seat
    card: int
    ally_of: Seat | None  # the independent's status after the gift

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        """NAP-2PA-03: given face down; the others see only that a card changed hands."""
        if d["seat"] != seat:
            d["card"] = None


@event
class InfluenceEnded(Event, frozen=True, tag="influence_ended"):
    seat: Seat


@event
class AllyReinforcementRolled(Event, frozen=True, tag="ally_reinforcement_rolled"):
    """NAP-2PA-06: ``ally``'s die: the regiments the mover now places on its territories."""

    seat: Seat
    ally: Seat
    face: int
    rng: int
    scripted: int = 0


@event
class AllyReinforcementsEnded(Event, frozen=True, tag="ally_reinforcements_ended"):
    """NAP-2PA-06: the mover reinforces no further ally this turn."""

    seat: Seat


@event
class StatusRolled(Event, frozen=True, tag="status_rolled"):
    """NAP-2PA-09, when an invasion ends: 1–4 moves the independent one step away from the
    mover, 5–6 keeps it."""

    seat: Seat
    independent: Seat
    face: int
    ally_of: Seat | None  # the status after the roll
    rng: int
    scripted: int = 0


@event
class AllyManeuversOpened(Event, frozen=True, tag="ally_maneuvers_opened"):
    """Combat and the mover's own maneuver are over; these allies may still move."""

    seat: Seat
    allies: tuple[Seat, ...]


@event
class AllyManeuvered(Event, frozen=True, tag="ally_maneuvered"):
    seat: Seat
    ally: Seat
    origin: str
    target: str
    count: int


# --------------------------------------------------------------------------- the mechanics
class AllySteps(Protocol):
    """The part of a family state the shared mechanics read: allegiances and the open step."""

    @property
    def ally_of(self) -> tuple[Seat | None, ...]: ...
    @property
    def quota(self) -> tuple[int, ...]: ...
    @property
    def reinforced(self) -> tuple[Seat, ...]: ...


class ActiveIndependents(RuleSet):
    """The active independents' mechanics, identical in napoleon-2p and the 1796 campaign.

    A family mixes it in before its base rule set and provides the hooks below; the texts
    that name the family's own rules are class attributes.
    """

    # Why a gift is refused outside the influence step, and why a Place is refused while an
    # ally waits for its reinforcements (each family cites its own rule).
    GIFT_PHASE_TEXT: ClassVar[str] = "Cards are given at the start of your turn."
    ALLY_FIRST_TEXT: ClassVar[str] = "Reinforce an ally, or end the allied reinforcements."
    # The family's own optional step that ``EndPhase`` also closes (after influence and the
    # allied reinforcements): ``end_own_step`` goes on from it.
    OWN_STEP: ClassVar[str] = ""

    if TYPE_CHECKING:  # provided by the family

        def steps(self, state: GameState) -> AllySteps: ...
        def replace_steps(self, state: GameState, **changes: Any) -> None: ...
        def status(self, state: GameState, seat: Seat) -> Seat | None: ...
        def is_independent(self, state: GameState, seat: Seat) -> bool: ...
        def independents_of(self, state: GameState) -> list[Seat]: ...
        def gift_error(
            self, state: GameState, seat: Seat, independent: Seat
        ) -> RuleError | None: ...
        def end_influence(self, state: GameState, seat: Seat, emit: Emit) -> None: ...
        def place_for_ally(
            self, state: GameState, seat: Seat, t: int, count: int, emit: Emit
        ) -> None: ...
        def end_own_step(self, state: GameState, emit: Emit) -> None: ...

    def is_active(self, state: GameState) -> bool:
        """Whether the independents act in this game (always, unless a family says not)."""
        return True

    def may_hold_nothing(self, state: GameState, seat: Seat) -> bool:
        """An ally holds territory (it is reinforced, it maneuvers): one without any is out of
        the game, and out of every alliance."""
        return super().may_hold_nothing(state, seat) and self.status(state, seat) is None

    def require_active(self, state: GameState) -> None:
        """Refuse an independents' command in a game where they do not act."""

    # ------------------------------------------------------------------ allegiance
    def allies(self, state: GameState, seat: Seat) -> list[Seat]:
        """``seat``'s allies that hold territory (an independent a scenario left with none has
        nowhere to be reinforced or to maneuver from: it is no help)."""
        owner = state.owner
        return [
            i for i in self.independents_of(state) if self.status(state, i) == seat and i in owner
        ]

    def not_ally(self, state: GameState, seat: Seat, other: Seat) -> RuleError:
        """Why ``other`` (a seat) is not among ``seat``'s ``allies``."""
        name = state.players[other].name
        if self.status(state, other) == seat:  # allied, but holding nothing
            return RuleError("not_ally", f"{name} holds no territory to reinforce.")
        return RuleError("not_ally", f"{name} is not one of your allies.")

    def toward(self, state: GameState, independent: Seat, seat: Seat) -> Seat | None:
        """NAP-2PA-03: one step toward ``seat`` (opponent's ally → neutral → ``seat``'s ally)."""
        now = self.status(state, independent)
        return seat if now is None or now == seat else None

    def set_status(self, state: GameState, independent: Seat, ally_of: Seat | None) -> None:
        allies = list(self.steps(state).ally_of)
        allies[independent] = ally_of
        self.replace_steps(state, ally_of=tuple(allies))

    # ------------------------------------------------------------------ influence
    def begin_turn(self, state: GameState, ev: TurnStarted) -> None:
        """CORE's turn start (``RuleSet._on_turn_started``), then the influence phase when
        the mover may give a card (NAP-2PA-03); a scenario's turn that starts in the attack
        phase (no income) keeps that phase."""
        RuleSet._on_turn_started(self, state, ev)
        if not ev.income:
            state.phase = "attack"
        elif self.can_give(state, ev.seat):
            state.phase = "influence"

    def can_give(self, state: GameState, seat: Seat) -> bool:
        if not self.is_active(state) or not state.players[seat].hand:
            return False
        return any(self.gift_error(state, seat, i) is None for i in self.independents_of(state))

    def _give(self, state: GameState, cmd: GiveCard, emit: Emit) -> None:
        self.require_active(state)
        if state.phase != "influence":
            raise RuleError("wrong_phase", self.GIFT_PHASE_TEXT)
        err = self.gift_error(state, cmd.seat, cmd.independent)
        if err is not None:
            raise err
        if cmd.card not in state.players[cmd.seat].hand:
            raise RuleError("not_in_hand", f"You do not hold card {cmd.card}.")
        emit(
            CardGiven(
                seat=cmd.seat,
                independent=cmd.independent,
                card=cmd.card,
                ally_of=self.toward(state, cmd.independent, cmd.seat),
            )
        )

    def _on_card_given(self, state: GameState, ev: CardGiven) -> None:
        state.players[ev.seat].hand.remove(ev.card)
        state.players[ev.independent].hand.append(ev.card)
        self.set_status(state, ev.independent, ev.ally_of)
        if not self.can_give(state, ev.seat):
            state.phase = "reinforce"

    def _on_influence_ended(self, state: GameState, ev: InfluenceEnded) -> None:
        state.phase = "reinforce"

    # ------------------------------------------------------------------ reinforcements
    def _trade_after_influence(self, state: GameState, cmd: Trade, emit: Emit) -> None:
        self.end_influence(state, cmd.seat, emit)
        self._trade(state, cmd, emit)

    def _place_after_influence(self, state: GameState, cmd: Place, emit: Emit) -> None:
        """A Place closes the influence step; in ``ally_place`` it places an ally's regiments."""
        t = self.territory(cmd.territory)
        if cmd.count < 1:
            raise RuleError("bad_count", "Place at least 1 regiment.")
        self.end_influence(state, cmd.seat, emit)
        if state.phase == "ally_place":
            self.place_for_ally(state, cmd.seat, t, cmd.count, emit)
            return
        if state.phase == "ally_reinforce":
            raise RuleError("wrong_phase", self.ALLY_FIRST_TEXT)
        self._place(state, cmd, emit)

    def unreinforced(self, state: GameState) -> list[Seat]:
        """The mover's allies that have not had their reinforcements this turn."""
        done = self.steps(state).reinforced
        return [a for a in self.allies(state, state.current) if a not in done]

    def after_reinforce_phase(self, state: GameState) -> Phase:
        """NAP-2PA-06, NAP-CAMP-16 (2): the allies' reinforcements follow the player's own."""
        return "ally_reinforce" if self.unreinforced(state) else "attack"

    def _on_ally_reinforcements_ended(self, state: GameState, ev: AllyReinforcementsEnded) -> None:
        state.phase = "attack"

    def _on_ally_placed(self, state: GameState, ev: AllyPlaced) -> None:
        quota = list(self.steps(state).quota)
        t = self.board.index[ev.territory]
        quota[state.owner[t]] -= ev.count
        self.replace_steps(state, quota=tuple(quota))
        state.armies[t] += ev.count
        if not any(quota):
            state.phase = self.after_reinforce_phase(state)

    def _end_phase(self, state: GameState, cmd: EndPhase, emit: Emit) -> None:
        if state.phase == "influence":
            emit(InfluenceEnded(seat=cmd.seat))
        elif state.phase == "ally_reinforce":
            emit(AllyReinforcementsEnded(seat=cmd.seat))
        elif state.phase == self.OWN_STEP:
            self.end_own_step(state, emit)
        else:
            raise RuleError(
                "wrong_phase", f"There is no optional step to end in the {state.phase} phase."
            )

    # ------------------------------------------------------------------ maneuvers
    def ally_moves(self, state: GameState, ally: Seat) -> Iterator[tuple[int, int]]:
        """(origin, target) pairs of ``ally``'s maneuver: a chain of its own territories."""
        reach: dict[int, set[int]] = {}
        for o, owner in enumerate(state.owner):
            if owner != ally or state.armies[o] < 2:
                continue
            if o not in reach:
                group = self.connected_own(state, ally, o)
                for t in group:
                    reach[t] = group
            for t in sorted(reach[o] - {o}):
                yield o, t

    # ------------------------------------------------------------------ legal commands
    def _legal_gifts(self, state: GameState, seat: Seat) -> Iterator[Command]:
        """The influence step: every gift allowed, then closing the step."""
        hand = sorted(state.players[seat].hand)
        for i in self.independents_of(state):
            if self.gift_error(state, seat, i) is None:
                for card in hand:
                    yield GiveCard(seat=seat, independent=i, card=card)
        yield EndPhase(seat=seat)

    def _legal_ally_reinforce(self, state: GameState, seat: Seat) -> Iterator[Command]:
        for ally in self.unreinforced(state):
            yield ReinforceAlly(seat=seat, ally=ally)
        yield EndPhase(seat=seat)
