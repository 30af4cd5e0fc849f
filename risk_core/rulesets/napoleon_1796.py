"""Risk Napoléon, the 1796 campaign (rulebooks 000 l.1095-1219, 001 l.430-538; NAP-CAMP-*).

Two players, the French (blue, seat 0, who plays first) and the English (red, seat 1,
DEC-07), on the advanced game's board with all its pieces (ships, generals, admirals,
fortifications, epidemics, card effects, VP; NAP-CAMP-04: no missions).  The Austrians
(white), Prussians (black) and Russians (green) are active independents, each neutral or
allied to a player (NAP-CAMP-03); Spain and the other minor states are the passive neutral
(yellow), who never acts.  The campaign's own rules are the pure functions of
:mod:`~risk_core.rulesets.napoleon_1796_rules`; this class wires them into the advanced
game's turn, with the state, commands and events of
:mod:`~risk_core.rulesets.napoleon_1796_state`.  What it plays exactly as napoleon-2p's active
independents do (gifts, the allies' placements, their maneuver routes, ``EndPhase``) is
:class:`~risk_core.rulesets.napoleon_independents.ActiveIndependents`.

Set-up (NAP-CAMP-04/06, GAP-12 reconstructed in ``nap_campaign_1796``; events
``deck_formed``, ``territories_dealt``, ``campaign_opened``): the position of the set-up
diagram, one face-down card from the top of the pile under the Austrians' and the
Prussians' cannons (both allied to the English), the Russians neutral; 4 epidemics as in the
advanced set-up (NAP-ADV-10: "all other advanced rules apply"; option ``start_epidemics``);
no starting cards (the diagram names none).

The turn (NAP-CAMP-16), with the engine's phase names:

``influence``       (start of turn, after the time token and the control/ally VP) give
                    cards to the independents (``GiveCard``); ``EndPhase`` or any
                    reinforcement command closes it;
``reinforce``       own income with the capital half bonus (NAP-CAMP-07), trades,
                    conversions, ransoms, reinforcement cards;
``ally_reinforce``  ``ReinforceAlly`` gives an ally its income (NAP-CAMP-08: territories,
                    capital or empire bonus), ``EndPhase`` skips the allies left;
``ally_place``      place that ally's regiments on its territories;
``attack``          naval combat first, then land offensives with own and allied regiments;
                    an invasion (every battle against one target) ends with its status dice
                    (NAP-2PA-09 for the French side and the neutrals, NAP-CAMP-09 for the
                    English allies); taking an allied power's capital turns it neutral and
                    opens the re-alliance (``Really``, NAP-CAMP-10); then the maneuvers:
                    own (advanced) and one ``AllyManeuver`` per ally;
``annex``           after the epidemics, ``Annex`` an ally's territory and/or, for a card, a
                    passive neutral's (NAP-CAMP-11/12); ``EndPhase`` closes it; then the card
                    draws (NAP-ADV-43 without the mission condition) and, in the last round,
                    the census VP.

The English defence force (NAP-CAMP-13): 5 regiments stay in each English territory of the
United Kingdom on every voluntary departure (attack dice, moves after a conquest, maneuvers).

The game ends when a player is eliminated, who loses (NAP-CAMP-02: no final ranking), or
after the last round (DEC-06: 5), when the most VP win; equal VP are split by the advanced
game's tie-breaks (DEC-30).
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
    Fortify,
    GameStarted,
    GameState,
    GameWon,
    PendingAttack,
    Place,
    PlayerEliminated,
    PositionSet,
    RoundsCompleted,
    Seat,
    SeatInfo,
    TerritoriesDealt,
    TerritoryConquered,
    Trade,
    TurnStarted,
)
from risk_core.rng import Rng
from risk_core.rulesets import napoleon_1796_rules as camp
from risk_core.rulesets import napoleon_advanced_rules as nar
from risk_core.rulesets.allies import ALLY_PLACE, AllyPlaced
from risk_core.rulesets.base import BotGoals, Emit, Option
from risk_core.rulesets.napoleon_2p import INFLUENCE_LOCK, Napoleon2P
from risk_core.rulesets.napoleon_1796_state import (
    AlliedIncome,
    Annex,
    Annexed,
    AnnexOpened,
    CampaignOpened,
    CampState,
    CapitalFell,
    InvasionEnded,
    InvasionScored,
    ObjectivesScored,
    RealliancePossible,
    Reallied,
    Really,
    StabilityRolled,
)
from risk_core.rulesets.napoleon_advanced import ADV_PHASES, NapoleonAdvanced
from risk_core.rulesets.napoleon_advanced_scenario import scenario_state
from risk_core.rulesets.napoleon_advanced_state import (
    Convert,
    FinalRanking,
    LeadersCaptured,
    MoveGeneral,
    PlayCard,
    Ransom,
)
from risk_core.rulesets.napoleon_independents import (
    ActiveIndependents,
    AllyManeuver,
    AllyManeuvered,
    AllyReinforcementsEnded,
    CardGiven,
    EndPhase,
    GiveCard,
    InfluenceEnded,
    ReinforceAlly,
    StatusRolled,
)
from risk_core.seats import check_player_names

# The advanced game's decisions that hold in the campaign (its length, the Capitals option
# and its bonus are the campaign's own: NAP-CAMP-05/07).
_ADV_KEPT = {k: v for k, v in nar.NAP_ADV_OPTIONS.items() if k not in ("rounds", "capitals")}
_ADV_KEPT.pop("capital_bonus_kind", None)
CAMPAIGN_PHASES: dict[str, str] = {
    **{k: v for k, v in ADV_PHASES.items() if k != "pieces"},  # (the diagram places them)
    "setup": "the set-up diagram's position is laid out (no move)",
    **ALLY_PLACE,
    "influence": "give cards to the independents, or end the influence step",
    "ally_reinforce": "give an ally its income, or end the allied reinforcements",
    "annex": "annex an ally's or the neutral's territory, or end the turn",
}
# Phases an invasion's status dice may wait in (as napoleon-2p's).
COMBAT_PHASES = ("attack", "defend", "occupy", "elim_trade", "over", "final")


def camp_state(state: GameState) -> CampState:
    family = state.family
    assert isinstance(family, CampState), "not a napoleon-1796 state"
    return family


class Napoleon1796(ActiveIndependents, NapoleonAdvanced):
    """NAPOLEON-CAMPAIGN: the French against the English and the powers of 1796."""

    name = "napoleon-1796"
    title = "Risk Napoléon, the 1796 campaign: the French against the English (2 players)"
    options: ClassVar[dict[str, Option]] = {
        **camp.CAMPAIGN_OPTIONS,
        "gift_to_own_ally": Napoleon2P.options["gift_to_own_ally"],
        "ally_attacks_ally": Napoleon2P.options["ally_attacks_ally"],
        "start_epidemics": Option(
            default=True,
            doc="GAP-12 (NAP-CAMP-04): the set-up diagram shows no epidemics; 'all other "
            "advanced rules apply' places 4 in 4 empires as NAP-ADV-10 does (true, "
            "recommended), or the campaign starts without any (false).",
        ),
        **_ADV_KEPT,
    }
    phases: ClassVar[dict[str, str]] = CAMPAIGN_PHASES
    family_state = CampState
    cli_module = "risk_cli.napoleon_1796_moves"
    min_players = 2
    max_players = 2
    GIFT_PHASE_TEXT = "Cards are given at the start of your turn (NAP-CAMP-16)."
    OWN_STEP = "annex"
    ALLY_FIRST_TEXT = (
        "Give an ally its income first (reinforce-ally), or end the allied "
        "reinforcements (NAP-CAMP-08)."
    )
    trade_window_follow_ups = NapoleonAdvanced.trade_window_follow_ups | {
        StatusRolled,
        StabilityRolled,
        InvasionEnded,
        InvasionScored,
        CapitalFell,
        RealliancePossible,
    }

    def __init__(self) -> None:
        super().__init__()
        if not camp.armies(self.board) or not camp.objectives(self.board, "french"):
            raise SetupError("missing_data", f"Board {self.board.id} lacks the 1796 campaign.")
        self.uk = frozenset(
            self.board.group_members[self.board.group_index[camp.POWERS[camp.ENGLISH]]]
        )

    # ================================================================== seats and state
    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        """NAP-CAMP-01/03: the French player (the first named), the English player, then the
        Austrians, Prussians, Russians and the passive neutral."""
        if len(players) != 2:
            raise SetupError("bad_players", "The 1796 campaign is for 2 players.")
        given = [p if isinstance(p, SeatInfo) else SeatInfo(name=p, colour="") for p in players]
        check_player_names([seat.name for seat in given])  # as ``RuleSet.seats_for`` does
        seats = camp.campaign_seats(self.board, given[0].name, given[1].name)
        out = []
        for s in seats:
            if s.neutral:
                out.append(s)
            else:
                own = given[0] if s.colour == camp.FRENCH else given[1]
                out.append(msgspec.structs.replace(own, colour=s.colour))
        return out

    def new_family_state(self, ev: GameStarted) -> CampState:
        return self.new_family_state_for(len(ev.players))

    def new_family_state_for(self, n: int) -> CampState:
        base = super().new_family_state_for(n)
        return CampState(
            **msgspec.structs.asdict(base) | {"pieces": (0,) * n},
            ally_of=(None,) * n,
            quota=(0,) * n,
        )

    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> CampState:
        """A scenario's ``[family]``: the advanced game's keys, plus ``allies`` (an active
        independent by seat or name = a player, or "neutral"; unnamed ones are neutral) and
        ``scored`` (the one-shot invasion VP already taken, as "french:egypte")."""
        given = [k for k in ("missions", "done") if k in data]
        if given:  # NAP-CAMP-02: the campaign is won on victory points, not missions
            raise SetupError("bad_scenario", f"[family.{given[0]}]: the campaign has no missions.")
        rest = {k: v for k, v in data.items() if k not in ("allies", "scored")}
        base = scenario_state(self, rest, len(seats), seat)
        try:
            table = msgspec.convert(data.get("allies", {}), dict[str, int | str])
            scored = msgspec.convert(data.get("scored", []), list[str])
        except msgspec.ValidationError as e:
            raise SetupError("bad_scenario", f"Invalid [family]: {e}") from None
        scorers = [s for s, v in enumerate(base.vp) if v and seats[s].colour not in camp.SIDES]
        if scorers:  # NAP-CAMP-02: the two sides score; powers and the neutral do not
            who = seats[scorers[0]].name
            raise SetupError("bad_scenario", f"[family.vp]: {who} scores no VP (players only).")
        invasions = {
            f"{side}:{r.target}"
            for side in camp.SIDES.values()
            for r in camp.objectives(self.board, side)
            if r.kind == "invasion"
        }
        for entry in scored:
            if entry not in invasions or scored.count(entry) > 1:
                why = "listed twice" if entry in invasions else "no side's invasion objective"
                raise SetupError(
                    "bad_scenario",
                    f'[family.scored]: {entry!r} is {why} (NAP-CAMP-14: "side:territory", '
                    f"one of {', '.join(sorted(invasions))}).",
                )
        ally_of: list[Seat | None] = [None] * len(seats)
        for key, value in table.items():
            ind = seat(key)
            if seats[ind].colour not in camp.INDEPENDENTS:
                raise SetupError(
                    "bad_scenario",
                    f"[family.allies]: {seats[ind].name} is not an active independent.",
                )
            if isinstance(value, str) and value.lower() == "neutral":
                continue
            ally = seat(value)
            if seats[ally].neutral:
                raise SetupError(
                    "bad_scenario", f"[family.allies]: {seats[ind].name} allied to a player only."
                )
            ally_of[ind] = ally
        assert isinstance(base, CampState)  # built on ``new_family_state_for``
        return msgspec.structs.replace(base, ally_of=tuple(ally_of), scored=tuple(scored))

    def steps(self, state: GameState) -> CampState:
        return camp_state(state)

    def replace_steps(self, state: GameState, **changes: Any) -> None:
        state.family = msgspec.structs.replace(camp_state(state), **changes)

    def colour_seat(self, state: GameState, colour: str) -> Seat:
        return next(i for i, p in enumerate(state.players) if p.colour == colour)

    def colour_owners(self, state: GameState) -> dict[str, str]:
        """Territory id -> the colour holding it (the rules functions' view of the map)."""
        ids, players = self.board.territories, state.players
        return {ids[t].id: players[o].colour for t, o in enumerate(state.owner) if o >= 0}

    def status(self, state: GameState, seat: Seat) -> Seat | None:
        ally_of = camp_state(state).ally_of
        return ally_of[seat] if 0 <= seat < len(ally_of) else None

    def allied_colours(self, state: GameState) -> dict[str, str]:
        """An allied independent's colour -> its player's colour (NAP-CAMP rules' ``allied``)."""
        players = state.players
        return {
            players[s].colour: players[a].colour
            for s, a in enumerate(camp_state(state).ally_of)
            if a is not None and not players[s].eliminated
        }

    def is_independent(self, state: GameState, seat: Seat) -> bool:
        """An active independent (NAP-CAMP-03): the passive neutral is not one."""
        return seat >= 0 and state.players[seat].colour in camp.INDEPENDENTS

    def independents_of(self, state: GameState) -> list[Seat]:
        return [
            i
            for i, p in enumerate(state.players)
            if p.colour in camp.INDEPENDENTS and not p.eliminated
        ]

    def is_english(self, state: GameState, seat: Seat) -> bool:
        return 0 <= seat < len(state.players) and state.players[seat].colour == camp.ENGLISH

    # ================================================================== set-up
    def opening(self, state: GameState, emit: Emit) -> None:
        """NAP-CAMP-04/06: the set-up diagram's position, the starting alliances and their
        face-down cards, the French first; the epidemics follow (``setup_complete``)."""
        board, n = self.board, len(state.players)
        rng = Rng(state.seed, state.rng)
        deck = rng.shuffle(list(range(len(board.card_symbols))))
        # NAP-CAMP-06: the top of the pile (the end of the list) goes under the cannons.
        influence = camp.starting_influence(deck[::-1])
        owners, armies = [-1] * self.n_territories, [0] * self.n_territories
        base = self.new_family_state_for(n)
        ships = [list(row) for row in base.ships]
        admirals = [list(row) for row in base.admirals]
        generals = list(base.generals)
        hands: list[tuple[int, ...]] = [()] * n
        ally_of: list[Seat | None] = [None] * n
        for colour, army in camp.armies(board).items():
            s = self.colour_seat(state, colour)
            for t, k in army.regiments.items():
                owners[board.index[t]], armies[board.index[t]] = s, k
            for z, k in army.ships.items():
                ships[self.zone_index[z]][s] = k
            for z, k in army.admirals.items():
                admirals[self.zone_index[z]][s] = k
            for t, k in army.generals.items():
                generals[board.index[t]] = k
            hands[s] = influence.get(colour, ())
        for colour, player in camp.starting_alliances().items():
            ally_of[self.colour_seat(state, colour)] = self.colour_seat(state, player)
        emit(DeckFormed(deck=tuple(deck), rng=rng.counter))
        emit(
            TerritoriesDealt(
                owners=tuple(owners), armies=tuple(armies), setup_left=(0,) * n, rng=rng.counter
            )
        )
        emit(
            CampaignOpened(
                ships=tuple(tuple(r) for r in ships),
                admirals=tuple(tuple(r) for r in admirals),
                generals=tuple(generals),
                ally_of=tuple(ally_of),
                influence=tuple(hands),
                first=self.colour_seat(state, camp.FRENCH),
            )
        )

    def _on_position_camp(self, state: GameState, ev: PositionSet) -> None:
        """NAP-CAMP-06: the French player plays first in every round, whoever's turn a
        scenario starts in (its ``current``): the round ends with the English player's turn."""
        NapoleonAdvanced.EVENT_HANDLERS[PositionSet](self, state, ev)
        state.first = self.colour_seat(state, camp.FRENCH)

    def _on_campaign_opened(self, state: GameState, ev: CampaignOpened) -> None:
        for seat, cards in enumerate(ev.influence):
            for card in cards:
                state.deck.remove(card)
                state.players[seat].hand.append(card)
        self.replace_steps(
            state,
            ships=ev.ships,
            admirals=ev.admirals,
            generals=ev.generals,
            ally_of=ev.ally_of,
        )
        state.first = state.current = ev.first

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        """NAP-CAMP-04 with NAP-ADV-10: 4 epidemics in 4 empires, from drawn cards (option
        start_epidemics)."""
        if state.options.get("start_epidemics", True):
            self.place_start_epidemics(state, emit)

    # ================================================================== turn start
    def rounds(self, state: GameState) -> int:
        return int(state.options.get("rounds", 5))  # DEC-06

    def census(self, state: GameState, seat: Seat, rnd: int | None = None) -> nar.Census:
        """NAP-ADV-18 with NAP-CAMP-07 (DEC-32a): the player's own power pays half its bonus
        (rounded up) while he holds its capital."""
        c = super().census(state, seat, rnd)
        colour = state.players[seat].colour
        if colour not in camp.SIDES:
            return c
        group = self.board.groups[self.board.group_index[camp.POWERS[colour]]]
        whole = group.bonus if group.id in c.empires else 0
        reading = str(state.options.get("half_bonus", "max"))
        power = camp.capital_income(self.board, self.colour_owners(state), colour, reading)
        return msgspec.structs.replace(c, bonus=c.bonus + power - whole)

    def start_of_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-CAMP-16 (1): the advanced game's VP for empires and routes, then the
        campaign's control and ally VP (NAP-CAMP-14); no missions (NAP-CAMP-04)."""
        super().start_of_turn(state, emit)
        seat = state.current
        colour = state.players[seat].colour
        owners = self.colour_owners(state)
        allies = len(self.allies(state, seat))
        supremacy = self.supremacy(state, seat)
        vp = camp.turn_vp(self.board, colour, owners, allies, supremacy)
        if vp:
            detail: list[str] = []
            for r in camp.objectives(self.board, camp.side_of(colour)):
                if r.kind == "ally" and allies:
                    detail.append(f"allies:{allies}")
                elif r.kind == "control" and (
                    supremacy
                    if r.target == "maritime_supremacy"
                    else owners.get(r.target) == colour
                ):
                    detail.append(r.target)
            emit(ObjectivesScored(seat=seat, vp=vp, detail=tuple(detail)))

    def supremacy(self, state: GameState, seat: Seat) -> bool:
        """NAP-CAMP-14 (DEC-32b, option maritime_supremacy)."""
        zones, routes = {}, {}
        ships = self.ships(state)
        for s, p in enumerate(state.players):
            if not p.neutral:
                zones[p.colour] = len(self.held_zones(state, s))
                routes[p.colour] = len(nar.held_routes(self.board, ships, s))
        reading = str(state.options.get("maritime_supremacy", "more_zones"))
        return camp.maritime_supremacy(zones, routes, state.players[seat].colour, reading)

    def _on_turn_started(self, state: GameState, ev: TurnStarted) -> None:
        n = len(state.players)
        self.replace_steps(
            state,
            quota=(0,) * n,
            reinforced=(),
            maneuvered=(),
            invasion=None,
            fell=False,
            rolls=(),
            attackers=(),
            leaders_taken=0,
            realliance="",
            annexed=(),
        )
        self.begin_turn(state, ev)

    # ================================================================== influence
    def gift_error(self, state: GameState, seat: Seat, independent: Seat) -> RuleError | None:
        """NAP-2PA-03/04 (DEC-18): why ``seat`` may not give a card to ``independent``."""
        if not 0 <= independent < len(state.players) or not self.is_independent(state, independent):
            return RuleError(
                "not_independent",
                "Cards go to the Austrians, Prussians or Russians (NAP-CAMP-03).",
            )
        p = state.players[independent]
        if p.eliminated:
            return RuleError("eliminated", f"{p.name} has been eliminated.")
        if len(p.hand) >= INFLUENCE_LOCK:
            return RuleError(
                "influence_locked",
                f"{p.name} already holds {INFLUENCE_LOCK} cards (NAP-2PA-04, NAP-CAMP-06).",
            )
        if self.status(state, independent) == seat and not state.options.get("gift_to_own_ally"):
            return RuleError(
                "already_allied", f"{p.name} is already your ally: a gift must win it over."
            )
        return None

    def end_influence(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """Any reinforcement command closes the influence step (gifts come first)."""
        if state.phase == "influence" and seat == state.current:
            emit(InfluenceEnded(seat=seat))

    def _convert_camp(self, state: GameState, cmd: Convert, emit: Emit) -> None:
        self.end_influence(state, cmd.seat, emit)
        self._convert(state, cmd, emit)

    def _ransom_camp(self, state: GameState, cmd: Ransom, emit: Emit) -> None:
        self.end_influence(state, cmd.seat, emit)
        self._ransom(state, cmd, emit)

    def _play_card_camp(self, state: GameState, cmd: PlayCard, emit: Emit) -> None:
        self.end_influence(state, cmd.seat, emit)
        self._play_card(state, cmd, emit)

    # ================================================================== allied income
    def _reinforce_ally(self, state: GameState, cmd: ReinforceAlly, emit: Emit) -> None:
        """NAP-CAMP-08: an ally's income: its territories (3 at least) and its capital or
        empire bonus, placed by the player whose ally it is."""
        seat = cmd.seat
        if state.phase in ("influence", "reinforce"):
            raise RuleError(
                "must_place",
                f"Place your own {state.reserve} regiments first: allies come after (NAP-CAMP-16).",
            )
        if state.phase != "ally_reinforce":
            raise RuleError("wrong_phase", f"Allies are not reinforced in the {state.phase} phase.")
        if not 0 <= cmd.ally < len(state.players):
            raise RuleError("not_ally", f"There is no seat {cmd.ally}.")
        if cmd.ally not in self.allies(state, seat):
            raise self.not_ally(state, seat, cmd.ally)
        if cmd.ally in camp_state(state).reinforced:
            raise RuleError("already_chosen", "That ally has had its income this turn.")
        colour = state.players[cmd.ally].colour
        owners = self.colour_owners(state)
        reading = str(state.options.get("half_bonus", "max"))
        count = camp.allied_income(self.board, owners, colour, reading)
        bonus = camp.capital_income(self.board, owners, colour, reading)
        bonus += camp.other_empires_bonus(self.board, owners, colour)
        emit(
            AlliedIncome(
                seat=seat,
                ally=cmd.ally,
                count=count,
                territories=state.owner.count(cmd.ally),
                bonus=bonus,
            )
        )

    def _on_allied_income(self, state: GameState, ev: AlliedIncome) -> None:
        fam = camp_state(state)
        quota = [0] * len(state.players)
        quota[ev.ally] = ev.count
        self.replace_steps(state, quota=tuple(quota), reinforced=(*fam.reinforced, ev.ally))
        state.phase = "ally_place"

    def place_for_ally(self, state: GameState, seat: Seat, t: int, count: int, emit: Emit) -> None:
        owner = state.owner[t]
        left = camp_state(state).quota[owner] if owner >= 0 else 0
        if not left:
            raise RuleError(
                "not_owner", f"{self.board.name(t)} is not held by the ally you are reinforcing."
            )
        if count > left:
            raise RuleError(
                "not_enough_armies", f"{state.players[owner].name} has {left} regiments to place."
            )
        emit(AllyPlaced(seat=seat, territory=self.board.territories[t].id, count=count))

    # ================================================================== combat
    def attacker_owns(self, state: GameState, seat: Seat, origin: int) -> bool:
        """NAP-2PA-07: a player attacks with his allies' regiments as with his own."""
        owner = state.owner[origin]
        return owner == seat or (
            self.is_independent(state, owner) and self.status(state, owner) == seat
        )

    def uk_garrison(self, state: GameState, t: int) -> bool:
        """NAP-CAMP-13: ``t`` is an English territory of the United Kingdom in the English
        player's own turn, where 5 regiments must stay."""
        owner = state.owner[t]
        return t in self.uk and owner == state.current and self.is_english(state, owner)

    def free_units(self, state: GameState, t: int) -> int:
        """Regiments that may leave ``t`` (all but 1; all but 5 in an English UK territory)."""
        keep = camp.DEFENCE_FORCE if self.uk_garrison(state, t) else 1
        return max(0, state.armies[t] - keep)

    def usable_armies(self, state: GameState, seat: Seat) -> Sequence[int]:
        """The greedy reading's units: the 4 extra of the defence force never fight."""
        return [
            a - (camp.DEFENCE_FORCE - 1) if self.uk_garrison(state, t) else a
            for t, a in enumerate(state.armies)
        ]

    def fighting_units(self, state: GameState, seat: Seat, t: int) -> int:
        """NAP-CAMP-13: an English UK territory attacks with its regiments above 5."""
        units = super().fighting_units(state, seat, t)
        if seat == state.current and self.uk_garrison(state, t):
            return max(0, units - (camp.DEFENCE_FORCE - 1))
        return units

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """The advanced game's conditions, DEC-19 (never your own ally) and NAP-CAMP-13."""
        err = super().attack_error(state, seat, origin, target)
        if err is not None:
            return err
        defender = state.owner[target]
        own_ally = self.is_independent(state, defender) and self.status(state, defender) == seat
        by_ally = state.owner[origin] != seat and bool(state.options.get("ally_attacks_ally"))
        if own_ally and not by_ally:
            return RuleError(
                "attack_own_ally",
                f"{self.board.name(target)} is held by your ally "
                f"{state.players[defender].name}: annex it instead (DEC-19, NAP-CAMP-11).",
            )
        # (an epidemic's penalty, NAP-ADV-32, is paid from the regiments above the 5 too)
        free = self.free_units(state, origin) - self.penalty_due(state, origin, target)
        if self.uk_garrison(state, origin) and free < 1:
            return RuleError(
                "defence_force",
                f"{self.board.name(origin)} must keep {camp.DEFENCE_FORCE} regiments and may "
                "attack only with those above (NAP-CAMP-13).",
            )
        return None

    def _attack_camp(self, state: GameState, cmd: Attack, emit: Emit) -> None:
        o = self.board.index.get(cmd.origin)
        if o is not None and state.phase == "attack" and self.uk_garrison(state, o):
            free = self.free_units(state, o)
            # (``move`` is clamped to the occupation's range, which keeps the 5: _on_conquered)
            if cmd.dice > free:
                raise RuleError(
                    "defence_force",
                    f"{self.board.name(o)} must keep {camp.DEFENCE_FORCE} regiments: at most "
                    f"{free} may attack (NAP-CAMP-13).",
                )
        self._attack(state, cmd, emit)

    def defender_of(self, state: GameState, target: int) -> Seat:
        """DEC-19: the other player rolls the defence of every independent and neutral."""
        owner = state.owner[target]
        if owner >= 0 and state.players[owner].neutral:
            return self.opponent(state, state.current)
        return owner

    def eliminator(self, state: GameState, target: int) -> Seat:
        """NAP-2PA-10: an ally's conquest is its player's, who takes the loser's cards."""
        return state.current

    def launch(self, state: GameState, cmd: Attack, o: int, t: int, emit: Emit) -> None:
        """An attack on another target ends the invasion in progress (its status dice first);
        an origin whose army has just left the mover calls the attack off."""
        fam = camp_state(state)
        if fam.invasion is not None and fam.invasion != self.board.territories[t].id:
            self.roll_status(state, emit)
            if not self.attacker_owns(state, cmd.seat, o):
                return
        super().launch(state, cmd, o, t, emit)

    def conquer(self, state: GameState, order: PendingAttack, dice: int, emit: Emit) -> None:
        """The advanced conquest, then the campaign's: the one-shot invasion VP (NAP-CAMP-14,
        alliances as they were at the invasion) and the capital's fall (NAP-CAMP-10)."""
        t = order.target
        tid = self.board.territories[t].id
        allied = self.allied_colours(state)
        super().conquer(state, order, dice, emit)
        if state.phase in ("over", "final"):
            return
        seat = state.current
        self.score_invasion(state, tid, allied, emit)
        power = camp.neutralised_by_invasion(tid, allied)
        if power is None:
            return
        ind = self.colour_seat(state, power)
        if state.players[ind].eliminated:
            return
        was = self.status(state, ind)
        assert was is not None  # ``allied`` named it
        emit(CapitalFell(independent=ind, capital=tid, was_ally_of=was))
        if state.owner[t] == seat:
            emit(RealliancePossible(seat=seat, capital=tid))

    def score_invasion(
        self, state: GameState, tid: str, allied: dict[str, str], emit: Emit
    ) -> None:
        """NAP-CAMP-14: the mover's one-shot VP for invading ``tid``, with the alliances
        ``allied`` as they were at the invasion."""
        seat = state.current
        colour = state.players[seat].colour
        year = nar.year_of_round(self.board, state.round)
        vp = camp.invasion_vp(self.board, colour, tid, year, allied, camp_state(state).scored)
        if vp:
            emit(InvasionScored(seat=seat, territory=tid, vp=vp, year=year))

    def last_conquest(self, state: GameState, order: PendingAttack, emit: Emit) -> None:
        """NAP-CAMP-14: the invasion that eliminates the opponent scores its VP before the
        game ends (the opponent's elimination leaves the alliances as they were)."""
        self.score_invasion(
            state, self.board.territories[order.target].id, self.allied_colours(state), emit
        )

    def _on_battle(self, state: GameState, ev: BattleFought) -> None:
        """A battle belongs to the invasion of its target: the independents in it (the
        attacking ally, the defending independent) are rolled for when it ends."""
        fam = camp_state(state)
        idx = self.board.index
        rolls, attackers = list(fam.rolls), list(fam.attackers)
        attacker, defender = state.owner[idx[ev.origin]], state.owner[idx[ev.target]]
        if self.is_independent(state, attacker) and attacker not in rolls:
            rolls.append(attacker)
            attackers.append(attacker)
        if self.is_independent(state, defender) and defender not in rolls:
            rolls.append(defender)
        self.replace_steps(
            state, rolls=tuple(rolls), attackers=tuple(attackers), invasion=ev.target
        )
        super()._on_battle(state, ev)

    def occupation_max(self, state: GameState, origin: int, dice: int) -> int:
        """NAP-CAMP-13: a conquest from an English UK territory moves in at most the
        regiments above 5 (the order's dice never exceed them); the event says so."""
        return max(dice, self.free_units(state, origin))

    def _on_conquered(self, state: GameState, ev: TerritoryConquered) -> None:
        """The invasion's target fell; NAP-CAMP-13: a conquest from an English UK territory
        moves in at most the regiments above 5 (``occupation_max``; kept here for the games
        whose conquests recorded all but 1 as their most)."""
        o = self.board.index[ev.origin]
        garrison = self.uk_garrison(state, o)
        super()._on_conquered(state, ev)
        if camp_state(state).invasion == ev.target:
            self.replace_steps(state, fell=True)
        occ = state.occupation
        if garrison and occ is not None:
            most = max(occ.min, state.armies[o] + ev.min - camp.DEFENCE_FORCE)
            state.occupation = msgspec.structs.replace(occ, max=min(occ.max, most))

    def generals_lost_to(self, state: GameState, order: PendingAttack) -> tuple[Seat, Seat]:
        """DEC-23 with the campaign's armies: the generals leading an attack belong to the
        origin's army (an ally's, when the player attacks with it) and are taken by the army
        that defended (an independent's, whoever rolled its dice)."""
        return state.owner[order.origin], state.owner[order.target]

    def _on_captured_camp(self, state: GameState, ev: LeadersCaptured) -> None:
        self._on_captured(state, ev)
        fam = camp_state(state)
        # An ally's leading generals, taken where they attacked from (the advanced projector
        # knows only the mover's): the attack order has none left.
        if (
            ev.kind == "general"
            and ev.owner != state.current
            and state.owner[self.board.index[ev.where]] == ev.owner
        ):
            self.replace_steps(state, committed=0)
        if fam.invasion is not None:
            self.replace_steps(state, leaders_taken=fam.leaders_taken + ev.count)

    def _on_eliminated_camp(self, state: GameState, ev: PlayerEliminated) -> None:
        fam = camp_state(state)
        self.replace_steps(
            state,
            rolls=tuple(s for s in fam.rolls if s != ev.seat),
            ally_of=tuple(None if s == ev.seat else a for s, a in enumerate(fam.ally_of)),
        )
        self._on_eliminated_adv(state, ev)

    def can_invade(self, state: GameState, seat: Seat, target: int) -> bool:
        graph = self.attack_graph(state, seat)
        owner = state.owner
        return any(
            target in graph[o]
            and self.free_units(state, o) >= 1
            and owner[o] != owner[target]
            and self.attacker_owns(state, seat, o)
            and self.attack_error(state, seat, o, target) is None
            for o in range(self.n_territories)
        )

    def invasion_over(self, state: GameState) -> bool:
        """The target fell (and is occupied), or nothing can attack it any more."""
        fam = camp_state(state)
        if state.phase not in ("attack", "elim_trade") or fam.invasion is None:
            return False
        if fam.fell:
            return True
        return (
            state.phase == "attack"
            and not state.may_trade
            and not self.can_invade(state, state.current, self.board.index[fam.invasion])
        )

    def settle(self, state: GameState, emit: Emit) -> None:
        """After a command: the status dice of an invasion that is over."""
        super().settle(state, emit)
        if self.invasion_over(state):
            self.roll_status(state, emit)
            super().settle(state, emit)

    def roll_status(self, state: GameState, emit: Emit) -> None:
        """The invasion in progress ends.  An English ally rolls only if it lost, and turns
        neutral on 6 with +1 per leader captured (NAP-CAMP-09, DEC-32c); every other
        independent in it rolls NAP-2PA-09's die (1-4: one step away from the mover)."""
        fam = camp_state(state)
        if fam.invasion is None:
            return
        seat = state.current
        for ind in fam.rolls:
            if state.players[ind].eliminated:
                continue
            now = self.status(state, ind)
            rng = Rng(state.seed, state.rng, state.dice_script)
            if now is not None and self.is_english(state, now):
                if not camp.english_ally_lost(ind in fam.attackers, fam.fell):
                    continue
                face = rng.die()
                turns = camp.ally_turns_neutral(face, fam.leaders_taken)
                emit(
                    StabilityRolled(
                        seat=seat,
                        independent=ind,
                        face=face,
                        leaders=fam.leaders_taken,
                        ally_of=None if turns else now,
                        rng=rng.counter,
                        scripted=rng.scripted,
                    )
                )
                continue
            face = rng.die()
            # NAP-2PA-09: 1-4 moves it one step away from the mover (his ally -> neutral ->
            # the other player's ally), 5-6 leaves it as it is.
            away = None if now == seat else self.opponent(state, seat)
            after = away if face <= 4 else now
            emit(
                StatusRolled(
                    seat=seat,
                    independent=ind,
                    face=face,
                    ally_of=after,
                    rng=rng.counter,
                    scripted=rng.scripted,
                )
            )
        emit(InvasionEnded(seat=seat, target=fam.invasion))

    def _on_status_rolled(self, state: GameState, ev: StatusRolled) -> None:
        self._consume(state, ev.rng, ev.scripted)
        self.set_status(state, ev.independent, ev.ally_of)

    def _on_stability_rolled(self, state: GameState, ev: StabilityRolled) -> None:
        self._consume(state, ev.rng, ev.scripted)
        self.set_status(state, ev.independent, ev.ally_of)

    def _on_invasion_ended(self, state: GameState, ev: InvasionEnded) -> None:
        self.replace_steps(
            state, invasion=None, fell=False, rolls=(), attackers=(), leaders_taken=0
        )

    def _on_invasion_scored(self, state: GameState, ev: InvasionScored) -> None:
        fam = camp_state(state)
        side = camp.side_of(state.players[ev.seat].colour)
        vp = list(fam.vp)
        vp[ev.seat] += ev.vp
        self.replace_steps(state, vp=tuple(vp), scored=(*fam.scored, f"{side}:{ev.territory}"))

    def _on_objectives(self, state: GameState, ev: ObjectivesScored) -> None:
        vp = list(camp_state(state).vp)
        vp[ev.seat] += ev.vp
        self.replace_steps(state, vp=tuple(vp))

    def _on_capital_fell(self, state: GameState, ev: CapitalFell) -> None:
        """NAP-CAMP-10: the power turns neutral at once; its capital's fall, not a status
        die, settles its side in this invasion."""
        self.set_status(state, ev.independent, None)
        fam = camp_state(state)
        self.replace_steps(state, rolls=tuple(s for s in fam.rolls if s != ev.independent))

    def _on_realliance_possible(self, state: GameState, ev: RealliancePossible) -> None:
        self.replace_steps(state, realliance=ev.capital)

    # ------------------------------------------------------------------ NAP-CAMP-10
    def realliance_open(self, state: GameState, seat: Seat) -> bool:
        """A re-alliance ``seat`` may make now (NAP-CAMP-10): the capital taken this turn is
        still his, its power alive and neutral, a card in hand, the attacks not over."""
        fam = camp_state(state)
        power = camp.capital_power(fam.realliance) if fam.realliance else None
        if power is None or fam.maneuvering or not state.players[seat].hand:
            return False
        ind = self.colour_seat(state, power)
        return (
            state.owner[self.board.index[fam.realliance]] == seat
            and not state.players[ind].eliminated
            and self.status(state, ind) is None
        )

    def _really(self, state: GameState, cmd: Really, emit: Emit) -> None:
        """NAP-CAMP-10/17: spend a card for the power whose capital you have just taken."""
        fam = camp_state(state)
        if state.phase != "attack" or not fam.realliance or fam.maneuvering:
            raise RuleError(
                "no_realliance",
                "A re-alliance follows the invasion of an allied power's capital, during your "
                "attacks (NAP-CAMP-10).",
            )
        if cmd.card not in state.players[cmd.seat].hand:
            raise RuleError("not_in_hand", f"You do not hold card {cmd.card}.")
        ids = self.board.territories
        withdraw = self.board.index.get(cmd.withdraw_to)
        withdraw_id = ids[withdraw].id if withdraw is not None else cmd.withdraw_to
        power = camp.capital_power(fam.realliance)
        assert power is not None
        ind = self.colour_seat(state, power)
        if state.players[ind].eliminated:
            raise RuleError("eliminated", f"{state.players[ind].name} has been eliminated.")
        regiments = {ids[t].id: a for t, a in enumerate(state.armies)}
        plan = camp.check_realliance(
            self.board,
            fam.realliance,
            state.players[cmd.seat].colour,
            withdraw_id,
            self.colour_owners(state),
            regiments,
            len(state.players[cmd.seat].hand),
            self.allied_colours(state),
        )
        emit(
            Reallied(
                seat=cmd.seat,
                independent=ind,
                card=cmd.card,
                capital=plan.capital,
                withdraw_to=plan.withdraw_to,
                withdrawn=plan.withdrawn,
                placed=plan.placed,
            )
        )

    def _on_reallied(self, state: GameState, ev: Reallied) -> None:
        idx = self.board.index
        c, w = idx[ev.capital], idx[ev.withdraw_to]
        state.players[ev.seat].hand.remove(ev.card)
        state.players[ev.independent].hand.append(ev.card)  # DEC-32(d): under the cannon
        state.armies[w] += ev.withdrawn
        state.owner[c] = ev.independent
        state.armies[c] = ev.placed
        fam = camp_state(state)
        generals = list(fam.generals)
        generals[w] += generals[c]  # the invader's generals go with his regiments
        generals[c] = 0
        self.replace_steps(state, realliance="", generals=tuple(generals))
        self.set_status(state, ev.independent, ev.seat)

    # ================================================================== maneuvers
    def end_combat(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """The attacks are over, and with them the invasion in progress."""
        if camp_state(state).forced:
            raise RuleError("naval_combat_pending", self.forced_text(state))
        self.roll_status(state, emit)
        super().end_combat(state, seat, emit)

    def _fortify_camp(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        self.check_garrison(state, cmd.origin, cmd.count)
        self._fortify(state, cmd, emit)

    def _move_general_camp(self, state: GameState, cmd: MoveGeneral, emit: Emit) -> None:
        self.check_garrison(state, cmd.origin, cmd.count)
        self._move_general(state, cmd, emit)

    def check_garrison(self, state: GameState, origin: str, count: int) -> None:
        """NAP-CAMP-13/15: no voluntary move leaves fewer than 5 in an English UK territory."""
        o = self.board.index.get(origin)
        if count > 0 and o is not None and self.uk_garrison(state, o):  # (a general alone: 0)
            camp.check_defence_force(
                self.board, self.board.territories[o].id, state.armies[o], count
            )

    def _ally_maneuver(self, state: GameState, cmd: AllyManeuver, emit: Emit) -> None:
        """NAP-CAMP-16 (4) with NAP-2PA-12: one maneuver per ally, after the attacks."""
        seat = cmd.seat
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        if state.phase != "attack":
            raise RuleError("wrong_phase", f"Allies cannot maneuver in the {state.phase} phase.")
        ally = state.owner[o]
        if ally not in self.allies(state, seat):
            raise RuleError("not_owner", f"{self.board.name(o)} is not held by one of your allies.")
        if state.owner[t] != ally or o == t or t not in self.connected_own(state, ally, o):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through "
                f"{state.players[ally].name}'s territories (NAP-2PA-12).",
            )
        if not 1 <= cmd.count <= state.armies[o] - 1:
            raise RuleError(
                "not_enough_armies", self.movable_text(o, state.armies[o] - 1, "regiment")
            )
        if ally in camp_state(state).maneuvered:
            raise RuleError(
                "maneuver_done", f"{state.players[ally].name} has maneuvered this turn."
            )
        self.maneuver_ready(state, seat, emit)
        if self.status(state, ally) != seat:
            return  # its status die, as combat ended, left you: no maneuver
        emit(
            AllyManeuvered(
                seat=seat, ally=ally, origin=cmd.origin, target=cmd.target, count=cmd.count
            )
        )

    def _on_ally_maneuvered(self, state: GameState, ev: AllyManeuvered) -> None:
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.count
        state.armies[idx[ev.target]] += ev.count
        fam = camp_state(state)
        self.replace_steps(state, maneuvered=(*fam.maneuvered, ev.ally))

    # ================================================================== end of turn
    def end_turn(self, state: GameState, emit: Emit) -> None:
        """NAP-CAMP-16 (5)-(6): the invasion in progress ends; epidemics strike the player's
        and his allies' territories; then the annexations, if any can be made."""
        self.roll_status(state, emit)
        seat = state.current
        for army in (seat, *self.allies(state, seat)):
            if state.phase in ("over", "final"):
                return
            if not state.players[army].eliminated:
                self.epidemics(state, army, emit)
        if state.phase in ("over", "final"):
            return
        if not state.players[seat].eliminated and next(self.annexations(state, seat), None):
            emit(AnnexOpened(seat=seat))
            return
        self.close_turn(state, emit)

    def card_draws(self, state: GameState, seat: Seat) -> int:
        """NAP-ADV-43 without its mission condition (NAP-CAMP-04/16)."""
        return nar.card_draws(
            conquered_enemy=camp_state(state).conquered_enemy,
            mission_since_last_turn=False,
            holds_empire_or_route=self.holds_empire_or_route(state, seat),
            capitals=True,
        )

    def _on_annex_opened(self, state: GameState, ev: AnnexOpened) -> None:
        state.phase = "annex"

    def annexations(self, state: GameState, seat: Seat) -> Iterator[Annex]:
        """Every annexation ``seat`` may make now (the first card of his hand for a
        neutral's territory)."""
        done = camp_state(state).annexed
        hand = sorted(state.players[seat].hand)
        allied = self.allied_colours(state)
        colour = state.players[seat].colour
        ids = self.board.territories
        for t, owner in enumerate(state.owner):
            if owner < 0:
                continue
            holder = state.players[owner].colour
            card = None
            if holder == camp.PASSIVE:
                if "neutral" in done or not hand:
                    continue
                card = hand[0]
            elif allied.get(holder) != colour or "ally" in done:
                continue
            try:
                camp.check_annexation(self.board, ids[t].id, holder, colour, allied, done)
            except RuleError:
                continue
            yield Annex(seat=seat, territory=ids[t].id, card=card)

    def _annex(self, state: GameState, cmd: Annex, emit: Emit) -> None:
        """NAP-CAMP-11/12/15: one annexation of each kind, at the end of the turn."""
        if state.phase != "annex":
            raise RuleError(
                "wrong_phase",
                "Annexations come at the end of your turn, after the epidemics (NAP-CAMP-16): "
                "end the turn first.",
            )
        t = self.territory(cmd.territory)
        owner = state.owner[t]
        if owner < 0:
            raise RuleError("not_annexable", f"Nobody holds {self.board.name(t)}.")
        seat = cmd.seat
        holder = state.players[owner].colour
        kind = camp.check_annexation(
            self.board,
            self.board.territories[t].id,
            holder,
            state.players[seat].colour,
            self.allied_colours(state),
            camp_state(state).annexed,
        )
        if kind == "neutral":
            if cmd.card is None or cmd.card not in state.players[seat].hand:
                raise RuleError(
                    "card_required",
                    "Discard one of your territory cards to annex a neutral territory "
                    "(NAP-CAMP-12).",
                )
        elif cmd.card is not None:
            raise RuleError("no_card", "An ally's territory is annexed without a card.")
        emit(
            Annexed(
                seat=seat,
                territory=self.board.territories[t].id,
                previous=owner,
                kind=kind,
                regiments=state.armies[t],
                card=cmd.card,
            )
        )
        if owner not in state.owner:
            emit(PlayerEliminated(seat=owner, by=seat, cards=tuple(state.players[owner].hand)))
        if next(self.annexations(state, seat), None) is None:
            self.close_turn(state, emit)

    def _on_annexed(self, state: GameState, ev: Annexed) -> None:
        t = self.board.index[ev.territory]
        state.owner[t] = ev.seat
        fam = camp_state(state)
        generals = list(fam.generals)
        generals[t] = 0  # the ally's generals go back to its stock
        self.replace_steps(state, annexed=(*fam.annexed, ev.kind), generals=tuple(generals))
        if ev.kind == "ally":
            self.set_status(state, ev.previous, None)
        if ev.card is not None:
            state.players[ev.seat].hand.remove(ev.card)
            state.discard.append(ev.card)

    def end_own_step(self, state: GameState, emit: Emit) -> None:
        """``EndPhase`` in ``annex``: no (more) annexations; the card draws and the census."""
        self.close_turn(state, emit)

    # ================================================================== the end
    def finish_game(self, state: GameState, emit: Emit) -> None:
        """NAP-CAMP-02: a player eliminated (by the other's conquest or his epidemics) loses
        at once: the game ends there, with no last round and no ranking; after the last round,
        the two players ranked by VP (DEC-30's tie-breaks), no missions."""
        if any(p.eliminated and not p.neutral for p in state.players):
            self.declare(state, self.final_result(state), emit)
            return
        fam = camp_state(state)
        n = len(state.players)
        regiments, holdings = self.ranking_counts(state)
        places = nar.final_ranking(
            fam.vp,
            regiments,
            (0,) * n,
            holdings=holdings,
            tie=str(state.options.get("final_tie", "shared")),
        )
        players = [s for s in range(n) if not state.players[s].neutral]
        ranked = [tuple(s for s in p if s in players) for p in places]
        emit(
            FinalRanking(
                places=tuple(p for p in ranked if p),
                revealed=((),) * n,
                vp=fam.vp,
                regiments=regiments,
                missions=(0,) * n,
            )
        )
        emit(RoundsCompleted(rounds=state.round))

    def final_result(self, state: GameState) -> GameWon:
        """NAP-CAMP-02: the player who eliminated the other, else the most VP; equal VP go
        to the advanced game's tie-breaks (NAP-CAMP-04, NAP-ADV-46, DEC-30), as in the final
        ranking; a place still shared is recorded under its first seat."""
        fam = camp_state(state)
        players = [s for s, p in enumerate(state.players) if not p.neutral]
        colours = {s: state.players[s].colour for s in players}
        regiments, holdings = self.ranking_counts(state)
        out = [s for s in players if state.players[s].eliminated]
        winner = camp.campaign_winner(
            {colours[s]: fam.vp[s] for s in players},
            colours[out[0]] if out else None,
            regiments={colours[s]: regiments[s] for s in players},
            holdings={colours[s]: holdings[s] for s in players},
            tie=str(state.options.get("final_tie", "shared")),
        )
        if out and winner is not None:
            return GameWon(seat=self.colour_seat(state, winner), reason="last_standing")
        seat = (
            self.colour_seat(state, winner)
            if winner is not None
            else (fam.ranking[0][0] if fam.ranking else players[0])
        )
        scores = tuple(fam.vp[s] if s in players else 0 for s in range(len(state.players)))
        return GameWon(seat=seat, reason="score", scores=scores, rounds=state.round)

    def scores(self, state: GameState) -> tuple[int, ...]:
        fam = camp_state(state)
        return tuple(v if not state.players[s].neutral else 0 for s, v in enumerate(fam.vp))

    # ================================================================== audits
    def army_change(self, before: GameState, ev: Event) -> int:
        if isinstance(ev, AllyPlaced):
            return ev.count
        if isinstance(ev, Reallied):
            return ev.placed
        return super().army_change(before, ev)

    def check_invariants(self, state: GameState) -> list[str]:
        problems = super().check_invariants(state)
        fam = state.family
        if not isinstance(fam, CampState):
            return [*problems, "no napoleon-1796 state"]
        for s, ally in enumerate(fam.ally_of):
            if ally is not None and not (
                self.is_independent(state, s) and not state.players[ally].neutral
            ):
                problems.append(f"seat {s} allied to {ally}")
        if min(fam.quota, default=0) < 0:
            problems.append(f"negative quota {fam.quota}")
        if fam.rolls and state.phase not in COMBAT_PHASES:
            problems.append(f"status dice {fam.rolls} pending in the {state.phase} phase")
        return problems

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        """Alliances change only by a gift, a status die, a capital's fall or re-alliance, an
        annexation or an elimination (NAP-2PA-03/09, NAP-CAMP-09/10/11)."""
        if camp_state(before).ally_of == camp_state(after).ally_of:
            return []
        allowed = (
            CampaignOpened,
            CardGiven,
            StatusRolled,
            StabilityRolled,
            CapitalFell,
            Reallied,
            Annexed,
            PlayerEliminated,
            PositionSet,
        )
        if isinstance(ev, allowed):
            return []
        return [f"alliances changed by {type(ev).__name__}"]

    # ================================================================== bots
    def bot_goals(self, state: GameState, seat: Seat) -> BotGoals:
        """The campaign's objectives: Égypte and the enemy's capital territory."""
        colour = state.players[seat].colour
        holds = {
            self.board.index[r.target]
            for r in camp.objectives(self.board, camp.side_of(colour))
            if r.target in self.board.index and colour in camp.SIDES
        }
        return BotGoals(holds=frozenset(holds))

    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """Greedy: a spare card buys an independent; every ally gets its income, placed
        facing the enemy; a capital taken is re-allied; a neutral territory is annexed for a
        spare card; otherwise the advanced game's play."""
        phase, ids = state.phase, self.board.territories
        if phase == "influence":
            hand = state.players[seat].hand
            if len(hand) >= 4:
                keep = set(reading.best_set() or ())
                spare = [c for c in hand if c not in keep] or hand
                takers = [
                    i
                    for i in self.independents_of(state)
                    if self.gift_error(state, seat, i) is None
                ]
                if takers:
                    best = max(takers, key=lambda i: (state.owner.count(i), i))
                    return GiveCard(seat=seat, independent=best, card=min(spare))
            return EndPhase(seat=seat)
        if phase == "ally_reinforce":
            pending = self.unreinforced(state)
            return ReinforceAlly(seat=seat, ally=pending[0]) if pending else EndPhase(seat=seat)
        if phase == "ally_place":
            quota = camp_state(state).quota
            army = next((a for a, left in enumerate(quota) if left), None)
            if army is None:
                return None
            spot = self.front_spot(state, army, self.opponent(state, seat), reading.tie)
            return Place(seat=seat, territory=ids[spot].id, count=quota[army])
        if phase == "annex":
            hand = state.players[seat].hand
            for cmd in self.annexations(state, seat):
                if cmd.card is not None and len(hand) >= 2:
                    return cmd
            return EndPhase(seat=seat)
        if phase == "attack":
            fam = camp_state(state)
            if self.realliance_open(state, seat):
                c = self.board.index[fam.realliance]
                back = [n for n in self.board.neighbours[c] if state.owner[n] == seat]
                if back:
                    card = min(state.players[seat].hand)
                    return Really(seat=seat, card=card, withdraw_to=ids[back[0]].id)
        return super().bot_move(state, seat, reading)

    def front_spot(
        self, state: GameState, army: Seat, enemy: Seat, tie: Callable[[int], int]
    ) -> int:
        """The territory of ``army`` (an ally) facing the most of ``enemy``'s regiments."""
        owner, armies, nbrs = state.owner, state.armies, self.board.neighbours
        spots = [t for t, o in enumerate(owner) if o == army]
        return max(
            spots,
            key=lambda t: (
                sum(armies[n] for n in nbrs[t] if owner[n] == enemy) - 0.5 * armies[t],
                tie(t),
            ),
        )

    # ================================================================== views
    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """The advanced game's public facts, the alliances, the invasion in progress and the
        campaign objectives with the one-shot invasions already scored (all public)."""
        out = super().view_extra(state, viewer)
        fam = camp_state(state)
        out["ally_reserve"] = sum(fam.quota)  # the allied income still to place
        out["campaign"] = {
            "alliances": {
                str(s): fam.ally_of[s]
                for s in range(len(state.players))
                if self.is_independent(state, s)
            },
            "invasion": fam.invasion,
            "realliance": fam.realliance or None,
            "annexed": list(fam.annexed),
            "quota": {str(s): q for s, q in enumerate(fam.quota) if q},
            "scored": list(fam.scored),
            "objectives": [
                {
                    "side": r.side,
                    "kind": r.kind,
                    "target": r.target,
                    "vp": r.vp,
                    "condition": r.condition,
                }
                for side in ("french", "english")
                for r in camp.objectives(self.board, side)
            ],
        }
        return out

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """An active independent's cannon (its ally) is public; so are a player's VP."""
        out = super().seat_view(state, seat, viewer)
        out.pop("missions", None)  # NAP-CAMP-04: no missions in the campaign
        out.pop("accomplished", None)
        if self.is_independent(state, seat):
            out["ally_of"] = self.status(state, seat)
        if state.players[seat].colour in camp.SIDES:
            out["side"] = camp.SIDES[state.players[seat].colour]
        return out

    # ================================================================== legal commands
    def _legal_ally_place(self, state: GameState, seat: Seat) -> Iterator[Command]:
        quota = camp_state(state).quota
        ids = self.board.territories
        for t, owner in enumerate(state.owner):
            if owner >= 0 and quota[owner]:
                for k in range(1, quota[owner] + 1):
                    yield Place(seat=seat, territory=ids[t].id, count=k)

    def _legal_attack_camp(self, state: GameState, seat: Seat) -> Iterator[Command]:
        index = self.board.index
        for cmd in self._legal_attack_adv(state, seat):
            if isinstance(cmd, Attack | Fortify | MoveGeneral):
                o = index[cmd.origin]
                if self.uk_garrison(state, o):
                    n = cmd.dice if isinstance(cmd, Attack) else cmd.count
                    if n > self.free_units(state, o):
                        continue
            yield cmd
        fam = camp_state(state)
        if fam.forced:
            return
        ids = self.board.territories
        for ally in self.allies(state, seat):
            if ally in fam.maneuvered:
                continue
            for o, t in self.ally_moves(state, ally):
                for count in range(1, state.armies[o]):  # every count ``_ally_maneuver`` takes
                    yield AllyManeuver(seat=seat, origin=ids[o].id, target=ids[t].id, count=count)
        if self.realliance_open(state, seat):
            c = index[fam.realliance]
            for card in sorted(set(state.players[seat].hand)):  # NAP-CAMP-10: any card
                for n in self.board.neighbours[c]:
                    if state.owner[n] == seat:
                        yield Really(seat=seat, card=card, withdraw_to=ids[n].id)

    def _legal_annex(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield from self.annexations(state, seat)
        yield EndPhase(seat=seat)

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **NapoleonAdvanced.COMMAND_HANDLERS,
        Place: ActiveIndependents._place_after_influence,
        Trade: ActiveIndependents._trade_after_influence,
        Convert: _convert_camp,
        Ransom: _ransom_camp,
        PlayCard: _play_card_camp,
        Attack: _attack_camp,
        Fortify: _fortify_camp,
        MoveGeneral: _move_general_camp,
        GiveCard: ActiveIndependents._give,
        ReinforceAlly: _reinforce_ally,
        AllyManeuver: _ally_maneuver,
        EndPhase: ActiveIndependents._end_phase,
        Really: _really,
        Annex: _annex,
    }
    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **NapoleonAdvanced.EVENT_HANDLERS,
        LeadersCaptured: _on_captured_camp,
        PlayerEliminated: _on_eliminated_camp,
        CardGiven: ActiveIndependents._on_card_given,
        InfluenceEnded: ActiveIndependents._on_influence_ended,
        AlliedIncome: _on_allied_income,
        AllyReinforcementsEnded: ActiveIndependents._on_ally_reinforcements_ended,
        AllyPlaced: ActiveIndependents._on_ally_placed,
        StatusRolled: _on_status_rolled,
        StabilityRolled: _on_stability_rolled,
        InvasionEnded: _on_invasion_ended,
        InvasionScored: _on_invasion_scored,
        ObjectivesScored: _on_objectives,
        CapitalFell: _on_capital_fell,
        RealliancePossible: _on_realliance_possible,
        Reallied: _on_reallied,
        AllyManeuvered: _on_ally_maneuvered,
        AnnexOpened: _on_annex_opened,
        Annexed: _on_annexed,
        CampaignOpened: _on_campaign_opened,
        PositionSet: _on_position_camp,
    }
    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **{k: v for k, v in NapoleonAdvanced.LEGAL.items() if k != "pieces"},
        # (a reinforcement command would close the step too: ``EndPhase`` first lists them)
        "influence": ActiveIndependents._legal_gifts,
        "ally_reinforce": ActiveIndependents._legal_ally_reinforce,
        "ally_place": _legal_ally_place,
        "attack": _legal_attack_camp,
        "annex": _legal_annex,
    }
