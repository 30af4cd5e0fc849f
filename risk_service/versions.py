"""Version pinning: a history is replayed only by the rules and board it was recorded with.

Every opening event names the engine version (``game_started.engine``) and the board's content
hash (``board_hash``).  Folding a history recorded by other rules, or on other board data, would
not fail: it would quietly give another game.  So replays, branches, audits and imports first
call ``pinned``, which returns the records as this engine must read them or refuses with
``RiskError("version_mismatch")``.

Reading an older history is the job of an *upcaster*: a function registered in ``UPCASTERS``
under ``(from_engine, to_engine)`` that rewrites whole records (and the ``engine`` field of
their ``game_started``) from one engine version to the next.  ``pinned`` chains them from the
recorded version up to ``risk_core.ENGINE_VERSION``.  None exists today: every stored game was
recorded by this engine.  A board whose data changed has no upcaster: the game is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from risk_core import ENGINE_VERSION, BoardError, RiskError, load_board
from risk_core.model import GameStarted
from risk_service.store import GameRecord

Upcaster = Callable[[Sequence[GameRecord]], list[GameRecord]]

# (recorded engine version, engine version it upcasts to) → upcaster.  Empty: see above.
UPCASTERS: dict[tuple[str, str], Upcaster] = {}


def board_mismatch(started: GameStarted) -> str | None:
    """Why the board data differ from the recorded ones, or None."""
    try:
        board = load_board(started.board)
    except BoardError:
        return f"it was played on board '{started.board}', which this installation does not have"
    if started.board_hash != board.content_hash:
        return (
            f"its board '{started.board}' had content {started.board_hash}, and this "
            f"installation's is {board.content_hash}"
        )
    return None


def mismatch(started: GameStarted) -> str | None:
    """Why this engine cannot read the history opened by ``started`` as it is, or None."""
    board = board_mismatch(started)
    if board is not None:
        return board
    if started.engine != ENGINE_VERSION:
        return f"it was recorded by engine {started.engine}, and this is engine {ENGINE_VERSION}"
    return None


def pinned(records: Sequence[GameRecord], game_id: str = "") -> list[GameRecord]:
    """``records`` as this engine reads them: unchanged, upcast through ``UPCASTERS``, or
    refused with ``version_mismatch`` (never replayed as if nothing had changed)."""
    started = opening_of(records)
    problem = mismatch(started)
    if problem is None:
        return list(records)
    chain = None if board_mismatch(started) else _chain(started.engine)
    if chain is None:  # board data cannot be upcast
        raise _refusal(game_id, problem)
    out = list(records)
    for step in chain:
        out = UPCASTERS[step](out)
    problem = mismatch(opening_of(out))
    if problem is not None:
        raise _refusal(game_id, f"after upcasting, {problem}")
    return out


def opening_of(records: Sequence[GameRecord]) -> GameStarted:
    first = records[0].events[0] if records and records[0].events else None
    if not isinstance(first, GameStarted):
        raise RiskError("bad_history", "A game's history must begin with game_started.")
    return first


def _chain(engine: str) -> list[tuple[str, str]] | None:
    """The upcasters leading from ``engine`` to this engine's version (a breadth-first search)."""
    paths: dict[str, list[tuple[str, str]]] = {engine: []}
    frontier = [engine]
    while frontier:
        nxt = []
        for version in frontier:
            if version == ENGINE_VERSION:
                return paths[version]
            for step in UPCASTERS:
                if step[0] == version and step[1] not in paths:
                    paths[step[1]] = [*paths[version], step]
                    nxt.append(step[1])
        frontier = nxt
    return None


def _refusal(game_id: str, problem: str) -> RiskError:
    what = f"Game {game_id}" if game_id else "This game"
    return RiskError(
        "version_mismatch",
        f"{what} cannot be replayed by these rules: {problem} (no upcaster applies).",
    )
