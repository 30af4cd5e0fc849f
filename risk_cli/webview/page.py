"""The viewer's HTML: served (linked to the server's script and style) or exported (one file).

Every player-chosen string (a game id in the title) is escaped here; everything else the page
shows is put in place by the script as text (``textContent``), never as HTML.  Data embedded
in the page is JSON inside ``<script type="application/json">`` with ``<``, ``>`` and ``&``
escaped, so no string in it can close the element.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

ASSETS = {"viewer.js": "text/javascript; charset=utf-8", "viewer.css": "text/css; charset=utf-8"}
# The exported file talks to nothing: no request of any kind leaves it.
EXPORT_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def asset(name: str) -> tuple[bytes, str] | None:
    """One of the page's own files (``static/``) and its type; None for any other name."""
    if name not in ASSETS:
        return None
    return (resources.files("risk_cli.webview").joinpath("static", name).read_bytes(), ASSETS[name])


def _text(name: str) -> str:
    found = asset(name)
    assert found is not None
    return found[0].decode("utf-8")


def embedded_json(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _document(title: str, head: str, body_end: str) -> str:
    values = {"title": html.escape(title), "head": head, "scripts": body_end}
    # One pass: a value is never searched for further fields.
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], _text_template())


def _text_template() -> str:
    return resources.files("risk_cli.webview").joinpath("static", "page.html").read_text("utf-8")


def served(game_id: str, as_seat: str | None) -> str:
    """The page the server sends: its data is fetched from ``GAME/data.json``."""
    config = {"game_id": game_id, "live": True}
    head = '<link rel="stylesheet" href="/_static/viewer.css">'
    scripts = (
        f'<script id="config" type="application/json">{embedded_json(config)}</script>\n'
        '<script src="/_static/viewer.js"></script>'
    )
    return _document(_title(game_id, as_seat), head, scripts)


def exported(bundle: dict[str, Any], as_seat: str | None) -> str:
    """One self-contained file: the style, the script and every version's data inside."""
    game_id = bundle["meta"]["game_id"]
    config = {"game_id": game_id, "live": False}
    head = (
        f'<meta http-equiv="Content-Security-Policy" content="{EXPORT_CSP}">\n'
        f"<style>\n{_text('viewer.css')}</style>"
    )
    scripts = (
        f'<script id="config" type="application/json">{embedded_json(config)}</script>\n'
        f'<script id="bundle" type="application/json">{embedded_json(bundle)}</script>\n'
        f"<script>\n{_text('viewer.js')}</script>"
    )
    return _document(_title(game_id, as_seat), head, scripts)


def _title(game_id: str, as_seat: str | None) -> str:
    seen = f" as {as_seat}" if as_seat is not None else ""
    return f"Risk game {game_id}{seen}"
