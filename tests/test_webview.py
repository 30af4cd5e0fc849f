"""issue 19: `risk view`, the web viewer, without a browser: its data, its server and its export.

The games (made once for the module, in one SQLite store): a finished 3-player demo game, a
branch of it, a game in progress and a game whose first player is named
``<script>alert(1)</script>``.  The server runs as `risk view` in a child process, as a user
runs it; its answers are read with ``urllib``.  tests/test_webview_browser.py drives the page.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner, Result

from risk_cli.main import cli

XSS = "<script>alert(1)</script>"
RUN_CLI = "import sys; from risk_cli.main import cli; sys.exit(cli())"


# --------------------------------------------------------------------------- the games
@dataclass
class Games:
    store: str
    home: Path  # XDG_DATA_HOME for the commands
    finished: str  # a finished demo game
    branch: str  # a branch of it after version 200
    live: str  # a game in progress
    xss: str  # a finished game whose seat 0 is named XSS
    other: str  # a game of no family of the others

    def risk(self, *args: str, code: int = 0) -> Result:
        result = CliRunner().invoke(cli, ["--store", self.store, *args])
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    def json(self, *args: str) -> Any:
        return json.loads(self.risk(*args, "--json").stdout)


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    folder = tmp_path_factory.mktemp("webview")
    store = f"sqlite:///{folder / 'games.db'}"
    (folder / "games.db").touch()
    g = Games(store, folder / "xdg", "", "br", "live", "xss", "")
    os.environ.pop("RISK_SEAT", None)
    g.finished = g.json("demo", "--seed", "2", "--players", "3")["game_id"]
    g.risk("branch", g.finished, "--at", "200", "--id", g.branch)
    g.other = g.json("demo", "--seed", "4", "--players", "3")["game_id"]
    g.risk("new", "--players", "Ann,Bob,Cy", "--seed", "3", "--id", g.live)
    g.risk("new", "--players", f"{XSS},Bob,Cy", "--seed", "5", "--id", g.xss)
    g.risk("bot", g.xss, "--all", "--until-end")
    return g


@pytest.fixture(scope="session")
def napoleon(games: Games) -> str:
    """A finished napoleon-advanced game in the store: each seat holds missions (NAP-ADV-07)."""
    players = ["--players", "Ann,Bob,Cy,Dee", "--seed", "7", "--id", "nap"]
    games.risk("new", "--rules", "napoleon-advanced", *players)
    games.risk("bot", "nap", "--all", "--until-end")
    return "nap"


# --------------------------------------------------------------------------- the server
@dataclass
class Server:
    url: str  # the game's page
    process: subprocess.Popen[str]
    said: str  # the line printed

    @property
    def root(self) -> str:
        return self.url.rsplit("/", 1)[0]

    def get(self, path: str, **headers: str) -> Reply:
        return fetch(self.root + path, "GET", headers)


Reply = tuple[int, dict[str, str], bytes]  # status, headers, body


def fetch(url: str, method: str = "GET", headers: dict[str, str] | None = None) -> Reply:
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@contextmanager
def serving(games: Games, game_id: str, *args: str) -> Iterator[Server]:
    """`risk view GAME --port 0 ARGS…` in a child process until the block ends."""
    env = {**os.environ, "XDG_DATA_HOME": str(games.home), "PYTHONUNBUFFERED": "1"}
    env.pop("RISK_SEAT", None)
    command = [sys.executable, "-c", RUN_CLI, "--store", games.store, "view", game_id]
    process = subprocess.Popen(
        [*command, "--port", "0", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        with selectors.DefaultSelector() as sel:
            assert process.stdout is not None
            sel.register(process.stdout, selectors.EVENT_READ)
            ready = sel.select(timeout=60)
            line = process.stdout.readline() if ready else ""
        found = re.search(r'(http://[^\s"]+)', line)
        assert found, (line, process.poll())
        yield Server(found.group(1), process, line)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def bundle_of(server: Server, game_id: str, since: int = 0) -> Any:
    status, _, body = server.get(f"/{game_id}/data.json?since={since}")
    assert status == 200
    return json.loads(body)


# --------------------------------------------------------------------------- positions
def positions(bundle: dict[str, Any]) -> list[dict[str, Any]]:
    """Every version's position, rebuilt from the frames as the page rebuilds them."""
    out: list[dict[str, Any]] = []
    ids = bundle["meta"]["territories"]
    for f in bundle["frames"]:
        now = dict(out[-1]) if out else {"t": {}, "h": None}
        now["t"] = {**now["t"], **{ids[int(k)]: v for k, v in f.get("t", {}).items()}}
        for key in ("s", "p", "h"):
            if key in f:
                now[key] = f[key]
        out.append(now)
    return out


