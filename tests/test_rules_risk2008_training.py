"""R08-TR-* (the Training game, rulebook 003 §Entraînement) and the R08 decisions as options."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.model import CardDrawn, GameWon, Trade
from risk_core.rulesets.risk2008 import r08
from risk_core.rulesets.risk2008_state import PlaceAirfield, StrategicMove, TakeMission
from risk_core.views import visible_event
from tests.gamekit import play, rejected
from tests.risk2008_kit import (
    BOARD,
    ONE_STAR,
    TRAINING,
    TWO_STARS,
    Run,
    claimable,
    doc,
    engine_game,
    error,
    members,
    out,
    rules_of,
)

CITIES = [
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
    "south_africa",
    "india",
    "china",
    "japan",
    "eastern_australia",
]


def started(players: int, **kw: object) -> rc.GameState:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    return rc.replay(rc.start(TRAINING, names, seed=11, **kw))  # type: ignore[arg-type]


def test_r08_tr_01_colours_and_order_from_the_training_card(risk: Run) -> None:
    """R08-TR-01: 3 players take yellow, green, blue in turn order; the first seat starts."""
    created = out(risk, "new", "--rules", TRAINING, "--players", "Ann,Bob,Cy", "--seed", "3")
    shown = out(risk, "show", created["game_id"])
    assert [p["colour"] for p in shown["players"]] == ["yellow", "green", "blue"]
    assert shown["current_player"] == 0 and shown["turn"] == 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r08_tr_02_fixed_setup(players: int) -> None:
    """R08-TR-02 (GAP-23): every regiment and capital where the board's preset puts them."""
    state = started(players)
    preset = rules_of(state).setups[players]
    for seat, info in enumerate(preset.seats):
        for tid, count in info.regiments.items():
            t = BOARD.index[tid]
            assert (state.owner[t], state.armies[t]) == (seat, count)
        assert r08(state).capitals[seat] == info.capital
    assert not any(state.setup_left) and state.phase == "reinforce"


def test_r08_tr_03_fixed_missions_without_rewards() -> None:
    """R08-TR-03, R08-TR-06: the 8 Training missions face up, 4 minor and 4 major, no reward
    on any."""
    family = r08(started(3))
    assert family.missions == (
        "control_europe",
        "control_north_america",
        "control_asia",
        "control_8_cities",
        "take_10_territories",
        "control_2_enemy_capitals",
        "control_18_territories",
        "control_2_continents",
    )
    assert family.rewards_on == ("",) * 8


def test_r08_tr_04_fixed_cities() -> None:
    """R08-TR-04: the 15 cities of 003 l.226-244."""
    assert r08(started(4)).cities == tuple(CITIES)


@pytest.mark.parametrize(
    ("players", "cards"), [(3, [0, 0, 1]), (4, [0, 0, 1, 1]), (5, [0, 0, 1, 1, 2])]
)
def test_r08_tr_05_starting_cards(players: int, cards: list[int]) -> None:
    """R08-TR-05: 3 players: blue (last) starts with 1 card; 4-5: as R08-CC-08 (0,0,1,1,2)."""
    state = started(players)
    assert [len(p.hand) for p in state.players] == cards


def test_r08_tr_06_no_rewards_in_training() -> None:
    """R08-TR-06/R08-CC-19: no reward comes with a mission; no reward move is accepted."""
    state, _ = engine_game(
        owners=dict.fromkeys(members("europe"), 0),
        phase="attack",
        hands={"Ann": [ONE_STAR[0]]},
    )
    move = StrategicMove(seat=0, origin="ukraine", target="ural", count=1)
    assert rejected(state, move) == "no_such_reward"
    assert rejected(state, PlaceAirfield(seat=0, territory="ukraine")) == "no_airfield"
    state, events = play(
        state, TakeMission(seat=0, mission="control_europe", card=BOARD.index[ONE_STAR[0]])
    )
    assert events[0].reward == "" and r08(state).rewards[0] == ()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("rewards", {"Bob": ["two_regiments", "bonus_card", "bonus_maneuver"]}),
        ("airfields", ["egypt"]),
        ("rewards_on", ["two_regiments", "", "", "", "", "", "", "", "", ""]),
    ],
)
def test_r08_tr_06_a_training_scenario_takes_no_rewards(
    risk: Run, tmp_path: Path, key: str, value: object
) -> None:
    """R08-TR-06: a Training scenario with rewards held, airfields or reward tokens on its
    missions is refused (bad_scenario) rather than played with rewards the game has not; the
    Command Center game takes the same table."""
    for ruleset, code in ((TRAINING, 1), ("risk2008", 0)):
        missions = rules_of(engine_game(ruleset=ruleset)[0]).default_missions()
        fields = {key: value[: len(missions)] if isinstance(value, list) else value}
        path = tmp_path / f"{ruleset}-{key}.json"
        path.write_text(json.dumps(doc(ruleset=ruleset, family=fields)))
        result = risk("new", "--scenario", str(path), code=code)
        if code:
            said = result.stderr
            assert f"[family.{key}]: rewards are used only in the Command Center" in said, said
            assert "[bad_scenario]" in said


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r08_tr_07_bots_play_to_a_mission_victory(players: int) -> None:
    """R08-TR-07 (R08-18): greedy bots finish Training games, won by three missions and a
    capital (or by elimination of everyone else)."""
    opening = rc.start(TRAINING, [f"P{i}" for i in range(players)], seed=players)
    levels = ("random", *["greedy"] * (players - 1))  # a random player among greedy ones
    _, events = self_play(opening, level=levels, seed=5, max_turns=600)
    won = events[-1] if isinstance(events[-1], GameWon) else events[-2]
    assert isinstance(won, GameWon)
    state = rc.replay(events)
    if won.reason == "mission":
        assert len(r08(state).completed[won.seat]) >= 3
        capital = r08(state).capitals[won.seat]
        assert state.owner[BOARD.index[capital]] == won.seat


