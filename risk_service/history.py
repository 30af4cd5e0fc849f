"""Time travel over stored games: any version's state, branches, lineage and differences.

A **branch** is a new game whose history is the first *N* events of its parent, copied with
their commands (so it can be audited like any game), then a ``branched`` record: the event
``Branched(parent, N)``, followed by the branch's choice of future dice:

* ``same`` — nothing more: the parent's seed stream goes on from where it was at *N*, so the
  parent's later commands, submitted to the branch, give the parent's later events;
* ``reseed`` — ``DiceReseeded(seed, commitment)``: a new secret seed (64 random bits unless one
  is given), its commitment published at once, bound to the branch point (``reseed_commitment``)
  so that it stays verifiable when the branch is exported and imported under another id;
* ``script`` — ``DiceScripted(faces)``: these die faces first, then the seeded stream.

The copy is one atomic write (``GameService.copy_history``), so a branch exists whole or not
at all.  Its ``game_started`` is the parent's, game id and commitment included: the dice it
commits to were rolled under that id.  A branch of a branch works the same way; its history
then holds its ancestors' ``branched`` events too, which is how ``lineage`` finds the root.

**Versions of a branch.**  A branch's versions up to its branch point *N* are its parent's;
then come its own records (``branched``, and the dice event for ``reseed`` or ``script``), so
its later versions are one or two more than its parent's at the same point of play.  The
moves of the game leave those records out (``risk_core.turns``): ``lined_up`` and ``diff(at=)``
compare two games after as many moves, and turns (``turn_version``) are each game's own
``turn_started`` events, which need no offset at all.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

import risk_core
from risk_core import Event, GameState, RiskError, RuleError
from risk_core.engine import legal_moves
from risk_core.model import Branched, DiceReseeded, DiceScripted, GameStarted
from risk_core.names import whole_number
from risk_core.rng import normalise_seed, seed_commitment
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import RuleSet
from risk_core.turns import TurnStart, event_types, find_turn, line_up, turn_span, turn_starts
from risk_core.views import view
from risk_service import versions
from risk_service.luck import LuckReport, luck_report
from risk_service.store import BranchPoint, GameService, ServiceError

DiceMode = Literal["same", "reseed", "script"]
DICE_MODES: tuple[DiceMode, ...] = ("same", "reseed", "script")
JsonDict = dict[str, Any]


# --------------------------------------------------------------------------- replay
class Timeline(msgspec.Struct, frozen=True):
    """A game's first ``state.version`` events and the state they give."""

    game_id: str
    events: list[Event]
    state: GameState


def opening(service: GameService, game_id: str) -> GameStarted:
    """The game's ``game_started`` (one stored row)."""
    first = service.events(game_id, upto=1)[0]
    if not isinstance(first, GameStarted):
        raise RiskError("bad_history", f"Game {game_id} does not begin with game_started.")
    return first


def timeline(service: GameService, game_id: str, upto: int | None = None) -> Timeline:
    """The events up to version ``upto`` (default: all) and the state after them.

    A game recorded by other rules or on other board data is read through the registered
    upcasters, or refused (``version_mismatch``, ``risk_service.versions``).
    """
    if versions.mismatch(opening(service, game_id)) is None:
        events = service.events(game_id, upto=upto)
        state = service.state(game_id, at=len(events))  # from the nearest snapshot
        return Timeline(game_id=game_id, events=events, state=state)
    records = versions.pinned(service.records(game_id), game_id)
    events = [ev for record in records for ev in record.events]
    if upto is not None:
        if not 1 <= upto <= len(events):
            raise ServiceError(
                "bad_version", f"Game {game_id} has {len(events)} events: no version {upto}."
            )
        events = events[:upto]
    return Timeline(game_id=game_id, events=events, state=risk_core.replay(events))


def luck(service: GameService, game_id: str, upto: int | None = None) -> LuckReport:
    """The dice luck report of the battles up to version ``upto`` (default: all)."""
    return luck_report(game_id, timeline(service, game_id, upto).events)


def events_of(service: GameService, game_id: str, upto: int | None = None) -> list[Event]:
    """The events up to version ``upto`` (default: all), read as ``timeline`` reads them."""
    if versions.mismatch(opening(service, game_id)) is None:
        return service.events(game_id, upto=upto)
    return timeline(service, game_id, upto).events


# --------------------------------------------------------------------------- turns
def turns_of(service: GameService, game_id: str) -> list[TurnStart]:
    """Where each of the game's turns begins (``risk_core.turns``)."""
    return turn_starts(events_of(service, game_id))


