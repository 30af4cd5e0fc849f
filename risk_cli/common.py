"""What every command shares: the backend (local store or remote service), the --json and --as
options, seat and player lookup.

``--as`` names a seat or a player (``risk_core.seats``): a seat number means exactly that seat;
a name means the player of that name (all the seats it commands; a seat without a commander is
its own player), else the seat of that name (a seat commanded by another player).  A player's
view shows what any of its seats sees; its moves act for the one of its seats that must act.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

# The engine and the store are imported where they are used: `risk --help` and the commands
# that need neither stay cheap to start (tests/test_startup.py).
if TYPE_CHECKING:
    from risk_cli.backend import Backend
    from risk_core import GameState
    from risk_service import GameService


# Why the commands that read a whole game (`odds`, `near`, `simulate`, `branch`…) are not
# offered through the service, and how to run them on a finished game of it.
WHOLE_GAME = (
    "it reads the whole game, hands and dice seed included, which the service gives no player; "
    "a finished game of the service comes to your store with `risk export GAME -o FILE`, then "
    "`risk import FILE`"
)


class App:
    """Per-invocation context: the store URL, the service's Redis URL, and once a command needs
    it, the backend: the local store (``GameService``) or the remote service."""

    def __init__(
        self, store: str | None, redis_url: str | None = None, *, create: bool = False
    ) -> None:
        self.store = store
        self.redis_url = redis_url
        self.create = create  # --create: a missing store named by --store may be started
        self._service: GameService | None = None
        self._backend: Backend | None = None
        self._started: str | None = None  # the URL of a store this command started
        self._created: Path | None = None  # the SQLite file of a store this command started
        self._new_folders: list[Path] = []  # and the folders it made for it, deepest first

    @property
    def service(self) -> GameService:
        # Opened lazily so that `risk rules`, `risk boards` and `--help` never touch a store.
        if self._service is None:
            self._service = self._open()
        return self._service

    def _open(self) -> GameService:
        """The store, started only where the user asked for one: the default store (folder and
        all) on first use, any other only with ``--create``; a missing store named otherwise
        is ``bad_store`` naming the path, so a mistyped path never starts an empty store."""
        from risk_service import GameService, ServiceError

        path = self.missing_store()
        if path is not None and not self.create:
            raise ServiceError(
                "bad_store",
                f"There is no store at {path}: check --store or RISK_STORE, or add --create "
                "(`risk --create --store URL new ...`) to start one there.",
            )
        service = GameService(self._url(), create=True)
        ctx = click.get_current_context(silent=True)
        try:
            service.create_schema()
        except BaseException:
            service.close()
            raise
        self._created = path
        if path is not None and ctx is not None and not ctx.params.get("as_json"):
            self._started = service.store_url  # said once the command has succeeded
        return service

    def _url(self) -> str | None:
        return self.store if self.store is not None else os.environ.get("RISK_STORE")

    def keeps_nothing(self) -> bool:
        """Whether the store is ``memory://``, which ends with the command (no hint to look at
        a game again there)."""
        from risk_service.stores import parse_store

        return not self.redis_url and parse_store(self._url()).kind == "memory"

    def missing_store(self) -> Path | None:
        """The path of the SQLite store named, if it is not the default one and does not
        exist yet (None otherwise); ``bad_store`` for a URL that names no store."""
        from risk_service import ServiceError
        from risk_service.stores import check_sqlite_file, is_default_sqlite, parse_store

        try:
            path = parse_store(self._url()).path
            if path is None or is_default_sqlite(path):
                return None
            # A SQLite file, or a place to start one: an existing folder (--create: any).
            made = [d for d in path.parents if not d.exists()]
            check_sqlite_file(path, create=True, folders=self.create)
            self._new_folders = self._new_folders or made  # removed with the store (close)
        except ValueError as e:
            raise ServiceError("bad_store", str(e)) from None
        return None if path.exists() else path

    @property
    def backend(self) -> Backend:
        """Where games are read and moved: the service with --redis, else the local store."""
        if self._backend is None:
            from risk_cli.backend import LocalBackend, RemoteBackend

            self._backend = RemoteBackend(self.redis_url) if self.redis_url else LocalBackend(self)
        return self._backend

    def local_service(self, what: str, why: str = "", *, whole_game: bool = False) -> GameService:
        """The local store, for commands the remote service does not offer (``why``: what the
        refusal adds, e.g. how to do it otherwise; ``whole_game``: it reads every secret)."""
        why = WHOLE_GAME if whole_game else why
        from risk_core import RiskError

        if self.redis_url:
            raise RiskError(
                "local_only",
                f"{what} works on a store of your own, not through the service (run it without "
                f"--redis, RISK_REDIS_URL unset){': ' + why if why else ''}.",
            )
        return self.service

    def close(self) -> None:
        # Called when the command's context closes: an exception being handled then is the
        # command's failure, after which no new store is announced, and a store it started
        # that holds no game is removed again (a refused import leaves nothing behind).
        failure = sys.exc_info()[1]
        if isinstance(failure, click.exceptions.Exit) and failure.exit_code == 0:
            failure = None
        empty = False
        if failure is not None and self._created is not None and self._service is not None:
            try:
                empty = not self._service.games()
            except Exception:  # noqa: BLE001  (unreadable: keep it for the user to look at)
                empty = False
        if self._backend is not None:
            self._backend.close()
        if self._service is not None:
            self._service.close()
        if empty and self._created is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self._created}{suffix}").unlink(missing_ok=True)
        if empty or (failure is not None and self._service is None):
            for folder in self._new_folders:  # made for a store that is not there
                try:
                    folder.rmdir()
                except OSError:  # something else was put there meanwhile: kept
                    break
        if self._started is not None and failure is None:
            click.echo(f"Started a new store {self._started}.", err=True)


pass_app = click.make_pass_decorator(App)
F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print only JSON on standard output."
)


class GameArgument(click.Argument):
    """GAME, a game id: completed from the store (or the profile, with --redis); left out when
    ``RISK_GAME`` names the game (``risk_cli.conventions.with_default_game`` says how a GAME
    left out is told from one given).  Put it first among a command's arguments."""

    is_game = True

    def __init__(self, param_decls: Sequence[str], **kwargs: Any) -> None:
        kwargs.setdefault("metavar", "GAME")
        kwargs.setdefault("shell_complete", _complete_game)
        super().__init__(param_decls, **kwargs)

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        """The game id; and before the command runs, the rules and family texts that game
        needs (``risk_cli.main.RiskGroup.install_game_family``: that game's family alone when
        its rule set can be read cheaply, else every family)."""
        value = super().process_value(ctx, value)
        install = getattr(ctx.find_root().command, "install_game_family", None)
        if install is not None and not ctx.resilient_parsing:
            install(ctx.find_root(), value if isinstance(value, str) else None)
        return value


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    from risk_cli.completion import complete_games

    return complete_games(ctx, incomplete)


