"""Rule families kept outside ``risk_core``: plug-ins found by name and imported once.

A plug-in is a module (or package) whose import defines ``RuleSet`` subclasses; defining them
registers them (``risk_core.rulesets``).  Plug-ins are named in two places, both read here:

* the environment variable ``RISK_FAMILIES``: dotted module names separated by commas;
* the entry-point group ``risk.families`` of installed distributions, each entry point's value
  naming the module (``toy = "toy_family.rules"`` under ``[project.entry-points."risk.families"]``).

The service's mapper and the command line call :func:`load_plugins` before they read the rule set
registry, so the plug-ins' commands and events are in the store's unions and their rule sets in
``risk rules``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from risk_core.errors import SetupError
from risk_core.rulesets import load_family
from risk_core.rulesets import names as all_rulesets
from risk_core.rulesets.base import registered

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENV_VAR = "RISK_FAMILIES"
ENTRY_POINT_GROUP = "risk.families"


def entry_points(group: str) -> Iterable[EntryPoint]:
    """The installed entry points of ``group``.  ``importlib.metadata`` is slow to import (a
    tenth of a command's start-up), so it is imported only when some distribution may
    declare the group (``_maybe_declared``)."""
    if not _maybe_declared(group):
        return ()
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _maybe_declared(group: str) -> bool:
    """Whether an installed distribution may declare entry points of ``group``: one of the
    ``entry_points.txt`` files of the ``*.dist-info``/``*.egg-info`` folders on ``sys.path``
    names it.  What this cannot look through cheaply (a zip or an egg on ``sys.path``, a
    finder of distributions other than the standard one) counts as "may"."""
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True  # a zip file on sys.path
            continue
        if folder.endswith(".egg"):
            return True
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                        if group.encode() in f.read():
                            return True
                except OSError:
                    continue  # no entry points
    return False


def plugin_names() -> dict[str, str]:
    """Every plug-in module named, with where it was named (the first naming of a module)."""
    found: dict[str, str] = {}
    for name in os.environ.get(ENV_VAR, "").split(","):
        if name.strip():
            found.setdefault(name.strip(), f"${ENV_VAR}")
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.module, f"entry point {ep.name!r} of group {ENTRY_POINT_GROUP!r}")
    return found


@cache
def load_plugins() -> tuple[str, ...]:
    """Import every plug-in family once; return their module names.

    Raises ``SetupError("unknown_family")`` when a named module cannot be imported, and
    ``SetupError("bad_family")`` when importing it fails otherwise (a rule set that is not
    well formed, a name already taken).  A failed load is tried again on the next call.
    """
    named = plugin_names()
    for name, where in named.items():
        try:
            load_family(name)
        except SetupError as e:
            raise SetupError(e.code, f"{e.message} (named by {where})") from None
        except Exception as e:  # a plug-in's own error must not end in a traceback
            raise SetupError(
                "bad_family",
                f"Rule family {name!r} (named by {where}) failed to load: {type(e).__name__}: {e}",
            ) from None
    return tuple(named)


def load_ruleset(name: str) -> None:
    """Import the rule set ``name`` (its module, not every rule family's): a command that works
    on one game starts faster when it loads only that game's rules.

    The built-in rule sets live in ``risk_core.rulesets``, in a module named after the rule set
    or after its family (``napoleon-2p`` in ``napoleon_2p``, ``classic-2p`` in ``classic``).
    Those modules are tried, longest name first; when none of them defines ``name`` (a plug-in's
    rule set not loaded yet, a name the convention misses), every rule family is imported, as
    reading the registry does: the outcome is the same either way, only slower.
    """
    if name in registered():
        return
    import importlib
    from importlib.util import find_spec

    words = name.replace("-", "_").split("_")
    for n in range(len(words), 0, -1):
        stem = "_".join(words[:n])
        module = f"risk_core.rulesets.{stem}"
        if stem.isidentifier() and stem != "base" and find_spec(module) is not None:
            importlib.import_module(module)
            if name in registered():
                return
    all_rulesets()
