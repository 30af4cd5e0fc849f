"""Write ``tests/golden/napoleon-advanced-capitals-4p.json``: the advanced game with the
Capitals option (NAP-CAP), as ``scripts/make_golden.py`` writes the default game.

Usage (from the project root)::

    .venv/bin/python scripts/make_napoleon_advanced_golden.py

``make_golden.py`` plays each rule set with its default options; this one plays the same
seeds and bots with ``capitals=true``.  Regenerate it only when the engine's behaviour changed
on purpose, as for every golden file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import make_golden as mg  # noqa: E402

import risk_core as rc  # noqa: E402
from risk_core.bots import self_play  # noqa: E402

OUT = ROOT / "tests" / "golden" / "napoleon-advanced-capitals-4p.json"


def main() -> None:
    players = [f"P{i + 1}" for i in range(mg.PREFERRED_PLAYERS)]
    opening = rc.start("napoleon-advanced", players, seed=mg.SEED, options={"capitals": True})
    commands, events = self_play(
        opening, level=mg.BOT_LEVEL, seed=mg.BOT_SEED, max_turns=mg.MAX_TURNS
    )
    final = rc.replay(events)
    if final.phase != "over":
        raise SystemExit(f"napoleon-advanced (capitals): no winner within {mg.MAX_TURNS} turns")
    record = {
        "ruleset": "napoleon-advanced",
        "players": players,
        "seed": mg.SEED,
        "options": dict(opening[0].options),  # type: ignore[attr-defined]
        "bot_level": mg.BOT_LEVEL,
        "bot_seed": mg.BOT_SEED,
        "commands": [msgspec.to_builtins(c) for c in commands],
        "expected": {
            "events": len(events),
            "digest": mg.digest(rc.encode(events)),
            "final_state_digest": mg.digest(rc.encode(final)),
            "winner": final.winner,
        },
    }
    OUT.write_text(mg.dump(record), encoding="utf-8")
    print(f"{OUT}: {len(commands)} commands, {len(events)} events, winner seat {final.winner}")


if __name__ == "__main__":
    main()
