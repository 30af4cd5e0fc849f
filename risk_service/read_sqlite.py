"""A game's latest view read straight from a SQLite store (issue 13: `risk show` starts fast).

``GameService.state`` folds a game's last snapshot and the events stored after it, through
eventsourcing's application, its recorders and the mapper; building all that costs a command
that only looks at one game more than the look itself.  This module reads the same rows
(``risk_service.app`` documents the layout, ``risk_service.mapper`` the stored JSON) with the
standard library's ``sqlite3`` and folds them the same way, so ``risk show`` never imports
eventsourcing's application layer nor the store.

Two more reads serve other commands: ``ruleset_name`` (a game's rule set, from its first row,
so that a command on one game loads that rule set and family only) and ``raw_records`` (a
game's whole history, a page at a time and left undecoded, for ``risk_service.audit``).

It only reads: anything out of the ordinary (no such file, no such game, tables missing, a row
that does not decode) answers None, and the caller asks ``GameService``, whose answer (or
error) is then the usual one.  tests/test_read_sqlite.py checks both give the same view.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Union, cast

import msgspec

from risk_core import (
    GameState,
    RiskError,
    RuleError,
    apply_in_place,
    model,
    replay,
    typed_state,
)
from risk_core.rulesets import names as ruleset_names

if TYPE_CHECKING:
    from risk_service.records import RawRecord
    from risk_service.store import GameService

# eventsourcing's SQLite tables (risk_service.app) and the ledger's (risk_service.ledger).
EVENTS = "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version > ? "
EVENTS += "ORDER BY originator_version"
SNAPSHOT = "SELECT state FROM stored_snapshots WHERE originator_id = ? "
SNAPSHOT += "ORDER BY originator_version DESC LIMIT 1"
REQUESTS = "SELECT request_id, game_id, seat, outcome FROM risk_requests WHERE request_id IN "
SEATS = "SELECT game_id, seat, hash, bot, deadline_ms FROM risk_seats WHERE game_id = ?"
TIMEOUTS = "SELECT 1 FROM risk_requests WHERE request_id >= ? AND request_id < ? LIMIT 1"
OWNER_DEADLINE = "SELECT deadline_ms FROM risk_seats WHERE game_id = ? AND seat = -1"  # OWNER


class _SnapshotRow(msgspec.Struct, gc=False):
    state: GameState  # as risk_service.mapper.SnapshotRow


_snapshot_decoder = msgspec.json.Decoder(_SnapshotRow)


class _Tag(msgspec.Struct, gc=False):
    type: str  # every engine event's tag (model.Event: tag_field "type")


class _TagRow(msgspec.Struct, gc=False):
    event: _Tag


_tags_decoder = msgspec.json.Decoder(list[_TagRow])
_events_decoders: dict[frozenset[str], msgspec.json.Decoder[Any]] = {}


def _decode_events(body: bytes) -> list[model.Event]:
    """The engine events of stored game events (``body``: their JSON array), as
    risk_service.mapper decodes them.

    The mapper's union holds every event kind of every rule family, and building a decoder
    for it resolves all their fields; a show reads a few events after a snapshot, so their
    tags are read first and the decoder is built for those kinds only (the same classes)."""
    tags = frozenset(row.event.type for row in _tags_decoder.decode(body))
    if not tags:
        return []
    decoder = _events_decoders.get(tags)
    if decoder is None:
        by_tag = {cls.__struct_config__.tag: cls for cls in model.EVENT_TYPES}
        if not tags <= by_tag.keys():  # a family's events: its module may not be loaded yet
            ruleset_names()
            by_tag = {cls.__struct_config__.tag: cls for cls in model.EVENT_TYPES}
        if not tags <= by_tag.keys():
            raise ValueError(f"unknown event kinds: {sorted(tags - by_tag.keys())}")
        kinds = tuple(by_tag[tag] for tag in sorted(tags))
        row = msgspec.defstruct("_EventOnly", [("event", Union[kinds])], gc=False)  # noqa: UP007
        decoder = _events_decoders[tags] = msgspec.json.Decoder(list[row])  # type: ignore[valid-type]
    return [row.event for row in decoder.decode(body)]


class _Opening(msgspec.Struct, gc=False):
    ruleset: str  # game_started's


class _OpeningRow(msgspec.Struct, gc=False):
    event: _Opening


_opening_decoder = msgspec.json.Decoder(_OpeningRow)
FIRST_EVENT = "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 1"


def ruleset_name(path: Path, game_id: str) -> str | None:
    """The rule set of the game, from its first event (``game_started``), decoding nothing
    else; None when the file, the game or the field is not there.  A command that works on
    one game loads that rule set and its family only (``risk_cli.main``)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(path)
        try:
            found = db.execute(FIRST_EVENT, (game_id,)).fetchone()
        finally:
            db.close()
        return None if found is None else _opening_decoder.decode(found[0]).event.ruleset
    except (sqlite3.Error, msgspec.DecodeError):
        return None


def sqlite_path(url: str | None) -> Path | None:
    """The SQLite file a store URL names, as ``risk_service.stores.parse_store`` reads it (its
    ``path``; tests/test_read_sqlite.py compares them), or None for any other store.

    ``stores`` imports eventsourcing's persistence layer, which is what reading the file
    straight spares; a URL it would refuse is left to it (None here: the caller asks it)."""
    if url is None or not url.strip():
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        path = Path(base) / "risk" / "games.db"
    else:
        url = url.strip()
        scheme, sep, rest = url.partition(":")
        if not sep or "/" in scheme or "\\" in scheme or len(scheme) == 1:
            path = Path(url)  # a bare path (or a Windows drive letter)
        elif scheme.lower() == "sqlite" and rest.strip("/"):
            rest = rest.removeprefix("//")
            path = Path("/" + rest.lstrip("/") if rest.startswith("//") else rest)
        else:
            return None
    return path.expanduser().absolute()


