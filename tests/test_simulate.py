"""What-if analysis (issue 18): `risk simulate` and `risk compare`, and ``risk_core.whatif``.

Positions are scenario files and short games from the command line; every simulation here is
small (a few dozen futures, often stopped after one turn) so the suite stays fast.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import risk_core as rc
from risk_cli.whatif import chunks
from risk_core.bots import play
from risk_core.model import GameState
from risk_core.odds import assault
from risk_core.rng import Rng
from risk_core.whatif import (
    Z95,
    Plan,
    redeal_hidden,
    run_future,
    run_seeds,
    surprising,
    two_proportion,
    wilson,
)

Run = Callable[..., Result]
CLASSIC = [t.id for t in rc.load_board("classic").territories]


def out(risk: Run, *args: str) -> Any:
    return json.loads(risk(*args, "--json").stdout)


def error(risk: Run, *args: str) -> str:
    """The error code of a refused command (status 1, ``Error: … [code]`` on stderr)."""
    result = risk(*args, code=1)
    assert result.stdout == ""
    return result.stderr.strip().rsplit("[", 1)[1].rstrip("]")


def scenario(risk: Run, tmp_path: Path, name: str, **doc: Any) -> str:
    """A game from a scenario file (classic, Ann, Bob and Cy, Ann to attack) and its id."""
    doc = {
        "ruleset": "classic",
        "players": ["Ann", "Bob", "Cy"],
        "seed": 7,
        "current": "Ann",
        "phase": "attack",
        "turn": 9,  # past round 4: a last territory may fall (CL-21's protection is over)
        "round": 9,
        **doc,
    }
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return str(out(risk, "new", "--scenario", str(path), "--id", name)["game_id"])


def last_stand(armies: int, defenders: int) -> dict[str, Any]:
    """Bob's last territory, North Africa (``defenders``), against Ann's Brazil (``armies``);
    Brazil's other neighbours are Ann's, everything else Cy's, all with 1 army: Ann's only
    possible attack is that one, and conquering it fulfils her mission (destroy blue)."""
    territories = {t: {"owner": "Cy", "armies": 1} for t in CLASSIC}
    for t in ("venezuela", "peru", "argentina"):
        territories[t] = {"owner": "Ann", "armies": 1}
    territories["brazil"] = {"owner": "Ann", "armies": armies}
    territories["north_africa"] = {"owner": "Bob", "armies": defenders}
    return {"territories": territories, "missions": {"Ann": "destroy_blue"}}


@pytest.fixture
def game(risk: Run) -> str:
    """A classic game at its first version (setup): bots play it from the start."""
    return str(out(risk, "new", "--players", "Ann,Bob,Cy", "--seed", "5", "--id", "g")["game_id"])


# --------------------------------------------------------------------------- determinism
def test_same_seed_same_report_whatever_jobs(risk: Run, game: str) -> None:
    """issue 18: same seed ⇒ same report for --jobs 1 and --jobs 2 (runs in chunks over two
    processes, put back in run order); another seed gives another report."""
    args = ("simulate", game, "--runs", "12", "--seed", "3", "--turns", "4", "--json")
    one = risk(*args, "--jobs", "1").stdout
    two = risk(*args, "--jobs", "2").stdout
    assert one == two
    other = risk("simulate", game, "--runs", "12", "--seed", "4", "--turns", "4", "--json")
    assert other.stdout != one


def test_chunks_cover_every_run_in_order() -> None:
    """issue 18: the workers' chunks are consecutive runs, each run exactly once."""
    for runs, jobs in ((1, 4), (7, 2), (1000, 3), (5, 5)):
        parts = chunks(runs, jobs)
        assert [r for first, stop in parts for r in range(first, stop)] == list(range(runs))


def test_run_seeds_depend_on_seed_and_run_only() -> None:
    """issue 18: a run's seeds come from (seed, run): the same pair gives the same seeds, and
    the dice, bot and deal streams differ from each other and from run to run."""
    a = run_seeds(9, 3)
    assert a == run_seeds(9, 3)
    assert len({a.dice, a.bots, a.deal}) == 3
    assert run_seeds(9, 4) != a and run_seeds(10, 3) != a
    assert run_seeds("nine", 3) == run_seeds("nine", 3)


