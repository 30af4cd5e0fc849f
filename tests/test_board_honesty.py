"""Honest board data: every recorded fact says whether it is verified, and why not (CORE-01).

Edges, territories (name and group), card symbols, group and route bonuses, sea zones and
missions carry ``verified`` and a ``note``; the board checker refuses an unverified item
without a note (``unexplained_fact``), ``unverified_facts`` lists them and the command line
shows them.  Gaps: GAP-01..03 (classic board, card symbols, objective cards), GAP-04/05/07/08/09
(Napoleon board, empire bonuses, card symbols, missions, sea zones).
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from boards import BOARDS_DIR
from risk_cli.main import cli
from risk_core.board import (
    FACT_KINDS,
    BoardError,
    decode_board,
    fact_counts,
    load_board,
    unverified_facts,
)

Json = dict[str, Any]
SEEDS = BOARDS_DIR.parent.parent / "shared" / "seeds"


def files(name: str) -> tuple[Json, Json]:
    folder = BOARDS_DIR / name
    return (
        json.loads((folder / "board.json").read_bytes()),
        json.loads((folder / "missions.json").read_bytes()),
    )


def decode(board: Json, missions: Json) -> Any:
    encode = json.dumps
    return decode_board(encode(board).encode(), encode(missions).encode())


def by_id(items: list[Json], item_id: str) -> Json:
    found: Json = next(x for x in items if x["id"] == item_id)
    return found


def unexplained(board: Json, missions: Json) -> str:
    """The message of the ``unexplained_fact`` error the data must raise."""
    with pytest.raises(BoardError) as err:
        decode(board, missions)
    assert err.value.code == "unexplained_fact"
    return err.value.message


# --- The checker -------------------------------------------------------------------------------


def _edge(b: Json, m: Json) -> str:
    b["edges"][0] = {"a": "galicie", "b": "moldavie_valachie", "kind": "border", "verified": False}
    return "edges[0] (galicie–moldavie_valachie)"


def _territory(b: Json, m: Json) -> str:
    del by_id(b["territories"], "hongrie")["note"]
    return "territories.hongrie"


def _card(b: Json, m: Json) -> str:
    by_id(b["territories"], "egypte")["card_note"] = "   "
    return "territories.egypte.card"


def _bonus(b: Json, m: Json) -> str:
    del by_id(b["groups"], "royaume_uni")["bonus_note"]
    return "groups.royaume_uni.bonus"


def _sea_zone(b: Json, m: Json) -> str:
    by_id(b["sea_zones"], "mer_noire")["note"] = ""
    return "sea_zones.mer_noire"


def _route(b: Json, m: Json) -> str:
    del by_id(b["routes"], "indes")["bonus_note"]
    return "routes.indes.bonus"


def _mission(b: Json, m: Json) -> str:
    del by_id(m["missions"], "empereur_elimination")["note"]
    return "missions.empereur_elimination"


@pytest.mark.parametrize("mutate", [_edge, _territory, _card, _bonus, _sea_zone, _route, _mission])
def test_checker_refuses_an_unverified_item_without_a_note(
    mutate: Callable[[Json, Json], str],
) -> None:
    """CORE-01: every kind of item the board records (GAP-04 edges and territories, GAP-07
    cards, GAP-05 bonuses, GAP-09 sea zones and routes, GAP-08 missions) must say why it is
    unverified; an empty or blank note is refused, naming the item."""
    board, missions = files("napoleon")
    where = mutate(board, missions)
    assert unexplained(board, missions) == f"Unverified {where} has no note saying why"


def test_checker_refuses_unexplained_classic_items() -> None:
    """GAP-01..03: the classic board's territories, card symbols and objectives likewise."""
    board, missions = files("classic")
    by_id(board["territories"], "irkutsk")["note"] = ""
    assert "territories.irkutsk" in unexplained(board, missions)
    board, missions = files("classic")
    by_id(missions["missions"], "destroy_red")["note"] = ""
    assert "missions.destroy_red" in unexplained(board, missions)


def test_a_verified_item_needs_no_note_and_the_short_edge_form_is_verified() -> None:
    """CORE-01: ``[a, b, kind]`` still reads as a verified edge, beside object edges."""
    board, missions = files("classic")
    first = board["edges"][0]
    board["edges"][0] = [first["a"], first["b"], first["kind"]]
    decoded = decode(board, missions)
    assert decoded.edges[0].verified and decoded.edges[0].note == ""
    assert decoded.edge_kind(decoded.index[first["a"]], decoded.index[first["b"]]) == "border"


