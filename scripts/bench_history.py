"""History benchmark: time travel, audit, export and import of one long game in SQLite.

    .venv/bin/python scripts/bench_history.py [--events 10000] [--seed 1] [--branches 10]
        [--store FILE] [--repeat 3] [--before DIR [--before-store FILE]] [--no-travel]
        [--instructions]

Plays random legal commands (attacks preferred, 70%) in a classic 4-player game through
``GameService.submit`` until it has ``--events`` engine events (in a temporary SQLite file, or
in ``--store FILE``, where a game built by an earlier run with the same options is reused),
then, from fresh service instances (nothing cached), times:

* the state at a random version (200 versions; target ≤ 5 ms);
* branch creation (``risk_service.history.branch``) at random versions, then of the whole
  history, each a new game whose history is a copy (target ≤ 50 ms at 10,000 events); these
  run on a copy of the store, so a kept store holds only the benchmark game;
* ``risk audit GAME``, ``risk export GAME -o FILE`` and ``risk import FILE`` (into a new store),
  each in a process of its own: events per CPU second and the process's peak memory (Linux's
  VmHWM), with how much of it the command added to the loaded program.

``--before DIR`` runs the same three commands with the code of another checkout too (for
example ``git archive HEAD | tar -x -C DIR``), interleaved with this one's, so that a change
is judged before → after in one run on a noisy machine.  A checkout that cannot read a game
of this one's board (an older engine's ``version_mismatch``) reads one of its own with
``--before-store FILE``: played there first with its own code and its own random player, the
same seed and length (kept for the next run).  Wall-clock and CPU times are both
shown: on a shared machine the CPU time says what the code costs, the wall clock what a
caller waits.  Each command runs once with each tree before those measured, so that what it
imports late is measured as an installed program runs it, from bytecode (``child_env``).
Figures only; no assertion (a failing command stops the benchmark).

``--instructions`` counts instead the instructions each of the three commands executes under
valgrind's callgrind (one run each, in a process of its own, with every tree), less those of
the same process doing no work (its modules imported, no command run): per event, repeatable
to a few digits on a busy machine where CPU times swing.  Slow (~50x): use it with a smaller
``--events`` (20,000 is ~1 minute per command and tree).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from risk_service import GameService  # noqa: E402
from risk_service.history import branch  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

# Runs one `risk` command in a process of its own, with the code of the checkout on its
# PYTHONPATH.  The command's modules are imported first, so that the figures are the
# command's own: CPU time and peak memory from then on, written as JSON to the file named by
# BENCH_RESULT.  The peak is Linux's VmHWM, reset once the modules are loaded (clear_refs);
# getrusage's maxrss would not do: it keeps the parent's peak across fork and exec.
CHILD = r"""
import json, os, resource, sys, time
from risk_cli.main import cli
import risk_cli.audit, risk_service.audit, risk_service.exchange, risk_service.store
def kib(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # the peak RSS starts again from the current RSS
loaded, before, wall = kib("VmRSS"), cpu(), time.perf_counter()
code = 0
try:
    if sys.argv[1:]:  # none: the process doing no work (--instructions subtracts it)
        cli.main(args=sys.argv[1:], prog_name="risk", standalone_mode=False)
except SystemExit as e:
    code = e.code or 0
wall, used = time.perf_counter() - wall, cpu() - before
with open(os.environ["BENCH_RESULT"], "w") as f:
    json.dump({"code": code, "wall": wall, "cpu": used, "loaded_kib": loaded,
               "peak_kib": kib("VmHWM")}, f)
"""


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


# --------------------------------------------------------------------------- the game
# Plays the benchmark's game (or finds it) with the code of the checkout given, and that
# checkout's random player (``bench_store.pick``), in a process of its own; prints its events,
# commands and phase.  A checkout from before today's board cannot read a game played by
# today's code, so ``--before-store`` has the before tree play its own (same seed and player).
BUILD = r"""
import random, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
from bench_store import pick
import risk_core
from risk_service import GameService
url, game, events, seed = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
players = sys.argv[6].split(",")
rnd = random.Random(seed)
with GameService(url) as service:
    service.create_schema()
    if game in {g.game_id for g in service.games()}:
        state = service.state(game)
        read = getattr(service, "iter_records", None) or service.records  # older: a list
        records = read(game)
        commands = sum(1 for r in records if r.command is not None)
    else:
        service.new_game("classic", players, seed=seed, game_id=game)
        state = service.state(game)
        commands = 0
        while state.version < events and state.phase != "over":
            risk_core.apply_in_place(state, service.submit(game, pick(state, rnd)))
            commands += 1
print(state.version, commands, state.phase)
"""


def build(tree: Path, store: Path, game: str, events: int, seed: int) -> tuple[int, int, str]:
    """Play ``game`` in ``store`` up to ``events`` events with ``tree``'s code (or reuse it);
    its events, commands and phase."""
    out = subprocess.run(
        [sys.executable, "-c", BUILD, str(tree), f"sqlite://{store}", game, str(events), str(seed),
         ",".join(PLAYERS)],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE,
        text=True, check=True,
    ).stdout.split()  # fmt: skip
    return int(out[0]), int(out[1]), out[2]


def copy_store(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def time_travel(url: str, game: str, n: int, rnd: random.Random, branches: int) -> None:
    with GameService(url) as fresh:
        versions = [rnd.randint(1, n) for _ in range(200)]
        runs = [timed(lambda v=v: fresh.state(game, at=v)) for v in versions]  # type: ignore[misc]
        report("state at v", runs, "(200 random versions, from snapshots; target ≤ 5 ms)")

    points = [rnd.randint(1, n) for _ in range(branches)]
    with GameService(url) as fresh:
        runs = [
            timed(lambda at=at: branch(fresh, game, at, dice="reseed"))  # type: ignore[misc]
            for at in points
        ]
        report("branch", runs, f"({len(points)} branches at random versions)")
        runs = [timed(lambda: branch(fresh, game, n, dice="reseed")) for _ in range(5)]
        report(f"  at {n}", runs, "(5 branches of the whole history; target ≤ 50 ms)")


# --------------------------------------------------------------------------- audit, export, import
def child_env(tree: Path, result: Path, scratch: Path) -> dict[str, str]:
    """A command's environment: the tree's code on its path, and bytecode as an installed
    program has it: written to and read from a cache of the benchmark's own
    (``PYTHONPYCACHEPREFIX``) even where PYTHONDONTWRITEBYTECODE is set or the tree is
    read-only, so that what a command imports late is compiled by ``warm_up``, not by the
    runs measured (for both trees alike)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "BENCH_RESULT": str(result)}
    env["PYTHONHASHSEED"] = "0"  # a fixed string hash: instruction counts repeat run to run
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    return env


