"""Risk Napoléon for two teams (rulebook 000, NAP-TEAM-*): 4 or 6 players, first elimination wins.

Seats alternate teams around the table (NAP-TEAM-01): seat ``i`` plays for team ``i % 2``.
Teammates never attack each other (NAP-TEAM-08) and may move regiments into and through each
other's territories (NAP-TEAM-09), so a territory can hold the regiments of several teammates.
Such a territory is kept in the family state's ``stacks`` (seat -> regiments); ``owner`` is then its
controller, the seat with strictly the most regiments, or -1 when the most are tied: nobody
controls it (NAP-TEAM-04).  Income counts controlled territories only and an empire's bonus goes
to a single controller of all of it (NAP-TEAM-05/06).  Card sets are worth the fixed 4/6/8/10
(NAP-TEAM-07); the team shares one hand, passed at the end of a turn to the teammate who plays
next (NAP-TEAM-10).  As soon as a player is eliminated, the other team wins (NAP-TEAM-02/11).

Mixed territories follow DEC-20: reinforcements go only where the player has control (option
``place_on_shared``: anywhere he has regiments); a player attacks from a territory with at
least 2 of his own regiments, one of which stays; the defending team picks whose regiments
defend each battle (``DesignateDefender``; by default the member with most regiments there),
losses come from that member, and the territory falls only when no regiment of the defending
team is left; a player may move all his regiments out of a territory a teammate still holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    ArmiesPlaced,
    Attack,
    BattleFought,
    CardsTraded,
    Command,
    EndTurn,
    Event,
    FamilyState,
    Fortified,
    Fortify,
    GameState,
    GameWon,
    LegalMove,
    Occupied,
    PendingAttack,
    PendingOccupation,
    Place,
    PlayerEliminated,
    Seat,
    SeatInfo,
    TerritoryConquered,
    TurnEnded,
    command,
    event,
)
from risk_core.rulesets.base import (
    Emit,
    Option,
    RuleSet,
    dice_count_error,
    stop_at_low_text,
    stop_at_text,
)
from risk_core.rulesets.napoleon import NAPOLEON_CARD_OPTIONS, Napoleon
from risk_core.rulesets.napoleon_mission import fixed_set_value

TEAMS = 2
PLAYER_COUNTS = (4, 6)  # NAP-TEAM-01: 2 v 2 or 3 v 3


class Stacks(FamilyState, frozen=True):
    """NAP-TEAM-04: territory -> seat -> regiments, only for territories holding the regiments
    of several teammates.  Replaced whole, never mutated, so state copies share it."""

    stacks: dict[int, dict[int, int]] = {}


def stacks_of(state: GameState) -> dict[int, dict[int, int]]:
    """The territories shared by teammates (read-only: projectors replace the whole dict)."""
    family: Stacks = state.family
    return family.stacks


@command
class DesignateDefender(Command, frozen=True, tag="designate_defender"):
    """DEC-20: the asked defender hands this battle's defence to a teammate in the territory."""

    member: Seat


@event
class DefenderDesignated(Event, frozen=True, tag="defender_designated"):
    seat: Seat  # the teammate who was asked
    member: Seat  # the teammate whose regiments defend this battle


@event
class HandPassed(Event, frozen=True, tag="hand_passed"):
    """NAP-TEAM-10: the team's cards go to the teammate who plays next."""

    seat: Seat
    to: Seat
    cards: tuple[int, ...]
    team: tuple[Seat, ...]  # every seat of the team: who may see the cards

    @staticmethod
    def redact(d: dict[str, Any], seat: Seat | None) -> None:
        d["card_count"] = len(d["cards"])
        if seat not in d["team"]:
            d["cards"] = None


TEAM_OPTIONS: dict[str, Option] = {
    # Fixed set values (no DEC-01 track); the first elimination ends the game (no DEC-03).
    **{k: v for k, v in NAPOLEON_CARD_OPTIONS.items() if k != "elimination_trade_at"},
    "place_on_shared": Option(
        default=False,
        doc="DEC-20: reinforcements go only on territories you control (false), or also on a "
        "territory shared with teammates where you have regiments but no control (true).",
    ),
}


