"""CW-06..10, CW-22, CW-36, CW-38 and DEC-35: the Clone Wars faction facts the faction game
rests on (``risk_core.rulesets.clonewars_factions``; the game itself: test_rules_clonewars)."""

from __future__ import annotations

import pytest

from risk_core.errors import SetupError
from risk_core.rulesets.clonewars_factions import (
    STARTING_TROOPS,
    cards_to_draw,
    faction,
    faction_seats,
    may_build,
    order66_converts,
    order66_faces,
)
from tests.clonewars_kit import BOARD


def table(players: list[str]) -> list[tuple[str, str, str]]:
    return [(s.colour, s.name, str(s.commander)) for s in faction_seats(players)]


def test_cw_07_cw_08_two_players() -> None:
    """CW-07 (002 l.166-175): 2 players, P1 red & orange against P2 black & blue; CW-08 the
    turn order alternates Republic and Separatist."""
    assert table(["Ann", "Bob"]) == [
        ("red", "Red", "Ann"),
        ("black", "Black", "Bob"),
        ("orange", "Orange", "Ann"),
        ("blue", "Blue", "Bob"),
    ]
    factions = [faction(s.colour) for s in faction_seats(["Ann", "Bob"])]
    assert factions == ["republic", "separatist", "republic", "separatist"]


def test_cw_07_three_and_four_players() -> None:
    """CW-07: 3 players P1 red, P2 black & blue, P3 orange; 4 players one army each."""
    assert table(["Ann", "Bob", "Cy"]) == [
        ("red", "Red", "Ann"),
        ("black", "Black", "Bob"),
        ("orange", "Orange", "Cy"),
        ("blue", "Blue", "Bob"),
    ]
    assert [s.commander for s in faction_seats(["Ann", "Bob", "Cy", "Dee"])] == [
        "Ann",
        "Bob",
        "Cy",
        "Dee",
    ]


@pytest.mark.parametrize(
    "players", [["Ann"], ["A", "B", "C", "D", "E"], ["Ann", "Ann"], ["Ann", "Blue", "Cy"]]
)
def test_cw_07_other_counts_and_clashing_names_are_refused(players: list[str]) -> None:
    """CW-07: 2 to 4 distinct players; a player may not take an army's name."""
    with pytest.raises(SetupError) as err:
        faction_seats(players)
    assert err.value.code in ("bad_players", "bad_commander")


def test_cw_10_starting_troops() -> None:
    """CW-10 (002 l.180-182): Republic armies 31 troops each, Separatist armies 30."""
    assert STARTING_TROOPS == {"republic": 31, "separatist": 30}


def test_cw_36_worked_example_blue_draws_two() -> None:
    """CW-36, the worked example of 002 l.496-502: blue took Boz Pity and Kessel from red and
    Haruun Kal and Rodia from orange: one card per army, two cards."""
    assert cards_to_draw("blue", ["red", "red", "orange", "orange"]) == 2
    assert cards_to_draw("blue", ["red"]) == 1 and cards_to_draw("blue", []) == 0


def test_cw_36_worked_example_dooku_and_rune_haako() -> None:
    """CW-36 (002 l.504-508): red captured Count Dooku (2 dots) and Rune Haako (1 dot): three
    more cards; tokens give Separatists nothing."""
    tokens = {t.id: t.dots for t in BOARD.section("cw_tokens")}
    dots = [tokens["dooku"], tokens["rune_haako"]]
    assert cards_to_draw("red", [], dots) == 3
    assert cards_to_draw("red", ["black"], dots) == 4
    assert cards_to_draw("black", ["red"], dots) == 1


def test_cw_38_dec_35_order66_track_examples() -> None:
    """CW-38 (002 l.518): on the 8th space a 5, 6, 7 or 8 converts, on the 7th a 6, 7 or 8;
    DEC-35 (b): invoking is allowed anywhere, it just cannot succeed where no number shows."""
    assert order66_faces(BOARD, 8) == (5, 6, 7, 8)
    assert order66_faces(BOARD, 7) == (6, 7, 8)
    assert order66_converts(BOARD, 8, 5) and not order66_converts(BOARD, 7, 5)
    assert order66_faces(BOARD, 0) == () and not order66_converts(BOARD, 1, 8)


def test_cw_22_three_ships_per_class_one_per_turn() -> None:
    """CW-22 (002 l.331-333): up to 3 ships of each class on the board, one built per turn."""
    assert may_build(["fighter", "fighter"], "fighter", 0)
    assert not may_build(["fighter"] * 3, "fighter", 0)
    assert may_build(["fighter"] * 3, "corvette", 0)
    assert not may_build([], "capital", 1)
