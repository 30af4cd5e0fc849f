"""risk_service: games in an event store (issue "Event-sourced games").

Tests taking ``store_url`` or ``stored`` run on memory://, a SQLite file and the test PostgreSQL
server; ``shared_store_url`` ones on the stores two services can open at once (conftest.py).
A game is generated once by random legal play on the pure engine, then stored command by
command (``stored``: once per kind of store, for the tests that only read it), so the store's
answers can be compared with the engine's own.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

import risk_core
from risk_core import Command, Event, GameState, RuleError, SetupError
from risk_core.model import Attack, BattleFought, EndTurn, GameStarted
from risk_service import GameRecord, GameService, ServiceError, parse_store
from risk_service.app import Game, GameSnapshot
from risk_service.stores import WAL_BACKSTOP_PAGES

OpenService = Callable[[str], GameService]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SEED = 20_250_601
GAME_EVENTS = 250  # enough for two snapshots (every 100 events)


class Played(NamedTuple):
    commands: list[Command]
    events: list[Event]  # the opening, then every command's events


def pick(state: GameState, rnd: random.Random) -> Command:
    """A random legal command; attacks ~70% of the time so that games move on."""
    legal = risk_core.legal_commands(state)
    attacks = [c for c in legal if isinstance(c, Attack)]
    return rnd.choice(attacks) if attacks and rnd.random() < 0.7 else rnd.choice(legal)


GAME_ID = "played"  # the opening's seed commitment names the game


@pytest.fixture(scope="module")
def played() -> Played:
    events = risk_core.start("classic", PLAYERS, seed=SEED, game_id=GAME_ID)
    state = risk_core.replay(events)
    rnd = random.Random(SEED)
    commands: list[Command] = []
    while state.version < GAME_EVENTS:
        command = pick(state, rnd)
        new = risk_core.decide(state, command)
        risk_core.apply_in_place(state, new)
        commands.append(command)
        events.extend(new)
    assert state.phase != "over"
    return Played(commands, events)


def store(service: GameService, played: Played, commands: int | None = None) -> str:
    """The played game (or its first ``commands`` commands) decided again through the store."""
    game_id = service.new_game("classic", PLAYERS, seed=SEED, game_id=GAME_ID)
    for command in played.commands[:commands]:
        service.submit(game_id, command)
    return game_id


class Stored(NamedTuple):
    service: GameService
    game_id: str


@pytest.fixture(scope="module")
def stored(module_store_url: str, played: Played) -> Iterator[Stored]:
    """The played game in each kind of store, for tests that only read it."""
    with GameService(module_store_url) as service:
        service.create_schema()
        yield Stored(service, store(service, played))


def same(a: GameState, b: GameState) -> bool:
    """Equal bytes and equal values: a tuple decoded as a list would fail the second test."""
    return risk_core.encode(a) == risk_core.encode(b) and a == b


# --------------------------------------------------------------------------- round trips
def test_stored_game_has_the_engines_events(stored: Stored, played: Played) -> None:
    """ENG-01: the same seed and commands, decided through the store, give the same events,
    and they come back typed: each its own Struct, tuples as tuples."""
    service, game_id = stored
    events = service.events(game_id)
    assert risk_core.encode(events) == risk_core.encode(played.events)
    assert events == played.events
    assert [type(e) for e in events] == [type(e) for e in played.events]
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert isinstance(battle.attack, tuple)


def test_state_at_every_version(stored: Stored, played: Played) -> None:
    """The state rebuilt from the store equals the engine's replay at every version, from
    snapshots and from the first event; the latest state equals the live one."""
    service, game_id = stored
    live = risk_core.replay(played.events)
    assert same(service.state(game_id), live)
    for version in range(1, len(played.events) + 1):
        expected = risk_core.replay(played.events[:version])
        assert same(service.state(game_id, at=version), expected), version
        assert same(service.state(game_id, at=version, snapshots=False), expected), version


def test_snapshots_every_100_events(stored: Stored, played: Played) -> None:
    """Snapshots are taken at exact multiples of 100 engine events and hold typed states."""
    service, game_id = stored
    snapshots = service.application.snapshots
    assert snapshots is not None
    taken = list(snapshots.get(game_id))
    assert [s.originator_version for s in taken] == [100, 200]
    for snapshot in taken:
        assert isinstance(snapshot, GameSnapshot)
        assert same(snapshot.state, risk_core.replay(played.events[: snapshot.originator_version]))


def test_library_replay_agrees(stored: Stored, played: Played) -> None:
    """The Game aggregate rebuilt by eventsourcing's own repository (snapshot, then events
    through the msgspec mapper) equals the engine's state."""
    service, game_id = stored
    game: Game = service.application.repository.get(game_id)
    assert isinstance(game, Game)
    assert game.version == len(played.events)
    assert same(game.state, risk_core.replay(played.events))


