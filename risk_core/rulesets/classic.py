"""The classic family (rulebook 004): ``classic``, ``classic-conquest`` and ``classic-2p``.

Every DEC item of the catalogue that players could reasonably read differently is an option
here, with the catalogue's recommended reading as the default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from risk_core.board import Mission
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    Command,
    DeckFormed,
    Event,
    FamilyState,
    GameState,
    GameWon,
    LegalMove,
    MissionsDealt,
    Phase,
    Place,
    Seat,
    SeatInfo,
    TerritoriesDealt,
)
from risk_core.rng import Rng
from risk_core.rulesets.allies import ALLY_PLACE, AllyPlaced
from risk_core.rulesets.base import (
    COLOURS,
    CORE_PHASES,
    NO_GOALS,
    BotGoals,
    Emit,
    Option,
    RuleSet,
    plain_winner_hooks,
)

COMMON_OPTIONS: dict[str, Option] = {
    "setup_placement": Option(
        default="alternate",
        choices=("alternate", "all_at_once"),
        doc="DEC-15: place remaining starting armies one at a time in turn order, "
        "or each seat all of its armies in turn.",
    ),
    "first_player": Option(
        default="roll",
        choices=("roll", "seat0"),
        doc="DEC-16/CORE-04: highest d6 starts (tied leaders re-roll), or seat 0 starts.",
    ),
    "fortify": Option(
        default="adjacent",
        choices=("adjacent", "connected"),
        doc="CL-19: the free move goes to an adjacent territory, or along a chain of own "
        "territories.",
    ),
    "protected_rounds": Option(
        default=4,
        minimum=0,
        maximum=20,
        doc="CL-21/DEC-12: during these first rounds nobody may attack a player's last "
        "territory (0 disables).",
    ),
    "elimination_forced_trade": Option(
        default=True,
        doc="CL-20/DEC-13: after taking an eliminated player's cards, a hand of 5+ must trade "
        "down to 4 at once (false: only at the next reinforcement).",
    ),
}

SET_VALUE_OPTIONS: dict[str, Option] = {
    "set_values": Option(
        default="literal",
        choices=("literal", "usual"),
        doc="DEC-08: 3 artillery 4, 3 infantry 6, 3 cavalry 8 as rulebook 004 prints it "
        "(literal), or 3 infantry 4, 3 cavalry 6, 3 artillery 8 (usual).",
    ),
    "joker_sets": Option(
        default="extended",
        choices=("extended", "listed"),
        doc="DEC-09: a joker with 2 different cards is worth 10 and 2 jokers with any card 12 "
        "(extended), or only 'joker + 2 identical' is a set (listed).",
    ),
}

TRIPLE_VALUES = {
    "literal": {"artillery": 4, "infantry": 6, "cavalry": 8},
    "usual": {"infantry": 4, "cavalry": 6, "artillery": 8},
}
STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}  # CL-02


class Classic(RuleSet):
    """CLASSIC: secret missions, 3–6 players, fixed trade table."""

    name = "classic"
    title = "Classic Risk with secret missions (3–6 players)"
    options: ClassVar[dict[str, Option]] = {
        "setup": Option(
            default="deal",
            choices=("deal", "claim"),
            doc="CL-05: territories dealt by the shuffled cards, or claimed one at a time "
            "in turn order.",
        ),
        **COMMON_OPTIONS,
        **SET_VALUE_OPTIONS,
        "objective_check": Option(
            default="own_turn",
            choices=("own_turn", "any_time"),
            doc="DEC-14 (CL-22): an objective is checked after each action of its holder's own "
            "turn, a waiting player's when its turn starts (own_turn); or every player's after "
            "every action, so 'le premier joueur à avoir accompli la mission' wins even during "
            "another's turn (any_time: the player to move first, then in turn order).",
        ),
    }
    uses_missions: ClassVar[bool] = True
    # CL-22, CL-CQ-06, CL-2P-09: a classic game ends on its goal, never on a score after a
    # last round (no ``round_limit``), so ``risk rules`` does not list CORE's ``final`` step.
    phases: ClassVar[dict[str, str]] = {k: v for k, v in CORE_PHASES.items() if k != "final"}

    def __init__(self) -> None:
        super().__init__()
        self._missions = self.missions_by_id
        # Missions that count armies per territory: only they make a placement matter to
        # ``winner`` (``RuleSet._armies_may_win``).
        self._goals: dict[str, BotGoals] = {}  # ``bot_goals`` by mission (same victim)
        self._army_missions = frozenset(m.id for m in self.board.missions if m.min_armies > 1)
        self._core_seats = type(self).active_seats is RuleSet.active_seats  # (``winner``)
        # Per mission, the groups it names and their territories (``mission_done``).
        gi, members = self.board.group_index, self.board.group_members
        self._mission_groups = {
            m.id: frozenset(gi[g] for g in m.groups) for m in self.board.missions
        }
        self._mission_territories = {
            m.id: tuple(t for g in m.groups for t in members[gi[g]]) for m in self.board.missions
        }

    # ------------------------------------------------------------------ setup
    def starting_armies(self, state: GameState) -> int:
        return STARTING_ARMIES[len(state.players)]

    def opening(self, state: GameState, emit: Emit) -> None:
        if self.uses_missions:
            self.deal_missions(state, emit)
        self.deal_territories(state, emit)
        self.choose_first_player(state, emit)
        rng = Rng(state.seed, state.rng)
        emit(DeckFormed(deck=tuple(rng.shuffle(self.all_cards())), rng=rng.counter))  # CL-07

    def all_cards(self) -> list[int]:
        return list(range(len(self.board.card_symbols)))

    def deal_missions(self, state: GameState, emit: Emit) -> None:
        """CL-04: one secret mission each, the rest set aside unseen."""
        if not self.board.missions:
            raise RuleError("missing_data", f"Board {self.board.id} has no mission cards.")
        rng = Rng(state.seed, state.rng)
        deck = rng.shuffle(list(range(len(self.board.missions))))
        missions = tuple(self.board.missions[deck[i]].id for i in range(len(state.players)))
        emit(MissionsDealt(missions=missions, rng=rng.counter))

    def deal_territories(self, state: GameState, emit: Emit) -> None:
        """CL-05: deal the shuffled territory cards and jokers round-robin from seat 0."""
        n_seats, n = len(state.players), self.n_territories
        start = self.starting_armies(state)
        rng = Rng(state.seed, state.rng)
        if state.options.get("setup") == "claim":
            emit(
                TerritoriesDealt(
                    owners=(-1,) * n,
                    armies=(0,) * n,
                    setup_left=(start,) * n_seats,
                    rng=rng.counter,
                )
            )
            return
        owners = [-1] * n
        territory = self.board.card_territory
        for i, card in enumerate(rng.shuffle(self.all_cards())):
            t = territory(card)
            if t is not None:  # a joker gives no territory
                owners[t] = i % n_seats
        counts = [owners.count(s) for s in range(n_seats)]
        emit(
            TerritoriesDealt(
                owners=tuple(owners),
                armies=(1,) * n,
                setup_left=tuple(start - c for c in counts),
                rng=rng.counter,
            )
        )

    # ------------------------------------------------------------------ cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """CL-10 with DEC-08 and DEC-09."""
        if len(cards) != 3:
            return None
        symbols = [self.board.card_symbols[c] for c in cards]
        jokers = symbols.count("joker")
        plain = [s for s in symbols if s != "joker"]
        extended = state.options.get("joker_sets", "extended") == "extended"
        if jokers == 0:
            if len(set(plain)) == 1:
                return TRIPLE_VALUES[str(state.options.get("set_values", "literal"))][plain[0]]
            return 10 if len(set(plain)) == 3 else None
        if jokers == 1:
            if plain[0] == plain[1]:
                return 12
            return 10 if extended else None
        return 12 if extended else None

    def card_bonus_territories(
        self, state: GameState, seat: Seat, cards: Sequence[int]
    ) -> list[int]:
        """CL-11: +2 on each traded card's territory the trader occupies (jokers name none)."""
        territory = self.board.card_territory
        return [t for c in cards if (t := territory(c)) is not None and state.owner[t] == seat]

    # ------------------------------------------------------------------ combat and moves
    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """CL-21/DEC-12: no attack on a player's last territory during the protected rounds."""
        if state.round > int(state.options.get("protected_rounds", 4)):
            return None  # (the usual case, decided here: the bots ask it of every attack)
        return self.target_error(state, seat, target)

    def target_error(self, state: GameState, seat: Seat, target: int) -> RuleError | None:
        """CL-21/DEC-12: a player's last territory is not to be invaded during the protected
        rounds, whatever the moment of the turn (so `risk odds` refuses it as the attack does,
        and the not_adjacent hint leaves it out)."""
        defender = state.owner[target]
        if state.round > int(state.options.get("protected_rounds", 4)):
            return None
        if state.players[defender].neutral:
            return None
        if state.owner.count(defender) == 1:
            return RuleError(
                "protected",
                f"{state.players[defender].name} cannot be eliminated before the end of round "
                f"{state.options.get('protected_rounds', 4)}: "
                f"{self.board.name(target)} is their last territory.",
            )
        return None

    def step_unfinished(self, state: GameState, seat: Seat) -> bool:
        """CL-12, CL-20/DEC-13: a free move or ``end`` before the forced trade (of the cards
        taken too) or the last army placed is refused with what is due, as an attack is."""
        if state.phase not in ("reinforce", "elim_trade"):
            return False
        return state.reserve > 0 or self.must_trade(state, seat)

    def fortify_mode(self, state: GameState) -> str:
        return str(state.options.get("fortify", "adjacent"))  # CL-19, or the CORE-19 path

    def elimination_forced_trade(self, state: GameState) -> bool:
        return bool(state.options.get("elimination_forced_trade", True))  # DEC-13

    # ------------------------------------------------------------------ victory
    def mission(self, state: GameState, seat: Seat) -> Mission | None:
        mid = state.players[seat].mission
        return None if mid is None else self._missions[mid]

    @property
    def missions_by_id(self) -> dict[str, Mission]:
        return {m.id: m for m in self.board.missions}

    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """Mission groups and the colour to destroy steer the bot's targets (CL-22)."""
        m = self.mission(state, seat)
        if m is None:
            return NO_GOALS
        victim = None
        if m.destroy is not None:  # (no search for the other missions: asked every decision)
            victim = next(
                (
                    i
                    for i, p in enumerate(state.players)
                    if p.colour == m.destroy and i != seat and not p.eliminated
                ),
                None,
            )
        known = self._goals.get(m.id)
        if known is not None and known.victim == victim:
            return known
        gi = self.board.group_index
        goals = BotGoals(
            groups=frozenset(gi[g] for g in m.groups), extra_groups=m.extra_groups, victim=victim
        )
        self._goals[m.id] = goals  # the same mission and victim give the same goals
        return goals

    def winner(self, state: GameState) -> GameWon | None:
        """CL-22 with the DEC-14 timing: CORE asks after every command about the seat to move
        (so a waiting player's objective counts when its turn starts); option
        ``objective_check=any_time`` then asks about every other live seat, in turn order."""
        if state.turn == 0 or state.phase in ("final", "over") or not self._core_seats:
            won = super().winner(state)
            if won is not None or state.turn == 0 or state.phase in ("final", "over"):
                return won
        else:  # ``RuleSet.winner`` written out (asked after most conquests): the same answers
            alive = -1  # the one live seat; -2 once a second one is found
            for i, p in enumerate(state.players):
                if not p.neutral and not p.eliminated:
                    if alive != -1:
                        alive = -2
                        break
                    alive = i
            if alive != -2:
                return super().winner(state)  # the last one standing: the game ends
            seat = state.current
            if self.mission_done(state, seat):
                return GameWon(seat=seat, reason="mission", mission=state.players[seat].mission)
        if state.options.get("objective_check", "own_turn") != "any_time":
            return None
        n = len(state.players)
        for step in range(1, n):
            seat = (state.current + step) % n
            if not state.players[seat].eliminated and self.mission_done(state, seat):
                return GameWon(seat=seat, reason="mission", mission=state.players[seat].mission)
        return None

    def _armies_may_win(self, state: GameState) -> bool:
        army_missions = self._army_missions
        if not army_missions:
            return False
        if state.options.get("objective_check", "own_turn") != "any_time":
            # Only the seat to move's objective is asked (DEC-14 ``own_turn``); another's is
            # asked when its turn starts, and a turn's start is always watched.
            return state.players[state.current].mission in army_missions
        return any(p.mission in army_missions for p in state.players)

    def mission_done(self, state: GameState, seat: Seat) -> bool:
        """CL-22: whether ``seat``'s objective is met now (when to ask: DEC-14, ``winner``)."""
        mid = state.players[seat].mission
        if mid is None:
            return False
        m = self._missions[mid]
        owner = state.owner
        territories = m.territories
        if m.destroy is not None:
            colour = m.destroy
            for i, target in enumerate(state.players):  # the first seat of that colour
                if target.colour == colour:
                    if i != seat:
                        if not target.eliminated:
                            return False
                        if target.eliminated_by == seat:
                            return True
                    break
            territories = m.fallback_territories  # absent, yourself, or destroyed by another
        if territories:
            held = owner.count(seat)
            least = m.min_armies
            if least > 1 and held >= territories:  # (fewer owned: fewer strong enough too)
                armies = state.armies
                spare = held - territories  # own territories that may fall short of ``least``
                for t, o in enumerate(owner):
                    if o == seat and armies[t] < least:
                        spare -= 1
                        if spare < 0:  # too many short: the count cannot be met
                            return False
            elif held < territories:
                return False
        for t in self._mission_territories[mid]:  # every territory of the groups named
            if owner[t] != seat:
                return False
        if not m.extra_groups:
            return True
        required = self._mission_groups[mid]
        others = 0
        for g, ts in enumerate(self.board.group_members):
            if g not in required:
                for t in ts:
                    if owner[t] != seat:
                        break
                else:
                    others += 1
        return others >= m.extra_groups


