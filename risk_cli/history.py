"""Time travel: ``replay``, ``branch``, ``tree``, ``diff`` and the luck report ``stats``.

Thin commands over ``risk_service.history`` and ``risk_service.luck``, on the local store.
What they print goes through ``risk_core.views`` first: without ``--as`` nobody's cards,
mission or draws are shown (ENG-07).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import msgspec
from tqdm import tqdm  # type: ignore[import-untyped]  # no stubs shipped

from risk_cli import render
from risk_cli.common import (
    App,
    as_option,
    echo_json,
    game_argument,
    json_option,
    pass_app,
)
from risk_cli.games import Version, parse_seed, viewer_seats
from risk_core import RiskError, load_board
from risk_core.views import view
from risk_service import history

JsonDict = dict[str, Any]
LONG_GAME = 2000  # events: below this a progress bar would only flicker


def progress_bar(total: int, what: str) -> Any:
    """A progress bar on standard error, shown only on a terminal and for long games."""
    return tqdm(
        total=total,
        desc=what,
        unit=" events",
        file=sys.stderr,
        leave=False,
        disable=not sys.stderr.isatty() or total < LONG_GAME,
    )


# --------------------------------------------------------------------------- replay
@click.command()
@game_argument
@click.option(
    "--to",
    "upto",
    type=Version(1),
    metavar="VERSION",
    help="Stop after this version (default: the last); the state there is shown.",
)
@click.option(
    "--from",
    "start",
    type=Version(1),
    default=1,
    show_default=True,
    metavar="VERSION",
    help="First version to print (the events before it are applied silently).",
)
@click.option(
    "--step",
    is_flag=True,
    help="On a terminal, wait for Enter after each event (b: the board, q: stop).",
)
@as_option("Replay as this seat: its own cards, draws and mission are shown.")
@json_option
@pass_app
def replay(
    app: App,
    game_id: str,
    upto: int | None,
    start: int,
    step: bool,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Replay a game event by event, up to any version.

    One line per event (who attacked what with which dice, losses, conquests, trades,
    eliminations), then who is to act at the last version.  --json gives the events and the
    state there in the shape of `risk show --json`.  Without --as (or RISK_SEAT) you are a
    spectator: no hand, mission or card drawn is shown.
    """
    backend = app.backend
    final = backend.view(game_id, as_seat, at=upto)  # also checks the version
    events = backend.events(game_id, as_seat, upto=final["version"])
    if start > len(events):
        raise RiskError(
            "bad_version", f"Game {game_id} has {len(events)} events: no version {start}."
        )
    seats = viewer_seats(final, as_seat)
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "from": start,
                "version": final["version"],
                "events": events[start - 1 :],
                "state": {"game_id": game_id, **final},
            }
        )
        return
    names = render.Names(load_board(final["board"]), final["players"])
    for d in events[: start - 1]:
        names.follow(d)  # who holds what when the first event printed happened
    interactive = step and sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:

        def board(version: int) -> str:
            v = backend.view(game_id, as_seat, at=version)
            return render.board_text(game_id, v, names.board, seats)

        _step_through(events, start, names, board)
    else:
        # On a terminal the lines themselves show the progress; a bar is for redirected output.
        shown = events[start - 1 :]
        with progress_bar(0 if sys.stdout.isatty() else len(shown), "replay") as bar:
            for version, d in enumerate(shown, start=start):
                click.echo(f"{version:>6}  {render.event_line(d, names)}")
                bar.update(1)
    status = render.status_line(final, names)
    click.echo(f"\nAt version {final['version']}: {status}")


def _step_through(
    events: list[JsonDict], start: int, names: render.Names, board: Callable[[int], str]
) -> None:
    """One event at a time, waiting for Enter; ``board(version)`` draws the board there."""
    waiting = True
    for version in range(start, len(events) + 1):
        click.echo(f"{version:>6}  {render.event_line(events[version - 1], names)}")
        while waiting and version < len(events):
            click.echo("        [Enter: next · b: board · q: stop] ", nl=False, err=True)
            answer = sys.stdin.readline()
            if not answer:  # standard input closed: print the rest
                waiting = False
            elif answer.strip().lower() == "b":
                click.echo(board(version))
                continue
            elif answer.strip().lower() == "q":
                raise SystemExit(0)
            break


# --------------------------------------------------------------------------- branch
DICE_TEXT = {
    "same": "the parent's seed stream goes on",
    "reseed": "a new secret seed",
    "script": "scripted faces first",
}


