"""Computer players driving a stored game: one seat's moves (``risk bot``), or a whole game.

Every command goes through ``GameService.submit`` like a person's would, so a bot game is stored,
replayable and audited exactly like any other.  Each submit names the version the bot decided
on, so a move made meanwhile by someone else is a conflict, not a move on a stale board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from risk_cli.render import plural
from risk_core import Event, GameState, RiskError, apply_in_place, bots, to_act

if TYPE_CHECKING:  # `risk show` imports this module (a family's verbs) but never the store
    from risk_service import GameService

# One seat's turn is a few dozen commands; this many means a bot that cannot finish its turn.
MAX_COMMANDS_PER_CALL = 10_000


def turn_limit(game_id: str, max_turns: int) -> RiskError:
    return RiskError(
        "turn_limit",
        f"Game {game_id} did not end within {plural(max_turns, 'turn')}; it is stored as it "
        f"stands (risk show {game_id}).",
    )


def step(
    service: GameService, game_id: str, state: GameState, *, level: str, seed: int
) -> list[Event]:
    """The acting seat's bot makes one move; ``state`` advances in place."""
    cmd = bots.choose(state, level=level, seed=seed)
    events = service.submit(game_id, cmd, expected_version=state.version)
    apply_in_place(state, events)
    return events


def play_seat(
    service: GameService, game_id: str, state: GameState, seat: int, *, level: str, seed: int
) -> list[Event]:
    """Play ``seat`` until another seat must act or the game ends; ``state`` advances in place."""
    played: list[Event] = []
    for _ in range(MAX_COMMANDS_PER_CALL):
        if to_act(state) != seat:
            return played
        played += step(service, game_id, state, level=level, seed=seed)
    raise RiskError("bot_stuck", f"The bot made {MAX_COMMANDS_PER_CALL} moves without finishing.")


def play_game(
    service: GameService,
    game_id: str,
    *,
    level: str,
    seed: int,
    max_turns: int,
    on_turn: Callable[[GameState], None] = lambda state: None,
) -> GameState:
    """Bots play every seat until the game ends; ``on_turn`` is called as each turn starts."""
    state = service.state(game_id)  # a private copy, advanced in place below
    turn = state.turn
    while state.phase != "over":
        if state.turn > max_turns:
            raise turn_limit(game_id, max_turns)
        step(service, game_id, state, level=level, seed=seed)
        if state.turn != turn:
            turn = state.turn
            on_turn(state)
    return state


def play_all(
    service: GameService,
    game_id: str,
    state: GameState,
    *,
    stop_at_seat: int | None,
    level: str,
    seed: int,
    max_turns: int,
    on_move: Callable[[GameState], None] = lambda state: None,
) -> tuple[list[Event], int]:
    """Bots play every seat until ``stop_at_seat`` must act (None: until the game ends);
    ``state`` advances in place, ``on_move`` is called after each move.  Returns the events
    and the number of moves; ``turn_limit`` past ``max_turns`` (the moves made are stored)."""
    played: list[Event] = []
    moves = 0
    while state.phase != "over":
        seat = to_act(state)
        if seat is None or seat == stop_at_seat:
            break
        if state.turn > max_turns:
            raise turn_limit(game_id, max_turns)
        played += step(service, game_id, state, level=level, seed=seed)
        moves += 1
        on_move(state)
    return played, moves
