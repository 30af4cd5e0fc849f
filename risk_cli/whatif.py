"""What-if analysis: ``risk simulate`` and ``risk compare`` (issue 18).

Both play many futures of a position with bots and new dice (``risk_core.whatif``) and report
each seat's chances.  The runs are spread over worker processes (started with ``spawn``: a
store's background thread must not be forked) in chunks of consecutive runs; every run's
outcome depends on the seed and its number only, and the outcomes are put back in run order, so
``--jobs`` changes how fast a report comes, never what it says.

Local store only: a simulation without ``--as`` reads every hand, mission and the seed, which
only the store's owner may do; with ``--as`` it reads them too, to draw them again, so it stays
on the owner's machine as well.  ``--keep`` stores some futures as reseeded branches
(``risk_service.history.branch``) and submits the bots' commands to them, so each can be
replayed, audited and shown like any game.
"""

from __future__ import annotations

import math
import os
import secrets
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

import click
import msgspec
from tqdm import tqdm  # type: ignore[import-untyped]  # no stubs shipped

from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app, viewer
from risk_cli.games import Version, parse_seed
from risk_cli.render import plural
from risk_cli.turns import position as at_or_turn
from risk_cli.turns import turn_option
from risk_core import GameState, RiskError, encode, ruleset_of
from risk_core.bots import LEVELS
from risk_core.whatif import (
    DEFAULT_MAX_TURNS,
    Future,
    Plan,
    Summary,
    ZTest,
    check_redealable,
    run_future,
    run_range,
    run_seeds,
    summarize,
    surprising,
    two_proportion,
)
from risk_service import GameService, history

JsonDict = dict[str, Any]
MAX_RUNS = 1_000_000
CHUNKS_PER_JOB = 4  # chunks per worker: a slow chunk does not leave the other workers idle


# --------------------------------------------------------------------------- running the futures
class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """The options ``simulate`` and ``compare`` share, checked."""

    runs: int
    level: str
    turns: int | None
    max_turns: int
    jobs: int
    seed: int | str
    as_seat: str | None


def check_setup(
    runs: int,
    level: str,
    turns: int | None,
    max_turns: int,
    jobs: int | None,
    seed: str | None,
    as_seat: str | None,
) -> Setup:
    """The options, or the error naming the first bad one (nothing has run yet)."""
    if not 1 <= runs <= MAX_RUNS:
        raise RiskError("bad_runs", f"--runs is 1 to {MAX_RUNS}, not {runs}.")
    if turns is not None and turns < 1:
        raise RiskError("bad_turns", f"--turns counts turns to play: at least 1, not {turns}.")
    if max_turns < 1:
        raise RiskError("bad_turns", f"--max-turns is at least 1, not {max_turns}.")
    if jobs is not None and jobs < 1:
        raise RiskError("bad_jobs", f"--jobs is at least 1, not {jobs}.")
    parsed = parse_seed(seed)
    return Setup(
        runs=runs,
        level=level,
        turns=turns,
        max_turns=max_turns,
        jobs=jobs if jobs is not None else os.cpu_count() or 1,
        # A seed drawn here is printed with the report, so the report can be made again.
        seed=secrets.randbits(64) if parsed is None else parsed,
        as_seat=as_seat,
    )


def position(
    service: GameService, game_id: str, at: int | None, setup: Setup
) -> tuple[GameState, Plan]:
    """The position of ``game_id`` at version ``at`` (default: now) and its simulation's plan."""
    state = history.state_at(service, game_id, at)
    history.check_playable(state, game_id, "simulate")
    seat = viewer(state, setup.as_seat)
    if seat is not None:
        check_redealable(state)  # before any process starts
    return state, Plan(
        parent=game_id,
        at=state.version,
        seed=setup.seed,
        level=setup.level,
        turns=setup.turns,
        max_turns=setup.max_turns,
        viewer=seat,
    )


def chunks(runs: int, jobs: int) -> list[tuple[int, int]]:
    """Consecutive runs ``[first, stop)`` for the workers, in run order."""
    size = max(1, math.ceil(runs / (jobs * CHUNKS_PER_JOB)))
    return [(first, min(first + size, runs)) for first in range(0, runs, size)]


