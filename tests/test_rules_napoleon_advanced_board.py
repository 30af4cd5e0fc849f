"""NAP-ADV-02/03/12/14/17/20/26, GAP-07..11 and the issue-17 audit: the advanced game's board
(``boards/napoleon/advanced``, written by ``scripts/make_napoleon_advanced_board.py``), its
sections and how its reconstructed items are shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

import risk_core as rc
from risk_core.board import BoardError, decode_board, unverified_facts
from risk_core.rulesets import napoleon_advanced_rules as nar
from tests.napoleon_advanced_kit import ADVANCED_DIR, BOARD, IDS, T

ROOT = Path(__file__).resolve().parents[1]
BASIC = rc.load_board("napoleon")


def edge_set(board: rc.Board) -> set[tuple[frozenset[str], str]]:
    return {(frozenset((e.a, e.b)), e.kind) for e in board.edges}


def test_nap_adv_02_same_map_as_the_basic_board() -> None:
    """NAP-ADV-02: territories, empires, edges and sea-zone adjacency are the basic board's
    (the copy cannot drift); only the advanced data differs."""
    assert [(t.id, t.group, t.card) for t in BOARD.territories] == [
        (t.id, t.group, t.card) for t in BASIC.territories
    ]
    assert [(g.id, g.bonus, g.capital) for g in BOARD.groups] == [
        (g.id, g.bonus, g.capital) for g in BASIC.groups
    ]
    assert edge_set(BOARD) == edge_set(BASIC)
    assert [(z.id, z.route, z.zones, z.coasts) for z in BOARD.sea_zones] == [
        (z.id, z.route, z.zones, z.coasts) for z in BASIC.sea_zones
    ]
    assert [m.id for m in BOARD.missions] == [m.id for m in BASIC.missions]


# The basic board's content hash, recorded in every stored basic Napoléon game.
BASIC_HASH = "sha256:8d4d957c33841d276959316a436e5922d3964e101496b356e21e8478f2d0b56a"


def test_basic_board_bytes_are_unchanged() -> None:
    """Issue 17: the advanced data lives in its own board; the basic board's hash is still the
    one every stored basic game records."""
    assert BASIC.content_hash == BASIC_HASH
    assert BOARD.content_hash != BASIC_HASH


def test_audit_angleterre_ile_de_france_is_a_border() -> None:
    """Issue 17 audit (000 l.88): Angleterre–Île de France is a common border, not a sea
    line, on both boards."""
    a, b = T("angleterre"), T("ile_de_france")
    assert BOARD.edge_kind(a, b) == "border"
    assert BASIC.edge_kind(a, b) == "border"


def test_audit_mediterranean_claim_removed() -> None:
    """Issue 17 audit: l.975 is no evidence that the two Mediterranean end zones do not touch;
    the advanced board's notes no longer claim it and say the question is open (GAP-09)."""
    zones = {z.id: z for z in BOARD.sea_zones}
    for zone in ("mediterranee_occidentale", "mediterranee_orientale"):
        note = zones[zone].note
        assert "no contact" not in note and "needs the Adriatique" not in note
        assert "not known" in note and not zones[zone].verified
    basic = {z.id: z.note for z in BASIC.sea_zones}
    assert "no contact" in basic["mediterranee_occidentale"]  # untouched: hashed bytes


def test_gap_09_the_rulebook_landing_is_legal() -> None:
    """GAP-09/NAP-ADV-36 (000 l.975): Andalousie reaches Égypte through the Occidentale,
    Adriatique and Orientale; two zones are not enough."""
    three = ["mediterranee_occidentale", "mediterranee_adriatique", "mediterranee_orientale"]
    assert T("egypte") in nar.landing_reach(BOARD, T("andalousie"), three)
    assert T("egypte") not in nar.landing_reach(BOARD, T("andalousie"), three[:2])


def test_nap_adv_02_route_bonuses() -> None:
    """NAP-ADV-02/19: Amériques 2 (000 l.700, verified); Indes a flagged placeholder."""
    routes = {r.id: r for r in BOARD.routes}
    assert routes["ameriques"].bonus == 2 and routes["ameriques"].bonus_verified
    assert routes["indes"].bonus == 3 and not routes["indes"].bonus_verified
    assert "GAP-09" in routes["indes"].bonus_note
    assert len(routes["ameriques"].zones) == 3 and len(routes["indes"].zones) == 5


def test_gap_10_fortification_pool() -> None:
    """GAP-10/NAP-ADV-22: the token count is unknown: no limit, flagged with its note."""
    pool = BOARD.section("nap_fortifications")
    assert pool.tokens is None and not pool.verified and "GAP-10" in pool.note
    assert nar.fortification_tokens(BOARD) is None


def test_gap_11_time_track() -> None:
    """GAP-11/NAP-ADV-14: one space per round, years increasing, flagged."""
    track = BOARD.section("nap_time_track")
    assert [e.round for e in track] == [1, 2, 3, 4, 5]
    assert all(not e.verified and "GAP-11" in e.note for e in track)
    assert nar.year_of_round(BOARD, 5) == 1811 and nar.year_of_round(BOARD, 6) is None


def test_nap_adv_12_starting_cards_table() -> None:
    """NAP-ADV-12 (000 l.846-853): the rulebook's table, verified."""
    assert nar.starting_cards(BOARD, 3) == (0, 0, 2)
    assert nar.starting_cards(BOARD, 4) == (0, 0, 1, 2)
    assert nar.starting_cards(BOARD, 5) == (0, 0, 1, 1, 2)
    assert nar.starting_cards(BOARD, 6) == (0, 0, 1, 1, 2, 2)
    assert all(r.verified for r in BOARD.section("nap_starting_cards"))


