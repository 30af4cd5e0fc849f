"""Boards as data: decoding, validation and the runtime board (CORE-01, GAP-01..05, GAP-07..09).

A board lives in ``boards/<name>/`` (or any folder, :func:`load_board_dir`): ``board.json``
(territories, groups, edges, card symbols, provenance and, for the Napoleon board, capitals, sea
zones and maritime routes) and, optionally, ``missions.json`` (secret objectives) and
``names.json`` (names, aliases and mission texts in place of those files' own, outside the
content hash: :class:`NamesFile`).
:func:`decode_board` turns those bytes into a :class:`Board` or raises :class:`BoardError` with a
stable ``code``, so the service and the command line can report bad data precisely instead of
failing mid-game.

A rule family adds its own data (cities, capitals, lanes, tracks, cards) under ``board.json``'s
``"sections"`` object, one key per section type it registered with
:func:`~risk_core.board_sections.register_section`; see that module.

Every recorded fact says whether it was checked against a rulebook or the printed board: edges,
territories (name and group), card symbols, missions and sea zones are :class:`Fact` items
(``verified``, and a ``note`` giving the reasoning when it is false); group and route bonuses
have ``bonus_verified`` and ``bonus_note``, card symbols ``card_verified`` and ``card_note``.
An unverified item without a note is refused (``unexplained_fact``); :func:`unverified_facts`
lists them all and :func:`fact_counts` counts them by kind.  Correcting one is a data edit.

Territories are addressed by index everywhere in the engine; the index is the territory's
position in ``board.json``.  Cards have their own ids (:mod:`risk_core.cards`): without a
``cards`` section, card ``i`` is territory ``i``'s card and the jokers follow.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import msgspec

from boards import BOARDS_DIR
from risk_core.board_sections import BoardError as BoardError
from risk_core.board_sections import Fact as Fact
from risk_core.board_sections import decode_section, iter_facts, section_type
from risk_core.board_sections import register_section as register_section
from risk_core.cards import CARDS_SECTION, Card, cards_from_entries, default_cards
from risk_core.cards import JOKER as JOKER
from risk_core.names import NameIndex, build_index, resolve
from risk_core.names import normalise_name as normalise_name

Symbol = Literal["infantry", "cavalry", "artillery"]
# "lane": a Clone Wars hyperspace lane (CW-01), adjacency like a border, drawn like a sea line.
EdgeKind = Literal["border", "sea", "lane"]

# Army colours a "destroy" mission may name (CL-01: six colours).
MISSION_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black", "purple")
# Napoleon mission ranks, easiest first (NAP-MIS-02).
MISSION_RANKS: tuple[str, ...] = ("caporal", "capitaine", "general", "empereur")


# --- File format -------------------------------------------------------------------------------
# Unknown fields are rejected so that a misspelt key in a data file is an error, not a silently
# ignored setting.


class Territory(Fact, frozen=True, forbid_unknown_fields=True):
    """A territory; ``verified``/``note`` are about its name and group, ``card_*`` its symbol."""

    id: str
    name_en: str
    name_fr: str
    # A single group field means every territory belongs to exactly one group (CORE-01) by
    # construction; validation only has to check that the group exists.
    group: str
    card: Symbol
    pos: tuple[int, int]  # diagram position on a 1000 x 600 map, x east, y south
    aliases: tuple[str, ...] = ()
    # False when the symbol on this territory's card is a placeholder (GAP-02, GAP-07).
    card_verified: bool = True
    card_note: str = ""


class Group(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name_en: str
    name_fr: str
    bonus: int
    size: int  # declared territory count, checked against the territories naming this group
    # Napoleon (NAP-CAP-01): the empire's capital territory and the Capitals-option bonus.
    capital: str | None = None
    capital_bonus: int | None = None
    # False when ``bonus`` is a placeholder rather than a printed value (Napoleon GAP-05);
    # ``bonus_note`` then says how it was chosen.
    bonus_verified: bool = True
    bonus_note: str = ""


class SeaZone(Fact, frozen=True, forbid_unknown_fields=True):
    """A maritime zone of the Napoleon advanced rules (NAP-ADV-02, GAP-09); ``verified`` is
    about its neighbours (``zones`` and ``coasts``)."""

    id: str
    name_en: str
    name_fr: str
    route: str | None = None  # the maritime route this zone belongs to
    zones: tuple[str, ...] = ()  # adjacent zones; listed on both sides
    coasts: tuple[str, ...] = ()  # adjacent territories


class Route(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A maritime route: a set of zones whose joint control pays a bonus (NAP-ADV-02)."""

    id: str
    name_en: str
    name_fr: str
    zones: tuple[str, ...]
    bonus: int | None = None  # None when the value is not known (GAP-09)
    bonus_verified: bool = True
    bonus_note: str = ""


