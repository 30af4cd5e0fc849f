"""``--turn T``: the history commands' turn landmark, read through the backend.

Commands that show a position (``show``, ``map``, ``branch``, ``diff``,
``simulate``, ``compare``) take
``--turn T`` for the position at the start of turn T, right after its ``turn_started`` event;
commands that list events (``log``, ``replay``) take it for turn T's events, and ``stats``
for the battles up to the end of turn T (``risk_core.turns``).  The turns are found in the
events as a spectator sees them: turn starts keep no secret, so the service answers this too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from risk_core.turns import TurnStart, find_turn, turn_span, turn_starts_json

if TYPE_CHECKING:
    from risk_cli.backend import Backend

F = TypeVar("F", bound=Callable[..., Any])
POSITION_HELP = "The position at the start of turn TURN (right after its turn_started event)."


def turn_option(help: str = POSITION_HELP) -> Callable[[F], F]:
    """The ``--turn TURN`` option (a number; one the game does not have is ``no_such_turn``)."""
    return click.option("--turn", "turn", type=int, metavar="TURN", help=help)


def starts(backend: Backend, game_id: str) -> tuple[list[TurnStart], int]:
    """The game's turn starts and its latest version."""
    events = backend.events(game_id, None)
    return turn_starts_json(events), len(events)


def start_of(backend: Backend, game_id: str, turn: int) -> int:
    """The version at the start of turn ``turn``."""
    return find_turn(starts(backend, game_id)[0], turn, game_id).version


def span_of(backend: Backend, game_id: str, turn: int) -> tuple[int, int]:
    """The first and last versions of turn ``turn``'s events."""
    found, last = starts(backend, game_id)
    return turn_span(found, turn, last, game_id)


def position(
    backend: Backend, game_id: str, at: int | None, turn: int | None, at_name: str = "--at"
) -> int | None:
    """The version an ``--at N`` or ``--turn T`` option names (None: neither, the latest);
    both at once is a usage error."""
    if turn is None:
        return at
    if at is not None:
        raise click.UsageError(f"Give {at_name} or --turn, not both.")
    return start_of(backend, game_id, turn)
