"""Store URLs → eventsourcing settings.

* ``memory://`` — in-process, gone on exit (tests);
* ``sqlite:///abs/path/games.db`` — an embedded file (``sqlite:////abs/path.db`` is absolute
  too, ``sqlite://rel/path.db`` relative, and a bare path such as ``./games.db`` works);
* ``sqlite://`` — the default file, ``$XDG_DATA_HOME/risk/games.db`` (without XDG_DATA_HOME,
  ``~/.local/share/risk/games.db``); its directory is created on first use;
* ``postgresql://user:password@host:port/database`` — a PostgreSQL server; query options
  ``schema`` (created by ``create_schema``) and ``connect_timeout`` (seconds, default 5).

The settings are the library's own (``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``),
handed to the application as its ``env``.  Tables are never created implicitly
(``CREATE_TABLE=n``): ``GameService.create_schema`` does it, once, explicitly.

A SQLite store's file is checked before it is opened (``check_sqlite_file``): an existing file
must be a SQLite database (an empty file is one), and a missing one is created only when the
caller allows it, in an existing folder unless the caller allows folders too
(``GameService(create=...)``).  A URL that is neither a known scheme nor a path (``::::``) is
refused rather than taken for a file name.

``select_states`` is the projector's read: only the ``state`` column, as plain bytes.  The
recorders' ``select_events`` builds a row mapping and a ``StoredEvent`` per row, which costs
more than decoding and folding the events put together.  ``copy_rows`` is a branch's write on
SQLite: rows copied from game to game inside the database.

SQLite durability: every connection runs in WAL mode (the library's choice) with
``synchronous=NORMAL`` (``tune_sqlite``, which also caches prepared statements): a commit is
then written to the log but not flushed to the disk, so a transaction survives any crash of
the process, while a power loss or an operating system crash may lose the last transactions
committed before it (never corrupting the file nor keeping part of a transaction).  ``FULL``
would flush every commit, which on common disks costs more than the whole rest of a command's
handling.

Checkpoints (copying the log into the database file) do flush the disk, for milliseconds to
tens of milliseconds.  SQLite runs one inside the commit that grows the log past 1000 pages,
stalling that command (a branch, say) and every one queued behind it.  So a ``GameService``
asks for ``background_checkpoints``: a ``WalCheckpointer`` thread checkpoints every fraction
of a second, and a commit checkpoints only past ``WAL_BACKSTOP_PAGES``.  A short-lived
process (one ``risk`` command) mostly ends before the thread's first round: SQLite checkpoints
when the last connection to the file closes, after the command has answered.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

from eventsourcing.persistence import (
    AggregateRecorder,
    DatabaseError,
    InterfaceError,
    StoredEvent,
)
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteAggregateRecorder,
    SQLiteConnection,
    SQLiteDatastore,
)

COMMON_ENV = {
    "MAPPER_TOPIC": "risk_service.mapper:MsgspecMapper",
    "ORIGINATOR_ID_TYPE": "text",  # game ids are short readable strings, not UUIDs
    "CREATE_TABLE": "n",
}
POSTGRES_OPTIONS = ("schema", "connect_timeout")
SCHEMA_LOCK = 0x5249534B  # PostgreSQL advisory lock key serialising create_tables ("RISK")
BACKGROUND_CHECKPOINTS = "RISK_SQLITE_BACKGROUND_CHECKPOINTS"  # env key: "y" to enable
WAL_BACKSTOP_PAGES = 20_000  # ~80 MB of log: a commit checkpoints only if the thread lags so far
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoreConfig:
    url: str  # normalised, password masked: safe to print
    kind: Literal["memory", "sqlite", "postgresql"]
    env: dict[str, str] = field(repr=False)
    path: Path | None = None  # the SQLite file
    schema: str | None = None  # the PostgreSQL schema, when not the default one


def default_sqlite_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "risk" / "games.db"


def is_default_sqlite(path: Path) -> bool:
    """Whether ``path`` (as ``StoreConfig.path`` gives it) is the default SQLite file."""
    return path == default_sqlite_path().expanduser().absolute()


def parse_store(url: str | None) -> StoreConfig:
    """The configuration of a store URL (None: the default SQLite file); ValueError if bad."""
    if url is None or not url.strip():
        return _sqlite(default_sqlite_path())
    url = url.strip()
    scheme, sep, rest = url.partition(":")
    if not sep or "/" in scheme or "\\" in scheme or len(scheme) == 1:
        return _sqlite(Path(url))  # a bare path (or a Windows drive letter)
    scheme = scheme.lower()
    if scheme == "memory":
        return StoreConfig(
            url="memory://",
            kind="memory",
            env={**COMMON_ENV, "PERSISTENCE_MODULE": "eventsourcing.popo"},
        )
    if scheme == "sqlite":
        rest = rest.removeprefix("//")
        if rest.startswith("//"):  # sqlite:////abs/path, SQLAlchemy's spelling of an absolute path
            rest = "/" + rest.lstrip("/")
        return _sqlite(Path(rest) if rest else default_sqlite_path())
    if scheme in ("postgresql", "postgres"):
        return _postgres(url)
    raise ValueError(
        f"Unknown store '{url}': use memory://, sqlite:///path/to/games.db "
        "or postgresql://user@host:port/database (a file name with ':' is written ./name)."
    )


def _sqlite(path: Path) -> StoreConfig:
    path = path.expanduser().absolute()
    if path.is_dir():
        raise ValueError(f"The SQLite store {path} is a directory, not a file.")
    return StoreConfig(
        url=f"sqlite://{path}",  # the path is absolute: sqlite:///home/...
        kind="sqlite",
        env={
            **COMMON_ENV,
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(path),
        },
        path=path,
    )


SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite database file


def check_sqlite_file(path: Path, *, create: bool, folders: bool = False) -> None:
    """Make sure a SQLite store can be opened at ``path``; ValueError naming it if not.

    An existing file must be a SQLite database (an empty file is one: SQLite fills it).  A
    missing file is allowed only with ``create`` (SQLite then makes it), in an existing folder
    unless ``folders``, which makes the missing folders here.
    """
    if path.is_dir():
        raise ValueError(f"The SQLite store {path} is a directory, not a file.")
    if path.exists():
        try:
            with path.open("rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except OSError as e:
            raise ValueError(f"The SQLite store {path} cannot be read: {e.strerror}.") from None
        if head and head != SQLITE_HEADER:
            raise ValueError(f"The file {path} is not a SQLite database.")
        return
    if not create:
        raise ValueError(f"There is no store at {path} (no such file).")
    if not path.parent.is_dir():
        if not folders:
            raise ValueError(
                f"There is no folder {path.parent} for the store {path}: create the folder "
                "first, or check the path."
            )
        path.parent.mkdir(parents=True, exist_ok=True)


def _postgres(url: str) -> StoreConfig:
    parts = urlsplit(url)
    try:
        port = parts.port or 5432
    except ValueError:
        raise ValueError(f"Bad port in store URL '{without_password(url)}'.") from None
    user = unquote(parts.username or "") or "postgres"
    dbname = unquote(parts.path.lstrip("/")) or user
    options = dict(parse_qsl(parts.query))
    unknown = sorted(set(options) - set(POSTGRES_OPTIONS))
    if unknown:
        raise ValueError(
            f"Unknown option(s) {', '.join(unknown)} in store URL '{without_password(url)}' "
            f"(known: {', '.join(POSTGRES_OPTIONS)})."
        )
    timeout = options.get("connect_timeout", "5")
    from risk_core.names import whole_number

    if whole_number(timeout) is None:
        raise ValueError(f"connect_timeout must be a whole number of seconds, not '{timeout}'.")
    env = {
        **COMMON_ENV,
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": user,
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_CONNECT_TIMEOUT": timeout,
        # A command-line process needs a connection or two, not the library's default pool.
        "POSTGRES_POOL_SIZE": "2",
        "POSTGRES_MAX_OVERFLOW": "8",
    }
    schema = options.get("schema") or None
    if schema:
        env["POSTGRES_SCHEMA"] = schema
    host = env["POSTGRES_HOST"]
    login = quote(user) + (":***" if parts.password else "")
    query = f"?schema={quote(schema)}" if schema else ""
    return StoreConfig(
        url=f"postgresql://{login}@{host}:{port}/{quote(dbname)}{query}",
        kind="postgresql",
        env=env,
        schema=schema,
    )


def postgres_connect(env: dict[str, str], **options: Any) -> Any:
    """A psycopg connection of its own to the database of a store's ``env`` (``parse_store``),
    outside the library's pool; ``options`` go to ``psycopg.connect``."""
    import psycopg

    return psycopg.connect(
        host=env["POSTGRES_HOST"],
        port=int(env["POSTGRES_PORT"]),
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"] or None,
        dbname=env["POSTGRES_DBNAME"],
        connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT") or 5),
        **options,
    )


