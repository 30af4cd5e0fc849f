"""The ``risk`` command group: global options, error translation, and the command list.

Start-up is kept cheap: ``risk --help`` lists the commands from the table below without
importing them, and a command's module is imported only when that command runs (``CommandTable``).
Rule families add verbs of their own (``risk_cli.families``): the built-in families' verbs are in
the table too, so that ``--help`` names them.  Before a command runs, what it shows needs its
family's texts and notes: a command that names one game (its GAME argument) installs that
game's rule set and family only, when the game's rule set can be read cheaply (a local SQLite
store, no plug-in named); any other command installs every family (plug-ins from
``RISK_FAMILIES`` and the ``risk.families`` entry points included), and an unknown verb is
looked up among them.  A family that cannot be loaded, or whose verbs or texts clash, is
reported as ``Error: <message> [<code>]`` with status 1, like any other error, never as a
traceback.

The conventions every command shares live here too: with ``--json`` an error is JSON on standard
error (``risk_cli.conventions``); ``RISK_GAME`` stands for a GAME argument left out
(``risk_cli.common.game_argument``); ``NO_COLOR`` and ``--color/--no-color``; "did you mean" for
an unknown game; shell completion (``risk_cli.completion``).
"""

# ruff: noqa: E501  (the command table: one line per command, its short help in full)

from __future__ import annotations

import os
from collections.abc import Iterator, MutableMapping
from typing import Any

import click

from risk_cli import conventions