def test_a_correction_is_a_one_field_edit() -> None:
    """GAP-04: once an edge is read off the board, flipping ``verified`` is the whole edit;
    the content hash (recorded in each game's first event) changes with it."""
    board, missions = files("napoleon")
    before = decode(board, missions)
    edge = next(e for e in board["edges"] if (e["a"], e["b"]) == ("angleterre", "ecosse"))
    edge["verified"] = True
    after = decode(board, missions)
    assert fact_counts(after)["edge"] == (fact_counts(before)["edge"][0] - 1, 99)
    assert after.content_hash != before.content_hash


# --- The counts match the data -----------------------------------------------------------------


def raw_counts(board: Json, missions: Json) -> dict[str, tuple[int, int]]:
    """Kind -> (unverified, recorded), counted straight from the JSON files."""

    def count(items: list[Any], flag: str = "verified") -> tuple[int, int]:
        return sum(isinstance(x, dict) and x.get(flag) is False for x in items), len(items)

    prov = [board["provenance"], missions["provenance"]]
    notes = sum(len(p.get("unverified", [])) + len(p.get("reconstructed", [])) for p in prov)
    found = {
        "board": (notes, notes),
        "territory": count(board["territories"]),
        "card": count(board["territories"], "card_verified"),
        "edge": count(board["edges"]),
        "bonus": count(board["groups"], "bonus_verified"),
        "sea_zone": count(board.get("sea_zones", [])),
        "route": count(board.get("routes", []), "bonus_verified"),
        "mission": count(missions["missions"]),
    }
    return {k: v for k, v in found.items() if v[1]}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "classic",
            {
                "board": (5, 5),
                "territory": (1, 42),
                "card": (42, 42),
                "edge": (5, 83),
                "bonus": (0, 6),
                "mission": (14, 14),
            },
        ),
        (
            "napoleon",
            {
                "board": (6, 6),
                "territory": (37, 48),
                "card": (48, 48),
                "edge": (87, 99),
                "bonus": (11, 11),
                "sea_zone": (8, 8),
                "route": (1, 2),
                "mission": (32, 32),
            },
        ),
    ],
)
def test_unverified_counts_match_the_data(name: str, expected: dict[str, tuple[int, int]]) -> None:
    """CORE-01 / GAP-01..05, GAP-07..09: ``fact_counts`` and ``unverified_facts`` agree with the
    flags in the files, kind by kind, and every unverified item is listed once with its note."""
    board = load_board(name)
    assert fact_counts(board) == raw_counts(*files(name)) == expected
    facts = unverified_facts(board)
    assert Counter(f.kind for f in facts) == {k: u for k, (u, _) in expected.items() if u}
    items = [f.where for f in facts if f.kind != "board"]
    assert len(set(items)) == len(items)
    assert all(f.note.strip() for f in facts)
    assert [f.kind for f in facts] == sorted((f.kind for f in facts), key=FACT_KINDS.index)


@pytest.mark.parametrize("name", ["classic", "napoleon"])
def test_every_unverified_item_names_its_gap_or_source(name: str) -> None:
    """GAP-nn: an item's note carries the reasoning, citing the gap or the sources it rests on."""
    cited = re.compile(r"GAP-\d\d|\bR00\d\b|\bS\d+\b|\bHIST\b")
    for fact in unverified_facts(load_board(name)):
        if fact.kind != "board":
            assert cited.search(fact.note), fact


# --- The data fix: Angleterre–Île de France ----------------------------------------------------


def test_nap_02_england_ile_de_france_border_as_rulebook_line_88_says() -> None:
    """NAP-02 / GAP-04: rulebook 000 l.88 gives Angleterre–Île de France as adjacent
    territories, apart from the pairs joined by a sea line; the edge is a verified border."""
    board = load_board("napoleon")
    edge = next(e for e in board.edges if (e.a, e.b) == ("angleterre", "ile_de_france"))
    assert (edge.kind, edge.verified) == ("border", True) and "R000 l.88" in edge.note
    seed = next(SEEDS.glob("000_*.txt"), None)
    if seed is None:
        pytest.skip("rulebook text not available")
    line = seed.read_text(encoding="utf-8").splitlines()[87]
    adjacent, _, by_sea = line.partition("ou entre deux territoires reliés par une ligne maritime")
    assert 'l\'"Angleterre" et l\'"Île de France"' in adjacent and "Nerd Picardie" in by_sea


