"""Seat keys, invitations and request signatures (Ed25519, from the ``cryptography`` package).

Who holds what:

* **A seat's key pair** is made on its player's machine when the player joins; the private key
  stays in that player's profile, the service stores the public key (``ed25519:<key>`` in the
  seat's ledger row).  Every request acting or reading as a seat is signed with it.
* **The owner's key pair** is made on the creator's machine by ``new``; its public key rides in
  the creation request, and owner actions (``admin``) are signed with it.
* **An invitation** is a 256-bit secret drawn by the creator's client, one per seat.  The
  service only ever sees the public key derived from it (``invite:<key>`` in the seat's row);
  the secret travels from the creator to the player outside the service (chat, mail, paper).
  Joining sends a ``claim``: the player's new seat public key, signed with the invitation's
  private key.  The row then becomes ``ed25519:<seat key>``: the invitation is spent.

So no bearer secret ever crosses Redis: a reader of the request streams sees public keys and
signatures.  It cannot act for a seat (it has no private key), cannot claim an open seat for
itself (a claim binds the seat key it names, and only the invitation's holder can sign it), and
cannot alter a request (the signature covers every field).  What it can do is send a request
it saw again: a write sent again is answered from the ledger and never applied twice (the
retry contract); a read sent again is refused (``replayed``) by the worker that answered it;
and any signed request older than ``WINDOW_MS`` by the worker's clock is refused
(``stale_request``), so an old request cannot be replayed later to read a seat's new cards.

**Session signatures** (``SessionKey``) spare the worker an Ed25519 check per request.  The
service has an X25519 key pair (``ServiceKey``; its private half in the store, its public half
published in Redis).  A seat's key derives an X25519 key of its own from its private key, signs
once, with Ed25519, a *binding* of that X25519 public key to its game, seat and the service's
public key, and both sides compute the same MAC key by X25519 agreement: it never crosses
Redis, so what a reader of the streams sees is still public keys and authentication codes.
Each request then carries ``s1.<HMAC-SHA256 of signed_bytes>.<X25519 public key>.<binding
signature>``; the worker checks the binding (Ed25519, against the seat's stored key) the first
time it sees it, keeps the agreed MAC key, and checks each later request with one HMAC.  The
MAC covers the same bytes as a signature, so the time window and replay refusals hold as they
are, and a revoked seat key stops its sessions too (the binding is checked against the key the
seat holds now).  A session signature is good only for requests acting as a seat or the owner
(creations and claims are signed with Ed25519), and only with the service key it was made for.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from risk_core import RiskError
from risk_core.names import whole_number

DOMAIN = b"risk-request-v1\0"  # signatures of requests can never pass for anything else
SEAT_KEY = "ed25519:"  # a claimed seat's row: its public key
INVITED = "invite:"  # an open invitation's row: the invitation's public key
WINDOW_MS = 10 * 60_000  # a signed request is honoured this long before or after its time
_PRIVATE = "ed25519-private:"  # a private key as the profile keeps it
SESSION = "s1."  # a session signature: s1.<mac>.<X25519 public key>.<binding signature>
_SESSION_DOMAIN = b"risk-session-v1\0"  # what a binding signature covers starts so
SESSIONS_KEPT = 100_000  # session MAC keys a worker keeps
_UNSEEN: Any = object()  # a session not in ``Verifier``'s cache

R = TypeVar("R", bound=msgspec.Struct)


def _replaced(request: R, **changes: Any) -> R:
    """``request`` with ``changes`` (``msgspec.structs.replace``; fields passed through a
    mapping, which every msgspec version's stubs accept for any request type)."""
    return msgspec.structs.replace(request, **changes)


_URLSAFE = bytes.maketrans(b"+/", b"-_")
_unsigned = msgspec.structs.replace  # a request with fields changed (its signatures emptied)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class SigningKey:
    """A private key (a seat's, the owner's or an invitation's) and its public half."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes_raw()
        self.public = b64(raw)

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> SigningKey:
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @classmethod
    def from_text(cls, text: str) -> SigningKey:
        """A key as ``text`` wrote it; ``bad_key`` for anything else (a token kept by an
        earlier version of the profile, say)."""
        if not text.startswith(_PRIVATE):
            raise RiskError(
                "bad_key",
                "Your profile holds a secret of an earlier version for this seat, not a key: "
                "ask the game's owner for a new invitation (`risk invite GAME SEAT --renew`).",
            )
        try:
            return cls.from_seed(unb64(text.removeprefix(_PRIVATE)))
        except ValueError:
            raise RiskError("bad_key", "A key of your profile is damaged.") from None

    @property
    def text(self) -> str:
        raw = self._private.private_bytes_raw()
        return _PRIVATE + b64(raw)

    def sign(self, request: R, *, stamp: bool = True) -> R:
        """``request`` with ``sig`` set (and ``ts`` set to now first, unless ``stamp`` is
        false): its signature over ``signed_bytes``."""
        if stamp:
            request = _replaced(request, ts=now_ms())
        sig = b64(self._private.sign(signed_bytes(request)))
        return _replaced(request, sig=sig)

    def signature(self, request: Any) -> str:
        """This key's signature of ``request`` as it is (for a view's extra seats)."""
        return b64(self._private.sign(signed_bytes(request)))

    def session(self, game_id: str, seat: int, service_public: str) -> SessionKey:
        """This key's session with the service whose X25519 public key is ``service_public``,
        acting as ``seat`` of ``game_id`` (OWNER: the owner); ``bad_key`` if that is no key."""
        return SessionKey(self, game_id, seat, service_public)


def _binding(game_id: str, seat: int, dh_public: str, service_public: str) -> bytes:
    """What a seat key signs to bind its session key to one game, seat and service."""
    return _SESSION_DOMAIN + f"{game_id}\0{seat}\0{dh_public}\0{service_public}".encode()


def _mac_key(shared: bytes, binding: bytes) -> bytes:
    """The MAC key of a session: the X25519 shared secret, bound to everything the binding
    names (HMAC-SHA256 as the key derivation)."""
    return hmac.new(shared, binding, hashlib.sha256).digest()


class _Mac:
    """HMAC-SHA256 under one key (RFC 2104), its padded key hashed once: per message, two
    copies of a SHA-256 state instead of ``hmac.digest``'s key set-up (a fifth of the cost)."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        assert len(key) <= 64  # a SHA-256 block: longer keys would be hashed first
        padded = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in padded))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in padded))

    def text(self, message: bytes) -> bytes:
        """The MAC of ``message``, as it is written in a signature (unpadded base64url)."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        # ``base64.urlsafe_b64encode`` without its two Python calls; a 32-byte digest is 43
        # characters and one "=" to strip.
        return binascii.b2a_base64(outer.digest(), newline=False).translate(_URLSAFE)[:-1]


class SessionKey:
    """A seat's key in session with the service: requests authenticated by HMAC-SHA256 under a
    key agreed by X25519 (see the module docstring); the same ``sign``/``signature`` as
    ``SigningKey``."""

    def __init__(self, key: SigningKey, game_id: str, seat: int, service_public: str) -> None:
        # Derived from the seat's private key: every process of the player makes the same
        # session, so the worker checks its binding once, not once per command.
        seed = hmac.new(key._private.private_bytes_raw(), b"risk-session-dh", "sha256").digest()
        dh = X25519PrivateKey.from_private_bytes(seed)
        dh_public = b64(dh.public_key().public_bytes_raw())
        binding = _binding(game_id, seat, dh_public, service_public)
        try:
            service = X25519PublicKey.from_public_bytes(unb64(service_public))
            shared = dh.exchange(service)
        except ValueError:
            raise RiskError("bad_key", "The service's published key is not a key.") from None
        self.public = key.public
        self._key = _mac_key(shared, binding)
        self._mac = _Mac(self._key)
        self._suffix = f".{dh_public}.{b64(key._private.sign(binding))}"

    def sign(self, request: R, *, stamp: bool = True) -> R:
        if stamp:
            request = _replaced(request, ts=now_ms())
        return _replaced(request, sig=self.signature(request))

    def signature(self, request: Any) -> str:
        return SESSION + self._mac.text(signed_bytes(request)).decode() + self._suffix


class ServiceKey:
    """The service's X25519 key pair, from its 32-byte secret (kept in the store)."""

    def __init__(self, secret: bytes) -> None:
        self._private = X25519PrivateKey.from_private_bytes(secret)
        self.public = b64(self._private.public_key().public_bytes_raw())

    def agree(self, dh_public: str) -> bytes | None:
        """The shared secret with a session's X25519 public key (None: not a usable key)."""
        try:
            return self._private.exchange(X25519PublicKey.from_public_bytes(unb64(dh_public)))
        except ValueError:
            return None