game_argument = click.argument("game_id", cls=GameArgument)


def as_option(help: str, required: bool = False) -> Callable[[F], F]:
    return click.option(
        "--as",
        "as_seat",
        metavar="SEAT",
        envvar="RISK_SEAT",
        show_envvar=True,
        required=required,
        help=help + " SEAT is a seat number, a seat's name or a player's name (all its seats).",
    )


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def seat_of(names: list[str], ref: str) -> int:
    """The seat a reference names: its number, or a seat's name in any case.  Seat names only:
    a player commanding several seats is resolved by ``seats_named``."""
    from risk_core import RiskError
    from risk_core.names import whole_number

    number = whole_number(ref)
    if number is not None and number < len(names):
        return number
    for i, name in enumerate(names):
        if name.casefold() == ref.casefold():
            return i
    seats = ", ".join(f"{i} {name}" for i, name in enumerate(names))
    raise RiskError("unknown_seat", f"No seat {ref!r} in this game (seats: {seats}).")


# A seat as the command line names it: (seat name, its player's name).
Named = tuple[str, str]


def named_seats(state: GameState) -> list[Named]:
    from risk_core.seats import commander_of

    return [(p.name, commander_of(state, i)) for i, p in enumerate(state.players)]


def named_in_view(players: Sequence[dict[str, Any]]) -> list[Named]:
    """The seats of a view's (or a ``game_started`` event's) ``players``."""
    return [(p["name"], p.get("commander") or p["name"]) for p in players]


def seats_named(seats: Sequence[Named], ref: str) -> list[int]:
    """The seats ``ref`` stands for: a seat number; a player's name (its seats), any case; or
    a seat's name (a seat commanded by another player); else ``unknown_seat``."""
    from risk_core import RiskError
    from risk_core.names import whole_number

    number = whole_number(ref)
    if number is not None and number < len(seats):
        return [number]
    key = ref.casefold()
    for field in (1, 0):  # players first: a seat without a commander is its own player
        found = [i for i, s in enumerate(seats) if s[field].casefold() == key]
        if found:
            return found
    listed = ", ".join(f"{i} {name}" for i, (name, _) in enumerate(seats))
    commanders = sorted({player for name, player in seats if player != name})
    more = f"; players: {', '.join(commanders)}" if commanders else ""
    raise RiskError("unknown_seat", f"No seat {ref!r} in this game (seats: {listed}{more}).")


def acting_seat(seats: Sequence[Named], mine: list[int], acting: int | None) -> int:
    """The seat of ``mine`` (the seats ``--as`` named) that moves now: the only one, or the one
    that must act (``not_your_turn`` naming the seat that must act when none of them must)."""
    if len(mine) == 1:
        return mine[0]  # the rules decide (some moves are allowed out of turn)
    from risk_core import RuleError

    if acting is None:
        raise RuleError("game_over", "The game is over.")
    if acting in mine:
        return acting
    player = seats[mine[0]][1]
    own = ", ".join(f"{seats[i][0]} (seat {i})" for i in mine)
    raise RuleError(
        "not_your_turn",
        f"It is {seats[acting][0]}'s move (seat {acting}), not one of {player}'s seats: {own}.",
    )


def viewer(state: GameState, ref: str | None) -> int | None:
    """The one seat whose eyes to use; None (no --as) is a spectator who sees no secrets.  A
    player commanding several seats gives the one that must act, else its first."""
    from risk_core import to_act

    if ref is None:
        return None
    named = named_seats(state)
    mine = seats_named(named, ref)
    acting = to_act(state)
    return acting if len(mine) > 1 and acting in mine else mine[0]


class OutputFile(click.Path):
    """A file ``-o`` writes: a file, not a folder, in a folder that exists (a usage error names
    the missing folder, where writing would fail with a traceback).  ``-`` is standard output
    (None) where the command can write there (``stdout``), else a usage error: never a file
    named ``-``."""

    def __init__(self, *, stdout: bool = False) -> None:
        super().__init__(dir_okay=False, writable=True, path_type=Path)
        self.stdout = stdout

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-":
            if self.stdout:
                return None
            self.fail("give a file name, not '-' (this writes a file only).", param, ctx)
        path = super().convert(value, param, ctx)
        assert isinstance(path, Path)  # (``path_type``)
        folder = path.parent
        if not folder.is_dir():
            self.fail(f"there is no folder {str(folder)!r} to write it in.", param, ctx)
        return path
