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
    "risk_service.client",
    "risk_cli.audit",
    "risk_cli.history",
    "risk_cli.service",
)


def imported_by(tmp_path: Path, *args: str) -> set[str]:
    """The modules a fresh `risk ARGS` process has imported when it ends."""
    code = (
        "import json, sys\n"
        "from risk_cli.main import cli\n"
        f"try:\n    cli({list(args)!r})\n"
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
    return set(modules)


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
