"""What a seat decides on, read from a state: what a set of cards is worth now and after the
next trades, the sets a hand holds and whether it may trade them now, who holds how much of
each group, and a "destroy" mission as it applies in this game.

Everything here is derived from the state by the rule set's own hooks (``set_value``,
``sets_in_hand``, ``card_bonus_territories``, ``decide``), so a family's card values or trade
rules are told as they are played.  :func:`annotate` adds it to a view
(:func:`risk_core.views.view`): public facts for everyone, a hand's sets and a mission's
reading only where the view already shows that hand or mission.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import msgspec

from risk_core.board import Board, Mission
from risk_core.engine import decide, ruleset_of
from risk_core.errors import RiskError
from risk_core.model import GameState, Seat, Trade

JsonDict = dict[str, Any]
FOLLOWING = 3  # values listed after the next one when sets escalate


def _kinds(board: Board, size: int) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Each multiset of ``size`` card symbols the main deck can form, with cards forming it."""
    deck = "main" if "main" in board.decks else (board.decks[0] if board.decks else None)
    by_symbol: dict[str, list[int]] = {}
    for c in board.deck_cards(deck) if deck is not None else ():
        if board.card_symbols[c]:
            by_symbol.setdefault(board.card_symbols[c], []).append(c)
    kinds = []
    for symbols in combinations_with_replacement(sorted(by_symbol), size):
        need = Counter(symbols)
        if all(len(by_symbol[s]) >= n for s, n in need.items()):
            cards = tuple(c for s, n in need.items() for c in by_symbol[s][:n])
            kinds.append((symbols, cards))
    return kinds


def set_values(state: GameState) -> JsonDict:
    """What a set is worth now: each kind of set by its symbols, ``next`` when every kind is
    worth the same (escalating tracks: conquest, Golden Cavalry), and, when trading raises the
    value, the ``following`` ones."""
    rs = ruleset_of(state)
    kinds = [k for size in rs.set_sizes for k in _kinds(rs.board, size)]

    def worth(trades: int) -> list[tuple[tuple[str, ...], int]]:
        probe = msgspec.structs.replace(state, trades=trades)
        out = []
        for symbols, cards in kinds:
            value = rs.set_value(probe, cards)
            if value is not None:
                out.append((symbols, value))
        return out

    now = worth(state.trades)
    values = {v for _, v in now}
    escalates = bool(now) and worth(state.trades + 1) != now
    uniform = len(values) == 1
    return {
        "next": values.pop() if uniform else None,
        "escalates": escalates,
        "following": [worth(state.trades + k)[0][1] for k in range(1, FOLLOWING + 1)]
        if escalates and uniform
        else [],
        "by_symbols": [{"symbols": list(symbols), "value": v} for symbols, v in now],
    }


def hand_sets(state: GameState, seat: Seat) -> list[JsonDict]:
    """The sets in ``seat``'s hand: cards, worth, the territories a trade would add armies
    to, and whether the rules let ``seat`` trade it at this moment (``now``)."""
    rs = ruleset_of(state)
    ids = [t.id for t in rs.board.territories]
    out = []
    for cards in rs.sets_in_hand(state, seat):
        bonus = rs.card_bonus_territories(state, seat, cards)
        out.append(
            {
                "cards": list(cards),
                "value": rs.set_value(state, cards),
                "bonus": [ids[t] for t in bonus],
                "now": _allowed(state, Trade(seat=seat, cards=tuple(cards))),
            }
        )
    return out


def _allowed(state: GameState, cmd: Trade) -> bool:
    try:
        decide(state, cmd)
    except RiskError:
        return False
    return True


def holdings(state: GameState) -> list[JsonDict]:
    """Per group, in board order: its size and how many of its territories each seat holds
    (``held[seat]``), and the seat holding all of it, if one does."""
    board = ruleset_of(state).board
    out = []
    for g, members in zip(board.groups, board.group_members, strict=True):
        held = [0] * len(state.players)
        for t in members:
            if state.owner[t] >= 0:
                held[state.owner[t]] += 1
        whole = [s for s, n in enumerate(held) if n == len(members)]
        out.append(
            {
                "group": g.id,
                "size": len(members),
                "held": held,
                "owner": whole[0] if whole else None,
            }
        )
    return out


def mission_reading(state: GameState, seat: Seat, mission: Mission) -> JsonDict | None:
    """A "destroy" mission as it applies to ``seat`` in this game: whom to destroy, or the
    fallback when the colour is absent, is ``seat``'s own or was destroyed by another
    (CL-22, as ``mission_done`` checks it); None for any other mission."""
    if mission.destroy is None:
        return None
    colour, fallback = mission.destroy, mission.fallback_territories
    players = state.players
    victim = next((i for i, p in enumerate(players) if p.colour == colour), None)
    instead = f"conquer {fallback} territories instead"
    if victim is None:
        text, applies = f"No army is {colour} in this game: {instead}.", True
    elif victim == seat:
        text, applies = f"Your own army is {colour}: {instead}.", True
    else:
        target = players[victim]
        who = f"{target.name} ({colour})"
        if target.eliminated and target.eliminated_by == seat:
            text, applies = f"Destroy {who}: done.", False
        elif target.eliminated:
            by = _name(players, target.eliminated_by)
            text, applies = f"{who} was destroyed by {by}: {instead}.", True
        else:
            text = f"Destroy {who}; if another player destroys them first, {instead}."
            applies = False
    return {"text_en": text, "target": victim, "fallback": applies}


def _name(players: Sequence[Any], seat: Seat | None) -> str:
    return players[seat].name if seat is not None and 0 <= seat < len(players) else "another"


def annotate(state: GameState, shown: JsonDict) -> None:
    """Add to the view ``shown`` what the viewer decides on: ``set_values`` and
    ``holdings`` (public), and for each player whose hand the view shows its ``sets``, for
    each whose mission it shows the mission's ``reading`` in this game."""
    shown["set_values"] = set_values(state)
    shown["holdings"] = holdings(state)
    board = ruleset_of(state).board
    missions = {m.id: m for m in board.missions}
    for p in shown["players"]:
        if "hand" in p:
            p["sets"] = hand_sets(state, p["seat"])
        mission = p.get("mission")
        if mission and mission.get("id") in missions:
            reading = mission_reading(state, p["seat"], missions[mission["id"]])
            if reading is not None:
                mission["reading"] = reading
