"""Load: 4 concurrent clients, 1,000 random legal and illegal commands, 20 games, 2 workers."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import risk_core
from risk_core.model import Attack, EndTurn, Place
from risk_service import GameService
from risk_service.client import ServiceClient
from tests.servicekit import Table, spawn_worker, stop_process

CLIENTS, GAMES, COMMANDS = 4, 20, 1000


def client_run(
    url: str, tables: list[Table], commands: int, seed: int, out: dict[str, Any]
) -> None:
    rnd = random.Random(seed)
    with ServiceClient(url) as client:
        for t in tables:
            t.client = client
        for i in range(commands):
            t = tables[i % len(tables)]
            if t.over:
                continue
            assert t.state is not None
            roll = rnd.random()
            seat = risk_core.to_act(t.state)
            assert seat is not None
            if roll < 0.7:
                command = t.next_command()
                reply = t.send(command)
            elif roll < 0.8:  # out of turn
                reply = t.send(EndTurn(seat=(seat + 1) % 3))
            elif roll < 0.9:  # nonsense
                reply = t.send(
                    rnd.choice(
                        [
                            Place(seat=seat, territory="atlantis"),
                            Attack(seat=seat, origin="peru", target="japan"),
                        ]
                    )
                )
            else:  # a seat's command signed with another seat's key
                reply = t.send(t.next_command(), key=t.keys[(seat + 1) % 3])
                assert reply.code == "bad_signature"
            out["accepted" if reply.ok else reply.code] = (
                out.get("accepted" if reply.ok else reply.code, 0) + 1
            )


def test_load(redis_server: Any, tmp_path: Path) -> None:
    store = f"sqlite://{tmp_path / 'games.db'}"
    workers = [spawn_worker(redis_server.url, store, lease_ms=1500) for _ in range(2)]
    try:
        with ServiceClient(redis_server.url) as setup:
            tables = [Table(setup, f"load{i}", seed=100 + i).create() for i in range(GAMES)]
        counts: list[dict[str, Any]] = [{} for _ in range(CLIENTS)]
        per = GAMES // CLIENTS
        threads = [
            threading.Thread(
                target=client_run,
                args=(
                    redis_server.url,
                    tables[c * per : (c + 1) * per],
                    COMMANDS // CLIENTS,
                    c,
                    counts[c],
                ),
            )
            for c in range(CLIENTS)
        ]
        start = time.monotonic()
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        elapsed = time.monotonic() - start
        assert not any(th.is_alive() for th in threads)
    finally:
        for w in workers:
            stop_process(w)
    total: dict[str, int] = {}
    for c in counts:
        for k, v in c.items():
            total[k] = total.get(k, 0) + v
    assert sum(total.values()) == COMMANDS, total  # every request answered
    assert total["accepted"] > COMMANDS // 2 and total["bad_signature"] > 0, total
    print(f"{COMMANDS} commands in {elapsed:.2f} s: {total}")
    with GameService(store) as service:
        recorded = 0
        for t in tables:
            events = service.events(t.game_id)
            assert events == t.events  # the accepted commands, once each, in order
            fresh = risk_core.replay(events)
            assert risk_core.encode(service.state(t.game_id)) == risk_core.encode(fresh)
            recorded += sum(1 for r in service.records(t.game_id) if r.command is not None)
        assert recorded == total["accepted"]
    # One ledger row per decided request (accepted or refused by the rules, each creation and
    # each seat's claim); refusals before deciding (bad signatures) leave none.
    refused = sum(v for k, v in total.items() if k not in ("accepted", "bad_signature"))
    with sqlite3.connect(tmp_path / "games.db") as db:
        [(rows,)] = db.execute("SELECT COUNT(*) FROM risk_requests").fetchall()
    assert rows == total["accepted"] + refused + GAMES * 4  # a creation and 3 claims
