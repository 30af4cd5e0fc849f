"""Invitations and seats (issue 12): a game's creator holds the owner's key and one
single-use invitation per seat, never a seat's key; a claim binds the claimer's own key; the
owner can open a seat to a new invitation (recorded), never read it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from risk_cli.main import cli
from risk_core.model import EndTurn
from risk_service import GameService
from risk_service.client import new_request_id
from risk_service.handler import Handler
from risk_service.protocol import AdminRequest, CommandRequest, ViewRequest
from risk_service.signing import Invitation, SigningKey
from risk_service.worker import Worker
from tests.servicekit import Ask, claim, cli_home, new_game, running


def test_claims_are_single_use_and_bind_the_claimers_key(tmp_path: Path) -> None:
    """issue 12: a claim binds the key it names and spends the invitation
    (``invitation_claimed`` after); one signed by another seat's invitation, or a seen claim
    whose key was swapped (what a reader of the streams could try), is ``bad_invitation``."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        new, owner, invitations = new_game("inv", seed=3)
        created = ask(new)
        assert created.ok and created.data["invited"] == [0, 1, 2]
        assert "tokens" not in created.data and "owner_token" not in created.data
        # A stream reader sees Bob's claim and swaps in its own key: the proof no longer fits.
        claimed, bob = claim(invitations[1])
        thief = SigningKey.generate()
        swapped = msgspec.structs.replace(claimed, key=thief.public, request_id="swap")
        assert ask(swapped).code == "bad_invitation"
        wrong_seat = invitations[2].key.sign(msgspec.structs.replace(claimed, request_id="w"))
        assert ask(wrong_seat).code == "bad_invitation"
        assert ask(claimed).ok
        assert ask(claimed).ok  # a retry of the same claim: its outcome again
        again, _ = claim(invitations[1])
        assert ask(again).code == "invitation_claimed"
        seen = ask(bob.sign(ViewRequest(request_id="v", game_id="inv", seat=1)))
        assert seen.ok and "hand" in seen.data["players"][1]
        # Nobody but the claimer can act for Bob; the owner's key is no seat's.
        for key, code in ((thief, "bad_signature"), (owner, "bad_signature")):
            look = key.sign(ViewRequest(request_id=new_request_id(), game_id="inv", seat=1))
            assert ask(look).code == code


def test_the_owner_reinvites_a_seat_and_it_is_recorded(tmp_path: Path) -> None:
    """issue 12: the owner opens a claimed seat to a new invitation: the old key and the old
    invitation stop working, the new one claims the seat, and the owner's action is a ledger
    row saying what it revoked."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        new, owner, invitations = new_game("re", seed=4)
        assert ask(new).ok
        claimed, bob = claim(invitations[1])
        assert ask(claimed).ok
        fresh = Invitation.new("re", 1)
        reinvite = AdminRequest(
            request_id="reinvite", game_id="re", action="invite", seat=1, key=fresh.public
        )
        assert ask(bob.sign(reinvite)).code == "bad_signature"  # a seat is not the owner
        done = ask(owner.sign(reinvite))
        assert done.ok and done.data == {"seat": 1, "revoked": "key"}
        look = bob.sign(ViewRequest(request_id="old-key", game_id="re", seat=1))
        assert ask(look).code == "unauthorized"  # the seat has no key until claimed again
        stale, _ = claim(invitations[1])
        assert ask(stale).code == "bad_invitation"
        claimed, carol = claim(fresh)
        assert ask(claimed).ok
        assert ask(carol.sign(ViewRequest(request_id="new-key", game_id="re", seat=1))).ok
        state = service.state("re")
        command = CommandRequest(request_id="c", game_id="re", seat=1, command=EndTurn(seat=1))
        assert ask(bob.sign(command)).code == "bad_signature"
        assert state.version == service.state("re").version
    with sqlite3.connect(tmp_path / "g.db") as db:
        rows = dict(db.execute("SELECT request_id, outcome FROM risk_requests"))
    assert b'"revoked":"key"' in rows["reinvite"]


def test_a_refused_seat_says_what_became_of_it(tmp_path: Path) -> None:
    """ENG-07: only a seat's own key reads or moves for it; a key refused (`unauthorized`)
    learns why from the seat itself — the computer plays it, or it is open to an invitation
    again — where every refusal said the same three guesses."""
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        new, owner, invitations = new_game(
            "why", players=["Ann", "Bob"], ruleset="classic-2p", seed=5
        )
        assert ask(new).ok
        claimed, bob = claim(invitations[1])
        assert ask(claimed).ok

        def refusal(key: SigningKey, seat: int) -> str:
            reply = ask(
                key.sign(ViewRequest(request_id=new_request_id(), game_id="why", seat=seat))
            )
            assert reply.code == "unauthorized"
            return reply.message or ""

        bot = AdminRequest(request_id="bot", game_id="why", action="bot", seat=1)
        assert ask(owner.sign(bot)).ok
        assert "Seat 1 of why is played by the computer" in refusal(bob, 1)
        reopen = Invitation.new("why", 1)
        human = AdminRequest(
            request_id="human", game_id="why", action="invite", seat=1, key=reopen.public
        )
        assert ask(owner.sign(human)).ok
        assert "open to an invitation nobody has claimed yet" in refusal(bob, 1)
        assert "no player plays it (a neutral army)" in refusal(bob, 2)


# --------------------------------------------------------------------------- command line
Run = Callable[..., Any]


@pytest.fixture
def two_machines(redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`risk --redis URL ... --json` as Ann (the creator) or Bob, each with a profile of their
    own, as on two machines; a worker serves."""
    cli_home(tmp_path, monkeypatch)
    runner = CliRunner()

    def as_user(user: str) -> Run:
        def risk(*args: str, code: int = 0, text: bool = False) -> Any:
            env = {"XDG_CONFIG_HOME": str(tmp_path / user)}
            json_flag = [] if text else ["--json"]
            result = runner.invoke(cli, ["--redis", redis_server.url, *args, *json_flag], env=env)
            assert result.exit_code == code, (result.stdout, result.stderr)
            if text:
                return result.stdout
            if code:  # the error's code (errors are JSON with --json)
                return json.loads(result.stderr)["error"]["code"]
            return json.loads(result.stdout)

        return risk

    with running(
        Worker(
            redis_server.url, f"sqlite://{tmp_path / 'games.db'}", lease_ms=900, chosen_seeds=True
        )
    ):
        yield as_user("ann"), as_user("bob"), tmp_path


