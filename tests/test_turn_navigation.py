"""issue 18: turn-level navigation of a game's history, and branches lined up with their parents.

`--turn T` names the position at the start of turn T (right after its `turn_started` event)
in the commands that show a position (show, map, branch, diff, simulate, compare), turn T's
events in those that list events (log, replay), and the battles up to the end of turn T in
`stats`.
`replay --by turn` sums each turn up in one line; `replay --step` moves forward and back.
`diff --at N` compares a branch and its parent at the same point of play.

One seeded bot game (`risk demo`, a few hundred events) is made once for the module, in its own
SQLite store; each test makes the branches it needs under its own ids.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import termios
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from risk_cli.history import STEP_KEYS, Stepper, split_keys
from risk_core import RiskError
from risk_core.turns import (
    TurnStart,
    aligned_version,
    branch_records,
    find_turn,
    line_up,
    moves_upto,
    turn_at,
    turn_span,
)

Run = Callable[..., Result]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("turns")
    yield f"sqlite:///{folder / 'games.db'}", folder


@pytest.fixture(scope="module")
def risk(store: tuple[str, Path]) -> Run:
    """Run `risk --store <the module's store> ARGS…` and check the exit status."""
    from risk_cli.main import cli

    url, folder = store
    env = {"XDG_DATA_HOME": str(folder / "xdg")}
    env |= dict.fromkeys(("RISK_SEAT", "RISK_STORE", "RISK_REDIS_URL", "RISK_GAME"))
    runner = CliRunner()

    def run(*args: str, code: int = 0, input: str | None = None) -> Result:
        result = runner.invoke(cli, ["--create", "--store", url, *args], input=input, env=env)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    return run


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def error(risk: Run, *args: str, code: int = 1) -> str:
    result = risk(*args, code=code)
    assert result.stdout == ""
    return result.stderr


@pytest.fixture(scope="module")
def game(risk: Run) -> str:
    """A finished 3-player classic game: 15 turns, 377 events."""
    game_id: str = out(risk, "demo", "--seed", "3", "--players", "3")["game_id"]
    return game_id


def starts(risk: Run, game_id: str) -> dict[int, int]:
    """Turn → the version of its turn_started event, read from the log."""
    events = out(risk, "log", game_id)["events"]
    return {e["turn"]: v for v, e in enumerate(events, 1) if e["type"] == "turn_started"}


# --------------------------------------------------------------------------- --turn T
def test_turn_is_the_position_right_after_turn_started(risk: Run, game: str) -> None:
    """issue 18: --turn T is the position at the start of turn T: the version of its
    turn_started event; the seat to play has its income to place and has done nothing."""
    at = starts(risk, game)
    assert sorted(at) == list(range(1, 16))
    shown = out(risk, "show", game, "--turn", "5")
    assert shown == out(risk, "show", game, "--at", str(at[5]))
    assert shown["turn"] == 5 and shown["version"] == at[5]
    assert shown["phase"] == "reinforce" and shown["reserve"] > 0
    assert out(risk, "show", game, "--at", str(at[5] - 1))["turn"] == 4
    assert out(risk, "map", game, "--turn", "5")["version"] == at[5]
    as_ann = out(risk, "show", game, "--turn", "5", "--as", "Ann")
    assert as_ann == out(risk, "show", game, "--at", str(at[5]), "--as", "Ann")


def test_a_turn_the_game_does_not_have_is_no_such_turn(risk: Run, game: str) -> None:
    """issue 18: a turn that does not exist is `no_such_turn` in every command, and changes
    nothing (no branch is made)."""
    games = len(out(risk, "games"))
    for turn in ("0", "16", "-3"):
        for args in (
            ("show", game),
            ("map", game),
            ("log", game),
            ("replay", game),
            ("stats", game),
            ("branch", game),
            ("diff", game, game),
            ("simulate", game, "--runs", "2"),
        ):
            stderr = error(risk, *args, "--turn", turn)
            assert "[no_such_turn]" in stderr and "turns 1 to 15" in stderr, (args, stderr)
    assert len(out(risk, "games")) == games


def test_at_and_turn_together_are_a_usage_error(risk: Run, game: str) -> None:
    """issue 18: --turn replaces --at (or --from/--to): both at once is a usage mistake."""
    for args in (
        ("show", game, "--at", "10"),
        ("branch", game, "--at", "10"),
        ("replay", game, "--to", "200"),
        ("replay", game, "--from", "20"),
        ("stats", game, "--to", "200"),
        ("diff", game, game, "--at", "200"),
        ("diff", game, game, "--at-a", "200"),
    ):
        assert "--turn" in error(risk, *args, "--turn", "3", code=2), args
    assert "--turn TURN" in error(risk, "branch", game, code=2)


def test_log_and_replay_of_one_turn(risk: Run, game: str) -> None:
    """issue 18: in log and replay, --turn T lists turn T's events: from its turn_started to
    the event before the next turn's (the last turn: to the end)."""
    at = starts(risk, game)
    lines = risk("log", game, "--turn", "5").stdout.splitlines()
    assert [int(x.split()[0]) for x in lines] == list(range(at[5], at[6]))
    assert lines[0].split(maxsplit=1)[1].startswith("Turn 5 (round 2)")
    whole = risk("log", game).stdout.splitlines()
    assert lines == whole[at[5] - 1 : at[6] - 1]  # told the same way as in the whole log
    logged = out(risk, "log", game, "--turn", "5")
    assert (logged["from"], logged["version"], logged["turn"]) == (at[5], at[6] - 1, 5)
    replayed = out(risk, "replay", game, "--turn", "5")
    assert replayed["from"] == at[5] and replayed["version"] == at[6] - 1
    assert replayed["events"] == logged["events"]
    assert replayed["state"] == out(risk, "show", game, "--at", str(at[6] - 1))
    last = out(risk, "replay", game, "--turn", "15")
    assert last["version"] == len(out(risk, "log", game)["events"])  # to the end of the game


