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
from risk_core import Command, Event, GameState
from risk_core.scenario import Scenario, scenario_opening

Run = Callable[..., Result]  # the `risk` fixture (tests/conftest.py)


def round_robin(
    ids: list[str],
    players: int,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: int | None = None,
) -> dict[str, dict[str, int]]:
    """A scenario's ``territories``: each one dealt round-robin over ``players`` seats (or all
    to ``default_owner``) with 2 armies, then the ``owners``/``armies`` overrides by id."""
    territories = {}
    for i, t in enumerate(ids):
        owner = (owners or {}).get(t, default_owner if default_owner is not None else i % players)
        territories[t] = {"owner": owner, "armies": (armies or {}).get(t, 2)}
    return territories


def document(
    ruleset: str,
    players: list[str],
    territories: dict[str, dict[str, int]],
    *,
    seed: int = 7,
    current: int = 0,
    phase: str = "reinforce",
    hands: dict[str, list[str]] | None = None,
    dice: list[int] | None = None,
    options: dict[str, Any] | None = None,
    turn: int | None = None,
    round: int | None = None,
    family: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario document (the fields `risk new --scenario` reads); ``turn``, ``round`` and
    an empty ``family`` are left out when not given.  The family kits' ``doc`` builders pass
    their callers' other fields through to it."""
    out: dict[str, Any] = {
        "ruleset": ruleset,
        "players": players,
        "seed": seed,
        "current": current,
        "phase": phase,
    }
    if turn is not None:
        out["turn"] = turn
    out.update(territories=territories, hands=hands or {}, dice=dice or [], options=options or {})
    if round is not None:
        out["round"] = round
    if family:
        out["family"] = family
    return out


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


def view(risk: Run, game: str, seat: str | None = None) -> Any:
    """`risk show` as JSON, for ``seat`` (a player's name) or a spectator."""
    return out(risk, "show", game, *(("--as", seat) if seat else ()))


def events(risk: Run, game: str, seat: str | None = None) -> list[dict[str, Any]]:
    """`risk log` as JSON events, as ``seat`` (a player's name) or a spectator sees them."""
    logged = out(risk, "log", game, *(("--as", seat) if seat else ()))
    return list(logged["events"] if isinstance(logged, dict) else logged)


def step(state: GameState, cmd: Command) -> tuple[GameState, list[Event]]:
    """Decide ``cmd`` on ``state`` in-process: the state after its events, and the events."""
    new = rc.decide(state, cmd)
    for ev in new:
        state = rc.evolve(state, ev)
    return state, new
