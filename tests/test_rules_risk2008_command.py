"""R08-CC-* (Command Center), R08-CQ-* (Conquest) and DEC-41..44 (rulebook 003)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.model import (
    Attack,
    BattleFought,
    CardDrawn,
    DeckFormed,
    EndTurn,
    FirstPlayerChosen,
    Fortify,
    GameState,
    GameWon,
    Place,
)
from risk_core.rulesets.risk2008 import r08
from risk_core.rulesets.risk2008_state import (
    AirfieldPlaced,
    MissionTaken,
    PlaceAirfield,
    PlaceCapital,
    R08BoardSet,
    StrategicMove,
    TakeMission,
)
from tests.gamekit import play, rejected
from tests.risk2008_kit import (
    BOARD,
    ONE_STAR,
    Run,
    cli_game,
    doc,
    engine_game,
    error,
    members,
    out,
)

COMMAND = "risk2008"
CONQUEST = "risk2008-conquest"
CAPITALS = {"Ann": "alaska", "Bob": "china", "Cy": "japan"}


def card(tid: str) -> int:
    return BOARD.index[tid]


def opening(
    players: int = 3, seed: int = 5, ruleset: str = COMMAND, **options: Any
) -> list[rc.Event]:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    return rc.start(ruleset, names, seed=seed, options=options)


def board_set(events: list[rc.Event]) -> R08BoardSet:
    return next(e for e in events if isinstance(e, R08BoardSet))


def cc_game(rewards: dict[str, list[str]] | None = None, **kw: Any) -> GameState:
    """A Command Center position: Ann (seat 0) to act, with ``rewards``."""
    family = {"capitals": CAPITALS, "missions": [], **kw.pop("family", {})}
    if rewards:
        family["rewards"] = rewards
    kw.setdefault("default_owner", 1)
    owners = {"alaska": 0, "japan": 2, **kw.pop("owners", {})}
    state, _ = engine_game(ruleset=kw.pop("ruleset", COMMAND), owners=owners, family=family, **kw)
    return state


# --------------------------------------------------------------------------- setup
def test_r08_cc_01_fifteen_random_cities_and_dec_43() -> None:
    """R08-CC-01/DEC-43: 15 cities drawn at random; all 42 cards then form the pile
    (reshuffle), or the 15 city cards stay out (set_aside: 27 cards)."""
    first, second = board_set(opening(seed=1)), board_set(opening(seed=2))
    assert len(set(first.cities)) == 15 and first.cities != second.cities
    deck = next(e for e in opening(seed=1) if isinstance(e, DeckFormed)).deck
    assert sorted(deck) == list(range(42))
    events = opening(seed=1, city_cards="set_aside")
    deck = next(e for e in events if isinstance(e, DeckFormed)).deck
    cities = {card(t) for t in board_set(events).cities}
    assert len(deck) == 27 and not cities & set(deck)


def test_dec_43_set_aside_in_a_scenario(risk: Run, tmp_path: Path) -> None:
    """DEC-43 (R08-CC-01) in a scenario file's [options]: city_cards=set_aside keeps the
    cities' cards out of the pile, as in a game set up by `risk new --option`; a hand may
    not hold one (bad_scenario).  Conquest from the Training card draws no city card."""
    cities = ["alaska", "brazil", "egypt"]
    aside = {"city_cards": "set_aside"}
    for ruleset in (COMMAND, CONQUEST):
        kept, _ = engine_game(ruleset=ruleset, family={"cities": cities})
        assert sorted(kept.deck) == list(range(42))
        left, _ = engine_game(ruleset=ruleset, family={"cities": cities}, options=aside)
        assert sorted(left.deck) == sorted(set(range(42)) - {card(t) for t in cities})
    training = {**aside, "conquest_setup": "training"}
    assert len(engine_game(ruleset=CONQUEST, options=training)[0].deck) == 42
    assert len(engine_game(ruleset=COMMAND, options=aside)[0].deck) == 27  # Training cities
    document = doc(ruleset=COMMAND, family={"cities": cities}, options=aside)
    document["hands"] = {"Ann": ["brazil"]}
    path = tmp_path / "aside.json"
    path.write_text(json.dumps(document))
    assert error(risk, "new", "--scenario", str(path)) == "bad_scenario"


def test_r08_cc_02_r08_cc_03_four_and_four_missions_with_their_rewards() -> None:
    """R08-CC-02, R08-CC-03 (DEC-43, GAP-24): 4 minor and 4 major missions face up, a small
    reward on each minor one and a supreme one on each major one, every token once."""
    setup = board_set(opening(seed=3))
    missions = {m.id: m for m in BOARD.section("r08_missions")}
    rewards = {r.id: r for r in BOARD.section("r08_rewards")}
    assert [missions[m].kind for m in setup.missions] == ["minor"] * 4 + ["major"] * 4
    assert [rewards[r].kind for r in setup.rewards] == ["small"] * 4 + ["supreme"] * 4
    assert sorted(setup.rewards) == sorted(rewards)


@pytest.mark.parametrize(("players", "regiments"), [(3, 30), (4, 25), (5, 20)])
def test_r08_cc_04_starting_regiments(players: int, regiments: int) -> None:
    """R08-CC-04: 30, 25 or 20 regiments each, every territory empty."""
    state = rc.replay(opening(players))
    assert state.setup_left == [regiments] * players and set(state.owner) == {-1}


def test_r08_cc_05_to_07_capitals_then_claims_then_one_at_a_time() -> None:
    """R08-CC-05: the highest roller places capital and 1 regiment first, then the next seats;
    a claim before every capital is refused (capital_first), as is an occupied territory.
    R08-CC-06, R08-CC-07: then claiming, 1 regiment at a time, from the first player."""
    events = opening()
    state = rc.replay(events)
    first = next(e for e in events if isinstance(e, FirstPlayerChosen)).seat
    assert state.current == first
    assert rejected(state, Place(seat=first, territory="alaska")) == "capital_first"
    state, placed = play(state, PlaceCapital(seat=first, territory="alaska"))
    assert [type(e).__name__ for e in placed] == ["CapitalPlaced", "SetupPlaced"]
    assert state.armies[card("alaska")] == 1 and state.setup_left[first] == 29
    second = (first + 1) % 3
    assert state.current == second
    assert rejected(state, PlaceCapital(seat=second, territory="alaska")) == "already_claimed"
    state, _ = play(state, PlaceCapital(seat=second, territory="japan"))
    state, _ = play(state, PlaceCapital(seat=(first + 2) % 3, territory="brazil"))
    assert state.current == first and r08(state).capitals[first] == "alaska"
    assert rejected(state, PlaceCapital(seat=first, territory="peru")) == "capital_placed"
    assert rejected(state, Place(seat=first, territory="peru", count=2)) == "bad_count"
    state, _ = play(state, Place(seat=first, territory="peru"))
    assert state.owner[card("peru")] == first and state.current == second


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r08_cc_08_order_and_starting_cards(players: int) -> None:
    """R08-CC-08: play starts with the first player; 0, 0, 1, 1, 2 cards by place in order."""
    events = opening(players)
    first = next(e for e in events if isinstance(e, FirstPlayerChosen)).seat
    _, history = self_play(events, level="greedy", seed=1, max_turns=0)
    state = rc.replay(history)
    assert state.turn == 1 and state.current == first
    cards = [len(state.players[(first + k) % players].hand) for k in range(players)]
    assert cards == [0, 0, 1, 1, 2][:players]


def test_command_center_through_the_cli(risk: Run) -> None:
    """R08-CC-05 by command: `risk capital`, then `risk hq` shows the capitals and rewards."""
    created = out(risk, "new", "--rules", COMMAND, "--players", "Ann,Bob,Cy", "--seed", "9")
    game = created["game_id"]
    seat = out(risk, "show", game)["to_act"]
    assert error(risk, "place", game, "alaska") == "capital_first"
    out(risk, "capital", game, "alaska")
    hq = out(risk, "hq", game)
    assert hq["capitals"][seat] == "alaska" and len(hq["missions"]) == 8
    assert all("reward" in m for m in hq["missions"])
    assert "Capitals: Alaska" in risk("hq", game).stdout
    assert "places their capital in Alaska." in risk("log", game).stdout


# --------------------------------------------------------------------------- rewards
def europe_mission(reward: str, **kw: Any) -> GameState:
    kw.setdefault("hands", {"Ann": [ONE_STAR[0]]})
    return cc_game(
        owners=dict.fromkeys(members("europe"), 0),
        phase="attack",
        family={"missions": ["control_europe"], "rewards_on": [reward]},
        **kw,
    )


def test_r08_cc_09_a_mission_brings_its_reward() -> None:
    """R08-CC-09: completing a mission also gives the reward lying on it."""
    state = europe_mission("bonus_card")
    state, events = play(
        state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0]))
    )
    assert events[0] == MissionTaken(
        seat=0, mission="control_europe", card=card(ONE_STAR[0]), reward="bonus_card"
    )
    assert r08(state).rewards[0] == ("bonus_card",) and r08(state).missions == ()


def test_r08_cc_09_rewards_leave_with_an_eliminated_player() -> None:
    """R08-CC-09, R08-CC-13, R08-CC-19: the eliminator takes missions, never rewards."""
    state = cc_game(
        owners={"egypt": 1, "east_africa": 0},
        default_owner=2,
        armies={"east_africa": 9, "egypt": 1},
        phase="attack",
        dice=[6, 1],
        family={
            "capitals": {"Ann": "east_africa", "Bob": "egypt", "Cy": "japan"},
            "completed": {"Bob": ["control_asia"]},
        },
        rewards={"Bob": ["two_regiments"]},
    )
    state, _ = play(state, Attack(seat=0, origin="east_africa", target="egypt", dice=1, move=3))
    assert r08(state).rewards == ((), (), ()) and r08(state).completed[0] == ("control_asia",)


def test_r08_cc_10_airfield_placed_at_once_on_an_own_territory() -> None:
    """R08-CC-10, R08-CC-19: an airfield reward is placed at once, on a territory you control."""
    state = europe_mission("small_airfield")
    state, _ = play(state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0])))
    assert state.phase == "airfield"
    assert rejected(state, EndTurn(seat=0)) == "wrong_phase"
    assert rejected(state, PlaceAirfield(seat=0, territory="china")) == "not_owner"
    state, events = play(state, PlaceAirfield(seat=0, territory="ukraine"))
    assert events == [AirfieldPlaced(seat=0, territory="ukraine")]
    assert state.phase == "attack" and r08(state).airfields == ("ukraine",)


def airfield_battle(airfields: list[str], attacker: str, target: str, **kw: Any) -> BattleFought:
    """One battle of Ann from ``attacker`` to ``target``: Ann holds airfields."""
    state = cc_game(
        owners={"ukraine": 0, "ural": 0, "afghanistan": 0, "middle_east": 0},
        armies={"ukraine": 9, "ural": 5},
        phase="attack",
        dice=[6, 2, 1, 6, 1],
        family={"airfields": airfields},
        **kw,
    )
    _, events = play(state, Attack(seat=0, origin=attacker, target=target, dice=3))
    battle = events[0]
    assert isinstance(battle, BattleFought)
    return battle


def test_r08_cc_10_airfield_adds_one_to_the_best_die_next_to_it() -> None:
    """R08-CC-10 (DEC-41 attacked): Ann's airfield in Ural helps her attack on Siberia next to
    it: her 6 becomes 7 and beats Bob's 6; two airfields still give +1."""
    plain = airfield_battle([], "ural", "siberia")
    assert plain.attack == (6, 2, 1) and plain.defence == (6, 1)
    assert (plain.attacker_losses, plain.defender_losses) == (1, 1)
    helped = airfield_battle(["ural"], "ural", "siberia")
    assert helped.attack == (7, 2, 1)
    assert (helped.attacker_losses, helped.defender_losses) == (0, 2)
    twice = airfield_battle(["ural", "afghanistan"], "ural", "siberia")
    assert twice.attack == (7, 2, 1)


