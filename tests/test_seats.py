"""One player, several seats (``risk_core.seats``): commanders, what a player sees (ENG-07), and
``--as PLAYER`` on the command line and through the service.

Two tables.  ``REPUBLIC``: the player Republic, a name no seat has, commands seats 0 (Rex) and
2 (Cody); Bob and Cy are their own players.  ``ANN``: Ann's seat 0 is her own and she also
commands seat 2 (Ann's green).  No rule set uses commanders yet, so the games are classic
games started with ``SeatInfo(..., commander=...)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import Result

import risk_core as rc
from risk_core import SeatInfo, SetupError, bots
from risk_core.seats import check_commanders, commander_of, players, seats_of
from risk_core.views import view, visible_event, visible_events

Run = Callable[..., Result]
REPUBLIC = [
    SeatInfo(name="Rex", colour="red", commander="Republic"),
    SeatInfo(name="Bob", colour="blue"),
    SeatInfo(name="Cody", colour="green", commander="Republic"),
    SeatInfo(name="Cy", colour="yellow"),
]
ANN = [
    SeatInfo(name="Ann", colour="red"),
    SeatInfo(name="Bob", colour="blue"),
    SeatInfo(name="Ann's green", colour="green", commander="Ann"),
    SeatInfo(name="Cy", colour="yellow"),
]


def states(events: list[rc.Event]) -> Iterator[tuple[rc.Event, rc.GameState]]:
    state = rc.replay(events[:1])
    yield events[0], state
    for ev in events[1:]:
        state = rc.evolve(state, ev)
        yield ev, state


def bot_game(rules: str, seats: list[SeatInfo], seed: int, limit: int = 5000) -> list[rc.Event]:
    events = rc.start(rules, seats, seed=seed)
    state = rc.replay(events)
    for n in range(limit):
        if state.phase == "over":
            break
        new = rc.decide(state, bots.choose(state, level="greedy", seed=n))
        state = rc.apply_in_place(state, new)
        events += new
    return events


# --------------------------------------------------------------------------- the model
def test_commanders_are_recorded_and_resolved() -> None:
    """seats_for keeps each commander, the opening records it, the state's players carry it;
    a player's seats are those it commands, a seat without a commander is its own player."""
    events = rc.start("classic", REPUBLIC, seed=1)
    unset = msgspec.UNSET
    started = events[0]
    assert isinstance(started, rc.model.GameStarted)
    assert [s.commander for s in started.players] == ["Republic", unset, "Republic", unset]
    state = rc.replay(events)
    assert seats_of(state, "Republic") == [0, 2]
    assert seats_of(state, "Bob") == [1]
    assert seats_of(state, "Rex") == []  # a commanded seat is not a player
    assert [commander_of(state, i) for i in range(4)] == ["Republic", "Bob", "Republic", "Cy"]
    assert players(state) == ["Republic", "Bob", "Cy"]
    ann = rc.replay(rc.start("classic", ANN, seed=1))
    assert seats_of(ann, "Ann") == [0, 2] and players(ann) == ["Ann", "Bob", "Cy"]
    # Never encoded when unset: a game without commanders is stored as before.
    plain = rc.start("classic", ["A", "B", "C"], seed=1)
    assert b"commander" not in rc.encode(plain[0])


@pytest.mark.parametrize(
    "seats",
    [
        # commands itself
        [SeatInfo(name="Ann", colour="red", commander="Ann"), "Bob", "Cy"],
        # an empty name
        [SeatInfo(name="Ann", colour="red", commander=" "), "Bob", "Cy"],
        # a seat commanded by another player commands nobody
        [
            SeatInfo(name="Ann", colour="red", commander="Zed"),
            SeatInfo(name="Bob", colour="blue", commander="Ann"),
            "Cy",
        ],
        # a neutral seat commands nobody
        [
            SeatInfo(name="Ann", colour="red", commander="Wall"),
            "Bob",
            "Cy",
            SeatInfo(name="Wall", colour="black", neutral=True),
        ],
        # the seat's name in another case
        [
            SeatInfo(name="Ann", colour="red"),
            "Bob",
            SeatInfo(name="X", colour="green", commander="ann"),
        ],
        # one player spelt two ways
        [
            SeatInfo(name="A", colour="red", commander="Republic"),
            "Bob",
            SeatInfo(name="C", colour="green", commander="REPUBLIC"),
        ],
    ],
)
def test_bad_commanders_are_refused(seats: list[str | SeatInfo]) -> None:
    with pytest.raises(SetupError) as err:
        rc.start("classic", seats, seed=1)
    assert err.value.code == "bad_commander"


