"""Where the command line reads and moves games: the local store, or the service over Redis.

Both answer in the same terms (``risk_core.views``): a view of the board as one seat, a
player's seats (``--as`` a player commanding several) or a spectator sees it, and events
redacted for them.  A move acts for one seat and is built from that seat's view, so a command
never needs more than its seat may know.  The remote backend signs its requests with the seat
keys kept in the local profile (``risk_cli.profile``, ``risk_service.signing``): one per seat,
so a player commanding several seats needs each of their keys to see them all, and the acting
seat's to move.
"""

from __future__ import annotations

import abc
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

import risk_core
from risk_cli.common import Named, acting_seat, named_in_view, named_seats, seats_named
from risk_core import Board, Command, RiskError, RuleError, SeatInfo, apply_in_place, load_board
from risk_core.model import OptionValue
from risk_core.names import whole_number
from risk_core.views import view, visible_events

# The service's client (redis), its requests, the signing keys (cryptography), the profile, the
# history and the export are imported where they are used: showing or moving a game on the
# local store needs none of them, and showing the latest view of a SQLite store needs neither
# the store nor the deadlines' ledger (tests/test_startup.py).
if TYPE_CHECKING:
    from risk_cli.common import App
    from risk_service.history import Lineage
    from risk_service.luck import LuckReport
    from risk_service.protocol import AdminRequest, EventsRequest, HistoryWhat, Look, ViewRequest
    from risk_service.signing import Invitation, SessionKey, SigningKey

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
    invitations: dict[str, str]  # seat → invitation (remote only)
    owner: str | None  # the owner's private key (remote only)


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
        """The game as ``seat`` (a seat number or name, or a player's name: all its seats;
        None: a spectator) sees it."""

    @abc.abstractmethod
    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        """The events up to version ``upto`` (None: all), redacted for ``seat`` (as in
        ``view``; None: a spectator)."""

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
        """Build a command from ``seat``'s view (None: the seat that must act; a player: the
        one of its seats that must act) and submit it."""

    def close(self) -> None:
        return None


def _mover(v: JsonDict, ref: str | None) -> int:
    """The seat a move acts for, from a view ``v``: ``ref``'s seat (a player's: the one that
    must act), or without ``ref`` the seat that must act."""
    if ref is not None:
        named = named_in_view(v["players"])
        return acting_seat(named, seats_named(named, ref), v["to_act"])
    if v["to_act"] is None:
        raise RuleError("game_over", "The game is over.")
    return int(v["to_act"])


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
        if self.app.missing_store() is not None:
            return []  # a store not started yet holds no game (and listing starts none)
        return [msgspec.to_builtins(s) for s in self.app.service.games()]

    def view(self, game_id: str, seat: str | None, *, at: int | None = None) -> JsonDict:
        if at is None:
            fast = self._file_view(game_id, seat)
            if fast is not None:
                return fast
        from risk_service import deadlines

        state = self.app.service.state(game_id, at=at)
        v = view(state, None if seat is None else seats_named(named_seats(state), seat))
        return deadlines.stored_view(self.app.service, game_id, v, at is None)

    def _file_view(self, game_id: str, seat: str | None) -> JsonDict | None:
        """The latest view read straight from a SQLite file (``risk_service.read_sqlite``),
        without opening the service; None when the store is not such a file or the read is
        anything but plain (the service then answers, errors included)."""
        from risk_service import read_sqlite

        store = self.app.store if self.app.store is not None else os.environ.get("RISK_STORE")
        path = read_sqlite.sqlite_path(store)
        state = None if path is None else read_sqlite.latest_state(path, game_id)
        if path is None or state is None:
            return None
        v = view(state, None if seat is None else seats_named(named_seats(state), seat))
        return read_sqlite.stored_view(path, game_id, v)

    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        from risk_service import deadlines, seed_secrecy

        events = self.app.service.events(game_id, upto=upto)
        started = events[0]
        named = named_in_view(msgspec.to_builtins(getattr(started, "players", ())))
        shown = visible_events(events, None if seat is None else seats_named(named, seat))
        seed_secrecy.withhold(self.app.service, game_id, shown)
        deadlines.mark_stored_events(self.app.service, game_id, shown)  # moves on a timeout
        return shown

    def stats(self, game_id: str, upto: int | None = None) -> LuckReport:
        from risk_service import history

        return history.luck(self.app.service, game_id, upto)

    def lineage(self, game_id: str) -> Lineage:
        from risk_service import history

        return history.lineage(self.app.service, game_id)

    def export(self, game_id: str) -> bytes:
        from risk_service.exchange import export_game

        return export_game(self.app.service, game_id)

    def move(self, game_id: str, seat: str | None, build: Build) -> Moved:
        from risk_service.seed_secrecy import withhold

        service = self.app.service
        state = service.state(game_id)  # a private copy: advanced below with the new events
        who = _mover(view(state, None), seat)
        v = view(state, who)
        command = build(v, load_board(state.board), who)
        try:
            events = service.submit(game_id, command, expected_version=state.version)
        except RuleError:
            from risk_service import history

            history.check_game_playable(state, game_id)  # refused for the position itself
            raise
        after = apply_in_place(state, events)
        return Moved(who, withhold(service, game_id, visible_events(events, who)), view(after, who))


