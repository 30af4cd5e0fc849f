"""Board data and loader: the classic board against the rulebooks, and every validation code."""

from __future__ import annotations

import copy
import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boards import BOARDS_DIR
from risk_core.board import (
    MISSION_COLOURS,
    Board,
    BoardError,
    board_names,
    decode_board,
    load_board,
    load_board_dir,
)

CLASSIC_DIR = BOARDS_DIR / "classic"
RAW_BOARD = (CLASSIC_DIR / "board.json").read_bytes()
RAW_MISSIONS = (CLASSIC_DIR / "missions.json").read_bytes()

Json = dict[str, Any]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("classic")


def classic_json() -> Json:
    data: Json = json.loads(RAW_BOARD)
    return data


def missions_json() -> Json:
    data: Json = json.loads(RAW_MISSIONS)
    return data


def encode(data: Json) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def territory(data: Json, tid: str) -> Json:
    found: Json = next(t for t in data["territories"] if t["id"] == tid)
    return found


def ids(board: Board, *names: str) -> set[int]:
    return {board.index[n] for n in names}


# --- The classic board against the rulebooks ---------------------------------------------------


def test_core_01_every_territory_in_exactly_one_group(board: Board) -> None:
    """CORE-01: regions partition the territories."""
    members = [i for group in board.group_members for i in group]
    assert sorted(members) == list(range(len(board.territories)))
    for i, k in enumerate(board.territory_group):
        assert i in board.group_members[k]
        assert board.groups[k].id == board.territories[i].group


def test_core_01_adjacency_is_symmetric_and_sorted(board: Board) -> None:
    """CORE-01: the connection relation is symmetric, irreflexive, and the indexes agree."""
    for i, neighbours in enumerate(board.neighbours):
        assert list(neighbours) == sorted(set(neighbours))
        assert frozenset(neighbours) == board.neighbour_sets[i]
        assert i not in board.neighbour_sets[i]
        for j in neighbours:
            assert board.adjacent(j, i)
            assert board.edge_kind(i, j) == board.edge_kind(j, i) is not None


def test_cl_01_forty_two_territories_in_six_continents(board: Board) -> None:
    """CL-01: Océanie 4, Amérique du Sud 4, Afrique 6, Europe 7, Amérique du Nord 9, Asie 12."""
    assert len(board.territories) == 42
    sizes = {g.name_fr: len(board.group_members[k]) for k, g in enumerate(board.groups)}
    assert sizes == {
        "Océanie": 4,
        "Amérique du Sud": 4,
        "Afrique": 6,
        "Europe": 7,
        "Amérique du Nord": 9,
        "Asie": 12,
    }
    assert all(g.size == len(board.group_members[k]) for k, g in enumerate(board.groups))


def test_cl_09_continent_bonuses(board: Board) -> None:
    """CL-09: Océanie 2, Amérique du Sud 2, Afrique 3, Europe 5, Amérique du Nord 5, Asie 7."""
    bonuses = {g.id: g.bonus for g in board.groups}
    assert bonuses == {
        "australia": 2,
        "south_america": 2,
        "africa": 3,
        "europe": 5,
        "north_america": 5,
        "asia": 7,
    }


def test_cl_15_alaska_kamchatka_sea_line(board: Board) -> None:
    """CL-15: Alaska may attack Kamchatka across the dotted sea line."""
    alaska, kamchatka = board.find("alaska"), board.find("kamchatka")
    assert board.adjacent(alaska, kamchatka)
    assert board.edge_kind(alaska, kamchatka) == "sea"
    assert board.edge_kind(kamchatka, alaska) == "sea"


def test_gap_01_eighty_three_edges_connected(board: Board) -> None:
    """GAP-01: 83 undirected pairs; every territory reachable; non-neighbours have no kind."""
    assert len(board.file.edges) == 83
    assert sum(len(n) for n in board.neighbours) == 2 * 83
    reached, frontier = {0}, [0]
    while frontier:
        for j in board.neighbours[frontier.pop()]:
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    assert len(reached) == 42
    assert board.edge_kind(board.find("alaska"), board.find("brazil")) is None
    assert not board.adjacent(board.find("alaska"), board.find("brazil"))


