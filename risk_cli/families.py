"""Rule families' own verbs and event texts, added to the ``risk`` group.

A rule set names the module of its family's command-line pieces in ``RuleSet.cli_module``; that
module defines

* ``COMMANDS``: the family's ``click.Command`` verbs (``risk give``, ``risk claim``...);
* ``EVENT_TEXT``: ``{event tag: text(event, names)}``, one log sentence per family event
  (``event`` is the viewer's copy, ``risk_core.views.visible_event``; ``names`` a
  ``risk_cli.render.Names``);
* ``SEAT_NOTE``: ``note(player, names) -> str | None``, what a seat is in `risk show`'s players
  table for the rule sets naming the module (``player``: the seat's entry in the view, with the
  family's ``seat_view`` facts), in place of the core's ``neutral``; None keeps the core's word;
* ``SHOW_LINES``: ``lines(view, names) -> list[str]``, the family's own facts in `risk show`
  (cities, face-up missions, tracks...), printed after the board for the rule sets naming the
  module;
* ``VERBS``: ``{command type: verb}``, how `risk moves` tells a command submitted by a verb
  other than its type with dashes (``{"skip_muster": "muster --skip"}``); the verb's first
  word is one of ``COMMANDS``;
* ``MISSION_TEXT``: ``text(names, mission_id) -> str | None``, the text of a mission of the
  family's own (not in the board's ``missions``), where the log names one (a win by mission);
  None for an id not its own;
* ``TRADE_VERB``: the verb `risk moves` names for a card trade in the games of the rule sets
  naming the module, where `risk trade` (three cards) cannot submit it (Risk 2008's
  ``"trade-stars"``: any cards showing 2 to 10 stars); one of ``COMMANDS``.

Any may be left out.  Several rule sets may share one module; it is added once.  A verb or an
event text that another module already provides is refused (``family_clash``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import click

from risk_cli import render
from risk_core import SetupError
from risk_core.rulesets import names as ruleset_names
from risk_core.rulesets.base import registered
from risk_service.families import load_plugins, load_ruleset

# This module is imported when a command runs (``risk_cli.main``), not by `risk --help`.


def cli_modules() -> dict[str, str]:
    """Every registered rule set's ``cli_module``, with the first rule set naming it."""
    found: dict[str, str] = {}
    for name in ruleset_names():
        module = registered()[name].cli_module
        if module:
            found.setdefault(module, name)
    return found


def trade_verb(ruleset: str) -> str:
    """The verb that submits a card trade in a ``ruleset`` game: its family module's
    ``TRADE_VERB``, else ``trade``."""
    cls = registered().get(ruleset)
    if cls is None or not cls.cli_module:
        return "trade"
    verb = getattr(_import(cls.cli_module, ruleset), "TRADE_VERB", "trade")
    return verb if isinstance(verb, str) else "trade"


def install(group: click.Group) -> list[str]:
    """Load the plug-in families, then add every family's verbs and texts; return the modules.

    Raises ``SetupError``: ``unknown_family`` for a module that cannot be imported,
    ``bad_family`` for one whose ``COMMANDS``/``EVENT_TEXT``/``SEAT_NOTE`` are not what they
    should be,
    ``family_clash`` for a verb or event text that is already taken.
    """
    load_plugins()
    modules = cli_modules()
    for module, ruleset in modules.items():
        add_family(group, _import(module, ruleset))
    return list(modules)


def install_ruleset(group: click.Group, ruleset: str) -> None:
    """Load the rule set ``ruleset`` alone (``risk_service.families.load_ruleset``) and add its
    family's verbs and texts, if it has a command-line module; every family for a name that
    is no rule set (the command then reports it as usual)."""
    load_ruleset(ruleset)
    cls = registered().get(ruleset)
    if cls is None:
        install(group)
    elif cls.cli_module:
        add_family(group, _import(cls.cli_module, ruleset))