# ----------------------------------------------------------------------------- the command list
# name → ("module:attribute", the short help `risk --help` shows).  To add a command, add one
# line here (tests/test_startup.py checks that each entry loads and that its help is the
# command's own first sentence).
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("risk_cli.games:new", "Start a new game and print its id."),
    "games": ("risk_cli.games:games", "List the stored games."),
    "show": ("risk_cli.games:show", "Show the board by continent, the players and whose turn it is."),
    "map": ("risk_cli.mapview:map_", "Draw the board: territories, borders, sea links (dashed), owners, armies, the last move."),
    "place": ("risk_cli.moves:place", "Place COUNT armies (default 1) on TERRITORY."),
    "trade": ("risk_cli.moves:trade", 'Trade three cards, given by id, territory name or "joker".'),
    "attack": ("risk_cli.moves:attack", "Attack TO from FROM (territory ids or names)."),
    "defend": ("risk_cli.moves:defend", "Answer a pending attack with DICE defence dice (1 or 2)."),
    "occupy": ("risk_cli.moves:occupy", "Move COUNT armies into the territory just conquered."),
    "fortify": ("risk_cli.moves:fortify", "Move COUNT armies from FROM to TO; this free move ends the turn."),
    "end": ("risk_cli.moves:end", "End the turn without a free move."),
    "submit": ("risk_cli.moves:submit", "Submit any command as JSON (`-` reads it from standard input)."),
    "bot": ("risk_cli.moves:bot", "Let the computer play a seat until someone else must act, or with --all every seat (local store only; on the service, the game owner hands a seat to the computer with `risk admin GAME bot SEAT`)."),
    "log": ("risk_cli.games:log", "Print the game's history, one line per event."),
    "odds": ("risk_cli.analysis:odds", "Exact odds of attacking TO from FROM: one battle, and attacking until TO falls or FROM is down to --stop-at (CORE-14..16, from the dice rules, never simulated)."),
    "near": ("risk_cli.analysis:near", "TERRITORY's neighbours with owner, armies and edge (border or sea), by the rule set's attack graph for the seat to act (CORE-13)."),
    "moves": ("risk_cli.analysis:moves", "What this seat may do now, grouped: trades, placements, attacks, fortify, family moves."),
    "replay": ("risk_cli.history:replay", "Replay a game event by event, up to any version."),
    "branch": ("risk_cli.history:branch", "Start a new game from another game's position at any version."),
    "tree": ("risk_cli.history:tree", "Show a game's family: its parent chain up to the root and all its branches."),
    "diff": ("risk_cli.history:diff", "Compare two games' positions: owners, armies, cards, phase and turn."),
    "stats": ("risk_cli.history:stats", "Show how lucky each seat was with the dice."),
    "audit": ("risk_cli.audit:audit", "Check a game: re-execute every command from the seed and compare every event."),
    "export": ("risk_cli.audit:export", "Write a game's whole history to one self-contained file (JSON Lines)."),
    "import": ("risk_cli.audit:import_", "Recreate a game from an export file, once all of it checks out."),
    "rules": ("risk_cli.catalogue:rules", "List the rule sets, or one rule set's options and phases."),
    "boards": ("risk_cli.catalogue:boards", "List the boards shipped with the engine."),
    "schema": ("risk_cli.catalogue:schema", "Print the JSON Schema of every command and event (always JSON)."),
    "demo": ("risk_cli.demo:demo", "Play a whole game between computer players and show the result."),
    "worker": ("risk_cli.service:worker", "Serve requests from Redis (--redis) on the store (--store) until stopped."),
    "serve": ("risk_cli.service:serve", "Run the multiplayer service: workers, and without --redis an embedded Redis."),
    "wait": ("risk_cli.service:wait", "Block until SEAT must act in GAME (or the game ends); exit 1 on --timeout."),
    "inbox": ("risk_cli.service:inbox", "List the games of your profile waiting for one of your seats, with their deadlines."),
    "notify": ("risk_cli.notify:notify", "Run CMD each time a game of your profile comes to one of your seats."),
    "admin": ("risk_cli.service:admin", "Owner actions: `bot SEAT` hands a seat to the computer (its key stops working), `human SEAT` gives it back to a player with a new invitation (as `risk invite SEAT --renew`), `deadline DURATION` sets the turn deadline: seconds (90) or units (2d, 1h, 30m, 90s, 1h30m); `deadline off` removes it."),
    "invite": ("risk_cli.access:invite", "Print the invitation to SEAT (a number or name) of GAME, which you created."),
    "join": ("risk_cli.access:join", "Claim the seat of an INVITATION (GAME:SEAT:SECRET, from the game's owner)."),
    "setup-redis": ("risk_cli.access:setup_redis", "Create the service's Redis users on your own server (--redis: an administrator's URL)."),
    "simulate": ("risk_cli.whatif:simulate", "Play many futures of a position with bots and new dice, and report each seat's chances."),
    "compare": ("risk_cli.whatif:compare", "Simulate two positions side by side: each seat's chances and whether they differ."),
    "view": ("risk_cli.webview.command:view", "Show a game in your web browser: its map, replay, log, branches, charts and luck."),
    # Add a new command above this line: "verb": ("risk_cli.module:function", "Short help."),
}  # fmt: skip

