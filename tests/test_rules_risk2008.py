"""R08-* rules shared by every Risk 2008 game (rulebook 003, catalogue §6.1), on the Training game.

Worked examples of rulebook 003 are played through the CLI from scenario files; the other rules
are set up from the same scenario documents in-process (``tests.risk2008_kit``).
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

import risk_core as rc
from risk_core.model import (
    Attack,
    CardDrawn,
    EndTurn,
    Fortify,
    GameState,
    GameWon,
    Place,
    Trade,
    TurnStarted,
)
from risk_core.rulesets.risk2008 import r08
from risk_core.rulesets.risk2008_state import MissionTaken, PlaceCapital, TakeMission
from risk_core.views import view, visible_event
from tests.gamekit import play, rejected
from tests.risk2008_kit import (
    BOARD,
    IDS,
    ONE_STAR,
    TWO_STARS,
    Run,
    claimable,
    cli_game,
    doc,
    engine_game,
    error,
    members,
    out,
)

CAPITALS = {"Ann": "alaska", "Bob": "china", "Cy": "japan"}
NO_MISSIONS_FAMILY = {"capitals": CAPITALS, "missions": ["control_asia", "control_8_cities"]}


def card(tid: str) -> int:
    return BOARD.index[tid]  # card i is territory i's


def income_of(events: list[rc.Event]) -> int:
    started = [e for e in events if isinstance(e, TurnStarted)]
    return started[-1].income


def mine(territories: list[str], seat: int = 0) -> dict[str, int]:
    return dict.fromkeys(territories, seat)


def conquer(state: GameState, origin: str, target: str) -> GameState:
    """One scripted battle (6 against 1) taking ``target``, everything but 1 moving in."""
    state, _ = play(state, Attack(seat=0, origin=origin, target=target, dice=1, move=10**6))
    return state


# --------------------------------------------------------------------------- R08-05
def test_r08_05_three_to_five_players(risk: Run) -> None:
    """R08-05: 3 to 5 players; 2 or 6 are refused (bad_players)."""
    for players in ("Ann,Bob", "A,B,C,D,E,F"):
        assert error(risk, "new", "--rules", "risk2008-training", "--players", players) == (
            "bad_players"
        )
    risk("new", "--rules", "risk2008-training", "--players", "A,B,C,D,E", "--seed", "1")


# --------------------------------------------------------------------------- R08-06, R08-07, R08-09
INCOME_EXAMPLES = [
    # 003 l.312: green holds 13 territories and cities: 4 (+1 for its capital)
    (
        [
            "alaska",
            "alberta",
            "western_united_states",
            "ontario",
            "eastern_united_states",
            "venezuela",
            "peru",
            "iceland",
            "scandinavia",
            "ural",
        ],
        4 + 1,
    ),
    # 003 l.314: blue holds 5 territories, no city: the minimum of 3 (+1 capital)
    (["alaska", "alberta", "venezuela", "peru", "iceland"], 3 + 1),
    # 003 l.296: Africa is worth 3 (7 territories, 2 cities: 3; +1 capital)
    (["alaska", *members("africa")], 3 + 3 + 1),
    # 003 l.318: red holds Oceania: +2 (4 territories, 1 city: 3; +1 capital)
    (["alaska", *members("australia")], 3 + 2 + 1),
    # 003 l.320: yellow holds Europe and Africa: +8 (14 territories, 7 cities: 7; +1 capital)
    (["alaska", *members("europe"), *members("africa")], 7 + 8 + 1),
]


@pytest.mark.parametrize(("held", "income"), INCOME_EXAMPLES)
def test_r08_09_income_worked_examples(held: list[str], income: int) -> None:
    """R08-09 (003 l.290-326): (territories + cities) // 3, at least 3; continents; capitals."""
    state, events = engine_game(
        owners={**mine(held), "japan": 2}, default_owner=1, family={"capitals": CAPITALS}
    )
    assert income_of(events) == income == state.reserve


