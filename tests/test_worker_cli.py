"""The `risk` command line through the service (--redis): profile, moves, views, inbox, wait."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from risk_cli.main import cli
from risk_service.worker import Worker
from tests.servicekit import running


def test_remote_cli(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("RISK_SEAT", raising=False)
    runner = CliRunner()

    def risk(*args: str, code: int = 0) -> Any:
        result = runner.invoke(cli, ["--redis", redis_server.url, *args, "--json"])
        assert result.exit_code == code, (result.stdout, result.stderr)
        return json.loads(result.stdout) if code == 0 else result.stderr

    store = f"sqlite://{tmp_path / 'games.db'}"
    with running(Worker(redis_server.url, store, lease_ms=900)):
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "cli1")
        profile = Path(created["profile"])
        assert stat.S_IMODE(profile.stat().st_mode) == 0o600
        assert set(json.loads(profile.read_text())["games"]["cli1"]["seats"]) == {"0", "1", "2"}
        seat = created["to_act"]
        mine = risk("show", "cli1", "--as", str(seat))
        assert "hand" in mine["players"][seat] and "seed" not in json.dumps(mine)
        spectator = risk("show", "cli1")
        assert all("hand" not in p for p in spectator["players"])
        assert risk("inbox") == [
            {
                "game_id": "cli1",
                "seat": seat,
                "name": mine["players"][seat]["name"],
                "phase": "setup",
            }
        ]
        assert risk("wait", "cli1", "--as", str(seat))["seat"] == seat
        territory = next(t for t, v in mine["territories"].items() if v["owner"] == seat)
        moved = risk("place", "cli1", territory, "--as", str(seat))
        assert moved["version"] == mine["version"] + len(moved["events"])
        assert "[local_only]" in risk("bot", "cli1", "--as", "0", code=1)
        assert risk("admin", "cli1", "deadline", "60")["version"] == moved["version"]
        log = risk("log", "cli1", "--as", str(seat))
        assert log["version"] == moved["version"]
        assert [g["game_id"] for g in risk("games")] == ["cli1"]
