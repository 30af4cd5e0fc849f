"""The command worker over a private Redis: exactly once, in order, and its failure modes.

Each fault test ends with the same check: the stored event log of every game equals its
replica, i.e. the log of applying the accepted commands once, in the order they were sent.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import redis

import risk_core
from risk_service import GameService
from risk_service.client import ServiceClient, new_request_id
from risk_service.handler import Handler, Item
from risk_service.protocol import (
    FIELD,
    GROUP,
    Keys,
    ViewRequest,
    decode_reply,
    encode,
    partition_of,
)
from risk_service.worker import Worker
from tests.servicekit import PLAYERS, Ask, Table, running, seated, spawn_worker, stop_process

KEYS = Keys()


def store_of(tmp_path: Path) -> str:
    return f"sqlite://{tmp_path / 'games.db'}"


def assert_log(store: str, *tables: Table) -> None:
    with GameService(store) as service:
        for t in tables:
            assert service.events(t.game_id) == t.events, t.game_id
            fresh = risk_core.replay(service.events(t.game_id))
            assert risk_core.encode(service.state(t.game_id)) == risk_core.encode(fresh)


def play(tables: list[Table], commands: int, at: int = -1, then: Any = None) -> None:
    """Send ``commands`` commands round the tables; at command ``at``, start ``then()`` in the
    background a moment after the command is sent, so that it lands while commands flow."""
    for i in range(commands):
        t = tables[i % len(tables)]
        if i == at:
            threading.Timer(0.0005, then).start()
        if not t.over:
            t.send(t.next_command())


def test_commands_replies_and_duplicates(redis_server: Any, tmp_path: Path) -> None:
    """Accepted and refused commands each get their code; a repeated request id gets the
    first reply and is applied once, even when its entry is in the stream twice."""
    store = store_of(tmp_path)
    with (
        running(Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        t = Table(client, "g1").create()
        play([t], 20)
        command = t.next_command()
        request = t.request(command)
        r = redis.Redis.from_url(redis_server.url)
        stream = KEYS.stream(partition_of("g1", client.partitions))
        r.xadd(stream, {FIELD: encode(request)})  # the same entry twice...
        first = t.settle(command, client.call(request))  # ...and once more with the client
        assert first.ok
        again = client.call(request)  # a retry after the fact: the stored outcome
        assert again == first
        time.sleep(0.2)
        leftover = r.lpop(KEYS.reply(request.request_id), 5) or []
        assert all(x == encode(first) for x in leftover)
        # Refusals, each with its own code; none changes anything.
        state = t.state
        assert state is not None
        seat = risk_core.to_act(state)
        assert seat is not None
        other = (seat + 1) % 3
        codes = {
            "unknown_game": client.call(
                ViewRequest(request_id=new_request_id(), game_id="nope")
            ).code,
            "bad_signature": t.client.call(
                t.request(risk_core.model.EndTurn(seat=seat), key=t.keys[other])
            ).code,
            "not_your_turn": t.send(risk_core.model.EndTurn(seat=other)).code,
        }
        assert codes == {c: c for c in codes}
        play([t], 10)
    assert_log(store, t)


def test_malformed_and_poisoned_entries(redis_server: Any, tmp_path: Path) -> None:
    """Undecodable entries are answered `malformed` when they name a request id and go to
    the dead-letter stream at once; an entry delivered too often goes there with `failed`."""
    store = store_of(tmp_path)
    r = redis.Redis.from_url(redis_server.url)
    worker = Worker(redis_server.url, store, lease_ms=900, max_deliveries=3, chosen_seeds=True)
    with running(worker), ServiceClient(redis_server.url) as client:
        t = Table(client, "g1").create()
        p = partition_of("g1", client.partitions)
        stream, dead = KEYS.stream(p), KEYS.dead(p)
        r.xadd(stream, {FIELD: b"\xff not json"})
        r.xadd(stream, {b"other": b"field"})
        r.xadd(stream, {FIELD: b'{"request_id": "m1", "game_id": "g1", "command": 3}'})
        assert r.blpop([KEYS.reply("m1")], 5)[1].find(b'"malformed"') > 0
        play([t], 5)  # still serving
        assert r.xlen(dead) == 3
        reasons = [fields[b"reason"] for _, fields in r.xrange(dead)]
        assert all(reason.startswith(b"malformed") for reason in reasons)
    # A poisoned entry: delivered three times already (to consumers that died).
    request = t.request(t.next_command())
    entry = r.xadd(stream, {FIELD: encode(request)})
    for i in range(3):
        r.xreadgroup(GROUP, f"dead-{i}", {stream: ">"}) if i == 0 else r.xclaim(
            stream, GROUP, f"dead-{i}", 0, [entry]
        )
    with running(
        Worker(redis_server.url, store, lease_ms=900, max_deliveries=3, chosen_seeds=True)
    ):
        reply = r.blpop([KEYS.reply(request.request_id)], 10)
        assert reply is not None and b'"failed"' in reply[1]
    assert r.xlen(dead) == 4
    assert_log(store, t)


def poison(r: Any, stream: str, entry: bytes, times: int) -> None:
    """Deliver ``entry`` ``times`` times to consumers that die without answering."""
    r.xreadgroup(GROUP, "dead-0", {stream: ">"}, count=1)
    for i in range(1, times):
        r.xclaim(stream, GROUP, f"dead-{i}", 0, [entry])


def test_a_request_given_up_on_keeps_its_answer(redis_server: Any, shared_store_url: str) -> None:
    """The answer to a request delivered too often is final and true.  One never stored is
    answered `failed`, and the copy a client sent again (the same request id, a later entry)
    is answered `failed` too, never applied; one stored before (the worker died before
    acknowledging it) is answered with what it did, not `failed`."""
    store = shared_store_url
    r = redis.Redis.from_url(redis_server.url)
    with (
        running(Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        t = Table(client, "g1").create()
        play([t], 5)
        stream = KEYS.stream(partition_of("g1", client.partitions))
        done = t.request(command := t.next_command())
        first = t.settle(command, client.call(done))
        assert first.ok
    lost = t.request(t.next_command())
    entry = r.xadd(stream, {FIELD: encode(lost)})
    poison(r, stream, entry, 3)
    r.xadd(stream, {FIELD: encode(lost)})  # the client's copy, sent while no answer came
    again = r.xadd(stream, {FIELD: encode(done)})  # stored, its entry redelivered
    poison(r, stream, again, 3)
    with running(
        Worker(redis_server.url, store, lease_ms=900, max_deliveries=3, chosen_seeds=True)
    ):
        answers = [r.blpop([KEYS.reply(lost.request_id)], 10) for _ in range(2)]
        assert [a is not None and decode_reply(a[1]).code for a in answers] == ["failed"] * 2
        answer = r.blpop([KEYS.reply(done.request_id)], 10)
        assert answer is not None and decode_reply(answer[1]) == first
    assert_log(store, t)  # nothing applied but what the replies said


def test_redelivered_entries_are_recognised(tmp_path: Path) -> None:
    """The same stream entry handled twice (a redelivery): the second gets the stored reply."""
    with GameService(store_of(tmp_path)) as service:
        service.create_schema()
        handler = Handler(service, chosen_seeds=True)
        table = Table(client=None, game_id="g1")  # type: ignore[arg-type]
        made = seated(Ask(handler), "g1", seed=1)
        table.keys = made.keys
        table.events = risk_core.start("classic", ["Ann", "Bob", "Cy"], seed=1, game_id="g1")
        table.state = risk_core.replay(table.events)
        command = table.next_command()
        item = Item(0, 9, table.request(command))
        [first] = handler.handle([item], {0: 1})
        table.settle(command, first)
        seen = Item(0, 9, item.request, seen=True)
        assert handler.handle([seen], {0: 1}) == [first]
        fresh = Handler(
            service, chosen_seeds=True
        )  # another worker: nothing cached, the ledger answers
        assert fresh.handle([item], {0: 2}) == [first]
        assert service.events("g1") == table.events


def test_a_command_and_the_bots_moves_after_it_are_each_stored_once(tmp_path: Path) -> None:
    """ENG-01, exactly once: a seat's command after which a seat handed to the computer
    plays (its move made in the same request) stores each event once, in its own record: the
    stored log replays to the version the reply gives and to the worker's own state."""
    from risk_core import bots
    from risk_core.model import Place
    from risk_service.protocol import AdminRequest, CommandRequest

    with GameService(store_of(tmp_path)) as service:
        service.create_schema()
        handler = Handler(service, chosen_seeds=True)
        ask = Ask(handler)
        made = seated(ask, "g1", seed=1)
        state = service.state("g1")
        seat = risk_core.to_act(state)
        assert seat is not None and state.phase == "setup"  # one army at a time, in turn
        bot_seat = (seat + 1) % len(PLAYERS)
        handed = AdminRequest(
            request_id=new_request_id(), game_id="g1", action="bot", seat=bot_seat
        )
        assert ask(made.owner.sign(handed)).ok
        before = service.state("g1").version
        place = bots.choose(state, level="random", seed=0)
        assert isinstance(place, Place) and place.seat == seat
        request = CommandRequest(
            request_id=new_request_id(), game_id="g1", seat=seat, command=place
        )
        reply = ask(made.keys[seat].sign(request))
        assert reply.ok, reply
        assert reply.version == before + 2  # the seat's army, then the bot's
        stored = service.events("g1")
        assert len(stored) == reply.version
        replayed = risk_core.replay(stored)
        assert replayed.version == reply.version
        assert risk_core.encode(handler.state("g1")) == risk_core.encode(replayed)


