"""Risk Napoléon advanced game (NAP-ADV-*, NAP-CAP-*): the rules as pure functions.

Each function computes one rule from plain facts (who owns each territory, the ships in each
sea zone, the fortifications, the epidemics) and the board of ``boards/napoleon/advanced``
(:mod:`risk_core.rulesets.napoleon_advanced_data`), so a rule set, the bots and the tests share
one reading of the rulebooks (000 booklet 2, 001).  Nothing here rolls dice or keeps state:
where a rule draws cards (epidemics, NAP-ADV-10/40) the caller passes the cards drawn, in order.

Ships are ``{zone id: {seat: ships}}``; a zone with no ships is left out or maps to ``{}``.
The decisions the catalogue leaves open are named rule options (``NAP_ADV_OPTIONS``), each
defaulting to its recommended reading; the functions take the option's value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Literal

import msgspec

from risk_core.board import Board
from risk_core.dice import DiceSpec
from risk_core.errors import RuleError
from risk_core.model import Seat
from risk_core.rulesets.base import Option
from risk_core.rulesets.napoleon_advanced_data import (
    CardEffect,
    EmpireMission,
    Epoch,
    FortificationPool,
    StartingCards,
)

Ships = Mapping[str, Mapping[Seat, int]]
Kind = Literal["ship", "general", "admiral", "fortification"]

ROUNDS = 5  # NAP-ADV-01, DEC-05
STARTING_REGIMENTS = {3: 40, 4: 35, 5: 30, 6: 25}  # NAP-ADV-06 (as NAP-04)
SETUP_CAP = 10  # NAP-ADV-09: no territory above 10 regiments during setup
EPIDEMICS = 4  # NAP-ADV-10
MAX_GENERALS, MAX_ADMIRALS = 3, 2  # NAP-ADV-03
LANDING_REACH = 3  # NAP-ADV-36: up to 3 consecutive controlled zones
MAX_DRAWS = 3  # NAP-ADV-43
FORCED_TRADE_AT = 5  # NAP-ADV-20
CARD_TERRITORY_BONUS = 2  # NAP-ADV-20/26
# NAP-ADV-20: three alike or one of each, jokers wild.
SET_VALUES = {"infantry": 4, "cavalry": 6, "artillery": 8}
MIXED_SET_VALUE = 10
SYMBOLS = ("infantry", "cavalry", "artillery")

# The decisions of the advanced game (catalogue §7), each its recommended reading by default.
NAP_ADV_OPTIONS: dict[str, Option] = {
    "rounds": Option(
        default=5,
        choices=(5, 3),
        doc="DEC-05 (NAP-ADV-01/44/46): the game lasts 5 rounds, census VP on each player's "
        "5th turn (recommended: 001 says 5 everywhere), or 3 (000 l.1027/1033 '3e tour').",
    ),
    "elimination_trade_from": Option(
        default=5,
        minimum=3,
        maximum=6,
        doc="DEC-04 (NAP-ADV-38): a hand of this many cards after taking an eliminated "
        "player's trades at once until it holds fewer than 5 (5 recommended; 3 is 000 "
        "l.989's OCR; 6 reads 'more than 5'); with 3 or 4, a hand of that many cards but "
        "fewer than 5 trades one set at once, if it holds one.",
    ),
    "general_model": Option(
        default="commit",
        choices=("commit", "aura"),
        doc="DEC-23 (NAP-ADV-24/33): the attacker commits generals to an attack, captured if "
        "every regiment of that attack is destroyed (commit, recommended), or the generals of "
        "the origin always give their bonus and are never captured in attack (aura).",
    ),
    "epidemic_penalty": Option(
        default="per_origin",
        choices=("per_origin", "per_battle"),
        doc="DEC-24 (NAP-ADV-32): 1 regiment per epidemic of the target is lost from the "
        "origin once per invasion and origin (per_origin, recommended), or before every "
        "battle (per_battle).",
    ),
    "naval_leave_one": Option(
        default=True,
        doc="DEC-25 (NAP-ADV-29/39): the naval maneuver leaves at least 1 ship in its zone "
        "(true, recommended), or may empty it (false).",
    ),
    "route_vp": Option(
        default=True,
        doc="DEC-26 (NAP-ADV-16): a maritime route held at the start of your turn scores VP "
        "equal to its bonus, as an empire does (true, recommended).",
    ),
    "ransom_vp": Option(
        default="none",
        choices=("none", "returned"),
        doc="DEC-29 (NAP-ADV-25): a ransom changes no VP (none, recommended: the capture "
        "already moved 1 VP), or the capturer gives the VP back (returned).",
    ),
    "final_tie": Option(
        default="shared",
        choices=("shared", "territories"),
        doc="DEC-30 (NAP-ADV-46): players still tied after VP, regiments and missions share "
        "the victory (shared, recommended), or territories and zones held break the tie "
        "(territories).",
    ),
    "die_cap": Option(
        default=False,
        doc="NAP-ADV-30/33/34: a die raised by a general, an admiral or a fortification may "
        "exceed 6 (false, recommended: a 6 raised to 7 beats a 6, and the +2 of a general in a "
        "fortification always counts), or stays at most 6 (true).",
    ),
    "capitals": Option(
        default=False,
        doc="NAP-CAP-01..04: the Capitals option: a capital with a strict majority of its "
        "empire pays the capital bonus from round 2, and no card is drawn for missions.",
    ),
    "capital_bonus_kind": Option(
        default="reinforcement",
        choices=("reinforcement", "vp"),
        doc="DEC-31 (NAP-CAP-04): the capital bonus is reinforcements (recommended, 001 "
        "l.396) or victory points at the start of the turn (000 l.1064 'bonus de victoire').",
    ),
}


# ------------------------------------------------------------------------- sea zones
def zone_controller(fleet: Mapping[Seat, int]) -> Seat | None:
    """NAP-ADV-29/DEC-25: the one seat with ships in a zone; nobody for an empty zone or two
    fleets sharing it (only during a forced naval combat)."""
    present = [s for s, n in fleet.items() if n > 0]
    return present[0] if len(present) == 1 else None


def controlled_zones(board: Board, ships: Ships, seat: Seat) -> list[str]:
    """The sea zones ``seat`` controls, in board order (NAP-ADV-29)."""
    return [z.id for z in board.sea_zones if zone_controller(ships.get(z.id, {})) == seat]


def coasts(board: Board) -> dict[str, frozenset[int]]:
    """Per sea zone, the territories adjacent to it (NAP-ADV-02, GAP-09)."""
    return {z.id: frozenset(board.index[t] for t in z.coasts) for z in board.sea_zones}


def landing_reach(board: Board, origin: int, held: Iterable[str]) -> set[int]:
    """NAP-ADV-36: territories an invasion from ``origin`` reaches over the sea: those on the
    coast of a zone at most 3 consecutive held zones away, the first touching ``origin``."""
    held = set(held)
    shore = coasts(board)
    links = {z.id: set(z.zones) for z in board.sea_zones}
    frontier = {z for z in held if origin in shore[z]}
    reached = set(frontier)
    for _ in range(LANDING_REACH - 1):
        frontier = {n for z in frontier for n in links[z] if n in held} - reached
        reached |= frontier
    targets: set[int] = set()
    for z in reached:
        targets |= shore[z]
    targets.discard(origin)
    return targets


def naval_targets(board: Board, zone: str) -> tuple[str, ...]:
    """NAP-ADV-28: the zones a fleet in ``zone`` may attack (adjacent zones)."""
    for z in board.sea_zones:
        if z.id == zone:
            return z.zones
    raise RuleError("unknown_zone", f"There is no sea zone '{zone}' on this board.")


def build_zones(board: Board, owner: Sequence[Seat], seat: Seat) -> list[str]:
    """NAP-ADV-22: zones where ``seat`` may build a ship: next to a territory it controls,
    whoever's ships are there (NAP-ADV-27 then obliges a naval combat)."""
    return [z.id for z in board.sea_zones if any(owner[board.index[t]] == seat for t in z.coasts)]


