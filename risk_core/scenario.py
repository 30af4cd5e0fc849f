"""Scenario files: start a game from a set position (TOML or JSON).

A scenario names every territory's owner and armies, and optionally hands, missions, whose turn
it is, the phase, the next dice faces and the rule family's own facts (``[family]``).  It
becomes ordinary opening events (``game_started``, ``position_set``, ``turn_started``), so a
scenario game is replayed, branched and audited like any other.  Example (TOML)::

    ruleset = "classic"
    players = ["Ann", "Bob", "Cy"]
    seed = 7
    current = "Ann"          # seat number or name (default: seat 0)
    phase = "reinforce"      # or "attack" (the turn starts with nothing to place)
    turn = 9                 # optional (>= 1); round (1 to turn) is the turn unless given
    dice = [6, 6, 6, 1, 1]   # optional: the next die faces, then the seeded stream
    trades = 0               # optional: sets traded so far (>= 0)

    [options]
    fortify = "connected"

    [territories]            # every territory: owner (seat or name) and armies (1 to 10**6)
    alaska = { owner = "Ann", armies = 3 }
    kamchatka = { owner = 1, armies = 2 }
    # ...

    [hands]                  # cards by territory name, "joker", or id (a card of no territory)
    Ann = ["alaska", "brazil", "joker"]

    [missions]               # classic only; default: dealt at random
    Bob = "asia_africa"

A ``[family]`` table sets the rule family's own facts (``RuleSet.scenario_family``; seats by
number or name).  Each family reads its own keys::

    # napoleon-2p (option independents = "active"): each independent's allegiance
    [family.allies]
    Green = "Ann"            # a player (name or seat), or "neutral"
    Yellow = "neutral"

    # napoleon-mission: every seat's four missions (one per rank), then no deal follows
    [family.missions]
    Ann = ["caporal_manche", "capitaine_italie", "general_3_capitales", "empereur_5_capitales"]
    # ... every seat
    [family.achieved]        # optional: objectives already announced (public)
    Ann = ["caporal_manche"]

    # napoleon-teams: territories holding several teammates' regiments
    [family.stacks]
    paris = { Ann = 3, Cy = 2 }

A territory several seats occupy (napoleon-teams' stacks) may be left out of
``[territories]``: its armies are the stack's total and its owner the seat with strictly the
most regiments there, nobody on a tie (NAP-TEAM-04).  Listed anyway, its armies must be that
total and its owner one of the stack's seats.  The position, family facts included, must keep
the rule set's invariants (``RuleSet.check_invariants``), else ``bad_scenario``.

Every number has its range, else ``bad_scenario``: armies 1 to ``MAX_COUNT`` (a million), turn
1 to ``MAX_COUNT``, round 1 to the turn, trades 0 to ``MAX_COUNT``, and die faces those the rule
set's dice show, 1 to ``RuleSet.largest_die()`` (6, or 8 for Clone Wars' d8; a battle whose
die cannot show the script's next face is refused, ``bad_script``).  A file is at most
``MAX_SCENARIO_BYTES`` (4 MiB), and nested no deeper than the interpreter's stack.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any, Literal

import msgspec
from msgspec import UNSET

from risk_core.errors import RiskError
from risk_core.model import Event, GameStarted, GameState, OptionValue, PositionSet, SeatInfo
from risk_core.names import MAX_DIGITS, whole_number
from risk_core.rng import Rng, normalise_seed
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import RuleSet

MAX_SCENARIO_BYTES = 4 << 20  # the largest scenario file read
MAX_COUNT = 10**6  # the most armies on a territory, turns, rounds or trades a scenario may set


class Holding(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    owner: int | str
    armies: int


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    territories: dict[str, Holding]
    ruleset: str | None = None
    players: list[str] | None = None
    seed: int | str | None = None
    options: dict[str, OptionValue] = {}
    current: int | str = 0
    phase: Literal["reinforce", "attack"] = "reinforce"
    turn: int = 1
    round: int | None = None
    dice: list[int] = []
    hands: dict[str, list[str]] = {}
    missions: dict[str, str] = {}
    trades: int = 0
    family: dict[str, Any] = {}


def bad(message: str) -> RiskError:
    return RiskError("bad_scenario", message)


def parse_scenario(data: bytes, fmt: Literal["toml", "json"]) -> Scenario:
    """The scenario in ``data`` (a file's bytes: read at most ``MAX_SCENARIO_BYTES + 1`` of
    them, so a longer file is refused without reading it all)."""
    if len(data) > MAX_SCENARIO_BYTES:
        raise bad(f"The scenario file is larger than {MAX_SCENARIO_BYTES >> 20} MiB.")
    data = data.removeprefix(b"\xef\xbb\xbf")  # the byte order mark some editors write
    if not data.strip():
        raise bad("The scenario file is empty.")
    try:
        raw: Any = tomllib.loads(data.decode()) if fmt == "toml" else _json(data)
        return msgspec.convert(raw, Scenario)
    except RecursionError:
        raise bad("Cannot read the scenario file: it is nested too deeply.") from None
    except RiskError:
        raise
    except msgspec.ValidationError as exc:
        raise bad(f"Invalid scenario: {_entry_named(raw, exc)}") from None
    except UnicodeDecodeError as exc:
        byte = f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start}"
        raise bad(f"Cannot read the scenario file: it is not UTF-8 text ({byte}).") from None
    except ValueError as exc:  # TOML's and JSON's syntax errors, a number too long
        raise bad(f"Cannot read the scenario file: {exc}") from None


# The tables whose keys a player chooses, with their entries' type.
_ENTRIES: dict[str, Any] = {
    "territories": Holding,
    "hands": list[str],
    "missions": str,
    "options": OptionValue,
}


def _entry_named(raw: Any, exc: msgspec.ValidationError) -> str:
    """``exc``'s text, naming the entry it is about: msgspec says ``$.territories[...]``
    for a key of a table, which leaves the player to look through 42 territories."""
    if "[...]" in str(exc) and isinstance(raw, dict):
        for table, kind in _ENTRIES.items():
            entries = raw.get(table)
            for key, value in entries.items() if isinstance(entries, dict) else ():
                try:
                    msgspec.convert(value, kind)
                except msgspec.ValidationError as e:
                    return f"[{table}] {key}: {e}"
    return str(exc)


def _json(data: bytes) -> Any:
    """JSON as TOML reads it: a key given twice in one table is an error (where a JSON
    decoder keeps the last, silently dropping a territory or a hand), and so are NaN and
    Infinity, which no scenario number takes."""

    def table(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise bad(f"Cannot read the scenario file: the key {key!r} is given twice.")
            out[key] = value
        return out

    def constant(name: str) -> Any:
        raise bad(f"Cannot read the scenario file: {name} is not a number a scenario takes.")

    def integer(text: str) -> int:
        if len(text) > MAX_DIGITS:  # int() reads a few thousand digits; no field takes 100
            raise bad(f"Cannot read the scenario file: a number of {len(text):,} digits.")
        return int(text)

    text = data.decode()
    return json.loads(text, object_pairs_hook=table, parse_constant=constant, parse_int=integer)


def scenario_opening(
    scenario: Scenario,
    *,
    ruleset: str | None = None,
    players: list[str] | None = None,
    seed: int | str | None = None,
    options: dict[str, OptionValue] | None = None,
) -> tuple[str, list[str], list[Event]]:
    """(rule set, players, opening events); arguments override what the file says."""
    name = ruleset or scenario.ruleset or "classic"
    names = players or scenario.players
    if not names:
        raise bad("The scenario names no players.")
    chosen_seed = seed if seed is not None else scenario.seed
    if chosen_seed is None:
        raise bad("A scenario game needs a seed (in the file or given).")
    rs = get_ruleset(name)
    _check_numbers(rs, scenario)
    opts = {**scenario.options, **(options or {})}
    seats = rs.seats_for(names)
    seed64 = normalise_seed(chosen_seed)

    def seat(ref: int | str) -> int:
        if isinstance(ref, str) and (number := whole_number(ref)) is not None:
            ref = number
        if isinstance(ref, int):
            if 0 <= ref < len(seats):
                return ref
        else:
            for i, s in enumerate(seats):
                if s.name.lower() == ref.lower():
                    return i
        raise bad(f"Unknown seat {ref!r} (seats: {', '.join(s.name for s in seats)}).")

    board = rs.board
    owners = [-1] * len(board.territories)
    armies = [0] * len(board.territories)
    listed: dict[int, str] = {}  # territory -> the key that named it
    for key, holding in scenario.territories.items():
        t = board.find(key)
        if t in listed:  # two spellings of one territory: the later would win unseen
            raise bad(
                f"{board.name(t)} is listed twice in [territories]: {listed[t]!r} and {key!r}."
            )
        listed[t] = key
        owners[t], armies[t] = seat(holding.owner), holding.armies
        if not 1 <= holding.armies <= MAX_COUNT:
            raise bad(f"{board.name(t)} needs 1 to {MAX_COUNT:,} armies, not {holding.armies}.")
    family = rs.scenario_family(scenario.family, seats, seat) if scenario.family else UNSET
    probe = rs.initial_state(rs.game_started(names, seed64, opts))
    probe.owner, probe.armies = owners, armies  # the same lists: ``_shared`` settles them
    if family is not UNSET:
        probe.family = family
    shared = _shared(rs, probe, seats)
    missing = [board.territories[t].id for t, o in enumerate(owners) if o < 0 and t not in shared]
    if missing:
        raise bad(f"Territories without an owner: {', '.join(missing)}.")
    present = {s for t in range(len(owners)) for s in rs.occupants(probe, t)}
    for i, s in enumerate(seats):
        if i in present or rs.may_hold_nothing(probe, i):
            continue
        if not s.neutral:
            raise bad(f"{s.name} owns no territory.")
        raise bad(
            f"{s.name} (an independent) owns no territory: one without any is out of the game, "
            "which a position cannot say; give it a territory."
        )
    first = seat(scenario.current)
    if seats[first].neutral:
        playing = ", ".join(x.name for x in seats if not x.neutral)
        raise bad(f"current is a player ({playing}): {seats[first].name} takes no turns.")
    limit = rs.round_limit(probe)
    played = scenario.round if scenario.round is not None else scenario.turn
    if limit is not None and played > limit:
        given = "" if scenario.round is not None else f" (the turn, {scenario.turn}, unless given)"
        raise bad(f"round {played}{given} is past {rs.name}'s last, round {limit}.")

    hands = [_hand(rs, c) for c in _per_seat("hands", scenario.hands, seat, len(seats), [])]
    held = [c for h in hands for c in h]
    if len(held) != len(set(held)):
        card = next(c for c in held if held.count(c) > 1)
        where = [seats[i].name for i, h in enumerate(hands) if card in h]
        how = (
            f"twice in {where[0]}'s hand"
            if len(where) == 1
            else f"in {' and '.join(where)}'s hands"
        )
        raise bad(f"A card is listed {how}: {rs.card_label(card)}.")
    missions = _missions(rs, scenario, seat, len(seats), seed64)
    rng = Rng(seed64, 1 << 32)  # a stream position far from the game's own draws
    deck = rng.shuffle([c for c in rs.scenario_deck() if c not in held])
    position = PositionSet(
        owners=tuple(owners),
        armies=tuple(armies),
        hands=tuple(tuple(h) for h in hands),
        missions=tuple(missions),
        deck=tuple(deck),
        discard=(),
        trades=scenario.trades,
        first=first,
        rng=0,
        # JSON's own shapes (string keys), so the event equals itself read back from a store.
        family=UNSET if family is UNSET else msgspec.to_builtins(family, str_keys=True),
    )
    events = rs.start_position(
        names,
        seed64,
        opts,
        position,
        turn=scenario.turn,
        round=scenario.round if scenario.round is not None else scenario.turn,
        income=0 if scenario.phase == "attack" else None,
        dice_script=scenario.dice,
    )
    _check_position(rs, events)
    return name, [s.name for s in seats if not s.neutral], events


def _check_numbers(rs: RuleSet, scenario: Scenario) -> None:
    """Turn, round, trades and die faces in their ranges (armies: per territory, above)."""
    turn, round = scenario.turn, scenario.round
    if not 1 <= turn <= MAX_COUNT:
        raise bad(f"turn is 1 to {MAX_COUNT:,}, not {turn}.")
    if round is not None and not 1 <= round <= turn:
        raise bad(f"round is 1 to the turn number ({turn}), not {round}.")
    if not 0 <= scenario.trades <= MAX_COUNT:
        raise bad(f"trades is 0 to {MAX_COUNT:,}, not {scenario.trades}.")
    top = rs.largest_die()  # no die of the rule set shows more
    wrong = [face for face in scenario.dice if not 1 <= face <= top]
    if wrong:
        dice = "d6" if top == 6 else f"dice, up to d{top}"
        raise bad(f"Die faces are 1 to {top} ({rs.name}'s {dice}), not {wrong[0]}.")


def _shared(rs: RuleSet, probe: GameState, seats: list[SeatInfo]) -> set[int]:
    """Settle the territories several seats occupy (the family's ``occupants``: napoleon-teams'
    stacks) in ``probe``: armies their total, owner the seat with strictly the most units,
    nobody (-1) on a tie (NAP-TEAM-04).  A ``[territories]`` entry for one must agree."""
    shared = set()
    for t in range(rs.n_territories):
        units = dict(rs.occupants(probe, t))
        if len(units) < 2:
            continue
        total, given = sum(units.values()), probe.owner[t]
        if total > MAX_COUNT:
            where = rs.board.name(t)
            raise bad(f"{where}: a stack of {total:,}; at most {MAX_COUNT:,} a territory.")
        if given >= 0 and (given not in units or probe.armies[t] != total):
            stack = ", ".join(f"{seats[s].name} {n}" for s, n in units.items())
            raise bad(
                f"{rs.board.name(t)}: [territories] says {seats[given].name} with "
                f"{probe.armies[t]}, but its stack is {stack} ({total} in all); list the total "
                "and one of the stack's seats, or leave it out of [territories]."
            )
        top = max(units.values())
        leaders = [s for s, n in units.items() if n == top]
        probe.owner[t] = leaders[0] if len(leaders) == 1 else -1
        probe.armies[t] = total
        shared.add(t)
    return shared


def _check_position(rs: RuleSet, events: list[Event]) -> None:
    """The opening replays to a state that keeps the rule set's invariants."""
    started = events[0]
    assert isinstance(started, GameStarted)
    state = rs.initial_state(started)
    for ev in events[1:]:
        rs.apply(state, ev)
    problems = rs.check_invariants(state)
    if problems:
        raise bad(f"The position breaks {rs.name}'s rules: {'; '.join(problems)}.")


