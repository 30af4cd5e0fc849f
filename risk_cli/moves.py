"""One command per move, ``submit`` for any command as JSON, and ``bot`` for a computer seat.

A move acts as ``--as SEAT`` (or RISK_SEAT); without either it acts as the seat that must move
now, which suits several people sharing one terminal.  The engine still checks the seat, so
``--as`` is how a script makes sure it never moves for someone else (CORE-20).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click
import msgspec

from risk_cli import render
from risk_cli.backend import Build, JsonDict
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app, viewer
from risk_cli.play import play_all, play_seat
from risk_cli.render import plural
from risk_core import (
    Board,
    Command,
    GameState,
    RiskError,
    RuleError,
    bots,
    decode_command,
    load_board,
    to_act,
)
from risk_core.model import Attack, Defend, EndTurn, Fortify, Occupy, Place, Trade
from risk_core.names import whole_number
from risk_core.views import view, visible_events

if TYPE_CHECKING:
    from risk_service import GameService

MOVE_AS = "Move as this seat (default: the seat that must act now)."


def mover(state: GameState, ref: str | None) -> int:
    seat = viewer(state, ref)
    if seat is None:
        seat = to_act(state)
    if seat is None:
        raise RuleError("game_over", "The game is over.")
    return seat


def territory(board: Board, name: str) -> str:
    """A territory id from its id, English or French name (with a suggestion on a typo)."""
    return board.territories[board.find(name)].id


def run_move(app: App, game_id: str, as_seat: str | None, as_json: bool, build: Build) -> None:
    """Build the command from the seat's view, submit it (locally: against that version), report."""
    moved = app.backend.move(game_id, as_seat, build)
    report(game_id, moved.after, moved.events, as_json)


