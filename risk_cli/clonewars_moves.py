"""Star Wars Clone Wars on the command line: its verbs, event texts and `risk show` lines.

The ``clonewars`` rule set names this module in ``cli_module``; ``risk_cli.families`` adds its
``COMMANDS`` to ``risk``, its ``EVENT_TEXT`` to the log, its ``SEAT_NOTE`` (faction, ships,
captured tokens) to `risk show`'s players table and its ``SHOW_LINES`` (the Order 66 track,
Palpatine, ships per planet, tokens face down, each army's hand size) after the board.
`risk galaxy` shows those facts alone; `risk cw-odds` gives exact battle odds with ships.
Every verb takes ``--as`` (a player, or an army by colour) and ``--json``; a refused move
prints the engine's named error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, run_move, territory
from risk_cli.render import Names, plural
from risk_core import Board, Command, RuleError, load_board
from risk_core.names import whole_number
from risk_core.rulesets.base import dice_count_error
from risk_core.rulesets.clonewars_dice import SideDice, battle_losses, expected_losses
from risk_core.rulesets.clonewars_state import (
    SHIP_KINDS,
    AnswerCommand,
    AskCommand,
    BuildShip,
    ChooseSupport,
    InvokeOrder66,
    MoveShip,
    PlacePalpatine,
    PlaceToken,
    PlayPower,
    ShipsFollow,
)


def _card(ref: str) -> int:
    number = whole_number(ref)
    if number is None:
        raise RuleError(
            "not_in_hand", f"Name the card by its id (see `risk show --as`), not {ref!r}."
        )
    return number


@click.command("build-ship")
@game_argument
@click.argument("card")
@click.argument("planet")
@as_option(MOVE_AS)
@json_option
@pass_app
def build_ship(
    app: App, game_id: str, card: str, planet: str, as_seat: str | None, as_json: bool
) -> None:
    """Discard CARD to build a ship of its class on PLANET, one of yours (CW-22/23).

    Step 4, one ship a turn, at most 3 of a class on the board.
    """
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: BuildShip(seat=seat, card=_card(card), territory=territory(b, planet)),
    )


@click.command("power")
@game_argument
@click.argument("card")
@as_option(MOVE_AS)
@json_option
@pass_app
def power(app: App, game_id: str, card: str, as_seat: str | None, as_json: bool) -> None:
    """Play CARD for its special power at its timing (CW-14/15; see `risk rules clonewars`)."""
    run_move(
        app, game_id, as_seat, as_json, lambda v, b, seat: PlayPower(seat=seat, card=_card(card))
    )


@click.command("token")
@game_argument
@click.argument("planet")
@as_option(MOVE_AS)
@json_option
@pass_app
def token(app: App, game_id: str, planet: str, as_seat: str | None, as_json: bool) -> None:
    """Step 1 (Separatists): place the top token face down on PLANET, one of yours (CW-17)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: PlaceToken(seat=seat, territory=territory(b, planet)),
    )


@click.command("ships-follow")
@game_argument
@click.option("--fighters", type=int, default=0, show_default=True, help="Fighters that follow.")
@click.option("--corvettes", type=int, default=0, show_default=True, help="Corvettes that follow.")
@click.option(
    "--capitals", type=int, default=0, show_default=True, help="Capital ships that follow."
)
@as_option(MOVE_AS)
@json_option
@pass_app
def ships_follow(
    app: App,
    game_id: str,
    fighters: int,
    corvettes: int,
    capitals: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """More ships follow your last conquest from its origin, before a new invasion (CW-29)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: ShipsFollow(
            seat=seat, fighters=fighters, corvettes=corvettes, capitals=capitals
        ),
    )


@click.command("support")
@game_argument
@click.argument("planet")
@click.argument("kind", type=click.Choice(SHIP_KINDS))
@click.argument("count", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def support(
    app: App,
    game_id: str,
    planet: str,
    kind: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """COUNT of the KIND ships on PLANET support its battles this turn (CW-25).

    Games started with --option ship_support=chosen.  The attacker chooses for a planet of its
    own before invading from it (the others stay there after a conquest, DEC-36); the
    defender for the attacked planet, then answers with `risk defend`.  Ships not named
    support; 0 keeps a class out.
    """

    def build(v: JsonDict, b: Board, seat: int) -> Command:
        return ChooseSupport(seat=seat, planet=territory(b, planet), kind=kind, count=count)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("move-ship")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("kind", type=click.Choice(SHIP_KINDS))
@as_option(MOVE_AS)
@json_option
@pass_app
def move_ship(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    kind: str,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Step 8: move one ship of KIND from FROM to TO through your faction's planets (CW-34)."""

    def build(v: JsonDict, b: Board, seat: int) -> Command:
        return MoveShip(
            seat=seat, origin=territory(b, origin), target=territory(b, target), kind=kind
        )

    run_move(app, game_id, as_seat, as_json, build)


@click.command("ask-command")
@game_argument
@click.argument("planet")
@as_option(MOVE_AS)
@json_option
@pass_app
def ask_command(app: App, game_id: str, planet: str, as_seat: str | None, as_json: bool) -> None:
    """Step 9: ask your teammate to hand over PLANET (1 troop, no ship, token or Palpatine).

    The teammate answers with `risk answer-command` (CW-35); a refusal, or the computer
    playing the teammate when a turn deadline passes, ends it.
    """
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: AskCommand(seat=seat, territory=territory(b, planet)),
    )