def test_dec_41_airfield_scope() -> None:
    """DEC-41: an airfield next to the attacking territory only (not the attacked one) helps
    with option either, not by default."""
    assert airfield_battle(["middle_east"], "ukraine", "scandinavia").attack == (6, 2, 1)
    wide = airfield_battle(
        ["middle_east"], "ukraine", "scandinavia", options={"airfield_scope": "either"}
    )
    assert wide.attack == (7, 2, 1)


def test_r08_cc_10_airfield_helps_the_defence_and_falls_with_its_territory() -> None:
    """R08-CC-10: Bob's airfield in Siberia defends it (+1 on his best die); when Siberia falls
    the airfield is destroyed."""
    state = cc_game(
        owners={"ural": 0},
        armies={"ural": 9, "siberia": 1},
        phase="attack",
        dice=[6, 6, 6, 5, 6, 1],
        family={"airfields": ["siberia"]},
    )
    state, events = play(state, Attack(seat=0, origin="ural", target="siberia", dice=3))
    assert events[0].defence == (6,) and events[0].attacker_losses == 1  # type: ignore[attr-defined]
    state, events = play(state, Attack(seat=0, origin="ural", target="siberia", dice=3, move=2))
    assert state.owner[card("siberia")] == 0 and r08(state).airfields == ()


