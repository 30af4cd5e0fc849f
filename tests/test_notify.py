"""Being told when a game needs you (issue 12, notifications): `risk inbox --wait` across all
the games of a profile, and `risk notify --exec CMD`, with a real Redis and worker; the
watching `risk` runs as its own process with its own profile, as a player's would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from risk_cli.main import cli
from tests.servicekit import WORKER_CODE, remote_cli, stop_process

Risk = Callable[..., Any]


def new_game(risk: Risk, game_id: str, seed: int) -> dict[str, Any]:
    """A game whose every seat the creator's profile holds (through invitations where `new`
    hands them out)."""
    args = ["--players", "Ann,Bob,Cy", "--seed", str(seed), "--id", game_id]
    created: dict[str, Any] = risk("new", *args)
    for invitation in (created.get("invitations") or {}).values():
        risk("join", invitation)
    return created


def watcher_profile(folder: Path, seats: dict[str, int], tmp_path: Path) -> dict[str, str]:
    """The environment of a player holding only ``seats`` (game → seat): a profile of its own
    with those seats copied from the creator's (``cli_home``: ``tmp_path / "config"``)."""
    creator = json.loads((tmp_path / "config" / "risk" / "profile.json").read_text())
    games = {}
    for gid, seat in seats.items():
        entry = dict(creator["games"][gid])
        entry["seats"] = {str(seat): entry["seats"][str(seat)]}
        entry.pop("owner", None)
        games[gid] = entry
    path = folder / "risk" / "profile.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"games": games}))
    path.chmod(0o600)
    return {**os.environ, "XDG_CONFIG_HOME": str(folder), "PYTHONUNBUFFERED": "1"}


