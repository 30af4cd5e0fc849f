"""Positions for the Risk 2008 rule tests: scenario documents, loaded in-process or by the CLI.

``doc`` builds a scenario (classic world map, round-robin owners with 2 regiments, overrides by
territory), ``engine_game`` loads it through the scenario code into a state, ``cli_game`` writes
it to a file and starts it with `risk new --scenario`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from click.testing import Result

import risk_core as rc
from risk_core.model import Event, GameState
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.risk2008 import Risk2008Family
from risk_core.scenario import Scenario, scenario_opening

Run = Callable[..., Result]
TRAINING = "risk2008-training"
RS = get_ruleset(TRAINING)  # imports the family, whose board sections are then known
BOARD = RS.board
IDS = [t.id for t in BOARD.territories]
ONE_STAR = [IDS[BOARD.cards[c].territory or 0] for c in range(42) if BOARD.cards[c].stars == 1]
TWO_STARS = [IDS[BOARD.cards[c].territory or 0] for c in range(42) if BOARD.cards[c].stars == 2]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def members(group: str) -> list[str]:
    return [IDS[t] for t in BOARD.group_members[BOARD.group_index[group]]]


def doc(
    *,
    ruleset: str = TRAINING,
    players: int = 3,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: int | None = None,
    family: dict[str, Any] | None = None,
    hands: dict[str, list[str]] | None = None,
    dice: list[int] | None = None,
    current: int = 0,
    phase: str = "reinforce",
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """A scenario: every territory round-robin (or ``default_owner``) with 2 regiments."""
    territories = {}
    for i, t in enumerate(IDS):
        owner = (owners or {}).get(t, default_owner if default_owner is not None else i % players)
        territories[t] = {"owner": owner, "armies": (armies or {}).get(t, 2)}
    out: dict[str, Any] = {
        "ruleset": ruleset,
        "players": NAMES[:players],
        "seed": seed,
        "current": current,
        "phase": phase,
        "territories": territories,
        "hands": hands or {},
        "dice": dice or [],
        "options": options or {},
    }
    if family:
        out["family"] = family
    return out


def engine_game(**kw: Any) -> tuple[GameState, list[Event]]:
    sc = msgspec.convert(doc(**kw), Scenario)
    _, _, events = scenario_opening(sc)
    return rc.replay(events), events


def cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    path = tmp_path / f"r08-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(doc(**kw)))
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


def rules_of(state: GameState) -> Risk2008Family:
    rs = rc.ruleset_of(state)
    assert isinstance(rs, Risk2008Family)
    return rs


def claimable(state: GameState, seat: int = 0) -> list[str]:
    """The face-up missions ``seat`` could take now (R08-14)."""
    return rules_of(state).claimable(state, seat)
