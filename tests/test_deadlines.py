"""Turn deadlines shown, and moves made on a timeout marked (issue 12, item 6), through the
`risk` command line and a real Redis; and `risk worker` refusing to start a missing store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from risk_cli.main import cli
from risk_core import RiskError
from risk_service.deadlines import (
    Timeout,
    format_duration,
    mark_events,
    parse_duration,
    timeouts,
    view_timeouts,
)
from risk_service.ledger import LedgerReader, RequestRow
from risk_service.protocol import Reply, encode
from tests.servicekit import WORKER_CODE, cli_home, remote_cli, stop_process

MARK = "(timeout: played by the computer)"


def hold_seats(risk: Any, created: dict[str, Any], seats: list[int]) -> None:
    """Make the creator's profile hold ``seats``: by claiming their invitations where `new`
    hands out invitations (the creator holds no seat otherwise)."""
    invitations = created.get("invitations") or {}
    for seat in seats:
        if str(seat) in invitations:
            risk("join", invitations[str(seat)])


@pytest.mark.parametrize(
    ("text", "seconds", "shown"),
    [
        ("90", 90, "1m30s"),
        ("90s", 90, "1m30s"),
        ("30m", 1800, "30m"),
        ("1h", 3600, "1h"),
        ("2d", 172_800, "2d"),
        ("1h30m", 5400, "1h30m"),
        ("1d 12h", 129_600, "1d12h"),
        ("0.5", 0.5, "0.5s"),
        ("1.5H", 5400, "1h30m"),
    ],
)
def test_durations(text: str, seconds: float, shown: str) -> None:
    """issue 12 item 6: `admin deadline` takes 1h, 30m, 2d, 90s, 1h30m and plain seconds."""
    assert parse_duration(text) == seconds
    assert format_duration(seconds) == shown


@pytest.mark.parametrize("text", ["", "x", "5x", "h", "30m1h", "-5", "0", "0s", "367d", "nan"])
def test_bad_durations(text: str) -> None:
    """issue 12 item 6: anything else is `bad_duration` (0 too: `off` removes a deadline)."""
    with pytest.raises(RiskError) as caught:
        parse_duration(text)
    assert caught.value.code == "bad_duration"


class Ledger(LedgerReader):
    """Request rows as the ledger returns them, by id."""

    def __init__(self, rows: list[RequestRow]) -> None:
        self.rows = {r.request_id: r for r in rows}

    def ledger_requests(self, request_ids: Sequence[str]) -> dict[str, RequestRow]:
        return {i: self.rows[i] for i in request_ids if i in self.rows}


def outcome(game_id: str, at: int, **reply: Any) -> RequestRow:
    return RequestRow(f"timeout:{game_id}:{at}", game_id, -1, encode(Reply(request_id="", **reply)))


def test_timeouts_from_the_ledger() -> None:
    """issue 12 item 6: the mark comes from each timeout's recorded outcome: the timed-out
    seat's moves up to ``through`` (the computer's own seats' moves after it are not marked),
    or the whole record for an outcome recorded without it; refused timeouts mark nothing."""
    ledger = Ledger(
        [
            outcome("g", 5, ok=True, version=9, data={"timed_out": 1, "through": 7}),
            outcome("g", 12, ok=True, version=15, data={"timed_out": 2}),
            outcome("g", 20, ok=False, code="stale_timeout"),
            outcome("h", 3, ok=True, version=4, data={"timed_out": 0}),
            outcome("g", 700, ok=True, version=702, data={"timed_out": 0, "through": 701}),
        ]
    )
    marks = timeouts(ledger, "g", 1200)  # more versions than one ledger query asks for
    assert marks == [Timeout(1, 6, 7), Timeout(2, 13, 15), Timeout(0, 701, 701)]
    events: list[dict[str, Any]] = [{"type": "x"} for _ in range(10)]  # versions 5 to 14
    mark_events(events, marks, since=4)
    assert [v for v, e in enumerate(events, start=5) if e.get("timeout")] == [6, 7, 13, 14]
    assert view_timeouts(marks, 14) == [
        {"seat": 1, "first": 6, "last": 7},
        {"seat": 2, "first": 13, "last": 14},
    ]


def test_deadline_shown_and_timeouts_marked(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12 item 6: `admin deadline` answers with the unit and due time; `show`, `inbox`
    and `wait` show the due time and time left; the computer's moves on a timeout are marked
    in `log`, `replay` and `show` (remote and on the store itself), and are ordinary commands
    (the game audits clean)."""
    runner = CliRunner()
    store = f"sqlite://{tmp_path / 'games.db'}"

    def text(*args: str, code: int = 0, where: list[str] | None = None) -> str:
        result = runner.invoke(cli, [*(where or ["--redis", redis_server.url]), *args])
        assert result.exit_code == code, (result.stdout, result.stderr)
        return result.stdout if code == 0 else result.stderr

    def local(*args: str) -> str:
        return text(*args, where=["--store", store])

    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "dl")
        hold_seats(risk, created, [0, 1, 2])
        seat = created["to_act"]

        # A length in units; the answer gives it back with the due time of the turn.
        before = datetime.now(UTC)
        answer = risk("admin", "dl", "deadline", "1h30m")["deadline"]
        assert (answer["seconds"], answer["text"]) == (5400, "1h30m")
        due = datetime.fromisoformat(answer["due"].replace("Z", "+00:00"))
        assert abs(due - before - timedelta(seconds=5400)) < timedelta(seconds=30)
        assert 5300 < answer["left"] <= 5400
        said = text("admin", "dl", "deadline", "1h30m")
        assert "Turn deadline of dl: 1h30m for each turn." in said
        assert f"(seat {seat}) must act by " in said and " UTC (1h" in said, said
        for bad in ("5x", "0", "400d", "-5"):  # -5: a value, not an option
            assert "[bad_duration]" in text("admin", "dl", "deadline", bad, code=1)

        # Shown by show, inbox and wait (JSON and text), unchanged by the refused ones.
        shown = risk("show", "dl")
        assert shown["deadline"]["text"] == "1h30m" and shown["deadline"]["left"] > 5000
        assert "Turn deadline 1h30m: due " in text("show", "dl")
        [waiting] = risk("inbox")
        assert waiting["seat"] == seat and waiting["deadline"]["text"] == "1h30m"
        assert "Turn deadline 1h30m: due" in text("inbox")
        assert risk("wait", "dl", "--as", str(seat))["deadline"]["due"] == shown["deadline"]["due"]
        assert "left)" in text("wait", "dl", "--as", str(seat))
        assert "Turn deadline 1h30m (the service's workers keep the time)." in local("show", "dl")

        # Plain seconds, as before: the waiting seat times out and the computer plays for it.
        at = shown["version"]
        assert risk("admin", "dl", "deadline", "0.5")["deadline"]["text"] == "0.5s"
        end = time.monotonic() + 20
        while (now := risk("show", "dl"))["version"] == at:
            assert time.monotonic() < end, "no timeout"
            time.sleep(0.1)
        first = now["timeouts"][0]
        assert (first["seat"], first["first"]) == (seat, at + 1)
        assert "last timeout: version" in text("show", "dl") and MARK in text("show", "dl")
        assert risk("admin", "dl", "deadline", "off")["deadline"] is None
        after = risk("show", "dl")
        assert "deadline" not in after and after["timeouts"][0] == first

        # log and replay mark exactly the timed-out seats' moves, remote and local alike.
        events = risk("log", "dl")["events"]
        marked = [v for v, e in enumerate(events, start=1) if e.get("timeout")]
        assert marked and marked[0] == at + 1
        for v in marked:
            assert events[v - 1]["type"] == "setup_placed"  # each timeout: one placement
        assert events[at]["seat"] == seat
        assert marked_lines(text("log", "dl")) == marked
        assert marked_lines(text("replay", "dl")) == marked
        local_log = json.loads(local("log", "dl", "--json"))["events"]
        assert [v for v, e in enumerate(local_log, 1) if e.get("timeout")] == marked
        assert marked_lines(local("log", "dl")) == marked
    # The marks are not in the stored events: the computer's moves are ordinary commands.
    assert json.loads(local("audit", "dl", "--json"))["ok"] is True


