"""``risk demo``: a whole seeded game between computer players, stored like any other."""

from __future__ import annotations

import hashlib
import sys

import click
import msgspec
from tqdm import tqdm  # type: ignore[import-untyped]  # no stubs shipped

from risk_cli import render
from risk_cli.common import App, echo_json, json_option, pass_app
from risk_cli.play import play_game
from risk_core import Event, GameState, RiskError, bots, encode, load_board
from risk_core.model import GameStarted, GameWon
from risk_core.rulesets import get as get_ruleset
from risk_core.views import view, visible_event

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


def player_names(n: int) -> list[str]:
    """``n`` distinct names, NAMES first: never fewer than asked, so that a count the rule set
    does not seat is refused (``bad_players``) rather than a shorter list being played."""
    return [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(n)]


def digest(events: list[Event]) -> str:
    """Fingerprint of a whole history: equal for equal games, whatever their ids.

    The opening names its game (and binds the seed commitment to that name), so those two
    fields are blanked before hashing.
    """
    anonymous = [
        msgspec.structs.replace(e, game_id="", commitment="") if isinstance(e, GameStarted) else e
        for e in events
    ]
    return "sha256:" + hashlib.sha256(encode(anonymous)).hexdigest()


@click.command()
@click.option("--rules", default="classic", show_default=True, help="Rule set to play.")
@click.option(
    "--players",
    "count",
    type=click.IntRange(1),
    metavar="N",
    help="Number of players (default 4, or the nearest the rule set allows).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of game and bots.")
@click.option(
    "--level",
    type=click.Choice(bots.LEVELS),
    default="greedy",
    show_default=True,
    help="How the computer players play.",
)
@click.option(
    "--max-turns",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Give up on a game still running after this many turns.",
)
@json_option
@pass_app
@click.pass_context
def demo(
    ctx: click.Context,
    app: App,
    rules: str,
    count: int | None,
    seed: int,
    level: str,
    max_turns: int,
    as_json: bool,
) -> None:
    """Play a whole game between computer players and show the result.

    The game is stored like any other, so `risk show` and `risk log` can inspect it.

    The same seed always plays the same game: compare the digest of `--json`.
    """
    rs = get_ruleset(rules)
    n = count if count is not None else min(max(4, rs.min_players), rs.max_players)
    if n > rs.max_players:  # refused before a name is made for each of them
        raise RiskError(
            "bad_players", f"{rs.name} is for {rs.min_players}–{rs.max_players} players, not {n}."
        )
    service = app.local_service("risk demo")
    game_id = service.new_game(rules, player_names(n), seed=seed)
    with tqdm(
        desc=f"{rules} game {game_id}",
        unit=" turns",
        disable=not sys.stdout.isatty(),
        leave=False,
    ) as bar:

        def on_turn(state: GameState) -> None:
            bar.update(1)

        state = play_game(
            service, game_id, level=level, seed=seed, max_turns=max_turns, on_turn=on_turn
        )
    events = service.events(game_id)
    v = view(state, None)
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "rules": rules,
                "winner": state.winner,
                "turns": state.turn,
                "events": len(events),
                "digest": digest(events),
            }
        )
        return
    names = render.Names(load_board(state.board), v["players"])
    won = render.event_line(
        visible_event(next(e for e in reversed(events) if isinstance(e, GameWon)), None), names
    )
    took = f"{render.plural(state.turn, 'turn')} and {render.plural(len(events), 'event')}"
    click.echo(f"{won}\nThe game took {took}.\n")
    click.echo(render.standings_text(v))
    if app.keeps_nothing():
        click.echo(f"\nGame id: {game_id} (a memory:// store keeps nothing after this command).")
        return
    store = _store_flag(ctx, app)
    click.echo(f"\nGame id: {game_id}\nReplay or inspect it:")
    half = len(events) // 2
    hints = [
        (f"risk{store} show {game_id}", "the final board"),
        (f"risk{store} log {game_id}", "every event"),
        (f"risk{store} show {game_id} --at {half}", f"the board after {half} events"),
    ]
    width = max(len(command) for command, _ in hints)
    for command, what in hints:
        click.echo(f"  {command:<{width}}   # {what}")


def _store_flag(ctx: click.Context, app: App) -> str:
    """`--store URL` for the hints when the store came from the command line, not the env."""
    source = ctx.find_root().get_parameter_source("store")
    if app.store is None or source != click.core.ParameterSource.COMMANDLINE:
        return ""
    return f" --store {app.store}"
