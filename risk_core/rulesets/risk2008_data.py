"""Risk 2008's board data (rulebook 003, R08-*): the sections of ``boards/risk2008/board.json``.

The map itself is the classic world map (R08-01, GAP-21); what Risk 2008 adds lives in
sections this module registers, each item a :class:`~risk_core.board_sections.Fact` that says
whether the rulebook states it (``verified``) or how it was reconstructed (``note``):

* ``cards`` (the core's section): the 42 territory cards and the stars each shows (R08-04;
  the star count of every card is GAP-22);
* ``r08_star_trades``: regiments for 2 to 10 stars (R08-10, printed next to Oceania);
* ``r08_missions``: the 6 minor and 6 major missions with their exact conditions (R08-15) and
  which 8 the Training game uses (R08-TR-03);
* ``r08_training_cities``: the Training game's 15 cities (R08-TR-04);
* ``r08_rewards``: the reward tokens (R08-CC-03; the inventory is GAP-24);
* ``r08_training_setups``: the Training card's position for 3, 4 and 5 players (GAP-23).
"""

from __future__ import annotations

from typing import Literal

from risk_core.board import Board, BoardError, Fact, register_section

MissionTest = Literal[
    "groups",  # control every territory of ``groups``
    "any_groups",  # control ``count`` whole continents, any of them
    "cities",  # control ``count`` cities
    "enemy_capitals",  # control ``count`` capitals other than your own (DEC-45)
    "territories",  # control ``count`` territories
    "cities_this_turn",  # take ``count`` cities during this turn
    "territories_this_turn",  # take ``count`` territories during this turn
    "group_this_turn",  # control a continent you did not control at the start of the turn
]
Ability = Literal[
    "airfield",
    "strategic_maneuver",
    "bonus_maneuver",
    "bonus_card",
    "bonus_attack_die",
    "bonus_defence_die",
    "two_regiments",
]


class StarTrade(Fact, frozen=True, forbid_unknown_fields=True):
    """R08-10: trading cards showing ``stars`` stars in all gives ``regiments``."""

    stars: int
    regiments: int


class R08Mission(Fact, frozen=True, forbid_unknown_fields=True):
    """A face-up mission card (R08-15): minor or major, and the test its text sets."""

    id: str
    kind: Literal["minor", "major"]
    text_en: str
    text_fr: str
    test: MissionTest
    groups: tuple[str, ...] = ()
    count: int = 0
    training: bool = False  # one of the Training game's eight (R08-TR-03)


class City(Fact, frozen=True, forbid_unknown_fields=True):
    """A city building on ``territory`` (R08-06)."""

    territory: str


class Reward(Fact, frozen=True, forbid_unknown_fields=True):
    """A reward token (R08-CC-03/09..16): small ones go on minor missions, supreme on major."""

    id: str
    kind: Literal["small", "supreme"]
    ability: Ability
    text_en: str


class PresetSeat(Fact, frozen=True, forbid_unknown_fields=True):
    """One colour of a Training setup card: its place in the turn order is its index."""

    colour: str
    capital: str
    cards: int  # starting territory cards (R08-TR-05)
    regiments: dict[str, int]  # territory -> regiments


class TrainingSetup(Fact, frozen=True, forbid_unknown_fields=True):
    """R08-TR-02: the Training card's position for ``players`` players, colours in turn order."""

    players: int
    seats: tuple[PresetSeat, ...]


def _known(board: Board, territory: str, what: str) -> None:
    if territory not in board.index:
        raise BoardError("unknown_territory", f"{what} names unknown territory {territory!r}")


def check_star_trades(rows: tuple[StarTrade, ...], board: Board) -> None:
    stars = [r.stars for r in rows]
    if stars != sorted(set(stars)) or any(r.regiments < 1 or r.stars < 1 for r in rows):
        raise BoardError("bad_section", "r08_star_trades: distinct, increasing stars and regiments")


def check_missions(missions: tuple[R08Mission, ...], board: Board) -> None:
    ids = [m.id for m in missions]
    if len(set(ids)) != len(ids):
        raise BoardError("bad_section", "r08_missions: a mission id is listed twice")
    for m in missions:
        for g in m.groups:
            if g not in board.group_index:
                raise BoardError("unknown_group", f"Mission {m.id!r} names unknown group {g!r}")
        if (m.test == "groups") != bool(m.groups) or m.count < 0:
            raise BoardError("bad_section", f"Mission {m.id!r}: groups only for the groups test")


def check_cities(cities: tuple[City, ...], board: Board) -> None:
    for c in cities:
        _known(board, c.territory, "A city")
    if len({c.territory for c in cities}) != len(cities):
        raise BoardError("bad_section", "r08_training_cities: a territory has two cities")


def check_rewards(rewards: tuple[Reward, ...], board: Board) -> None:
    if len({r.id for r in rewards}) != len(rewards):
        raise BoardError("bad_section", "r08_rewards: a reward id is listed twice")


def check_setups(setups: tuple[TrainingSetup, ...], board: Board) -> None:
    for setup in setups:
        if len(setup.seats) != setup.players:
            raise BoardError("bad_section", f"Training setup for {setup.players}: seat count")
        held: list[str] = []
        for seat in setup.seats:
            for t, n in seat.regiments.items():
                _known(board, t, f"The {setup.players}-player Training setup")
                if n < 1:
                    raise BoardError("bad_section", f"Training setup: {t} has {n} regiments")
            if seat.capital not in seat.regiments:
                raise BoardError("bad_section", f"Training capital {seat.capital!r} not held")
            held += list(seat.regiments)
        if sorted(held) != sorted(t.id for t in board.territories):
            raise BoardError(
                "bad_section",
                f"The {setup.players}-player Training setup must hold each territory exactly once",
            )


register_section("r08_star_trades", tuple[StarTrade, ...], check_star_trades)
register_section("r08_missions", tuple[R08Mission, ...], check_missions)
register_section("r08_training_cities", tuple[City, ...], check_cities)
register_section("r08_rewards", tuple[Reward, ...], check_rewards)
register_section("r08_training_setups", tuple[TrainingSetup, ...], check_setups)
