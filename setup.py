"""The package's one compiled part, optional: everything else is in pyproject.toml.

``risk_core._rng_accel`` computes the dice stream's hottest draws in C (risk_core/rng.py has
the same functions in Python).  ``optional=True``: where no C compiler or Python headers are
found, the build warns and the package installs without it, and rng.py uses its own functions.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("risk_core._rng_accel", ["risk_core/_rng_accel.c"], optional=True),
    ]
)
