"""CW-24..28: Clone Wars battle dice with ship support, thrown and exactly weighed
(``risk_core.rulesets.clonewars_dice``, a building block of the faction game)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from risk_core.odds import battle
from risk_core.rng import Rng
from risk_core.rulesets.clonewars_dice import (
    SideDice,
    battle_losses,
    every_mix,
    expected_losses,
    face_distribution,
    throw_side,
)


def scripted(side: SideDice, *faces: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return throw_side(Rng(1, 0, faces), side)


def test_cw_25_each_capital_ship_turns_one_d6_into_a_d8() -> None:
    """CW-25 (002 l.404): 1, 2, 3 capital ships give 1, 2, 3 d8; never more dice than troops."""
    assert SideDice(troops=3, capital=1).sides == (8, 6, 6)
    assert SideDice(troops=3, capital=3).sides == (8, 8, 8)
    assert SideDice(troops=2, capital=3).sides == (8, 8)
    assert SideDice(troops=1).sides == (6,)


def test_cw_26_a_fighter_rerolls_a_one_until_it_is_not() -> None:
    """CW-26 (002 l.406): the '1' is re-rolled until it shows another number."""
    natural, final = scripted(SideDice(troops=1, fighters=1), 1, 1, 1, 4)
    assert natural == (1, 1, 1, 4) and final == (4,)
    dist = dict(face_distribution(SideDice(troops=1, fighters=1)))
    assert dist == {(f,): Fraction(1, 5) for f in range(2, 7)}


def test_cw_26_one_fighter_rerolls_one_die_d8_first() -> None:
    """CW-26: one fighter, one '1' re-rolled; with a d8 and a d6 both on 1, the d8 (the
    reading that is never worse for the side choosing)."""
    natural, final = scripted(SideDice(troops=2, capital=1, fighters=1), 1, 1, 5)
    assert natural == (1, 1, 5) and final == (5, 1)


def test_cw_26_corvettes_add_one_to_the_highest_dice_never_two() -> None:
    """CW-26 (002 l.408-410): +1 on the highest die, then the next; never +2 on one die."""
    assert scripted(SideDice(troops=3, corvettes=1), 2, 5, 3)[1] == (6, 3, 2)
    assert scripted(SideDice(troops=3, corvettes=2), 2, 5, 3)[1] == (6, 4, 2)
    assert scripted(SideDice(troops=1, corvettes=3), 6)[1] == (7,)  # a 6 becomes 7, once
    dist = dict(face_distribution(SideDice(troops=1, corvettes=2)))
    assert dist == {(f,): Fraction(1, 6) for f in range(2, 8)}


def test_cw_27_the_rulebook_order_reroll_before_corvette() -> None:
    """CW-27 (002 l.412-418): d8s, throw, fighters re-roll, then corvettes add: a '1'
    re-rolled to 6 gets the corvette's +1."""
    natural, final = scripted(SideDice(troops=2, fighters=1, corvettes=1), 1, 3, 6)
    assert natural == (1, 3, 6) and final == (7, 3)


def test_cw_28_palpatines_planet_defends_with_d8() -> None:
    """CW-28 (002 l.437): the defenders of Palpatine's planet always throw d8, ships or not."""
    assert SideDice(troops=2, all_d8=True).sides == (8, 8)
    assert SideDice(troops=1, capital=0, all_d8=True).sides == (8,)
    plain = expected_losses(SideDice(troops=3), SideDice(troops=2))
    palpatine = expected_losses(SideDice(troops=3), SideDice(troops=2, all_d8=True))
    assert palpatine[0] > plain[0] and palpatine[1] < plain[1]


def test_worked_example_saleucami() -> None:
    """002 l.420-422: the Republic attacks from Saleucami with 3 dice and a capital ship (one
    d8); the Separatists defend with 2 dice and a fighter (one '1' re-rolled)."""
    attack = SideDice(troops=3, capital=1)
    defence = SideDice(troops=2, fighters=1)
    assert attack.sides == (8, 6, 6) and defence.sides == (6, 6)
    rng = Rng(1, 0, (7, 2, 4, 1, 5, 3))  # attack 7, 2, 4; defence 1, 5; the 1 re-rolled: 3
    a_nat, a_final = throw_side(rng, attack)
    d_nat, d_final = throw_side(rng, defence)
    assert a_final == (7, 4, 2) and d_nat == (1, 5, 3) and d_final == (5, 3)
    with_ships = expected_losses(attack, defence)
    without = expected_losses(SideDice(troops=3), SideDice(troops=2))
    assert with_ships != without and sum(p for _, p in battle_losses(attack, defence)) == 1


@pytest.mark.parametrize(("a", "d"), [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)])
def test_plain_d6_agrees_with_the_core_odds(a: int, d: int) -> None:
    """CW-24 / CORE-15: with no ship the exact losses are the core's."""
    core = battle(a, d)
    assert expected_losses(SideDice(troops=a), SideDice(troops=d)) == (
        core.attacker_losses,
        core.defender_losses,
    )


def test_every_mix_is_a_distribution() -> None:
    """Exact odds for every mix of d6, d8 and modifiers: 99 attacking and 35 defending sides
    (ships beyond the dice collapse; 13 on Palpatine's planet, all d8); each distribution
    sums to 1 (one in five checked)."""
    attacks, defences = list(every_mix(3)), list(every_mix(2))
    assert (len(attacks), len(defences), len(list(every_mix(2, palpatine=True)))) == (99, 35, 13)
    for i, side in enumerate(attacks + defences):
        if i % 5 == 0:
            assert sum(p for _, p in face_distribution(side)) == 1
    strong = expected_losses(
        SideDice(troops=3, capital=3, fighters=3, corvettes=3), SideDice(troops=2)
    )
    plain = expected_losses(SideDice(troops=3), SideDice(troops=2))
    assert strong[1] > plain[1] and strong[0] < plain[0]


def test_throws_are_deterministic() -> None:
    """ENG-01: the same seed throws the same faces."""
    side = SideDice(troops=3, capital=2, fighters=2, corvettes=1)
    assert throw_side(Rng(42), side) == throw_side(Rng(42), side)
