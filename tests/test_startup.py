"""issue 13: start-up imports only what a command needs.

What a command imports is checked in a fresh interpreter (these tests can fail, unlike timings:
the figures are printed by ``scripts/bench_startup.py`` and kept in the README).  The command
table of ``risk_cli.main`` lists the commands without importing them; it is checked here
against the commands themselves.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from risk_cli import families, main
from risk_service import families as plugins

# Never needed to list the commands: the engine, the store, and what they pull in.
HELP_NEVER = (
    "risk_core",
    "risk_service",
    "msgspec",
    "redis",
    "eventsourcing",
    "PIL",
    "tqdm",
    "importlib.metadata",
    "cryptography",
)
# Never needed to show a game of a SQLite store: the service's client and what serves other
# commands (audits, progress bars, pictures), nor entry-point discovery when no installed
# distribution declares a rule family, nor the store itself and eventsourcing (the latest view
# is read straight from the file, risk_service.read_sqlite).
SHOW_NEVER = (
    "eventsourcing",
    "risk_service.store",
    "risk_service.stores",
    "risk_service.app",
    "risk_service.mapper",
    "risk_service.ledger",
    "risk_service.deadlines",
    "risk_cli.profile",
    "redis",
    "tqdm",
    "PIL",
    "cryptography",
    "importlib.metadata",
    "risk_service.audit",
    "risk_service.records",
    "risk_service.client",
    "risk_cli.audit",
    "risk_cli.history",
    "risk_cli.service",
)


# Rule families whose modules `risk show` of a classic game never needs.
FAMILY_MODULES = (
    "risk_core.rulesets.napoleon",
    "risk_core.rulesets.napoleon_2p",
    "risk_core.rulesets.risk2008",
    "risk_core.rulesets.risk2008_command",
    "risk_core.rulesets.clonewars_standard",
    "risk_cli.napoleon_moves",
    "risk_cli.risk2008_moves",
    "risk_cli.napoleon_advanced_moves",
)


def run_risk(tmp_path: Path, *args: str, every_family: bool = False) -> tuple[str, set[str]]:
    """A fresh `risk ARGS` process: what it printed, and the modules it imported.
    ``every_family``: every rule family installed first, as before commands loaded only
    their game's."""
    code = (
        "import json, sys\n"
        "from risk_cli.main import cli\n"
        + ("cli.install_families()\n" if every_family else "")
        + f"try:\n    cli({list(args)!r})\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "finally:\n    sys.__stderr__.write(json.dumps(sorted(sys.modules)))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RISK_", "_RISK"))}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    modules: list[str] = json.loads(done.stderr.splitlines()[-1])
    return done.stdout, set(modules)


def imported_by(tmp_path: Path, *args: str) -> set[str]:
    """The modules a fresh `risk ARGS` process has imported when it ends."""
    return run_risk(tmp_path, *args)[1]


def new_game(tmp_path: Path, game_id: str, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RISK_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    made = subprocess.run(
        [str(Path(sys.executable).with_name("risk")), "new", "--id", game_id, "--seed", "3", *args],
        capture_output=True,
        text=True,
        env=env,
    )
    assert made.returncode == 0, made.stderr


def loaded(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m in roots or m.startswith(tuple(r + "." for r in roots)))


def test_help_imports_neither_engine_nor_store(tmp_path: Path) -> None:
    """issue 13: `risk --help` lists every command from the table, importing none of them
    (no engine, store, redis, eventsourcing, PIL, tqdm)."""
    modules = imported_by(tmp_path, "--help")
    assert loaded(modules, HELP_NEVER) == []
    commands = {m for m in modules if m.startswith("risk_cli.")}
    assert commands == {"risk_cli.main", "risk_cli.conventions"}


def test_show_imports_only_what_it_needs(tmp_path: Path) -> None:
    """issue 13: `risk show GAME` on SQLite imports neither redis nor tqdm, PIL, the audit,
    the service's client, nor importlib.metadata (no distribution declares a family); nor the
    store, its mapper and eventsourcing: it reads the file itself."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RISK_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    made = subprocess.run(
        [str(Path(sys.executable).with_name("risk")), "new", "--players", "A,B,C", "--id", "g"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert made.returncode == 0, made.stderr
    modules = imported_by(tmp_path, "show", "g")
    assert "risk_cli.games" in modules and "risk_service.read_sqlite" in modules  # it did show
    assert loaded(modules, SHOW_NEVER) == []
    # Only the game's own rule set (classic) is loaded, and no rule family's command line.
    assert sorted(set(FAMILY_MODULES) & modules) == []


def test_an_audit_without_a_bar_does_not_import_tqdm(tmp_path: Path) -> None:
    """issue 14: `risk audit GAME` and `risk replay GAME` with output that is no terminal (or a
    short game) draw no progress bar, so they import no tqdm (and what tqdm imports)."""
    new_game(tmp_path, "g", "--players", "A,B,C")
    for command in (["audit", "g"], ["replay", "g"]):
        shown, modules = run_risk(tmp_path, *command)
        assert shown and "risk_cli.history" in modules
        assert loaded(modules, ("tqdm",)) == []


@pytest.mark.parametrize(
    ("rules", "players", "family"),
    [
        ("napoleon-2p", "A,B", "risk_cli.napoleon_moves"),
        ("risk2008", "A,B,C", "risk_cli.risk2008_moves"),
        ("classic-2p", "A,B", None),
    ],
)
def test_show_loads_its_games_family_only(
    tmp_path: Path, rules: str, players: str, family: str | None
) -> None:
    """issue 13: `risk show GAME` loads the game's own rule set and family command line (its
    seat notes and lines: NAP-2P-*, R08-*), not the others', and prints exactly what it prints
    with every family installed; `risk log GAME` prints the same as well."""
    new_game(tmp_path, "g", "--rules", rules, "--players", players)
    for command in (["show", "g"], ["log", "g"]):
        shown, modules = run_risk(tmp_path, *command)
        everything, _ = run_risk(tmp_path, *command, every_family=True)
        assert shown == everything and shown
        others = {m for m in FAMILY_MODULES if m.startswith("risk_cli.")} - {family}
        if rules != "risk2008" and command[0] == "show":
            # (risk2008's module is not named after it, and the log reads the store, whose
            # decoders know every family: both load every rule set)
            others.add("risk_core.rulesets.clonewars_standard")
        assert sorted(others & modules) == []
        assert family is None or family in modules


def test_a_command_without_a_game_installs_every_family(tmp_path: Path) -> None:
    """issue 13: a command that names no game (`risk rules`) installs every family, as does a
    game id that is not in the store (its error is the usual one)."""
    assert set(FAMILY_MODULES) <= imported_by(tmp_path, "rules")
    new_game(tmp_path, "g", "--players", "A,B,C")
    code = "import sys\nfrom risk_cli.main import cli\ncli(['show', 'nope'])\n"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RISK_", "_RISK"))}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "[unknown_game]" in done.stderr
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- the table
@pytest.mark.parametrize("table", [main.COMMANDS, main.FAMILY_COMMANDS], ids=["core", "families"])
def test_every_table_entry_is_the_command_it_names(table: dict[str, tuple[str, str]]) -> None:
    """issue 13: each line of the command table loads a click command of that name, and the
    help `risk --help` shows from the table is the command's own first sentence (edit the
    table when a command's first sentence changes)."""
    for name, (target, short_help) in table.items():
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command) and command.name == name, target
        assert command.get_short_help_str(limit=10_000) == short_help, (
            f"risk_cli/main.py: the help of {name!r} should read "
            f"{command.get_short_help_str(limit=10_000)!r}"
        )


