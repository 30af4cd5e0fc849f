"""Time travel: ``replay``, ``branch``, ``tree``, ``diff`` and the luck report ``stats``.

Thin commands over ``risk_service.history`` and ``risk_service.luck``, on the local store.
What they print goes through ``risk_core.views`` first: without ``--as`` nobody's cards,
mission or draws are shown (ENG-07).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import msgspec

from risk_cli import render, turns
from risk_cli.common import (
    App,
    as_option,
    echo_json,
    game_argument,
    json_option,
    pass_app,
)
from risk_cli.games import Version, parse_seed, viewer_seats
from risk_cli.turns import turn_option
from risk_core import RiskError, load_board
from risk_core.turns import (
    TurnStart,
    TurnSummary,
    line_up,
    summarise_turn,
    turn_span,
    turn_starts_json,
)
from risk_core.views import view
from risk_service import history

if TYPE_CHECKING:
    from risk_cli.backend import Backend

JsonDict = dict[str, Any]
LONG_GAME = 2000  # events: below this a progress bar would only flicker


def progress_bar(total: int, what: str) -> Any:
    """A progress bar on standard error, shown only on a terminal and for long games."""
    if not sys.stderr.isatty() or total < LONG_GAME:
        return _NoBar()  # tqdm (and the modules it imports) only for a bar that is drawn
    from tqdm import tqdm  # type: ignore[import-untyped]  # no stubs shipped

    return tqdm(total=total, desc=what, unit=" events", file=sys.stderr, leave=False)


class _NoBar:
    """``progress_bar`` when nothing is drawn: a disabled bar's interface."""

    disable = True

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int = 1) -> None:
        """Nothing to draw."""


