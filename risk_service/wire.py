"""Redis round trips for the hot paths: a batch of commands in one write, the replies raw.

redis-py's pipeline packs every command in Python and passes every reply through a callback
(XREADGROUP's and XPENDING's build dicts), several microseconds a command, and the worker sends
half a dozen commands per request.  A ``Batch`` is packed by hiredis (a dependency of ours
already) and its replies come back as the parser gives them: bytes, integers, lists, None, and
dicts where the connection speaks RESP3 (redis-py's default).  The connections are the client's
own pool's, so the URL's options (password, TLS, database, Unix socket) and redis-py's
reconnection apply unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import hiredis
import redis

Arg = str | bytes | int | float
# hiredis's stub types the argument as a tuple of one value; it takes any number of them.
_pack_command: Callable[[tuple[Arg, ...]], bytes] = hiredis.pack_command  # type: ignore[assignment]
_SKIP = _pack_command(("CLIENT", "REPLY", "SKIP"))


class Batch:
    """Commands to send together; ``Channel.send`` returns the replies of those added with
    ``add``, in order."""

    __slots__ = ("packed", "replies")

    def __init__(self) -> None:
        self.packed: list[bytes] = []
        self.replies = 0

    def add(self, *args: Arg) -> None:
        self.packed.append(_pack_command(args))
        self.replies += 1

    def add_packed(self, packed: bytes, replies: int) -> None:
        """Commands packed already (``pack``), answered ``replies`` times."""
        self.packed.append(packed)
        self.replies += replies

    def add_quiet(self, *args: Arg) -> None:
        """A command whose reply Redis never sends (``CLIENT REPLY SKIP``, Redis ≥ 3.2).

        Replies written before a blocking command of the same batch would wake the reader
        once for them and once more for the blocking one's; quiet ones cost no wake-up.  The
        price: an error goes unseen, so only for commands whose failure is harmless or is
        caught otherwise (a lost reply is a client's retry; a lost acknowledgement is a
        redelivery, answered from the ledger).
        """
        self.packed.append(_SKIP)
        self.packed.append(_pack_command(args))

    def __len__(self) -> int:
        return len(self.packed)


class Channel:
    """Raw batches over ``client``'s pool: each thread holds one connection until ``close``
    (taking one from the pool for every batch would cost a poll of the socket each time)."""

    def __init__(self, client: redis.Redis) -> None:
        self._pool = client.connection_pool
        self._local = threading.local()
        # redis-py's connection methods are unannotated: ``Any`` keeps strict typing quiet.
        self._held: list[Any] = []
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        conn: Any = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._pool.get_connection()
            with self._lock:
                self._held.append(conn)
        return conn

    def send(self, batch: Batch) -> list[Any]:
        """The replies of ``batch`` (its quiet commands have none), in order.

        An error reply raises (as ``ResponseError``) once all replies are read, so the
        connection stays in step; a connection failure raises ``redis.ConnectionError`` or
        ``redis.TimeoutError`` and drops the connection (the next batch reconnects)."""
        if not batch.packed:
            return []
        conn = self._connection()
        replies: list[Any] = []
        error: redis.ResponseError | None = None
        try:
            conn.send_packed_command([b"".join(batch.packed)], check_health=False)
            for _ in range(batch.replies):
                try:
                    replies.append(conn.read_response())
                except redis.ResponseError as e:
                    replies.append(e)
                    error = error or e
        except BaseException:
            conn.disconnect()
            raise
        if error is not None:
            raise error
        return replies

    def close(self) -> None:
        with self._lock:
            held, self._held = self._held, []
        for conn in held:
            conn.disconnect()
            self._pool.release(conn)
        self._local = threading.local()


# ``push_expiring``'s fixed parts: RESP (``*<args>``, then ``$<length>`` and each argument).
_BULK = [b"$%d\r\n" % n for n in range(1024)]  # the length line of arguments up to 1 KiB
_RPUSH = _SKIP + b"*3\r\n$5\r\nRPUSH\r\n"
_PEXPIRE = b"\r\n" + _SKIP + b"*3\r\n$7\r\nPEXPIRE\r\n"


def _bulk(n: int) -> bytes:
    return _BULK[n] if n < len(_BULK) else b"$%d\r\n" % n


def push_expiring(key: str, value: bytes, ttl_ms: int) -> bytes:
    """``RPUSH key value`` and ``PEXPIRE key ttl_ms``, both quiet (``Batch.add_quiet``), packed
    as ``pack_command`` packs them, for ``Batch.add_packed(…, 0)``: the worker's reply to each
    request.  Joined here at a third of the cost of packing the two commands by hiredis (it
    formats every length with ``sprintf``)."""
    k = key.encode()
    head = _bulk(len(k))
    ttl = str(ttl_ms).encode()
    return b"".join(
        (
            _RPUSH, head, k, b"\r\n", _bulk(len(value)), value,
            _PEXPIRE, head, k, b"\r\n", _bulk(len(ttl)), ttl, b"\r\n",
        )
    )  # fmt: skip


def pack(*commands: tuple[Arg, ...]) -> bytes:
    """Commands packed once, for a batch that sends the same ones again (``add_packed``)."""
    return b"".join(_pack_command(c) for c in commands)


def streams_read(reply: Any) -> list[tuple[bytes, list[Any]]]:
    """XREAD/XREADGROUP's reply as ``[(stream, [[id, fields], …]), …]``, RESP2 or RESP3."""
    if reply is None:
        return []
    if isinstance(reply, dict):
        return list(reply.items())
    return [(stream, messages) for stream, messages in reply]


def entry_fields(flat: list[bytes] | None) -> dict[bytes, bytes] | None:
    """A stream entry's field list ``[k1, v1, k2, v2…]`` as a dict (None: a trimmed entry)."""
    if flat is None:
        return None
    # Indexed rather than zipped: ``zip``'s ``strict`` keyword costs more than the rest of this.
    return {flat[i]: flat[i + 1] for i in range(0, len(flat) - 1, 2)}
