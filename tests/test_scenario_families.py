"""Scenario files set each rule family's own facts (``[family]``), through the `risk` command line.

Every position below is loaded with `risk new --scenario FILE` into a temporary SQLite store, then
checked through `risk show` and played on with a command that depends on the family fact.  Dice
come from the scenario's dice script, so every battle has a known outcome.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import risk_core as rc
from risk_core.rulesets import get as get_ruleset

Run = Callable[..., Result]
CLASSIC = [t.id for t in rc.load_board("classic").territories]
NAPOLEON = [t.id for t in rc.load_board("napoleon").territories]


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def refused(risk: Run, path: str) -> str:
    """The one error line `risk new` prints for a bad scenario (no traceback, nothing stored)."""
    stored = len(out(risk, "games"))
    result = risk("new", "--scenario", path, code=1)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert isinstance(result.exception, SystemExit)
    assert len(out(risk, "games")) == stored
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    return lines[0]


def scenario(tmp_path: Path, doc: dict[str, Any], name: str = "scenario") -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return str(path)


def napoleon(seats: int, **owners: tuple[int, int]) -> dict[str, dict[str, int]]:
    """Every Napoléon territory round-robin with 2 regiments, then ``owners`` (seat, armies)."""
    territories = {t: {"owner": i % seats, "armies": 2} for i, t in enumerate(NAPOLEON)}
    territories.update({t: {"owner": o, "armies": a} for t, (o, a) in owners.items()})
    return territories


def territory(view: dict[str, Any], tid: str) -> dict[str, Any]:
    found: dict[str, Any] = view["territories"][tid]
    return found


# --------------------------------------------------------------------------- classic-2p
def test_classic_2p_scenario_is_accepted_and_the_opponent_places_for_the_ally(
    risk: Run, tmp_path: Path
) -> None:
    """CL-2P-01/04: a classic-2p position (the ally a neutral seat) loads through the CLI — it was
    refused as bad_opening, the store comparing the players with the opening's seats, neutral
    ally included — and after Ann's reinforcements Bob places the ally's half."""
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(CLASSIC)}
    doc = {"ruleset": "classic-2p", "players": ["Ann", "Bob"], "seed": 3}
    path = scenario(tmp_path, {**doc, "territories": territories})
    created = out(risk, "new", "--scenario", path, "--ask", "Bob")
    assert created["players"] == ["Ann", "Bob", "Ally"] and created["phase"] == "reinforce"
    game = created["game_id"]
    reserve = out(risk, "show", game)["reserve"]
    risk("place", game, CLASSIC[0], str(reserve), "--as", "Ann")  # seat 0's
    shown = out(risk, "show", game)
    assert shown["phase"] == "ally_place" and shown["to_act"] == 1
    assert shown["ally_reserve"] == reserve // 2
    risk("place", game, CLASSIC[2], str(reserve // 2), "--as", "Bob")  # the ally's
    assert territory(out(risk, "show", game), CLASSIC[2])["armies"] == 2 + reserve // 2
    assert "[family] facts" in refused(
        risk, scenario(tmp_path, {**doc, "territories": territories, "family": {"x": 1}}, "bad")
    )


# --------------------------------------------------------------------------- napoleon-2p
def two_player(allies: dict[str, str] | None, independents: str = "active") -> dict[str, Any]:
    """Ann's ally Green holds Andalusia (6) next to Bob's Morocco (1); Ann to attack."""
    territories = napoleon(
        6,
        andalousie=(2, 6),
        maroc_fes_etats_barbaresques=(1, 1),
        portugal=(0, 3),
        castille=(3, 2),
    )
    doc: dict[str, Any] = {
        "ruleset": "napoleon-2p",
        "players": ["Ann", "Bob"],
        "seed": 5,
        "phase": "attack",
        "options": {"independents": independents},
        "dice": [6, 6, 6, 1, 6],  # the battle, then Green's status die (5-6: stays allied)
        "territories": territories,
    }
    if allies is not None:
        doc["family"] = {"allies": allies}
    return doc


def test_napoleon_2p_allied_independent_attacks_for_its_ally(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-07: the scenario makes Green Ann's ally, so Ann attacks with Green's regiments;
    NAP-2PA-09: the status die after that invasion is rolled and Green stays allied on a 6."""
    doc = two_player({"Green": "Ann", "3": "neutral"})
    game = out(risk, "new", "--scenario", scenario(tmp_path, doc), "--id", "n2p")["game_id"]
    shown = out(risk, "show", game)
    assert [p.get("ally_of") for p in shown["players"][2:]] == [0, None, None, None]
    risk("attack", game, "andalousie", "maroc_fes_etats_barbaresques", "--dice", "3", "--move", "3")
    shown = out(risk, "show", game)
    assert territory(shown, "maroc_fes_etats_barbaresques")["owner"] == 2  # Green's now
    assert shown["players"][2]["ally_of"] == 0
    kinds = [e["type"] for e in out(risk, "log", game)["events"]]
    assert kinds[:3] == ["game_started", "dice_scripted", "position_set"]
    assert "status_rolled" in kinds


