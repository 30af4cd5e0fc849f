"""DEC-01, DEC-02, DEC-03, DEC-14 and DEC-46 as rule options (ENG-08, catalogue §7), and the
README's account of every decision and every option.

Each decision the catalogue leaves open is a named option whose default is the recommended
reading (so games keep their behaviour); the other values are the readings the DEC text offers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import risk_core as rc
from risk_core.bots import propose
from risk_core.model import Attack, CardsTraded, EndTurn, GameState, GameWon, Place, Trade
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.napoleon import golden_cavalry_value
from tests.gamekit import BOARD as CLASSIC
from tests.gamekit import play, position, rejected

BOARD = rc.load_board("napoleon")
IDS = [t.id for t in BOARD.territories]
NAPOLEONS = ("napoleon", "napoleon-2p", "napoleon-mission", "napoleon-teams")
INFOS = {info.name: info for info in rc.rulesets()}


def cards_of(symbol: str, n: int, skip: int = 0) -> list[str]:
    return [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == symbol][skip : skip + n]


def ids(names: list[str]) -> tuple[int, ...]:
    return tuple(BOARD.index[n] for n in names)


def nap(**kw: Any) -> GameState:
    kw.setdefault("ruleset", "napoleon")
    state, _ = position(**kw)
    return state


def somewhere(state: GameState, seat: int = 0) -> Place:
    return Place(seat=seat, territory=IDS[state.owner.index(seat)])


# ----------------------------------------------------------------------------- the options
EXPECTED = [
    ("DEC-01", "golden_cavalry", "escalation", ("napoleon", "napoleon-2p")),
    ("DEC-02", "forced_trade_at", 5, NAPOLEONS),
    ("DEC-03", "elimination_trade_at", 6, ("napoleon", "napoleon-2p", "napoleon-mission")),
    ("DEC-14", "objective_check", "own_turn", ("classic",)),
    ("DEC-46", "sets_per_turn", "several", NAPOLEONS),
]


@pytest.mark.parametrize(("dec", "key", "default", "rulesets"), EXPECTED)
def test_each_decision_is_an_option_with_the_recommended_default(
    dec: str, key: str, default: object, rulesets: tuple[str, ...]
) -> None:
    """ENG-08: named, documented with its DEC id (``risk rules`` prints the doc), defaulted to
    the recommended reading and recorded in the opening event; only where it means something."""
    for name, info in INFOS.items():
        if name not in rulesets:
            assert key not in info.options, f"{name} has no use for {key}"
            continue
        spec = info.options[key]
        assert spec["default"] == default and dec in spec["doc"]
        assert spec["choices"] or spec["minimum"] is not None  # there is another reading
        n = min(info.max_players, max(info.min_players, 4))
        opening = rc.start(name, [f"P{i}" for i in range(n)], seed=1)
        assert opening[0].options[key] == default  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- DEC-01
def test_dec01_track_readings() -> None:
    """DEC-01 (NAP-11): reading C (default), B (15 and 35 restored, 12 not) and A (the
    legible numbers only, holding at 50)."""
    first = [golden_cavalry_value(k) for k in range(1, 16)]
    assert first == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]
    fives = [golden_cavalry_value(k, "fives") for k in range(1, 15)]
    assert fives == [4, 6, 8, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]
    printed = [golden_cavalry_value(k, "printed") for k in range(1, 13)]
    assert printed == [4, 6, 8, 10, 20, 25, 30, 40, 45, 50, 50, 50]


@pytest.mark.parametrize(("track", "trades", "value"), [("escalation", 4, 12), ("fives", 4, 15)])
def test_dec01_option_sets_the_value_of_a_trade(track: str, trades: int, value: int) -> None:
    """DEC-01: the fifth set of the game is worth 12 on the default track, 15 on reading B."""
    hand = cards_of("infantry", 3)
    state = nap(hands={0: hand}, trades=trades, options={"golden_cavalry": track})
    _, events = play(state, Trade(seat=0, cards=ids(hand)))
    assert isinstance(events[0], CardsTraded) and events[0].value == value


# ----------------------------------------------------------------------------- DEC-02
def test_dec02_default_four_cards_need_not_trade() -> None:
    """DEC-02 default: below 5 cards no trade is compulsory, even holding a set."""
    state = nap(hands={0: cards_of("infantry", 3) + cards_of("cavalry", 1)})
    play(state, somewhere(state))


def test_dec02_literal_three_cards_with_a_set_must_trade() -> None:
    """DEC-02 forced_trade_at=3 (literal "si vous possédez 3 cartes ou plus, vous DEVEZ
    échanger"): a hand of 3+ holding a set trades before placing; without a set it cannot."""
    hand = cards_of("infantry", 3)
    opts = {"forced_trade_at": 3}
    state = nap(hands={0: hand}, options=opts)
    assert rejected(state, somewhere(state)) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(hand)))
    play(state, somewhere(state))
    no_set = cards_of("infantry", 2) + cards_of("cavalry", 2)
    state = nap(hands={0: no_set}, options=opts)
    play(state, somewhere(state))


