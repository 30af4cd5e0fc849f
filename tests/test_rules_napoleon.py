"""NAP-* rules of the basic Risk Napoléon game (rulebook 000, catalogue §4.1)."""

from __future__ import annotations

import pytest

import risk_core as rc
from risk_core.model import (
    Attack,
    CardsTraded,
    FirstPlayerChosen,
    Fortify,
    GameWon,
    Place,
    TerritoriesDealt,
    Trade,
)
from risk_core.rulesets.napoleon import golden_cavalry_value
from tests.gamekit import play, position, rejected

BOARD = rc.load_board("napoleon")
IDS = [t.id for t in BOARD.territories]
JOKERS = [c for c, s in enumerate(BOARD.card_symbols) if s == "joker"]


def nap(**kw):  # type: ignore[no-untyped-def]
    kw.setdefault("ruleset", "napoleon")
    return position(**kw)


def cards_of(symbol: str, n: int) -> list[str]:
    return [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == symbol][:n]


def hand_ids(names: list[str]) -> tuple[int, ...]:
    jokers = iter(JOKERS)
    return tuple(next(jokers) if n == "joker" else BOARD.index[n] for n in names)


def test_nap01_board_has_48_territories_in_11_empires() -> None:
    """NAP-01: the Europe 1811 board."""
    assert len(BOARD.territories) == 48 and len(BOARD.groups) == 11


@pytest.mark.parametrize(("players", "regiments"), [(3, 40), (4, 35), (5, 30), (6, 25)])
def test_nap04_starting_regiments(players: int, regiments: int) -> None:
    """NAP-04: 40/35/30/25 starting regiments."""
    events = rc.start("napoleon", [f"P{i}" for i in range(players)], seed=1)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert dealt.setup_left == (regiments,) * players


def test_nap05_06_claim_from_the_first_player_into_empty_territories() -> None:
    """NAP-05/06: the highest roller claims first; claimed territories cannot be claimed again."""
    state = rc.replay(rc.start("napoleon", ["A", "B", "C"], seed=4, dice=[2, 5, 3]))
    assert state.current == 1 and set(state.owner) == {-1}
    assert sorted(state.deck) == list(range(50))  # NAP-05: 48 cards and 2 jokers
    state, _ = play(state, Place(seat=1, territory="castille"))
    assert rejected(state, Place(seat=2, territory="castille")) == "already_claimed"
    assert rejected(state, Place(seat=2, territory="portugal", count=2)) == "bad_count"


def test_nap07_08_placement_then_a_second_roll_for_the_first_turn() -> None:
    """NAP-07: one regiment at a time; NAP-08: a separate roll decides the first turn."""
    events = rc.start("napoleon", ["A", "B", "C"], seed=4)
    state = rc.replay(events)
    while state.phase == "setup":
        seat = state.current
        free = [t for t, o in enumerate(state.owner) if o == -1]
        target = free[0] if free else state.owner.index(seat)
        state, new = play(state, Place(seat=seat, territory=IDS[target]))
        events += new
    rolls = [e for e in events if isinstance(e, FirstPlayerChosen)]
    assert len(rolls) == 2
    assert state.current == rolls[1].seat and state.turn == 1
    assert sum(state.armies) == 3 * 40


def test_nap10_income_with_empire_bonus() -> None:
    """NAP-10: max(3, T/3) plus the bonus of every whole empire (values: board data)."""
    uk = [IDS[t] for t in BOARD.group_members[BOARD.group_index["royaume_uni"]]]
    owners = {t: 0 for t in uk}
    owners["castille"] = 2
    state, events = nap(owners=owners, default_owner=1, players=3)
    assert events[-1].groups == ("royaume_uni",)  # type: ignore[attr-defined]
    assert state.reserve == 3 + BOARD.groups[BOARD.group_index["royaume_uni"]].bonus


def test_nap11_golden_cavalry_track() -> None:
    """NAP-11/DEC-01: 4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, then +5."""
    values = [golden_cavalry_value(k) for k in range(1, 16)]
    assert values == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]


def test_nap11_track_advances_after_every_trade_by_anyone() -> None:
    """NAP-11/NAP-14: each set is worth the track value, which then advances (DEC-46)."""
    a, b = cards_of("infantry", 3), cards_of("cavalry", 3)
    state, _ = nap(hands={0: a + b}, trades=2)
    state, events = play(state, Trade(seat=0, cards=hand_ids(a)))
    assert isinstance(events[0], CardsTraded) and events[0].value == 8
    state, events = play(state, Trade(seat=0, cards=hand_ids(b)))
    assert events[0].value == 10 and state.trades == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "names",
    [["joker", "c1", "c2"], ["joker", "c1", "i1"], ["joker", "joker", "a1"]],
)
def test_nap12_joker_stands_for_any_symbol(names: list[str]) -> None:
    """NAP-12: a joker replaces any symbol."""
    pick = {
        "c1": cards_of("cavalry", 2)[0],
        "c2": cards_of("cavalry", 2)[1],
        "i1": cards_of("infantry", 1)[0],
        "a1": cards_of("artillery", 1)[0],
    }
    hand = [pick.get(n, n) for n in names]
    state, _ = nap(hands={0: hand})
    play(state, Trade(seat=0, cards=hand_ids(hand)))


def test_nap12_two_alike_and_one_other_is_no_set() -> None:
    """NAP-12: only three alike or one of each."""
    hand = cards_of("cavalry", 2) + cards_of("infantry", 1)
    state, _ = nap(hands={0: hand})
    assert rejected(state, Trade(seat=0, cards=hand_ids(hand))) == "invalid_set"


