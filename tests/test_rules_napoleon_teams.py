"""NAP-TEAM-* rules of Risk Napoléon for two teams (rulebook 000, catalogue §4.6) and DEC-20.

Seats 0 and 2 (and 4) play against seats 1 and 3 (and 5).  Shared territories are built with
``Fortified`` events, the way teammates' regiments come together in play (NAP-TEAM-09).
"""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.errors import SetupError
from risk_core.model import (
    Attack,
    BattleFought,
    CardDrawn,
    CardsTraded,
    Defend,
    EndTurn,
    Fortified,
    Fortify,
    GameStarted,
    GameState,
    GameWon,
    Place,
    PlayerEliminated,
    PositionSet,
    SeatInfo,
    TerritoriesDealt,
    TerritoryConquered,
    Trade,
    TurnStarted,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.napoleon_teams import DefenderDesignated, DesignateDefender, HandPassed
from risk_core.views import view, visible_event
from tests.gamekit import play, position, rejected

RULES = "napoleon-teams"
RS = get_ruleset(RULES)
BOARD = rc.load_board("napoleon")
IDS = [t.id for t in BOARD.territories]
UK = ["angleterre", "ecosse", "irlande"]
# The rulebook's maneuver example: Prussia to Denmark through the Baltic Provinces (a
# teammate's), Finland (own) and Sweden (shared).
Policy = Literal["auto", "ask"]
PATH = ["prusse", "provinces_baltiques", "finlande", "royaume_de_suede", "royaume_du_danemark"]


def game(owners: dict[str, int] | None = None, players: int = 4, **kw: Any) -> GameState:
    """Seat 0's turn; seat 1 holds what ``owners`` does not name; every seat holds something."""
    base = {"portugal": 0, "norvege": 2, "laponie": 3, "castille": 2, "irlande": 2}
    if players == 6:
        base |= {"syrie": 4, "egypte": 5}
    kw.setdefault("default_owner", 1)
    state, _ = position(ruleset=RULES, players=players, owners={**base, **(owners or {})}, **kw)
    return state


def join(state: GameState, seat: int, origin: str, target: str, count: int) -> GameState:
    """``seat`` moves ``count`` regiments from ``origin`` into ``target`` (a teammate's)."""
    return rc.evolve(state, Fortified(seat=seat, origin=origin, target=target, count=count))


def units(state: GameState, tid: str) -> dict[int, int]:
    return dict(RS.occupants(state, BOARD.index[tid]))


def owner(state: GameState, tid: str) -> int:
    return state.owner[BOARD.index[tid]]


def asking(events: list[rc.Event], policies: list[Policy], dice: list[int]) -> GameState:
    """The same position with some seats answering their own defence (``ask``)."""
    started = events[0]
    assert isinstance(started, GameStarted)
    pos = next(e for e in events if isinstance(e, PositionSet))
    seats = [
        SeatInfo(name=p.name, colour=p.colour, policy=policy)
        for p, policy in zip(started.players, policies, strict=True)
    ]
    return rc.replay(
        RS.start_position(seats, 7, {}, pos, turn=9, round=9, income=0, dice_script=dice)
    )


def cards_of(symbol: str, n: int) -> list[str]:
    return [IDS[c] for c, s in enumerate(BOARD.card_symbols) if s == symbol][:n]


# --------------------------------------------------------------------------- NAP-TEAM-01..03
@pytest.mark.parametrize("players", [4, 6])
def test_team01_seats_alternate_between_two_teams(players: int) -> None:
    """NAP-TEAM-01: seat i plays for team i % 2, so teams alternate around the table."""
    state = rc.replay(rc.start(RULES, [f"P{i}" for i in range(players)], seed=1))
    assert [RS.team_of(state, s) for s in range(players)] == [s % 2 for s in range(players)]
    assert [p["team"] for p in view(state, None)["players"]] == [s % 2 for s in range(players)]


@pytest.mark.parametrize("players", [3, 5])
def test_team01_only_four_or_six_players(players: int) -> None:
    """NAP-TEAM-01: 2 v 2 or 3 v 3."""
    with pytest.raises(SetupError) as err:
        rc.start(RULES, [f"P{i}" for i in range(players)], seed=1)
    assert err.value.code == "bad_players" and not RS.allows_players(players)


def test_team02_first_elimination_wins_for_the_team() -> None:
    """NAP-TEAM-02: eliminating one opponent wins the game for the eliminator's team."""
    state = game(
        {"syrie": 3, "anatolie": 0, "laponie": 1},
        armies={"anatolie": 6, "syrie": 1},
        phase="attack",
        dice=[6, 1],
    )
    state, events = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=1))
    assert any(isinstance(e, PlayerEliminated) and e.seat == 3 for e in events)
    assert events[-1] == GameWon(seat=0, reason="team") and state.phase == "over"
    assert [RS.team_of(state, s) == RS.team_of(state, 0) for s in range(4)] == [
        True, False, True, False,
    ]  # fmt: skip


