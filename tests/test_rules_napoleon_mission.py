"""NAP-MIS-* rules of Risk Napoléon Mission (rulebook 000, catalogue §4.5) and DEC-21."""

from __future__ import annotations

import json
from typing import Any

import pytest

import risk_core as rc
from risk_core.board import MISSION_RANKS
from risk_core.model import (
    Attack,
    CardsTraded,
    EndTurn,
    Fortify,
    GameState,
    GameWon,
    Place,
    TerritoriesDealt,
    Trade,
    TurnEnded,
    TurnStarted,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.napoleon_mission import (
    ClaimMission,
    MissionAchieved,
    MissionHandsDealt,
    MissionRevealed,
    objectives,
)
from risk_core.views import view, visible_event
from tests.gamekit import play, position, rejected

RULES = "napoleon-mission"
BOARD = rc.load_board("napoleon")
IDS = [t.id for t in BOARD.territories]
JOKERS = [c for c, s in enumerate(BOARD.card_symbols) if s == "joker"]
MISSIONS = {m.id: m for m in BOARD.missions}
HAND = ("caporal_gibraltar", "capitaine_royaume_uni", "general_3_capitales", "empereur_elimination")
GIBRALTAR = {"andalousie": 0, "maroc_fes_etats_barbaresques": 0}
RANKS = MISSION_RANKS
UK = {"angleterre": 0, "ecosse": 0, "irlande": 0}
FRANCE = {IDS[t]: 0 for t in BOARD.group_members[BOARD.group_index["empire_francais"]]}
SHARED: dict[str, Any] = {"default_owner": None}  # the 48 territories dealt round the seats
CAPITALS = {"egypte": 0, "confederation_helvetique": 0, "pays_austro_bohemiens": 0}


def game(
    owners: dict[str, int] | None = None, hand: tuple[str, ...] = HAND, **kw: Any
) -> GameState:
    """Seat 0's turn with ``hand`` as its missions (the others get none of them); seat 0 holds
    Portugal, seat 2 Castile and seat 1 the rest unless ``owners`` says otherwise."""
    kw.setdefault("ruleset", RULES)
    kw.setdefault("default_owner", 1)
    state, _ = position(owners={"castille": 2, "portugal": 0, **(owners or {})}, **kw)
    spare = {r: [m.id for m in BOARD.missions if m.rank == r and m.id not in hand] for r in RANKS}
    others = {s: tuple(spare[r][s] for r in RANKS) for s in range(1, len(state.players))}
    return deal(state, {0: hand, **others})


def deal(state: GameState, hands: dict[int, tuple[str, ...]]) -> GameState:
    """Replace some seats' mission hands through the rule set's own event."""
    missions = [objectives(state, i).missions for i in range(len(state.players))]
    for seat, hand in hands.items():
        missions[seat] = hand
    return rc.evolve(state, MissionHandsDealt(missions=tuple(missions), rng=state.rng))


def achieve(state: GameState, seat: int, missions: list[str]) -> GameState:
    """Objectives achieved in earlier turns, then a fresh turn of the same seat (attack step)."""
    for mid in missions:
        state = rc.evolve(state, MissionAchieved(seat=seat, mission=mid))
    count = state.owner.count(seat)
    return rc.evolve(
        state,
        TurnStarted(
            seat=seat, turn=state.turn + 1, round=state.round + 1, territories=count, base=3,
            groups=(), income=0,
        ),
    )  # fmt: skip


def cards_of(symbol: str, n: int) -> list[str]:
    return [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == symbol][:n]


def hand_ids(names: list[str]) -> tuple[int, ...]:
    jokers = iter(JOKERS)
    return tuple(next(jokers) if n == "joker" else BOARD.index[n] for n in names)


def claim(state: GameState, mission: str, seat: int = 0) -> tuple[GameState, list[rc.Event]]:
    return play(state, ClaimMission(seat=seat, mission=mission))


# --------------------------------------------------------------------------- NAP-MIS-01..03
def test_mis01_four_objectives_to_reach() -> None:
    """NAP-MIS-01: every player starts with 4 objectives, and none achieved."""
    state = rc.replay(rc.start(RULES, ["A", "B", "C", "D"], seed=3))
    for i, p in enumerate(state.players):
        assert len(objectives(state, i).missions) == 4 and objectives(state, i).achieved == ()
        assert p.mission is None


@pytest.mark.parametrize("players", [3, 6])
def test_mis02_one_card_of_each_rank_per_player(players: int) -> None:
    """NAP-MIS-02: one card from each shuffled rank pile, none shared, secret to the others."""
    events = rc.start(RULES, [f"P{i}" for i in range(players)], seed=11)
    dealt = next(e for e in events if isinstance(e, MissionHandsDealt))
    assert dealt is events[1]  # the deal comes first, then the basic setup
    for hand in dealt.missions:
        assert tuple(MISSIONS[m].rank for m in hand) == MISSION_RANKS
    every = [m for hand in dealt.missions for m in hand]
    assert len(set(every)) == len(every)
    assert rc.start(RULES, [f"P{i}" for i in range(players)], seed=11)[1] == dealt  # ENG-01
    shown = visible_event(dealt, 1)["missions"]
    assert shown[1] == list(dealt.missions[1]) and all(
        m is None for i, m in enumerate(shown) if i != 1
    )


def test_mis02_missions_are_secret_in_views() -> None:
    """NAP-MIS-02/ENG-07: a seat sees its own 4 missions; nobody sees another's."""
    state = rc.replay(rc.start(RULES, ["A", "B", "C"], seed=5))
    v = view(state, 0)
    assert [m["id"] for m in v["players"][0]["missions"]] == list(objectives(state, 0).missions)
    text = json.dumps(view(state, 0))
    for seat in (1, 2):
        assert "missions" not in v["players"][seat]
        assert all(f'"{m}"' not in text for m in objectives(state, seat).missions)


@pytest.mark.parametrize(("players", "regiments"), [(3, 40), (4, 35), (5, 30), (6, 25)])
def test_mis03_setup_as_the_basic_game(players: int, regiments: int) -> None:
    """NAP-MIS-03: NAP-04..08 setup (claims, 40/35/30/25 regiments, 48 cards + 2 jokers)."""
    events = rc.start(RULES, [f"P{i}" for i in range(players)], seed=2)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert dealt.setup_left == (regiments,) * players and set(dealt.owners) == {-1}
    assert sorted(rc.replay(events).deck) == list(range(50))


# --------------------------------------------------------------------------- NAP-MIS-04
@pytest.mark.parametrize(
    ("names", "value"),
    [
        (cards_of("infantry", 3), 4),
        (cards_of("cavalry", 3), 6),
        (cards_of("artillery", 3), 8),
        ([*cards_of("infantry", 1), *cards_of("cavalry", 1), *cards_of("artillery", 1)], 10),
        (["joker", *cards_of("cavalry", 2)], 6),
        (["joker", *cards_of("cavalry", 1), *cards_of("infantry", 1)], 10),
        (["joker", "joker", *cards_of("infantry", 1)], 10),
    ],
)
def test_mis04_fixed_set_values_by_symbols(names: list[str], value: int) -> None:
    """NAP-MIS-04: 4/6/8/10 by silhouettes, a joker standing for any; no Golden Cavalry."""
    state = game(hands={0: names}, trades=7)  # the basic track would be at 25 by now
    state, events = play(state, Trade(seat=0, cards=hand_ids(names)))
    assert isinstance(events[0], CardsTraded) and events[0].value == value
    assert state.reserve == 3 + value


def test_mis04_two_alike_and_one_other_is_no_set() -> None:
    """NAP-MIS-04/NAP-12: only three alike or one of each."""
    names = cards_of("cavalry", 2) + cards_of("artillery", 1)
    assert rejected(game(hands={0: names}), Trade(seat=0, cards=hand_ids(names))) == "invalid_set"


# --------------------------------------------------------------------------- NAP-MIS-05
def test_mis05_eliminator_takes_cards_not_missions() -> None:
    """NAP-MIS-05: the loser's territory cards go to the eliminator; its missions stay secret."""
    theirs = cards_of("cavalry", 2)
    state = game(
        owners={"syrie": 2, "castille": 0, "anatolie": 0},
        armies={"anatolie": 6, "syrie": 1},
        hands={2: theirs},
        phase="attack",
        dice=[6, 1],
    )
    secret = objectives(state, 2).missions
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    assert state.players[2].eliminated
    assert sorted(state.players[0].hand) == sorted(hand_ids(theirs))
    assert objectives(state, 0).missions == HAND and objectives(state, 2).missions == secret
    text = json.dumps(view(state, 0))
    assert all(f'"{m}"' not in text for m in secret)


def test_mis05_announcing_keeps_the_trade_window_open() -> None:
    """NAP-23 with NAP-MIS-06: announcing the elimination objective is no move, so the cards
    taken may still be traded right after it."""
    theirs = cards_of("cavalry", 3)
    state = game(
        owners={"syrie": 2, "castille": 0, "anatolie": 0},
        armies={"anatolie": 6, "syrie": 1},
        hands={2: theirs},
        phase="attack",
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    state, _ = claim(state, "empereur_elimination")
    assert state.may_trade
    state, events = play(state, Trade(seat=0, cards=hand_ids(theirs)))
    assert isinstance(events[0], CardsTraded) and state.phase == "elim_trade"


def test_mis05_the_free_move_closes_the_trade_window() -> None:
    """NAP-23 with DEC-21: the turn waits after the free move, but the cards taken can no
    longer be traded: the maneuver came first."""
    theirs = cards_of("cavalry", 3)
    state = game(
        owners={"syrie": 2, "castille": 0, "anatolie": 0},
        armies={"anatolie": 6, "syrie": 1, "portugal": 4},
        hands={2: theirs},
        phase="attack",
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    state, _ = play(state, Fortify(seat=0, origin="portugal", target="castille", count=1))
    assert state.current == 0 and not state.may_trade
    assert rejected(state, Trade(seat=0, cards=hand_ids(theirs))) == "wrong_phase"


# --------------------------------------------------------------------------- NAP-MIS-06
@pytest.mark.parametrize(
    ("mission", "setup", "met"),
    [
        ("caporal_gibraltar", {"owners": GIBRALTAR}, True),
        ("caporal_gibraltar", {"owners": {"andalousie": 0}}, False),
        ("caporal_12_territoires", SHARED, True),  # 16 of the 48 each
        ("caporal_12_territoires", {"owners": GIBRALTAR}, False),
        ("capitaine_12_territoires_3_regiments", SHARED, True),
        ("capitaine_12_territoires_3_regiments", {**SHARED, "default_armies": 2}, False),
        ("capitaine_royaume_uni", {"owners": UK}, True),
        ("capitaine_royaume_uni", {"owners": {"angleterre": 0, "ecosse": 0}}, False),
        ("empereur_france_au_choix", {"owners": {**UK, **FRANCE}}, True),
        ("empereur_france_au_choix", {"owners": FRANCE}, False),
        ("general_3_capitales", {"owners": CAPITALS}, True),
        ("general_3_capitales", {"owners": {"egypte": 0, "confederation_helvetique": 0}}, False),
        ("general_60_regiments", {**SHARED, "default_armies": 4}, True),  # 16 x 4
        ("general_60_regiments", {**SHARED, "default_armies": 3}, False),
        ("empereur_elimination", {"owners": GIBRALTAR}, False),
    ],
)  # fmt: skip
def test_mis06_conditions_checked_at_announcement(
    mission: str, setup: dict[str, Any], met: bool
) -> None:
    """NAP-MIS-06/10: an objective is announced only if its conditions hold right now."""
    owners = setup.get("owners")
    kw = {k: v for k, v in setup.items() if k != "owners"}
    rank = MISSION_RANKS.index(MISSIONS[mission].rank or "")
    hand = tuple(mission if i == rank else h for i, h in enumerate(HAND))
    state = game(owners, hand=hand, **kw)
    if met:
        state, events = claim(state, mission)
        assert events == [MissionAchieved(seat=0, mission=mission)]
        assert objectives(state, 0).achieved == (mission,)
        v = view(state, 1)  # NAP-MIS-06: shown to every player
        assert [m["id"] for m in v["players"][0]["achieved"]] == [mission]
    else:
        assert rejected(state, ClaimMission(seat=0, mission=mission)) == "mission_not_met"


# --------------------------------------------------------------------------- NAP-MIS-07..09
def test_mis07_an_achieved_objective_stays_achieved() -> None:
    """NAP-MIS-07: losing the conditions later does not undo an objective."""
    state = game(GIBRALTAR, phase="attack")
    state, _ = claim(state, "caporal_gibraltar")
    state, _ = play(state, EndTurn(seat=0))
    state = game({"portugal": 0})  # Gibraltar lost since: the objective is still achieved
    state = achieve(state, 0, ["caporal_gibraltar"])
    assert objectives(state, 0).achieved == ("caporal_gibraltar",)
    assert view(state, 1)["players"][0]["achieved"][0]["id"] == "caporal_gibraltar"
    assert rejected(state, ClaimMission(seat=0, mission="caporal_gibraltar")) == (
        "already_achieved"
    )


def test_mis08_after_three_the_fourth_is_revealed() -> None:
    """NAP-MIS-08: the third objective reveals the fourth to everyone, face up."""
    state = game({**UK, **CAPITALS, **GIBRALTAR})
    state = achieve(state, 0, ["capitaine_royaume_uni", "general_3_capitales"])
    assert view(state, 1)["players"][0]["revealed"] is None
    state, events = claim(state, "caporal_gibraltar")
    assert events[-1] == MissionRevealed(seat=0, mission="empereur_elimination")
    assert view(state, 2)["players"][0]["revealed"]["id"] == "empereur_elimination"
    assert visible_event(events[-1], 2)["mission"] == "empereur_elimination"


def test_mis09_four_objectives_win_at_once_in_any_order() -> None:
    """NAP-MIS-09: the fourth announcement wins immediately; ranks in any order."""
    state = game(
        {**UK, **CAPITALS, **GIBRALTAR, "syrie": 2, "anatolie": 0, "castille": 0},
        armies={"anatolie": 6, "syrie": 1},
        phase="attack",
        dice=[6, 1],
    )
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1, move=1))
    state, events = claim(state, "empereur_elimination")  # the hardest rank first
    assert not isinstance(events[-1], GameWon)
    state = achieve(state, 0, ["capitaine_royaume_uni", "general_3_capitales"])
    state, events = claim(state, "caporal_gibraltar")
    assert events[-1] == GameWon(seat=0, reason="mission", mission="caporal_gibraltar")
    assert state.phase == "over" and state.winner == 0


# --------------------------------------------------------------------------- NAP-MIS-10..11
def test_mis10_forbidden_announcements() -> None:
    """NAP-MIS-10: two in one turn, unmet conditions, someone else's card: all rejected."""
    state = game({**UK, **GIBRALTAR})
    assert rejected(state, ClaimMission(seat=0, mission="general_3_capitales")) == (
        "mission_not_met"
    )
    assert rejected(state, ClaimMission(seat=0, mission="general_60_regiments")) == (
        "not_your_mission"
    )
    state, _ = claim(state, "caporal_gibraltar")
    assert rejected(state, ClaimMission(seat=0, mission="capitaine_royaume_uni")) == (
        "one_per_turn"
    )


def test_mis10_no_golden_cavalry() -> None:
    """NAP-MIS-10: set values never climb with the number of sets traded."""
    names = cards_of("infantry", 3)
    for trades in (0, 12):
        _, events = play(
            game(hands={0: names}, trades=trades), Trade(seat=0, cards=hand_ids(names))
        )
        assert events[0].value == 4  # type: ignore[attr-defined]


def test_mis11_only_the_active_player_announces_and_chooses_which() -> None:
    """NAP-MIS-11: the legal announcements are the active player's met objectives."""
    state = game({**UK, **GIBRALTAR})
    claims = [c for c in rc.legal_commands(state) if isinstance(c, ClaimMission)]
    assert claims == [
        ClaimMission(seat=0, mission="capitaine_royaume_uni"),
        ClaimMission(seat=0, mission="caporal_gibraltar"),
    ]
    state = deal(state, {1: ("caporal_12_territoires", *HAND[1:])})
    assert rejected(state, ClaimMission(seat=1, mission="caporal_12_territoires")) == (
        "not_your_turn"
    )
    state, _ = claim(state, "caporal_gibraltar")  # its choice; the other one must wait
    assert not any(isinstance(c, ClaimMission) for c in rc.legal_commands(state))


# --------------------------------------------------------------------------- DEC-21
def test_dec21_announce_at_any_step_of_the_own_turn() -> None:
    """DEC-21: before placing, after a conquest, after the free move; never while occupying."""
    state = game(GIBRALTAR)
    assert state.phase == "reinforce"
    claim(state, "caporal_gibraltar")  # before placing anything
    state = game(
        {"andalousie": 0, "portugal": 0},
        armies={"andalousie": 6, "maroc_fes_etats_barbaresques": 1},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    maroc = "maroc_fes_etats_barbaresques"
    state, _ = play(state, Attack(seat=0, origin="andalousie", target=maroc, dice=3))
    assert state.phase == "occupy"
    assert rejected(state, ClaimMission(seat=0, mission="caporal_gibraltar")) == "must_occupy"
    state, _ = play(state, rc.legal_commands(state)[0])
    state, events = claim(state, "caporal_gibraltar")  # after the conquest
    assert isinstance(events[0], MissionAchieved)


def test_dec21_the_turn_waits_after_the_free_move() -> None:
    """DEC-21: after the maneuver, announce one last objective or end the turn; nothing else."""
    owners = {**GIBRALTAR, "portugal": 0}
    state = game(owners, armies={"portugal": 4}, phase="attack")
    state, events = play(state, Fortify(seat=0, origin="portugal", target="andalousie", count=3))
    assert (
        state.current == 0
        and state.phase == "attack"
        and not any(isinstance(e, TurnEnded) for e in events)
    )
    assert rc.legal_commands(state) == [
        ClaimMission(seat=0, mission="caporal_gibraltar"),
        EndTurn(seat=0),
    ]
    attack = Attack(seat=0, origin="andalousie", target="castille")
    assert rejected(state, attack) == "maneuver_done"
    again = Fortify(seat=0, origin="andalousie", target="portugal", count=1)
    assert rejected(state, again) == "maneuver_done"
    after, events = claim(state, "caporal_gibraltar")  # the announcement ends the turn
    assert isinstance(events[1], TurnEnded) and after.current == 1
    after, events = play(state, EndTurn(seat=0))
    assert isinstance(events[0], TurnEnded) and objectives(after, 0).achieved == ()


def test_dec21_no_wait_once_the_turn_has_its_announcement() -> None:
    """DEC-21: with this turn's objective announced, the free move ends the turn as usual."""
    state = game({**GIBRALTAR, "portugal": 0}, armies={"portugal": 4}, phase="attack")
    state, _ = claim(state, "caporal_gibraltar")
    state, events = play(state, Fortify(seat=0, origin="portugal", target="andalousie", count=3))
    assert any(isinstance(e, TurnEnded) for e in events) and state.current == 1


def test_dec21_any_time_option_lets_others_announce_during_a_turn() -> None:
    """DEC-21 option any_time: seat 1 announces during seat 0's turn; no wait after moves."""
    state = game({"andalousie": 0}, armies={"portugal": 4}, options={"announce_window": "any_time"})
    seat1 = ("caporal_12_territoires", "capitaine_18_territoires", *HAND[2:])
    state = deal(state, {1: seat1})
    state, events = claim(state, "caporal_12_territoires", seat=1)
    assert events == [MissionAchieved(seat=1, mission="caporal_12_territoires")]
    assert state.current == 0 and state.phase == "reinforce"
    assert rejected(state, ClaimMission(seat=1, mission="caporal_12_territoires")) == (
        "already_achieved"
    )
    assert rejected(state, ClaimMission(seat=1, mission="capitaine_18_territoires")) == (
        "one_per_turn"
    )
    state, _ = play(state, Place(seat=0, territory="portugal", count=state.reserve))
    state, events = play(state, Fortify(seat=0, origin="portugal", target="andalousie", count=1))
    assert any(isinstance(e, TurnEnded) for e in events) and state.current == 1


def test_missions_dealt_in_scenario_positions() -> None:
    """Scenario games of this rule set deal the four-card hands right after the position."""
    _, events = position(ruleset=RULES)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("MissionHandsDealt") == kinds.index("PositionSet") + 1
    assert get_ruleset(RULES).allows_players(3)


def test_mis06_show_gives_the_ids_claim_takes(risk: Any) -> None:
    """NAP-MIS-06: `risk claim` takes a mission by its id: `risk show --as` lists each mission
    with it, and a claim by another word names the seat's ids."""
    risk("new", "--players", "Ann,Bob,Cy", "--rules", RULES, "--seed", "5", "--id", "m")
    seat = str(json.loads(risk("show", "m", "--json").stdout)["to_act"])
    state = json.loads(risk("show", "m", "--as", seat, "--json").stdout)
    mine = [m["id"] for m in state["players"][int(seat)]["missions"]]
    shown = risk("show", "m", "--as", seat).stdout
    assert all(f"[{mid}] " in shown for mid in mine)
    refused = risk("claim", "m", "Hold 3 empire capitals", "--as", seat, code=1).stderr
    assert "[not_your_mission]" in refused and all(mid in refused for mid in mine)