def test_r08_06_r08_07_cities_and_every_capital_held_count(risk: Run, tmp_path: Path) -> None:
    """R08-06: a city counts as a territory for income; R08-07, R08-09: +1 per capital held, an
    enemy's included (Ann holds her own and Bob's)."""
    held = [
        "alaska",
        "alberta",
        "western_united_states",
        "ontario",
        "eastern_united_states",
        "china",
    ]  # 6 territories + 4 cities = 10 -> 3; + 2 capitals
    game = cli_game(
        risk,
        tmp_path,
        owners={**mine(held), "japan": 2},
        default_owner=1,
        family={"capitals": {"Ann": "alaska", "Bob": "china", "Cy": "japan"}},
    )
    shown = out(risk, "show", game)
    assert shown["reserve"] == 3 + 2
    assert shown["territories"]["china"] == {"owner": 0, "armies": 2, "city": True, "capital_of": 1}


def test_r08_show_text_lists_cities_capitals_and_face_up_missions(
    risk: Run, tmp_path: Path
) -> None:
    """R08-06/R08-07/R08-14 in `risk show`'s text (the family's SHOW_LINES): the cities with
    their holders, the capitals, the face-up missions with their rewards; a spectator's show
    has no hand line."""
    game = cli_game(
        risk,
        tmp_path,
        owners={**mine(["alaska", "china"]), "japan": 2},
        default_owner=1,
        family={"capitals": CAPITALS},
    )
    shown = risk("show", game).stdout
    assert "Cities (15): " in shown and "Japan (Cy)" in shown
    assert "Capitals: " in shown and "China (Bob's, held by Ann)" in shown
    missions = out(risk, "show", game)["missions"]
    assert missions and all(f"  {m['id']}" in shown for m in missions)
    assert "hand:" not in shown


def test_r08_07_a_conquered_capital_stays_and_pays_its_new_holder() -> None:
    """R08-07/R08-12: conquering a capital moves nothing; the conqueror gets its regiment."""
    state, _ = engine_game(
        owners={"kamchatka": 0, "alaska": 0, "ural": 2},
        armies={"kamchatka": 9, "japan": 1},
        default_owner=1,
        phase="attack",
        dice=[6, 1],
        family={"capitals": {"Ann": "alaska", "Bob": "japan", "Cy": "ural"}, "missions": []},
    )
    state = conquer(state, "kamchatka", "japan")
    assert r08(state).capitals == ("alaska", "japan", "ural")
    assert state.owner[BOARD.index["japan"]] == 0
    count, base, _ = rc.ruleset_of(state).income(state, 0)
    assert (count, base) == (3, 3 + 2)  # 3 territories, 1 city: 3; Ann's and Bob's capitals


# --------------------------------------------------------------------------- R08-10
def test_r08_10_star_trade_worked_example(risk: Run, tmp_path: Path) -> None:
    """R08-10 (003 l.337): 3 cards showing 4 stars in all are worth 7 regiments."""
    hand = [ONE_STAR[0], ONE_STAR[1], TWO_STARS[0]]
    game = cli_game(risk, tmp_path, hands={"Ann": hand})
    before = out(risk, "show", game)["reserve"]
    moved = out(risk, "trade-stars", game, *hand, "--as", "Ann")
    assert moved["events"][0]["type"] == "cards_traded" and moved["events"][0]["value"] == 7
    assert out(risk, "show", game)["reserve"] == before + 7
    assert out(risk, "hq", game, "--as", "Ann")["players"][0]["hand_stars"] == 0


