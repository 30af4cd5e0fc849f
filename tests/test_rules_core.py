"""CORE-* and ENG-* rules, checked on the classic board (catalogue §0.4 and §2)."""

from __future__ import annotations

from collections import Counter

import pytest

import risk_core as rc
from risk_core.model import (
    Attack,
    BattleFought,
    Branched,
    CardDrawn,
    DeckReshuffled,
    DefenceRequested,
    Defend,
    DiceReseeded,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    TerritoryConquered,
    Trade,
)
from risk_core.rng import Rng
from tests.gamekit import BOARD, IDS, armies_of, group, kinds, owner_of, play, position, rejected


# ----------------------------------------------------------------------------- ENG
def test_eng01_splitmix64_reference_vector() -> None:
    """ENG-01: the stream is SplitMix64 (reference outputs for seed 1234567), on any platform."""
    r = Rng(1234567)
    assert [r.next64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_eng01_same_seed_same_events_other_seed_differs() -> None:
    """ENG-01: same seed and commands give byte-identical events."""
    a = rc.start("classic", ["A", "B", "C"], seed=99)
    b = rc.start("classic", ["A", "B", "C"], seed=99)
    c = rc.start("classic", ["A", "B", "C"], seed=100)
    assert rc.encode(a) == rc.encode(b)
    assert rc.encode(a) != rc.encode(c)


def test_eng01_rejection_sampling_is_unbiased() -> None:
    """ENG-01: integers in a range come by rejection sampling; each face ~1/6 over many rolls."""
    r = Rng(5)
    counts = Counter(r.die() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in counts.values():
        assert abs(face - 10_000) < 400  # > 4 standard deviations would be a real bias


def test_eng01_position_lives_in_state() -> None:
    """ENG-01: the generator's position is in the state and advances only through events."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5}
    )
    before = state.rng
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert state.rng == battle.rng > before


def test_eng02_attacker_dice_drawn_before_defender() -> None:
    """ENG-02 and ENG-04: scripted faces go to the attacker's dice first, then the defender's."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 10, "kamchatka": 5},
        dice=[2, 6, 4, 5, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    battle = events[0]
    assert isinstance(battle, BattleFought)
    assert battle.attack == (6, 4, 2) and battle.defence == (5, 1)
    assert state.dice_script == []


def test_eng03_fisher_yates_is_a_permutation() -> None:
    """ENG-03: shuffles are permutations driven by the generator."""
    r = Rng(3)
    deck = list(range(44))
    shuffled = r.shuffle(deck)
    assert sorted(shuffled) == deck and shuffled != deck


def test_eng04_scripted_dice_then_seeded_stream() -> None:
    """ENG-04: a script is used first, then the seeded stream continues."""
    r = Rng(1, 0, [6, 6])
    assert r.dice(2) == [6, 6] and r.scripted == 2 and r.counter == 0
    r.die()
    assert r.counter >= 1


def test_eng06_ask_policy_waits_for_defender() -> None:
    """ENG-06: an `ask` seat is asked for its defence dice; an `auto` seat defends with the most."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5}
    )
    state.players[1].policy = "ask"
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    assert kinds(events) == ["DefenceRequested"] and state.phase == "defend"
    assert rc.to_act(state) == 1
    assert rejected(state, Defend(seat=1, dice=3)) == "too_many_dice"
    assert rejected(state, Defend(seat=0, dice=1)) == "not_your_turn"
    state, events = play(state, Defend(seat=1, dice=1))
    battle = events[0]
    assert isinstance(battle, BattleFought) and len(battle.defence) == 1
    assert state.phase == "attack" and rc.to_act(state) == 0


def test_eng06_auto_defender_uses_most_dice() -> None:
    """ENG-06 default policy: the most dice allowed (CORE-14)."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10, "kamchatka": 5}
    )
    _, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    assert len(events[0].defence) == 2  # type: ignore[attr-defined]


def test_eng08_options_recorded_and_validated() -> None:
    """ENG-08: every option is named, defaulted, validated and recorded in the opening event."""
    events = rc.start("classic", ["A", "B", "C"], seed=1, options={"fortify": "connected"})
    assert events[0].options["fortify"] == "connected"  # type: ignore[attr-defined]
    assert events[0].options["protected_rounds"] == 4  # type: ignore[attr-defined]
    with pytest.raises(rc.SetupError) as err:
        rc.start("classic", ["A", "B", "C"], seed=1, options={"fortify": "teleport"})
    assert err.value.code == "invalid_option"
    with pytest.raises(rc.SetupError) as err:
        rc.start("classic", ["A", "B", "C"], seed=1, options={"nonsense": 1})
    assert err.value.code == "invalid_option"


# ----------------------------------------------------------------------------- CORE
def test_core04_first_player_roll_off_only_tied_leaders_reroll() -> None:
    """CORE-04 / ENG-02 / DEC-16: 1d6 each, tied leaders re-roll in seat order."""
    events = rc.start("classic", ["A", "B", "C"], seed=1, dice=[5, 6, 6, 2, 4])
    first = next(e for e in events if type(e).__name__ == "FirstPlayerChosen")
    assert first.rolls == ((5, 6, 6), (0, 2, 4))  # type: ignore[attr-defined]
    assert first.seat == 2  # type: ignore[attr-defined]


def test_core05_setup_alternates_one_army_at_a_time() -> None:
    """CORE-05 / DEC-15: seats place one army each in turn order from the first player."""
    events = rc.start("classic", ["A", "B", "C"], seed=3)
    state = rc.replay(events)
    assert state.phase == "setup"
    seat = state.current
    mine = next(t for t, o in enumerate(state.owner) if o == seat)
    assert rejected(state, Place(seat=seat, territory=BOARD.territories[mine].id, count=2)) == (
        "bad_count"
    )
    state, _ = play(state, Place(seat=seat, territory=BOARD.territories[mine].id))
    assert state.current == (seat + 1) % 3


def test_core06_the_refusal_counts_what_is_left_to_place() -> None:
    """CORE-06: attacking with armies left to place is refused, the refusal counting them in
    plain words (one army is "1 army"); a side's dice likewise ("1 die", "1 to 3 dice")."""
    from risk_core.rulesets.base import dice_text

    state, _ = position(owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10})
    state, _ = play(state, Place(seat=0, territory="alaska", count=state.reserve - 1))
    with pytest.raises(rc.RuleError, match=r"^Place your 1 army before attacking\.$"):
        rc.decide(state, Attack(seat=0, origin="alaska", target="kamchatka"))
    assert (dice_text(1), dice_text(3)) == ("1 die", "1 to 3 dice")


def test_core06_phases_never_go_backwards() -> None:
    """CORE-06: no placing after attacking starts; no attacking before placing everything."""
    state, _ = position(owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 10})
    assert state.phase == "reinforce"
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka")) == "must_place"
    state, _ = play(state, Place(seat=0, territory="alaska", count=state.reserve))
    assert state.phase == "attack"
    assert rejected(state, Place(seat=0, territory="alaska")) == "wrong_phase"


