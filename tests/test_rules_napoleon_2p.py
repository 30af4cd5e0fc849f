"""NAP-2P-*, NAP-2PP-*, NAP-2PA-* and DEC-17/18/19: Risk Napoléon for two players (rulebook 000
l.405–516, 001 l.25–40, catalogue §4.2–4.4)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.model import (
    Attack,
    BattleFought,
    CardDrawn,
    CardsTraded,
    DeckFormed,
    DefenceRequested,
    Defend,
    EndTurn,
    Event,
    FirstPlayerChosen,
    Fortify,
    GameState,
    GameWon,
    Occupy,
    Place,
    PlayerEliminated,
    SeatInfo,
    SetupPlaced,
    TerritoriesDealt,
    Trade,
    TurnStarted,
    copy_state,
)
from risk_core.rulesets.allies import AllyPlaced
from risk_core.rulesets.base import COLOURS
from risk_core.rulesets.napoleon_2p import (
    AllyManeuver,
    AllyManeuvered,
    AllyManeuversOpened,
    AllyReinforcementRolled,
    CardGiven,
    EndPhase,
    GiveCard,
    Napoleon2P,
    ReinforceAlly,
    StatusRolled,
)
from risk_core.views import view, visible_event
from tests.gamekit import kinds, play, position, rejected
from tests.test_conformance import Policy, audited_game

BOARD = rc.load_board("napoleon")
IDS = [t.id for t in BOARD.territories]
ANN, BOB, GREEN, YELLOW, BLACK, PURPLE = range(6)
NAP2P = "napoleon-2p"
RULES = Napoleon2P()


def game(
    owners: dict[str, int],
    armies: dict[str, int] | None = None,
    *,
    active: bool = True,
    allies: dict[int, int | None] | None = None,
    **kw: Any,
) -> GameState:
    """A position at the start of Ann's turn; every territory not listed is Bob's."""
    options = {"independents": "active" if active else "passive", **kw.pop("options", {})}
    kw.setdefault("phase", "attack")
    state, _ = position(
        ruleset=NAP2P,
        players=2,
        owners=owners,
        armies=armies,
        default_owner=BOB,
        options=options,
        **kw,
    )
    return with_status(state, allies or {})


def with_status(state: GameState, allies: dict[int, int | None]) -> GameState:
    """The same position with these independents' cannons moved (a test shortcut)."""
    state = copy_state(state)
    for seat, ally_of in allies.items():
        RULES.set_status(state, seat, ally_of)
    return state


def asking(state: GameState, seat: int) -> GameState:
    """The same position with ``seat`` answering its own defence (``ask`` policy)."""
    state = copy_state(state)
    state.players[seat].policy = "ask"
    return state


def card(name: str) -> int:
    return BOARD.index[name]


def of(events: list[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def through_setup(state: GameState) -> tuple[GameState, list[tuple[int, int, int]]]:
    """Place every starting regiment, the whole quota on one territory per army and turn.

    Returns the final state and, per placement turn, (placer, own placed, independents placed).
    """
    turns: list[tuple[int, int, int]] = []
    while state.phase == "setup":
        seat = state.current
        quota = RULES.steps(state).quota
        turns.append((seat, quota[seat], sum(quota) - quota[seat]))
        for army in [seat, *range(2, 6)]:
            if quota[army]:
                spot = IDS[state.owner.index(army)]
                state, _ = play(state, Place(seat=seat, territory=spot, count=quota[army]))
    return state, turns


# ============================================================================ NAP-2P: setup
def test_nap2p01_two_players_and_four_independents() -> None:
    """NAP-2P-01: two players and four independent armies in the unused colours."""
    events = rc.start(NAP2P, [SeatInfo(name="Ann", colour="black"), "Bob"], seed=1)
    seats = events[0].players  # type: ignore[attr-defined]
    assert [s.neutral for s in seats] == [False, False, True, True, True, True]
    assert {s.colour for s in seats} == set(COLOURS)
    assert [s.name for s in seats[2:]] == ["Red", "Green", "Yellow", "Purple"]
    with pytest.raises(rc.SetupError):
        rc.start(NAP2P, ["Ann", "Bob", "Cy"], seed=1)


def test_nap2p01_eliminating_the_opponent_wins_while_independents_remain() -> None:
    """NAP-2P-01/NAP-2PP-03: the goal is the opponent's elimination, not all 48 territories."""
    owners = {t: GREEN for t in IDS}
    owners |= {"egypte": ANN, "syrie": BOB}
    state = game(owners, {"egypte": 5, "syrie": 1}, active=False, dice=[6, 1])
    _, events = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1, move=1))
    won = of(events, GameWon)
    assert won and won[0].seat == ANN and won[0].reason == "last_standing"


def test_nap2p02_36_regiments_each_21_per_independent() -> None:
    """NAP-2P-02: 36 per player, 21 per independent (the dealt territories count)."""
    dealt = of(rc.start(NAP2P, ["Ann", "Bob"], seed=3), TerritoriesDealt)[0]
    totals = [dealt.owners.count(s) + dealt.setup_left[s] for s in range(6)]
    assert totals == [36, 36, 21, 21, 21, 21]


