"""`risk view`: the command that serves a game's page, or writes it to one file."""

from __future__ import annotations

import json
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from risk_cli.common import (
    App,
    OutputFile,
    as_option,
    echo_json,
    game_argument,
    json_option,
    pass_app,
)
from risk_core import RiskError

if TYPE_CHECKING:  # imported when the command runs: `risk --help` stays cheap
    from risk_cli.webview.bundle import Follower


@click.command()
@game_argument
@as_option(
    "Look as this seat: its own hand, missions and other secrets are shown (a spectator's "
    "view without)."
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8470,
    show_default=True,
    help="The port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address of this machine to listen on (IPv4, IPv6 or a name; 0.0.0.0 or :: for "
    "every one): loopback unless you name another.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option(
    "--export",
    "export",
    is_flag=True,
    help="Write one self-contained HTML file of a finished game (-o FILE) instead of serving.",
)
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="With --export: the file to write.",
)
@json_option
@pass_app
def view(
    app: App,
    game_id: str,
    as_seat: str | None,
    port: int,
    host: str,
    open_browser: bool,
    export: bool,
    output: Path | None,
    as_json: bool,
) -> None:
    """Show a game in your web browser: its map, replay, log, branches, charts and luck.

    Serves a read-only page on this machine (http://127.0.0.1:8470/GAME) until Ctrl-C: the map
    at any version (slider; keys ← → one event, ↑ ↓ one turn), the log beside it with the
    dice, the game's branch tree, a comparison of two versions, territories and armies per
    turn and the dice luck.  A game still being played is followed as it goes.  Without --as
    (or RISK_SEAT) the page sees what a spectator sees; with it, that seat's own secrets too
    (hand, missions, its rule family's), as `risk show --as` gives them.  --export -o
    FILE.html writes a finished game to one file that needs no server and no network.
    --json: the address as one line of JSON ({"game_id", "url"}), or what was exported
    ({"game_id", "file", "versions"}).
    """
    from risk_cli.webview.bundle import Follower

    if export != (output is not None):
        raise click.UsageError("--export and -o FILE go together.")
    backend = app.backend

    def follow(gid: str) -> Follower:
        return Follower(backend, gid, as_seat)

    if export:
        assert output is not None
        _export(follow(game_id), as_seat, output, as_json)
        return
    _serve(follow, game_id, host, port, open_browser, as_json)


def _export(follower: Follower, as_seat: str | None, output: Path, as_json: bool) -> None:
    from risk_cli.render import plural
    from risk_cli.webview import page

    if not follower.over:
        raise RiskError(
            "game_not_over",
            f"Game {follower.game_id} is still being played: only a finished game is exported "
            "(`risk view` follows a game in progress).",
        )
    output.write_text(page.exported(follower.bundle(), as_seat), encoding="utf-8")
    if as_json:
        echo_json({"game_id": follower.game_id, "file": str(output), "versions": follower.version})
    else:
        versions = plural(follower.version, "version")
        click.echo(f"Game {follower.game_id} ({versions}) written to {output}.")


def _serve(
    follow: Callable[[str], Follower],
    game_id: str,
    host: str,
    port: int,
    open_browser: bool,
    as_json: bool,
) -> None:
    from risk_cli.webview.server import Games, ViewServer, listen_address, listen_error

    family, address = listen_address(host)  # before the game is read: a bad one fails at once
    games = Games(follow, game_id)
    try:
        server = ViewServer((address, port), games, family, host)
    except OSError as e:
        raise listen_error(address, port, e) from None
    if as_json:  # one line: a script reads it while the server goes on
        click.echo(json.dumps({"game_id": game_id, "url": server.url}))
    else:
        click.echo(f"Serving game {game_id} at {server.url} (Ctrl-C to stop).")
    if not server.loopback:
        click.echo(f"Listening on {server.where}: whoever reaches it sees the page.", err=True)
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        if not as_json:
            click.echo("Stopped.")
    finally:
        server.server_close()
