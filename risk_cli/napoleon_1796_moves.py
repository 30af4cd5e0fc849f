"""Risk Napoléon, the 1796 campaign on the command line: its verbs, log sentences and `risk show`.

The ``napoleon-1796`` rule set names this module in ``cli_module``.  The campaign plays with
the advanced game's verbs (``convert``, ``naval-attack``, ``lead``, ``play-card``, ``ransom``,
``move-general``, ``move-fleet``, ``move-admiral``) and napoleon-2p's alliance verbs
(``give``, ``reinforce-ally``, ``ally-move``, ``end-phase``), which ``risk`` already has; this
module adds what is the campaign's own (and the log texts of all the events it uses):

* ``annex TERRITORY [CARD]``: NAP-CAMP-11/12, in the ``annex`` step at the end of the turn;
* ``realliance CARD TO``: NAP-CAMP-10, after taking an allied power's capital.

``SEAT_NOTE`` shows each player's side, VP and leaders and each independent's status;
``SHOW_LINES`` the advanced game's lines (round and year, sea zones, fortifications,
epidemics, generals, ranking) and the campaign's alliances, invasion and objectives.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from risk_cli import napoleon_advanced_moves as advanced
from risk_cli import napoleon_moves as alliances
from risk_cli.backend import JsonDict
from risk_cli.common import App, as_option, game_argument, json_option, pass_app
from risk_cli.moves import MOVE_AS, card_ids, run_move, territory
from risk_cli.napoleon_moves import own_hand, status_text
from risk_cli.render import Names, plural
from risk_core import Board, Command
from risk_core.rulesets.napoleon_1796_state import Annex, Really


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY")
@click.argument("card", required=False)
@as_option(MOVE_AS)
@json_option
@pass_app
def annex(
    app: App,
    game_id: str,
    territory_name: str,
    card: str | None,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """Annex TERRITORY of an ally, or of the neutral for CARD, at the end of your turn.

    napoleon-1796 (NAP-CAMP-11/12): an ally's territory (not a capital) turns that ally
    neutral; a neutral's costs a territory card (id, territory name or "joker").  One of
    each a turn; `end-phase` ends the turn without (more) annexations.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        chosen = card_ids(board, own_hand(v, seat), (card,))[0] if card else None
        return Annex(seat=seat, territory=territory(board, territory_name), card=chosen)

    run_move(app, game_id, as_seat, as_json, build)


@click.command()
@game_argument
@click.argument("card")
@click.argument("withdraw_to", metavar="TO")
@as_option(MOVE_AS)
@json_option
@pass_app
def realliance(
    app: App, game_id: str, card: str, withdraw_to: str, as_seat: str | None, as_json: bool
) -> None:
    """Spend CARD to make the power whose capital you just took your ally (NAP-CAMP-10).

    napoleon-1796: your regiments in the capital withdraw to TO (one of your territories
    next to it) and 3 of the power's regiments hold it.
    """

    def build(v: JsonDict, board: Board, seat: int) -> Command:
        (chosen,) = card_ids(board, own_hand(v, seat), (card,))
        return Really(seat=seat, card=chosen, withdraw_to=territory(board, withdraw_to))

    run_move(app, game_id, as_seat, as_json, build)


COMMANDS: list[click.Command] = [annex, realliance]


# --------------------------------------------------------------------------- `risk show`
def seat_note(player: JsonDict, n: Names) -> str | None:
    """A player's side with the advanced game's note (VP, leaders); an independent's status
    (public: its cannon on the track)."""
    if "ally_of" in player:
        return status_text(player["ally_of"], n)
    if "side" in player:
        return "; ".join([player["side"], *advanced.vp_and_leaders(player)])
    return None


SEAT_NOTE = seat_note


def _objective(o: JsonDict, n: Names) -> str:
    target = {
        "maritime_supremacy": "maritime supremacy",
        "allies": "each ally",
    }.get(o["target"]) or n.t(o["target"])
    condition = o.get("condition") or ""
    if condition == "before_1809":
        target += " before 1809"
    elif condition.startswith("allied_to_"):
        side, _, colour = condition.removeprefix("allied_to_").partition(":")
        target += f" if the {colour} army is allied to the {side}"
    when = {"control": "held", "ally": "per turn", "invasion": "first invasion"}[o["kind"]]
    return f"{target} ({when}) {o['vp']}"


