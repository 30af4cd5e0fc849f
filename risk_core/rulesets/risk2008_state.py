"""Risk 2008's own state, commands and events (rulebook 003, R08-*).

The family state (:class:`R08State`, ``GameState.family``) holds the buildings (cities,
capitals, airfields), the face-up missions with their rewards, each seat's completed missions
and rewards, and what the current turn has done so far: territories taken, continents held at
its start, the mission taken, the maneuvers made.  "This turn" missions (R08-15) are judged from
these facts, which the projectors record as the turn's events arrive.
"""

from __future__ import annotations

from typing import Any

from risk_core.model import Command, Event, FamilyState, Seat, command, event


class R08State(FamilyState, frozen=True):
    """Buildings, missions and rewards of a Risk 2008 game, and the current turn's record.

    Territories are ids; per-seat tuples have one entry per seat (a capital "" until placed).
    """

    cities: tuple[str, ...] = ()
    capitals: tuple[str, ...] = ()
    airfields: tuple[str, ...] = ()
    missions: tuple[str, ...] = ()  # face up on the board (R08-14: never replaced)
    rewards_on: tuple[str, ...] = ()  # the reward token lying on each face-up mission, or ""
    completed: tuple[tuple[str, ...], ...] = ()
    rewards: tuple[tuple[str, ...], ...] = ()
    # The current turn (reset by turn_started).
    start_groups: tuple[str, ...] = ()  # continents the mover held at the start of the turn
    taken: tuple[str, ...] = ()  # territories the mover took this turn
    mission_taken: bool = False
    seized: bool = False  # took an eliminated opponent's missions this turn (R08-13, DEC-39)
    fought: bool = False  # a battle was fought this turn (R08-CC-11)
    strategic_used: bool = False
    maneuvers: int = 0
    closed: bool = False  # the turn has ended (R08-18 is judged then)


def replace_at(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


# --------------------------------------------------------------------------- commands
@command
class TakeMission(Command, frozen=True, tag="take_mission"):
    """Take a face-up ``mission`` fulfilled this turn, discarding ``card`` (R08-14)."""

    mission: str
    card: int | None = None


@command
class PlaceCapital(Command, frozen=True, tag="place_capital"):
    """Put your capital and 1 regiment on an unoccupied ``territory`` (R08-CC-05)."""

    territory: str


@command
class PlaceAirfield(Command, frozen=True, tag="place_airfield"):
    """Put the airfield you have just won on ``territory``, one of yours (R08-CC-10)."""

    territory: str


@command
class StrategicMove(Command, frozen=True, tag="strategic_move"):
    """The Strategic Maneuver reward: one reorganisation before your first attack (R08-CC-11)."""

    origin: str
    target: str
    count: int


# --------------------------------------------------------------------------- events
@event
class R08BoardSet(Event, frozen=True, tag="r08_board_set"):
    """The buildings and face-up missions at the start (R08-TR-02..04, R08-CC-01..03);
    capitals are "" when the players place them (Command Center)."""

    cities: tuple[str, ...]
    capitals: tuple[str, ...]
    missions: tuple[str, ...]
    rewards: tuple[str, ...]
    rng: int


@event
class CapitalPlaced(Event, frozen=True, tag="capital_placed"):
    """R08-CC-05: ``seat``'s capital on ``territory`` (its regiment follows as setup_placed)."""

    seat: Seat
    territory: str


@event
class MissionTaken(Event, frozen=True, tag="mission_taken"):
    """R08-14: ``seat`` takes ``mission`` (with its ``reward``, R08-CC-09), discarding ``card``."""

    seat: Seat
    mission: str
    card: int | None
    reward: str = ""


@event
class AirfieldPlaced(Event, frozen=True, tag="airfield_placed"):
    """R08-CC-10: an airfield on ``territory``, which ``seat`` controls."""

    seat: Seat
    territory: str


@event
class StrategicMoved(Event, frozen=True, tag="strategic_moved"):
    """R08-CC-11: the Strategic Maneuver's reorganisation."""

    seat: Seat
    origin: str
    target: str
    count: int
