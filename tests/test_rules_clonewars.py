"""CW-01..43 and DEC-33..36: the Clone Wars faction game (rulebook 002), rule by rule.

Positions come from scenario documents (``tests.clonewars_kit.faction_doc``); the rulebook's
worked examples and the moves the CLI adds are played through the CLI, the other rules
in-process.  Dice are scripted in the order the engine draws them (ENG-02): the attacker's
dice (d8s first), the defender's, then the attacker's fighter re-rolls, then the defender's.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

import risk_core as rc
from risk_core import looks
from risk_core.bots import self_play
from risk_core.model import (
    Attack,
    BattleFought,
    EndTurn,
    FirstPlayerChosen,
    Fortify,
    GameWon,
    Place,
    PlayerEliminated,
    TerritoriesDealt,
    Trade,
    TurnStarted,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.clonewars_state import (
    AnswerCommand,
    AskCommand,
    BuildShip,
    CWCardDrawn,
    CWOpening,
    FactionDeckReshuffled,
    FactionWon,
    HandDiscarded,
    InvokeOrder66,
    MoveShip,
    Order66Invoked,
    PlacePalpatine,
    PlaceToken,
    PlayPower,
    ShipSupport,
    SidiousAdvanced,
    TokenPlaced,
)
from risk_core.views import view, visible_events
from tests.clonewars_kit import (
    BLACK,
    BLUE,
    BOARD,
    CAPITALS,
    CORVETTES,
    FACTION,
    FIGHTERS,
    IDS,
    ORANGE,
    RED,
    Run,
    error,
    faction_cli_game,
    faction_game,
    members,
    out,
)
from tests.gamekit import play, rejected
from tests.scenario_kit import events
from tests.scenario_kit import view as view_of

NAMES = ["Ann", "Bob", "Cy", "Dee"]
ANAKIN_REPUBLIC = 0  # placeholder Anakin card ids (cw_anakin_cards, GAP-17)
ANAKIN_SEPARATIST = 30


def fam(state: rc.GameState) -> rc.model.FamilyState:
    return state.family


def seat_cards(deck: str, kind: str) -> list[int]:
    return [c.id for c in BOARD.cards if c.deck == deck and c.kind == kind]


REP_FIGHTERS = [c for c in seat_cards("republic", "fighter") if c != ANAKIN_REPUBLIC]
REP_CORVETTES = [c for c in seat_cards("republic", "corvette") if c != 1]
REP_CAPITALS = [c for c in seat_cards("republic", "capital") if c != 2]


# ============================================================== the rule set and setup
def test_cw_01_02_registered_on_the_galaxy_for_2_to_4_players() -> None:
    """CW-01/02/10: the faction game is a rule set on the 42-planet galaxy, 2-4 players; the two
    faction decks of 30 cards (shuffled apart) and the 9 tokens are in play, Sidious on START."""
    info = next(i for i in rc.rulesets() if i.name == FACTION)
    assert (info.board, info.min_players, info.max_players) == ("clonewars", 2, 4)
    events = rc.start(FACTION, ["Ann", "Bob"], seed=3)
    deck = next(e for e in events if isinstance(e, rc.model.DeckFormed)).deck
    assert sorted(deck) == list(range(60))
    opening = next(e for e in events if isinstance(e, CWOpening))
    assert len(opening.pile) == 9 and len(set(opening.pile)) == 9
    decks = [BOARD.cards[c].deck for c in deck]
    assert decks == ["separatist"] * 30 + ["republic"] * 30
    assert fam(rc.replay(events)).track == 0


@pytest.mark.parametrize(
    ("players", "commanders"),
    [
        (2, ["Ann", "Bob", "Ann", "Bob"]),
        (3, ["Ann", "Bob", "Cy", "Bob"]),
        (4, ["Ann", "Bob", "Cy", "Dee"]),
    ],
)
def test_cw_06_07_08_four_armies_alternating_factions(players: int, commanders: list[str]) -> None:
    """CW-06..08: four armies always in play, red/black/orange/blue alternating Republic and
    Separatist, each commanded by its player."""
    state = rc.replay(rc.start(FACTION, NAMES[:players], seed=1))
    assert [p.colour for p in state.players] == ["red", "black", "orange", "blue"]
    assert [p.commander for p in state.players] == commanders
    rs = rc.ruleset_of(state)
    assert [rs.faction(state, s) for s in range(4)] == [
        "republic",
        "separatist",
        "republic",
        "separatist",
    ]


def test_cw_09_starting_troops() -> None:
    """CW-09: 31 troops for each Republic army, 30 for each Separatist army."""
    dealt = next(
        e for e in rc.start(FACTION, ["Ann", "Bob"], seed=2) if isinstance(e, TerritoriesDealt)
    )
    assert dealt.setup_left == (31, 30, 31, 30) and set(dealt.owners) == {-1}


def test_cw_11_dec_34_republic_first_with_a_d6_tie_break() -> None:
    """CW-11/DEC-34: every army rolls (here Blue 6 after a tie-break: Black 2, Red 5, Orange 1,
    Blue 5, then Red 3, Blue 6); then the Republic armies roll for their first picks (Orange 4
    against Red 2: Orange picks first); then the highest army claims."""
    rules = get_ruleset(FACTION)
    events = rules.start(["Ann", "Bob"], 2, None, dice_script=[5, 2, 1, 5, 3, 6, 2, 4])
    first = next(e for e in events if isinstance(e, FirstPlayerChosen))
    assert first.seat == BLUE
    opening = next(e for e in events if isinstance(e, CWOpening))
    assert opening.republic_order == (ORANGE, RED) and opening.republic_rolls == ((2, 4),)
    state = rc.replay(events)
    assert rc.to_act(state) == ORANGE
    state, _ = play(state, Place(seat=ORANGE, territory="kamino", count=1))
    assert rc.to_act(state) == RED
    assert rejected(state, Place(seat=RED, territory="kamino", count=1)) == "already_claimed"
    state, _ = play(state, Place(seat=RED, territory="naboo", count=1))
    assert rc.to_act(state) == BLUE  # the highest roll claims next, then clockwise


def test_cw_12_13_placement_starts_with_the_first_claimer_then_a_new_roll() -> None:
    """CW-12/DEC-34 (ii): after the last claim, placement starts with the army that claimed
    first; CW-13/DEC-34 (iii): a new roll decides the first turn."""
    events = rc.start(FACTION, ["Ann", "Bob"], seed=5)
    state = rc.replay(events)
    claim_first = fam(state).claim_first
    while -1 in state.owner:
        seat = rc.to_act(state)
        free = state.owner.index(-1)
        state, _ = play(state, Place(seat=seat, territory=IDS[free], count=1))
    assert rc.to_act(state) == claim_first
    while state.phase == "setup":
        seat = rc.to_act(state)
        t = state.owner.index(seat)
        state, new = play(state, Place(seat=seat, territory=IDS[t], count=1))
    rolls = [e for e in new if isinstance(e, FirstPlayerChosen)]
    assert len(rolls) == 1 and state.turn == 1 and state.current == rolls[0].seat


# ============================================================== the turn's steps
def test_cw_16_republic_turn_starts_at_reinforcements() -> None:
    """CW-16: a Republic army skips steps 1, 2 and 11: no token, no track move."""
    state, events = faction_game(current=RED, family={"pile": ["dooku"], "track": 3})
    assert state.phase == "reinforce" and fam(state).track == 3
    assert not any(isinstance(e, SidiousAdvanced) for e in events)


def test_cw_16_17_18_separatist_turn_token_then_track() -> None:
    """CW-16/17/18: a Separatist turn places the top token (step 1), then Sidious advances
    one space (step 2), then reinforcements (step 3)."""
    state, _ = faction_game(current=BLACK, family={"pile": ["dooku", "grievous"], "track": 3})
    assert state.phase == "token" and fam(state).track == 3
    own = IDS[state.owner.index(BLACK)]
    state, events = play(state, PlaceToken(seat=BLACK, territory=own))
    assert [type(e) for e in events] == [TokenPlaced, SidiousAdvanced]
    assert events[0].token == "grievous" and fam(state).track == 4
    assert fam(state).tokens == {own: ("grievous",)} and state.phase == "reinforce"


def test_cw_17_token_rules() -> None:
    """CW-17: on an own planet (never the other Separatist army's), not on one holding a
    token while another has none."""
    mine = [IDS[t] for t in range(42) if t % 4 == BLACK]
    state, _ = faction_game(
        current=BLACK, family={"pile": ["dooku"], "tokens": {mine[0]: ["grievous"]}}
    )
    blue = IDS[BLUE]
    assert rejected(state, PlaceToken(seat=BLACK, territory=blue)) == "not_owner"
    assert rejected(state, PlaceToken(seat=BLACK, territory=mine[0])) == "token_there"
    play(state, PlaceToken(seat=BLACK, territory=mine[1]))


def test_cw_17_a_token_on_a_token_when_no_planet_is_free() -> None:
    """CW-17: with a token on every own planet, one more goes on top."""
    mine = [IDS[t] for t in range(42) if t % 4 == BLACK]
    tokens = {p: [t] for p, t in zip(mine, ["grievous", "nute_gunray", "wat_tambor"], strict=False)}
    owners = {p: RED for p in mine[3:]}
    state, _ = faction_game(
        current=BLACK, owners=owners, family={"pile": ["dooku"], "tokens": tokens}
    )
    state, _ = play(state, PlaceToken(seat=BLACK, territory=mine[0]))
    assert fam(state).tokens[mine[0]] == ("grievous", "dooku")


def test_cw_18_track_stops_at_its_end() -> None:
    """CW-18/GAP-19: Sidious advances one space a Separatist turn, never past the last."""
    rs = rc.ruleset_of(faction_game()[0])
    state, _ = faction_game(current=BLUE, family={"track": rs.track_length})
    assert fam(state).track == rs.track_length


@pytest.mark.parametrize(("planets", "income"), [(11, 3), (12, 4), (15, 5), (30, 10), (36, 12)])
def test_cw_19_reinforcement_table(planets: int, income: int) -> None:
    """CW-19 (002 l.275-309): max(3, planets // 3) before the systems' bonuses."""
    owners = {t: (RED if i < planets else BLACK) for i, t in enumerate(IDS)}
    owners.update({IDS[39]: ORANGE, IDS[40]: BLUE, IDS[41]: BLACK})
    state, events = faction_game(current=RED, owners=owners)
    started = next(e for e in events if isinstance(e, TurnStarted))
    assert started.territories == planets and started.base == income
    assert state.reserve == income + sum(
        BOARD.groups[BOARD.group_index[g]].bonus for g in started.groups
    )


def test_cw_19_system_bonus() -> None:
    """CW-19: plus each whole system's bonus (Expansion Region +3, l.307)."""
    owners = {t: RED for t in members("expansion_region")}
    owners.update({IDS[0]: ORANGE, IDS[1]: BLUE})
    state, _ = faction_game(current=RED, owners=owners, default_owner=BLACK)
    assert state.reserve == 3 + 3


# ============================================================== cards and ships
def test_cw_21_set_values() -> None:
    """CW-21: 3 fighters 4, 3 corvettes 5, 3 capital ships 6, one of each 7."""
    rs = rc.ruleset_of(faction_game()[0])
    state = faction_game()[0]
    assert rs.set_value(state, FIGHTERS[:3]) == 4
    assert rs.set_value(state, CORVETTES[:3]) == 5
    assert rs.set_value(state, CAPITALS[:3]) == 6
    assert rs.set_value(state, [FIGHTERS[0], CORVETTES[0], CAPITALS[0]]) == 7
    assert rs.set_value(state, [FIGHTERS[0], FIGHTERS[1], CAPITALS[0]]) is None


def test_cw_20_dec_33_five_cards_must_go_below_five_with_several_sets() -> None:
    """CW-20/DEC-33 (several): a hand of 5 must trade before placing; several sets a turn."""
    hand = REP_FIGHTERS[:3] + REP_CORVETTES[:3]
    state, _ = faction_game(current=RED, hands={"Red": hand})
    own = IDS[RED]
    assert rejected(state, Place(seat=RED, territory=own, count=1)) == "must_trade"
    state, _ = play(state, Trade(seat=RED, cards=tuple(REP_FIGHTERS[:3])))
    state, _ = play(state, Trade(seat=RED, cards=tuple(REP_CORVETTES[:3])))  # DEC-33 (B)
    assert state.reserve == 3 + 4 + 5


def test_dec_33_one_set_a_turn() -> None:
    """DEC-33 (A), option set_trades=one: one set, and the obligation ends with it."""
    hand = REP_FIGHTERS[:3] + REP_CORVETTES[:3]
    state, _ = faction_game(current=RED, hands={"Red": hand}, options={"set_trades": "one"})
    state, _ = play(state, Trade(seat=RED, cards=tuple(REP_FIGHTERS[:3])))
    assert rejected(state, Trade(seat=RED, cards=tuple(REP_CORVETTES[:3]))) == "one_per_turn"
    play(state, Place(seat=RED, territory=IDS[RED], count=state.reserve))


def test_cw_22_one_ship_a_turn_three_of_a_class() -> None:
    """CW-22: one card builds one ship of its class, one a turn, never a 4th of a class."""
    own = [IDS[t] for t in range(42) if t % 4 == RED]
    hand = [REP_FIGHTERS[0], REP_CAPITALS[0], REP_CAPITALS[1]]
    state, _ = faction_game(current=RED, hands={"Red": hand}, family={"ships": {own[1]: [0, 0, 3]}})
    assert rejected(state, BuildShip(seat=RED, card=REP_CAPITALS[0], territory=own[0])) == (
        "ship_limit"
    )
    state, events = play(state, BuildShip(seat=RED, card=REP_FIGHTERS[0], territory=own[0]))
    assert fam(state).ships[own[0]] == (1, 0, 0) and REP_FIGHTERS[0] in state.discard
    assert rejected(state, BuildShip(seat=RED, card=REP_CAPITALS[1], territory=own[0])) == (
        "one_per_turn"
    )


def test_cw_21_22_moves_name_the_cards_by_id(risk: Run, tmp_path: Path) -> None:
    """CW-21/22: the cards name no planet, so `risk moves` lists the sets, the ship cards and
    the powers with their ids (`[3] fighter`, as the hand is listed), which `risk trade`,
    `risk build-ship` and `risk power` take; a class where an id is due is refused so."""
    hand = [ANAKIN_REPUBLIC, *REP_FIGHTERS[:2], REP_CORVETTES[0]]
    game = faction_cli_game(risk, tmp_path, current=RED, hands={"Red": hand})
    listed = risk("moves", game).stdout
    one, two = REP_FIGHTERS[:2]
    assert f"  trade: [0] fighter, [{one}] fighter, [{two}] fighter\n" in listed
    assert f"build-ship: card [0] fighter, territory {BOARD.name(0)};" in listed
    assert "  power: card [0] fighter\n" in listed
    assert error(risk, "trade", game, "fighter", "fighter", "fighter") == "not_in_hand"
    refused = risk("trade", game, "fighter", str(one), str(two), code=1).stderr
    assert "Name the card by its id" in refused


def test_cw_23_no_troops_or_ships_on_the_teammates_planets() -> None:
    """CW-23/CW-42: never place troops or a ship on the other army of your faction."""
    state, _ = faction_game(current=RED, hands={"Red": [REP_FIGHTERS[0]]})
    orange = IDS[ORANGE]
    assert rejected(state, Place(seat=RED, territory=orange, count=1)) == "not_owner"
    assert rejected(state, BuildShip(seat=RED, card=REP_FIGHTERS[0], territory=orange)) == (
        "not_owner"
    )


def test_cw_14_15_anakin_power_and_order_66() -> None:
    """CW-14, CW-15 (GAP-17 reconstruction): an Anakin card's power gives 2 troops at step 4;
    after Order 66 a Republic army may not use it but may still trade it or build with it; a
    Separatist army may."""
    state, _ = faction_game(current=RED, hands={"Red": [ANAKIN_REPUBLIC]})
    state2, _ = play(state, PlayPower(seat=RED, card=ANAKIN_REPUBLIC))
    assert state2.reserve == state.reserve + 2 and ANAKIN_REPUBLIC in state2.discard
    after, _ = faction_game(current=RED, hands={"Red": [ANAKIN_REPUBLIC]}, family={"order66": True})
    assert rejected(after, PlayPower(seat=RED, card=ANAKIN_REPUBLIC)) == "anakin_turned"
    play(after, BuildShip(seat=RED, card=ANAKIN_REPUBLIC, territory=IDS[RED]))
    sep, _ = faction_game(
        current=BLACK, hands={"Black": [ANAKIN_SEPARATIST]}, family={"order66": True}
    )
    play(sep, PlayPower(seat=BLACK, card=ANAKIN_SEPARATIST))


def test_gap_17_powers_without_effect_and_the_option() -> None:
    """GAP-17: a card whose power is not transcribed refuses its power by name; with
    card_powers=off no power works."""
    state, _ = faction_game(current=RED, hands={"Red": [REP_FIGHTERS[0]]})
    assert rejected(state, PlayPower(seat=RED, card=REP_FIGHTERS[0])) == "no_effect"
    off, _ = faction_game(
        current=RED, hands={"Red": [ANAKIN_REPUBLIC]}, options={"card_powers": "off"}
    )
    assert rejected(off, PlayPower(seat=RED, card=ANAKIN_REPUBLIC)) == "no_effect"


# ============================================================== invasions
def two_planets(
    attacker: int = RED, defender: int = BLACK, a: int = 5, d: int = 3
) -> dict[str, object]:
    """Saleucami (attacker) next to Jabiim (defender), the rest round-robin."""
    return {
        "owners": {"saleucami": attacker, "jabiim": defender},
        "armies": {"saleucami": a, "jabiim": d},
    }


def test_cw_24_invade_only_the_other_faction() -> None:
    """CW-24/CW-42: never your teammate's planet; from a planet with 2 troops or more."""
    state, _ = faction_game(current=RED, phase="attack", **two_planets(RED, ORANGE))
    cmd = Attack(seat=RED, origin="saleucami", target="jabiim", dice=3)
    assert rejected(state, cmd) == "teammate"


def test_cw_24_a_refusal_names_only_the_other_factions_planets() -> None:
    """CW-24: an attack on a planet Saleucami does not border names where it can attack from
    there: Jabiim (Blue's) and Kessel (Black's), not Felucia or Boz Pity (Orange's, the
    teammate's), which it never may; `risk odds` of a teammate's planet is refused as the
    attack is."""
    owners = {"saleucami": RED, "felucia": ORANGE, "boz_pity": ORANGE, "kessel": BLACK}
    state, _ = faction_game(
        current=RED, phase="attack", owners=owners, armies={"saleucami": 5}, default_owner=BLUE
    )
    cmd = Attack(seat=RED, origin="saleucami", target="dagobah", dice=3)
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, cmd)
    assert refused.value.code == "not_adjacent"
    assert refused.value.message.endswith("from there you can attack Jabiim, Kessel.")
    with pytest.raises(rc.RuleError) as odds:
        looks.odds_facts(state, "saleucami", "felucia")
    assert odds.value.code == "teammate"


def test_cw_04_ships_never_fight_alone() -> None:
    """CW-04/CW-25: ships support troops but cannot attack without them (1 troop stays)."""
    state, _ = faction_game(
        current=RED, phase="attack", family={"ships": {"saleucami": [3, 3, 3]}}, **two_planets(a=1)
    )
    cmd = Attack(seat=RED, origin="saleucami", target="jabiim", dice=1)
    assert rejected(state, cmd) == "not_enough_armies"


def test_cw_26_worked_example_capital_ship_and_fighter(risk: Run, tmp_path: Path) -> None:
    """CW-05/25/26 (002 l.384-421, the rulebook's battle): Red attacks from Saleucami with 3
    dice and a capital ship (one d8); Black defends Jabiim with 2 dice and a fighter that
    re-rolls a 1 until it shows another number.  Script: attack d8 7, d6 3, 2; defence 1, 4;
    the fighter's re-rolls 1 then 5.  7 beats 5, 3 loses to 4."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        dice=[7, 3, 2, 1, 4, 1, 5],
        family={"ships": {"saleucami": [0, 0, 1], "jabiim": [1, 0, 0]}},
        **two_planets(),
    )
    moved = out(risk, "attack", game, "saleucami", "jabiim", "--dice", "3")
    support, battle = moved["events"][0], moved["events"][1]
    assert support["type"] == "ship_support"
    assert support["attack"]["capital"] == 1 and support["defence"]["fighters"] == 1
    assert support["defence_natural"] == [1, 4, 1, 5]
    assert battle["attack"] == [7, 3, 2] and battle["defence"] == [5, 4]
    assert (battle["attacker_losses"], battle["defender_losses"]) == (1, 1)
    log = risk("log", game).stdout
    assert "with 1 capital ship" in log and "with 1 fighter" in log


def test_cw_26_corvettes_add_one_to_the_highest_dice_never_two() -> None:
    """CW-26 step 5: each corvette +1 on a different die, highest first (3 corvettes on 2
    dice: +1 on each, never +2)."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        dice=[6, 2, 5, 5],
        family={"ships": {"saleucami": [0, 3, 0]}},
        **two_planets(),
    )
    _, events = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=2))
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert battle.attack == (7, 3) and battle.defence == (5, 5)
    assert (battle.attacker_losses, battle.defender_losses) == (1, 1)
    support = next(e for e in events if isinstance(e, ShipSupport))
    assert support.attack.corvettes == 2  # CW-25: capped by the dice thrown


