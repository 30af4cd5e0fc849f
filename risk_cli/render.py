"""Text for people: the board, one line per event, standings, rule sets and boards.

Everything here formats data the caller already filtered for the viewer (``risk_core.views``),
so a renderer cannot leak a hand or a mission it was not given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

from risk_core import Board, SetupError
from risk_core.rulesets.base import registered

JsonDict = dict[str, Any]

# Army colours as terminal colours; click drops the styling when output is not a terminal.
_FG = {
    "red": "red",
    "blue": "blue",
    "green": "green",
    "yellow": "yellow",
    "black": "bright_black",
    "purple": "magenta",
}


class Names:
    """Seat and territory names of one game, for messages, and who holds each territory.

    ``owners`` (territory id -> seat) are those known before the first event told; telling
    events in order (``event_line``) keeps them up to date (``follow``), so a battle's losses
    are told against the armies that fought it (``army``).
    """

    def __init__(
        self,
        board: Board,
        players: Sequence[JsonDict],
        owners: Mapping[str, int] | None = None,
    ) -> None:
        self.board = board
        self.players = list(players)
        self.owners: dict[str, int] = dict(owners or {})
        # The side whose victory was announced (a faction's ``faction_won``): its name and
        # seats, for the ``game_won`` told after it when the players carry no faction.
        self.side: tuple[str, list[int]] | None = None

    def seat(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.players):
            return "nobody"
        p = self.players[seat]
        return click.style(p["name"], fg=_FG.get(p["colour"]), bold=True)

    def does(self, seat: int | None, one: str, many: str) -> str:
        """``seat``'s name and the verb agreeing with it (``verb``)."""
        return f"{self.seat(seat)} {self.verb(seat, one, many)}"

    def verb(self, seat: int | None, one: str, many: str) -> str:
        """The verb whose subject is ``seat``: ``many`` (lose, are) after a plural name
        (``many_named``), else ``one`` (loses, is)."""
        return many if self.many_named(seat) else one

    def many_named(self, seat: int | None) -> bool:
        """Whether ``seat``'s name is a plural noun: an army the rule set names itself (a
        neutral seat) after a people or a group ("Prussians", "Neutrals", "White
        independents"), where "Ally" or "White" is one; a player's own name stands for one
        person, whatever its last letter."""
        if seat is None or not 0 <= seat < len(self.players):
            return False
        p = self.players[seat]
        return bool(p.get("neutral")) and str(p["name"]).endswith("s")

    def t(self, territory_id: str) -> str:
        return self.board.territories[self.board.index[territory_id]].name_en

    def group(self, group_id: str) -> str:
        """A continent's (group's) English name; an id the board does not have, as it is."""
        k = self.board.group_index.get(group_id)
        return group_id if k is None else self.board.groups[k].name_en

    def card(self, c: int | None) -> str:
        if c is None:
            return "a card"
        return self.board.card_label(c)

    def cards(self, cards: Sequence[int]) -> str:
        return ", ".join(self.card(c) for c in cards)

    def mission(self, mission_id: str | None) -> str:
        """A mission's text: the board's missions, else a rule family's own (``MISSION_TEXT``,
        Risk 2008's face-up missions), else its id."""
        m = next((m for m in self.board.missions if m.id == mission_id), None)
        if m is not None:
            return m.text_en
        found = (text(self, mission_id) for text in _MISSION_TEXT.values()) if mission_id else ()
        return next((said for said in found if said is not None), str(mission_id))

    def army(self, territory_id: str, seat: int) -> int:
        """The seat whose armies in ``territory_id`` fought for ``seat`` (the mover, or the seat
        that chose the defence dice): a neutral seat holding it (classic-2p's ally, napoleon-2p's
        independents fight for a player, and the opponent rolls their defence), else ``seat``
        itself, whose own regiments fought (also on a shared napoleon-teams territory)."""
        owner = self.owners.get(territory_id, -1)
        if owner != seat and 0 <= owner < len(self.players) and self.players[owner].get("neutral"):
            return owner
        return seat

    def follow(self, d: JsonDict) -> None:
        """Note who holds each territory after the event ``d`` (deals, claims, conquests)."""
        if d["type"] in ("territories_dealt", "position_set"):
            ids = [t.id for t in self.board.territories]
            self.owners = {t: o for t, o in zip(ids, d["owners"], strict=False) if o >= 0}
        elif d["type"] == "setup_placed" and d["territory"] not in self.owners:
            self.owners[d["territory"]] = d["seat"]  # a claim
        elif d["type"] == "conquered":
            self.owners[d["target"]] = self.army(d["origin"], d["seat"])
        elif d["type"] == "faction_won":
            self.side = (str(d["faction"]), list(d["seats"]))


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


