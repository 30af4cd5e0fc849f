"""The greedy player's Clone Wars moves (``CloneWars.bot_move``).

CORE's greedy reading (``risk_core.bots.Greedy``) takes every other seat for an enemy; here the
other army of the faction is a friend, so the reading is made again with the faction's enemies
before anything is chosen.  On top of CORE's play the greedy army: places a token on its
strongest planet without one (CW-17), builds a ship on its best placement spot whenever it can
(CW-22), plays step-4 powers, moves a ship to the front, accepts a teammate's change of command
(CW-35), chooses its supporting ships with ship_support=chosen (CW-25, :func:`support_for`:
all of them when the target is the origin's last enemy, else half of each class, the rest
staying to defend the origin), and, for the Separatists, invokes Order 66 at the end of a turn
once the track gives a d8 at least an even chance (CW-37/38) and places Palpatine on its
strongest planet (CW-40).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from risk_core.model import Attack, Command, EndTurn, Fortify, GameState, Seat
from risk_core.rulesets.clonewars_factions import order66_faces
from risk_core.rulesets.clonewars_state import (
    SHIP_KINDS,
    AnswerCommand,
    BuildShip,
    ChooseSupport,
    InvokeOrder66,
    MoveShip,
    PlacePalpatine,
    PlaceToken,
    PlayPower,
)

if TYPE_CHECKING:
    from risk_core.rulesets.clonewars import CloneWars

EVEN_CHANCE = 4  # faces of 8 that convert: invoke Order 66 from an even chance on


def greedy_move(rs: CloneWars, state: GameState, seat: Seat, reading: Any) -> Command | None:
    from risk_core.rulesets.clonewars import cw

    allies = set(rs.allies(state, seat))
    reading.enemy = [s not in allies for s in range(len(state.players))]
    if state.phase not in ("occupy", "defend"):
        reading._read()
    ids = rs.board.territories
    family = cw(state)
    phase = state.phase
    if phase == "token":
        spots = rs.token_spots(state, seat)
        best = max(spots, key=lambda t: (state.armies[t], reading.tie(t)))
        return PlaceToken(seat=seat, territory=ids[best].id)
    if phase == "consent":
        return AnswerCommand(seat=seat, accept=True)
    if phase == "palpatine":
        own = rs.territories_of(state, seat) or [
            t for t, o in enumerate(state.owner) if o >= 0 and o in allies
        ]
        best = max(own, key=lambda t: (state.armies[t], reading.tie(t)))
        return PlacePalpatine(seat=seat, territory=ids[best].id)
    if phase == "reinforce":
        hand = sorted(state.players[seat].hand)
        for c in hand:
            if rs.power_error(state, seat, c) is None:
                return PlayPower(seat=seat, card=c)
        if not rs.must_trade(state, seat):
            for c in hand:
                if rs.build_error(state, seat, c) is None and rs.territories_of(state, seat):
                    spot = reading.placement_spot(1)
                    return BuildShip(seat=seat, card=c, territory=ids[spot].id)
        return None
    if phase != "attack":
        return None
    cmd: Command = reading.attack()
    if isinstance(cmd, Attack):
        return support_for(rs, state, seat, cmd, reading) or cmd
    if isinstance(cmd, Fortify) and family.step < 7:
        return cmd
    if family.step < 8:
        move = ship_to_front(rs, state, seat, reading)
        if move is not None:
            return move
    if (
        rs.order66_error(state, seat) is None
        and len(order66_faces(rs.board, family.track)) >= EVEN_CHANCE
    ):
        return InvokeOrder66(seat=seat)
    return EndTurn(seat=seat)


def ship_to_front(rs: CloneWars, state: GameState, seat: Seat, reading: Any) -> Command | None:
    """One ship from an interior planet to the front planet with most troops (CW-34)."""
    from risk_core.rulesets.clonewars import cw

    front = set(reading.front)
    ids = rs.board.territories
    for planet, ships in sorted(cw(state).ships.items()):
        o = rs.board.index[planet]
        if state.owner[o] != seat or o in front:
            continue
        reach = [t for t in rs.connected_own(state, seat, o) if t in front]
        if not reach:
            continue
        target = max(reach, key=lambda t: (state.armies[t], reading.tie(t)))
        kind = next(k for k, n in zip(("fighter", "corvette", "capital"), ships, strict=True) if n)
        return MoveShip(seat=seat, origin=planet, target=ids[target].id, kind=kind)
    return None


def support_for(
    rs: CloneWars, state: GameState, seat: Seat, attack: Attack, reading: Any
) -> Command | None:
    """CW-25 (ship_support=chosen): the choice to make before ``attack``, if one is due.

    A ship never worsens the dice, but the ships that support the winning battle move in
    (DEC-36), as the occupation moves troops: every ship when the target is the origin's only
    enemy neighbour (the origin is then safe), else half of each class, rounded up, so the
    origin, still facing an enemy, keeps ships for its own defence.  The defender's ships all
    support (the default): its planet's ships are lost with it anyway (CW-29).
    """
    if state.options.get("ship_support", "all") != "chosen":
        return None
    o, t = rs.board.index[attack.origin], rs.board.index[attack.target]
    present = rs.ships_on(state, o)
    if not any(present):
        return None
    alone = all(n == t or not reading.hostile(n) for n in reading.nbrs[o])
    current = rs.supporting(state, o)
    for kind, have, now in zip(SHIP_KINDS, present, current, strict=True):
        want = have if alone else (have + 1) // 2
        if have and now != want:
            return ChooseSupport(seat=seat, planet=attack.origin, kind=kind, count=want)
    return None
