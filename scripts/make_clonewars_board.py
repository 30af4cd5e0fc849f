"""Write ``boards/clonewars/board.json``: the Clone Wars galaxy (rulebook 002, CW-01, GAP-15..19).

Usage (from the project root)::

    .venv/bin/python scripts/make_clonewars_board.py

Planet names, systems and bonuses come from ``shared/reference/boards/clonewars.json`` (the
public list of the 42 planets); rulebook 002 states the system sizes (l.74-82), the Expansion
Region bonus (3, l.307) and a handful of connections in its worked examples (l.86, 431, 496,
498).  No public adjacency list or map exists (GAP-15): every other connection below is a
reconstruction, written with ``verified: false`` and the reasoning, so that a correction read
off the physical board is a data edit here.  Positions are for drawing only (1000 x 600).

The script also writes the faction cards (GAP-17), the Separatist tokens (GAP-18) and the
Order 66 track (GAP-19) as board sections, every reconstructed item flagged the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "boards" / "clonewars" / "board.json"

# System id -> (English, French, bonus, bonus stated by rulebook 002?) in the rulebook's order
# (l.74-82: 10, 9, 7, 7, 5 and 4 planets).
SYSTEMS: dict[str, tuple[str, str, int, bool]] = {
    "outer_rim": ("Outer Rim", "Bordure Extérieure", 6, False),
    "mid_rim": ("Mid Rim", "Bordure Médiane", 5, False),
    "wild_space": ("Wild Space", "Espace Sauvage", 3, False),
    "core_worlds": ("Core Worlds", "Mondes du Noyau", 5, False),
    "colonies": ("Colonies", "Colonies", 2, False),
    "expansion_region": ("Expansion Region", "Région d'Expansion", 3, True),
}
GAP16 = (
    "GAP-16: the bonus is printed at the edge of the system on the board, not in rulebook 002; "
    "value from the public planet list (Wikipedia), not checked against a board."
)

# Planet id -> (English name, system, drawing position).  The layout is a reconstruction: the
# Core Worlds in the middle, the Colonies above them, the Expansion Region to their west, the
# Mid Rim to their east, Wild Space to the south and the Outer Rim along the western rim; no
# system's outline covers another's planets when drawn.
PLANETS: dict[str, tuple[str, str, tuple[int, int]]] = {
    # Colonies (5): Muunilinst in the middle, bordering the four others (l.86).
    "mygeeto": ("Mygeeto", "colonies", (400, 60)),
    "ithor": ("Ithor", "colonies", (410, 150)),
    "muunilinst": ("Muunilinst", "colonies", (500, 100)),
    "dantooine": ("Dantooine", "colonies", (600, 60)),
    "dathomir": ("Dathomir", "colonies", (600, 150)),
    # Core Worlds (7)
    "corellia": ("Corellia", "core_worlds", (460, 225)),
    "alderaan": ("Alderaan", "core_worlds", (570, 235)),
    "duro": ("Duro", "core_worlds", (400, 300)),
    "coruscant": ("Coruscant", "core_worlds", (500, 305)),
    "cato_neimoidia": ("Cato Neimoidia", "core_worlds", (600, 320)),
    "byss": ("Byss", "core_worlds", (430, 385)),
    "ansion": ("Ansion", "core_worlds", (540, 390)),
    # Expansion Region (4)
    "ilum": ("Ilum", "expansion_region", (275, 90)),
    "toydaria": ("Toydaria", "expansion_region", (300, 200)),
    "malastare": ("Malastare", "expansion_region", (290, 310)),
    "bogden": ("Bogden", "expansion_region", (270, 420)),
    # Mid Rim (9)
    "rattatak": ("Rattatak", "mid_rim", (720, 60)),
    "kamino": ("Kamino", "mid_rim", (880, 70)),
    "nal_hutta": ("Nal Hutta", "mid_rim", (690, 170)),
    "naboo": ("Naboo", "mid_rim", (800, 165)),
    "ando": ("Ando", "mid_rim", (930, 200)),
    "rodia": ("Rodia", "mid_rim", (700, 280)),
    "sullust": ("Sullust", "mid_rim", (815, 275)),
    "haruun_kal": ("Haruun Kal", "mid_rim", (750, 380)),
    "kashyyyk": ("Kashyyyk", "mid_rim", (900, 340)),
    # Wild Space (7)
    "raxus_prime": ("Raxus Prime", "wild_space", (340, 545)),
    "mon_calamari": ("Mon Calamari", "wild_space", (470, 470)),
    "felucia": ("Felucia", "wild_space", (500, 560)),
    "jabiim": ("Jabiim", "wild_space", (620, 490)),
    "saleucami": ("Saleucami", "wild_space", (680, 570)),
    "boz_pity": ("Boz Pity", "wild_space", (790, 490)),
    "kessel": ("Kessel", "wild_space", (890, 560)),
    # Outer Rim (10): two staggered columns along the western rim.
    "praesitlyn": ("Praesitlyn", "outer_rim", (70, 60)),
    "hypori": ("Hypori", "outer_rim", (165, 115)),
    "geonosis": ("Geonosis", "outer_rim", (70, 170)),
    "tatooine": ("Tatooine", "outer_rim", (165, 225)),
    "ryloth": ("Ryloth", "outer_rim", (70, 285)),
    "utapau": ("Utapau", "outer_rim", (165, 340)),
    "mustafar": ("Mustafar", "outer_rim", (70, 400)),
    "polis_massa": ("Polis Massa", "outer_rim", (165, 455)),
    "dagobah": ("Dagobah", "outer_rim", (70, 510)),
    "yavin_4": ("Yavin 4", "outer_rim", (165, 565)),
}

L86 = "002 l.86 (Appendix B: 'La planète Muunilinst est adjacente aux planètes Ithor, Mygeeto, "
# The connections rulebook 002 states (its worked examples); (a, b, kind, source).  Where the
# rulebook says two planets are adjacent without saying how, and both are in one system, the
# kind is taken to be a border (a lane is what the rulebook names when it links systems).
STATED: list[tuple[str, str, str, str]] = [
    ("muunilinst", "ithor", "border", L86 + "Dathomir et Dantooine ... frontière commune')"),
    ("muunilinst", "mygeeto", "border", L86 + "... frontière commune')"),
    ("muunilinst", "dathomir", "border", L86 + "... frontière commune')"),
    ("muunilinst", "dantooine", "border", L86 + "... frontière commune')"),
    (
        "dathomir",
        "alderaan",
        "lane",
        "002 l.86: 'Dathomir est aussi adjacente à Alderaan ... couloir d'hyperespace'",
    ),
    (
        "felucia",
        "jabiim",
        "border",
        "002 l.431: 'Felucia, une autre planète adjacente à Jabiiim'; both Wild Space, so "
        "taken to be a border",
    ),
    (
        "mon_calamari",
        "jabiim",
        "border",
        "002 l.431: Mon Calamari attacks Jabiim ('une autre planète adjacente'); both Wild "
        "Space, so taken to be a border",
    ),
    (
        "kashyyyk",
        "boz_pity",
        "lane",
        "002 l.496: 'attaque ... Boz Pity, grâce au couloir d'hyperespace'",
    ),
    (
        "boz_pity",
        "kessel",
        "border",
        "002 l.496: 'une invasion de Kessel depuis Boz Pity'; both Wild Space",
    ),
    (
        "kashyyyk",
        "haruun_kal",
        "border",
        "002 l.498: 'ses troupes sur Kashyyyk pour envahir Haruun Kal'; both Mid Rim",
    ),
]
# 002 l.86: 'Ithor n'est pas adjacente à Dathomir'; tests/test_rules_clonewars_board.py checks it.
NOT_ADJACENT = [("ithor", "dathomir")]

WITHIN = "GAP-15: reconstructed border inside {system}: neighbours in the drawing's layout"
# Reconstructed connections: (a, b, kind, reasoning).  Each system is a connected patch of
# bordering planets; systems touch where the layout puts them side by side, and the long
# links across the galaxy are lanes, as the two lanes the rulebook names are.
RECONSTRUCTED: list[tuple[str, str, str, str]] = [
    # Colonies: Ithor and Dathomir may not touch (l.86); the outer pairs border each other.
    ("mygeeto", "ithor", "border", WITHIN),
    ("dantooine", "dathomir", "border", WITHIN),
    # Core Worlds: Coruscant at the centre, a ring around it.
    ("corellia", "alderaan", "border", WITHIN),
    ("corellia", "coruscant", "border", WITHIN),
    ("corellia", "duro", "border", WITHIN),
    ("alderaan", "coruscant", "border", WITHIN),
    ("alderaan", "cato_neimoidia", "border", WITHIN),
    ("duro", "coruscant", "border", WITHIN),
    ("duro", "byss", "border", WITHIN),
    ("coruscant", "cato_neimoidia", "border", WITHIN),
    ("coruscant", "byss", "border", WITHIN),
    ("coruscant", "ansion", "border", WITHIN),
    ("cato_neimoidia", "ansion", "border", WITHIN),
    ("byss", "ansion", "border", WITHIN),
    # Expansion Region: a chain from north to south.
    ("ilum", "toydaria", "border", WITHIN),
    ("toydaria", "malastare", "border", WITHIN),
    ("malastare", "bogden", "border", WITHIN),
    # Mid Rim
    ("rattatak", "kamino", "border", WITHIN),
    ("rattatak", "nal_hutta", "border", WITHIN),
    ("rattatak", "naboo", "border", WITHIN),
    ("kamino", "naboo", "border", WITHIN),
    ("kamino", "ando", "border", WITHIN),
    ("nal_hutta", "naboo", "border", WITHIN),
    ("nal_hutta", "rodia", "border", WITHIN),
    ("naboo", "ando", "border", WITHIN),
    ("naboo", "sullust", "border", WITHIN),
    ("ando", "sullust", "border", WITHIN),
    ("ando", "kashyyyk", "border", WITHIN),
    ("rodia", "sullust", "border", WITHIN),
    (
        "rodia",
        "haruun_kal",
        "border",
        "GAP-15: 002 l.498 has the blue army invade Rodia right after moving 6 troops into "
        "Haruun Kal without naming the origin; Haruun Kal is the likeliest (Boz Pity with 4 "
        "and Kessel with 2 troops are the alternatives), both Mid Rim",
    ),
    ("sullust", "haruun_kal", "border", WITHIN),
    ("sullust", "kashyyyk", "border", WITHIN),
    # Wild Space
    ("mon_calamari", "raxus_prime", "border", WITHIN),
    ("mon_calamari", "felucia", "border", WITHIN),
    ("raxus_prime", "felucia", "border", WITHIN),
    ("felucia", "saleucami", "border", WITHIN),
    ("jabiim", "saleucami", "border", WITHIN),
    ("jabiim", "boz_pity", "border", WITHIN),
    ("boz_pity", "saleucami", "border", WITHIN),
    ("saleucami", "kessel", "border", WITHIN),
    # Outer Rim: a chain down the western rim, each planet touching the next two.
    ("praesitlyn", "hypori", "border", WITHIN),
    ("praesitlyn", "geonosis", "border", WITHIN),
    ("hypori", "tatooine", "border", WITHIN),
    ("geonosis", "tatooine", "border", WITHIN),
    ("geonosis", "ryloth", "border", WITHIN),
    ("tatooine", "utapau", "border", WITHIN),
    ("ryloth", "utapau", "border", WITHIN),
    ("ryloth", "mustafar", "border", WITHIN),
    ("utapau", "polis_massa", "border", WITHIN),
    ("mustafar", "polis_massa", "border", WITHIN),
    ("mustafar", "dagobah", "border", WITHIN),
    ("polis_massa", "yavin_4", "border", WITHIN),
    ("dagobah", "yavin_4", "border", WITHIN),
]
BETWEEN = "GAP-15: reconstructed border between {sa} and {sb}, which the layout puts side by side"
LANE = (
    "GAP-15: reconstructed hyperspace lane between {sa} and {sb}: a long link across the "
    "galaxy, as the lanes the rulebook names (l.86, l.496) are"
)
CROSSING: list[tuple[str, str, str]] = [
    ("ithor", "corellia", "border"),  # Colonies - Core Worlds
    ("muunilinst", "corellia", "border"),
    ("mygeeto", "ilum", "border"),  # Colonies - Expansion Region
    ("dantooine", "rattatak", "border"),  # Colonies - Mid Rim
    ("toydaria", "corellia", "border"),  # Expansion Region - Core Worlds
    ("malastare", "duro", "border"),
    ("bogden", "byss", "border"),
    ("bogden", "raxus_prime", "border"),  # Expansion Region - Wild Space
    ("alderaan", "nal_hutta", "border"),  # Core Worlds - Mid Rim
    ("cato_neimoidia", "rodia", "border"),
    ("ansion", "mon_calamari", "border"),  # Core Worlds - Wild Space
    ("haruun_kal", "jabiim", "border"),  # Mid Rim - Wild Space
    ("hypori", "ilum", "border"),  # Outer Rim - Expansion Region
    ("tatooine", "toydaria", "border"),
    ("utapau", "malastare", "border"),
    ("polis_massa", "bogden", "border"),
    ("yavin_4", "raxus_prime", "border"),  # Outer Rim - Wild Space
    ("praesitlyn", "kamino", "lane"),  # Outer Rim - Mid Rim, across the north
    ("dagobah", "kessel", "lane"),  # Outer Rim - Wild Space, across the south
]

# GAP-17: the 60 faction cards.  Rulebook 002 gives 30 cards per faction (l.40), three ship
# classes (l.113-126) and the Anakin cards (l.234-240), not the list.
CLASSES = ("fighter", "corvette", "capital")
GAP17 = (
    "GAP-17: rulebook 002 gives 30 cards per faction and three ship classes but no card list; "
    "placeholder: 10 cards of each class per faction, the class in turn; special powers not "
    "transcribed (the card is usable for troops and ships only)."
)
GAP17_ANAKIN = (
    "GAP-17: the rulebook says some cards show Anakin (l.160, l.234-240) but not which; "
    "placeholder: the first card of each class in each faction's deck (3 + 3)."
)
# GAP-18: the 9 Separatist tokens; the rulebook names Count Dooku (2 red dots) and Rune Haako
# (1 dot) in its example (l.504-508); the others are placeholders.
TOKENS: list[tuple[str, str, int, bool]] = [
    ("dooku", "Count Dooku", 2, True),
    ("rune_haako", "Rune Haako", 1, True),
    ("grievous", "General Grievous", 2, False),
    ("nute_gunray", "Nute Gunray", 2, False),
    ("wat_tambor", "Wat Tambor", 1, False),
    ("san_hill", "San Hill", 1, False),
    ("poggle", "Poggle the Lesser", 1, False),
    ("shu_mai", "Shu Mai", 1, False),
    ("passel_argente", "Passel Argente", 1, False),
]
GAP18 = (
    "GAP-18: 9 tokens of 1 or 2 red dots (002 l.40, l.500-508); only Dooku (2) and Rune Haako "
    "(1) are named: placeholder identity and dots, Separatist leaders of the film."
)
# GAP-19 / DEC-35(a): space k converts on d8 >= 13 - k (space 7: 6-8, space 8: 5-8, l.518).
TRACK_SPACES = 12
GAP19 = (
    "GAP-19: the number of spaces and their numbers are printed on the board only; DEC-35(a) "
    "placeholder d8 >= 13 - space, which gives the rulebook's two examples (l.518)."
)


def system_name(planet: str) -> str:
    return SYSTEMS[PLANETS[planet][1]][0]


def edge_items() -> list[Any]:
    items: list[Any] = []
    for a, b, kind, source in STATED:
        items.append({"a": a, "b": b, "kind": kind, "verified": True, "note": source})
    for a, b, kind, why in RECONSTRUCTED:
        note = why.format(system=system_name(a))
        items.append({"a": a, "b": b, "kind": kind, "verified": False, "note": note})
    for a, b, kind in CROSSING:
        text = (LANE if kind == "lane" else BETWEEN).format(sa=system_name(a), sb=system_name(b))
        items.append({"a": a, "b": b, "kind": kind, "verified": False, "note": text})
    return items


def cards() -> list[dict[str, Any]]:
    out = []
    for deck_no, deck in enumerate(("republic", "separatist")):
        for k in range(30):
            kind = CLASSES[k % 3]
            out.append(
                {
                    "id": deck_no * 30 + k,
                    "symbol": kind,
                    "kind": kind,
                    "deck": deck,
                    "verified": False,
                    "note": GAP17,
                }
            )
    return out


def anakin_cards() -> list[dict[str, Any]]:
    return [
        {"card": deck_start + k, "verified": False, "note": GAP17_ANAKIN}
        for deck_start in (0, 30)
        for k in range(3)
    ]


def order66_track() -> list[dict[str, Any]]:
    spaces = []
    for k in range(1, TRACK_SPACES + 1):
        low = 13 - k
        faces = list(range(max(low, 1), 9)) if low <= 8 else []
        stated = k in (7, 8)
        space: dict[str, Any] = {"space": k, "faces": faces, "verified": stated}
        space["note"] = "002 l.518" if stated else GAP19
        spaces.append(space)
    return spaces


def main() -> None:
    territories = []
    for pid, (name, system, pos) in PLANETS.items():
        territories.append(
            {
                "id": pid,
                "name_en": name,
                "name_fr": name,
                "group": system,
                # Planets carry no card: the faction cards are the ``cards`` section; the
                # core's per-territory symbol is required by the format and never read here.
                "card": "infantry",
                "pos": list(pos),
                "verified": False,
                "note": "GAP-15: name and system from the public planet list (Wikipedia), not "
                "checked against the board; French spelling assumed identical.",
            }
        )
    groups = []
    for gid, (en, fr, bonus, stated) in SYSTEMS.items():
        size = sum(1 for p in PLANETS.values() if p[1] == gid)
        group: dict[str, Any] = {"id": gid, "name_en": en, "name_fr": fr, "bonus": bonus}
        group["size"] = size
        if not stated:
            group |= {"bonus_verified": False, "bonus_note": GAP16}
        groups.append(group)
    board = {
        "id": "clonewars",
        "version": 1,
        "name_en": "Star Wars Clone Wars galaxy",
        "name_fr": "RISK Star Wars, Édition Guerre des Clones : la galaxie",
        "groups": groups,
        "territories": territories,
        "edges": edge_items(),
        "jokers": 0,
        "provenance": {
            "sources": [
                {
                    "id": "R002",
                    "what": "RISK Star Wars Édition Guerre des Clones, French rulebook (text)",
                    "where": "shared/seeds/002 rulebook text",
                    "used_for": [
                        "system sizes 10/9/7/7/5/4 (l.74-82)",
                        "Expansion Region bonus 3 (l.307)",
                        "connections of Appendix B and the worked examples (l.86, 431, 496, 498)",
                        "Ithor and Dathomir not adjacent (l.86)",
                        "30 + 30 faction cards, 9 tokens (l.38-41)",
                        "Order 66 spaces 7 and 8 (l.518)",
                        "tokens Count Dooku 2 dots, Rune Haako 1 dot (l.504-508)",
                    ],
                },
                {
                    "id": "W",
                    "what": "Public planet list (Wikipedia: Star Wars Risk: The Clone Wars "
                    "Edition), via shared/reference/boards/clonewars.json",
                    "where": "https://en.wikipedia.org/wiki/Star_Wars_Risk:_The_Clone_Wars_Edition",
                    "used_for": ["42 planet names", "system membership", "bonuses 6/5/3/5/2"],
                },
            ],
            "verified": [
                "System sizes, the Expansion Region bonus and the connections marked verified "
                "are the rulebook's; every other item says on itself how it was reconstructed"
            ],
            "reconstructed": [
                "GAP-15: no public adjacency list or map exists; borders, lanes and positions "
                "are reconstructed by scripts/make_clonewars_board.py (a connected galaxy, "
                "each system a connected patch) and marked verified: false edge by edge"
            ],
        },
        "sections": {
            "cards": cards(),
            "cw_anakin_cards": anakin_cards(),
            "cw_tokens": [
                {
                    "id": tid,
                    "name": name,
                    "dots": dots,
                    "verified": stated,
                    "note": "002 l.504-508" if stated else GAP18,
                }
                for tid, name, dots, stated in TOKENS
            ],
            "cw_order66_track": order66_track(),
        },
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
