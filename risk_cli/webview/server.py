"""The viewer's HTTP server: Python's ``http.server``, one request at a time, GET only.

What it answers, and nothing else (404 otherwise):

* ``/`` — a redirect to the game's page;
* ``/GAME`` (``?v=N`` names a version: the page reads it) — the page, for the game given to
  ``risk view`` and the games of its family in the same store (the branch tree links them);
* ``/GAME/data.json`` (``?since=N``: only what came after version N) — the page's data, as the
  viewer may see it (``risk_cli.webview.bundle``);
* ``/GAME/diff.json?with=OTHER&at=N`` — `risk diff` of GAME and OTHER (of the family) at
  version N, as the viewer sees them;
* ``/_static/viewer.js`` and ``/_static/viewer.css`` — the page's own script and style.

Any other method, whatever its name, gets 405 with ``Allow: GET`` (HEAD too: the page is read by
GET).  A request whose ``Host`` is not the address served is refused (403):
a web page elsewhere cannot then reach a loopback server by renaming its own host (DNS
rebinding).  Requests are served one at a time, so the store is only ever used from one thread.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from risk_cli.webview import page
from risk_cli.webview.bundle import Follower

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


class ViewServer(HTTPServer):
    """An ``HTTPServer`` that knows the games it serves and the hosts it answers to."""

    def __init__(self, address: tuple[str, int], games: Games) -> None:
        super().__init__(address, Handler)
        self.games = games
        host, port = self._address()
        names = {host, "localhost"} if host in ("127.0.0.1", "::1") else {host}
        if host in ("0.0.0.0", "::"):
            names = set()  # listening everywhere, as asked: any Host is accepted
        self.hosts = {f"{n}:{port}" for n in names} | {f"[{n}]:{port}" for n in names}

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
        shown = "127.0.0.1" if host == "0.0.0.0" else f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/{quote(self.games.game_id, safe='')}"


class Handler(BaseHTTPRequestHandler):
    server: ViewServer
    server_version = "risk-view"
    sys_version = ""
    timeout = 10  # seconds: a client that sends nothing cannot hold the server

    def log_message(self, format: str, *args: Any) -> None:
        return None  # quiet: the terminal shows the URL and nothing else

    def do_GET(self) -> None:
        host = self.headers.get("Host", "")
        if self.server.hosts and host not in self.server.hosts:
            self._send(HTTPStatus.FORBIDDEN, b"Unknown host.\n", "text/plain")
            return
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        path = parts.path
        try:
            self._route(path, query)
        except Exception as e:  # a store that failed: say so, the server goes on
            from risk_core import RiskError

            if not isinstance(e, RiskError):
                raise
            body = json.dumps({"error": {"code": e.code, "message": str(e)}}).encode()
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, body, "application/json")

    def _route(self, path: str, query: dict[str, list[str]]) -> None:
        games = self.server.games
        if path == "/":
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", "/" + quote(games.game_id, safe=""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path.startswith("/_static/"):
            asset = page.asset(path.removeprefix("/_static/"))
            if asset is None:
                self._not_found()
            else:
                self._send(HTTPStatus.OK, asset[0], asset[1])
            return
        game_id, _, rest = unquote(path[1:]).partition("/")
        follower = games.get(game_id) if rest in ("", "data.json", "diff.json") else None
        if follower is None:
            self._not_found()
        elif rest == "diff.json":
            other = games.get(query.get("with", [""])[0])
            at = _number(query.get("at", [""])[0])
            if other is None or at is None:
                self._send(HTTPStatus.BAD_REQUEST, b'{"error": "with, at"}', "application/json")
                return
            found = follower.compare(at, other)
            self._send(HTTPStatus.OK, json.dumps(found).encode(), "application/json")
        elif rest == "":
            html = page.served(follower.game_id, follower.as_seat)
            self._send(HTTPStatus.OK, html.encode(), "text/html; charset=utf-8")
        else:
            since = _number(query.get("since", ["0"])[0])
            if since is None:
                self._send(HTTPStatus.BAD_REQUEST, b'{"error": "since"}', "application/json")
                return
            follower.poll()
            since = min(since, follower.version)
            data = follower.since(since) if since else follower.bundle()
            self._send(HTTPStatus.OK, json.dumps(data).encode(), "application/json")

    def _not_found(self) -> None:
        self._send(HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain")

    def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

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
