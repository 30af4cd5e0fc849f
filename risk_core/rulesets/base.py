"""The CORE rules (catalogue §2) as a class whose hooks rule sets override.

``RuleSet.decide`` validates a command against a working copy of the state and returns the
events it causes; every event is applied to that copy as soon as it is emitted, so later checks
in the same command (a conquest after a battle, a winner after an elimination) see the facts.
``RuleSet.apply`` is the event projector: it mutates the state it is given and never rolls dice
or raises on an event ``decide`` produced.

A rule set is a subclass that sets its name, board, seats and options and overrides the hooks
it changes; defining it registers it.  A rule family adds to the core without editing it:

* state: ``family_state``, a frozen ``FamilyState`` in ``GameState.family`` (``new_family_state``);
* commands and events: ``@command``/``@event`` Structs in its module, handled through
  ``COMMAND_HANDLERS``/``EVENT_HANDLERS``; an event with secrets overrides ``Event.redact``;
* phases: ``phases`` (what the acting seat does in each) and ``LEGAL`` (its moves);
* dice: ``attack_dice``/``defence_dice`` (``DiceSpec``: any die, re-rolls, bonuses, keep) and
  ``battle_losses``; limits ``attack_dice_max``/``defence_dice_max``;
* reach: ``attack_graph``/``move_graph``, ``attack_error``, ``target_error``, ``fortify_reachable``;
* cards: the board's cards and decks (``board.cards``), ``set_sizes``, ``set_value``;
* seats: ``seats_for`` (neutral armies, commanders), ``team_of``, ``to_act``, ``out_of_turn``;
* end: ``winner``, or ``round_limit`` with ``scores``/``score_order``/``final_result``;
* scenario: ``scenario_family``; views: ``view_extra``, ``seat_view``, ``territory_view``;
* audits: ``check_invariants``, ``check_transition``, ``army_change``, ``family_cards``;
* bots: ``bot_move``, ``bot_goals``; the command line: ``cli_module``; the board: ``board_dir``
  and the board sections it registers (``risk_core.board_sections``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar, Literal

import msgspec

from risk_core.board import Board, add_family_board, load_board
from risk_core.dice import MAX_SIDES, DiceSpec, check_faces, d6, throw_battle
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    ArmiesPlaced,
    Attack,
    BattleFought,
    Branched,
    CardDrawn,
    CardsTraded,
    Command,
    DeckFormed,
    DeckReshuffled,
    DefenceRequested,
    Defend,
    DiceReseeded,
    DiceScripted,
    EndTurn,
    Event,
    FamilyState,
    FirstPlayerChosen,
    Fortified,
    Fortify,
    GameStarted,
    GameState,
    GameWon,
    LegalMove,
    MissionsDealt,
    Occupied,
    Occupy,
    OptionValue,
    PendingAttack,
    PendingOccupation,
    Phase,
    Place,
    Player,
    PlayerEliminated,
    PositionSet,
    RoundsCompleted,
    Seat,
    SeatInfo,
    SeedRevealed,
    SetupPlaced,
    TerritoriesDealt,
    TerritoryConquered,
    Trade,
    TurnEnded,
    TurnStarted,
    copy_board,
    copy_state,
    own_draw,
    own_trade,
    unshare,
)
from risk_core.names import listed
from risk_core.rng import Rng, d6_throw, highest_first, seed_commitment
from risk_core.seats import check_commanders, check_player_names

COLOURS = ("red", "blue", "green", "yellow", "black", "purple")
ENGINE_VERSION = "0.2.0"


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """A named rule option (ENG-08): its default, allowed values and the rule it settles."""

    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


Emit = Callable[[Event], None]
Handler = Callable[..., None]  # a command's handler (``COMMAND_HANDLERS``)
Handlers = dict[type[Event], Callable[..., None]]  # the events' projectors (``EVENT_HANDLERS``)
Apply = Callable[[GameState, Event], None]
# Per event kind, what copies a seat's hand and the piles that kind changes (``_partial_copies``).
PartialCopies = dict[type[Event], Callable[[GameState, Seat], None]]

# How ``RuleSet.decide`` treats the state it is given: it decides on a copy (``decide``), on the
# state itself (``decide_in_place``), or on the state itself with the way back kept
# (``decide_and_apply``).
_ON_COPY, _IN_PLACE, _RESTORING = 0, 1, 2
# The phases in which ``settle`` may decide something itself (``RuleSet._core_step``).
_SETTLED_PHASES = frozenset({"setup", "defend", "occupy"})
_UNSET = msgspec.UNSET  # (a global, not an attribute of one: read by every battle)


def _restore(state: GameState, saved: GameState) -> None:
    """Every field of ``state`` set back to ``saved``'s (a refusal after some events)."""
    for name in GameState.__struct_fields__:
        setattr(state, name, getattr(saved, name))