def test_gap_01_rulebook_examples_hold(board: Board) -> None:
    """GAP-01 load-time facts from Appendix B (rulebook 003 on the same map)."""
    brazil = board.find("Brésil")
    assert ids(board, "venezuela", "peru", "argentina", "north_africa") == set(
        board.neighbours[brazil]
    )
    assert board.edge_kind(brazil, board.find("north_africa")) == "sea"
    assert board.edge_kind(brazil, board.find("peru")) == "border"
    assert board.edge_kind(board.find("siam"), board.find("indonesia")) == "sea"
    chain = [board.find(n) for n in ("indonesia", "siam", "india", "afghanistan", "ukraine")]
    assert all(board.adjacent(a, b) for a, b in zip(chain, chain[1:], strict=False))
    egypt = board.find("Égypte")
    assert board.adjacent(egypt, board.find("north_africa"))
    assert board.adjacent(egypt, board.find("east_africa"))
    oceania = board.group_members[board.group_index["australia"]]
    assert set(oceania) == ids(
        board, "new_guinea", "indonesia", "eastern_australia", "western_australia"
    )


def test_gap_01_positions_fit_the_diagram(board: Board) -> None:
    """GAP-01: every territory has a distinct position on the 1000 x 600 diagram."""
    positions = [t.pos for t in board.territories]
    assert len(set(positions)) == 42
    assert all(0 <= x <= 1000 and 0 <= y <= 600 for x, y in positions)
    # West to east: the Americas, then Europe/Africa, then Asia/Oceania.
    assert (
        territory_x(board, "alaska") < territory_x(board, "iceland") < territory_x(board, "japan")
    )


def territory_x(board: Board, name: str) -> int:
    return board.territories[board.find(name)].pos[0]


def test_gap_02_forty_two_cards_and_two_jokers(board: Board) -> None:
    """GAP-02 / CL-01: card id i shows territory i; ids 42 and 43 are the jokers; 14/14/14."""
    assert board.jokers == 2
    assert len(board.card_symbols) == 44
    assert board.card_symbols[42:] == ("joker", "joker")
    assert all(board.card_symbols[i] == t.card for i, t in enumerate(board.territories))
    assert Counter(board.card_symbols[:42]) == {"infantry": 14, "cavalry": 14, "artillery": 14}


def test_gap_03_fourteen_missions(board: Board) -> None:
    """GAP-03: the traditional French objective deck."""
    by_id = {m.id: m for m in board.missions}
    assert len(board.missions) == len(by_id) == 14
    pairs = {frozenset(m.groups) for m in board.missions if len(m.groups) == 2}
    assert pairs == {
        frozenset({"north_america", "africa"}),
        frozenset({"north_america", "australia"}),
        frozenset({"asia", "south_america"}),
        frozenset({"asia", "africa"}),
        frozenset({"europe", "south_america"}),
        frozenset({"europe", "australia"}),
    }
    with_extra = {frozenset(m.groups) for m in board.missions if m.extra_groups == 1}
    assert with_extra == {
        frozenset({"europe", "south_america"}),
        frozenset({"europe", "australia"}),
    }
    counts = {(m.territories, m.min_armies) for m in board.missions if m.territories}
    assert counts == {(24, 1), (18, 2)}
    destroys = [m for m in board.missions if m.destroy is not None]
    assert sorted(m.destroy or "" for m in destroys) == sorted(MISSION_COLOURS)
    assert all(m.fallback_territories == 24 and not m.groups for m in destroys)
    assert all(m.text_en and m.text_fr for m in board.missions)


def test_provenance_is_recorded(board: Board) -> None:
    """GAP-01..03 ask that unverified data be flagged as such: the sources on the board, the
    doubts on the items they concern (GAP-01 Irkutsk's French name, GAP-02 card symbols, GAP-03
    objective cards)."""
    prov = board.file.provenance
    assert {"S1", "S3", "S7", "S8"} <= {s.id for s in prov.sources}
    assert prov.verified and prov.reconstructed
    irkutsk = board.territories[board.find("irkutsk")]
    assert not irkutsk.verified and "Tchita" in irkutsk.note and "Irkoutsk" in irkutsk.note
    assert all(not t.card_verified and "GAP-02" in t.card_note for t in board.territories)
    assert all(not m.verified and "GAP-03" in m.note for m in board.missions)


def test_gap_01_adjacency_verified_doubtful_kinds_marked(board: Board) -> None:
    """GAP-01: the 83 pairs agree across sources; only the kinds the reference calls probable
    or unknown are unverified, each saying so."""
    doubtful = {(e.a, e.b) for e in board.edges if not e.verified}
    assert doubtful == {
        ("east_africa", "middle_east"),
        ("egypt", "southern_europe"),
        ("north_africa", "southern_europe"),
        ("north_africa", "western_europe"),
        ("northern_europe", "scandinavia"),
    }
    assert all("Adjacency verified" in e.note for e in board.edges if not e.verified)
    alaska_kamchatka = next(e for e in board.edges if {e.a, e.b} == {"alaska", "kamchatka"})
    assert alaska_kamchatka.verified and "R004 l.111" in alaska_kamchatka.note