# --------------------------------------------------------------------------- events
EventText = Callable[[JsonDict, Names], str]
TIMEOUT_MARK = "(timeout: played by the computer)"


def event_line(d: JsonDict, n: Names) -> str:
    """One readable sentence for a visible event (``risk_core.views.visible_event``).

    A rule family's event is told by its family's text (``add_event_texts``); an event no text
    is known for, or one its family's text cannot read, by ``generic_line``.  Told in order, the
    events keep ``n``'s owners up to date.
    """
    line = _event_text(d, n)
    n.follow(d)
    if d.get("timeout"):  # marked by the service (``risk_service.deadlines``)
        line += f" {TIMEOUT_MARK}"
    return line


def _event_text(d: JsonDict, n: Names) -> str:
    fmt = _EVENT_TEXT.get(d["type"])
    if fmt is not None:
        return fmt(d, n)
    family = _FAMILY_TEXT.get(d["type"])
    if family is not None:
        try:
            return family[1](d, n)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # a family text that does not fit the event: say it plainly rather than fail
    return generic_line(d)


def generic_line(d: JsonDict) -> str:
    """An event as its tag and fields, for one that has no text of its own."""
    rest = ", ".join(f"{k}={v}" for k, v in d.items() if k not in ("type", "timeout"))
    return f"{d['type']}: {rest}"


def add_event_texts(texts: Mapping[str, EventText], owner: str) -> None:
    """Add a rule family's event texts (``owner``: its module, named in errors).

    Raises ``SetupError("family_clash")``, adding nothing, when a tag already has another text.
    """
    for tag, fmt in texts.items():
        if tag in _EVENT_TEXT:
            home = "the core texts"
        elif tag in _FAMILY_TEXT and _FAMILY_TEXT[tag][1] is not fmt:
            home = _FAMILY_TEXT[tag][0]
        else:
            continue
        raise SetupError(
            "family_clash",
            f"{owner} gives a text for the event {tag!r}, which already has one ({home}).",
        )
    _FAMILY_TEXT.update({tag: (owner, fmt) for tag, fmt in texts.items()})


def _started(d: JsonDict, n: Names) -> str:
    seats = ", ".join(f"{p['name']} ({p['colour']})" for p in d["players"])
    return f"New {d['ruleset']} game on the {d['board']} board: {seats}."


def _first(d: JsonDict, n: Names) -> str:
    rolls = "; ".join(
        ", ".join(f"{n.players[s]['name']} {f}" for s, f in enumerate(r) if f) for r in d["rolls"]
    )
    how = f" after rolling ({rolls})" if rolls else ""
    return f"{n.seat(d['seat'])} plays first{how}."


def _missions(d: JsonDict, n: Names) -> str:
    own = [(s, m) for s, m in enumerate(d["missions"]) if m is not None]
    if not own:
        return "Secret missions are dealt."
    s, m = own[0]
    return f"Secret missions are dealt; {n.seat(s)}'s is: {n.mission(m)}."


def _dealt(d: JsonDict, n: Names) -> str:
    if all(o < 0 for o in d["owners"]):
        return "Territories will be claimed one at a time."
    counts = ", ".join(
        f"{n.seat(s)} {d['owners'].count(s)}" for s in range(len(n.players)) if s in d["owners"]
    )
    return f"Territories are dealt: {counts}."


