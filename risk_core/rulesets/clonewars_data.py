"""The Clone Wars board data (rulebook 002): the sections of ``boards/clonewars/board.json``.

The galaxy itself (42 planets in 6 systems, borders and hyperspace lanes, CW-01, GAP-15/16) is
the board's core schema; edges of kind ``lane`` are the hyperspace lanes.  What Clone Wars adds
lives in sections registered here, each item a :class:`~risk_core.board_sections.Fact` saying
whether rulebook 002 states it (``verified``) or how it was reconstructed (``note``):

* ``cards`` (the core's section): the 60 faction cards, 30 per deck (``republic``,
  ``separatist``), each with its ship class as ``kind`` and trade ``symbol`` (CW-14, GAP-17);
* ``cw_anakin_cards``: which cards show Anakin (CW-15, CW-STD-02; GAP-17);
* ``cw_tokens``: the 9 Separatist tokens and their red dots (CW-17/30/36; GAP-18);
* ``cw_order66_track``: the d8 faces that convert a planet on each space (CW-18/38; GAP-19,
  DEC-35 placeholder).

Every rule set of the family imports this module, so the board loads wherever one is known.
"""

from __future__ import annotations

from risk_core.board import Board, BoardError, Fact, register_section

SHIP_CLASSES = ("fighter", "corvette", "capital")  # CW-04, the three classes on the cards
FACTION_DECKS = ("republic", "separatist")  # CW-02: 30 cards each


class AnakinCard(Fact, frozen=True, forbid_unknown_fields=True):
    """A faction card showing Anakin (CW-15; removed from the standard game, CW-STD-02)."""

    card: int


class SeparatistToken(Fact, frozen=True, forbid_unknown_fields=True):
    """A Separatist leader or plan token and the red dots (extra cards) it is worth (CW-36)."""

    id: str
    name: str
    dots: int


class TrackSpace(Fact, frozen=True, forbid_unknown_fields=True):
    """A space of the Order 66 track: the d8 faces that convert a Republic planet (CW-38)."""

    space: int
    faces: tuple[int, ...]


def check_faction_cards(entries: tuple[AnakinCard, ...], board: Board) -> None:
    """Each Anakin card is a faction card, listed once."""
    cards = [e.card for e in entries]
    if len(set(cards)) != len(cards) or any(not 0 <= c < len(board.cards) for c in cards):
        raise BoardError("bad_section", "cw_anakin_cards: unknown or repeated card")
    for c in board.cards:
        if c.deck not in FACTION_DECKS or c.kind not in SHIP_CLASSES or c.symbol != c.kind:
            raise BoardError(
                "bad_cards", f"Card {c.id}: a faction deck and a ship class as its symbol"
            )


def check_tokens(tokens: tuple[SeparatistToken, ...], board: Board) -> None:
    if len({t.id for t in tokens}) != len(tokens) or any(t.dots not in (1, 2) for t in tokens):
        raise BoardError("bad_section", "cw_tokens: distinct ids, 1 or 2 red dots each")


def check_track(spaces: tuple[TrackSpace, ...], board: Board) -> None:
    if [s.space for s in spaces] != list(range(1, len(spaces) + 1)):
        raise BoardError("bad_section", "cw_order66_track: spaces 1, 2, 3... in order")
    for s in spaces:
        if any(not 1 <= f <= 8 for f in s.faces) or len(set(s.faces)) != len(s.faces):
            raise BoardError("bad_section", f"cw_order66_track: space {s.space} faces not d8")


register_section("cw_anakin_cards", tuple[AnakinCard, ...], check_faction_cards)
register_section("cw_tokens", tuple[SeparatistToken, ...], check_tokens)
register_section("cw_order66_track", tuple[TrackSpace, ...], check_track)


def anakin_cards(board: Board) -> frozenset[int]:
    """Ids of the cards showing Anakin (CW-15)."""
    entries: tuple[AnakinCard, ...] = board.section("cw_anakin_cards") or ()
    return frozenset(e.card for e in entries)
