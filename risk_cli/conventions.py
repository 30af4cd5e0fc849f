"""What every ``risk`` command does alike, wherever the command comes from (core or family).

* Errors: an engine or service error (``RiskError``) is ``Error: <message> [<code>]`` on
  standard error with status 1; a usage error is click's, status 2.  When the command line has
  ``--json`` (before any ``--``), the same errors are one JSON object on standard error,
  ``{"error": {"code": ..., "message": ...}}``, with the same status (a usage error's code is
  ``usage``).
* ``RISK_GAME``: the game of a command whose first argument is GAME (``common.game_argument``)
  when the command line leaves it out (``with_default_game`` says how that is told).
* ``NO_COLOR`` (set and not empty) turns colours off; ``--color``/``--no-color`` decide.
* An unknown game id gets "did you mean" the closest ids of the store (or of the profile).
* Completion of game ids and territory names (``risk_cli.completion``).

Nothing here imports the engine or the store: this module is loaded by every ``risk`` run, the
cheapest included (``risk --help``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

import click

GAME_ENV = "RISK_GAME"
JSON_FLAG = "--json"
_JSON_KEY = "risk.json_errors"  # in ctx.meta: the command line asked for JSON
_CODE = re.compile(r"^(?P<message>.*) \[(?P<code>[a-z][a-z0-9_]*)\]$", re.DOTALL)
USAGE_CODE = "usage"  # the code of a usage error in JSON (click's own errors have none)

# The arguments whose values are territory names, completed from the game's board.
TERRITORY_ARGUMENTS = frozenset({"territory_name", "origin", "target"})


# ----------------------------------------------------------------------------- errors
def wants_json(args: Sequence[str]) -> bool:
    """Whether the command line has ``--json`` among its options (not after ``--``)."""
    head = args[: args.index("--")] if "--" in args else args
    return JSON_FLAG in head


class JsonError(click.ClickException):
    """An error shown as ``{"error": {"code", "message"}}`` on standard error (status 1)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def show(self, file: IO[Any] | None = None) -> None:
        error = {"error": {"code": self.code, "message": self.message}}
        click.echo(json.dumps(error, ensure_ascii=False), file=file or sys.stderr)


class JsonUsageError(JsonError):
    """A usage error in JSON: status 2, as click gives its usage errors."""

    exit_code = 2


def as_json_error(err: click.ClickException) -> JsonError:
    """The JSON form of a click error: a usage error (status 2, code ``usage``), or an error
    whose message ends in ``[code]``."""
    if isinstance(err, JsonError):
        return err
    if isinstance(err, click.UsageError):
        return JsonUsageError(USAGE_CODE, err.format_message())
    found = _CODE.match(err.format_message())
    if found is None:
        return JsonError("error", err.format_message())
    return JsonError(found["code"], found["message"])


def _risk_error(err: BaseException) -> Any:
    """``err`` if it is an engine or service error (``RiskError``), else None.  The engine is
    not imported for this: an error it raised means it is loaded already."""
    errors = sys.modules.get("risk_core.errors")
    risk_error = getattr(errors, "RiskError", None)
    return err if risk_error is not None and isinstance(err, risk_error) else None


@contextmanager
def reported_errors(ctx: click.Context) -> Iterator[None]:
    """Turn what a command raises into the error it shows: text or, with --json, JSON."""
    as_json = bool(ctx.meta.get(_JSON_KEY))
    try:
        yield
    except click.ClickException as err:
        if as_json:
            raise as_json_error(err) from None
        raise
    except Exception as err:
        risk = _risk_error(err)
        if risk is not None:
            message = with_suggestion(ctx, risk.code, risk.message)
            if as_json:
                raise JsonError(risk.code, message) from None
            # ClickException prints to standard error and exits with status 1; the code is
            # the stable part scripts can match on.
            raise click.ClickException(f"{message} [{risk.code}]") from None
        if isinstance(err, RecursionError):
            # The last resort for input nested too deeply, read where no reader says so (the
            # readers of commands and scenario files do: bad_command, bad_scenario).  Nothing
            # was written: every store write comes after its input is read.
            message = "The input is nested too deeply to read."
            if as_json:
                raise JsonError("too_deep", message) from None
            raise click.ClickException(f"{message} [too_deep]") from None
        raise


# ----------------------------------------------------------------------------- did you mean
_UNKNOWN_GAME = re.compile(r"There is no game '(?P<game>[^']*)'")


