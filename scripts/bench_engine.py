"""Engine throughput on the classic board: commands decided, events replayed, games played.

Usage (from the project root)::

    .venv/bin/python scripts/bench_engine.py [--games N] [--players 4] [--profile]
    .venv/bin/python scripts/bench_engine.py --instructions [--games 10]

Greedy bots play classic games with seeds 1..N.  Three figures, measured separately:

(a) ``decide`` + applying its events, in commands per second.  The command lists are recorded
    first, so bot thinking is excluded; the state is advanced in place (``apply_in_place``),
    and alongside are ``engine.decide_and_apply`` (for a caller that owns its state, as a
    service or an audit does: each event applied once, to that state) and the copying path
    (``evolve`` per event);
(b) ``replay`` of each whole history, in events per second;
(c) whole games per second, bots included (``start`` to the winner).

Targets on one core: 50,000 commands/s and 200,000 events/s.  Figures only, no assertions;
``--profile`` adds a cProfile of (a) sorted by own time, to show where the engine spends it.

``--instructions`` gives figures that do not depend on the machine's load: each workload runs
in a process of its own under valgrind's callgrind, next to the same process doing no work
(imports, reading the recorded games), and the difference in instructions is divided by the
commands, events or games; whole games of the other levels (``simple`` and ``random`` bots,
at most 2,000 turns each, the same seeds) are counted too, with how many reached a winner.
With a fixed string hash (``PYTHONHASHSEED=0``) and the recorded games kept out of the cycle
collector's passes, a second run gives the same figures to within 0.1% (the recorded games'
temporary file name is all that differs).  Needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

import risk_core as rc  # noqa: E402
from risk_core.bots import self_play  # noqa: E402
from risk_core.model import Command, Event  # noqa: E402
from risk_core.rng import ACCELERATED  # noqa: E402

# Which dice draws the figures are of (README "Set up": compiled where built; RISK_PURE_PYTHON=1
# for the pure-Python ones): the measured processes inherit this one's environment.
DRAWS = "dice draws compiled" if ACCELERATED else "dice draws in pure Python"

Game = tuple[list[Event], list[Command], list[Event]]  # opening, commands, whole history


def record(games: int, players: int) -> list[Game]:
    names = [f"P{i + 1}" for i in range(players)]
    out = []
    for seed in range(1, games + 1):
        opening = rc.start("classic", names, seed=seed)
        commands, events = self_play(opening, seed=seed)
        out.append((opening, commands, events))
    return out


def decide_in_place(games: list[Game]) -> None:
    for opening, commands, _ in games:
        state = rc.replay(opening)
        for cmd in commands:
            rc.apply_in_place(state, rc.decide(state, cmd))


def decide_and_apply(games: list[Game]) -> None:
    for opening, commands, _ in games:
        state = rc.replay(opening)
        for cmd in commands:
            rc.engine.decide_and_apply(state, cmd)


def decide_evolve(games: list[Game]) -> None:
    for opening, commands, _ in games:
        state = rc.replay(opening)
        for cmd in commands:
            for ev in rc.decide(state, cmd):
                state = rc.evolve(state, ev)


def replay_all(games: list[Game]) -> None:
    for _, _, events in games:
        rc.replay(events)


def play_games(games: int, players: int, level: str) -> None:
    names = [f"P{i + 1}" for i in range(players)]
    for seed in range(1, games + 1):
        self_play(rc.start("classic", names, seed=seed), level=level, seed=seed)


def finished(games: int, players: int, level: str) -> int:
    """How many of the games (seeds 1..games) ``level`` bots play to a winner."""
    names = [f"P{i + 1}" for i in range(players)]
    done = 0
    for seed in range(1, games + 1):
        _, events = self_play(rc.start("classic", names, seed=seed), level=level, seed=seed)
        done += rc.replay(events).phase == "over"
    return done


# What --instructions measures: name -> (what it divides by, function of the recorded games).
WORKLOADS: dict[str, Callable[[list[Game]], None]] = {
    "decide": decide_in_place,
    "decide_and_apply": decide_and_apply,
    "evolve": decide_evolve,
    "replay": replay_all,
}


def run_workload(name: str, path: str, players: int, level: str) -> None:
    """The body of one measured process: read the recorded games, then do ``name``'s work.

    Every process first plays one command of a throwaway game, so that the one-off costs (the
    rule set and its board loaded, decoders built) fall in the zero-work run and cancel out.
    """
    warm = rc.start("classic", [f"P{i + 1}" for i in range(players)], seed=0)
    rc.decode_events(rc.encode(warm))
    self_play(warm, level=level, max_turns=0)
    if name.startswith("games"):  # whole games with bots: nothing recorded is needed
        count = int(name.removeprefix("games"))
        play_games(count, players, level)
        return
    raw = Path(path).read_bytes()
    games = [
        (
            [rc.decode_event(e) for e in opening],
            [rc.decode_command(c) for c in commands],
            [rc.decode_event(e) for e in events],
        )
        for opening, commands, events in msgspec.json.decode(raw)
    ]
    # The recorded games are this benchmark's data, not the engine's: out of the cycle
    # collector's sight, so that its passes over them do not count against each command.
    gc.collect()
    gc.freeze()
    if name != "none":
        WORKLOADS[name](games)


def callgrind(args: list[str]) -> int:
    """Instructions executed by this script run with ``args`` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                *args,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # A fixed string hash: with a random one each run's dicts and sets differ, and so
            # do its counts (by up to 2%).
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        m = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert m, "callgrind wrote no total"
        return int(m.group(1))