def test_r08_cc_11_strategic_maneuver_before_the_first_attack() -> None:
    """R08-CC-11, R08-CC-19: one extra reorganisation after placing, before the first attack; not
    twice, not after a battle, not without the reward."""
    kw: dict[str, Any] = {
        "owners": {"ukraine": 0, "ural": 0, "afghanistan": 0},
        "armies": {"ukraine": 9},
        "phase": "attack",
        "dice": [6, 6, 6, 1, 1],
    }
    move = StrategicMove(seat=0, origin="ukraine", target="afghanistan", count=2)
    assert rejected(cc_game(**kw), move) == "no_such_reward"
    state = cc_game(rewards={"Ann": ["strategic_maneuver"]}, **kw)
    state, _ = play(state, move)
    assert state.armies[card("afghanistan")] == 4 and state.current == 0
    assert rejected(state, move) == "reward_used"
    state = cc_game(rewards={"Ann": ["strategic_maneuver"]}, **kw)
    state, _ = play(state, Attack(seat=0, origin="ukraine", target="scandinavia", dice=3))
    assert rejected(state, move) == "wrong_phase"


def test_r08_cc_12_bonus_maneuver_a_second_reorganisation() -> None:
    """R08-CC-12: with the Bonus Maneuver the first reorganisation does not end the turn."""
    kw: dict[str, Any] = {
        "owners": {"ukraine": 0, "ural": 0, "afghanistan": 0},
        "armies": {"ukraine": 9},
        "phase": "attack",
    }
    first = Fortify(seat=0, origin="ukraine", target="ural", count=2)
    state, _ = play(cc_game(**kw), first)
    assert state.current == 1
    state, _ = play(cc_game(rewards={"Ann": ["bonus_maneuver"]}, **kw), first)
    assert state.current == 0
    assert rejected(state, Attack(seat=0, origin="ukraine", target="scandinavia")) == (
        "attacks_over"
    )
    state, _ = play(state, Fortify(seat=0, origin="ukraine", target="afghanistan", count=2))
    assert state.current == 1


