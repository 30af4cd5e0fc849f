"""The ``simple`` computer player: cheap to run, yet it plays the whole rules.

It attacks wherever it is stronger, places its armies on a border territory drawn at random,
trades a set of cards when it must and whenever it holds one, and leans to its secret
mission where that costs nothing: among the attacks it may make, one on a territory its
mission asks for (a continent to take, a colour to destroy) comes first.

Each decision looks at as little of the board as it can (no full reading like the greedy
player's): it is meant for long simulations, where the player's own cost counts as much as the
rules' (issue 14: a whole 4-player classic game within 55M instructions).  Attacks are fought
``until="conquer"`` with the occupation answered in the order (everything moves in), and the
turn ends without a free move, so a turn is a few commands.  A phase it does not know (a rule
family's own step) is left to the caller's fallback (``None``).
"""

from __future__ import annotations

from collections.abc import Callable

from risk_core.model import Attack, Command, Defend, EndTurn, GameState, Occupy, Place, Seat, Trade
from risk_core.rng import Rng
from risk_core.rulesets.base import RuleSet


def simple_command(
    rs: RuleSet, state: GameState, seat: Seat, draw: Callable[[], Rng]
) -> Command | None:
    """The simple player's command for ``seat`` in ``state`` (None: a phase it does not play).

    ``draw`` makes the decision's random stream, asked only by the decisions that use one
    (placements): most of the player's decisions draw nothing."""
    phase = state.phase
    if phase == "attack":
        if state.may_trade:  # cards just taken from an eliminated player (CL-20)
            combo = _first_set(rs, state, seat)
            if combo is not None:
                return Trade(seat=seat, cards=combo)
        return _attack(rs, state, seat) or EndTurn(seat=seat)
    if phase in ("reinforce", "elim_trade"):
        if len(state.players[seat].hand) >= 3:  # trade whenever a set is held (CL-10/12)
            combo = _first_set(rs, state, seat)
            if combo is not None:
                return Trade(seat=seat, cards=combo)
            if rs.must_trade(state, seat):
                return None
        if state.reserve <= 0:
            return None
        spot = _border_spot(rs, state, seat, draw())
        if spot is None:
            return None
        return Place(seat=seat, territory=rs.board.territories[spot].id, count=state.reserve)
    if phase == "setup":
        if -1 in state.owner:  # claiming: a free territory at random
            free = [t for t, o in enumerate(state.owner) if o == -1]
            t = free[draw().below(len(free))]
            return Place(seat=seat, territory=rs.board.territories[t].id)
        left = state.setup_left[seat]
        spot = _border_spot(rs, state, seat, draw())
        if left <= 0 or spot is None:
            return None
        alternate = state.options.get("setup_placement", "alternate") == "alternate"
        count = 1 if alternate else left
        return Place(seat=seat, territory=rs.board.territories[spot].id, count=count)
    if phase == "occupy" and state.occupation is not None:
        return Occupy(seat=seat, count=state.occupation.max)
    if phase == "defend" and state.attack is not None:
        most = min(rs.defence_dice_max, state.armies[state.attack.target])
        return Defend(seat=seat, dice=max(1, most))
    return None


def _first_set(rs: RuleSet, state: GameState, seat: Seat) -> tuple[int, ...] | None:
    """The first valid set of the hand (in the rule set's own order), if any."""
    return next(rs.valid_sets(state, seat), None)


def _border_spot(rs: RuleSet, state: GameState, seat: Seat, rng: Rng) -> int | None:
    """A random own territory that borders another seat's (any own one when none does)."""
    owner = state.owner
    own = [t for t, o in enumerate(owner) if o == seat]
    if not own:
        return None
    nbrs = rs.board.neighbours
    start = rng.below(len(own))
    n = len(own)
    for i in range(n):  # from a random start, the first border territory in turn
        t = own[(start + i) % n]
        for x in nbrs[t]:
            if owner[x] != seat and owner[x] >= 0:
                return t
    return own[start]


def _attack(rs: RuleSet, state: GameState, seat: Seat) -> Command | None:
    """An attack from an own territory on a weaker neighbour, a mission target first."""
    owner, armies = state.owner, state.armies
    graph = rs.attack_graph(state, seat)
    group_of = rs.board.territory_group
    best: tuple[int, int] | None = None
    best_key = -1
    goals = None
    groups: frozenset[int] = frozenset()
    victim = None
    # Own territories that can attack, found by a comprehension (cheaper than a loop).
    for o in [o for o, x in enumerate(owner) if x == seat and armies[o] > 1]:
        a = armies[o]
        for t in graph[o]:
            d = armies[t]
            x = owner[t]
            if d >= a or x == seat or x < 0:
                continue
            if goals is None:  # read the mission only once there is an attack to weigh
                goals = rs.bot_goals(state, seat)
                groups, victim = goals.groups, goals.victim
            key = (2000 if group_of[t] in groups or x == victim else 0) + a - d
            if key > best_key and rs.attack_error(state, seat, o, t) is None:
                best, best_key = (o, t), key
    if best is None:
        return None
    o, t = best
    ids = rs.board.territories
    return Attack(
        seat=seat,
        origin=ids[o].id,
        target=ids[t].id,
        dice=min(rs.attack_dice_max, armies[o] - 1),
        until="conquer",
        move=armies[o],
    )