def test_nap2p03_jokers_out_ten_cards_each_seven_per_independent() -> None:
    """NAP-2P-03: the 48 territory cards only: 10 to each player, 7 to each independent."""
    for seed in range(5):
        dealt = of(rc.start(NAP2P, ["Ann", "Bob"], seed=seed), TerritoriesDealt)[0]
        assert Counter(dealt.owners) == {0: 10, 1: 10, 2: 7, 3: 7, 4: 7, 5: 7}


def test_nap2p04_one_regiment_on_each_dealt_territory() -> None:
    """NAP-2P-04: every territory is claimed by its card with one regiment of that army."""
    state = rc.replay(rc.start(NAP2P, ["Ann", "Bob"], seed=2))
    assert -1 not in state.owner and set(state.armies) == {1}
    assert state.setup_left == [26, 26, 14, 14, 14, 14]


def test_nap2p05_all_50_cards_reshuffled_into_the_pile() -> None:
    """NAP-2P-05: the territory cards and the 2 jokers form the draw pile; nobody holds any."""
    events = rc.start(NAP2P, ["Ann", "Bob"], seed=2)
    assert sorted(of(events, DeckFormed)[0].deck) == list(range(50))
    assert all(not p.hand for p in rc.replay(events).players)


def test_nap2p06_placement_turn_own_three_then_two_per_independent() -> None:
    """NAP-2P-06: a die picks who places first; 3 own regiments, then 2 for each independent."""
    events = rc.start(NAP2P, ["Ann", "Bob"], seed=5, dice=[2, 5])
    assert of(events, FirstPlayerChosen)[0].seat == BOB
    state = rc.replay(events)
    assert state.current == BOB and state.phase == "setup"
    assert RULES.steps(state).quota == (0, 3, 2, 2, 2, 2)
    mine = IDS[state.owner.index(BOB)]
    green = IDS[state.owner.index(GREEN)]
    ann = IDS[state.owner.index(ANN)]
    assert rejected(state, Place(seat=BOB, territory=green, count=2)) == "place_own_first"
    assert rejected(state, Place(seat=BOB, territory=mine, count=4)) == "not_enough_armies"
    assert rejected(state, Place(seat=BOB, territory=ann)) == "not_owner"
    state, _ = play(state, Place(seat=BOB, territory=mine, count=1))
    state, _ = play(state, Place(seat=BOB, territory=mine, count=2))
    assert rejected(state, Place(seat=BOB, territory=green, count=3)) == "not_enough_armies"
    state, events = play(state, Place(seat=BOB, territory=green, count=2))
    assert events == [SetupPlaced(seat=GREEN, territory=green, count=2)]  # Green's regiments
    for army in (YELLOW, BLACK, PURPLE):
        spot = IDS[state.owner.index(army)]
        assert state.current == BOB
        state, _ = play(state, Place(seat=BOB, territory=spot, count=2))
    assert state.current == ANN  # the other player's placement turn
    assert RULES.steps(state).quota == (3, 0, 2, 2, 2, 2)


def test_nap2p07_a_second_roll_decides_the_first_turn() -> None:
    """NAP-2P-07: after placement both roll again; the highest plays first."""
    state = rc.replay(rc.start(NAP2P, ["Ann", "Bob"], seed=5, dice=[2, 5]))
    state.dice_script = [6, 3]
    state, _ = through_setup(state)
    assert state.phase == "reinforce" and state.turn == 1 and state.current == ANN
    assert sum(state.armies) == 2 * 36 + 4 * 21


def test_nap2p08_basic_napoleon_rules_apply() -> None:
    """NAP-2P-08: Golden Cavalry values (NAP-11) and the 5-card forced trade (DEC-02)."""
    hand = ["egypte", "syrie", "anatolie", "caucase", "castille"]  # artillery, infantry …
    state = game({"maroc_fes_etats_barbaresques": ANN}, phase="reinforce", hands={ANN: hand})
    state, _ = play(state, EndPhase(seat=ANN))  # no gift
    assert rejected(state, Place(seat=ANN, territory="maroc_fes_etats_barbaresques")) == (
        "must_trade"
    )
    sets = [c for c in rc.legal_commands(state) if isinstance(c, Trade)]
    _, events = play(state, sets[0])
    assert of(events, CardsTraded)[0].value == 4 and of(events, CardsTraded)[0].bonus == ()


