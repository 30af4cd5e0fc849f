"""CW-25 as a choice (option ``ship_support``), and the faction victory's last log line (CW-41).

CW-25 says the ships of the attacking planet *may* support the attacker and those of the
attacked planet the defender.  ``ship_support=all`` (the default) keeps every ship supporting;
``ship_support=chosen`` lets each side name how many of each class support (``risk support``),
and DEC-36 moves only the supporting ships in after a conquest.  Positions come from scenario
documents (``tests.clonewars_kit.faction_doc``), played through the CLI where it can say them.
Dice are scripted in the order the engine draws them: the attacker's (d8s first), the
defender's, then the re-rolls.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

import risk_core as rc
from risk_cli.render import Names, event_line
from risk_core.bots import propose, self_play
from risk_core.engine import legal_moves
from risk_core.model import Attack, BattleFought, Defend, EndTurn, Fortify
from risk_core.rulesets.clonewars_dice import SideDice, battle_losses
from risk_core.rulesets.clonewars_state import ChooseSupport, ShipSupport, SupportChosen
from tests.clonewars_kit import (
    BLACK,
    BLUE,
    FACTION,
    ORANGE,
    RED,
    Run,
    error,
    faction_cli_game,
    faction_doc,
    faction_game,
    out,
)
from tests.gamekit import play, rejected

CHOSEN = {"ship_support": "chosen"}


def two_planets(a: int = 5, d: int = 3) -> dict[str, object]:
    """Red's Saleucami next to Black's Jabiim, the rest round-robin."""
    return {
        "owners": {"saleucami": RED, "jabiim": BLACK},
        "armies": {"saleucami": a, "jabiim": d},
    }


def choose(planet: str, kind: str, count: int, seat: int = RED) -> ChooseSupport:
    return ChooseSupport(seat=seat, planet=planet, kind=kind, count=count)


# ============================================================== the option
def test_cw_25_the_option_defaults_to_every_ship_and_is_recorded_only_when_given() -> None:
    """CW-25: ``ship_support`` is all (every ship supports) or chosen; the default is left out
    of the opening so the games recorded before the option (the golden games) replay byte
    for byte; the standard game, without ships, has no such option (CW-STD-12)."""
    info = next(i for i in rc.rulesets() if i.name == FACTION)
    spec = info.options["ship_support"]
    assert spec["default"] == "all" and spec["choices"] == ("all", "chosen")
    assert "CW-25" in spec["doc"] and "DEC-36" in spec["doc"]
    standard = next(i for i in rc.rulesets() if i.name == "clonewars-standard")
    assert "ship_support" not in standard.options
    assert "ship_support" not in rc.start(FACTION, ["Ann", "Bob"], seed=1)[0].options
    chosen = rc.start(FACTION, ["Ann", "Bob"], seed=1, options=CHOSEN)[0]
    assert chosen.options["ship_support"] == "chosen"
    given = rc.start(FACTION, ["Ann", "Bob"], seed=1, options={"ship_support": "all"})[0]
    assert given.options["ship_support"] == "all"
    with_default = rc.encode(rc.replay(rc.start(FACTION, ["Ann", "Bob"], seed=1)))
    assert b"chosen" not in with_default  # no trace of the option in a default game's state


def test_cw_25_with_all_no_choice_is_offered_or_taken() -> None:
    """CW-25, ship_support=all: every ship supports; naming ships is refused (``wrong_rules``)
    and the legal moves offer no choice."""
    state, _ = faction_game(
        current=RED, phase="attack", family={"ships": {"saleucami": [1, 0, 2]}}, **two_planets()
    )
    assert rejected(state, choose("saleucami", "capital", 1)) == "wrong_rules"
    assert not any(isinstance(m.command, ChooseSupport) for m in legal_moves(state))


# ============================================================== the attacker's choice
def test_cw_25_the_attacker_commits_one_of_two_capital_ships(risk: Run, tmp_path: Path) -> None:
    """CW-25/26: Red keeps one of its two capital ships out: 3 dice with one d8, not two.
    Script: attack d8 7, d6 3, 2; defence 4, 1 (Black's fighter re-rolls its 1: 5)."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[7, 3, 2, 4, 1, 5],
        family={"ships": {"saleucami": [0, 0, 2], "jabiim": [1, 0, 0]}},
        **two_planets(),
    )
    chosen = out(risk, "support", game, "saleucami", "capital", "1")
    assert chosen["events"] == [
        {
            "type": "support_chosen",
            "seat": RED,
            "planet": "saleucami",
            "kind": "capital",
            "count": 1,
        }
    ]
    shown = out(risk, "show", game)["territories"]["saleucami"]
    assert shown["support"] == {"fighter": 0, "corvette": 0, "capital": 1}
    assert "(supporting: 1 capital)" in risk("galaxy", game).stdout
    moved = out(risk, "attack", game, "saleucami", "jabiim", "--dice", "3")
    support, battle = moved["events"][0], moved["events"][1]
    assert support["attack"] == {"troops": 3, "capital": 1}
    assert support["defence"] == {"troops": 2, "fighters": 1}
    assert battle["attack"] == [7, 3, 2] and battle["defence"] == [5, 4]
    log = risk("log", game).stdout
    assert "Red commits 1 capital ship of Saleucami to its battles this turn (CW-25)." in log


