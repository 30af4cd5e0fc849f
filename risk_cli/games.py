"""Creating, listing, showing and reading the log of stored games."""

from __future__ import annotations

from pathlib import Path

import click
import msgspec

from risk_cli import render
from risk_cli.common import (
    App,
    as_option,
    echo_json,
    game_argument,
    json_option,
    pass_app,
    seat_of,
)
from risk_cli.profile import profile_path
from risk_core import Event, RiskError, SeatInfo, load_board
from risk_core.model import GameStarted, OptionValue
from risk_core.rulesets.base import COLOURS
from risk_core.scenario import parse_scenario, scenario_opening


def parse_seed(text: str | None) -> int | str | None:
    """Digits are a number seed; any other text is hashed by the engine."""
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def parse_options(pairs: tuple[str, ...]) -> dict[str, OptionValue]:
    # Values stay strings: the rule set converts and checks them against each option's type.
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not key=value.", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


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
    as_json: bool,
) -> None:
    """Start a new game and print its id."""
    names = player_names(players, player)
    options = parse_options(option_pairs)
    backend = app.backend
    if scenario is not None:
        service = app.local_service("--scenario")
        opening = scenario_events(scenario, rules, names, parse_seed(seed), options, ask)
        started = opening[0]
        assert isinstance(started, GameStarted)
        # Seat names from the opening itself: it also lists neutral seats (the 2p ally).
        seats = [p.name for p in started.players]
        game_id = service.new_game(started.ruleset, seats, game_id=game_id, opening=opening)
    else:
        if not names:
            raise click.UsageError("Name the players with --players or --player.")
        game_id = backend.new_game(
            rules or "classic",
            seat_infos(names, ask),
            seed=parse_seed(seed),
            options=options,
            game_id=game_id,
        ).game_id
    v = backend.view(game_id, None)
    players_names = [p["name"] for p in v["players"]]
    kept = str(profile_path()) if backend.remote else None  # where the seat tokens went
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "rules": v["rules"],
                "players": players_names,
                "version": v["version"],
                "phase": v["phase"],
                "to_act": v["to_act"],
                **({"profile": kept} if kept else {}),
            }
        )
        return
    n = render.Names(load_board(v["board"]), v["players"])
    seats_text = ", ".join(f"{n.seat(i)} (seat {i})" for i in range(len(players_names)))
    click.echo(f"Created game {game_id} ({v['rules']}): {seats_text}.")
    click.echo(render.status_line(v, n))
    if kept:
        click.echo(f"Seat and owner tokens saved in {kept} (hand each player theirs).")
    click.echo(f"See the board with: risk show {game_id} --as SEAT")


def seat_infos(names: list[str], ask: tuple[str, ...]) -> list[str | SeatInfo]:
    """Player names, with the --ask seats choosing their own defence dice (ENG-06)."""
    asking = {seat_of(names, ref) for ref in ask}
    return [
        SeatInfo(name=name, colour=COLOURS[i], policy="ask") if i in asking else name
        for i, name in enumerate(names)
    ]


def scenario_events(
    path: Path,
    rules: str | None,
    names: list[str],
    seed: int | str | None,
    options: dict[str, OptionValue],
    ask: tuple[str, ...],
) -> list[Event]:
    """The opening events of a scenario file, command-line flags taking precedence."""
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise click.BadParameter("use a .toml or .json file.", param_hint="--scenario")
    parsed = parse_scenario(path.read_bytes(), "toml" if suffix == ".toml" else "json")
    _, _, opening = scenario_opening(
        parsed, ruleset=rules, players=names or None, seed=seed, options=options
    )
    started = opening[0]
    if ask and isinstance(started, GameStarted):
        asking = {seat_of([p.name for p in started.players], ref) for ref in ask}
        seats = tuple(
            msgspec.structs.replace(p, policy="ask") if i in asking else p
            for i, p in enumerate(started.players)
        )
        opening[0] = msgspec.structs.replace(started, players=seats)
    return opening


@click.command()
@json_option
@pass_app
def games(app: App, as_json: bool) -> None:
    """List the stored games."""
    summaries = app.backend.games()
    if as_json:
        echo_json(summaries)
        return
    if not summaries:
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
    "--at", type=int, metavar="VERSION", help="The board after this many events (default: now)."
)
@json_option
@pass_app
def show(app: App, game_id: str, as_seat: str | None, at: int | None, as_json: bool) -> None:
    """Show the board by continent, the players and whose turn it is.

    Without --as (or RISK_SEAT) you are a spectator and see no hand or mission.
    """
    v = app.backend.view(game_id, as_seat, at=at)
    seat = None if as_seat is None else seat_of([p["name"] for p in v["players"]], as_seat)
    if as_json:
        echo_json({"game_id": game_id, **v})
    else:
        click.echo(render.board_text(game_id, v, load_board(v["board"]), seat))


@click.command()
@game_argument
@as_option("Read the log as this seat: its own draws and mission are shown.")
@json_option
@pass_app
def log(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """Print the game's history, one line per event.

    Cards drawn and missions stay hidden unless they are yours (--as).
    """
    shown = app.backend.events(game_id, as_seat)
    started = shown[0] if shown else {}
    if started.get("type") != "game_started":
        raise RiskError("bad_history", f"Game {game_id} does not begin with game_started.")
    if as_json:
        echo_json({"game_id": game_id, "version": len(shown), "events": shown})
        return
    names = render.Names(load_board(started["board"]), started["players"])
    for version, d in enumerate(shown, start=1):
        click.echo(f"{version:>6}  {render.event_line(d, names)}")
