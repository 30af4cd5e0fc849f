"""History benchmark: time travel, audit, export and import of one long game in SQLite.

    .venv/bin/python scripts/bench_history.py [--events 10000] [--seed 1] [--branches 10]
        [--store FILE] [--repeat 3] [--before DIR] [--no-travel] [--instructions]

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
is judged before → after in one run on a noisy machine.  Wall-clock and CPU times are both
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_store import pick  # noqa: E402  (same random player as the store bench)

import risk_core  # noqa: E402
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
def build(url: str, game: str, events: int, seed: int) -> tuple[int, int, str]:
    """Play ``game`` up to ``events`` events (or reuse it); its events, commands and phase."""
    rnd = random.Random(seed)
    with GameService(url) as service:
        service.create_schema()
        if game in {g.game_id for g in service.games()}:
            state = service.state(game)
            commands = sum(1 for r in service.iter_records(game) if r.command is not None)
            return state.version, commands, state.phase
        service.new_game("classic", PLAYERS, seed=seed, game_id=game)
        state = service.state(game)
        commands = 0
        while state.version < events and state.phase != "over":
            risk_core.apply_in_place(state, service.submit(game, pick(state, rnd)))
            commands += 1
        return state.version, commands, state.phase


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


def steps(label: str, store: Path, game: str, scratch: Path, target: Path) -> dict[str, list[str]]:
    """The three commands' arguments: the export goes to a file of the tree's, imported into
    ``target`` (a new store)."""
    out = scratch / f"{label}.jsonl"
    return {
        "audit": ["--store", f"sqlite://{store}", "audit", game],
        "export": ["--store", f"sqlite://{store}", "export", game, "-o", str(out)],
        "import": ["--store", f"sqlite://{target}", "--create", "import", str(out)],
    }


def warm_up(trees: list[tuple[str, Path]], store: Path, game: str, scratch: Path) -> None:
    """Each command once with each tree, not measured: their bytecode written (``child_env``)."""
    for label, tree in trees:
        target = scratch / f"import-{label}-warm.db"
        for args in steps(label, store, game, scratch, target).values():
            run_risk(tree, args, scratch)
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


def history_instructions(
    trees: list[tuple[str, Path]], store: Path, game: str, n: int, scratch: Path
) -> None:
    """``risk audit``, ``export`` and ``import`` with each tree's code under callgrind: the
    instructions per event, the process doing no work subtracted."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on the PATH (apt-get install valgrind)")
    warm_up(trees, store, game, scratch)
    print(f"{'':<8}{'':<12}{'instructions/event':>20}   (callgrind, start-up subtracted)")
    counts: dict[tuple[str, str], float] = {}
    for label, tree in trees:
        target = scratch / f"import-{label}.db"
        zero = callgrind(tree, [], scratch)
        for step, args in steps(label, store, game, scratch, target).items():
            counts[(step, label)] = (callgrind(tree, args, scratch) - zero) / n
        target.unlink()
    for step in ("audit", "export", "import"):
        for label, _ in trees:
            print(f"{step:<8}{label:<12}{counts[(step, label)]:>20,.0f}")


def history_commands(
    trees: list[tuple[str, Path]], store: Path, game: str, n: int, repeat: int, scratch: Path
) -> None:
    """``risk audit``, ``export`` and ``import`` with each tree's code, interleaved."""
    warm_up(trees, store, game, scratch)
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    sizes: dict[str, int] = {}
    for i in range(repeat):
        for label, tree in trees:
            target = scratch / f"import-{label}-{i}.db"
            for step, args in steps(label, store, game, scratch, target).items():
                results.setdefault((step, label), []).append(run_risk(tree, args, scratch))
            sizes[label] = (scratch / f"{label}.jsonl").stat().st_size
            target.unlink()
    print(
        f"{'':<8}{'':<12}{'events/CPU s':>14}{'CPU s':>8}{'wall s':>8}"
        f"{'peak MiB':>10}{'added MiB':>11}   (median of {repeat} runs; peaks: the largest)"
    )
    for step in ("audit", "export", "import"):
        for label, _ in trees:
            runs = results[(step, label)]
            cpu = statistics.median(r["cpu"] for r in runs)
            wall = statistics.median(r["wall"] for r in runs)
            peak = max(r["peak_kib"] for r in runs) / 1024
            added = max(r["peak_kib"] - r["loaded_kib"] for r in runs) / 1024
            print(
                f"{step:<8}{label:<12}{n / cpu:>14,.0f}{cpu:>8.2f}{wall:>8.2f}"
                f"{peak:>10.1f}{added:>11.1f}"
            )
    for label, _ in trees:
        print(f"export file ({label}): {sizes[label] / 1e6:.1f} MB")


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
        n, commands, phase = build(f"sqlite://{store}", game, args.events, args.seed)
        print(f"store        {store}")
        print(f"game         {game}: classic, 4 players, {n} events, {commands} commands, {phase}")
        if phase == "over":
            print(f"             (the game ended before {args.events} events)")
        if not args.no_travel:
            copy = scratch / "travel.db"
            copy_store(store, copy)
            time_travel(f"sqlite://{copy}", game, n, random.Random(args.seed), args.branches)
            copy.unlink()
        trees = [("this tree", ROOT)]
        if args.before is not None:
            trees.insert(0, ("before", args.before.resolve()))
        if args.instructions:
            history_instructions(trees, store, game, n, scratch)
        else:
            history_commands(trees, store, game, n, args.repeat, scratch)


if __name__ == "__main__":
    main()
