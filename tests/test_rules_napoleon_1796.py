"""NAP-CAMP-01..17 (DEC-06, DEC-07, DEC-32): the 1796 campaign's rules as pure functions
(``napoleon_1796_rules``) on the reconstructed starting position (GAP-12).  The campaign is no
rule set yet: these are its tested building blocks."""

from __future__ import annotations

import pytest

from risk_core.errors import RuleError
from risk_core.rulesets import napoleon_1796_rules as camp
from risk_core.rulesets import napoleon_advanced_rules as nar
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


def test_nap_camp_01_03_06_seats() -> None:
    """NAP-CAMP-01/03/06: the French player sits first (he plays first), then the English,
    then the three active independents and the passive neutral, as neutral seats; a player
    named like an army leaves that army its colour's name."""
    seats = camp.campaign_seats(BOARD, "Ann", "Bob")
    assert [(s.name, s.colour, s.neutral) for s in seats] == [
        ("Ann", "blue", False),
        ("Bob", "red", False),
        ("Austrians", "white", True),
        ("Prussians", "black", True),
        ("Russians", "green", True),
        ("Neutrals", "yellow", True),
    ]
    assert camp.campaign_seats(BOARD, "Russians", "Bob")[4].name == "Green"
    with pytest.raises(RuleError) as e:
        camp.campaign_seats(BOARD, "Ann", "Ann")
    assert e.value.code == "bad_players"


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
    # DEC-32(c): losing is attacking without the conquest, or defending and being conquered.
    assert camp.english_ally_lost(attacking=True, conquered=False)
    assert not camp.english_ally_lost(attacking=True, conquered=True)
    assert camp.english_ally_lost(attacking=False, conquered=True)
    assert not camp.english_ally_lost(attacking=False, conquered=False)


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


def test_nap_camp_02_goal() -> None:
    """NAP-CAMP-02: eliminating the opponent wins whatever the VP; else more VP at the end;
    equal VP go to the advanced game's tie-breaks (NAP-CAMP-04: NAP-ADV-46's regiments in
    play, then DEC-30), the order of the game's final ranking; still equal: shared (None)."""
    assert camp.campaign_winner({"blue": 1, "red": 30}, eliminated="red") == "blue"
    assert camp.campaign_winner({"blue": 30}, eliminated="blue") == "red"
    assert camp.campaign_winner({"blue": 12, "red": 9}) == "blue"
    assert camp.campaign_winner({"blue": 8, "red": 9}) == "red"
    assert camp.campaign_winner({"blue": 9, "red": 9}) is None
    regiments = {"blue": 40, "red": 41}
    assert camp.campaign_winner({"blue": 9, "red": 9}, regiments=regiments) == "red"
    assert camp.campaign_winner({"blue": 10, "red": 9}, regiments=regiments) == "blue"
    even, held = {"blue": 40, "red": 40}, {"blue": 20, "red": 19}
    assert camp.campaign_winner({"blue": 9, "red": 9}, regiments=even, holdings=held) is None
    territories = camp.campaign_winner(
        {"blue": 9, "red": 9}, regiments=even, holdings=held, tie="territories"
    )
    assert territories == "blue"
    for vp in ({"blue": 9, "red": 9}, {"blue": 3, "red": 9}):  # as the final ranking orders
        places = nar.final_ranking(
            [vp["blue"], vp["red"]], [40, 41], [0, 0], holdings=[20, 19], tie="shared"
        )
        first = ("blue", "red")[places[0][0]]
        assert camp.campaign_winner(vp, regiments=regiments, holdings=held) == first


def test_nap_camp_06_starting_influence_cards() -> None:
    """NAP-CAMP-06: one card from the deck under each starting English ally's cannon (these
    count toward the 3-card influence lock, NAP-2PA-04); the Russians get none."""
    assert camp.starting_influence([17, 4, 30]) == {"white": (17,), "black": (4,)}


def conquered(capital: str, invader: str) -> tuple[dict[str, str], dict[str, int]]:
    """The GAP-12 position after ``invader`` took ``capital`` with 4 regiments and holds
    the neighbouring Saxe-Westphalie (for the withdrawal)."""
    owner = {**start_owner(), capital: invader, "saxe_westphalie": invader}
    return owner, {capital: 4, "saxe_westphalie": 2}