def marked_lines(output: str) -> list[int]:
    """The versions of the lines of `log` or `replay` output marked as timeouts."""
    return [int(line.split()[0]) for line in output.splitlines() if line.endswith(MARK)]


def test_worker_does_not_create_a_missing_store(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12: `risk worker` (and `risk serve`, which starts workers) starts a missing
    SQLite store only with --create, as every other command (`bad_store` naming the path,
    nothing created: no folder either)."""
    cli_home(tmp_path, monkeypatch)
    missing = tmp_path / "nowhere" / "games.db"
    for path in (missing, tmp_path / "games.db"):
        for verb in ("worker", "serve"):
            result = CliRunner().invoke(
                cli, ["--redis", redis_server.url, "--store", f"sqlite://{path}", verb]
            )
            assert result.exit_code == 1, result.stdout
            assert "[bad_store]" in result.stderr and str(path) in result.stderr
            if path.parent.exists():  # (a missing folder is said as such)
                assert f"`risk --create --store URL {verb}`" in result.stderr
            assert not path.exists() and not path.parent.joinpath("games.db-wal").exists()
    assert not missing.parent.exists()
    # With --create it starts the store (folders included) and serves.
    args = ["--create", "--redis", redis_server.url, "--store", f"sqlite://{missing}", "worker"]
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER_CODE, *args],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert worker.stdout is not None
        started = worker.stdout.readline().decode()  # said once it serves
        assert started.startswith("Worker ") and str(missing) in started, started
        assert missing.exists()
    finally:
        stop_process(worker)
    assert worker.returncode == 0


def test_a_turn_deadline_is_the_turns_not_each_moves(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12 item 6: "every turn that long": a seat's moves within its turn leave its due
    time where it was (a player cannot stretch a turn move by move); the next seat to act gets
    a deadline of its own."""
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        options = ["--option", "setup_placement=all_at_once"]  # a seat places several times
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", *options, "--id", "t")
        hold_seats(risk, created, [0, 1, 2])
        seat = created["to_act"]
        due = risk("admin", "t", "deadline", "1h")["deadline"]["due"]
        mine = [t for t, v in risk("show", "t")["territories"].items() if v["owner"] == seat]
        time.sleep(1.1)  # a due time recomputed now would differ by a second
        placed = risk("place", "t", mine[0], "1", "--as", str(seat))
        assert placed["to_act"] == seat
        assert risk("show", "t")["deadline"]["due"] == due  # the same turn: it stands
        left = risk("show", "t")["setup_left"][seat]
        placed = risk("place", "t", mine[0], str(left), "--as", str(seat))
        assert placed["to_act"] != seat
        assert risk("show", "t")["deadline"]["due"] > due  # the next seat's own


def test_a_timed_out_turns_end_is_marked_not_the_next_turns_start(
    redis_server: Any, tmp_path: Path
) -> None:
    """issue 12 item 6: when the computer plays a whole turn for a seat whose deadline passed,
    the marks end with that seat's last move; the next seat's turn starts in the same command
    (its EndTurn) and is not marked, nor is it in the view's timeout span."""
    from risk_core import to_act
    from risk_service.client import new_request_id
    from risk_service.protocol import AdminRequest, EventsRequest, ViewRequest
    from tests.servicekit import served_table

    store = f"sqlite://{tmp_path / 'games.db'}"
    with served_table(redis_server.url, store, "tt", lease_ms=600) as t:
        client = t.client
        assert t.state is not None and t.owner is not None
        while t.state.phase == "setup":  # to the first turn's start
            assert t.send(t.next_command()).ok  # random placements: no one-turn conquest
        waiting, at = to_act(t.state), t.state.version
        deadline = AdminRequest(
            request_id=new_request_id(), game_id="tt", action="deadline", seconds=0.2
        )
        assert client.call(t.owner.sign(deadline)).ok
        until = time.monotonic() + 10
        while client.call(ViewRequest(request_id=new_request_id(), game_id="tt")).version == at:
            assert time.monotonic() < until, "no timeout"
            time.sleep(0.1)
        off = AdminRequest(request_id=new_request_id(), game_id="tt", action="deadline")
        assert client.call(t.owner.sign(off)).ok
        view = client.call(ViewRequest(request_id=new_request_id(), game_id="tt")).data
        events = client.call(EventsRequest(request_id=new_request_id(), game_id="tt")).events
    marked = [v for v, e in enumerate(events, start=1) if e.get("timeout")]
    starts = [v for v, e in enumerate(events, start=1) if e["type"] == "turn_started"]
    [next_start] = [v for v in starts if v > at][:1]
    assert events[next_start - 1]["seat"] != waiting
    assert marked == list(range(at + 1, next_start)), (marked, next_start)
    assert events[next_start - 2]["type"] == "turn_ended"
    assert view["timeouts"] == [{"seat": waiting, "first": at + 1, "last": next_start - 1}]
