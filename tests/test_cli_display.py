"""What `risk show` and `risk log` say about armies that are not the mover's own.

Napoléon two-player independents and the classic-2p ally fight for someone else: a battle's
losses are told against the army that lost them (the owner of the origin or of the target when
the battle was fought), not against the seat that moved or chose the defence dice; napoleon-teams
stacks lose the regiments of the mover and of the defending member.  `risk show` gives each
independent's status (neutral or allied to a player) and its number of cards, never the cards.
Every position is a scenario loaded through the command line, with scripted dice.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import Result

import risk_core as rc
from risk_cli import families, render

Run = Callable[..., Result]
CLASSIC = [t.id for t in rc.load_board("classic").territories]
NAPOLEON = [t.id for t in rc.load_board("napoleon").territories]


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def new_game(risk: Run, tmp_path: Path, doc: dict[str, Any], *more: str) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    game: str = out(risk, "new", "--scenario", str(path), *more)["game_id"]
    return game


def log_lines(risk: Run, game: str) -> list[str]:
    """`risk log` without its version numbers."""
    return [line.strip().split("  ", 1)[1] for line in risk("log", game).stdout.splitlines()]


def player_rows(risk: Run, game: str, *more: str) -> dict[str, str]:
    """`risk show`'s players table: each seat's row by the seat's name."""
    rows: dict[str, str] = {}
    for line in risk("show", game, *more).stdout.splitlines():
        cells = line.split()
        if len(cells) > 2 and cells[0].isdigit() and cells[2].startswith("("):
            rows[cells[1]] = " ".join(cells[3:])
    return rows


# --------------------------------------------------------------------------- napoleon-2p
def independents_doc() -> dict[str, Any]:
    """Ann (seat 0) to attack: her Portugal (5) borders Castile, held by Yellow (seat 3,
    neutral, 2 cards given); her ally Green (seat 2) holds Andalusia (8), next to Castile and to
    Bob's Morocco (3).  Each battle below: 6-1-1 against 5-1, one loss on each side."""
    territories = {t: {"owner": i % 6, "armies": 2} for i, t in enumerate(NAPOLEON)}
    territories.update(
        portugal={"owner": 0, "armies": 5},
        castille={"owner": 3, "armies": 3},
        andalousie={"owner": 2, "armies": 8},
        maroc_fes_etats_barbaresques={"owner": 1, "armies": 3},
    )
    return {
        "ruleset": "napoleon-2p",
        "players": ["Ann", "Bob"],
        "seed": 5,
        "phase": "attack",
        "options": {"independents": "active"},
        # Ann on Yellow, Yellow's status die (4: a step away from Ann, to Bob); Green on Bob,
        # Green's status die (6: stays); Green on Yellow, both status dice (6, 6).
        "dice": [6, 1, 1, 5, 1, 4, 6, 1, 1, 5, 1, 6, 6, 1, 1, 5, 1, 6, 6],
        "territories": territories,
        "hands": {"Yellow": ["egypte", "syrie"]},
        "family": {"allies": {"Green": "Ann"}},
    }


def test_the_players_table_keeps_its_columns_with_long_names(risk: Run) -> None:
    """`show`'s players table: a name and colour longer than the column (the 1796 campaign's
    "Austrians (white)") widens it for every row instead of shifting its own."""
    risk("new", "--rules", "napoleon-1796", "--players", "Ann,Bob", "--seed", "4", "--id", "c")
    lines = risk("show", "c").stdout.splitlines()
    head = next(i for i, x in enumerate(lines) if x.lstrip().startswith("seat player"))
    rows = lines[head : head + 7]
    ends = {x.index("territories") + len("territories") for x in rows[:1]}
    for row in rows[1:]:
        words = row.split()
        number = words[words.index(next(w for w in words if w.startswith("("))) + 1]
        ends.add(row.index(f" {number} ") + len(number) + 1)
    assert len(ends) == 1, rows


def test_an_independent_attacked_loses_its_own_armies_in_the_log(risk: Run, tmp_path: Path) -> None:
    """NAP-2PP-01: Bob chooses the neutral Yellow's defence dice, but the army lost is
    Yellow's; the status die follows the invasion when Ann ends her attacks (NAP-2PA-09)."""
    game = new_game(risk, tmp_path, independents_doc())
    risk("attack", game, "portugal", "castille", "--dice", "3")
    risk("end", game)
    lines = log_lines(risk, game)
    battle = "Ann attacks Castile from Portugal: 6-1-1 against 5-1; Ann loses 1 and Yellow loses 1."
    at = lines.index(battle)
    assert lines[at + 1] == "Status die for Yellow: 4; now allied to Bob."