def postgres_failure(env: dict[str, str]) -> str:
    """Why the PostgreSQL server of a store's ``env`` refuses a connection, from one direct
    attempt ("" if it connects): its connection pool, waiting for one, only says it waited."""
    import psycopg

    try:
        postgres_connect(env).close()
    except psycopg.Error as e:
        # "connection failed: connection to server at …, port … failed: FATAL:  database …"
        return " ".join(str(e).split()).removeprefix("connection failed: ")
    return ""


def without_password(url: str) -> str:
    """``url`` as it may be shown: its password replaced by ``***`` (a terminal or a log may
    be seen by others)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:***@" if parts.username else ":***@"
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=user + host))


def start_sqlite_file(path: Path) -> None:
    """Create a missing store file readable by its owner only (0600).

    A store holds every game's seed, hands and missions.  SQLite gives the write-ahead log and
    its index (``-wal``, ``-shm``) the permissions of the database file, so making the file
    first, before SQLite does with the umask's 0644, keeps all three private.
    """
    with contextlib.suppress(FileExistsError):  # another process started it: its mode stands
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


SQLITE_STATEMENTS = 256  # prepared statements cached per connection (the library caches 1)
WAL_SWITCH_TRIES = 50  # a new file's switch to WAL, retried while another connection makes it


def _use_wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode.  Several processes opening a new store at once race to switch
    it, and SQLite answers the losers "database is locked" at once, without waiting for its
    busy timeout: they try again shortly (the winner's switch is then already made)."""
    for attempt in range(WAL_SWITCH_TRIES):
        try:
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or attempt == WAL_SWITCH_TRIES - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def tune_sqlite(datastore: SQLiteDatastore, *, background_checkpoints: bool = False) -> None:
    """Make ``datastore``'s new connections ``synchronous=NORMAL`` (see the module notes) and
    cache their prepared statements; with ``background_checkpoints``, leave checkpoints to a
    ``WalCheckpointer`` (a commit checkpoints only past ``WAL_BACKSTOP_PAGES``).

    The library's pool opens connections with ``cached_statements=True``, a cache of one
    statement: every transaction then prepares each of its statements again.  The connections
    are otherwise made as the library makes them (auto-commit, WAL, ``sqlite3.Row`` rows).
    """
    pool = datastore.pool
    if getattr(pool, "risk_tuned", False):
        return

    def create() -> SQLiteConnection:
        try:
            conn = sqlite3.connect(
                database=pool.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,  # auto-commit: the library issues BEGIN itself
                cached_statements=SQLITE_STATEMENTS,
                timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except (sqlite3.Error, TypeError) as e:
            raise InterfaceError(e) from e
        if not pool.is_sqlite_memory_mode:
            try:
                _use_wal(conn)
                conn.execute("PRAGMA synchronous=NORMAL")
                if background_checkpoints:
                    conn.execute(f"PRAGMA wal_autocheckpoint={WAL_BACKSTOP_PAGES}")
            except sqlite3.DatabaseError as e:  # a file that is not (or no longer) a database
                conn.close()
                raise DatabaseError(e) from e
            pool.is_journal_mode_wal = True
        conn.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=conn, max_age=pool.max_age)

    pool._create_connection = create  # type: ignore[method-assign]
    pool.risk_tuned = True  # type: ignore[attr-defined]


