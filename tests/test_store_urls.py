"""Strict store URLs: a mistyped path is an error naming it, never a new empty store.

The rule (README, "Command reference"): the default store is created on first use, folder
and all.  Any other SQLite store is started only with `--create` (file and folders); without
it `risk games` lists nothing there and every other command is refused.  A file that is not a
SQLite database is refused.  Every refusal is `Error: … [bad_store]` naming the path.  A store
the service starts is readable by its owner only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from risk_cli.main import cli
from risk_service import GameService, ServiceError

PLAYERS = "Ann,Bob,Cy"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder and XDG_DATA_HOME in tmp_path; no store from the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for var in ("RISK_STORE", "RISK_SEAT", "RISK_REDIS_URL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def risk(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


def listing(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*")}


def test_a_missing_folder_is_created_only_with_create(home: Path) -> None:
    """Without --create no command makes a folder (the mistyped `/nonexistent/dir`)."""
    store = home / "nonexistent" / "dir" / "games.db"
    for args in (("games",), ("show", "g1"), ("new", "--players", PLAYERS), ("demo",)):
        err = risk("--store", f"sqlite://{store}", *args, code=1).stderr
        assert err.startswith("Error: ") and err.rstrip().endswith("[bad_store]"), (args, err)
        assert str(store.parent) in err, err
    assert not (home / "nonexistent").exists()


def test_a_missing_store_is_started_only_with_create(home: Path) -> None:
    """A mistyped --store never starts an empty store: every command, `new` included, is
    `bad_store` naming the path, until --create asks for one."""
    store = f"sqlite://{home / 'games.db'}"
    for args in (("show", "g1"), ("log", "g1"), ("tree", "g1"), ("end", "g1")):
        err = risk("--store", store, *args, code=1).stderr
        assert "[bad_store]" in err and str(home / "games.db") in err, (args, err)
    err = risk("--store", store, "new", "--players", PLAYERS, code=1).stderr
    assert "[bad_store]" in err and "--create" in err
    # A store not started yet holds no game; listing it starts none.
    assert json.loads(risk("--store", store, "games", "--json").stdout) == []
    assert listing(home) == set()
    # A failed `new` announces no store.
    err = risk("--create", "--store", store, "new", "--players", "Ann,Bob", code=1).stderr
    assert err.startswith("Error: ") and "[bad_players]" in err
    # --create starts it, folders included, and says so on stderr.
    new = home / "more" / "new.db"
    created = risk("--create", "--store", f"sqlite://{new}", "new", "--players", PLAYERS)
    assert created.stderr == f"Started a new store sqlite://{new}.\n"
    assert "Created game" in created.stdout and new.is_file()
    # With --json, standard error stays quiet; the store then exists for every command.
    other = f"sqlite://{home / 'other.db'}"
    demo = risk("--create", "--store", other, "demo", "--json")
    assert demo.stderr == "" and json.loads(demo.stdout)["game_id"]
    assert (
        "[bad_store]"
        not in risk("--store", other, "show", json.loads(demo.stdout)["game_id"]).stderr
    )


def test_the_default_store_is_created_with_its_folder(home: Path) -> None:
    assert "No games yet" in risk("games").stdout
    assert (home / "xdg" / "risk" / "games.db").is_file()


def test_a_url_that_is_no_path_is_refused(home: Path) -> None:
    for url in ("::::", ":games.db"):
        err = risk("--store", url, "new", "--players", PLAYERS, code=1).stderr
        assert "[bad_store]" in err and url in err, err
    assert listing(home) == set()


def test_a_file_that_is_not_a_database_is_refused(home: Path) -> None:
    text = home / "hostname"
    text.write_text("my-machine\n")
    for args in (("games",), ("new", "--players", PLAYERS)):
        err = risk("--store", f"sqlite:///{text}", *args, code=1).stderr
        assert err == f"Error: The file {text} is not a SQLite database. [bad_store]\n", err
    assert text.read_text() == "my-machine\n"
    assert listing(home) == {"hostname"}
    with pytest.raises(ServiceError) as raised:
        GameService(f"sqlite://{text}")
    assert raised.value.code == "bad_store"


def test_the_library_creates_only_where_asked(home: Path) -> None:
    """GameService: ``create=False`` opens an existing store only; the default (None) makes
    the file in an existing folder; ``create=True`` makes its folders too."""
    deep = home / "a" / "b" / "games.db"
    for create in (False, None):
        with pytest.raises(ServiceError) as raised:
            GameService(f"sqlite://{deep}", create=create)
        assert raised.value.code == "bad_store" and str(deep.parent) in raised.value.message
    assert not (home / "a").exists()
    with GameService(f"sqlite://{deep}", create=True) as service:
        service.create_schema()
    with GameService(f"sqlite://{deep}", create=False) as service:
        assert service.games() == []
    with GameService(f"sqlite://{home / 'here.db'}") as service:
        service.create_schema()
    assert (home / "here.db").is_file()


def test_a_new_store_and_its_log_are_private(home: Path) -> None:
    """A store holds seeds, hands and missions: the file the service starts, and the SQLite
    write-ahead log and index SQLite makes beside it, are mode 0600."""
    store = home / "private.db"
    with GameService(f"sqlite://{store}", background_checkpoints=False) as service:
        service.create_schema()
        service.new_game("classic", PLAYERS.split(","), seed=1, game_id="g")
        files = [store, store.with_name("private.db-wal"), store.with_name("private.db-shm")]
        assert all(f.exists() for f in files)
        assert [oct(f.stat().st_mode & 0o777) for f in files] == ["0o600"] * 3


def test_a_postgresql_store_that_refuses_says_why(postgres_url: str) -> None:
    """A PostgreSQL store whose database does not exist is `bad_store` naming the reason the
    server gave, not only that the connection pool waited in vain."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(postgres_url)
    missing = urlunsplit(parts._replace(path="/risk_no_such_db", query="connect_timeout=2"))
    with pytest.raises(ServiceError) as caught, GameService(missing) as service:
        service.games()
    assert caught.value.code == "bad_store"
    assert 'database "risk_no_such_db" does not exist' in str(caught.value)