def test_cw_25_ships_count_only_up_to_the_dice() -> None:
    """CW-25: 3 capital ships with 1 die: one d8; ties go to the defender (CW-26 step 6).  (The
    defender throws a d6: the script's faces are what each die can show.)"""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        dice=[6, 6],
        family={"ships": {"saleucami": [0, 0, 3]}},
        **two_planets(a=2, d=1),
    )
    state, events = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=1))
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert battle.attack == (6,) and battle.defence == (6,) and battle.attacker_losses == 1
    support = next(e for e in events if isinstance(e, ShipSupport))
    assert support.attack.capital == 1  # CW-25: one capital ship counts, for the one die


def test_cw_27_switch_the_attacking_planet_worked_example() -> None:
    """CW-27 (002 l.423-436): Mon Calamari is down to 1 troop, the Separatist goes on from
    Felucia (10 troops) against Jabiim with 3 dice; Jabiim defends with 2."""
    owners = {"mon_calamari": BLACK, "felucia": BLACK, "jabiim": RED}
    armies = {"mon_calamari": 1, "felucia": 10, "jabiim": 4}
    state, _ = faction_game(current=BLACK, phase="attack", owners=owners, armies=armies)
    assert rejected(state, Attack(seat=BLACK, origin="mon_calamari", target="jabiim", dice=1)) == (
        "not_enough_armies"
    )
    _, events = play(state, Attack(seat=BLACK, origin="felucia", target="jabiim", dice=3))
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert len(battle.attack) == 3 and len(battle.defence) == 2


