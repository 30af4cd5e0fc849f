"""Being told when a game needs you: `risk inbox --wait` and `risk notify --exec CMD`.

Both watch every game of the profile that holds one of your seats, through the service's
public announcements (one pub/sub channel per game, ``{game_id, version, to_act}``): they
subscribe first and read the games after, so no move can slip between the two, and read the
games again now and then, since an announcement missed while Redis was away is not sent again.
A game "needs you" when one of your seats must act in it (its turn, a defence, an occupation).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
import redis

from risk_cli import profile
from risk_cli.backend import RemoteBackend, check_remote
from risk_cli.common import App, json_option, pass_app
from risk_cli.render import deadline_text
from risk_core import RiskError
from risk_service.client import RemoteError, announcement

JsonDict = dict[str, Any]
TICK = 5.0  # seconds between looks at the profile (games joined meanwhile are watched too)
RESYNC = 30.0  # seconds between full reads of the games (announcements missed)


def my_seats(backend: RemoteBackend) -> dict[str, set[int]]:
    """The profile's games (reloaded: another `risk` may have joined one) and your seats."""
    backend.profile = profile.load()
    return {
        gid: {int(s) for s in entry.seats}
        for gid, entry in sorted(backend.profile.games.items())
        if entry.seats
    }


class Turn:
    """One game as the inbox sees it: who must act (None: nobody, the game is over; ``...``:
    the game is not on the service), in which turn, at which version, and its inbox entry
    (None: none of your seats must act)."""

    def __init__(
        self, acting: Any, v: JsonDict | None = None, entry: JsonDict | None = None
    ) -> None:
        self.acting, self.entry = acting, entry
        # The turn, and in the setup the armies left to place: the computer's seats may have
        # played a whole round within one announcement, back to the same seat.
        self.round = None if v is None else (v.get("turn"), str(v.get("setup_left")))
        self.version = 0 if v is None else int(v["version"])

    @property
    def key(self) -> tuple[Any, Any]:
        """What changes when a seat comes to act anew: the seat, or the round."""
        return self.acting, self.round


def turn(backend: RemoteBackend, game_id: str, seats: set[int]) -> Turn:
    """``game_id`` read through the service, for the player holding ``seats``."""
    try:
        v = backend.seat_view(game_id, None)  # a spectator's: public, no key needed
    except RiskError as e:
        if e.code == "unknown_game":
            return Turn(...)
        raise
    seat = v["to_act"]
    if seat is None or seat not in seats:
        return Turn(seat, v)
    entry = {
        "game_id": game_id,
        "seat": seat,
        "name": v["players"][seat]["name"],
        "phase": v["phase"],
    }
    if v.get("deadline"):
        entry["deadline"] = v["deadline"]
    return Turn(seat, v, entry)


def waiting(backend: RemoteBackend) -> list[JsonDict]:
    """The inbox: every game of the profile where one of your seats must act."""
    found = []
    for gid, seats in my_seats(backend).items():
        entry = turn(backend, gid, seats).entry
        if entry is not None:
            found.append(entry)
    return found


def entry_line(w: JsonDict) -> str:
    line = f"{w['game_id']:<24}{w['name']} (seat {w['seat']}) to {w['phase']}"
    return line + (f" · {deadline_text(w['deadline'])}" if w.get("deadline") else "")


