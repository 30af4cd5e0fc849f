"""risk_service: Risk games in an event store (eventsourcing 9.5, msgspec-typed).

::

    service = GameService("sqlite:///tmp/games.db")   # or memory://, postgresql://...
    service.create_schema()                           # explicit, idempotent
    game_id = service.new_game("classic", ["Ann", "Bob", "Cy"], seed=42)
    events = service.submit(game_id, command, expected_version=state.version)
    state = service.state(game_id, at=120)            # after the first 120 engine events
    service.records(game_id)                          # each command with its events
    service.games()                                   # a summary of every stored game

``risk_service.app`` documents how games are laid out in the store, ``risk_service.stores`` the
store URLs, ``risk_service.mapper`` the typed stored form.
Time travel over stored games: ``risk_service.history`` (replay, branches, lineage, diffs),
``risk_service.audit`` (re-execution from the seed), ``risk_service.exchange`` (export and
import), ``risk_service.versions`` (rules and board pinning, upcasters), ``risk_service.luck``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from risk_service.store import GameRecord, GameService, GameSummary, ServiceError
    from risk_service.stores import default_sqlite_path, parse_store

# Imported on first use (PEP 562): a module of this package (``risk_service.read_sqlite``,
# ``risk_service.families``...) is imported without the store and eventsourcing's application
# layer, which `risk show` never needs (issue 13, tests/test_startup.py).
_HOMES = {
    "GameRecord": "risk_service.store",
    "GameService": "risk_service.store",
    "GameSummary": "risk_service.store",
    "ServiceError": "risk_service.store",
    "default_sqlite_path": "risk_service.stores",
    "parse_store": "risk_service.stores",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "GameRecord",
    "GameService",
    "GameSummary",
    "ServiceError",
    "default_sqlite_path",
    "parse_store",
]
