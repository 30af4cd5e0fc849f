"""The eventsourcing layer: one ``Game`` aggregate per game, in a ``GameApplication``.

Stored layout (one aggregate sequence per game, its id the game id):

* **One stored event per engine event.**  The aggregate's version is therefore the engine's
  version: stored event *n* is the *n*-th engine event, ``GameStarted`` is version 1, and
  ``replay(events[:n]).version == n``.  "The state at version n" needs no translation, a
  snapshot's version is an engine version, and two writers that both extend version *v* collide
  on the primary key ``(game id, v + 1)``, which is the optimistic-concurrency check.
* **One append per accepted command.**  ``Game.play`` decides the command (``risk_core.decide``
  rolls the dice there, once) and triggers one ``Game.Recorded`` per resulting event; the
  application saves them in one transaction, so a command is stored whole or not at all, and a
  rejected command (``RuleError``) triggers nothing.
* **The command rides on the first event of its record.**  That event carries ``command`` and
  ``batch`` (how many events the command caused); the others carry ``None`` and 0.  The opening
  record (``Game.Started`` plus the rest of ``risk_core.start``'s events) has no command.
* **Snapshots every 100 events** (``snapshotting_intervals``), at exact multiples of 100, holding
  the typed ``GameState``.

Event bodies (``apply``) only fold the recorded event into the state; they never roll dice, so
replaying a game, by this library's machinery or by the service's own projector, is exact.
Topics are explicit (``risk:Game...``) so that moving this code never orphans stored games.
A ``branched`` event (``risk_service.history``) is stored as ``Game.Branched``, a topic of its
own, so that the store's notification log lists every branch point in one query.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime  # at run time: msgspec resolves the event classes' annotations
from typing import Any, ClassVar

from eventsourcing.application import (
    Application,
    ProjectorFunction,
    project_aggregate,
)
from eventsourcing.domain import (
    BaseAggregate,
    CanInitAggregate,
    CanMutateAggregate,
    CanSnapshotAggregate,
    datetime_now_with_tzinfo,
)
from eventsourcing.persistence import ApplicationRecorder, PersistenceError
from eventsourcing.utils import Environment, EnvType, get_topic, register_topic

import risk_core
from risk_core import GameState, RuleError
from risk_core.engine import decide_and_apply
from risk_core.model import Branched, GameStarted
from risk_service import ledger
from risk_service.mapper import EngineCommand, EngineEvent, MsgspecMapper  # at run time

SNAPSHOT_INTERVAL = 100
log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class GameSnapshot(CanSnapshotAggregate[str]):
    """A game's full state at one version (typed, unlike the library's ``dict`` snapshots)."""

    TOPIC: ClassVar[str] = "risk:Game.Snapshot"

    originator_id: str
    originator_version: int
    timestamp: datetime
    topic: str
    state: GameState

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        assert isinstance(aggregate, Game)
        return cls(
            originator_id=aggregate.id,
            originator_version=aggregate.version,
            timestamp=cls.create_timestamp(),
            topic=get_topic(type(aggregate)),
            state=aggregate.state,
        )

    def mutate(self, _: None) -> Game:
        state = risk_core.typed_state(self.state)  # its family slot comes back a plain dict
        return Game.restore(self.originator_id, state, self.timestamp)


register_topic(GameSnapshot.TOPIC, GameSnapshot)


class Game(BaseAggregate[str]):
    """One game; ``state`` is the engine's ``GameState`` and ``version`` its event count."""

    TOPIC = "risk:Game"
    Snapshot = GameSnapshot

    @dataclass(frozen=True, kw_only=True)
    class Event(CanMutateAggregate[str]):
        """One engine event; the first event of a record also carries its command and size."""

        originator_id: str
        originator_version: int
        timestamp: datetime
        event: EngineEvent
        command: EngineCommand | None = None  # the command of the record this event opens
        batch: int = 0  # events in the record this event opens; 0 inside a record

        def apply(self, aggregate: Any) -> None:
            risk_core.apply_in_place(aggregate.state, (self.event,))

    @dataclass(frozen=True, kw_only=True)
    class Started(Event, CanInitAggregate[str]):
        """The first event, ``GameStarted``: ``Game.__init__`` builds the initial state."""

        TOPIC: ClassVar[str] = "risk:Game.Started"
        originator_topic: str

        def apply(self, aggregate: Any) -> None:
            pass  # already folded by __init__; folding game_started twice is an error

    @dataclass(frozen=True, kw_only=True)
    class Recorded(Event):
        """Every engine event after ``game_started``."""

        TOPIC: ClassVar[str] = "risk:Game.Recorded"

    @dataclass(frozen=True, kw_only=True)
    class Branched(Recorded):
        """A ``branched`` event: a topic of its own, so one query lists every branch point."""

        TOPIC: ClassVar[str] = "risk:Game.Branched"

    def __init__(self, event: risk_core.Event) -> None:
        if not isinstance(event, GameStarted):
            raise RuleError("bad_history", "A game's history must begin with game_started.")
        self.state: GameState = risk_core.replay([event])

    @classmethod
    def start(cls, game_id: str, opening: Sequence[risk_core.Event]) -> Game:
        """A new game from its opening events (``risk_core.start``'s, or a scenario's)."""
        if not opening:
            raise RuleError("bad_history", "A game's history must begin with game_started.")
        game = cls._create(
            cls.Started, id=game_id, event=opening[0], command=None, batch=len(opening)
        )
        for ev in opening[1:]:
            game.trigger_event(cls.Recorded, event=ev, command=None, batch=0)
        return game

    @classmethod
    def restore(cls, game_id: str, state: GameState, timestamp: datetime | None = None) -> Game:
        """The aggregate around a state rebuilt elsewhere (snapshot, projector, cache).

        ``created_on`` is not part of the engine state, so a restored game reports the given
        timestamp (or now) for it.
        """
        game = cls.__new__(cls)
        game.__base_init__(
            originator_id=game_id,
            originator_version=state.version,
            timestamp=timestamp or datetime_now_with_tzinfo(),
        )
        game.state = state
        return game

    def play(self, command: risk_core.Command) -> list[risk_core.Event]:
        """Decide ``command`` (the dice are rolled here) and record what it caused.

        Raises ``RuleError`` before anything is recorded or changed.
        """
        events = risk_core.decide(self.state, command)
        for i, ev in enumerate(events):
            first = i == 0
            self.trigger_event(
                self.Recorded,
                event=ev,
                command=command if first else None,
                batch=len(events) if first else 0,
            )
        return events


