"""Moves that only the Napoléon variants have: influence and allies (napoleon-2p active),
mission announcements (napoleon-mission) and defender designation (napoleon-teams)."""

from __future__ import annotations

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, card_ids, run_move, territory
from risk_core import Board, Command, RuleError
from risk_core.rulesets.napoleon_2p import AllyManeuver, EndPhase, GiveCard, ReinforceAlly
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
    """Give CARD (id, territory name or "joker") to INDEPENDENT: napoleon-2p, active.

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
    """Roll a die of reinforcements for your ally ALLY: napoleon-2p, active (NAP-2PA-06)."""
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
    """An ally's free maneuver from FROM to TO: napoleon-2p, active (NAP-2PA-12)."""

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
    """Close an optional step: stop giving cards, or end the allies' maneuvers (napoleon-2p)."""
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


COMMANDS = (give, reinforce_ally, ally_move, end_phase, claim, designate)
