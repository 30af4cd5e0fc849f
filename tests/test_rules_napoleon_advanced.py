"""NAP-ADV-13..48 and DEC-23..30 in play: positions set from scenario files, moves through the
command line (``risk``) where it can express them, the engine otherwise.  Each test cites the
rule it checks; the rulebooks' worked examples (000 l.975 landing, l.997 general maneuver) are
played as written."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import click
import pytest

import risk_core as rc
from risk_cli.napoleon_1796_moves import EVENT_TEXT as CAMPAIGN_TEXT
from risk_cli.napoleon_advanced_moves import EVENT_TEXT as ADVANCED_TEXT
from risk_cli.render import Names
from risk_core.model import Attack, Defend, EndTurn, Place, Trade
from risk_core.rulesets.napoleon_advanced_state import (
    MoveAdmiral,
    MoveFleet,
    NavalAttack,
    PlayCard,
    Ransom,
)
from tests.napoleon_advanced_kit import (
    BOARD,
    IDS,
    Run,
    T,
    card_of,
    cli_game,
    engine_game,
    error,
    events,
    fam,
    members,
    out,
    step,
    view,
)

MEDITERRANEAN = ["mediterranee_occidentale", "mediterranee_adriatique", "mediterranee_orientale"]
FR = members("empire_francais")  # 9 territories: 8 of them hold no whole empire


def owned(ann: list[str], cy: list[str] | None = None) -> dict[str, int]:
    """Ann (0) holds ``ann``, Cy (2) ``cy`` (default: Scotland), Bob (1) the rest."""
    out = {t: 0 for t in ann}
    out.update({t: 2 for t in cy or ["ecosse"]})
    return out


def position(ann: list[str], cy: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    return {"owners": owned(ann, cy), "default_owner": 1, **kw}


def generals_attack(
    risk: Run,
    tmp_path: Path,
    held: list[str],
    generals: dict[str, int],
    armies: dict[str, int],
    dice: list[int],
    options: dict[str, Any] | None = None,
) -> str:
    """A game in Ann's attacks: ``held`` hers (a ``~name`` Cy's, the rest Bob's), with
    ``generals`` and ``armies`` placed and ``dice`` scripted."""
    ann = [t for t in held if not t.startswith("~")]
    cy = [t[1:] for t in held if t.startswith("~")]
    return cli_game(
        risk,
        tmp_path,
        **position(ann, cy=cy or None, family={"generals": generals}),
        armies=armies,
        phase="attack",
        dice=dice,
        options=options or {},
    )


def kinds(evs: list[Any]) -> list[str]:
    return [type(e).__name__ for e in evs]


# ------------------------------------------------------------------ the turn and the census
def test_nap_adv_18_19_census_with_zones_and_routes(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-18/19: (territories + zones) // 3 plus empires and maritime routes: 10
    territories, the 3 Amériques zones and the United Kingdom give 13 // 3 + 2 + 2 = 8."""
    ann = [*members("royaume_uni"), *FR[:7]]
    ships = {z: {"Ann": 1} for z in ("atlantique_ouest_europeen", "mer_du_nord", "mer_baltique")}
    game = cli_game(
        risk, tmp_path, **position(ann, cy=["syrie"], family={"ships": ships}), phase="reinforce"
    )
    v = view(risk, game)
    assert v["reserve"] == 13 // 3 + 2 + 2


