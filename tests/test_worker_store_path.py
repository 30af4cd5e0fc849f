"""The command worker's write path (issue 14, goal 5): commands decided on the cached state in
place, their rows put together from the events' JSON, and one SQLite transaction on a
connection of its own.  Each test checks that the result is what the general path stores:
the same bytes, the same log, the same state, the same errors.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from eventsourcing.domain import datetime_now_with_tzinfo
from eventsourcing.persistence import IntegrityError

import risk_core
from risk_core import RuleError
from risk_core.model import Place
from risk_service import GameService
from risk_service.app import SNAPSHOT_INTERVAL, Game, Play
from risk_service.handler import Handler, Item, _digest, _encoded_outcome, _Recorded
from risk_service.ledger import (
    Fenced,
    LedgerReader,
    LedgerWrite,
    RequestRow,
    insert_batch,
)
from risk_service.mapper import MsgspecMapper
from risk_service.protocol import GamesRequest, Malformed, Reply, encode
from tests.conftest import OpenService
from tests.servicekit import PLAYERS, Ask, Table, seated


def store(tmp_path: Path) -> GameService:
    service = GameService(f"sqlite://{tmp_path / 'games.db'}")
    service.create_schema()
    return service


def table(handler: Handler, game_id: str = "g1", seed: int = 1) -> Table:
    """A game created and claimed through ``handler``, with its replica."""
    t = Table(client=None, game_id=game_id, seed=seed)  # type: ignore[arg-type]
    made = seated(Ask(handler), game_id, seed=seed)
    t.keys = made.keys
    t.events = risk_core.start("classic", PLAYERS, seed=seed, game_id=game_id)
    t.state = risk_core.replay(t.events)
    return t


def test_record_rows_are_the_mappers_bytes(tmp_path: Path) -> None:
    """``record_states`` writes, byte for byte, what ``to_stored_event`` writes for the same
    domain events (the command and size on the first), and they read back as those events;
    so does ``record_state_of`` (an import's record of one event, from the JSON of the
    list of its events, as the audit compared it)."""
    with store(tmp_path) as service:
        mapper = service.application.mapper
        assert isinstance(mapper, MsgspecMapper)
        state = risk_core.replay(risk_core.start("classic", PLAYERS, seed=3, game_id="g"))
        single = 0
        for k in range(30):
            command = risk_core.bots.choose(state, level="random", seed=k)
            events = risk_core.decide(state, command)
            moment = datetime_now_with_tzinfo()
            head = mapper.state_head(moment)
            states = mapper.record_states(command, events, head)
            if len(events) == 1:
                inside = risk_core.encode(events)[1:-1]
                assert mapper.record_state_of(command, inside, head) == states[0]
                single += 1
            for i, (ev, stored) in enumerate(zip(events, states, strict=True)):
                domain = Game.Recorded(
                    originator_id="g",
                    originator_version=state.version + 1 + i,
                    timestamp=moment,
                    event=ev,
                    command=command if i == 0 else None,
                    batch=len(events) if i == 0 else 0,
                )
                assert mapper.to_stored_event(domain).state == stored
            risk_core.apply_in_place(state, events)
        assert single  # records of one event were among them


def test_a_refused_command_leaves_the_cached_state_as_it_was(tmp_path: Path) -> None:
    """In one batch: an accepted command, one the rules refuse, the next accepted one.  The
    refusal is recorded and changes nothing; the next command is decided on the state the
    first left, and the cached state equals the stored log replayed (ENG-01, ENG-02)."""
    with store(tmp_path) as service:
        handler = Handler(service, chosen_seeds=True)
        t = table(handler)
        assert t.state is not None
        first = t.next_command()
        after = risk_core.replay([*t.events, *risk_core.decide(t.state, first)])
        then = risk_core.bots.choose(after, level="random", seed=7)
        wrong = Place(seat=then.seat, territory="no such territory", count=1)
        items = [Item(0, p, t.request(c)) for p, c in enumerate((first, wrong, then), start=10)]
        replies = handler.handle(items, {0: 1})
        assert [r.ok for r in replies] == [True, False, True], replies
        with pytest.raises(RuleError) as refused:
            risk_core.decide(after, wrong)
        assert replies[1].code == refused.value.code
        for command, reply in zip((first, wrong, then), replies, strict=True):
            t.settle(command, reply)
        assert service.events("g1") == t.events
        cached = handler.state("g1")
        assert cached is not None
        stored = service.state("g1", snapshots=False)
        assert risk_core.encode(cached) == risk_core.encode(stored) == risk_core.encode(t.state)


def test_a_long_game_through_the_write_path(tmp_path: Path) -> None:
    """Hundreds of commands: the stored log is the replica's, its records carry their
    commands, and a snapshot is taken once each multiple of ``SNAPSHOT_INTERVAL`` is passed
    (the state at each multiple equals the events replayed to it)."""
    with store(tmp_path) as service:
        handler = Handler(service, chosen_seeds=True)
        t = table(handler, seed=5)
        position = 100
        while len(t.events) < 3 * SNAPSHOT_INTERVAL + 10 and not t.over:
            assert t.state is not None
            command = t.next_command()
            t.sent += 1
            position += 1
            [reply] = handler.handle([Item(0, position, t.request(command))], {0: 1})
            t.settle(command, reply)
            if handler.snapshots_due():
                handler.take_snapshots()
        assert service.events("g1") == t.events
        records = service.records("g1")
        assert sum(len(r.events) for r in records) == len(t.events)
        assert all(r.command is not None for r in records[1:])
        snapshots = service.application.snapshots
        assert snapshots is not None
        taken = [s.originator_version for s in snapshots.recorder.select_events("g1")]
        # One snapshot per multiple passed, at the version its batch reached.
        assert [v // SNAPSHOT_INTERVAL for v in taken] == [1, 2, 3], taken
        for at in range(SNAPSHOT_INTERVAL, len(t.events), SNAPSHOT_INTERVAL):
            near = service.state("g1", at=at)
            assert risk_core.encode(near) == risk_core.encode(risk_core.replay(t.events[:at]))


def test_the_write_path_keeps_the_ledgers_guarantees(
    shared_store_url: str, open_service: OpenService
) -> None:
    """``insert_batch`` (SQLite's batch writer, PostgreSQL's pipelined transaction): an older
    fence fails with ``Fenced``, a request id stored before and a game version taken fail with
    ``IntegrityError``; each stores nothing, and the connection writes again afterwards."""
    service = open_service(shared_store_url)
    recorder = service.application.recorder
    assert isinstance(recorder, LedgerReader)

    def row(rid: str) -> RequestRow:
        return RequestRow(rid, "g", 0, b"{}")

    def write(fence: int, *rids: str) -> LedgerWrite:
        return LedgerWrite(fences={3: (fence, 1)}, requests=[row(r) for r in rids])

    def event(version: int) -> tuple[str, int, str, bytes]:
        return ("g", version, "risk:Game.Recorded", b"{}")

    insert_batch(recorder, [event(1)], write(5, "a"))
    with pytest.raises(Fenced):
        insert_batch(recorder, [event(2)], write(4, "b"))
    with pytest.raises(IntegrityError):
        insert_batch(recorder, [event(2)], write(5, "a"))
    with pytest.raises(IntegrityError):
        insert_batch(recorder, [event(1)], write(5, "c"))
    assert recorder.ledger_requests(["a", "b", "c"]).keys() == {"a"}
    assert recorder.ledger_fence(3) == (5, 1)
    insert_batch(recorder, [event(2)], write(6, "d"))
    assert recorder.ledger_requests(["d"]).keys() == {"d"}
    states = [s.originator_version for s in recorder.select_events("g")]
    assert states == [1, 2]


def test_a_fence_is_checked_per_partition_in_one_transaction(
    shared_store_url: str, open_service: OpenService
) -> None:
    """A batch's fences (SQLite: an update, else the partition's first row; PostgreSQL: an
    upsert that fails when stale): the same fence writes again and moves the position on; a
    partition's first row is taken at any fence; one partition fenced off stores nothing of the
    batch, the other partition's new row neither."""
    service = open_service(shared_store_url)
    recorder = service.application.recorder
    assert isinstance(recorder, LedgerReader)

    def write(fences: dict[int, tuple[int, int]], rid: str) -> LedgerWrite:
        return LedgerWrite(fences=fences, requests=[RequestRow(rid, "g", 0, b"{}")])

    insert_batch(recorder, [], write({1: (7, 10)}, "a"))
    insert_batch(recorder, [], write({1: (7, 11)}, "b"))  # the same owner, further on
    assert recorder.ledger_fence(1) == (7, 11)
    with pytest.raises(Fenced):  # partition 2 is new, partition 1 has a newer owner
        insert_batch(recorder, [], write({1: (6, 12), 2: (1, 5)}, "c"))
    assert recorder.ledger_fence(1) == (7, 11) and recorder.ledger_fence(2) == (0, 0)
    assert recorder.ledger_requests(["a", "b", "c"]).keys() == {"a", "b"}
    insert_batch(recorder, [], write({2: (1, 5)}, "d"))  # then the writer goes on
    assert recorder.ledger_fence(2) == (1, 5)