def test_good_commanders_pass() -> None:
    check_commanders(REPUBLIC)
    check_commanders(ANN)
    check_commanders([SeatInfo(name="A", colour="red")])


# --------------------------------------------------------------------------- ENG-07
@pytest.fixture(scope="module")
def republic_game() -> list[rc.Event]:
    events = bot_game("classic", REPUBLIC, seed=7_318_264_905_117_553_201)
    assert rc.replay(events).phase == "over"
    return events


def test_a_player_sees_its_own_seats_secrets_and_nobody_elses(
    republic_game: list[rc.Event],
) -> None:
    """ENG-07 per player: at every position Republic's view holds the hands and missions of
    seats 0 and 2 and of no other seat, and is exactly what seat 0 or seat 2 sees."""
    own = {0, 2}
    for _, state in states(republic_game):
        mine = seats_of(state, "Republic")
        v = view(state, mine)
        for p in v["players"]:
            i = p["seat"]
            if i in own:
                assert [c["id"] for c in p["hand"]] == state.players[i].hand
                assert (p["mission"] or {"id": None})["id"] == state.players[i].mission
                assert p["commander"] == "Republic"
            else:
                assert "hand" not in p and "mission" not in p and "commander" not in p
        text = json.dumps(v)
        assert str(state.seed) not in text
        for i in (1, 3):
            mission = state.players[i].mission
            if mission is not None and mission not in (
                state.players[0].mission,
                state.players[2].mission,
            ):
                assert f'"{mission}"' not in text
        # Each seat alone sees its own part only; the player's view is their union.
        for s in own:
            alone = view(state, s)
            assert alone["players"][s] == v["players"][s]
            assert "hand" not in alone["players"][2 if s == 0 else 0]
    assert view(state, [1]) == view(state, 1)  # a one-seat player is that seat
    assert view(state, []) == view(state, None)  # nobody: a spectator


def test_a_players_log_shows_what_any_of_its_seats_may_see(
    republic_game: list[rc.Event],
) -> None:
    """ENG-07 on the log: missions dealt and cards drawn show for Republic's two seats only."""
    drawn = 0
    for ev, d in zip(republic_game, visible_events(republic_game, [0, 2]), strict=True):
        assert "seed" not in d and "deck" not in d
        if d["type"] == "missions_dealt":
            assert [m is not None for m in d["missions"]] == [True, False, True, False]
        elif d["type"] == "card_drawn":
            drawn += 1
            assert (d["card"] is not None) == (d["seat"] in (0, 2))
        alone = [visible_event(ev, s) for s in (0, 2)]
        if alone[0] == alone[1]:
            assert d == alone[0]  # nothing secret between the two seats
    assert drawn > 0


def test_family_view_hooks_see_through_each_own_seat() -> None:
    """A family's seat_view and event redaction (napoleon-mission: each seat's four missions)
    show the missions of both of a player's seats, and of no other seat."""
    events = rc.start(
        "napoleon-mission",
        [
            SeatInfo(name="Rex", colour="red", commander="Republic"),
            SeatInfo(name="Bob", colour="blue"),
            SeatInfo(name="Cody", colour="green", commander="Republic"),
        ],
        seed=3,
    )
    state = rc.replay(events)
    v = view(state, seats_of(state, "Republic"))
    assert [("missions" in p) for p in v["players"]] == [True, False, True]
    assert [len(p["missions"]) for p in v["players"] if "missions" in p] == [4, 4]
    dealt = next(d for d in visible_events(events, [0, 2]) if d["type"] == "mission_hands_dealt")
    assert [m is not None for m in dealt["missions"]] == [True, False, True]


