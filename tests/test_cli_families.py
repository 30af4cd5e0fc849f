"""Rule families on the command line: their verbs and event texts, plug-ins, phases, results.

A family names the module of its `risk` verbs and log texts in ``RuleSet.cli_module``
(``COMMANDS``, ``EVENT_TEXT``); ``risk_cli.families`` adds them to the `risk` group and the log.
Plug-in families come from ``$RISK_FAMILIES`` or the ``risk.families`` entry points
(``risk_service.families``).  Anything that goes wrong there is an ``Error: … [code]`` line
with status 1, never a traceback; the plug-in cases run the venv's own `risk` in a subprocess,
so that their rule sets do not stay registered in this process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import Result

import risk_core as rc
from risk_cli import families, moves, napoleon_moves, render
from risk_cli.main import cli
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets import names as ruleset_names
from risk_core.rulesets.base import registered
from risk_service import GameService
from risk_service import families as plugins

Run = Callable[..., Result]
RISK = Path(sys.executable).with_name("risk")  # the venv's console script


def risk_process(
    tmp_path: Path, *args: str, families: str = ""
) -> subprocess.CompletedProcess[str]:
    """The installed `risk` in a fresh process, with ``$RISK_FAMILIES`` and modules in tmp_path."""
    env = {k: v for k, v in os.environ.items() if k not in ("RISK_STORE", "RISK_SEAT")}
    env.update(
        RISK_FAMILIES=families,
        PYTHONPATH=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "xdg"),
    )
    return subprocess.run(
        [str(RISK), *args], capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )


def plugin(tmp_path: Path, module: str, verb: str = "parley") -> None:
    """A plug-in family in tmp_path: classic rules with one more phase, its own verb and text."""
    (tmp_path / f"{module}.py").write_text(
        textwrap.dedent(
            f'''
            """A plug-in family for the tests."""
            from typing import ClassVar

            import click

            from risk_core.rulesets.base import CORE_PHASES
            from risk_core.rulesets.classic import Classic


            class Parley(Classic):
                name = "plug-parley"
                title = "Classic rules with a parley"
                phases: ClassVar[dict[str, str]] = {{**CORE_PHASES, "parley": "talk it over"}}
                cli_module = {module!r}


            @click.command({verb!r})
            def parley() -> None:
                """Talk it over (plug-parley)."""


            COMMANDS = [parley]
            EVENT_TEXT = {{"parley_held": lambda d, n: "A parley is held."}}
            '''
        )
    )


def names(players: list[str], board: str = "classic") -> render.Names:
    return render.Names(
        rc.load_board(board),
        [{"name": p, "colour": "red", "neutral": False} for p in players],
    )


# --------------------------------------------------------------------------- napoleon verbs
def test_napoleon_verbs_and_texts_come_from_their_family_module() -> None:
    """The three Napoléon rule sets name one CLI module; it is added once, and its verbs and
    event texts reach `risk` and the log (main.py no longer lists them)."""
    named = {n: registered()[n].cli_module for n in ruleset_names()}
    assert {n for n, m in named.items() if m == "risk_cli.napoleon_moves"} == {
        "napoleon-2p",
        "napoleon-mission",
        "napoleon-teams",
    }
    assert list(families.cli_modules()).count("risk_cli.napoleon_moves") == 1
    for command in napoleon_moves.COMMANDS:
        assert cli.commands[command.name or ""] is command
    line = render.event_line({"type": "influence_ended", "seat": 1}, names(["Ann", "Bob"]))
    assert click.unstyle(line) == "Bob ends the influence step."


def test_give_through_the_cli(risk: Run, risk_store: str) -> None:
    """`risk give` plays a napoleon-2p gift; its event has the family's text in the move's
    output and in `risk log`, and the status line uses the rule set's phase text."""
    game_id = "n2"
    risk("new", "--rules", "napoleon-2p", "--option", "independents=active",
         "--players", "Ann,Bob", "--seed", "1", "--id", game_id)  # fmt: skip
    # The setup is played through the service, to Ann's first influence step.
    service = GameService(risk_store)
    try:
        while (state := service.state(game_id)).phase != "influence":
            service.submit(game_id, rc.legal_commands(state)[0])
    finally:
        service.close()
    shown = json.loads(risk("show", game_id, "--as", "Ann", "--json").stdout)
    assert shown["phase_text"] == "give cards to independents, or end the influence step"
    assert "to act: give cards to independents" in risk("show", game_id).stdout
    (card,) = [c["id"] for c in shown["players"][0]["hand"]]

    text = risk("give", game_id, "green", str(card), "--as", "Ann").stdout
    assert "Ann gives Illyrian Provinces (infantry) to Green, now allied to Ann." in text
    assert "Ann (seat 0) to act: trade cards and place reinforcements" in text
    assert (
        "Ann gives a card to Green, now allied to Ann." in risk("log", game_id).stdout
    )  # face down
    wrong = risk("end-phase", game_id, "--as", "Ann", code=1).stderr
    assert wrong.startswith("Error: ") and "Traceback" not in wrong