def test_nap13_dec02_five_cards_must_trade() -> None:
    """NAP-13/DEC-02: 5+ cards at reinforcement must trade down to 4."""
    hand = cards_of("cavalry", 3) + cards_of("infantry", 2)
    state, _ = nap(hands={0: hand})
    assert rejected(state, Place(seat=0, territory=IDS[state.owner.index(0)])) == "must_trade"


def test_nap16_dec22_no_card_territory_bonus_by_default() -> None:
    """NAP-16/DEC-22: no +2 for a traded card showing an owned territory (option turns it on)."""
    hand = cards_of("infantry", 3)
    owners = {hand[0]: 0, hand[1]: 1, hand[2]: 1}
    state, _ = nap(hands={0: hand}, owners=owners)
    _, events = play(state, Trade(seat=0, cards=hand_ids(hand)))
    assert events[0].bonus == ()  # type: ignore[attr-defined]
    state, _ = nap(hands={0: hand}, owners=owners, options={"card_territory_bonus": True})
    _, events = play(state, Trade(seat=0, cards=hand_ids(hand)))
    assert events[0].bonus == (hand[0],)  # type: ignore[attr-defined]


def test_nap02_18_attack_along_a_sea_line() -> None:
    """NAP-02/NAP-18: Andalousie–Maroc is a maritime line: attacks may cross it."""
    state, _ = nap(
        phase="attack",
        owners={"andalousie": 0, "maroc_fes_etats_barbaresques": 1},
        armies={"andalousie": 5},
    )
    play(state, Attack(seat=0, origin="andalousie", target="maroc_fes_etats_barbaresques"))


def test_nap23_dec03_six_cards_after_elimination_trade_down_to_four() -> None:
    """NAP-23/DEC-03: 6+ cards after taking an eliminated player's hand → trade to ≤4."""
    mine = cards_of("infantry", 3)
    theirs = cards_of("cavalry", 3)
    state, _ = nap(
        phase="attack",
        owners={"syrie": 2, "castille": 1},
        default_owner=0,
        armies={"anatolie": 6, "syrie": 1},
        hands={0: mine, 2: theirs},
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert state.players[2].eliminated and state.phase == "elim_trade"


def test_nap23_five_cards_after_elimination_is_not_forced() -> None:
    """DEC-03: five cards after an elimination do not force a trade (only 6+)."""
    mine = cards_of("infantry", 2)
    theirs = cards_of("cavalry", 3)
    state, _ = nap(
        phase="attack",
        owners={"syrie": 2, "castille": 1},
        default_owner=0,
        armies={"anatolie": 6, "syrie": 1},
        hands={0: mine, 2: theirs},
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert state.phase == "attack" and len(state.players[0].hand) == 5


def test_nap23_trade_after_elimination_only_immediately() -> None:
    """NAP-23: the cards taken are traded "immédiatement": right after the conquest (a set may
    still be traded then), never after the next battle."""
    theirs = cards_of("cavalry", 3)
    state, _ = nap(
        phase="attack",
        owners={"syrie": 2, "castille": 1},
        default_owner=0,
        armies={"anatolie": 6, "syrie": 1, "andalousie": 6, "castille": 3},
        hands={2: theirs},
        dice=[6, 1, 1, 6],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert state.may_trade and Trade(seat=0, cards=hand_ids(theirs)) in rc.legal_commands(state)
    state, _ = play(state, Attack(seat=0, origin="andalousie", target="castille", dice=1))
    assert rejected(state, Trade(seat=0, cards=hand_ids(theirs))) == "wrong_phase"


def test_nap24_maneuver_along_own_chain_not_through_enemies() -> None:
    """NAP-24/NAP-27: the maneuver follows own territories only."""
    chain = ["egypte", "syrie", "anatolie"]
    owners = {t: 0 for t in chain}
    owners["castille"] = 2
    state, _ = nap(phase="attack", owners=owners, armies={"egypte": 5}, default_owner=1)
    state, _ = play(state, Fortify(seat=0, origin="egypte", target="anatolie", count=4))
    owners["syrie"] = 1
    state, _ = nap(phase="attack", owners=owners, armies={"egypte": 5}, default_owner=1)
    assert rejected(state, Fortify(seat=0, origin="egypte", target="anatolie", count=1)) == (
        "not_connected"
    )


def test_nap26_owning_all_48_wins() -> None:
    """NAP-26: eliminate every opponent and own all 48 territories."""
    state, _ = nap(
        phase="attack",
        owners={"syrie": 1, "castille": 2},
        default_owner=0,
        armies={"anatolie": 6, "syrie": 1, "castille": 1, "andalousie": 5},
        dice=[6, 1, 6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="andalousie", target="castille", dice=1, move=1))
    _, events = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert isinstance(events[-1], GameWon) and events[-1].reason == "conquest"


def test_nap_no_protected_rounds() -> None:
    """NAP-23: nothing protects a player's last territory in the first rounds."""
    state, _ = nap(
        phase="attack",
        round=1,
        owners={"syrie": 2, "castille": 1},
        default_owner=0,
        armies={"anatolie": 6},
    )
    play(state, Attack(seat=0, origin="anatolie", target="syrie"))


def test_core_13_names_with_a_comma_are_listed_apart() -> None:
    """CORE-13's not_adjacent hint lists where the origin can attack; a Napoléon name holding a
    comma ("Pomerania, Brandenburg & Silesia") is set apart by semicolons, where it read as two
    territories among the others."""
    owners = {"saxe_westphalie": 0, "egypte": 2}
    state, _ = position(ruleset="napoleon", owners=owners, default_owner=1, phase="attack")
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, Attack(seat=0, origin="saxe_westphalie", target="egypte"))
    assert refused.value.code == "not_adjacent"
    assert "; Holland; Pomerania, Brandenburg & Silesia; Kingdom of Denmark." in (
        refused.value.message
    )
