"""Dice of any size with modifiers (``risk_core.dice``, ``Rng.roll``) and their exact odds.

The generator draws any die without bias and from the same counter as ``die()`` (ENG-01), a
script comes first (ENG-04); a side's throw follows the order documented in ``risk_core.dice``;
the odds of a battle (CORE-14..16) are exact, checked against known values and brute force;
the luck report uses the dice each battle recorded.
"""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest
from gamekit import position

from risk_cli.render import Names, event_line
from risk_core import views
from risk_core.dice import (
    DiceSpec,
    battle_odds,
    check,
    d6,
    final_faces,
    loss_distribution,
    throw,
    throw_battle,
)
from risk_core.model import BattleFought
from risk_core.rng import Rng
from risk_core.rulesets import get as get_ruleset
from risk_service.luck import luck_report, odds


def scripted(*faces: int) -> Rng:
    return Rng(1, 0, list(faces))


# --------------------------------------------------------------------------- Rng.roll
def test_roll_is_unbiased_over_its_range() -> None:
    """ENG-01: any die comes by rejection sampling; each d8 face ~1/8 over many rolls."""
    r = Rng(5)
    counts = Counter(r.roll(8) for _ in range(80_000))
    assert set(counts) == set(range(1, 9))
    for n in counts.values():
        assert abs(n - 10_000) < 470  # 5 standard deviations (~93.5)


def test_roll_is_deterministic_and_validated() -> None:
    """ENG-01: same seed and counter, same faces; a die has 2..100 sides."""
    a, b = Rng(42, 17), Rng(42, 17)
    assert [a.roll(20) for _ in range(200)] == [b.roll(20) for _ in range(200)]
    assert a.counter == b.counter > 17
    d, e = Rng(9), Rng(9)
    assert [d.roll(100) for _ in range(300)] == [e.below(100) + 1 for _ in range(300)]
    assert {Rng(3, i).roll(2) for i in range(50)} == {1, 2}
    for bad in (0, 1, 101):
        with pytest.raises(ValueError):
            Rng(1).roll(bad)


def test_roll_takes_scripted_faces_first() -> None:
    """ENG-04: scripted faces come first, untouched counter, then the seeded stream."""
    r = scripted(3, 7)
    assert (r.roll(8), r.roll(8)) == (3, 7)
    assert (r.scripted, r.counter) == (2, 0)
    assert 1 <= r.roll(8) <= 8 and r.counter >= 1


def test_die_is_roll_six_from_the_same_counter() -> None:
    """ENG-01: ``die()`` (the fast path) and ``roll(6)`` read the stream identically."""
    for seed in (0, 1, 7, 2**63 + 5):
        a, b = Rng(seed, 11), Rng(seed, 11)
        assert [a.die() for _ in range(2000)] == [b.roll(6) for _ in range(2000)]
        assert a.counter == b.counter


# --------------------------------------------------------------------------- throw
def test_plain_d6_throw_is_todays_battle_roll() -> None:
    """CORE-15, ENG-01: plain d6 consumes the stream as ``sorted(rng.dice(n))`` always did."""
    for seed, n in product(range(40), (1, 2, 3)):
        old, new = Rng(seed, 3, [5]), Rng(seed, 3, [5])
        faces = old.dice(n)
        assert throw(new, d6(n)) == (tuple(faces), tuple(sorted(faces, reverse=True)))
        assert (new.counter, new.scripted) == (old.counter, old.scripted)


def test_modified_d6_draws_with_die() -> None:
    """ENG-01: a modified d6 still draws its first throw through ``die()``."""
    old, new = Rng(8), Rng(8)
    natural, final = throw(new, DiceSpec(count=3, plus=1))
    assert natural == tuple(old.dice(3)) and new.counter == old.counter
    assert final == tuple(sorted((min(f + 1, 6) for f in natural), reverse=True))


def test_rerolls_follow_the_first_throw_in_die_order() -> None:
    """ENG-02/ENG-04: all dice first, then each re-roll face once more, in die order; a
    re-rolled face stands even when it is a re-roll face again."""
    r = scripted(1, 4, 1, 1, 6, 2)
    assert throw(r, DiceSpec(count=3, reroll=(1,))) == ((1, 4, 1, 1, 6), (6, 4, 1))
    assert r.scripted == 5 and r.script[r.scripted] == 2
    # Re-rolls look at natural faces, before ``plus``: the 1 made 2 is not re-rolled.
    r = scripted(1, 3, 9)
    assert throw(r, DiceSpec(count=2, reroll=(2,), plus=1)) == ((1, 3), (4, 2))
    assert r.scripted == 2
    # ``plus`` applies to the re-rolled face.
    assert throw(scripted(1, 1), DiceSpec(count=1, reroll=(1,), plus=1)) == ((1, 1), (2,))


