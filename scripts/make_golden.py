"""Write the golden games ``tests/golden/<ruleset>-<n>p.json``: one per registered rule set.

Usage (from the project root)::

    .venv/bin/python scripts/make_golden.py [--only RULESET] [--out DIR] [--family MODULE]...

Greedy bots play a whole game; the file records the setup, every command they chose and
digests of the result (event count, SHA-256 of the encoded events, SHA-256 of the encoded
final state, winner).  ``tests/test_golden.py`` replays the recorded commands through the
engine and demands the same digests, so any change to what the engine decides or how it
encodes it shows up as a failing test.

Regenerating a golden file is a deliberate statement that the engine's behaviour changed on
purpose (a rule fix, a new event field, a new option): do it only then, with the reason in the
commit message, and never to make a failing test pass without understanding why it failed.
A rule set added later gets its file by running this script once.  A rule family kept outside
``risk_core/rulesets`` is loaded first with ``--family`` (its dotted module name, importable
from the project root), e.g. the tests' toy family::

    .venv/bin/python scripts/make_golden.py --family tests.toy_family --only toy-d8
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import risk_core as rc  # noqa: E402
from risk_core.bots import self_play  # noqa: E402
from risk_core.model import GameStarted  # noqa: E402
from risk_core.rulesets import load_family  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden"
SEED = 20240601
BOT_LEVEL = "greedy"
BOT_SEED = 7
MAX_TURNS = 1000
PREFERRED_PLAYERS = 4


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def golden_game(info: rc.RuleSetInfo) -> dict[str, Any]:
    """Play one greedy game of ``info``'s rule set and describe it as a golden record."""
    n = min(info.max_players, max(info.min_players, PREFERRED_PLAYERS))
    players = [f"P{i + 1}" for i in range(n)]
    opening = rc.start(info.name, players, seed=SEED)
    assert isinstance(opening[0], GameStarted)
    commands, events = self_play(opening, level=BOT_LEVEL, seed=BOT_SEED, max_turns=MAX_TURNS)
    final = rc.replay(events)
    if final.phase != "over":
        raise SystemExit(f"{info.name}: no winner within {MAX_TURNS} turns")
    return {
        "ruleset": info.name,
        "players": players,
        "seed": SEED,
        "options": dict(opening[0].options),
        "bot_level": BOT_LEVEL,
        "bot_seed": BOT_SEED,
        "commands": [msgspec.to_builtins(c) for c in commands],
        "expected": {
            "events": len(events),
            "digest": digest(rc.encode(events)),
            "final_state_digest": digest(rc.encode(final)),
            "winner": final.winner,
        },
    }


def dump(record: dict[str, Any]) -> str:
    """Readable JSON with one command per line, so a regenerated file diffs line by line."""
    head = {k: v for k, v in record.items() if k != "commands"}
    lines = json.dumps(head, indent=2, ensure_ascii=False).rstrip("}").rstrip().rstrip(",")
    commands = ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in record["commands"])
    return f'{lines},\n  "commands": [\n{commands}\n  ]\n}}\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="regenerate this rule set only")
    parser.add_argument("--out", type=Path, default=GOLDEN_DIR)
    parser.add_argument(
        "--family",
        action="append",
        default=[],
        metavar="MODULE",
        help="load this rule family's module first (repeatable), e.g. tests.toy_family",
    )
    args = parser.parse_args()
    for module in args.family:
        load_family(module)
    args.out.mkdir(parents=True, exist_ok=True)
    for info in rc.rulesets():
        if args.only and info.name != args.only:
            continue
        record = golden_game(info)
        path = args.out / f"{info.name}-{len(record['players'])}p.json"
        path.write_text(dump(record), encoding="utf-8")
        exp = record["expected"]
        print(
            f"{path}: {len(record['commands'])} commands, "
            f"{exp['events']} events, winner seat {exp['winner']}"
        )


if __name__ == "__main__":
    main()
