"""toy-d8: a rule family kept outside the engine, to show (and test) every extension point.

It is registered by importing this module (``RISK_FAMILIES=tests.toy_family``, or
``risk_core.rulesets.load_family("tests.toy_family")``); no file of the engine names it.

The rules, on the ten-territory board of ``board/``:

* CORE, except that attackers throw d8 (defenders d6), highest against highest, ties to the
  defender (CORE-14..16 with ``attack_dice``);
* a second deck, *orders*, kept in the family's own state: each seat draws one order at the end
  of each of its turns (a hand of at most two, secret to its holder);
* a ``muster`` phase opens each turn of a seat holding an order: ``Muster`` plays one, putting
  its stars in armies on an own territory, or ``SkipMuster`` keeps the hand;
* after ``rounds`` rounds (option, default 12) the score decides: a territory is worth 1, a
  beacon (the board's ``beacons`` section) its points.

Each hook below says in its docstring which extension point it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from risk_core.board import Board, BoardError, Fact, register_section
from risk_core.dice import DiceSpec
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    Command,
    DeckFormed,
    Event,
    FamilyState,
    GameStarted,
    GameState,
    OptionValue,
    PendingAttack,
    PlayerEliminated,
    PositionSet,
    Seat,
    SeatInfo,
    TerritoriesDealt,
    TurnStarted,
    command,
    event,
)
from risk_core.rng import Rng
from risk_core.rulesets.base import CORE_PHASES, Emit, Option, RuleSet

BOARD_DIR = Path(__file__).parent / "board"
ORDERS = "orders"  # the second deck's name in the board's ``cards`` section
HAND_LIMIT = 2  # orders a seat may hold
STARTING_ARMIES = {2: 16, 3: 12, 4: 10}
SET_VALUE = 6  # three of a kind or one of each, jokers wild


# --------------------------------------------------------------------------- board data
class Beacon(Fact, frozen=True, forbid_unknown_fields=True):
    """A beacon on the board (section ``beacons``): ``points`` to its holder at the end."""

    id: str
    territory: str
    points: int


def check_beacons(beacons: tuple[Beacon, ...], board: Board) -> None:
    for b in beacons:
        if b.territory not in board.index:
            raise BoardError("unknown_territory", f"Beacon {b.id!r} names unknown {b.territory!r}")
        if b.points < 1:
            raise BoardError("bad_section", f"Beacon {b.id!r} is worth {b.points} points")


register_section("beacons", tuple[Beacon, ...], check_beacons)


# --------------------------------------------------------------------------- state
class Orders(FamilyState, frozen=True):
    """The orders deck: the draw pile (top card last), the discards and each seat's hand."""

    pile: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()


# --------------------------------------------------------------------------- commands
@command
class Muster(Command, frozen=True, tag="muster"):
    """Play order ``card`` from your hand: its armies appear on ``territory`` (yours)."""

    card: int
    territory: str


@command
class SkipMuster(Command, frozen=True, tag="skip_muster"):
    """Keep your orders and go on to the reinforcements."""


# --------------------------------------------------------------------------- events
@event
class OrdersShuffled(Event, frozen=True, tag="orders_shuffled"):
    """The orders pile, shuffled (top card last): formed at the start, or from the discards."""

    pile: tuple[int, ...]
    rng: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["pile_size"] = len(d.pop("pile"))  # the order of the pile would predict draws


@event
class OrderDrawn(Event, frozen=True, tag="order_drawn"):
    seat: Seat
    card: int

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        if d["seat"] != seat:
            d["card"] = None  # the others see that an order was drawn, not which


@event
class OrderPlayed(Event, frozen=True, tag="order_played"):
    seat: Seat
    card: int
    territory: str
    armies: int


@event
class MusterSkipped(Event, frozen=True, tag="muster_skipped"):
    seat: Seat


def _with_hand(hands: tuple[tuple[int, ...], ...], seat: Seat, hand: tuple[int, ...]) -> Any:
    return (*hands[:seat], hand, *hands[seat + 1 :])


