"""issue 13: the conventions every `risk` command shares (``risk_cli.conventions``).

* errors in JSON on standard error with --json, with the same exit codes;
* ``RISK_GAME`` as the GAME left out, counted from the command line, an explicit GAME winning;
* "did you mean" for an unknown game id;
* ``NO_COLOR`` and ``--color/--no-color``;
* shell completion of game ids and territory names.

Each test plays in its own SQLite store (the ``risk`` fixture); the games are classic games in
their setup phase, Cy (seat 2) to place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner, Result

from risk_cli import conventions
from risk_cli.main import cli

Run = Callable[..., Result]
ANSI = "\x1b["


def new_game(risk: Run, game_id: str) -> None:
    risk("new", "--players", "Ann,Bob,Cy", "--seed", "1", "--id", game_id)


def shown(risk: Run, *args: str) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(risk("show", *args, "--json").stdout)
    return view


def owned_by_cy(risk: Run, game_id: str) -> str:
    """A territory of Cy's, the seat to act in the setup of these games."""
    view = shown(risk, game_id)
    assert view["to_act"] == 2
    return next(t for t, info in view["territories"].items() if info["owner"] == 2)


@pytest.fixture
def friday(risk: Run, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("RISK_GAME", raising=False)
    new_game(risk, "friday")
    return "friday"


# --------------------------------------------------------------------------- --json errors
def json_error(result: Result) -> dict[str, str]:
    """The error object of a failing command run with --json: nothing else is printed."""
    assert result.stdout == ""
    data = json.loads(result.stderr)
    assert list(data) == ["error"] and sorted(data["error"]) == ["code", "message"]
    error: dict[str, str] = data["error"]
    return error


def test_an_engine_error_with_json_is_json_with_the_same_status(risk: Run, friday: str) -> None:
    """issue 13: --json errors as JSON on stderr: `{"error": {"code", "message"}}`, status 1,
    the very code and message of the text form."""
    text = risk("attack", friday, "alaska", "kamchatka", code=1)
    error = json_error(risk("attack", friday, "alaska", "kamchatka", "--json", code=1))
    assert error == {"code": "wrong_phase", "message": "You cannot attack in the setup phase."}
    assert text.stderr == f"Error: {error['message']} [{error['code']}]\n"
    assert json_error(risk("show", "nope", "--json", code=1))["code"] == "unknown_game"


def test_usage_errors_with_json_are_json_with_status_2(risk: Run, friday: str) -> None:
    """issue 13: click's own errors (a missing argument, an unknown option or command, a bad
    value), before or after the command name, are JSON too, code `usage`, status 2."""
    cases = {
        ("show", friday, "--bogus"): "No such option '--bogus'.",
        ("attack", friday, "alaska"): "Missing argument 'TO'.",
        ("jump",): "No such command 'jump'.",
        ("--bogus", "show", friday): "No such option '--bogus'.",
        ("place", friday, "alaska", "many"): "'many' is not a valid integer.",
    }
    for args, says in cases.items():
        error = json_error(risk(*args, "--json", code=2))
        assert error["code"] == "usage", args
        assert says in error["message"], (args, error)
        assert risk(*args, code=2).stderr.startswith("Usage: "), args  # text without --json


def test_json_after_a_double_dash_is_an_argument() -> None:
    """issue 13: `--json` after `--` is an argument, not the option (`wants_json`)."""
    assert conventions.wants_json(["show", "g", "--json"])
    assert not conventions.wants_json(["submit", "g", "--", "--json"])
    assert not conventions.wants_json(["show", "g"])


def test_an_error_message_ending_in_a_code_keeps_it_in_json() -> None:
    """issue 13: a click error whose message ends in `[code]` gives that code in JSON."""
    import click

    error = conventions.as_json_error(click.ClickException("Nothing here. [no_luck]"))
    assert (error.code, error.message, error.exit_code) == ("no_luck", "Nothing here.", 1)


# --------------------------------------------------------------------------- RISK_GAME
def test_risk_game_stands_for_a_game_left_out(
    risk: Run, friday: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: `export RISK_GAME=friday; risk show; risk attack alaska kamchatka`: the
    game is friday, and `alaska` is never taken for a game."""
    monkeypatch.setenv("RISK_GAME", friday)
    assert risk("show").stdout == risk("show", friday).stdout
    error = json_error(risk("attack", "alaska", "kamchatka", "--json", code=1))
    assert error["code"] == "wrong_phase"  # friday's rules answered: no unknown_game 'alaska'
    before = shown(risk)["version"]
    risk("place", owned_by_cy(risk, friday), "--as", "Cy")  # TERRITORY [COUNT], both left out
    assert shown(risk, friday)["version"] == before + 1


def test_an_explicit_game_wins_over_risk_game(
    risk: Run, friday: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: an explicit game still wins.  `risk place GAME TERRITORY [COUNT]` with two
    words is told by the store: the first is the game when a game has that id."""
    new_game(risk, "other")
    monkeypatch.setenv("RISK_GAME", friday)
    assert shown(risk, "other")["game_id"] == "other"
    territory = owned_by_cy(risk, "other")
    risk("place", "other", territory)  # `other` is a game: GAME TERRITORY
    assert (shown(risk, "other")["version"], shown(risk, friday)["version"]) == (6, 5)
    risk("place", owned_by_cy(risk, friday), "1")  # not a game: TERRITORY COUNT of friday
    assert (shown(risk, "other")["version"], shown(risk, friday)["version"]) == (6, 6)


def test_risk_game_serves_every_command_with_a_leading_game(
    risk: Run, friday: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: RISK_GAME for every command whose first argument is GAME (`log`, `export`,
    `moves`, `stats`...), not only `show`."""
    monkeypatch.setenv("RISK_GAME", friday)
    for command in ("log", "export", "stats", "tree", "near alaska", "map --text"):
        words = command.split()
        assert risk(*words).stdout == risk(words[0], friday, *words[1:]).stdout, command


def test_without_risk_game_the_game_is_required(risk: Run, friday: str) -> None:
    """issue 13: RISK_GAME unset: a GAME left out is click's usage error, as before."""
    assert "Missing argument 'GAME'." in risk("show", code=2).stderr
    assert "Missing argument 'TO'." in risk("attack", "alaska", "kamchatka", code=2).stderr


# --------------------------------------------------------------------------- did you mean
def test_an_unknown_game_suggests_the_closest_ids(risk: Run, friday: str) -> None:
    """issue 13: "did you mean" for unknown game ids, from the store's games."""
    new_game(risk, "saturday")
    err = risk("show", "fridya", code=1).stderr
    assert err.startswith("Error: There is no game 'fridya' in ")
    assert err.endswith(" Did you mean 'friday'? [unknown_game]\n")
    error = json_error(risk("log", "FRIDAY", "--json", code=1))
    assert error["message"].endswith("Did you mean 'friday'?")
    assert "Did you mean" not in risk("show", "zzzzzz", code=1).stderr


def test_closest_ids() -> None:
    """issue 13: the suggestions: the same id in another case, ids it begins, then spelling."""
    ids = ["friday", "fri-2", "saturday", "Alpha"]
    assert conventions.closest("FRIDAY", ids) == ["friday"]
    assert conventions.closest("fri", ids) == ["friday", "fri-2"]
    assert conventions.closest("saturdya", ids) == ["saturday"]
    assert conventions.closest("alpha", ids) == ["Alpha"]
    assert conventions.closest("zzz", ids) == []


# --------------------------------------------------------------------------- colour
def run(args: list[str], *, color: bool, **env: str | None) -> Result:
    """`risk ARGS`, on a terminal that shows colours (``color=True``) or not."""
    result = CliRunner().invoke(cli, args, color=color, env=env)
    assert result.exit_code == 0, result.output
    return result


def test_colours_on_a_terminal_unless_no_color(risk_store: str, risk: Run, friday: str) -> None:
    """issue 13: NO_COLOR (set and not empty) turns colours off; --color/--no-color decide."""
    show = ["--store", risk_store, "show", friday]
    assert ANSI in run(show, color=True, NO_COLOR=None).stdout  # a terminal
    assert ANSI not in run(show, color=True, NO_COLOR="1").stdout
    assert ANSI in run(show, color=True, NO_COLOR="").stdout  # empty: not set
    assert ANSI not in run(show, color=False, NO_COLOR=None).stdout  # a pipe
    forced = ["--store", risk_store, "--color", "show", friday]
    assert ANSI in run(forced, color=False, NO_COLOR="1").stdout
    plain = ["--store", risk_store, "--no-color", "show", friday]
    assert ANSI not in run(plain, color=True, NO_COLOR=None).stdout


# --------------------------------------------------------------------------- completion
def completions(args: list[str], incomplete: str) -> list[str]:
    """What the shell completes after ``risk ARGS`` for the word ``incomplete``."""
    complete = ShellComplete(cli, {}, "risk", "_RISK_COMPLETE")
    return [item.value for item in complete.get_completions(args, incomplete)]


def test_completion_of_game_ids(risk_store: str, risk: Run, friday: str) -> None:
    """issue 13: a GAME completes from the store's game ids."""
    new_game(risk, "saturday")
    assert completions(["--store", risk_store, "show"], "fr") == ["friday"]
    assert sorted(completions(["--store", risk_store, "log"], "")) == ["friday", "saturday"]
    assert completions(["--store", risk_store, "attack"], "s") == ["saturday"]


def test_completion_of_territory_names(
    risk_store: str, risk: Run, friday: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: TERRITORY, FROM and TO complete from the board of the game named before
    them, or RISK_GAME's; a word inside a name completes too."""
    store = ["--store", risk_store]
    assert completions([*store, "attack", friday], "kam") == ["kamchatka"]
    assert completions([*store, "attack", friday, "alaska"], "northw") == ["northwest_territory"]
    assert completions([*store, "place", friday], "western_u") == ["western_united_states"]
    assert "southern_europe" in completions([*store, "near", friday], "europe")
    monkeypatch.setenv("RISK_GAME", friday)
    assert completions([*store, "attack"], "ala") == ["alaska"]
    assert completions([*store, "show"], "fr") == ["friday"]  # the word typed may be a GAME


def test_completion_never_fails_nor_starts_a_store(tmp_path: Path) -> None:
    """issue 13: completion never fails loudly: no store, no game, a broken store: nothing."""
    missing = tmp_path / "none.db"
    store = ["--store", f"sqlite:///{missing}"]
    assert completions([*store, "show"], "") == []
    assert completions([*store, "attack", "g1"], "ala") == []
    assert not missing.exists()
    broken = tmp_path / "broken.db"
    broken.write_text("not a database")
    assert completions(["--store", f"sqlite:///{broken}", "show"], "") == []


def test_completion_scripts_for_each_shell() -> None:
    """issue 13: `eval "$(_RISK_COMPLETE=bash_source risk)"` (and zsh, fish) prints the
    script the README documents."""
    for shell, says in (("bash", "complete -o nosort"), ("zsh", "compdef"), ("fish", "complete")):
        result = CliRunner().invoke(
            cli, [], prog_name="risk", env={"_RISK_COMPLETE": f"{shell}_source"}
        )
        assert result.exit_code == 0 and says in result.stdout, shell
        assert "_RISK_COMPLETE" in result.stdout
