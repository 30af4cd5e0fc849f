"""Service security (issue 12): signed requests per seat and owner, refusals, and what views
may show (ENG-07)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis

import risk_core
from risk_core import bots
from risk_service import GameService
from risk_service import handler as handler_module
from risk_service.client import ServiceClient, new_request_id
from risk_service.handler import Handler
from risk_service.protocol import (
    AdminRequest,
    CommandRequest,
    EventsRequest,
    ViewRequest,
)
from risk_service.signing import WINDOW_MS
from risk_service.worker import Worker
from tests.servicekit import Ask, new_game, running, seated, served_table


def test_refusals(redis_server: Any, tmp_path: Path) -> None:
    """issue 12: a command signed with another seat's key, altered after signing, or sent again
    under another seat or request id is refused (``bad_signature``); one signed long ago is
    ``stale_request``; one sent again as it was changes nothing; another seat's view, a read
    sent again, and an owner action signed by a seat are refused; nothing changes, and no
    private key or invitation secret is stored anywhere."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    with served_table(redis_server.url, store, "sec") as t:
        client = t.client
        assert t.state is not None and t.owner is not None
        seat = risk_core.to_act(t.state)
        assert seat is not None
        other = (seat + 1) % 3
        command = t.next_command()
        assert t.send(command, key=t.keys[other]).code == "bad_signature"  # forged
        assert t.send(command, key=t.owner).code == "bad_signature"  # the owner is no seat
        signed = t.request(command)
        altered = msgspec.structs.replace(signed, command=risk_core.model.EndTurn(seat=seat))
        assert client.call(altered).code == "bad_signature"
        old = t.keys[seat].sign(msgspec.structs.replace(signed, ts=0), stamp=False)
        assert client.call(old).code == "stale_request"
        ahead = msgspec.structs.replace(signed, ts=signed.ts + 2 * WINDOW_MS)
        assert client.call(t.keys[seat].sign(ahead, stamp=False)).code == "stale_request"
        accepted = t.request(t.next_command())
        first = client.call(accepted)
        assert t.settle(accepted.command, first).ok
        version = t.state.version
        # Sent again as it was: the first outcome, nothing applied twice.
        assert client.call(accepted) == first
        # Sent again by another seat, or under another request id: not its signature.
        for changes in ({"seat": other}, {"request_id": new_request_id()}):
            replay = msgspec.structs.replace(accepted, **changes)
            assert client.call(replay).code == "bad_signature", changes
        stolen = t.keys[seat].sign(
            ViewRequest(request_id=new_request_id(), game_id="sec", seat=other)
        )
        assert client.call(stolen).code == "bad_signature"
        unsigned = EventsRequest(request_id=new_request_id(), game_id="sec", seat=other)
        assert client.call(unsigned).code == "bad_signature"
        mine = t.keys[seat].sign(ViewRequest(request_id=new_request_id(), game_id="sec", seat=seat))
        assert client.call(mine).ok
        assert client.call(mine).code == "replayed"  # a read sent again
        coup = t.keys[seat].sign(
            AdminRequest(request_id=new_request_id(), game_id="sec", action="bot", seat=other)
        )
        assert client.call(coup).code == "bad_signature"
        spectator = client.call(ViewRequest(request_id=new_request_id(), game_id="sec"))
        assert spectator.ok and spectator.version == version
        assert all("hand" not in p and "mission" not in p for p in spectator.data["players"])
        r = redis.Redis.from_url(redis_server.url)
        streams = b"".join(
            fields[b"r"] for key in r.keys("risk:cmd:*") for _, fields in r.xrange(key)
        )
    secrets = [k.text.split(":", 1)[1] for k in [*t.keys.values(), t.owner]]
    with GameService(store) as service:
        assert service.events("sec") == t.events
        db = (tmp_path / "games.db").read_bytes()
    for secret in secrets:  # only public keys left the players' machines
        assert secret.encode() not in db and secret.encode() not in streams
    assert b"sig" in streams  # the streams were read: signed requests


def test_requests_of_unclaimed_and_computer_seats(tmp_path: Path) -> None:
    """issue 12: a seat nobody claimed, or one handed to the computer, has no key: any request
    for it is ``unauthorized``; a claimed seat's key stops working once the owner hands it to
    the computer."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        made = seated(ask, "bots", seed=2)
        owner, keys = made.owner, made.keys
        state = service.state("bots")
        seat = risk_core.to_act(state)
        assert seat is not None
        command = bots.choose(state, level="greedy", seed=0)
        bot = AdminRequest(request_id="bot", game_id="bots", action="bot", seat=seat)
        assert ask(owner.sign(bot)).ok
        late = keys[seat].sign(
            CommandRequest(request_id="late", game_id="bots", seat=seat, command=command)
        )
        assert ask(late).code == "unauthorized"
        look = keys[seat].sign(ViewRequest(request_id="look", game_id="bots", seat=seat))
        assert ask(look).code == "unauthorized"


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
        ask = Ask(Handler(service, chosen_seeds=True))
        keys = seated(ask, "full", seed=6_271_828_182_845_904_523).keys
        commands = 0
        while True:
            state = service.state("full")
            for seat in (None, 0, 1, 2):
                sign = (lambda r: r) if seat is None else keys[seat].sign
                v = ask(sign(ViewRequest(request_id=f"v{ask.n}", game_id="full", seat=seat)))
                check_view(v.data, seat, state)
                e = ask(sign(EventsRequest(request_id=f"e{ask.n}", game_id="full", seat=seat)))
                check_view(e.events, seat, state)
            if state.phase == "over" or commands > 3000:
                break
            command = bots.choose(state, level="greedy", seed=commands)
            reply = ask(
                keys[command.seat].sign(
                    CommandRequest(
                        request_id=f"c{commands}",
                        game_id="full",
                        seat=command.seat,
                        command=command,
                    )
                )
            )
            assert reply.ok, reply
            check_view(
                reply.events, command.seat, service.state("full")
            )  # the seed may be revealed
            commands += 1
        assert state.phase == "over"


def test_a_seed_chosen_by_a_games_creator_is_refused(tmp_path: Path) -> None:
    """ENG-07: a service draws each game's seed itself — a seed the creator chose would tell
    them every seat's cards, missions and dice — unless its operator allows chosen seeds
    (`risk worker --allow-seeds`); the refusal stores nothing."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service))
        request, owner, _ = new_game("chosen", seed=7)
        refused = ask(owner.sign(request))
        assert not refused.ok and refused.code == "seed_refused", refused
        assert service.games() == []
        request, owner, _ = new_game("drawn")
        assert ask(owner.sign(request)).ok
        started = service.events("drawn", upto=1)[0]
        assert isinstance(started, risk_core.model.GameStarted) and started.commitment
        allowed = Ask(Handler(service, chosen_seeds=True))
        request, owner, _ = new_game("chosen", seed=7)
        assert allowed(owner.sign(request)).ok