@pytest.mark.parametrize(
    ("option", "conquered", "cards"),
    [("additional", False, 1), ("additional", True, 2), ("instead", True, 1)],
)
def test_r08_cc_13_bonus_card_and_dec_42(option: str, conquered: bool, cards: int) -> None:
    """R08-CC-13/DEC-42: the Bonus Card draws a card every turn, in addition to the conquest
    card (additional), or one card in all (instead)."""
    state = cc_game(
        rewards={"Ann": ["bonus_card"]},
        owners={"ural": 0},
        armies={"ural": 9, "siberia": 1},
        phase="attack",
        dice=[6, 1],
        options={"bonus_card": option},
    )
    if conquered:
        state, _ = play(state, Attack(seat=0, origin="ural", target="siberia", dice=1, move=1))
    _, events = play(state, EndTurn(seat=0))
    assert sum(isinstance(e, CardDrawn) for e in events) == cards


def test_r08_cc_14_r08_cc_17_bonus_attack_die_keeps_the_best_then_airfield() -> None:
    """R08-CC-14, R08-CC-17: 3 dice and the bonus die, the best 3 kept (1 dropped), then the
    airfield's +1 on the highest: 1, 2, 6, 3 -> 7, 3, 2 (R08-CC-17's order)."""
    state = cc_game(
        rewards={"Ann": ["bonus_attack_die"]},
        owners={"ural": 0},
        armies={"ural": 9},
        phase="attack",
        dice=[1, 2, 6, 3, 6, 5],
        family={"airfields": ["ural"]},
    )
    _, events = play(state, Attack(seat=0, origin="ural", target="siberia", dice=3))
    battle = events[0]
    assert isinstance(battle, BattleFought)
    assert battle.attack_natural == (1, 2, 6, 3) and battle.attack == (7, 3, 2)
    assert battle.defence == (6, 5)  # 7 beats 6, 3 loses to 5
    assert (battle.attacker_losses, battle.defender_losses) == (1, 1)


