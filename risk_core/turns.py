"""Turns as landmarks in a game's history, and a clock that branches share with their parents.

**Turns.**  A game's turn *T* begins with its ``turn_started`` event (``turn=T``).  "The
position at turn *T*" is the position right after that event, at its version: the seat to
play holds the turn, its income is counted and nothing of the turn has been played yet —
what a player sees when the turn comes to them.  "Turn *T*'s events" run from that event to
the last one before the next ``turn_started`` (or the game's last event).  The events before
the first turn (the deal, the setup) belong to no turn.  A scenario's first turn may have any
number; turns are counted from it.

**Moves of the game.**  A branch's history is its parent's first *N* events, then a
``branched`` event and, when it takes other dice, a ``dice_reseeded`` or ``dice_scripted``
event: records of the branch, not moves of the game.  So a branch's version *V* past its
branch point is its parent's version *V - 1* or *V - 2* in game terms.  ``aligned_version``
counts only the moves of the game (``moves_upto``) to find, in another game, the version that
has played as many of them: the same point of play in a parent and its branch, two sibling
branches, or any two games.

Everything here reads events as the engine's structs (``turn_starts``) or as the JSON
builtins views hand out (``turn_starts_json``, ``event_types``): the second works on redacted
events, since turn starts and the branch records keep no secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from risk_core.errors import RiskError
from risk_core.model import Event, TurnStarted

JsonDict = dict[str, Any]
BRANCH_POINT = "branched"
BRANCH_DICE = ("dice_reseeded", "dice_scripted")  # a branch's dice, right after ``branched``


class TurnStart(msgspec.Struct, frozen=True, kw_only=True):
    """Where turn ``turn`` begins: the version of its ``turn_started`` event."""

    turn: int
    round: int
    seat: int
    version: int


# --------------------------------------------------------------------------- turn index
def turn_starts(events: Iterable[Event]) -> list[TurnStart]:
    """Every turn's start, in order, from the engine's events (version = position + 1)."""
    return [
        TurnStart(turn=ev.turn, round=ev.round, seat=ev.seat, version=version)
        for version, ev in enumerate(events, start=1)
        if isinstance(ev, TurnStarted)
    ]


def turn_starts_json(events: Iterable[Mapping[str, Any]]) -> list[TurnStart]:
    """Every turn's start, in order, from events as JSON builtins (redacted or not)."""
    return [
        TurnStart(turn=d["turn"], round=d["round"], seat=d["seat"], version=version)
        for version, d in enumerate(events, start=1)
        if d.get("type") == "turn_started"
    ]


def _missing(starts: Sequence[TurnStart], turn: int, game_id: str) -> RiskError:
    if not starts:
        return RiskError(
            "no_such_turn", f"Game {game_id} has not begun its first turn: there is no turn {turn}."
        )
    first, last = starts[0].turn, starts[-1].turn
    span = f"turn {first}" if first == last else f"turns {first} to {last}"
    return RiskError("no_such_turn", f"Game {game_id} has {span}: there is no turn {turn}.")


def find_turn(starts: Sequence[TurnStart], turn: int, game_id: str = "") -> TurnStart:
    """Turn ``turn``'s start (``no_such_turn`` if the game has not reached it, or began later:
    a scenario's first turn)."""
    # Turns are numbered one after the other from the first, so the index is arithmetic; the
    # search below is a guard for a history that would number them otherwise.
    if starts:
        k = turn - starts[0].turn
        if 0 <= k < len(starts) and starts[k].turn == turn:
            return starts[k]
    for s in starts:
        if s.turn == turn:
            return s
    raise _missing(starts, turn, game_id)


def turn_span(
    starts: Sequence[TurnStart], turn: int, last_version: int, game_id: str = ""
) -> tuple[int, int]:
    """The first and last versions of turn ``turn``'s events; the last turn runs to
    ``last_version`` (the game's latest version, or where a partial history stops)."""
    start = find_turn(starts, turn, game_id)
    later = [s.version for s in starts if s.version > start.version]
    return start.version, (later[0] - 1 if later else last_version)


def turn_at(starts: Sequence[TurnStart], version: int) -> TurnStart | None:
    """The turn in progress at ``version`` (None: before the first turn)."""
    current = None
    for s in starts:
        if s.version > version:
            break
        current = s
    return current


