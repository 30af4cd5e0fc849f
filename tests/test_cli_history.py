"""`risk replay`, `branch`, `tree`, `diff`, `stats`, `audit`, `export` and `import` through
click's CliRunner, each test with its own SQLite store (as tests/test_cli.py).

The games come from `risk demo` (a seeded bot game, stored like any other).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import risk_core as rc
from risk_cli.backend import LocalBackend
from risk_cli.common import App
from risk_cli.main import cli
from risk_core import RiskError, bots
from risk_core.bots import self_play
from risk_core.model import Attack, Place, TurnStarted
from risk_service import history

Run = Callable[..., Result]


@pytest.fixture
def risk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run `risk --store <tmp sqlite> ARGS…` and check the exit status."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for var in ("RISK_SEAT", "RISK_STORE", "RISK_REDIS_URL"):
        monkeypatch.delenv(var, raising=False)
    store = f"sqlite:///{tmp_path / 'games.db'}"
    runner = CliRunner()

    def run(*args: str, code: int = 0, input: str | bytes | None = None) -> Result:
        result = runner.invoke(cli, ["--create", "--store", store, *args], input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    return run


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def error(risk: Run, *args: str, code: int = 1) -> str:
    result = risk(*args, code=code)
    assert result.stdout == ""
    return result.stderr


@pytest.fixture
def game(risk: Run) -> str:
    """A finished 3-player classic game (a few hundred events)."""
    game_id: str = out(risk, "demo", "--seed", "3", "--players", "3")["game_id"]
    return game_id


def length(risk: Run, game_id: str) -> int:
    n: int = out(risk, "show", game_id)["version"]
    return n


# --------------------------------------------------------------------------- replay
def test_replay_prints_one_line_per_event(risk: Run, game: str) -> None:
    n = length(risk, game)
    lines = risk("replay", game).stdout.splitlines()
    assert len(lines) == n + 2  # the events, a blank line, the status
    assert lines[0].split(maxsplit=1)[0] == "1" and "New classic game" in lines[0]
    assert any(" attacks " in x and " against " in x and " loses " in x for x in lines)
    assert any(" conquers " in x for x in lines)
    assert any("The dice seeds are revealed" in x for x in lines)
    assert lines[-1].startswith(f"At version {n}: ") and lines[-1].endswith(" has won.")
    assert risk("replay", game).stdout.splitlines()[:n] == risk("log", game).stdout.splitlines()


def test_replay_to_and_from(risk: Run, game: str) -> None:
    lines = risk("replay", game, "--from", "40", "--to", "45").stdout.splitlines()
    assert [x.split()[0] for x in lines[:6]] == ["40", "41", "42", "43", "44", "45"]
    assert lines[-1].startswith("At version 45: ")
    assert "[bad_version]" in error(risk, "replay", game, "--to", "100000")
    assert "[bad_version]" in error(risk, "replay", game, "--from", "50", "--to", "45")
    said = error(risk, "replay", game, "--to", "5", "--from", "9")
    assert "--from 9 is after --to 5: nothing to show. [bad_version]" in said


def test_replay_json_is_the_state_of_show(risk: Run, game: str) -> None:
    replayed = out(risk, "replay", game, "--to", "120")
    assert replayed["version"] == 120 and replayed["from"] == 1
    assert len(replayed["events"]) == 120
    assert replayed["events"] == out(risk, "log", game)["events"][:120]
    assert replayed["state"] == out(risk, "show", game, "--at", "120")
    as_ann = out(risk, "replay", game, "--to", "120", "--as", "Ann")
    assert as_ann["state"] == out(risk, "show", game, "--at", "120", "--as", "Ann")


def test_replay_hides_what_the_seat_may_not_see(risk: Run, game: str) -> None:
    """ENG-07: cards drawn are shown to their drawer only; no seed is shown before the reveal
    (here a branch's new seed, in a game that goes on)."""
    risk("branch", game, "--at", "200", "--id", "b", "--seed", "987654321987123")
    for seat in ([], ["--as", "Ann"], ["--as", "Bob"]):
        shown = out(risk, "replay", "b", *seat)
        assert "987654321987123" not in json.dumps(shown)
        assert all("seed" not in e for e in shown["events"])
        logged = out(risk, "log", "b", *seat)
        assert "987654321987123" not in json.dumps(logged)
    spectator = out(risk, "replay", "b")["events"]
    draws = [e for e in spectator if e["type"] == "card_drawn"]
    assert draws and all(e["card"] is None for e in draws)
    ann = out(risk, "replay", "b", "--as", "Ann")["events"]
    assert any(e["type"] == "card_drawn" and e["card"] is not None for e in ann)


def test_replay_step_without_a_terminal_is_refused(risk: Run, game: str) -> None:
    """issue 18: --step reads keys from a terminal (tests/test_turn_navigation.py)."""
    assert "[not_a_terminal]" in error(risk, "replay", game, "--step", "--to", "30")


# --------------------------------------------------------------------------- branch
def test_branch_same_dice(risk: Run, game: str) -> None:
    made = out(risk, "branch", game, "--at", "150", "--id", "b1")
    assert made["game_id"] == "b1" and made["parent"] == game and made["at"] == 150
    assert made["dice"] == "same" and made["version"] == 151 and made["commitment"] is None
    assert out(risk, "show", "b1", "--at", "150") == {
        **out(risk, "show", game, "--at", "150"),
        "game_id": "b1",
    }
    text = risk("branch", game, "--at", "150").stdout
    assert text.startswith("Created game ") and f"a branch of {game} after version 150" in text
    assert "the parent's seed stream goes on" in text


def test_branch_reseed_and_script(risk: Run, game: str, tmp_path: Path) -> None:
    made = out(risk, "branch", game, "--at", "150", "--seed", "42")
    assert made["dice"] == "reseed" and made["commitment"].startswith("sha256:")
    assert out(risk, "log", made["game_id"])["events"][-1] == {
        "type": "dice_reseeded",
        "commitment": made["commitment"],
    }
    faces = tmp_path / "faces.json"
    faces.write_text("[6, 6, 6, 1, 1]")
    scripted = out(risk, "branch", game, "--at", "150", "--dice", "script", "--script", str(faces))
    assert scripted["dice"] == "script" and scripted["faces"] == 5
    plain = tmp_path / "faces.txt"
    plain.write_text("6 5\n4\n")
    assert out(risk, "branch", game, "--at", "150", "--script", str(plain))["faces"] == 3


def test_branch_errors(risk: Run, game: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("6 7")
    assert "--seed goes with --dice reseed" in error(
        risk, "branch", game, "--at", "5", "--dice", "same", "--seed", "1", code=2
    )
    assert "needs --script" in error(risk, "branch", game, "--at", "5", "--dice", "script", code=2)
    assert "[bad_script]" in error(risk, "branch", game, "--at", "5", "--script", str(bad))
    assert "[bad_version]" in error(risk, "branch", game, "--at", "100000")
    assert "[unknown_game]" in error(risk, "branch", "nope", "--at", "5")
    assert "[game_exists]" in error(risk, "branch", game, "--at", "5", "--id", game)
    assert "Missing option '--at'" in error(risk, "branch", game, code=2)
    assert [g["game_id"] for g in out(risk, "games")] == [game]


def test_branch_inside_a_command(risk: Run, game: str) -> None:
    log = out(risk, "log", game)["events"]
    battle = next(i for i, e in enumerate(log, 1) if e["type"] == "conquered") - 1
    made = out(risk, "branch", game, "--at", str(battle))
    assert made["cut"] > 0
    text = risk("branch", game, "--at", str(battle)).stdout
    assert f"Version {battle} is inside a command's events" in text


@pytest.mark.parametrize("dice", ["1", "2", "3"])
def test_a_territory_emptied_by_a_cut_falls_to_any_attack(risk: Run, game: str, dice: str) -> None:
    """CORE-15/16 on a branch cut between a battle and its conquest: the territory is left with
    no armies, and an attack on it with any number of dice is a battle without defence dice
    (no losses) that conquers it; bots play on from there (what-if: simulate)."""
    log = out(risk, "log", game)["events"]
    at = next(i for i, e in enumerate(log, 1) if e["type"] == "conquered") - 1
    fought = log[at - 1]
    assert fought["type"] == "battle"
    risk("branch", game, "--at", str(at), "--id", "cut")
    shown = out(risk, "show", "cut")
    armies = {tid: t["armies"] for tid, t in shown["territories"].items()}
    assert armies[fought["target"]] == 0 and armies[fought["origin"]] > int(dice)
    seat = str(fought["seat"])
    origin, target = fought["origin"], fought["target"]
    done = out(risk, "attack", "cut", origin, target, "--dice", dice, "--as", seat)
    kinds = [e["type"] for e in done["events"]]
    assert kinds[:2] == ["battle", "conquered"], kinds
    assert done["events"][0]["defence"] == [] and done["events"][0]["attacker_losses"] == 0
    line = next(x for x in risk("log", "cut").stdout.splitlines() if "no defence dice" in x)
    assert line.endswith("against no defence dice; nobody loses an army."), line
    futures = out(risk, "simulate", "cut", "--runs", "4", "--seed", "1", "--jobs", "1")
    assert futures["runs"] == 4
    # The luck report weighs thrown dice only: that battle had none against (it raised).
    parent = out(risk, "stats", game)
    luck = out(risk, "stats", "cut")
    assert 0 < luck["battles"] < parent["battles"]
    assert "Dice luck in game cut" in risk("stats", "cut").stdout


def test_a_version_where_nobody_can_act_is_refused(risk: Run, game: str) -> None:
    """ENG-01 what-if: inside the opening (the deal and its steps) nobody can act, so a
    branch or a simulation there is `unplayable` instead of a game whose every listed move is
    refused (bots stopped on `not_enough_armies`); the first version where a seat acts is
    taken."""
    games = len(out(risk, "games"))
    for args in (("branch", game, "--at", "1"), ("simulate", game, "--at", "2", "--runs", "2")):
        said = error(risk, *args)
        assert "[unplayable]" in said and "inside a command's events where nobody" in said, said
    assert len(out(risk, "games")) == games  # nothing stored
    log = out(risk, "log", game)["events"]
    first = next(v for v, e in enumerate(log, 1) if e["type"] == "setup_placed") - 1
    assert out(risk, "branch", game, "--at", str(first), "--id", "early")["game_id"] == "early"
    seat = str(out(risk, "show", "early")["to_act"])
    assert out(risk, "bot", "early", "--as", seat)["version"] > first + 1  # a seat acts


@pytest.mark.parametrize("rules", [info.name for info in rc.rulesets()])
def test_a_stored_game_where_nobody_can_act_is_unplayable_for_bots_and_moves(
    risk: Run, rules: str, tmp_path: Path
) -> None:
    """ENG-01 what-if, every rule set: the versions where nobody can act are those inside the
    opening and inside the command that ends the set-up (after its last placement, before the
    first turn starts); a stored game standing at one (a branch cut there through the Python
    API, or imported from before `branch` refused it) is `unplayable` for `risk bot`, for
    `risk moves` (which listed moves that were all refused) and for a listed move, where the
    bot dead-ended on `not_enough_armies` (or raised, napoleon-2p) and the move was refused as
    if the seat had nothing to place.  At every other version of the set-up a bot's move is
    accepted."""
    info = next(i for i in rc.rulesets() if i.name == rules)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][
        : max(info.min_players, min(3, info.max_players))
    ]
    app = App(f"sqlite:///{tmp_path / 'games.db'}", create=True)
    try:
        service = app.service
        service.new_game(rules, names, seed=1, game_id="g")
        state = service.state("g")
        opening = state.version
        while state.turn == 0:  # through the set-up, to the first turn's start
            rc.apply_in_place(state, service.submit("g", bots.choose(state, seed=1)))
        stuck = []
        for v in range(1, state.version):
            at = service.state("g", at=v)
            if not history.playable(at):
                stuck.append(v)
            else:
                rc.decide(at, bots.choose(at, seed=1))  # accepted
        events = service.events("g")
        first_turn = next(v for v, e in enumerate(events, 1) if isinstance(e, TurnStarted))
        assert stuck and stuck[-1] < first_turn, (stuck, opening, first_turn)
        history.branch(service, "g", stuck[-1], game_id="cut")
        at_cut = service.state("cut")
        # A listed move, or (napoleon-2p lists none there) a placement on one's own territory.
        seat, board = rc.to_act(at_cut), rc.ruleset_of(at_cut).board
        mine = next(t for t, i in board.index.items() if at_cut.owner[i] == seat)
        listed = next(iter(rc.legal_commands(at_cut)), Place(seat=seat, territory=mine))
        with pytest.raises(RiskError) as refused:
            LocalBackend(app).move("cut", None, lambda v, board, who: listed)
        assert refused.value.code == "unplayable", refused.value
    finally:
        app.close()
    for args in (("bot", "--all"), ("bot", "--as", str(rc.to_act(at_cut))), ("moves",)):
        said = error(risk, args[0], "cut", *args[1:])
        assert "[unplayable]" in said and "Game cut stands at version" in said, (args, said)
        assert "Traceback" not in said
    assert out(risk, "show", "cut")["version"] == at_cut.version  # nothing stored


@pytest.mark.parametrize("rules", [info.name for info in rc.rulesets()])
def test_every_rule_set_takes_a_territory_emptied_by_a_cut(rules: str) -> None:
    """CORE-15/16 in every rule set: at a version cut between a battle that emptied a
    territory and its conquest, every listed move is accepted and an attack on it conquers it
    (a family's own dice used to fail on no defender: a raw ValueError)."""
    info = next(i for i in rc.rulesets() if i.name == rules)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][
        : max(info.min_players, min(3, info.max_players))
    ]
    _, events = self_play(rc.start(rules, names, seed=1), level="greedy", seed=1)
    cut = next(
        v
        for v, (ev, nxt) in enumerate(zip(events, events[1:], strict=False), 1)
        if type(ev).__name__ == "BattleFought" and type(nxt).__name__ == "TerritoryConquered"
    )
    state = rc.replay(events[:cut])
    fought = events[cut - 1]
    assert state.armies[rc.ruleset_of(state).board.index[fought.target]] == 0
    for cmd in rc.legal_commands(state):
        rc.decide(state, cmd)  # a RuleError or any other exception fails the test
    attack = Attack(seat=fought.seat, origin=fought.origin, target=fought.target, dice=1)
    assert any(type(e).__name__ == "TerritoryConquered" for e in rc.decide(state, attack))


