"""What-if analysis: many seeded futures of one position, played by bots (issue 18).

A *future* is the game from a position on, with new dice and bots at every seat.  Everything
about run ``i`` of a simulation comes from ``(seed, i)`` alone (``run_seeds``): its dice seed,
its bots' seed and, when simulating as a seat, its draw of the hidden cards and missions.  So a
report does not depend on how the runs are spread over processes, and any one future can be
played again on its own (``risk simulate --keep`` stores some as branches that way).

A future starts as a reseeded branch of the position starts (``branch_start``): the events
``branched`` and ``dice_reseeded`` applied to it.  The state a stored branch reaches is then the
very state the future was played from, and the bots' commands, submitted to the branch, give
the same events.

Hidden information (ENG-07): a seat simulating its own game may not read the others' hands and
missions, the order of the draw pile, the seed or a loaded dice script.  ``redeal_hidden``
replaces them with a draw from what that seat may know, computed from public facts only, so
the sampled position is the same whatever the hidden values were.

The statistics (Wilson intervals, quartiles, the two-proportion z-test) are here too: plain
arithmetic on the outcomes, with no library whose version could change a report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import msgspec

from risk_core.bots import LEVELS, play
from risk_core.engine import apply_in_place, decode_state, ruleset_of
from risk_core.errors import RuleError
from risk_core.model import Branched, Command, DiceReseeded, GameState, Seat, copy_state
from risk_core.rng import Rng, normalise_seed
from risk_core.rulesets import load_family

# A future that has not ended after this many turns is "undecided": greedy bots can stall.
DEFAULT_MAX_TURNS = 500
Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%

End = Literal["won", "turns", "cap"]


# --------------------------------------------------------------------------- seeds
class RunSeeds(msgspec.Struct, frozen=True):
    """The three independent streams of one run: its dice, its bots, its hidden deal."""

    dice: int
    bots: int
    deal: int


def run_seeds(seed: int | str, run: int) -> RunSeeds:
    """Run ``run``'s seeds: words ``3·run + 1 … 3·run + 3`` of the stream keyed by ``seed``.

    A counter-based stream (``risk_core.rng``): a run's seeds need no earlier run's.
    """
    if run < 0:
        raise ValueError(f"run numbers start at 0, not {run}")
    rng = Rng(normalise_seed(seed), 3 * run)
    return RunSeeds(dice=rng.next64(), bots=rng.next64(), deal=rng.next64())


# --------------------------------------------------------------------------- hidden information
def check_redealable(state: GameState) -> None:
    """Refuse (``hidden_family``) a game whose rule family keeps secrets of its own.

    ``redeal_hidden`` knows CORE's secrets (hands, missions, the pile, the dice).  A family
    shows a seat's secrets to that seat only (``seat_view``, ``view_extra``), or keeps cards
    outside the hands and the pile (``family_cards``): drawing those again would need the
    family's own dealing rules, so such games are simulated only by someone who sees all.
    """
    if state.family is msgspec.UNSET:
        return
    rs = ruleset_of(state)
    seats = range(len(state.players))
    secret = (
        any(True for _ in rs.family_cards(state))
        or any(rs.seat_view(state, i, i) != rs.seat_view(state, i, None) for i in seats)
        or any(rs.view_extra(state, i) != rs.view_extra(state, None) for i in seats)
    )
    if secret:
        raise RuleError(
            "hidden_family",
            f"{state.ruleset} keeps secrets of its own that cannot be drawn again: simulate "
            "it without --as, on a store you may read whole.",
        )


def redeal_hidden(state: GameState, seat: Seat, rng: Rng) -> GameState:
    """A copy of ``state`` in which what ``seat`` cannot know is drawn again from ``rng``.

    ``seat`` knows its own hand (its team's, in a team game), its own mission and the
    discards (every traded card was shown).  Every other card is in another hand or the pile:
    that pool, sorted, is shuffled and dealt again, each hand keeping its (public) size and the
    rest forming the pile.  Every other mission is drawn again, without repeats, from the
    board's missions other than the seat's own.  The seed, the dice stream's position and any
    dice script are dropped: a future takes its own dice (``branch_start``).

    The result depends only on public facts, ``seat``'s own secrets and ``rng``: changing the
    others' hands, missions, the pile's order or the seed changes nothing in it.  Raises
    ``hidden_family`` (``check_redealable``) for a family with secrets of its own.
    """
    check_redealable(state)
    rs = ruleset_of(state)
    players = state.players
    team = rs.team_of(state, seat)

    def shares_hand(i: Seat) -> bool:
        return i == seat or (team is not None and rs.team_of(state, i) == team)

    hidden = [i for i in range(len(players)) if not shares_hand(i)]
    # Sorted: the pool is a set everyone can work out, never the hidden order it is kept in.
    pool = sorted([*state.deck, *(c for i in hidden for c in players[i].hand)])
    dealt = rng.shuffle(pool)
    new = copy_state(state)
    for i in hidden:
        size = len(players[i].hand)
        new.players[i].hand, dealt = dealt[:size], dealt[size:]
    new.deck = dealt
    own = players[seat].mission
    unseen = [i for i in range(len(players)) if i != seat and players[i].mission is not None]
    if unseen:
        missions = [m.id for m in rs.board.missions if m.id != own]
        if len(missions) < len(unseen):
            raise RuleError("missing_data", f"Board {state.board} has too few missions.")
        drawn = rng.shuffle(list(range(len(missions))))
        for i, k in zip(unseen, drawn, strict=False):
            new.players[i].mission = missions[k]
    new.seed, new.rng = 0, 0
    new.previous_seeds = []
    new.dice_script = []
    return new


# --------------------------------------------------------------------------- one future
class Future(msgspec.Struct, frozen=True, kw_only=True):
    """How one future ended, and (``record=True``) the commands that played it."""

    run: int
    end: End  # won: the game ended; turns: --turns reached; cap: max_turns reached
    winner: Seat | None
    winners: tuple[Seat, ...]  # the winner's side (its team in a team game)
    eliminated: tuple[Seat, ...]
    territories: tuple[int, ...]  # per seat, at the end of the future
    armies: tuple[int, ...]
    turns: int  # turns played, the one under way at the position counted
    commands: tuple[Command, ...] = ()


def branch_start(state: GameState, *, parent: str, at: int, dice_seed: int) -> GameState:
    """The state a branch of ``parent`` after ``at`` events, reseeded with ``dice_seed``,
    starts from (``risk_service.history.branch`` with ``dice="reseed"``).

    The state keeps no commitment, so the event here carries none; the stored branch's does.
    """
    new = copy_state(state)
    return apply_in_place(
        new,
        [Branched(parent=parent, version=at), DiceReseeded(seed=dice_seed, commitment="")],
    )


def future(
    start: GameState,
    *,
    bot_seed: int,
    level: str = "greedy",
    turns: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    run: int = 0,
    record: bool = False,
) -> Future:
    """Bots at every seat play ``start`` on until the game ends, ``turns`` turns have been
    played, or ``max_turns`` have (``end`` says which).

    The turn under way counts as the first (from setup, the first turn does): a future
    stopped after K turns stops as turn number ``first + K`` begins, before anyone acts in it.
    """
    if level not in LEVELS:
        raise RuleError("bad_level", f"Unknown bot level {level!r} ({', '.join(LEVELS)}).")
    state = copy_state(start)
    first = max(state.turn, 1)  # setup is turn 0, before the first turn
    limit = min(max_turns, turns if turns is not None else max_turns)
    commands: list[Command] = []
    end: End = "won"
    while state.phase != "over":
        if state.turn >= first + limit:
            end = "turns" if turns is not None and turns <= max_turns else "cap"
            break
        cmd, events = play(state, level=level, seed=bot_seed)
        if record:
            commands.append(cmd)
        apply_in_place(state, events)
    played = min(limit, state.turn - first + 1) if state.version > start.version else 0
    return _outcome(state, run, end, played, tuple(commands))


def _outcome(
    state: GameState, run: int, end: End, turns: int, commands: tuple[Command, ...]
) -> Future:
    rs = ruleset_of(state)
    n = len(state.players)
    winners: tuple[Seat, ...] = ()
    if state.winner is not None:
        team = rs.team_of(state, state.winner)
        winners = tuple(
            s
            for s in range(n)
            if s == state.winner or (team is not None and rs.team_of(state, s) == team)
        )
    armies = [0] * n
    for t in range(len(state.owner)):
        for s, count in rs.occupants(state, t).items():
            armies[s] += count
    return Future(
        run=run,
        end=end,
        winner=state.winner,
        winners=winners,
        eliminated=tuple(s for s, p in enumerate(state.players) if p.eliminated),
        territories=tuple(state.owner.count(s) for s in range(n)),
        armies=tuple(armies),
        turns=turns,
        commands=commands,
    )


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """What every run of a simulation shares."""

    parent: str  # the game simulated (the branches' parent)
    at: int  # its version simulated
    seed: int | str
    level: str = "greedy"
    turns: int | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    viewer: Seat | None = None  # simulate as this seat (None: someone who sees everything)


def run_future(position: GameState, plan: Plan, run: int, *, record: bool = False) -> Future:
    """Run ``run`` of ``plan`` from ``position``: the hidden deal (as ``plan.viewer``), the
    reseeded branch start, then the bots."""
    seeds = run_seeds(plan.seed, run)
    if plan.viewer is not None:
        position = redeal_hidden(position, plan.viewer, Rng(seeds.deal))
    start = branch_start(position, parent=plan.parent, at=plan.at, dice_seed=seeds.dice)
    return future(
        start,
        bot_seed=seeds.bots,
        level=plan.level,
        turns=plan.turns,
        max_turns=plan.max_turns,
        run=run,
        record=record,
    )


def run_range(
    position: bytes, plan: Plan, first: int, stop: int, family: str | None = None
) -> list[Future]:
    """Runs ``first`` to ``stop - 1`` of ``plan`` from a position given as JSON (``encode``).

    The entry point of a worker process: its arguments are plain data, and ``family`` names
    the module defining the position's rule set, imported first where it is not registered
    yet (a process started afresh knows the built-in rule sets only).
    """
    if family is not None:
        load_family(family)
    state = decode_state(position)
    return [run_future(state, plan, run) for run in range(first, stop)]


# --------------------------------------------------------------------------- statistics
class Proportion(msgspec.Struct, frozen=True):
    """``count`` of ``n`` with its 95% Wilson score interval [``low``, ``high``]."""

    count: int
    n: int
    p: float
    low: float
    high: float


def wilson(count: int, n: int, z: float = Z95) -> Proportion:
    """The Wilson score interval: unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and does
    not shrink to a point at 0% or 100%."""
    if n <= 0 or not 0 <= count <= n:
        raise ValueError(f"a proportion needs 0 <= count <= n and n > 0, not {count}/{n}")
    p = count / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == n else min(1.0, centre + half)
    return Proportion(count=count, n=n, p=p, low=low, high=high)


class Spread(msgspec.Struct, frozen=True):
    """A sample's mean, extremes and quartiles (linear interpolation between order
    statistics, numpy's default and ``statistics.quantiles(method="inclusive")``)."""

    mean: float
    min: int
    q1: float
    median: float
    q3: float
    max: int


def quantile(sorted_values: Sequence[int], q: float) -> float:
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def spread(values: Sequence[int]) -> Spread:
    if not values:
        raise ValueError("an empty sample has no spread")
    xs = sorted(values)
    return Spread(
        mean=sum(xs) / len(xs),
        min=xs[0],
        q1=quantile(xs, 0.25),
        median=quantile(xs, 0.5),
        q3=quantile(xs, 0.75),
        max=xs[-1],
    )


class ZTest(msgspec.Struct, frozen=True):
    """Two proportions compared: their difference a − b, z, the two-sided p-value, and
    whether the difference is significant at 95%."""

    difference: float
    z: float
    p_value: float
    significant: bool


def two_proportion(k_a: int, n_a: int, k_b: int, n_b: int) -> ZTest:
    """The pooled two-proportion z-test.  Both 0% or both 100% is no difference (z = 0)."""
    if n_a <= 0 or n_b <= 0:
        raise ValueError("each side needs at least one run")
    pa, pb = k_a / n_a, k_b / n_b
    pooled = (k_a + k_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    z = 0.0 if se == 0 else (pa - pb) / se
    p_value = math.erfc(abs(z) / math.sqrt(2))
    return ZTest(difference=pa - pb, z=z, p_value=p_value, significant=abs(z) > Z95)


# --------------------------------------------------------------------------- the report
class SeatOdds(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    name: str
    win: Proportion
    eliminated: Proportion
    territories: Spread | None = None  # with --turns: at the end of each future
    armies: Spread | None = None


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    runs: int
    won: int  # futures that ended with a winner
    stopped: int  # futures stopped after --turns turns
    capped: int  # futures stopped at max_turns: undecided
    mean_turns: float
    seats: list[SeatOdds]


def summarize(outcomes: Sequence[Future], names: Sequence[str], *, spreads: bool) -> Summary:
    """Per seat: its side's wins and its eliminations as proportions of all runs, and with
    ``spreads`` its territories and armies at the end of the futures."""
    n = len(outcomes)
    seats = []
    for s, name in enumerate(names):
        wins = sum(1 for f in outcomes if s in f.winners)
        lost = sum(1 for f in outcomes if s in f.eliminated)
        seats.append(
            SeatOdds(
                seat=s,
                name=name,
                win=wilson(wins, n),
                eliminated=wilson(lost, n),
                territories=spread([f.territories[s] for f in outcomes]) if spreads else None,
                armies=spread([f.armies[s] for f in outcomes]) if spreads else None,
            )
        )
    return Summary(
        runs=n,
        won=sum(1 for f in outcomes if f.end == "won"),
        stopped=sum(1 for f in outcomes if f.end == "turns"),
        capped=sum(1 for f in outcomes if f.end == "cap"),
        mean_turns=sum(f.turns for f in outcomes) / n,
        seats=seats,
    )


def surprising(outcomes: Sequence[Future], k: int) -> list[tuple[Future, float]]:
    """The ``k`` most surprising futures, with the share of runs that ended the same way.

    A future's outcome is the side that won it, or "undecided" when it did not end; the
    futures whose outcome was rarest among all runs come first, earlier runs first among
    equals.
    """
    share: dict[tuple[Seat, ...], int] = {}
    for f in outcomes:
        share[f.winners] = share.get(f.winners, 0) + 1
    ranked = sorted(outcomes, key=lambda f: (share[f.winners], f.run))
    return [(f, share[f.winners] / len(outcomes)) for f in ranked[:k]]
