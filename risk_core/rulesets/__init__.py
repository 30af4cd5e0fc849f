"""Registry of rule sets.

A rule set is registered by defining it: every ``RuleSet`` subclass that sets its own ``name``
(other than ``core``) registers itself when its class is created (``RuleSet.__init_subclass__``).
The modules of this package are imported the first time the registry is read, so adding a rule
family here is adding a module or package (plus its board folder): nothing else lists rule
sets.  A family kept elsewhere (a plug-in, a test's toy family) is registered by importing its
module, for instance with :func:`load_family`.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache

from risk_core.errors import SetupError
from risk_core.rulesets.base import RuleSet, on_register, registered


@cache
def _import_package_families() -> None:
    for info in pkgutil.iter_modules(__path__):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")


def _registry() -> dict[str, type[RuleSet]]:
    _import_package_families()
    return registered()


def load_family(module: str) -> None:
    """Import a rule family's module by its dotted name: its rule sets register themselves.

    Raises ``SetupError("unknown_family")`` when the module cannot be imported.
    """
    try:
        importlib.import_module(module)
    except ImportError as e:
        raise SetupError("unknown_family", f"Cannot load rule family {module!r}: {e}") from None


def names() -> list[str]:
    return sorted(_registry())


@cache  # the hot path: every decide and evolve asks; a (re)definition clears it
def get(name: str) -> RuleSet:
    """The rule set called ``name`` (one instance each: its board is loaded once)."""
    cls = registered().get(name) or _registry().get(name)  # loaded already: import no other
    if cls is None:
        known = names()
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise SetupError(
            "unknown_ruleset", f"Unknown rule set '{name}'.{hint} Known: {', '.join(known)}."
        )
    return cls()


on_register(get.cache_clear)