# --------------------------------------------------------------------------- command line
@pytest.fixture
def risk(risk: Run) -> Any:
    """conftest's `risk --store <empty tmp sqlite> ARGS…`, giving the JSON with ``as_json``,
    else the text (the error text when ``code`` is not 0, standard output then empty)."""

    def run(*args: str, code: int = 0, as_json: bool = False) -> Any:
        result = risk(*args, *(["--json"] if as_json and not code else []), code=code)
        if code:
            assert result.stdout == ""
            return result.stderr
        return json.loads(result.stdout) if as_json else result.stdout

    return run


@pytest.fixture
def cli(risk_store: str, risk: Any) -> Any:
    """`risk --store <tmp sqlite> ARGS… --json` (this module's ``risk``) with the two tables
    stored as cw and ann: the JSON, or the error text when ``code`` is not 0."""
    from risk_service import GameService

    with GameService(risk_store) as service:
        service.create_schema()
        service.new_game("classic", REPUBLIC, seed=5, game_id="cw")
        service.new_game("classic", ANN, seed=5, game_id="ann")

    def run(*args: str, code: int = 0) -> Any:
        return risk(*args, code=code, as_json=True)

    return run


def own_territory(v: dict[str, Any], seat: int) -> str:
    return next(t for t, cell in v["territories"].items() if cell["owner"] == seat)


def test_as_player_moves_for_the_seat_that_must_act(cli: Any) -> None:
    """`--as Republic` places for whichever of Rex and Cody must act; when Bob or Cy must, it
    is refused (not_your_turn, naming the seat that must act); `--as 2` and `--as Cody` still
    mean exactly seat 2."""
    for _ in range(8):  # setup: one army at a time, round the table
        v = cli("show", "cw")
        acting = v["to_act"]
        if acting in (0, 2):
            moved = cli("place", "cw", own_territory(v, acting), "--as", "republic")
            assert moved["events"][0]["seat"] == acting
        else:
            err = cli("place", "cw", own_territory(v, acting), "--as", "Republic", code=1)
            name = v["players"][acting]["name"]
            assert "[not_your_turn]" in err and f"{name}'s move (seat {acting})" in err
            assert "Rex (seat 0), Cody (seat 2)" in err
            cli("place", "cw", own_territory(v, acting), "--as", str(acting))
    v = cli("show", "cw")
    if v["to_act"] != 2:
        err = cli("place", "cw", own_territory(v, 2), "--as", "Cody", code=1)
        assert "[not_your_turn]" in err and "not seat 2's" in err  # the engine's own message
    while v["to_act"] != 2:
        cli("place", "cw", own_territory(v, v["to_act"]))
        v = cli("show", "cw")
    assert cli("place", "cw", own_territory(v, 2), "--as", "2")["events"][0]["seat"] == 2


def test_as_player_shows_and_logs_every_own_seat(cli: Any) -> None:
    """`show --as Ann` and `log --as Republic` hold the secrets of each of the player's seats;
    `--as 0` and `--as "Ann's green"` only that seat's (ENG-07)."""
    both = cli("show", "ann", "--as", "Ann")
    assert [("mission" in p) for p in both["players"]] == [True, False, True, False]
    assert [("hand" in p) for p in both["players"]] == [True, False, True, False]
    seat0 = cli("show", "ann", "--as", "0")
    assert [("mission" in p) for p in seat0["players"]] == [True, False, False, False]
    green = cli("show", "ann", "--as", "ann's GREEN")
    assert [("mission" in p) for p in green["players"]] == [False, False, True, False]
    log = cli("log", "cw", "--as", "Republic")["events"]
    dealt = next(d for d in log if d["type"] == "missions_dealt")
    assert [m is not None for m in dealt["missions"]] == [True, False, True, False]
    assert "[unknown_seat]" in cli("log", "cw", "--as", "Empire", code=1)


