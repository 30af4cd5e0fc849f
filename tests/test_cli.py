"""The `risk` command line through click's CliRunner: JSON shapes, errors, secrets and help.

Each test gets its own SQLite store in tmp_path (a `memory://` store would not outlive one
invocation).  Positions come from scenario files, and dice from the scenario's dice script, so
every attack below has a known outcome.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import risk_core as rc
from boards import BOARDS_DIR
from risk_cli.main import cli

BOARD = rc.load_board("classic")
IDS = [t.id for t in BOARD.territories]
Run = Callable[..., Result]


def out(risk: Run, *args: str) -> Any:
    """The JSON a command prints with --json."""
    return json.loads(risk(*args, "--json").stdout)


def error(risk: Run, *args: str, code: int = 1) -> str:
    """The error line of a failing command (stdout must stay empty)."""
    result = risk(*args, code=code)
    assert result.stdout == ""
    return result.stderr


def scenario(tmp_path: Path, phase: str = "attack", **extra: Any) -> str:
    """Ann (seat 0) to play; she holds Peru with 10 armies next to Bob's Brazil with 1.

    Everything else is dealt round-robin with 3 armies; the next dice are 6-6-6 then 1.
    """
    territories = {t: {"owner": i % 3, "armies": 3} for i, t in enumerate(IDS)}
    territories.update(
        peru={"owner": 0, "armies": 10},
        brazil={"owner": 1, "armies": 1},
        argentina={"owner": 0, "armies": 3},
        venezuela={"owner": 2, "armies": 2},
    )
    doc = {
        "ruleset": "classic",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 11,
        "phase": phase,
        "dice": [6, 6, 6, 1],
        "territories": territories,
        "hands": {"Ann": ["alaska", "greenland", "joker"], "Bob": ["ontario", "quebec"]},
        "missions": {"Ann": "na_africa", "Bob": "na_oceania", "Cy": "asia_south_america"},
        **extra,
    }
    path = tmp_path / f"scenario-{phase}.json"
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.fixture
def game(risk: Run, tmp_path: Path) -> str:
    """A scenario game in Ann's attack phase."""
    created = out(risk, "new", "--scenario", scenario(tmp_path), "--id", "g1")
    assert created["game_id"] == "g1"
    return "g1"


def version(risk: Run, game_id: str) -> int:
    v: int = out(risk, "show", game_id)["version"]
    return v


# --------------------------------------------------------------------------- new / show / games
def test_new_prints_the_game_and_who_acts(risk: Run) -> None:
    created = out(risk, "new", "--players", "Ann,Bob", "--player", "Cy", "--seed", "7")
    assert set(created) == {"game_id", "rules", "players", "version", "phase", "to_act"}
    assert created["rules"] == "classic" and created["players"] == ["Ann", "Bob", "Cy"]
    assert created["phase"] == "setup"
    log = out(risk, "log", created["game_id"])
    assert created["version"] == log["version"] == len(log["events"])
    text = risk("new", "--players", "Ann,Bob,Cy", "--seed", "7").stdout
    assert text.startswith("Created game ") and "to act: place starting armies" in text
    # CL-05 setup=claim: territories are claimed first, and the line says so until they are.
    claim = risk("new", "--players", "Ann,Bob,Cy", "--option", "setup=claim", "--id", "cl").stdout
    assert "to act: claim an unclaimed territory with 1 army, then place starting" in claim


def test_new_with_options_and_ask(risk: Run) -> None:
    created = out(
        risk, "new", "--players", "Ann,Bob,Cy", "--seed", "1", "--option", "fortify=connected",
        "--ask", "bob", "--ask", "2", "--rules", "classic",
    )  # fmt: skip
    shown = out(risk, "show", created["game_id"])
    assert shown["options"]["fortify"] == "connected"
    assert [p["policy"] for p in shown["players"]] == ["auto", "ask", "ask"]


def test_new_errors(risk: Run) -> None:
    assert "Name the players" in error(risk, "new", code=2)
    assert "is not key=value" in error(risk, "new", "--players", "A,B,C", "--option", "x", code=2)
    err = error(risk, "new", "--players", "A,B,C", "--option", "fortify=teleport")
    assert (
        err.startswith("Error: Option fortify='teleport' is not one of")
        and "[invalid_option]" in err
    )
    assert "[bad_players]" in error(risk, "new", "--players", "A,B")
    assert "[unknown_ruleset]" in error(risk, "new", "--players", "A,B,C", "--rules", "chess")
    out(risk, "new", "--players", "A,B,C", "--id", "same")
    assert "[game_exists]" in error(risk, "new", "--players", "A,B,C", "--id", "same")


