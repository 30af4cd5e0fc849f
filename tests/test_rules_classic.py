"""CL-*, CL-2P-*, CL-CQ-* rules and the classic DEC-* options (rulebook 004)."""

from __future__ import annotations

from collections import Counter

import pytest

import risk_core as rc
from risk_core import looks
from risk_core.model import (
    Attack,
    BattleFought,
    CardsTraded,
    EndTurn,
    Fortify,
    GameState,
    GameWon,
    MissionsDealt,
    Occupy,
    Place,
    TerritoriesDealt,
    Trade,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.allies import AllyPlaced
from risk_core.rulesets.classic import Classic2P, escalating_value
from tests.gamekit import BOARD, IDS, armies_of, group, kinds, owner_of, play, position, rejected

RULES_2P = Classic2P()
JOKERS = [c for c, s in enumerate(BOARD.card_symbols) if s == "joker"]


def cards_of(symbol: str, n: int, skip: int = 0) -> list[str]:
    """Territory cards of one symbol, avoiding the territories the tests fight over."""
    busy = {"alaska", "kamchatka", "brazil", "venezuela", "alberta"}
    found = [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == symbol]
    return [t for t in found if t not in busy][skip : skip + n]


def hand_ids(names: list[str]) -> tuple[int, ...]:
    jokers = iter(JOKERS)
    return tuple(next(jokers) if n == "joker" else BOARD.index[n] for n in names)


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_cl02_starting_armies(players: int, armies: int) -> None:
    """CL-02: 35/30/25/20 armies; CL-05: one army per dealt territory counts towards them."""
    events = rc.start("classic", [f"P{i}" for i in range(players)], seed=players)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    for seat in range(players):
        assert dealt.owners.count(seat) + dealt.setup_left[seat] == armies


def test_cl04_one_secret_mission_each_all_different() -> None:
    """CL-04: each player gets one mission card at random; the rest are set aside."""
    events = rc.start("classic", ["A", "B", "C", "D", "E", "F"], seed=8)
    dealt = next(e for e in events if isinstance(e, MissionsDealt))
    assert len(set(dealt.missions)) == 6
    assert {m.id for m in BOARD.missions} >= set(dealt.missions)  # type: ignore[operator]


def test_cl05_deal_by_cards_with_jokers() -> None:
    """CL-05: 44 cards dealt round-robin; jokers give no territory; one army on each."""
    events = rc.start("classic", ["A", "B", "C", "D", "E"], seed=12)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert -1 not in dealt.owners and set(dealt.armies) == {1}
    counts = Counter(dealt.owners)
    # 44 cards over 5 seats: 9 or 8 cards each, jokers included, so 7..9 territories.
    assert all(7 <= counts[s] <= 9 for s in range(5)) and sum(counts.values()) == 42


def test_cl05_claim_option() -> None:
    """CL-05 option setup=claim: territories are claimed one at a time before reinforcing."""
    events = rc.start("classic", ["A", "B", "C"], seed=2, options={"setup": "claim"})
    state = rc.replay(events)
    assert set(state.owner) == {-1} and state.setup_left == [35, 35, 35]
    seat = state.current
    state, _ = play(state, Place(seat=seat, territory="alaska"))
    nxt = state.current
    assert rejected(state, Place(seat=nxt, territory="alaska")) == "already_claimed"


def test_cl06_dec15_all_at_once_option() -> None:
    """DEC-15 option setup_placement=all_at_once: a seat places all its armies, then the next."""
    events = rc.start(
        "classic", ["A", "B", "C"], seed=4, options={"setup_placement": "all_at_once"}
    )
    state = rc.replay(events)
    seat = state.current
    mine = IDS[state.owner.index(seat)]
    left = state.setup_left[seat]
    state, _ = play(state, Place(seat=seat, territory=mine, count=left - 1))
    assert state.current == seat
    state, _ = play(state, Place(seat=seat, territory=mine, count=1))
    assert state.current != seat


def test_cl06_setup_ends_with_first_players_turn() -> None:
    """CL-06/CL-08: after every starting army is placed, the first player's turn begins."""
    state = rc.replay(rc.start("classic", ["A", "B", "C"], seed=5))
    while state.phase == "setup":
        seat = state.current
        state, _ = play(state, Place(seat=seat, territory=IDS[state.owner.index(seat)]))
    assert state.phase == "reinforce" and state.current == state.first and state.turn == 1
    assert sum(state.armies) == 3 * 35


def test_cl07_draw_pile_holds_all_44_cards() -> None:
    """CL-07: after setup all territory cards and both jokers form the draw pile."""
    state = rc.replay(rc.start("classic", ["A", "B", "C"], seed=6))
    assert sorted(state.deck) == list(range(44))


def test_dec16_first_player_seat0_option() -> None:
    """DEC-16 option first_player=seat0."""
    state = rc.replay(
        rc.start("classic", ["A", "B", "C"], seed=6, options={"first_player": "seat0"})
    )
    assert state.first == 0


# ----------------------------------------------------------------------------- cards
@pytest.mark.parametrize(
    ("symbols", "value"),
    [
        (["artillery"] * 3, 4),
        (["infantry"] * 3, 6),
        (["cavalry"] * 3, 8),
        (["artillery", "infantry", "cavalry"], 10),
        (["joker", "cavalry", "cavalry"], 12),
        (["joker", "cavalry", "infantry"], 10),  # DEC-09 extended
        (["joker", "joker", "infantry"], 12),  # DEC-09 extended
    ],
)
def test_cl10_dec08_dec09_literal_set_values(symbols: list[str], value: int) -> None:
    """CL-10 with DEC-08 (literal table) and DEC-09 (extended joker sets)."""
    names, used = [], Counter[str]()
    for s in symbols:
        names.append("joker" if s == "joker" else cards_of(s, 1, skip=used[s])[0])
        used[s] += 1
    # Nobody owns the card territories' owner issue: give them to seat 1 (no CL-11 bonus).
    owners = {n: 1 for n in names if n != "joker"}
    state, _ = position(owners=owners, hands={0: names})
    state, events = play(state, Trade(seat=0, cards=hand_ids(names)))
    traded = events[0]
    assert isinstance(traded, CardsTraded) and traded.value == value and traded.bonus == ()


def test_dec08_usual_values_option() -> None:
    """DEC-08 option set_values=usual: 3 infantry 4, 3 cavalry 6, 3 artillery 8."""
    names = cards_of("artillery", 3)
    state, _ = position(
        owners={n: 1 for n in names}, hands={0: names}, options={"set_values": "usual"}
    )
    _, events = play(state, Trade(seat=0, cards=hand_ids(names)))
    assert events[0].value == 8  # type: ignore[attr-defined]


def test_dec09_listed_option_refuses_unlisted_joker_sets() -> None:
    """DEC-09 option joker_sets=listed: only joker + 2 identical is a joker set."""
    names = ["joker", cards_of("cavalry", 1)[0], cards_of("infantry", 1)[0]]
    state, _ = position(hands={0: names}, options={"joker_sets": "listed"})
    assert rejected(state, Trade(seat=0, cards=hand_ids(names))) == "invalid_set"


def test_core10_invalid_set_and_cards_not_in_hand() -> None:
    """CORE-10: two of a kind plus another is no set; only own cards can be traded."""
    names = cards_of("cavalry", 2) + cards_of("infantry", 1)
    state, _ = position(hands={0: names})
    assert rejected(state, Trade(seat=0, cards=hand_ids(names))) == "invalid_set"
    assert rejected(state, Trade(seat=0, cards=(0, 0, 1))) == "not_in_hand"
    other = cards_of("artillery", 3)
    assert rejected(state, Trade(seat=0, cards=hand_ids(other))) == "not_in_hand"


def test_cl11_territory_card_bonus_placed_on_that_territory() -> None:
    """CL-11: +2 armies on each traded card's territory the trader occupies (not for jokers)."""
    names = cards_of("infantry", 2) + ["joker"]
    state, _ = position(owners={names[0]: 0, names[1]: 1}, hands={0: names})
    before = armies_of(state, names[0])
    state, events = play(state, Trade(seat=0, cards=hand_ids(names)))
    traded = events[0]
    assert isinstance(traded, CardsTraded) and traded.bonus == (names[0],)
    assert armies_of(state, names[0]) == before + 2
    assert armies_of(state, names[1]) == 3


def test_cl12_five_cards_must_trade() -> None:
    """CL-12: a hand of 5+ cards must trade before placing."""
    names = cards_of("infantry", 3) + cards_of("cavalry", 2)
    state, _ = position(hands={0: names})
    assert rejected(state, Place(seat=0, territory=IDS[state.owner.index(0)])) == "must_trade"
    assert rejected(state, EndTurn(seat=0)) == "must_trade"  # what is due, not the step's name
    state, _ = play(state, Trade(seat=0, cards=hand_ids(names[:3])))
    state, _ = play(state, Place(seat=0, territory=IDS[state.owner.index(0)]))


def test_cl13_cl14_several_sets_and_discard() -> None:
    """CL-13: several sets in one reinforcement; CL-14: traded cards go to the discard pile."""
    a, b = cards_of("infantry", 3), cards_of("cavalry", 3)
    state, _ = position(owners={n: 1 for n in a + b}, hands={0: a + b})
    reserve = state.reserve
    state, _ = play(state, Trade(seat=0, cards=hand_ids(a)))
    state, _ = play(state, Trade(seat=0, cards=hand_ids(b)))
    assert state.reserve == reserve + 6 + 8
    assert sorted(state.discard) == sorted(hand_ids(a + b)) and state.players[0].hand == []


# ----------------------------------------------------------------------------- combat
def test_cl15_sea_line_alaska_kamchatka() -> None:
    """CL-15: attacks by land or along a sea line (Alaska–Kamchatka)."""
    state, _ = position(phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 4})
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka"))
    assert isinstance(events[0], BattleFought)


