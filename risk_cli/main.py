"""The ``risk`` command group: global options, error translation, and the command list.

The command list is the core verbs, then every rule family's own (``risk_cli.families``).
Plug-in families (``RISK_FAMILIES``, the ``risk.families`` entry points) are loaded when the
service is first imported (``risk_service.mapper``), which the imports below do.  Either
failing is reported as ``Error: <message> [<code>]`` with status 1, like any other error, never
as a traceback: a plug-in that cannot be imported ends the program here (nothing can run
without the service); a family whose verbs or texts cannot be added fails every invocation.
"""

from __future__ import annotations

from typing import Any

import click
from redis.connection import parse_url

from risk_core import RiskError

try:
    from risk_cli import analysis, audit, catalogue, demo, families, games, history, moves, service
    from risk_cli.common import App
    from risk_cli.mapview import map_
except RiskError as err:  # a plug-in family that cannot be loaded
    raise SystemExit(f"Error: {err.message} [{err.code}]") from None


class RiskGroup(click.Group):
    """A group that reports engine and service errors as ``Error: <message> [<code>]``."""

    # Why the rule families' verbs could not be added; then every invocation reports it.
    family_error: RiskError | None = None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if self.family_error is not None:
            err = self.family_error
            raise click.ClickException(f"{err.message} [{err.code}]")
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RiskError as err:
            # ClickException prints to standard error and exits with status 1; the code is
            # the stable part scripts can match on.
            raise click.ClickException(f"{err.message} [{err.code}]") from None
        except RecursionError:
            # The last resort for input nested too deeply, read where no reader says so (the
            # readers of commands and scenario files do: bad_command, bad_scenario).  Nothing
            # was written: every store write comes after its input is read.
            raise click.ClickException(
                "The input is nested too deeply to read. [too_deep]"
            ) from None


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
@click.option(
    "--create",
    is_flag=True,
    help="Start the store named by --store if it does not exist yet (folders included); "
    "the default store is always started on first use.",
)
@click.version_option(package_name="risk-engine", message="risk %(version)s")
@click.pass_context
def cli(ctx: click.Context, store: str | None, redis_url: str | None, create: bool) -> None:
    """Play Risk from the command line: every move is stored and can be replayed.

    Start with `risk demo`, or `risk new --players "Ann,Bob,Cy"` and `risk show GAME`.
    """
    if redis_url:
        try:
            parse_url(redis_url)  # what redis-py checks when it connects, without connecting
        except ValueError as e:
            raise RiskError("bad_redis_url", f"Not a Redis URL: {redis_url!r} ({e}).") from None
    app = App(store, redis_url, create=create)
    ctx.obj = app
    ctx.call_on_close(app.close)


for command in (
    games.new,
    games.games,
    games.show,
    map_,
    moves.place,
    moves.trade,
    moves.attack,
    moves.defend,
    moves.occupy,
    moves.fortify,
    moves.end,
    moves.submit,
    moves.bot,
    games.log,
    analysis.odds,
    analysis.near,
    analysis.moves,
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

try:
    families.install(cli)  # every rule family's verbs and event texts, after the core's
except RiskError as err:  # reported when `risk` runs: importing this module does not fail
    cli.family_error = err
