"""Risk Napoléon advanced game's own state, commands and events (NAP-ADV-*).

The family state (:class:`AdvState`, ``GameState.family``) holds what the advanced game adds
to the map: victory points, ships and admirals per sea zone, generals per territory, captured
generals and admirals, fortifications, epidemics, the mission piles and hands, and the record
of the current turn (what was built, fought and maneuvered).  Zone tables follow the board's
``sea_zones`` order; territory tables the board's territory order.

Secrets: each seat's missions and the mission piles are hidden (``redact`` on the events that
carry them; the state itself never reaches a view, ``risk_core.views``).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from risk_core.model import Command, Event, FamilyState, Seat, command, event

PieceKind = Literal["general", "fortification"]
ConvertKind = Literal["ship", "general", "admiral", "fortification"]
LeaderKind = Literal["general", "admiral"]


class AdvState(FamilyState, frozen=True):
    """Everything the advanced game adds; tuples are replaced whole by the projectors."""

    vp: tuple[int, ...] = ()  # per seat (NAP-ADV-05)
    ships: tuple[tuple[int, ...], ...] = ()  # [zone][seat]
    admirals: tuple[tuple[int, ...], ...] = ()  # [zone][seat]
    generals: tuple[int, ...] = ()  # [territory]: the owner's generals there
    captured_generals: tuple[tuple[int, ...], ...] = ()  # [owner][capturer]
    captured_admirals: tuple[tuple[int, ...], ...] = ()  # [owner][capturer]
    forts: tuple[str, ...] = ()  # fortified territories (NAP-ADV-21: income at census)
    epidemics: tuple[int, ...] = ()  # [territory]
    missions: tuple[tuple[str, ...], ...] = ()  # [seat] secret missions in hand
    piles: tuple[tuple[str, ...], ...] = ()  # [rank] mission draw piles, top last (secret)
    done: tuple[tuple[str, ...], ...] = ()  # [seat] accomplished missions (public)
    mission_since: tuple[bool, ...] = ()  # [seat] a mission since its last turn (NAP-ADV-43b)
    pieces: tuple[int, ...] = ()  # [seat] setup pieces left: 2 general+fort, 1 fort, 0
    ranking: tuple[tuple[int, ...], ...] = ()  # the final places (NAP-ADV-46), ties shared
    # --- the current turn
    ranks_claimed: tuple[str, ...] = ()  # one mission per rank per turn (NAP-ADV-17)
    conquered_enemy: bool = False  # NAP-ADV-43a: a territory taken from another player
    land_started: bool = False  # NAP-ADV-27: no naval combat after the first land offensive
    forced: tuple[str, ...] = ()  # zones where a forced naval combat is pending (NAP-ADV-27)
    charged: tuple[str, ...] = ()  # "origin>target" epidemic penalties paid (DEC-24)
    committed: int = 0  # generals (or admirals) leading the attack order (DEC-23)
    leads: tuple[str, ...] = ()  # "territory=count": the generals chosen to lead from there
    attack_boost: int = 0  # a card's +1 on the highest attack die of the next battle
    defence_boost: int = 0  # a card's +1 on the highest defence die of the pending battle
    maneuvering: bool = False  # the attacks are over: maneuvers only (NAP-ADV-39)
    lost_all: bool = False  # the last battle destroyed every attacking unit (DEC-23)
    land_moves: int = 1  # land maneuvers left (NAP-ADV-39, +1 per maneuver card)
    naval_moved: bool = False
    start_units: tuple[int, ...] = ()  # [territory] regiments at the start of the maneuvers
    start_ships: tuple[int, ...] = ()  # [zone] own ships at the start of the maneuvers
    fresh_generals: tuple[int, ...] = ()  # [territory] generals that may still maneuver
    fresh_admirals: tuple[int, ...] = ()  # [zone] admirals that may still maneuver


def replace_at(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def add_at(table: tuple[tuple[int, ...], ...], row: int, col: int, n: int) -> Any:
    """``table[row][col] += n`` on a tuple of tuples."""
    return replace_at(table, row, replace_at(table[row], col, table[row][col] + n))


# --------------------------------------------------------------------------- commands
@command
class PlacePiece(Command, frozen=True, tag="place_piece"):
    """Set-up (NAP-ADV-09): put your general, then your fortification, on ``territory``."""

    kind: PieceKind
    territory: str


@command
class Convert(Command, frozen=True, tag="convert"):
    """NAP-ADV-22: turn ``count`` reinforcement regiments into ships (in zone ``where``) or one
    into a general (territory), an admiral (zone) or a fortification (territory)."""

    kind: ConvertKind
    where: str
    count: int = 1


@command
class NavalAttack(Command, frozen=True, tag="naval_attack"):
    """NAP-ADV-27/28: attack the ships in zone ``target`` from zone ``origin`` (the same zone
    for a forced combat), or move into ``target`` when it is empty."""

    origin: str
    target: str
    dice: int = 3
    until: Literal["once", "conquer"] = "once"
    move: int | None = None  # ships that move into an emptied zone (default: the dice)


@command
class PlayCard(Command, frozen=True, tag="play_card"):
    """NAP-ADV-26: play territory card ``card`` for its effect; ``target`` names the zone of
    a ships card, or "from>to" territories of an epidemic card."""

    card: int
    target: str = ""


@command
class Ransom(Command, frozen=True, tag="ransom"):
    """NAP-ADV-25: buy back a ``kind`` captured by ``captor`` for 1 reinforcement regiment."""

    kind: LeaderKind
    captor: Seat


@command
class Lead(Command, frozen=True, tag="lead"):
    """DEC-23: ``generals`` of those in ``origin`` lead its attacks this turn (by default the
    two that raise dice, or fewer when there are fewer)."""

    origin: str
    generals: int


@command
class MoveGeneral(Command, frozen=True, tag="move_general"):
    """NAP-ADV-39: a general's maneuver with ``count`` of the regiments that were with it."""

    origin: str
    target: str
    count: int = 0