@pytest.mark.parametrize(("players", "regiments"), [(4, 35), (6, 25)])
def test_team03_setup_as_the_basic_game(players: int, regiments: int) -> None:
    """NAP-TEAM-03: claim-by-turn setup with 35 (4 players) or 25 (6 players) regiments."""
    events = rc.start(RULES, [f"P{i}" for i in range(players)], seed=2)
    dealt = next(e for e in events if isinstance(e, TerritoriesDealt))
    assert dealt.setup_left == (regiments,) * players and set(dealt.owners) == {-1}
    state = rc.replay(events)
    first = state.current
    state, _ = play(state, Place(seat=first, territory="castille"))
    assert rejected(state, Place(seat=state.current, territory="castille")) == "already_claimed"


# --------------------------------------------------------------------------- NAP-TEAM-04..07
def test_team04_majority_controls_a_tie_leaves_it_to_nobody() -> None:
    """NAP-TEAM-04, both rulebook examples: 4 v 4 → nobody; 2, 2 and 3 → the 3 controls."""
    state = game({"angleterre": 2, "ecosse": 0}, armies={"angleterre": 4, "ecosse": 5})
    state = join(state, 0, "ecosse", "angleterre", 4)
    assert units(state, "angleterre") == {0: 4, 2: 4} and owner(state, "angleterre") == -1
    assert view(state, 1)["territories"]["angleterre"] == {
        "owner": -1,
        "armies": 8,
        "units": {"0": 4, "2": 4},
    }
    six = game(
        {"russie_occidentale": 4, "ukraine": 0, "grande_russie": 2},
        players=6,
        armies={"russie_occidentale": 2, "ukraine": 4, "grande_russie": 3},
    )
    six = join(six, 2, "grande_russie", "russie_occidentale", 2)
    six = join(six, 0, "ukraine", "russie_occidentale", 3)
    assert units(six, "russie_occidentale") == {0: 3, 2: 2, 4: 2}
    assert owner(six, "russie_occidentale") == 0
    assert RS.check_invariants(six) == []


def test_team05_income_counts_controlled_territories_only() -> None:
    """NAP-TEAM-05: a tied territory counts for nobody."""
    state = game(
        {"castille": 0, "angleterre": 2, "ecosse": 0},
        armies={"angleterre": 2, "ecosse": 3},
        current=3,
        phase="attack",
    )
    state = join(state, 0, "ecosse", "angleterre", 2)  # England: 2 v 2
    assert owner(state, "angleterre") == -1
    assert RS.income(state, 2)[0] == 2  # Norway and Ireland; not England
    state, events = play(state, EndTurn(seat=3))
    started = next(e for e in events if isinstance(e, TurnStarted))
    assert started.seat == 0 and started.territories == 3  # Portugal, Castile, Scotland


def test_team06_empire_bonus_only_for_a_single_controller() -> None:
    """NAP-TEAM-06: teammates' territories never combine; a tie voids the bonus."""
    split = game({"angleterre": 0, "ecosse": 0, "irlande": 2})
    assert RS.income(split, 0)[2] == () and RS.income(split, 2)[2] == ()
    whole = game({t: 0 for t in UK})
    assert RS.income(whole, 0)[2] == ("royaume_uni",)
    tied = game({**{t: 0 for t in UK}, "nord_picardie": 2}, armies={"nord_picardie": 4})
    tied = join(tied, 2, "nord_picardie", "angleterre", 3)  # England: 3 v 3
    assert owner(tied, "angleterre") == -1
    assert RS.income(tied, 0)[2] == () and RS.income(tied, 2)[2] == ()


