"""Creating, listing, showing and reading the log of stored games."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import msgspec

from risk_cli import render
from risk_cli.common import (
    App,
    as_option,
    echo_json,
    game_argument,
    json_option,
    named_in_view,
    pass_app,
    seat_of,
    seats_named,
)
from risk_cli.turns import position, turn_option
from risk_core import Event, RiskError, SeatInfo, SetupError, load_board
from risk_core.board import unverified_facts
from risk_core.model import GameStarted, OptionValue
from risk_core.names import whole_number
from risk_core.seats import check_commanders
from risk_core.turns import turn_span, turn_starts_json

MAX_VERSION = (1 << 63) - 1  # a store's largest integer (SQLite INTEGER, PostgreSQL bigint)


class Version(click.IntRange):
    """A version option (``show --at``, ``replay --to``…): an integer from ``min``, as
    ``click.IntRange``; one beyond any store's integers is ``bad_version``, like any version a
    game does not have, never an overflow inside the store."""

    def __init__(self, min: int | None = None) -> None:
        super().__init__(min=min)

    def _describe_range(self) -> str:  # help text: "[x>=1]", nothing without a minimum
        return "" if self.min is None else super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        n = super().convert(value, param, ctx)
        if n > MAX_VERSION:
            raise RiskError(
                "bad_version", f"No game has a version {n} (the last possible is {MAX_VERSION})."
            )
        return n


def parse_seed(text: str | None) -> int | str | None:
    """Digits are a number seed; any other text is hashed by the engine."""
    if text is None:
        return None
    number = whole_number(text.removeprefix("-"))
    return text if number is None else -number if text.startswith("-") else number


def parse_options(pairs: tuple[str, ...]) -> dict[str, OptionValue]:
    # Values stay strings: the rule set converts and checks them against each option's type.
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not key=value.", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def parse_commanders(pairs: tuple[str, ...]) -> list[tuple[str, str]]:
    """The --commander SEAT=PLAYER pairs (usage error: not SEAT=PLAYER, or a side empty)."""
    out = []
    for pair in pairs:
        seat, sep, player = (part.strip() for part in pair.partition("="))
        if not sep or not seat or not player:
            raise click.BadParameter(f"{pair!r} is not SEAT=PLAYER.", param_hint="--commander")
        out.append((seat, player))
    return out


def commanders_of(names: list[str], pairs: Sequence[tuple[str, str]]) -> dict[int, str]:
    """The player commanding each seat the pairs name (a seat's number or name, any case);
    a seat given two commanders is refused (``bad_commander``).  What a commander may be is
    the engine's to check (``risk_core.seats.check_commanders``)."""
    out: dict[int, str] = {}
    for ref, player in pairs:
        seat = seat_of(names, ref)
        if out.setdefault(seat, player) != player:
            raise SetupError(
                "bad_commander",
                f"Seat {names[seat]!r} is given two commanders: {out[seat]!r} and {player!r}.",
            )
    return out


def player_names(players: str | None, player: tuple[str, ...]) -> list[str]:
    names = [n.strip() for n in players.split(",")] if players else []
    return [*names, *player]


@click.command()
@click.option(
    "--rules",
    metavar="NAME",
    help="Rule set (see `risk rules`); default classic, or the scenario's.",
)
@click.option("--players", metavar="A,B,C", help='Player names in seat order, e.g. "Ann,Bob,Cy".')
@click.option(
    "--player", multiple=True, metavar="NAME", help="A player name (repeat, after --players)."
)
@click.option("--seed", metavar="SEED", help="Seed (number or text); default: a random seed.")
@click.option(
    "--option",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rule option (repeatable); `risk rules NAME` lists them.",
)
@click.option(
    "--scenario",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Start from a position in a .toml or .json scenario file (flags override it).",
)
@click.option("--id", "game_id", metavar="ID", help="Game id to use instead of a generated one.")
@click.option(
    "--ask",
    multiple=True,
    metavar="SEAT",
    help="This seat chooses its own defence dice (repeatable); others defend automatically.",
)
@click.option(
    "--commander",
    "commander_pairs",
    multiple=True,
    metavar="SEAT=PLAYER",
    help="PLAYER commands this seat (repeatable; SEAT a name or number): one player may "
    "command several seats, e.g. --commander Rex=Allies --commander Cody=Allies.",
)
@json_option
@pass_app
def new(
    app: App,
    rules: str | None,
    players: str | None,
    player: tuple[str, ...],
    seed: str | None,
    option_pairs: tuple[str, ...],
    scenario: Path | None,
    game_id: str | None,
    ask: tuple[str, ...],
    commander_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Start a new game and print its id."""
    names = player_names(players, player)
    options = parse_options(option_pairs)
    commanders = parse_commanders(commander_pairs)
    backend = app.backend
    invitations: dict[str, str] = {}
    if scenario is not None:
        service = app.local_service("--scenario")
        opening = scenario_events(
            scenario, rules, names, parse_seed(seed), options, ask, commanders
        )
        started = opening[0]
        assert isinstance(started, GameStarted)
        # Seat names from the opening itself: it also lists neutral seats (the 2p ally).
        seats = [p.name for p in started.players]
        game_id = service.new_game(started.ruleset, seats, game_id=game_id, opening=opening)
    else:
        if not names:
            raise click.UsageError("Name the players with --players or --player.")
        created = backend.new_game(
            rules or "classic",
            seat_infos(names, ask, commanders),
            seed=parse_seed(seed),
            options=options,
            game_id=game_id,
        )
        game_id, invitations = created.game_id, created.invitations
    v = backend.view(game_id, None)
    players_names = [p["name"] for p in v["players"]]
    commanded = {p["seat"]: p["commander"] for p in v["players"] if p.get("commander")}
    kept = None  # where the owner's key went (the profile: not imported by local commands)
    if backend.remote:
        from risk_cli.profile import profile_path

        kept = str(profile_path())
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "rules": v["rules"],
                "players": players_names,
                "version": v["version"],
                "phase": v["phase"],
                "to_act": v["to_act"],
                **({"commanders": commanded} if commanded else {}),
                **({"profile": kept, "invitations": invitations} if kept else {}),
            }
        )
        return
    board = load_board(v["board"])
    n = render.Names(board, v["players"])
    seats_text = ", ".join(
        f"{n.seat(i)} (seat {i}" + (f", played by {commanded[i]})" if i in commanded else ")")
        for i in range(len(players_names))
    )
    click.echo(f"Created game {game_id} ({v['rules']}): {seats_text}.")
    if unverified_facts(board):
        from risk_cli.catalogue import facts_sentence

        click.echo(facts_sentence(board))  # GAP-nn: how much of the board is reconstructed
    click.echo(render.status_line(v, n))
    if kept:
        click.echo(f"You own this game: your owner key is in {kept}.")
        click.echo("Invitations, each good once (hand each player theirs, privately):")
        for seat, text in invitations.items():
            click.echo(f"  {n.seat(int(seat))}: {text}")
    if kept:  # through the service: the creator holds no seat's key until it joins one
        click.echo("Join your own seat with its invitation (risk join INVITATION), then see it")
        click.echo(f"with: risk show {game_id} --as SEAT")
    else:
        click.echo(f"See the board with: risk show {game_id} --as SEAT")


def seat_infos(
    names: list[str], ask: tuple[str, ...], commanders: Sequence[tuple[str, str]]
) -> list[str | SeatInfo]:
    """Player names, with the --ask seats choosing their own defence dice (ENG-06) and the
    --commander seats commanded by their player."""
    asking = {seat_of(names, ref) for ref in ask}
    commanding = commanders_of(names, commanders)
    return [
        SeatInfo(
            name=name,
            colour="",  # the rule set's, as for a plain name
            policy="ask" if i in asking else "auto",
            commander=commanding.get(i, msgspec.UNSET),
        )
        if i in asking or i in commanding
        else name
        for i, name in enumerate(names)
    ]


def scenario_events(
    path: Path,
    rules: str | None,
    names: list[str],
    seed: int | str | None,
    options: dict[str, OptionValue],
    ask: tuple[str, ...],
    commanders: Sequence[tuple[str, str]],
) -> list[Event]:
    """The opening events of a scenario file, command-line flags taking precedence."""
    from risk_core.scenario import MAX_SCENARIO_BYTES, bad, parse_scenario, scenario_opening

    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise click.BadParameter("use a .toml or .json file.", param_hint="--scenario")
    try:
        with path.open("rb") as file:  # a file without end (/dev/zero) is refused unread
            data = file.read(MAX_SCENARIO_BYTES + 1)
    except OSError as e:
        raise bad(f"Cannot read the scenario file: {e.strerror or e}.") from None
    parsed = parse_scenario(data, "toml" if suffix == ".toml" else "json")
    _, _, opening = scenario_opening(
        parsed, ruleset=rules, players=names or None, seed=seed, options=options
    )
    started = opening[0]
    if (ask or commanders) and isinstance(started, GameStarted):
        seat_names = [p.name for p in started.players]
        asking = {seat_of(seat_names, ref) for ref in ask}
        commanding = commanders_of(seat_names, commanders)
        seats = tuple(
            msgspec.structs.replace(
                p,
                policy="ask" if i in asking else p.policy,
                commander=commanding.get(i, p.commander),
            )
            for i, p in enumerate(started.players)
        )
        check_commanders(seats)  # the opening is made: the engine checked it without them
        opening[0] = msgspec.structs.replace(started, players=seats)
    return opening


def listed_json(summary: dict[str, Any]) -> dict[str, Any]:
    """A stored game's summary under the key names `new` and `show` use: ``rules`` and
    ``to_act`` (the seat the game waits for).  The summary's own ``ruleset`` and
    ``current_player`` (the same two values) stay, for the scripts that read them."""
    return {
        "game_id": summary["game_id"],
        "rules": summary["ruleset"],
        **summary,
        "to_act": summary["current_player"],
    }


@click.command()
@json_option
@pass_app
def games(app: App, as_json: bool) -> None:
    """List the stored games."""
    summaries = app.backend.games()
    if as_json:
        echo_json([listed_json(s) for s in summaries])
        return
    if not summaries:
        missing = None if app.redis_url else app.missing_store()
        if missing is not None and app.create:  # listing stores nothing: nothing to start
            click.echo(
                f"No games: there is no store at {missing} yet (`risk --create` starts one "
                "with the first game stored there: `new`, `demo` or `import`)."
            )
        elif missing is not None:  # `risk new` there needs --create
            click.echo(
                f"No games: there is no store at {missing} yet "
                "(`risk --create --store URL new ...` starts one there)."
            )
        else:
            click.echo("No games yet: start one with `risk new` or `risk demo`.")
        return
    click.echo(f"{'game':<24}{'rules':<18}{'version':>8}{'turn':>6}  {'phase':<11}players")
    for s in summaries:
        won, current = s["winner"], s["current_player"]
        marks = [
            f"{name}{' (won)' if i == won else ' (to play)' if i == current else ''}"
            for i, name in enumerate(s["players"])
        ]
        click.echo(
            f"{s['game_id']:<24}{s['ruleset']:<18}{s['version']:>8}{s['turn']:>6}  "
            f"{s['phase']:<11}" + ", ".join(marks)
        )


@click.command()
@game_argument
@as_option("See the board as this seat: its hand and mission are shown.")
@click.option(
    "--at",
    type=Version(),
    metavar="VERSION",
    help="The board after this many events (default: now).",
)
@turn_option()
@json_option
@pass_app
def show(
    app: App, game_id: str, as_seat: str | None, at: int | None, turn: int | None, as_json: bool
) -> None:
    """Show the board by continent, the players and whose turn it is.

    Without --as (or RISK_SEAT) you are a spectator and see no hand or mission.  --turn T
    shows the board at the start of turn T.
    """
    v = app.backend.view(game_id, as_seat, at=position(app.backend, game_id, at, turn))
    if as_json:
        echo_json({"game_id": game_id, **v})
    else:
        click.echo(render.board_text(game_id, v, load_board(v["board"]), viewer_seats(v, as_seat)))


def viewer_seats(v: dict[str, Any], ref: str | None) -> list[int] | None:
    """The seats whose secrets ``--as ref`` shows in the view ``v``: a seat, or all a player's
    seats (``risk_cli.common.seats_named``); None for a spectator."""
    return None if ref is None else seats_named(named_in_view(v["players"]), ref)


@click.command()
@game_argument
@as_option("Read the log as this seat: its own draws and mission are shown.")
@turn_option("Only turn TURN's events: from its turn_started to the next turn's.")
@json_option
@pass_app
def log(app: App, game_id: str, as_seat: str | None, turn: int | None, as_json: bool) -> None:
    """Print the game's history, one line per event.

    Cards drawn and missions stay hidden unless they are yours (--as).  --turn T prints turn
    T's events only.
    """
    shown = app.backend.events(game_id, as_seat)
    started = shown[0] if shown else {}
    if started.get("type") != "game_started":
        raise RiskError("bad_history", f"Game {game_id} does not begin with game_started.")
    first, last = 1, len(shown)
    if turn is not None:
        first, last = turn_span(turn_starts_json(shown), turn, len(shown), game_id)
    if as_json:
        if turn is None:
            echo_json({"game_id": game_id, "version": len(shown), "events": shown})
        else:
            events = shown[first - 1 : last]
            echo_json(
                {"game_id": game_id, "turn": turn, "from": first, "version": last, "events": events}
            )
        return
    names = render.Names(load_board(started["board"]), started["players"])
    for version, d in enumerate(shown[:last], start=1):
        line = render.event_line(d, names)  # every event, to follow who holds what
        if version >= first:
            click.echo(f"{version:>6}  {line}")
