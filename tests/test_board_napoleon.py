"""The Napoleon board (Europe in 1811) and its mission deck against rulebooks 000/001.

Rule ids: NAP-01/02 (board, connections), NAP-CAP-01 (capitals), NAP-ADV-02 (sea zones and
routes), NAP-MIS-02 (mission ranks); gaps GAP-04 (board), GAP-05 (empire bonuses), GAP-07 (card
symbols), GAP-08 (mission texts), GAP-09 (sea zones).  Line numbers cite rulebook 000.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from boards import BOARDS_DIR
from risk_core.board import (
    MISSION_RANKS,
    Board,
    BoardError,
    board_names,
    decode_board,
    load_board,
)

NAPOLEON_DIR = BOARDS_DIR / "napoleon"
RAW_BOARD = (NAPOLEON_DIR / "board.json").read_bytes()
RAW_MISSIONS = (NAPOLEON_DIR / "missions.json").read_bytes()

Json = dict[str, Any]
Mutation = Callable[[Json], None]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("napoleon")


def board_json() -> Json:
    data: Json = json.loads(RAW_BOARD)
    return data


def missions_json() -> Json:
    data: Json = json.loads(RAW_MISSIONS)
    return data


def encode(data: Json) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def by_id(items: list[Json], item_id: str) -> Json:
    found: Json = next(x for x in items if x["id"] == item_id)
    return found


def chain_holds(board: Board, *names: str) -> bool:
    steps = [board.find(n) for n in names]
    return all(board.adjacent(a, b) for a, b in zip(steps, steps[1:], strict=False))


def group_of(board: Board, name: str) -> str:
    return board.territories[board.find(name)].group


# --- NAP-01 / GAP-04: territories and empires --------------------------------------------------


def test_nap_01_forty_eight_territories_in_eleven_empires(board: Board) -> None:
    """NAP-01 / GAP-04: 48 territories; empire sizes as printed in 000 l.71-82."""
    assert len(board.territories) == 48
    sizes = {g.name_fr: len(board.group_members[k]) for k, g in enumerate(board.groups)}
    assert sizes == {
        "Afrique du Nord": 3,
        "Confédération du Rhin et Helvétique": 3,
        "Empire d'Autriche": 4,
        "Empire Français": 9,
        "Royaumes de Prusse": 3,
        "Empire de Russie": 7,
        "Empire Ottoman": 5,
        "Péninsule Ibérique": 4,
        "Protectorats Italiens": 3,
        "Royaume-Uni": 3,
        "Royaumes de Scandinavie": 4,
    }
    assert all(g.size == len(m) for g, m in zip(board.groups, board.group_members, strict=True))


def test_gap_04_ids_are_snake_case_and_names_bilingual(board: Board) -> None:
    """GAP-04: snake_case ids from the French names; every territory has FR and EN names."""
    for t in board.territories:
        assert t.id == t.id.lower() and " " not in t.id and t.id.isascii()
        assert t.name_fr and t.name_en
    assert board.find("ile_de_france") == board.find("Île de France")
    assert board.find("moldavie_valachie") == board.find("Moldavie & Valachie")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Asie Mineure", "anatolie"),  # 000 l.88
        ("provinces Baltique", "provinces_baltiques"),  # 000 l.622
        ("Pays Austro-Hongrois", "pays_austro_bohemiens"),  # 000 l.1181, misprint
        ("Austria/Bohemia", "pays_austro_bohemiens"),  # 001 l.410
        ("central France", "ile_de_france"),  # 001 l.412
        ("Great Russia", "grande_russie"),
        ("Bulgaria/Greece/Macedonia", "bulgarie_grece_macedoine"),
        ("ILE DE FRANCE", "ile_de_france"),
    ],
)
def test_gap_04_rulebook_and_ocr_names_resolve(board: Board, name: str, expected: str) -> None:
    """GAP-04: variants and English renderings of the rulebooks find their territory (issue 13:
    the OCR garbles are no longer names, tests/test_names.py)."""
    assert board.territories[board.find(name)].id == expected


def test_gap_04_rulebook_territories_sit_in_their_empires(board: Board) -> None:
    """GAP-04: names the rulebooks place (capitals table, campaign) are in the right empire."""
    assert group_of(board, "Prusse") == "royaumes_de_prusse"  # 000 l.1184
    assert group_of(board, "Russie Occidentale") == "empire_de_russie"  # 000 l.604
    assert group_of(board, "Aquitaine") == "empire_francais"  # 000 l.997
    ottoman = {board.territories[i].id for i in board.group_members[6]}
    assert board.groups[6].id == "empire_ottoman"
    assert ottoman == {
        "bulgarie_grece_macedoine",
        "moldavie_valachie",
        "bosnie_serbie_albanie",
        "anatolie",
        "syrie",
    }


# --- NAP-CAP-01 / GAP-05: capitals and empire bonuses ------------------------------------------


CAPITALS = {  # empire (FR) -> (capital as printed in 000 l.1075-1085, capital bonus)
    "Afrique du Nord": ("Égypte", 1),
    "Confédération du Rhin et Helvétique": ("Confédération helvétique", 1),
    "Empire d'Autriche": ("Pays Austro-bohémiens", 2),
    "Empire Français": ("Île de France", 4),
    "Royaumes de Prusse": ("Poméranie, Brandebourg, Silésie", 1),
    "Empire de Russie": ("Grande Russie", 3),
    "Empire Ottoman": ("Bulgarie, Grèce & Macédoine", 2),
    "Péninsule Ibérique": ("Castille", 2),
    "Protectorats Italiens": ("Royaume d'Italie", 1),
    "Royaume-Uni": ("Angleterre", 1),
    "Royaumes de Scandinavie": ("Royaume de Suède", 2),
}


def test_nap_cap_01_every_capital_in_its_empire(board: Board) -> None:
    """NAP-CAP-01: each empire's capital and capital bonus, as in the capitals table."""
    assert len(board.capitals) == 11
    for k, g in enumerate(board.groups):
        capital_name, bonus = CAPITALS[g.name_fr]
        i = board.find(capital_name)
        assert board.capitals[g.id] == i
        assert g.capital == board.territories[i].id
        assert board.territories[i].name_fr == capital_name
        assert i in board.group_members[k]
        assert g.capital_bonus == bonus