def test_an_ally_attacking_loses_its_own_armies_in_the_log(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-07: Ann attacks with her ally Green's regiments, so Green loses them; when Green
    attacks Yellow (allied to Bob since its status die), Green and Yellow lose, not Ann and Bob.
    Each invasion's status dice come when Ann turns to another target or ends her attacks."""
    game = new_game(risk, tmp_path, independents_doc())
    risk("attack", game, "portugal", "castille", "--dice", "3")
    risk("attack", game, "andalousie", "maroc_fes_etats_barbaresques", "--dice", "3")
    risk("attack", game, "andalousie", "castille", "--dice", "3")
    risk("end", game)
    lines = log_lines(risk, game)
    at = lines.index("Status die for Yellow: 4; now allied to Bob.")
    assert lines[at + 1 : at + 6] == [
        "Ann attacks Morocco, Fez & Barbary States from Andalusia: 6-1-1 against 5-1; "
        "Green loses 1 and Bob loses 1.",
        "Status die for Green: 6; now allied to Ann.",
        "Ann attacks Castile from Andalusia: 6-1-1 against 5-1; Green loses 1 and Yellow loses 1.",
        "Status die for Green: 6; now allied to Ann.",
        "Status die for Yellow: 6; now allied to Bob.",
    ]
    # Replayed from the middle, the owners of the events left out still count.
    replayed = risk("replay", game, "--from", "7").stdout.splitlines()
    assert replayed[0].endswith("Green loses 1 and Bob loses 1.")


def test_show_gives_each_independents_status_and_card_count(risk: Run, tmp_path: Path) -> None:
    """NAP-2PA-01: right after "Status die for Yellow: 4; now allied to Bob." the players table
    says so; the other independents are Green (Ann's ally) and two neutrals.  Yellow's two cards
    are counted, never shown, even to a player."""
    game = new_game(risk, tmp_path, independents_doc())
    rows = player_rows(risk, game)
    assert rows["Yellow"].split()[-1] == "neutral"
    risk("attack", game, "portugal", "castille", "--dice", "3")
    risk("end", game)  # the invasion is over: Yellow's status die (NAP-2PA-09)
    rows = player_rows(risk, game)
    assert rows["Green"].endswith("allied to Ann")
    assert rows["Yellow"].split()[2] == "2"  # after territories and armies: its cards
    assert rows["Yellow"].endswith("allied to Bob") and "neutral" not in rows["Yellow"]
    assert rows["Black"].endswith("neutral") and rows["Purple"].endswith("neutral")
    assert rows["Ann"].split()[2:] == ["0"] and rows["Bob"].split()[2:] == ["0"]
    shown = risk("show", game, "--as", "Ann").stdout
    assert shown.count("Your hand") == 1 and "Your hand (Ann): no cards" in shown
    board = rc.load_board("napoleon")
    cards = [board.territory_card(board.index[t]) for t in ("egypte", "syrie")]
    labels = [board.card_label(c) for c in cards if c is not None]
    assert len(labels) == 2
    assert not any(label in shown for label in labels)


def test_a_passive_independent_is_still_called_neutral(risk: Run, tmp_path: Path) -> None:
    """NAP-2PP: passive independents have no status to show: the core's word stays."""
    doc = independents_doc()
    doc["options"] = {"independents": "passive"}
    del doc["family"]
    game = new_game(risk, tmp_path, doc)
    rows = player_rows(risk, game)
    assert all(rows[name].endswith("neutral") for name in ("Green", "Yellow", "Black", "Purple"))
    risk("attack", game, "portugal", "castille", "--dice", "3")
    assert log_lines(risk, game)[-1].endswith("Ann loses 1 and Yellow loses 1.")


# --------------------------------------------------------------------------- classic-2p
def test_classic_2p_ally_battles_name_the_ally(risk: Run, tmp_path: Path) -> None:
    """CL-2P-05/DEC-10: Ann attacks Bob from the ally's Alaska (the ally loses), then the ally's
    Alaska from Alberta (Bob rolls its defence, the ally loses)."""
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(CLASSIC)}
    territories.update(
        alaska={"owner": 2, "armies": 6},
        kamchatka={"owner": 1, "armies": 3},
        alberta={"owner": 0, "armies": 6},
    )
    doc = {
        "ruleset": "classic-2p",
        "players": ["Ann", "Bob"],
        "seed": 3,
        "phase": "attack",
        "dice": [6, 1, 1, 5, 1, 6, 1, 1, 5, 1],
        "territories": territories,
    }
    game = new_game(risk, tmp_path, doc)
    risk("attack", game, "alaska", "kamchatka", "--dice", "3")
    risk("attack", game, "alberta", "alaska", "--dice", "3")
    assert log_lines(risk, game)[-2:] == [
        "Ann attacks Kamchatka from Alaska: 6-1-1 against 5-1; Ally loses 1 and Bob loses 1.",
        "Ann attacks Alaska from Alberta: 6-1-1 against 5-1; Ann loses 1 and Ally loses 1.",
    ]