# --- Loading -----------------------------------------------------------------------------------


def test_board_names_and_cache() -> None:
    assert "classic" in board_names()
    assert load_board("classic") is load_board("classic")


def test_unknown_board_suggests() -> None:
    with pytest.raises(BoardError) as err:
        load_board("clasic")
    assert err.value.code == "unknown_board"
    assert "'classic'" in err.value.message


def test_board_dir_without_missions(tmp_path: Path) -> None:
    shutil.copy(CLASSIC_DIR / "board.json", tmp_path / "board.json")
    board = load_board_dir(tmp_path)
    assert board.missions == ()
    assert board.content_hash != load_board("classic").content_hash


def test_board_dir_without_board_json(tmp_path: Path) -> None:
    with pytest.raises(BoardError) as err:
        load_board_dir(tmp_path)
    assert err.value.code == "unknown_board"


def test_board_built_in_code_gets_a_hash(board: Board) -> None:
    rebuilt = Board(board.file, board.missions)
    assert rebuilt.content_hash.startswith("sha256:")
    assert rebuilt.index == board.index


# --- content_hash ------------------------------------------------------------------------------


def test_content_hash_is_stable_and_sensitive() -> None:
    """Any edit of the data, even one byte, changes the hash recorded with a game."""
    base = decode_board(RAW_BOARD, RAW_MISSIONS).content_hash
    assert base.startswith("sha256:") and len(base) == len("sha256:") + 64
    assert decode_board(RAW_BOARD, RAW_MISSIONS).content_hash == base
    assert load_board("classic").content_hash == base
    edited_board = RAW_BOARD.replace(b'"bonus": 7', b'"bonus": 8')
    assert edited_board != RAW_BOARD
    assert decode_board(edited_board, RAW_MISSIONS).content_hash != base
    whitespace = RAW_BOARD + b" "
    assert decode_board(whitespace, RAW_MISSIONS).content_hash != base
    edited_missions = RAW_MISSIONS.replace(b"24 territories", b"24 territories!", 1)
    assert decode_board(RAW_BOARD, edited_missions).content_hash != base
    assert decode_board(RAW_BOARD).content_hash != base


# --- Name lookup -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("north_africa", "north_africa"),
        ("north-africa", "north_africa"),
        ("North Africa", "north_africa"),
        ("Afrique du Nord", "north_africa"),
        ("AFRIQUE DU NORD", "north_africa"),
        ("Égypte", "egypt"),
        ("Egypte", "egypt"),
        ("État de l'Ouest", "western_united_states"),
        ("etat de l ouest", "western_united_states"),
        ("Tchita", "irkutsk"),
        ("Irkoutsk", "irkutsk"),
        ("Eastern Canada", "quebec"),
        ("Russie", "ukraine"),
        ("Nouvelle-Guinée", "new_guinea"),
        ("  kamchatka ", "kamchatka"),
    ],
)
def test_find_by_any_name(board: Board, name: str, expected: str) -> None:
    assert board.territories[board.find(name)].id == expected


def test_find_suggests_on_typo(board: Board) -> None:
    with pytest.raises(BoardError) as err:
        board.find("braizl")
    assert err.value.code == "unknown_territory"
    assert err.value.message == "Unknown territory 'braizl'. Did you mean 'brazil'?"


def test_find_without_suggestion(board: Board) -> None:
    with pytest.raises(BoardError) as err:
        board.find("xyzzy")
    assert str(err.value) == "Unknown territory 'xyzzy'."


def test_name_is_english(board: Board) -> None:
    assert board.name(board.find("Tchita")) == "Irkutsk"


# --- Validation codes --------------------------------------------------------------------------

Mutation = Callable[[Json], None]


def _duplicate_territory(d: Json) -> None:
    d["territories"].append(copy.deepcopy(d["territories"][0]))


def _duplicate_group(d: Json) -> None:
    d["groups"].append(copy.deepcopy(d["groups"][0]))


def _unknown_group(d: Json) -> None:
    territory(d, "alaska")["group"] = "antarctica"


def _size_mismatch(d: Json) -> None:
    d["groups"][0]["size"] = 10


def _empty_group(d: Json) -> None:
    d["groups"].append(
        {
            "id": "antarctica",
            "name_en": "Antarctica",
            "name_fr": "Antarctique",
            "bonus": 1,
            "size": 0,
        }
    )


