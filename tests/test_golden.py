"""Golden games: recorded bot games replayed command by command must give the same bytes.

Each ``tests/golden/<ruleset>-<n>p.json`` holds a game's setup, the commands greedy bots chose
and digests of the outcome.  Replaying the commands through ``decide``/``evolve`` pins the
engine's behaviour (ENG-01: same seed and commands, byte-identical events) across refactors.
The files are written only by ``scripts/make_golden.py``; see its docstring before regenerating.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import risk_core as rc
from risk_core.model import Command, Event

GOLDEN_DIR = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN_DIR.glob("*.json"))


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def load(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def test_every_registered_ruleset_has_a_golden_game() -> None:
    """A new rule set needs its golden file (``scripts/make_golden.py --only NAME``)."""
    covered = {load(p)["ruleset"] for p in FILES}
    assert covered == {info.name for info in rc.rulesets()}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_replays_identically(path: Path) -> None:
    """ENG-01: the recorded commands give the recorded events and final state, byte for byte."""
    record = load(path)
    expected = record["expected"]
    events: list[Event] = rc.start(
        record["ruleset"], record["players"], seed=record["seed"], options=record["options"]
    )
    state = rc.replay(events)
    for raw in record["commands"]:
        cmd: Command = rc.decode_command(msgspec.json.encode(raw))
        new = rc.decide(state, cmd)
        for ev in new:
            state = rc.evolve(state, ev)
        events.extend(new)
    assert state.phase == "over"
    assert state.winner == expected["winner"]
    assert len(events) == expected["events"]
    assert digest(rc.encode(events)) == expected["digest"]
    assert digest(rc.encode(state)) == expected["final_state_digest"]
    assert digest(rc.encode(rc.replay(events))) == expected["final_state_digest"]
