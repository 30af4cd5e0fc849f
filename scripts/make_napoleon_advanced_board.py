"""Write ``boards/napoleon/advanced/``: the Napoléon map plus the advanced game's data.

Usage (from the project root)::

    .venv/bin/python scripts/make_napoleon_advanced_board.py

``boards/napoleon/board.json`` and ``missions.json`` are hashed into every stored basic game, so
they are never edited for the advanced game: this script copies them into a board of its own
(id ``napoleon-advanced``) and adds the advanced sections registered by
``risk_core/rulesets/napoleon_advanced_data.py``.  The copy differs from the basic board only
where the rules audit asked (the Mediterranean note, below) and in the Route des Indes bonus,
which the advanced game needs as a number; ``tests/test_rules_napoleon_advanced_board.py``
checks that territories, empires, edges and sea-zone adjacency are otherwise the basic board's.
Every item the rulebooks (000, 001) do not state is written ``verified: false`` with the
reasoning (GAP-07..11).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASIC = ROOT / "boards" / "napoleon"
OUT = BASIC / "advanced"

BOARD_ID = "napoleon-advanced"

# The audit (issue 17): the basic board's notes for the two Mediterranean end zones claim that
# R000 l.975 shows they do not touch.  It does not: the worked landing names all three zones the
# player controls, which is just as legal if Occidentale and Orientale touched.  The chain stays
# a reconstruction of the map (GAP-09); the note now says so instead of citing evidence.
MEDITERRANEAN_NOTES = {
    "mediterranee_occidentale": (
        "Andalousie coast and Adriatique neighbour attested (R000 l.975, R001 l.301); "
        "reconstructed from the map of Europe (GAP-09): its neighbour zone Atlantique "
        "Méridional and its 7 other coasts, the zones taken as a chain Baltique–Nord–Atlantique "
        "Ouest–Atlantique Méridional–Occidentale–Adriatique–Orientale–Noire. Whether it also "
        "touches the Orientale is not known: the l.975 landing names the Occidentale, the "
        "Adriatique and the Orientale because the player controls all three, which would be "
        "as legal if the two end zones touched, so it is no evidence either way."
    ),
    "mediterranee_orientale": (
        "Égypte coast and Adriatique neighbour attested (R000 l.975, R001 l.301); reconstructed "
        "from the map of Europe (GAP-09): its neighbour zone Mer Noire and its 3 other coasts, "
        "the zones taken as a chain Baltique–Nord–Atlantique Ouest–Atlantique "
        "Méridional–Occidentale–Adriatique–Orientale–Noire. Whether it also touches the "
        "Occidentale is not known (R000 l.975 is no evidence either way)."
    ),
}
INDES_BONUS = 3
INDES_NOTE = (
    "GAP-09: printed on the board's Charte des Routes Maritimes (R000 l.696), not in the "
    "rulebooks. Placeholder: 3, one more than the Amériques' 2 (R000 l.700) for a route of 5 "
    "zones instead of 3, as empires of 4-5 territories pay more than those of 3."
)

GAP10 = (
    "GAP-10: the rulebooks say 'des jetons Fortification' (R000 l.64) and that none can be built "
    "when no token is free (l.923) but not how many there are. Placeholder: no limit (null), as "
    "the catalogue recommends until the count is read from the box."
)
GAP11 = (
    "GAP-11: the Époque token exists (R000 l.65, l.870) but the years on its track are not in "
    "the rulebooks. Placeholder: two years a round, ending in 1811, the year of the map."
)
STARTING_CARDS = {3: (0, 0, 2), 4: (0, 0, 1, 2), 5: (0, 0, 1, 1, 2), 6: (0, 0, 1, 1, 2, 2)}
STARTING_NOTE = "R000 l.846-853, R001 l.159-166: the table of cards by place in the turn order."

# GAP-07: which effect each card shows.  The rulebooks give the six phase symbols (R000
# l.766-790), the Renfort card's +4 when traded (l.905) and that cards can move epidemics
# (l.1008); the rest is reconstructed as a cycle through the windows, each with one effect of the
# kind its window allows, so every window and effect occurs.
WINDOW_EFFECTS: list[tuple[str, str, int]] = [
    ("reinforce", "regiments", 2),
    ("own_combat", "attack_bonus", 1),
    ("other_combat", "defence_bonus", 1),
    ("any_combat", "defence_bonus", 1),
    ("maneuver", "extra_maneuver", 1),
    ("reinforce", "ships", 2),
    ("special", "move_epidemic", 1),
    ("any_combat", "attack_bonus", 1),
]
RENFORT = "ile_de_france"
GAP07 = (
    "GAP-07: the rulebooks give the phase symbols (R000 l.766-790) but no card's effect. "
    "Placeholder: cards take the windows and effects in turn through a cycle of eight, in "
    "board order, so every window and every kind of effect occurs."
)
RENFORT_NOTE = (
    "GAP-07: the Renfort card adds 4 regiments when traded in a set (R000 l.905, R001 l.229); "
    "which territory it shows is not stated. Placeholder: Île de France, the capital of the "
    "French Empire."
)

# GAP-08: the VP printed on each mission; rulebooks state only that missions score VP.
RANK_VP = {"caporal": 1, "capitaine": 2, "general": 3, "empereur": 4}
GAP08_VP = (
    "GAP-08: each mission card prints its VP (R000 l.726, R001 l.81) but the rulebooks list "
    "none. Placeholder: the rank's place in the ladder, Caporal 1 to Empereur 4."
)
GAP08_EMPIRE = (
    "GAP-08: Empire missions exist and give an immediate and sometimes a permanent bonus "
    "(R000 l.728-730, R001 l.83-85) but no card is printed. Reconstructed: hold an empire "
    "(VP = its bonus, immediate = 2 regiments, permanent +1 for the 7-9 territory empires), or "
    "a maritime route (VP = its bonus)."
)
RANK_BY_SIZE = {3: "caporal", 4: "capitaine", 5: "general", 7: "empereur", 9: "empereur"}

# GAP-12: the campaign's set-up is a diagram (booklet p.14, R000 l.1105, R001 l.440) not in the
# text.  Reconstructed from the political map of 1796 (HIST): France with Belgium and Holland,
# the Army of Italy in Provence with Bonaparte; Britain with the strongest fleets and 5 regiments
# in each home territory (its defence force, NAP-CAMP-13); Austria with Lombardy, Tuscany and
# the Adriatic coast; Prussia with Saxony; Russia; every other territory the passive neutral's.
GAP12 = (
    "GAP-12: the set-up diagram (booklet p.14, R000 l.1105, R001 l.440) is not in the text; "
    "reconstructed from the 1796 political map, each army's regiments a placeholder."
)
CAMPAIGN: list[dict[str, Any]] = [
    {
        "colour": "blue",
        "role": "player",
        "name_en": "French",
        "regiments": {
            "ile_de_france": 4,
            "nord_picardie": 3,
            "aquitaine": 2,
            "bretagne": 2,
            "provence": 6,
            "lorraine_alsace": 4,
            "hollande": 2,
        },
        "ships": {"mediterranee_occidentale": 2},
        "generals": {"provence": 1},
    },
    {
        "colour": "red",
        "role": "player",
        "name_en": "English",
        "regiments": {"angleterre": 6, "ecosse": 5, "irlande": 5},
        "ships": {"mer_du_nord": 4, "atlantique_ouest_europeen": 4, "atlantique_meridional": 3},
        "admirals": {"atlantique_meridional": 1},
    },
    {
        "colour": "white",
        "role": "active",
        "name_en": "Austrians",
        "regiments": {
            "pays_austro_bohemiens": 5,
            "galicie": 2,
            "hongrie": 3,
            "transylvanie": 2,
            "royaume_d_italie": 4,
            "provinces_illyriennes": 2,
            "toscane_etats_pontificaux": 2,
        },
        "generals": {"royaume_d_italie": 1},
    },
    {
        "colour": "black",
        "role": "active",
        "name_en": "Prussians",
        "regiments": {
            "pomeranie_brandebourg_silesie": 4,
            "prusse": 3,
            "duche_de_varsovie": 2,
            "saxe_westphalie": 2,
        },
    },
    {
        "colour": "green",
        "role": "active",
        "name_en": "Russians",
        "regiments": {
            "grande_russie": 5,
            "russie_occidentale": 3,
            "provinces_baltiques": 2,
            "finlande": 2,
            "ukraine": 2,
            "russie_du_nord": 2,
            "caucase": 2,
        },
        "ships": {"mer_noire": 2},
    },
]
PASSIVE = "yellow"

# NAP-CAMP-14 (R000 l.1151-1219, R001 l.486-538): the rulebooks' VP table.
OBJECTIVES_NOTE = "R000 l.1151-1219, R001 l.486-538 (NAP-CAMP-14)."
OBJECTIVES: list[tuple[str, str, str, int, str]] = [
    *[
        (side, "control", target, vp, "")
        for side, own in (("french", "ile_de_france"), ("english", "angleterre"))
        for target, vp in ((own, 1), ("maritime_supremacy", 1), ("egypte", 2))
    ],
    ("french", "ally", "allies", 1, ""),
    ("english", "ally", "allies", 1, ""),
    ("french", "invasion", "egypte", 5, "before_1809"),
    ("french", "invasion", "angleterre", 10, ""),
    ("french", "invasion", "pays_austro_bohemiens", 5, "allied_to_english:white"),
    ("french", "invasion", "prusse", 5, "allied_to_english:black"),
    ("french", "invasion", "grande_russie", 10, "allied_to_english:green"),
    ("english", "invasion", "ile_de_france", 10, ""),
    ("english", "invasion", "pays_austro_bohemiens", 5, "allied_to_french:white"),
    ("english", "invasion", "prusse", 5, "allied_to_french:black"),
    ("english", "invasion", "grande_russie", 10, "allied_to_french:green"),
]
MARITIME_NOTE = (
    "R000 l.1167 names 'Suprématie maritime' without defining it (GAP-14); DEC-32(b) reads it "
    "as strictly more sea zones than the opponent at the start of your turn."
)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def sea_zones(zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for z in zones:
        z = dict(z)
        if z["id"] in MEDITERRANEAN_NOTES:
            z["note"] = MEDITERRANEAN_NOTES[z["id"]]
        out.append(z)
    return out


def routes(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for r in rows:
        r = dict(r)
        if r["id"] == "indes":
            r.update(bonus=INDES_BONUS, bonus_verified=False, bonus_note=INDES_NOTE)
        out.append(r)
    return out


def card_effects(territories: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for i, t in enumerate(territories):
        if t["id"] == RENFORT:
            row = {"territory": t["id"], "window": "special", "effect": "renfort", "amount": 4}
            out.append({**row, "verified": False, "note": RENFORT_NOTE})
            continue
        window, effect, amount = WINDOW_EFFECTS[i % len(WINDOW_EFFECTS)]
        row = {"territory": t["id"], "window": window, "effect": effect, "amount": amount}
        out.append({**row, "verified": False, "note": GAP07})
    return out


def empire_missions(board: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for g in board["groups"]:
        rank = RANK_BY_SIZE.get(g["size"], "general")
        text_fr, text_en = f"Contrôler l'empire {g['name_fr']}", f"Hold the whole {g['name_en']}"
        permanent = 1 if g["size"] >= 7 else 0
        out.append(
            {
                "id": f"empire_{g['id']}",
                "rank": rank,
                "text_fr": text_fr,
                "text_en": text_en,
                "test": "empire",
                "target": g["id"],
                "vp": g["bonus"],
                "immediate": 2,
                "permanent": permanent,
                "verified": False,
                "note": GAP08_EMPIRE,
            }
        )
    for r, rank in zip(routes(board["routes"]), ("capitaine", "general"), strict=True):
        out.append(
            {
                "id": f"route_{r['id']}",
                "rank": rank,
                "text_fr": f"Contrôler la {r['name_fr']}",
                "text_en": f"Hold the {r['name_en']}",
                "test": "route",
                "target": r["id"],
                "vp": r["bonus"],
                "immediate": 2,
                "verified": False,
                "note": GAP08_EMPIRE,
            }
        )
    return out


def campaign(board: dict[str, Any]) -> list[dict[str, Any]]:
    """GAP-12: the six armies of 1796, the passive neutral holding every territory left."""
    held = {t for a in CAMPAIGN for t in a["regiments"]}
    rest = {t["id"]: 2 for t in board["territories"] if t["id"] not in held}
    passive = {"colour": PASSIVE, "role": "passive", "name_en": "Neutrals", "regiments": rest}
    return [{**a, "verified": False, "note": GAP12} for a in [*CAMPAIGN, passive]]


def objectives() -> list[dict[str, Any]]:
    out = []
    for side, kind, target, vp, condition in OBJECTIVES:
        row: dict[str, Any] = {"side": side, "kind": kind, "target": target, "vp": vp}
        if condition:
            row["condition"] = condition
        if target == "maritime_supremacy":
            row.update(verified=False, note=MARITIME_NOTE)
        else:
            row["note"] = OBJECTIVES_NOTE
        out.append(row)
    return out


def main() -> None:
    board = load(BASIC / "board.json")
    missions = load(BASIC / "missions.json")
    prov = dict(board["provenance"])
    prov["reconstructed"] = [
        *prov.get("reconstructed", []),
        "Copied from boards/napoleon by scripts/make_napoleon_advanced_board.py; the advanced "
        "sections (nap_*) record the data the rulebooks lack item by item (GAP-07..11)",
    ]
    prov["unverified"] = [
        "Card effects and phase windows (GAP-07), mission VP and Empire missions (GAP-08), the "
        "Route des Indes bonus (GAP-09), the fortification pool (GAP-10), the time track (GAP-11)"
    ]
    out = {
        **board,
        "id": BOARD_ID,
        "name_en": board["name_en"] + " (advanced game)",
        "name_fr": board["name_fr"] + " (règles avancées)",
        "sea_zones": sea_zones(board["sea_zones"]),
        "routes": routes(board["routes"]),
        "provenance": prov,
        "sections": {
            "nap_fortifications": {"tokens": None, "verified": False, "note": GAP10},
            "nap_time_track": [
                {"round": r, "year": 1801 + 2 * r, "verified": False, "note": GAP11}
                for r in range(1, 6)
            ],
            "nap_starting_cards": [
                {"players": n, "cards": list(c), "note": STARTING_NOTE}
                for n, c in STARTING_CARDS.items()
            ],
            "nap_card_effects": card_effects(board["territories"]),
            "nap_mission_vp": [
                {"mission": m["id"], "vp": RANK_VP[m["rank"]], "verified": False, "note": GAP08_VP}
                for m in missions["missions"]
            ],
            "nap_empire_missions": empire_missions(board),
            "nap_campaign_1796": campaign(board),
            "nap_campaign_objectives": objectives(),
        },
    }
    OUT.mkdir(exist_ok=True)
    text = json.dumps(out, ensure_ascii=False, indent=1) + "\n"
    (OUT / "board.json").write_text(text, encoding="utf-8")
    (OUT / "missions.json").write_bytes((BASIC / "missions.json").read_bytes())
    (OUT / "names.json").write_bytes((BASIC / "names.json").read_bytes())


if __name__ == "__main__":
    main()
