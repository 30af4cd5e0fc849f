"""What a player may ask of a position besides its view, as JSON: a territory's neighbours by
the attack graph (`risk near`), and the facts of an attack's exact odds (`risk odds`, `risk
attack --dry-run`): the two sides and the dice each side throws at every count of dice.

Pure and cheap, and public: owners, armies and the board facts the dice depend on are in every
view.  The odds themselves (exact fractions: up to seconds of work for the largest armies) are
computed by whoever asked, from these facts (``odds_dice``), so that a service answers a look
at the cost of a view.  A dry run also decides the attack as the seat would make it, on a copy
(the same refusal, nothing kept).
"""

from __future__ import annotations

from typing import Any

import msgspec

from risk_core.dice import DiceSpec
from risk_core.engine import ruleset_of, to_act
from risk_core.errors import RuleError
from risk_core.model import Attack, GameState, Seat
from risk_core.odds import Dice, game_dice
from risk_core.rulesets.base import dice_count_error

JsonDict = dict[str, Any]


def neighbours(state: GameState, territory: str) -> JsonDict:
    """``territory`` and its neighbours by the attack graph of the seat to act (CORE-13), each
    with its owner, armies and the kind of edge between them."""
    rules = ruleset_of(state)
    board = rules.board
    t = board.find(territory)
    acting = to_act(state)
    seat = state.current if acting is None else acting
    rows = [
        {**_place(state, n), "edge": rules.attack_edge(state, seat, t, n)}
        for n in rules.attack_graph(state, seat)[t]
    ]
    who = state.players[seat].name
    return {**_place(state, t), "seat": seat, "seat_name": who, "neighbours": rows}


def odds_facts(
    state: GameState, origin: str, target: str, dice: int | None = None, stop_at: int = 1
) -> JsonDict:
    """What the odds of attacking ``target`` from ``origin`` take (CORE-14..16): the two sides
    (label, armies, territory, player), the attack dice (default: the most the armies allow),
    ``stop_at``, the most defence dice, and each side's dice at every count of them."""
    rules = ruleset_of(state)
    board = rules.board
    o, t = board.find(origin), board.find(target)
    if o == t:
        raise RuleError("own_territory", f"{board.name(o)} cannot attack itself.")
    attacker, defender = state.owner[o], state.owner[t]
    if attacker < 0:
        raise RuleError("no_attack", f"{board.name(o)} is nobody's: no attack comes from it.")
    if attacker == defender:
        raise RuleError(
            "own_territory",
            f"{board.name(o)} and {board.name(t)} are both {state.players[attacker].name}'s.",
        )
    if t not in rules.attack_graph(state, attacker)[o]:  # as the engine refuses it (CORE-13)
        raise RuleError("not_adjacent", f"{board.name(o)} does not border {board.name(t)}.")
    never = rules.target_error(state, attacker, t)  # a teammate's planet (CW-24)
    if never is not None:
        raise never
    most = rules.attack_dice_max
    n = dice if dice is not None else max(1, min(most, state.armies[o] - 1))
    err = dice_count_error(n, most)
    if err is not None:
        raise err
    specs = game_dice(rules, state, o, t, n)
    table = [
        [a, d, *(msgspec.to_builtins(s) for s in specs(a, d))]
        for a in range(1, n + 1)
        for d in range(1, rules.defence_dice_max + 1)
    ]
    return {
        "attacker": _side(state, o),
        "defender": _side(state, t),
        "dice": n,
        "stop_at": stop_at,
        "defence_max": rules.defence_dice_max,
        "specs": table,
    }


def dry_run(
    state: GameState, seat: Seat, origin: str, target: str, dice: int | None, stop_at: int
) -> JsonDict:
    """``odds_facts`` of an attack ``seat`` would make until conquest, once ``decide`` accepts
    it (on a copy: the refusal it would get is raised, nothing is kept)."""
    rules = ruleset_of(state)
    ids = rules.board.territories
    o, t = ids[rules.board.find(origin)].id, ids[rules.board.find(target)].id
    most = rules.attack_dice_max
    n = dice if dice is not None else max(1, min(most, state.armies[rules.territory(o)] - 1))
    order = Attack(seat=seat, origin=o, target=t, dice=n, until="conquer", stop_at=stop_at)
    rules.decide(state, order)  # on a copy: raises what the attack would, keeps nothing
    return odds_facts(state, o, t, n, stop_at)


def odds_dice(facts: JsonDict) -> Dice:
    """The dice of ``odds_facts`` as ``risk_core.odds`` takes them (each side's, by count)."""
    table = {
        (a, d): (msgspec.convert(sa, DiceSpec), msgspec.convert(sd, DiceSpec))
        for a, d, sa, sd in facts["specs"]
    }

    def specs(attack: int, defence: int) -> tuple[DiceSpec, DiceSpec]:
        return table[(attack, defence)]

    return specs


def _side(state: GameState, t: int) -> JsonDict:
    board = ruleset_of(state).board
    return {
        "label": board.name(t),
        "armies": state.armies[t],
        "territory": board.territories[t].id,
        "player": _owner(state, t),
    }


def _place(state: GameState, t: int) -> JsonDict:
    board = ruleset_of(state).board
    return {
        "territory": board.territories[t].id,
        "name": board.name(t),
        "owner": state.owner[t],
        "player": _owner(state, t),
        "armies": state.armies[t],
    }


def _owner(state: GameState, t: int) -> str | None:
    seat = state.owner[t]
    return state.players[seat].name if 0 <= seat < len(state.players) else None
