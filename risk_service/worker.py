"""The command worker: requests from Redis streams, decided and stored exactly once, in order.

Topology (keys in ``risk_service.protocol``): ``P`` partition streams ``<prefix>:cmd:{p}``, a
game's requests all on ``p = crc32(game_id) mod P``, one consumer group.  Each partition has
one active owner, the holder of the lease ``<prefix>:lease:{p}`` (renewed every third of its
time to live), whose value carries a fencing counter incremented at every acquisition.  Workers
announce themselves in ``<prefix>:workers`` and take about ``P / live workers`` partitions each.

Exactly once, in order:

* Every write is stored with its request id and outcome, and with the partition's fence and
  stream position, in one transaction (``risk_service.handler``, ``risk_service.ledger``).  A
  request id found in the ledger gets its stored outcome again; it is never decided twice.
* A worker applies an entry only when every older entry of its partition is resolved: with
  each read, one script (``OLDEST_PENDING``) gives the oldest pending entry of each partition,
  and if one is older than what was read (a crashed or stale owner's), the worker claims the
  whole pending list (XAUTOCLAIM) and processes it in stream order first.  Replies and XACK
  follow the commit, so a crash between them only causes a redelivery, answered from the
  ledger.
* Replies, acknowledgements and announcements of a batch travel in one raw batch with the next
  read (``risk_service.wire``), unanswered (``CLIENT REPLY SKIP``): a busy worker pays one
  Redis round trip per batch, and only the read's answer wakes it.
* A store write carrying an older fence than one already written fails (``Fenced``): the worker
  drops that partition at once.  The game version (the events' primary key) fences each game.

Failures: one request's fault is that request's alone.  An entry that does not decode within
the limits of ``risk_service.protocol`` is answered ``malformed`` (when a request id can be
read) and goes to ``<prefix>:dead:{p}`` at once: no redelivery can make it well-formed.  One
the request logic fails on (``risk_service.handler``) is answered ``failed`` and goes there
too, while the rest of its batch is answered as if it were not there.  Only an
infrastructure fault (the store or Redis down) fails a whole step: nothing of it was answered,
so the batch is read again and retried.  A worker killed mid-command leaves its entries
pending; the next owner (after the lease lapses) claims them.  An entry delivered
``max_deliveries`` times without being acknowledged goes to the dead-letter stream with the
reason, and its client gets the answer the ledger keeps for it: what it did if it was stored
(the worker died before acknowledging it), else ``failed``, recorded there first, so that a copy
of the request still in the stream (a client sends it again while no answer comes) is answered
``failed`` too and never applied.  A worker does not count its own deliveries that failed on
the store or Redis (nobody's fault): an outage longer than ``max_deliveries`` attempts fails no
request (a worker that takes over does count the deliveries of the one before it).  Redis
restarts are survived by reconnecting, re-creating the groups and taking leases anew with a
fence above the store's.

Turn deadlines (owner action ``deadline``): when a game changes, the worker schedules
``now + deadline`` (Redis server time) in ``<prefix>:deadlines:{p}``; when one passes it
appends a ``timeout`` request for the game's current version to the partition stream, so the
timeout is decided in order, recorded and deduplicated like any request (the engine never reads
a clock; the waiting seat's moves are played by the bot, and ``risk_service.deadlines`` marks
them from the ledger).  A batch with views of games that have a deadline first reads their due
times and Redis's clock (one round trip), so that those views show the time left.
"""

from __future__ import annotations

import logging
import math
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis

from risk_core import to_act
from risk_service import signing
from risk_service.handler import READS_SEEN, Handler, Item, infrastructure
from risk_service.ledger import Fenced
from risk_service.protocol import (
    DEFAULT_PARTITIONS,
    DEFAULT_PREFIX,
    FIELD,
    GROUP,
    Keys,
    Malformed,
    Reply,
    TimeoutRequest,
    ViewRequest,
    decode_request,
    encode,
    partition_of,
    timeout_request_id,
)
from risk_service.store import GameService, ServiceError
from risk_service.wire import Batch, Channel, entry_fields, pack, push_expiring, streams_read