def test_invite_and_join_from_the_command_line(two_machines: Any) -> None:
    """issue 12: `new` prints the invitations and keeps no seat's key for the creator (who
    cannot read Bob's hand); `join` claims a seat on the player's machine, once; `join --seat`
    checks the seat; `invite` reprints an invitation or, with --renew, opens the seat anew."""
    ann, bob, home = two_machines
    made = ann("new", "--players", "Ann,Bob,Cy", "--seed", "7", "--id", "fri")
    invitations = made["invitations"]
    assert set(invitations) == {"0", "1", "2"}
    profile = json.loads((home / "ann" / "risk" / "profile.json").read_text())["games"]["fri"]
    assert profile["seats"] == {} and profile["owner"].startswith("ed25519-private:")
    assert ann("show", "fri", "--as", "Bob", code=1) == "unauthorized"
    assert bob("join", invitations["1"], "--seat", "Cy", code=1) == "wrong_seat"
    assert bob("join", "fri:1:nonsense", code=1) == "bad_invitation"
    joined = bob("join", invitations["1"], "--seat", "bob")
    assert joined["seat"] == 1 and joined["name"] == "Bob"
    assert "hand" in bob("show", "fri", "--as", "Bob")["players"][1]
    assert ann("join", invitations["1"], code=1) == "invitation_claimed"
    assert ann("join", invitations["0"])["seat"] == 0  # the creator plays a seat too
    assert ann("invite", "fri", "Cy") == {
        "game_id": "fri",
        "seat": 2,
        "invitation": invitations["2"],
        "renewed": False,
    }
    assert bob("invite", "fri", "Cy", code=1) == "unauthorized"  # Bob owns nothing
    renewed = ann("invite", "fri", "Bob", "--renew")
    assert renewed["renewed"] and renewed["revoked"] == "key"
    assert bob("show", "fri", "--as", "Bob", code=1) == "unauthorized"
    assert bob("join", renewed["invitation"])["seat"] == 1
    assert "hand" in bob("show", "fri", "--as", "1")["players"][1]
    # A seat handed to the computer comes back to a player through a new invitation.
    assert ann("admin", "fri", "bot", "Cy", "--level", "genius", code=2) == "usage"
    assert ann("admin", "fri", "bot", "Cy")["version"] > 0
    back = ann("admin", "fri", "human", "Cy")
    assert (
        back["revoked"] == "bot" and ann("invite", "fri", "Cy")["invitation"] == back["invitation"]
    )
    assert bob("join", invitations["2"], code=1) == "bad_invitation"  # the first one is void
    assert bob("join", back["invitation"])["name"] == "Cy"
    # Giving a player's seat to someone else says that player's key stopped working.
    said = ann("admin", "fri", "human", "Cy", text=True)
    assert "The key of the player who held the seat no longer works." in said
    assert bob("show", "fri", "--as", "Cy", code=1) == "unauthorized"