def _setup_placed(d: JsonDict, n: Names) -> str:
    count = plural(d["count"], "army", "armies")
    return f"{n.seat(d['seat'])} places {count} on {n.t(d['territory'])}."


def _turn(d: JsonDict, n: Names) -> str:
    bonus = f" + {', '.join(n.group(g) for g in d['groups'])}" if d["groups"] else ""
    return (
        f"Turn {d['turn']} (round {d['round']}): {n.seat(d['seat'])} receives "
        f"{plural(d['income'], 'army', 'armies')} ({d['territories']} territories{bonus})."
    )


def _traded(d: JsonDict, n: Names) -> str:
    bonus = ""
    if d["bonus"]:
        spots = ", ".join(n.t(t) for t in d["bonus"])
        bonus = f", +{d['bonus_each']} on {spots}"
    return f"{n.seat(d['seat'])} trades {n.cards(d['cards'])} for {d['value']} armies{bonus}."


def _ally_placed(d: JsonDict, n: Names) -> str:
    count = plural(d["count"], "ally army", "ally armies")
    return f"{n.seat(d['seat'])} places {count} on {n.t(d['territory'])}."


def _defence(d: JsonDict, n: Names) -> str:
    return (
        f"Attack on {n.t(d['target'])} from {n.t(d['origin'])} with {d['dice']} dice: "
        f"{n.seat(d['seat'])} must choose how many dice defend."
    )


def _battle(d: JsonDict, n: Names) -> str:
    attack, defence = _faces(d, "attack"), _faces(d, "defence")
    sides = (
        (n.army(d["origin"], d["seat"]), d["attacker_losses"]),
        (n.army(d["target"], d["defender"]), d["defender_losses"]),
    )
    losses = [f"{n.does(who, 'loses', 'lose')} {k}" for who, k in sides if k]
    head = f"{n.seat(d['seat'])} attacks {n.t(d['target'])} from {n.t(d['origin'])}: "
    if not d["defence"]:  # an empty territory (a branch cut before its conquest): no fight
        return f"{head}{attack} against no defence dice; nobody loses an army."
    return f"{head}{attack} against {defence}; {' and '.join(losses) or 'nobody loses'}."


def _faces(d: JsonDict, side: str) -> str:
    """Final faces; for dice other than plain d6 also the die and the natural faces thrown."""
    final = "-".join(map(str, d[side]))
    natural = d.get(f"{side}_natural")
    if natural is None:
        return final
    sides = d.get(f"{side}_dice", {}).get("sides", 6)
    thrown = "-".join(map(str, natural))
    return f"d{sides} {thrown}" + ("" if thrown == final else f" → {final}")


def _conquered(d: JsonDict, n: Names) -> str:
    """The army that fought takes the territory: a neutral seat's (classic-2p's ally,
    napoleon-2p's independents) keeps it for itself, so the mover is named as the one whose
    attack it was, never as the new owner (CL-2P-07: no card for it either)."""
    more = f" (up to {d['max']})" if d["max"] > d["min"] else ""
    moving = f"moving in {plural(d['min'], 'army', 'armies')}{more}."
    army = n.army(d["origin"], d["seat"])
    taken = f"{n.t(d['target'])} from {n.seat(d['previous'])}"
    if army != d["seat"]:
        return (
            f"{n.does(army, 'conquers', 'conquer')} {taken} in {n.seat(d['seat'])}'s attack, "
            f"{moving}"
        )
    return f"{n.seat(d['seat'])} conquers {taken}, {moving}"


def _occupied(d: JsonDict, n: Names) -> str:
    if not d["extra"]:
        return f"{n.seat(d['seat'])} moves no more armies into {n.t(d['target'])}."
    return (
        f"{n.seat(d['seat'])} moves {d['extra']} more into {n.t(d['target'])} "
        f"from {n.t(d['origin'])}."
    )


def _eliminated(d: JsonDict, n: Names) -> str:
    cards = n.cards(d["cards"]) if d["cards"] is not None else plural(d["card_count"], "card")
    taken = f", taking {cards}" if d["card_count"] else ""
    return f"{n.does(d['seat'], 'is', 'are')} eliminated by {n.seat(d['by'])}{taken}."