# ------------------------------------------------------------------------- census
class Census(msgspec.Struct, frozen=True, kw_only=True):
    """A reinforcement count (NAP-ADV-18/19/21, NAP-CAP-01): each part, and the total."""

    territories: int
    zones: int
    base: int
    empires: tuple[str, ...]
    routes: tuple[str, ...]
    capitals: tuple[str, ...] = ()
    bonus: int = 0  # empires + routes + capitals (when reinforcements) + permanent missions
    fortifications: int = 0

    @property
    def total(self) -> int:
        return self.base + self.bonus + self.fortifications


def held_empires(board: Board, owner: Sequence[Seat], seat: Seat) -> tuple[str, ...]:
    return tuple(
        board.groups[g].id
        for g, members in enumerate(board.group_members)
        if all(owner[t] == seat for t in members)
    )


def held_routes(board: Board, ships: Ships, seat: Seat) -> tuple[str, ...]:
    held = set(controlled_zones(board, ships, seat))
    return tuple(r.id for r in board.routes if set(r.zones) <= held)


def route_bonus(board: Board, route: str) -> int:
    return next(r.bonus or 0 for r in board.routes if r.id == route)


def empire_bonus(board: Board, empire: str) -> int:
    return board.groups[board.group_index[empire]].bonus


def capital_holdings(
    board: Board, owner: Sequence[Seat], seat: Seat, round: int
) -> tuple[str, ...]:
    """NAP-CAP-01/02/04 with DEC-31: empires whose capital and a strict majority of whose
    territories (capital included) ``seat`` holds, without the whole empire, from round 2."""
    if round < 2:
        return ()
    out = []
    for g, members in enumerate(board.group_members):
        group = board.groups[g]
        if group.capital is None or owner[board.index[group.capital]] != seat:
            continue
        held = sum(1 for t in members if owner[t] == seat)
        if len(members) // 2 < held < len(members):
            out.append(group.id)
    return tuple(out)