def test_plain_battle_is_todays_battle_roll() -> None:
    """ENG-02, CORE-15: plain d6 on both sides consumes the stream exactly as
    ``sorted(rng.dice(a))`` then ``sorted(rng.dice(d))`` always did."""
    for seed, a, d in product(range(30), (1, 2, 3), (1, 2)):
        old, new = Rng(seed, 3, [5, 2]), Rng(seed, 3, [5, 2])
        attack, defence = old.dice(a), old.dice(d)
        assert throw_battle(new, d6(a), d6(d)) == (
            (tuple(attack), tuple(sorted(attack, reverse=True))),
            (tuple(defence), tuple(sorted(defence, reverse=True))),
        )
        assert (new.counter, new.scripted) == (old.counter, old.scripted)
    with pytest.raises(ValueError):
        throw_battle(Rng(1), d6(0), d6(1))


def test_battle_draws_in_eng02_order() -> None:
    """ENG-02/ENG-04: attacker dice, defender dice, then the attacker's re-rolls in die order,
    then the defender's; each side records its first throw then its own re-rolls."""
    r = scripted(1, 5, 6, 2, 3, 4)
    attack, defence = DiceSpec(count=2, reroll=(1,)), d6(2)
    assert throw_battle(r, attack, defence) == (((1, 5, 3), (5, 3)), ((6, 2), (6, 2)))
    assert r.scripted == 5
    # Both sides re-roll: attacker 1 and 2 (die order), then the defender's 1.
    r = scripted(2, 6, 1, 1, 4, 5, 3, 6, 2)
    attack = DiceSpec(count=3, reroll=(1, 2))
    defence = DiceSpec(count=2, reroll=(1,), ranked=(2, 1), cap=False)
    (a_nat, a_fin), (d_nat, d_fin) = throw_battle(r, attack, defence)
    assert (a_nat, a_fin) == ((2, 6, 1, 5, 3), (6, 5, 3))
    assert (d_nat, d_fin) == ((1, 4, 6), (8, 5))
    assert r.scripted == 8
    assert final_faces(attack, a_nat) == a_fin and final_faces(defence, d_nat) == d_fin
    # A d8 side draws with ``roll`` at its place in the order, the d6 side with ``die``.
    old, new = Rng(4), Rng(4)
    spec = DiceSpec(count=2, sides=8, reroll=(1, 2, 3, 4))
    first = [old.roll(8), old.roll(8)]
    guard = old.dice(2)
    again = [old.roll(8) for f in first if f <= 4]
    (a_nat, _), (d_nat, _) = throw_battle(new, spec, d6(2))
    assert (a_nat, d_nat) == ((*first, *again), tuple(guard)) and new.counter == old.counter


def test_d6_is_cached_and_plain() -> None:
    """The hot path: ``d6(n)`` is one shared instance for 0..10 dice, and plain."""
    assert all(d6(n) is d6(n) and d6(n) == DiceSpec(count=n) and d6(n).plain for n in range(11))
    assert d6(12) == DiceSpec(count=12) and d6(12).plain
    assert DiceSpec(count=2, cap=False).plain
    for spec in (
        DiceSpec(count=2, sides=8),
        DiceSpec(count=2, reroll=(1,)),
        DiceSpec(count=2, plus=1),
        DiceSpec(count=2, ranked=(1,)),
        DiceSpec(count=2, keep=1),
    ):
        assert not spec.plain
    for bad in (DiceSpec(count=2, ranked=(1, -1)), DiceSpec(count=2, plus=-1), d6(0)):
        with pytest.raises(ValueError):
            check(bad)


def test_plus_ranked_and_keep() -> None:
    """CORE-15 with family modifiers: plus on every die, then ranked bonuses on the highest
    dice, capped at the top face, then only the best ``keep`` dice count."""
    assert throw(scripted(6, 2), DiceSpec(count=2, plus=1))[1] == (6, 3)
    assert throw(scripted(3, 5), DiceSpec(count=2, ranked=(1,)))[1] == (6, 3)
    assert throw(scripted(6, 6), DiceSpec(count=2, ranked=(1,)))[1] == (6, 6)
    assert throw(scripted(5, 4), DiceSpec(count=2, plus=1, ranked=(1,)))[1] == (6, 5)
    assert throw(scripted(2, 8, 1, 5), DiceSpec(count=4, sides=8, keep=3)) == (
        (2, 8, 1, 5),
        (8, 5, 2),
    )
    assert throw(scripted(7, 3), DiceSpec(count=2, sides=8, ranked=(2,), keep=1))[1] == (8,)
    # A bonus on a lower die may overtake the highest: the faces are sorted again.
    assert throw(scripted(5, 4), DiceSpec(count=2, ranked=(0, 2)))[1] == (6, 5)
    # More bonuses than dice: the extra ones are ignored.
    assert throw(scripted(3), DiceSpec(count=1, ranked=(2, 1)))[1] == (5,)


