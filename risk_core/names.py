"""Finding a territory by what a player types: its id, an English or French name or an alias,
a unique prefix of one, or an abbreviation word by word (``w us``, ``e aus``, ``greece``).

Pure functions over the names a board lists; :meth:`risk_core.board.Board.find` is the caller.
Matching goes in tiers, each tried only when the one before found nothing:

1. the whole name, ignoring case, accents, punctuation and spaces (``"Afrique du Nord"``);
2. the start of a name (``northwest``, ``tunis``, ``moldavie``);
3. word by word: each word typed is the start of a word of the name, in order, or the initials
   of several consecutive words (``western us``: Western United States); words of the name
   may be left out (``greece``: Bulgaria, Greece & Macedonia).

A tier finding one territory answers; one finding several is an error listing them
(``ambiguous_territory``), never a guess.  When no tier finds anything, the suggestion is
scored word by word in every language the board names (``unknown_territory``).
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from risk_core.board_sections import BoardError

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})
MAX_LISTED = 8  # candidates an ambiguity error names before "and N more"


def _plain(name: str) -> str:
    """``name`` casefolded, ligatures spelt out and accents dropped (they decompose into
    combining marks, which are not alphanumeric)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


MAX_DIGITS = 100  # the longest number a player may type for a seat, a card or a seed


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is ASCII digits (a seat, a card id, a die face, a
    seed typed by a player), else None: then it is a name, or an error the caller words.

    ``str.isdigit`` alone is not enough: it holds for "²" and other digits ``int`` refuses,
    and ``int`` refuses thousands of digits, so either ended in a ValueError's traceback.
    Longer than ``MAX_DIGITS`` digits is no number either: no seat, card or face is that big.
    """
    if len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def listed(names: Iterable[str]) -> str:
    """Names one after the other, for a reader: ", " between them, or "; " when one of them
    holds a comma itself (Napoléon's "Pomerania, Brandenburg & Silesia"), which would else
    read as two."""
    items = list(names)
    return ("; " if any("," in x for x in items) else ", ").join(items)


def normalise_name(name: str) -> str:
    """Lookup key of a name: case, accents, punctuation and spaces do not matter."""
    return "".join(c for c in _plain(name) if c.isalnum())


def name_words(name: str) -> tuple[str, ...]:
    """The words of ``name``, normalised: ``"Royaume d'Italie"`` → royaume, d, italie."""
    plain = "".join(c if c.isalnum() else " " for c in _plain(name))
    return tuple(plain.split())


@dataclass(frozen=True)
class Entry:
    """One name of a territory: the territory's index, the name's key and its words."""

    territory: int
    key: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class NameIndex:
    """Every name of every territory of a board; each territory's id (what a suggestion
    offers to type) and label (how an ambiguity error names it)."""

    entries: tuple[Entry, ...]
    exact: dict[str, int]
    ids: tuple[str, ...]
    labels: tuple[str, ...]


def build_index(names: Sequence[Sequence[str]], labels: Sequence[str]) -> NameIndex:
    """The index of ``names[i]`` (territory ``i``'s id first, then its names and aliases; the
    board checks that no key names two territories) with ``labels[i]`` to name it."""
    entries = tuple(
        Entry(i, normalise_name(name), name_words(name))
        for i, own in enumerate(names)
        for name in own
    )
    exact: dict[str, int] = {}
    for e in entries:
        exact.setdefault(e.key, e.territory)
    return NameIndex(entries, exact, tuple(own[0] for own in names), tuple(labels))


def matches(index: NameIndex, query: str) -> list[int]:
    """The territories ``query`` may mean, in board order, from the first tier that finds any
    (one when it is unambiguous, none when nothing matches)."""
    key = normalise_name(query)
    if not key:
        return []
    found = index.exact.get(key)
    if found is not None:
        return [found]
    prefixed = {e.territory for e in index.entries if e.key.startswith(key)}
    if len(prefixed) == 1:
        return list(prefixed)
    words = name_words(query)
    worded = {e.territory for e in index.entries if _abbreviates(words, e.words)}
    return sorted(prefixed | worded) if prefixed else sorted(worded)


def resolve(index: NameIndex, query: str) -> int:
    """The territory ``query`` names; :class:`BoardError` ``unknown_territory`` (with the
    closest names as a suggestion) or ``ambiguous_territory`` (listing the candidates)."""
    found = matches(index, query)
    if len(found) == 1:
        return found[0]
    if found:
        listed = [index.labels[t] for t in found[:MAX_LISTED]]
        more = len(found) - len(listed)
        if more:
            listed.append(f"{more} more")
        raise BoardError(
            "ambiguous_territory",
            f"{query!r} could be {_or(listed)}: type more of the name.",
        )
    hint = _or([repr(index.ids[t]) for t in suggestions(index, query)])
    did_you_mean = f" Did you mean {hint}?" if hint else ""
    raise BoardError("unknown_territory", f"Unknown territory {query!r}.{did_you_mean}")


def _or(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def _abbreviates(query: Sequence[str], name: Sequence[str]) -> bool:
    """Whether the query's words, in order, are each the start of a word of ``name`` or the
    initials of several consecutive ones; words of ``name`` may be left out."""
    q, n = tuple(query), tuple(name)

    @functools.cache
    def fits(i: int, j: int) -> bool:
        if i == len(q):
            return True
        word = q[i]
        for k in range(j, len(n)):
            if n[k].startswith(word) and fits(i + 1, k + 1):
                return True
            end = k + len(word)
            initials = len(word) > 1 and end <= len(n)
            spelt = initials and all(n[k + m].startswith(c) for m, c in enumerate(word))
            if spelt and fits(i + 1, end):
                return True
        return False

    return bool(q) and fits(0, 0)


def suggestions(index: NameIndex, query: str, n: int = 3) -> list[int]:
    """Up to ``n`` territories whose names are closest to ``query``, best first: each name
    scored as a whole and word by word (the better of the two), any language."""
    key, words = normalise_name(query), name_words(query)
    if not key:
        return []
    best: dict[int, float] = {}
    for e in index.entries:
        score = max(_ratio(key, e.key), _word_score(words, e.words))
        if score > best.get(e.territory, 0.0):
            best[e.territory] = score
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    if not ranked or ranked[0][1] < CUTOFF:
        return []
    top = ranked[0][1]
    return [t for t, s in ranked if s >= CUTOFF and s >= top - MARGIN][:n]


CUTOFF = 0.7  # a suggestion scores at least this …
MARGIN = 0.05  # … and no further below the best one, so a clear winner stands alone


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _word_score(query: Sequence[str], name: Sequence[str]) -> float:
    """How well each typed word matches its best word of the name (a word that starts one, or
    initials of consecutive ones, match fully), averaged over the typed words."""
    if not query or not name:
        return 0.0
    total = 0.0
    for word in query:
        if _abbreviates((word,), name):
            total += 1.0
        else:
            total += max(_ratio(word, w[: max(len(word), 1) + 2]) for w in name)
    return total / len(query)