def test_cl16_attack_names_origin_and_target() -> None:
    """CL-16 / ENG-05: origin and target are mandatory fields, checked against the board."""
    state, _ = position(phase="attack")
    assert rejected(state, Attack(seat=0, origin="", target="alaska")) == "unknown_territory"


def test_cl19_free_move_must_be_adjacent() -> None:
    """CL-19 / CL-23: no multi-territory path in the classic free move."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "alberta": 0, "ontario": 0}, armies={"alaska": 5}
    )
    assert rejected(state, Fortify(seat=0, origin="alaska", target="ontario", count=1)) == (
        "not_adjacent"
    )


def test_cl19_connected_option_allows_own_paths() -> None:
    """CL-19 option fortify=connected: a chain of own territories (CORE-19 path rule)."""
    owners = {
        "alaska": 0,
        "alberta": 0,
        "ontario": 0,
        "northwest_territory": 1,
        "western_united_states": 1,
    }
    state, _ = position(
        phase="attack", owners=owners, armies={"alaska": 5}, options={"fortify": "connected"}
    )
    state, _ = play(state, Fortify(seat=0, origin="alaska", target="ontario", count=4))
    assert armies_of(state, "ontario") == 7
    # CORE-20: a path through an enemy territory is not friendly.
    owners["alberta"] = 1
    state, _ = position(
        phase="attack", owners=owners, armies={"alaska": 5}, options={"fortify": "connected"}
    )
    assert rejected(state, Fortify(seat=0, origin="alaska", target="ontario", count=1)) == (
        "not_connected"
    )


# ----------------------------------------------------------------------------- elimination
def _eliminating_with_six_cards() -> tuple[list[str], rc.GameState]:
    """Ann (3 infantry cards) about to take Cy's last territory, Kamchatka, and Cy's 3 cavalry
    cards (classic-conquest, round 5: no protection): her cards' territories, the position."""
    mine = cards_of("infantry", 3)
    theirs = cards_of("cavalry", 3)
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1, **{n: 1 for n in mine + theirs}},
        armies={"alaska": 6, "kamchatka": 1},
        default_owner=0,
        hands={0: mine, 2: theirs},
        dice=[6, 1],
    )
    return mine, state