@command
class MoveFleet(Command, frozen=True, tag="move_fleet"):
    """NAP-ADV-39: the naval maneuver: ``ships`` from ``origin`` to a connected own zone."""

    origin: str
    target: str
    ships: int


@command
class MoveAdmiral(Command, frozen=True, tag="move_admiral"):
    """NAP-ADV-39: an admiral's maneuver with ``ships`` of the ships that were with it."""

    origin: str
    target: str
    ships: int = 0


# --------------------------------------------------------------------------- events
@event
class AdvMissionsDealt(Event, frozen=True, tag="adv_missions_dealt"):
    """NAP-ADV-07: each seat's missions, one per rank, and the piles left (secret)."""

    missions: tuple[tuple[str, ...], ...]
    piles: tuple[tuple[str, ...], ...]
    rng: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["missions"] = [m if i == seat else None for i, m in enumerate(d["missions"])]
        d["piles"] = [len(p) for p in d["piles"]]


@event
class PiecesDue(Event, frozen=True, tag="pieces_due"):
    """NAP-ADV-09: the regiments are placed; each seat places its general and fortification,
    from ``seat`` on."""

    seat: Seat


@event
class PiecePlaced(Event, frozen=True, tag="piece_placed"):
    seat: Seat
    kind: PieceKind
    territory: str


@event
class EpidemicsPlaced(Event, frozen=True, tag="epidemics_placed"):
    """NAP-ADV-10: the territories of the cards drawn, one epidemic each (then reshuffled)."""

    territories: tuple[str, ...]
    rng: int


@event
class VPScored(Event, frozen=True, tag="vp_scored"):
    """NAP-ADV-16/44 (NAP-CAP, DEC-26): ``seat`` scores ``vp`` for ``reason`` (``detail``:
    the empires, routes or capitals counted)."""

    seat: Seat
    vp: int
    reason: Literal["empires", "census", "capitals"]
    detail: tuple[str, ...] = ()


@event
class MissionAccomplished(Event, frozen=True, tag="mission_accomplished"):
    """NAP-ADV-17: ``seat`` shows ``mission`` and scores ``vp``; an Empire mission's
    ``immediate`` regiments go on ``placed_on``; ``drawn`` replaces it (secret).
    ``reinforcements``: a permanent bonus shown at the start of the turn, added to this
    turn's reinforcements (NAP-ADV-13/19: the census follows the start of turn)."""

    seat: Seat
    mission: str
    vp: int
    immediate: int = 0
    placed_on: str = ""
    drawn: str = ""
    final: bool = False  # scored at the final reveal (NAP-ADV-46)
    # UNSET (never encoded) when nothing is added: earlier histories keep their bytes.
    reinforcements: int | msgspec.UnsetType = msgspec.UNSET

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        if d.get("seat") != seat and d.get("drawn"):
            d["drawn"] = "?"


@event
class Converted(Event, frozen=True, tag="converted"):
    """NAP-ADV-22: ``count`` reinforcement regiments became ``kind`` in ``where``."""

    seat: Seat
    kind: ConvertKind
    where: str
    count: int = 1


@event
class NavalBattle(Event, frozen=True, tag="naval_battle"):
    """One naval battle (NAP-ADV-28/30): faces after the admirals' bonus, the natural faces,
    the losses and the admirals captured."""

    seat: Seat
    origin: str
    target: str
    defender: Seat
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attack_natural: tuple[int, ...]
    defence_natural: tuple[int, ...]
    attack_bonus: tuple[int, ...]
    defence_bonus: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    rng: int
    scripted: int = 0
    # NAP-ADV-24 (DEC-23): admirals taken with the last ships they fought with (1 VP each).
    attacker_admirals_taken: int = 0
    defender_admirals_taken: int = 0