plain_winner_hooks(Classic.winner, Classic.mission_done)


class ClassicConquest(Classic):
    """CLASSIC-CONQUEST: no missions, global escalating trade values, own all 42 to win."""

    name = "classic-conquest"
    title = "Classic world conquest, escalating card values (3–6 players)"
    options: ClassVar[dict[str, Option]] = {
        "setup": Classic.options["setup"],
        **COMMON_OPTIONS,
    }
    uses_missions = False

    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """CL-CQ-02/03: any 2 cards + a joker is a set; the k-th set of the game is worth…"""
        if len(cards) != 3:
            return None
        symbols = [self.board.card_symbols[c] for c in cards]
        if "joker" not in symbols and len(set(symbols)) == 2:
            return None
        return escalating_value(state.trades + 1)

    def card_bonus_territories(
        self, state: GameState, seat: Seat, cards: Sequence[int]
    ) -> list[int]:
        return super().card_bonus_territories(state, seat, cards)  # CL-CQ-05: CL-11 applies


def escalating_value(k: int) -> int:
    """CL-CQ-02: 4, 6, 8, 10, 12, 15, 20, 25, then +5 for every further set."""
    table = (4, 6, 8, 10, 12, 15, 20, 25)
    return table[k - 1] if k <= len(table) else 25 + 5 * (k - len(table))