def test_gap_05_empire_bonuses_are_unverified_placeholders(board: Board) -> None:
    """GAP-05: bonuses are not printed in our texts: 2 x capital bonus, flagged unverified."""
    for g in board.groups:
        assert g.bonus_verified is False
        assert g.capital_bonus is not None
        assert g.bonus == 2 * g.capital_bonus
        # DEC-31: the capital bonus never beats holding the whole empire.
        assert g.bonus > g.capital_bonus
        assert "GAP-05" in g.bonus_note and f"capital bonus ({g.capital_bonus}," in g.bonus_note


def test_gap_05_a_board_file_edit_corrects_a_bonus() -> None:
    """GAP-05: correcting a bonus is a data edit only."""
    data = board_json()
    france = by_id(data["groups"], "empire_francais")
    france["bonus"], france["bonus_verified"] = 7, True
    edited = decode_board(encode(data), RAW_MISSIONS)
    group = edited.groups[edited.group_index["empire_francais"]]
    assert (group.bonus, group.bonus_verified) == (7, True)


# --- NAP-02 / GAP-04: connections --------------------------------------------------------------


def test_nap_02_rulebook_adjacent_pairs(board: Board) -> None:
    """NAP-02: Galicie–Moldavie & Valachie and Angleterre–Île de France (000 l.88)."""
    assert chain_holds(board, "Galicie", "Moldavie & Valachie")
    assert board.edge_kind(board.find("Galicie"), board.find("Moldavie & Valachie")) == "border"
    assert chain_holds(board, "Angleterre", "Île de France")


