"""Territory names as players type them (issue 13: names): unique prefixes and abbreviations,
ambiguous ones refused with the candidates, word-based suggestions in both languages, English
and French names for every Napoléon territory, the rulebook OCR garbles gone, and the names
file kept outside the board's content hash so stored games stay readable."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

import risk_core as rc
from risk_core.board import BoardError, decode_board, load_board_dir
from risk_core.names import build_index, matches, name_words, resolve, suggestions

Run = Callable[..., Result]
BOARDS = Path(rc.board.__file__).resolve().parents[1] / "boards"
CLASSIC = rc.load_board("classic")
NAPOLEON = rc.load_board("napoleon")


def found(board: rc.Board, name: str) -> str:
    return board.territories[board.find(name)].id


def refused(board: rc.Board, name: str) -> BoardError:
    with pytest.raises(BoardError) as err:
        board.find(name)
    return err.value


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("nwt", "northwest_territory"),  # an alias
        ("northwest", "northwest_territory"),  # a unique prefix
        ("e us", "eastern_united_states"),  # a word's start, then initials
        ("western us", "western_united_states"),
        ("w us", "western_united_states"),
        ("e aus", "eastern_australia"),
        ("ice", "iceland"),
        ("guinea", "new_guinea"),  # a word of the name, the first left out
        ("Afrique du N", "north_africa"),  # French, a prefix
        ("etats de l'ouest", "western_united_states"),  # French alias, no accents
    ],
)
def test_classic_prefixes_and_abbreviations(name: str, expected: str) -> None:
    """issue 13: unique prefixes and abbreviations (`nwt`, `northwest`, `e us`)."""
    assert found(CLASSIC, name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tunis", "tunis_tripoli"),
        ("moldavia", "moldavie_valachie"),
        ("moldavie", "moldavie_valachie"),
        ("Pomerania", "pomeranie_brandebourg_silesie"),
        ("Autriche", "pays_austro_bohemiens"),
        ("Austria", "pays_austro_bohemiens"),
        ("greece", "bulgarie_grece_macedoine"),
        ("Wallachia", "moldavie_valachie"),
        ("italy", "royaume_d_italie"),
        ("Tripolitaine", "tunis_tripoli"),
        ("Silésie", "pomeranie_brandebourg_silesie"),
    ],
)
def test_napoleon_names_in_english_and_french(name: str, expected: str) -> None:
    """issue 13: Napoléon names in English and short French forms."""
    assert found(NAPOLEON, name) == expected


def test_every_napoleon_territory_has_an_english_and_a_french_name() -> None:
    """issue 13: every Napoléon territory answers to its English and its French name."""
    for i, t in enumerate(NAPOLEON.territories):
        assert t.name_en and t.name_fr
        assert NAPOLEON.find(t.name_en) == i and NAPOLEON.find(t.name_fr) == i


@pytest.mark.parametrize(
    "garbled",
    [
        "Nerd Picardie",
        "Marec, Fils et États du barbare",
        "Mithridates & Molochia",
        "Moldavie & Malachie",
        "Principautés Sérviques",
        "Nord Prusse",
    ],
)
def test_rulebook_ocr_garbles_are_no_names(garbled: str) -> None:
    """issue 13: the garbled aliases are gone from the data (nor do they match in part)."""
    aliases = {a for t in NAPOLEON.territories for a in t.aliases}
    assert garbled not in aliases
    assert refused(NAPOLEON, garbled).code == "unknown_territory"


def test_an_ambiguous_prefix_lists_the_candidates() -> None:
    """issue 13: an ambiguous prefix is refused, naming every territory it could be."""
    err = refused(CLASSIC, "east")
    assert err.code == "ambiguous_territory"
    for name in ("East Africa", "Eastern Australia", "Eastern United States", "Middle East"):
        assert name in err.message
    assert "type more of the name" in err.message
    err = refused(NAPOLEON, "russie")
    assert err.code == "ambiguous_territory"
    assert all(n in err.message for n in ("Great Russia", "Western Russia", "Northern Russia"))


def test_suggestions_go_by_words() -> None:
    """issue 13: `western us` is Western United States, not Western Europe; a misspelt word
    still suggests the territory whose words match best."""
    assert found(CLASSIC, "western us") == "western_united_states"
    err = refused(CLASSIC, "westrn us")
    assert err.message == ("Unknown territory 'westrn us'. Did you mean 'western_united_states'?")
    assert "western_europe" not in refused(CLASSIC, "western unted states").message
    assert "'brazil'" in refused(CLASSIC, "brasil").message
    assert refused(CLASSIC, "zzz").message == "Unknown territory 'zzz'."


def test_the_resolver_is_a_pure_function_of_the_names() -> None:
    """issue 13: tiers on a small index: exact, prefix, words; ambiguity is never a guess."""
    index = build_index(
        [("a", "North Land", "Terre du Nord"), ("b", "Northern Isles"), ("c", "South Land")],
        ["North Land", "Northern Isles", "South Land"],
    )
    assert name_words("Terre-du Nord!") == ("terre", "du", "nord")
    assert matches(index, "north land") == [0]  # whole name
    assert matches(index, "northe") == [1]  # a prefix of one name only
    assert matches(index, "north") == [0, 1]
    assert matches(index, "s land") == [2]
    assert matches(index, "") == []
    assert resolve(index, "nord") == 0
    assert suggestions(index, "suoth land") == [2]
    with pytest.raises(BoardError) as err:
        resolve(index, "north")
    assert err.value.code == "ambiguous_territory"
    assert (
        err.value.message == "'north' could be North Land or Northern Isles: type more of the name."
    )


def test_names_file_stays_outside_the_content_hash(tmp_path: Path) -> None:
    """issue 13: names.json changes names, never the hash a game records (stored games stay
    readable); its ids are checked."""
    folder = tmp_path / "classic"
    shutil.copytree(BOARDS / "classic", folder)
    (folder / "names.json").unlink()
    plain = load_board_dir(folder)
    assert plain.content_hash == CLASSIC.content_hash
    assert "NWT" not in plain.territories[plain.index["northwest_territory"]].aliases
    assert CLASSIC.missions[1].text_en == "Conquer North America and Australia"  # board's name
    raw = (BOARDS / "classic" / "board.json").read_bytes()
    bad = json.dumps({"territories": {"atlantis": {"aliases": []}}}).encode()
    with pytest.raises(BoardError) as err:
        decode_board(raw, None, bad)
    assert err.value.code == "unknown_territory" and "atlantis" in err.value.message
    with pytest.raises(BoardError) as err:
        decode_board(raw, None, b'{"territories": {"alaska": {"nickname": "x"}}}')
    assert err.value.code == "malformed_board"


def test_one_name_per_continent_across_board_and_missions() -> None:
    """issue 13: a mission names a continent as the board does ("Australia", not "Oceania")."""
    for board in (CLASSIC, NAPOLEON):
        for m in board.missions:
            for g in m.groups:
                group = board.groups[board.group_index[g]]
                assert group.name_en.split(" (")[0] in m.text_en.replace("all of the ", "")
    assert not any("Oceania" in m.text_en for m in CLASSIC.missions)


# --------------------------------------------------------------------------- through the CLI
@pytest.fixture
def game(risk: Run) -> str:
    result = risk("new", "--players", "Ann,Bob,Cy", "--seed", "42", "--id", "names1", "--json")
    assert result.exit_code == 0, result.output
    return "names1"


def test_cli_takes_abbreviations_and_refuses_an_ambiguous_name(risk: Run, game: str) -> None:
    """issue 13: commands take abbreviations (`nwt`, `w us`); an ambiguous name is an error
    listing the candidates, in text and JSON, that changes nothing."""
    assert risk("near", game, "nwt").stdout.startswith("Northwest Territory (Cy, 1 army)")
    refused_place = risk("place", game, "w us", code=1)  # resolved: Cy does not own it
    assert refused_place.stderr == "Error: You do not own Western United States. [not_owner]\n"
    version = json.loads(risk("show", game, "--json").stdout)["version"]
    result = risk("place", game, "east", code=1)
    assert result.stderr == (
        "Error: 'east' could be Quebec, Eastern United States, East Africa, Middle East or "
        "Eastern Australia: type more of the name. [ambiguous_territory]\n"
    )
    as_json = risk("place", game, "east", "--json", code=1)
    assert json.loads(as_json.stderr)["error"]["code"] == "ambiguous_territory"
    assert json.loads(risk("show", game, "--json").stdout)["version"] == version
