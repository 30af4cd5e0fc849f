"""Risk 2008 on the command line: its verbs, its event texts and what `risk show` notes per seat.

The three Risk 2008 rule sets name this module in ``cli_module``; ``risk_cli.families`` adds its
``COMMANDS`` to ``risk``, its ``EVENT_TEXT`` to the log and its ``SEAT_NOTE`` (capital,
completed missions, rewards) to `risk show`'s players table.  `risk hq` shows the rest: cities,
capitals, airfields, the face-up missions with their rewards and, with --as, your hand's stars.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, card_ids, run_move, territory
from risk_cli.render import Names, plural
from risk_core import Board, Command, RuleError, load_board
from risk_core.model import Trade
from risk_core.rulesets.risk2008_state import (
    PlaceAirfield,
    PlaceCapital,
    StrategicMove,
    TakeMission,
)


def _hand(v: JsonDict, seat: int) -> list[JsonDict]:
    return list(v["players"][seat].get("hand") or [])


def _mission_id(v: JsonDict, ref: str) -> str:
    """A face-up mission by id, or by a word of its text when only one matches."""
    face_up = v.get("missions") or []
    ids = [m["id"] for m in face_up]
    if ref in ids:
        return ref
    matches: list[str] = [m["id"] for m in face_up if ref.lower() in m["text_en"].lower()]
    if len(matches) == 1:
        return matches[0]
    return ref  # the engine names the missions that are face up


@click.command("take-mission")
@game_argument
@click.argument("mission")
@click.argument("card", required=False)
@as_option(MOVE_AS)
@json_option
@pass_app
def take_mission(
    app: App, game_id: str, mission: str, card: str | None, as_seat: str | None, as_json: bool
) -> None:
    """Take MISSION (its id, see `risk hq`), fulfilled this turn, discarding CARD (R08-14).

    CARD is a card id or territory name; by default the card with the fewest stars.  Your
    attacks are over once you take it; one mission a turn.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        hand = _hand(v, seat)
        if card is not None:
            (chosen,) = card_ids(board, [c["id"] for c in hand], (card,))
        elif hand:
            chosen = min(hand, key=lambda c: (c.get("stars", 0), c["id"]))["id"]
        else:
            chosen = None
        return TakeMission(seat=seat, mission=_mission_id(v, mission), card=chosen)

    run_move(app, game_id, as_seat, as_json, build)


@click.command("trade-stars")
@game_argument
@click.argument("cards", nargs=-1, required=True, metavar="CARD...")
@as_option(MOVE_AS)
@json_option
@pass_app
def trade_stars(
    app: App, game_id: str, cards: tuple[str, ...], as_seat: str | None, as_json: bool
) -> None:
    """Trade any of your cards showing 2 to 10 stars in all for regiments (R08-10).

    Cards by id or territory name; one trade a turn, in the reinforcement phase (DEC-38).
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        if "cities" not in v:  # another rule set's trade is `risk trade`, by its own rules
            raise RuleError(
                "wrong_rules", f"Game {game_id} is not a Risk 2008 game: trade with `risk trade`."
            )
        hand = [c["id"] for c in _hand(v, seat)]
        return Trade(seat=seat, cards=card_ids(board, hand, cards))

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY")
@as_option(MOVE_AS)
@json_option
@pass_app
def capital(
    app: App, game_id: str, territory_name: str, as_seat: str | None, as_json: bool
) -> None:
    """Place your capital and 1 regiment on TERRITORY, unoccupied (R08-CC-05)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: PlaceCapital(seat=seat, territory=territory(b, territory_name)),
    )


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY")
@as_option(MOVE_AS)
@json_option
@pass_app
def airfield(
    app: App, game_id: str, territory_name: str, as_seat: str | None, as_json: bool
) -> None:
    """Place the airfield you have just won on TERRITORY, one of yours (R08-CC-10)."""
    run_move(
        app,
        game_id,
        as_seat,
        as_json,
        lambda v, b, seat: PlaceAirfield(seat=seat, territory=territory(b, territory_name)),
    )


