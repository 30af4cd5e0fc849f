"""The wire format between clients and command workers over Redis, and its key names.

A request is one JSON object in the field ``r`` of a stream entry on ``<prefix>:cmd:{p}``, the
partition ``p = crc32(game_id) mod P`` (``P`` is stored at ``<prefix>:config``).  Its ``op``
names its kind (``command`` when absent); every request has a ``request_id`` chosen by the
client, unique per request and reused only to retry it: a write sent again with the same id
and the same content gets the first reply (it is never decided twice); the same id with other
content is refused (``request_id_reused``).  The worker answers with one JSON
``Reply`` pushed to the list ``<prefix>:reply:<request_id>`` (expiring), which the client
awaits with BLPOP: clients draw request ids at random (128 bits), and the players' Redis user
cannot read the streams (``risk_service.redis_acl``), so an id is what it takes to read a reply.
Requests acting or reading as a seat, owner actions, creations and claims are signed
(``ts``, ``sig``; ``risk_service.signing``): no secret of a seat or the owner is ever in one.
The ``{p}`` hash tags put every key of a partition in one Redis Cluster slot, so the lease and
deadline scripts of a partition are cluster-safe; a worker's read spans all its partitions (one
XREADGROUP and one pending check), which a Cluster deployment would have to split by slot: only
a single Redis server is supported.

Reply codes: ``ok``; the engine's own rule and setup codes (``not_your_turn``,
``wrong_phase``, ``bad_players``…); ``malformed`` (undecodable request), ``unknown_game``,
``unauthorized`` (the seat has no key: not claimed yet, or played by the computer),
``bad_signature`` (a signature that is not the seat's or owner's key's over this very request:
forged, altered, or signed by another seat), ``stale_request`` (signed more than
``signing.WINDOW_MS`` away from the worker's clock), ``replayed`` (a read sent again),
``bad_invitation`` (a claim not signed by the seat's open invitation), ``invitation_claimed``
(the seat was claimed already), ``request_id_reused`` (the id belongs to a request with other
content), ``bad_game_id``, ``game_exists``,
``unknown_seat`` (an owner's action on no playing seat), ``bad_level`` (a bot level there is
not), ``game_not_over`` (an export asked of
a game in progress), ``bad_request`` (a well-formed request the service cannot do),
``stale_timeout`` (a deadline request for a game that moved on), ``bot_stuck``, ``conflict``
(other writers kept taking the game's next version), ``failed`` (the worker could not process
it: the request logic failed on it, or it was delivered too many times; it is in the
dead-letter stream).

Limits, checked before or while decoding, so that no entry can make decoding fail any other
way than ``Malformed``: a request is at most ``MAX_REQUEST_BYTES``; its request id is 1-128
printable ASCII characters but ``"`` and ``\\`` (it names a Redis key), and a request whose
id cannot be read gets no reply; its game id at most 128 characters, none a control
character; seats 0 to ``MAX_SEAT``; versions within a store's integers (``MAX_VERSION``);
a turn deadline from 0 to ``MAX_DEADLINE_S`` seconds.  Nesting needs no limit of
its own: the types stop it at the first value out of place, and values skipped unread are
bounded by msgspec's recursion guard (``RecursionError``, malformed like the rest).
"""

from __future__ import annotations

import re
import zlib
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from risk_core.model import OptionValue
from risk_service.mapper import EngineCommand

DEFAULT_PREFIX = "risk"
DEFAULT_PARTITIONS = 8
FIELD = b"r"  # the stream entry field holding the request
MAX_REQUEST_BYTES = 64 * 1024  # a request is well under 4 KiB; a new game's, a few
MAX_SEAT = 255
MAX_VERSION = (1 << 63) - 1  # a store's largest integer (SQLite INTEGER, PostgreSQL bigint)
MAX_DEADLINE_S = 366 * 86_400
# Printable ASCII but `"` and `\`: it names the reply's Redis key, and can be read from the
# start of an entry that does not decode (``_leading_id``).
REQUEST_ID = re.compile(r"[!#-\[\]-~]{1,128}")
_LEADING_ID = re.compile(rb'\s*\{\s*"request_id"\s*:\s*"([!#-\[\]-~]{1,128})"')

Seat = Annotated[int, Meta(ge=0, le=MAX_SEAT)]
Version = Annotated[int, Meta(ge=-MAX_VERSION - 1, le=MAX_VERSION)]
GameId = Annotated[str, Meta(max_length=128, pattern=r"^[^\x00-\x1f\x7f]*$")]
# The ids a store gives its games (``GameService.create``); a request may name others, which
# name no game.
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_WIRE_GAME_ID = re.compile(r"[^\x00-\x1f\x7f]{0,128}")


def game_id_problem(game_id: str) -> str | None:
    """Why ``game_id`` is no new game's id (``bad_game_id``'s message), or None."""
    if GAME_ID.fullmatch(game_id):
        return None
    return (
        f"Game id {game_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
        "starting with a letter or digit."
    )