def test_nap2pa06_an_ally_waits_for_a_forced_trade_first() -> None:
    """NAP-2PA-02/06 with DEC-02: a seat that must trade (5 cards) and reinforces an ally is told
    to trade first (must_trade), not to place regiments it does not have yet."""
    hand = ["egypte", "syrie", "anatolie", "caucase", "castille"]
    owners = {"maroc_fes_etats_barbaresques": ANN, "egypte": GREEN}
    state = game(owners, phase="reinforce", hands={ANN: hand}, allies={GREEN: ANN})
    state, _ = play(state, EndPhase(seat=ANN))  # no gift
    assert rejected(state, ReinforceAlly(seat=ANN, ally=GREEN)) == "must_trade"
    told = "You hold 5 cards: trade a set first, then place your own regiments;"
    with pytest.raises(rc.RuleError, match=told):
        rc.decide(state, ReinforceAlly(seat=ANN, ally=GREEN))


def test_nap2p09_independents_never_draw_own_conquest_of_one_earns_a_card() -> None:
    """NAP-2P-09: conquering an independent's territory with own regiments earns the card."""
    state = game({"egypte": ANN, "syrie": GREEN}, {"egypte": 5, "syrie": 1}, dice=[6, 1, 6])
    state, _ = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1, move=1))
    state, events = play(state, EndTurn(seat=ANN))
    assert [e.seat for e in of(events, CardDrawn)] == [ANN]
    assert of(events, TurnStarted)[0].seat == BOB  # independents never take a turn


# ============================================================================ NAP-2PP: passive
def test_nap2pp01_the_opponent_defends_an_independent() -> None:
    """NAP-2PP-01: attacking an independent, the opponent chooses and rolls the defence."""
    state = game({"egypte": ANN, "syrie": GREEN}, {"egypte": 5}, active=False)
    state, events = play(asking(state, BOB), Attack(seat=ANN, origin="egypte", target="syrie"))
    assert events == [
        DefenceRequested(seat=BOB, origin="egypte", target="syrie", dice=3),
    ]
    assert rc.to_act(state) == BOB
    _, events = play(state, Defend(seat=BOB, dice=1))
    battle = of(events, BattleFought)[0]
    assert battle.defender == BOB and len(battle.defence) == 1


def test_nap2pp02_independents_are_inert() -> None:
    """NAP-2PP-02: no reinforcement, no turn, no status change, whatever happens to them."""
    owners = {"egypte": ANN, "syrie": GREEN}
    state = game(owners, {"egypte": 5, "syrie": 3}, active=False, dice=[1, 6, 6])
    state, events = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1))
    assert not of(events, StatusRolled) and RULES.status(state, GREEN) is None
    assert RULES.steps(state).ally_of == ()  # passive: no allegiance at all
    state, events = play(state, EndTurn(seat=ANN))
    assert [e.seat for e in of(events, TurnStarted)] == [BOB]
    assert state.armies[card("syrie")] == 3 and state.phase == "reinforce"


def test_nap2pp03_victory_is_the_opponent_eliminated_not_the_independents() -> None:
    """NAP-2PP-03: taking an independent's last territory eliminates it but wins nothing."""
    state = game({"egypte": ANN, "syrie": GREEN}, {"egypte": 5, "syrie": 1}, dice=[6, 1])
    state, events = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1, move=1))
    assert of(events, PlayerEliminated)[0].seat == GREEN and state.phase == "attack"