# --------------------------------------------------------------------------- statistics
def score_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% score interval found by bisection: every p the score test does not reject,
    |k/n − p| ≤ z·√(p(1−p)/n) — computed without Wilson's closed form."""

    def accepted(p: float) -> bool:
        return abs(k / n - p) <= z * math.sqrt(p * (1 - p) / n)

    def edge(inside: float, outside: float) -> float:
        for _ in range(200):
            mid = (inside + outside) / 2
            inside, outside = (mid, outside) if accepted(mid) else (inside, mid)
        return inside

    centre = k / n
    if k in (0, n):  # the score test accepts p̂ itself only in the limit; start just inside
        centre = min(max(centre, 1e-12), 1 - 1e-12)
    low = 0.0 if k == 0 else edge(centre, 0.0)
    high = 1.0 if k == n else edge(centre, 1.0)
    return low, high


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (5, 10), (10, 10), (1, 1000), (617, 1000)])
def test_wilson_matches_the_score_test(k: int, n: int) -> None:
    """issue 18: the 95% interval is Wilson's: the p the score test accepts, by bisection."""
    got = wilson(k, n)
    low, high = score_interval(k, n)
    assert got.p == k / n
    assert got.low == pytest.approx(low, abs=1e-9)
    assert got.high == pytest.approx(high, abs=1e-9)


def test_two_proportion_test_by_hand() -> None:
    """issue 18: the pooled two-proportion z-test: 45/100 against 30/100 pools to 0.375,
    se = √(0.375·0.625·0.02) ≈ 0.06847, z ≈ 2.191, significant; 45/100 against 40/100 is not."""
    test = two_proportion(45, 100, 30, 100)
    assert test.difference == pytest.approx(0.15)
    assert test.z == pytest.approx(0.15 / math.sqrt(0.375 * 0.625 * 0.02))
    assert test.p_value == pytest.approx(0.02846, abs=1e-4)
    assert test.significant
    assert not two_proportion(45, 100, 40, 100).significant
    same = two_proportion(10, 10, 20, 20)  # both 100%: no difference, no division by zero
    assert (same.z, same.significant) == (0.0, False)


def test_cli_intervals_are_the_score_intervals(risk: Run, game: str) -> None:
    """issue 18: each seat's interval in the report is the score interval of its count; with
    --turns K the text says the shares are those within K turns."""
    text = risk("simulate", game, "--runs", "4", "--seed", "1", "--turns", "3").stdout
    assert text.splitlines()[0].endswith("(greedy bots, seed 1), within 3 turns:")
    report = out(risk, "simulate", game, "--runs", "20", "--seed", "1", "--turns", "3")
    for seat in report["seats"]:
        for key in ("win", "eliminated"):
            share = seat[key]
            low, high = score_interval(share["count"], 20)
            assert (share["n"], share["p"]) == (20, share["count"] / 20)
            assert share["low"] == pytest.approx(low, abs=1e-9)
            assert share["high"] == pytest.approx(high, abs=1e-9)


# --------------------------------------------------------------------------- known answers
def test_finished_game_is_certain(risk: Run) -> None:
    """issue 18: a game already won is won in every future: 100%, interval [n/(n+z²), 1]."""
    demo = out(risk, "demo", "--seed", "1")
    report = out(risk, "simulate", demo["game_id"], "--runs", "8", "--seed", "2")
    assert report["won"] == 8 and report["undecided"] == 0
    for seat in report["seats"]:
        share = seat["win"]
        if seat["seat"] == demo["winner"]:
            assert (share["count"], share["p"], share["high"]) == (8, 1.0, 1.0)
            assert share["low"] == pytest.approx(8 / (8 + Z95**2))
        else:
            assert (share["count"], share["low"]) == (0, 0.0)


def test_overwhelming_attack_is_certain(risk: Run, tmp_path: Path) -> None:
    """issue 18: Ann attacks Bob's last army with 30: she wins her mission in her turn in
    every future (failing would take 20 lost battles in a row)."""
    gid = scenario(risk, tmp_path, "sure", **last_stand(30, 1))
    report = out(risk, "simulate", gid, "--runs", "10", "--seed", "1", "--turns", "1")
    ann, bob, cy = report["seats"]
    assert (ann["win"]["p"], bob["eliminated"]["p"], cy["win"]["p"]) == (1.0, 1.0, 0.0)


