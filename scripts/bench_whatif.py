"""What-if throughput: simulated futures per CPU second for classic (issue 18).

Usage (from the project root)::

    .venv/bin/python scripts/bench_whatif.py [--runs 200] [--players 4] [--jobs 1]

Two positions of one classic game (greedy bots, seed 1): the opening (right after the deal) and
mid-game (the first version of turn 12).  Each is simulated ``--runs`` times as ``risk
simulate`` does (``risk_cli.whatif.run_all``: a reseeded branch start, greedy bots to the end)
and the figure is futures per CPU second of this process and its workers, with the mean number
of turns and commands of a future alongside; then the same for ``--as`` (a hidden deal drawn
for every future).  The engine's own figure, whole games per second from the opening
(``scripts/bench_engine.py`` (c)), is measured here too, so the two can be read side by side.
Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import risk_core as rc  # noqa: E402
from risk_cli.whatif import run_all  # noqa: E402
from risk_core.bots import play, self_play  # noqa: E402
from risk_core.model import GameState  # noqa: E402
from risk_core.whatif import Plan, run_future  # noqa: E402


def cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def positions(players: int) -> dict[str, GameState]:
    names = [f"P{i + 1}" for i in range(players)]
    state = rc.replay(rc.start("classic", names, seed=1))
    opening = rc.decode_state(rc.encode(state))
    while state.turn < 12 and state.phase != "over":
        _, events = play(state, seed=1)
        rc.apply_in_place(state, events)
    return {"opening": opening, "mid-game (turn 12)": state}


def commands_per_future(state: GameState, plan: Plan, runs: int) -> float:
    sample = min(runs, 20)
    return sum(len(run_future(state, plan, r, record=True).commands) for r in range(sample)) / (
        sample
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print(f"classic, {args.players} players, greedy bots, {args.runs} futures, --jobs {args.jobs}")
    for name, state in positions(args.players).items():
        for viewer in (None, 0):
            plan = Plan(parent="bench", at=state.version, seed=1, viewer=viewer)
            before, wall = cpu(), time.perf_counter()
            futures = run_all(state, plan, args.runs, args.jobs, "bench")
            used, wall = cpu() - before, time.perf_counter() - wall
            turns = sum(f.turns for f in futures) / len(futures)
            label = f"{name}{' as P1' if viewer == 0 else ''}"
            print(
                f"  {label:<28}{args.runs / used:8.1f} futures/CPU s  "
                f"({args.runs / wall:.1f}/s wall; {turns:.1f} turns, "
                f"{commands_per_future(state, plan, args.runs):.0f} commands a future)"
            )
    names = [f"P{i + 1}" for i in range(args.players)]
    games = min(args.runs, 50)
    before = cpu()
    for seed in range(1, games + 1):
        self_play(rc.start("classic", names, seed=seed), seed=seed)
    print(f"  engine: whole games from start {games / (cpu() - before):8.1f} games/CPU s")


if __name__ == "__main__":
    main()