def test_nap_02_england_ile_de_france_is_a_border() -> None:
    """NAP-02 / GAP-04: 000 l.88 names Angleterre and Île de France among the adjacent pairs,
    apart from the pairs "reliés par une ligne maritime": a border, verified, the line cited."""
    board = load_board("napoleon")
    england, paris = board.find("Angleterre"), board.find("Île de France")
    assert board.edge_kind(england, paris) == board.edge_kind(paris, england) == "border"
    edge = next(e for e in board.edges if {e.a, e.b} == {"angleterre", "ile_de_france"})
    assert edge.verified and "l.88" in edge.note and "ligne maritime" in edge.note


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Angleterre", "Nord-Picardie"),  # 000 l.88, l.288
        ("Andalousie", "Maroc, Fès et États barbaresques"),  # 000 l.88
        ("Bulgarie, Grèce & Macédoine", "Asie Mineure"),  # 000 l.88
    ],
)
def test_nap_02_rulebook_sea_lines(board: Board, a: str, b: str) -> None:
    """NAP-02: the maritime lines drawn on the rulebook diagram (000 l.88)."""
    assert board.edge_kind(board.find(a), board.find(b)) == "sea"


def test_gap_04_bulgaria_neighbours(board: Board) -> None:
    """GAP-04 / Appendix B: BGM adjacent to Moldavie & Valachie and to Anatolie (000 l.359)."""
    bgm = board.find("Bulgarie, Grèce & Macédoine")
    assert board.adjacent(bgm, board.find("Moldavie & Valachie"))  # "Mithridates & Molochia"
    assert board.adjacent(bgm, board.find("Anatolie"))


def test_gap_04_path_egypt_to_wurtemberg_bavaria(board: Board) -> None:
    """GAP-04 / Appendix B: the strategic-maneuver path of 000 l.389, step by step."""
    assert chain_holds(
        board,
        "Égypte",
        "Syrie",
        "Anatolie",
        "Bulgarie, Grèce & Macédoine",
        "Bosnie, Serbie & Albanie",
        "Provinces Illyriennes",  # printed "Principautés Sérviques"
        "Royaumes de Wurtemberg & Bavière",
    )


def test_gap_04_path_prussia_to_denmark(board: Board) -> None:
    """GAP-04 / Appendix B: the team maneuver path of 000 l.622, step by step."""
    assert chain_holds(
        board,
        "Prusse",
        "Provinces Baltiques",
        "Finlande",
        "Royaume de Suède",
        "Royaume du Danemark",
    )


def test_gap_04_graph_is_connected_and_symmetric(board: Board) -> None:
    """GAP-04: 99 edges (15 stated by the rulebook), symmetric, one connected board."""
    assert len(board.file.edges) == 99
    assert sum(len(n) for n in board.neighbours) == 2 * 99
    for i, neighbours in enumerate(board.neighbours):
        assert neighbours, board.territories[i].id
        assert all(board.adjacent(j, i) for j in neighbours)
    reached, frontier = {0}, [0]
    while frontier:
        for j in board.neighbours[frontier.pop()]:
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    assert len(reached) == 48
    assert not board.adjacent(board.find("Andalousie"), board.find("Égypte"))


def test_gap_04_positions_fit_a_map_of_europe(board: Board) -> None:
    """GAP-04: distinct diagram positions on the 1000 x 600 map, x east and y south."""
    positions = [t.pos for t in board.territories]
    assert len(set(positions)) == 48
    assert all(0 <= x <= 1000 and 0 <= y <= 600 for x, y in positions)

    def pos(name: str) -> tuple[int, int]:
        return board.territories[board.find(name)].pos

    assert pos("Irlande")[0] < pos("Île de France")[0] < pos("Grande Russie")[0]
    assert pos("Finlande")[1] < pos("Prusse")[1] < pos("Égypte")[1]