def test_one_attack_matches_the_exact_odds(risk: Run, tmp_path: Path) -> None:
    """issue 18: when one attack decides the game in this turn, the simulated chance matches
    the exact odds (`risk odds`, CORE-14..16) within its interval.  The greedy player attacks
    8 against 5 with 3 dice until it conquers or is down to 8 // 3 = 2 armies."""
    gid = scenario(risk, tmp_path, "odds", **last_stand(8, 5))
    exact = assault(8, 5, dice=3, stop_at=2)
    p = float(sum(pr for (_, left), pr in exact.outcomes.items() if left == 0))
    assert 0.2 < p < 0.8  # a real question, not a foregone one
    report = out(risk, "simulate", gid, "--runs", "200", "--seed", "1", "--turns", "1")
    ann, bob, _ = report["seats"]
    assert ann["win"]["low"] <= p <= ann["win"]["high"]
    assert ann["win"]["count"] == bob["eliminated"]["count"]  # the same futures
    assert report["won"] + report["stopped"] == 200


# --------------------------------------------------------------------------- hidden information
def mid_game() -> GameState:
    """A classic game played by bots until hands are dealt and some cards traded."""
    state = rc.replay(rc.start("classic", ["Ann", "Bob", "Cy", "Dee"], seed=11))
    while state.turn < 14 or not state.discard or state.phase != "attack":
        assert state.phase != "over"
        _, events = play(state, seed=1)
        rc.apply_in_place(state, events)
    assert all(p.mission for p in state.players) and any(p.hand for p in state.players[1:])
    return state


def hidden_changed(state: GameState) -> GameState:
    """The same public position with Ann's secrets kept and everyone else's changed: hands
    swapped with the pile, missions rotated, another seed, a loaded dice script."""
    other = rc.decode_state(rc.encode(state))
    pool = other.deck + [c for p in other.players[1:] for c in p.hand]
    pool.reverse()
    for p in other.players[1:]:
        p.hand, pool = pool[: len(p.hand)], pool[len(p.hand) :]
    other.deck = pool
    ids = [m.id for m in rc.load_board("classic").missions if m.id != state.players[0].mission]
    for i, p in enumerate(other.players[1:]):
        p.mission = ids[-1 - i]
    other.seed, other.rng, other.dice_script = 123456789, 42, [6, 6, 6]
    assert rc.encode(other) != rc.encode(state)
    return other


def test_redeal_never_reads_the_hidden_values() -> None:
    """issue 18, ENG-07: as Ann, the redealt position and every future played from it are
    the same whatever the others' hands, missions, the pile's order and the seed were."""
    state = mid_game()
    other = hidden_changed(state)
    for key in (1, 2, 3):
        assert rc.encode(redeal_hidden(state, 0, Rng(key))) == rc.encode(
            redeal_hidden(other, 0, Rng(key))
        )
    plan = Plan(parent="g", at=state.version, seed=5, viewer=0, turns=2)
    assert [run_future(state, plan, r) for r in range(4)] == [
        run_future(other, plan, r) for r in range(4)
    ]
    # Without --as the simulation reads them: the futures differ.
    seeing = Plan(parent="g", at=state.version, seed=5, turns=2)
    assert [run_future(state, seeing, r) for r in range(4)] != [
        run_future(other, seeing, r) for r in range(4)
    ]


def test_redeal_keeps_what_the_seat_knows() -> None:
    """issue 18: the seat's hand and mission, the discards, every hand size and the cards in
    play are kept; the others' hands and missions are drawn again."""
    state = mid_game()
    draws = [redeal_hidden(state, 0, Rng(k)) for k in range(6)]
    for new in draws:
        assert new.players[0].hand == state.players[0].hand
        assert new.players[0].mission == state.players[0].mission
        assert new.discard == state.discard
        assert [len(p.hand) for p in new.players] == [len(p.hand) for p in state.players]
        cards = sorted(new.deck + [c for p in new.players for c in p.hand])
        assert cards == sorted(state.deck + [c for p in state.players for c in p.hand])
        missions = [p.mission for p in new.players]
        assert len(set(missions)) == len(missions)  # dealt without repeats
        assert (new.seed, new.dice_script) == (0, [])
    assert len({rc.encode(d) for d in draws}) == len(draws)


