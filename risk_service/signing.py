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
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time
from typing import Any, TypeVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from risk_core import RiskError

DOMAIN = b"risk-request-v1\0"  # signatures of requests can never pass for anything else
SEAT_KEY = "ed25519:"  # a claimed seat's row: its public key
INVITED = "invite:"  # an open invitation's row: the invitation's public key
WINDOW_MS = 10 * 60_000  # a signed request is honoured this long before or after its time
_PRIVATE = "ed25519-private:"  # a private key as the profile keeps it

R = TypeVar("R", bound=msgspec.Struct)


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
            request = msgspec.structs.replace(request, ts=now_ms())  # type: ignore[call-arg]
        sig = b64(self._private.sign(signed_bytes(request)))
        return msgspec.structs.replace(request, sig=sig)  # type: ignore[call-arg]

    def signature(self, request: Any) -> str:
        """This key's signature of ``request`` as it is (for a view's extra seats)."""
        return b64(self._private.sign(signed_bytes(request)))


def signed_bytes(request: Any) -> bytes:
    """What a signature covers: the request's canonical encoding (msgspec's, fields in their
    declared order) with every signature emptied: its game, seat, request id, time and
    payload.  The worker re-encodes the request it decoded, so any change of a value in the
    stream entry changes these bytes."""
    from risk_service.protocol import encode

    changes: dict[str, Any] = {"sig": ""}
    also = getattr(request, "also", msgspec.UNSET)
    if also is not msgspec.UNSET:
        changes["also"] = dict.fromkeys(sorted(also), "")
    return DOMAIN + encode(msgspec.structs.replace(request, **changes))


class Verifier:
    """Checks signatures against stored public keys, keeping each key parsed once."""

    def __init__(self) -> None:
        self._keys: dict[str, Ed25519PublicKey | None] = {}

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

    def verify(self, stored: str | None, message: bytes, sig: str) -> bool:
        key = self.public(stored)
        if key is None or not sig:
            return False
        try:
            key.verify(unb64(sig), message)
        except (InvalidSignature, ValueError):
            return False
        return True


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
        if not game_id or not seat.isdigit() or len(secret) != 32:
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