def capital_bonus(board: Board, empires: Iterable[str]) -> int:
    return sum(board.groups[board.group_index[g]].capital_bonus or 0 for g in empires)


def census(
    board: Board,
    owner: Sequence[Seat],
    ships: Ships,
    seat: Seat,
    *,
    fortified: Iterable[int] = (),
    permanent: int = 0,
    capitals: bool = False,
    capital_kind: str = "reinforcement",
    round: int = 1,
) -> Census:
    """NAP-ADV-18/19/21 (+ NAP-CAP-01): ``max(3, (territories + zones) // 3)``, every held
    empire's and route's bonus, ``permanent`` Empire-mission bonuses, capitals, and 1 per
    producing fortification on an own territory (``fortified``: those not built this turn)."""
    count = sum(1 for o in owner if o == seat)
    zones = len(controlled_zones(board, ships, seat))
    empires = held_empires(board, owner, seat)
    routes = held_routes(board, ships, seat)
    caps = capital_holdings(board, owner, seat, round) if capitals else ()
    bonus = sum(empire_bonus(board, g) for g in empires) + sum(
        route_bonus(board, r) for r in routes
    )
    if capital_kind == "reinforcement":
        bonus += capital_bonus(board, caps)
    forts = sum(1 for t in fortified if owner[t] == seat)
    return Census(
        territories=count,
        zones=zones,
        base=max(3, (count + zones) // 3),
        empires=empires,
        routes=routes,
        capitals=caps,
        bonus=bonus + permanent,
        fortifications=forts,
    )


# ------------------------------------------------------------------------- cards
def set_value(symbols: Sequence[str]) -> int | None:
    """NAP-ADV-20: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10; a joker stands
    for any symbol (the best set it completes); None when the 3 cards are no set."""
    if len(symbols) != 3:
        return None
    plain = [s for s in symbols if s != "joker"]
    if not plain:
        return MIXED_SET_VALUE
    values = []
    if len(set(plain)) == 1:
        values.append(SET_VALUES[plain[0]])
    if len(set(plain)) == len(plain):
        values.append(MIXED_SET_VALUE)
    return max(values, default=None)


def card_effect(board: Board, territory: str) -> CardEffect:
    effects: tuple[CardEffect, ...] = board.section("nap_card_effects")
    return next(e for e in effects if e.territory == territory)


def trade_bonus(board: Board, territories: Iterable[str | None]) -> int:
    """NAP-ADV-20: the Renfort card adds its regiments when traded in a set."""
    return sum(
        e.amount
        for t in territories
        if t is not None and (e := card_effect(board, t)).effect == "renfort"
    )


def card_window_open(window: str, own_turn: bool, phase: str) -> bool:
    """NAP-ADV-26: may a card of ``window`` be played now, in ``phase`` of one's own turn
    (``own_turn``) or of another player's?  Special cards state their own timing."""
    if window == "reinforce":
        return own_turn and phase == "reinforce"
    if window == "maneuver":
        return own_turn and phase == "maneuver"
    if window == "own_combat":
        return own_turn and phase == "combat"
    if window == "other_combat":
        return not own_turn and phase == "combat"
    if window == "any_combat":
        return phase == "combat"
    return True


def card_draws(
    *,
    conquered_enemy: bool,
    mission_since_last_turn: bool,
    holds_empire_or_route: bool,
    capitals: bool = False,
) -> int:
    """NAP-ADV-43 (NAP-CAP-03): one card for each condition met, at most 3; the mission
    condition is dropped with the Capitals option."""
    met = [conquered_enemy, mission_since_last_turn and not capitals, holds_empire_or_route]
    return min(MAX_DRAWS, sum(met))


def starting_cards(board: Board, players: int) -> tuple[int, ...]:
    """NAP-ADV-12: cards each seat draws, from the first player on (DEC-27: first player
    chosen before the deal)."""
    rows: tuple[StartingCards, ...] = board.section("nap_starting_cards")
    return next(r.cards for r in rows if r.players == players)


# ------------------------------------------------------------------------- dice
def ranked_bonus(leaders: int, fortified: bool = False) -> tuple[int, ...]:
    """NAP-ADV-30/33/34: 1 general (admiral) +1 on the highest die, 2 or more +1 on each of
    the two highest (a 3rd adds nothing); a fortification +1 on the defender's highest."""
    bonus = [1] * min(leaders, 2)
    if fortified:
        bonus = [bonus[0] + 1, *bonus[1:]] if bonus else [1]
    return tuple(bonus)


def battle_dice(count: int, leaders: int, fortified: bool = False, cap: bool = True) -> DiceSpec:
    """The dice one side throws with its generals (land) or admirals (sea) and, defending on
    land, a fortification; ``cap`` keeps raised faces at 6 (option ``die_cap``)."""
    return DiceSpec(count=count, ranked=ranked_bonus(leaders, fortified), cap=cap)


def epidemic_penalty_ok(origin_regiments: int, epidemics: int) -> bool:
    """NAP-ADV-32/DEC-24: after losing 1 regiment per epidemic of the target, the origin
    still holds at least 2 (one to attack, one to stay)."""
    return origin_regiments - epidemics >= 2


# ------------------------------------------------------------------------- conversions
def check_conversion(
    kind: Kind,
    *,
    generals: int = 0,
    admirals: int = 0,
    fort_here: bool = False,
    epidemic_here: bool = False,
    forts_free: int | None = None,
    own_territory: bool = True,
    own_ships_here: bool = True,
) -> None:
    """NAP-ADV-22/23/47: raise ``RuleError`` when a conversion is forbidden."""
    if kind == "general" and generals >= MAX_GENERALS:
        raise RuleError("too_many_generals", "You already have 3 generals in play (NAP-ADV-03).")
    if kind == "admiral" and admirals >= MAX_ADMIRALS:
        raise RuleError("too_many_admirals", "You already have 2 admirals in play (NAP-ADV-03).")
    if kind == "admiral" and not own_ships_here:
        raise RuleError("admiral_without_ships", "An admiral goes with your ships (NAP-ADV-23).")
    if kind in ("general", "fortification") and not own_territory:
        raise RuleError("not_owner", "Build on a territory you control (NAP-ADV-22).")
    if kind == "fortification":
        if fort_here:
            raise RuleError("already_fortified", "That territory has a fortification.")
        if epidemic_here:
            raise RuleError("epidemic_here", "No fortification where an epidemic is.")
        if forts_free is not None and forts_free < 1:
            raise RuleError("no_fortification_left", "No fortification token is free.")


def fortification_tokens(board: Board) -> int | None:
    pool: FortificationPool = board.section("nap_fortifications")
    return pool.tokens


# ------------------------------------------------------------------------- epidemics
def place_epidemics(board: Board, drawn: Iterable[int | None]) -> list[int]:
    """NAP-ADV-10: the territories of the first 4 cards drawn, skipping jokers (None) and a
    territory whose empire already has an epidemic."""
    out: list[int] = []
    empires: set[int] = set()
    for t in drawn:
        if t is None or board.territory_group[t] in empires:
            continue
        out.append(t)
        empires.add(board.territory_group[t])
        if len(out) == EPIDEMICS:
            break
    return out


class EpidemicStep(msgspec.Struct, frozen=True):
    """One territory's epidemic losses (NAP-ADV-40): regiments lost, and where its epidemics
    went when it was emptied."""

    territory: int
    lost: int
    moved_to: tuple[int, ...] = ()


def epidemic_losses(
    owner: Sequence[Seat],
    armies: Sequence[int],
    epidemics: Mapping[int, int],
    seat: Seat,
    draws: Iterator[int | None],
) -> list[EpidemicStep]:
    """NAP-ADV-40: 1 regiment per epidemic from each of ``seat``'s territories with epidemics;
    an emptied territory's epidemics move to the territory of the next card drawn that holds
    regiments (a joker or an empty territory: draw again)."""
    steps = []
    for t in sorted(epidemics):
        n = epidemics[t]
        if owner[t] != seat or n < 1:
            continue
        lost = min(n, armies[t])
        moved: list[int] = []
        if lost == armies[t]:
            for _ in range(n):
                dest = next(d for d in draws if d is not None and d != t and armies[d] > 0)
                moved.append(dest)
        steps.append(EpidemicStep(territory=t, lost=lost, moved_to=tuple(moved)))
    return steps


# ------------------------------------------------------------------------- victory points
def start_vp(
    board: Board,
    owner: Sequence[Seat],
    ships: Ships,
    seat: Seat,
    *,
    route_vp: bool = True,
    capitals: Iterable[str] = (),
) -> int:
    """NAP-ADV-16 (DEC-26, DEC-31): VP at the start of a turn: each held empire's bonus, each
    held route's when ``route_vp``, and ``capitals`` bonuses when they score VP."""
    vp = sum(empire_bonus(board, g) for g in held_empires(board, owner, seat))
    if route_vp:
        vp += sum(route_bonus(board, r) for r in held_routes(board, ships, seat))
    return vp + capital_bonus(board, capitals)


def last_turn_vp(territories: int, zones: int) -> int:
    """NAP-ADV-44: on one's last turn, VP += (territories + zones) // 3."""
    return (territories + zones) // 3


def capture_vp(owner: Seat, capturer: Seat) -> dict[Seat, int]:
    """NAP-ADV-24: a captured general or admiral costs its owner 1 VP and gives 1 VP."""
    return {owner: -1, capturer: 1}


def ransom_vp(owner: Seat, capturer: Seat, reading: str = "none") -> dict[Seat, int]:
    """NAP-ADV-25/DEC-29: the VP a ransom moves (none, or the capture's VP given back)."""
    return {} if reading == "none" else {owner: 1, capturer: -1}


def final_ranking(
    vp: Sequence[int],
    regiments: Sequence[int],
    missions: Sequence[int],
    *,
    holdings: Sequence[int] | None = None,
    tie: str = "shared",
) -> list[tuple[Seat, ...]]:
    """NAP-ADV-46 (DEC-30): seats ranked by VP, then regiments in play, then missions
    accomplished, then (``tie='territories'``) territories and zones held; seats still tied
    share a place.  Eliminated seats are ranked too (NAP-ADV-01)."""

    def key(s: Seat) -> tuple[int, ...]:
        extra = (holdings[s],) if tie == "territories" and holdings is not None else ()
        return (vp[s], regiments[s], missions[s], *extra)

    order = sorted(range(len(vp)), key=key, reverse=True)
    places: list[tuple[Seat, ...]] = []
    for s in order:
        if places and key(places[-1][0]) == key(s):
            places[-1] = (*places[-1], s)
        else:
            places.append((s,))
    return places


# ------------------------------------------------------------------------- missions
def empire_mission_done(
    board: Board, mission: EmpireMission, owner: Sequence[Seat], ships: Ships, seat: Seat
) -> bool:
    """NAP-ADV-17: an Empire mission's test (GAP-08 reconstruction)."""
    if mission.test == "route":
        return mission.target in held_routes(board, ships, seat)
    if mission.test == "capital":
        group = board.groups[board.group_index[mission.target]]
        return group.capital is not None and owner[board.index[group.capital]] == seat
    return mission.target in held_empires(board, owner, seat)


def check_rank_free(rank: str, claimed_this_turn: Iterable[str]) -> None:
    """NAP-ADV-17/47: at most one mission of each rank per turn."""
    if rank in set(claimed_this_turn):
        raise RuleError("rank_claimed", f"You already accomplished a {rank} mission this turn.")


def year_of_round(board: Board, round: int) -> int | None:
    """NAP-ADV-14: the year the time token shows in ``round`` (GAP-11)."""
    track: tuple[Epoch, ...] = board.section("nap_time_track")
    return next((e.year for e in track if e.round == round), None)
