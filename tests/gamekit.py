"""Small helpers for rule tests: games from set positions, and checked moves."""

from __future__ import annotations

from typing import Any

import risk_core as rc
from risk_core.model import Command, Event, GameState
from risk_core.rulesets import get as get_ruleset
from risk_core.scenario import Scenario, scenario_opening

BOARD = rc.load_board("classic")
IDS = [t.id for t in BOARD.territories]


def group(name: str) -> list[str]:
    return [IDS[t] for t in BOARD.group_members[BOARD.group_index[name]]]


def position(
    *,
    ruleset: str = "classic",
    players: int = 3,
    owners: dict[str, int] | None = None,
    armies: dict[str, int] | None = None,
    default_owner: Any = None,
    default_armies: int = 3,
    current: int = 0,
    phase: str = "reinforce",
    turn: int = 9,
    round: int | None = None,
    hands: dict[int, list[str]] | None = None,
    missions: dict[int, str] | None = None,
    dice: list[int] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 7,
    trades: int = 0,
) -> tuple[GameState, list[Event]]:
    """A game at the start of ``current``'s turn with the given position.

    Territories not in ``owners`` go round-robin to the seats (or to ``default_owner``); the
    board is the rule set's.
    """
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:players]
    rs = get_ruleset(ruleset)
    n_seats = len(rs.seats_for(names))
    territories = {}
    for i, tid in enumerate(t.id for t in rs.board.territories):
        owner = (owners or {}).get(tid)
        if owner is None:
            owner = default_owner if default_owner is not None else i % n_seats
        territories[tid] = {"owner": owner, "armies": (armies or {}).get(tid, default_armies)}
    raw = {
        "territories": territories,
        "current": current,
        "phase": phase,
        "turn": turn,
        "round": round if round is not None else turn,
        "dice": dice or [],
        "hands": {str(k): v for k, v in (hands or {}).items()},
        "missions": {str(k): v for k, v in (missions or {}).items()},
        "options": options or {},
        "trades": trades,
    }
    import msgspec

    sc = msgspec.convert(raw, Scenario)
    _, _, events = scenario_opening(sc, ruleset=ruleset, players=names, seed=seed)
    return rc.replay(events), events


def play(state: GameState, cmd: Command) -> tuple[GameState, list[Event]]:
    """Decide and apply; asserts ``decide`` left its input untouched."""
    before = rc.encode(state)
    events = rc.decide(state, cmd)
    assert rc.encode(state) == before, "decide mutated its input state"
    for ev in events:
        state = rc.evolve(state, ev)
    return state, events


def rejected(state: GameState, cmd: Command) -> str:
    """The error code ``cmd`` is rejected with; asserts the state is unchanged."""
    before = rc.encode(state)
    try:
        rc.decide(state, cmd)
    except rc.RuleError as err:
        assert rc.encode(state) == before
        return err.code
    raise AssertionError(f"{cmd} was accepted")


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def armies_of(state: GameState, tid: str) -> int:
    return state.armies[BOARD.index[tid]]


def owner_of(state: GameState, tid: str) -> int:
    return state.owner[BOARD.index[tid]]
