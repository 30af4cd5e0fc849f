"""The service's ledger: what the command worker must store atomically with a command's events.

Three small tables beside the events, written by ``insert_events(..., ledger=LedgerWrite(...))``
in the same transaction as the events:

* ``risk_requests`` — one row per decided request id, with the outcome sent back.  Its primary
  key makes a redelivered or retried request a conflict instead of a second application, and the
  stored outcome is the reply a retry gets.
* ``risk_seats`` — per game, each seat's public key, or its open invitation's (seat -1: the
  game owner's; column ``hash``, named when it held token hashes), the bot level of a seat
  handed to the computer, and on the owner's row the turn deadline.  No secret is stored
  (``risk_service.signing``).
* ``risk_fences`` — per stream partition, the highest lease fencing counter that has written
  and the stream position processed so far (the role of the library's ``Tracking``, kept per
  partition because one transaction groups the commands of several partitions).  A write
  carrying a lower counter fails (``Fenced``): a worker that lost its lease cannot append once
  its successor has.
* ``risk_secrets`` — the service's own secrets by name: ``service-key``, the X25519 key with
  which workers agree session MAC keys with seats (``risk_service.signing``), made by the
  first worker that needs it and the same for every worker of the store.

The recorders are the library's application recorders extended with these tables, one per
kind of store; ``application_recorder`` picks the one matching the factory.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
from eventsourcing import persistence
from eventsourcing.persistence import (
    ApplicationRecorder,
    InfrastructureFactory,
    IntegrityError,
    StoredEvent,
)
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteFactory,
)
from eventsourcing.utils import get_topic

from risk_service.stores import BACKGROUND_CHECKPOINTS, tune_sqlite

OWNER = -1  # the seat number of the game owner's row
EventRowTuple = tuple[str, int, str, bytes]  # a stored event: game id, version, topic, state


class Fenced(IntegrityError):
    """A newer lease holder has already written for this partition."""


class RequestRow(msgspec.Struct, frozen=True):
    request_id: str
    game_id: str
    seat: int
    outcome: bytes  # the reply, as msgspec JSON


class SeatRow(msgspec.Struct, frozen=True):
    game_id: str
    seat: int  # OWNER for the owner's row
    hash: str | None  # a public key (signing.SEAT_KEY / INVITED); None: a bot plays the seat
    bot: str | None = None  # the bot level playing this seat
    deadline_ms: int | None = None  # owner row only: the turn deadline


class LedgerWrite(msgspec.Struct):
    fences: dict[int, tuple[int, int]] = msgspec.field(default_factory=dict)  # p: (fence, pos)
    requests: list[RequestRow] = msgspec.field(default_factory=list)
    seats: list[SeatRow] = msgspec.field(default_factory=list)


# --------------------------------------------------------------------------- recorders
class LedgerReader:
    """The ledger's read side, common to every store."""

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        raise NotImplementedError

    def ledger_seats(self, game_id: str) -> dict[int, SeatRow]:
        raise NotImplementedError

    def ledger_deadlines(self) -> list[SeatRow]:
        """Every owner row with a turn deadline."""
        raise NotImplementedError

    def ledger_fence(self, partition: int) -> tuple[int, int]:
        """The partition's highest fence that wrote, and the stream position it reached."""
        raise NotImplementedError

    def ledger_secret(self, name: str) -> bytes:
        """The service's secret ``name``: 32 random bytes, stored by the first caller (every
        later caller, of any worker, gets the same)."""
        raise NotImplementedError


