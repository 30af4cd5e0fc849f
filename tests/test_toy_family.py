"""The toy rule family (``tests/toy_family``, rule set ``toy-d8``) through every layer.

The family lives outside ``risk_core`` and edits none of its files; ``conftest.py`` registers it
before the store is imported.  Each test's docstring names the extension point it proves.  The
conformance suite (random play, every invariant after every event) and the golden games cover
``toy-d8`` on their own, as they cover every registered rule set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import NamedTuple, TypeVar

import msgspec
import pytest
from click.testing import CliRunner

import risk_core as rc
from risk_cli.main import cli
from risk_core.board import unverified_facts
from risk_core.bots import choose, propose
from risk_core.dice import DiceSpec, battle_odds, d6, loss_distribution
from risk_core.model import (
    EVENT_TYPES,
    BattleFought,
    Command,
    DeckFormed,
    EndTurn,
    Event,
    GameState,
    GameWon,
    Place,
    RoundsCompleted,
    TurnEnded,
    copy_state,
    event,
)
from risk_core.rulesets import get as get_ruleset
from risk_core.scenario import parse_scenario, scenario_opening
from risk_core.views import view, visible_event
from risk_service import GameService
from risk_service.luck import luck_report
from tests.toy_family import (
    Muster,
    MusterSkipped,
    OrderDrawn,
    OrderPlayed,
    Orders,
    OrdersShuffled,
    SkipMuster,
    ToyD8,
)

RULES = "toy-d8"
PLAYERS = ["Ann", "Bob", "Cy"]
SEED = 2  # a game with trades, eliminations and reshuffled orders
ROOT = Path(__file__).resolve().parents[1]


def _toy() -> ToyD8:
    rs = get_ruleset(RULES)  # the registered instance the engine itself uses
    assert isinstance(rs, ToyD8)
    return rs


RS = _toy()
ORDER_CARDS = RS.board.deck_cards("orders")
E = TypeVar("E", bound=Event)


class Played(NamedTuple):
    commands: list[Command]
    events: list[Event]
    state: GameState


def play(seed: int = SEED, options: dict[str, rc.model.OptionValue] | None = None) -> Played:
    """Greedy bots to the end, one ``decide`` and one ``evolve`` per step (no shortcut)."""
    events = rc.start(RULES, PLAYERS, seed=seed, options=options)
    state = rc.replay(events)
    commands: list[Command] = []
    while state.phase != "over":
        cmd = propose(state, seed=seed)  # the greedy bot, the family's ``bot_move`` first
        new = rc.decide(state, cmd)
        for ev in new:
            state = rc.evolve(state, ev)
        commands.append(cmd)
        events.extend(new)
    return Played(commands, events, state)


@pytest.fixture(scope="module")
def played() -> Played:
    return play()


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


# --------------------------------------------------------------------------- registration
def test_family_registers_without_editing_the_core() -> None:
    """Registry (``name``), ``board_dir``, ``phases``, options: listed like a built-in set."""
    info = next(i for i in rc.rulesets() if i.name == RULES)
    assert (info.board, info.player_counts) == ("isles", (2, 3, 4))
    assert info.options["rounds"]["default"] == 12
    assert info.phases["muster"] == "play an order card or skip"
    assert RS.board.id == "isles" and RS.board_dir == str(ROOT / "tests/toy_family/board")


def test_board_sections_beacons_and_a_second_deck() -> None:
    """Board data: a registered section of ``Fact`` items (one unverified, with its note) and
    a ``cards`` section whose second deck names no territory."""
    board = RS.board
    assert [b.id for b in board.section("beacons")] == ["north_light", "harbour_light", "old_tower"]
    facts = {f.where: f.note for f in unverified_facts(board)}
    assert facts["sections.beacons[2] (old_tower)"].startswith("Points guessed")
    assert board.decks == ("main", "orders")
    assert ORDER_CARDS == [11, 12, 13, 14, 15, 16]
    assert all(board.card_territory(c) is None for c in ORDER_CARDS)
    assert sorted(board.card(c).stars for c in ORDER_CARDS) == [1, 1, 2, 2, 3, 3]


# --------------------------------------------------------------------------- whole games
def test_greedy_game_to_a_winner_through_decide_and_evolve(played: Played) -> None:
    """Phases, commands, events, bots: the muster phase is played by the greedy bot's
    ``bot_move`` and the game ends with a winner."""
    state, events = played.state, played.events
    assert state.phase == "over" and state.winner is not None
    assert isinstance(events[-1], GameWon) and events[-1].seat == state.winner
    musters = [c for c in played.commands if isinstance(c, Muster)]
    assert musters and len(musters) == len(of_type(events, OrderPlayed))
    assert len(of_type(events, OrdersShuffled)) >= 2  # formed, then reshuffled from discards


def test_round_limit_ends_on_the_score() -> None:
    """End hooks: ``round_limit`` (option ``rounds``) emits ``RoundsCompleted``; ``scores``
    counts territories and beacon points; ``final_result`` names the best."""
    commands, events, state = play(seed=3, options={"rounds": 2})
    *_, completed, won = events
    assert completed == RoundsCompleted(rounds=2)
    assert (
        isinstance(won, GameWon)
        and won.reason == "score"
        and won.rounds == RS.round_limit(rc.replay(events[:-1]))
    )
    before, scores = rc.replay(events[:-1]), won.scores
    assert isinstance(scores, tuple) and scores == RS.scores(before)
    beacons = {"glacier": 2, "harbour": 2, "oasis": 3}
    for seat, score in enumerate(scores):
        held = [t for t, o in enumerate(state.owner) if o == seat]
        ids = {RS.board.territories[t].id for t in held}
        assert score == len(held) + sum(p for b, p in beacons.items() if b in ids)
    assert won.seat == max(range(len(PLAYERS)), key=lambda s: RS.score_order(before, s, scores))


def test_replay_equals_live_and_json_round_trips(played: Played) -> None:
    """ENG-01 with the family state: ``replay`` equals the live state; commands, events and the
    state (its ``Orders`` slot typed again) survive JSON."""
    commands, events, state = played
    assert rc.encode(rc.replay(events)) == rc.encode(state)
    assert rc.decode_events(rc.encode(events)) == events
    assert [rc.decode_command(rc.encode(c)) for c in commands] == commands
    back = rc.decode_state(rc.encode(state))
    assert isinstance(back.family, Orders) and back == state


# --------------------------------------------------------------------------- dice
def test_d8_attackers_in_battle_events(played: Played) -> None:
    """Dice hook (CORE-14..16): attackers throw d8, defenders d6, recorded in each battle;
    highest against highest, ties to the defender."""
    battles = of_type(played.events, BattleFought)
    assert battles
    for b in battles:
        assert b.attack_dice == DiceSpec(count=len(b.attack), sides=8)
        assert b.defence_dice == d6(len(b.defence))
        assert isinstance(b.attack_natural, tuple)  # no modifier: final faces are natural ones
        assert b.attack == tuple(sorted(b.attack_natural, reverse=True))
        pairs = list(zip(b.attack, b.defence, strict=False))
        assert b.defender_losses == sum(a > d for a, d in pairs)
        assert b.attacker_losses == sum(a <= d for a, d in pairs)
    assert {f for b in battles for f in b.attack} >= {7, 8}  # faces a d6 never shows


def test_d8_odds_are_exact() -> None:
    """The dice pipeline's odds for d8 against d6 equal brute-force enumeration."""
    assert battle_odds(DiceSpec(count=1, sides=8), d6(1)).attacker_mean == 7 / 16
    counts = [0, 0, 0]
    for a in product(range(1, 9), repeat=3):
        for d in product(range(1, 7), repeat=2):
            top = zip(sorted(a, reverse=True), sorted(d, reverse=True), strict=False)
            counts[sum(x <= y for x, y in top)] += 1
    total = 8**3 * 6**2
    expected = tuple(Fraction(c, total) for c in counts)
    assert loss_distribution(DiceSpec(count=3, sides=8), d6(2)) == expected