def run_all(state: GameState, plan: Plan, runs: int, jobs: int, what: str) -> list[Future]:
    """Every run's outcome, in run order; a progress bar on a terminal's standard error."""
    bar = tqdm(
        total=runs,
        desc=what,
        unit=" futures",
        file=sys.stderr,
        leave=False,
        disable=not sys.stderr.isatty(),
    )
    parts = chunks(runs, jobs)
    with bar:
        if jobs == 1 or len(parts) == 1:  # no process to start for one chunk
            out = []
            for run in range(runs):
                out.append(run_future(state, plan, run))
                bar.update(1)
            return out
        data = encode(state)
        family = type(ruleset_of(state)).__module__  # a plug-in family is imported in each worker
        done: list[list[Future]] = [[] for _ in parts]
        workers = min(jobs, len(parts))
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            pending = {
                pool.submit(run_range, data, plan, first, stop, family): i
                for i, (first, stop) in enumerate(parts)
            }
            for job in as_completed(pending):
                i = pending[job]
                done[i] = job.result()
                bar.update(len(done[i]))
        return [f for part in done for f in part]


# --------------------------------------------------------------------------- keeping futures
class Kept(msgspec.Struct, frozen=True, kw_only=True):
    """A future stored as a branch."""

    game_id: str
    run: int
    winners: list[int]  # its winning side; empty: undecided
    share: float  # the share of all futures that ended the same way
    version: int


def keep(
    service: GameService, state: GameState, plan: Plan, outcomes: Sequence[Future], k: int
) -> list[Kept]:
    """Store the ``k`` most surprising futures as branches of the game simulated.

    Each is a reseeded branch (its run's dice seed) to which the bots' commands are submitted
    one by one: an ordinary game, whose every event the engine decided and stored.
    """
    kept = []
    for outcome, share in surprising(outcomes, k):
        made = history.branch(
            service,
            plan.parent,
            plan.at,
            dice="reseed",
            seed=run_seeds(plan.seed, outcome.run).dice,
        )
        played = run_future(state, plan, outcome.run, record=True)
        for command in played.commands:
            service.submit(made.game_id, command)
        final = service.state(made.game_id)
        if final.winner != outcome.winner:
            raise RiskError(
                "keep_diverged",
                f"Branch {made.game_id} did not end as run {outcome.run} did: "
                "the engine is not deterministic here.",
            )
        kept.append(
            Kept(
                game_id=made.game_id,
                run=outcome.run,
                winners=list(outcome.winners),
                share=share,
                version=final.version,
            )
        )
    return kept


# --------------------------------------------------------------------------- printing
def pct(p: float) -> str:
    return f"{p * 100:.1f}%"


def side_text(winners: Sequence[int], names: Sequence[str]) -> str:
    if not winners:
        return "undecided"
    return " and ".join(names[s] for s in winners) + " won"


def summary_json(summary: Summary) -> JsonDict:
    out: JsonDict = msgspec.to_builtins(summary)
    out["undecided"] = summary.stopped + summary.capped
    for seat in out["seats"]:
        for key in ("territories", "armies"):
            if seat.get(key) is None:
                seat.pop(key, None)
    return out


def print_summary(summary: Summary, turns: int | None, max_turns: int) -> None:
    click.echo(f"  {'player':<16}{'win':>7}  {'95% interval':<17}{'eliminated':>11}")
    for s in summary.seats:
        interval = f"[{pct(s.win.low)}, {pct(s.win.high)}]"
        click.echo(f"  {s.name:<16}{pct(s.win.p):>7}  {interval:<17}{pct(s.eliminated.p):>11}")
    ended = f"{summary.won} ended with a winner"
    if summary.stopped and turns is not None:  # only --turns stops a future before its end
        ended += f", {summary.stopped} still going after {plural(turns, 'turn')}"
    if summary.capped:
        ended += f", {summary.capped} undecided after {plural(max_turns, 'turn')}"
    click.echo(f"Futures: {ended}; {summary.mean_turns:.1f} turns on average.")
    if turns is None:
        return
    click.echo(
        f"After {plural(turns, 'turn')}: mean (quartiles) of each seat's territories and armies"
    )
    for s in summary.seats:
        assert s.territories is not None and s.armies is not None
        click.echo(
            f"  {s.name:<16}territories {_spread(s.territories):<26}armies {_spread(s.armies)}"
        )


