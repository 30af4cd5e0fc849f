"""Luck report: how each seat's battles went against the exact dice odds.

For every battle fought with ``a`` attack dice against ``d`` defence dice, the expected losses
of each side are exact: all ``6**(a+d)`` equally likely throws are enumerated once
(``ODDS``).  Per seat, over the battles its armies fought (as attacker or defender):

* ``losses`` — armies it actually lost; ``expected_losses`` — the sum of the expectations;
* ``luck = expected_losses - losses``: armies saved by the dice (negative: armies the dice
  cost).  In one battle the two sides lose ``min(a, d)`` armies together, so one seat's luck
  is its opponent's bad luck;
* ``z = luck / sqrt(sum of the variances of its losses)``: luck in standard deviations; about
  -2..2 for ordinary dice, far outside for loaded ones.

A battle is credited to the seats whose armies fought it: the owners of the origin and of the
target when it was fought (in classic-2p the ally's own armies, attacking or defending).
Battles with scripted faces (``scripted > 0``: what-if dice, ENG-04) are left out and counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from itertools import product

import msgspec

import risk_core
from risk_core import Event, GameState
from risk_core.model import BattleFought, GameStarted


class Odds(msgspec.Struct, frozen=True):
    """Exact expectations of one battle size: mean and variance of each side's losses."""

    attacker_mean: float
    attacker_variance: float
    defender_mean: float
    defender_variance: float


@cache
def odds(attack: int, defence: int) -> Odds:
    """Enumerate every throw of ``attack`` and ``defence`` dice (ties go to the defender)."""
    n = 6 ** (attack + defence)
    a_sum = a_sq = d_sum = d_sq = 0
    for throw in product(range(1, 7), repeat=attack + defence):
        att = sorted(throw[:attack], reverse=True)
        dfc = sorted(throw[attack:], reverse=True)
        a_loss = sum(1 for x, y in zip(att, dfc, strict=False) if x <= y)
        d_loss = min(attack, defence) - a_loss
        a_sum += a_loss
        a_sq += a_loss * a_loss
        d_sum += d_loss
        d_sq += d_loss * d_loss
    a_mean, d_mean = a_sum / n, d_sum / n
    return Odds(
        attacker_mean=a_mean,
        attacker_variance=a_sq / n - a_mean * a_mean,
        defender_mean=d_mean,
        defender_variance=d_sq / n - d_mean * d_mean,
    )


class SeatLuck(msgspec.Struct):
    seat: int
    name: str
    attacks: int = 0  # battles fought as the attacker
    defences: int = 0  # battles fought as the defender
    dice: int = 0  # dice thrown in them
    losses: int = 0
    expected_losses: float = 0.0
    luck: float = 0.0
    z: float | None = None  # None without any battle
    variance: float = 0.0  # of the losses (the z-score's denominator, squared)


class LuckReport(msgspec.Struct):
    game_id: str
    version: int
    battles: int
    scripted: int  # battles with scripted faces, left out
    seats: list[SeatLuck]


def luck_report(game_id: str, events: Sequence[Event]) -> LuckReport:
    """The luck report of a history (events from ``game_started``)."""
    first = events[0] if events else None
    if not isinstance(first, GameStarted):
        raise risk_core.RiskError("bad_history", "A game's history must begin with game_started.")
    state: GameState = risk_core.replay(events[:1])
    board = risk_core.load_board(first.board)
    seats = [SeatLuck(seat=i, name=p.name) for i, p in enumerate(first.players)]
    battles = scripted = 0
    for ev in events[1:]:
        if isinstance(ev, BattleFought):
            if ev.scripted:
                scripted += 1
            else:
                battles += 1
                # Stacked teammates (napoleon-teams) may tie for a territory: owner -1.
                origin = state.owner[board.index[ev.origin]]
                origin = origin if origin >= 0 else ev.seat
                target = state.owner[board.index[ev.target]]
                target = target if target >= 0 else ev.defender
                o = odds(len(ev.attack), len(ev.defence))
                _credit(
                    seats[origin],
                    len(ev.attack),
                    ev.attacker_losses,
                    o.attacker_mean,
                    o.attacker_variance,
                    attacking=True,
                )
                _credit(
                    seats[target],
                    len(ev.defence),
                    ev.defender_losses,
                    o.defender_mean,
                    o.defender_variance,
                    attacking=False,
                )
        risk_core.apply_in_place(state, (ev,))
    for s in seats:
        s.luck = s.expected_losses - s.losses
        s.z = s.luck / math.sqrt(s.variance) if s.variance > 0 else None
    return LuckReport(
        game_id=game_id, version=state.version, battles=battles, scripted=scripted, seats=seats
    )


def _credit(
    s: SeatLuck, dice: int, lost: int, mean: float, variance: float, *, attacking: bool
) -> None:
    if attacking:
        s.attacks += 1
    else:
        s.defences += 1
    s.dice += dice
    s.losses += lost
    s.expected_losses += mean
    s.variance += variance
