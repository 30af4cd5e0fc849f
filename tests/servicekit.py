"""Helpers for the service tests: a client-side replica of each game, workers as processes.

A ``Table`` creates a game through the service with a seed it chooses, so it can keep an exact
replica: the engine is deterministic, so deciding the same commands on the replica gives the
events the worker stored.  Sending a command and applying it to the replica only when the
service accepted it makes the replica "the accepted commands applied once, in order": the final
stored log must equal the replica's.

Credentials as players hold them (``risk_service.signing``): ``new_game`` makes an owner key and
one invitation per seat, ``claim`` a seat key claimed with an invitation, and ``seated`` does
both, every seat claimed; requests are signed with ``SigningKey.sign``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import risk_core
from risk_cli.main import cli
from risk_core import Command, Event, GameState, RuleError, bots
from risk_service.client import ServiceClient, new_request_id
from risk_service.handler import Handler, Item
from risk_service.protocol import ClaimRequest, CommandRequest, NewGameRequest, Reply, Request
from risk_service.signing import Invitation, SigningKey
from risk_service.worker import Worker

PLAYERS = ["Ann", "Bob", "Cy"]
WORKER_CODE = "from risk_cli.main import cli; cli()"


def new_game(
    game_id: str,
    players: list[str] = PLAYERS,
    *,
    request_id: str | None = None,
    **fields: Any,
) -> tuple[NewGameRequest, SigningKey, dict[int, Invitation]]:
    """A signed creation request, the owner's key and an invitation per seat."""
    owner = SigningKey.generate()
    invitations = {i: Invitation.new(game_id, i) for i in range(len(players))}
    request = NewGameRequest(
        request_id=request_id or new_request_id(),
        game_id=game_id,
        owner_key=owner.public,
        invitations={i: inv.public for i, inv in invitations.items()},
        players=players,
        **fields,
    )
    return owner.sign(request), owner, invitations


def claim(invitation: Invitation, request_id: str | None = None) -> tuple[ClaimRequest, SigningKey]:
    """A seat key made as `risk join` makes it, and its claim signed with ``invitation``."""
    key = SigningKey.generate()
    request = ClaimRequest(
        request_id=request_id or new_request_id(),
        game_id=invitation.game_id,
        seat=invitation.seat,
        key=key.public,
    )
    return invitation.key.sign(request), key


@dataclass
class Seated:
    created: Reply
    owner: SigningKey
    keys: dict[int, SigningKey]  # every playing seat's, claimed
    invitations: dict[int, Invitation]


def seated(
    send: Callable[[Request], Reply], game_id: str, players: list[str] = PLAYERS, **fields: Any
) -> Seated:
    """A game created and every playing seat claimed, through ``send``."""
    request, owner, invitations = new_game(game_id, players, **fields)
    created = send(request)
    assert created.ok, created
    keys = {}
    for seat in created.data["invited"]:
        claimed, keys[seat] = claim(invitations[seat])
        reply = send(claimed)
        assert reply.ok, reply
    return Seated(created, owner, keys, invitations)


@dataclass
class Table:
    """One game played through the service, with its replica."""

    client: ServiceClient
    game_id: str
    seed: int = 1
    keys: dict[int, SigningKey] = field(default_factory=dict)
    owner: SigningKey | None = None
    events: list[Event] = field(default_factory=list)
    state: GameState | None = None
    sent: int = 0

    def create(self) -> Table:
        made = seated(self.client.call, self.game_id, seed=self.seed)
        self.keys, self.owner = made.keys, made.owner
        self.events = risk_core.start("classic", PLAYERS, seed=self.seed, game_id=self.game_id)
        self.state = risk_core.replay(self.events)
        return self

    def next_command(self) -> Command:
        assert self.state is not None
        return bots.choose(self.state, level="random", seed=self.sent)

    def request(self, command: Command, *, key: SigningKey | None = None) -> CommandRequest:
        """The seat's command signed with its key (or with ``key``)."""
        request = CommandRequest(
            request_id=new_request_id(), game_id=self.game_id, seat=command.seat, command=command
        )
        return (key or self.keys[command.seat]).sign(request)

    def send(self, command: Command, *, key: SigningKey | None = None) -> Reply:
        """Send; on acceptance apply the same decision to the replica (and check it agrees)."""
        self.sent += 1
        return self.settle(command, self.client.call(self.request(command, key=key)))

    def settle(self, command: Command, reply: Reply) -> Reply:
        assert self.state is not None
        if reply.ok:
            new = risk_core.decide(self.state, command)
            risk_core.apply_in_place(self.state, new)
            self.events += new
            assert reply.version == self.state.version, (reply, self.state.version)
        else:
            try:
                risk_core.decide(self.state, command)
            except RuleError as e:
                assert reply.code == e.code, (reply, e.code)
        return reply

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.phase == "over"


def spawn_worker(redis_url: str, store: str, *, lease_ms: int = 600) -> subprocess.Popen[bytes]:
    args = [
        "--redis",
        redis_url,
        "--create",
        "--store",
        store,
        "worker",
        "--lease-ms",
        str(lease_ms),
        "--allow-seeds",  # the tests' games are seeded
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", WORKER_CODE, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )


def stop_process(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(sig)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running(worker: Worker) -> Iterator[Worker]:
    """A worker serving in a thread of the test process."""
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        worker.stop()
        thread.join(20)


@contextmanager
def served_table(redis_url: str, store: str, game_id: str, lease_ms: int = 900) -> Iterator[Table]:
    """A new game ``game_id`` (``Table``), its client connected, while a worker serves
    ``store`` in a thread of the test process (seeds allowed)."""
    with (
        running(Worker(redis_url, store, lease_ms=lease_ms, chosen_seeds=True)),
        ServiceClient(redis_url) as client,
    ):
        table = Table(client, game_id).create()
        assert table.state is not None and table.owner is not None
        yield table


@dataclass
class Ask:
    """Requests through a worker's request logic (``Handler``) in the test process, each alone
    in its batch at the next stream position (``n``) of partition 0."""

    handler: Handler
    n: int = 0

    def __call__(self, request: Request) -> Reply:
        self.n += 1
        [reply] = self.handler.handle([Item(0, self.n, request)], {0: 1})
        return reply


def cli_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`risk`'s profile and data folders in ``tmp_path`` (never the user's own), and no
    ``RISK_SEAT``, ``RISK_STORE`` or ``RISK_REDIS_URL`` from the environment."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for var in ("RISK_SEAT", "RISK_STORE", "RISK_REDIS_URL"):
        monkeypatch.delenv(var, raising=False)


@contextmanager
def remote_cli(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, as_json: bool = True
) -> Iterator[Callable[..., Any]]:
    """`risk --redis URL ARGS… [--json]` in this process (``cli_home``), checking the exit
    status, while a worker serves on a SQLite store in ``tmp_path``.  It returns the JSON (the
    standard output without ``as_json``), or the error text when ``code`` is not 0."""
    cli_home(tmp_path, monkeypatch)
    runner = CliRunner()

    def risk(*args: str, code: int = 0) -> Any:
        json_flag = ["--json"] if as_json and not code else []  # errors: their text line
        result = runner.invoke(cli, ["--redis", redis_url, *args, *json_flag])
        assert result.exit_code == code, (result.stdout, result.stderr)
        if code:
            return result.stderr
        return json.loads(result.stdout) if as_json else result.stdout

    with running(
        Worker(redis_url, f"sqlite://{tmp_path / 'games.db'}", lease_ms=900, chosen_seeds=True)
    ):
        yield risk
