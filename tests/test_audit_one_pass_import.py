"""Issue 14, goal 7: an import reads its file once, and refuses a bad file as it always did.

The usual import audits and writes a file in one pass, checking on the way what the file's own
check (``ExportReader.check``, a pass of its own before) finds.  Every file here, well formed
or not, is imported that way and with the check first (``_import_in_one_pass`` turned off):
the two give the same error, code and message, with nothing written, or store the same
history.  The bad files carry a digest made for their bytes, so that each reaches the check it
is about.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

import risk_core as rc
from risk_service import GameService, exchange
from risk_service.exchange import import_game
from risk_service.store import GameRecord
from tests.historykit import played_records


def _game(events: int = 400, seed: int = 3) -> list[bytes]:
    return [rc.encode(record) for record in played_records("one", events, seed)]


LINES = _game()


def _file(lines: list[bytes], *, end: bytes = b"\n", **header: object) -> bytes:
    """An export of ``lines`` whose digest is that of its body, ``header`` overriding fields."""
    good = exchange.read_header(_good())
    fields = {**json.loads(rc.encode(good)), "digest": None, **header}
    body = b"\n".join(lines) + end
    fields["digest"] = fields["digest"] or "sha256:" + hashlib.sha256(body).hexdigest()
    return json.dumps(fields, separators=(",", ":")).encode() + b"\n" + body


def _good() -> bytes:
    import io

    out = io.BytesIO()
    exchange.write_export("one", (_record(line) for line in LINES), out)
    return out.getvalue()


def _record(line: bytes) -> GameRecord:
    import msgspec

    return msgspec.json.decode(line, type=GameRecord)


def _changed(k: int, old: bytes, new: bytes) -> list[bytes]:
    """The lines, ``old`` replaced by ``new`` once in line ``k``."""
    assert old in LINES[k], (k, old)
    return [*LINES[:k], LINES[k].replace(old, new, 1), *LINES[k + 1 :]]


def _attack_line() -> int:
    return next(k for k, line in enumerate(LINES) if b'"events":[{"type":"battle"' in line)


def _with_version(k: int, version: int) -> list[bytes]:
    record = _record(LINES[k])
    changed = GameRecord(version=version, command=record.command, events=record.events)
    return [*LINES[:k], rc.encode(changed), *LINES[k + 1 :]]


def _events_of(k: int) -> int:
    return len(_record(LINES[k]).events)


K = _attack_line()  # a record of one battle event
TOTAL = _record(LINES[-1]).version


def _inserted(line: bytes) -> list[bytes]:
    return [*LINES[:K], line, *LINES[K:]]


def _empty(with_command: bool) -> bytes:
    command = _record(LINES[K]).command if with_command else None
    before = _record(LINES[K - 1]).version
    return rc.encode(GameRecord(version=before, command=command, events=()))


def _one_more() -> list[bytes]:
    extra = b"," + rc.encode(_record(LINES[K]).events[-1]) + b"]}"
    return [*LINES[:K], LINES[K].removesuffix(b"]}") + extra, *LINES[K + 1 :]]


CASES: dict[str, Callable[[], bytes]] = {
    "good": _good,
    # Not as the export writes it (ENG-01: checked byte for byte, so only its own bytes).
    "spaced events": lambda: _file(_changed(K, b'"events":[{', b'"events": [ {')),
    "a field unknown to the line": lambda: _file(_changed(K, b'"events":', b'"x":1,"events":')),
    "a duplicate key": lambda: _file(_changed(K, b'"events":[{', b'"events":[{"type":"battle",')),
    "an escaped character": lambda: _file(
        _changed(K, b'"type":"battle"', b'"type":"b\\u0061ttle"')
    ),
    "line ends CRLF": lambda: _file([line + b"\r" for line in LINES]),
    "a spaced header": lambda: _good().replace(b'{"format":', b'{"format": ', 1),
    "an empty line": lambda: _file(_inserted(b"")),
    "not JSON": lambda: _file([*LINES[:K], b"{nope", *LINES[K + 1 :]]),
    "an event of the wrong shape": lambda: _file(
        _changed(K, b'"attacker_losses":', b'"attacker_losses":"x","y":')
    ),
    "an event of no kind": lambda: _file(_changed(K, b'"type":"battle"', b'"type":"nothing"')),
    "an event that differs": lambda: _file(_changed(K, b'"rng":', b'"rng":1')),
    "a command's unknown field": lambda: _file(_changed(K, b'"command":{', b'"command":{"x":1,')),
    "a version off by one": lambda: _file(_with_version(K, _record(LINES[K]).version + 1)),
    "the opening's version off by one": lambda: _file(
        _with_version(0, _record(LINES[0]).version + 1)
    ),
    "the last version off by one": lambda: _file(_with_version(len(LINES) - 1, TOTAL - 1)),
    "a record without events": lambda: _file(_inserted(_empty(False))),
    "a record without events at the end": lambda: _file(
        [*LINES, rc.encode(GameRecord(version=TOTAL, command=None, events=()))]
    ),
    "a command's record without events": lambda: _file(_inserted(_empty(True))),
    "an event too many": lambda: _file(_one_more()),
    "events announced wrongly": lambda: _file(LINES, events=TOTAL + 1),
    "a header of another board": lambda: _file(LINES, board="elsewhere"),
    "no opening": lambda: _file(LINES[1:]),
    "no record": lambda: _file([], end=b""),
    "truncated": lambda: _file(LINES, end=b""),
    "a wrong digest": lambda: _file(LINES, digest="sha256:" + "0" * 64),
    "another game's name": lambda: _file(LINES, game_id="other"),
}


def _import(
    data: bytes,
    db: Path,
    one_pass: bool,
    monkeypatch: pytest.MonkeyPatch,
    game_id: str | None = None,
) -> tuple[object, ...]:
    with monkeypatch.context() as m:
        if not one_pass:
            m.setattr(exchange, "_import_in_one_pass", lambda *args: None)
        with GameService(f"sqlite://{db}") as service:
            service.create_schema()
            stored = len(service.games())
            try:
                done = import_game(service, data, game_id=game_id)
            except rc.RiskError as e:
                assert len(service.games()) == stored  # nothing written
                return ("refused", e.code, e.message)
            return (
                "imported",
                done.game_id,
                done.events,
                done.records,
                service.records(done.game_id),
            )


@pytest.mark.parametrize("case", CASES)
def test_one_pass_refuses_and_imports_as_the_check_first(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = CASES[case]()
    once = _import(data, tmp_path / "once.db", True, monkeypatch)
    checked_first = _import(data, tmp_path / "twice.db", False, monkeypatch)
    assert once == checked_first
    assert once[0] == ("imported" if case.startswith("good") else "refused"), once[:3]
    if case != "a wrong digest":  # each bad file reaches the check it is about
        assert "match the digest" not in str(once)
    if case in UNLIKE_EXPORT:
        assert once[1] == "bad_export" and "is not as `risk export` writes it" in str(once[2])


UNLIKE_EXPORT = [
    "spaced events",
    "a field unknown to the line",
    "a duplicate key",
    "an escaped character",
    "line ends CRLF",
    "a spaced header",
]


@pytest.mark.parametrize("game_id", ["copy", "bad id!"])
def test_an_import_under_another_id(
    game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _file(LINES, game_id="other")
    once = _import(data, tmp_path / "once.db", True, monkeypatch, game_id=game_id)
    assert once == _import(data, tmp_path / "twice.db", False, monkeypatch, game_id=game_id)


def test_an_import_of_a_game_stored_already(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "store.db"
    assert _import(_good(), db, True, monkeypatch)[0] == "imported"
    for one_pass in (True, False):
        assert _import(_good(), db, one_pass, monkeypatch)[:2] == ("refused", "game_exists")


def test_the_usual_import_reads_the_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check pass is not made: the file's lines are read by one pass."""
    passes = [0]
    lines = exchange.ExportReader._lines

    def counted(self: exchange.ExportReader, read: object) -> object:
        passes[0] += 1
        return lines(self, read)  # type: ignore[arg-type]

    monkeypatch.setattr(exchange.ExportReader, "_lines", counted)
    assert _import(_good(), tmp_path / "s.db", True, monkeypatch)[0] == "imported"
    assert passes[0] == 2  # the first record (read ahead of the write), then the one pass