class _SQL:
    """The ledger's statements, with ``{t}`` table prefixes and ``{p}`` placeholders."""

    create = (
        "CREATE TABLE IF NOT EXISTS {t}requests (request_id TEXT PRIMARY KEY, "
        "game_id TEXT NOT NULL, seat INTEGER NOT NULL, outcome {blob} NOT NULL)",
        "CREATE TABLE IF NOT EXISTS {t}seats (game_id TEXT NOT NULL, seat INTEGER NOT NULL, "
        "hash TEXT, bot TEXT, deadline_ms BIGINT, PRIMARY KEY (game_id, seat))",
        "CREATE TABLE IF NOT EXISTS {t}fences (part INTEGER PRIMARY KEY, fence BIGINT NOT NULL, "
        "position BIGINT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS {t}secrets (name TEXT PRIMARY KEY, value {blob} NOT NULL)",
    )
    insert_secret = "INSERT INTO {t}secrets VALUES ({p}, {p}) ON CONFLICT (name) DO NOTHING"
    select_secret = "SELECT value FROM {t}secrets WHERE name = {p}"
    insert_request = "INSERT INTO {t}requests VALUES ({p}, {p}, {p}, {p})"
    upsert_seat = (
        "INSERT INTO {t}seats VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT (game_id, seat) "
        "DO UPDATE SET hash = excluded.hash, bot = excluded.bot, deadline_ms = excluded.deadline_ms"
    )
    fence = (
        "INSERT INTO {t}fences AS f VALUES ({p}, {p}, {p}) ON CONFLICT (part) DO UPDATE "
        "SET fence = excluded.fence, position = excluded.position "
        "WHERE f.fence <= excluded.fence RETURNING fence"
    )
    # ``fence`` in two plain statements, for SQLite's batch writer (``write_batch``): the
    # update of a partition's row, taken when its stored fence is not newer (the usual case:
    # one statement), else the insert of its first row.  Neither changing a row means a newer
    # fence wrote: ``Fenced``.  An upsert with RETURNING costs SQLite a temporary table a
    # statement: about a seventh of the instructions of a one-command transaction.
    update_fence = (
        "UPDATE {t}fences SET fence = {p}, position = {p} WHERE part = {p} AND fence <= {p}"
    )
    insert_fence = "INSERT INTO {t}fences VALUES ({p}, {p}, {p}) ON CONFLICT (part) DO NOTHING"
    select_requests = (
        "SELECT request_id, game_id, seat, outcome FROM {t}requests WHERE request_id IN ({ps})"
    )
    select_seats = "SELECT game_id, seat, hash, bot, deadline_ms FROM {t}seats WHERE game_id = {p}"
    select_deadlines = (
        "SELECT game_id, seat, hash, bot, deadline_ms FROM {t}seats "
        "WHERE seat = -1 AND deadline_ms IS NOT NULL"
    )
    select_fence = "SELECT fence, position FROM {t}fences WHERE part = {p}"

    def __init__(self, prefix: str, placeholder: str, blob: str) -> None:
        self.prefix, self.placeholder, self.blob = prefix, placeholder, blob

    def __call__(self, template: str, n: int = 0) -> str:
        p = self.placeholder
        return template.format(t=self.prefix, p=p, ps=", ".join([p] * n), blob=self.blob)


def _write(cursor: Any, sql: _SQL, write: LedgerWrite | None) -> None:
    """The ledger rows of one transaction, through its cursor (SQLite or psycopg)."""
    if write is None:
        return
    for part, (fence, position) in sorted(write.fences.items()):
        cursor.execute(sql(_SQL.fence), (part, fence, position))
        if cursor.fetchone() is None:
            raise Fenced(fenced_off(part, fence))
    write_rows(cursor, sql, write)


def fenced_off(part: int, fence: int) -> str:
    """``Fenced``'s message."""
    return f"Partition {part} has a newer owner than fence {fence}."


def write_rows(cursor: Any, sql: _SQL, write: LedgerWrite) -> None:
    """The request and seat rows of ``write`` (its fences written before)."""
    for row in write.requests:
        cursor.execute(
            sql(_SQL.insert_request), (row.request_id, row.game_id, row.seat, row.outcome)
        )
    for seat in write.seats:
        cursor.execute(
            sql(_SQL.upsert_seat), (seat.game_id, seat.seat, seat.hash, seat.bot, seat.deadline_ms)
        )


def _seat(row: Any) -> SeatRow:
    return SeatRow(
        game_id=row["game_id"],
        seat=row["seat"],
        hash=row["hash"],
        bot=row["bot"],
        deadline_ms=row["deadline_ms"],
    )


# The library's translation of the driver's errors (``SQLiteTransaction``), most specific first.
_SQLITE_ERRORS: tuple[tuple[type[sqlite3.Error], type[persistence.PersistenceError]], ...] = (
    (sqlite3.InterfaceError, persistence.InterfaceError),
    (sqlite3.DataError, persistence.DataError),
    (sqlite3.OperationalError, persistence.OperationalError),
    (sqlite3.IntegrityError, persistence.IntegrityError),
    (sqlite3.InternalError, persistence.InternalError),
    (sqlite3.ProgrammingError, persistence.ProgrammingError),
    (sqlite3.NotSupportedError, persistence.NotSupportedError),
    (sqlite3.DatabaseError, persistence.DatabaseError),
    (sqlite3.Error, persistence.PersistenceError),
)


