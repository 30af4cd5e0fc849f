"""Board sections a rule family registers, per-item provenance and cards as data (CORE-01).

The toy board in ``tests/boards/toy`` stands for a plug-in family's board shipped outside
``boards/``: a ``toy_cities`` section registered here, and a ``cards`` section with a card naming
no territory and a card with stars, both in a second deck.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from boards import BOARDS_DIR
from risk_cli.main import cli
from risk_core.board import (
    Board,
    BoardError,
    Fact,
    decode_board,
    load_board,
    load_board_dir,
    register_section,
    unverified_facts,
)
from risk_core.board_sections import registered_sections
from risk_core.cards import Card

TOY_DIR = Path(__file__).parent / "boards" / "toy"
Json = dict[str, Any]


class City(Fact, frozen=True, forbid_unknown_fields=True):
    """A toy family's city (as Risk 2008 cities would be, R08; positions GAP-23)."""

    id: str
    territory: str
    population: int


def check_cities(cities: tuple[City, ...], board: Board) -> None:
    for c in cities:
        if c.territory not in board.index:
            raise BoardError("toy_bad_city", f"City {c.id!r} names unknown {c.territory!r}")


CITIES = register_section("toy_cities", tuple[City, ...], check_cities)
register_section("toy_absent", tuple[City, ...])


@pytest.fixture(scope="module")
def toy() -> Board:
    return load_board_dir(TOY_DIR)


def toy_json() -> Json:
    data: Json = json.loads((TOY_DIR / "board.json").read_bytes())
    return data


def decode(data: Json) -> Board:
    return decode_board(json.dumps(data).encode())


def code_of(data: Json) -> tuple[str, str]:
    with pytest.raises(BoardError) as info:
        decode(data)
    return info.value.code, info.value.message


# --- Sections ----------------------------------------------------------------------------------


def test_core_01_board_outside_the_package_loads_with_its_sections(toy: Board) -> None:
    """CORE-01: a family ships its board in its own folder; its section decodes to its schema."""
    cities = toy.section("toy_cities")
    assert cities == (
        City(id="capital_city", territory="t0", population=3),
        City(id="port", territory="t2", population=1, verified=False, note=cities[1].note),
    )
    assert set(toy.sections) == {"cards", "toy_cities"}
    with pytest.raises(TypeError):
        toy.sections["toy_cities"] = ()  # type: ignore[index]


def test_section_policy_none_when_absent_error_when_unregistered(toy: Board) -> None:
    assert toy.section("toy_absent") is None
    assert load_board("classic").section("toy_cities") is None
    with pytest.raises(BoardError) as info:
        toy.section("toy_citiez")
    assert info.value.code == "unknown_section"


def test_unknown_section_names_it() -> None:
    data = toy_json()
    data["sections"]["hyperspace_lanes"] = []
    code, message = code_of(data)
    assert code == "unknown_section" and "'hyperspace_lanes'" in message


def test_unknown_top_level_field_is_still_rejected() -> None:
    data = toy_json()
    data["cities"] = []
    assert code_of(data)[0] == "malformed_board"


def test_bad_section_gives_the_path_in_board_json() -> None:
    data = toy_json()
    data["sections"]["toy_cities"][1]["population"] = "many"
    code, message = code_of(data)
    assert code == "bad_section"
    assert "$.sections.toy_cities[1].population" in message
    data = toy_json()
    data["sections"]["toy_cities"][0]["colour"] = "red"  # misspelt keys are errors
    code, message = code_of(data)
    assert code == "bad_section" and "colour" in message


def test_section_checker_runs_on_the_built_board() -> None:
    data = toy_json()
    data["sections"]["toy_cities"][0]["territory"] = "atlantis"
    assert code_of(data) == ("toy_bad_city", "City 'capital_city' names unknown 'atlantis'")


