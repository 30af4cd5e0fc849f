"""Redis users for the service: the workers' and the players', with generated passwords.

``risk serve`` runs its Redis with these users only (the ``default`` user off), and ``risk
setup-redis`` creates them on an operator's own server.  The players' user (``risk-client``)
may only:

* ``XADD`` to the request streams ``<prefix>:cmd:*`` (never read them: no XREAD, XRANGE,
  XREADGROUP, XINFO, KEYS, SCAN or MONITOR, so request ids, public keys and signatures of other
  players' requests stay out of its sight);
* ``BLPOP`` replies ``<prefix>:reply:*`` (a reply's key is its request's id, 128 random bits:
  a client can pop only the replies of requests whose id it knows, its own);
* ``GET <prefix>:config`` (the partition count) and ``<prefix>:service-key`` (the service's
  public key for session signatures, ``risk_service.signing``);
* ``SUBSCRIBE`` to ``<prefix>:game:*`` (public announcements: game, version, seat to act).

What it can still do is add requests (each is decided on its own: a bad one fails alone and
every request is signed, see ``risk_service.signing``), create keys under those patterns (a
stream at a reply key blocks only that reply, whose id it would have to know), and use memory
by adding requests; a deployment facing strangers would add rate limits in front of Redis.
Redis ≥ 6.2 is enough: no rule here needs the key selectors of Redis 7.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import quote

import redis

from risk_service.protocol import DEFAULT_PREFIX

ADMIN = "risk-admin"  # ``risk serve``'s own server only: everything
WORKER = "risk-worker"
CLIENT = "risk-client"


def rules(user: str, prefix: str = DEFAULT_PREFIX) -> list[str]:
    """The ACL rules of ``user`` (password excluded), as ``ACL SETUSER`` takes them."""
    if user == ADMIN:
        return ["on", "~*", "&*", "+@all"]
    if user == WORKER:
        # Every data command on the service's keys and channels; no server administration
        # (CONFIG, ACL, SHUTDOWN, DEBUG, MONITOR, KEYS...) but CLIENT REPLY, which the
        # worker's batches use to leave replies unanswered.
        return [
            "on", "resetchannels", f"~{prefix}:*", f"&{prefix}:*", "+@all", "-@admin",
            "-@dangerous", "+client|reply",
        ]  # fmt: skip
    if user == CLIENT:
        return [
            "on", "resetchannels", f"~{prefix}:cmd:*", f"~{prefix}:reply:*", f"~{prefix}:config",
            f"~{prefix}:service-key",
            f"&{prefix}:game:*", "-@all", "+xadd", "+blpop", "+get", "+subscribe",
            "+unsubscribe", "+ping", "+client|reply",
        ]  # fmt: skip
    raise ValueError(user)


class Credentials:
    """The generated passwords (and port) of one deployment, in a file only its owner reads,
    so that restarting ``risk serve`` gives the same URLs to hand out."""

    def __init__(self, path: Path, data: dict[str, object]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def load_or_create(cls, path: Path) -> Credentials:
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            data = {}
        fresh = {u: secrets.token_urlsafe(24) for u in (ADMIN, WORKER, CLIENT)}
        passwords = {**fresh, **data.get("passwords", {})}
        creds = cls(path, {**data, "passwords": passwords})
        creds.save()
        return creds

    def password(self, user: str) -> str:
        passwords = self.data["passwords"]
        assert isinstance(passwords, dict)
        return str(passwords[user])

    @property
    def port(self) -> int | None:
        port = self.data.get("port")
        return port if isinstance(port, int) else None

    @port.setter
    def port(self, port: int) -> None:
        self.data["port"] = port
        self.save()

    def save(self) -> None:
        private_write(self.path, json.dumps(self.data, indent=2))

    def acl_file(self, prefix: str = DEFAULT_PREFIX) -> str:
        """An ACL file for ``redis-server --aclfile``: these users, ``default`` off.  Passwords
        are stored as their SHA-256 (``#``), as Redis allows."""
        import hashlib

        lines = ["user default off resetkeys -@all"]
        for user in (ADMIN, WORKER, CLIENT):
            digest = hashlib.sha256(self.password(user).encode()).hexdigest()
            lines.append(" ".join(["user", user, "reset", *rules(user, prefix), f"#{digest}"]))
        return "\n".join(lines) + "\n"


def user_url(host: str, port: int, user: str, password: str, db: int = 0) -> str:
    return f"redis://{quote(user)}:{quote(password)}@{_host(host)}:{port}/{db}"


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def setup(client: redis.Redis, passwords: dict[str, str], prefix: str = DEFAULT_PREFIX) -> None:
    """Create (or reset) the worker and client users on an operator's server."""
    for user, password in passwords.items():
        client.execute_command(  # type: ignore[no-untyped-call,unused-ignore]
            "ACL", "SETUSER", user, "reset", *rules(user, prefix), f">{password}"
        )


def private_write(path: Path, text: str) -> None:
    """Written to a private temporary file and renamed: never readable by others."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
