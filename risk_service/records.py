"""A game record as read from a store or an export file, its events left as their JSON.

``GameRecord`` (``risk_service.store``) is a record decoded: the command and every event as
Structs.  An audit re-executes the command and compares the events it gives with the recorded
ones byte for byte; when they are the same, which is what an audit is for, the recorded events
need not be decoded at all.  ``RawRecord`` keeps them as the JSON array they are stored as
(``risk_core.encode`` of the events); ``risk_service.audit`` decodes them only where it must
look closer.  The readers: ``risk_service.read_sqlite.raw_records`` (a SQLite store's rows) and
``risk_service.exchange.ExportReader.raw_records`` (an export file's lines).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, Union

import msgspec

from risk_core import model
from risk_core.model import Command
from risk_core.rulesets import names as ruleset_names

# What decoding a line that is no record of ours raises: msgspec's error, or Python's for bytes
# that are not UTF-8 (a string's bytes are checked as they are read).
UNREADABLE = (msgspec.DecodeError, UnicodeDecodeError)


class RawRecord(msgspec.Struct, gc=False):
    """One record: ``version`` after it, its ``command`` (None: the opening or a branch point)
    and its events' JSON array."""

    version: int
    command: Command | None
    events: bytes


_decoders: dict[tuple[str, int], Any] = {}


def _decoder(kind: str) -> Any:
    """The decoders of every rule family's commands (every family loaded first, as the store's
    and the export's own decoders know them all), rebuilt when a family adds commands."""
    ruleset_names()
    key = (kind, len(model.COMMAND_TYPES))
    decoder = _decoders.get(key)
    if decoder is None:
        commands: Any = Union.__getitem__(tuple(model.COMMAND_TYPES))  # as risk_core.model's
        if kind == "rows":  # stored game events (``read_sqlite.raw_records``)
            row = msgspec.defstruct(
                "RawRow",
                [("event", msgspec.Raw), ("command", commands | None, None), ("batch", int, 0)],
                gc=False,
            )
            decoder = msgspec.json.Decoder(list[row])  # type: ignore[valid-type]
        else:  # an export's line, its events left as JSON
            line = msgspec.defstruct(
                "RawLine",
                [("version", int), ("command", commands | None), ("events", msgspec.Raw)],
                gc=False,
            )
            decoder = msgspec.json.Decoder(line)
        _decoders[key] = decoder
    return decoder


class StoredRow(Protocol):
    """A stored game event as ``risk_service.mapper.EventRow``, its event kept as the JSON it
    is stored as (``risk_core.encode``'s bytes) and its command decoded (``row_decoder``)."""

    event: msgspec.Raw
    command: Command | None
    batch: int


def row_decoder() -> Callable[[bytes], list[StoredRow]]:
    """A decoder of a JSON array of stored game events (SQLite's ``state`` column, its rows
    comma-separated), for a pass over many pages."""
    decoder: Callable[[bytes], list[StoredRow]] = _decoder("rows").decode
    return decoder


def raw_records_of(
    states: Callable[[int, int], Sequence[bytes]],
    upto: int,
    page: int,
    close: Callable[[], None] | None = None,
) -> Iterator[RawRecord]:
    """A game's records up to version ``upto`` (which ends a record), from its stored rows
    (``states(gt, lte)``: their JSON, in version order), ``page`` rows a time, each page decoded
    in one call (``row_decoder``: the events left as their JSON, every command decoded).  A row
    with a ``batch`` opens a record, and a page may end inside one; each record's version
    counts the rows up to its end (versions run 1, 2, ... without gaps).  ``close`` is called
    once the pass ends, however it ends (the reader's connection)."""
    decode = row_decoder()
    read = 0
    command: Command | None = None  # of the record under way (its events so far: held)
    held: list[msgspec.Raw] = []
    try:
        while read < upto:
            rows = decode(b"[" + b",".join(states(read, min(read + page, upto))) + b"]")
            if not rows:
                break
            for row in rows:
                if row.batch and held:  # a row with a batch opens the next record
                    yield RawRecord(read, command, b"[" + b",".join(held) + b"]")
                    held = []
                if not held:
                    command = row.command
                held.append(row.event)
                read += 1
        if held:
            yield RawRecord(read, command, b"[" + b",".join(held) + b"]")
    finally:
        if close is not None:
            close()


def decode_line(line: bytes) -> RawRecord:
    """An export file's record line (``{"version", "command", "events"}``), its events left as
    their JSON; ``msgspec.DecodeError`` for a line that is not one."""
    return line_decoder()(line)


def line_decoder() -> Callable[[bytes], RawRecord]:
    """``decode_line`` for a pass over many lines: the decoder is looked up once."""
    decode = line_fields_decoder()

    def decode_one(line: bytes) -> RawRecord:
        raw = decode(line)
        return RawRecord(raw.version, raw.command, bytes(raw.events))

    return decode_one


def line_fields_decoder() -> Callable[[bytes], Any]:
    """The decoder of an export line's fields (``version``, ``command``, ``events``), its events
    as a ``msgspec.Raw`` view of the line: what ``line_decoder`` makes a ``RawRecord`` of, for
    a loop over many lines that makes it itself (a call less per line)."""
    decode: Callable[[bytes], Any] = _decoder("line").decode
    return decode