def test_registering_twice() -> None:
    """Same schema and checker: a no-op; anything else: duplicate_section."""
    assert register_section("toy_cities", tuple[City, ...], check_cities) is CITIES
    assert registered_sections()["toy_cities"] is CITIES
    with pytest.raises(BoardError) as info:
        register_section("toy_cities", tuple[City, ...])
    assert info.value.code == "duplicate_section"
    with pytest.raises(BoardError) as info:
        register_section("cards", tuple[City, ...])
    assert info.value.code == "duplicate_section"


def test_struct_schema_must_forbid_unknown_fields() -> None:
    class Loose(msgspec.Struct, frozen=True):
        x: int

    with pytest.raises(BoardError) as info:
        register_section("toy_loose", Loose)
    assert info.value.code == "bad_section_schema"
    assert "toy_loose" not in registered_sections()


# --- Provenance --------------------------------------------------------------------------------


def test_unverified_facts_lists_items_with_their_notes(toy: Board) -> None:
    """Board-level provenance first, then every Fact with verified false, by section name."""
    assert [(f.where, f.note) for f in unverified_facts(toy)] == [
        ("provenance.unverified", "The toy board is made up"),
        ("sections.cards[5]", "Effect text reconstructed from a forum post"),
        ("sections.toy_cities[1] (port)", "Size read off a blurred photo"),
    ]


def test_unverified_fact_needs_a_note() -> None:
    data = toy_json()
    data["sections"]["toy_cities"][0]["verified"] = False
    code, message = code_of(data)
    assert code == "unexplained_fact" and "sections.toy_cities[0] (capital_city)" in message


def test_gap_05_placeholder_bonuses_are_unverified_facts() -> None:
    """GAP-05: Napoleon's empire bonuses are placeholders, each listed with its own note."""
    board = load_board("napoleon")
    facts = unverified_facts(board)
    bonuses = {f.where: f.note for f in facts if f.where.startswith("groups.")}
    assert len(bonuses) == 11 and "GAP-05" in bonuses["groups.empire_francais.bonus"]
    assert all(f.kind == "bonus" for f in facts if f.where.startswith("groups."))
    prov = board.file.provenance
    board_wide = [f.note for f in facts if f.where.startswith("provenance.")]
    assert board_wide == [*prov.unverified, *prov.reconstructed]


# --- Cards -------------------------------------------------------------------------------------


def test_cards_section_defines_the_deck(toy: Board) -> None:
    assert toy.decks == ("main", "events")
    assert toy.deck_cards("main") == [0, 1, 2, 3, 4]
    assert toy.deck_cards("events") == [5, 6]
    assert toy.card(5) == Card(
        id=5, territory=None, symbol=None, deck="events", kind="cruiser", effect="Move a fleet"
    )
    assert toy.card(6).stars == 2 and toy.card_territory(6) == toy.index["t1"]
    assert toy.card_territory(4) is None
    assert toy.card_symbols == (
        "infantry",
        "cavalry",
        "artillery",
        "infantry",
        "joker",
        "",
        "cavalry",
    )
    for bad in (-1, 7):
        with pytest.raises(BoardError) as info:
            toy.card(bad)
        assert info.value.code == "unknown_card"
    with pytest.raises(BoardError) as info:
        toy.deck_cards("missions")
    assert info.value.code == "unknown_deck"


def test_cards_are_checked() -> None:
    cases: list[tuple[str, str, object]] = [
        ("duplicate_card", "id", 0),
        ("bad_cards", "id", 9),
        ("unknown_territory", "territory", "t9"),
        ("bad_cards", "stars", -1),
        ("bad_cards", "symbol", "infantry"),  # the board declares 1 joker
    ]
    for code, field, value in cases:
        data = toy_json()
        data["sections"]["cards"][4][field] = value
        assert code_of(data)[0] == code, (field, value)


def test_core_01_classic_cards_keep_todays_ids() -> None:
    """Without a cards section, card i is territory i and the jokers follow (recorded games)."""
    board = load_board("classic")
    assert len(board.cards) == 44 and board.decks == ("main",)
    assert [c.id for c in board.cards] == list(range(44))
    assert tuple(c.symbol for c in board.cards) == board.card_symbols
    assert all(board.card_territory(i) == i for i in range(42))
    assert [board.card_territory(i) for i in (42, 43)] == [None, None]
    assert board.deck_cards("main") == list(range(44))