def test_stats_turn_counts_the_battles_to_the_end_of_the_turn(risk: Run, game: str) -> None:
    """issue 18: stats --turn T is the luck of the battles up to the end of turn T."""
    at = starts(risk, game)
    assert out(risk, "stats", game, "--turn", "6") == out(
        risk, "stats", game, "--to", str(at[7] - 1)
    )


def test_branch_at_a_turn(risk: Run, game: str) -> None:
    """issue 18: branch --turn T keeps the parent's events up to the start of turn T."""
    at = starts(risk, game)
    made = out(risk, "branch", game, "--turn", "7", "--id", "bt7")
    assert made["at"] == at[7] and made["version"] == at[7] + 1  # and its branched record
    assert made["cut"] == 0  # a turn starts between two commands
    assert out(risk, "show", "bt7", "--turn", "7") == {
        **out(risk, "show", game, "--turn", "7"),
        "game_id": "bt7",
    }


def test_simulate_and_compare_at_a_turn(risk: Run, game: str) -> None:
    """issue 18: simulate --turn T simulates the position at the start of turn T; compare
    --turn T both positions at the start of turn T."""
    at = starts(risk, game)
    report = out(risk, "simulate", game, "--turn", "10", "--runs", "2", "--seed", "1")
    assert report["at"] == at[10]
    assert "not both" in error(risk, "simulate", game, "--turn", "3", "--at", "9", code=2)
    risk("branch", game, "--turn", "10", "--id", "sim10", "--seed", "4")
    both = out(risk, "compare", game, "sim10", "--turn", "10", "--runs", "2", "--seed", "1")
    assert both["a"]["at"] == at[10] and both["b"]["at"] == at[10]
    assert "not both" in error(risk, "compare", game, game, "--turn", "3", "--at-b", "9", code=2)


# --------------------------------------------------------------------------- replay --by turn
def test_replay_by_turn_sums_each_turn_up(risk: Run, game: str) -> None:
    """issue 18: replay --by turn: one line per turn, with who took which territories from
    whom, each seat's territories and armies from the start to the end of the turn, the cards
    traded and eliminations; the figures agree with the positions and the events."""
    at = starts(risk, game)
    events = out(risk, "log", game)["events"]
    summaries = out(risk, "replay", game, "--by", "turn")["turns"]
    assert [s["turn"] for s in summaries] == list(range(1, 16))
    for s in summaries:
        own = events[s["first"] - 1 : s["last"]]
        start = out(risk, "show", game, "--turn", str(s["turn"]))
        end = out(risk, "show", game, "--at", str(s["last"]))
        assert s["first"] == at[s["turn"]] and s["seat"] == start["current_player"]
        conquered = {e["target"] for e in own if e["type"] == "conquered"}
        for t in s["transfers"]:
            assert t["territory"] in conquered
            assert start["territories"][t["territory"]]["owner"] == t["before"]
            assert end["territories"][t["territory"]]["owner"] == t["after"]
        for c in s["seats"]:
            p, q = start["players"][c["seat"]], end["players"][c["seat"]]
            assert c["territories"] == [p["territories"], q["territories"]]
            assert c["armies"] == [p["armies"], q["armies"]]
        traded = [e for e in own if e["type"] == "cards_traded"]
        assert [(t["seat"], t["value"]) for t in s["trades"]] == [
            (e["seat"], e["value"]) for e in traded
        ]
    assert summaries[-1]["winner"] == 0 and all(s["winner"] is None for s in summaries[:-1])
    assert any(s["trades"] for s in summaries)
    text = risk("replay", game, "--by", "turn").stdout.splitlines()
    assert len(text) == 15 + 2  # the turns, a blank line, the status
    assert text[0].startswith(f"Turn 1 (round 1, {at[1]}-{at[2] - 1}) Bob: Bob took ")
    assert " from Ann" in text[0] and "Ann 14→8 terr." in text[0]
    assert "Ann traded 3 cards for 12" in text[14] and "Ann won" in text[14]
    one = risk("replay", game, "--by", "turn", "--turn", "5").stdout.splitlines()
    assert one[0] == text[4] and len(one) == 3


