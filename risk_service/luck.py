"""Luck report: how each seat's battles went against the exact dice odds.

For every battle the expected losses of each side are exact for the dice it recorded (plain d6,
or the ``attack_dice``/``defence_dice`` of a rule family): ``risk_core.dice.battle_odds``
enumerates every sorted outcome once per pair of dice kinds.  Per seat, over the battles its
armies fought (as attacker or defender):

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

import msgspec

import risk_core
from risk_core import Event, GameState
from risk_core.dice import DiceSpec, Odds, battle_odds, d6
from risk_core.model import BattleFought, GameStarted


def odds(attack: int, defence: int) -> Odds:
    """Plain d6: ``attack`` dice against ``defence`` dice (ties go to the defender); cached."""
    return battle_odds(d6(attack), d6(defence))


def _specs(ev: BattleFought) -> tuple[DiceSpec, DiceSpec]:
    """The dice each side threw; UNSET is plain d6, one die per face compared."""
    a, d = ev.attack_dice, ev.defence_dice
    return (
        a if isinstance(a, DiceSpec) else d6(len(ev.attack)),
        d if isinstance(d, DiceSpec) else d6(len(ev.defence)),
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
        # A battle without defence dice (a branch cut between a battle and its conquest) has
        # no odds to weigh: nothing was thrown against.
        if isinstance(ev, BattleFought) and ev.defence:
            if ev.scripted:
                scripted += 1
            else:
                battles += 1
                # Stacked teammates (napoleon-teams) may tie for a territory: owner -1.
                origin = state.owner[board.index[ev.origin]]
                origin = origin if origin >= 0 else ev.seat
                target = state.owner[board.index[ev.target]]
                target = target if target >= 0 else ev.defender
                a_dice, d_dice = _specs(ev)
                family_odds = getattr(risk_core.ruleset_of(state), "battle_odds", None)
                o = (family_odds and family_odds(state, ev)) or battle_odds(a_dice, d_dice)
                _credit(
                    seats[origin],
                    a_dice.count,
                    ev.attacker_losses,
                    o.attacker_mean,
                    o.attacker_variance,
                    attacking=True,
                )
                _credit(
                    seats[target],
                    d_dice.count,
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
