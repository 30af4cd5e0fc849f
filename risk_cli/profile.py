"""The local profile: the private keys of the seats (and games) this user holds on the service.

One JSON file, ``$XDG_CONFIG_HOME/risk/profile.json`` (``~/.config/risk/profile.json``
without XDG_CONFIG_HOME), readable by its owner only (mode 0600, written atomically): a seat's
private key is all it takes to move for that seat.  Keys are made here (``risk join``, ``risk
new``) and never leave this file; the service knows their public halves only
(``risk_service.signing``).  A game's creator keeps the owner's key and the invitations it
printed (each good for one claim), never another player's seat key.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec


class GameEntry(msgspec.Struct):
    players: list[str] = msgspec.field(default_factory=list)
    seats: dict[str, str] = msgspec.field(default_factory=dict)  # seat number → private key
    owner: str | None = None  # the owner's private key
    invites: dict[str, str] = msgspec.field(default_factory=dict)  # seat → invitation printed
    # The game's public commitment (its ``game_started``'s): what tells it from another game of
    # the same id, on another service ("": not known, an entry of an earlier version).
    commitment: str = ""

    def holds_keys(self) -> bool:
        return self.owner is not None or bool(self.seats)


class Profile(msgspec.Struct):
    games: dict[str, GameEntry] = msgspec.field(default_factory=dict)


def profile_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "risk" / "profile.json"


def load() -> Profile:
    path = profile_path()
    try:
        return msgspec.json.decode(path.read_bytes(), type=Profile)
    except FileNotFoundError:
        return Profile()


def save(profile: Profile) -> Path:
    path = profile_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data: Any = msgspec.to_builtins(profile)
    # Written to a private temporary file, then renamed: never a moment with the tokens
    # readable by others, nor a half-written profile.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".profile-")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
