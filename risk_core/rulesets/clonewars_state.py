"""The Clone Wars faction game's own state, commands and events (rulebook 002, CW-*).

The family state (:class:`CWState`, ``GameState.family``) holds what the galaxy adds to
CORE's planets and troops: ships per planet, the Separatist tokens (face down on planets, in
the pile, captured), Sidious on the Order 66 track and Palpatine, and what the current turn
has done so far (the step reached, the ship built, the armies hit, the tokens captured).
Planets are ids; ships are ``(fighters, corvettes, capital ships)``.

Secrets: the token pile's order and the identity of a token on the board (known only to the
army that placed it, CW-17) are redacted from every other seat's copy of the events; the
identities of captured tokens are public (turned face up, CW-30).
"""

from __future__ import annotations

from typing import Any

import msgspec

from risk_core.model import Command, Event, FamilyState, Seat, command, event
from risk_core.rulesets.clonewars_dice import SideDice

Ships = tuple[int, int, int]  # fighters, corvettes, capital ships (CW-04)
NO_SHIPS: Ships = (0, 0, 0)
SHIP_KINDS = ("fighter", "corvette", "capital")  # the order of a ``Ships`` triple


class CWState(FamilyState, frozen=True):
    """Ships, tokens, the track and Palpatine, and the current turn's record."""

    ships: dict[str, Ships] = {}  # planet -> ships of its owner (never on a foreign planet)
    tokens: dict[str, tuple[str, ...]] = {}  # planet -> tokens face down on it (CW-17)
    placed_by: dict[str, Seat] = {}  # token -> the Separatist army that placed it (secret)
    pile: tuple[str, ...] = ()  # tokens not yet drawn, top last (secret order)
    captured: tuple[tuple[str, ...], ...] = ()  # per seat: tokens taken, face up (CW-30)
    track: int = 0  # Sidious's space on the Order 66 track (0: START, CW-10)
    order66: bool = False  # invoked (once per game, CW-37)
    palpatine: str = ""  # the planet of Emperor Palpatine after Order 66 (CW-40)
    palpatine_taken: bool = False  # the Republic conquered it (CW-32)
    republic_picks: tuple[Seat, ...] = ()  # Republic armies still to make their first pick
    claim_first: Seat = 0  # the army that claims first after them (DEC-34)
    # The current turn (reset by turn_started).
    step: int = 6  # the step of CW-16 reached: 6 invading, 7 troops moved, 8 ship moved, 9 asked
    track_due: bool = False  # step 2 still to come this turn
    built: bool = False  # a ship built this turn (CW-22)
    hit: tuple[Seat, ...] = ()  # armies a planet was taken from this turn (CW-36)
    taken_tokens: tuple[str, ...] = ()  # tokens captured this turn (CW-36)
    follow: tuple[str, ...] = ()  # (origin, target) of the last conquest, ships may follow
    support: Ships = NO_SHIPS  # the attacker's ships supporting the last battle (CW-29)
    dice: tuple[SideDice, ...] = ()  # both sides of the battle just announced (its odds)
    asked: str = ""  # the planet asked of the teammate (CW-35), answer pending
    powers: tuple[int, ...] = ()  # cards whose power was played this turn
    victory: str = ""  # the winning faction, announced (CW-41) just before the game ends
    # ship_support=chosen (CW-25): planet -> the most ships of each class that support its
    # battles this turn (3: all), as its army chose them.  UNSET, never encoded, until a
    # choice is made, so the states of games without one are encoded as before the option.
    chosen: dict[str, Ships] | msgspec.UnsetType = msgspec.UNSET
    # faction_reshuffle=discard_pile: the troop sets traded, out of play (CW-21), where CORE-11
    # does not shuffle them back (UNSET until the first, as ``chosen``).
    retired: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET


