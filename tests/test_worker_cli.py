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
from tests.servicekit import cli_home, remote_cli, running


def test_remote_cli(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "cli1")
        profile = Path(created["profile"])
        assert stat.S_IMODE(profile.stat().st_mode) == 0o600
        kept = json.loads(profile.read_text())["games"]["cli1"]
        assert kept["seats"] == {} and kept["owner"]  # issue 12: no seat's secret for the creator
        said = risk("wait", "cli1", code=2)
        assert "Your profile holds no seat of cli1: join it (`risk join INVITATION`)" in said
        first = created["to_act"]
        risk("join", created["invitations"][str(first)])
        assert risk("wait", "cli1")["seat"] == first  # the one seat held: no --as needed
        for invitation in created["invitations"].values():  # one profile joins every seat here
            if not invitation.startswith(f"cli1:{first}:"):
                risk("join", invitation)
        said = risk("wait", "cli1", code=2)
        assert "Your profile holds seats 0, 1, 2 of cli1: name one with --as." in said
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
        said = risk("bot", "cli1", "--as", "0", code=1)
        assert "[local_only]" in said and "`risk admin GAME bot SEAT`" in said
        assert risk("admin", "cli1", "deadline", "60")["version"] == moved["version"]
        log = risk("log", "cli1", "--as", str(seat))
        assert log["version"] == moved["version"]
        assert [g["game_id"] for g in risk("games")] == ["cli1"]