class RemoteBackend(Backend):
    """The service over Redis (``risk worker``), with the seat tokens of the local profile."""

    remote = True

    def __init__(self, url: str) -> None:
        from risk_cli import profile
        from risk_service.client import ServiceClient

        self.client = ServiceClient(url)
        self.profile = profile.load()

    def close(self) -> None:
        self.client.close()

    def _key(self, game_id: str, seat: int) -> SigningKey | SessionKey:
        from risk_cli import profile
        from risk_service.client import RemoteError
        from risk_service.signing import SigningKey

        entry = self.profile.games.get(game_id)
        key = entry.seats.get(str(seat)) if entry else None
        if key is None:
            if self._neutral(game_id, seat):
                raise RemoteError(
                    "unauthorized",
                    f"Seat {seat} of {game_id} is a neutral army: no player holds its key, and "
                    "what it may show is in everyone's view (leave out --as).",
                )
            raise RemoteError(
                "unauthorized",
                f"Your profile ({profile.profile_path()}) holds no key for seat {seat} of "
                f"{game_id}: `risk join INVITATION` with the invitation its owner gave you.",
            )
        return self.client.seat_key(SigningKey.from_text(key), game_id, seat)  # a session

    def _neutral(self, game_id: str, seat: int) -> bool:
        """Whether ``seat`` is a neutral army (no invitation exists for it), from the public
        view; False when that cannot be read (the refusal then says to join)."""
        try:
            players = self.seat_view(game_id, None)["players"]
        except RiskError:
            return False
        return 0 <= seat < len(players) and bool(players[seat].get("neutral"))

    def owner_key(self, game_id: str) -> SigningKey:
        from risk_service.client import RemoteError
        from risk_service.signing import SigningKey

        entry = self.profile.games.get(game_id)
        if entry is None or entry.owner is None:
            raise RemoteError("unauthorized", f"Your profile holds no owner key for {game_id}.")
        return SigningKey.from_text(entry.owner)

    def new_game(
        self,
        ruleset: str,
        seats: Sequence[str | SeatInfo],
        *,
        seed: int | str | None,
        options: dict[str, OptionValue],
        game_id: str | None,
    ) -> Created:
        from risk_cli import profile
        from risk_service.client import RemoteError, new_request_id
        from risk_service.protocol import NewGameRequest
        from risk_service.signing import Invitation, SigningKey

        names = [s.name if isinstance(s, SeatInfo) else s for s in seats]
        ask = [i for i, s in enumerate(seats) if isinstance(s, SeatInfo) and s.policy == "ask"]
        commanders = {
            i: s.commander
            for i, s in enumerate(seats)
            if isinstance(s, SeatInfo) and s.commander is not msgspec.UNSET
        }
        gid = game_id or new_request_id()[:8]
        owner = SigningKey.generate()  # made here: the service learns its public half only
        # One invitation per seat the rule set makes of the players (a Clone Wars player of a
        # two-player game commands two armies: two seats), as the service will make them.
        opening = risk_core.replay(risk_core.start(ruleset, list(seats), seed=0, options=options))
        invitations = {i: Invitation.new(gid, i) for i in range(len(opening.players))}
        request = NewGameRequest(
            request_id=new_request_id(),
            game_id=gid,
            owner_key=owner.public,
            invitations={i: inv.public for i, inv in invitations.items()},
            ruleset=ruleset,
            players=names,
            seed=seed,
            options=options,
            ask=ask,
            commanders=commanders or msgspec.UNSET,
        )
        # The keys are kept before the request is sent: a game created but its answer unheard
        # (a timeout) is not lost to its owner.
        previous = self.profile.games.get(gid)
        if previous is not None and previous.holds_keys():
            # Never replaced: they may be another service's game of this id (or this one's,
            # its creation unanswered). One here is said as the service would say it.
            try:
                self.seat_view(gid, None)
            except RiskError as e:
                if e.code != "unknown_game":
                    raise
                raise _profile_clash(gid, "creating") from None
            raise RemoteError("game_exists", f"There is already a game '{gid}'.")
        entry = profile.GameEntry(
            players=names,
            owner=owner.text,
            invites={str(i): inv.text for i, inv in invitations.items()},
        )
        self.profile.games[gid] = entry
        profile.save(self.profile)
        try:
            data = self.client.ok(owner.sign(request)).data
        except RiskError as e:
            if e.code != "timeout":  # refused: nothing was created
                if previous is None:
                    del self.profile.games[gid]
                else:
                    self.profile.games[gid] = previous
                profile.save(self.profile)
            raise
        entry.invites = {str(i): entry.invites[str(i)] for i in data["invited"]}  # no neutral
        entry.players = list(data["players"])
        entry.commitment = self._commitment(gid, quiet=True)
        profile.save(self.profile)
        return Created(request.game_id, dict(entry.invites), entry.owner)

    def _commitment(self, game_id: str, *, quiet: bool = False) -> str:
        """``game_id``'s public commitment on this service (its opening's), which no game of
        the same id on another service shares; ``quiet``: "" when it cannot be read now."""
        try:
            events = self.events(game_id, None, upto=1)
        except RiskError:
            if quiet:
                return ""
            raise
        return str(events[0].get("commitment") or "") if events else ""

    def join(self, invitation: Invitation) -> JsonDict:
        """Claim the invitation's seat with a key pair made here; the key is kept in the
        profile (before the claim is sent: a claim answered but unheard is not lost)."""
        from risk_cli import profile
        from risk_service.client import new_request_id
        from risk_service.protocol import ClaimRequest
        from risk_service.signing import SigningKey

        key = SigningKey.generate()
        gid, seat = invitation.game_id, invitation.seat
        known = self.profile.games.get(gid)
        # The profile keeps one entry per game id: a game of another service under the same
        # id would take the keys of the one held (a seat, the owner's key).
        if (
            known is not None
            and known.holds_keys()
            and known.commitment
            and known.commitment != self._commitment(gid)
        ):
            raise _profile_clash(gid, "joining")
        entry = self.profile.games.setdefault(gid, profile.GameEntry())
        previous = entry.seats.get(str(seat))
        entry.seats[str(seat)] = key.text
        profile.save(self.profile)
        claim = ClaimRequest(request_id=new_request_id(), game_id=gid, seat=seat, key=key.public)
        try:
            data: JsonDict = self.client.ok(invitation.key.sign(claim)).data
        except RiskError as e:
            if e.code == "timeout":  # perhaps claimed later: the key it would claim with stays
                raise
            if previous is None:
                del entry.seats[str(seat)]
                if entry == profile.GameEntry():  # nothing else of this game: no stub left
                    del self.profile.games[gid]
            else:
                entry.seats[str(seat)] = previous
            profile.save(self.profile)
            raise
        if not entry.players:
            entry.players = [p["name"] for p in self.seat_view(gid, None)["players"]]
        if not entry.commitment and (known is None or not known.holds_keys()):
            entry.commitment = self._commitment(gid, quiet=True)  # a new entry: this game's
        entry.invites.pop(str(seat), None)  # spent
        profile.save(self.profile)
        return data

    def games(self) -> list[JsonDict]:
        from risk_service.client import new_request_id
        from risk_service.protocol import GamesRequest

        data: list[JsonDict] = self.client.ok(
            GamesRequest(request_id=new_request_id(), game_id="")
        ).data
        return data

    def _numbered(self, game_id: str, ref: str | None) -> int | None:
        """The seat ``ref`` names when it is a seat number the profile knows (no request)."""
        entry = self.profile.games.get(game_id)
        if ref is None or whole_number(ref) is None or entry is None or not entry.players:
            return None
        return seats_named([(n, n) for n in entry.players], ref)[0]

    def _seats(self, game_id: str, ref: str | None) -> list[int] | None:
        """The seats ``ref`` stands for (a player: all its seats; None: a spectator)."""
        if ref is None:
            return None
        seat = self._numbered(game_id, ref)
        if seat is not None:
            return [seat]
        # The commanders are in the public view only (the profile keeps seat names).
        return seats_named(self._named(game_id), ref)

    def _named(self, game_id: str) -> list[Named]:
        return named_in_view(self.seat_view(game_id, None)["players"])

    def _seat(self, game_id: str, ref: str | None) -> int | None:
        """The one seat ``ref`` names (`risk wait`, `risk admin`): a player commanding several
        seats is refused (``ambiguous_seat``), since these act on one seat."""
        seats = self._seats(game_id, ref)
        if seats is not None and len(seats) > 1:
            raise RiskError(
                "ambiguous_seat",
                f"{ref!r} commands seats {', '.join(map(str, seats))}: name one of them.",
            )
        return None if seats is None else seats[0]

    def view(self, game_id: str, seat: str | None, *, at: int | None = None) -> JsonDict:
        return self.seat_view(game_id, self._seats(game_id, seat), at=at)

    def _read(self, request: ViewRequest | EventsRequest, seats: int | Sequence[int] | None) -> Any:
        """The reply to a read as ``seats`` (None: a spectator, unsigned), signed with each
        seat's key: the first signs ``sig``, the others their entry of ``also``."""
        if seats is None:
            return self.client.ok(request)
        first, *more = [seats] if isinstance(seats, int) else seats
        keys = [self._key(request.game_id, s) for s in [first, *more]]
        request = msgspec.structs.replace(
            request, seat=first, also=dict.fromkeys(more, "") if more else msgspec.UNSET
        )

        def sign(r: Any) -> Any:  # a Request
            r = keys[0].sign(r)  # stamped: every signature below covers the same time
            if more:
                also = {s: k.signature(r) for s, k in zip(more, keys[1:], strict=True)}
                r = keys[0].sign(msgspec.structs.replace(r, also=also), stamp=False)
            return r

        return self.client.ok(sign(request), resign=sign)

    def seat_view(
        self, game_id: str, seat: int | Sequence[int] | None, *, at: int | None = None
    ) -> JsonDict:
        """The game as ``seat`` (one seat, a player's seats, None: a spectator) sees it."""
        from risk_service.client import new_request_id
        from risk_service.protocol import ViewRequest

        request = ViewRequest(request_id=new_request_id(), game_id=game_id, at=at)
        data: JsonDict = self._read(request, seat).data
        return data

    def moves_view(self, game_id: str, seat: str | None) -> tuple[int | None, JsonDict]:
        """The seat asked for (None: the seat that must act; none when the game is over) and
        its view with its legal moves when it must act (``moves``: None otherwise), signed with
        its key of this profile."""
        from risk_service.client import new_request_id
        from risk_service.protocol import ViewRequest

        seats = self._seats(game_id, seat)
        if seats is None:
            public = self.seat_view(game_id, None)
            if public["to_act"] is None:  # over: nobody moves
                return None, {**public, "moves": None}
            seats = [public["to_act"]]
        request = ViewRequest(request_id=new_request_id(), game_id=game_id, moves=True)
        data: JsonDict = self._read(request, seats).data
        acting = data["to_act"]
        return (acting if acting in seats else seats[0]), data

    def look(self, game_id: str, seat: str | None, look: Look) -> JsonDict:
        """The service's ``look`` at the game (``risk_core.looks``), asked as ``seat`` (a dry
        run: by default the seat of this profile that must act) or as a spectator."""
        from risk_service.client import new_request_id
        from risk_service.protocol import ViewRequest

        seats = self._seats(game_id, seat)
        if seats is None and look.kind == "dry_run":
            public = self.seat_view(game_id, None)
            if public["to_act"] is None:
                raise RuleError("game_over", "The game is over.")
            seats = [public["to_act"]]
        request = ViewRequest(request_id=new_request_id(), game_id=game_id, look=look)
        found: JsonDict = self._read(request, seats).data["look"]
        return found

    def events(self, game_id: str, seat: str | None, *, upto: int | None = None) -> list[JsonDict]:
        from risk_service.client import new_request_id
        from risk_service.protocol import EventsRequest

        request = EventsRequest(request_id=new_request_id(), game_id=game_id, upto=upto)
        return list(self._read(request, self._seats(game_id, seat)).events or [])

    def _history(self, game_id: str, what: HistoryWhat, upto: int | None = None) -> Any:
        from risk_service.client import new_request_id
        from risk_service.protocol import HistoryRequest

        request = HistoryRequest(request_id=new_request_id(), game_id=game_id, what=what, upto=upto)
        return self.client.ok(request).data

    def stats(self, game_id: str, upto: int | None = None) -> LuckReport:
        from risk_service.luck import LuckReport

        return msgspec.convert(self._history(game_id, "stats", upto), LuckReport)

    def lineage(self, game_id: str) -> Lineage:
        from risk_service.history import Lineage

        return msgspec.convert(self._history(game_id, "lineage"), Lineage)

    def export(self, game_id: str) -> bytes:
        data: str = self._history(game_id, "export")
        return data.encode()

    def move(self, game_id: str, seat: str | None, build: Build) -> Moved:
        from risk_service.client import new_request_id
        from risk_service.protocol import CommandRequest

        who = self._numbered(game_id, seat)
        if who is None:
            who = _mover(self.seat_view(game_id, None), seat)
        v = self.seat_view(game_id, who)
        command = build(v, load_board(v["board"]), who)
        key = self._key(game_id, who)
        reply = self.client.ok(
            key.sign(
                CommandRequest(
                    request_id=new_request_id(), game_id=game_id, seat=who, command=command
                )
            )
        )
        return Moved(who, list(reply.events or []), self.seat_view(game_id, who))

    def admin(self, request: AdminRequest) -> JsonDict:
        """An owner's action, signed here with the owner's key of the profile."""
        gid = request.game_id
        reply = self.client.ok(self.client.seat_key(self.owner_key(gid), gid, -1).sign(request))
        return {"game_id": reply.game_id, "version": reply.version, **(reply.data or {})}


def _profile_clash(game_id: str, doing: str) -> RiskError:
    from risk_cli import profile

    return RiskError(
        "profile_clash",
        f"Your profile ({profile.profile_path()}) holds keys of another game named "
        f"{game_id!r} (of another service, or an earlier game of that id): {doing} this one "
        "would lose them. Play this one from a profile of its own (XDG_CONFIG_HOME set to "
        "another folder)"
        + (
            ", or give it another --id."
            if doing == "creating"
            else ", or ask its owner to create it under another id."
        ),
    )


def check_remote(backend: Backend, what: str) -> RemoteBackend:
    if not isinstance(backend, RemoteBackend):
        raise RiskError("remote_only", f"{what} needs the service: give --redis URL.")
    return backend