def test_r08_cc_15_bonus_defence_die() -> None:
    """R08-CC-15: Bob defends with 2 dice and the bonus die, the best 2 kept."""
    state = cc_game(
        rewards={"Bob": ["bonus_defence_die"]},
        owners={"ural": 0},
        armies={"ural": 9},
        phase="attack",
        dice=[5, 5, 5, 1, 6, 2],
    )
    _, events = play(state, Attack(seat=0, origin="ural", target="siberia", dice=3))
    battle = events[0]
    assert isinstance(battle, BattleFought)
    assert battle.defence_natural == (1, 6, 2) and battle.defence == (6, 2)


def test_r08_cc_16_two_regiments_each_turn() -> None:
    """R08-CC-16: +2 regiments at each of the holder's turns."""
    plain, with_reward = cc_game(), cc_game(rewards={"Ann": ["two_regiments"]})
    assert with_reward.reserve == plain.reserve + 2


def test_r08_cc_18_goal() -> None:
    """R08-CC-18 (R08-18): 3 missions and the own capital at the end of the turn win."""
    state = cc_game(
        owners={**dict.fromkeys(members("europe"), 0)},
        phase="attack",
        hands={"Ann": [ONE_STAR[0]]},
        family={
            "missions": ["control_europe"],
            "rewards_on": ["bonus_card"],
            "completed": {"Ann": ["control_asia", "take_continent"]},
        },
    )
    state, _ = play(state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0])))
    state, events = play(state, EndTurn(seat=0))
    assert isinstance(events[-1], GameWon) and state.winner == 0


# --------------------------------------------------------------------------- conquest
def test_r08_cq_01_02_missions_and_rewards_but_no_mission_victory() -> None:
    """R08-CQ-01, R08-CQ-02: a third mission (with its reward) does not end a conquest game."""
    state = cc_game(
        ruleset=CONQUEST,
        owners={**dict.fromkeys(members("europe"), 0)},
        phase="attack",
        hands={"Ann": [ONE_STAR[0]]},
        family={
            "missions": ["control_europe"],
            "rewards_on": ["two_regiments"],
            "completed": {"Ann": ["control_asia", "take_continent"]},
        },
    )
    state, _ = play(state, TakeMission(seat=0, mission="control_europe", card=card(ONE_STAR[0])))
    assert r08(state).rewards[0] == ("two_regiments",)
    state, events = play(state, EndTurn(seat=0))
    assert state.phase == "reinforce" and not any(isinstance(e, GameWon) for e in events)


def test_r08_cq_01_holding_every_territory_wins() -> None:
    """R08-CQ-01: the last territory taken wins the conquest game."""
    owners = dict.fromkeys(BOARD.index, 0)
    owners.update({"siberia": 1, "japan": 2})
    state, _ = engine_game(
        ruleset=CONQUEST,
        owners=owners,
        armies={"ural": 9, "kamchatka": 9, "siberia": 1, "japan": 1},
        phase="attack",
        dice=[6, 1, 6, 1],
        family={"capitals": {"Ann": "alaska", "Bob": "siberia", "Cy": "japan"}},
    )
    state, _ = play(state, Attack(seat=0, origin="ural", target="siberia", dice=1, move=1))
    state, events = play(state, Attack(seat=0, origin="kamchatka", target="japan", dice=1))
    assert isinstance(events[-2], GameWon) or isinstance(events[-1], GameWon)
    assert state.winner == 0 and state.phase == "over"


def test_dec_44_conquest_setup() -> None:
    """DEC-44: the conquest game sets up as Command Center (default) or from the Training card."""
    command = rc.replay(opening(ruleset=CONQUEST))
    assert set(command.owner) == {-1} and command.setup_left == [30] * 3
    training = rc.replay(opening(ruleset=CONQUEST, conquest_setup="training"))
    assert -1 not in training.owner and training.phase == "reinforce"
    assert r08(training).rewards_on == ("",) * 8