def _fortified(d: JsonDict, n: Names) -> str:
    return (
        f"{n.seat(d['seat'])} moves {plural(d['count'], 'army', 'armies')} from {n.t(d['origin'])} "
        f"to {n.t(d['target'])}."
    )


def _drawn(d: JsonDict, n: Names) -> str:
    return f"{n.seat(d['seat'])} draws {n.card(d['card'])}."


def _won(d: JsonDict, n: Names) -> str:
    if d["reason"] == "mission":
        mission = n.mission(d["mission"]).rstrip(".")  # (Risk 2008's texts end with one)
        return f"{n.seat(d['seat'])} wins by completing the mission: {mission}."
    if d["reason"] == "score":
        return _won_on_score(d, n)
    if d["reason"] == "team":
        return _won_with_team(d, n)
    how = "conquering the world" if d["reason"] == "conquest" else "being the last standing"
    return f"{n.seat(d['seat'])} wins by {how}."


def _won_with_team(d: JsonDict, n: Names) -> str:
    """A side's victory (a Clone Wars faction, CW-41; a Napoléon team, NAP-TEAM-11): the seat
    the event names and every seat of its side, which win together.  The side comes from the
    announcement told before (``faction_won``), else from the players' ``faction`` or
    ``team``; a log told without either says "its team"."""
    seat = d["seat"]
    me = n.players[seat] if 0 <= seat < len(n.players) else {}
    if n.side is not None and seat in n.side[1]:
        faction, seats = n.side
    elif me.get("faction") is not None:
        faction = str(me["faction"])
        seats = [i for i, p in enumerate(n.players) if p.get("faction") == faction]
    elif me.get("team") is not None:
        seats = [i for i, p in enumerate(n.players) if p.get("team") == me["team"]]
        return f"{n.seat(seat)} wins with its team ({', '.join(map(n.seat, seats))})."
    else:
        return f"{n.seat(seat)} wins with its team."
    members = ", ".join(map(n.seat, seats))
    side = f"the {faction.capitalize()} faction ({members})"
    return f"{n.seat(seat)} wins with {side}: a faction victory."


def _won_on_score(d: JsonDict, n: Names) -> str:
    """The winner, the rounds played and every seat's score, highest first (neutral seats
    left out)."""
    scores = d.get("scores") or []
    order = sorted(
        (s for s in range(len(scores)) if s < len(n.players) and not n.players[s]["neutral"]),
        key=lambda s: (s != d["seat"], -scores[s], s),
    )
    table = ", ".join(f"{n.players[s]['name']} {scores[s]}" for s in order)
    after = f" after {plural(d['rounds'], 'round')}" if d.get("rounds") else ""
    return f"{n.seat(d['seat'])} wins on the score{after}" + (f" ({table})." if table else ".")


def _revealed(d: JsonDict, n: Names) -> str:
    """The seeds, but those of a game still in progress that this one branches from
    (``withheld``: shown as None)."""
    seeds, users = d["seeds"], d.get("withheld") or []
    shown = ", ".join("(withheld)" if s is None else str(s) for s in seeds)
    if not users:
        return f"The dice seeds are revealed: {shown}."
    one = len(users) == 1
    return (
        f"The dice seeds are revealed: {shown}. Withheld until {', '.join(users)} "
        f"{'is' if one else 'are'} over: this game branches from "
        f"{'it' if one else 'them'}, which still {'plays' if one else 'play'} with "
        f"{'that seed' if sum(s is None for s in seeds) == 1 else 'those seeds'}."
    )


def _rounds_completed(d: JsonDict, n: Names) -> str:
    return f"The last of {plural(d['rounds'], 'round')} is over: the score decides."