def test_show_json_shape(risk: Run, game: str) -> None:
    shown = out(risk, "show", game)
    assert {"game_id", "rules", "version", "turn", "phase", "current_player", "winner"} <= set(
        shown
    )
    assert shown["game_id"] == game and shown["phase"] == "attack" and shown["to_act"] == 0
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bob", "Cy"]
    assert {"name", "eliminated", "cards"} <= set(shown["players"][0])
    assert [p["cards"] for p in shown["players"]] == [3, 2, 0]
    assert shown["territories"]["peru"] == {"owner": 0, "armies": 10}
    assert len(shown["territories"]) == 42


def test_show_hides_other_hands_and_missions(risk: Run, game: str) -> None:
    """ENG-07: a seat sees its own hand and mission only; a spectator sees neither."""
    for p in out(risk, "show", game)["players"]:
        assert "hand" not in p and "mission" not in p
    ann, bob, cy = out(risk, "show", game, "--as", "ann")["players"]
    assert [c["territory"] for c in ann["hand"]] == ["alaska", "greenland", None]
    assert ann["mission"]["id"] == "na_africa"
    assert "hand" not in bob and "mission" not in bob and "hand" not in cy
    text = risk("show", game, "--as", "1").stdout
    assert "Your hand (Bob): [4] Ontario (cavalry), [5] Quebec (artillery)" in text
    assert "Your mission: Conquer North America and Australia" in text
    assert "Alaska (infantry)" not in text and "Conquer North America and Africa" not in text
    spectator = risk("show", game).stdout
    assert "Your hand" not in spectator and "mission" not in spectator.lower()


def test_show_board_text(risk: Run, game: str) -> None:
    text = risk("show", game).stdout
    assert "Ann (seat 0) to act: attack, fortify or end the turn." in text
    assert "South America (bonus 2)" in text
    assert [line.split() for line in text.splitlines() if line.strip().startswith("Peru")] == [
        ["Peru", "10", "Ann"]
    ]


def test_show_at_an_earlier_version(risk: Run, game: str) -> None:
    before = version(risk, game)
    risk("attack", game, "peru", "brazil")
    assert out(risk, "show", game, "--at", str(before))["territories"]["brazil"]["owner"] == 1
    assert out(risk, "show", game)["territories"]["brazil"]["owner"] == 0


def test_games_lists_games(risk: Run, game: str) -> None:
    listed = out(risk, "games")
    assert [g["game_id"] for g in listed] == [game]
    assert listed[0]["players"] == ["Ann", "Bob", "Cy"] and listed[0]["phase"] == "attack"
    assert game in risk("games").stdout


def test_games_json_uses_the_key_names_of_new_and_show(risk: Run, tmp_path: Path) -> None:
    """`risk games --json` names a game's rule set `rules` and the seat it waits for `to_act`,
    as `new` and `show` do (it said only `ruleset`, and `current_player`, which in `show` is
    the player whose turn it is): here Bob must defend (CORE-15, --ask) during Ann's turn."""
    created = out(risk, "new", "--scenario", scenario(tmp_path), "--id", "g1", "--ask", "Bob")
    risk("attack", "g1", "peru", "brazil")
    shown = out(risk, "show", "g1")
    assert (shown["current_player"], shown["to_act"]) == (0, 1)
    (listed,) = out(risk, "games")
    assert listed["rules"] == created["rules"] == shown["rules"] == "classic"
    assert listed["to_act"] == shown["to_act"] == 1
    assert (listed["ruleset"], listed["current_player"]) == ("classic", 1)  # as before


# --------------------------------------------------------------------------- moves
def test_attack_occupy_fortify_json(risk: Run, game: str) -> None:
    before = version(risk, game)
    moved = out(risk, "attack", game, "Pérou", "BRAZIL", "--as", "Ann")
    assert set(moved) == {"game_id", "version", "events", "phase", "to_act", "winner"}
    assert [e["type"] for e in moved["events"]] == ["battle", "conquered"]
    battle = moved["events"][0]
    assert battle["attack"] == [6, 6, 6] and battle["defence"] == [1]
    assert moved["version"] == before + 2 and moved["phase"] == "occupy"
    occupied = out(risk, "occupy", game, "5")
    assert occupied["events"] == [
        {"type": "occupied", "seat": 0, "origin": "peru", "target": "brazil", "extra": 2}
    ]
    fortified = out(risk, "fortify", game, "peru", "argentina", "2")
    types = [e["type"] for e in fortified["events"]]
    assert types == ["fortified", "card_drawn", "turn_ended", "turn_started"]
    assert fortified["events"][1]["card"] is not None  # Ann sees her own draw
    assert fortified["to_act"] == 1