def keys_in(data: Any) -> set[str]:
    """Every key of every mapping anywhere in ``data``."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_in(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_in(v)}
    return set()


def check_against_show(games: Games, game_id: str, bundle: Any, versions: list[int]) -> None:
    """Owners, armies and each seat's counts at ``versions`` are `risk show --at`'s."""
    at = positions(bundle)
    for version in versions:
        shown = games.json("show", game_id, "--at", str(version))
        mine = at[version - 1]
        assert mine["t"] == {
            t: [cell["owner"], cell["armies"]] for t, cell in shown["territories"].items()
        }, version
        assert [p[:3] for p in mine["p"]] == [
            [p["territories"], p["armies"], p["cards"]] for p in shown["players"]
        ], version
        assert mine["s"][:4] == [shown["turn"], shown["round"], shown["phase"], shown["to_act"]]


# --------------------------------------------------------------------------- tests
def test_every_version_is_the_position_risk_show_gives(games: Games) -> None:
    """issue 19: the page's positions (frames) at several versions are `risk show --at N`'s."""
    with serving(games, games.finished) as server:
        bundle = bundle_of(server, games.finished)
    total = games.json("show", games.finished)["version"]
    assert bundle["version"] == len(bundle["frames"]) == len(bundle["events"]) == total
    check_against_show(games, games.finished, bundle, [1, 2, 60, 200, 333, total])
    assert bundle["over"] is True
    battle = next(e for e in bundle["events"] if e["type"] == "battle")
    assert battle["attack"] and battle["defence"] and "attacks" in battle["line"]  # dice, told


def test_a_spectator_receives_no_hand_and_no_mission(games: Games) -> None:
    """issue 19 / ENG-07: without --as nothing private reaches the page."""
    with serving(games, games.finished) as server:
        status, headers, page = server.get(f"/{games.finished}")
        bundle = bundle_of(server, games.finished)
    assert status == 200 and "default-src 'none'" in headers["Content-Security-Policy"]
    assert not {"hand", "mission", "h", "deck", "seed_state"} & keys_in(bundle)
    assert bundle["meta"]["viewer"] is None


def test_a_seat_receives_its_own_hand_and_nobody_elses(games: Games) -> None:
    """issue 19: --as Ann: Ann's hand and mission at every version, as `risk show --as`."""
    with serving(games, games.finished, "--as", "Ann") as server:
        bundle = bundle_of(server, games.finished)
    at = positions(bundle)
    assert all(set(p["h"]) <= {"0"} for p in at)
    for version in (60, 300, len(at)):
        shown = games.json("show", games.finished, "--as", "Ann", "--at", str(version))
        assert at[version - 1]["h"]["0"]["hand"] == shown["players"][0]["hand"]
        assert at[version - 1]["h"]["0"].get("mission") == shown["players"][0].get("mission")
    assert any(at[v]["h"]["0"]["hand"] for v in range(len(at)))  # some hand was held


