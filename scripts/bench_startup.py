"""Start-up benchmark: the CPU time of whole `risk` processes against a bare `python -c pass`.

    .venv/bin/python scripts/bench_startup.py [--rounds 9] [--before DIR]

Each round runs, one after the other (interleaved, so that a slow spell of a shared machine
weighs on every figure alike), after one round that is not counted (it writes the modules'
bytecode, as installing does): `python -c pass`, `risk --help`, `risk show GAME` and
`risk show GAME --json` on a SQLite store holding one classic game (a temporary folder,
started first), and `risk show GAME --at V` (V its latest version: the same view, read through
the service rather than straight from the file, ``risk_service.read_sqlite``).  A process's
CPU time (user + system, the children's usage) is what its imports and work cost, whatever
else the machine is doing.  Prints each command's median over
the rounds and its ratio to the median of `python -c pass`; the targets are `risk --help` ≤ 3×
and `risk show GAME` ≤ 5×.  ``--before DIR`` runs every `risk` command with the code of another
checkout too (``git archive HEAD | tar -x -C DIR``; its directory first on ``PYTHONPATH``),
interleaved in the same rounds, so that a change is judged before → after in one run.  Prints
figures only; no assertion.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RISK = Path(sys.executable).with_name("risk")  # the console script, as a user runs it
TARGETS = {"risk --help": 3.0, "risk show GAME": 5.0}


def cpu_ms(argv: list[str], env: dict[str, str]) -> float:
    """The CPU milliseconds (user + system) the process ``argv`` spent, to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.decode()}")
    spent = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return spent * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--before", type=Path, help="another checkout, run alongside")
    args = parser.parse_args()
    rounds, before = args.rounds, args.before
    with tempfile.TemporaryDirectory() as tmp:
        # Bytecode is written (and read) as after an install: a first round, not counted,
        # compiles every module once.
        skip = ("RISK_", "_RISK", "PYTHONDONTWRITEBYTECODE")
        env = {k: v for k, v in os.environ.items() if not k.startswith(skip)}
        env.update(XDG_DATA_HOME=tmp, RISK_STORE=f"sqlite:///{tmp}/games.db")
        subprocess.run(
            [str(RISK), "--create", "new", "--players", "Ann,Bob,Cy", "--seed", "1", "--id", "g"],
            env=env,
            check=True,
            capture_output=True,
        )
        shown = subprocess.run(
            [str(RISK), "show", "g", "--json"], env=env, check=True, capture_output=True
        )
        latest = str(json.loads(shown.stdout)["version"])
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "risk --help": [str(RISK), "--help"],
            "risk show GAME": [str(RISK), "show", "g"],
            "risk show GAME --json": [str(RISK), "show", "g", "--json"],
            # The same view through the service (--at: the store's application and mapper),
            # for comparison with the read straight from the file above.
            "risk show GAME --at V": [str(RISK), "show", "g", "--at", latest],
        }
        runs = {name: (argv, env) for name, argv in cases.items()}
        if before is not None:
            old = {**env, "PYTHONPATH": str(before.resolve())}
            for name, argv in cases.items():
                if name.startswith("risk "):
                    runs[f"{name} (before)"] = (argv, old)
        spent: dict[str, list[float]] = {name: [] for name in runs}
        for argv, run_env in runs.values():
            cpu_ms(argv, run_env)
        for _ in range(rounds):
            for name, (argv, run_env) in runs.items():
                spent[name].append(cpu_ms(argv, run_env))
    base = statistics.median(spent["python -c pass"])
    print(f"CPU time per process, median of {rounds} interleaved rounds:")
    for name, samples in spent.items():
        median = statistics.median(samples)
        target = TARGETS.get(name)
        goal = f"  (target ≤ {target:g}×)" if target else ""
        print(f"  {name:<33} {median:7.1f} ms  {median / base:5.2f}×{goal}")


if __name__ == "__main__":
    main()
