"""What the seat to act may do, grouped for a reader: ``legal_moves`` as trades, placements,
attacks, free moves, defence and occupation ranges, the end of the turn and a family's own
commands.  ``risk moves`` prints it, on a store of one's own or as the service's view of the
acting seat (``ViewRequest.moves``), so both read the same groups."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import msgspec

from risk_core.engine import ruleset_of
from risk_core.model import (
    Attack,
    Defend,
    EndTurn,
    Fortify,
    GameState,
    LegalMove,
    Occupy,
    Place,
    Trade,
)

JsonDict = dict[str, Any]


def _span(counts: Iterable[int]) -> list[int]:
    values = list(counts)
    return [min(values), max(values)]


def grouped_moves(state: GameState, moves: list[LegalMove]) -> JsonDict:
    """``legal_moves`` grouped: trades as card lists, placements as territories with a
    count range, attacks as origin → targets with dice, fortify as origin → targets with count
    ranges, defend / occupy as ranges, end, and any family command by its type (its fields,
    a counted field as its ``[low, high]`` range).

    Each entry's count range is read as it is, never expanded, so this costs what the choices
    of territory and card cost, however many armies are on the board (issue 14)."""
    rules = ruleset_of(state)
    trades: list[JsonDict] = []
    place: dict[str, list[int]] = defaultdict(list)
    attack: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    fortify: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    defend: list[int] = []
    occupy: list[int] = []
    end = False
    other: dict[str, list[JsonDict]] = defaultdict(list)
    for move in moves:
        cmd = move.command
        # The lowest and highest count of the entry (the command's own count when it has none).
        ends = [move.low, move.high] if move.field is not None else None
        if isinstance(cmd, Trade):
            labels = [rules.card_label(c) for c in cmd.cards]
            trades.append({"cards": list(cmd.cards), "labels": labels})
        elif isinstance(cmd, Place):
            place[cmd.territory] += ends or [cmd.count]
        elif isinstance(cmd, Attack):
            attack[cmd.origin][cmd.target] += ends or [cmd.dice]
        elif isinstance(cmd, Fortify):
            fortify[cmd.origin][cmd.target] += ends or [cmd.count]
        elif isinstance(cmd, Defend):
            defend += ends or [cmd.dice]
        elif isinstance(cmd, Occupy):
            occupy += ends or [cmd.count]
        elif isinstance(cmd, EndTurn):
            end = True
        else:
            # A family command as its fields; a counted one's count as its [low, high] range.
            fields = msgspec.to_builtins(cmd)
            fields.pop("seat", None)
            if move.field is not None:
                fields[move.field] = [move.low, move.high]
            other[str(fields.pop("type"))].append(fields)
    nested = {"attack": attack, "fortify": fortify}
    return {
        "trade": trades,
        "place": {t: _span(k) for t, k in place.items()},
        **{
            key: {o: {t: _span(k) for t, k in ts.items()} for o, ts in table.items()}
            for key, table in nested.items()
        },
        "defend": _span(defend) if defend else None,
        "occupy": _span(occupy) if occupy else None,
        "end": end,
        "other": dict(other),
    }


def no_moves() -> JsonDict:
    """The groups of a seat that has nothing to do now (``grouped_moves`` of no moves)."""
    return {
        "trade": [],
        "place": {},
        "attack": {},
        "fortify": {},
        "defend": None,
        "occupy": None,
        "end": False,
        "other": {},
    }


def acting_moves(state: GameState, seats: Iterable[int]) -> JsonDict | None:
    """The grouped moves of the seat that must act, when it is one of ``seats`` (the seats
    whose keys asked: a seat's legal trades show its own cards); None otherwise."""
    acting = ruleset_of(state).to_act(state)
    if acting is None or acting not in set(seats):
        return None
    return grouped_moves(state, ruleset_of(state).legal_moves(state))
