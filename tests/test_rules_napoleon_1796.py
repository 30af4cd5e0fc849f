"""NAP-CAMP-01..15 (DEC-06, DEC-07, DEC-32): the 1796 campaign's rules as pure functions
(``napoleon_1796_rules``) on the reconstructed starting position (GAP-12).  The campaign is no
rule set yet: these are its tested building blocks."""

from __future__ import annotations

import pytest

from risk_core.errors import RuleError
from risk_core.rulesets import napoleon_1796_rules as camp
from tests.napoleon_advanced_kit import BOARD, members


def start_owner() -> dict[str, str]:
    """The GAP-12 position: territory id -> colour."""
    return {t: a.colour for a in camp.armies(BOARD).values() for t in a.regiments}


def test_nap_camp_01_sides_and_dec_07_colours() -> None:
    """NAP-CAMP-01 (DEC-07): blue is the French player, red the English; yellow, the passive
    neutral, is no player (000's 'Jaune' for the English is not offered)."""
    assert camp.side_of("blue") == "french" and camp.side_of("red") == "english"
    with pytest.raises(RuleError) as e:
        camp.side_of("yellow")
    assert e.value.code == "not_a_player"
    assert camp.CAMPAIGN_OPTIONS["english_colour"].choices == ("red",)


def test_nap_camp_03_04_armies() -> None:
    """NAP-CAMP-03/04: white, black and green are active independents, yellow passive."""
    roles = {c: a.role for c, a in camp.armies(BOARD).items()}
    assert [c for c, r in roles.items() if r == "active"] == list(camp.INDEPENDENTS)
    assert roles[camp.PASSIVE] == "passive"


def test_nap_camp_05_dec_06_length() -> None:
    """NAP-CAMP-05 (DEC-06): 5 rounds by default; 8 and 9 are the other readings."""
    rounds = camp.CAMPAIGN_OPTIONS["rounds"]
    assert rounds.default == 5 and set(rounds.choices) == {5, 8, 9}


def test_nap_camp_06_initial_alliances() -> None:
    """NAP-CAMP-06: Austrians and Prussians start with the English; Russians neutral."""
    assert camp.starting_alliances() == {"white": "red", "black": "red"}


def test_nap_camp_07_capital_half_bonus() -> None:
    """NAP-CAMP-07 (DEC-32a): holding the capital pays half the empire bonus, rounded up;
    the whole empire pays the larger (max) or both (add)."""
    owner = start_owner()
    fr = BOARD.groups[BOARD.group_index["empire_francais"]]
    assert camp.capital_income(BOARD, owner, "blue") == -(-fr.bonus // 2)
    whole = {**owner, **{t: "blue" for t in members("empire_francais")}}
    assert camp.capital_income(BOARD, whole, "blue") == fr.bonus
    assert camp.capital_income(BOARD, whole, "blue", "add") == fr.bonus + -(-fr.bonus // 2)
    lost = {**owner, "ile_de_france": "red"}
    assert camp.capital_income(BOARD, lost, "blue") == 0


def test_nap_camp_08_allied_income() -> None:
    """NAP-CAMP-08: an ally's income is its territory count (at least 3) plus its capital or
    empire bonus: the Austrians hold 7 territories and their whole empire at the start."""
    owner = start_owner()
    austria = BOARD.groups[BOARD.group_index["empire_d_autriche"]].bonus
    assert camp.allied_income(BOARD, owner, "white") == 3 + austria


def test_nap_camp_09_english_stability() -> None:
    """NAP-CAMP-09 (DEC-32c): a 6 turns a losing English ally neutral; each captured leader
    adds 1 to the roll."""
    assert camp.ally_turns_neutral(6, 0)
    assert not camp.ally_turns_neutral(5, 0)
    assert camp.ally_turns_neutral(4, 2)


def test_nap_camp_13_15_defence_force() -> None:
    """NAP-CAMP-13/15: a UK territory keeps 5 regiments: only those above may leave."""
    assert camp.defence_force_attackers(7) == 2 and camp.defence_force_attackers(4) == 0
    camp.check_defence_force(BOARD, "angleterre", 7, 2)
    with pytest.raises(RuleError) as e:
        camp.check_defence_force(BOARD, "angleterre", 7, 3)
    assert e.value.code == "defence_force"
    camp.check_defence_force(BOARD, "bretagne", 2, 1)  # outside the United Kingdom


def test_nap_camp_11_12_15_annexations() -> None:
    """NAP-CAMP-11/12/15: an ally's territory (not a capital) or the neutral's; one of each
    kind a turn; never a capital, never another's ally."""
    allied = camp.starting_alliances()
    assert camp.check_annexation(BOARD, "galicie", "white", "red", allied, []) == "ally"
    assert camp.check_annexation(BOARD, "andalousie", "yellow", "blue", allied, ["ally"]) == (
        "neutral"
    )
    cases = [
        (("pays_austro_bohemiens", "white", "red", []), "annex_capital"),
        (("galicie", "white", "blue", []), "not_annexable"),
        (("galicie", "white", "red", ["ally"]), "one_per_turn"),
    ]
    for (t, holder, annexer, done), code in cases:
        with pytest.raises(RuleError) as e:
            camp.check_annexation(BOARD, t, holder, annexer, allied, done)
        assert e.value.code == code


def test_nap_camp_14_turn_vp() -> None:
    """NAP-CAMP-14: Île de France 1, maritime supremacy 1 (DEC-32b), Égypte 2, 1 per ally."""
    owner = start_owner()
    assert camp.turn_vp(BOARD, "blue", owner, allies=0, supremacy=False) == 1
    assert camp.turn_vp(BOARD, "red", owner, allies=2, supremacy=True) == 1 + 1 + 2
    with_egypt = {**owner, "egypte": "blue"}
    assert camp.turn_vp(BOARD, "blue", with_egypt, allies=1, supremacy=False) == 1 + 2 + 1


def test_dec_32b_maritime_supremacy() -> None:
    """DEC-32(b): strictly more sea zones than the opponent, or both routes."""
    assert camp.maritime_supremacy({"red": 3, "blue": 1}, {}, "red")
    assert not camp.maritime_supremacy({"red": 2, "blue": 2}, {}, "red")
    assert camp.maritime_supremacy({}, {"blue": 2}, "blue", "both_routes")


def test_nap_camp_14_invasion_vp() -> None:
    """NAP-CAMP-14: one-shot invasion VP with their conditions: Égypte before 1809, Austria's
    capital only while Austria is allied to the other side, never twice."""
    allied = camp.starting_alliances()
    assert camp.invasion_vp(BOARD, "blue", "egypte", 1805, allied, []) == 5
    assert camp.invasion_vp(BOARD, "blue", "egypte", 1809, allied, []) == 0
    assert camp.invasion_vp(BOARD, "blue", "pays_austro_bohemiens", 1803, allied, []) == 5
    assert camp.invasion_vp(BOARD, "red", "pays_austro_bohemiens", 1803, allied, []) == 0
    assert camp.invasion_vp(BOARD, "red", "ile_de_france", 1803, allied, []) == 10
    assert (
        camp.invasion_vp(BOARD, "red", "ile_de_france", 1803, allied, ["english:ile_de_france"])
        == 0
    )
    assert camp.invasion_vp(BOARD, "blue", "angleterre", None, allied, []) == 10
