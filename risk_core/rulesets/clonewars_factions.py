"""Clone Wars faction facts as pure functions (rulebook 002): building blocks of the faction game.

What the faction game (``clonewars``, :mod:`risk_core.rulesets.clonewars`) rests on and what
can be stated and tested alone is here (no rule set is defined in this module):

* the four armies and their factions (CW-06), seats (named after the armies) and their
  commanders for 2–4 players (CW-07) in the alternating turn order (CW-08), and the starting
  troops (CW-10);
* the card draw at the end of a turn (CW-36): one per opposing army hit, plus a Republic
  army's red dots of the tokens captured this turn;
* Order 66 (CW-38, DEC-35): which d8 faces convert a planet on Sidious's track space;
* the ship limits (CW-22): 3 of each class per army, one ship built per turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from risk_core.board import Board
from risk_core.errors import SetupError
from risk_core.model import SeatInfo
from risk_core.rulesets.clonewars_data import TrackSpace
from risk_core.seats import check_commanders

Faction = Literal["republic", "separatist"]
# CW-07/08: the armies in seating order, alternating Republic and Separatist.
ARMIES: tuple[str, ...] = ("red", "black", "orange", "blue")
FACTION_OF: dict[str, Faction] = {
    "red": "republic",
    "orange": "republic",
    "black": "separatist",
    "blue": "separatist",
}
# CW-07 (002 l.166-175): for 2, 3 and 4 players, the armies each player commands.
COMMANDS: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (("red", "orange"), ("black", "blue")),
    3: (("red",), ("black", "blue"), ("orange",)),
    4: (("red",), ("black",), ("orange",), ("blue",)),
}
STARTING_TROOPS: dict[Faction, int] = {"republic": 31, "separatist": 30}  # CW-10, l.180-182
SHIPS_PER_CLASS = 3  # CW-22 (l.331): each army builds up to 3 ships of each class
SHIPS_BUILT_PER_TURN = 1  # CW-22 (l.333)
MAX_CARDS_FOR_ARMIES_HIT = 2  # CW-36: one card per opposing army, two at most


def faction_seats(players: Sequence[str]) -> list[SeatInfo]:
    """CW-07/08: the four armies as seats in turn order (red, black, orange, blue).

    Every army is a seat named after its colour ("Red", "Black", "Orange", "Blue") and
    commanded by its player, so `--as` takes a player (all its armies) or an army.  Raises
    ``SetupError`` ``bad_players`` for anything but 2 to 4 distinct names, or a player named
    like an army.
    """
    n = len(players)
    if n not in COMMANDS or len(set(players)) != n or any(not p.strip() for p in players):
        raise SetupError(
            "bad_players", f"clonewars is for 2–4 players with distinct names, not {n}."
        )
    if any(p.casefold() in ARMIES for p in players):
        raise SetupError("bad_players", "A player may not be named like an army (red, black...).")
    player_of = {army: players[i] for i, armies in enumerate(COMMANDS[n]) for army in armies}
    seats = [
        SeatInfo(name=army.capitalize(), colour=army, commander=player_of[army]) for army in ARMIES
    ]
    check_commanders(seats)
    return seats


def faction(colour: str) -> Faction:
    """The faction of an army by its colour (CW-06)."""
    return FACTION_OF[colour]


def cards_to_draw(drawer: str, armies_hit: Iterable[str], dots_captured: Iterable[int] = ()) -> int:
    """CW-36 (002 l.492-510): one card per opposing army a planet was taken from this turn
    (however many planets), and for a Republic army one per red dot of the tokens captured."""
    hit = {a for a in armies_hit if faction(a) != faction(drawer)}
    cards = min(len(hit), MAX_CARDS_FOR_ARMIES_HIT)
    if faction(drawer) == "republic":
        cards += sum(dots_captured)
    return cards


def order66_faces(board: Board, space: int) -> tuple[int, ...]:
    """CW-38 (DEC-35 (b): invoked at any space): the d8 faces converting a Republic planet
    with Sidious on ``space`` of the track (none before the first space or off its end)."""
    track: tuple[TrackSpace, ...] = board.section("cw_order66_track") or ()
    for s in track:
        if s.space == space:
            return s.faces
    return ()


def order66_converts(board: Board, space: int, roll: int) -> bool:
    """CW-38: whether a d8 ``roll`` converts a planet with Sidious on ``space``."""
    return roll in order66_faces(board, space)


def may_build(ships_on_board: Iterable[str], kind: str, built_this_turn: int) -> bool:
    """CW-22: a ship of ``kind`` may be built while the army has fewer than 3 of that class on
    the board and has built none this turn."""
    if built_this_turn >= SHIPS_BUILT_PER_TURN:
        return False
    return sum(1 for k in ships_on_board if k == kind) < SHIPS_PER_CLASS