_EVENT_TEXT: dict[str, EventText] = {
    "game_started": _started,
    "dice_scripted": lambda d, n: f"The next {plural(d['count'], 'die face')} are scripted.",
    "first_player": _first,
    "missions_dealt": _missions,
    "territories_dealt": _dealt,
    "deck_formed": lambda d, n: f"The deck of {d['deck_size']} cards is shuffled.",
    "setup_placed": _setup_placed,
    "turn_started": _turn,
    "cards_traded": _traded,
    "placed": _setup_placed,
    "ally_placed": _ally_placed,
    "defence_requested": _defence,
    "battle": _battle,
    "conquered": _conquered,
    "occupied": _occupied,
    "eliminated": _eliminated,
    "fortified": _fortified,
    "deck_reshuffled": lambda d, n: f"The discards are reshuffled: {d['deck_size']} cards.",
    "card_drawn": _drawn,
    "turn_ended": lambda d, n: f"{n.seat(d['seat'])} ends the turn.",
    "position_set": lambda d, n: f"The scenario's position is set; {n.seat(d['first'])} starts.",
    "rounds_completed": _rounds_completed,
    "game_won": _won,
    "branched": lambda d, n: f"This game branches from {d['parent']} after version {d['version']}.",
    "dice_reseeded": lambda d, n: (
        f"The dice take a new secret seed (commitment {d['commitment']})."
    ),
    "seed_revealed": _revealed,
}


# Texts of rule families' events, by tag: (the module that gave it, the text).
_FAMILY_TEXT: dict[str, tuple[str, EventText]] = {}


def owners_before(v: JsonDict, events: Sequence[JsonDict]) -> dict[str, int]:
    """Who held each territory before ``events``, from the view ``v`` just after them (each
    conquest undone): the ``owners`` of a ``Names`` that tells those events."""
    owners = {t: cell["owner"] for t, cell in v["territories"].items() if cell["owner"] >= 0}
    for d in reversed(events):
        if d["type"] == "conquered":
            owners[d["target"]] = d["previous"]
    return owners


# --------------------------------------------------------------------------- board
def status_line(v: JsonDict, n: Names) -> str:
    """Who must do what now (the rule set's text for the phase, ``phase_text``)."""
    if v["winner"] is not None:
        return f"{n.seat(v['winner'])} has won."
    seat = v["to_act"]
    todo = v.get("phase_text") or str(v["phase"])
    if v["phase"] in ("reinforce", "elim_trade") and v["reserve"]:
        todo += f" ({v['reserve']} to place)"
    elif v["phase"] == "ally_place":
        todo += f" ({v['ally_reserve']} to place)"
    elif v["phase"] == "setup":
        todo += f" ({v['setup_left'][seat]} left)"
    elif v["phase"] == "occupy" and v["occupation"]:
        o = v["occupation"]
        todo += f" ({n.t(o['target'])}: {o['min']}-{o['max']})"
    elif v["phase"] == "defend" and v["attack"]:
        a = v["attack"]
        todo += f" ({n.t(a['target'])} attacked from {n.t(a['origin'])} with {a['dice']} dice)"
    return f"{n.seat(seat)} (seat {seat}) to act: {todo}."


def deadline_text(deadline: JsonDict) -> str:
    """A view's turn deadline: its length, and from the service the due time and time left."""
    text = f"Turn deadline {deadline['text']}"
    due = due_text(deadline)
    return f"{text}: due {due}." if due else f"{text} (the service's workers keep the time)."


def due_text(deadline: JsonDict) -> str | None:
    """When the turn in progress is due, and the time left (None: not known here)."""
    from risk_service.deadlines import format_duration  # not at start-up: tests/test_startup.py

    if deadline.get("due") is None:
        return None
    due = deadline["due"].replace("T", " ").replace("Z", " UTC")
    left = deadline["left"]
    when = f"{format_duration(left)} left" if left > 0 else "passed: the computer plays now"
    return f"{due} ({when})"


def deadline_lines(v: JsonDict, n: Names) -> list[str]:
    """`risk show`'s lines on the turn deadline and the last move made on a timeout."""
    lines = [deadline_text(v["deadline"])] if v.get("deadline") else []
    if v.get("timeouts"):
        t = v["timeouts"][-1]
        first, last = t["first"], t["last"]
        span = f"versions {first}-{last}" if last > first else f"version {first}"
        lines.append(f"{n.seat(t['seat'])}'s last timeout: {span} {TIMEOUT_MARK}.")
    return lines


