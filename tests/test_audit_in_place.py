"""Issue 14 goal 7: an audit decides each recorded command on its own state where the rule set
decides in place (``RuleSet.decide_in_place``: nothing copied, each event applied once).

Whatever the history holds, the report must be the one deciding on a copy gives (``decide``,
then the events applied as accepted): the same verdict, checks and first divergence, for a
stored game read straight from SQLite, for an export file and for an import.  A branch point
that cuts a record short, an import's snapshot inside a record and a refusal after the state
has moved are where the two ways part; each is checked here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from test_history import record

import risk_core as rc
from risk_core import RuleError, bots
from risk_core.rulesets.base import RuleSet
from risk_service import GameService, history
from risk_service.audit import audit_game
from risk_service.exchange import audit_export, export_game, import_game

Row = dict[str, Any]
# As inserted, after a rowid.
ROWID_ORDER = "SELECT originator_version FROM stored_events WHERE rowid > ? ORDER BY rowid"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store with a classic game and a branch of it cut inside a command."""
    path = tmp_path_factory.mktemp("in-place") / "games.db"
    with GameService(f"sqlite://{path}") as service:
        service.create_schema()
        record(service, "classic", "g", seed=13)
        records = service.records("g")
        inside = next(  # after the rows the tests change (from version 150 on)
            r.version - 1
            for r in records
            if r.version > 250 and len(r.events) > 2 and r.command is not None
        )
        assert history.branch(service, "g", inside, game_id="cut").cut > 0
        state = service.state("cut")
        for _ in range(40):  # the branch plays on from its cut record's first events
            rc.apply_in_place(state, service.submit("cut", bots.choose(state, seed=3)))
    return path


