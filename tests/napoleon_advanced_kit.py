"""The Napoléon advanced board and plain positions for the NAP-ADV rule tests.

The board is ``boards/napoleon/advanced`` (written by
``scripts/make_napoleon_advanced_board.py``); its section types are registered by importing
:mod:`risk_core.rulesets.napoleon_advanced_data`.  ``owners`` builds an ownership list from a
few named territories (the rest belong to nobody, -1); ``T`` turns a territory id into its index.
``doc`` builds a scenario (round-robin owners with 2 regiments, overrides by territory),
``engine_game`` loads it in-process, ``cli_game`` starts it with `risk new --scenario`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

import risk_core.rulesets.napoleon_advanced_data  # noqa: F401  (registers the sections)
from boards import BOARDS_DIR
from risk_core.board import Board, load_board_dir
from risk_core.model import Event, GameState
from risk_core.rulesets.napoleon_advanced_state import AdvState
from tests import scenario_kit
from tests.scenario_kit import error as error  # re-exported: the tests read them here
from tests.scenario_kit import events as events
from tests.scenario_kit import out as out
from tests.scenario_kit import step as step
from tests.scenario_kit import view as view

Run = Callable[..., Result]

ADVANCED_DIR = BOARDS_DIR / "napoleon" / "advanced"
BOARD: Board = load_board_dir(ADVANCED_DIR)
IDS = [t.id for t in BOARD.territories]


def T(territory: str) -> int:
    return BOARD.index[territory]


def members(empire: str) -> list[str]:
    return [IDS[t] for t in BOARD.group_members[BOARD.group_index[empire]]]


def owners(held: dict[str, int], default: int = -1) -> list[int]:
    out = [default] * len(IDS)
    for t, seat in held.items():
        out[T(t)] = seat
    return out


def route_zones(route: str) -> tuple[str, ...]:
    return next(r.zones for r in BOARD.routes if r.id == route)


# ------------------------------------------------------------------ scenario positions
RULES = "napoleon-advanced"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def doc(
    *,
    players: int = 3,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: int | None = None,
    turn: int = 1,
    **fields: Any,
) -> dict[str, Any]:
    """A scenario: every territory round-robin (or ``default_owner``) with 2 regiments; the
    other fields (seed, current, phase, hands, dice, options, round, family) as
    :func:`tests.scenario_kit.document` takes them."""
    territories = scenario_kit.round_robin(IDS, players, owners, armies, default_owner)
    return scenario_kit.document(RULES, NAMES[:players], territories, turn=turn, **fields)


def engine_game(**kw: Any) -> tuple[GameState, list[Event]]:
    return scenario_kit.engine_game(doc(**kw))


def cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    return scenario_kit.cli_game(risk, tmp_path, doc(**kw), "nap-adv")


def fam(state: GameState) -> AdvState:
    family = state.family
    assert isinstance(family, AdvState)
    return family


def card_of(territory: str) -> int:
    """The id of ``territory``'s card."""
    c = BOARD.territory_card(T(territory))
    assert c is not None
    return c