class Watch:
    """A subscription to the announcements of the profile's games, kept up with the profile."""

    def __init__(self, backend: RemoteBackend) -> None:
        self.backend = backend
        self.pubsub = backend.client.redis.pubsub(  # type: ignore[no-untyped-call,unused-ignore]
            ignore_subscribe_messages=True
        )
        self.games: dict[str, set[int]] = {}

    def refresh(self) -> list[str]:
        """Subscribe to the games joined since the last call; those games."""
        games = my_seats(self.backend)
        new = [gid for gid in games if gid not in self.games]
        if new:
            try:
                self.pubsub.subscribe(*[self.backend.client.keys.channel(g) for g in new])
            except (redis.ConnectionError, redis.TimeoutError) as e:
                # Not the URL: it may carry the client user's password.
                raise RemoteError("timeout", f"Cannot reach the service's Redis: {e}.") from None
        self.games = games
        return new

    def next(self, timeout: float) -> JsonDict | None:
        """The next announcement of a watched game, or None after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            if not self.pubsub.subscribed:  # nothing to listen to yet: get_message returns
                time.sleep(min(left, 0.5))
                continue
            found = announcement(self.pubsub.get_message(timeout=left))
            if found is not None and found.get("game_id") in self.games:
                return found
        return None


@contextmanager
def watching(backend: RemoteBackend) -> Iterator[Watch]:
    watch = Watch(backend)
    try:
        yield watch
    finally:
        watch.pubsub.close()


def wait_for_turn(backend: RemoteBackend, timeout: float) -> list[JsonDict]:
    """Block until a game of the profile needs you (`risk inbox --wait`); the inbox then.
    ``timeout`` > 0: give up after that many seconds (``timeout``, exit 1)."""
    end = None if timeout <= 0 else time.monotonic() + timeout
    with watching(backend) as watch:
        while True:
            watch.refresh()  # subscribed before reading: no move slips between the two
            found = waiting(backend)
            if found:
                return found
            left = TICK if end is None else min(TICK, end - time.monotonic())
            if left <= 0:
                raise RiskError("timeout", "No game needed you before --timeout.")
            try:
                watch.next(left)  # any announcement, or the tick: read the games again
            except redis.ConnectionError:
                time.sleep(min(1.0, left))


# --------------------------------------------------------------------------- risk notify
@click.command()
@click.option(
    "--exec",
    "command",
    required=True,
    metavar="CMD",
    help="Shell command to run each time one of your seats must act (RISK_GAME, RISK_SEAT, "
    "RISK_NAME, RISK_PHASE, RISK_VERSION and RISK_DUE in its environment).",
)
@click.option("--once", is_flag=True, help="Exit after the first run, with the command's status.")
@json_option
@pass_app
def notify(app: App, command: str, once: bool, as_json: bool) -> None:
    """Run CMD each time a game of your profile comes to one of your seats.

    Watches every game your profile holds a seat of (games joined meanwhile too); a game that
    already waits for you when this starts counts.  CMD runs through the shell, e.g.
    `risk notify --exec 'notify-send "Risk: your move in $RISK_GAME"'`.  Runs until stopped
    (Ctrl-C), or with --once until the first run.
    """
    backend = check_remote(app.backend, "risk notify")
    if not as_json:
        click.echo("Watching your games (Ctrl-C stops).", err=True)
    seen: dict[str, tuple[Any, Any]] = {}  # game → (seat to act, turn) when last read

    def look(gid: str, seats: set[int]) -> bool:
        """Read ``gid``; run the command if one of your seats has just come to act."""
        now = turn(backend, gid, seats)
        before, seen[gid] = seen.get(gid), now.key
        entry = now.entry
        if entry is None or before == now.key:
            return False
        status = _run(command, entry, now.version)
        if as_json:
            out = {**entry, "version": now.version, "exit": status}
            click.echo(json.dumps(out, ensure_ascii=False))
        else:
            click.echo(f"{entry_line(entry).removesuffix('.')}: ran the command (exit {status}).")
        if once:
            raise click.exceptions.Exit(status)
        return True

    try:
        with watching(backend) as watch:
            watch.refresh()
            if not watch.games and not as_json:
                click.echo("Your profile holds no seat yet: games you join are watched.", err=True)
            for gid, seats in watch.games.items():
                look(gid, seats)
            synced = time.monotonic()
            away = False  # the service unreachable since the last look: said once
            while True:
                try:
                    if away:  # back only once the games can be read again
                        for gid, seats in watch.games.items():
                            look(gid, seats)
                        synced, away = time.monotonic(), False
                        click.echo("The service answers again.", err=True)
                    news = watch.next(TICK)
                    if news is not None:
                        gid, acting = news["game_id"], news.get("to_act")
                        if acting in watch.games[gid] or acting != seen.get(gid, (...,))[0]:
                            look(gid, watch.games[gid])
                        continue
                    for gid in watch.refresh():
                        look(gid, watch.games[gid])
                    if time.monotonic() - synced > RESYNC:
                        for gid, seats in watch.games.items():
                            look(gid, seats)
                        synced = time.monotonic()
                except (redis.ConnectionError, RemoteError) as e:
                    if isinstance(e, RemoteError) and e.code != "timeout":
                        raise
                    # Redis or the workers away for a while: keep watching, and read every
                    # game again once they are back (announcements were missed meanwhile).
                    # Said once per absence: a line a second would flood a log.
                    if not away:
                        click.echo(f"Waiting for the service: {e}", err=True)
                    away = True
                    time.sleep(1.0)
    except KeyboardInterrupt:
        pass


def _run(command: str, entry: JsonDict, version: int) -> int:
    """Run ``command`` through the shell for ``entry``; its exit status (127: not found)."""
    env = {
        **os.environ,
        "RISK_GAME": entry["game_id"],
        "RISK_SEAT": str(entry["seat"]),
        "RISK_NAME": entry["name"],
        "RISK_PHASE": entry["phase"],
        "RISK_VERSION": str(version),
        "RISK_DUE": (entry.get("deadline") or {}).get("due", ""),
    }
    try:
        return subprocess.run(command, shell=True, env=env, check=False).returncode
    except OSError as e:
        raise RiskError("exec_failed", f"Cannot run {command!r}: {e.strerror or e}.") from None