def test_dec_36_ships_kept_out_stay_behind_after_a_conquest(risk: Run, tmp_path: Path) -> None:
    """DEC-36 with CW-25's choice: only the supporting ships move in; the fighters Red kept
    out stay on Saleucami (with all, test_cw_29_dec_36 moves one of them in)."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[6, 1],
        family={"ships": {"saleucami": [2, 1, 0]}},
        **two_planets(d=1),
    )
    out(risk, "support", game, "saleucami", "fighter", "0")
    moved = out(risk, "attack", game, "saleucami", "jabiim", "--dice", "1", "--move", "1")
    assert moved["events"][0]["attack"] == {"troops": 1, "corvettes": 1}
    cells = out(risk, "show", game)["territories"]
    assert cells["jabiim"]["owner"] == RED
    assert cells["jabiim"]["ships"] == {"fighter": 0, "corvette": 1, "capital": 0}
    assert cells["saleucami"]["ships"] == {"fighter": 2, "corvette": 0, "capital": 0}


def test_cw_25_a_choice_holds_for_the_turn_and_can_be_changed() -> None:
    """CW-25: a choice holds for every battle of the turn from that planet, may be changed
    between battles, and is forgotten at the next turn (all support again)."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[1, 6, 1, 6, 1, 6],
        family={"ships": {"saleucami": [0, 2, 0]}},
        **two_planets(a=9, d=5),
    )
    rs = rc.ruleset_of(state)
    state, _ = play(state, choose("saleucami", "corvette", 0))
    once = Attack(seat=RED, origin="saleucami", target="jabiim", dice=1)
    state, events = play(state, once)
    assert next(e for e in events if isinstance(e, ShipSupport)).attack.corvettes == 0
    state, events = play(state, once)
    assert next(e for e in events if isinstance(e, ShipSupport)).attack.corvettes == 0
    state, _ = play(state, choose("saleucami", "corvette", 1))
    state, events = play(state, once)
    assert next(e for e in events if isinstance(e, ShipSupport)).attack.corvettes == 1
    state, _ = play(state, EndTurn(seat=RED))
    assert rs.supporting(state, rs.board.index["saleucami"]) == (0, 2, 0)


def test_cw_25_bad_choices_are_refused_and_change_nothing() -> None:
    """CW-25/CW-42: only ships that are there, on a planet of the chooser, during its
    invasions (``not_owner``, ``no_ships``, ``bad_count``, ``bad_command``, ``attacks_over``,
    ``wrong_phase``)."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        options=CHOSEN,
        family={"ships": {"saleucami": [1, 0, 0], "jabiim": [1, 0, 0]}},
        owners={"saleucami": RED, "jabiim": BLACK, "kashyyyk": RED},
        armies={"saleucami": 5, "jabiim": 3, "kashyyyk": 3},
    )
    assert rejected(state, choose("jabiim", "fighter", 0)) == "not_owner"
    assert rejected(state, choose("saleucami", "corvette", 0)) == "no_ships"
    assert rejected(state, choose("saleucami", "fighter", 2)) == "bad_count"
    assert rejected(state, choose("saleucami", "fighter", -1)) == "bad_count"
    assert rejected(state, choose("saleucami", "frigate", 0)) == "bad_command"
    assert rejected(state, choose("saleucami", "fighter", 1, seat=BLACK)) == "not_your_turn"
    moved, _ = play(state, Fortify(seat=RED, origin="kashyyyk", target="saleucami", count=1))
    assert rejected(moved, choose("saleucami", "fighter", 0)) == "attacks_over"
    placing, _ = faction_game(
        current=RED, options=CHOSEN, family={"ships": {"saleucami": [1, 0, 0]}}, **two_planets()
    )
    assert rejected(placing, choose("saleucami", "fighter", 0)) == "wrong_phase"


# ============================================================== the defender's choice
def test_cw_25_43_the_defender_names_its_ships_before_its_dice(risk: Run, tmp_path: Path) -> None:
    """CW-25/CW-43: the defender's ship support is its own decision: Black (asked for its
    dice) keeps its capital ships out, then defends with 2 d6.  It may name only the attacked
    planet's ships.  Script: attack 6, 6, 6; defence 5, 5."""
    document = faction_doc(
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[6, 6, 6, 5, 5],
        family={"ships": {"jabiim": [0, 0, 2], "mon_calamari": [1, 0, 0]}},
        owners={"saleucami": RED, "jabiim": BLACK, "mon_calamari": BLACK},
        armies={"saleucami": 5, "jabiim": 3},
    )
    path = tmp_path / "defender.json"
    path.write_text(json.dumps(document))
    game = out(risk, "new", "--scenario", str(path), "--ask", "Black")["game_id"]
    out(risk, "attack", game, "saleucami", "jabiim", "--dice", "3")
    assert error(risk, "support", game, "mon_calamari", "fighter", "0", "--as", "Bob") == (
        "not_owner"
    )
    out(risk, "support", game, "jabiim", "capital", "0", "--as", "Bob")
    moved = out(risk, "defend", game, "2", "--as", "Bob")
    support = moved["events"][0]
    assert support["type"] == "ship_support" and support["defence"] == {"troops": 2}
    assert moved["events"][1]["defence"] == [5, 5]


