"""The engine's functional API: start, decide, evolve, replay, legal commands, views."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from risk_core.errors import RuleError
from risk_core.model import (
    Command,
    Event,
    GameStarted,
    GameState,
    LegalMove,
    OptionValue,
    Seat,
    SeatInfo,
    copy_state,
)
from risk_core.rng import normalise_seed
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets import names as ruleset_names
from risk_core.rulesets.base import RuleSet


def ruleset_of(state: GameState) -> RuleSet:
    return get_ruleset(state.ruleset)


def start(
    ruleset: str,
    players: Sequence[str | SeatInfo],
    *,
    seed: int | str,
    options: dict[str, OptionValue] | None = None,
    dice: Sequence[int] = (),
    game_id: str = "",
) -> list[Event]:
    """The opening events of a new game: its configuration, then every random setup fact.

    ``dice`` optionally scripts the first die faces (ENG-04); the seeded stream follows.
    ``game_id`` publishes a commitment to the seed, revealed when the game ends.
    """
    return get_ruleset(ruleset).start(players, normalise_seed(seed), options, dice, game_id)


def decide(state: GameState, command: Command) -> list[Event]:
    """The events ``command`` causes in ``state``; raises ``RuleError`` and changes nothing."""
    return get_ruleset(state.ruleset).decide(state, command)  # (``ruleset_of``: a call less)


def decide_and_apply(state: GameState, command: Command) -> list[Event]:
    """``decide``'s events, with ``state`` advanced by them as ``apply_in_place`` would (a
    state the caller owns); raises ``RuleError`` and leaves ``state`` as it was.

    Where the rule set ``decides_in_place`` the events are applied once, to ``state`` itself,
    instead of once to ``decide``'s copy and again to ``state``.  The state's lists may be
    replaced by others with the same contents: keep no reference to them across a call."""
    return ruleset_of(state).decide_and_apply(state, command)


def evolve(state: GameState, event: Event) -> GameState:
    """A new state with ``event`` applied (``state`` is not modified)."""
    new = copy_state(state)
    ruleset_of(new).apply(new, event)
    return new


def apply_in_place(state: GameState, events: Iterable[Event]) -> GameState:
    """Apply events to a state the caller owns (the fast path of replays and projections)."""
    rs = get_ruleset(state.ruleset)  # (``ruleset_of``: a call less)
    if not rs.core_apply:
        for ev in events:
            rs.apply(state, ev)
        return state
    _, handlers, follow_ups = rs.handler_tables
    for ev in events:  # ``RuleSet.apply`` written out: one call less per event
        kind = type(ev)
        if state.may_trade and state.phase == "attack" and kind not in follow_ups:
            state.may_trade = False
        handlers[kind](rs, state, ev)
        state.version += 1
    return state


def replay(events: Iterable[Event]) -> GameState:
    """The state after ``events``, which must begin with ``game_started``."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, GameStarted):
        raise RuleError("bad_history", "A game's history must begin with game_started.")
    rs = get_ruleset(first.ruleset)
    return apply_in_place(rs.initial_state(first), it)


def typed_state(state: GameState) -> GameState:
    """A state decoded from JSON, with its family slot made the family's Struct again.

    JSON carries the slot as a plain object (the decoder cannot know which family a state
    belongs to before reading it); raises ``RuleError("stale_state")`` for a state stored by an
    engine that kept the family's facts elsewhere, so a caller can rebuild it from the events.
    """
    kind = get_ruleset(state.ruleset).family_state
    if kind is None:
        state.family = msgspec.UNSET
    elif isinstance(state.family, dict):
        try:
            state.family = msgspec.convert(state.family, kind, strict=False)
        except msgspec.ValidationError as e:
            msg = f"The stored {state.ruleset} state is unreadable: {e}"
            raise RuleError("stale_state", msg) from None
    elif not isinstance(state.family, kind):
        raise RuleError("stale_state", f"The stored state has no {state.ruleset} family state.")
    return state


def decode_state(data: bytes | str) -> GameState:
    """A state from its JSON (``encode``)."""
    return typed_state(msgspec.json.decode(data, type=GameState))


def initial_state(first: GameStarted) -> GameState:
    return get_ruleset(first.ruleset).initial_state(first)


def legal_commands(state: GameState) -> list[Command]:
    """Every legal command of the seat that must act (every count of large choices)."""
    return ruleset_of(state).legal_commands(state)


def legal_moves(state: GameState) -> list[LegalMove]:
    """``legal_commands`` with each count as a range (``LegalMove``): as long as the choices of
    territory and card, however many armies the board holds; expanded in order, the same
    commands as ``legal_commands``."""
    return ruleset_of(state).legal_moves(state)


def to_act(state: GameState) -> Seat | None:
    """The seat whose command the game waits for (None when it is over)."""
    if state.phase == "over":
        return None
    return ruleset_of(state).to_act(state)


class RuleSetInfo(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    title: str
    board: str
    min_players: int
    max_players: int
    player_counts: tuple[int, ...]  # the counts a game can start with (teams: 4 or 6)
    options: dict[str, Any]
    phases: dict[str, str]  # every phase, with what the seat to act does in it


def list_rulesets() -> list[RuleSetInfo]:
    """Every registered rule set with its documented options."""
    out = []
    for name in ruleset_names():
        rs = get_ruleset(name)
        out.append(
            RuleSetInfo(
                name=name,
                title=rs.title,
                board=rs.board_name,
                min_players=rs.min_players,
                max_players=rs.max_players,
                player_counts=tuple(
                    n for n in range(rs.min_players, rs.max_players + 1) if rs.allows_players(n)
                ),
                options={k: msgspec.to_builtins(v) for k, v in rs.options.items()},
                phases=dict(rs.phases),
            )
        )
    return out
