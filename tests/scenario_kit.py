"""What every rule family's test kit does alike: games from scenario documents, through the
engine or through the CLI, and the CLI's JSON answers and error codes.

A family's kit writes its own ``doc(**kw)`` (the scenario its tests describe) and wraps these.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from click.testing import Result

import risk_core as rc
from risk_core import Event, GameState
from risk_core.scenario import Scenario, scenario_opening

Run = Callable[..., Result]  # the `risk` fixture (tests/conftest.py)


def engine_game(document: dict[str, Any]) -> tuple[GameState, list[Event]]:
    """The state and opening events of a scenario document, straight from the engine."""
    sc = msgspec.convert(document, Scenario)
    _, _, events = scenario_opening(sc)
    return rc.replay(events), events


def cli_game(risk: Run, tmp_path: Path, document: dict[str, Any], prefix: str) -> str:
    """A game started by `risk new --scenario` from a scenario document; its id."""
    path = tmp_path / f"{prefix}-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(document))
    created = json.loads(risk("new", "--scenario", str(path), "--json").stdout)
    game_id: str = created["game_id"]
    return game_id


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def error(risk: Run, *args: str) -> str:
    """The error code of a refused CLI move (exit 1, one `Error: ... [code]` line)."""
    result = risk(*args, code=1)
    assert "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: ") and line.endswith("]"), line
    return line.rsplit("[", 1)[1].rstrip("]")
