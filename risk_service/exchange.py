"""Export and import: a game as one self-contained JSON Lines file.

Line 1 is the header::

    {"format": "risk-export", "version": 1, "engine": "0.1.0", "game_id": "g1",
     "ruleset": "classic", "options": {...}, "board": "classic", "board_hash": "sha256:...",
     "events": 1297, "digest": "sha256:..."}

then one line per record, in order: ``{"version": V, "command": {...} | null, "events": [...]}``
(``GameRecord``; ``version`` is the engine version after the record).  ``digest`` is the SHA-256
of every byte after the header line.  The file holds the whole history, seeds included: an
export is for the owner of the store (see the README), and it can be audited at once.

``import_game`` validates everything before writing anything: the header, the digest, every
line (each byte for byte what ``write_export`` writes: the same history written otherwise —
spaces, escapes, key order, a key twice or unknown — is refused, so that the digest and the
audit speak of the file's own bytes), the header against ``game_started``, the rules and
board versions, and an audit that re-executes the history; the game is written as the audit
goes, in one atomic write that is rolled back unless every check passes.  Any problem with the
file is ``RiskError("bad_export")`` (``version_mismatch`` for other rules or board data).  A
header naming another game than the one its events were played as is ``game_id_mismatch``
unless the importer names the copy (``game_id=``).  A branch's file is imported only where its
parent is stored (``parent_missing``), and its copied events are compared with the parent's.

Files are streamed, never held whole: an export is written a record at a time (the body to a
spooled temporary file, as the header that comes first holds its digest), and a file is read
by passes over its lines (``ExportReader``).  An import reads it once: it audits and writes
each line as it reads it, checking on the way what the file's check finds, and commits only
if all of it holds (``_import_in_one_pass``); anything amiss, and the write is undone and the
file read again as before, a pass to check it, then one to audit and write it (more only when
the audit finds something amiss), so that a bad file gets the error it always got.  Each pass
hashes what it reads, so a file changed between passes is refused, not half trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

import msgspec

import risk_core
from risk_core import GameState, RiskError
from risk_core.model import Branched, GameStarted, OptionValue, copy_state
from risk_service import versions
from risk_service.audit import (
    AuditReport,
    Check,
    ParentEvents,
    Progress,
    RecordSource,
    audit,
    audit_writing,
    name_problem,
    shown_id,
    store_parent,
)
from risk_service.records import UNREADABLE, RawRecord, line_decoder, line_fields_decoder
from risk_service.store import GAME_ID, GameRecord, GameService, HistoryWriter, ServiceError

FORMAT = "risk-export"
FORMAT_VERSION = 1


class ExportHeader(msgspec.Struct, frozen=True):
    format: str
    version: int
    engine: str
    game_id: str
    ruleset: str
    options: dict[str, OptionValue]
    board: str
    board_hash: str
    events: int
    digest: str


class Export(msgspec.Struct, frozen=True):
    header: ExportHeader
    records: list[GameRecord]
    digest_ok: bool  # the records match the header's digest


class Imported(msgspec.Struct, frozen=True):
    game_id: str
    events: int
    records: int
    state: GameState


_record_decoder = msgspec.json.Decoder(GameRecord)
CHUNK = 1 << 18  # bytes read at a time
SPOOL = 1 << 20  # an export body larger than this goes to a temporary file while written


class Written(msgspec.Struct, frozen=True):
    """What ``write_export`` wrote."""

    header: ExportHeader
    records: int


# --------------------------------------------------------------------------- export
def export_game(service: GameService, game_id: str) -> bytes:
    """The export file of a stored game (see the module's documentation)."""
    out = io.BytesIO()
    write_game(service, game_id, out)
    return out.getvalue()


def write_game(service: GameService, game_id: str, out: IO[bytes]) -> Written:
    """Write the export file of a stored game to ``out``, reading its history page by page."""
    return write_export(game_id, service.iter_records(game_id), out)


def export_records(game_id: str, records: Sequence[GameRecord]) -> bytes:
    out = io.BytesIO()
    write_export(game_id, records, out)
    return out.getvalue()


def write_export(game_id: str, records: Iterable[GameRecord], out: IO[bytes]) -> Written:
    """Write an export of ``records`` to ``out``, one record at a time."""
    sha, events, count = hashlib.sha256(), 0, 0
    started: GameStarted | None = None
    with tempfile.SpooledTemporaryFile(max_size=SPOOL) as body:
        for record in records:
            if started is None:
                started = versions.opening_of([record])
            line = risk_core.encode(record) + b"\n"
            sha.update(line)
            body.write(line)
            events += len(record.events)
            count += 1
        if started is None:
            versions.opening_of([])  # bad_history: a game without records
        assert started is not None
        header = ExportHeader(
            format=FORMAT,
            version=FORMAT_VERSION,
            engine=started.engine,
            game_id=game_id,
            ruleset=started.ruleset,
            options=dict(started.options),
            board=started.board,
            board_hash=started.board_hash,
            events=events,
            digest="sha256:" + sha.hexdigest(),
        )
        out.write(risk_core.encode(header) + b"\n")
        body.seek(0)
        shutil.copyfileobj(body, out, CHUNK)
    return Written(header=header, records=count)


def digest(body: bytes) -> str:
    return "sha256:" + hashlib.sha256(body).hexdigest()


# --------------------------------------------------------------------------- reading
class ExportReader:
    """An export file, read by passes over its lines and never held whole.

    ``source``: the file's bytes, or a seekable binary file (read from its start; the reader
    keeps its own place, so two passes may be under way at once).  The header is read at once
    (``bad_export`` if there is none).  ``check`` is the first pass, required before
    ``records``; each pass hashes the lines it reads and a complete one must find the bytes
    that ``check`` found.
    """

    def __init__(self, source: bytes | IO[bytes]) -> None:
        self._file: IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else source
        self._file.seek(0)
        first = self._file.readline()
        self._newline = first.endswith(b"\n")
        self._header_line = first.removesuffix(b"\n")
        self.header = _header(self._header_line)
        _check_loaded(self.header)
        self._start = self._file.tell()
        self._body_digest: str | None = None  # found by ``check``
        self.records_count = 0
        self.branch = False  # whether a ``branched`` event is among the records
        self.branched: Branched | None = None  # the last one: the file's own branch point
        self.ancestors: list[str] = []  # the parent each branch point names, in order
        self.started: GameStarted | None = None
        # The first line not as ``write_export`` writes it, described (found by ``check``).
        self.unlike_export: str | None = None

    def check(self, *, require_digest: bool = True) -> bool:
        """The first pass: every check of the file (``bad_export`` on anything amiss); whether
        the records match the header's digest.

        ``require_digest=False`` (an audit of the file) reports a digest mismatch, and a line
        not as ``write_export`` writes it (``unlike_export``), instead of refusing, so that
        the audit can name the altered event.  The checks and their order are those of reading
        the file whole: the digest, truncation, the first line that is not a record, the first
        line not written as an export writes it, then the records themselves
        (``_RecordCheck``).
        """
        read = _Pass()
        line_error: str | None = None
        unlike = _unlike(1, self._header_line, risk_core.encode(self.header))
        records = _RecordCheck(self.header)
        for n, line in enumerate(self._lines(read), start=2):
            if not line:
                line_error = line_error or f"line {n} is empty"
                continue
            try:
                record = _record_decoder.decode(line)
            except UNREADABLE as e:
                line_error = line_error or f"line {n} is not a record: {e}"
                continue
            # Byte for byte what the export wrote: JSON read the same way by every reader (no
            # duplicate or unknown keys), so that the digest and the audit speak of its bytes.
            unlike = unlike or _unlike(n, line, risk_core.encode(record))
            records.add(n, record)
            points = [e for e in record.events if isinstance(e, Branched)]
            self.branch = self.branch or bool(points)
            self.branched = points[-1] if points else self.branched
            self.ancestors += [p.parent for p in points]
        digest_ok = read.digest() == self.header.digest
        if require_digest and not digest_ok:
            raise _bad(
                "its records do not match the digest in its header: it was changed or "
                "truncated after export"
            )
        if not self._newline or read.truncated:
            raise _bad("it is truncated (the last line is incomplete)")
        if line_error is not None:
            raise _bad(line_error)
        if unlike is not None and require_digest:
            raise _bad(unlike)
        self.unlike_export = unlike
        self.started = records.finish()
        self.records_count = records.count
        self._body_digest = read.digest()
        return digest_ok

    def first_record(self) -> GameRecord | None:
        """The first record, decoded; None if there is none or it does not decode."""
        try:
            return _record_decoder.decode(next(self._lines(_Pass())))
        except (StopIteration, *UNREADABLE):
            return None

    def records(self) -> Iterator[GameRecord]:
        """A pass over the records (after ``check``); ``bad_export`` if the file changed."""
        return self._records(_record_decoder.decode)

    def raw_records(self) -> Iterator[RawRecord]:
        """``records``, their events left as JSON (``risk_service.records``): the audit's."""
        return self._records(line_decoder())

    def _records(self, decode: Callable[[bytes], Any]) -> Iterator[Any]:
        if self._body_digest is None:
            raise RuntimeError("ExportReader.check() reads the file first")
        read = _Pass()
        try:
            for line in self._lines(read):
                yield decode(line)
        except UNREADABLE:
            raise _bad("it changed while it was read") from None
        if read.digest() != self._body_digest:
            raise _bad("it changed while it was read")

    def _lines(self, read: _Pass) -> Iterator[bytes]:
        """The lines after the header, without their newlines (the last one even if it has
        none: ``read.truncated`` says so); ``read`` hashes them as they go."""
        place = self._start
        # The start of a line not ended yet, a chunk at a time: joined once it ends, as
        # joining it to every chunk read would copy a long line over and over (a line of
        # 64 MiB took half a minute).
        pending: list[bytes] = []
        while True:
            self._file.seek(place)
            chunk = self._file.read(CHUNK)
            if not chunk:
                break
            place += len(chunk)
            read.sha.update(chunk)
            lines = chunk.split(b"\n")
            if len(lines) == 1:
                pending.append(chunk)
                continue
            lines[0] = b"".join((*pending, lines[0]))
            pending = [lines.pop()]
            yield from lines
        rest = b"".join(pending)
        if rest:
            read.truncated = True
            yield rest


def _unlike(n: int, line: bytes, written: bytes) -> str | None:
    """Why line ``n`` is not ``written`` (what the export writes for what it holds), or None."""
    if line == written:
        return None
    pairs = enumerate(zip(line, written, strict=False))
    at = next((k for k, (a, b) in pairs if a != b), min(len(line), len(written)))
    return (
        f"line {n} is not as `risk export` writes it (from byte {at + 1}: "
        f"{_excerpt(line, at)} where the export writes {_excerpt(written, at)}), so it "
        "cannot be checked byte for byte: edited or reformatted (line endings, spaces, "
        "escapes, key order, duplicate or unknown keys)"
    )


def _excerpt(data: bytes, at: int) -> str:
    part = data[at : at + 24]
    text = part.decode("utf-8", "backslashreplace") if part else "the end of the line"
    return repr(text) if part else text


class _Pass:
    """One pass over a file's lines: the hash of what it read, and whether it ended mid-line."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.truncated = False

    def digest(self) -> str:
        return "sha256:" + self.sha.hexdigest()


def read_export(data: bytes, *, require_digest: bool = True) -> Export:
    """Parse and check a whole export file; ``bad_export`` on anything amiss (see
    ``ExportReader.check``; this holds every record: large files are better read by passes)."""
    reader = ExportReader(data)
    digest_ok = reader.check(require_digest=require_digest)
    return Export(header=reader.header, records=list(reader.records()), digest_ok=digest_ok)


def read_header(data: bytes | IO[bytes]) -> ExportHeader:
    """Only the header of an export (``bad_export`` if it has none)."""
    if isinstance(data, bytes):
        return _header(data.partition(b"\n")[0])
    return ExportReader(data).header


def _check_loaded(header: ExportHeader) -> None:
    """``unknown_ruleset`` for an export of a rule set not loaded here: its family's records
    would not even decode (each would be "not a record"), let alone replay."""
    from risk_core.rulesets import names

    if header.ruleset not in names():
        raise RiskError(
            "unknown_ruleset",
            f"This export holds a game of the rule set '{header.ruleset}', which is not loaded "
            "here: name its rule family in RISK_FAMILIES (or install its entry point).",
        )


def _header(line: bytes) -> ExportHeader:
    try:
        raw: Any = msgspec.json.decode(line)
    except UNREADABLE:
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise _bad(f"it is not a game export (its first line is not a {FORMAT} header)")
    if raw.get("version") != FORMAT_VERSION:
        raise _bad(
            f"it is a {FORMAT} file of version {raw.get('version')!r}; this reads version "
            f"{FORMAT_VERSION}"
        )
    try:
        return msgspec.convert(raw, ExportHeader)
    except msgspec.ValidationError as e:
        raise _bad(f"its header is incomplete: {e}") from None


class _RecordCheck:
    """The records of a file, checked one by one as they are read, then as a whole."""

    def __init__(self, header: ExportHeader) -> None:
        self.header = header
        self.count = 0
        self.version = 0
        self.first: GameRecord | None = None
        self.error: str | None = None  # the first line found wrong

    def add(self, n: int, record: GameRecord) -> None:
        self.count += 1
        self.first = self.first or record
        if self.error is not None:
            return
        if not record.events:
            self.error = f"line {n} is a record without events"
            return
        self.version += len(record.events)
        if record.version != self.version:
            self.error = f"line {n} says version {record.version}, but it ends at {self.version}"

    def finish(self) -> GameStarted:
        """The checks of the whole; the opening event."""
        header = self.header
        if self.first is None:
            raise _bad("it holds no record")
        if self.error is not None:
            raise _bad(self.error)
        if self.version != header.events:
            raise _bad(f"its header announces {header.events} events, and it holds {self.version}")
        started = self.first.events[0]
        if self.first.command is not None or not isinstance(started, GameStarted):
            raise _bad("its first record is not a game's opening")
        recorded = {
            "engine": started.engine,
            "ruleset": started.ruleset,
            "options": dict(started.options),
            "board": started.board,
            "board_hash": started.board_hash,
        }
        for key, value in recorded.items():
            if getattr(header, key) != value:
                raise _bad(f"its header gives {key} {getattr(header, key)!r}, its game {value!r}")
        return started


CANNOT_IMPORT = "This file cannot be imported: "


def _bad(why: str) -> RiskError:
    return RiskError("bad_export", f"{CANNOT_IMPORT}{why}.")


@contextlib.contextmanager
def auditing() -> Iterator[None]:
    """A file refused while it is audited says so (``_bad`` speaks of an import): around an
    audit's reading of a file, its header included."""
    try:
        yield
    except RiskError as e:
        if e.code != "bad_export" or not e.message.startswith(CANNOT_IMPORT):
            raise
        why = e.message.removeprefix(CANNOT_IMPORT)
        raise RiskError("bad_export", f"This file cannot be audited: {why}") from None


# --------------------------------------------------------------------------- audit, import
def audit_export(
    data: bytes | IO[bytes],
    *,
    parent_events: ParentEvents | None = None,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Audit an export file: its digest, then the history (``risk_service.audit``), reading
    the file by passes (``ExportReader``)."""
    with auditing():
        reader = ExportReader(data)
        digest_ok = reader.check(require_digest=False)
        report = audit(
            reader.raw_records,
            game_id=reader.header.game_id,
            parent_events=parent_events,
            progress=progress,
        )
    detail = (
        "the records match the header's digest"
        if digest_ok
        else "the records do not match the header's digest: changed or truncated after export"
    )
    report.checks.insert(0, Check("digest", digest_ok, detail))
    unlike = reader.unlike_export
    form = "every line as `risk export` writes it" if unlike is None else unlike
    report.checks.append(Check("form", unlike is None, form))
    report.ok = report.ok and digest_ok and unlike is None
    name = _name_check(reader)
    if name is not None:
        report.checks.append(name)
        report.ok = report.ok and name.ok
    return report


def _name_check(reader: ExportReader) -> Check | None:
    """The header's ``game_id`` against the names in the events, as ``_check_named`` refuses
    an import: a game's header names the game its events were played as; a branch's (whose
    events name its root and each game it branches from) names none of those, as a game is
    not its own ancestor.  None when there is nothing to compare (a scenario's opening)."""
    started, named = reader.started, reader.header.game_id
    if started is None:
        return None
    if reader.branch:
        problem = _branch_name_problem(reader)
        if problem is not None:
            return Check("name", False, problem)
        parent = reader.branched.parent if reader.branched is not None else "?"
        return Check(
            "name", True, f"the header names game {shown_id(named)}, a branch of {shown_id(parent)}"
        )
    if not started.game_id:
        return None
    played = started.game_id
    if named == played:
        return Check("name", True, f"the header names game {shown_id(named)}, as its opening does")
    said = f"the header names game {shown_id(named)}, but its events were played as "
    return Check("name", False, said + shown_id(played))


def _branch_name_problem(reader: ExportReader) -> str | None:
    """Why a branch's header cannot name it (it names a game the branch descends from: a
    file passing a doctored copy off as that game), or None."""
    assert reader.started is not None
    named, root = reader.header.game_id, reader.started.game_id
    if named in reader.ancestors:
        return (
            f"the header names game {shown_id(named)}, which the file's branch point says it "
            "branches from: a game is not its own ancestor"
        )
    if named == root:
        return (
            f"the header names game {shown_id(named)}, the game its opening names (its root): a "
            "branch is another game than the one it branches from"
        )
    return None


def import_game(
    service: GameService,
    data: bytes | IO[bytes],
    *,
    game_id: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Imported:
    """Validate an export completely, and store it as a new game in one atomic write.

    The usual file is read once (``_import_in_one_pass``).  Otherwise, and whenever that pass
    finds anything amiss, the file is read twice: checked, then audited and written in one
    pass inside the write's transaction (``audit_writing`` into ``GameService.writing``: the
    state the audit folds is the one whose snapshots are stored, a command's rows are put
    together from the event bytes the audit compared).  Should that pass not conclude (a
    difference, seeds revealed other than those stored), the transaction is rolled back and
    the file audited again by ``audit``, which says what is wrong: nothing is written unless
    every check passes.
    """
    reader = ExportReader(data)
    told = Progress(progress)
    done = _import_in_one_pass(service, reader, game_id, told)
    if done is not None:
        return done
    told.again()  # nothing is written: the file is checked, then audited and written again
    reader.check()
    if game_id is None:
        _check_named(reader)
    target = game_id or reader.header.game_id
    if not GAME_ID.fullmatch(target):
        raise ServiceError(
            "bad_game_id",
            f"Game id {shown_id(target)}: use 1-64 letters, digits, '.', "
            "'_' or '-', starting with a letter or digit.",
        )
    if _exists(service, target):  # before a long audit; the write checks again
        raise ServiceError(
            "game_exists", f"There is already a game '{target}' in {service.store_url}."
        )
    _check_parent(service, reader, target)
    assert reader.started is not None  # check() found it
    if versions.mismatch(reader.started) is None:
        # The usual case: the audit writes what it checks, in the write's one transaction.
        try:
            with service.writing(target) as writer:
                report = audit_writing(
                    reader.raw_records,
                    game_id=reader.header.game_id,
                    sink=writer,
                    progress=told,
                    parent_events=_import_parent(service, target),
                )
                if report is None or not report.ok:
                    raise _Undo
        except _Undo:
            told.again()  # nothing is written: audited again below, to say what is wrong
        else:
            assert writer.state is not None  # audit_writing ended the writer
            return Imported(
                game_id=target,
                events=report.events,
                records=reader.records_count,
                state=copy_state(writer.state),
            )
    source: Callable[[], Iterable[GameRecord]] = reader.records  # the write's
    checked: RecordSource = reader.raw_records  # the audit's: it decodes only what differs
    if versions.mismatch(reader.started) is not None:
        # Upcasters rewrite whole histories: such a file is read whole (none exists today).
        pinned = versions.pinned(list(reader.records()), reader.header.game_id)
        source = checked = lambda: pinned  # noqa: E731
    report = audit(
        checked,
        game_id=reader.header.game_id,
        parent_events=_import_parent(service, target),
        progress=told,
    )
    if not report.ok:
        d = report.divergence
        where = (
            f"version {d.version}: {d.reason}"
            if d
            else "; ".join(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)
        )
        raise _bad(f"its history does not reproduce ({where}); `risk audit --file` tells more")
    state = service.store_records(target, source())
    return Imported(
        game_id=target,
        events=report.events,
        records=reader.records_count,
        state=state,
    )


def _import_parent(
    service: GameService, target: str, *, one_pass: bool = False, root: str | None = None
) -> ParentEvents:
    """``store_parent`` for an import stored as ``target``: a branch of a game of that name
    (its own file names each game it descends from) is refused, where it would be stored
    as its own ancestor.  ``one_pass``: a parent the store lacks ends the one-pass import,
    as only the file's check knows whether it is the file's own parent (``_check_parent``),
    and so does a branch stored under its root's name (``root``, its opening's: the file's
    check refuses it, ``_check_named``)."""
    compare = store_parent(service)

    def parent_events(parent: str, n: int) -> Iterable[risk_core.Event] | None:
        if parent == target:
            raise _stored_as_ancestor(parent, n)
        if one_pass and root == target:
            raise _Undo
        theirs = compare(parent, n)
        if theirs is None and one_pass:
            raise _Undo
        return theirs

    return parent_events


def _stored_as_ancestor(parent: str, n: int) -> RiskError:
    return _bad(
        f"it is a branch of {parent!r} (after its version {n}): a game cannot be "
        "stored under the name of a game it branches from; import it with another --id"
    )


def _check_parent(service: GameService, reader: ExportReader, target: str) -> None:
    """A branch's file is imported into a store that holds its parent (``parent_missing``).

    The file holds the events it copies from its parent, and the audit re-executes them, but
    the branch names its parent by id: imported alone, it would hang from whatever game of
    that name the store gets later (``risk tree``), and its audit there would compare it with
    that game and fail.  With the parent in the store the audit compares the copy at once.
    Only the file's own branch point is required (its latest ``branched`` event): its parent
    holds the earlier ones."""
    point = reader.branched
    if point is None:
        return
    problem = name_problem(point.parent)
    if problem is not None:  # no store holds it: the audit refuses it as well
        raise _bad(f"its branch point {problem}")
    if point.parent == target:
        raise _stored_as_ancestor(point.parent, point.version)
    if not _exists(service, point.parent):
        raise RiskError(
            "parent_missing",
            f"This file is a branch of game {point.parent!r} (after its version "
            f"{point.version}), which {service.store_url} does not hold: import "
            f"{point.parent}'s export first (`risk export {point.parent}` where it is "
            "stored), then this one; a branch is checked against its parent.",
        )


class _Undo(Exception):
    """The one-pass audit did not conclude: what it wrote is rolled back."""


def _import_in_one_pass(
    service: GameService, reader: ExportReader, game_id: str | None, told: Progress
) -> Imported | None:
    """The usual import, reading the file once: audited and written as it is read, what
    ``ExportReader.check`` finds (the digest, truncation, each line a record whose version
    counts its events, the header against the opening) found on the way and checked before
    the write commits.  None, with nothing written, when anything is amiss or out of the
    ordinary (a file of another engine, a header naming another game, a taken id): the caller
    then checks the file first, which refuses it with the error it always gave.

    The lines' events are decoded only where the audit decodes them (a record given, or one
    whose events are not those re-execution gives, byte for byte): a recorded event that is
    not one then fails that decoding, and the file's own check names the line."""
    first = reader.first_record()
    if first is None or not first.events or not isinstance(first.events[0], GameStarted):
        return None
    started, named = first.events[0], reader.header.game_id
    if game_id is None and started.game_id and named != started.game_id:
        return None  # perhaps a branch's file (its events name the root): _check_named decides
    target = game_id or named
    if not GAME_ID.fullmatch(target) or versions.mismatch(started) is not None:
        return None
    single = _OnePass(reader)
    try:
        if _exists(service, target):
            return None
        with service.writing(target) as writer:
            single.writer = writer
            report = audit_writing(
                single,
                game_id=named,
                sink=writer,
                progress=told,
                parent_events=_import_parent(
                    service, target, one_pass=True, root=None if game_id else started.game_id
                ),
            )
            if report is None or not report.ok or not single.checks_out(first, report.events):
                raise _Undo
    except (_Undo, RiskError, *UNREADABLE):
        return None
    assert writer.state is not None  # audit_writing ended the writer
    return Imported(
        game_id=target, events=report.events, records=single.count, state=copy_state(writer.state)
    )


def _as_written(record: RawRecord) -> bytes:
    """A record's line as ``write_export`` writes it, its events as they are: the audit
    compares those with the events the command gives, byte for byte (``audit_writing`` gives
    no report where it had to decode them), and encodes again those of a record without a
    command."""
    command = b"null" if record.command is None else risk_core.encode(record.command)
    events = record.events
    if record.command is None:
        events = risk_core.encode(risk_core.decode_events(events))
    return b'{"version":%d,"command":%s,"events":%s}' % (record.version, command, events)


class _OnePass:
    """The records of a file read once (``RecordSource``: one call only), with what the
    file's check needs found as they are read (``checks_out``).

    Each line's ``version`` must be the count of the events up to its end, and grow: the
    events the audit wrote say so (``HistoryWriter.version``; the audit holds one record read
    ahead, so when a line is asked for, those before the one it holds are written)."""

    def __init__(self, reader: ExportReader) -> None:
        self.reader = reader
        self.writer: HistoryWriter | None = None
        self.read = _Pass()
        self.count = 0  # lines read (once every line is read: ``whole``)
        self.whole = False  # every line read
        self.called = False
        self.versions = [0, 0, 0]  # the versions of the last three lines, oldest first (idem)

    def __call__(self) -> Iterator[RawRecord]:
        if self.called:  # the one-pass audit reads its source once
            raise _Undo
        self.called = True
        return self._records()

    def _records(self) -> Iterator[RawRecord]:
        decode, writer = line_fields_decoder(), self.writer
        assert writer is not None
        count = older = before = last = 0  # lines read; the last three's versions, oldest first
        for line in self.reader._lines(self.read):
            # The line before the last one read is written: ``older`` and ``before`` are its
            # predecessor's version and its own (0 before the first line).
            if count > 1 and not older < before == writer.version:
                raise _Undo
            raw = decode(line)  # msgspec.DecodeError: not a record, the file's check says so
            record = RawRecord(raw.version, raw.command, bytes(raw.events))
            if line != _as_written(record):
                raise _Undo  # not as an export writes it: the file's check says where
            count += 1
            older, before, last = before, last, record.version
            yield record
        if count > 1 and not older < before == writer.version:
            raise _Undo
        # Read by ``checks_out`` and the import's report, once every line is read.
        self.count, self.versions, self.whole = count, [older, before, last], True

    def checks_out(self, first: GameRecord, events: int) -> bool:
        """Whether ``ExportReader.check`` finds nothing amiss, after an audit that went through
        every line (their versions, and each line as an export writes it, checked as they
        were read: its events as the audit found them, byte for byte) and found ``events``
        events."""
        reader = self.reader
        if not self.whole or not reader._newline or self.read.truncated:
            return False
        if not self.versions[1] < self.versions[2] == events:  # the last line's, written
            return False
        if self.read.digest() != reader.header.digest:
            return False
        if reader._header_line != risk_core.encode(reader.header):
            return False
        records = _RecordCheck(reader.header)
        records.first, records.count, records.version = first, self.count, events
        try:
            records.finish()
        except RiskError:
            return False
        return True


def _check_named(reader: ExportReader) -> None:
    """The header's ``game_id`` must be the game its events were played as.

    A game's opening names it (``game_started.game_id``) and binds its seed commitment to that
    name; a header naming another game would store the history under a name it was never
    played as.  A branch's events name its root game, not the branch: its header is not
    compared.  Importing under an explicit id (``game_id=``, ``risk import --id``) is a copy
    the importer names, and is not refused.
    """
    started = reader.started
    assert started is not None  # check() found it
    named, played = reader.header.game_id, started.game_id
    if reader.branch and named == played and named not in reader.ancestors:
        raise RiskError(
            "game_id_mismatch",
            f"This file's header names game {shown_id(named)}, the game its opening names, but "
            f"it is a branch of {shown_id(reader.ancestors[-1])}: a branch is another game than "
            "its root; "
            "choose the id to store it under (risk import --id ID).",
        )
    if played and not reader.branch and named != played:
        raise RiskError(
            "game_id_mismatch",
            f"This file's header names game {shown_id(named)}, but its events were played as "
            f"{shown_id(played)} (its opening and seed commitment name {shown_id(played)}): "
            "choose the id to store it under (risk import --id ID).",
        )


def _exists(service: GameService, game_id: str) -> bool:
    try:
        service.events(game_id, upto=1)
    except ServiceError as e:
        if e.code == "unknown_game":
            return False
        raise
    return True
