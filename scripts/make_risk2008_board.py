"""Write ``boards/risk2008/board.json``: the classic world map plus Risk 2008's sections.

Usage (from the project root)::

    .venv/bin/python scripts/make_risk2008_board.py

The board loader has no way to refer to another board, so the map (territories, continents,
edges) is copied from ``boards/classic/board.json`` by this script; ``tests/
test_rules_risk2008_board.py`` checks that the copy still equals the classic map.  Every item the
rulebook (003) does not state is written with ``verified: false`` and the reasoning (GAP-21..24).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "boards" / "classic" / "board.json"
OUT = ROOT / "boards" / "risk2008" / "board.json"
CLASSIC_NAMES = ROOT / "boards" / "classic" / "names.json"

# R08-TR-04 (003 l.226-244), the classic ids of the 15 Training cities.
TRAINING_CITIES = [
    "western_united_states",
    "ontario",
    "eastern_united_states",
    "brazil",
    "great_britain",
    "northern_europe",
    "western_europe",
    "southern_europe",
    "ukraine",
    "egypt",
    "south_africa",
    "india",
    "china",
    "japan",
    "eastern_australia",
]
# Edges the rulebook itself shows (003 l.135, 355, 570; R08-01, R08-16).
RULEBOOK_EDGES = {
    frozenset(p)
    for p in [
        ("brazil", "venezuela"),
        ("brazil", "peru"),
        ("brazil", "argentina"),
        ("brazil", "north_africa"),
        ("siam", "indonesia"),
        ("siam", "india"),
        ("india", "afghanistan"),
        ("afghanistan", "ukraine"),
    ]
}
KNOWN_GROUPS = {"north_america": 9, "europe": 7, "asia": 12, "australia": 4}  # 003 l.411-428
KNOWN_BONUSES = {"europe": 5, "africa": 3, "australia": 2}  # 003 l.290-308
GAP21 = (
    "GAP-21: copied from the classic board; rulebook 003 describes the same 42-territory world "
    "map (l.133-141) but prints no adjacency list, so this is not checked against a Risk 2008 "
    "board."
)

STAR_TABLE = [(2, 2), (3, 4), (4, 7), (5, 10), (6, 13), (7, 17), (8, 21), (9, 25), (10, 30)]

MISSIONS: list[dict[str, Any]] = [
    {
        "id": "control_europe",
        "kind": "minor",
        "test": "groups",
        "groups": ["europe"],
        "text_en": "Control the 7 territories of Europe.",
        "text_fr": "Contrôler les 7 territoires d'Europe.",
        "training": True,
    },
    {
        "id": "control_north_america",
        "kind": "minor",
        "test": "groups",
        "groups": ["north_america"],
        "text_en": "Control the 9 territories of North America.",
        "text_fr": "Contrôler les 9 territoires d'Amérique du Nord.",
        "training": True,
    },
    {
        "id": "control_asia",
        "kind": "minor",
        "test": "groups",
        "groups": ["asia"],
        "text_en": "Control the 12 territories of Asia.",
        "text_fr": "Contrôler les 12 territoires d'Asie.",
        "training": True,
    },
    {
        "id": "control_8_cities",
        "kind": "minor",
        "test": "cities",
        "count": 8,
        "text_en": "Control at least 8 cities (anywhere on the board).",
        "text_fr": "Contrôler au moins 8 villes (n'importe où sur le plateau de jeu).",
        "training": True,
    },
    {
        "id": "control_enemy_capital",
        "kind": "minor",
        "test": "enemy_capitals",
        "count": 1,
        "text_en": "Control at least 1 enemy capital (your own need not be held).",
        "text_fr": "Contrôler au moins 1 capitale ennemie (pas besoin d'avoir le contrôle de vos "
        "propres capitales).",
    },
    {
        "id": "take_4_cities",
        "kind": "minor",
        "test": "cities_this_turn",
        "count": 4,
        "text_en": "Take control of at least 4 cities you did not control at the start of your "
        "turn.",
        "text_fr": "Prendre le contrôle d'au moins 4 villes que vous ne contrôliez pas au début de "
        "votre tour.",
    },
    {
        "id": "take_10_territories",
        "kind": "major",
        "test": "territories_this_turn",
        "count": 10,
        "text_en": "Take control of at least 10 territories you did not control at the start of "
        "your turn.",
        "text_fr": "Prendre le contrôle d'au moins 10 territoires que vous ne contrôliez pas au "
        "début de votre tour.",
        "training": True,
    },
    {
        "id": "control_2_enemy_capitals",
        "kind": "major",
        "test": "enemy_capitals",
        "count": 2,
        "text_en": "Control at least 2 enemy capitals (your own need not be held).",
        "text_fr": "Contrôler au moins 2 capitales ennemies (pas besoin d'avoir le contrôle de vos "
        "propres capitales).",
        "training": True,
    },
    {
        "id": "control_18_territories",
        "kind": "major",
        "test": "territories",
        "count": 18,
        "text_en": "Control at least 18 territories.",
        "text_fr": "Contrôler au moins 18 territoires.",
        "training": True,
    },
    {
        "id": "control_2_continents",
        "kind": "major",
        "test": "any_groups",
        "count": 2,
        "text_en": "Control 2 whole continents.",
        "text_fr": "Contrôler 2 continents entiers.",
        "training": True,
    },
    {
        "id": "take_continent",
        "kind": "major",
        "test": "group_this_turn",
        "count": 1,
        "text_en": "Take control of a continent you did not control at the start of your turn.",
        "text_fr": "Prendre le contrôle d'un continent que vous ne contrôliez pas au début de "
        "votre tour.",
    },
    {
        "id": "control_11_cities",
        "kind": "major",
        "test": "cities",
        "count": 11,
        "text_en": "Control at least 11 cities (anywhere on the board).",
        "text_fr": "Contrôler au moins 11 villes (n'importe où sur le plateau de jeu).",
    },
]
GAP24 = (
    "GAP-24: the rulebook names the kinds (003 l.513-549) but not how many tokens of each; one "
    "of each kind per category is assumed (4 small for the 4 minor missions, 4 supreme for the "
    "4 major ones)."
)
REWARDS = [
    (
        "small_airfield",
        "small",
        "airfield",
        "Airfield: +1 to your best die in battles on or next to its territory (R08-CC-10)",
    ),
    (
        "strategic_maneuver",
        "small",
        "strategic_maneuver",
        "Strategic Maneuver: one extra reorganisation before your first attack (R08-CC-11)",
    ),
    (
        "bonus_maneuver",
        "small",
        "bonus_maneuver",
        "Bonus Maneuver: one extra reorganisation at the end of your turn (R08-CC-12)",
    ),
    (
        "bonus_card",
        "small",
        "bonus_card",
        "Bonus Card: draw a card at the end of every turn (R08-CC-13)",
    ),
    (
        "supreme_airfield",
        "supreme",
        "airfield",
        "Airfield: +1 to your best die in battles on or next to its territory (R08-CC-10)",
    ),
    (
        "bonus_attack_die",
        "supreme",
        "bonus_attack_die",
        "Bonus Attack Die: roll one more die when attacking, keep the best (R08-CC-14)",
    ),
    (
        "bonus_defence_die",
        "supreme",
        "bonus_defence_die",
        "Bonus Defence Die: roll one more die when defending, keep the best (R08-CC-15)",
    ),
    (
        "two_regiments",
        "supreme",
        "two_regiments",
        "2 Regiments: +2 regiments at each of your turns (R08-CC-16)",
    ),
]
GAP22 = (
    "GAP-22: each card shows 1 or 2 stars (003 l.188) but the rulebook gives no list; "
    "placeholder: the 14 cards that carry a cannon in the classic deck show 2 stars, the others "
    "1 (a third of the deck worth double)."
)
# The card's "symbol" is only how it reads (``Board.card_label``): trades count ``stars``.
# Training card colours in turn order: 3 players from 003 l.252-258, 4-5 reconstructed.
COLOURS = {
    3: ["yellow", "green", "blue"],
    4: ["yellow", "green", "blue", "red"],
    5: ["yellow", "green", "blue", "red", "black"],
}
START_CARDS = {3: [0, 0, 1], 4: [0, 0, 1, 1], 5: [0, 0, 1, 1, 2]}
REGIMENTS = {3: 30, 4: 25, 5: 20}  # R08-CC-04, used for the reconstruction
GAP23 = (
    "GAP-23: the Training card's figure is missing from the rulebook text (003 l.246-250); "
    "reconstructed: territories dealt round the colours in board order, each colour's "
    "Command-Center regiments (R08-CC-04: 30/25/20) spread over them, the capital on its first "
    "territory without a city.  The 3-player order yellow, green, blue and blue's one starting "
    "card are the rulebook's (l.252-262); 4-5 players follow R08-CC-08 (0,0,1,1,2 cards), "
    "colours red then black added."
)


def training_setup(n: int, ids: list[str]) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"regiments": {}} for _ in range(n)]
    for i, t in enumerate(ids):
        seats[i % n]["regiments"][t] = 1
    for s, seat in enumerate(seats):
        own = list(seat["regiments"])
        for k in range(REGIMENTS[n] - len(own)):
            seat["regiments"][own[k % len(own)]] += 1
        seat["colour"] = COLOURS[n][s]
        seat["capital"] = next(t for t in own if t not in TRAINING_CITIES)
        seat["cards"] = START_CARDS[n][s]
    return {
        "players": n,
        "seats": [
            {k: seat[k] for k in ("colour", "capital", "cards", "regiments")} for seat in seats
        ],
        "verified": False,
        "note": GAP23,
    }


def main() -> None:
    classic = json.loads(CLASSIC.read_text(encoding="utf-8"))
    ids = [t["id"] for t in classic["territories"]]
    groups = []
    for g in classic["groups"]:
        g = dict(g)
        if g["id"] not in KNOWN_BONUSES:
            g["bonus_verified"] = False
            g["bonus_note"] = (
                "GAP-21: bonus printed on the board, not in the rulebook text; placeholder = "
                "the classic value."
            )
        groups.append(g)
    territories = []
    for t in classic["territories"]:
        t = dict(t)
        t.pop("card_verified", None)
        t.pop("card_note", None)
        if t["group"] not in KNOWN_GROUPS:
            t["verified"] = False
            t["note"] = (
                "GAP-21: the rulebook does not list South America's and Africa's territories; "
                "membership copied from the classic board."
            )
        territories.append(t)
    edges = []
    for e in classic["edges"]:
        a, b, kind = (e["a"], e["b"], e["kind"]) if isinstance(e, dict) else e
        if frozenset((a, b)) in RULEBOOK_EDGES:
            edges.append([a, b, kind])
        else:
            edges.append({"a": a, "b": b, "kind": kind, "verified": False, "note": GAP21})
    cannons = {t["id"] for t in classic["territories"] if t["card"] == "artillery"}
    cards = [
        {
            "id": i,
            "territory": t,
            "symbol": "2 stars" if t in cannons else "1 star",
            "stars": 2 if t in cannons else 1,
            "verified": False,
            "note": GAP22,
        }
        for i, t in enumerate(ids)
    ]
    board = {
        "id": "risk2008",
        "version": 1,
        "name_en": "Risk 2008 world map",
        "name_fr": "Risk 2008, carte du monde",
        "groups": groups,
        "territories": territories,
        "edges": edges,
        "jokers": 0,
        "provenance": {
            "sources": [
                {
                    "id": "R003",
                    "what": "Risk 2008 French rulebook (OCR text)",
                    "where": "shared/seeds/003 rulebook text",
                    "used_for": [
                        "continent sizes North America 9, Europe 7, Asia 12, Oceania 4 (l.411-428)",
                        "bonuses Europe 5, Africa 3, Oceania 2 (l.290-308)",
                        "edges Brazil–Venezuela/Peru/Argentina/North Africa (l.135), "
                        "Siam–Indonesia (l.355), Siam–India–Afghanistan–Ukraine (l.570)",
                        "the star trade table (l.328-343)",
                        "the 12 missions (l.409-503)",
                        "the 15 Training cities (l.226-244)",
                        "reward kinds (l.513-549)",
                        "3-player Training order and starting card (l.252-262)",
                        "42 territory cards, 1 or 2 stars, no joker (l.186-190, GAP-26)",
                    ],
                },
                {
                    "id": "CLASSIC",
                    "what": "This project's classic board",
                    "where": "boards/classic/board.json",
                    "used_for": ["territories, continents, edges and positions (GAP-21)"],
                },
            ],
            "verified": [
                "Star trade table, missions, Training cities and reward kinds are the "
                "rulebook's; every other item says on itself whether it is verified"
            ],
            "reconstructed": [
                "The map is the classic board's, copied by scripts/make_risk2008_board.py "
                "(the board loader cannot refer to another board)"
            ],
        },
        "sections": {
            "cards": cards,
            "r08_star_trades": [{"stars": s, "regiments": r} for s, r in STAR_TABLE],
            "r08_missions": MISSIONS,
            "r08_training_cities": [{"territory": t} for t in TRAINING_CITIES],
            "r08_rewards": [
                {"id": i, "kind": k, "ability": a, "text_en": txt, "verified": False, "note": GAP24}
                for i, k, a, txt in REWARDS
            ],
            "r08_training_setups": [training_setup(n, ids) for n in (3, 4, 5)],
        },
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    write_names()


def write_names() -> None:
    """The classic board's ``names.json`` (names players type, outside the content hash) for
    the same territories and continents; its mission texts are the classic missions'."""
    if not CLASSIC_NAMES.is_file():
        return
    names = json.loads(CLASSIC_NAMES.read_text(encoding="utf-8"))
    kept = {k: names[k] for k in ("territories", "groups") if names.get(k)}
    about = "The classic board's names (scripts/make_risk2008_board.py copies them): " + str(
        names.get("about", "")
    )
    text = json.dumps({"about": about, **kept}, ensure_ascii=False, indent=2) + "\n"
    (OUT.parent / "names.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