def test_classic_2p_an_ally_conquest_names_the_ally_as_the_new_owner(
    risk: Run, tmp_path: Path
) -> None:
    """CL-2P-06/07, DEC-10: Ann takes Kamchatka with the ally's armies from Alaska; the ally
    holds it, so the conquest is the ally's, in Ann's attack (no card for Ann), not Ann's."""
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(CLASSIC)}
    territories.update(
        alaska={"owner": 2, "armies": 6},
        kamchatka={"owner": 1, "armies": 1},
    )
    doc = {
        "ruleset": "classic-2p",
        "players": ["Ann", "Bob"],
        "seed": 3,
        "phase": "attack",
        "dice": [6, 1, 1, 5],
        "territories": territories,
    }
    game = new_game(risk, tmp_path, doc)
    told = click.unstyle(risk("attack", game, "alaska", "kamchatka", "--dice", "3").stdout)
    line = "Ally conquers Kamchatka from Bob in Ann's attack, moving in 3 armies (up to 5)."
    assert line in told.splitlines()
    assert log_lines(risk, game)[-1] == line
    board = json.loads(risk("show", game, "--json").stdout)
    assert board["territories"]["kamchatka"]["owner"] == 2


# --------------------------------------------------------------------------- napoleon-teams
def test_napoleon_teams_stacks_lose_the_fighting_members_regiments(
    risk: Run, tmp_path: Path
) -> None:
    """DEC-20: Ann attacks with her own regiments from Anatolia, which Cy controls (4 to her 3);
    Bob defends Syria, which Dan controls.  The losses are Ann's and Bob's."""
    territories = {t: {"owner": i % 4, "armies": 2} for i, t in enumerate(NAPOLEON)}
    for stacked in ("anatolie", "syrie"):
        del territories[stacked]
    doc = {
        "ruleset": "napoleon-teams",
        "players": ["Ann", "Bob", "Cy", "Dan"],
        "seed": 2,
        "phase": "attack",
        "dice": [6, 1, 5, 1],
        "territories": territories,
        "family": {"stacks": {"anatolie": {"Ann": 3, "Cy": 4}, "syrie": {"Dan": 3, "Bob": 2}}},
    }
    game = new_game(risk, tmp_path, doc, "--ask", "Dan", "--ask", "Bob")
    risk("attack", game, "anatolie", "syrie", "--dice", "2")
    risk("designate", game, "Bob", "--as", "Dan")
    risk("defend", game, "2", "--as", "Bob")
    assert log_lines(risk, game)[-1] == (
        "Ann attacks Syria from Anatolia: 6-1 against 5-1; Ann loses 1 and Bob loses 1."
    )


