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
line, the header against ``game_started``, the rules and board versions, and an audit that
re-executes the history.  Then the game is stored in one atomic write.  Any problem with the
file is ``RiskError("bad_export")`` (``version_mismatch`` for other rules or board data).  A
header naming another game than the one its events were played as is ``game_id_mismatch``
unless the importer names the copy (``game_id=``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

import risk_core
from risk_core import GameState, RiskError
from risk_core.model import Branched, GameStarted, OptionValue
from risk_service import versions
from risk_service.audit import AuditReport, Check, ParentEvents, audit
from risk_service.store import GAME_ID, GameRecord, GameService, ServiceError

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


# --------------------------------------------------------------------------- export
def export_game(service: GameService, game_id: str) -> bytes:
    """The export file of a stored game (see the module's documentation)."""
    return export_records(game_id, service.records(game_id))


def export_records(game_id: str, records: Sequence[GameRecord]) -> bytes:
    started = versions.opening_of(records)
    body = b"".join(risk_core.encode(r) + b"\n" for r in records)
    header = ExportHeader(
        format=FORMAT,
        version=FORMAT_VERSION,
        engine=started.engine,
        game_id=game_id,
        ruleset=started.ruleset,
        options=dict(started.options),
        board=started.board,
        board_hash=started.board_hash,
        events=sum(len(r.events) for r in records),
        digest=digest(body),
    )
    return risk_core.encode(header) + b"\n" + body


def digest(body: bytes) -> str:
    return "sha256:" + hashlib.sha256(body).hexdigest()


# --------------------------------------------------------------------------- reading
def read_export(data: bytes, *, require_digest: bool = True) -> Export:
    """Parse and check an export file; ``bad_export`` on anything amiss.

    ``require_digest=False`` (an audit of the file) reports a digest mismatch in
    ``Export.digest_ok`` instead of refusing, so that the audit can name the altered event.
    """
    first, newline, body = data.partition(b"\n")
    header = _header(first)
    digest_ok = digest(body) == header.digest
    if require_digest and not digest_ok:
        raise _bad(
            "its records do not match the digest in its header: it was changed or truncated "
            "after export"
        )
    if not newline or (body and not body.endswith(b"\n")):
        raise _bad("it is truncated (the last line is incomplete)")
    records = []
    for n, line in enumerate(body.splitlines(), start=2):
        try:
            records.append(_record_decoder.decode(line))
        except msgspec.DecodeError as e:
            raise _bad(f"line {n} is not a record: {e}") from None
    _check_records(header, records)
    return Export(header=header, records=records, digest_ok=digest_ok)


def read_header(data: bytes) -> ExportHeader:
    """Only the header of an export (``bad_export`` if it has none)."""
    return _header(data.partition(b"\n")[0])


def _header(line: bytes) -> ExportHeader:
    try:
        raw: Any = msgspec.json.decode(line)
    except msgspec.DecodeError:
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


def _check_records(header: ExportHeader, records: list[GameRecord]) -> None:
    if not records:
        raise _bad("it holds no record")
    version = 0
    for n, record in enumerate(records, start=2):
        if not record.events:
            raise _bad(f"line {n} is a record without events")
        version += len(record.events)
        if record.version != version:
            raise _bad(f"line {n} says version {record.version}, but it ends at {version}")
    if version != header.events:
        raise _bad(f"its header announces {header.events} events, and it holds {version}")
    started = records[0].events[0]
    if records[0].command is not None or not isinstance(started, GameStarted):
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


def _bad(why: str) -> RiskError:
    return RiskError("bad_export", f"This file cannot be imported: {why}.")


# --------------------------------------------------------------------------- audit, import
def audit_export(
    data: bytes,
    *,
    parent_events: ParentEvents | None = None,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Audit an export file: its digest, then the history (``risk_service.audit``)."""
    exported = read_export(data, require_digest=False)
    report = audit(
        exported.records,
        game_id=exported.header.game_id,
        parent_events=parent_events,
        progress=progress,
    )
    detail = (
        "the records match the header's digest"
        if exported.digest_ok
        else "the records do not match the header's digest: changed or truncated after export"
    )
    report.checks.insert(0, Check("digest", exported.digest_ok, detail))
    report.ok = report.ok and exported.digest_ok
    return report


def import_game(
    service: GameService,
    data: bytes,
    *,
    game_id: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Imported:
    """Validate an export completely, then store it as a new game in one atomic write."""
    exported = read_export(data)
    if game_id is None:
        _check_named(exported)
    target = game_id or exported.header.game_id
    if not GAME_ID.fullmatch(target):
        raise ServiceError(
            "bad_game_id",
            f"Game id {target!r}: use 1-64 letters, digits, '.', "
            "'_' or '-', starting with a letter or digit.",
        )
    if _exists(service, target):  # before a long audit; the write checks again
        raise ServiceError(
            "game_exists", f"There is already a game '{target}' in {service.store_url}."
        )
    records = versions.pinned(exported.records, exported.header.game_id)
    report = audit(records, game_id=exported.header.game_id, progress=progress)
    if not report.ok:
        d = report.divergence
        where = (
            f"version {d.version}: {d.reason}"
            if d
            else "; ".join(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)
        )
        raise _bad(f"its history does not reproduce ({where}); `risk audit --file` tells more")
    state = service.store_records(target, records)
    return Imported(
        game_id=target,
        events=report.events,
        records=len(records),
        state=state,
    )


def _check_named(exported: Export) -> None:
    """The header's ``game_id`` must be the game its events were played as.

    A game's opening names it (``game_started.game_id``) and binds its seed commitment to that
    name; a header naming another game would store the history under a name it was never
    played as.  A branch's events name its root game, not the branch: its header is not
    compared.  Importing under an explicit id (``game_id=``, ``risk import --id``) is a copy
    the importer names, and is not refused.
    """
    started = exported.records[0].events[0]
    assert isinstance(started, GameStarted)  # read_export checked it
    named, played = exported.header.game_id, started.game_id
    branch = any(isinstance(e, Branched) for r in exported.records for e in r.events)
    if played and not branch and named != played:
        raise RiskError(
            "game_id_mismatch",
            f"This file's header names game {named!r}, but its events were played as "
            f"{played!r} (its opening and seed commitment name {played!r}): choose the id to "
            "store it under (risk import --id ID).",
        )


def _exists(service: GameService, game_id: str) -> bool:
    try:
        service.events(game_id, upto=1)
    except ServiceError as e:
        if e.code == "unknown_game":
            return False
        raise
    return True