# --------------------------------------------------------------------------- the moves' clock
def event_types(events: Iterable[Event]) -> list[str]:
    """Each event's ``type`` tag, as its JSON has it."""
    return [str(type(ev).__struct_config__.tag) for ev in events]


def branch_records(types: Sequence[str]) -> list[bool]:
    """For each event, whether it is a branch's record (``branched`` and the dice event that
    follows it) rather than a move of the game.  A ``dice_scripted`` of a scenario's opening
    is a move of the game: every game copied from it has it too."""
    return [
        t == BRANCH_POINT or (t in BRANCH_DICE and i > 0 and types[i - 1] == BRANCH_POINT)
        for i, t in enumerate(types)
    ]


def moves_upto(types: Sequence[str], version: int) -> int:
    """How many moves of the game the first ``version`` events hold (``branch_records``)."""
    return version - sum(branch_records(types[:version]))


def aligned_version(types: Sequence[str], moves: int, game_id: str = "") -> int:
    """The version of a game (its event ``types``) at which it has played ``moves`` moves of
    the game, records of branches included up to the next move (so a branch compared at its
    branch point is read after its ``branched`` record).  ``bad_version`` if it has fewer."""
    marks = branch_records(types)
    count = 0
    found: int | None = None
    for version, record in enumerate(marks, start=1):
        if not record:
            count += 1
            if count > moves:
                break
        if count == moves:
            found = version
    if found is None:
        raise RiskError(
            "bad_version",
            f"Game {game_id} has played {count} moves of the game (branch records left out): "
            f"it has no position after {moves}.",
        )
    return found


def line_up(types_a: Sequence[str], at: int, types_b: Sequence[str], game_b: str = "") -> int:
    """Game B's version at the same point of play as game A's version ``at``."""
    return aligned_version(types_b, moves_upto(types_a, at), game_b)


# --------------------------------------------------------------------------- turn summaries
class Transfer(msgspec.Struct, frozen=True, kw_only=True):
    """A territory that changed hands during a turn (net: from its owner at the start)."""

    territory: str
    before: int  # seat, -1 nobody
    after: int


class SeatChange(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's territories and armies at the start and at the end of a turn."""

    seat: int
    territories: tuple[int, int]
    armies: tuple[int, int]


class TradeMade(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    cards: int
    value: int


class Elimination(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    by: int


class TurnSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What turn ``turn`` changed: from the position at its start to the one after its last
    event (``first`` and ``last`` are the versions of its events)."""

    turn: int
    round: int
    seat: int
    first: int
    last: int
    transfers: list[Transfer]
    seats: list[SeatChange]  # every seat whose territories or armies changed
    trades: list[TradeMade]
    eliminated: list[Elimination]
    winner: int | None = None


def summarise_turn(
    start: TurnStart,
    last: int,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> TurnSummary:
    """Turn ``start``'s summary from the views at its start (``before``) and after its last
    event (``after``), and its events as JSON (``events``: versions ``start.version`` to
    ``last``).  Views are public facts only (owners, armies, hand sizes): a spectator's do."""
    tb, ta = before["territories"], after["territories"]
    transfers = [
        Transfer(territory=t, before=tb[t]["owner"], after=ta[t]["owner"])
        for t in ta
        if t in tb and tb[t]["owner"] != ta[t]["owner"]
    ]
    seats = [
        SeatChange(
            seat=i,
            territories=(p["territories"], q["territories"]),
            armies=(p["armies"], q["armies"]),
        )
        for i, (p, q) in enumerate(zip(before["players"], after["players"], strict=False))
        if (p["territories"], p["armies"]) != (q["territories"], q["armies"])
    ]
    trades = [
        TradeMade(seat=d["seat"], cards=len(d["cards"]), value=d["value"])
        for d in events
        if d.get("type") == "cards_traded"
    ]
    eliminated = [
        Elimination(seat=d["seat"], by=d["by"]) for d in events if d.get("type") == "eliminated"
    ]
    return TurnSummary(
        turn=start.turn,
        round=start.round,
        seat=start.seat,
        first=start.version,
        last=last,
        transfers=transfers,
        seats=seats,
        trades=trades,
        eliminated=eliminated,
        winner=after.get("winner"),
    )