def test_cl20_dec13_eliminator_takes_cards_and_must_trade_to_four() -> None:
    """CL-20 / DEC-13: the eliminator takes the cards; with 5+ it trades down to 4 at once."""
    mine, state = _eliminating_with_six_cards()
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert "PlayerEliminated" in kinds(events)
    assert len(state.players[0].hand) == 6 and state.players[2].hand == []
    assert state.phase == "elim_trade"
    assert rejected(state, Attack(seat=0, origin="alaska", target="brazil")) == "must_trade"
    # The refusal says why: a trade first (it said "Place your 0 armies").
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, Attack(seat=0, origin="alaska", target="brazil"))
    assert str(refused.value) == (
        "You hold 6 cards with the cards of the player you eliminated: trade a set first, then "
        "place your armies, before attacking."
    )
    state, events = play(state, Trade(seat=0, cards=hand_ids(mine)))
    assert len(state.players[0].hand) == 3 and state.reserve == 4
    assert rejected(state, Attack(seat=0, origin="alaska", target="brazil")) == "must_place"
    state, _ = play(state, Place(seat=0, territory="alaska", count=4))
    assert state.phase == "attack"


def test_cl20_cl12_ending_or_moving_before_the_trade_says_what_is_due() -> None:
    """CL-20 / DEC-13, CL-12: ending the turn or fortifying while the cards taken must be
    traded, or their armies placed, is refused with what is due (``must_trade``,
    ``must_place``), as an attack is, never 'in the elim_trade phase'."""
    mine, state = _eliminating_with_six_cards()
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert state.phase == "elim_trade"
    free_move = Fortify(seat=0, origin="alaska", target="kamchatka", count=1)
    for cmd, doing in ((EndTurn(seat=0), "ending your turn"), (free_move, "moving armies")):
        with pytest.raises(rc.RuleError) as refused:
            rc.decide(state, cmd)
        assert refused.value.code == "must_trade"
        assert str(refused.value) == (
            "You hold 6 cards with the cards of the player you eliminated: trade a set first, "
            f"then place your armies, before {doing}."
        )
    state, _ = play(state, Trade(seat=0, cards=hand_ids(mine)))
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, EndTurn(seat=0))
    assert (refused.value.code, str(refused.value)) == (
        "must_place",
        "Place your 4 armies before ending your turn.",
    )
    assert rejected(state, free_move) == "must_place"