def test_nap2pp04_no_gifts_no_independent_moves_or_attacks() -> None:
    """NAP-2PP-04: giving cards, moving or attacking with independents are refused."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": GREEN}
    state = game(owners, {"syrie": 5}, active=False, hands={ANN: ["castille"]})
    gift = GiveCard(seat=ANN, independent=GREEN, card=card("castille"))
    assert rejected(state, gift) == "passive_independents"
    assert rejected(state, Attack(seat=ANN, origin="syrie", target="caucase")) == "not_owner"
    move = AllyManeuver(seat=ANN, origin="syrie", target="anatolie", count=1)
    assert rejected(state, move) == "passive_independents"
    assert rejected(state, ReinforceAlly(seat=ANN, ally=GREEN)) == "passive_independents"
    assert rejected(state, EndPhase(seat=ANN)) == "wrong_phase"
    assert not any(isinstance(c, GiveCard | AllyManeuver) for c in rc.legal_commands(state))


# ============================================================================ NAP-2PA: active
def test_nap2pa01_every_independent_starts_neutral() -> None:
    """NAP-2PA-01: three statuses per independent; all start neutral (the cannon in the middle)."""
    state = rc.replay(rc.start(NAP2P, ["Ann", "Bob"], seed=1, options={"independents": "active"}))
    assert [RULES.status(state, i) for i in range(2, 6)] == [None] * 4
    seen = view(state, ANN)["players"]
    assert [p.get("ally_of", "-") for p in seen] == ["-", "-", None, None, None, None]


def test_nap2pa02_turn_phases_in_order() -> None:
    """NAP-2PA-02: influence, own reinforcements, allied reinforcements, combat, own maneuver,
    allied maneuvers, card."""
    owners = {
        "maroc_fes_etats_barbaresques": ANN,
        "tunis_tripoli": ANN,
        "syrie": GREEN,
        "anatolie": GREEN,
    }
    state = game(
        owners,
        {"maroc_fes_etats_barbaresques": 4, "syrie": 4},
        phase="reinforce",
        hands={ANN: ["castille"]},
        allies={GREEN: ANN},
        dice=[2],
    )
    assert state.phase == "influence"
    state, _ = play(state, EndPhase(seat=ANN))
    assert state.phase == "reinforce"
    state, events = play(state, Place(seat=ANN, territory="tunis_tripoli", count=3))
    assert kinds(events) == ["ArmiesPlaced"] and state.phase == "ally_reinforce"
    state, events = play(state, ReinforceAlly(seat=ANN, ally=GREEN))
    assert kinds(events) == ["AllyReinforcementRolled"]
    assert state.phase == "ally_place" and sum(RULES.steps(state).quota) == 2
    state, _ = play(state, Place(seat=ANN, territory="syrie", count=2))
    assert state.phase == "attack"
    move = Fortify(seat=ANN, origin="maroc_fes_etats_barbaresques", target="tunis_tripoli", count=1)
    state, events = play(state, move)
    assert state.phase == "ally_maneuver" and of(events, AllyManeuversOpened)[0].allies == (GREEN,)
    state, events = play(state, EndPhase(seat=ANN))
    assert of(events, TurnStarted)[0].seat == BOB


def test_nap2pa03_each_card_given_moves_the_cannon_one_step_toward_you() -> None:
    """NAP-2PA-03: gifts lie under the independent's cannon; opponent's ally → neutral → yours."""
    hand = ["castille", "portugal", "andalousie"]
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": YELLOW}
    state = game(owners, phase="reinforce", hands={ANN: hand}, allies={YELLOW: BOB})
    assert state.phase == "influence"
    state, events = play(state, GiveCard(seat=ANN, independent=GREEN, card=card("castille")))
    assert events == [CardGiven(seat=ANN, independent=GREEN, card=card("castille"), ally_of=ANN)]
    assert state.players[GREEN].hand == [card("castille")] and RULES.status(state, GREEN) == ANN
    state, _ = play(state, GiveCard(seat=ANN, independent=YELLOW, card=card("portugal")))
    assert RULES.status(state, YELLOW) is None  # Bob's ally → neutral
    state, _ = play(state, GiveCard(seat=ANN, independent=YELLOW, card=card("andalousie")))
    assert RULES.status(state, YELLOW) == ANN  # two cards: from Bob's side to Ann's
    assert state.phase == "reinforce" and not state.players[ANN].hand  # nothing left to give


def test_nap2pa03_gifts_come_before_reinforcements() -> None:
    """NAP-2PA-03: any reinforcement command closes the influence step; no gift afterwards."""
    state = game({"egypte": ANN}, phase="reinforce", hands={ANN: ["castille", "portugal"]})
    state, events = play(state, Place(seat=ANN, territory="egypte", count=1))
    assert kinds(events) == ["InfluenceEnded", "ArmiesPlaced"]
    gift = GiveCard(seat=ANN, independent=GREEN, card=card("castille"))
    assert rejected(state, gift) == "wrong_phase"
    empty = game({"egypte": ANN}, phase="reinforce")
    assert empty.phase == "reinforce"  # no card, no influence step


def test_nap2pa04_an_independent_holding_three_cards_is_locked() -> None:
    """NAP-2PA-04: no card to an independent that already holds 3; rolls still move it."""
    owners = {"egypte": ANN, "syrie": GREEN}
    hands = {ANN: ["castille"], GREEN: ["portugal", "andalousie", "hollande"]}
    state = game(owners, {"egypte": 5, "syrie": 2}, phase="reinforce", hands=hands)
    gift = GiveCard(seat=ANN, independent=GREEN, card=card("castille"))
    assert rejected(state, gift) == "influence_locked"
    state = game(owners, {"egypte": 2, "syrie": 2}, hands=hands, dice=[1, 6, 6, 3])
    state, _ = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1))
    assert RULES.status(state, GREEN) == BOB  # NAP-2PA-09 still applies


def test_nap2pa05_allies_territories_do_not_count_for_your_income() -> None:
    """NAP-2PA-05: income from your own territories and empires only."""
    north_africa = ["maroc_fes_etats_barbaresques", "tunis_tripoli", "egypte"]
    owners = {north_africa[0]: ANN, north_africa[1]: ANN, north_africa[2]: GREEN}
    state = game(owners, phase="reinforce", allies={GREEN: ANN})
    rs = rc.ruleset_of(state)
    assert rs.income(state, ANN) == (2, 3, ()) and state.reserve == 3
    state.owner[card("egypte")] = ANN
    assert rs.income(state, ANN)[2] == ("afrique_du_nord",)


def test_nap2pa06_allied_reinforcements_one_die_per_ally_placed_by_you() -> None:
    """NAP-2PA-06: you MAY roll 1d6 per ally and place that many on its territories."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": GREEN, "caucase": YELLOW}
    state = game(owners, phase="reinforce", allies={GREEN: ANN, YELLOW: ANN}, dice=[4])
    state, _ = play(state, Place(seat=ANN, territory="egypte", count=3))
    assert rejected(state, ReinforceAlly(seat=ANN, ally=BLACK)) == "not_ally"
    state, events = play(state, ReinforceAlly(seat=ANN, ally=GREEN))
    assert events == [AllyReinforcementRolled(seat=ANN, ally=GREEN, face=4, rng=0, scripted=1)]
    assert rejected(state, Place(seat=ANN, territory="syrie", count=5)) == "not_enough_armies"
    assert rejected(state, Place(seat=ANN, territory="caucase")) == "not_owner"
    assert rejected(state, Place(seat=ANN, territory="egypte")) == "not_owner"
    state, _ = play(state, Place(seat=ANN, territory="syrie", count=3))
    state, events = play(state, Place(seat=ANN, territory="anatolie", count=1))
    assert events == [AllyPlaced(seat=ANN, territory="anatolie", count=1)]
    assert state.phase == "ally_reinforce" and state.armies[card("syrie")] == 6
    assert rejected(state, ReinforceAlly(seat=ANN, ally=GREEN)) == "already_chosen"
    state, _ = play(state, EndPhase(seat=ANN))  # Yellow gets nothing
    assert state.phase == "attack"
    assert rejected(state, ReinforceAlly(seat=ANN, ally=YELLOW)) == "wrong_phase"