def show_lines(v: JsonDict, n: Names) -> list[str]:
    """The advanced game's lines, then the alliances, the invasion in progress, a re-alliance
    open, and each side's objectives (the one-shot invasions already scored marked)."""
    lines = advanced.show_lines(v, n)
    camp = v.get("campaign")
    if not camp:
        return lines
    allied = ", ".join(
        f"{n.seat(int(s))} {status_text(a, n)}" for s, a in camp["alliances"].items()
    )
    lines.append(f"Alliances: {allied or 'none'}")
    if camp.get("invasion"):
        lines.append(f"Invasion in progress: {n.t(camp['invasion'])}")
    if camp.get("realliance"):
        lines.append(f"Re-alliance open (a card): {n.t(camp['realliance'])}")
    scored = set(camp.get("scored") or ())
    for side in ("french", "english"):
        items = []
        for o in camp["objectives"]:
            if o["side"] != side:
                continue
            done = o["kind"] == "invasion" and f"{side}:{o['target']}" in scored
            items.append(_objective(o, n) + (" [scored]" if done else ""))
        lines.append(f"Objectives ({side}, VP): " + "; ".join(items))
    return lines


SHOW_LINES = show_lines


# --------------------------------------------------------------------------- event texts
def _reallied(d: JsonDict, n: Names) -> str:
    card = n.card(d["card"]) if d.get("card") is not None else "a card"
    return (
        f"{n.seat(d['seat'])} spends {card}: "
        f"{n.does(d['independent'], 'becomes', 'become')} {n.seat(d['seat'])}'s ally; "
        f"{plural(d['withdrawn'], 'regiment')} withdraw to {n.t(d['withdraw_to'])} and "
        f"{plural(d['placed'], 'regiment')} of {n.seat(d['independent'])} hold "
        f"{n.t(d['capital'])}."
    )


def _annexed(d: JsonDict, n: Names) -> str:
    how = (
        f"from its ally {n.seat(d['previous'])}, now neutral"
        if d["kind"] == "ally"
        else f"from {n.seat(d['previous'])} for "
        + (n.card(d["card"]) if d.get("card") is not None else "a card")
    )
    return (
        f"{n.seat(d['seat'])} annexes {n.t(d['territory'])} "
        f"({plural(d['regiments'], 'regiment')}) {how}."
    )


def _objective_detail(detail: str, n: Names) -> str:
    """An ``objectives_scored`` detail as the log tells it: a territory's name, maritime
    supremacy, or the allies counted (``allies:N``)."""
    if detail.startswith("allies:"):
        return plural(int(detail.partition(":")[2]), "ally", "allies")
    if detail == "maritime_supremacy":
        return "maritime supremacy"
    return advanced.place_name(n.board, detail)


EVENT_TEXT: dict[str, Callable[[JsonDict, Names], str]] = {
    # The advanced game's and napoleon-2p's events the campaign emits, with their own texts
    # (the same functions: a game's log installs this module alone).
    **advanced.EVENT_TEXT,
    **alliances.EVENT_TEXT,
    "campaign_opened": lambda d, n: (
        "The 1796 campaign begins: "
        + ", ".join(
            f"{n.seat(s)} {status_text(a, n)}" for s, a in enumerate(d["ally_of"]) if a is not None
        )
        + f"; {plural(sum(d['influence']), 'card')} face down under their cannons; "
        f"{n.seat(d['first'])} plays first."
    ),
    "allied_income": lambda d, n: (
        f"{n.does(d['ally'], 'receives', 'receive')} {plural(d['count'], 'regiment')} "
        f"({plural(d['territories'], 'territory', 'territories')}, capital/empire bonus "
        f"{d['bonus']}), placed by {n.seat(d['seat'])}."
    ),
    "stability_rolled": lambda d, n: (
        f"{n.seat(d['independent'])} lost the invasion: stability die {d['face']}"
        + (f" +{d['leaders']} for leaders captured" if d["leaders"] else "")
        + f"; now {status_text(d['ally_of'], n)}."
    ),
    "capital_fell": lambda d, n: (
        f"{n.t(d['capital'])} has fallen: {n.does(d['independent'], 'leaves', 'leave')} "
        f"{n.seat(d['was_ally_of'])} and {n.verb(d['independent'], 'turns', 'turn')} neutral."
    ),
    "realliance_possible": lambda d, n: (
        f"{n.seat(d['seat'])} may spend a card to make the power of {n.t(d['capital'])} "
        "their ally (realliance)."
    ),
    "reallied": _reallied,
    "annex_opened": lambda d, n: f"{n.seat(d['seat'])} may annex territories (or end-phase).",
    "annexed": _annexed,
    "invasion_scored": lambda d, n: (
        f"{n.seat(d['seat'])} scores {plural(d['vp'], 'VP', 'VP')} for the first invasion of "
        f"{n.t(d['territory'])}."
    ),
    "objectives_scored": lambda d, n: (
        f"{n.seat(d['seat'])} scores {plural(d['vp'], 'VP', 'VP')} for the campaign objectives"
        + (
            f" ({', '.join(_objective_detail(x, n) for x in d['detail'])})"
            if d.get("detail")
            else ""
        )
        + "."
    ),
    "invasion_ended": lambda d, n: f"The invasion of {n.t(d['target'])} is over.",
}