def test_nap_adv_21_fortification_income(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-21: +1 for each fortified territory held at the census, placed there (one
    built now pays from the next turn, since the census is already counted)."""
    ann = FR[:8]
    fam_table = {"fortifications": [ann[0], ann[1], "syrie"]}
    game = cli_game(risk, tmp_path, **position(ann, cy=["syrie"], family=fam_table))
    started = next(e for e in events(risk, game) if e["type"] == "turn_started")
    assert started["income"] == 3 + 2  # max(3, 8 // 3) + 2 forts held
    assert view(risk, game)["reserve"] == 3  # the forts' 2 placed in them
    risk("convert", game, "fortification", ann[2])
    assert view(risk, game)["reserve"] == 2  # paid now, produces next turn


def test_nap_adv_20_fixed_trades_and_card_territories(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-20: 3 artillery are worth 8; +2 on each traded card's territory you hold."""
    arts = [t for t in IDS if BOARD_SYMBOL(t) == "artillery"][:3]
    ann = [arts[0], *IDS[:8]]
    game = cli_game(risk, tmp_path, **position(ann, hands={"Ann": arts}))
    before = view(risk, game)
    risk("trade", game, *arts)
    after = view(risk, game)
    assert after["reserve"] == before["reserve"] + 8
    assert after["territories"][arts[0]]["armies"] == 4  # 2 + the card's 2


def BOARD_SYMBOL(territory: str) -> str:
    from tests.napoleon_advanced_kit import BOARD

    return BOARD.card_symbols[card_of(territory)]


def test_nap_adv_20_renfort_adds_four_and_forced_trade(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-20 (000 l.905): the Renfort card adds 4 regiments to its set (here with two
    jokers: one of each, 10); 5 cards must be traded before placing or converting."""
    five = ["ile_de_france", "castille", "portugal", "joker", "joker"]
    game = cli_game(risk, tmp_path, **position(FR[:8], hands={"Ann": five}))
    assert error(risk, "place", game, FR[0], "1") == "must_trade"
    assert error(risk, "convert", game, "general", FR[0]) == "must_trade"
    before = view(risk, game)
    risk("trade", game, "ile_de_france", "joker", "joker")
    after = view(risk, game)
    assert after["reserve"] == before["reserve"] + 10 + 4
    assert after["territories"]["ile_de_france"]["armies"] == 4  # its own +2, held


def test_nap_adv_22_conversions(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-22/23: regiments 1:1 into ships (next to own coasts), a general, an admiral
    (with ships) and a fortification; each shown by `risk show`."""
    ann = ["angleterre", "ecosse", "irlande", *IDS[:6]]
    game = cli_game(risk, tmp_path, **position(ann, cy=["syrie"]), dice=[])
    assert error(risk, "convert", game, "admiral", "mer_du_nord") == "admiral_without_ships"
    risk("convert", game, "ship", "North Sea", "2")
    risk("convert", game, "admiral", "mer_du_nord")
    risk("convert", game, "general", "angleterre")
    v = view(risk, game)
    zone = next(z for z in v["sea_zones"] if z["id"] == "mer_du_nord")
    assert zone["ships"] == {"0": 2} and zone["admirals"] == {"0": 1} and zone["controller"] == 0
    assert v["generals"] == {"angleterre": 1}
    assert error(risk, "convert", game, "ship", "mer_noire") == "not_coastal"
    assert error(risk, "convert", game, "fortification", "syrie") == "not_owner"
    text = risk("show", game).stdout
    assert "North Sea: " in text and "held by" in text


def test_nap_adv_47_conversion_limits(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-03/47: 3 generals at most; one fortification a territory; none where an
    epidemic is."""
    ann = IDS[:12]
    table = {"generals": {ann[0]: 3}, "fortifications": [ann[1]], "epidemics": {ann[2]: 1}}
    game = cli_game(risk, tmp_path, **position(ann, family=table))
    assert error(risk, "convert", game, "general", ann[3]) == "too_many_generals"
    assert error(risk, "convert", game, "fortification", ann[1]) == "already_fortified"
    assert error(risk, "convert", game, "fortification", ann[2]) == "epidemic_here"
    assert error(risk, "convert", game, "ship", "mer_du_nord", "0") == "bad_count"


# ------------------------------------------------------------------ naval combat
def test_nap_adv_27_forced_naval_combat_comes_first(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-27: ships built among another player's must fight there, all of them, before
    any land offensive, maneuver or the end of the turn."""
    ann = ["angleterre", "irlande", "ile_de_france", *IDS[:5]]
    table = {"ships": {"mer_du_nord": {"Bob": 1}}}
    game = cli_game(risk, tmp_path, **position(ann, family=table), dice=[6, 6, 1, 1, 1, 1])
    reserve = view(risk, game)["reserve"]
    risk("convert", game, "ship", "mer_du_nord", "3")
    risk("place", game, "angleterre", str(reserve - 3))
    assert view(risk, game)["forced_naval_combat"] == ["mer_du_nord"]
    assert error(risk, "attack", game, "angleterre", "nord_picardie") == "naval_combat_pending"
    assert error(risk, "end", game) == "naval_combat_pending"
    risk("naval-attack", game, "mer_du_nord", "mer_du_nord", "--until-conquer")
    v = view(risk, game)
    zone = next(z for z in v["sea_zones"] if z["id"] == "mer_du_nord")
    assert zone["ships"] == {"0": 3} and not v["forced_naval_combat"]
    battle = [e for e in events(risk, game) if e["type"] == "naval_battle"][0]
    assert len(battle["attack"]) == 3 and len(battle["defence"]) == 1  # every ship fights


def test_nap_adv_28_naval_attack_and_empty_zone(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-28: attack an adjacent zone, always leaving 1 ship; an empty zone is entered
    the same way."""
    table = {"ships": {"mer_du_nord": {"Ann": 4}, "mer_baltique": {"Bob": 1}}}
    game = cli_game(risk, tmp_path, **position(FR[:8], family=table), phase="attack")
    assert error(risk, "naval-attack", game, "mer_du_nord", "mer_noire") == "not_adjacent"
    risk("naval-attack", game, "mer_du_nord", "atlantique_ouest_europeen", "--move", "9")
    zones = {z["id"]: z for z in view(risk, game)["sea_zones"]}
    assert zones["atlantique_ouest_europeen"]["ships"] == {"0": 3}  # 1 stays behind
    assert error(risk, "naval-attack", game, "mer_du_nord", "mer_baltique") == "not_enough_ships"


def test_nap_adv_30_admiral_bonus_and_dec_23_capture(tmp_path: Path) -> None:
    """NAP-ADV-30: an admiral raises the highest die at sea; NAP-ADV-24: an admiral whose
    ships are all sunk is captured, 1 VP changing hands."""
    table = {
        "ships": {"mer_du_nord": {"Ann": 3}, "mer_baltique": {"Bob": 1}},
        "admirals": {"mer_baltique": {"Bob": 1}},
    }
    state, _ = engine_game(**position(FR[:8], family=table), phase="attack", dice=[6, 4, 4])
    state, evs = step(state, NavalAttack(seat=0, origin="mer_du_nord", target="mer_baltique"))
    battle = evs[0]
    assert battle.defence_bonus == (1,) and battle.defence == (5,)  # type: ignore[attr-defined]
    assert battle.defender_losses == 1 and battle.defender_admirals_taken == 1  # type: ignore[attr-defined]
    f = fam(state)
    assert f.vp[0] == 1 and f.vp[1] == -1 and f.captured_admirals[1][0] == 1
    assert f.ships[T_ZONE("mer_baltique")][0] == 2  # the winners sail in


def T_ZONE(zone: str) -> int:
    from tests.napoleon_advanced_kit import BOARD

    return [z.id for z in BOARD.sea_zones].index(zone)


def test_nap_adv_27_no_naval_combat_after_land(tmp_path: Path) -> None:
    """NAP-ADV-27: every naval combat comes before the first land offensive of the turn."""
    ann = ["angleterre", "irlande"]
    table = {"ships": {"mer_du_nord": {"Ann": 3}, "mer_baltique": {"Bob": 1}}}
    armies = {"angleterre": 6}
    state, _ = engine_game(
        **position(ann, family=table, armies=armies), phase="attack", dice=[6, 1]
    )
    state, _ = step(state, Attack(seat=0, origin="angleterre", target="nord_picardie", dice=1))
    with pytest.raises(rc.RuleError) as e:
        step(state, NavalAttack(seat=0, origin="mer_du_nord", target="mer_baltique"))
    assert e.value.code == "naval_after_land"


# ------------------------------------------------------------------ land combat
def test_nap_adv_36_rulebook_landing_andalousie_egypte(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-36 (000 l.975, 001 l.301): yellow holds Andalousie with 6 regiments and the
    Occidentale, Adriatique and Orientale with 2 ships each: Égypte is attacked as if it
    shared a border with Andalousie."""
    ships = {z: {"Ann": 2} for z in MEDITERRANEAN}
    game = cli_game(
        risk,
        tmp_path,
        **position(["andalousie"], cy=["syrie"], family={"ships": ships}),
        armies={"andalousie": 6, "egypte": 1},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    near = out(risk, "near", game, "andalousie")["neighbours"]
    edges = {n["territory"]: n["edge"] for n in near}
    landings = {t for t, e in edges.items() if e == "landing"}
    assert "egypte" in landings
    assert landings == {t for t in edges if T(t) not in BOARD.neighbours[T("andalousie")]}
    lines = risk("near", game, "andalousie").stdout.splitlines()
    assert any(line.split()[0] == "Egypt" and line.endswith("landing") for line in lines[2:])
    risk("attack", game, "andalousie", "egypte", "--move", "3")
    v = view(risk, game)
    assert v["territories"]["egypte"]["owner"] == 0
    game2 = cli_game(
        risk,
        tmp_path,
        **position(["andalousie"], family={"ships": {z: {"Ann": 2} for z in MEDITERRANEAN[:2]}}),
        armies={"andalousie": 6},
        phase="attack",
    )
    assert error(risk, "attack", game2, "andalousie", "egypte") == "not_adjacent"


def test_nap_adv_33_34_general_and_fortification_bonuses(tmp_path: Path) -> None:
    """NAP-ADV-33/34 (000 l.955-967): 2 defending generals and a fortification give +2 on the
    highest and +1 on the second; the attacker's general +1 on its highest."""
    table = {"generals": {"angleterre": 1, "irlande": 2}, "fortifications": ["irlande"]}
    state, _ = engine_game(
        **position(["angleterre"], cy=["irlande"], family=table),
        armies={"angleterre": 5, "irlande": 3},
        phase="attack",
        dice=[5, 4, 3, 4, 3],
    )
    state, evs = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=3))
    battle = next(e for e in evs if type(e).__name__ == "BattleFought")
    assert battle.attack_dice.ranked == (1,)  # type: ignore[attr-defined]
    assert battle.defence_dice.ranked == (2, 1)  # type: ignore[attr-defined]
    assert battle.attack == (6, 4, 3) and battle.defence == (6, 4)  # type: ignore[attr-defined]
    assert (battle.attacker_losses, battle.defender_losses) == (2, 0)  # type: ignore[attr-defined]


def test_nap_adv_21_a_fortifications_regiment_goes_into_it(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-21 ("ajoutez 1 régiment dans chaque territoire où vous possédez 1
    fortification"): the regiment a fortification gives is part of the turn's income and is
    placed in the fortified territory at once, not wherever its player likes."""
    game = cli_game(
        risk,
        tmp_path,
        **position(["castille", "portugal"], family={"fortifications": ["portugal"]}),
        armies={"castille": 6, "portugal": 3},
        phase="reinforce",
    )
    v = view(risk, game)
    started = next(e for e in events(risk, game) if e["type"] == "turn_started")
    placed = [e for e in events(risk, game) if e["type"] == "placed"]
    assert started["income"] == 4 and v["reserve"] == 3  # 3, and the fortification's 1
    assert [(e["territory"], e["count"]) for e in placed] == [("portugal", 1)]
    assert v["territories"]["portugal"]["armies"] == 4
    assert error(risk, "place", game, "castille", "4") == "not_enough_armies"
    risk("place", game, "castille", "3")


@pytest.mark.parametrize(("cap", "loser"), [(None, 1), ("true", 0)])
def test_nap_adv_34_a_raised_die_may_exceed_6(
    risk: Run, tmp_path: Path, cap: str | None, loser: int
) -> None:
    """NAP-ADV-33/34 ("values may exceed 6"): by default a general's +1 raises a 6 to 7, which
    beats the defender's 6; with the option die_cap=true it stays 6 and the tie is the
    defender's (CORE-15)."""
    generals = {"castille": 1}
    armies = {"castille": 6, "portugal": 3}
    options = {"die_cap": cap == "true"} if cap else {}
    game = generals_attack(risk, tmp_path, ["castille"], generals, armies, [6, 6, 6], options)
    risk("attack", game, "castille", "portugal", "--dice", "1")
    battle = next(e for e in events(risk, game) if e["type"] == "battle")
    assert battle["attack"] == ([6] if cap else [7]), battle
    assert (battle["attacker_losses"], battle["defender_losses"]) == (
        (1, 0) if loser == 0 else (0, 1)
    )


def test_nap_adv_24_defending_generals_captured_and_fort_destroyed(tmp_path: Path) -> None:
    """NAP-ADV-24/35: the territory's generals are captured when it falls (1 VP each
    changes hands) and its fortification is destroyed after a combat; DEC-23: the committed
    general follows the regiments."""
    table = {"generals": {"angleterre": 1, "irlande": 1}, "fortifications": ["irlande"]}
    state, _ = engine_game(
        **position(["angleterre"], cy=["irlande"], family=table),
        armies={"angleterre": 5, "irlande": 1},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    state, evs = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=3, move=3))
    f = fam(state)
    assert f.vp[0] == 1 and f.vp[2] == -1 and f.captured_generals[2][0] == 1
    assert "irlande" not in f.forts
    assert f.generals[T("irlande")] == 1 and f.generals[T("angleterre")] == 0
    assert "FortDestroyed" in kinds(evs) and "LeadersAdvanced" in kinds(evs)
    from risk_cli.napoleon_advanced_moves import EVENT_TEXT
    from risk_cli.render import Names

    names = Names(BOARD, [{"name": n} for n in ("Ann", "Bob", "Cy")])
    one = EVENT_TEXT["leaders_advanced"]({"count": 1, "target": "irlande"}, names)
    assert one == "1 general follows the regiments into Ireland."
    two = EVENT_TEXT["leaders_advanced"]({"count": 2, "target": "irlande"}, names)
    assert two.startswith("2 generals follow the regiments")


def test_dec_23_committed_generals_captured_with_their_regiments(tmp_path: Path) -> None:
    """DEC-23 (commit): generals leading an attack whose regiments all die are captured; with
    general_model=aura they give their bonus and stay home."""
    table = {"generals": {"angleterre": 1}}
    kw: dict[str, Any] = dict(
        **position(["angleterre"], cy=["irlande"], family=table),
        armies={"angleterre": 5, "irlande": 3},
        phase="attack",
        dice=[1, 6],
    )
    state, _ = engine_game(**kw)
    state, _ = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1))
    assert fam(state).captured_generals[0][2] == 1 and fam(state).vp == (-1, 0, 1)
    aura, _ = engine_game(**{**kw, "options": {"general_model": "aura"}})
    aura, _ = step(aura, Attack(seat=0, origin="angleterre", target="irlande", dice=1))
    assert fam(aura).generals[T("angleterre")] == 1 and fam(aura).vp == (0, 0, 0)


def test_nap_adv_32_epidemic_penalty(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-32 (DEC-24 per_origin): invading a territory with an epidemic costs the origin
    1 regiment per epidemic, once per origin; refused if the origin would keep fewer than 2."""
    table = {"epidemics": {"irlande": 1, "ecosse": 4}}
    game = cli_game(
        risk,
        tmp_path,
        **position(["angleterre"], cy=["irlande", "ecosse"], family=table),
        armies={"angleterre": 5, "irlande": 5, "ecosse": 1},
        phase="attack",
        dice=[1, 6, 6, 1, 6, 6],
    )
    assert error(risk, "attack", game, "angleterre", "ecosse") == "epidemic_penalty"
    risk("attack", game, "angleterre", "irlande", "--dice", "1")
    risk("attack", game, "angleterre", "irlande", "--dice", "1")
    penalties = [e for e in events(risk, game) if e["type"] == "epidemic_penalty"]
    assert len(penalties) == 1 and penalties[0]["count"] == 1
    assert view(risk, game)["territories"]["angleterre"]["armies"] == 2


def test_dec_24_per_battle_penalty(tmp_path: Path) -> None:
    """DEC-24 option epidemic_penalty=per_battle: the penalty again before each battle."""
    state, _ = engine_game(
        **position(["angleterre"], cy=["irlande"], family={"epidemics": {"irlande": 1}}),
        armies={"angleterre": 6, "irlande": 5},
        phase="attack",
        dice=[1, 6, 1, 6],
        options={"epidemic_penalty": "per_battle"},
    )
    cmd = Attack(seat=0, origin="angleterre", target="irlande", dice=1, until="conquer", stop_at=1)
    state, evs = step(state, cmd)
    assert kinds(evs).count("EpidemicPenalty") >= 2


# ------------------------------------------------------------------ maneuvers
def test_nap_adv_39_rulebook_general_maneuver(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-39 (000 l.997): blue holds Île de France with 5 regiments and Aquitaine with 2
    and a general; 4 move by the land maneuver, then the general may take only the 2 that
    were with it when the maneuvers began."""
    ann = ["ile_de_france", "aquitaine", "bretagne"]
    game = cli_game(
        risk,
        tmp_path,
        **position(ann, family={"generals": {"aquitaine": 1}}),
        armies={"ile_de_france": 5, "aquitaine": 2, "bretagne": 1},
        phase="attack",
    )
    risk("fortify", game, "ile_de_france", "aquitaine", "4")
    assert view(risk, game)["territories"]["aquitaine"]["armies"] == 6
    assert error(risk, "fortify", game, "ile_de_france", "bretagne", "1") == "maneuver_used"
    assert error(risk, "move-general", game, "aquitaine", "bretagne", "3") == "not_enough_armies"
    risk("move-general", game, "aquitaine", "bretagne", "2")
    v = view(risk, game)
    assert v["generals"] == {"bretagne": 1} and v["territories"]["bretagne"]["armies"] == 3
    assert error(risk, "attack", game, "aquitaine", "castille") == "attacks_over"
    assert error(risk, "move-general", game, "bretagne", "aquitaine") == "general_moved"


def test_nap_adv_39_naval_and_admiral_maneuvers(tmp_path: Path) -> None:
    """NAP-ADV-39 (DEC-25): one naval maneuver between own connected zones, leaving 1 ship;
    an admiral maneuvers once with ships that were with it."""
    table = {
        "ships": {"mer_du_nord": {"Ann": 4}, "mer_baltique": {"Ann": 1}},
        "admirals": {"mer_du_nord": {"Ann": 1}},
    }
    state, _ = engine_game(**position(FR[:8], family=table), phase="attack")
    with pytest.raises(rc.RuleError) as e:
        step(state, MoveFleet(seat=0, origin="mer_du_nord", target="mer_baltique", ships=4))
    assert e.value.code == "not_enough_ships"
    state, _ = step(state, MoveFleet(seat=0, origin="mer_du_nord", target="mer_baltique", ships=1))
    with pytest.raises(rc.RuleError) as e:
        step(state, MoveFleet(seat=0, origin="mer_du_nord", target="mer_baltique", ships=1))
    assert e.value.code == "maneuver_used"
    state, _ = step(
        state, MoveAdmiral(seat=0, origin="mer_du_nord", target="mer_baltique", ships=2)
    )
    f = fam(state)
    assert f.admirals[T_ZONE("mer_baltique")][0] == 1 and f.ships[T_ZONE("mer_baltique")][0] == 4


def test_nap_adv_39_moves_lists_every_count_of_each_maneuver(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-39 (DEC-23, DEC-25): `risk moves` lists each maneuver with the counts it may
    take — the general with 0 to the regiments that were with it, the fleet leaving 1 ship,
    the admiral with the ships that were with it, the generals that may lead — and the
    highest of each is accepted, one more refused."""
    table = {
        "generals": {"aquitaine": 1},
        "ships": {"mer_du_nord": {"Ann": 4}, "mer_baltique": {"Ann": 1}},
        "admirals": {"mer_du_nord": {"Ann": 1}},
    }
    game = cli_game(
        risk,
        tmp_path,
        **position(FR[:8], family=table),
        armies={"aquitaine": 3, "bretagne": 1},
        phase="attack",
    )
    other = out(risk, "moves", game)["moves"]["other"]
    general = {(m["origin"], m["target"]): m["count"] for m in other["move_general"]}
    assert general[("aquitaine", "bretagne")] == [0, 2]
    assert other["move_fleet"] == [
        {"origin": "mer_du_nord", "target": "mer_baltique", "ships": [1, 3]}
    ]
    assert other["move_admiral"] == [
        {"origin": "mer_du_nord", "target": "mer_baltique", "ships": [0, 3]}
    ]
    assert other["lead"] == [{"origin": "aquitaine", "generals": [0, 1]}]
    text = risk("moves", game).stdout
    assert "origin Aquitaine, target Brittany, count 0-2" in text
    assert "move-fleet: origin North Sea, target Baltic Sea, ships 1-3" in text
    assert error(risk, "move-fleet", game, "mer_du_nord", "mer_baltique", "4") == (
        "not_enough_ships"
    )
    risk("move-fleet", game, "mer_du_nord", "mer_baltique", "3")
    assert error(risk, "move-general", game, "aquitaine", "bretagne", "3") == "not_enough_armies"
    risk("move-general", game, "aquitaine", "bretagne", "2")
    assert view(risk, game)["territories"]["bretagne"]["armies"] == 3


def test_nap_adv_22_moves_lists_conversions_into_any_number_of_ships(
    risk: Run, tmp_path: Path
) -> None:
    """NAP-ADV-22: `risk moves` offers 1 to the whole reserve as ships in each zone touching
    the seat's territories, and one regiment into a general or a fortification."""
    game = cli_game(risk, tmp_path, **position(FR[:8]))
    reserve = view(risk, game)["reserve"]
    converts = out(risk, "moves", game)["moves"]["other"]["convert"]
    ships = [c for c in converts if c["kind"] == "ship"]
    assert ships and all(c["count"] == [1, reserve] for c in ships)
    assert {c["kind"] for c in converts} >= {"ship", "general", "fortification"}
    assert all(c["count"] == 1 for c in converts if c["kind"] != "ship")
    zone = ships[0]["where"]
    assert error(risk, "convert", game, "ship", zone, str(reserve + 1)) == "not_enough_armies"
    risk("convert", game, "ship", zone, str(reserve))
    assert view(risk, game)["reserve"] == 0


def test_dec_25_naval_maneuver_may_empty_a_zone(tmp_path: Path) -> None:
    """DEC-25 option naval_leave_one=false: the naval maneuver may take every ship."""
    table = {"ships": {"mer_du_nord": {"Ann": 2}, "mer_baltique": {"Ann": 1}}}
    state, _ = engine_game(
        **position(FR[:8], family=table), phase="attack", options={"naval_leave_one": False}
    )
    state, _ = step(state, MoveFleet(seat=0, origin="mer_du_nord", target="mer_baltique", ships=2))
    assert fam(state).ships[T_ZONE("mer_du_nord")][0] == 0


# ------------------------------------------------------------------ cards for effect
def test_nap_adv_26_cards_for_effect(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-26: a reinforcement card adds its regiments, +2 on its territory when held;
    jokers and the Renfort card have no effect; a card outside its window is refused."""
    ann = ["maroc_fes_etats_barbaresques", *IDS[3:11]]
    hand = ["maroc_fes_etats_barbaresques", "joker", "tunis_tripoli", "ile_de_france"]
    game = cli_game(risk, tmp_path, **position(ann, hands={"Ann": hand}))
    before = view(risk, game)
    risk("play-card", game, "maroc_fes_etats_barbaresques")
    after = view(risk, game)
    assert after["reserve"] == before["reserve"] + 2
    assert after["territories"]["maroc_fes_etats_barbaresques"]["armies"] == 4
    assert error(risk, "play-card", game, "joker") == "no_effect"
    assert error(risk, "play-card", game, "ile_de_france") == "no_effect"  # Renfort
    assert error(risk, "play-card", game, "tunis_tripoli") == "wrong_window"


def test_nap_adv_26_a_card_that_needs_a_target_says_so(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-26: a ships card played without its sea zone is `no_target`, naming what it
    needs (it read "There is no sea zone ''")."""
    ann = [*IDS[3:11]]
    game = cli_game(risk, tmp_path, **position(ann, hands={"Ann": ["saxe_westphalie"]}))
    assert error(risk, "play-card", game, "saxe_westphalie") == "no_target"
    said = risk("play-card", game, "saxe_westphalie", code=1).stderr
    assert "the sea zone its ships go to" in said


def test_nap_adv_26_attack_card_raises_the_next_battle(tmp_path: Path) -> None:
    """NAP-ADV-26 (red die): +1 on the highest attack die of the next battle only."""
    state, _ = engine_game(
        **position(["angleterre"], cy=["irlande"], hands={"Ann": ["tunis_tripoli"]}),
        armies={"angleterre": 6, "irlande": 4},
        phase="attack",
        dice=[3, 6, 6, 3, 6, 6],
    )
    state, _ = step(state, PlayCard(seat=0, card=card_of("tunis_tripoli")))
    state, evs = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1))
    assert evs[-1].attack == (4,)  # type: ignore[attr-defined]
    state, evs = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1))
    assert evs[-1].attack == (3,)  # type: ignore[attr-defined]


def test_nap_adv_48_defender_plays_a_blue_die_card(tmp_path: Path) -> None:
    """NAP-ADV-26/48 (blue die): the defender, asked for its dice, plays its card first."""
    state, _ = engine_game(
        **position(["angleterre"], cy=["egypte", "irlande"], hands={"Cy": ["egypte"]}),
        armies={"angleterre": 6, "irlande": 4},
        phase="attack",
        dice=[5, 5],
    )
    state.players[2].policy = "ask"  # Cy answers for its own dice (risk new --ask)
    state, evs = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1))
    assert state.phase == "defend"
    state, _ = step(state, PlayCard(seat=2, card=card_of("egypte")))
    state, evs = step(state, Defend(seat=2, dice=1))
    assert evs[0].defence == (6,) and evs[0].attacker_losses == 1  # type: ignore[attr-defined]