def test_cw_25_the_defenders_choice_in_the_legal_moves() -> None:
    """CW-25 in ``legal_moves``: the defender's choice as a range per class of the attacked
    planet, next to its dice; expanded, the legal commands."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        options=CHOSEN,
        family={"ships": {"jabiim": [0, 1, 2]}},
        **two_planets(),
    )
    state.players[BLACK].policy = "ask"
    state, _ = play(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=3))
    moves = legal_moves(state)
    ranges = [
        (m.command.planet, m.command.kind, m.low, m.high)
        for m in moves
        if isinstance(m.command, ChooseSupport)
    ]
    assert ranges == [("jabiim", "corvette", 0, 1), ("jabiim", "capital", 0, 2)]
    assert [m.field for m in moves if isinstance(m.command, ChooseSupport)] == ["count"] * 2
    assert sum(m.size() for m in moves) == len(rc.legal_commands(state))
    state, _ = play(state, ChooseSupport(seat=BLACK, planet="jabiim", kind="capital", count=1))
    state, events = play(state, Defend(seat=BLACK, dice=2))
    support = next(e for e in events if isinstance(e, ShipSupport))
    assert (support.defence.capital, support.defence.corvettes) == (1, 1)


def test_cw_25_the_attackers_choices_in_the_legal_moves() -> None:
    """CW-25 in ``legal_moves``: one range per class of each own planet holding ships, 0 to
    the ships there; every command of the expansion is accepted."""
    state, _ = faction_game(
        current=RED,
        phase="attack",
        options=CHOSEN,
        family={"ships": {"saleucami": [2, 0, 1], "jabiim": [3, 0, 0]}},
        **two_planets(),
    )
    moves = [m for m in legal_moves(state) if isinstance(m.command, ChooseSupport)]
    assert [(m.command.planet, m.command.kind, m.low, m.high) for m in moves] == [
        ("saleucami", "fighter", 0, 2),
        ("saleucami", "capital", 0, 1),
    ]
    listed = [c for c in rc.legal_commands(state) if isinstance(c, ChooseSupport)]
    assert [c.count for c in listed] == [0, 1, 2, 0, 1]
    for cmd in listed:
        play(state, cmd)  # each is legal


# ============================================================== odds, stats and bots
def test_cw_25_odds_and_stats_follow_the_choice(risk: Run, tmp_path: Path) -> None:
    """CW-25: `risk odds` reads the ships that will support (1 die with a capital ship is an
    all-d8 throw, without it a d6), and the luck report's odds are those of the dice thrown."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[5, 4],
        family={"ships": {"saleucami": [0, 0, 1]}},
        **two_planets(a=2, d=1),
    )
    d8 = out(risk, "odds", game, "saleucami", "jabiim")
    out(risk, "support", game, "saleucami", "capital", "0")
    d6 = out(risk, "odds", game, "saleucami", "jabiim")
    shipless = faction_cli_game(risk, tmp_path, current=RED, phase="attack", **two_planets(2, 1))
    assert d8 != d6
    assert d6 == out(risk, "odds", shipless, "saleucami", "jabiim")
    state, _ = faction_game(
        current=RED,
        phase="attack",
        options=CHOSEN,
        dice=[5, 4],
        family={"ships": {"saleucami": [0, 0, 1]}},
        **two_planets(a=2, d=1),
    )
    state, _ = play(state, choose("saleucami", "capital", 0))
    rs = rc.ruleset_of(state)
    new = rc.decide(state, Attack(seat=RED, origin="saleucami", target="jabiim", dice=1))
    before = rc.evolve(state, new[0])  # the ship_support announced
    battle = next(e for e in new if isinstance(e, BattleFought))
    odds = rs.battle_odds(before, battle)
    plain = dict(battle_losses(SideDice(troops=1), SideDice(troops=1)))
    assert odds is not None and abs(odds.defender_mean - float(plain[(0, 1)])) < 1e-12


