"""The Clone Wars faction game (rulebook 002, CW-01..43): Republic against Separatists.

Four armies are always in play, in turn order red, black, orange, blue (CW-07/08); a player
commands one or two of them (:func:`~risk_core.rulesets.clonewars_factions.faction_seats`).
Each army is a seat with its own hand, troops, ships and planets; armies of one faction never
attack each other and win or lose together (CW-41).

The turn's 11 steps (CW-16) map onto CORE's phases and the family's own:

1. ``token`` (Separatists while tokens remain, before Order 66): place the top token (CW-17);
2. Sidious advances one space (CW-18), automatically;
3-5. ``reinforce``: CORE's income (CW-19), sets of 3 cards (CW-21, DEC-33: as many as you
   like; a hand of 5 must trade), one ship built from one card (CW-22, ``build_ship``), card
   powers timed for step 4 (``play_power``), then placement (CW-23);
6. ``attack``: invasions with ship support (CW-24..29, :func:`fight`; with
   ``ship_support=chosen`` each side names the ships that support it, ``choose_support``),
   Palpatine's planet defended with d8 (CW-28), tokens captured (CW-30), eliminations
   discarding cards (CW-31);
7. one troop move through planets of the faction to an own planet (CW-33, DEC-36);
8. one ship move the same way (CW-34, ``move_ship``);
9. ``ask_command``: a planet of the teammate, answered by the teammate (``consent``, CW-35);
10. the end of the turn draws 1-2 cards plus the red dots of captured tokens (CW-36);
11. ``invoke_order66`` instead of ending the turn (Separatists, once a game, CW-37..39), then
    ``palpatine``: Palpatine placed on a Separatist planet (CW-40).

Claiming follows DEC-34: the two Republic armies pick one planet each first (a d6 roll between
them decides who picks first, so a planet both want goes to the higher roll, CW-11), then every
army rolls a d6 and the highest claims first, clockwise; placement starts with that army; a new
roll among the armies decides the first turn.

Card powers come from ``boards/clonewars/powers.json`` (GAP-17, reconstructed): a power with
an effect works at its timing; the others have no effect in the engine (``risk rules``
lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import msgspec

from boards import BOARDS_DIR
from risk_core.dice import DiceSpec, Odds
from risk_core.errors import RuleError, SetupError
from risk_core.model import (
    BattleFought,
    CardsTraded,
    Command,
    DeckFormed,
    Event,
    Fortified,
    Fortify,
    GameState,
    GameWon,
    LegalMove,
    OptionValue,
    PendingAttack,
    PlayerEliminated,
    Seat,
    SeatInfo,
    SetupPlaced,
    TerritoriesDealt,
    TerritoryConquered,
    TurnEnded,
    TurnStarted,
)
from risk_core.rng import Rng
from risk_core.rulesets.base import (
    CORE_PHASES,
    Emit,
    Option,
    RuleSet,
    compare_faces,
    defence_request,
)
from risk_core.rulesets.clonewars_data import SHIP_CLASSES, SeparatistToken, anakin_cards
from risk_core.rulesets.clonewars_dice import SideDice, battle_losses, throw_battle_sides
from risk_core.rulesets.clonewars_factions import (
    FACTION_OF,
    SHIPS_PER_CLASS,
    STARTING_TROOPS,
    cards_to_draw,
    faction_seats,
    order66_faces,
)
from risk_core.rulesets.clonewars_standard import MIXED_SET_VALUE, SHIP_SET_VALUES
from risk_core.rulesets.clonewars_state import (
    NO_SHIPS,
    SHIP_KINDS,
    AnswerCommand,
    AskCommand,
    BuildShip,
    ChooseSupport,
    CommandAnswered,
    CommandAsked,
    CWCardDrawn,
    CWOpening,
    CWState,
    FactionDeckReshuffled,
    FactionWon,
    HandDiscarded,
    InvokeOrder66,
    MoveShip,
    Order66Invoked,
    PalpatinePlaced,
    PlacePalpatine,
    PlaceToken,
    PlayPower,
    PowerPlayed,
    ShipBuilt,
    Ships,
    ShipsFollow,
    ShipsMoved,
    ShipSupport,
    SidiousAdvanced,
    SupportChosen,
    TokenPlaced,
    TokensCaptured,
    replace_at,
)

# CORE's phases less the elimination trade (CW-31: nobody takes the cards) and the score's last
# round (no round limit).
CW_PHASES: dict[str, str] = {
    **{k: v for k, v in CORE_PHASES.items() if k not in ("elim_trade", "final")},
    "setup": "claim planets (the Republic first), then place starting troops one at a time",
    "token": "place the top Separatist token face down on one of your planets (step 1)",
    "reinforce": "trade sets, build one ship, play step-4 powers, place reinforcements",
    "attack": "invade, move troops then one ship, ask a change of command, end the turn "
    "(Separatists: or invoke Order 66)",
    "consent": "answer the teammate's change of command (yes or no)",
    "palpatine": "place Emperor Palpatine on a Separatist planet",
}


class CardPower(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A faction card's special power (CW-14, GAP-17), as reconstructed in powers.json."""

    card: int
    name: str
    timing: str  # "step4", or "" with effect "none"
    effect: str  # "troops" or "none" (no effect in the engine)
    amount: int = 0
    verified: bool = False
    note: str = ""


class PowersFile(msgspec.Struct, frozen=True, kw_only=True):
    about: str
    powers: tuple[CardPower, ...]


def load_powers() -> dict[int, CardPower]:
    """The card powers of ``boards/clonewars/powers.json`` (kept out of ``board.json`` so the
    galaxy's content hash, and the standard game's records, stay as they are)."""
    raw = (BOARDS_DIR / "clonewars" / "powers.json").read_bytes()
    data = msgspec.json.decode(raw, type=PowersFile)
    for p in data.powers:
        if p.effect not in ("troops", "none") or (p.effect == "troops" and p.timing != "step4"):
            raise SetupError("missing_data", f"powers.json: card {p.card} has a bad effect")
    return {p.card: p for p in data.powers}


def cw(state: GameState) -> CWState:
    family = state.family
    assert isinstance(family, CWState), "not a Clone Wars state"
    return family


def add_ships(a: Ships, b: Ships, sign: int = 1) -> Ships:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


def fit_ships(ships: Ships, fleet: Ships) -> Ships:
    """The part of ``ships`` an army with ``fleet`` may take: 3 of a class at most (CW-22;
    DEC-35 (c): the rest of a converted planet's ships is destroyed)."""
    room = [max(0, SHIPS_PER_CLASS - n) for n in fleet]
    return (min(ships[0], room[0]), min(ships[1], room[1]), min(ships[2], room[2]))


