"""The engine's fast paths (issue 14) give what the general paths give (ENG-01): ``decide``'s
copy on write changes nothing in the state it is given, ``decide_in_place`` gives the same
events and state, and a refused command leaves the state as it was."""

from __future__ import annotations

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.engine import ruleset_of
from risk_core.errors import RuleError
from risk_core.model import Attack, Command, EndTurn, Event, copy_state
from risk_core.rng import Rng, d6_faces


def game(ruleset: str, seed: int, level: str = "greedy") -> tuple[list[Event], list[Command]]:
    n = 2 if ruleset == "classic-2p" else 4
    opening = rc.start(ruleset, [f"P{i + 1}" for i in range(n)], seed=seed)
    commands, _ = self_play(opening, level=level, seed=seed)
    return opening, commands


@pytest.mark.parametrize("ruleset", ["classic", "classic-conquest", "classic-2p"])
@pytest.mark.parametrize("level", ["greedy", "simple"])
def test_decide_changes_nothing_and_in_place_agrees(ruleset: str, level: str) -> None:
    """ENG-01: every command's events are the same decided on a copy or in place, the state
    ``decide`` is given is byte-identical afterwards (hands, piles and cards included), and
    the game ends with the same state either way."""
    opening, commands = game(ruleset, 3, level)
    copied = rc.replay(opening)
    owned = rc.replay(opening)
    rs = ruleset_of(copied)
    for cmd in commands:
        before = rc.encode(copied)
        events = rc.decide(copied, cmd)
        assert rc.encode(copied) == before
        if rs.decides_in_place:
            assert rc.encode(rs.decide_in_place(owned, cmd)) == rc.encode(events)
        else:
            rc.apply_in_place(owned, events)
        rc.apply_in_place(copied, events)
        assert copied.version == owned.version
    assert copied.phase == "over"
    assert rc.encode(owned) == rc.encode(copied)


def test_a_refused_command_leaves_the_state_in_place() -> None:
    """A command refused before any event (not the seat's turn) changes nothing in place."""
    opening, commands = game("classic", 1)
    state = rc.replay(opening)
    for cmd in commands[:120]:
        rc.apply_in_place(state, rc.decide(state, cmd))
    before = rc.encode(state)
    other = (state.current + 1) % len(state.players)
    with pytest.raises(RuleError) as err:
        ruleset_of(state).decide_in_place(state, EndTurn(seat=other))
    assert err.value.code == "not_your_turn"
    assert rc.encode(state) == before


def test_families_with_their_own_steps_decide_on_a_copy() -> None:
    """A rule set that overrides a step CORE's handlers take keeps the general path."""
    state = rc.replay(rc.start("napoleon-advanced", ["A", "B", "C", "D"], seed=1))
    rs = ruleset_of(state)
    assert not rs.decides_in_place
    with pytest.raises(ValueError):
        rs.decide_in_place(copy_state(state), EndTurn(seat=0))
    assert ruleset_of(rc.replay(rc.start("classic", ["A", "B", "C"], seed=1))).decides_in_place


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, 2**64 - 1])
def test_d6_faces_draw_what_rng_die_draws(seed: int) -> None:
    """ENG-01: the battle's draw without a cursor (``d6_faces``) gives ``Rng.die``'s faces in
    turn and leaves the stream where ``Rng`` leaves it."""
    for start in (0, 7, 2**40):
        cursor = Rng(seed, start)
        expected = [cursor.die() for _ in range(5)]
        assert d6_faces(seed, start, 5) == (expected, cursor.counter)
        assert d6_faces(seed, start, 0) == ([], start)


def test_plain_fight_gives_the_general_fights_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-14..17: ``fight`` with CORE's hooks written out (``_fight_plain``) decides the same
    battles, conquests and occupations as the general path through the hooks."""
    opening, commands = game("classic", 3)
    rs = ruleset_of(rc.replay(opening))
    assert rs._plain_fight
    state = rc.replay(opening)
    attacks = 0
    for cmd in commands:
        plain = rs.decide(state, cmd)
        if isinstance(cmd, Attack):
            attacks += 1
            with monkeypatch.context() as m:
                m.setattr(rs, "_plain_fight", False)
                assert rs.decide(state, cmd) == plain
        rc.apply_in_place(state, plain)
    assert attacks > 50
