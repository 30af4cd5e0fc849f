"""Per-seat views and visible events (ENG-07): hands and missions private, hand sizes public.

A whole bot-played game is watched from every seat and from the spectator's chair, after every
event: no view and no visible event may carry the seed, the deck order, another seat's cards or
another seat's mission.  Each property is checked on the structure and again on the JSON text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import risk_core as rc
from risk_core import bots
from risk_core.model import CardDrawn, CardsTraded, GameState, PlayerEliminated
from risk_core.scenario import parse_scenario, scenario_opening
from risk_core.views import view, visible_event, visible_events

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CARD_EVENTS = ("card_drawn", "eliminated", "cards_traded")
VIEW_KEYS = {
    "rules", "board", "version", "turn", "round", "phase", "current_player", "to_act",
    "winner", "reserve", "players", "territories", "attack", "occupation", "options",
}  # fmt: skip


SECRET_EVENTS = {"MissionsDealt", "DeckFormed", "DeckReshuffled", "CardDrawn", "PlayerEliminated"}


@pytest.fixture(scope="module")
def game() -> list[rc.Event]:
    """A complete 4-player classic game between greedy bots that deals, draws, reshuffles,
    trades and eliminates: the first such game among a few seeds, so that changes to the bots
    cannot quietly leave a secret untested."""
    for seed in range(40):
        _, events = bots.self_play(rc.start("classic", PLAYERS, seed=f"views-{seed}"), seed=1)
        if SECRET_EVENTS | {"CardsTraded"} <= {type(ev).__name__ for ev in events}:
            assert isinstance(events[-1], rc.model.GameWon)
            return events
    raise AssertionError("no bot game with every kind of secret")


def states(events: list[rc.Event]) -> Iterator[tuple[rc.Event, GameState]]:
    """Each event with the state just after it (folded once, not replayed per prefix)."""
    state = rc.replay(events[:1])
    yield events[0], state
    for ev in events[1:]:
        state = rc.evolve(state, ev)
        yield ev, state


def keys(obj: Any) -> Iterator[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from keys(v)


def test_view_has_the_documented_shape(game: list[rc.Event]) -> None:
    state = rc.replay(game)
    v = view(state, 1)
    assert set(v) >= VIEW_KEYS
    assert v["winner"] == state.winner and v["phase"] == "over" and v["to_act"] is None
    assert set(v["territories"]) == {t.id for t in rc.load_board("classic").territories}
    own = v["players"][1]
    assert [c["id"] for c in own["hand"]] == state.players[1].hand
    assert own["mission"]["id"] == state.players[1].mission
    assert set(own["mission"]) == {"id", "text_en", "text_fr"}
    for p in v["players"]:
        assert p["cards"] == len(state.players[p["seat"]].hand)  # ENG-07: sizes are public


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_views_never_show_secrets(game: list[rc.Event], seat: int | None) -> None:
    """ENG-07 on the state: only the viewer's own hand and mission, never seed or deck order."""
    for _, state in states(game):
        v = view(state, seat)
        text = json.dumps(v)
        assert str(state.seed) not in text
        assert not {"seed", "deck", "dice_script"} & set(keys(v))
        for p in v["players"]:
            if p["seat"] == seat:
                assert [c["id"] for c in p["hand"]] == state.players[seat].hand
            else:
                assert "hand" not in p and "mission" not in p
        # Card ids only ever appear as {"id": n, ...} entries of the viewer's own hand.
        own_cards = len(state.players[seat].hand) if seat is not None else 0
        assert len(re.findall(r'\{"id": \d', text)) == own_cards
        for i, p in enumerate(state.players):
            if i != seat and p.mission is not None:
                assert f'"{p.mission}"' not in text


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_visible_events_never_show_secrets(game: list[rc.Event], seat: int | None) -> None:
    """ENG-07 on the log: a card id is shown only once the viewer knows that card."""
    known: set[int] = set()  # cards the viewer held, or saw traded face up
    missions = rc.replay(game[:2]).players
    winner_mission = game[-1].mission  # type: ignore[attr-defined]  # CL-22: revealed on winning
    for ev in game:
        d = visible_event(ev, seat)
        text = json.dumps(d)
        assert "seed" not in d and "deck" not in d
        assert str(game[0].seed) not in text  # type: ignore[attr-defined]
        for i, p in enumerate(missions):
            if i != seat and p.mission != winner_mission:
                assert f'"{p.mission}"' not in text
        kind = d["type"]
        if kind == "missions_dealt":
            assert [m is not None for m in d["missions"]] == [i == seat for i in range(4)]
        elif kind in ("deck_formed", "deck_reshuffled"):
            assert d["deck_size"] == len(ev.deck)  # type: ignore[attr-defined]
        elif kind == "eliminated":
            assert d["card_count"] == len(ev.cards)  # type: ignore[attr-defined]
        # What the viewer learns from the true event: its own draw, the cards of an
        # elimination it took part in, and every trade (sets are traded face up).
        if isinstance(ev, CardDrawn) and ev.seat == seat:
            known.add(ev.card)
        elif (
            isinstance(ev, PlayerEliminated)
            and seat in (ev.seat, ev.by)
            or isinstance(ev, CardsTraded)
        ):
            known.update(ev.cards)
        shown = [d.get("card"), *(d.get("cards") or [])] if kind in CARD_EVENTS else []
        assert {c for c in shown if c is not None} <= known, (kind, shown)


def test_visible_events_as_builtins(game: list[rc.Event]) -> None:
    shown = visible_events(game[:5], 0)
    assert [d["type"] for d in shown] == [
        "game_started", "missions_dealt", "territories_dealt", "first_player", "deck_formed",
    ]  # fmt: skip
    assert "seed" not in shown[0] and shown[0]["players"][0]["name"] == "Ann"
    assert shown[4] == {"type": "deck_formed", "rng": game[4].rng, "deck_size": 44}  # type: ignore[attr-defined]


def test_scripted_dice_are_hidden() -> None:
    """The scripted faces are the next dice: counted, not shown (like the seed)."""
    events = rc.start("classic", PLAYERS, seed=5, dice=[6, 6, 6, 1])
    d = visible_event(events[1], 0)
    assert d == {"type": "dice_scripted", "count": 4}


def test_scenario_position_shows_only_own_hand_and_mission() -> None:
    state = rc.replay(rc.start("classic", ["Ann", "Bob", "Cy"], seed=3))
    board = rc.load_board("classic")
    doc = {
        "players": ["Ann", "Bob", "Cy"],
        "seed": 9,
        "territories": {
            t.id: {"owner": state.owner[i], "armies": state.armies[i]}
            for i, t in enumerate(board.territories)
        },
        "hands": {"Ann": ["alaska", "joker"], "Cy": ["peru"]},
        "missions": {"Ann": "na_africa", "Bob": "na_oceania"},
    }
    _, _, opening = scenario_opening(parse_scenario(json.dumps(doc).encode(), "json"))
    position = next(ev for ev in opening if type(ev).__name__ == "PositionSet")
    d = visible_event(position, 1)
    assert d["hands"] == [None, [], None] and d["hand_sizes"] == [2, 0, 1]
    assert d["missions"] == [None, "na_oceania", None]
    assert "deck" not in d and d["deck_size"] == 44 - 3
    after = rc.replay(opening)
    assert view(after, 2)["players"][2]["hand"] == [
        {"id": board.index["peru"], "territory": "peru", "symbol": board.territories[10].card}
    ]