def test_r08_10_risk_moves_names_the_verb_of_a_star_trade(risk: Run, tmp_path: Path) -> None:
    """R08-10: `risk moves` lists a star trade under `trade-stars`, which takes it; it listed a
    one-card trade (2 stars) as `trade:`, and `risk trade` takes three cards."""
    game = cli_game(risk, tmp_path, hands={"Ann": [TWO_STARS[0]]})
    listed = risk("moves", game, "--as", "Ann").stdout.splitlines()
    trades = [line.strip() for line in listed if "star" in line and ": " in line]
    assert trades == [f"trade-stars: {BOARD.card_label(card(TWO_STARS[0]))}"]
    verb = trades[0].split(":")[0]
    moved = out(risk, verb, game, TWO_STARS[0], "--as", "Ann")
    assert moved["events"][0]["type"] == "cards_traded" and moved["events"][0]["value"] == 2


def test_r08_10_a_one_card_trade_in_the_turn_summary(risk: Run, tmp_path: Path) -> None:
    """R08-10: a trade of one card (2 stars) is "1 card" in `risk replay --by turn`, where it
    said "1 cards"."""
    game = cli_game(risk, tmp_path, hands={"Ann": [TWO_STARS[0]]})
    risk("trade-stars", game, TWO_STARS[0], "--as", "Ann")
    summary = risk("replay", game, "--by", "turn").stdout
    assert "Ann traded 1 card for 2" in summary, summary


def test_r08_10_table_and_star_limits() -> None:
    """R08-10/R08-19: every total 2..10 gets the table's value; 1 star or 11 stars are refused
    (bad_star_count); the cards' territories do not matter."""
    table = {2: 2, 3: 4, 4: 7, 5: 10, 6: 13, 7: 17, 8: 21, 9: 25, 10: 30}
    state, _ = engine_game(hands={"Ann": [*TWO_STARS[:5], *ONE_STAR[:2]]})
    rs = rc.ruleset_of(state)
    for total, value in table.items():
        twos, ones = divmod(total, 2)
        cards = [card(t) for t in TWO_STARS[:twos]] + [card(t) for t in ONE_STAR[:ones]]
        assert rs.set_value(state, cards) == value
    assert rejected(state, Trade(seat=0, cards=(card(ONE_STAR[0]),))) == "bad_star_count"
    eleven = (*[card(t) for t in TWO_STARS[:5]], card(ONE_STAR[0]))
    assert rejected(state, Trade(seat=0, cards=eleven)) == "bad_star_count"


def test_r08_10_no_forced_trade_and_only_while_reinforcing() -> None:
    """R08-10/DEC-38: a big hand need not trade; trades wait for the reinforcement phase."""
    hand = ONE_STAR[:7]
    state, _ = engine_game(hands={"Ann": hand})
    state, _ = play(state, Place(seat=0, territory=IDS[0], count=state.reserve))
    assert state.phase == "attack"
    assert rejected(state, Trade(seat=0, cards=(card(hand[0]), card(hand[1])))) == "wrong_phase"


# --------------------------------------------------------------------------- R08-11, R08-12
def test_r08_11_attack_worked_examples(risk: Run, tmp_path: Path) -> None:
    """R08-11 (003 l.364-368): 3 regiments in North Africa attack with 2 dice at most; 10 in
    East Africa throw 3 against 2: 6 beats 5, the 5-5 tie goes to the defender, the 3 is unused."""
    game = cli_game(
        risk,
        tmp_path,
        owners={"north_africa": 0, "east_africa": 0, "egypt": 1},
        armies={"north_africa": 3, "east_africa": 10, "egypt": 3},
        phase="attack",
        dice=[6, 5, 3, 5, 5],
    )
    assert error(risk, "attack", game, "north_africa", "egypt", "--dice", "3") == "too_many_dice"
    battle = out(risk, "attack", game, "east_africa", "egypt", "--dice", "3")["events"][0]
    assert (battle["attack"], battle["defence"]) == ([6, 5, 3], [5, 5])
    assert (battle["attacker_losses"], battle["defender_losses"]) == (1, 1)
    shown = out(risk, "show", game)["territories"]
    assert (shown["east_africa"]["armies"], shown["egypt"]["armies"]) == (9, 2)


