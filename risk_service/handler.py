"""Deciding service requests against the store: authentication, exactly-once, per-seat replies.

``Handler.handle`` takes a batch of requests (in stream order) and returns one reply per
request.  Every request that writes (a command, a new game, an owner's action, a timeout) is
decided on the cached latest state, and the whole batch is stored in **one transaction**: the
events of every game touched, one ledger row per request id (its outcome, rejected or not) and
each partition's fence and stream position (``risk_service.ledger``).  Hence:

* a request id already in the ledger is answered with its stored outcome, never decided again
  (a retry, a redelivery after a crash, a duplicate entry, a second worker), provided the
  request is the same: the ledger keeps a digest of each request beside its outcome, and the
  same id with other content is refused (``request_id_reused``), never given another
  request's reply;
* a conflict anywhere (a game version another writer took, a request id another worker stored
  meanwhile) stores nothing; the batch is then redone one request at a time on fresh state;
* ``Fenced`` (a newer lease holder has written) stores nothing and propagates: the caller must
  stop working on that partition.

A request's own fault never fails another request: whatever the request logic raises while
deciding, storing or reading one request (an engine bug, a value the store cannot hold) makes
that request's reply ``failed`` (the caller dead-letters it), and a batch whose storing failed
so is redone one request at a time without it.  An infrastructure fault (``infrastructure``:
the store or the network is down) is nobody's: it propagates, nothing of the batch is
answered, and the caller retries the whole batch.

Reads (views, logs, listings) are answered after the batch is stored, so they see it.

Replies never carry what the requesting seat may not see (ENG-07): events go through
``visible_events`` for that seat, views through ``view``; a spectator (no seat) sees public
information only.  Every seat request must be signed with that seat's key, owner actions with
the owner's (``risk_service.signing``: only public keys are stored), or authenticated by
that key's session with the service (one HMAC per request once its binding was checked).
Keys are per seat: a player commanding several seats holds the key of each, signs a command
with the key of the seat that acts, and a read with several (``also``: what any of its seats
sees).  A seat gets its key by a claim signed with its invitation; the owner can open a seat
to a new invitation (``invite``), which revokes its key, but never reads as a seat.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import logging
import secrets
import sqlite3
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import redis
from eventsourcing.persistence import DataError, IntegrityError, PersistenceError

import risk_core
from risk_core import GameState, RiskError, RuleError, SeatInfo, bots, looks, to_act
from risk_core.move_groups import acting_moves
from risk_core.views import Viewer, view, visible_events
from risk_service import deadlines, history, ledger, seed_secrecy, signing
from risk_service.app import Game, Play
from risk_service.exchange import export_game
from risk_service.ledger import OWNER, Fenced, LedgerWrite, RequestRow, SeatRow
from risk_service.protocol import (
    WRITES,
    AdminRequest,
    ClaimRequest,
    CommandRequest,
    EventsRequest,
    GamesRequest,
    HistoryRequest,
    Look,
    Malformed,
    NewGameRequest,
    Reply,
    Request,
    TimeoutRequest,
    ViewRequest,
    encode,
    game_id_problem,
)
from risk_service.store import GameService, ServiceError

log = logging.getLogger(__name__)
STATE_CACHE = 1024  # latest states kept by one worker
READS_SEEN = 200_000  # signed reads remembered (``replayed``); beyond, the earliest forgotten
MAX_BOT_MOVES = 10_000  # a bot turn is a few dozen commands; more means a bot that cannot finish
RETRIES = 3  # attempts of one request when other writers keep taking its game's next version


@dataclass(slots=True)
class Item:
    """One stream entry: its partition, position (for the ledger) and decoded request."""

    partition: int
    position: int
    request: Request | Malformed
    seen: bool = False  # redelivered: its request id may be in the ledger already


@dataclass(slots=True)
class Change:
    """What the worker announces and schedules after a game changed."""

    version: int
    to_act: int | None
    deadline_ms: int | None
    rescheduled: bool = False  # the owner's row (its deadline) was written
    # The same seat still acts in the same turn as before the batch: its deadline runs on
    # (a turn deadline is the turn's, not each move's).
    same_wait: bool = False


@dataclass(slots=True)
class _Batch:
    games: dict[str, Play] = field(default_factory=dict)
    rows: list[RequestRow] = field(default_factory=list)
    seats: dict[tuple[str, int], SeatRow] = field(default_factory=dict)
    fences: dict[int, tuple[int, int]] = field(default_factory=dict)
    replies: dict[str, Reply] = field(default_factory=dict)  # by request id, as sent
    requests: dict[str, Request] = field(default_factory=dict)
    encoded: list[tuple[Reply, bytes]] = field(default_factory=list)  # recorded replies' JSON
    # Per game of the batch with a turn deadline: its turn and the seat to act before the
    # batch (``Change.same_wait``).
    waiting: dict[str, tuple[int, int | None]] = field(default_factory=dict)


def _look(state: GameState, viewer: list[int], look: Look) -> dict[str, Any]:
    """``look``'s analysis of ``state`` (``risk_core.looks``: public facts, cheap to give); a
    dry run is checked as the signing seat that must act (or the first signing seat)."""
    if look.kind == "near":
        return looks.neighbours(state, look.origin)
    if look.kind == "odds":
        return looks.odds_facts(state, look.origin, look.target, look.dice, look.stop_at)
    if not viewer:
        raise RuleError(
            "unauthorized", "A dry run is checked as the seat that would attack: ask as it (--as)."
        )
    acting = to_act(state)
    seat = acting if acting in viewer else viewer[0]
    return looks.dry_run(state, seat, look.origin, look.target, look.dice, look.stop_at)


def _reject(request_id: str, code: str, message: str, game_id: str = "") -> Reply:
    return Reply(request_id=request_id, ok=False, code=code, message=message, game_id=game_id)


class Handler:
    """One worker's request logic over a ``GameService`` (not thread-safe: one loop uses it)."""

    def __init__(self, service: GameService, *, chosen_seeds: bool = False) -> None:
        self.service = service
        # Whether a new game may take the seed its request names: a seed its creator chose
        # tells them every seat's cards, missions and dice, so only an operator who trusts
        # every creator (tests, a tournament's referee) allows it (``risk worker --allow-seeds``).
        self.chosen_seeds = chosen_seeds
        self.app = service.application
        self.ledger = ledger.reader(self.app.recorder)
        self._states: OrderedDict[str, GameState] = OrderedDict()
        self._seats: OrderedDict[str, dict[int, SeatRow]] = OrderedDict()
        self._service_key: signing.ServiceKey | None = None
        self._verifier = signing.Verifier(self.service_key)
        # Signed reads answered: request id → signed time (ms), and the same as a heap, the
        # earliest first.  A read sent again is ``replayed``; so is one signed at or before
        # ``_read_floor``, the latest signed time forgotten, so that forgetting (past the
        # window, which refuses those anyway, or beyond READS_SEEN, the earliest first: a
        # player may sign reads without end) never lets one through.  ``seen_reads`` lists
        # the reads answered since the worker took them, to keep in Redis (``remember_reads``
        # gives them back to the worker that next holds the partition, after a restart too).
        self._reads: dict[str, int] = {}
        self._read_times: list[tuple[int, str]] = []
        self._read_floor = 0
        self.seen_reads: list[tuple[str, str, int]] = []  # (game, request id, signed ms)
        self.changed: dict[str, Change] = {}  # games changed by the last ``handle``
        self._passed: frozenset[str] = frozenset()
        # Turn deadlines as the worker read them in Redis for this batch's views: game →
        # (due time or None, Redis time), both in ms (``risk_service.deadlines``).
        self._due: dict[str, tuple[int | None, int]] = {}
        self._timeouts: dict[str, list[deadlines.Timeout]] = {}  # from the ledger, per game
        self._snapshots_due: set[str] = set()  # games that passed a multiple of the interval
        # The JSON of the last ``handle``'s stored replies, by ``id``: encoded once for the
        # ledger, sent as they are (each kept with its reply, so no id is reused meanwhile).
        self._encoded: dict[int, tuple[Reply, bytes]] = {}

    # ------------------------------------------------------------------ caches
    def forget(self, keep: Callable[[str], bool] = lambda game_id: False) -> None:
        """Drop cached games for which ``keep`` is false (another writer may have moved them)."""
        for cache in (self._states, self._seats, self._timeouts):
            for gid in [g for g in cache if not keep(g)]:
                del cache[gid]

    def service_key(self) -> signing.ServiceKey:
        """The service's key for session signatures (from the store, made there if none)."""
        if self._service_key is None:
            self._service_key = signing.ServiceKey(self.ledger.ledger_secret("service-key"))
        return self._service_key

    def deadline_ms(self, game_id: str) -> int | None:
        """The game's turn deadline (None: none set)."""
        owner = self._seat_rows(game_id).get(OWNER)
        return owner.deadline_ms if owner is not None else None

    def state(self, game_id: str) -> GameState | None:
        """The cached latest state of a game (None: no such game); the caller must not change it."""
        return self._state(game_id)

    def _state(self, game_id: str) -> GameState | None:
        state = self._states.get(game_id)
        if state is None:
            try:
                state = self.service.state(game_id)
            except ServiceError as e:
                if e.code == "unknown_game":
                    return None
                raise
        self._states[game_id] = state
        self._states.move_to_end(game_id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)
        return state

    def _seat_rows(self, game_id: str) -> dict[int, SeatRow]:
        rows = self._seats.get(game_id)
        if rows is None:
            rows = self.ledger.ledger_seats(game_id)
        self._seats[game_id] = rows
        self._seats.move_to_end(game_id)
        while len(self._seats) > STATE_CACHE:
            self._seats.popitem(last=False)
        return rows

    def _row(self, batch: _Batch, game_id: str, seat: int) -> SeatRow | None:
        return batch.seats.get((game_id, seat)) or self._seat_rows(game_id).get(seat)

    def _refused(
        self, batch: _Batch, request: Request, signers: Sequence[tuple[int, str]]
    ) -> Reply | None:
        """None when ``request`` is signed by the key of each seat of ``signers`` (seat,
        signature; OWNER: the owner's key) and within the time window; else the refusal."""
        gid = request.game_id
        checks: list[tuple[str, int, str]] = []  # stored key, seat, signature
        for seat, sig in signers:
            row = self._row(batch, gid, seat)
            stored = None if row is None else row.hash
            if stored is None or not stored.startswith(signing.SEAT_KEY):
                return _unauthorized(request, seat, row)
            checks.append((stored, seat, sig))
        if not signers:
            return _unauthorized(request)
        message = signing.signed_bytes(request)
        for stored, seat, sig in checks:
            if not self._verifier.verify(stored, message, sig, game_id=gid, seat=seat):
                return _bad_signature(request)
        return _stale(request)

    def _fresh_read(self, request: ViewRequest | EventsRequest) -> bool:
        """Whether this signed read is seen for the first time (see ``_reads``)."""
        earliest = signing.now_ms() - signing.WINDOW_MS  # the window refuses those before
        reads, times = self._reads, self._read_times
        while times and (len(times) >= READS_SEEN or times[0][0] < earliest):
            signed, forgotten = heapq.heappop(times)
            del reads[forgotten]
            self._read_floor = max(self._read_floor, signed)
        rid, ts = request.request_id, request.ts
        if rid in reads or ts <= self._read_floor:
            return False
        reads[rid] = ts
        heapq.heappush(times, (ts, rid))
        self.seen_reads.append((request.game_id, rid, ts))
        return True

    def remember_reads(self, reads: Iterable[tuple[str, int]], floor: int = 0) -> None:
        """Signed reads answered before (request id, signed ms), as the worker kept them; none
        signed at or before ``floor`` is fresh either (the worker kept only later ones)."""
        for rid, ts in reads:
            if rid not in self._reads:
                self._reads[rid] = ts
                heapq.heappush(self._read_times, (ts, rid))
        self._read_floor = max(self._read_floor, floor)

    # ------------------------------------------------------------------ batches
    def handle(
        self,
        items: Sequence[Item],
        fences: dict[int, int],
        *,
        passed: frozenset[str] = frozenset(),
        due: dict[str, tuple[int | None, int]] | None = None,
    ) -> list[Reply]:
        """One reply per item; writes stored in one transaction (see the module docstring).

        ``fences`` maps each partition in ``items`` to the caller's lease fencing counter;
        ``passed`` names the games whose turn deadline the caller saw pass (by its clock);
        ``due`` gives the games whose views are asked their turn's due time and the clock's
        time (ms; due None: none scheduled), shown in those views.
        Raises ``Fenced`` when a newer lease holder has written for one of them: nothing was
        stored and no reply may be sent.
        """
        self.changed = {}
        self._encoded = {}
        self._passed = passed
        self._due = due or {}
        replies: list[Reply | None] = [None] * len(items)
        writes = [i for i, it in enumerate(items) if _op(it.request) in WRITES]
        if writes and not self._decide_and_store(items, writes, fences, replies, lookup=False):
            for i in writes:  # a conflict: one at a time, each on fresh state
                replies[i] = None
                for _ in range(RETRIES):
                    if self._decide_and_store(items, [i], fences, replies, lookup=True):
                        break
                else:
                    rid = _request_id(items[i].request)
                    replies[i] = _reject(
                        rid, "conflict", "Other writers kept changing the game; retry."
                    )
        return [r if r is not None else self._read(items[i].request) for i, r in enumerate(replies)]

    def give_up(self, items: Sequence[Item], fences: dict[int, int], reason: str) -> list[Reply]:
        """The final answer to each of ``items``, requests the worker gives up on (delivered
        too often without an answer, ``risk_service.worker``).

        A write answered before (stored, then its entry redelivered: the worker died before
        acknowledging it) gets that answer.  Any other write is recorded as ``failed`` in the
        ledger, with the fences, in one transaction: a copy of it still in a stream (a client
        sends a request again while no answer comes) is then answered ``failed`` as well, never
        applied.  A read is answered ``failed``: there is nothing to record.  Store errors and
        ``Fenced`` propagate: nothing was recorded, and nothing may be answered.
        """
        for attempt in range(RETRIES):
            try:
                return self._give_up(items, fences, reason)
            except Fenced:
                raise
            except IntegrityError:  # another worker recorded one of them meanwhile: look again
                if attempt == RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _give_up(self, items: Sequence[Item], fences: dict[int, int], reason: str) -> list[Reply]:
        writes = [it.request for it in items if _op(it.request) in WRITES]
        done = self.ledger.ledger_requests([r.request_id for r in writes])
        batch = _Batch()
        replies: list[Reply] = []
        for item in items:
            request = item.request
            assert not isinstance(request, Malformed)  # the worker dead-letters those itself
            rid = request.request_id
            failed = _reject(rid, "failed", reason, request.game_id)
            if request.op not in WRITES:
                replies.append(failed)
            elif rid in done:
                replies.append(self._again(request, done[rid]))
            elif rid in batch.requests:  # the same request id twice among them
                same = encode(batch.requests[rid]) == encode(request)
                replies.append(batch.replies[rid] if same else _reused(request))
            else:
                batch.replies[rid], batch.requests[rid] = failed, request
                _, stored = _encoded_outcome(failed, request)
                seat = getattr(request, "seat", None)
                seat = seat if isinstance(seat, int) else OWNER
                batch.rows.append(RequestRow(rid, request.game_id, seat, stored))
                position = max(item.position, batch.fences.get(item.partition, (0, 0))[1])
                batch.fences[item.partition] = (fences.get(item.partition, 0), position)
                replies.append(failed)
        if batch.rows:
            self.app.save_batch([], LedgerWrite(fences=batch.fences, requests=batch.rows))
        return replies

    def _decide_and_store(
        self,
        items: Sequence[Item],
        indexes: list[int],
        fences: dict[int, int],
        out: list[Reply | None],
        *,
        lookup: bool,
    ) -> bool:
        """Decide and store the writes at ``indexes``; False (nothing stored) on a conflict.

        Without ``lookup`` only redelivered entries are looked up in the ledger: a request id
        stored before makes the insert fail (primary key), and the retry looks everything up.
        """
        batch = _Batch()
        done = self.ledger.ledger_requests(
            [
                r.request_id
                for i in indexes
                if (lookup or items[i].seen) and not isinstance(r := items[i].request, Malformed)
            ]
        )
        for i in indexes:
            item = items[i]
            request = item.request
            assert not isinstance(request, Malformed)
            rid = request.request_id
            try:
                if rid in done:
                    out[i] = self._again(request, done[rid])
                    continue
                if rid in batch.replies:
                    first = batch.requests[rid]
                    same = encode(first) == encode(request)
                    out[i] = batch.replies[rid] if same else _reused(request)
                    continue
                reply, outcome = self._decide(batch, request)
                stored = None
                if outcome is not None:
                    encoded, stored = _encoded_outcome(outcome, request)
                    batch.encoded.append((outcome, encoded))
            except IntegrityError:
                self._discard(batch)
                raise
            except Exception as e:
                # The request may have advanced its game part-way: nothing of this batch is
                # kept.  The store's fault propagates (the batch is retried); the request's
                # own (an engine bug) fails it alone, the others redone without it.
                self._discard(batch)
                if infrastructure(e):
                    raise
                if len(indexes) > 1:
                    return False
                out[i] = _failed(request, e)
                return True
            out[i] = reply
            if stored is None:  # refused before deciding (unknown game, bad token): not recorded
                continue
            batch.replies[rid] = reply
            batch.requests[rid] = request
            seat = getattr(request, "seat", None)
            batch.rows.append(
                RequestRow(rid, request.game_id, seat if isinstance(seat, int) else OWNER, stored)
            )
            fence = fences.get(item.partition, 0)
            position = max(item.position, batch.fences.get(item.partition, (0, 0))[1])
            batch.fences[item.partition] = (fence, position)
        if not batch.rows:
            return True
        write = LedgerWrite(
            fences=batch.fences, requests=batch.rows, seats=list(batch.seats.values())
        )
        try:
            saved = self.app.save_batch(list(batch.games.values()), write)
        except Fenced:
            self._discard(batch)
            raise
        except IntegrityError:
            self._discard(batch)
            return False
        except Exception as e:
            self._discard(batch)
            if infrastructure(e):
                raise
            # A value of one request the store cannot hold: found by storing each alone.
            if len(indexes) > 1:
                return False
            [i] = indexes  # the only request of the batch
            failing = items[i].request
            assert not isinstance(failing, Malformed)
            out[i] = _failed(failing, e)
            return True
        except BaseException:
            self._discard(batch)
            raise
        self._snapshots_due |= saved
        for reply, encoded in batch.encoded:
            self._encoded[id(reply)] = (reply, encoded)
        for (gid, seat), row in batch.seats.items():
            self._seat_rows(gid)[seat] = row
        for gid, game in batch.games.items():
            self._states[gid] = game.state
            owner = self._seat_rows(gid).get(OWNER)
            deadline = owner.deadline_ms if owner is not None else None
            rescheduled = (gid, OWNER) in batch.seats
            acting = to_act(game.state)
            same = batch.waiting.get(gid) == (game.state.turn, acting) and acting is not None
            self.changed[gid] = Change(
                game.state.version, acting, deadline, rescheduled, same_wait=same
            )
        return True

    def encoded(self, reply: Reply) -> bytes:
        """``encode(reply)``: for a reply of the last ``handle`` stored as an outcome, the
        bytes encoded for the ledger."""
        found = self._encoded.get(id(reply))
        return found[1] if found is not None and found[0] is reply else encode(reply)

    def snapshots_due(self) -> bool:
        """Whether the last batches reached a version at which a snapshot is taken."""
        return bool(self._snapshots_due)

    def take_snapshots(self) -> None:
        """A snapshot of each game whose stored events passed a multiple of
        ``SNAPSHOT_INTERVAL`` since the last call, left until the replies are sent.  It is the
        cached latest state, at whatever version the game reached (a snapshot may be at any
        version): no replay at all."""
        due, self._snapshots_due = self._snapshots_due, set()
        for gid in sorted(due):
            state = self._states.get(gid)
            if state is not None:  # evicted from the cache meanwhile: the next interval's turn
                self.app.put_snapshot(gid, state)

    def _discard(self, batch: _Batch) -> None:
        # Deciding advanced the cached states in place; what was not stored must not linger.
        for gid in batch.games:
            self._states.pop(gid, None)
        for gid, _ in batch.seats:
            self._seats.pop(gid, None)

    def _game(self, batch: _Batch, game_id: str, state: GameState) -> Play:
        game = batch.games.get(game_id)
        if game is None:
            if self.deadline_ms(game_id) is not None:  # only a deadline needs who waited
                batch.waiting[game_id] = (state.turn, to_act(state))  # before the batch moves it
            game = batch.games[game_id] = Play(game_id, state)  # advances the cached state
        return game

    # ------------------------------------------------------------------ writes
    def _decide(self, batch: _Batch, request: Request) -> tuple[Reply, Reply | None]:
        """The reply, and the outcome to record (None: refused, nothing to record)."""
        if isinstance(request, NewGameRequest):
            return self._new(batch, request)
        game = batch.games.get(request.game_id)
        state = game.state if game is not None else self._state(request.game_id)
        if state is None:
            reply = _reject(
                request.request_id, "unknown_game", f"There is no game '{request.game_id}'."
            )
            return reply, None
        if isinstance(request, CommandRequest):
            return self._command(batch, request, state)
        if isinstance(request, AdminRequest):
            return self._admin(batch, request, state)
        if isinstance(request, ClaimRequest):
            return self._claim(batch, request, state)
        if isinstance(request, TimeoutRequest):
            return self._timeout(batch, request, state)
        raise AssertionError(f"not a write: {request!r}")

    def _command(
        self, batch: _Batch, request: CommandRequest, state: GameState
    ) -> tuple[Reply, Reply | None]:
        rid, gid = request.request_id, request.game_id
        refused = self._refused(batch, request, [(request.seat, request.sig)])
        if refused is not None:
            return refused, None
        if request.command.seat != request.seat:  # signed so: a client's mistake
            return _unauthorized(request), None
        game = self._game(batch, gid, state)
        try:
            played = game.play(request.command)  # ENG-01: decided once, its dice rolled here
        except RuleError as e:
            reply = _reject(rid, e.code, e.message, gid)
            reply.version = state.version
            return reply, reply
        # A new list: ``played`` is the command's record in ``game``, the bots' moves records
        # of their own.
        events = played + self._bots(batch, game)
        reply = Reply(
            request_id=rid,
            ok=True,
            game_id=gid,
            version=game.state.version,
            events=self._shown(gid, events, request.seat),
        )
        return reply, reply

    def _shown(
        self, gid: str, events: list[risk_core.Event], viewer: Viewer
    ) -> list[dict[str, Any]]:
        """``events`` as ``viewer`` may see them, a revealed seed of a game ``gid`` branches
        from withheld while that game is not over (``seed_secrecy``)."""
        return seed_secrecy.withhold(self.service, gid, visible_events(events, viewer))

    def _bots(self, batch: _Batch, game: Play) -> list[risk_core.Event]:
        """Moves of seats handed to the computer, while one of them must act."""
        played: list[risk_core.Event] = []
        for _ in range(MAX_BOT_MOVES):
            seat = to_act(game.state)
            row = None if seat is None else self._row(batch, game.id, seat)
            if row is None or row.bot is None:
                return played
            played += self._bot_move(game, row.bot)
        raise RiskError("bot_stuck", f"The bots of game {game.id} did not finish their turn.")

    def _bot_move(self, game: Play, level: str) -> list[risk_core.Event]:
        # Seeded by the version: the same position always gets the same move (deterministic).
        command = bots.choose(game.state, level=level, seed=game.state.version)
        return game.play(command)

    def _timeout(
        self, batch: _Batch, request: TimeoutRequest, state: GameState
    ) -> tuple[Reply, Reply | None]:
        """A turn deadline passed (the worker checked the clock): the waiting seat's moves are
        played by the greedy bot until another seat must act.  The engine never reads a clock;
        these are ordinary recorded commands, the request id ``timeout:<game>:<version>``
        records why they were made, and its outcome which seat timed out and where its moves
        end (``through``): ``risk_service.deadlines`` marks them from there."""
        gid = request.game_id
        seat = to_act(state)
        if gid not in self._passed or state.version != request.version or seat is None:
            return _reject(request.request_id, "stale_timeout", "The game moved on.", gid), None
        game = self._game(batch, gid, state)
        events: list[risk_core.Event] = []
        for _ in range(MAX_BOT_MOVES):
            if to_act(game.state) != seat:
                break
            events += self._bot_move(game, "greedy")
        # The timed-out seat's moves end here: the bots' follow, and so does the next turn's
        # start when its last move ended the turn (that turn is not the timed-out seat's).
        through = request.version + deadlines.own_moves(events, seat)
        events += self._bots(batch, game)
        self._timeouts.pop(gid, None)  # read again from the ledger once this is stored
        reply = Reply(
            request_id=request.request_id,
            ok=True,
            game_id=gid,
            version=game.state.version,
            events=self._shown(gid, events, None),
            data={"timed_out": seat, "through": through},
        )
        return reply, reply

    def _new(self, batch: _Batch, request: NewGameRequest) -> tuple[Reply, Reply | None]:
        rid, gid = request.request_id, request.game_id
        if (problem := game_id_problem(gid)) is not None:
            return _reject(rid, "bad_game_id", problem), None
        if not signing.public_key_ok(request.owner_key):
            return _reject(rid, "bad_request", "The owner key is not an Ed25519 public key."), None
        owner_key = signing.SEAT_KEY + request.owner_key
        if not self._verifier.verify(owner_key, signing.signed_bytes(request), request.sig):
            return _bad_signature(request), None
        if (stale := _stale(request)) is not None:
            return stale, None
        if gid in batch.games or self._state(gid) is not None:
            return _reject(rid, "game_exists", f"There is already a game '{gid}'.", gid), None
        if request.seed is not None and not self.chosen_seeds:
            return _reject(
                rid,
                "seed_refused",
                "This service draws every game's seed itself: a seed its creator chose would "
                "tell them every seat's cards, missions and dice. Leave out --seed (a seeded "
                "game can be played on a store of your own).",
                gid,
            ), None
        seed = request.seed if request.seed is not None else secrets.randbits(64)
        commanders = request.commanders or {}
        if not set(commanders) <= set(range(len(request.players))):
            return _reject(rid, "bad_request", "Commanders must name seats of the game."), None
        if not set(request.ask) <= set(range(len(request.players))):
            return _reject(rid, "bad_request", "Seats that ask must be seats of the game."), None
        players: list[str | SeatInfo] = [
            SeatInfo(
                name=n,
                colour="",  # the rule set's, as for a plain name
                policy="ask" if i in request.ask else "auto",
                commander=commanders.get(i, msgspec.UNSET),
            )
            if i in request.ask or i in commanders
            else n
            for i, n in enumerate(request.players)
        ]
        try:
            events = risk_core.start(
                request.ruleset, players, seed=seed, options=dict(request.options), game_id=gid
            )
            game = Play(gid, (opening := Game.start(gid, events)).state, opening)
        except RiskError as e:
            reply = _reject(rid, e.code, e.message, gid)
            return reply, reply
        batch.games[gid] = game
        seats = [i for i, p in enumerate(game.state.players) if not p.neutral]
        keys = request.invitations
        if not all(signing.public_key_ok(keys.get(seat, "")) for seat in seats):
            del batch.games[gid]
            reply = _reject(rid, "bad_request", "Every seat needs its invitation's public key.")
            return reply, None
        batch.seats[(gid, OWNER)] = SeatRow(gid, OWNER, owner_key)
        for seat in seats:  # each open to its invitation, until claimed
            batch.seats[(gid, seat)] = SeatRow(gid, seat, signing.INVITED + keys[seat])
        reply = Reply(
            request_id=rid,
            ok=True,
            game_id=gid,
            version=game.state.version,
            data={
                "players": [p.name for p in game.state.players],
                "to_act": to_act(game.state),
                "invited": seats,
            },
        )
        return reply, reply

    def _admin(
        self, batch: _Batch, request: AdminRequest, state: GameState
    ) -> tuple[Reply, Reply | None]:
        rid, gid = request.request_id, request.game_id
        refused = self._refused(batch, request, [(OWNER, request.sig)])
        if refused is not None:
            return refused, None
        owner = self._row(batch, gid, OWNER)
        assert owner is not None
        seat = request.seat
        if request.action == "deadline":
            ms = None if request.seconds is None else max(1, round(request.seconds * 1000))
            batch.seats[(gid, OWNER)] = msgspec.structs.replace(owner, deadline_ms=ms)
            game = self._game(batch, gid, state)  # announced, so the worker schedules it
            reply = Reply(request_id=rid, ok=True, game_id=gid, version=state.version)
            return reply, reply
        row = None if seat is None else self._row(batch, gid, seat)
        if seat is None or row is None:
            return _reject(rid, "unknown_seat", f"No playing seat {seat} in {gid}.", gid), None
        if request.action == "bot":
            if request.level not in bots.LEVELS:
                return _reject(
                    rid,
                    "bad_level",
                    f"There is no bot level {request.level!r}: {', '.join(bots.LEVELS)}.",
                ), None
            batch.seats[(gid, seat)] = SeatRow(gid, seat, None, bot=request.level)
            game = self._game(batch, gid, state)
            events = self._bots(batch, game)
            reply = Reply(
                request_id=rid,
                ok=True,
                game_id=gid,
                version=game.state.version,
                events=self._shown(gid, events, None),
            )
            return reply, reply
        # ``invite`` (``human``): the seat is open to a new invitation, whatever held it (a
        # player's key, an earlier invitation, the computer) lost it.  The owner learns nothing
        # of the seat; the request is recorded in the ledger, and the seat's players can tell
        # it was taken from them (their key is refused).
        if not signing.public_key_ok(request.key):
            return _reject(rid, "bad_request", "Give the new invitation's public key."), None
        was = (
            "bot"
            if row.hash is None
            else "key"
            if row.hash.startswith(signing.SEAT_KEY)
            else "invitation"
        )
        batch.seats[(gid, seat)] = SeatRow(gid, seat, signing.INVITED + request.key)
        self._game(batch, gid, state)
        reply = Reply(
            request_id=rid,
            ok=True,
            game_id=gid,
            version=state.version,
            data={"seat": seat, "revoked": was},
        )
        return reply, reply

    def _claim(
        self, batch: _Batch, request: ClaimRequest, state: GameState
    ) -> tuple[Reply, Reply | None]:
        """Joining: the seat's open invitation signed the player's new public key."""
        rid, gid, seat = request.request_id, request.game_id, request.seat
        row = self._row(batch, gid, seat)
        if row is None:
            return _reject(rid, "unknown_seat", f"No playing seat {seat} in {gid}.", gid), None
        stored = row.hash
        if stored == signing.SEAT_KEY + request.key:  # a retry: the seat is that key's already
            name = state.players[seat].name
            return Reply(
                request_id=rid,
                ok=True,
                game_id=gid,
                version=state.version,
                data={"seat": seat, "name": name},
            ), None
        if stored is not None and stored.startswith(signing.SEAT_KEY):
            reply = _reject(
                rid,
                "invitation_claimed",
                f"Seat {seat} of {gid} was claimed already: an invitation is good once. Ask "
                "the owner for a new one if it was not you.",
                gid,
            )
            return reply, None
        if (
            stored is None
            or not stored.startswith(signing.INVITED)
            or not self._verifier.verify(stored, signing.signed_bytes(request), request.sig)
        ):
            reply = _reject(
                rid,
                "bad_invitation",
                f"This is not the invitation open for seat {seat} of {gid} (revoked, or for "
                "another seat or game).",
                gid,
            )
            return reply, None
        if (stale := _stale(request)) is not None:
            return stale, None
        if not signing.public_key_ok(request.key):
            return _reject(rid, "bad_request", "The seat key is not an Ed25519 key.", gid), None
        batch.seats[(gid, seat)] = SeatRow(gid, seat, signing.SEAT_KEY + request.key)
        self._game(batch, gid, state)
        reply = Reply(
            request_id=rid,
            ok=True,
            game_id=gid,
            version=state.version,
            data={"seat": seat, "name": state.players[seat].name},
        )
        return reply, reply

    def _again(self, request: Request, row: RequestRow) -> Reply:
        """The stored outcome of a request decided before, for the same request (same
        content: ``request_id_reused`` otherwise) and the same requester only."""
        recorded = msgspec.json.decode(row.outcome, type=_Recorded)
        if row.game_id != request.game_id:
            return _reused(request)
        # Outcomes stored by earlier versions carry no digest: only their game is compared.
        if recorded.request and not hmac.compare_digest(recorded.request, _digest(request)):
            return _reused(request)
        first = Reply(**{f: getattr(recorded, f) for f in Reply.__struct_fields__})
        # The same content: the same signature too.  Checked again all the same (a key revoked
        # since stops its requests' outcomes too), and only within the window: an old request
        # sent again learns nothing.
        if isinstance(request, CommandRequest):
            if row.seat != request.seat:
                return _unauthorized(request)
            return self._refused(_Batch(), request, [(request.seat, request.sig)]) or first
        if isinstance(request, NewGameRequest):
            owner = self._seat_rows(request.game_id).get(OWNER)
            if owner is None or owner.hash != signing.SEAT_KEY + request.owner_key:
                return _reused(request)
            return _stale(request) or first
        if isinstance(request, AdminRequest):
            return self._refused(_Batch(), request, [(OWNER, request.sig)]) or first
        if isinstance(request, ClaimRequest):
            return _stale(request) or first  # the claimer's retry: its seat is its key's now
        return first  # a timeout: the worker does not wait for its reply

    # ------------------------------------------------------------------ reads
    def _read(self, request: Request | Malformed) -> Reply:
        if isinstance(request, Malformed):
            return _reject(request.request_id, "malformed", str(request))
        try:
            return self._answer(request)
        except Exception as e:
            if infrastructure(e):
                raise
            return _failed(request, e)

    def _answer(self, request: Request) -> Reply:
        rid = request.request_id
        try:
            if isinstance(request, GamesRequest):
                games = [msgspec.to_builtins(s) for s in self.service.games()]
                return Reply(request_id=rid, ok=True, data=games)
            if isinstance(request, HistoryRequest):
                return self._history(request)
            assert isinstance(request, ViewRequest | EventsRequest)
            state = self._state(request.game_id)
            if state is None:
                return _reject(rid, "unknown_game", f"There is no game '{request.game_id}'.")
            signers = _signers(request)
            if signers:
                refused = self._refused(_Batch(), request, signers)
                if refused is not None:
                    return refused
                if not self._fresh_read(request):
                    return _reject(
                        rid, "replayed", "This read was answered already: sign a new one."
                    )
            viewer = sorted({s for s, _ in signers})  # no seat: a spectator
            if isinstance(request, ViewRequest):
                at = request.at
                shown = state if at is None else self.service.state(request.game_id, at=at)
                data = self._with_deadline(view(shown, viewer), request.game_id, at is None)
                if request.moves is True:  # the signers' own moves only: a hand shows in trades
                    data["moves"] = acting_moves(shown, viewer)
                if request.look is not msgspec.UNSET:
                    data["look"] = _look(shown, viewer, request.look)
                return Reply(
                    request_id=rid,
                    ok=True,
                    game_id=request.game_id,
                    version=shown.version,
                    data=data,
                )
            events = self.service.events(request.game_id, upto=request.upto)
            since = max(0, request.since)
            shown_events = self._shown(request.game_id, events[since:], viewer)
            marks = self._timeouts_of(request.game_id, len(events))
            deadlines.mark_events(shown_events, marks, since)
            return Reply(
                request_id=rid,
                ok=True,
                game_id=request.game_id,
                version=len(events),
                events=shown_events,
            )
        except RiskError as e:
            if isinstance(e, ServiceError) and e.code == "bad_store":
                raise  # the store's fault, or a value it cannot hold: ``_read`` tells which
            return _reject(rid, e.code, e.message, request.game_id)

    def _timeouts_of(self, game_id: str, upto: int) -> list[deadlines.Timeout]:
        """The game's timeouts (cached: only a timeout decided here adds one, and a partition
        taken over is forgotten)."""
        marks = self._timeouts.get(game_id)
        state = self._state(game_id)
        if marks is None or state is None or upto > state.version:
            marks = self._timeouts[game_id] = deadlines.timeouts(
                self.ledger, game_id, state.version if state is not None else upto
            )
            while len(self._timeouts) > STATE_CACHE:
                del self._timeouts[next(iter(self._timeouts))]
        return [t for t in marks if t.first <= upto]

    def _with_deadline(self, data: dict[str, Any], game_id: str, latest: bool) -> dict[str, Any]:
        """A view with the game's timeouts up to its version and, at the latest version, the
        turn deadline (its due time and time left from ``due``)."""
        marks = self._timeouts_of(game_id, data["version"])
        if marks:
            data["timeouts"] = deadlines.view_timeouts(marks, data["version"])
        ms = self.deadline_ms(game_id) if latest else None
        if ms is not None and data.get("to_act") is not None:
            due, now = self._due.get(game_id, (None, None))
            if game_id in self.changed and now is not None:
                due = now + ms  # moved in this batch: scheduled anew with its replies
            data["deadline"] = deadlines.deadline_info(ms, due, now)
        return data

    def _history(self, request: HistoryRequest) -> Reply:
        """Public facts only: no token is needed (ENG-07 holds: dice and branches are public,
        and a game's hidden parts are exported only once it is over)."""
        gid = request.game_id
        data: Any
        try:
            if request.what == "stats":
                data = history.luck(self.service, gid, request.upto)
            elif request.what == "lineage":
                data = history.lineage(self.service, gid)
            else:
                data = self._export(gid)
        except ServiceError as e:
            if e.code != "unknown_game":
                raise
            # Said again: the store's own message names where it is kept.
            raise ServiceError("unknown_game", f"There is no game '{gid}'.") from None
        return Reply(
            request_id=request.request_id, ok=True, game_id=gid, data=msgspec.to_builtins(data)
        )

    def _export(self, gid: str) -> str:
        """The finished game's export (``game_not_over`` before: it shows every secret)."""
        state = self._state(gid)
        if state is None:
            raise ServiceError("unknown_game", f"There is no game '{gid}'.")
        if state.phase != "over":
            raise RiskError(
                "game_not_over",
                f"Game {gid} is not over: its export would show hidden cards, missions and "
                "dice to come.",
            )
        held = seed_secrecy.in_play(self.service, gid, [*state.previous_seeds, state.seed])
        live = sorted(set(held.values()))
        if live:
            raise RiskError(
                "seed_in_play",
                f"Game {gid} holds dice seeds of {', '.join(live)}, "
                f"{'a game' if len(live) == 1 else 'games'} it branches from that "
                f"{'is' if len(live) == 1 else 'are'} not over: its export would show the "
                "dice, cards and missions to come there. It can be exported once "
                f"{'that game is' if len(live) == 1 else 'they are'} over.",
            )
        return export_game(self.service, gid).decode()