def test_remote_history(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """replay, stats, tree, diff, export and audit through the service print what they print
    on the store itself; an export, which shows everything, only once the game is over (ENG-07),
    and the service's export audits clean (ENG-01)."""
    cli_home(tmp_path, monkeypatch)
    runner = CliRunner()
    store = f"sqlite://{tmp_path / 'games.db'}"

    def run(where: list[str], *args: str, code: int = 0) -> Any:
        result = runner.invoke(cli, [*where, *args])
        assert result.exit_code == code, (result.stdout, result.stderr)
        return result

    def local(*args: str, code: int = 0) -> Any:
        return run(["--create", "--store", store], *args, code=code)

    def remote(*args: str, code: int = 0) -> Any:
        return run(["--redis", redis_server.url], *args, code=code)

    game = json.loads(local("demo", "--seed", "3", "--players", "3", "--json").stdout)["game_id"]
    local("branch", game, "--at", "150", "--id", "what-if")
    same = [
        ("replay", game, "--json"),
        ("replay", game, "--from", "40", "--to", "60"),
        ("stats", game, "--json"),
        ("stats", game, "--to", "100"),
        ("tree", "what-if", "--json"),
        ("diff", game, "what-if", "--at-a", "150", "--at-b", "151"),
        ("diff", game, "what-if", "--json"),
        ("export", game),
    ]
    with running(Worker(redis_server.url, store, lease_ms=900, chosen_seeds=True)):
        for args in same:
            assert remote(*args).stdout == local(*args).stdout, args
        export = remote("export", game).stdout
        assert '"seed_revealed"' in export  # a finished game: its seeds are public
        assert json.loads(remote("audit", game, "--json").stdout)["ok"] is True
        # The same checks, and the export's own digest checked too.
        audited = remote("audit", game).stdout.splitlines()
        assert set(local("audit", game).stdout.splitlines()) < set(audited)
        created = json.loads(
            remote("new", "--players", "Ann,Bob,Cy", "--id", "live", "--json").stdout
        )
        assert "[game_not_over]" in remote("export", "live", code=1).stderr
        assert "[game_not_over]" in remote("audit", "live", code=1).stderr
        seat = created["to_act"]
        remote("join", created["invitations"][str(seat)])
        mine = json.loads(remote("replay", "live", "--as", str(seat), "--json").stdout)
        theirs = json.loads(remote("replay", "live", "--json").stdout)
        assert "hand" in mine["state"]["players"][seat]
        assert all("hand" not in p for p in theirs["state"]["players"])
        assert all("seed" not in json.dumps(ev) for ev in mine["events"] + theirs["events"])
        assert "[bad_version]" in remote("replay", "live", "--to", "999", code=1).stderr
        said = remote("branch", game, "--at", "10", code=1).stderr
        assert "[local_only]" in said and "RISK_REDIS_URL unset" in said
        assert "`risk export GAME -o FILE`, then `risk import FILE`" in said  # what to do

        # CORE-13..16 through the service: `near` and `odds` (the service gives the facts, a
        # spectator's as a player's, the odds are computed here) say what they say on the
        # store itself; `attack --dry-run` is checked as the player's seat would be.
        near = json.loads(local("near", game, "ukraine", "--json").stdout)
        assert json.loads(remote("near", game, "ukraine", "--json").stdout) == near
        assert remote("near", game, "ukraine").stdout == local("near", game, "ukraine").stdout
        # Odds of an attack the board allows: in the branch, mid-game (the game is won).
        around = json.loads(local("near", "what-if", "ukraine", "--json").stdout)
        foes = [r for r in around["neighbours"] if r["owner"] != around["owner"]]
        strong = max(foes, key=lambda r: r["armies"])["territory"]
        for args in (
            ("odds", "what-if", strong, "ukraine", "--json"),
            ("odds", "what-if", strong, "ukraine", "--dice", "1", "--stop-at", "1"),
        ):
            assert remote(*args).stdout == local(*args).stdout, args
        assert "[unknown_territory]" in remote("odds", game, "atlantis", "ukraine", code=1).stderr
        wrong = ("attack", "live", "alaska", "kamchatka", "--dry-run", "--as", str(seat))
        assert remote(*wrong, code=1).stderr == local(*wrong, code=1).stderr  # its refusal


def test_an_unreachable_service_is_named_without_its_password() -> None:
    """No answer from Redis: the ``timeout`` error names the URL with its password hidden and
    says why Redis could not be reached (here: nothing listens on the port)."""
    from risk_core import RiskError
    from risk_service.client import ServiceClient

    client = ServiceClient("redis://risk-client:s3cret@127.0.0.1:1/0", timeout=0.3)
    with client, pytest.raises(RiskError) as caught:
        client.call(_view("nowhere"))
    assert caught.value.code == "timeout"
    message = str(caught.value)
    assert "s3cret" not in message
    assert "redis://risk-client:***@127.0.0.1:1/0" in message
    why = message.split("Redis could not be reached (", 1)[1]
    assert "127.0.0.1:1" in why and "may still be carried out" not in message  # a read


def test_a_write_nobody_answers_may_still_be_carried_out(redis_server: Any) -> None:
    """A write without an answer (Redis up, no worker): the ``timeout`` error says no worker
    answered — not Redis — and that a worker reading it later still carries it out, once, so
    the player looks before sending it again; a read says only the first."""
    import risk_core
    from risk_core import RiskError, bots
    from risk_service.client import ServiceClient, new_request_id
    from risk_service.protocol import CommandRequest

    client = ServiceClient(redis_server.url, timeout=0.3, attempt=0.1, prefix="idle")
    client.redis.set(client.keys.config, 8)  # as a worker that has since stopped left it
    state = risk_core.replay(risk_core.start("classic", ["A", "B", "C"], seed=1))
    move = CommandRequest(
        request_id=new_request_id(), game_id="g", seat=0, command=bots.choose(state, seed=0)
    )
    for request, write in ((move, True), (_view("g"), False)):
        with client, pytest.raises(RiskError) as caught:
            client.call(request)
        message = str(caught.value)
        assert caught.value.code == "timeout" and "no worker answered it" in message
        assert "Redis could not be reached" not in message
        assert ("may still be carried out by a worker that reads it later" in message) == write


def _view(game_id: str) -> Any:
    from risk_service.client import new_request_id
    from risk_service.protocol import ViewRequest

    return ViewRequest(request_id=new_request_id(), game_id=game_id)


def test_a_refused_redis_login_fails_at_once(redis_server: Any) -> None:
    """A wrong user or password is ``redis_login`` at once (no retrying until the timeout),
    the URL shown without its password."""
    from risk_core import RiskError
    from risk_service.client import ServiceClient

    url = f"redis://nobody:wr0ng@127.0.0.1:{redis_server.port}/0"
    client = ServiceClient(url, timeout=30)
    with client, pytest.raises(RiskError) as caught:
        client.call(_view("nowhere"))
    assert caught.value.code == "redis_login"
    assert "wr0ng" not in str(caught.value) and "nobody:***@" in str(caught.value)


def test_remote_moves(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`risk moves` through the service (ENG-07): the acting seat's legal moves, grouped as a
    store of one's own groups them from the game's state; nothing for another seat; and an
    unsigned (spectator's) request gets no seat's moves, which would show its cards."""
    from risk_core import ruleset_of
    from risk_core.move_groups import grouped_moves, no_moves
    from risk_service import GameService
    from risk_service.client import ServiceClient
    from risk_service.protocol import ViewRequest

    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        created = risk("new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "mv1")
        for invitation in created["invitations"].values():
            risk("join", invitation)
        seat = created["to_act"]
        listed = risk("moves", "mv1")
        assert listed["seat"] == seat and listed["phase"] == "setup"
        with GameService(f"sqlite://{tmp_path / 'games.db'}") as service:
            state = service.state("mv1")
        expected = grouped_moves(state, ruleset_of(state).legal_moves(state))
        assert expected["place"] and listed["moves"] == expected
        other = (seat + 1) % 3
        assert risk("moves", "mv1", "--as", str(other)) == {
            "game_id": "mv1",
            "seat": other,
            "phase": "setup",
            "moves": no_moves(),
        }
        text = CliRunner().invoke(cli, ["--redis", redis_server.url, "moves", "mv1"])
        assert text.exit_code == 0, text.stderr
        name = created["players"][seat]
        assert text.stdout.startswith(f"{name} (seat {seat}) may ") and "  place 1: " in text.stdout
        with ServiceClient(redis_server.url) as client:
            request = ViewRequest(request_id=_view("mv1").request_id, game_id="mv1", moves=True)
            assert client.ok(request).data["moves"] is None


def test_a_remote_reply_never_names_where_the_store_is(redis_server: Any, tmp_path: Path) -> None:
    """`unknown_game` through the service, for every kind of read: the game's id only, never
    the worker's store URL or path."""
    from risk_service.client import ServiceClient, new_request_id
    from risk_service.protocol import EventsRequest, HistoryRequest, ViewRequest

    store = tmp_path / "hidden-place.db"
    asks = [
        HistoryRequest(request_id=new_request_id(), game_id="nope", what="stats"),
        HistoryRequest(request_id=new_request_id(), game_id="nope", what="lineage"),
        HistoryRequest(request_id=new_request_id(), game_id="nope", what="export"),
        ViewRequest(request_id=new_request_id(), game_id="nope"),
        EventsRequest(request_id=new_request_id(), game_id="nope"),
    ]
    with (
        running(Worker(redis_server.url, f"sqlite://{store}", lease_ms=900, chosen_seeds=True)),
        ServiceClient(redis_server.url) as client,
    ):
        for ask in asks:
            reply = client.call(ask)
            assert reply.code == "unknown_game", reply
            assert "hidden-place" not in reply.message and "sqlite" not in reply.message


def test_a_neutral_seat_is_said_to_be_one(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CL-2P-01 (the neutral ally) through the service: `--as` the neutral seat says it is one,
    rather than to join it with an invitation that does not exist."""
    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        created = risk("new", "--rules", "classic-2p", "--players", "Ann,Bob", "--id", "duo")
        assert set(created["invitations"]) == {"0", "1"}  # no invitation for the ally
        said = risk("show", "duo", "--as", "2", code=1)
        assert "Seat 2 of duo is a neutral army: no player holds its key" in said
        assert "risk join INVITATION" not in said
        said = risk("show", "duo", "--as", "0", code=1)
        assert "holds no key for seat 0 of duo: `risk join INVITATION`" in said
