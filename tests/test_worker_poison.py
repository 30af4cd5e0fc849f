"""A poison-proof worker: one hostile request is answered and dead-lettered on its own.

Anyone allowed to XADD to a request stream can send anything.  Each case here puts a hostile
entry and honest requests of the same game in one batch (the worker is stopped while they are
added, so its successor reads them together), and checks that the hostile entry gets its own
reply (``malformed``, or ``failed`` when the request logic failed on it) when a request id can
be read, and its own dead letter; that the honest requests are answered as if it were not
there; that nothing is left pending; and that the worker never failed a whole step.  A store
that is down is the opposite case: the batch is retried, and nobody is failed.  The fuzz test
throws random bytes and random JSON at every partition while honest clients play.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis
from eventsourcing.persistence import OperationalError

from risk_service.client import ServiceClient, new_request_id
from risk_service.protocol import (
    FIELD,
    GROUP,
    MAX_DEADLINE_S,
    MAX_REQUEST_BYTES,
    REQUEST_TYPES,
    Keys,
    Reply,
    ViewRequest,
    decode_reply,
    encode,
    partition_of,
)
from risk_service.signing import SigningKey
from risk_service.worker import FUTURE_MS, Worker
from tests.servicekit import Table, running
from tests.test_worker import assert_log, play

KEYS = Keys()
GAME = "poison"
STEP_FAILED = "Worker step failed"


@dataclass
class Stage:
    """A game created through the service, whose worker is stopped: entries added now are
    read together, in one batch, by the next worker ``serve`` starts."""

    url: str
    store: str
    table: Table
    r: Any  # redis.Redis
    partition: int
    added: list[bytes] = field(default_factory=list)

    @property
    def stream(self) -> str:
        return KEYS.stream(self.partition)

    @property
    def dead(self) -> str:
        return KEYS.dead(self.partition)

    def add(self, raw: bytes, name: bytes = FIELD) -> None:
        self.added.append(self.r.xadd(self.stream, {name: raw}))

    def worker(self, max_deliveries: int = 3) -> Worker:
        return Worker(
            self.url, self.store, lease_ms=900, max_deliveries=max_deliveries, chosen_seeds=True
        )

    def reply(self, request_id: str, wait: float = 10) -> Reply | None:
        popped = self.r.blpop([KEYS.reply(request_id)], wait)
        return None if popped is None else decode_reply(popped[1])

    def settled(self) -> None:
        """Wait until every entry of the partition is acknowledged (at most 10 s)."""
        deadline = time.monotonic() + 10
        while self.r.xpending(self.stream, GROUP)["pending"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.r.xpending(self.stream, GROUP)["pending"] == 0

    def dead_letters(self) -> list[dict[bytes, bytes]]:
        return [fields for _, fields in self.r.xrange(self.dead)]


@pytest.fixture
def stage(redis_server: Any, tmp_path: Path) -> Iterator[Stage]:
    store = f"sqlite://{tmp_path / 'games.db'}"
    worker = Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)
    with running(worker), ServiceClient(redis_server.url, timeout=20) as client:
        table = Table(client, GAME).create()
        play([table], 5)
        partition = partition_of(GAME, client.partitions)
    yield Stage(redis_server.url, store, table, redis.Redis.from_url(redis_server.url), partition)


def no_failed_steps(caplog: pytest.LogCaptureFixture) -> None:
    failed = [r for r in caplog.records if r.getMessage().startswith(STEP_FAILED)]
    assert not failed, failed[0].exc_text


def request_json(**fields: Any) -> bytes:
    """A request as a client would encode it: the request id first."""
    return json.dumps(fields, separators=(",", ":")).encode()


def deep(n: int) -> str:
    return "[" * n + "]" * n


# Each hostile entry: its request id (None: none can be read), the bytes, the reply code.
Hostile = Callable[[Stage], bytes]
CASES: dict[str, tuple[str | None, Hostile, str | None]] = {
    "nested 30,000 deep (within the size limit)": (
        "deep",
        lambda s: (
            b'{"request_id":"deep","op":"view","game_id":"%s","at":%s}'
            % (GAME.encode(), deep(30_000).encode())
        ),
        "malformed",
    ),
    "nested 100,000 deep": (
        "deeper",
        lambda s: (
            b'{"request_id":"deeper","op":"view","game_id":"%s","x":%s}'
            % (GAME.encode(), deep(100_000).encode())
        ),
        "malformed",
    ),
    "nested deep in an unknown field": (
        "deep-unknown",
        lambda s: (
            b'{"request_id":"deep-unknown","op":"view","game_id":"%s","x":%s}'
            % (GAME.encode(), deep(20_000).encode())
        ),
        "malformed",
    ),
    "invalid UTF-8 in a field": (
        "utf8",
        lambda s: (
            b'{"request_id":"utf8","op":"view","game_id":"%s","sig":"\xff\xfe"}' % GAME.encode()
        ),
        "malformed",
    ),
    "invalid UTF-8 in the game id": (
        "utf8-game",
        lambda s: b'{"request_id":"utf8-game","op":"view","game_id":"\xed\xa0\x80"}',
        "malformed",
    ),
    "oversized": (
        "big",
        lambda s: request_json(
            request_id="big", op="view", game_id=GAME, sig="x" * (MAX_REQUEST_BYTES + 1)
        ),
        "malformed",
    ),
    "a huge version (show --at)": (
        "at",
        lambda s: request_json(request_id="at", op="view", game_id=GAME, at=10**23),
        "malformed",
    ),
    "a huge version (log --to)": (
        "upto",
        lambda s: request_json(request_id="upto", op="events", game_id=GAME, upto=-(10**23)),
        "malformed",
    ),
    "a huge seat": (
        "seat",
        lambda s: request_json(request_id="seat", op="view", game_id=GAME, seat=2**64, sig="t"),
        "malformed",
    ),
    "a huge deadline (the owner's)": (
        "deadline",
        lambda s: request_json(
            request_id="deadline",
            op="admin",
            game_id=GAME,
            sig="x",
            action="deadline",
            seconds=1e300,
        ),
        "malformed",
    ),
    "a seat of the wrong type": (
        "types",
        lambda s: request_json(request_id="types", game_id=GAME, seat="zero", sig="t"),
        "malformed",
    ),
    "a game id of the wrong type": (
        "types-game",
        lambda s: request_json(request_id="types-game", op="view", game_id=[GAME]),
        "malformed",
    ),
    "a control character in the game id": (
        "nul",
        lambda s: request_json(request_id="nul", op="view", game_id=GAME + "\0"),
        "malformed",
    ),
    "a request id of the wrong type": (
        None,
        lambda s: b'{"request_id":7,"op":"view","game_id":"%s"}' % GAME.encode(),
        None,
    ),
    "a request id that is no key name": (
        None,
        lambda s: request_json(request_id="a b\n", op="view", game_id=GAME),
        None,
    ),
    "not JSON": (None, lambda s: b"\xff\x00 not json {", None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_entry_gets_its_own_reply_and_dead_letter(
    stage: Stage, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    request_id, hostile, code = CASES[case]
    t = stage.table
    # An honest command before and a view after the hostile entry, all in one batch.
    command = t.next_command()
    honest = t.request(command)
    stage.add(encode(honest))
    stage.add(hostile(stage))
    view = ViewRequest(request_id=new_request_id(), game_id=GAME)
    stage.add(encode(view))
    with running(stage.worker()):
        reply = stage.reply(honest.request_id)
        assert reply is not None and reply.ok, reply
        t.settle(command, reply)
        shown = stage.reply(view.request_id)
        assert shown is not None and shown.ok and shown.version == reply.version
        if request_id is not None:
            answer = stage.reply(request_id)
            assert answer is not None and answer.code == code, answer
        stage.settled()
        # The partition keeps flowing.
        with ServiceClient(stage.url, timeout=20) as client:
            t.client = client
            play([t], 5)
    no_failed_steps(caplog)
    [letter] = stage.dead_letters()
    assert letter[b"entry"] == stage.added[1]
    assert letter[b"reason"].startswith(b"malformed")
    assert_log(stage.store, t)


def test_an_entry_without_the_request_field(stage: Stage, caplog: pytest.LogCaptureFixture) -> None:
    honest = stage.table.request(command := stage.table.next_command())
    stage.add(b"{}", name=b"other")
    stage.add(encode(honest))
    with running(stage.worker()):
        reply = stage.reply(honest.request_id)
        assert reply is not None and reply.ok
        stage.table.settle(command, reply)
        stage.settled()
    no_failed_steps(caplog)
    assert len(stage.dead_letters()) == 1


@pytest.mark.parametrize(
    "entry_id",
    ["18446744073709551615-18446744073709551615", "9999999999999-0"],
    ids=["the last id there is", "an id far ahead"],
)
def test_an_entry_id_from_the_future_harms_no_later_request(
    stage: Stage, entry_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A client may choose its entry's id (``XADD key ID``).  The last id there is left no id
    for any later request of its partition (every XADD refused); one far ahead made every later
    write of the partition fail (its stream position past a store's integers).  The entry is
    answered alone, and once everything read is acknowledged the worker makes the stream anew:
    the partition's game goes on, every command applied once."""
    t = stage.table
    view = request_json(request_id="future", op="view", game_id=GAME)
    honest = t.request(command := t.next_command())
    stage.r.xadd(stage.stream, {FIELD: view}, id=entry_id)
    if entry_id.startswith("9"):  # an id is left: an honest command lands after it
        stage.add(encode(honest))
    with running(stage.worker()):
        reply = stage.reply("future")
        assert reply is not None and reply.ok and reply.game_id == GAME, reply
        if entry_id.startswith("9"):
            applied = stage.reply(honest.request_id)
            assert applied is not None and applied.ok, applied
            t.settle(command, applied)
        deadline = time.monotonic() + 10
        while int(stage.r.xinfo_stream(stage.stream)["last-generated-id"].split(b"-")[0]) > (
            time.time() * 1000 + FUTURE_MS
        ):
            assert time.monotonic() < deadline, "the stream was not made anew"
            time.sleep(0.05)
        with ServiceClient(stage.url, timeout=20) as client:
            t.client = client
            play([t], 5)
    no_failed_steps(caplog)
    assert not stage.dead_letters()  # a well-formed request: answered, not buried
    assert_log(stage.store, t)