def test_gap_04_provenance_separates_rulebook_and_reconstruction(board: Board) -> None:
    """GAP-04: each territory and edge says whether the rulebook attests it, citing the line,
    or how it was reconstructed; the sources stay on the board."""
    assert {"R000", "R001", "HIST"} <= {s.id for s in board.file.provenance.sources}
    notes = " ".join(t.note for t in board.territories) + " ".join(e.note for e in board.edges)
    for cite in ("l.88", "l.288", "l.359", "l.389", "l.604", "l.622", "l.975", "l.997"):
        assert cite in notes
    assert "Asie Mineure" in notes and "Principautés Sérviques" in notes
    assert all(t.note for t in board.territories) and all(e.note for e in board.edges)
    # The 21 names the rulebooks do not print come from the 1811 map; the 16 printed names
    # outside the capitals table have an inferred empire; only the 11 capitals are verified.
    made_up = [t.id for t in board.territories if "Not in the rulebooks" in t.note]
    assert len(made_up) == 21 and "hongrie" in made_up and "laponie" in made_up
    assert sum(not t.verified for t in board.territories) == 37
    assert {board.territories[i].id for i in board.capitals.values()} == {
        t.id for t in board.territories if t.verified
    }
    # 12 of the 99 edges are the rulebook's, kind included; the 84 others come from the 1811 map
    # and 3 rulebook edges have a guessed kind.
    assert sum(e.verified for e in board.edges) == 12
    assert sum("Not in the rulebooks" in e.note for e in board.edges) == 84
    guessed = {(e.a, e.b) for e in board.edges if not e.verified and "l.622" in e.note}
    assert guessed == {
        ("provinces_baltiques", "finlande"),
        ("finlande", "royaume_de_suede"),
        ("royaume_de_suede", "royaume_du_danemark"),
    }


def test_gap_07_forty_eight_cards_and_two_jokers(board: Board) -> None:
    """GAP-07 / GAP-26: 48 territory cards (placeholder 16/16/16) and 2 jokers."""
    assert board.jokers == 2
    assert board.card_symbols[48:] == ("joker", "joker")
    assert Counter(board.card_symbols[:48]) == {"infantry": 16, "cavalry": 16, "artillery": 16}
    assert all(not t.card_verified and "GAP-07" in t.card_note for t in board.territories)


# --- NAP-ADV-02 / GAP-09: sea zones and routes -------------------------------------------------


def zone(board: Board, name_fr: str) -> str:
    return next(z.id for z in board.sea_zones if z.name_fr == name_fr)


def test_nap_adv_02_eight_zones_in_two_routes(board: Board) -> None:
    """NAP-ADV-02: 8 zones; Amériques (3 zones, bonus 2) and Indes (5 zones, GAP-09)."""
    assert len(board.sea_zones) == 8
    routes = {r.name_fr: r for r in board.routes}
    assert set(routes) == {"Route des Amériques", "Route des Indes"}
    names = {z.id: z.name_fr for z in board.sea_zones}
    ameriques, indes = routes["Route des Amériques"], routes["Route des Indes"]
    assert {names[z] for z in ameriques.zones} == {
        "Atlantique Ouest Européen",
        "Mer du Nord",
        "Mer Baltique",
    }
    assert {names[z] for z in indes.zones} == {
        "Atlantique Méridional",
        "Méditerranée Occidentale",
        "Méditerranée Adriatique",
        "Méditerranée Orientale",
        "Mer Noire",
    }
    assert ameriques.bonus == 2  # 000 l.700
    assert indes.bonus is None  # GAP-09
    for r in board.routes:
        assert all(next(z for z in board.sea_zones if z.id == zid).route == r.id for zid in r.zones)


def test_gap_09_zone_adjacency_is_symmetric_and_coasts_exist(board: Board) -> None:
    """GAP-09: zone adjacency listed on both sides; every zone touches land."""
    zones = {z.id: z for z in board.sea_zones}
    for z in board.sea_zones:
        assert z.coasts
        assert all(board.find(t) >= 0 for t in z.coasts)
        for other in z.zones:
            assert z.id in zones[other].zones


def test_gap_09_landing_example_of_l975(board: Board) -> None:
    """GAP-09 / NAP-ADV-36: Andalousie reaches Égypte through Occidentale–Adriatique–Orientale."""
    zones = {z.id: z for z in board.sea_zones}
    west = zone(board, "Méditerranée Occidentale")
    adriatic = zone(board, "Méditerranée Adriatique")
    east = zone(board, "Méditerranée Orientale")
    assert "andalousie" in zones[west].coasts
    assert "egypte" in zones[east].coasts
    assert adriatic in zones[west].zones and east in zones[adriatic].zones
    # The example needs all three zones: no shorter chain joins the two coasts.
    assert east not in zones[west].zones
    from_andalusia = {z.id for z in board.sea_zones if "andalousie" in z.coasts}
    to_egypt = {z.id for z in board.sea_zones if "egypte" in z.coasts}
    assert not from_andalusia & to_egypt
    assert not any(set(zones[z].zones) & to_egypt for z in from_andalusia)