def test_local_backend_views_a_player_without_a_seat_of_its_name(tmp_path: Path) -> None:
    """The backend's view for a player no seat is named after (`risk show` prints the secrets
    of the seats ``risk_cli.common.seats_named`` resolves --as to)."""
    from risk_cli.backend import LocalBackend
    from risk_cli.common import App

    app = App(f"sqlite:///{tmp_path / 'g.db'}", create=True)
    try:
        app.service.new_game("classic", REPUBLIC, seed=5, game_id="cw")
        v = LocalBackend(app).view("cw", "Republic")
        assert [("mission" in p) for p in v["players"]] == [True, False, True, False]
    finally:
        app.close()


# --------------------------------------------------------------------------- risk new --commander
CLONE_WARS = ["--players", "Rex,Cody,Grievous", "--seed", "5"]
BOARD = rc.load_board("classic")


def secrets_part(text: str) -> str:
    """What `risk show` prints after the board: the viewer's seats' secrets, from the first
    seat heading (the only lines ending with "):")."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.endswith("):")), len(lines))
    return "\n".join(lines[start:])


def mission_text(mission_id: str) -> str:
    return next(m.text_en for m in BOARD.missions if m.id == mission_id)


def test_new_with_commanders_shows_every_seat_of_the_player(risk: Any) -> None:
    """`risk new --commander` (a seat by name or number) records the commanders; `show --as
    Republic` (a player no seat is named after) shows the hands and missions of Rex and Cody,
    each under its seat's name, and nothing of Grievous's (ENG-07)."""
    made = risk(
        "new",
        *CLONE_WARS,
        "--commander",
        "Rex=Republic",
        "--commander",
        "1=Republic",
        "--id",
        "cw",
        as_json=True,
    )
    assert made["players"] == ["Rex", "Cody", "Grievous"]
    assert made["commanders"] == {"0": "Republic", "1": "Republic"}
    v = risk("show", "cw", "--as", "Republic", as_json=True)
    assert [p.get("commander") for p in v["players"]] == ["Republic", "Republic", None]
    assert [("hand" in p, "mission" in p) for p in v["players"]] == [
        (True, True),
        (True, True),
        (False, False),
    ]
    missions = [p["mission"]["id"] for p in v["players"][:2]]
    text = risk("show", "cw", "--as", "republic")
    secrets = secrets_part(text)
    assert "Rex (seat 0, played by Republic):" in secrets
    assert "Cody (seat 1, played by Republic):" in secrets
    assert "Your hand (Rex): no cards" in secrets and "Your hand (Cody): no cards" in secrets
    for m in missions:
        assert f"Your mission: {mission_text(m)}" in secrets
    assert "Grievous" not in secrets
    # Grievous's own view: his mission, and neither of Republic's.
    theirs = risk("show", "cw", "--as", "Grievous", as_json=True)["players"][2]["mission"]
    assert theirs["id"] not in missions
    assert mission_text(theirs["id"]) not in text
    alone = secrets_part(risk("show", "cw", "--as", "Grievous"))
    assert alone.startswith("Grievous (seat 2):") and "Rex" not in alone
    # A seat of the player by its own name or number: that seat only.
    rex = secrets_part(risk("show", "cw", "--as", "rex"))
    assert "Rex (seat 0, played by Republic):" in rex and "Cody" not in rex
    assert "Your hand" not in risk("show", "cw")  # a spectator
    assert "Rex (seat 0, played by Republic), Cody (seat 1, played by Republic)" in risk(
        "new", *CLONE_WARS, "--commander", "Rex=Republic", "--commander", "cody=Republic"
    )


def test_new_scenario_with_commanders_shows_both_hands(risk: Any, tmp_path: Path) -> None:
    """A scenario's hands: `show --as Republic` lists Rex's and Cody's cards, never
    Grievous's; `diff --as Republic` compares the two seats' hands and only their sizes for
    Grievous."""
    ids = [t.id for t in BOARD.territories]
    doc = {
        "ruleset": "classic",
        "players": ["Rex", "Cody", "Grievous"],
        "seed": 11,
        "phase": "attack",
        "territories": {t: {"owner": i % 3, "armies": 3} for i, t in enumerate(ids)},
        "hands": {"Rex": ["alaska", "greenland"], "Cody": ["ontario"], "Grievous": ["quebec"]},
        "missions": {"Rex": "na_africa", "Cody": "na_oceania", "Grievous": "asia_south_america"},
    }
    path = tmp_path / "clone-wars.json"
    path.write_text(json.dumps(doc))
    flags = ["--commander", "Rex=Republic", "--commander", "Cody=Republic"]
    risk("new", "--scenario", str(path), *flags, "--id", "sc")
    v = risk("show", "sc", "--as", "Republic", as_json=True)
    assert [[c["territory"] for c in p.get("hand", [])] for p in v["players"]] == [
        ["alaska", "greenland"],
        ["ontario"],
        [],
    ]
    secrets = secrets_part(risk("show", "sc", "--as", "Republic"))
    card = {
        t: f"[{BOARD.index[t]}] {BOARD.name(BOARD.index[t])} ({BOARD.card_symbols[BOARD.index[t]]})"
        for t in ("alaska", "greenland", "ontario", "quebec")
    }
    assert f"Your hand (Rex): {card['alaska']}, {card['greenland']}" in secrets
    assert f"Your hand (Cody): {card['ontario']}" in secrets
    assert card["quebec"] not in secrets and "Grievous" not in secrets
    assert f"Your mission: {mission_text('na_africa')}" in secrets
    assert f"Your mission: {mission_text('na_oceania')}" in secrets
    assert mission_text("asia_south_america") not in risk("show", "sc", "--as", "Republic")
    # Compared with the game's first version (no hands dealt yet).
    changed = risk("diff", "sc", "sc", "--at-a", "1", "--as", "Republic", as_json=True)
    fields = {(d["key"], d["field"]) for d in changed["differences"] if d["kind"] == "player"}
    assert {("0", "hand"), ("1", "hand"), ("0", "mission"), ("2", "cards")} <= fields
    assert ("2", "hand") not in fields and ("2", "mission") not in fields
    text = risk("diff", "sc", "sc", "--at-a", "1", "--as", "Republic")
    assert "Rex hand:" in text and "Cody hand:" in text and "Grievous hand" not in text


def test_replay_and_diff_as_a_player(risk: Any) -> None:
    """`replay --as Republic` and `diff --as Republic` resolve the player, not a seat name."""
    risk(
        "new",
        *CLONE_WARS,
        "--commander",
        "Rex=Republic",
        "--commander",
        "Cody=Republic",
        "--id",
        "cw",
    )
    replayed = risk("replay", "cw", "--as", "Republic", as_json=True)
    dealt = next(d for d in replayed["events"] if d["type"] == "missions_dealt")
    assert [m is not None for m in dealt["missions"]] == [True, True, False]
    state = replayed["state"]["players"]
    assert [("mission" in p) for p in state] == [True, True, False]
    text = risk("replay", "cw", "--as", "Republic")
    assert "Secret missions are dealt" in text and "At version" in text
    assert "[unknown_seat]" in risk("replay", "cw", "--as", "Empire", code=1)
    same = risk("diff", "cw", "cw", "--as", "Republic", as_json=True)
    assert same["same"] is True
    assert "No difference" in risk("diff", "cw", "cw", "--as", "Republic")
    assert "[unknown_seat]" in risk("diff", "cw", "cw", "--as", "Empire", code=1)


@pytest.mark.parametrize("value", ["Rex", "=Republic", "Rex=", " = "])
def test_new_commander_syntax_is_a_usage_error(risk: Any, value: str) -> None:
    err = risk("new", *CLONE_WARS, "--commander", value, code=2)
    assert "SEAT=PLAYER" in err and "--commander" in err
    assert risk("games", as_json=True) == []


@pytest.mark.parametrize(
    ("flags", "code"),
    [
        (["Rex=Rex"], "bad_commander"),  # itself
        (["Rex=Republic", "Cody=REPUBLIC"], "bad_commander"),  # one player spelt two ways
        (["Rex=cody"], "bad_commander"),  # a seat's name in another case
        (["Rex=Cody", "Cody=Grievous"], "bad_commander"),  # a commanded seat commands nobody
        (["Rex=Republic", "rex=Empire"], "bad_commander"),  # two commanders for one seat
        (["Zed=Republic"], "unknown_seat"),
        (["7=Republic"], "unknown_seat"),
    ],
)
def test_new_bad_commanders_store_nothing(risk: Any, flags: list[str], code: str) -> None:
    args = [arg for flag in flags for arg in ("--commander", flag)]
    err = risk("new", *CLONE_WARS, *args, "--id", "cw", code=1)
    assert err.startswith("Error: ") and f"[{code}]" in err
    assert risk("games", as_json=True) == []


def test_clone_wars_gives_its_armies_itself(risk: Any) -> None:
    """CW-07: Clone Wars hands each player its armies by the number of players; a
    `--commander` there is refused (it used to be dropped without a word), nothing stored."""
    players = ["--rules", "clonewars", "--players", "Rex,Cody,Grievous", "--id", "cwf"]
    err = risk("new", *players, "--commander", "Rex=Republic", code=1)
    assert "[bad_commander]" in err and "CW-07" in err and "leave out --commander" in err
    assert risk("games", as_json=True) == []
    made = risk("new", *players, as_json=True)
    assert made["game_id"] == "cwf"


def test_new_remote_with_commanders(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the service: `new --commander` sends the commanders (``NewGameRequest``), and
    `show --as Republic` with the keys the profile joined with shows both seats' secrets; a bad
    one is refused."""
    from tests.servicekit import remote_cli

    flags = ["--commander", "Rex=Republic", "--commander", "Cody=Republic"]
    with remote_cli(redis_server.url, tmp_path, monkeypatch, as_json=False) as risk:
        made = json.loads(risk("new", *CLONE_WARS, *flags, "--id", "rcw", "--json"))
        assert made["commanders"] == {"0": "Republic", "1": "Republic"}
        for invitation in made["invitations"].values():  # one profile joins every seat here
            risk("join", invitation)
        v = json.loads(risk("show", "rcw", "--as", "Republic", "--json"))
        assert [("mission" in p) for p in v["players"]] == [True, True, False]
        secrets = secrets_part(risk("show", "rcw", "--as", "Republic"))
        assert "Rex (seat 0, played by Republic):" in secrets
        assert "Cody (seat 1, played by Republic):" in secrets and "Grievous" not in secrets
        err = risk("new", *CLONE_WARS, "--commander", "Rex=Rex", "--id", "bad", code=1)
        assert "[bad_commander]" in err
        said = risk("new", *CLONE_WARS, "--id", "rcw2")  # its creator holds no seat's key yet
        assert "Join your own seat with its invitation (risk join INVITATION)" in said
        assert "See the board with" not in said