@pytest.fixture
def on_copy(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Makes every rule set decide on a copy (the way the audit went before)."""

    def use() -> None:
        monkeypatch.setattr(RuleSet, "decides_in_place", property(lambda self: False))

    return use


@pytest.fixture
def in_place_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the commands decided in place."""
    calls: list[int] = []
    original = RuleSet.decide_in_place

    def counted(self: RuleSet, state: rc.GameState, cmd: rc.Command) -> list[rc.Event]:
        calls.append(state.version)
        return original(self, state, cmd)

    monkeypatch.setattr(RuleSet, "decide_in_place", counted)
    return calls


def tampered(source: Path, target: Path, game: str, change: Callable[[Row], bool]) -> None:
    """A copy of the store with the first row from version 150 on that ``change`` accepts."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    with sqlite3.connect(target) as conn:
        rows = conn.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
            "AND originator_version >= 150 ORDER BY originator_version",
            (game,),
        ).fetchall()
        for version, state in rows:
            row = json.loads(state)
            if change(row):
                conn.execute(
                    "UPDATE stored_events SET state = ? WHERE originator_id = ? "
                    "AND originator_version = ?",
                    (json.dumps(row, separators=(",", ":")).encode(), game, version),
                )
                return
    raise AssertionError("no row to change")


def first_int(part: str) -> Callable[[Row], bool]:
    def change(row: Row) -> bool:
        for key, value in (row.get(part) or {}).items():
            if isinstance(value, int) and not isinstance(value, bool) and key != "seat":
                row[part][key] = value + 1
                return True
        return False

    return change


def other_seat(row: Row) -> bool:
    command = row.get("command")
    if not command or "seat" not in command:
        return False
    command["seat"] = (command["seat"] + 1) % 4
    return True


def spaced_event(row: Row) -> bool:
    """The same event with its fields in another order: other bytes, the same values."""
    row["event"] = dict(reversed(list(row["event"].items())))
    return len(row["event"]) > 2


CHANGES: dict[str, Callable[[Row], bool] | None] = {
    "untouched": None,
    "an event changed": first_int("event"),
    "a command changed": first_int("command"),
    "another seat's command": other_seat,
    "an event's fields reordered": spaced_event,
}


def outcome(call: Callable[[], Any]) -> Any:
    try:
        return msgspec.to_builtins(call())
    except rc.RiskError as e:
        return {"error": e.code, "message": e.message}


@pytest.mark.parametrize("game", ["g", "cut"])
@pytest.mark.parametrize("name", list(CHANGES))
def test_reports_are_those_of_deciding_on_a_copy(
    games: Path,
    tmp_path: Path,
    game: str,
    name: str,
    on_copy: Callable[[], None],
    in_place_calls: list[int],
) -> None:
    """A stored game (read straight from SQLite) and its export, untouched or altered, get
    the report they get when every command is decided on a copy; the branch's cut record is
    decided on a copy, every other command in place."""
    path = games
    change = CHANGES[name]
    if change is not None:
        path = tmp_path / "changed.db"
        tampered(games, path, game, change)
    with GameService(f"sqlite://{path}") as service:
        stored = outcome(lambda: audit_game(service, game))
        exported = export_game(service, game)
        from_file = outcome(lambda: audit_export(exported))
        decided_in_place = len(in_place_calls)
        on_copy()
        assert outcome(lambda: audit_game(service, game)) == stored
        assert outcome(lambda: audit_export(exported)) == from_file
    assert len(in_place_calls) == decided_in_place > 100  # none once on a copy
    if change in (None, spaced_event):  # the same events, in other bytes: they pass
        assert stored["ok"] and from_file["ok"]
    else:
        assert not stored["ok"]  # each change is caught
    if game == "cut" and change is None:
        assert any("cuts this record" in g for g in stored["given"])


def test_a_refusal_after_the_state_moved_is_the_refusal_on_a_copy(
    games: Path, monkeypatch: pytest.MonkeyPatch, on_copy: Callable[[], None]
) -> None:
    """A command refused part-way when decided in place (its first events already applied to
    the audit's state) is reported as deciding it on a copy reports it: the refusal, not what
    deciding again on the moved state would say."""
    with GameService(f"sqlite://{games}") as service:
        target = next(
            r.version - len(r.events) for r in service.records("g")[40:] if len(r.events) > 1
        )
        in_place, on_a_copy = RuleSet.decide_in_place, RuleSet.decide

        def refuse(state: rc.GameState) -> None:
            raise RuleError("late_refusal", f"Refused after the first event, at {target}.")

        def late_in_place(self: RuleSet, state: rc.GameState, cmd: rc.Command) -> list[rc.Event]:
            if state.version != target:
                return in_place(self, state, cmd)
            rc.apply_in_place(state, on_a_copy(self, state, cmd)[:1])  # the state moves on
            refuse(state)
            raise AssertionError

        def late_on_copy(self: RuleSet, state: rc.GameState, cmd: rc.Command) -> list[rc.Event]:
            if state.version == target:
                refuse(state)
            if state.version == target + 1:  # decided again on the moved state
                raise RuleError("moved", "Decided on a state part-way through a command.")
            return on_a_copy(self, state, cmd)

        monkeypatch.setattr(RuleSet, "decide_in_place", late_in_place)
        monkeypatch.setattr(RuleSet, "decide", late_on_copy)
        report = audit_game(service, "g")
        exported = audit_export(export_game(service, "g"))
        on_copy()
        expected = msgspec.to_builtins(audit_game(service, "g"))
    d = report.divergence
    assert d is not None and d.version == target + 1 and "[late_refusal]" in d.reason
    assert msgspec.to_builtins(report) == expected
    assert exported.divergence == report.divergence


def test_an_import_decided_in_place_stores_what_a_copy_would(
    games: Path, tmp_path: Path, on_copy: Callable[[], None], in_place_calls: list[int]
) -> None:
    """An import decides in place too, except for a record spanning a snapshot's version: the
    rows and snapshots it stores are those of an import deciding on a copy, in version order
    (the branch's, after its parent's: a branch is imported where its parent is)."""
    with GameService(f"sqlite://{games}") as service:
        data, parent = export_game(service, "cut"), export_game(service, "g")
    stored: list[dict[str, list[tuple[Any, ...]]]] = []
    for way in ("in place", "on a copy"):
        if way == "on a copy":
            on_copy()
        db = tmp_path / f"{way}.db"
        with GameService(f"sqlite://{db}") as service:
            service.create_schema()
            import_game(service, parent)
        with sqlite3.connect(db) as conn:  # the rows after the parent's are the branch's
            (after,) = conn.execute("SELECT max(rowid) FROM stored_events").fetchone()
            parent_ids = {i for (i,) in conn.execute("SELECT originator_id FROM stored_events")}
        with GameService(f"sqlite://{db}") as service:
            import_game(service, data, game_id="i")
        tables = {}
        with sqlite3.connect(db) as conn:
            for table, body in (("stored_events", "event"), ("stored_snapshots", "state")):
                query = f"SELECT originator_id, originator_version, topic, state FROM {table}"
                # Everything but the time of the import.
                tables[table] = sorted(
                    (v, topic, json.loads(state)[body], json.loads(state).get("command"))
                    for gid, v, topic, state in conn.execute(query)
                    if gid not in parent_ids
                )
            # Many rows per INSERT (``store.ROWS_PER_INSERT``) keep the notification log in
            # version order: v1 first.
            logged = [v for (v,) in conn.execute(ROWID_ORDER, (after,))]
            assert logged == list(range(1, len(logged) + 1)) and len(logged) > 200
        stored.append(tables)
    assert in_place_calls and stored[0] == stored[1]
    assert len(stored[0]["stored_snapshots"]) == len(stored[0]["stored_events"]) // 100 > 1