@pytest.mark.parametrize("threshold", [3, 4, 5])
def test_dec02_each_threshold_forces_a_hand_of_that_size(threshold: int) -> None:
    """DEC-02 forced_trade_at=3..5: a hand of exactly that many cards holding a set must
    trade before placing; one card fewer (still holding a set) need not."""
    opts = {"forced_trade_at": threshold}
    hand = cards_of("infantry", 3) + cards_of("cavalry", threshold - 3)
    state = nap(hands={0: hand}, options=opts)
    assert rejected(state, somewhere(state)) == "must_trade"
    if threshold > 3:
        state = nap(hands={0: hand[:-1]}, options=opts)
        play(state, somewhere(state))


# ----------------------------------------------------------------------------- DEC-03
def eliminate(mine: list[str], theirs: list[str], **options: Any) -> GameState:
    """Seat 0 takes Syrie, seat 2's last territory, with ``theirs`` in seat 2's hand."""
    state = nap(
        phase="attack",
        owners={"syrie": 2, "castille": 1},
        default_owner=0,
        armies={"anatolie": 6, "syrie": 1},
        hands={0: mine, 2: theirs},
        dice=[6, 1],
        options=options,
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert state.players[2].eliminated
    return state


def test_dec03_reading_c_five_cards_trade_down_to_four() -> None:
    """DEC-03 elimination_trade_at=5 (reading C): 5 cards after an elimination force a trade."""
    state = eliminate(cards_of("infantry", 2), cards_of("cavalry", 3), elimination_trade_at=5)
    assert state.phase == "elim_trade"
    assert rejected(state, Attack(seat=0, origin="anatolie", target="castille")) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(cards_of("cavalry", 3))))
    state, _ = play(state, Place(seat=0, territory="anatolie", count=state.reserve))
    assert state.phase == "attack" and len(state.players[0].hand) == 2


def test_dec03_four_cards_trade_one_set_at_once() -> None:
    """DEC-03 elimination_trade_at=4: 4 cards after an elimination, holding a set, trade it at
    once (not at the default 6); then the game goes on with 1 card."""
    mine, theirs = cards_of("cavalry", 1), cards_of("infantry", 3)
    assert eliminate(mine, theirs).phase == "attack"
    state = eliminate(mine, theirs, elimination_trade_at=4)
    assert state.phase == "elim_trade"
    assert rejected(state, Place(seat=0, territory="anatolie")) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(theirs)))
    state, _ = play(state, Place(seat=0, territory="anatolie", count=state.reserve))
    assert state.phase == "attack" and len(state.players[0].hand) == 1


def test_dec03_literal_three_cards_trade_at_once() -> None:
    """DEC-03 elimination_trade_at=3 (literal "3 cartes ou plus … IMMÉDIATEMENT"): a set must
    be traded at once, even though 3 cards are already "4 or fewer"; then the game goes on."""
    theirs = cards_of("cavalry", 3)
    state = eliminate([], theirs, elimination_trade_at=3)
    assert state.phase == "elim_trade"
    assert rejected(state, Place(seat=0, territory="anatolie")) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(theirs)))
    state, _ = play(state, Place(seat=0, territory="anatolie", count=state.reserve))
    assert state.phase == "attack"
    no_set = cards_of("cavalry", 2) + cards_of("infantry", 1)
    state = eliminate([], no_set, elimination_trade_at=3)  # no set: nothing can be forced
    assert state.phase == "attack"