def signed_bytes(request: Any) -> bytes:
    """What a signature covers: the request's canonical encoding (msgspec's, fields in their
    declared order) with every signature emptied: its game, seat, request id, time and
    payload.  The worker re-encodes the request it decoded, so any change of a value in the
    stream entry changes these bytes."""
    encode = _encode or _load_encode()
    # Most requests have no ``also`` field: looked up by name first, as ``getattr``'s default
    # would cost an AttributeError made and dropped for every command.
    if "also" not in request.__struct_fields__ or request.also is msgspec.UNSET:
        # Only ``sig`` to empty (if it is not already).
        return DOMAIN + encode(request if request.sig == "" else _unsigned(request, sig=""))
    also = request.also
    return DOMAIN + encode(_unsigned(request, sig="", also=dict.fromkeys(sorted(also), "")))


_encode: Callable[[Any], bytes] | None = None  # ``protocol.encode``, once ``_load_encode`` ran


def _load_encode() -> Callable[[Any], bytes]:
    """``risk_service.protocol.encode``, imported when first needed rather than with this
    module (the command line's light commands import this one alone), and kept: an import
    statement in ``signed_bytes`` would run the import machinery for every request."""
    global _encode
    from risk_service.protocol import encode

    _encode = encode
    return encode


class Verifier:
    """Checks signatures against stored public keys, keeping each key parsed once."""

    def __init__(self, service: Callable[[], ServiceKey] | None = None) -> None:
        self._keys: dict[str, Ed25519PublicKey | None] = {}
        self._service = service  # the service's key, loaded when first needed
        # Session MAC keys (None: a binding that failed), by stored key, binding, game and seat.
        self._sessions: dict[tuple[str, str, str, str, int], _Mac | None] = {}

    def public(self, stored: str | None) -> Ed25519PublicKey | None:
        """The seat key of a ledger row's ``hash`` (None: not a claimed seat's)."""
        if stored is None or not stored.startswith((SEAT_KEY, INVITED)):
            return None
        key = self._keys.get(stored, False)
        if key is False:
            try:
                raw = unb64(stored.split(":", 1)[1])
                key = Ed25519PublicKey.from_public_bytes(raw)
            except ValueError:
                key = None
            if len(self._keys) > 100_000:
                self._keys.clear()
            self._keys[stored] = key
        return key  # type: ignore[return-value]

    def verify(
        self,
        stored: str | None,
        message: bytes,
        sig: str,
        *,
        game_id: str | None = None,
        seat: int | None = None,
    ) -> bool:
        """Whether ``sig`` is the signature of ``message`` by the stored key: an Ed25519 one,
        or, given the game and seat it acts as, a session's (``SessionKey``)."""
        if sig.startswith(SESSION):
            if game_id is None or seat is None or self._service is None:
                return False
            return self._verify_session(stored, message, sig, game_id, seat)
        key = self.public(stored)
        if key is None or not sig:
            return False
        try:
            key.verify(unb64(sig), message)
        except (InvalidSignature, ValueError):
            return False
        return True

    def _verify_session(
        self, stored: str | None, message: bytes, sig: str, game_id: str, seat: int
    ) -> bool:
        parts = sig.removeprefix(SESSION).split(".")
        if len(parts) != 3 or stored is None or not stored.startswith(SEAT_KEY):
            return False
        mac, dh_public, bound = parts
        # Keyed by the seat's stored key too: a key revoked since ends its sessions.
        cache = (stored, dh_public, bound, game_id, seat)
        key = self._sessions.get(cache, _UNSEEN)
        if key is _UNSEEN:
            key = None
            binding = _binding(game_id, seat, dh_public, self._service_key().public)
            if self.verify(stored, binding, bound):
                shared = self._service_key().agree(dh_public)
                key = None if shared is None else _Mac(_mac_key(shared, binding))
            if len(self._sessions) > SESSIONS_KEPT:
                self._sessions.clear()
            self._sessions[cache] = key
        return isinstance(key, _Mac) and hmac.compare_digest(mac.encode(), key.text(message))

    def _service_key(self) -> ServiceKey:
        assert self._service is not None
        return self._service()