def test_luck_report_uses_the_d8_expectations(played: Played) -> None:
    """The luck report's expectations come from each battle's recorded dice (d8 here)."""
    report = luck_report("toy", played.events)
    battles = of_type(played.events, BattleFought)
    expected = sum(
        battle_odds(b.attack_dice, b.defence_dice).attacker_mean
        + battle_odds(b.attack_dice, b.defence_dice).defender_mean
        for b in battles
    )
    assert report.battles == len(battles)
    assert sum(s.expected_losses for s in report.seats) == pytest.approx(expected)


# --------------------------------------------------------------------------- the orders deck
def test_orders_deck_conserves_its_cards(played: Played) -> None:
    """Family state and cards: after every event each order card is in the pile, the discards
    or one hand, never in CORE's pile or hands; a hand holds at most two."""
    events = played.events
    (formed,) = of_type(events, DeckFormed)
    assert sorted(formed.deck) == RS.board.deck_cards("main")  # CORE's pile: the main deck
    state = rc.replay(events[:1])
    for ev in events[1:]:
        rc.apply_in_place(state, [ev])
        family: Orders = state.family
        held = [*family.pile, *family.discard, *(c for h in family.hands for c in h)]
        assert sorted(held) in ([], ORDER_CARDS), ev
        core = [*state.deck, *state.discard, *(c for p in state.players for c in p.hand)]
        assert not set(core) & set(ORDER_CARDS), ev
        assert max(map(len, family.hands)) <= 2
        assert RS.check_invariants(state) == []