def test_r08_11_sea_lines_are_attack_routes() -> None:
    """R08-11 (003 l.355): Siam attacks Indonesia over the sea line; Siam does not border
    Western Australia (not_adjacent)."""
    state, _ = engine_game(
        owners={"siam": 0, "indonesia": 1, "western_australia": 1},
        armies={"siam": 4},
        phase="attack",
        dice=[6, 6, 6, 1, 1],
    )
    far = Attack(seat=0, origin="siam", target="western_australia", dice=1)
    assert rejected(state, far) == "not_adjacent"
    state, events = play(state, Attack(seat=0, origin="siam", target="indonesia", dice=3))
    assert events[0].defender_losses == 2  # type: ignore[attr-defined]


def test_r08_12_conquest_worked_example(risk: Run, tmp_path: Path) -> None:
    """R08-12 (003 l.393): 3 regiments take Egypt from its 1 defender and move in, then 5 more;
    1 stays in East Africa; Egypt's city and Bob's capital there stay put."""
    game = cli_game(
        risk,
        tmp_path,
        owners={"east_africa": 0, "egypt": 1},
        phase="attack",
        armies={"east_africa": 9, "egypt": 1},
        dice=[6, 6, 6, 1],
        family={"capitals": {"Ann": "alaska", "Bob": "egypt", "Cy": "japan"}},
    )
    out(risk, "attack", game, "east_africa", "egypt", "--dice", "3")
    out(risk, "occupy", game, "8")
    egypt = out(risk, "show", game)["territories"]["egypt"]
    assert egypt == {"owner": 0, "armies": 8, "city": True, "capital_of": 1}
    assert out(risk, "show", game)["territories"]["east_africa"]["armies"] == 1


# --------------------------------------------------------------------------- R08-13
def test_r08_13_eliminator_takes_cards_and_completed_missions() -> None:
    """R08-13: Bob's cards and his completed mission go to Ann, who eliminated him."""
    state, _ = engine_game(
        owners={"egypt": 1, "east_africa": 0},
        default_owner=2,
        armies={"east_africa": 9, "egypt": 1},
        phase="attack",
        dice=[6, 1],
        hands={"Bob": [ONE_STAR[0]]},
        family={
            "capitals": {"Ann": "east_africa", "Bob": "egypt", "Cy": "japan"},
            "missions": ["control_asia"],
            "completed": {"Bob": ["control_europe"]},
        },
    )
    state = conquer(state, "east_africa", "egypt")
    assert state.players[1].eliminated
    assert r08(state).completed == (("control_europe",), (), ())
    assert card(ONE_STAR[0]) in state.players[0].hand


# --------------------------------------------------------------------------- R08-14
def mission_game(**kw: object) -> GameState:
    """Ann holds all Europe (control_europe) and two cards, in her attack phase."""
    kw.setdefault("hands", {"Ann": [ONE_STAR[0], TWO_STARS[0]]})
    state, _ = engine_game(
        owners={**mine(members("europe")), "alaska": 0},
        phase="attack",
        family={"capitals": CAPITALS},
        **kw,  # type: ignore[arg-type]
    )
    return state


def test_r08_14_taking_a_mission_costs_a_card_and_leaves_the_board(
    risk: Run, tmp_path: Path
) -> None:
    """R08-14: after attacking, a fulfilled face-up mission is taken by discarding a card; it
    is not replaced; the attacks are over (R08-08)."""
    game = cli_game(
        risk,
        tmp_path,
        owners={**mine(members("europe")), "alaska": 0},
        phase="attack",
        hands={"Ann": [ONE_STAR[0], TWO_STARS[0]]},
        family={"capitals": CAPITALS},
    )
    moved = out(risk, "take-mission", game, "control_europe", TWO_STARS[0], "--as", "Ann")
    taken = moved["events"][0]
    assert taken["type"] == "mission_taken" and taken["card"] == card(TWO_STARS[0])
    hq = out(risk, "hq", game, "--as", "Ann")
    assert "control_europe" not in [m["id"] for m in hq["missions"]]
    assert len(hq["missions"]) == 7
    assert [m["id"] for m in hq["players"][0]["completed"]] == ["control_europe"]
    assert [c["id"] for c in hq["players"][0]["hand"]] == [card(ONE_STAR[0])]
    assert error(risk, "attack", game, "ukraine", "ural") == "attacks_over"
    said = risk("log", game).stdout
    assert "Ann completes 'Control the 7 territories of Europe.', discarding" in said