def test_nap_adv_41_card_moved_epidemic(tmp_path: Path) -> None:
    """NAP-ADV-41: an epidemic moved by a card kills 1 regiment where it arrives."""
    table = {"epidemics": {"castille": 1}}
    state, _ = engine_game(
        **position(FR[:8], hands={"Ann": ["pays_austro_bohemiens"]}, family=table),
        armies={"syrie": 3},
    )
    card = card_of("pays_austro_bohemiens")
    state, _ = step(state, PlayCard(seat=0, card=card, target="castille>syrie"))
    assert state.armies[T("syrie")] == 2
    assert fam(state).epidemics[T("syrie")] == 1 and fam(state).epidemics[T("castille")] == 0


# ------------------------------------------------------------------ end of turn
def test_nap_adv_40_45_epidemic_losses_empty_a_territory(tmp_path: Path) -> None:
    """NAP-ADV-40/45: at the end of the turn each epidemic of yours kills 1 regiment; an
    emptied territory belongs to nobody, keeps its fortification, and the epidemic moves."""
    ann = FR[:8]
    table = {"epidemics": {ann[0]: 1, ann[1]: 1}, "fortifications": [ann[1]]}
    state, _ = engine_game(
        **position(ann, family=table), armies={ann[0]: 3, ann[1]: 1}, phase="attack"
    )
    state, evs = step(state, EndTurn(seat=0))
    assert state.armies[T(ann[0])] == 2
    assert state.owner[T(ann[1])] == -1 and state.armies[T(ann[1])] == 0
    assert ann[1] in fam(state).forts and fam(state).epidemics[T(ann[1])] == 0
    struck = [e for e in evs if type(e).__name__ == "EpidemicStruck"]
    assert struck[1].moved_to  # type: ignore[attr-defined]
    rs = rc.ruleset_of(state)
    assert rs.census(state, 0).territories == 7  # NAP-ADV-45: counts for nobody


