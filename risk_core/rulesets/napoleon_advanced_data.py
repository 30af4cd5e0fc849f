"""Risk Napoléon advanced game's board data (rulebooks 000 booklet 2 and 001, NAP-ADV-*).

The advanced game is played on the Napoléon map with its 8 sea zones and 2 maritime routes,
which ``boards/napoleon/board.json`` already declares.  That file's bytes are hashed into every
stored basic game, so the advanced game has its own board folder, ``boards/napoleon/advanced``,
written by ``scripts/make_napoleon_advanced_board.py``: the same map (checked equal by the
tests), the Route des Indes bonus filled in, the sea-zone notes audited, and the sections this
module registers.  Each item is a :class:`~risk_core.board_sections.Fact` that says whether the
rulebooks state it (``verified``) or how it was reconstructed (``note``):

* ``nap_fortifications``: the pool of neutral fortification tokens (NAP-ADV-03, GAP-10);
* ``nap_time_track``: the Époque track, one year per round (NAP-ADV-14, GAP-11);
* ``nap_starting_cards``: territory cards dealt by seat position (NAP-ADV-12, verified);
* ``nap_card_effects``: what each of the 48 territory cards does when played for its effect
  and in which phase window (NAP-ADV-20/26/41, GAP-07);
* ``nap_mission_vp``: the victory points of the mission cards (NAP-ADV-17, GAP-08);
* ``nap_empire_missions``: the Empire missions with their immediate and permanent bonuses
  (NAP-ADV-17, GAP-08);
* ``nap_campaign_1796``: the 1796 campaign's starting position, the six armies and their
  roles (NAP-CAMP-01/03/04, GAP-12), and ``nap_campaign_objectives``: its VP table
  (NAP-CAMP-14, the rulebooks' own).  No rule set reads them yet: the campaign is not built.
"""

from __future__ import annotations

from typing import Literal

from risk_core.board import Board, BoardError, Fact, register_section

# The phase symbol printed on a territory card (NAP-ADV-26, 000 l.766-790, 001 l.107-119).
CardWindow = Literal[
    "reinforce",  # infantry figures: your reinforcement phase
    "own_combat",  # red die: the combat phase of your turn
    "other_combat",  # blue die: the combat phase of another player's turn
    "any_combat",  # red and blue dice: the combat phase of any turn
    "maneuver",  # arrow: your maneuver phase
    "special",  # star: stated on the card
]
# What a card does when played for its effect (a small effect language, GAP-07).
CardEffectKind = Literal[
    "regiments",  # place ``amount`` regiments on your territories
    "ships",  # place ``amount`` ships in a sea zone next to one of your territories
    "attack_bonus",  # +``amount`` to your highest attack die in one battle
    "defence_bonus",  # +``amount`` to your highest defence die in one battle
    "extra_maneuver",  # one more land maneuver this turn
    "move_epidemic",  # move an epidemic to a territory of your choice (NAP-ADV-41)
    "renfort",  # no effect when played; +``amount`` regiments when traded in a set (NAP-ADV-20)
]
EmpireMissionTest = Literal["empire", "capital", "route"]
ArmyRole = Literal["player", "active", "passive"]


class FortificationPool(Fact, frozen=True, forbid_unknown_fields=True):
    """NAP-ADV-22: how many neutral fortification tokens exist; None means no limit."""

    tokens: int | None


class Epoch(Fact, frozen=True, forbid_unknown_fields=True):
    """A space of the time track (NAP-ADV-14): the round and the year printed on it."""

    round: int
    year: int


class StartingCards(Fact, frozen=True, forbid_unknown_fields=True):
    """NAP-ADV-12: territory cards each seat draws, in turn order from the first player."""

    players: int
    cards: tuple[int, ...]


class CardEffect(Fact, frozen=True, forbid_unknown_fields=True):
    """The effect printed on the territory card of ``territory`` (NAP-ADV-26)."""

    territory: str
    window: CardWindow
    effect: CardEffectKind
    amount: int = 1


class MissionVP(Fact, frozen=True, forbid_unknown_fields=True):
    """NAP-ADV-17: the victory points mission ``mission`` (of ``missions.json``) scores."""

    mission: str
    vp: int


class EmpireMission(Fact, frozen=True, forbid_unknown_fields=True):
    """An Empire mission (NAP-ADV-17): its rank, VP, test and bonuses.

    ``test`` is ``empire`` (hold the whole of ``target``), ``capital`` (hold the capital of
    empire ``target``) or ``route`` (hold every zone of maritime route ``target``).
    ``immediate`` regiments are placed when it is accomplished; ``permanent`` regiments are
    added to every later census while the test still holds (the card lies face up).
    """

    id: str
    rank: Literal["caporal", "capitaine", "general", "empereur"]
    text_fr: str
    text_en: str
    test: EmpireMissionTest
    target: str
    vp: int
    immediate: int = 0
    permanent: int = 0


class CampaignArmy(Fact, frozen=True, forbid_unknown_fields=True):
    """One army of the 1796 set-up (NAP-CAMP-01/03): a player's, an active independent or
    the passive neutral, with its regiments, ships, generals and admirals by place."""

    colour: str
    role: ArmyRole
    name_en: str
    regiments: dict[str, int]
    ships: dict[str, int] = {}
    generals: dict[str, int] = {}
    admirals: dict[str, int] = {}