def turn_version(service: GameService, game_id: str, turn: int) -> int:
    """The version at the start of turn ``turn``: right after its ``turn_started`` event
    (``no_such_turn`` for a turn the game does not have)."""
    return find_turn(turns_of(service, game_id), turn, game_id).version


def command_end(service: GameService, game_id: str, version: int) -> int:
    """The last version of the record (a command and what it caused) holding event
    ``version``: ``version`` itself when it ends its command."""
    for record in service.iter_records(game_id):
        if record.version >= version:
            return record.version
    return version


def turn_versions(service: GameService, game_id: str, turn: int) -> tuple[int, int]:
    """The first and last versions of turn ``turn``'s events."""
    events = events_of(service, game_id)
    return turn_span(turn_starts(events), turn, len(events), game_id)


def lined_up(service: GameService, a: str, at: int, b: str) -> int:
    """Game ``b``'s version at the same point of play as ``a``'s version ``at``: as many moves
    of the game, a branch's own records left out (``risk_core.turns.line_up``)."""
    types_a = event_types(events_of(service, a, at))
    return line_up(types_a, at, event_types(events_of(service, b)), b)


def state_at(service: GameService, game_id: str, at: int | None = None) -> GameState:
    """The state after version ``at`` (default: the latest), read as ``timeline`` reads it."""
    if versions.mismatch(opening(service, game_id)) is None:
        return service.state(game_id, at=at)  # from the nearest snapshot, no event list
    return timeline(service, game_id, at).state


# --------------------------------------------------------------------------- branches
class Branch(msgspec.Struct, frozen=True):
    """A branch just created."""

    game_id: str
    parent: str
    at: int  # the parent's events it keeps
    dice: DiceMode
    commitment: str | None = None  # reseed: the new seed's published commitment
    faces: int = 0  # script: how many faces were loaded
    cut: int = 0  # events of the command at the branch point left out (0: none)


def reseed_commitment(parent: str, at: int, seed: int) -> str:
    """A reseeded branch's commitment, bound to its branch point (``parent@at``).

    The branch point is in the branch's own history, unlike the branch's id, which an import
    may change: the commitment stays checkable wherever the history goes.
    """
    return seed_commitment(f"{parent}@{at}", seed)


def playable(state: GameState) -> bool:
    """Whether the game can go on from ``state``: it is over, or a seat can act (one of its
    listed moves is accepted).  A version inside a command's events may leave the rules' own
    steps half done (the opening, the end of the set-up), where nothing is accepted."""
    if state.phase == "over":
        return True
    for move in legal_moves(state):
        try:
            risk_core.decide(state, move.command)
        except RuleError:
            continue
        return True
    return False


def check_playable(state: GameState, game_id: str, what: str) -> None:
    """``unplayable`` (naming ``what``: "branch", "simulate") unless ``playable(state)``: the
    commands' own check before they start a game or futures from a version (``branch``
    itself copies any version, as an exact copy must)."""
    if not playable(state):
        raise RiskError(
            "unplayable",
            f"Version {state.version} of {game_id} is inside a command's events where nobody "
            "can act (the rules' own steps there, such as the end of the set-up, are not "
            f"done): {what} from an earlier or a later version.",
        )


def check_game_playable(state: GameState, game_id: str) -> None:
    """``unplayable`` unless ``playable(state)``, for a stored game that stands at such a
    version: a branch cut there by the Python API, or imported from before ``branch`` refused
    such versions.  No move is accepted there (the listed ones are refused one by one as
    ``not_enough_armies``, a bot dead-ends or raises), so moves and bots say why at once."""
    if not playable(state):
        raise RiskError(
            "unplayable",
            f"Game {game_id} stands at version {state.version}, inside a command's events "
            "where nobody can act (the rules' own steps there, such as the end of the set-up, "
            "are not done): no move is accepted there. Branch its parent from an earlier or a "
            f"later version instead (risk tree {game_id} names the parent).",
        )