# --------------------------------------------------------------------------- service
def test_service_reads_with_several_seat_keys(tmp_path: Path) -> None:
    """Keys stay per seat: the player holding the keys of seats 0 and 2 reads both at once
    (``also``, each seat signing); every signature must be its own seat's key's; commands go
    with the acting seat's (issue 12: signed commands)."""
    from risk_service import GameService
    from risk_service.handler import Handler
    from risk_service.protocol import CommandRequest, EventsRequest, ViewRequest
    from risk_service.signing import SigningKey
    from tests.servicekit import Ask, new_game, seated

    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        ask = Ask(Handler(service, chosen_seeds=True))
        made = seated(
            ask, "cw", [s.name for s in REPUBLIC], seed=5, commanders={0: "Republic", 2: "Republic"}
        )
        keys = made.keys
        assert set(keys) == {0, 1, 2, 3}  # one per seat, as before
        state = service.state("cw")
        assert seats_of(state, "Republic") == [0, 2]

        def signed(request: Any, first: SigningKey, more: dict[int, SigningKey]) -> Any:
            request = first.sign(
                msgspec.structs.replace(request, also=dict.fromkeys(more, "") or msgspec.UNSET)
            )
            also = {s: k.signature(request) for s, k in more.items()}
            return msgspec.structs.replace(request, also=also or msgspec.UNSET)

        def look(first: SigningKey, more: dict[int, SigningKey]) -> Any:
            return ask(
                signed(ViewRequest(request_id=f"v{ask.n}", game_id="cw", seat=0), first, more)
            )

        both = look(keys[0], {2: keys[2]})
        assert both.ok and both.data == view(state, [0, 2])
        assert look(keys[0], {2: keys[1]}).code == "bad_signature"
        assert look(keys[2], {2: keys[2]}).code == "bad_signature"
        unsigned = ViewRequest(request_id="u", game_id="cw", seat=0, also={2: ""})
        assert ask(keys[0].sign(unsigned)).code == "bad_signature"
        log = ask(
            signed(EventsRequest(request_id="e", game_id="cw", seat=0), keys[0], {2: keys[2]})
        )
        assert log.events == visible_events(service.events("cw"), [0, 2])
        acting = rc.to_act(state)
        assert acting is not None
        command = bots.choose(state, level="greedy", seed=0)
        moved = ask(
            keys[acting].sign(
                CommandRequest(request_id="c", game_id="cw", seat=acting, command=command)
            )
        )
        assert moved.ok, moved
        bad, _, _ = new_game("cw2", ["A", "B", "C"], commanders={0: "A"})  # itself
        assert ask(bad).code == "bad_commander"
        far, _, _ = new_game("cw3", ["A", "B", "C"], commanders={7: "Zed"})
        assert ask(far).code == "bad_request"


