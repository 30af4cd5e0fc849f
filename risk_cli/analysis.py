"""Seeing the board and deciding a move: ``risk odds``, ``risk near``, ``risk moves``.

Each reads a store of one's own or asks the service (``ViewRequest.look`` and ``.moves``), and
none stores anything.  ``odds`` computes exact probabilities from the dice rules
(``risk_core.odds``, CORE-14..16) of the facts ``risk_core.looks`` gives (the service's
answer, or the local game's); ``near`` lists a territory's neighbours by the rule set's
``attack_graph``; ``moves`` groups ``legal_moves``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import click
import msgspec

from risk_cli.backend import check_remote
from risk_cli.common import App, as_option, echo_json, game_argument, json_option, pass_app, viewer
from risk_cli.render import plural
from risk_core import Board, RiskError, RuleError, load_board, looks, ruleset_of, to_act
from risk_core.move_groups import grouped_moves, no_moves
from risk_core.names import listed, whole_number
from risk_core.odds import Assault, Battle, Dice, assault, battle, classic_dice
from risk_core.rulesets.base import (
    armies_text,
    dice_count_error,
    stop_at_low_text,
    stop_at_text,
)

JsonDict = dict[str, Any]
SHOWN = Fraction(1, 10000)  # text lists ends of at least 0.01%; --json lists them all


# --------------------------------------------------------------------------- odds
def number(p: Fraction) -> JsonDict:
    """An exact probability or expectation for JSON: the fraction as text and its value."""
    return {"exact": str(p), "value": float(p)}


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


class Side(msgspec.Struct, frozen=True):
    """One side of the attack as printed: a name ("attacker" or a territory) and its armies."""

    label: str
    armies: int
    territory: str | None = None
    player: str | None = None


def odds_json(attacker: Side, defender: Side, fight: Battle, siege: Assault | None) -> JsonDict:
    out: JsonDict = {
        "attacker": msgspec.to_builtins(attacker),
        "defender": msgspec.to_builtins(defender),
        "battle": {
            "attack_dice": fight.attack,
            "defence_dice": fight.defence,
            "outcomes": [
                {"attacker_losses": k, "defender_losses": fight.pairs - k, "p": number(p)}
                for k, p in enumerate(fight.losses)
            ],
            "attacker_losses": number(fight.attacker_losses),
            "defender_losses": number(fight.defender_losses),
        },
        "assault": None,
    }
    if siege is not None:
        out["assault"] = {
            "dice": siege.dice,
            "stop_at": siege.stop_at,
            "conquest": number(siege.conquest),
            "attacker_losses": number(siege.attacker_losses),
            "defender_losses": number(siege.defender_losses),
            "outcomes": [
                {"attacker_left": a, "defender_left": d, "p": number(p)}
                for (a, d), p in _ordered(siege.outcomes)
            ],
        }
    return out


def _ordered(outcomes: dict[tuple[int, int], Fraction]) -> list[tuple[tuple[int, int], Fraction]]:
    """Conquests first, most armies left first; then the failures, fewest defenders first."""
    return sorted(outcomes.items(), key=lambda item: (item[0][1], -item[0][0]))


def odds_text(attacker: Side, defender: Side, fight: Battle, siege: Assault | None) -> list[str]:
    a, d = attacker.label, defender.label
    lines = [
        f"{a[0].upper()}{a[1:]} ({attacker.armies}) against {d} ({defender.armies}).",
        f"One battle, {plural(fight.attack, 'die', 'dice')} against {fight.defence}:",
    ]
    for k, p in enumerate(fight.losses):
        lines.append(f"  attacker loses {k}, defender {fight.pairs - k}: {percent(p):>7}")
    lines.append(
        f"  expected losses: attacker {float(fight.attacker_losses):.2f}, "
        f"defender {float(fight.defender_losses):.2f}"
    )
    if siege is None:
        lines.append("No attack until conquest: the attacker needs 2 armies.")
        return lines
    lines += [
        f"Until {d} falls or {a} is down to {max(siege.stop_at, 1)} (up to {siege.dice} dice):",
        f"  conquest: {percent(siege.conquest)}",
        f"  expected losses: attacker {float(siege.attacker_losses):.2f}, "
        f"defender {float(siege.defender_losses):.2f}",
        "  armies left:",
    ]
    hidden, rest = 0, Fraction(0)
    for (left, held), p in _ordered(siege.outcomes):
        if p < SHOWN:
            hidden, rest = hidden + 1, rest + p
        elif held == 0:
            lines.append(f"    {d} taken, {left} left in {a}: {percent(p):>7}")
        else:
            lines.append(f"    {d} holds with {held}, {left} left in {a}: {percent(p):>7}")
    if hidden:
        lines.append(f"    {hidden} other ends, each under 0.01%: {percent(rest)} together")
    return lines


def print_odds(
    attacker: Side,
    defender: Side,
    dice: int,
    stop_at: int,
    specs: Dice,
    defence_max: int,
    as_json: bool,
) -> None:
    """The odds of one battle and of attacking until conquest (CORE-14..16), printed."""
    a, d = attacker.armies, defender.armies
    if a < 2 or d < 1:
        raise RiskError(
            "no_attack",
            f"No battle: {armies_text(a)} cannot attack {d} (2 or more against 1 or more).",
        )
    if dice < 1:  # a count below 1 (CORE-14)
        raise RiskError("bad_count", f"Attack with at least 1 die, not {dice}.")
    # As the engine refuses such an order (CORE-14): the odds of an attack it would not make
    # are none to give (a stop below 1 was read as 1).
    if stop_at < 1:
        raise RiskError("bad_count", stop_at_low_text(stop_at))
    if stop_at >= a:
        label = attacker.label[:1].upper() + attacker.label[1:]  # "the attacker" opens it
        raise RiskError("bad_count", stop_at_text(label, a, stop_at))
    fight = battle(min(dice, a - 1), min(defence_max, d), specs)
    try:
        siege = assault(a, d, dice=dice, stop_at=stop_at, defence_max=defence_max, specs=specs)
    except ValueError as e:
        raise RiskError("too_many_armies", f"Cannot compute the odds: {e}.") from None
    if as_json:
        echo_json(odds_json(attacker, defender, fight, siege))
    else:
        click.echo("\n".join(odds_text(attacker, defender, fight, siege)))


def print_facts(facts: JsonDict, as_json: bool) -> None:
    """The odds of ``risk_core.looks.odds_facts`` (of a game of one's own, or the service's
    answer for a game of it), computed and printed here."""
    attacker, defender = Side(**facts["attacker"]), Side(**facts["defender"])
    dice = looks.odds_dice(facts)
    n, stop_at, most = facts["dice"], facts["stop_at"], facts["defence_max"]
    print_odds(attacker, defender, n, stop_at, dice, most, as_json)


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="GAME FROM TO | ATTACKERS DEFENDERS")
@click.option("--dice", type=int, metavar="N", help="Attack dice (default: the most allowed).")
@click.option(
    "--stop-at",
    type=int,
    default=1,
    show_default=True,
    metavar="N",
    help="Stop attacking when FROM is down to N armies.",
)
@json_option
@pass_app
def odds(app: App, args: tuple[str, ...], dice: int | None, stop_at: int, as_json: bool) -> None:
    """Exact odds of attacking TO from FROM: one battle, and attacking until TO falls or FROM
    is down to --stop-at (CORE-14..16, from the dice rules, never simulated).

    `risk odds GAME FROM TO` uses the game's armies and its rule set's dice;
    `risk odds ATTACKERS DEFENDERS` (e.g. `risk odds 10 5`) uses classic dice, no game.
    """
    numbers = [n for x in args if (n := whole_number(x)) is not None]
    if len(args) == 2 and len(numbers) == 2:
        a, d = numbers
        n = dice if dice is not None else max(1, min(3, a - 1))
        err = dice_count_error(n, 3)
        if err is not None:
            raise err
        print_odds(
            Side("the attacker", a), Side("the defender", d), n, stop_at, classic_dice, 2, as_json
        )
        return
    if len(args) != 3:
        raise click.UsageError("Give GAME FROM TO, or ATTACKERS DEFENDERS (two numbers).")
    game_id, origin, target = args
    if app.redis_url:  # the facts from the service, the odds computed here
        from risk_service.protocol import Look

        look = Look(kind="odds", origin=origin, target=target, dice=dice, stop_at=stop_at)
        facts = check_remote(app.backend, "risk odds").look(game_id, None, look)
    else:
        state = app.service.state(game_id)
        facts = looks.odds_facts(state, origin, target, dice, stop_at)
    print_facts(facts, as_json)


def dry_run_attack(
    app: App,
    game_id: str,
    origin: str,
    target: str,
    dice: int | None,
    stop_at: int,
    as_seat: str | None,
    as_json: bool,
) -> None:
    """``risk attack --dry-run``: the attack is checked as the move would be (the same errors,
    as the seat that would move) and its odds printed; nothing is stored.  Through the
    service, the seat's key asks (a seat of this profile: by default the one to act)."""
    if app.redis_url:
        from risk_service.protocol import Look

        look = Look(kind="dry_run", origin=origin, target=target, dice=dice, stop_at=stop_at)
        facts = check_remote(app.backend, "risk attack --dry-run").look(game_id, as_seat, look)
    else:
        state = app.service.state(game_id)
        seat = viewer(state, as_seat)
        seat = to_act(state) if seat is None else seat
        if seat is None:
            raise RuleError("game_over", "The game is over.")
        facts = looks.dry_run(state, seat, origin, target, dice, stop_at)
    print_facts(facts, as_json)


