"""``decide``'s finer copy on write and the battle's side-by-side draw (issue 14 goal 2) change
nothing a game shows (ENG-01): a card drawn or traded gets only the pile and the one hand it
changes copied, and leaves the state ``decide`` was given as it was; ``d6_faces``, which mixes
a throw's words side by side in one integer, draws exactly the faces and position of the
word-by-word counting loop."""

from __future__ import annotations

import random

import pytest

import risk_core as rc
from risk_core import rng as rng_module
from risk_core.bots import self_play
from risk_core.engine import evolve, list_rulesets, ruleset_of
from risk_core.model import CardDrawn, CardsTraded, copy_board
from risk_core.rng import Rng, d6_faces_counted, d6_faces_python

IN_PLACE = [
    (info.name, info.player_counts[0])
    for info in list_rulesets()
    if ruleset_of(
        rc.replay(rc.start(info.name, [f"P{i}" for i in range(info.player_counts[0])], seed=1))
    ).decides_in_place
]


def test_some_rule_sets_decide_in_place() -> None:
    """The test below checks something: classic is among the rule sets it covers."""
    assert "classic" in {name for name, _ in IN_PLACE}


@pytest.mark.parametrize(("name", "players"), IN_PLACE)
def test_partial_copy_covers_what_the_projector_changes(name: str, players: int) -> None:
    """CORE-11/12 (a card drawn), CORE-10 (a set traded): for every rule set that decides in
    place, before every such event of whole bot games, ``decide``'s partial copy
    (``copy_board`` and the kind's copier) applied the event leaves the original state byte
    for byte as it was, and becomes what ``evolve`` makes of it."""
    rs_checked = 0
    for level in ("greedy", "simple", "random"):
        for seed in (1, 2, 3):
            opening = rc.start(name, [f"P{i}" for i in range(players)], seed=seed)
            _, events = self_play(opening, level=level, seed=seed, max_turns=400)
            state = rc.replay(events[:1])
            rs = ruleset_of(state)
            partial = rs._partial_copies
            assert set(partial) == {CardDrawn, CardsTraded}
            for ev in events[1:]:
                copier = partial.get(type(ev))
                if copier is not None:
                    before = rc.encode(state)
                    work = copy_board(state)
                    copier(work, ev.seat)  # type: ignore[attr-defined]
                    rs.apply(work, ev)
                    assert rc.encode(state) == before, (level, seed, ev)
                    assert rc.encode(work) == rc.encode(evolve(state, ev))
                    rs_checked += 1
                rs.apply(state, ev)
    assert rs_checked > 10  # cards were drawn and traded


def test_decide_after_a_card_leaves_the_state_as_it_was() -> None:
    """ENG-01: a command whose events draw a card (the end of a turn after a conquest), then
    start the next turn, leaves the state ``decide`` was given byte for byte as it was, and
    ``apply_in_place`` of its events gives the same state as ``decide_and_apply``."""
    opening = rc.start("classic", ["A", "B", "C", "D"], seed=3)
    commands, _ = self_play(opening, seed=3)
    state = rc.replay(opening)
    drawn = 0
    for cmd in commands:
        before = rc.encode(state)
        events = rc.decide(state, cmd)
        assert rc.encode(state) == before
        other = rc.decode_state(before)
        assert rc.engine.decide_and_apply(other, cmd) == events
        rc.apply_in_place(state, events)
        assert rc.encode(other) == rc.encode(state)
        drawn += any(isinstance(ev, CardDrawn) for ev in events)
    assert drawn > 3


def test_d6_faces_side_by_side_equal_word_by_word() -> None:
    """ENG-01/02: for random seeds, positions (small and past 2**60) and throws of 0 to 12
    dice, the side-by-side draw gives the counting loop's faces and position."""
    r = random.Random(14)
    for _ in range(3000):
        seed = r.getrandbits(64)
        start = r.getrandbits(r.choice((3, 16, 40, 63)))
        n = r.randrange(13)
        assert d6_faces_python(seed, start, n) == d6_faces_counted(seed, start, n), (seed, start, n)
    cursor = Rng(2**64 - 1, 5)
    assert d6_faces_python(2**64 - 1, 5, 8) == ([cursor.die() for _ in range(8)], cursor.counter)


def test_d6_faces_rejected_word_in_a_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    """ENG-02: a rejected word in any lane of a throw makes ``d6_faces_python`` take the counting
    loop (bound lowered so that half the words are rejected)."""
    monkeypatch.setattr(rng_module, "_D6_LIMIT", 1 << 63)
    rejected = 0
    for seed in range(20):
        faces, counter = d6_faces_python(seed, 11, 5)
        assert (faces, counter) == d6_faces_counted(seed, 11, 5)
        assert len(faces) == 5
        rejected += counter > 16
    assert rejected > 10
