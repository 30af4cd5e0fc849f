"""Deterministic randomness (ENG-01..04).

One counter-based generator: the i-th 64-bit output of a game is SplitMix64's mixing function
applied to ``seed + i * GAMMA``.  Its whole position is one integer (the counter) kept in the
game state, so a decision can resume the stream exactly where the previous one stopped, on any
platform and any Python version: nothing here depends on ``random.Random``'s algorithms.

Integers in a range are drawn by rejection sampling (no modulo bias).  A die roll first takes
the next face from the state's dice script, when one is loaded (ENG-04: tests and "what if I had
rolled 6-6-6"), and only then the seeded stream.

The hottest draws, a battle's faces (``d6_faces``, and ``d6_throw`` sorted for comparing) and
a bounded integer (``below``), have compiled twins in ``risk_core._rng_accel``, built from
_rng_accel.c when the package is installed with a C compiler.  They give the same results bit
for bit; this module uses them when they are built and of this version, unless
``RISK_PURE_PYTHON`` is set (to measure or test the Python functions), and ``ACCELERATED`` says
which ones run.
"""

from __future__ import annotations

import importlib
import os
import struct
from collections.abc import Callable, Sequence

from risk_core.errors import RuleError

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
_D6_LIMIT = (1 << 64) - ((1 << 64) % 6)  # rejection bound for a d6
Throw = tuple[int, ...]  # one side's faces in a battle, highest first


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijective avalanche of a 64-bit integer."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _lanes(n: int) -> tuple[int, int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """``d6_faces``' constants for ``n`` words drawn side by side in one integer, a 128-bit
    lane each (room for a 64×64-bit product): the lane units, each lane's step from the
    stream's word before the first, the lanes' low 64 bits, the bytes, and a reader of the
    lanes' low 64 bits."""
    units = sum(1 << (128 * i) for i in range(n))
    steps = sum(((i + 1) * GAMMA) << (128 * i) for i in range(n))
    return units, steps, M64 * units, 16 * n, struct.Struct("<" + "Q8x" * n).unpack


# A battle throws at most 3 + 2 dice (a family's own battles a few more); more go word by word.
_LANES = [_lanes(n) for n in range(9)]