def test_cw_28_palpatine_defends_with_d8() -> None:
    """CW-28: after Order 66 Palpatine's planet defends with d8 only, without ships."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        dice=[6, 6, 6, 8, 7],
        family={"order66": True, "palpatine": "jabiim"},
        **two_planets(),
    )
    _, events = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=3))
    support = next(e for e in events if isinstance(e, ShipSupport))
    assert support.defence.all_d8 and support.defence.capital == 2
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert battle.defence == (8, 7) and battle.attacker_losses == 2


def test_cw_28_palpatines_d8s_are_not_named_ships_in_the_log(risk: Run, tmp_path: Path) -> None:
    """CW-28: Palpatine's planet rolls d8s whether ships are there or not; the log says so and
    names no capital ship the planet does not hold."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        dice=[6, 6, 6, 8, 7],
        family={"order66": True, "palpatine": "jabiim"},
        **two_planets(),
    )
    out(risk, "attack", game, "saleucami", "jabiim")
    [line] = [x for x in risk("log", game).stdout.splitlines() if "all d8: Palpatine" in x]
    assert "8-7 (all d8: Palpatine)" in line and "capital ship" not in line, line


def test_cw_35_an_armys_last_planet_is_not_handed_over(risk: Run, tmp_path: Path) -> None:
    """CW-35 with CORE-18: a change of command never takes the teammate's last planet (the
    army would hold nothing and never act again); any other planet of 1 troop may go."""

    def orange_holding(*planets: str) -> str:
        """A game where Orange holds ``planets``, Coruscant with 1 troop; Red may ask."""
        owners = {"saleucami": RED, "kessel": RED, "felucia": BLUE}
        return faction_cli_game(
            risk,
            tmp_path,
            players=3,
            current=RED,
            phase="attack",
            default_owner=BLACK,
            owners={**owners, **dict.fromkeys(planets, ORANGE)},
            armies={"saleucami": 5, "coruscant": 1},
        )

    game = orange_holding("coruscant")
    before = events(risk, game)
    assert error(risk, "ask-command", game, "coruscant") == "last_planet"
    said = risk("ask-command", game, "coruscant", code=1).stderr
    assert "Coruscant is the last planet of Orange: an army keeps" in said, said
    assert events(risk, game) == before  # nothing recorded
    # With a second planet, the same one of 1 troop may go (the teammate consents).
    other = orange_holding("coruscant", "kessel")
    out(risk, "ask-command", other, "coruscant")
    out(risk, "answer-command", other, "yes", "--as", "Cy")
    assert view_of(risk, other)["territories"]["coruscant"]["owner"] == RED