_RECORDED = get_topic(Game.Recorded)
_BRANCHED = get_topic(Game.Branched)


class Play:
    """One game's new records in a batch of the command worker, stored by
    ``GameApplication.save_batch`` with the batch's ledger rows.

    Commands are decided on ``state`` itself (``decide_and_apply``: where the rule set decides
    in place, each event is applied once; a refusal leaves the state as it was) and their rows
    are put together from the events' JSON (``MsgspecMapper.record_states``): the rows
    ``Game.play`` and the library's save would store, stamped once per transaction, without a
    domain event object per event.  ``opening``: a new game's ``Game``, whose opening events
    are stored first.
    """

    __slots__ = ("base", "id", "opening", "records", "state")

    def __init__(self, game_id: str, state: GameState, opening: Game | None = None) -> None:
        self.id = game_id
        self.state = state
        self.base = state.version  # the records' events take the versions after it
        self.records: list[tuple[risk_core.Command, list[risk_core.Event]]] = []
        self.opening = opening

    def play(self, command: risk_core.Command) -> list[risk_core.Event]:
        """Decide ``command`` on the state and record what it caused (as ``Game.play``): the
        events returned are the record's own list, not to be changed.

        Raises ``RuleError`` with the state as it was and nothing recorded."""
        events = decide_and_apply(self.state, command)
        if events:
            self.records.append((command, events))
        return events


class GameApplication(Application[str]):
    """Games in one store; configured only by the ``env`` built from a store URL."""

    name = "risk"  # PostgreSQL tables are risk_events and risk_snapshots
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Game: SNAPSHOT_INTERVAL}

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        # The library would merge os.environ under ``env``; a stray PERSISTENCE_MODULE,
        # CIPHER_KEY or RISK_-prefixed variable in a shell must not redirect or alter a store
        # chosen by URL, so only the given settings count.
        return Environment(name, {"IS_SNAPSHOTTING_ENABLED": "y", **(env or {})})

    def construct_recorder(self) -> ApplicationRecorder:
        # The library's recorder plus the command worker's ledger (``risk_service.ledger``),
        # written in the same transaction as the events; the events table is unchanged.
        return ledger.application_recorder(self.factory)

    def save_batch(self, games: Sequence[Play], write: ledger.LedgerWrite) -> set[str]:
        """Store the new records of several games and ledger rows in one transaction; the
        games whose stored versions passed a multiple of ``SNAPSHOT_INTERVAL``.

        All or nothing: a conflict on any game version, request id or fence stores none.
        Snapshots are left to ``take_snapshots`` so that a caller can answer first.
        """
        mapper = self.mapper
        assert isinstance(mapper, MsgspecMapper)
        rows: list[ledger.EventRowTuple] = []
        head = b""
        due: set[str] = set()
        for play in games:
            if play.opening is not None:  # a new game: its opening as the library stores it
                for opening in play.opening.collect_events():
                    stored = mapper.to_stored_event(opening)
                    rows.append((play.id, stored.originator_version, stored.topic, stored.state))
            version = play.base
            for command, events in play.records:
                # One timestamp per transaction: its records are stored at the same moment.
                head = head or mapper.state_head(datetime_now_with_tzinfo())
                states = mapper.record_states(command, events, head)
                for event, state in zip(events, states, strict=True):
                    version += 1
                    topic = _BRANCHED if isinstance(event, Branched) else _RECORDED
                    rows.append((play.id, version, topic, state))
            first = 0 if play.opening is not None else play.base
            if version // SNAPSHOT_INTERVAL > first // SNAPSHOT_INTERVAL:
                due.add(play.id)
        ledger.insert_batch(self.recorder, rows, write)
        return due

    def put_snapshot(self, game_id: str, state: GameState) -> None:
        """Store a snapshot of a state the caller already holds (no replay needed)."""
        assert self.snapshots is not None
        snapshot = GameSnapshot(
            originator_id=game_id,
            originator_version=state.version,
            timestamp=GameSnapshot.create_timestamp(),
            topic=get_topic(Game),
            state=state,
        )
        try:
            self.snapshots.put([snapshot])
        except PersistenceError as e:  # a shortcut only, as in take_snapshot
            log.warning("No snapshot of game %s at version %s: %s", game_id, state.version, e)

    def take_snapshot(
        self,
        aggregate_id: str,
        version: int | None = None,
        projector_func: ProjectorFunction[Any, Any] = project_aggregate,
    ) -> None:
        # Called after the command's events are committed: a snapshot is only a shortcut, and
        # failing to store one must not turn an accepted command into an error.
        try:
            super().take_snapshot(aggregate_id, version, projector_func)
        except PersistenceError as e:
            log.warning("No snapshot of game %s at version %s: %s", aggregate_id, version, e)