def shown_progress(bar: Any) -> Callable[[int], None] | None:
    """What to tell ``bar`` the events done, or None when it is not shown: an audit or an
    import told nothing skips its call per record."""
    return None if bar.disable else bar.update


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
    metavar="VERSION",
    help="First version to print (the events before it are applied silently; default: 1).",
)
@turn_option(
    "Only turn TURN's events, from its turn_started to the next turn's (not with --from or --to)."
)
@click.option(
    "--by",
    type=click.Choice(["event", "turn"]),
    default="event",
    show_default=True,
    help="event: one line per event; turn: one line per turn (territories that changed hands, "
    "armies, cards traded, eliminations).",
)
@click.option(
    "--step",
    is_flag=True,
    help="On a terminal, one event at a time: Enter/n/→ next, p/← previous, t/]/↓ next turn, "
    "T/[/↑ previous turn, b the board, q stop.",
)
@as_option("Replay as this seat: its own cards, draws and mission are shown.")
@json_option
@pass_app
def replay(
    app: App,
    game_id: str,
    upto: int | None,
    start: int | None,
    turn: int | None,
    by: str,
    step: bool,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Replay a game event by event, up to any version.

    One line per event (who attacked what with which dice, losses, conquests, trades,
    eliminations), then who is to act at the last version.  --turn T replays turn T's events
    and --by turn prints one line per turn instead.  --json gives the events and the state
    there in the shape of `risk show --json`.  Without --as (or RISK_SEAT) you are a spectator:
    no hand, mission or card drawn is shown.
    """
    backend = app.backend
    ending = None  # the status line, when the last version shown ends a turn (--turn)
    if step and (as_json or by == "turn"):
        raise click.UsageError("--step shows one event at a time: not with --json or --by turn.")
    if step and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise RiskError(
            "not_a_terminal",
            "--step reads keys from a terminal, and this input or output is not one: replay "
            "without --step prints every event at once.",
        )
    if turn is not None:
        if upto is not None or start is not None:
            raise click.UsageError("--turn gives the versions to replay: not with --from or --to.")
        found, total = turns.starts(backend, game_id)
        start, upto = turn_span(found, turn, total, game_id)
        if upto < total:  # inside the command that ends the turn: say so, not who acts
            ending = f"the end of turn {turn}; turn {turn + 1} begins at version {upto + 1}."
    start = start or 1
    final = backend.view(game_id, as_seat, at=upto)  # also checks the version
    events = backend.events(game_id, as_seat, upto=final["version"])
    if start > len(events):
        if upto is not None:  # the events were cut at --to: it is the range that is empty
            raise RiskError("bad_version", f"--from {start} is after --to {upto}: nothing to show.")
        raise RiskError(
            "bad_version",
            f"Game {game_id} has {render.plural(len(events), 'event')}: no version {start}.",
        )
    seats = viewer_seats(final, as_seat)
    if by == "turn":
        summaries = turn_summaries(backend, game_id, as_seat, events, start, final)
        _print_summaries(game_id, summaries, final, as_json, ending)
        return
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
    if step:
        # Every line told once, in order (each follows who holds what), then shown on demand.
        lines = [render.event_line(d, names) for d in events]

        def board(version: int) -> str:
            v = backend.view(game_id, as_seat, at=version)
            return render.board_text(game_id, v, names.board, seats)

        stepper = Stepper(lines, start, turn_starts_json(events))
        if not stepper.run(terminal_keys(), board):
            return
    else:
        for d in events[: start - 1]:
            names.follow(d)  # who holds what when the first event printed happened
        # On a terminal the lines themselves show the progress; a bar is for redirected output.
        shown = events[start - 1 :]
        with progress_bar(0 if sys.stdout.isatty() else len(shown), "replay") as bar:
            for version, d in enumerate(shown, start=start):
                click.echo(f"{version:>6}  {render.event_line(d, names)}")
                bar.update(1)
    status = ending or render.status_line(final, names)
    click.echo(f"\nAt version {final['version']}: {status}")


# Keys of --step: a key pressed (arrows are their escape sequences) and what it does.
STEP_KEYS = {
    **dict.fromkeys(("\r", "\n", " ", "n", "\x1b[C"), "next"),
    **dict.fromkeys(("p", "\x7f", "\x1b[D"), "previous"),
    **dict.fromkeys(("t", "]", "\x1b[B"), "next turn"),
    **dict.fromkeys(("T", "[", "\x1b[A"), "previous turn"),
    "b": "board",
    **dict.fromkeys(("q", "\x1b", "\x03", "\x04"), "quit"),  # also Esc, Ctrl-C, Ctrl-D
}
STEP_PROMPT = "[Enter/n/→ next · p/← back · t/] next turn · T/[ turn back · b board · q stop]"


def terminal_keys() -> Iterator[str]:
    """The keys pressed on the terminal (standard input), one by one; an arrow is its escape
    sequence, and "" means standard input is closed.

    The terminal is in raw mode only while a key is read.  Unlike ``click.getchar``, switching
    to it keeps keys typed ahead instead of discarding them, so fast typing loses none.
    """
    import termios
    import tty

    fd = sys.stdin.fileno()
    while True:
        old = termios.tcgetattr(fd)
        try:
            tty.setraw(fd, termios.TCSANOW)
            chunk = os.read(fd, 64).decode(errors="replace")
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
        if not chunk:
            yield ""
            return
        yield from split_keys(chunk)


def split_keys(chunk: str) -> list[str]:
    """The keys in what one read of the terminal gave: escape sequences (arrows) whole."""
    keys, i = [], 0
    while i < len(chunk):
        if chunk.startswith("\x1b[", i) and i + 2 < len(chunk):
            keys.append(chunk[i : i + 3])
            i += 3
        else:
            keys.append(chunk[i])
            i += 1
    return keys


class Stepper:
    """``replay --step``: the event shown moves forward and back, by events or by turns.

    ``lines[v - 1]`` tells version ``v``; the replay starts at ``start``.  "Next" from the
    last event ends the replay; the turns are ``starts`` (``risk_core.turns``).
    """

    def __init__(self, lines: list[str], start: int, starts: list[TurnStart]) -> None:
        self.lines = lines
        self.version = start
        self.starts = starts

    def target(self, action: str) -> int | None:
        """The version ``action`` moves to (None: the end of the replay, "next" at the last
        event); where it cannot go (before the first event, no turn further), it stays."""
        v, last = self.version, len(self.lines)
        if action == "next":
            return None if v >= last else v + 1
        if action == "previous":
            return max(1, v - 1)
        if action == "next turn":
            later = [s.version for s in self.starts if v < s.version <= last]
            return later[0] if later else v
        if action == "previous turn":
            earlier = [s.version for s in self.starts if s.version < v]
            return earlier[-1] if earlier else v
        return v

    def show(self) -> None:
        click.echo(f"{self.version:>6}  {self.lines[self.version - 1]}")

    def run(self, keys: Iterator[str], board: Callable[[int], str]) -> bool:
        """Show events as the keys say; False if the user stopped (q, or no more keys), True
        at the end."""
        self.show()
        while True:
            click.echo(f"        {STEP_PROMPT} ", nl=False, err=True)
            key = next(keys, "")
            click.echo("", err=True)
            action = STEP_KEYS.get(key)
            if action == "quit" or key == "":
                return False
            if action == "board":
                click.echo(board(self.version))
                continue
            if action is None:
                continue
            moved = self.target(action)
            if moved is None:
                return True
            if moved != self.version:
                self.version = moved
                self.show()


# --------------------------------------------------------------------------- replay --by turn
def turn_summaries(
    backend: Backend,
    game_id: str,
    seat: str | None,
    events: list[JsonDict],
    start: int,
    final: JsonDict,
) -> list[TurnSummary]:
    """The summaries of the turns that begin between ``start`` and the last of ``events``
    (the last one cut there).  A turn's "before" is the position at its start; since its
    ``turn_started`` moves no army, the previous turn's "after" serves for it."""
    last = len(events)
    begun = [s for s in turn_starts_json(events) if start <= s.version]
    out: list[TurnSummary] = []
    before = backend.view(game_id, seat, at=begun[0].version) if begun else None
    for k, s in enumerate(begun):
        end = begun[k + 1].version - 1 if k + 1 < len(begun) else last
        after = final if end == final["version"] else backend.view(game_id, seat, at=end)
        assert before is not None
        out.append(summarise_turn(s, end, before, after, events[s.version - 1 : end]))
        before = after
    return out


def _print_summaries(
    game_id: str,
    summaries: list[TurnSummary],
    final: JsonDict,
    as_json: bool,
    ending: str | None,
) -> None:
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "version": final["version"],
                "turns": [msgspec.to_builtins(s) for s in summaries],
            }
        )
        return
    names = render.Names(load_board(final["board"]), final["players"])
    if not summaries:
        click.echo(f"No turn of game {game_id} begins in these versions.")
    for s in summaries:
        click.echo(summary_line(s, names))
    status = ending or render.status_line(final, names)
    click.echo(f"\nAt version {final['version']}: {status}")