def d6_faces_python(seed: int, counter: int, n: int) -> tuple[list[int], int]:
    """``n`` d6 faces from the seeded stream after position ``counter``, and the position
    after them: ``Rng.dice`` without a cursor object (a battle's throw, the hottest draw).

    The ``n`` words are mixed side by side, each in its own 128-bit lane of one integer, so
    every step of ``mix64`` is one operation for all of them instead of one per word (a
    Python operation costs far more than its width); masking each lane to 64 bits after the
    shifts and products keeps the lanes apart, so each one holds exactly ``mix64`` of its
    word."""
    if n > 8:
        return d6_faces_counted(seed, counter, n)
    units, steps, low, size, read = _LANES[n]
    x = (((seed + counter * GAMMA) & M64) * units + steps) & low  # lane i: word counter + i + 1
    x = ((x ^ (x >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
    x = ((x ^ (x >> 27)) & low) * 0x94D049BB133111EB & low
    faces: list[int] = []
    for z in read((x ^ (x >> 31)).to_bytes(size, "little")):  # (the top lane has no spill)
        if z >= _D6_LIMIT:  # a word to reject (odds 4 in 2**64): the counting loop instead
            return d6_faces_counted(seed, counter, n)
        faces.append(z % 6 + 1)
    return faces, counter + n  # one word per face: none was rejected


def d6_faces_counted(seed: int, counter: int, n: int) -> tuple[list[int], int]:
    """``d6_faces_python`` counting every word it draws, the rejected ones included."""
    faces: list[int] = []
    x = (seed + counter * GAMMA) & M64
    while n > 0:
        counter += 1
        x = (x + GAMMA) & M64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        if z < _D6_LIMIT:
            faces.append(z % 6 + 1)
            n -= 1
    return faces, counter


def d6_throw_python(seed: int, counter: int, a: int, d: int) -> tuple[Throw, Throw, int]:
    """A battle's ``a + d`` faces from the stream after position ``counter`` (as ``d6_faces``),
    the attacker's first ``a`` and the defender's other ``d`` each highest first, as they are
    compared, and the position after them."""
    faces, counter = d6_faces_python(seed, counter, a + d)
    # The usual sizes sorted by hand (``sorted`` with its keyword costs more than the
    # comparisons, and this is every battle).
    if a == 3:
        x, y, z = faces[0], faces[1], faces[2]
        if x < y:
            x, y = y, x
        if y < z:
            y, z = z, y
            if x < y:
                x, y = y, x
        attack: Throw = (x, y, z)
    elif a == 1:
        attack = (faces[0],)
    else:
        attack = highest_first(faces[:a])
    if d == 2:
        x, y = faces[a], faces[a + 1]
        return attack, ((x, y) if x >= y else (y, x)), counter
    if d == 1:
        return attack, (faces[a],), counter
    return attack, highest_first(faces[a:]), counter


def highest_first(faces: Sequence[int]) -> Throw:
    """A throw's faces in the order they are compared: highest first."""
    return tuple(sorted(faces, reverse=True))


def below_python(seed: int, counter: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) from the stream after position ``counter`` (0 < n < 2**64),
    by rejection sampling, and the position after it."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        counter += 1
        z = (seed + counter * GAMMA) & M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        if z < limit:
            return z % n, counter


# The version of _rng_accel.c these functions match: a build of another version is not used.
ACCEL_VERSION = 1


FacesDraw = Callable[[int, int, int], tuple[list[int], int]]  # (seed, counter, n)
ThrowDraw = Callable[[int, int, int, int], tuple[Throw, Throw, int]]  # (seed, counter, a, d)
BoundedDraw = Callable[[int, int, int], tuple[int, int]]  # (seed, counter, bound)


def _compiled() -> tuple[FacesDraw, ThrowDraw, BoundedDraw] | None:
    """The compiled ``d6_faces``, ``d6_throw`` and ``below``, or None when they are not to be
    used."""
    if os.environ.get("RISK_PURE_PYTHON"):
        return None
    try:
        accel = importlib.import_module("risk_core._rng_accel")
    except ImportError:  # installed without a C compiler
        return None
    if getattr(accel, "ACCEL_VERSION", None) != ACCEL_VERSION:
        return None  # a stale build beside newer Python code
    return accel.d6_faces, accel.d6_throw, accel.below


_COMPILED = _compiled()
ACCELERATED = _COMPILED is not None
d6_faces, d6_throw, _below = _COMPILED or (d6_faces_python, d6_throw_python, below_python)


def normalise_seed(seed: int | str) -> int:
    """Any int or string seed → an unsigned 64-bit seed (strings through SHA-256)."""
    if isinstance(seed, str):
        import hashlib

        return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    return seed & M64


def seed_commitment(game_id: str, seed: int) -> str:
    """The published commitment to a secret seed: SHA-256 of "<game id>:<seed>"."""
    import hashlib

    return "sha256:" + hashlib.sha256(f"{game_id}:{seed}".encode()).hexdigest()


class Rng:
    """A cursor over a game's random stream; used only inside ``decide``.

    ``counter`` is how many 64-bit words have been consumed; ``script`` holds scripted die faces
    still to be used and ``scripted`` counts the faces taken from it.  Events record both so that
    ``evolve`` moves the state's position without rolling anything.
    """

    __slots__ = ("seed", "counter", "script", "scripted")

    def __init__(self, seed: int, counter: int = 0, script: Sequence[int] = ()) -> None:
        self.seed = seed
        self.counter = counter
        self.script = script
        self.scripted = 0

    def next64(self) -> int:
        self.counter += 1
        return mix64((self.seed + self.counter * GAMMA) & M64)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        value, self.counter = _below(self.seed, self.counter, n)
        return value

    def die(self) -> int:
        """One d6 face: scripted when a script is loaded, else ``below(6) + 1`` from the seeded
        stream (a battle's plain dice are drawn by ``d6_faces``, the hot path)."""
        if self.scripted < len(self.script):
            face = self.script[self.scripted]
            self.scripted += 1
            return face
        return self.below(6) + 1  # (the same bound as ``_D6_LIMIT``)

    def roll(self, sides: int) -> int:
        """One face of a die with ``sides`` faces (2..100): scripted when a script is loaded,
        else ``below(sides) + 1`` from the seeded stream (so ``roll(6)`` draws as ``die()``).

        Raises ``ValueError`` for a number of sides outside 2..100.
        """
        if type(sides) is not int or not 2 <= sides <= 100:
            raise ValueError(f"a die has 2 to 100 sides, not {sides!r}")
        if self.scripted < len(self.script):
            face = self.script[self.scripted]
            if face > sides:  # the command is refused, the script left as it was
                raise RuleError(
                    "bad_script",
                    f"The dice script's next face, {face}, is more than a d{sides} can show.",
                )
            self.scripted += 1
            return face
        return self.below(sides) + 1

    def dice(self, n: int) -> list[int]:
        """``n`` faces of ``die()``, drawn in one loop (a battle's throw: the hot path)."""
        if self.scripted < len(self.script):
            return [self.die() for _ in range(n)]
        faces, self.counter = d6_faces(self.seed, self.counter, n)
        return faces

    def shuffle(self, items: list[int]) -> list[int]:
        """Fisher–Yates (ENG-03); returns a new list."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