# ----------------------------------------------------------------------------- DEC-14
def destroy_green_done_by_seat_0(check: str) -> tuple[GameState, list[rc.Event]]:
    """Seat 1 must destroy green (seat 2) and holds 24 territories; seat 0 destroys green, so
    seat 1's objective becomes "24 territories", which it already meets."""
    seat0 = [
        CLASSIC.territories[t].id
        for g in ("north_america", "europe")
        for t in CLASSIC.group_members[CLASSIC.group_index[g]]
    ] + ["brazil"]
    state, _ = position(
        ruleset="classic",
        phase="attack",
        round=5,
        owners={"kamchatka": 2, **{t: 0 for t in seat0}},
        default_owner=1,
        armies={"alaska": 5, "kamchatka": 1},
        missions={0: "asia_africa", 1: "destroy_green", 2: "europe_oceania_plus_one"},
        dice=[6, 1],
        options={"objective_check": check},
    )
    assert state.owner.count(1) == 24
    return play(state, Attack(seat=0, origin="alaska", target="kamchatka", dice=1, move=1))


def test_dec14_default_a_waiting_players_objective_counts_at_its_turn() -> None:
    """DEC-14 default: seat 1's objective is checked when its own turn starts."""
    state, events = destroy_green_done_by_seat_0("own_turn")
    assert state.phase == "attack" and not any(isinstance(e, GameWon) for e in events)
    state, events = play(state, EndTurn(seat=0))
    assert state.winner == 1 and isinstance(events[-1], GameWon)


def test_dec14_any_time_the_first_to_complete_wins_at_once() -> None:
    """DEC-14 objective_check=any_time ("le premier joueur à avoir accompli la mission"):
    seat 1 wins during seat 0's turn, the moment its objective is met."""
    state, events = destroy_green_done_by_seat_0("any_time")
    won = events[-1]
    assert isinstance(won, GameWon) and won.seat == 1 and won.mission == "destroy_green"
    assert state.phase == "over"


# ----------------------------------------------------------------------------- DEC-46
def test_dec46_default_several_sets_in_one_turn() -> None:
    """DEC-46 default (NAP-14): several sets in one reinforcement phase."""
    a, b = cards_of("infantry", 3), cards_of("cavalry", 3)
    state = nap(hands={0: a + b})
    state, _ = play(state, Trade(seat=0, cards=ids(a)))
    play(state, Trade(seat=0, cards=ids(b)))


def test_dec46_one_set_per_turn() -> None:
    """DEC-46 sets_per_turn=one: after one set, no other this reinforcement phase — even when
    the hand still holds 5 cards (the obligation ends with the one set allowed)."""
    a, b = cards_of("infantry", 3), cards_of("cavalry", 3)
    state = nap(hands={0: a + b + cards_of("artillery", 2)}, options={"sets_per_turn": "one"})
    assert rejected(state, somewhere(state)) == "must_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(a)))
    assert rejected(state, Trade(seat=0, cards=ids(b))) == "one_per_turn"
    assert not any(isinstance(c, Trade) for c in rc.legal_commands(state))
    state, _ = play(state, Place(seat=0, territory=IDS[state.owner.index(0)], count=state.reserve))
    assert state.phase == "attack" and not state.may_trade


def test_dec46_one_set_per_turn_leaves_the_elimination_trade() -> None:
    """DEC-46 sets_per_turn=one limits the reinforcement phase; cards taken from an eliminated
    player still follow NAP-23/DEC-03 (6 cards: trade down to 4 at once)."""
    state = eliminate(cards_of("infantry", 3), cards_of("cavalry", 3), sets_per_turn="one")
    assert state.phase == "elim_trade"
    state, _ = play(state, Trade(seat=0, cards=ids(cards_of("cavalry", 3))))
    assert len(state.players[0].hand) == 3


