"""Exact attack odds from the dice rules (CORE-14..16), never from simulation.

:func:`battle` is one battle: the exact distribution of the attacker's losses over the
comparisons (CORE-15: highest against highest, ties to the defender; CORE-16: each comparison
costs its loser one army), from :func:`risk_core.dice.loss_distribution`, so any die kind or
modifier a rule family's ``DiceSpec`` describes is exact too.

:func:`assault` is attacking until the target falls or the attacker is down to ``stop_at``,
as ``RuleSet.fight`` runs an ``until="conquer"`` order: a Markov chain over (attacker armies,
defender armies) where each battle throws ``min(dice, a - 1)`` attack dice (CORE-14) against
``min(defence_max, d)`` defence dice (the most allowed, CORE-15), the first battle always fought.
Probabilities are kept as exact fractions.

:func:`game_dice` gives the dice of a rule set for one attack in a game position, through its
``attack_dice``/``defence_dice`` hooks (the battle's losses are CORE-15's comparison).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from risk_core.dice import DiceSpec, d6, loss_distribution
from risk_core.model import GameState, PendingAttack
from risk_core.rulesets.base import RuleSet

# The dice of one battle: (attack dice, defence dice) thrown → (attack spec, defence spec).
Dice = Callable[[int, int], tuple[DiceSpec, DiceSpec]]
MAX_ARMIES = 300  # the largest side :func:`assault` computes (~a*d states, exact fractions)


def classic_dice(attack: int, defence: int) -> tuple[DiceSpec, DiceSpec]:
    """Plain d6 on both sides (CORE-14)."""
    return d6(attack), d6(defence)


def game_dice(rules: RuleSet, state: GameState, origin: int, target: int, dice: int) -> Dice:
    """The dice ``rules`` gives each side when the current seat attacks ``target`` from
    ``origin`` with up to ``dice`` dice: its ``attack_dice``/``defence_dice`` hooks, called with
    the order ``RuleSet.launch`` would build (CORE-14/15 and any family modifier), on the
    position that launch would leave (``RuleSet.odds_position``)."""
    state = rules.odds_position(state, origin, target)
    order = PendingAttack(
        defender=rules.defender_of(state, target),
        origin=origin,
        target=target,
        dice=dice,
        until="conquer",
        stop_at=1,
        move=None,
    )

    def specs(attack: int, defence: int) -> tuple[DiceSpec, DiceSpec]:
        return rules.attack_dice(state, order, attack), rules.defence_dice(state, order, defence)

    return specs


@dataclass(frozen=True)
class Battle:
    """One battle of ``attack`` dice against ``defence`` dice (CORE-14..16).

    ``losses[k]`` is the probability that the attacker loses ``k`` armies and the defender
    ``pairs - k`` (``pairs = len(losses) - 1`` comparisons).
    """

    attack: int
    defence: int
    losses: tuple[Fraction, ...]

    @property
    def pairs(self) -> int:
        return len(self.losses) - 1

    @property
    def attacker_losses(self) -> Fraction:
        """The attacker's expected losses."""
        return sum((k * p for k, p in enumerate(self.losses)), Fraction(0))

    @property
    def defender_losses(self) -> Fraction:
        """The defender's expected losses."""
        return self.pairs - self.attacker_losses


def battle(attack: int, defence: int, dice: Dice = classic_dice) -> Battle:
    """The exact odds of one battle; ``ValueError`` for fewer than one die a side."""
    if attack < 1 or defence < 1:
        raise ValueError(f"a battle needs a die a side, not {attack} against {defence}")
    return Battle(attack, defence, loss_distribution(*dice(attack, defence)))


@dataclass(frozen=True)
class Assault:
    """Attacking ``attackers`` armies against ``defenders`` until conquest or ``stop_at``.

    ``outcomes`` maps each end (armies left in the origin, armies left in the target: 0 when
    conquered, before any armies move in) to its exact probability; they sum to 1.
    """

    attackers: int
    defenders: int
    dice: int
    stop_at: int
    outcomes: dict[tuple[int, int], Fraction]

    @property
    def conquest(self) -> Fraction:
        """The chance the target falls."""
        return sum((p for (_, d), p in self.outcomes.items() if d == 0), Fraction(0))

    @property
    def attacker_losses(self) -> Fraction:
        """The attacker's expected losses."""
        left = sum((a * p for (a, _), p in self.outcomes.items()), Fraction(0))
        return self.attackers - left

    @property
    def defender_losses(self) -> Fraction:
        """The defender's expected losses."""
        left = sum((d * p for (_, d), p in self.outcomes.items()), Fraction(0))
        return self.defenders - left


def assault(
    attackers: int,
    defenders: int,
    *,
    dice: int = 3,
    stop_at: int = 1,
    defence_max: int = 2,
    specs: Dice = classic_dice,
) -> Assault:
    """The exact end of an ``until="conquer"`` attack order (CORE-14..16, ``RuleSet.fight``).

    Each battle at (a, d) throws ``min(dice, a - 1)`` against ``min(defence_max, d)`` dice;
    after it the order stops when the target is empty or the origin holds ``max(stop_at, 1)``
    or fewer armies.  Every battle lowers a + d, so the chain is folded forward by a + d.
    Raises ``ValueError`` when no attack is possible (fewer than 2 attackers, no defender, no
    die) or a side exceeds ``MAX_ARMIES``.
    """
    if attackers < 2 or defenders < 1 or dice < 1 or defence_max < 1:
        raise ValueError(f"no attack: {attackers} armies against {defenders}, {dice} dice")
    if max(attackers, defenders) > MAX_ARMIES:
        raise ValueError(f"at most {MAX_ARMIES} armies a side")
    stop = max(stop_at, 1)
    live: defaultdict[int, dict[tuple[int, int], Fraction]] = defaultdict(dict)
    live[attackers + defenders][(attackers, defenders)] = Fraction(1)
    ends: dict[tuple[int, int], Fraction] = {}
    for total in range(attackers + defenders, 0, -1):
        for (a, d), p in live.pop(total, {}).items():
            fight = battle(min(dice, a - 1), min(defence_max, d), specs)
            for lost, q in enumerate(fight.losses):
                if not q:
                    continue
                nxt = (a - lost, d - (fight.pairs - lost))
                bucket = ends if nxt[1] == 0 or nxt[0] <= stop else live[sum(nxt)]
                bucket[nxt] = bucket.get(nxt, Fraction(0)) + p * q
    return Assault(attackers, defenders, dice, stop_at, ends)
