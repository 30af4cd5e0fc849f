"""Positions for the Clone Wars rule tests: scenario documents, loaded in-process or by the CLI.

``doc`` builds a scenario on the galaxy board (round-robin owners with 2 troops, overrides by
planet), ``engine_game`` loads it through the scenario code into a state, ``cli_game`` writes it
to a file and starts it with `risk new --scenario`.  Cards in hands are named by id (the faction
cards name no planet): ``FIGHTERS``, ``CORVETTES`` and ``CAPITALS`` list the standard deck's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from risk_core.model import Event, GameState
from risk_core.rulesets import get as get_ruleset
from tests import scenario_kit
from tests.scenario_kit import error as error  # re-exported: the tests read them here
from tests.scenario_kit import out as out

Run = Callable[..., Result]
STANDARD = "clonewars-standard"
RS = get_ruleset(STANDARD)  # imports the family, whose board sections are then known
BOARD = RS.board
IDS = [t.id for t in BOARD.territories]
NAMES = ["Ann", "Bob", "Cy", "Dee"]
DECK = RS.scenario_deck()
FIGHTERS = [c for c in DECK if BOARD.cards[c].kind == "fighter"]
CORVETTES = [c for c in DECK if BOARD.cards[c].kind == "corvette"]
CAPITALS = [c for c in DECK if BOARD.cards[c].kind == "capital"]


def members(system: str) -> list[str]:
    return [IDS[t] for t in BOARD.group_members[BOARD.group_index[system]]]


def doc(
    *,
    ruleset: str = STANDARD,
    players: int = 3,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: int | None = None,
    hands: dict[str, list[int]] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A scenario: every planet round-robin (or ``default_owner``) with 2 troops; ``hands``
    by card id; the other fields (seed, current, phase, dice, options) as
    :func:`tests.scenario_kit.document` takes them."""
    territories = scenario_kit.round_robin(IDS, players, owners, armies, default_owner)
    cards = {k: [str(c) for c in v] for k, v in (hands or {}).items()}
    return scenario_kit.document(ruleset, NAMES[:players], territories, hands=cards, **fields)


def engine_game(**kw: Any) -> tuple[GameState, list[Event]]:
    return scenario_kit.engine_game(doc(**kw))


def cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    return scenario_kit.cli_game(risk, tmp_path, doc(**kw), "cw")


# --------------------------------------------------------------------------- the faction game
FACTION = "clonewars"
RED, BLACK, ORANGE, BLUE = 0, 1, 2, 3  # the armies' seats (CW-07/08)


def faction_doc(
    *,
    players: int = 4,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: int | None = None,
    family: dict[str, Any] | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """A faction-game scenario: every planet round-robin over the four armies (or
    ``default_owner``) with 2 troops, then ``owners``/``armies``; ``family`` is the
    ``[family]`` table (ships, tokens, track, palpatine...)."""
    document = doc(ruleset=FACTION, players=players, family=family, **kw)
    document["territories"] = scenario_kit.round_robin(IDS, 4, owners, armies, default_owner)
    return document


def faction_game(**kw: Any) -> tuple[GameState, list[Event]]:
    return scenario_kit.engine_game(faction_doc(**kw))


def faction_cli_game(risk: Run, tmp_path: Path, **kw: Any) -> str:
    return scenario_kit.cli_game(risk, tmp_path, faction_doc(**kw), "cwf")