def test_classic_board_has_no_napoleon_data() -> None:
    """The optional fields default to nothing, so the classic board loads unchanged."""
    classic = load_board("classic")
    assert classic.sea_zones == () and classic.routes == () and classic.capitals == {}
    assert all(g.capital is None and g.bonus_verified for g in classic.groups)
    assert all(m.rank is None and not m.hold for m in classic.missions)
    assert {"classic", "napoleon"} <= set(board_names())


# --- Validation codes of the new fields --------------------------------------------------------


def _capital_outside_empire(d: Json) -> None:
    by_id(d["groups"], "royaume_uni")["capital"] = "ile_de_france"


def _unknown_capital(d: Json) -> None:
    by_id(d["groups"], "royaume_uni")["capital"] = "londres"


def _capital_bonus_without_capital(d: Json) -> None:
    del by_id(d["groups"], "royaume_uni")["capital"]


def _negative_capital_bonus(d: Json) -> None:
    by_id(d["groups"], "royaume_uni")["capital_bonus"] = -1


def _unknown_adjacent_zone(d: Json) -> None:
    by_id(d["sea_zones"], "mer_noire")["zones"].append("mer_caspienne")


def _unknown_coast(d: Json) -> None:
    by_id(d["sea_zones"], "mer_noire")["coasts"].append("crimee")


def _asymmetric_zone(d: Json) -> None:
    by_id(d["sea_zones"], "mer_noire")["zones"].append("mer_baltique")


def _zone_in_wrong_route(d: Json) -> None:
    by_id(d["sea_zones"], "mer_noire")["route"] = "ameriques"


def _route_unknown_zone(d: Json) -> None:
    by_id(d["routes"], "indes")["zones"].append("ocean_indien")


def _zone_names_unknown_route(d: Json) -> None:
    by_id(d["sea_zones"], "mer_noire")["route"] = "route_de_la_soie"


def _zone_without_route_listed(d: Json) -> None:
    del by_id(d["sea_zones"], "mer_noire")["route"]


def _duplicate_zone(d: Json) -> None:
    d["sea_zones"].append(copy.deepcopy(d["sea_zones"][0]))


def _zone_unknown_field(d: Json) -> None:
    d["sea_zones"][0]["depth"] = 3


@pytest.mark.parametrize(
    ("mutate", "code", "named"),
    [
        (_capital_outside_empire, "bad_capital", "ile_de_france"),
        (_unknown_capital, "bad_capital", "londres"),
        (_capital_bonus_without_capital, "bad_capital", "royaume_uni"),
        (_negative_capital_bonus, "bad_capital", "royaume_uni"),
        (_unknown_adjacent_zone, "unknown_sea_zone", "mer_caspienne"),
        (_unknown_coast, "unknown_territory", "crimee"),
        (_asymmetric_zone, "asymmetric_zone", "mer_baltique"),
        (_zone_in_wrong_route, "bad_route", "mer_noire"),
        (_route_unknown_zone, "bad_route", "ocean_indien"),
        (_zone_names_unknown_route, "bad_route", "route_de_la_soie"),
        (_zone_without_route_listed, "bad_route", "mer_noire"),
        (_duplicate_zone, "duplicate_sea_zone", "atlantique_ouest_europeen"),
        (_zone_unknown_field, "malformed_board", "depth"),
    ],
)
def test_napoleon_board_validation_codes(mutate: Mutation, code: str, named: str) -> None:
    """NAP-CAP-01 / GAP-09: capital and sea-zone data errors have stable codes."""
    data = board_json()
    mutate(data)
    with pytest.raises(BoardError) as err:
        decode_board(encode(data))
    assert err.value.code == code
    assert named in err.value.message


# --- NAP-MIS-02 / GAP-08: the mission deck -----------------------------------------------------


def test_gap_08_at_least_six_missions_per_rank(board: Board) -> None:
    """NAP-MIS-02 / GAP-08: four ranks, enough cards for 6 players to draw one of each."""
    ranks = Counter(m.rank for m in board.missions)
    assert set(ranks) == set(MISSION_RANKS)
    assert all(ranks[r] >= 6 for r in MISSION_RANKS)
    assert all(m.text_en and m.text_fr for m in board.missions)