# --------------------------------------------------------------------------- tree / diff
def test_tree(risk: Run, game: str) -> None:
    risk("branch", game, "--at", "150", "--id", "b1")
    risk("branch", "b1", "--at", "120", "--id", "b2")
    risk("branch", game, "--at", "200", "--id", "b3")
    text = risk("tree", "b1").stdout.splitlines()
    assert text[0].startswith(f"{game}  (root, ")
    assert (
        text[1].startswith("└── b1  (after version 150, 151 events, ") and "◀ this game" in text[1]
    )
    assert text[2].startswith("    └── b2  (after version 120, 121 events, ")
    assert len(text) == 3  # b3 is a sibling, not on b1's path
    whole = out(risk, "tree", game)
    assert whole["ancestors"] == []
    assert [c["game_id"] for c in whole["tree"]["children"]] == ["b1", "b3"]
    assert out(risk, "tree", "b2")["ancestors"] == [game, "b1"]


def test_diff(risk: Run, game: str) -> None:
    risk("branch", game, "--at", "150", "--id", "b1")
    assert risk("diff", game, "b1", "--at-a", "150").stdout == (
        f"No difference between {game} (version 150) and b1 (version 151).\n"
    )
    compared = out(risk, "diff", game, "b1", "--at-a", "100")
    assert compared["same"] is False and compared["a"] == {"game_id": game, "version": 100}
    kinds = {d["kind"] for d in compared["differences"]}
    assert "territory" in kinds
    text = risk("diff", game, "b1", "--at-a", "100").stdout
    assert text.startswith(f"{game} (version 100) and b1 (version 151): ")
    assert "→" in text
    as_ann = out(risk, "diff", game, "b1", "--at-a", "100", "--as", "Ann")
    assert all(d["key"] == "0" for d in as_ann["differences"] if d["field"] == "hand")
    # Seats by their player's name, cards by what they show (not their numbers).
    lines = risk("diff", game, "b1", "--at-a", "100", "--as", "Ann").stdout.splitlines()
    current = next(x for x in lines if x.startswith("  current_player:"))
    names = ("Ann", "Bob", "Cy")
    assert current.split()[1] in names and current.split()[-1] in names
    hand = next((x for x in lines if x.startswith("  Ann hand:")), None)
    assert hand is None or "(" in hand  # "Peru (cavalry)", never a bare card number
    assert all(":" in x.split("→")[0] for x in lines[1:])  # every label ends before its values