def test_napoleon_2p_allies_written_in_toml(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-01: the README's TOML form; independents not named stay neutral."""
    doc = two_player(None)
    lines = [
        'ruleset = "napoleon-2p"',
        'players = ["Ann", "Bob"]',
        "seed = 5",
        'phase = "attack"',
        "[options]",
        'independents = "active"',
        "[territories]",
        *(
            f"{t} = {{ owner = {h['owner']}, armies = {h['armies']} }}"
            for t, h in doc["territories"].items()
        ),
        "[family]",
        'allies = { Yellow = "Bob", Green = "neutral" }',
    ]
    path = tmp_path / "allies.toml"
    path.write_text("\n".join(lines) + "\n")
    game = out(risk, "new", "--scenario", str(path))["game_id"]
    shown = out(risk, "show", game)
    assert [p.get("ally_of") for p in shown["players"][2:]] == [None, 1, None, None]


def test_napoleon_2p_family_errors(risk: Run, tmp_path: Path) -> None:
    """NAP-2PP: passive independents have no allegiance; seats must exist and fit their role."""
    passive = two_player({"Green": "Ann"}, independents="passive")
    assert "passive independents" in refused(risk, scenario(tmp_path, passive, "passive"))
    assert "[bad_scenario]" in refused(risk, scenario(tmp_path, passive, "passive"))
    unknown = refused(risk, scenario(tmp_path, two_player({"Grene": "Ann"}), "unknown"))
    assert "Unknown seat 'Grene'" in unknown and "Green" in unknown
    assert "[bad_scenario]" in unknown
    player = refused(risk, scenario(tmp_path, two_player({"Bob": "Ann"}), "player"))
    assert "Bob is a player, not an independent" in player
    to_army = refused(risk, scenario(tmp_path, two_player({"Green": "Yellow"}), "army"))
    assert "not of Yellow" in to_army
    doc = two_player(None)
    doc["family"] = {"ally_of": [None, None, 0, None, None, None]}
    field = refused(risk, scenario(tmp_path, doc, "field"))
    assert "takes 'allies' only, not ally_of" in field and "[bad_scenario]" in field


def test_napoleon_2p_positions_the_game_could_not_reach(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-01/06: an ally without territory (one without any is out of the game, and its
    reinforcements would have nowhere to go), an independent whose turn it is (independents
    take none): refused, `bad_scenario`; an independent that is no one's ally may hold
    nothing, and is no ally to reinforce when the game goes on."""
    doc = two_player({"Yellow": "Ann"})
    doc["territories"] = {
        t: {**h, "owner": 2 if h["owner"] == 3 else h["owner"]}
        for t, h in doc["territories"].items()
    }  # Yellow (3) holds nothing
    ally = refused(risk, scenario(tmp_path, doc, "ally"))
    assert "Yellow (an independent) owns no territory" in ally and "[bad_scenario]" in ally
    doc["family"] = {"allies": {"Green": "Ann"}}
    doc["phase"] = "reinforce"
    doc["hands"] = {"Ann": ["portugal"]}
    doc.pop("dice")
    game = out(risk, "new", "--scenario", scenario(tmp_path, doc, "neutral"))["game_id"]
    risk("give", game, "Yellow", "portugal")  # one step: Yellow is Ann's ally now
    assert out(risk, "show", game)["players"][3]["ally_of"] == 0
    reserve = out(risk, "show", game)["reserve"]
    risk("place", game, "portugal", str(reserve))
    shown = out(risk, "show", game)
    assert shown["phase"] == "ally_reinforce"  # Green's die, not Yellow's: it holds nothing
    said = risk("reinforce-ally", game, "Yellow", code=1).stderr
    assert "Yellow holds no territory to reinforce. [not_ally]" in said
    turn = two_player(None)
    turn["current"] = "Green"
    said = refused(risk, scenario(tmp_path, turn, "turn"))
    assert "current is a player (Ann, Bob): Green takes no turns" in said


# --------------------------------------------------------------------------- napoleon-mission
ANN = ["caporal_gibraltar", "capitaine_italie", "general_3_capitales", "empereur_5_capitales"]
BOB = ["caporal_manche", "capitaine_prusse", "general_60_regiments", "empereur_elimination"]
CY = ["caporal_danube", "capitaine_rhin", "general_24_territoires", "empereur_30_territoires"]


def mission_doc(**family: Any) -> dict[str, Any]:
    """Ann (seat 0) holds Andalusia and Morocco: her Caporal objective (Gibraltar) is met."""
    return {
        "ruleset": "napoleon-mission",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 9,
        "phase": "attack",
        "territories": napoleon(3, andalousie=(0, 2), maroc_fes_etats_barbaresques=(0, 2)),
        "family": {"missions": {"Ann": ANN, "Bob": BOB, "2": CY}, **family},
    }


def test_napoleon_mission_scenario_missions_are_claimed(risk: Run, tmp_path: Path) -> None:
    """NAP-MIS-06: the scenario deals Ann her missions (no random deal follows the position);
    she announces the one whose conditions hold, and only her own."""
    game = out(risk, "new", "--scenario", scenario(tmp_path, mission_doc()))["game_id"]
    mine = out(risk, "show", game, "--as", "Ann")["players"][0]
    assert [m["id"] for m in mine["missions"]] == ANN and mine["achieved"] == []
    kinds = [e["type"] for e in out(risk, "log", game)["events"]]
    assert "mission_hands_dealt" not in kinds
    assert "[not_your_mission]" in risk("claim", game, BOB[0], "--as", "Ann", code=1).stderr
    risk("claim", game, "caporal_gibraltar", "--as", "Ann")
    ann = out(risk, "show", game)["players"][0]
    assert [m["id"] for m in ann["achieved"]] == ["caporal_gibraltar"]


def test_scenario_missions_stay_secret_in_the_log(risk: Run, tmp_path: Path) -> None:
    """ENG-07: the missions a scenario deals are in its opening event, which every seat's log
    shows: Bob's log and a spectator's show none of Ann's, Ann's own view still has hers."""
    game = out(risk, "new", "--scenario", scenario(tmp_path, mission_doc()))["game_id"]
    for who in (("--as", "Bob"), ()):
        text = json.dumps(out(risk, "log", game, *who))
        assert not any(m in text for m in ANN), who
    mine = out(risk, "show", game, "--as", "Ann")["players"][0]
    assert [m["id"] for m in mine["missions"]] == ANN


def test_napoleon_mission_three_achieved_then_the_fourth_wins(risk: Run, tmp_path: Path) -> None:
    """NAP-MIS-08/09: three objectives already achieved (the fourth shown to all); announcing
    the fourth wins at once."""
    doc = mission_doc(achieved={"Ann": ANN[1:]})
    game = out(risk, "new", "--scenario", scenario(tmp_path, doc))["game_id"]
    ann = out(risk, "show", game)["players"][0]  # a spectator's view
    assert [m["id"] for m in ann["achieved"]] == ANN[1:]
    assert ann["revealed"]["id"] == "caporal_gibraltar" and "missions" not in ann
    risk("claim", game, "caporal_gibraltar", "--as", "Ann")
    shown = out(risk, "show", game)
    assert shown["phase"] == "over" and shown["winner"] == 0


def test_napoleon_mission_one_announcement_per_turn(risk: Run, tmp_path: Path) -> None:
    """NAP-MIS-06: a seat that announced this turn (``announced`` = the scenario's turn) may
    not announce another."""
    doc = {**mission_doc(announced={"Ann": 4}), "turn": 4}
    game = out(risk, "new", "--scenario", scenario(tmp_path, doc))["game_id"]
    err = risk("claim", game, "caporal_gibraltar", "--as", "Ann", code=1).stderr
    assert "[one_per_turn]" in err


@pytest.mark.parametrize(
    ("family", "message"),
    [
        ({"missions": {"Ann": ANN, "Bob": BOB}}, "missing: Cy"),
        ({"missions": {"Ann": ANN, "Bob": BOB, "Cy": ANN}}, "a mission is in two hands"),
        ({"missions": {"Ann": [*ANN[:3], "caporal_manche"], "Bob": BOB, "Cy": CY}}, "each rank"),
        ({"missions": {"Ann": ["caporal_x", *ANN[1:]], "Bob": BOB, "Cy": CY}}, "'caporal_x'"),
        ({"missions": {"Ann": ANN, "Bob": BOB, "Dee": CY}}, "Unknown seat 'Dee'"),
        ({"missions": {"Ann": ANN, "Bob": BOB, "Cy": CY}, "achieved": {"Bob": ANN[:1]}}, "theirs"),
        ({"missions": {"Ann": ANN, "Bob": BOB, "Cy": CY}, "achieved": {"Ann": ANN}}, "won already"),
        ({"achieved": {"Ann": ANN[:1]}}, "theirs"),
        ({"objectives": []}, "has no 'objectives'"),
        ({"missions": {"Ann": "caporal_gibraltar"}}, "Invalid [family.missions]"),
    ],
)
def test_napoleon_mission_family_errors(
    risk: Run, tmp_path: Path, family: dict[str, Any], message: str
) -> None:
    """NAP-MIS-02: four missions per seat, one per rank, no card twice; achieved are one's own."""
    doc = {**mission_doc(), "family": family}
    line = refused(risk, scenario(tmp_path, doc))
    assert message in line and line.endswith("[bad_scenario]")


# --------------------------------------------------------------------------- napoleon-teams
def teams_doc(stacks: dict[str, dict[str, int]], **owners: tuple[int, int]) -> dict[str, Any]:
    """Ann and Cy (seats 0, 2) against Bob and Dan (1, 3); Ann's Anatolia (6) borders Syria."""
    territories = napoleon(4, anatolie=(0, 6), **owners)
    for name in stacks:
        territories.pop(name, None)  # left out: the scenario works out its owner and armies
    return {
        "ruleset": "napoleon-teams",
        "players": ["Ann", "Bob", "Cy", "Dan"],
        "seed": 2,
        "phase": "attack",
        "dice": [6, 6, 1, 1],
        "territories": territories,
        "family": {"stacks": stacks},
    }


def test_napoleon_teams_a_teammate_in_the_stack_defends(risk: Run, tmp_path: Path) -> None:
    """NAP-TEAM-04: Syria holds Dan's 3 and Bob's 2, so Dan controls it with 5 regiments;
    DEC-20 (iii): asked to defend, Dan hands the battle to Bob, whose regiments fall."""
    doc = teams_doc({"syrie": {"Dan": 3, "1": 2}})
    created = out(
        risk, "new", "--scenario", scenario(tmp_path, doc), "--ask", "Dan", "--ask", "Bob"
    )
    game = created["game_id"]
    syria = territory(out(risk, "show", game), "syrie")
    assert syria["owner"] == 3 and syria["armies"] == 5 and syria["units"] == {"1": 2, "3": 3}
    risk("attack", game, "anatolie", "syrie", "--dice", "2")
    assert out(risk, "show", game)["to_act"] == 3
    risk("designate", game, "Bob", "--as", "Dan")
    risk("defend", game, "2", "--as", "Bob")
    syria = territory(out(risk, "show", game), "syrie")
    assert syria["owner"] == 3 and syria["armies"] == 3 and "units" not in syria


def test_napoleon_teams_a_tied_stack_has_no_controller(risk: Run, tmp_path: Path) -> None:
    """NAP-TEAM-04: on a tie for most regiments nobody controls the territory; listed in
    [territories] anyway, a stacked territory gives its total and one of its seats."""
    stack = {"ile_de_france": {"Ann": 2, "Cy": 2}}
    listed = {"ile_de_france": (2, 4)}  # Cy, 4 in all: agrees with the stack
    game = out(risk, "new", "--scenario", scenario(tmp_path, teams_doc(stack, **listed)))
    paris = territory(out(risk, "show", game["game_id"]), "ile_de_france")
    assert paris["owner"] == -1 and paris["armies"] == 4


@pytest.mark.parametrize(
    ("stacks", "owners", "message"),
    [
        ({"syrie": {"Ann": 2, "Bob": 2}}, {}, "are not one team"),
        ({"syrie": {"Dan": 2}}, {}, "two or more teammates"),
        ({"syrie": {"Dan": 2, "Bob": 0}}, {}, "at least 1"),
        ({"syrie": {"Dan": 2, "Bob": 1}}, {"syrie": (3, 2)}, "(3 in all)"),
        ({"syrie": {"Dan": 2, "Bob": 1}}, {"syrie": (0, 3)}, "says Ann with 3"),
        ({"atlantis": {"Dan": 2, "Bob": 1}}, {}, "[unknown_territory]"),
        ({"syrie": {"Dan": 999_999, "Bob": 999_999}}, {}, "a stack of 1,999,998; at most"),
    ],
)
def test_napoleon_teams_family_errors(
    risk: Run,
    tmp_path: Path,
    stacks: dict[str, dict[str, int]],
    owners: dict[str, tuple[int, int]],
    message: str,
) -> None:
    """NAP-TEAM-04/08: a stack is teammates only, each with regiments, and agrees with the map."""
    doc = teams_doc(stacks)
    for name, (owner, armies) in owners.items():
        doc["territories"][name] = {"owner": owner, "armies": armies}
    assert message in refused(risk, scenario(tmp_path, doc))


# --------------------------------------------------------------------------- any rule set
def test_a_rule_set_without_family_facts_refuses_the_table(risk: Run, tmp_path: Path) -> None:
    """ENG-08: classic keeps no family state, so a [family] table is a scenario error."""
    territories = {t: {"owner": i % 3, "armies": 1} for i, t in enumerate(CLASSIC)}
    doc = {"players": ["Ann", "Bob", "Cy"], "seed": 1, "territories": territories}
    line = refused(risk, scenario(tmp_path, {**doc, "family": {"stacks": {}}}))
    assert line == "Error: classic has no [family] facts to set. [bad_scenario]"


# --------------------------------------------------------------------------- clone wars, dice
def clonewars_doc(**extra: Any) -> dict[str, Any]:
    planets = [t.id for t in rc.load_board("clonewars").territories]
    return {
        "ruleset": "clonewars",
        "players": ["Ann", "Bob"],
        "seed": 7,
        "territories": {t: {"owner": i % 4, "armies": 3} for i, t in enumerate(planets)},
        **extra,
    }


@pytest.mark.parametrize(
    ("family", "said"),
    [
        ({"captured": [["zzz"], [], [], []]}, "unknown tokens ['zzz']"),
        ({"palpatine": "nowhere", "order66": True}, "unknown planets ['nowhere']"),
        ({"track": 99}, "track is 0 to 12, not 99"),
        ({"captured": [[], [], [], [], []]}, "captured lists more than 4 armies"),
        ({"placed_by": {"dooku": 7}}, "[family.placed_by]: no such seat in {'dooku': 7}"),
        ({"palpatine": "jabiim"}, "Palpatine comes into play with Order 66 only (CW-40)"),
    ],
)
def test_clonewars_family_errors(
    risk: Run, tmp_path: Path, family: dict[str, Any], said: str
) -> None:
    """CW-10/30/40 facts of a Clone Wars scenario out of the game's range: `bad_scenario`
    naming them, never a game whose views then fail."""
    line = refused(risk, scenario(tmp_path, clonewars_doc(family=family)))
    assert said in line and "[bad_scenario]" in line


def test_clonewars_a_token_in_two_places_is_refused(risk: Run, tmp_path: Path) -> None:
    """CW-17/30: each token is on one planet, in the pile, or captured."""
    family = {"pile": ["dooku"], "captured": [["dooku"], [], [], []]}
    line = refused(risk, scenario(tmp_path, clonewars_doc(family=family)))
    assert "tokens in two places ['dooku']" in line and "[bad_scenario]" in line


@pytest.mark.parametrize(
    ("rules", "players", "face"),
    [("napoleon-advanced", 3, 7), ("risk2008", 3, 7), ("clonewars", 2, 9), ("classic", 3, 7)],
)
def test_die_faces_no_die_of_the_rule_set_shows_are_refused(
    risk: Run, tmp_path: Path, rules: str, players: int, face: int
) -> None:
    """A scenario's dice script holds natural faces: above 6 (8 for Clone Wars' d8) no die of
    the rule set shows them, `bad_scenario` (they used to lock every attack, or be played)."""
    ids = [t.id for t in get_ruleset(rules).board.territories]
    doc = {
        "ruleset": rules,
        "players": ["Ann", "Bob", "Cy"][:players],
        "seed": 7,
        "phase": "attack",
        "dice": [face],
        "territories": {
            t: {"owner": i % (4 if rules == "clonewars" else players), "armies": 3}
            for i, t in enumerate(ids)
        },
    }
    line = refused(risk, scenario(tmp_path, doc))
    assert f"not {face}" in line and "[bad_scenario]" in line


def test_a_face_the_die_thrown_cannot_show_refuses_the_battle(risk: Run, tmp_path: Path) -> None:
    """An 8 in a Clone Wars script (a capital ship's d8 could show it) met by a plain d6: the
    battle is refused (`bad_script`) and nothing changes, the script kept for a die that can
    show it (the d6 used to show the 8)."""
    made = out(
        risk, "new", "--scenario", scenario(tmp_path, clonewars_doc(phase="attack", dice=[8]))
    )
    gid = made["game_id"]
    listed = out(risk, "moves", gid)["moves"]["attack"]
    origin = next(iter(listed))
    target = next(iter(listed[origin]))
    before = out(risk, "show", gid)["version"]
    result = risk("attack", gid, origin, target, "--dice", "1", code=1)
    assert "[bad_script]" in result.stderr and "more than a d6 can show" in result.stderr
    assert out(risk, "show", gid)["version"] == before


def three_players(rules: str, family: dict[str, Any]) -> dict[str, Any]:
    """A scenario of ``rules`` for Ann, Bob and Cy, every territory round-robin with 3 armies,
    and the ``[family]`` table ``family``."""
    ids = [t.id for t in get_ruleset(rules).board.territories]
    return {
        "ruleset": rules,
        "players": ["Ann", "Bob", "Cy"],
        "seed": 7,
        "territories": {t: {"owner": i % 3, "armies": 3} for i, t in enumerate(ids)},
        "family": family,
    }


def test_risk2008_two_capitals_on_one_territory_are_refused(risk: Run, tmp_path: Path) -> None:
    """R08-07: each player's capital building stands on a territory of its own."""
    first = get_ruleset("risk2008").board.territories[0].id
    doc = three_players("risk2008", {"capitals": {"Ann": first, "Bob": first}})
    line = refused(risk, scenario(tmp_path, doc))
    assert f"two seats' capital on {first}" in line and "[bad_scenario]" in line


@pytest.mark.parametrize(
    ("family", "said"),
    [
        ({"vp": {"Ann": 10**7}}, "[family.vp]: 10000000 is out of range"),
        (
            {"missions": {"Ann": ["caporal_alpes"], "Bob": ["caporal_alpes"]}},
            "mission 'caporal_alpes' listed twice",
        ),
        (
            {"missions": {"Ann": ["caporal_alpes"]}, "done": {"Ann": ["caporal_alpes"]}},
            "mission 'caporal_alpes' listed twice",
        ),
        (
            {"missions": {"Ann": ["caporal_alpes", "caporal_12_territoires"]}},
            "two of one rank",
        ),
        ({"captured_generals": {"Ann": {"Ann": 1}}}, "Ann holds its own"),
    ],
)
def test_napoleon_advanced_family_errors(
    risk: Run, tmp_path: Path, family: dict[str, Any], said: str
) -> None:
    """NAP-ADV-07 (one mission of each rank in hand, each card in one place), victory points and
    captured generals in range: `bad_scenario` naming the fact."""
    doc = three_players("napoleon-advanced", family)
    line = refused(risk, scenario(tmp_path, doc))
    assert said in line and "[bad_scenario]" in line