# ----------------------------------------------------------------------------- bots
ALTERNATIVES = [
    ("napoleon", {"golden_cavalry": "printed", "forced_trade_at": 3, "elimination_trade_at": 3}),
    ("napoleon", {"golden_cavalry": "fives", "sets_per_turn": "one", "elimination_trade_at": 5}),
    ("napoleon-mission", {"forced_trade_at": 3, "sets_per_turn": "one"}),
    ("napoleon-teams", {"forced_trade_at": 3, "sets_per_turn": "one"}),
    ("classic", {"objective_check": "any_time"}),
]


@pytest.mark.parametrize(("ruleset", "options"), ALTERNATIVES)
@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_bots_play_the_other_readings_legally(
    ruleset: str, options: dict[str, Any], seed: int
) -> None:
    """Every command the greedy bot proposes under the other readings is accepted."""
    players = ["A", "B", "C", "D"]
    state = rc.replay(rc.start(ruleset, players, seed=seed, options=options))
    while state.phase != "over" and state.turn <= 400:
        cmd = propose(state, level="greedy", seed=seed)
        for ev in rc.decide(state, cmd):  # raises if the bot's own choice is illegal
            state = rc.evolve(state, ev)
    assert state.phase == "over"


# ----------------------------------------------------------------------------- the README
README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Rules: decisions and options") : README.index("## Adding a rule")]
CATALOGUE_DECISIONS = 46  # DEC-01 .. DEC-46, catalogue §7


def test_readme_names_every_decision() -> None:
    """ENG-08, catalogue §7: every DEC item is in the README's rules sections, as an option's
    row or among the decisions settled without an option (with the reason)."""
    missing = [
        f"DEC-{n:02d}" for n in range(1, CATALOGUE_DECISIONS + 1) if f"DEC-{n:02d}" not in SECTION
    ]
    assert not missing, f"not in the README: {missing}"


def readme_rows(key: str) -> list[list[str]]:
    """The cells after the option's own, of every README table row naming option ``key``."""
    rows = []
    for line in SECTION.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for i, cell in enumerate(cells):
            if re.fullmatch(r"`\w+`( \(.*\))?(, `\w+`)*", cell) and f"`{key}`" in cell:
                rows.append(cells[i + 1 :])
    return rows


def shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


SHIPPED = sorted(n for n in INFOS if type(get_ruleset(n)).__module__.startswith("risk_core."))


@pytest.mark.parametrize("name", SHIPPED)
def test_readme_documents_every_option(name: str) -> None:
    """ENG-08: each option `risk rules NAME` lists has a README row with the same default and
    every other value, and its text cites the rule it settles."""
    for key, spec in INFOS[name].options.items():
        assert re.search(r"\b(DEC|CORE|CL|NAP|CW|R08|GAP)-", spec["doc"]), key
        rows = readme_rows(key)
        assert rows, f"{name}: no README row for {key}"
        default = shown(spec["default"])
        assert any(r[0].startswith(f"`{default}`") for r in rows), f"{name}: {key}'s default"
        values = spec["choices"] or (
            [not spec["default"]] if spec["default"] in (True, False) else []
        )
        for value in values:
            assert any(shown(value) in " ".join(r[:2]) for r in rows), f"{name}: {key}={value}"


def other_values(spec: dict[str, Any]) -> tuple[list[object], object]:
    """Every value an option takes (a range: its ends), and one it refuses."""
    default = spec["default"]
    if isinstance(default, bool):
        return [True, False], "maybe"
    if spec["minimum"] is not None:
        return [spec["minimum"], spec["maximum"]], spec["maximum"] + 1
    return list(spec["choices"]) or [default], "no-such-reading"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_option_value_is_taken_and_a_bad_one_refused(name: str) -> None:
    """ENG-08: each value `risk rules NAME` lists is accepted and recorded as given (from
    `--option` text too); any other is invalid_option."""
    info = INFOS[name]
    players = [f"P{i}" for i in range(min(info.max_players, max(info.min_players, 4)))]
    for key, spec in info.options.items():
        values, bad = other_values(spec)
        for value in values:
            for given in (value, shown(value)):
                started = rc.start(name, players, seed=1, options={key: given})[0]
                assert started.options[key] == value, (key, given)  # type: ignore[attr-defined]
        with pytest.raises(rc.SetupError) as e:
            rc.start(name, players, seed=1, options={key: bad})
        assert e.value.code == "invalid_option", (key, bad)