def test_records_pair_each_command_with_its_events(stored: Stored, played: Played) -> None:
    """Every accepted command is recorded with its events, for audit; the opening has none."""
    service, game_id = stored
    opening = risk_core.start("classic", PLAYERS, seed=SEED, game_id=GAME_ID)

    records = service.records(game_id)
    assert records[0] == GameRecord(version=len(opening), command=None, events=tuple(opening))
    assert [r.command for r in records[1:]] == played.commands
    assert [e for r in records for e in r.events] == played.events
    versions = [r.version for r in records]
    assert versions == sorted(versions) and versions[-1] == len(played.events)
    for before, record in zip(records, records[1:], strict=False):
        assert record.version == before.version + len(record.events)


# --------------------------------------------------------------------------- commands
def test_rejected_command_appends_nothing(
    store_url: str, open_service: OpenService, played: Played
) -> None:
    """A command the rules refuse raises the engine's RuleError and stores nothing."""
    service = open_service(store_url)
    game_id = store(service, played, commands=40)
    before = service.state(game_id)
    acting = risk_core.to_act(before)
    assert acting is not None
    idle = (acting + 1) % len(PLAYERS)

    with pytest.raises(RuleError) as err:
        service.submit(game_id, EndTurn(seat=idle))
    assert err.value.code == "not_your_turn"
    assert service.events(game_id) == played.events[: before.version]
    assert same(service.state(game_id), before)
    assert same(service.state(game_id, at=before.version, snapshots=False), before)

    # The game goes on from the untouched state.
    command = risk_core.legal_commands(before)[0]
    events = service.submit(game_id, command, expected_version=before.version)
    assert service.state(game_id).version == before.version + len(events)


def test_stale_expected_version_is_a_conflict(
    store_url: str, open_service: OpenService, played: Played
) -> None:
    service = open_service(store_url)
    game_id = store(service, played, commands=40)
    state = service.state(game_id)
    command = risk_core.legal_commands(state)[0]

    with pytest.raises(ServiceError) as err:
        service.submit(game_id, command, expected_version=state.version - 1)
    assert err.value.code == "conflict"
    assert service.state(game_id).version == state.version