def test_the_family_table_is_what_the_built_in_families_add() -> None:
    """issue 13: FAMILY_COMMANDS names exactly the verbs of the built-in rule families'
    command-line modules (a family added to the engine adds its verbs there)."""
    built_in = [m for m in families.cli_modules() if m.startswith("risk_cli.")]
    verbs = {
        c.name: f"{m}:{c.callback.__name__}"
        for m in built_in
        for c in importlib.import_module(m).COMMANDS
        if c.callback is not None
    }
    assert {name: target for name, (target, _) in main.FAMILY_COMMANDS.items()} == verbs
    assert not set(main.FAMILY_COMMANDS) & set(main.COMMANDS)


def test_help_lists_every_command_of_the_table() -> None:
    """issue 13: the lazy table reaches `risk --help`: every core and family verb."""
    text = CliRunner().invoke(main.cli, ["--help"]).stdout
    listed = {line.split()[0] for line in text.split("Commands:")[1].splitlines() if line.strip()}
    assert set(main.COMMANDS) | set(main.FAMILY_COMMANDS) <= listed


# --------------------------------------------------------------------------- entry points
def dist_info(folder: Path, name: str, entry_points: str | None) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def test_entry_points_are_looked_for_cheaply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: importlib.metadata is imported only when a distribution on sys.path declares
    `risk.families` entry points; a zip on sys.path counts as "may"."""
    dist_info(tmp_path, "plain", None)
    dist_info(tmp_path, "tool", "[console_scripts]\ntool = tool:main\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    assert not plugins._maybe_declared("risk.families")
    assert list(plugins.entry_points(group="risk.families")) == []
    dist_info(tmp_path, "toy", "[risk.families]\ntoy = toy_family.rules\n")
    assert plugins._maybe_declared("risk.families")
    zipped = tmp_path / "bundle.zip"
    zipped.write_bytes(b"PK")
    monkeypatch.setattr(sys, "path", [str(zipped)])
    assert plugins._maybe_declared("risk.families")
