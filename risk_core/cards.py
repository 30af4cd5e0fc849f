"""Cards as their own data, not territory indexes (CORE-01; GAP-07, GAP-17 card data).

A :class:`Card` may name a territory or none, carry a trade symbol or none, stars (Risk 2008),
a deck, a kind (a Clone Wars ship class) and an effect (Napoleon advanced, NAP-ADV-26).  A
board without a ``cards`` section gets the classic deck: card ``i`` is territory ``i`` with the
territory's symbol, then ``jokers`` joker cards, all in deck ``main`` -- the ids every game
recorded so far uses.  A board may instead list its cards in the ``cards`` section of
``board.json``: a list of :class:`CardEntry` with explicit ids ``0..n-1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from risk_core.board_sections import BoardError, Fact, register_section

if TYPE_CHECKING:
    from risk_core.board import Board

JOKER = "joker"
MAIN_DECK = "main"
CARDS_SECTION = "cards"


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card; ``territory`` is a territory index, ``symbol`` None when it has none."""

    id: int
    territory: int | None
    symbol: str | None
    stars: int = 0
    deck: str = MAIN_DECK
    kind: str = ""
    effect: str = ""


class CardEntry(Fact, frozen=True, forbid_unknown_fields=True):
    """A card as listed in ``sections.cards``: the territory by id, or null for none."""

    id: int
    territory: str | None = None
    symbol: str | None = None
    stars: int = 0
    deck: str = MAIN_DECK
    kind: str = ""
    effect: str = ""


def default_cards(territory_symbols: Sequence[str], jokers: int) -> tuple[Card, ...]:
    """The deck of a board without a ``cards`` section: territory cards, then jokers."""
    n = len(territory_symbols)
    return (
        *(Card(id=i, territory=i, symbol=s) for i, s in enumerate(territory_symbols)),
        *(Card(id=n + k, territory=None, symbol=JOKER) for k in range(jokers)),
    )


def check_cards(entries: tuple[CardEntry, ...], board: Board) -> None:
    """Ids are 0..n-1 and unique, territories exist, stars >= 0, decks named, jokers agree.

    Raises :class:`BoardError`: ``duplicate_card``, ``bad_cards``, ``unknown_territory``.
    """
    seen: set[int] = set()
    for e in entries:
        if e.id in seen:
            raise BoardError("duplicate_card", f"Card id {e.id} is listed twice")
        seen.add(e.id)
        if e.territory is not None and e.territory not in board.index:
            raise BoardError(
                "unknown_territory", f"Card {e.id} names unknown territory {e.territory!r}"
            )
        if e.stars < 0:
            raise BoardError("bad_cards", f"Card {e.id} has {e.stars} stars")
        if not e.deck:
            raise BoardError("bad_cards", f"Card {e.id} has an empty deck name")
    if seen != set(range(len(entries))):
        raise BoardError("bad_cards", f"Card ids must be 0..{len(entries) - 1} without gaps")
    jokers = Counter(e.symbol for e in entries)[JOKER]
    if jokers != board.jokers:
        raise BoardError(
            "bad_cards", f"Board declares {board.jokers} jokers but its cards have {jokers}"
        )


def cards_from_entries(entries: tuple[CardEntry, ...], index: dict[str, int]) -> tuple[Card, ...]:
    """Checked entries as :class:`Card` values, in id order, territories as indexes."""
    return tuple(
        Card(
            id=e.id,
            territory=None if e.territory is None else index[e.territory],
            symbol=e.symbol,
            stars=e.stars,
            deck=e.deck,
            kind=e.kind,
            effect=e.effect,
        )
        for e in sorted(entries, key=lambda e: e.id)
    )


register_section(CARDS_SECTION, tuple[CardEntry, ...], check_cards)