def test_team07_fixed_card_values() -> None:
    """NAP-TEAM-07: 4/6/8/10 by symbols (no Golden Cavalry), from the team hand."""
    names = cards_of("cavalry", 3)
    state = game(hands={0: names}, trades=9)
    cards = tuple(BOARD.index[n] for n in names)
    _, events = play(state, Trade(seat=0, cards=cards))
    assert isinstance(events[0], CardsTraded) and events[0].value == 6


# --------------------------------------------------------------------------- NAP-TEAM-08..11
def test_team08_no_attack_on_a_teammate() -> None:
    """NAP-TEAM-08: a teammate's (or a shared) territory is never a target."""
    state = game({"andalousie": 0}, armies={"andalousie": 5}, phase="attack")
    attack = Attack(seat=0, origin="andalousie", target="castille")  # seat 2's
    assert rejected(state, attack) == "teammate"
    targets = {IDS[t] for o, t in RS.attack_options(state, 0) if IDS[o] == "andalousie"}
    assert "castille" not in targets and "maroc_fes_etats_barbaresques" in targets


def test_team09_maneuver_into_and_through_teammates_territories() -> None:
    """NAP-TEAM-09, the rulebook's example: Prussia → Denmark through the team's territories."""
    owners = dict(zip(PATH, [0, 2, 0, 2, 0], strict=True))
    state = game(owners, armies={"prusse": 5, "finlande": 3}, phase="attack")
    state = join(state, 0, "finlande", "royaume_de_suede", 1)  # Sweden: a mix of both
    assert units(state, "royaume_de_suede") == {0: 1, 2: 3}
    after, _ = play(state, Fortify(seat=0, origin="prusse", target="royaume_du_danemark", count=4))
    assert units(after, "royaume_du_danemark") == {0: 7} and after.current == 1
    after, _ = play(state, Fortify(seat=0, origin="prusse", target="provinces_baltiques", count=4))
    assert units(after, "provinces_baltiques") == {0: 4, 2: 3}  # no consent needed
    assert owner(after, "provinces_baltiques") == 0


def test_team10_one_team_hand_passed_to_the_next_teammate() -> None:
    """NAP-TEAM-10: the drawn card joins the team hand, passed on to the teammate playing next."""
    names = cards_of("infantry", 2)
    state = game(
        {"andalousie": 0, "maroc_fes_etats_barbaresques": 1},
        armies={"andalousie": 5, "maroc_fes_etats_barbaresques": 1},
        hands={0: names},
        phase="attack",
        dice=[6, 1],
    )
    maroc = "maroc_fes_etats_barbaresques"
    state, _ = play(state, Attack(seat=0, origin="andalousie", target=maroc, dice=1, move=1))
    state, events = play(state, EndTurn(seat=0))
    drawn = next(e for e in events if isinstance(e, CardDrawn))
    passed = next(e for e in events if isinstance(e, HandPassed))
    assert passed.seat == 0 and passed.to == 2 and passed.team == (0, 2)
    assert sorted(passed.cards) == sorted([*(BOARD.index[n] for n in names), drawn.card])
    assert state.players[0].hand == [] and sorted(state.players[2].hand) == sorted(passed.cards)
    assert [c["id"] for c in view(state, 0)["players"][2]["hand"]] == state.players[2].hand
    assert "hand" not in view(state, 1)["players"][2]
    assert visible_event(passed, 2)["cards"] == list(passed.cards)
    assert visible_event(passed, 1)["cards"] is None
    assert visible_event(passed, 1)["card_count"] == 3