def test_simulate_as_a_seat_ignores_hidden_facts(risk: Run, tmp_path: Path) -> None:
    """issue 18, ENG-07: two games alike but for Bob's hand, Cy's mission and the seed give
    Ann the same report (as Ann); read whole (no --as) they differ."""
    base = last_stand(9, 4)
    a = scenario(
        risk,
        tmp_path,
        "a",
        **base | {"missions": {"Ann": "destroy_blue", "Cy": "territories_24"}},
        hands={"Bob": ["alaska", "brazil"]},
    )
    b = scenario(
        risk,
        tmp_path,
        "b",
        **base | {"missions": {"Ann": "destroy_blue", "Cy": "asia_africa"}},
        hands={"Bob": ["peru", "joker"]},
        seed=99,
    )
    args = ("--runs", "12", "--seed", "4", "--turns", "3", "--as", "Ann")
    ra, rb = out(risk, "simulate", a, *args), out(risk, "simulate", b, *args)
    assert ra["as"] == 0
    assert {**ra, "game_id": None} == {**rb, "game_id": None}
    seeing = ("--runs", "12", "--seed", "4", "--turns", "3")
    assert {**out(risk, "simulate", a, *seeing), "game_id": None} != {
        **out(risk, "simulate", b, *seeing),
        "game_id": None,
    }


def test_family_secrets_refuse_as(risk: Run) -> None:
    """issue 18, ENG-07: napoleon-mission keeps its secret missions in its family state,
    which cannot be drawn again: --as is refused (hidden_family); read whole it runs."""
    gid = out(risk, "new", "--rules", "napoleon-mission", "--players", "Ann,Bob,Cy")["game_id"]
    assert error(risk, "simulate", gid, "--runs", "2", "--as", "Ann") == "hidden_family"
    report = out(risk, "simulate", gid, "--runs", "2", "--turns", "1", "--seed", "1")
    assert report["runs"] == 2


# --------------------------------------------------------------------------- --keep
def test_keep_stores_replayable_branches_that_audit_clean(risk: Run, game: str) -> None:
    """issue 18: --keep K stores the K futures whose outcome was rarest as branches; each is
    a game like any other: it replays, audits clean and ended as its future did."""
    report = out(risk, "simulate", game, "--runs", "6", "--seed", "2", "--keep", "2")
    kept = report["kept"]
    assert len(kept) == 2
    # Each outcome's share: a seat's wins (no teams in classic), or the undecided futures.
    share = {(s["seat"],): s["win"]["p"] for s in report["seats"] if s["win"]["count"]}
    if report["undecided"]:
        share[()] = report["undecided"] / 6
    assert kept[0]["share"] == min(share.values())
    for k in kept:
        assert k["share"] == share[tuple(k["winners"])]
        audit = risk("audit", k["game_id"])
        assert "PASSED" in audit.stdout
        shown = out(risk, "show", k["game_id"])
        assert shown["winner"] in k["winners"] and shown["version"] == k["version"]
        replay = out(risk, "replay", k["game_id"])
        assert replay["version"] == k["version"]
    tree = out(risk, "tree", game)
    assert {c["game_id"] for c in tree["tree"]["children"]} == {k["game_id"] for k in kept}


def test_surprising_picks_the_rarest_outcomes() -> None:
    """issue 18: "surprising" = the outcome (winning side, or undecided) with the smallest
    share of all runs, earlier runs first among equals."""
    from risk_core.whatif import Future

    def f(run: int, winners: tuple[int, ...]) -> Future:
        return Future(
            run=run,
            end="won" if winners else "cap",
            winner=winners[0] if winners else None,
            winners=winners,
            eliminated=(),
            territories=(),
            armies=(),
            turns=1,
        )

    outcomes = [f(0, (0,)), f(1, (1,)), f(2, (0,)), f(3, ()), f(4, (0,)), f(5, (1,))]
    picked = surprising(outcomes, 3)
    assert [(x.run, share) for x, share in picked] == [(3, 1 / 6), (1, 2 / 6), (5, 2 / 6)]