def test_nap2pa06_reinforcing_allies_is_optional() -> None:
    """NAP-2PA-06: ending the allied step rolls no die; without an ally there is no such step."""
    state = game({"egypte": ANN, "syrie": GREEN}, phase="reinforce", allies={GREEN: ANN})
    state, events = play(state, Place(seat=ANN, territory="egypte", count=3))
    assert kinds(events) == ["ArmiesPlaced"] and state.phase == "ally_reinforce"
    state, events = play(state, EndPhase(seat=ANN))
    assert kinds(events) == ["AllyReinforcementsEnded"] and state.phase == "attack"
    alone = game({"egypte": ANN, "syrie": GREEN}, phase="reinforce")
    alone, events = play(alone, Place(seat=ANN, territory="egypte", count=3))
    assert kinds(events) == ["ArmiesPlaced"] and alone.phase == "attack"


def test_nap2pa07_attack_with_allied_regiments() -> None:
    """NAP-2PA-07: your allies' regiments attack your opponent and other independents."""
    owners = {"egypte": ANN, "syrie": GREEN, "caucase": YELLOW}
    state = game(owners, {"syrie": 4}, allies={GREEN: ANN, YELLOW: BOB})
    _, events = play(state, Attack(seat=ANN, origin="syrie", target="anatolie"))
    assert of(events, BattleFought)[0].seat == ANN
    state = game(
        {"egypte": ANN, "syrie": GREEN, "anatolie": YELLOW}, {"syrie": 4}, allies={GREEN: ANN}
    )
    play(state, Attack(seat=ANN, origin="syrie", target="anatolie"))  # a neutral independent
    play(with_status(state, {YELLOW: BOB}), Attack(seat=ANN, origin="syrie", target="anatolie"))
    assert rejected(state, Attack(seat=ANN, origin="syrie", target="egypte")) == "own_territory"


def test_nap2pa08_13_no_card_for_allied_conquests() -> None:
    """NAP-2PA-08/13: a conquest by allied regiments earns no card; an own conquest does."""
    owners = {"maroc_fes_etats_barbaresques": ANN, "syrie": GREEN}
    state = game(owners, {"syrie": 5, "anatolie": 1}, allies={GREEN: ANN}, dice=[6, 1, 6])
    state, _ = play(state, Attack(seat=ANN, origin="syrie", target="anatolie", dice=1, move=1))
    assert state.owner[card("anatolie")] == GREEN
    _, events = play(state, EndTurn(seat=ANN))
    assert not of(events, CardDrawn)
    owners = {"maroc_fes_etats_barbaresques": ANN, "syrie": GREEN, "egypte": ANN}
    state = game(owners, {"egypte": 5, "syrie": 1}, dice=[6, 1, 6])
    state, _ = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1, move=1))
    _, events = play(state, EndTurn(seat=ANN))
    assert [e.seat for e in of(events, CardDrawn)] == [ANN]


def test_nap2pa09_status_die_after_an_invasion_of_an_independent() -> None:
    """NAP-2PA-09, rulebook example: Red invades Angleterre (Black, neutral) and loses; a 3
    moves Black one step away from Red: it becomes White's ally."""
    owners = {"ile_de_france": ANN, "angleterre": BLACK}
    state = game(owners, {"ile_de_france": 2, "angleterre": 3}, dice=[1, 6, 6, 3])
    invade = Attack(seat=ANN, origin="ile_de_france", target="angleterre", dice=1)
    state, events = play(state, invade)
    assert kinds(events) == ["BattleFought", "StatusRolled"]
    assert of(events, StatusRolled)[0].face == 3 and RULES.status(state, BLACK) == BOB
    again = with_status(state, {BLACK: BOB})
    again.armies[card("ile_de_france")] = 2
    again.dice_script = [1, 6, 6, 1]
    _, events = play(again, Attack(seat=ANN, origin="ile_de_france", target="angleterre", dice=1))
    assert of(events, StatusRolled)[0].ally_of == BOB  # already Bob's ally: no further