def test_racing_writers_one_wins(
    shared_store_url: str,
    open_service: OpenService,
    played: Played,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two writers decide on the same version: exactly one append succeeds, the other is told
    "conflict" and stores nothing; after reloading it can play on."""
    first = open_service(shared_store_url)
    second = open_service(shared_store_url)
    game_id = store(first, played, commands=40)
    state = second.state(game_id)
    command = risk_core.legal_commands(state)[0]

    # Both writers must have decided before either appends: hold each at a barrier.
    barrier = threading.Barrier(2, timeout=20)
    decide = risk_core.decide

    def decide_then_wait(s: GameState, c: Command) -> list[Event]:
        events = decide(s, c)
        barrier.wait()
        return events

    monkeypatch.setattr(risk_core, "decide", decide_then_wait)
    outcomes: dict[str, object] = {}

    def submit(name: str, service: GameService) -> None:
        try:
            outcomes[name] = service.submit(game_id, command, expected_version=state.version)
        except ServiceError as e:
            outcomes[name] = e

    threads = [
        threading.Thread(target=submit, args=(name, svc))
        for name, svc in (("first", first), ("second", second))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    monkeypatch.setattr(risk_core, "decide", decide)

    errors = [o for o in outcomes.values() if isinstance(o, ServiceError)]
    won = [o for o in outcomes.values() if isinstance(o, list)]
    assert len(errors) == 1 and len(won) == 1, outcomes
    assert errors[0].code == "conflict"
    assert "another writer" in errors[0].message
    assert first.events(game_id) == played.events[: state.version] + won[0]
    assert same(first.state(game_id), second.state(game_id))

    # The loser reloads and plays on.
    for service in (first, second):
        latest = service.state(game_id)
        service.submit(
            game_id, risk_core.legal_commands(latest)[0], expected_version=latest.version
        )
    assert same(first.state(game_id), second.state(game_id))


# --------------------------------------------------------------------------- games
def test_games_lists_every_game(store_url: str, open_service: OpenService) -> None:
    service = open_service(store_url)
    ids = [
        service.new_game("classic", ["A", "B", "C"], seed=1),
        service.new_game("classic-conquest", PLAYERS, seed=2, game_id="conquest-1"),
        service.new_game("classic", ["X", "Y", "Z"], seed=3),
    ]
    state = service.state(ids[1])
    service.submit(ids[1], risk_core.legal_commands(state)[0])

    summaries = service.games()
    assert [s.game_id for s in summaries] == ids
    conquest = summaries[1]
    assert conquest.ruleset == "classic-conquest"
    assert conquest.players == tuple(PLAYERS)
    assert conquest.version == service.state(ids[1]).version > state.version
    assert conquest.phase == "setup" and conquest.winner is None
    assert conquest.current_player == risk_core.to_act(service.state(ids[1]))


def test_new_game_ids_and_seeds(store_url: str, open_service: OpenService) -> None:
    """Without a seed the service draws one (recorded in game_started, ENG-08); ids are
    generated short and unique, or given and then unique too."""
    service = open_service(store_url)
    a = service.new_game("classic", PLAYERS)
    b = service.new_game("classic", PLAYERS)
    assert a != b and len(a) == 8
    seeds = [service.events(g, upto=1)[0] for g in (a, b)]
    assert all(isinstance(s, GameStarted) and 0 <= s.seed < 2**64 for s in seeds)

    service.new_game("classic", PLAYERS, seed=5, game_id="mine")
    with pytest.raises(ServiceError) as err:
        service.new_game("classic", PLAYERS, seed=6, game_id="mine")
    assert err.value.code == "game_exists"
    with pytest.raises(ServiceError) as err:
        service.new_game("classic", PLAYERS, game_id="no spaces")
    assert err.value.code == "bad_game_id"
    with pytest.raises(SetupError):
        service.new_game("classic", ["Solo"])
    assert [s.game_id for s in service.games()] == [a, b, "mine"]


def test_new_game_from_opening_events(store_url: str, open_service: OpenService) -> None:
    """A scenario's ready-made opening is stored as it is (here with scripted dice, ENG-04)."""
    service = open_service(store_url)
    opening = risk_core.start("classic", PLAYERS, seed=9, dice=[6, 6, 6, 1, 1])
    game_id = service.new_game("classic", PLAYERS, opening=opening)
    assert service.events(game_id) == opening
    assert service.records(game_id) == [
        GameRecord(version=len(opening), command=None, events=tuple(opening))
    ]

    with pytest.raises(SetupError) as err:
        service.new_game("classic-conquest", PLAYERS, opening=opening)
    assert err.value.code == "bad_opening"
    with pytest.raises(RuleError):
        service.new_game("classic", PLAYERS, opening=opening[1:])


# --------------------------------------------------------------------------- errors
def test_unknown_game_and_bad_versions(store_url: str, open_service: OpenService) -> None:
    service = open_service(store_url)
    for call in (
        lambda: service.state("nope"),
        lambda: service.state("nope", at=3),
        lambda: service.events("nope"),
        lambda: service.records("nope"),
        lambda: service.submit("nope", EndTurn(seat=0)),
    ):
        with pytest.raises(ServiceError) as err:
            call()
        assert err.value.code == "unknown_game"

    game_id = service.new_game("classic", PLAYERS, seed=1)
    n = service.state(game_id).version
    assert service.events(game_id, upto=0) == []
    assert len(service.events(game_id, upto=n)) == n
    for call in (
        lambda: service.state(game_id, at=0),
        lambda: service.state(game_id, at=n + 1),
        lambda: service.state(game_id, at=n + 1, snapshots=False),
        lambda: service.events(game_id, upto=n + 1),
        lambda: service.events(game_id, upto=-1),
    ):
        with pytest.raises(ServiceError) as err:
            call()
        assert err.value.code == "bad_version"


def test_states_handed_out_are_copies(store_url: str, open_service: OpenService) -> None:
    """Changing a returned state cannot corrupt the service's cached one."""
    service = open_service(store_url)
    game_id = service.new_game("classic", PLAYERS, seed=4)
    state = service.state(game_id)
    state.armies[0] += 100
    assert service.state(game_id).armies[0] == state.armies[0] - 100


# --------------------------------------------------------------------------- stores
def test_create_schema_is_idempotent(store_url: str, open_service: OpenService) -> None:
    service = open_service(store_url)
    game_id = service.new_game("classic", PLAYERS, seed=1)
    service.create_schema()
    service.create_schema()
    assert [s.game_id for s in service.games()] == [game_id]


def test_processes_can_create_the_schema_at_once(shared_store_url: str) -> None:
    """Several processes starting together each call create_schema(): none of them fails."""
    services = [GameService(shared_store_url) for _ in range(3)]
    errors: list[BaseException] = []

    def create(service: GameService) -> None:
        try:
            service.create_schema()
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=create, args=(s,)) for s in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    try:
        assert errors == []
        game_id = services[0].new_game("classic", PLAYERS, seed=1)
        assert [s.game_id for s in services[2].games()] == [game_id]
    finally:
        for s in services:
            s.close()