def test_a_seat_receives_its_familys_secrets_and_nobody_elses(games: Games, napoleon: str) -> None:
    """ENG-07 / NAP-ADV-07: the missions a napoleon-advanced seat holds are its own secret:
    with --as Ann the page receives Ann's at every version, as `risk show --as Ann` gives them
    (they were left out: only hands and CORE's mission were sent), and no other seat's; a
    spectator receives none.  Risk 2008's hand stars (R08-14), shown to their holder only, come
    the same way."""
    nap = napoleon
    with serving(games, nap, "--as", "Ann") as server:
        mine = positions(bundle_of(server, nap))
    with serving(games, nap) as server:
        public = positions(bundle_of(server, nap))
    assert all(set(p["h"]) <= {"0"} for p in mine)
    assert all(p["h"] is None for p in public)
    for version in (2, len(mine) // 2, len(mine)):
        shown = games.json("show", nap, "--as", "Ann", "--at", str(version))["players"][0]
        assert shown["missions"]  # dealt at version 2
        assert mine[version - 1]["h"]["0"]["missions"] == shown["missions"], version
        assert mine[version - 1]["h"]["0"]["hand"] == shown["hand"], version
    r08 = games.json("demo", "--rules", "risk2008", "--players", "3", "--seed", "2")["game_id"]
    with serving(games, r08, "--as", "0") as server:
        stars = positions(bundle_of(server, r08))
    for version in (60, len(stars)):
        shown = games.json("show", r08, "--as", "0", "--at", str(version))["players"][0]
        assert stars[version - 1]["h"] == {
            "0": {"hand": shown["hand"], "hand_stars": shown["hand_stars"]}
        }, version


def test_only_get_only_the_family_only_the_host(games: Games) -> None:
    """issue 19: read-only, one game's family, loopback by default, no DNS rebinding."""
    with serving(games, games.finished) as server:
        assert server.url.startswith("http://127.0.0.1:")
        for method in ("POST", "PUT", "DELETE", "HEAD"):
            assert fetch(server.url, method)[0] == 405, method
        assert server.get(f"/{games.other}")[0] == 404  # in the store, not of the family
        assert server.get(f"/{games.other}/data.json")[0] == 404
        assert server.get(f"/{games.branch}")[0] == 200  # a branch: one click away
        assert server.get("/_static/viewer.js")[0] == 200
        assert server.get("/_static/../bundle.py")[0] == 404
        assert server.get("/_static/page.html")[0] == 404
        assert server.get(f"/{games.finished}/secret")[0] == 404
        assert server.get(f"/{games.finished}", Host="evil.example:80")[0] == 403
        assert server.get(f"/{games.finished}/data.json?since=x")[0] == 400
        # Digits of other scripts, and numbers int() will not read: 400, not a dropped request.
        for odd in ("%C2%B2", "%D9%A1%D9%A0", "%EF%BC%95", "9" * 5000):
            assert server.get(f"/{games.finished}/data.json?since={odd}")[0] == 400, odd
            diff = f"/{games.finished}/diff.json?with={games.branch}&at={odd}"
            assert server.get(diff)[0] == 400, odd
        status, headers, _ = server.get("/")
        assert status == 200  # urllib follows the redirect to the game's page


def test_every_method_but_get_is_405_with_allow(games: Games) -> None:
    """The server is read-only: every other method, TRACE and names it does not know
    included (they were 501), is 405 with `Allow: GET`, its body empty; HEAD too."""
    methods = ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT", "FOO")
    with serving(games, games.finished) as server:
        host, port = urlsplit(server.url).netloc.rsplit(":", 1)
        for method in methods:
            connection = http.client.HTTPConnection(host, int(port), timeout=20)
            try:
                connection.request(method, urlsplit(server.url).path)
                reply = connection.getresponse()
                assert (reply.status, reply.getheader("Allow")) == (405, "GET"), method
                assert reply.read() == b"", method
            finally:
                connection.close()
        assert server.get(f"/{games.finished}")[0] == 200


def test_a_slow_client_holds_up_nobody_else(games: Games) -> None:
    """Requests are served each in a thread of its own: a client that sends half a request,
    or asks for a game's data and reads none of it, does not stop another client's request
    from being answered at once (one at a time, it waited for their 10 s timeout)."""
    with serving(games, games.finished) as server:
        host, port = urlsplit(server.url).netloc.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=30) as half:
            half.sendall(f"GET /{games.finished} HTTP/1.1\r\nHost: {host}:".encode())
            with socket.socket() as unread:
                unread.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
                unread.connect((host, int(port)))
                request = f"GET /{games.finished}/data.json HTTP/1.1\r\nHost: {host}:{port}\r\n"
                unread.sendall((request + "\r\n").encode())
                started = time.monotonic()
                for path in (f"/{games.finished}", f"/{games.finished}/data.json"):
                    request = urllib.request.Request(server.root + path)
                    with urllib.request.urlopen(request, timeout=5) as reply:
                        assert reply.status == 200 and reply.read()
                assert time.monotonic() - started < 5
            # The half request is answered once it is whole.
            half.sendall(f"{port}\r\n\r\n".encode())
            assert half.recv(100).startswith(b"HTTP/1.0 200")