def latest_state(path: Path, game_id: str) -> GameState | None:
    """The game's latest state in the SQLite store at ``path``, or None (ask the service)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        db.execute("BEGIN")  # the snapshot and the events after it, as of one moment
        found = db.execute(SNAPSHOT, (game_id,)).fetchone()
        start = _snapshot(found[0]) if found else None
        after = 0 if start is None else start.version
        states = [row[0] for row in db.execute(EVENTS, (game_id, after))]
        db.execute("COMMIT")
    except sqlite3.Error:
        return None
    finally:
        db.close()
    try:
        body = b"[" + b",".join(states) + b"]"
        events = _decode_events(body)
    except (msgspec.DecodeError, ValueError):
        return None
    try:
        if start is None:
            return replay(events) if events else None
        return apply_in_place(start, events)
    except RiskError:  # a rule set not loaded here, say: the service's error says which
        return None


def _snapshot(data: bytes) -> GameState | None:
    # As MsgspecMapper.snapshot_state: a snapshot of an older shape is skipped (replayed); one
    # that does not decode is the store's error to report (sqlite3.Error: the caller asks it).
    try:
        state = _snapshot_decoder.decode(data).state
    except (msgspec.DecodeError, ValueError) as e:
        raise sqlite3.DataError(str(e)) from None
    try:
        return typed_state(state)
    except RuleError:
        return None
    except RiskError as e:  # a rule set not loaded here: the service says which
        raise sqlite3.DataError(e.message) from None


def stored_view(path: Path, game_id: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """``deadlines.stored_view`` of the latest version, its ledger rows read from the file
    (None when they cannot be read: ask the service).

    Most games have neither a timeout nor a turn deadline: two lookups by key say so, and the
    view is then left as it is without importing the deadlines' ledger and protocol."""
    prefix = deadlines_prefix(game_id)
    try:
        db = sqlite3.connect(path)
        try:
            timed_out = db.execute(TIMEOUTS, (prefix, prefix[:-1] + ";")).fetchone()
            owner = db.execute(OWNER_DEADLINE, (game_id,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if timed_out is None and (owner is None or not owner[0]):
        return data  # what deadlines.stored_view answers: no timeouts, no deadline
    from risk_service import deadlines

    service = SimpleNamespace(application=SimpleNamespace(recorder=_file_ledger(path)))
    try:
        return deadlines.stored_view(cast("GameService", service), game_id, data, True)
    except sqlite3.Error:
        return None


def deadlines_prefix(game_id: str) -> str:
    """What every timeout request id of the game begins with (``protocol.timeout_request_id``:
    ``timeout:GAME:VERSION``); ids from it to the same with ``;`` (the character after ``:``)
    are exactly the game's, a range of the ledger's primary key."""
    return f"timeout:{game_id}:"


def _file_ledger(path: Path) -> Any:
    """A ``LedgerReader`` of the rows ``deadlines.stored_view`` reads, from the SQLite file."""
    from risk_service.ledger import LedgerReader, RequestRow, SeatRow

    class FileLedger(LedgerReader):
        def _select(self, query: str, params: Sequence[Any]) -> list[Any]:
            db = sqlite3.connect(path)
            try:
                return db.execute(query, params).fetchall()
            finally:
                db.close()

        def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
            if not request_ids:
                return {}
            marks = ", ".join("?" * len(request_ids))
            rows = self._select(f"{REQUESTS}({marks})", request_ids)
            return {r[0]: RequestRow(r[0], r[1], r[2], r[3]) for r in rows}

        def ledger_seats(self, game_id: str) -> dict[int, SeatRow]:
            rows = self._select(SEATS, (game_id,))
            return {r[1]: SeatRow(r[0], r[1], r[2], r[3], r[4]) for r in rows}

    return FileLedger()


# ----------------------------------------------------------------------------- whole histories
PAGE_EVENTS = "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version > ? "
PAGE_EVENTS += "AND originator_version <= ? ORDER BY originator_version"


def raw_records(path: Path, game_id: str, upto: int, page: int = 2000) -> Iterator[RawRecord]:
    """The game's records up to version ``upto`` (which ends a record), read from the SQLite
    file ``page`` events at a time, as ``GameService.iter_records`` groups them
    (``records.raw_records_of``): the commands decoded, the events left as their stored JSON
    (``risk_service.records``).

    For an audit (``risk_service.audit``), which decodes a record's events only when
    re-execution does not give them back byte for byte.  ``sqlite3.Error`` if the file cannot
    be read, ``msgspec.DecodeError`` if a row does not decode; the caller has checked that the
    game has ``upto`` events."""
    from risk_service.records import raw_records_of  # not for `risk show`

    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA cache_size = -512")  # KiB: each page is read once
    except sqlite3.Error:
        db.close()
        raise

    def states(gt: int, lte: int) -> list[bytes]:
        return [r[0] for r in db.execute(PAGE_EVENTS, (game_id, gt, lte))]

    return raw_records_of(states, upto, page, close=db.close)