class SQLiteLedgerRecorder(SQLiteApplicationRecorder, LedgerReader):
    _sql = _SQL("risk_", "?", "BLOB")

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        sql = self._sql
        self._update_fence_sql = sql(_SQL.update_fence)
        self._insert_fence_sql = sql(_SQL.insert_fence)
        self._request_sql = sql(_SQL.insert_request)
        self._seat_sql = sql(_SQL.upsert_seat)
        # ``write_batch``'s connection, held: taking one from the library's pool and its
        # transaction wrappers cost more than the statements of a one-command transaction.
        # Its statements run on one cursor, held too (``Connection.execute`` makes one each).
        self._writer: SQLiteConnection | None = None
        self._cursor: sqlite3.Cursor | None = None
        self._writer_lock = threading.Lock()

    def write_batch(self, rows: Sequence[EventRowTuple], write: LedgerWrite) -> None:
        """``insert_events(rows, ledger=write)``, one transaction on a connection of its own:
        the same statements (the fence first), the same errors (the library's), and the
        events inserted by one ``executemany``."""
        if self.datastore.pool.is_sqlite_memory_mode:  # a database per connection: the pool's
            self.insert_events(_stored(rows), ledger=write)
            return
        with self._writer_lock:
            writer = self._writer
            if writer is None:
                try:  # made as the pool makes its own (``stores.tune_sqlite``)
                    writer = self._writer = self.datastore.pool._create_connection()
                except sqlite3.Error as e:
                    raise _translated(e) from e
            conn = writer._sqlite_conn
            try:
                cursor = self._cursor
                if cursor is None:
                    cursor = self._cursor = conn.cursor()
                cursor.execute("BEGIN")
                for part, (fence, position) in sorted(write.fences.items()):
                    self._fence(cursor, part, fence, position)
                if write.requests:
                    cursor.executemany(
                        self._request_sql,
                        [(r.request_id, r.game_id, r.seat, r.outcome) for r in write.requests],
                    )
                if write.seats:
                    cursor.executemany(
                        self._seat_sql,
                        [(s.game_id, s.seat, s.hash, s.bot, s.deadline_ms) for s in write.seats],
                    )
                cursor.executemany(self.insert_events_statement, rows)
                conn.commit()
            except BaseException as e:
                self._roll_back(conn)
                if isinstance(e, sqlite3.Error):
                    raise _translated(e) from e
                raise

    def _fence(self, cursor: sqlite3.Cursor, part: int, fence: int, position: int) -> None:
        """``_SQL.fence`` in its two plain statements (``_SQL.update_fence``): the partition's
        row takes ``fence`` and ``position`` unless a newer fence wrote (``Fenced``)."""
        cursor.execute(self._update_fence_sql, (fence, position, part, fence))
        if cursor.rowcount == 0:  # no row yet, or a newer fence's
            cursor.execute(self._insert_fence_sql, (part, fence, position))
            if cursor.rowcount == 0:
                raise Fenced(fenced_off(part, fence))

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        try:
            if conn.in_transaction:
                conn.rollback()
        except sqlite3.Error:  # a connection that cannot roll back is not used again
            self.close_writer()

    def close_writer(self) -> None:
        writer, self._writer = self._writer, None
        self._cursor = None
        if writer is not None:
            with contextlib.suppress(sqlite3.Error):
                writer.close()

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *map(self._sql, _SQL.create)]

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        # The fence first: a stale writer fails before touching anything else.
        _write(c, self._sql, kwargs.get("ledger"))
        return super()._insert_events(c, stored_events, **kwargs)

    def _select(self, template: str, params: Sequence[Any], n: int = 0) -> list[Any]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._sql(template, n), params)
            return list(c.fetchall())

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        if not request_ids:
            return {}
        rows = self._select(_SQL.select_requests, request_ids, len(request_ids))
        return {
            r["request_id"]: RequestRow(r["request_id"], r["game_id"], r["seat"], r["outcome"])
            for r in rows
        }

    def ledger_seats(self, game_id: str) -> dict[int, SeatRow]:
        return {r["seat"]: _seat(r) for r in self._select(_SQL.select_seats, (game_id,))}

    def ledger_deadlines(self) -> list[SeatRow]:
        return [_seat(r) for r in self._select(_SQL.select_deadlines, ())]

    def ledger_fence(self, partition: int) -> tuple[int, int]:
        rows = self._select(_SQL.select_fence, (partition,))
        return (int(rows[0]["fence"]), int(rows[0]["position"])) if rows else (0, 0)

    def ledger_secret(self, name: str) -> bytes:
        with self.datastore.transaction(commit=True) as c:
            return _secret(c, self._sql, name)


def _translated(error: sqlite3.Error) -> persistence.PersistenceError:
    for driver, library in _SQLITE_ERRORS:
        if isinstance(error, driver):
            return library(error)
    return persistence.PersistenceError(error)


