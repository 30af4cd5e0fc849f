"""toy-d8 on the command line: the ``risk muster`` verb and one log sentence per family event.

``risk_cli.families`` adds ``COMMANDS`` to the ``risk`` group and ``EVENT_TEXT`` to ``risk log``
for every registered rule set naming this module in its ``cli_module``.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, run_move, territory
from risk_cli.render import Names, plural
from risk_core import Board, Command, RuleError
from tests.toy_family import Muster, SkipMuster


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY", required=False)
@click.option("--card", type=int, help="The order card to play (default: your strongest).")
@click.option("--skip", is_flag=True, help="Keep your orders and go on to the reinforcements.")
@as_option(MOVE_AS)
@json_option
@pass_app
def muster(
    app: App,
    game_id: str,
    territory_name: str | None,
    card: int | None,
    skip: bool,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Play an order card: its armies appear on TERRITORY (toy-d8's muster phase).

    `risk muster GAME --skip` keeps your orders for a later turn.
    """
    if skip == (territory_name is not None):
        raise click.UsageError("Name the TERRITORY to muster on, or pass --skip (not both).")

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        if territory_name is None:
            return SkipMuster(seat=seat)
        hand = v["players"][seat].get("order_hand") or []
        if card is not None:
            chosen = card
        elif hand:
            chosen = max(hand, key=lambda o: (o["armies"], -o["id"]))["id"]
        else:
            raise RuleError("not_in_hand", "You hold no order card.")
        return Muster(seat=seat, card=chosen, territory=territory(board, territory_name))

    run_move(app, game_id, as_seat, as_json, build)


def _order(n: Names, card: int) -> str:
    info = n.board.card(card)
    return f"{info.kind} ({plural(info.stars, 'army', 'armies')})"


def _shuffled(d: JsonDict, n: Names) -> str:
    size = d["pile_size"] if "pile_size" in d else len(d["pile"])
    return f"The orders are shuffled: {plural(size, 'card')} in the pile."


def _drawn(d: JsonDict, n: Names) -> str:
    which = "" if d["card"] is None else f": {_order(n, d['card'])}"
    return f"{n.seat(d['seat'])} draws an order{which}."


def _played(d: JsonDict, n: Names) -> str:
    return (
        f"{n.seat(d['seat'])} plays {_order(n, d['card'])}: "
        f"{plural(d['armies'], 'army', 'armies')} muster in {n.t(d['territory'])}."
    )


def _skipped(d: JsonDict, n: Names) -> str:
    return f"{n.seat(d['seat'])} keeps their orders."


COMMANDS: list[click.Command] = [muster]
VERBS = {"skip_muster": "muster --skip"}  # `risk moves` says how to skip
EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    "orders_shuffled": _shuffled,
    "order_drawn": _drawn,
    "order_played": _played,
    "muster_skipped": _skipped,
}