def test_r08_14_refusals() -> None:
    """R08-14, R08-19: one mission per turn; only face-up ones; only fulfilled ones; a card held."""
    state = mission_game()
    take = TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0]))
    assert rejected(state, TakeMission(seat=0, mission="control_asia", card=take.card)) == (
        "mission_not_met"
    )
    assert rejected(state, TakeMission(seat=0, mission="take_4_cities", card=take.card)) == (
        "mission_not_available"
    )
    assert rejected(state, TakeMission(seat=0, mission="nope", card=take.card)) == (
        "unknown_mission"
    )
    assert rejected(state, TakeMission(seat=0, mission="control_europe", card=99)) == (
        "not_in_hand"
    )
    assert rejected(state, TakeMission(seat=0, mission="control_europe")) == "card_required"
    state, _ = play(state, take)
    again = TakeMission(seat=0, mission="control_8_cities", card=card(TWO_STARS[0]))
    assert rejected(state, again) == "one_mission_per_turn"


def test_r08_14_any_card_may_be_discarded_for_a_mission() -> None:
    """R08-14: the player chooses the card given up for a mission: the legal moves (`risk
    moves`) offer each card of the hand, where they offered the bot's choice only."""
    state = mission_game()
    taken = [c for c in rc.legal_commands(state) if isinstance(c, TakeMission)]
    hand = sorted(set(state.players[0].hand))
    assert len(hand) > 1
    assert {c.card for c in taken if c.mission == "control_europe"} == set(hand)
    for cmd in taken:
        rc.decide(state, cmd)  # each of them accepted


def test_r08_14_dec_40_empty_hand() -> None:
    """DEC-40: with no card in hand a mission cannot be taken; option free: it is taken."""
    state = mission_game(hands={})
    take = TakeMission(seat=0, mission="control_europe")
    assert rejected(state, take) == "no_card_to_discard"
    state = mission_game(hands={}, options={"empty_hand_mission": "free"})
    state, events = play(state, take)
    assert events[0] == MissionTaken(seat=0, mission="control_europe", card=None)


def test_r08_08_the_reorganisation_closes_the_turn() -> None:
    """R08-08: attack, mission, then the reorganisation: it ends the turn, so a fulfilled
    mission must be taken before it."""
    state = mission_game(armies={"ukraine": 5})
    assert "control_europe" in claimable(state)
    state, _ = play(state, Fortify(seat=0, origin="ukraine", target="scandinavia", count=2))
    assert state.current == 1 and r08(state).completed == ((), (), ())


# --------------------------------------------------------------------------- R08-15
def chain_game(
    targets: list[str], start: str, options: dict[str, str] | None = None, **family: object
) -> GameState:
    owners = {start: 0, "japan": 2, **dict.fromkeys(targets, 1)}
    armies = {start: 60, **dict.fromkeys(targets, 1)}
    state, _ = engine_game(
        owners=owners,
        armies=armies,
        default_owner=2,
        phase="attack",
        dice=[6, 1] * len(targets),
        hands={"Ann": [ONE_STAR[0]]},
        options=options,
        family={"capitals": {"Ann": start, "Bob": targets[-1], "Cy": "japan"}, **family},
    )
    origin = start
    for t in targets:
        state = conquer(state, origin, t)
        origin = t
    return state