class _Recorded(Reply, kw_only=True, omit_defaults=True):
    """An outcome as the ledger stores it: the reply, and a digest of the request it answers
    (``_digest``), so that a request id used again for other content is told apart."""

    request: str = ""


def _digest(request: Request) -> str:
    """SHA-256 of the request's canonical encoding (every field, secrets included: the digest
    reveals nothing of 256-bit secrets)."""
    return hashlib.sha256(encode(request)).hexdigest()


def _encoded_outcome(reply: Reply, request: Request) -> tuple[bytes, bytes]:
    """``encode(reply)`` and the ledger's outcome, ``_Recorded``'s encoding of ``reply`` and
    ``request``'s digest, the reply encoded once: the outcome is the reply's own JSON with the
    digest as its last field (a struct's fields are written in order, and the digest is never
    empty, so never left out)."""
    encoded = encode(reply)
    return encoded, encoded[:-1] + b',"request":"' + _digest(request).encode() + b'"}'


def infrastructure(error: BaseException) -> bool:
    """Whether ``error`` is the store's or the network's, nobody's fault (the batch is retried
    as a whole), rather than the fault of the request being handled (it alone fails).

    Store errors arrive as the library's ``PersistenceError``, or as ``ServiceError("bad_store")``
    caused by one; a ``DataError`` among them is a value the store refuses, so a request's.
    """
    if isinstance(error, ServiceError):
        if error.code != "bad_store":
            return False
        error = error.__cause__ or error
    if isinstance(error, DataError | sqlite3.DataError):
        return False
    return isinstance(
        error, PersistenceError | ServiceError | sqlite3.Error | OSError | redis.RedisError
    ) or _driver_error(error)