# --------------------------------------------------------------------------- near
def near_text(near: JsonDict) -> list[str]:
    armies = f"{near['armies']} {'army' if near['armies'] == 1 else 'armies'}"
    lines = [
        f"{near['name']} ({near['player'] or 'nobody'}, {armies}): "
        f"{len(near['neighbours'])} neighbours (as {near['seat_name']} may attack)."
    ]
    width = max([len(r["name"]) for r in near["neighbours"]] + [9])
    lines.append(f"  {'territory':<{width}}  {'owner':<12} armies  edge")
    for r in near["neighbours"]:
        lines.append(
            f"  {r['name']:<{width}}  {r['player'] or 'nobody':<12} {r['armies']:>6}  {r['edge']}"
        )
    return lines


@click.command()
@game_argument
@click.argument("territory_name", metavar="TERRITORY")
@json_option
@pass_app
def near(app: App, game_id: str, territory_name: str, as_json: bool) -> None:
    """TERRITORY's neighbours with owner, armies and edge (border or sea), by the rule set's
    attack graph for the seat to act (CORE-13)."""
    if app.redis_url:
        from risk_service.protocol import Look

        look = Look(kind="near", origin=territory_name)
        found = check_remote(app.backend, "risk near").look(game_id, None, look)
    else:
        found = looks.neighbours(app.service.state(game_id), territory_name)
    if as_json:
        echo_json(found)
    else:
        click.echo("\n".join(near_text(found)))


