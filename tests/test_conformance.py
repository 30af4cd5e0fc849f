"""Conformance: every registered rule set, at every player count it allows, played to the end.

Games mix uniformly random legal play (a hypothesis-drawn number of opening commands) with the
greedy bot, which finishes them.  After every event the audit checks the invariants that hold
in every rule set: occupation (CORE-02), units (CORE-03), cards (CORE-10/11), determinism of the
projection (ENG-01: ``replay`` equals the live state) and the JSON contract of commands and
events; after every command it checks that ``decide`` is pure and rejects illegal commands
(ENG-05).  Rule sets are read from the registry, so a new one is covered without editing this.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import risk_core as rc
from risk_core.bots import LEVELS, choose, play, propose, self_play
from risk_core.model import (
    ArmiesPlaced,
    Attack,
    BattleFought,
    CardDrawn,
    CardsTraded,
    Command,
    DeckFormed,
    DeckReshuffled,
    Defend,
    EndTurn,
    Event,
    Fortify,
    GameState,
    Occupy,
    OptionValue,
    Place,
    PlayerEliminated,
    SetupPlaced,
    TerritoriesDealt,
    TerritoryConquered,
    Trade,
    TurnStarted,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import COLOURS

INFOS = {info.name: info for info in rc.rulesets()}
CASES = [
    pytest.param(name, n, id=f"{name}-{n}p")
    for name, info in INFOS.items()
    for n in range(info.min_players, info.max_players + 1)
    if get_ruleset(name).allows_players(n)
]
MAX_TURNS = 400  # random openings last ~60 turns at most; greedy bots finish in ~150
RANDOM_PREFIX = 300  # at most this many uniformly random commands before the greedy bot
LEGAL_SAMPLES = 2  # legal commands tried per step (every one would be too slow)
ILLEGAL_SAMPLES = 2  # certainly-illegal commands tried per step
Policy = Literal["auto", "ask"]
POLICIES: tuple[Policy, ...] = ("auto", "ask")


# ----------------------------------------------------------------------------- the audit
class Audit:
    """Plays a game command by command and checks every invariant after every event."""

    def __init__(self, opening: Sequence[Event], rng: random.Random) -> None:
        self.rng = rng
        self.live = rc.replay(opening[:1])
        self.shadow = rc.replay(opening[:1])  # the in-place fast path replays use
        self.rs = rc.ruleset_of(self.live)
        self.board = self.rs.board
        self.ids = [t.id for t in self.board.territories]
        self.events: list[Event] = [opening[0]]
        self.commands: list[Command] = []
        self.universe: list[int] | None = None  # every card id, once the deck is formed
        self.emptied: int | None = None  # territory a battle just emptied
        self.round_trip_event(opening[0])
        for ev in opening[1:]:
            self.event(ev)

    # ---- events
    def round_trip_event(self, ev: Event) -> None:
        assert rc.decode_event(rc.encode(ev)) == ev

    def event(self, ev: Event) -> None:
        self.round_trip_event(ev)
        before = self.live
        blob = rc.encode(before)
        after = rc.evolve(before, ev)
        assert rc.encode(before) == blob, "evolve changed its input state"
        rc.apply_in_place(self.shadow, [ev])
        assert rc.encode(self.shadow) == rc.encode(after), "in-place replay diverged (ENG-01)"
        self.check_occupation(after, ev)
        self.check_units(before, after, ev)
        self.check_cards(before, after, ev)
        assert after.version == before.version + 1
        self.live = after
        self.events.append(ev)

    def check_occupation(self, s: GameState, ev: Event) -> None:
        """CORE-02: every territory is held by one live army with at least one unit.

        Allowed moments: unclaimed territories (owner -1, 0 units) during a claim setup, and a
        territory a battle has just emptied, which the very next event must conquer.
        """
        if self.emptied is not None:
            assert isinstance(ev, TerritoryConquered), f"emptied territory left: {ev}"
            assert self.board.index[ev.target] == self.emptied
            self.emptied = None
        n = len(s.players)
        problems = self.rs.check_invariants(s)
        assert not problems, f"{problems} after {ev}"
        for t, (o, a) in enumerate(zip(s.owner, s.armies, strict=True)):
            if o == -1:
                if a >= 1 and len(self.rs.occupants(s, t)) > 1:
                    continue  # NAP-TEAM-04: teammates tied for the most units: nobody controls it
                if a == 0 and self.rs.uncontrolled(s, t):
                    continue  # NAP-ADV-45: emptied by an epidemic, nobody controls it
                assert s.phase == "setup" and a == 0, f"{self.ids[t]} unowned outside setup"
                continue
            assert 0 <= o < n and not s.players[o].eliminated, f"{self.ids[t]} owner {o}"
            if a == 0 and isinstance(ev, BattleFought) and self.board.index[ev.target] == t:
                self.emptied = t
                continue
            assert a >= 1, f"{self.ids[t]} has {a} armies after {ev}"

    def check_units(self, s0: GameState, s1: GameState, ev: Event) -> None:
        """CORE-03: units appear only as reinforcements and disappear only in battle.

        The board total moves exactly as the rule set's ``army_change`` says for the event
        (its family adds its own placing events); CORE's pools (setup armies, the reserve) grow
        only from turn income and trades, and a family's own pools follow its
        ``check_transition``.
        """
        expected = self.rs.army_change(s0, ev)
        reserve = s0.reserve
        setup_left = list(s0.setup_left)
        if isinstance(ev, TerritoriesDealt):
            setup_left = list(ev.setup_left)
        elif isinstance(ev, SetupPlaced):
            setup_left[ev.seat] -= ev.count
        elif isinstance(ev, TurnStarted):
            assert s0.reserve == 0, "armies left unplaced at the end of a turn"
            assert ev.territories == s0.owner.count(ev.seat) and ev.income >= 0
            reserve = ev.income
        elif isinstance(ev, CardsTraded):
            reserve += ev.value
        elif isinstance(ev, ArmiesPlaced):
            reserve -= ev.count
        elif isinstance(ev, BattleFought):
            assert ev.attacker_losses + ev.defender_losses == min(len(ev.attack), len(ev.defence))
        else:
            reserve += self.rs.reserve_change(s0, ev)
        assert sum(s1.armies) - sum(s0.armies) == expected, f"units not conserved by {ev}"
        assert s1.reserve == reserve, f"reserve drifted on {ev}"
        assert s1.setup_left == setup_left
        assert s1.reserve >= 0 and min(s1.setup_left) >= 0
        problems = self.rs.check_transition(s0, s1, ev)
        assert not problems, f"{problems} after {ev}"

    def check_cards(self, s0: GameState, s1: GameState, ev: Event) -> None:
        """CORE-10/11: every card of the deck is in the pile, the discards or a hand, once.

        A family's own piles (a second deck, cards given away) are its ``family_cards``: a card
        is never held twice, and the cards of the deck formed at the start never get lost.
        """
        if isinstance(ev, DeckFormed):
            self.universe = sorted(ev.deck)
            assert set(self.universe) <= set(range(len(self.board.card_symbols)))
        elif isinstance(ev, DeckReshuffled):
            assert not s0.deck and sorted(ev.deck) == sorted(s0.discard)
        elif isinstance(ev, CardDrawn):
            assert ev.card == s0.deck[-1]
        elif isinstance(ev, PlayerEliminated):
            assert sorted(ev.cards) == sorted(s0.players[ev.seat].hand)
        held = [*s1.deck, *s1.discard, *(c for p in s1.players for c in p.hand)]
        family = list(self.rs.family_cards(s1))
        assert len(set(held + family)) == len(held) + len(family), f"a card held twice: {ev}"
        if self.universe is None:
            assert not held
            return
        dealt = set(self.universe)
        in_play = sorted([*held, *(c for c in family if c in dealt)])
        assert in_play == self.universe, f"cards not conserved after {ev}"
        for p in s1.players:
            assert not (p.eliminated and p.hand), "an eliminated player kept cards"

    # ---- commands
    def command(self, cmd: Command) -> None:
        """Decide ``cmd`` (which must be legal) and audit each of its events."""
        assert rc.decode_command(rc.encode(cmd)) == cmd
        blob = rc.encode(self.live)
        new = rc.decide(self.live, cmd)
        assert rc.encode(self.live) == blob, "decide changed its input state (ENG-05)"
        assert rc.encode(rc.decide(self.live, cmd)) == rc.encode(new)  # ENG-01: same bytes
        self.commands.append(cmd)
        for ev in new:
            self.event(ev)

    def probe_legal(self) -> list[Command]:
        """``legal_commands`` is never empty before the end, and a sample of it is accepted."""
        s = self.live
        legal = rc.legal_commands(s)
        assert legal, f"no legal command in phase {s.phase}"
        seat = rc.to_act(s)
        blob = rc.encode(s)
        for cmd in self.rng.sample(legal, min(LEGAL_SAMPLES, len(legal))):
            assert cmd.seat == seat
            rc.decide(s, cmd)  # raises if a listed command is not accepted
            if isinstance(cmd, Attack):  # the repeat-until-conquest form is legal too
                stop, move = self.rng.randint(1, 6), self.rng.randint(-3, 60)
                repeat = msgspec.structs.replace(cmd, until="conquer", stop_at=stop, move=move)
                try:
                    rc.decide(s, repeat)
                except rc.RuleError as e:  # CORE-14: unless its origin is at its stop already
                    assert e.code == "bad_count" and "fight no battle" in e.message, e
                    rc.decide(s, msgspec.structs.replace(repeat, stop_at=1))
        assert rc.encode(s) == blob, "decide changed its input state (ENG-05)"
        return legal

    def probe_illegal(self, legal: Sequence[Command]) -> None:
        """ENG-05: certainly-illegal commands raise RuleError and change nothing."""
        s = self.live
        blob = rc.encode(s)
        for cmd in self.rng.sample(self.illegal_commands(s, legal), ILLEGAL_SAMPLES):
            with pytest.raises(rc.RuleError):
                rc.decide(s, cmd)
            assert rc.encode(s) == blob, f"a rejected {cmd} changed the state"

    def illegal_commands(self, s: GameState, legal: Sequence[Command]) -> list[Command]:
        seat = rc.to_act(s)
        assert seat is not None
        r, ids, n = self.rng, self.ids, len(self.ids)
        other = r.choice([i for i in range(len(s.players) + 1) if i != seat])
        a, b = r.randrange(n), r.randrange(n)
        reach = self.rs.attack_graph(s, seat)
        while b in reach[a]:  # a random pair out of reach (or a == b)
            a, b = r.randrange(n), r.randrange(n)
        foreign = [t for t in range(n) if seat not in self.rs.occupants(s, t)]
        hand = set(s.players[seat].hand)
        missing = next(c for c in range(len(self.board.card_symbols) + 3) if c not in hand)
        out: list[Command] = [
            msgspec.structs.replace(self.rng.choice(legal), seat=other),  # not this seat's turn
            Attack(seat=seat, origin=ids[a], target=ids[b]),  # not adjacent
            Place(seat=seat, territory=ids[r.randrange(n)], count=0),
            Place(seat=seat, territory="atlantis"),
            Trade(seat=seat, cards=(missing, missing, missing)),
            Occupy(seat=seat, count=-1),
            Defend(seat=seat, dice=self.rs.defence_dice_max + 1),
        ]
        if foreign:
            f = r.choice(foreign)
            out.append(Fortify(seat=seat, origin=ids[f], target=ids[r.randrange(n)], count=1))
        if s.phase != "attack":
            out.append(EndTurn(seat=seat))
        return out

    def finish(self) -> None:
        """End of game: a winner, and the whole history replays to the live state (ENG-01)."""
        s = self.live
        assert s.phase == "over" and s.winner is not None, "no winner within the turn bound"
        assert rc.to_act(s) is None and rc.legal_commands(s) == []
        assert rc.encode(rc.replay(self.events)) == rc.encode(s)
        assert rc.decode_events(rc.encode(self.events)) == self.events
        with pytest.raises(rc.RuleError):
            rc.decide(s, EndTurn(seat=s.winner))


# ----------------------------------------------------------------------------- set-up helpers
def option_values(spec: dict[str, Any]) -> list[OptionValue]:
    """The values worth trying for one documented option."""
    if spec["choices"]:
        return list(spec["choices"])
    default = spec["default"]
    if isinstance(default, bool):
        return [True, False]
    if isinstance(default, int):
        lo = spec["minimum"] if spec["minimum"] is not None else default
        hi = spec["maximum"] if spec["maximum"] is not None else default + 2
        return sorted({lo, default, min(hi, default + 2)})
    return [default]


@st.composite
def game_setups(draw: st.DrawFn, ruleset: str, n: int) -> dict[str, Any]:
    info = INFOS[ruleset]
    options = {k: draw(st.sampled_from(option_values(v))) for k, v in info.options.items()}
    policies: list[Policy] = draw(st.lists(st.sampled_from(POLICIES), min_size=n, max_size=n))
    return {
        "seed": draw(st.integers(0, 2**64 - 1)),
        "bot_seed": draw(st.integers(0, 2**32 - 1)),
        "prefix": draw(st.integers(0, RANDOM_PREFIX)),
        "dice": draw(st.lists(st.integers(1, 6), max_size=8)),
        "options": options,
        "seats": [
            rc.SeatInfo(name=f"P{i}", colour=COLOURS[i], policy=p) for i, p in enumerate(policies)
        ],
    }


def audited_game(ruleset: str, setup: dict[str, Any]) -> Audit:
    opening = rc.start(
        ruleset, setup["seats"], seed=setup["seed"], options=setup["options"], dice=setup["dice"]
    )
    audit = Audit(opening, random.Random(setup["bot_seed"]))
    while audit.live.phase != "over" and audit.live.turn <= MAX_TURNS:
        audit.probe_illegal(audit.probe_legal())
        state, seed = audit.live, setup["bot_seed"]
        if len(audit.commands) < setup["prefix"]:
            audit.command(choose(state, level="random", seed=seed))
        else:
            cmd = propose(state, level="greedy", seed=seed)
            audit.command(cmd)  # the greedy bot's own proposal must be legal, no fallback
    audit.finish()
    return audit


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize(("ruleset", "players"), CASES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_play_keeps_every_invariant(ruleset: str, players: int, data: st.DataObject) -> None:
    """CORE-02, CORE-03, CORE-10/11, ENG-01, ENG-05 after every event of a whole game.

    Random legal play opens the game, the greedy bot ends it within ``MAX_TURNS`` turns.
    """
    audited_game(ruleset, data.draw(game_setups(ruleset, players)))


@pytest.mark.parametrize(("ruleset", "players"), CASES)
def test_same_seed_same_commands_same_bytes(ruleset: str, players: int) -> None:
    """ENG-01: same seed and same commands give byte-identical events, twice over."""
    names = [f"P{i}" for i in range(players)]
    opening = rc.start(ruleset, names, seed=1234, options={})
    commands, events = self_play(
        opening, level=("random", *["greedy"] * 6)[: len(opening[0].players)], seed=7
    )
    again = list(rc.start(ruleset, names, seed=1234, options={}))
    state = rc.replay(again)
    for cmd in commands:
        new = rc.decide(state, cmd)
        again.extend(new)
        state = rc.apply_in_place(state, new)
    assert rc.encode(again) == rc.encode(events)
    commands2, events2 = self_play(
        opening, level=("random", *["greedy"] * 6)[: len(opening[0].players)], seed=7
    )
    assert rc.encode(commands2) == rc.encode(commands)
    assert rc.encode(events2) == rc.encode(events)


@pytest.mark.parametrize(("ruleset", "players"), CASES)
def test_greedy_bots_finish_games(ruleset: str, players: int) -> None:
    """Greedy bots end every game with a winner within a bounded number of turns."""
    bound = 250
    for seed in range(4):
        names = [f"P{i}" for i in range(players)]
        _, events = self_play(rc.start(ruleset, names, seed=seed), seed=seed, max_turns=bound)
        state = rc.replay(events)
        assert state.phase == "over" and state.winner is not None, (ruleset, players, seed)
        assert state.turn <= bound


@pytest.mark.parametrize("level", LEVELS)
def test_bot_is_a_pure_function_of_state_and_seed(level: str) -> None:
    """ENG-01 for bots: same state and seed, same command; the state is not touched."""
    _, events = self_play(rc.start("classic", ["A", "B", "C"], seed=3), seed=1, max_turns=3)
    state = rc.replay(events)
    blob = rc.encode(state)
    picks = [choose(state, level=level, seed=s) for s in range(12)]
    assert picks == [choose(state, level=level, seed=s) for s in range(12)]
    assert rc.encode(state) == blob
    if level == "random":
        assert len({rc.encode(c) for c in picks}) > 1  # the seed matters
    cmd, new = play(state, level=level, seed=0)
    assert cmd == picks[0] and rc.encode(new) == rc.encode(rc.decide(state, cmd))


def test_bot_rejects_unknown_level_and_finished_games() -> None:
    opening = rc.start("classic", ["A", "B", "C"], seed=3)
    with pytest.raises(ValueError):
        choose(rc.replay(opening), level="genius")
    _, events = self_play(opening, seed=1)
    with pytest.raises(ValueError):
        choose(rc.replay(events))


def test_greedy_covers_every_phase() -> None:
    """The greedy bot answers every phase: setup claims, trades, defence, ally placement…"""
    seen: Counter[str] = Counter()
    cases: tuple[tuple[str, dict[str, OptionValue]], ...] = (
        ("classic", {"setup": "claim"}),
        ("classic-conquest", {"setup_placement": "all_at_once", "fortify": "connected"}),
        ("classic-2p", {}),
    )
    for ruleset, options in cases:
        info = INFOS[ruleset]
        seats = [
            rc.SeatInfo(name=f"P{i}", colour=COLOURS[i], policy="ask")
            for i in range(info.min_players)
        ]
        opening = rc.start(ruleset, seats, seed=11, options=options)
        state = rc.replay(opening)
        while state.phase != "over":
            seen[state.phase] += 1
            cmd = propose(state, seed=5)
            seen[type(cmd).__name__] += 1
            state = rc.apply_in_place(state, rc.decide(state, cmd))
    for key in ("setup", "reinforce", "attack", "defend", "occupy", "ally_place"):
        assert seen[key], key
    for kind in ("Place", "Trade", "Attack", "Defend", "Occupy", "Fortify", "EndTurn"):
        assert seen[kind], kind