def test_a_new_game_names_only_its_own_seats(tmp_path: Path) -> None:
    """ENG-06: seats that choose their own defence dice (``ask``) or have a commander must be
    seats of the game: another is ``bad_request``, and no game is made."""
    from tests.servicekit import new_game

    with GameService(store_of(tmp_path)) as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        for fields in ({"ask": [200]}, {"commanders": {7: "Ann"}}):
            request, _, _ = new_game("g2", **fields)
            reply = ask(request)
            assert reply.code == "bad_request", reply
        assert service.games() == []


def test_sigkill_mid_stream(redis_server: Any, tmp_path: Path) -> None:
    """A worker killed (SIGKILL) while commands flow: the next one takes over after the lease
    lapses, claims the pending entries, and every command is applied exactly once, in order."""
    store = store_of(tmp_path)
    workers = [spawn_worker(redis_server.url, store)]

    def kill_and_replace() -> None:
        workers[0].send_signal(signal.SIGKILL)
        workers.append(spawn_worker(redis_server.url, store))

    try:
        with ServiceClient(redis_server.url, attempt=2.0) as client:
            tables = [Table(client, f"k{i}", seed=i).create() for i in range(3)]
            play(tables, 300, at=60, then=kill_and_replace)
        assert workers[0].wait(5) == -signal.SIGKILL
    finally:
        for w in workers:
            stop_process(w)
    assert_log(store, *tables)


