"""Where the command line reads and moves games: the local store, or the service over Redis.

Both answer in the same per-seat terms (``risk_core.views``): a view of the board as one seat
(or a spectator) sees it, and events redacted for that seat.  A move is built from that view,
so a command never needs more than its seat may know.  The remote backend authenticates with
the seat tokens kept in the local profile (``risk_cli.profile``).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from risk_cli import profile
from risk_cli.common import seat_of
from risk_core import Board, Command, RiskError, RuleError, SeatInfo, apply_in_place, load_board
from risk_core.model import OptionValue
from risk_core.views import view, visible_events
from risk_service import history, ledger
from risk_service.client import RemoteError, ServiceClient, new_request_id
from risk_service.exchange import export_game
from risk_service.history import Lineage
from risk_service.luck import LuckReport
from risk_service.protocol import (
    AdminRequest,
    CommandRequest,
    EventsRequest,
    GamesRequest,
    HistoryRequest,
    HistoryWhat,
    NewGameRequest,
    ViewRequest,
)

if TYPE_CHECKING:
    from risk_cli.common import App

JsonDict = dict[str, Any]
Build = Callable[[JsonDict, Board, int], Command]


@dataclass
class Moved:
    seat: int
    events: list[JsonDict]  # as the seat may see them
    after: JsonDict  # the seat's view after the move


@dataclass
class Created:
    game_id: str
    tokens: dict[str, str]  # seat → token (remote only)
    owner_token: str | None


class Backend(abc.ABC):
    remote: bool

    @abc.abstractmethod
    def new_game(
        self,
        ruleset: str,
        seats: Sequence[str | SeatInfo],
        *,
        seed: int | str | None,
        options: dict[str, OptionValue],
        game_id: str | None,
    ) -> Created: ...

    @abc.abstractmethod
    def games(self) -> list[JsonDict]: ...

    @abc.abstractmethod
    def view(self, game_id: str, seat: str | None, *, at: int | None = None) -> JsonDict:
        """The game as ``seat`` (a number or name; None: a spectator) sees it."""

    @abc.abstractmethod
    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        """The events up to version ``upto`` (None: all), redacted for ``seat`` (None: a
        spectator)."""

    @abc.abstractmethod
    def stats(self, game_id: str, upto: int | None = None) -> LuckReport:
        """The dice luck report of the battles up to version ``upto`` (public)."""

    @abc.abstractmethod
    def lineage(self, game_id: str) -> Lineage:
        """The game's ancestors and branches (public)."""

    @abc.abstractmethod
    def export(self, game_id: str) -> bytes:
        """The whole history as ``risk export`` writes it (remote: finished games only)."""

    @abc.abstractmethod
    def move(self, game_id: str, seat: str | None, build: Build) -> Moved:
        """Build a command from ``seat``'s view (None: the seat that must act) and submit it."""

    def close(self) -> None:
        return None


def _seat_ref(v: JsonDict, ref: str | None) -> int | None:
    return None if ref is None else seat_of([p["name"] for p in v["players"]], ref)


def _mover(v: JsonDict, ref: str | None) -> int:
    seat = _seat_ref(v, ref)
    if seat is None:
        seat = v["to_act"]
    if seat is None:
        raise RuleError("game_over", "The game is over.")
    return int(seat)


class LocalBackend(Backend):
    """The store itself (``GameService``): every seat is visible to whoever runs the command."""

    remote = False

    def __init__(self, app: App) -> None:
        self.app = app

    def new_game(
        self,
        ruleset: str,
        seats: Sequence[str | SeatInfo],
        *,
        seed: int | str | None,
        options: dict[str, OptionValue],
        game_id: str | None,
    ) -> Created:
        gid = self.app.service.new_game(ruleset, seats, seed=seed, options=options, game_id=game_id)
        return Created(gid, {}, None)

    def games(self) -> list[JsonDict]:
        return [msgspec.to_builtins(s) for s in self.app.service.games()]

    def view(self, game_id: str, seat: str | None, *, at: int | None = None) -> JsonDict:
        state = self.app.service.state(game_id, at=at)
        names = [p.name for p in state.players]
        return view(state, None if seat is None else seat_of(names, seat))

    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        events = self.app.service.events(game_id, upto=upto)
        started = events[0]
        names = [p.name for p in getattr(started, "players", ())]
        return visible_events(events, None if seat is None else seat_of(names, seat))

    def stats(self, game_id: str, upto: int | None = None) -> LuckReport:
        return history.luck(self.app.service, game_id, upto)

    def lineage(self, game_id: str) -> Lineage:
        return history.lineage(self.app.service, game_id)

    def export(self, game_id: str) -> bytes:
        return export_game(self.app.service, game_id)

    def move(self, game_id: str, seat: str | None, build: Build) -> Moved:
        service = self.app.service
        state = service.state(game_id)  # a private copy: advanced below with the new events
        who = _mover(view(state, None), seat)
        v = view(state, who)
        command = build(v, load_board(state.board), who)
        events = service.submit(game_id, command, expected_version=state.version)
        after = apply_in_place(state, events)
        return Moved(who, visible_events(events, who), view(after, who))


