"""Clone Wars battle dice with ship support (rulebook 002, CW-24..28): throwing and exact odds.

A building block of the faction game (``clonewars``): one side of a battle commits 1–3
(attack) or 1–2 (defence) troops, one die each, and the ships on its planet support those dice
(002 l.395-420), in the rulebook's order (CW-27):

1. one d6 per troop committed;
2. each capital ship turns one d6 into a d8 (CW-25);
3. the side throws;
4. each fighter re-rolls one "1" until it shows something else (CW-26);
5. each corvette adds +1 to one die, the highest first, never +2 on one die (CW-26).

No ship ever adds a die: at most as many capital ships, fighters and corvettes count as dice are
thrown (``SideDice.effective``).  On the planet of Emperor Palpatine every defence die is a d8,
with or without ships (CW-28, ``all_d8``).  Two readings the rulebook leaves open, fixed here
because one choice is never worse for the side that makes it: every ship present supports the
battle (none is ever a disadvantage; the option ship_support=chosen lets each side name fewer,
``CloneWars.supporting``), and when more dice show "1" than there are fighters, the d8s are
re-rolled first (a re-rolled d8 averages 5, a d6 4).  A corvette's +1 is not capped: a
6 becomes 7.

:func:`throw_side` consumes a :class:`~risk_core.rng.Rng` deterministically (the d8s first, then
the d6s, then each re-roll as it happens); :func:`face_distribution` and :func:`battle_losses`
give the exact distribution of a side's sorted faces and of both sides' losses, for every mix.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import product

import msgspec

from risk_core.rng import Rng

Faces = tuple[int, ...]
MAX_ATTACK_DICE, MAX_DEFENCE_DICE = 3, 2  # CW-24: 1-3 attacking troops, 1-2 defending


class SideDice(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What one side throws: ``troops`` dice and the ships supporting them (CW-25/26/28)."""

    troops: int
    capital: int = 0
    fighters: int = 0
    corvettes: int = 0
    all_d8: bool = False  # CW-28: the defence of Palpatine's planet

    @property
    def effective(self) -> SideDice:
        """The same side with no ship counting beyond the dice thrown (never more dice than
        troops committed, never +2 on one die)."""
        n = self.troops
        return SideDice(
            troops=n,
            capital=n if self.all_d8 else min(self.capital, n),
            fighters=min(self.fighters, n),
            corvettes=min(self.corvettes, n),
            all_d8=self.all_d8,
        )

    @property
    def sides(self) -> tuple[int, ...]:
        """Each die's number of faces, d8s first (CW-25)."""
        eff = self.effective
        return (8,) * eff.capital + (6,) * (eff.troops - eff.capital)


def _finish(side: SideDice, faces: list[int]) -> Faces:
    """Step 5: +1 on the ``corvettes`` highest dice, then best first."""
    ordered = sorted(faces, reverse=True)
    for i in range(side.effective.corvettes):
        ordered[i] += 1
    return tuple(sorted(ordered, reverse=True))


def _rerolled(side: SideDice, faces: Faces) -> list[int]:
    """Which dice a fighter re-rolls: those showing 1, d8s first, at most one per fighter."""
    ones = [i for i, f in enumerate(faces) if f == 1]  # d8s come first in ``sides``
    return ones[: side.effective.fighters]


def throw_side(rng: Rng, side: SideDice) -> tuple[Faces, Faces]:
    """Throw ``side``'s dice: (natural faces, re-rolls included in the order drawn; final
    faces, best first).  Raises ``ValueError`` for no dice."""
    sides = side.sides
    if not sides:
        raise ValueError("bad dice: no troop committed")
    first = tuple(rng.roll(s) for s in sides)  # roll(6) draws as die(): one stream
    natural, faces = list(first), list(first)
    for i in _rerolled(side, first):
        face = 1
        while face == 1:  # CW-26: "relancés jusqu'à ce qu'ils fassent un autre chiffre"
            face = rng.roll(sides[i])
            natural.append(face)
        faces[i] = face
    return tuple(natural), _finish(side, faces)