def board_text(game_id: str, v: JsonDict, board: Board, viewer: int | Sequence[int] | None) -> str:
    """The whole board grouped by continent, the players, and the viewer's secrets: those of
    each of its seats (one seat, a player's seats; None: a spectator, who has none)."""
    n = Names(board, v["players"])
    where = f"round {v['round']}, turn {v['turn']}" if v["turn"] else "setup"
    lines = [
        f"Game {game_id} · {v['rules']} · {where} · version {v['version']}",
        status_line(v, n),
        *deadline_lines(v, n),
        "",
        _players_table(v, n),
    ]
    cards = cards_line(v.get("set_values"))
    if cards:
        lines += ["", cards]
    width = max(len(t.name_en) for t in board.territories) + 2
    for g, members in zip(board.groups, board.group_members, strict=True):
        lines += ["", f"{g.name_en} (bonus {g.bonus}){holding_text(v, board, members, n)}"]
        for t in members:
            terr = board.territories[t]
            cell = v["territories"][terr.id]
            owner = n.seat(cell["owner"]) if cell["owner"] >= 0 else "unclaimed"
            lines.append(f"  {terr.name_en:<{width}}{cell['armies']:>4}  {owner}")
    family = family_lines(v, n)
    if family:
        lines += ["", *family]
    for seat in [viewer] if isinstance(viewer, int) else viewer or ():
        lines += ["", *secrets_text(v["players"][seat], n)]
    return "\n".join(lines)


def holding_text(v: JsonDict, board: Board, members: Sequence[int], n: Names) -> str:
    """Who holds a continent's territories: "held by Ann", or each holder's count of the
    total, most first ("Ann 5/9, Bob 3/9"); nothing while none is held."""
    counts: dict[int, int] = {}
    for t in members:
        owner = v["territories"][board.territories[t].id]["owner"]
        if owner >= 0:
            counts[owner] = counts.get(owner, 0) + 1
    if len(counts) == 1 and sum(counts.values()) == len(members):
        return f" · held by {n.seat(next(iter(counts)))}"
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shares = ", ".join(f"{n.seat(s)} {k}/{len(members)}" for s, k in ranked)
    return f" · {shares}" if shares else ""


def cards_line(values: JsonDict | None) -> str:
    """What a set of cards is worth (``risk_core.insight.set_values``): the next set's value
    and the following ones on an escalating track, else each set without jokers and the
    most a set with jokers gives."""
    if not values or not values.get("by_symbols"):
        return ""
    if values["next"] is not None:
        then = values.get("following") or []
        after = f" (then {', '.join(map(str, then))}…)" if then else ""
        return f"Cards: the next set traded is worth {values['next']} armies{after}."
    plain, joker = [], 0
    for kind in values["by_symbols"]:
        symbols = kind["symbols"]
        if "joker" in symbols:
            joker = max(joker, kind["value"])
        elif len(set(symbols)) == 1 and len(symbols) > 1:
            plain.append((kind["value"], f"{len(symbols)} {symbols[0]}"))
        elif len(set(symbols)) == len(symbols) == 3:
            plain.append((kind["value"], "one of each"))
        else:
            plain.append((kind["value"], " + ".join(symbols)))
    jokers = f"; with jokers up to {joker}" if joker else ""
    if len(plain) > MAX_SET_KINDS:  # a table too long to read: its range
        worth = sorted(value for value, _ in plain)
        return f"Cards: a set is worth {worth[0]} to {worth[-1]} armies{jokers}."
    table = ", ".join(f"{value} ({what})" for value, what in sorted(plain))
    return f"Cards: a set is worth {table}{jokers}."


MAX_SET_KINDS = 6  # kinds of set `show` lists one by one


# --------------------------------------------------------------------------- seat notes
SeatNote = Callable[[JsonDict, Names], str | None]