def test_remote_player_with_the_keys_of_its_seats(
    redis_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the service: a profile holding Republic's two seat keys shows, logs and moves
    as Republic; without the second seat's key its combined view is refused."""
    from risk_cli.backend import RemoteBackend
    from risk_service.signing import Invitation
    from tests.servicekit import remote_cli

    with remote_cli(redis_server.url, tmp_path, monkeypatch) as risk:
        backend = RemoteBackend(redis_server.url)
        try:
            made = backend.new_game("classic", REPUBLIC, seed=5, options={}, game_id="rcw")
            for invitation in made.invitations.values():  # one player joins every seat here
                backend.join(Invitation.parse(invitation))
            v = backend.view("rcw", "Republic")
            assert [("mission" in p) for p in v["players"]] == [True, False, True, False]
            assert [p.get("commander") for p in v["players"]] == [
                "Republic",
                None,
                "Republic",
                None,
            ]
        finally:
            backend.close()
        log = risk("log", "rcw", "--as", "Republic")["events"]
        dealt = next(d for d in log if d["type"] == "missions_dealt")
        assert [m is not None for m in dealt["missions"]] == [True, False, True, False]
        for _ in range(6):
            v = risk("show", "rcw")
            acting = v["to_act"]
            who = "Republic" if acting in (0, 2) else str(acting)
            moved = risk("place", "rcw", own_territory(v, acting), "--as", who)
            assert moved["events"][0]["seat"] == acting
        # `wait` and `admin` act on one seat: a player of two is asked to name one.
        assert "[ambiguous_seat]" in risk("wait", "rcw", "--as", "Republic", code=1)
        while (v := risk("show", "rcw"))["to_act"] != 2:
            risk("place", "rcw", own_territory(v, v["to_act"]))
        assert risk("wait", "rcw", "--as", "Cody")["seat"] == 2
        # Without seat 2's key the player's view is refused, not silently cut down.
        path = tmp_path / "config" / "risk" / "profile.json"
        profile = json.loads(path.read_text())
        del profile["games"]["rcw"]["seats"]["2"]
        path.write_text(json.dumps(profile))
        assert "[unauthorized]" in risk("log", "rcw", "--as", "Republic", code=1)