def _per_seat(table: str, mapping: dict[str, Any], seat: Any, n: int, empty: Any) -> list[Any]:
    """``mapping``'s values by seat; a seat named twice (by name and number, or in two cases)
    is refused: one of its entries would be lost."""
    out = [empty] * n
    named: dict[int, str] = {}  # seat -> the key that named it
    for key, value in mapping.items():
        number = whole_number(key)
        s = seat(key if number is None else number)
        if s in named:
            raise bad(f"[{table}] names one seat twice: {named[s]!r} and {key!r}.")
        out[s] = value
        named[s] = key
    return out


def _hand(rs: RuleSet, cards: list[str]) -> list[int]:
    board, out = rs.board, []
    main = rs.scenario_deck()  # a family's other decks are its own business
    jokers = [c for c in main if board.card(c).symbol == "joker"]
    for name in cards:
        if name.lower() == "joker":
            free = [j for j in jokers if j not in out]
            if not free:
                raise bad("More jokers than the deck has.")
            out.append(free[0])
        elif (
            (n := whole_number(name)) is not None and n in main and board.card(n).territory is None
        ):
            out.append(n)  # a card naming no territory, by its id
        else:
            card = board.territory_card(board.find(name))
            if card is None:
                raise bad(f"No card names {board.name(board.find(name))}.")
            out.append(card)
    return out


def _missions(rs: RuleSet, scenario: Scenario, seat: Any, n: int, seed: int) -> list[str | None]:
    uses = getattr(rs, "uses_missions", False)
    if not uses:
        if scenario.missions:
            raise bad(f"{rs.name} has no missions.")
        return [None] * n
    known = {m.id for m in rs.board.missions}
    given: list[str | None] = _per_seat("missions", scenario.missions, seat, n, None)
    for m in given:
        if m is not None and m not in known:
            raise bad(f"Unknown mission {m!r} (missions: {', '.join(sorted(known))}).")
        if m is not None and given.count(m) > 1:  # CL-04: one objective card to each
            raise bad(f"Mission {m!r} is given to two seats; each holds a card of its own.")
    free = [m for m in sorted(known) if m not in given]
    order = Rng(seed, 1 << 33).shuffle(list(range(len(free))))
    picks = iter(free[i] for i in order)
    return [m if m is not None else next(picks) for m in given]