def test_a_failure_of_the_request_logic_fails_that_request_alone(
    stage: Stage, caplog: pytest.LogCaptureFixture
) -> None:
    """A read and a write the request logic fails on (as a version beyond SQLite's integers
    did): each gets `failed` and a dead letter; the honest writes of the same batch are
    stored and answered."""
    t = stage.table
    worker = stage.worker()
    state, save = worker.service.state, worker.handler.app.save_batch

    def state_failing(game_id: str, at: int | None = None, **kw: Any) -> Any:
        if at == 2:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return state(game_id, at, **kw)

    def save_failing(games: Any, write: Any) -> Any:
        if any(row.request_id == "bad-write" for row in write.requests):
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return save(games, write)

    worker.service.state = state_failing  # type: ignore[method-assign]
    worker.handler.app.save_batch = save_failing  # type: ignore[method-assign]
    first = t.request(c1 := t.next_command())
    stage.add(encode(first))
    stage.add(encode(ViewRequest(request_id="bad-read", game_id=GAME, at=2)))
    # The same command again under another id: decided after ``first``, refused by the rules
    # or accepted, but its ledger row fails to store.
    again = t.keys[first.seat].sign(msgspec.structs.replace(first, request_id="bad-write"))
    stage.add(encode(again))
    with running(worker):
        reply = stage.reply(first.request_id)
        assert reply is not None and reply.ok, reply
        t.settle(c1, reply)
        for rid in ("bad-read", "bad-write"):
            failed = stage.reply(rid)
            assert failed is not None and failed.code == "failed", failed
            assert "OverflowError" in failed.message
        stage.settled()
        with ServiceClient(stage.url, timeout=20) as client:
            t.client = client
            play([t], 5)
    no_failed_steps(caplog)
    reasons = sorted(letter[b"reason"] for letter in stage.dead_letters())
    assert len(reasons) == 2 and all(r.startswith(b"failed: OverflowError") for r in reasons)
    assert_log(stage.store, t)


