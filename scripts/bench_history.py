"""History benchmark: time travel on one long game in SQLite (a temporary file).

    .venv/bin/python scripts/bench_history.py [--events 10000] [--seed 1] [--branches 10]

Plays random legal commands (attacks preferred, 70%) in a classic 4-player game through
``GameService.submit`` until it has ``--events`` engine events, then, from fresh service
instances (nothing cached), times:

* the state at a random version (200 versions; target ≤ 5 ms);
* branch creation (``risk_service.history.branch``) at random versions, then of the whole
  history, each a new game whose history is a copy (target ≤ 50 ms at 10,000 events);
* a full audit (``risk_service.audit``): every command decided again from the seed and every
  event compared byte for byte (target ≤ 2 s);
* export and import, for reference (an import audits the file before writing).

Wall-clock and CPU times are both shown: on a shared machine the CPU time says what the code
costs, the wall clock what a caller waits.  Figures only; no assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_store import pick  # noqa: E402  (same random player as the store bench)

import risk_core  # noqa: E402
from risk_service import GameService  # noqa: E402
from risk_service.audit import audit_game  # noqa: E402
from risk_service.exchange import export_game, import_game  # noqa: E402
from risk_service.history import branch  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one call."""
    t, c = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered):8.2f} ms   p95 {p95:8.2f} ms   "
        f"max {ordered[-1]:8.2f} ms"
    )


def report(label: str, runs: list[tuple[float, float]], note: str) -> None:
    print(f"{label:<13}{ms([w for w, _ in runs])}   {note}")
    print(f"{'  cpu time':<13}{ms([c for _, c in runs])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--branches", type=int, default=10)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite://{Path(tmp) / 'bench.db'}"
        rnd = random.Random(args.seed)
        with GameService(url) as service:
            service.create_schema()
            game = service.new_game("classic", PLAYERS, seed=args.seed, game_id="bench")
            state = service.state(game)
            commands = 0
            while state.version < args.events and state.phase != "over":
                events = service.submit(game, pick(state, rnd))
                risk_core.apply_in_place(state, events)
                commands += 1
        n = state.version
        print(f"store        {url}")
        print(f"game         classic, 4 players, {n} events, {commands} commands, {state.phase}")
        if state.phase == "over":
            print(f"             (the game ended before {args.events} events)")

        with GameService(url) as fresh:
            versions = [rnd.randint(1, n) for _ in range(200)]
            runs = [timed(lambda v=v: fresh.state(game, at=v)) for v in versions]  # type: ignore[misc]
            report("state at v", runs, "(200 random versions, from snapshots; target ≤ 5 ms)")

        points = [rnd.randint(1, n) for _ in range(args.branches)]
        with GameService(url) as fresh:
            runs = [
                timed(lambda at=at: branch(fresh, game, at, dice="reseed"))  # type: ignore[misc]
                for at in points
            ]
            report("branch", runs, f"({len(points)} branches at random versions)")
            runs = [timed(lambda: branch(fresh, game, n, dice="reseed")) for _ in range(5)]
            report(f"  at {n}", runs, "(5 branches of the whole history; target ≤ 50 ms)")

        with GameService(url) as fresh:
            runs = [timed(lambda: audit_game(fresh, game)) for _ in range(3)]
            report("full audit", runs, f"({n} events, {commands} commands; target ≤ 2 s)")

        with GameService(url) as fresh:
            data = export_game(fresh, game)
            runs = [timed(lambda: export_game(fresh, game)) for _ in range(3)]
            report("export", runs, f"({len(data) / 1e6:.1f} MB)")
            runs = [
                timed(lambda i=i: import_game(fresh, data, game_id=f"imported-{i}"))  # type: ignore[misc]
                for i in range(3)
            ]
            report("import", runs, "(digest, decode, audit, one write)")


if __name__ == "__main__":
    main()