def test_fortification_and_generals_exceed_six() -> None:
    """NAP-ADV-34: fort +1 on the highest, cumulative with generals, on the natural highest
    dice, values above 6 kept (cap=False); ties still go to the defender (CORE-15)."""
    fort = DiceSpec(count=2, ranked=(1,), cap=False)
    general_fort = DiceSpec(count=2, ranked=(2,), cap=False)
    two_generals_fort = DiceSpec(count=2, ranked=(2, 1), cap=False)
    assert throw(scripted(6, 3), fort)[1] == (7, 3)
    assert throw(scripted(3, 6), general_fort)[1] == (8, 3)
    assert throw(scripted(5, 6), two_generals_fort)[1] == (8, 6)
    assert throw(scripted(6, 6), two_generals_fort)[1] == (8, 7)
    assert throw(scripted(4), DiceSpec(count=1, ranked=(2, 1), cap=False))[1] == (6,)
    # One die against a fort: the attacker needs 2 more than the defender, 10 of 36.
    assert loss_distribution(d6(1), DiceSpec(count=1, ranked=(1,), cap=False)) == (
        F(10, 36),
        F(26, 36),
    )
    # +1 on both sides: uncapped it is plain 1 against 1 (15 of 36 for the attacker); capped,
    # an attacker's 6 against a defender's 5 becomes a 6-6 tie (14 of 36).
    up = DiceSpec(count=1, ranked=(1,), cap=False)
    capped = DiceSpec(count=1, ranked=(1,))
    assert loss_distribution(up, up) == loss_distribution(d6(1), d6(1)) == (F(15, 36), F(21, 36))
    assert loss_distribution(capped, capped) == (F(14, 36), F(22, 36))


def test_final_faces_agrees_with_throw() -> None:
    """Audits (ENG-01): the final faces follow from the natural ones and the spec alone."""
    specs = [
        d6(3),
        DiceSpec(count=3, sides=8),
        DiceSpec(count=3, reroll=(1,), ranked=(1,)),
        DiceSpec(count=4, sides=8, reroll=(1, 2), plus=1, keep=3),
        DiceSpec(count=2, sides=20, plus=3, ranked=(2,)),
        DiceSpec(count=3, reroll=(1,), plus=1, ranked=(2, 1), cap=False),
    ]
    for spec, seed in product(specs, range(60)):
        natural, final = throw(Rng(seed), spec)
        assert final_faces(spec, natural) == final
        assert len(final) == spec.kept and list(final) == sorted(final, reverse=True)
    with pytest.raises(ValueError):
        final_faces(DiceSpec(count=2, reroll=(1,)), (1, 5))  # the re-roll is missing
    with pytest.raises(ValueError):
        final_faces(d6(2), (3, 4, 5))
    with pytest.raises(ValueError):
        throw(Rng(1), DiceSpec(count=2, reroll=(7,)))


# --------------------------------------------------------------------------- exact odds
def test_classic_three_against_two_is_exact() -> None:
    """CORE-15: 3 against 2 d6: defender loses 2 in 2890/7776, each 1 in 2611, attacker 2 in
    2275 (ties go to the defender)."""
    p = loss_distribution(d6(3), d6(2))
    assert p == (F(2890, 7776), F(2611, 7776), F(2275, 7776))
    o = battle_odds(d6(3), d6(2))
    assert o.attacker_mean == float(F(2 * 2275 + 2611, 7776))
    assert o.defender_mean == float(F(2 * 2890 + 2611, 7776))
    mean = F(2 * 2275 + 2611, 7776)
    assert o.attacker_variance == float(F(4 * 2275 + 2611, 7776) - mean**2)
    assert odds(3, 2) == o


def test_d8_one_against_one() -> None:
    """CORE-15 with d8: the attacker wins 28 of 64 throws (8 ties go to the defender)."""
    assert loss_distribution(DiceSpec(count=1, sides=8), DiceSpec(count=1, sides=8)) == (
        F(28, 64),
        F(36, 64),
    )


def _brute(spec: DiceSpec) -> dict[tuple[int, ...], F]:
    """Every script of natural faces, through ``throw`` itself: final faces → probability."""
    out: dict[tuple[int, ...], F] = {}
    faces = range(1, spec.sides + 1)
    for first in product(faces, repeat=spec.count):
        again = sum(f in spec.reroll for f in first)
        for extra in product(faces, repeat=again):
            r = scripted(*first, *extra)
            natural, final = throw(r, spec)
            assert natural == (*first, *extra) and r.scripted == len(natural)
            out[final] = out.get(final, F(0)) + F(1, spec.sides ** len(natural))
    return out