# --------------------------------------------------------------------------- one event at a time
def test_a_battle_before_any_known_owner_names_the_mover_and_defender() -> None:
    """Without the events that deal the territories (a move's own report), a battle's losses
    fall back on the mover and the seat that chose the defence dice."""
    seats = [{"name": n, "colour": "red", "neutral": n == "Ally"} for n in ("Ann", "Bob", "Ally")]
    n = render.Names(rc.load_board("classic"), seats)
    battle = {
        "type": "battle",
        "seat": 0,
        "origin": "alaska",
        "target": "kamchatka",
        "defender": 1,
        "attack": [6, 1],
        "defence": [5, 1],
        "attacker_losses": 1,
        "defender_losses": 1,
    }
    line = "Ann attacks Kamchatka from Alaska: 6-1 against 5-1; Ann loses 1 and Bob loses 1."
    assert click.unstyle(render.event_line(battle, n)) == line
    known = render.Names(n.board, seats, owners={"alaska": 2})
    assert click.unstyle(render.event_line(battle, known)).endswith("Ally loses 1 and Bob loses 1.")
    # A move's report starts from the view after it: each conquest it told is undone first.
    after = {"territories": {"alaska": {"owner": 0, "armies": 3}, "yakutsk": {"owner": 1}}}
    conquest = {"type": "conquered", "seat": 0, "origin": "alberta", "target": "alaska"}
    owners = render.owners_before(after, [battle, {**conquest, "previous": 2}])
    assert owners == {"alaska": 2, "yakutsk": 1}


def test_a_conquest_by_the_allys_armies_says_so() -> None:
    """CL-2P-06/07 (NAP-2PA-07/08 alike): a conquest the neutral ally's armies made in the
    mover's attack is the ally's, where it read as the mover's own."""
    seats = [{"name": n, "colour": "red", "neutral": n == "Ally"} for n in ("Ann", "Bob", "Ally")]
    board = rc.load_board("classic")
    taken = {"type": "conquered", "seat": 0, "origin": "alaska", "target": "kamchatka"}
    taken |= {"previous": 1, "min": 1, "max": 3}
    allied = render.Names(board, seats, owners={"alaska": 2})
    assert click.unstyle(render.event_line(taken, allied)) == (
        "Ally conquers Kamchatka from Bob in Ann's attack, moving in 1 army (up to 3)."
    )
    own = render.Names(board, seats, owners={"alaska": 0})
    assert click.unstyle(render.event_line(taken, own)) == (
        "Ann conquers Kamchatka from Bob, moving in 1 army (up to 3)."
    )


def test_a_mission_text_that_is_not_a_function_is_refused() -> None:
    """A family module's MISSION_TEXT must be a function(names, mission): `bad_family`."""
    module = types.ModuleType("bad_mission_text")
    module.MISSION_TEXT = {"m1": "Hold it"}  # type: ignore[attr-defined]
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(click.Group("g"), module)
    assert caught.value.code == "bad_family" and "MISSION_TEXT" in caught.value.message


def test_a_seat_note_that_is_not_a_function_is_refused() -> None:
    """A family module's SEAT_NOTE must be a function(player, names): `bad_family`."""
    module = types.ModuleType("bad_note")
    module.SEAT_NOTE = "allied"  # type: ignore[attr-defined]
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(click.Group("g"), module)
    assert caught.value.code == "bad_family" and "SEAT_NOTE" in caught.value.message


# --------------------------------------------------------------------------- issue 13: show
def decision_doc(**more: Any) -> dict[str, Any]:
    """Ann (red, seat 0) to reinforce, holding three infantry on her own territories and all
    of Australia; Bob (blue) holds three cavalry; every other continent split evenly."""
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(CLASSIC)}
    for t in ("indonesia", "new_guinea", "western_australia", "eastern_australia"):
        territories[t] = {"owner": 0, "armies": 2}
    doc: dict[str, Any] = {
        "ruleset": "classic",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 4,
        "phase": "reinforce",
        "territories": territories,
        "hands": {
            "Ann": ["alaska", "alberta", "western_united_states"],
            "Bob": ["greenland", "ontario", "central_america"],
        },
        "missions": {"Ann": "destroy_black", "Bob": "destroy_blue", "Cy": "destroy_red"},
    }
    doc.update(more)
    return doc