TEN = [
    "northwest_territory",
    "alberta",
    "western_united_states",
    "central_america",
    "venezuela",
    "peru",
    "brazil",
    "north_africa",
    "egypt",
    "east_africa",
]
FOUR_CITIES = [
    "alberta",
    "western_united_states",
    "eastern_united_states",
    "ontario",
    "greenland",
    "iceland",
    "great_britain",
]


def test_r08_15_take_10_territories_this_turn() -> None:
    """R08-15 major: 10 territories taken this turn; 9 are not enough."""
    nine = chain_game(TEN[:9], "alaska", missions=["take_10_territories"])
    assert claimable(nine) == []
    ten = chain_game(TEN, "alaska", missions=["take_10_territories"])
    assert claimable(ten) == ["take_10_territories"]


def test_r08_15_take_4_cities_this_turn() -> None:
    """R08-15 minor: 4 cities taken this turn (Western and Eastern US, Ontario, Great Britain)."""
    three = chain_game(FOUR_CITIES[:6], "alaska", missions=["take_4_cities"])
    assert claimable(three) == []
    four = chain_game(FOUR_CITIES, "alaska", missions=["take_4_cities"])
    assert claimable(four) == ["take_4_cities"]


def test_r08_15_take_a_continent_this_turn() -> None:
    """R08-15 major: a continent not held at the start of the turn; one held already is not."""
    state = chain_game(["new_guinea"], "indonesia", missions=["take_continent"])
    assert r08(state).start_groups == ()
    held = {**mine(["indonesia", "western_australia", "eastern_australia"])}
    state, _ = engine_game(
        owners={**held, "japan": 2},
        default_owner=1,
        armies={"indonesia": 9, "new_guinea": 1},
        phase="attack",
        dice=[6, 1],
        hands={"Ann": [ONE_STAR[0]]},
        family={
            "capitals": {"Ann": "indonesia", "Bob": "alaska", "Cy": "japan"},
            "missions": ["take_continent"],
        },
    )
    state = conquer(state, "indonesia", "new_guinea")
    assert claimable(state) == ["take_continent"]


STANDING = [
    ("control_europe", {**mine(members("europe"))}, True),
    ("control_north_america", {**mine(members("north_america"))}, True),
    ("control_asia", {**mine(members("asia")[:-1])}, False),
    (
        "control_8_cities",
        mine(
            [
                "western_united_states",
                "ontario",
                "eastern_united_states",
                "brazil",
                "great_britain",
                "northern_europe",
                "western_europe",
                "southern_europe",
            ]
        ),
        True,
    ),
    (
        "control_11_cities",
        mine(
            [
                "western_united_states",
                "ontario",
                "eastern_united_states",
                "brazil",
                "great_britain",
                "northern_europe",
                "western_europe",
                "southern_europe",
                "ukraine",
                "egypt",
            ]
        ),
        False,
    ),
    ("control_enemy_capital", mine(["china"]), True),
    ("control_2_enemy_capitals", mine(["china", "japan"]), True),
    ("control_18_territories", mine(IDS[:18]), True),
    (
        "control_2_continents",
        {**mine(members("australia")), **mine(members("south_america"))},
        True,
    ),
]


@pytest.mark.parametrize(("mission", "held", "met"), STANDING)
def test_r08_15_mission_conditions(mission: str, held: dict[str, int], met: bool) -> None:
    """R08-15: each standing mission's exact condition (DEC-45: Cy's capital counts while Cy
    plays)."""
    cy = next(t for t in IDS if t not in held and t not in ("alaska", "china", "japan"))
    owners = {"alaska": 0, cy: 2, **held}
    state, _ = engine_game(
        owners=owners,
        default_owner=1,
        phase="attack",
        hands={"Ann": [ONE_STAR[0]]},
        family={
            "capitals": {"Ann": "alaska", "Bob": "china", "Cy": "japan"},
            "missions": [mission],
        },
    )
    assert claimable(state) == ([mission] if met else [])