def test_a_store_that_is_down_is_retried(stage: Stage, caplog: pytest.LogCaptureFixture) -> None:
    """The store fails (a write, then a read): the batch is retried as a whole, nothing is
    answered `failed` nor dead-lettered, and every request is applied once."""
    t = stage.table
    worker = stage.worker(max_deliveries=5)
    state, save = worker.service.state, worker.handler.app.save_batch
    outages = {"save": 2, "state": 1}

    def save_down(games: Any, write: Any) -> Any:
        if outages["save"]:
            outages["save"] -= 1
            raise OperationalError("could not connect to server: Connection refused")
        return save(games, write)

    def state_down(game_id: str, at: int | None = None, **kw: Any) -> Any:
        if at is not None and outages["state"]:
            outages["state"] -= 1
            raise OperationalError("could not connect to server: Connection refused")
        return state(game_id, at, **kw)

    worker.service.state = state_down  # type: ignore[method-assign]
    worker.handler.app.save_batch = save_down  # type: ignore[method-assign]
    request = t.request(command := t.next_command())
    stage.add(encode(request))
    view = ViewRequest(request_id=new_request_id(), game_id=GAME, at=3)
    stage.add(encode(view))
    with running(worker):
        reply = stage.reply(request.request_id, wait=20)
        assert reply is not None and reply.ok, reply
        t.settle(command, reply)
        shown = stage.reply(view.request_id, wait=20)
        assert shown is not None and shown.ok and shown.version == 3, shown
        stage.settled()
    assert outages == {"save": 0, "state": 0}
    assert stage.dead_letters() == []
    assert_log(stage.store, t)


