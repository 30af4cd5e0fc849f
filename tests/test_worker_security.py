"""Service security: tokens per seat and owner, refusals, and what views may show (ENG-07)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import redis

import risk_core
from risk_core import bots
from risk_service import GameService, ledger
from risk_service.client import ServiceClient, new_request_id
from risk_service.handler import Handler
from risk_service.protocol import (
    AdminRequest,
    EventsRequest,
    NewGameRequest,
    ViewRequest,
)
from risk_service.worker import Worker
from tests.servicekit import PLAYERS, Ask, Table, running


def test_refusals(redis_server: Any, tmp_path: Path) -> None:
    """Wrong token, another seat's token, another seat's request replayed, another seat's
    view, an owner action without the owner token: all refused, nothing changes."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    with (
        running(Worker(redis_server.url, store, lease_ms=900)),
        ServiceClient(redis_server.url) as client,
    ):
        t = Table(client, "sec").create()
        assert t.state is not None
        seat = risk_core.to_act(t.state)
        assert seat is not None
        other = (seat + 1) % 3
        command = t.next_command()
        assert t.send(command, token="not-a-token").code == "unauthorized"
        assert t.send(command, token=t.tokens[str(other)]).code == "unauthorized"
        accepted = t.request(t.next_command())
        assert t.settle(accepted.command, client.call(accepted)).ok
        # Replayed by another seat, with its own valid token (or with the original seat).
        for s in (other, seat):
            replay = msgspec_replace(accepted, seat=s, token=t.tokens[str(other)])
            assert client.call(replay).code == "unauthorized"
        stolen = ViewRequest(
            request_id=new_request_id(), game_id="sec", seat=other, token=t.tokens[str(seat)]
        )
        assert client.call(stolen).code == "unauthorized"
        log = EventsRequest(request_id=new_request_id(), game_id="sec", seat=other, token="")
        assert client.call(log).code == "unauthorized"
        coup = AdminRequest(
            request_id=new_request_id(),
            game_id="sec",
            token=t.tokens[str(seat)],
            action="bot",
            seat=other,
        )
        assert client.call(coup).code == "unauthorized"
        version = t.state.version
        spectator = client.call(ViewRequest(request_id=new_request_id(), game_id="sec"))
        assert spectator.ok and spectator.version == version
        assert all("hand" not in p and "mission" not in p for p in spectator.data["players"])
    with GameService(store) as service:
        assert service.events("sec") == t.events
        # Only salted hashes are stored: no token appears anywhere in the store.
        db = (tmp_path / "games.db").read_bytes()
        for token in [*t.tokens.values(), t.owner]:
            assert token.encode() not in db
    r = redis.Redis.from_url(redis_server.url)
    assert not any(b"token" in k for k in r.keys("*"))


def test_token_hashes() -> None:
    """Stored token hashes are salted and one-way; a token verifies only against its own hash,
    and the scrypt hashes stored by earlier versions still verify."""
    token = ledger.derive_token(ledger.new_secret(), "g", 0)
    other = ledger.derive_token(ledger.new_secret(), "g", 0)
    stored = ledger.hash_token(token)
    assert stored.startswith("sha256$") and token not in stored
    assert stored != ledger.hash_token(token)  # salted: the same token hashes differently
    assert ledger.verify_token(token, stored)
    assert not ledger.verify_token(other, stored)
    assert not ledger.verify_token("", stored) and not ledger.verify_token(token, None)
    assert not ledger.verify_token(token, "md5$abc$def") and not ledger.verify_token(token, "$")
    salt = b"0123456789abcdef"
    digest = hashlib.scrypt(token.encode(), salt=salt, n=2**11, r=8, p=1, dklen=32)
    legacy = f"scrypt$2048$8$1${ledger._b64(salt)}${ledger._b64(digest)}"
    assert ledger.verify_token(token, legacy)
    assert not ledger.verify_token(other, legacy)


def msgspec_replace(request: Any, **changes: Any) -> Any:
    import msgspec

    return msgspec.structs.replace(request, **changes)


def _secrets_of(state: risk_core.GameState) -> list[tuple[int, list[int], str | None]]:
    return [(i, list(p.hand), p.mission) for i, p in enumerate(state.players)]


def check_view(data: Any, seat: int | None, state: risk_core.GameState) -> None:
    """``data`` (a view or events, as JSON) shows ``seat`` nothing private of anyone else."""
    text = json.dumps(data)
    if state.phase != "over":
        assert str(state.seed) not in text
    players = data["players"] if isinstance(data, dict) else []
    for p in players:
        if p["seat"] != seat:
            assert "hand" not in p and "mission" not in p, (seat, p)
    if isinstance(data, list):
        for ev in data:
            if ev["type"] == "card_drawn" and ev["seat"] != seat:
                assert ev["card"] is None
            if ev["type"] == "missions_dealt":
                assert all(m is None for i, m in enumerate(ev["missions"]) if i != seat)
            if ev["type"] in ("game_started", "dice_reseeded"):
                assert "seed" not in ev
            if ev["type"] in ("deck_formed", "deck_reshuffled"):
                assert "deck" not in ev


def test_every_view_of_a_full_game(tmp_path: Path) -> None:
    """A whole bot game through the worker's request logic: at every position, every seat's
    view and log and the spectator's show nothing of another seat's cards or mission, and no
    seed before the game ends."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service))
        secret = ledger.new_secret()
        new = NewGameRequest(
            request_id="new",
            game_id="full",
            secret=secret,
            players=PLAYERS,
            seed=6_271_828_182_845_904_523,
        )
        created = ask(new)
        tokens = created.data["tokens"]

        from risk_service.protocol import CommandRequest

        commands = 0
        while True:
            state = service.state("full")
            for seat in (None, 0, 1, 2):
                token = "" if seat is None else tokens[str(seat)]
                v = ask(ViewRequest(request_id=f"v{ask.n}", game_id="full", seat=seat, token=token))
                check_view(v.data, seat, state)
                e = ask(
                    EventsRequest(request_id=f"e{ask.n}", game_id="full", seat=seat, token=token)
                )
                check_view(e.events, seat, state)
            if state.phase == "over" or commands > 3000:
                break
            command = bots.choose(state, level="greedy", seed=commands)
            reply = ask(
                CommandRequest(
                    request_id=f"c{commands}",
                    game_id="full",
                    seat=command.seat,
                    token=tokens[str(command.seat)],
                    command=command,
                )
            )
            assert reply.ok, reply
            check_view(
                reply.events, command.seat, service.state("full")
            )  # the seed may be revealed
            commands += 1
        assert state.phase == "over"
