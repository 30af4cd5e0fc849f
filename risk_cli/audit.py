"""``audit``, ``export`` and ``import``: checking a game's history and moving it between stores.

Thin commands over ``risk_service.audit`` and ``risk_service.exchange``.  An export holds the
whole history, seeds included, and an audit prints recorded events as they are: both are for
the owner of the store (or of the file).  Histories are streamed: a stored game is read a page
at a time, a file by passes over its lines (standard input is first copied to a temporary
file, as a pass cannot read it twice), and an export is written as it is read.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click
import msgspec

from risk_cli import render
from risk_cli.common import (
    App,
    GameArgument,
    OutputFile,
    echo_json,
    game_argument,
    json_option,
    pass_app,
)
from risk_cli.history import progress_bar, shown_progress
from risk_core import RiskError, load_board
from risk_core.views import view
from risk_service.audit import AuditReport, audit_game
from risk_service.exchange import (
    audit_export,
    auditing,
    import_game,
    read_header,
    write_game,
)

SPOOL = 8 << 20  # standard input larger than this is copied to a temporary file


@contextlib.contextmanager
def open_input(path: Path) -> Iterator[IO[bytes]]:
    """A file to read by passes; ``-`` is standard input, copied first (it reads only once)."""
    if str(path) != "-":
        with path.open("rb") as f:
            yield f
        return
    with tempfile.SpooledTemporaryFile(max_size=SPOOL) as copy:
        shutil.copyfileobj(sys.stdin.buffer, copy)
        copy.seek(0)
        # A SpooledTemporaryFile reads and seeks as a file (older stubs type it otherwise).
        yield copy  # type: ignore[misc,unused-ignore]


# --------------------------------------------------------------------------- audit
@click.command()
@click.argument("game_id", cls=GameArgument, metavar="[GAME]", required=False)
@click.option(
    "--file",
    "path",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path),
    help="Audit an export file (`risk export`) instead of a stored game; - reads standard input.",
)
@json_option
@pass_app
def audit(app: App, game_id: str | None, path: Path | None, as_json: bool) -> None:
    """Check a game: re-execute every command from the seed and compare every event.

    Every recorded event must come out again byte for byte, the seed must match the commitment
    published when the game started, and the rules and board must be the ones it was recorded
    with.  A finished game is checked with the seeds it revealed; an unfinished one with the
    seed in the store.  On a difference the first divergent event is shown with its command,
    and the exit status is 1 [audit_failed].  With --redis the service's export of a finished
    game is audited here, on this machine.
    """
    if (game_id is None) == (path is None):
        raise click.UsageError("Name a stored GAME or an export --file (one of them).")
    if path is not None:
        with open_input(path) as f, auditing(), progress_bar(read_header(f).events, "audit") as bar:
            report = audit_export(f, progress=shown_progress(bar))
    elif app.backend.remote:
        # The service's export (of a finished game only): audited here.
        data = app.backend.export(str(game_id))
        with auditing(), progress_bar(read_header(data).events, "audit") as bar:
            report = audit_export(data, progress=shown_progress(bar))
    elif game_id is not None:
        service = app.service
        with progress_bar(service.state(game_id).version, "audit") as bar:
            report = audit_game(service, game_id, progress=shown_progress(bar))
    if as_json:
        echo_json(msgspec.to_builtins(report))
    else:
        click.echo(audit_text(report, source=str(path) if path is not None else None))
    if not report.ok:
        d = report.divergence
        where = f"version {d.version}: {d.reason}" if d else _failed_checks(report)
        raise RiskError("audit_failed", f"Game {report.game_id} fails its audit ({where}).")


def audit_text(report: AuditReport, *, source: str | None) -> str:
    what = f"game {report.game_id}" + (f" from {source}" if source else "")
    verdict = "PASSED" if report.ok else "FAILED"
    lines = [
        f"Audit of {what} ({report.ruleset}, {render.plural(report.events, 'event')}, "
        f"{render.plural(report.commands, 'command')}): {verdict}"
    ]
    for c in report.checks:
        lines.append(f"  {'ok  ' if c.ok else 'FAIL'}  {c.name:<11} {c.detail}")
    if report.given:
        lines.append("Not re-executed (applied as recorded):")
        lines += [f"  {g}" for g in report.given]
    d = report.divergence
    if d is not None:
        place = "the opening" if d.record == 0 else f"record {d.record}"
        if source:  # the header is the file's first line, the opening its second
            place += f", line {d.record + 2} of the file"
        lines += [
            f"First divergence at version {d.version} (event {d.index + 1} of {place}):",
            f"  reason    {d.reason}",
            f"  command   {_compact(d.command)}",
            f"  expected  {_compact(d.expected)}",
            f"  recorded  {_compact(d.recorded)}",
        ]
        if d.fields:
            lines.append(f"  differs   {', '.join(d.fields)}")
    return "\n".join(lines)


def _compact(value: Any) -> str:
    return "-" if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _failed_checks(report: AuditReport) -> str:
    return "; ".join(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)


# --------------------------------------------------------------------------- export
@click.command()
@game_argument
@click.option(
    "-o",
    "--output",
    type=OutputFile(stdout=True),
    help="Write to this file (default, or -: standard output).",
)
@json_option
@pass_app
def export(app: App, game_id: str, output: Path | None, as_json: bool) -> None:
    """Write a game's whole history to one self-contained file (JSON Lines).

    A header line (format, engine, rules, options, board and its hash, event count, a SHA-256
    digest of the rest), then one line per command with its events.  The file holds
    everything, the dice seeds included, even for an unfinished game: it is for the owner of
    the store.  `risk import` and `risk audit --file` read it.  With -o, --json prints a
    summary of what was written.  With --redis only a finished game can be exported
    [game_not_over].
    """
    if app.backend.remote:
        data = app.backend.export(game_id)
        if output is None:
            click.echo(data, nl=False)  # bytes go to the binary stream as they are
            return
        with _atomic_output(output) as f:
            f.write(data)
        header = read_header(data)
        records = data.count(b"\n") - 1  # a line per record after the header
    elif output is None:
        write_game(app.service, game_id, sys.stdout.buffer)  # written as it is read
        sys.stdout.buffer.flush()
        return
    else:
        with _atomic_output(output) as f:
            written = write_game(app.service, game_id, f)
        header, records = written.header, written.records
    if as_json:
        echo_json({"game_id": game_id, "file": str(output), **msgspec.to_builtins(header)})
        return
    click.echo(
        f"Exported game {game_id} ({render.plural(header.events, 'event')}, "
        f"{render.plural(records, 'record')}) to {output}; "
        f"digest {header.digest}."
    )


@contextlib.contextmanager
def _atomic_output(path: Path) -> Iterator[IO[bytes]]:
    # A reader never sees half a file: write beside it, then rename over it.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- import
@click.command("import")
@click.argument(
    "path",
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path),
)
@click.option("--id", "new_id", metavar="ID", help="Store it under this id (default: the file's).")
@json_option
@pass_app
def import_(app: App, path: Path, new_id: str | None, as_json: bool) -> None:
    """Recreate a game from an export file, once all of it checks out.

    The header, the digest, every line and an audit of the whole history must pass; then the
    game is stored in one write.  Otherwise nothing is written and the error says why
    [bad_export] (or [version_mismatch] for other rules or board data).  A branch's export
    is imported after its parent's [parent_missing], and is checked against it.
    """
    with open_input(path) as f:
        total = read_header(f).events  # a foreign file is refused before a store is opened
        service = app.local_service("risk import")
        with progress_bar(total, "import") as bar:
            imported = import_game(service, f, game_id=new_id, progress=shown_progress(bar))
    v = view(imported.state, None)
    if as_json:
        echo_json(
            {
                "game_id": imported.game_id,
                "events": imported.events,
                "records": imported.records,
                "version": imported.state.version,
                "phase": v["phase"],
                "to_act": v["to_act"],
            }
        )
        return
    click.echo(
        f"Imported game {imported.game_id} ({render.plural(imported.events, 'event')}, "
        f"{render.plural(imported.records, 'record')}); its audit passed."
    )
    names = render.Names(load_board(imported.state.board), v["players"])
    click.echo(render.status_line(v, names))