def test_gap_07_card_effects() -> None:
    """GAP-07/NAP-ADV-26: one effect per territory card, each window and effect present,
    one Renfort card (+4 when traded, 000 l.905); every item flagged with its reasoning."""
    effects = BOARD.section("nap_card_effects")
    assert sorted(e.territory for e in effects) == sorted(IDS)
    assert {e.window for e in effects} == {
        "reinforce",
        "own_combat",
        "other_combat",
        "any_combat",
        "maneuver",
        "special",
    }
    renfort = [e for e in effects if e.effect == "renfort"]
    assert len(renfort) == 1 and renfort[0].amount == 4
    assert all(not e.verified and "GAP-07" in e.note for e in effects)


def test_gap_08_mission_vp_and_empire_missions() -> None:
    """GAP-08/NAP-ADV-17: every mission has VP; an Empire mission per empire and route."""
    vp = {r.mission: r.vp for r in BOARD.section("nap_mission_vp")}
    assert set(vp) == {m.id for m in BOARD.missions}
    assert {vp[m.id] for m in BOARD.missions if m.rank == "empereur"} == {4}
    empire = BOARD.section("nap_empire_missions")
    targets = {m.target for m in empire}
    assert targets == {g.id for g in BOARD.groups} | {"ameriques", "indes"}
    assert all(not m.verified and "GAP-08" in m.note for m in empire)


def test_unverified_items_are_listed_with_their_notes() -> None:
    """GAP-07..11: `unverified_facts` lists every reconstructed section item."""
    where = {f.where for f in unverified_facts(BOARD)}
    assert "sections.nap_fortifications" in where
    assert sum(w.startswith("sections.nap_card_effects") for w in where) == 48
    assert any(w.startswith("sections.nap_empire_missions") for w in where)


def test_section_checks_refuse_bad_data() -> None:
    """Board data checks: a second Renfort card or a missing card effect is refused."""
    raw = json.loads((ADVANCED_DIR / "board.json").read_text(encoding="utf-8"))
    missions = (ADVANCED_DIR / "missions.json").read_bytes()
    raw["sections"]["nap_card_effects"][0]["effect"] = "renfort"
    with pytest.raises(BoardError) as e:
        decode_board(msgspec.json.encode(raw), missions)
    assert e.value.code == "bad_section"
    raw["sections"]["nap_card_effects"] = raw["sections"]["nap_card_effects"][1:]
    with pytest.raises(BoardError):
        decode_board(msgspec.json.encode(raw), missions)


def test_generator_is_up_to_date(tmp_path: Path) -> None:
    """The shipped board is what the script writes (no hand edits to drift)."""
    shipped = (ADVANCED_DIR / "board.json").read_bytes()
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_napoleon_advanced_board.py")],
        check=True,
        cwd=ROOT,
    )
    assert (ADVANCED_DIR / "board.json").read_bytes() == shipped


def test_boards_show_marks_the_sections(risk) -> None:  # type: ignore[no-untyped-def]
    """`risk boards show` lists the sections and their unverified items."""
    out = risk("boards", "show", str(ADVANCED_DIR)).stdout
    assert "section nap_card_effects: 48 items" in out
    assert "GAP-10" in out and "GAP-07" in out


def test_boards_show_by_name_prints_the_family_board(risk) -> None:  # type: ignore[no-untyped-def]
    """`risk boards show napoleon-advanced --json` prints the advanced board's own file."""
    shown = risk("boards", "show", "napoleon-advanced", "--json").stdout
    assert shown == (ADVANCED_DIR / "board.json").read_text(encoding="utf-8")


def test_gap_12_campaign_setup() -> None:
    """GAP-12/NAP-CAMP-01/03/04: the 1796 position: French (blue) and English (red) players,
    Austrians, Prussians and Russians active, the yellow neutral passive; every territory held
    once; each item flagged with its reasoning."""
    armies = {a.colour: a for a in BOARD.section("nap_campaign_1796")}
    assert {c: a.role for c, a in armies.items()} == {
        "blue": "player",
        "red": "player",
        "white": "active",
        "black": "active",
        "green": "active",
        "yellow": "passive",
    }
    held = [t for a in armies.values() for t in a.regiments]
    assert sorted(held) == sorted(IDS)
    assert all(n >= 5 for n in armies["red"].regiments.values())  # NAP-CAMP-13's defence force
    assert all(not a.verified and "GAP-12" in a.note for a in armies.values())


def test_nap_camp_14_objectives_table() -> None:
    """NAP-CAMP-14 (000 l.1151-1219): the VP table, as the rulebooks print it; maritime
    supremacy's definition is DEC-32(b)'s reading, flagged (GAP-14)."""
    rows = BOARD.section("nap_campaign_objectives")
    invasions = {(r.side, r.target): (r.vp, r.condition) for r in rows if r.kind == "invasion"}
    assert invasions[("french", "angleterre")] == (10, "")
    assert invasions[("french", "egypte")] == (5, "before_1809")
    assert invasions[("english", "ile_de_france")] == (10, "")
    assert invasions[("english", "grande_russie")] == (10, "allied_to_french:green")
    supremacy = [r for r in rows if r.target == "maritime_supremacy"]
    assert len(supremacy) == 2 and all(not r.verified for r in supremacy)
    assert all(r.verified for r in rows if r.target != "maritime_supremacy")
