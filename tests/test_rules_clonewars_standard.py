"""CW-STD-01..12 and DEC-37: a standard game of Risk on the Clone Wars galaxy (rulebook 002).

Positions come from scenario documents (``tests.clonewars_kit``), through the CLI where the
rulebook's own text is the example; the other rules are checked in-process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.model import (
    Attack,
    BattleFought,
    CardDrawn,
    CardsTraded,
    EndTurn,
    Fortify,
    GameWon,
    PlayerEliminated,
    TerritoriesDealt,
    Trade,
    TurnStarted,
)
from risk_core.rulesets.clonewars_data import anakin_cards
from tests.clonewars_kit import (
    BOARD,
    CAPITALS,
    CORVETTES,
    DECK,
    FIGHTERS,
    IDS,
    STANDARD,
    Run,
    cli_game,
    engine_game,
    error,
    members,
    out,
)
from tests.gamekit import play, rejected

ALL_MINE = dict.fromkeys(IDS, 0)


def test_cw_std_01_the_galaxy_board_and_nothing_of_the_faction_game() -> None:
    """CW-STD-01/12: the galaxy board, no family state (no ships, tokens, Order 66 track),
    no extra commands, only the core phases."""
    info = next(i for i in rc.rulesets() if i.name == STANDARD)
    assert info.board == "clonewars" and (info.min_players, info.max_players) == (3, 4)
    state = rc.replay(rc.start(STANDARD, ["Ann", "Bob", "Cy"], seed=1))
    assert state.board == "clonewars" and state.family is rc.model.msgspec.UNSET
    rs = rc.ruleset_of(state)
    assert rs.cli_module is None and set(rs.phases) <= {
        "setup",
        "reinforce",
        "attack",
        "defend",
        "occupy",
        "elim_trade",
        "final",
        "over",
    }


def test_cw_std_02_one_mixed_deck_without_anakin() -> None:
    """CW-STD-02 (002 l.160): both faction decks in one pile, the Anakin cards removed."""
    opening = rc.start(STANDARD, ["Ann", "Bob", "Cy"], seed=2)
    deck = rc.replay(opening).deck
    assert sorted(deck) == sorted(DECK) and len(deck) == 60 - len(anakin_cards(BOARD))
    assert not set(deck) & anakin_cards(BOARD)
    assert {BOARD.cards[c].deck for c in deck} == {"republic", "separatist"}


def test_cw_std_03_d6_only() -> None:
    """CW-STD-03 (002 l.162): every die of a whole game is a d6, 3 against 2 at most."""
    _, events = self_play(rc.start(STANDARD, ["A", "B", "C"], seed=3), level="greedy", seed=1)
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert battles
    for b in battles:
        assert all(1 <= f <= 6 for f in (*b.attack, *b.defence))
        assert len(b.attack) <= 3 and len(b.defence) <= 2


@pytest.mark.parametrize(("players", "troops"), [(3, 35), (4, 30)])
def test_cw_std_04_starting_troops(players: int, troops: int) -> None:
    """CW-STD-04 (002 l.184-190): 3 players 35 troops each, 4 players 30."""
    events = rc.start(STANDARD, ["Ann", "Bob", "Cy", "Dee"][:players], seed=4)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert dealt.setup_left == (troops,) * players


@pytest.mark.parametrize("players", [2, 5])
def test_dec_37_gap_25_three_or_four_players_only(risk: Run, players: int) -> None:
    """DEC-37 / GAP-25: 2-player standard games are not described (nor 5): refused."""
    names = ",".join(["Ann", "Bob", "Cy", "Dee", "Eve"][:players])
    result = risk("new", "--rules", STANDARD, "--players", names, code=1)
    assert result.stderr.rstrip().endswith("[bad_players]")


def test_cw_std_11_claiming_then_one_troop_at_a_time(risk: Run) -> None:
    """CW-STD-11 (002 l.192-214): every planet starts unclaimed; the highest d6 claims first,
    one planet at a time; no planet may be reinforced while one is free."""
    events = rc.start(STANDARD, ["Ann", "Bob", "Cy"], seed=5)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert set(dealt.owners) == {-1} and set(dealt.armies) == {0}
    game = json.loads(
        risk("new", "--rules", STANDARD, "--players", "Ann,Bob,Cy", "--seed", "5", "--json").stdout
    )["game_id"]
    first = out(risk, "show", game)["to_act"]
    risk("place", game, "coruscant", "--as", str(first))
    second = (first + 1) % 3
    assert error(risk, "place", game, "coruscant", "--as", str(second)) == "already_claimed"
    risk("place", game, "alderaan", "--as", str(second))
    assert error(risk, "place", game, "coruscant", "--as", str((second + 1) % 3)) == (
        "already_claimed"
    )


@pytest.mark.parametrize(
    ("planets", "expected"), [(1, 3), (11, 3), (12, 4), (14, 4), (20, 6), (30, 10), (38, 12)]
)
def test_cw_std_05_reinforcement_table(planets: int, expected: int) -> None:
    """CW-STD-05 with the planet table of 002 l.291-306: planets / 3 rounded down, never fewer
    than 3 (1-11 → 3, 12-14 → 4, 18-20 → 6, 30-32 → 10, 36-38 → 12); systems apart."""
    owners = {t: (0 if i < planets else 1 + i % 2) for i, t in enumerate(IDS)}
    _, events = engine_game(owners=owners)
    started = [e for e in events if isinstance(e, TurnStarted)][-1]
    assert (started.territories, started.base) == (planets, expected)


def test_cw_19_system_bonus_expansion_region() -> None:
    """CW-STD-05 (002 l.307): controlling the Expansion Region gives 3 more troops."""
    owners = {t: 1 for t in IDS}
    owners.update(dict.fromkeys(members("expansion_region"), 0))
    owners[IDS[0]] = 2
    _, events = engine_game(owners=owners)
    started = [e for e in events if isinstance(e, TurnStarted)][-1]
    assert started.groups == ("expansion_region",) and started.income == 3 + 3


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        (FIGHTERS[:3], 4),
        (CORVETTES[:3], 5),
        (CAPITALS[:3], 6),
        ([FIGHTERS[0], CORVETTES[0], CAPITALS[0]], 7),
    ],
)
def test_cw_std_10_dec_37_ship_class_table(
    risk: Run, tmp_path: Path, cards: list[int], value: int
) -> None:
    """CW-STD-10 / DEC-37 (A) (002 l.315-325): 3 fighters 4, 3 corvettes 5, 3 capital ships 6,
    one of each 7, traded through the CLI by card id."""
    game = cli_game(risk, tmp_path, hands={"Ann": cards})
    traded = out(risk, "trade", game, *(str(c) for c in cards))["events"]
    assert traded[0]["type"] == "cards_traded" and traded[0]["value"] == value


def test_cw_std_10_two_of_a_class_and_one_other_is_no_set() -> None:
    """CW-STD-10: 2 fighters and a corvette are not a set."""
    hand = [FIGHTERS[0], FIGHTERS[1], CORVETTES[0]]
    state, _ = engine_game(hands={"Ann": hand})
    assert rejected(state, Trade(seat=0, cards=tuple(hand))) == "invalid_set"


def test_dec_37_escalating_option() -> None:
    """DEC-37 (B), option trade_values=escalating: the classic values 4, 6, 8... whatever the
    classes."""
    hand = [*FIGHTERS[:3], *CAPITALS[:3]]
    state, _ = engine_game(hands={"Ann": hand}, options={"trade_values": "escalating"})
    state, events = play(state, Trade(seat=0, cards=tuple(CAPITALS[:3])))
    assert [e.value for e in events if isinstance(e, CardsTraded)] == [4]
    state, events = play(state, Trade(seat=0, cards=tuple(FIGHTERS[:3])))
    assert [e.value for e in events if isinstance(e, CardsTraded)] == [6]


def test_cw_std_10_five_cards_must_trade() -> None:
    """CW-STD-10 (CW-20, 002 l.313): with 5 cards in hand a set must be played before
    placing."""
    hand = [*FIGHTERS[:3], CORVETTES[0], CAPITALS[0]]
    state, _ = engine_game(hands={"Ann": hand})
    assert rejected(state, rc.model.Place(seat=0, territory=IDS[0], count=1)) == "must_trade"


def test_cw_std_06_eliminator_takes_cards_and_trades_while_five() -> None:
    """CW-STD-06 (002 l.457-461): the eliminator takes the cards; holding 5 or more it stops,
    trades a set and places the troops, then continues its turn."""
    owners = dict(ALL_MINE)
    owners.update({"ithor": 2, "mygeeto": 1})
    state, _ = engine_game(
        owners=owners,
        armies={"muunilinst": 6, "ithor": 1},
        hands={"Ann": FIGHTERS[:3], "Cy": CORVETTES[:3]},
        phase="attack",
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="muunilinst", target="ithor", dice=1, move=1))
    gone = next(e for e in events if isinstance(e, PlayerEliminated))
    assert gone.seat == 2 and sorted(gone.cards) == sorted(CORVETTES[:3])
    assert len(state.players[0].hand) == 6 and state.phase == "elim_trade"
    assert rejected(state, Attack(seat=0, origin="muunilinst", target="mygeeto")) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=tuple(CORVETTES[:3])))
    assert state.reserve == 5
    state, _ = play(state, rc.model.Place(seat=0, territory="muunilinst", count=5))
    assert state.phase == "attack"


def test_cw_std_07_last_player_wins(risk: Run, tmp_path: Path) -> None:
    """CW-STD-07 (002 l.556): the last player, holding all 42 planets, wins."""
    owners = dict(ALL_MINE)
    owners.update({"ithor": 1, "mygeeto": 2})
    game = cli_game(
        risk,
        tmp_path,
        owners=owners,
        armies={"muunilinst": 9, "ithor": 1, "mygeeto": 1},
        phase="attack",
        dice=[6, 1, 6, 1],
    )
    risk("attack", game, "muunilinst", "ithor", "--dice", "1", "--move", "1")
    result = out(risk, "attack", game, "muunilinst", "mygeeto", "--dice", "1", "--move", "1")
    won = [e for e in result["events"] if e["type"] == "game_won"]
    assert won and won[0]["seat"] == 0
    assert out(risk, "show", game)["phase"] == "over"


def test_cw_std_08_no_protection_and_paths_through_own_planets_only() -> None:
    """CW-STD-08: anyone may attack anyone, a last planet included, from round 1; the free move
    follows a chain of the mover's own planets (002 l.470-474), never through another's."""
    owners = {t: 1 for t in IDS}
    owners.update({"muunilinst": 0, "mygeeto": 0, "ithor": 0, "corellia": 2})
    state, _ = engine_game(owners=owners, armies={"muunilinst": 5}, phase="attack", dice=[6, 1])
    # Cy's only planet, Corellia, may be attacked in round 1 (no CL-21 protection)
    _, events = play(state, Attack(seat=0, origin="ithor", target="corellia", dice=1))
    assert any(isinstance(e, BattleFought) for e in events)
    # Mygeeto is reached from Muunilinst directly; Corellia's far side is not
    state, _ = play(state, Fortify(seat=0, origin="muunilinst", target="mygeeto", count=2))
    assert state.armies[BOARD.index["mygeeto"]] == 4
    owners.update({"dantooine": 0, "alderaan": 0})
    state, _ = engine_game(owners=owners, armies={"ithor": 5}, phase="attack")
    # Ithor -> Muunilinst -> Dantooine: a chain of own planets, two steps
    done, _ = play(state, Fortify(seat=0, origin="ithor", target="dantooine", count=1))
    assert done.armies[BOARD.index["dantooine"]] == 3
    # Alderaan is Ann's too, but only through Bob's and Cy's planets (Corellia, Dathomir)
    assert rejected(state, Fortify(seat=0, origin="ithor", target="alderaan", count=1)) == (
        "not_connected"
    )


def test_cw_std_09_one_card_however_many_conquests() -> None:
    """CW-STD-09 (002 l.604, 'PIOCHEZ UNE CARTE'): two planets taken from two players, one
    card."""
    owners = dict(ALL_MINE)
    owners.update({"ithor": 1, "mygeeto": 2, "kamino": 1, "ando": 2})
    state, _ = engine_game(
        owners=owners,
        armies={"muunilinst": 9, "ithor": 1, "mygeeto": 1},
        phase="attack",
        dice=[6, 1, 6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="muunilinst", target="ithor", dice=1, move=1))
    state, _ = play(state, Attack(seat=0, origin="muunilinst", target="mygeeto", dice=1, move=1))
    state, events = play(state, EndTurn(seat=0))
    assert sum(1 for e in events if isinstance(e, CardDrawn) and e.seat == 0) == 1


def test_cw_std_12_faction_options_are_refused(risk: Run) -> None:
    """CW-STD-12: nothing of the faction game can be switched on (no such option)."""
    result = risk(
        "new", "--rules", STANDARD, "--players", "Ann,Bob,Cy", "--option", "order66=true", code=1
    )
    assert result.stderr.rstrip().endswith("[invalid_option]")


def test_bots_finish_and_demo_runs(risk: Run) -> None:
    """issue 16: greedy bots play the standard game to its end; `risk demo --rules
    clonewars-standard` finishes with a winner."""
    _, events = self_play(rc.start(STANDARD, ["A", "B", "C", "D"], seed=9), level="greedy", seed=2)
    assert isinstance(events[-1], GameWon) or any(isinstance(e, GameWon) for e in events)
    shown = risk("demo", "--rules", STANDARD, "--seed", "3").stdout
    assert "wins by conquering the world" in shown


def test_audit_export_import_and_hidden_hands(risk: Run, tmp_path: Path) -> None:
    """issue 16: audit, export and import work unchanged on the galaxy; a player's view holds
    its own hand and only the sizes of the others' (ENG-07)."""
    risk("new", "--rules", STANDARD, "--players", "Ann,Bob,Cy", "--seed", "8", "--id", "gx")
    risk("bot", "gx", "--all", "--max-turns", "30", code=1)  # stops at the turn limit
    assert "reproduced byte for byte" in risk("audit", "gx").stdout
    exported = tmp_path / "gx.jsonl"
    risk("export", "gx", "-o", str(exported))
    risk("import", str(exported), "--id", "gx2")
    assert out(risk, "show", "gx2") == {**out(risk, "show", "gx"), "game_id": "gx2"}
    view = out(risk, "show", "gx", "--as", "Ann")
    players = view["players"]
    assert len(players[0]["hand"]) == players[0]["cards"]
    assert all("hand" not in p and p["cards"] >= 0 for p in players[1:])
    assert "seed" not in json.dumps(view)
