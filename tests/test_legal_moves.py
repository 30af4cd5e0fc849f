"""Issue 14: legal moves with counts as ranges, and a random player that finishes games.

``legal_moves`` lists each command once with its count (dice, armies) as an inclusive range, so
its length follows the choices of territory and card, not the armies on the board; expanded in
order it is exactly ``legal_commands``.  The random bot draws from it: a kind of move, an entry
of that kind, then a count.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

import risk_core as rc
from risk_core.bots import bot_rng, random_command, self_play
from risk_core.engine import legal_moves
from risk_core.model import Attack, EndTurn, Fortify, GameState, LegalMove, Place
from risk_core.move_groups import grouped_moves
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import COLOURS, compact_commands

INFOS = {info.name: info for info in rc.rulesets()}
RULESETS = [
    pytest.param(name, n, id=f"{name}-{n}p")
    for name, info in INFOS.items()
    for n in sorted({info.min_players, info.max_players})
    if get_ruleset(name).allows_players(n)
]


def expanded(moves: list[LegalMove]) -> list[msgspec.Struct]:
    return [cmd for move in moves for cmd in move.commands()]


def late_game(seed: int = 1, commands: int = 400) -> GameState:
    """A classic position after ``commands`` random-player commands."""
    opening = rc.start("classic", ["A", "B", "C", "D"], seed=seed)
    state = rc.replay(opening)
    for _ in range(commands):
        cmd = random_command(state, bot_rng(state, seed))
        rc.apply_in_place(state, rc.decide(state, cmd))
    return state


@pytest.mark.parametrize(("ruleset", "players"), RULESETS)
def test_legal_moves_expand_to_legal_commands(ruleset: str, players: int) -> None:
    """issue 14: expanding ``legal_moves`` in order gives ``legal_commands``, same order, in every
    rule set and every phase a mostly random game reaches."""
    # Seats that answer every question themselves: defence, the ally's armies… are asked.
    seats = [rc.SeatInfo(name=f"P{i}", colour=COLOURS[i], policy="ask") for i in range(players)]
    opening = rc.start(ruleset, seats, seed=5)
    commands, _ = self_play(opening, level="random", seed=3, max_turns=30)
    state = rc.replay(opening)
    phases: set[str] = set()
    for cmd in commands:
        moves = legal_moves(state)
        assert moves and expanded(moves) == rc.legal_commands(state), state.phase
        assert all(m.size() >= 1 for m in moves)
        phases.add(state.phase)
        rc.apply_in_place(state, rc.decide(state, cmd))
    assert {"reinforce", "attack", "defend"} <= phases
    if ruleset == "classic-2p":
        assert "ally_place" in phases
    over = rc.replay(self_play(opening, seed=1)[1])
    assert over.phase == "over" and legal_moves(over) == [] == rc.legal_commands(over)


@pytest.mark.parametrize(("ruleset", "players"), RULESETS)
def test_every_count_range_is_exact(ruleset: str, players: int) -> None:
    """issue 14: each entry's lowest and highest count are accepted by ``decide`` and the
    counts just outside its range are refused, in every rule set (NAP-ADV-22's conversions
    into ships, NAP-ADV-39's maneuvers and DEC-23's leading generals among them), so that
    `risk moves` and the random player offer every count a command may take, and no other."""
    seats = [rc.SeatInfo(name=f"P{i}", colour=COLOURS[i], policy="ask") for i in range(players)]
    opening = rc.start(ruleset, seats, seed=7)
    commands, _ = self_play(opening, level="random", seed=4, max_turns=30)
    state = rc.replay(opening)
    checked: Counter[str] = Counter()
    for i, cmd in enumerate(commands):
        if i % 3 == 0:
            for move in legal_moves(state):
                if move.field is None:
                    continue
                for inside in (move.low, move.high):
                    rc.decide(state, msgspec.structs.replace(move.command, **{move.field: inside}))
                for outside in (move.low - 1, move.high + 1):
                    wrong = msgspec.structs.replace(move.command, **{move.field: outside})
                    with pytest.raises(rc.RuleError):
                        rc.decide(state, wrong)
                checked[type(move.command).__name__] += 1
        rc.apply_in_place(state, rc.decide(state, cmd))
    assert checked["Place"] and checked["Attack"], checked
    if ruleset.startswith("napoleon-advanced"):
        assert {"Convert", "MoveGeneral", "Lead"} <= set(checked), checked


def test_legal_moves_do_not_grow_with_the_armies() -> None:
    """issue 14: ten times the armies multiply ``legal_commands`` but not ``legal_moves``."""
    state = late_game()
    while state.phase != "attack" or not any(
        isinstance(m.command, Fortify) for m in legal_moves(state)
    ):
        rc.apply_in_place(state, rc.decide(state, random_command(state, bot_rng(state, 2))))
    before_moves, before_commands = legal_moves(state), rc.legal_commands(state)
    # Ten times every stack that can move (a lone army stays one: no new origin appears).
    state.armies = [a if a < 2 else 10 * a for a in state.armies]
    after_moves, after_commands = legal_moves(state), rc.legal_commands(state)
    assert len(after_moves) == len(before_moves)
    assert len(after_commands) > 5 * len(before_commands)
    fortify = next(m for m in after_moves if isinstance(m.command, Fortify))
    assert fortify.field == "count" and fortify.low == 1 and fortify.high >= 19
    assert expanded(after_moves) == after_commands


def test_legal_move_runs_are_ordered_counts() -> None:
    """issue 14: an entry stands for its command at every count from ``low`` to ``high``."""
    move = LegalMove(command=Place(seat=0, territory="alaska"), field="count", low=2, high=4)
    assert move.size() == 3
    assert move.commands() == [Place(seat=0, territory="alaska", count=k) for k in (2, 3, 4)]
    single = LegalMove(command=EndTurn(seat=1))
    assert single.size() == 1 and single.commands() == [EndTurn(seat=1)]


def test_random_bot_draws_the_kind_of_move_first() -> None:
    """issue 14: the random player picks the kind of move uniformly (attack, fortify, end…),
    whatever the number of counts each kind has, and keeps its counts in range."""
    state = late_game()
    while state.phase != "attack" or len({type(m.command) for m in legal_moves(state)}) < 3:
        rc.apply_in_place(state, rc.decide(state, random_command(state, bot_rng(state, 2))))
    kinds = {type(m.command) for m in legal_moves(state)}
    seen: Counter[type] = Counter()
    draws = 600
    for seed in range(draws):
        cmd = random_command(state, bot_rng(state, seed))
        rc.decide(state, cmd)  # legal
        seen[type(cmd)] += 1
    assert set(seen) == kinds
    for kind in kinds:  # about draws / len(kinds) each
        assert abs(seen[kind] - draws / len(kinds)) < draws / len(kinds) / 3, seen
    # Without blitz every draw is an entry of legal_moves as it is.
    plain = [random_command(state, bot_rng(state, s), blitz=False) for s in range(100)]
    legal = rc.legal_commands(state)
    assert all(cmd in legal for cmd in plain)
    assert any(isinstance(c, Attack) and c.until == "conquer" for c in seen_attacks(state))


def seen_attacks(state: GameState) -> list[Attack]:
    picks = [random_command(state, bot_rng(state, s)) for s in range(200)]
    return [c for c in picks if isinstance(c, Attack)]


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_random_players_finish_classic_games(seed: int) -> None:
    """issue 14: four random players end a classic game with a winner within 2,000 turns (the
    uniform draw from every count never did: 0 of 10 seeds)."""
    opening = rc.start("classic", ["A", "B", "C", "D"], seed=seed)
    _, events = self_play(opening, level="random", seed=seed, max_turns=2000)
    state = rc.replay(events)
    assert state.phase == "over" and state.winner is not None
    assert state.turn <= 2000


def test_family_commands_are_compacted_in_order() -> None:
    """issue 14: a family generator's list of every count becomes ranges, order kept."""
    cmds = [
        Place(seat=0, territory="a", count=1),
        Place(seat=0, territory="a", count=2),
        Place(seat=0, territory="a", count=3),
        Place(seat=0, territory="b", count=3),
        Place(seat=0, territory="b", count=4),
        Fortify(seat=0, origin="a", target="b", count=2),
        EndTurn(seat=0),
    ]
    moves = compact_commands(cmds)
    assert [(type(m.command), m.field, m.low, m.high) for m in moves] == [
        (Place, "count", 1, 3),
        (Place, "count", 3, 4),
        (Fortify, None, 0, 0),
        (EndTurn, None, 0, 0),
    ]
    assert expanded(moves) == cmds
    # A seat's or a card's number counts nothing: neighbours stay choices of their own.
    from risk_core.rulesets.napoleon_independents import ReinforceAlly

    allies = [ReinforceAlly(seat=0, ally=2), ReinforceAlly(seat=0, ally=3)]
    assert [m.field for m in compact_commands(allies)] == [None, None]


