"""The client side of the service: send a request, await its reply, retry with the same id.

One round trip per request: the entry is appended (XADD) and the reply awaited (BLPOP) in one
pipeline.  When Redis is unreachable, restarts, or no reply comes within ``attempt`` seconds,
the same request (same ``request_id``) is sent again until ``timeout``: the worker's ledger
answers a repeated write with its first outcome, so retrying never applies a command twice.  A
signed read is not sent twice (the worker refuses it as ``replayed``): it is retried as a new
request, with a new id and signature (``resign``).

Request ids are 128 random bits: a request's reply is pushed to ``<prefix>:reply:<request id>``,
and a client of the locked-down Redis user may pop any reply key it can name, so the id is the
capability to read the reply.  That user cannot read the request streams, the only place ids
appear (``risk_service.redis_acl``).

``seat_key`` turns a seat's (or the owner's) key into its session with the service when the
workers publish the service's key (``risk_service.signing``): the worker then checks one HMAC
per request instead of an Ed25519 signature.  Without a published key (an older service, or
no worker started since Redis was emptied), requests are signed with Ed25519 as before.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import msgspec
import redis

from risk_core import RiskError
from risk_service.protocol import (
    DEFAULT_PREFIX,
    FIELD,
    WRITES,
    Keys,
    Reply,
    Request,
    decode_reply,
    encode,
    game_id_problem,
    partition_of,
    sendable_game_id,
)
from risk_service.wire import Batch, Channel

if TYPE_CHECKING:  # the keys' module is imported by whoever holds a key
    from risk_service.signing import SessionKey, SigningKey


class RemoteError(RiskError):
    """A request the service refused (``code`` is the reply's) or could not answer."""


def new_request_id() -> str:
    return uuid.uuid4().hex


class ServiceClient:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        timeout: float = 30.0,
        attempt: float = 10.0,
    ) -> None:
        self.url = url
        self.keys = Keys(prefix)
        self.timeout = timeout
        self.attempt = attempt
        self.redis = redis.Redis.from_url(url, socket_connect_timeout=2)
        self._channel = Channel(self.redis)
        self._partitions: int | None = None
        self._service_key: str | None = None

    def close(self) -> None:
        self._channel.close()
        self.redis.close()

    def __enter__(self) -> ServiceClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def partitions(self) -> int:
        """The partition count, set by the first worker (waited for while none has started)."""
        if self._partitions is not None:  # read once: every request asks
            return self._partitions
        deadline = time.monotonic() + self.timeout
        while self._partitions is None:
            found = self.redis.get(self.keys.config)
            if found is not None:
                self._partitions = int(found)
            elif time.monotonic() > deadline:
                raise RemoteError(
                    "no_worker",
                    f"No worker has served {_shown(self.url)} yet: start `risk worker`.",
                )
            else:
                time.sleep(0.05)
        return self._partitions

    def service_key(self) -> str | None:
        """The service's published X25519 public key (None: none published, or this Redis user
        may not read it), read once per client."""
        if self._service_key is None:
            try:
                found = self.redis.get(self.keys.service_key)
            except redis.ResponseError:  # a Redis user set up before session keys existed
                found = None
            except redis.RedisError:  # unreachable: signed with Ed25519, and ``call`` retries
                return None
            self._service_key = found.decode() if isinstance(found, bytes) else ""
        return self._service_key or None

    def seat_key(self, key: SigningKey, game_id: str, seat: int) -> SigningKey | SessionKey:
        """What signs requests of ``seat`` (OWNER: the owner) of ``game_id``: ``key``'s session
        with the service when it publishes its key, else ``key`` itself."""
        service = self.service_key()
        return key if service is None else key.session(game_id, seat, service)

    def call(self, request: Request, resign: Callable[[Request], Request] | None = None) -> Reply:
        """The reply to ``request`` (any outcome); ``RemoteError("timeout")`` if none came.

        ``resign`` makes a read sent again a new request: given the request with a new id, it
        returns it signed anew."""
        _check_game_id(request)
        deadline = time.monotonic() + self.timeout
        delay = 0.05
        sent = False
        failure = ""  # why Redis could not be reached, when it could not
        while True:
            if sent and resign is not None:
                request = resign(msgspec.structs.replace(request, request_id=new_request_id()))
            data = encode(request)
            reply_key = self.keys.reply(request.request_id)
            sent = True
            left = deadline - time.monotonic()
            if left <= 0:
                raise RemoteError("timeout", self._no_answer(request, failure))
            try:
                stream = self.keys.stream(partition_of(request.game_id, self.partitions))
                batch = Batch()
                # Quiet: one wake-up, for the reply.  An XADD that failed shows as no reply,
                # and the request is sent again after ``attempt``.
                batch.add_quiet("XADD", stream, "*", FIELD, data)
                batch.add("BLPOP", reply_key, max(0.01, min(self.attempt, left)))
                [popped] = self._channel.send(batch)
            except redis.AuthenticationError as e:  # trying again cannot help
                raise RemoteError(
                    "redis_login",
                    f"Redis at {_shown(self.url)} refused the login: {e}",
                ) from None
            except (redis.ConnectionError, redis.TimeoutError) as e:
                failure = str(e).rstrip(".")
                time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                delay = min(delay * 2, 1.0)
                continue
            if popped is not None:
                return decode_reply(popped[1])
            failure = ""  # Redis answered: no worker did

    def _no_answer(self, request: Request, failure: str) -> str:
        """Why ``request`` got no reply, and what may still become of it."""
        where = f"the service at {_shown(self.url)}"
        if failure:  # Redis itself could not be reached at the last attempt
            said = f"No answer from {where} in {self.timeout:g} s: Redis could not be reached"
            said += f" ({failure})."
        else:
            said = (
                f"No answer from {where} in {self.timeout:g} s: Redis took the request, no "
                "worker answered it (is one running? `risk worker`, `risk serve`)."
            )
        if request.op in WRITES:  # recorded once a worker reads it, however late
            said += (
                " The request may still be carried out by a worker that reads it later (once): "
                "look (`risk show`, `risk log`) before sending it again."
            )
        return said

    def ok(self, request: Request, resign: Callable[[Request], Request] | None = None) -> Reply:
        """The reply to ``request``; ``RemoteError`` with the reply's code if refused."""
        reply = self.call(request, resign)
        if not reply.ok:
            raise RemoteError(reply.code, reply.message or reply.code)
        return reply

    @contextmanager
    def updates(self, game_id: str) -> Iterator[Any]:
        """A subscription to a game's public announcements (``{game_id, version, to_act}``)."""
        pubsub = self.redis.pubsub(  # type: ignore[no-untyped-call,unused-ignore]
            ignore_subscribe_messages=True
        )
        pubsub.subscribe(self.keys.channel(game_id))
        try:
            yield pubsub
        finally:
            pubsub.close()


def _check_game_id(request: Request) -> None:
    """Refuse here a game id the worker could only answer ``malformed`` (too long, a control
    character), as what it is: no game's id, or one a new game may not take."""
    gid = request.game_id
    if request.op == "new" and (problem := game_id_problem(gid)) is not None:
        raise RemoteError("bad_game_id", problem)
    if not sendable_game_id(gid):
        raise RemoteError("unknown_game", f"There is no game {gid!r}.")


def announcement(message: Any) -> dict[str, Any] | None:
    if not message or message.get("type") != "message":
        return None
    data: dict[str, Any] = msgspec.json.decode(message["data"])
    return data


def _shown(url: str) -> str:
    """``url`` for a message: its password hidden (imported here: only errors need it)."""
    from risk_service.stores import without_password

    return without_password(url)