def last_territory_taken(hands: dict[int, list[str]]) -> tuple[rc.GameState, list[rc.Event]]:
    """Ann (seat 0) takes Kamchatka, Cy's last territory, with ``hands`` dealt (the cards'
    territories Bob's, so no +2 applies): the position and the attack's events."""
    held = [n for cards in hands.values() for n in cards]
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1, **dict.fromkeys(held, 1)},
        armies={"alaska": 6, "kamchatka": 1},
        default_owner=0,
        hands=hands,
        dice=[6, 1],
    )
    return play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))


def test_cl20_optional_trade_after_elimination_below_five() -> None:
    """CL-20: with fewer than 5 cards the eliminator MAY trade a set at once."""
    theirs = cards_of("cavalry", 3)
    state, _ = last_territory_taken({2: theirs})
    assert state.phase == "attack" and state.may_trade
    state, _ = play(state, Trade(seat=0, cards=hand_ids(theirs)))
    assert state.phase == "elim_trade" and state.reserve == 4


def eliminated_with_three_cards(move: int | None = None) -> tuple[GameState, tuple[int, ...]]:
    """Seat 0 has just eliminated seat 2 (Kamchatka) and holds its 3 cavalry cards; the next
    battle (Venezuela on Brazil) is lost."""
    theirs = cards_of("cavalry", 3)
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1, "peru": 1, **{n: 1 for n in theirs}},
        armies={"alaska": 6, "kamchatka": 1, "venezuela": 6, "brazil": 3},
        default_owner=0,
        hands={2: theirs},
        dice=[6, 1, 1, 6],
    )
    attack = Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=move)
    state, _ = play(state, attack)
    return state, hand_ids(theirs)


def test_cl20_trade_window_closes_at_the_next_battle() -> None:
    """CL-20: the cards taken may be traded "immédiatement" (004 l.142): not after another
    battle of the same attack phase."""
    state, cards = eliminated_with_three_cards(move=1)
    assert state.phase == "attack" and state.may_trade
    state, _ = play(state, Attack(seat=0, origin="venezuela", target="brazil", dice=1))
    assert not state.may_trade
    assert rejected(state, Trade(seat=0, cards=cards)) == "wrong_phase"
    assert not any(isinstance(c, Trade) for c in rc.legal_commands(state))


def test_cl20_trade_window_survives_the_move_in() -> None:
    """CL-20: the occupation step after the conquest is part of it: the trade is still
    "immediate" right after the move-in."""
    state, cards = eliminated_with_three_cards()
    assert state.phase == "occupy" and state.may_trade
    state, _ = play(state, Occupy(seat=0, count=3))
    assert state.phase == "attack" and state.may_trade
    assert Trade(seat=0, cards=cards) in rc.legal_commands(state)
    state, _ = play(state, Trade(seat=0, cards=cards))
    assert state.phase == "elim_trade" and state.reserve == escalating_value(1)