def report(
    game_id: str,
    v: JsonDict,
    shown: list[JsonDict],
    as_json: bool,
    note: JsonDict | None = None,
) -> None:
    """What happened (``shown``: events as the seat may see them), and who must act next;
    ``note`` (a command's own remark, e.g. why an attack stopped: ``{"key", "value", "text"}``)
    is printed before the status line and added to the JSON under its key."""
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "version": v["version"],
                "events": shown,
                "phase": v["phase"],
                "to_act": v["to_act"],
                "winner": v["winner"],
                **({note["key"]: note["value"]} if note else {}),
            }
        )
        return
    # Who held what before these events, so each battle's losses name the army that lost.
    names = render.Names(load_board(v["board"]), v["players"], render.owners_before(v, shown))
    for d in shown:
        click.echo(render.event_line(d, names))
    if note:
        click.echo(note["text"])
    click.echo(render.status_line(v, names))


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY")
@click.argument("count", type=int, default=1, required=False)
@as_option(MOVE_AS)
@json_option
@pass_app
def place(
    app: App, game_id: str, territory_name: str, count: int, as_seat: str | None, as_json: bool
) -> None:
    """Place COUNT armies (default 1) on TERRITORY.

    Works for starting armies, reinforcements and, in classic-2p, the ally's armies.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        return Place(seat=seat, territory=territory(board, territory_name), count=count)

    run_move(app, game_id, as_seat, as_json, build)


def card_ids(board: Board, hand: list[int], refs: tuple[str, ...]) -> tuple[int, ...]:
    """Cards by id, by territory name, or "joker" (each joker named takes the next one held);
    on a board whose cards name no territory (Clone Wars), by id only."""
    chosen: list[int] = []
    jokers = [c for c in hand if board.card(c).symbol == "joker"]
    for ref in refs:
        if (number := whole_number(ref)) is not None:
            chosen.append(number)
        elif ref.casefold() == "joker":
            free = [j for j in jokers if j not in chosen]
            if not free:
                raise RuleError("not_in_hand", "You hold no (further) joker.")
            chosen.append(free[0])
        elif all(c.territory is None for c in board.cards):  # Clone Wars: ship classes only
            raise RuleError(
                "not_in_hand", f"Name the card by its id (see `risk show --as`), not {ref!r}."
            )
        else:
            t = board.find(ref)
            card = next((c for c in hand if board.card_territory(c) == t), None)
            if card is None:
                raise RuleError("not_in_hand", f"You hold no card of {board.name(t)}.")
            chosen.append(card)
    return tuple(chosen)


@click.command()
@game_argument
@click.argument("cards", nargs=3, metavar="CARD CARD CARD")
@as_option(MOVE_AS)
@json_option
@pass_app
def trade(
    app: App, game_id: str, cards: tuple[str, ...], as_seat: str | None, as_json: bool
) -> None:
    """Trade three cards, given by id, territory name or "joker"."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        hand = [c["id"] for c in v["players"][seat].get("hand", [])]
        return Trade(seat=seat, cards=card_ids(board, hand, cards))

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option(
    "--dice", type=int, metavar="N", help="Attack dice (default: as many as allowed, up to 3)."
)
@click.option(
    "--until-conquer",
    "--repeat",
    "until_conquer",
    is_flag=True,
    help="Keep attacking until TO falls or FROM is down to --stop-at armies.",
)
@click.option(
    "--stop-at",
    type=int,
    default=1,
    show_default=True,
    metavar="N",
    help="Keep attacking until TO falls or FROM has N armies left (--until-conquer with a "
    "stop of its own).",
)
@click.option(
    "--move",
    type=int,
    metavar="N",
    help="If TO falls, move N armies in (clamped to what is allowed).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print the exact odds of this attack (one battle, and until TO falls or --stop-at) "
    "instead of attacking; nothing is stored.",
)
@as_option(MOVE_AS)
@json_option
@pass_app
def attack(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    dice: int | None,
    until_conquer: bool,
    stop_at: int,
    move: int | None,
    dry_run: bool,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Attack TO from FROM (territory ids or names)."""
    if dry_run:
        from risk_cli.analysis import dry_run_attack

        dry_run_attack(app, game_id, origin, target, dice, stop_at, as_seat, as_json)
        return

    ordered: list[Attack] = []
    # A stop only means something to a repeated attack: asking for one asks for that.
    given = click.get_current_context().get_parameter_source("stop_at")
    until_conquer = until_conquer or given is not click.core.ParameterSource.DEFAULT

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o = board.find(origin)
        armies = v["territories"][board.territories[o].id]["armies"]
        n = dice if dice is not None else max(1, min(3, armies - 1))
        ordered.append(
            Attack(
                seat=seat,
                origin=board.territories[o].id,
                target=territory(board, target),
                dice=n,
                until="conquer" if until_conquer else "once",
                stop_at=stop_at,
                move=move,
            )
        )
        return ordered[-1]

    moved = app.backend.move(game_id, as_seat, build)
    note = stop_note(ordered[-1], moved.after, moved.events) if ordered else None
    report(game_id, moved.after, moved.events, as_json, note)


def stop_note(order: Attack, v: JsonDict, shown: list[JsonDict]) -> JsonDict | None:
    """Why an ``--until-conquer`` attack ended without taking its target: FROM is down to
    ``--stop-at`` armies (as asked), or to the one army that cannot attack.  None when the
    target fell, the attack waits for a defence, or it was a single battle."""
    if order.until != "conquer" or v["attack"] is not None:
        return None
    if any(d["type"] == "conquered" and d["target"] == order.target for d in shown):
        return None
    left = v["territories"][order.origin]["armies"]
    held = v["territories"][order.target]["armies"]
    board = load_board(v["board"])
    name = board.name(board.index[order.origin])
    holds = f"{board.name(board.index[order.target])} holds with {plural(held, 'army', 'armies')}"
    if left > 1 and left <= order.stop_at:
        text = f"Stopped: {name} is down to {left} armies, as asked (--stop-at {order.stop_at}); "
    else:
        text = f"Stopped: {name} has {plural(left, 'army', 'armies')} left and cannot attack; "
    value = {
        "origin": order.origin,
        "target": order.target,
        "armies_left": left,
        "target_armies": held,
        "stop_at": order.stop_at,
    }
    return {"key": "stopped", "value": value, "text": text + holds + "."}


@click.command()
@game_argument
@click.argument("dice", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def defend(app: App, game_id: str, dice: int, as_seat: str | None, as_json: bool) -> None:
    """Answer a pending attack with DICE defence dice (1 or 2)."""
    run_move(app, game_id, as_seat, as_json, lambda s, b, seat: Defend(seat=seat, dice=dice))


@click.command()
@game_argument
@click.argument("count", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def occupy(app: App, game_id: str, count: int, as_seat: str | None, as_json: bool) -> None:
    """Move COUNT armies into the territory just conquered."""
    run_move(app, game_id, as_seat, as_json, lambda s, b, seat: Occupy(seat=seat, count=count))


@click.command()
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("count", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def fortify(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Move COUNT armies from FROM to TO; this free move ends the turn."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o, t = territory(board, origin), territory(board, target)
        return Fortify(seat=seat, origin=o, target=t, count=count)

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@as_option(MOVE_AS)
@json_option
@pass_app
def end(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """End the turn without a free move."""
    run_move(app, game_id, as_seat, as_json, lambda s, b, seat: EndTurn(seat=seat))


@click.command()
@game_argument
@click.argument("command_json", metavar="JSON")
@as_option('Seat for a command without a "seat" field (default: the seat that must act).')
@json_option
@pass_app
def submit(app: App, game_id: str, command_json: str, as_seat: str | None, as_json: bool) -> None:
    """Submit any command as JSON (`-` reads it from standard input).

    Example: risk submit GAME '{"type": "attack", "origin": "peru", "target": "brazil"}'.
    `risk schema` describes every command.
    """
    text = sys.stdin.read(MAX_COMMAND_CHARS + 1) if command_json == "-" else command_json
    if len(text) > MAX_COMMAND_CHARS:
        raise RiskError("bad_command", f"A command is at most {MAX_COMMAND_CHARS:,} characters.")

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        return parse_command(text, seat)

    run_move(app, game_id, as_seat, as_json, build)


MAX_COMMAND_CHARS = 1 << 20  # the longest command `submit` reads (commands are a line or two)


def parse_command(text: str, seat: int) -> Command:
    """The command in JSON ``text``, for ``seat`` unless it names one; ``bad_command`` when it
    is not JSON, not a command, names a field its command does not have, or is nested too
    deeply to read."""
    try:
        data = msgspec.json.decode(text)
        if isinstance(data, dict):
            data.setdefault("seat", seat)
        return decode_command(msgspec.json.encode(data))
    except (msgspec.DecodeError, RecursionError) as exc:
        why = "it is nested too deeply" if isinstance(exc, RecursionError) else exc
        raise RiskError("bad_command", f"Not a valid command: {why}") from None


@click.command()
@game_argument
@as_option("The seat the computer plays (with --all: your seat, which it does not play).")
@click.option(
    "--all",
    "every_seat",
    is_flag=True,
    help="Play every seat: to the end of the game, or with --until-seat (or --as) until that "
    "seat must act.",
)
@click.option("--until-end", is_flag=True, help="With --all: play until the game ends (default).")
@click.option(
    "--until-seat",
    metavar="SEAT",
    help="With --all: stop when this seat must act (it is not played).",
)
@click.option(
    "--level",
    type=click.Choice(bots.LEVELS),
    default="greedy",
    show_default=True,
    help="How the computer plays.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The bot's own seed.")
@click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="With --all: stop with turn_limit past this turn.",
)
@json_option
@pass_app
def bot(
    app: App,
    game_id: str,
    as_seat: str | None,
    every_seat: bool,
    until_end: bool,
    until_seat: str | None,
    level: str,
    seed: int,
    max_turns: int,
    as_json: bool,
) -> None:
    """Let the computer play a seat until someone else must act, or with --all every seat
    (local store only; on the service, the game owner hands a seat to the computer with
    `risk admin GAME bot SEAT`)."""
    owner = "a game's owner hands a seat to the computer with `risk admin GAME bot SEAT`"
    service = app.local_service("risk bot", owner)
    state = service.state(game_id)  # a private copy, advanced by play_seat
    from risk_service import history  # here: the other commands of this module need none

    history.check_game_playable(state, game_id)  # a position no move is accepted in
    if every_seat or until_end or until_seat is not None:
        if not every_seat:
            raise click.UsageError("--until-end and --until-seat go with --all.")
        if until_end and (until_seat is not None or as_seat is not None):
            raise click.UsageError("--until-end plays every seat: drop --until-seat and --as.")
        if until_seat is not None and as_seat is not None:
            raise click.UsageError("Give the seat to stop at once: --until-seat or --as.")
        mine = viewer(state, until_seat if until_seat is not None else as_seat)
        bot_all(service, game_id, state, mine, level, seed, max_turns, as_json)
        return
    if as_seat is None:
        raise click.UsageError(
            "Name the seat the computer plays with --as (or play every seat with --all)."
        )
    seat = mover(state, as_seat)
    events = play_seat(service, game_id, state, seat, level=level, seed=seed)
    if not events and not as_json:
        click.echo(f"Nothing to play for {state.players[seat].name}: it is not their move.")
    from risk_service.seed_secrecy import withhold

    shown = withhold(service, game_id, visible_events(events, seat))
    report(game_id, view(state, seat), shown, as_json)


def on_terminal() -> bool:
    """Whether standard error is a terminal: the only place a progress bar is drawn."""
    return sys.stderr.isatty()


def bot_all(
    service: GameService,
    game_id: str,
    state: GameState,
    mine: int | None,
    level: str,
    seed: int,
    max_turns: int,
    as_json: bool,
) -> None:
    """Bots play every seat but ``mine`` until ``mine`` must act or the game ends, with a
    progress bar on a terminal; then what happened (a whole game: the standings)."""
    from tqdm import tqdm  # type: ignore[import-untyped]  # only this command draws a bar

    first_turn = state.turn
    with tqdm(
        unit=" moves",
        desc=f"{game_id}: turn {state.turn}",
        disable=not on_terminal(),
        leave=False,
    ) as bar:

        def progress(now: GameState) -> None:
            bar.set_description_str(f"{game_id}: turn {now.turn}", refresh=False)
            bar.update(1)

        events, moves = play_all(
            service,
            game_id,
            state,
            stop_at_seat=mine,
            level=level,
            seed=seed,
            max_turns=max_turns,
            on_move=progress,
        )
    v = view(state, mine)
    from risk_service.seed_secrecy import withhold

    shown = withhold(service, game_id, visible_events(events, mine))
    over = state.phase == "over"
    waiting = (
        "the game is over" if over or mine is None else f"it is {state.players[mine].name}'s move"
    )
    summary = {
        "key": "bots",
        "value": {"moves": moves, "turns": [first_turn, state.turn]},
        "text": f"The computer made {plural(moves, 'move')} (turn {first_turn} to {state.turn})."
        if moves
        else f"Nothing to play: {waiting}.",
    }
    if as_json or mine is not None:
        report(game_id, v, shown, as_json, summary)
        return
    click.echo(summary["text"])
    names = render.Names(load_board(v["board"]), v["players"])
    click.echo(render.status_line(v, names))
    if v["winner"] is not None:
        click.echo(render.standings_text(v))