class BotGoals(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat's missions ask for, as the greedy bot weighs targets (indexes)."""

    groups: frozenset[int] = frozenset()  # groups to own whole
    extra_groups: int = 0  # further groups of any choice
    victim: Seat | None = None  # a seat to eliminate
    holds: frozenset[int] = frozenset()  # territories to hold


NO_GOALS = BotGoals()

# CORE's phases and what the acting seat does in each; a rule set adds its own (``phases``).
CORE_PHASES: dict[str, str] = {
    "setup": "place starting armies",
    "reinforce": "trade cards and place reinforcements",
    "attack": "attack, fortify or end the turn",
    "defend": "choose defence dice",
    "occupy": "move armies into the conquered territory",
    "elim_trade": "trade the cards taken and place the armies",
    "final": "the last round is over: the score decides",
    "over": "the game is over",
}


def defence_request(order: PendingAttack, origin_id: str, target_id: str) -> DefenceRequested:
    """The event that hands an attack order to a defender who chooses its dice (``ask``)."""
    return DefenceRequested(
        seat=order.defender,
        origin=origin_id,
        target=target_id,
        dice=order.dice,
        until=order.until,
        stop_at=order.stop_at,
        move=order.move,
    )


class RuleSet:
    """CORE rules; subclasses are the registered rule sets."""

    name: ClassVar[str] = "core"
    title: ClassVar[str] = ""
    board_name: ClassVar[str] = "classic"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    options: ClassVar[dict[str, Option]] = {}
    forced_trade_at: ClassVar[int] = 5  # CL-12: a hand of 5+ cards must trade
    # CL-20/DEC-13: a hand this big after taking an eliminated player's cards trades at once
    # (down to ``forced_trade_at - 1`` cards).
    elimination_trade_at: ClassVar[int] = 5
    # CL-20/NAP-23: the cards taken from an eliminated army may be traded "immédiatement"
    # (004 l.142).  The window an elimination opens (``GameState.may_trade``) closes with the
    # first event of the attack phase that is none of these: the elimination, the move-in of
    # its conquest (the occupation step), bookkeeping (a branch's lineage and new dice, the end
    # of the game).  So a battle, a defence request, a free move, a family's own move or the
    # end of the turn closes it.  A family adds its events that are no move (napoleon-mission:
    # announcements).
    trade_window_follow_ups: ClassVar[frozenset[type[Event]]] = frozenset(
        {PlayerEliminated, Occupied, Branched, DiceReseeded, DiceScripted, GameWon}
    )
    # Phases this rule set uses, with what the acting seat does in each (shown by ``show`` and
    # ``rules``); every key of ``LEGAL`` must be one of them.
    phases: ClassVar[dict[str, str]] = CORE_PHASES
    # The family's own state (a frozen Struct in ``GameState.family``), None when it has none.
    family_state: ClassVar[type[FamilyState] | None] = None
    attack_dice_max: ClassVar[int] = 3  # CORE-14
    defence_dice_max: ClassVar[int] = 2  # CORE-15
    # The most sides of any die a family's own dice hooks throw: a scenario's dice script may
    # hold no higher face.  None: 6 with CORE's dice hooks, else ``dice.MAX_SIDES`` (a family
    # that does not say; each battle still refuses a face its die cannot show).
    die_sides_max: ClassVar[int | None] = None
    set_sizes: ClassVar[tuple[int, ...]] = (3,)  # how many cards a set may have (CORE-10)
    # A folder holding the board (``board.json``), for families shipped outside ``boards/``.
    board_dir: ClassVar[str | None] = None
    # The dotted name of the module holding the family's own ``risk`` verbs and event texts
    # (``COMMANDS``, ``EVENT_TEXT``); the command line imports it, the engine never does.
    cli_module: ClassVar[str | None] = None

    def __init__(self) -> None:
        self.board: Board = load_board(self.board_name)
        self.n_territories = len(self.board.territories)
        # Whether the battle hooks are CORE's own, so that ``battle`` may take its fast path.
        cls = type(self)
        self._core_dice = (
            cls.attack_dice is RuleSet.attack_dice and cls.defence_dice is RuleSet.defence_dice
        )
        self._core_losses = cls.battle_losses is RuleSet.battle_losses
        self._core_settle = cls.settle is RuleSet.settle
        self.core_apply = cls.apply is RuleSet.apply  # ``engine`` may then write it out
        self.core_owns = cls.attacker_owns is RuleSet.attacker_owns  # (bots too)
        self._core_graph = cls.attack_graph is RuleSet.attack_graph
        self._core_auto = cls.auto_step is RuleSet.auto_step
        self._core_to_act = cls.to_act is RuleSet.to_act
        # The class tables ``decide`` reads for every command, kept on the instance too, in one
        # attribute: CPython 3.11 specialises reading an instance's own attribute, not a class
        # attribute read through the instance, and only while the instance has at most 30
        # (a rule set's tables are fixed when its class is made; ``engine.apply_in_place``
        # reads them too; ``tests/test_engine_decide_and_apply.py`` keeps every rule set
        # within that count).
        self.handler_tables = (
            cls.COMMAND_HANDLERS,
            cls.EVENT_HANDLERS,
            cls.trade_window_follow_ups,
        )
        # Battles as CORE fights them (units, defenders, dice, losses, no early stop):
        # ``fight`` then takes its written-out path.
        self._plain_fight = (
            self._core_dice
            and self._core_losses
            and cls.battle is RuleSet.battle
            and cls.fighting_units is RuleSet.fighting_units
            and cls.defender_of is RuleSet.defender_of
            and cls.battle_ends_order is RuleSet.battle_ends_order
        )
        self._plain_launch = self._plain_fight and cls.fight is RuleSet.fight  # (``launch``)
        quiet, army = self._winner_watch()
        # The event kinds after which ``winner`` need not be asked (None: it is asked after
        # every command), and those after which only when armies count (``_armies_may_win``);
        # after any other kind, always.
        self._quiet = quiet
        self._army_kinds = army - quiet if quiet is not None else army
        self._board_only_events = self._board_only()
        # Events after which ``decide``'s copy needs its own of a few lists only (the first such
        # event of a command; any later one not board-only has the whole state copied).
        self._partial_copies: PartialCopies = {
            kind: copier
            for kind, copier in ((CardDrawn, own_draw), (CardsTraded, own_trade))
            if self._board_only_events is not None
            and cls.EVENT_HANDLERS.get(kind) is RuleSet.EVENT_HANDLERS[kind]
        }

    def _board_only(self) -> frozenset[type[Event]] | None:
        """Events whose projector changes nothing in place but ``model.BOARD_FIELDS`` (other
        fields it may replace whole): ``decide`` copies the rest of the state only before
        another event (None: it copies everything at once).

        Only CORE's projectors qualify, with CORE's hooks where they call one; a family's own
        event, or a command handler of a family (which may change a list before emitting),
        always has the whole state copied first."""
        cls = type(self)
        core = RuleSet
        if cls.apply is not core.apply or any(
            cls.COMMAND_HANDLERS.get(k) is not h for k, h in core.COMMAND_HANDLERS.items()
        ):
            return None
        # The steps CORE's handlers and ``settle`` take, where a family could act in place.
        flows = (
            *("launch", "fight", "conquer", "after_fortify", "end_turn", "draw_card"),
            *("start_next_turn", "setup_complete", "auto_step", "settle"),
        )
        if any(getattr(cls, name) is not getattr(core, name) for name in flows):
            return None
        if len(cls.COMMAND_HANDLERS) != len(core.COMMAND_HANDLERS):
            return None
        hooks_core = (
            cls.after_reinforce_phase is core.after_reinforce_phase
            and cls.must_trade is core.must_trade
            and cls.elimination_trade_due is core.elimination_trade_due
        )
        kinds: list[type[Event]] = [
            BattleFought,
            Fortified,
            DefenceRequested,
            TurnEnded,
            GameWon,
            SetupPlaced,
        ]
        if hooks_core:
            kinds += [TerritoryConquered, Occupied, ArmiesPlaced, TurnStarted]
        handlers = core.EVENT_HANDLERS
        return frozenset(k for k in kinds if cls.EVENT_HANDLERS.get(k) is handlers[k])

    def _winner_watch(self) -> tuple[frozenset[type[Event]] | None, frozenset[type[Event]]]:
        """The events after which ``winner`` need not be asked again (None: after every one),
        and those that matter only when armies count (``_armies_may_win``).

        Only for a rule set whose end of game is CORE's or classic's (``plain_winner_hooks``):
        their ``winner`` reads the owners, the eliminations, the seat to move, the turn, the
        phase and (missions with ``min_armies``) armies growing.  A battle only takes armies
        away, a card, a defence request or the end of a turn touch none of these, and setup
        placements all come before the first turn, when there is no winner yet; kept only
        where the rule set applies them with CORE's projector.  Events that move armies in
        (placements, trades' bonuses, occupations, free moves) count only for armies.
        """
        cls = type(self)
        plain = (
            cls.winner in _PLAIN_HOOKS
            and cls.mission_done in _PLAIN_HOOKS
            and cls.active_seats is RuleSet.active_seats
            and cls.round_limit is RuleSet.round_limit
            and cls.apply is RuleSet.apply
        )
        if not plain:
            return None, frozenset()
        core = RuleSet.EVENT_HANDLERS

        def kept(kinds: Iterable[type[Event]]) -> frozenset[type[Event]]:
            return frozenset(k for k in kinds if cls.EVENT_HANDLERS.get(k) is core[k])

        quiet = (BattleFought, DefenceRequested, CardDrawn, DeckReshuffled, TurnEnded, SetupPlaced)
        return kept(quiet), kept((ArmiesPlaced, CardsTraded, Occupied, Fortified))

    def _armies_may_win(self, state: GameState) -> bool:
        """Whether more armies somewhere may meet an objective (CORE: never)."""
        return False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check a rule set's tables agree, and register it when it names itself.

        Every phase with legal moves must be declared in ``phases``.  A subclass that does not
        set its own ``name`` (a helper base, a test's variant) is not registered.
        """
        super().__init_subclass__(**kwargs)
        undeclared = sorted(set(cls.LEGAL) - set(cls.phases))
        if undeclared:
            raise TypeError(f"{cls.__name__}: phases {undeclared} have moves but are not declared")
        if "over" not in cls.phases:
            raise TypeError(f"{cls.__name__}: every rule set needs the 'over' phase")
        board_dir = cls.__dict__.get("board_dir")
        if board_dir:  # a family's own board, known by its id from now on
            cls.board_name = add_family_board(board_dir)
        if "name" in cls.__dict__ and cls.name != "core":
            other = _REGISTERED.get(cls.name)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"Rule set name {cls.name!r} is taken by {other.__qualname__}")
            _REGISTERED[cls.name] = cls
            for hook in _ON_REGISTER:  # a redefinition replaces any cached instance
                hook()

    # ================================================================== public entry points
    def start(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        dice_script: Sequence[int] = (),
        game_id: str = "",
    ) -> list[Event]:
        state, out, emit = self._begin(players, seed, options, dice_script, game_id)
        self.opening(state, emit)
        self.settle(state, emit)
        return out

    def _begin(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        dice_script: Sequence[int],
        game_id: str,
    ) -> tuple[GameState, list[Event], Emit]:
        """``game_started`` (and a dice script), with the state and emitter that follow it."""
        started = self.game_started(players, seed, options, game_id)
        state = self.initial_state(started)
        out: list[Event] = [started]

        def emit(ev: Event) -> None:
            self.apply(state, ev)
            out.append(ev)

        if dice_script:
            emit(DiceScripted(faces=tuple(dice_script)))
        return state, out, emit

    def game_started(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        game_id: str = "",
    ) -> GameStarted:
        """The first event: rule set, board version, options, seats and seed (ENG-08)."""
        return GameStarted(
            game_id=game_id,
            commitment=seed_commitment(game_id, seed) if game_id else "",
            ruleset=self.name,
            board=self.board.id,
            board_hash=self.board.content_hash,
            engine=ENGINE_VERSION,
            options=self.resolve_options(options or {}),
            players=tuple(self.seats_for(players)),
            seed=seed,
        )

    def start_position(
        self,
        players: Sequence[str | SeatInfo],
        seed: int,
        options: dict[str, OptionValue] | None,
        position: PositionSet,
        *,
        turn: int = 1,
        round: int = 1,
        income: int | None = None,
        dice_script: Sequence[int] = (),
        game_id: str = "",
    ) -> list[Event]:
        """Opening events of a game that starts from a set position (scenario files).

        ``income`` None gives the turn's normal income; 0 starts the turn in the attack phase.
        """
        state, out, emit = self._begin(players, seed, options, dice_script, game_id)
        emit(position)
        count, base, groups = self.income(state, position.first)
        emit(
            TurnStarted(
                seat=position.first,
                turn=turn,
                round=round,
                territories=count,
                base=base,
                groups=groups,
                income=base + self.group_bonus(groups) if income is None else income,
            )
        )
        if state.phase == "reinforce":  # the turn's start: what the rules place themselves
            self.income_placed(state, position.first, emit)
        self.settle(state, emit)
        return out

    def income_placed(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """Right after a turn's start: the armies of its income the rules place themselves
        (none in CORE; NAP-ADV-21's fortifications)."""

    @property
    def decides_in_place(self) -> bool:
        """Whether ``decide_in_place`` may be used: CORE's handlers, steps and projectors
        change the state only through events, so a refusal before the first event leaves it
        as it was (``_board_only``)."""
        return self._board_only_events is not None

    def decide_in_place(self, state: GameState, cmd: Command) -> list[Event]:
        """``decide`` with the events applied to ``state`` itself (a state the caller owns, as
        ``engine.apply_in_place``), so nothing is copied or applied twice; only where
        ``decides_in_place``.  A ``RuleError`` leaves ``state`` unchanged when ``state.version``
        is unchanged, and otherwise part-way through the command: the caller rebuilds it."""
        if self._board_only_events is None:  # ``decides_in_place``, without its call
            raise ValueError(f"{self.name} decides on a copy only.")
        return self._decide(state, cmd, _IN_PLACE)

    def decide_and_apply(self, state: GameState, cmd: Command) -> list[Event]:
        """``decide``'s events, with ``state`` (one the caller owns) advanced by them as
        ``engine.apply_in_place`` would; any error leaves ``state`` as it was.

        Where ``decides_in_place`` the events are applied once, to ``state`` itself: before
        the first of them the state's board lists are copied aside, and its hands and piles
        before the first event that may change them (``decide``'s copy on write, kept for the
        way back), and a refusal after some events puts them back.  Elsewhere a family's
        handler may use ``decide``'s copy as scratch space, so its events are applied again to
        ``state``."""
        if self._board_only_events is not None:
            return self._decide(state, cmd, _RESTORING)
        events = self._decide(state, cmd, _ON_COPY)
        apply = self.apply
        for ev in events:
            apply(state, ev)
        return events

    def decide(self, state: GameState, cmd: Command, mode: int = _ON_COPY) -> list[Event]:
        """The events ``cmd`` causes in ``state``; raises ``RuleError`` and changes nothing.

        ``state`` is copied once, and every event is applied to that copy as it is emitted.
        (``mode`` is for ``decide_in_place`` and ``decide_and_apply``, which call it as
        ``_decide``, so that a family's own ``decide`` is never handed one: ``decide`` checks
        the seat and the command, then the mode's method decides it.)"""
        phase = state.phase
        if phase == "over":
            raise RuleError("game_over", "The game is over.")
        if self._core_to_act:  # ``to_act`` written out
            order = state.attack
            acting = order.defender if phase == "defend" and order is not None else state.current
        else:
            acting = self.to_act(state)
        if cmd.seat != acting:  # (the seat to act is a seat: only another may be unknown)
            if not 0 <= cmd.seat < len(state.players):
                raise RuleError("unknown_seat", f"There is no seat {cmd.seat}.")
            if not self.out_of_turn(state, cmd):
                raise RuleError(
                    "not_your_turn",
                    f"It is {state.players[acting].name}'s move (seat {acting}), "
                    f"not seat {cmd.seat}'s.",
                )
        handler = self.handler_tables[0].get(type(cmd))
        if handler is None:
            # Named by its JSON type (`risk submit`, `risk schema`), never its Python class.
            kind = type(cmd).__struct_config__.tag
            raise RuleError("unknown_command", f"{self.name} has no {kind!r} command.")
        if self._board_only_events is None:
            return self._decide_copying(state, cmd, handler)
        # ``_board_only`` implies CORE's ``apply`` and ``settle``, written out in each mode's
        # ``emit`` (one call less per event).  Each ``emit`` is made anew for every command and
        # takes what it reads as default values, not from its method's variables: CPython
        # would make every variable a closure reads a cell at each call of the method that
        # defines it (under callgrind, ~2,500 instructions a command less of an audit's ~34,000).
        if mode == _IN_PLACE:
            return self._decide_here(state, cmd, handler)
        if mode == _ON_COPY:
            return self._decide_on_copy(state, cmd, handler)
        return self._decide_restoring(state, cmd, handler)

    def _decide_copying(self, state: GameState, cmd: Command, handler: Handler) -> list[Event]:
        """``decide`` on a copy of the whole state, through ``apply`` and ``settle`` (a family
        whose handlers may change the state other than by events: ``decides_in_place``)."""
        out: list[Event] = []
        append = out.append
        work = copy_state(state)
        apply = self.apply

        def emit(
            ev: Event, apply: Apply = apply, work: GameState = work, append: Emit = append
        ) -> None:
            apply(work, ev)
            append(ev)

        handler(self, work, cmd, emit)
        if self._core_settle:
            self._settle(work, emit, out)
        else:
            self.settle(work, emit)
        return out

    def _decide_here(self, state: GameState, cmd: Command, handler: Handler) -> list[Event]:
        """``decide``'s ``_IN_PLACE`` mode: each event applied to ``state`` itself."""
        out: list[Event] = []
        append = out.append
        _, handlers, follow_ups = self.handler_tables

        def emit_here(
            ev: Event,
            state: GameState = state,
            rules: RuleSet = self,
            handlers: Handlers = handlers,
            follow_ups: frozenset[type[Event]] = follow_ups,
            append: Emit = append,
        ) -> None:
            kind = type(ev)
            if state.may_trade and state.phase == "attack" and kind not in follow_ups:
                state.may_trade = False
            handlers[kind](rules, state, ev)
            state.version += 1
            append(ev)

        handler(self, state, cmd, emit_here)
        self._settle(state, emit_here, out)
        return out

    def _decide_on_copy(self, state: GameState, cmd: Command, handler: Handler) -> list[Event]:
        """``decide``'s ``_ON_COPY`` mode: a copy of the board, with hands and piles copied on
        write, before an event that may change them."""
        out: list[Event] = []
        append = out.append
        _, handlers, follow_ups = self.handler_tables
        board_only, partial = self._board_only_events, self._partial_copies
        assert board_only is not None  # (``decide`` sends no other rule set here)
        work = copy_board(state)
        shared = 2  # 2: hands and piles shared, 1: a few of them copied (``partial``), 0: none

        def emit_on_copy(
            ev: Event,
            work: GameState = work,
            rules: RuleSet = self,
            handlers: Handlers = handlers,
            follow_ups: frozenset[type[Event]] = follow_ups,
            board_only: frozenset[type[Event]] = board_only,
            partial: PartialCopies = partial,
            append: Emit = append,
        ) -> None:
            nonlocal shared
            kind = type(ev)
            if shared and kind not in board_only:
                if shared == 2 and kind in partial:
                    partial[kind](work, ev.seat)  # type: ignore[attr-defined]
                    shared = 1
                else:
                    unshare(work)
                    shared = 0
            if work.may_trade and work.phase == "attack" and kind not in follow_ups:
                work.may_trade = False
            handlers[kind](rules, work, ev)
            work.version += 1
            append(ev)

        handler(self, work, cmd, emit_on_copy)
        self._settle(work, emit_on_copy, out)
        return out

    def _decide_restoring(self, state: GameState, cmd: Command, handler: Handler) -> list[Event]:
        """``decide``'s ``_RESTORING`` mode: in place, with the way back copied as
        ``_decide_on_copy`` copies its state: the board before the first event, hands and
        piles before one that may change them."""
        out: list[Event] = []
        append = out.append
        _, handlers, follow_ups = self.handler_tables
        board_only, partial = self._board_only_events, self._partial_copies
        assert board_only is not None  # (``decide`` sends no other rule set here)
        saved: list[GameState] = []
        whole = 2  # as ``shared`` above: 2 nothing, 1 a few, 0 all of hands and piles kept aside

        def emit_saving(
            ev: Event,
            state: GameState = state,
            rules: RuleSet = self,
            handlers: Handlers = handlers,
            follow_ups: frozenset[type[Event]] = follow_ups,
            board_only: frozenset[type[Event]] = board_only,
            partial: PartialCopies = partial,
            saved: list[GameState] = saved,
            append: Emit = append,
        ) -> None:
            nonlocal whole
            kind = type(ev)
            if whole:
                if not saved:
                    saved.append(copy_board(state))
                if kind not in board_only:
                    if whole == 2 and kind in partial:
                        partial[kind](saved[0], ev.seat)  # type: ignore[attr-defined]
                        whole = 1
                    else:
                        unshare(saved[0])
                        whole = 0
            if state.may_trade and state.phase == "attack" and kind not in follow_ups:
                state.may_trade = False
            handlers[kind](rules, state, ev)
            state.version += 1
            append(ev)

        try:
            handler(self, state, cmd, emit_saving)
            self._settle(state, emit_saving, out)
        except BaseException:
            if saved:  # refused after an event: every field back as it was
                _restore(state, saved[0])
            raise
        return out

    _decide = decide  # (CORE's, whatever a family's ``decide`` does)

    def apply(self, state: GameState, ev: Event) -> None:
        """Apply one event in place (the projector).

        (``engine.apply_in_place``, ``replay`` and ``decide`` write this body out for speed:
        a change here is a change there.)  Here, for every rule set and family, the trade
        window an elimination opens (``may_trade``) closes at the first event of the attack
        phase that is no follow-up of that elimination (CL-20/NAP-23,
        ``trade_window_follow_ups``).
        """
        if (
            state.may_trade
            and state.phase == "attack"
            and type(ev) not in self.trade_window_follow_ups
        ):
            state.may_trade = False
        self.EVENT_HANDLERS[type(ev)](self, state, ev)
        state.version += 1

    def legal_commands(self, state: GameState) -> list[Command]:
        if state.phase == "over":
            return []
        seat = self.to_act(state)
        moves = self.LEGAL.get(state.phase)
        return [] if moves is None else list(moves(self, state, seat))

    def legal_moves(self, state: GameState) -> list[LegalMove]:
        """``legal_commands`` with counts as ranges: each entry stands for ``size()`` commands,
        and expanding the entries in order gives ``legal_commands`` (issue 14)."""
        if state.phase == "over":
            return []
        if _lists_more_commands(type(self)):
            # A family that adds commands to ``legal_commands`` but not here: its whole list.
            return compact_commands(self.legal_commands(state))
        seat = self.to_act(state)
        moves = self.LEGAL.get(state.phase)
        if moves is None:
            return []
        runs = self.LEGAL_RUNS.get(moves)
        if runs is not None:
            return list(runs(self, state, seat))
        return compact_commands(moves(self, state, seat))

    # ================================================================== options and seats
    def resolve_options(self, given: dict[str, OptionValue]) -> dict[str, OptionValue]:
        opts: dict[str, OptionValue] = {}
        for key in given:
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise SetupError(
                    "invalid_option", f"{self.name} has no option '{key}' (options: {known})."
                )
        for key, spec in self.options.items():
            value = given.get(key, spec.default)
            if isinstance(spec.default, bool):
                value = _as_bool(key, value)
            elif isinstance(spec.default, int):
                value = _as_int(key, value)
                if (spec.minimum is not None and value < spec.minimum) or (
                    spec.maximum is not None and value > spec.maximum
                ):
                    raise SetupError(
                        "invalid_option",
                        f"Option {key}={value} is out of range [{spec.minimum}, {spec.maximum}].",
                    )
            else:
                value = str(value)
            if spec.choices and value not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise SetupError(
                    "invalid_option", f"Option {key}={value!r} is not one of: {allowed}."
                )
            opts[key] = value
        return opts

    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                "bad_players",
                f"{self.name} is for {self.min_players}–{self.max_players} players, not {n}.",
            )
        # A seat given without a colour ("": a SeatInfo made for its policy or commander) takes
        # the rule set's, as a plain name does.
        seats = [
            SeatInfo(name=p, colour=COLOURS[i])
            if isinstance(p, str)
            else p
            if p.colour
            else msgspec.structs.replace(p, colour=COLOURS[i])
            for i, p in enumerate(players)
        ]
        check_player_names([s.name for s in seats])
        check_commanders(seats)  # one player may command several seats
        return seats

    def initial_state(self, ev: GameStarted) -> GameState:
        n = self.n_territories
        return GameState(
            ruleset=ev.ruleset,
            board=ev.board,
            options=dict(ev.options),
            seed=ev.seed,
            game_id=ev.game_id,
            players=[
                Player(
                    name=s.name,
                    colour=s.colour,
                    neutral=s.neutral,
                    policy=s.policy,
                    commander=s.commander,
                )
                for s in ev.players
            ],
            owner=[-1] * n,
            armies=[0] * n,
            setup_left=[0] * len(ev.players),
            version=1,
            family=self.new_family_state(ev),
        )

    def new_family_state(self, ev: GameStarted) -> Any:
        """The family's state at the start of a game (UNSET when the family has none)."""
        return msgspec.UNSET if self.family_state is None else self.family_state()

    # ================================================================== hooks
    def opening(self, state: GameState, emit: Emit) -> None:
        """Random setup facts (first player, deal, missions, deck). Overridden per set."""
        raise NotImplementedError

    def starting_armies(self, state: GameState) -> int:
        raise NotImplementedError

    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """Armies a set is worth, or None when these cards are not a valid set."""
        raise NotImplementedError

    def card_bonus_territories(
        self, state: GameState, seat: Seat, cards: Sequence[int]
    ) -> list[int]:
        """Territories receiving a +2 card-territory bonus on a trade (none in CORE)."""
        return []

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """Set-specific reasons an otherwise legal attack is forbidden."""
        return None

    def target_error(self, state: GameState, seat: Seat, target: int) -> RuleError | None:
        """Set-specific reasons ``seat`` may not invade ``target`` as it is held now, whatever
        the moment of the turn (a teammate's territory, say): the targets a refusal names and
        `risk odds` leave such territories out (none in CORE)."""
        return None

    def fortify_mode(self, state: GameState) -> str:
        """ "adjacent" (one step) or "connected" (a chain of own territories, CORE-19)."""
        return "adjacent"

    def fortify_reachable(self, state: GameState, seat: Seat, origin: int, target: int) -> bool:
        if self.fortify_mode(state) == "adjacent":
            return target in self.move_graph(state, seat)[origin]
        return target in self.connected_own(state, seat, origin)

    def attack_graph(self, state: GameState, seat: Seat) -> Sequence[Sequence[int]]:
        """Per territory, where ``seat`` may attack from it: the board's borders and sea lines
        in CORE (a family adds hyperspace lanes, naval landings, ...)."""
        return self.board.neighbours

    def attack_edge(self, state: GameState, seat: Seat, a: int, b: int) -> str:
        """What lets ``seat`` attack ``b`` from ``a`` (an edge of ``attack_graph``), for a
        reader: the board's kind of edge ("border", "sea", "lane"); a family names its own."""
        return self.board.edge_kind(a, b) or "other"

    def move_graph(self, state: GameState, seat: Seat) -> Sequence[Sequence[int]]:
        """Per territory, its neighbours for ``seat``'s free moves and paths (CORE-19)."""
        return self.board.neighbours

    def mission_done(self, state: GameState, seat: Seat) -> bool:
        return False

    def out_of_turn(self, state: GameState, cmd: Command) -> bool:
        """May ``cmd`` come from a seat the game is not waiting for? (Never in CORE.)"""
        return False

    def allows_players(self, n: int) -> bool:
        """Whether a game of ``n`` players can be started (a set may skip counts in its range)."""
        return self.min_players <= n <= self.max_players

    def team_of(self, state: GameState, seat: Seat) -> int | None:
        """The team of ``seat`` in a team game (teammates share a hand); None: no teams."""
        return None

    def occupants(self, state: GameState, t: int) -> Mapping[Seat, int]:
        """Units of each seat in ``t`` (read-only).  In CORE the owner has every unit there."""
        o = state.owner[t]
        return {o: state.armies[t]} if o >= 0 and state.armies[t] else {}

    def usable_armies(self, state: GameState, seat: Seat) -> Sequence[int]:
        """Per territory, the units ``seat`` attacks or moves with where it may act at all.

        CORE: every unit of the territory (its own, or the classic-2p ally's it commands).
        """
        return state.armies

    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """What ``seat``'s secret missions ask for, for the greedy bot (none in CORE)."""
        return NO_GOALS

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """The greedy bot's move for the family's own steps and commands, or None to play the
        CORE phases as usual.  ``reading`` is the bot's read of the board
        (``risk_core.bots.Greedy``: placement spots, threats, the best set, a tie-break)."""
        return None

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> Any:
        """The family state a scenario file's ``[family]`` table sets (see ``risk_core.scenario``).

        CORE reads the table as the family state's own fields (``seat`` turns a seat number or
        name into a seat); a family overrides this for a friendlier form.  Raises ``SetupError``
        (``bad_scenario``) for a table this rule set cannot take.
        """
        if self.family_state is None:
            raise SetupError("bad_scenario", f"{self.name} has no [family] facts to set.")
        try:
            return msgspec.convert(data, self.family_state, strict=False)
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family] table: {e}") from None

    def scenario_deck(self) -> list[int]:
        """The cards a scenario position deals its hands and pile from (CORE: the ``main``
        deck; a family whose cards are all in decks of its own names its pile here)."""
        return self.board.deck_cards("main")

    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """What the family's state shows to ``viewer`` beyond CORE's view (JSON builtins)."""
        return {}

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """What ``viewer`` sees of ``seat`` beyond CORE's (family facts; secrets only to it)."""
        return {}

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        """Family facts shown on territory ``t`` (the teams' stacks, a city, ships, ...)."""
        return {}

    def uncontrolled(self, state: GameState, t: int) -> bool:
        """Whether territory ``t`` may lie empty and held by nobody outside the set-up
        (CORE-02's exception, e.g. NAP-ADV-45: a territory an epidemic emptied); never in CORE."""
        return False

    def check_invariants(self, state: GameState) -> list[str]:
        """Set-specific invariants broken in ``state`` (audits; CORE's are checked by tests)."""
        return []

    def may_hold_nothing(self, state: GameState, seat: Seat) -> bool:
        """Whether a scenario's position may give ``seat`` no territory (CORE: a neutral, which
        never acts; a position cannot say a player is out of the game)."""
        return state.players[seat].neutral

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """Set-specific rules broken by applying ``ev`` to ``before`` (the family's reserves
        moving only as its events say, ...); the conformance suite asks after every event."""
        return []

    def family_cards(self, state: GameState) -> Iterable[int]:
        """Cards the family keeps outside the pile, the discards and the hands (a second
        deck, cards given to an army); CORE-10/11 audits count them."""
        return ()

    def reserve_change(self, before: GameState, ev: Event) -> int:
        """Armies a family event adds to the mover's reserve (CORE's own: turn income, trades,
        placements); the conformance suite checks the reserve moves by nothing else."""
        return 0

    def army_change(self, before: GameState, ev: Event) -> int:
        """Units ``ev`` adds to the board (negative: removes), CORE-03: units appear only as
        placements and leave only in battle.  A family adds its own placing events."""
        if isinstance(ev, TerritoriesDealt):
            return sum(ev.armies) - sum(before.armies)
        if isinstance(ev, PositionSet):
            return sum(ev.armies) - sum(before.armies)
        if isinstance(ev, SetupPlaced | ArmiesPlaced):
            return ev.count
        if isinstance(ev, CardsTraded):
            return ev.bonus_each * len(ev.bonus)
        if isinstance(ev, BattleFought):
            return -(ev.attacker_losses + ev.defender_losses)
        return 0

    def fighting_units(self, state: GameState, seat: Seat, t: int) -> int:
        """Units ``seat`` fights with in ``t``: in CORE every unit there (its own, or those of
        the classic-2p ally it commands or defends)."""
        return state.armies[t]

    def battle_ends_order(self, state: GameState, order: PendingAttack, emit: Emit) -> bool:
        """After a battle that did not take the target: True stops the order (CORE: never)."""
        return False

    def attacker_owns(self, state: GameState, seat: Seat, origin: int) -> bool:
        """May ``seat`` attack from ``origin``? (classic-2p extends this to ally territories.)"""
        return state.owner[origin] == seat

    def odds_position(self, state: GameState, origin: int, target: int) -> GameState:
        """The position whose dice hooks give the odds of a new attack from ``origin`` on
        ``target`` (``risk odds``, ``attack --dry-run``): ``state`` itself, unless a family
        sets the attack's dice up when it is launched (the advanced Napoleon's leading
        generals), when it is the position as that launch would leave it."""
        return state

    def defender_of(self, state: GameState, target: int) -> Seat:
        """The seat that chooses the defence dice of ``target``."""
        return state.owner[target]

    def after_reinforce_phase(self, state: GameState) -> Phase:
        return "attack"

    def elimination_forced_trade(self, state: GameState) -> bool:
        return True

    def elimination_trade_due(self, state: GameState, seat: Seat) -> bool:
        """Must ``seat``, having just taken an eliminated player's cards, trade at once?

        CORE (CL-20/DEC-13): a hand of ``elimination_trade_at`` cards or more, unless the rule
        set defers the obligation (``elimination_forced_trade``).  The trades then go on while
        ``must_trade`` says so in the ``elim_trade`` step.
        """
        hand = state.players[seat].hand
        return len(hand) >= self.elimination_trade_at and self.elimination_forced_trade(state)

    def one_set_per_turn(self, state: GameState) -> bool:
        """Whether a seat trades at most one set in its reinforcement phase (DEC-46's other
        reading, a Napoleon option); never in CORE, where every set held may be traded."""
        return False

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        """Called once when every starting army is placed, before the first turn."""

    def choose_first_player(self, state: GameState, emit: Emit) -> None:
        """CORE-04 with ENG-02: highest d6 starts; only tied leaders re-roll, in seat order."""
        seats = [i for i, p in enumerate(state.players) if not p.neutral]
        if state.options.get("first_player") == "seat0":
            emit(FirstPlayerChosen(rolls=(), seat=seats[0], rng=state.rng))
            return
        rng = Rng(state.seed, state.rng, state.dice_script)
        rolls: list[tuple[int, ...]] = []
        contenders = seats
        while len(contenders) > 1:
            faces = {s: rng.die() for s in contenders}
            rolls.append(tuple(faces.get(i, 0) for i in range(len(state.players))))
            top = max(faces.values())
            contenders = [s for s in contenders if faces[s] == top]
        emit(
            FirstPlayerChosen(
                rolls=tuple(rolls), seat=contenders[0], rng=rng.counter, scripted=rng.scripted
            )
        )

    def connected_own(self, state: GameState, seat: Seat, origin: int) -> set[int]:
        """CORE-19 path rule: territories reachable from ``origin`` through ``seat``'s own."""
        owner, nbrs = state.owner, self.move_graph(state, seat)
        seen = {origin}
        stack = [origin]
        while stack:
            for n in nbrs[stack.pop()]:
                if n not in seen and owner[n] == seat:
                    seen.add(n)
                    stack.append(n)
        return seen

    # ================================================================== queries
    def to_act(self, state: GameState) -> Seat:
        if state.phase == "defend" and state.attack is not None:
            return state.attack.defender
        return state.current

    def opponent(self, state: GameState, seat: Seat) -> Seat:
        for i, p in enumerate(state.players):
            if i != seat and not p.neutral:
                return i
        return seat

    def territory(self, name: str) -> int:
        i = self.board.index.get(name)
        if i is None:
            raise RuleError("unknown_territory", f"There is no territory '{name}' on this board.")
        return i

    def territories_of(self, state: GameState, seat: Seat) -> list[int]:
        return [t for t, o in enumerate(state.owner) if o == seat]

    def active_seats(self, state: GameState) -> list[Seat]:
        return [i for i, p in enumerate(state.players) if not p.neutral and not p.eliminated]

    def income(self, state: GameState, seat: Seat) -> tuple[int, int, tuple[str, ...]]:
        """CORE-07/08: (territories, base income, groups giving their bonus)."""
        owner = state.owner
        count = owner.count(seat)
        held = []
        for g, members in enumerate(self.board.group_members):
            for t in members:
                if owner[t] != seat:
                    break
            else:
                held.append(self.board.groups[g].id)
        return count, max(3, count // 3), tuple(held)

    def group_bonus(self, groups: Sequence[str]) -> int:
        return sum(self.board.groups[self.board.group_index[g]].bonus for g in groups)

    def must_trade(self, state: GameState, seat: Seat) -> bool:
        return len(state.players[seat].hand) >= self.forced_trade_at

    def set_limit_reached(self, state: GameState) -> bool:
        """DEC-46 ``one_set_per_turn``: the mover has traded its one set of this reinforcement
        phase.  Trades after an elimination (CL-20/NAP-23) are not limited."""
        return state.phase == "reinforce" and state.turn_trades > 0 and self.one_set_per_turn(state)

    def valid_sets(self, state: GameState, seat: Seat) -> Iterator[tuple[int, ...]]:
        """The sets ``seat`` could trade now: none once its one set per turn is traded."""
        if self.set_limit_reached(state):
            return
        yield from self.sets_in_hand(state, seat)

    def sets_in_hand(self, state: GameState, seat: Seat) -> Iterator[tuple[int, ...]]:
        """Every valid set (``set_value``) among the cards of ``seat``'s hand."""
        hand = sorted(state.players[seat].hand)
        for size in self.set_sizes:
            for combo in combinations(hand, size):
                if self.set_value(state, combo) is not None:
                    yield combo

    # ================================================================== command handlers
    def _place(self, state: GameState, cmd: Place, emit: Emit) -> None:
        t = self.board.index.get(cmd.territory)  # ``territory`` written out for known names
        if t is None:
            t = self.territory(cmd.territory)
        if cmd.count < 1:
            raise RuleError("bad_count", "Place at least 1 army.")
        phase = state.phase
        if phase == "setup":
            self._setup_place(state, cmd.seat, t, cmd.count, emit)
        elif phase in ("reinforce", "elim_trade"):
            if self.must_trade(state, cmd.seat):
                raise RuleError(
                    "must_trade",
                    f"You hold {len(state.players[cmd.seat].hand)} cards: trade a set first.",
                )
            if state.owner[t] != cmd.seat:
                raise RuleError("not_owner", f"You do not own {self.board.name(t)}.")
            if cmd.count > state.reserve:
                raise RuleError(
                    "not_enough_armies", f"You have only {state.reserve} armies to place."
                )
            emit(ArmiesPlaced(seat=cmd.seat, territory=cmd.territory, count=cmd.count))
        else:
            raise RuleError("wrong_phase", f"You cannot place armies in the {phase} phase.")

    def _setup_place(self, state: GameState, seat: Seat, t: int, count: int, emit: Emit) -> None:
        unclaimed = -1 in state.owner
        if unclaimed:
            if state.owner[t] != -1:
                raise RuleError(
                    "already_claimed",
                    f"{self.board.name(t)} is taken: claim an unclaimed territory first.",
                )
            if count != 1:
                raise RuleError("bad_count", "Claim a territory with exactly 1 army.")
        elif state.owner[t] != seat:
            raise RuleError("not_owner", f"You do not own {self.board.name(t)}.")
        if count > state.setup_left[seat]:
            raise RuleError(
                "not_enough_armies", f"You have only {state.setup_left[seat]} armies left to place."
            )
        if count != 1 and state.options.get("setup_placement", "alternate") == "alternate":
            raise RuleError(
                "bad_count",
                "During setup, place one army at a time (DEC-15: option setup_placement is "
                "alternate; a game started with setup_placement=all_at_once places them all "
                "at once).",
            )
        emit(SetupPlaced(seat=seat, territory=self.board.territories[t].id, count=count))

    def _trade(self, state: GameState, cmd: Trade, emit: Emit) -> None:
        phase = state.phase
        if not (phase in ("reinforce", "elim_trade") or (phase == "attack" and state.may_trade)):
            raise RuleError("wrong_phase", f"You cannot trade cards in the {phase} phase.")
        if self.set_limit_reached(state):
            raise RuleError("one_per_turn", "You have already traded a set this turn (DEC-46).")
        hand = state.players[cmd.seat].hand
        cards = tuple(cmd.cards)
        if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
            raise self.not_in_hand(hand, cards)
        value = self.set_value(state, cards)
        if value is None:
            shown = ", ".join(self.card_label(c) for c in cards)
            raise RuleError("invalid_set", f"These cards are not a valid set: {shown}.")
        bonus = self.card_bonus_territories(state, cmd.seat, cards)
        emit(
            CardsTraded(
                seat=cmd.seat,
                cards=cards,
                value=value,
                bonus=tuple(self.board.territories[t].id for t in bonus),
            )
        )

    def _attack(self, state: GameState, cmd: Attack, emit: Emit) -> None:
        if state.phase != "attack":
            if state.phase == "occupy":
                raise self.must_occupy(state)
            if state.phase in ("reinforce", "elim_trade"):
                raise self.not_yet_attacking(state, cmd.seat)
            raise RuleError("wrong_phase", f"You cannot attack in the {state.phase} phase.")
        index = self.board.index  # ``territory`` written out for the usual, known names
        o, t = index.get(cmd.origin), index.get(cmd.target)
        if o is None or t is None:  # (``territory`` raises for the first unknown name)
            o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        owner = state.owner
        if (owner[o] != seat) if self.core_owns else not self.attacker_owns(state, seat, o):
            raise RuleError("not_owner", f"You do not own {self.board.name(o)}.")
        if owner[t] == seat or owner[t] == owner[o]:
            raise self.own_target(state, seat, o, t)
        reach = self.board.neighbours[o] if self._core_graph else self.attack_graph(state, seat)[o]
        if t not in reach:
            # Where FROM *can* attack, by the rule set's graph (CORE-13): its enemy neighbours.
            owners = (seat, state.owner[o])
            names = listed(
                self.board.name(n)
                for n in reach
                if state.owner[n] not in owners and self.target_error(state, seat, n) is None
            )
            can = f"from there you can attack {names}" if names else "it borders no enemy"
            raise RuleError(
                "not_adjacent",
                f"{self.board.name(o)} does not border {self.board.name(t)}; {can}.",
            )
        present = state.armies[o]
        if present < 2:
            raise RuleError(
                "not_enough_armies", f"{self.board.name(o)} needs at least 2 armies to attack."
            )
        top, dice = self.attack_dice_max, cmd.dice
        if not 1 <= dice <= top:
            raise dice_refusal(dice, top)
        if dice >= present:
            raise RuleError(
                "too_many_dice",
                f"{self.board.name(o)} has {present} armies: at most {min(top, present - 1)} dice.",
            )
        if cmd.stop_at < 1:
            raise RuleError("bad_count", stop_at_low_text(cmd.stop_at))
        if cmd.until == "conquer" and present <= cmd.stop_at:
            raise RuleError("bad_count", stop_at_text(self.board.name(o), present, cmd.stop_at))
        err = self.attack_error(state, seat, o, t)
        if err is not None:
            raise err
        self.launch(state, cmd, o, t, emit)

    def step_unfinished(self, state: GameState, seat: Seat) -> bool:
        """Whether a free move or the end of the turn is refused with what ``seat`` still
        owes in its reinforcement or elimination-trade step (``not_yet_attacking``: a trade,
        armies to place) rather than ``wrong_phase``; CORE keeps ``wrong_phase``, a family
        that names the due step says so (``Classic``)."""
        return False

    def not_yet_attacking(
        self, state: GameState, seat: Seat, doing: str = "attacking"
    ) -> RuleError:
        """Why ``seat`` cannot attack (or fortify, or end its turn: ``doing``) in its
        reinforcement or elimination-trade step: a trade it must make comes first
        (``must_trade``: in ``elim_trade`` the cards of the player it eliminated,
        CL-20/DEC-13), then the armies it has to place; never the step's internal name."""
        if self.must_trade(state, seat):
            held = len(state.players[seat].hand)
            taken = (
                " with the cards of the player you eliminated"
                if state.phase == "elim_trade"
                else ""
            )
            return RuleError(
                "must_trade",
                f"You hold {held} cards{taken}: trade a set first, then place your armies, "
                f"before {doing}.",
            )
        return RuleError("must_place", f"Place your {armies_text(state.reserve)} before {doing}.")

    def own_target(self, state: GameState, seat: Seat, o: int, t: int) -> RuleError:
        """The refusal of an attack on ``t``, held by ``seat`` or by the owner of ``o``: an ally
        whose armies ``seat`` attacks with (``attacker_owns``: classic-2p's ally, CL-2P-06, a
        Napoléon ally), named, as the territory is not the seat's own."""
        held = state.owner[t]
        if held == seat:
            return RuleError(
                "own_territory", f"You cannot attack {self.board.name(t)}: it is yours."
            )
        return RuleError(
            "own_territory",
            f"You cannot attack {self.board.name(t)} from {self.board.name(o)}: both are held "
            f"by {state.players[held].name}, whose armies you attack with, and they never "
            "attack their own territories.",
        )

    def launch(self, state: GameState, cmd: Attack, o: int, t: int, emit: Emit) -> None:
        """Start the battles of a validated attack order."""
        plain = self._plain_launch  # (``defender_of`` and ``fight`` written out)
        order = PendingAttack(
            defender=state.owner[t] if plain else self.defender_of(state, t),
            origin=o,
            target=t,
            dice=cmd.dice,
            until=cmd.until,
            stop_at=cmd.stop_at,
            move=cmd.move,
        )
        if plain:
            self._fight_plain(state, order, None, emit)
        else:
            self.fight(state, order, None, emit)

    def _defend(self, state: GameState, cmd: Defend, emit: Emit) -> None:
        order = state.attack
        if state.phase != "defend" or order is None:
            raise RuleError("wrong_phase", "No attack is waiting for your defence.")
        most = min(self.defence_dice_max, self.fighting_units(state, order.defender, order.target))
        if not 1 <= cmd.dice <= most:
            raise dice_refusal(cmd.dice, most, "Defend")
        self.fight(state, order, cmd.dice, emit)

    def _occupy(self, state: GameState, cmd: Occupy, emit: Emit) -> None:
        occ = state.occupation
        if state.phase != "occupy" or occ is None:
            raise RuleError("wrong_phase", "There is no conquered territory to occupy.")
        if not occ.min <= cmd.count <= occ.max:
            raise RuleError(
                "bad_count",
                f"Move between {occ.min} and {occ.max} armies into {self.board.name(occ.target)}.",
            )
        emit(self._occupied(state, cmd.seat, occ, cmd.count))

    def _fortify(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        if state.phase != "attack":
            if self.step_unfinished(state, cmd.seat):
                raise self.not_yet_attacking(state, cmd.seat, "moving armies")
            raise RuleError("wrong_phase", f"You cannot fortify in the {state.phase} phase.")
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        if state.owner[o] != seat or state.owner[t] != seat:
            raise RuleError("not_owner", "Fortify between two territories you own.")
        if o == t:
            raise RuleError("bad_count", "Fortify to a different territory.")
        if not self.fortify_reachable(state, seat, o, t):
            mode = self.fortify_mode(state)
            raise RuleError(
                "not_adjacent" if mode == "adjacent" else "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} "
                f"({mode} free move).",
            )
        if not 1 <= cmd.count <= state.armies[o] - 1:
            raise RuleError("not_enough_armies", self.movable_text(o, state.armies[o] - 1))
        emit(Fortified(seat=seat, origin=cmd.origin, target=cmd.target, count=cmd.count))
        # DEC-14: the mover's objective is checked at the end of its free move, before the
        # turn ends with it (the next player's turn would start, and be checked, first).
        won = self.winner(state)
        if won is not None:
            self.declare(state, won, emit)
            return
        self.after_fortify(state, emit)

    def declare(self, state: GameState, won: Event, emit: Emit) -> None:
        """The game's end (``winner``'s event), then its dice seeds, which anyone may now
        audit (games with an id)."""
        emit(won)
        if state.game_id:
            emit(SeedRevealed(seeds=(*state.previous_seeds, state.seed)))

    def must_occupy(self, state: GameState) -> RuleError:
        """The error for a command other than ``occupy`` while a conquest waits for it: what
        to do, where, and how many armies may move in."""
        occ = state.occupation
        if occ is None:
            return RuleError("must_occupy", "Move armies into the conquered territory first.")
        return RuleError(
            "must_occupy",
            f"Move armies into {self.board.name(occ.target)} first: occupy with "
            f"{occ.min}" + (f" to {occ.max}" if occ.max > occ.min else "") + " armies.",
        )

    def movable_text(self, origin: int, most: int, unit: str = "army") -> str:
        """Why a free move's count is refused: the counts ``origin`` allows, or that nothing
        can leave it (never "Move 1 to 0 armies")."""
        name = self.board.name(origin)
        if most < 1:
            return f"Nothing can move out of {name}: its last {unit} must stay."
        units = "armies" if unit == "army" else f"{unit}s"
        return f"Move 1 to {most} {units} (leave 1 in {name})."

    def _end(self, state: GameState, cmd: EndTurn, emit: Emit) -> None:
        if state.phase != "attack":
            if state.phase == "occupy":
                raise self.must_occupy(state)
            if self.step_unfinished(state, cmd.seat):
                raise self.not_yet_attacking(state, cmd.seat, "ending your turn")
            raise RuleError("wrong_phase", f"You cannot end your turn in the {state.phase} phase.")
        self.end_turn(state, emit)

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        Place: _place,
        Trade: _trade,
        Attack: _attack,
        Defend: _defend,
        Occupy: _occupy,
        Fortify: _fortify,
        EndTurn: _end,
    }

    # ================================================================== flows
    def fight(
        self, state: GameState, order: PendingAttack, defence: int | None, emit: Emit
    ) -> None:
        """Battles of one attack order; each battle is its own event (CORE-14..17)."""
        if self._plain_fight:
            self._fight_plain(state, order, defence, emit)
            return
        board = self.board
        o, t = order.origin, order.target
        origin_id, target_id = board.territories[o].id, board.territories[t].id
        units = self.fighting_units
        attacker = state.current
        while True:
            a = min(order.dice, units(state, attacker, o) - 1)
            if state.armies[t] == 0:  # a branch cut between a battle and its conquest
                self.conquer(state, order, a, emit)
                return
            most = min(self.defence_dice_max, units(state, order.defender, t))
            if defence is None:
                if state.players[order.defender].policy == "ask":
                    emit(defence_request(order, origin_id, target_id))
                    return
                defence = most
            d = min(defence, most)
            emit(self.battle(state, order, a, d))
            if state.armies[t] == 0:
                self.conquer(state, order, a, emit)
                return
            if self.battle_ends_order(state, order, emit):
                return
            if order.until == "once" or units(state, attacker, o) <= max(order.stop_at, 1):
                return
            defence = None
            defender = self.defender_of(state, t)  # a shared territory may change hands
            if defender != order.defender:
                order = msgspec.structs.replace(order, defender=defender)

    def _fight_plain(
        self, state: GameState, order: PendingAttack, defence: int | None, emit: Emit
    ) -> None:
        """``fight`` with CORE's hooks written out (``_plain_fight``): the same battles, the
        same events, the same draws from the dice stream, without a call per hook."""
        o, t = order.origin, order.target
        ids = self.board.territories
        origin_id, target_id = ids[o].id, ids[t].id
        attacker = state.current
        defence_max = self.defence_dice_max
        armies = state.armies
        while True:
            a = armies[o] - 1  # ``min``s and ``max`` written out: a call less each
            if order.dice < a:
                a = order.dice
            most = armies[t] if armies[t] < defence_max else defence_max
            if defence is None:
                if state.players[order.defender].policy == "ask":
                    emit(defence_request(order, origin_id, target_id))
                    return
                defence = most
            d = defence if defence < most else most
            # ``battle``: a then d faces from the stream (``Rng.dice``, one draw for both),
            # each side's highest first.
            if state.dice_script:
                rng = Rng(state.seed, state.rng, state.dice_script)
                faces = rng.dice(a + d)
                attack, guard = highest_first(faces[:a]), highest_first(faces[a:])
                counter, scripted = rng.counter, rng.scripted
            else:  # no cursor object for the hottest draw
                attack, guard, counter = d6_throw(state.seed, state.rng, a, d)
                scripted = 0
            # CORE-15/16: ``compare_faces`` written out for the usual one or two pairs
            if not d:  # an empty territory (a branch cut between a battle and its conquest)
                a_loss = d_loss = 0
            elif a == 1 or d == 1:
                d_loss = 1 if attack[0] > guard[0] else 0
                a_loss = 1 - d_loss
            elif a == 2 or d == 2:
                d_loss = (attack[0] > guard[0]) + (attack[1] > guard[1])
                a_loss = 2 - d_loss
            else:  # (a family's third defence die)
                a_loss, d_loss = compare_faces(attack, guard)
            emit(
                BattleFought(
                    seat=attacker,
                    origin=origin_id,
                    target=target_id,
                    defender=order.defender,
                    attack=attack,
                    defence=guard,
                    attacker_losses=a_loss,
                    defender_losses=d_loss,
                    rng=counter,
                    scripted=scripted,
                )
            )
            armies = state.armies
            if armies[t] == 0:
                self.conquer(state, order, a, emit)
                return
            stop = order.stop_at
            if order.until == "once" or armies[o] <= (stop if stop > 1 else 1):
                return
            defence = None
            defender = state.owner[t]  # ``defender_of``
            if defender != order.defender:
                order = msgspec.structs.replace(order, defender=defender)

    def battle(self, state: GameState, order: PendingAttack, a: int, d: int) -> BattleFought:
        """One battle of ``a`` attack dice against ``d`` defence dice (CORE-14..16).

        The dice each side throws come from ``attack_dice``/``defence_dice``; plain d6 battles
        record their faces only, others also their dice and natural faces, so the log, the
        luck report and an audit can explain every result from the event alone.
        """
        rng = Rng(state.seed, state.rng, state.dice_script)
        if self._core_dice:  # the hot path: no dice hook, plain d6 (the faces are the record)
            plain = True
            attack = highest_first(rng.dice(a))
            guard = highest_first(rng.dice(d))
        else:
            a_spec = self.attack_dice(state, order, a)
            d_spec = self.defence_dice(state, order, d)
            plain = a_spec.plain and d_spec.plain
            (a_natural, attack), (d_natural, guard) = throw_battle(rng, a_spec, d_spec)  # ENG-02
        if self._core_losses:  # CORE-15/16 directly, not through the hook
            a_loss, d_loss = compare_faces(attack, guard)
        else:
            a_loss, d_loss = self.battle_losses(state, order, attack, guard)
        ids = self.board.territories
        battle = BattleFought(
            seat=state.current,
            origin=ids[order.origin].id,
            target=ids[order.target].id,
            defender=order.defender,
            attack=attack,
            defence=guard,
            attacker_losses=a_loss,
            defender_losses=d_loss,
            rng=rng.counter,
            scripted=rng.scripted,
        )
        if plain:
            return battle
        return msgspec.structs.replace(
            battle,
            attack_dice=a_spec,
            defence_dice=d_spec,
            attack_natural=a_natural,
            defence_natural=d_natural,
        )

    def attack_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        """The dice the attacker throws: ``count`` plain d6 in CORE (families: d8, a bonus
        die kept among the best, +1 for a general, ...)."""
        return d6(count)

    def defence_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        """The dice the defender throws: ``count`` plain d6 in CORE."""
        return d6(count)

    def battle_losses(
        self,
        state: GameState,
        order: PendingAttack,
        attack: Sequence[int],
        defence: Sequence[int],
    ) -> tuple[int, int]:
        """(attacker's, defender's) losses: highest against highest, ties to the defender."""
        return compare_faces(attack, defence)

    def conquer(self, state: GameState, order: PendingAttack, dice: int, emit: Emit) -> None:
        o, t = order.origin, order.target
        previous = state.owner[t]
        conquered = TerritoryConquered(
            seat=state.current,
            origin=self.board.territories[o].id,
            target=self.board.territories[t].id,
            previous=previous,
            min=dice,
            max=state.armies[o] - 1,
        )
        emit(conquered)
        if previous not in state.owner:
            emit(
                PlayerEliminated(
                    seat=previous,
                    by=self.eliminator(state, t),
                    cards=tuple(state.players[previous].hand),
                )
            )
        occ = state.occupation
        move = order.move
        if occ is not None and move is not None:  # the order's count, within the occupation's
            count = occ.min if move < occ.min else occ.max if move > occ.max else move
            emit(self._occupied(state, state.current, occ, count))

    def _occupied(self, state: GameState, seat: Seat, occ: PendingOccupation, count: int) -> Event:
        return Occupied(
            seat=seat,
            origin=self.board.territories[occ.origin].id,
            target=self.board.territories[occ.target].id,
            extra=count - occ.min,
        )

    def eliminator(self, state: GameState, target: int) -> Seat:
        """Who eliminated the army whose last territory ``target`` was just conquered (and
        takes its cards): the conqueror (napoleon-2p: the mover, when its ally conquered)."""
        return state.owner[target]

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        """After the mover's own free move: in CORE it ends the turn."""
        self.end_turn(state, emit)

    def end_turn(self, state: GameState, emit: Emit) -> None:
        seat = state.current
        if state.conquered and not state.players[seat].neutral:
            self.draw_card(state, seat, emit)
        emit(TurnEnded(seat=seat))
        self.start_next_turn(state, emit)

    def draw_card(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """CORE-12 (one card) with CORE-11 (reshuffle the discard pile when the pile is empty)."""
        if not state.deck and state.discard:
            rng = Rng(state.seed, state.rng, state.dice_script)
            emit(DeckReshuffled(deck=tuple(rng.shuffle(sorted(state.discard))), rng=rng.counter))
        if state.deck:
            emit(CardDrawn(seat=seat, card=state.deck[-1]))

    def next_seat(self, state: GameState, seat: Seat) -> Seat:
        n = len(state.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            p = state.players[s]
            if not p.neutral and not p.eliminated:
                return s
        return seat

    def start_next_turn(self, state: GameState, emit: Emit) -> None:
        n = len(state.players)
        if state.turn == 0:
            seat, rnd = state.first, 1
        else:
            seat = self.next_seat(state, state.current)
            wrapped = (seat - state.first) % n <= (state.current - state.first) % n
            rnd = state.round + 1 if wrapped else state.round
        limit = self.round_limit(state)
        if limit is not None and rnd > limit:
            emit(RoundsCompleted(rounds=limit))  # ``winner`` now ends the game on the score
            return
        count, base, groups = self.income(state, seat)
        emit(
            TurnStarted(
                seat=seat,
                turn=state.turn + 1,
                round=rnd,
                territories=count,
                base=base,
                groups=groups,
                income=base + self.group_bonus(groups),
            )
        )

    def settle(self, state: GameState, emit: Emit) -> None:
        """After every command: automatic decisions of `auto` seats, the end of setup, victory."""
        self._settle(state, emit, None)

    def _settle(self, state: GameState, emit: Emit, out: list[Event] | None) -> None:
        """``settle``.  Given the command's events so far (``out``, from ``decide``: the game
        had no winner before them), ``winner`` is asked only once an event that can change its
        answer has come (``_winner_watch``), not after every step."""
        quiet = None if out is None else self._quiet
        army = self._army_kinds
        checked = 0
        while True:
            phase = state.phase
            if phase == "over":
                return
            if quiet is None:
                due = True
            else:  # written out: this runs after every command (``in``: no call per event)
                assert out is not None
                due = False
                for ev in out[checked:] if checked else out:
                    kind = type(ev)
                    if kind not in quiet and (kind not in army or self._armies_may_win(state)):
                        due = True
                        break
                checked = len(out)
            if due:
                winner = self.winner(state)
                if winner is not None:
                    self.declare(state, winner, emit)
                    return
            if phase in _SETTLED_PHASES and self._core_step(state, phase, emit):
                continue
            if self._core_auto or not self.auto_step(state, emit):
                return

    def _core_step(self, state: GameState, phase: str, emit: Emit) -> bool:
        """``settle``'s own decisions in the phases that may need one (``_SETTLED_PHASES``):
        the end of setup, an ``auto`` seat's defence, an occupation with no choice.  Whether
        it emitted anything."""
        if phase == "setup":
            if any(state.setup_left):
                return False
            self.setup_complete(state, emit)
            self.start_next_turn(state, emit)
        elif phase == "defend":
            order = state.attack
            if order is None or state.players[order.defender].policy != "auto":
                return False
            self.fight(state, order, self.defence_dice_max, emit)  # the most (fight caps it)
        else:
            occ = state.occupation
            if occ is None or occ.min != occ.max:
                return False
            emit(self._occupied(state, state.current, occ, occ.min))
        return True

    def auto_step(self, state: GameState, emit: Emit) -> bool:
        """A family's automatic decision in ``state`` (a standing policy answering for a seat):
        emit its events and return True, or return False when the game waits for a command."""
        return False

    def round_limit(self, state: GameState) -> int | None:
        """The number of rounds after which the score decides (None: play to the end)."""
        return None

    def scores(self, state: GameState) -> tuple[int, ...]:
        """Every seat's score when the rounds are over (CORE: territories held)."""
        return tuple(state.owner.count(s) for s in range(len(state.players)))

    def score_order(self, state: GameState, seat: Seat, scores: Sequence[int]) -> tuple[int, ...]:
        """Ranks seats after the last round, highest first: the score, then the tie-breaks
        (CORE: territories, then armies on the board; the lower seat wins a full tie)."""
        armies = sum(a for a, o in zip(state.armies, state.owner, strict=True) if o == seat)
        return (scores[seat], state.owner.count(seat), armies, -seat)

    def final_result(self, state: GameState) -> GameWon:
        scores = self.scores(state)
        best = max(self.active_seats(state), key=lambda s: self.score_order(state, s, scores))
        return GameWon(seat=best, reason="score", scores=scores, rounds=state.round)

    def winner(self, state: GameState) -> GameWon | None:
        """The end-of-game hook, asked after every command: a result, or None to go on."""
        if state.turn == 0:
            return None
        if state.phase == "final":
            return self.final_result(state)
        alive = self.active_seats(state)
        if len(alive) == 1:
            reason: Literal["conquest", "last_standing"] = (
                "conquest" if all(o == alive[0] for o in state.owner) else "last_standing"
            )
            return GameWon(seat=alive[0], reason=reason)
        seat = state.current
        if self.mission_done(state, seat):
            return GameWon(seat=seat, reason="mission", mission=state.players[seat].mission)
        return None

    # ================================================================== event handlers
    def _on_started(self, state: GameState, ev: GameStarted) -> None:
        raise RuleError("bad_history", "game_started can only be the first event.")

    def _on_scripted(self, state: GameState, ev: DiceScripted) -> None:
        state.dice_script = list(ev.faces)

    def _consume(self, state: GameState, counter: int, scripted: int) -> None:
        state.rng = counter
        if scripted:
            del state.dice_script[:scripted]

    def _on_first(self, state: GameState, ev: FirstPlayerChosen) -> None:
        self._consume(state, ev.rng, ev.scripted)
        state.first = state.current = ev.seat

    def _on_missions(self, state: GameState, ev: MissionsDealt) -> None:
        state.rng = ev.rng
        for p, m in zip(state.players, ev.missions, strict=True):
            p.mission = m

    def _on_dealt(self, state: GameState, ev: TerritoriesDealt) -> None:
        state.rng = ev.rng
        state.owner = list(ev.owners)
        state.armies = list(ev.armies)
        state.setup_left = list(ev.setup_left)
        state.phase = "setup"

    def _on_deck(self, state: GameState, ev: DeckFormed) -> None:
        state.rng = ev.rng
        state.deck = list(ev.deck)
        state.discard = []

    def _on_setup_placed(self, state: GameState, ev: SetupPlaced) -> None:
        t = self.board.index[ev.territory]
        claimed = state.owner[t] == -1  # claiming always goes one territory per seat (CL-05)
        state.owner[t] = ev.seat
        state.armies[t] += ev.count
        state.setup_left[ev.seat] -= ev.count
        if (
            claimed
            or state.setup_left[ev.seat] == 0
            or (state.options.get("setup_placement", "alternate") == "alternate")
        ):
            state.current = self._next_setup_seat(state, ev.seat)

    def _next_setup_seat(self, state: GameState, seat: Seat) -> Seat:
        """CORE-05: the next seat in order that still has armies to place."""
        n = len(state.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if state.setup_left[s] > 0:
                return s
        return seat

    def _on_turn_started(self, state: GameState, ev: TurnStarted) -> None:
        state.current = ev.seat
        state.turn = ev.turn
        state.round = ev.round
        state.reserve = ev.income
        state.received = ev.income
        state.conquered = False
        state.may_trade = False
        state.turn_trades = 0
        # A scenario may start a turn with nothing to place: straight to attacking.
        state.phase = "reinforce" if ev.income else self.after_reinforce_phase(state)

    def _on_position(self, state: GameState, ev: PositionSet) -> None:
        state.rng = ev.rng
        state.owner = list(ev.owners)
        state.armies = list(ev.armies)
        for p, hand, mission in zip(state.players, ev.hands, ev.missions, strict=True):
            p.hand = list(hand)
            p.mission = mission
        state.deck = list(ev.deck)
        state.discard = list(ev.discard)
        state.trades = ev.trades
        state.first = state.current = ev.first
        state.setup_left = [0] * len(state.players)
        state.phase = "setup"
        if ev.family is not msgspec.UNSET and self.family_state is not None:
            # Builtins in the event (as read back from JSON), the family's Struct in the state.
            state.family = msgspec.convert(ev.family, self.family_state, strict=False)

    def _on_traded(self, state: GameState, ev: CardsTraded) -> None:
        hand = state.players[ev.seat].hand
        for c in ev.cards:
            hand.remove(c)
        state.discard.extend(ev.cards)
        for name in ev.bonus:
            state.armies[self.board.index[name]] += ev.bonus_each
        state.reserve += ev.value
        state.received += ev.value + ev.bonus_each * len(ev.bonus)
        state.trades += 1
        state.turn_trades += 1
        state.may_trade = False
        if state.phase == "attack":
            state.phase = "elim_trade"

    def _on_placed(self, state: GameState, ev: ArmiesPlaced) -> None:
        state.armies[self.board.index[ev.territory]] += ev.count
        state.reserve -= ev.count
        if state.reserve == 0 and not self.must_trade(state, ev.seat):
            state.phase = (
                self.after_reinforce_phase(state) if state.phase == "reinforce" else ("attack")
            )

    def _on_defence_requested(self, state: GameState, ev: DefenceRequested) -> None:
        state.phase = "defend"
        state.attack = PendingAttack(
            defender=ev.seat,
            origin=self.board.index[ev.origin],
            target=self.board.index[ev.target],
            dice=ev.dice,
            until=ev.until,
            stop_at=ev.stop_at,
            move=ev.move,
        )

    def _battle_dice(self, state: GameState, ev: BattleFought) -> None:
        """A battle's dice leave the stream (or the script); impossible faces are refused.

        No die shows a 7.  Faces drawn from the seed are right by construction (an audit draws
        them again and compares), so only scripted faces and faces a spec turns into final ones
        are checked: replaying plain seeded battles, the hot path, pays nothing for it.
        """
        if ev.scripted or ev.attack_dice is not msgspec.UNSET:
            check_faces(ev)
        self._consume(state, ev.rng, ev.scripted)

    def _on_battle(self, state: GameState, ev: BattleFought) -> None:
        # ``_battle_dice`` written out: replaying battles is the projector's hottest path.
        if ev.scripted or ev.attack_dice is not _UNSET:
            check_faces(ev)
            if ev.scripted:
                del state.dice_script[: ev.scripted]
        state.rng = ev.rng  # ``_consume``
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.attacker_losses
        state.armies[idx[ev.target]] -= ev.defender_losses
        state.attack = None
        state.phase = "attack"

    def _on_conquered(self, state: GameState, ev: TerritoryConquered) -> None:
        idx = self.board.index
        o, t = idx[ev.origin], idx[ev.target]
        state.owner[t] = state.owner[o]
        state.armies[o] -= ev.min
        state.armies[t] = ev.min
        if state.owner[o] == ev.seat:
            state.conquered = True  # CL-2P-07: ally conquests earn no card (DEC-10)
        if ev.max > ev.min:
            state.phase = "occupy"
            state.occupation = PendingOccupation(origin=o, target=t, min=ev.min, max=ev.max)
        else:  # ``_after_occupation`` written out: most conquests leave no choice
            due = state.may_trade and self.elimination_trade_due(state, state.current)
            state.phase = "elim_trade" if due else "attack"
            state.reserve = 0

    def _on_occupied(self, state: GameState, ev: Occupied) -> None:
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.extra
        state.armies[idx[ev.target]] += ev.extra
        state.occupation = None
        due = state.may_trade and self.elimination_trade_due(state, state.current)
        state.phase = "elim_trade" if due else "attack"  # ``_after_occupation`` written out
        state.reserve = 0

    def _after_occupation(self, state: GameState) -> None:
        forced = state.may_trade and self.elimination_trade_due(state, state.current)
        state.phase = "elim_trade" if forced else "attack"
        state.reserve = 0

    def _on_eliminated(self, state: GameState, ev: PlayerEliminated) -> None:
        loser = state.players[ev.seat]
        loser.eliminated = True
        loser.eliminated_by = ev.by
        if ev.cards:
            state.players[ev.by].hand.extend(ev.cards)
        loser.hand = []
        taker = state.players[ev.by]
        # CL-20: the cards taken may be traded at once; no cards taken, no trade out of turn.
        state.may_trade = bool(ev.cards) and not taker.neutral and len(taker.hand) >= 3
        if state.phase == "attack":  # no occupation step was needed
            self._after_occupation(state)

    def _on_fortified(self, state: GameState, ev: Fortified) -> None:
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.count
        state.armies[idx[ev.target]] += ev.count

    def _on_reshuffled(self, state: GameState, ev: DeckReshuffled) -> None:
        state.rng = ev.rng
        state.deck = list(ev.deck)
        state.discard = []

    def _on_drawn(self, state: GameState, ev: CardDrawn) -> None:
        state.deck.pop()
        state.players[ev.seat].hand.append(ev.card)

    def _on_turn_ended(self, state: GameState, ev: TurnEnded) -> None:
        state.may_trade = False

    def _on_branched(self, state: GameState, ev: Branched) -> None:
        """Lineage only: the state is the parent's at that version."""

    def _on_reseeded(self, state: GameState, ev: DiceReseeded) -> None:
        state.previous_seeds.append(state.seed)
        state.seed = ev.seed
        state.rng = 0

    def _on_revealed(self, state: GameState, ev: SeedRevealed) -> None:
        """Public knowledge only; the state already holds the seeds."""

    def _on_rounds_completed(self, state: GameState, ev: RoundsCompleted) -> None:
        state.phase = "final"

    def _on_won(self, state: GameState, ev: GameWon) -> None:
        state.winner = ev.seat
        state.phase = "over"
        state.attack = None
        state.occupation = None

    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        GameStarted: _on_started,
        DiceScripted: _on_scripted,
        FirstPlayerChosen: _on_first,
        MissionsDealt: _on_missions,
        TerritoriesDealt: _on_dealt,
        DeckFormed: _on_deck,
        SetupPlaced: _on_setup_placed,
        TurnStarted: _on_turn_started,
        CardsTraded: _on_traded,
        ArmiesPlaced: _on_placed,
        DefenceRequested: _on_defence_requested,
        BattleFought: _on_battle,
        TerritoryConquered: _on_conquered,
        Occupied: _on_occupied,
        PlayerEliminated: _on_eliminated,
        Fortified: _on_fortified,
        DeckReshuffled: _on_reshuffled,
        CardDrawn: _on_drawn,
        TurnEnded: _on_turn_ended,
        GameWon: _on_won,
        RoundsCompleted: _on_rounds_completed,
        PositionSet: _on_position,
        Branched: _on_branched,
        DiceReseeded: _on_reseeded,
        SeedRevealed: _on_revealed,
    }

    # ================================================================== legal commands
    def card_label(self, card: int) -> str:
        return self.board.card_label(card)

    def largest_die(self) -> int:
        """The most sides of any die this rule set throws (``die_sides_max``)."""
        if self.die_sides_max is not None:
            return self.die_sides_max
        return 6 if self._core_dice else MAX_SIDES

    def not_in_hand(self, hand: Sequence[int], cards: Sequence[int]) -> RuleError:
        """``not_in_hand`` for a trade naming a card twice or one the hand does not hold,
        naming those cards (a card no deck has by its number)."""

        def label(c: int) -> str:
            return self.card_label(c) if 0 <= c < len(self.board.cards) else f"card {c}"

        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            named = ", ".join(map(label, twice))
            return RuleError("not_in_hand", f"A trade names each card once: {named} named twice.")
        absent = ", ".join(label(c) for c in cards if c not in hand)
        return RuleError("not_in_hand", f"Not in your hand: {absent}.")

    # Each core phase has two generators: ``_legal_*`` lists every command (every count), and
    # ``_moves_*`` the same commands as runs (``LegalMove``: one command, its count as a range),
    # in the same order, so that ``legal_moves`` costs what the choices of territory and card
    # cost, whatever the armies (issue 14).  The list stays its own loop: building each
    # command directly is three times cheaper than expanding the runs.
    def _moves_setup(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        ids = [t.id for t in self.board.territories]
        if -1 in state.owner:
            for t, o in enumerate(state.owner):
                if o == -1:
                    yield LegalMove(command=Place(seat=seat, territory=ids[t]))
            return
        alternate = state.options.get("setup_placement", "alternate") == "alternate"
        most = 1 if alternate else state.setup_left[seat]
        if most < 1:
            return
        for t in self.territories_of(state, seat):
            yield _run(Place(seat=seat, territory=ids[t], count=1), "count", 1, most)

    def _legal_setup(self, state: GameState, seat: Seat) -> Iterator[Command]:
        ids = [t.id for t in self.board.territories]
        if -1 in state.owner:
            for t, o in enumerate(state.owner):
                if o == -1:
                    yield Place(seat=seat, territory=ids[t])
            return
        alternate = state.options.get("setup_placement", "alternate") == "alternate"
        most = 1 if alternate else state.setup_left[seat]
        for t in self.territories_of(state, seat):
            for k in range(1, most + 1):
                yield Place(seat=seat, territory=ids[t], count=k)

    def _legal_trades(self, state: GameState, seat: Seat) -> Iterator[Command]:
        for combo in self.valid_sets(state, seat):
            yield Trade(seat=seat, cards=combo)

    def _moves_reinforce(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        for cmd in self._legal_trades(state, seat):
            yield LegalMove(command=cmd)
        if self.must_trade(state, seat) or state.reserve < 1:
            return
        ids = self.board.territories
        for t in self.territories_of(state, seat):
            yield _run(Place(seat=seat, territory=ids[t].id, count=1), "count", 1, state.reserve)

    def _legal_reinforce(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_trades(state, seat)
        if self.must_trade(state, seat):
            return
        ids = self.board.territories
        for t in self.territories_of(state, seat):
            for k in range(1, state.reserve + 1):
                yield Place(seat=seat, territory=ids[t].id, count=k)

    def attack_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        """Every (origin, target) pair ``seat`` may attack now."""
        owner, armies, nbrs = state.owner, state.armies, self.attack_graph(state, seat)
        core_owns = self.core_owns
        for o in range(self.n_territories):
            if armies[o] < 2:
                continue
            if core_owns:  # ``attacker_owns`` written out
                if owner[o] != seat:
                    continue
            elif not self.attacker_owns(state, seat, o):
                continue
            for t in nbrs[o]:
                if (
                    owner[t] != seat
                    and owner[t] != owner[o]
                    and (self.attack_error(state, seat, o, t) is None)
                ):
                    yield o, t

    def fortify_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        owner, nbrs = state.owner, self.move_graph(state, seat)
        paths = self.fortify_mode(state) != "adjacent"
        reach: dict[int, set[int]] = {}  # one search per connected group of own territories
        for o in range(self.n_territories):
            if owner[o] != seat or state.armies[o] < 2:
                continue
            if paths:
                if o not in reach:
                    group = self.connected_own(state, seat, o)
                    for t in group:
                        reach[t] = group
                targets: Iterable[int] = sorted(reach[o] - {o})
            else:
                targets = (t for t in nbrs[o] if owner[t] == seat)
            for t in targets:
                yield o, t

    def _moves_attack(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        ids = self.board.territories
        if state.may_trade:
            for cmd in self._legal_trades(state, seat):
                yield LegalMove(command=cmd)
        for o, t in self.attack_options(state, seat):
            most = min(self.attack_dice_max, state.armies[o] - 1)
            if most >= 1:
                attack = Attack(seat=seat, origin=ids[o].id, target=ids[t].id, dice=1)
                yield _run(attack, "dice", 1, most)
        for o, t in self.fortify_options(state, seat):
            if state.armies[o] >= 2:
                move = Fortify(seat=seat, origin=ids[o].id, target=ids[t].id, count=1)
                yield _run(move, "count", 1, state.armies[o] - 1)
        yield LegalMove(command=EndTurn(seat=seat))

    def _legal_attack(self, state: GameState, seat: Seat) -> Iterator[Command]:
        ids = self.board.territories
        if state.may_trade:
            yield from self._legal_trades(state, seat)
        for o, t in self.attack_options(state, seat):
            for d in range(1, min(self.attack_dice_max, state.armies[o] - 1) + 1):
                yield Attack(seat=seat, origin=ids[o].id, target=ids[t].id, dice=d)
        for o, t in self.fortify_options(state, seat):
            for k in range(1, state.armies[o]):
                yield Fortify(seat=seat, origin=ids[o].id, target=ids[t].id, count=k)
        yield EndTurn(seat=seat)

    def _moves_defend(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        assert state.attack is not None
        most = min(self.defence_dice_max, self.fighting_units(state, seat, state.attack.target))
        if most >= 1:
            yield _run(Defend(seat=seat, dice=1), "dice", 1, most)

    def _legal_defend(self, state: GameState, seat: Seat) -> Iterator[Command]:
        assert state.attack is not None
        most = min(self.defence_dice_max, self.fighting_units(state, seat, state.attack.target))
        for d in range(1, most + 1):
            yield Defend(seat=seat, dice=d)

    def _moves_occupy(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        assert state.occupation is not None
        low, high = state.occupation.min, state.occupation.max
        if low <= high:
            yield _run(Occupy(seat=seat, count=low), "count", low, high)

    def _legal_occupy(self, state: GameState, seat: Seat) -> Iterator[Command]:
        assert state.occupation is not None
        for k in range(state.occupation.min, state.occupation.max + 1):
            yield Occupy(seat=seat, count=k)

    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        "setup": _legal_setup,
        "reinforce": _legal_reinforce,
        "elim_trade": _legal_reinforce,
        "attack": _legal_attack,
        "defend": _legal_defend,
        "occupy": _legal_occupy,
    }
    # The run form of each generator above: ``legal_moves`` uses it when a phase's LEGAL entry
    # has one (a family adds its own), and merges the listed commands otherwise
    # (``compact_commands``).
    LEGAL_RUNS: ClassVar[
        dict[Callable[..., Iterator[Command]], Callable[..., Iterator[LegalMove]]]
    ] = {
        _legal_setup: _moves_setup,
        _legal_reinforce: _moves_reinforce,
        _legal_attack: _moves_attack,
        _legal_defend: _moves_defend,
        _legal_occupy: _moves_occupy,
    }


_MORE_COMMANDS: dict[type[RuleSet], bool] = {}


def _lists_more_commands(cls: type[RuleSet]) -> bool:
    """Whether ``cls`` overrides ``legal_commands`` below its ``legal_moves``."""
    if cls not in _MORE_COMMANDS:
        commands = next(c for c in cls.__mro__ if "legal_commands" in c.__dict__)
        moves = next(c for c in cls.__mro__ if "legal_moves" in c.__dict__)
        _MORE_COMMANDS[cls] = commands is not moves and issubclass(commands, moves)
    return _MORE_COMMANDS[cls]


# The integer fields that count something (armies, dice, ships, leaders): a run of their
# values is a range; other integers (a seat, a card) are choices of their own.
COUNTED_FIELDS = frozenset(
    {"count", "dice", "ships", "generals", "fighters", "corvettes", "capitals", "move"}
)


def compact_commands(commands: Iterable[Command]) -> list[LegalMove]:
    """Commands as ``LegalMove`` entries, each run of neighbours that differ only in one counted
    field (``COUNTED_FIELDS``) counting up by one made a single entry; expanded, the same
    commands in the same order.

    A family generator that lists every count is described as compactly as the core's runs,
    though listing it still costs what the counts cost."""
    out: list[LegalMove] = []
    prev: Command | None = None
    prev_values: tuple[Any, ...] = ()
    field: str | None = None  # the counted field of the open run (None: a single command)
    for cmd in commands:
        values = msgspec.structs.astuple(cmd)
        if prev is not None and type(cmd) is type(prev):
            diff = [i for i, (a, b) in enumerate(zip(values, prev_values, strict=True)) if a != b]
            if len(diff) == 1:
                name = cmd.__struct_fields__[diff[0]]
                a, b = values[diff[0]], prev_values[diff[0]]
                counted = name in COUNTED_FIELDS and field in (None, name)
                if counted and type(a) is int and type(b) is int and a == b + 1:
                    last = out[-1]
                    low = last.low if field is not None else b
                    out[-1] = LegalMove(command=last.command, field=name, low=low, high=a)
                    field, prev, prev_values = name, cmd, values
                    continue
        out.append(LegalMove(command=cmd))
        field, prev, prev_values = None, cmd, values
    return out


def stop_at_text(origin: str, armies: int, stop_at: int) -> str:
    """The refusal of an attack order until conquest whose origin is at its stop already: it
    would fight no battle (CORE-14's order stops once the origin is down to ``stop_at``)."""
    return (
        f"{origin} has {armies} armies, not more than the {stop_at} to stop at: an attack "
        f"until then would fight no battle (stop at fewer than {armies})."
    )


def stop_at_low_text(stop_at: int) -> str:
    """The refusal of a stop below 1 army: the last army never attacks (CORE-14), so an
    attack until conquest always stops at 1 or more."""
    return f"Stop at 1 army or more (the last one never attacks), not {stop_at}."


def _run(command: Command, field: str, low: int, high: int) -> LegalMove:
    return LegalMove(command=command, field=field, low=low, high=high)


def armies_text(n: int) -> str:
    """``n`` armies, in words a refusal can use ("1 army", "3 armies")."""
    return f"{n} army" if n == 1 else f"{n} armies"


def dice_text(most: int) -> str:
    """The dice a side may throw, up to ``most``, for a refusal ("1 die", "1 to 3 dice")."""
    return "1 die" if most == 1 else f"1 to {most} dice"


def dice_count_error(dice: int, most: int, side: str = "Attack") -> RuleError | None:
    """The refusal of throwing ``dice`` dice where a side may throw 1 to ``most`` (CORE-14),
    or None (``dice_refusal``).  ``side``: "Attack" or "Defend"."""
    return None if 1 <= dice <= most else dice_refusal(dice, most, side)


def dice_refusal(dice: int, most: int, side: str = "Attack") -> RuleError:
    """The refusal of ``dice`` dice, outside 1 to ``most``: none at all is ``bad_count`` (a
    count below 1, as elsewhere), more than ``most`` is ``too_many_dice``."""
    if dice < 1:
        return RuleError(
            "bad_count", f"{side} with at least 1 die ({dice_text(most)}), not {dice}."
        )
    return RuleError("too_many_dice", f"{side} with {dice_text(most)}.")


def compare_faces(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """(attacker's, defender's) losses of two throws, each highest first (CORE-15/16): highest
    against highest, as many pairs as the shorter throw has, ties to the defender."""
    a_loss = d_loss = 0
    for x, y in zip(attack, defence, strict=False):
        if x > y:
            d_loss += 1
        else:
            a_loss += 1
    return a_loss, d_loss


# ``winner`` and ``mission_done`` implementations that read only what ``_winner_watch``
# assumes (CORE's; classic adds its own).
_PLAIN_HOOKS: set[Callable[..., Any]] = {RuleSet.winner, RuleSet.mission_done}


def plain_winner_hooks(*hooks: Callable[..., Any]) -> None:
    """Declare ``winner``/``mission_done`` implementations that read only the owners, the
    eliminations, the seat to move, the turn, the phase and (``_armies_may_win``) armies."""
    _PLAIN_HOOKS.update(hooks)


_REGISTERED: dict[str, type[RuleSet]] = {}
_ON_REGISTER: list[Callable[[], None]] = []


def on_register(hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever a rule set is defined (caches of rule sets clear themselves)."""
    _ON_REGISTER.append(hook)


def registered() -> dict[str, type[RuleSet]]:
    """Every rule set class defined so far, by name (see ``risk_core.rulesets``)."""
    return _REGISTERED


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise SetupError("invalid_option", f"Option {key} expects true or false, not {value!r}.")


def _as_int(key: str, value: Any) -> int:
    if isinstance(value, bool):
        raise SetupError("invalid_option", f"Option {key} expects a number, not {value!r}.")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SetupError(
            "invalid_option", f"Option {key} expects a number, not {value!r}."
        ) from None
