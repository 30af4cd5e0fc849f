"""Tests of an optional part (a PostgreSQL server, a browser, a compiled module): skipped with
a warning where it is missing, unless CI's variable for it is ``1``, which makes them fail."""

from __future__ import annotations

import os
import warnings
from typing import NoReturn

import pytest


def unavailable(message: str, required_by: str) -> NoReturn:
    """Skip the test loudly for ``message``, or fail it when ``$required_by`` is ``1``."""
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{message} ({required_by}=1)", pytrace=False)
    warnings.warn(message, pytest.PytestWarning, stacklevel=2)
    pytest.skip(message)
