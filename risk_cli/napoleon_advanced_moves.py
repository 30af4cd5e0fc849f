"""Risk Napoléon advanced game on the command line: its verbs, log sentences and `risk show` lines.

The ``napoleon-advanced`` rule set names this module in ``cli_module``; ``risk_cli.families``
adds its ``COMMANDS`` to ``risk``, its ``EVENT_TEXT`` to the log, its ``SEAT_NOTE`` (VP,
generals, admirals, missions) to `risk show`'s players table and its ``SHOW_LINES`` (round and
year, sea zones with ships, admirals and control, fortifications, epidemics, generals) below it.
Sea zones are named by id, English or French name; seats by number or player name.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, card_ids, run_move, territory
from risk_cli.napoleon_moves import own_hand
from risk_cli.render import Names, plural
from risk_core import Board, Command, RuleError
from risk_core.names import normalise_name, whole_number
from risk_core.rulesets.napoleon_advanced_state import (
    Convert,
    Lead,
    MoveAdmiral,
    MoveFleet,
    MoveGeneral,
    NavalAttack,
    PlacePiece,
    PlayCard,
    Ransom,
)


def zone(board: Board, name: str) -> str:
    """A sea zone id from its id, English or French name."""
    wanted = normalise_name(name)
    for z in board.sea_zones:
        if wanted in (normalise_name(z.id), normalise_name(z.name_en), normalise_name(z.name_fr)):
            return z.id
    known = ", ".join(z.id for z in board.sea_zones)
    raise RuleError("unknown_zone", f"There is no sea zone '{name}' (sea zones: {known}).")


def zone_name(board: Board, zone_id: str) -> str:
    return next((z.name_en for z in board.sea_zones if z.id == zone_id), zone_id)


def place_name(board: Board, place: str) -> str:
    """The English name of a territory, sea zone, empire or maritime route id (an event's
    ``where`` or ``detail``); an id the board does not know, as it is."""
    if place in board.index:
        return board.name(board.index[place])
    k = board.group_index.get(place)
    if k is not None:
        return board.groups[k].name_en
    route = next((r.name_en for r in board.routes if r.id == place), None)
    return route if route is not None else zone_name(board, place)


def seat_ref(v: JsonDict, ref: str) -> int:
    """A seat by number or player name."""
    number = whole_number(ref)
    if number is not None:
        return number
    for p in v["players"]:
        if p["name"].lower() == ref.lower():
            return int(p["seat"])
    raise RuleError("unknown_seat", f"No seat or player '{ref}'.")


@click.command()
@game_argument
@click.argument("kind", type=click.Choice(["general", "fortification"]))
@click.argument("territory_name", metavar="TERRITORY")
@as_option(MOVE_AS)
@json_option
@pass_app
def piece(
    app: App, game_id: str, kind: str, territory_name: str, as_seat: str | None, as_json: bool
) -> None:
    """Set-up: place your general, then your fortification, on TERRITORY (NAP-ADV-09)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: PlacePiece(
            seat=seat,
            kind=kind,  # type: ignore[arg-type]
            territory=territory(b, territory_name),
        ),
    )