def test_cw_29_dec_36_conquest_destroys_and_moves_ships(risk: Run, tmp_path: Path) -> None:
    """CW-29/DEC-36: the defender's ships are destroyed; the ships that supported the winning
    battle move in; more may follow (ships-follow) before a new invasion."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        dice=[6, 1],
        family={"ships": {"saleucami": [2, 1, 0], "jabiim": [0, 0, 2]}},
        **two_planets(d=1),
    )
    moved = out(risk, "attack", game, "saleucami", "jabiim", "--dice", "1", "--move", "1")
    v = out(risk, "show", game)
    assert v["territories"]["jabiim"]["ships"] == {"fighter": 1, "corvette": 1, "capital": 0}
    assert v["territories"]["saleucami"]["ships"] == {"fighter": 1, "corvette": 0, "capital": 0}
    assert moved["events"][-1]["type"] in ("conquered", "occupied")
    out(risk, "ships-follow", game, "--fighters", "1")
    v = out(risk, "show", game)
    assert "ships" not in v["territories"]["saleucami"]
    assert error(risk, "ships-follow", game, "--fighters", "1") == "not_enough_ships"


def test_cw_30_36_tokens_captured_and_their_dots_drawn(risk: Run, tmp_path: Path) -> None:
    """CW-30/CW-36 (002 l.500-508, the rulebook's example): Red captures Count Dooku (2 dots)
    and Rune Haako (1 dot) on one planet and draws 1 card for the army hit plus 3 for the
    dots; the tokens are face up (public) afterwards."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        dice=[6, 1],
        family={"tokens": {"jabiim": ["dooku", "rune_haako"]}, "placed_by": {"dooku": 1}},
        **two_planets(d=1),
    )
    moved = out(risk, "attack", game, "saleucami", "jabiim", "--dice", "1", "--move", "1")
    captured = [e for e in moved["events"] if e["type"] == "tokens_captured"]
    assert captured[0]["tokens"] == ["dooku", "rune_haako"]
    ended = out(risk, "end", game)
    draws = [e for e in ended["events"] if e["type"] == "cw_card_drawn"]
    assert len(draws) == 4
    v = out(risk, "show", game)
    assert [t["id"] for t in v["players"][RED]["captured_tokens"]] == ["dooku", "rune_haako"]


def test_cw_36_worked_example_one_card_per_army_hit() -> None:
    """CW-36 (002 l.496-498): Blue takes Boz Pity and Kessel from Red, Haruun Kal and Rodia
    from Orange: 2 cards, one per army hit, however many planets."""
    owners = {
        "kashyyyk": BLUE,
        "boz_pity": RED,
        "kessel": RED,
        "haruun_kal": ORANGE,
        "rodia": ORANGE,
    }
    armies = {"kashyyyk": 13, "boz_pity": 1, "kessel": 1, "haruun_kal": 1, "rodia": 1}
    dice = [6, 1] * 4
    state, _ = faction_game(current=BLUE, phase="attack", owners=owners, armies=armies, dice=dice)
    for origin, target, move in (
        ("kashyyyk", "boz_pity", 6),
        ("boz_pity", "kessel", 2),
        ("kashyyyk", "haruun_kal", 5),
        ("haruun_kal", "rodia", 2),
    ):
        state, _ = play(state, Attack(seat=BLUE, origin=origin, target=target, dice=1, move=move))
    state, events = play(state, EndTurn(seat=BLUE))
    assert sum(isinstance(e, CWCardDrawn) for e in events) == 2
    assert all(
        BOARD.cards[e.card].deck == "separatist" for e in events if isinstance(e, CWCardDrawn)
    )


