"""Session signatures (issue 14 goal 5 under issue 12's rules): a seat's key agrees a MAC key
with the service by X25519, so the worker checks one HMAC per request; nothing secret crosses
Redis, and every refusal of Ed25519 signatures holds for sessions too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis

import risk_core
from risk_core import bots
from risk_service import GameService
from risk_service.client import ServiceClient, new_request_id
from risk_service.handler import Handler
from risk_service.ledger import OWNER
from risk_service.protocol import AdminRequest, CommandRequest, ViewRequest, decode_request, encode
from risk_service.redis_acl import CLIENT, WORKER, Credentials
from risk_service.redis_server import RedisServer
from risk_service.signing import (
    SEAT_KEY,
    SESSION,
    ServiceKey,
    SigningKey,
    Verifier,
    signed_bytes,
)
from risk_service.worker import Worker
from tests.servicekit import Ask, Table, running, seated


def _command(state: risk_core.GameState, rid: str = "") -> CommandRequest:
    command = bots.choose(state, level="greedy", seed=state.version)
    return CommandRequest(
        request_id=rid or new_request_id(),
        game_id=state.game_id,
        seat=command.seat,
        command=command,
    )


def test_a_session_mac_covers_the_request_and_its_binding() -> None:
    """issue 12 (signed commands): a session signature covers every field a signature covers;
    its binding ties it to one seat key, game, seat and service key; the same seed gives the
    same session in every process of the player."""
    service = ServiceKey(b"s" * 32)
    verify = Verifier(lambda: service).verify
    key = SigningKey.generate()
    stored = SEAT_KEY + key.public
    state = risk_core.replay(risk_core.start("classic", ["A", "B", "C"], seed=3, game_id="g"))
    request = _command(state)
    signed = key.session("g", request.seat, service.public).sign(request)
    assert signed.sig.startswith(SESSION) and len(signed.sig) <= 256
    message = signed_bytes(decode_request(encode(signed)))
    assert verify(stored, message, signed.sig, game_id="g", seat=request.seat)
    again = SigningKey.from_text(key.text).session("g", request.seat, service.public)
    assert again.sign(request, stamp=False) == key.session("g", request.seat, service.public).sign(
        request, stamp=False
    )
    for field, value in {"request_id": "other", "ts": signed.ts + 1, "game_id": "h"}.items():
        altered = msgspec.structs.replace(signed, **{field: value})
        assert not verify(stored, signed_bytes(altered), signed.sig, game_id="g", seat=request.seat)
    # Another seat, game or stored key, no context, or another service: refused.
    assert not verify(stored, message, signed.sig, game_id="g", seat=request.seat + 1)
    assert not verify(stored, message, signed.sig, game_id="h", seat=request.seat)
    assert not verify(SEAT_KEY + SigningKey.generate().public, message, signed.sig, game_id="g",
                      seat=request.seat)  # fmt: skip
    assert not verify(stored, message, signed.sig)  # a creation or claim: Ed25519 only
    other = Verifier(lambda: ServiceKey(b"t" * 32)).verify
    assert not other(stored, message, signed.sig, game_id="g", seat=request.seat)
    # A MAC made with a key of the attacker's own, under the seat's binding: refused.
    mac, dh, bound = signed.sig.removeprefix(SESSION).split(".")
    forged = key.session("g", request.seat, ServiceKey(b"u" * 32).public).signature(signed)
    assert not verify(stored, message, forged.split(".", 2)[0] + "." + forged.split(".", 2)[1]
                      + f".{dh}.{bound}", game_id="g", seat=request.seat)  # fmt: skip
    for bad in (SESSION, SESSION + "a.b", SESSION + f"{mac}.{dh}.", SESSION + f"!!.{dh}.{bound}"):
        assert not verify(stored, message, bad, game_id="g", seat=request.seat)
    # The stream carries no MAC key: only the MAC, the session's public key and the binding.
    assert key.session("g", request.seat, service.public)._key not in encode(signed)


def test_sessions_through_the_request_logic(store_url: str) -> None:
    """issue 12: commands, reads and owner actions authenticated by sessions are accepted; a
        session of another seat, a replayed read, a stale one and a revoked key's are refused as
        signatures are (``bad_signature``, ``replayed``, ``stale_request``, ``unauthorized``), and
    a write sent again gets its first outcome; on every kind of store."""
    with GameService(store_url) as service:  # every kind of store keeps the service's key
        service.create_schema()
        handler = Handler(service, chosen_seeds=True)
        ask = Ask(handler)
        made = seated(ask, "sess", seed=4)
        public = handler.service_key().public
        assert (
            Handler(service, chosen_seeds=True).service_key().public == public
        )  # one key per store
        state = service.state("sess")
        for _ in range(20):
            request = _command(state)
            session = made.keys[request.seat].session("sess", request.seat, public)
            other = made.keys[(request.seat + 1) % 3].session("sess", request.seat, public)
            assert ask(other.sign(request)).code == "bad_signature"
            signed = session.sign(request)
            reply = ask(signed)
            assert reply.ok, reply
            assert ask(signed) == reply  # sent again: its first outcome, not applied twice
            moved = msgspec.structs.replace(signed, ts=signed.ts + 1)
            assert ask(session.sign(moved, stamp=False)).code == "request_id_reused"
            state = service.state("sess")
        seat = 0
        session = made.keys[seat].session("sess", seat, public)
        look = session.sign(ViewRequest(request_id=new_request_id(), game_id="sess", seat=seat))
        assert ask(look).ok
        assert ask(look).code == "replayed"
        old = session.sign(msgspec.structs.replace(look, request_id="old", ts=1), stamp=False)
        assert ask(old).code == "stale_request"
        owner = made.owner.session("sess", OWNER, public)
        deadline = AdminRequest(request_id="d", game_id="sess", action="deadline", seconds=60)
        assert ask(owner.sign(deadline)).ok
        assert ask(session.sign(msgspec.structs.replace(deadline, request_id="e"))).code == (
            "bad_signature"
        )
        # The owner opens seat 0 to a new invitation: its key's session stops at once.
        invite = AdminRequest(
            request_id="i", game_id="sess", action="invite", seat=seat,
            key=SigningKey.generate().public,
        )  # fmt: skip
        assert ask(owner.sign(invite)).ok
        again = session.sign(ViewRequest(request_id=new_request_id(), game_id="sess", seat=seat))
        assert ask(again).code == "unauthorized"


def test_the_players_user_reads_the_service_key_and_plays_by_session(tmp_path: Path) -> None:
    """issue 12 (locked-down Redis): the players' user may read the published service key (and
    not write it) and plays by session through a worker, each command decided as the replica
    decides it; a seat's session does not act for another seat."""
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder, credentials=Credentials.load_or_create(folder / "c.json")).start()
    try:
        store = f"sqlite://{tmp_path / 'games.db'}"
        url = server.url_for(CLIENT)
        with (
            running(Worker(server.url_for(WORKER), store, lease_ms=900, chosen_seeds=True)),
            ServiceClient(url) as client,
        ):
            table = Table(client, "acl").create()
            assert table.state is not None and client.service_key() is not None
            sessions = {s: client.seat_key(k, "acl", s) for s, k in table.keys.items()}
            for _ in range(15):
                command = table.next_command()
                signed = table.request(command, key=sessions[command.seat])  # type: ignore[arg-type]
                assert signed.sig.startswith(SESSION)
                table.sent += 1
                assert table.settle(command, client.call(signed)).code != "bad_signature"
            command = table.next_command()
            forged = table.request(command, key=sessions[(command.seat + 1) % 3])  # type: ignore[arg-type]
            assert client.call(forged).code == "bad_signature"
            spy: Any = redis.Redis.from_url(url)
            with pytest.raises(redis.exceptions.NoPermissionError):
                spy.set("risk:service-key", ServiceKey(b"x" * 32).public)
            spy.close()
    finally:
        server.stop()


def test_the_mac_is_hmac_sha256() -> None:
    """The worker's precomputed MAC is HMAC-SHA256 (RFC 2104) itself, for any message."""
    import base64
    import hashlib
    import hmac
    import os

    from risk_service.signing import _Mac

    for n in (0, 1, 63, 64, 65, 300, 5000):
        key, message = os.urandom(32), os.urandom(n)
        expected = base64.urlsafe_b64encode(hmac.digest(key, message, hashlib.sha256))
        assert _Mac(key).text(message) == expected.rstrip(b"=")


def test_without_a_published_service_key_clients_sign_with_ed25519(redis_server: Any) -> None:
    """issue 12: before any worker published the service's key (or for a Redis user that may
    not read it), a client signs with the seat's Ed25519 key itself, which workers accept."""
    with ServiceClient(redis_server.url, prefix=f"nokey{new_request_id()[:8]}") as client:
        key = SigningKey.generate()
        assert client.service_key() is None
        assert client.seat_key(key, "g", 0) is key