def test_move_text_output(risk: Run, game: str) -> None:
    text = risk("attack", game, "peru", "brazil", "--until-conquer", "--move", "9").stdout
    assert "Ann attacks Brazil from Peru: 6-6-6 against 1; Bob loses 1." in text
    assert "Ann conquers Brazil from Bob, moving in 3 armies (up to 9)." in text
    assert "Ann moves 6 more into Brazil from Peru." in text
    assert text.rstrip().endswith("Ann (seat 0) to act: attack, fortify or end the turn.")


def test_others_see_draws_hidden(risk: Run, game: str) -> None:
    """ENG-07: the card Ann draws is shown to Ann only."""
    risk("attack", game, "peru", "brazil", "--move", "3")
    ended = out(risk, "end", game)
    drawn = [e for e in ended["events"] if e["type"] == "card_drawn"]
    assert drawn[0]["card"] is not None
    for seat in ("Bob", "Cy"):
        logged = out(risk, "log", game, "--as", seat)["events"]
        assert [e["card"] for e in logged if e["type"] == "card_drawn"] == [None]
    assert "Ann draws a card." in risk("log", game, "--as", "Bob").stdout


def test_trade_by_name_and_joker(risk: Run, tmp_path: Path) -> None:
    out(risk, "new", "--scenario", scenario(tmp_path, phase="reinforce"), "--id", "r")
    traded = out(risk, "trade", "r", "Alaska", "greenland", "joker")
    [ev] = traded["events"]
    assert ev["type"] == "cards_traded" and ev["cards"] == [0, 2, 42] and ev["value"] == 10
    assert ev["bonus"] == ["alaska"]
    assert out(risk, "show", "r", "--as", "0")["players"][0]["hand"] == []


def test_defend_when_asked(risk: Run, tmp_path: Path) -> None:
    """ENG-06: a seat created with --ask chooses its own defence dice."""
    out(risk, "new", "--scenario", scenario(tmp_path), "--id", "d", "--ask", "Bob")
    asked = out(risk, "attack", "d", "peru", "brazil")
    assert [e["type"] for e in asked["events"]] == ["defence_requested"]
    assert asked["to_act"] == 1 and asked["phase"] == "defend"
    assert "[not_your_turn]" in error(risk, "defend", "d", "1", "--as", "Ann")
    answered = out(risk, "defend", "d", "1")
    assert [e["type"] for e in answered["events"]] == ["battle", "conquered"]


def test_submit_json_and_stdin(risk: Run, game: str) -> None:
    command = '{"type": "attack", "origin": "peru", "target": "brazil", "dice": 3}'
    submitted = out(risk, "submit", game, command)
    assert submitted["events"][0]["type"] == "battle"
    occupied = json.loads(
        risk("submit", game, "-", "--json", input='{"type": "occupy", "count": 3}').stdout
    )
    assert occupied["events"][0]["type"] == "occupied"
    assert "[bad_command]" in error(risk, "submit", game, "{not json")
    assert "[bad_command]" in error(risk, "submit", game, '{"type": "jump"}')


# --------------------------------------------------------------------------- errors
def test_illegal_move_changes_nothing(risk: Run, game: str) -> None:
    """CORE-20: attacking one's own territory is rejected, with the stable code, exit 1."""
    before = version(risk, game)
    err = error(risk, "attack", game, "peru", "argentina")
    assert err == "Error: You cannot attack Argentina: it is yours. [own_territory]\n"
    assert version(risk, game) == before


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("place", "peru", "1"), "wrong_phase"),  # reinforcing outside the reinforcement phase
        (("attack", "brazil", "peru"), "not_owner"),  # attacking from a territory not owned
        (("attack", "peru", "northwest_territory"), "not_adjacent"),
        (("attack", "peru", "brazil", "--dice", "4"), "too_many_dice"),
        (("attack", "peru", "brazil", "--dice", "0"), "bad_count"),  # CORE-14: at least 1 die
        (("trade", "alaska", "greenland", "joker"), "wrong_phase"),  # trading while attacking
        (("fortify", "peru", "northwest_territory", "2"), "not_owner"),
        (("occupy", "3"), "wrong_phase"),
        (("defend", "1"), "wrong_phase"),
    ],
)
def test_forbidden_actions(risk: Run, game: str, args: tuple[str, ...], code: str) -> None:
    """CORE-20: each forbidden action fails with its code and leaves the game unchanged."""
    before = version(risk, game)
    command, *rest = args
    err = error(risk, command, game, *rest)
    assert err.startswith("Error: ") and err.endswith(f" [{code}]\n")
    assert version(risk, game) == before