def test_two_workers_that_both_own_a_partition(redis_server: Any, tmp_path: Path) -> None:
    """Split brain: two workers serving the same partitions at once, the first with a stale
    fence.  Nothing is applied twice or out of order, and the stale one is fenced off."""
    store = store_of(tmp_path)
    stale = Worker(redis_server.url, store, lease_ms=60_000, name="stale", chosen_seeds=True)
    fresh = Worker(redis_server.url, store, lease_ms=60_000, name="fresh", chosen_seeds=True)
    with ServiceClient(redis_server.url) as client, running(fresh):
        tables = [Table(client, f"s{i}", seed=i).create() for i in range(4)]
        play(tables, 20)
        # The stale worker believes it still holds every partition, with older fences.
        stale._setup()
        stale._last_tick = float("inf")  # it never renews, so it never learns otherwise
        stale.owned = {p: fence - 1 for p, fence in fresh.owned.items()}
        assert stale.owned
        stop = threading.Event()

        def serve_stale() -> None:
            while not stop.is_set() and stale.owned:
                stale.step()

        thread = threading.Thread(target=serve_stale)
        thread.start()
        threads = [
            threading.Thread(target=play, args=([t], 60)) for t in tables
        ]  # concurrent clients, one game each
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        stop.set()
        thread.join(10)
        assert stale.owned != {p: f - 1 for p, f in fresh.owned.items()}  # fenced off
    stale.close()
    assert_log(store, *tables)


def test_redis_restart_mid_game(redis_server: Any, tmp_path: Path) -> None:
    """Redis stops and comes back empty mid-game: clients retry with the same request id,
    the worker reconnects, and the log is still the accepted commands once, in order."""
    store = store_of(tmp_path)
    with (
        running(Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)),
        ServiceClient(redis_server.url, attempt=1.0) as client,
    ):
        tables = [Table(client, f"r{i}", seed=i).create() for i in range(2)]

        def restart() -> None:
            redis_server.stop(kill=True)
            time.sleep(0.3)
            redis_server.start()

        done = threading.Event()
        play(tables, 200, at=50, then=lambda: (restart(), done.set()))
        assert done.wait(10)
        play(tables, 20)
    assert_log(store, *tables)


