"""Signed requests and invitations (issue 12: signed commands, invitations): what a signature
covers, how invitations are written and read, and keys kept by the profile."""

from __future__ import annotations

import msgspec
import pytest

from risk_core import RiskError
from risk_core.model import Attack, EndTurn
from risk_service.protocol import CommandRequest, ViewRequest, decode_request, encode
from risk_service.signing import (
    SEAT_KEY,
    Invitation,
    SigningKey,
    Verifier,
    public_key_ok,
    signed_bytes,
)


def command() -> CommandRequest:
    return CommandRequest(request_id="r1", game_id="g", seat=1, command=EndTurn(seat=1))


def test_a_signature_covers_game_seat_request_id_time_and_payload() -> None:
    """issue 12: every seat request is signed over its game, seat, request id and payload;
    changing any of them (or its time) breaks the signature, as the worker checks it after
    decoding the entry."""
    key = SigningKey.generate()
    signed = key.sign(command())
    verify = Verifier().verify
    stored = SEAT_KEY + key.public
    assert verify(stored, signed_bytes(decode_request(encode(signed))), signed.sig)
    changes = {
        "game_id": "h",
        "seat": 2,
        "request_id": "r2",
        "ts": signed.ts + 1,
        "command": EndTurn(seat=2),
    }
    for field, value in changes.items():
        altered = msgspec.structs.replace(signed, **{field: value})
        assert not verify(stored, signed_bytes(altered), signed.sig), field
    other = Attack(seat=1, origin="peru", target="brazil", dice=3)
    assert not verify(
        stored, signed_bytes(msgspec.structs.replace(signed, command=other)), signed.sig
    )
    assert not verify(SEAT_KEY + SigningKey.generate().public, signed_bytes(signed), signed.sig)
    assert not verify(stored, signed_bytes(signed), "")
    assert not verify(stored, signed_bytes(signed), "not base64 at all!")
    assert not verify("sha256$salt$digest", signed_bytes(signed), signed.sig)  # a token hash
    assert not verify(SEAT_KEY + "short", signed_bytes(signed), signed.sig)


def test_extra_seats_sign_the_same_bytes() -> None:
    """A view for several seats: each extra seat signs the request with its entry of ``also``
    emptied, so every signature covers the same bytes, whatever order ``also`` is in."""
    a, b = SigningKey.generate(), SigningKey.generate()
    request = a.sign(ViewRequest(request_id="v", game_id="g", seat=0, also={2: "", 1: ""}))
    also = {2: b.signature(request), 1: "x"}
    filled = msgspec.structs.replace(request, also=also)
    reordered = msgspec.structs.replace(request, also={1: "y", 2: also[2]})
    assert signed_bytes(filled) == signed_bytes(request) == signed_bytes(reordered)
    assert Verifier().verify(SEAT_KEY + b.public, signed_bytes(filled), also[2])


def test_invitations_are_written_and_read_back() -> None:
    """An invitation reads back as written; its key depends on its game and seat too (the
    same secret for another seat is another key); anything else is ``bad_invitation``."""
    invitation = Invitation.new("friday.2", 3)
    assert Invitation.parse(f"  {invitation.text}\n") == invitation
    assert invitation.text.startswith("friday.2:3:")
    other_seat = Invitation("friday.2", 4, invitation.secret)
    assert other_seat.public != invitation.public and public_key_ok(invitation.public)
    assert invitation.key.public == invitation.public  # derived again, the same
    for bad in ["", "friday", "friday:x:abc", f"friday:3:{invitation.secret[:-4]}", "::"]:
        with pytest.raises(RiskError) as e:
            Invitation.parse(bad)
        assert e.value.code == "bad_invitation"


def test_profile_keys_read_back_and_old_tokens_are_named() -> None:
    """A key as the profile keeps it reads back; a token kept by an earlier version is
    ``bad_key`` with what to do, never a key that silently fails."""
    key = SigningKey.generate()
    assert SigningKey.from_text(key.text).public == key.public
    with pytest.raises(RiskError) as e:
        SigningKey.from_text("dGhpcyBpcyBhbiBvbGQgdG9rZW4")
    assert e.value.code == "bad_key" and "risk invite" in e.value.message
    with pytest.raises(RiskError) as e:
        SigningKey.from_text("ed25519-private:abc")
    assert e.value.code == "bad_key"
