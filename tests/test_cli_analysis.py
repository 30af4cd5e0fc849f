"""`risk odds`, `risk near`, `risk moves` and `risk attack --dry-run` on a known position.

The position is a scenario file (classic, Ann to attack from North Africa with 4 armies); odds
are checked against the brute-force values of ``tests/test_odds.py`` (CORE-14..16).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import risk_core as rc
from tests.test_odds import brute_battle, brute_ends

Run = Callable[..., Result]
BOARD = rc.load_board("classic")
CLASSIC = [t.id for t in BOARD.territories]
AROUND = {  # North Africa and its neighbours: (seat, armies)
    "north_africa": (0, 4),
    "brazil": (1, 2),
    "egypt": (2, 1),
    "east_africa": (0, 1),
    "congo": (1, 1),
    "western_europe": (2, 3),
    "southern_europe": (1, 1),
    "peru": (1, 1),
}


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


@pytest.fixture
def game(risk: Run, tmp_path: Path) -> str:
    """A classic game: Ann (seat 0) to attack; North Africa 4 against Brazil 2 (sea line)."""
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(CLASSIC)}
    territories.update({t: {"owner": o, "armies": a} for t, (o, a) in AROUND.items()})
    doc = {
        "ruleset": "classic",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 7,
        "current": "Ann",
        "phase": "attack",
        "territories": territories,
    }
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc))
    return str(out(risk, "new", "--scenario", str(path))["game_id"])


def exact(number: dict[str, Any]) -> Fraction:
    assert number["value"] == pytest.approx(float(Fraction(number["exact"])))
    return Fraction(number["exact"])


def ends(doc: dict[str, Any]) -> dict[tuple[int, int], Fraction]:
    return {(e["attacker_left"], e["defender_left"]): exact(e["p"]) for e in doc["outcomes"]}


# --------------------------------------------------------------------------- odds
def test_odds_without_a_game_are_the_brute_force_values(risk: Run) -> None:
    """`risk odds 3 2`: one battle of 2 dice against 2, then until conquest (CORE-14..16)."""
    doc = out(risk, "odds", "3", "2")
    fight = doc["battle"]
    assert (fight["attack_dice"], fight["defence_dice"]) == (2, 2)
    one = {o["attacker_losses"]: exact(o["p"]) for o in fight["outcomes"]}
    assert one == brute_battle(2, 2)
    assert exact(fight["attacker_losses"]) == sum(k * p for k, p in one.items())
    expected = brute_ends(3, 2, 3, 1)
    assert ends(doc["assault"]) == expected
    conquest = sum(p for (_, d), p in expected.items() if d == 0)
    assert exact(doc["assault"]["conquest"]) == conquest == Fraction(235, 648)
    text = risk("odds", "3", "2").stdout
    assert "One battle, 2 dice against 2:" in text
    assert "One battle, 1 die against 1:" in risk("odds", "2", "1").stdout  # (was "1 dice")
    assert f"  conquest: {float(conquest) * 100:.2f}%" in text
    assert "    the defender taken, 3 left in the attacker:  22.76%" in text


def test_odds_with_dice_and_stop_at(risk: Run) -> None:
    """--dice caps every battle's attack dice; --stop-at ends the attack early."""
    doc = out(risk, "odds", "5", "3", "--dice", "2", "--stop-at", "2")
    assert doc["battle"]["attack_dice"] == 2
    assert ends(doc["assault"]) == brute_ends(5, 3, 2, 2)
    assert "no_attack" in risk("odds", "1", "3", code=1).stderr
    # CORE-14: an order whose origin is at its stop already fights no battle: refused, as
    # the engine refuses it.
    assert "[bad_count]" in risk("odds", "5", "3", "--stop-at", "5", code=1).stderr


def test_odds_in_a_game_only_of_an_attack_the_board_allows(risk: Run, game: str) -> None:
    """CORE-13: `risk odds GAME FROM TO` of two territories of one owner, or of two that do
    not border, is refused as the attack itself is (`--dry-run` gives the same codes)."""
    cases = (
        ("north_africa", "east_africa", "own_territory"),
        ("north_africa", "peru", "not_adjacent"),
    )
    for origin, target, code in cases:
        for args in (("odds", game, origin, target), ("attack", game, origin, target, "--dry-run")):
            said = risk(*args, code=1).stderr
            assert f"[{code}]" in said and "Traceback" not in said, (args, said)