def test_order_draws_are_secret(played: Played) -> None:
    """``Event.redact``: an order drawn is seen by its holder only; the pile's order by nobody."""
    drawn = of_type(played.events, OrderDrawn)[0]
    assert visible_event(drawn, drawn.seat)["card"] == drawn.card
    for other in (None, (drawn.seat + 1) % len(PLAYERS)):
        assert visible_event(drawn, other)["card"] is None
    shuffled = visible_event(of_type(played.events, OrdersShuffled)[0], 0)
    assert "pile" not in shuffled and shuffled["pile_size"] == len(ORDER_CARDS)


def test_view_hooks_show_a_hand_to_its_holder_only(played: Played) -> None:
    """View hooks: ``seat_view`` shows the orders held to their holder, their count to all;
    ``view_extra`` the pile's size; ``territory_view`` the beacons."""
    first = of_type(played.events, OrderDrawn)[0]
    state = rc.replay(played.events[: played.events.index(first) + 1])
    holder = first.seat
    mine = RS.seat_view(state, holder, holder)
    assert mine == {"orders": 1, "order_hand": [RS.order_view(first.card)]}
    for other in (None, (holder + 1) % len(PLAYERS)):
        assert RS.seat_view(state, holder, other) == {"orders": 1}
    assert RS.view_extra(state, None)["orders_pile"] == len(ORDER_CARDS) - 1
    assert RS.territory_view(state, RS.board.index["oasis"]) == {"beacon": 3}


def test_views_show_a_hand_to_its_holder_only(played: Played) -> None:
    """View hooks through ``risk_core.views.view``, the function the service and CLI use."""
    state = played.state
    seat = state.winner
    assert seat is not None
    assert "order_hand" in view(state, seat)["players"][seat]
    assert "order_hand" not in view(state, None)["players"][seat]


# --------------------------------------------------------------------------- the muster phase
SCENARIO = """
ruleset = "toy-d8"
players = ["Ann", "Bob"]
seed = 5
current = "Ann"
[territories]
fjord = { owner = "Ann", armies = 3 }
glacier = { owner = "Ann", armies = 2 }
tundra = { owner = "Ann", armies = 2 }
harbour = { owner = "Ann", armies = 2 }
market = { owner = "Ann", armies = 2 }
mill = { owner = "Bob", armies = 2 }
meadow = { owner = "Bob", armies = 2 }
dune = { owner = "Bob", armies = 2 }
oasis = { owner = "Bob", armies = 2 }
reef = { owner = "Bob", armies = 2 }
[family.orders]
Ann = [15, 11]
Bob = [13]
"""


def scenario(text: str = SCENARIO) -> GameState:
    _, _, events = scenario_opening(parse_scenario(text.encode(), "toml"))
    return rc.replay(events)


def test_scenario_family_table_sets_the_orders() -> None:
    """Scenario hook: ``[family]`` deals order hands, the rest form the pile; a turn opens with
    the ``muster`` phase when its seat holds an order."""
    state = scenario()
    family: Orders = state.family
    assert family.hands == ((15, 11), (13,))
    assert sorted(family.pile) == [12, 14, 16] and family.discard == ()
    assert not set(state.deck) & set(ORDER_CARDS)  # CORE's pile keeps the main deck only
    assert state.phase == "muster" and rc.to_act(state) == 0