class CampaignObjective(Fact, frozen=True, forbid_unknown_fields=True):
    """A line of the campaign VP table (NAP-CAMP-14): ``kind`` ``control`` (held at the start
    of each of your turns), ``ally`` (1 per ally each turn) or ``invasion`` (the first time);
    ``condition`` is "" or ``before_1809`` or ``allied_to_<side>:<colour>``."""

    side: Literal["french", "english"]
    kind: Literal["control", "ally", "invasion"]
    target: str  # a territory, "maritime_supremacy", "empires", "routes" or "allies"
    vp: int
    condition: str = ""


def check_fortifications(pool: FortificationPool, board: Board) -> None:
    if pool.tokens is not None and pool.tokens < 1:
        raise BoardError("bad_section", "nap_fortifications: tokens must be at least 1 or null")


def check_time_track(track: tuple[Epoch, ...], board: Board) -> None:
    rounds = [e.round for e in track]
    years = [e.year for e in track]
    if rounds != list(range(1, len(track) + 1)) or years != sorted(set(years)):
        raise BoardError("bad_section", "nap_time_track: rounds 1, 2, ... with increasing years")


def check_starting_cards(rows: tuple[StartingCards, ...], board: Board) -> None:
    for row in rows:
        if len(row.cards) != row.players or min(row.cards, default=0) < 0:
            raise BoardError("bad_section", f"nap_starting_cards: {row.players} players")


def check_card_effects(effects: tuple[CardEffect, ...], board: Board) -> None:
    named = [e.territory for e in effects]
    if sorted(named) != sorted(t.id for t in board.territories):
        raise BoardError("bad_section", "nap_card_effects: one effect per territory card")
    if sum(e.effect == "renfort" for e in effects) != 1:
        raise BoardError("bad_section", "nap_card_effects: exactly one Renfort card")
    if any(e.amount < 1 for e in effects):
        raise BoardError("bad_section", "nap_card_effects: amounts are at least 1")


def check_mission_vp(rows: tuple[MissionVP, ...], board: Board) -> None:
    known = {m.id for m in board.missions}
    listed = [r.mission for r in rows]
    if sorted(listed) != sorted(known) or any(r.vp < 1 for r in rows):
        raise BoardError("bad_section", "nap_mission_vp: a positive VP for every mission")


def check_empire_missions(missions: tuple[EmpireMission, ...], board: Board) -> None:
    ids = [m.id for m in missions]
    if len(set(ids)) != len(ids) or set(ids) & {m.id for m in board.missions}:
        raise BoardError("bad_section", "nap_empire_missions: mission ids must be unique")
    routes = {r.id for r in board.routes}
    for m in missions:
        known = routes if m.test == "route" else board.group_index
        if m.target not in known:
            raise BoardError("bad_section", f"Empire mission {m.id!r}: unknown {m.target!r}")
        if m.vp < 1 or m.immediate < 0 or m.permanent < 0:
            raise BoardError("bad_section", f"Empire mission {m.id!r}: negative value")


def check_campaign(armies: tuple[CampaignArmy, ...], board: Board) -> None:
    held = [t for a in armies for t in a.regiments]
    if sorted(held) != sorted(t.id for t in board.territories):
        raise BoardError("bad_section", "nap_campaign_1796: every territory held once")
    roles = sorted(a.role for a in armies)
    if roles != ["active"] * 3 + ["passive"] + ["player"] * 2:
        raise BoardError("bad_section", "nap_campaign_1796: 2 players, 3 active, 1 passive")
    zones = {z.id for z in board.sea_zones}
    fleets = [z for a in armies for z in a.ships]
    if not set(fleets) <= zones or len(set(fleets)) != len(fleets):
        raise BoardError("bad_section", "nap_campaign_1796: one fleet a known sea zone")
    for a in armies:
        if any(n < 1 for n in a.regiments.values()) or not set(a.generals) <= set(a.regiments):
            raise BoardError("bad_section", f"nap_campaign_1796: {a.colour}'s pieces")
        if not set(a.admirals) <= set(a.ships):
            raise BoardError("bad_section", f"nap_campaign_1796: {a.colour}'s admirals")


def check_objectives(rows: tuple[CampaignObjective, ...], board: Board) -> None:
    special = {"maritime_supremacy", "empires", "routes", "allies"}
    for r in rows:
        if r.target not in board.index and r.target not in special:
            raise BoardError("bad_section", f"nap_campaign_objectives: unknown {r.target!r}")


register_section("nap_campaign_1796", tuple[CampaignArmy, ...], check_campaign)
register_section("nap_campaign_objectives", tuple[CampaignObjective, ...], check_objectives)
register_section("nap_fortifications", FortificationPool, check_fortifications)
register_section("nap_time_track", tuple[Epoch, ...], check_time_track)
register_section("nap_starting_cards", tuple[StartingCards, ...], check_starting_cards)
register_section("nap_card_effects", tuple[CardEffect, ...], check_card_effects)
register_section("nap_mission_vp", tuple[MissionVP, ...], check_mission_vp)
register_section("nap_empire_missions", tuple[EmpireMission, ...], check_empire_missions)