def with_suggestion(ctx: click.Context, code: str, message: str) -> str:
    """``message``, and for an unknown game the closest game ids this user has."""
    found = _UNKNOWN_GAME.search(message) if code == "unknown_game" else None
    if found is None:
        return message
    from risk_cli.completion import game_ids

    close = closest(found["game"], game_ids(ctx))
    if not close:
        return message
    return f"{message} Did you mean {' or '.join(repr(g) for g in close)}?"


def closest(wanted: str, ids: Sequence[str], n: int = 3) -> list[str]:
    """The ids most like ``wanted``: the same but for case, those it begins, then by spelling."""
    import difflib

    key = wanted.casefold()
    same = [g for g in ids if g.casefold() == key]
    started = [g for g in ids if key and g.casefold().startswith(key) and g not in same]
    folded = {g.casefold(): g for g in ids}
    spelt = [folded[g] for g in difflib.get_close_matches(key, list(folded), n, 0.6)]
    out: list[str] = []
    for g in (*same, *started, *spelt):
        if g not in out and g != wanted:
            out.append(g)
    return out[:n]


# ----------------------------------------------------------------------------- colour
def use_colour(flag: bool | None) -> bool | None:
    """``ctx.color``: --color/--no-color if given; off when NO_COLOR is set and not empty
    (https://no-color.org); else None, click's own choice (colours on a terminal only)."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    return None


# ----------------------------------------------------------------------------- RISK_GAME
def with_default_game(
    ctx: click.Context, name: str, command: click.Command, args: list[str]
) -> list[str]:
    """``args`` with ``$RISK_GAME`` put first when the command's GAME was left out.

    Only for a command whose first argument is a GAME (``common.game_argument``).  The command
    line is counted, not guessed at: fewer words than the command needs with a GAME means the
    GAME was left out; as many as it can take means it was given.  In between (a command with
    optional arguments, such as `risk place GAME TERRITORY [COUNT]`), the first word is the
    GAME only if it is the id of a game in the store (or the profile, with --redis).
    """
    game = os.environ.get(GAME_ENV, "").strip()
    if not game or game.startswith("-"):
        return args
    arguments = [p for p in command.get_params(ctx) if isinstance(p, click.Argument)]
    if not arguments or not getattr(arguments[0], "is_game", False):
        return args
    given = _positionals(ctx, name, command, args)
    if given is None:
        return args  # the command line is wrong anyway: let the command say how
    words, first = given
    if ctx.resilient_parsing:
        words += 1  # completing: the word being typed counts (`risk show fr<Tab>` is a GAME)
    least = sum(max(p.nargs, 1) for p in arguments if p.required)
    most = None if any(p.nargs < 0 for p in arguments) else sum(p.nargs for p in arguments)
    if words < least:
        return [game, *args]
    if most is not None and words >= most:
        return args
    from risk_cli.completion import game_ids

    return args if first in game_ids(ctx) else [game, *args]


def _positionals(
    ctx: click.Context, name: str, command: click.Command, args: list[str]
) -> tuple[int, str | None] | None:
    """How many words of ``args`` are arguments (not options), and the first; None if the
    options cannot be read (or help is asked for)."""
    if any(a in ctx.help_option_names for a in args):
        return None
    probe = click.Context(command, parent=ctx, info_name=name, resilient_parsing=True)
    try:
        opts, extra, _ = command.make_parser(probe).parse_args(args=list(args))
    except click.UsageError:
        return None
    words: list[str] = []
    for param in command.get_params(probe):
        if isinstance(param, click.Argument) and param.name is not None:
            value = opts.get(param.name)
            values = value if isinstance(value, tuple | list) else (value,)
            words.extend(v for v in values if isinstance(v, str))  # not a "missing" marker
    words.extend(extra)
    return len(words), (words[0] if words else None)


class ConventionsGroup(click.Group):
    """A group whose commands follow the conventions above."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_JSON_KEY] = wants_json(args)
        with reported_errors(ctx):
            return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and name is not None:
            rest = with_default_game(ctx, name, command, rest)
        return name, command, rest


# ----------------------------------------------------------------------------- completion
def add_completion(command: click.Command) -> None:
    """Complete the command's territory arguments (TERRITORY, FROM, TO) from the game's board,
    unless the command completes them its own way."""
    for param in command.params:
        if (
            isinstance(param, click.Argument)
            and param.name in TERRITORY_ARGUMENTS
            and type(param.type) is click.types.StringParamType
            and getattr(param, "_custom_shell_complete", None) is None
        ):
            from risk_cli.completion import TERRITORY

            param.type = TERRITORY