# --------------------------------------------------------------------------- stats
def test_stats(risk: Run, game: str) -> None:
    report = out(risk, "stats", game)
    assert report["game_id"] == game and report["battles"] > 0
    seats = report["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob", "Cy"]
    assert {"attacks", "defences", "dice", "losses", "expected_losses", "luck", "z"} <= set(
        seats[0]
    )
    assert sum(s["luck"] for s in seats) == pytest.approx(0, abs=1e-6)
    text = risk("stats", game).stdout
    assert text.startswith(f"Dice luck in game {game} ") and "expected" in text
    early = out(risk, "stats", game, "--to", "150")
    assert early["version"] == 150 and early["battles"] < report["battles"]


# --------------------------------------------------------------------------- audit
def test_audit_passes(risk: Run, game: str) -> None:
    text = risk("audit", game).stdout
    assert text.splitlines()[0].endswith(": PASSED")
    assert "ok    commitment" in text and "ok    events" in text
    report = out(risk, "audit", game)
    assert report["ok"] and report["seed_source"] == "revealed"
    assert report["verified"] == report["events"] == length(risk, game)


def tampered(data: bytes, *, fix_digest: bool = True) -> tuple[bytes, int]:
    """The export with one die face changed (written as the export writes JSON), and that
    event's version."""
    header, *lines = data.decode().splitlines()
    records = [json.loads(x) for x in lines]
    version = 0
    for r in records:
        for ev in r["events"]:
            version += 1
            if ev["type"] == "battle":
                ev["attack"][0] = 1 if ev["attack"][0] != 1 else 2
                body = "".join(_written(r) + "\n" for r in records).encode()
                head = json.loads(header)
                if fix_digest:
                    head["digest"] = "sha256:" + hashlib.sha256(body).hexdigest()
                return _written(head).encode() + b"\n" + body, version
    raise AssertionError("no battle")