# Rule families' notes on a seat in `risk show`'s players table, by the family's CLI module.
_SEAT_NOTE: dict[str, SeatNote] = {}


def add_seat_note(note: SeatNote, owner: str) -> None:
    """Let the rule sets whose ``cli_module`` is ``owner`` say what a seat is in `risk show`'s
    players table: ``note(player, names)`` (``player``: the seat's entry in the view) stands
    in place of the core's ``neutral``; None keeps the core's word."""
    _SEAT_NOTE[owner] = note


def seat_kind(v: JsonDict, p: JsonDict, n: Names) -> str | None:
    """What the seat ``p`` of the view ``v`` is: its rule family's note, else ``neutral`` for
    a neutral seat, else None."""
    ruleset = registered().get(v.get("rules", ""))
    note = _SEAT_NOTE.get(ruleset.cli_module or "") if ruleset is not None else None
    said = note(p, n) if note is not None else None
    return said if said is not None else "neutral" if p["neutral"] else None


# --------------------------------------------------------------------------- family facts
MissionText = Callable[[Names, str], "str | None"]

# Rule families' own mission texts (missions the board's list does not hold), by CLI module.
_MISSION_TEXT: dict[str, MissionText] = {}


def add_mission_text(text: MissionText, owner: str) -> None:
    """Let a rule family name its own missions wherever the log tells one (a win by mission):
    ``text(names, mission_id)``, None for an id not its own."""
    _MISSION_TEXT[owner] = text


ShowLines = Callable[[JsonDict, Names], list[str]]

# Rule families' own lines in `risk show` (cities, face-up missions...), by CLI module.
_SHOW_LINES: dict[str, ShowLines] = {}


def add_show_lines(lines: ShowLines, owner: str) -> None:
    """Let the rule sets whose ``cli_module`` is ``owner`` add lines to `risk show`, after the
    board: ``lines(view, names)``, from the view only (what the viewer may see)."""
    _SHOW_LINES[owner] = lines


def family_lines(v: JsonDict, n: Names) -> list[str]:
    ruleset = registered().get(v.get("rules", ""))
    lines = _SHOW_LINES.get(ruleset.cli_module or "") if ruleset is not None else None
    return lines(v, n) if lines is not None else []


def name_width(names: Sequence[str]) -> int:
    """The width of a table's column of names: 16, or the longest name and a space."""
    return max(16, *(len(x) + 1 for x in names))


def _players_table(v: JsonDict, n: Names) -> str:
    names = [f"{p['name']} ({p['colour']})" for p in v["players"]]
    w = name_width(names)
    rows = [f"  {'seat':<5}{'player':<{w}}{'territories':>12}{'armies':>8}{'cards':>7}"]
    for p, name in zip(v["players"], names, strict=True):
        status = []
        if p["seat"] == v["winner"]:
            status.append("winner")
        if p["eliminated"]:
            status.append("eliminated")
        kind = seat_kind(v, p, n)
        if kind:
            status.append(kind)
        if p["policy"] == "ask":
            status.append("chooses defence dice")
        rows.append(
            f"  {p['seat']:<5}{name:<{w}}{p['territories']:>12}{p['armies']:>8}{p['cards']:>7}"
            + (f"  {', '.join(status)}" if status else "")
        )
    return "\n".join(rows)


def secrets_text(player: JsonDict, n: Names) -> list[str]:
    """One of the viewer's seats' secrets, headed by the seat's name: its hand, its mission and
    a family's secret missions (napoleon-mission's ``missions``, achieved ones marked)."""
    hand = player.get("hand") or []
    cards = ", ".join(f"[{c['id']}] {n.card(c['id'])}" for c in hand) or "no cards"
    commander = player.get("commander")
    played = f", played by {commander}" if commander else ""
    lines = [
        f"{n.seat(player['seat'])} (seat {player['seat']}{played}):",
        f"  Your hand ({player['name']}): {cards}",
    ]
    lines += sets_text(player, n)
    mission = player.get("mission")
    if mission:
        lines.append(f"  Your mission: {mission['text_en']}")
        reading = mission.get("reading")
        if reading:
            lines.append(f"  In this game: {reading['text_en']}")
    missions = player.get("missions")
    if missions:
        achieved = {m["id"] for m in player.get("achieved") or ()}
        lines.append("  Your missions:")
        # by id too: `risk claim` (napoleon-mission) takes a mission by its id
        lines += [
            f"    - [{m['id']}] {m['text_en']}" + (" (achieved)" if m["id"] in achieved else "")
            for m in missions
        ]
    return lines