def branch(
    service: GameService,
    parent: str,
    at: int,
    *,
    game_id: str | None = None,
    dice: DiceMode = "same",
    seed: int | str | None = None,
    faces: Sequence[int] = (),
) -> Branch:
    """Create a branch of ``parent`` after its first ``at`` events (one atomic write)."""
    if dice not in DICE_MODES:
        raise RiskError("bad_dice", f"Dice mode {dice!r}: use one of {', '.join(DICE_MODES)}.")
    if seed is not None and dice != "reseed":
        raise RiskError("bad_dice", "A seed is for --dice reseed only.")
    if faces and dice != "script":
        raise RiskError("bad_dice", "Die faces are for --dice script only.")
    started = opening(service, parent)
    problem = versions.mismatch(started)
    if problem is not None:
        # The copy keeps the recorded events, which this engine would then play on.
        raise RiskError("version_mismatch", f"Game {parent} cannot be branched: {problem}.")
    then: list[Event] = [Branched(parent=parent, version=at)]
    commitment = None
    if dice == "reseed":
        chosen = secrets.randbits(64) if seed is None else normalise_seed(seed)
        commitment = reseed_commitment(parent, at, chosen)
        then.append(DiceReseeded(seed=chosen, commitment=commitment))
    elif dice == "script":
        # Faces up to the largest die of the rule set (a Clone Wars capital ship's d8).
        then.append(DiceScripted(faces=check_faces(faces, get_ruleset(started.ruleset))))
    copied = service.copy_history(parent, at, then, game_id=game_id)
    return Branch(
        game_id=copied.game_id,
        parent=parent,
        at=at,
        dice=dice,
        commitment=commitment,
        faces=len(faces),
        cut=copied.cut,
    )


class CommandReplay(msgspec.Struct, frozen=True):
    """How far a branch got re-applying its parent's later commands (``replay_commands``)."""

    commands: int  # the parent's commands after the branch point
    applied: int  # how many the branch accepted, in order from the first
    version: int  # the branch's version afterwards
    stopped_at: int | None = None  # the parent's version of the first refused command
    code: str | None = None  # why it was refused (a rule's error code)
    reason: str | None = None


def replay_commands(service: GameService, made: Branch) -> CommandReplay:
    """Submit the parent's commands after the branch point to the branch, one by one, until
    one is refused ("same decisions, other dice"); each accepted one is stored as any move.

    A command cut by the branch point (``made.cut``) is not submitted again: the branch goes
    on from the position inside it.  With ``dice="same"`` and a branch point between two
    commands, every command is accepted and the branch ends where its parent is.
    """
    later = [
        r
        for r in service.records(made.parent)
        if r.command is not None and r.version - len(r.events) >= made.at
    ]
    for applied, record in enumerate(later):
        assert record.command is not None
        try:
            service.submit(made.game_id, record.command)
        except RuleError as err:
            return CommandReplay(
                commands=len(later),
                applied=applied,
                version=service.state(made.game_id).version,
                stopped_at=record.version - len(record.events) + 1,
                code=err.code,
                reason=err.message,
            )
    return CommandReplay(
        commands=len(later), applied=len(later), version=service.state(made.game_id).version
    )


def check_faces(faces: Sequence[Any], rules: RuleSet | None = None) -> tuple[int, ...]:
    """Die faces as whole numbers from 1, up to the largest die of ``rules`` (None: a script
    read before its game is known, which ``branch`` checks again against the game's dice)."""
    if not faces:
        raise RiskError("bad_script", "A dice script needs at least one face.")
    top = None if rules is None else rules.largest_die()

    def wrong(f: Any) -> bool:
        beyond = top is not None and isinstance(f, int) and f > top
        return isinstance(f, bool) or not isinstance(f, int) or f < 1 or beyond

    bad = [f for f in faces if wrong(f)]
    if bad:
        span = "from 1" if rules is None else f"1 to {top} ({rules.name}'s dice)"
        said = f"Die faces are whole numbers {span}, not {json.dumps(bad[0])}."
        raise RiskError("bad_script", said)
    return tuple(faces)