# --------------------------------------------------------------------------- R08-16
def test_r08_16_reorganisation_worked_example(risk: Run, tmp_path: Path) -> None:
    """R08-16 (003 l.570): Indonesia to Ukraine through Siam, India and Afghanistan, all Ann's;
    the move ends the turn."""
    chain = ["indonesia", "siam", "india", "afghanistan", "ukraine"]
    game = cli_game(
        risk,
        tmp_path,
        owners={**mine(chain), "middle_east": 1},
        armies={"indonesia": 6},
        phase="attack",
    )
    moved = out(risk, "fortify", game, "indonesia", "ukraine", "5", "--as", "Ann")
    assert moved["events"][0]["type"] == "fortified" and moved["to_act"] == 1
    shown = out(risk, "show", game)["territories"]
    assert (shown["indonesia"]["armies"], shown["ukraine"]["armies"]) == (1, 7)


def test_r08_16_never_through_enemies_nor_leaving_empty() -> None:
    """R08-16, R08-19: no path through an enemy territory (not_connected); 1 regiment stays."""
    state, _ = engine_game(
        owners={**mine(["indonesia", "siam", "afghanistan", "ukraine"]), "japan": 2},
        default_owner=1,
        armies={"indonesia": 6},
        phase="attack",
    )
    far = Fortify(seat=0, origin="indonesia", target="ukraine", count=1)
    assert rejected(state, far) == "not_connected"
    empty = Fortify(seat=0, origin="indonesia", target="siam", count=6)
    assert rejected(state, empty) == "not_enough_armies"


# --------------------------------------------------------------------------- R08-17
def test_r08_17_one_card_for_invading_none_without() -> None:
    """R08-17: two conquests draw one card; a turn without conquest draws none."""
    state = chain_game(["northwest_territory", "alberta"], "alaska", missions=[])
    _, events = play(state, EndTurn(seat=0))
    assert sum(isinstance(e, CardDrawn) for e in events) == 1
    quiet, _ = engine_game(phase="attack")
    _, events = play(quiet, EndTurn(seat=0))
    assert not any(isinstance(e, CardDrawn) for e in events)


def test_r08_17_dec_39_no_card_after_taking_an_opponents_missions() -> None:
    """DEC-39 (literal): eliminating Bob, who had completed a mission, draws no card; taking a
    mission from the board does not stop the draw; option mission_taken: it does."""
    state, _ = engine_game(
        owners={"egypt": 1, "east_africa": 0},
        default_owner=2,
        phase="attack",
        dice=[6, 1],
        armies={"east_africa": 9, "egypt": 1},
        family={
            "capitals": {"Ann": "east_africa", "Bob": "egypt", "Cy": "japan"},
            "missions": [],
            "completed": {"Bob": ["control_europe"]},
        },
    )
    state = conquer(state, "east_africa", "egypt")
    _, events = play(state, EndTurn(seat=0))
    assert not any(isinstance(e, CardDrawn) for e in events)
    for option, draws in (("mission_from_opponent", 1), ("mission_taken", 0)):
        state = chain_game(
            TEN, "alaska", {"no_card_after": option}, missions=["take_10_territories"]
        )
        state, _ = play(
            state, TakeMission(seat=0, mission="take_10_territories", card=card(ONE_STAR[0]))
        )
        _, events = play(state, EndTurn(seat=0))
        assert sum(isinstance(e, CardDrawn) for e in events) == draws, option


# --------------------------------------------------------------------------- R08-18
def three_missions(capital_held: bool) -> GameState:
    owners = {
        **mine(members("europe")),
        "alaska": 0 if capital_held else 1,
        "kamchatka": 0,
        "japan": 2,
    }
    state, _ = engine_game(
        owners=owners,
        default_owner=1,
        phase="attack",
        hands={"Ann": [ONE_STAR[0]]},
        family={
            "capitals": CAPITALS,
            "missions": ["control_europe", "control_asia"],
            "completed": {"Ann": ["control_8_cities", "control_18_territories"]},
        },
    )
    state, _ = play(state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0])))
    assert state.phase == "attack"  # no win before the end of the turn
    return state