@pytest.mark.parametrize(
    ("attack", "defence"),
    [
        (DiceSpec(count=2, sides=4, reroll=(1,)), DiceSpec(count=1, sides=4, ranked=(1,))),
        (DiceSpec(count=3, sides=4, keep=2, plus=1), DiceSpec(count=2, sides=5, reroll=(1, 2))),
        (DiceSpec(count=2, reroll=(1,), plus=1, ranked=(1,)), d6(2)),
        (DiceSpec(count=3, sides=5, ranked=(2,), keep=2), DiceSpec(count=3, sides=3, keep=1)),
        (d6(3), DiceSpec(count=2, ranked=(2, 1), cap=False)),  # NAP-ADV-34
        (
            DiceSpec(count=3, sides=4, reroll=(1,), plus=1, ranked=(0, 3), cap=False, keep=2),
            DiceSpec(count=2, sides=4, ranked=(2, 1), cap=False),
        ),
    ],
)
def test_battle_odds_match_brute_force(attack: DiceSpec, defence: DiceSpec) -> None:
    """CORE-15 for any dice: the exact loss distribution equals raw enumeration of throws."""
    counts: dict[int, F] = {}
    for (a, pa), (d, pd) in product(_brute(attack).items(), _brute(defence).items()):
        k = sum(x <= y for x, y in zip(a, d, strict=False))
        counts[k] = counts.get(k, F(0)) + pa * pd
    pairs = min(attack.kept, defence.kept)
    expected = tuple(counts.get(k, F(0)) for k in range(pairs + 1))
    assert loss_distribution(attack, defence) == expected
    mean = sum((k * p for k, p in enumerate(expected)), F(0))
    variance = sum((k * k * p for k, p in enumerate(expected)), F(0)) - mean**2
    o = battle_odds(attack, defence)
    assert (o.attacker_mean, o.attacker_variance) == (float(mean), float(variance))
    assert (o.defender_mean, o.defender_variance) == (float(pairs - mean), float(variance))


def test_odds_are_fast_enough() -> None:
    """CORE-14: the largest family battle (4 d8 keep 3 against 2 d8) is priced at once."""
    start = time.perf_counter()
    o = battle_odds(DiceSpec(count=4, sides=8, keep=3), DiceSpec(count=2, sides=8, ranked=(1,)))
    assert time.perf_counter() - start < 3
    assert o.attacker_mean + o.defender_mean == pytest.approx(2)


# --------------------------------------------------------------------------- luck, log
def _d8_battle() -> tuple[list[object], BattleFought]:
    state, opening = position(
        phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5}
    )
    battle = BattleFought(
        seat=0,
        origin="alaska",
        target="kamchatka",
        defender=1,
        attack=(8, 6, 2),
        defence=(7, 3),
        attacker_losses=0,
        defender_losses=2,
        rng=state.rng + 5,
        attack_dice=DiceSpec(count=4, sides=8, keep=3),
        defence_dice=DiceSpec(count=2, sides=8),
        attack_natural=(2, 8, 1, 6),
        defence_natural=(3, 7),
    )
    return list(opening), battle


def test_luck_report_prices_a_d8_battle_exactly() -> None:
    """CORE-15 with d8: the expectation is the one of the dice recorded, not of 3 d6."""
    opening, battle = _d8_battle()
    report = luck_report("d8", [*opening, battle])  # type: ignore[list-item]
    # Raw enumeration: 4 d8 keeping 3 against 2 d8, the two highest pairs compared.
    lost = F(0)
    for throw_ in product(range(1, 9), repeat=6):
        a, d = sorted(throw_[:4], reverse=True), sorted(throw_[4:], reverse=True)
        lost += sum(x <= y for x, y in zip(a, d, strict=False))
    mean = lost / 8**6
    ann, bob = report.seats[0], report.seats[1]
    assert report.battles == 1 and (ann.attacks, bob.defences) == (1, 1)
    assert ann.expected_losses == float(mean) and bob.expected_losses == float(2 - mean)
    assert (ann.dice, bob.dice, ann.losses, bob.losses) == (4, 2, 0, 2)
    assert ann.expected_losses != pytest.approx(odds(3, 2).attacker_mean)


def test_battle_line_shows_natural_and_final_faces() -> None:
    """CORE-15 in the log: the die, the natural faces and the faces compared."""
    opening, battle = _d8_battle()
    board = get_ruleset("classic").board
    names = Names(board, [{"name": n, "colour": "red"} for n in ("Ann", "Bob", "Cy")])
    line = event_line(views.visible_event(battle, None), names)
    assert "d8 2-8-1-6 → 8-6-2 against d8 3-7 → 7-3;" in line
    plain = views.visible_event(battle, None)
    for key in ("attack_dice", "defence_dice", "attack_natural", "defence_natural"):
        del plain[key]
    assert "8-6-2 against 7-3;" in event_line(plain, names)