@pytest.mark.parametrize(("face", "status"), [(1, None), (4, None), (5, ANN), (6, ANN)])
def test_nap2pa09_an_ally_that_attacks_rolls_too(face: int, status: int | None) -> None:
    """NAP-2PA-09: 1–4 → your ally becomes neutral; 5–6 → it stays yours (Syrie, down to one
    regiment, cannot go on: the invasion is over)."""
    owners = {"egypte": ANN, "syrie": GREEN}
    state = game(owners, {"syrie": 2, "anatolie": 3}, allies={GREEN: ANN}, dice=[1, 6, 6, face])
    state, events = play(state, Attack(seat=ANN, origin="syrie", target="anatolie", dice=1))
    assert RULES.status(state, GREEN) == status and of(events, StatusRolled)[0].face == face


def test_nap2pa09_ally_against_independent_rolls_for_both() -> None:
    """NAP-2PA-09: an allied independent attacking another: one die for each of the two."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": YELLOW}
    state = game(owners, {"syrie": 2, "anatolie": 3}, allies={GREEN: ANN}, dice=[1, 6, 6, 2, 5])
    state, events = play(state, Attack(seat=ANN, origin="syrie", target="anatolie", dice=1))
    rolls = of(events, StatusRolled)
    assert [(r.independent, r.face) for r in rolls] == [(GREEN, 2), (YELLOW, 5)]
    assert RULES.status(state, GREEN) is None and RULES.status(state, YELLOW) is None


def test_nap2pa09_one_die_per_invasion_not_per_attack_command() -> None:
    """NAP-2PA-09 (000 l.306, 494): an invasion is every battle against one target, over any
    number of attack commands; its one die follows the conquest's move-in."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": GREEN}
    dice = [1, 6, 6, 6, 6, 6, 1, 1, 6, 6, 6, 1, 5]
    state = game(owners, {"egypte": 9, "syrie": 3}, dice=dice)
    state, events = play(state, Attack(seat=ANN, origin="egypte", target="syrie", dice=1))
    assert kinds(events) == ["BattleFought"]  # the invasion goes on: no die yet
    order = Attack(seat=ANN, origin="egypte", target="syrie", until="conquer")
    state, events = play(state, order)
    assert kinds(events) == ["BattleFought", "BattleFought", "TerritoryConquered"]
    assert state.phase == "occupy"
    state, events = play(state, Occupy(seat=ANN, count=4))
    assert kinds(events) == ["Occupied", "StatusRolled"]
    assert of(events, StatusRolled)[0].face == 5


def test_nap2pa10_eliminating_an_independent_gives_you_its_cards() -> None:
    """NAP-2PA-10: its last regiment removed by your ally: its cards go to your hand."""
    owners = {"maroc_fes_etats_barbaresques": ANN, "syrie": GREEN, "egypte": PURPLE}
    hands = {PURPLE: ["castille", "portugal"]}
    state = game(owners, {"syrie": 4, "egypte": 1}, allies={GREEN: ANN}, hands=hands)
    state.dice_script = [6, 1, 6]
    state, events = play(state, Attack(seat=ANN, origin="syrie", target="egypte", dice=1, move=1))
    gone = of(events, PlayerEliminated)[0]
    assert (gone.seat, gone.by) == (PURPLE, ANN)
    assert sorted(state.players[ANN].hand) == sorted([card("castille"), card("portugal")])
    assert [r.independent for r in of(events, StatusRolled)] == [GREEN]  # Purple is gone


def test_nap2pa11_the_opponent_defends_independents_whatever_their_status() -> None:
    """NAP-2PA-11/DEC-19: the non-active player rolls the defence of every independent."""
    owners = {"egypte": ANN, "syrie": GREEN}
    for status in (None, BOB):
        state = game(owners, {"egypte": 5}, allies={GREEN: status})
        _, events = play(asking(state, BOB), Attack(seat=ANN, origin="egypte", target="syrie"))
        assert events[0] == DefenceRequested(seat=BOB, origin="egypte", target="syrie", dice=3)


