"""The wire format between clients and command workers over Redis, and its key names.

A request is one JSON object in the field ``r`` of a stream entry on ``<prefix>:cmd:{p}``, the
partition ``p = crc32(game_id) mod P`` (``P`` is stored at ``<prefix>:config``).  Its ``op``
names its kind (``command`` when absent); every request has a ``request_id`` chosen by the
client, unique per request and reused only to retry it: a write sent again with the same id
and the same content gets the first reply (it is never decided twice); the same id with other
content is refused (``request_id_reused``).  The worker answers with one JSON
``Reply`` pushed to the list ``<prefix>:reply:<request_id>`` (expiring), which the client
awaits with BLPOP.  The ``{p}`` hash tags put every key of a partition in one Redis Cluster
slot, so the lease and deadline scripts of a partition are cluster-safe; a worker's read spans
all its partitions (one XREADGROUP and one pending check), which a Cluster deployment would
have to split by slot: only a single Redis server is supported.

Reply codes: ``ok``; the engine's own rule and setup codes (``not_your_turn``,
``wrong_phase``, ``bad_players``…); ``malformed`` (undecodable request), ``unknown_game``,
``unauthorized`` (missing or wrong token, or a token of another seat), ``request_id_reused``
(the id belongs to a request with other content), ``bad_game_id``, ``game_exists``,
``unknown_seat`` (an owner's action on no playing seat), ``game_not_over`` (an export asked of
a game in progress), ``bad_request`` (a well-formed request the service cannot do),
``stale_timeout`` (a deadline request for a game that moved on), ``bot_stuck``, ``conflict``
(other writers kept taking the game's next version), ``failed`` (the worker could not process
it after several deliveries; it is in the dead-letter stream).
"""

from __future__ import annotations

import zlib
from typing import Any, Literal

import msgspec

from risk_core.model import OptionValue
from risk_service.mapper import EngineCommand

DEFAULT_PREFIX = "risk"
DEFAULT_PARTITIONS = 8
FIELD = b"r"  # the stream entry field holding the request


def partition_of(game_id: str, partitions: int) -> int:
    return zlib.crc32(game_id.encode()) % partitions


class Keys:
    """Every Redis key of one deployment (``prefix``)."""

    def __init__(self, prefix: str = DEFAULT_PREFIX) -> None:
        self.prefix = prefix
        self.config = f"{prefix}:config"
        self.workers = f"{prefix}:workers"  # live workers: a sorted set scored by expiry

    def stream(self, p: int) -> str:
        return f"{self.prefix}:cmd:{{{p}}}"

    def lease(self, p: int) -> str:
        return f"{self.prefix}:lease:{{{p}}}"

    def fence(self, p: int) -> str:
        return f"{self.prefix}:fence:{{{p}}}"

    def dead(self, p: int) -> str:
        return f"{self.prefix}:dead:{{{p}}}"

    def deadlines(self, p: int) -> str:
        return f"{self.prefix}:deadlines:{{{p}}}"

    def reply(self, request_id: str) -> str:
        return f"{self.prefix}:reply:{request_id}"

    def channel(self, game_id: str) -> str:
        """Pub/sub channel announcing each new version of a game (public facts only)."""
        return f"{self.prefix}:game:{game_id}"


GROUP = "workers"


# --------------------------------------------------------------------------- requests
class Head(msgspec.Struct):
    """What every request has; decoded first, leniently, to know how to answer."""

    request_id: str = ""
    op: str = "command"
    game_id: str = ""