def _spread(x: Any) -> str:
    return f"{x.mean:5.1f} ({x.q1:g} / {x.median:g} / {x.q3:g})"


# --------------------------------------------------------------------------- options
def simulation_options(f: Any) -> Any:
    """The options ``simulate`` and ``compare`` share."""
    for option in reversed(
        [
            click.option(
                "--runs",
                type=int,
                default=1000,
                show_default=True,
                help="How many futures to play.",
            ),
            click.option(
                "--level",
                type=click.Choice(LEVELS),
                default="greedy",
                show_default=True,
                help="The bots that play every seat.",
            ),
            click.option(
                "--turns",
                type=int,
                metavar="K",
                help="Stop each future after K turns and report territories and armies then.",
            ),
            click.option(
                "--max-turns",
                type=int,
                default=DEFAULT_MAX_TURNS,
                show_default=True,
                help="A future not over after this many turns is undecided.",
            ),
            click.option(
                "--jobs",
                type=int,
                metavar="J",
                help="Worker processes (default: one per core; 1: none).",
            ),
            click.option(
                "--seed",
                metavar="SEED",
                help="Number or text; the same seed gives the same report (default: random, "
                "printed).",
            ),
            as_option(
                "Simulate as this seat: the others' hands and missions and the pile are drawn "
                "again from what it may know."
            ),
            json_option,
        ]
    ):
        f = option(f)
    return f