@pytest.mark.parametrize(
    "family",
    [{"rewards": {"Ann": ["two_regiments"]}}, {"airfields": ["alaska"]}],
)
def test_dec_44_training_setup_scenario_takes_no_rewards(family: dict[str, Any]) -> None:
    """DEC-44 with R08-TR-06: a conquest scenario set up from the Training card (option
    conquest_setup=training, in its [options]) has no rewards, as the game such an opening
    starts: a reward or airfield in its [family] is bad_scenario; Command Center takes it."""
    assert engine_game(ruleset=CONQUEST, family=family)[0].phase == "reinforce"
    with pytest.raises(rc.SetupError) as e:
        engine_game(ruleset=CONQUEST, family=family, options={"conquest_setup": "training"})
    assert e.value.code == "bad_scenario"


@pytest.mark.parametrize(
    ("dec", "key", "default", "rulesets"),
    [
        ("DEC-41", "airfield_scope", "attacked", (COMMAND, CONQUEST)),
        ("DEC-42", "bonus_card", "additional", (COMMAND, CONQUEST)),
        ("DEC-43", "city_cards", "reshuffle", (COMMAND, CONQUEST)),
        ("DEC-44", "conquest_setup", "command", (CONQUEST,)),
    ],
)
def test_command_decisions_are_options(
    dec: str, key: str, default: str, rulesets: tuple[str, ...]
) -> None:
    """ENG-08: each decision an option with its DEC id and recommended default, only where it
    means something."""
    for info in rc.rulesets():
        if info.name.startswith("risk2008"):
            assert (key in info.options) is (info.name in rulesets)
    for name in rulesets:
        info = next(i for i in rc.rulesets() if i.name == name)
        assert info.options[key]["default"] == default and dec in info.options[key]["doc"]


def test_turn_income_counts_rewards(tmp_path: Path, risk: Run) -> None:
    """R08-CC-16 through a scenario file: `risk show` has the reserve with the 2 regiments and
    the players' table notes each seat's rewards."""
    game = cli_game(
        risk,
        tmp_path,
        ruleset=COMMAND,
        owners={"alaska": 0, "japan": 2},
        default_owner=1,
        family={"capitals": CAPITALS, "rewards": {"Ann": ["two_regiments"]}},
    )
    assert out(risk, "show", game)["reserve"] == 3 + 1 + 2
    assert "rewards two_regiments" in risk("show", game).stdout
    assert "hand 0 stars" in risk("show", game, "--as", "Ann").stdout
    ann_row = next(r for r in risk("show", game, "--as", "Bob").stdout.splitlines() if "Ann (" in r)
    assert "hand" not in ann_row  # hidden information: only a seat's own hand is counted
    started = [e for e in out(risk, "log", game)["events"] if e["type"] == "turn_started"]
    assert started[-1]["income"] == 6


@pytest.mark.parametrize("ruleset", [COMMAND, CONQUEST])
def test_demo_finishes(risk: Run, ruleset: str) -> None:
    """`risk demo --rules risk2008` (and the conquest game) plays bots to a winner."""
    shown = out(risk, "demo", "--rules", ruleset, "--seed", "3")
    assert shown["winner"] is not None and shown["rules"] == ruleset


@pytest.mark.parametrize("ruleset", [COMMAND, CONQUEST, "risk2008-training"])
def test_history_tools_work(risk: Run, tmp_path: Path, ruleset: str) -> None:
    """Audit, branch, export and import work for every Risk 2008 rule set with nothing added
    outside the family (the events carry everything)."""
    game = out(risk, "demo", "--rules", ruleset, "--seed", "2")["game_id"]
    assert "events" in risk("audit", game).stdout
    branch = out(risk, "branch", game, "--at", "40")["game_id"]
    assert out(risk, "show", branch)["version"] == 41  # 40 events, then the branch mark
    path = tmp_path / "game.jsonl"
    risk("export", game, "-o", str(path))
    copy = out(risk, "import", str(path), "--id", "copy")["game_id"]
    assert out(risk, "show", copy) == {**out(risk, "show", game), "game_id": copy}