def test_show_tells_set_values_sets_holdings_and_missions(risk: Run, tmp_path: Path) -> None:
    """issue 13: `show` gives what a set is worth (the rule set's fixed table), the sets the
    hand can trade now with their worth and bonus territories, each continent's holdings,
    and a destroy mission resolved to this game (the colour absent: the fallback)."""
    game = new_game(risk, tmp_path, decision_doc())
    text = risk("show", game, "--as", "Ann").stdout
    lines = text.splitlines()
    assert (
        "Cards: a set is worth 4 (3 artillery), 6 (3 infantry), 8 (3 cavalry), "
        "10 (one of each); with jokers up to 12." in lines
    )
    assert "Australia (bonus 2) · held by Ann" in lines
    assert "North America (bonus 5) · Ann 3/9, Bob 3/9, Cy 3/9" in lines
    at = lines.index("  Sets you can trade now:")
    assert lines[at + 1] == (
        "    [0] Alaska (infantry), [3] Alberta (infantry), [6] Western United States "
        "(infantry) → 6 armies, extra armies on Alaska, Alberta, Western United States"
    )
    assert "  In this game: No army is black in this game: conquer 24 territories instead." in lines
    bob = risk("show", game, "--as", "Bob").stdout.splitlines()
    assert "  Sets in your hand (not tradeable at this moment):" in bob
    assert "  In this game: Your own army is blue: conquer 24 territories instead." in bob
    cy = risk("show", game, "--as", "Cy").stdout.splitlines()
    assert (
        "  In this game: Destroy Ann (red); if another player destroys them first, conquer 24 "
        "territories instead." in cy
    )


def test_show_json_adds_the_same_facts_and_keeps_secrets(risk: Run, tmp_path: Path) -> None:
    """issue 13: `show --json` gains set_values, holdings, a hand's sets and a mission's
    reading (additive: every earlier key stays); a spectator sees no sets and no mission."""
    game = new_game(risk, tmp_path, decision_doc())
    v = out(risk, "show", game, "--as", "Ann")
    assert {"rules", "players", "territories", "phase", "trades", "options"} <= set(v)
    assert v["set_values"]["next"] is None and v["set_values"]["escalates"] is False
    triples = {tuple(k["symbols"]): k["value"] for k in v["set_values"]["by_symbols"]}
    assert triples[("infantry",) * 3] == 6 and triples[("artillery", "cavalry", "infantry")] == 10
    australia = next(h for h in v["holdings"] if h["group"] == "australia")
    assert australia == {"group": "australia", "size": 4, "held": [4, 0, 0], "owner": 0}
    ann = v["players"][0]
    assert ann["sets"] == [
        {
            "cards": [0, 3, 6],
            "value": 6,
            "bonus": ["alaska", "alberta", "western_united_states"],
            "now": True,
        }
    ]
    assert ann["mission"]["reading"] == {
        "text_en": "No army is black in this game: conquer 24 territories instead.",
        "target": None,
        "fallback": True,
    }
    assert "sets" not in v["players"][1] and "mission" not in v["players"][1]
    spectator = out(risk, "show", game)
    assert all("sets" not in p and "mission" not in p for p in spectator["players"])
    assert spectator["holdings"] == v["holdings"]


@pytest.mark.parametrize(
    ("ruleset", "options", "values"),
    [
        ("classic-conquest", {}, [12, 15, 20, 25]),
        ("napoleon", {"golden_cavalry": "fives"}, [15, 20, 25, 30]),
        ("napoleon", {}, [12, 15, 20, 25]),
    ],
)
def test_show_gives_the_next_set_value_on_escalating_tracks(
    risk: Run, tmp_path: Path, ruleset: str, options: dict[str, str], values: list[int]
) -> None:
    """issue 13: the next set value after 4 trades and the following ones: conquest
    escalation (CL-CQ-02) and the Golden Cavalry on its DEC-01 readings (NAP-11)."""
    ids = CLASSIC if ruleset.startswith("classic") else NAPOLEON
    doc = {
        "ruleset": ruleset,
        "players": ["Ann", "Bob", "Cy"],
        "seed": 2,
        "options": options,
        "trades": 4,
        "territories": {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(ids)},
    }
    game = new_game(risk, tmp_path, doc)
    then = ", ".join(map(str, values[1:]))
    expected = f"Cards: the next set traded is worth {values[0]} armies (then {then}…)."
    assert expected in risk("show", game).stdout.splitlines()
    shown = out(risk, "show", game)["set_values"]
    assert shown["escalates"] is True
    assert [shown["next"], *shown["following"]] == values