def test_the_tree_and_the_luck_are_sent(games: Games) -> None:
    """issue 19: the branch tree (parent, branches, where each diverged) and the luck report."""
    with serving(games, games.branch) as server:
        bundle = bundle_of(server, games.branch)
    tree = bundle["lineage"]["tree"]
    assert tree["game_id"] == games.finished
    assert [(c["game_id"], c["at"]) for c in tree["children"]] == [(games.branch, 200)]
    report = games.json("stats", games.branch)
    assert bundle["luck"]["seats"] == report["seats"]


def test_two_games_of_the_family_are_compared_as_risk_diff_does(games: Games) -> None:
    """issue 19: diff.json is `risk diff` of the game and another of its family, at one
    version; a game of another family is refused."""
    with serving(games, games.finished) as server:
        status, _, body = server.get(f"/{games.finished}/diff.json?with={games.branch}&at=200")
        later = json.loads(server.get(f"/{games.finished}/diff.json?with={games.branch}&at=300")[2])
        refused = server.get(f"/{games.finished}/diff.json?with={games.other}&at=200")[0]
    assert status == 200 and json.loads(body)["same"] is True  # the branch point
    expected = games.json("diff", games.finished, games.branch, "--at-a", "300", "--at-b", "201")
    assert later == expected and not later["same"]
    assert refused == 400


def test_a_branch_is_compared_at_the_same_point_of_play(games: Games) -> None:
    """diff.json lines the two games up as `risk diff --at` does: after as many moves, the
    branch's own `branched` record left out.  A branch replaying its parent's commands with
    the same dice is the same game at every point (it was compared at the same raw version,
    one event behind), either way round; past a game's last move, its last version is used."""
    games.risk("branch", games.other, "--at", "120", "--id", "again", "--replay-commands")
    with serving(games, games.other) as server:
        replies = [
            json.loads(server.get(f"/{a}/diff.json?with={b}&at={at}")[2])
            for a, b, at in ((games.other, "again", 200), ("again", games.other, 201))
        ]
        last = games.json("show", "again")["version"]
        past = json.loads(server.get(f"/{games.other}/diff.json?with=again&at=99999")[2])
    assert [(r["a"]["version"], r["b"]["version"], r["same"]) for r in replies] == [
        (200, 201, True),
        (201, 200, True),
    ]
    expected = games.json("diff", games.other, "again", "--at", "200")
    assert replies[0] == expected
    assert past["b"]["version"] == last and past["same"]


def test_a_live_game_is_followed(games: Games) -> None:
    """issue 19: moves played while the page is open reach it (data.json?since=N)."""
    with serving(games, games.live) as server:
        before = bundle_of(server, games.live)
        mover = str(games.json("show", games.live)["to_act"])
        games.risk("bot", games.live, "--as", mover)  # it plays until another seat must act
        after = bundle_of(server, games.live, since=before["version"])
    assert before["over"] is False
    assert after["version"] > before["version"] and after["from"] == before["version"]
    assert len(after["frames"]) == len(after["events"]) == after["version"] - before["version"]
    whole = {**before, "frames": before["frames"] + after["frames"]}
    check_against_show(games, games.live, whole, [before["version"], after["version"]])


