"""The stored form of games: msgspec JSON, typed on the way in and on the way out.

eventsourcing's default transcoder goes through ``json``: a snapshot's ``dict[int, ...]`` would
come back with string keys and every tuple as a list, so a state rebuilt from the store would
not equal the live one.  ``MsgspecMapper`` replaces the whole Mapper (``MAPPER_TOPIC``): a
domain event or snapshot (a dataclass) is encoded with msgspec, and decoded into the class its
topic names, with every engine command and event restored to its own Struct.

The stored JSON leaves out what the row already says (``originator_id``, ``originator_version``)
and fields at their default (a game event's ``command: null`` and ``batch: 0``): a game's
events are read back thousands at a time, and a fifth fewer bytes is a fifth less to read.

Commands and events are tagged unions whose members rule-set modules register at import time,
so the unions are built here after importing every rule set.  ``EventRow`` and ``SnapshotRow``
are the slices of stored records that the service's projector reads: decoding them skips the
fields a projection does not need and avoids building eventsourcing objects at all.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from typing import TYPE_CHECKING, Any, Union

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic, resolve_topic

from risk_core import GameState, RuleError, SetupError, model, typed_state
from risk_core.rulesets import names as ruleset_names
from risk_service.families import load_plugins

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from eventsourcing.domain import DomainEventProtocol

    # For type checkers the unions are their base classes; at run time they are the unions.
    EngineCommand = model.Command
    EngineEvent = model.Event
else:
    load_plugins()  # plug-in families (RISK_FAMILIES, entry points): their commands and events
    ruleset_names()  # imports every rule-set module, registering its commands and events
    EngineCommand = Union[tuple(model.COMMAND_TYPES)]  # noqa: UP007 - built from the registry
    EngineEvent = Union[tuple(model.EVENT_TYPES)]  # noqa: UP007

    def _too_late(cls: type[Any]) -> None:
        """A family loaded after the unions were built could store games it cannot read."""
        raise SetupError(
            "family_too_late",
            f"{cls.__module__} was loaded after the store was set up, so games could not store "
            f"its {cls.__name__}: load rule families first (RISK_FAMILIES, entry points).",
        )

    model.on_new_type(_too_late)


# gc=False: these wrappers never form reference cycles, and leaving 10,000 of them untracked
# spares the collector work during a rebuild.
class EventRow(msgspec.Struct, gc=False):
    """What a projection reads of one stored game event (see ``risk_service.app.Game``)."""

    event: EngineEvent
    command: EngineCommand | None = None
    batch: int = 0


class _EventOnly(msgspec.Struct, gc=False):
    # Skipping the command is cheaper than building it: a rebuild needs only the events.
    event: EngineEvent


class SnapshotRow(msgspec.Struct, gc=False):
    """What a projection reads of one stored snapshot."""

    state: GameState


_encoder = msgspec.json.Encoder()
# The end of a record's first stored event: its size (``app.Game``), for the usual sizes.
_BATCH_TAILS = tuple(b',"batch":%d}' % n for n in range(16))
_rows_decoder = msgspec.json.Decoder(list[EventRow])
_events_decoder = msgspec.json.Decoder(list[_EventOnly])
_snapshot_decoder = msgspec.json.Decoder(SnapshotRow)


ORIGINATOR = ("originator_id", "originator_version")  # columns of every stored event


@cache
def _stored_form(cls: type[Any]) -> type[msgspec.Struct]:
    """A dataclass domain event's stored form: its fields less ``ORIGINATOR``, defaults omitted."""
    hints = typing.get_type_hints(cls)
    fields: list[Any] = []
    for f in dataclasses.fields(cls):
        if f.name in ORIGINATOR:
            continue
        if f.default is dataclasses.MISSING:
            fields.append((f.name, hints[f.name]))
        else:
            fields.append((f.name, hints[f.name], f.default))
    return msgspec.defstruct(f"Stored{cls.__name__}", fields, kw_only=True, omit_defaults=True)


@cache
def _decoder(cls: type[Any]) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(cls)


