"""The Napoléon families' command line: their verbs and the log text of their events.

Influence and allies (napoleon-2p active), mission announcements (napoleon-mission) and defender
designation (napoleon-teams).  The three rule sets name this module in ``cli_module``;
``risk_cli.families`` adds its ``COMMANDS`` to ``risk``, its ``EVENT_TEXT`` to the log and its
``SEAT_NOTE`` (an independent's status) to `risk show`.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, card_ids, run_move, territory
from risk_cli.render import Names, plural
from risk_core import Board, Command, RuleError
from risk_core.rulesets.napoleon_independents import AllyManeuver, EndPhase, GiveCard, ReinforceAlly
from risk_core.rulesets.napoleon_mission import ClaimMission
from risk_core.rulesets.napoleon_teams import DesignateDefender


def seat_named(v: JsonDict, ref: str) -> int:
    """A seat (an independent, an ally, a teammate) by number or name, any case."""
    for p in v["players"]:
        if ref == str(p["seat"]) or ref.lower() == p["name"].lower():
            return int(p["seat"])
    names = ", ".join(f"{p['name']} ({p['seat']})" for p in v["players"])
    raise RuleError("unknown_seat", f"No seat {ref!r} in this game (seats: {names}).")


def own_hand(v: JsonDict, seat: int) -> list[int]:
    return [c["id"] for c in v["players"][seat].get("hand") or []]


@click.command()
@game_argument
@click.argument("independent")
@click.argument("card")
@as_option(MOVE_AS)
@json_option
@pass_app
def give(
    app: App, game_id: str, independent: str, card: str, as_seat: str | None, as_json: bool
) -> None:
    """Give CARD (id, territory name or "joker") to INDEPENDENT: napoleon-2p, active, and
    napoleon-1796.

    Each card moves that independent one step towards you (NAP-2PA-03).
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        (chosen,) = card_ids(board, own_hand(v, seat), (card,))
        return GiveCard(seat=seat, independent=seat_named(v, independent), card=chosen)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("reinforce-ally")
@game_argument
@click.argument("ally")
@as_option(MOVE_AS)
@json_option
@pass_app
def reinforce_ally(app: App, game_id: str, ally: str, as_seat: str | None, as_json: bool) -> None:
    """Take ALLY's reinforcements now, then place them: a die in napoleon-2p, active
    (NAP-2PA-06), its income in napoleon-1796.

    After your own regiments are placed, one ally at a time: each die is known before you
    choose the next ally; `end-phase` skips the allies left.
    """
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: ReinforceAlly(seat=seat, ally=seat_named(v, ally)),
    )


@click.command("ally-move")
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("count", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def ally_move(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """An ally's free maneuver from FROM to TO: napoleon-2p, active (NAP-2PA-12), and
    napoleon-1796."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o, t = territory(board, origin), territory(board, target)
        return AllyManeuver(seat=seat, origin=o, target=t, count=count)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("end-phase")
@game_argument
@as_option(MOVE_AS)
@json_option
@pass_app
def end_phase(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """Close an optional step: stop giving cards, stop reinforcing allies, or end the allies'
    maneuvers (napoleon-2p, napoleon-1796)."""
    run_move(app, game_id, as_seat, as_json, lambda v, b, seat: EndPhase(seat=seat))


@click.command()
@game_argument
@click.argument("mission")
@as_option(MOVE_AS)
@json_option
@pass_app
def claim(app: App, game_id: str, mission: str, as_seat: str | None, as_json: bool) -> None:
    """Announce MISSION (its id, see `risk show --as`) as achieved: napoleon-mission."""
    run_move(
        app, game_id, as_seat, as_json, lambda v, b, seat: ClaimMission(seat=seat, mission=mission)
    )


@click.command()
@game_argument
@click.argument("member")
@as_option(MOVE_AS)
@json_option
@pass_app
def designate(app: App, game_id: str, member: str, as_seat: str | None, as_json: bool) -> None:
    """Let teammate MEMBER defend this battle of a shared territory: napoleon-teams (DEC-20)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: DesignateDefender(seat=seat, member=seat_named(v, member)),
    )


COMMANDS: list[click.Command] = [give, reinforce_ally, ally_move, end_phase, claim, designate]


# --------------------------------------------------------------------------- event texts
def status_text(ally_of: int | None, n: Names) -> str:
    """An independent's status in a sentence: neutral, or allied to a player."""
    return "neutral" if ally_of is None else f"allied to {n.seat(ally_of)}"


def seat_note(player: JsonDict, n: Names) -> str | None:
    """`risk show`: an active napoleon-2p independent's status (its ``ally_of``, public:
    NAP-2PA-01), neutral or allied to a player; None for every other seat."""
    return status_text(player["ally_of"], n) if "ally_of" in player else None


SEAT_NOTE = seat_note


EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    # napoleon-2p (active independents)
    "card_given": lambda d, n: (
        f"{n.seat(d['seat'])} gives {n.card(d['card'])} to {n.seat(d['independent'])}, "
        f"now {status_text(d['ally_of'], n)}."
    ),
    "influence_ended": lambda d, n: f"{n.seat(d['seat'])} ends the influence step.",
    "ally_reinforcement_rolled": lambda d, n: (
        f"{n.does(d['ally'], 'receives', 'receive')} {plural(d['face'], 'regiment')}."
    ),
    "ally_reinforcements_ended": lambda d, n: (
        f"{n.seat(d['seat'])} ends the allied reinforcements."
    ),
    "status_rolled": lambda d, n: (
        f"Status die for {n.seat(d['independent'])}: {d['face']}; "
        f"now {status_text(d['ally_of'], n)}."
    ),
    "ally_maneuvers_opened": lambda d, n: (
        f"Allied maneuvers: {', '.join(n.seat(a) for a in d['allies'])}."
    ),
    "ally_maneuvered": lambda d, n: (
        f"{n.does(d['ally'], 'moves', 'move')} {plural(d['count'], 'regiment')} from "
        f"{n.t(d['origin'])} to {n.t(d['target'])}."
    ),
    # napoleon-mission
    "mission_hands_dealt": lambda d, n: "Each player receives four secret missions.",
    "mission_achieved": lambda d, n: (
        f"{n.seat(d['seat'])} achieves a mission: {n.mission(d['mission'])}."
    ),
    "mission_revealed": lambda d, n: (
        f"{n.seat(d['seat'])} reveals the last mission: {n.mission(d['mission'])}."
    ),
    # napoleon-teams
    "defender_designated": lambda d, n: (
        f"{n.seat(d['seat'])} lets {n.seat(d['member'])} defend this battle."
    ),
    "hand_passed": lambda d, n: (
        f"{n.seat(d['seat'])} passes the team's cards to {n.seat(d['to'])}."
    ),
}