def test_an_outage_longer_than_the_deliveries_fails_nobody(stage: Stage) -> None:
    """The store fails more times in a row than an entry may be delivered: those deliveries
    are the store's fault, not the request's, so it is not taken for poison and answered
    `failed`: it is applied once when the store is back, and nothing is dead-lettered."""
    t = stage.table
    worker = stage.worker(max_deliveries=2)
    save = worker.handler.app.save_batch
    outages = {"save": 2}

    def save_down(games: Any, write: Any) -> Any:
        if outages["save"]:
            outages["save"] -= 1
            raise OperationalError("could not connect to server: Connection refused")
        return save(games, write)

    worker.handler.app.save_batch = save_down  # type: ignore[method-assign]
    request = t.request(command := t.next_command())
    stage.add(encode(request))
    with running(worker):
        reply = stage.reply(request.request_id, wait=20)
        assert reply is not None and reply.ok, reply
        t.settle(command, reply)
        stage.settled()
    assert outages == {"save": 0}
    assert stage.dead_letters() == []
    assert_log(stage.store, t)


# --------------------------------------------------------------------------- fuzz
FIELDS = [
    "request_id", "op", "game_id", "seat", "sig", "command", "at", "since", "upto", "also",
    "secret", "players", "seed", "options", "ask", "commanders", "action", "level", "seconds",
    "what", "version", "type", "x",
]  # fmt: skip
OPS = [*REQUEST_TYPES, "", "bogus", "COMMAND", 3]
EDGES = [0, -1, 1, 2, 7, 255, 256, 2**31, 2**63 - 1, -(2**63), 2**63, 10**40, -(10**40)]


def _scalar(rnd: random.Random) -> Any:
    return rnd.choice(
        [
            *EDGES, 1e308, -0.0, 2.5, True, False, None, "", "g", "\x00", "\u202e\ud7ff",
            "😀" * 3, "x" * rnd.randrange(300), rnd.choice(FIELDS), "peru", "end", "attack",
        ]
    )  # fmt: skip


