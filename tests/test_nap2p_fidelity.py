"""Napoléon 2P fidelity (issue "Rules fidelity and hardening"): NAP-2PA-09 status dice once per
invasion, NAP-2PA-06 allied reinforcements one ally at a time, DEC-17 as a rule option, and
messages that name armies (rulebook 000 l.306, 355, 405–516; catalogue NAP-2P*, DEC-17)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import risk_core as rc
from risk_core.model import (
    Attack,
    BattleFought,
    Command,
    EndTurn,
    Event,
    Fortify,
    GameState,
    Occupy,
    Place,
    SetupPlaced,
)
from risk_core.rulesets.napoleon_2p import (
    AllyManeuver,
    EndPhase,
    GiveCard,
    ReinforceAlly,
    StatusRolled,
)
from tests.gamekit import kinds, play, rejected
from tests.test_rules_napoleon_2p import (
    ANN,
    BLACK,
    BOB,
    GREEN,
    IDS,
    NAP2P,
    RULES,
    YELLOW,
    card,
    game,
    of,
)

Run = Callable[..., Result]


def syrie_once(state: GameState, origin: str = "egypte") -> tuple[GameState, list[Event]]:
    """One battle against Syrie (one attack die)."""
    return play(state, Attack(seat=ANN, origin=origin, target="syrie", dice=1))


def refusal(state: GameState, cmd: Command) -> tuple[str, str]:
    """(code, message) of a rejected command."""
    with pytest.raises(rc.RuleError) as err:
        rc.decide(state, cmd)
    return err.value.code, err.value.message


# ============================================================================ NAP-2PA-09
def test_nap2pa09_three_battles_on_one_target_are_one_invasion() -> None:
    """NAP-2PA-09 (000 l.306, 494): an invasion is every battle against one target until it
    falls or is given up; three single battles against Green's Syrie roll one status die, when
    Ann ends her attacks, before the turn ends."""
    owners = {"egypte": ANN, "syrie": GREEN}
    state = game(owners, {"egypte": 9, "syrie": 3}, dice=[1, 6, 6] * 3 + [2])
    for _ in range(3):
        state, events = syrie_once(state)
        assert kinds(events) == ["BattleFought"]  # the invasion goes on
    state, events = play(state, EndTurn(seat=ANN))
    rolls = of(events, StatusRolled)
    assert [(r.independent, r.face, r.ally_of) for r in rolls] == [(GREEN, 2, BOB)]
    assert kinds(events)[:2] == ["StatusRolled", "TurnEnded"]


def test_nap2pa09_switching_origin_continues_the_invasion() -> None:
    """NAP-2PA-09 with 000 l.355: attacking the same target from another territory is the same
    invasion; its one die follows the move-in after the conquest."""
    owners = {"egypte": ANN, "anatolie": ANN, "syrie": GREEN, "caucase": GREEN}
    dice = [1, 6, 6, 6, 6, 6, 1, 1, 5]
    state = game(owners, {"egypte": 5, "anatolie": 5, "syrie": 2}, dice=dice)
    state, events = syrie_once(state)
    assert kinds(events) == ["BattleFought"]
    state, events = play(state, Attack(seat=ANN, origin="anatolie", target="syrie", dice=3))
    assert kinds(events) == ["BattleFought", "TerritoryConquered"] and state.phase == "occupy"
    state, events = play(state, Occupy(seat=ANN, count=3))
    assert kinds(events) == ["Occupied", "StatusRolled"]
    assert of(events, StatusRolled)[0].face == 5 and RULES.status(state, GREEN) is None


def test_nap2pa09_turning_to_another_target_ends_the_invasion_first() -> None:
    """NAP-2PA-09: a new target ends the invasion of the last one: its die comes before the
    new battle (an allied attacker and an independent defender: one die each, once)."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": YELLOW}
    armies = {"syrie": 9, "anatolie": 3}
    dice = [1, 6, 6, 1, 6, 6, 5, 3, 1, 6, 6]
    state = game(owners, armies, allies={GREEN: ANN}, dice=dice)
    for _ in range(2):
        state, events = play(state, Attack(seat=ANN, origin="syrie", target="anatolie", dice=1))
        assert kinds(events) == ["BattleFought"]
    state, events = play(state, Attack(seat=ANN, origin="egypte", target="tunis_tripoli", dice=1))
    assert kinds(events) == ["StatusRolled", "StatusRolled", "BattleFought"]
    assert [(r.independent, r.face) for r in of(events, StatusRolled)] == [(GREEN, 5), (YELLOW, 3)]
    assert RULES.status(state, GREEN) == ANN and RULES.status(state, YELLOW) == BOB


