"""Risk Napoléon advanced game's scenario files: the ``[family]`` table of a set position.

Keys (seats by number or name, territories and sea zones by id or name)::

    [family]
    vp = { Ann = 3 }                           # victory points (default 0)
    fortifications = ["castille"]
    epidemics = { castille = 1 }
    generals = { castille = 2 }                # the territory owner's generals
    missions = { Ann = ["caporal_manche"] }    # missions in hand (default: none)
    done = { Ann = ["caporal_gibraltar"] }     # missions accomplished
    [family.ships]                             # zone -> seat -> ships
    mer_du_nord = { Ann = 3 }
    [family.admirals]
    mer_du_nord = { Ann = 1 }
    [family.captured_generals]                 # owner -> captor -> count
    Ann = { Bob = 1 }
    [family.captured_admirals]

The mission piles hold every mission in no hand and not accomplished, in board order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from risk_core.board import MISSION_RANKS
from risk_core.errors import RiskError, SetupError
from risk_core.model import Seat
from risk_core.rulesets.napoleon_advanced_state import AdvState

if TYPE_CHECKING:
    from risk_core.rulesets.napoleon_advanced import NapoleonAdvanced

SHAPES: dict[str, Any] = {
    "vp": dict[str, int],
    "fortifications": list[str],
    "epidemics": dict[str, int],
    "generals": dict[str, int],
    "missions": dict[str, list[str]],
    "done": dict[str, list[str]],
    "ships": dict[str, dict[str, int]],
    "admirals": dict[str, dict[str, int]],
    "captured_generals": dict[str, dict[str, int]],
    "captured_admirals": dict[str, dict[str, int]],
}


def scenario_state(
    rs: NapoleonAdvanced, data: dict[str, Any], n: int, seat: Callable[[Any], Seat]
) -> AdvState:
    """The family state a ``[family]`` table sets for ``n`` seats; raises
    ``SetupError("bad_scenario")`` for a table the advanced game cannot take."""
    table = _typed(data)
    board = rs.board

    def tid(name: str) -> int:
        try:
            return board.find(name)
        except RiskError as e:
            raise SetupError("bad_scenario", e.message) from None

    def zid(name: str) -> int:
        try:
            return rs.zone(name)
        except RiskError as e:
            raise SetupError("bad_scenario", e.message) from None

    def counts(value: int, what: str) -> int:
        if not 0 <= value <= 10**6:
            raise SetupError("bad_scenario", f"[family.{what}]: {value} is out of range.")
        return value

    base = rs.new_family_state_for(n)
    vp = list(base.vp)
    for ref, v in table.get("vp", {}).items():
        if not -(10**6) <= v <= 10**6:  # below 0 too: a ransom may give back VP (DEC-29)
            raise SetupError("bad_scenario", f"[family.vp]: {v} is out of range.")
        vp[seat(ref)] = v
    epidemics = list(base.epidemics)
    for t, k in table.get("epidemics", {}).items():
        epidemics[tid(t)] = counts(k, "epidemics")
    generals = list(base.generals)
    for t, k in table.get("generals", {}).items():
        generals[tid(t)] = counts(k, "generals")
    forts = tuple(board.territories[tid(t)].id for t in table.get("fortifications", []))
    ships = [list(row) for row in base.ships]
    for z, row in table.get("ships", {}).items():
        for ref, k in row.items():
            ships[zid(z)][seat(ref)] = counts(k, "ships")
    admirals = [list(row) for row in base.admirals]
    for z, row in table.get("admirals", {}).items():
        for ref, k in row.items():
            admirals[zid(z)][seat(ref)] = counts(k, "admirals")
    captured = {}
    for key in ("captured_generals", "captured_admirals"):
        grid = [[0] * n for _ in range(n)]
        for owner, row in table.get(key, {}).items():
            for captor, k in row.items():
                if seat(owner) == seat(captor) and k:
                    raise SetupError("bad_scenario", f"[family.{key}]: {owner} holds its own.")
                grid[seat(owner)][seat(captor)] = counts(k, key)
        captured[key] = tuple(tuple(r) for r in grid)
    known = {*rs.basic_missions, *rs.empire_missions}
    hands: list[tuple[str, ...]] = [()] * n
    done: list[tuple[str, ...]] = [()] * n
    for key, target in (("missions", hands), ("done", done)):
        for ref, ms in table.get(key, {}).items():
            bad = [m for m in ms if m not in known]
            if bad:
                raise SetupError("bad_scenario", f"[family.{key}]: unknown mission {bad[0]!r}.")
            target[seat(ref)] = tuple(ms)
    listed = [m for h in (*hands, *done) for m in h]
    twice = sorted({m for m in listed if listed.count(m) > 1})
    if twice:  # a mission card is in one hand, or accomplished once
        raise SetupError("bad_scenario", f"[family]: mission {twice[0]!r} listed twice.")
    for hand in hands:
        ranks = [rs.mission_rank(m) for m in hand]
        if len(set(ranks)) != len(ranks):  # NAP-ADV-07: one mission of each rank in hand
            raise SetupError("bad_scenario", f"[family.missions]: two of one rank in {list(hand)}.")
    used = set(listed)
    piles = tuple(
        tuple(m for m in sorted(known) if m not in used and rs.mission_rank(m) == rank)
        for rank in MISSION_RANKS
    )
    return msgspec.structs.replace(
        base,
        vp=tuple(vp),
        epidemics=tuple(epidemics),
        generals=tuple(generals),
        forts=forts,
        ships=tuple(tuple(r) for r in ships),
        admirals=tuple(tuple(r) for r in admirals),
        captured_generals=captured["captured_generals"],
        captured_admirals=captured["captured_admirals"],
        missions=tuple(hands),
        done=tuple(done),
        piles=piles,
        pieces=(0,) * n,
    )


def _typed(data: dict[str, Any]) -> dict[str, Any]:
    """The table's values in their shapes (``SHAPES``); unknown keys are refused."""
    table: dict[str, Any] = {}
    for key, value in data.items():
        if key not in SHAPES:
            raise SetupError(
                "bad_scenario",
                f"napoleon-advanced's [family] table has no {key!r} "
                f"(it takes: {', '.join(SHAPES)}).",
            )
        try:
            table[key] = msgspec.convert(value, SHAPES[key])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family.{key}]: {e}") from None
    return table
