"""Audit: re-execute a recorded game and check that it gives back every recorded event.

The recorded history is a list of records (``GameRecord``: a command and the events it caused).
The audit starts again from the seed and replays the *commands*:

1. **Rules and board** — the engine version and board content hash in ``game_started`` must be
   this installation's (or be upcast, ``risk_service.versions``), else ``version_mismatch``.
2. **Seed** — the seeds revealed by ``seed_revealed`` when the game ended, or, before that, the
   seeds stored in the history itself (an owner's audit: the store holds them).  The seed must
   match the commitment published in ``game_started`` (``seed_commitment(game_id, seed)``, with
   the id *in that event*: a branch or an import keeps its parent's), and each branch reseed its
   own (``risk_service.history.reseed_commitment``).
3. **Events** — the opening is derived again with ``risk_core.start`` from the seats, options
   and seed of ``game_started``; then every record's command is decided again on the state the
   verified events give.  Each resulting event must equal the recorded one byte for byte
   (``risk_core.encode``).  The first difference stops the audit and is reported with its
   version, the expected and recorded events and the command.

Records without a command that the audit cannot re-derive are applied as given and listed in
``given``: a scenario's opening (``position_set``) and a branch's ``branched`` record (with its
``dice_reseeded`` or ``dice_scripted``).  A branch may cut a command's events short: the record
before a ``branched`` one may then be a prefix of what its command gives.  When the parent is at
hand (``parent_events``), the branch's copied events are compared with the parent's.

The history is read as a stream, never held whole: ``audit`` takes a list of records or a
function giving the records again from the start at every call (``RecordSource``: a store's
paged reader, an export file read line by line).  One pass re-executes it holding one record
and the next, with the seeds the history stores, and totals it as it goes; what only the end
says (the seeds revealed) is checked then.  Should that pass find anything amiss (a
difference, seeds revealed other than those stored, another engine's history), the audit is
made again as the rules above read: a first pass finds what only the end of the history says,
a second re-executes it, so that a failed audit reports exactly what it always did.  A branch
compared with its parent reads its own first events once more.  An upcast history
(``versions.UPCASTERS``, none today) is read whole, as upcasters rewrite lists.

An import audits and writes in that one pass (``audit_writing``): a ``Sink`` (the store's
``HistoryWriter``) gets every record as it is accepted, with its events' JSON when they were
compared as bytes, and the state the audit folds at every multiple of its interval (a record
spanning one is applied in two parts), so that the state audited is the one stored.

Records may come decoded (``GameRecord``) or as their JSON (``risk_service.records.RawRecord``:
a SQLite store read straight from the file, an export's lines).  A raw record's events are
compared with the re-executed ones as bytes and decoded only when they differ; the
re-executed events, byte for byte the recorded ones, are those applied.  Where the rule set
decides in place (``RuleSet.decide_in_place``), a raw record's command is decided on the
audit's own state, each event applied once as it is decided, instead of on a copy whose
events are applied again: a refusal or a difference then stops the audit, reported as
deciding on a copy reports it (tests/test_audit_in_place.py).  A record followed by one
without a command (a branch point may cut it short) and an import's record spanning a
snapshot's version are decided on a copy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import chain, islice, zip_longest
from typing import Any, Literal, NoReturn, Protocol

import msgspec

import risk_core
from risk_core import Event, GameState, RiskError, encode
from risk_core.engine import ruleset_of
from risk_core.model import (
    Branched,
    Command,
    DiceReseeded,
    DiceScripted,
    GameStarted,
    PositionSet,
    SeedRevealed,
)
from risk_core.rng import seed_commitment
from risk_core.rulesets.base import RuleSet
from risk_service import read_sqlite, versions
from risk_service import store as game_store
from risk_service.history import reseed_commitment
from risk_service.protocol import GAME_ID
from risk_service.records import UNREADABLE, RawRecord
from risk_service.store import GameRecord, GameService

JsonDict = dict[str, Any]
# (parent id, n) → its first n events (exactly n), or None when they are not at hand.
ParentEvents = Callable[[str, int], Iterable[Event] | None]
Record = GameRecord | RawRecord
RecordSource = Callable[[], Iterable[Record]]  # every call: the records from the first


class Sink(Protocol):
    """Where an audit that writes what it checks puts it (``audit_writing``; the store's
    ``HistoryWriter``): each record as accepted, and the state every ``interval`` events."""

    interval: int

    def record(
        self,
        command: Command | None,
        events: Sequence[Event],
        encoded: Sequence[bytes] | None = None,
    ) -> None: ...

    def record_one(self, command: Command, event: Event, encoded: bytes) -> None:
        """``record`` of a command's one event, with its JSON (most records)."""

    def snapshot(self, state: GameState) -> None: ...

    def end(self, state: GameState) -> None: ...


