"""NAP-ADV-*, NAP-CAP-* and their decisions as pure rules (``napoleon_advanced_rules``): each
test cites the rule it checks and, where the rulebooks give one, their worked example."""

from __future__ import annotations

import pytest

from risk_core.errors import RuleError
from risk_core.rulesets import napoleon_advanced_rules as nar
from tests.napoleon_advanced_kit import BOARD, IDS, T, members, owners, route_zones

AMERIQUES = route_zones("ameriques")


def test_nap_adv_18_census_counts_sea_zones() -> None:
    """NAP-ADV-18: max(3, (territories + zones) // 3): 10 territories and 2 zones give 4."""
    owner = owners({t: 0 for t in IDS[:10]})
    ships = {"mer_du_nord": {0: 1}, "mer_baltique": {0: 2}}
    c = nar.census(BOARD, owner, ships, 0)
    assert (c.territories, c.zones, c.base) == (10, 2, 4)
    assert nar.census(BOARD, owner, {}, 0).base == 3
    assert nar.census(BOARD, owners({}), {}, 0).base == 3  # the minimum


def test_nap_adv_19_empire_and_route_bonuses() -> None:
    """NAP-ADV-19: every held empire's bonus and every held route's (Amériques 2)."""
    owner = owners({t: 0 for t in members("royaume_uni")})
    ships = {z: {0: 1} for z in AMERIQUES}
    c = nar.census(BOARD, owner, ships, 0)
    assert c.empires == ("royaume_uni",) and c.routes == ("ameriques",)
    assert c.bonus == 2 + 2 and c.total == 3 + 4


def test_nap_adv_19_permanent_mission_bonus() -> None:
    """NAP-ADV-17/19: a face-up Empire mission's permanent bonus is added to the census."""
    assert nar.census(BOARD, owners({}), {}, 0, permanent=1).total == 4


def test_nap_adv_21_fortification_income() -> None:
    """NAP-ADV-21: +1 per own fortified territory whose fortification was not built this turn
    (the caller passes the producing ones); another's fortification gives nothing."""
    owner = owners({"castille": 0, "portugal": 1})
    c = nar.census(BOARD, owner, {}, 0, fortified=[T("castille"), T("portugal")])
    assert c.fortifications == 1 and c.total == 4


def test_nap_adv_20_fixed_trade_values() -> None:
    """NAP-ADV-20 (000 l.888-905): 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10,
    jokers wild at their best value; anything else is no set."""
    assert nar.set_value(["infantry"] * 3) == 4
    assert nar.set_value(["cavalry"] * 3) == 6
    assert nar.set_value(["artillery"] * 3) == 8
    assert nar.set_value(["infantry", "cavalry", "artillery"]) == 10
    assert nar.set_value(["artillery", "artillery", "joker"]) == 8
    assert nar.set_value(["infantry", "artillery", "joker"]) == 10
    assert nar.set_value(["infantry", "infantry", "joker"]) == 4
    assert nar.set_value(["infantry", "infantry", "cavalry"]) is None
    assert nar.set_value(["infantry", "infantry"]) is None


def test_nap_adv_20_renfort_card_adds_four() -> None:
    """NAP-ADV-20 (000 l.905): the Renfort card adds +4 regiments when traded in a set."""
    assert nar.trade_bonus(BOARD, ["ile_de_france", "castille", None]) == 4
    assert nar.trade_bonus(BOARD, ["castille", "portugal", None]) == 0


def test_nap_adv_26_phase_windows() -> None:
    """NAP-ADV-26: infantry = own reinforcement; red die = own combat; blue die = another's
    combat; red+blue = any combat; arrow = own maneuver."""
    assert nar.card_window_open("reinforce", True, "reinforce")
    assert not nar.card_window_open("reinforce", False, "reinforce")
    assert nar.card_window_open("own_combat", True, "combat")
    assert not nar.card_window_open("own_combat", False, "combat")
    assert nar.card_window_open("other_combat", False, "combat")
    assert not nar.card_window_open("other_combat", True, "combat")
    assert nar.card_window_open("any_combat", True, "combat")
    assert nar.card_window_open("any_combat", False, "combat")
    assert nar.card_window_open("maneuver", True, "maneuver")
    assert not nar.card_window_open("maneuver", True, "combat")