def test_export_is_one_file_needing_nothing_else(games: Games, tmp_path: Path) -> None:
    """issue 19: --export writes one self-contained HTML file of a finished game."""
    out = tmp_path / "game.html"
    said = games.risk("view", "--export", games.finished, "-o", str(out)).stdout
    assert str(out) in said
    text = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|/_static)""", text)
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    data = re.search(r'<script id="bundle" type="application/json">(.*?)</script>', text, re.S)
    assert data is not None
    bundle = json.loads(data.group(1))
    assert len(bundle["frames"]) == games.json("show", games.finished)["version"]
    assert not {"hand", "mission", "h"} & keys_in(bundle)


def test_export_refuses_a_game_in_progress(games: Games, tmp_path: Path) -> None:
    """issue 19: only a finished game is exported (`game_not_over`); nothing is written."""
    out = tmp_path / "game.html"
    result = games.risk("view", "--export", games.live, "-o", str(out), code=1)
    assert "[game_not_over]" in result.stderr and not out.exists()
    assert "--export and -o" in games.risk("view", games.live, "-o", str(out), code=2).stderr


def test_player_chosen_strings_are_escaped(games: Games, tmp_path: Path) -> None:
    """issue 19: a player named <script>alert(1)</script> is never markup in page or file."""
    out = tmp_path / "xss.html"
    games.risk("view", "--export", games.xss, "-o", str(out))
    text = out.read_text(encoding="utf-8")
    assert XSS not in text and "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in text
    with serving(games, games.xss) as server:
        _, _, page = server.get(f"/{games.xss}")
        bundle = bundle_of(server, games.xss)
    assert XSS not in page.decode()
    assert bundle["meta"]["players"][0]["name"] == XSS  # as data, shown as text by the page
    assert XSS not in bundle["meta"]["svg"]  # `risk map`'s drawing escapes it


def test_json_gives_the_address_and_the_file(games: Games, tmp_path: Path) -> None:
    """issue 19 / issue 13 (every command takes --json): one line of JSON with the address;
    the export says what it wrote."""
    with serving(games, games.finished, "--json") as server:
        said = json.loads(server.said)
        assert said == {"game_id": games.finished, "url": server.url}
        assert server.get(f"/{games.finished}")[0] == 200
    out = tmp_path / "g.html"
    written = games.json("view", "--export", games.finished, "-o", str(out))
    total = games.json("show", games.finished)["version"]
    assert written == {"game_id": games.finished, "file": str(out), "versions": total}


def test_a_taken_port_is_a_clear_error(games: Games) -> None:
    """issue 19: `port_unavailable`, naming the address, never a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = games.risk("view", games.finished, "--port", str(port), code=1)
    assert "[port_unavailable]" in result.stderr and f"127.0.0.1:{port}" in result.stderr
    assert "[unknown_game]" in games.risk("view", "nosuchgame", code=1).stderr
    assert "[unknown_seat]" in games.risk("view", games.finished, "--as", "Zed", code=1).stderr


def test_a_bad_host_is_a_clear_error(games: Games) -> None:
    """`risk view --host` naming no address of this machine is `bad_host`, saying so and
    naming --host (it was `port_unavailable`, hinting at --port 0); an IPv6 address is
    listened on (it was refused: the server listened on IPv4 only)."""
    for host in ("999.1.1.1", "203.0.113.7", ""):
        said = games.risk("view", games.finished, "--host", host, "--port", "0", code=1).stderr
        assert "[bad_host]" in said and "--host" in said and "--port" not in said, host
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return  # no IPv6 loopback here
    for host in ("::1", "[::1]"):
        with serving(games, games.finished, "--host", host) as server:
            assert server.url.startswith("http://[::1]:")
            assert server.get(f"/{games.finished}")[0] == 200
            assert server.get(f"/{games.finished}", Host="evil.example")[0] == 403


def test_through_the_service_a_seat_sees_its_own_and_follows_moves(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 19: with --redis the page's data comes from the service's views, with the seat
    keys of the profile: the positions are `risk show --at`'s, Ann's hand is the only one, a
    spectator gets none, and a move played meanwhile is followed."""
    from risk_cli.common import App
    from risk_cli.webview.bundle import Follower
    from tests.servicekit import remote_cli

    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "web")
        for seat in ("0", "1", "2"):
            risk("join", created["invitations"][seat])
        app = App(None, redis_server.url)
        try:
            ann = Follower(app.backend, "web", "Ann")
            spectator = Follower(app.backend, "web", None)
            shown = risk("show", "web")
            assert ann.version == spectator.version == shown["version"]
            mover = shown["to_act"]
            mine = next(t for t, c in shown["territories"].items() if c["owner"] == mover)
            risk("place", "web", mine, "--as", str(mover))
            assert spectator.poll() and ann.poll()
            bundle, secret = spectator.bundle(), ann.bundle()
        finally:
            app.close()
        versions = list(range(1, bundle["version"] + 1))
        for version in versions:
            at = risk("show", "web", "--at", str(version))
            assert positions(bundle)[version - 1]["t"] == {
                t: [c["owner"], c["armies"]] for t, c in at["territories"].items()
            }
        last = risk("show", "web", "--as", "Ann")
    assert not {"hand", "mission", "h"} & keys_in(bundle)
    assert all(set(p["h"]) == {"0"} for p in positions(secret))
    assert positions(secret)[-1]["h"]["0"]["hand"] == last["players"][0]["hand"]
