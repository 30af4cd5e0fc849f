"""Errors raised by the engine: each has a stable ``code`` and a human message.

Callers can catch ``RiskError`` broadly or test ``err.code`` precisely; the codes are part of the
public contract (the CLI prints them, the service returns them).
"""

from __future__ import annotations


class RiskError(ValueError):
    """Base of every engine error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class RuleError(RiskError):
    """A command the rules do not allow now; the state is unchanged."""


class SetupError(RiskError):
    """A game cannot be started with these rule set, players or options."""