def test_claim_and_designate_reach_their_rule_sets(risk: Run) -> None:
    """`risk claim` (napoleon-mission) and `risk designate` (napoleon-teams) build their
    family's commands; the rule sets answer with their stable codes."""
    risk("new", "--rules", "napoleon-mission", "--players", "Ann,Bob,Cy", "--seed", "1",
         "--id", "m")  # fmt: skip
    assert "[not_your_mission]" in risk("claim", "m", "nonsense", code=1).stderr
    assert "Each player receives four secret missions." in risk("log", "m").stdout
    risk("new", "--rules", "napoleon-teams", "--players", "Ann,Bob,Cy,Dee", "--seed", "1",
         "--id", "t")  # fmt: skip
    assert "[wrong_phase]" in risk("designate", "t", "Dee", code=1).stderr


def test_a_family_verb_in_a_game_of_another_rule_set_names_the_command_type(risk: Run) -> None:
    """`risk capital` (R08-CC-05) or `risk end-phase` in a classic game is `unknown_command`
    naming the command as `risk submit` and `risk schema` do ('place_capital'), where it named
    the engine's Python class ('PlaceCapital')."""
    risk("new", "--players", "Ann,Bob,Cy", "--seed", "1", "--id", "c")
    said = risk("capital", "c", "alaska", code=1).stderr
    assert said == "Error: classic has no 'place_capital' command. [unknown_command]\n"
    assert "'end_phase' command." in risk("end-phase", "c", code=1).stderr
    submitted = risk("submit", "c", '{"type": "place_capital", "territory": "alaska"}', code=1)
    assert "'place_capital' command." in submitted.stderr


# --------------------------------------------------------------------------- clashes
def family_module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


def test_a_verb_clashing_with_a_core_verb_is_refused() -> None:
    """A family verb named like a core one (`attack`) is refused with `family_clash`, and
    nothing of that family is added: neither its other verbs nor its texts."""
    rogue = click.Command("attack", help="Not the real attack.")
    extra = click.Command("rogue-extra", help="Would come along.")
    module = family_module(
        "rogue_family", COMMANDS=[extra, rogue], EVENT_TEXT={"rogue_event": lambda d, n: "!"}
    )
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(cli, module)
    assert caught.value.code == "family_clash"
    assert "'attack'" in caught.value.message and "risk_cli.moves" in caught.value.message
    assert cli.commands["attack"] is moves.attack and "rogue-extra" not in cli.commands
    line = render.event_line({"type": "rogue_event"}, names(["Ann"]))
    assert line == "rogue_event: "  # the text was not added


def test_an_event_text_clashing_with_a_core_text_is_refused() -> None:
    """A family may not replace the text of a core event (`battle`)."""
    module = family_module("rogue_texts", EVENT_TEXT={"battle": lambda d, n: "boom"})
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(cli, module)
    assert caught.value.code == "family_clash" and "'battle'" in caught.value.message


def test_adding_a_family_twice_changes_nothing() -> None:
    """The same module added again (several rule sets naming it) is no clash."""
    families.add_family(cli, napoleon_moves)
    assert cli.commands["give"] is napoleon_moves.give