def test_wrong_seat(risk: Run, game: str) -> None:
    err = error(risk, "end", game, "--as", "Bob")
    assert err == "Error: It is Ann's move (seat 0), not seat 1's. [not_your_turn]\n"


def test_wrong_seat_from_the_environment(
    risk: Run, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RISK_SEAT", "cy")
    assert "[not_your_turn]" in error(risk, "end", game)


def test_unknown_territory_suggests(risk: Run, game: str) -> None:
    err = error(risk, "attack", game, "peru", "brasil")
    assert err == "Error: Unknown territory 'brasil'. Did you mean 'brazil'? [unknown_territory]\n"


def test_unknown_game_and_seat(risk: Run, game: str) -> None:
    err = error(risk, "show", "nope")
    assert err.startswith("Error: ") and err.endswith("[unknown_game]\n")
    assert "[unknown_game]" in error(risk, "end", "nope")
    err = error(risk, "show", game, "--as", "Zed")
    assert err == "Error: No seat 'Zed' in this game (seats: 0 Ann, 1 Bob, 2 Cy). [unknown_seat]\n"


def test_usage_errors_exit_2(risk: Run, game: str) -> None:
    assert "Missing argument" in error(risk, "place", game, code=2)
    assert "No such command" in error(risk, "jump", code=2)
    assert "is not a valid integer" in error(risk, "occupy", game, "many", code=2)


# --------------------------------------------------------------------------- log
def test_log_lines_and_json(risk: Run, game: str) -> None:
    risk("attack", game, "peru", "brazil", "--move", "4")
    lines = risk("log", game).stdout.splitlines()
    assert lines[0].split(maxsplit=1) == ["1", "New classic game on the classic board: "
                                          "Ann (red), Bob (blue), Cy (green)."]  # fmt: skip
    assert any("Ann attacks Brazil from Peru: 6-6-6 against 1; Bob loses 1." in x for x in lines)
    assert any("Ann moves 1 more into Brazil from Peru." in x for x in lines)
    logged = out(risk, "log", game, "--as", "Ann")
    assert logged["version"] == len(logged["events"]) == version(risk, game)
    started = logged["events"][0]
    assert started["type"] == "game_started" and "seed" not in started


# --------------------------------------------------------------------------- catalogues
def test_rules(risk: Run) -> None:
    names = [r["name"] for r in out(risk, "rules")]
    assert {"classic", "classic-conquest", "classic-2p"} <= set(names)
    classic = out(risk, "rules", "classic")
    assert classic["options"]["fortify"]["default"] == "adjacent"
    text = risk("rules", "classic").stdout
    assert "fortify = adjacent   [adjacent | connected]" in text and "CL-19" in text
    assert "[unknown_ruleset]" in error(risk, "rules", "chess")


def test_rules_list_keeps_every_name_apart_from_its_title(risk: Run) -> None:
    """`risk rules`: each rule set's line is its name, spaces, then its title, however long
    the longest name (clonewars-standard ran into its title)."""
    infos = out(risk, "rules")
    lines = risk("rules").stdout.splitlines()
    for info in infos:
        line = next(x for x in lines if x.startswith(info["name"] + " "))
        assert line.split()[0] == info["name"]
        assert line[len(info["name"]) :].startswith("  ")
        assert info["title"] in line


def test_boards(risk: Run) -> None:
    """The shipped boards and the rule families' own (the advanced Napoléon's)."""
    from risk_core.board import family_board_names

    listed = [b["id"] for b in out(risk, "boards")]
    assert listed == sorted({*rc.board_names(), *family_board_names()})
    assert {"classic", "napoleon", "napoleon-advanced"} <= set(listed)
    shown = json.loads(risk("boards", "show", "classic", "--json").stdout)
    assert shown == json.loads((BOARDS_DIR / "classic" / "board.json").read_text())
    assert (
        "South America (bonus 2): Venezuela, Peru, Brazil, Argentina"
        in risk("boards", "show", "classic").stdout
    )
    assert "[unknown_board]" in error(risk, "boards", "show", "atlantis")


def test_boards_check(risk: Run, tmp_path: Path) -> None:
    good = tmp_path / "good"
    shutil.copytree(BOARDS_DIR / "classic", good)
    assert risk("boards", "check", str(good)).stdout.startswith("OK: classic v")
    assert out(risk, "boards", "check", str(good))["territories"] == 42

    broken = tmp_path / "broken"
    shutil.copytree(BOARDS_DIR / "classic", broken)
    data = json.loads((broken / "board.json").read_text())
    data["groups"][0]["size"] += 1
    (broken / "board.json").write_text(json.dumps(data))
    err = error(risk, "boards", "check", str(broken))
    assert err.startswith("Error: Group 'north_america' declares size 10 but has 9")
    assert err.endswith("[group_size_mismatch]\n")


def test_boards_json_before_the_subcommand(risk: Run, tmp_path: Path) -> None:
    """`risk boards --json show NAME` and `… --json check PATH` print JSON as `show NAME --json`
    does: README's --json "anywhere before a --", which their errors already followed while
    the board itself came out as text."""
    good = tmp_path / "good"
    shutil.copytree(BOARDS_DIR / "classic", good)
    for args in (("show", "classic"), ("check", str(good))):
        assert json.loads(risk("boards", "--json", *args).stdout) == out(risk, "boards", *args)
    said = risk("boards", "--json", "show", "atlantis", code=1)
    assert said.stdout == "" and json.loads(said.stderr)["error"]["code"] == "unknown_board"


def test_schema(risk: Run) -> None:
    schema = json.loads(risk("schema").stdout)
    assert {"command", "event", "$defs"} <= set(schema)
    assert "Attack" in schema["$defs"]


# --------------------------------------------------------------------------- demo
def test_demo_same_seed_same_digest(risk: Run) -> None:
    first = out(risk, "demo", "--seed", "3")
    second = out(risk, "demo", "--seed", "3")
    assert set(first) == {"game_id", "rules", "winner", "turns", "events", "digest"}
    assert first["game_id"] != second["game_id"]
    assert {**first, "game_id": ""} == {**second, "game_id": ""}
    assert first["digest"].startswith("sha256:") and first["winner"] is not None
    other = out(risk, "demo", "--seed", "4")
    assert other["digest"] != first["digest"]
    assert out(risk, "log", first["game_id"])["version"] == first["events"]


def test_demo_text(risk: Run) -> None:
    text = risk("demo", "--seed", "3", "--players", "3").stdout
    assert " wins by " in text.splitlines()[0]  # the result comes first
    assert "The game took" in text and "winner" in text
    game_id = text.split("Game id: ")[1].split()[0]
    assert f" show {game_id}" in text and f" log {game_id}" in text
    assert out(risk, "show", game_id)["winner"] is not None


def test_demo_turn_limit(risk: Run) -> None:
    err = error(risk, "demo", "--max-turns", "2")
    assert "did not end within 2 turns" in err and err.endswith("[turn_limit]\n")
    assert "did not end within 1 turn;" in error(risk, "demo", "--max-turns", "1")


def test_demo_players_out_of_range(risk: Run) -> None:
    """`demo --players N` plays N players or is refused as `new` is (CL seats 3–6): 7, 99 and a
    negative count played 6 or 5 (the names that were at hand), and nothing said so."""
    for n in ("7", "99", "99999999999"):
        said = error(risk, "demo", "--players", n)
        assert f"classic is for 3–6 players, not {n}. [bad_players]" in said
    assert "players, not 2. [bad_players]" in error(risk, "demo", "--players", "2")
    for n in ("0", "-1"):
        said = risk("demo", "--players", n, "--json", code=2)
        assert json.loads(said.stderr)["error"]["code"] == "usage" and said.stdout == ""
    assert out(risk, "games") == []  # nothing was stored


# --------------------------------------------------------------------------- help
def walk(
    command: click.Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from walk(sub, (*path, name))


def test_every_command_and_option_has_help(risk: Run) -> None:
    commands = list(walk(cli))
    assert len(commands) > 15
    for path, command in commands:
        assert command.help, path
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, (path, param.name)
        assert risk(*path, "--help").stdout.startswith("Usage: ")


def test_every_command_takes_json() -> None:
    for path, command in walk(cli):
        if path:
            assert "as_json" in {p.name for p in command.params}, path


def test_plain_answers_to_common_mistakes(risk: Run, tmp_path: Path) -> None:
    """Refusals and hints that name the mistake: a player name given twice (`bad_players`
    names it), a misspelt rule set (`unknown_ruleset` offers the nearest), `games` on a store
    file that does not exist yet (says so, and how to start one), and `demo` on `memory://`
    (no hint to look at a game the store will not keep)."""
    said = error(risk, "new", "--players", "Ann,Ann,Bob")
    assert "'Ann' given twice" in said and "[bad_players]" in said
    said = error(risk, "new", "--players", "Ann,Bob,Cy", "--rules", "classik")
    assert "Did you mean 'classic'?" in said and "[unknown_ruleset]" in said
    missing = tmp_path / "elsewhere.db"
    listed = CliRunner().invoke(cli, ["--store", f"sqlite:///{missing}", "games"])
    assert listed.exit_code == 0 and f"there is no store at {missing} yet" in listed.stdout
    assert not missing.exists()
    demo = CliRunner().invoke(cli, ["--store", "memory://", "demo", "--seed", "1"])
    assert demo.exit_code == 0, demo.stderr
    assert "keeps nothing after this command" in demo.stdout and " show " not in demo.stdout


def test_a_trade_or_a_scenario_names_the_cards_it_cannot_use(risk: Run, tmp_path: Path) -> None:
    """CORE-11 (trading from one's hand): a card named twice, or one the hand does not hold,
    is `not_in_hand` naming it; a scenario dealing one card twice is `bad_scenario` saying in
    which hand or hands."""
    out(risk, "new", "--scenario", scenario(tmp_path, phase="reinforce"), "--id", "r")
    said = error(risk, "trade", "r", "alaska", "alaska", "joker")
    assert "Alaska (" in said and "named twice" in said and "[not_in_hand]" in said
    ontario = BOARD.territory_card(BOARD.find("ontario"))  # Bob's: by its number
    said = error(risk, "trade", "r", "alaska", "greenland", str(ontario))
    assert "Not in your hand: Ontario (" in said and "[not_in_hand]" in said
    twice = scenario(tmp_path, phase="reinforce", hands={"Ann": ["alaska", "alaska"]})
    said = error(risk, "new", "--scenario", twice, "--id", "s1")
    assert "twice in Ann's hand: Alaska (" in said and "[bad_scenario]" in said
    shared = scenario(tmp_path, phase="reinforce", hands={"Ann": ["alaska"], "Bob": ["alaska"]})
    said = error(risk, "new", "--scenario", shared, "--id", "s2")
    assert "in Ann and Bob's hands: Alaska (" in said and "[bad_scenario]" in said


@pytest.mark.parametrize(
    "name", ["Ev\x1b[31mIL\x1b]0;pwned\x07", "A\u202eB", "Bob\x07", "Line\u2028two", "x" * 41]
)
def test_a_player_name_every_terminal_shows_is_plain(risk: Run, name: str) -> None:
    """Player and commander names reach every player's terminal: a control or formatting
    character (an escape sequence, a bell, a right-to-left override, a line separator) or more
    than 40 characters is refused (`bad_players`, `bad_commander`), the refusal itself showing
    the name escaped."""
    said = error(risk, "new", "--players", f"{name},Bob,Cy")
    assert "[bad_players]" in said and "\x1b" not in said and "\x07" not in said
    said = error(risk, "new", "--players", "Ann,Bob,Cy", "--commander", f"Cy={name}")
    assert "[bad_commander]" in said and "\x1b" not in said
    assert out(risk, "new", "--players", f"{'x' * 40},Bob,Cy", "--id", "long")["game_id"] == "long"


def test_asking_for_defence_keeps_the_rule_sets_colours(risk: Run) -> None:
    """R08-TR-01: the Training card's colours go to the seats in turn order whether or not a
    seat chooses its own defence dice (`--ask`) or has a commander; classic keeps its own."""
    for rules in ("risk2008-training", "classic"):
        colours = []
        for extra in ([], ["--ask", "1"], ["--commander", "Cy=Ann"]):
            gid = out(
                risk, "new", "--players", "Ann,Bob,Cy", "--rules", rules, "--seed", "5", *extra
            )["game_id"]
            colours.append([p["colour"] for p in out(risk, "show", gid)["players"]])
        assert colours[0] == colours[1] == colours[2], (rules, colours)
        assert len(set(colours[0])) == 3
