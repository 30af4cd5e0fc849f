"""Risk Napoléon, the 1796 campaign (NAP-CAMP-*): its own rules as pure functions.

The campaign (rulebooks 000 l.1095-1219, 001 l.430-538) is played by the rule set
``napoleon-1796`` (:mod:`~risk_core.rulesets.napoleon_1796`); these are the building blocks
it uses, each one rule from plain facts and the board of
``boards/napoleon/advanced`` (sections ``nap_campaign_1796`` and ``nap_campaign_objectives``):
the sides, seats and colours, the goal, the starting alliances and their influence cards,
the capital half bonus, the allies' income, the English alliances' stability, the capital
re-alliance, the English defence force, the annexations, the VP objectives, and the turn's
steps and who decides what in them (the specification the rule set's turn follows).  The
decisions the catalogue leaves open are named options (``CAMPAIGN_OPTIONS``) defaulting to
its recommended readings.

Armies are named by colour: ``blue`` (the French player), ``red`` (the English player),
``white`` (Austrians), ``black`` (Prussians), ``green`` (Russians), ``yellow`` (the passive
neutral).  ``allied`` maps an independent's colour to the player colour it is allied to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import ceil
from typing import Literal, NamedTuple

from risk_core.board import Board
from risk_core.errors import RuleError
from risk_core.model import SeatInfo
from risk_core.rulesets.base import Option
from risk_core.rulesets.napoleon_advanced_data import CampaignArmy, CampaignObjective

Side = Literal["french", "english"]
FRENCH, ENGLISH = "blue", "red"  # NAP-CAMP-01, DEC-07
SIDES: dict[str, Side] = {FRENCH: "french", ENGLISH: "english"}
INDEPENDENTS = ("white", "black", "green")  # NAP-CAMP-03: active
PASSIVE = "yellow"
# NAP-CAMP-07: the powers whose capital pays half their empire bonus.
POWERS = {
    "blue": "empire_francais",
    "red": "royaume_uni",
    "white": "empire_d_autriche",
    "black": "royaumes_de_prusse",
    "green": "empire_de_russie",
}
# NAP-CAMP-10: the capitals of the active independents (their empires' capitals on the board).
CAPITALS = {
    "white": "pays_austro_bohemiens",
    "black": "pomeranie_brandebourg_silesie",
    "green": "grande_russie",
}
DEFENCE_FORCE = 5  # NAP-CAMP-13
STABILITY_ROLL = 6  # NAP-CAMP-09: an English ally that loses turns neutral on 6 (+1 a leader)

CAMPAIGN_OPTIONS: dict[str, Option] = {
    "rounds": Option(
        default=5,
        choices=(5, 8, 9),
        doc="DEC-06 (NAP-CAMP-05): 5 rounds (recommended: 001 says 5 twice), 8 (000 l.1111) "
        "or 9 (000 l.1149).",
    ),
    "english_colour": Option(
        default="red",
        choices=("red",),
        doc="DEC-07 (NAP-CAMP-01): the English player is red (001); 000's 'Jaune' would make "
        "one army both a player and the passive neutral, so it is not offered.",
    ),
    "half_bonus": Option(
        default="max",
        choices=("max", "add"),
        doc="DEC-32(a) (NAP-CAMP-07): a power holding its capital gets the larger of its whole "
        "empire's bonus and half of it rounded up (max, recommended), or both (add).",
    ),
    "maritime_supremacy": Option(
        default="more_zones",
        choices=("more_zones", "both_routes"),
        doc="DEC-32(b) (NAP-CAMP-14): maritime supremacy is strictly more sea zones than the "
        "opponent at the start of your turn (more_zones, recommended), or both maritime "
        "routes (both_routes).",
    ),
}


def side_of(colour: str) -> Side:
    """NAP-CAMP-01 (DEC-07): the French player is blue, the English red."""
    if colour not in SIDES:
        raise RuleError("not_a_player", f"{colour} is no player's colour in the campaign.")
    return SIDES[colour]


def armies(board: Board) -> dict[str, CampaignArmy]:
    rows: tuple[CampaignArmy, ...] = board.section("nap_campaign_1796") or ()
    return {a.colour: a for a in rows}


def campaign_seats(board: Board, french: str, english: str) -> list[SeatInfo]:
    """NAP-CAMP-01/03/06: the French player's seat first (he plays first), the English
    player's, then the independents in the board's order (Austrians, Prussians, Russians,
    the passive neutral), named as the board names them; two players need two names."""
    if french == english:
        raise RuleError("bad_players", "The French and English players need different names.")
    seats = []
    for colour, army in armies(board).items():
        if army.role == "player":
            seats.append(SeatInfo(name=french if colour == FRENCH else english, colour=colour))
        else:
            name = army.name_en if army.name_en not in (french, english) else colour.capitalize()
            seats.append(SeatInfo(name=name, colour=colour, neutral=True))
    return sorted(seats, key=lambda s: s.neutral or s.colour != FRENCH)


def starting_alliances() -> dict[str, str]:
    """NAP-CAMP-06: the Austrians and Prussians start allied to the English, the Russians
    neutral (absent from the map)."""
    return {"white": ENGLISH, "black": ENGLISH}


def capital_income(board: Board, owner: Mapping[str, str], power: str, reading: str = "max") -> int:
    """NAP-CAMP-07 (DEC-32a): the empire part of ``power``'s income: its whole empire's bonus
    when it holds every territory; half of it rounded up whenever it holds its capital; the
    larger of the two (``max``) or both (``add``).  ``owner`` maps territory ids to colours."""
    group = board.groups[board.group_index[POWERS[power]]]
    members = [board.territories[t].id for t in board.group_members[board.group_index[group.id]]]
    whole = group.bonus if all(owner.get(t) == power for t in members) else 0
    capital = group.capital is not None and owner.get(group.capital) == power
    half = ceil(group.bonus / 2) if capital else 0
    return whole + half if reading == "add" else max(whole, half)


def allied_income(board: Board, owner: Mapping[str, str], power: str, reading: str = "max") -> int:
    """NAP-CAMP-08: an allied power receives its territory count's reinforcements (at least
    3) plus its capital or empire bonus and the bonus of every other empire it holds whole
    ("les bonus de capitales et/ou d'Empires"); a neutral one nothing (the caller's test)."""
    count = sum(1 for c in owner.values() if c == power)
    return (
        max(3, count // 3)
        + capital_income(board, owner, power, reading)
        + (other_empires_bonus(board, owner, power))
    )


def other_empires_bonus(board: Board, owner: Mapping[str, str], power: str) -> int:
    """NAP-CAMP-08: the bonuses of the empires ``power`` holds whole besides its own (whose
    part is ``capital_income``'s).  ``owner`` maps territory ids to colours."""
    own = POWERS[power]
    ids = [t.id for t in board.territories]
    return sum(
        group.bonus
        for group, members in zip(board.groups, board.group_members, strict=True)
        if group.id != own and members and all(owner.get(ids[t]) == power for t in members)
    )


def ally_turns_neutral(roll: int, leaders_captured: int) -> bool:
    """NAP-CAMP-09 (DEC-32c): an English ally on the losing side of an invasion turns neutral
    on a d6 of 6, +1 to the roll per general or admiral captured in that invasion."""
    return roll + leaders_captured >= STABILITY_ROLL


def english_ally_lost(attacking: bool, conquered: bool) -> bool:
    """NAP-CAMP-09 (DEC-32c): an English ally "loses" an invasion it took part in when, as an
    attacker, the invasion stopped without the conquest, or, as a defender, its territory was
    conquered; only then does it roll for its alliance (``ally_turns_neutral``)."""
    return not conquered if attacking else conquered


def defence_force_attackers(regiments: int) -> int:
    """NAP-CAMP-13: the regiments an English territory of the United Kingdom may send: those
    above 5 (an attack needs more than 5)."""
    return max(0, regiments - DEFENCE_FORCE)


def check_defence_force(board: Board, territory: str, regiments: int, leaving: int) -> None:
    """NAP-CAMP-13/15: a voluntary departure may not leave fewer than 5 in the UK."""
    uk = POWERS[ENGLISH]
    if board.territories[board.index[territory]].group == uk and regiments - leaving < 5:
        raise RuleError(
            "defence_force",
            f"{territory} must keep {DEFENCE_FORCE} regiments (NAP-CAMP-13): at most "
            f"{defence_force_attackers(regiments)} may leave.",
        )


def check_annexation(
    board: Board,
    territory: str,
    holder: str,
    annexer: str,
    allied: Mapping[str, str],
    done: Iterable[str],
) -> Literal["ally", "neutral"]:
    """NAP-CAMP-11/12/15: which annexation ``annexer`` may make of ``territory``: an ally's
    non-capital territory (the ally then turns neutral), or the passive neutral's (for a
    card); one of each kind a turn."""
    if any(g.capital == territory for g in board.groups):
        raise RuleError("annex_capital", "A capital cannot be annexed (NAP-CAMP-15).")
    if holder == PASSIVE:
        kind: Literal["ally", "neutral"] = "neutral"
    elif allied.get(holder) == annexer:
        kind = "ally"
    else:
        raise RuleError(
            "not_annexable", "Annex a territory of one of your allies or of the neutral."
        )
    if kind in set(done):
        raise RuleError("one_per_turn", f"You have annexed one {kind} territory this turn.")
    return kind


def maritime_supremacy(
    zones: Mapping[str, int], routes: Mapping[str, int], side: str, reading: str = "more_zones"
) -> bool:
    """NAP-CAMP-14/DEC-32(b): ``zones``/``routes`` held per player colour."""
    other = ENGLISH if side == FRENCH else FRENCH
    if reading == "both_routes":
        return routes.get(side, 0) >= 2
    return zones.get(side, 0) > zones.get(other, 0)


def objectives(board: Board, side: Side) -> list[CampaignObjective]:
    rows: tuple[CampaignObjective, ...] = board.section("nap_campaign_objectives") or ()
    return [r for r in rows if r.side == side]


def turn_vp(
    board: Board,
    side_colour: str,
    owner: Mapping[str, str],
    allies: int,
    supremacy: bool,
) -> int:
    """NAP-CAMP-14: the control VP at the start of a turn (besides empires and routes, which
    the advanced game already scores): the side's own capital line, maritime supremacy,
    Égypte, and 1 per ally."""
    total = 0
    for r in objectives(board, side_of(side_colour)):
        if r.kind == "ally":
            total += r.vp * allies
        elif r.kind == "control":
            held = (
                supremacy
                if r.target == "maritime_supremacy"
                else owner.get(r.target) == side_colour
            )
            total += r.vp if held else 0
    return total


def invasion_vp(
    board: Board,
    side_colour: str,
    territory: str,
    year: int | None,
    allied: Mapping[str, str],
    scored: Sequence[str],
) -> int:
    """NAP-CAMP-14: the one-shot VP for the first invasion of ``territory`` by the side or
    its allies, with its condition (Égypte before 1809, a power allied to the other side)."""
    side = side_of(side_colour)
    if f"{side}:{territory}" in scored:
        return 0
    for r in objectives(board, side):
        if r.kind != "invasion" or r.target != territory:
            continue
        if r.condition == "before_1809" and (year is None or year >= 1809):
            return 0
        if r.condition.startswith("allied_to_"):
            other, _, colour = r.condition.removeprefix("allied_to_").partition(":")
            wanted = FRENCH if other == "french" else ENGLISH
            if allied.get(colour) != wanted:
                return 0
        return r.vp
    return 0


# --------------------------------------------------------------------------- NAP-CAMP-02
def campaign_winner(
    vp: Mapping[str, int],
    eliminated: str | None = None,
    *,
    regiments: Mapping[str, int] | None = None,
    holdings: Mapping[str, int] | None = None,
    tie: str = "shared",
) -> str | None:
    """NAP-CAMP-02: the player who eliminated the other wins; else, at the end of the last
    round, the one with more VP.  The campaign names no tie-break of its own but plays by
    every other rule of the advanced game (NAP-CAMP-04), so equal VP go to NAP-ADV-46's:
    more ``regiments`` in play (its second, missions accomplished, is equal: the campaign has
    no missions), then DEC-30: with ``tie='territories'`` more territories and sea zones
    held (``holdings``).  ``None`` when still equal: a shared victory (DEC-30, recommended),
    the same order as the game's final ranking (``nar.final_ranking``)."""
    if eliminated is not None:
        return ENGLISH if side_of(eliminated) == "french" else FRENCH

    def key(colour: str) -> tuple[int, int, int]:
        held = (holdings or {}).get(colour, 0) if tie == "territories" else 0
        return vp.get(colour, 0), (regiments or {}).get(colour, 0), held

    french, english = key(FRENCH), key(ENGLISH)
    if french == english:
        return None
    return FRENCH if french > english else ENGLISH


# --------------------------------------------------------------------------- NAP-CAMP-06
def starting_influence(deck: Sequence[int]) -> dict[str, tuple[int, ...]]:
    """NAP-CAMP-06: one face-down card from the top of the shuffled deck under each starting
    English ally's cannon (Austrians first, then Prussians, the board's order).  These cards
    count toward the 3-card influence lock (NAP-2PA-04) like any gift."""
    allies = list(starting_alliances())  # the 48-card deck always has enough
    return {colour: (deck[i],) for i, colour in enumerate(allies)}


# --------------------------------------------------------------------------- NAP-CAMP-10
REALLIANCE_REGIMENTS = 3  # NAP-CAMP-10: placed from the power's reserve in its capital


def capital_power(territory: str) -> str | None:
    """The active independent (NAP-CAMP-03) whose capital ``territory`` is, if any."""
    for colour in INDEPENDENTS:
        if CAPITALS[colour] == territory:
            return colour
    return None


def neutralised_by_invasion(territory: str, allied: Mapping[str, str]) -> str | None:
    """NAP-CAMP-10: conquering an allied power's capital turns that power neutral at once,
    whoever held the capital (the power itself, its ally or anyone else).  Returns the colour
    that turns neutral, ``None`` when ``territory`` is no allied power's capital."""
    power = capital_power(territory)
    return power if power is not None and power in allied else None


class Realliance(NamedTuple):
    """What a NAP-CAMP-10 re-alliance does: ``power`` becomes ``ally_of``'s ally; the
    invader's ``withdrawn`` regiments leave ``capital`` for ``withdraw_to``; ``placed``
    regiments of the power's reserve take the capital, from which the new ally may attack
    at once."""

    power: str
    ally_of: str
    capital: str
    withdraw_to: str
    withdrawn: int
    placed: int


def check_realliance(
    board: Board,
    capital: str,
    invader: str,
    withdraw_to: str,
    owner: Mapping[str, str],
    regiments: Mapping[str, int],
    cards: int,
    allied: Mapping[str, str],
) -> Realliance:
    """NAP-CAMP-10/17: the invader of an independent's capital spends one territory card to
    make that power his ally.  ``owner``/``regiments`` describe the board after the conquest
    (the invader holds the capital); ``allied`` the alliances after it (the power neutral);
    ``cards`` the territory cards in the invader's hand."""
    side_of(invader)
    power = capital_power(capital)
    if power is None:
        raise RuleError(
            "not_capital", f"{capital} is no capital of the Austrians, Prussians or Russians."
        )
    if owner.get(capital) != invader:
        raise RuleError("not_owner", f"You do not hold {capital}: invade it first (NAP-CAMP-10).")
    if power in allied:
        raise RuleError(
            "not_neutral", f"The {power} army is allied: it turns neutral when its capital falls."
        )
    if cards < 1:
        raise RuleError("card_required", "Re-alliance costs one territory card (NAP-CAMP-10).")
    c, w = board.index[capital], board.index.get(withdraw_to)
    if w is None or w not in board.neighbour_sets[c]:
        raise RuleError(
            "not_adjacent", f"Withdraw your troops to a territory adjacent to {capital}."
        )
    if owner.get(withdraw_to) != invader:
        raise RuleError("not_owner", f"You do not control {withdraw_to} (NAP-CAMP-10).")
    return Realliance(
        power, invader, capital, withdraw_to, regiments.get(capital, 0), REALLIANCE_REGIMENTS
    )


# --------------------------------------------------------------------------- NAP-CAMP-16/17
# NAP-CAMP-16: the campaign turn, in order, with the rules each step applies.
TURN_STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start", ("NAP-ADV-14", "NAP-CAMP-14", "NAP-2PA-03")),  # time, control VP, influence
    ("reinforce", ("NAP-CAMP-07", "NAP-ADV-19")),  # own income, conversions
    ("ally_reinforce", ("NAP-CAMP-08",)),  # allied income, placed by the player
    ("combat", ("NAP-ADV-27", "NAP-2PA-09", "NAP-CAMP-09", "NAP-CAMP-10", "NAP-CAMP-13")),
    ("maneuver", ("NAP-ADV-30", "NAP-CAMP-13")),  # own land, naval and general moves
    ("ally_maneuver", ("NAP-2PA-12",)),  # one per ally
    ("epidemic", ("NAP-ADV-36",)),
    ("end", ("NAP-CAMP-11", "NAP-CAMP-12", "NAP-ADV-43")),  # annexations, card draws, census
)

# NAP-CAMP-17: who takes each decision: the player whose turn it is, the other player, or
# the owner of the units (a player defending his own or, DEC-19, an independent's).
DECISIONS: dict[str, str] = {
    "influence": "active",
    "ally_income": "active",
    "attack": "active",
    "ally_attack": "active",
    "realliance": "active",
    "annexation": "active",
    "defence_own": "owner",
    "defence_independent": "non_active",
}


def decider(decision: str, active: str, defender: str | None = None) -> str:
    """NAP-CAMP-17 (DEC-19): the colour that takes ``decision`` in ``active``'s turn;
    ``defender`` is the defending army's colour for the defence decisions."""
    who = DECISIONS[decision]  # a fixed table: an unknown name is a programming error
    side_of(active)
    other = ENGLISH if active == FRENCH else FRENCH
    if who == "owner":
        return defender if defender in SIDES else other
    return active if who == "active" else other