def test_replay_by_turn_within_from_and_to(risk: Run, game: str) -> None:
    """issue 18: --by turn with --from/--to sums up the turns that begin in that range, the
    last one cut at --to."""
    at = starts(risk, game)
    cut = at[4] + 3
    summaries = out(risk, "replay", game, "--by", "turn", "--from", str(at[2]), "--to", str(cut))
    assert [s["turn"] for s in summaries["turns"]] == [2, 3, 4]
    assert summaries["turns"][-1]["last"] == cut and summaries["version"] == cut


# --------------------------------------------------------------------------- --step
def test_step_refuses_without_a_terminal(risk: Run, game: str) -> None:
    """issue 18: --step reads keys from a terminal; without one it is refused, clearly."""
    stderr = error(risk, "replay", game, "--step", "--to", "30")
    assert "[not_a_terminal]" in stderr and "terminal" in stderr
    assert "--json" in error(risk, "replay", game, "--step", "--json", code=2)


def turn_marks() -> list[TurnStart]:
    return [TurnStart(turn=t, round=1, seat=0, version=v) for t, v in ((1, 4), (2, 8), (3, 12))]


def test_stepper_moves_by_events_and_by_turns() -> None:
    """issue 18: --step's moves: next/previous event, next/previous turn start; it stays
    where it cannot go, and "next" past the last event ends the replay."""
    s = Stepper([f"event {v}" for v in range(1, 15)], 6, turn_marks())
    assert s.target("next") == 7 and s.target("previous") == 5
    assert s.target("next turn") == 8 and s.target("previous turn") == 4
    s.version = 8
    assert s.target("previous turn") == 4  # from a turn's start: the turn before
    s.version = 12
    assert s.target("next turn") == 12  # no turn further
    s.version = 2
    assert s.target("previous turn") == 2  # before the first turn
    s.version = 1
    assert s.target("previous") == 1
    s.version = 14
    assert s.target("next") is None


def test_stepper_follows_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """issue 18: the keys of --step: arrows and letters, b draws the board, q stops."""
    keys = iter(["n", "\x1b[D", "p", "t", "b", "T", "x", "]", "\r", "q"])
    s = Stepper([f"event {v}" for v in range(1, 15)], 6, turn_marks())
    assert not s.run(keys, lambda v: f"board at {v}")
    shown = [line.split(maxsplit=1)[0] for line in capsys.readouterr().out.splitlines()]
    assert shown == ["6", "7", "6", "5", "8", "board", "4", "8", "9"]
    ended = Stepper(["a", "b"], 1, [])
    keys = iter(["n", "n"])
    assert ended.run(keys, lambda v: "")  # next from the last: the end
    assert not Stepper(["a", "b"], 1, []).run(iter([]), lambda v: "")  # input closed: stop
    assert split_keys("n\x1b[Dp\x1b[A") == ["n", "\x1b[D", "p", "\x1b[A"]
    assert set(STEP_KEYS.values()) == {
        "next",
        "previous",
        "next turn",
        "previous turn",
        "board",
        "quit",
    }