@pytest.mark.parametrize(("count", "income"), [(1, 3), (8, 3), (9, 3), (12, 4), (14, 4), (18, 6)])
def test_core07_income_is_territories_over_three_min_three(count: int, income: int) -> None:
    """CORE-07 / CL-09 A: max(3, floor(T/3)); rulebook example 14 territories → 4."""
    # Deal round-robin across continents so that no continent is complete for seat 0.
    rank = {}
    for members in BOARD.group_members:
        for i, t in enumerate(members):
            rank[t] = (i, BOARD.territory_group[t])
    order = [BOARD.territories[t].id for t in sorted(rank, key=rank.__getitem__)]
    owners = {tid: (0 if i < count else 1) for i, tid in enumerate(order)}
    owners[order[-1]] = 2
    state, _ = position(owners=owners, default_owner=1)
    assert state.reserve == income


def test_core08_cl09_continent_bonus_rulebook_example() -> None:
    """CORE-08 / CL-09 B: all Africa + 5 Europe + 1 Asia = 12 territories → 4 + 3 = 7."""
    owners = {t: 0 for t in group("africa")}
    owners.update({t: 0 for t in group("europe")[:5]})
    owners[group("asia")[0]] = 0
    owners["argentina"] = 2
    state, events = position(owners=owners, default_owner=1)
    started = events[-1]
    assert started.groups == ("africa",)  # type: ignore[attr-defined]
    assert state.reserve == 7