def _driver_error(error: BaseException) -> bool:
    """A database driver's own error the library did not translate (PostgreSQL's driver is
    optional: it is only checked when imported already)."""
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and (
        isinstance(error, psycopg.Error) and not isinstance(error, psycopg.DataError)
    )


def _failed(request: Request, error: Exception) -> Reply:
    """The reply to a request the request logic failed on (the worker dead-letters it)."""
    log.error("Request %s failed", request.request_id, exc_info=error)
    reason = f"{type(error).__name__}: {str(error)[:300]}"
    return _reject(request.request_id, "failed", reason, request.game_id)


def _op(request: Request | Malformed) -> str:
    return "malformed" if isinstance(request, Malformed) else request.op


def _request_id(request: Request | Malformed) -> str:
    return request.request_id


def _unauthorized(request: Request, seat: int | None = None, row: SeatRow | None = None) -> Reply:
    """``unauthorized``, saying why no key acts for ``seat`` when its row (``row``) tells: a
    player whose key stopped working learns what became of the seat (the owner's actions on
    it are no secret: they are recorded, and its player is meant to notice)."""
    gid = request.game_id
    if seat is None or seat == OWNER:
        why = (
            "No key may act for this seat: it is not claimed (`risk join INVITATION`), its "
            "owner opened it to a new invitation, or the computer plays it."
        )
    elif row is None:
        why = f"No key may act for seat {seat} of {gid}: no player plays it (a neutral army)."
    elif row.hash is None:
        why = (
            f"Seat {seat} of {gid} is played by the computer (its owner's `risk admin {gid} bot "
            f"{seat}`): no key acts for it until the owner opens it to a player again."
        )
    else:
        why = (
            f"Seat {seat} of {gid} is open to an invitation nobody has claimed yet (`risk join "
            "INVITATION`); if you played it, its owner opened it anew and your key no longer "
            "works."
        )
    return _reject(request.request_id, "unauthorized", why, gid)


