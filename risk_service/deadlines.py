"""Turn deadlines as people read them: durations (``1h30m``), due times, time left, and which
moves the computer made because a deadline passed.

The engine never reads a clock; a deadline is the service's (``risk_service.worker``): the
owner's ledger row keeps its length, Redis the due time of the turn in progress.  A timeout is
an ordinary request, ``timeout:<game>:<version>``, recorded in the ledger with its outcome like
any other: the moves it caused are ordinary commands, stored exactly as a player's would be.
So the mark "played by the computer on a timeout" is read from the ledger, not from the events:
every game's events stay what they were, and past timeouts are marked as well.  The outcome
says which seat timed out and the last version of that seat's own moves (``through``: the
computer-held seats' moves that follow are theirs, not the timeout's; an outcome without it,
recorded by earlier versions, counts its whole record).
Branches and exports carry no mark: a branch is another game, and the ledger is the service's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from risk_core import RiskError
from risk_core.model import Event, TurnStarted
from risk_service.ledger import OWNER, LedgerReader
from risk_service.protocol import (
    MAX_DEADLINE_S,  # what ``AdminRequest.seconds`` allows
    timeout_request_id,
)

if TYPE_CHECKING:
    from risk_service.store import GameService

LOOKUP_CHUNK = 500  # request ids per ledger query (SQLite's variable limit is far above)
UNITS = (("d", 86_400), ("h", 3600), ("m", 60), ("s", 1))
_NUMBER = r"(\d+(?:\.\d+)?)"
_DURATION = re.compile("".join(rf"(?:{_NUMBER}{unit})?" for unit, _ in UNITS), re.IGNORECASE)


# --------------------------------------------------------------------------- durations
def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``30m``, ``1h``, ``2d`` or a combination in that order
    (``1h30m``, ``1d 12h``); ``bad_duration`` for anything else, zero, or more than 366 days."""
    compact = "".join(text.split()).lower()
    try:
        seconds = float(compact) if re.fullmatch(_NUMBER, compact) else _units(compact)
    except ValueError:
        raise RiskError(
            "bad_duration",
            f"{text!r} is not a duration: give seconds (90) or units d, h, m, s (2d, 1h30m, 45s).",
        ) from None
    if not 0 < seconds <= MAX_DEADLINE_S:
        raise RiskError(
            "bad_duration",
            f"A turn deadline is more than 0 s and at most {MAX_DEADLINE_S // 86_400} days "
            f"(`off` removes it), not {text!r}.",
        )
    return seconds


def _units(text: str) -> float:
    found = _DURATION.fullmatch(text)
    if not text or found is None:
        raise ValueError(text)
    return sum(float(n) * size for n, (_, size) in zip(found.groups(), UNITS, strict=True) if n)


def format_duration(seconds: float) -> str:
    """``5400`` → ``1h30m``; below a minute with its fraction (``0.5s``), else whole seconds."""
    if seconds < 60:
        return f"{seconds:.1f}".rstrip("0").rstrip(".") + "s" if seconds % 1 else f"{seconds:.0f}s"
    left, parts = round(seconds), []
    for unit, size in UNITS:
        n, left = divmod(left, size)
        if n:
            parts.append(f"{n}{unit}")
    return "".join(parts)


