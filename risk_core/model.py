"""The typed vocabulary of a game: commands, events and the game state.

Commands are requests ("seat 2 attacks Brazil from Peru with 3 dice"); events are facts that
carry everything needed to apply them (dice faces, cards drawn, armies moved), so ``evolve``
never rolls or guesses.  Both are frozen msgspec Structs in tagged unions (tag field ``type``).

A rule-set module that needs a new kind of command or event subclasses ``Command`` or ``Event``
and decorates it with ``@command`` / ``@event``: the decoders below are built from that
registry, so adding a rule family touches no list here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

import msgspec

from risk_core.dice import MAX_SIDES, DiceSpec
from risk_core.errors import RuleError

Seat = int
OptionValue = str | int | bool
# A phase is a name a rule set declares (``RuleSet.phases``, with what the acting seat does in
# it); CORE's are setup, reinforce, attack, defend, occupy, elim_trade and over, and a family
# adds its own (influence, ally_place, a naval phase, ...).
Phase = str


# --------------------------------------------------------------------------- commands
class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    gc=False,
):
    """Base of every command; ``seat`` is who asks.  A field no command of its type has is
    refused when decoding (``risk submit`` and the service alike), never silently dropped."""

    seat: Seat


_decoders: dict[str, Any] = {}
COMMAND_TYPES: list[type[Command]] = []
EVENT_TYPES: list[type[Event]] = []
C = TypeVar("C", bound=type[Command])
E = TypeVar("E", bound="type[Event]")


_ON_NEW_TYPE: list[Callable[[type[Any]], None]] = []


def on_new_type(hook: Callable[[type[Any]], None]) -> None:
    """Call ``hook(cls)`` for every command or event type registered from now on (a union built
    from the registry may refuse types that come too late for it)."""
    _ON_NEW_TYPE.append(hook)


def command(cls: C) -> C:
    for hook in _ON_NEW_TYPE:
        hook(cls)
    COMMAND_TYPES.append(cls)
    _decoders.clear()
    return cls


def event(cls: E) -> E:
    for hook in _ON_NEW_TYPE:
        hook(cls)
    EVENT_TYPES.append(cls)
    _decoders.clear()
    return cls


@command
class Place(Command, frozen=True, tag="place"):
    """Place ``count`` armies on ``territory`` (setup, reinforcement, or the ally's armies)."""

    territory: str
    count: int = 1


@command
class Trade(Command, frozen=True, tag="trade"):
    """Trade a set of cards (card ids as shown in the seat's hand)."""

    cards: tuple[int, ...]


@command
class Attack(Command, frozen=True, tag="attack"):
    """Attack ``target`` from ``origin`` with up to ``dice`` dice.

    ``until="once"`` fights one battle; ``until="conquer"`` repeats battles (each its own event)
    until the target falls or the origin is down to ``stop_at`` armies.  ``move`` pre-answers the
    occupation question if the target falls (clamped to the legal range).
    """

    origin: str
    target: str
    dice: int = 3
    until: Literal["once", "conquer"] = "once"
    stop_at: int = 1
    move: int | None = None


@command
class Defend(Command, frozen=True, tag="defend"):
    dice: int


@command
class Occupy(Command, frozen=True, tag="occupy"):
    count: int


@command
class Fortify(Command, frozen=True, tag="fortify"):
    """The single free move of the turn; it ends the turn."""

    origin: str
    target: str
    count: int


@command
class EndTurn(Command, frozen=True, tag="end"):
    """End the turn without (or after) attacking, without a free move."""


class LegalMove(msgspec.Struct, frozen=True, kw_only=True):
    """Legal commands that differ only in one count field: ``command`` with ``field`` set to
    every value from ``low`` to ``high`` (inclusive), or ``command`` alone when ``field`` is None.

    Describing a count as a range keeps the list of legal moves as long as the choices of
    territory and card, however many armies the board holds (issue 14).
    """

    command: Command
    field: str | None = None
    low: int = 0
    high: int = 0

    def size(self) -> int:
        """How many commands this move stands for."""
        return 1 if self.field is None else self.high - self.low + 1

    def nth(self, i: int) -> Command:
        """The ``i``-th command of the run (0 ≤ i < ``size()``), counts in increasing order."""
        if self.field is None:
            return self.command
        return msgspec.structs.replace(self.command, **{self.field: self.low + i})

    def commands(self) -> list[Command]:
        """Every command of the run, counts in increasing order."""
        return [self.nth(i) for i in range(self.size())]


# --------------------------------------------------------------------------- events
class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    """Base of every event.

    Events, commands and pending orders are frozen and hold plain data only, nothing that
    could refer back to them, so they are never part of a reference cycle: ``gc=False`` keeps
    them out of the cycle collector, which otherwise counts and rescans every one a game
    makes.
    """

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        """Remove from ``d`` (this event as JSON builtins) what ``seat`` may not see (ENG-07);
        a family event with secrets overrides it (None: a spectator)."""


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    colour: str
    neutral: bool = False
    policy: Literal["auto", "ask"] = "auto"
    # The player who commands this seat, when one player commands several seats (armies);
    # UNSET, never encoded, when the seat is its own player.
    commander: str | msgspec.UnsetType = msgspec.UNSET


@event
class GameStarted(Event, frozen=True, tag="game_started", omit_defaults=True):
    """The configuration of a game (ENG-08) and its dice seed.

    ``commitment`` (games with an id) is ``seed_commitment(game_id, seed)``, published at once;
    the seed itself stays secret (views redact it) until ``seed_revealed`` ends the game.
    """

    ruleset: str
    board: str
    board_hash: str
    engine: str
    options: dict[str, OptionValue]
    players: tuple[SeatInfo, ...]
    seed: int
    game_id: str = ""
    commitment: str = ""


@event
class Branched(Event, frozen=True, tag="branched"):
    """Lineage: this game continues ``parent`` after its first ``version`` events."""

    parent: str
    version: int


@event
class DiceReseeded(Event, frozen=True, tag="dice_reseeded"):
    """A branch takes a new secret seed for its future dice (published as a commitment)."""

    seed: int
    commitment: str


@event
class SeedRevealed(Event, frozen=True, tag="seed_revealed"):
    """The game is over: every seed it used, in order, so anyone can audit its dice."""

    seeds: tuple[int, ...]


@event
class DiceScripted(Event, frozen=True, tag="dice_scripted"):
    """Load die faces to be used before the seeded stream (ENG-04, what-if play).

    A face no die shows (outside 1 to ``dice.MAX_SIDES``) is refused when the event is made or
    decoded: ``RuleError("bad_script")``, a ``msgspec.ValidationError`` when decoding."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        bad = [face for face in self.faces if not 1 <= face <= MAX_SIDES]
        if bad:
            raise RuleError("bad_script", f"Die faces are 1 to {MAX_SIDES}, not {bad[0]}.")


@event
class FirstPlayerChosen(Event, frozen=True, tag="first_player"):
    """CORE-04: roll-off rounds (0 = did not roll), and the winner."""

    rolls: tuple[tuple[int, ...], ...]
    seat: Seat
    rng: int
    scripted: int = 0


@event
class MissionsDealt(Event, frozen=True, tag="missions_dealt"):
    missions: tuple[str | None, ...]
    rng: int


@event
class TerritoriesDealt(Event, frozen=True, tag="territories_dealt"):
    """Initial owners and armies (-1 = unclaimed) and each seat's armies still to place."""

    owners: tuple[int, ...]
    armies: tuple[int, ...]
    setup_left: tuple[int, ...]
    rng: int


@event
class DeckFormed(Event, frozen=True, tag="deck_formed"):
    """The shuffled draw pile (top card last)."""

    deck: tuple[int, ...]
    rng: int


@event
class SetupPlaced(Event, frozen=True, tag="setup_placed"):
    seat: Seat
    territory: str
    count: int


@event
class TurnStarted(Event, frozen=True, tag="turn_started"):
    seat: Seat
    turn: int
    round: int
    territories: int
    base: int
    groups: tuple[str, ...]
    income: int


@event
class CardsTraded(Event, frozen=True, tag="cards_traded"):
    seat: Seat
    cards: tuple[int, ...]
    value: int
    bonus: tuple[str, ...] = ()  # territories receiving the +2 card-territory bonus (CL-11)
    bonus_each: int = 2


@event
class ArmiesPlaced(Event, frozen=True, tag="placed"):
    seat: Seat
    territory: str
    count: int


@event
class DefenceRequested(Event, frozen=True, tag="defence_requested"):
    seat: Seat  # the defender who must answer
    origin: str
    target: str
    dice: int
    until: Literal["once", "conquer"] = "once"
    stop_at: int = 1
    move: int | None = None


@event
class BattleFought(Event, frozen=True, tag="battle"):
    seat: Seat  # attacker (the active seat)
    origin: str
    target: str
    defender: Seat  # the seat whose dice choice defended (may differ from the owner: 2p ally)
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    rng: int
    scripted: int = 0
    # Dice that are not plain d6 (rule families): each side's dice and its natural faces in the
    # order thrown (re-rolls included); ``attack``/``defence`` are then the final faces that were
    # compared.  UNSET, and never encoded, for plain d6, whose natural faces are the final ones.
    attack_dice: DiceSpec | msgspec.UnsetType = msgspec.UNSET
    defence_dice: DiceSpec | msgspec.UnsetType = msgspec.UNSET
    attack_natural: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET
    defence_natural: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET


@event
class TerritoryConquered(Event, frozen=True, tag="conquered"):
    seat: Seat  # the active seat
    origin: str
    target: str
    previous: Seat
    min: int
    max: int


@event
class Occupied(Event, frozen=True, tag="occupied"):
    """Armies moved in beyond the minimum already moved by ``conquered``."""

    seat: Seat
    origin: str
    target: str
    extra: int


@event
class PlayerEliminated(Event, frozen=True, tag="eliminated"):
    seat: Seat
    by: Seat
    cards: tuple[int, ...]


@event
class Fortified(Event, frozen=True, tag="fortified"):
    seat: Seat
    origin: str
    target: str
    count: int


@event
class DeckReshuffled(Event, frozen=True, tag="deck_reshuffled"):
    deck: tuple[int, ...]
    rng: int


@event
class CardDrawn(Event, frozen=True, tag="card_drawn"):
    seat: Seat
    card: int


@event
class TurnEnded(Event, frozen=True, tag="turn_ended"):
    seat: Seat


@event
class PositionSet(Event, frozen=True, tag="position_set"):
    """A scenario's position: replaces setup (owners, armies, hands, missions, pile, turn)."""

    owners: tuple[int, ...]
    armies: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    missions: tuple[str | None, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    trades: int
    first: Seat
    rng: int
    # The family's own facts (its ``FamilyState`` as JSON builtins), UNSET and never encoded
    # when the scenario sets none.
    family: Any = msgspec.UNSET


@event
class RoundsCompleted(Event, frozen=True, tag="rounds_completed"):
    """The rule set's last round has been played: the score decides (phase ``final``)."""

    rounds: int


@event
class GameWon(Event, frozen=True, tag="game_won"):
    seat: Seat
    # team: the seat's team won; score: the best score after the last round (``scores``)
    reason: Literal["mission", "conquest", "last_standing", "team", "score"]
    mission: str | None = None
    # When the score decided: every seat's final score and the rounds played (UNSET, never
    # encoded, otherwise).
    scores: tuple[int, ...] | msgspec.UnsetType = msgspec.UNSET
    rounds: int | msgspec.UnsetType = msgspec.UNSET


# --------------------------------------------------------------------------- state
class Player(msgspec.Struct, kw_only=True):
    name: str
    colour: str
    neutral: bool = False
    policy: Literal["auto", "ask"] = "auto"
    eliminated: bool = False
    eliminated_by: Seat | None = None
    hand: list[int] = msgspec.field(default_factory=list)
    mission: str | None = None
    # The player commanding this seat when it is not the seat's own (one player, several
    # armies); UNSET, never encoded, when the seat is its own player.
    commander: str | msgspec.UnsetType = msgspec.UNSET


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An attack order waiting for the defender's dice (``ask`` policy)."""

    defender: Seat
    origin: int
    target: int
    dice: int
    until: Literal["once", "conquer"]
    stop_at: int
    move: int | None


class PendingOccupation(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    origin: int
    target: int
    min: int
    max: int


class GameState(msgspec.Struct, kw_only=True):
    """Everything needed to decide the next command.

    Treated as immutable by every public function: ``evolve`` returns a new state.  Territory
    data are lists indexed by the board's territory index; seats by seat number.
    """

    ruleset: str
    board: str
    options: dict[str, OptionValue]
    seed: int
    players: list[Player]
    game_id: str = ""
    previous_seeds: list[int] = msgspec.field(default_factory=list)  # before a reseed
    owner: list[int]
    armies: list[int]
    setup_left: list[int]
    rng: int = 0
    dice_script: list[int] = msgspec.field(default_factory=list)
    deck: list[int] = msgspec.field(default_factory=list)  # draw pile, top card last
    discard: list[int] = msgspec.field(default_factory=list)
    phase: Phase = "setup"
    current: Seat = 0
    first: Seat = 0
    turn: int = 0
    round: int = 0
    reserve: int = 0
    received: int = 0  # reinforcements received this turn (CL-2P-04 / DEC-11 base)
    conquered: bool = False
    may_trade: bool = False  # CL-20: cards just taken from an eliminated player
    trades: int = 0  # sets traded by everyone (CL-CQ-02)
    turn_trades: int = 0  # sets traded in this turn (DEC-46's one set per turn)
    attack: PendingAttack | None = None
    occupation: PendingOccupation | None = None
    winner: Seat | None = None
    version: int = 0  # number of events applied
    # The rule family's own state (``RuleSet.family_state``): a frozen Struct its projectors
    # replace whole, so state copies share it.  UNSET, never encoded, in CORE-only games.
    family: Any = msgspec.UNSET


class FamilyState(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of a rule family's own state, held in ``GameState.family``.

    Frozen, and made of tuples and frozen Structs: the family's projectors replace it whole
    (``msgspec.structs.replace``), so a state copy shares it and no copy list needs keeping.
    Unknown fields are refused, so a scenario file's misspelt key is an error.
    """


def _list_fields(cls: type[msgspec.Struct]) -> list[tuple[str, Any]]:
    """(name, item type) of every list field of a Struct, from its own annotations."""
    out = []
    for field in msgspec.structs.fields(cls):
        if get_origin(field.type) is list:
            (item,) = get_args(field.type)
            out.append((field.name, item))
    return out


def _copier_source() -> str:
    """Source of ``copy_state(s)``: a shallow copy of ``s`` whose list fields are copied too,
    and each ``Player`` of ``players`` with its own list fields.

    Generated from the Structs' field types, so a field added to ``GameState`` or ``Player`` is
    copied without anyone keeping a list in step; written out flat because a copy is made for
    every ``decide`` (a loop over field names, or a call per player, costs measurably more).
    Dicts are shared (options are never mutated) and everything else is immutable.
    """
    lines = ["def copy_state(s):", "    new = s.__copy__()"]
    for name, item in _list_fields(GameState):
        if item is Player:
            lines += [f"    {name} = []", f"    for x in s.{name}:", "        y = x.__copy__()"]
            lines += [f"        y.{f} = x.{f}[:]" for f, _ in _list_fields(Player)]
            lines += [f"        {name}.append(y)", f"    new.{name} = {name}"]
        elif isinstance(item, type) and issubclass(item, msgspec.Struct):
            raise TypeError(f"GameState.{name}: a list of {item.__name__} needs its own copy")
        else:
            lines.append(f"    new.{name} = s.{name}[:]")
    lines.append("    return new")
    return "\n".join(lines)


def _make_copy_state() -> Callable[[GameState], GameState]:
    namespace: dict[str, Any] = {}
    exec(_copier_source(), namespace)  # noqa: S102 - our own generated source, see above
    fn: Callable[[GameState], GameState] = namespace["copy_state"]
    fn.__doc__ = "A copy of a state that shares nothing mutable with it (a few list copies)."
    return fn


copy_state = _make_copy_state()

# ``decide``'s copy on write: the lists most events change in place are copied at once
# (``copy_board``), the rest (hands, pile, discards, past seeds) only before the first event
# that may change them (``unshare``).  Same generated, flat form as ``copy_state``.  Of the
# board's lists, the set-up counts change only in the set-up (its placements) and the dice
# script only while it holds faces (a battle takes its faces from it), so ``copy_board``
# copies them only then: two lists less to copy for most commands.
BOARD_FIELDS = ("owner", "armies", "setup_left", "dice_script")


def _make_partial_copiers() -> tuple[Callable[[GameState], GameState], Callable[[GameState], None]]:
    first = ["def copy_board(s):", "    new = s.__copy__()"]
    first += ["    new.owner = s.owner[:]", "    new.armies = s.armies[:]"]
    first += ["    if s.phase == 'setup':", "        new.setup_left = s.setup_left[:]"]
    first += ["    if s.dice_script:", "        new.dice_script = s.dice_script[:]"]
    first.append("    return new")
    rest = ["def unshare(new):"]
    for name, item in _list_fields(GameState):
        if name in ("owner", "armies"):
            continue
        if item is Player:
            rest += [f"    {name} = []", f"    for x in new.{name}:", "        y = x.__copy__()"]
            rest += [f"        y.{f} = x.{f}[:]" for f, _ in _list_fields(Player)]
            rest += [f"        {name}.append(y)", f"    new.{name} = {name}"]
        else:
            rest.append(f"    new.{name} = new.{name}[:]")
    namespace: dict[str, Any] = {}
    exec("\n".join(first) + "\n" + "\n".join(rest), namespace)  # noqa: S102 - see above
    return namespace["copy_board"], namespace["unshare"]


copy_board, unshare = _make_partial_copiers()
copy_board.__doc__ = "A copy of a state sharing every list ``BOARD_FIELDS``' events leave alone."
unshare.__doc__ = "Give a ``copy_board`` copy its own lists and players: a full copy from now on."


def own_draw(s: GameState, seat: Seat) -> None:
    """Give a ``copy_board`` copy its own of what drawing a card changes: the pile and the
    drawing seat's hand (CORE's ``card_drawn``), the other players still shared.  Cheaper
    than ``unshare``, which copies every player, hand and pile, for the one card event most
    turns after a conquest bring."""
    s.deck = s.deck[:]
    players = s.players[:]  # (a Struct's ``__copy__`` is shallow: the hand is copied below)
    p = players[seat].__copy__()  # type: ignore[attr-defined]
    p.hand = p.hand[:]
    players[seat] = p
    s.players = players


def own_trade(s: GameState, seat: Seat) -> None:
    """``own_draw`` for a trade (CORE's ``cards_traded``): the discard pile and the trading
    seat's hand."""
    s.discard = s.discard[:]
    players = s.players[:]
    p = players[seat].__copy__()  # type: ignore[attr-defined]
    p.hand = p.hand[:]
    players[seat] = p
    s.players = players


# --------------------------------------------------------------------------- codecs
_encoder = msgspec.json.Encoder()


def _load_rule_families() -> None:
    """Import every rule-set module: rule families register their commands and events."""
    from risk_core.rulesets import names

    names()


def _decoder(kind: str) -> Any:
    if kind not in _decoders:
        _load_rule_families()
        union = _union(COMMAND_TYPES if kind == "command" else EVENT_TYPES)
        _decoders[kind] = msgspec.json.Decoder(union)
        _decoders[kind + "s"] = msgspec.json.Decoder(list[union])  # type: ignore[valid-type]
    return _decoders[kind]


def _union(types: list[type[Command]] | list[type[Event]]) -> Any:
    """The tagged union of the registered types (built at run time from the registry)."""
    return Union.__getitem__(tuple(types))


def encode(obj: Any) -> bytes:
    """Canonical JSON bytes of a command, event, state or list of them."""
    return _encoder.encode(obj)


# The decoders raise ``msgspec.DecodeError`` (``ValidationError`` for a value of the wrong
# shape, an unknown field of a command), never ``RecursionError``: JSON nested deeper than the
# interpreter's stack is undecodable like any other bad input.
def _decode(decoder: Any, data: bytes | str) -> Any:
    try:
        return decoder.decode(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply") from None


def decode_command(data: bytes | str) -> Command:
    cmd: Command = _decode(_decoder("command"), data)
    return cmd


def decode_event(data: bytes | str) -> Event:
    ev: Event = _decode(_decoder("event"), data)
    return ev


def decode_events(data: bytes | str) -> list[Event]:
    _decoder("event")
    evs: list[Event] = _decode(_decoders["events"], data)
    return evs


def to_builtins(obj: Any) -> Any:
    return msgspec.to_builtins(obj)


def command_from_builtins(obj: Any) -> Command:
    return decode_command(msgspec.json.encode(obj))


def json_schema() -> dict[str, Any]:
    """JSON Schema of every command and event (``risk schema``)."""
    _load_rule_families()
    cmd_union, ev_union = _union(COMMAND_TYPES), _union(EVENT_TYPES)
    (cmd_schema, ev_schema), components = msgspec.json.schema_components([cmd_union, ev_union])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "command": cmd_schema,
        "event": ev_schema,
        "$defs": components,
    }