class WalCheckpointer:
    """Checkpoints a SQLite file's write-ahead log every ``interval`` seconds, in a thread.

    ``PASSIVE`` checkpoints wait for no reader or writer, and the thread's disk flushes run
    without Python's lock held: the writer's commits go on meanwhile.
    """

    def __init__(self, path: Path, interval: float = 0.25) -> None:
        self.path = path
        self.interval = interval
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-checkpointer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while not self._stopping.wait(self.interval):
                try:
                    conn = conn or self._connect()
                    if conn is not None:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as e:  # a busy or vanished file: the next round retries
                    log.warning("WAL checkpoint of %s failed: %s", self.path, e)
        finally:
            if conn is not None:
                conn.close()

    def _connect(self) -> sqlite3.Connection | None:
        """A connection once the store's connections have made the file a WAL file (one that
        opened it before would never checkpoint; setting the mode here would race them)."""
        if not self.path.exists():
            return None
        conn = sqlite3.connect(self.path, timeout=SQLITE3_DEFAULT_LOCK_TIMEOUT)
        if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            conn.close()
            return None
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def close(self) -> None:
        self._stopping.set()
        self._thread.join()


def select_states(
    recorder: AggregateRecorder, originator_id: str, *, gt: int | None, lte: int | None
) -> list[bytes]:
    """The ``state`` of the originator's stored events with gt < version <= lte, in order."""
    where = ""
    params: list[Any] = [originator_id]
    if gt is not None:
        where += " AND originator_version > {p}"
        params.append(gt)
    if lte is not None:
        where += " AND originator_version <= {p}"
        params.append(lte)
    if isinstance(recorder, SQLiteAggregateRecorder):
        query = (
            f"SELECT state FROM {recorder.events_table_name} WHERE originator_id = ?"
            + where.format(p="?")
            + " ORDER BY originator_version"
        )
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(query, params)
            return [row[0] for row in cursor.fetchall()]
    # Imported only with a PostgreSQL store: its driver is an optional dependency.
    postgres = sys.modules.get("eventsourcing.postgres")
    if postgres is not None and isinstance(recorder, postgres.PostgresAggregateRecorder):
        return _postgres_states(recorder, where.format(p="%s"), params)
    return [s.state for s in recorder.select_events(originator_id, gt=gt, lte=lte)]