@click.command()
@game_argument
@click.argument("origin", metavar="FROM")
@click.argument("target", metavar="TO")
@click.argument("count", type=int)
@as_option(MOVE_AS)
@json_option
@pass_app
def strategic(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    count: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """The Strategic Maneuver reward: move COUNT from FROM to TO before attacking (R08-CC-11)."""

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        o, t = territory(board, origin), territory(board, target)
        return StrategicMove(seat=seat, origin=o, target=t, count=count)

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@as_option("Show this seat's hand and its stars too.")
@json_option
@pass_app
def hq(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """Risk 2008's board facts: cities, capitals, airfields, face-up missions and rewards.

    Each player's completed missions and rewards follow; with --as, your hand and its stars.
    """
    v = app.backend.view(game_id, as_seat)
    if "cities" not in v:
        raise RuleError("wrong_rules", f"Game {game_id} is not a Risk 2008 game.")
    if as_json:
        keys = ("cities", "capitals", "airfields", "missions", "star_trades")
        players = [
            {
                k: p.get(k)
                for k in ("seat", "name", "capital", "completed", "rewards", "hand", "hand_stars")
                if k in p
            }
            for p in v["players"]
        ]
        echo_json({"game_id": game_id, **{k: v[k] for k in keys}, "players": players})
        return
    click.echo(hq_text(v, Names(load_board(v["board"]), v["players"])))


def hq_text(v: JsonDict, n: Names) -> str:
    held = {t: c["owner"] for t, c in v["territories"].items()}
    cities = ", ".join(f"{n.t(t)} ({_owner(held[t], n)})" for t in v["cities"])
    lines = [f"Cities ({len(v['cities'])}): {cities}"]
    capitals = [
        f"{n.t(t)} ({_owner(s, n)}'s, held by {_owner(held[t], n)})"
        for s, t in enumerate(v["capitals"])
        if t
    ]
    lines.append(f"Capitals: {', '.join(capitals) or 'none yet'}")
    airfields = [f"{n.t(t)} ({_owner(held[t], n)})" for t in v["airfields"]]
    lines.append(f"Airfields: {', '.join(airfields) or 'none'}")
    lines.append("Face-up missions:")
    for m in v["missions"]:
        reward = f"  [reward: {m['reward']['text_en']}]" if "reward" in m else ""
        lines.append(f"  {m['id']:<26}{m['kind']}: {m['text_en']}{reward}")
    table = ", ".join(f"{s}→{r}" for s, r in v["star_trades"].items())
    lines.append(f"Star trades (stars→regiments): {table}")
    for p in v["players"]:
        done = ", ".join(m["id"] for m in p.get("completed") or []) or "none"
        rewards = ", ".join(r["id"] for r in p.get("rewards") or []) or "none"
        lines.append(f"{n.seat(p['seat'])}: missions {done}; rewards {rewards}")
        if "hand_stars" in p:
            hand = ", ".join(
                f"[{c['id']}] {n.card(c['id'])} {'*' * c.get('stars', 0)}" for c in p["hand"]
            )
            lines.append(f"  hand: {hand or 'no cards'} = {plural(p['hand_stars'], 'star')}")
    return "\n".join(lines)


def _owner(seat: int, n: Names) -> str:
    return "nobody" if seat < 0 else n.seat(seat)


COMMANDS: list[click.Command] = [take_mission, trade_stars, capital, airfield, strategic, hq]

# `risk moves` names a trade by this verb: `risk trade` takes three cards, a star trade any
# number showing 2 to 10 stars (R08-10).
TRADE_VERB = "trade-stars"


def seat_note(player: JsonDict, n: Names) -> str | None:
    """`risk show`: a seat's capital, completed missions and rewards (public, R08-14), and the
    stars of the viewer's own hand."""
    if "completed" not in player:
        return None
    words = [f"capital {n.t(player['capital'])}" if player.get("capital") else "no capital"]
    words.append(plural(len(player["completed"]), "mission"))
    rewards = player.get("rewards") or []
    if rewards:
        words.append("rewards " + ", ".join(r["id"] for r in rewards))
    if "hand_stars" in player:  # only in the seat's own view
        words.append(f"hand {plural(player['hand_stars'], 'star')}")
    return "; ".join(words)


SEAT_NOTE = seat_note


def show_lines(v: JsonDict, n: Names) -> list[str]:
    """`risk show`: the board facts of `risk hq` (cities, capitals, airfields, the face-up
    missions with their rewards, the star table, each seat's missions and rewards)."""
    return hq_text(v, n).splitlines() if "cities" in v else []


SHOW_LINES = show_lines


def _mission_text(n: Names, mission: str) -> str:
    return mission_text(n, mission) or mission


def mission_text(n: Names, mission: str) -> str | None:
    """A Risk 2008 mission's text (R08-15), None for an id not one of its missions."""
    found = [m for m in n.board.section("r08_missions") or () if m.id == mission]
    return found[0].text_en if found else None


MISSION_TEXT = mission_text  # a win's log line names the mission by its text


def _reward_text(n: Names, reward: str) -> str:
    found = [r for r in n.board.section("r08_rewards") or () if r.id == reward]
    return found[0].text_en.split(":")[0] if found else reward


def _board_set(d: JsonDict, n: Names) -> str:
    capitals = [n.t(c) for c in d["capitals"] if c]
    placed = f"; capitals in {', '.join(capitals)}" if capitals else ""
    return (
        f"Cities in {', '.join(n.t(c) for c in d['cities'])}{placed}; "
        f"{plural(len(d['missions']), 'mission')} face up."
    )


def _taken(d: JsonDict, n: Names) -> str:
    paid = f", discarding {n.card(d['card'])}" if d.get("card") is not None else ""
    reward = f" and wins the reward {_reward_text(n, d['reward'])}" if d.get("reward") else ""
    return f"{n.seat(d['seat'])} completes '{_mission_text(n, d['mission'])}'{paid}{reward}."


EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    "r08_board_set": _board_set,
    "capital_placed": lambda d, n: (
        f"{n.seat(d['seat'])} places their capital in {n.t(d['territory'])}."
    ),
    "mission_taken": _taken,
    "airfield_placed": lambda d, n: (
        f"{n.seat(d['seat'])} builds an airfield in {n.t(d['territory'])}."
    ),
    "strategic_moved": lambda d, n: (
        f"{n.seat(d['seat'])} makes a strategic maneuver: {plural(d['count'], 'regiment')} from "
        f"{n.t(d['origin'])} to {n.t(d['target'])}."
    ),
}