def test_scenario_without_family_table_shuffles_the_orders() -> None:
    """Without ``[family]`` every order is in the family's pile, none in a hand or CORE's pile,
    and the turn opens with CORE's reinforcements."""
    state = scenario(SCENARIO.split("[family.orders]")[0])
    family: Orders = state.family
    assert sorted(family.pile) == ORDER_CARDS and family.hands == ((), ())
    assert not set(state.deck) & set(ORDER_CARDS) and RS.check_invariants(state) == []
    assert state.phase == "reinforce"


def test_scenario_family_table_is_checked() -> None:
    """A [family] table that deals an order twice, names no card or an unknown key is refused."""
    tables = ("[family.orders]\nAnn = [15, 15]", "[family.orders]\nAnn = ['x']", "[family]\nx = 1")
    for table in tables:
        text = SCENARIO.split("[family.orders]")[0] + table
        with pytest.raises(rc.RiskError) as info:
            scenario(text)
        assert info.value.code == "bad_scenario", table


def test_muster_plays_an_order_then_reinforcements() -> None:
    """Commands and events of the family: ``Muster`` puts the order's stars in armies on an
    own territory (``army_change``), the order goes to the discards, reinforcements follow."""
    state = scenario()
    (played,) = rc.decide(state, Muster(seat=0, card=15, territory="fjord"))
    assert played == OrderPlayed(seat=0, card=15, territory="fjord", armies=3)
    assert RS.army_change(state, played) == 3
    after = rc.evolve(state, played)
    assert after.armies[RS.board.index["fjord"]] == 6
    assert after.family.hands[0] == (11,) and after.family.discard == (15,)
    assert after.phase == "reinforce" and after.reserve == state.reserve


def test_skip_muster_keeps_the_orders() -> None:
    """The phase's skip command: the hand is kept, reinforcements follow."""
    state = scenario()
    (skipped,) = rc.decide(state, SkipMuster(seat=0))
    after = rc.evolve(state, skipped)
    assert skipped == MusterSkipped(seat=0)
    assert after.family == state.family and after.phase == "reinforce"


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Muster(seat=0, card=13, territory="fjord"), "not_in_hand"),  # Bob's order
        (Muster(seat=0, card=15, territory="mill"), "not_owner"),
        (Muster(seat=0, card=15, territory="atlantis"), "unknown_territory"),
        (Muster(seat=1, card=13, territory="mill"), "not_your_turn"),
        (Place(seat=0, territory="fjord", count=1), "wrong_phase"),
        (EndTurn(seat=0), "wrong_phase"),
    ],
)
def test_muster_phase_refuses(command: Command, code: str) -> None:
    """``decide`` validates the family's commands and CORE's in the family's phase (ENG-05)."""
    state = scenario()
    with pytest.raises(rc.RuleError) as info:
        rc.decide(state, command)
    assert info.value.code == code


def test_muster_outside_its_phase_is_refused() -> None:
    state = rc.evolve(scenario(), MusterSkipped(seat=0))
    for command in (Muster(seat=0, card=15, territory="fjord"), SkipMuster(seat=0)):
        with pytest.raises(rc.RuleError) as info:
            rc.decide(state, command)
        assert info.value.code == "wrong_phase"


def test_invariant_hooks_catch_a_lost_order() -> None:
    """Invariants hooks: ``check_invariants`` sees an order held twice, ``check_transition``
    an order moved by an event that is not the family's."""
    state = scenario()
    bad = copy_state(state)
    bad.family = msgspec.structs.replace(state.family, pile=(12, 14, 16, 15))  # 15 held too
    assert any("not conserved" in p for p in RS.check_invariants(bad))
    assert RS.check_transition(state, bad, TurnEnded(seat=0)) == ["orders moved on TurnEnded"]


def test_bot_hook_plays_the_strongest_order() -> None:
    """Bot hook: in the muster phase the greedy bot plays its best order on a front line."""
    cmd = choose(scenario(), seed=1)
    assert isinstance(cmd, Muster) and cmd.card == 15
    assert scenario().owner[RS.board.index[cmd.territory]] == 0