def _edge_to_nowhere(d: Json) -> None:
    d["edges"].append(["alaska", "atlantis", "sea"])


def _self_edge(d: Json) -> None:
    d["edges"].append(["alaska", "alaska", "border"])


def _reversed_edge(d: Json) -> None:
    d["edges"].append(["kamchatka", "alaska", "border"])


def _isolate_madagascar(d: Json) -> None:
    d["edges"] = [e for e in d["edges"] if "madagascar" not in (e["a"], e["b"])]


def _negative_jokers(d: Json) -> None:
    d["jokers"] = -1


def _shared_alias(d: Json) -> None:
    territory(d, "alaska")["aliases"] = ["Kamtchatka"]


def _unknown_field(d: Json) -> None:
    d["territories"][0]["capital"] = True


def _bad_symbol(d: Json) -> None:
    d["territories"][0]["card"] = "cannon"


def _bad_edge_kind(d: Json) -> None:
    d["edges"][0]["kind"] = "tunnel"


def _no_territories(d: Json) -> None:
    d["territories"], d["edges"] = [], []
    for g in d["groups"]:
        g["size"] = 0


@pytest.mark.parametrize(
    ("mutate", "code", "named"),
    [
        (_duplicate_territory, "duplicate_territory", "alaska"),
        (_duplicate_group, "duplicate_group", "north_america"),
        (_unknown_group, "unknown_group", "antarctica"),
        (_size_mismatch, "group_size_mismatch", "north_america"),
        (_empty_group, "empty_group", "antarctica"),
        (_edge_to_nowhere, "unknown_territory", "atlantis"),
        (_self_edge, "self_edge", "alaska"),
        (_reversed_edge, "duplicate_edge", "kamchatka–alaska"),
        (_isolate_madagascar, "disconnected", "madagascar"),
        (_negative_jokers, "bad_jokers", "-1"),
        (_shared_alias, "ambiguous_name", "kamchatka"),
        (_unknown_field, "malformed_board", "capital"),
        (_bad_symbol, "malformed_board", "card"),
        (_bad_edge_kind, "malformed_board", "edges"),
        (_no_territories, "malformed_board", "no territories"),
    ],
)
def test_board_validation_codes(mutate: Mutation, code: str, named: str) -> None:
    data = classic_json()
    mutate(data)
    with pytest.raises(BoardError) as err:
        decode_board(encode(data))
    assert err.value.code == code
    assert named in err.value.message


def test_malformed_board_json() -> None:
    with pytest.raises(BoardError) as err:
        decode_board(b"{not json")
    assert err.value.code == "malformed_board"
    assert err.value.message.startswith("board.json: ")


def _mission_unknown_group(d: Json) -> None:
    d["missions"][0]["groups"] = ["north_america", "atlantis"]


def _mission_unknown_colour(d: Json) -> None:
    d["missions"][-1]["destroy"] = "pink"


def _mission_unknown_field(d: Json) -> None:
    d["missions"][0]["reward"] = 3


def _mission_duplicate_id(d: Json) -> None:
    d["missions"].append(copy.deepcopy(d["missions"][0]))


def _mission_too_many_groups(d: Json) -> None:
    d["missions"][0]["extra_groups"] = 5


def _mission_zero_armies(d: Json) -> None:
    d["missions"][0]["min_armies"] = 0


@pytest.mark.parametrize(
    ("mutate", "code", "named"),
    [
        (_mission_unknown_group, "unknown_group", "atlantis"),
        (_mission_unknown_colour, "unknown_colour", "pink"),
        (_mission_unknown_field, "malformed_missions", "reward"),
        (_mission_duplicate_id, "malformed_missions", "na_africa"),
        (_mission_too_many_groups, "malformed_missions", "na_africa"),
        (_mission_zero_armies, "malformed_missions", "na_africa"),
    ],
)
def test_mission_validation_codes(mutate: Mutation, code: str, named: str) -> None:
    data = missions_json()
    mutate(data)
    with pytest.raises(BoardError) as err:
        decode_board(RAW_BOARD, encode(data))
    assert err.value.code == code
    assert named in err.value.message


def test_board_error_is_a_value_error() -> None:
    err = BoardError("bad_jokers", "Board 'x' has -1 jokers")
    assert isinstance(err, ValueError)
    assert (err.code, err.message, str(err)) == (
        "bad_jokers",
        "Board 'x' has -1 jokers",
        err.message,
    )
