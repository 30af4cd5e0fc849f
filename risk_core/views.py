"""What a seat or a player may see (ENG-07): a view of the state, and events with secrets removed.

Hands and missions are private to their seat; hand sizes are public.  The seed and the order of
the draw pile are private to everyone, since either would let a seat predict dice and draws.
In a team game the team's hand is seen by the whole team.  A rule family adds what its own
state shows through the rule set's view hooks (``view_extra``, ``seat_view``,
``territory_view``), and hides the secrets of its own events in the event's ``redact``.
Both functions return plain builtins (dicts, lists, ints, strings) ready for JSON, so the
service and the command line can hand them out without further filtering.

The viewer is a seat, a collection of seats (a player commanding several armies,
``risk_core.seats.seats_of``), or None (a spectator: what every seat sees, nothing private).
A player sees what any of its seats sees, and nothing more.  The hooks (``view_extra``,
``seat_view``, ``Event.redact``) always receive one seat (or None) as the viewer: for a player
they are called once per seat of theirs and the results are united (``union``).  So a hook
must hide a secret by leaving its key out or setting it to None; any other placeholder would
be taken for a value when several seats' results are united.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import msgspec

from risk_core.board import Board, load_board
from risk_core.engine import ruleset_of, to_act
from risk_core.insight import annotate
from risk_core.model import Event, GameState, Seat
from risk_core.rulesets.base import CORE_PHASES

JsonDict = dict[str, Any]
# Who looks: one seat, a player's seats, or None (a spectator).
Viewer = Seat | Collection[Seat] | None


def eyes(viewer: Viewer) -> tuple[Seat | None, ...]:
    """The seats through whose eyes ``viewer`` looks, in seat order; (None,) for a spectator
    (None or no seat)."""
    if viewer is None:
        return (None,)
    if isinstance(viewer, int):
        return (viewer,)
    return tuple(sorted(set(viewer))) or (None,)


def union(shown: Iterable[Any]) -> Any:
    """What any of several viewers sees of the same thing: dicts by key (a key one of them
    lacks is hidden from that one only), lists of the same length item by item, and None
    (hidden) gives way to a value."""
    out: Any = None
    for i, x in enumerate(shown):
        out = x if i == 0 else _union(out, x)
    return out


def _union(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = _union(out[k], v) if k in out else v
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [_union(x, y) for x, y in zip(a, b, strict=True)]
    return a


def view(state: GameState, viewer: Viewer) -> JsonDict:
    """The game as ``viewer`` sees it: a seat, a player's seats, or None (a spectator)."""
    seats = eyes(viewer)
    rs = ruleset_of(state)
    board = load_board(state.board)
    ids = [t.id for t in board.territories]
    shown: JsonDict = {
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
        "setup_left": list(state.setup_left),
        "trades": state.trades,
        "deck_size": len(state.deck),
        "players": players_view(state, viewer),
        "territories": {ids[t]: _territory(state, t) for t in range(len(ids))},
        "attack": _pending_attack(state, ids),
        "occupation": _pending_occupation(state, ids),
        "options": dict(state.options),
        "phase_text": _phase_text(rs.phases, state),
        **union(rs.view_extra(state, s) for s in seats),
    }
    annotate(state, shown)  # set values, group holdings, a shown hand's sets (risk_core.insight)
    return shown


def players_view(state: GameState, viewer: Viewer) -> list[JsonDict]:
    """Each seat as ``viewer`` sees it: ``view``'s players, without what ``annotate`` adds."""
    seats = eyes(viewer)
    board = load_board(state.board)
    return [_player(state, board, i, seats) for i in range(len(state.players))]


def _territory(state: GameState, t: int) -> JsonDict:
    out: JsonDict = {"owner": state.owner[t], "armies": state.armies[t]}
    out.update(ruleset_of(state).territory_view(state, t))
    return out


def _armies(state: GameState, i: Seat) -> int:
    occupants = ruleset_of(state).occupants
    return sum(occupants(state, t).get(i, 0) for t in range(len(state.owner)))


CLAIMING = "claim an unclaimed territory with 1 army, then place starting armies"


def _phase_text(phases: dict[str, str], state: GameState) -> str:
    """What the seat to act does now: the rule set's text for the phase; for the core's
    set-up while territories are unclaimed (claiming set-ups: classic's ``setup=claim``,
    Clone Wars' standard game), the claim that comes first."""
    text = phases.get(state.phase, state.phase)
    if state.phase == "setup" and text == CORE_PHASES["setup"] and -1 in state.owner:
        return CLAIMING
    return text


def _player(state: GameState, board: Board, i: Seat, seats: tuple[Seat | None, ...]) -> JsonDict:
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
    if p.commander is not msgspec.UNSET:
        out["commander"] = p.commander  # who plays which army is public
    if team is not None:
        out["team"] = team
    if i in seats or (
        team is not None and any(s is not None and rs.team_of(state, s) == team for s in seats)
    ):
        out["hand"] = [card(board, c) for c in p.hand]  # a team's hand is the team's (NAP-TEAM-10)
    if i in seats:
        out["mission"] = mission_view(board, p.mission)
    out.update(union(rs.seat_view(state, i, s) for s in seats))
    return out


def card(board: Board, c: int) -> JsonDict:
    """A card as shown to its holder: id, territory id (None for a joker) and symbol, and its
    stars, kind or effect where it has them."""
    info = board.card(c)
    t = info.territory
    out: JsonDict = {
        "id": c,
        "territory": None if t is None else board.territories[t].id,
        "symbol": board.card_symbols[c],
    }
    for key in ("stars", "deck", "kind", "effect"):
        value = getattr(info, key)
        if value and value != "main":
            out[key] = value
    return out


def mission_view(board: Board, mission_id: str | None) -> JsonDict | None:
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
def visible_events(events: Iterable[Event], viewer: Viewer) -> list[JsonDict]:
    """``events`` as builtins, each with what ``viewer`` may not see removed or replaced."""
    seats = eyes(viewer)
    return [_visible(ev, seats) for ev in events]


def visible_event(ev: Event, viewer: Viewer) -> JsonDict:
    """``ev`` as builtins, with what ``viewer`` (a seat, a player's seats, None) may not see
    removed or replaced: what any of the viewer's seats may see is shown."""
    return _visible(ev, eyes(viewer))


def _visible(ev: Event, seats: tuple[Seat | None, ...]) -> JsonDict:
    # Through JSON rather than to_builtins: tuples come back as lists, as any client sees them.
    raw = msgspec.json.encode(ev)
    shown = [_redacted(ev, msgspec.json.decode(raw), seat) for seat in seats]
    return shown[0] if len(shown) == 1 else union(shown)


def _redacted(ev: Event, d: JsonDict, seat: Seat | None) -> JsonDict:
    redact = _REDACT.get(d["type"])
    if redact is not None:
        redact(d, seat)
    type(ev).redact(d, seat)  # a family event's own secrets
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


def _deck(d: JsonDict, seat: Seat | None) -> None:
    d["deck_size"] = len(d.pop("deck"))


def _drawn(d: JsonDict, seat: Seat | None) -> None:
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
    # A scenario's family facts may hold secrets (napoleon-mission's dealt missions); what of
    # them is public, each seat's view shows through the family's view hooks.
    d.pop("family", None)


_REDACT = {
    "game_started": _started,
    "dice_reseeded": _started,  # a branch's new seed is as secret as the first
    "dice_scripted": _scripted,
    "missions_dealt": _missions,
    "deck_formed": _deck,
    "deck_reshuffled": _deck,
    "card_drawn": _drawn,
    "eliminated": _eliminated,
    "position_set": _position,
}
