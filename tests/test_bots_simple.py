"""The ``simple`` bot level (issue 14): attacks where it is stronger, places on a random border
territory, trades its sets (CL-10/CL-12), leans to its mission (CL-22), and finishes games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import risk_core as rc
from risk_core.bots import LEVELS, propose, self_play
from risk_core.engine import ruleset_of, to_act
from risk_core.model import Attack, Command, GameState, Place, Trade

SEEDS = (1, 2, 3)


def names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def states(ruleset: str, players: int, seed: int) -> Iterator[tuple[GameState, Command]]:
    """Every state of a simple-bot game with the command the bot proposed there."""
    state = rc.replay(rc.start(ruleset, names(players), seed=seed))
    while state.phase != "over" and state.turn <= 2000:
        cmd = propose(state, level="simple", seed=seed)
        yield state, cmd
        rc.apply_in_place(state, rc.decide(state, cmd))  # raises if the proposal is illegal


def test_simple_is_a_level() -> None:
    """Every place that offers bot levels reads ``LEVELS`` (the CLI's --level choices)."""
    assert "simple" in LEVELS


@pytest.mark.parametrize(
    ("ruleset", "players"), [("classic", 4), ("classic-conquest", 4), ("classic-2p", 2)]
)
@pytest.mark.parametrize("seed", SEEDS)
def test_simple_finishes_every_game_with_legal_moves(ruleset: str, players: int, seed: int) -> None:
    """The simple player's own proposals are all accepted and the game reaches a winner."""
    last: GameState | None = None
    for state, _ in states(ruleset, players, seed):
        last = state
    assert last is not None and last.phase == "over" and last.winner is not None


@pytest.mark.parametrize("seed", [4, 5])
def test_simple_attacks_no_teammate_and_finishes_a_teams_game(seed: int) -> None:
    """NAP-TEAM-08: the simple player never proposes an attack on a teammate (the rule set
    tells it through ``attack_error``), so a napoleon-teams game reaches its winner; it used
    to fall back on random moves and run past 500 turns."""
    last: GameState | None = None
    for state, cmd in states("napoleon-teams", 4, seed):
        last = state
        if isinstance(cmd, Attack):
            rs = rc.ruleset_of(state)
            t = rs.board.index[cmd.target]
            assert rs.side(state, t) != cmd.seat % 2, cmd  # type: ignore[attr-defined]
    assert last is not None and last.phase == "over" and last.turn <= 500


def test_simple_is_deterministic() -> None:
    """ENG-01 for bots: the same game and bot seed give the same commands and events."""
    opening = rc.start("classic", names(4), seed=5)
    a = self_play(opening, level="simple", seed=7)
    b = self_play(opening, level="simple", seed=7)
    assert rc.encode(a[1]) == rc.encode(b[1])
    c = self_play(opening, level="simple", seed=8)
    assert rc.encode(a[0]) != rc.encode(c[0])  # the bot's seed varies its placements


def test_simple_trades_whenever_it_holds_a_set() -> None:
    """CL-10/CL-12: in its reinforcement phase, a hand holding a valid set trades it (a hand of
    five must); the set is one of the rule set's valid sets."""
    seen = 0
    for seed in SEEDS:
        for state, cmd in states("classic", 4, seed):
            if state.phase != "reinforce":
                continue
            seat = to_act(state)
            assert seat is not None
            rs = ruleset_of(state)
            sets = list(rs.valid_sets(state, seat))
            if sets:
                seen += 1
                assert isinstance(cmd, Trade) and cmd.cards in sets
            else:
                assert isinstance(cmd, Place) and cmd.count == state.reserve
    assert seen > 5


def candidates(state: GameState, seat: int) -> list[tuple[int, int]]:
    """The attacks the simple policy allows: from an own territory on a weaker neighbour."""
    rs = ruleset_of(state)
    return [
        (o, t)
        for o, t in rs.attack_options(state, seat)
        if state.owner[o] == seat and state.armies[t] < state.armies[o]
    ]


def test_simple_attacks_where_stronger_and_to_its_mission_first() -> None:
    """The attack is on a weaker neighbour; when the seat's mission (CL-22: a continent to take,
    a colour to destroy) names a target among them, the attack is on such a target; with no
    such attack the turn ends (no free move)."""
    mission_first = 0
    for seed in SEEDS:
        for state, cmd in states("classic", 4, seed):
            if state.phase != "attack" or state.may_trade:
                continue
            seat = to_act(state)
            assert seat is not None
            rs = ruleset_of(state)
            pairs = candidates(state, seat)
            if not pairs:
                assert type(cmd).__name__ == "EndTurn"
                continue
            assert isinstance(cmd, Attack) and cmd.until == "conquer"
            o, t = rs.territory(cmd.origin), rs.territory(cmd.target)
            assert (o, t) in pairs
            goals = rs.bot_goals(state, seat)
            group, owner = rs.board.territory_group, state.owner
            wanted = {x for _, x in pairs if group[x] in goals.groups or owner[x] == goals.victim}
            if wanted:
                mission_first += 1
                assert t in wanted
    assert mission_first > 10


def test_simple_places_on_a_border() -> None:
    """Random border placement: the territory borders another seat's, and the bot's seed
    moves it."""
    spots: set[str] = set()
    for state, cmd in states("classic", 4, 1):
        if state.phase == "setup" and isinstance(cmd, Place):
            rs = ruleset_of(state)
            t = rs.territory(cmd.territory)
            assert state.owner[t] == cmd.seat
            assert any(state.owner[n] != cmd.seat for n in rs.board.neighbours[t])
            spots.add(cmd.territory)
    assert len(spots) > 10
