"""The ``risk`` command group: global options, error translation, and the command list."""

from __future__ import annotations

from typing import Any

import click

from risk_cli import audit, catalogue, demo, games, history, moves, napoleon_moves, service
from risk_cli.common import App
from risk_core import RiskError


class RiskGroup(click.Group):
    """A group that reports engine and service errors as ``Error: <message> [<code>]``."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RiskError as err:
            # ClickException prints to standard error and exits with status 1; the code is
            # the stable part scripts can match on.
            raise click.ClickException(f"{err.message} [{err.code}]") from None


@click.group(cls=RiskGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    envvar="RISK_STORE",
    show_envvar=True,
    metavar="URL",
    help="Where games are kept (default: a SQLite file under $XDG_DATA_HOME/risk).",
)
@click.option(
    "--redis",
    "redis_url",
    envvar="RISK_REDIS_URL",
    show_envvar=True,
    metavar="URL",
    help="Play through the multiplayer service at this Redis (see `risk serve`).",
)
@click.version_option(package_name="risk-engine", message="risk %(version)s")
@click.pass_context
def cli(ctx: click.Context, store: str | None, redis_url: str | None) -> None:
    """Play Risk from the command line: every move is stored and can be replayed.

    Start with `risk demo`, or `risk new --players "Ann,Bob,Cy"` and `risk show GAME`.
    """
    app = App(store, redis_url)
    ctx.obj = app
    ctx.call_on_close(app.close)


for command in (
    games.new,
    games.games,
    games.show,
    moves.place,
    moves.trade,
    moves.attack,
    moves.defend,
    moves.occupy,
    moves.fortify,
    moves.end,
    *napoleon_moves.COMMANDS,
    moves.submit,
    moves.bot,
    games.log,
    history.replay,
    history.branch,
    history.tree,
    history.diff,
    history.stats,
    audit.audit,
    audit.export,
    audit.import_,
    catalogue.rules,
    catalogue.boards,
    catalogue.schema,
    demo.demo,
    service.worker,
    service.serve,
    service.wait,
    service.inbox,
    service.admin,
    service.join,
):
    cli.add_command(command)