# --------------------------------------------------------------------------- compare
def test_compare_finds_a_real_difference(risk: Run, tmp_path: Path) -> None:
    """issue 18: Ann with 30 armies against Bob's last one, and with 3 against 4: her chance
    to win this turn differs, significantly (two-proportion z-test); Cy's does not."""
    strong = scenario(risk, tmp_path, "strong", **last_stand(30, 1))
    weak = scenario(risk, tmp_path, "weak", **last_stand(3, 4))
    report = out(risk, "compare", strong, weak, "--runs", "15", "--seed", "1", "--turns", "1")
    ann, _, cy = report["seats"]
    assert (ann["a"], ann["b"], ann["difference"]) == (1.0, 0.0, 1.0)
    assert ann["significant"] and ann["z"] > Z95 and ann["p_value"] < 0.05
    assert not cy["significant"] and cy["difference"] == 0.0
    text = risk("compare", strong, weak, "--runs", "15", "--seed", "1", "--turns", "1").stdout
    assert "yes" in text.splitlines()[2] and "Ann" in text.splitlines()[2]


def test_compare_a_position_with_itself(risk: Run, game: str) -> None:
    """issue 18: the same position twice, same seed: the same futures, no difference."""
    report = out(risk, "compare", game, game, "--runs", "6", "--seed", "3", "--turns", "2")
    assert report["a"]["seats"] == report["b"]["seats"]
    assert all(s["difference"] == 0 and not s["significant"] for s in report["seats"])


def test_compare_needs_the_same_seats(risk: Run, game: str) -> None:
    """issue 18: positions of different games (other seats) are not comparable."""
    other = out(risk, "new", "--players", "Ann,Bob,Dee", "--seed", "1")["game_id"]
    assert error(risk, "compare", game, other, "--runs", "2") == "not_comparable"


# --------------------------------------------------------------------------- output
def test_json_shape(risk: Run, game: str) -> None:
    """issue 18: the --json report's fields, for scripts."""
    report = out(risk, "simulate", game, "--runs", "4", "--seed", "9", "--turns", "2")
    assert set(report) == {
        "game_id", "at", "as", "seed", "level", "turns", "max_turns", "runs", "won",
        "stopped", "capped", "undecided", "mean_turns", "seats", "kept",
    }  # fmt: skip
    version = out(risk, "show", game)["version"]
    assert (report["game_id"], report["at"], report["seed"], report["runs"]) == (
        game,
        version,
        9,
        4,
    )
    assert report["won"] + report["undecided"] == 4
    seat = report["seats"][0]
    assert set(seat) == {"seat", "name", "win", "eliminated", "territories", "armies"}
    assert set(seat["win"]) == {"count", "n", "p", "low", "high"}
    assert set(seat["territories"]) == {"mean", "min", "q1", "median", "q3", "max"}
    plain = out(risk, "simulate", game, "--runs", "2", "--seed", "9", "--max-turns", "3")
    assert "territories" not in plain["seats"][0]  # the spread comes with --turns only
    assert plain["capped"] + plain["won"] == 2
    both = out(risk, "compare", game, game, "--runs", "2", "--seed", "1", "--turns", "1")
    assert set(both) == {"a", "b", "as", "seed", "runs", "level", "turns", "max_turns", "seats"}
    assert set(both["seats"][0]) == {
        "seat", "name", "a", "b", "difference", "z", "p_value", "significant",
    }  # fmt: skip


def test_text_report(risk: Run, game: str) -> None:
    """issue 18: the text report names the seed, each seat's chance and the spread."""
    text = risk("simulate", game, "--runs", "4", "--seed", "9", "--turns", "2").stdout
    version = out(risk, "show", game)["version"]
    assert text.startswith(
        f"4 futures of game g at version {version} (greedy bots, seed 9), within 2 turns:"
    )
    assert "95% interval" in text and "After 2 turns" in text and "Cy" in text


def test_text_report_counts_agree(risk: Run, game: str) -> None:
    """The report's counts agree with their nouns: one future, within one turn, one kept
    (it said "1 futures", "within 1 turns")."""
    args = ("--runs", "1", "--seed", "9", "--turns", "1", "--keep", "1")
    text = risk("simulate", game, *args).stdout
    version = out(risk, "show", game)["version"]
    assert text.startswith(
        f"1 future of game g at version {version} (greedy bots, seed 9), within 1 turn:"
    )
    assert "After 1 turn: " in text and "after 1 turn;" in text
    assert "Kept 1 surprising future as branches" in text