def test_team11_an_elimination_ends_the_game_at_once_even_without_a_conquest() -> None:
    """NAP-TEAM-11: checked after every battle: seat 3's last regiments fall in a shared land."""
    state = game(
        {"syrie": 3, "egypte": 1, "anatolie": 0, "laponie": 1},
        armies={"syrie": 2, "egypte": 3, "anatolie": 6},
        phase="attack",
        dice=[6, 6, 6, 1, 1],
    )
    state = join(state, 1, "egypte", "syrie", 1)  # Syria: seat 3 holds 2, seat 1 holds 1
    state, events = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=3))
    battle = next(e for e in events if isinstance(e, BattleFought))
    assert battle.defender == 3 and battle.defender_losses == 2
    assert not any(isinstance(e, TerritoryConquered) for e in events)
    assert units(state, "syrie") == {1: 1}
    assert events[-1] == GameWon(seat=0, reason="team")


# --------------------------------------------------------------------------- NAP-TEAM-12..14
def test_team12_combat_in_shared_territories() -> None:
    """NAP-TEAM-12/DEC-20: losses hit one member; the land falls when the team is gone."""
    state = game(
        {"syrie": 1, "egypte": 3, "anatolie": 0},
        armies={"syrie": 1, "egypte": 2, "anatolie": 9},
        phase="attack",
        dice=[6, 6, 6, 1, 6, 6, 6, 1],
    )
    state = join(state, 3, "egypte", "syrie", 1)  # Syria: 1 and 1, a tie: nobody controls it
    assert owner(state, "syrie") == -1
    state, events = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=3))
    first = next(e for e in events if isinstance(e, BattleFought))
    assert first.defender == 1 and units(state, "syrie") == {3: 1}  # default: lowest tied seat
    assert not any(isinstance(e, TerritoryConquered) for e in events)
    state, events = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=3))
    assert any(isinstance(e, TerritoryConquered) for e in events)
    assert units(state, "syrie") == {0: 3} and owner(state, "syrie") == 0


def test_team13_forbidden() -> None:
    """NAP-TEAM-13: no attack on a teammate, no path through the enemy, no hand to the enemy."""
    owners = dict(zip(PATH, [0, 2, 1, 2, 0], strict=True))  # Finland now the enemy's
    state = game(owners, armies={"prusse": 5}, phase="attack")
    move = Fortify(seat=0, origin="prusse", target="royaume_du_danemark", count=1)
    assert rejected(state, move) == "not_connected"
    assert rejected(state, Attack(seat=0, origin="prusse", target="provinces_baltiques")) == (
        "teammate"
    )
    _, events = self_play(rc.start(RULES, ["A", "B", "C", "D"], seed=3), seed=3)
    passes = [e for e in events if isinstance(e, HandPassed)]
    assert passes and all(e.to % 2 == e.seat % 2 and e.to != e.seat for e in passes)


def test_team14_the_defending_team_chooses_its_defender() -> None:
    """NAP-TEAM-14/DEC-20 (iii): the asked teammate may hand the battle to another one."""
    _, events = position(
        ruleset=RULES,
        players=4,
        default_owner=1,
        owners={"portugal": 0, "norvege": 2, "syrie": 3, "egypte": 1, "anatolie": 0},
        armies={"syrie": 3, "egypte": 4, "anatolie": 6},
    )
    state = asking(events, ["auto", "ask", "auto", "ask"], dice=[6, 6, 1, 1])
    state = join(state, 1, "egypte", "syrie", 2)  # Syria: seat 3 holds 3, seat 1 holds 2
    state, _ = play(state, Attack(seat=0, origin="anatolie", target="syrie", dice=2))
    assert state.phase == "defend" and state.attack and state.attack.defender == 3
    legal = rc.legal_commands(state)
    assert DesignateDefender(seat=3, member=1) in legal and Defend(seat=3, dice=2) in legal
    assert rejected(state, DesignateDefender(seat=3, member=2)) == "not_a_defender"
    state, events = play(state, DesignateDefender(seat=3, member=1))
    assert events == [DefenderDesignated(seat=3, member=1)] and rc.to_act(state) == 1
    assert rejected(state, DesignateDefender(seat=1, member=3)) == "already_designated"
    state, events = play(state, Defend(seat=1, dice=2))
    assert isinstance(events[0], BattleFought) and events[0].defender == 1
    assert units(state, "syrie") == {3: 3}  # seat 1's two regiments fell