def test_dec13_option_off_defers_the_obligation() -> None:
    """DEC-13 option elimination_forced_trade=false: no immediate forced trade."""
    mine, theirs = cards_of("infantry", 3), cards_of("cavalry", 3)
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1, **{n: 1 for n in mine + theirs}},
        armies={"alaska": 6, "kamchatka": 1},
        default_owner=0,
        hands={0: mine, 2: theirs},
        dice=[6, 1],
        options={"elimination_forced_trade": False},
    )
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert state.phase == "attack"


def test_cl21_dec12_no_attack_on_last_territory_in_rounds_1_to_4() -> None:
    """CL-21 / DEC-12: a player's last territory cannot be attacked before round 5."""
    kw = dict(
        phase="attack",
        owners={"kamchatka": 2, "brazil": 1},
        armies={"alaska": 6},
        default_owner=0,
        ruleset="classic-conquest",
    )
    state, _ = position(round=4, **kw)  # type: ignore[arg-type]
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka")) == "protected"
    assert all(
        not (isinstance(c, Attack) and c.target == "kamchatka") for c in rc.legal_commands(state)
    )
    # The odds of it are refused as the attack is (`risk odds` computed them).
    with pytest.raises(rc.RuleError) as refused:
        looks.odds_facts(state, "alaska", "kamchatka")
    assert refused.value.code == "protected"
    state, _ = position(round=5, **kw)  # type: ignore[arg-type]
    assert looks.odds_facts(state, "alaska", "kamchatka")["defender"]["armies"] == 3
    play(state, Attack(seat=0, origin="alaska", target="kamchatka"))


def test_dec12_protected_rounds_option() -> None:
    """DEC-12 option protected_rounds=0 disables the protection."""
    state, _ = position(
        round=1,
        phase="attack",
        owners={"kamchatka": 2, "brazil": 1},
        armies={"alaska": 6},
        default_owner=0,
        ruleset="classic-conquest",
        options={"protected_rounds": 0},
    )
    play(state, Attack(seat=0, origin="alaska", target="kamchatka"))


def test_rounds_count_complete_cycles_from_the_first_player() -> None:
    """DEC-12: a round is a full cycle of turns starting with the first player."""
    state, _ = position(current=1, turn=1, round=1)
    state.first = 1
    for expected_seat, expected_round in [(2, 1), (0, 1), (1, 2)]:
        seat = state.current
        state, _ = play(
            state, Place(seat=seat, territory=IDS[state.owner.index(seat)], count=state.reserve)
        )
        state, _ = play(state, EndTurn(seat=seat))
        assert (state.current, state.round) == (expected_seat, expected_round)