def test_nap_adv_37_invading_an_empty_territory(tmp_path: Path) -> None:
    """NAP-ADV-37 (DEC-28): an emptied territory is entered by an invasion without dice; it
    is no conquest from another player (no card for it), and keeps its fortification."""
    ann = FR[:8]
    target = next(IDS[n] for n in rc.ruleset_of(engine_game()[0]).board.neighbours[T(ann[1])])
    table = {"epidemics": {target: 1}, "fortifications": [target]}
    owners = {**owned(ann), target: 2}
    state, _ = engine_game(
        owners=owners,
        default_owner=1,
        family=table,
        armies={target: 1, ann[1]: 5},
        current=2,
        phase="attack",
    )
    state, _ = step(state, EndTurn(seat=2))  # Cy's epidemic empties it
    assert state.owner[T(target)] == -1
    while state.current != 0 or state.phase != "attack":
        seat = rc.to_act(state)
        assert seat is not None
        cmd = (
            Place(
                seat=seat,
                territory=next(IDS[t] for t, o in enumerate(state.owner) if o == seat),
                count=state.reserve,
            )
            if state.phase == "reinforce"
            else EndTurn(seat=seat)
        )
        state, _ = step(state, cmd)
    origin = next(
        IDS[n]
        for n in rc.ruleset_of(state).board.neighbours[T(target)]
        if state.owner[n] == 0 and state.armies[n] >= 2
    )
    state, evs = step(state, Attack(seat=0, origin=origin, target=target, dice=1, move=1))
    assert state.owner[T(target)] == 0 and "BattleFought" not in kinds(evs)
    assert target in fam(state).forts and not fam(state).conquered_enemy