@pytest.mark.parametrize("ruleset", ["classic", "napoleon-2p", "risk2008", "napoleon-advanced"])
def test_risk_moves_reads_ranges_as_it_read_every_count(ruleset: str) -> None:
    """issue 14: ``risk moves`` groups ``legal_moves`` into what it showed from every command;
    a family command keeps its count as a range (``[low, high]``) where each count was one
    entry."""
    info = INFOS[ruleset]
    opening = rc.start(ruleset, [f"P{i}" for i in range(info.min_players)], seed=8)
    commands, _ = self_play(opening, level="random", seed=2, max_turns=25)
    state = rc.replay(opening)
    ranged = 0
    for i, cmd in enumerate(commands):
        if i % 5 == 0:
            moves = legal_moves(state)
            one_by_one = [LegalMove(command=c) for c in rc.legal_commands(state)]
            runs = grouped_moves(state, moves)
            ranged += sum(m.field is not None for m in moves if "other" in _group_of(runs, m))
            runs["other"] = {k: _each_count(v) for k, v in runs["other"].items()}
            assert runs == grouped_moves(state, one_by_one)
        rc.apply_in_place(state, rc.decide(state, cmd))
    assert ruleset != "napoleon-advanced" or ranged, "no ranged family command was seen"


def _group_of(groups: dict[str, Any], move: LegalMove) -> str:
    """ "other" when ``move`` is a family command (listed by its type), else "core"."""
    return "other" if move.command.__struct_config__.tag in groups["other"] else "core"