def utc_text(ms: int) -> str:
    """A Redis time in milliseconds as an ISO 8601 UTC time to the second."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def deadline_info(deadline_ms: int, due_ms: int | None, now_ms: int | None) -> dict[str, Any]:
    """What a view says of the turn deadline: its length, and when the service knows them the
    due time (UTC) and the seconds left (0 once passed: the computer is about to play)."""
    seconds = deadline_ms / 1000
    info: dict[str, Any] = {"seconds": seconds, "text": format_duration(seconds)}
    if due_ms is not None and now_ms is not None:
        info["due"] = utc_text(due_ms)
        info["left"] = round(max(0, due_ms - now_ms) / 1000, 3)
    return info


# --------------------------------------------------------------------------- timeouts
class Timeout(msgspec.Struct, frozen=True):
    """Versions ``first`` to ``last`` were played by the computer for ``seat``, whose turn
    deadline had passed."""

    seat: int
    first: int
    last: int


class _Outcome(msgspec.Struct):
    ok: bool = False
    version: int = 0
    data: Any = None


_outcome = msgspec.json.Decoder(_Outcome)


def timeouts(reader: LedgerReader, game_id: str, upto: int) -> list[Timeout]:
    """The timeouts recorded for ``game_id`` within its first ``upto`` versions, in order.

    A timeout's id names the version it was issued at, so the ledger is asked for each
    version's possible id (by primary key, a few hundred at a time)."""
    ids = [timeout_request_id(game_id, v) for v in range(1, upto + 1)]
    found: list[Timeout] = []
    for start in range(0, len(ids), LOOKUP_CHUNK):
        rows = reader.ledger_requests(ids[start : start + LOOKUP_CHUNK])
        for rid, row in rows.items():
            outcome = _outcome.decode(row.outcome)
            data = outcome.data if isinstance(outcome.data, dict) else {}
            seat = data.get("timed_out")
            if row.game_id != game_id or not outcome.ok or not isinstance(seat, int):
                continue
            at = int(rid.rsplit(":", 1)[1])
            last = data.get("through", outcome.version)
            if last > at:
                found.append(Timeout(seat, at + 1, min(last, upto)))
    return sorted(found, key=lambda t: t.first)


def own_moves(events: Sequence[Event], seat: int) -> int:
    """How many of ``events``, the moves the computer made for ``seat`` on a timeout, are that
    seat's: all of them up to the start of another seat's turn (an ``EndTurn`` of the seat
    starts the next turn in the same command)."""
    for n, event in enumerate(events):
        if isinstance(event, TurnStarted) and event.seat != seat:
            return n
    return len(events)


def mark_events(events: list[dict[str, Any]], marks: Sequence[Timeout], since: int = 0) -> None:
    """Mark ``"timeout": true`` on each event (versions ``since + 1`` on) the computer made
    for a seat whose deadline passed; every other event is left exactly as it was."""
    for t in marks:
        for v in range(max(t.first, since + 1), min(t.last, since + len(events)) + 1):
            events[v - since - 1]["timeout"] = True


def view_timeouts(marks: Sequence[Timeout], version: int) -> list[dict[str, int]]:
    """The timeouts up to ``version``, as a view lists them (the latest last)."""
    return [
        msgspec.to_builtins(Timeout(t.seat, t.first, min(t.last, version)))
        for t in marks
        if t.first <= version
    ]


# --------------------------------------------------------------------------- a store read directly
def _reader(service: GameService) -> LedgerReader | None:
    recorder = service.application.recorder
    return recorder if isinstance(recorder, LedgerReader) else None


def mark_stored_events(
    service: GameService, game_id: str, events: list[dict[str, Any]], since: int = 0
) -> None:
    """``mark_events`` for a store read without the service (``risk log`` on the store)."""
    reader = _reader(service)
    if reader is not None and events:
        mark_events(events, timeouts(reader, game_id, since + len(events)), since)


def stored_view(
    service: GameService, game_id: str, data: dict[str, Any], latest: bool
) -> dict[str, Any]:
    """A view read from the store itself, with the game's timeouts and, at the latest version,
    the turn deadline the service keeps for it (its length only: the due time is the workers',
    in Redis)."""
    reader = _reader(service)
    if reader is None:
        return data
    marks = timeouts(reader, game_id, data["version"])
    if marks:
        data["timeouts"] = view_timeouts(marks, data["version"])
    owner = reader.ledger_seats(game_id).get(OWNER) if latest else None
    if owner is not None and owner.deadline_ms and data.get("to_act") is not None:
        data["deadline"] = deadline_info(owner.deadline_ms, None, None)
    return data