def test_an_attack_until_its_stop_is_refused(risk: Run, game: str) -> None:
    """CORE-14: `risk attack --stop-at N` (an attack until conquest with a stop of its own)
    from a territory of N armies or fewer would fight no battle (it used to fight one):
    refused, nothing recorded; just above its stop, it fights until down to it."""
    before = out(risk, "show", game)["version"]
    said = risk("attack", game, "north_africa", "brazil", "--stop-at", "4", code=1).stderr
    assert "North Africa has 4 armies, not more than the 4 to stop at" in said
    assert "[bad_count]" in said
    assert out(risk, "show", game)["version"] == before
    fought = out(risk, "attack", game, "north_africa", "brazil", "--stop-at", "3")
    assert any(e["type"] == "battle" for e in fought["events"])
    left = out(risk, "show", game)["territories"]
    assert left["north_africa"]["armies"] <= 3 or left["brazil"]["owner"] == 0


def test_a_stop_below_one_army_is_refused_by_odds_as_by_the_attack(risk: Run, game: str) -> None:
    """CORE-14: the last army never attacks, so `--stop-at` below 1 is `bad_count` for
    `risk odds` as for `risk attack` (odds read 0 or -3 as 1 and printed them), in words that
    name no field; an attacker of 1 army is "1 army", and "The attacker" opens its sentence."""
    refusals = (
        ("odds", "10", "5", "--stop-at", "0"),
        ("odds", game, "north_africa", "brazil", "--stop-at", "-3"),
        ("attack", game, "north_africa", "brazil", "--stop-at", "0", "--dry-run"),
        ("attack", game, "north_africa", "brazil", "--stop-at", "0"),
    )
    for args in refusals:
        said = risk(*args, code=1).stderr
        stop = args[-1] if args[-1] != "--dry-run" else args[-2]
        text = f"Stop at 1 army or more (the last one never attacks), not {stop}."
        assert said == f"Error: {text} [bad_count]\n", (args, said)
    assert "No battle: 1 army cannot attack 1 " in risk("odds", "1", "1", code=1).stderr
    said = risk("odds", "2", "1", "--stop-at", "2", code=1).stderr
    assert said.startswith("Error: The attacker has 2 armies, not more than the 2 to stop at")


def test_odds_in_a_game_use_its_armies(risk: Run, game: str) -> None:
    """`risk odds GAME FROM TO`: North Africa's 4 armies against Brazil's 2, names shown."""
    doc = out(risk, "odds", game, "Afrique du Nord", "brazil")
    assert doc["attacker"] == {
        "label": "North Africa",
        "armies": 4,
        "territory": "north_africa",
        "player": "Ann",
    }
    assert doc["defender"]["armies"] == 2 and doc["defender"]["player"] == "Bob"
    assert ends(doc["assault"]) == brute_ends(4, 2, 3, 1)
    text = risk("odds", game, "north africa", "brazil").stdout.splitlines()
    assert text[0] == "North Africa (4) against Brazil (2)."
    assert text[1] == "One battle, 3 dice against 2:"


def test_attack_dry_run_prints_the_odds_and_stores_nothing(risk: Run, game: str) -> None:
    """`risk attack --dry-run`: the same odds as `risk odds`, the game's version unchanged."""
    before = out(risk, "show", game)["version"]
    dry = risk("attack", game, "north africa", "brazil", "--until-conquer", "--dry-run")
    assert dry.stdout == risk("odds", game, "north africa", "brazil").stdout
    assert out(risk, "attack", game, "north_africa", "brazil", "--dry-run") == out(
        risk, "odds", game, "north_africa", "brazil"
    )
    assert out(risk, "show", game)["version"] == before
    # An attack the rules refuse is refused by the dry run too.
    assert (
        "[own_territory]"
        in risk("attack", game, "north_africa", "east_africa", "--dry-run", code=1).stderr
    )


# --------------------------------------------------------------------------- near
def test_near_lists_neighbours_with_owner_armies_and_edge(risk: Run, game: str) -> None:
    """CORE-13: the neighbours by the rule set's attack graph, borders and sea lines."""
    doc = out(risk, "near", game, "north africa")
    assert doc["territory"] == "north_africa" and doc["seat"] == 0
    rows = {r["territory"]: (r["owner"], r["armies"], r["edge"]) for r in doc["neighbours"]}
    o = BOARD.find("north_africa")
    assert set(rows) == {BOARD.territories[n].id for n in BOARD.neighbours[o]}
    assert rows["brazil"] == (1, 2, "sea") and rows["egypt"] == (2, 1, "border")
    text = risk("near", game, "north africa").stdout.splitlines()
    assert text[0] == "North Africa (Ann, 4 armies): 6 neighbours (as Ann may attack)."
    assert any(line.split() == ["Brazil", "Bob", "2", "sea"] for line in text)