@click.command()
@game_argument
@click.option(
    "--at",
    "at",
    type=Version(1),
    required=True,
    metavar="VERSION",
    help="Keep the parent's first VERSION events (`risk log` numbers them).",
)
@click.option("--id", "new_id", metavar="ID", help="The branch's game id (default: a new one).")
@click.option(
    "--dice",
    type=click.Choice(history.DICE_MODES),
    help="The branch's future dice: same (the parent's seed stream goes on), reseed (a new "
    "secret seed) or script (the faces of --script first).  Default: same, or what --seed or "
    "--script implies.",
)
@click.option(
    "--seed",
    metavar="SEED",
    help="With --dice reseed: the new seed (number or text; default: 64 random bits).",
)
@click.option(
    "--script",
    "script",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="With --dice script: a file of die faces 1-6 (a JSON list, or numbers separated by "
    "spaces).",
)
@click.option(
    "--replay-commands",
    is_flag=True,
    help="Then submit the parent's later commands to the branch, one by one, until one is "
    "refused: the same decisions with the branch's dice.",
)
@json_option
@pass_app
def branch(
    app: App,
    game_id: str,
    at: int,
    new_id: str | None,
    dice: str | None,
    seed: str | None,
    script: Path | None,
    replay_commands: bool,
    as_json: bool,
) -> None:
    """Start a new game from another game's position at any version.

    The branch keeps the parent's first VERSION events, with their commands (so it can be
    audited), and then goes on by itself; the parent does not change.  `risk tree` shows the
    family, `risk diff` compares the two.  --replay-commands then plays the parent's later
    decisions on the branch until one is no longer legal, and says how far it got.
    """
    mode = dice or ("reseed" if seed is not None else "script" if script is not None else "same")
    if seed is not None and mode != "reseed":
        raise click.UsageError("--seed goes with --dice reseed.")
    if script is not None and mode != "script":
        raise click.UsageError("--script goes with --dice script.")
    if mode == "script" and script is None:
        raise click.UsageError("--dice script needs --script FILE.")
    faces = history.parse_faces(script.read_text()) if script is not None else ()
    service = app.local_service("risk branch")
    made = history.branch(
        service,
        game_id,
        at,
        game_id=new_id,
        dice=mode,  # type: ignore[arg-type]  # a click.Choice of DICE_MODES
        seed=parse_seed(seed),
        faces=faces,
    )
    replayed = history.replay_commands(service, made) if replay_commands else None
    state = service.state(made.game_id)
    v = view(state, None)
    if as_json:
        echo_json(
            {
                **msgspec.to_builtins(made),
                "version": state.version,
                "phase": state.phase,
                "to_act": v["to_act"],
                **({"replay": msgspec.to_builtins(replayed)} if replayed else {}),
            }
        )
        return
    how = DICE_TEXT[made.dice]
    if made.commitment:
        how += f", commitment {made.commitment}"
    elif made.faces:
        how += f": {made.faces} faces"
    click.echo(
        f"Created game {made.game_id}: a branch of {made.parent} after version {made.at} "
        f"(dice: {how})."
    )
    if made.cut:
        click.echo(
            f"Version {made.at} is inside a command's events: its last {made.cut} are not in the "
            "branch, which goes on from that position."
        )
    if replayed is not None:
        click.echo(_replay_line(made.parent, replayed))
    click.echo(render.status_line(v, render.Names(load_board(state.board), v["players"])))
    click.echo(f"See it with: risk show {made.game_id}; its family: risk tree {made.game_id}")


def _replay_line(parent: str, r: history.CommandReplay) -> str:
    done = f"Replayed {r.applied} of {parent}'s {r.commands} later commands"
    if r.stopped_at is None:
        return f"{done}: all accepted (version {r.version})."
    return (
        f"{done}; stopped at its version {r.stopped_at}: {r.reason} [{r.code}] "
        f"(the branch is at version {r.version})."
    )


# --------------------------------------------------------------------------- tree
@click.command()
@game_argument
@json_option
@pass_app
def tree(app: App, game_id: str, as_json: bool) -> None:
    """Show a game's family: its parent chain up to the root and all its branches."""
    family = app.backend.lineage(game_id)
    if as_json:
        echo_json(msgspec.to_builtins(family))
        return
    for line in _tree_lines(family.tree, game_id, "", ""):
        click.echo(line)


