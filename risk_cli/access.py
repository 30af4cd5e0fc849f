"""Who may play: invitations (`invite`), claiming a seat (`join`), and the Redis users of an
operator's own server (`setup-redis`).

An invitation (``GAME:SEAT:SECRET``) is made on the owner's machine and handed to a player by
any private means; `join` makes the player's seat key on the player's machine and claims the
seat with a signature of the invitation, which is spent by it (``risk_service.signing``).
"""

from __future__ import annotations

import secrets
from typing import Any

import click
import redis

from risk_cli.backend import RemoteBackend, check_remote
from risk_cli.common import App, echo_json, game_argument, json_option, pass_app
from risk_cli.profile import GameEntry, profile_path, save
from risk_core import RiskError
from risk_core.names import whole_number
from risk_service.client import new_request_id
from risk_service.protocol import DEFAULT_PREFIX, AdminRequest
from risk_service.redis_acl import CLIENT, WORKER, setup, user_url
from risk_service.signing import Invitation


def keep_invitation(backend: RemoteBackend, invitation: Invitation) -> str:
    """Keep an invitation the owner just opened in the profile (so `invite` can print it
    again); its text."""
    entry = backend.profile.games.setdefault(invitation.game_id, GameEntry())
    entry.invites[str(invitation.seat)] = invitation.text
    save(backend.profile)
    return invitation.text


@click.command()
@game_argument
@click.argument("seat")
@click.option(
    "--renew",
    is_flag=True,
    help="Open the seat to a new invitation: the old one, or the key of whoever claimed the "
    "seat, stops working (the owner's action is recorded).",
)
@json_option
@pass_app
def invite(app: App, game_id: str, seat: str, renew: bool, as_json: bool) -> None:
    """Print the invitation to SEAT (a number or name) of GAME, which you created.

    An invitation is good for one `risk join`. Hand it privately to the seat's player. With
    --renew (or when your profile keeps none for that seat) the seat is opened to a new one:
    use it when an invitation went astray, or to give a seat to another player.
    """
    backend = check_remote(app.backend, "risk invite")
    number = backend._seat(game_id, seat)
    assert number is not None
    backend.owner_key(game_id)  # only the owner: said before anything is sent
    entry = backend.profile.games.get(game_id)
    kept = entry.invites.get(str(number)) if entry else None
    renewed = renew or kept is None
    revoked = None
    if renewed:
        invitation = Invitation.new(game_id, number)
        request = AdminRequest(
            request_id=new_request_id(),
            game_id=game_id,
            action="invite",
            seat=number,
            key=invitation.public,
        )
        revoked = backend.admin(request)["revoked"]
        kept = keep_invitation(backend, invitation)
    assert kept is not None
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "seat": number,
                "invitation": kept,
                "renewed": renewed,
                **({"revoked": revoked} if revoked else {}),
            }
        )
        return
    if revoked == "key":
        click.echo(f"Seat {number} was claimed: its player's key no longer works.")
    click.echo(f"Invitation to seat {number} of {game_id} (good for one `risk join`):")
    click.echo(kept)
    if not renewed:
        click.echo("Printed again: spent if its player joined already (--renew makes a new one).")


@click.command()
@click.argument("invitation")
@click.option(
    "--seat", "seat_ref", metavar="SEAT", help="Check it is for this seat (number or name)."
)
@json_option
@pass_app
def join(app: App, invitation: str, seat_ref: str | None, as_json: bool) -> None:
    """Claim the seat of an INVITATION (GAME:SEAT:SECRET, from the game's owner).

    A key pair for the seat is made here and kept in your profile; the service learns its
    public half only, and the invitation cannot be used again.
    """
    backend = check_remote(app.backend, "risk join")
    inv = Invitation.parse(invitation)
    if seat_ref is not None:
        names = [p["name"] for p in backend.seat_view(inv.game_id, None)["players"]]
        number = whole_number(seat_ref)
        wanted = _seat_named(names, seat_ref) if number is None else number
        if wanted != inv.seat:
            raise RiskError(
                "wrong_seat",
                f"This invitation is for seat {inv.seat} of {inv.game_id}, not {seat_ref!r}.",
            )
    data = backend.join(inv)
    path = profile_path()
    if as_json:
        echo_json({"game_id": inv.game_id, **data, "profile": str(path)})
    else:
        click.echo(
            f"You play {data['name']} (seat {inv.seat}) in {inv.game_id}; your key is in {path}."
        )


def _seat_named(names: list[str], ref: str) -> int:
    for i, name in enumerate(names):
        if name.casefold() == ref.casefold():
            return i
    raise RiskError("wrong_seat", f"No seat is named {ref!r}: {', '.join(names)}.")


@click.command("setup-redis")
@click.option("--prefix", default=DEFAULT_PREFIX, show_default=True, help="The key prefix.")
@click.option(
    "--public-host",
    metavar="HOST",
    help="The server's address as players reach it (default: the one in --redis).",
)
@json_option
@pass_app
def setup_redis(app: App, prefix: str, public_host: str | None, as_json: bool) -> None:
    """Create the service's Redis users on your own server (--redis: an administrator's URL).

    `risk-worker` for `risk worker`, and `risk-client` for the players: it may only add
    requests, read its own replies and follow games; it cannot read the request streams.
    Passwords are generated and printed once, in the two URLs. Run it again to change them.
    """
    if not app.redis_url:
        raise click.UsageError("Give your Redis server with an administrator's --redis URL.")
    client = redis.Redis.from_url(app.redis_url, socket_connect_timeout=5)
    passwords = {WORKER: secrets.token_urlsafe(24), CLIENT: secrets.token_urlsafe(24)}
    try:
        setup(client, passwords, prefix)
        default = client.execute_command(  # type: ignore[no-untyped-call,unused-ignore]
            "ACL", "GETUSER", "default"
        )
    except redis.RedisError as e:
        raise RiskError("redis_refused", f"Redis refused to create the users: {e}.") from None
    finally:
        client.close()
    kwargs = client.connection_pool.connection_kwargs
    host = public_host or str(kwargs.get("host", "127.0.0.1"))
    port, db = int(kwargs.get("port", 6379)), int(kwargs.get("db", 0))
    urls = {u: user_url(host, port, u, p, db) for u, p in passwords.items()}
    flags = _flags(default)
    open_default = "on" in flags and "nopass" in flags
    if as_json:
        echo_json({"worker": urls[WORKER], "client": urls[CLIENT], "default_open": open_default})
        return
    click.echo(f"Workers: risk --redis '{urls[WORKER]}' worker")
    click.echo(f"Players' URL (hand it out): {urls[CLIENT]}")
    if open_default:
        click.echo(
            "Warning: this server's `default` user needs no password and may do anything: turn "
            "it off (ACL SETUSER default off) once your administrator user works.",
            err=True,
        )


def _flags(getuser: object) -> list[str]:
    """The flags of ``ACL GETUSER``'s reply (a flat list in RESP2, a dict in RESP3)."""
    found: list[Any] = []
    if isinstance(getuser, dict):
        found = getuser.get(b"flags") or getuser.get("flags") or []
    elif isinstance(getuser, list) and b"flags" in getuser:
        found = getuser[getuser.index(b"flags") + 1] or []
    return [f.decode() if isinstance(f, bytes) else str(f) for f in found]
