"""NAP-ADV-01..12 (DEC-27): the advanced game's set-up, played by the engine from `start`,
and NAP-CAP-01..04 in play (option ``capitals``); the bots finish every player count."""

from __future__ import annotations

from pathlib import Path

import pytest

import risk_core as rc
from risk_core.bots import propose
from risk_core.model import EndTurn, GameState, Place
from risk_core.rulesets.napoleon_advanced_state import PlacePiece
from tests.napoleon_advanced_kit import (
    BOARD,
    IDS,
    Run,
    T,
    cli_game,
    engine_game,
    error,
    fam,
    members,
    step,
    view,
)

RULES = "napoleon-advanced"


def started(n: int = 3, seed: int = 5) -> GameState:
    return rc.replay(rc.start(RULES, [f"P{i}" for i in range(n)], seed=seed, options={}))


def play_until(state: GameState, done: object, limit: int = 5000) -> GameState:
    """Greedy moves until ``done(state)``."""
    for _ in range(limit):
        if done(state):  # type: ignore[operator]
            return state
        state, _ = step(state, propose(state, seed=1))
    raise AssertionError("the condition never held")


def test_nap_adv_06_07_08_start() -> None:
    """NAP-ADV-06/07/08: 40 regiments each for 3 players (plus a general and a fortification
    to place); one mission of each rank each, secret; every territory and zone empty."""
    state = started(3)
    f = fam(state)
    assert state.setup_left == [40, 40, 40] and f.pieces == (2, 2, 2)
    ranks = [[m.split("_")[0] for m in hand] for hand in f.missions]
    assert all(len(hand) == 4 for hand in f.missions)
    assert all(
        r in ("caporal", "capitaine", "general", "empereur", "empire", "route")
        for rs in ranks
        for r in rs
    )
    assert all(o == -1 for o in state.owner) and not any(n for row in f.ships for n in row)


def test_nap_adv_09_setup_cap_and_pieces() -> None:
    """NAP-ADV-09/47: no territory above 10 regiments during set-up; then each player places
    its general, then its fortification, on its own territories."""
    state = play_until(started(3), lambda s: not any(o == -1 for o in s.owner))
    seat = state.current
    mine = next(t for t, o in enumerate(state.owner) if o == seat)
    state.armies[mine] = 10
    with pytest.raises(rc.RuleError) as e:
        step(state, Place(seat=seat, territory=IDS[mine], count=1))
    assert e.value.code == "setup_cap"
    state = play_until(state, lambda s: s.phase == "pieces")
    assert max(state.armies) <= 10
    seat = state.current
    own = next(IDS[t] for t, o in enumerate(state.owner) if o == seat)
    with pytest.raises(rc.RuleError) as e:
        step(state, PlacePiece(seat=seat, kind="fortification", territory=own))
    assert e.value.code == "wrong_piece"
    state, _ = step(state, PlacePiece(seat=seat, kind="general", territory=own))
    state, _ = step(state, PlacePiece(seat=seat, kind="fortification", territory=own))
    assert fam(state).generals[T(own)] == 1 and own in fam(state).forts


def test_nap_adv_10_11_12_epidemics_first_player_and_cards() -> None:
    """NAP-ADV-10: 4 epidemics in 4 different empires; NAP-ADV-11 (DEC-27): a new roll for
    the first player, then NAP-ADV-12: starting cards by place in the turn order."""
    state = play_until(started(4, seed=9), lambda s: s.turn >= 1)
    f = fam(state)
    struck = [t for t, n in enumerate(f.epidemics) if n]
    assert sum(f.epidemics) == 4 and len({BOARD.territory_group[t] for t in struck}) == 4
    first = state.first
    hands = [len(state.players[(first + k) % 4].hand) for k in range(4)]
    assert hands == [0, 0, 1, 2]
    assert state.current == first and state.round == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bots_finish_five_rounds(players: int) -> None:
    """NAP-ADV-01: the game ends after the 5th round on the VP; the bots use ships, generals
    and conversions and finish every player count."""
    events = rc.start(RULES, [f"P{i}" for i in range(players)], seed=players, options={})
    state = rc.replay(events)
    kinds: set[str] = set()
    for _ in range(6000):
        if state.phase == "over":
            break
        new = rc.decide(state, propose(state, seed=2))
        kinds |= {type(e).__name__ for e in new}
        for ev in new:
            state = rc.evolve(state, ev)
    assert state.phase == "over" and state.round <= 5
    assert {"Converted", "FinalRanking", "GameWon"} <= kinds
    ranking = fam(state).ranking
    assert state.winner in ranking[0]
    assert fam(state).vp[ranking[0][0]] == max(fam(state).vp)