# --------------------------------------------------------------------------- the rule set
class ToyD8(RuleSet):
    """toy-d8: d8 attackers, an orders deck, a muster phase and a round limit."""

    name = "toy-d8"
    title = "Toy family: d8 attackers, orders, a muster phase, 12 rounds (tests)"
    board_dir = str(BOARD_DIR)
    board_name = "isles"  # what ``risk rules`` shows; the board itself comes from board_dir
    cli_module = "tests.toy_family.cli"
    min_players = 2
    max_players = 4
    phases: ClassVar[dict[str, str]] = {**CORE_PHASES, "muster": "play an order card or skip"}
    family_state = Orders
    options: ClassVar[dict[str, Option]] = {
        "rounds": Option(
            default=12,
            minimum=1,
            maximum=30,
            doc="Rounds played before the score decides (territories, plus beacon points).",
        ),
    }

    def __init__(self) -> None:
        super().__init__()
        beacons: tuple[Beacon, ...] = self.board.section("beacons") or ()
        self.beacons = {self.board.index[b.territory]: b for b in beacons}
        self.order_cards = self.board.deck_cards(ORDERS)

    # ------------------------------------------------------------------ setup (opening)
    def starting_armies(self, state: GameState) -> int:
        return STARTING_ARMIES[len(state.players)]

    def opening(self, state: GameState, emit: Emit) -> None:
        """Deal the territories, choose the first player, shuffle both decks."""
        n_seats, n = len(state.players), self.n_territories
        rng = Rng(state.seed, state.rng)
        owners = [-1] * n
        for i, t in enumerate(rng.shuffle(list(range(n)))):
            owners[t] = i % n_seats
        left = tuple(self.starting_armies(state) - owners.count(s) for s in range(n_seats))
        emit(
            TerritoriesDealt(
                owners=tuple(owners), armies=(1,) * n, setup_left=left, rng=rng.counter
            )
        )
        self.choose_first_player(state, emit)
        rng = Rng(state.seed, state.rng)
        emit(DeckFormed(deck=tuple(rng.shuffle(self.board.deck_cards("main"))), rng=rng.counter))
        rng = Rng(state.seed, state.rng)
        emit(OrdersShuffled(pile=tuple(rng.shuffle(list(self.order_cards))), rng=rng.counter))

    def new_family_state(self, ev: GameStarted) -> Orders:
        """Family state: an empty hand per seat until the pile is shuffled."""
        return Orders(hands=((),) * len(ev.players))

    def orders(self, state: GameState) -> Orders:
        family: Orders = state.family
        return family

    # ------------------------------------------------------------------ cards (main deck)
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """Cards hook: three of a kind or one of each is a set, a joker stands for any card."""
        if len(cards) != 3:
            return None
        plain = [s for c in cards if (s := self.board.card(c).symbol) != "joker"]
        return SET_VALUE if len(plain) < 3 or len(set(plain)) in (1, 3) else None

    # ------------------------------------------------------------------ dice
    def attack_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        """Dice hook: attackers throw d8 (CORE-14 counts; the defence keeps CORE's d6)."""
        return DiceSpec(count=count, sides=8)

    # ------------------------------------------------------------------ end of the game
    def round_limit(self, state: GameState) -> int | None:
        """End hook: ``RoundsCompleted`` after this many rounds, then ``final_result``."""
        return int(state.options["rounds"])

    def scores(self, state: GameState) -> tuple[int, ...]:
        """Score hook: 1 per territory, a beacon's points to its holder."""
        out = [state.owner.count(s) for s in range(len(state.players))]
        for t, beacon in self.beacons.items():
            if state.owner[t] >= 0:
                out[state.owner[t]] += beacon.points
        return tuple(out)

    # ------------------------------------------------------------------ the orders deck
    def end_turn(self, state: GameState, emit: Emit) -> None:
        """Draw an order at the end of the turn (the pile reshuffled from the discards when it
        is empty), then CORE's end of turn."""
        seat, family = state.current, self.orders(state)
        if len(family.hands[seat]) < HAND_LIMIT:
            if not family.pile and family.discard:
                rng = Rng(state.seed, state.rng)
                emit(
                    OrdersShuffled(pile=tuple(rng.shuffle(sorted(family.discard))), rng=rng.counter)
                )
            pile = self.orders(state).pile
            if pile:
                emit(OrderDrawn(seat=seat, card=pile[-1]))
        super().end_turn(state, emit)

    def family_cards(self, state: GameState) -> list[int]:
        """Cards hook: the orders are outside CORE's pile, discards and hands."""
        family = self.orders(state)
        return [*family.pile, *family.discard, *(c for hand in family.hands for c in hand)]

    def armies_of(self, card: int) -> int:
        return self.board.card(card).stars  # an order's stars are the armies it musters

    # ------------------------------------------------------------------ the muster phase
    def _in_muster(self, state: GameState) -> None:
        if state.phase != "muster":
            raise RuleError("wrong_phase", f"You cannot muster in the {state.phase} phase.")

    def _muster(self, state: GameState, cmd: Muster, emit: Emit) -> None:
        self._in_muster(state)
        if cmd.card not in self.orders(state).hands[cmd.seat]:
            raise RuleError("not_in_hand", f"You hold no order card {cmd.card}.")
        t = self.territory(cmd.territory)
        if state.owner[t] != cmd.seat:
            raise RuleError("not_owner", f"You do not own {self.board.name(t)}.")
        territory = self.board.territories[t].id
        armies = self.armies_of(cmd.card)
        emit(OrderPlayed(seat=cmd.seat, card=cmd.card, territory=territory, armies=armies))

    def _skip(self, state: GameState, cmd: SkipMuster, emit: Emit) -> None:
        self._in_muster(state)
        emit(MusterSkipped(seat=cmd.seat))

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Muster: _muster,
        SkipMuster: _skip,
    }

    def _legal_muster(self, state: GameState, seat: Seat) -> Iterator[Command]:
        ids = self.board.territories
        for card in sorted(set(self.orders(state).hands[seat])):
            for t in self.territories_of(state, seat):
                yield Muster(seat=seat, card=card, territory=ids[t].id)
        yield SkipMuster(seat=seat)

    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "muster": _legal_muster,
    }

    # ------------------------------------------------------------------ projectors
    def _on_turn_started_toy(self, state: GameState, ev: TurnStarted) -> None:
        """Phases hook: a turn opens with ``muster`` when its seat holds an order."""
        self._on_turn_started(state, ev)
        if self.orders(state).hands[ev.seat]:
            state.phase = "muster"

    def _after_muster(self, state: GameState) -> None:
        state.phase = "reinforce" if state.reserve else self.after_reinforce_phase(state)

    def _on_orders_shuffled(self, state: GameState, ev: OrdersShuffled) -> None:
        state.rng = ev.rng
        state.family = msgspec.structs.replace(self.orders(state), pile=ev.pile, discard=())

    def _on_order_drawn(self, state: GameState, ev: OrderDrawn) -> None:
        family = self.orders(state)
        hand = (*family.hands[ev.seat], ev.card)
        state.family = msgspec.structs.replace(
            family, pile=family.pile[:-1], hands=_with_hand(family.hands, ev.seat, hand)
        )

    def _on_order_played(self, state: GameState, ev: OrderPlayed) -> None:
        family = self.orders(state)
        hand = list(family.hands[ev.seat])
        hand.remove(ev.card)
        state.family = msgspec.structs.replace(
            family,
            discard=(*family.discard, ev.card),
            hands=_with_hand(family.hands, ev.seat, tuple(hand)),
        )
        state.armies[self.board.index[ev.territory]] += ev.armies
        self._after_muster(state)

    def _on_muster_skipped(self, state: GameState, ev: MusterSkipped) -> None:
        self._after_muster(state)

    def _on_eliminated_toy(self, state: GameState, ev: PlayerEliminated) -> None:
        """An eliminated seat's orders go to the discards."""
        self._on_eliminated(state, ev)
        family = self.orders(state)
        lost = family.hands[ev.seat]
        if lost:
            state.family = msgspec.structs.replace(
                family,
                discard=(*family.discard, *lost),
                hands=_with_hand(family.hands, ev.seat, ()),
            )

    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        TurnStarted: _on_turn_started_toy,
        PlayerEliminated: _on_eliminated_toy,
        OrdersShuffled: _on_orders_shuffled,
        OrderDrawn: _on_order_drawn,
        OrderPlayed: _on_order_played,
        MusterSkipped: _on_muster_skipped,
    }

    # ------------------------------------------------------------------ views
    def order_view(self, card: int) -> dict[str, Any]:
        info = self.board.card(card)
        return {"id": card, "kind": info.kind, "armies": info.stars}

    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """View hook: the pile's size and the discards are public."""
        family = self.orders(state)
        return {"orders_pile": len(family.pile), "orders_discard": list(family.discard)}

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """View hook: how many orders a seat holds is public, which ones only to itself."""
        hand = self.orders(state).hands[seat]
        out: dict[str, Any] = {"orders": len(hand)}
        if seat == viewer:
            out["order_hand"] = [self.order_view(c) for c in hand]
        return out

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        beacon = self.beacons.get(t)
        return {} if beacon is None else {"beacon": beacon.points}

    # ------------------------------------------------------------------ invariants
    def check_invariants(self, state: GameState) -> list[str]:
        """Invariants hook: every order card is in the pile, the discards or one hand (once
        the pile is formed), a hand holds at most two, ``muster`` only with an order in hand."""
        family = self.orders(state)
        held = sorted(self.family_cards(state))
        problems = []
        if held and held != self.order_cards:
            problems.append(f"orders not conserved: {held}")
        if len(family.hands) != len(state.players):
            problems.append(f"{len(family.hands)} order hands for {len(state.players)} seats")
        for seat, hand in enumerate(family.hands):
            if len(hand) > HAND_LIMIT or (hand and state.players[seat].eliminated):
                problems.append(f"seat {seat} holds orders {hand}")
        if state.phase == "muster" and not family.hands[state.current]:
            problems.append("muster phase without an order in hand")
        return problems

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """Invariants hook: orders move only through the family's events, draws from the top."""
        if isinstance(ev, OrderDrawn) and self.orders(before).pile[-1:] != (ev.card,):
            return [f"order {ev.card} is not the top of the pile"]
        family_events = (OrdersShuffled, OrderDrawn, OrderPlayed, PlayerEliminated, PositionSet)
        if not isinstance(ev, family_events) and before.family != after.family:
            return [f"orders moved on {type(ev).__name__}"]
        return []

    def army_change(self, before: GameState, ev: Event) -> int:
        """Invariants hook (CORE-03): a played order puts its armies on the board."""
        if isinstance(ev, OrderPlayed):
            return ev.armies
        return super().army_change(before, ev)

    # ------------------------------------------------------------------ bots
    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """Bot hook: the greedy bot plays its strongest order where it would place armies."""
        if state.phase != "muster":
            return None
        card = max(self.orders(state).hands[seat], key=lambda c: (self.armies_of(c), -c))
        spot = reading.placement_spot(self.armies_of(card))
        return Muster(seat=seat, card=card, territory=self.board.territories[spot].id)

    # ------------------------------------------------------------------ scenarios
    def start_position(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        position: PositionSet,
        **kwargs: Any,
    ) -> list[Event]:
        """Scenario hook: without a ``[family]`` table the orders are shuffled afresh into their
        pile (CORE's pile, from the board's main deck only, never holds them)."""
        if position.family is msgspec.UNSET:
            rng = Rng(seed, 1 << 33)  # far from the game's own draws, as the scenario's deck
            pile = tuple(rng.shuffle(list(self.order_cards)))
            orders = Orders(pile=pile, hands=((),) * len(players))
            position = msgspec.structs.replace(position, family=msgspec.to_builtins(orders))
        return super().start_position(players, seed, options, position, **kwargs)

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> Orders:
        """Scenario hook: ``[family] orders = { Ann = [15], Bob = [] }`` deals order hands;
        the other orders form the pile, top card last (``pile`` may give its order)."""
        unknown = set(data) - {"orders", "pile"}
        if unknown:
            raise SetupError(
                "bad_scenario", f"Unknown [family] keys: {', '.join(sorted(unknown))}."
            )
        hands: list[tuple[int, ...]] = [()] * len(seats)
        try:
            for ref, cards in dict(data.get("orders", {})).items():
                hands[seat(ref)] = msgspec.convert(cards, tuple[int, ...])
            dealt = [c for hand in hands for c in hand]
            rest = [c for c in self.order_cards if c not in dealt]
            pile = msgspec.convert(data.get("pile", rest), tuple[int, ...])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family] table: {e}") from None
        if sorted([*dealt, *pile]) != self.order_cards or any(len(h) > HAND_LIMIT for h in hands):
            raise SetupError(
                "bad_scenario",
                f"Deal each order card {self.order_cards} once, at most {HAND_LIMIT} to a seat.",
            )
        return Orders(pile=pile, hands=tuple(hands))
