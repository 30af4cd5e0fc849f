"""The viewer's HTTP server: Python's ``http.server``, a thread per request, GET only.

What it answers, and nothing else (404 otherwise):

* ``/`` — a redirect to the game's page;
* ``/GAME`` (``?v=N`` names a version: the page reads it) — the page, for the game given to
  ``risk view`` and the games of its family in the same store (the branch tree links them);
* ``/GAME/data.json`` (``?since=N``: only what came after version N) — the page's data, as the
  viewer may see it (``risk_cli.webview.bundle``);
* ``/GAME/diff.json?with=OTHER&at=N`` — `risk diff` of GAME at version N and OTHER (of the
  family) at the same point of play (``bundle.lined_up``), as the viewer sees them;
* ``/_static/viewer.js`` and ``/_static/viewer.css`` — the page's own script and style.

Any other method, whatever its name, gets 405 with ``Allow: GET`` (HEAD too: the page is read by
GET).  A request whose ``Host`` is not the address served (or the name ``--host`` gave) is
refused (403): a web page elsewhere cannot then reach a loopback server by renaming its own
host (DNS rebinding).  Each request has a thread of its own, but the answers are made one at a time
(``ViewServer.lock``), so the followers and the store are only ever used by one thread at once;
a client that sends its request or reads its answer slowly holds no lock, only its own thread,
each of its reads and writes waiting at most ``Handler.timeout`` seconds.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple
from urllib.parse import parse_qs, quote, unquote, urlsplit

from risk_cli.webview import page
from risk_cli.webview.bundle import Follower
from risk_core import RiskError

JsonDict = dict[str, Any]
# No script, style or connection from anywhere but this server; nothing may frame the page.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


class Games:
    """The game given and its family: a ``Follower`` for each, made when first asked for."""

    def __init__(self, make: Callable[[str], Follower], game_id: str) -> None:
        self.make = make
        self.game_id = game_id
        self.followers: dict[str, Follower] = {game_id: make(game_id)}

    def family(self) -> set[str]:
        """The ids this server may show: the game and every game of its tree in the store."""
        first = self.followers[self.game_id]
        tree = first.backend.lineage(self.game_id).tree
        ids, todo = set(), [tree]
        while todo:
            node = todo.pop()
            if node.in_store:
                ids.add(node.game_id)
            todo += node.children
        return ids | {self.game_id}

    def get(self, game_id: str) -> Follower | None:
        if game_id not in self.followers:
            if game_id not in self.family():
                return None
            self.followers[game_id] = self.make(game_id)
        return self.followers[game_id]


class ViewServer(ThreadingHTTPServer):
    """An ``HTTPServer`` that knows the games it serves and the hosts it answers to.

    Each request is read and answered in a thread of its own (daemon threads: Ctrl-C waits for
    none), so a client that sends or reads slowly holds up nobody else.  The followers and the
    backend underneath are not made to be used from several threads (a follower brings itself
    up to date in place), so answers are made one at a time, under ``lock``: the request is
    read before it is taken and the answer sent after it is let go."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        games: Games,
        family: socket.AddressFamily = socket.AF_INET,
        named: str | None = None,
    ) -> None:
        """Listen on ``address`` (of ``family``: ``listen_address``); ``named`` is the name
        the address was given by, which the ``Host`` of a request may then say too."""
        self.address_family = family
        super().__init__(address, Handler)
        self.games = games
        self.lock = threading.Lock()  # the games, their followers and the store
        host, port = self._address()
        names = {host} | ({named} if named else set())
        if self.loopback:
            names.add("localhost")
        if ipaddress.ip_address(host).is_unspecified:
            names = set()  # listening everywhere, as asked: any Host is accepted
        self.hosts = {f"{n}:{port}" for n in names} | {f"[{n}]:{port}" for n in names}

    @property
    def loopback(self) -> bool:
        """Whether only this machine can reach the server."""
        return ipaddress.ip_address(self._address()[0]).is_loopback

    @property
    def where(self) -> str:
        """Where the server listens, as the terminal says it when it is not loopback."""
        host = self._address()[0]
        if ipaddress.ip_address(host).is_unspecified:
            return f"every address of this machine ({host})"
        return f"{host}, not only on this machine"

    def _address(self) -> tuple[str, int]:
        host, port = self.server_address[:2]
        return (host.decode() if isinstance(host, bytes) else str(host)), int(port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line on standard error, not a traceback; the server goes on."""
        import sys

        error = sys.exc_info()[1]
        print(f"risk view: a request failed: {error!r}", file=sys.stderr)

    @property
    def url(self) -> str:
        host, port = self._address()
        # Listening everywhere, the page is at this machine's loopback address too.
        shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        shown = f"[{shown}]" if ":" in shown else shown
        return f"http://{shown}:{port}/{quote(self.games.game_id, safe='')}"


def listen_address(host: str) -> tuple[socket.AddressFamily, str]:
    """The address family and the numeric address ``--host`` names: an IPv4 or IPv6 address
    (``[::1]`` as well as ``::1``), or a name, looked up (its first IPv4 address, else its
    first IPv6).  ``bad_host`` for none, or a name that cannot be looked up."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not bare:
        raise RiskError(
            "bad_host",
            "--host names the address to listen on: 127.0.0.1 (this machine only, the "
            "default), or 0.0.0.0 or :: (every address of this machine).",
        )
    try:
        found = socket.getaddrinfo(bare, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        reason = e.strerror if isinstance(e, socket.gaierror) else str(e)
        raise RiskError(
            "bad_host",
            f"Cannot listen on {host}: it is not an address, nor a name this machine can look "
            f"up ({reason}); --host takes an address of this machine, such as 127.0.0.1.",
        ) from None
    ipv4 = [a for a in found if a[0] == socket.AF_INET]
    family, _, _, _, address = (ipv4 or found)[0]
    return family, str(address[0])


def listen_error(host: str, port: int, e: OSError) -> RiskError:
    """What an address that cannot be listened on is: a port in use or refused
    (``port_unavailable``), or an address that is not this machine's (``bad_host``)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if e.errno == errno.EADDRNOTAVAIL:
        return RiskError(
            "bad_host",
            f"Cannot listen on {where}: {host} is not an address of this machine (--host takes "
            "one of its addresses, such as 127.0.0.1).",
        )
    if e.errno == errno.EADDRINUSE:
        reason = "it is in use"
    elif e.errno == errno.EACCES:
        reason = "permission denied (a port below 1024 needs privileges)"
    else:
        reason = e.strerror or str(e)
    return RiskError(
        "port_unavailable",
        f"Cannot listen on {where}: {reason} (try --port 0 for any free port).",
    )


class Answer(NamedTuple):
    """A response, made whole before any of it is sent."""

    status: HTTPStatus
    body: bytes
    kind: str = "text/plain"
    location: str | None = None


NOT_FOUND = Answer(HTTPStatus.NOT_FOUND, b"Not found.\n")


class Handler(BaseHTTPRequestHandler):
    server: ViewServer
    server_version = "risk-view"
    sys_version = ""
    # Seconds a read of the request or a write of the answer may wait: a client that sends
    # nothing, or reads nothing, lets its thread go then.  (It never holds the data's lock.)
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:
        return None  # quiet: the terminal shows the URL and nothing else

    def do_GET(self) -> None:
        host = self.headers.get("Host", "")
        if self.server.hosts and host not in self.server.hosts:
            self._send(Answer(HTTPStatus.FORBIDDEN, b"Unknown host.\n"))
            return
        parts = urlsplit(self.path)
        # The request was read whole before this; the answer is sent after the lock is let go.
        with self.server.lock:
            answer = self._answer(parts.path, parse_qs(parts.query))
        self._send(answer)

    def _answer(self, path: str, query: dict[str, list[str]]) -> Answer:
        try:
            return self._route(path, query)
        except Exception as e:  # a store that failed: say so, the server goes on
            if not isinstance(e, RiskError):
                raise
            body = json.dumps({"error": {"code": e.code, "message": str(e)}}).encode()
            return Answer(HTTPStatus.INTERNAL_SERVER_ERROR, body, "application/json")

    def _route(self, path: str, query: dict[str, list[str]]) -> Answer:
        games = self.server.games
        if path == "/":
            return Answer(HTTPStatus.FOUND, b"", location="/" + quote(games.game_id, safe=""))
        if path.startswith("/_static/"):
            asset = page.asset(path.removeprefix("/_static/"))
            return NOT_FOUND if asset is None else Answer(HTTPStatus.OK, *asset)
        game_id, _, rest = unquote(path[1:]).partition("/")
        follower = games.get(game_id) if rest in ("", "data.json", "diff.json") else None
        if follower is None:
            return NOT_FOUND
        if rest == "diff.json":
            other = games.get(query.get("with", [""])[0])
            at = _number(query.get("at", [""])[0])
            if other is None or at is None:
                return Answer(HTTPStatus.BAD_REQUEST, b'{"error": "with, at"}', "application/json")
            found = follower.compare(at, other)
            return Answer(HTTPStatus.OK, json.dumps(found).encode(), "application/json")
        if rest == "":
            html = page.served(follower.game_id, follower.as_seat)
            return Answer(HTTPStatus.OK, html.encode(), "text/html; charset=utf-8")
        since = _number(query.get("since", ["0"])[0])
        if since is None:
            return Answer(HTTPStatus.BAD_REQUEST, b'{"error": "since"}', "application/json")
        follower.poll()
        since = min(since, follower.version)
        data = follower.since(since) if since else follower.bundle()
        return Answer(HTTPStatus.OK, json.dumps(data).encode(), "application/json")

    def _send(self, answer: Answer) -> None:
        self.send_response(answer.status)
        if answer.location is not None:
            self.send_header("Location", answer.location)
        self.send_header("Content-Type", answer.kind)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(answer.body)

    def parse_request(self) -> bool:
        """Read-only: every method but GET is refused here (405), before ``http.server`` looks
        for a ``do_`` method of its name, for it answers a name it finds none for (TRACE, or
        any unknown) with 501."""
        if not super().parse_request():
            return False
        if self.command == "GET":
            return True
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET")
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False


def _number(text: str) -> int | None:
    """A version or count in a query: ASCII digits, at most 12 of them (``str.isdigit`` takes
    "²" and other scripts' digits, which ``int`` refuses or reads otherwise)."""
    return int(text) if 0 < len(text) <= 12 and text.isascii() and text.isdigit() else None
