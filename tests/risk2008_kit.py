"""Positions for the Risk 2008 rule tests: scenario documents, loaded in-process or by the CLI.

``doc`` builds a scenario (classic world map, round-robin owners with 2 regiments, overrides by
territory), ``engine_game`` loads it through the scenario code into a state, ``cli_game`` writes
it to a file and starts it with `risk new --scenario`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

import risk_core as rc
from risk_core.model import Event, GameState
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.risk2008 import Risk2008Family
from tests import scenario_kit
from tests.scenario_kit import error as error  # re-exported: the tests read them here
from tests.scenario_kit import out as out

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
    **fields: Any,
) -> dict[str, Any]:
    """A scenario: every territory round-robin (or ``default_owner``) with 2 regiments; the
    other fields (seed, current, phase, hands, dice, options, family) as
    :func:`tests.scenario_kit.document` takes them."""
    territories = scenario_kit.round_robin(IDS, players, owners, armies, default_owner)
    return scenario_kit.document(ruleset, NAMES[:players], territories, **fields)


def engine_game(**kw: Any) -> tuple[GameState, list[Event]]:
    return scenario_kit.engine_game(doc(**kw))


def cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    return scenario_kit.cli_game(risk, tmp_path, doc(**kw), "r08")


def rules_of(state: GameState) -> Risk2008Family:
    rs = rc.ruleset_of(state)
    assert isinstance(rs, Risk2008Family)
    return rs


def claimable(state: GameState, seat: int = 0) -> list[str]:
    """The face-up missions ``seat`` could take now (R08-14)."""
    return rules_of(state).claimable(state, seat)