# ----------------------------------------------------------------------------- victory
def test_cl22_dec14_mission_wins_at_once() -> None:
    """CL-22 / DEC-14: the mover wins as soon as its mission is achieved in its turn."""
    owners = {t: 0 for t in group("north_america") + group("africa")}
    owners["kamchatka"] = 1
    owners["alaska"] = 1
    owners["argentina"] = 2
    state, _ = position(
        phase="attack",
        owners=owners,
        default_owner=1,
        armies={"alberta": 6, "alaska": 1},
        missions={0: "na_africa"},
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alberta", target="alaska", dice=1, move=1))
    won = events[-1]
    assert isinstance(won, GameWon) and won.seat == 0 and won.mission == "na_africa"
    assert state.phase == "over" and state.winner == 0


def test_dec14_a_mission_fulfilled_by_the_free_move_wins() -> None:
    """CL-22 / DEC-14 ("end of free move"): a free move that fulfils the mover's mission wins
    at once; it used to end the turn first, so the next player's turn started and the mission
    waited a whole round, for its holder's next turn."""
    ann = IDS[:18]
    state, _ = position(
        phase="attack",
        round=5,
        owners={**dict.fromkeys(ann, 0), "kamchatka": 2},
        default_owner=1,
        armies={**dict.fromkeys(ann, 3), "alaska": 1, "northwest_territory": 5},
        missions={0: "territories_18_two_armies"},
    )
    move = Fortify(seat=0, origin="northwest_territory", target="alaska", count=2)
    state, events = play(state, move)
    assert "TurnEnded" not in kinds(events) and "TurnStarted" not in kinds(events)
    won = next(e for e in events if isinstance(e, GameWon))
    assert won.seat == 0 and won.mission == "territories_18_two_armies"
    assert state.phase == "over" and state.winner == 0


def test_cl20_no_cards_taken_no_trade_out_of_turn() -> None:
    """CL-20 ("vous récupérez toutes ses cartes et pouvez immédiatement les échanger"): the
    trade out of turn is of the cards taken; eliminating a player who held none opens none,
    whatever the eliminator holds."""
    mine = cards_of("infantry", 3)
    state, events = last_territory_taken({0: mine})
    assert "PlayerEliminated" in kinds(events) and not state.may_trade
    assert state.phase == "attack"
    assert rejected(state, Trade(seat=0, cards=hand_ids(mine))) == "wrong_phase"


def test_dec14_other_players_mission_checked_at_start_of_their_turn() -> None:
    """DEC-14: a non-active player's completed mission wins at the start of its own turn."""
    owners = {t: 1 for t in group("asia") + group("africa")}
    owners["argentina"] = 2
    state, _ = position(
        phase="attack", owners=owners, default_owner=0, missions={1: "asia_africa", 0: "na_africa"}
    )
    assert state.phase == "attack"
    state, events = play(state, EndTurn(seat=0))
    assert isinstance(events[-1], GameWon) and events[-1].seat == 1


def test_cl22_destroy_colour_mission() -> None:
    """GAP-03 destroy missions: eliminating that colour yourself wins."""
    mission = next(m for m in BOARD.missions if m.destroy == "green")  # seat 2 is green
    state, _ = position(
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1},
        armies={"alaska": 6, "kamchatka": 1},
        default_owner=0,
        missions={0: mission.id, 1: "na_africa"},
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert isinstance(events[-1], GameWon) and events[-1].mission == mission.id


def test_cl22_destroy_own_colour_falls_back_to_24_territories() -> None:
    """GAP-03: a destroy mission naming yourself becomes 'conquer 24 territories'."""
    mission = next(m for m in BOARD.missions if m.destroy == "red")  # seat 0 is red
    owners = {IDS[i]: 0 for i in range(23)}
    owners.update({IDS[i]: 1 for i in range(23, 40)})
    owners.update({IDS[40]: 2, IDS[41]: 2})
    state, _ = position(phase="attack", owners=owners, missions={0: mission.id})
    assert not rc.ruleset_of(state).mission_done(state, 0)
    state.owner[23] = 0
    assert rc.ruleset_of(state).mission_done(state, 0)


def test_cl23_revealing_nothing_before_victory() -> None:
    """CL-23: missions are secret; only the winner's mission is revealed, by game_won."""
    state, events = position()
    assert all(not isinstance(e, GameWon) for e in events)


# ----------------------------------------------------------------------------- classic-2p
@pytest.mark.parametrize("name", ["classic", "classic-conquest", "classic-2p"])
def test_cl22_no_final_score_step_is_listed(name: str) -> None:
    """CL-22, CL-CQ-06, CL-2P-09: a classic game ends on its goal, never on a score after a
    last round, so its phases (what `risk rules` prints) have no 'the score decides' step."""
    rules = get_ruleset(name)
    assert "final" not in rules.phases and "over" in rules.phases
    assert ("ally_place" in rules.phases) == (name == "classic-2p")


def test_cl2p01_02_two_players_and_the_ally() -> None:
    """CL-2P-01/02: 40 armies each, 14 cards each, the other 14 territories to the ally × 2."""
    events = rc.start("classic-2p", ["Ann", "Bob"], seed=3)
    state = rc.replay(events)
    assert [p.neutral for p in state.players] == [False, False, True]
    assert state.owner.count(0) == state.owner.count(1) == state.owner.count(2) == 14
    assert sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == 2) == 28
    assert state.setup_left == [26, 26, 0]
    assert all(p.mission is None for p in state.players)
    assert sorted(state.deck) == list(range(44))  # jokers back in the pile


def _two_player(**kw):  # type: ignore[no-untyped-def]
    kw.setdefault("ruleset", "classic-2p")
    kw.setdefault("players", 2)
    return position(**kw)


def test_cl2p04_dec11_ally_gets_half_placed_by_the_opponent() -> None:
    """CL-2P-04 / DEC-11: the ally gets floor(R/2) of everything received; the opponent places."""
    state, _ = _two_player()
    state.players[1].policy = "ask"
    received = state.reserve
    state, _ = play(state, Place(seat=0, territory=IDS[state.owner.index(0)], count=received))
    assert state.phase == "ally_place" and RULES_2P.ally_reserve(state) == received // 2
    assert rc.to_act(state) == 1
    ally_t = IDS[state.owner.index(2)]
    assert rejected(state, Place(seat=1, territory=IDS[state.owner.index(1)])) == "not_owner"
    state, events = play(state, Place(seat=1, territory=ally_t, count=RULES_2P.ally_reserve(state)))
    assert isinstance(events[0], AllyPlaced) and state.phase == "attack"