def sendable_game_id(game_id: str) -> bool:
    """Whether a request may carry ``game_id`` (else the worker answers ``malformed``)."""
    return _WIRE_GAME_ID.fullmatch(game_id) is not None


Seed = int | Annotated[str, Meta(max_length=256)]  # any integer: the engine hashes it
Seats = Annotated[dict[Seat, str], Meta(max_length=MAX_SEAT + 1)]


def partition_of(game_id: str, partitions: int) -> int:
    return zlib.crc32(game_id.encode()) % partitions


class Keys:
    """Every Redis key of one deployment (``prefix``)."""

    def __init__(self, prefix: str = DEFAULT_PREFIX) -> None:
        self.prefix = prefix
        self.config = f"{prefix}:config"
        self.workers = f"{prefix}:workers"  # live workers: a sorted set scored by expiry
        # The service's X25519 public key, for session signatures (``risk_service.signing``).
        self.service_key = f"{prefix}:service-key"

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

    def reads(self, p: int) -> str:
        """The signed reads answered (``replayed`` when sent again): a sorted set of request
        ids scored by signed time, the workers' alone."""
        return f"{self.prefix}:reads:{{{p}}}"

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


class _Request(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    request_id: str  # checked against ``REQUEST_ID`` by ``decode_request``
    game_id: GameId


class _Signed(_Request, frozen=True, kw_only=True):
    """A request signed with a seat's or the owner's key (``risk_service.signing``): ``ts``
    is the client's time in ms, ``sig`` the signature over every other field (an Ed25519
    signature, 86 characters, or a session's, 177)."""

    ts: Annotated[int, Meta(ge=0, le=MAX_VERSION)] = 0
    sig: Annotated[str, Meta(max_length=256)] = ""


class CommandRequest(_Signed, frozen=True, kw_only=True):
    """A seat's engine command, signed with that seat's key."""

    op: Literal["command"] = "command"
    seat: Seat
    command: EngineCommand


Name = Annotated[str, Meta(max_length=128)]  # a territory's id, name or abbreviation


class Look(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An analysis of the position a view shows (``risk_core.looks``): ``near`` (``origin``'s
    neighbours), ``odds`` (the facts of attacking ``target`` from ``origin``), ``dry_run``
    (the same, once the attack is checked as the signing seat that must act would make it)."""

    kind: Literal["near", "odds", "dry_run"]
    origin: Name
    target: Name = ""
    dice: Annotated[int, Meta(ge=1, le=16)] | None = None
    stop_at: Annotated[int, Meta(ge=0, le=MAX_VERSION)] = 1


class ViewRequest(_Signed, frozen=True, kw_only=True):
    """The game as ``seat`` sees it (ENG-07), or as a spectator when ``seat`` is None (then
    unsigned).

    ``also`` names more seats with their own signatures of the request (a player commanding
    several seats): the view then shows what any of them sees.  UNSET, never sent, for one
    seat.  ``moves`` (True) asks for the legal moves of the seat that must act too, when it is
    one of the signing seats (``risk moves``; the view's ``moves``, else None); UNSET, never
    sent, otherwise, so that requests signed before it existed verify as they did.  ``look``
    asks for an analysis of the position too (the view's ``look``), for a spectator as for a
    seat (a dry run: the signing seat that must act); UNSET, never sent, otherwise."""

    op: Literal["view"] = "view"
    seat: Seat | None = None
    at: Version | None = None
    also: Seats | msgspec.UnsetType = msgspec.UNSET
    moves: bool | msgspec.UnsetType = msgspec.UNSET
    look: Look | msgspec.UnsetType = msgspec.UNSET


class EventsRequest(_Signed, frozen=True, kw_only=True):
    """Events after version ``since`` up to ``upto`` (None: the latest), redacted for
    ``seat`` (None: a spectator) and the seats of ``also``."""

    op: Literal["events"] = "events"
    seat: Seat | None = None
    since: Version = 0
    upto: Version | None = None
    also: Seats | msgspec.UnsetType = msgspec.UNSET  # more seats, as in ViewRequest


class NewGameRequest(_Signed, frozen=True, kw_only=True):
    """Create a game owned by ``owner_key`` (a public key; the request is signed with its
    private half), each seat open to the invitation whose public key ``invitations`` gives
    (every seat of ``players``; neutral seats ignore theirs).

    ``commanders`` gives the player commanding a seat (``SeatInfo.commander``) by seat number;
    keys stay one per seat: a player commanding several seats joins each of them."""

    op: Literal["new"] = "new"
    owner_key: Annotated[str, Meta(max_length=64)]
    invitations: Seats
    ruleset: str = "classic"
    players: list[str]
    seed: Seed | None = None
    options: dict[str, OptionValue] = msgspec.field(default_factory=dict)
    ask: list[Seat] = msgspec.field(default_factory=list)
    commanders: Seats | msgspec.UnsetType = msgspec.UNSET


class AdminRequest(_Signed, frozen=True, kw_only=True):
    """An owner's action, signed with the owner's key: ``bot`` hands ``seat`` to the computer
    (its key stops working), ``invite`` (or ``human``) opens it to a new invitation whose public
    key is ``key`` (the seat's key, or the previous invitation, stops working), ``deadline`` sets
    the turn deadline in seconds (None: none)."""

    op: Literal["admin"] = "admin"
    action: Literal["bot", "human", "invite", "deadline"]
    seat: Seat | None = None
    level: str = "greedy"
    key: Annotated[str, Meta(max_length=64)] = ""
    seconds: Annotated[float, Meta(ge=0, le=MAX_DEADLINE_S)] | None = None


class ClaimRequest(_Signed, frozen=True, kw_only=True):
    """Joining: ``seat`` takes the public key ``key`` (made on the player's machine); the
    request is signed with the seat's invitation key, never sending the invitation itself."""

    op: Literal["claim"] = "claim"
    seat: Seat
    key: Annotated[str, Meta(max_length=64)]


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
    upto: Version | None = None


class TimeoutRequest(_Request, frozen=True, kw_only=True):
    """Issued by a worker when a game's turn deadline passed at ``version``: the waiting seat's
    moves are then played by the bot.  Honoured only if the deadline recorded in Redis by the
    workers has really passed and the game is still at ``version``.  Its id is
    ``timeout_request_id(game_id, version)``, and no other request may take an id of that form
    (``decode_request``): the ledger keeps one outcome per id, so a request recorded under a
    timeout's id would stop that timeout for good."""

    op: Literal["timeout"] = "timeout"
    version: Version


TIMEOUT_IDS = "timeout:"  # the prefix of timeout requests' ids, and of no other request's


def timeout_request_id(game_id: str, version: int) -> str:
    """The id of the timeout request a worker issues when ``game_id``'s deadline passes at
    ``version``: one per waiting position, so every worker issues the same and the ledger
    keeps one."""
    return f"{TIMEOUT_IDS}{game_id}:{version}"


Request = (
    CommandRequest
    | ViewRequest
    | EventsRequest
    | NewGameRequest
    | AdminRequest
    | ClaimRequest
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
    "claim": ClaimRequest,
    "games": GamesRequest,
    "history": HistoryRequest,
    "timeout": TimeoutRequest,
}
WRITES = frozenset({"command", "new", "admin", "claim", "timeout"})  # recorded in the ledger


class Reply(msgspec.Struct, kw_only=True, omit_defaults=True):
    request_id: str
    ok: bool
    code: str = "ok"
    message: str = ""
    game_id: str = ""
    version: int = 0
    events: list[Any] | None = None  # as the requesting seat may see them
    data: Any = None  # a view, summaries...


_head = msgspec.json.Decoder(Head)
_decoders = {op: msgspec.json.Decoder(t) for op, t in REQUEST_TYPES.items()}
_reply = msgspec.json.Decoder(Reply)
_encoder = msgspec.json.Encoder()


class Malformed(ValueError):
    def __init__(self, request_id: str, reason: str) -> None:
        super().__init__(reason)
        self.request_id = request_id


# What decoding hostile bytes may raise: a ValidationError is a DecodeError, and a
# UnicodeDecodeError (invalid UTF-8 in a string) a ValueError.
_UNDECODABLE = (msgspec.DecodeError, ValueError, RecursionError, OverflowError)


def decode_request(data: bytes) -> Request:
    """The typed request, within the limits above; ``Malformed`` for anything else (with the
    request id when one could be read), whatever the bytes: never another exception."""
    if len(data) > MAX_REQUEST_BYTES:
        raise Malformed(_leading_id(data), f"larger than {MAX_REQUEST_BYTES} bytes")
    try:
        head = _head.decode(data)
    except _UNDECODABLE as e:
        raise Malformed(_leading_id(data), f"not a request object: {_why(e)}") from None
    rid = head.request_id if REQUEST_ID.fullmatch(head.request_id) else ""
    decoder = _decoders.get(head.op)
    if decoder is None:
        raise Malformed(rid, f"unknown op {head.op[:40]!r}")
    if not rid:
        raise Malformed("", "request_id must be 1-128 printable ASCII characters but '\"', '\\'")
    try:
        request: Request = decoder.decode(data)
    except _UNDECODABLE as e:
        raise Malformed(rid, _why(e)) from None
    if rid.startswith(TIMEOUT_IDS) and (
        not isinstance(request, TimeoutRequest)
        or rid != timeout_request_id(request.game_id, request.version)
    ):
        raise Malformed(rid, f"request ids beginning {TIMEOUT_IDS!r} are the turn timeouts'")
    return request


def _leading_id(data: bytes) -> str:
    """The request id of an entry that does not decode, if it comes first (as clients write it)."""
    found = _LEADING_ID.match(data[:256])
    return found[1].decode() if found else ""


def _why(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 (byte {error.start})"
    return str(error)[:200]


def encode(obj: Any) -> bytes:
    return _encoder.encode(obj)


def decode_reply(data: bytes) -> Reply:
    return _reply.decode(data)