@cache
def face_distribution(side: SideDice) -> tuple[tuple[Faces, Fraction], ...]:
    """Exact distribution of ``side``'s final faces (best first): each outcome once."""
    sides = side.sides
    out: dict[Faces, Fraction] = {}
    weight = Fraction(1, 1)
    for s in sides:
        weight /= s
    for first in product(*(range(1, s + 1) for s in sides)):
        redo = _rerolled(side, first)
        # A re-rolled die ends uniform on 2..sides (re-thrown until it is not a 1).
        choices = [range(2, sides[i] + 1) if i in redo else (first[i],) for i in range(len(sides))]
        share = weight
        for i in redo:
            share /= sides[i] - 1
        for faces in product(*choices):
            key = _finish(side, list(faces))
            out[key] = out.get(key, Fraction(0)) + share
    return tuple(sorted(out.items()))


def _losses(attack: Faces, defence: Faces) -> tuple[int, int]:
    """CW-24 / CORE-15: best against best, then next; ties to the defender."""
    a_lost = d_lost = 0
    for a, d in zip(attack, defence, strict=False):
        if a > d:
            d_lost += 1
        else:
            a_lost += 1
    return a_lost, d_lost


@cache
def battle_losses(
    attack: SideDice, defence: SideDice
) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """Exact distribution of (attacker losses, defender losses) for one battle."""
    out: dict[tuple[int, int], Fraction] = {}
    for a_faces, pa in face_distribution(attack):
        for d_faces, pd in face_distribution(defence):
            key = _losses(a_faces, d_faces)
            out[key] = out.get(key, Fraction(0)) + pa * pd
    return tuple(sorted(out.items()))


def expected_losses(attack: SideDice, defence: SideDice) -> tuple[Fraction, Fraction]:
    """Exact expected (attacker, defender) losses of one battle."""
    dist = battle_losses(attack, defence)
    return (
        sum((p * a for (a, _), p in dist), Fraction(0)),
        sum((p * d for (_, d), p in dist), Fraction(0)),
    )


def every_mix(max_dice: int, palpatine: bool = False) -> Iterator[SideDice]:
    """Every distinct side of up to ``max_dice`` dice and 0–3 ships of each class (ships
    beyond the dice collapse onto the same effective side)."""
    seen: set[SideDice] = set()
    for n in range(1, max_dice + 1):
        for cap, fig, cor in product(range(n + 1), repeat=3):
            side = SideDice(
                troops=n, capital=cap, fighters=fig, corvettes=cor, all_d8=palpatine
            ).effective
            if side not in seen:
                seen.add(side)
                yield side


def throw_battle_sides(
    rng: Rng, attack: SideDice, defence: SideDice
) -> tuple[tuple[Faces, Faces], tuple[Faces, Faces]]:
    """Both sides of one battle in ENG-02 order: the attacker's dice (d8s first), then the
    defender's, then the attacker's fighter re-rolls, then the defender's (CW-26 step 4).
    Returns ((attack natural, attack final), (defence natural, defence final)); a side's
    natural faces are its first throw followed by its re-rolls as drawn.  Raises
    ``ValueError`` for a side with no dice."""
    a_sides, d_sides = attack.sides, defence.sides
    if not a_sides or not d_sides:
        raise ValueError("bad dice: no troop committed")
    a_first = tuple(rng.roll(s) for s in a_sides)
    d_first = tuple(rng.roll(s) for s in d_sides)
    out = []
    for side, sides, first in ((attack, a_sides, a_first), (defence, d_sides, d_first)):
        natural, faces = list(first), list(first)
        for i in _rerolled(side, first):
            face = 1
            while face == 1:  # CW-26: re-thrown until it shows another number
                face = rng.roll(sides[i])
                natural.append(face)
            faces[i] = face
        out.append((tuple(natural), _finish(side, faces)))
    return out[0], out[1]