@pytest.mark.parametrize("name", ["classic", "napoleon"])
def test_shipped_boards_hash_is_the_hash_of_their_files(name: str) -> None:
    """The hash recorded in every game's first event is a pure function of the two files'
    bytes: decoding them again gives it again, so a stored game can tell whether its board
    changed (CORE-01).  Editing a board file changes it (tests/test_board.py)."""
    board_json = (BOARDS_DIR / name / "board.json").read_bytes()
    missions_json = (BOARDS_DIR / name / "missions.json").read_bytes()
    first, again = decode_board(board_json, missions_json), decode_board(board_json, missions_json)
    board = load_board(name)
    assert board.content_hash == first.content_hash == again.content_hash
    assert board.content_hash.startswith("sha256:") and len(board.content_hash) == 71
    assert board.sections == {} and unverified_facts(board) == unverified_facts(first)


# --- Display -----------------------------------------------------------------------------------


def test_boards_show_lists_sections_decks_and_unverified_facts(tmp_path: Path) -> None:
    shutil.copytree(TOY_DIR, tmp_path / "toy")
    result = CliRunner().invoke(cli, ["boards", "show", str(tmp_path / "toy")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "toy (version 1): Toy / Jouet"
    for line in (
        "  card decks: main 5, events 2",
        "  section cards: 7 items",
        "  section toy_cities: 2 items",
        "  Board toy: 2 of 19 recorded facts are reconstructed or unverified (section items 2/9),"
        " plus 1 board-wide note. Each one and why:",
        "  board-wide notes (1):",
        "    provenance.unverified: The toy board is made up",
        "  section items (2):",
        "    sections.toy_cities[1] (port): Size read off a blurred photo",
    ):
        assert line in lines
    shown = CliRunner().invoke(cli, ["boards", "show", str(tmp_path / "toy"), "--json"])
    assert json.loads(shown.output) == toy_json()
    checked = CliRunner().invoke(cli, ["boards", "check", str(tmp_path / "toy"), "--json"])
    report = json.loads(checked.output)
    assert report["sections"] == {"cards": 7, "toy_cities": 2}
    assert report["decks"] == {"main": 5, "events": 2}
    assert report["unverified"][1] == {
        "where": "sections.cards[5]",
        "note": "Effect text reconstructed from a forum post",
        "kind": "section",
    }
    assert report["facts"]["section"] == {"unverified": 2, "recorded": 9}


def test_a_family_board_is_read_when_first_loaded_and_its_id_is_guarded(tmp_path: Path) -> None:
    """A family's own board (``RuleSet.board_dir``) is known by its id when its rule set is
    defined, but decoded only by the first ``load_board`` (importing every family must not
    decode every board); another folder claiming that id with other data is ``board_exists``."""
    from risk_core import board as board_module

    folder = tmp_path / "toyboard"
    shutil.copytree(TOY_DIR, folder)
    data = json.loads((folder / "board.json").read_text())
    data["id"] = "lazy-toy-board"
    (folder / "board.json").write_text(json.dumps(data))
    calls: list[Path] = []
    real = board_module.load_board_dir

    def counting(path: str | Path) -> Board:
        calls.append(Path(path))
        return real(path)

    board_module.load_board_dir = counting  # type: ignore[assignment]
    try:
        assert board_module.add_family_board(folder) == "lazy-toy-board"
        assert board_module.add_family_board(folder) == "lazy-toy-board"  # the same: no clash
        assert calls == []
        assert board_module.load_board("lazy-toy-board").id == "lazy-toy-board"
        assert calls == [folder]
    finally:
        board_module.load_board_dir = real  # type: ignore[assignment]
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    (other / "names.json").write_text("{}")
    with pytest.raises(BoardError) as err:
        board_module.add_family_board(other)
    assert err.value.code == "board_exists"
    with pytest.raises(BoardError) as err:
        board_module.add_family_board(tmp_path / "nowhere")
    assert err.value.code == "unknown_board"