# --------------------------------------------------------------------------- store and CLI
def test_stored_game_reads_back(store_url: str, open_service: Callable[[str], GameService]) -> None:
    """The store builds its unions with the family's commands and events: a bot game stored
    command by command reads back (events, state at a version, the family slot typed)."""
    service = open_service(store_url)
    game_id = service.new_game(RULES, PLAYERS, seed=SEED)
    state = service.state(game_id)
    while state.phase != "over":
        cmd = choose(state, seed=SEED)
        rc.apply_in_place(state, service.submit(game_id, cmd, expected_version=state.version))
    events = service.events(game_id)
    assert of_type(events, OrderPlayed)
    assert of_type(events, OrderDrawn)
    stored = service.state(game_id)
    assert rc.encode(stored) == rc.encode(state) == rc.encode(rc.replay(events))
    assert isinstance(stored.family, Orders)
    middle = len(events) // 2 + 1  # past the snapshot at 100 events
    assert rc.encode(service.state(game_id, at=middle)) == rc.encode(rc.replay(events[:middle]))
    assert [g.ruleset for g in service.games()] == [RULES]


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_rules_lists_the_muster_phase() -> None:
    """Phases as data: ``risk rules`` shows the family's phase; ``risk muster`` is a verb."""
    info = json.loads(invoke("rules", RULES, "--json"))
    assert info["phases"]["muster"] == "play an order card or skip"
    assert "muster" in invoke("rules")
    assert "muster phase" in invoke("muster", "--help")


def test_cli_demo_in_process(tmp_path: Path) -> None:
    """``risk demo --rules toy-d8`` in process, then the log tells the family's events."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    result = json.loads(invoke("--create", "--store", store, "demo", "--rules", RULES, "--json"))
    assert result["rules"] == RULES and result["winner"] is not None
    log = invoke("--store", store, "log", result["game_id"])
    assert "draws an order." in log and "muster in" in log


def test_cli_muster_verb(tmp_path: Path) -> None:
    """CLI module: ``risk muster GAME TERRITORY`` plays the strongest order held."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    path = tmp_path / "muster.toml"
    path.write_text(SCENARIO)
    new = json.loads(invoke("--create", "--store", store, "new", "--scenario", str(path), "--json"))
    out = json.loads(invoke("--store", store, "muster", new["game_id"], "fjord", "--json"))
    assert [e["type"] for e in out["events"]] == ["order_played"]
    assert out["events"][0]["armies"] == 3 and out["phase"] == "reinforce"