def test_nap_camp_10_capital_invasion_neutralises() -> None:
    """NAP-CAMP-10: taking an allied power's capital turns that power neutral, whoever held
    the capital (only the territory counts); a neutral power's capital or any other
    territory changes nothing."""
    allied = camp.starting_alliances()
    assert camp.neutralised_by_invasion("pays_austro_bohemiens", allied) == "white"
    assert camp.neutralised_by_invasion("pomeranie_brandebourg_silesie", allied) == "black"
    assert camp.neutralised_by_invasion("grande_russie", allied) is None  # Russia neutral
    assert camp.neutralised_by_invasion("galicie", allied) is None
    assert camp.neutralised_by_invasion("ile_de_france", allied) is None  # a player's
    # The capitals are the board's: each power's empire capital.
    for colour, capital in camp.CAPITALS.items():
        assert BOARD.groups[BOARD.group_index[camp.POWERS[colour]]].capital == capital


def test_nap_camp_10_realliance() -> None:
    """NAP-CAMP-10/17: the invader spends a card, withdraws all his troops from the capital
    to an adjacent territory he controls and puts 3 of the power's regiments there; the
    power is now his ally (and may attack at once)."""
    owner, regiments = conquered("pays_austro_bohemiens", "blue")
    after = {"black": "red"}  # the Austrians turned neutral with the conquest
    plan = camp.check_realliance(
        BOARD, "pays_austro_bohemiens", "blue", "saxe_westphalie", owner, regiments, 1, after
    )
    assert plan == camp.Realliance(
        "white", "blue", "pays_austro_bohemiens", "saxe_westphalie", 4, 3
    )


def test_nap_camp_10_realliance_errors() -> None:
    """NAP-CAMP-10: no re-alliance without a card, of a non-capital, of a capital not held,
    of a power still allied, or with a withdrawal that is not adjacent or not the invader's."""
    owner, regiments = conquered("pays_austro_bohemiens", "blue")
    after = {"black": "red"}
    cases = [
        (("pays_austro_bohemiens", "blue", "saxe_westphalie", 0, after), "card_required"),
        (("galicie", "blue", "saxe_westphalie", 1, after), "not_capital"),
        (("pays_austro_bohemiens", "red", "saxe_westphalie", 1, after), "not_owner"),
        (("pays_austro_bohemiens", "blue", "saxe_westphalie", 1, {"white": "red"}), "not_neutral"),
        (("pays_austro_bohemiens", "blue", "ile_de_france", 1, after), "not_adjacent"),
        (("pays_austro_bohemiens", "blue", "hongrie", 1, after), "not_owner"),
        (("pays_austro_bohemiens", "yellow", "hongrie", 1, after), "not_a_player"),
    ]
    for (capital, invader, to, cards, allied), code in cases:
        with pytest.raises(RuleError) as e:
            camp.check_realliance(BOARD, capital, invader, to, owner, regiments, cards, allied)
        assert e.value.code == code, (capital, invader, to)


def test_nap_camp_16_turn_structure() -> None:
    """NAP-CAMP-16: start (VP, influence), own then allied reinforcements, combat with the
    status rolls and the re-alliance, own then allied maneuvers, epidemic, annexations."""
    steps = [name for name, _ in camp.TURN_STEPS]
    assert steps == [
        "start", "reinforce", "ally_reinforce", "combat",
        "maneuver", "ally_maneuver", "epidemic", "end",
    ]  # fmt: skip
    rules = dict(camp.TURN_STEPS)
    assert "NAP-CAMP-10" in rules["combat"] and "NAP-CAMP-09" in rules["combat"]
    assert {"NAP-CAMP-11", "NAP-CAMP-12"} <= set(rules["end"])
    assert rules["reinforce"][0] == "NAP-CAMP-07" and rules["ally_reinforce"] == ("NAP-CAMP-08",)


def test_nap_camp_17_decisions() -> None:
    """NAP-CAMP-17 (DEC-19): the active player decides gifts, allied income, attacks, the
    re-alliance and annexations; a player defends his own units, and the non-active player
    defends the independents, whoever's ally they are."""
    for d in ("influence", "ally_income", "attack", "ally_attack", "realliance", "annexation"):
        assert camp.decider(d, "red") == "red"
    assert camp.decider("defence_own", "red", "blue") == "blue"
    assert camp.decider("defence_independent", "blue", "white") == "red"
    assert camp.decider("defence_independent", "red", "green") == "blue"
