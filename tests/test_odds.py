"""Exact attack odds (``risk_core.odds``, CORE-14..16) against values computed here by brute
force: every face of every die of a battle, and every battle of an attack until conquest."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

import risk_core as rc
from risk_core.dice import DiceSpec
from risk_core.odds import assault, battle, game_dice
from risk_core.scenario import parse_scenario, scenario_opening


def brute_battle(a: int, d: int, a_sides: int = 6, d_sides: int = 6) -> dict[int, Fraction]:
    """Attacker losses → probability, over every throw (CORE-15: ties to the defender)."""
    counts: dict[int, int] = {}
    total = 0
    for faces in product(range(1, max(a_sides, d_sides) + 1), repeat=a + d):
        if any(f > a_sides for f in faces[:a]) or any(f > d_sides for f in faces[a:]):
            continue
        att, dfn = sorted(faces[:a], reverse=True), sorted(faces[a:], reverse=True)
        lost = sum(x <= y for x, y in zip(att, dfn, strict=False))
        counts[lost] = counts.get(lost, 0) + 1
        total += 1
    return {k: Fraction(c, total) for k, c in counts.items()}


@cache
def brute_ends(
    a: int, d: int, dice: int, stop: int, first: bool = True
) -> dict[tuple[int, int], Fraction]:
    """Every end of attacking (a, d) until conquest or ``stop``, battle by battle (the first
    battle always fought, as ``RuleSet.fight`` does)."""
    if not first and (d == 0 or a <= max(stop, 1)):
        return {(a, d): Fraction(1)}
    out: dict[tuple[int, int], Fraction] = {}
    a_dice, d_dice = min(dice, a - 1), min(2, d)
    pairs = min(a_dice, d_dice)
    for lost, p in brute_battle(a_dice, d_dice).items():
        for end, q in brute_ends(a - lost, d - (pairs - lost), dice, stop, False).items():
            out[end] = out.get(end, Fraction(0)) + p * q
    return out


@pytest.mark.parametrize(("a", "d"), [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)])
def test_one_battle_is_the_enumeration_of_every_throw(a: int, d: int) -> None:
    """CORE-14..16: each comparison's loser loses one army, ties to the defender."""
    fight = battle(a, d)
    expected = brute_battle(a, d)
    assert {k: p for k, p in enumerate(fight.losses) if p} == expected
    assert fight.attacker_losses == sum(k * p for k, p in expected.items())
    assert fight.attacker_losses + fight.defender_losses == min(a, d)


def test_the_classic_three_against_two_numbers() -> None:
    """The well-known 3 v 2 figures: 2890/7776 defender loses 2, 2611/7776 one each."""
    assert battle(3, 2).losses == (
        Fraction(2890, 7776),
        Fraction(2611, 7776),
        Fraction(2275, 7776),
    )


@pytest.mark.parametrize(
    ("a", "d", "dice", "stop"),
    [(2, 1, 3, 1), (3, 2, 3, 1), (4, 3, 3, 1), (5, 3, 2, 2), (3, 2, 1, 5)],
)
def test_until_conquest_is_the_recursion_over_every_battle(
    a: int, d: int, dice: int, stop: int
) -> None:
    """CORE-14..16 repeated: min(dice, a-1) against min(2, d) until d = 0 or a <= stop."""
    ends = brute_ends(a, d, dice, stop)
    got = assault(a, d, dice=dice, stop_at=stop)
    assert got.outcomes == ends
    assert sum(got.outcomes.values()) == 1
    assert got.conquest == sum(p for (_, left), p in ends.items() if left == 0)
    assert got.attacker_losses == sum((a - x) * p for (x, _), p in ends.items())
    assert got.defender_losses == sum((d - y) * p for (_, y), p in ends.items())


def test_small_cases_by_hand() -> None:
    """2 v 1: one battle of 1 die against 1, won 15/36; 3 v 2 conquered 235/648."""
    assert assault(2, 1).conquest == Fraction(15, 36)
    assert assault(3, 2).conquest == Fraction(235, 648)


def test_no_attack_is_refused() -> None:
    for a, d in ((1, 3), (4, 0)):
        with pytest.raises(ValueError):
            assault(a, d)


def test_a_family_die_comes_from_the_rule_set_hooks() -> None:
    """``game_dice`` asks the game's rule set: toy-d8 attackers throw d8 (CORE-14 counts)."""
    text = """
ruleset = "toy-d8"
players = ["Ann", "Bob"]
seed = 5
current = "Ann"
phase = "attack"
[territories]
fjord = { owner = "Ann", armies = 3 }
glacier = { owner = "Ann", armies = 2 }
tundra = { owner = "Ann", armies = 2 }
harbour = { owner = "Ann", armies = 2 }
market = { owner = "Ann", armies = 2 }
mill = { owner = "Bob", armies = 2 }
meadow = { owner = "Bob", armies = 2 }
dune = { owner = "Bob", armies = 2 }
oasis = { owner = "Bob", armies = 2 }
reef = { owner = "Bob", armies = 2 }
"""
    _, _, events = scenario_opening(parse_scenario(text.encode(), "toml"))
    state = rc.replay(events)
    rules = rc.ruleset_of(state)
    o, t = rules.board.find("fjord"), rules.board.find("mill")
    specs = game_dice(rules, state, o, t, 2)
    assert specs(2, 2) == (DiceSpec(count=2, sides=8), DiceSpec(count=2))
    fight = battle(2, 2, specs)
    assert {k: p for k, p in enumerate(fight.losses) if p} == brute_battle(2, 2, a_sides=8)
