"""Players and seats: one player may command several seats (armies).

A seat is one army with its own colour, hand, mission and turn.  A player is a name: a seat's
player is its ``commander`` when set, else the seat's own name.  So a seat without a commander
is its own player, and a player commanding several seats sees what each of them sees (ENG-07)
and moves for whichever of them must act.

A commander (``SeatInfo.commander``) is either the name of a non-neutral seat that has no
commander itself (that seat's player also commands this one), or a name no seat uses (a player
with no seat of its own name).  A seat never commands itself, a commanded seat commands
nobody, and a commander is spelt exactly as the seat it names: names that differ only in case
would be the same player to the command line, so such a clash is refused (``bad_commander``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import NoReturn

import msgspec

from risk_core.errors import SetupError
from risk_core.model import GameState, Seat, SeatInfo


def commander_of(state: GameState, seat: Seat) -> str:
    """The player who commands ``seat``: its commander, else the seat's own name."""
    p = state.players[seat]
    return p.name if p.commander is msgspec.UNSET else p.commander


def seats_of(state: GameState, player: str) -> list[Seat]:
    """The seats ``player`` commands, in seat order (empty: no such player)."""
    return [i for i in range(len(state.players)) if commander_of(state, i) == player]


def players(state: GameState) -> list[str]:
    """Every player, in the order of their first seat."""
    return list(dict.fromkeys(commander_of(state, i) for i in range(len(state.players))))


MAX_NAME = 40  # characters of a player's or commander's name


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a player's or a commander's name, shown on every
    player's terminal (None: nothing): empty, longer than ``MAX_NAME`` characters, or holding a
    control or formatting character (an escape sequence, a bell, a right-to-left override)."""
    if not name.strip():
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    odd = next(
        (ch for ch in name if unicodedata.category(ch)[0] == "C" or ch in "\u2028\u2029"), None
    )
    if odd is not None:
        return f"holds the control character U+{ord(odd):04X}"
    return None


def check_player_names(names: Sequence[str]) -> None:
    """Refuse (``SetupError("bad_players")``) a name ``name_problem`` finds wrong, or one given
    twice."""
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise SetupError("bad_players", f"The player name {name!r} {problem}.")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SetupError(
            "bad_players",
            f"Player names must be distinct: {', '.join(map(repr, twice))} given twice "
            "(for one player on several seats, give each seat a name and --commander).",
        )


def check_commanders(seats: Sequence[SeatInfo]) -> None:
    """Refuse (``SetupError("bad_commander")``) commanders outside the model above."""
    spelt: dict[str, str] = {}
    for s in seats:
        c = s.commander
        if c is msgspec.UNSET:
            continue
        if not c.strip():
            _bad(f"Seat {s.name!r}: a commander must be a non-empty name.")
        problem = name_problem(c)
        if problem is not None:
            _bad(f"Seat {s.name!r}: its commander's name {c!r} {problem}.")
        if c == s.name:
            _bad(f"Seat {s.name!r} is its own player: leave its commander unset.")
        if spelt.setdefault(c.casefold(), c) != c:
            _bad(f"Commanders {spelt[c.casefold()]!r} and {c!r} differ only in case.")
        for lead in seats:
            if lead.name.casefold() != c.casefold():
                continue
            if lead.name != c:
                _bad(f"Seat {s.name!r}: commander {c!r} differs from seat {lead.name!r} in case.")
            if lead.neutral:
                _bad(f"Seat {s.name!r}: its commander {c!r} is a neutral seat.")
            if lead.commander is not msgspec.UNSET:
                _bad(
                    f"Seat {s.name!r}: its commander {c!r} is a seat commanded by "
                    f"{lead.commander!r}; name that player instead."
                )


def _bad(message: str) -> NoReturn:
    raise SetupError("bad_commander", message)
