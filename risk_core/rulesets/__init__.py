"""Registry of rule sets.

Every module in this package is imported once; each ``RuleSet`` subclass with a ``name`` other
than ``core`` that it defines is registered under that name.  Adding a rule family is adding a
module here (plus its board folder): nothing else lists rule sets.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from risk_core.errors import SetupError
from risk_core.rulesets.base import RuleSet


def _subclasses(cls: type[RuleSet]) -> list[type[RuleSet]]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


@cache
def _registry() -> dict[str, type[RuleSet]]:
    for info in pkgutil.iter_modules(__path__):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")
    return {cls.name: cls for cls in _subclasses(RuleSet) if cls.name != "core"}


def names() -> list[str]:
    return sorted(_registry())


@cache
def get(name: str) -> RuleSet:
    cls = _registry().get(name)
    if cls is None:
        raise SetupError(
            "unknown_ruleset", f"Unknown rule set '{name}' (known: {', '.join(names())})."
        )
    return cls()