class NapoleonTeams(Napoleon):
    """NAPOLEON-TEAMS: two alternating teams, shared territories and hand."""

    name = "napoleon-teams"
    title = "Risk Napoléon for two teams: first to eliminate an opponent (4 or 6 players)"
    min_players = 4
    max_players = 6
    options: ClassVar[dict[str, Option]] = dict(TEAM_OPTIONS)
    family_state = Stacks
    cli_module = "risk_cli.napoleon_moves"

    # ------------------------------------------------------------------ teams and stacks
    def allows_players(self, n: int) -> bool:
        return n in PLAYER_COUNTS

    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        if len(players) not in PLAYER_COUNTS:
            raise SetupError(
                "bad_players",
                f"{self.name} is for 4 or 6 players in two teams, not {len(players)}.",
            )
        return super().seats_for(players)

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> Stacks:
        """A scenario's ``[family]``: ``[family.stacks] paris = { Ann = 3, Cy = 2 }``.

        Each territory named holds the regiments of two or more teammates (NAP-TEAM-04), at
        least one each.  It may be left out of ``[territories]``: its armies are the stack's
        total and its owner the seat with strictly the most, nobody on a tie (the scenario
        works them out; listed anyway, they must agree).
        """
        unknown = sorted(set(data) - {"stacks"})
        if unknown:
            raise SetupError(
                "bad_scenario",
                f"{self.name}'s [family] table takes 'stacks' only, not {', '.join(unknown)}.",
            )
        try:
            table = msgspec.convert(data.get("stacks", {}), dict[str, dict[str, int]])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family.stacks]: {e}") from None
        stacks: dict[int, dict[int, int]] = {}
        for key, refs in table.items():
            t = self.board.find(key)
            name = self.board.name(t)
            units = {seat(ref): n for ref, n in refs.items()}
            if t in stacks or len(units) != len(refs):
                raise SetupError("bad_scenario", f"[family.stacks]: {name} is given twice.")
            if len(units) < 2 or min(units.values()) < 1:
                raise SetupError(
                    "bad_scenario",
                    f"[family.stacks]: {name} needs two or more teammates with at least 1 "
                    "regiment each (one seat's territory goes in [territories]).",
                )
            if len({s % TEAMS for s in units}) > 1:
                who = ", ".join(seats[s].name for s in units)
                raise SetupError(
                    "bad_scenario",
                    f"[family.stacks]: {who} are not one team (seats alternate teams, "
                    f"NAP-TEAM-01): enemies never share {name}.",
                )
            stacks[t] = dict(sorted(units.items()))
        return Stacks(stacks=dict(sorted(stacks.items())))

    def team_of(self, state: GameState, seat: Seat) -> int:
        return seat % TEAMS  # NAP-TEAM-01: teams alternate around the table

    def teammates(self, state: GameState, seat: Seat) -> list[Seat]:
        """``seat`` and its teammates, in seat order."""
        return list(range(seat % TEAMS, len(state.players), TEAMS))

    def occupants(self, state: GameState, t: int) -> Mapping[Seat, int]:
        stack = stacks_of(state).get(t)
        if stack is not None:
            return stack
        return super().occupants(state, t)

    def units(self, state: GameState, seat: Seat, t: int) -> int:
        """Regiments of ``seat`` in ``t``."""
        stack = stacks_of(state).get(t)
        if stack is not None:
            return stack.get(seat, 0)
        return state.armies[t] if state.owner[t] == seat else 0

    def usable_armies(self, state: GameState, seat: Seat) -> list[int]:
        return [self.units(state, seat, t) for t in range(self.n_territories)]

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """NAP-TEAM-08: never a teammate's territory (what ``_attack`` refuses, told to the
        bots that ask before they choose)."""
        if self.side(state, target) == seat % TEAMS:
            return RuleError(
                "teammate", f"{self.board.name(target)} belongs to your team (NAP-TEAM-08)."
            )
        return super().attack_error(state, seat, origin, target)

    def side(self, state: GameState, t: int) -> int | None:
        """The team with regiments in ``t`` (enemies never share a territory), or None."""
        for seat in self.occupants(state, t):
            return seat % TEAMS
        return None

    def movable(self, state: GameState, seat: Seat, t: int) -> int:
        """Regiments ``seat`` may take out of ``t``: all of them if a teammate stays (DEC-20)."""
        own = self.units(state, seat, t)
        return own if len(self.occupants(state, t)) > 1 else own - 1

    def has_units(self, state: GameState, seat: Seat) -> bool:
        return any(self.units(state, seat, t) for t in range(self.n_territories))

    def shift(self, state: GameState, t: int, seat: Seat, delta: int) -> None:
        """Add ``delta`` regiments of ``seat`` to ``t`` and settle who controls it (NAP-TEAM-04).

        A territory emptied by a battle stays recorded under the seat that lost it until it is
        conquered, as in the other rule sets.
        """
        units = dict(self.occupants(state, t))
        left = units.get(seat, 0) + delta
        if left:
            units[seat] = left
        else:
            units.pop(seat, None)
        state.armies[t] += delta
        stacks = stacks_of(state)
        if len(units) > 1:
            top = max(units.values())
            leaders = [s for s, n in units.items() if n == top]
            state.owner[t] = leaders[0] if len(leaders) == 1 else -1
            # Replaced whole (copies of the state share it), in one canonical order.
            shared = {**stacks, t: dict(sorted(units.items()))}
            state.family = Stacks(stacks=dict(sorted(shared.items())))
        else:
            state.owner[t] = next(iter(units), seat)
            if t in stacks:
                state.family = Stacks(stacks={k: v for k, v in stacks.items() if k != t})

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        """Teammates' regiments side by side (``owner`` is -1 when tied, NAP-TEAM-04)."""
        stack = stacks_of(state).get(t)
        return {} if stack is None else {"units": {str(s): n for s, n in stack.items()}}

    def check_invariants(self, state: GameState) -> list[str]:
        """Stacks add up to the armies, hold one team only, and ``owner`` is their majority."""
        problems = []
        for t, units in stacks_of(state).items():
            name = self.board.territories[t].id
            if len(units) < 2 or min(units.values()) < 1:
                problems.append(f"{name}: stack {units} is not a mix of teammates")
            if sum(units.values()) != state.armies[t]:
                problems.append(f"{name}: stack {units} does not add up to {state.armies[t]}")
            if len({s % TEAMS for s in units}) != 1:
                problems.append(f"{name}: enemies share it ({units})")
            top = max(units.values())
            leaders = [s for s, n in units.items() if n == top]
            if state.owner[t] != (leaders[0] if len(leaders) == 1 else -1):
                problems.append(f"{name}: owner {state.owner[t]} is not the majority of {units}")
        return problems

    # ------------------------------------------------------------------ cards
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """NAP-TEAM-07: the fixed values of Risk Mission, by symbols."""
        if not self.is_set(cards):
            return None
        return fixed_set_value([self.board.card_symbols[c] for c in cards])

    def end_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-TEAM-10: the drawn card joins the team hand, which goes to the next teammate."""
        seat = state.current
        if state.conquered:
            self.draw_card(state, seat, emit)
        hand = state.players[seat].hand
        to = self.next_teammate(state, seat)
        if hand and to != seat:
            team = tuple(self.teammates(state, seat))
            emit(HandPassed(seat=seat, to=to, cards=tuple(hand), team=team))
        emit(TurnEnded(seat=seat))
        self.start_next_turn(state, emit)

    def next_teammate(self, state: GameState, seat: Seat) -> Seat:
        n = len(state.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s % TEAMS == seat % TEAMS and not state.players[s].eliminated:
                return s
        return seat

    # ------------------------------------------------------------------ victory
    def winner(self, state: GameState) -> GameWon | None:
        """NAP-TEAM-02/11: the first elimination ends the game; the eliminator's team wins."""
        for p in state.players:
            if p.eliminated and p.eliminated_by is not None:
                return GameWon(seat=p.eliminated_by, reason="team")
        return None

    # ------------------------------------------------------------------ placement
    def may_place(self, state: GameState, seat: Seat, t: int) -> bool:
        """DEC-20 (i): on territories the player controls (option: wherever he has regiments).

        A player who controls no territory at all places where he has regiments: otherwise his
        reinforcements (at least 3, NAP-10) could not be placed and the game would stall.
        """
        if state.owner[t] == seat:
            return True
        if not self.units(state, seat, t):
            return False
        return bool(state.options.get("place_on_shared")) or seat not in state.owner

    def _place(self, state: GameState, cmd: Place, emit: Emit) -> None:
        if state.phase not in ("reinforce", "elim_trade"):
            RuleSet._place(self, state, cmd, emit)
            return
        t = self.territory(cmd.territory)
        if cmd.count < 1:
            raise RuleError("bad_count", "Place at least 1 army.")
        if self.must_trade(state, cmd.seat):
            raise RuleError(
                "must_trade",
                f"You hold {len(state.players[cmd.seat].hand)} cards: trade a set first.",
            )
        if not self.may_place(state, cmd.seat, t):
            why = " (a tie: nobody controls it)" if state.owner[t] == -1 else ""
            raise RuleError("not_owner", f"You do not control {self.board.name(t)}{why}.")
        if cmd.count > state.reserve:
            raise RuleError("not_enough_armies", f"You have only {state.reserve} armies to place.")
        emit(ArmiesPlaced(seat=cmd.seat, territory=cmd.territory, count=cmd.count))

    # ------------------------------------------------------------------ combat
    def defender_of(self, state: GameState, target: int) -> Seat:
        """DEC-20 (iii) default: the controller, else the lowest seat among the tied leaders."""
        units = self.occupants(state, target)
        if not units:  # emptied (a branch cut between a battle and its conquest)
            return state.owner[target]
        return max(units, key=units.__getitem__)

    def attack_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        team, nbrs = seat % TEAMS, self.attack_graph(state, seat)
        for o in range(self.n_territories):
            if self.units(state, seat, o) < 2:
                continue
            for t in nbrs[o]:
                side = self.side(state, t)
                if side is not None and side != team:
                    yield o, t

    def _attack(self, state: GameState, cmd: Attack, emit: Emit) -> None:
        if state.phase != "attack":
            RuleSet._attack(self, state, cmd, emit)  # the phase errors of every rule set
            return
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        own = self.units(state, seat, o)
        if own == 0:
            raise RuleError("not_owner", f"You have no regiments in {self.board.name(o)}.")
        if self.units(state, seat, t):
            raise RuleError(
                "own_territory", f"You cannot attack {self.board.name(t)}: you are there."
            )
        err = self.attack_error(state, seat, o, t)
        if err is not None:
            raise err
        if t not in self.attack_graph(state, seat)[o]:
            raise RuleError(
                "not_adjacent", f"{self.board.name(o)} does not border {self.board.name(t)}."
            )
        if own < 2:
            raise RuleError(
                "not_enough_armies",
                f"You need at least 2 of your own regiments in {self.board.name(o)} to attack.",
            )
        most = min(self.attack_dice_max, own - 1)
        err = dice_count_error(cmd.dice, most)
        if err is not None:
            raise err
        if cmd.stop_at < 1:
            raise RuleError("bad_count", stop_at_low_text(cmd.stop_at))
        if cmd.until == "conquer" and own <= cmd.stop_at:
            raise RuleError("bad_count", stop_at_text(self.board.name(o), own, cmd.stop_at))
        self.launch(state, cmd, o, t, emit)

    def _designate(self, state: GameState, cmd: DesignateDefender, emit: Emit) -> None:
        """DEC-20 (iii): the defending team chooses whose regiments defend this battle."""
        order = state.attack
        if state.phase != "defend" or order is None:
            raise RuleError("wrong_phase", "No attack is waiting for your defence.")
        t = order.target
        if order.defender != self.defender_of(state, t):
            raise RuleError("already_designated", "This battle's defender is already chosen.")
        member = cmd.member
        if (
            member == cmd.seat
            or not 0 <= member < len(state.players)
            or member % TEAMS != cmd.seat % TEAMS
            or not self.units(state, member, t)
        ):
            raise RuleError(
                "not_a_defender",
                f"Seat {member} is not a teammate with regiments in {self.board.name(t)}.",
            )
        emit(DefenderDesignated(seat=cmd.seat, member=member))

    def fighting_units(self, state: GameState, seat: Seat, t: int) -> int:
        return self.units(state, seat, t)  # DEC-20: each side fights with one seat's regiments

    def battle_ends_order(self, state: GameState, order: PendingAttack, emit: Emit) -> bool:
        """NAP-TEAM-11: elimination is checked after every battle, not only on conquest."""
        member = order.defender
        if self.has_units(state, member):
            return False
        emit(
            PlayerEliminated(seat=member, by=state.current, cards=tuple(state.players[member].hand))
        )
        return True

    def conquer(self, state: GameState, order: PendingAttack, dice: int, emit: Emit) -> None:
        o, t = order.origin, order.target
        seat = state.current
        previous = state.owner[t]  # the member whose last regiments there just fell
        emit(
            TerritoryConquered(
                seat=seat,
                origin=self.board.territories[o].id,
                target=self.board.territories[t].id,
                previous=previous,
                min=dice,
                max=self.movable(state, seat, o),
            )
        )
        if not self.has_units(state, previous):
            emit(
                PlayerEliminated(seat=previous, by=seat, cards=tuple(state.players[previous].hand))
            )
        occ = state.occupation
        if occ is not None and order.move is not None:
            emit(self._occupied(state, seat, occ, max(occ.min, min(occ.max, order.move))))

    # ------------------------------------------------------------------ the maneuver
    def fortify_reachable(self, state: GameState, seat: Seat, origin: int, target: int) -> bool:
        return target != origin and target in self.team_region(state, seat, origin)

    def team_region(self, state: GameState, seat: Seat, origin: int) -> set[int]:
        """NAP-TEAM-09: territories reachable through ones holding regiments of the team."""
        team, nbrs = seat % TEAMS, self.move_graph(state, seat)
        seen = {origin}
        stack = [origin]
        while stack:
            for n in nbrs[stack.pop()]:
                if n not in seen and self.side(state, n) == team:
                    seen.add(n)
                    stack.append(n)
        return seen

    def fortify_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        regions: dict[int, set[int]] = {}  # one search per connected group of team territories
        for o in range(self.n_territories):
            if self.movable(state, seat, o) < 1:
                continue
            if o not in regions:
                region = self.team_region(state, seat, o)
                for t in region:
                    regions[t] = region
            for t in sorted(regions[o] - {o}):
                yield o, t

    def _fortify(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"You cannot fortify in the {state.phase} phase.")
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        seat = cmd.seat
        if not self.units(state, seat, o):
            raise RuleError("not_owner", f"You have no regiments in {self.board.name(o)}.")
        if self.side(state, t) != seat % TEAMS:
            raise RuleError(
                "not_owner",
                f"Move to a territory where you or a teammate have regiments (NAP-TEAM-09), "
                f"not {self.board.name(t)}.",
            )
        if o == t:
            raise RuleError("bad_count", "Fortify to a different territory.")
        if not self.fortify_reachable(state, seat, o, t):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through "
                "your team's territories.",
            )
        most = self.movable(state, seat, o)
        if not 1 <= cmd.count <= most:
            raise RuleError(
                "not_enough_armies",
                f"Move 1 to {most} of your regiments out of {self.board.name(o)}."
                if most >= 1
                else f"None of your regiments can leave {self.board.name(o)}: one must stay.",
            )
        emit(Fortified(seat=seat, origin=cmd.origin, target=cmd.target, count=cmd.count))
        self.after_fortify(state, emit)

    # ------------------------------------------------------------------ legal commands
    def _legal_reinforce(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self._legal_trades(state, seat)
        if self.must_trade(state, seat):
            return
        ids = self.board.territories
        for t in range(self.n_territories):
            if self.may_place(state, seat, t):
                for k in range(1, state.reserve + 1):
                    yield Place(seat=seat, territory=ids[t].id, count=k)

    def _legal_attack(self, state: GameState, seat: Seat) -> Iterator[Command]:
        ids = self.board.territories
        if state.may_trade:
            yield from self._legal_trades(state, seat)
        for o, t in self.attack_options(state, seat):
            for d in range(1, min(self.attack_dice_max, self.units(state, seat, o) - 1) + 1):
                yield Attack(seat=seat, origin=ids[o].id, target=ids[t].id, dice=d)
        for o, t in self.fortify_options(state, seat):
            for k in range(1, self.movable(state, seat, o) + 1):
                yield Fortify(seat=seat, origin=ids[o].id, target=ids[t].id, count=k)
        yield EndTurn(seat=seat)

    # The two generators above as runs, counts as ranges (issue 14), in the same order.
    def _moves_reinforce(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        for cmd in self._legal_trades(state, seat):
            yield LegalMove(command=cmd)
        if self.must_trade(state, seat) or state.reserve < 1:
            return
        ids = self.board.territories
        for t in range(self.n_territories):
            if self.may_place(state, seat, t):
                place = Place(seat=seat, territory=ids[t].id, count=1)
                yield LegalMove(command=place, field="count", low=1, high=state.reserve)

    def _moves_attack(self, state: GameState, seat: Seat) -> Iterator[LegalMove]:
        ids = self.board.territories
        if state.may_trade:
            for cmd in self._legal_trades(state, seat):
                yield LegalMove(command=cmd)
        for o, t in self.attack_options(state, seat):
            most = min(self.attack_dice_max, self.units(state, seat, o) - 1)
            if most >= 1:
                attack = Attack(seat=seat, origin=ids[o].id, target=ids[t].id, dice=1)
                yield LegalMove(command=attack, field="dice", low=1, high=most)
        for o, t in self.fortify_options(state, seat):
            most = self.movable(state, seat, o)
            if most >= 1:
                move = Fortify(seat=seat, origin=ids[o].id, target=ids[t].id, count=1)
                yield LegalMove(command=move, field="count", low=1, high=most)
        yield LegalMove(command=EndTurn(seat=seat))

    def _legal_defend(self, state: GameState, seat: Seat) -> Iterator[Command]:
        order = state.attack
        assert order is not None
        t = order.target
        yield from RuleSet._legal_defend(self, state, seat)
        if seat == self.defender_of(state, t):
            for member in self.occupants(state, t):
                if member != seat:
                    yield DesignateDefender(seat=seat, member=member)

    # ------------------------------------------------------------------ projector
    def _on_placed(self, state: GameState, ev: ArmiesPlaced) -> None:
        self.shift(state, self.board.index[ev.territory], ev.seat, ev.count)
        state.reserve -= ev.count
        if state.reserve == 0 and not self.must_trade(state, ev.seat):
            state.phase = (
                self.after_reinforce_phase(state) if state.phase == "reinforce" else "attack"
            )

    def _on_traded(self, state: GameState, ev: CardsTraded) -> None:
        RuleSet._on_traded(self, state, ev)
        for name in ev.bonus:  # DEC-22 option: the bonus regiments are the trader's
            t = self.board.index[name]
            state.armies[t] -= ev.bonus_each
            self.shift(state, t, ev.seat, ev.bonus_each)

    def _on_battle(self, state: GameState, ev: BattleFought) -> None:
        self._battle_dice(state, ev)
        idx = self.board.index
        self.shift(state, idx[ev.origin], ev.seat, -ev.attacker_losses)
        self.shift(state, idx[ev.target], ev.defender, -ev.defender_losses)
        state.attack = None
        state.phase = "attack"

    def _on_defender_designated(self, state: GameState, ev: DefenderDesignated) -> None:
        assert state.attack is not None
        state.attack = msgspec.structs.replace(state.attack, defender=ev.member)

    def _on_conquered(self, state: GameState, ev: TerritoryConquered) -> None:
        idx = self.board.index
        o, t = idx[ev.origin], idx[ev.target]
        self.shift(state, o, ev.seat, -ev.min)
        state.owner[t] = ev.seat  # the battle that emptied it removed any stack
        state.armies[t] = ev.min
        state.conquered = True
        if ev.max > ev.min:
            state.phase = "occupy"
            state.occupation = PendingOccupation(origin=o, target=t, min=ev.min, max=ev.max)
        else:
            self._after_occupation(state)

    def _on_occupied(self, state: GameState, ev: Occupied) -> None:
        idx = self.board.index
        self.shift(state, idx[ev.origin], ev.seat, -ev.extra)
        self.shift(state, idx[ev.target], ev.seat, ev.extra)
        state.occupation = None
        self._after_occupation(state)

    def _on_fortified(self, state: GameState, ev: Fortified) -> None:
        idx = self.board.index
        self.shift(state, idx[ev.origin], ev.seat, -ev.count)
        self.shift(state, idx[ev.target], ev.seat, ev.count)

    def _on_hand_passed(self, state: GameState, ev: HandPassed) -> None:
        state.players[ev.seat].hand = []
        state.players[ev.to].hand.extend(ev.cards)

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Place: _place,
        Attack: _attack,
        DesignateDefender: _designate,
        Fortify: _fortify,
    }
    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        ArmiesPlaced: _on_placed,
        CardsTraded: _on_traded,
        BattleFought: _on_battle,
        DefenderDesignated: _on_defender_designated,
        TerritoryConquered: _on_conquered,
        Occupied: _on_occupied,
        Fortified: _on_fortified,
        HandPassed: _on_hand_passed,
    }
    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **RuleSet.LEGAL,
        "reinforce": _legal_reinforce,
        "elim_trade": _legal_reinforce,
        "attack": _legal_attack,
        "defend": _legal_defend,
    }
    LEGAL_RUNS: ClassVar[
        dict[Callable[..., Iterator[Command]], Callable[..., Iterator[LegalMove]]]
    ] = {
        **RuleSet.LEGAL_RUNS,
        _legal_reinforce: _moves_reinforce,
        _legal_attack: _moves_attack,
    }