def _postgres_states(recorder: Any, where: str, params: list[Any]) -> list[bytes]:
    from psycopg import sql
    from psycopg.rows import tuple_row

    query = sql.SQL(
        "SELECT state FROM {}.{} WHERE originator_id = %s" + where + " ORDER BY originator_version"
    ).format(sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name))
    with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
        cursor.execute(query, params, prepare=True)
        return [bytes(row[0]) for row in cursor.fetchall()]


def copy_rows(
    recorder: AggregateRecorder,
    snapshots: AggregateRecorder,
    source: str,
    target: str,
    *,
    keep: int,
    then: Sequence[StoredEvent],
    snapshots_upto: int,
) -> bool:
    """Copy ``source``'s stored events 1..``keep`` to ``target``, add ``then``, and copy its
    snapshots up to ``snapshots_upto``: one transaction, done inside the database.

    SQLite only (False elsewhere: the caller copies through the recorders).  Copied rows keep
    their bytes, which never name their game (``risk_service.mapper``).  Inserting 10,000 rows
    is most of a branch's cost, and an ``INSERT ... SELECT`` skips the round trip of every row
    through Python.  ``IntegrityError`` if ``target`` exists; nothing is then written.
    """
    if not (
        isinstance(recorder, SQLiteAggregateRecorder)
        and isinstance(snapshots, SQLiteAggregateRecorder)
        and snapshots.datastore is recorder.datastore
    ):
        return False
    columns = "originator_id, originator_version, topic, state"
    copy = (
        "INSERT INTO {table} (" + columns + ") SELECT ?, originator_version, topic, state "
        "FROM {table} WHERE originator_id = ? AND originator_version <= ? "
        "ORDER BY originator_version"  # version order: the notification log lists v1 first
    )
    events = recorder.events_table_name
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(copy.format(table=events), (target, source, keep))
        cursor.executemany(
            f"INSERT INTO {events} ({columns}) VALUES (?, ?, ?, ?)",
            [(target, s.originator_version, s.topic, s.state) for s in then],
        )
        table = snapshots.events_table_name
        cursor.execute(copy.format(table=table), (target, source, snapshots_upto))
    return True


def create_tables(config: StoreConfig, factory: Any, recorders: Sequence[Any]) -> None:
    """Create the recorders' tables (and the PostgreSQL schema) where missing."""
    with _schema_lock(config, factory):
        if config.schema:
            from psycopg import sql

            with factory.datastore.transaction(commit=True) as cursor:
                cursor.execute(
                    sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(config.schema))
                )
        for recorder in recorders:
            create = getattr(recorder, "create_table", None)  # in-memory stores have none
            if create is not None:
                create()


@contextmanager
def _schema_lock(config: StoreConfig, factory: Any) -> Iterator[None]:
    # PostgreSQL's CREATE ... IF NOT EXISTS and CREATE OR REPLACE FUNCTION can still fail when
    # two sessions run them at once, and every command-line process creates the schema: an
    # advisory lock makes them take turns.  SQLite serialises writers by itself.
    if config.kind != "postgresql":
        yield
        return
    with factory.datastore.get_connection() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
