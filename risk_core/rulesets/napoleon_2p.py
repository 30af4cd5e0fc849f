"""Risk Napoléon for two players (rulebook 000 l.405–516, 001 l.25–40): NAP-2P, NAP-2PP, NAP-2PA.

Seats 0 and 1 are the players; seats 2–5 are the four independent armies (``neutral`` seats,
named after the colours the players do not use).  The basic Napoléon rules apply (NAP-2P-08):
Golden Cavalry track, forced trades (DEC-02/03), maneuver along own territories, one card per
turn with a conquest.  The game is won by eliminating the opponent (NAP-2P-01).

Setup (NAP-2P-02..07): jokers out, 10 territory cards to each player and 7 to each independent
(dealt round-robin from seat 0), one regiment on each; all 50 cards reshuffled into the pile.
A die decides who places first; then placement turns alternate (DEC-17, option
``setup_chunk`` = ``OWN/INDEPENDENT``, default ``3/2``): the placing player places
``min(3, own left)`` of its regiments and then ``min(2, left)`` for each independent with
stock, in ``Place`` commands of any size on territories of that army; a turn with nothing to
place passes.  Another die decides who plays first.

Option ``independents``:

* ``passive`` (NAP-2PP): independents never act; the opponent chooses the defence dice of an
  attacked independent (``ask`` policy → ``defend`` phase, else automatic).
* ``active`` (NAP-2PA): each independent is neutral or allied to a player
  (``Independents.ally_of``).
  A turn goes through these phases:

  ``influence``       give cards (``GiveCard``), each one step toward you; ``EndPhase`` or any
                      reinforcement command closes it (skipped when no gift is possible);
  ``reinforce``       own reinforcements, as basic;
  ``ally_reinforce``  once your own are placed, one ally at a time (NAP-2PA-06, 000 l.481):
                      ``ReinforceAlly`` rolls that ally's die at once; ``EndPhase`` skips the
                      allies left (skipped when you have no ally, and once each has had its die);
  ``ally_place``      place that ally's rolled regiments (all of them) on its territories, then
                      back to ``ally_reinforce``;
  ``attack``          attack with own or allied regiments; ``Fortify`` is your own maneuver,
                      ``AllyManeuver`` skips it, ``EndTurn`` skips every maneuver;
  ``ally_maneuver``   one ``AllyManeuver`` per ally; ``EndPhase`` ends the turn.

  An invasion (000 l.306) is every battle against one target, from any origin (l.355), own or
  allied.  It ends when the target falls (after the move-in), when no territory can go on
  attacking it, when you attack another target, or when you end your attacks (``Fortify``,
  ``AllyManeuver``, ``EndTurn``).  Then one status die is rolled for each independent that
  attacked or was attacked in it (NAP-2PA-09), before the command's other events; a new attack
  from the territory of an ally that leaves you on its die is called off.  Cards are drawn for
  own conquests only (NAP-2PA-13); whoever eliminates an independent, with own or allied
  regiments, takes its cards (NAP-2PA-10), which count for the DEC-03 trade after an
  elimination like a player's.

The commands, the events and the mechanics the 1796 campaign plays in the same way (gifts,
the allies' placements, their maneuver routes, ``EndPhase``) are in
:mod:`~risk_core.rulesets.napoleon_independents`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    Attack,
    BattleFought,
    Command,
    DeckFormed,
    Event,
    FamilyState,
    FirstPlayerChosen,
    Fortify,
    GameStarted,
    GameState,
    LegalMove,
    OptionValue,
    Place,
    PlayerEliminated,
    PositionSet,
    Seat,
    SeatInfo,
    SetupPlaced,
    TerritoriesDealt,
    TerritoryConquered,
    Trade,
    TurnStarted,
)
from risk_core.names import whole_number
from risk_core.rng import Rng
from risk_core.rulesets.allies import ALLY_PLACE, AllyPlaced
from risk_core.rulesets.base import COLOURS, CORE_PHASES, Emit, Option, RuleSet
from risk_core.rulesets.napoleon import NAPOLEON_OPTIONS, Napoleon
from risk_core.rulesets.napoleon_independents import (
    ActiveIndependents,
    AllyManeuver,
    AllyManeuvered,
    AllyManeuversOpened,
    AllyReinforcementRolled,
    AllyReinforcementsEnded,
    CardGiven,
    EndPhase,
    GiveCard,
    InfluenceEnded,
    ReinforceAlly,
    StatusRolled,
)

PLAYER_REGIMENTS = 36  # NAP-2P-02
INDEPENDENT_REGIMENTS = 21
PLAYER_CARDS = 10  # NAP-2P-03
INDEPENDENT_CARDS = 7
INDEPENDENTS = 4
SETUP_CHUNK = "3/2"  # NAP-2P-06 / DEC-17: own / per independent, per placement turn
INFLUENCE_LOCK = 3  # NAP-2PA-04: an independent holding 3 cards takes no more
# Phases an invasion's status dice may wait in (``over``: the opponent fell in that invasion).
COMBAT_PHASES = ("attack", "defend", "occupy", "elim_trade", "over")


class Independents(FamilyState, frozen=True):
    """Napoleon 2P: the independents' allegiance and what is open in the current step.

    Frozen and made of tuples: projectors replace it whole, so state copies share it.
    """

    # Active independents (NAP-2PA-01): per seat, the seat an independent is allied to (None:
    # neutral, and always None for the two players); empty when independents are passive.
    ally_of: tuple[Seat | None, ...] = ()
    # Per seat, regiments still to place in this step: the setup placement turn (DEC-17: the
    # placing player's own chunk, then each independent's) or an ally's rolled reinforcements
    # (NAP-2PA-06).
    quota: tuple[int, ...] = ()
    reinforced: tuple[Seat, ...] = ()  # allies whose die was rolled this turn (NAP-2PA-06)
    maneuvers: tuple[Seat, ...] = ()  # allies whose free maneuver is still open (NAP-2PA-12)
    # NAP-2PA-09: the target of the invasion in progress (None once it has fallen) and the
    # independents whose status die is rolled when that invasion ends.
    invasion: str | None = None
    rolls: tuple[Seat, ...] = ()


def parse_chunk(value: object) -> tuple[int, int] | None:
    """DEC-17: ``"OWN/INDEPENDENT"`` (whole numbers from 1) as a pair, None if malformed."""
    own, sep, independent = str(value).partition("/")
    own, independent = own.strip(), independent.strip()
    first, second = whole_number(own), whole_number(independent)
    if not sep or first is None or second is None:
        return None
    return (first, second) if min(first, second) >= 1 else None


# --------------------------------------------------------------------------- the rule set
class Napoleon2P(ActiveIndependents, Napoleon):
    """NAPOLEON-2P: two players, four independent armies, passive or active."""

    name = "napoleon-2p"
    title = "Risk Napoléon for 2 players with four independent armies"
    phases: ClassVar[dict[str, str]] = {
        **CORE_PHASES,
        **ALLY_PLACE,
        "influence": "give cards to independents, or end the influence step",
        "ally_reinforce": "roll an ally's reinforcement die, or end the allied reinforcements",
        "ally_maneuver": "maneuver the allies, or end the turn",
    }
    family_state = Independents
    # The status die that ends an invasion still belongs to it: a trade of the cards taken from
    # an independent that invasion eliminated stays open (CL-20/NAP-23 with NAP-2PA-09/10).
    trade_window_follow_ups = Napoleon.trade_window_follow_ups | {StatusRolled}
    cli_module = "risk_cli.napoleon_moves"
    min_players = 2
    max_players = 2
    options: ClassVar[dict[str, Option]] = {
        "independents": Option(
            default="passive",
            choices=("passive", "active"),
            doc="NAP-2PP/NAP-2PA: passive independents only block (the opponent rolls their "
            "defence); active ones can be won over with cards, are reinforced, attack and "
            "maneuver for their ally and change sides on a status die after each invasion they "
            "take part in (all the battles against one target).",
        ),
        "setup_chunk": Option(
            default=SETUP_CHUNK,
            doc="DEC-17 (NAP-2P-06): regiments per placement turn as OWN/INDEPENDENT, your own "
            "then each independent's; a stock smaller than its chunk places what is left, an "
            "empty one is skipped, and turns alternate until every stock is empty.",
        ),
        "gift_to_own_ally": Option(
            default=False,
            doc="DEC-18 (active): every card given must move the independent one step toward "
            "you, so none can be given to your own ally (true: allowed, the status stays and "
            "the card counts toward the 3-card lock).",
        ),
        "ally_attacks_ally": Option(
            default=False,
            doc="DEC-19 (active): your allies attack only your opponent, the opponent's allies "
            "and neutral independents (true: also your other allies, reading 'd'autres alliés "
            "(mais d'une couleur différente)' as your own).  Never your territories; your own "
            "regiments never attack your ally; the opponent defends every independent.",
        ),
        **NAPOLEON_OPTIONS,
    }
    elimination_trade_at = 6  # DEC-03, also for an independent's inherited cards
    GIFT_PHASE_TEXT = (
        "Cards are given at the start of your turn, before any reinforcement (NAP-2PA-03)."
    )
    OWN_STEP = "ally_maneuver"
    ALLY_FIRST_TEXT = (
        "Choose an ally to reinforce (its die is rolled at once), or end the allied "
        "reinforcements (NAP-2PA-06)."
    )

    # ------------------------------------------------------------------ seats and state
    def resolve_options(self, given: dict[str, OptionValue]) -> dict[str, OptionValue]:
        """The options, with ``setup_chunk`` checked and written ``OWN/INDEPENDENT`` (DEC-17)."""
        opts = super().resolve_options(given)
        chunk = parse_chunk(opts["setup_chunk"])
        if chunk is None:
            raise SetupError(
                "invalid_option",
                f"Option setup_chunk={opts['setup_chunk']!r} is not OWN/INDEPENDENT, two whole "
                "numbers from 1 (DEC-17), e.g. 3/2.",
            )
        opts["setup_chunk"] = f"{chunk[0]}/{chunk[1]}"
        return opts

    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        """NAP-2P-01: the two players, then the four independents in the unused colours."""
        seats = super().seats_for(players)
        names = {s.name for s in seats}
        used = {s.colour for s in seats}
        for colour in [c for c in COLOURS if c not in used][:INDEPENDENTS]:
            name = colour.capitalize()
            if name in names:
                name = f"{name} independents"
            seats.append(SeatInfo(name=name, colour=colour, neutral=True))
        return seats

    def new_family_state(self, ev: GameStarted) -> Independents:
        n = len(ev.players)
        active = ev.options.get("independents") == "active"
        # NAP-2PA-01: every independent starts neutral.
        return Independents(ally_of=(None,) * n if active else (), quota=(0,) * n)

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> Independents:
        """A scenario's ``[family]``: ``allies = { Green = "Ann", Yellow = "neutral" }``.

        Each independent named (seat number or name) is the ally of a player (name or number)
        or ``"neutral"``; those not named are neutral (NAP-2PA-01).  Allegiances need the option
        ``independents = "active"``: the scenario refuses them otherwise (``check_invariants``).
        Nothing else is set: placement quotas, reinforced allies, open maneuvers, the invasion
        in progress and its pending status dice belong to steps within a turn, and a scenario
        starts a turn; the cards given to an independent are its hand (``[hands]``).
        """
        unknown = sorted(set(data) - {"allies"})
        if unknown:
            raise SetupError(
                "bad_scenario",
                f"{self.name}'s [family] table takes 'allies' only, not {', '.join(unknown)}.",
            )
        try:
            table = msgspec.convert(data.get("allies", {}), dict[str, int | str])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family.allies]: {e}") from None
        ally_of: list[Seat | None] = [None] * len(seats)
        named: set[Seat] = set()
        for key, value in table.items():
            independent = seat(key)
            army = seats[independent].name
            if not seats[independent].neutral or independent in named:
                why = "named twice" if independent in named else "a player, not an independent"
                raise SetupError("bad_scenario", f"[family.allies]: {army} is {why}.")
            named.add(independent)
            if isinstance(value, str) and value.lower() == "neutral":
                continue
            ally = seat(value)
            if seats[ally].neutral:
                raise SetupError(
                    "bad_scenario",
                    f'[family.allies]: {army} can be the ally of a player or "neutral", '
                    f"not of {seats[ally].name}.",
                )
            ally_of[independent] = ally
        return Independents(ally_of=tuple(ally_of), quota=(0,) * len(seats))

    def is_active(self, state: GameState) -> bool:
        return state.options.get("independents") == "active"

    def steps(self, state: GameState) -> Independents:
        steps = state.family
        assert isinstance(steps, Independents), "not a napoleon-2p state"
        return steps

    def replace_steps(self, state: GameState, **changes: Any) -> None:
        state.family = msgspec.structs.replace(self.steps(state), **changes)

    def status(self, state: GameState, seat: Seat) -> Seat | None:
        """The seat independent ``seat`` is allied to (None: neutral, or passive variant)."""
        ally_of = self.steps(state).ally_of
        return ally_of[seat] if ally_of else None

    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """The open step (placement quotas, allied moves) is public, as is every allegiance."""
        steps = self.steps(state)
        shown = {k: v for k, v in msgspec.to_builtins(steps).items() if k != "ally_of"}
        return {"ally_reserve": sum(steps.quota), "independents": shown}

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """NAP-2PA: an independent's cannon on the track is public."""
        if self.is_active(state) and state.players[seat].neutral:
            return {"ally_of": self.status(state, seat)}
        return {}

    def is_independent(self, state: GameState, seat: Seat) -> bool:
        return seat >= 0 and state.players[seat].neutral

    def independents_of(self, state: GameState) -> list[Seat]:
        return [i for i, p in enumerate(state.players) if p.neutral and not p.eliminated]

    def away(self, state: GameState, independent: Seat, seat: Seat) -> Seat | None:
        """NAP-2PA-09: one step away (``seat``'s ally → neutral → opponent's ally, and stays)."""
        return None if self.status(state, independent) == seat else self.opponent(state, seat)

    # ------------------------------------------------------------------ setup
    def starting_armies(self, state: GameState) -> int:
        return PLAYER_REGIMENTS

    def opening(self, state: GameState, emit: Emit) -> None:
        """NAP-2P-03..06: deal the 48 territory cards, form the pile, roll who places first."""
        n_seats, n = len(state.players), self.n_territories
        counts = [INDEPENDENT_CARDS if p.neutral else PLAYER_CARDS for p in state.players]
        rng = Rng(state.seed, state.rng)
        owners = [-1] * n
        left = list(counts)
        seat = 0
        for card in rng.shuffle(list(range(n))):  # jokers are the cards after the territories
            while left[seat] == 0:
                seat = (seat + 1) % n_seats
            owners[card] = seat
            left[seat] -= 1
            seat = (seat + 1) % n_seats
        stock = [INDEPENDENT_REGIMENTS if p.neutral else PLAYER_REGIMENTS for p in state.players]
        emit(
            TerritoriesDealt(
                owners=tuple(owners),
                armies=(1,) * n,
                setup_left=tuple(s - c for s, c in zip(stock, counts, strict=True)),
                rng=rng.counter,
            )
        )
        rng = Rng(state.seed, state.rng)
        deck = rng.shuffle(list(range(len(self.board.card_symbols))))  # NAP-2P-05: jokers back
        emit(DeckFormed(deck=tuple(deck), rng=rng.counter))
        self.choose_first_player(state, emit)  # NAP-2P-06: who places first

    def setup_chunks(self, state: GameState) -> tuple[int, int]:
        """DEC-17: (own, per independent) regiments of a placement turn (option setup_chunk)."""
        chunk = parse_chunk(state.options.get("setup_chunk", SETUP_CHUNK))
        assert chunk is not None, "setup_chunk is checked when the game starts"
        return chunk

    def open_placement_turn(self, state: GameState, seat: Seat) -> None:
        """DEC-17: ``seat``'s placement turn (or the other player's, if ``seat``'s is empty)."""
        own, independent = self.setup_chunks(state)
        for _ in range(2):
            quota = tuple(
                min(independent, left) if p.neutral else (min(own, left) if i == seat else 0)
                for i, (p, left) in enumerate(zip(state.players, state.setup_left, strict=True))
            )
            if any(quota):
                state.current = seat
                state.family = msgspec.structs.replace(self.steps(state), quota=quota)
                return
            seat = self.opponent(state, seat)
        state.family = msgspec.structs.replace(self.steps(state), quota=(0,) * len(state.players))

    def _setup_place(self, state: GameState, seat: Seat, t: int, count: int, emit: Emit) -> None:
        """NAP-2P-06/DEC-17: own regiments first, then each independent's, within the quota."""
        owner = state.owner[t]
        quota = self.steps(state).quota
        if owner != seat and not self.is_independent(state, owner):
            raise RuleError("not_owner", f"{self.board.name(t)} belongs to your opponent.")
        if owner != seat and quota[seat]:
            raise RuleError(
                "place_own_first",
                f"Place your own {quota[seat]} regiments before the independents' (NAP-2P-06).",
            )
        if count > quota[owner]:
            raise RuleError(
                "not_enough_armies",
                f"{state.players[owner].name} has {quota[owner]} more regiments to place in "
                "this placement turn (DEC-17, option setup_chunk).",
            )
        emit(SetupPlaced(seat=owner, territory=self.board.territories[t].id, count=count))

    def _on_setup_placed(self, state: GameState, ev: SetupPlaced) -> None:
        state.armies[self.board.index[ev.territory]] += ev.count
        state.setup_left[ev.seat] -= ev.count
        quota = list(self.steps(state).quota)
        quota[ev.seat] -= ev.count
        state.family = msgspec.structs.replace(self.steps(state), quota=tuple(quota))
        if not any(quota):
            self.open_placement_turn(state, self.opponent(state, state.current))

    def _on_first(self, state: GameState, ev: FirstPlayerChosen) -> None:
        RuleSet._on_first(self, state, ev)
        if state.phase == "setup" and any(state.setup_left):
            self.open_placement_turn(state, ev.seat)

    # ------------------------------------------------------------------ turn start, influence
    def _on_turn_started(self, state: GameState, ev: TurnStarted) -> None:
        state.family = Independents(
            ally_of=self.steps(state).ally_of, quota=(0,) * len(state.players)
        )
        self.begin_turn(state, ev)

    def gift_error(self, state: GameState, seat: Seat, independent: Seat) -> RuleError | None:
        """Why ``seat`` may not give a card to ``independent`` now (NAP-2PA-04, DEC-18)."""
        if not 0 <= independent < len(state.players):
            return RuleError(
                "not_independent",
                f"There is no seat {independent}; the independent armies are "
                f"{', '.join(state.players[i].name for i in self.independents_of(state))}.",
            )
        if not self.is_independent(state, independent):
            return RuleError(
                "not_independent",
                f"{state.players[independent].name} is a player, not an independent army.",
            )
        p = state.players[independent]
        if p.eliminated:
            return RuleError("eliminated", f"{p.name} has been eliminated.")
        if len(p.hand) >= INFLUENCE_LOCK:
            return RuleError(
                "influence_locked",
                f"{p.name} already holds {INFLUENCE_LOCK} cards and cannot be influenced "
                "(NAP-2PA-04).",
            )
        if self.status(state, independent) == seat and not state.options.get("gift_to_own_ally"):
            return RuleError(
                "already_allied",
                f"{p.name} is already your ally: a gift must win it over (DEC-18).",
            )
        return None

    def end_influence(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """Any reinforcement command closes the influence step (NAP-2PA-02: gifts come first)."""
        if state.phase == "influence":
            emit(InfluenceEnded(seat=seat))

    def require_active(self, state: GameState) -> None:
        if not self.is_active(state):
            raise RuleError(
                "passive_independents",
                "Independents are passive in this game: they take no cards, never move and "
                "never attack (NAP-2PP-02/04).",
            )

    # ------------------------------------------------------------------ reinforcements
    def _reinforce_ally(self, state: GameState, cmd: ReinforceAlly, emit: Emit) -> None:
        """NAP-2PA-06 (000 l.481): choose an ally, roll its die, place them; then the next.

        The die is rolled now, so the choice of the next ally is made knowing this one's.
        """
        self.require_active(state)
        seat = cmd.seat
        if state.phase in ("influence", "reinforce"):
            if self.must_trade(state, seat):
                held = len(state.players[seat].hand)
                raise RuleError(
                    "must_trade",
                    f"You hold {held} cards: trade a set first, then place your own regiments; "
                    "allies are reinforced after them (NAP-2PA-02/06).",
                )
            raise RuleError(
                "must_place",
                f"Place your own {state.reserve} regiments first: allies are reinforced after "
                "them (NAP-2PA-02/06).",
            )
        if state.phase == "ally_place":
            raise RuleError(
                "wrong_phase",
                f"Place the {sum(self.steps(state).quota)} regiments already rolled first "
                "(NAP-2PA-06: one ally at a time).",
            )
        if state.phase != "ally_reinforce":
            raise RuleError(
                "wrong_phase",
                "Allies are reinforced right after your own regiments, not in the "
                f"{state.phase} phase (NAP-2PA-06).",
            )
        if not 0 <= cmd.ally < len(state.players):
            raise RuleError("not_ally", f"There is no seat {cmd.ally}.")
        name = state.players[cmd.ally].name
        if cmd.ally not in self.allies(state, seat):
            raise self.not_ally(state, seat, cmd.ally)
        if cmd.ally in self.steps(state).reinforced:
            raise RuleError(
                "already_chosen", f"{name} has had its reinforcement die this turn (NAP-2PA-06)."
            )
        rng = Rng(state.seed, state.rng, state.dice_script)
        face = rng.die()
        emit(
            AllyReinforcementRolled(
                seat=seat, ally=cmd.ally, face=face, rng=rng.counter, scripted=rng.scripted
            )
        )

    def _on_ally_rolled(self, state: GameState, ev: AllyReinforcementRolled) -> None:
        self._consume(state, ev.rng, ev.scripted)
        steps = self.steps(state)
        quota = [0] * len(state.players)
        quota[ev.ally] = ev.face
        state.family = msgspec.structs.replace(
            steps, quota=tuple(quota), reinforced=(*steps.reinforced, ev.ally)
        )
        state.phase = "ally_place"

    def place_for_ally(self, state: GameState, seat: Seat, t: int, count: int, emit: Emit) -> None:
        """NAP-2PA-15: the mover (who acts in ``ally_place``) places its allies' regiments."""
        owner = state.owner[t]
        left = self.steps(state).quota[owner] if self.is_independent(state, owner) else 0
        if not left:
            raise RuleError(
                "not_owner", f"{self.board.name(t)} is not held by an ally you are reinforcing."
            )
        if count > left:
            raise RuleError(
                "not_enough_armies",
                f"{state.players[owner].name} rolled {left} regiments still to place "
                "(NAP-2PA-16: never more than the die shows).",
            )
        emit(AllyPlaced(seat=seat, territory=self.board.territories[t].id, count=count))

    # ------------------------------------------------------------------ combat
    def attacker_owns(self, state: GameState, seat: Seat, origin: int) -> bool:
        """NAP-2PA-07: you attack with your allies' regiments as if they were yours."""
        owner = state.owner[origin]
        return owner == seat or (
            self.is_independent(state, owner) and self.status(state, owner) == seat
        )

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """DEC-19: never against your own ally (nor, by default, one ally against another)."""
        defender = state.owner[target]
        if not self.is_independent(state, defender) or self.status(state, defender) != seat:
            return None
        if state.owner[origin] != seat and state.options.get("ally_attacks_ally"):
            return None
        return RuleError(
            "attack_own_ally",
            f"{self.board.name(target)} is held by your ally {state.players[defender].name} "
            "(DEC-19).",
        )

    def defender_of(self, state: GameState, target: int) -> Seat:
        """NAP-2PP-01/DEC-19: the opponent chooses the defence dice of every independent."""
        owner = state.owner[target]
        return self.opponent(state, state.current) if self.is_independent(state, owner) else owner

    def eliminator(self, state: GameState, target: int) -> Seat:
        """NAP-2PA-10: an ally's conquest is the mover's, who takes the loser's cards."""
        return state.current

    # ------------------------------------------------------------------ invasions (NAP-2PA-09)
    def launch(self, state: GameState, cmd: Attack, o: int, t: int, emit: Emit) -> None:
        """An attack on another target ends the invasion in progress: its status dice first.

        The attack was checked on the position the mover sees, so a refusal never depends on a
        die not yet rolled.  If the origin's army leaves the mover on its die, the attack is
        called off (the command's events are the dice alone).
        """
        steps = self.steps(state)
        if steps.rolls and steps.invasion != self.board.territories[t].id:
            self.roll_status(state, emit)
            if not self.attacker_owns(state, cmd.seat, o):
                return
        super().launch(state, cmd, o, t, emit)

    def _on_battle_2p(self, state: GameState, ev: BattleFought) -> None:
        """A battle belongs to the invasion of its target; its independents (the attacking
        ally, the defending independent) are rolled for when that invasion ends."""
        if self.is_active(state):
            idx = self.board.index
            steps = self.steps(state)
            rolls = list(steps.rolls)
            for seat in (state.owner[idx[ev.origin]], state.owner[idx[ev.target]]):
                if self.is_independent(state, seat) and seat not in rolls:
                    rolls.append(seat)
            state.family = msgspec.structs.replace(steps, rolls=tuple(rolls), invasion=ev.target)
        self._on_battle(state, ev)

    def _on_conquered_2p(self, state: GameState, ev: TerritoryConquered) -> None:
        """The target has fallen: the invasion ends with the move-in (000 l.306)."""
        steps = self.steps(state)
        if steps.invasion is not None:
            state.family = msgspec.structs.replace(steps, invasion=None)
        self._on_conquered(state, ev)

    def _on_eliminated_2p(self, state: GameState, ev: PlayerEliminated) -> None:
        steps = self.steps(state)
        state.family = msgspec.structs.replace(
            steps, rolls=tuple(s for s in steps.rolls if s != ev.seat)
        )
        self._on_eliminated(state, ev)

    def can_invade(self, state: GameState, seat: Seat, target: int) -> bool:
        """Whether ``seat`` may still attack ``target`` from some territory (own or allied)."""
        graph = self.attack_graph(state, seat)
        owner, armies = state.owner, state.armies
        return any(
            target in graph[o]
            and armies[o] >= 2
            and owner[o] != owner[target]
            and self.attacker_owns(state, seat, o)
            and self.attack_error(state, seat, o, target) is None
            for o in range(self.n_territories)
        )

    def invasion_over(self, state: GameState) -> bool:
        """The invasion's target has fallen (and is occupied), or nothing can attack it any more
        (000 l.500: Red invades and loses, then rolls): a placement still due after a trade
        (``may_trade``, ``elim_trade``) could feed it, so it is not over while one is."""
        steps = self.steps(state)
        if state.phase not in ("attack", "elim_trade") or not steps.rolls:
            return False
        if steps.invasion is None:
            return True
        target = self.board.index[steps.invasion]
        return (
            state.phase == "attack"
            and not state.may_trade
            and not self.can_invade(state, state.current, target)
        )

    def settle(self, state: GameState, emit: Emit) -> None:
        """After a command: the status dice of an invasion that is over (NAP-2PA-09)."""
        super().settle(state, emit)
        if self.invasion_over(state):
            self.roll_status(state, emit)
            super().settle(state, emit)

    def roll_status(self, state: GameState, emit: Emit) -> None:
        """NAP-2PA-09: the invasion in progress ends: one die per independent that took part
        (the attacking ally and the independent attacked), in the order they joined it."""
        for independent in self.steps(state).rolls:
            rng = Rng(state.seed, state.rng, state.dice_script)
            face = rng.die()
            emit(
                StatusRolled(
                    seat=state.current,
                    independent=independent,
                    face=face,
                    ally_of=self.away(state, independent, state.current)
                    if face <= 4
                    else self.status(state, independent),
                    rng=rng.counter,
                    scripted=rng.scripted,
                )
            )

    def _on_status_rolled(self, state: GameState, ev: StatusRolled) -> None:
        self._consume(state, ev.rng, ev.scripted)
        self.set_status(state, ev.independent, ev.ally_of)
        steps = self.steps(state)
        rolls = tuple(s for s in steps.rolls if s != ev.independent)
        state.family = msgspec.structs.replace(
            steps, rolls=rolls, invasion=steps.invasion if rolls else None
        )

    def _fortify_2p(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        """Your own maneuver ends your attacks, so the invasion in progress (NAP-2PA-09).

        The maneuver's checks do not depend on allegiances: a refusal tells no die.
        """
        if state.phase == "attack":
            self.roll_status(state, emit)
        self._fortify(state, cmd, emit)

    def end_turn(self, state: GameState, emit: Emit) -> None:
        """Ending the turn ends the invasion in progress, if any (NAP-2PA-09)."""
        self.roll_status(state, emit)
        super().end_turn(state, emit)

    # ------------------------------------------------------------------ maneuvers
    def movable_allies(self, state: GameState, seat: Seat) -> list[Seat]:
        return [a for a in self.allies(state, seat) if next(self.ally_moves(state, a), None)]

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        """NAP-2PA-12: after your own maneuver, one for each ally (if any can move)."""
        allies = self.movable_allies(state, state.current) if self.is_active(state) else []
        if allies:
            emit(AllyManeuversOpened(seat=state.current, allies=tuple(allies)))
        else:
            self.end_turn(state, emit)

    def _on_maneuvers_opened(self, state: GameState, ev: AllyManeuversOpened) -> None:
        state.phase = "ally_maneuver"
        state.family = msgspec.structs.replace(self.steps(state), maneuvers=ev.allies)

    def _ally_maneuver(self, state: GameState, cmd: AllyManeuver, emit: Emit) -> None:
        """NAP-2PA-12; from the attack phase it ends combat (and the invasion in progress,
        NAP-2PA-09) and skips your own maneuver.  Checked on the position you see: an ally that
        leaves you on that status die does not move."""
        self.require_active(state)
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        if state.phase not in ("attack", "ally_maneuver"):
            raise RuleError("wrong_phase", f"Allies cannot maneuver in the {state.phase} phase.")
        ally = state.owner[o]
        if ally not in self.allies(state, seat):
            raise RuleError("not_owner", f"{self.board.name(o)} is not held by one of your allies.")
        if state.owner[t] != ally or o == t:
            raise RuleError(
                "not_owner", f"Move to another territory of {state.players[ally].name}."
            )
        if t not in self.connected_own(state, ally, o):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through "
                f"{state.players[ally].name}'s territories (NAP-2PA-16).",
            )
        if not 1 <= cmd.count <= state.armies[o] - 1:
            raise RuleError(
                "not_enough_armies", self.movable_text(o, state.armies[o] - 1, "regiment")
            )
        if state.phase == "ally_maneuver" and ally not in self.steps(state).maneuvers:
            raise RuleError(
                "maneuver_done",
                f"{state.players[ally].name} has already maneuvered this turn (NAP-2PA-12).",
            )
        if state.phase == "attack":  # combat is over and the own maneuver is skipped
            self.roll_status(state, emit)
            allies = self.movable_allies(state, seat)
            if not allies:
                self.end_turn(state, emit)
                return
            emit(AllyManeuversOpened(seat=seat, allies=tuple(allies)))
            if ally not in allies:
                return
        emit(
            AllyManeuvered(
                seat=seat, ally=ally, origin=cmd.origin, target=cmd.target, count=cmd.count
            )
        )
        if not any(next(self.ally_moves(state, a), None) for a in self.steps(state).maneuvers):
            self.end_turn(state, emit)

    def _on_ally_maneuvered(self, state: GameState, ev: AllyManeuvered) -> None:
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.count
        state.armies[idx[ev.target]] += ev.count
        steps = self.steps(state)
        state.family = msgspec.structs.replace(
            steps, maneuvers=tuple(a for a in steps.maneuvers if a != ev.ally)
        )

    def end_own_step(self, state: GameState, emit: Emit) -> None:
        """``EndPhase`` in ``ally_maneuver``: the allies left do not move; the turn ends."""
        self.end_turn(state, emit)

    def army_change(self, before: GameState, ev: Event) -> int:
        if isinstance(ev, AllyPlaced):
            return ev.count
        return super().army_change(before, ev)

    def check_invariants(self, state: GameState) -> list[str]:
        """Quotas are never negative; allegiances exist only for active independents; status
        dice wait only within combat (NAP-2PA-09: an invasion never outlives the attacks)."""
        steps = self.steps(state)
        problems = [f"negative quota {steps.quota}"] if min(steps.quota, default=0) < 0 else []
        for seat, ally in enumerate(steps.ally_of):
            if ally is not None and not (state.players[seat].neutral and 0 <= ally < 2):
                problems.append(f"seat {seat} allied to {ally}")
        if steps.ally_of and not self.is_active(state):
            problems.append('allegiances with passive independents (option independents="active")')
        if steps.rolls and state.phase not in COMBAT_PHASES:
            problems.append(f"status dice {steps.rolls} pending in the {state.phase} phase")
        return problems

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """NAP-2PA-03/09: an independent changes sides only on a gift or a status die."""
        if self.steps(before).ally_of == self.steps(after).ally_of:
            return []
        if isinstance(ev, CardGiven | StatusRolled | PositionSet):
            return []
        return [f"allegiances changed by {type(ev).__name__}"]

    # ------------------------------------------------------------------ the greedy bot
    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """NAP-2P: placement-turn quotas, gifts, allied reinforcements (every ally's die, one
        after the other: they cost nothing); None: the usual play.

        ``reading`` is the greedy bot's read of the board (``risk_core.bots.Greedy``).
        """
        phase = state.phase
        quota = self.steps(state).quota
        ids = reading.ids
        if phase == "setup" and quota[seat]:  # own regiments first (NAP-2P-06)
            spot = reading.placement_spot(quota[seat])
            return Place(seat=seat, territory=ids[spot], count=quota[seat])
        if phase in ("setup", "ally_place"):  # independents: block the opponent
            army = next((a for a, left in enumerate(quota) if left), None)
            if army is None:
                return None
            spot = self.buffer_spot(state, army, self.opponent(state, seat), reading.tie)
            return Place(seat=seat, territory=ids[spot], count=quota[army])
        if phase == "ally_maneuver":
            return EndPhase(seat=seat)
        if phase == "ally_reinforce":
            pending = self.unreinforced(state)
            return ReinforceAlly(seat=seat, ally=pending[0]) if pending else EndPhase(seat=seat)
        if phase != "influence":
            return None
        hand = state.players[seat].hand
        if len(hand) >= 4:  # a spare card buys an independent
            keep = set(reading.best_set() or ())
            spare = [c for c in hand if c not in keep] or hand
            takers = [
                i for i in self.independents_of(state) if self.gift_error(state, seat, i) is None
            ]
            if takers:
                strongest = max(takers, key=lambda i: (reading.counts[i], i))
                return GiveCard(seat=seat, independent=strongest, card=min(spare))
        cmd: Command | None = reading.reinforce()
        return cmd or EndPhase(seat=seat)

    def buffer_spot(
        self, state: GameState, army: Seat, opponent: Seat, tie: Callable[[int], int]
    ) -> int:
        """The territory of ``army`` (an independent) facing the most of ``opponent``'s."""
        owner, armies, nbrs = state.owner, state.armies, self.board.neighbours
        best, best_key = -1, (float("-inf"), -1)
        for t, o in enumerate(owner):
            if o == army:
                pressure = sum(armies[n] for n in nbrs[t] if owner[n] == opponent)
                key = (pressure - 0.5 * armies[t], tie(t))
                if key > best_key:
                    best, best_key = t, key
        return best

    # ------------------------------------------------------------------ legal commands
    def _legal_setup_2p(self, state: GameState, seat: Seat) -> Iterator[Command]:
        quota = self.steps(state).quota
        ids = self.board.territories
        armies = [seat] if quota[seat] else [i for i in range(len(quota)) if i != seat and quota[i]]
        for army in armies:
            for t in self.territories_of(state, army):
                for k in range(1, quota[army] + 1):
                    yield Place(seat=seat, territory=ids[t].id, count=k)

    def _legal_influence(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_gifts(state, seat)
        yield from self._legal_reinforce(state, seat)

    def _legal_ally_place(self, state: GameState, seat: Seat) -> Iterator[Command]:
        quota = self.steps(state).quota
        ids = self.board.territories
        for t, owner in enumerate(state.owner):
            if self.is_independent(state, owner):
                for k in range(1, quota[owner] + 1):
                    yield Place(seat=seat, territory=ids[t].id, count=k)

    def _legal_ally_moves(self, state: GameState, allies: Sequence[Seat]) -> Iterator[Command]:
        return (cmd for move in self._moves_ally(state, allies) for cmd in move.commands())

    def _legal_attack_2p(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_attack(state, seat)
        if self.is_active(state):
            yield from self._legal_ally_moves(state, self.movable_allies(state, seat))

    def _legal_ally_maneuver(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_ally_moves(state, self.steps(state).maneuvers)
        yield EndPhase(seat=seat)

    # The allies' maneuvers as runs of counts (issue 14): their cost does not grow with the
    # armies; ``_legal_ally_moves`` is their expansion.
    def _moves_ally(self, state: GameState, allies: Sequence[Seat]) -> Iterator[LegalMove]:
        ids = self.board.territories
        for ally in allies:
            for o, t in self.ally_moves(state, ally):
                if state.armies[o] > 1:
                    move = AllyManeuver(
                        seat=state.current, origin=ids[o].id, target=ids[t].id, count=1
                    )
                    yield LegalMove(command=move, field="count", low=1, high=state.armies[o] - 1)

    def _moves_attack_2p(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        yield from self._moves_attack(state, seat)
        if self.is_active(state):
            yield from self._moves_ally(state, self.movable_allies(state, seat))

    def _moves_ally_maneuver(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        yield from self._moves_ally(state, self.steps(state).maneuvers)
        yield LegalMove(command=EndPhase(seat=seat))

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Place: ActiveIndependents._place_after_influence,
        Trade: ActiveIndependents._trade_after_influence,
        Fortify: _fortify_2p,
        GiveCard: ActiveIndependents._give,
        ReinforceAlly: _reinforce_ally,
        AllyManeuver: _ally_maneuver,
        EndPhase: ActiveIndependents._end_phase,
    }
    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        FirstPlayerChosen: _on_first,
        SetupPlaced: _on_setup_placed,
        TurnStarted: _on_turn_started,
        AllyPlaced: ActiveIndependents._on_ally_placed,
        BattleFought: _on_battle_2p,
        TerritoryConquered: _on_conquered_2p,
        PlayerEliminated: _on_eliminated_2p,
        CardGiven: ActiveIndependents._on_card_given,
        InfluenceEnded: ActiveIndependents._on_influence_ended,
        AllyReinforcementRolled: _on_ally_rolled,
        AllyReinforcementsEnded: ActiveIndependents._on_ally_reinforcements_ended,
        StatusRolled: _on_status_rolled,
        AllyManeuversOpened: _on_maneuvers_opened,
        AllyManeuvered: _on_ally_maneuvered,
    }
    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "setup": _legal_setup_2p,
        "influence": _legal_influence,
        "ally_reinforce": ActiveIndependents._legal_ally_reinforce,
        "ally_place": _legal_ally_place,
        "attack": _legal_attack_2p,
        "ally_maneuver": _legal_ally_maneuver,
    }
    LEGAL_RUNS: ClassVar[
        dict[Callable[..., Iterator[Command]], Callable[..., Iterator[LegalMove]]]
    ] = {
        **RuleSet.LEGAL_RUNS,
        _legal_attack_2p: _moves_attack_2p,
        _legal_ally_maneuver: _moves_ally_maneuver,
    }