@click.command("answer-command")
@game_argument
@click.argument("answer", type=click.Choice(["yes", "no"]))
@as_option(MOVE_AS)
@json_option
@pass_app
def answer_command(app: App, game_id: str, answer: str, as_seat: str | None, as_json: bool) -> None:
    """Answer your teammate's change of command: yes hands the planet over (CW-35)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: AnswerCommand(seat=seat, accept=answer == "yes"),
    )


@click.command("order66")
@game_argument
@click.option("--to", "receiver", default="", help="The Separatist army receiving the planets.")
@click.option(
    "--planet",
    "planets",
    multiple=True,
    metavar="PLANET=ARMY",
    help="A planet's own receiving army (repeatable).",
)
@as_option(MOVE_AS)
@json_option
@pass_app
def order66(
    app: App,
    game_id: str,
    receiver: str,
    planets: tuple[str, ...],
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Step 11 (Separatists, once a game): invoke Order 66 (CW-37..39).

    Ends your turn's actions: your cards are drawn, then a d8 for each Republic planet converts
    it on the faces of Sidious's track space; then place Palpatine with `risk palpatine`.
    """

    def build(v: JsonDict, b: Board, seat: int) -> Command:
        receivers: dict[str, str] = {}
        for item in planets:
            planet, sep, army = item.partition("=")
            if not sep:
                raise RuleError("bad_receiver", f"Write PLANET=ARMY, not {item!r}.")
            receivers[territory(b, planet)] = army
        return InvokeOrder66(seat=seat, receiver=receiver, receivers=receivers)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("palpatine")
@game_argument
@click.argument("planet")
@as_option(MOVE_AS)
@json_option
@pass_app
def palpatine(app: App, game_id: str, planet: str, as_seat: str | None, as_json: bool) -> None:
    """After Order 66: place Emperor Palpatine on PLANET, held by a Separatist army (CW-40)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: PlacePalpatine(seat=seat, territory=territory(b, planet)),
    )


@click.command("galaxy")
@game_argument
@as_option("Show this player's hands and the tokens its armies placed too.")
@json_option
@pass_app
def galaxy(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """The Clone Wars facts: track, Palpatine, ships per planet, tokens, hands' sizes."""
    v = app.backend.view(game_id, as_seat)
    if "cw" not in v:
        raise RuleError("wrong_rules", f"Game {game_id} is not a Clone Wars faction game.")
    if as_json:
        ships = {t: c["ships"] for t, c in v["territories"].items() if "ships" in c}
        echo_json({"game_id": game_id, **v["cw"], "ships": ships, "players": v["players"]})
        return
    click.echo("\n".join(galaxy_lines(v, Names(load_board(v["board"]), v["players"]))))


SHIP_NAMES = {"fighter": "fighter", "corvette": "corvette", "capital": "capital ship"}


def _ships_text(ships: JsonDict) -> str:
    return ", ".join(plural(ships[k], k) for k in SHIP_KINDS if ships.get(k))


def galaxy_lines(v: JsonDict, n: Names) -> list[str]:
    f = v["cw"]
    faces = ", ".join(map(str, f["track_faces"])) or "none"
    if f["order66"]:
        where = n.t(f["palpatine"]) if f["palpatine"] else "not placed yet"
        lines = [f"Order 66 has been invoked; Emperor Palpatine: {where} (defends with d8)."]
    else:
        lines = [
            f"Order 66 track: Sidious on space {f['track']} of {f['track_length']} "
            f"(a d8 converts on: {faces})."
        ]
    fleets = [
        f"{n.t(t)} ({n.seat(c['owner'])}): {_ships_text(c['ships'])}"
        + (f" (supporting: {_ships_text(c['support']) or 'none'})" if "support" in c else "")
        for t, c in v["territories"].items()
        if "ships" in c
    ]
    lines.append("Ships: " + ("; ".join(fleets) or "none"))
    tokens = [f"{n.t(t)} ×{k}" for t, k in f["tokens_on_board"].items()]
    lines.append(
        f"Separatist tokens face down: {', '.join(tokens) or 'none'}; "
        f"{f['tokens_in_pile']} in the pile."
    )
    decks = f["decks"]
    lines.append(f"Decks: Republic {decks['republic']}, Separatist {decks['separatist']} cards.")
    for p in v["players"]:
        words = [f"{p.get('faction', '?')}", plural(p["cards"], "card")]
        captured = p.get("captured_tokens") or []
        if captured:
            words.append("captured " + ", ".join(f"{c['name']} ({c['dots']})" for c in captured))
        placed = p.get("tokens_placed") or {}
        if placed:
            words.append(
                "placed " + ", ".join(f"{n.t(t)}: {', '.join(ts)}" for t, ts in placed.items())
            )
        lines.append(f"{n.seat(p['seat'])}: {'; '.join(words)}")
    return lines