def test_keys_outlive_a_request_answered_late(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """issue 12: `new` and `join` keep their keys in the profile before the request is sent,
    and keep them when no answer comes in time (`timeout`, which says the request may still
    be carried out): once a worker runs, the game created late is the owner's and the seat
    claimed late is the player's."""
    import functools

    from risk_service.client import ServiceClient

    cli_home(tmp_path, monkeypatch)
    quick = functools.partialmethod(ServiceClient.__init__, timeout=0.5, attempt=0.2)
    monkeypatch.setattr(ServiceClient, "__init__", quick)
    runner = CliRunner()

    def risk(user: str, *args: str, code: int = 0) -> Any:
        env = {"XDG_CONFIG_HOME": str(tmp_path / user)}
        result = runner.invoke(cli, ["--redis", redis_server.url, *args, "--json"], env=env)
        assert result.exit_code == code, (result.stdout, result.stderr)
        return json.loads(result.stderr if code else result.stdout)

    store = f"sqlite://{tmp_path / 'games.db'}"
    with running(Worker(redis_server.url, store, lease_ms=900)):
        made = risk("ann", "new", "--players", "Ann,Bob,Cy", "--id", "early")
    late = risk("ann", "new", "--players", "Ann,Bob,Cy", "--id", "late", code=1)["error"]
    assert late["code"] == "timeout" and "may still be carried out" in late["message"]
    joined = risk("bob", "join", made["invitations"]["1"], code=1)["error"]
    assert joined["code"] == "timeout"
    with running(Worker(redis_server.url, store, lease_ms=900)):
        assert risk("ann", "invite", "late", "Bob")["seat"] == 1  # the owner's key was kept
        assert "hand" in risk("bob", "show", "early", "--as", "Bob")["players"][1]
        assert risk("bob", "join", made["invitations"]["1"], code=1)["error"]["code"] == (
            "invitation_claimed"
        )
        # A refusal keeps nothing: no stub of a game the profile cannot act in.
        risk("bob", "join", "nogame:0:" + made["invitations"]["0"].split(":")[2], code=1)
    profile = json.loads((tmp_path / "bob" / "risk" / "profile.json").read_text())
    assert set(profile["games"]) == {"early"}


def test_a_clone_wars_game_of_two_players_gets_an_invitation_per_army(two_machines: Any) -> None:
    """CW-02 through the service: two players command four armies (seats), so the creator gets
    four invitations — where the game used to be refused (`bad_request`) — and a player joins
    each army they command."""
    ann, bob, _ = two_machines
    made = ann("new", "--rules", "clonewars", "--players", "Rex,Grievous", "--id", "cw2")
    assert set(made["invitations"]) == {"0", "1", "2", "3"}
    players = ann("show", "cw2")["players"]
    assert [p.get("commander") for p in players] == ["Rex", "Grievous", "Rex", "Grievous"]
    for seat in ("1", "3"):
        assert bob("join", made["invitations"][seat])["seat"] == int(seat)
    assert "hand" in bob("show", "cw2", "--as", "Grievous")["players"][3]


def test_a_game_of_another_service_under_the_same_id_takes_no_key(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENG-07: a seat's key is what keeps its hand its player's, and the profile keeps one
    entry per game id. Bob plays `duel` on Ann's service; Cy's service has a `duel` too:
    joining it, or Ann creating one there, would replace the keys of the game they hold
    (the seat lost for good). Both are refused (`profile_clash`), the keys kept; Bob joins
    Cy's from a profile of its own."""
    from risk_service.redis_server import RedisServer

    cli_home(tmp_path, monkeypatch)
    runner = CliRunner()
    other_folder = tmp_path / "other-redis"
    other_folder.mkdir()
    other = RedisServer(other_folder).start()

    def risk(url: str, user: str, *args: str, code: int = 0) -> Any:
        env = {"XDG_CONFIG_HOME": str(tmp_path / user)}
        result = runner.invoke(cli, ["--redis", url, *args, "--json"], env=env)
        assert result.exit_code == code, (result.stdout, result.stderr)
        if code:
            return json.loads(result.stderr)["error"]["code"]
        return json.loads(result.stdout)

    ann_url, cy_url = redis_server.url, other.url
    try:
        with (
            running(Worker(ann_url, f"sqlite://{tmp_path / 'ann.db'}", lease_ms=900)),
            running(Worker(cy_url, f"sqlite://{tmp_path / 'cy.db'}", lease_ms=900)),
        ):
            mine = risk(
                ann_url,
                "ann",
                "new",
                "--rules",
                "classic-2p",
                "--players",
                "Ann,Bob",
                "--id",
                "duel",
            )["invitations"]
            assert risk(ann_url, "bob", "join", mine["1"])["seat"] == 1
            assert risk(ann_url, "ann", "join", mine["0"])["seat"] == 0
            profiles = {u: (tmp_path / u / "risk" / "profile.json") for u in ("ann", "bob")}
            kept = {u: p.read_text() for u, p in profiles.items()}
            theirs = risk(
                cy_url, "cy", "new", "--rules", "classic-2p", "--players", "Cy,Bob", "--id", "duel"
            )["invitations"]
            assert risk(cy_url, "bob", "join", theirs["1"], code=1) == "profile_clash"
            assert (
                risk(cy_url, "ann", "new", "--players", "A,B,C", "--id", "duel", code=1)
                == "game_exists"
            )  # Cy's service has one: said as it says it
            assert risk(cy_url, "ann", "new", "--players", "A,B,C", "--id", "cy2")["game_id"]
            kept["ann"] = profiles["ann"].read_text()
            assert (
                risk(ann_url, "ann", "new", "--players", "A,B,C", "--id", "cy2", code=1)
                == "profile_clash"
            )  # the `cy2` held is Cy's service's
            assert {u: p.read_text() for u, p in profiles.items()} == kept
            assert "hand" in risk(ann_url, "bob", "show", "duel", "--as", "Bob")["players"][1]
            assert risk(ann_url, "ann", "admin", "duel", "deadline", "1h")["version"] > 0
            # Cy's invitation is still open: Bob claims it from another profile.
            assert risk(cy_url, "bob-at-cy", "join", theirs["1"])["seat"] == 1
            # Joining a second seat of the game held, or again after a renewal, is no clash.
            again = risk(ann_url, "ann", "invite", "duel", "Bob", "--renew")["invitation"]
            assert risk(ann_url, "bob", "join", again)["seat"] == 1
    finally:
        other.stop()


def test_a_game_id_no_request_may_carry_is_said_as_what_it_is(two_machines: Any) -> None:
    """ENG-05: a game id the worker could only answer `malformed` (longer than its 128
    characters, a control character), with the decoder's words ("Expected `str` of length
    <= 128 - at `$.game_id`"), is refused before it is sent: `new` says what a game id may
    be (`bad_game_id`, as on a store of one's own, for any id it may not take), any other
    command that there is no such game (`unknown_game`)."""
    ann, bob, _ = two_machines
    long, tabbed = "x" * 200, "a\tb"
    for gid in (long, "y" * 100, tabbed):
        assert ann("new", "--players", "A,B,C", "--id", gid, code=1) == "bad_game_id"
    made = ann("new", "--players", "A,B,C", "--id", "idok")
    secret = made["invitations"]["1"].split(":")[2]
    for args in (("show", long), ("show", tabbed), ("join", f"{long}:1:{secret}")):
        assert bob(*args, code=1) == "unknown_game"
    assert bob("show", long, "--as", "1", code=1) == "unknown_game"


def test_handing_seats_to_the_computer_says_where_the_game_stands(two_machines: Any) -> None:
    """ENG-06: a seat handed to the computer moves at once, within the owner's request; the
    owner is told whose seat it was and where the game stands after it (the computer playing
    every seat plays the game to its end), where `admin` said "Done: bot 2 in …" only."""
    ann, _, _ = two_machines
    ann("new", "--players", "Ann,Bob,Cy", "--seed", "11", "--id", "auto")
    ann("admin", "auto", "bot", "Ann")
    said = ann("admin", "auto", "bot", "Bob", text=True).splitlines()
    assert said[0] == "Bob (seat 1) of auto is played by the computer (greedy)."
    assert said[1].startswith("Cy (seat 2) to act: ")
    said = ann("admin", "auto", "bot", "Cy", "--level", "simple", text=True).splitlines()
    assert said[0] == "Cy (seat 2) of auto is played by the computer (simple)."
    assert said[1].endswith(" has won.") and ann("show", "auto")["winner"] is not None
    said = ann("admin", "auto", "human", "Cy", text=True).splitlines()
    assert said[0] == "Cy (seat 2) of auto is open to a new invitation."
    assert said[-1].startswith("Hand this invitation to the seat's player: auto:2:")
