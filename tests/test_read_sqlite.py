"""issue 13: `risk show GAME` reads the latest view straight from a SQLite store
(``risk_service.read_sqlite``), and shows exactly what the service would.

Each game is played past its first snapshots by bots through the CLI; its `show` output, text
and JSON, as a spectator and as a seat, is compared with the same command answered by the
service (the file read switched off).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from risk_service import GameService, read_sqlite
from risk_service.stores import parse_store
from tests.conftest import Run

RULESETS = ["classic", "napoleon-advanced", "risk2008", "clonewars-standard"]


def service_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the file read off: every view then comes from ``GameService``."""
    monkeypatch.setattr(read_sqlite, "latest_state", lambda path, game_id: None)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_show_from_the_file_is_the_services(
    ruleset: str, risk: Run, risk_store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: `show` read from the file is byte for byte the service's, past snapshots
    (text and --json, spectator and seat), on several rule families."""
    risk("new", "--rules", ruleset, "--players", "Ann,Bob,Cy", "--seed", "3", "--id", "g")
    risk("bot", "g", "--all", "--max-turns", "2", code=1)  # turn_limit: stored as it stands
    path = parse_store(risk_store).path
    assert path is not None
    state = read_sqlite.latest_state(path, "g")
    assert state is not None and state.version > 100  # from a snapshot and the events after
    with GameService(risk_store) as service:
        assert state == service.state("g")
    asked = [("show", "g"), ("show", "g", "--json"), ("show", "g", "--as", "0", "--json")]
    asked.append(("show", "g", "--as", "Bob"))
    fast = [risk(*args).stdout for args in asked]
    service_only(monkeypatch)
    assert [risk(*args).stdout for args in asked] == fast


def test_anything_unusual_is_left_to_the_service(
    risk: Run, risk_store: str, tmp_path: Path
) -> None:
    """issue 13: no such game, no such file, a file that is not a store, a snapshot that does
    not decode: the file read answers None and the service gives its usual answer or error."""
    path = parse_store(risk_store).path
    assert path is not None
    assert read_sqlite.latest_state(path, "nope") is None  # an empty store: no tables yet
    risk("new", "--players", "Ann,Bob,Cy", "--id", "g")
    assert read_sqlite.latest_state(path, "nope") is None
    assert read_sqlite.latest_state(tmp_path / "missing.db", "g") is None
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 10)
    assert read_sqlite.latest_state(junk, "g") is None
    assert "[unknown_game]" in risk("show", "nope", code=1).stderr
    assert read_sqlite.latest_state(path, "g") is not None
    with sqlite3.connect(path) as db:  # a snapshot that does not decode: the store reports it
        db.execute("INSERT INTO stored_snapshots VALUES ('g', 1, 'risk:x', ?)", (b"{}",))
    assert read_sqlite.latest_state(path, "g") is None


# A URL the file read must follow (it names a SQLite file), or leave to the service.
URLS = {
    None: True,
    "": True,
    "games.db": True,
    "./some:name.db": True,
    "~/games.db": True,
    "sqlite:///rel/games.db": True,
    "sqlite:////abs/games.db": True,
    "SQLITE:///x.db": True,
    "sqlite:///~/games.db": True,
    "sqlite://": False,
    "memory://": False,
    "postgresql://postgres@127.0.0.1:5432/test": False,
}


@pytest.mark.parametrize("url", list(URLS))
def test_the_file_is_the_one_the_store_opens(url: str | None) -> None:
    """issue 13: the file read straight is the one ``parse_store`` names; any other store is
    left to the service (None)."""
    mine = read_sqlite.sqlite_path(url)
    if URLS[url]:
        assert mine is not None and mine == parse_store(url).path
    else:
        assert mine is None