def test_a_stale_owner_is_fenced_before_anything_else_fails(
    shared_store_url: str, open_service: OpenService
) -> None:
    """A stale owner whose batch would also clash (a request id stored before, a version
    taken) is told ``Fenced``, which makes a worker drop the partition, rather than the
    ``IntegrityError`` that makes it retry the batch's requests one by one; and a fence
    written many times over (PostgreSQL plans a statement anew after its fifth run) fails
    only when stale."""
    service = open_service(shared_store_url)
    recorder = service.application.recorder
    assert isinstance(recorder, LedgerReader)

    def write(fence: int, position: int, rid: str) -> LedgerWrite:
        return LedgerWrite(fences={4: (fence, position)}, requests=[RequestRow(rid, "g", 0, b"{}")])

    for v in range(1, 9):
        insert_batch(recorder, [("g", v, "risk:Game.Recorded", b"{}")], write(9, v, f"r{v}"))
    assert recorder.ledger_fence(4) == (9, 8)
    with pytest.raises(Fenced, match="Partition 4 has a newer owner than fence 8"):
        insert_batch(recorder, [("g", 1, "risk:Game.Recorded", b"{}")], write(8, 9, "r1"))
    assert recorder.ledger_fence(4) == (9, 8)
    assert len(list(recorder.select_events("g"))) == 8