def test_core08_no_bonus_when_one_territory_missing() -> None:
    """CORE-08: a region with one territory held by someone else gives nobody its bonus."""
    owners = {t: 0 for t in group("australia")[:3]}
    owners["argentina"] = 2
    state, events = position(owners=owners, default_owner=1)
    assert events[-1].groups == ()  # type: ignore[attr-defined]


def test_core09_placement_only_on_own_territories() -> None:
    """CORE-09 / CORE-20: reinforcements go on territories the army controls."""
    state, _ = position(owners={"alaska": 0, "kamchatka": 1})
    assert rejected(state, Place(seat=0, territory="kamchatka")) == "not_owner"
    assert rejected(state, Place(seat=0, territory="alaska", count=99)) == "not_enough_armies"
    assert rejected(state, Place(seat=0, territory="atlantis")) == "unknown_territory"
    state, _ = play(state, Place(seat=0, territory="alaska", count=2))
    assert armies_of(state, "alaska") == 5


def test_core11_discard_reshuffled_when_pile_is_empty() -> None:
    """CORE-11: an empty draw pile is rebuilt from the shuffled discard pile."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 10, "kamchatka": 1},
        dice=[6, 1],
    )
    state.discard = state.deck[:5]
    state.deck = []
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    state, events = play(state, EndTurn(seat=0))
    assert kinds(events)[:2] == ["DeckReshuffled", "CardDrawn"]
    reshuffled = events[0]
    assert isinstance(reshuffled, DeckReshuffled) and len(reshuffled.deck) == 5
    assert len(state.deck) == 4 and state.discard == []


def test_core11_no_card_when_both_piles_empty() -> None:
    """CORE-11: with both piles empty the draw is skipped."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 10, "kamchatka": 1},
        dice=[6, 1],
    )
    state.deck, state.discard = [], []
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    _, events = play(state, EndTurn(seat=0))
    assert "CardDrawn" not in kinds(events)


def test_core12_one_card_however_many_conquests() -> None:
    """CORE-12 / CL-18: one card at the end of a turn with at least one conquest."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1, "alberta": 1},
        armies={"alaska": 10, "kamchatka": 1, "alberta": 1},
        dice=[6, 1, 6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    state, _ = play(state, Attack(seat=0, origin="alaska", target="alberta", dice=1, move=1))
    hand = len(state.players[0].hand)
    state, events = play(state, EndTurn(seat=0))
    assert kinds(events).count("CardDrawn") == 1
    assert len(state.players[0].hand) == hand + 1


def test_core12_no_card_without_conquest() -> None:
    """CORE-12: no conquest, no card."""
    state, _ = position(phase="attack")
    _, events = play(state, EndTurn(seat=0))
    assert "CardDrawn" not in kinds(events)


def test_core13_attack_preconditions() -> None:
    """CORE-13 / CORE-20: own origin with ≥2 armies, connected enemy target."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1, "alberta": 0, "brazil": 1, "northwest_territory": 0},
        armies={"alaska": 1, "alberta": 5},
    )
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka")) == (
        "not_enough_armies"
    )
    assert rejected(state, Attack(seat=0, origin="alberta", target="brazil")) == "not_adjacent"
    assert rejected(state, Attack(seat=0, origin="kamchatka", target="alaska")) == "not_owner"
    assert rejected(state, Attack(seat=0, origin="alberta", target="northwest_territory")) == (
        "own_territory"
    )


