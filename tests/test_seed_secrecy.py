"""A finished branch's seeds stay hidden while the game they came from is still played (ENG-07:
the seed predicts dice, draws and missions; ENG-01: one seeded stream, which a branch with
``--dice same`` goes on with).  Set up through the command line, on a store of one's own and
through the service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from risk_cli.main import cli
from risk_service.worker import Worker
from tests.servicekit import cli_home, running


class Cli:
    def __init__(self, store: str) -> None:
        self.runner, self.store = CliRunner(), store

    def __call__(self, *args: str, code: int = 0, redis: str | None = None) -> Result:
        where = ["--redis", redis] if redis else ["--create", "--store", self.store]
        result = self.runner.invoke(cli, [*where, *args])
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    def json(self, *args: str, redis: str | None = None) -> Any:
        return json.loads(self(*args, "--json", redis=redis).stdout)

    def revealed(self, game: str, redis: str | None = None) -> dict[str, Any]:
        """The game's ``seed_revealed`` event as served (its last event)."""
        last: dict[str, Any] = self.json("log", game, redis=redis)["events"][-1]
        assert last["type"] == "seed_revealed"
        return last

    def last_line(self, game: str) -> str:
        line: str = self("log", game).stdout.splitlines()[-1]
        return line

    def seeds(self, game: str) -> list[int]:
        """Every seed the game used, as its state holds them (the store's owner reads it)."""
        from risk_service.store import GameService

        with GameService(self.store) as service:
            state = service.state(game)
        return [*state.previous_seeds, state.seed]


@pytest.fixture
def risk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    cli_home(tmp_path, monkeypatch)
    return Cli(f"sqlite:///{tmp_path / 'games.db'}")


def started(risk: Cli, game: str = "real") -> None:
    """A classic game a few placements in: the parent, still in progress."""
    risk("new", "--players", "Ann,Bob,Cy", "--seed", "987654321987", "--id", game)
    risk("bot", game, "--all", "--until-seat", "Ann")
    assert risk.json("show", game)["phase"] == "setup"


def finish(risk: Cli, game: str) -> None:
    risk("bot", game, "--all", "--until-end")
    assert risk.json("show", game)["phase"] == "over"


def test_a_finished_branch_withholds_the_seed_its_live_parent_plays_with(risk: Cli) -> None:
    """ENG-07: the branch's seed_revealed, its log line and its web page hide the parent's seed
    while the parent plays on; once it is over, they show it."""
    started(risk)
    at = str(risk.json("show", "real")["version"])
    risk("branch", "real", "--at", at, "--id", "what-if")
    played = risk.json("bot", "what-if", "--all", "--until-end")["events"]
    seed = risk.seeds("real")[0]
    assert risk.seeds("what-if") == [seed]  # --dice same: one seed, the parent's
    assert played[-1] == {"type": "seed_revealed", "seeds": [None], "withheld": ["real"]}
    assert risk.revealed("what-if") == {
        "type": "seed_revealed",
        "seeds": [None],
        "withheld": ["real"],
    }
    assert risk.last_line("what-if").endswith(
        "The dice seeds are revealed: (withheld). Withheld until real is over: this game "
        "branches from it, which still plays with that seed."
    )
    page = Path(risk.store.removeprefix("sqlite:///")).parent / "what-if.html"
    risk("view", "--export", "what-if", "-o", str(page))
    assert str(seed) not in page.read_text()
    assert str(seed) not in risk("log", "what-if", "--json").stdout

    finish(risk, "real")
    for game in ("real", "what-if"):
        assert risk.revealed(game) == {"type": "seed_revealed", "seeds": [seed]}
        assert risk.last_line(game).endswith(f"The dice seeds are revealed: {seed}.")


def test_a_reseeded_branch_reveals_its_own_seed_and_a_parent_waits_for_no_branch(
    risk: Cli,
) -> None:
    """ENG-07: a reseeded branch's own seed is its own to show, the opening seed (the parent's,
    which also dealt the cards) is withheld while the parent plays on; a branch of that branch
    withholds both while they play.  A parent that ends shows its seed whatever its branches
    do (ENG-01: its audit needs it)."""
    started(risk)
    at = str(risk.json("show", "real")["version"])
    risk("branch", "real", "--at", at, "--id", "new", "--dice", "reseed")
    risk("branch", "new", "--at", str(int(at) + 2), "--id", "deeper")
    finish(risk, "deeper")
    opening, own = risk.seeds("new")
    assert risk.seeds("deeper") == [opening, own] and risk.seeds("real") == [opening]
    assert risk.revealed("deeper") == {
        "type": "seed_revealed",
        "seeds": [None, None],
        "withheld": ["new", "real"],
    }
    assert risk.last_line("deeper").endswith(
        "Withheld until new, real are over: this game branches from them, which still play "
        "with those seeds."
    )
    finish(risk, "new")
    for game in ("new", "deeper"):
        assert risk.revealed(game) == {
            "type": "seed_revealed",
            "seeds": [None, own],
            "withheld": ["real"],
        }
    risk("branch", "real", "--at", at, "--id", "left-open")
    finish(risk, "real")
    assert risk.json("show", "left-open")["phase"] != "over"
    assert risk.revealed("real") == {"type": "seed_revealed", "seeds": [opening]}
    assert risk.revealed("deeper") == {"type": "seed_revealed", "seeds": [opening, own]}


def test_the_service_withholds_and_refuses_the_export(
    risk: Cli, redis_server: Any, tmp_path: Path
) -> None:
    """ENG-07 through the service: the events it serves withhold the seed, and the export
    (which holds every seed) is refused (`seed_in_play`) until the related game is over."""
    started(risk)
    at = str(risk.json("show", "real")["version"])
    risk("branch", "real", "--at", at, "--id", "what-if")
    finish(risk, "what-if")
    seed = risk.seeds("real")[0]
    url = redis_server.url
    with running(Worker(url, risk.store, lease_ms=900, chosen_seeds=True)):
        assert risk.revealed("what-if", redis=url)["seeds"] == [None]
        said = risk("export", "what-if", redis=url, code=1).stderr
        assert "[seed_in_play]" in said and "real" in said
        assert "[seed_in_play]" in risk("audit", "what-if", redis=url, code=1).stderr
        finish(risk, "real")
        assert risk.revealed("what-if", redis=url)["seeds"] == [seed]
        export = risk("export", "what-if", redis=url).stdout
        assert f'"seeds":[{seed}]' in export.replace(" ", "")
        assert risk.json("audit", "what-if", redis=url)["ok"] is True