def test_nap_adv_43_card_draws() -> None:
    """NAP-ADV-43: one card per condition met, at most 3."""
    draws = nar.card_draws
    assert (
        draws(conquered_enemy=False, mission_since_last_turn=False, holds_empire_or_route=False)
        == 0
    )
    assert (
        draws(conquered_enemy=True, mission_since_last_turn=False, holds_empire_or_route=True) == 2
    )
    assert (
        draws(conquered_enemy=True, mission_since_last_turn=True, holds_empire_or_route=True) == 3
    )


def test_nap_cap_03_no_card_for_missions() -> None:
    """NAP-CAP-03: with the Capitals option the mission condition gives no card."""
    assert (
        nar.card_draws(
            conquered_enemy=False,
            mission_since_last_turn=True,
            holds_empire_or_route=False,
            capitals=True,
        )
        == 0
    )


def test_nap_adv_33_general_bonus() -> None:
    """NAP-ADV-33: 1 general +1 on the highest die; 2 generals +1 on the two highest; a 3rd
    adds nothing."""
    assert nar.ranked_bonus(0) == ()
    assert nar.ranked_bonus(1) == (1,)
    assert nar.ranked_bonus(2) == (1, 1)
    assert nar.ranked_bonus(3) == (1, 1)


def test_nap_adv_34_fortification_bonus() -> None:
    """NAP-ADV-34 (000 l.963-967): a fort +1 on the highest; 1 general + fort +2 on the
    highest; 2 generals + fort +2 on the highest and +1 on the second."""
    assert nar.ranked_bonus(0, fortified=True) == (1,)
    assert nar.ranked_bonus(1, fortified=True) == (2,)
    assert nar.ranked_bonus(2, fortified=True) == (2, 1)


def test_nap_adv_30_admiral_bonus_and_die_cap() -> None:
    """NAP-ADV-30: admirals raise dice like generals at sea; option die_cap (default) keeps a
    raised 6 at 6, off lets it reach 7."""
    from risk_core.dice import final_faces

    capped = nar.battle_dice(2, leaders=1)
    assert final_faces(capped, (6, 3)) == (6, 3)
    assert final_faces(capped, (5, 3)) == (6, 3)
    free = nar.battle_dice(2, leaders=2, cap=False)
    assert final_faces(free, (6, 3)) == (7, 4)


def test_nap_adv_32_epidemic_penalty_needs_two_left() -> None:
    """NAP-ADV-32/DEC-24: the invasion is legal only if the origin keeps 2 after the loss."""
    assert nar.epidemic_penalty_ok(3, 1)
    assert not nar.epidemic_penalty_ok(3, 2)


def test_nap_adv_36_landing_through_three_zones() -> None:
    """NAP-ADV-36 (000 l.971-985): the reach follows up to 3 consecutive controlled zones
    from one touching the origin, and no further."""
    chain = ["atlantique_meridional", "mediterranee_occidentale", "mediterranee_adriatique"]
    reach = nar.landing_reach(BOARD, T("portugal"), chain)
    assert T("bosnie_serbie_albanie") in reach and T("tunis_tripoli") in reach
    more = [*chain, "mediterranee_orientale"]
    assert T("syrie") not in nar.landing_reach(BOARD, T("portugal"), more)  # a 4th zone
    assert nar.landing_reach(BOARD, T("portugal"), ["mer_noire"]) == set()  # not touching


def test_nap_adv_29_zone_control() -> None:
    """NAP-ADV-29/DEC-25: the one seat with ships controls a zone; empty or shared: nobody."""
    assert nar.zone_controller({1: 2}) == 1
    assert nar.zone_controller({}) is None
    assert nar.zone_controller({1: 0}) is None
    assert nar.zone_controller({1: 1, 2: 3}) is None


def test_nap_adv_28_naval_targets() -> None:
    """NAP-ADV-28: a fleet attacks an adjacent zone."""
    assert set(nar.naval_targets(BOARD, "mer_du_nord")) == {
        "atlantique_ouest_europeen",
        "mer_baltique",
    }
    with pytest.raises(RuleError) as e:
        nar.naval_targets(BOARD, "pacifique")
    assert e.value.code == "unknown_zone"