def test_core14_dice_counts() -> None:
    """CORE-14: 1 ≤ attack dice ≤ min(3, armies − 1); defence ≤ min(2, armies)."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 3, "kamchatka": 1}
    )
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3)) == (
        "too_many_dice"
    )
    assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=4)) == (
        "too_many_dice"
    )
    # No die at all is a count below 1 (`bad_count`), not too many dice.
    for dice in (0, -1):
        assert rejected(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=dice)) == (
            "bad_count"
        )
    state.players[1].policy = "ask"
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=2))
    assert rejected(state, Defend(seat=1, dice=2)) == "too_many_dice"  # only 1 army
    assert rejected(state, Defend(seat=1, dice=0)) == "bad_count"


@pytest.mark.parametrize(
    ("dice", "a_loss", "d_loss"),
    [
        ([6, 5, 4, 6, 3], 1, 1),  # 6v6 tie → attacker loses; 5v3 → defender loses
        ([3, 3, 1, 2, 2], 0, 2),
        ([1, 2, 3, 3, 3], 2, 0),  # ties go to the defender
        ([6, 6, 6, 6, 6], 2, 0),
    ],
)
def test_core15_battle_resolution(dice: list[int], a_loss: int, d_loss: int) -> None:
    """CORE-15: sorted dice compared pairwise; ties to the defender; unpaired dice ignored."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 10, "kamchatka": 5},
        dice=dice,
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    battle = events[0]
    assert isinstance(battle, BattleFought)
    assert (battle.attacker_losses, battle.defender_losses) == (a_loss, d_loss)
    assert armies_of(state, "alaska") == 10 - a_loss
    assert armies_of(state, "kamchatka") == 5 - d_loss


def test_core16_invasion_can_switch_origin() -> None:
    """CORE-16: battles against one target from another bordering territory of the attacker."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "alberta": 0, "northwest_territory": 1},
        armies={"alaska": 5, "alberta": 5, "northwest_territory": 4},
        dice=[6, 6, 1, 1, 6, 6, 1, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="alaska", target="northwest_territory", dice=2))
    state, _ = play(state, Attack(seat=0, origin="alberta", target="northwest_territory", dice=2))
    assert owner_of(state, "northwest_territory") == 0


def test_core16_repeat_until_conquest_each_battle_an_event() -> None:
    """CORE-16 + convenience: `until=conquer` repeats battles, each recorded separately."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 30, "kamchatka": 6},
        seed=11,
    )
    state, events = play(
        state, Attack(seat=0, origin="alaska", target="kamchatka", until="conquer")
    )
    battles = [e for e in events if isinstance(e, BattleFought)]
    assert len(battles) >= 3
    assert owner_of(state, "kamchatka") == 0 or armies_of(state, "alaska") == 1


def test_core16_repeat_stops_at_threshold() -> None:
    """Convenience stop condition: stop when the origin is down to `stop_at` armies."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 6, "kamchatka": 30},
        dice=[1] * 60,
    )
    state, events = play(
        state, Attack(seat=0, origin="alaska", target="kamchatka", until="conquer", stop_at=4)
    )
    assert armies_of(state, "alaska") <= 4
    assert all(isinstance(e, BattleFought) for e in events)
    assert len(events) == 1  # 6 → 4 after one 2-vs-2 loss... exactly one battle of 3 dice


def test_core17_conquest_moves_at_least_the_dice_rolled() -> None:
    """CORE-17: move ≥ dice of the last battle, leave 1; occupy before any further attack."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1, "alberta": 1},
        armies={"alaska": 8, "kamchatka": 1},
        dice=[6, 5, 4, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=3))
    conquered = events[1]
    assert isinstance(conquered, TerritoryConquered)
    assert (conquered.min, conquered.max) == (3, 7)
    assert state.phase == "occupy"
    assert armies_of(state, "kamchatka") == 3  # the minimum moved at once
    assert rejected(state, Attack(seat=0, origin="alaska", target="alberta")) == "must_occupy"
    assert rejected(state, Occupy(seat=0, count=2)) == "bad_count"
    assert rejected(state, Occupy(seat=0, count=8)) == "bad_count"
    state, _ = play(state, Occupy(seat=0, count=5))
    assert (armies_of(state, "alaska"), armies_of(state, "kamchatka")) == (3, 5)
    assert state.phase == "attack"