def _each_count(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Family entries with each ``[low, high]`` range expanded to one entry per count."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        spans = [k for k, v in entry.items() if isinstance(v, list)]
        if not spans:
            out.append(entry)
            continue
        (field,) = spans
        low, high = entry[field]
        out += [{**entry, field: n} for n in range(low, high + 1)]
    return out


def test_no_moves_are_the_groups_of_none() -> None:
    """``no_moves`` (what `risk moves` shows a seat that need not act, locally or through the
    service) is ``grouped_moves`` of an empty list."""
    from risk_core.move_groups import no_moves

    state = rc.replay(rc.start("classic", ["Ann", "Bob", "Cy"], seed=1))
    assert grouped_moves(state, []) == no_moves()


def check_counts(state: GameState, kind: str) -> int:
    """Each ``kind`` move listed: its counts run from 1 to what the origin may send (one
    command when that is 1), the highest accepted and one more refused; how many there were."""
    seen = 0
    for move in legal_moves(state):
        if type(move.command).__name__ != kind:
            continue
        origin = rc.ruleset_of(state).board.index[move.command.origin]  # type: ignore[attr-defined]
        most = state.armies[origin] - 1
        top = move.high if move.field else move.command.count  # type: ignore[attr-defined]
        assert (move.low if move.field else top, top) == (1, most), move
        rc.decide(state, msgspec.structs.replace(move.command, count=most))
        with pytest.raises(rc.RuleError):
            rc.decide(state, msgspec.structs.replace(move.command, count=most + 1))
        seen += 1
    return seen


def test_the_1796_ally_maneuver_lists_every_count() -> None:
    """issue 14: the 1796 campaign's ally maneuver is listed with every count ``decide``
    takes (it was listed with 1 only, so the random player only ever moved one regiment and
    `risk moves` said so)."""
    opening = rc.start("napoleon-1796", ["Ann", "Bob"], seed=2)
    commands, _ = self_play(opening, level="greedy", seed=2)
    state = rc.replay(opening)
    seen = 0
    for cmd in commands:
        seen += check_counts(state, "AllyManeuver")
        rc.apply_in_place(state, rc.decide(state, cmd))
    assert seen


def test_the_strategic_maneuver_lists_every_count(tmp_path: Any) -> None:
    """issue 14, R08-CC-11: the Strategic Maneuver is listed with every count (it was listed
    with 1 only), for a seat holding the reward before its first attack."""
    from tests.risk2008_kit import engine_game

    state, _ = engine_game(
        ruleset="risk2008",
        phase="attack",
        armies={"alaska": 7},
        owners={"alaska": 0, "alberta": 0, "northwest_territory": 0},
        family={"rewards": {"Ann": ["strategic_maneuver"]}},
    )
    assert check_counts(state, "StrategicMove") >= 2


def test_napoleon_2p_ally_maneuvers_are_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 14: napoleon-2p with active independents lists each ally maneuver and fortify as
    one run of counts, never every count (it listed them all, so a random game's lists grew
    with the armies to thousands of commands and took minutes); expanded, the runs are
    legal_commands."""
    from risk_core.rulesets.napoleon_2p import Napoleon2P

    def every_count(*_: Any) -> Any:
        raise AssertionError("legal_moves listed every count")

    opening = rc.start("napoleon-2p", ["Ann", "Bob"], seed=1, options={"independents": "active"})
    commands, _ = self_play(opening, level="random", seed=1, max_turns=120)
    state = rc.replay(opening)
    checked = 0
    for i, cmd in enumerate(commands):
        if state.phase in ("attack", "ally_maneuver") and i % 5 == 0:
            listed = rc.legal_commands(state)
            with monkeypatch.context() as m:
                m.setattr(Napoleon2P, "_legal_ally_moves", every_count)
                m.setattr(Napoleon2P, "_legal_attack", every_count)
                moves = legal_moves(state)
            pairs = [
                (type(m.command).__name__, m.command.origin, m.command.target)  # type: ignore[attr-defined]
                for m in moves
                if type(m.command).__name__ in ("AllyManeuver", "Fortify")
            ]
            assert len(pairs) == len(set(pairs)), "a pair listed twice: counts not one run"
            assert expanded(moves) == listed
            checked += any(p[0] == "AllyManeuver" for p in pairs)
        rc.apply_in_place(state, rc.decide(state, cmd))
    assert checked