# --------------------------------------------------------------------------- simulate
@click.command()
@game_argument
@click.option(
    "--at",
    type=Version(1),
    metavar="VERSION",
    help="Simulate the position after this many events (default: now).",
)
@turn_option("Simulate the position at the start of turn TURN (right after its turn_started).")
@click.option(
    "--keep",
    "keep_count",
    type=int,
    default=0,
    metavar="K",
    help="Store the K most surprising futures as branches (replay, audit, show them).",
)
@simulation_options
@pass_app
def simulate(
    app: App,
    game_id: str,
    at: int | None,
    turn: int | None,
    keep_count: int,
    runs: int,
    level: str,
    turns: int | None,
    max_turns: int,
    jobs: int | None,
    seed: str | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Play many futures of a position with bots and new dice, and report each seat's chances.

    Per seat: the chance to win (its side, in a team game) with a 95% interval, and to be
    eliminated; with --turns K, its territories and armies after K turns.  Without --as the
    simulation knows every hand, mission and the order of the pile; with --as SEAT those the
    seat cannot see are drawn again for every future.  The most surprising futures (--keep)
    are those whose outcome (who won, or undecided) was rarest.
    """
    setup = check_setup(runs, level, turns, max_turns, jobs, seed, as_seat)
    service = app.local_service("risk simulate", whole_game=True)
    if keep_count < 0 or keep_count > runs:
        raise RiskError("bad_keep", f"--keep is 0 to --runs ({runs}), not {keep_count}.")
    at = at_or_turn(app.backend, game_id, at, turn)
    state, plan = position(service, game_id, at, setup)
    if keep_count and plan.viewer is not None:
        raise RiskError(
            "bad_keep",
            "--keep stores futures of the game itself; with --as they are futures of a "
            "position drawn again, which is not this game's: drop --as or --keep.",
        )
    names = [p.name for p in state.players]
    outcomes = run_all(state, plan, runs, setup.jobs, "simulate")
    summary = summarize(outcomes, names, spreads=turns is not None)
    kept = keep(service, state, plan, outcomes, keep_count)
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "at": plan.at,
                "as": plan.viewer,
                "seed": setup.seed,
                "level": level,
                "turns": turns,
                "max_turns": max_turns,
                **summary_json(summary),
                "kept": [msgspec.to_builtins(k) for k in kept],
            }
        )
        return
    who = "" if plan.viewer is None else f", as {names[plan.viewer]}"
    within = "" if turns is None else f", within {plural(turns, 'turn')}"  # the shares are of those
    click.echo(
        f"{plural(runs, 'future')} of game {game_id} at version {plan.at} "
        f"({level} bots, seed {setup.seed}{who}){within}:"
    )
    print_summary(summary, turns, max_turns)
    if kept:
        click.echo(
            f"Kept {plural(len(kept), 'surprising future')} as branches (risk replay/audit/show):"
        )
        for k in kept:
            click.echo(
                f"  {k.game_id}  run {k.run}: {side_text(k.winners, names)} "
                f"({pct(k.share)} of futures ended so), {plural(k.version, 'event')}"
            )


# --------------------------------------------------------------------------- compare
@click.command()
@click.argument("a", metavar="GAME_A")
@click.argument("b", metavar="GAME_B")
@click.option("--at-a", type=Version(1), metavar="VERSION", help="A after this many events.")
@click.option("--at-b", type=Version(1), metavar="VERSION", help="B after this many events.")
@turn_option("Both at the start of turn TURN (each right after its turn_started).")
@simulation_options
@pass_app
def compare(
    app: App,
    a: str,
    b: str,
    at_a: int | None,
    at_b: int | None,
    turn: int | None,
    runs: int,
    level: str,
    turns: int | None,
    max_turns: int,
    jobs: int | None,
    seed: str | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Simulate two positions side by side: each seat's chances and whether they differ.

    The positions are of the same seats (two branches where a player chose differently).
    Each seat's difference in winning chance is tested with a two-proportion z-test at 95%;
    both sides use the same seed, run by run, and the test treats them as independent.
    """
    setup = check_setup(runs, level, turns, max_turns, jobs, seed, as_seat)
    service = app.local_service("risk compare", whole_game=True)
    at_a = at_or_turn(app.backend, a, at_a, turn, "--at-a")
    at_b = at_or_turn(app.backend, b, at_b, turn, "--at-b")
    state_a, plan_a = position(service, a, at_a, setup)
    state_b, plan_b = position(service, b, at_b, setup)
    names = [p.name for p in state_a.players]
    if state_a.ruleset != state_b.ruleset or names != [p.name for p in state_b.players]:
        raise RiskError(
            "not_comparable",
            f"Games {a} and {b} do not have the same rules and seats: compare positions of "
            "one game and its branches.",
        )
    sum_a = summarize(run_all(state_a, plan_a, runs, setup.jobs, a), names, spreads=False)
    sum_b = summarize(run_all(state_b, plan_b, runs, setup.jobs, b), names, spreads=False)
    rows = [
        SeatDifference(
            seat=x.seat,
            name=x.name,
            a=x.win.p,
            b=y.win.p,
            test=two_proportion(x.win.count, runs, y.win.count, runs),
        )
        for x, y in zip(sum_a.seats, sum_b.seats, strict=True)
    ]
    if as_json:
        echo_json(
            {
                "a": {"game_id": a, "at": plan_a.at, **summary_json(sum_a)},
                "b": {"game_id": b, "at": plan_b.at, **summary_json(sum_b)},
                "as": plan_a.viewer,
                "seed": setup.seed,
                "runs": runs,
                "level": level,
                "turns": turns,
                "max_turns": max_turns,
                # Each seat flat: seat, name, a, b, difference, z, p_value, significant.
                "seats": [
                    {"seat": r.seat, "name": r.name, "a": r.a, "b": r.b}
                    | msgspec.to_builtins(r.test)
                    for r in rows
                ],
            }
        )
        return
    click.echo(
        f"{plural(runs, 'future')} each of {a} (version {plan_a.at}) and {b} (version {plan_b.at}) "
        f"({level} bots, seed {setup.seed}):"
    )
    click.echo(f"  {'player':<16}{'A wins':>8}{'B wins':>8}{'A - B':>9}{'z':>7}  significant")
    for r in rows:
        t = r.test
        mark = "yes" if t.significant else "no"
        click.echo(
            f"  {r.name:<16}{pct(r.a):>8}{pct(r.b):>8}"
            f"{t.difference * 100:>+8.1f}%{t.z:>+7.2f}  {mark} (p = {t.p_value:.3g})"
        )


class SeatDifference(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's winning chance in A and in B, and the test of their difference."""

    seat: int
    name: str
    a: float
    b: float
    test: ZTest