def summary_line(s: TurnSummary, n: render.Names) -> str:
    """One turn in one line: who took what from whom, trades, eliminations, then each seat
    whose territories or armies changed (start → end of the turn)."""
    taken: dict[int, dict[int, list[str]]] = {}  # gainer → previous owner → territories
    for t in s.transfers:
        taken.setdefault(t.after, {}).setdefault(t.before, []).append(n.t(t.territory))
    what = []
    for to, sources in taken.items():
        parts = [
            ", ".join(places) + (f" from {n.seat(lost_by)}" if lost_by >= 0 else "")
            for lost_by, places in sources.items()
        ]
        if to >= 0:
            what.append(f"{n.seat(to)} took {' and '.join(parts)}")
        else:  # a rule family's territory left empty
            what.append(f"left empty: {' and '.join(parts)}")
    what += [
        f"{n.seat(t.seat)} traded {render.plural(t.cards, 'card')} for {t.value}" for t in s.trades
    ]
    what += [f"{n.seat(e.by)} eliminated {n.seat(e.seat)}" for e in s.eliminated]
    if s.winner is not None:
        what.append(f"{n.seat(s.winner)} won")
    changes = ", ".join(
        f"{n.seat(c.seat)} {c.territories[0]}→{c.territories[1]} terr. "
        f"{c.armies[0]}→{c.armies[1]} armies"
        for c in s.seats
    )
    head = f"Turn {s.turn} (round {s.round}, {s.first}-{s.last}) {n.seat(s.seat)}: "
    body = "; ".join(what) or "no territory changed hands"
    return head + body + (f" | {changes}" if changes else "")


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
    metavar="VERSION",
    help="Keep the parent's first VERSION events (`risk log` numbers them).",
)
@turn_option(
    "Branch at the start of turn TURN: after the command that began it (its turn_started event "
    "and what that command did next: the income, a family's scoring at the turn's start)."
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
    at: int | None,
    turn: int | None,
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
    at = turns.position(app.backend, game_id, at, turn)
    if at is None:
        raise click.UsageError("Missing option '--at' (or --turn TURN): say where to branch.")
    if seed is not None and mode != "reseed":
        raise click.UsageError("--seed goes with --dice reseed.")
    if script is not None and mode != "script":
        raise click.UsageError("--script goes with --dice script.")
    if mode == "script" and script is None:
        raise click.UsageError("--dice script needs --script FILE.")
    faces = history.parse_faces(script.read_text()) if script is not None else ()
    service = app.local_service("risk branch", whole_game=True)
    if turn is not None:  # a whole command: its events after turn_started are the turn's start
        at = history.command_end(service, game_id, at)
    history.check_playable(service.state(game_id, at=at), game_id, "branch")
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
        about = f"{where}, {render.plural(node.version or 0, 'event')}, {node.phase}"
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
    "--at",
    type=Version(1),
    metavar="VERSION",
    help="A after this many events, and B at the same point of play: as many moves of the "
    "game (a branch's own branched and dice records are not moves).",
)
@turn_option("Both games at the start of turn TURN (each right after its turn_started).")
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
    at: int | None,
    turn: int | None,
    at_a: int | None,
    at_b: int | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Compare two games' positions: owners, armies, cards, phase and turn.

    --at N lines the two up: A after N events, B at the same point of play, so a branch and its
    parent compare without counting the branch's own records; --turn T compares both at the
    start of turn T.  A branch against its parent at the branch point shows no difference.
    Without --as only hand sizes are compared (ENG-07).
    """
    at_a, at_b = _diff_versions(app.backend, a, b, at, turn, at_a, at_b)
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
    click.echo(f"{title}: {render.plural(len(result.differences), 'difference')}")
    names = render.Names(load_board(va["board"]), va["players"])
    for d in result.differences:
        click.echo("  " + _difference_line(d, names))


def _diff_versions(
    backend: Backend,
    a: str,
    b: str,
    at: int | None,
    turn: int | None,
    at_a: int | None,
    at_b: int | None,
) -> tuple[int | None, int | None]:
    """The versions ``diff`` compares: --at lined up, --turn in each game, or --at-a/--at-b."""
    if (at is not None) + (turn is not None) + (at_a is not None or at_b is not None) > 1:
        raise click.UsageError("Give one of --at, --turn or --at-a/--at-b.")
    if turn is not None:
        return turns.start_of(backend, a, turn), turns.start_of(backend, b, turn)
    if at is not None:
        types_a = [d["type"] for d in backend.events(a, None, upto=at)]
        types_b = [d["type"] for d in backend.events(b, None)]
        return at, line_up(types_a, at, types_b, b)
    return at_a, at_b


def _difference_line(d: history.Difference, n: render.Names) -> str:
    if d.kind == "territory":
        label, a, b = n.t(d.key), _holding(d.a, n), _holding(d.b, n)
    elif d.kind == "player":
        seat = int(d.key)
        who = n.players[seat]["name"] if seat < len(n.players) else f"seat {seat}"
        label, a, b = f"{who} {d.field}", _plain(d.a, n), _plain(d.b, n)
    elif d.field in SEAT_FIELDS:
        label, a, b = d.field, _seat_name(d.a, n), _seat_name(d.b, n)
    else:
        label, a, b = d.field, _plain(d.a, n), _plain(d.b, n)
    head = f"{label}:"
    return f"{head:<{max(26, len(head) + 1)}}{a} → {b}"


SEAT_FIELDS = frozenset({"current_player", "to_act", "winner"})  # a seat: its player's name


def _seat_name(value: Any, n: render.Names) -> str:
    if isinstance(value, int) and 0 <= value < len(n.players):
        return str(n.players[value]["name"])
    return "-"


def _holding(h: Any, n: render.Names) -> str:
    if h is None:
        return "-"
    owner = n.players[h["owner"]]["name"] if 0 <= h["owner"] < len(n.players) else "nobody"
    return f"{owner} {h['armies']}"


def _plain(value: Any, n: render.Names) -> str:
    if isinstance(value, list) and value and isinstance(value[0], dict) and "id" in value[0]:
        return ", ".join(_card(c, n) for c in value)  # a hand: what its cards show
    if isinstance(value, dict) and "id" in value:
        return str(value["id"])  # a mission
    return "-" if value is None else str(value)


def _card(card: dict[str, Any], n: render.Names) -> str:
    """A card of a view's hand as it reads: its territory and symbol, else its symbol."""
    symbol = card.get("symbol") or card.get("kind") or f"card {card['id']}"
    territory = card.get("territory")
    return f"{n.t(territory)} ({symbol})" if territory else str(symbol)


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
@turn_option("Only the battles up to the end of turn TURN.")
@json_option
@pass_app
def stats(app: App, game_id: str, upto: int | None, turn: int | None, as_json: bool) -> None:
    """Show how lucky each seat was with the dice.

    Per seat: battles as attacker and defender, dice thrown, armies lost against the exact
    expectation (every throw of the dice enumerated), luck = expected - actual losses (armies
    the dice saved; negative: armies they cost) and z = luck in standard deviations.
    """
    if turn is not None:
        if upto is not None:
            raise click.UsageError("Give --to or --turn, not both.")
        upto = turns.span_of(app.backend, game_id, turn)[1]
    report = app.backend.stats(game_id, upto)
    if as_json:
        echo_json(msgspec.to_builtins(report))
        return
    left_out = f"; {report.scripted} with scripted dice left out" if report.scripted else ""
    battles = f"{render.plural(report.battles, 'battle')}{left_out}"
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
