"""What every command shares: the backend (local store or remote service), the --json and --as
options, seat lookup."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from risk_core import GameState, RiskError
from risk_service import GameService

if TYPE_CHECKING:
    from risk_cli.backend import Backend


class App:
    """Per-invocation context: the store URL, the service's Redis URL, and once a command needs
    it, the backend: the local store (``GameService``) or the remote service."""

    def __init__(self, store: str | None, redis_url: str | None = None) -> None:
        self.store = store
        self.redis_url = redis_url
        self._service: GameService | None = None
        self._backend: Backend | None = None

    @property
    def service(self) -> GameService:
        # Opened lazily so that `risk rules`, `risk boards` and `--help` never touch a store.
        if self._service is None:
            service = GameService(self.store)
            service.create_schema()
            self._service = service
        return self._service

    @property
    def backend(self) -> Backend:
        """Where games are read and moved: the service with --redis, else the local store."""
        if self._backend is None:
            from risk_cli.backend import LocalBackend, RemoteBackend

            self._backend = RemoteBackend(self.redis_url) if self.redis_url else LocalBackend(self)
        return self._backend

    def local_service(self, what: str) -> GameService:
        """The local store, for commands the remote service does not offer."""
        if self.redis_url:
            raise RiskError("local_only", f"{what} works on a local store only (drop --redis).")
        return self.service

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
        if self._service is not None:
            self._service.close()


pass_app = click.make_pass_decorator(App)
F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print only JSON on standard output."
)
game_argument = click.argument("game_id", metavar="GAME")


def as_option(help: str, required: bool = False) -> Callable[[F], F]:
    return click.option(
        "--as",
        "as_seat",
        metavar="SEAT",
        envvar="RISK_SEAT",
        show_envvar=True,
        required=required,
        help=help + " SEAT is a seat number or a player name.",
    )


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def seat_of(names: list[str], ref: str) -> int:
    """The seat a reference names: its number, or a player name in any case."""
    if ref.isdigit() and int(ref) < len(names):
        return int(ref)
    for i, name in enumerate(names):
        if name.casefold() == ref.casefold():
            return i
    seats = ", ".join(f"{i} {name}" for i, name in enumerate(names))
    raise RiskError("unknown_seat", f"No seat {ref!r} in this game (seats: {seats}).")


def viewer(state: GameState, ref: str | None) -> int | None:
    """The seat whose eyes to use; None (no --as) is a spectator who sees no secrets."""
    return None if ref is None else seat_of([p.name for p in state.players], ref)