def test_cl2p04_auto_policy_places_ally_armies() -> None:
    """ENG-06: with the default policy the opponent's ally placement is automatic."""
    state, _ = _two_player()
    received = state.reserve
    state, events = play(state, Place(seat=0, territory=IDS[state.owner.index(0)], count=received))
    assert isinstance(events[-1], AllyPlaced) and events[-1].count == received // 2
    assert state.phase == "attack"


def test_dec11_territories_base_option() -> None:
    """DEC-11 option ally_income_base=territories: half of territory + continent income only."""
    names = cards_of("infantry", 3)
    state, _ = _two_player(
        hands={0: names}, owners={n: 1 for n in names}, options={"ally_income_base": "territories"}
    )
    base = state.reserve
    state, _ = play(state, Trade(seat=0, cards=hand_ids(names)))
    state, _ = play(state, Place(seat=0, territory=IDS[state.owner.index(0)], count=state.reserve))
    assert state.phase == "attack"
    # The ally's share was half of the territory income only, not of the set's 6.
    ally_total = sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == 2)
    assert ally_total == 14 * 3 + base // 2


def test_cl2p05_opponent_defends_the_ally() -> None:
    """CL-2P-05: attacking the ally, the opponent chooses the defence dice."""
    state, _ = _two_player(
        phase="attack", owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5}
    )
    state.players[1].policy = "ask"
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka"))
    assert kinds(events) == ["DefenceRequested"] and rc.to_act(state) == 1


def test_cl2p06_dec10_attack_with_allied_armies_against_the_opponent_only() -> None:
    """CL-2P-06 / DEC-10: allied armies attack the opponent, never the mover's territories."""
    state, _ = _two_player(
        phase="attack",
        owners={"alaska": 2, "kamchatka": 1, "alberta": 0},
        armies={"alaska": 5, "kamchatka": 1},
        dice=[6, 1],
    )
    assert rejected(state, Attack(seat=0, origin="alaska", target="alberta")) == "own_territory"
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert owner_of(state, "kamchatka") == 2  # conquered for the ally
    assert not state.conquered  # CL-2P-07 by analogy: no card for ally conquests


def test_cl2p06_an_attack_on_the_allys_own_territory_names_the_ally() -> None:
    """CL-2P-06: allied armies never attack the ally's own territories either; the refusal
    (`own_territory`) says whose the target is, where it said "it is yours" of the ally's."""
    state, _ = _two_player(
        phase="attack", owners={"alaska": 2, "northwest_territory": 2}, armies={"alaska": 5}
    )
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, Attack(seat=0, origin="alaska", target="northwest_territory"))
    assert refused.value.code == "own_territory"
    ally = state.players[2].name
    assert str(refused.value) == (
        f"You cannot attack Northwest Territory from Alaska: both are held by {ally}, whose "
        "armies you attack with, and they never attack their own territories."
    )


def test_dec10_ally_cannot_attack_option() -> None:
    """DEC-10 option ally_can_attack=false: the ally only defends."""
    state, _ = _two_player(
        phase="attack",
        owners={"alaska": 2, "kamchatka": 1},
        armies={"alaska": 5},
        options={"ally_can_attack": False},
    )
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka")) == "not_owner"


def test_cl2p07_taking_an_ally_territory_earns_a_card() -> None:
    """CL-2P-07: capturing an allied territory counts for the end-of-turn card."""
    state, _ = _two_player(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 2},
        armies={"alaska": 5, "kamchatka": 1},
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    _, events = play(state, EndTurn(seat=0))
    assert "CardDrawn" in kinds(events)


