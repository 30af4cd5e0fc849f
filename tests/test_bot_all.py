"""`risk bot GAME --all`: the computer plays every seat, to the end of the game or until one
seat must act (issue 13: faster set-up and bots), with a progress bar only on a terminal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import Result

from risk_cli import moves

Run = Callable[..., Result]


def out(risk: Run, *args: str, code: int = 0) -> Any:
    return json.loads(risk(*args, "--json", code=code).stdout)


@pytest.fixture
def game(risk: Run) -> str:
    v = out(risk, "new", "--players", "Ann,Bob,Cy", "--seed", "42", "--id", "bots1")
    assert v["phase"] == "setup"
    return "bots1"


def test_all_plays_the_whole_game(risk: Run, game: str) -> None:
    """issue 13: `--all` (`--until-end`) plays every seat until someone wins; the standings
    follow; nothing is drawn on standard error off a terminal."""
    result = risk("bot", game, "--all")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("The computer made ") and " moves (turn 0 to " in lines[0]
    assert lines[1].endswith(" has won.")
    assert "winner" in result.stdout and result.stderr == ""
    v = out(risk, "show", game)
    assert v["phase"] == "over" and v["winner"] is not None
    again = risk("bot", game, "--all", "--until-end")
    assert again.stdout.splitlines()[0] == "Nothing to play: the game is over."


def test_all_until_a_seat_stops_at_its_move(risk: Run, game: str) -> None:
    """issue 13: `--until-seat SEAT` (or `--as SEAT`) plays every other seat until SEAT must
    act, and leaves SEAT's moves to its player; JSON adds the bots' summary to a move's."""
    said = out(risk, "bot", game, "--all", "--until-seat", "Ann")
    assert said["to_act"] == 0 and said["bots"]["moves"] > 0
    assert {"game_id", "version", "events", "phase", "winner"} <= set(said)
    assert said["bots"]["moves"] == len(
        [d for d in said["events"] if d["type"] == "setup_placed"]
    )  # setup: one placement per move
    assert risk("bot", game, "--all", "--as", "Ann").stdout.splitlines()[0] == (
        "Nothing to play: it is Ann's move."
    )
    risk("bot", game, "--as", "Ann")  # Ann's turn, played once
    said = out(risk, "bot", game, "--all", "--as", "0")
    assert said["to_act"] == 0 and said["bots"]["moves"] == 2  # Bob and Cy placed one each


def test_all_is_deterministic(risk: Run) -> None:
    """ENG-01 with issue 13: the same seeds give the same finished game."""
    digests = []
    for game in ("same1", "same2"):
        risk("new", "--players", "Ann,Bob,Cy", "--seed", "7", "--id", game)
        risk("bot", game, "--all", "--seed", "3")
        events = out(risk, "log", game)["events"]
        digests.append(json.dumps(events[1:]))  # the opening names no game id
    assert digests[0] == digests[1]


def test_all_draws_a_progress_bar_on_a_terminal(
    risk: Run, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 13: on a terminal a progress bar counts the moves on standard error."""
    monkeypatch.setattr(moves, "on_terminal", lambda: True)
    result = risk("bot", game, "--all", "--until-seat", "Cy")
    assert f"{game}: turn 0" in result.stderr and "moves" in result.stderr


def test_all_stops_at_the_turn_limit(risk: Run, game: str) -> None:
    """issue 13: `--max-turns` stops a game that goes on, with turn_limit; what was played
    is stored."""
    result = risk("bot", game, "--all", "--max-turns", "1", code=1)
    assert result.stderr.rstrip().endswith("[turn_limit]")
    assert out(risk, "show", game)["turn"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ("--until-end",),
        ("--all", "--until-end", "--as", "Ann"),
        ("--all", "--until-seat", "Ann", "--as", "Bob"),
        (),
    ],
)
def test_bot_usage_mistakes(risk: Run, game: str, args: tuple[str, ...]) -> None:
    """issue 13: --until-end/--until-seat need --all and exclude each other; without --all
    the seat is named with --as; nothing is played (usage error, status 2)."""
    version = out(risk, "show", game)["version"]
    risk("bot", game, *args, code=2)
    assert out(risk, "show", game)["version"] == version