def _tree_lines(node: history.Node, marked: str, lead: str, indent: str) -> list[str]:
    where = "root" if node.at is None else f"after version {node.at}"
    if node.in_store:
        about = f"{where}, {node.version} events, {node.phase}"
    else:
        about = f"{where}, not in this store"
    mark = "   ◀ this game" if node.game_id == marked else ""
    lines = [f"{lead}{node.game_id}  ({about}){mark}"]
    for i, child in enumerate(node.children):
        last = i == len(node.children) - 1
        lines += _tree_lines(
            child,
            marked,
            indent + ("└── " if last else "├── "),
            indent + ("    " if last else "│   "),
        )
    return lines


# --------------------------------------------------------------------------- diff
@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--at-a",
    type=Version(1),
    metavar="VERSION",
    help="A after this many events (default: now).",
)
@click.option(
    "--at-b",
    type=Version(1),
    metavar="VERSION",
    help="B after this many events (default: now).",
)
@as_option("Compare as this seat: its hand and mission are compared too.")
@json_option
@pass_app
def diff(
    app: App,
    a: str,
    b: str,
    at_a: int | None,
    at_b: int | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Compare two games' positions: owners, armies, cards, phase and turn.

    A branch against its parent at the branch point shows no difference.  Without --as only
    hand sizes are compared (ENG-07).
    """
    va = app.backend.view(a, as_seat, at=at_a)
    vb = app.backend.view(b, as_seat, at=at_b)
    result = history.diff_views(a, va, b, vb)
    if as_json:
        echo_json(msgspec.to_builtins(result))
        return
    title = (
        f"{result.a['game_id']} (version {result.a['version']}) and "
        f"{result.b['game_id']} (version {result.b['version']})"
    )
    if result.same:
        click.echo(f"No difference between {title}.")
        return
    click.echo(f"{title}: {len(result.differences)} differences")
    names = render.Names(load_board(va["board"]), va["players"])
    for d in result.differences:
        click.echo("  " + _difference_line(d, names))


def _difference_line(d: history.Difference, n: render.Names) -> str:
    if d.kind == "territory":
        label, a, b = n.t(d.key), _holding(d.a, n), _holding(d.b, n)
    elif d.kind == "player":
        seat = int(d.key)
        who = n.players[seat]["name"] if seat < len(n.players) else f"seat {seat}"
        label, a, b = f"{who} {d.field}", _plain(d.a), _plain(d.b)
    else:
        label, a, b = d.field, _plain(d.a), _plain(d.b)
    return f"{label + ':':<26}{a} → {b}"


def _holding(h: Any, n: render.Names) -> str:
    if h is None:
        return "-"
    owner = n.players[h["owner"]]["name"] if 0 <= h["owner"] < len(n.players) else "nobody"
    return f"{owner} {h['armies']}"


def _plain(value: Any) -> str:
    if isinstance(value, list) and value and isinstance(value[0], dict) and "id" in value[0]:
        return ", ".join(str(c["id"]) for c in value)  # a hand: card ids
    if isinstance(value, dict) and "id" in value:
        return str(value["id"])  # a mission
    return "-" if value is None else str(value)


# --------------------------------------------------------------------------- stats
@click.command()
@game_argument
@click.option(
    "--to",
    "upto",
    type=Version(1),
    metavar="VERSION",
    help="Only the battles up to this version.",
)
@json_option
@pass_app
def stats(app: App, game_id: str, upto: int | None, as_json: bool) -> None:
    """Show how lucky each seat was with the dice.

    Per seat: battles as attacker and defender, dice thrown, armies lost against the exact
    expectation (every throw of the dice enumerated), luck = expected - actual losses (armies
    the dice saved; negative: armies they cost) and z = luck in standard deviations.
    """
    report = app.backend.stats(game_id, upto)
    if as_json:
        echo_json(msgspec.to_builtins(report))
        return
    left_out = f"; {report.scripted} with scripted dice left out" if report.scripted else ""
    battles = f"{report.battles} battles{left_out}"
    click.echo(f"Dice luck in game {game_id} (version {report.version}, {battles})")
    click.echo(
        f"  {'player':<16}{'attacks':>8}{'defences':>9}{'dice':>6}{'losses':>8}"
        f"{'expected':>10}{'luck':>8}{'z':>7}"
    )
    for s in report.seats:
        z = f"{s.z:+.2f}" if s.z is not None else "-"
        click.echo(
            f"  {s.name:<16}{s.attacks:>8}{s.defences:>9}{s.dice:>6}{s.losses:>8}"
            f"{s.expected_losses:>10.2f}{s.luck:>+8.2f}{z:>7}"
        )
    click.echo("luck = expected - actual losses (armies the dice saved); z = luck / its std. dev.")