def _blue_takes_two_armies_planets(options: dict[str, str] | None = None) -> rc.GameState:
    """The CW-36 worked example up to Blue's end of turn (two cards due), with the Separatist
    deck empty and ``SEP_SPENT`` (played earlier) on the discard pile."""
    owners = {"kashyyyk": BLUE, "boz_pity": RED, "haruun_kal": ORANGE}
    armies = {"kashyyyk": 13, "boz_pity": 1, "haruun_kal": 1}
    state, _ = faction_game(
        current=BLUE,
        phase="attack",
        owners=owners,
        armies=armies,
        dice=[6, 1] * 2,
        **({"options": options} if options else {}),
    )
    for target in ("boz_pity", "haruun_kal"):
        attack = Attack(seat=BLUE, origin="kashyyyk", target=target, dice=1, move=1)
        state, _ = play(state, attack)
    separatist = [c for c in state.deck if BOARD.cards[c].deck == "separatist"]
    state.deck = [c for c in state.deck if c not in separatist]
    state.discard = [*state.discard, *SEP_SPENT]  # (the rest are out of play: sets, hands)
    return state


SEP_SPENT = [c.id for c in BOARD.cards if c.deck == "separatist"][3:8]


def test_core_11_an_empty_faction_deck_takes_its_discard_pile() -> None:
    """CORE-11 (option faction_reshuffle=discard_pile, the default) with CW-36: Blue must draw 2
    from an empty Separatist deck: the Separatist discard pile is shuffled into a new deck
    first; its order is hidden from everyone."""
    state = _blue_takes_two_armies_planets()
    republic_deck = list(state.deck)
    state, events = play(state, EndTurn(seat=BLUE))
    shuffled = next(e for e in events if isinstance(e, FactionDeckReshuffled))
    assert shuffled.faction == "separatist" and sorted(shuffled.deck) == sorted(SEP_SPENT)
    drawn = [e.card for e in events if isinstance(e, CWCardDrawn)]
    assert drawn == [shuffled.deck[-1], shuffled.deck[-2]]
    assert sorted(state.players[BLUE].hand) == sorted(drawn)
    assert not set(SEP_SPENT) & set(state.discard)
    assert state.deck == [*shuffled.deck[:-2], *republic_deck]
    for seat in (None, BLUE, RED):
        shown = visible_events([shuffled], seat)[0]
        assert "deck" not in shown and shown["deck_size"] == len(SEP_SPENT)
    assert log_line(shown) == (
        "The Separatist deck is empty: its discard pile is shuffled into a new deck of 5 cards "
        "(CORE-11)."
    )


def log_line(event: dict[str, object]) -> str:
    """The event's line in `risk log` (the family's texts installed, as `risk` loads them)."""
    from risk_cli import render
    from risk_cli.families import install_ruleset
    from risk_cli.main import cli

    install_ruleset(cli, FACTION)
    names = render.Names(BOARD, [{"name": n, "colour": "red"} for n in NAMES])
    return click.unstyle(render.event_line(event, names))


def test_core_11_faction_reshuffle_never_leaves_the_discards_out() -> None:
    """faction_reshuffle=never (and a game started before the option, which has none): an
    empty faction deck gives nothing, discards stay out of play (CW-21 read as 'leave play')."""
    for options in ({"faction_reshuffle": "never"}, None):
        state = _blue_takes_two_armies_planets(options)
        if options is None:
            state.options = {k: v for k, v in state.options.items() if k != "faction_reshuffle"}
        state, events = play(state, EndTurn(seat=BLUE))
        assert not any(isinstance(e, CWCardDrawn) for e in events)
        assert not any(isinstance(e, FactionDeckReshuffled) for e in events)
        assert set(SEP_SPENT) <= set(state.discard)


def test_cw_21_a_troop_set_is_out_of_play_a_ship_card_is_discarded() -> None:
    """CW-21 (002 l.317: a set 'hors jeu') and CW-22 (l.329: a ship card to the 'pile de
    défausse'): with CORE-11's reshuffle only the ship card can come back."""
    hand = [*REP_FIGHTERS[:3], REP_CORVETTES[0]]
    state, _ = faction_game(current=RED, hands={"Red": hand})
    state, _ = play(state, Trade(seat=RED, cards=tuple(REP_FIGHTERS[:3])))
    state, _ = play(state, BuildShip(seat=RED, card=REP_CORVETTES[0], territory=IDS[RED]))
    assert state.discard == [REP_CORVETTES[0]] and fam(state).retired == tuple(REP_FIGHTERS[:3])
    never, _ = faction_game(
        current=RED, hands={"Red": hand}, options={"faction_reshuffle": "never"}
    )
    never, _ = play(never, Trade(seat=RED, cards=tuple(REP_FIGHTERS[:3])))
    assert never.discard == REP_FIGHTERS[:3]


def test_cw_31_an_eliminated_army_discards_its_cards() -> None:
    """CW-31: the army whose last troop falls is out and discards its cards (nobody takes
    them); its faction plays on."""
    owners = {"saleucami": RED, "jabiim": BLACK, "kessel": ORANGE}
    state, _ = faction_game(
        current=RED,
        phase="attack",
        owners=owners,
        default_owner=BLUE,
        armies={"saleucami": 5, "jabiim": 1},
        dice=[6, 1],
        hands={"Black": FIGHTERS[15:17]},
    )
    state, events = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=1))
    assert [type(e) for e in events if isinstance(e, HandDiscarded | PlayerEliminated)] == [
        HandDiscarded,
        PlayerEliminated,
    ]
    assert state.players[BLACK].eliminated and not state.players[BLACK].hand
    assert state.players[RED].hand == [] and set(FIGHTERS[15:17]) <= set(state.discard)
    assert state.phase != "over"


def test_cw_32_capturing_palpatine_wins_at_once() -> None:
    """CW-32/41: the Republic conquers Palpatine's planet and wins immediately."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        dice=[6, 1],  # the attacker's d6, then Palpatine's d8 (CW-28)
        family={"order66": True, "palpatine": "jabiim"},
        **two_planets(d=1),
    )
    state, events = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=1))
    won = next(e for e in events if isinstance(e, FactionWon))
    assert won.faction == "republic" and won.reason == "palpatine"
    assert state.phase == "over" and isinstance(events[-1], GameWon | rc.model.SeedRevealed)


def test_cw_41_a_faction_wins_when_the_other_is_out() -> None:
    """CW-41: the Separatists win when both Republic armies are eliminated: Black takes Red's
    last planet, then Orange's."""
    owners = {"jabiim": BLACK, "saleucami": RED, "boz_pity": ORANGE}
    state, _ = faction_game(
        current=BLACK,
        phase="attack",
        owners=owners,
        default_owner=BLUE,
        armies={"jabiim": 9, "saleucami": 1, "boz_pity": 1},
        dice=[6, 1, 6, 1],
    )
    cmd = Attack(seat=BLACK, origin="jabiim", target="saleucami", dice=1, move=1)
    state, events = play(state, cmd)
    assert state.players[RED].eliminated and state.phase != "over"
    state, events = play(state, Attack(seat=BLACK, origin="jabiim", target="boz_pity", dice=1))
    won = next(e for e in events if isinstance(e, FactionWon))
    assert won.faction == "separatist" and won.seats == (BLACK, BLUE)
    assert state.phase == "over" and state.winner == BLACK


