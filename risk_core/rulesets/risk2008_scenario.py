"""Risk 2008 scenario files: the ``[family]`` table of a set position (``risk new --scenario``).

Keys: ``cities`` (territories), ``capitals``, ``completed`` and ``rewards`` (by seat), ``missions``
(face up) with ``rewards_on`` (the token lying on each), ``airfields``.  What is left out gets the
game's defaults: the Training cities and missions, no rewards, no airfield; a seat without a
capital gets one on its first territory (``Risk2008Family.start_position``).  A Training game
takes no rewards, airfields or tokens on its missions (R08-TR-06).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from risk_core.errors import RiskError, SetupError
from risk_core.model import Seat
from risk_core.rulesets.risk2008_state import R08State

if TYPE_CHECKING:
    from risk_core.rulesets.risk2008 import Risk2008Family

SHAPES: dict[str, Any] = {
    "cities": list[str],
    "capitals": dict[str, str],
    "missions": list[str],
    "rewards_on": list[str],
    "completed": dict[str, list[str]],
    "rewards": dict[str, list[str]],
    "airfields": list[str],
}


def scenario_state(
    rs: Risk2008Family, data: dict[str, Any], n: int, seat: Callable[[Any], Seat]
) -> R08State:
    """The family state a ``[family]`` table sets for ``n`` seats (``seat`` reads a seat
    reference); raises ``SetupError("bad_scenario")`` for a table ``rs`` cannot take."""
    table = _typed(rs.name, data)
    if not rs.rewards_in_play:  # R08-TR-06: rewards, airfields among them, are not in play
        given = [
            k
            for k in ("rewards", "airfields", "rewards_on")
            if any(v for v in _values(table.get(k)))
        ]
        if given:
            raise SetupError(
                "bad_scenario",
                f"[family.{given[0]}]: rewards are used only in the Command Center game "
                f"(R08-TR-06), not in {rs.name}.",
            )

    def tid(name: str) -> str:
        try:
            return rs.board.territories[rs.board.find(name)].id
        except RiskError as e:
            raise SetupError("bad_scenario", e.message) from None

    missions = table.get("missions", rs.default_missions())
    for m in [*missions, *(x for v in table.get("completed", {}).values() for x in v)]:
        if m not in rs.missions:
            raise SetupError("bad_scenario", f"Unknown mission {m!r}.")
    rewards_on = table.get("rewards_on", [""] * len(missions))
    if len(rewards_on) != len(missions) or any(r and r not in rs.rewards for r in rewards_on):
        raise SetupError(
            "bad_scenario", "[family.rewards_on]: one known reward (or '') per face-up mission."
        )
    capitals = [""] * n
    for ref, t in table.get("capitals", {}).items():
        capitals[seat(ref)] = tid(t)
    shared = sorted({c for c in capitals if c and capitals.count(c) > 1})
    if shared:  # R08-07: one capital building per player, each on its own territory
        raise SetupError("bad_scenario", f"[family.capitals]: two seats' capital on {shared[0]}.")
    completed: list[tuple[str, ...]] = [()] * n
    for ref, done in table.get("completed", {}).items():
        completed[seat(ref)] = tuple(done)
    held: list[tuple[str, ...]] = [()] * n
    for ref, got in table.get("rewards", {}).items():
        if any(r not in rs.rewards for r in got):
            raise SetupError("bad_scenario", f"[family.rewards]: unknown reward in {got}.")
        held[seat(ref)] = tuple(got)
    cities = _unique("cities", [tid(c) for c in table.get("cities", rs.training_cities)])
    airfields = _unique("airfields", [tid(a) for a in table.get("airfields", [])])
    _unique("missions", list(missions))
    for done in completed:
        _unique("completed", list(done))
    return R08State(
        cities=tuple(cities),
        capitals=tuple(capitals),
        airfields=tuple(airfields),
        missions=tuple(missions),
        rewards_on=tuple(rewards_on),
        completed=tuple(completed),
        rewards=tuple(held),
    )


def _values(value: Any) -> list[Any]:
    """A table value's items: a list's, or a by-seat table's lists' together."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in v]
    return list(value or ())


def _typed(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The table's values in their shapes (``SHAPES``); unknown keys are refused."""
    table: dict[str, Any] = {}
    for key, value in data.items():
        if key not in SHAPES:
            raise SetupError(
                "bad_scenario",
                f"{name}'s [family] table has no {key!r} (it takes: {', '.join(SHAPES)}).",
            )
        try:
            table[key] = msgspec.convert(value, SHAPES[key])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family.{key}]: {e}") from None
    return table


def _unique(key: str, items: list[str]) -> list[str]:
    """``items`` of ``[family.key]``, each at most once (a city counted twice would pay twice,
    R08-09; one territory holds one airfield; a mission is face up or done once)."""
    twice = sorted({x for x in items if items.count(x) > 1})
    if twice:
        raise SetupError("bad_scenario", f"[family.{key}]: {twice[0]} is listed twice.")
    return items
