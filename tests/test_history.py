"""Time travel on stored games (``risk_service.history``): branches, lineage, diffs, luck.

A game of every registered rule set is recorded once through the service (bots play every
seat), then branched at a dense sample of versions: every branch must replay to exactly its
parent's state at the branch point, and a branch that keeps the parent's dice must give the
parent's events back when fed the parent's commands (ENG-01).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest

import risk_core as rc
from risk_core import Command, Event, bots
from risk_core.model import (
    BattleFought,
    Branched,
    DiceReseeded,
    DiceScripted,
    GameStarted,
    SeedRevealed,
)
from risk_core.rng import seed_commitment
from risk_core.views import view, visible_event
from risk_service import GameService, ServiceError, history, versions
from risk_service.audit import audit_game
from risk_service.luck import luck_report, odds
from risk_service.store import ROWS_PER_INSERT, GameRecord, HistoryWriter
from tests.conftest import OpenService

MAX_EVENTS = 1500  # long enough for most bot games to end; longer ones are cut here


class Recorded(NamedTuple):
    service: GameService
    game_id: str
    commands: list[Command]
    events: list[Event]


def players_for(ruleset: str) -> list[str]:
    info = next(r for r in rc.rulesets() if r.name == ruleset)
    n = min(max(3, info.min_players), info.max_players)
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n]


def record(service: GameService, ruleset: str, game_id: str, seed: int = 5) -> Recorded:
    """Bots play a game through the service, command by command."""
    service.new_game(ruleset, players_for(ruleset), seed=seed, game_id=game_id)
    state = service.state(game_id)
    commands = []
    while state.phase != "over" and state.version < MAX_EVENTS:
        command = bots.choose(state, seed=seed)
        rc.apply_in_place(state, service.submit(game_id, command))
        commands.append(command)
    return Recorded(service, game_id, commands, service.events(game_id))


RULESETS = [r.name for r in rc.rulesets()]


@pytest.fixture(scope="module")
def memory() -> Iterator[GameService]:
    with GameService("memory://") as service:
        service.create_schema()
        yield service


@pytest.fixture(scope="module", params=RULESETS)
def recorded(request: pytest.FixtureRequest, memory: GameService) -> Recorded:
    return record(memory, request.param, f"game-{request.param}")


def sample(n: int, opening: int) -> list[int]:
    """Every 7th version, every version of the opening record and around it, and the end."""
    dense = set(range(1, n + 1, 7)) | set(range(1, min(n, opening + 2) + 1))
    return sorted(dense | {n - 2, n - 1, n} - {0, -1})


def encode_state(service: GameService, game_id: str, at: int | None = None) -> bytes:
    return rc.encode(service.state(game_id, at=at))


# --------------------------------------------------------------------------- branches
def test_branch_at_dense_versions_replays_the_parent(recorded: Recorded) -> None:
    """ENG-01: a branch's history is the parent's first N events, their commands included, so
    its state at N is the parent's, byte for byte; then ``branched`` changes only the version."""
    service, parent, events = recorded.service, recorded.game_id, recorded.events
    n = len(events)
    opening = len(service.records(parent)[0].events)
    parent_records = service.records(parent)
    for at in sample(n, opening):
        made = history.branch(service, parent, at)
        child = made.game_id
        expected = encode_state(service, parent, at)
        assert encode_state(service, child, at) == expected, (parent, at)
        latest = service.state(child)
        assert latest.version == at + 1
        assert rc.encode(msgspec.structs.replace(latest, version=at)) == expected
        copied = service.events(child)
        assert rc.encode(copied[:at]) == rc.encode(events[:at])
        assert copied[at] == Branched(parent=parent, version=at)
        # Whole records keep their commands; a record cut by N keeps its command too.
        child_records = service.records(child)
        whole = [r for r in parent_records if r.version <= at]
        assert child_records[: len(whole)] == whole
        if made.cut:
            cut = child_records[len(whole)]
            original = parent_records[len(whole)]
            assert cut.command == original.command and cut.version == at
            assert cut.events == original.events[: len(cut.events)]
            assert len(cut.events) + made.cut == len(original.events)