class Edge(Fact, frozen=True, forbid_unknown_fields=True):
    """A connection between territories ``a`` and ``b``; ``verified`` covers its kind too.

    ``board.json`` may also list an edge as ``[a, b, kind]``, a verified edge.
    """

    a: str
    b: str
    kind: EdgeKind


class Source(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    what: str
    where: str
    used_for: tuple[str, ...] = ()


class Provenance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sources: tuple[Source, ...]
    verified: tuple[str, ...] = ()
    reconstructed: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()


class BoardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    version: int
    name_en: str
    name_fr: str
    groups: tuple[Group, ...]
    territories: tuple[Territory, ...]
    edges: tuple[Edge | tuple[str, str, EdgeKind], ...]
    jokers: int
    provenance: Provenance
    sea_zones: tuple[SeaZone, ...] = ()
    routes: tuple[Route, ...] = ()
    # Rule-family data, decoded by the registered section types (risk_core.board_sections).
    sections: dict[str, msgspec.Raw] = {}


class Mission(Fact, frozen=True, forbid_unknown_fields=True):
    """A secret objective; ``verified`` false when its card text is reconstructed (GAP-03/08)."""

    id: str
    text_en: str
    text_fr: str
    groups: tuple[str, ...] = ()  # groups to own completely
    extra_groups: int = 0  # further groups of the player's choice to own completely
    territories: int = 0  # minimum number of territories owned, each with >= min_armies
    min_armies: int = 1
    destroy: str | None = None  # colour to eliminate
    fallback_territories: int = 0  # target when the colour is absent, yourself or taken by another
    # Napoleon mission deck (NAP-MIS-02, GAP-08): every stated condition must hold.
    rank: str | None = None  # one of MISSION_RANKS
    eliminate_any: int = 0  # number of players to eliminate
    hold: tuple[str, ...] = ()  # territory ids to own
    capitals: int = 0  # number of capitals (Group.capital) to own
    armies_total: int = 0  # minimum number of own armies on the board


class MissionFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    provenance: Provenance
    missions: tuple[Mission, ...]


# ``names.json``: what players read and type, kept apart from the board's content hash.  No rule
# reads a name, so correcting one (a misspelt alias, a second language, one name for a
# continent across board and missions) must not change the hash recorded in every game's
# ``game_started``, which would make stored games unreadable (``risk_service.versions``).
# Each field given replaces the one in ``board.json`` or ``missions.json``.


class TerritoryNames(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name_en: str | None = None
    name_fr: str | None = None
    aliases: tuple[str, ...] | None = None  # replaces board.json's list as a whole


class GroupNames(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name_en: str | None = None
    name_fr: str | None = None


class MissionTexts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    text_en: str | None = None
    text_fr: str | None = None


class NamesFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    about: str = ""
    territories: dict[str, TerritoryNames] = {}
    groups: dict[str, GroupNames] = {}
    missions: dict[str, MissionTexts] = {}


class UnverifiedFact(msgspec.Struct, frozen=True):
    """A board value not checked against a rulebook or the printed board, and why (GAP-nn)."""

    where: str  # "provenance.unverified", "edges[3] (a–b)", "groups.<id>.bonus", ...
    note: str
    kind: str = "board"  # one of FACT_KINDS


# What :func:`unverified_facts` reports, in its order: board-wide provenance notes, then items.
FACT_KINDS: tuple[str, ...] = (
    "board",
    "territory",
    "card",
    "edge",
    "bonus",
    "sea_zone",
    "route",
    "mission",
    "section",
)


_board_decoder = msgspec.json.Decoder(BoardFile)
_missions_decoder = msgspec.json.Decoder(MissionFile)
_names_decoder = msgspec.json.Decoder(NamesFile)


# --- Validation --------------------------------------------------------------------------------


def _check_unique(ids: Iterable[str], code: str, what: str) -> None:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise BoardError(code, f"Duplicate {what} id {item!r}")
        seen.add(item)


def _check_groups(file: BoardFile) -> None:
    counts = {g.id: 0 for g in file.groups}
    for t in file.territories:
        if t.group not in counts:
            raise BoardError("unknown_group", f"Territory {t.id!r} names unknown group {t.group!r}")
        counts[t.group] += 1
    for g in file.groups:
        if counts[g.id] == 0:
            raise BoardError("empty_group", f"Group {g.id!r} has no territories")
        if counts[g.id] != g.size:
            raise BoardError(
                "group_size_mismatch",
                f"Group {g.id!r} declares size {g.size} but has {counts[g.id]} territories",
            )


def _check_capitals(file: BoardFile, index: dict[str, int]) -> None:
    for g in file.groups:
        if g.capital is None:
            if g.capital_bonus is not None:
                raise BoardError(
                    "bad_capital", f"Group {g.id!r} has a capital bonus but no capital"
                )
            continue
        i = index.get(g.capital)
        if i is None or file.territories[i].group != g.id:
            raise BoardError(
                "bad_capital", f"Capital {g.capital!r} of group {g.id!r} is not one of its members"
            )
        if g.capital_bonus is not None and g.capital_bonus < 0:
            raise BoardError(
                "bad_capital", f"Group {g.id!r} has a negative capital bonus {g.capital_bonus}"
            )


def _check_sea_zones(file: BoardFile, known: set[str]) -> None:
    """Zone ids, zone-zone symmetry, coasts and route membership (NAP-ADV-02, GAP-09)."""
    _check_unique((z.id for z in file.sea_zones), "duplicate_sea_zone", "sea zone")
    zones = {z.id: z for z in file.sea_zones}
    for z in file.sea_zones:
        if len(set(z.zones)) != len(z.zones) or len(set(z.coasts)) != len(z.coasts):
            raise BoardError("duplicate_edge", f"Sea zone {z.id!r} lists a neighbour twice")
        for other in z.zones:
            if other not in zones:
                raise BoardError(
                    "unknown_sea_zone", f"Sea zone {z.id!r} names unknown sea zone {other!r}"
                )
            if other == z.id:
                raise BoardError("self_edge", f"Sea zone {z.id!r} is listed as its own neighbour")
            if z.id not in zones[other].zones:
                raise BoardError(
                    "asymmetric_zone",
                    f"Sea zone {z.id!r} lists {other!r} but {other!r} does not list {z.id!r}",
                )
        for t in z.coasts:
            if t not in known:
                raise BoardError(
                    "unknown_territory", f"Sea zone {z.id!r} names unknown territory {t!r}"
                )
    _check_unique((r.id for r in file.routes), "bad_route", "route")
    routes = {r.id: r for r in file.routes}
    listed: dict[str, str] = {}
    for r in file.routes:
        if not r.zones:
            raise BoardError("bad_route", f"Route {r.id!r} has no sea zones")
        if r.bonus is not None and r.bonus < 0:
            raise BoardError("bad_route", f"Route {r.id!r} has a negative bonus {r.bonus}")
        for zid in r.zones:
            zone = zones.get(zid)
            if zone is None:
                raise BoardError("bad_route", f"Route {r.id!r} names unknown sea zone {zid!r}")
            if zid in listed:
                raise BoardError(
                    "bad_route",
                    f"Sea zone {zid!r} is listed by routes {listed[zid]!r} and {r.id!r}",
                )
            listed[zid] = r.id
            if zone.route != r.id:
                raise BoardError(
                    "bad_route",
                    f"Route {r.id!r} lists sea zone {zid!r}, whose route is {zone.route!r}",
                )
    for z in file.sea_zones:
        if z.route is not None and (z.route not in routes or listed.get(z.id) != z.route):
            raise BoardError(
                "bad_route", f"Sea zone {z.id!r} names route {z.route!r}, which does not list it"
            )


def _check_edges(edges: tuple[Edge, ...], known: set[str]) -> None:
    # Each edge is one unordered pair added to both ends' neighbour lists, so adjacency is
    # symmetric by construction.  A pair listed twice, in either order, is rejected: that is how
    # one-sided or contradictory listings (say "border" one way, "sea" the other) are excluded.
    seen: dict[frozenset[str], str] = {}
    for a, b in ((e.a, e.b) for e in edges):
        label = f"{a}–{b}"
        for end in (a, b):
            if end not in known:
                raise BoardError(
                    "unknown_territory", f"Edge {label} names unknown territory {end!r}"
                )
        if a == b:
            raise BoardError("self_edge", f"Edge {label} joins territory {a!r} to itself")
        pair = frozenset((a, b))
        if pair in seen:
            raise BoardError(
                "duplicate_edge", f"Edge {label} is listed twice (also as {seen[pair]})"
            )
        seen[pair] = label


def _edges(file: BoardFile) -> tuple[Edge, ...]:
    """The file's edges, the ``[a, b, kind]`` form read as a verified :class:`Edge`."""
    return tuple(e if isinstance(e, Edge) else Edge(e[0], e[1], e[2]) for e in file.edges)


def _check_connected(territories: tuple[Territory, ...], neighbours: list[list[int]]) -> None:
    reached = {0}
    frontier = [0]
    while frontier:
        for j in neighbours[frontier.pop()]:
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    for i, t in enumerate(territories):
        if i not in reached:
            raise BoardError(
                "disconnected",
                f"Territory {t.id!r} cannot be reached from {territories[0].id!r}",
            )


def _name_lookup(territories: tuple[Territory, ...]) -> dict[str, int]:
    lookup: dict[str, int] = {}
    for i, t in enumerate(territories):
        for name in (t.id, t.name_en, t.name_fr, *t.aliases):
            key = normalise_name(name)
            if not key:
                raise BoardError(
                    "malformed_board", f"Territory {t.id!r} has a name without letters: {name!r}"
                )
            other = lookup.setdefault(key, i)
            if other != i:
                raise BoardError(
                    "ambiguous_name",
                    f"Name {name!r} of territory {t.id!r} also names {territories[other].id!r}",
                )
    return lookup


def _check_missions(missions: tuple[Mission, ...], file: BoardFile) -> None:
    group_ids = {g.id for g in file.groups}
    territory_ids = {t.id for t in file.territories}
    _check_unique((m.id for m in missions), "malformed_missions", "mission")
    for m in missions:
        for g in m.groups:
            if g not in group_ids:
                raise BoardError("unknown_group", f"Mission {m.id!r} names unknown group {g!r}")
        for t in m.hold:
            if t not in territory_ids:
                raise BoardError(
                    "unknown_territory", f"Mission {m.id!r} names unknown territory {t!r}"
                )
        if m.destroy is not None and m.destroy not in MISSION_COLOURS:
            raise BoardError(
                "unknown_colour", f"Mission {m.id!r} names unknown colour {m.destroy!r}"
            )
        n_capitals = sum(g.capital is not None for g in file.groups)
        problem = _mission_problem(m, len(group_ids), len(file.territories)) or _napoleon_problem(
            m, n_capitals
        )
        if problem:
            raise BoardError("malformed_missions", f"Mission {m.id!r}: {problem}")


def _mission_problem(m: Mission, n_groups: int, n_territories: int) -> str | None:
    """Why a mission can never be met or is self-contradictory, if it is."""
    if len(set(m.groups)) != len(m.groups):
        return "a group is listed twice"
    if min(m.extra_groups, m.territories, m.fallback_territories) < 0 or m.min_armies < 1:
        return "counts must not be negative and min_armies must be at least 1"
    if len(m.groups) + m.extra_groups > n_groups:
        return f"asks for more groups than the board's {n_groups}"
    if max(m.territories, m.fallback_territories) > n_territories:
        return f"asks for more territories than the board's {n_territories}"
    if m.destroy is None and m.fallback_territories:
        return "fallback_territories is only meaningful with destroy"
    return None


def _napoleon_problem(m: Mission, n_capitals: int) -> str | None:
    """Why the Napoleon-deck fields of a mission are malformed, if they are (GAP-08)."""
    if m.rank is not None and m.rank not in MISSION_RANKS:
        return f"unknown rank {m.rank!r} (expected one of {', '.join(MISSION_RANKS)})"
    if min(m.eliminate_any, m.capitals, m.armies_total) < 0:
        return "counts must not be negative"
    if len(set(m.hold)) != len(m.hold):
        return "a territory is listed twice in hold"
    if m.capitals > n_capitals:
        return f"asks for more capitals than the board's {n_capitals}"
    if m.eliminate_any > len(MISSION_COLOURS) - 1:
        return f"asks to eliminate more than the {len(MISSION_COLOURS) - 1} possible opponents"
    return None


# --- Runtime board -----------------------------------------------------------------------------


class Board:
    """A validated board, indexed for the engine.  Immutable by convention: never mutate it."""

    __slots__ = (
        "_deck_cards",
        "_edge_kinds",
        "_lookup",
        "_names",
        "capitals",
        "card_symbols",
        "cards",
        "content_hash",
        "decks",
        "edges",
        "file",
        "group_index",
        "group_members",
        "groups",
        "id",
        "index",
        "jokers",
        "missions",
        "missions_provenance",
        "name_en",
        "name_fr",
        "neighbour_sets",
        "neighbours",
        "routes",
        "sea_zones",
        "sections",
        "territories",
        "territory_group",
        "version",
    )

    def __init__(
        self,
        file: BoardFile,
        missions: tuple[Mission, ...] = (),
        content_hash: str | None = None,
        missions_provenance: Provenance | None = None,
    ) -> None:
        """Validate ``file`` and ``missions`` and build the indexes; raises :class:`BoardError`.

        ``content_hash`` defaults to a hash of the canonical encoding of the data, for boards
        built in code rather than read from files; ``missions_provenance`` is the provenance of
        ``missions.json``, listed by :func:`unverified_facts`.  Sections are decoded with the
        section types registered now (``unknown_section``, ``bad_section``), then checked:
        ``cards`` first, so the other checkers see :attr:`cards`, then the rest by name.  Last,
        every unverified fact must have a note (``unexplained_fact``).
        """
        if file.jokers < 0:
            raise BoardError("bad_jokers", f"Board {file.id!r} has {file.jokers} jokers")
        if not file.territories:
            raise BoardError("malformed_board", f"Board {file.id!r} has no territories")
        _check_unique((g.id for g in file.groups), "duplicate_group", "group")
        _check_unique((t.id for t in file.territories), "duplicate_territory", "territory")
        _check_groups(file)
        index = {t.id: i for i, t in enumerate(file.territories)}
        _check_capitals(file, index)
        edges = _edges(file)
        _check_edges(edges, set(index))
        _check_sea_zones(file, set(index))

        adjacency: list[list[int]] = [[] for _ in file.territories]
        edge_kinds: dict[tuple[int, int], EdgeKind] = {}
        for e in edges:
            i, j = index[e.a], index[e.b]
            adjacency[i].append(j)
            adjacency[j].append(i)
            edge_kinds[(min(i, j), max(i, j))] = e.kind
        _check_connected(file.territories, adjacency)
        self._lookup = _name_lookup(file.territories)
        self._names: NameIndex = build_index(
            [(t.id, t.name_en, t.name_fr, *t.aliases) for t in file.territories],
            [t.name_en for t in file.territories],
        )
        _check_missions(missions, file)

        if content_hash is None:
            content_hash = _code_hash(file, missions)

        self.file = file
        self.edges = edges
        self.missions_provenance = missions_provenance
        self.id = file.id
        self.version = file.version
        self.name_en = file.name_en
        self.name_fr = file.name_fr
        self.territories = file.territories
        self.groups = file.groups
        self.index = index
        self.group_index = {g.id: k for k, g in enumerate(file.groups)}
        self.territory_group = tuple(self.group_index[t.group] for t in file.territories)
        self.group_members = tuple(
            tuple(i for i, g in enumerate(self.territory_group) if g == k)
            for k in range(len(file.groups))
        )
        self.neighbours = tuple(tuple(sorted(n)) for n in adjacency)
        self.neighbour_sets = tuple(frozenset(n) for n in adjacency)
        self._edge_kinds = edge_kinds
        self.jokers = file.jokers
        self.missions = missions
        self.content_hash = content_hash
        self.sea_zones = file.sea_zones
        self.routes = file.routes
        # Group id -> territory index of its capital, for the groups that have one (NAP-CAP-01).
        self.capitals = {g.id: index[g.capital] for g in file.groups if g.capital is not None}
        self._init_sections(file)

    def _init_sections(self, file: BoardFile) -> None:
        decoded = {name: decode_section(name, raw) for name, raw in sorted(file.sections.items())}
        self.sections: MappingProxyType[str, Any] = MappingProxyType(decoded)
        entries = decoded.get(CARDS_SECTION)
        if entries is None:
            self.cards = default_cards([t.card for t in file.territories], file.jokers)
        else:
            _run_check(CARDS_SECTION, entries, self)
            self.cards = cards_from_entries(entries, self.index)
        self.card_symbols: tuple[str, ...] = tuple(c.symbol or "" for c in self.cards)
        decks: dict[str, list[int]] = {}
        for c in self.cards:
            decks.setdefault(c.deck, []).append(c.id)
        self._deck_cards = {deck: tuple(ids) for deck, ids in decks.items()}
        self.decks: tuple[str, ...] = tuple(decks)
        for name, value in decoded.items():
            if name != CARDS_SECTION:
                _run_check(name, value, self)
        for fact in unverified_facts(self):
            if not fact.note.strip():
                raise BoardError(
                    "unexplained_fact", f"Unverified {fact.where} has no note saying why"
                )

    def __repr__(self) -> str:
        return f"<Board {self.id!r} v{self.version}: {len(self.territories)} territories>"

    def adjacent(self, a: int, b: int) -> bool:
        """Whether territories ``a`` and ``b`` are connected by a border or a sea line."""
        return b in self.neighbour_sets[a]

    def edge_kind(self, a: int, b: int) -> EdgeKind | None:
        """How ``a`` and ``b`` are connected, or None when they are not adjacent."""
        return self._edge_kinds.get((min(a, b), max(a, b)))

    def name(self, i: int) -> str:
        """English name of territory ``i``."""
        return self.territories[i].name_en

    def find(self, name: str) -> int:
        """Index of the territory called ``name``: its id, English or French name or an alias,
        a unique prefix of one, or a word-by-word abbreviation (:mod:`risk_core.names`).

        Case, accents, punctuation and spaces are ignored.  Raises :class:`BoardError`
        ``unknown_territory`` with the closest names as a suggestion, or
        ``ambiguous_territory`` listing the territories ``name`` could mean.
        """
        found = self._lookup.get(normalise_name(name))
        if found is not None:
            return found
        return resolve(self._names, name)

    def section(self, name: str) -> Any:
        """The decoded section ``name``, or None when this board has none.

        Raises :class:`BoardError` ``unknown_section`` when no rule family registered ``name``,
        so a misspelt name is an error rather than a silently absent section.
        """
        if name in self.sections:
            return self.sections[name]
        if section_type(name) is None:
            raise BoardError("unknown_section", f"No section type {name!r} is registered")
        return None

    def card(self, i: int) -> Card:
        """Card ``i``; raises :class:`BoardError` ``unknown_card``."""
        if not 0 <= i < len(self.cards):
            raise BoardError("unknown_card", f"Board {self.id!r} has no card {i}")
        return self.cards[i]

    def card_territory(self, i: int) -> int | None:
        """Territory index named by card ``i``, or None (jokers, cards naming no territory)."""
        return self.card(i).territory

    def card_label(self, i: int) -> str:
        """How a card reads: its territory and symbol, else its symbol (a joker), kind or stars."""
        card = self.card(i)
        if card.territory is not None:
            return f"{self.name(card.territory)} ({card.symbol})"
        label = card.kind or card.symbol or f"card {i}"
        return f"{label} ({card.stars} stars)" if card.stars else label

    def territory_card(self, t: int, deck: str = "main") -> int | None:
        """The card of ``deck`` naming territory ``t``, if there is one."""
        return next((c.id for c in self.cards if c.territory == t and c.deck == deck), None)

    def deck_cards(self, deck: str) -> list[int]:
        """Ids of the cards in ``deck``, in id order; :class:`BoardError` ``unknown_deck``."""
        found = self._deck_cards.get(deck)
        if found is None:
            known = ", ".join(self.decks)
            raise BoardError("unknown_deck", f"Board {self.id!r} has no deck {deck!r} ({known})")
        return list(found)


def _run_check(name: str, value: Any, board: Board) -> None:
    entry = section_type(name)
    if entry is not None and entry.check is not None:
        entry.check(value, board)


def _code_hash(file: BoardFile, missions: tuple[Mission, ...]) -> str:
    # Without sections, leave their key out, as boards were encoded before sections existed.
    # (The per-item provenance fields are part of the encoding: adding them moved these hashes.)
    data: Any = file
    if not file.sections:
        data = msgspec.to_builtins(file)
        del data["sections"]
    return "sha256:" + hashlib.sha256(msgspec.json.encode((data, missions))).hexdigest()


def unverified_facts(board: Board) -> list[UnverifiedFact]:
    """Everything on ``board`` not verified against a source, with the reasoning (GAP-nn).

    In :data:`FACT_KINDS` order: board-wide notes (``provenance.unverified`` and
    ``provenance.reconstructed`` of ``board.json``, then of ``missions.json``), territories
    (name and group), card symbols (boards without a ``cards`` section), edges, group bonuses,
    sea zones, route bonuses, missions, then every :class:`Fact` with ``verified`` false in the
    sections, by section name.
    """
    found = _provenance_facts(board.file.provenance, "provenance")
    if board.missions_provenance is not None:
        found += _provenance_facts(board.missions_provenance, "missions.provenance")
    items: list[tuple[str, str, bool, str]] = [
        ("territory", f"territories.{t.id}", t.verified, t.note) for t in board.territories
    ]
    if CARDS_SECTION not in board.sections:
        items += [
            ("card", f"territories.{t.id}.card", t.card_verified, t.card_note)
            for t in board.territories
        ]
    items += [
        ("edge", f"edges[{i}] ({e.a}–{e.b})", e.verified, e.note) for i, e in enumerate(board.edges)
    ]
    items += [
        ("bonus", f"groups.{g.id}.bonus", g.bonus_verified, g.bonus_note) for g in board.groups
    ]
    items += [("sea_zone", f"sea_zones.{z.id}", z.verified, z.note) for z in board.sea_zones]
    items += [
        ("route", f"routes.{r.id}.bonus", r.bonus_verified, r.bonus_note) for r in board.routes
    ]
    items += [("mission", f"missions.{m.id}", m.verified, m.note) for m in board.missions]
    items += [("section", where, fact.verified, fact.note) for where, fact in _section_facts(board)]
    found += [UnverifiedFact(where, note, kind) for kind, where, ok, note in items if not ok]
    return found


def fact_counts(board: Board) -> dict[str, tuple[int, int]]:
    """Kind -> (unverified, recorded) for each of :data:`FACT_KINDS` the board has.

    ``board`` counts the board-wide provenance notes of :func:`unverified_facts` (every one is
    unverified); ``card`` counts territory card symbols, absent when a ``cards`` section holds
    the deck (its entries are ``section`` facts).
    """
    recorded = {
        "territory": len(board.territories),
        "card": 0 if CARDS_SECTION in board.sections else len(board.territories),
        "edge": len(board.edges),
        "bonus": len(board.groups),
        "sea_zone": len(board.sea_zones),
        "route": len(board.routes),
        "mission": len(board.missions),
        "section": sum(1 for _ in _section_facts(board)),
    }
    unverified = dict.fromkeys(FACT_KINDS, 0)
    for fact in unverified_facts(board):
        unverified[fact.kind] += 1
    recorded["board"] = unverified["board"]
    return {k: (unverified[k], recorded[k]) for k in FACT_KINDS if recorded[k]}


def _provenance_facts(prov: Provenance, where: str) -> list[UnverifiedFact]:
    found = [UnverifiedFact(f"{where}.unverified", text) for text in prov.unverified]
    return found + [UnverifiedFact(f"{where}.reconstructed", text) for text in prov.reconstructed]


def _section_facts(board: Board) -> Iterable[tuple[str, Fact]]:
    for name, value in board.sections.items():
        yield from iter_facts(value, f"sections.{name}")


def _did_you_mean(candidates: list[str]) -> str:
    if not candidates:
        return ""
    quoted = [repr(c) for c in candidates]
    if len(quoted) == 1:
        return f" Did you mean {quoted[0]}?"
    return f" Did you mean {', '.join(quoted[:-1])} or {quoted[-1]}?"


# --- Loading -----------------------------------------------------------------------------------


def _file_hash(board_json: bytes, missions_json: bytes | None) -> str:
    digest = hashlib.sha256()
    for label, data in ((b"board.json", board_json), (b"missions.json", missions_json)):
        if data is not None:
            # Length-prefixed framing: bytes cannot move from one file to the other unnoticed.
            digest.update(b"%s %d\n" % (label, len(data)))
            digest.update(data)
    return "sha256:" + digest.hexdigest()


def decode_board(
    board_json: bytes, missions_json: bytes | None = None, names_json: bytes | None = None
) -> Board:
    """Decode and validate board (and mission) JSON, with the names of ``names.json`` in place
    of theirs (left out of the content hash: :class:`NamesFile`); pure; raises
    :class:`BoardError`."""
    try:
        file = _board_decoder.decode(board_json)
    except msgspec.DecodeError as exc:  # ValidationError is a subclass
        raise BoardError("malformed_board", f"board.json: {exc}") from None
    missions: tuple[Mission, ...] = ()
    provenance: Provenance | None = None
    if missions_json is not None:
        try:
            mission_file = _missions_decoder.decode(missions_json)
        except msgspec.DecodeError as exc:
            raise BoardError("malformed_missions", f"missions.json: {exc}") from None
        missions, provenance = mission_file.missions, mission_file.provenance
    if names_json is not None:
        try:
            names = _names_decoder.decode(names_json)
        except msgspec.DecodeError as exc:
            raise BoardError("malformed_board", f"names.json: {exc}") from None
        file, missions = _renamed(file, missions, names)
    return Board(file, missions, _file_hash(board_json, missions_json), provenance)


def _renamed(
    file: BoardFile, missions: tuple[Mission, ...], names: NamesFile
) -> tuple[BoardFile, tuple[Mission, ...]]:
    """``file`` and ``missions`` with the names and texts ``names`` gives in place of theirs;
    an id no territory, group or mission has is refused, so a misspelt id is never ignored."""

    def given(entry: msgspec.Struct) -> dict[str, Any]:
        return {k: v for k, v in msgspec.structs.asdict(entry).items() if v is not None}

    for table, known, code, what in (
        (names.territories, {t.id for t in file.territories}, "unknown_territory", "territory"),
        (names.groups, {g.id for g in file.groups}, "unknown_group", "group"),
        (names.missions, {m.id for m in missions}, "malformed_missions", "mission"),
    ):
        for key in table:
            if key not in known:
                raise BoardError(code, f"names.json names unknown {what} {key!r}")
    territories = tuple(
        msgspec.structs.replace(t, **given(names.territories[t.id]))
        if t.id in names.territories
        else t
        for t in file.territories
    )
    groups = tuple(
        msgspec.structs.replace(g, **given(names.groups[g.id])) if g.id in names.groups else g
        for g in file.groups
    )
    renamed = tuple(
        msgspec.structs.replace(m, **given(names.missions[m.id])) if m.id in names.missions else m
        for m in missions
    )
    return msgspec.structs.replace(file, territories=territories, groups=groups), renamed


def load_board_dir(path: str | os.PathLike[str]) -> Board:
    """Load ``<path>/board.json`` and, when present, ``<path>/missions.json`` and
    ``<path>/names.json`` (:class:`NamesFile`)."""
    folder = Path(path)
    try:
        board_json = (folder / "board.json").read_bytes()
    except FileNotFoundError:
        raise BoardError("unknown_board", f"No board.json in {str(folder)!r}") from None
    missions_path, names_path = folder / "missions.json", folder / "names.json"
    missions_json = missions_path.read_bytes() if missions_path.is_file() else None
    names_json = names_path.read_bytes() if names_path.is_file() else None
    return decode_board(board_json, missions_json, names_json)


def board_names() -> list[str]:
    """Names of the shipped boards: sub-folders of ``boards/`` holding a ``board.json``."""
    return sorted(p.name for p in BOARDS_DIR.iterdir() if (p / "board.json").is_file())


def family_board_names() -> list[str]:
    """Ids of the boards rule families keep beside their code (``add_family_board``), known
    once their families are imported (``risk_core.rulesets.names()`` imports them all)."""
    return sorted(_FAMILY_BOARDS)


class _BoardId(msgspec.Struct):
    id: str  # all a family's board file is read for when its rule set is defined


# Boards of rule families kept outside ``boards/``: id -> (folder, digest of its files).  A
# board is decoded when first loaded, not when its family's module is imported, so a command
# that never plays that family (most of them: every family is imported) does not pay for it.
_FAMILY_BOARDS: dict[str, tuple[Path, str]] = {}


def add_family_board(path: str | os.PathLike[str]) -> str:
    """Make a rule family's own board folder known by its id to ``load_board``, which reads it
    when first asked (a plug-in family ships its board beside its code: ``RuleSet.board_dir``);
    returns the id.

    Raises :class:`BoardError`: ``board_exists`` when another board already has that id,
    ``unknown_board`` without a ``board.json``, ``malformed_board`` when it names no id.
    """
    folder = Path(path)
    try:
        raw = (folder / "board.json").read_bytes()
    except FileNotFoundError:
        raise BoardError("unknown_board", f"No board.json in {str(folder)!r}") from None
    try:
        board_id = msgspec.json.decode(raw, type=_BoardId).id
    except msgspec.DecodeError as e:  # ValidationError included
        raise BoardError("malformed_board", f"{folder / 'board.json'}: {e}") from None
    digest = hashlib.sha256()
    for name in ("board.json", "missions.json", "names.json"):
        if (folder / name).is_file():
            digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    known = _FAMILY_BOARDS.get(board_id)
    clash = known is not None and known[1] != digest.hexdigest()
    if clash or board_id in board_names():
        raise BoardError("board_exists", f"A different board {board_id!r} is already known.")
    _FAMILY_BOARDS[board_id] = (folder, digest.hexdigest())
    return board_id


@functools.cache
def load_board(name: str) -> Board:
    """The board ``name``: a shipped one, or a family's own once its rule set has loaded it
    (cached: boards are immutable); raises :class:`BoardError`."""
    if name in _FAMILY_BOARDS:
        board = load_board_dir(_FAMILY_BOARDS[name][0])
        if board.id != name:  # the folder was rewritten since its family registered it
            raise BoardError("malformed_board", f"The board {name!r} now names {board.id!r}")
        return board
    names = board_names()
    # Checking membership first also keeps names like "../x" from reaching the filesystem.
    if name not in names:
        known = sorted({*names, *_FAMILY_BOARDS})
        hint = _did_you_mean(difflib.get_close_matches(name, known, n=3))
        raise BoardError(
            "unknown_board", f"Unknown board {name!r}.{hint} Known boards: {', '.join(known)}."
        )
    try:
        board = load_board_dir(BOARDS_DIR / name)
    except BoardError as e:
        if e.code != "unknown_section":
            raise
        # A shipped board with a section of a built-in family read before any rule set was
        # asked for (the families register their section types when they are imported).
        from risk_core.rulesets import names as ruleset_names

        ruleset_names()
        board = load_board_dir(BOARDS_DIR / name)
    if board.id != name:
        raise BoardError("malformed_board", f"Folder {name!r} holds board id {board.id!r}")
    return board