def instructions(games: int, players: int, level: str) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind on the PATH (apt-get install valgrind)")
    recorded = record(games, players)
    n_cmds = sum(len(c) for _, c, _ in recorded)
    n_events = sum(len(e) for _, _, e in recorded)
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        f.write(
            msgspec.json.encode(
                [[[rc.encode(x).decode() for x in part] for part in game] for game in recorded]
            )
        )
    base = ["--players", str(players), "--level", level, "--recorded", f.name]
    try:
        zero = callgrind([*base, "--run", "none"])
        print(
            f"classic, {players} players, {games} greedy games (seeds 1-{games}): {n_cmds} "
            f"commands, {n_events} events; instructions under callgrind, start-up subtracted; "
            f"{DRAWS}"
        )
        for name, unit, count in (
            ("decide", "command", n_cmds),
            ("decide_and_apply", "command", n_cmds),
            ("evolve", "command", n_cmds),
            ("replay", "event", n_events),
        ):
            work = callgrind([*base, "--run", name]) - zero
            label = {"decide": "decide + apply_in_place", "evolve": "decide + evolve"}.get(
                name, name
            )
            print(f"  {label:<24}: {work / count:>12,.0f} per {unit}  ({work:,} in all)")
        one = callgrind([*base, "--run", "games0"])
        work = callgrind([*base, "--run", f"games{games}"]) - one
        print(
            f"  {'whole games, ' + level + ' bots':<24}: {work / games:>12,.0f} per game"
            f"  ({work:,} in all)"
        )
        # The other levels too: simple players (issue 14: within 55M per 4-player game, every
        # game finished) and random ones (they draw from legal_moves).
        for other in ("simple", "random"):
            if other == level:
                continue
            plain = ["--players", str(players), "--level", other, "--recorded", f.name]
            work = callgrind([*plain, "--run", f"games{games}"]) - callgrind(
                [*plain, "--run", "games0"]
            )
            done = finished(games, players, other)
            print(
                f"  {'whole games, ' + other + ' bots':<24}: {work / games:>12,.0f} per game"
                f"  ({work:,} in all; {done} of {games} finished, at most 2,000 turns each)"
            )
    finally:
        Path(f.name).unlink()


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """Fastest of ``repeat`` runs: the least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under callgrind"
    )
    parser.add_argument("--level", default="greedy", help="bot level of whole games")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # one workload (under callgrind)
    parser.add_argument("--recorded", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_workload(args.run, args.recorded, args.players, args.level)
        return
    if args.instructions:
        instructions(args.games, args.players, args.level)
        return

    t0 = time.perf_counter()
    games = record(args.games, args.players)
    full = time.perf_counter() - t0
    n_cmds = sum(len(c) for _, c, _ in games)
    n_events = sum(len(e) for _, _, e in games)
    n_setup = sum(len(o) for o, _, _ in games)
    print(
        f"classic, {args.players} players, {args.games} greedy games: {n_cmds} commands, "
        f"{n_events} events ({n_events / args.games:.0f} per game); {DRAWS}"
    )

    t_place = best_of(args.repeat, lambda: decide_in_place(games))
    t_once = best_of(args.repeat, lambda: decide_and_apply(games))
    t_evolve = best_of(args.repeat, lambda: decide_evolve(games))
    t_replay = best_of(args.repeat, lambda: replay_all(games))
    t_full = best_of(args.repeat, lambda: record(args.games, args.players))
    full = min(full, t_full)
    print(f"(a) decide + apply_in_place : {n_cmds / t_place:>10,.0f} commands/s  (target 50,000)")
    print(f"    decide_and_apply        : {n_cmds / t_once:>10,.0f} commands/s")
    print(f"    decide + evolve         : {n_cmds / t_evolve:>10,.0f} commands/s")
    print(f"    events decided          : {(n_events - n_setup) / t_place:>10,.0f} events/s")
    print(
        f"(b) replay                  : {n_events / t_replay:>10,.0f} events/s    (target 200,000)"
    )
    print(
        f"(c) full games with bots    : {args.games / full:>10,.1f} games/s "
        f"({n_cmds / full:,.0f} commands/s)"
    )

    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(decide_in_place, games)
        print("\n(a) profile, by own time:")
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
        prof = cProfile.Profile()
        prof.runcall(replay_all, games)
        print("\n(b) profile, by own time:")
        pstats.Stats(prof).sort_stats("tottime").print_stats(10)


if __name__ == "__main__":
    main()