def test_background_checkpoints(tmp_path: Path, played: Played) -> None:
    """A long-running writer's SQLite log is copied into the database file by a thread of its
    own, not inside its commits: these only checkpoint past a backstop of log pages."""
    path = tmp_path / "games.db"
    with GameService(f"sqlite://{path}") as service:
        service.create_schema()
        recorder = service.application.recorder
        with recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute("PRAGMA wal_autocheckpoint")
            assert c.fetchone()[0] == WAL_BACKSTOP_PAGES
        empty = path.stat().st_size
        game_id = store(service, played)
        deadline = time.monotonic() + 10
        while path.stat().st_size == empty and time.monotonic() < deadline:
            time.sleep(0.05)
        assert path.stat().st_size > empty  # the log reached the database file
        threads = {t.name for t in threading.enumerate()}
        assert "wal-checkpointer" in threads
    assert "wal-checkpointer" not in {t.name for t in threading.enumerate()}
    with GameService(f"sqlite://{path}", background_checkpoints=False) as service:
        assert service.events(game_id) == played.events
        with service.application.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
            c.execute("PRAGMA wal_autocheckpoint")
            assert c.fetchone()[0] == 1000  # SQLite's own: checkpoints inside commits
        assert "wal-checkpointer" not in {t.name for t in threading.enumerate()}


def test_store_needs_its_schema(shared_store_url: str) -> None:
    """Tables are created only by create_schema(); without them the error says so."""
    with GameService(shared_store_url) as service:
        with pytest.raises(ServiceError) as err:
            service.new_game("classic", PLAYERS, seed=1)
        assert err.value.code == "bad_store"
        assert "create_schema" in err.value.message


def test_store_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    default = tmp_path / "data" / "risk" / "games.db"

    assert parse_store("memory://").env["PERSISTENCE_MODULE"] == "eventsourcing.popo"
    for url, path in (
        (None, default),
        ("sqlite://", default),
        ("sqlite:///abs/games.db", Path("/abs/games.db")),
        ("sqlite:////abs/games.db", Path("/abs/games.db")),
        ("sqlite://rel/games.db", tmp_path / "rel" / "games.db"),
        ("./bare.db", tmp_path / "bare.db"),
    ):
        config = parse_store(url)
        assert (config.kind, config.path) == ("sqlite", path), url
        assert config.env["SQLITE_DBNAME"] == str(path)
        assert config.url == f"sqlite://{path}"
        assert config.env["CREATE_TABLE"] == "n"

    pg = parse_store("postgresql://ann:s%40cret@db.example:6543/games?schema=risk")
    assert pg.url == "postgresql://ann:***@db.example:6543/games?schema=risk"
    assert {k: pg.env[k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_PORT")} == {
        "POSTGRES_USER": "ann",
        "POSTGRES_PASSWORD": "s@cret",
        "POSTGRES_PORT": "6543",
    }
    assert pg.env["POSTGRES_DBNAME"] == "games" and pg.env["POSTGRES_SCHEMA"] == "risk"
    for bad in ("ftp://x", "postgresql://h/db?sslmode=require", "postgresql://h:port/db"):
        with pytest.raises(ValueError):
            parse_store(bad)
        with pytest.raises(ServiceError) as err:
            GameService(bad)
        assert err.value.code == "bad_store"


def test_default_store_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RISK_STORE names the store when none is given; the library's own variables in the
    environment do not redirect it; the default file's directory is created on first use."""
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    monkeypatch.setenv("RISK_STORE", f"sqlite://{tmp_path / 'env' / 'g.db'}")
    with GameService() as service:
        service.create_schema()
        service.new_game("classic", PLAYERS, seed=1)
    assert (tmp_path / "env" / "g.db").exists()

    monkeypatch.delenv("RISK_STORE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with GameService() as service:
        assert service.store_url == f"sqlite://{tmp_path / 'xdg' / 'risk' / 'games.db'}"
        assert (tmp_path / "xdg" / "risk").is_dir()


def test_unreachable_server_is_a_bad_store(postgres_url: str) -> None:
    with pytest.raises(ServiceError) as err:
        GameService("postgresql://postgres@127.0.0.1:1/test?connect_timeout=1")
    assert err.value.code == "bad_store"
