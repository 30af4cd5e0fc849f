"""Risk Napoléon, the 1796 campaign's own state, commands and events (NAP-CAMP-*).

The campaign is the advanced game (``AdvState``: ships, generals, fortifications, epidemics,
VP) with the active independents' allegiances and the steps of a campaign turn: influence,
allied income, invasions and their status dice, capital re-alliance, annexations.  The
napoleon-2p commands and events that mean the same thing here are reused as they are
(``GiveCard``, ``ReinforceAlly``, ``AllyManeuver``, ``EndPhase``; ``CardGiven``,
``InfluenceEnded``, ``AllyPlaced``, ``StatusRolled``, ``AllyManeuvered``).

Secrets: the cards under an independent's cannon are face down (the position and
``CardGiven`` hide them); the re-alliance card is spent face down too (``Reallied.redact``).
"""

from __future__ import annotations

from typing import Any, Literal

from risk_core.model import Command, Event, Seat, command, event
from risk_core.rulesets.napoleon_advanced_state import AdvState

AnnexKind = Literal["ally", "neutral"]


class CampState(AdvState, frozen=True):
    """The advanced game's state plus the campaign's alliances and turn steps."""

    # NAP-CAMP-03/06: per seat, the player seat an active independent is allied to (None:
    # neutral; always None for the players and the passive neutral).
    ally_of: tuple[Seat | None, ...] = ()
    quota: tuple[int, ...] = ()  # per seat: allied income still to place (NAP-CAMP-08)
    reinforced: tuple[Seat, ...] = ()  # allies whose income was taken this turn
    maneuvered: tuple[Seat, ...] = ()  # allies that made their maneuver this turn (NAP-2PA-12)
    # The invasion in progress (NAP-2PA-09, NAP-CAMP-09): its target, whether it fell, the
    # independents that took part (attacking ones also in ``attackers``) and the generals and
    # admirals captured in it.
    invasion: str | None = None
    fell: bool = False
    rolls: tuple[Seat, ...] = ()
    attackers: tuple[Seat, ...] = ()
    leaders_taken: int = 0
    realliance: str = ""  # NAP-CAMP-10: the capital just taken, open for a re-alliance card
    annexed: tuple[str, ...] = ()  # NAP-CAMP-11/12: the kinds annexed this turn
    scored: tuple[str, ...] = ()  # NAP-CAMP-14: "side:territory" one-shot invasion VP taken


# --------------------------------------------------------------------------- commands
@command
class Annex(Command, frozen=True, tag="annex"):
    """NAP-CAMP-11/12: at the end of your turn, annex ``territory`` from one of your allies
    (it turns neutral), or from the passive neutral by discarding ``card``."""

    territory: str
    card: int | None = None


@command
class Really(Command, frozen=True, tag="really"):
    """NAP-CAMP-10: after taking an independent's capital, spend ``card`` to make that power
    your ally: your troops there withdraw to ``withdraw_to`` and 3 of its regiments return."""

    card: int
    withdraw_to: str


# --------------------------------------------------------------------------- events
@event
class AlliedIncome(Event, frozen=True, tag="allied_income"):
    """NAP-CAMP-08: ``ally`` receives ``count`` regiments (territories, capital or empire),
    which ``seat`` places now."""

    seat: Seat
    ally: Seat
    count: int
    territories: int
    bonus: int


@event
class StabilityRolled(Event, frozen=True, tag="stability_rolled"):
    """NAP-CAMP-09 (DEC-32c): an English ally lost an invasion: 1d6 + ``leaders`` captured;
    6 or more and it turns neutral (``ally_of`` is its status after the roll)."""

    seat: Seat
    independent: Seat
    face: int
    leaders: int
    ally_of: Seat | None
    rng: int
    scripted: int = 0


@event
class CapitalFell(Event, frozen=True, tag="capital_fell"):
    """NAP-CAMP-10: ``independent``'s capital was invaded: an allied power turns neutral."""

    independent: Seat
    capital: str
    was_ally_of: Seat


@event
class RealliancePossible(Event, frozen=True, tag="realliance_possible"):
    """NAP-CAMP-10: ``seat`` took ``capital``; a territory card now makes its power his ally."""

    seat: Seat
    capital: str


@event
class Reallied(Event, frozen=True, tag="reallied"):
    """NAP-CAMP-10 (DEC-32d): ``seat`` spent ``card`` (now under ``independent``'s cannon);
    ``withdrawn`` regiments left ``capital`` for ``withdraw_to``; ``placed`` of the power's
    regiments hold the capital; ``independent`` is ``seat``'s ally."""

    seat: Seat
    independent: Seat
    card: int
    capital: str
    withdraw_to: str
    withdrawn: int
    placed: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        """The card goes face down under the cannon (NAP-CAMP-06/10)."""
        if d["seat"] != seat:
            d["card"] = None


@event
class AnnexOpened(Event, frozen=True, tag="annex_opened"):
    """NAP-CAMP-16 (6): the epidemics are over; ``seat`` may annex before the card draws."""

    seat: Seat


@event
class Annexed(Event, frozen=True, tag="annexed"):
    """NAP-CAMP-11/12: ``seat`` annexed ``territory`` from ``previous`` (an ally, which turns
    neutral, or the passive neutral, for the discarded ``card``): its ``regiments`` are now
    ``seat``'s."""

    seat: Seat
    territory: str
    previous: Seat
    kind: AnnexKind
    regiments: int
    card: int | None = None


@event
class InvasionScored(Event, frozen=True, tag="invasion_scored"):
    """NAP-CAMP-14: the first invasion of ``territory`` by ``seat`` or an ally scores ``vp``."""

    seat: Seat
    territory: str
    vp: int
    year: int | None = None


@event
class ObjectivesScored(Event, frozen=True, tag="objectives_scored"):
    """NAP-CAMP-14: the control and ally VP at the start of ``seat``'s turn (``detail``: the
    objectives held, ``allies:N`` for the allies)."""

    seat: Seat
    vp: int
    detail: tuple[str, ...] = ()


@event
class InvasionEnded(Event, frozen=True, tag="invasion_ended"):
    """NAP-2PA-09/NAP-CAMP-09: the invasion of ``target`` is over and its status dice rolled."""

    seat: Seat
    target: str


@event
class CampaignOpened(Event, frozen=True, tag="campaign_opened"):
    """NAP-CAMP-04/06: the set-up diagram's pieces (ships and admirals per zone and seat,
    generals per territory), the starting alliances (``ally_of`` per seat), the cards drawn
    from the top of the pile under the starting allies' cannons (``influence`` per seat,
    secret) and the first player (the French)."""

    ships: tuple[tuple[int, ...], ...]
    admirals: tuple[tuple[int, ...], ...]
    generals: tuple[int, ...]
    ally_of: tuple[Seat | None, ...]
    influence: tuple[tuple[int, ...], ...]
    first: Seat

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        """Drawn unseen (NAP-CAMP-06): everyone learns how many, nobody which."""
        d["influence"] = [len(cards) for cards in d["influence"]]