def test_cl2p08_09_ally_destroyed_play_goes_on_until_opponent_falls() -> None:
    """CL-2P-08/09: losing the ally changes nothing; taking all opponent territories wins."""
    state, _ = _two_player(
        phase="attack",
        round=9,
        owners={"kamchatka": 2, "brazil": 1},
        default_owner=0,
        armies={"alaska": 5, "kamchatka": 1, "brazil": 1, "venezuela": 5},
        dice=[6, 1, 6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert state.players[2].eliminated and state.phase == "attack"
    state, events = play(state, Attack(seat=0, origin="venezuela", target="brazil", dice=1, move=1))
    assert isinstance(events[-1], GameWon) and events[-1].seat == 0


def test_cl2p08_an_ally_holding_nothing_gets_no_reinforcements() -> None:
    """CL-2P-08 ("la partie continue normalement"): a position whose ally holds no territory
    (a scenario's) plays on without ally reinforcements; placing them used to raise a raw
    ValueError and leave the turn stuck."""
    owners = {t: i % 2 for i, t in enumerate(IDS)}
    state, _ = _two_player(owners=owners)
    assert 2 not in state.owner
    state, events = play(state, Place(seat=0, territory=IDS[0], count=state.reserve))
    assert state.phase == "attack" and "AllyPlaced" not in kinds(events)


def test_cl2p07_the_allys_conquest_is_the_movers_and_so_are_the_cards() -> None:
    """CL-2P-07: the ally never holds cards; when its armies take the opponent's last
    territory, the mover eliminates the opponent and takes the cards."""
    theirs = cards_of("cavalry", 3)
    state, _ = _two_player(
        phase="attack",
        round=5,
        owners={"kamchatka": 1, "yakutsk": 2, "alaska": 0, **dict.fromkeys(theirs, 2)},
        default_owner=2,
        armies={"yakutsk": 6, "kamchatka": 1},
        hands={1: theirs},
        dice=[6, 6, 6, 1],
    )
    attack = Attack(seat=0, origin="yakutsk", target="kamchatka", dice=3, move=3)
    state, events = play(state, attack)
    out = next(e for e in events if type(e).__name__ == "PlayerEliminated")
    assert out.by == 0 and state.players[2].hand == []  # type: ignore[attr-defined]
    assert state.winner == 0


def test_cl2p11_ally_never_takes_a_turn() -> None:
    """CL-2P-11: turns alternate between the two players only."""
    state, _ = _two_player(phase="attack")
    state, _ = play(state, EndTurn(seat=0))
    assert state.current == 1
    state, _ = play(state, Place(seat=1, territory=IDS[state.owner.index(1)], count=state.reserve))
    state, _ = play(state, EndTurn(seat=1))
    assert state.current == 0


# ----------------------------------------------------------------------------- conquest
def test_clcq01_no_missions() -> None:
    """CL-CQ-01: no objective cards."""
    state = rc.replay(rc.start("classic-conquest", ["A", "B", "C"], seed=1))
    assert all(p.mission is None for p in state.players)


def test_clcq02_escalating_values() -> None:
    """CL-CQ-02: 4, 6, 8, 10, 12, 15, 20, 25, then +5."""
    assert [escalating_value(k) for k in range(1, 12)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40]


def test_clcq02_global_counter_across_players() -> None:
    """CL-CQ-02: the k-th set traded by anyone is worth the k-th value."""
    names = cards_of("infantry", 3)
    state, _ = position(
        ruleset="classic-conquest", hands={0: names}, owners={n: 1 for n in names}, trades=5
    )
    _, events = play(state, Trade(seat=0, cards=hand_ids(names)))
    assert events[0].value == 15  # type: ignore[attr-defined]


def test_clcq03_any_two_cards_and_a_joker() -> None:
    """CL-CQ-03: 3 same, 3 different, or any 2 + joker; a pair + another is no set."""
    pair = cards_of("cavalry", 2)
    state, _ = position(ruleset="classic-conquest", hands={0: pair + ["joker"]})
    play(state, Trade(seat=0, cards=hand_ids(pair + ["joker"])))
    bad = pair + cards_of("infantry", 1)
    state, _ = position(ruleset="classic-conquest", hands={0: bad})
    assert rejected(state, Trade(seat=0, cards=hand_ids(bad))) == "invalid_set"


def test_clcq06_owning_all_42_wins() -> None:
    """CL-CQ-06: the game ends when one player owns every territory."""
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 1, "brazil": 2},
        default_owner=0,
        armies={"alaska": 5, "venezuela": 5, "kamchatka": 1, "brazil": 1},
        dice=[6, 1, 6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="venezuela", target="brazil", dice=1, move=1))
    _, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    won = events[-1]
    assert isinstance(won, GameWon) and won.seat == 0 and won.reason == "conquest"