def test_a_malformed_family_module_is_refused() -> None:
    """COMMANDS must hold click commands, EVENT_TEXT map tags to functions: `bad_family`."""
    for attrs in ({"COMMANDS": ["give"]}, {"EVENT_TEXT": {"x": "not a function"}}):
        with pytest.raises(rc.SetupError) as caught:
            families.add_family(click.Group("g"), family_module("bad", **attrs))
        assert caught.value.code == "bad_family"


def test_family_verbs_name_the_modules_own_commands() -> None:
    """VERBS maps command types to a verb of the module's own COMMANDS (else `bad_family`:
    `risk moves` would send a player to no verb); a type already told by another verb is
    `family_clash`; nothing of a refused module is added."""
    from risk_cli.analysis import verb_of

    hail = click.Command("hail", help="Hail a ship.")
    for verbs in ({"hail_ship": "wave"}, {"hail_ship": 3}, ["hail"]):
        with pytest.raises(rc.SetupError) as caught:
            families.add_family(click.Group("g"), family_module("x", COMMANDS=[hail], VERBS=verbs))
        assert caught.value.code == "bad_family", verbs
    with pytest.raises(rc.SetupError) as caught:
        families.add_family(
            click.Group("g"), family_module("y", COMMANDS=[hail], VERBS={"give_card": "hail"})
        )
    assert caught.value.code == "family_clash" and verb_of("give_card") == "give"
    group = click.Group("g")
    families.add_family(group, family_module("z", COMMANDS=[hail], VERBS={"hail_ship": "hail"}))
    assert verb_of("hail_ship") == "hail" and "hail" in group.commands


def test_a_family_trade_verb_is_one_of_its_commands() -> None:
    """TRADE_VERB names one of the module's own COMMANDS (else `bad_family`): `risk moves`
    lists a trade under it (Risk 2008: `trade-stars`, R08-10); other games' under `trade`."""
    hail = click.Command("hail", help="Hail a ship.")
    for verb in ("wave", 3):
        with pytest.raises(rc.SetupError) as caught:
            families.add_family(
                click.Group("g"), family_module("t", COMMANDS=[hail], TRADE_VERB=verb)
            )
        assert caught.value.code == "bad_family", verb
    assert families.trade_verb("risk2008-training") == "trade-stars"
    assert families.trade_verb("classic") == "trade"


def test_a_clashing_plugin_verb_fails_the_command_line_cleanly(tmp_path: Path) -> None:
    """Through `risk`: a plug-in whose verb is `attack` makes every invocation print
    `Error: … [family_clash]` with status 1 and no traceback."""
    plugin(tmp_path, "clashing_family", verb="attack")
    done = risk_process(tmp_path, "rules", families="clashing_family")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: ") and done.stderr.rstrip().endswith("[family_clash]")
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- plug-ins
def test_an_unknown_plugin_family_is_a_clear_error(tmp_path: Path) -> None:
    """`RISK_FAMILIES=nonexistent.module risk rules` exits 1 with `[unknown_family]`, naming
    the module and where it was named, and no traceback."""
    done = risk_process(tmp_path, "rules", families="nonexistent.module")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: Cannot load rule family 'nonexistent.module'")
    assert "$RISK_FAMILIES" in done.stderr and done.stderr.rstrip().endswith("[unknown_family]")
    assert "Traceback" not in done.stderr


def test_a_plugin_family_adds_rule_sets_phases_and_verbs(tmp_path: Path) -> None:
    """A module named in `RISK_FAMILIES` is imported: its rule set is in `risk rules` with its
    phases, and its verb in `risk --help`."""
    plugin(tmp_path, "parley_family")
    listed = risk_process(tmp_path, "rules", "--json", families=" parley_family ,")
    assert listed.returncode == 0, listed.stderr
    (info,) = [i for i in json.loads(listed.stdout) if i["name"] == "plug-parley"]
    assert info["phases"]["parley"] == "talk it over"
    text = risk_process(tmp_path, "rules", families="parley_family").stdout
    assert "plug-parley" in text and "parley  talk it over" in text
    helped = risk_process(tmp_path, "--help", families="parley_family")
    assert "  parley " in helped.stdout and "Talk it over (plug-parley)." in helped.stdout