# --------------------------------------------------------------------------- moves
def _range(span: list[int]) -> str:
    return str(span[0]) if span[0] == span[1] else f"{span[0]}-{span[1]}"


def _counted(span: list[int], one: str, many: str) -> str:
    """A range of a counted thing: "1 die", "1-3 dice", "2 armies"."""
    return f"{_range(span)} {one if span[1] == 1 else many}"


FAMILY_SHOWN = 8  # a family command's entries listed by `risk moves` before "… (N in all)"

# The verb that submits a family command, where it is not the command's type with dashes
# (tests/test_cli_analysis.py checks that every command type has an existing verb); a plug-in
# family's command-line module adds its own (``VERBS``, risk_cli.families).
VERBS = {
    "place_token": "token",
    "play_power": "power",
    "choose_support": "support",
    "invoke_order66": "order66",
    "place_palpatine": "palpatine",
    "give_card": "give",
    "ally_maneuver": "ally-move",
    "place_piece": "piece",
    "really": "realliance",
    "claim_mission": "claim",
    "designate_defender": "designate",
    "place_capital": "capital",
    "place_airfield": "airfield",
    "strategic_move": "strategic",
}
SEAT_FIELDS = frozenset({"independent", "ally", "captor", "member"})  # seats, by name


def verb_of(command_type: str) -> str:
    """The `risk` verb that submits a command of ``command_type`` (its JSON ``type``)."""
    return VERBS.get(command_type, command_type.replace("_", "-"))


def card_text(board: Board, c: int) -> str:
    """A card as `risk moves` names it: by what it shows, which its verbs take (a territory, a
    joker); a card showing neither (a Clone Wars ship class, CW-21/22) also by its id, as
    `risk show --as` lists the hand (``[3] fighter``), for the verbs take it by id."""
    if not 0 <= c < len(board.cards):
        return f"card {c}"
    card = board.card(c)
    label = board.card_label(c)
    return label if card.territory is not None or card.symbol == "joker" else f"[{c}] {label}"