def test_gap_08_missions_reference_valid_ids(board: Board) -> None:
    """GAP-08: every empire and territory a mission names exists on the board."""
    for m in board.missions:
        assert all(g in board.group_index for g in m.groups)
        assert all(t in board.index for t in m.hold)
        assert m.capitals <= len(board.capitals)
        assert m.destroy is None


def test_gap_08_difficulty_increases_by_rank(board: Board) -> None:
    """NAP-MIS-02: Caporal < Capitaine < Général < Empereur on every measure used."""
    by_rank = {r: [m for m in board.missions if m.rank == r] for r in MISSION_RANKS}
    sizes = {g.id: g.size for g in board.groups}

    def most_territories(rank: str) -> int:
        return max(m.territories for m in by_rank[rank])

    assert [most_territories(r) for r in MISSION_RANKS] == [12, 18, 24, 30]
    assert all(len(m.hold) <= 2 and not m.groups for m in by_rank["caporal"])
    assert all(
        len(m.groups) == 1 and sizes[m.groups[0]] == 3 for m in by_rank["capitaine"] if m.groups
    )
    assert all(len(m.groups) == 2 for m in by_rank["general"] if m.groups)
    assert max(m.capitals for m in by_rank["general"]) == 3
    assert max(m.capitals for m in by_rank["empereur"]) == 5
    for m in by_rank["empereur"]:
        if m.groups:
            assert {"empire_francais", "empire_de_russie"} & set(m.groups)
            assert len(m.groups) + m.extra_groups == 2
    assert any(m.eliminate_any == 1 for m in by_rank["empereur"])
    assert any(m.armies_total for m in board.missions)


def test_gap_08_deck_is_marked_reconstructed(board: Board) -> None:
    """GAP-08: every card is reconstructed, not from the rulebooks, and says so; the deck-wide
    choices stay in the file's provenance."""
    assert all(
        not m.verified and m.note.startswith("GAP-08: reconstructed") for m in board.missions
    )
    alpes = next(m for m in board.missions if m.id == "caporal_alpes")
    assert "Piémont is itself a reconstructed territory" in alpes.note
    prov = json.loads(RAW_MISSIONS)["provenance"]
    assert any("GAP-08" in r for r in prov["reconstructed"])
    assert any("GAP-08" in u for u in prov["unverified"])


def _mission_unknown_hold(d: Json) -> None:
    d["missions"][0]["hold"] = ["andalousie", "atlantide"]


def _mission_bad_rank(d: Json) -> None:
    d["missions"][0]["rank"] = "marechal"


def _mission_duplicate_hold(d: Json) -> None:
    d["missions"][0]["hold"] = ["andalousie", "andalousie"]


def _mission_too_many_capitals(d: Json) -> None:
    d["missions"][0]["capitals"] = 12


def _mission_negative_armies(d: Json) -> None:
    d["missions"][0]["armies_total"] = -1


def _mission_too_many_eliminations(d: Json) -> None:
    d["missions"][0]["eliminate_any"] = 6


def _mission_unknown_empire(d: Json) -> None:
    d["missions"][0]["groups"] = ["empire_mongol"]


@pytest.mark.parametrize(
    ("mutate", "code", "named"),
    [
        (_mission_unknown_hold, "unknown_territory", "atlantide"),
        (_mission_bad_rank, "malformed_missions", "marechal"),
        (_mission_duplicate_hold, "malformed_missions", "caporal_gibraltar"),
        (_mission_too_many_capitals, "malformed_missions", "capitals"),
        (_mission_negative_armies, "malformed_missions", "caporal_gibraltar"),
        (_mission_too_many_eliminations, "malformed_missions", "eliminate"),
        (_mission_unknown_empire, "unknown_group", "empire_mongol"),
    ],
)
def test_napoleon_mission_validation_codes(mutate: Mutation, code: str, named: str) -> None:
    """GAP-08: mission data errors have stable codes."""
    data = missions_json()
    mutate(data)
    with pytest.raises(BoardError) as err:
        decode_board(RAW_BOARD, encode(data))
    assert err.value.code == code
    assert named in err.value.message
