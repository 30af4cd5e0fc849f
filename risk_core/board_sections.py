"""Board data sections a rule family adds without editing the core schema (CORE-01, ENG-08).

``board.json`` may carry a top-level ``"sections"`` object: each key names a section type that a
rule family registered with :func:`register_section`, each value is decoded with that type's
schema and then checked against the built :class:`~risk_core.board.Board` by the type's checker.
A family's package registers its types when it is imported, so the registry is read when a
board is decoded, not when this module is imported::

    class City(Fact, frozen=True, forbid_unknown_fields=True):
        id: str
        territory: str

    register_section("cities", tuple[City, ...], check_cities)

Items that subclass :class:`Fact` carry their own provenance (``verified`` and, when the value
was reconstructed rather than read from a rulebook or board, the reasoning in ``note``), which
:func:`~risk_core.board.unverified_facts` lists beside the core items' own (GAP-nn).

This module also holds :class:`BoardError` (re-exported by ``risk_core.board``, its public home),
so that it depends on nothing else in the board code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgspec

from risk_core.errors import RiskError

if TYPE_CHECKING:
    from risk_core.board import Board

SectionCheck = Callable[[Any, "Board"], None]


class BoardError(RiskError):
    """Invalid or unknown board data; ``code`` is stable, ``message`` names the offending id."""


class Fact(msgspec.Struct, frozen=True, kw_only=True):
    """Base of a board item that records its own provenance: a section item, and the core
    schema's edges, territories, sea zones and missions (:mod:`risk_core.board`).

    ``verified`` is False when the value is a reconstruction or a placeholder; ``note`` then says
    how it was reconstructed and what would settle it (a board with an unverified fact and no
    note is rejected: ``unexplained_fact``).  Subclasses add their fields, usually with
    ``frozen=True, forbid_unknown_fields=True``.
    """

    verified: bool = True
    note: str = ""


@dataclass(frozen=True)
class SectionType:
    """A registered section: its name, schema (any msgspec-decodable type) and checker."""

    name: str
    schema: Any
    check: SectionCheck | None
    decoder: msgspec.json.Decoder[Any]


_registry: dict[str, SectionType] = {}


def register_section(name: str, schema: Any, check: SectionCheck | None = None) -> SectionType:
    """Register section type ``name``: ``board.json``'s ``sections[name]`` decodes as ``schema``.

    ``schema`` is a msgspec type (a Struct, ``tuple[Item, ...]``, ``dict[str, Item]``...); a
    Struct schema must use ``forbid_unknown_fields=True`` so a misspelt key is an error.
    ``check(value, board)`` runs once the board is built and raises :class:`BoardError`.
    Registering the same name again with the same schema and checker is a no-op (a module
    imported twice); with a different one it raises :class:`BoardError` ``duplicate_section``.
    """
    if not name:
        raise BoardError("bad_section_schema", "A section type needs a name")
    existing = _registry.get(name)
    if existing is not None:
        if existing.schema == schema and existing.check == check:
            return existing
        raise BoardError(
            "duplicate_section", f"Section type {name!r} is already registered differently"
        )
    struct = isinstance(schema, type) and issubclass(schema, msgspec.Struct)
    if struct and not schema.__struct_config__.forbid_unknown_fields:
        raise BoardError(
            "bad_section_schema",
            f"Schema {schema.__name__} of section {name!r} must forbid unknown fields",
        )
    entry = SectionType(name, schema, check, msgspec.json.Decoder(schema))
    _registry[name] = entry
    return entry


def section_type(name: str) -> SectionType | None:
    """The section type registered as ``name``, or None."""
    return _registry.get(name)


def registered_sections() -> Mapping[str, SectionType]:
    """Read-only view of the registry (live: later registrations appear in it)."""
    return MappingProxyType(_registry)


def decode_section(name: str, raw: msgspec.Raw) -> Any:
    """Decode ``sections[name]`` with its registered schema; raises :class:`BoardError`.

    ``unknown_section`` when no family registered ``name``; ``bad_section`` when the data does
    not match the schema, with msgspec's path rewritten from the section to ``board.json``.
    """
    entry = _registry.get(name)
    if entry is None:
        known = ", ".join(sorted(_registry)) or "none"
        raise BoardError(
            "unknown_section",
            f"Section {name!r} is not registered by any rule family (registered: {known})",
        )
    try:
        return entry.decoder.decode(raw)
    except msgspec.DecodeError as exc:  # ValidationError is a subclass
        where = f"$.sections.{name}"
        message = str(exc).replace("`$", f"`{where}")
        if where not in message:
            message = f"{message} - in `{where}`"
        raise BoardError("bad_section", f"board.json: {message}") from None


def iter_facts(value: Any, path: str) -> Iterator[tuple[str, Fact]]:
    """Every :class:`Fact` in ``value`` (itself, struct fields, tuple/list items, dict values).

    Paths read like ``sections.cities[2]``; a fact with a string ``id`` adds it in parentheses.
    """
    if isinstance(value, Fact):
        ident = getattr(value, "id", None)
        yield (f"{path} ({ident})" if isinstance(ident, str) else path), value
    if isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            yield from iter_facts(getattr(value, field), f"{path}.{field}")
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            yield from iter_facts(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from iter_facts(item, f"{path}.{key}")


def section_size(value: Any) -> int:
    """Item count of a decoded section: its length, or a Struct's items across its collections."""
    if isinstance(value, tuple | list | dict):
        return len(value)
    if isinstance(value, msgspec.Struct):
        sizes = [
            len(v)
            for v in (getattr(value, f) for f in value.__struct_fields__)
            if isinstance(v, tuple | list | dict)
        ]
        return sum(sizes) if sizes else 1
    return 1