def _secret(cursor: Any, sql: _SQL, name: str) -> bytes:
    """The secret ``name``, stored first if there is none (in the cursor's transaction)."""
    cursor.execute(sql(_SQL.insert_secret), (name, os.urandom(32)))
    cursor.execute(sql(_SQL.select_secret), (name,))
    return bytes(cursor.fetchone()["value"])


class MemoryLedgerRecorder(POPOApplicationRecorder, LedgerReader):
    """The ledger of a ``memory://`` store: plain dicts, under the recorder's own lock."""

    def __init__(self) -> None:
        super().__init__()
        self._requests: dict[str, RequestRow] = {}
        self._seats: dict[tuple[str, int], SeatRow] = {}
        self._fences: dict[int, tuple[int, int]] = {}
        self._secrets: dict[str, bytes] = {}
        self._ledger_lock = threading.RLock()

    def _assert_uniqueness(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        super()._assert_uniqueness(stored_events, **kwargs)
        write: LedgerWrite | None = kwargs.get("ledger")
        if write is None:
            return
        for part, (fence, _) in write.fences.items():
            if self._fences.get(part, (0, 0))[0] > fence:
                raise Fenced(fenced_off(part, fence))
        ids = [r.request_id for r in write.requests]
        if len(set(ids)) != len(ids) or any(i in self._requests for i in ids):
            raise IntegrityError(f"Request already recorded: {ids}")

    def _update_table(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super()._update_table(stored_events, **kwargs)
        write: LedgerWrite | None = kwargs.get("ledger")
        if write is not None:
            with self._ledger_lock:
                self._fences.update(write.fences)
                self._requests.update((r.request_id, r) for r in write.requests)
                self._seats.update(((s.game_id, s.seat), s) for s in write.seats)
        return ids

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        with self._ledger_lock:
            return {i: self._requests[i] for i in request_ids if i in self._requests}

    def ledger_seats(self, game_id: str) -> dict[int, SeatRow]:
        with self._ledger_lock:
            return {s.seat: s for (g, _), s in self._seats.items() if g == game_id}

    def ledger_deadlines(self) -> list[SeatRow]:
        with self._ledger_lock:
            return [s for s in self._seats.values() if s.seat == OWNER and s.deadline_ms]

    def ledger_fence(self, partition: int) -> tuple[int, int]:
        with self._ledger_lock:
            return self._fences.get(partition, (0, 0))

    def ledger_secret(self, name: str) -> bytes:
        with self._ledger_lock:
            return self._secrets.setdefault(name, os.urandom(32))


def application_recorder(factory: InfrastructureFactory[Any]) -> ApplicationRecorder:
    """The ledger-aware recorder for the application's store."""
    if isinstance(factory, SQLiteFactory):
        cls: type[Any] = SQLiteLedgerRecorder
        # Before any connection is made.
        background = factory.env.get(BACKGROUND_CHECKPOINTS) == "y"
        tune_sqlite(factory.datastore, background_checkpoints=background)
    elif type(factory).__module__ == "eventsourcing.postgres":
        # Imported only with a PostgreSQL store: its driver is an optional dependency.
        from risk_service.ledger_pg import PostgresLedgerRecorder

        cls = PostgresLedgerRecorder
    else:
        return MemoryLedgerRecorder()
    # Through the factory, which knows each store's table names and creation settings.
    factory.env[factory.APPLICATION_RECORDER_TOPIC] = get_topic(cls)
    recorder: ApplicationRecorder = factory.application_recorder()
    return recorder


def insert_batch(
    recorder: ApplicationRecorder, rows: Sequence[EventRowTuple], write: LedgerWrite
) -> None:
    """Store events (as columns) and ``write`` in one transaction: the SQLite recorder's
    ``write_batch``, else the recorder's ``insert_events``."""
    if isinstance(recorder, SQLiteLedgerRecorder):
        recorder.write_batch(rows, write)
    else:
        recorder.insert_events(_stored(rows), ledger=write)


def _stored(rows: Sequence[EventRowTuple]) -> list[StoredEvent]:
    return [
        StoredEvent(originator_id=g, originator_version=v, topic=t, state=s) for g, v, t, s in rows
    ]


def reader(recorder: object) -> LedgerReader:
    if not isinstance(recorder, LedgerReader):
        raise TypeError(f"{type(recorder).__name__} keeps no ledger.")
    return recorder


def seat_rows(game_id: str, hashes: Iterable[tuple[int, str]]) -> list[SeatRow]:
    return [SeatRow(game_id=game_id, seat=s, hash=h) for s, h in hashes]