class RemoteBackend(Backend):
    """The service over Redis (``risk worker``), with the seat tokens of the local profile."""

    remote = True

    def __init__(self, url: str) -> None:
        self.client = ServiceClient(url)
        self.profile = profile.load()

    def close(self) -> None:
        self.client.close()

    def _token(self, game_id: str, seat: int) -> str:
        entry = self.profile.games.get(game_id)
        token = entry.seats.get(str(seat)) if entry else None
        if token is None:
            raise RemoteError(
                "unauthorized",
                f"Your profile ({profile.profile_path()}) holds no token for seat {seat} of "
                f"{game_id}: `risk join {game_id} SEAT TOKEN` adds one.",
            )
        return token

    def owner_token(self, game_id: str) -> str:
        entry = self.profile.games.get(game_id)
        if entry is None or entry.owner is None:
            raise RemoteError("unauthorized", f"Your profile holds no owner token for {game_id}.")
        return entry.owner

    def new_game(
        self,
        ruleset: str,
        seats: Sequence[str | SeatInfo],
        *,
        seed: int | str | None,
        options: dict[str, OptionValue],
        game_id: str | None,
    ) -> Created:
        names = [s.name if isinstance(s, SeatInfo) else s for s in seats]
        ask = [i for i, s in enumerate(seats) if isinstance(s, SeatInfo) and s.policy == "ask"]
        request = NewGameRequest(
            request_id=new_request_id(),
            game_id=game_id or new_request_id()[:8],
            secret=ledger.new_secret(),
            ruleset=ruleset,
            players=names,
            seed=seed,
            options=options,
            ask=ask,
        )
        data = self.client.ok(request).data
        entry = profile.GameEntry(
            players=list(data["players"]), seats=dict(data["tokens"]), owner=data["owner_token"]
        )
        self.profile.games[request.game_id] = entry
        profile.save(self.profile)
        return Created(request.game_id, entry.seats, entry.owner)

    def games(self) -> list[JsonDict]:
        data: list[JsonDict] = self.client.ok(
            GamesRequest(request_id=new_request_id(), game_id="")
        ).data
        return data

    def _seat(self, game_id: str, ref: str | None) -> int | None:
        if ref is None:
            return None
        entry = self.profile.games.get(game_id)
        names = entry.players if entry and entry.players else None
        if names is None:
            names = [p["name"] for p in self.view(game_id, None)["players"]]
        return seat_of(names, ref)

    def view(self, game_id: str, seat: str | None, *, at: int | None = None) -> JsonDict:
        return self.seat_view(game_id, self._seat(game_id, seat), at=at)

    def seat_view(self, game_id: str, seat: int | None, *, at: int | None = None) -> JsonDict:
        token = "" if seat is None else self._token(game_id, seat)
        request = ViewRequest(
            request_id=new_request_id(), game_id=game_id, seat=seat, token=token, at=at
        )
        data: JsonDict = self.client.ok(request).data
        return data

    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        who = self._seat(game_id, seat)
        token = "" if who is None else self._token(game_id, who)
        request = EventsRequest(
            request_id=new_request_id(), game_id=game_id, seat=who, token=token, upto=upto
        )
        return list(self.client.ok(request).events or [])

    def _history(self, game_id: str, what: HistoryWhat, upto: int | None = None) -> Any:
        request = HistoryRequest(request_id=new_request_id(), game_id=game_id, what=what, upto=upto)
        return self.client.ok(request).data

    def stats(self, game_id: str, upto: int | None = None) -> LuckReport:
        return msgspec.convert(self._history(game_id, "stats", upto), LuckReport)

    def lineage(self, game_id: str) -> Lineage:
        return msgspec.convert(self._history(game_id, "lineage"), Lineage)

    def export(self, game_id: str) -> bytes:
        data: str = self._history(game_id, "export")
        return data.encode()

    def move(self, game_id: str, seat: str | None, build: Build) -> Moved:
        who = self._seat(game_id, seat)
        if who is None:
            who = _mover(self.seat_view(game_id, None), None)
        v = self.seat_view(game_id, who)
        command = build(v, load_board(v["board"]), who)
        token = self._token(game_id, who)
        reply = self.client.ok(
            CommandRequest(
                request_id=new_request_id(),
                game_id=game_id,
                seat=who,
                token=token,
                command=command,
            )
        )
        return Moved(who, list(reply.events or []), self.seat_view(game_id, who))

    def admin(self, request: AdminRequest) -> JsonDict:
        reply = self.client.ok(request)
        return {"game_id": reply.game_id, "version": reply.version, **(reply.data or {})}


def check_remote(backend: Backend, what: str) -> RemoteBackend:
    if not isinstance(backend, RemoteBackend):
        raise RiskError("remote_only", f"{what} needs the service: give --redis URL.")
    return backend
