"""What the web page of one game receives, as one viewer may see it.

A ``Follower`` reads a game through the command line's backend and keeps, for every version:

* the event, redacted for the viewer (``Backend.events``) and told as a log line
  (``risk_cli.render.event_line``), with its dice and the territories it names;
* the position after it, sent as a *frame*: only what changed since the version before (each
  territory's owner and armies, the turn, the phase, each seat's counts and, for a viewer with
  seats, that viewer's own secrets: hands, missions and what the rule family shows that seat
  only, such as napoleon-advanced's missions).  The page rebuilds any version from these, so
  its slider never waits for the server.

A viewer's secrets are what its view shows of each seat and the spectator's view of the same
version does not (``secrets_of``): the family hooks hide a secret by leaving it out (ENG-07,
``risk_core.views``), so every family's secrets are found without naming them here.

On the local store the positions are computed by applying the events one by one to a state
(fast: a 10,000-event game in well under a second); the viewer's secrets come from
``risk_core.views.view`` whenever what they are made of changed, so they are exactly what
``risk show --as`` shows.  On the service, where only views are answered, each version's view
is asked for (and the spectator's, when the viewer's view of the seats changed).  Either way
nothing else of the state leaves this module: owners, armies, counts, turn and phase are
public, and the secrets are the viewer's own.

``poll`` reads what was played since, so a live game is followed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
import msgspec

from risk_cli import mapview, render
from risk_cli.backend import Backend, LocalBackend
from risk_cli.common import named_seats, seats_named
from risk_core import GameState, apply_in_place, load_board, replay, to_act
from risk_core.engine import ruleset_of
from risk_core.turns import aligned_version, moves_upto
from risk_core.views import eyes, players_view, union, view
from risk_service import GameService

JsonDict = dict[str, Any]
# The fields of an event the page uses besides its line: where it happened and the dice.
EVENT_FIELDS = ("type", "seat", "origin", "target", "territory", "attack", "defence")
# What a view says of a seat that is advice, not a secret: the sets in a shown hand and
# whether each may be traded at this moment (it changes with the phase; the page shows none).
ADVICE = frozenset({"sets"})
# A seat's public counts: they change at nearly every version and are never a secret.
COUNTS = frozenset({"territories", "armies", "cards"})


# --------------------------------------------------------------------------- positions
def position_of_state(state: GameState, ids: Sequence[str]) -> JsonDict:
    """The public position of ``state`` (owners, armies, status, each seat's counts)."""
    occupants = ruleset_of(state).occupants
    seats = range(len(state.players))
    armies = [0 for _ in seats]
    for t in range(len(ids)):
        for seat, n in occupants(state, t).items():
            if 0 <= seat < len(armies):
                armies[seat] += n
    return {
        "t": [[state.owner[t], state.armies[t]] for t in range(len(ids))],
        "s": [state.turn, state.round, state.phase, to_act(state), state.winner],
        "p": [
            [state.owner.count(i), armies[i], len(p.hand), p.eliminated]
            for i, p in zip(seats, state.players, strict=True)
        ],
    }


def position_of_view(v: JsonDict, ids: Sequence[str]) -> JsonDict:
    """The same public position read from a view (the service's answer)."""
    return {
        "t": [[v["territories"][t]["owner"], v["territories"][t]["armies"]] for t in ids],
        "s": [v["turn"], v["round"], v["phase"], v["to_act"], v["winner"]],
        "p": [[p["territories"], p["armies"], p["cards"], p["eliminated"]] for p in v["players"]],
    }


def secrets_of(mine: list[JsonDict], public: list[JsonDict]) -> JsonDict:
    """What a viewer's view shows of each seat (its ``players``, ``mine``) that the spectator's
    view of the same version (``public``) does not, by seat: hands, missions and a family's
    own secrets (ENG-07)."""
    out: JsonDict = {}
    for p, q in zip(mine, public, strict=True):
        own = {k: x for k, x in p.items() if k not in ADVICE and q.get(k) != x}
        if own:
            out[str(p["seat"])] = own
    return out


def seats_seen(v: JsonDict) -> list[JsonDict]:
    """A view's seats without their counts and advice: the secrets in it change with these."""
    return [{k: x for k, x in p.items() if k not in COUNTS | ADVICE} for p in v["players"]]


def delta(before: JsonDict | None, now: JsonDict) -> JsonDict:
    """A frame: what of ``now`` differs from ``before`` (everything for the first)."""
    if before is None:
        return {
            "t": {str(i): x for i, x in enumerate(now["t"])},
            **{k: now[k] for k in now if k != "t"},
        }
    out: JsonDict = {}
    changed = {
        str(i): x for i, (x, y) in enumerate(zip(now["t"], before["t"], strict=True)) if x != y
    }
    if changed:
        out["t"] = changed
    for key in ("s", "p", "h"):
        if key in now and now[key] != before.get(key):
            out[key] = now[key]
    return out


# --------------------------------------------------------------------------- the follower
class Follower:
    """One game as one viewer sees it, brought up to date by ``poll``."""

    def __init__(self, backend: Backend, game_id: str, as_seat: str | None) -> None:
        self.backend = backend
        self.game_id = game_id
        self.as_seat = as_seat
        first = backend.view(game_id, as_seat, at=1)  # checks the game and the seat
        self.board = load_board(first["board"])
        self.ids = [t.id for t in self.board.territories]
        self.players = first["players"]
        self.rules = first["rules"]
        self.phases: dict[str, str] = {}
        self.names = render.Names(self.board, self.players)
        self.events: list[JsonDict] = []
        self.frames: list[JsonDict] = []
        self.over = False
        self._last: JsonDict | None = None  # the position of the last frame
        self._state: GameState | None = None  # local store: the state after the last frame
        self._seats: list[int] | None = None
        self._secrets_key: Any = None  # what the secrets were last read from
        self._secrets_now: JsonDict = {}
        self._luck_at = -1
        self._luck_report: JsonDict = {}
        self.poll()

    @property
    def version(self) -> int:
        return len(self.frames)

    # ----------------------------------------------------------------- reading
    def poll(self) -> bool:
        """Read what was played since the last poll; True if anything was."""
        latest = self.backend.view(self.game_id, self.as_seat)
        self.phases.setdefault(latest["phase"], latest.get("phase_text") or latest["phase"])
        if latest["version"] <= self.version:
            return False
        new = self.backend.events(self.game_id, self.as_seat, upto=latest["version"])
        for d in new[self.version :]:
            self.events.append(self._entry(d))
        if isinstance(self.backend, LocalBackend):
            self._local_frames(self.backend.app.service, latest["version"])
        else:
            self._remote_frames(latest["version"])
        self.over = latest["winner"] is not None or latest["phase"] == "over"
        return True

    def _entry(self, d: JsonDict) -> JsonDict:
        line = click.unstyle(render.event_line(d, self.names))
        out: JsonDict = {"line": line}
        out.update({k: d[k] for k in EVENT_FIELDS if k in d})
        return out

    def _add(self, position: JsonDict) -> None:
        self.frames.append(delta(self._last, position))
        self._last = position
        phase = position["s"][2]
        if phase not in self.phases:
            self.phases[phase] = ruleset_of_phase(self.rules, phase)

    def _local_frames(self, service: GameService, upto: int) -> None:
        raw = service.events(self.game_id, upto=upto)
        for ev in raw[self.version :]:
            if self._state is None:
                self._state = replay([ev])
                if self.as_seat is not None:
                    self._seats = seats_named(named_seats(self._state), self.as_seat)
            else:
                self._state = apply_in_place(self._state, [ev])
            position = position_of_state(self._state, self.ids)
            if self._seats is not None:
                position["h"] = self._secrets(self._state)
            self._add(position)

    def _secrets(self, state: GameState) -> JsonDict:
        """The viewer's secrets, read through ``view`` when what they are made of has changed,
        else as before: a hand, a mission, an elimination (a mission's reading names who was
        destroyed, and by whom) or what the family's hooks show the viewer of each seat."""
        rs = ruleset_of(state)
        seen = eyes(self._seats)
        key = (
            [(tuple(p.hand), p.mission, p.eliminated, p.eliminated_by) for p in state.players],
            [union(rs.seat_view(state, i, s) for s in seen) for i in range(len(state.players))],
        )
        if key != self._secrets_key:
            self._secrets_key = key
            mine = view(state, self._seats)["players"]  # a mission's reading included
            self._secrets_now = secrets_of(mine, players_view(state, None))
        return self._secrets_now

    def _remote_frames(self, upto: int) -> None:
        for version in range(self.version + 1, upto + 1):
            v = self.backend.view(self.game_id, self.as_seat, at=version)
            position = position_of_view(v, self.ids)
            if self.as_seat is not None:
                position["h"] = self._remote_secrets(v, version)
            self._add(position)

    def _remote_secrets(self, v: JsonDict, version: int) -> JsonDict:
        """The viewer's secrets in its view ``v``; the spectator's view of the version is asked
        for only when the viewer's view of the seats has changed (else they are as before)."""
        key = seats_seen(v)
        if key != self._secrets_key:
            self._secrets_key = key
            public = self.backend.view(self.game_id, None, at=version)
            self._secrets_now = secrets_of(v["players"], public["players"])
        return self._secrets_now

    # ----------------------------------------------------------------- what is sent
    def meta(self) -> JsonDict:
        """What the page needs besides the versions: players, territories, texts, the map."""
        fills = mapview.colours(self.players)
        players = [
            {
                "seat": p["seat"],
                "name": p["name"],
                "fill": fill,
                "neutral": p.get("neutral", False),
                **({"commander": p["commander"]} if "commander" in p else {}),
            }
            for p, fill in zip(self.players, fills, strict=True)
        ]
        first = self.backend.view(self.game_id, None, at=1)
        # `risk map`'s drawing, without its footer: the page shows those facts as text.
        bottom = mapview.MAP_H + 2 * mapview.MARGIN
        shapes = [
            s
            for s in mapview.scene(self.game_id, first, self.board, None)
            if not (isinstance(s, mapview.Label) and s.at[1] > bottom)
            and not (isinstance(s, mapview.Disc) and s.centre[1] > bottom)
        ]
        return {
            "game_id": self.game_id,
            "rules": self.rules,
            "board": self.board.id,
            "viewer": self.as_seat,
            "territories": self.ids,
            "names": {t.id: t.name_en for t in self.board.territories},
            "players": players,
            "nobody": mapview.NOBODY,
            "dark": sorted(mapview.DARK),
            "highlight": mapview.HIGHLIGHT,
            "map_width": mapview.MAP_W,  # the diagram's: an edge longer than half crosses a side
            "map_height": mapview.MAP_H + 2 * mapview.MARGIN,
            "svg": mapview.svg(shapes),
        }

    def since(self, version: int) -> JsonDict:
        """The events and frames after ``version``, and what is recomputed as a whole."""
        return {
            "version": self.version,
            "from": version,
            "over": self.over,
            "phases": self.phases,
            "events": self.events[version:],
            "frames": self.frames[version:],
            "luck": self._luck(),
            "lineage": msgspec.to_builtins(self.backend.lineage(self.game_id)),
        }

    def _luck(self) -> JsonDict:
        """The luck report, computed again only when the game has moved on."""
        if self._luck_at != self.version:
            self._luck_report = msgspec.to_builtins(self.backend.stats(self.game_id))
            self._luck_at = self.version
        return self._luck_report

    def compare(self, at: int, other: Follower) -> JsonDict:
        """`risk diff` of this game at version ``at`` and ``other`` at the same point of play
        (``lined_up``: as `risk diff --at` lines them up), both as this viewer sees them."""
        from risk_service.history import diff_views

        other.poll()  # a branch may be played while the page is open
        at = max(1, min(at, self.version))
        other_at = lined_up(self.types(), at, other.types())
        va = self.backend.view(self.game_id, self.as_seat, at=at)
        vb = other.backend.view(other.game_id, self.as_seat, at=other_at)
        found: JsonDict = msgspec.to_builtins(diff_views(self.game_id, va, other.game_id, vb))
        return found

    def types(self) -> list[str]:
        """Each event's type, in order (a branch's own records among them)."""
        return [e["type"] for e in self.events]

    def bundle(self) -> JsonDict:
        """Everything, from the first version."""
        return {"meta": self.meta(), **self.since(0)}


def lined_up(types_a: Sequence[str], at: int, types_b: Sequence[str]) -> int:
    """Game B's version at the same point of play as game A's version ``at``: after as many
    moves of the game, the branches' own records (``branched`` and its dice) left out
    (``risk_core.turns.line_up``, as `risk diff --at`); B's last version if it has not played
    that far."""
    moves = moves_upto(types_a, at)
    if moves_upto(types_b, len(types_b)) < moves:
        return len(types_b)
    return aligned_version(types_b, moves)


def ruleset_of_phase(rules: str, phase: str) -> str:
    """The rule set's words for a phase (its ``phases`` table), else the phase's name."""
    from risk_core.errors import RiskError
    from risk_core.rulesets import get

    try:
        return get(rules).phases.get(phase, phase)
    except RiskError:  # a rule set unknown here: its phase names stay as they are
        return phase
