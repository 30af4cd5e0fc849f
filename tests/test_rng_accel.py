"""ENG-01/02: the compiled draws (risk_core/_rng_accel.c) are the Python draws, bit for bit.

The module is optional (a machine without a C compiler installs without it), so its cases skip
with a warning where it was not built, unless ``RISK_REQUIRE_ACCEL=1`` (set by .ci/run), which
makes them fail instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from risk_core import ENGINE_VERSION, rng
from risk_core.rng import (
    GAMMA,
    M64,
    Rng,
    below_python,
    d6_faces_python,
    d6_throw_python,
    highest_first,
    mix64,
)
from tests.requiredkit import unavailable

_D6_LIMIT = (1 << 64) - ((1 << 64) % 6)


def _accel() -> types.ModuleType:
    """The compiled module, or a loud skip (a failure when it is required)."""
    try:
        from risk_core import _rng_accel
    except ImportError:
        message = "compiled draws not tested: risk_core._rng_accel was not built (no C compiler?)"
        unavailable(message, "RISK_REQUIRE_ACCEL")
    return _rng_accel


def _unshift(z: int, s: int) -> int:
    """The inverse of ``z ^ (z >> s)`` on 64 bits."""
    x = z
    for _ in range(64 // s + 1):
        x = z ^ (x >> s)
    return x


def unmix64(z: int) -> int:
    """The word ``mix64`` turns into ``z`` (SplitMix64's finaliser is a bijection)."""
    z = _unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & M64
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & M64
    return _unshift(z, 30)


def seed_whose_first_word_is(word: int) -> int:
    """A seed whose stream's first word (position 1) is ``word``."""
    seed = (unmix64(word) - GAMMA) & M64
    assert mix64((seed + GAMMA) & M64) == word
    return seed


WIDE = st.integers(-(2**70), 2**70)  # past 64 bits both ways: the draws read them modulo 2**64


@settings(max_examples=400, deadline=None)
@given(
    seed=st.one_of(st.integers(0, M64), WIDE),
    counter=st.one_of(st.integers(0, 2**20), st.integers(0, M64), WIDE),
    n=st.integers(0, 14),
)
def test_eng01_compiled_faces_are_the_python_faces(seed: int, counter: int, n: int) -> None:
    """ENG-01/02: ``d6_faces`` compiled gives the Python function's faces and position for any
    seed, position (beyond 64 bits too) and throw of 0 to 14 dice."""
    assert _accel().d6_faces(seed, counter, n) == d6_faces_python(seed, counter, n)


@settings(max_examples=400, deadline=None)
@given(
    seed=st.one_of(st.integers(0, M64), WIDE),
    counter=st.one_of(st.integers(0, 2**20), st.integers(0, M64), WIDE),
    a=st.integers(0, 6),
    d=st.integers(0, 4),
)
def test_core15_compiled_throw_is_the_python_throw(seed: int, counter: int, a: int, d: int) -> None:
    """CORE-15, ENG-02: ``d6_throw`` compiled gives the Python function's two sides, each
    highest first, and position; both are ``d6_faces`` split after ``a`` faces and sorted."""
    attack, defence, after = d6_throw_python(seed, counter, a, d)
    faces, position = d6_faces_python(seed, counter, a + d)
    assert (attack, defence, after) == (
        highest_first(faces[:a]),
        highest_first(faces[a:]),
        position,
    )
    assert _accel().d6_throw(seed, counter, a, d) == (attack, defence, after)


@settings(max_examples=400, deadline=None)
@given(
    seed=st.one_of(st.integers(0, M64), WIDE),
    counter=st.one_of(st.integers(0, 2**20), WIDE),
    bound=st.one_of(st.integers(1, 200), st.integers(1, M64), st.sampled_from([1 << 63, M64])),
)
def test_eng01_compiled_below_is_the_python_below(seed: int, counter: int, bound: int) -> None:
    """ENG-01: ``below`` compiled draws the Python function's integer and position for any
    bound below 2**64 (powers of two included, where no word is ever rejected)."""
    assert _accel().below(seed, counter, bound) == below_python(seed, counter, bound)


@pytest.mark.parametrize(
    ("word", "rejected"),
    [(_D6_LIMIT - 1, False), (_D6_LIMIT, True), (M64, True)],
)
def test_eng02_rejection_bound_of_a_die_is_exact(word: int, rejected: bool) -> None:
    """ENG-02: a word at or above 2**64 - (2**64 % 6) is rejected and the next one drawn, one
    below it is a face, in both implementations (the stream is steered onto the bound)."""
    seed = seed_whose_first_word_is(word)
    faces, counter = d6_faces_python(seed, 0, 3)
    assert counter == 3 + rejected
    if not rejected:
        assert faces[0] == word % 6 + 1
    assert _accel().d6_faces(seed, 0, 3) == (faces, counter)
    throw = (highest_first(faces[:2]), highest_first(faces[2:]), counter)
    assert d6_throw_python(seed, 0, 2, 1) == throw
    assert _accel().d6_throw(seed, 0, 2, 1) == throw


@pytest.mark.parametrize("bound", [10, 6, 1000003])
def test_eng01_rejection_bound_of_below_is_exact(bound: int) -> None:
    """ENG-01: ``below``'s rejection bound, 2**64 - (2**64 % bound), is the same in both."""
    limit = (1 << 64) - ((1 << 64) % bound)
    for word, rejected in ((limit - 1, False), (limit, True)):
        seed = seed_whose_first_word_is(word)
        value, counter = below_python(seed, 0, bound)
        assert counter == 1 + rejected
        assert _accel().below(seed, 0, bound) == (value, counter)


def test_eng01_compiled_draws_reject_bad_arguments() -> None:
    """The compiled draws raise Python's errors for arguments the engine never passes."""
    accel = _accel()
    with pytest.raises(TypeError):
        accel.d6_faces("1", 0, 2)
    with pytest.raises(TypeError):
        accel.d6_faces(1, 0)
    with pytest.raises(ValueError):
        accel.d6_faces(1, 0, -1)
    with pytest.raises(ValueError):
        accel.d6_throw(1, 0, 3, -1)
    with pytest.raises(ValueError):
        accel.d6_throw(1, 0, 65, 2)  # more dice a side than the compiled throw holds
    with pytest.raises(ValueError):
        accel.below(1, 0, 0)
    with pytest.raises(OverflowError):
        accel.below(1, 0, 1 << 64)


def test_eng01_the_engine_draws_with_the_compiled_module_when_built() -> None:
    """A build of this version is what ``rng`` draws with (``Rng.below`` included), unless
    ``RISK_PURE_PYTHON`` turns it off."""
    accel = _accel()
    if os.environ.get("RISK_PURE_PYTHON"):  # turned off: the Python functions draw
        assert not rng.ACCELERATED and rng.d6_throw is d6_throw_python
        return
    assert rng.ACCELERATED
    assert rng.d6_faces is accel.d6_faces
    assert rng.d6_throw is accel.d6_throw
    assert rng._below is accel.below
    cursor, counter, expected = Rng(77, 3), 3, []
    for _ in range(5):
        value, counter = below_python(77, counter, 9)
        expected.append(value)
    assert [cursor.below(9) for _ in range(5)] == expected
    assert cursor.counter == counter


def test_eng01_a_stale_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled module of another version (an old build beside newer Python code) is ignored,
    and so is any build when ``RISK_PURE_PYTHON`` is set."""
    stale = types.ModuleType("risk_core._rng_accel")
    stale.ACCEL_VERSION = rng.ACCEL_VERSION - 1  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "risk_core._rng_accel", stale)
    assert rng._compiled() is None
    monkeypatch.delitem(sys.modules, "risk_core._rng_accel")
    monkeypatch.setenv("RISK_PURE_PYTHON", "1")
    assert rng._compiled() is None


_GAME = """
import hashlib, risk_core as rc
from risk_core import rng
from risk_core.bots import self_play
opening = rc.start("classic", ["A", "B", "C"], seed=5)
_, events = self_play(opening, seed=5)
print(rng.ACCELERATED, len(events), hashlib.sha256(rc.encode(events)).hexdigest())
"""


def test_eng01_a_whole_game_is_byte_identical_with_and_without_the_compiled_draws() -> None:
    """ENG-01: the same seed gives the same events, byte for byte, whichever draws run."""
    _accel()
    outputs = {}
    for pure in ("", "1"):
        env = {**os.environ, "RISK_PURE_PYTHON": pure}
        done = subprocess.run(
            [sys.executable, "-c", _GAME], env=env, capture_output=True, text=True, check=True
        )
        outputs[pure] = done.stdout.split()
    assert outputs[""][0] == "True" and outputs["1"][0] == "False"
    assert int(outputs[""][1]) > 100  # a real game, with many battles
    assert outputs[""][1:] == outputs["1"][1:]


def test_risk_version_says_which_draws_run() -> None:
    """``risk --version`` tells whether the install built the compiled draws, and
    ``RISK_PURE_PYTHON`` turns them off."""
    _accel()
    for pure, says in (("", "compiled"), ("1", "pure Python")):
        done = subprocess.run(
            [sys.executable, "-c", "from risk_cli.main import cli; cli()", "--version"],
            env={**os.environ, "RISK_PURE_PYTHON": pure},
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.startswith("risk ") and f"dice draws: {says})" in done.stdout
        assert f"(engine {ENGINE_VERSION}, the version games record;" in done.stdout