def sets_text(player: JsonDict, n: Names) -> list[str]:
    """The sets in a hand (``risk_core.insight.hand_sets``): those it may trade now first,
    each with its cards, worth and the territories a trade adds armies to."""
    sets = player.get("sets") or []
    if not sets:
        return []
    now = [s for s in sets if s["now"]]
    head = "Sets you can trade now" if now else "Sets in your hand (not tradeable at this moment)"
    lines = [f"  {head}:"]
    for s in now or sets:
        cards = ", ".join(f"[{c}] {n.card(c)}" for c in s["cards"])
        bonus = f", extra armies on {', '.join(n.t(t) for t in s['bonus'])}" if s["bonus"] else ""
        lines.append(f"    {cards} → {s['value']} armies{bonus}")
    return lines


def standings_text(v: JsonDict) -> str:
    """Final table of a game: territories, armies, cards and who won or fell."""
    w = name_width([p["name"] for p in v["players"]])
    rows = [f"  {'player':<{w}}{'territories':>12}{'armies':>8}{'cards':>7}"]
    for p in v["players"]:
        flags = {
            "winner": p["seat"] == v["winner"],
            "eliminated": p["eliminated"],
            "neutral": p["neutral"],
        }
        note = ", ".join(word for word, yes in flags.items() if yes)
        row = f"  {p['name']:<{w}}{p['territories']:>12}{p['armies']:>8}{p['cards']:>7}  {note}"
        rows.append(row.rstrip())
    return "\n".join(rows)


# --------------------------------------------------------------------------- catalogues
def players_text(info: JsonDict) -> str:
    counts = info["player_counts"]
    low, high = counts[0], counts[-1]
    if len(counts) == 1:
        return f"{low} players"
    if len(counts) == high - low + 1:
        return f"{low}-{high} players"
    return " or ".join(str(n) for n in counts) + " players"


def rules_text(info: JsonDict) -> str:
    from textwrap import fill  # here: every command imports this module, one needs this

    lines = [
        f"{info['name']}: {info['title']}",
        f"  board {info['board']}, {players_text(info)}",
        "  options (--option key=value):",
    ]
    for key, opt in info["options"].items():
        choices = " | ".join(str(c) for c in opt["choices"])
        if opt.get("minimum") is not None:
            choices = f"{opt['minimum']}..{opt['maximum']}"
        lines.append(
            f"    {key} = {_show(opt['default'])}" + (f"   [{choices}]" if choices else "")
        )
        lines.append(fill(opt["doc"], 92, initial_indent=" " * 8, subsequent_indent=" " * 8))
    lines += ["  phases (what the seat to act does):", *phases_text(info["phases"], 4)]
    return "\n".join(lines)


def phases_text(phases: dict[str, str], indent: int) -> list[str]:
    """One line per phase: its name and what the seat to act does in it."""
    width = max(map(len, phases), default=0) + 2
    return [f"{' ' * indent}{name:<{width}}{text}" for name, text in phases.items()]


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def board_summary(board: Board) -> str:
    lines = [
        f"{board.id} (version {board.version}): {board.name_en} / {board.name_fr}",
        f"  {len(board.territories)} territories, {len(board.groups)} groups, "
        f"{len(board.card_symbols)} cards ({board.jokers} jokers), "
        f"{len(board.missions)} missions",
        f"  {board.content_hash}",
    ]
    for g, members in zip(board.groups, board.group_members, strict=True):
        names = ", ".join(board.name(t) for t in members)
        lines.append(f"  {g.name_en} (bonus {g.bonus}): {names}")
    return "\n".join(lines)
