"""Positions for the 1796 campaign's rule tests (napoleon-1796, NAP-CAMP-*).

Seats: 0 the French player ("Fra", blue), 1 the English player ("Eng", red), 2 the Austrians
(white), 3 the Prussians (black), 4 the Russians (green), 5 the passive neutral (yellow).
``doc`` builds a scenario from the campaign's own set-up (``nap_campaign_1796``), with owners,
regiments and the ``[family]`` table overridden by territory; ``cli_game`` starts it with
`risk new --scenario`, ``engine_game`` in-process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from risk_core.model import Event, GameState
from risk_core.rulesets import get
from risk_core.rulesets.napoleon_1796_rules import armies
from risk_core.rulesets.napoleon_1796_state import CampState
from tests import scenario_kit
from tests.scenario_kit import Run as Run
from tests.scenario_kit import error as error
from tests.scenario_kit import events as events
from tests.scenario_kit import out as out
from tests.scenario_kit import step as step
from tests.scenario_kit import view as view

RULES = "napoleon-1796"
PLAYERS = ["Fra", "Eng"]
FRA, ENG, AUS, PRU, RUS, NEU = range(6)
COLOUR_SEAT = {"blue": FRA, "red": ENG, "white": AUS, "black": PRU, "green": RUS, "yellow": NEU}
BOARD = get(RULES).board
IDS = [t.id for t in BOARD.territories]


def start_owners() -> dict[str, tuple[int, int]]:
    """Territory -> (seat, regiments) of the campaign's set-up."""
    out: dict[str, tuple[int, int]] = {}
    for colour, army in armies(BOARD).items():
        for t, k in army.regiments.items():
            out[t] = (COLOUR_SEAT[colour], k)
    return out


def members(empire: str) -> list[str]:
    return [IDS[t] for t in BOARD.group_members[BOARD.group_index[empire]]]


def doc(
    *,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    family: dict[str, Any] | None = None,
    allies: dict[str, str] | None = None,
    current: int = FRA,
    turn: int = 1,
    **fields: Any,
) -> dict[str, Any]:
    """The 1796 position with overrides; ``allies`` defaults to the starting alliances; the
    other fields (seed, phase, hands, dice, options, round) as
    :func:`tests.scenario_kit.document` takes them."""
    territories = {}
    for t, (seat, k) in start_owners().items():
        territories[t] = {
            "owner": (owners or {}).get(t, seat),
            "armies": (armies or {}).get(t, k),
        }
    table = dict(family or {})
    table["allies"] = allies if allies is not None else {"Austrians": "Eng", "Prussians": "Eng"}
    return scenario_kit.document(
        RULES, PLAYERS, territories, current=current, turn=turn, family=table, **fields
    )


def engine_game(**kw: Any) -> tuple[GameState, list[Event]]:
    return scenario_kit.engine_game(doc(**kw))


def cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    """A scenario game through `risk new --scenario`; its id."""
    return scenario_kit.cli_game(risk, tmp_path, doc(**kw), "camp")


def fam(state: GameState) -> CampState:
    family = state.family
    assert isinstance(family, CampState)
    return family


def card_of(territory: str) -> int:
    c = BOARD.territory_card(BOARD.index[territory])
    assert c is not None
    return c


def kinds(evs: list[Any]) -> list[str]:
    return [type(e).__name__ for e in evs]