# The built-in rule families' verbs (their rule sets' ``cli_module``), so that `risk --help`
# names them without importing the rule sets; loading one installs its whole family.
# tests/test_startup.py checks that this is exactly what the built-in families provide.
FAMILY_COMMANDS: dict[str, tuple[str, str]] = {
    "give": ("risk_cli.napoleon_moves:give", 'Give CARD (id, territory name or "joker") to INDEPENDENT: napoleon-2p, active, and napoleon-1796.'),
    "reinforce-ally": ("risk_cli.napoleon_moves:reinforce_ally", "Take ALLY's reinforcements now, then place them: a die in napoleon-2p, active (NAP-2PA-06), its income in napoleon-1796."),
    "ally-move": ("risk_cli.napoleon_moves:ally_move", "An ally's free maneuver from FROM to TO: napoleon-2p, active (NAP-2PA-12), and napoleon-1796."),
    "end-phase": ("risk_cli.napoleon_moves:end_phase", "Close an optional step: stop giving cards, stop reinforcing allies, or end the allies' maneuvers (napoleon-2p, napoleon-1796)."),
    "claim": ("risk_cli.napoleon_moves:claim", "Announce MISSION (its id, see `risk show --as`) as achieved: napoleon-mission."),
    "designate": ("risk_cli.napoleon_moves:designate", "Let teammate MEMBER defend this battle of a shared territory: napoleon-teams (DEC-20)."),
    "take-mission": ("risk_cli.risk2008_moves:take_mission", "Take MISSION (its id, see `risk hq`), fulfilled this turn, discarding CARD (R08-14)."),
    "trade-stars": ("risk_cli.risk2008_moves:trade_stars", "Trade any of your cards showing 2 to 10 stars in all for regiments (R08-10)."),
    "capital": ("risk_cli.risk2008_moves:capital", "Place your capital and 1 regiment on TERRITORY, unoccupied (R08-CC-05)."),
    "airfield": ("risk_cli.risk2008_moves:airfield", "Place the airfield you have just won on TERRITORY, one of yours (R08-CC-10)."),
    "strategic": ("risk_cli.risk2008_moves:strategic", "The Strategic Maneuver reward: move COUNT from FROM to TO before attacking (R08-CC-11)."),
    "hq": ("risk_cli.risk2008_moves:hq", "Risk 2008's board facts: cities, capitals, airfields, face-up missions and rewards."),
    "piece": ("risk_cli.napoleon_advanced_moves:piece", "Set-up: place your general, then your fortification, on TERRITORY (NAP-ADV-09)."),
    "convert": ("risk_cli.napoleon_advanced_moves:convert", "Convert reinforcement regiments into ships, a general, an admiral or a fortification."),
    "naval-attack": ("risk_cli.napoleon_advanced_moves:naval_attack", "Attack the ships in sea zone TO from zone FROM, or sail into TO when it is empty."),
    "lead": ("risk_cli.napoleon_advanced_moves:lead", "Choose how many GENERALS of FROM lead its attacks this turn (DEC-23)."),
    "play-card": ("risk_cli.napoleon_advanced_moves:play_card", "Play territory CARD for its effect in its phase window (NAP-ADV-26)."),
    "ransom": ("risk_cli.napoleon_advanced_moves:ransom", "Buy back a general or admiral from CAPTOR (seat or name) for 1 regiment (NAP-ADV-25)."),
    "move-general": ("risk_cli.napoleon_advanced_moves:move_general", "A general's maneuver from FROM to TO with COUNT regiments that were with it (NAP-ADV-39)."),
    "move-fleet": ("risk_cli.napoleon_advanced_moves:move_fleet", "The naval maneuver: SHIPS from zone FROM to zone TO, through your zones (NAP-ADV-39)."),
    "move-admiral": ("risk_cli.napoleon_advanced_moves:move_admiral", "An admiral's maneuver from zone FROM to TO with SHIPS that were with it (NAP-ADV-39)."),
    "annex": ("risk_cli.napoleon_1796_moves:annex", "Annex TERRITORY of an ally, or of the neutral for CARD, at the end of your turn."),
    "realliance": ("risk_cli.napoleon_1796_moves:realliance", "Spend CARD to make the power whose capital you just took your ally (NAP-CAMP-10)."),
    "build-ship": ("risk_cli.clonewars_moves:build_ship", "Discard CARD to build a ship of its class on PLANET, one of yours (CW-22/23)."),
    "power": ("risk_cli.clonewars_moves:power", "Play CARD for its special power at its timing (CW-14/15; see `risk rules clonewars`)."),
    "token": ("risk_cli.clonewars_moves:token", "Step 1 (Separatists): place the top token face down on PLANET, one of yours (CW-17)."),
    "ships-follow": ("risk_cli.clonewars_moves:ships_follow", "More ships follow your last conquest from its origin, before a new invasion (CW-29)."),
    "support": ("risk_cli.clonewars_moves:support", "COUNT of the KIND ships on PLANET support its battles this turn (CW-25)."),
    "move-ship": ("risk_cli.clonewars_moves:move_ship", "Step 8: move one ship of KIND from FROM to TO through your faction's planets (CW-34)."),
    "ask-command": ("risk_cli.clonewars_moves:ask_command", "Step 9: ask your teammate to hand over PLANET (1 troop, no ship, token or Palpatine)."),
    "answer-command": ("risk_cli.clonewars_moves:answer_command", "Answer your teammate's change of command: yes hands the planet over (CW-35)."),
    "order66": ("risk_cli.clonewars_moves:order66", "Step 11 (Separatists, once a game): invoke Order 66 (CW-37..39)."),
    "palpatine": ("risk_cli.clonewars_moves:palpatine", "After Order 66: place Emperor Palpatine on PLANET, held by a Separatist army (CW-40)."),
    "galaxy": ("risk_cli.clonewars_moves:galaxy", "The Clone Wars facts: track, Palpatine, ships per planet, tokens, hands' sizes."),
    "cw-odds": ("risk_cli.clonewars_moves:cw_odds", "Exact losses of one Clone Wars battle with ships, ATTACK dice against DEFENCE dice."),
}  # fmt: skip