def _value(rnd: random.Random, depth: int = 0) -> Any:
    roll = rnd.random()
    if depth > 3 or roll < 0.55:
        return _scalar(rnd)
    if roll < 0.75:
        return [_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    keys = rnd.sample(FIELDS, rnd.randrange(4))
    return {k: _value(rnd, depth + 1) for k in keys}


@dataclass
class Attacker:
    """Games of a player who holds their keys, and the service's partition count."""

    partitions: int
    tables: list[Table]

    def random_json(self, rnd: random.Random, rid: str | None) -> dict[str, Any]:
        doc: dict[str, Any] = {} if rid is None else {"request_id": rid}
        doc["op"] = rnd.choice(OPS)
        doc["game_id"] = rnd.choice([t.game_id for t in self.tables] + ["nope", "", 5])
        for key in rnd.sample(FIELDS[3:], rnd.randrange(6)):
            doc[key] = _value(rnd)
        if rnd.random() < 0.3:
            doc["command"] = {"type": rnd.choice(["end", "place", "attack"]), "seat": _scalar(rnd)}
        return doc

    def well_typed(self, rnd: random.Random, rid: str) -> dict[str, Any]:
        """A request of the right shape with values at the edges, often signed with a valid
        key of the attacker's own games (so that it reaches the rules)."""
        doc = self._well_typed(rnd, rid)
        mine = [t for t in self.tables if t.game_id == doc["game_id"]]
        t = mine[0] if mine and rnd.random() < 0.8 else None
        key = {"admin": t and t.owner, "new": SigningKey.generate()}.get(doc["op"])
        if key is None and t is not None and isinstance(doc.get("seat"), int):
            key = t.keys.get(doc["seat"])
        try:
            request = msgspec.convert(doc, REQUEST_TYPES[doc["op"]], strict=False)
        except (msgspec.ValidationError, KeyError):
            return doc
        if key is None or doc["op"] in ("games", "history"):
            return doc
        if doc["op"] == "new":
            request = msgspec.structs.replace(request, owner_key=key.public)
        return msgspec.to_builtins(key.sign(request))

    def _well_typed(self, rnd: random.Random, rid: str) -> dict[str, Any]:
        t = rnd.choice(self.tables)
        seat = rnd.choice([0, 1, 2, 255])
        token = "x"
        version = rnd.choice([None, 0, 1, 3, 2**63 - 1, -(2**63)])
        op = rnd.choice(["command", "view", "events", "new", "admin", "games", "history"])
        doc: dict[str, Any] = {"request_id": rid, "op": op, "game_id": t.game_id}
        if op == "command":
            kind = rnd.choice(["end", "place", "attack", "fortify", "occupy", "trade", "defend"])
            number = rnd.choice(EDGES[:-2])
            command: dict[str, Any] = {"type": kind, "seat": seat}
            fields: dict[str, dict[str, Any]] = {
                "place": {"territory": rnd.choice(["peru", "atlantis", ""]), "count": number},
                "attack": {"origin": "peru", "target": "brazil", "dice": number, "move": number},
                "fortify": {"origin": "peru", "target": "brazil", "count": number},
                "occupy": {"count": number},
                "trade": {"cards": [number, number, 0]},
                "defend": {"dice": number},
            }
            command |= fields.get(kind, {})
            doc |= {"seat": seat, "sig": token, "command": command}
        elif op in ("view", "events"):
            doc |= {"seat": rnd.choice([None, seat]), "sig": token}
            doc |= {"at": version} if op == "view" else {"since": version or 0, "upto": version}
            if rnd.random() < 0.3:
                doc["also"] = {str(rnd.choice([0, 1, 2, 255])): rnd.choice([token, ""])}
        elif op == "new":
            doc["game_id"] = rnd.choice(["fzx-new", "bad id", "x" * 65, t.game_id])
            doc |= {
                "owner_key": rnd.choice([SigningKey.generate().public, "", "short"]),
                "invitations": rnd.choice(
                    [{}, {i: SigningKey.generate().public for i in range(3)}, {0: "x"}]
                ),
                "ruleset": rnd.choice(["classic", "napoleon", "nope"]),
                "players": rnd.choice([[], ["A"] * 7, ["A", "B", "C"], ["", "\x00", "😀"]]),
                "seed": rnd.choice([None, 2**63, -1, "seed", 10**100]),
                "options": rnd.choice([{}, {"cards": 2**63}, {"x": "y"}]),
                "ask": rnd.choice([[], [0, 255], [9]]),
            }
        elif op == "admin":
            doc |= {
                "sig": token,
                "action": rnd.choice(["bot", "human", "invite", "deadline"]),
                "seat": rnd.choice([None, 0, 1, 2, 255]),
                "level": rnd.choice(["greedy", "random", "nope"]),
                "key": rnd.choice([SigningKey.generate().public, ""]),
                "seconds": rnd.choice([None, 0, 1e-9, 0.05, MAX_DEADLINE_S]),
            }
        elif op == "history":
            doc |= {"what": rnd.choice(["stats", "lineage", "export"]), "upto": version}
        return doc

    def entry(self, rnd: random.Random, n: int) -> tuple[int, bytes, str | None]:
        """A partition, random bytes or JSON for it, and the request id that must be answered
        (None: a reply is not certain, or none is due)."""
        p = rnd.randrange(self.partitions)
        roll = rnd.random()
        if roll < 0.2:
            return p, rnd.randbytes(rnd.randrange(1, 200)), None
        rid = f"fuzz-{n}" if roll < 0.6 or rnd.random() < 0.6 else None
        if roll < 0.6 and rid is not None:
            doc = self.well_typed(rnd, rid)
            p = partition_of(doc["game_id"], self.partitions)  # where it is decided
        else:
            doc = self.random_json(rnd, rid)
        raw = json.dumps(doc, ensure_ascii=rnd.random() < 0.5).encode()
        mutation = rnd.random()
        if mutation < 0.1:  # maybe in the request id: a reply is not certain
            rid = None
            if mutation < 0.05:
                raw = raw[: rnd.randrange(len(raw))]  # truncated
            else:
                at = rnd.randrange(len(raw))
                raw = raw[:at] + rnd.choice([b"\xff", b"\xc3", b"\xed\xa0\x80"]) + raw[at:]
        elif mutation < 0.14:
            raw = raw[:-1] + b',"x":' + deep(rnd.choice([500, 5_000, 30_000])).encode() + b"}"
        elif mutation < 0.16:
            raw = raw[:-1] + b',"x":"' + b"y" * MAX_REQUEST_BYTES + b'"}'
        # A `timeout` request is never answered (the worker issues them itself).
        return p, raw, None if doc.get("op") == "timeout" else rid


def test_fuzz_hostile_entries_while_honest_clients_play(
    redis_server: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """300 hostile entries (seeded: random bytes, random JSON, and well-typed requests with
    values at the edges, many signed with a valid key of the attacker's own games) on every
    partition while three honest games play 12 commands each.  Every honest command is
    answered and stored once, in order; every hostile entry is acknowledged, answered when it
    carries a readable request id, and never fails a step or stops a partition."""
    caplog.set_level(logging.WARNING)
    rnd = random.Random(20240611)
    store = f"sqlite://{tmp_path / 'games.db'}"
    r: Any = redis.Redis.from_url(redis_server.url)
    worker = Worker(redis_server.url, store, lease_ms=900, max_deliveries=3, chosen_seeds=True)
    start = time.monotonic()
    with running(worker), ServiceClient(redis_server.url, timeout=20) as client:
        tables = [Table(client, f"fz{i}", seed=i).create() for i in range(3)]
        attacker = Attacker(
            client.partitions, [Table(client, f"fzx{i}", seed=9 + i).create() for i in range(3)]
        )
        answered: list[str] = []
        for i in range(30):
            pipe = r.pipeline(transaction=False)
            for k in range(10):
                p, raw, rid = attacker.entry(rnd, 10 * i + k)
                name = FIELD if rnd.random() < 0.97 else b"q"  # not a request: no reply
                pipe.xadd(KEYS.stream(p), {name: raw})
                if rid is not None and name == FIELD:
                    answered.append(rid)
            pipe.execute()
            for t in tables:
                if i % 5 < 2:  # 12 commands each
                    reply = t.send(t.next_command())
                    assert reply.ok, reply
        deadline = time.monotonic() + 15
        streams = [KEYS.stream(p) for p in range(client.partitions)]
        while any(r.xpending(s, GROUP)["pending"] for s in streams):
            assert time.monotonic() < deadline, "entries left pending"
            time.sleep(0.05)
        codes: dict[str, int] = {}
        for rid in answered:
            popped = r.lpop(KEYS.reply(rid))
            assert popped is not None, rid
            code = decode_reply(popped).code
            codes[code] = codes.get(code, 0) + 1
        dead = sum(r.xlen(KEYS.dead(p)) for p in range(client.partitions))
        print(f"300 hostile entries, {dead} dead-lettered; replies: {codes}")
        assert "failed" not in codes  # nothing hostile reached a bug
        assert codes.get("malformed", 0) <= dead < 300 and len(codes) > 5
    assert time.monotonic() - start < 90
    no_failed_steps(caplog)
    assert not [rec for rec in caplog.records if "delivered" in rec.getMessage()]
    assert_log(store, *tables)