def test_owner_actions_bots_and_deadlines(redis_server: Any, tmp_path: Path) -> None:
    """The owner hands a seat to the computer (its token stops working) and sets a turn
    deadline: when it passes, the worker records the waiting seat's moves, made by the bot."""
    from risk_service.protocol import AdminRequest

    store = store_of(tmp_path)
    with (
        running(Worker(redis_server.url, store, lease_ms=600, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        t = Table(client, "own").create()
        assert t.state is not None
        seat = risk_core.to_act(t.state)
        assert seat is not None

        def admin(**kw: Any) -> Any:
            assert t.owner is not None
            return client.call(
                t.owner.sign(AdminRequest(request_id=new_request_id(), game_id="own", **kw))
            )

        version = t.state.version
        unknown = admin(action="bot", seat=seat, level="genius")  # a stable code, nothing done
        assert unknown.code == "bad_level" and "'genius'" in unknown.message, unknown
        assert client.call(t.request(risk_core.model.EndTurn(seat=seat))).code != "unauthorized"
        assert admin(action="bot", seat=seat).ok
        view = client.call(ViewRequest(request_id=new_request_id(), game_id="own"))
        assert view.version > version and view.data["to_act"] != seat  # the bot played at once
        assert client.call(t.request(risk_core.model.EndTurn(seat=seat))).code == "unauthorized"
        waiting = view.data["to_act"]
        assert admin(action="deadline", seconds=0.2).ok
        later = moved_on(client, "own", waiting)
        assert later.data["to_act"] != waiting and later.version > view.version
    with GameService(store) as service:
        rows = ledger_rows(tmp_path)
        assert any(r.startswith(f"timeout:own:{view.version}") for r in rows)
        fresh = risk_core.replay(service.events("own"))
        assert risk_core.encode(service.state("own")) == risk_core.encode(fresh)


def test_no_request_can_take_a_turn_timeouts_id(redis_server: Any, tmp_path: Path) -> None:
    """A turn timeout's request id (``timeout:<game>:<version>``) is the worker's alone: a
    client's request under it, of another kind or for another position, is ``malformed`` and
    recorded nowhere, so the ledger cannot hold it and the deadline still plays when it
    passes (a stranger squatting those ids used to switch a game's deadline off)."""
    from risk_service.protocol import AdminRequest, NewGameRequest, TimeoutRequest
    from risk_service.signing import SigningKey

    store = store_of(tmp_path)
    with (
        running(Worker(redis_server.url, store, lease_ms=600, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        t = Table(client, "sq").create()
        assert t.state is not None and t.owner is not None
        version, waiting = t.state.version, risk_core.to_act(t.state)
        squatter = SigningKey.generate()
        for v in range(version, version + 3):
            rid = f"timeout:sq:{v}"
            taken = NewGameRequest(
                request_id=rid,
                game_id=f"eve{v}",
                owner_key=squatter.public,
                invitations={},
                players=["a", "b", "c"],
                ruleset="no-such-rules",
            )
            assert client.call(squatter.sign(taken)).code == "malformed"
        early = TimeoutRequest(
            request_id=f"timeout:sq:{version + 1}", game_id="sq", version=version
        )
        assert client.call(early).code == "malformed"  # an id not its own position's
        deadline = AdminRequest(
            request_id=new_request_id(), game_id="sq", action="deadline", seconds=0.2
        )
        assert client.call(t.owner.sign(deadline)).ok
        view = moved_on(client, "sq", waiting)
        assert view.data["to_act"] != waiting and view.version > version
    rows = ledger_rows(tmp_path)
    assert f"timeout:sq:{version}" in rows
    assert not any(r.startswith("timeout:sq:") and r != f"timeout:sq:{version}" for r in rows)


def moved_on(client: ServiceClient, game_id: str, waiting: int | None) -> Any:
    """The game's view once the seat ``waiting`` no longer must act (its deadline passed and
    the computer played for it), or after 10 s, whichever comes first."""
    until = time.monotonic() + 10
    while True:
        view = client.call(ViewRequest(request_id=new_request_id(), game_id=game_id))
        if view.data["to_act"] != waiting or time.monotonic() > until:
            return view
        time.sleep(0.1)


def ledger_rows(tmp_path: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(tmp_path / "games.db") as db:
        return [r for (r,) in db.execute("SELECT request_id FROM risk_requests")]
