"""PostgreSQL scales out (issue 14 goal 6): writers of different games do not wait on each
other's transactions; the library's table-wide lock per insert is gone from the command path,
and listing games and branch points still works."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest

import risk_core
from risk_core import bots
from risk_service import GameService
from risk_service.app import Game


@pytest.fixture
def pg_store(postgres_url: str) -> Iterator[str]:
    from tests.conftest import _fresh_schema

    yield from _fresh_schema(postgres_url)


def _waiting(postgres_url: str) -> list[tuple[str, str]]:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT l.locktype, l.mode FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE NOT l.granted AND a.datname = current_database()"
        ).fetchall()
    return [(str(k), str(m)) for k, m in rows]


def test_two_writers_of_two_games_do_not_wait_on_each_other(
    pg_store: str, postgres_url: str
) -> None:
    """issue 14 goal 6: while one store holds a transaction open that has inserted events of
    game A (as a worker between its insert and its commit), another stores a command of game B
    at once, and no connection waits for a lock; games are still listed in creation order."""
    with GameService(pg_store) as made:
        made.create_schema()
    with GameService(pg_store) as one, GameService(pg_store) as two:
        one.new_game("classic", ["A", "B", "C"], seed=1, game_id="ga")
        two.new_game("classic", ["A", "B", "C"], seed=2, game_id="gb")
        recorder = one.application.recorder
        state_a = one.state("ga")
        command_a = bots.choose(state_a, level="greedy", seed=0)
        state_b = two.state("gb")
        command_b = bots.choose(state_b, level="greedy", seed=0)
        done = threading.Event()
        with recorder.datastore.transaction(commit=False) as cursor:  # rolled back at the end
            game = Game.restore("ga", risk_core.replay(one.events("ga")))
            game.play(command_a)
            stored = [one.application.mapper.to_stored_event(e) for e in game.collect_events()]
            recorder._insert_stored_events(cursor, stored)  # type: ignore[attr-defined]
            writer = threading.Thread(target=lambda: (two.submit("gb", command_b), done.set()))
            writer.start()
            deadline = time.monotonic() + 10
            while not done.is_set() and time.monotonic() < deadline:
                assert _waiting(postgres_url) == []
                time.sleep(0.01)
            writer.join(10)
            assert done.is_set(), "the second writer waited for the first one's transaction"
        assert two.state("gb").version > state_b.version
        assert one.state("ga").version == state_a.version  # the open transaction rolled back
        with GameService(pg_store) as third:
            assert [g.game_id for g in third.games()] == ["ga", "gb"]