log = logging.getLogger(__name__)
REPLY_TTL_MS = 120_000
DEAD_MAXLEN = 10_000
MAX_OUTAGE_ENTRIES = 100_000  # entry ids whose failed deliveries a worker remembers
TRIM_EVERY = 64  # batches between trims of acknowledged entries
MAX_POSITION = (1 << 63) - 1  # the largest stream position a store's integer holds

_NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) "
HEARTBEAT = (
    _NOW + "redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) "
    "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) "
    "return {redis.call('ZCARD', KEYS[1]), now}"
)
# KEYS: lease, fence.  ARGV: worker id, ttl ms, lowest fence allowed (the store's + 1).
ACQUIRE = (
    "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end "
    "local f = redis.call('INCR', KEYS[2]) "
    "if f < tonumber(ARGV[3]) then f = tonumber(ARGV[3]) redis.call('SET', KEYS[2], f) end "
    "redis.call('SET', KEYS[1], ARGV[1] .. ':' .. f, 'PX', ARGV[2]) return f"
)
RENEW = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
)
RELEASE = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
)
SCHEDULE = _NOW + "return redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])"
SCHEDULE_NX = _NOW + "return redis.call('ZADD', KEYS[1], 'NX', now + tonumber(ARGV[1]), ARGV[2])"
# A stream whose ids a client pushed to the future: the players' user may add entries and
# Redis lets an XADD choose its id, so one entry at ``18446744073709551615-…`` leaves no id for
# any later entry, and one far ahead makes every later id follow it.  Once every entry was
# delivered and acknowledged, the stream and its group are made anew (ids from now on): no
# request is lost, since nothing is left to read.  KEYS: the stream.  ARGV: the group, the
# slack (ms) beyond Redis's clock that counts as the future.  1: made anew; 0: entries still to
# read or acknowledge (try again later); -1: its ids are not in the future.
RESET_STREAM = (
    _NOW + "local function get(list, name) for i = 1, #list, 2 do "
    "if list[i] == name then return list[i + 1] end end end "
    "local last = get(redis.call('XINFO', 'STREAM', KEYS[1]), 'last-generated-id') "
    "local ms = tonumber(string.match(last, '^(%d+)')) "
    "if ms <= now + tonumber(ARGV[2]) then return -1 end "
    "for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do "
    "if get(g, 'name') == ARGV[1] and (get(g, 'pending') > 0 "
    "or get(g, 'last-delivered-id') ~= last) then return 0 end end "
    "redis.call('DEL', KEYS[1]) "
    "redis.call('XGROUP', 'CREATE', KEYS[1], ARGV[1], '0', 'MKSTREAM') return 1"
)
FUTURE_MS = 3_600_000  # an entry id this far past the clocks is a client's doing (RESET_STREAM)

# KEYS: streams.  ARGV: the group.  For each stream with pending entries: its index and the
# oldest pending id (one command instead of an XPENDING per partition).
OLDEST_PENDING = (
    "local out = {} for i, key in ipairs(KEYS) do "
    "local s = redis.call('XPENDING', key, ARGV[1]) "
    "if s[1] > 0 then out[#out + 1] = i - 1 out[#out + 1] = s[2] end end return out"
)