def test_turn_income_names_the_continents(risk: Run, tmp_path: Path) -> None:
    """issue 13: a turn's income names its continents ("+ Australia", "+ United Kingdom"),
    not their ids."""
    doc = decision_doc(phase="attack", hands={}, missions={})
    for t in ("indonesia", "new_guinea", "western_australia", "eastern_australia"):
        doc["territories"][t]["owner"] = 1
    game = new_game(risk, tmp_path, doc)
    said = risk("end", game).stdout
    assert "territories + Australia)." in said and "australia)" not in said
    territories = {t: {"owner": i % 3, "armies": 2} for i, t in enumerate(NAPOLEON)}
    for t in ("angleterre", "ecosse", "irlande"):
        territories[t] = {"owner": 1, "armies": 2}
    nap = {
        "ruleset": "napoleon",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 2,
        "phase": "attack",
        "territories": territories,
    }
    game = new_game(risk, tmp_path, nap)
    said = risk("end", game).stdout
    assert "+ United Kingdom)." in said and "royaume_uni" not in said


# --------------------------------------------------------------------------- issue 13: feedback
def battle_doc(dice: list[int]) -> dict[str, Any]:
    """Ann to attack: Alaska (4) against Bob's Kamchatka (3), Greenland (10) against Bob's
    Iceland (1); Alberta holds her single army."""
    doc = decision_doc(phase="attack", hands={}, missions={}, dice=dice)
    doc["territories"].update(
        alaska={"owner": 0, "armies": 4},
        kamchatka={"owner": 1, "armies": 3},
        greenland={"owner": 0, "armies": 10},
        iceland={"owner": 1, "armies": 1},
        alberta={"owner": 0, "armies": 1},
    )
    return doc


def test_an_attack_until_conquest_says_why_it_stopped(risk: Run, tmp_path: Path) -> None:
    """issue 13: `attack --until-conquer --stop-at 2` stopping short says so, as asked; with
    the default stop the origin is down to the army that cannot attack (text and JSON)."""
    game = new_game(risk, tmp_path, battle_doc([1, 1, 1, 6, 6, 1, 6, 6]))
    lines = risk("attack", game, "alaska", "kamchatka", "--until-conquer", "--stop-at", "2")
    assert lines.stdout.splitlines()[1] == (
        "Stopped: Alaska is down to 2 armies, as asked (--stop-at 2); Kamchatka holds with "
        "3 armies."
    )
    said = out(risk, "attack", game, "alaska", "kamchatka", "--until-conquer")
    assert said["stopped"] == {
        "origin": "alaska",
        "target": "kamchatka",
        "armies_left": 1,
        "target_armies": 3,
        "stop_at": 1,
    }
    assert {"game_id", "version", "events", "phase", "to_act", "winner"} <= set(said)


def test_must_occupy_and_a_lone_army_say_what_is_allowed(risk: Run, tmp_path: Path) -> None:
    """issue 13: `must_occupy` names the command and the range; a free move from a territory
    with one army says nothing can move, never "Move 1 to 0 armies"."""
    game = new_game(risk, tmp_path, battle_doc([6, 6, 6, 1]))
    result = risk("fortify", game, "alberta", "alaska", "1", code=1)
    assert result.stderr == (
        "Error: Nothing can move out of Alberta: its last army must stay. [not_enough_armies]\n"
    )
    risk("attack", game, "greenland", "iceland")
    result = risk("end", game, code=1)
    assert result.stderr == (
        "Error: Move armies into Iceland first: occupy with 3 to 9 armies. [must_occupy]\n"
    )
    result = risk("occupy", game, "12", code=1)
    assert result.stderr == "Error: Move between 3 and 9 armies into Iceland. [bad_count]\n"


def test_setup_bad_count_names_the_option(risk: Run) -> None:
    """issue 13: placing several armies at once in an alternate setup names setup_placement."""
    v = out(risk, "new", "--players", "Ann,Bob,Cy", "--seed", "42")
    shown = out(risk, "show", v["game_id"])
    mine = next(t for t, c in shown["territories"].items() if c["owner"] == shown["to_act"])
    result = risk("place", v["game_id"], mine, "3", code=1)
    assert "setup_placement" in result.stderr and "all_at_once" in result.stderr
    assert result.stderr.rstrip().endswith("[bad_count]")


