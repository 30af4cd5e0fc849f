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


def test_a_seat_note_that_is_not_a_function_is_refused() -> None:
    """A family module's SEAT_NOTE must be a function(player, names): `bad_family`."""
    module = types.ModuleType("bad_note")
    module.SEAT_NOTE = "allied"  # type: ignore[attr-defined]
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(click.Group("g"), module)
    assert caught.value.code == "bad_family" and "SEAT_NOTE" in caught.value.message
