"""Dice of any size with modifiers: what each side of a battle throws (CORE-14, rule families).

A :class:`DiceSpec` is data, recorded in the battle event whenever it differs from plain d6, so
the log, the luck report and an audit can explain every result from the events alone: the
natural faces come from the seeded stream, the final faces follow from the spec.

How a battle consumes the stream (:func:`throw_battle`; ENG-02, with ENG-04 scripts): the
attacker's ``count`` dice (die 1 to die ``count``), then the defender's ``count`` dice, then
the attacker's re-rolls, then the defender's.  A side re-rolls, once and in die order, each die
whose first natural face is in its ``reroll`` (a re-rolled face stands, even if it is a re-roll
face again).  Each side's natural faces are recorded as its first throw followed by its
re-rolls, so :func:`final_faces` recomputes a side from its own record alone.  d6 dice are
drawn with ``Rng.die()``, other dice with ``Rng.roll(sides)``: plain d6 consumes exactly what
``sorted(rng.dice(a))`` then ``sorted(rng.dice(d))`` always did.

:func:`battle_odds` gives the exact mean and variance of each side's losses for any two specs
(CORE-15: highest against highest, ties to the defender), enumerating sorted outcomes
(multisets with multinomial weights) over the exact per-die distribution; modified faces may
exceed ``sides`` (``cap=False``) and stay exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import combinations_with_replacement, product
from math import factorial
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # imported where odds are computed: every command imports this module
    from fractions import Fraction

import msgspec

from risk_core.errors import RuleError
from risk_core.rng import Rng

Faces = tuple[int, ...]
MAX_SIDES = 100  # the largest die the engine throws (``Rng.roll``)


class DiceSpec(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """``count`` dice of ``sides`` faces and what is done to them, in this order:

    1. ``reroll``: a die whose natural face is one of these is thrown again, once;
    2. ``plus``: added to every die;
    3. ``ranked``: ``ranked[0]`` added to the highest die, ``ranked[1]`` to the second
       highest, ... (ranked by the faces after steps 1-2, i.e. the natural highest dice;
       entries beyond ``count`` are ignored).  NAP-ADV-34, 2 generals and a fort: ``(2, 1)``;
    4. ``cap``: when True every face is capped at ``sides`` (with non-negative modifiers, the
       same as capping after each addition); ``cap=False`` lets faces exceed ``sides``;
    5. sort best first; ``keep``: only the best ``keep`` dice count (0: all of them).  Ranked
       bonuses come before ``keep``; with ``len(ranked) <= keep`` this gives the same faces as
       keeping first (R08-CC-17), since the dropped dice are the lowest and get no bonus.
    """

    count: int
    sides: int = 6
    reroll: tuple[int, ...] = ()
    plus: int = 0
    ranked: tuple[int, ...] = ()
    cap: bool = True
    keep: int = 0

    @property
    def plain(self) -> bool:
        """Plain d6 with no modifier: the battle event then records only the final faces."""
        return self.sides == 6 and not (self.reroll or self.plus or self.ranked or self.keep)

    @property
    def kept(self) -> int:
        """How many dice count once ``keep`` is applied."""
        return min(self.keep, self.count) if self.keep else self.count


_D6 = tuple(DiceSpec(count=n) for n in range(11))


def d6(count: int) -> DiceSpec:
    """``count`` plain d6: a shared instance for 0..10 dice (the battle's hot path)."""
    return _D6[count] if 0 <= count <= 10 else DiceSpec(count=count)


# --------------------------------------------------------------------------- throwing
def check(spec: DiceSpec) -> None:
    """Raises ``ValueError`` unless ``spec`` is a throwable die: 1+ dice of 2..100 sides,
    re-roll faces on the die, non-negative modifiers and keep."""
    if spec.count < 1 or not 2 <= spec.sides <= MAX_SIDES:
        raise ValueError(f"bad dice: {spec.count} dice of {spec.sides} sides")
    if any(not 1 <= f <= spec.sides for f in spec.reroll):
        raise ValueError(f"bad dice: re-roll faces {spec.reroll} on a d{spec.sides}")
    if min(spec.plus, spec.keep, *spec.ranked) < 0:
        raise ValueError("bad dice: negative modifier or keep")


def throw_battle(
    rng: Rng, attack: DiceSpec, defence: DiceSpec
) -> tuple[tuple[Faces, Faces], tuple[Faces, Faces]]:
    """Both sides' dice in ENG-02 order: ((attack natural, attack final), (defence natural,
    defence final)); natural faces are a side's first throw then its re-rolls, final faces
    best first.  Raises ``ValueError`` for a bad spec (:func:`check`)."""
    if attack.plain and defence.plain:  # the hot path: one draw per die, nothing else
        if attack.count < 1 or defence.count < 1:
            raise ValueError(f"bad dice: {attack.count} against {defence.count} d6")
        a, d = tuple(rng.dice(attack.count)), tuple(rng.dice(defence.count))
        return (a, tuple(sorted(a, reverse=True))), (d, tuple(sorted(d, reverse=True)))
    check(attack)
    check(defence)
    a_draw, d_draw = _drawer(rng, attack), _drawer(rng, defence)
    a_first = [a_draw() for _ in range(attack.count)]
    d_first = [d_draw() for _ in range(defence.count)]
    a_natural = (*a_first, *(a_draw() for face in a_first if face in attack.reroll))
    d_natural = (*d_first, *(d_draw() for face in d_first if face in defence.reroll))
    return (
        (a_natural, _final(attack, a_natural)),
        (d_natural, _final(defence, d_natural)),
    )


def throw(rng: Rng, spec: DiceSpec) -> tuple[Faces, Faces]:
    """One side's dice alone: (natural faces, re-rolls last; final faces, best first).

    A battle draws both sides with :func:`throw_battle` (ENG-02); this is the same draw for one
    side (a battle where only it has re-rolls, or a roll outside battle).  Plain d6 draws as
    ``sorted(rng.dice(count), reverse=True)``.  Raises ``ValueError`` for a bad spec.
    """
    check(spec)
    draw = _drawer(rng, spec)
    first = [draw() for _ in range(spec.count)]
    natural = (*first, *(draw() for face in first if face in spec.reroll))
    return natural, _final(spec, natural)


def _drawer(rng: Rng, spec: DiceSpec) -> Callable[[], int]:
    return rng.die if spec.sides == 6 else partial(rng.roll, spec.sides)


def final_faces(spec: DiceSpec, natural: Sequence[int]) -> Faces:
    """The faces compared, best first, from one side's natural faces as recorded.

    Raises ``ValueError`` for a bad spec, or when ``natural`` does not hold one face per die
    plus one per re-roll.
    """
    check(spec)
    return _final(spec, natural)


def _final(spec: DiceSpec, natural: Sequence[int]) -> Faces:
    faces = list(natural[: spec.count])
    rerolled = [i for i, face in enumerate(faces) if face in spec.reroll]
    if len(faces) < spec.count or len(natural) != spec.count + len(rerolled):
        raise ValueError(f"{len(natural)} natural faces do not fit {spec}")
    for i, face in zip(rerolled, natural[spec.count :], strict=True):
        faces[i] = face
    return _finish(spec, faces)


def _finish(spec: DiceSpec, faces: list[int]) -> Faces:
    """Steps 2-5 of the modifiers on the faces left after re-rolls (``faces`` is consumed)."""
    if spec.plus:
        faces = [face + spec.plus for face in faces]
    faces.sort(reverse=True)
    for i, bonus in enumerate(spec.ranked[: len(faces)]):
        faces[i] += bonus
    if spec.cap and (spec.plus or spec.ranked):
        faces = [min(face, spec.sides) for face in faces]
    if spec.ranked:
        faces.sort(reverse=True)
    return tuple(faces[: spec.kept])


# --------------------------------------------------------------------------- recorded dice
class RecordedBattle(Protocol):
    """What :func:`check_faces` reads of a battle event (``risk_core.model.BattleFought``)."""

    @property
    def attack(self) -> Faces: ...
    @property
    def defence(self) -> Faces: ...
    @property
    def attack_dice(self) -> DiceSpec | msgspec.UnsetType: ...
    @property
    def defence_dice(self) -> DiceSpec | msgspec.UnsetType: ...
    @property
    def attack_natural(self) -> Faces | msgspec.UnsetType: ...
    @property
    def defence_natural(self) -> Faces | msgspec.UnsetType: ...


# Every throw of 1 to 3 plain d6, in any order: a plain battle's faces are checked by look-up.
_D6_THROWS = frozenset(t for n in (1, 2, 3) for t in product(range(1, 7), repeat=n))
_UNSET = msgspec.UNSET  # a global: one look-up fewer on the hot path


def check_faces(battle: RecordedBattle) -> None:
    """Raises ``RuleError("bad_history")`` unless each side's recorded faces are a throw its
    dice can give: plain d6 (no spec recorded) show 1 to 6; a recorded spec is throwable
    (:func:`check`), its natural faces are on the die and its final faces follow from them
    (:func:`final_faces`).  Replay's hot path (1 to 3 plain d6 a side) is two set look-ups."""
    if (
        battle.attack_dice is _UNSET is battle.defence_dice
        and battle.attack in _D6_THROWS
        and battle.defence in _D6_THROWS
    ):
        return
    _check_side("attack", battle.attack, battle.attack_dice, battle.attack_natural)
    _check_side("defence", battle.defence, battle.defence_dice, battle.defence_natural)


def _check_side(
    side: str,
    faces: Faces,
    spec: DiceSpec | msgspec.UnsetType,
    natural: Faces | msgspec.UnsetType,
) -> None:
    try:
        if isinstance(spec, msgspec.UnsetType):
            if not faces or not all(1 <= face <= 6 for face in faces):
                raise ValueError("plain d6 show 1 to 6")
            return
        if isinstance(natural, msgspec.UnsetType):
            raise ValueError(f"no natural faces recorded for {spec}")
        if not all(1 <= face <= spec.sides for face in natural):
            raise ValueError(f"natural faces {_text(natural)} are not all on a d{spec.sides}")
        if final_faces(spec, natural) != tuple(faces):
            raise ValueError(f"natural faces {_text(natural)} do not give them with {spec}")
    except ValueError as e:
        raise RuleError(
            "bad_history", f"A battle records {side} dice {_text(faces)} no die can throw: {e}."
        ) from None


def _text(faces: Sequence[int]) -> str:
    return "-".join(map(str, faces)) or "none"


# --------------------------------------------------------------------------- exact odds
class Odds(msgspec.Struct, frozen=True):
    """Exact expectations of one battle: mean and variance of each side's losses."""

    attacker_mean: float
    attacker_variance: float
    defender_mean: float
    defender_variance: float


@cache
def battle_odds(attack: DiceSpec, defence: DiceSpec) -> Odds:
    """Mean and variance of each side's losses, from :func:`loss_distribution` (exact)."""
    from fractions import Fraction

    p = loss_distribution(attack, defence)
    mean = sum((k * q for k, q in enumerate(p)), Fraction(0))
    variance = sum((k * k * q for k, q in enumerate(p)), Fraction(0)) - mean * mean
    pairs = len(p) - 1  # the two sides lose ``pairs`` armies together
    return Odds(float(mean), float(variance), float(pairs - mean), float(variance))


@cache
def loss_distribution(attack: DiceSpec, defence: DiceSpec) -> tuple[Fraction, ...]:
    """``p[k]``: the exact probability that the attacker loses ``k`` of the ``min(kept)``
    comparisons (CORE-15: highest against highest, ties go to the defender)."""
    pairs = min(attack.kept, defence.kept)
    thrown = _outcomes(attack, pairs)
    held = _outcomes(defence, pairs)
    counts = [0] * (pairs + 1)
    for a, wa in thrown:
        for d, wd in held:
            counts[sum(x <= y for x, y in zip(a, d, strict=True))] += wa * wd
    total = sum(counts)
    from fractions import Fraction

    return tuple(Fraction(c, total) for c in counts)


@cache
def _outcomes(spec: DiceSpec, top: int) -> tuple[tuple[Faces, int], ...]:
    """The best ``top`` final faces of ``spec`` with their integer weights (sum ``s**(2n)``):
    every multiset of faces after re-rolls, weighted by its multinomial count."""
    check(spec)
    weight = _die_weights(spec)
    out: Counter[Faces] = Counter()
    for combo in combinations_with_replacement(range(spec.sides, 0, -1), spec.count):
        w = factorial(spec.count)
        for face, m in Counter(combo).items():
            w = w // factorial(m) * weight[face] ** m
        if w:
            out[_finish(spec, list(combo))[:top]] += w
    return tuple(out.items())


def _die_weights(spec: DiceSpec) -> dict[int, int]:
    """One die's face after its re-roll, as weights over ``sides**2`` equally likely pairs."""
    s, again = spec.sides, len(set(spec.reroll))
    return {f: (0 if f in spec.reroll else s) + again for f in range(1, s + 1)}