def _signers(request: Request) -> list[tuple[int, str]]:
    """Who signed a seat's or the owner's request, and with what signature (OWNER: the owner);
    none for any other request."""
    if isinstance(request, CommandRequest):
        return [(request.seat, request.sig)]
    if isinstance(request, AdminRequest):
        return [(OWNER, request.sig)]
    if isinstance(request, ViewRequest | EventsRequest):
        signers = list((request.also or {}).items())
        if request.seat is not None:
            signers.insert(0, (request.seat, request.sig))
        return signers
    return []


def _bad_signature(request: Request) -> Reply:
    return _reject(
        request.request_id,
        "bad_signature",
        "This request is not signed by the key of the seat (or owner) it acts for: forged, "
        "altered, or signed with a revoked key.",
        request.game_id,
    )


def _stale(request: Request) -> Reply | None:
    """The refusal of a signed request made too long ago (or ahead) by the worker's clock."""
    ts = getattr(request, "ts", 0)
    if abs(signing.now_ms() - ts) <= signing.WINDOW_MS:
        return None
    minutes = signing.WINDOW_MS // 60_000
    return _reject(
        request.request_id,
        "stale_request",
        f"This request was signed more than {minutes} minutes from the service's time: "
        "send a new one (or set your clock).",
        request.game_id,
    )


def _reused(request: Request) -> Reply:
    return _reject(
        request.request_id,
        "request_id_reused",
        "This request id was used by another request; use a fresh id.",
        request.game_id,
    )