def test_cw_25_the_greedy_bot_keeps_half_its_ships_when_the_origin_stays_exposed() -> None:
    """CW-25/DEC-36: the greedy bot commits every ship when the target is the origin's only
    enemy neighbour, else half of each class rounded up (the rest guard the origin); with
    ship_support=all it never names ships."""
    exposed = {"saleucami": RED, "jabiim": BLACK, "felucia": BLUE}
    kw = {
        "current": RED,
        "phase": "attack",
        "owners": exposed,
        "default_owner": ORANGE,
        "armies": {"saleucami": 12, "jabiim": 1, "felucia": 9},
        "family": {"ships": {"saleucami": [3, 0, 2]}},
    }
    state, _ = faction_game(options=CHOSEN, **kw)
    rs = rc.ruleset_of(state)
    nbrs = {rs.board.territories[n].id for n in rs.board.neighbours[rs.board.index["saleucami"]]}
    assert {"jabiim", "felucia"} <= nbrs  # two enemies next to the origin
    first = propose(state, seed=1)
    assert first == choose("saleucami", "fighter", 2)
    state, _ = play(state, first)
    assert propose(state, seed=1) == choose("saleucami", "capital", 1)
    state, _ = play(state, propose(state, seed=1))
    assert isinstance(propose(state, seed=1), Attack)
    plain, _ = faction_game(**kw)
    assert isinstance(propose(plain, seed=1), Attack)


def test_cw_25_bots_finish_a_game_where_ships_are_chosen() -> None:
    """CW-25: greedy bots play a whole game with ship_support=chosen, naming ships on the way;
    the game replays to the same bytes."""
    opening = rc.start(FACTION, ["Ann", "Bob", "Cy", "Dee"], seed=5, options=CHOSEN)
    _, events = self_play(opening, seed=5, max_turns=300)
    state = rc.replay(events)
    assert state.phase == "over"
    assert any(isinstance(e, SupportChosen) for e in events)
    assert rc.encode(rc.replay(events)) == rc.encode(state)


# ============================================================== the win text
def test_cw_41_the_log_says_the_faction_won(risk: Run, tmp_path: Path) -> None:
    """CW-41: after ``faction_won`` the game's result says the faction's victory, naming its
    armies, not "by being the last standing" (Black takes Red's last planet, then Orange's)."""
    game = faction_cli_game(
        risk,
        tmp_path,
        current=BLACK,
        phase="attack",
        dice=[6, 1, 6, 1],
        owners={"jabiim": BLACK, "saleucami": RED, "boz_pity": ORANGE},
        default_owner=BLUE,
        armies={"jabiim": 9, "saleucami": 1, "boz_pity": 1},
    )
    risk("attack", game, "jabiim", "saleucami", "--dice", "1", "--move", "1")
    risk("attack", game, "jabiim", "boz_pity", "--dice", "1")
    log = risk("log", game).stdout
    assert "The Separatists (Black, Blue) win" in log
    assert "Black wins with the Separatist faction (Black, Blue): a faction victory." in log
    assert "last standing" not in log
    assert "Black has won." in risk("show", game).stdout


def test_nap_team_11_cw_41_a_side_victory_is_told_with_its_side() -> None:
    """CW-41 and NAP-TEAM-11: a ``team`` result names the side from the players' faction or
    team (a view's players); without either it says "its team", never "last standing"."""
    board = rc.load_board("napoleon")
    won = {"type": "game_won", "seat": 2, "reason": "team"}

    def told(players: list[dict[str, object]]) -> str:
        return click.unstyle(event_line(won, Names(board, players)))

    plain: list[dict[str, object]] = [{"name": n, "colour": "blue"} for n in "ABCD"]
    assert told(plain) == "C wins with its team."
    teams = [{**p, "team": i % 2} for i, p in enumerate(plain)]
    assert told(teams) == "C wins with its team (A, C)."
    sides = ("republic", "separatist")
    factions = [{**p, "faction": sides[i % 2]} for i, p in enumerate(plain)]
    assert told(factions) == "C wins with the Republic faction (A, C): a faction victory."
