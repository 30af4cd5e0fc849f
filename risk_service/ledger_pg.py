"""The ledger (``risk_service.ledger``) on PostgreSQL: the library's recorder, extended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import sql as pgsql

from risk_service.ledger import _SQL, LedgerReader, RequestRow, SeatRow, _seat, _write


class PostgresLedgerRecorder(PostgresApplicationRecorder, LedgerReader):
    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = pgsql.Identifier(datastore.schema).as_string(None)
        self._sql = _SQL(f"{schema}.risk_", "%s", "BYTEA")
        self.sql_create_statements.extend(
            pgsql.SQL(self._sql(s)).format()
            for s in _SQL.create  # type: ignore[arg-type]
        )

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        # The fence first: a stale writer fails before touching anything else.
        _write(curs, self._sql, kwargs.get("ledger"))
        super()._insert_events(curs, stored_events, **kwargs)

    def _select(self, template: str, params: Sequence[Any], n: int = 0) -> list[Any]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._sql(template, n), params)  # type: ignore[arg-type]
            return list(curs.fetchall())

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        if not request_ids:
            return {}
        rows = self._select(_SQL.select_requests, request_ids, len(request_ids))
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