class Check(msgspec.Struct, frozen=True):
    name: str
    ok: bool
    detail: str


class Divergence(msgspec.Struct, frozen=True):
    """The first recorded event that re-execution does not give back."""

    version: int  # of the recorded (or missing) event
    record: int  # index of its record (0: the opening)
    index: int  # its place in the record (0: the record's first event)
    reason: str
    command: JsonDict | None  # the record's command (None: the opening or a given record)
    expected: JsonDict | None  # what re-execution gives (None: nothing more)
    recorded: JsonDict | None  # what the history holds (None: nothing more)
    fields: list[str]  # top-level fields that differ


class AuditReport(msgspec.Struct):
    game_id: str
    ok: bool
    ruleset: str
    board: str
    board_hash: str
    engine: str
    events: int  # recorded
    commands: int
    verified: int  # events reproduced before the first divergence (all of them when ok)
    seed_source: Literal["revealed", "stored"]
    checks: list[Check]
    given: list[str]  # records applied as given, described
    divergence: Divergence | None = None
    given_events: int = 0  # of ``verified``: events applied as given, not re-executed


def audit_game(
    service: GameService, game_id: str, *, progress: Callable[[int], None] | None = None
) -> AuditReport:
    """Audit a stored game (its parent, when a branch's is in the same store, is compared).

    The records are read a page at a time, up to the version the game has now: the passes read
    the same history while the game goes on.  The rows are left undecoded: a SQLite store's
    read straight from the file (``read_sqlite.raw_records``), another's through the store
    (``GameService.iter_raw_records``, where it stores plain JSON).  Should that fail (a row
    that does not decode), the audit is made again through the store's records, which says
    what is wrong."""
    upto = service.state(game_id).version
    told = Progress(progress)
    path = read_sqlite.sqlite_path(service.store_url)
    raw: RecordSource | None = None
    if path is not None and path.is_file():
        raw = partial(read_sqlite.raw_records, path, game_id, upto, game_store.RECORD_PAGE)
    elif path is None and service.stores_plain_json:
        raw = partial(service.iter_raw_records, game_id, upto)
    if raw is not None:
        try:
            return audit(raw, game_id=game_id, parent_events=store_parent(service), progress=told)
        except (_Undecodable, sqlite3.Error, *UNREADABLE):
            told.again()
    return audit(
        lambda: service.iter_records(game_id, upto=upto),
        game_id=game_id,
        parent_events=store_parent(service),
        progress=told,
    )


def store_parent(service: GameService) -> ParentEvents:
    def parent_events(parent: str, n: int) -> Iterable[Event] | None:
        try:
            return service.iter_events(parent, n)
        except RiskError as e:
            if e.code != "bad_version":
                return None  # not in this store: reported as not compared
        # Shorter than the branch's copy: every event it has (a game never loses one, so a
        # game of that name this short is not the parent, and the comparison says so).
        return service.iter_events(parent, service.state(parent).version)

    return parent_events