# --- The command line --------------------------------------------------------------------------


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_boards_show_marks_unverified_items_and_lists_them() -> None:
    """CORE-01: `risk boards show` marks unverified territories and bonuses with an asterisk,
    explains the mark, then lists every unverified fact with its note, by kind."""
    lines = invoke("boards", "show", "napoleon").stdout.splitlines()
    assert "  North Africa (bonus 2*): Morocco, Fez & Barbary States*, Tunis & Tripoli*, Egypt" in (
        lines
    )
    assert "  United Kingdom (bonus 2*): England, Scotland*, Ireland*" in lines
    assert lines[lines.index("  United Kingdom (bonus 2*): England, Scotland*, Ireland*") + 2] == (
        "  * not verified against a rulebook or the board: reconstructed or a placeholder"
    )
    for line in (
        "  edges (87):",
        "  territories (37):",
        "  card symbols (48):",
        "  group bonuses (11):",
        "  sea zones (8):",
        "  route bonuses (1):",
        "  missions (32):",
    ):
        assert line in lines
    assert any(
        line.startswith("    edges[13] (finlande–royaume_de_suede): R000 l.622") for line in lines
    )
    classic = invoke("boards", "show", "classic").stdout
    assert "Asia (bonus 7): Ural, Siberia, Yakutsk, Irkutsk*, Kamchatka" in classic
    assert "South America (bonus 2): Venezuela, Peru, Brazil, Argentina\n" in classic


def test_boards_check_lists_the_unverified_facts(tmp_path: Path) -> None:
    """`risk boards check PATH` lists them too, text and JSON; an unexplained one fails."""
    folder = tmp_path / "napoleon"
    shutil.copytree(BOARDS_DIR / "napoleon", folder)
    text = invoke("boards", "check", str(folder)).stdout
    assert text.startswith("OK: napoleon v1")
    assert "  Board napoleon: 224 of 248 recorded facts are reconstructed or unverified (" in text
    assert "  edges (87):" in text
    report = json.loads(invoke("boards", "check", str(folder), "--json").stdout)
    assert len(report["unverified"]) == 224 + 6
    assert report["facts"]["edge"] == {"unverified": 87, "recorded": 99}
    data = json.loads((folder / "board.json").read_text())
    del data["edges"][20]["note"]
    (folder / "board.json").write_text(json.dumps(data, ensure_ascii=False))
    failed = CliRunner().invoke(cli, ["boards", "check", str(folder)])
    assert failed.exit_code == 1 and failed.stderr.endswith("[unexplained_fact]\n")


def test_rules_says_how_much_of_its_board_is_reconstructed() -> None:
    """`risk rules NAME` ends with the count of its board's unverified facts (GAP-nn)."""
    text = invoke("rules", "napoleon").stdout
    assert text.splitlines()[-1] == (
        "  Board napoleon: 224 of 248 recorded facts are reconstructed or unverified "
        "(territories 37/48, card symbols 48/48, edges 87/99, group bonuses 11/11, sea zones "
        "8/8, route bonuses 1/2, missions 32/32), plus 6 board-wide notes; see `risk boards "
        "show napoleon`."
    )
    info = json.loads(invoke("rules", "classic", "--json").stdout)
    assert info["board_facts"]["card"] == {"unverified": 42, "recorded": 42}


def test_new_game_says_its_board_is_partly_reconstructed(
    risk: Callable[..., Result],
) -> None:
    """The opening of a game on a board with reconstructed facts says so in one line."""
    text = risk("new", "--players", "Ann,Bob,Cy", "--rules", "napoleon", "--seed", "3").stdout
    lines = text.splitlines()
    assert lines[0].startswith("Created game ")
    assert lines[1] == (
        "Board napoleon: 224 of 248 recorded facts are reconstructed or unverified; "
        "see `risk boards show napoleon`."
    )
    created = json.loads(risk("new", "--players", "A,B,C", "--json").stdout)
    assert "board_facts" not in created  # the JSON of `new` is unchanged