class Lazy:
    """A command not imported yet: where it is, and its short help for `risk --help`."""

    def __init__(self, target: str, short_help: str, *, family: bool = False) -> None:
        self.module, _, self.attribute = target.partition(":")
        self.short_help = short_help
        self.family = family

    def load(self) -> click.Command:
        import importlib

        command = getattr(importlib.import_module(self.module), self.attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.module}:{self.attribute} is not a click command")
        return command


class CommandTable(MutableMapping[str, click.Command]):
    """A group's commands, each imported the first time it is looked up.

    Names, membership and order need no import (``--help``, "no such command" suggestions);
    reading a command imports its module, and a family verb installs its family (its event
    texts and seat notes too, ``risk_cli.families.add_family``).
    """

    def __init__(self, group: click.Group) -> None:
        self.group = group
        self._entries: dict[str, click.Command | Lazy] = {}

    def add_lazy(self, name: str, entry: Lazy) -> None:
        self._entries[name] = entry

    def lazy(self, name: str) -> Lazy | None:
        entry = self._entries.get(name)
        return entry if isinstance(entry, Lazy) else None

    def __getitem__(self, name: str) -> click.Command:
        entry = self._entries[name]
        if not isinstance(entry, Lazy):
            return entry
        command = entry.load()
        self._entries[name] = command
        conventions.add_completion(command)
        if entry.family:
            self._add_family(entry.module)
        return command

    def _add_family(self, module_name: str) -> None:
        import importlib

        from risk_cli import families

        module = importlib.import_module(module_name)
        for name, entry in list(self._entries.items()):  # its other verbs, without recursion
            if isinstance(entry, Lazy) and entry.module == module_name:
                self._entries[name] = entry.load()
        families.add_family(self.group, module)

    def __setitem__(self, name: str, command: click.Command) -> None:
        conventions.add_completion(command)
        self._entries[name] = command

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


