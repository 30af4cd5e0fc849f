"""Issue 14, goal 7 ("Long histories"): audit, export and import stream the history.

A long classic game is generated in memory (random legal commands, attacks preferred, as the
history benchmark plays).  The audit reads its records through a counting source: one pass
(a history that checks out), holding no more than the record under audit and the next one.
Audit, export and import of a short and of a four times longer game then peak at the same
memory (``tracemalloc``): what they hold does not grow with the history.  An import whose file
changes between its passes is refused, and the batches it had written are rolled back.
"""

from __future__ import annotations

import io
import sqlite3
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import msgspec
import pytest

import risk_core as rc
from risk_service import GameService, exchange, store
from risk_service.audit import audit, audit_game
from risk_service.exchange import audit_export, import_game, write_export, write_game
from risk_service.store import GameRecord
from tests.historykit import played_records

SHORT, LONG = 2_000, 8_000  # events


def long_game(events: int, seed: int = 1) -> list[bytes]:
    """A classic game of about ``events`` events, as the JSON lines of its records."""
    return [rc.encode(record) for record in played_records("long", events, seed)]


@pytest.fixture(scope="module")
def games() -> dict[int, list[bytes]]:
    return {n: long_game(n) for n in (SHORT, LONG)}


class CountingSource:
    """A ``RecordSource`` that decodes its records as they are asked for and counts passes,
    and how far the pass under way has read ahead of the events the audit has checked."""

    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.passes = 0
        self.read = 0  # events handed out by the latest pass
        self.checked = 0  # events the audit has reported checked
        self.most_ahead = 0  # in events
        self.biggest = 0  # the largest record, in events

    def __call__(self) -> Iterator[GameRecord]:
        self.passes += 1
        self.read = 0
        for line in self.lines:
            record = msgspec.json.decode(line, type=GameRecord)
            self.read += len(record.events)
            self.biggest = max(self.biggest, len(record.events))
            yield record

    def progress(self, n: int) -> None:
        self.checked += n
        self.most_ahead = max(self.most_ahead, self.read - self.checked)


def test_the_audit_reads_one_pass_holding_two_records(games: dict[int, list[bytes]]) -> None:
    """Issue 14 goal 7: a history that checks out is read once, re-executed holding the record
    under audit and the next (a branch point may cut it) — never the whole history; the
    report is the one an audit of the whole list gives."""
    lines = games[LONG]
    source = CountingSource(lines)
    report = audit(source, game_id="long", progress=source.progress)
    assert report.ok, report.divergence
    assert source.passes == 1
    assert source.checked == report.events >= LONG
    assert 0 < source.most_ahead <= 2 * source.biggest < 100
    whole = [msgspec.json.decode(line, type=GameRecord) for line in lines]
    assert msgspec.to_builtins(audit(whole, game_id="long")) == msgspec.to_builtins(report)


def _export(tmp: Path, lines: list[bytes], name: str) -> Path:
    path = tmp / f"{name}.jsonl"
    records = (msgspec.json.decode(line, type=GameRecord) for line in lines)
    with path.open("wb") as f:
        write_export("long", records, f)
    return path


def _with_file(path: Path, mode: str, use: Callable[[IO[bytes]], object]) -> object:
    with path.open(mode) as f:
        return use(f)  # type: ignore[arg-type]


def _peak(call: Callable[[], object]) -> int:
    """The most memory (bytes) ``call`` allocated at once, beyond what it returned with."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_history(
    games: dict[int, list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7: audit (of a file and of a stored game), export and import of a game four
    times as long peak at the same memory.  Held whole, 6,000 more events would add ~6 MB;
    pages, chunks and batches are made small so that both lengths fill them."""
    monkeypatch.setattr(exchange, "CHUNK", 1 << 16)
    monkeypatch.setattr(exchange, "SPOOL", 1 << 16)
    monkeypatch.setattr(store, "RECORD_PAGE", 500)
    monkeypatch.setattr(store, "WRITE_BATCH", 500)
    short, long = (_peaks(tmp_path, games[n], n) for n in (SHORT, LONG))
    for step in short:
        assert long[step] < short[step] + 600_000, (step, short[step], long[step])