def public_key_ok(text: str) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(unb64(text))
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- invitations
class Invitation(msgspec.Struct, frozen=True):
    """An invitation to one seat: ``GAME:SEAT:SECRET`` as printed and handed over."""

    game_id: str
    seat: int
    secret: str

    @classmethod
    def new(cls, game_id: str, seat: int) -> Invitation:
        return cls(game_id, seat, b64(os.urandom(32)))

    @classmethod
    def parse(cls, text: str) -> Invitation:
        game_id, _, rest = text.strip().rpartition(":")
        game_id, _, seat = game_id.rpartition(":")
        try:
            secret = unb64(rest)
        except ValueError:
            secret = b""
        if not game_id or whole_number(seat) is None or len(secret) != 32:
            raise RiskError(
                "bad_invitation",
                f"{text[:80]!r} is not an invitation (GAME:SEAT:SECRET, as `risk new` and "
                "`risk invite` print them).",
            )
        return cls(game_id, int(seat), rest)

    @property
    def text(self) -> str:
        return f"{self.game_id}:{self.seat}:{self.secret}"

    @property
    def key(self) -> SigningKey:
        """The invitation's key pair, derived from its secret, its game and its seat: the same
        secret used for another seat or game gives another key."""
        info = f"risk-invitation\0{self.game_id}\0{self.seat}".encode()
        return SigningKey.from_seed(hmac.new(unb64(self.secret), info, hashlib.sha256).digest())

    @property
    def public(self) -> str:
        return self.key.public
