"""``GameService``: games in an event store, for the command line and anything else.

Reads do not use the library's replay (a domain object per event: hundreds of milliseconds for
10,000 events): the projector reads the stored rows, decodes them in one msgspec call and folds
them with ``risk_core.apply_in_place``, from the latest snapshot at or before the wanted version.
The latest state of recently used games is cached per instance and brought up to date with one
query (events after the cached version) before every use, so several processes can share a
store; a command decided on a stale state loses the race on the primary key and is reported as
a conflict.  Store failures surface as ``ServiceError``; rule failures as the engine's own
``RuleError``.  One instance serves one thread at a time (a lock guards it).

Whole histories are written at once: ``copy_history`` (a branch: the first events of a game,
copied with their commands, plus a record of its own), ``store_records`` (recorded events) and
``writing`` (an import, written record by record as its audit re-executes them).  Each is one
atomic write of its events and snapshots.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import secrets
import sys
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

import msgspec
from eventsourcing.domain import datetime_now_with_tzinfo
from eventsourcing.persistence import (
    InfrastructureFactoryError,
    IntegrityError,
    MapperDeserialisationError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder
from eventsourcing.utils import get_topic

import risk_core
from risk_core import GameState, RiskError, SeatInfo
from risk_core.model import Branched, GameStarted, OptionValue, copy_state
from risk_core.rulesets import names as ruleset_names
from risk_service.app import SNAPSHOT_INTERVAL, Game, GameApplication, GameSnapshot
from risk_service.ledger import SQLiteLedgerRecorder
from risk_service.mapper import EngineCommand, EngineEvent, EventRow, MsgspecMapper
from risk_service.protocol import GAME_ID as GAME_ID  # exchange reads it here
from risk_service.protocol import game_id_problem
from risk_service.stores import (
    BACKGROUND_CHECKPOINTS,
    WalCheckpointer,
    check_sqlite_file,
    copy_rows,
    create_tables,
    is_default_sqlite,
    parse_store,
    postgres_failure,
    select_states,
    start_sqlite_file,
)

if TYPE_CHECKING:
    from risk_service.records import RawRecord

CACHE_SIZE = 64  # latest states kept per service instance
LIST_PAGE = 500  # notifications read per query when listing games
RECORD_PAGE = 2000  # events read per query when a history is streamed (``iter_records``)
WRITE_BATCH = 2000  # events written per statement when a history is imported
# Rows per INSERT of an import into SQLite: 4 parameters each, under the 999 parameters of a
# statement that SQLite allowed before 3.32.
ROWS_PER_INSERT = 200
Row = tuple[str, int, str, bytes]  # a stored event's columns: id, version, topic, state
log = logging.getLogger(__name__)


class ServiceError(RiskError):
    """A store-level failure.

    Codes: ``unknown_game``, ``conflict`` (another writer got there first, or
    ``expected_version`` is stale), ``game_exists``, ``bad_game_id``, ``bad_store`` (bad URL,
    unreachable server, schema not created), ``bad_version``.
    """


class GameRecord(msgspec.Struct, frozen=True):
    """One accepted command (None for the opening) and the events it caused."""

    version: int  # engine-event version after this record
    command: EngineCommand | None
    events: tuple[EngineEvent, ...]


class HistoryCopy(msgspec.Struct, frozen=True):
    """What ``GameService.copy_history`` stored."""

    game_id: str
    cut: int  # events of the last copied record left out (0: the copy ends a record)


class BranchPoint(msgspec.Struct, frozen=True):
    """A stored ``branched`` event: ``game_id`` continues ``parent`` after ``at`` events."""

    game_id: str
    version: int  # the branched event's version in ``game_id``
    parent: str
    at: int


class GameSummary(msgspec.Struct, frozen=True):
    game_id: str
    ruleset: str
    players: tuple[str, ...]
    version: int
    phase: str
    turn: int
    current_player: int | None  # the seat whose command the game waits for
    winner: int | None


class GameService:
    def __init__(
        self,
        store: str | None = None,
        *,
        create: bool | None = None,
        background_checkpoints: bool = True,
    ) -> None:
        """Open the store at ``store`` (else ``$RISK_STORE``, else the default SQLite file).

        ``create`` says whether a SQLite file that does not exist may be started: ``False``
        opens an existing store only; ``None`` (the default) starts the file in an existing
        folder, and makes the folder too for the default store (no ``store`` given, or the
        default file); ``True`` makes any missing folder.  A file that is not a SQLite
        database, or a missing one not allowed here, is ``bad_store`` naming the path.

        ``background_checkpoints``: a SQLite store's log is checkpointed by a thread of this
        service, not inside commits (see ``stores``); a short-lived process's log is
        checkpointed by SQLite itself when its last connection closes.
        """
        try:
            config = parse_store(store if store is not None else os.environ.get("RISK_STORE"))
            if config.path is not None:
                default = store is None or is_default_sqlite(config.path)
                folders = create is True or (create is None and default)
                check_sqlite_file(config.path, create=create is not False, folders=folders)
                if not config.path.exists():
                    start_sqlite_file(config.path)
        except ValueError as e:
            raise ServiceError("bad_store", str(e)) from None
        self.store_url = config.url
        self._config = config
        self._checkpointer: WalCheckpointer | None = None
        env = config.env
        if config.path is not None and background_checkpoints:
            env = {**env, BACKGROUND_CHECKPOINTS: "y"}
        with self._store_errors():
            self._app = GameApplication(env=env)
        if config.path is not None and background_checkpoints:
            self._checkpointer = WalCheckpointer(config.path)
        assert self._app.snapshots is not None  # snapshotting_intervals enables them
        self._snapshots = self._app.snapshots.recorder
        self._mapper = cast(MsgspecMapper, self._app.mapper)
        self._cache: OrderedDict[str, GameState] = OrderedDict()
        self._lock = threading.RLock()

    @property
    def application(self) -> GameApplication:
        """The eventsourcing application underneath (for tools and tests)."""
        return self._app

    # ------------------------------------------------------------------ schema
    def create_schema(self) -> None:
        """Create the tables if missing; safe to call often and from several processes."""
        with self._lock, self._store_errors():
            create_tables(self._config, self._app.factory, [self._app.recorder, self._snapshots])

    # ------------------------------------------------------------------ commands
    def new_game(
        self,
        ruleset: str,
        players: Sequence[str | SeatInfo],
        *,
        seed: int | str | None = None,
        options: dict[str, OptionValue] | None = None,
        game_id: str | None = None,
        opening: list[risk_core.Event] | None = None,
    ) -> str:
        """Store a new game and return its id.

        ``seed`` None draws a random 64-bit seed (the one non-deterministic step, here at the
        edge; it is recorded in ``game_started``).  ``opening`` stores ready-made opening events
        (a scenario) instead of ``risk_core.start``'s: their rule set and player names must be
        ``ruleset`` and ``players`` (else ``SetupError("bad_opening")``) and they must replay
        (else ``RuleError("bad_history")``); ``seed`` and ``options`` are then ignored.
        """
        _check_game_id(game_id)
        if opening is not None:
            _check_opening(ruleset, players, opening)
        chosen_seed = secrets.randbits(64) if seed is None else seed
        with self._lock:
            for _ in range(5):  # a fresh random id collides only by extreme bad luck
                gid = game_id or uuid.uuid4().hex[:8]
                # The opening names the game, so its seed commitment is bound to this id.
                events = opening or risk_core.start(
                    ruleset, players, seed=chosen_seed, options=options, game_id=gid
                )
                game = _start(gid, events)
                try:
                    self._save(game)
                except IntegrityError:
                    if game_id is not None:
                        raise ServiceError(
                            "game_exists", f"There is already a game '{gid}' in {self.store_url}."
                        ) from None
                    continue
                self._remember(gid, game.state)
                return gid
        raise ServiceError("game_exists", "Could not find a free game id; try again.")

    def submit(
        self,
        game_id: str,
        command: risk_core.Command,
        *,
        expected_version: int | None = None,
    ) -> list[risk_core.Event]:
        """Decide ``command`` on the latest state and store its events atomically.

        ``RuleError`` propagates unchanged and nothing is stored.  ``ServiceError("conflict")``
        if the game is not at ``expected_version`` or another writer appended first.
        """
        with self._lock:
            state = self._latest(game_id)
            if expected_version is not None and expected_version != state.version:
                raise ServiceError(
                    "conflict",
                    f"Game {game_id} is at version {state.version}, not {expected_version}: "
                    "reload it and decide again.",
                )
            base = state.version
            game = Game.restore(game_id, state)  # shares the cached state, advanced in place
            try:
                events = game.play(command)
            except risk_core.RuleError:
                raise  # decided nothing: the cached state is untouched
            except BaseException:
                self._forget(game_id)
                raise
            try:
                self._save(game)
            except IntegrityError:
                self._forget(game_id)
                raise ServiceError(
                    "conflict",
                    f"Game {game_id} changed while this command was decided: another writer "
                    f"stored version {base + 1} first. "
                    "Reload it and decide again.",
                ) from None
            except BaseException:
                self._forget(game_id)
                raise
            return events

    # ------------------------------------------------------------------ queries
    def state(self, game_id: str, at: int | None = None, *, snapshots: bool = True) -> GameState:
        """The state after the first ``at`` engine events (default: all), a private copy.

        ``snapshots=False`` folds every event from the first (to check the snapshots).
        """
        with self._lock:
            if at is None and snapshots:
                return copy_state(self._latest(game_id))
            if at is not None and at < 1:
                raise ServiceError("bad_version", f"Versions start at 1 (game_started), not {at}.")
            return self._project(game_id, at, snapshots=snapshots)

    def events(self, game_id: str, *, upto: int | None = None) -> list[risk_core.Event]:
        """The first ``upto`` engine events (default: all)."""
        if upto is not None and upto < 0:
            raise ServiceError("bad_version", f"Cannot list the first {upto} events.")
        with self._lock:
            events = self._events(game_id, lte=None if upto is None else max(upto, 1))
        if not events:
            raise self._unknown(game_id)
        if upto is None:
            return events
        _check_version(game_id, upto, len(events))  # versions run 1, 2, ... without gaps
        return events[:upto]

    def records(self, game_id: str) -> list[GameRecord]:
        """Every accepted command with its events, in order; the opening first."""
        with self._lock:
            rows = self._rows(game_id)
        if not rows:
            raise self._unknown(game_id)
        groups: list[tuple[EngineCommand | None, list[risk_core.Event]]] = []
        for row in rows:
            if row.batch or not groups:  # the first event of a record
                groups.append((row.command, []))
            groups[-1][1].append(row.event)
        records, version = [], 0
        for command, events in groups:
            version += len(events)  # versions run 1, 2, ... without gaps
            records.append(GameRecord(version=version, command=command, events=tuple(events)))
        return records

    def iter_records(
        self, game_id: str, *, upto: int | None = None, page: int | None = None
    ) -> Iterator[GameRecord]:
        """``records`` read ``page`` events at a time: what a pass over a long history holds
        does not grow with it (an audit, an export).

        ``upto`` (a version that ends a record, such as ``state(game_id).version`` read first)
        bounds the history, so that several passes over a game still being played read the
        same records.  ``unknown_game`` is raised at once, not when the records are read.
        """
        page = page or RECORD_PAGE
        rows = self._page_rows(game_id, 0, page, upto)
        if not rows:
            raise self._unknown(game_id)
        return self._group_records(game_id, rows, page, upto)

    @property
    def stores_plain_json(self) -> bool:
        """Whether each stored event is its JSON as it is (no cipher, no compression): what
        ``iter_raw_records`` reads."""
        return not (self._mapper.cipher or self._mapper.compressor)

    def iter_raw_records(
        self, game_id: str, upto: int, *, page: int | None = None
    ) -> Iterator[RawRecord]:
        """``iter_records`` up to ``upto`` (a version that ends a record, read first) with each
        record's events left as their stored JSON (``records.RawRecord``; its command
        decoded), a page's rows decoded in one call: what an audit reads where the store is not
        a SQLite file (``read_sqlite.raw_records`` reads one straight).  Only where
        ``stores_plain_json``; ``msgspec.DecodeError`` for a row that does not decode."""
        from risk_service.records import raw_records_of  # not for `risk show`

        if not self.stores_plain_json:
            raise RuntimeError("iter_raw_records reads events stored as plain JSON only")

        def states(gt: int, lte: int) -> list[bytes]:
            with self._lock, self._store_errors():
                return self._states(game_id, gt, lte)

        return raw_records_of(states, upto, page or RECORD_PAGE)

    def iter_events(
        self, game_id: str, upto: int, *, page: int | None = None
    ) -> Iterator[risk_core.Event]:
        """The first ``upto`` events, ``page`` at a time; ``unknown_game`` or ``bad_version``
        (fewer events) at once."""
        if upto < 1:
            raise ServiceError("bad_version", f"Versions start at 1 (game_started), not {upto}.")
        with self._lock:
            if not self._events(game_id, gt=upto - 1, lte=upto):
                _check_version(game_id, upto, self._latest(game_id).version)
        return self._paged_events(game_id, upto, page or RECORD_PAGE)

    def _paged_events(self, game_id: str, upto: int, page: int) -> Iterator[risk_core.Event]:
        done = 0
        while done < upto:
            with self._lock:
                events = self._events(game_id, gt=done, lte=min(done + page, upto))
            if not events:
                return
            yield from events
            done += len(events)

    def _page_rows(self, game_id: str, gt: int, page: int, upto: int | None) -> list[EventRow]:
        lte = gt + page if upto is None else min(gt + page, upto)
        if lte <= gt:
            return []
        with self._lock:
            return self._rows(game_id, gt=gt, lte=lte)

    def _group_records(
        self, game_id: str, rows: list[EventRow], page: int, upto: int | None
    ) -> Iterator[GameRecord]:
        # As ``records``: a row with a ``batch`` opens a record; a page may end inside one.
        read = 0
        command: EngineCommand | None = None
        events: list[risk_core.Event] = []
        while rows:
            for row in rows:
                if events and row.batch:
                    yield GameRecord(version=read, command=command, events=tuple(events))
                    events = []
                if not events:
                    command = row.command
                events.append(row.event)
                read += 1  # versions run 1, 2, ... without gaps
            rows = self._page_rows(game_id, read, page, upto)
        if events:
            yield GameRecord(version=read, command=command, events=tuple(events))

    def games(self) -> list[GameSummary]:
        """Every game in the store, oldest first.  A game of a rule set not loaded here (a
        family's package missing from ``RISK_FAMILIES``) is listed by its opening alone, in
        the phase ``unloaded``: one such game never hides the others."""
        with self._lock:
            return [self._summary(gid) for gid in self._game_ids()]

    def _summary(self, game_id: str) -> GameSummary:
        try:
            return _summary(game_id, self._latest(game_id))
        except RiskError as e:
            if e.code != "unknown_ruleset":
                raise
            opening = self._events(game_id, lte=1)[0]
            assert isinstance(opening, GameStarted)
            return GameSummary(
                game_id=game_id,
                ruleset=opening.ruleset,
                players=tuple(p.name for p in opening.players),
                version=0,
                phase="unloaded",
                turn=0,
                current_player=None,
                winner=None,
            )

    # ------------------------------------------------------------------ whole histories
    def copy_history(
        self,
        source: str,
        upto: int,
        then: Sequence[risk_core.Event],
        *,
        game_id: str | None = None,
    ) -> HistoryCopy:
        """A new game: the first ``upto`` events of ``source`` with their commands, then
        ``then`` as one record without a command (a branch, ``risk_service.history``).

        One atomic write: copied rows keep their bytes (commands and timestamps included), and
        ``source``'s snapshots up to ``upto`` come along.  A record that ``upto`` cuts short
        keeps its command and the events before the cut (``HistoryCopy.cut`` counts the rest).
        ``game_id`` None picks a fresh id; a taken one is ``ServiceError("game_exists")``.
        """
        _check_game_id(game_id)
        if upto < 1:
            raise ServiceError("bad_version", f"Versions start at 1 (game_started), not {upto}.")
        with self._lock:
            cut_rows, left_out = self._cut_record(source, upto)
            keep = upto - len(cut_rows)  # rows copied as they are
            now = datetime_now_with_tzinfo()
            for _ in range(5):  # a fresh random id collides only by extreme bad luck
                gid = game_id or uuid.uuid4().hex[:8]
                tail = [_renamed(row, gid) for row in cut_rows]
                tail += self._stored_rows(gid, upto + 1, None, then, now)
                try:
                    self._copy_rows(source, gid, keep, upto, tail)
                except IntegrityError:
                    if game_id is not None:
                        raise ServiceError(
                            "game_exists", f"There is already a game '{gid}' in {self.store_url}."
                        ) from None
                    continue
                return HistoryCopy(game_id=gid, cut=left_out)
        raise ServiceError("game_exists", "Could not find a free game id; try again.")

    def store_records(self, game_id: str, records: Iterable[GameRecord]) -> GameState:
        """A new game from a whole recorded history: every record with its command in one
        atomic write, with snapshots every ``SNAPSHOT_INTERVAL`` events.

        The events must replay (else ``RuleError("bad_history")``, and nothing is stored);
        ``ServiceError("game_exists")`` if the id is taken.  Returns the final state.  The
        records are read once and folded on the way (``writing``).  An import writes as its
        audit re-executes the history instead (``risk_service.exchange.import_game``).
        """
        with self.writing(game_id) as writer:
            fold = _Fold()
            for record in records:
                writer.record(record.command, record.events)
                for ev in record.events:
                    state = fold.apply(ev)
                    if state.version % SNAPSHOT_INTERVAL == 0:
                        writer.snapshot(state)
            if fold.state is None:
                raise risk_core.RuleError(
                    "bad_history", "A game's history must begin with game_started."
                )
            writer.end(fold.state)
        return copy_state(fold.state)

    @contextlib.contextmanager
    def writing(self, game_id: str) -> Iterator[HistoryWriter]:
        """A new game written record by record in one atomic write (``HistoryWriter``).

        On SQLite and PostgreSQL the rows go in ``WRITE_BATCH`` events at a time inside one
        transaction, their snapshots with them: what the write holds does not grow with the
        history (the transaction holds the store's write lock meanwhile); the in-memory store
        gathers them and writes them at the end.  Anything raised inside the block undoes the
        whole write; ``ServiceError("game_exists")`` if the id is taken.  The block must end
        the writer (``HistoryWriter.end``) with the final state, which is then cached.
        """
        _check_game_id(game_id)
        with self._lock:
            try:
                with self._store_errors(), self._one_transaction() as insert:
                    writer = HistoryWriter(game_id, self._mapper, insert)
                    yield writer
                    if writer.state is None:
                        raise RuntimeError("HistoryWriter.end() was not called")
                    writer.flush()
            except IntegrityError:
                raise ServiceError(
                    "game_exists", f"There is already a game '{game_id}' in {self.store_url}."
                ) from None
            self._remember(game_id, writer.state)

    @contextlib.contextmanager
    def _one_transaction(self) -> Iterator[Callable[[list[Row], list[Row]], None]]:
        """A function inserting rows and snapshot rows, all in one transaction (SQLite and
        PostgreSQL: rolled back if the block raises); elsewhere the rows are gathered and
        written when the block ends."""
        recorder, snapshots = self._app.recorder, self._snapshots
        # Imported only with a PostgreSQL store: its driver is an optional dependency.
        postgres = sys.modules.get("eventsourcing.postgres")
        ledger_pg = sys.modules.get("risk_service.ledger_pg")
        if (
            postgres is not None
            and ledger_pg is not None
            and isinstance(recorder, ledger_pg.PostgresLedgerRecorder)
            and isinstance(snapshots, postgres.PostgresAggregateRecorder)
            and snapshots.datastore is recorder.datastore
        ):
            # The recorders' own statements (``risk_service.ledger_pg``: without the library's
            # table lock and notification), several times in one transaction: the events by
            # COPY, the snapshots (a row in a hundred) as the library inserts them.
            with recorder.datastore.transaction(commit=True) as cursor:

                def insert_pg(rows: list[Row], snaps: list[Row]) -> None:
                    if rows:
                        recorder.copy_events(cursor, rows)
                    if snaps:
                        snapshots._insert_stored_events(cursor, [StoredEvent(*r) for r in snaps])

                yield insert_pg
            return
        if not (
            isinstance(recorder, SQLiteAggregateRecorder)
            and isinstance(snapshots, SQLiteAggregateRecorder)
            and snapshots.datastore is recorder.datastore
        ):
            gathered: tuple[list[StoredEvent], list[StoredEvent]] = ([], [])

            def gather(rows: list[Row], snaps: list[Row]) -> None:
                gathered[0].extend(StoredEvent(*r) for r in rows)
                gathered[1].extend(StoredEvent(*r) for r in snaps)

            yield gather
            self._app.recorder.insert_events(gathered[0])
            self._insert_snapshots(gathered[1])
            return
        # Rows in version order: the notification log lists v1 first.  A snapshot left behind
        # at the same key (it is only a shortcut) is replaced rather than failing the import.
        # An event row whose key is taken ends the whole transaction at once (``OR ROLLBACK``:
        # the write is undone anyway): SQLite then keeps no statement journal, the copy of
        # every page a statement changes that it would need to undo that statement alone
        # (spilled to a temporary file past 64 KiB: ~22,000 writes per 100,000 events).
        statement = "INSERT {}INTO {} (originator_id, originator_version, topic, state) VALUES "
        statement += "(?, ?, ?, ?)"
        events = statement.format("OR ROLLBACK ", recorder.events_table_name)
        shortcuts = statement.format("OR REPLACE ", snapshots.events_table_name)
        # Many rows per statement: SQLite steps once per statement, not once per row (the
        # import's inserts cost about half as much), the rows inserted in the order listed.
        many = events + ", (?, ?, ?, ?)" * (ROWS_PER_INSERT - 1)
        with recorder.datastore.transaction(commit=True) as cursor:

            def insert_sqlite(rows: list[Row], snaps: list[Row]) -> None:
                k = ROWS_PER_INSERT
                whole = len(rows) - len(rows) % k
                for start in range(0, whole, k):
                    cursor.execute(many, _bound_values(rows[start : start + k]))
                for sql, batch in ((events, rows[whole:]), (shortcuts, snaps)):
                    if batch:  # each state a bytearray, as in ``_bound_values``
                        cursor.executemany(sql, [(*row[:3], bytearray(row[3])) for row in batch])

            yield insert_sqlite

    def branch_points(self) -> list[BranchPoint]:
        """Every stored ``branched`` event, oldest first.

        A branch of a branch holds copies of its ancestors' (they are part of its history):
        a game's own parent is named by its latest one.
        """
        topics = [get_topic(Game.Branched)]
        points: list[BranchPoint] = []
        last: int | None = None
        with self._lock, self._store_errors():
            while True:
                page = self._app.recorder.select_notifications(
                    last, LIST_PAGE, topics=topics, inclusive_of_start=last is None
                )
                rows = self._mapper.event_rows([n.state for n in page])
                for n, row in zip(page, rows, strict=True):
                    if isinstance(row.event, Branched):
                        points.append(
                            BranchPoint(
                                game_id=str(n.originator_id),
                                version=n.originator_version,
                                parent=row.event.parent,
                                at=row.event.version,
                            )
                        )
                if len(page) < LIST_PAGE:
                    return points
                last = page[-1].id

    def close(self) -> None:
        with self._lock:
            self._cache.clear()
            recorder = self._app.recorder
            if isinstance(recorder, SQLiteLedgerRecorder):
                recorder.close_writer()
            self._app.close()
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None

    def __enter__(self) -> GameService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ projector
    def _latest(self, game_id: str) -> GameState:
        """The cached latest state, brought up to date; or rebuilt from the last snapshot."""
        state = self._cache.get(game_id)
        if state is None:
            state = self._project(game_id, None, snapshots=True)
        else:
            try:
                risk_core.apply_in_place(state, self._events(game_id, gt=state.version))
            except BaseException:
                self._forget(game_id)
                raise
        self._remember(game_id, state)
        return state

    def _project(self, game_id: str, at: int | None, *, snapshots: bool) -> GameState:
        with self._family_errors(game_id):
            start = self._snapshot(game_id, at) if snapshots else None
            events = self._events(game_id, gt=None if start is None else start.version, lte=at)
            if start is None:
                if not events:
                    raise self._unknown(game_id)
                state = risk_core.replay(events)
            else:
                state = risk_core.apply_in_place(start, events)
        if at is not None:
            _check_version(game_id, at, state.version)
        return state

    def _rows(
        self, game_id: str, *, gt: int | None = None, lte: int | None = None
    ) -> list[EventRow]:
        with self._store_errors(), self._family_errors(game_id):
            return self._mapper.event_rows(self._states(game_id, gt, lte))

    def _events(
        self, game_id: str, *, gt: int | None = None, lte: int | None = None
    ) -> list[risk_core.Event]:
        with self._store_errors(), self._family_errors(game_id):
            return self._mapper.events(self._states(game_id, gt, lte))

    @contextlib.contextmanager
    def _family_errors(self, game_id: str) -> Iterator[None]:
        """A game of a rule family not loaded here holds events (and commands) of kinds the
        mapper's unions lack, so its rows do not decode: that is ``unknown_ruleset``, as for a
        game whose rule set is read from a snapshot, never a decoding error (which would also
        hide every other game from ``games``).  Any other undecodable row stays an error."""
        try:
            yield
        except MapperDeserialisationError:
            unloaded = self._unloaded(game_id)
            if unloaded is not None:
                raise unloaded from None
            raise
        except RiskError as e:  # the engine's, from a snapshot or an opening it cannot read
            unloaded = self._unloaded(game_id) if e.code == "unknown_ruleset" else None
            if unloaded is not None:
                raise unloaded from None
            raise

    def _unloaded(self, game_id: str) -> RiskError | None:
        """``unknown_ruleset`` naming the rule set of ``game_id`` when it is not loaded here."""
        opening = self._mapper.events(self._states(game_id, None, 1))  # core's: it decodes
        name = opening[0].ruleset if opening and isinstance(opening[0], GameStarted) else ""
        if not name or name in ruleset_names():
            return None
        return RiskError(
            "unknown_ruleset",
            f"Game {game_id} is played with the rule set '{name}', which is not loaded here: "
            "name its rule family in RISK_FAMILIES (or install its entry point).",
        )

    def _states(self, game_id: str, gt: int | None, lte: int | None) -> list[bytes]:
        return select_states(self._app.recorder, game_id, gt=gt, lte=lte)

    def _snapshot(self, game_id: str, lte: int | None) -> GameState | None:
        with self._store_errors():
            found: Sequence[StoredEvent] = self._snapshots.select_events(
                game_id, lte=lte, desc=True, limit=1
            )
            return self._mapper.snapshot_state(found[0]) if found else None

    def _save(self, game: Game) -> None:
        with self._store_errors():
            self._app.save(game)

    def _remember(self, game_id: str, state: GameState) -> None:
        self._cache[game_id] = state
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def _game_ids(self) -> list[str]:
        # Every game's first stored event is a Game.Started: the store's notification log,
        # filtered by that topic, lists them in creation order on every kind of store.
        topics = [get_topic(Game.Started)]
        ids: list[str] = []
        last: int | None = None
        with self._store_errors():
            while True:
                page = self._app.recorder.select_notifications(
                    last, LIST_PAGE, topics=topics, inclusive_of_start=last is None
                )
                ids.extend(str(n.originator_id) for n in page)
                if len(page) < LIST_PAGE:
                    return ids
                last = page[-1].id

    def _cut_record(self, source: str, upto: int) -> tuple[list[StoredEvent], int]:
        """The stored rows of the record that event ``upto`` cuts short, its first row
        re-encoded with the events kept as its ``batch``, and how many events are left out;
        ``([], 0)`` when ``upto`` ends a record."""
        recorder = self._app.recorder
        with self._store_errors():
            near = recorder.select_events(source, gt=upto - 1, lte=upto + 1)
        if not near or near[0].originator_version != upto:
            _check_version(source, upto, self._latest(source).version)  # unknown or too far
        if len(near) < 2 or self._mapper.event_rows([near[1].state])[0].batch:
            return [], 0  # the last event, or the next one opens a record
        # Records are short (one command's events): look back a little, then further.
        span = 64
        while True:
            low = max(0, upto - span)
            with self._store_errors():
                rows = list(recorder.select_events(source, gt=low, lte=upto))
                batches = [r.batch for r in self._mapper.event_rows([s.state for s in rows])]
            opens = [i for i, b in enumerate(batches) if b]
            if opens:
                break
            if low == 0:
                raise risk_core.RuleError("bad_history", f"Game {source} has no opening record.")
            span *= 8
        rows = rows[opens[-1] :]
        kept, size = len(rows), batches[opens[-1]]
        head = cast(Game.Event, self._mapper.to_domain_event(rows[0]))
        rows[0] = self._mapper.to_stored_event(dataclasses.replace(head, batch=kept))
        return rows, size - kept

    def _copy_rows(
        self, source: str, target: str, keep: int, upto: int, then: list[StoredEvent]
    ) -> None:
        recorder = self._app.recorder
        with self._store_errors():
            if copy_rows(
                recorder, self._snapshots, source, target, keep=keep, then=then, snapshots_upto=upto
            ):
                return
            copied = [_renamed(row, target) for row in recorder.select_events(source, lte=keep)]
            recorder.insert_events([*copied, *then])
        # Elsewhere the snapshots follow the events (as the application's own do).
        with self._store_errors():
            snapshots = self._snapshots.select_events(source, lte=upto)
        self._insert_snapshots([_renamed(s, target) for s in snapshots])

    def _insert_snapshots(self, snapshots: Sequence[GameSnapshot | StoredEvent]) -> None:
        # Only a shortcut: failing to store one must not undo a history already stored.
        rows = [
            s if isinstance(s, StoredEvent) else self._mapper.to_stored_event(s) for s in snapshots
        ]
        try:
            if rows:
                self._snapshots.insert_events(rows)
        except PersistenceError as e:
            log.warning("No snapshots of game %s: %s", rows[0].originator_id, e)

    def _stored_rows(
        self,
        game_id: str,
        version: int,
        command: EngineCommand | None,
        events: Sequence[risk_core.Event],
        timestamp: datetime,
    ) -> list[StoredEvent]:
        return _stored_rows(self._mapper, game_id, version, command, events, timestamp)

    def _unknown(self, game_id: str) -> ServiceError:
        return ServiceError("unknown_game", f"There is no game '{game_id}' in {self.store_url}.")

    # ------------------------------------------------------------------ store plumbing
    @contextlib.contextmanager
    def _store_errors(self) -> Iterator[None]:
        """Library persistence errors → ServiceError("bad_store"); IntegrityError is the
        caller's to interpret (a conflict, an existing game)."""
        try:
            yield
        except IntegrityError:
            raise
        except (PersistenceError, InfrastructureFactoryError) as e:
            # InfrastructureFactoryError: the persistence module failed to import (a missing
            # driver such as psycopg_pool for PostgreSQL).
            text = str(e.__cause__ or e) if isinstance(e, InfrastructureFactoryError) else str(e)
            missing = ("no such table", "does not exist", "not found")
            hint = (
                " Its tables may not exist yet: call GameService.create_schema() first."
                if any(m in text for m in missing)
                else ""
            )
            text = text.strip().rstrip(".")
            if self._config.kind == "postgresql" and "couldn't get a connection" in text:
                reason = postgres_failure(self._config.env)
                text += f" ({reason.rstrip('.')})" if reason else ""
            raise ServiceError("bad_store", f"Store {self.store_url}: {text}.{hint}") from e


def _check_game_id(game_id: str | None) -> None:
    if game_id is not None and (problem := game_id_problem(game_id)) is not None:
        raise ServiceError("bad_game_id", problem)


def _renamed(row: StoredEvent, game_id: str) -> StoredEvent:
    # A stored body never names its game (``risk_service.mapper``): the row alone changes.
    return StoredEvent(
        originator_id=game_id,
        originator_version=row.originator_version,
        topic=row.topic,
        state=row.state,
    )


def _stored_rows(
    mapper: MsgspecMapper,
    game_id: str,
    version: int,
    command: EngineCommand | None,
    events: Sequence[risk_core.Event],
    timestamp: datetime,
) -> list[StoredEvent]:
    """One record as stored rows: the command and size on its first event (``app.Game``)."""
    rows = []
    for i, ev in enumerate(events):
        head = i == 0
        v, cmd, batch = version + i, command if head else None, len(events) if head else 0
        domain: Game.Event
        if v == 1:
            domain = Game.Started(
                originator_id=game_id,
                originator_version=v,
                timestamp=timestamp,
                event=ev,
                command=cmd,
                batch=batch,
                originator_topic=get_topic(Game),
            )
        else:
            cls = Game.Branched if isinstance(ev, Branched) else Game.Recorded
            domain = cls(
                originator_id=game_id,
                originator_version=v,
                timestamp=timestamp,
                event=ev,
                command=cmd,
                batch=batch,
            )
        rows.append(mapper.to_stored_event(domain))
    return rows


def _bound_values(rows: Sequence[Row]) -> list[Any]:
    """The rows' values, flat, as a many-row INSERT binds them, each state as a bytearray.

    Python's sqlite3 binds a str, an int, a float or a bytearray as it is, but looks any other
    type up among its adapters first, bytes included: two failed attribute lookups per state,
    each raising and clearing an AttributeError, which cost several times the copy (an import's
    inserts ~19% fewer instructions).  A bytearray is stored as the same BLOB, byte for byte.
    """
    values: list[Any] = [*chain.from_iterable(rows)]
    values[3::4] = map(bytearray, values[3::4])
    return values


def _row(stored: StoredEvent) -> Row:
    return (str(stored.originator_id), stored.originator_version, stored.topic, stored.state)


class HistoryWriter:
    """The rows of a new game's history, record by record (``GameService.writing``).

    ``record`` takes a record's command and events, the events' JSON too when the caller has
    it (an import's audit compares them as bytes): a command's rows are then put together from
    those bytes rather than encoded again.  ``snapshot`` encodes a state at once (the caller's
    state moves on).  Rows go to the store ``WRITE_BATCH`` events at a time.
    """

    def __init__(
        self,
        game_id: str,
        mapper: MsgspecMapper,
        insert: Callable[[list[Row], list[Row]], None],
    ) -> None:
        self.interval = SNAPSHOT_INTERVAL  # a snapshot every so many events
        self.game_id = game_id
        self.state: GameState | None = None  # the final state (``end``)
        self._mapper = mapper
        self._insert = insert
        self._now = datetime_now_with_tzinfo()
        self._rows: list[Row] = []
        self._snapshots: list[Row] = []
        self.version = 0  # the events of the records given so far (an import reads it often)
        self._recorded = get_topic(Game.Recorded)
        self._head = mapper.state_head(self._now)  # every row of the import's (``record``)
        self._raw = not (mapper.cipher or mapper.compressor)

    def record(
        self,
        command: EngineCommand | None,
        events: Sequence[risk_core.Event],
        encoded: Sequence[bytes] | None = None,
    ) -> None:
        """One record: its rows (the command and size on the first, ``app.Game``)."""
        version = self.version
        if encoded and command is not None and self._raw and version > 0:
            gid, topic = self.game_id, self._recorded
            states = self._mapper.record_states_of(command, encoded, self._head)
            if len(states) == 1:  # most records are one event: no list made for the rows
                self._rows.append((gid, version + 1, topic, states[0]))
            else:
                self._rows += [(gid, v, topic, s) for v, s in enumerate(states, start=version + 1)]
        else:
            self._rows += map(
                _row,
                _stored_rows(self._mapper, self.game_id, version + 1, command, events, self._now),
            )
        self.version += len(events)
        if len(self._rows) >= WRITE_BATCH:
            self.flush()

    def record_one(self, command: EngineCommand, event: risk_core.Event, encoded: bytes) -> None:
        """``record`` of the usual record: a command and its one event, with the event's JSON
        (``encoded``): the row put together with no list made on the way."""
        version = self.version
        if not (self._raw and version):
            self.record(command, (event,), (encoded,))
            return
        version += 1
        self.version = version
        rows = self._rows
        state = self._mapper.record_state_of(command, encoded, self._head)
        rows.append((self.game_id, version, self._recorded, state))
        if len(rows) >= WRITE_BATCH:
            self.flush()

    def snapshot(self, state: GameState) -> None:
        snapshot = GameSnapshot(
            originator_id=self.game_id,
            originator_version=state.version,
            timestamp=self._now,
            topic=get_topic(Game),
            state=state,
        )
        self._snapshots.append(_row(self._mapper.to_stored_event(snapshot)))

    def end(self, state: GameState) -> None:
        """The history is whole: ``state`` is its final state."""
        self.state = state

    def flush(self) -> None:
        if self._rows or self._snapshots:
            self._insert(self._rows, self._snapshots)
            self._rows, self._snapshots = [], []


class _Fold:
    """The state of a history folded one event at a time; ``bad_history`` if it does not
    replay."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def apply(self, ev: risk_core.Event) -> GameState:
        try:
            if self.state is None:
                self.state = risk_core.replay([ev])
            else:
                risk_core.apply_in_place(self.state, (ev,))
            return self.state
        except RiskError:
            raise
        except Exception as e:  # an engine handler tripping over a malformed event
            raise risk_core.RuleError(
                "bad_history", f"The history does not replay: {type(e).__name__}: {e}"
            ) from e


def _check_opening(
    ruleset: str, players: Sequence[str | SeatInfo], opening: Sequence[risk_core.Event]
) -> None:
    first = opening[0] if opening else None
    if not isinstance(first, GameStarted):
        raise risk_core.RuleError("bad_history", "A game's history must begin with game_started.")
    # Neutral seats (the classic-2p ally, independents) are added by the rule set itself: the
    # players may be given without them, or as every seat of the opening (names or SeatInfo).
    names = [p.name if isinstance(p, SeatInfo) else p for p in players]
    seated = [s.name for s in first.players if not s.neutral]
    every = [s.name for s in first.players]
    if first.ruleset != ruleset or names not in (seated, every):
        raise risk_core.SetupError(
            "bad_opening",
            f"The opening events are a {first.ruleset} game for {', '.join(seated)}, "
            f"not {ruleset} for {', '.join(names)}.",
        )


def _start(game_id: str, opening: Sequence[risk_core.Event]) -> Game:
    try:
        return Game.start(game_id, opening)
    except RiskError:
        raise
    except Exception as e:  # an engine handler tripping over a malformed scenario event
        raise risk_core.RuleError(
            "bad_history", f"The opening events do not replay: {type(e).__name__}: {e}"
        ) from e


def _check_version(game_id: str, wanted: int, last: int) -> None:
    if wanted > last:
        raise ServiceError(
            "bad_version", f"Game {game_id} has {last} events: version {wanted} does not exist."
        )


def _summary(game_id: str, state: GameState) -> GameSummary:
    return GameSummary(
        game_id=game_id,
        ruleset=state.ruleset,
        players=tuple(p.name for p in state.players),
        version=state.version,
        phase=state.phase,
        turn=state.turn,
        current_player=risk_core.to_act(state),
        winner=state.winner,
    )