def replace_at(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


# --------------------------------------------------------------------------- commands
@command
class PlaceToken(Command, frozen=True, tag="place_token"):
    """Step 1 (Separatists): put the top token face down on ``territory`` (CW-17)."""

    territory: str


@command
class BuildShip(Command, frozen=True, tag="build_ship"):
    """Step 4/5: discard ``card`` to build a ship of its class on ``territory`` (CW-22/23)."""

    card: int
    territory: str


@command
class PlayPower(Command, frozen=True, tag="play_power"):
    """Play ``card`` for its special power at its timing (CW-14/15, GAP-17)."""

    card: int


@command
class ShipsFollow(Command, frozen=True, tag="ships_follow"):
    """CW-29: more ships follow the last conquest from its origin (before a new invasion)."""

    fighters: int = 0
    corvettes: int = 0
    capitals: int = 0


@command
class ChooseSupport(Command, frozen=True, tag="choose_support"):
    """CW-25 (ship_support=chosen): ``count`` of the ``kind`` ships on ``planet`` support its
    battles this turn: the attacker's on an origin of its, the defender's on the attacked
    planet before it answers with its dice."""

    planet: str
    kind: str
    count: int


@command
class MoveShip(Command, frozen=True, tag="move_ship"):
    """Step 8: move one ship of ``kind`` between own planets joined by the faction's (CW-34)."""

    origin: str
    target: str
    kind: str


@command
class AskCommand(Command, frozen=True, tag="ask_command"):
    """Step 9: ask the teammate to hand over ``territory`` (CW-35)."""

    territory: str


@command
class AnswerCommand(Command, frozen=True, tag="answer_command"):
    """The teammate's answer to a change of command (CW-35)."""

    accept: bool


@command
class InvokeOrder66(Command, frozen=True, tag="invoke_order66"):
    """Step 11 (Separatists, once a game): Order 66 (CW-37/38).  Converted planets go to
    ``receiver`` (an army colour, default the invoker), or per planet to ``receivers``."""

    receiver: str = ""
    receivers: dict[str, str] = {}


@command
class PlacePalpatine(Command, frozen=True, tag="place_palpatine"):
    """After Order 66: Palpatine on a planet of any Separatist army (CW-40)."""

    territory: str


# --------------------------------------------------------------------------- events
@event
class CWOpening(Event, frozen=True, tag="cw_opening"):
    """CW-10/11, DEC-34: the token pile (secret), the Republic armies' rolls and the order of
    their first picks."""

    pile: tuple[str, ...]
    republic_rolls: tuple[tuple[int, ...], ...]
    republic_order: tuple[Seat, ...]
    rng: int
    scripted: int = 0

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["pile"] = len(d["pile"])  # the order of the face-down tokens is nobody's


@event
class TokenPlaced(Event, frozen=True, tag="token_placed"):
    """CW-17: ``seat`` places ``token`` face down on ``territory``."""

    seat: Seat
    territory: str
    token: str

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        if d["seat"] != seat:
            d["token"] = None


@event
class SidiousAdvanced(Event, frozen=True, tag="sidious_advanced"):
    """CW-18: Sidious moves to ``space`` of the Order 66 track."""

    seat: Seat
    space: int


@event
class ShipBuilt(Event, frozen=True, tag="ship_built"):
    """CW-22/23: ``card`` discarded, a ship of ``kind`` on ``territory``."""

    seat: Seat
    card: int
    kind: str
    territory: str


@event
class PowerPlayed(Event, frozen=True, tag="power_played"):
    """CW-14: ``card`` played for its power; ``troops`` added to the reinforcements."""

    seat: Seat
    card: int
    power: str
    troops: int = 0


@event
class ShipSupport(Event, frozen=True, tag="ship_support"):
    """CW-25..28: the dice of the battle that follows, with the ships supporting each side and
    the natural faces thrown (first throw, then re-rolls as drawn)."""

    attack: SideDice
    defence: SideDice
    attack_natural: tuple[int, ...]
    defence_natural: tuple[int, ...]


@event
class SupportChosen(Event, frozen=True, tag="support_chosen"):
    """CW-25 (ship_support=chosen): ``seat`` commits ``count`` of the ``kind`` ships on
    ``planet`` to its battles for the rest of the turn."""

    seat: Seat
    planet: str
    kind: str
    count: int


@event
class ShipsMoved(Event, frozen=True, tag="ships_moved"):
    """Ships going from ``origin`` to ``target``: after a conquest (CW-29) or step 8 (CW-34)."""

    seat: Seat
    origin: str
    target: str
    ships: Ships
    why: str = "follow"  # "follow" (CW-29) or "fortify" (CW-34)


@event
class TokensCaptured(Event, frozen=True, tag="tokens_captured"):
    """CW-30: a Republic army takes the tokens of a conquered planet, face up."""

    seat: Seat
    territory: str
    tokens: tuple[str, ...]


@event
class CommandAsked(Event, frozen=True, tag="command_asked"):
    """CW-35: ``seat`` asks ``teammate`` for ``territory``."""

    seat: Seat
    teammate: Seat
    territory: str


@event
class CommandAnswered(Event, frozen=True, tag="command_answered"):
    """CW-35: the teammate's answer; on consent the planet changes army (1 troop stays)."""

    seat: Seat  # the teammate who answered
    to: Seat
    territory: str
    accept: bool


@event
class CWCardDrawn(Event, frozen=True, tag="cw_card_drawn"):
    """CW-36: ``seat`` draws the top card of its faction's deck."""

    seat: Seat
    card: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        if d["seat"] != seat:
            d["card"] = None


@event
class FactionDeckReshuffled(Event, frozen=True, tag="faction_deck_reshuffled"):
    """CORE-11 for a faction deck (option ``faction_reshuffle``): its discard pile, shuffled,
    is its new deck (``deck``, bottom first); which order is secret."""

    faction: str
    deck: tuple[int, ...]
    rng: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["deck_size"] = len(d.pop("deck"))


@event
class Order66Invoked(Event, frozen=True, tag="order66_invoked"):
    """CW-37..39: one d8 per Republic planet in turn; ``converted`` planets go to their
    receiving army (``receivers``, same order); every token leaves the game."""

    seat: Seat
    space: int
    planets: tuple[str, ...]
    rolls: tuple[int, ...]
    converted: tuple[str, ...]
    receivers: tuple[Seat, ...]
    destroyed: tuple[Ships, ...]  # ships beyond the receiver's limit, per converted planet
    rng: int
    scripted: int = 0


@event
class PalpatinePlaced(Event, frozen=True, tag="palpatine_placed"):
    """CW-40: Palpatine on ``territory`` for the rest of the game."""

    seat: Seat
    territory: str


@event
class HandDiscarded(Event, frozen=True, tag="hand_discarded"):
    """CW-31: an eliminated army's cards go to the discard pile (nobody takes them); only the
    army's own player sees which."""

    seat: Seat
    cards: tuple[int, ...]

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["count"] = len(d["cards"])
        if d["seat"] != seat:
            d["cards"] = None


@event
class FactionWon(Event, frozen=True, tag="faction_won"):
    """CW-41 (CW-32): ``faction`` wins; ``reason`` palpatine, or eliminated (the other
    faction's armies are all out)."""

    faction: str
    seats: tuple[Seat, ...]
    reason: str
