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
from functools import cache
from importlib.metadata import entry_points

from risk_core.errors import SetupError
from risk_core.rulesets import load_family

ENV_VAR = "RISK_FAMILIES"
ENTRY_POINT_GROUP = "risk.families"


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