def test_nap2pa12_own_maneuver_then_one_per_ally() -> None:
    """NAP-2PA-12: your maneuver, then one for each ally along that ally's territories."""
    owners = {
        "maroc_fes_etats_barbaresques": ANN,
        "tunis_tripoli": ANN,
        "syrie": GREEN,
        "anatolie": GREEN,
        "caucase": GREEN,
        "portugal": YELLOW,
        "castille": YELLOW,
        "egypte": GREEN,
    }
    armies = {"maroc_fes_etats_barbaresques": 4, "syrie": 5, "portugal": 3}
    state = game(owners, armies, allies={GREEN: ANN, YELLOW: ANN})
    own = Fortify(seat=ANN, origin="maroc_fes_etats_barbaresques", target="tunis_tripoli", count=2)
    state, events = play(state, own)
    assert of(events, AllyManeuversOpened)[0].allies == (GREEN, YELLOW)
    far = AllyManeuver(seat=ANN, origin="syrie", target="portugal", count=1)
    assert rejected(state, far) == "not_owner"
    state, events = play(state, AllyManeuver(seat=ANN, origin="syrie", target="caucase", count=4))
    assert of(events, AllyManeuvered)[0].ally == GREEN and state.phase == "ally_maneuver"
    again = AllyManeuver(seat=ANN, origin="caucase", target="egypte", count=1)
    assert rejected(state, again) == "maneuver_done"
    assert rejected(state, EndTurn(seat=ANN)) == "wrong_phase"
    _, events = play(state, AllyManeuver(seat=ANN, origin="portugal", target="castille", count=2))
    assert of(events, TurnStarted)[0].seat == BOB  # no ally left to move: the turn ends


def test_nap2pa12_allied_maneuver_follows_the_allys_own_chain() -> None:
    """NAP-2PA-12/16: never through territories of another army; skipping your own maneuver."""
    owners = {"syrie": GREEN, "anatolie": ANN, "caucase": GREEN, "egypte": GREEN}
    state = game(owners, {"syrie": 5}, allies={GREEN: ANN})
    cut = AllyManeuver(seat=ANN, origin="syrie", target="caucase", count=1)
    assert rejected(state, cut) == "not_connected"
    state, events = play(state, AllyManeuver(seat=ANN, origin="syrie", target="egypte", count=1))
    assert kinds(events)[:2] == ["AllyManeuversOpened", "AllyManeuvered"]
    assert of(events, TurnStarted)  # the only ally has moved: the turn is over


def test_nap2pa14_rulebook_example_yellow_invades_white() -> None:
    """NAP-2PA-14: Red uses its ally Yellow against Île de France, read as White's (Red's own is
    refused: DEC-19); Red wins, rolls 5 after the move-in: Yellow stays Red's ally."""
    owners = {"egypte": ANN, "nord_picardie": YELLOW, "ile_de_france": BOB}
    armies = {"nord_picardie": 4, "ile_de_france": 1}
    state = game(owners, armies, allies={YELLOW: ANN}, dice=[6, 1, 5])
    invade = Attack(seat=ANN, origin="nord_picardie", target="ile_de_france", dice=1)
    state, events = play(state, invade)
    assert state.phase == "occupy" and not of(events, StatusRolled)
    state, events = play(state, Occupy(seat=ANN, count=2))
    assert kinds(events) == ["Occupied", "StatusRolled"]
    assert state.owner[card("ile_de_france")] == YELLOW and RULES.status(state, YELLOW) == ANN
    own = game({**owners, "ile_de_france": ANN}, armies, allies={YELLOW: ANN})
    assert rejected(own, Attack(seat=ANN, origin="nord_picardie", target="ile_de_france")) == (
        "own_territory"
    )


def test_nap2pa15_who_decides_what() -> None:
    """NAP-2PA-15: the mover places allied regiments; the other player defends independents."""
    state = game({"egypte": ANN, "syrie": GREEN}, phase="reinforce", allies={GREEN: ANN}, dice=[3])
    state, _ = play(state, Place(seat=ANN, territory="egypte", count=3))
    state, _ = play(state, ReinforceAlly(seat=ANN, ally=GREEN))
    assert state.phase == "ally_place" and rc.to_act(state) == ANN
    assert rejected(state, Place(seat=BOB, territory="syrie")) == "not_your_turn"
    state, _ = play(state, Place(seat=ANN, territory="syrie", count=3))
    state, _ = play(asking(state, BOB), Attack(seat=ANN, origin="syrie", target="anatolie"))
    assert state.phase == "defend" and rc.to_act(state) == BOB


def test_nap2pa16_forbidden_actions() -> None:
    """NAP-2PA-16: independents' cards cannot be traded; allies never trade or take turns."""
    owners = {"egypte": ANN, "syrie": GREEN}
    hands = {ANN: ["castille", "portugal"], GREEN: ["catalogne_aragon"]}
    state = game(owners, phase="reinforce", hands=hands, allies={GREEN: ANN})
    theirs = Trade(seat=ANN, cards=(card("castille"), card("portugal"), card("catalogne_aragon")))
    assert rejected(state, theirs) == "not_in_hand"
    assert rejected(state, Place(seat=GREEN, territory="syrie")) == "not_your_turn"
    assert rejected(state, GiveCard(seat=ANN, independent=BOB, card=card("castille"))) == (
        "not_independent"
    )