def _written(value: Any) -> str:
    """JSON as the export writes it: compact, keys in order, characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_audit_of_a_tampered_file_fails(risk: Run, game: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    risk("export", game, "-o", str(path))
    assert risk("audit", "--file", str(path)).stdout.splitlines()[0].endswith(": PASSED")
    data, version = tampered(path.read_bytes())
    path.write_bytes(data)
    failed = risk("audit", "--file", str(path), code=1)
    assert failed.stderr.startswith(f"Error: Game {game} fails its audit (version {version}: ")
    assert failed.stderr.endswith("[audit_failed]\n")
    assert f"First divergence at version {version}" in failed.stdout
    line = int(failed.stdout.split(" of the file")[0].rsplit("line ", 1)[1])
    assert '"type":"battle"' in data.decode().splitlines()[line - 1]  # the line it names
    form = next(x for x in failed.stdout.splitlines() if " form " in x)
    assert form.startswith("  ok ")  # the form is the export's: only the die differs
    assert "  expected  " in failed.stdout and "  recorded  " in failed.stdout
    assert "  command   " in failed.stdout and "  differs   attack" in failed.stdout
    report = json.loads(risk("audit", "--file", str(path), "--json", code=1).stdout)
    assert report["ok"] is False and report["divergence"]["version"] == version
    assert "Name a stored GAME" in error(risk, "audit", code=2)
    assert "Name a stored GAME" in error(risk, "audit", game, "--file", str(path), code=2)


# --------------------------------------------------------------------------- export / import
def test_export_import_round_trip(risk: Run, game: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    summary = out(risk, "export", game, "-o", str(path))
    assert summary["file"] == str(path) and summary["format"] == "risk-export"
    assert summary["events"] == length(risk, game) and summary["digest"].startswith("sha256:")
    assert risk("export", game).stdout.encode() == path.read_bytes()
    assert risk("export", game, "-o", "-").stdout.encode() == path.read_bytes()  # - is stdout
    assert "give a file name, not '-'" in error(risk, "map", game, "-o", "-", code=2)
    header = json.loads(path.read_bytes().splitlines()[0])
    assert set(header) == {
        "format", "version", "engine", "game_id", "ruleset", "options", "board",
        "board_hash", "events", "digest",
    }  # fmt: skip
    imported = out(risk, "import", str(path), "--id", "copy")
    assert imported["game_id"] == "copy" and imported["events"] == summary["events"]
    assert out(risk, "show", "copy") == {**out(risk, "show", game), "game_id": "copy"}
    text = risk("import", "-", "--id", "copy2", input=path.read_bytes()).stdout
    assert text.startswith("Imported game copy2 (") and "its audit passed" in text
    assert "[game_exists]" in error(risk, "import", str(path), "--id", "copy")


def test_import_refuses_tampered_files(risk: Run, game: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    risk("export", game, "-o", str(path))
    before = out(risk, "games")
    for fix in (False, True):
        data, _ = tampered(path.read_bytes(), fix_digest=fix)
        bad = tmp_path / f"bad-{fix}.jsonl"
        bad.write_bytes(data)
        err = error(risk, "import", str(bad), "--id", "new")
        assert err.startswith("Error: This file cannot be imported: ") and "[bad_export]" in err
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("not an export\n")
    assert "[bad_export]" in error(risk, "import", str(foreign))
    assert out(risk, "games") == before
    said = error(risk, "audit", "--file", str(foreign))  # the same refusal, said of an audit
    assert said.startswith("Error: This file cannot be audited: it is not a game export")
    assert "[bad_export]" in said


def test_audit_of_a_file_checks_the_game_its_header_names(
    risk: Run, game: str, tmp_path: Path
) -> None:
    """ENG-01: `audit --file` fails a file whose header names another game than the one its
    events were played as (which `import` refuses, `game_id_mismatch`)."""
    path = tmp_path / "g.jsonl"
    risk("export", game, "-o", str(path))
    header, _, body = path.read_bytes().partition(b"\n")
    renamed = json.loads(header)
    renamed["game_id"] = "someone-else"
    forged = tmp_path / "renamed.jsonl"
    forged.write_bytes(json.dumps(renamed, separators=(",", ":")).encode() + b"\n" + body)
    report = json.loads(risk("audit", "--file", str(forged), "--json", code=1).stdout)
    name = next(c for c in report["checks"] if c["name"] == "name")
    assert not report["ok"] and not name["ok"] and repr(game) in name["detail"]
    assert "[game_id_mismatch]" in error(risk, "import", str(forged))
    ok = json.loads(risk("audit", "--file", str(path), "--json").stdout)
    assert ok["ok"] and next(c for c in ok["checks"] if c["name"] == "name")["ok"]


@pytest.mark.parametrize(
    ("how", "change"),
    [
        ("CRLF line ends", lambda data: data.replace(b"\n", b"\r\n")),
        ("a space", lambda data: data.replace(b'"events":[', b'"events": [', 1)),
        ("an unknown key", lambda data: data.replace(b'"events":[{', b'"events":[{"x":1,', 1)),
        (
            "a duplicate key",
            lambda data: data.replace(
                b'{"type":"game_started"', b'{"type":"game_started","type":"game_started"', 1
            ),
        ),
        ("an escape", lambda data: data.replace(b'"type":"battle"', b'"type":"b\\u0061ttle"', 1)),
        ("a reformatted header", lambda data: data.replace(b'{"format":', b'{"format": ', 1)),
    ],
)
def test_an_export_is_checked_byte_for_byte(
    risk: Run, game: str, tmp_path: Path, how: str, change: Callable[[bytes], bytes]
) -> None:
    """ENG-01: an export passes only as `risk export` wrote it, byte for byte — the same history
    written otherwise (line ends, spaces, escapes, keys read differently by other readers) is
    refused by `import` (`bad_export`, naming the line; no store is left behind) and fails the
    `form` check of `audit --file`, even with its digest made again."""
    path = tmp_path / "g.jsonl"
    risk("export", game, "-o", str(path))
    header, _, body = change(path.read_bytes()).partition(b"\n")
    fields = json.loads(header)
    fields["digest"] = "sha256:" + hashlib.sha256(body).hexdigest()
    sep = (", ", ": ") if how == "a reformatted header" else (",", ":")
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(json.dumps(fields, separators=sep).encode() + b"\n" + body)
    report = json.loads(risk("audit", "--file", str(edited), "--json", code=1).stdout)
    form = next(c for c in report["checks"] if c["name"] == "form")
    assert (
        not report["ok"]
        and not form["ok"]
        and "is not as `risk export` writes it" in form["detail"]
    )
    assert next(c for c in report["checks"] if c["name"] == "digest")["ok"]
    line = 1 if how == "a reformatted header" else 2 if how == "CRLF line ends" else None
    refused = error(risk, "import", str(edited), "--id", "copy")
    assert "[bad_export]" in refused and "is not as `risk export` writes it" in refused
    if line is not None:
        assert f"line {line} is not" in refused
    assert error(risk, "show", "copy").endswith("[unknown_game]\n")
    new_store = tmp_path / "made" / "for" / "new.db"  # its folders made too, then removed
    result = CliRunner().invoke(
        cli, ["--create", "--store", f"sqlite:///{new_store}", "import", str(edited)]
    )
    assert result.exit_code == 1 and "[bad_export]" in result.stderr
    assert not (tmp_path / "made").exists()
    ok = json.loads(risk("audit", "--file", str(path), "--json").stdout)
    assert ok["ok"] and next(c for c in ok["checks"] if c["name"] == "form")["ok"]


def test_an_audit_counts_the_events_applied_as_given_apart(risk: Run, game: str) -> None:
    """ENG-01: a branch's audit says how many events were re-executed byte for byte and how
    many its branch point gave (applied as given, listed apart)."""
    branch = out(risk, "branch", game, "--at", "40", "--dice", "reseed")["game_id"]
    text = risk("audit", branch).stdout
    assert "40 of 42 events reproduced byte for byte, 2 applied as given (below)" in text
    report = out(risk, "audit", branch)
    assert report["given_events"] == 2 and report["verified"] == report["events"] == 42


def test_bytes_that_are_not_utf8_are_a_bad_export(risk: Run, game: str, tmp_path: Path) -> None:
    """An export with bytes that are not UTF-8 in a record or in its header: `import` and
    `audit --file` say `bad_export` (no traceback), and nothing is stored."""
    path = tmp_path / "g.jsonl"
    risk("export", game, "-o", str(path))
    header, _, body = path.read_bytes().partition(b"\n")
    before = out(risk, "games")
    for name, data in (
        ("record", header + b"\n" + body.replace(b'"Ann"', b'"\xff\xfenn"', 1)),
        ("header", header.replace(b'"', b'"\xff', 1) + b"\n" + body),
    ):
        bad = tmp_path / f"bad-{name}.jsonl"
        bad.write_bytes(data)
        for args in (("import", str(bad), "--id", "new"), ("audit", "--file", str(bad))):
            said = error(risk, *args)
            assert "[bad_export]" in said and "Traceback" not in said, (name, args, said)
    assert out(risk, "games") == before


@pytest.mark.parametrize("rules", ["napoleon-advanced", "classic"])
def test_a_branch_at_a_turn_keeps_the_command_that_began_it(risk: Run, rules: str) -> None:
    """`branch --turn T` starts after the whole command that began turn T: in the advanced
    Napoléon that command scores the turn's victory points after `turn_started`, which a cut
    right after that event used to drop (the parent's later commands then stopped replaying).
    The same dice then replay every later command of the parent."""
    game = out(risk, "demo", "--rules", rules, "--seed", "3", "--players", "3")["game_id"]
    made = out(risk, "branch", game, "--turn", "3", "--replay-commands")
    assert made["cut"] == 0
    replay = made["replay"]
    assert replay["stopped_at"] is None and replay["applied"] == replay["commands"]


def test_writing_into_a_folder_that_does_not_exist_is_a_usage_error(
    risk: Run, game: str, tmp_path: Path
) -> None:
    """`export`, `map` and `view --export` with `-o` in a missing folder: a usage error naming
    the folder (status 2), where writing used to end in a traceback."""
    missing = tmp_path / "nowhere"
    for args in (
        ("export", game, "-o", str(missing / "g.jsonl")),
        ("map", game, "-o", str(missing / "m.svg")),
        ("view", game, "--export", "-o", str(missing / "p.html")),
    ):
        said = error(risk, *args, code=2)
        assert f"there is no folder '{missing}'" in said and "Traceback" not in said, args
    assert not missing.exists()


def test_a_branch_imported_beside_another_game_of_its_parents_name_is_refused(
    risk: Run, game: str, tmp_path: Path
) -> None:
    """ENG-01: importing a branch's export audits its copied events against the parent in
    the store: an unrelated game of the parent's name refuses the import (`bad_export`,
    nothing stored) where the branch used to be hung on it, and so does one with fewer events
    than the branch copies, or storing the branch under its parent's name; without a game of
    that name the import is `parent_missing` (below); beside its true parent it checks out."""
    risk("branch", game, "--at", "100", "--id", "b1")
    branch_file, other_file = tmp_path / "b1.jsonl", tmp_path / "other.jsonl"
    risk("export", "b1", "-o", str(branch_file))
    other = out(risk, "demo", "--seed", "9", "--players", "3")["game_id"]
    risk("export", other, "-o", str(other_file))
    elsewhere = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    risk("--store", elsewhere, "import", str(other_file), "--id", game)  # the parent's name
    said = error(risk, "--store", elsewhere, "import", str(branch_file))
    assert "[bad_export]" in said and "parent" in said
    assert [g["game_id"] for g in out(risk, "--store", elsewhere, "games")] == [game]
    # A game of that name with the parent's opening but fewer events than the branch copies
    # is no parent either (a game never loses events).
    short = f"sqlite:///{tmp_path / 'short.db'}"
    risk("--store", short, "new", "--players", "Ann,Bob,Cy", "--seed", "3", "--id", game)
    said = error(risk, "--store", short, "import", str(branch_file))
    assert "[bad_export]" in said and "fewer than the 100 the branch copies" in said
    # Nor may the branch take its parent's name: it would be stored as its own ancestor.
    alone = f"sqlite:///{tmp_path / 'alone.db'}"
    said = error(risk, "--store", alone, "import", str(branch_file), "--id", game)
    assert "[bad_export]" in said and "under the name of a game it branches from" in said
    twin = f"sqlite:///{tmp_path / 'twin.db'}"
    risk("export", game, "-o", str(tmp_path / "parent.jsonl"))
    risk("--store", twin, "import", str(tmp_path / "parent.jsonl"))
    assert out(risk, "--store", twin, "import", str(branch_file))["game_id"] == "b1"


def test_a_branch_is_imported_after_its_parent(risk: Run, game: str, tmp_path: Path) -> None:
    """ENG-01: a branch's export imported into a store without its parent is refused
    (`parent_missing`, naming the parent; nothing stored, not even a store --create started),
    where it used to be stored alone and fail its audit once another game took the parent's
    name.  After the parent it is imported and audited against it; a branch of that branch
    needs only its own parent, and is checked against each game it descends from."""
    risk("branch", game, "--at", "100", "--id", "b1", "--dice", "reseed", "--seed", "4")
    risk("bot", "b1", "--all")
    risk("branch", "b1", "--at", "150", "--id", "b2")
    files = {}
    for gid in (game, "b1", "b2"):
        files[gid] = str(tmp_path / f"{gid}.jsonl")
        risk("export", gid, "-o", files[gid])
    fresh = tmp_path / "fresh.db"
    store = f"sqlite:///{fresh}"
    said = error(risk, "--store", store, "import", files["b1"])
    assert "[parent_missing]" in said and f"branch of game '{game}'" in said
    assert f"import {game}'s export first" in said and not fresh.exists()
    for gid, parent in (("b1", game), ("b2", "b1")):
        said = json.loads(error(risk, "--store", store, "import", files[gid], "--json"))
        assert said["error"]["code"] == "parent_missing", gid
        assert f"'{parent}'" in said["error"]["message"], gid
        risk("--store", store, "import", files[parent])
    assert out(risk, "--store", store, "import", files["b2"])["game_id"] == "b2"
    report = out(risk, "--store", store, "audit", "b2")
    parents = [c["detail"] for c in report["checks"] if c["name"] == "parent"]
    assert parents == [
        f"the first 100 events are {game}'s",
        "the first 150 events are b1's",
    ]
    # The parent's name is now taken: no other game can be stored under it.
    said = error(risk, "--store", store, "new", "--players", "A,B,C", "--id", game)
    assert "[game_exists]" in said