def test_nap_cap_01_02_capital_bonus_from_round_2(risk: Run, tmp_path: Path) -> None:
    """NAP-CAP-01/02 (DEC-31): Île de France and 4 more of the French Empire (5 of 9) pay the
    capital bonus 4, from round 2 only."""
    fr = members("empire_francais")
    ann = [
        "ile_de_france",
        *[t for t in fr if t != "ile_de_france"][:4],
        *members("royaume_uni")[:1],
    ]
    owners = {t: 0 for t in ann} | {"syrie": 2}
    base = max(3, len(ann) // 3)
    game = cli_game(
        risk, tmp_path, owners=owners, default_owner=1, options={"capitals": True}, turn=4, round=2
    )
    assert view(risk, game)["reserve"] == base + 4
    early = cli_game(risk, tmp_path, owners=owners, default_owner=1, options={"capitals": True})
    assert view(risk, early)["reserve"] == base
    plain = cli_game(risk, tmp_path, owners=owners, default_owner=1, turn=4, round=2)
    assert view(risk, plain)["reserve"] == base


def test_nap_cap_03_no_card_for_missions(tmp_path: Path) -> None:
    """NAP-CAP-03: with the Capitals option a mission accomplished draws no card."""
    twelve = [*members("empire_francais")[:8], *members("royaume_uni")[:2]]
    twelve += members("peninsule_iberique")[:2]  # 12 territories, no whole empire
    owners = {t: 0 for t in twelve} | {"syrie": 2}
    table = {"missions": {"0": ["caporal_12_territoires"]}}
    kw = dict(owners=owners, default_owner=1, family=table, phase="attack")
    state, _ = engine_game(**kw, options={"capitals": True})  # type: ignore[arg-type]
    state, evs = step(state, EndTurn(seat=0))
    assert "MissionAccomplished" in [type(e).__name__ for e in evs]
    assert "CardDrawn" not in [type(e).__name__ for e in evs if getattr(e, "seat", 0) == 0]
    plain, _ = engine_game(**kw)  # type: ignore[arg-type]
    plain, evs = step(plain, EndTurn(seat=0))
    assert [type(e).__name__ for e in evs].count("CardDrawn") >= 1


def test_nap_cap_04_not_with_the_whole_empire(risk: Run, tmp_path: Path) -> None:
    """NAP-CAP-04 (DEC-31): the whole empire pays its own bonus, not the capital's too."""
    owners = {t: 0 for t in members("empire_francais")} | {"syrie": 2}
    game = cli_game(
        risk, tmp_path, owners=owners, default_owner=1, options={"capitals": True}, turn=4, round=2
    )
    assert view(risk, game)["reserve"] == 3 + 8


def test_dec_31_capital_bonus_as_vp(tmp_path: Path) -> None:
    """DEC-31 option capital_bonus_kind=vp: the capital scores VP at the start of the turn."""
    fr = members("empire_francais")
    ann = ["ile_de_france", *[t for t in fr if t != "ile_de_france"][:4]]
    owners = {t: 0 for t in ann} | {"syrie": 2}
    state, _ = engine_game(
        owners=owners,
        default_owner=1,
        current=2,
        phase="attack",
        turn=6,
        round=2,
        options={"capitals": True, "capital_bonus_kind": "vp"},
    )
    state, _ = step(state, EndTurn(seat=2))
    assert fam(state).vp[0] == 4 and state.reserve == 3


def test_options_are_named_and_checked(risk: Run, tmp_path: Path) -> None:
    """Each decision is a named option; a bad value is refused with `invalid_option`."""
    assert (
        error(risk, "new", "--rules", RULES, "--players", "Ann,Bob,Cy", "--option", "rounds=4")
        == "invalid_option"
    )