class MsgspecMapper(Mapper[str]):
    """Domain events and snapshots as msgspec JSON (compression and cipher still apply)."""

    def to_stored_event(self, domain_event: DomainEventProtocol[str]) -> StoredEvent:
        form = _stored_form(type(domain_event))
        body = form(**{name: getattr(domain_event, name) for name in form.__struct_fields__})
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=self._wrap(_encoder.encode(body)),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[str]:
        cls = resolve_topic(stored_event.topic)
        try:
            body = _decoder(_stored_form(cls)).decode(self._unwrap(stored_event.state))
        except (msgspec.DecodeError, ValueError) as e:
            msg = (
                f"Cannot decode stored event {stored_event.originator_id!r} "
                f"v{stored_event.originator_version} as {stored_event.topic}: {e}"
            )
            raise MapperDeserialisationError(msg) from e
        obj: DomainEventProtocol[str] = cls(
            originator_id=stored_event.originator_id,
            originator_version=stored_event.originator_version,
            **msgspec.structs.asdict(body),
        )
        return obj

    @staticmethod
    def state_head(moment: datetime) -> bytes:
        """How ``record_states`` begins each stored event stamped ``moment``: its timestamp
        (msgspec's JSON string), then the event."""
        return b'{"timestamp":' + _encoder.encode(moment) + b',"event":'

    def record_states(
        self, command: model.Command, events: Sequence[model.Event], head: bytes
    ) -> list[bytes]:
        """The stored ``state`` of each event of one record (``app.Game.Recorded``: the
        command and the record's size on its first event), each begun with ``head``
        (``state_head``: one timestamp for all of them).

        The bytes ``to_stored_event`` writes for those domain events (their stored form's
        fields in order, defaults left out), put together from each event's JSON: the command
        worker stores every record so, without a domain event object per event.
        """
        encode = _encoder.encode
        return self.record_states_of(command, [encode(ev) for ev in events], head)

    def record_states_of(
        self, command: model.Command, encoded: Sequence[bytes], head: bytes
    ) -> list[bytes]:
        """``record_states`` from the events' JSON (``encoded``, one or more), when the
        caller has it already (an import's audit compared those bytes)."""
        n = len(encoded)
        tail = _BATCH_TAILS[n] if n < len(_BATCH_TAILS) else b',"batch":%d}' % n
        states = [b"".join((head, encoded[0], b',"command":', _encoder.encode(command), tail))]
        if n > 1:  # most records are one event
            states += [head + body + b"}" for body in encoded[1:]]
        if self.cipher or self.compressor:
            return [self._wrap(s) for s in states]
        return states

    @staticmethod
    def record_state_of(command: model.Command, encoded: bytes, head: bytes) -> bytes:
        """``record_states_of`` for a record of one event (an import's usual record), without
        a cipher or compressor: the one stored ``state``."""
        return b"".join((head, encoded, b',"command":', _encoder.encode(command), _BATCH_TAILS[1]))

    def event_rows(self, states: Sequence[bytes]) -> list[EventRow]:
        """Decode the ``state`` of many stored game events at once (records, listings)."""
        return self._decode_many(_rows_decoder, states)

    def events(self, states: Sequence[bytes]) -> list[model.Event]:
        """Only the engine events of many stored game events (the projector's fast path)."""
        return [row.event for row in self._decode_many(_events_decoder, states)]

    def _decode_many(
        self, decoder: msgspec.json.Decoder[list[Any]], states: Sequence[bytes]
    ) -> list[Any]:
        if not states:
            return []
        # Each state is one JSON object: joined into an array they decode in one call, several
        # times faster than thousands of small decodes.
        wrapped = self.cipher or self.compressor
        body = b",".join([self._unwrap(s) for s in states] if wrapped else states)
        try:
            return decoder.decode(b"[" + body + b"]")
        except (msgspec.DecodeError, ValueError) as e:
            raise MapperDeserialisationError(f"Cannot decode stored game events: {e}") from e

    def snapshot_state(self, stored: StoredEvent) -> GameState | None:
        """The state a snapshot holds, or None for one an older engine stored in another shape
        (a snapshot is only a shortcut: the caller replays the events instead)."""
        try:
            state = _snapshot_decoder.decode(self._unwrap(stored.state)).state
        except (msgspec.DecodeError, ValueError) as e:
            where = f"{stored.originator_id!r} v{stored.originator_version}"
            msg = f"Cannot decode the snapshot of {where}: {e}"
            raise MapperDeserialisationError(msg) from e
        try:
            return typed_state(state)
        except RuleError:
            return None

    def _wrap(self, data: bytes) -> bytes:
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        return data

    def _unwrap(self, data: bytes) -> bytes:
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        return data
