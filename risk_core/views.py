"""What one seat may see (ENG-07): a per-seat view of the state, and events with secrets removed.

Hands and missions are private to their seat; hand sizes are public.  The seed and the order of
the draw pile are private to everyone, since either would let a seat predict dice and draws.
In a team game the team's hand is seen by the whole team; achieved objectives and a revealed
last one (napoleon-mission) are public.  Cards given to a napoleon-2p independent lie face
down: only the giver knows them, everyone sees how many it holds.
Both functions return plain builtins (dicts, lists, ints, strings) ready for JSON, so the
service and the command line can hand them out without further filtering.

``seat=None`` is a spectator: it sees what every seat sees and nothing private.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from risk_core.board import Board, load_board
from risk_core.engine import ruleset_of, to_act
from risk_core.model import Event, GameState, Seat

JsonDict = dict[str, Any]


def view(state: GameState, seat: Seat | None) -> JsonDict:
    """The game as ``seat`` sees it (None: a spectator)."""
    board = load_board(state.board)
    ids = [t.id for t in board.territories]
    return {
        "rules": state.ruleset,
        "board": state.board,
        "version": state.version,
        "turn": state.turn,
        "round": state.round,
        "phase": state.phase,
        "current_player": state.current,
        "to_act": to_act(state),
        "winner": state.winner,
        "reserve": state.reserve,
        "ally_reserve": state.ally_reserve,
        "setup_left": list(state.setup_left),
        "trades": state.trades,
        "deck_size": len(state.deck),
        "players": [_player(state, board, i, seat) for i in range(len(state.players))],
        "territories": {ids[t]: _territory(state, t) for t in range(len(ids))},
        "attack": _pending_attack(state, ids),
        "occupation": _pending_occupation(state, ids),
        "options": dict(state.options),
        **_independents(state),
    }


def _independents(state: GameState) -> JsonDict:
    """Napoleon 2P: what is open in the current step (placement quotas, allied moves): public."""
    steps = state.independents
    if isinstance(steps, msgspec.UnsetType):
        return {}
    return {"independents": msgspec.to_builtins(steps)}


def _territory(state: GameState, t: int) -> JsonDict:
    out: JsonDict = {"owner": state.owner[t], "armies": state.armies[t]}
    stack = state.stacks.get(t) if state.stacks else None
    if stack is not None:  # teammates' regiments side by side; owner -1 when tied
        out["units"] = {str(s): n for s, n in stack.items()}
    return out


def _armies(state: GameState, i: Seat) -> int:
    total = 0
    for t, (a, o) in enumerate(zip(state.armies, state.owner, strict=True)):
        stack = state.stacks.get(t) if state.stacks else None
        total += stack.get(i, 0) if stack is not None else (a if o == i else 0)
    return total


def _player(state: GameState, board: Board, i: Seat, viewer: Seat | None) -> JsonDict:
    p = state.players[i]
    rs = ruleset_of(state)
    team = rs.team_of(state, i)
    out: JsonDict = {
        "seat": i,
        "name": p.name,
        "colour": p.colour,
        "neutral": p.neutral,
        "policy": p.policy,
        "eliminated": p.eliminated,
        "cards": len(p.hand),
        "territories": state.owner.count(i),
        "armies": _armies(state, i),
    }
    if team is not None:
        out["team"] = team
    if not isinstance(p.ally_of, msgspec.UnsetType):  # napoleon-2p active: the cannon is public
        out["ally_of"] = p.ally_of
    goals = p.objectives
    if goals:  # napoleon-mission: achieved objectives and a revealed last one are public
        out["achieved"] = [_mission(board, m) for m in goals.achieved]
        hidden = [m for m in goals.missions if m not in goals.achieved]
        out["revealed"] = _mission(board, hidden[0]) if len(hidden) == 1 else None
    if i == viewer or (
        viewer is not None and team is not None and rs.team_of(state, viewer) == team
    ):
        out["hand"] = [card(board, c) for c in p.hand]  # a team's hand is the team's (NAP-TEAM-10)
    if i == viewer:
        out["mission"] = _mission(board, p.mission)
        if goals:
            out["missions"] = [_mission(board, m) for m in goals.missions]
    return out


def card(board: Board, c: int) -> JsonDict:
    """A card as shown to its holder: id, territory id (None for a joker) and symbol."""
    territory = board.territories[c].id if c < len(board.territories) else None
    return {"id": c, "territory": territory, "symbol": board.card_symbols[c]}


def _mission(board: Board, mission_id: str | None) -> JsonDict | None:
    for m in board.missions:
        if m.id == mission_id:
            return {"id": m.id, "text_en": m.text_en, "text_fr": m.text_fr}
    return None


def _pending_attack(state: GameState, ids: list[str]) -> JsonDict | None:
    a = state.attack
    if a is None:
        return None
    return {
        "attacker": state.current,
        "defender": a.defender,
        "origin": ids[a.origin],
        "target": ids[a.target],
        "dice": a.dice,
        "until": a.until,
        "stop_at": a.stop_at,
        "move": a.move,
    }


def _pending_occupation(state: GameState, ids: list[str]) -> JsonDict | None:
    o = state.occupation
    if o is None:
        return None
    return {"origin": ids[o.origin], "target": ids[o.target], "min": o.min, "max": o.max}


# --------------------------------------------------------------------------- events
def visible_events(events: Iterable[Event], seat: Seat | None) -> list[JsonDict]:
    """``events`` as builtins, each with what ``seat`` may not see removed or replaced."""
    return [visible_event(ev, seat) for ev in events]


def visible_event(ev: Event, seat: Seat | None) -> JsonDict:
    # Through JSON rather than to_builtins: tuples come back as lists, as any client sees them.
    d: JsonDict = msgspec.json.decode(msgspec.json.encode(ev))
    redact = _REDACT.get(d["type"])
    if redact is not None:
        redact(d, seat)
    return d


def _own_only(values: list[Any], seat: Seat | None) -> list[Any]:
    return [v if i == seat else None for i, v in enumerate(values)]


def _started(d: JsonDict, seat: Seat | None) -> None:
    del d["seed"]


def _scripted(d: JsonDict, seat: Seat | None) -> None:
    # Scripted faces are the next dice: as predictive as the seed itself.
    d["count"] = len(d.pop("faces"))


def _missions(d: JsonDict, seat: Seat | None) -> None:
    d["missions"] = _own_only(d["missions"], seat)


def _hand_passed(d: JsonDict, seat: Seat | None) -> None:
    d["card_count"] = len(d["cards"])
    if seat not in d["team"]:
        d["cards"] = None


def _deck(d: JsonDict, seat: Seat | None) -> None:
    d["deck_size"] = len(d.pop("deck"))


def _drawn(d: JsonDict, seat: Seat | None) -> None:
    if d["seat"] != seat:
        d["card"] = None


def _card_given(d: JsonDict, seat: Seat | None) -> None:
    # NAP-2PA-03: given face down; the others see only that a card changed hands.
    if d["seat"] != seat:
        d["card"] = None


def _eliminated(d: JsonDict, seat: Seat | None) -> None:
    # The taker and the loser both held these cards; everyone else only learns how many.
    d["card_count"] = len(d["cards"])
    if seat not in (d["seat"], d["by"]):
        d["cards"] = None


def _position(d: JsonDict, seat: Seat | None) -> None:
    d["hand_sizes"] = [len(h) for h in d["hands"]]
    d["hands"] = _own_only(d["hands"], seat)
    d["missions"] = _own_only(d["missions"], seat)
    _deck(d, seat)


_REDACT = {
    "game_started": _started,
    "dice_reseeded": _started,  # a branch's new seed is as secret as the first
    "dice_scripted": _scripted,
    "missions_dealt": _missions,
    "mission_hands_dealt": _missions,  # each seat's four, like one
    "hand_passed": _hand_passed,
    "deck_formed": _deck,
    "deck_reshuffled": _deck,
    "card_drawn": _drawn,
    "card_given": _card_given,
    "eliminated": _eliminated,
    "position_set": _position,
}