def test_nap_adv_43_card_draws(tmp_path: Path) -> None:
    """NAP-ADV-43: one card for a conquest from a player, one for holding an empire."""
    ann = members("royaume_uni")
    state, _ = engine_game(
        **position(ann, cy=["nord_picardie"]),
        armies={"angleterre": 6, "nord_picardie": 1},
        phase="attack",
        dice=[6, 1],
    )
    state, _ = step(
        state, Attack(seat=0, origin="angleterre", target="nord_picardie", dice=1, move=1)
    )
    state, evs = step(state, EndTurn(seat=0))
    assert kinds(evs).count("CardDrawn") == 2


def test_nap_adv_17_42_missions_and_hidden_draws(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-17/42: a mission fulfilled at the end of the turn scores its VP, a new one of
    the same rank is drawn (hidden from the others), one per rank a turn (NAP-ADV-47)."""
    ann = IDS[:12]
    table = {"missions": {"Ann": ["caporal_12_territoires"]}}
    game = cli_game(risk, tmp_path, **position(ann, family=table), phase="attack")
    risk("end", game)
    done = [e for e in events(risk, game) if e["type"] == "mission_accomplished"]
    assert done and done[0]["mission"] == "caporal_12_territoires" and done[0]["vp"] == 1
    mine = out(risk, "log", game, "--as", "Ann")
    theirs = out(risk, "log", game, "--as", "Bob")
    drawn_mine = [e for e in _evs(mine) if e["type"] == "mission_accomplished"][0]["drawn"]
    drawn_theirs = [e for e in _evs(theirs) if e["type"] == "mission_accomplished"][0]["drawn"]
    assert drawn_mine not in ("", "?") and drawn_theirs == "?"
    assert "missions" not in view(risk, game, "Bob")["players"][0]
    assert [m["id"] for m in view(risk, game, "Ann")["players"][0]["missions"]] == [drawn_mine]
    assert "Your missions:" in risk("show", game, "--as", "Ann").stdout


def _evs(logged: Any) -> list[dict[str, Any]]:
    return list(logged["events"] if isinstance(logged, dict) else logged)


def test_nap_adv_16_start_of_turn_vp_and_dec_26(tmp_path: Path) -> None:
    """NAP-ADV-16 (DEC-26): at the start of its turn a seat scores each empire's bonus and,
    with route_vp (default), each route's."""
    ships = {z: {"Ann": 1} for z in ("atlantique_ouest_europeen", "mer_du_nord", "mer_baltique")}
    kw: dict[str, Any] = dict(
        **position(members("royaume_uni"), cy=["syrie"], family={"ships": ships}),
        current=2,
        phase="attack",
    )
    state, _ = engine_game(**kw)
    state, _ = step(state, EndTurn(seat=2))
    assert fam(state).vp[0] == 2 + 2
    off, _ = engine_game(**{**kw, "options": {"route_vp": False}})
    off, _ = step(off, EndTurn(seat=2))
    assert fam(off).vp[0] == 2


def finish_round(risk: Run, game: str) -> None:
    """Every other seat places its reinforcements on its first territory and ends its turn."""
    while True:
        v = view(risk, game)
        if v["phase"] == "over":
            return
        seat = v["to_act"]
        if v["phase"] == "reinforce":
            mine = next(t for t, c in v["territories"].items() if c["owner"] == seat)
            risk("place", game, mine, str(v["reserve"]), "--as", str(seat))
        else:
            risk("end", game, "--as", str(seat))


def test_nap_adv_44_last_turn_census_and_nap_adv_46_ranking(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-44/46 (DEC-05): on the 5th round each player scores (territories + zones) // 3;
    after the last player's turn the VP rank everyone; `show` gives the ranking."""
    game = cli_game(
        risk,
        tmp_path,
        **position(FR[:8], family={"vp": {"Bob": 40, "Cy": 3}}),
        phase="attack",
        turn=13,
        round=5,
    )
    risk("end", game)
    census = [e for e in events(risk, game) if e["type"] == "vp_scored" and e["reason"] == "census"]
    assert census[0]["seat"] == 0 and census[0]["vp"] == 8 // 3
    finish_round(risk, game)
    v = view(risk, game)
    assert v["phase"] == "over" and v["winner"] == 1 and v["ranking"][0] == [1]
    assert "Final ranking" in risk("show", game).stdout


def test_dec_05_three_rounds_option(risk: Run, tmp_path: Path) -> None:
    """DEC-05 option rounds=3: the game ends after the 3rd round."""
    game = cli_game(
        risk,
        tmp_path,
        **position(FR[:8]),
        phase="attack",
        turn=7,
        round=3,
        options={"rounds": 3},
    )
    risk("end", game)
    finish_round(risk, game)
    assert view(risk, game)["phase"] == "over"


def test_dec_30_shared_victory_and_territory_tie_break() -> None:
    """DEC-30: a full tie is a shared first place (the ranking), or broken by holdings."""
    from risk_core.rulesets import napoleon_advanced_rules as nar

    assert nar.final_ranking([3, 3, 1], [5, 5, 9], [0, 0, 0]) == [(0, 1), (2,)]


def test_nap_adv_25_ransom(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-25 (DEC-29): with every general captured, one is bought back for 1
    reinforcement regiment; the captor places 1 regiment on his largest stack."""
    table = {"captured_generals": {"Ann": {"Bob": 3}}}
    game = cli_game(risk, tmp_path, **position(FR[:8], family=table))
    reserve = view(risk, game)["reserve"]
    risk("ransom", game, "general", "Bob")
    v = view(risk, game)
    assert v["reserve"] == reserve - 1 and v["players"][0]["generals_in_stock"] == 1
    assert v["players"][0]["vp"] == 0  # DEC-29: no VP back
    stock = {"captured_generals": {"Ann": {"Bob": 1}}}
    game2 = cli_game(risk, tmp_path, **position(FR[:8], family=stock))
    assert error(risk, "ransom", game2, "general", "Bob") == "stock_left"
    assert error(risk, "ransom", game2, "admiral", "Bob") == "nothing_to_ransom"


def test_dec_29_ransom_returns_vp(tmp_path: Path) -> None:
    """DEC-29 option ransom_vp=returned: the captor gives the capture's VP back."""
    table = {"captured_generals": {"Ann": {"Bob": 3}}, "vp": {"Ann": -3, "Bob": 3}}
    state, _ = engine_game(**position(FR[:8], family=table), options={"ransom_vp": "returned"})
    state, _ = step(state, Ransom(seat=0, kind="general", captor=1))
    assert fam(state).vp[:2] == (-2, 2)


def test_nap_adv_38_elimination_removes_ships_and_keeps_vp(tmp_path: Path) -> None:
    """NAP-ADV-38 (DEC-04): the eliminated player's cards go to the eliminator, its ships
    leave the board; it keeps its VP for the final ranking."""
    table = {"ships": {"mer_noire": {"Cy": 2}}, "vp": {"Cy": 4}}
    state, _ = engine_game(
        owners={"ecosse": 0, "irlande": 2, "angleterre": 0},
        default_owner=1,
        family=table,
        hands={"Cy": ["syrie"]},
        armies={"angleterre": 6, "irlande": 1},
        phase="attack",
        dice=[6, 1],
    )
    state, _ = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1, move=1))
    assert state.players[2].eliminated and card_of("syrie") in state.players[0].hand
    assert fam(state).ships[T_ZONE("mer_noire")][2] == 0 and fam(state).vp[2] == 4


def test_nap_adv_45_no_reinforcement_on_empty(tmp_path: Path) -> None:
    """NAP-ADV-45: nobody may place regiments on a territory nobody controls."""
    state, _ = engine_game(**position(FR[:8]))
    state.owner[T(IDS[0])] = -1
    with pytest.raises(rc.RuleError) as e:
        step(state, Place(seat=0, territory=IDS[0], count=1))
    assert e.value.code == "not_owner"


def test_nap_adv_13_the_phases_in_order(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-13: reinforce (with conversions) → naval then land combat → maneuvers → end
    (epidemics, missions, cards) → the next player's turn with its start."""
    game = cli_game(risk, tmp_path, **position(["angleterre", "irlande", *IDS[:7]]))
    v = view(risk, game)
    assert v["phase"] == "reinforce" and v["round_limit"] == 5
    risk("place", game, "angleterre", str(v["reserve"]))
    assert view(risk, game)["phase"] == "attack"
    risk("fortify", game, "angleterre", "irlande", "1")
    risk("end", game)
    logged = [e["type"] for e in events(risk, game)]
    assert (
        logged.index("combat_ended")
        < logged.index("turn_ended")
        < logged[::-1].index("turn_started") + len(logged)
    )
    assert view(risk, game)["current_player"] == 1


def test_hidden_missions_never_in_others_views(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-07 / hidden information: a seat's missions appear in its own view only, and the
    dealt hands are redacted in every other seat's log."""
    from risk_core.views import visible_event

    events_ = rc.start("napoleon-advanced", ["A", "B", "C"], seed=3, options={})
    dealt = events_[1]
    mine = visible_event(dealt, 0)
    theirs = visible_event(dealt, 1)
    assert mine["missions"][0] and mine["missions"][1] is None
    assert theirs["missions"][0] is None and isinstance(theirs["piles"][0], int)


def test_dec_04_forced_trade_after_elimination(tmp_path: Path) -> None:
    """DEC-04 (NAP-ADV-38): 5 cards after taking an eliminated player's must be traded at
    once, down to fewer than 5; with elimination_trade_from=6 five cards wait."""
    kw: dict[str, Any] = dict(
        owners={"ecosse": 0, "irlande": 2, "angleterre": 0},
        default_owner=1,
        hands={"Ann": ["castille", "portugal"], "Cy": ["syrie", "egypte", "anatolie"]},
        armies={"angleterre": 6, "irlande": 1},
        phase="attack",
        dice=[6, 1],
    )
    attack = Attack(seat=0, origin="angleterre", target="irlande", dice=1, move=1)
    state, _ = engine_game(**kw)
    state, _ = step(state, attack)
    assert state.phase == "elim_trade" and len(state.players[0].hand) == 5
    with pytest.raises(rc.RuleError) as e:
        step(state, EndTurn(seat=0))
    assert e.value.code == "wrong_phase"
    later, _ = engine_game(**kw, options={"elimination_trade_from": 6})
    later, _ = step(later, attack)
    assert later.phase == "attack"


INFANTRY = [
    IDS[t]
    for c, s in enumerate(BOARD.card_symbols)
    if s == "infantry" and (t := BOARD.card_territory(c)) is not None
]


def eliminate_cy(mine: int, theirs: int, threshold: int) -> rc.GameState:
    """Ann takes Irlande, Cy's last territory, holding ``mine`` infantry cards and taking
    Cy's ``theirs`` (every 3 of them a set), with ``elimination_trade_from=threshold``."""
    state, _ = engine_game(
        owners={"ecosse": 0, "irlande": 2, "angleterre": 0},
        default_owner=1,
        hands={"Ann": INFANTRY[:mine], "Cy": INFANTRY[mine : mine + theirs]},
        armies={"angleterre": 6, "irlande": 1},
        phase="attack",
        dice=[6, 1],
        options={"elimination_trade_from": threshold},
    )
    state, _ = step(state, Attack(seat=0, origin="angleterre", target="irlande", dice=1, move=1))
    assert state.players[2].eliminated
    return state


@pytest.mark.parametrize("threshold", [3, 4])
def test_dec_04_below_five_forces_the_first_set_then_fewer_than_5(threshold: int) -> None:
    """DEC-04 (NAP-ADV-38) elimination_trade_from=3 or 4 (000 l.989's "3 cartes"): a hand of
    that many cards holding a set trades one at once (the default 5 would not), and a bigger
    hand trades until it holds fewer than 5, as `risk rules` says: 6 cards keep 3."""
    small = eliminate_cy(threshold - 3, 3, threshold)
    assert small.phase == "elim_trade"
    assert rc.ruleset_of(small).must_trade(small, 0)
    assert eliminate_cy(threshold - 3, 3, 5).phase == "attack"
    state = eliminate_cy(3, 3, threshold)
    sets = list(rc.ruleset_of(state).sets_in_hand(state, 0))
    state, _ = step(state, Trade(seat=0, cards=sets[0]))
    assert len(state.players[0].hand) == 3
    state, _ = step(state, Place(seat=0, territory="angleterre", count=state.reserve))
    assert state.phase == "attack" and len(state.players[0].hand) == 3


def test_dec_23_lead_chooses_the_committed_generals(risk: Run, tmp_path: Path) -> None:
    """DEC-23/NAP-ADV-48: `risk lead` commits fewer generals: with none leading, a lost
    battle captures nobody and the dice are plain."""
    armies = {"angleterre": 5, "irlande": 3}
    generals = {"angleterre": 2}
    held = ["angleterre", "ecosse", "~irlande"]
    game = generals_attack(risk, tmp_path, held, generals, armies, [1, 6, 6])
    assert error(risk, "lead", game, "angleterre", "3") == "no_general"
    assert error(risk, "lead", game, "irlande", "0") == "not_owner"  # (0 used to pass anywhere)
    assert error(risk, "lead", game, "ecosse", "0") == "no_general"  # hers, no general there
    risk("lead", game, "angleterre", "0")
    risk("attack", game, "angleterre", "irlande", "--dice", "1")
    v = view(risk, game)
    assert v["generals"] == {"angleterre": 2} and v["players"][0]["vp"] == 0
    battle = next(e for e in events(risk, game) if e["type"] == "battle")
    assert "attack_dice" not in battle  # plain dice: nobody raised them


def test_every_event_has_a_log_sentence() -> None:
    """`risk log` tells every advanced-game event in words (no raw tags)."""
    import importlib

    from risk_cli.napoleon_advanced_moves import EVENT_TEXT

    st = importlib.import_module("risk_core.rulesets.napoleon_advanced_state")

    tags = {
        cls.__struct_config__.tag
        for cls in vars(st).values()
        if isinstance(cls, type) and issubclass(cls, rc.Event) and cls is not rc.Event
    }
    assert tags <= set(EVENT_TEXT), sorted(tags - set(EVENT_TEXT))


def test_golden_game_log_renders(risk: Run, tmp_path: Path) -> None:
    """A whole bot game's log renders every line (`risk demo`, then `risk log`)."""
    demo = out(risk, "demo", "--rules", "napoleon-advanced", "--players", "3", "--seed", "2")
    text = risk("log", demo["game_id"]).stdout
    assert "Final ranking" in text and "converts" in text and "Traceback" not in text


def test_stats_count_every_land_battle_with_its_bonuses(risk: Run, tmp_path: Path) -> None:
    """Issue 17: `risk stats` stays exact with the generals' and fortifications' bonuses: it
    counts every land battle and every loss the events record."""
    demo = out(risk, "demo", "--rules", "napoleon-advanced", "--players", "4", "--seed", "3")
    game = demo["game_id"]
    battles = [e for e in events(risk, game) if e["type"] == "battle"]
    assert any("attack_dice" in b or "defence_dice" in b for b in battles)  # bonuses occurred
    stats = out(risk, "stats", game)
    assert stats["battles"] == len(battles)
    lost = sum(b["attacker_losses"] + b["defender_losses"] for b in battles)
    assert sum(s["losses"] for s in stats["seats"]) == lost


def test_log_explains_the_defence_bonus(risk: Run, tmp_path: Path) -> None:
    """Issue 17 (`log` explains every die bonus): the generals and fortification that raise
    the defence dice are named before the battle."""
    game = cli_game(
        risk,
        tmp_path,
        **position(
            ["angleterre"],
            cy=["irlande"],
            family={"generals": {"irlande": 2}, "fortifications": ["irlande"]},
        ),
        armies={"angleterre": 5, "irlande": 3},
        phase="attack",
        dice=[6, 6, 6, 1, 1],
    )
    risk("attack", game, "angleterre", "irlande", "--dice", "3")
    text = risk("log", game).stdout
    assert (
        "Ireland defends with 2 generals and a fortification: +2 on the highest die, "
        "+1 on the second die." in text
    )


def test_history_tools_work_unchanged(risk: Run, tmp_path: Path) -> None:
    """Issue 17: audit, export, import and branch take an advanced game like any other."""
    game = out(risk, "demo", "--rules", "napoleon-advanced", "--players", "3", "--seed", "5")[
        "game_id"
    ]
    assert "reproduced byte for byte" in risk("audit", game).stdout
    path = tmp_path / "adv.jsonl"
    risk("export", game, "-o", str(path))
    risk("import", str(path), "--id", "copy1")
    assert view(risk, "copy1")["ranking"] == view(risk, game)["ranking"]
    risk("branch", game, "--at", "300")


def test_nap_adv_01_a_scenario_round_past_the_last_is_refused() -> None:
    """NAP-ADV-01 (DEC-06): the game lasts its rounds (5 by default): a scenario's round past
    the last — the turn, when no round is given — is refused (`bad_scenario`) where it used to
    end the game on the score after one seat's turn; the last round itself is taken."""
    with pytest.raises(rc.RiskError) as err:
        engine_game(turn=6)  # three players: turn 6 is round 6 unless the round is given
    assert err.value.code == "bad_scenario" and "round 6 (the turn, 6" in err.value.message
    with pytest.raises(rc.RiskError) as err:
        engine_game(turn=12, round=6)
    assert "past napoleon-advanced's last, round 5" in err.value.message
    state, _ = engine_game(turn=13, round=5)
    assert state.phase != "over"
    with pytest.raises(rc.RiskError) as err:  # the short game (DEC-06: rounds=3)
        engine_game(turn=10, round=4, options={"rounds": 3})
    assert "past napoleon-advanced's last, round 3" in err.value.message


def test_nap_adv_19_permanent_bonus_shown_at_start_pays_now(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-13/17/19: the start of turn comes before the reinforcement phase, so an Empire
    mission with a permanent bonus shown at the start of the turn adds it to this turn's
    census (here 3 + the Russian Empire's 6 + 1), not from the next turn only."""
    russia = members("empire_de_russie")
    table = {"missions": {"Ann": ["empire_empire_de_russie"]}}
    kw: dict[str, Any] = dict(**position(russia, cy=["syrie"], family=table), current=2)
    state, _ = engine_game(**kw, phase="attack")
    state, evs = step(state, EndTurn(seat=2))
    shown = [e for e in evs if type(e).__name__ == "MissionAccomplished"]
    assert shown and shown[0].reinforcements == 1
    assert state.current == 0 and state.reserve == 3 + 6 + 1
    game = cli_game(risk, tmp_path, **kw, phase="attack")
    risk("end", game)
    assert "+1 reinforcement this turn" in risk("log", game).stdout
    assert view(risk, game)["reserve"] == 10


def test_dec_23_odds_count_the_generals_the_attack_commits(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-33 (DEC-23, general_model=commit): `risk odds` and `attack --dry-run` give the
    dice of the generals a new attack from FROM commits (+1 on the highest die: 1 die against
    1 wins 21 in 36), or none when `lead` chose 0; they ignored the leading generals."""
    armies = {"castille": 2, "portugal": 1}
    game = generals_attack(risk, tmp_path, ["castille"], {"castille": 1}, armies, [1])

    def win() -> Fraction:
        doc = out(risk, "odds", game, "castille", "portugal")
        one = {o["attacker_losses"]: o["p"]["exact"] for o in doc["battle"]["outcomes"]}
        return Fraction(one[0])

    assert win() == Fraction(21, 36)
    assert "58.33%" in risk("attack", game, "castille", "portugal", "--dry-run").stdout
    risk("lead", game, "castille", "0")
    assert win() == Fraction(15, 36)


def test_nap_adv_messages_name_zones_empires_and_routes(risk: Run, tmp_path: Path) -> None:
    """NAP-ADV-02/16/24/28/39 as the player reads them: refusals name sea zones, the log names
    the empires and routes scored and where leaders were captured (not their ids), and the
    end of the attacks opens the maneuvers (it said 'ends the attacks and maneuvers')."""
    ships = {"mer_baltique": {"Ann": 2}, "mer_du_nord": {"Ann": 1}}
    kw: dict[str, Any] = dict(**position(["royaume_du_danemark"], family={"ships": ships}))
    game = cli_game(risk, tmp_path, **kw, phase="attack")
    refused = risk("naval-attack", game, "mer_baltique", "mer_noire", code=1).stderr
    assert "Baltic Sea does not touch Black Sea" in refused
    refused = risk("naval-attack", game, "mer_baltique", "mer_du_nord", code=1).stderr
    assert "already in North Sea" in refused
    risk("move-fleet", game, "mer_baltique", "mer_du_nord", "1")
    assert "Ann ends the attacks; maneuvers now." in risk("log", game).stdout
    names = Names(BOARD, [{"name": p, "colour": "red"} for p in ("Ann", "Bob", "Cy")])
    scored = {
        "seat": 0,
        "vp": 4,
        "reason": "empires",
        "detail": ["royaume_uni", "ameriques"],
    }
    captured = {"kind": "admiral", "owner": 1, "by": 0, "count": 1, "where": "mer_du_nord"}
    assert "(United Kingdom, Route to the Americas)" in click.unstyle(
        ADVANCED_TEXT["vp_scored"](scored, names)
    )
    assert "in North Sea (1 VP" in click.unstyle(ADVANCED_TEXT["leaders_captured"](captured, names))
    objectives = {"seat": 0, "vp": 4, "detail": ["angleterre", "maritime_supremacy", "allies:2"]}
    assert "(England, maritime supremacy, 2 allies)" in click.unstyle(
        CAMPAIGN_TEXT["objectives_scored"](objectives, names)
    )
