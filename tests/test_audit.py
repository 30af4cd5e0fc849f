"""Audits, exports and imports (``risk_service.audit``, ``risk_service.exchange``).

A game of every registered rule set is exported once.  Untouched exports pass the audit; each
alteration a forger might try (one die face, one card, one army count, the seed, the
commitment, the revealed seeds) makes the audit fail naming the altered event's version, with
the digest left as it was or recomputed to match, and makes ``import`` refuse the file without
writing anything (ENG-01: the same seed and commands give the same bytes).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest
from test_history import RULESETS, record

import risk_core as rc
from risk_core import bots
from risk_service import GameService, history, versions
from risk_service.audit import audit, audit_game
from risk_service.exchange import audit_export, export_game, import_game, read_export
from risk_service.store import GameRecord

Tamper = Callable[[dict[str, Any], list[dict[str, Any]]], int]  # → the altered version


class Exported(NamedTuple):
    ruleset: str
    game_id: str
    data: bytes
    finished: bool


@pytest.fixture(scope="module")
def memory() -> Iterator[GameService]:
    with GameService("memory://") as service:
        service.create_schema()
        yield service


@pytest.fixture(scope="module", params=RULESETS)
def exported(request: pytest.FixtureRequest, memory: GameService) -> Exported:
    game_id = f"audit-{request.param}"
    record(memory, request.param, game_id, seed=11)
    finished = memory.state(game_id).phase == "over"
    return Exported(request.param, game_id, export_game(memory, game_id), finished)


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[tuple[GameService, Path]]:
    path = tmp_path / "games.db"
    with GameService(f"sqlite://{path}") as service:
        service.create_schema()
        yield service, path


# --------------------------------------------------------------------------- file surgery
def parse(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    first, *rest = data.decode().splitlines()
    return json.loads(first), [json.loads(line) for line in rest]


def build(header: dict[str, Any], records: list[dict[str, Any]], *, fix_digest: bool) -> bytes:
    """An export of ``header`` and ``records`` written as the export writes JSON (compact,
    keys in order, characters as they are)."""
    body = b"".join(msgspec.json.encode(r) + b"\n" for r in records)
    if fix_digest:
        header = {**header, "digest": "sha256:" + hashlib.sha256(body).hexdigest()}
    return msgspec.json.encode(header) + b"\n" + body


def events_with_versions(records: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    version = 0
    for r in records:
        for ev in r["events"]:
            version += 1
            yield version, ev


def first_of(records: list[dict[str, Any]], kind: str) -> tuple[int, dict[str, Any]]:
    return next((v, ev) for v, ev in events_with_versions(records) if ev["type"] == kind)


def die_face(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    version, ev = first_of(records, "battle")
    ev["attack"][0] = 1 if ev["attack"][0] != 1 else 2
    return version


def card(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    version, ev = first_of(records, "card_drawn")
    ev["card"] = ev["card"] + 1 if ev["card"] < 40 else 0
    return version


def army_count(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    version, ev = first_of(records, "placed")
    ev["count"] += 1
    return version


def seed(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    records[0]["events"][0]["seed"] += 1
    return 1


def commitment(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    started = records[0]["events"][0]
    started["commitment"] = started["commitment"][:-1] + (
        "0" if started["commitment"][-1] != "0" else "1"
    )
    return 1


def revealed_seed(header: dict[str, Any], records: list[dict[str, Any]]) -> int:
    version, ev = first_of(records, "seed_revealed")
    ev["seeds"][0] += 1
    return version


TAMPERS: list[Tamper] = [die_face, card, army_count, seed, commitment, revealed_seed]


# --------------------------------------------------------------------------- audits
def test_untouched_exports_pass(exported: Exported, memory: GameService) -> None:
    """ENG-01: every recorded command, decided again from the seed, gives the recorded bytes."""
    report = audit_export(exported.data)
    assert report.ok, report.divergence
    assert report.verified == report.events == read_export(exported.data).header.events
    assert [c.name for c in report.checks][:3] == ["digest", "rules", "commitment"]
    form = next(c for c in report.checks if c.name == "form")  # byte for byte the export's
    assert form.ok and form.detail == "every line as `risk export` writes it"
    assert report.seed_source == ("revealed" if exported.finished else "stored")
    assert audit_game(memory, exported.game_id).ok


@pytest.mark.parametrize("fix_digest", [False, True], ids=["digest-kept", "digest-recomputed"])
@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda t: t.__name__)
def test_altered_exports_fail_naming_the_event(
    exported: Exported,
    tamper: Tamper,
    fix_digest: bool,
    sqlite_store: tuple[GameService, Path],
) -> None:
    header, records = parse(exported.data)
    try:
        version = tamper(header, records)
    except StopIteration:
        pytest.skip(f"this {exported.ruleset} game has no such event")
    if tamper is revealed_seed and not exported.finished:
        pytest.skip("an unfinished game reveals nothing")
    data = build(header, records, fix_digest=fix_digest)
    report = audit_export(data)
    assert not report.ok
    assert report.divergence is not None, report.checks
    assert report.divergence.version == version, report.divergence
    digest = next(c for c in report.checks if c.name == "digest")
    assert digest.ok is fix_digest
    # ... and such a file is never imported: nothing is written.
    service, path = sqlite_store
    before = counts(service, path)
    with pytest.raises(rc.RiskError) as err:
        import_game(service, data)
    assert err.value.code == "bad_export"
    assert counts(service, path) == before


def test_divergence_context(memory: GameService, exported: Exported) -> None:
    """The first divergent event comes with its command and both versions of the event."""
    header, records = parse(exported.data)
    version = die_face(header, records)
    d = audit_export(build(header, records, fix_digest=True)).divergence
    assert d is not None and d.reason == "the event differs" and d.fields == ["attack"]
    assert d.command is not None and d.command["type"] in ("attack", "defend", "end", "place")
    assert d.expected is not None and d.recorded is not None
    assert d.expected["attack"] != d.recorded["attack"]
    assert d.recorded == next(ev for v, ev in events_with_versions(records) if v == version)


def test_an_illegal_recorded_command_is_named(memory: GameService) -> None:
    record(memory, "classic", "illegal", seed=12)
    header, records = parse(export_game(memory, "illegal"))
    i, r = next(
        (i, r) for i, r in enumerate(records) if r["command"] and r["command"]["type"] == "place"
    )
    r["command"]["territory"] = "atlantis"
    report = audit_export(build(header, records, fix_digest=True))
    d = report.divergence
    assert d is not None and d.record == i and "[unknown_territory]" in d.reason
    assert d.version == records[i - 1]["version"] + 1


def test_audits_of_branches(memory: GameService) -> None:
    """Branches (cut inside a command, reseeded, scripted) pass, with what was applied as
    given listed; a reseed whose commitment was altered fails at that event."""
    game = record(memory, "classic", "tree", seed=13)
    records = memory.records("tree")
    inside = next(r.version - 1 for r in records if len(r.events) > 2 and r.command is not None)
    cut = history.branch(memory, "tree", inside, game_id="tree-cut")
    assert cut.cut > 0
    report = audit_game(memory, "tree-cut")
    assert report.ok and any("cuts this record" in g for g in report.given)
    assert any(c.name == "parent" and c.ok for c in report.checks)

    at = len(game.events) // 2
    history.branch(memory, "tree", at, game_id="tree-r", dice="reseed")
    state = memory.state("tree-r")
    while state.phase != "over" and state.version < 3000:  # the branch plays on to its reveal
        rc.apply_in_place(state, memory.submit("tree-r", bots.choose(state, seed=2)))
    report = audit_game(memory, "tree-r")
    assert report.ok and report.seed_source == ("revealed" if state.phase == "over" else "stored")
    assert sum(1 for c in report.checks if c.name == "commitment") == 2

    header, recs = parse(export_game(memory, "tree-r"))
    version, ev = first_of(recs, "dice_reseeded")
    ev["commitment"] = "sha256:" + "0" * 64
    d = audit_export(build(header, recs, fix_digest=True)).divergence
    assert d is not None and d.version == version and "commitment" in d.reason
    header, recs = parse(export_game(memory, "tree-r"))
    version, ev = first_of(recs, "dice_reseeded")
    ev["seed"] += 1
    d = audit_export(build(header, recs, fix_digest=True)).divergence
    assert d is not None and d.version == version


def test_a_branch_file_named_as_a_game_it_descends_from_fails(tmp_path: Path) -> None:
    """ENG-01: a branch's events name its root, so its header's name is not compared with
    them; but it may not name a game the branch descends from.  A finished game's file with a
    branch point naming that game slipped in (and dice of the forger's choosing after it), or a
    branch's file renamed as its parent, passed ``audit --file`` as that game ("parent: … is
    not at hand").  So did a branch named after its root (a copy of the root imported under
    another id, branched under the root's name): the file is then a game other than the one its
    header names, and its import needs an --id (``game_id_mismatch``)."""
    with GameService("memory://") as service:
        service.create_schema()
        record(service, "classic", "root", seed=21)
        history.branch(service, "root", 80, game_id="b1")
        history.branch(service, "b1", 81, game_id="b2")
        for branch, name in (("b1", "root"), ("b2", "b1"), ("b2", "root")):
            header, recs = parse(export_game(service, branch))
            assert audit_export(build(header, recs, fix_digest=True)).ok
            report = audit_export(build({**header, "game_id": name}, recs, fix_digest=True))
            assert not report.ok and report.divergence is None, (branch, name)
            check = [c for c in report.checks if not c.ok]
            assert [c.name for c in check] == ["name"], (branch, name)
            assert "a game is not its own ancestor" in check[0].detail
        # A branch point slipped into the root's own file, which keeps its header.
        header, recs = parse(export_game(service, "root"))
        at = sum(len(r["events"]) for r in recs[:40])
        point = {
            "version": at + 1,
            "command": None,
            "events": [{"type": "branched", "parent": "root", "version": at}],
        }
        later = [{**r, "version": r["version"] + 1} for r in recs[40:]]
        forged = build(
            {**header, "events": header["events"] + 1}, [*recs[:40], point, *later], fix_digest=True
        )
        report = audit_export(forged)
        assert not report.ok and report.divergence is None  # every event reproduces
        assert [c.name for c in report.checks if not c.ok] == ["name"]
        # The root copied as "copy", then branched under the root's own name.
        import_game(service, export_game(service, "root"), game_id="copy")
        history.branch(service, "copy", 80, game_id="lone")
        header, recs = parse(export_game(service, "lone"))
        renamed = build({**header, "game_id": "root"}, recs, fix_digest=True)
        report = audit_export(renamed)
        assert [c.name for c in report.checks if not c.ok] == ["name"]
        assert "the game its opening names (its root)" in report.checks[-1].detail
        data = export_game(service, "root")
    with GameService(f"sqlite://{tmp_path / 'other.db'}") as other:
        other.create_schema()
        import_game(other, data, game_id="copy")  # the branch's parent, so the one pass runs
        with pytest.raises(rc.RiskError) as err:
            import_game(other, renamed)
        assert err.value.code == "game_id_mismatch"
        assert [g.game_id for g in other.games()] == ["copy"]
        assert import_game(other, renamed, game_id="lone").game_id == "lone"


def test_a_game_named_as_no_store_names_one_fails(tmp_path: Path) -> None:
    """ENG-01: every game is stored under an id of ASCII letters, digits, '.', '_' and '-',
    and its opening (and a branch's branch point) names it so.  A history renamed to a
    look-alike (a Cyrillic 'а' for a Latin 'a', its commitment made again) passed its audit
    under a name that reads as the real game's, and a branch point naming a look-alike of its
    parent passed as a branch of that parent ("not at hand"); both fail now, the name shown
    escaped, and neither file is imported."""
    look = "re\u0430l"  # reads as "real"
    with GameService("memory://") as service:
        service.create_schema()
        record(service, "classic", "real", seed=23)
        history.branch(service, "real", 60, game_id="b1")
        header, recs = parse(export_game(service, "real"))
        started = recs[0]["events"][0]
        started["game_id"], header["game_id"] = look, look
        started["commitment"] = rc.rng.seed_commitment(look, started["seed"])
        renamed = build(header, recs, fix_digest=True)
        header, recs = parse(export_game(service, "b1"))
        _, point = first_of(recs, "branched")
        point["parent"] = look
        parent = build(header, recs, fix_digest=True)
    for data, version, what in ((renamed, 1, "game_started"), (parent, 61, "branched")):
        report = audit_export(data)
        d = report.divergence
        assert not report.ok and d is not None and d.version == version, what
        assert d.reason.startswith(f"{what} names game 're\\u0430l', which no store can hold")
        with GameService(f"sqlite://{tmp_path / what}.db") as store:
            store.create_schema()
            with pytest.raises(rc.RiskError) as err:
                import_game(store, data, game_id="copy")
            assert err.value.code == "bad_export" and "re\\u0430l" in err.value.message
            assert store.games() == []


def test_scenario_games_are_audited_after_their_opening(tmp_path: Path) -> None:
    """A scenario's opening cannot be derived again: it is applied as given, and every
    command after it is re-executed."""
    from gamekit import position

    _, opening = position(
        phase="attack",
        dice=[6, 6, 6, 1],
        owners={"peru": 0, "brazil": 1},
        armies={"peru": 10, "brazil": 1},
    )
    with GameService("memory://") as service:
        service.create_schema()
        service.new_game("classic", ["Ann", "Bob", "Cy"], game_id="sc", opening=opening)
        service.submit("sc", rc.model.Attack(seat=0, origin="peru", target="brazil"))
        report = audit_game(service, "sc")
    assert report.ok and report.verified == report.events
    assert any("scenario" in g for g in report.given)
    commitment = next(c for c in report.checks if c.name == "commitment").detail
    assert commitment.startswith("none: the opening names no game (a scenario's position")
    seed = next(c for c in report.checks if c.name == "seed").detail
    assert seed.startswith("never revealed (no commitment)")  # even once the game is over
    assert report.given_events == len(opening)  # the whole opening, given


def test_an_opening_that_commits_to_a_seed_is_derived_never_given(tmp_path: Path) -> None:
    """ENG-01: a game whose opening commits to a seed is dealt, set up and rolled from that
    seed.  A forger who keeps a finished game's first event (its id, seed, commitment,
    players and options: the event an auditor compares with a trusted copy) and follows it
    with a position of his choosing (``position_set``) or die faces (``dice_scripted``), then
    plays on, fails the audit there, and the import stores nothing; both passed, as a
    scenario's opening, which commits to nothing, is given."""
    from gamekit import position

    with GameService("memory://") as real:
        real.create_schema()
        real.new_game("classic", ["Ann", "Bob", "Cy"], seed=5, game_id="real")
        started = real.events("real")[0]
    assert isinstance(started, rc.model.GameStarted) and started.commitment
    _, scenario = position(owners={"alaska": 0}, armies={"alaska": 60}, seed=started.seed)
    given_position = [started, *scenario[1:]]
    scripted = rc.start("classic", ["Ann", "Bob", "Cy"], seed=5, game_id="real", dice=[6] * 9)
    assert scripted[0] == started and isinstance(scripted[1], rc.model.DiceScripted)
    for forged, kind in ((given_position, "position_set"), (scripted, "dice_scripted")):
        with GameService("memory://") as forger:
            forger.create_schema()
            forger.new_game("classic", ["Ann", "Bob", "Cy"], game_id="real", opening=forged)
            state = forger.state("real")
            for _ in range(30):
                rc.apply_in_place(state, forger.submit("real", bots.choose(state, seed=1)))
            data = export_game(forger, "real")
            stored = audit_game(forger, "real")
        for report in (stored, audit_export(data)):
            d = report.divergence
            assert not report.ok and d is not None and d.version == 2, kind
            assert d.reason.startswith(f"a {kind} event in an opening that commits to a seed")
            failed = [c for c in report.checks if not c.ok]
            assert [c.name for c in failed] == ["commitment", "events"], kind
        with GameService(f"sqlite://{tmp_path / kind}.db") as store:
            store.create_schema()
            with pytest.raises(rc.RiskError) as err:
                import_game(store, data)
            assert err.value.code == "bad_export" and kind in err.value.message
            assert store.games() == []


def test_records_without_a_command_must_be_branch_points(memory: GameService) -> None:
    record(memory, "classic", "given", seed=14)
    records = memory.records("given")
    forged = GameRecord(
        version=records[5].version, command=None, events=records[5].events
    )  # a command's events, its command dropped
    report = audit([*records[:5], forged, *records[6:]], game_id="given")
    d = report.divergence
    assert d is not None and d.version == records[4].version + 1
    assert "without a command" in d.reason


# --------------------------------------------------------------------------- import
def counts(service: GameService, path: Path) -> tuple[Any, ...]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT count(*) FROM stored_events").fetchone()
        snaps = db.execute("SELECT count(*) FROM stored_snapshots").fetchone()
    finally:
        db.close()
    return (tuple(g.game_id for g in service.games()), rows, snaps)


def test_import_recreates_the_game(
    exported: Exported, memory: GameService, sqlite_store: tuple[GameService, Path]
) -> None:
    service, _ = sqlite_store
    imported = import_game(service, exported.data, game_id="copy")
    assert imported.game_id == "copy" and imported.events == len(memory.events(exported.game_id))
    assert service.records("copy") == memory.records(exported.game_id)
    assert rc.encode(service.state("copy")) == rc.encode(memory.state(exported.game_id))
    assert service.state("copy", at=150) == service.state("copy", at=150, snapshots=False)
    assert audit_game(service, "copy").ok  # the opening still names the game it was played as
    again = import_game(service, exported.data)  # under the id in the file
    assert again.game_id == exported.game_id
    with pytest.raises(rc.RiskError) as err:
        import_game(service, exported.data, game_id="copy")
    assert err.value.code == "game_exists"


def foreign_files(data: bytes) -> dict[str, bytes]:
    header, records = parse(data)
    lines = data.splitlines(keepends=True)
    shorter = records[:-1]
    announced = {**header, "events": header["events"] - len(records[-1]["events"])}
    other_rules = "classic" if header["ruleset"] != "classic" else "classic-conquest"
    return {
        "empty": b"",
        "text": b"hello\nworld\n",
        "json array": b"[1, 2, 3]\n",
        "other format": json.dumps({**header, "format": "chess-pgn"}).encode() + b"\n",
        "other version": build({**header, "version": 2}, records, fix_digest=True),
        "no records": build(header, [], fix_digest=True),
        "last line dropped": b"".join(lines[:-1]),
        "last line dropped, digest fixed": build(header, shorter, fix_digest=True),
        "cut mid-line": data[: len(data) - 17],
        "cut mid-line, digest fixed": build(header, records, fix_digest=True)[:-17],
        "header lies": build({**header, "ruleset": other_rules}, records, fix_digest=True),
        "garbage record": build(header, [*records[:-1], {"version": 1}], fix_digest=True),
        "unknown event": build(
            announced,
            [*shorter, {**records[-1], "events": [{"type": "teleport"}]}],
            fix_digest=True,
        ),
        "versions out of step": build(
            header, [{**records[0], "version": 1}, *records[1:]], fix_digest=True
        ),
    }


def test_import_refuses_truncated_and_foreign_files(
    exported: Exported, sqlite_store: tuple[GameService, Path]
) -> None:
    service, path = sqlite_store
    import_game(service, exported.data, game_id="before")  # a store with something in it
    before = counts(service, path)
    for name, data in foreign_files(exported.data).items():
        with pytest.raises(rc.RiskError) as err:
            import_game(service, data, game_id="new")
        assert err.value.code == "bad_export", (name, err.value.message)
        assert err.value.message.startswith("This file cannot be imported: "), name
    assert counts(service, path) == before


# --------------------------------------------------------------------------- versions
def test_other_engine_versions_are_refused_or_upcast(
    exported: Exported, sqlite_store: tuple[GameService, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded by another engine: refused (version_mismatch), unless an upcaster for that
    version is registered; then the game is audited and imported as this engine reads it."""
    service, path = sqlite_store
    assert versions.UPCASTERS == {}
    header, records = parse(exported.data)
    header["engine"] = records[0]["events"][0]["engine"] = "0.0.9"
    data = build(header, records, fix_digest=True)
    before = counts(service, path)
    for call in (lambda: audit_export(data), lambda: import_game(service, data)):
        with pytest.raises(rc.RiskError) as err:
            call()
        assert err.value.code == "version_mismatch" and "engine 0.0.9" in err.value.message
    assert counts(service, path) == before

    def upcast(recs: Any) -> list[GameRecord]:
        first = recs[0]
        started = msgspec.structs.replace(first.events[0], engine=rc.ENGINE_VERSION)
        return [msgspec.structs.replace(first, events=(started, *first.events[1:])), *recs[1:]]

    monkeypatch.setitem(versions.UPCASTERS, ("0.0.9", rc.ENGINE_VERSION), upcast)
    report = audit_export(data)
    assert report.ok and "upcast" in report.checks[1].detail
    imported = import_game(service, data, game_id="upcast")
    stored = service.events(imported.game_id, upto=1)[0]
    assert isinstance(stored, rc.model.GameStarted) and stored.engine == rc.ENGINE_VERSION


def test_other_board_data_is_refused(exported: Exported, monkeypatch: pytest.MonkeyPatch) -> None:
    header, records = parse(exported.data)
    header["board_hash"] = records[0]["events"][0]["board_hash"] = "sha256:" + "1" * 64
    monkeypatch.setitem(versions.UPCASTERS, ("0.0.9", rc.ENGINE_VERSION), lambda r: list(r))
    with pytest.raises(rc.RiskError) as err:
        audit_export(build(header, records, fix_digest=True))
    assert err.value.code == "version_mismatch" and "board" in err.value.message


# --------------------------------------------------------------------------- streaming, every store
@pytest.fixture(scope="module")
def streamed(memory: GameService) -> bytes:
    record(memory, "classic", "streamed", seed=15)
    return export_game(memory, "streamed")


def test_streamed_import_audit_and_export_on_every_store(
    store_url: str, memory: GameService, streamed: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7 on memory, SQLite and PostgreSQL: an import written in several batches
    (one transaction) gives back the game, its snapshots, its audit and its export byte for
    byte; a history whose last batch does not replay leaves nothing behind."""
    from risk_service import store

    monkeypatch.setattr(store, "WRITE_BATCH", 64)
    monkeypatch.setattr(store, "RECORD_PAGE", 50)
    records = memory.records("streamed")
    with GameService(store_url) as service:
        service.create_schema()
        imported = import_game(service, streamed)
        assert imported.records == len(records)
        assert service.records("streamed") == records
        assert service.state("streamed", at=250) == service.state(
            "streamed", at=250, snapshots=False
        )
        assert audit_game(service, "streamed").ok
        assert export_game(service, "streamed") == streamed

        nowhere = rc.model.ArmiesPlaced(seat=0, territory="atlantis", count=1)
        last = GameRecord(version=records[-1].version + 1, command=None, events=(nowhere,))
        with pytest.raises(rc.RiskError) as err:
            service.store_records("broken", [*records, last])
        assert err.value.code == "bad_history"
        assert [g.game_id for g in service.games()] == ["streamed"]
        with pytest.raises(rc.RiskError) as err:
            service.events("broken", upto=1)
        assert err.value.code == "unknown_game"