# ============================================================================ DEC-17/18/19
def test_dec17_placement_turns_until_every_stock_is_empty() -> None:
    """DEC-17: min(3, own left) and min(2, left) per independent; alternate until all empty."""
    state = rc.replay(rc.start(NAP2P, ["Ann", "Bob"], seed=9, dice=[6, 1]))
    state, turns = through_setup(state)
    assert len(turns) == 18
    assert [placer for placer, _, _ in turns] == [ANN, BOB] * 9
    assert [indep for _, _, indep in turns] == [8] * 7 + [0] * 11  # independents: 7 turns
    assert [own for _, own, _ in turns] == [3] * 16 + [2, 2]  # 26 = 8 × 3 + 2
    assert sum(state.armies) == 2 * 36 + 4 * 21 and not any(state.setup_left)


def test_dec18_no_gift_to_your_own_ally_unless_the_option_allows_it() -> None:
    """DEC-18: a gift must move the cannon (option gift_to_own_ally: allowed, no movement)."""
    owners = {"egypte": ANN, "syrie": GREEN}
    hands = {ANN: ["castille", "portugal"]}
    state = game(owners, phase="reinforce", hands=hands, allies={GREEN: ANN})
    gift = GiveCard(seat=ANN, independent=GREEN, card=card("castille"))
    assert rejected(state, gift) == "already_allied"
    assert gift not in rc.legal_commands(state)
    allowed = game(
        owners,
        phase="reinforce",
        hands=hands,
        allies={GREEN: ANN},
        options={"gift_to_own_ally": True},
    )
    state, events = play(allowed, gift)
    assert of(events, CardGiven)[0].ally_of == ANN and len(state.players[GREEN].hand) == 1


def test_dec19_friendly_fire() -> None:
    """DEC-19: never attack your own ally; allies never attack you nor (default) each other."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": YELLOW}
    armies = {"egypte": 5, "syrie": 5}
    state = game(owners, armies, allies={GREEN: ANN, YELLOW: ANN})
    assert rejected(state, Attack(seat=ANN, origin="egypte", target="syrie")) == "attack_own_ally"
    assert rejected(state, Attack(seat=ANN, origin="syrie", target="anatolie")) == (
        "attack_own_ally"
    )
    assert rejected(state, Attack(seat=ANN, origin="syrie", target="egypte")) == "own_territory"
    loose = game(
        owners, armies, allies={GREEN: ANN, YELLOW: ANN}, options={"ally_attacks_ally": True}
    )
    assert rejected(loose, Attack(seat=ANN, origin="egypte", target="syrie")) == ("attack_own_ally")
    _, events = play(asking(loose, BOB), Attack(seat=ANN, origin="syrie", target="anatolie"))
    assert isinstance(events[0], DefenceRequested) and events[0].seat == BOB


# ============================================================================ views
def test_cards_given_lie_face_down() -> None:
    """ENG-07: the giver knows the card; others see that one changed hands, and the count."""
    state = game({"egypte": ANN}, phase="reinforce", hands={ANN: ["castille"]})
    state, events = play(state, GiveCard(seat=ANN, independent=GREEN, card=card("castille")))
    assert visible_event(events[0], ANN)["card"] == card("castille")
    assert visible_event(events[0], BOB)["card"] is None
    for seat in (ANN, BOB, None):
        green = view(state, seat)["players"][GREEN]
        assert green["cards"] == 1 and "hand" not in green and green["ally_of"] == ANN


# ============================================================================ whole games
def test_active_bots_finish_and_replay() -> None:
    """Greedy bots end active games; every history replays to the same bytes (ENG-01)."""
    for seed in range(3):
        opening = rc.start(NAP2P, ["A", "B"], seed=seed, options={"independents": "active"})
        _, events = self_play(opening, seed=seed, max_turns=250)
        state = rc.replay(events)
        assert state.phase == "over" and state.winner in (0, 1)
        assert rc.decode_events(rc.encode(events)) == events
        kinds_seen = Counter(type(e).__name__ for e in events)
        assert kinds_seen["StatusRolled"] and kinds_seen["CardGiven"]


@pytest.mark.parametrize("case", range(3))
def test_active_games_keep_every_invariant(case: int) -> None:
    """The conformance audit (CORE-02/03/10/11, ENG-01/05) on active games, random openings."""
    r = random.Random(case)
    pairs: list[tuple[Policy, Policy]] = [("auto", "ask"), ("ask", "auto"), ("ask", "ask")]
    policies = pairs[case]
    setup = {
        "seed": r.randrange(2**64),
        "bot_seed": r.randrange(2**32),
        "prefix": (0, 150, 300)[case],
        "dice": [r.randint(1, 6) for _ in range(case * 3)],
        "options": {
            "independents": "active",
            "gift_to_own_ally": case == 1,
            "ally_attacks_ally": case == 2,
        },
        "seats": [
            SeatInfo(name=f"P{i}", colour=COLOURS[i], policy=p) for i, p in enumerate(policies)
        ],
    }
    audit = audited_game(NAP2P, setup)
    assert audit.live.winner is not None