def test_nap2pa09_an_invasion_that_cannot_go_on_is_over() -> None:
    """NAP-2PA-09, the rulebook example (000 l.500): Red invades and loses — the invasion is over
    when no territory can continue it, and the die is rolled at once."""
    owners = {"egypte": ANN, "syrie": GREEN}
    state = game(owners, {"egypte": 3, "syrie": 3}, dice=[1, 6, 6, 1, 6, 6, 4])
    state, events = syrie_once(state)
    assert kinds(events) == ["BattleFought"]  # Egypte still has 2: the invasion may go on
    state, events = syrie_once(state)
    assert kinds(events) == ["BattleFought", "StatusRolled"]
    assert RULES.status(state, GREEN) == BOB


ENDINGS: dict[str, tuple[Command, str]] = {
    "fortify": (
        Fortify(seat=ANN, origin="maroc_fes_etats_barbaresques", target="tunis_tripoli", count=1),
        "Fortified",
    ),
    "ally maneuver": (
        AllyManeuver(seat=ANN, origin="portugal", target="castille", count=1),
        "AllyManeuvered",
    ),
    "end turn": (EndTurn(seat=ANN), "TurnEnded"),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_nap2pa09_ending_the_attacks_ends_the_invasion(ending: str) -> None:
    """NAP-2PA-09: the own maneuver, an allied maneuver or the end of the turn end the combat:
    the die of the invasion in progress is rolled first."""
    owners = {
        "egypte": ANN,
        "tunis_tripoli": ANN,
        "maroc_fes_etats_barbaresques": ANN,
        "syrie": GREEN,
        "portugal": YELLOW,
        "castille": YELLOW,
    }
    armies = {"egypte": 9, "syrie": 3, "maroc_fes_etats_barbaresques": 3, "portugal": 3}
    state = game(owners, armies, allies={YELLOW: ANN}, dice=[1, 6, 6, 6])
    state, events = syrie_once(state)
    assert not of(events, StatusRolled)
    cmd, kind = ENDINGS[ending]
    _, events = play(state, cmd)
    assert kinds(events).index("StatusRolled") < kinds(events).index(kind)
    assert [r.independent for r in of(events, StatusRolled)] == [GREEN]


def test_nap2pa09_an_ally_lost_on_the_die_does_not_attack() -> None:
    """NAP-2PA-09/07: turning from an allied invasion to another target from the same ally, the
    die ends the first invasion; on a 1–4 the ally turns neutral and its attack is called off
    (the command is checked on the position the mover sees, so a refusal never tells a die)."""
    owners = {"tunis_tripoli": ANN, "syrie": GREEN, "anatolie": BOB, "egypte": BOB}
    state = game(owners, {"syrie": 9}, allies={GREEN: ANN}, dice=[1, 6, 6, 3])
    state, _ = play(state, Attack(seat=ANN, origin="syrie", target="anatolie", dice=1))
    state, events = play(state, Attack(seat=ANN, origin="syrie", target="egypte", dice=1))
    assert kinds(events) == ["StatusRolled"] and RULES.status(state, GREEN) is None
    assert state.phase == "attack" and not of(events, BattleFought)


# ============================================================================ NAP-2PA-06
def allies_to_reinforce(dice: list[int]) -> GameState:
    """Ann (Egypte, 3 to place) with two allies: Green (Syrie, Anatolie) and Yellow (Caucase)."""
    owners = {"egypte": ANN, "syrie": GREEN, "anatolie": GREEN, "caucase": YELLOW}
    allies: dict[int, int | None] = {GREEN: ANN, YELLOW: ANN}
    return game(owners, phase="reinforce", allies=allies, dice=dice)


def test_nap2pa06_one_ally_at_a_time_after_own_placement() -> None:
    """NAP-2PA-06 (000 l.481): own regiments first; then choose an ally, roll its die, place
    them; then decide on the next one knowing the first result."""
    state = allies_to_reinforce([4, 2])
    assert rejected(state, ReinforceAlly(seat=ANN, ally=GREEN)) == "must_place"
    state, events = play(state, Place(seat=ANN, territory="egypte", count=3))
    assert kinds(events) == ["ArmiesPlaced"] and state.phase == "ally_reinforce"
    state, events = play(state, ReinforceAlly(seat=ANN, ally=GREEN))
    assert kinds(events) == ["AllyReinforcementRolled"] and state.phase == "ally_place"
    assert RULES.steps(state).quota[GREEN] == 4
    assert rejected(state, ReinforceAlly(seat=ANN, ally=YELLOW)) == "wrong_phase"
    state, _ = play(state, Place(seat=ANN, territory="syrie", count=4))
    assert state.phase == "ally_reinforce"  # Yellow is still to decide
    assert rejected(state, ReinforceAlly(seat=ANN, ally=GREEN)) == "already_chosen"
    state, _ = play(state, ReinforceAlly(seat=ANN, ally=YELLOW))
    assert RULES.steps(state).quota[YELLOW] == 2
    state, _ = play(state, Place(seat=ANN, territory="caucase", count=2))
    assert state.phase == "attack"  # every ally has had its die


def test_nap2pa06_end_phase_skips_the_other_allies() -> None:
    """NAP-2PA-06: reinforcing an ally is optional; end-phase goes on to combat."""
    state = allies_to_reinforce([1])
    state, _ = play(state, Place(seat=ANN, territory="egypte", count=3))
    state, _ = play(state, ReinforceAlly(seat=ANN, ally=GREEN))
    state, _ = play(state, Place(seat=ANN, territory="anatolie", count=1))
    state, events = play(state, EndPhase(seat=ANN))
    assert kinds(events) == ["AllyReinforcementsEnded"] and state.phase == "attack"
    assert RULES.steps(state).reinforced == (GREEN,)  # Yellow had no die
    assert rejected(state, ReinforceAlly(seat=ANN, ally=YELLOW)) == "wrong_phase"


def test_nap2pa06_reinforce_ally_verb(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-06 through the CLI: `risk reinforce-ally GAME ALLY` rolls that ally's die now."""
    territories = {t: {"owner": i % 6, "armies": 2} for i, t in enumerate(IDS)}
    territories["syrie"] = {"owner": 2, "armies": 2}
    doc: dict[str, Any] = {
        "ruleset": NAP2P,
        "players": ["Ann", "Bob"],
        "seed": 5,
        "phase": "reinforce",
        "options": {"independents": "active"},
        "dice": [5],
        "territories": territories,
        "family": {"allies": {"Green": "Ann"}},
    }
    path = tmp_path / "allies.json"
    path.write_text(json.dumps(doc))
    game_id = json.loads(risk("new", "--scenario", str(path), "--json").stdout)["game_id"]
    reserve = json.loads(risk("show", game_id, "--json").stdout)["reserve"]
    risk("place", game_id, IDS[0], str(reserve), "--as", "Ann")
    risk("reinforce-ally", game_id, "Green", "--as", "Ann")
    shown = json.loads(risk("show", game_id, "--json").stdout)
    assert shown["phase"] == "ally_place" and shown["ally_reserve"] == 5
    assert "Green receives 5 regiments" in risk("log", game_id).stdout


# ============================================================================ DEC-17
def first_quota(options: dict[str, Any]) -> tuple[int, ...]:
    events = rc.start(NAP2P, ["Ann", "Bob"], seed=5, dice=[2, 5], options=options)
    return RULES.steps(rc.replay(events)).quota


def test_dec17_setup_chunk_is_an_option() -> None:
    """DEC-17/ENG-08: the placement-turn chunks are the option ``setup_chunk`` (own/independent),
    default 3/2 as the catalogue recommends; a stock smaller than its chunk places what is left."""
    spec = {i.name: i for i in rc.rulesets()}[NAP2P].options["setup_chunk"]
    assert spec["default"] == "3/2" and "DEC-17" in spec["doc"]
    assert first_quota({}) == (0, 3, 2, 2, 2, 2)
    assert first_quota({"setup_chunk": "5/4"}) == (0, 5, 4, 4, 4, 4)
    state = rc.replay(rc.start(NAP2P, ["Ann", "Bob"], seed=5, options={"setup_chunk": "20/10"}))
    while state.phase == "setup":
        seat, quota = state.current, RULES.steps(state).quota
        for army in [seat, *range(2, 6)]:
            if quota[army]:
                spot = IDS[state.owner.index(army)]
                state, events = play(state, Place(seat=seat, territory=spot, count=quota[army]))
                assert of(events, SetupPlaced)[0].count <= (20 if army == seat else 10)
    assert sum(state.armies) == 2 * 36 + 4 * 21
    for bad in ("0/2", "3", "3/x", "-1/2"):
        with pytest.raises(rc.SetupError) as err:
            rc.start(NAP2P, ["Ann", "Bob"], seed=5, options={"setup_chunk": bad})
        assert err.value.code == "invalid_option"


# ============================================================================ messages
def test_messages_name_the_armies() -> None:
    """Refusals name seats by name (Bob, Black), with their stable codes."""
    owners = {"egypte": ANN, "syrie": GREEN}
    state = game(owners, phase="reinforce", hands={ANN: ["castille"]})
    code, message = refusal(state, GiveCard(seat=ANN, independent=BOB, card=card("castille")))
    assert code == "not_independent" and "Bob" in message and "Seat" not in message
    code, message = refusal(state, GiveCard(seat=ANN, independent=9, card=card("castille")))
    assert code == "not_independent" and "9" in message
    allied = game(owners, phase="reinforce", allies={GREEN: ANN})
    allied, _ = play(allied, Place(seat=ANN, territory="egypte", count=3))
    code, message = refusal(allied, ReinforceAlly(seat=ANN, ally=BLACK))
    assert code == "not_ally" and "Black" in message and "Seat" not in message