def run_risk(
    tree: Path, args: list[str], scratch: Path, *, under: Sequence[str] = ()
) -> dict[str, float]:
    """Run ``risk ARGS`` with the tree's code in a process of its own (``under``: the command
    running it, such as valgrind's); its figures (``CHILD``)."""
    result = scratch / "result.json"
    result.unlink(missing_ok=True)
    done = subprocess.run(
        [*under, sys.executable, "-c", CHILD, *args],
        cwd=tree,
        env=child_env(tree, result, scratch),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    figures: dict[str, float] = json.loads(result.read_text()) if result.exists() else {}
    if done.returncode or figures.get("code", 1):
        sys.exit(f"risk {' '.join(args)} failed ({tree}):\n{done.stderr}")
    return figures


class Side(NamedTuple):
    """A checkout measured, and the game its commands read (its events counted)."""

    label: str
    tree: Path
    store: Path
    game: str
    events: int


def steps(side: Side, scratch: Path, target: Path) -> dict[str, list[str]]:
    """The three commands' arguments: the export goes to a file of the tree's, imported into
    ``target`` (a new store)."""
    out = scratch / f"{side.label}.jsonl"
    store = f"sqlite://{side.store}"
    return {
        "audit": ["--store", store, "audit", side.game],
        "export": ["--store", store, "export", side.game, "-o", str(out)],
        "import": ["--store", f"sqlite://{target}", "--create", "import", str(out)],
    }


def warm_up(sides: list[Side], scratch: Path) -> None:
    """Each command once with each tree, not measured: their bytecode written (``child_env``)."""
    for side in sides:
        target = scratch / f"import-{side.label}-warm.db"
        for args in steps(side, scratch, target).values():
            run_risk(side.tree, args, scratch)
        target.unlink()


def callgrind(tree: Path, args: list[str], scratch: Path) -> int:
    """Instructions executed by ``run_risk``'s process with ``args`` under callgrind."""
    out = scratch / "callgrind.out"
    run_risk(
        tree, args, scratch, under=["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    )
    m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    assert m, "callgrind wrote no total"
    out.unlink()
    return int(m.group(1))


def history_instructions(sides: list[Side], scratch: Path) -> None:
    """``risk audit``, ``export`` and ``import`` with each tree's code under callgrind: the
    instructions per event, the process doing no work subtracted."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on the PATH (apt-get install valgrind)")
    warm_up(sides, scratch)
    print(f"{'':<8}{'':<12}{'instructions/event':>20}   (callgrind, start-up subtracted)")
    counts: dict[tuple[str, str], float] = {}
    for side in sides:
        target = scratch / f"import-{side.label}.db"
        zero = callgrind(side.tree, [], scratch)
        for step, args in steps(side, scratch, target).items():
            counts[(step, side.label)] = (callgrind(side.tree, args, scratch) - zero) / side.events
        target.unlink()
    for step in ("audit", "export", "import"):
        for side in sides:
            print(f"{step:<8}{side.label:<12}{counts[(step, side.label)]:>20,.0f}")


def history_commands(sides: list[Side], repeat: int, scratch: Path) -> None:
    """``risk audit``, ``export`` and ``import`` with each tree's code, interleaved."""
    warm_up(sides, scratch)
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    sizes: dict[str, int] = {}
    for i in range(repeat):
        for side in sides:
            target = scratch / f"import-{side.label}-{i}.db"
            for step, args in steps(side, scratch, target).items():
                run = run_risk(side.tree, args, scratch)
                results.setdefault((step, side.label), []).append(run)
            sizes[side.label] = (scratch / f"{side.label}.jsonl").stat().st_size
            target.unlink()
    print(
        f"{'':<8}{'':<12}{'events/CPU s':>14}{'CPU s':>8}{'wall s':>8}"
        f"{'peak MiB':>10}{'added MiB':>11}   (median of {repeat} runs; peaks: the largest)"
    )
    for step in ("audit", "export", "import"):
        for side in sides:
            label, runs = side.label, results[(step, side.label)]
            cpu = statistics.median(r["cpu"] for r in runs)
            wall = statistics.median(r["wall"] for r in runs)
            peak = max(r["peak_kib"] for r in runs) / 1024
            added = max(r["peak_kib"] - r["loaded_kib"] for r in runs) / 1024
            print(
                f"{step:<8}{label:<12}{side.events / cpu:>14,.0f}{cpu:>8.2f}{wall:>8.2f}"
                f"{peak:>10.1f}{added:>11.1f}"
            )
    for side in sides:
        print(f"export file ({side.label}): {sizes[side.label] / 1e6:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--branches", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument(
        "--store", type=Path, help="SQLite file keeping the game between runs (reused)"
    )
    parser.add_argument(
        "--before", type=Path, metavar="DIR", help="also run the commands with this checkout"
    )
    parser.add_argument(
        "--before-store",
        type=Path,
        metavar="FILE",
        help="the game --before's commands read: played there with that checkout's own code "
        "and player (same seed) unless there already (for a tree that cannot read a game of "
        "this one's board)",
    )
    parser.add_argument("--no-travel", action="store_true", help="skip state and branch timings")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the commands' instructions under callgrind instead of timing them",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        store = (args.store or scratch / "bench.db").resolve()
        game = f"bench-{args.seed}-{args.events}"
        n, commands, phase = build(ROOT, store, game, args.events, args.seed)
        print(f"store        {store}")
        print(f"game         {game}: classic, 4 players, {n} events, {commands} commands, {phase}")
        if phase == "over":
            print(f"             (the game ended before {args.events} events)")
        sides = [Side("this tree", ROOT, store, game, n)]
        if args.before is not None:
            before = Side("before", args.before.resolve(), store, game, n)
            if args.before_store is not None:  # a game of its own, played with its code
                own = args.before_store.resolve()
                m, commands, phase = build(before.tree, own, game, args.events, args.seed)
                print(f"before's     {own}: {m} events, {commands} commands, {phase}")
                before = before._replace(store=own, events=m)
            sides.insert(0, before)
        if not args.no_travel:
            copy = scratch / "travel.db"
            copy_store(store, copy)
            time_travel(f"sqlite://{copy}", game, n, random.Random(args.seed), args.branches)
            copy.unlink()
        if args.instructions:
            history_instructions(sides, scratch)
        else:
            history_commands(sides, args.repeat, scratch)


if __name__ == "__main__":
    main()