class CloneWars(RuleSet):
    """CLONEWARS: the faction game for 2-4 players, four armies (CW-01..43)."""

    die_sides_max = 8  # d6, and d8 for capital ships and Palpatine's planet (CW-25/28)
    name = "clonewars"
    title = "Star Wars Clone Wars: Republic against Separatists (2–4 players, 4 armies)"
    board_name = "clonewars"
    min_players = 2
    max_players = 4
    phases: ClassVar[dict[str, str]] = CW_PHASES
    family_state = CWState
    cli_module = "risk_cli.clonewars_moves"
    options: ClassVar[dict[str, Option]] = {
        "set_trades": Option(
            default="several",
            choices=("several", "one"),
            doc="DEC-33 (CW-20): any number of sets at step 4, at most one ship (several, "
            "recommended: '(ou plus)', and a hand of 5 must go below 5), or one set a turn "
            "(one).",
        ),
        "order66_at": Option(
            default="any_space",
            choices=("any_space", "numbered_space"),
            doc="DEC-35 (b) (CW-37): Order 66 may be invoked with Sidious on any space, where "
            "a space without numbers converts nothing (any_space, recommended), or only on a "
            "space showing numbers (numbered_space).",
        ),
        "card_powers": Option(
            default="reconstructed",
            choices=("reconstructed", "off"),
            doc="GAP-17 (CW-14/15): the card texts are not in rulebook 002. reconstructed: "
            "the 6 Anakin cards (placeholder ids 0, 1, 2, 30, 31, 32) give +2 troops at "
            "step 4, the other 54 cards' powers have no effect in the engine "
            "(boards/clonewars/powers.json, verified: false); off: cards serve only for "
            "sets and ships.",
        ),
        "ship_support": Option(
            default="all",
            choices=("all", "chosen"),
            doc="CW-25 (002 l.358-395: ships 'may' support, 'vous pouvez les utiliser'). all "
            "(recommended, the default): every ship on the attacking planet supports the "
            "attacker and every ship on the attacked planet the defender, as no ship ever "
            "worsens its side's dice. chosen: before invading from a planet the attacker "
            "names how many ships of each class there support its battles this turn (`risk "
            "support`); only they move in after a conquest (DEC-36), the others stay to guard "
            "the origin. The defender does the same for the attacked planet before its dice "
            "(`risk support`, then `risk defend`). A class not named supports whole.",
        ),
        "faction_reshuffle": Option(
            default="discard_pile",
            choices=("discard_pile", "never"),
            doc="CORE-11 with CW-21/22/31 (002 l.317, 329, 459). discard_pile (recommended: "
            "CORE-11 holds in every game): an army that must draw from its faction's empty "
            "deck first shuffles that faction's discard pile into a new deck: the cards "
            "spent to build ships ('pile de défausse'), on their power, and an eliminated "
            "army's ('se défausse'); a troop set is out of play ('hors jeu'). never: every "
            "card played leaves play, and an empty deck gives nothing.",
        ),
    }
    set_sizes = (3,)

    def __init__(self) -> None:
        super().__init__()
        tokens: tuple[SeparatistToken, ...] = self.board.section("cw_tokens") or ()
        self.tokens = {t.id: t for t in tokens}
        self.track_length = len(self.board.section("cw_order66_track") or ())
        self.anakin = anakin_cards(self.board)
        self.powers = load_powers()
        self.kinds = tuple(c.kind for c in self.board.cards)
        self.decks = tuple(c.deck for c in self.board.cards)

    def resolve_options(self, given: dict[str, OptionValue]) -> dict[str, OptionValue]:
        """The options; ``ship_support`` left out when it is the default and not given, so a
        game opened without it records the options games recorded before it did (the golden
        games replay byte for byte); a missing ``ship_support`` reads as ``all``."""
        opts = super().resolve_options(given)
        if "ship_support" not in given and opts.get("ship_support") == "all":
            del opts["ship_support"]
        return opts

    # ------------------------------------------------------------------ seats and factions
    def seats_for(self, players: Sequence[str | SeatInfo]) -> list[SeatInfo]:
        """CW-07/08: 2-4 players become the four armies.  Four seats already coloured red,
        black, orange, blue (a scenario, a branch) are kept; otherwise each player's name and
        policy go to the armies it commands (its colour is the army's)."""
        infos = [p for p in players if isinstance(p, SeatInfo)]
        if len(infos) == 4 and [s.colour for s in infos] == ["red", "black", "orange", "blue"]:
            return super().seats_for(infos)
        if any(p.commander is not msgspec.UNSET for p in infos):
            raise SetupError(
                "bad_commander",
                "Clone Wars gives each player its armies itself (CW-07: with 2 players the "
                "first commands Red and Orange, the second Black and Blue): leave out "
                "--commander.",
            )
        names = [p.name if isinstance(p, SeatInfo) else p for p in players]
        policy = {p.name: p.policy for p in infos}
        seats = faction_seats(names)
        return [
            msgspec.structs.replace(
                s,
                policy=policy.get(s.name if s.commander is msgspec.UNSET else s.commander, "auto"),
            )
            for s in seats
        ]

    def allows_players(self, n: int) -> bool:
        return 2 <= n <= 4

    def faction(self, state: GameState, seat: Seat) -> str:
        return FACTION_OF[state.players[seat].colour]

    def allies(self, state: GameState, seat: Seat) -> list[Seat]:
        """``seat`` and the other army of its faction."""
        f = self.faction(state, seat)
        return [s for s in range(len(state.players)) if self.faction(state, s) == f]

    def teammate(self, state: GameState, seat: Seat) -> Seat:
        return next(s for s in self.allies(state, seat) if s != seat)

    def seat_of_colour(self, state: GameState, colour: str) -> Seat | None:
        for i, p in enumerate(state.players):
            if p.colour == colour or p.name.casefold() == colour.casefold():
                return i
        return None

    # ------------------------------------------------------------------ ships
    def ships_on(self, state: GameState, t: int) -> Ships:
        return cw(state).ships.get(self.board.territories[t].id, NO_SHIPS)

    def army_ships(self, state: GameState, seat: Seat) -> Ships:
        total = NO_SHIPS
        index, owner = self.board.index, state.owner
        for planet, ships in cw(state).ships.items():
            if owner[index[planet]] == seat:
                total = add_ships(total, ships)
        return total

    # ------------------------------------------------------------------ setup (CW-09..13)
    def starting_armies(self, state: GameState) -> int:
        return STARTING_TROOPS["republic"]

    def opening(self, state: GameState, emit: Emit) -> None:
        n = self.n_territories
        left = tuple(STARTING_TROOPS[FACTION_OF[p.colour]] for p in state.players)  # CW-09
        rng = Rng(state.seed, state.rng)
        emit(TerritoriesDealt(owners=(-1,) * n, armies=(0,) * n, setup_left=left, rng=rng.counter))
        self.choose_first_player(state, emit)  # DEC-34 (i): every army rolls, highest claims
        rng = Rng(state.seed, state.rng)
        deck: list[int] = []
        for name in ("separatist", "republic"):  # CW-10: two decks shuffled apart
            deck += rng.shuffle([c.id for c in self.board.cards if c.deck == name])
        emit(DeckFormed(deck=tuple(deck), rng=rng.counter))
        rng = Rng(state.seed, state.rng, state.dice_script)
        ids = list(self.tokens)
        pile = tuple(ids[i] for i in rng.shuffle(list(range(len(ids)))))
        republic = [s for s, p in enumerate(state.players) if FACTION_OF[p.colour] == "republic"]
        rolls: list[tuple[int, ...]] = []
        contenders = republic
        while len(contenders) > 1:  # CW-11: the higher d6 picks first (ties roll again)
            faces = {s: rng.die() for s in contenders}
            rolls.append(tuple(faces.get(s, 0) for s in republic))
            top = max(faces.values())
            contenders = [s for s in contenders if faces[s] == top]
        order = (contenders[0], *(s for s in republic if s != contenders[0]))
        emit(
            CWOpening(
                pile=pile,
                republic_rolls=tuple(rolls),
                republic_order=order,
                rng=rng.counter,
                scripted=rng.scripted,
            )
        )

    def setup_complete(self, state: GameState, emit: Emit) -> None:
        self.choose_first_player(state, emit)  # DEC-34 (iii): a new roll for the first turn

    # ------------------------------------------------------------------ cards (CW-20..22)
    def set_value(self, state: GameState, cards: Sequence[int]) -> int | None:
        """CW-21: three of one class 4/5/6, one of each class 7."""
        if len(cards) != 3:
            return None
        classes = [self.kinds[c] for c in cards]
        if len(set(classes)) == 1:
            return SHIP_SET_VALUES[classes[0]]
        if sorted(classes) == sorted(SHIP_CLASSES):
            return MIXED_SET_VALUE
        return None

    def scenario_deck(self) -> list[int]:
        return [c.id for c in self.board.cards]

    def one_set_per_turn(self, state: GameState) -> bool:
        return state.options.get("set_trades", "several") == "one"  # DEC-33

    def must_trade(self, state: GameState, seat: Seat) -> bool:
        """CW-20: a hand of 5 trades first; with one set a turn (DEC-33 (A)) the obligation
        ends with that set, or the army could never place its troops."""
        return super().must_trade(state, seat) and not self.set_limit_reached(state)

    def elimination_trade_due(self, state: GameState, seat: Seat) -> bool:
        return False  # CW-31: an eliminated army's cards are discarded, nobody takes them

    def build_error(self, state: GameState, seat: Seat, card: int) -> RuleError | None:
        """CW-22: why ``seat`` cannot build a ship from ``card`` now, if it cannot."""
        if state.phase != "reinforce":
            return RuleError("wrong_phase", "Ships are built at step 4, before placing (CW-22).")
        if cw(state).built:
            return RuleError("one_per_turn", "You have built a ship this turn (CW-22).")
        if card not in state.players[seat].hand:
            return RuleError("not_in_hand", f"You hold no card {card}.")
        kind = self.kinds[card]
        if self.army_ships(state, seat)[SHIP_KINDS.index(kind)] >= SHIPS_PER_CLASS:
            return RuleError(
                "ship_limit", f"You have {SHIPS_PER_CLASS} {kind} ships on the board (CW-22)."
            )
        return None

    def _build_ship(self, state: GameState, cmd: BuildShip, emit: Emit) -> None:
        err = self.build_error(state, cmd.seat, cmd.card)
        if err is not None:
            raise err
        t = self.territory(cmd.territory)
        if state.owner[t] != cmd.seat:
            raise RuleError(
                "not_owner", f"Place your ship on a planet of yours, not {self.board.name(t)}."
            )
        tid = self.board.territories[t].id
        emit(ShipBuilt(seat=cmd.seat, card=cmd.card, kind=self.kinds[cmd.card], territory=tid))

    def power_error(self, state: GameState, seat: Seat, card: int) -> RuleError | None:
        """CW-14/15: why ``card``'s power cannot be played now, if it cannot."""
        if card not in state.players[seat].hand:
            return RuleError("not_in_hand", f"You hold no card {card}.")
        if state.options.get("card_powers", "reconstructed") == "off":
            return RuleError("no_effect", "Card powers are off in this game (GAP-17).")
        power = self.powers.get(card)
        if power is None or power.effect == "none":
            return RuleError(
                "no_effect",
                f"Card {card}'s power has no effect in the engine (GAP-17: see `risk rules "
                "clonewars`).",
            )
        if card in self.anakin and cw(state).order66 and self.faction(state, seat) == "republic":
            return RuleError(
                "anakin_turned",
                "After Order 66 only the Separatists may use Anakin's powers (CW-15).",
            )
        if power.timing == "step4" and state.phase != "reinforce":
            return RuleError("wrong_phase", "This power is played at step 4 (its timing).")
        return None

    def _play_power(self, state: GameState, cmd: PlayPower, emit: Emit) -> None:
        err = self.power_error(state, cmd.seat, cmd.card)
        if err is not None:
            raise err
        power = self.powers[cmd.card]
        emit(PowerPlayed(seat=cmd.seat, card=cmd.card, power=power.name, troops=power.amount))

    # ------------------------------------------------------------------ tokens (CW-17)
    def token_spots(self, state: GameState, seat: Seat) -> list[int]:
        """CW-17: own planets without a token, or any own planet when all have one."""
        own = self.territories_of(state, seat)
        tokens = cw(state).tokens
        free = [t for t in own if not tokens.get(self.board.territories[t].id)]
        return free or own

    def _place_token(self, state: GameState, cmd: PlaceToken, emit: Emit) -> None:
        if state.phase != "token":
            raise RuleError("wrong_phase", "Tokens are placed at step 1 of a Separatist turn.")
        t = self.territory(cmd.territory)
        if state.owner[t] != cmd.seat:
            raise RuleError(
                "not_owner", f"Place the token on a planet of yours, not {self.board.name(t)}."
            )
        if t not in self.token_spots(state, cmd.seat):
            raise RuleError(
                "token_there",
                f"{self.board.name(t)} holds a token: choose a planet without one (CW-17).",
            )
        tid = self.board.territories[t].id
        emit(TokenPlaced(seat=cmd.seat, territory=tid, token=cw(state).pile[-1]))

    # ------------------------------------------------------------------ invasions
    def target_error(self, state: GameState, seat: Seat, target: int) -> RuleError | None:
        """CW-24: a planet of the army's own faction is never invaded."""
        held = state.owner[target]
        if held >= 0 and self.faction(state, held) == self.faction(state, seat):
            return RuleError(
                "teammate",
                f"{self.board.name(target)} belongs to your faction: invade only the other "
                "faction's planets (CW-24).",
            )
        return None

    def attack_error(
        self, state: GameState, seat: Seat, origin: int, target: int
    ) -> RuleError | None:
        """CW-24: only the other faction's planets; none once troops have been moved."""
        err = self.target_error(state, seat, target)
        if err is not None:
            return err
        if cw(state).step > 6:
            return RuleError("attacks_over", "Your invasions are over for this turn (CW-16).")
        return None

    def supporting(self, state: GameState, t: int) -> Ships:
        """CW-25: the ships of ``t`` that support its side's battles: every one, or as many of
        each class as its army named (``choose_support``, ship_support=chosen)."""
        ships = self.ships_on(state, t)
        chosen = cw(state).chosen
        if isinstance(chosen, dict):
            cap = chosen.get(self.board.territories[t].id)
            if cap is not None:
                return (min(ships[0], cap[0]), min(ships[1], cap[1]), min(ships[2], cap[2]))
        return ships

    def support_error(
        self, state: GameState, seat: Seat, t: int, kind: str, count: int
    ) -> RuleError | None:
        """CW-25 (ship_support=chosen): why ``seat`` cannot commit ``count`` ``kind`` ships of
        ``t`` now, if it cannot: the attacker chooses on a planet of its own during its
        invasions, the defender on the attacked planet before its dice."""
        if state.options.get("ship_support", "all") != "chosen":
            return RuleError(
                "wrong_rules",
                "Every ship present supports its side in this game (ship_support=all, CW-25); "
                "a game started with --option ship_support=chosen lets the armies choose.",
            )
        name = self.board.name(t)
        if state.phase == "attack":
            if state.owner[t] != seat:
                return RuleError("not_owner", f"Choose the ships of a planet of yours, not {name}.")
            if cw(state).step > 6:
                return RuleError("attacks_over", "Your invasions are over for this turn (CW-16).")
        elif state.phase == "defend":
            order = state.attack
            if order is None or order.target != t:
                where = self.board.name(order.target) if order is not None else "none"
                return RuleError(
                    "not_owner", f"Choose the ships of the attacked planet ({where}), not {name}."
                )
        elif state.phase == "occupy":
            return self.must_occupy(state)
        else:
            return RuleError(
                "wrong_phase", "Ships are chosen for an invasion or its defence (CW-25)."
            )
        if kind not in SHIP_KINDS:
            return RuleError("bad_command", f"A ship is a {', '.join(SHIP_KINDS)}, not {kind!r}.")
        have = self.ships_on(state, t)[SHIP_KINDS.index(kind)]
        if have == 0:
            return RuleError("no_ships", f"{name} has no {kind}.")
        if not 0 <= count <= have:
            return RuleError("bad_count", f"Choose 0 to {have} of the {kind}s on {name}.")
        return None

    def _choose_support(self, state: GameState, cmd: ChooseSupport, emit: Emit) -> None:
        t = self.territory(cmd.planet)
        err = self.support_error(state, cmd.seat, t, cmd.kind, cmd.count)
        if err is not None:
            raise err
        tid = self.board.territories[t].id
        emit(SupportChosen(seat=cmd.seat, planet=tid, kind=cmd.kind, count=cmd.count))

    def support_choices(self, state: GameState) -> Iterator[tuple[ChooseSupport, int]]:
        """CW-25 (ship_support=chosen): each ``choose_support`` open to the seat to act, with
        ``count`` 0 and the most it may take (the attacker: its planets' ships while it
        invades; the defender: the attacked planet's)."""
        if state.options.get("ship_support", "all") != "chosen":
            return
        seat = self.to_act(state)
        if state.phase == "attack" and cw(state).step <= 6:
            planets = [t for t in self.territories_of(state, seat) if any(self.ships_on(state, t))]
        elif state.phase == "defend" and state.attack is not None:
            planets = [state.attack.target]
        else:
            return
        ids = self.board.territories
        for t in planets:
            for kind, have in zip(SHIP_KINDS, self.ships_on(state, t), strict=True):
                if have:
                    yield ChooseSupport(seat=seat, planet=ids[t].id, kind=kind, count=0), have

    def side(self, state: GameState, t: int, troops: int, defending: bool) -> SideDice:
        f, c, k = self.supporting(state, t)
        palpatine = defending and cw(state).palpatine == self.board.territories[t].id
        return SideDice(troops=troops, fighters=f, corvettes=c, capital=k, all_d8=palpatine)

    def dice_spec(self, side: SideDice) -> DiceSpec:
        """A side as CORE's ``DiceSpec`` when one says it exactly (``risk odds``): d6 or all
        d8, corvettes as +1 on the highest dice; fighters' re-rolls until not 1 and d8s mixed
        with d6s have no ``DiceSpec``: ``cw_odds`` (`risk cw-odds` computes them exactly)."""
        eff = side.effective
        sides = 8 if eff.capital == eff.troops else 6
        if eff.fighters or eff.capital not in (0, eff.troops):
            raise RuleError(
                "cw_odds",
                "Fighters and a mix of d8 and d6 are computed by `risk cw-odds` (CW-25/26).",
            )
        return DiceSpec(count=eff.troops, sides=sides, ranked=(1,) * eff.corvettes, cap=False)

    def attack_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        return self.dice_spec(self.side(state, order.origin, count, False))

    def defence_dice(self, state: GameState, order: PendingAttack, count: int) -> DiceSpec:
        return self.dice_spec(self.side(state, order.target, count, True))

    def battle_odds(self, state: GameState, ev: BattleFought) -> Odds | None:
        """Exact mean and variance of both sides' losses in ``ev``, from the dice its
        ``ship_support`` announced (the state before ``ev``); the luck report (`risk stats`)
        reads them.  None outside a Clone Wars battle."""
        family = state.family
        if not isinstance(family, CWState) or len(family.dice) != 2:
            return None
        dist = battle_losses(family.dice[0], family.dice[1])
        a_mean = sum((p * a for (a, _), p in dist), Fraction(0))
        d_mean = sum((p * d for (_, d), p in dist), Fraction(0))
        a_var = sum((p * (a - a_mean) ** 2 for (a, _), p in dist), Fraction(0))
        d_var = sum((p * (d - d_mean) ** 2 for (_, d), p in dist), Fraction(0))
        return Odds(float(a_mean), float(a_var), float(d_mean), float(d_var))

    def fight(
        self, state: GameState, order: PendingAttack, defence: int | None, emit: Emit
    ) -> None:
        """CORE's battles of one order, each thrown with the ships of both planets (CW-25..28)
        and recorded as ``ship_support`` then ``battle``."""
        ids = self.board.territories
        o, t = order.origin, order.target
        while True:
            a = min(order.dice, state.armies[o] - 1)
            if state.armies[t] == 0:  # a branch cut between a battle and its conquest
                self.conquer(state, order, a, emit)
                return
            most = min(self.defence_dice_max, state.armies[t])
            if defence is None:
                if state.players[order.defender].policy == "ask":
                    emit(defence_request(order, ids[o].id, ids[t].id))
                    return
                defence = most
            d = min(defence, most)
            attack_side = self.side(state, o, a, False).effective
            defence_side = self.side(state, t, d, True).effective
            rng = Rng(state.seed, state.rng, state.dice_script)
            (a_nat, a_faces), (d_nat, d_faces) = throw_battle_sides(rng, attack_side, defence_side)
            emit(
                ShipSupport(
                    attack=attack_side,
                    defence=defence_side,
                    attack_natural=a_nat,
                    defence_natural=d_nat,
                )
            )
            a_loss, d_loss = compare_faces(a_faces, d_faces)
            emit(
                BattleFought(
                    seat=state.current,
                    origin=ids[o].id,
                    target=ids[t].id,
                    defender=order.defender,
                    attack=a_faces,
                    defence=d_faces,
                    attacker_losses=a_loss,
                    defender_losses=d_loss,
                    rng=rng.counter,
                    scripted=rng.scripted,
                )
            )
            if state.armies[t] == 0:
                self.conquer(state, order, a, emit)
                return
            if order.until == "once" or state.armies[o] <= max(order.stop_at, 1):
                return
            defence = None

    def conquer(self, state: GameState, order: PendingAttack, dice: int, emit: Emit) -> None:
        """CW-29/30: CORE's conquest, then a Republic army takes the planet's tokens."""
        o, t = order.origin, order.target
        ids = self.board.territories
        tokens = cw(state).tokens.get(ids[t].id, ())
        previous = state.owner[t]
        emit(
            TerritoryConquered(
                seat=state.current,
                origin=ids[o].id,
                target=ids[t].id,
                previous=previous,
                min=dice,
                max=state.armies[o] - 1,
            )
        )
        if tokens and self.faction(state, state.current) == "republic":
            emit(TokensCaptured(seat=state.current, territory=ids[t].id, tokens=tokens))
        if previous not in state.owner:
            self.eliminate(state, previous, state.current, emit)
        occ = state.occupation
        if occ is not None and order.move is not None:
            emit(self._occupied(state, state.current, occ, max(occ.min, min(occ.max, order.move))))

    def eliminate(self, state: GameState, seat: Seat, by: Seat, emit: Emit) -> None:
        """CW-31: the army's cards are discarded, then it is out (nobody takes its cards)."""
        hand = tuple(state.players[seat].hand)
        if hand:
            emit(HandDiscarded(seat=seat, cards=hand))
        emit(PlayerEliminated(seat=seat, by=by, cards=()))

    def _ships_follow(self, state: GameState, cmd: ShipsFollow, emit: Emit) -> None:
        family = cw(state)
        if state.phase == "occupy":
            raise self.must_occupy(state)
        if state.phase != "attack" or not family.follow:
            raise RuleError(
                "wrong_phase", "Ships follow a conquest at once, before a new invasion (CW-29)."
            )
        origin, target = family.follow
        want = (cmd.fighters, cmd.corvettes, cmd.capitals)
        have = family.ships.get(origin, NO_SHIPS)
        if min(want) < 0 or sum(want) == 0 or any(w > h for w, h in zip(want, have, strict=True)):
            raise RuleError(
                "not_enough_ships",
                f"{self.board.name(self.board.index[origin])} has {have[0]} fighters, "
                f"{have[1]} corvettes and {have[2]} capital ships.",
            )
        emit(ShipsMoved(seat=cmd.seat, origin=origin, target=target, ships=want))

    # ------------------------------------------------------------------ moves (CW-33/34)
    def connected_own(self, state: GameState, seat: Seat, origin: int) -> set[int]:
        """CW-33: planets reachable from ``origin`` through planets of the faction."""
        owner, nbrs = state.owner, self.move_graph(state, seat)
        allies = set(self.allies(state, seat))
        seen = {origin}
        stack = [origin]
        while stack:
            for n in nbrs[stack.pop()]:
                if n not in seen and owner[n] in allies:
                    seen.add(n)
                    stack.append(n)
        return seen

    def fortify_mode(self, state: GameState) -> str:
        return "connected"

    def fortify_options(self, state: GameState, seat: Seat) -> Iterator[tuple[int, int]]:
        if cw(state).step >= 7:
            return
        owner = state.owner
        for o, t in super().fortify_options(state, seat):
            if owner[t] == seat:  # DEC-36: to an own planet
                yield o, t

    def after_fortify(self, state: GameState, emit: Emit) -> None:
        """Step 7 done; the turn goes on to the ship move and the change of command."""

    def _fortify_cw(self, state: GameState, cmd: Fortify, emit: Emit) -> None:
        step = cw(state).step
        if state.phase == "attack" and step >= 7:
            raise RuleError(
                "one_per_turn",
                "Your troops have moved already this turn (CW-33)."
                if step == 7
                else "Troops move before ships and the change of command (CW-33): this turn "
                "is past that step.",
            )
        RuleSet._fortify(self, state, cmd, emit)

    def _move_ship(self, state: GameState, cmd: MoveShip, emit: Emit) -> None:
        if state.phase != "attack":
            if state.phase == "occupy":
                raise self.must_occupy(state)
            raise RuleError("wrong_phase", f"You cannot move a ship in the {state.phase} phase.")
        if cw(state).step >= 8:
            raise RuleError("one_per_turn", "One ship move a turn, before asking (CW-34).")
        if cmd.kind not in SHIP_KINDS:
            raise RuleError(
                "bad_command", f"A ship is a {', '.join(SHIP_KINDS)}, not {cmd.kind!r}."
            )
        o, t = self.territory(cmd.origin), self.territory(cmd.target)
        if state.owner[o] != cmd.seat or state.owner[t] != cmd.seat or o == t:
            raise RuleError("not_owner", "Move a ship between two different planets of yours.")
        k = SHIP_KINDS.index(cmd.kind)
        if self.ships_on(state, o)[k] < 1:
            raise RuleError("no_ships", f"{self.board.name(o)} has no {cmd.kind} of yours.")
        if t not in self.connected_own(state, cmd.seat, o):
            raise RuleError(
                "not_connected",
                f"{self.board.name(t)} cannot be reached from {self.board.name(o)} through your "
                "faction's planets (CW-34).",
            )
        ships: Ships = (int(k == 0), int(k == 1), int(k == 2))
        ids = self.board.territories
        emit(
            ShipsMoved(
                seat=cmd.seat, origin=ids[o].id, target=ids[t].id, ships=ships, why="fortify"
            )
        )

    # ------------------------------------------------------------------ command (CW-35)
    def ask_error(self, state: GameState, seat: Seat, t: int) -> RuleError | None:
        family = cw(state)
        if state.phase != "attack":
            return RuleError("wrong_phase", "A change of command comes after moving (CW-35).")
        if family.step >= 9:
            return RuleError("one_per_turn", "One change of command a turn (CW-35).")
        mate = self.teammate(state, seat)
        tid = self.board.territories[t].id
        if state.owner[t] != mate or state.players[mate].eliminated:
            return RuleError("not_ally", f"{self.board.name(t)} is not your teammate's.")
        if (
            state.armies[t] != 1
            or any(family.ships.get(tid, NO_SHIPS))
            or family.tokens.get(tid)
            or family.palpatine == tid
        ):
            return RuleError(
                "not_transferable",
                f"{self.board.name(t)} must hold exactly 1 troop, no ship, no token and not "
                "Palpatine (CW-35).",
            )
        if state.owner.count(mate) == 1:
            # CW-35 does not say; no rule eliminates an army by its teammate's consent, and an
            # army without a planet could never act again (CORE-18 would have it out of the
            # game): so an army's last planet stays its own.
            return RuleError(
                "last_planet",
                f"{self.board.name(t)} is the last planet of {state.players[mate].name}: "
                "an army keeps its last planet (CW-35).",
            )
        return None

    def _ask_command(self, state: GameState, cmd: AskCommand, emit: Emit) -> None:
        t = self.territory(cmd.territory)
        err = self.ask_error(state, cmd.seat, t)
        if err is not None:
            raise err
        mate = self.teammate(state, cmd.seat)
        emit(CommandAsked(seat=cmd.seat, teammate=mate, territory=self.board.territories[t].id))

    def _answer_command(self, state: GameState, cmd: AnswerCommand, emit: Emit) -> None:
        family = cw(state)
        if state.phase != "consent" or not family.asked:
            raise RuleError("wrong_phase", "No change of command is waiting for an answer.")
        emit(
            CommandAnswered(
                seat=cmd.seat, to=state.current, territory=family.asked, accept=cmd.accept
            )
        )

    def to_act(self, state: GameState) -> Seat:
        if state.phase == "consent":
            family = state.family
            if isinstance(family, CWState) and family.asked:
                return state.owner[self.board.index[family.asked]]
        return super().to_act(state)

    # ------------------------------------------------------------------ end of turn
    def cards_due(self, state: GameState, seat: Seat) -> int:
        """CW-36: one card per opposing army hit, plus the red dots of captured tokens."""
        family = cw(state)
        colours = [state.players[s].colour for s in family.hit]
        dots = [self.tokens[t].dots for t in family.taken_tokens]
        return cards_to_draw(state.players[seat].colour, colours, dots)

    def draw_cards(self, state: GameState, seat: Seat, emit: Emit) -> None:
        """CW-36 from the army's faction deck; when it is empty, CORE-11 shuffles the
        faction's discard pile into a new one (option ``faction_reshuffle``); with neither,
        the draw is skipped."""
        deck = self.faction(state, seat)
        for _ in range(self.cards_due(state, seat)):
            top = next((c for c in reversed(state.deck) if self.decks[c] == deck), None)
            if top is None and self.reshuffles(state):
                pile = sorted(c for c in state.discard if self.decks[c] == deck)
                if pile:
                    rng = Rng(state.seed, state.rng, state.dice_script)
                    shuffled = tuple(rng.shuffle(pile))
                    emit(FactionDeckReshuffled(faction=deck, deck=shuffled, rng=rng.counter))
                    top = shuffled[-1]
            if top is None:
                return
            emit(CWCardDrawn(seat=seat, card=top))

    def family_cards(self, state: GameState) -> Iterable[int]:
        """CW-21: the troop sets out of play, apart from the discard pile (``retired``)."""
        return cw(state).retired or ()

    @staticmethod
    def reshuffles(state: GameState) -> bool:
        # A game started before the option existed kept every discarded card out of play.
        return state.options.get("faction_reshuffle", "never") == "discard_pile"

    def end_turn(self, state: GameState, emit: Emit) -> None:
        seat = state.current
        self.draw_cards(state, seat, emit)
        emit(TurnEnded(seat=seat))
        self.start_next_turn(state, emit)

    # ------------------------------------------------------------------ Order 66 (CW-37..40)
    def order66_error(self, state: GameState, seat: Seat) -> RuleError | None:
        if self.faction(state, seat) != "separatist":
            return RuleError("not_separatist", "Only a Separatist army invokes Order 66 (CW-37).")
        if cw(state).order66:
            return RuleError("order66_used", "Order 66 is invoked once a game (CW-37).")
        numbered = state.options.get("order66_at", "any_space") == "numbered_space"
        if numbered and not order66_faces(self.board, cw(state).track):
            return RuleError(
                "track_too_low",
                f"Sidious's space {cw(state).track} shows no number: Order 66 waits (DEC-35).",
            )
        if state.phase != "attack":
            if state.phase == "occupy":
                return self.must_occupy(state)
            return RuleError("wrong_phase", "Order 66 is step 11, at the end of your turn.")
        return None

    def _order66(self, state: GameState, cmd: InvokeOrder66, emit: Emit) -> None:
        seat = cmd.seat
        err = self.order66_error(state, seat)
        if err is not None:
            raise err
        separatists = [s for s in self.allies(state, seat) if not state.players[s].eliminated]
        ids = self.board.territories

        def army(ref: str) -> Seat:
            s = self.seat_of_colour(state, ref) if ref else seat
            if s is None or s not in separatists:
                raise RuleError(
                    "bad_receiver", f"{ref!r} is not a Separatist army still in play (CW-38)."
                )
            return s

        default = army(cmd.receiver)
        per_planet = {
            self.board.territories[self.territory(p)].id: army(a) for p, a in cmd.receivers.items()
        }
        for planet in per_planet:
            if self.faction(state, state.owner[self.board.index[planet]]) != "republic":
                raise RuleError(
                    "bad_receiver",
                    f"{self.board.name(self.board.index[planet])} is no Republic planet: Order 66 "
                    "cannot take it.",
                )
        self.draw_cards(state, seat, emit)  # step 10 comes before step 11
        space = cw(state).track
        faces = order66_faces(self.board, space)
        planets = [
            t
            for t in range(self.n_territories)
            if self.faction(state, state.owner[t]) == "republic"
        ]
        rng = Rng(state.seed, state.rng, state.dice_script)
        rolls = [rng.roll(8) for _ in planets]
        converted: list[str] = []
        receivers: list[Seat] = []
        destroyed: list[Ships] = []
        fleets = {s: self.army_ships(state, s) for s in separatists}
        for t, roll in zip(planets, rolls, strict=True):
            if roll not in faces:
                continue
            tid = ids[t].id
            to = per_planet.get(tid, default)
            ships = self.ships_on(state, t)
            kept = fit_ships(ships, fleets[to])
            fleets[to] = add_ships(fleets[to], kept)
            converted.append(tid)
            receivers.append(to)
            destroyed.append(add_ships(ships, kept, -1))
        emit(
            Order66Invoked(
                seat=seat,
                space=space,
                planets=tuple(ids[t].id for t in planets),
                rolls=tuple(rolls),
                converted=tuple(converted),
                receivers=tuple(receivers),
                destroyed=tuple(destroyed),
                rng=rng.counter,
                scripted=rng.scripted,
            )
        )
        for s, p in enumerate(state.players):
            if not p.eliminated and s not in state.owner:
                self.eliminate(state, s, seat, emit)

    def _place_palpatine(self, state: GameState, cmd: PlacePalpatine, emit: Emit) -> None:
        if state.phase != "palpatine":
            raise RuleError("wrong_phase", "Palpatine is placed right after Order 66 (CW-40).")
        t = self.territory(cmd.territory)
        o = state.owner[t]
        if o < 0 or self.faction(state, o) != "separatist":
            raise RuleError(
                "not_separatist",
                f"Place Palpatine on a Separatist planet, not {self.board.name(t)} (CW-40).",
            )
        emit(PalpatinePlaced(seat=cmd.seat, territory=self.board.territories[t].id))
        emit(TurnEnded(seat=cmd.seat))
        self.start_next_turn(state, emit)

    # ------------------------------------------------------------------ victory (CW-41)
    def faction_victory(self, state: GameState) -> tuple[str, str] | None:
        """CW-41 (CW-32): (winning faction, reason) once the game is won, else None."""
        alive = {"republic": False, "separatist": False}
        for s, p in enumerate(state.players):
            if not p.eliminated:
                alive[self.faction(state, s)] = True
        if cw(state).palpatine_taken:
            return "republic", "palpatine"
        if not alive["separatist"]:
            return "republic", "eliminated"
        if not alive["republic"]:
            return "separatist", "eliminated"
        return None

    def auto_step(self, state: GameState, emit: Emit) -> bool:
        """The faction's victory announced (CW-41), then step 2 (CW-18): Sidious advances one
        space when a Separatist turn reaches it."""
        family = state.family
        if not isinstance(family, CWState) or state.turn == 0:
            return False
        won = self.faction_victory(state)
        if won is not None and not family.victory:
            seats = tuple(s for s in range(len(state.players)) if self.faction(state, s) == won[0])
            emit(FactionWon(faction=won[0], seats=seats, reason=won[1]))
            return True
        if family.track_due and state.phase == "reinforce":
            space = min(family.track + 1, self.track_length)
            emit(SidiousAdvanced(seat=state.current, space=space))
            return True
        return False

    def winner(self, state: GameState) -> GameWon | None:
        """After the announcement (``faction_won``): the faction's army that moved, or its
        first army still in play (CW-41: the faction wins together)."""
        family = state.family
        if state.turn == 0 or not isinstance(family, CWState) or not family.victory:
            return None
        seats = [s for s in range(len(state.players)) if self.faction(state, s) == family.victory]
        living = [s for s in seats if not state.players[s].eliminated] or seats
        seat = state.current if state.current in living else living[0]
        return GameWon(seat=seat, reason="team")

    COMMAND_HANDLERS: ClassVar[dict[type[Command], Callable[..., None]]] = {
        **RuleSet.COMMAND_HANDLERS,
        Fortify: _fortify_cw,
        PlaceToken: _place_token,
        BuildShip: _build_ship,
        PlayPower: _play_power,
        ShipsFollow: _ships_follow,
        MoveShip: _move_ship,
        ChooseSupport: _choose_support,
        AskCommand: _ask_command,
        AnswerCommand: _answer_command,
        InvokeOrder66: _order66,
        PlacePalpatine: _place_palpatine,
    }

    # ------------------------------------------------------------------ projectors
    def _set(self, state: GameState, **changes: Any) -> None:
        state.family = msgspec.structs.replace(cw(state), **changes)

    def _set_ships(self, state: GameState, changes: dict[str, Ships]) -> None:
        ships = dict(cw(state).ships)
        for planet, value in changes.items():
            if any(value):
                ships[planet] = value
            else:
                ships.pop(planet, None)
        self._set(state, ships=ships)

    def _on_opening(self, state: GameState, ev: CWOpening) -> None:
        self._consume(state, ev.rng, ev.scripted)
        n = len(state.players)
        self._set(
            state,
            pile=ev.pile,
            captured=((),) * n,
            republic_picks=ev.republic_order,
            claim_first=state.first,
        )
        state.current = ev.republic_order[0]

    def _on_setup_placed_cw(self, state: GameState, ev: SetupPlaced) -> None:
        """CW-11/12 with DEC-34: the Republic's first picks, then clockwise from the army that
        rolled highest, and the placement starts with that army too."""
        claimed = state.owner[self.board.index[ev.territory]] == -1
        self._on_setup_placed(state, ev)
        family = cw(state)
        if family.republic_picks:
            rest = family.republic_picks[1:]
            self._set(state, republic_picks=rest)
            state.current = rest[0] if rest else family.claim_first
        elif claimed and -1 not in state.owner:
            first = family.claim_first
            state.current = (
                first if state.setup_left[first] else self._next_setup_seat(state, first)
            )

    def _on_turn_started_cw(self, state: GameState, ev: TurnStarted) -> None:
        self._on_turn_started(state, ev)
        family = cw(state)
        separatist = self.faction(state, ev.seat) == "separatist" and not family.order66
        self._set(
            state,
            step=6,
            track_due=separatist and family.track < self.track_length,
            built=False,
            hit=(),
            taken_tokens=(),
            follow=(),
            support=NO_SHIPS,
            asked="",
            powers=(),
            chosen=msgspec.UNSET,
        )
        if separatist and family.pile and state.phase == "reinforce":
            state.phase = "token"  # CW-16 step 1

    def _on_token(self, state: GameState, ev: TokenPlaced) -> None:
        family = cw(state)
        tokens = dict(family.tokens)
        tokens[ev.territory] = (*tokens.get(ev.territory, ()), ev.token)
        self._set(
            state,
            pile=family.pile[:-1],
            tokens=tokens,
            placed_by={**family.placed_by, ev.token: ev.seat},
        )
        state.phase = "reinforce"

    def _on_sidious(self, state: GameState, ev: SidiousAdvanced) -> None:
        self._set(state, track=ev.space, track_due=False)

    def _on_ship_built(self, state: GameState, ev: ShipBuilt) -> None:
        state.players[ev.seat].hand.remove(ev.card)
        state.discard.append(ev.card)
        have = cw(state).ships.get(ev.territory, NO_SHIPS)
        k = SHIP_KINDS.index(ev.kind)
        self._set_ships(state, {ev.territory: replace_at(have, k, have[k] + 1)})
        self._set(state, built=True)

    def _on_power(self, state: GameState, ev: PowerPlayed) -> None:
        state.players[ev.seat].hand.remove(ev.card)
        state.discard.append(ev.card)
        state.reserve += ev.troops
        state.received += ev.troops
        self._set(state, powers=(*cw(state).powers, ev.card))

    def _on_support_chosen(self, state: GameState, ev: SupportChosen) -> None:
        family = cw(state)
        chosen = dict(family.chosen) if isinstance(family.chosen, dict) else {}
        f, c, k = chosen.get(ev.planet, (SHIPS_PER_CLASS,) * 3)  # 3 of a class: all of them
        cap: Ships = (
            ev.count if ev.kind == "fighter" else f,
            ev.count if ev.kind == "corvette" else c,
            ev.count if ev.kind == "capital" else k,
        )
        chosen[ev.planet] = cap
        self._set(state, chosen=chosen)

    def _on_support(self, state: GameState, ev: ShipSupport) -> None:
        a = ev.attack
        self._set(
            state,
            support=(a.fighters, a.corvettes, a.capital),
            follow=(),
            dice=(ev.attack, ev.defence),
        )

    def _on_battle_cw(self, state: GameState, ev: BattleFought) -> None:
        """CORE's battle without its d6 face check: Clone Wars faces run 1 to 9 (a d8 and a
        corvette's +1, CW-25/26)."""
        if not all(1 <= f <= 9 for f in (*ev.attack, *ev.defence)):
            raise RuleError("bad_history", "A Clone Wars die shows 1 to 9.")
        self._consume(state, ev.rng, ev.scripted)
        idx = self.board.index
        state.armies[idx[ev.origin]] -= ev.attacker_losses
        state.armies[idx[ev.target]] -= ev.defender_losses
        state.attack = None
        state.phase = "attack"

    def _on_conquered_cw(self, state: GameState, ev: TerritoryConquered) -> None:
        """CW-29: the defender's ships are destroyed, the supporting ships move in (DEC-36)."""
        self._on_conquered(state, ev)
        family = cw(state)
        origin_ships = family.ships.get(ev.origin, NO_SHIPS)
        support = family.support
        moving: Ships = (
            min(support[0], origin_ships[0]),
            min(support[1], origin_ships[1]),
            min(support[2], origin_ships[2]),
        )
        self._set_ships(state, {ev.target: moving, ev.origin: add_ships(origin_ships, moving, -1)})
        hit = family.hit if ev.previous in family.hit else (*family.hit, ev.previous)
        chosen = family.chosen
        if isinstance(chosen, dict) and ev.target in chosen:  # the defender's choice is void
            chosen = {p: cap for p, cap in chosen.items() if p != ev.target}
        self._set(
            state,
            chosen=chosen,
            hit=hit,
            follow=(ev.origin, ev.target),
            support=NO_SHIPS,
            palpatine_taken=family.palpatine_taken or family.palpatine == ev.target,
        )

    def _on_captured(self, state: GameState, ev: TokensCaptured) -> None:
        family = cw(state)
        tokens = dict(family.tokens)
        tokens.pop(ev.territory, None)
        self._set(
            state,
            tokens=tokens,
            captured=replace_at(family.captured, ev.seat, (*family.captured[ev.seat], *ev.tokens)),
            taken_tokens=(*family.taken_tokens, *ev.tokens),
        )

    def _on_eliminated_cw(self, state: GameState, ev: PlayerEliminated) -> None:
        """CW-31: the army's cards are discarded; nobody takes them."""
        loser = state.players[ev.seat]
        loser.eliminated = True
        loser.eliminated_by = ev.by
        state.discard.extend(loser.hand)
        loser.hand = []
        state.may_trade = False
        if state.phase == "attack":
            self._after_occupation(state)

    def _on_ships_moved(self, state: GameState, ev: ShipsMoved) -> None:
        family = cw(state)
        origin = family.ships.get(ev.origin, NO_SHIPS)
        target = family.ships.get(ev.target, NO_SHIPS)
        self._set_ships(
            state,
            {ev.origin: add_ships(origin, ev.ships, -1), ev.target: add_ships(target, ev.ships)},
        )
        if ev.why == "fortify":
            self._set(state, step=8, follow=())

    def _on_fortified_cw(self, state: GameState, ev: Fortified) -> None:
        self._on_fortified(state, ev)
        self._set(state, step=7, follow=())

    def _on_asked(self, state: GameState, ev: CommandAsked) -> None:
        self._set(state, asked=ev.territory, step=9, follow=())
        state.phase = "consent"

    def _on_answered(self, state: GameState, ev: CommandAnswered) -> None:
        if ev.accept:
            state.owner[self.board.index[ev.territory]] = ev.to
        self._set(state, asked="")
        state.phase = "attack"

    def _on_drawn_cw(self, state: GameState, ev: CWCardDrawn) -> None:
        state.deck.remove(ev.card)
        state.players[ev.seat].hand.append(ev.card)

    def _on_order66(self, state: GameState, ev: Order66Invoked) -> None:
        """CW-38/39: conversions, ships beyond the receiver's limit destroyed (DEC-35 (c)),
        every token out of the game."""
        self._consume(state, ev.rng, ev.scripted)
        ships = dict(cw(state).ships)
        changes: dict[str, Ships] = {}
        for planet, to, lost in zip(ev.converted, ev.receivers, ev.destroyed, strict=True):
            state.owner[self.board.index[planet]] = to
            changes[planet] = add_ships(ships.get(planet, NO_SHIPS), lost, -1)
        self._set_ships(state, changes)
        self._set(state, order66=True, tokens={}, pile=(), track_due=False)
        state.phase = "palpatine"

    def _on_traded_cw(self, state: GameState, ev: CardsTraded) -> None:
        """CW-21: a troop set is out of play ('hors jeu'), not on the discard pile that
        CORE-11 shuffles into a new deck (with ``faction_reshuffle``)."""
        self._on_traded(state, ev)
        if self.reshuffles(state):
            for c in ev.cards:
                state.discard.remove(c)
            self._set(state, retired=(*(cw(state).retired or ()), *ev.cards))

    def _on_faction_reshuffled(self, state: GameState, ev: FactionDeckReshuffled) -> None:
        state.rng = ev.rng
        back = set(ev.deck)
        state.discard = [c for c in state.discard if c not in back]
        state.deck = [*ev.deck, *state.deck]

    def _on_hand_discarded(self, state: GameState, ev: HandDiscarded) -> None:
        hand = state.players[ev.seat].hand
        for c in ev.cards:
            hand.remove(c)
        state.discard.extend(ev.cards)

    def _on_faction_won(self, state: GameState, ev: FactionWon) -> None:
        self._set(state, victory=ev.faction)

    def _on_palpatine(self, state: GameState, ev: PalpatinePlaced) -> None:
        self._set(state, palpatine=ev.territory)
        state.phase = "attack"

    EVENT_HANDLERS: ClassVar[dict[type[Event], Callable[..., None]]] = {
        **RuleSet.EVENT_HANDLERS,
        CWOpening: _on_opening,
        SetupPlaced: _on_setup_placed_cw,
        TurnStarted: _on_turn_started_cw,
        TokenPlaced: _on_token,
        SidiousAdvanced: _on_sidious,
        ShipBuilt: _on_ship_built,
        PowerPlayed: _on_power,
        ShipSupport: _on_support,
        SupportChosen: _on_support_chosen,
        BattleFought: _on_battle_cw,
        TerritoryConquered: _on_conquered_cw,
        TokensCaptured: _on_captured,
        PlayerEliminated: _on_eliminated_cw,
        ShipsMoved: _on_ships_moved,
        Fortified: _on_fortified_cw,
        CommandAsked: _on_asked,
        CommandAnswered: _on_answered,
        CWCardDrawn: _on_drawn_cw,
        Order66Invoked: _on_order66,
        PalpatinePlaced: _on_palpatine,
        HandDiscarded: _on_hand_discarded,
        FactionDeckReshuffled: _on_faction_reshuffled,
        CardsTraded: _on_traded_cw,
        FactionWon: _on_faction_won,
    }

    # ------------------------------------------------------------------ legal commands
    def _legal_token(self, state: GameState, seat: Seat) -> Iterator[Command]:
        for t in self.token_spots(state, seat):
            yield PlaceToken(seat=seat, territory=self.board.territories[t].id)

    def _legal_consent(self, state: GameState, seat: Seat) -> Iterator[Command]:
        yield AnswerCommand(seat=seat, accept=True)
        yield AnswerCommand(seat=seat, accept=False)

    def _legal_palpatine(self, state: GameState, seat: Seat) -> Iterator[Command]:
        for t, o in enumerate(state.owner):
            if o >= 0 and self.faction(state, o) == "separatist":
                yield PlacePalpatine(seat=seat, territory=self.board.territories[t].id)

    LEGAL: ClassVar[dict[str, Callable[..., Iterator[Command]]]] = {
        **{k: v for k, v in RuleSet.LEGAL.items() if k != "elim_trade"},
        "token": _legal_token,
        "consent": _legal_consent,
        "palpatine": _legal_palpatine,
    }

    def extras(self, state: GameState) -> list[Command]:
        """The family's commands beyond CORE's in the reinforcement and attack phases."""
        seat = state.current
        ids = self.board.territories
        out: list[Command] = []
        if state.phase == "reinforce":
            own = self.territories_of(state, seat)
            kinds_done: set[str] = set()
            for c in sorted(state.players[seat].hand):
                if self.kinds[c] not in kinds_done and self.build_error(state, seat, c) is None:
                    kinds_done.add(self.kinds[c])
                    out += [BuildShip(seat=seat, card=c, territory=ids[t].id) for t in own]
                if self.power_error(state, seat, c) is None:
                    out.append(PlayPower(seat=seat, card=c))
        elif state.phase == "attack":
            family = cw(state)
            if family.follow:
                have = family.ships.get(family.follow[0], NO_SHIPS)
                if any(have):
                    out.append(
                        ShipsFollow(
                            seat=seat, fighters=have[0], corvettes=have[1], capitals=have[2]
                        )
                    )
            if family.step < 8:
                for planet, ships in sorted(family.ships.items()):
                    o = self.board.index[planet]
                    if state.owner[o] != seat:
                        continue
                    reach = sorted(self.connected_own(state, seat, o) - {o})
                    for k, kind in enumerate(SHIP_KINDS):
                        if ships[k]:
                            out += [
                                MoveShip(seat=seat, origin=planet, target=ids[t].id, kind=kind)
                                for t in reach
                                if state.owner[t] == seat
                            ]
            for t in range(self.n_territories):
                if state.owner[t] >= 0 and self.ask_error(state, seat, t) is None:
                    out.append(AskCommand(seat=seat, territory=ids[t].id))
            if self.order66_error(state, seat) is None:
                out.append(InvokeOrder66(seat=seat))
        return out

    def legal_commands(self, state: GameState) -> list[Command]:
        cmds = super().legal_commands(state)
        if state.phase not in ("reinforce", "attack", "defend"):
            return cmds
        support = [
            msgspec.structs.replace(cmd, count=k)
            for cmd, high in self.support_choices(state)
            for k in range(high + 1)
        ]
        return [*cmds, *self.extras(state), *support]

    def legal_moves(self, state: GameState) -> list[LegalMove]:
        moves = super().legal_moves(state)
        if state.phase not in ("reinforce", "attack", "defend"):
            return moves
        return [
            *moves,
            *(LegalMove(command=c) for c in self.extras(state)),
            *(
                LegalMove(command=cmd, field="count", low=0, high=high)
                for cmd, high in self.support_choices(state)
            ),
        ]

    # ------------------------------------------------------------------ bots
    def bot_move(self, state: GameState, seat: Seat, reading: Any) -> Command | None:
        """The greedy player: the faction's armies are friends; builds ships, places tokens
        and Palpatine on its strongest planets, accepts a change of command, and invokes
        Order 66 when the track gives at least an even chance."""
        from risk_core.rulesets.clonewars_bot import greedy_move  # the bot's own module

        return greedy_move(self, state, seat, reading)

    # ------------------------------------------------------------------ scenarios
    def scenario_family(
        self, data: dict[str, Any], seats: Sequence[SeatInfo], seat: Callable[[Any], Seat]
    ) -> CWState:
        """A scenario's ``[family]`` table: CWState's own fields (``ships`` as planet =
        [fighters, corvettes, capitals], ``tokens`` as planet = [token ids], ``placed_by`` as
        token = seat, ``pile``, ``track``, ``order66``, ``palpatine``, ``captured``)."""
        family = super().scenario_family(data, seats, seat)
        assert isinstance(family, CWState)
        n = len(seats)
        if len(family.captured) > n:
            raise SetupError("bad_scenario", f"[family]: captured lists more than {n} armies")
        captured = tuple(family.captured) + ((),) * (n - len(family.captured))
        placed = [
            *(t for ts in family.tokens.values() for t in ts),
            *family.pile,
            *(t for ts in captured for t in ts),
        ]
        unknown = [t for t in placed if t not in self.tokens]
        if unknown:
            raise SetupError("bad_scenario", f"[family]: unknown tokens {unknown}")
        twice = sorted({t for t in placed if placed.count(t) > 1})
        if twice:  # on a planet, in the pile or captured: one place each
            raise SetupError("bad_scenario", f"[family]: tokens in two places {twice}")
        planets = [*family.ships, *family.tokens, *([family.palpatine] if family.palpatine else [])]
        bad = [p for p in planets if p not in self.board.index]
        if bad:
            raise SetupError("bad_scenario", f"[family]: unknown planets {bad}")
        if not 0 <= family.track <= self.track_length:
            raise SetupError(
                "bad_scenario",
                f"[family]: track is 0 to {self.track_length}, not {family.track}",
            )
        strangers = {t: s for t, s in family.placed_by.items() if not 0 <= s < n}
        if strangers:
            raise SetupError("bad_scenario", f"[family.placed_by]: no such seat in {strangers}")
        if family.palpatine and not family.order66:
            raise SetupError(
                "bad_scenario", "[family]: Palpatine comes into play with Order 66 only (CW-40)"
            )
        return msgspec.structs.replace(family, captured=captured)

    # ------------------------------------------------------------------ views
    def view_extra(self, state: GameState, viewer: Seat | None) -> dict[str, Any]:
        """Public: the track, Palpatine, tokens on the board face down (how many per planet),
        the captured tokens face up, the decks' sizes."""
        family = cw(state)
        return {
            "cw": {
                "track": family.track,
                "track_length": self.track_length,
                "track_faces": list(order66_faces(self.board, family.track)),
                "order66": family.order66,
                "palpatine": family.palpatine or None,
                "tokens_on_board": {p: len(ts) for p, ts in sorted(family.tokens.items())},
                "tokens_in_pile": len(family.pile),
                "decks": {
                    name: sum(1 for c in state.deck if self.decks[c] == name)
                    for name in ("republic", "separatist")
                },
                "step": family.step,
                "asked": family.asked or None,
            }
        }

    def seat_view(self, state: GameState, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """Faction, ships, captured tokens (public); the tokens this army placed, to itself."""
        family = cw(state)
        ships = self.army_ships(state, seat)
        out: dict[str, Any] = {
            "faction": self.faction(state, seat),
            "ships": dict(zip(SHIP_KINDS, ships, strict=True)),
            "captured_tokens": [
                {"id": t, "name": self.tokens[t].name, "dots": self.tokens[t].dots}
                for t in (family.captured[seat] if family.captured else ())
            ],
        }
        if viewer == seat:
            mine = {
                planet: [t for t in ts if family.placed_by.get(t) == seat]
                for planet, ts in sorted(family.tokens.items())
            }
            out["tokens_placed"] = {p: ts for p, ts in mine.items() if ts}
        return out

    def territory_view(self, state: GameState, t: int) -> dict[str, Any]:
        family = cw(state)
        tid = self.board.territories[t].id
        out: dict[str, Any] = {}
        ships = family.ships.get(tid)
        if ships:
            out["ships"] = dict(zip(SHIP_KINDS, ships, strict=True))
            if isinstance(family.chosen, dict) and tid in family.chosen:  # CW-25, announced
                out["support"] = dict(zip(SHIP_KINDS, self.supporting(state, t), strict=True))
        if family.tokens.get(tid):
            out["tokens"] = len(family.tokens[tid])  # face down (CW-17)
        if family.palpatine == tid:
            out["palpatine"] = True
        return out

    # ------------------------------------------------------------------ audits
    def reserve_change(self, before: GameState, ev: Event) -> int:
        return ev.troops if isinstance(ev, PowerPlayed) else 0

    def check_invariants(self, state: GameState) -> list[str]:
        """Ships only on owned planets, at most 3 of a class per army (CW-22); tokens only on
        Separatist planets (CW-17/30)."""
        family = state.family
        if not isinstance(family, CWState):
            return ["no Clone Wars state"]
        problems = []
        index = self.board.index
        for planet, ships in family.ships.items():
            if min(ships) < 0 or not any(ships):
                problems.append(f"bad ships on {planet}: {ships}")
            if state.owner[index[planet]] < 0:
                problems.append(f"ships on unowned {planet}")
        for s in range(len(state.players)):
            if max(self.army_ships(state, s)) > SHIPS_PER_CLASS:
                problems.append(f"seat {s} has more than {SHIPS_PER_CLASS} ships of a class")
        for planet in family.tokens:
            o = state.owner[index[planet]]
            just_taken = family.follow[1:] == (planet,)  # its tokens_captured comes next
            if (o < 0 or self.faction(state, o) != "separatist") and not just_taken:
                problems.append(f"a token on {planet}, not a Separatist planet")
        return problems

    def check_transition(self, before: GameState, after: GameState, ev: Event) -> list[str]:
        b, a = before.family, after.family
        if not isinstance(b, CWState) or not isinstance(a, CWState):
            return []
        if b.order66 and not a.order66:
            return ["Order 66 undone"]
        if a.track < b.track:
            return [f"Sidious moved back on {type(ev).__name__}"]
        return []

    def powers_text(self) -> list[str]:
        """What `risk rules clonewars` says of the card powers (GAP-17)."""
        working = [p for p in self.powers.values() if p.effect != "none"]
        idle = [p.card for p in self.powers.values() if p.effect == "none"]
        lines = [
            f"card {p.card}: {p.name}: +{p.amount} troops at step 4 (reconstructed)"
            for p in working
        ]
        lines.append(
            f"{len(idle)} cards' powers are not transcribed and have no effect in the engine: "
            + ", ".join(map(str, idle))
        )
        return lines