def test_not_adjacent_names_what_can_be_attacked(risk: Run, game: str) -> None:
    """CORE-13: the error lists the enemy neighbours of FROM by the rule set's graph."""
    err = risk("attack", game, "north africa", "peru", code=1).stderr.strip()
    assert err == (
        "Error: North Africa does not border Peru; from there you can attack Brazil, "
        "Western Europe, Southern Europe, Egypt, Congo. [not_adjacent]"
    )


# --------------------------------------------------------------------------- moves
def test_moves_groups_the_legal_commands(risk: Run, game: str) -> None:
    """CORE-13/14/19: attacks as origin → target with dice, fortify with count ranges."""
    doc = out(risk, "moves", game)
    assert doc["seat"] == 0 and doc["phase"] == "attack"
    moves = doc["moves"]
    assert moves["attack"]["north_africa"]["brazil"] == [1, 3]
    assert moves["fortify"]["north_africa"]["east_africa"] == [1, 3]
    assert moves["end"] is True and moves["trade"] == [] and moves["place"] == {}
    text = risk("moves", game).stdout.splitlines()
    assert text[0] == "Ann (seat 0) may attack, fortify or end the turn:"
    assert "    North Africa → Brazil: 1-3 dice" in text
    assert "    North Africa → East Africa: 1-3 armies" in text
    assert text[-1] == "  end the turn"
    other = risk("moves", game, "--as", "Bob").stdout
    assert other == "Nothing for Bob (seat 1) to do now: it is Ann's move (seat 0).\n"


def test_moves_in_the_reinforcement_phase_gives_count_ranges(risk: Run) -> None:
    """Placements as territories with a count range (CORE-05 setup)."""
    game = out(risk, "new", "--players", "Ann,Bob,Cy", "--seed", "42")["game_id"]
    moves = out(risk, "moves", game)["moves"]
    assert moves["place"] and all(span == [1, 1] for span in moves["place"].values())
    assert "  place 1: " in risk("moves", game).stdout


def test_risk_moves_names_each_family_command_by_its_verb() -> None:
    """`risk moves` lists a family command under the verb that submits it (`give`, not the
    command's type `give_card`): every command type of every rule set has one."""
    from risk_cli.analysis import verb_of
    from risk_cli.main import COMMANDS, FAMILY_COMMANDS
    from risk_core import model
    from risk_core.rulesets import get

    for info in rc.rulesets():
        get(info.name)  # every family's commands registered
    verbs = set(COMMANDS) | set(FAMILY_COMMANDS)
    missing = {
        t.__struct_config__.tag: verb_of(str(t.__struct_config__.tag))
        for t in model.COMMAND_TYPES
        if t.__module__.startswith("risk_core.")  # the built-in families (a plug-in: its own)
        and verb_of(str(t.__struct_config__.tag)) not in verbs
    }
    assert missing == {}
    assert verb_of("give_card") == "give" and verb_of("move_general") == "move-general"


def test_risk_moves_shows_family_values_as_a_reader_says_them() -> None:
    """Seats by their player's name (a run of them as alternatives), cards by what they
    show, yes or no, territories by name, counts as ranges."""
    from risk_cli.analysis import _fields_text
    from risk_core.rulesets import get

    board = get("napoleon-2p").board
    names = ["Ann", "Bob", "Green", "Yellow", "Black", "Purple"]
    card = board.territory_card(board.index["portugal"])
    assert card is not None
    text = _fields_text(board, {"independent": [2, 4], "card": card}, names)
    assert text == f"independent Green or Yellow or Black, card {board.card_label(card)}"
    assert board.card_label(card).startswith("Portugal (")
    assert _fields_text(board, {"accept": False}, names) == "accept no"
    moved = {"origin": "portugal", "target": "castille", "count": [1, 4]}
    assert _fields_text(board, moved, names) == "origin Portugal, target Castile, count 1-4"
    assert _fields_text(board, {"ally": 3, "card": None}, names) == "ally Yellow"