def _fields_text(board: Board, fields: JsonDict, names: list[str]) -> str:
    """A family command's fields for a reader: territories and sea zones by name, seats by
    their player's name and cards by what they show (a run of them as alternatives), yes or
    no, and a counted field's range as "low-high"."""
    zones = {z.id: z.name_en for z in board.sea_zones}

    def place(v: str) -> str:
        return board.name(board.index[v]) if v in board.index else zones.get(v, v)

    def card(c: int) -> str:
        return card_text(board, c)

    def seat(s: int) -> str:
        return names[s] if 0 <= s < len(names) else f"seat {s}"

    readers = {"card": card, **dict.fromkeys(SEAT_FIELDS, seat)}  # numbers that name a thing

    def value(key: str, v: Any) -> str:
        one = readers.get(key)
        if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v):
            return _range(v) if one is None else " or ".join(map(one, range(v[0], v[1] + 1)))
        if one is not None and type(v) is int:
            return one(v)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, str):  # a territory, a sea zone, or "from>to" (an epidemic's move)
            return " > ".join(place(part) for part in v.split(">"))
        return str(v)

    shown = [f"{k} {value(k, v)}" for k, v in fields.items() if v not in ("", None)]
    return ", ".join(shown) or "(no arguments)"


def moves_text(board: Board, g: JsonDict, names: list[str], trade_verb: str = "trade") -> list[str]:
    """`risk moves`'s lines for the groups ``g`` (``grouped_moves``); ``names``: the seats';
    ``trade_verb``: the verb that submits a trade in this game (``families.trade_verb``)."""

    def name(tid: str) -> str:
        return board.name(board.find(tid))

    lines = [
        f"  {trade_verb}: {', '.join(card_text(board, c) for c in t['cards'])}" for t in g["trade"]
    ]
    by_range: dict[str, list[str]] = defaultdict(list)
    for t, span in g["place"].items():
        by_range[_range(span)].append(name(t))
    lines += [f"  place {r}: {listed(ts)}" for r, ts in by_range.items()]
    for verb, one, many in (("attack", "die", "dice"), ("fortify", "army", "armies")):
        if g[verb]:
            lines.append(f"  {verb}:")
        for o, targets in g[verb].items():
            lines += [
                f"    {name(o)} → {name(t)}: {_counted(s, one, many)}" for t, s in targets.items()
            ]
    if g["defend"]:
        lines.append(f"  defend with {_counted(g['defend'], 'die', 'dice')}")
    if g["occupy"]:
        lines.append(f"  occupy with {_counted(g['occupy'], 'army', 'armies')}")
    for kind, items in g["other"].items():
        shown = "; ".join(_fields_text(board, item, names) for item in items[:FAMILY_SHOWN])
        more = f" … ({len(items)} in all)" if len(items) > FAMILY_SHOWN else ""
        lines.append(f"  {verb_of(kind)}: {shown}{more}")
    if g["end"]:
        lines.append("  end the turn")
    return lines


@click.command()
@game_argument
@as_option("Whose moves (default: the seat that must act now).")
@json_option
@pass_app
def moves(app: App, game_id: str, as_seat: str | None, as_json: bool) -> None:
    """What this seat may do now, grouped: trades, placements, attacks, fortify, family moves.

    Through the service (--redis), the service lists them for a seat whose key this profile
    holds (by default the seat that must act)."""
    if app.redis_url:
        seat, v = check_remote(app.backend, "risk moves").moves_view(game_id, as_seat)
        found = v["moves"]
        mine = found is not None
        g = found if mine else no_moves()
        names = [p["name"] for p in v["players"]]
        board, acting = load_board(v["board"]), v["to_act"]
        phase, doing, rules_name = v["phase"], v["phase_text"], v["rules"]
    else:
        state = app.local_service("risk moves").state(game_id)
        acting = to_act(state)
        seat = viewer(state, as_seat)
        seat = acting if seat is None else seat
        rules = ruleset_of(state)
        mine = seat is not None and seat == acting
        if mine:  # moves listed where none is accepted would mislead: say why instead
            from risk_service import history

            history.check_game_playable(state, game_id)
        g = grouped_moves(state, rules.legal_moves(state)) if mine else no_moves()
        names = [p.name for p in state.players]
        board, phase, rules_name = rules.board, state.phase, rules.name
        doing = rules.phases.get(state.phase, state.phase)
    if as_json:
        echo_json({"game_id": game_id, "seat": seat, "phase": phase, "moves": g})
        return
    if seat is None:
        click.echo("The game is over: nobody moves.")
    elif not mine:
        now = f"it is {names[acting]}'s move (seat {acting})" if acting is not None else ""
        click.echo(
            f"Nothing for {names[seat]} (seat {seat}) to do now: {now or 'the game is over'}."
        )
    else:
        click.echo(f"{names[seat]} (seat {seat}) may {doing}:")
        from risk_cli.families import trade_verb

        click.echo("\n".join(moves_text(board, g, names, trade_verb(rules_name))))