class AllyReserve(FamilyState, frozen=True):
    """Classic-2p: the ally's armies still to place in this turn's ``ally_place`` step."""

    ally_reserve: int = 0


class Classic2P(Classic):
    """CLASSIC-2P: two players and the allied neutral army (CL-2P-*)."""

    name = "classic-2p"
    phases: ClassVar[dict[str, str]] = {**Classic.phases, **ALLY_PLACE}
    family_state = AllyReserve
    title = "Classic Risk for 2 players with an allied neutral army"
    min_players = 2
    max_players = 2
    uses_missions = False
    options: ClassVar[dict[str, Option]] = {
        **{k: v for k, v in COMMON_OPTIONS.items()},
        **SET_VALUE_OPTIONS,
        "ally_can_attack": Option(
            default=True,
            doc="DEC-10: on your turn you may attack your opponent from ally territories "
            "(false: the ally only defends).",
        ),
        "ally_income_base": Option(
            default="all",
            choices=("all", "territories"),
            doc="DEC-11: the ally gets half of everything the mover received (all), or half of "
            "the territory and continent income only.",
        ),
    }
    ALLY_ARMIES = 28
    PLAYER_ARMIES = 40
    CARDS_EACH = 14

    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        seats = super().seats_for(players)
        names = {s.name for s in seats}
        ally = "Ally" if "Ally" not in names else "Allied army"
        return [*seats, SeatInfo(name=ally, colour=COLOURS[2], neutral=True)]

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> AllyReserve:
        """Nothing to set: the ally's armies still to place (``ally_reserve``) exist only in a
        turn's ``ally_place`` step, which the scenario's turn reaches by itself (CL-2P-04)."""
        raise SetupError(
            "bad_scenario",
            f"{self.name} has no [family] facts to set: the ally's share is worked out when "
            "the mover's reinforcements are placed (CL-2P-04).",
        )

    def starting_armies(self, state: GameState) -> int:
        return self.PLAYER_ARMIES

    def deal_territories(self, state: GameState, emit: Emit) -> None:
        """CL-2P-02: jokers out, 14 cards each, the other 14 territories to the ally (2 each)."""
        n = self.n_territories
        rng = Rng(state.seed, state.rng)
        cards = rng.shuffle(list(range(n)))
        owners = [2] * n
        armies = [2] * n
        for i, card in enumerate(cards[: 2 * self.CARDS_EACH]):
            owners[card] = i % 2
            armies[card] = 1
        left = self.PLAYER_ARMIES - self.CARDS_EACH
        emit(
            TerritoriesDealt(
                owners=tuple(owners),
                armies=tuple(armies),
                setup_left=(left, left, 0),
                rng=rng.counter,
            )
        )

    def after_reinforce_phase(self, state: GameState) -> Phase:
        """CL-2P-04 with DEC-11: the ally receives half of the mover's reinforcements (none
        once it holds no territory: CL-2P-08, the game goes on without it)."""
        if state.players[2].eliminated or 2 not in state.owner:
            return "attack"
        if state.options.get("ally_income_base") == "territories":
            _, base, groups = self.income(state, state.current)
            share = (base + self.group_bonus(groups)) // 2
        else:
            share = state.received // 2
        if share <= 0:
            return "attack"
        state.family = AllyReserve(ally_reserve=share)
        return "ally_place"

    def ally_reserve(self, state: GameState) -> int:
        family: AllyReserve = state.family
        return family.ally_reserve

    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        return {"ally_reserve": self.ally_reserve(state)}

    def to_act(self, state: GameState) -> Seat:
        """CL-2P-04: the mover's opponent places the ally's armies."""
        if state.phase == "ally_place":
            return self.opponent(state, state.current)
        return super().to_act(state)

    def _place_2p(self, state: GameState, cmd: Place, emit: Emit) -> None:
        if state.phase != "ally_place":
            self._place(state, cmd, emit)
            return
        t = self.territory(cmd.territory)
        if cmd.count < 1:
            raise RuleError("bad_count", "Place at least 1 army.")
        ally = state.owner[t]
        if ally < 0 or not state.players[ally].neutral:
            raise RuleError("not_owner", f"{self.board.name(t)} is not an ally territory.")
        reserve = self.ally_reserve(state)
        if cmd.count > reserve:
            raise RuleError("not_enough_armies", f"The ally has only {reserve} armies to place.")
        emit(AllyPlaced(seat=cmd.seat, territory=cmd.territory, count=cmd.count))

    def _on_ally_placed(self, state: GameState, ev: AllyPlaced) -> None:
        state.armies[self.board.index[ev.territory]] += ev.count
        left = self.ally_reserve(state) - ev.count
        state.family = AllyReserve(ally_reserve=left)
        if left == 0:
            state.phase = "attack"

    def army_change(self, before: GameState, ev: Event) -> int:
        if isinstance(ev, AllyPlaced):
            return ev.count
        return super().army_change(before, ev)

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """CL-2P-04: the ally's share opens with the mover's last placement, and shrinks only
        by the ally's placements."""
        was, now = self.ally_reserve(before), self.ally_reserve(after)
        if isinstance(ev, AllyPlaced):
            expected = was - ev.count
        elif was == 0 and after.phase == "ally_place":
            expected = now  # the share just opened
        else:
            expected = was
        if now != expected or now < 0:
            return [f"ally reserve {was} -> {now} on {type(ev).__name__}"]
        return []

    def auto_step(self, state: GameState, emit: Emit) -> bool:
        """A standing policy answers for the opponent (never for the mover) in ally_place."""
        seat = self.to_act(state)
        if state.phase != "ally_place" or state.players[seat].policy != "auto":
            return False
        self.auto_place_ally(state, emit)
        return True

    def attacker_owns(self, state: GameState, seat: Seat, origin: int) -> bool:
        owner = state.owner[origin]
        if owner == seat:
            return True
        return bool(state.options.get("ally_can_attack")) and state.players[owner].neutral

    def defender_of(self, state: GameState, target: int) -> Seat:
        """CL-2P-05: the opponent rolls the ally's defence."""
        owner = state.owner[target]
        return self.opponent(state, state.current) if state.players[owner].neutral else owner

    def eliminator(self, state: GameState, target: int) -> Seat:
        """CL-2P-07: the ally never holds cards; its conquest is the mover's, who takes the
        loser's cards."""
        owner = state.owner[target]
        return state.current if state.players[owner].neutral else owner

    def auto_place_ally(self, state: GameState, emit: Emit) -> None:
        """Standing policy: all on the weakest ally territory bordering the mover."""
        mover = state.current
        ally = [t for t, o in enumerate(state.owner) if state.players[o].neutral]
        facing = [t for t in ally if any(state.owner[n] == mover for n in self.board.neighbours[t])]
        pool = facing or ally
        best = min(pool, key=lambda t: (state.armies[t], t))
        emit(
            AllyPlaced(
                seat=self.to_act(state),
                territory=self.board.territories[best].id,
                count=self.ally_reserve(state),
            )
        )

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """The ally is the bot's buffer: strengthen the ally territory most exposed to the
        mover (``reading``: the greedy bot's read of the board)."""
        reserve = self.ally_reserve(state)
        if state.phase != "ally_place" or reserve <= 0:
            return None
        mover, owner, armies, nbrs = state.current, state.owner, state.armies, reading.nbrs
        ally = [t for t, o in enumerate(owner) if o >= 0 and state.players[o].neutral]
        if not ally:
            return None
        best, best_key = ally[0], (float("-inf"), -1)
        for t in ally:
            pressure = sum(armies[n] for n in nbrs[t] if owner[n] == mover)
            shields = sum(1 for n in nbrs[t] if owner[n] == seat)
            score = (pressure - armies[t] + 2.0 * shields) if pressure else -1000.0
            key = (score, reading.tie(t))
            if key > best_key:
                best, best_key = t, key
        return Place(seat=seat, territory=self.board.territories[best].id, count=reserve)

    def _legal_ally(self, state: GameState, seat: Seat) -> Iterator[Command]:
        ids = self.board.territories
        reserve = self.ally_reserve(state)
        for t, o in enumerate(state.owner):
            if o >= 0 and state.players[o].neutral:
                for k in range(1, reserve + 1):
                    yield Place(seat=seat, territory=ids[t].id, count=k)

    def _moves_ally(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        """``_legal_ally`` with the count as a range (issue 14)."""
        ids = self.board.territories
        reserve = self.ally_reserve(state)
        if reserve < 1:
            return
        for t, o in enumerate(state.owner):
            if o >= 0 and state.players[o].neutral:
                place = Place(seat=seat, territory=ids[t].id, count=1)
                yield LegalMove(command=place, field="count", low=1, high=reserve)

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Place: _place_2p,
    }
    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        AllyPlaced: _on_ally_placed,
    }
    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "ally_place": _legal_ally,
    }
    LEGAL_RUNS: ClassVar[
        dict[Callable[..., Iterator[Command]], Callable[..., Iterator[LegalMove]]]
    ] = {**RuleSet.LEGAL_RUNS, _legal_ally: _moves_ally}