def test_plugins_are_named_by_the_environment_and_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`plugin_names` reads `RISK_FAMILIES` (commas, blanks ignored) and the `risk.families`
    entry points (their module), each module once, with where it was first named."""
    monkeypatch.setenv("RISK_FAMILIES", " a.fam , ,b.fam,a.fam")
    found = [
        EntryPoint(name="toy", value="c.fam.rules", group="risk.families"),
        EntryPoint(name="again", value="b.fam:RuleSet", group="risk.families"),
    ]
    monkeypatch.setattr(plugins, "entry_points", lambda group: found)
    assert plugins.plugin_names() == {
        "a.fam": "$RISK_FAMILIES",
        "b.fam": "$RISK_FAMILIES",
        "c.fam.rules": "entry point 'toy' of group 'risk.families'",
    }


def test_a_plugin_that_fails_to_import_is_a_setup_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`load_plugins` turns any error of a plug-in's import into `bad_family` (a missing module
    into `unknown_family`); a failed load is not remembered as done."""
    (tmp_path / "broken_family.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.load_plugins.cache_clear()
    try:
        for name, code, says in (
            ("broken_family", "bad_family", "RuntimeError: boom"),
            ("no_such_family", "unknown_family", "No module named 'no_such_family'"),
        ):
            monkeypatch.setenv("RISK_FAMILIES", name)
            with pytest.raises(rc.SetupError) as caught:
                plugins.load_plugins()
            assert caught.value.code == code and says in caught.value.message
    finally:
        monkeypatch.delenv("RISK_FAMILIES")
        plugins.load_plugins.cache_clear()
        plugins.load_plugins()


# --------------------------------------------------------------------------- rules and texts
def test_rules_json_has_every_phase_of_every_rule_set(risk: Run) -> None:
    """`risk rules --json` gives each rule set's `phases` (name → what the seat to act does),
    as the rule set declares them; `risk rules NAME` lists them all, the list the added ones."""
    infos = json.loads(risk("rules", "--json").stdout)
    assert {i["name"] for i in infos} == set(ruleset_names())
    for info in infos:
        assert info["phases"] == get_ruleset(info["name"]).phases
        assert "over" in info["phases"]
    one = risk("rules", "napoleon-2p").stdout
    assert "  phases (what the seat to act does):" in one
    lines = [line.split(None, 1) for line in one.splitlines() if line.startswith("    ")]
    assert ["influence", "give cards to independents, or end the influence step"] in lines
    assert ["setup", "place starting armies"] in lines
    listing = risk("rules").stdout
    assert any(
        line.split()[:1] == ["ally_maneuver"]
        and line.endswith("maneuver the allies, or end the turn")
        for line in listing.splitlines()
    )


def test_an_unknown_event_renders_generically() -> None:
    """An event tag no text is known for is shown as its tag and fields; so is a family event
    whose text cannot read it (never a traceback)."""
    n = names(["Ann", "Bob"])
    line = render.event_line({"type": "comet_seen", "seat": 1, "where": ["alaska"]}, n)
    assert line == "comet_seen: seat=1, where=['alaska']"
    render.add_event_texts({"comet_tracked": lambda d, n: d["missing"]}, "tests.comets")
    assert render.event_line({"type": "comet_tracked", "seat": 0}, n) == "comet_tracked: seat=0"


def test_a_result_on_the_score() -> None:
    """`rounds_completed` has a text; `game_won` on the score names the rounds and every
    competing seat's score, the winner first, then the highest."""
    n = names(["Ann", "Bob", "Cy"])
    over = render.event_line({"type": "rounds_completed", "rounds": 5}, n)
    assert over == "The last of 5 rounds is over: the score decides."
    won = {"type": "game_won", "seat": 0, "reason": "score", "mission": None, "scores": [12, 3, 9]}
    assert (
        click.unstyle(render.event_line({**won, "rounds": 5}, n))
        == "Ann wins on the score after 5 rounds (Ann 12, Cy 9, Bob 3)."
    )
    alone = click.unstyle(render.event_line(won, n))  # a result without its rounds
    assert alone == "Ann wins on the score (Ann 12, Cy 9, Bob 3)."
