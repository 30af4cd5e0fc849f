"""R08-01..04, R08-10, R08-15, R08-TR-04 and GAP-21..24: the Risk 2008 board data
(``boards/risk2008``, written by ``scripts/make_risk2008_board.py``) and how its reconstructed
items are shown."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import risk_core as rc
from risk_core.board import unverified_facts
from tests.risk2008_kit import BOARD, Run, out

ROOT = Path(__file__).resolve().parents[1]

CLASSIC = rc.load_board("classic")


def edge_set(board: rc.Board) -> set[tuple[frozenset[str], str]]:
    return {(frozenset((e.a, e.b)), e.kind) for e in board.edges}


def test_r08_01_the_classic_world_map() -> None:
    """R08-01/GAP-21: the same 42 territories, continents and edges as the classic board (the
    copy cannot drift), with the rulebook's sizes and sea lines."""
    assert [(t.id, t.group) for t in BOARD.territories] == [
        (t.id, t.group) for t in CLASSIC.territories
    ]
    assert edge_set(BOARD) == edge_set(CLASSIC)
    sizes = {g.id: len(m) for g, m in zip(BOARD.groups, BOARD.group_members, strict=True)}
    assert {k: sizes[k] for k in ("north_america", "europe", "asia", "australia")} == {
        "north_america": 9,
        "europe": 7,
        "asia": 12,
        "australia": 4,
    }
    index = BOARD.index
    assert BOARD.edge_kind(index["brazil"], index["north_africa"]) == "sea"
    assert BOARD.edge_kind(index["siam"], index["indonesia"]) == "sea"


def test_r08_01_unstated_edges_and_memberships_are_flagged() -> None:
    """GAP-21: edges the rulebook does not show and South America's and Africa's members are
    unverified, each with its note; the rulebook's own examples are verified."""
    facts = {f.where: f.note for f in unverified_facts(BOARD)}
    assert all(
        "GAP-21" in facts[f"territories.{t.id}"]
        for t in BOARD.territories
        if t.group in ("south_america", "africa")
    )
    verified = [e for e in BOARD.edges if e.verified]
    assert {frozenset((e.a, e.b)) for e in verified} >= {frozenset(("brazil", "north_africa"))}
    assert all("GAP-21" in e.note for e in BOARD.edges if not e.verified)


def test_r08_02_continent_bonuses() -> None:
    """R08-02: Europe 5, Africa 3, Oceania 2 are the rulebook's; the others placeholders."""
    bonus = {g.id: (g.bonus, g.bonus_verified) for g in BOARD.groups}
    assert bonus["europe"] == (5, True) and bonus["africa"] == (3, True)
    assert bonus["australia"] == (2, True)
    assert not any(bonus[g][1] for g in ("north_america", "south_america", "asia"))


def test_r08_03_r08_04_one_card_per_territory_with_1_or_2_stars() -> None:
    """R08-03, R08-04, GAP-22, GAP-26: 42 territory cards, no joker, each 1 or 2 stars, the count
    of each card flagged unverified."""
    cards = BOARD.cards
    assert len(cards) == 42 and BOARD.jokers == 0
    assert sorted(c.territory for c in cards if c.territory is not None) == list(range(42))
    assert set(Counter(c.stars for c in cards)) == {1, 2}
    notes = [f.note for f in unverified_facts(BOARD) if f.where.startswith("sections.cards")]
    assert len(notes) == 42 and all("GAP-22" in n for n in notes)


def test_r08_10_star_table_r08_15_missions_r08_tr_04_cities() -> None:
    """R08-10 table, the 6 minor and 6 major missions (R08-15) and the 15 Training cities."""
    table = {r.stars: r.regiments for r in BOARD.section("r08_star_trades")}
    assert table == {2: 2, 3: 4, 4: 7, 5: 10, 6: 13, 7: 17, 8: 21, 9: 25, 10: 30}
    kinds = Counter(m.kind for m in BOARD.section("r08_missions"))
    assert kinds == {"minor": 6, "major": 6}
    assert sum(m.training for m in BOARD.section("r08_missions")) == 8
    assert len(BOARD.section("r08_training_cities")) == 15


def test_gap_23_gap_24_are_reconstructed() -> None:
    """GAP-23 (Training setups) and GAP-24 (reward inventory) are flagged item by item."""
    facts = unverified_facts(BOARD)
    setups = [f for f in facts if f.where.startswith("sections.r08_training_setups")]
    rewards = [f for f in facts if f.where.startswith("sections.r08_rewards")]
    assert len(setups) == 3 and all("GAP-23" in f.note for f in setups)
    assert len(rewards) == 8 and all("GAP-24" in f.note for f in rewards)


def test_boards_show_and_rules_say_what_is_reconstructed(risk: Run) -> None:
    """`risk boards show risk2008` lists every unverified item with its reasoning; `risk rules
    risk2008-training` counts them."""
    shown = risk("boards", "show", "risk2008").stdout
    for gap in ("GAP-21", "GAP-22", "GAP-23", "GAP-24"):
        assert gap in shown
    facts = out(risk, "rules", "risk2008-training")["board_facts"]
    assert facts["section"]["unverified"] == 53 and facts["edge"]["unverified"] == 75
    assert "reconstructed or unverified" in risk("rules", "risk2008-training").stdout
    assert json.loads(risk("boards", "show", "risk2008", "--json").stdout)["id"] == "risk2008"


def test_the_board_loads_in_a_fresh_process_before_any_rule_set() -> None:
    """R08-01: `load_board("risk2008")` works first thing in a process, although its sections'
    types are registered by the family's modules (imported on demand)."""
    code = (
        "import sys\n"
        "from risk_core.board import load_board\n"
        "board = load_board('risk2008')\n"
        "cities = board.section('r08_training_cities')\n"
        "print(board.id, len(board.territories), cities is not None)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["risk2008", "42", "True"]