def test_cli_moves_tell_each_order_by_the_verb_that_submits_it(tmp_path: Path) -> None:
    """CLI module: ``VERBS`` tells `risk moves` that ``skip_muster`` is submitted by
    `risk muster --skip` (the type with dashes, `risk skip-muster`, is no verb)."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    path = tmp_path / "muster.toml"
    path.write_text(SCENARIO)
    new = json.loads(invoke("--create", "--store", store, "new", "--scenario", str(path), "--json"))
    lines = invoke("--store", store, "moves", new["game_id"]).splitlines()
    assert "  muster --skip: (no arguments)" in lines
    assert [line for line in lines if line.startswith("  muster: card ")]
    assert not [line for line in lines if "skip-muster" in line]


def risk(*args: str) -> str:
    """The installed ``risk`` command in a fresh process, the family named by ``RISK_FAMILIES``
    (``PYTHONPATH``: a console script does not put the working directory on ``sys.path``)."""
    env = {**os.environ, "RISK_FAMILIES": "tests.toy_family", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "risk"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def unloaded_risk(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``risk`` command in a fresh process with no family named (no
    ``RISK_FAMILIES``): toy-d8 is not loaded there.  Its exit status is the caller's to check."""
    plain = {**os.environ, "PYTHONPATH": str(ROOT)}
    plain.pop("RISK_FAMILIES", None)
    return subprocess.run(
        [str(Path(sys.executable).parent / "risk"), *args],
        cwd=ROOT, env=plain, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_cli_demo_in_a_subprocess_with_risk_families(tmp_path: Path) -> None:
    """Plug-in loading: ``RISK_FAMILIES`` names the family for the installed ``risk`` command;
    the same seed gives the same game as in process (ENG-01)."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    outside = json.loads(risk("--create", "--store", store, "demo", "--rules", RULES, "--json"))
    inside = json.loads(
        invoke(
            "--create",
            "--store",
            f"sqlite://{tmp_path / 'in.db'}",
            "demo",
            "--rules",
            RULES,
            "--json",
        )
    )
    assert outside["digest"] == inside["digest"]


def test_a_game_of_a_family_not_loaded_hides_no_other(tmp_path: Path) -> None:
    """Plug-in loading: a store holding a game of a family this `risk` does not load (no
    ``RISK_FAMILIES``) still lists every game, that one by its opening in the phase
    ``unloaded``; the other games are read as ever."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    toy = json.loads(risk("--create", "--store", store, "demo", "--rules", RULES, "--json"))

    def without_family(*args: str) -> subprocess.CompletedProcess[str]:
        return unloaded_risk("--store", store, *args)

    assert without_family("new", "--players", "A,B,C", "--id", "plain").returncode == 0
    listed = without_family("games", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {g["game_id"]: g for g in json.loads(listed.stdout)}
    assert games[toy["game_id"]]["phase"] == "unloaded"
    assert games[toy["game_id"]]["ruleset"] == RULES and games["plain"]["phase"] == "setup"
    text = without_family("games").stdout
    assert "unloaded" in text and "plain" in text
    shown = without_family("show", toy["game_id"])
    assert shown.returncode == 1 and "[unknown_ruleset]" in shown.stderr


def test_a_young_game_of_a_family_not_loaded_is_unknown_ruleset(tmp_path: Path) -> None:
    """Plug-in loading: a game of a family not loaded, before its first snapshot, holds events
    of the family's own kinds (toy-d8's opening shuffles its orders), which the store cannot
    decode without it; `risk games` still lists every game (that one ``unloaded``) and reading
    it is ``unknown_ruleset`` naming its rule set, never a decoding traceback."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    risk("--create", "--store", store, "new", "--rules", RULES, "--players", "A,B", "--id", "t")

    def without_family(*args: str) -> subprocess.CompletedProcess[str]:
        return unloaded_risk("--store", store, *args)

    assert without_family("new", "--players", "A,B,C", "--id", "plain").returncode == 0
    listed = without_family("games", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {g["game_id"]: g for g in json.loads(listed.stdout)}
    assert games["t"]["phase"] == "unloaded" and games["plain"]["phase"] == "setup"
    for args in (("show", "t"), ("log", "t"), ("export", "t", "-o", str(tmp_path / "t.json"))):
        read = without_family(*args)
        assert read.returncode == 1, read.stderr
        assert read.stderr.startswith("Error: Game t is played with the rule set 'toy-d8'")
        assert read.stderr.rstrip().endswith("[unknown_ruleset]"), read.stderr


def test_an_export_of_a_family_not_loaded_is_unknown_ruleset(tmp_path: Path) -> None:
    """Plug-in loading: `risk import` and `risk audit --file` of an export of a family's game,
    where the family is not loaded, are ``unknown_ruleset`` naming its rule set (its records
    were each "not a record": ``bad_export``), and nothing is stored."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    risk("--create", "--store", store, "new", "--rules", RULES, "--players", "A,B", "--id", "t")
    exported = tmp_path / "t.json"
    risk("--store", store, "export", "t", "-o", str(exported))
    other = tmp_path / "other.db"
    for args in (
        ("--create", "--store", f"sqlite://{other}", "import", str(exported), "--id", "u"),
        ("audit", "--file", str(exported)),
    ):
        done = unloaded_risk(*args)
        assert done.returncode == 1, done.stderr
        assert "the rule set 'toy-d8', which is not loaded here" in done.stderr, done.stderr
        assert done.stderr.rstrip().endswith("[unknown_ruleset]"), done.stderr
    assert not other.exists()


def test_a_family_loaded_after_the_store_is_refused() -> None:
    """Plug-in loading: the store's command and event unions are built when it is imported, so
    an event type defined later is refused at once (``family_too_late``) instead of being
    stored and then unreadable."""
    import risk_service.mapper  # noqa: F401 - the store's unions are built

    with pytest.raises(rc.SetupError) as err:

        @event
        class LateEvent(Event, frozen=True, tag="late_event"):
            seat: int

    assert err.value.code == "family_too_late"
    assert "late_event" not in {t.__struct_config__.tag for t in EVENT_TYPES}


def test_a_fresh_process_reads_a_stored_game(tmp_path: Path) -> None:
    """Plug-in loading, then reading: a process that starts by reading a stored toy game
    (``log``, ``stats``, ``audit --file``) finds the family's board."""
    store = f"sqlite://{tmp_path / 'games.db'}"
    game = json.loads(risk("--create", "--store", store, "demo", "--rules", RULES, "--json"))[
        "game_id"
    ]
    export = tmp_path / "game.json"
    export.write_text(risk("--store", store, "export", game))
    assert "draws an order." in risk("--store", store, "log", game)
    risk("--store", store, "stats", game)
    risk("--store", store, "audit", "--file", str(export))
