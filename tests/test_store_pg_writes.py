"""How events reach PostgreSQL (``risk_service.ledger_pg``): a command's few rows in one INSERT,
more twelve at a time, an import's by one binary COPY.  Each way stores, byte for byte and in
order, the rows the library's own insert stores (issue 14: an import on PostgreSQL spent most
of its time having psycopg escape every state as text for the library's composite-array
parameter).  And how ledger requests are found by id: one array parameter, whatever the count.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder

from risk_service import GameService
from risk_service.ledger import LedgerWrite, RequestRow, _write
from risk_service.ledger_pg import FEW_ROWS, PostgresLedgerRecorder

TOPIC = "risk_service.app:Game.Recorded"
Row = tuple[str, int, str, bytes]


@pytest.fixture
def recorder(postgres_url: str) -> Iterator[PostgresLedgerRecorder]:
    from tests.conftest import _fresh_schema

    for url in _fresh_schema(postgres_url):
        with GameService(url) as service:
            service.create_schema()
            made = service.application.recorder
            assert isinstance(made, PostgresLedgerRecorder)
            yield made


def rows_of(game: str, n: int) -> list[Row]:
    # Every byte value in each state: nothing may be escaped or cut on the way.
    return [(game, v, TOPIC, b'{"v":%d}' % v + bytes(range(256))) for v in range(1, n + 1)]


def stored(recorder: PostgresLedgerRecorder, game: str) -> list[Row]:
    return [
        (str(e.originator_id), e.originator_version, e.topic, bytes(e.state))
        for e in recorder.select_events(game)
    ]


def test_each_way_stores_the_rows_the_library_stores(recorder: PostgresLedgerRecorder) -> None:
    few, many = FEW_ROWS, FEW_ROWS + 5
    ours = rows_of("ours", few + many + 30)
    theirs = rows_of("theirs", len(ours))
    with recorder.datastore.transaction(commit=True) as cursor:
        recorder._insert_stored_events(cursor, [StoredEvent(*r) for r in ours[:few]])
        recorder._insert_stored_events(cursor, [StoredEvent(*r) for r in ours[few : few + many]])
        recorder.copy_events(cursor, ours[few + many :])
        # The library's own insert (its composite-type array), for the same rows.
        library = super(PostgresApplicationRecorder, recorder)
        library._insert_stored_events(cursor, [StoredEvent(*r) for r in theirs])
    assert stored(recorder, "ours") == ours
    assert [row[1:] for row in stored(recorder, "theirs")] == [row[1:] for row in ours]
    # Notification ids follow the order the rows were given in, as the library's do.
    listed = recorder.select_notifications(None, 1000)
    versions = [n.originator_version for n in listed if n.originator_id == "ours"]
    assert versions == [row[1] for row in ours]


@pytest.mark.parametrize("way", ["few", "many", "copy"])
def test_a_version_taken_stores_nothing(recorder: PostgresLedgerRecorder, way: str) -> None:
    first = rows_of("g", 3)
    with recorder.datastore.transaction(commit=True) as cursor:
        recorder.copy_events(cursor, first)
    # New versions, then one taken: in a command's one statement, in the last of several, or
    # at the end of a copy.
    clash = rows_of("g", 4 if way == "few" else 40)[3:] + first[-1:]
    transaction = recorder.datastore.transaction(commit=True)
    with pytest.raises(IntegrityError), transaction as cursor:
        if way == "copy":
            recorder.copy_events(cursor, clash)
        else:
            recorder._insert_stored_events(cursor, [StoredEvent(*r) for r in clash])
    assert stored(recorder, "g") == first


def test_requests_are_found_by_id_whatever_their_count(recorder: PostgresLedgerRecorder) -> None:
    """The ledger's lookup (a batch's duplicates, a stored view's timeouts): the rows of the ids
    asked for that exist, for one id and for hundreds at once."""
    rows = [RequestRow(f"timeout:g:{v}", "g", v % 4, b'{"ok":true}') for v in range(0, 600, 3)]
    with recorder.datastore.transaction(commit=True) as cursor:
        _write(cursor, recorder._sql, LedgerWrite(requests=rows))
    by_id = {r.request_id: r for r in rows}
    for asked in ([], ["timeout:g:3"], ["timeout:g:4"], [f"timeout:g:{v}" for v in range(600)]):
        found = recorder.ledger_requests(asked)
        assert found == {i: by_id[i] for i in asked if i in by_id}