def position(entry_id: bytes | str) -> int:
    """A stream id ``ms-seq`` as one increasing integer (stored in the ledger's fence row),
    within a store's signed 64 bits: a client may give its entry any id (``RESET_STREAM``)."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return min((int(ms) << 20) | min(int(seq or 0), (1 << 20) - 1), MAX_POSITION)


def _id_key(entry_id: bytes | str) -> tuple[int, int]:
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


@dataclass(slots=True)
class Entry:
    partition: int
    id: bytes
    raw: bytes | None  # None: the entry was trimmed away
    seen: bool = False  # claimed from the pending list: it may have been processed


class Worker:
    """Serve every request of the partitions this worker holds; ``run`` until ``stop``."""

    def __init__(
        self,
        redis_url: str,
        store: str | None = None,
        *,
        service: GameService | None = None,
        prefix: str = DEFAULT_PREFIX,
        partitions: int = DEFAULT_PARTITIONS,
        lease_ms: int = 5000,
        batch: int = 256,
        max_deliveries: int = 5,
        name: str | None = None,
        chosen_seeds: bool = False,
    ) -> None:
        self.redis: redis.Redis = redis.Redis.from_url(redis_url, health_check_interval=0)
        self.keys = Keys(prefix)
        self.service = service or GameService(store)
        self._owns_service = service is None
        self.service.create_schema()
        self.handler = Handler(self.service, chosen_seeds=chosen_seeds)
        self.lease_ms = lease_ms
        self.batch = batch
        self.max_deliveries = max_deliveries
        self.id = name or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.wanted_partitions = partitions
        self.partitions = partitions
        self.owned: dict[int, int] = {}  # partition → fence
        self.needs_recovery: set[int] = set()
        self.stopping = threading.Event()
        self.processed = 0  # requests answered (for tests and logs)
        self._last_tick = 0.0
        self._batches = 0
        self._last_acked: dict[int, bytes] = {}
        self._reset_due: set[int] = set()  # partitions whose ids went to the future
        self._scripts: dict[str, Any] = {}
        self._shas: dict[str, str] = {}
        self._packed_reads: dict[tuple[tuple[int, ...], str], bytes] = {}
        self._stream_partition: dict[bytes, int] = {}  # stream key → partition
        self._issued: dict[str, tuple[int, int]] = {}  # game → (version, not again before ms)
        # Entry id → the deliveries of it this worker made that failed on the store or Redis
        # (nobody's fault): not counted against ``max_deliveries``.
        self._outages: dict[bytes, int] = {}
        # Replies, acknowledgements and announcements of stored batches, sent with the next read.
        self._outbox = Batch()
        self._channel = Channel(self.redis)

    # ------------------------------------------------------------------ lifecycle
    def stop(self) -> None:
        self.stopping.set()

    def close(self) -> None:
        try:
            self._flush()
            for p, fence in list(self.owned.items()):
                self._script(RELEASE, [self.keys.lease(p)], [self._lease_value(fence)])
        except redis.RedisError:
            pass  # the leases lapse by themselves
        self.owned.clear()
        self._channel.close()
        self.redis.close()
        if self._owns_service:
            self.service.close()

    def install_signal_handlers(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stop())

    def run(self) -> None:
        """Serve until ``stop()``; survives Redis and store outages by retrying."""
        backoff = 0.05
        while not self.stopping.is_set():
            try:
                self._setup()
                while not self.stopping.is_set():
                    self.step()
                    backoff = 0.05
            except (redis.ConnectionError, redis.TimeoutError, OSError) as e:
                log.warning("Redis unavailable (%s); retrying", e)
            except redis.exceptions.NoPermissionError as e:
                # Retrying cannot help: this Redis user may not run a worker's commands.
                self.close()
                raise ServiceError(
                    "redis_refused",
                    f"Redis refuses this worker's commands ({e}): is this the players' URL? A "
                    "worker needs the workers' (`risk setup-redis` prints both; `risk serve` "
                    "starts its own workers).",
                ) from None
            except redis.ResponseError as e:
                # A restarted Redis lost the groups and scripts: set up again.
                if "NOGROUP" not in str(e) and "NOSCRIPT" not in str(e):
                    log.exception("Redis refused a command")
            except Exception:
                log.exception("Worker step failed; retrying")
            self._outbox = Batch()  # unacknowledged entries are redelivered, answered by the ledger
            self._drop_all()
            self.stopping.wait(backoff)
            backoff = min(backoff * 2, 1.0)
        self.close()

    def _setup(self) -> None:
        self.redis.set(self.keys.config, self.wanted_partitions, nx=True)
        self.partitions = int(self.redis.get(self.keys.config) or self.wanted_partitions)
        for p in range(self.partitions):
            try:
                self.redis.xgroup_create(self.keys.stream(p), GROUP, id="0", mkstream=True)
            except redis.ResponseError as e:
                if "BUSYGROUP" not in str(e):
                    raise
        self._shas.clear()  # a restarted Redis lost them: loaded again
        # For clients' session signatures (``risk_service.signing``); a restarted Redis lost it.
        self.redis.set(self.keys.service_key, self.handler.service_key().public)
        self._last_tick = 0.0

    def _drop_all(self) -> None:
        self.owned.clear()
        self.needs_recovery.clear()
        self.handler.forget()

    # ------------------------------------------------------------------ one step
    def step(self) -> None:
        """Renew and balance leases when due, then read and process one batch."""
        if time.monotonic() - self._last_tick >= self.lease_ms / 3000:
            self._flush()  # before a lease may be released
            self._tick()
        if not self.owned:
            self._flush()
            self.stopping.wait(self.lease_ms / 6000)
            return
        if self.needs_recovery:
            for p in sorted(self.needs_recovery & set(self.owned)):
                self._flush()
                self._process(self._recover(p))
            self.needs_recovery.clear()
        self._process(self._read())
        if self._reset_due:
            self._reset_streams()

    def _reset_streams(self) -> None:
        """``RESET_STREAM`` on the partitions whose entry ids a client pushed to the future,
        once everything read from them is acknowledged."""
        self._flush()  # the acknowledgements and trims first
        for p in sorted(self._reset_due):
            done = p not in self.owned
            if not done:
                reset = self._script(RESET_STREAM, [self.keys.stream(p)], [GROUP, FUTURE_MS])
                if reset == 1:
                    log.warning("Partition %s: entry ids far in the future; stream made anew", p)
                    self._last_acked.pop(p, None)
                done = reset != 0
            if done:
                self._reset_due.discard(p)

    def _read(self) -> list[Entry]:
        owned = sorted(self.owned)
        # The previous batch's replies (quiet commands, answered first), then the read.
        batch, self._outbox = self._outbox, Batch()
        batch.add_packed(self._read_commands(tuple(owned)), 2)
        result = self._channel.send(batch)
        read: dict[int, list[Any]] = {}
        for stream, messages in streams_read(result[0]):
            p = self._stream_partition.get(stream)
            read[_partition_of_key(stream) if p is None else p] = messages
        pending = result[1]
        # Pairs (``OLDEST_PENDING``), indexed rather than zipped: ``zip``'s ``strict`` keyword
        # costs more than the rest of this (and there is always a read's entry pending).
        oldest = {owned[pending[i]]: pending[i + 1] for i in range(0, len(pending), 2)}
        entries: list[Entry] = []
        for p in owned:
            if not read.get(p) and p in oldest:
                # Pending entries nobody here is working on: a dead or fenced-off worker's, or
                # ours from a failed attempt.  Resolved now, oldest first.
                entries += self._recover(p)
        for p, messages in sorted(read.items()):
            if p not in self.owned or not messages:
                continue
            first = oldest.get(p)
            if (
                first is not None
                and first != messages[0][0]  # the usual case: the oldest pending is this read's
                and _id_key(first) < _id_key(messages[0][0])
            ):
                # Something older is pending (a crashed or stale owner's, or one of ours that
                # failed): resolve it first, in order, with what was just read.
                entries += self._recover(p)
                continue
            entries += [Entry(p, mid, _raw(entry_fields(flat))) for mid, flat in messages]
        return entries

    def _read_commands(self, owned: tuple[int, ...]) -> bytes:
        """The read of ``owned``'s partitions and the check of their pending entries, packed
        once per set of partitions (and script load): the same two commands every step."""
        key = (owned, self._load(OLDEST_PENDING))
        packed = self._packed_reads.get(key)
        if packed is None:
            streams = [self.keys.stream(p) for p in owned]
            for stream, p in zip(streams, owned, strict=True):
                self._stream_partition[stream.encode()] = p
            block = max(1, min(self.lease_ms // 3 - 50, 1000))
            self._packed_reads.clear()
            packed = self._packed_reads[key] = pack(
                (
                    "XREADGROUP", "GROUP", GROUP, self.id, "COUNT", self.batch, "BLOCK", block,
                    "STREAMS", *streams, *[">"] * len(streams),
                ),
                ("EVALSHA", key[1], len(streams), *streams, GROUP),
            )  # fmt: skip
        return packed

    def _recover(self, p: int) -> list[Entry]:
        """Claim every pending entry of ``p`` (oldest first); dead-letter the poisoned ones."""
        stream = self.keys.stream(p)
        poisoned: dict[bytes, int] = {}
        start = "-"
        while True:
            rows: list[Any] = self.redis.xpending_range(
                stream, GROUP, min=start, max="+", count=1000
            )
            for row in rows:
                tried = row["times_delivered"] - self._outages.get(row["message_id"], 0)
                if tried >= self.max_deliveries:
                    poisoned[row["message_id"]] = row["times_delivered"]
            if len(rows) < 1000:
                break
            start = "(" + rows[-1]["message_id"].decode()
        entries: list[Entry] = []
        cursor: bytes | str = "0-0"
        while True:
            result = self.redis.xautoclaim(stream, GROUP, self.id, 0, cursor, count=1000)
            cursor, messages = result[0], result[1]
            for mid, fields in messages:
                entries.append(Entry(p, mid, _raw(fields), True))
            if _id_key(cursor) == (0, 0):
                break
        keep = [entry for entry in entries if entry.id not in poisoned]
        given_up = [entry for entry in entries if entry.id in poisoned]
        if given_up and not self._give_up(p, given_up, poisoned):
            return []  # fenced off: the partition is another worker's now
        return keep

    def _give_up(self, p: int, entries: list[Entry], deliveries: dict[bytes, int]) -> bool:
        """Answer and dead-letter the entries of ``p`` delivered too often without an answer;
        False when fenced off (the partition is then dropped, nothing answered).

        Each request's answer is the one the ledger keeps (``Handler.give_up``): what it did
        if it was stored before, else ``failed``, recorded, so that a copy of it still in the
        stream is answered ``failed`` too and never applied.  The store's error propagates
        before anything is answered (the entries stay pending)."""
        items: list[Item] = []
        kept: list[Entry] = []
        for entry in entries:
            try:
                request = decode_request(entry.raw or b"")
            except Malformed:  # no request to apply: buried as it is
                reason = f"delivered {deliveries[entry.id]} times without an answer"
                self._dead_letter(entry, reason)
                continue
            items.append(Item(p, position(entry.id), request, True))
            kept.append(entry)
        if not items:
            return True
        reason = f"delivered {max(deliveries[e.id] for e in kept)} times without an answer"
        try:
            replies = self.handler.give_up(items, dict(self.owned), reason)
        except Fenced as e:
            log.warning("Fenced off: %s", e)
            self.owned.pop(p, None)
            self.handler.forget()
            return False
        batch = Batch()
        for entry, reply in zip(kept, replies, strict=True):
            log.warning("Dead-lettering %s on partition %s: %s", entry.id, p, reason)
            self._bury(batch, entry, reason)
            self._push_reply(batch, reply)
            batch.add("XACK", self.keys.stream(p), GROUP, entry.id)
        self._channel.send(batch)
        return True

    def _dead_letter(self, entry: Entry, reason: str) -> None:
        log.warning("Dead-lettering %s on partition %s: %s", entry.id, entry.partition, reason)
        rid = "" if entry.raw is None else _request_id_of(entry.raw)
        batch = Batch()
        self._bury(batch, entry, reason)
        if rid:
            reply = Reply(request_id=rid, ok=False, code="failed", message=reason)
            self._push_reply(batch, reply)
        batch.add("XACK", self.keys.stream(entry.partition), GROUP, entry.id)
        self._channel.send(batch)

    def _bury(self, batch: Batch, entry: Entry, reason: str) -> None:
        """Add ``entry`` to its partition's dead-letter stream, with the reason."""
        batch.add_quiet(
            "XADD", self.keys.dead(entry.partition), "MAXLEN", "~", DEAD_MAXLEN, "*",
            FIELD, entry.raw or b"", "reason", reason, "entry", entry.id,
        )  # fmt: skip

    # ------------------------------------------------------------------ processing
    def _process(self, entries: list[Entry]) -> None:
        if not entries:
            return
        items: list[Item] = []
        kept: list[Entry] = []  # the entry of each item
        bad: list[tuple[Entry, Malformed]] = []
        timeouts: set[str] = set()
        for entry in entries:
            if entry.raw is None:  # trimmed after it was answered: nothing left to do
                self.redis.xack(self.keys.stream(entry.partition), GROUP, entry.id)
                continue
            try:
                request = decode_request(entry.raw)
            except Malformed as e:
                bad.append((entry, e))
                continue
            if partition_of(request.game_id, self.partitions) != entry.partition and (
                request.op != "games"
            ):
                bad.append((entry, Malformed(request.request_id, "sent to the wrong partition")))
                continue
            if isinstance(request, TimeoutRequest):
                timeouts.add(request.game_id)
            items.append(Item(entry.partition, position(entry.id), request, entry.seen))
            kept.append(entry)
        passed = self._deadlines_passed(items, timeouts) if timeouts else frozenset()
        due = self._due_times(items)
        try:
            replies = self.handler.handle(items, dict(self.owned), passed=passed, due=due)
        except Fenced as e:
            log.warning("Fenced off: %s", e)
            lost = {item.partition for item in items}
            for p in lost:  # which one is unknown: re-check every lease involved
                self.owned.pop(p, None)
            self.handler.forget()
            return
        except Exception as e:
            if infrastructure(e):  # the store or Redis is down: the entries are not to blame
                self._count_outage(kept)
            raise
        outbox = self._outbox
        if self.handler.seen_reads:  # kept for whoever holds the partition next
            for gid, rid, ts in self.handler.seen_reads:
                key = self.keys.reads(partition_of(gid, self.partitions))
                outbox.add_quiet("ZADD", key, ts, rid)
            self.handler.seen_reads.clear()
        for entry, item, reply in zip(kept, items, replies, strict=True):
            if not isinstance(item.request, TimeoutRequest):
                self._push_reply(outbox, reply, self.handler.encoded(reply))
            if reply.code == "failed":  # the request logic failed on it: it would again
                self._bury(outbox, entry, f"failed: {reply.message}")
        for entry, error in bad:
            if error.request_id:
                self._push_reply(
                    outbox,
                    Reply(
                        request_id=error.request_id, ok=False, code="malformed", message=str(error)
                    ),
                )
            self._bury(outbox, entry, f"malformed: {error}")
        self._announce(outbox)
        acks: dict[int, list[bytes]] = {}
        for entry in entries:
            if entry.raw is not None:
                acks.setdefault(entry.partition, []).append(entry.id)
        for p, ids in acks.items():
            outbox.add_quiet("XACK", self.keys.stream(p), GROUP, *ids)
            if self._outages:
                for i in ids:
                    self._outages.pop(i, None)
            self._last_acked[p] = ids[-1]
        self._batches += 1
        if self._batches % TRIM_EVERY == 0:
            for p, last in self._last_acked.items():
                # Only acknowledged entries go: MINID keeps ``last`` and everything after it.
                outbox.add_quiet("XTRIM", self.keys.stream(p), "MINID", "~", last)
            earliest = signing.now_ms() - signing.WINDOW_MS  # the window refuses older reads
            for p in self.owned:
                outbox.add_quiet("ZREMRANGEBYSCORE", self.keys.reads(p), "-inf", f"({earliest}")
                outbox.add_quiet("ZREMRANGEBYRANK", self.keys.reads(p), 0, -READS_SEEN - 1)
        self.processed += len(items) + len(bad)
        if self.handler.snapshots_due():
            self._flush()  # the replies first: a snapshot is only a shortcut
            self.handler.take_snapshots()

    def _count_outage(self, entries: list[Entry]) -> None:
        """Count a delivery of ``entries`` that failed on the store or Redis: retrying them
        after an outage must not make them look poisoned (``_recover``), answered ``failed``
        when they would have been carried out."""
        if len(self._outages) > MAX_OUTAGE_ENTRIES:  # ids another worker acknowledged since
            self._outages.clear()
        for entry in entries:
            self._outages[entry.id] = self._outages.get(entry.id, 0) + 1

    def _flush(self) -> None:
        """Send what ``_process`` left for the next read now (replies, acknowledgements), and
        wait until Redis ran it (its commands are quiet; a PING is answered after them)."""
        if len(self._outbox):
            batch, self._outbox = self._outbox, Batch()
            batch.add("PING")
            self._channel.send(batch)

    def _push_reply(self, batch: Batch, reply: Reply, data: bytes | None = None) -> None:
        """Push ``reply`` (``data``: its encoding, when the caller has it) to its client."""
        key = self.keys.reply(reply.request_id)
        data = encode(reply) if data is None else data
        batch.add_packed(push_expiring(key, data, REPLY_TTL_MS), 0)  # two quiet commands

    def _announce(self, outbox: Batch) -> None:
        """Publish each changed game's public status; (re)schedule its turn deadline."""
        for gid, change in self.handler.changed.items():
            outbox.add_quiet(
                "PUBLISH",
                self.keys.channel(gid),
                encode({"game_id": gid, "version": change.version, "to_act": change.to_act}),
            )
            if not (change.deadline_ms or change.rescheduled):
                continue  # no deadline, none just removed: nothing to schedule
            if change.same_wait and not change.rescheduled:
                continue  # the seat's turn goes on: its deadline stands
            key = self.keys.deadlines(partition_of(gid, self.partitions))
            if change.deadline_ms and change.to_act is not None:
                outbox.add_quiet("EVALSHA", self._load(SCHEDULE), 1, key, change.deadline_ms, gid)
            else:
                # Without a deadline, none can be scheduled but one just removed (and any left
                # over is dropped by ``_issue_timeouts``).
                outbox.add_quiet("ZREM", key, gid)

    def _deadlines_passed(self, items: list[Item], games: Iterable[str]) -> frozenset[str]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.time()
        names = sorted(games)
        for gid in names:
            pipe.zscore(self.keys.deadlines(partition_of(gid, self.partitions)), gid)
        seconds, micros = (result := pipe.execute())[0]
        now = seconds * 1000 + micros // 1000
        return frozenset(g for g, due in zip(names, result[1:], strict=True) if due and due <= now)

    def _due_times(self, items: list[Item]) -> dict[str, tuple[int | None, int]]:
        """For the views of games with a turn deadline: the turn's due time (None: none is
        scheduled) and Redis's time, in ms, in one round trip (none without such a view)."""
        names = sorted(
            {
                r.game_id
                for it in items
                if isinstance(r := it.request, ViewRequest)
                and r.at is None
                and self.handler.deadline_ms(r.game_id) is not None
            }
        )
        if not names:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        pipe.time()
        for gid in names:
            pipe.zscore(self.keys.deadlines(partition_of(gid, self.partitions)), gid)
        (seconds, micros), *scores = pipe.execute()
        now = seconds * 1000 + micros // 1000
        return {g: (None if s is None else int(s), now) for g, s in zip(names, scores, strict=True)}

    # ------------------------------------------------------------------ leases
    def _lease_value(self, fence: int) -> str:
        return f"{self.id}:{fence}"

    def _load(self, source: str) -> str:
        """The SHA of a script loaded into Redis, for ``evalsha`` in a pipeline (a pipeline
        running a ``Script`` would first ask Redis whether it is loaded: a round trip more)."""
        sha = self._shas.get(source)
        if sha is None:
            sha = self._shas[source] = str(self.redis.script_load(source))
        return sha

    def _script(self, source: str, keys: list[str], args: list[Any], pipe: Any = None) -> Any:
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = self.redis.register_script(source)
        return script(keys=keys, args=args, client=pipe)

    def _tick(self) -> None:
        """Heartbeat, renew the leases held, release or take partitions towards a fair share."""
        self._last_tick = time.monotonic()
        live, now_ms = self._script(HEARTBEAT, [self.keys.workers], [self.id, self.lease_ms])
        for p, fence in list(self.owned.items()):
            if not self._script(
                RENEW, [self.keys.lease(p)], [self._lease_value(fence), self.lease_ms]
            ):
                log.warning("Lost the lease of partition %s", p)
                del self.owned[p]
                self._forget_partition(p)
        share = math.ceil(self.partitions / max(1, int(live)))
        while len(self.owned) > share:
            p = max(self.owned)
            self._script(RELEASE, [self.keys.lease(p)], [self._lease_value(self.owned.pop(p))])
        if len(self.owned) < share:
            # Start at a different partition per worker so that workers spread out.
            first = partition_of(self.id, self.partitions)
            for k in range(self.partitions):
                p = (first + k) % self.partitions
                if len(self.owned) >= share:
                    break
                if p not in self.owned:
                    self._acquire(p)
        self._issue_timeouts(int(now_ms))
        for p, last in self._last_acked.items():  # here, not on each batch: it is rare
            if p in self.owned and _id_key(last)[0] > int(now_ms) + FUTURE_MS:
                self._reset_due.add(p)  # a client pushed its ids to the future: RESET_STREAM

    def _acquire(self, p: int) -> None:
        if self.redis.exists(self.keys.lease(p)):
            return
        stored_fence, _ = self.handler.ledger.ledger_fence(p)
        fence = self._script(
            ACQUIRE,
            [self.keys.lease(p), self.keys.fence(p)],
            [self.id, self.lease_ms, stored_fence + 1],
        )
        if not fence:
            return
        log.info("Worker %s owns partition %s (fence %s)", self.id, p, fence)
        self.owned[p] = int(fence)
        # Another worker may have moved this partition's games since they were cached here.
        self._forget_partition(p)
        self.needs_recovery.add(p)
        self._restore_deadlines(p)
        self._restore_reads(p)

    def _forget_partition(self, p: int) -> None:
        self.handler.forget(lambda g: partition_of(g, self.partitions) != p)

    def _restore_deadlines(self, p: int) -> None:
        """Deadlines survive a Redis restart: re-scheduled (not moved earlier) from the store."""
        pipe = self.redis.pipeline(transaction=False)
        for row in self.handler.ledger.ledger_deadlines():
            if row.deadline_ms and partition_of(row.game_id, self.partitions) == p:
                self._script(
                    SCHEDULE_NX, [self.keys.deadlines(p)], [row.deadline_ms, row.game_id], pipe
                )
        pipe.execute()

    def _restore_reads(self, p: int) -> None:
        """The partition's signed reads answered within the window, whichever worker answered
        them, before a restart too: sent again, they are ``replayed`` here as well.  When the
        set was cut at READS_SEEN, nothing signed before what it kept is fresh."""
        earliest = signing.now_ms() - signing.WINDOW_MS
        rows: list[Any] = self.redis.zrangebyscore(  # (member, score) pairs
            self.keys.reads(p), earliest, "+inf", withscores=True
        )
        full = self.redis.zcard(self.keys.reads(p)) >= READS_SEEN
        self.handler.remember_reads(
            ((rid.decode(), int(ts)) for rid, ts in rows),
            floor=int(rows[0][1]) if full and rows else 0,
        )

    def _issue_timeouts(self, now_ms: int) -> None:
        for p in list(self.owned):
            key = self.keys.deadlines(p)
            due: list[Any] = self.redis.zrangebyscore(key, "-inf", now_ms, start=0, num=100)
            for raw in due:
                gid = raw.decode()
                state = self.handler.state(gid)
                if state is None or to_act(state) is None or not self.handler.deadline_ms(gid):
                    self.redis.zrem(key, gid)
                    continue
                issued = self._issued.get(gid)
                if issued is not None and issued[0] == state.version and issued[1] > now_ms:
                    continue  # issued already; not again before it had time to be processed
                self._issued[gid] = (state.version, now_ms + self.lease_ms)
                request = TimeoutRequest(
                    request_id=timeout_request_id(gid, state.version),
                    game_id=gid,
                    version=state.version,
                )
                try:
                    self.redis.xadd(self.keys.stream(p), {FIELD: encode(request)})
                except redis.ResponseError as e:  # no id left (RESET_STREAM): issued again
                    log.warning("Partition %s refused a timeout: %s", p, e)
                    self._issued.pop(gid, None)
                    self._reset_due.add(p)


def _raw(fields: dict[bytes, bytes] | None) -> bytes | None:
    # No fields at all: an entry trimmed away after it was answered.  Fields without ours: a
    # malformed entry (b"" does not decode).
    return None if not fields else fields.get(FIELD, b"")


def _partition_of_key(stream: bytes | str) -> int:
    text = stream.decode() if isinstance(stream, bytes) else stream
    return int(text[text.rindex("{") + 1 : text.rindex("}")])


def _request_id_of(raw: bytes) -> str:
    """The request id of an entry to dead-letter ("": none can be read); never raises, so an
    entry the worker cannot handle always leaves its partition."""
    try:
        return decode_request(raw).request_id
    except Malformed as e:
        return e.request_id
    except Exception:
        log.exception("No request id read from a dead letter")
        return ""