def test_core17_no_choice_means_automatic_occupation() -> None:
    """CORE-17: when the minimum is also the maximum the move is made at once."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 2, "kamchatka": 1},
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1))
    assert state.phase == "attack"
    assert (armies_of(state, "alaska"), armies_of(state, "kamchatka")) == (1, 1)


def test_core18_elimination() -> None:
    """CORE-18: an army with no territory is eliminated and takes no further turn."""
    state, _ = position(
        ruleset="classic-conquest",
        players=3,
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1},
        armies={"kamchatka": 1, "alaska": 5},
        default_owner=0,
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert "PlayerEliminated" in kinds(events)
    assert state.players[2].eliminated and state.players[2].eliminated_by == 0
    state, events = play(state, EndTurn(seat=0))
    assert state.current == 1
    state, _ = play(state, Place(seat=1, territory="brazil", count=state.reserve))
    state, _ = play(state, EndTurn(seat=1))
    assert state.current == 0  # seat 2 is skipped


def test_core18_trade_window_closes_at_the_next_move_not_at_bookkeeping() -> None:
    """CL-20/NAP-23: the window to trade the cards taken from an eliminated army closes with the
    first event of the attack phase that is no follow-up of the elimination (a defence request
    here: the next battle has begun); a branch's new dice do not close it."""
    cards = [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == "infantry"][-3:]
    state, _ = position(
        ruleset="classic-conquest",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, "brazil": 1, **{n: 1 for n in cards}},
        armies={"kamchatka": 1, "alaska": 5, "venezuela": 4},
        default_owner=0,
        hands={2: cards},
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    assert state.phase == "attack" and state.may_trade
    branched = rc.evolve(
        rc.evolve(state, Branched(parent="g", version=9)), DiceReseeded(seed=3, commitment="c")
    )
    assert branched.may_trade
    asked = rc.evolve(state, DefenceRequested(seat=1, origin="venezuela", target="brazil", dice=1))
    assert not asked.may_trade


def test_core19_free_move_leaves_one_and_ends_the_turn() -> None:
    """CORE-19 / CL-19: one move to an adjacent own territory, leaving ≥1; then the turn ends."""
    state, _ = position(
        phase="attack", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 5, "alberta": 1}
    )
    assert rejected(state, Fortify(seat=0, origin="alaska", target="alberta", count=5)) == (
        "not_enough_armies"
    )
    state, events = play(state, Fortify(seat=0, origin="alaska", target="alberta", count=4))
    assert (armies_of(state, "alaska"), armies_of(state, "alberta")) == (1, 5)
    assert kinds(events)[:2] == ["Fortified", "TurnEnded"]
    # CORE-20: a second free move is impossible — the turn is over.
    assert rejected(state, Fortify(seat=0, origin="alberta", target="alaska", count=1)) == (
        "not_your_turn"
    )


def test_core20_trading_outside_allowed_phases() -> None:
    """CORE-20: trading cards outside the phases where trading is allowed."""
    state, _ = position(phase="attack", hands={0: ["alaska", "kamchatka", "brazil"]})
    cards = tuple(sorted(state.players[0].hand))
    assert rejected(state, Trade(seat=0, cards=cards)) == "wrong_phase"


def test_core20_commands_from_the_wrong_seat() -> None:
    """CORE-20/CORE-21: only the seat that must act may command."""
    state, _ = position()
    assert rejected(state, Place(seat=1, territory="kamchatka")) == "not_your_turn"
    assert rejected(state, Place(seat=7, territory="kamchatka")) == "unknown_seat"


def test_core20_game_over_refuses_everything() -> None:
    """No command is accepted once the game is won."""
    state, _ = position(phase="attack")
    state.phase = "over"
    assert rejected(state, EndTurn(seat=0)) == "game_over"


def test_draws_recorded_in_events() -> None:
    """Events carry the card drawn, so replay needs no randomness."""
    state, _ = position(
        phase="attack",
        owners={"alaska": 0, "kamchatka": 1},
        armies={"alaska": 10, "kamchatka": 1},
        dice=[6, 1],
    )
    top = state.deck[-1]
    state, _ = play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))
    _, events = play(state, EndTurn(seat=0))
    drawn = next(e for e in events if isinstance(e, CardDrawn))
    assert drawn.card == top