def test_looks_through_the_service_show_only_public_facts(tmp_path: Path) -> None:
    """CORE-13..16 through the service (``ViewRequest.look``): a spectator and a seat get the
    facts of `near` and `odds` the store's own game gives; a dry run is checked as the
    signing seat — accepted for the seat to act, refused as the move would be for another
    (`not_your_turn`), and for a spectator (`unauthorized`, no seat to check it as)."""
    from risk_core import looks
    from risk_core.model import Attack
    from risk_service.protocol import Look

    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        made = seated(ask, "lk", seed=3)
        state = service.state("lk")
        while state.phase != "attack":
            seat = risk_core.to_act(state)
            assert seat is not None
            move = CommandRequest(
                request_id=new_request_id(),
                game_id="lk",
                seat=seat,
                command=bots.choose(state, seed=0),
            )
            assert ask(made.keys[seat].sign(move)).ok
            state = service.state("lk")
        seat = risk_core.to_act(state)
        assert seat is not None
        attack = next(c for c in risk_core.legal_commands(state) if isinstance(c, Attack))
        o, t = attack.origin, attack.target

        def look(kind: str, as_seat: int | None) -> Any:
            request = ViewRequest(
                request_id=new_request_id(),
                game_id="lk",
                seat=as_seat,
                look=Look(kind=kind, origin=o, target=t),  # type: ignore[arg-type]
            )
            return ask(request if as_seat is None else made.keys[as_seat].sign(request))

        assert look("odds", None).data["look"] == looks.odds_facts(state, o, t)
        assert look("near", None).data["look"] == looks.neighbours(state, o)
        ran = look("dry_run", seat)
        assert ran.ok and ran.data["look"] == looks.dry_run(state, seat, o, t, None, 1)
        assert look("dry_run", (seat + 1) % 3).code == "not_your_turn"
        assert look("dry_run", None).code == "unauthorized"
        assert service.state("lk").version == state.version  # nothing was played


def test_a_read_sent_again_is_refused_after_a_restart(redis_server: Any, tmp_path: Path) -> None:
    """issue 12 (threat model): a signed read someone captured is ``replayed`` when sent again,
    also once the worker that answered it stopped and another serves the partition (the reads
    answered are kept in Redis, out of the players' reach), within its 10-minute window."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    with served_table(redis_server.url, store, "again") as t:
        seat = 0
        read = t.keys[seat].sign(
            ViewRequest(request_id=new_request_id(), game_id="again", seat=seat)
        )
        shown = t.client.call(read)
        assert shown.ok and "mission" in shown.data["players"][seat]
        assert t.client.call(read).code == "replayed"
    with (
        running(Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        assert client.call(read).code == "replayed"
        fresh = t.keys[seat].sign(
            ViewRequest(request_id=new_request_id(), game_id="again", seat=seat)
        )
        assert client.call(fresh).ok  # a new one is answered
    keys = redis.Redis.from_url(redis_server.url).keys("risk:reads:*")
    assert keys and all(k.startswith(b"risk:reads:{") for k in keys)


def test_reads_forgotten_beyond_the_limit_stay_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12: a player may sign reads without end; the worker remembers READS_SEEN of them,
    the earliest signed forgotten first, and refuses any read signed at or before the latest
    one it forgot, so that flooding it never lets an earlier captured read through."""
    monkeypatch.setattr(handler_module, "READS_SEEN", 3)
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        key = seated(ask, "flood", seed=2).keys[1]
        first = key.sign(ViewRequest(request_id=new_request_id(), game_id="flood", seat=1))
        assert ask(first).ok
        for _ in range(4):  # the flood: reads signed later, of the same seat
            time.sleep(0.002)  # signed times apart
            later = key.sign(ViewRequest(request_id=new_request_id(), game_id="flood", seat=1))
            assert ask(later).ok
        assert ask(first).code == "replayed"  # forgotten, and still refused
        assert ask(later).code == "replayed"  # remembered
        time.sleep(0.002)
        assert ask(key.sign(ViewRequest(request_id=new_request_id(), game_id="flood", seat=1))).ok
