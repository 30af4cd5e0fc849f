"""The ledger (``risk_service.ledger``) on PostgreSQL: the library's recorder, extended.

Without the library's table-wide lock: its recorder takes ``LOCK TABLE … IN EXCLUSIVE MODE``
on the events table (and sends a ``NOTIFY``, which serialises commits on a lock of its own)
in every insert, so that notification ids are committed in the order they are issued, for
readers that tail the notification log.  Nothing here tails it: the games and branch points
are listed by a scan of the whole log each time, and what the domain needs ordered is each
game's own events, which the primary key (game id, version) orders and guards (two writers of
one game collide on it).  So workers on PostgreSQL write their games side by side, each
waiting only for its own commit (``scripts/bench_service.py`` counts lock waits).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import DataError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import errors as pgerrors
from psycopg import sql as pgsql

from risk_service.ledger import (
    _SQL,
    Fenced,
    LedgerReader,
    LedgerWrite,
    RequestRow,
    SeatRow,
    _seat,
    _secret,
    fenced_off,
    write_rows,
)

_SELECT_REQUESTS = (
    "SELECT request_id, game_id, seat, outcome FROM {t}requests WHERE request_id = ANY({p})"
)
# A partition's fence as one statement that fails when a newer owner wrote: its upsert then
# returns no row, and the text the statement casts to an integer is a marked one naming the
# partition and fence, not "0".  So a transaction's statements go to the server together
# (psycopg's pipeline) instead of the fence's answer being awaited first: two round trips a
# transaction instead of three.  The fence still runs first, and a failed statement ends the
# pipeline: a stale owner is still told ``Fenced`` before anything else can fail.  (The cast
# depends on the row count, so the planner cannot fold it into an error for every call.)
_FENCED_MARK = "risk-fenced: "
_FENCE_OR_FAIL = (
    "WITH f AS (" + _SQL.fence + ") "
    "SELECT CAST(CASE WHEN count(*) = 0 THEN {p} ELSE '0' END AS integer) FROM f"
)
# The text cast names the partition and fence; the server's message quotes it (in any of its
# languages), so they are read back from it as written.
_FENCED_TEXT = re.compile(re.escape(_FENCED_MARK) + r"(-?\d+):(-?\d+)")
# Rows an INSERT statement takes: psycopg keeps the parse of a statement of up to 50
# parameters (four a row), and parses a longer one again every time.
FEW_ROWS = 12


class PostgresLedgerRecorder(PostgresApplicationRecorder, LedgerReader):
    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = pgsql.Identifier(datastore.schema).as_string(None)
        self._sql = _SQL(f"{schema}.risk_", "%s", "BYTEA")
        self.sql_create_statements.extend(
            pgsql.SQL(self._sql(s)).format()
            for s in _SQL.create  # type: ignore[arg-type,unused-ignore]
        )
        table = pgsql.Identifier(self.events_table_name).as_string(None)
        columns = f"{schema}.{table} (originator_id, originator_version, topic, state)"
        self._insert_few = [
            f"INSERT INTO {columns} VALUES " + ", ".join(["(%s, %s, %s, %b)"] * n)
            for n in range(FEW_ROWS + 1)
        ]
        self._copy = f"COPY {columns} FROM STDIN (FORMAT BINARY)"
        self._fence_or_fail = self._sql(_FENCE_OR_FAIL)

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        try:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
        except DataError as e:
            found = _FENCED_TEXT.search(str(e.__cause__ or ""))
            if isinstance(e.__cause__, pgerrors.InvalidTextRepresentation) and found:
                raise Fenced(fenced_off(int(found[1]), int(found[2]))) from None
            raise
        return ids

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        # The fence first: a stale writer fails before touching anything else.
        write: LedgerWrite | None = kwargs.get("ledger")
        if write is not None:
            for part, (fence, position) in sorted(write.fences.items()):
                stale = f"{_FENCED_MARK}{part}:{fence}"
                curs.execute(self._fence_or_fail, (part, fence, position, stale))
            write_rows(curs, self._sql, write)
        super()._insert_events(curs, stored_events, **kwargs)

    def _insert_stored_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        """The rows as plain parameters, each state sent as binary (``%b``), ``FEW_ROWS`` to a
        statement (a command's rows in one), with no table lock and no notification (see the
        module docstring).  The library passes them as one array of a composite type, which
        psycopg writes out as text, escaping every byte of every state with regular
        expressions.  The same rows, in the same order (their notification ids too), and the
        same errors: a version taken is the key's ``UniqueViolation``.  ``insert_events``
        returns no ids (none are read)."""
        for start in range(0, len(stored_events), FEW_ROWS):
            part = stored_events[start : start + FEW_ROWS]
            values: list[Any] = []
            for e in part:
                values += (e.originator_id, e.originator_version, e.topic, e.state)
            curs.execute(self._insert_few[len(part)], values)

    def copy_events(self, curs: Any, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        """Many new rows (an import's), by one binary ``COPY``: nothing escaped, nothing sent
        row by row.  A version taken fails the copy (the key's ``UniqueViolation``)."""
        with curs.copy(self._copy) as copy:
            copy.set_types([self.datastore.originator_id_type, "int8", "text", "bytea"])
            for row in rows:
                copy.write_row(row)

    def _fetch_ids_after_insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        return None  # the rows' notification ids: nothing here reads them

    def _lock_table(self, curs: Any) -> None:
        pass  # no table-wide lock: see the module docstring

    def _notify_channel(self, curs: Any) -> None:
        pass  # nobody listens, and a NOTIFY makes commits wait on each other

    def _select(self, template: str, params: Sequence[Any], n: int = 0) -> list[Any]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._sql(template, n), params)  # type: ignore[arg-type,unused-ignore]
            return list(curs.fetchall())

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        if not request_ids:
            return {}
        # One array parameter: one statement whatever the count, which psycopg parses once
        # and PostgreSQL prepares once (an IN list is a new statement for every length, and
        # psycopg parses one of more than 50 parameters again every time: a stored game's
        # view asks for a few hundred ids at a time, ``deadlines.timeouts``).
        rows = self._select(_SELECT_REQUESTS, (list(request_ids),))
        return {
            r["request_id"]: RequestRow(
                r["request_id"], r["game_id"], r["seat"], bytes(r["outcome"])
            )
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
        with self.datastore.transaction(commit=True) as curs:
            return _secret(curs, self._sql, name)
