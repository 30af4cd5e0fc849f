"""risk_service.wire: raw Redis batches, the worker's and the client's round trips."""

from __future__ import annotations

import threading
from typing import Any

import hiredis
import pytest
import redis

from risk_service.wire import _SKIP, Batch, Channel, entry_fields, push_expiring, streams_read


def test_batch_replies_in_order(redis_server: Any) -> None:
    """Every reply of a batch comes back, in order, raw; an entry's fields read as a dict."""
    channel = Channel(redis.Redis.from_url(redis_server.url))
    batch = Batch()
    batch.add("XADD", "s", "*", b"r", b"payload")
    batch.add("RPUSH", "l", "a", 2, 3.5)
    batch.add("LRANGE", "l", 0, -1)
    batch.add("GET", "missing")
    added, pushed, listed, missing = channel.send(batch)
    assert pushed == 3 and listed == [b"a", b"2", b"3.5"] and missing is None
    batch = Batch()
    batch.add("XREAD", "COUNT", 10, "STREAMS", "s", "0")
    [read] = channel.send(batch)
    [(stream, [[entry_id, flat]])] = streams_read(read)
    assert stream == b"s" and entry_id == added and entry_fields(flat) == {b"r": b"payload"}
    assert streams_read(None) == [] and entry_fields(None) is None
    channel.close()


def test_error_reply_keeps_the_connection_in_step(redis_server: Any) -> None:
    """An error reply raises only after the whole batch is read: the next batch's replies are
    its own, and the commands around the failed one ran."""
    channel = Channel(redis.Redis.from_url(redis_server.url))
    batch = Batch()
    batch.add("SET", "k", "v")
    batch.add("INCR", "k")  # not an integer: an error reply
    batch.add("SET", "k2", "v2")
    with pytest.raises(redis.ResponseError, match="not an integer"):
        channel.send(batch)
    batch = Batch()
    batch.add("GET", "k")
    batch.add("GET", "k2")
    assert channel.send(batch) == [b"v", b"v2"]
    assert channel.send(Batch()) == []
    channel.close()


def test_threads_never_share_a_connection(redis_server: Any) -> None:
    """Threads sending through one channel each get their own replies."""
    channel = Channel(redis.Redis.from_url(redis_server.url))
    wrong: list[tuple[int, Any]] = []

    def work(n: int) -> None:
        for i in range(300):
            batch = Batch()
            batch.add("ECHO", f"{n}:{i}")
            batch.add("ECHO", f"{n}:{i}:2")
            replies = channel.send(batch)
            if replies != [f"{n}:{i}".encode(), f"{n}:{i}:2".encode()]:
                wrong.append((n, replies))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    channel.close()
    assert wrong == []


def test_a_lost_connection_is_reopened(redis_server: Any) -> None:
    """A connection that fails raises a connection error and is replaced by the next batch."""
    client = redis.Redis.from_url(redis_server.url)
    channel = Channel(client)
    batch = Batch()
    batch.add("CLIENT", "ID")
    [first] = channel.send(batch)
    client.client_kill_filter(_id=first)
    batch = Batch()
    batch.add("PING")
    with pytest.raises(redis.ConnectionError):
        channel.send(batch)
    batch = Batch()
    batch.add("CLIENT", "ID")
    assert channel.send(batch)[0] != first
    channel.close()


@pytest.mark.parametrize(
    ("key", "value", "ttl"),
    [("risk:reply:ab12", b'{"ok":true}', 120_000), ("é" * 600, b"x" * 5000, 1), ("k", b"", 0)],
)
def test_push_expiring_is_packed_as_hiredis_packs_it(key: str, value: bytes, ttl: int) -> None:
    """``push_expiring``: the bytes of two quiet commands packed by hiredis, at any length."""
    quiet = (
        _SKIP + hiredis.pack_command(c) for c in (("RPUSH", key, value), ("PEXPIRE", key, ttl))
    )
    assert push_expiring(key, value, ttl) == b"".join(quiet)


def test_push_expiring_pushes_quietly_with_an_expiry(redis_server: Any) -> None:
    """Redis runs both commands and answers neither: the next command's reply comes first."""
    client = redis.Redis.from_url(redis_server.url)
    channel = Channel(client)
    batch = Batch()
    batch.add_packed(push_expiring("reply:1", b"data", 60_000), 0)
    batch.add("LRANGE", "reply:1", 0, -1)
    assert channel.send(batch) == [[b"data"]]
    assert 0 < client.pttl("reply:1") <= 60_000
    channel.close()