# ============================================================== fortify and command
def test_cw_33_dec_36_fortify_through_the_teammates_planets() -> None:
    """CW-33/DEC-36: troops move along planets of the faction (the teammate's too) to an own
    planet; never through the other faction's; once a turn."""
    owners = {"kashyyyk": RED, "boz_pity": ORANGE, "kessel": RED, "haruun_kal": BLACK}
    armies = {"kashyyyk": 5}
    state, _ = faction_game(current=RED, phase="attack", owners=owners, armies=armies)
    assert rejected(state, Fortify(seat=RED, origin="kashyyyk", target="boz_pity", count=1)) == (
        "not_owner"
    )
    state, _ = play(state, Fortify(seat=RED, origin="kashyyyk", target="kessel", count=2))
    assert rejected(state, Fortify(seat=RED, origin="kashyyyk", target="kessel", count=1)) == (
        "one_per_turn"
    )
    assert rejected(state, Attack(seat=RED, origin="kashyyyk", target="haruun_kal", dice=1)) == (
        "attacks_over"
    )


def test_cw_34_one_ship_move_through_the_faction() -> None:
    """CW-34: one ship, the same way; the turn goes on to the change of command."""
    owners = {"kashyyyk": RED, "boz_pity": ORANGE, "kessel": RED, "saleucami": BLACK}
    state, _ = faction_game(
        current=RED,
        phase="attack",
        owners=owners,
        family={"ships": {"kashyyyk": [1, 0, 1]}},
    )
    state, _ = play(state, MoveShip(seat=RED, origin="kashyyyk", target="kessel", kind="capital"))
    assert fam(state).ships == {"kashyyyk": (1, 0, 0), "kessel": (0, 0, 1)}
    cmd = MoveShip(seat=RED, origin="kashyyyk", target="kessel", kind="fighter")
    assert rejected(state, cmd) == "one_per_turn"
    # The ship moved first: the troops' step (7) is past, and the refusal says so.
    troops = Fortify(seat=RED, origin="kashyyyk", target="kessel", count=1)
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, troops)
    assert refused.value.code == "one_per_turn"
    assert "Troops move before ships" in refused.value.message, refused.value.message


def test_cw_35_change_of_command_by_consent(risk: Run, tmp_path: Path) -> None:
    """CW-35: Red asks Orange for a planet with 1 troop; Orange's player answers with its own
    command (--as Orange); one change a turn."""
    owners = {"kessel": ORANGE, "dagobah": ORANGE}
    armies = {"kessel": 1, "dagobah": 1}
    game = faction_cli_game(
        risk, tmp_path, current=RED, phase="attack", owners=owners, armies=armies
    )
    out(risk, "ask-command", game, "kessel", "--as", "Ann")
    v = out(risk, "show", game)
    assert v["phase"] == "consent" and v["to_act"] == ORANGE
    assert error(risk, "answer-command", game, "yes", "--as", "Ann") == "not_your_turn"
    out(risk, "answer-command", game, "yes", "--as", "orange")
    v = out(risk, "show", game)
    assert v["territories"]["kessel"]["owner"] == RED and v["territories"]["kessel"]["armies"] == 1
    assert error(risk, "ask-command", game, "dagobah") == "one_per_turn"


def test_cw_35_refusal_and_conditions() -> None:
    """CW-35: a refusal ends it (the planet stays); only 1 troop, no ship, token or
    Palpatine; the teammate's planet only."""
    owners = {"kessel": ORANGE, "dagobah": ORANGE, "kashyyyk": ORANGE, "naboo": BLACK}
    armies = {"kessel": 1, "dagobah": 2, "kashyyyk": 1}
    state, _ = faction_game(
        current=RED,
        phase="attack",
        owners=owners,
        armies=armies,
        family={"ships": {"kashyyyk": [1, 0, 0]}},
    )
    assert rejected(state, AskCommand(seat=RED, territory="dagobah")) == "not_transferable"
    assert rejected(state, AskCommand(seat=RED, territory="kashyyyk")) == "not_transferable"
    assert rejected(state, AskCommand(seat=RED, territory="naboo")) == "not_ally"
    state, _ = play(state, AskCommand(seat=RED, territory="kessel"))
    assert rejected(state, EndTurn(seat=RED)) == "not_your_turn"
    state, _ = play(state, AnswerCommand(seat=ORANGE, accept=False))
    assert state.owner[BOARD.index["kessel"]] == ORANGE and state.phase == "attack"
    assert rejected(state, AskCommand(seat=RED, territory="kessel")) == "one_per_turn"


def test_cw_35_a_deadline_never_blocks() -> None:
    """CW-35: the teammate's answer is an ordinary command, so the computer answers it when
    the turn deadline passes (the greedy player consents)."""
    state, _ = faction_game(
        current=RED, phase="attack", owners={"kessel": ORANGE}, armies={"kessel": 1}
    )
    state, _ = play(state, AskCommand(seat=RED, territory="kessel"))
    cmd = rc.bots.choose(state, level="greedy")
    assert cmd == AnswerCommand(seat=ORANGE, accept=True)


# ============================================================== Order 66
def test_cw_37_38_dec_35_order_66_worked_example() -> None:
    """CW-37/38 (002 l.518, the rulebook's example), DEC-35 (a): with Sidious on space 8, a
    5, 6, 7 or 8 converts a Republic planet, troops and ships, to the army the invoker names;
    one d8 per planet in board order; then Palpatine is placed (CW-40)."""
    rep = [IDS[t] for t in range(42) if t % 2 == 0]
    rolls = [5, 4, 8] + [1] * (len(rep) - 3)
    state, _ = faction_game(
        current=BLACK,
        phase="attack",
        dice=rolls,
        family={
            "track": 8,
            "ships": {rep[0]: [1, 0, 0]},
            "tokens": {IDS[1]: ["dooku"]},
            "pile": ["grievous"],
        },
    )
    state, events = play(state, InvokeOrder66(seat=BLACK, receiver="blue"))
    inv = next(e for e in events if isinstance(e, Order66Invoked))
    assert inv.planets == tuple(rep) and inv.converted == (rep[0], rep[2])
    assert inv.receivers == (BLUE, BLUE)
    assert state.owner[BOARD.index[rep[0]]] == BLUE and state.armies[BOARD.index[rep[0]]] == 2
    assert fam(state).ships == {rep[0]: (1, 0, 0)}
    assert fam(state).tokens == {} and fam(state).pile == ()  # CW-39
    assert state.phase == "palpatine"
    assert rejected(state, PlacePalpatine(seat=BLACK, territory=rep[1])) == "not_separatist"
    state, events = play(state, PlacePalpatine(seat=BLACK, territory=rep[0]))
    assert fam(state).palpatine == rep[0] and state.current == ORANGE
    assert rejected(state, InvokeOrder66(seat=ORANGE)) in ("not_separatist", "order66_used")


def test_cw_38_space_7_converts_on_6_to_8() -> None:
    """CW-38/DEC-35 (a): space 7 converts on 6, 7, 8 only."""
    rep = [IDS[t] for t in range(42) if t % 2 == 0]
    state, _ = faction_game(
        current=BLACK, phase="attack", dice=[5, 6] + [1] * 19, family={"track": 7}
    )
    _, events = play(state, InvokeOrder66(seat=BLACK))
    inv = next(e for e in events if isinstance(e, Order66Invoked))
    assert inv.converted == (rep[1],) and inv.receivers == (BLACK,)