def start(url: str, env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", WORKER_CODE, "--redis", url, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )


def place(risk: Risk, game_id: str, seat: int) -> None:
    """One starting army of ``seat`` on one of its territories (setup)."""
    mine = risk("show", game_id, "--as", str(seat))
    territory = next(t for t, v in mine["territories"].items() if v["owner"] == seat)
    risk("place", game_id, territory, "--as", str(seat))


def still_waiting(process: subprocess.Popen[bytes], seconds: float = 1.5) -> None:
    time.sleep(seconds)
    assert process.poll() is None, process.communicate()


def test_inbox_wait(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 12 notifications: `inbox --wait` returns at once when a game waits for you, blocks
    while none does (across every game of the profile) until a move in any of them makes one
    wait for you, and gives up after --timeout (`timeout`)."""
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        a = new_game(risk, "wa", 1)
        b = new_game(risk, "wb", 2)
        [first, second] = risk("inbox", "--wait")  # every seat is the creator's
        assert {first["game_id"], second["game_id"]} == {"wa", "wb"}

        # A player holding in each game the seat after the one to act waits for both.
        after = {g["game_id"]: (g["to_act"] + 1) % 3 for g in (a, b)}
        env = watcher_profile(tmp_path / "watcher", after, tmp_path)
        watcher = start(redis_server.url, env, "inbox", "--wait", "--json", "--timeout", "60")
        still_waiting(watcher)
        place(risk, "wb", b["to_act"])  # wb comes to the watcher's seat
        out, err = watcher.communicate(timeout=30)
        assert watcher.returncode == 0, err
        [entry] = json.loads(out)
        assert (entry["game_id"], entry["seat"], entry["phase"]) == ("wb", after["wb"], "setup")

        # Nothing waits for a profile without games: --timeout gives up.
        result = CliRunner().invoke(
            cli,
            ["--redis", redis_server.url, "inbox", "--wait", "--timeout", "0.5"],
            env={"XDG_CONFIG_HOME": str(tmp_path / "nobody")},
        )
        assert result.exit_code == 1 and "[timeout]" in result.stderr


def test_notify(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 12 notifications: `notify --exec CMD` runs CMD each time a game comes to one of
    your seats, with RISK_GAME, RISK_SEAT, RISK_NAME, RISK_PHASE and RISK_VERSION set; `--once`
    exits after the first run with CMD's status."""
    hook = 'echo "$RISK_GAME $RISK_SEAT $RISK_NAME $RISK_PHASE $RISK_VERSION" >> "$OUT"'
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        game = new_game(risk, "nt", 3)
        acting = game["to_act"]
        names = game["players"]

        # --once, for a player whose seat is not to act yet: nothing until it is.
        mine = (acting + 1) % 3
        env = watcher_profile(tmp_path / "watcher", {"nt": mine}, tmp_path)
        env["OUT"] = str(tmp_path / "once.txt")
        once = start(redis_server.url, env, "notify", "--once", "--json", "--exec", hook)
        still_waiting(once)
        assert not (tmp_path / "once.txt").exists()
        place(risk, "nt", acting)
        out, err = once.communicate(timeout=30)
        assert once.returncode == 0, err
        version = risk("show", "nt")["version"]
        ran = (tmp_path / "once.txt").read_text()
        assert ran == f"nt {mine} {names[mine]} setup {version}\n"
        assert json.loads(out) == {
            "game_id": "nt",
            "seat": mine,
            "name": names[mine],
            "phase": "setup",
            "version": version,
            "exit": 0,
        }

        # Without --once: at start for the game waiting already, then at each new turn.
        env["OUT"] = str(tmp_path / "each.txt")
        each = start(redis_server.url, env, "notify", "--exec", hook)
        try:
            wait_lines(tmp_path / "each.txt", 1)
            place(risk, "nt", mine)  # the watcher's own move: the turn goes on to others
            place(risk, "nt", (mine + 1) % 3)
            place(risk, "nt", (mine + 2) % 3)  # back to the watcher
            lines = wait_lines(tmp_path / "each.txt", 2)
        finally:
            stop_process(each)
        assert [line.split()[:2] for line in lines] == [["nt", str(mine)]] * 2
        assert int(lines[1].split()[4]) == risk("show", "nt")["version"]

        # --once exits with the command's status; a turn deadline shown in the line.
        risk("admin", "nt", "deadline", "1h")
        result = CliRunner().invoke(
            cli, ["--redis", redis_server.url, "notify", "--once", "--exec", "exit 3"]
        )
        assert result.exit_code == 3, result.stderr
        assert f"nt{' ' * 22}" in result.stdout and "(exit 3)" in result.stdout
        assert "left): ran the command (exit 3)." in result.stdout, result.stdout


def wait_lines(path: Path, n: int) -> list[str]:
    end = time.monotonic() + 30
    while not path.exists() or len(lines := path.read_text().splitlines()) < n:
        assert time.monotonic() < end, f"fewer than {n} runs"
        time.sleep(0.1)
    time.sleep(0.5)  # and no more
    lines = path.read_text().splitlines()
    assert len(lines) == n, lines
    return lines


def test_notify_after_the_computers_round(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12 notifications: when the other seats are the computer's, the game comes back to
    your seat within the announcement of your own move; that is a new turn all the same."""
    hook = 'echo "$RISK_GAME $RISK_SEAT $RISK_VERSION" >> "$OUT"'
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        game = new_game(risk, "nb", 4)
        mine = game["to_act"]
        for seat in {0, 1, 2} - {mine}:
            risk("admin", "nb", "bot", str(seat))
        env = watcher_profile(tmp_path / "watcher", {"nb": mine}, tmp_path)
        env["OUT"] = str(tmp_path / "runs.txt")
        each = start(redis_server.url, env, "notify", "--exec", hook)
        try:
            wait_lines(tmp_path / "runs.txt", 1)
            place(risk, "nb", mine)  # the computer places for the others, back to this seat
            lines = wait_lines(tmp_path / "runs.txt", 2)
        finally:
            stop_process(each)
        now = risk("show", "nb")
        assert now["to_act"] == mine and now["version"] == int(lines[1].split()[2])
        assert int(lines[1].split()[2]) > int(lines[0].split()[2]) + 1


def test_notify_says_once_that_the_service_is_away(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENG-06 (a seat is told when it must decide): `notify` keeps watching while Redis is
    away, and says so once, not once a second (a line a second flooded its log for as long
    as the service was down); it says when the service answers again, and runs the command
    for the turns it missed meanwhile."""
    hook = 'echo "$RISK_GAME $RISK_SEAT $RISK_VERSION" >> "$OUT"'
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        game = new_game(risk, "nw", 5)
        mine = (game["to_act"] + 1) % 3
        env = watcher_profile(tmp_path / "watcher", {"nw": mine}, tmp_path)
        env["OUT"] = str(tmp_path / "runs.txt")
        each = start(redis_server.url, env, "notify", "--exec", hook)
        try:
            still_waiting(each, 2.0)
            redis_server.stop()
            time.sleep(4.5)
            redis_server.start()
            place(risk, "nw", game["to_act"])  # the turn comes to the watcher
            wait_lines(tmp_path / "runs.txt", 1)
        finally:
            stop_process(each)
        err = each.communicate()[1].decode()
        assert err.count("Waiting for the service") == 1, err
        assert "The service answers again." in err