def test_demo_finishes(risk: Run) -> None:
    """`risk demo --rules risk2008-training` plays a whole game to a winner."""
    result = risk("demo", "--rules", TRAINING, "--seed", "4")
    assert "wins" in result.stdout or "winner" in result.stdout.lower()


# --------------------------------------------------------------------------- DEC options
EXPECTED = [
    ("DEC-38", "trades_per_turn", "one"),
    ("DEC-39", "no_card_after", "mission_from_opponent"),
    ("DEC-40", "empty_hand_mission", "refused"),
    ("DEC-45", "enemy_capitals", "any_other"),
]


@pytest.mark.parametrize(("dec", "key", "default"), EXPECTED)
def test_each_decision_is_an_option(dec: str, key: str, default: str) -> None:
    """ENG-08: named, documented with its DEC id, defaulted to the recommended reading and
    recorded in game_started."""
    info = next(i for i in rc.rulesets() if i.name == TRAINING)
    assert info.options[key]["default"] == default and dec in info.options[key]["doc"]
    assert rc.start(TRAINING, ["A", "B", "C"], seed=1)[0].options[key] == default  # type: ignore[attr-defined]


def test_dec_38_several_trades_option() -> None:
    """DEC-38: one star trade a turn (one_per_turn); option several allows another."""
    hand = [*ONE_STAR[:2], *TWO_STARS[:2]]
    first = Trade(seat=0, cards=(BOARD.index[hand[0]], BOARD.index[hand[1]]))
    second = Trade(seat=0, cards=(BOARD.index[hand[2]],))
    state, _ = engine_game(hands={"Ann": hand})
    state, _ = play(state, first)
    assert rejected(state, second) == "one_per_turn"
    state, _ = engine_game(hands={"Ann": hand}, options={"trades_per_turn": "several"})
    state, _ = play(state, first)
    state, events = play(state, second)
    assert events[0].value == 2  # type: ignore[attr-defined]


def test_dec_45_enemy_capital_of_an_eliminated_player() -> None:
    """DEC-45: an eliminated player's capital is an enemy capital (any_other); option
    living_players: it is not."""
    for option, met in (("any_other", True), ("living_players", False)):
        state, _ = engine_game(
            owners={"egypt": 1, "east_africa": 0},
            default_owner=2,
            phase="attack",
            dice=[6, 1],
            armies={"east_africa": 9, "egypt": 1},
            hands={"Ann": [ONE_STAR[0]]},
            options={"enemy_capitals": option},
            family={
                "capitals": {"Ann": "east_africa", "Bob": "egypt", "Cy": "japan"},
                "missions": ["control_enemy_capital"],
            },
        )
        state, _ = play(
            state, rc.model.Attack(seat=0, origin="east_africa", target="egypt", dice=1, move=5)
        )
        assert state.players[1].eliminated
        assert (claimable(state) == ["control_enemy_capital"]) is met


def test_starting_cards_are_dealt_from_the_pile() -> None:
    """R08-TR-05: the starting cards are drawn from the top of the pile, hidden from others."""
    events = rc.start(TRAINING, ["A", "B", "C"], seed=2)
    drawn = [e for e in events if isinstance(e, CardDrawn)]
    assert [e.seat for e in drawn] == [2]
    assert visible_event(drawn[0], 0)["card"] is None
    assert visible_event(drawn[0], 2)["card"] == drawn[0].card


def test_scenario_family_table_is_checked(tmp_path: Path, risk: Run) -> None:
    """Scenario files: an unknown [family] key or mission is refused (bad_scenario), and so is
    a city, an airfield or a mission listed twice (R08-09: a city counted twice would pay
    twice)."""
    twice: list[dict[str, list[str]]] = [
        {"cities": ["alaska", "alaska"]},
        {"airfields": ["peru", "peru"]},
    ]
    for family in ({"nonsense": 1}, {"missions": ["no_such_mission"]}, *twice):
        path = tmp_path / f"bad{len(family)}{next(iter(family))}.json"
        path.write_text(json.dumps(doc(family=family)))
        assert error(risk, "new", "--scenario", str(path)) == "bad_scenario"


def test_readme_walkthrough_runs_as_written(risk: Run) -> None:
    """The README's Risk 2008 walkthrough, command by command: every one succeeds, both games
    end with a winner, and the Command Center log tells of missions and rewards."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("The Risk 2008 walkthrough", 1)[1].split("```sh\n", 1)[1]
    for line in block.split("```", 1)[0].splitlines():
        args = shlex.split(line, comments=True)
        if args:
            assert args[0] == "risk", line
            risk(*args[1:])
    assert out(risk, "show", "tr1")["winner"] is not None
    assert out(risk, "show", "hq1")["winner"] is not None
    assert "and wins the reward" in risk("log", "hq1").stdout


def test_trade_stars_is_risk_2008s(risk: Run) -> None:
    """R08-10: `trade-stars` trades by stars, a Risk 2008 rule: another rule set's game is
    `wrong_rules` (its trade is `risk trade`, by its own rules), where it traded a set."""
    created = risk("new", "--rules", "classic", "--players", "A,B,C", "--json")
    game = json.loads(created.stdout)["game_id"]
    assert error(risk, "trade-stars", game, "1", "2", "3") == "wrong_rules"