def test_a_play_refused_records_nothing() -> None:
    """``Play.play`` refused by the rules: no record, the state as it was."""
    state = risk_core.replay(risk_core.start("classic", PLAYERS, seed=2, game_id="g"))
    before = risk_core.encode(state)
    play = Play("g", state)
    seat = risk_core.to_act(state)
    assert seat is not None
    with pytest.raises(RuleError):
        play.play(Place(seat=seat, territory="nowhere", count=1))
    assert play.records == [] and risk_core.encode(state) == before


def test_recorded_outcomes_are_the_structs_encoding() -> None:
    """The ledger's outcome, put together from the reply's JSON, is ``_Recorded``'s encoding."""
    request = msgspec.json.decode(b'{"op":"games","request_id":"r1"}', type=GamesRequest)
    for reply in (
        Reply(request_id="r1", ok=True, game_id="g", version=3, events=[{"a": 1}]),
        Reply(request_id="r1", ok=False, code="not_your_turn", message="No."),
    ):
        fields = {f: getattr(reply, f) for f in Reply.__struct_fields__}
        expected = msgspec.json.encode(_Recorded(**fields, request=_digest(request)))
        assert _encoded_outcome(reply, request)[1] == expected


def test_a_stored_reply_is_sent_as_the_bytes_recorded_for_it(tmp_path: Path) -> None:
    """The worker sends a recorded reply as the JSON encoded once for the ledger
    (``Handler.encoded``): the same bytes as ``encode(reply)``, the outcome those bytes with
    the digest; a refusal recorded too; any other reply (or one of an earlier batch) is
    encoded anew."""
    with store(tmp_path) as service:
        handler = Handler(service, chosen_seeds=True)
        t = table(handler)
        assert t.state is not None
        first = t.next_command()
        wrong = Place(seat=first.seat, territory="no such territory", count=1)
        items = [Item(0, p, t.request(c)) for p, c in enumerate((first, wrong), start=10)]
        replies = handler.handle(items, {0: 1})
        assert [r.ok for r in replies] == [True, False]
        requests = [it.request for it in items]
        rows = handler.ledger.ledger_requests([r.request_id for r in replies])
        for request, reply in zip(requests, replies, strict=True):
            assert not isinstance(request, Malformed)
            assert handler.encoded(reply) == encode(reply)
            assert rows[reply.request_id].outcome == _encoded_outcome(reply, request)[1]
            assert id(reply) in handler._encoded  # encoded once, not again
        other = Reply(request_id="r", ok=True)
        assert handler.encoded(other) == encode(other)
        handler.handle([Item(0, 20, GamesRequest(request_id="r2"))], {0: 1})
        assert handler._encoded == {}  # a batch's replies only: nothing kept from the last
        assert handler.encoded(replies[0]) == encode(replies[0])


def test_signed_bytes_are_the_request_with_its_signatures_emptied() -> None:
    """``signed_bytes`` (its path for requests without ``also``, signed or not) is the
    request's encoding with every signature emptied, and the session MAC is HMAC-SHA256 in
    unpadded base64url (``risk_service.signing``)."""
    import hashlib
    import hmac

    from risk_service.protocol import CommandRequest, ViewRequest
    from risk_service.signing import DOMAIN, _Mac, b64, signed_bytes

    command = Place(seat=0, territory="alaska", count=1)
    unsigned = CommandRequest(request_id="r1", game_id="g", seat=0, command=command, ts=5)
    signed = msgspec.structs.replace(unsigned, sig="s1.abc.def.ghi")
    assert signed_bytes(signed) == signed_bytes(unsigned) == DOMAIN + encode(unsigned)
    view = ViewRequest(request_id="r2", game_id="g", seat=0, sig="x", also={1: "y", 0: "z"})
    emptied = msgspec.structs.replace(view, sig="", also={0: "", 1: ""})
    assert signed_bytes(view) == DOMAIN + encode(emptied)
    for key, message in ((b"k" * 32, b""), (bytes(range(64)), b"m" * 300)):
        expected = b64(hmac.new(key, message, hashlib.sha256).digest()).encode()
        assert _Mac(key).text(message) == expected