def test_nap_adv_22_build_zones() -> None:
    """NAP-ADV-22: a ship goes in a zone next to a territory you control."""
    zones = nar.build_zones(BOARD, owners({"egypte": 0}), 0)
    assert zones == ["mediterranee_orientale"]


def test_nap_adv_22_47_conversion_limits() -> None:
    """NAP-ADV-22/47: 3 generals, 2 admirals; one fort a territory, none with an epidemic or
    when no token is free; an admiral goes with ships."""
    cases = [
        (dict(kind="general", generals=3), "too_many_generals"),
        (dict(kind="admiral", admirals=2), "too_many_admirals"),
        (dict(kind="admiral", own_ships_here=False), "admiral_without_ships"),
        (dict(kind="fortification", fort_here=True), "already_fortified"),
        (dict(kind="fortification", epidemic_here=True), "epidemic_here"),
        (dict(kind="fortification", forts_free=0), "no_fortification_left"),
        (dict(kind="fortification", own_territory=False), "not_owner"),
    ]
    for kwargs, code in cases:
        with pytest.raises(RuleError) as e:
            nar.check_conversion(**kwargs)  # type: ignore[arg-type]
        assert e.value.code == code
    nar.check_conversion("general", generals=2)
    nar.check_conversion("fortification", forts_free=None)


def test_nap_adv_10_epidemics_one_per_empire() -> None:
    """NAP-ADV-10: 4 epidemics in 4 different empires; jokers and a second territory of an
    empire already struck are skipped."""
    fr = members("empire_francais")
    drawn = [None, T(fr[0]), T(fr[1]), T("castille"), T("egypte"), T("angleterre"), T("syrie")]
    placed = nar.place_epidemics(BOARD, drawn)
    assert placed == [T(fr[0]), T("castille"), T("egypte"), T("angleterre")]


def test_nap_adv_40_epidemic_losses_and_moves() -> None:
    """NAP-ADV-40: 1 regiment per epidemic; an emptied territory's epidemic moves to the next
    drawn territory that holds regiments (jokers and empty territories redrawn)."""
    owner = owners({"castille": 0, "portugal": 0, "egypte": 1})
    armies = [0] * len(IDS)
    armies[T("castille")], armies[T("portugal")], armies[T("egypte")] = 3, 1, 2
    epidemics = {T("castille"): 1, T("portugal"): 1, T("egypte"): 1}
    draws = iter([None, T("irlande"), T("egypte")])
    steps = nar.epidemic_losses(owner, armies, epidemics, 0, draws)
    assert [(IDS[s.territory], s.lost, s.moved_to) for s in steps] == [
        ("castille", 1, ()),
        ("portugal", 1, (T("egypte"),)),
    ]


def test_nap_adv_16_start_vp_and_dec_26_routes() -> None:
    """NAP-ADV-16/DEC-26: empire VP = its bonus; a route's too unless route_vp is off."""
    owner = owners({t: 0 for t in members("royaume_uni")})
    ships = {z: {0: 1} for z in AMERIQUES}
    assert nar.start_vp(BOARD, owner, ships, 0) == 4
    assert nar.start_vp(BOARD, owner, ships, 0, route_vp=False) == 2


def test_nap_adv_44_last_turn_census_vp() -> None:
    """NAP-ADV-44: (territories + zones) // 3 VP on the last turn."""
    assert nar.last_turn_vp(14, 3) == 5


def test_nap_adv_24_25_capture_and_ransom_vp() -> None:
    """NAP-ADV-24: a capture moves 1 VP; DEC-29: a ransom none (or gives it back)."""
    assert nar.capture_vp(0, 1) == {0: -1, 1: 1}
    assert nar.ransom_vp(0, 1) == {}
    assert nar.ransom_vp(0, 1, "returned") == {0: 1, 1: -1}