def test_cw_37_once_a_game_and_separatists_only() -> None:
    """CW-37/42: never by the Republic, never twice."""
    state, _ = faction_game(current=RED, phase="attack")
    assert rejected(state, InvokeOrder66(seat=RED)) == "not_separatist"
    used, _ = faction_game(current=BLACK, phase="attack", family={"order66": True})
    assert rejected(used, InvokeOrder66(seat=BLACK)) == "order66_used"


def test_cw_38_dec_35_c_ships_beyond_the_limit_are_destroyed() -> None:
    """DEC-35 (c): converted ships beyond the receiver's 3 a class are destroyed; an
    eliminated Separatist army receives nothing (CW-38)."""
    rep = [IDS[t] for t in range(42) if t % 2 == 0]
    blacks = [IDS[t] for t in range(42) if t % 4 == BLACK]
    state, _ = faction_game(
        current=BLACK,
        phase="attack",
        dice=[8] + [1] * 20,
        family={"track": 8, "ships": {rep[0]: [2, 0, 0], blacks[0]: [2, 0, 0]}},
    )
    state, events = play(state, InvokeOrder66(seat=BLACK))
    inv = next(e for e in events if isinstance(e, Order66Invoked))
    assert inv.destroyed == ((1, 0, 0),) and fam(state).ships[rep[0]] == (1, 0, 0)
    blue_out, _ = faction_game(current=BLACK, phase="attack", family={"track": 8})
    blue_out.players[BLUE].eliminated = True
    assert rejected(blue_out, InvokeOrder66(seat=BLACK, receiver="blue")) == "bad_receiver"


@pytest.mark.parametrize(
    ("option", "code"), [("any_space", None), ("numbered_space", "track_too_low")]
)
def test_dec_35_b_invoking_on_a_space_without_numbers(option: str, code: str | None) -> None:
    """DEC-35 (b): Order 66 on space 1 (no numbers) converts nothing (any_space), or is
    refused (numbered_space)."""
    state, _ = faction_game(
        current=BLACK, phase="attack", family={"track": 1}, options={"order66_at": option}
    )
    cmd = InvokeOrder66(seat=BLACK)
    if code is not None:
        assert rejected(state, cmd) == code
        return
    _, events = play(state, cmd)
    assert next(e for e in events if isinstance(e, Order66Invoked)).converted == ()


def test_cw_16_after_order_66_no_token_no_track() -> None:
    """CW-16: after Order 66 steps 1, 2 and 11 no longer apply."""
    state, events = faction_game(
        current=BLACK, family={"order66": True, "track": 5, "pile": ["dooku"]}
    )
    assert state.phase == "reinforce" and fam(state).track == 5
    assert not any(isinstance(e, SidiousAdvanced) for e in events)


def test_cw_order_66_via_the_cli(risk: Run, tmp_path: Path) -> None:
    """CW-37..40 on the command line: order66 --to, then palpatine; the galaxy shows it."""
    game = faction_cli_game(
        risk, tmp_path, players=2, current=BLACK, phase="attack", family={"track": 8}
    )
    assert error(risk, "order66", game, "--planet", f"{IDS[1]}=blue") == "bad_receiver"
    assert error(risk, "order66", game, "--planet", f"{IDS[0]}=red") == "bad_receiver"
    done = out(risk, "order66", game, "--to", "blue", "--planet", f"{IDS[0]}=black", "--as", "Bob")
    inv = next(e for e in done["events"] if e["type"] == "order66_invoked")
    for planet, seat in zip(inv["converted"], inv["receivers"], strict=True):
        assert seat == (BLACK if planet == IDS[0] else BLUE)
    assert error(risk, "order66", game) == "order66_used"
    out(risk, "palpatine", game, IDS[BLACK], "--as", "Bob")
    text = risk("galaxy", game).stdout
    assert "Order 66 has been invoked" in text and BOARD.name(BLACK) in text


# ============================================================== hidden information
def test_tokens_face_down_to_the_republic_and_the_other_army() -> None:
    """CW-17: a token's identity is the placer's alone: the event, the views and the other
    seats' copies show only that a token lies there; the pile's order is nobody's."""
    state, opening = faction_game(current=BLACK, family={"pile": ["dooku", "grievous"]})
    own = IDS[state.owner.index(BLACK)]
    state, events = play(state, PlaceToken(seat=BLACK, territory=own))
    for seat in (RED, BLUE, None):
        shown = visible_events(events, seat)[0]
        assert shown["token"] is None
        v = view(state, seat)
        assert v["territories"][own]["tokens"] == 1
        assert "grievous" not in json.dumps(v)
    assert visible_events(events, BLACK)[0]["token"] == "grievous"
    assert view(state, BLACK)["players"][BLACK]["tokens_placed"] == {own: ["grievous"]}
    full = rc.start(FACTION, ["Ann", "Bob"], seed=4)
    opening_ev = next(e for e in full if isinstance(e, CWOpening))
    assert visible_events([opening_ev], RED)[0]["pile"] == 9


def test_each_army_has_its_own_hand() -> None:
    """CW-07: no sharing of cards: with 4 players Red's player never sees Orange's hand; with
    2 players Ann sees both her armies' hands, never Bob's."""
    hands = {"Red": [REP_FIGHTERS[0]], "Orange": [REP_FIGHTERS[1]], "Black": [FIGHTERS[15]]}
    four, _ = faction_game(current=RED, hands=hands)
    v = view(four, RED)
    assert v["players"][RED]["hand"] and "hand" not in v["players"][ORANGE]
    two, _ = faction_game(players=2, current=RED, hands=hands)
    seats = rc.seats.seats_of(two, "Ann")
    v = view(two, tuple(seats))
    assert v["players"][RED]["hand"] and v["players"][ORANGE]["hand"]
    assert "hand" not in v["players"][BLACK]
    drawn = CWCardDrawn(seat=RED, card=REP_FIGHTERS[2])
    assert visible_events([drawn], BLACK)[0]["card"] is None


# ============================================================== whole games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_to_the_end_with_ships_and_order_66(players: int) -> None:
    """The greedy bots finish a game, building ships and invoking Order 66; replaying the
    events gives the same state (audit)."""
    events = rc.start(FACTION, NAMES[:players], seed=11)
    _, history = self_play(events, level="greedy", seed=3, max_turns=300)
    state = rc.replay(history)
    assert state.phase == "over"
    kinds = {type(e).__name__ for e in history}
    assert {"ShipBuilt", "Order66Invoked", "FactionWon"} <= kinds


def test_demo_finishes(risk: Run) -> None:
    """`risk demo --rules clonewars` plays a whole game."""
    text = risk("demo", "--rules", "clonewars").stdout
    assert "Game id:" in text


def test_rules_show_the_powers_without_effect(risk: Run) -> None:
    """GAP-17: `risk rules clonewars` says which card powers have no effect in the engine."""
    text = risk("rules", "clonewars").stdout
    assert "no effect in the engine" in text and "card_powers" in text


def test_cw_odds_exact(risk: Run) -> None:
    """Exact expected losses with ships (CW-25..28); `risk odds` names the verb for the mixes
    CORE's dice cannot express."""
    data = out(risk, "cw-odds", "1", "1")
    assert data["attacker_losses"] == "7/12"  # plain d6: 21/36 ties and lower
    data = out(risk, "cw-odds", "1", "1", "--capitals", "1")
    assert data["attack"]["capital"] == 1 and data["attacker_losses"] == "7/16"
    assert error(risk, "cw-odds", "4", "1") == "too_many_dice"