def test_same_dice_reproduce_the_parents_events(recorded: Recorded) -> None:
    """ENG-01: with --dice same the seed stream goes on from the branch point, so the parent's
    later commands give the parent's later events, byte for byte (the reveal at the end too)."""
    service, parent = recorded.service, recorded.game_id
    records = service.records(parent)
    boundaries = [r.version for r in records]
    picks = {boundaries[0], boundaries[len(boundaries) // 3], boundaries[-2]}
    for at in sorted(picks):
        child = history.branch(service, parent, at).game_id
        done = sum(1 for r in records if r.version <= at) - 1  # commands before ``at``
        replayed: list[Event] = []
        for command in recorded.commands[done:]:
            replayed += service.submit(child, command)
        assert rc.encode(replayed) == rc.encode(recorded.events[at:]), (parent, at)


def test_branch_of_a_branch_and_the_lineage_tree(memory: GameService) -> None:
    game = record(memory, "classic", "family", seed=3)
    n = len(game.events)
    assert n > 300
    b1 = history.branch(memory, "family", 200, game_id="family-b1").game_id
    b2 = history.branch(memory, b1, 150, game_id="family-b2", dice="reseed").game_id
    b3 = history.branch(memory, b1, 201, game_id="family-b3").game_id
    b4 = history.branch(memory, "family", n, game_id="family-b4").game_id
    # A branch of a branch before its own branch point is the root's position.
    assert encode_state(memory, b2, 150) == encode_state(memory, "family", 150)
    assert encode_state(memory, b3, 200) == encode_state(memory, "family", 200)

    tree = history.lineage(memory, b2)
    assert tree.ancestors == ["family", b1]
    root = tree.tree
    assert (root.game_id, root.at, root.in_store) == ("family", None, True)
    assert [c.game_id for c in root.children] == [b1]  # the path only: b4 is a sibling
    assert [(c.game_id, c.at) for c in root.children[0].children] == [(b2, 150)]

    whole = history.lineage(memory, "family").tree
    assert [(c.game_id, c.at) for c in whole.children] == [(b1, 200), (b4, n)]
    assert [(c.game_id, c.at) for c in whole.children[0].children] == [(b2, 150), (b3, 201)]
    assert whole.children[0].version == 201 and whole.children[0].phase is not None


def test_reseed_and_script(memory: GameService) -> None:
    """A reseed publishes a commitment bound to the branch point; a script loads faces."""
    game = record(memory, "classic", "dice", seed=4)
    at = next(
        r.version for r in memory.records("dice") if r.command is not None and r.version > 150
    )
    made = history.branch(memory, "dice", at, dice="reseed", seed=99)
    *_, branched, reseeded = memory.events(made.game_id)
    assert isinstance(branched, Branched) and isinstance(reseeded, DiceReseeded)
    assert reseeded.seed == 99
    assert reseeded.commitment == made.commitment == seed_commitment(f"dice@{at}", 99)
    state = memory.state(made.game_id)
    assert (state.seed, state.previous_seeds, state.rng) == (99, [game.events[0].seed], 0)  # type: ignore[attr-defined]

    randomly = history.branch(memory, "dice", at, dice="reseed")
    assert memory.state(randomly.game_id).seed not in (99, state.previous_seeds[0])

    scripted = history.branch(memory, "dice", at, dice="script", faces=[6, 6, 6, 1, 1])
    assert memory.events(scripted.game_id)[-1] == DiceScripted(faces=(6, 6, 6, 1, 1))
    assert memory.state(scripted.game_id).dice_script == [6, 6, 6, 1, 1]
    assert memory.state(scripted.game_id).seed == memory.state("dice", at=at).seed
    for made in (randomly, scripted):
        assert audit_game(memory, made.game_id).ok


@pytest.mark.parametrize(
    ("text", "faces"),
    [("[6, 6, 1]", (6, 6, 1)), ("6 6\n1\t2 ", (6, 6, 1, 2)), ("  [ 3 ]", (3,))],
)
def test_parse_faces(text: str, faces: tuple[int, ...]) -> None:
    assert history.parse_faces(text) == faces


@pytest.mark.parametrize(
    "text", ["", "[]", "[0, 1]", "6 six", '{"faces": [1]}', "[1,", "[true]", "[1.5]"]
)
def test_bad_dice_scripts(text: str) -> None:
    with pytest.raises(rc.RiskError) as err:
        history.parse_faces(text)
    assert err.value.code == "bad_script"
    if text == "[true]":  # said as the file says it
        assert "not true." in err.value.message


def test_a_dice_script_takes_the_faces_of_the_games_dice(memory: GameService) -> None:
    """A branch's script (`--dice script`) may show any face the game's dice show: 7 is no
    classic die's, while a Clone Wars capital ship throws a d8 (CW-25); 9 is no one's."""
    classic = memory.new_game("classic", ["Ann", "Bob", "Cy"], seed=1, game_id="c6")
    with pytest.raises(rc.RiskError) as err:
        history.branch(memory, classic, 5, dice="script", faces=history.parse_faces("[6, 7]"))
    assert err.value.code == "bad_script" and "1 to 6 (classic's dice), not 7" in err.value.message
    cw = memory.new_game("clonewars", ["Rex", "Grievous"], seed=1, game_id="cw")
    made = history.branch(memory, cw, 5, dice="script", faces=history.parse_faces("[8, 1]"))
    assert memory.state(made.game_id).dice_script == [8, 1]
    with pytest.raises(rc.RiskError) as err:
        history.branch(memory, cw, 5, dice="script", faces=[9])
    assert "1 to 8 (clonewars's dice), not 9" in err.value.message


def test_branch_errors_write_nothing(store_url: str, open_service: OpenService) -> None:
    service = open_service(store_url)
    record(service, "classic", "p", seed=2)
    n = service.state("p").version
    before = [g.game_id for g in service.games()]
    for at, kwargs, code in [
        (0, {}, "bad_version"),
        (n + 1, {}, "bad_version"),
        (5, {"game_id": "p"}, "game_exists"),
        (5, {"game_id": "bad id"}, "bad_game_id"),
        (5, {"dice": "loaded"}, "bad_dice"),
        (5, {"seed": 3}, "bad_dice"),
        (5, {"dice": "script"}, "bad_script"),
        (5, {"dice": "script", "faces": [9]}, "bad_script"),
    ]:
        with pytest.raises(rc.RiskError) as err:
            history.branch(service, "p", at, **kwargs)
        assert err.value.code == code, (at, kwargs)
    with pytest.raises(ServiceError) as unknown:
        history.branch(service, "nope", 5)
    assert unknown.value.code == "unknown_game"
    assert [g.game_id for g in service.games()] == before
    assert service.state("p").version == n


def test_branch_is_one_atomic_write(store_url: str, open_service: OpenService) -> None:
    """A failure after the copy started (here: a clash on the branch record's own rows)
    leaves no trace of the branch: the copy and its record are one write."""
    service = open_service(store_url)
    record(service, "classic", "p", seed=2)
    rows = service._stored_rows  # the branch record's rows, doubled: a clash at the very end

    def doubled(*args: Any) -> Any:
        made = rows(*args)
        return [*made, *made]

    service._stored_rows = doubled  # type: ignore[method-assign]
    with pytest.raises(ServiceError) as err:
        service.copy_history("p", 120, [Branched(parent="p", version=120)], game_id="half")
    assert err.value.code == "game_exists"
    del service._stored_rows
    with pytest.raises(ServiceError) as gone:
        service.events("half")
    assert gone.value.code == "unknown_game"
    assert [g.game_id for g in service.games()] == ["p"]
    assert history.branch(service, "p", 120, game_id="half").game_id == "half"


def test_a_clash_in_a_written_history_undoes_all_of_it(
    store_url: str, open_service: OpenService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row clashing with one written before it, inside a many-row INSERT that follows
    others (SQLite: the transaction ends at once, ``OR ROLLBACK``, with no statement journal
    kept), undoes the whole write: nothing of it is stored, and the store goes on working."""
    service = open_service(store_url)
    record(service, "classic", "p", seed=2)
    records = service.records("p")
    clash = ROWS_PER_INSERT + ROWS_PER_INSERT // 2  # in the second many-row statement
    assert service.state("p").version > 2 * ROWS_PER_INSERT
    flush = HistoryWriter.flush

    def clashing(writer: HistoryWriter) -> None:
        rows = writer._rows
        if len(rows) > clash:
            writer._rows = [*rows[:clash], rows[clash - 10], *rows[clash:]]
        flush(writer)

    monkeypatch.setattr(HistoryWriter, "flush", clashing)
    with pytest.raises(ServiceError) as err:
        service.store_records("q", records)
    assert err.value.code == "game_exists"
    monkeypatch.undo()
    with pytest.raises(ServiceError) as gone:
        service.events("q")
    assert gone.value.code == "unknown_game"
    assert [g.game_id for g in service.games()] == ["p"]
    service.store_records("q", records)  # the same connection, its transaction ended cleanly
    assert service.records("q") == records


def test_branches_in_every_store(store_url: str, open_service: OpenService) -> None:
    """The same branch in memory, SQLite (copied inside the database) and PostgreSQL:
    the parent's state, its snapshots, and a listing with the branch."""
    service = open_service(store_url)
    game = record(service, "classic", "p", seed=2)
    n = len(game.events)
    for at in (1, 3, 99, 100, 101, 250, n):
        child = history.branch(service, "p", at, game_id=f"p-{at}").game_id
        assert encode_state(service, child, at) == encode_state(service, "p", at)
        assert service.state(child, at=at, snapshots=False) == service.state(child, at=at)
    assert {g.game_id for g in service.games()} >= {"p", "p-1", "p-250", f"p-{n}"}
    points = service.branch_points()
    assert {(p.game_id, p.parent, p.at) for p in points} >= {("p-250", "p", 250)}


def test_sqlite_branch_copies_rows_and_snapshots(tmp_path: Path) -> None:
    with GameService(f"sqlite://{tmp_path / 'g.db'}") as service:
        service.create_schema()
        record(service, "classic", "p", seed=2)
        history.branch(service, "p", 250, game_id="b")
    db = sqlite3.connect(tmp_path / "g.db")
    events = db.execute("SELECT count(*) FROM stored_events WHERE originator_id = 'b'").fetchone()
    snaps = db.execute(
        "SELECT originator_version FROM stored_snapshots WHERE originator_id = 'b'"
    ).fetchall()
    assert events == (251,) and sorted(v for (v,) in snaps) == [100, 200]


# --------------------------------------------------------------------------- replay
def test_timeline_and_version_pinning(
    store_url: str, open_service: OpenService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game recorded under another engine version is refused, never replayed silently;
    an upcaster registered for that version makes it readable."""
    service = open_service(store_url)
    opening = rc.start("classic", ["Ann", "Bob", "Cy"], seed=8, game_id="old")
    started = opening[0]
    assert isinstance(started, GameStarted)
    old = msgspec.structs.replace(started, engine="0.0.9")
    service.new_game("classic", ["Ann", "Bob", "Cy"], game_id="old", opening=[old, *opening[1:]])
    assert versions.mismatch(old) is not None
    for call in (
        lambda: history.timeline(service, "old"),
        lambda: history.branch(service, "old", 3),
        lambda: audit_game(service, "old"),
    ):
        with pytest.raises(rc.RiskError) as err:
            call()
        assert err.value.code == "version_mismatch"
        assert "engine 0.0.9" in err.value.message

    def upcast(records: Any) -> list[GameRecord]:
        first = records[0]
        fixed = (msgspec.structs.replace(first.events[0], engine=rc.ENGINE_VERSION),)
        return [msgspec.structs.replace(first, events=fixed + first.events[1:]), *records[1:]]

    monkeypatch.setitem(versions.UPCASTERS, ("0.0.9", rc.ENGINE_VERSION), upcast)
    line = history.timeline(service, "old", 4)
    assert line.state.version == 4 and len(line.events) == 4
    assert audit_game(service, "old").ok


def test_other_board_data_is_refused(store_url: str, open_service: OpenService) -> None:
    service = open_service(store_url)
    opening = rc.start("classic", ["Ann", "Bob", "Cy"], seed=8, game_id="moved")
    started = opening[0]
    assert isinstance(started, GameStarted)
    moved = msgspec.structs.replace(started, board_hash="sha256:" + "0" * 64)
    service.new_game(
        "classic", ["Ann", "Bob", "Cy"], game_id="moved", opening=[moved, *opening[1:]]
    )
    with pytest.raises(rc.RiskError) as err:
        history.timeline(service, "moved")
    assert err.value.code == "version_mismatch" and "board 'classic'" in err.value.message


def test_seeds_stay_hidden_until_revealed(memory: GameService) -> None:
    """ENG-07: no view shows a seed (the opening's or a branch's new one) before the reveal."""
    game = record(memory, "classic", "secret", seed=987_654_321_987)
    at = len(game.events) // 2
    made = history.branch(memory, "secret", at, dice="reseed", seed=1234567)
    events = memory.events(made.game_id)
    seeds = {game.events[0].seed, 1234567}  # type: ignore[attr-defined]
    for seat in (None, 0, 1, 2):
        shown = json.dumps([visible_event(ev, seat) for ev in events])
        state = json.dumps(view(memory.state(made.game_id), seat))
        for seed in seeds:
            assert str(seed) not in shown and str(seed) not in state
        assert '"seed"' not in shown
    # The finished parent reveals its seed: then it is public.
    revealed = game.events[-1]
    assert isinstance(revealed, SeedRevealed)
    assert visible_event(revealed, None)["seeds"] == [game.events[0].seed]  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- diff
def test_diff(memory: GameService) -> None:
    n = len(record(memory, "classic", "d", seed=7).events)
    at = n * 3 // 4
    made = history.branch(memory, "d", at, game_id="d-b")
    same = history.diff(memory, "d", "d-b", at_a=at)
    assert same.same and same.differences == [] and same.b == {"game_id": "d-b", "version": at + 1}
    other = history.diff(memory, "d", made.game_id, at_a=n // 2)
    kinds = {d.kind for d in other.differences}
    assert not other.same and "territory" in kinds
    fields = {(d.kind, d.field) for d in other.differences}
    assert ("player", "hand") not in fields  # a spectator compares hand sizes only (ENG-07)
    as_ann = history.diff(memory, "d", made.game_id, at_a=n // 2, seat=0)
    hands = [d for d in as_ann.differences if d.field == "hand"]
    assert all(d.key == "0" for d in hands)


# --------------------------------------------------------------------------- luck
def test_exact_dice_odds() -> None:
    """Every throw enumerated: the classic 3-against-2 figures (2275, 2611, 2890 of 7776)."""
    o = odds(3, 2)
    assert o.attacker_mean == pytest.approx((2 * 2275 + 2611) / 7776)
    assert o.defender_mean == pytest.approx((2 * 2890 + 2611) / 7776)
    assert odds(1, 1).attacker_mean == pytest.approx(21 / 36)  # ties go to the defender
    assert odds(1, 2).defender_mean == pytest.approx(1 - 161 / 216)
    for a in (1, 2, 3):
        for d in (1, 2):
            x = odds(a, d)
            assert x.attacker_mean + x.defender_mean == pytest.approx(min(a, d))
            assert x.attacker_variance == pytest.approx(x.defender_variance)


def test_luck_report(recorded: Recorded) -> None:
    report = luck_report(recorded.game_id, recorded.events)
    battles = [ev for ev in recorded.events if isinstance(ev, BattleFought)]
    assert report.battles + report.scripted == len(battles)
    assert sum(s.attacks for s in report.seats) == report.battles
    assert sum(s.defences for s in report.seats) == report.battles
    lost = sum(ev.attacker_losses + ev.defender_losses for ev in battles if not ev.scripted)
    assert sum(s.losses for s in report.seats) == lost
    # One side's luck is the other side's bad luck.
    assert sum(s.luck for s in report.seats) == pytest.approx(0, abs=1e-6)
    for s in report.seats:
        assert s.luck == pytest.approx(s.expected_losses - s.losses)
        assert (s.z is None) == (s.attacks + s.defences == 0)


def test_scripted_battles_are_left_out() -> None:
    """ENG-04 faces are chosen, not rolled: no luck in them."""
    from gamekit import position

    _, opening = position(
        phase="attack",
        dice=[6, 6, 6, 1],
        owners={"peru": 0, "brazil": 1},
        armies={"peru": 10, "brazil": 1},
    )
    state = rc.replay(opening)
    events = [*opening, *rc.decide(state, rc.model.Attack(seat=0, origin="peru", target="brazil"))]
    report = luck_report("s", events)
    assert (report.battles, report.scripted) == (0, 1)
    assert all(s.attacks == 0 for s in report.seats)