def test_nap_adv_46_ranking_and_tie_breaks() -> None:
    """NAP-ADV-46: VP, then regiments, then missions; DEC-30 shared victory, or territories."""
    assert nar.final_ranking([5, 7, 7], [10, 9, 12], [0, 0, 0]) == [(2,), (1,), (0,)]
    assert nar.final_ranking([7, 7], [9, 9], [2, 1]) == [(0,), (1,)]
    assert nar.final_ranking([7, 7], [9, 9], [1, 1]) == [(0, 1)]
    ranked = nar.final_ranking([7, 7], [9, 9], [1, 1], holdings=[3, 4], tie="territories")
    assert ranked == [(1,), (0,)]


def test_nap_adv_17_one_mission_per_rank_per_turn() -> None:
    """NAP-ADV-17/47: a second mission of a rank in one turn is refused."""
    nar.check_rank_free("caporal", ["capitaine"])
    with pytest.raises(RuleError) as e:
        nar.check_rank_free("caporal", ["caporal"])
    assert e.value.code == "rank_claimed"


def test_nap_adv_17_empire_missions() -> None:
    """NAP-ADV-17/GAP-08: an Empire mission's test (empire, route)."""
    missions = {m.id: m for m in BOARD.section("nap_empire_missions")}
    owner = owners({t: 0 for t in members("royaume_uni")})
    assert nar.empire_mission_done(BOARD, missions["empire_royaume_uni"], owner, {}, 0)
    assert not nar.empire_mission_done(BOARD, missions["route_ameriques"], owner, {}, 0)
    ships = {z: {0: 1} for z in AMERIQUES}
    assert nar.empire_mission_done(BOARD, missions["route_ameriques"], owner, ships, 0)


def test_nap_cap_01_02_04_capital_bonus() -> None:
    """NAP-CAP-01 (DEC-31): capital + strict majority (capital included) pays the capital
    bonus; NAP-CAP-02: from round 2; NAP-CAP-04: not with the whole empire."""
    fr = members("empire_francais")
    five = owners({t: 0 for t in ["ile_de_france", *[t for t in fr if t != "ile_de_france"][:4]]})
    assert nar.capital_holdings(BOARD, five, 0, round=2) == ("empire_francais",)
    assert nar.capital_holdings(BOARD, five, 0, round=1) == ()
    c = nar.census(BOARD, five, {}, 0, capitals=True, round=2)
    assert c.capitals == ("empire_francais",) and c.bonus == 4
    four = owners({t: 0 for t in ["ile_de_france", *[t for t in fr if t != "ile_de_france"][:3]]})
    assert nar.capital_holdings(BOARD, four, 0, round=2) == ()
    whole = owners({t: 0 for t in fr})
    assert nar.capital_holdings(BOARD, whole, 0, round=2) == ()
    no_capital = owners({t: 0 for t in fr if t != "ile_de_france"})
    assert nar.capital_holdings(BOARD, no_capital, 0, round=2) == ()


def test_dec_31_capital_bonus_as_vp() -> None:
    """DEC-31 option capital_bonus_kind=vp: no regiments, the bonus scores VP instead."""
    fr = members("empire_francais")
    five = owners({t: 0 for t in ["ile_de_france", *[t for t in fr if t != "ile_de_france"][:4]]})
    c = nar.census(BOARD, five, {}, 0, capitals=True, capital_kind="vp", round=2)
    assert c.bonus == 0
    assert nar.start_vp(BOARD, five, {}, 0, capitals=c.capitals) == 4


def test_options_default_to_the_recommended_readings() -> None:
    """DEC-04/05/23/24/25/26/29/30/31: each decision's recommended reading is the default."""
    defaults = {k: o.default for k, o in nar.NAP_ADV_OPTIONS.items()}
    assert defaults["rounds"] == 5  # DEC-05
    assert defaults["elimination_trade_from"] == 5  # DEC-04
    assert defaults["general_model"] == "commit"  # DEC-23
    assert defaults["epidemic_penalty"] == "per_origin"  # DEC-24
    assert defaults["naval_leave_one"] is True  # DEC-25
    assert defaults["route_vp"] is True  # DEC-26
    assert defaults["ransom_vp"] == "none"  # DEC-29
    assert defaults["final_tie"] == "shared"  # DEC-30
    assert defaults["capital_bonus_kind"] == "reinforcement"  # DEC-31
