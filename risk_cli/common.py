"""What every command shares: the service handle, the --json and --as options, seat lookup."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from risk_core import GameState, RiskError
from risk_service import GameService


class App:
    """Per-invocation context: the store URL and, once a command needs it, the service."""

    def __init__(self, store: str | None) -> None:
        self.store = store
        self._service: GameService | None = None

    @property
    def service(self) -> GameService:
        # Opened lazily so that `risk rules`, `risk boards` and `--help` never touch a store.
        if self._service is None:
            service = GameService(self.store)
            service.create_schema()
            self._service = service
        return self._service

    def close(self) -> None:
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
