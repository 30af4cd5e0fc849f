"""Issue 14 goal 7: the audit of a game in a SQLite store reads the rows straight from the file
and leaves them undecoded (``risk_service.read_sqlite.raw_records``); in another store
(PostgreSQL, memory) through the store, undecoded too (``GameService.iter_raw_records``); a
record is decoded only where re-executing its command does not give its events back byte for
byte.

Whatever a row was changed to, the report must be the one the store's own reader gives
(``GameService.iter_records``, decoded records): the same verdict, checks and first divergence.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

import risk_core as rc
from risk_service import GameService, read_sqlite
from risk_service import audit as audit_module
from risk_service.audit import audit_game
from risk_service.exchange import export_records, import_game
from risk_service.store import GameRecord
from tests.historykit import played_records


def played(events: int, seed: int = 5) -> list[GameRecord]:
    """A classic game of about ``events`` events (random legal commands, attacks preferred)."""
    return played_records("raw", events, seed)


@pytest.fixture(scope="module")
def export() -> bytes:
    return export_records("raw", played(1_500))


Row = dict[str, Any]
ITER_RAW_RECORDS = GameService.iter_raw_records


def change_event(row: Row) -> bool:
    """An event's first whole-number field, plus one."""
    for key, value in row["event"].items():
        if isinstance(value, int) and not isinstance(value, bool):
            row["event"][key] = value + 1
            return True
    return False


def change_command(row: Row) -> bool:
    """A command's first whole-number field, plus one."""
    command = row.get("command")
    for key, value in (command or {}).items():
        if isinstance(value, int) and not isinstance(value, bool):
            command[key] = value + 1
            return True
    return False


def unknown_kind(row: Row) -> bool:
    row["event"]["type"] = "no_such_event"
    return True


CHANGES: dict[str, Callable[[Row], bool] | None] = {
    "untouched": None,
    "an event changed": change_event,
    "a command changed": change_command,
    "an unknown event kind": unknown_kind,
    "spaced JSON": lambda row: True,  # the same values, written with spaces
}


def tamper(db: Path, change: Callable[[Row], bool], *, spaced: bool = False) -> int:
    """Change the first row from the history's middle on that ``change`` accepts; its version."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = 'raw' "
            "AND originator_version >= 700 ORDER BY originator_version"
        ).fetchall()
        for version, state in rows:
            row = json.loads(state)
            if change(row):
                text = json.dumps(row) if spaced else json.dumps(row, separators=(",", ":"))
                conn.execute(
                    "UPDATE stored_events SET state = ? WHERE originator_id = 'raw' "
                    "AND originator_version = ?",
                    (text.encode(), version),
                )
                return int(version)
    raise AssertionError("no row to change")


def outcome(call: Callable[[], Any]) -> Any:
    """The report as JSON builtins, or the error (a row the store cannot decode is the
    store's error, whichever reader met it first)."""
    try:
        return msgspec.to_builtins(call())
    except rc.RiskError as e:
        return {"error": e.code, "message": e.message}
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}


def same_report(name: str, fast: Any, through_store: Any) -> None:
    """The undecoded rows' report is the store's records' one, and says what ``name`` did."""
    assert fast == through_store
    if name in ("untouched", "spaced JSON"):
        assert fast["ok"] and fast["verified"] == fast["events"] > 1_000
    elif "error" not in fast:
        assert not fast["ok"] and fast["divergence"]["version"] >= 700


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_sqlite_audit_reads_rows_undecoded_and_reports_as_the_store(
    name: str, export: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7: every change to a stored row is found (or, for the same values spaced
    differently, not held against the game) exactly as the store's decoded records find it."""
    db = tmp_path / "games.db"
    with GameService(f"sqlite://{db}") as service:
        service.create_schema()
        import_game(service, export)
    change = CHANGES[name]
    if change is not None:
        tamper(db, change, spaced=name == "spaced JSON")
    read: list[int] = []
    raw_records = read_sqlite.raw_records

    def counted(*args: Any, **kwargs: Any) -> Any:
        read.append(1)
        return raw_records(*args, **kwargs)

    monkeypatch.setattr(read_sqlite, "raw_records", counted)
    with GameService(f"sqlite://{db}") as service:
        fast = outcome(lambda: audit_game(service, "raw"))
    assert read, "the file was read straight"
    with monkeypatch.context() as m, GameService(f"sqlite://{db}") as service:
        m.setattr(audit_module.read_sqlite, "sqlite_path", lambda url: None)
        through_store = outcome(lambda: audit_game(service, "raw"))
    same_report(name, fast, through_store)


def test_raw_records_group_rows_as_the_store_does(export: bytes, tmp_path: Path) -> None:
    """Issue 14 goal 7: ``read_sqlite.raw_records`` gives the records ``GameService.iter_records``
    gives, whatever the page size (a page may end inside a record), their events as the bytes
    ``risk_core.encode`` gives, and stops at ``upto``."""
    db = tmp_path / "games.db"
    with GameService(f"sqlite://{db}") as service:
        service.create_schema()
        import_game(service, export)
        whole = service.records("raw")
    for upto in (whole[-1].version, whole[len(whole) // 2].version):
        want = [r for r in whole if r.version <= upto]
        for page in (1, 2, 7, 500, 100_000):
            got = list(read_sqlite.raw_records(db, "raw", upto, page))
            assert [(r.version, r.command) for r in got] == [(r.version, r.command) for r in want]
            assert [r.events for r in got] == [rc.encode(list(r.events)) for r in want]


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_postgres_audit_reads_rows_undecoded_and_reports_as_the_store(
    name: str, export: bytes, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same on PostgreSQL, where the rows come through the store
    (``GameService.iter_raw_records``) rather than straight from a file."""
    import psycopg

    from tests.conftest import _fresh_schema

    for url in _fresh_schema(postgres_url):
        with GameService(url) as service:
            service.create_schema()
            import_game(service, export)
            schema = url.rsplit("schema=", 1)[1]
        change = CHANGES[name]
        if change is not None:
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                rows = conn.execute(
                    f"SELECT originator_version, state FROM {schema}.risk_events "
                    "WHERE originator_id = 'raw' AND originator_version >= 700 "
                    "ORDER BY originator_version"
                ).fetchall()
                for version, state in rows:
                    row = json.loads(bytes(state))
                    if change(row):
                        spaced = name == "spaced JSON"
                        text = json.dumps(row) if spaced else json.dumps(row, separators=(",", ":"))
                        conn.execute(
                            f"UPDATE {schema}.risk_events SET state = %s "
                            "WHERE originator_id = 'raw' AND originator_version = %s",
                            (text.encode(), version),
                        )
                        break
        read: list[int] = []

        def counted(self: GameService, *args: Any, read: list[int] = read, **kwargs: Any) -> Any:
            read.append(1)
            return ITER_RAW_RECORDS(self, *args, **kwargs)

        monkeypatch.setattr(GameService, "iter_raw_records", counted)
        with GameService(url) as service:
            fast = outcome(lambda: audit_game(service, "raw"))
        assert read, "the rows were read undecoded"
        with monkeypatch.context() as m, GameService(url) as service:
            m.setattr(GameService, "stores_plain_json", property(lambda self: False))
            through_store = outcome(lambda: audit_game(service, "raw"))
        same_report(name, fast, through_store)