def _peaks(tmp_path: Path, lines: list[bytes], n: int) -> dict[str, int]:
    path = _export(tmp_path, lines, f"g{n}")
    out = tmp_path / "out.jsonl"
    with GameService(f"sqlite://{tmp_path / f'g{n}.db'}") as service:
        service.create_schema()
        steps: dict[str, Callable[[], object]] = {
            "audit --file": lambda: _with_file(path, "rb", audit_export),
            "import": lambda: _with_file(path, "rb", lambda f: import_game(service, f)),
            "audit": lambda: audit_game(service, "long"),
            "export": lambda: _with_file(out, "wb", lambda f: write_game(service, "long", f)),
        }
        peaks = {step: _peak(call) for step, call in steps.items()}
        assert out.read_bytes() == path.read_bytes()
        report = audit_game(service, "long")
    assert report.ok and report.events >= n
    return peaks


@pytest.mark.parametrize("passes", [1, 2])
def test_an_import_whose_file_changes_between_passes_writes_nothing(
    games: dict[int, list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, passes: int
) -> None:
    """Issue 14 goal 7: the audit writes as it goes, in batches inside one transaction; a file
    changed while it is audited and written is refused (each pass hashes what it reads) and the
    batches already written are rolled back.  Read once (the usual import), the file then no
    longer matches its digest when it is checked again; checked first (``passes=2``: the way
    taken when the one pass declines), the pass after the check finds it changed."""
    if passes == 2:
        monkeypatch.setattr(exchange, "_import_in_one_pass", lambda *args: None)
    monkeypatch.setattr(store, "WRITE_BATCH", 200)
    monkeypatch.setattr(exchange, "CHUNK", 4096)  # the pass reads the file a little at a time
    flushed = [0]
    flush = store.HistoryWriter.flush

    def counted(self: store.HistoryWriter) -> None:
        flushed[0] += 1
        flush(self)

    monkeypatch.setattr(store.HistoryWriter, "flush", counted)
    path = _export(tmp_path, games[SHORT], "changing")
    data = path.read_bytes()
    at = data.index(b'"count":', len(data) // 2)  # a digit in the second half of the file
    digit = data[at + 8 : at + 9]
    changed = data[: at + 8] + (b"1" if digit != b"1" else b"2") + data[at + 9 :]
    total = exchange.ExportReader(data).header.events
    checked = [0]

    def progress(n: int) -> None:
        checked[0] += n
        if checked[0] >= total // 4 and path.read_bytes() == data:
            path.write_bytes(changed)  # while the audit writes: a batch is written already

    db = tmp_path / "target.db"
    with GameService(f"sqlite://{db}") as service:
        service.create_schema()
        with path.open("rb") as f, pytest.raises(rc.RiskError) as err:
            import_game(service, f, progress=progress)
        why = "changed while it was read" if passes == 2 else "do not match the digest"
        assert err.value.code == "bad_export" and why in err.value.message
        assert flushed[0] > 0  # the write had begun
        assert service.games() == []
    with sqlite3.connect(db) as conn:
        for table in ("stored_events", "stored_snapshots"):
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)


def test_a_stored_game_is_read_a_page_at_a_time(games: dict[int, list[bytes]]) -> None:
    """``GameService.iter_records`` gives the records ``records`` gives, whatever the page
    size (a page may end inside a record), and stops at ``upto``."""
    with GameService("memory://") as service:
        service.create_schema()
        import_game(service, _lines_export(games[SHORT]), game_id="g")
        whole = service.records("g")
        for page in (1, 7, 500, 100_000):
            assert list(service.iter_records("g", page=page)) == whole
        upto = whole[len(whole) // 2].version
        assert list(service.iter_records("g", upto=upto, page=7)) == whole[: len(whole) // 2 + 1]
        assert list(service.iter_events("g", 10, page=3)) == service.events("g", upto=10)
        for call in (lambda: service.iter_records("nope"), lambda: service.iter_events("g", 10**9)):
            with pytest.raises(rc.RiskError) as err:
                call()
            assert err.value.code in ("unknown_game", "bad_version")


def _lines_export(lines: list[bytes]) -> bytes:
    import io

    out = io.BytesIO()
    write_export("long", (msgspec.json.decode(line, type=GameRecord) for line in lines), out)
    return out.getvalue()


def test_an_audit_reads_the_history_the_game_had_when_it_began(
    games: dict[int, list[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7: a game played on while it is audited — its passes read pages, not one
    snapshot — is audited up to the version it had when the audit began."""
    from risk_core import bots

    monkeypatch.setattr(store, "RECORD_PAGE", 100)
    with GameService("memory://") as service:
        service.create_schema()
        import_game(service, _lines_export(games[SHORT]), game_id="live")
        version = service.state("live").version
        played: list[int] = []

        def progress(n: int) -> None:
            if not played:  # the first record is checked: another player moves meanwhile
                played.append(len(service.submit("live", bots.choose(service.state("live")))))

        report = audit_game(service, "live", progress=progress)
        assert played and service.state("live").version == version + played[0]
        assert report.ok and report.verified == report.events == version
        assert audit_game(service, "live").events == version + played[0]


def test_an_import_writes_the_rows_the_store_itself_would(
    games: dict[int, list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7: an import audits and writes in one pass, a command's rows put together
    from the event bytes the audit compared.  The rows and snapshots it stores are byte for
    byte those the store's own encoding gives (``store_records``, one event at a time through
    the mapper), a snapshot at every multiple of ``SNAPSHOT_INTERVAL`` even inside a record."""
    when = store.datetime_now_with_tzinfo()
    monkeypatch.setattr(store, "datetime_now_with_tzinfo", lambda: when)
    lines = games[SHORT]
    records = [msgspec.json.decode(line, type=GameRecord) for line in lines]
    tables: dict[str, list[tuple[object, ...]]] = {}
    for how in ("import", "store"):
        db = tmp_path / f"{how}.db"
        with GameService(f"sqlite://{db}") as service:
            service.create_schema()
            if how == "import":
                done = import_game(service, _lines_export(lines), game_id="g")
                assert (
                    done.state
                    == service.state("g")
                    == rc.replay([e for r in records for e in r.events])
                )
            else:
                service.store_records("g", records)
        with sqlite3.connect(db) as conn:
            for table in ("stored_events", "stored_snapshots"):
                query = f"SELECT originator_version, topic, state FROM {table} ORDER BY 1"
                tables[f"{how} {table}"] = conn.execute(query).fetchall()
    assert tables["import stored_events"] == tables["store stored_events"]
    assert tables["import stored_snapshots"] == tables["store stored_snapshots"]
    versions = [row[0] for row in tables["import stored_snapshots"]]
    total = sum(len(r.events) for r in records)
    assert versions == list(range(100, total + 1, 100))
    inside = (v for r in records for v in range(r.version - len(r.events) + 1, r.version))
    assert any(v % 100 == 0 for v in inside)  # a record spans a snapshot's version


def test_an_import_in_every_store_is_whole_or_nothing(
    games: dict[int, list[bytes]], store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 goal 7: on every kind of store an import written as it is audited stores the
    history and its snapshots; one whose audit fails after batches were written stores
    nothing and says what the audit found."""
    monkeypatch.setattr(store, "WRITE_BATCH", 200)
    lines = games[SHORT]
    events = [e for line in lines for e in msgspec.json.decode(line, type=GameRecord).events]
    bad = list(lines)
    k = next(i for i in range(len(bad) * 3 // 4, len(bad)) if b'"count":' in bad[i])
    at = bad[k].index(b'"count":') + 8  # an army count changed, the digest made again
    bad[k] = bad[k][:at] + (b"7" if bad[k][at : at + 1] != b"7" else b"8") + bad[k][at + 1 :]
    with GameService(store_url) as service:
        service.create_schema()
        with pytest.raises(rc.RiskError) as err:
            import_game(service, _lines_export(bad), game_id="bad")
        assert err.value.code == "bad_export" and "does not reproduce" in err.value.message
        assert service.games() == []
        done = import_game(service, _lines_export(lines), game_id="g")
        assert done.state == rc.replay(events) == service.state("g")
        assert [g.game_id for g in service.games()] == ["g"]
        assert service.state("g", at=1050) == rc.replay(events[:1050])  # from a snapshot


def test_a_long_line_is_read_in_time_that_grows_with_its_length(
    games: dict[int, list[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENG-01: a file is read a chunk at a time; a line longer than a chunk (a forger's
    padding) is gathered and joined once it ends, where every chunk was joined to all of the
    line before it: a line of 64 MiB took half a minute to audit, and reading time grew with
    the square of its length.  Here an 8 MiB line is read in chunks of 1 KiB (8192 of them,
    which took a quarter of a minute) and the audit names it (``form``)."""
    monkeypatch.setattr(exchange, "CHUNK", 1024)
    lines = games[SHORT]
    padded = lines[1][:-1] + b',"pad":"' + b"x" * (8 << 20) + b'"}'
    out = io.BytesIO()
    write_export("long", (msgspec.json.decode(x, type=GameRecord) for x in lines), out)
    header, _, body = out.getvalue().partition(b"\n")
    data = header + b"\n" + body.replace(lines[1], padded, 1)
    reader = exchange.ExportReader(data)
    began = time.perf_counter()
    reader.check(require_digest=False)
    assert time.perf_counter() - began < 3  # 0.1 s, where it took 17
    assert reader.unlike_export is not None and reader.unlike_export.startswith("line 3 ")