# --------------------------------------------------------------------------- DEC-20
def test_dec20_reinforce_only_where_you_control() -> None:
    """DEC-20 (i): not on a tie nor where a teammate has the majority; option: anywhere shared."""
    state = game({"angleterre": 2, "ecosse": 0}, armies={"angleterre": 2, "ecosse": 3})
    state = join(state, 0, "ecosse", "angleterre", 2)  # a tie
    assert rejected(state, Place(seat=0, territory="angleterre")) == "not_owner"
    play(state, Place(seat=0, territory="ecosse"))
    shared = game(
        {"angleterre": 2, "ecosse": 0},
        armies={"angleterre": 2, "ecosse": 3},
        options={"place_on_shared": True},
    )
    shared = join(shared, 0, "ecosse", "angleterre", 1)  # seat 2's majority, seat 0 inside
    shared, _ = play(shared, Place(seat=0, territory="angleterre", count=2))
    assert units(shared, "angleterre") == {0: 3, 2: 2} and owner(shared, "angleterre") == 0


def test_dec20_a_player_controlling_nothing_places_where_he_has_regiments() -> None:
    """DEC-20 (i): with no controlled territory, the reinforcements go where his regiments are."""
    state = game({"portugal": 1, "angleterre": 2, "ecosse": 0}, armies={"angleterre": 4})
    state = join(state, 2, "angleterre", "ecosse", 1)  # Scotland: 3 of seat 0, 1 of seat 2
    state = join(state, 0, "ecosse", "angleterre", 3)  # England: 3 v 3, Scotland seat 2's
    assert 0 not in state.owner and owner(state, "angleterre") == -1
    places = {c.territory for c in rc.legal_commands(state) if isinstance(c, Place)}
    assert places == {"angleterre"}
    assert rejected(state, Place(seat=0, territory="ecosse")) == "not_owner"
    state, _ = play(state, Place(seat=0, territory="angleterre"))
    assert owner(state, "angleterre") == 0


def test_dec20_attack_from_a_shared_territory_with_own_regiments() -> None:
    """DEC-20 (ii): 2 of your own regiments to attack, 1 of them stays; teammates' do not count."""
    state = game({"andalousie": 2, "portugal": 0}, armies={"andalousie": 6, "portugal": 3},
                 phase="attack")  # fmt: skip
    state = join(state, 0, "portugal", "andalousie", 1)
    maroc = "maroc_fes_etats_barbaresques"
    assert rejected(state, Attack(seat=0, origin="andalousie", target=maroc, dice=1)) == (
        "not_enough_armies"
    )
    state = join(state, 0, "portugal", "andalousie", 1)  # seat 0 now has 2 there
    assert rejected(state, Attack(seat=0, origin="andalousie", target=maroc, dice=2)) == (
        "too_many_dice"
    )
    play(state, Attack(seat=0, origin="andalousie", target=maroc, dice=1))


def test_dec20_move_all_out_of_a_territory_a_teammate_still_holds() -> None:
    """DEC-20 (iv): every own regiment may leave a shared territory; one stays in a sole one."""
    state = game({"andalousie": 2, "portugal": 0}, armies={"andalousie": 2, "portugal": 4},
                 phase="attack")  # fmt: skip
    move_all = Fortify(seat=0, origin="portugal", target="andalousie", count=4)
    assert rejected(state, move_all) == "not_enough_armies"
    state = join(state, 2, "andalousie", "portugal", 1)  # a teammate's regiment in Portugal
    state, _ = play(state, move_all)
    assert units(state, "portugal") == {2: 1} and units(state, "andalousie") == {0: 4, 2: 1}
    assert RS.check_invariants(state) == []


def test_dec20_views_show_each_players_regiments() -> None:
    """Per-seat views count each player's own regiments in shared territories."""
    state = game({"angleterre": 2, "ecosse": 0}, armies={"angleterre": 4, "ecosse": 5})
    state = join(state, 0, "ecosse", "angleterre", 3)
    players = view(state, None)["players"]
    assert players[0]["armies"] == sum(units(state, t).get(0, 0) for t in IDS)
    assert json.dumps(view(state, 1))  # plain JSON
