"""A complete game played through the command line only, as a group of people and bots would.

Ann, Bob and Cy start a classic game.  The first setup armies and the first player's first turn
are played by hand with `place`, `attack`, `occupy` and `end`; from then on `risk bot` plays
whichever seat `show` says must act, until someone wins.  The stored history must then account
for the final board.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import risk_core as rc
from risk_cli.main import cli

BOARD = rc.load_board("classic")


class Table:
    """The players' shared terminal: every call is one `risk` command against one store."""

    def __init__(self, store: str) -> None:
        self.store = store
        self.runner = CliRunner()
        self.calls = 0

    def __call__(self, *args: str) -> Any:
        self.calls += 1
        result = self.runner.invoke(cli, ["--create", "--store", self.store, *args, "--json"])
        assert result.exit_code == 0, (args, result.stderr)
        return json.loads(result.stdout)


@pytest.fixture
def risk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RISK_SEAT", raising=False)
    return Table(f"sqlite:///{tmp_path / 'games.db'}")


def own(shown: dict[str, Any], seat: int) -> list[str]:
    return [t for t, cell in shown["territories"].items() if cell["owner"] == seat]


def front(shown: dict[str, Any], seat: int) -> tuple[str, str]:
    """An own territory and an enemy territory bordering it."""
    cells = shown["territories"]
    for origin in own(shown, seat):
        for n in BOARD.neighbours[BOARD.index[origin]]:
            target = BOARD.territories[n].id
            if cells[target]["owner"] != seat:
                return origin, target
    raise AssertionError("no front")


def test_a_whole_game_by_command(risk: Table) -> None:
    game = risk("new", "--players", "Ann,Bob,Cy", "--seed", "2024")["game_id"]

    # Setup: the first six armies are placed by hand, by whoever must act.
    for _ in range(6):
        shown = risk("show", game)
        seat = shown["to_act"]
        placed = risk("place", game, own(shown, seat)[0], "--as", str(seat))
        assert [e["type"] for e in placed["events"]][0] == "setup_placed"

    # The rest of the setup by bots, seat by seat, until the first turn begins.
    shown = risk("show", game)
    while shown["phase"] == "setup":
        risk("bot", game, "--as", str(shown["to_act"]))
        shown = risk("show", game)

    # The first player's turn by hand: everything on one border territory, one attack from it
    # (in round 1 every player holds many territories, so none is protected by CL-21).
    seat = shown["to_act"]
    assert shown["phase"] == "reinforce" and shown["reserve"] >= 3
    origin, target = front(shown, seat)
    name = BOARD.territories[BOARD.index[origin]].name_en  # names work as well as ids
    placed = risk("place", game, name, str(shown["reserve"]))
    assert placed["phase"] == "attack"
    fought = risk("attack", game, origin, target, "--as", str(seat))
    assert fought["events"][0]["type"] == "battle"
    if fought["phase"] == "occupy":
        risk("occupy", game, str(risk("show", game)["occupation"]["min"]))
    ended = risk("end", game)
    assert ended["to_act"] != seat

    # Everything else: the bot plays whichever seat must act, until someone wins.
    shown = risk("show", game)
    while shown["winner"] is None:
        assert shown["turn"] < 500, "the game should end long before this"
        risk("bot", game, "--as", shown["players"][shown["to_act"]]["name"])
        shown = risk("show", game)

    assert shown["phase"] == "over" and shown["to_act"] is None
    winner = shown["winner"]
    assert not shown["players"][winner]["eliminated"]

    # The stored history replays to the board that `show` printed.
    log = risk("log", game)
    assert log["version"] == shown["version"] == len(log["events"])
    won, revealed = log["events"][-2:]
    assert won["type"] == "game_won" and won["seat"] == winner
    assert revealed["type"] == "seed_revealed"  # the dice can now be audited
    summary = next(g for g in risk("games") if g["game_id"] == game)
    assert summary["winner"] == winner and summary["phase"] == "over"
    # CORE-20: nothing more can be played once the game is over.
    result = risk.runner.invoke(cli, ["--store", risk.store, "end", game])
    assert result.exit_code == 1 and result.stderr.endswith("[game_over]\n")