def test_r08_18_three_missions_and_own_capital_win_at_the_end_of_the_turn() -> None:
    """R08-18: the third mission wins when the turn ends with Ann holding her capital."""
    state, events = play(three_missions(capital_held=True), EndTurn(seat=0))
    assert state.phase == "over" and state.winner == 0
    assert isinstance(events[-1], GameWon) and events[-1].mission == "control_europe"
    # The log names the mission by its text, where it gave the id (control_europe).
    from risk_cli import render
    from risk_cli.families import install_ruleset
    from risk_cli.main import cli

    install_ruleset(cli, "risk2008")
    names = render.Names(BOARD, [{"name": n, "colour": "red"} for n in ("Ann", "Bob", "Cy")])
    line = click.unstyle(render.event_line(visible_event(events[-1], None), names))
    assert line == "Ann wins by completing the mission: Control the 7 territories of Europe."


def test_r08_18_no_win_without_the_own_capital() -> None:
    """R08-18: three missions without the own capital: the game goes on."""
    state, _ = play(three_missions(capital_held=False), EndTurn(seat=0))
    assert state.phase == "reinforce" and state.current == 1


# --------------------------------------------------------------------------- R08-19, R08-20
def test_r08_19_every_forbidden_action_has_its_code() -> None:
    """R08-19: no capital moved or placed again, stars outside 2..10, a second mission, an
    unfulfilled mission, a path through enemies, an empty territory: each refused, no change."""
    state = mission_game(armies={"ukraine": 4})
    assert rejected(state, PlaceCapital(seat=0, territory="ural")) == "capital_placed"
    assert (
        rejected(state, TakeMission(seat=0, mission="control_asia", card=card(ONE_STAR[0])))
        == "mission_not_met"
    )
    assert rejected(state, Fortify(seat=0, origin="ukraine", target="alaska", count=1)) == (
        "not_connected"
    )
    assert rejected(state, Fortify(seat=0, origin="ukraine", target="ural", count=1)) == (
        "not_owner"
    )
    assert (
        rejected(state, Fortify(seat=0, origin="ukraine", target="scandinavia", count=4))
        == "not_enough_armies"
    )


def test_r08_20_the_defender_chooses_the_dice(risk: Run, tmp_path: Path) -> None:
    """R08-20: the defender decides how many dice (1 or 2) when asked (--ask)."""
    path = tmp_path / "ask.json"
    path.write_text(
        json.dumps(
            doc(
                owners={"east_africa": 0, "egypt": 1},
                armies={"east_africa": 5, "egypt": 3},
                phase="attack",
                dice=[6, 6, 6, 1],
            )
        )
    )
    game = out(risk, "new", "--scenario", str(path), "--ask", "Bob")["game_id"]
    assert out(risk, "attack", game, "east_africa", "egypt")["phase"] == "defend"
    battle = out(risk, "defend", game, "1", "--as", "Bob")["events"][0]
    assert (battle["attack"], battle["defence"]) == ([6, 6, 6], [1])


# --------------------------------------------------------------------------- views
def test_views_hide_hands_and_show_missions() -> None:
    """Hidden information: Bob sees Ann's completed missions and card count, not her hand or its
    stars; the face-up missions are public."""
    state = mission_game()
    state, _ = play(state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0])))
    bob = view(state, 1)
    ann = bob["players"][0]
    assert "hand" not in ann and "hand_stars" not in ann and ann["cards"] == 1
    assert [m["id"] for m in ann["completed"]] == ["control_europe"]
    assert len(bob["missions"]) == 7
    assert view(state, 0)["players"][0]["hand_stars"] == 2
