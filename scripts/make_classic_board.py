"""One-off converter: researched reference data -> ``boards/classic/board.json``.

Usage (from the project root)::

    .venv/bin/python scripts/make_classic_board.py [reference.json] [out.json]

The reference defaults to ``../shared/reference/boards/classic.json``.  Once written,
``board.json`` is the source of truth; this script records how it was derived (which card deck,
which sea lines, where the diagram positions come from) and is not part of the engine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from risk_core.board import decode_board, normalise_name  # noqa: E402

DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference" / "boards" / "classic.json"
DEFAULT_OUT = ROOT / "boards" / "classic" / "board.json"
RENAMED = " (renamed later boards)"

# Diagram positions on a 1000 x 600 world map (x east, y south), placed by eye from the
# geography of the printed map; the board has no coordinates of its own.
POSITIONS: dict[str, tuple[int, int]] = {
    "alaska": (60, 90),
    "northwest_territory": (170, 85),
    "greenland": (340, 50),
    "alberta": (150, 150),
    "ontario": (220, 160),
    "quebec": (290, 160),
    "western_united_states": (150, 225),
    "eastern_united_states": (240, 235),
    "central_america": (170, 300),
    "venezuela": (250, 355),
    "peru": (245, 435),
    "brazil": (320, 410),
    "argentina": (265, 515),
    "iceland": (420, 110),
    "scandinavia": (505, 95),
    "great_britain": (430, 170),
    "northern_europe": (500, 175),
    "western_europe": (440, 245),
    "southern_europe": (515, 240),
    "ukraine": (585, 150),
    "north_africa": (460, 330),
    "egypt": (545, 310),
    "east_africa": (590, 395),
    "congo": (530, 425),
    "south_africa": (540, 505),
    "madagascar": (625, 500),
    "ural": (670, 130),
    "siberia": (730, 90),
    "yakutsk": (815, 70),
    "irkutsk": (800, 140),
    "kamchatka": (905, 80),
    "mongolia": (820, 200),
    "japan": (925, 210),
    "china": (770, 255),
    "afghanistan": (660, 210),
    "middle_east": (610, 295),
    "india": (710, 315),
    "siam": (790, 335),
    "indonesia": (800, 425),
    "new_guinea": (900, 405),
    "western_australia": (830, 505),
    "eastern_australia": (920, 505),
}

# English names printed on later Hasbro boards (reference "known_variants"), kept as aliases so
# players using either edition's names are understood.
LATER_ENGLISH_NAMES = {
    "quebec": "Eastern Canada",
    "ukraine": "Russia",
    "congo": "Central Africa",
    "siam": "Southeast Asia",
}

GROUP_NAMES_EN = {"australia": "Australia"}  # the reference says "Australia (Oceania)"

# Source descriptions reworded where the reference kept research-log shorthand.
SOURCE_FIXES: dict[str, dict[str, Any]] = {
    "S3": {"where": "a public GitHub file (repository name not recorded)"},
    "S6": {
        "where": "https://game-mickey-load.blogspot.com/2008/01/risk-global-domination.html "
        "(mirror of the Wikipedia text)"
    },
    "S7": {
        "where": "public GitHub file Carte.java, package risk.app.metier "
        "(repository name not recorded)"
    },
    "S9": {
        "where": "public GitHub files CardStack.java and Deck.java (repository names not recorded)",
        "used_for": [
            "card deck 'deck_us_hasbro' (Siberia taken as cavalry as in one listing, which makes "
            "the deck 14/14/14; two other listings say infantry, giving 15/13/14)"
        ],
    },
}


def aliases(t: dict[str, Any]) -> list[str]:
    """French variants and later renames, minus those the lookup already matches."""
    keys = {normalise_name(n) for n in (t["id"], t["name"], t["name_fr"])}
    out: list[str] = []
    candidates = [v.removesuffix(RENAMED) for v in t["name_fr_variants"]]
    candidates += [LATER_ENGLISH_NAMES[t["id"]]] if t["id"] in LATER_ENGLISH_NAMES else []
    for name in candidates:
        if normalise_name(name) not in keys:
            keys.add(normalise_name(name))
            out.append(name)
    return out


def pair_key(pair: list[str]) -> tuple[str, ...]:
    return tuple(sorted(pair))


def provenance(ref: dict[str, Any]) -> dict[str, Any]:
    rulebooks = [
        {
            "id": "R004",
            "what": "Classic Risk rulebook (French), as catalogued in shared/rules/CATALOGUE.md",
            "where": "shared/seeds/004 rulebook text",
            "used_for": [
                "continent sizes 4/4/6/7/9/12 (l.193-203, CL-01)",
                "continent bonuses 2/2/3/5/5/7 (l.63-85, CL-09)",
                "Alaska–Kamchatka sea line (l.111, CL-15)",
                "42 territory cards with 3 symbols and 2 jokers (l.15-25, CL-01)",
            ],
        },
        {
            "id": "R003",
            "what": "Risk 2008 rulebook (French), same 42-territory world map",
            "where": "shared/seeds/003 rulebook text",
            "used_for": [
                "Brazil borders Venezuela, Peru, Argentina; Brazil–North Africa sea line (l.135)",
                "Oceania = New Guinea, Indonesia, Eastern and Western Australia (l.137)",
                "Siam–Indonesia sea line (l.355)",
                "Indonesia–Siam–India–Afghanistan–Ukraine chain (l.570)",
            ],
        },
    ]
    sources = [
        {"id": s["id"], "what": s["what"], "where": s["where"], "used_for": s["used_for"]}
        | SOURCE_FIXES.get(s["id"], {})
        for s in ref["sources"]
    ]
    probable = ", ".join("–".join(p) for p in ref["sea_lines"]["probable"])
    return {
        "sources": rulebooks + sources,
        "verified": [
            "42 territories in 6 continents: Océanie 4, Amérique du Sud 4, Afrique 6, Europe 7, "
            "Amérique du Nord 9, Asie 12 (R004 l.193-203)",
            "Continent bonuses: Océanie 2, Amérique du Sud 2, Afrique 3, Europe 5, "
            "Amérique du Nord 5, Asie 7 (R004 l.63-85)",
            "Alaska–Kamchatka is a sea line (R004 l.111)",
            "42 territory cards, 3 symbols, 2 jokers (R004 l.15-25)",
            "83 adjacency pairs: S1 and S3 identical; the discrepancies of S2, S4 and S5 are "
            "explained (S6 confirms the East Africa–Middle East route)",
            "Group membership and bonuses agree across S1, S3, S4, S5",
            "Rulebook examples hold on this graph: Brazil–Venezuela/Peru/Argentina borders, "
            "Brazil–North Africa and Siam–Indonesia sea lines, Indonesia–Siam–India–"
            "Afghanistan–Ukraine chain, North Africa–Egypt, East Africa–Egypt (R003)",
        ],
        "reconstructed": [
            "Diagram positions (pos) were placed by hand on a 1000 x 600 map from the world "
            "geography; the board prints no coordinates",
            "French names come from French hobby code (S3, S7) and the rulebook texts (S10); "
            "variants and later-board renames are kept as aliases",
            "Card symbols use the deck_fr_eu distribution (S7, S8; 14/14/14), not the Hasbro US "
            "deck (S9)",
            "Edge kinds: a pair is 'sea' when the reference lists it as a sea line, derived from "
            "geography (island or ocean/strait crossing), not read off a physical board",
            "English name 'Australia' for the group the French board calls Océanie",
        ],
        "unverified": [
            *ref["gaps"],
            f"Sea lines marked 'probable' in the reference are inferred: {probable}",
            "Whether Northern Europe–Scandinavia is a sea line is unknown; kept as a border",
        ],
    }


def convert(ref: dict[str, Any]) -> dict[str, Any]:
    sea = {pair_key(p) for kind in ("definite", "probable") for p in ref["sea_lines"][kind]}
    deck = ref["cards"]["deck_fr_eu"]
    symbol = {tid: s for s in ("infantry", "cavalry", "artillery") for tid in deck[s]}
    by_id = {t["id"]: t for t in ref["territories"]}
    territories = []
    for g in ref["groups"]:  # group by group, so card ids follow the continents
        for tid in g["territories"]:
            t = by_id[tid]
            territories.append(
                {
                    "id": tid,
                    "name_en": t["name"],
                    "name_fr": t["name_fr"],
                    "aliases": aliases(t),
                    "group": g["id"],
                    "card": symbol[tid],
                    "pos": list(POSITIONS[tid]),
                }
            )
    return {
        "id": "classic",
        "version": 1,
        "name_en": "Risk — classic world map",
        "name_fr": ref["name_fr"],
        "groups": [
            {
                "id": g["id"],
                "name_en": GROUP_NAMES_EN.get(g["id"], g["name"]),
                "name_fr": g["name_fr"],
                "bonus": g["bonus"],
                "size": g["expected_count"],
            }
            for g in ref["groups"]
        ],
        "territories": territories,
        "edges": [
            [a, b, "sea" if pair_key([a, b]) in sea else "border"] for a, b in ref["adjacency"]
        ],
        "jokers": ref["cards"]["wild_cards"],
        "provenance": provenance(ref),
    }


def render(board: dict[str, Any]) -> str:
    """Indented JSON, but one line per territory and per edge so diffs stay readable."""
    lines = ["{"]
    keys = list(board)
    for n, key in enumerate(keys):
        value = board[key]
        comma = "," if n < len(keys) - 1 else ""
        if key in ("groups", "territories", "edges"):
            rows = [json.dumps(item, ensure_ascii=False) for item in value]
            body = ",\n".join(f"    {r}" for r in rows)
            lines.append(f'  "{key}": [\n{body}\n  ]{comma}')
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            lines.append(f'  "{key}": {text}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    reference = Path(argv[0]) if argv else DEFAULT_REFERENCE
    out = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    text = render(convert(json.loads(reference.read_text(encoding="utf-8"))))
    decode_board(text.encode())  # refuse to write a board the engine would reject
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