def test_step_on_a_terminal(risk: Run, game: str, store: tuple[str, Path]) -> None:
    """issue 18: `risk replay --step` on a real terminal (a pseudo-terminal here): keys move
    forward, back and by turns, and the replay ends at the last event with the status."""
    url, folder = store
    at = starts(risk, game)
    primary, secondary = pty.openpty()
    tty.setraw(secondary)  # keys reach the program as typed, even before it asks for them
    env = {k: v for k, v in os.environ.items() if not k.startswith("RISK_")}
    env |= {"XDG_DATA_HOME": str(folder / "xdg"), "NO_COLOR": "1"}
    to = at[3] + 1
    proc = subprocess.Popen(
        [sys.executable, "-c", "from risk_cli.main import cli; cli()", "--store", url]
        + ["replay", game, "--step"]
        + ["--from", str(at[2] - 1), "--to", str(to)],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        cwd=ROOT,
    )
    seen = b""

    def press(key: bytes) -> None:
        """Type ``key`` once the program reads the terminal key by key (raw mode)."""
        end = time.monotonic() + 30
        while termios.tcgetattr(secondary)[3] & termios.ICANON and time.monotonic() < end:
            time.sleep(0.02)
        os.write(primary, key)

    def read_until(text: bytes, timeout: float = 30) -> None:
        nonlocal seen
        end = time.monotonic() + timeout
        while text not in seen and time.monotonic() < end:
            ready, _, _ = select.select([primary], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(primary, 4096)
                except OSError:
                    break

    try:
        for key in (b"n", b"p", b"t", b"T", b"t", b"t", b"n"):
            read_until(b"q stop]", 30)
            seen = seen.replace(b"q stop]", b"", 1)
            press(key)
        read_until(b"q stop]")
        press(b"n")  # from the last event: the end
        read_until(b"At version")
        read_until(b"\n", 5)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after: {seen.decode(errors='replace')}")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
        os.close(secondary)
    text = seen.decode(errors="replace")
    numbers = [
        int(line.split()[0])
        for line in text.replace("\r", "\n").splitlines()
        if line.strip() and line.split()[0].isdigit()
    ]
    first = at[2] - 1
    # n, p, t (turn 2), T (turn 1: before --from, where the replay began), t, t, n, n (the end)
    assert numbers == [first, at[2], first, at[2], at[1], at[2], at[3], at[3] + 1], text
    assert f"At version {to}: " in text and proc.returncode == 0


# --------------------------------------------------------------------------- diff
def test_diff_lines_a_branch_up_with_its_parent(risk: Run, game: str) -> None:
    """issue 18: diff --at N compares a branch at the same point of play as its parent's
    version N: past the branch point its versions are one more (the branched record), or two
    (and its dice record); comparing the same version numbers is off by one."""
    risk("branch", game, "--at", "150", "--id", "same", "--replay-commands")
    lined = out(risk, "diff", game, "same", "--at", "200")
    assert lined["same"] and lined["a"]["version"] == 200 and lined["b"]["version"] == 201
    assert not out(risk, "diff", game, "same", "--at-a", "200", "--at-b", "200")["same"]
    assert out(risk, "diff", game, "same", "--at", "120")["b"]["version"] == 120  # before it
    at_branch = out(risk, "diff", game, "same", "--at", "150")
    assert at_branch["same"] and at_branch["b"]["version"] == 151  # after its branched record
    # Lined up the other way: the branch's version 201 is the parent's 200.
    assert out(risk, "diff", "same", game, "--at", "201")["b"]["version"] == 200
    # A branch of the branch (between two commands: the start of a turn), with two records
    # of branches to leave out.
    made = out(risk, "branch", "same", "--turn", "10", "--id", "same2", "--replay-commands")
    assert made["cut"] == 0 and made["replay"]["stopped_at"] is None
    deep = out(risk, "diff", game, "same2", "--at", "300")
    assert deep["same"] and deep["b"]["version"] == 302
    assert out(risk, "diff", game, "same2")["same"]  # now and now: both at the end
    text = risk("diff", game, "same2", "--at", "300").stdout
    title = f"{game} (version 300) and same2 (version 302)"
    assert text == f"No difference between {title}.\n"
    # A reseeded branch adds two records; past its own last move there is no position.
    risk("branch", game, "--at", "100", "--id", "reseeded", "--seed", "5")
    assert out(risk, "diff", game, "reseeded", "--at", "100")["b"]["version"] == 102
    assert "[bad_version]" in error(risk, "diff", game, "reseeded", "--at", "101")


def test_diff_at_a_turn(risk: Run, game: str) -> None:
    """issue 18: diff A B --turn T compares both games at the start of turn T, each at its own
    turn_started: a branch made at turn T, against its parent, shows no difference."""
    at = starts(risk, game)
    risk("branch", game, "--turn", "6", "--id", "t6", "--seed", "9")
    same = out(risk, "diff", game, "t6", "--turn", "6")
    assert same["same"] and same["a"]["version"] == same["b"]["version"] == at[6]
    seat = str(out(risk, "show", "t6")["to_act"])
    risk("bot", "t6", "--as", seat)  # plays turn 6 out with the branch's own dice
    later = out(risk, "diff", game, "t6", "--turn", "7")
    assert later["a"]["version"] == at[7] and not later["same"]
    assert later["b"]["version"] == starts(risk, "t6")[7]
    assert "[no_such_turn]" in error(risk, "diff", game, "t6", "--turn", "12")


def test_service_functions_agree_with_the_commands(
    risk: Run, game: str, store: tuple[str, Path]
) -> None:
    """issue 18: risk_service.history's turn and line-up functions (used by other front ends)
    give the versions the commands use."""
    from risk_service import history
    from risk_service.store import GameService

    at = starts(risk, game)
    risk("branch", game, "--at", "150", "--id", "svc", "--seed", "3")
    service = GameService(store[0])
    try:
        assert history.turn_version(service, game, 5) == at[5]
        assert history.turn_versions(service, game, 5) == (at[5], at[6] - 1)
        assert [t.version for t in history.turns_of(service, game)] == sorted(at.values())
        assert history.lined_up(service, game, 150, "svc") == 152
        assert history.lined_up(service, "svc", 152, game) == 150
        assert history.diff(service, game, "svc", at=150).same
        assert history.diff(service, game, "svc", turn=3).same
        with pytest.raises(RiskError) as err:
            history.turn_version(service, game, 40)
        assert err.value.code == "no_such_turn"
    finally:
        service.close()


def test_a_scenario_counts_turns_from_its_own(risk: Run, store: tuple[str, Path]) -> None:
    """issue 18: a scenario's first turn has the scenario's number; the turns before it do not
    exist in that game, and the setup belongs to no turn."""
    from risk_core import load_board

    ids = [t.id for t in load_board("classic").territories]
    doc = {
        "ruleset": "classic",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 11,
        "turn": 4,
        "territories": {t: {"owner": i % 3, "armies": 3} for i, t in enumerate(ids)},
    }
    path = store[1] / "turn4.json"
    path.write_text(json.dumps(doc))
    risk("new", "--scenario", str(path), "--id", "sc4")
    shown = out(risk, "show", "sc4", "--turn", "4")
    assert shown["turn"] == 4 and shown["version"] == starts(risk, "sc4")[4]
    stderr = error(risk, "show", "sc4", "--turn", "1")
    assert "[no_such_turn]" in stderr and "has turn 4: there is no turn 1" in stderr


# --------------------------------------------------------------------------- the pure index
def test_turn_index() -> None:
    """issue 18: turns found by number (a scenario's first turn may be any), their spans, and
    the turn in progress at a version."""
    marks = [TurnStart(turn=t, round=2, seat=1, version=v) for t, v in ((5, 3), (6, 9))]
    assert find_turn(marks, 6).version == 9
    assert turn_span(marks, 5, 20) == (3, 8) and turn_span(marks, 6, 20) == (9, 20)
    assert turn_at(marks, 2) is None and turn_at(marks, 8) == marks[0]
    with pytest.raises(RiskError, match="has turns 5 to 6: there is no turn 1") as err:
        find_turn(marks, 1, "g")
    assert err.value.code == "no_such_turn"
    with pytest.raises(RiskError, match="has not begun its first turn"):
        find_turn([], 1, "g")


def test_moves_of_the_game_leave_branch_records_out() -> None:
    """issue 18: `branched` and the dice record right after it are a branch's records, not
    moves; a scenario's opening dice_scripted is a move (every copy has it)."""
    parent = ["game_started", "dice_scripted", "position_set", "turn_started", "placed", "battle"]
    branch = [*parent[:4], "branched", "dice_reseeded", "placed", "battle"]
    assert branch_records(parent) == [False] * 6
    assert branch_records(branch) == [False] * 4 + [True, True, False, False]
    assert moves_upto(branch, 6) == 4 and moves_upto(branch, 8) == 6
    assert line_up(parent, 4, branch) == 6  # after the branch's records
    assert line_up(parent, 6, branch) == 8 and line_up(branch, 8, parent) == 6
    assert aligned_version(branch, 3) == 3
    with pytest.raises(RiskError) as err:
        aligned_version(branch, 7, "b")
    assert err.value.code == "bad_version"


def test_no_such_turn_is_documented() -> None:
    """issue 18: the new error codes are in the README's list (also tests/test_error_codes)."""
    readme = (ROOT / "README.md").read_text()
    assert "`no_such_turn`" in readme and "`not_a_terminal`" in readme