@click.command("cw-odds")
@click.argument("attack", type=int)
@click.argument("defence", type=int)
@click.option("--capitals", type=int, default=0, help="Attacker's capital ships.")
@click.option("--fighters", type=int, default=0, help="Attacker's fighters.")
@click.option("--corvettes", type=int, default=0, help="Attacker's corvettes.")
@click.option("--def-capitals", type=int, default=0, help="Defender's capital ships.")
@click.option("--def-fighters", type=int, default=0, help="Defender's fighters.")
@click.option("--def-corvettes", type=int, default=0, help="Defender's corvettes.")
@click.option("--palpatine", is_flag=True, help="The defence of Palpatine's planet (all d8).")
@json_option
def cw_odds(
    attack: int,
    defence: int,
    capitals: int,
    fighters: int,
    corvettes: int,
    def_capitals: int,
    def_fighters: int,
    def_corvettes: int,
    palpatine: bool,
    as_json: bool,
) -> None:
    """Exact losses of one Clone Wars battle with ships, ATTACK dice against DEFENCE dice.

    1-3 attack dice, 1-2 defence dice, 0-3 ships of each class a side (CW-25..28); computed
    from the dice rules, never simulated.
    """
    err = dice_count_error(attack, 3) or dice_count_error(defence, 2, "Defend")
    if err is not None:
        raise err
    ships = (capitals, fighters, corvettes, def_capitals, def_fighters, def_corvettes)
    if min(ships) < 0 or max(ships) > 3:
        raise RuleError("bad_count", "0 to 3 ships of each class.")
    a = SideDice(troops=attack, capital=capitals, fighters=fighters, corvettes=corvettes)
    d = SideDice(
        troops=defence,
        capital=def_capitals,
        fighters=def_fighters,
        corvettes=def_corvettes,
        all_d8=palpatine,
    )
    a_loss, d_loss = expected_losses(a.effective, d.effective)
    dist = battle_losses(a.effective, d.effective)
    if as_json:
        echo_json(
            {
                "attack": _side_json(a.effective),
                "defence": _side_json(d.effective),
                "attacker_losses": str(a_loss),
                "defender_losses": str(d_loss),
                "outcomes": [
                    {"attacker_losses": x, "defender_losses": y, "probability": str(p)}
                    for (x, y), p in dist
                ],
            }
        )
        return
    click.echo(
        f"Expected losses: attacker {_frac(a_loss)}, defender {_frac(d_loss)} "
        f"({plural(attack, 'die', 'dice')} against {defence})."
    )
    for (x, y), p in dist:
        click.echo(f"  attacker loses {x}, defender loses {y}: {float(p):.2%} ({p})")


def _side_json(s: SideDice) -> JsonDict:
    return {
        "dice": s.troops,
        "capital": s.capital,
        "fighters": s.fighters,
        "corvettes": s.corvettes,
        "all_d8": s.all_d8,
    }


def _frac(x: Fraction) -> str:
    return f"{float(x):.4f} ({x})"


COMMANDS: list[click.Command] = [
    build_ship,
    power,
    token,
    ships_follow,
    support,
    move_ship,
    ask_command,
    answer_command,
    order66,
    palpatine,
    galaxy,
    cw_odds,
]


def seat_note(player: JsonDict, n: Names) -> str | None:
    """`risk show`: an army's faction, ships and captured tokens."""
    if "faction" not in player:
        return None
    words = [player["faction"]]
    ships = _ships_text(player.get("ships") or {})
    if ships:
        words.append(ships)
    captured = player.get("captured_tokens") or []
    if captured:
        words.append("tokens " + ", ".join(c["name"] for c in captured))
    return "; ".join(words)


SEAT_NOTE = seat_note


def show_lines(v: JsonDict, n: Names) -> list[str]:
    return galaxy_lines(v, n) if "cw" in v else []


SHOW_LINES = show_lines