def add_family(group: click.Group, module: ModuleType) -> None:
    """Add one family module's ``COMMANDS`` to ``group``, its ``EVENT_TEXT`` and
    ``MISSION_TEXT`` to the log and its ``SEAT_NOTE`` and ``SHOW_LINES`` to `risk show`.

    Nothing is added when anything clashes.  Adding the same module again changes nothing.
    """
    commands = _commands(module)
    texts = _texts(module)
    note: render.SeatNote | None = _function(module, "SEAT_NOTE", "player, names")
    show_lines: render.ShowLines | None = _function(module, "SHOW_LINES", "view, names")
    mission_text: render.MissionText | None = _function(module, "MISSION_TEXT", "names, mission")
    verbs = _verbs(module, commands)
    _trade_verb(module, commands)
    for command in commands:
        taken = group.commands.get(command.name or "")
        if taken is not None and taken is not command:
            raise SetupError(
                "family_clash",
                f"Rule family module {module.__name__!r} adds the verb {command.name!r}, "
                f"which is taken: `risk {command.name}` comes from {_home(taken)}.",
            )
    if verbs:
        from risk_cli import analysis  # `risk moves`'s: imported only when a family adds some

        for kind, verb in verbs.items():
            told = analysis.VERBS.get(kind, verb)
            if told != verb:
                raise SetupError(
                    "family_clash",
                    f"Rule family module {module.__name__!r} tells the command {kind!r} by "
                    f"`risk {verb}`, which `risk moves` tells by `risk {told}`.",
                )
        analysis.VERBS.update(verbs)
    render.add_event_texts(texts, module.__name__)
    if note is not None:
        render.add_seat_note(note, module.__name__)
    if show_lines is not None:
        render.add_show_lines(show_lines, module.__name__)
    if mission_text is not None:
        render.add_mission_text(mission_text, module.__name__)
    for command in commands:
        group.add_command(command)


def _import(module: str, ruleset: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise SetupError(
            "unknown_family",
            f"Rule set {ruleset!r} names the command-line module {module!r}, "
            f"which cannot be imported: {e}",
        ) from None


def _commands(module: ModuleType) -> list[click.Command]:
    commands = list(getattr(module, "COMMANDS", ()))
    wrong = [c for c in commands if not isinstance(c, click.Command)]
    if wrong:
        raise SetupError(
            "bad_family",
            f"{module.__name__}.COMMANDS holds {wrong[0]!r}, not a click command.",
        )
    return commands


def _texts(module: ModuleType) -> Mapping[str, Callable[[Any, render.Names], str]]:
    texts = getattr(module, "EVENT_TEXT", {})
    if not isinstance(texts, Mapping) or not all(
        isinstance(tag, str) and callable(fmt) for tag, fmt in texts.items()
    ):
        raise SetupError(
            "bad_family",
            f"{module.__name__}.EVENT_TEXT must map event tags to functions(event, names).",
        )
    return texts


def _function(module: ModuleType, name: str, takes: str) -> Any:
    """The module's function ``name`` (``SEAT_NOTE``, ``SHOW_LINES``, ``MISSION_TEXT``), or
    None when it defines none; anything else is ``bad_family``."""
    found = getattr(module, name, None)
    if found is not None and not callable(found):
        raise SetupError("bad_family", f"{module.__name__}.{name} must be a function({takes}).")
    return found


def _verbs(module: ModuleType, commands: list[click.Command]) -> dict[str, str]:
    verbs = getattr(module, "VERBS", {})
    if not isinstance(verbs, Mapping) or not all(
        isinstance(kind, str) and isinstance(verb, str) for kind, verb in verbs.items()
    ):
        raise SetupError("bad_family", f"{module.__name__}.VERBS must map command types to verbs.")
    own = {c.name for c in commands}
    for kind, verb in verbs.items():
        if verb.split(" ")[0] not in own:  # a verb it does not add would send players nowhere
            raise SetupError(
                "bad_family",
                f"{module.__name__}.VERBS tells {kind!r} by `risk {verb}`, but its COMMANDS "
                f"add no verb {verb.split(' ')[0]!r}.",
            )
    return dict(verbs)


def _trade_verb(module: ModuleType, commands: list[click.Command]) -> None:
    verb = getattr(module, "TRADE_VERB", None)
    if verb is not None and verb not in {c.name for c in commands}:
        raise SetupError(
            "bad_family",
            f"{module.__name__}.TRADE_VERB names {verb!r}, which is not one of its COMMANDS.",
        )


def _home(command: click.Command) -> str:
    return getattr(command.callback, "__module__", None) or "another module"