@event
class FleetMoved(Event, frozen=True, tag="fleet_moved"):
    """Ships (with ``admirals``) from zone ``origin`` to ``target``: into an emptied or empty
    zone in combat (``invade``), the naval maneuver, or an admiral's maneuver."""

    seat: Seat
    origin: str
    target: str
    ships: int
    admirals: int = 0
    kind: Literal["invade", "maneuver", "admiral"] = "invade"


@event
class GeneralMoved(Event, frozen=True, tag="general_moved"):
    """NAP-ADV-39: one general's maneuver with ``count`` regiments."""

    seat: Seat
    origin: str
    target: str
    count: int


@event
class LeadersCommitted(Event, frozen=True, tag="leaders_committed"):
    """DEC-23: ``count`` generals of ``origin`` lead this attack order."""

    seat: Seat
    origin: str
    count: int


@event
class LeadChosen(Event, frozen=True, tag="lead_chosen"):
    """DEC-23: ``seat`` chooses how many generals of ``origin`` lead its attacks this turn."""

    seat: Seat
    origin: str
    generals: int


@event
class DefenceRaised(Event, frozen=True, tag="defence_raised"):
    """NAP-ADV-33/34: the log's reason for the raised defence dice of an attack order:
    ``generals`` (2 count at most) and a fortification in ``target`` give ``bonus``."""

    target: str
    defender: Seat
    generals: int
    fortified: bool
    bonus: tuple[int, ...]


@event
class LeadersCaptured(Event, frozen=True, tag="leaders_captured"):
    """NAP-ADV-24: ``count`` of ``owner``'s ``kind`` taken in ``where``: owner -1 VP each,
    ``by`` +1 VP each."""

    kind: LeaderKind
    owner: Seat
    by: Seat
    count: int
    where: str


@event
class LeadersAdvanced(Event, frozen=True, tag="leaders_advanced"):
    """DEC-23: the committed generals move into the conquered territory with the regiments."""

    seat: Seat
    origin: str
    target: str
    count: int


@event
class FortDestroyed(Event, frozen=True, tag="fort_destroyed"):
    """NAP-ADV-35: a fortification falls with its territory, conquered after a combat."""

    territory: str


@event
class EpidemicPenalty(Event, frozen=True, tag="epidemic_penalty"):
    """NAP-ADV-32: ``count`` regiments lost in ``origin`` before invading ``target``."""

    seat: Seat
    origin: str
    target: str
    count: int


@event
class EpidemicStruck(Event, frozen=True, tag="epidemic_struck"):
    """NAP-ADV-40: ``lost`` regiments die in ``territory``; emptied, its epidemics move to
    ``moved_to`` (by the ``cards`` drawn, then discarded) and its generals go back to stock."""

    seat: Seat
    territory: str
    lost: int
    moved_to: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()


@event
class CardPlayed(Event, frozen=True, tag="card_played"):
    """NAP-ADV-26: ``card`` played for its effect; +2 regiments on ``bonus_on`` when held."""

    seat: Seat
    card: int
    effect: str
    amount: int
    target: str = ""
    bonus_on: str = ""


@event
class EpidemicMoved(Event, frozen=True, tag="epidemic_moved"):
    """NAP-ADV-41: an epidemic moved by a card kills 1 regiment at ``target``; when that was
    the last, it moves on to ``then`` (by ``cards`` drawn) without a new casualty."""

    origin: str
    target: str
    killed: int
    then: str = ""
    cards: tuple[int, ...] = ()


@event
class Ransomed(Event, frozen=True, tag="ransomed"):
    """NAP-ADV-25: ``seat`` pays 1 reinforcement regiment; ``captor`` places 1 on
    ``placed_on`` (his largest stack: DEC-29 moves no VP by default)."""

    seat: Seat
    kind: LeaderKind
    captor: Seat
    placed_on: str
    vp_back: int = 0


@event
class CombatEnded(Event, frozen=True, tag="combat_ended"):
    """NAP-ADV-39: the attacks are over; the maneuver phase begins."""

    seat: Seat


@event
class ArmyPerished(Event, frozen=True, tag="army_perished"):
    """NAP-ADV-45/38: an epidemic emptied ``seat``'s last territory: it is out of the game,
    its cards discarded and its ships removed; it keeps its VP (NAP-ADV-01)."""

    seat: Seat
    cards: tuple[int, ...]


@event
class EpidemicCardDrawn(Event, frozen=True, tag="epidemic_card_drawn"):
    """NAP-ADV-40/41: the top card is turned to move an epidemic, then discarded."""

    card: int


@event
class FinalRanking(Event, frozen=True, tag="final_ranking"):
    """NAP-ADV-46 (DEC-30): the places after the last round, tied seats sharing one; every
    seat's missions still in hand are revealed."""

    places: tuple[tuple[int, ...], ...]
    revealed: tuple[tuple[str, ...], ...]
    vp: tuple[int, ...]
    regiments: tuple[int, ...]
    missions: tuple[int, ...]