def parse_faces(text: str) -> tuple[int, ...]:
    """Die faces from a script file: a JSON list, or numbers separated by white space."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            faces = json.loads(stripped)
        except (ValueError, RecursionError) as e:  # JSONDecodeError, a number too long, …
            said = str(e) or "it is nested too deeply"
            raise RiskError("bad_script", f"The dice script is not a JSON list: {said}.") from None
        if not isinstance(faces, list):
            raise RiskError("bad_script", "The dice script must be a list of faces.")
        return check_faces(faces)
    words = stripped.split()
    faces = [whole_number(w) for w in words]
    if None in faces:
        bad = words[faces.index(None)]
        raise RiskError("bad_script", f"Die faces are whole numbers, not {bad[:40]!r}.")
    return check_faces([f for f in faces if f is not None])


# --------------------------------------------------------------------------- lineage
class Node(msgspec.Struct):
    """One game of a lineage tree."""

    game_id: str
    at: int | None  # the parent's events it keeps (None: the root)
    in_store: bool  # False: known from a descendant's history only
    version: int | None = None
    phase: str | None = None
    children: list[Node] = msgspec.field(default_factory=list)


class Lineage(msgspec.Struct, frozen=True):
    game_id: str
    ancestors: list[str]  # root first
    tree: Node  # from the root: the path down to ``game_id``, then all its descendants


def branch_parents(service: GameService) -> dict[str, BranchPoint]:
    """Each branch in the store with its own branch point: its latest ``branched`` event (the
    others are its ancestors', copied with their history)."""
    parent_of: dict[str, BranchPoint] = {}
    for p in service.branch_points():
        if p.game_id not in parent_of or p.version > parent_of[p.game_id].version:
            parent_of[p.game_id] = p
    return parent_of


def lineage(service: GameService, game_id: str) -> Lineage:
    """``game_id``'s parent chain up to the root and every descendant in the store.

    The chain follows each game's own ``branched`` event through the store; it stops at a
    parent the store does not hold (shown as such: its own parent is unknown here).
    """
    summaries = {s.game_id: s for s in service.games()}
    if game_id not in summaries:
        raise ServiceError("unknown_game", f"There is no game '{game_id}' in {service.store_url}.")
    parent_of = branch_parents(service)
    children: dict[str, list[tuple[int, str]]] = {}
    for p in parent_of.values():
        children.setdefault(p.parent, []).append((p.at, p.game_id))
    path = [game_id]  # from the game up to the root
    while path[-1] in parent_of and parent_of[path[-1]].parent not in path:
        path.append(parent_of[path[-1]].parent)

    def node(gid: str) -> Node:
        point = parent_of.get(gid)
        s = summaries.get(gid)
        at = point.at if point is not None and gid != path[-1] else None
        if s is None:
            return Node(game_id=gid, at=at, in_store=False)
        return Node(game_id=gid, at=at, in_store=True, version=s.version, phase=s.phase)

    def subtree(gid: str) -> Node:
        n = node(gid)
        n.children = [subtree(child) for _, child in sorted(children.get(gid, []))]
        return n

    top = subtree(game_id)
    for gid in path[1:]:  # wrap the path upwards, one ancestor at a time
        above = node(gid)
        above.children = [top]
        top = above
    return Lineage(game_id=game_id, ancestors=path[:0:-1], tree=top)


# --------------------------------------------------------------------------- differences
class Difference(msgspec.Struct, frozen=True):
    kind: Literal["game", "player", "territory"]
    key: str  # "" for the game, a seat number or a territory id
    field: str
    a: Any
    b: Any


class Diff(msgspec.Struct, frozen=True):
    a: JsonDict  # {"game_id", "version"}
    b: JsonDict
    same: bool
    differences: list[Difference]


GAME_FIELDS = (
    "rules",
    "board",
    "phase",
    "turn",
    "round",
    "current_player",
    "to_act",
    "winner",
    "reserve",
    "ally_reserve",
    "trades",
    "deck_size",
)
PLAYER_FIELDS = ("name", "eliminated", "cards", "territories", "armies", "hand", "mission")


def diff(
    service: GameService,
    a: str,
    b: str,
    *,
    at_a: int | None = None,
    at_b: int | None = None,
    seat: int | None = None,
    at: int | None = None,
    turn: int | None = None,
) -> Diff:
    """How game ``a`` (at version ``at_a``) and game ``b`` (at ``at_b``) differ, as ``seat``
    sees them (None: a spectator, who compares hand sizes but no hands, ENG-07).

    ``at`` instead: ``a`` at that version and ``b`` lined up with it (``lined_up``); ``turn``:
    both at the start of that turn (``turn_version``)."""
    if turn is not None:
        at_a, at_b = turn_version(service, a, turn), turn_version(service, b, turn)
    elif at is not None:
        at_a, at_b = at, lined_up(service, a, at, b)
    sa, sb = state_at(service, a, at_a), state_at(service, b, at_b)
    return diff_views(a, view(sa, seat), b, view(sb, seat))


def diff_views(a_id: str, va: JsonDict, b_id: str, vb: JsonDict) -> Diff:
    out = [
        Difference("game", "", f, va.get(f), vb.get(f))
        for f in GAME_FIELDS
        if va.get(f) != vb.get(f)
    ]
    pa, pb = va["players"], vb["players"]
    for seat in range(max(len(pa), len(pb))):
        x = pa[seat] if seat < len(pa) else {}
        y = pb[seat] if seat < len(pb) else {}
        for f in PLAYER_FIELDS:
            if x.get(f) != y.get(f):
                out.append(Difference("player", str(seat), f, x.get(f), y.get(f)))
    ta, tb = va["territories"], vb["territories"]
    for tid in [*ta, *(t for t in tb if t not in ta)]:
        x, y = ta.get(tid), tb.get(tid)
        if x != y:
            out.append(Difference("territory", tid, "holding", x, y))
    return Diff(
        a={"game_id": a_id, "version": va["version"]},
        b={"game_id": b_id, "version": vb["version"]},
        same=not out,
        differences=out,
    )