def audit(
    records: Sequence[GameRecord] | RecordSource,
    *,
    game_id: str,
    parent_events: ParentEvents | None = None,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Re-execute ``records`` (see the module's documentation); ``progress`` gets the number of
    events checked since its previous call."""
    source: RecordSource = records if callable(records) else lambda: records
    told = progress if isinstance(progress, Progress) else Progress(progress)
    report = _Auditor(source, None, game_id, parent_events, told, upcast=False).run_once()
    if report is not None:
        return report
    told.again()  # the same events are checked once more: the progress told goes on from there
    scan = _Scan(_decoded(r) for r in source())
    upcast = scan.mismatch
    if upcast:  # version_mismatch before anything else, unless upcasters apply
        pinned = versions.pinned([_decoded(r) for r in source()], game_id)
        scan, source = _Scan(pinned), lambda: pinned
    return _Auditor(source, scan, game_id, parent_events, told, upcast=upcast).run()


def audit_writing(
    records: RecordSource,
    *,
    game_id: str,
    sink: Sink,
    progress: Progress,
    parent_events: ParentEvents | None = None,
) -> AuditReport | None:
    """The one-pass audit (``_Auditor.run_once``), giving ``sink`` every record it accepts and
    the state it folds every ``sink.interval`` events, so that an import audits and writes in
    one pass: the report when the history checks out in that pass, its events recorded as the
    engine writes them, else None (the caller undoes what the sink wrote and audits again
    with ``audit``, passing the same ``progress``; an export's line written otherwise is
    refused by the file's check).  ``parent_events``: a branch's parent, as for ``audit``.
    """
    auditor = _Auditor(records, None, game_id, parent_events, progress, upcast=False, sink=sink)
    report = auditor.run_once()
    return None if auditor.reencoded else report


class Progress:
    """The progress told to the caller: events checked, never told twice when an audit is made
    again (``again``)."""

    def __init__(self, progress: Callable[[int], None] | None) -> None:
        self.progress = progress
        self.told = 0  # the most events told
        self.done = 0  # events checked by this run

    def __call__(self, n: int) -> None:
        self.done += n
        if self.done > self.told and self.progress is not None:
            self.progress(self.done - self.told)
            self.told = self.done

    def again(self) -> None:
        self.done = 0


class _Undecodable(RiskError):
    """A raw record whose events do not decode: a store's row (``audit_game`` reads the game
    again through the store, which says what is wrong), or a file changed since its check."""


def _decoded(record: Record) -> GameRecord:
    """The record decoded (a ``GameRecord`` as it is)."""
    if isinstance(record, GameRecord):
        return record
    try:
        events = tuple(risk_core.decode_events(record.events))
    except UNREADABLE as e:  # ValidationError included
        raise _Undecodable(
            "bad_history", f"The record ending at version {record.version} does not decode: {e}"
        ) from None
    return GameRecord(version=record.version, command=record.command, events=events)


class _Scan:
    """The first pass: what the re-execution needs before it starts, and the totals."""

    def __init__(self, records: Iterable[GameRecord], *, whole: bool = True) -> None:
        """``whole=False``: only the opening is read, the rest is tallied as it is re-executed
        (``_Auditor.run_once``)."""
        self.stored_seeds: list[int] = []
        self.revealed: SeedRevealed | None = None
        self.reveal_version = 0
        self.events = 0
        self.commands = 0
        self.mismatch = False
        it = iter(records)
        first = next(it, None)
        self.started = versions.opening_of([first] if first is not None else [])
        if versions.mismatch(self.started) is not None:
            self.mismatch = True  # the caller upcasts the whole history, then scans it again
            return
        self.stored_seeds.append(self.started.seed)
        assert first is not None  # opening_of refused an empty history
        if not whole:
            return
        for record in chain((first,), it):
            self.commands += record.command is not None
            for ev in record.events:
                self.events += 1
                if isinstance(ev, DiceReseeded):
                    self.stored_seeds.append(ev.seed)
                elif isinstance(ev, SeedRevealed) and self.revealed is None:
                    self.revealed, self.reveal_version = ev, self.events


class _Stop(Exception):
    """The first divergence: the audit stops there."""

    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


class _Auditor:
    def __init__(
        self,
        source: RecordSource,
        scan: _Scan | None,
        game_id: str,
        parent_events: ParentEvents | None,
        progress: Callable[[int], None],
        *,
        upcast: bool,
        sink: Sink | None = None,
    ) -> None:
        self.source = source
        self.sink = sink
        self.game_id = game_id
        self.parent_events = parent_events
        # Told the events checked; None when nobody listens (nothing to count either).
        self.progress = (
            None if isinstance(progress, Progress) and progress.progress is None else progress
        )
        self.checks: list[Check] = []
        self.given: list[str] = []
        self.given_events = 0  # events applied as given (``AuditReport.given_events``)
        # Events equal to the re-executed ones once decoded, their recorded JSON written
        # otherwise (a store's own JSON; never an export's, which ``audit_writing`` refuses).
        self.reencoded = 0
        self.verified = 0
        self.upcast = upcast
        self.reseeds = 0
        self.state: GameState | None = None
        self.rules: RuleSet  # the game's, once its opening is accepted (``_replay``)
        self.in_place = False  # whether commands may be decided on the state itself
        self.tally: _Scan | None = None  # run_once: the totals, found as the events are
        if scan is not None:
            self._use(scan)

    def _use(self, scan: _Scan) -> None:
        self.scan = scan
        self.started = scan.started
        revealed = scan.revealed
        self.reveal_version = scan.reveal_version
        self.stored_seeds = stored = scan.stored_seeds
        self.revealed = list(revealed.seeds) if revealed is not None else None
        self.seeds = self.revealed if self.revealed is not None else stored  # see _choose_seeds
        self.seed_source: Literal["revealed", "stored"] = "revealed" if revealed else "stored"

    # ------------------------------------------------------------------ driver
    def run_once(self) -> AuditReport | None:
        """One pass, re-executing with the seeds stored in the history (the seeds revealed at
        its end are unknown until then) and tallying it: the report, when the history checks
        out and any seeds revealed are those stored (re-execution then went as the two passes
        would); else None, and the audit is made again by the two passes (``run``)."""
        records = iter(self.source())
        first = next(records, None)
        opening = None if first is None else _decoded(first)
        tally = _Scan([] if opening is None else [opening], whole=False)
        if tally.mismatch:
            return None
        assert opening is not None  # _Scan refused an empty history
        self.tally = tally
        self._use(_Scan([opening], whole=False))  # the seeds stored so far: the opening's
        try:
            self._replay(opening, records)
        except _Stop:
            return None
        tally.events = self.verified
        if tally.revealed is not None and list(tally.revealed.seeds) != tally.stored_seeds:
            return None
        self._use(tally)
        report = self._report(None)
        if self.sink is not None and report.ok:
            assert self.state is not None
            self.sink.end(self.state)
        return report

    def run(self) -> AuditReport:
        """The second pass of two (the first, ``_Scan``, found the seeds and the totals)."""
        records = iter(self.source())
        divergence = None
        try:
            self._replay(_decoded(next(records)), records)
        except _Stop as stop:
            divergence = stop.divergence
        return self._report(divergence)

    def _report(self, divergence: Divergence | None) -> AuditReport:
        s = self.started
        self.checks.insert(  # first: what the history was checked against
            0,
            Check(
                "rules",
                True,
                f"{s.ruleset} on board {s.board} ({s.board_hash}), engine {s.engine}"
                + (": upcast to this engine" if self.upcast else ": as recorded"),
            ),
        )
        total = self.scan.events
        self.checks.append(self._seed_check())
        same = self.verified - self.given_events
        said = f"{same} of {total} events reproduced byte for byte"
        if self.given_events:
            said += f", {self.given_events} applied as given (below)"
        if divergence is not None:
            said += f"; version {divergence.version} differs"
        self.checks.append(Check("events", divergence is None, said))
        return AuditReport(
            game_id=self.game_id,
            ok=divergence is None and all(c.ok for c in self.checks),
            ruleset=s.ruleset,
            board=s.board,
            board_hash=s.board_hash,
            engine=s.engine,
            events=total,
            commands=self.scan.commands,
            verified=self.verified,
            seed_source=self.seed_source,
            checks=self.checks,
            given=self.given,
            divergence=divergence,
            given_events=self.given_events,
        )

    def _seed_check(self) -> Check:
        if self.revealed is None:
            when = "not revealed yet" if self.started.game_id else "never revealed (no commitment)"
            return Check(
                "seed",
                True,
                f"{when}: the seed stored with the history was used (an owner's audit)",
            )
        same = self.revealed == self.stored_seeds
        return Check(
            "seed",
            same,
            f"revealed at version {self.reveal_version}"
            + ("; the history used these seeds" if same else "; the history used other seeds"),
        )

    def _choose_seeds(self, s: GameStarted) -> None:
        """Re-execute with the revealed seeds, unless only the stored opening seed matches the
        commitment: the reveal is then what was altered, and re-execution reaches it."""
        if self.revealed is None or self.revealed[:1] == [s.seed]:
            return
        committed = bool(s.commitment or s.game_id)

        def matches(seed: int) -> bool:
            return seed_commitment(s.game_id, seed) == s.commitment

        if committed and not matches(self.revealed[0]):
            if matches(s.seed):
                self.seeds = self.stored_seeds
            return  # else neither matches: the commitment check fails
        self._check_commitment(s, self.revealed[0])
        self._stop(
            1,
            0,
            0,
            f"game_started holds seed {s.seed}, not the revealed {self.revealed[0]}",
            None,
            msgspec.structs.replace(s, seed=self.revealed[0]),
            s,
        )

    def _replay(self, opening: GameRecord, records: Iterator[Record]) -> None:
        """Re-execute: each record with a look at the next (a branch point may cut it)."""
        following = next(records, None)
        self._opening(opening, following)
        self._written(opening)
        state = self.state
        assert state is not None  # the opening was accepted
        self.rules = ruleset_of(state)
        self.in_place = self.rules.decides_in_place
        version = len(opening.events)
        i = 0
        # A raw record's command is decided on the audit's own state (``decide_in_place``:
        # nothing copied, each event applied once), unless a record without a command follows
        # (a branch point may cut this one short: the state must then stop part-way) or, in an
        # import, the record spans a multiple of the sink's interval (the state is written at
        # it): those are decided on a copy and applied as accepted (``_raw_on_copy``).  The
        # usual record, written out here, takes no call of the auditor's own.
        in_place, sink, progress = self.in_place, self.sink, self.progress
        every = sink.interval if sink is not None else 0
        decide, tally = self.rules.decide_in_place, self.tally
        while following is not None:
            i += 1
            record, following = following, next(records, None)
            command = record.command
            if command is not None and type(record) is RawRecord:
                if not (
                    in_place
                    and (following is None or following.command is not None)
                    and (sink is None or self.verified % every + record.version - version <= every)
                ):
                    version += self._raw_on_copy(i, version, record, following)
                    continue
                try:
                    expected = decide(state, command)
                except RiskError as e:
                    # Refused, the state perhaps part-way through the command: the audit stops
                    # here, as ``_command`` stops on the same refusal (decided on a copy).
                    self._rejected(i, version, _decoded(record), e)
                encoded = encode(expected)
                if encoded != record.events:
                    version += self._differs_in_place(i, version, record, expected, following)
                    continue
                # The usual case: the recorded events are these, byte for byte (so are their
                # Structs).
                n = len(expected)
                if tally is not None:
                    tally.commands += 1
                    if state.phase == "over":  # (seeds are revealed as a game ends)
                        self._tally(expected)
                self.verified += n
                version += n
                if sink is not None:
                    if n == 1:
                        sink.record_one(command, expected[0], encoded[1:-1])  # the list's inside
                    else:
                        sink.record(command, expected, _each(encoded, expected))
                    if self.verified % every == 0:
                        sink.snapshot(state)
                if progress is not None:
                    progress(n)
                continue
            record = _decoded(record)
            if record.command is None:
                self._given(i, version, record)
            else:
                self._command(i, version, record, following)
            if self.sink is not None:
                self.sink.record(record.command, record.events)
            version += len(record.events)

    # ------------------------------------------------------------------ records
    def _opening(self, record: GameRecord, following: Record | None) -> None:
        s = self.started
        self._choose_seeds(s)
        problem = name_problem(s.game_id) if s.game_id else None
        if problem is not None:
            self.checks.append(Check("commitment", False, f"game_started {problem}"))
            self._stop(1, 0, 0, f"game_started {problem}", None, None, s)
        self._check_derived(s, record.events)
        self._check_commitment(s, self.seeds[0])
        if any(isinstance(ev, PositionSet) for ev in record.events):
            self.given.append(
                f"versions 1-{len(record.events)}: a scenario's opening (position_set), "
                "applied as given"
            )
            self.given_events += len(record.events)
            self._accept(record.events)
            return
        faces: tuple[int, ...] = ()
        if len(record.events) > 1 and isinstance(record.events[1], DiceScripted):
            faces = record.events[1].faces
            self.given.append(f"version 2: a dice script of {len(faces)} faces, applied as given")
            self.given_events += 1
        try:
            expected = risk_core.start(
                s.ruleset,
                [p for p in s.players if not p.neutral],  # the rule set seats its neutrals
                seed=self.seeds[0],
                options=dict(s.options),
                dice=faces,
                game_id=s.game_id,
            )
        except RiskError as e:
            self._stop(1, 0, 0, f"the opening cannot be derived again: {e.message}", None, None, s)
        self._compare(0, 0, None, expected, record.events, following)

    def _command(self, i: int, before: int, record: GameRecord, following: Record | None) -> None:
        assert record.command is not None and self.state is not None
        if self.tally is not None:
            self.tally.commands += 1
        try:
            expected = risk_core.decide(self.state, record.command)
        except RiskError as e:
            self._rejected(i, before, record, e)
        self._compare(i, before, record.command, expected, record.events, following)

    def _rejected(self, i: int, before: int, record: GameRecord, e: RiskError) -> NoReturn:
        self._stop(
            before + 1,
            i,
            0,
            f"the recorded command is rejected: {e.message} [{e.code}]",
            record.command,
            None,
            record.events[0] if record.events else None,
        )

    def _differs_in_place(
        self,
        i: int,
        before: int,
        record: RawRecord,
        expected: list[Event],
        following: Record | None,
    ) -> int:
        """A raw record decided in place whose events are not, byte for byte, ``expected``:
        the events are in the state already, so they are compared without applying them
        again.  Any difference stops the audit (no branch point follows to cut the record
        short); else (the same events, other JSON) its event count."""
        decoded = _decoded(record)
        if self.tally is not None:
            self.tally.commands += 1
        self._compare(i, before, record.command, expected, decoded.events, following, applied=True)
        self.reencoded += len(decoded.events)
        self._written(decoded)
        self._snapshot_due()  # accepted: JSON written otherwise, the same events
        return len(decoded.events)

    def _raw_on_copy(self, i: int, before: int, record: RawRecord, following: Record | None) -> int:
        """A raw record decided on a copy of the state (``risk_core.decide``, when ``_replay``
        may not decide it in place), the events applied as accepted."""
        assert record.command is not None and self.state is not None
        try:
            expected = risk_core.decide(self.state, record.command)
        except RiskError:
            decoded = _decoded(record)  # decided again there, and reported
            self._command(i, before, decoded, following)
            self._written(decoded)
            return len(decoded.events)
        sink = self.sink
        encoded = encode(expected)
        if encoded != record.events:
            decoded = _decoded(record)
            if self.tally is not None:
                self.tally.commands += 1
            self._compare(i, before, record.command, expected, decoded.events, following)
            self.reencoded += len(decoded.events)
            self._written(decoded)
            return len(decoded.events)
        # The usual case: the recorded events are these, byte for byte (so are their Structs).
        if sink is None:
            risk_core.apply_in_place(self.state, expected)
        else:
            sink.record(record.command, expected, _each(encoded, expected))
            self._apply(expected)
        tally = self.tally
        if tally is not None:
            tally.commands += 1
            if self.state.phase == "over":  # (seeds are revealed as a game ends)
                self._tally(expected)
        self.verified += len(expected)
        if self.progress is not None:
            self.progress(len(expected))
        return len(expected)

    def _snapshot_due(self) -> None:
        """An import's snapshot, when the events verified end at a multiple of its interval
        (after a record decided in place: the state holds them already)."""
        sink = self.sink
        if sink is not None and self.verified % sink.interval == 0:
            assert self.state is not None
            sink.snapshot(self.state)

    def _written(self, record: GameRecord) -> None:
        if self.sink is not None:
            self.sink.record(record.command, record.events)

    def _apply(self, events: Sequence[Event]) -> None:
        """Apply accepted events to the state, giving the sink the state at every multiple of
        its interval (a record may span one: it is applied in two parts)."""
        sink = self.sink
        if sink is None:
            if self.state is None:
                self.state = risk_core.replay(events)  # the opening, game_started first
            else:
                risk_core.apply_in_place(self.state, events)
            return
        done, every = self.verified, sink.interval
        if self.state is not None and done % every + len(events) < every:
            risk_core.apply_in_place(self.state, events)  # the usual case: no snapshot due
            return
        start = 0
        while start < len(events):
            part = events[start : start + every - done % every]
            if self.state is None:
                self.state = risk_core.replay(part)
            else:
                risk_core.apply_in_place(self.state, part)
            start += len(part)
            done += len(part)
            if done % every == 0:
                sink.snapshot(self.state)

    def _given(self, i: int, before: int, record: GameRecord) -> None:
        """A record without a command after the opening: a branch point."""
        for k, ev in enumerate(record.events):
            version = before + k + 1
            if k == 0 and isinstance(ev, Branched):
                problem = name_problem(ev.parent)
                if problem is not None:
                    self._stop(version, i, k, f"branched {problem}", None, None, ev)
                if ev.version != before:
                    self._stop(
                        version,
                        i,
                        k,
                        f"branched claims {ev.version} events before it, not {before}",
                        None,
                        None,
                        ev,
                    )
                self._compare_parent(ev)
                self.given.append(
                    f"version {version}: branched from {ev.parent} after version {ev.version}, "
                    "applied as given"
                )
            elif k > 0 and isinstance(ev, DiceReseeded):
                self._check_reseed(i, k, version, ev, record.events[0])
                self.given.append(
                    f"version {version}: a new dice seed (commitment {ev.commitment}), applied "
                    "as given"
                )
            elif k > 0 and isinstance(ev, DiceScripted):
                self.given.append(
                    f"version {version}: a dice script of {len(ev.faces)} faces, applied as given"
                )
            else:
                self._stop(
                    version,
                    i,
                    k,
                    f"a {_tag(ev)} event in a record without a command (only a branch point is)",
                    None,
                    None,
                    ev,
                )
            self.given_events += 1
            self._accept([ev])

    # ------------------------------------------------------------------ checks
    def _check_commitment(self, s: GameStarted, seed: int) -> None:
        if not s.commitment and not s.game_id:
            self.checks.append(
                Check(
                    "commitment",
                    True,
                    "none: the opening names no game (a scenario's position, whose opening is "
                    "given), so it commits to no seed and reveals none",
                )
            )
            return
        expected = seed_commitment(s.game_id, seed)
        if s.commitment != expected:
            self.checks.append(
                Check("commitment", False, f"game_started: {s.commitment or 'none'}")
            )
            self._stop(
                1,
                0,
                0,
                f"the commitment does not match seed_commitment({s.game_id!r}, seed) = {expected}",
                None,
                msgspec.structs.replace(s, commitment=expected),
                s,
            )
        self.checks.append(
            Check("commitment", True, f"game_started commits to the seed as {s.game_id!r}")
        )

    def _check_derived(self, s: GameStarted, events: Sequence[Event]) -> None:
        """An opening that commits to a seed is derived from it whole: one that gives a
        position (``position_set``) or die faces (``dice_scripted``) is no opening a store
        makes, and would pass the deal, the set-up or the dice off as the committed seed's
        under a ``game_started`` the same as the real game's."""
        if not s.commitment and not s.game_id:
            return  # a scenario's opening: given, and committed to nothing
        k = next(
            (
                k
                for k, ev in enumerate(events)
                if isinstance(ev, PositionSet) or (k == 1 and isinstance(ev, DiceScripted))
            ),
            None,
        )
        if k is None:
            return
        what = _tag(events[k])
        self.checks.append(
            Check(
                "commitment",
                False,
                f"game_started commits to the seed as {s.game_id!r}, yet the opening gives a "
                f"{what} event (only a scenario's opening, which commits to nothing, does)",
            )
        )
        self._stop(
            k + 1,
            0,
            k,
            f"a {what} event in an opening that commits to a seed: its position and dice "
            "are derived from that seed, never given",
            None,
            None,
            events[k],
        )

    def _check_reseed(self, i: int, k: int, version: int, ev: DiceReseeded, head: Event) -> None:
        self.reseeds += 1
        if self.revealed is not None and (
            self.reseeds >= len(self.seeds) or self.seeds[self.reseeds] != ev.seed
        ):
            self._stop(
                version, i, k, "this seed is not the one revealed at the end", None, None, ev
            )
        assert isinstance(head, Branched)
        expected = reseed_commitment(head.parent, head.version, ev.seed)
        ok = ev.commitment == expected
        self.checks.append(Check("commitment", ok, f"version {version}: the branch's new seed"))
        if not ok:
            self._stop(
                version,
                i,
                k,
                f"the commitment does not match the seed (expected {expected})",
                None,
                msgspec.structs.replace(ev, commitment=expected),
                ev,
            )

    def _compare_parent(self, ev: Branched) -> None:
        theirs = self.parent_events(ev.parent, ev.version) if self.parent_events else None
        if theirs is None:
            self.checks.append(
                Check("parent", True, f"{ev.parent} is not at hand: the copy was not compared")
            )
            return
        # Our own first events, read once more (the branch point follows them).
        ours = islice((e for r in self.source() for e in _decoded(r).events), ev.version)
        for v, (x, y) in enumerate(zip_longest(ours, theirs), start=1):
            if y is None:
                said = (
                    f"{ev.parent} here has {v - 1} events, fewer than the {ev.version} the "
                    "branch copies of it"
                )
                self.checks.append(Check("parent", False, said))
                return
            if risk_core.encode(x) != risk_core.encode(y):
                self.checks.append(
                    Check("parent", False, f"version {v} differs from {ev.parent}'s")
                )
                return
        self.checks.append(
            Check("parent", True, f"the first {ev.version} events are {ev.parent}'s")
        )

    # ------------------------------------------------------------------ comparison
    def _compare(
        self,
        i: int,
        before: int,
        command: Command | None,
        expected: Sequence[Event],
        recorded: Sequence[Event],
        following: Record | None,
        *,
        applied: bool = False,
    ) -> None:
        """``applied``: the state holds the expected events already (decided in place); those
        the recorded events match are then counted, not applied again."""
        if len(expected) == len(recorded) and risk_core.encode(expected) == risk_core.encode(
            recorded
        ):
            # The usual case at once: a list's JSON is its events' JSON, comma-separated.
            self._accept(recorded, applied=applied)
            return
        for k in range(max(len(expected), len(recorded))):
            want = expected[k] if k < len(expected) else None
            got = recorded[k] if k < len(recorded) else None
            if want is None:
                self._stop(
                    before + k + 1, i, k, "an event the command does not give", command, None, got
                )
            if got is None:
                if _cut_by_branch(following):
                    self.given.append(
                        f"version {before + k}: a branch point cuts this record after {k} of "
                        f"its {len(expected)} events"
                    )
                    return
                self._stop(
                    before + k + 1, i, k, "an event missing from the record", command, want, None
                )
            assert want is not None and got is not None
            if risk_core.encode(want) != risk_core.encode(got):
                self._stop(before + k + 1, i, k, "the event differs", command, want, got)
            self._accept([got], applied=applied)

    def _accept(self, events: Sequence[Event], *, applied: bool = False) -> None:
        if not applied:
            self._apply(events)
        if self.tally is not None:
            self._tally(events)
        self.verified += len(events)
        if self.progress is not None:
            self.progress(len(events))

    def _tally(self, events: Sequence[Event]) -> None:
        """run_once: what ``_Scan`` finds, found in the events accepted (before ``verified``
        counts them): the seeds stored, the first seeds revealed and its version."""
        tally = self.tally
        assert tally is not None
        for k, ev in enumerate(events, start=self.verified + 1):
            if isinstance(ev, DiceReseeded):
                tally.stored_seeds.append(ev.seed)
            elif isinstance(ev, SeedRevealed) and tally.revealed is None:
                tally.revealed, tally.reveal_version = ev, k

    def _stop(
        self,
        version: int,
        record: int,
        index: int,
        reason: str,
        command: Command | None,
        expected: Event | None,
        recorded: Event | None,
    ) -> NoReturn:
        want, got = _plain(expected), _plain(recorded)
        fields = (
            sorted(k for k in {*want, *got} if want.get(k) != got.get(k))
            if isinstance(want, dict) and isinstance(got, dict)
            else []
        )
        raise _Stop(
            Divergence(
                version=version,
                record=record,
                index=index,
                reason=reason,
                command=_plain(command),
                expected=want,
                recorded=got,
                fields=fields,
            )
        )


def _each(encoded: bytes, events: Sequence[Event]) -> Sequence[bytes]:
    """Each event's JSON, from ``encoded``, the JSON of the list of them: a list's JSON is its
    events', comma-separated (most records are one event: the list's inside)."""
    if len(events) == 1:
        return (encoded[1:-1],)
    return [encode(ev) for ev in events]


def _cut_by_branch(following: Record | None) -> bool:
    """Whether the next record is a branch point (which may cut the record before it)."""
    if following is None or following.command is not None:
        return False
    events = _decoded(following).events
    return bool(events) and isinstance(events[0], Branched)


def shown_id(name: str) -> str:
    """A game's id quoted, its characters other than ASCII escaped (``'2\\u043091ec42'``), so
    that a look-alike does not read as the name it imitates."""
    return repr(name) if name.isascii() else ascii(name)


def name_problem(name: str) -> str | None:
    """Why ``name``, a game a history names (its opening's, a branch point's parent), is none a
    store gives, or None: every game is stored under such an id (``GAME_ID``), so another one
    is a name made to look like one (a Cyrillic 'а' for a Latin 'a'), shown escaped."""
    if GAME_ID.fullmatch(name):
        return None
    return (
        f"names game {shown_id(name)}, which no store can hold (a game id is 1-64 ASCII "
        "letters, digits, '.', '_' or '-'): it may be made to look like another game's name"
    )


def _plain(obj: Event | Command | None) -> Any:
    # Through JSON, as a reader of the file sees it: tuples come back as lists.
    return None if obj is None else msgspec.json.decode(risk_core.encode(obj))


def _tag(ev: Event) -> str:
    return str(msgspec.to_builtins(ev).get("type", type(ev).__name__))