def test_random_seed_is_reported(risk: Run, game: str) -> None:
    """issue 18: without --seed one is drawn and printed; given back, it repeats the report."""
    first = out(risk, "simulate", game, "--runs", "3", "--turns", "1")
    again = out(risk, "simulate", game, "--runs", "3", "--turns", "1", "--seed", str(first["seed"]))
    assert again == first


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("--runs", "0"), "bad_runs"),
        (("--runs", "1000001"), "bad_runs"),
        (("--jobs", "0"), "bad_jobs"),
        (("--turns", "0"), "bad_turns"),
        (("--max-turns", "0"), "bad_turns"),
        (("--runs", "3", "--keep", "4"), "bad_keep"),
        (("--runs", "3", "--keep", "-1"), "bad_keep"),
        (("--runs", "3", "--keep", "1", "--as", "Ann"), "bad_keep"),
        (("--at", "99"), "bad_version"),
        (("--as", "Zed"), "unknown_seat"),
    ],
)
def test_bad_input_is_refused(risk: Run, game: str, args: tuple[str, ...], code: str) -> None:
    """issue 18: bad options get named error codes and nothing is stored."""
    assert error(risk, "simulate", game, *args) == code
    assert [g["game_id"] for g in out(risk, "games")] == [game]


def test_unknown_game_and_remote_store(risk: Run) -> None:
    """issue 18: an unknown game is unknown_game; through the service, simulate and compare
    are refused (local_only): they read every secret of the game."""
    assert error(risk, "simulate", "nope", "--runs", "2") == "unknown_game"
    assert error(risk, "--redis", "redis://127.0.0.1:1", "simulate", "x") == "local_only"
    assert error(risk, "--redis", "redis://127.0.0.1:1", "compare", "x", "y") == "local_only"


def test_bad_level_in_the_core() -> None:
    """issue 18: the core refuses a bot level it does not have (bad_level)."""
    state = rc.replay(rc.start("classic", ["Ann", "Bob", "Cy"], seed=1))
    with pytest.raises(rc.RuleError) as err:
        run_future(state, Plan(parent="g", at=1, seed=1, level="clever"), 0)
    assert err.value.code == "bad_level"


# ------------------------------------------------------------------ branch --replay-commands
def test_replay_commands_with_the_same_dice_ends_as_the_parent(risk: Run) -> None:
    """issue 18: a branch with the parent's dice (same) accepts every later command and ends
    where the parent ended (one event more: ``branched``); it audits clean."""
    demo = out(risk, "demo", "--seed", "2")
    made = out(risk, "branch", demo["game_id"], "--at", "120", "--replay-commands")
    replay = made["replay"]
    assert replay["applied"] == replay["commands"] > 0
    assert (replay["stopped_at"], replay["code"]) == (None, None)
    assert replay["version"] == demo["events"] + 1 == made["version"]
    parent, child = out(risk, "show", demo["game_id"]), out(risk, "show", made["game_id"])
    assert child["territories"] == parent["territories"] and child["winner"] == demo["winner"]
    assert "PASSED" in risk("audit", made["game_id"]).stdout


def test_replay_commands_with_new_dice_stops_at_the_first_illegal_one(risk: Run) -> None:
    """issue 18: with new dice the parent's decisions soon stop fitting: the branch keeps the
    accepted ones and says which version's command was refused, and why."""
    demo = out(risk, "demo", "--seed", "2")
    args = ("branch", demo["game_id"], "--at", "120", "--dice", "reseed", "--seed", "4")
    made = out(risk, *args, "--replay-commands")
    replay = made["replay"]
    assert replay["applied"] < replay["commands"]
    assert replay["code"] and replay["reason"] and replay["stopped_at"] > 120
    assert replay["version"] == made["version"] > 122  # branched, reseeded, then moves
    text = risk(*args, "--replay-commands").stdout
    assert f"stopped at its version {replay['stopped_at']}" in text
    assert f"[{replay['code']}]" in text
    assert "PASSED" in risk("audit", made["game_id"]).stdout


def test_workers_load_a_plug_in_family() -> None:
    """issue 18: a worker process starts afresh and imports the position's rule family (here
    the tests' toy family, which no worker knows by itself); its outcomes are those of the
    runs played in this process."""
    from risk_cli.whatif import run_all

    state = rc.replay(rc.start("toy-d8", ["Ann", "Bob"], seed=3))
    plan = Plan(parent="toy", at=state.version, seed=8, turns=3)
    assert type(rc.ruleset_of(state)).__module__.startswith("tests.toy_family")
    assert run_all(state, plan, 6, 2, "toy") == [run_future(state, plan, r) for r in range(6)]