def _side_text(side: JsonDict, natural: list[int]) -> str:
    ships = [
        plural(side.get(k, 0), name)
        for k, name in (
            ("capital", "capital ship"),
            ("fighters", "fighter"),
            ("corvettes", "corvette"),
        )
        # On Palpatine's planet every die is a d8 (CW-28), recorded as one capital ship per
        # die whether or not ships are there: the d8s are his, not ships to name.
        if side.get(k) and not (k == "capital" and side.get("all_d8"))
    ]
    d8 = " (all d8: Palpatine)" if side.get("all_d8") else ""
    thrown = "-".join(map(str, natural))
    return f"{thrown}{d8}" + (f" with {', '.join(ships)}" if ships else "")


def _token_text(board: Board, token: str) -> str:
    """A captured token face up, as `risk show` names it: its leader and red dots (CW-30)."""
    known = {t.id: t for t in board.section("cw_tokens") or ()}
    t = known.get(token)
    return token if t is None else f"{t.name} ({plural(t.dots, 'red dot')})"


def _order66(d: JsonDict, n: Names) -> str:
    converted = ", ".join(
        f"{n.t(p)} to {n.seat(s)}" for p, s in zip(d["converted"], d["receivers"], strict=True)
    )
    return (
        f"{n.seat(d['seat'])} invokes Order 66 with Sidious on space {d['space']}: "
        f"{len(d['planets'])} d8 rolled, {plural(len(d['converted']), 'planet')} converted"
        + (f" ({converted})" if converted else "")
        + "; every token leaves the game."
    )


EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    "cw_opening": lambda d, n: (
        f"The Republic armies pick first: {', '.join(n.seat(s) for s in d['republic_order'])}; "
        f"{d['pile'] if isinstance(d['pile'], int) else len(d['pile'])} tokens shuffled."
    ),
    "token_placed": lambda d, n: (
        f"{n.seat(d['seat'])} places a token face down on {n.t(d['territory'])}"
        + (f" ({d['token']})." if d.get("token") else ".")
    ),
    "sidious_advanced": lambda d, n: f"Sidious advances to space {d['space']} of the track.",
    "ship_built": lambda d, n: (
        f"{n.seat(d['seat'])} discards card {d['card']} and builds a {d['kind']} on "
        f"{n.t(d['territory'])}."
    ),
    "power_played": lambda d, n: (
        f"{n.seat(d['seat'])} plays card {d['card']} ({d['power']}): "
        f"+{plural(d['troops'], 'troop')}."
    ),
    "ship_support": lambda d, n: (
        f"Dice: attack {_side_text(d['attack'], d['attack_natural'])}; defence "
        f"{_side_text(d['defence'], d['defence_natural'])}."
    ),
    "support_chosen": lambda d, n: (
        f"{n.seat(d['seat'])} commits {plural(d['count'], SHIP_NAMES[d['kind']])} of "
        f"{n.t(d['planet'])} to its battles this turn (CW-25)."
    ),
    "ships_moved": lambda d, n: (
        f"{n.seat(d['seat'])} moves {_ships_text(dict(zip(SHIP_KINDS, d['ships'], strict=True)))} "
        f"from {n.t(d['origin'])} to {n.t(d['target'])}."
    ),
    "tokens_captured": lambda d, n: (
        f"{n.seat(d['seat'])} captures the tokens of {n.t(d['territory'])}: "
        f"{', '.join(_token_text(n.board, t) for t in d['tokens'])}."
    ),
    "command_asked": lambda d, n: (
        f"{n.seat(d['seat'])} asks {n.seat(d['teammate'])} for {n.t(d['territory'])}."
    ),
    "command_answered": lambda d, n: (
        f"{n.seat(d['seat'])} {'hands over' if d['accept'] else 'keeps'} {n.t(d['territory'])}."
    ),
    "cw_card_drawn": lambda d, n: (
        f"{n.seat(d['seat'])} draws "
        + (f"card {d['card']}." if d.get("card") is not None else "a card.")
    ),
    "order66_invoked": _order66,
    "faction_deck_reshuffled": lambda d, n: (
        f"The {'Republic' if d['faction'] == 'republic' else 'Separatist'} deck is empty: its "
        f"discard pile is shuffled into a new deck of {plural(d['deck_size'], 'card')} "
        "(CORE-11)."
    ),
    "hand_discarded": lambda d, n: (
        f"{n.seat(d['seat'])} discards its {plural(d['count'], 'card')} (CW-31)."
    ),
    "faction_won": lambda d, n: (
        f"The {'Republic' if d['faction'] == 'republic' else 'Separatists'} "
        f"({', '.join(n.seat(s) for s in d['seats'])}) win"
        + (
            ": Emperor Palpatine is captured."
            if d["reason"] == "palpatine"
            else ": the other faction's armies are all eliminated."
        )
    ),
    "palpatine_placed": lambda d, n: (
        f"{n.seat(d['seat'])} places Emperor Palpatine on {n.t(d['territory'])}."
    ),
}
