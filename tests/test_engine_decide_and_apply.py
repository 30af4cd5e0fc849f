"""``engine.decide_and_apply`` and the cheaper engine paths of issue 14 (goals 2 and 3) give
what the general paths give (ENG-01): the same events as ``decide``, the same state as
``apply_in_place`` of them, and a refused command leaves the state as it was, whether the
refusal comes before the first event or after some (every rule set)."""

from __future__ import annotations

import dis
import sys
import types

import pytest

import risk_core as rc
from risk_core import rng as rng_module
from risk_core.bots import self_play
from risk_core.engine import decide_and_apply, list_rulesets, ruleset_of
from risk_core.errors import RuleError
from risk_core.model import (
    Attack,
    BattleFought,
    CardDrawn,
    Command,
    EndTurn,
    GameState,
    GameWon,
    Place,
    TerritoryConquered,
    copy_state,
)
from risk_core.rng import Rng, d6_faces_counted, d6_faces_python
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import RuleSet
from risk_core.rulesets.classic import Classic

RULESETS = {info.name: info.player_counts[0] for info in list_rulesets()}


def opening_and_commands(name: str, seed: int, level: str = "greedy", turns: int = 6):
    players = [f"P{i + 1}" for i in range(RULESETS[name])]
    opening = rc.start(name, players, seed=seed)
    commands, _ = self_play(opening, level=level, seed=seed, max_turns=turns)
    return opening, commands


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_decide_and_apply_gives_decides_events_and_state(name: str) -> None:
    """ENG-01 in every rule set: each command's events are byte for byte ``decide``'s, and
    the state ends where ``apply_in_place`` of those events leaves it."""
    opening, commands = opening_and_commands(name, 2)
    assert commands
    reference, owned = rc.replay(opening), rc.replay(opening)
    for cmd in commands:
        events = rc.decide(reference, cmd)
        rc.apply_in_place(reference, events)
        assert rc.encode(decide_and_apply(owned, cmd)) == rc.encode(events)
        assert owned.version == reference.version
    assert rc.encode(owned) == rc.encode(reference)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_refusal_before_any_event_changes_nothing(name: str) -> None:
    """A command from a seat that is not to act, and an attack on no territory, are refused
    (``not_your_turn``, then a rule error) and leave the state byte-identical."""
    opening, commands = opening_and_commands(name, 1)
    state = rc.replay(opening)
    for cmd in commands[: len(commands) // 2]:
        decide_and_apply(state, cmd)
    before = rc.encode(state)
    seat = rc.to_act(state)
    assert seat is not None
    other = (seat + 1) % len(state.players)
    with pytest.raises(RuleError) as err:
        decide_and_apply(state, EndTurn(seat=other))
    assert err.value.code == "not_your_turn"
    assert rc.encode(state) == before
    with pytest.raises(RuleError):
        decide_and_apply(state, Attack(seat=seat, origin="nowhere", target="nowhere", dice=1))
    assert rc.encode(state) == before


class _FailsLate(Classic):
    """Classic, with a rule that refuses after the command's first events: the next turn's
    income (after ``card_drawn`` and ``turn_ended``) or the winner check (after battles and
    a conquest).  Not registered (no ``name`` of its own)."""

    fail: str = ""

    def income(self, state: GameState, seat: int) -> tuple[int, int, tuple[str, ...]]:
        if self.fail == "income" and state.turn > 0:
            raise RuleError("late", "refused after the first events")
        return super().income(state, seat)

    def winner(self, state: GameState) -> GameWon | None:
        if self.fail == "winner" and state.conquered:
            raise RuleError("late", "refused after the first events")
        return super().winner(state)


def _late_refusal(fail: str, kind: type[Command]) -> tuple[GameState, Command, int]:
    """A state of a classic game, the next command of that game (of ``kind``) and how many
    events it makes there, found by playing the game on."""
    opening, commands = opening_and_commands("classic", 4, turns=40)
    state = rc.replay(opening)
    wanted = CardDrawn if fail == "income" else TerritoryConquered
    for cmd in commands:
        events = rc.decide(state, cmd)
        fits = isinstance(cmd, kind) and state.conquered == (fail == "income")
        if fits and any(isinstance(e, wanted) for e in events):
            return state, cmd, len(events)
        rc.apply_in_place(state, events)
    raise AssertionError("no such command in the game")


@pytest.mark.parametrize(
    ("fail", "kind"), [("income", EndTurn), ("winner", Attack)], ids=["hands", "board"]
)
def test_a_refusal_after_some_events_puts_the_state_back(fail: str, kind: type) -> None:
    """A refusal after events already applied to the caller's state (a card drawn and the
    turn ended; battles and a conquest) restores every field, hands and piles included,
    and the command then goes through as it would have."""
    rules = _FailsLate()
    assert rules.decides_in_place  # the in-place path, with its way back, is the one tested
    state, cmd, count = _late_refusal(fail, kind)
    before = rc.encode(state)
    rules.fail = fail
    with pytest.raises(RuleError) as err:
        rules.decide_and_apply(state, cmd)
    assert err.value.code == "late"
    assert rc.encode(state) == before
    rules.fail = ""
    assert len(rules.decide_and_apply(state, cmd)) == count


@pytest.mark.parametrize("level", ["greedy", "simple"])
def test_decide_on_a_copy_changes_nothing_with_a_dice_script(level: str) -> None:
    """ENG-04 with copy on write: battles that take their faces from a dice script change
    neither the script nor anything else in the state ``decide`` is given (the script is
    copied only while it holds faces, the set-up counts only in the set-up)."""
    faces = [6, 5, 4, 3, 2, 1] * 40
    opening = rc.start("classic", ["A", "B", "C"], seed=5, dice=faces)
    commands, _ = self_play(opening, level=level, seed=5, max_turns=8)
    state, owned = rc.replay(opening), rc.replay(opening)
    scripted = 0
    for cmd in commands:
        before = rc.encode(state)
        events = rc.decide(state, cmd)
        assert rc.encode(state) == before
        scripted += sum(e.scripted for e in events if isinstance(e, BattleFought))
        assert rc.encode(decide_and_apply(owned, cmd)) == rc.encode(events)
        rc.apply_in_place(state, events)
    assert scripted > 0
    assert rc.encode(owned) == rc.encode(state)


def _reference_mission_done(rs: Classic, state: GameState, seat: int) -> bool:
    """CL-22 as plainly as it reads (what ``Classic.mission_done`` computes faster)."""
    mid = state.players[seat].mission
    if mid is None:
        return False
    m = rs.missions_by_id[mid]
    territories = m.territories
    if m.destroy is not None:
        victim = next((i for i, p in enumerate(state.players) if p.colour == m.destroy), None)
        if victim is not None and victim != seat:
            if not state.players[victim].eliminated:
                return False
            if state.players[victim].eliminated_by == seat:
                return True
        territories = m.fallback_territories
    held = sum(
        1
        for t, o in enumerate(state.owner)
        if o == seat and state.armies[t] >= max(1, m.min_armies)
    )
    if held < territories:
        return False
    board = rs.board
    own = [all(state.owner[t] == seat for t in ts) for ts in board.group_members]
    named = {board.group_index[g] for g in m.groups}
    if not all(own[g] for g in named):
        return False
    return sum(1 for g, whole in enumerate(own) if whole and g not in named) >= m.extra_groups


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_classic_winner_and_missions_answer_as_the_plain_reading(seed: int) -> None:
    """CL-22/DEC-14: after every event of whole games, every seat's mission is judged as the
    plain reading judges it, and ``Classic.winner`` answers as CORE's ``winner`` does."""
    opening = rc.start("classic", ["A", "B", "C", "D"], seed=seed)
    _, events = self_play(opening, level="simple", seed=seed)
    state = rc.replay(opening)
    rs = ruleset_of(state)
    assert isinstance(rs, Classic)
    done = 0
    for ev in events[len(opening) :]:
        rs.apply(state, ev)
        if state.phase == "over":
            break
        for seat in range(len(state.players)):
            expected = _reference_mission_done(rs, state, seat)
            assert rs.mission_done(state, seat) == expected
            done += expected
        assert rs.winner(state) == RuleSet.winner(rs, state)
    assert state.phase == "over" or done == 0


def test_every_mission_on_made_up_boards_answers_as_the_plain_reading() -> None:
    """CL-22 on boards made to sit near each objective's edge: every mission given to seat 0,
    17 to 24 territories of its own with one or two armies each, continents whole or not,
    its colour's army alive, eliminated by it or by another."""
    state = rc.replay(rc.start("classic", ["A", "B", "C", "D"], seed=1))
    rs = ruleset_of(state)
    assert isinstance(rs, Classic)
    draw = Rng(2024)
    n = len(state.owner)
    answers = set()
    for mission in rs.board.missions:
        for case in range(90):
            board = copy_state(state)
            board.players[0].mission = mission.id
            own = 17 + draw.below(8)
            order = draw.shuffle(list(range(n)))
            board.owner = [0 if i in order[:own] else 1 + draw.below(3) for i in range(n)]
            weak = (0, 2, 12)[case % 3]  # one army in none, half or one in twelve
            board.armies = [1 if weak and draw.below(weak) == 0 else 2 for _ in range(n)]
            victim = board.players[1 + draw.below(3)]
            victim.eliminated = case % 4 == 0
            victim.eliminated_by = 0 if case % 8 == 0 else 2
            expected = _reference_mission_done(rs, board, 0)
            assert rs.mission_done(board, 0) == expected, (mission.id, case)
            answers.add((mission.id, expected))
    assert ("territories_18_two_armies", True) in answers
    assert ("territories_18_two_armies", False) in answers


def test_battles_record_each_throw_highest_first() -> None:
    """CORE-15: every battle's throws are recorded highest first, one to three dice each."""
    seen = set()
    for seed in (1, 2):
        opening = rc.start("classic", ["A", "B", "C", "D"], seed=seed)
        _, events = self_play(opening, level="simple", seed=seed)
        for ev in events:
            if isinstance(ev, BattleFought):
                assert list(ev.attack) == sorted(ev.attack, reverse=True)
                assert list(ev.defence) == sorted(ev.defence, reverse=True)
                seen.add((len(ev.attack), len(ev.defence)))
    assert {(3, 2), (3, 1), (1, 1)} <= seen


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_d6_faces_falls_back_to_counting_rejected_words(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENG-02: a rejected word (one in 4.6e18 in play) makes ``d6_faces_python`` count every word it
    draws: with the bound lowered so that about half are rejected, its faces and position are
    those of the counting loop, and without, both give ``Rng.die``'s faces."""
    for start in (0, 9):
        assert d6_faces_python(seed, start, 4) == d6_faces_counted(seed, start, 4)
        cursor = Rng(seed, start)
        assert d6_faces_counted(seed, start, 4) == ([cursor.die() for _ in range(4)], start + 4)
    monkeypatch.setattr(rng_module, "_D6_LIMIT", 1 << 63)
    faces, counter = d6_faces_python(seed, 3, 12)
    assert (faces, counter) == d6_faces_counted(seed, 3, 12)
    assert len(faces) == 12 and counter > 3 + 12


def test_place_refused_in_place_changes_nothing() -> None:
    """CL-09: placing more armies than the reserve is refused and changes nothing, through
    ``decide_and_apply`` as through ``decide``."""
    opening, commands = opening_and_commands("classic", 3)
    state = rc.replay(opening)
    for cmd in commands:
        if state.phase == "reinforce":
            break
        decide_and_apply(state, cmd)
    assert state.phase == "reinforce"
    before = rc.encode(state)
    mine = state.owner.index(state.current)
    territory = ruleset_of(state).board.territories[mine].id
    cmd = Place(seat=state.current, territory=territory, count=state.reserve + 1)
    with pytest.raises(RuleError) as err:
        decide_and_apply(state, cmd)
    assert err.value.code == "not_enough_armies"
    assert rc.encode(state) == before


def _read_tables(rs: RuleSet) -> object:
    return rs.handler_tables


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_rule_sets_own_attributes_are_read_the_fast_way(name: str) -> None:
    """ENG-01's hot path (issue 14, goal 2): ``decide`` and ``apply_in_place`` read the rule
    set's own attributes (``handler_tables``, the ``_core_*`` flags) for every command.
    CPython specialises such a read only while the instance keeps its attributes in its
    type's shared keys: at most 30 of them (a family adding more slows every read), and no
    ``__dict__`` asked of it (``vars`` makes one).  On CPython 3.11 the specialised bytecode
    is checked on the engine's own instance after a game was played with it."""
    opening, commands = opening_and_commands(name, seed=3, turns=2)
    rs = get_ruleset(name)
    state = rc.replay(opening)
    for command in commands:
        decide_and_apply(state, command)
    if sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11):
        # A code object of its own, so that no other rule set's reads specialised it first.
        read = types.FunctionType(_read_tables.__code__.replace(), {})
        for _ in range(1000):  # past the interpreter's warm-up
            read(rs)
        loads = [
            i.opname
            for i in dis.get_instructions(read, adaptive=True)
            if i.opname.startswith("LOAD_ATTR")
        ]
        assert loads == ["LOAD_ATTR_INSTANCE_VALUE"]
    fresh = type(rs)()  # counted on an instance of its own: ``vars`` would spoil the engine's
    assert len(vars(fresh)) <= 30, sorted(vars(fresh))