@click.command()
@game_argument
@click.argument("kind", type=click.Choice(["ship", "general", "admiral", "fortification"]))
@click.argument("where", metavar="WHERE")
@click.argument("count", type=int, default=1)
@as_option(MOVE_AS)
@json_option
@pass_app
def convert(
    app: App,
    game_id: str,
    kind: str,
    where: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Convert reinforcement regiments into ships, a general, an admiral or a fortification.

    WHERE is a sea zone for ships and admirals, a territory for generals and fortifications;
    COUNT ships (1 for the others).  NAP-ADV-22: after the census, before placing.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        place = zone(board, where) if kind in ("ship", "admiral") else territory(board, where)
        return Convert(seat=seat, kind=kind, where=place, count=count)  # type: ignore[arg-type]

    run_move(app, game_id, as_seat, as_json, build)


@click.command("naval-attack")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option("--dice", type=int, default=3, show_default=True, help="Attack dice (1 to 3).")
@click.option("--until-conquer", is_flag=True, help="Fight on until the zone is taken.")
@click.option("--move", type=int, help="Ships that sail into the zone taken (default: the dice).")
@as_option(MOVE_AS)
@json_option
@pass_app
def naval_attack(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    dice: int,
    until_conquer: bool,
    move: int | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Attack the ships in sea zone TO from zone FROM, or sail into TO when it is empty.

    FROM = TO fights the forced combat in a zone you built ships in (NAP-ADV-27); naval
    combats come before the first land offensive.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        return NavalAttack(
            seat=seat,
            origin=zone(board, origin),
            target=zone(board, target),
            dice=dice,
            until="conquer" if until_conquer else "once",
            move=move,
        )

    run_move(app, game_id, as_seat, as_json, build)


@click.command("play-card")
@game_argument
@click.argument("card")
@click.argument("target", required=False, default="")
@as_option(MOVE_AS)
@json_option
@pass_app
def play_card(
    app: App, game_id: str, card: str, target: str, as_seat: str | None, as_json: bool
) -> None:
    """Play territory CARD for its effect in its phase window (NAP-ADV-26).

    TARGET: the sea zone of a ships card, or FROM>TO territories of an epidemic card.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        (chosen,) = card_ids(board, own_hand(v, seat), (card,))
        aim = target
        if ">" in target:
            a, _, b = target.partition(">")
            aim = f"{territory(board, a)}>{territory(board, b)}"
        elif target:
            aim = zone(board, target)
        return PlayCard(seat=seat, card=chosen, target=aim)

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@click.argument("kind", type=click.Choice(["general", "admiral"]))
@click.argument("captor", metavar="CAPTOR")
@as_option(MOVE_AS)
@json_option
@pass_app
def ransom(
    app: App, game_id: str, kind: str, captor: str, as_seat: str | None, as_json: bool
) -> None:
    """Buy back a general or admiral from CAPTOR (seat or name) for 1 regiment (NAP-ADV-25)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: Ransom(
            seat=seat,
            kind=kind,  # type: ignore[arg-type]
            captor=seat_ref(v, captor),
        ),
    )


@click.command()
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("generals", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def lead(
    app: App, game_id: str, origin: str, generals: int, as_seat: str | None, as_json: bool
) -> None:
    """Choose how many GENERALS of FROM lead its attacks this turn (DEC-23)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: Lead(seat=seat, origin=territory(b, origin), generals=generals),
    )


@click.command("move-general")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("count", type=int, default=0)
@as_option(MOVE_AS)
@json_option
@pass_app
def move_general(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """A general's maneuver from FROM to TO with COUNT regiments that were with it (NAP-ADV-39)."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o, t = territory(board, origin), territory(board, target)
        return MoveGeneral(seat=seat, origin=o, target=t, count=count)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("move-fleet")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("ships", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def move_fleet(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    ships: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """The naval maneuver: SHIPS from zone FROM to zone TO, through your zones (NAP-ADV-39)."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        return MoveFleet(
            seat=seat, origin=zone(board, origin), target=zone(board, target), ships=ships
        )

    run_move(app, game_id, as_seat, as_json, build)


@click.command("move-admiral")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("ships", type=int, default=0)
@as_option(MOVE_AS)
@json_option
@pass_app
def move_admiral(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    ships: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """An admiral's maneuver from zone FROM to TO with SHIPS that were with it (NAP-ADV-39)."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o, t = zone(board, origin), zone(board, target)
        return MoveAdmiral(seat=seat, origin=o, target=t, ships=ships)

    run_move(app, game_id, as_seat, as_json, build)


COMMANDS: list[click.Command] = [
    piece,
    convert,
    naval_attack,
    lead,
    play_card,
    ransom,
    move_general,
    move_fleet,
    move_admiral,
]


def vp_and_leaders(player: JsonDict) -> list[str]:
    """A seat's VP and its generals and admirals (in play + in stock), as `risk show` notes."""
    return [
        plural(player["vp"], "VP", "VP"),
        f"generals {player['generals']}+{player['generals_in_stock']} in stock",
        f"admirals {player['admirals']}+{player['admirals_in_stock']} in stock",
    ]


def seat_note(player: JsonDict, n: Names) -> str | None:
    """`risk show`: VP, generals and admirals (in play / in stock), missions accomplished and,
    in the seat's own view, the missions in hand."""
    if "vp" not in player:
        return None
    words = [
        *vp_and_leaders(player),
        f"{plural(len(player.get('accomplished') or []), 'mission')} done",
    ]
    if "missions" in player:
        words.append("missions " + ", ".join(m["id"] for m in player["missions"]))
    return "; ".join(words)


SEAT_NOTE = seat_note


def show_lines(v: JsonDict, n: Names) -> list[str]:
    """`risk show`: round and year, each sea zone's ships, admirals and controller, the
    fortifications, epidemics and generals, and the final ranking."""
    if "sea_zones" not in v:
        return []
    year = f" ({v['year']})" if v.get("year") else ""
    lines = [f"Round {v.get('round', 0)} of {v['round_limit']}{year}"]
    for z in v["sea_zones"]:
        fleets = ", ".join(
            f"{n.seat(int(s))} {k}"
            + (f" (+{z['admirals'][s]} admiral)" if s in z["admirals"] else "")
            for s, k in z["ships"].items()
        )
        held = n.seat(z["controller"]) if z["controller"] is not None else "nobody"
        lines.append(f"  {zone_name(n.board, z['id'])}: {fleets or 'empty'}; held by {held}")
    forts = ", ".join(n.t(t) for t in v["fortifications"]) or "none"
    lines.append(f"Fortifications: {forts}")
    epidemics = ", ".join(f"{n.t(t)} {k}" for t, k in v["epidemics"].items()) or "none"
    lines.append(f"Epidemics: {epidemics}")
    generals = ", ".join(f"{n.t(t)} {k}" for t, k in v["generals"].items()) or "none"
    lines.append(f"Generals: {generals}")
    if v.get("forced_naval_combat"):
        lines.append("Forced naval combat in: " + ", ".join(v["forced_naval_combat"]))
    if v.get("ranking"):
        places = "; ".join(
            f"{i + 1}. " + " = ".join(n.seat(s) for s in place)
            for i, place in enumerate(v["ranking"])
        )
        lines.append(f"Final ranking: {places}")
    return lines


SHOW_LINES = show_lines


def _mission_text(n: Names, mission: str) -> str:
    if mission in ("", "?"):
        return "a hidden mission"
    for m in n.board.section("nap_empire_missions") or ():
        if m.id == mission:
            return str(m.text_en)
    return n.mission(mission)


def _accomplished(d: JsonDict, n: Names) -> str:
    when = " at the final reveal" if d.get("final") else ""
    placed = (
        f"; {plural(d['immediate'], 'regiment')} on {n.t(d['placed_on'])}"
        if d.get("placed_on")
        else ""
    )
    more = (
        f"; +{plural(d['reinforcements'], 'reinforcement')} this turn"
        if d.get("reinforcements")
        else ""
    )
    return (
        f"{n.seat(d['seat'])} accomplishes '{_mission_text(n, d['mission'])}'{when}: "
        f"{plural(d['vp'], 'VP', 'VP')}{placed}{more}."
    )


def _converted(d: JsonDict, n: Names) -> str:
    place = zone_name(n.board, d["where"]) if d["kind"] in ("ship", "admiral") else n.t(d["where"])
    what = (
        plural(d["count"], "ship")
        if d["kind"] == "ship"
        else ("an admiral" if d["kind"] == "admiral" else f"a {d['kind']}")
    )
    return f"{n.seat(d['seat'])} converts {plural(d['count'], 'regiment')} into {what} in {place}."


def _naval(d: JsonDict, n: Names) -> str:
    def side(faces: list[int], natural: list[int], bonus: list[int]) -> str:
        raised = f" (+{'/+'.join(map(str, bonus))} admirals/card on the highest)" if bonus else ""
        return f"{'-'.join(map(str, natural))} → {'-'.join(map(str, faces))}{raised}"

    where = zone_name(n.board, d["target"])
    fight = "in" if d["origin"] == d["target"] else f"from {zone_name(n.board, d['origin'])} on"
    taken = []
    if d.get("attacker_admirals_taken"):
        lost = plural(d["attacker_admirals_taken"], "admiral")
        taken.append(f"{n.does(d['seat'], 'loses', 'lose')} {lost}")
    if d.get("defender_admirals_taken"):
        taken.append(
            f"{n.does(d['defender'], 'loses', 'lose')} "
            f"{plural(d['defender_admirals_taken'], 'admiral')}"
        )
    extra = f"; {', '.join(taken)} (1 VP each)" if taken else ""
    return (
        f"Naval battle {fight} {where}: {n.seat(d['seat'])} "
        f"{side(d['attack'], d['attack_natural'], d['attack_bonus'])} against "
        f"{n.seat(d['defender'])} {side(d['defence'], d['defence_natural'], d['defence_bonus'])}; "
        f"ships lost {d['attacker_losses']} and {d['defender_losses']}{extra}."
    )


def _fleet(d: JsonDict, n: Names) -> str:
    one = d["ships"] == 1  # the verb agrees with the ships
    verb = {
        "invade": "sails into" if one else "sail into",
        "maneuver": "maneuvers to" if one else "maneuver to",
        "admiral": "maneuvers to" if one else "maneuver to",
    }[d["kind"]]
    admirals = f" with {plural(d['admirals'], 'admiral')}" if d.get("admirals") else ""
    return (
        f"{n.seat(d['seat'])}: {plural(d['ships'], 'ship')}{admirals} {verb} "
        f"{zone_name(n.board, d['target'])} from {zone_name(n.board, d['origin'])}."
    )


def _card(d: JsonDict, n: Names) -> str:
    what = {
        "regiments": f"+{d['amount']} reinforcements",
        "ships": f"{plural(d['amount'], 'ship')} in {zone_name(n.board, d['target'] or '')}",
        "attack_bonus": f"+{d['amount']} on the highest attack die of the next battle",
        "defence_bonus": f"+{d['amount']} on the highest defence die of this battle",
        "extra_maneuver": "one more land maneuver",
        "move_epidemic": "an epidemic moves",
    }.get(d["effect"], d["effect"])
    bonus = f"; +2 regiments on {n.t(d['bonus_on'])}" if d.get("bonus_on") else ""
    return f"{n.seat(d['seat'])} plays {n.card(d['card'])} for its effect: {what}{bonus}."


def _ranking(d: JsonDict, n: Names) -> str:
    places = "; ".join(
        f"{i + 1}. " + " = ".join(f"{n.seat(s)} ({plural(d['vp'][s], 'VP', 'VP')})" for s in place)
        for i, place in enumerate(d["places"])
    )
    return f"Final ranking (VP, then regiments, then missions): {places}."


EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    "adv_missions_dealt": lambda d, n: "Each player draws one mission of each rank.",
    "pieces_due": lambda d, n: "Each player now places a general and a fortification.",
    "piece_placed": lambda d, n: (
        f"{n.seat(d['seat'])} places their {d['kind']} in {n.t(d['territory'])}."
    ),
    "epidemics_placed": lambda d, n: (
        "Epidemics break out in " + ", ".join(n.t(t) for t in d["territories"]) + "."
    ),
    "vp_scored": lambda d, n: (
        f"{n.seat(d['seat'])} scores {plural(d['vp'], 'VP', 'VP')} for "
        + {"empires": "empires and routes", "census": "the last census", "capitals": "capitals"}[
            d["reason"]
        ]
        + (
            f" ({', '.join(place_name(n.board, x) for x in d['detail'])})"
            if d.get("detail")
            else ""
        )
        + "."
    ),
    "mission_accomplished": _accomplished,
    "converted": _converted,
    "naval_battle": _naval,
    "fleet_moved": _fleet,
    "general_moved": lambda d, n: (
        f"{n.seat(d['seat'])}'s general maneuvers from {n.t(d['origin'])} to {n.t(d['target'])}"
        f" with {plural(d['count'], 'regiment')}."
    ),
    "leaders_committed": lambda d, n: (
        f"{plural(d['count'], 'general')} {'leads' if d['count'] == 1 else 'lead'} the attack "
        f"from {n.t(d['origin'])}: +1 on the "
        + ("highest die." if d["count"] == 1 else "two highest dice.")
        if d["count"]
        else f"No general leads the attack from {n.t(d['origin'])}."
    ),
    "lead_chosen": lambda d, n: (
        f"{n.seat(d['seat'])} will lead attacks from {n.t(d['origin'])} with "
        f"{plural(d['generals'], 'general')}."
    ),
    "defence_raised": lambda d, n: (
        f"{n.t(d['target'])} defends with "
        + " and ".join(
            ([plural(d["generals"], "general")] if d["generals"] else [])
            + (["a fortification"] if d["fortified"] else [])
        )
        + ": "
        + ", ".join(
            f"+{b} on the {'highest' if i == 0 else 'second'} die" for i, b in enumerate(d["bonus"])
        )
        + "."
    ),
    "leaders_captured": lambda d, n: (
        f"{n.does(d['by'], 'captures', 'capture')} {plural(d['count'], d['kind'])} of "
        f"{n.seat(d['owner'])} in {place_name(n.board, d['where'])} (1 VP each changes hands)."
    ),
    "leaders_advanced": lambda d, n: (
        f"{plural(d['count'], 'general')} {'follows' if d['count'] == 1 else 'follow'} the "
        f"regiments into {n.t(d['target'])}."
    ),
    "fort_destroyed": lambda d, n: f"The fortification of {n.t(d['territory'])} is destroyed.",
    "epidemic_penalty": lambda d, n: (
        f"Invading {n.t(d['target'])} costs {plural(d['count'], 'regiment')} of "
        f"{n.t(d['origin'])} to its epidemic."
    ),
    "epidemic_struck": lambda d, n: (
        f"The epidemic kills {plural(d['lost'], 'regiment')} in {n.t(d['territory'])}"
        + (
            "; the territory is empty and the epidemic moves to "
            + ", ".join(n.t(t) for t in d["moved_to"])
            if d.get("moved_to")
            else ""
        )
        + "."
    ),
    "epidemic_card_drawn": lambda d, n: f"{n.card(d['card'])} is turned for an epidemic.",
    "card_played": _card,
    "epidemic_moved": lambda d, n: (
        f"An epidemic moves from {n.t(d['origin'])} to {n.t(d['target'])}"
        + (f", killing {plural(d['killed'], 'regiment')}" if d["killed"] else "")
        + (f", then on to {n.t(d['then'])}" if d.get("then") else "")
        + "."
    ),
    "ransomed": lambda d, n: (
        f"{n.seat(d['seat'])} ransoms a {d['kind']} from {n.seat(d['captor'])}"
        + (
            f", who {n.verb(d['captor'], 'places', 'place')} 1 regiment on {n.t(d['placed_on'])}"
            if d.get("placed_on")
            else ""
        )
        + "."
    ),
    "combat_ended": lambda d, n: f"{n.seat(d['seat'])} ends the attacks; maneuvers now.",
    "army_perished": lambda d, n: (
        f"{n.does(d['seat'], 'has', 'have')} lost every territory to epidemics and "
        f"{n.verb(d['seat'], 'leaves', 'leave')} the map (VP kept)."
    ),
    "final_ranking": _ranking,
}