def test_a_destroy_mission_reads_after_an_elimination() -> None:
    """issue 13 (CL-22): once the colour is destroyed, by another the fallback applies, by the
    holder the mission is done; as `mission_done` checks it."""
    import msgspec

    from risk_core.insight import mission_reading

    state = rc.replay(rc.start("classic", ["Ann", "Bob", "Cy"], seed=1))
    destroy_blue = next(m for m in rc.load_board("classic").missions if m.id == "destroy_blue")
    live = mission_reading(state, 0, destroy_blue)
    assert live == {
        "text_en": "Destroy Bob (blue); if another player destroys them first, conquer 24 "
        "territories instead.",
        "target": 1,
        "fallback": False,
    }
    for by, text, fallback in (
        (2, "Bob (blue) was destroyed by Cy: conquer 24 territories instead.", True),
        (0, "Destroy Bob (blue): done.", False),
    ):
        state.players[1] = msgspec.structs.replace(
            state.players[1], eliminated=True, eliminated_by=by
        )
        reading = mission_reading(state, 0, destroy_blue)
        assert reading is not None and (reading["text_en"], reading["fallback"]) == (text, fallback)


@pytest.mark.parametrize(
    ("event", "said"),
    [
        (
            {"type": "leaders_committed", "seat": 0, "origin": "egypte", "count": 1},
            "1 general leads the attack from",
        ),
        (
            {"type": "leaders_committed", "seat": 0, "origin": "egypte", "count": 2},
            "2 generals lead the attack from",
        ),
        (
            {
                "type": "fleet_moved",
                "seat": 0,
                "origin": "mer_du_nord",
                "target": "mer_baltique",
                "ships": 1,
                "kind": "maneuver",
            },
            "1 ship maneuvers to",
        ),
        (
            {
                "type": "fleet_moved",
                "seat": 0,
                "origin": "mer_du_nord",
                "target": "mer_baltique",
                "ships": 2,
                "kind": "invade",
            },
            "2 ships sail into",
        ),
    ],
)
def test_advanced_napoleon_lines_agree_in_number(event: dict[str, Any], said: str) -> None:
    """NAP-ADV-27/33 events told as sentences whose verb agrees with the count."""
    from risk_cli.families import install_ruleset
    from risk_cli.main import cli
    from risk_core.rulesets import get as get_ruleset

    install_ruleset(cli, "napoleon-advanced")  # the family's event texts, as `risk` loads them

    seats = [{"name": n, "colour": "red"} for n in ("Ann", "Bob", "Cy")]
    n = render.Names(get_ruleset("napoleon-advanced").board, seats)
    assert said in click.unstyle(render.event_line(event, n))


@pytest.mark.parametrize(
    ("event", "said"),
    [
        (
            {"type": "eliminated", "seat": 3, "by": 0, "cards": [], "card_count": 0},
            "Prussians are eliminated by Chris.",
        ),
        (
            {"type": "eliminated", "seat": 0, "by": 1, "cards": [], "card_count": 0},
            "Chris is eliminated by Ally.",
        ),
        (
            {"type": "ally_reinforcement_rolled", "seat": 0, "ally": 2, "face": 3},
            "White independents receive 3 regiments.",
        ),
        (
            {"type": "ally_reinforcement_rolled", "seat": 0, "ally": 1, "face": 1},
            "Ally receives 1 regiment.",
        ),
        (
            {"type": "army_perished", "seat": 3, "cards": []},
            "Prussians have lost every territory to epidemics and leave the map",
        ),
        (
            {
                "type": "leaders_captured",
                "kind": "general",
                "owner": 0,
                "by": 3,
                "count": 1,
                "where": "prusse",
            },
            "Prussians capture 1 general of Chris",
        ),
    ],
)
def test_a_plural_army_name_takes_a_plural_verb(event: dict[str, Any], said: str) -> None:
    """NAP-CAMP-03, NAP-2PA-01: the armies a rule set names after a people or a group
    ("Prussians", "White independents") take a plural verb; a player's own name ("Chris") and
    a singular army ("Ally") keep the singular."""
    from risk_cli.families import install_ruleset
    from risk_cli.main import cli
    from risk_core.rulesets import get as get_ruleset

    install_ruleset(cli, "napoleon-1796")  # the family's event texts, as `risk` loads them

    seats = [
        {"name": "Chris", "colour": "blue"},
        {"name": "Ally", "colour": "red", "neutral": True},
        {"name": "White independents", "colour": "white", "neutral": True},
        {"name": "Prussians", "colour": "black", "neutral": True},
    ]
    n = render.Names(get_ruleset("napoleon-1796").board, seats)
    assert said in click.unstyle(render.event_line(event, n))
