"""Store benchmark: append and rebuild speed of one long game on SQLite (a temporary file).

    .venv/bin/python scripts/bench_store.py [--events 10000] [--seed 1]

Plays random legal commands (attacks preferred, 70%) in a classic 4-player game until it has
``--events`` engine events, timing only ``GameService.submit``.  Random play practically never
wins a classic game that early; if it does, the figures are for the shorter game and say so.
Then, from fresh service instances (nothing cached), times:

* a full rebuild: every event read and folded, snapshots ignored (target ≤ 50 ms), and the
  engine's share of it (folding events already in memory);
* the state at random versions, from the nearest snapshot (target ≤ 5 ms);
* the library's own replay of the aggregate, for reference (and as a yardstick of how fast
  the machine is at the moment: shared machines vary by 2x from minute to minute).

Prints figures only; no assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from eventsourcing.application import Repository

import risk_core
from risk_core.model import Attack
from risk_service import GameService

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def pick(state: risk_core.GameState, rnd: random.Random) -> risk_core.Command:
    legal = risk_core.legal_commands(state)
    attacks = [c for c in legal if isinstance(c, Attack)]
    if attacks and rnd.random() < 0.7:
        return rnd.choice(attacks)
    return rnd.choice(legal)


def timed(fn: Callable[[], object], repeat: int, cpu: list[float] | None = None) -> list[float]:
    """Wall-clock milliseconds per call; CPU milliseconds go to ``cpu`` when given (on a busy
    machine they show what the code costs, the wall clock what a caller waits)."""
    out = []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        out.append((time.perf_counter() - t) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c) * 1000)
    return out


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered):6.2f} ms   p95 {p95:6.2f} ms   "
        f"max {ordered[-1]:6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite://{Path(tmp) / 'bench.db'}"
        rnd = random.Random(args.seed)
        with GameService(url) as service:
            service.create_schema()
            game = service.new_game("classic", PLAYERS, seed=args.seed)
            state = service.state(game)
            commands, spent = 0, 0.0
            while state.version < args.events and state.phase != "over":
                cmd = pick(state, rnd)
                t = time.perf_counter()
                events = service.submit(game, cmd)
                spent += time.perf_counter() - t
                commands += 1
                risk_core.apply_in_place(state, events)
        n = state.version
        print(f"store        {url}")
        print(f"game         classic, 4 players, {n} events, {commands} commands, {state.phase}")
        if state.phase == "over":
            print(f"             (the game ended before {args.events} events)")
        print(
            f"append       {commands / spent:8.0f} commands/s   {n / spent:8.0f} events/s   "
            f"({spent * 1000 / commands:.2f} ms per command)"
        )

        with GameService(url) as fresh:
            cpu: list[float] = []
            full = timed(lambda: fresh.state(game, at=n, snapshots=False), 10, cpu)
            print(f"full rebuild {ms(full)}   ({n} events, no snapshot)")
            print(f"  cpu time   {ms(cpu)}")
            events = fresh.events(game)
            fold = timed(lambda: risk_core.replay(events), 10)
            print(f"  of which   {ms(fold)}   (the engine's fold alone, events in memory)")
        versions = [rnd.randint(1, n) for _ in range(200)]
        with GameService(url) as fresh:
            at = [timed(partial(fresh.state, game, at=v), 1)[0] for v in versions]
            print(f"state at v   {ms(at)}   (200 random versions, from snapshots)")
        with GameService(url) as fresh:
            latest = timed(lambda: fresh.state(game), 1)
            print(f"latest, cold {latest[0]:6.2f} ms   (snapshot + tail, then cached)")
            repo = Repository(fresh.application.events)  # the library's replay, without snapshots
            lib = timed(lambda: repo.get(game), 3)
            print(f"library      {ms(lib)}   (eventsourcing's replay, for reference)")


if __name__ == "__main__":
    main()