class _Request(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    request_id: str
    game_id: str


class CommandRequest(_Request, frozen=True, kw_only=True):
    """A seat's engine command; ``token`` is that seat's secret."""

    op: Literal["command"] = "command"
    seat: int
    token: str
    command: EngineCommand


class ViewRequest(_Request, frozen=True, kw_only=True):
    """The game as ``seat`` sees it (ENG-07), or as a spectator when ``seat`` is None.

    ``also`` names more seats with their tokens (a player commanding several seats): the view
    then shows what any of them sees.  UNSET, never sent, for one seat."""

    op: Literal["view"] = "view"
    seat: int | None = None
    token: str = ""
    at: int | None = None
    also: dict[int, str] | msgspec.UnsetType = msgspec.UNSET


class EventsRequest(_Request, frozen=True, kw_only=True):
    """Events after version ``since`` up to ``upto`` (None: the latest), redacted for
    ``seat`` (None: a spectator) and the seats of ``also``."""

    op: Literal["events"] = "events"
    seat: int | None = None
    token: str = ""
    since: int = 0
    upto: int | None = None
    also: dict[int, str] | msgspec.UnsetType = msgspec.UNSET  # more seats, as in ViewRequest


class NewGameRequest(_Request, frozen=True, kw_only=True):
    """Create a game; seat and owner tokens derive from ``secret`` (``ledger.derive_token``).

    ``commanders`` gives the player commanding a seat (``SeatInfo.commander``) by seat number;
    tokens stay one per seat: a player commanding several seats holds each of their tokens."""

    op: Literal["new"] = "new"
    secret: str
    ruleset: str = "classic"
    players: list[str]
    seed: int | str | None = None
    options: dict[str, OptionValue] = msgspec.field(default_factory=dict)
    ask: list[int] = msgspec.field(default_factory=list)
    commanders: dict[int, str] | msgspec.UnsetType = msgspec.UNSET


class AdminRequest(_Request, frozen=True, kw_only=True):
    """An owner's action: ``bot`` hands ``seat`` to the computer (its token stops working),
    ``human`` gives it back with a new token derived from ``secret``, ``deadline`` sets the turn
    deadline in seconds (None: none)."""

    op: Literal["admin"] = "admin"
    token: str
    action: Literal["bot", "human", "deadline"]
    seat: int | None = None
    level: str = "greedy"
    secret: str = ""
    seconds: float | None = None


class GamesRequest(_Request, frozen=True, kw_only=True):
    """Public summaries of every game (``game_id`` is ignored)."""

    op: Literal["games"] = "games"
    game_id: str = ""


HistoryWhat = Literal["stats", "lineage", "export"]


class HistoryRequest(_Request, frozen=True, kw_only=True):
    """Public facts about a game's history, for anyone: ``stats`` (the dice luck report up to
    ``upto``), ``lineage`` (its branches and ancestors), ``export`` (the whole history as
    ``risk export`` writes it, seeds and hands included: only once the game is over, code
    ``game_not_over`` before)."""

    op: Literal["history"] = "history"
    what: HistoryWhat
    upto: int | None = None


class TimeoutRequest(_Request, frozen=True, kw_only=True):
    """Issued by a worker when a game's turn deadline passed at ``version``: the waiting seat's
    moves are then played by the bot.  Honoured only if the deadline recorded in Redis by the
    workers has really passed and the game is still at ``version``."""

    op: Literal["timeout"] = "timeout"
    version: int


Request = (
    CommandRequest
    | ViewRequest
    | EventsRequest
    | NewGameRequest
    | AdminRequest
    | GamesRequest
    | HistoryRequest
    | TimeoutRequest
)
REQUEST_TYPES: dict[str, type[Any]] = {
    "command": CommandRequest,
    "view": ViewRequest,
    "events": EventsRequest,
    "new": NewGameRequest,
    "admin": AdminRequest,
    "games": GamesRequest,
    "history": HistoryRequest,
    "timeout": TimeoutRequest,
}
WRITES = frozenset({"command", "new", "admin", "timeout"})  # recorded in the ledger


class Reply(msgspec.Struct, kw_only=True, omit_defaults=True):
    request_id: str
    ok: bool
    code: str = "ok"
    message: str = ""
    game_id: str = ""
    version: int = 0
    events: list[Any] | None = None  # as the requesting seat may see them
    data: Any = None  # a view, summaries, tokens...


_head = msgspec.json.Decoder(Head)
_decoders = {op: msgspec.json.Decoder(t) for op, t in REQUEST_TYPES.items()}
_reply = msgspec.json.Decoder(Reply)
_encoder = msgspec.json.Encoder()


class Malformed(ValueError):
    def __init__(self, request_id: str, reason: str) -> None:
        super().__init__(reason)
        self.request_id = request_id


def decode_request(data: bytes) -> Request:
    """The typed request; ``Malformed`` (with the request id when one could be read)."""
    try:
        head = _head.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise Malformed("", f"not a request object: {e}") from None
    rid = head.request_id if 0 < len(head.request_id) <= 128 else ""
    decoder = _decoders.get(head.op)
    if decoder is None:
        raise Malformed(rid, f"unknown op {head.op!r}")
    if not rid:
        raise Malformed("", "request_id must be 1-128 characters")
    try:
        request: Request = decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise Malformed(rid, str(e)) from None
    return request


def encode(obj: Any) -> bytes:
    return _encoder.encode(obj)


def decode_reply(data: bytes) -> Reply:
    return _reply.decode(data)