class RiskGroup(conventions.ConventionsGroup):
    """The ``risk`` group: lazily imported commands, rule families installed before a command
    runs, and the shared conventions (``risk_cli.conventions.ConventionsGroup``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: MutableMapping[str, click.Command] = CommandTable(self)
        self.families_installed = False

    def add_lazy_commands(self, table: dict[str, tuple[str, str]], *, family: bool) -> None:
        assert isinstance(self.commands, CommandTable)
        for name, (target, short_help) in table.items():
            self.commands.add_lazy(name, Lazy(target, short_help, family=family))

    def install_families(self) -> None:
        """Every rule family's verbs and texts (plug-ins included); ``SetupError`` if one cannot
        be loaded or clashes (the next command tries again)."""
        if not self.families_installed:
            from risk_cli import families

            families.install(self)
            self.families_installed = True

    def install_game_family(self, ctx: click.Context, game_id: str | None) -> None:
        """Before a command on one game runs: that game's rule set and family only, when the
        game is in a local SQLite file and no plug-in is named (its rule set's name is read
        from its first row, ``risk_service.read_sqlite.ruleset_name``); else every family."""
        if self.families_installed:
            return
        from risk_cli.common import App
        from risk_service.families import load_plugins

        app = ctx.find_object(App)
        name = None
        if game_id and app is not None and not app.redis_url and not load_plugins():
            from risk_service import read_sqlite

            path = read_sqlite.sqlite_path(app.store or os.environ.get("RISK_STORE"))
            name = None if path is None else read_sqlite.ruleset_name(path, game_id)
        if name is None:
            self.install_families()
            return
        from risk_cli import families

        families.install_ruleset(self, name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not ctx.resilient_parsing and not _takes_game(command):
            self.install_families()  # its texts and notes, before any game is shown
        # else its GAME argument installs what that game needs (common.GameArgument)
        return name, command, rest

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if ctx.resilient_parsing:  # completing: never load plug-ins nor fail
                return None
            self.install_families()  # a plug-in family's verb?
        return self.commands.get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        if os.environ.get("RISK_FAMILIES", "").strip(","):
            self.install_families()  # the plug-ins named: their verbs are listed too
        return sorted(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `risk --help`, from the table's short help: nothing imported."""
        assert isinstance(self.commands, CommandTable)
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            lazy = self.commands.lazy(name)
            if lazy is not None:
                shown = click.Command(name, help=lazy.short_help)  # click's own shortening
                rows.append((name, shown.get_short_help_str(limit)))
                continue
            command = self.commands[name]
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        with conventions.reported_errors(ctx):
            return super().invoke(ctx)


def _takes_game(command: click.Command) -> bool:
    """Whether the command names one game by a GAME argument (``common.GameArgument``)."""
    return any(getattr(p, "is_game", False) for p in command.params)


def _print_version(ctx: click.Context) -> None:
    """``--version``: the installed version, and which dice draws run (the compiled ones are
    built only where ``pip install`` found a C compiler; see README "Set up")."""
    if ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from risk_core import ENGINE_VERSION, rng

    draws = "compiled" if rng.ACCELERATED else "pure Python"
    # Two numbers: the installed package's, and the engine's that every game records (its
    # rules and events; `risk audit` and `risk export` show it).
    click.echo(
        f"risk {version('risk-engine')} (engine {ENGINE_VERSION}, the version games record; "
        f"dice draws: {draws})"
    )
    ctx.exit()


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
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the output or not (default: on a terminal, unless NO_COLOR is set).",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
    help="Show the version, and whether the dice are drawn by compiled code, and exit.",
)
@click.pass_context
def cli(
    ctx: click.Context,
    store: str | None,
    redis_url: str | None,
    create: bool,
    color: bool | None,
) -> None:
    """Play Risk from the command line: every move is stored and can be replayed.

    Start with `risk demo`, or `risk new --players "Ann,Bob,Cy"` and `risk show GAME`.
    Set RISK_GAME to leave GAME out: `risk show`, `risk attack alaska kamchatka`.
    """
    from risk_cli.common import App

    ctx.color = conventions.use_colour(color)
    if redis_url:
        from redis.connection import parse_url

        from risk_core import RiskError

        try:
            # What redis-py checks when it connects, without connecting.
            parse_url(redis_url)  # type: ignore[no-untyped-call,unused-ignore]
        except ValueError as e:
            raise RiskError("bad_redis_url", f"Not a Redis URL: {redis_url!r} ({e}).") from None
    app = App(store, redis_url, create=create)
    ctx.obj = app
    ctx.call_on_close(app.close)


assert isinstance(cli, RiskGroup)
cli.add_lazy_commands(COMMANDS, family=False)
cli.add_lazy_commands(FAMILY_COMMANDS, family=True)