def test_stats_use_the_exact_odds_of_each_mix(risk: Run, tmp_path: Path) -> None:
    """`risk stats`: each battle's expected losses are the exact ones of the dice thrown,
    ships included (1 d8 against 1 d6: the attacker loses 7/16 on average)."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        family={"ships": {"saleucami": [0, 0, 1]}},
        **two_planets(a=2, d=1),
    )
    out(risk, "attack", game, "saleucami", "jabiim", "--dice", "1")
    report = out(risk, "stats", game)
    assert report["battles"] == 1
    assert report["seats"][RED]["expected_losses"] == pytest.approx(7 / 16)
    assert report["seats"][BLACK]["expected_losses"] == pytest.approx(9 / 16)


def test_odds_name_the_clone_wars_verb(risk: Run, tmp_path: Path) -> None:
    """`risk odds GAME` is exact where CORE's dice say it (no ship, corvettes, all d8) and
    names `cw-odds` for fighters or a d8/d6 mix (`cw_odds`)."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        family={"ships": {"saleucami": [1, 0, 0], "jabiim": [0, 1, 0]}},
        **two_planets(),
    )
    assert error(risk, "odds", game, "saleucami", "jabiim") == "cw_odds"
    plain = faction_cli_game(risk, tmp_path, current=RED, phase="attack", **two_planets())
    data = out(risk, "odds", plain, "saleucami", "jabiim")
    assert data["battle"]["attack_dice"] == 3


def test_show_lists_ships_track_tokens_and_hands(risk: Run, tmp_path: Path) -> None:
    """`risk show`: ships per planet, the track, tokens face down (a count, never which),
    captured tokens, each army's hand size; `--as` takes a player or an army."""
    game = faction_cli_game(
        risk,
        tmp_path,
        players=2,
        current=RED,
        hands={"Red": [REP_FIGHTERS[0]], "Black": [FIGHTERS[15]]},
        family={
            "ships": {"saleucami": [1, 0, 2]},
            "tokens": {IDS[1]: ["dooku"]},
            "placed_by": {"dooku": BLACK},
            "captured": [["rune_haako"], [], [], []],
            "track": 6,
        },
    )
    text = risk("show", game).stdout
    assert "Sidious on space 6" in text and "1 fighter, 2 capitals" in text
    assert f"{BOARD.name(1)} ×1" in text and "dooku" not in text.lower()
    assert "Rune Haako" in text
    v = out(risk, "show", game, "--as", "black")
    assert v["players"][BLACK]["tokens_placed"] == {IDS[1]: ["dooku"]}
    assert [p["cards"] for p in v["players"]] == [1, 1, 0, 0]
    ann = out(risk, "show", game, "--as", "Ann")
    assert "hand" in ann["players"][RED] and "hand" not in ann["players"][BLACK]
    assert "tokens_placed" not in ann["players"][BLACK]
    assert "dooku" not in risk("log", game, "--as", "Ann").stdout.lower()


def test_build_ship_and_move_ship_via_the_cli(risk: Run, tmp_path: Path) -> None:
    """CW-22/34 on the command line, with a named error for a refused move."""
    game = faction_cli_game(risk, tmp_path, current=RED, hands={"Red": [REP_CAPITALS[0]]})
    mine = [IDS[t] for t in range(42) if t % 4 == RED]
    out(risk, "build-ship", game, str(REP_CAPITALS[0]), mine[0])
    assert error(risk, "build-ship", game, "x", mine[0]) == "not_in_hand"
    v = out(risk, "show", game)
    assert v["territories"][mine[0]]["ships"]["capital"] == 1
    assert error(risk, "move-ship", game, mine[0], mine[1], "capital") == "wrong_phase"


def test_cw_43_the_defender_chooses_its_dice() -> None:
    """CW-43: the defender decides how many troops defend (a seat that answers itself); its
    ships support whatever it throws (CW-25)."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        family={"ships": {"jabiim": [0, 0, 2]}},
        **two_planets(),
    )
    state.players[BLACK].policy = "ask"
    state, _ = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=3))
    assert state.phase == "defend" and rc.to_act(state) == BLACK
    state, events = play(state, rc.model.Defend(seat=BLACK, dice=1))
    support = next(e for e in events if isinstance(e, ShipSupport))
    assert support.defence.troops == 1 and support.defence.capital == 1


def test_cw_03_troops_are_counted_not_pieces() -> None:
    """CW-03: clone troopers and tanks (1 and 3 troops) are display only: the engine counts
    troops, shown per planet."""
    state, _ = faction_game(current=RED, armies={"kamino": 7})
    assert view(state, None)["territories"]["kamino"]["armies"] == 7


def test_gap_17_the_option_text_matches_the_power_data() -> None:
    """GAP-17: what `risk rules clonewars` says of the powers is what powers.json holds:
    every entry unverified with its reasoning; the Anakin cards' +2 troops; 54 without effect."""
    rs = rc.ruleset_of(faction_game()[0])
    working = sorted(c for c, p in rs.powers.items() if p.effect != "none")
    assert working == sorted(rs.anakin) == [0, 1, 2, 30, 31, 32]
    assert all(not p.verified and p.note for p in rs.powers.values())
    assert sorted(rs.powers) == list(range(60))
    doc = rs.options["card_powers"].doc
    assert "0, 1, 2, 30, 31, 32" in doc and "54" in doc


def test_audit_export_import_and_branch(risk: Run, tmp_path: Path) -> None:
    """A whole bot game is audited byte for byte, exported and imported, and branched."""
    risk("new", "--rules", FACTION, "--players", "Ann,Bob,Cy", "--seed", "9", "--id", "g")
    risk("bot", "g", "--all")
    assert "events reproduced byte for byte" in risk("audit", "g").stdout
    path = tmp_path / "g.json"
    risk("export", "g", "-o", str(path))
    risk("import", str(path), "--id", "g2")
    assert out(risk, "show", "g2")["winner"] == out(risk, "show", "g")["winner"]
    risk("branch", "g", "--at", "200", "--id", "g3")
    risk("bot", "g3", "--all")
    assert out(risk, "show", "g3")["phase"] == "over"


def test_cw_30_38_messages_name_tokens_and_planets(risk: Run) -> None:
    """CW-30: the log names captured tokens face up as `risk show` does (leader, red dots),
    not by their ids; CW-38: a planet Order 66 cannot take is named, not given by its id;
    `risk cw-odds` of one die says '1 die'."""
    captured = {"type": "tokens_captured", "seat": RED, "territory": "jabiim"}
    assert log_line({**captured, "tokens": ["dooku", "rune_haako"]}) == (
        "Ann captures the tokens of Jabiim: Count Dooku (2 red dots), Rune Haako (1 red dot)."
    )
    owners = {"saleucami": BLACK, "kessel": RED}
    state, _ = faction_game(current=BLACK, phase="attack", owners=owners, family={"track": 8})
    cmd = InvokeOrder66(seat=BLACK, receivers={"saleucami": "blue"})
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(state, cmd)
    assert refused.value.code == "bad_receiver"
    assert refused.value.message.startswith("Saleucami is no Republic planet")
    assert "(1 die against 2)" in risk("cw-odds", "1", "2").stdout
