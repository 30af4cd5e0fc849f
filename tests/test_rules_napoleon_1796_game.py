"""NAP-CAMP-01..17 in play: the ``napoleon-1796`` rule set, positions set from scenario files
through the command line (``risk``) where it can express them, the engine otherwise.  Each
test cites the rule it checks.  Seats: 0 French (Fra), 1 English (Eng), 2 Austrians,
3 Prussians, 4 Russians, 5 the passive neutral (see ``tests/napoleon_1796_kit.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import risk_core as rc
from risk_core.bots import self_play
from risk_core.errors import SetupError
from risk_core.model import Attack, EndTurn, Occupy
from risk_core.rulesets.napoleon_2p import GiveCard
from risk_core.rulesets.napoleon_1796_rules import armies as campaign_armies
from tests.napoleon_1796_kit import (
    AUS,
    BOARD,
    ENG,
    FRA,
    NEU,
    PRU,
    RUS,
    Run,
    card_of,
    cli_game,
    doc,
    engine_game,
    error,
    events,
    fam,
    kinds,
    step,
    view,
)


def seat_of(v: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in v["players"] if p["seat"] == seat)


def armies_at(v: dict[str, Any], t: str) -> tuple[int, int]:
    held = v["territories"][t]
    return held["owner"], held["armies"]


# ------------------------------------------------------------------ NAP-CAMP-01/03/04/05/06
def test_nap_camp_01_03_sides_and_armies_of_a_new_game() -> None:
    """NAP-CAMP-01 (DEC-07): the French player is blue, the English red; NAP-CAMP-03: white
    Austrians, black Prussians, green Russians (active), yellow passive neutral."""
    st = rc.replay(rc.start("napoleon-1796", ["Ann", "Bob"], seed=3))
    seats = [(p.name, p.colour, p.neutral) for p in st.players]
    assert seats == [
        ("Ann", "blue", False),
        ("Bob", "red", False),
        ("Austrians", "white", True),
        ("Prussians", "black", True),
        ("Russians", "green", True),
        ("Neutrals", "yellow", True),
    ]
    with pytest.raises(SetupError):
        rc.start("napoleon-1796", ["Ann", "Bob", "Cy"], seed=3)


def test_nap_camp_04_06_set_up_alliances_and_first_player() -> None:
    """NAP-CAMP-04: the set-up diagram's position (GAP-12 data), no mission, 4 epidemics;
    NAP-CAMP-06: Austrians and Prussians allied to the English with one card each under
    their cannon, the Russians neutral, the French first."""
    opening = rc.start("napoleon-1796", ["Ann", "Bob"], seed=3)
    st = rc.replay(opening)
    for colour, army in campaign_armies(BOARD).items():
        seat = next(i for i, p in enumerate(st.players) if p.colour == colour)
        for t, k in army.regiments.items():
            assert (st.owner[BOARD.index[t]], st.armies[BOARD.index[t]]) == (seat, k)
    f = fam(st)
    assert f.ally_of == (None, None, ENG, ENG, None, None)
    assert [len(p.hand) for p in st.players] == [0, 0, 1, 1, 0, 0]
    assert sum(f.epidemics) == 4 and f.missions == ((),) * 6
    assert f.generals[BOARD.index["provence"]] == 1
    assert st.current == FRA and st.turn == 1 and st.round == 1
    no_epidemics = rc.replay(
        rc.start("napoleon-1796", ["Ann", "Bob"], seed=3, options={"start_epidemics": False})
    )
    assert sum(fam(no_epidemics).epidemics) == 0


def test_nap_camp_06_influence_cards_are_hidden(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-06: the cards under the cannons are drawn unseen: neither player's view nor
    log shows them (only how many there are)."""
    risk("new", "--rules", "napoleon-1796", "--players", "Ann,Bob", "--seed", "5", "--id", "g1")
    st = rc.replay(rc.start("napoleon-1796", ["Ann", "Bob"], seed=5))
    secret = {st.players[AUS].hand[0], st.players[PRU].hand[0]}
    for who in ("Ann", "Bob"):
        v = view(risk, "g1", who)
        assert seat_of(v, AUS)["cards"] == 1 and not seat_of(v, AUS).get("hand")
        logged = json.dumps(events(risk, "g1", who))
        opened = next(e for e in events(risk, "g1", who) if e["type"] == "campaign_opened")
        assert opened["influence"] == [0, 0, 1, 1, 0, 0]
        assert all(f'"card": {c}' not in logged for c in secret)


def test_nap_camp_05_length_option(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-05 (DEC-06): 5 rounds by default, 8 or 9 as an option, nothing else."""
    assert view(risk, cli_game(risk, tmp_path))["round_limit"] == 5
    for rounds in (8, 9):
        game = cli_game(risk, tmp_path, options={"rounds": rounds})
        assert view(risk, game)["round_limit"] == rounds
    with pytest.raises(SetupError):
        rc.start("napoleon-1796", ["Ann", "Bob"], seed=1, options={"rounds": 6})


def test_nap_camp_06_influence_lock_counts_the_starting_card(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-06 with NAP-2PA-03/04: the starting card counts toward the 3-card lock: the
    French win the Austrians over in two gifts (English ally -> neutral -> French ally),
    then the Austrians take no more cards; the passive neutral takes none (NAP-CAMP-03)."""
    hand = ["castille", "portugal", "andalousie", "norvege", "finlande"]
    game = cli_game(
        risk, tmp_path, hands={"Fra": hand, "Austrians": ["laponie"]}, phase="reinforce"
    )
    assert view(risk, game)["phase"] == "influence"
    assert error(risk, "give", game, "Neutrals", "castille") == "not_independent"
    risk("give", game, "Austrians", "castille")
    assert seat_of(view(risk, game), AUS)["ally_of"] is None
    risk("give", game, "Austrians", "portugal")
    assert seat_of(view(risk, game), AUS)["ally_of"] == FRA
    assert error(risk, "give", game, "Prussians", "joker") == "not_in_hand"
    risk("give", game, "Prussians", "andalousie")  # a second independent is free
    risk("give", game, "Prussians", "norvege")
    v = view(risk, game)
    assert seat_of(v, AUS)["cards"] == 3
    assert error(risk, "give", game, "Austrians", "finlande") == "influence_locked"
    # given face down: the English log shows that a card changed hands, not which
    gifts = [e for e in events(risk, game, "Eng") if e["type"] == "card_given"]
    assert len(gifts) == 4 and all(e["card"] is None for e in gifts)
    own = [e["card"] for e in events(risk, game, "Fra") if e["type"] == "card_given"]
    assert own == [card_of(t) for t in hand[:4]]


def test_nap_camp_06_lock_refuses_a_fourth_card() -> None:
    """NAP-2PA-04 (NAP-CAMP-06): an independent holding 3 cards accepts no more."""
    st, _ = engine_game(
        hands={"Fra": ["castille"], "Russians": ["laponie", "norvege", "finlande"]},
        allies={},
    )
    assert st.phase == "influence"
    with pytest.raises(rc.RuleError) as e:
        rc.decide(st, GiveCard(seat=FRA, independent=RUS, card=card_of("castille")))
    assert e.value.code == "influence_locked"


# ------------------------------------------------------------------ NAP-CAMP-07/08
def test_nap_camp_07_capital_half_bonus(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-07 (DEC-32a): the French hold Île de France but not the whole Empire (bonus 8):
    max(3, 7 // 3) + ceil(8 / 2) = 7; without Île de France, 3; the English hold the whole
    United Kingdom (bonus 2): the larger, 2, or both with half_bonus=add."""
    assert view(risk, cli_game(risk, tmp_path))["reserve"] == 3 + 4
    lost = cli_game(risk, tmp_path, owners={"ile_de_france": AUS})
    assert view(risk, lost)["reserve"] == 3
    eng = cli_game(risk, tmp_path, current=ENG)
    assert view(risk, eng)["reserve"] == 3 + 2
    add = cli_game(risk, tmp_path, current=ENG, options={"half_bonus": "add"})
    assert view(risk, add)["reserve"] == 3 + 2 + 1


def test_nap_camp_08_allied_income(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-08: an ally receives its territory count's income and its capital or empire
    bonus, placed by its player after his own: the Russians (7 territories, the whole
    Russian Empire, bonus 6) receive 3 + 6 = 9; a neutral independent receives nothing."""
    game = cli_game(risk, tmp_path, allies={"Russians": "Fra"})
    risk("place", game, "provence", "7")
    v = view(risk, game)
    assert v["phase"] == "ally_reinforce"
    assert error(risk, "reinforce-ally", game, "Austrians") == "not_ally"
    risk("reinforce-ally", game, "Russians")
    assert view(risk, game)["phase"] == "ally_place"
    assert error(risk, "place", game, "provence", "1") == "not_owner"
    assert error(risk, "place", game, "grande_russie", "10") == "not_enough_armies"
    risk("place", game, "grande_russie", "9")
    v = view(risk, game)
    assert armies_at(v, "grande_russie") == (RUS, 5 + 9) and v["phase"] == "attack"
    income = next(e for e in events(risk, game) if e["type"] == "allied_income")
    assert income["count"] == 9 and income["bonus"] == 6
    alone = cli_game(risk, tmp_path, allies={})
    risk("place", alone, "provence", "7")
    assert view(risk, alone)["phase"] == "attack"


def test_nap_camp_08_an_ally_holding_another_empire_gets_its_bonus(
    risk: Run, tmp_path: Path
) -> None:
    """NAP-CAMP-08 ("les bonus de capitales et/ou d'Empires"): an ally holding a whole empire
    besides its own receives that empire's bonus too: the Austrians, with Naples and so the
    whole Italian protectorates, get their own empire's part and Italy's bonus."""
    italy = BOARD.groups[BOARD.group_index["protectorats_italiens"]].bonus
    game = cli_game(risk, tmp_path, owners={"royaume_de_naples": AUS}, current=ENG, turn=2)
    risk("place", game, "angleterre", str(view(risk, game)["reserve"]))
    risk("reinforce-ally", game, "Austrians")
    income = next(e for e in events(risk, game) if e["type"] == "allied_income")
    alone = cli_game(risk, tmp_path, current=ENG, turn=2)
    risk("place", alone, "angleterre", str(view(risk, alone)["reserve"]))
    risk("reinforce-ally", alone, "Austrians")
    before = next(e for e in events(risk, alone) if e["type"] == "allied_income")
    assert income["bonus"] == before["bonus"] + italy and italy > 0
    assert income["count"] - before["count"] == italy + (
        max(3, income["territories"] // 3) - max(3, before["territories"] // 3)
    )


def test_nap_camp_16_an_allys_conquest_draws_the_player_no_card(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-16 with NAP-2PA-08/13 (NAP-ADV-43a): a conquest made with an ally's regiments
    leaves the territory the ally's and draws its player no card at the end of the turn; the
    same conquest with the player's own regiments draws one."""
    drawn = []
    for attacker in (RUS, FRA):
        game = cli_game(
            risk,
            tmp_path,
            owners={"ukraine": attacker, "moldavie_valachie": NEU},
            armies={"ukraine": 10, "moldavie_valachie": 1},
            allies={"Austrians": "Eng", "Prussians": "Eng", "Russians": "Fra"},
            phase="attack",
            dice=[6, 6, 6, 1, 5],
        )
        risk("attack", game, "ukraine", "moldavie_valachie", "--dice", "3", "--move", "3")
        assert armies_at(view(risk, game), "moldavie_valachie")[0] == attacker
        risk("end", game)  # the attacks, then the maneuvers: the turn ends, its cards drawn
        risk("end-phase", game)
        drawn.append(sum(1 for e in events(risk, game) if e["type"] == "card_drawn"))
    assert drawn[0] == 0 and drawn[1] >= 1, drawn


# ------------------------------------------------------------------ NAP-CAMP-09/10
def conquest(**kw: Any) -> Any:
    """The French attack from ``hongrie`` (10) into ``transylvanie`` (1, Austrian) and win:
    3 sixes against a 1; the rest of ``dice`` are the status dice."""
    owners = {"hongrie": FRA, **kw.pop("owners", {})}
    armies = {"hongrie": 10, "transylvanie": 1, **kw.pop("armies", {})}
    st, _ = engine_game(owners=owners, armies=armies, phase="attack", **kw)
    st, evs = step(st, Attack(seat=FRA, origin="hongrie", target="transylvanie", dice=3))
    st, more = step(st, Occupy(seat=FRA, count=3))
    return st, evs + more


@pytest.mark.parametrize(("die", "neutral"), [(6, True), (5, False)])
def test_nap_camp_09_english_ally_that_loses_rolls_six(die: int, neutral: bool) -> None:
    """NAP-CAMP-09 (DEC-32c): the Austrians, English allies, lose Transylvania: 1d6, neutral
    on a 6 (no 2PA-09 die for them)."""
    st, evs = conquest(dice=[6, 6, 6, 1, die])
    rolled = [e for e in evs if type(e).__name__ == "StabilityRolled"]
    assert len(rolled) == 1 and rolled[0].face == die and rolled[0].leaders == 0
    assert "StatusRolled" not in kinds(evs)
    assert fam(st).ally_of[AUS] == (None if neutral else ENG)


def test_nap_camp_09_captured_leaders_add_to_the_roll() -> None:
    """NAP-CAMP-09: +1 to the roll per general or admiral captured in that invasion: a 5 and
    the Austrian general taken in Transylvania make 6."""
    st, evs = conquest(dice=[6, 6, 6, 1, 5], family={"generals": {"transylvanie": 1}})
    assert "LeadersCaptured" in kinds(evs)
    rolled = next(e for e in evs if type(e).__name__ == "StabilityRolled")
    assert (rolled.face, rolled.leaders, rolled.ally_of) == (5, 1, None)
    assert fam(st).ally_of[AUS] is None


def test_nap_camp_09_english_ally_that_wins_does_not_roll() -> None:
    """NAP-CAMP-09: no die for an English ally after a combat it did not lose: the
    Austrians take a French territory in the English turn."""
    st, _ = engine_game(
        owners={"galicie": FRA},
        armies={"hongrie": 10, "galicie": 1},
        current=ENG,
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    st, evs = step(st, Attack(seat=ENG, origin="hongrie", target="galicie", dice=3))
    st, more = step(st, Occupy(seat=ENG, count=3))
    assert "StabilityRolled" not in kinds(evs + more) and "StatusRolled" not in kinds(evs + more)
    assert fam(st).ally_of[AUS] == ENG and st.owner[BOARD.index["galicie"]] == AUS


def test_nap_camp_09_french_side_uses_the_2pa_09_die() -> None:
    """NAP-CAMP-09 (DEC-32f): the French player's allies roll NAP-2PA-09's die: the
    Russians, French allies, attack the neutral's Moldavia; a 3 takes them one step away
    (neutral)."""
    st, _ = engine_game(
        allies={"Russians": "Fra"},
        armies={"ukraine": 10, "moldavie_valachie": 1},
        phase="attack",
        dice=[6, 6, 6, 1, 3],
    )
    st, evs = step(st, Attack(seat=FRA, origin="ukraine", target="moldavie_valachie", dice=3))
    st, more = step(st, Occupy(seat=FRA, count=3))
    rolled = [e for e in evs + more if type(e).__name__ == "StatusRolled"]
    assert [(e.independent, e.face, e.ally_of) for e in rolled] == [(RUS, 3, None)]


def test_nap_camp_10_capital_invasion_and_realliance(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-10 (DEC-32d): the French take Vienna (Austria & Bohemia) from the Austrians,
    English allies: they turn neutral at once; a card makes them French allies: the French
    regiments withdraw to Bavaria and 3 Austrian regiments hold the capital, the card under
    their cannon, hidden from the English."""
    game = cli_game(
        risk,
        tmp_path,
        owners={"wurtemberg_baviere": FRA},
        armies={"wurtemberg_baviere": 10, "pays_austro_bohemiens": 1},
        hands={"Fra": ["castille", "portugal"]},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    assert error(risk, "realliance", game, "castille", "wurtemberg_baviere") == "no_realliance"
    risk("attack", game, "wurtemberg_baviere", "pays_austro_bohemiens", "--dice", "3")
    risk("occupy", game, "3")
    # Any card of the hand may pay for it: `risk moves` offers each (it offered the first).
    offered = json.loads(risk("moves", game, "--json").stdout)["moves"]["other"]["really"]
    cards = {c for entry in offered for c in _cards_of(entry["card"])}
    assert cards == {card_of("castille"), card_of("portugal")}
    v = view(risk, game)
    assert seat_of(v, AUS)["ally_of"] is None
    assert v["campaign"]["realliance"] == "pays_austro_bohemiens"
    assert error(risk, "realliance", game, "castille", "ile_de_france") == "not_adjacent"
    assert error(risk, "realliance", game, "castille", "hongrie") == "not_owner"
    risk("realliance", game, "castille", "wurtemberg_baviere")
    v = view(risk, game)
    assert seat_of(v, AUS)["ally_of"] == FRA and seat_of(v, AUS)["cards"] == 1
    assert armies_at(v, "pays_austro_bohemiens") == (AUS, 3)
    assert armies_at(v, "wurtemberg_baviere") == (FRA, 7 + 3)
    logged = events(risk, game, "Eng")
    fell = next(e for e in logged if e["type"] == "capital_fell")
    assert fell["was_ally_of"] == ENG
    assert next(e for e in logged if e["type"] == "reallied")["card"] is None
    assert next(e for e in events(risk, game, "Fra") if e["type"] == "reallied")["card"] == (
        card_of("castille")
    )
    # the new ally may attack at once (NAP-CAMP-10): Austrian regiments are the mover's
    assert view(risk, game)["phase"] == "attack"


def _cards_of(value: int | list[int]) -> range:
    """A `risk moves --json` card field: one card, or a run of them as [low, high]."""
    low, high = (value, value) if isinstance(value, int) else value
    return range(low, high + 1)


# ------------------------------------------------------------------ NAP-CAMP-11/12/15/16
def ended(risk: Run, tmp_path: Path, **kw: Any) -> str:
    """A French turn in the attack phase with the Russians and Prussians allied, ended."""
    game = cli_game(
        risk,
        tmp_path,
        allies={"Russians": "Fra", "Prussians": "Fra"},
        phase="attack",
        **kw,
    )
    risk("end", game)
    return game


def test_nap_camp_03_10_the_powers_named_in_the_plural_take_a_plural_verb(
    risk: Run, tmp_path: Path
) -> None:
    """NAP-CAMP-03/10 in the log: the Austrians lose, leave and turn neutral, become an
    ally ("Austrians loses 1" read wrong); the players' own names keep the singular."""
    game = cli_game(
        risk,
        tmp_path,
        owners={"wurtemberg_baviere": FRA},
        armies={"wurtemberg_baviere": 10, "pays_austro_bohemiens": 2},
        hands={"Fra": ["castille"]},
        phase="attack",
        dice=[6, 6, 1, 6, 1, 6, 6, 6, 1],
    )
    for _ in range(2):
        risk("attack", game, "wurtemberg_baviere", "pays_austro_bohemiens", "--dice", "3")
    risk("occupy", game, "3")
    risk("realliance", game, "castille", "wurtemberg_baviere")
    text = risk("log", game).stdout
    for said in (
        "6-6-1 against 6-1; Fra loses 1 and Austrians lose 1.",
        "Austria & Bohemia has fallen: Austrians leave Eng and turn neutral.",
        ": Austrians become Fra's ally; 3 regiments withdraw",
    ):
        assert said in text, said
    assert "Austrians loses" not in text and "Austrians leaves" not in text


def test_nap_camp_11_annex_an_allys_territory(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-11/15: at the end of the turn, one ally's territory (not a capital) becomes
    the player's with the same regiments; that ally turns neutral; one a turn (the step
    stays open for a neutral's territory, a card in hand; it closes by itself when nothing
    is left to annex)."""
    game = ended(risk, tmp_path, hands={"Fra": ["castille"]})
    v = view(risk, game)
    assert v["phase"] == "annex" and v["to_act"] == FRA
    assert error(risk, "annex", game, "grande_russie") == "annex_capital"
    assert error(risk, "annex", game, "galicie") == "not_annexable"  # an English ally's
    risk("annex", game, "ukraine")
    v = view(risk, game)
    assert armies_at(v, "ukraine") == (FRA, 2) and seat_of(v, RUS)["ally_of"] is None
    assert error(risk, "annex", game, "prusse") == "one_per_turn"
    assert error(risk, "end", game) == "wrong_phase"
    risk("end-phase", game)
    assert view(risk, game)["to_act"] == ENG
    alone = ended(risk, tmp_path)  # no card: the one ally annexation ends the turn
    risk("annex", alone, "ukraine")
    assert view(risk, alone)["to_act"] == ENG


def test_nap_camp_12_annex_a_neutral_territory_for_a_card(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-12/15: a passive neutral's territory for a discarded card, one a turn."""
    game = ended(risk, tmp_path, hands={"Fra": ["castille", "portugal"]})
    assert error(risk, "annex", game, "egypte", "castille") == "annex_capital"
    assert error(risk, "annex", game, "syrie") == "card_required"
    risk("annex", game, "syrie", "castille")
    v = view(risk, game)
    assert armies_at(v, "syrie") == (FRA, 2)
    assert [c["id"] for c in seat_of(view(risk, game, "Fra"), FRA)["hand"]] == [card_of("portugal")]
    assert error(risk, "annex", game, "anatolie", "portugal") == "one_per_turn"


def test_nap_camp_13_english_defence_force(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-13/15: 5 regiments stay in each English UK territory: England (7) attacks
    with 2 dice at most, a maneuver may take 2, and a conquest moves in only 2; with 5
    there, no attack at all."""
    game = cli_game(
        risk,
        tmp_path,
        current=ENG,
        phase="attack",
        armies={"angleterre": 7, "ile_de_france": 1},
        dice=[6, 6, 1],
    )
    assert error(risk, "attack", game, "angleterre", "ile_de_france", "--dice", "3") == (
        "defence_force"
    )
    risk("attack", game, "angleterre", "ile_de_france", "--dice", "2")
    v = view(risk, game)
    assert armies_at(v, "ile_de_france") == (ENG, 2) and armies_at(v, "angleterre") == (ENG, 5)
    assert error(risk, "fortify", game, "angleterre", "ecosse", "1") == "defence_force"
    five = cli_game(risk, tmp_path, current=ENG, phase="attack")
    assert view(risk, five)["territories"]["ecosse"]["armies"] == 5
    assert error(risk, "attack", five, "ecosse", "norvege") == "defence_force"
    assert error(risk, "fortify", five, "angleterre", "irlande", "2") == "defence_force"
    risk("fortify", five, "angleterre", "irlande", "1")


@pytest.mark.parametrize(("regiments", "said"), [(9, "moving in 3 armies (up to 4)."), (8, "")])
def test_nap_camp_13_a_conquest_says_the_most_the_defence_force_lets_move_in(
    risk: Run, tmp_path: Path, regiments: int, said: str
) -> None:
    """NAP-CAMP-13: a conquest from England, which keeps 5, says it may move in the regiments
    above 5 (4 of 9), not all but 1; with 8, the 3 dice thrown are all that may move in, and
    nothing is left to choose."""
    game = cli_game(
        risk,
        tmp_path,
        current=ENG,
        phase="attack",
        owners={"ecosse": FRA},
        armies={"angleterre": regiments, "ecosse": 1},
        dice=[6, 6, 6, 1],
    )
    risk("attack", game, "angleterre", "ecosse", "--dice", "3")
    conquered = next(e for e in events(risk, game) if e["type"] == "conquered")
    assert (conquered["min"], conquered["max"]) == (3, regiments - 5 if said else 3)
    line = next(x for x in risk("log", game).stdout.splitlines() if "conquers" in x)
    assert line.endswith(said or "moving in 3 armies.")
    assert view(risk, game)["phase"] == ("occupy" if said else "attack")


def test_nap_camp_16_the_turn_in_order(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-16: influence, own reinforcement, allied income and placement, combat and
    maneuvers, then (after the epidemics) annexations, card draws, the next player."""
    game = cli_game(
        risk,
        tmp_path,
        allies={"Russians": "Fra", "Austrians": "Eng"},
        hands={"Fra": ["castille", "laponie"]},
    )
    seen = [view(risk, game)["phase"]]
    risk("give", game, "Austrians", "castille")  # English ally -> neutral
    risk("end-phase", game)
    seen.append(view(risk, game)["phase"])
    risk("place", game, "provence", "7")
    seen.append(view(risk, game)["phase"])
    risk("reinforce-ally", game, "Russians")
    seen.append(view(risk, game)["phase"])
    risk("place", game, "grande_russie", "9")
    seen.append(view(risk, game)["phase"])
    risk("ally-move", game, "grande_russie", "ukraine", "4")
    assert error(risk, "ally-move", game, "ukraine", "caucase", "1") == "maneuver_done"
    risk("end", game)
    seen.append(view(risk, game)["phase"])
    risk("end-phase", game)
    v = view(risk, game)
    assert seen == ["influence", "reinforce", "ally_reinforce", "ally_place", "attack", "annex"]
    assert v["to_act"] == ENG and v["turn"] == 2
    assert armies_at(v, "ukraine") == (RUS, 2 + 4)


# ------------------------------------------------------------------ NAP-CAMP-14/02
def test_nap_camp_14_objectives_at_the_start_of_a_turn(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-14: at the start of his turn the English player scores England 1, maritime
    supremacy 1 (DEC-32b: more sea zones) and 1 per ally (2), besides the United Kingdom's
    empire VP (2)."""
    game = cli_game(risk, tmp_path, phase="attack", family={"ships": {"mer_du_nord": {"Eng": 2}}})
    risk("end", game)  # (no French annexation to make: straight to the English turn)
    v = view(risk, game)
    assert v["to_act"] == ENG
    scored = next(e for e in events(risk, game) if e["type"] == "objectives_scored")
    assert scored["vp"] == 4 and scored["detail"] == [
        "angleterre",
        "maritime_supremacy",
        "allies:2",
    ]
    assert seat_of(v, ENG)["vp"] == 4 + 2


@pytest.mark.parametrize(
    ("round", "scored", "vp"), [(1, [], 5), (4, [], 0), (1, ["french:egypte"], 0)]
)
def test_nap_camp_14_egypt_invasion_before_1809(round: int, scored: list[str], vp: int) -> None:
    """NAP-CAMP-14 (DEC-32e, GAP-11): the French score 5 VP the first time they invade
    Egypt before 1809 (round 4 is 1809 on the time track); only once."""
    st, _ = engine_game(
        owners={"syrie": FRA},
        armies={"syrie": 10, "egypte": 1},
        phase="attack",
        round=round,
        turn=2 * round - 1,
        family={"scored": scored},
        dice=[6, 6, 6, 1],
    )
    st, evs = step(st, Attack(seat=FRA, origin="syrie", target="egypte", dice=3))
    got = [e.vp for e in evs if type(e).__name__ == "InvasionScored"]
    assert got == ([vp] if vp else [])
    assert fam(st).vp[FRA] == vp


def test_nap_camp_14_capital_invasion_scores_if_allied_to_the_other_side() -> None:
    """NAP-CAMP-14: Austria & Bohemia is worth 5 to the French if Austria is allied to the
    English at the moment of the invasion (it turns neutral right after)."""
    st, _ = engine_game(
        owners={"wurtemberg_baviere": FRA},
        armies={"wurtemberg_baviere": 10, "pays_austro_bohemiens": 1},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    st, evs = step(
        st, Attack(seat=FRA, origin="wurtemberg_baviere", target="pays_austro_bohemiens", dice=3)
    )
    assert kinds(evs).index("InvasionScored") < kinds(evs).index("CapitalFell")
    assert fam(st).vp[FRA] == 5


def test_nap_camp_02_most_vp_after_the_last_round(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-02/05: the game ends after the English player's 5th turn (the French play
    first); the most VP win, ranked with the advanced game's final ranking."""
    game = cli_game(
        risk, tmp_path, phase="attack", turn=9, round=5, family={"vp": {"Fra": 30, "Eng": 10}}
    )
    risk("end", game)
    v = view(risk, game)
    assert v["to_act"] == ENG and v["round"] == 5
    risk("place", game, "angleterre", str(v["reserve"]))
    risk("end-phase", game)  # no allied income this time
    risk("end", game)
    risk("end-phase", game)  # no annexation
    v = view(risk, game)
    assert v["phase"] == "over" and v["winner"] == FRA
    assert v["ranking"] == [[FRA], [ENG]]


def test_nap_camp_06_a_scenario_in_the_english_turn_keeps_the_french_first(
    risk: Run, tmp_path: Path
) -> None:
    """NAP-CAMP-06 ("The French player plays first"): a scenario starting in the English
    player's turn of the last round ends the game with that turn; the French get no sixth."""
    game = cli_game(
        risk,
        tmp_path,
        current=ENG,
        phase="attack",
        turn=10,
        round=5,
        family={"vp": {"Fra": 10, "Eng": 10}},
    )
    risk("end", game)
    risk("end-phase", game)  # no annexation
    v = view(risk, game)
    assert v["phase"] == "over" and v["round"] == 5, (v["phase"], v["round"], v["to_act"])
    assert not any(e["type"] == "turn_started" and e["turn"] == 11 for e in events(risk, game))


def test_nap_camp_02_equal_vp_go_to_the_advanced_ranking(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-02 with DEC-30: equal VP are ranked by regiments in play; the first place is
    the recorded winner (here the English, with more regiments)."""
    game = cli_game(
        risk,
        tmp_path,
        phase="attack",
        turn=9,
        round=5,
        family={"vp": {"Fra": 20, "Eng": 20}},
        armies={"angleterre": 30},
    )
    risk("end", game)
    v = view(risk, game)
    risk("place", game, "angleterre", str(v["reserve"]))
    risk("end-phase", game)
    risk("end", game)
    risk("end-phase", game)
    v = view(risk, game)
    assert v["phase"] == "over" and v["ranking"] == [[ENG], [FRA]] and v["winner"] == ENG


def test_nap_camp_15_forbidden_moves(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-15: no mission cards; no annexed capital; one annexation of each kind a turn;
    no English voluntary move leaving fewer than 5 in a UK territory."""
    game = ended(risk, tmp_path, hands={"Fra": ["castille", "portugal"]})
    for who in ("Fra", "Eng"):
        assert "missions" not in seat_of(view(risk, game, who), FRA if who == "Fra" else ENG)
    assert error(risk, "annex", game, "pomeranie_brandebourg_silesie") == "annex_capital"
    risk("annex", game, "prusse")
    assert error(risk, "annex", game, "ukraine") == "one_per_turn"
    risk("annex", game, "syrie", "castille")
    v = view(risk, game)
    assert v["to_act"] == ENG  # nothing left to annex: the turn is over
    eng = cli_game(risk, tmp_path, current=ENG, phase="attack", armies={"ecosse": 6})
    assert error(risk, "fortify", eng, "ecosse", "irlande", "2") == "defence_force"
    risk("fortify", eng, "ecosse", "irlande", "1")


def test_nap_camp_02_eliminating_the_opponent_wins() -> None:
    """NAP-CAMP-02: the French take the English player's last territory and win at once, in
    round 1: no last round is over, no final ranking; NAP-CAMP-14: that invasion of
    Angleterre still scores its 10 VP first."""
    owners = {t: FRA for t in ("ecosse", "irlande")}
    st, _ = engine_game(
        owners=owners,
        armies={"ile_de_france": 10, "angleterre": 1},
        phase="attack",
        dice=[6, 6, 6, 1],
    )
    st, evs = step(st, Attack(seat=FRA, origin="ile_de_france", target="angleterre", dice=3))
    won = [e for e in evs if type(e).__name__ == "GameWon"]
    assert st.phase == "over" and won and won[0].seat == FRA
    assert won[0].reason == "last_standing"
    assert kinds(evs)[-3:] == ["PlayerEliminated", "InvasionScored", "GameWon"]
    assert fam(st).vp[FRA] == 10 and fam(st).ranking == ()


def test_nap_camp_02_an_epidemic_ending_the_opponent_is_no_end_of_rounds() -> None:
    """NAP-CAMP-02: the English player's last regiment dies of an epidemic (NAP-ADV-40) at
    the end of his turn in round 1: the French win there, with no final ranking."""
    st, _ = engine_game(
        owners={t: FRA for t in ("ecosse", "irlande")},
        armies={"angleterre": 1},
        phase="attack",
        current=ENG,
        family={"epidemics": {"angleterre": 1}},
    )
    st, evs = step(st, EndTurn(seat=ENG))
    assert kinds(evs)[-2:] == ["ArmyPerished", "GameWon"]
    assert st.phase == "over" and st.winner == FRA and st.round == 1


# ------------------------------------------------------------------ NAP-CAMP-03/17
def test_nap_camp_03_17_the_other_player_defends_independents(risk: Run, tmp_path: Path) -> None:
    """NAP-CAMP-17 (DEC-19): the non-active player rolls the defence of the independents
    and of the passive neutral, which never acts itself (NAP-CAMP-03)."""
    path = tmp_path / "ask.json"
    path.write_text(json.dumps(doc(phase="attack", dice=[1, 1, 1, 6, 6])))
    game = json.loads(risk("new", "--scenario", str(path), "--ask", "Eng", "--json").stdout)[
        "game_id"
    ]
    risk("attack", game, "provence", "piemont", "--dice", "3")
    v = view(risk, game)
    assert v["phase"] == "defend" and v["to_act"] == ENG
    risk("defend", game, "2", "--as", "Eng")
    assert view(risk, game)["phase"] == "attack"


def test_nap_camp_17_own_ally_is_never_attacked(risk: Run, tmp_path: Path) -> None:
    """DEC-19/NAP-CAMP-17: a player never attacks his own ally (he annexes instead), but
    attacks with it: the English from Galicia into their ally's Hungary are refused, the
    Austrians from Hungary into the French Illyrian Provinces are not."""
    game = cli_game(
        risk,
        tmp_path,
        current=ENG,
        phase="attack",
        owners={"galicie": ENG, "provinces_illyriennes": FRA},
        armies={"galicie": 9, "hongrie": 9},
    )
    assert error(risk, "attack", game, "galicie", "hongrie") == "attack_own_ally"
    risk("attack", game, "hongrie", "provinces_illyriennes", "--dice", "1")


def test_nap_2pa_07_an_allys_regiments_never_attack_the_ally_itself() -> None:
    """NAP-2PA-07 (NAP-CAMP-17): the English attack with the Austrians' regiments, but not
    into another Austrian territory: refused (`own_territory`) naming the Austrians, where
    the refusal said the target was the English player's own."""
    st, _ = engine_game(current=ENG, phase="attack", armies={"hongrie": 9})
    with pytest.raises(rc.RuleError) as refused:
        rc.decide(st, Attack(seat=ENG, origin="hongrie", target="galicie", dice=1))
    assert refused.value.code == "own_territory"
    assert str(refused.value) == (
        "You cannot attack Galicia from Hungary: both are held by Austrians, whose armies you "
        "attack with, and they never attack their own territories."
    )


def test_nap_camp_17_an_allys_leading_general_is_the_allys() -> None:
    """DEC-23 with NAP-2PA-07: the English attack with the Austrians from Hungary, led by
    the Austrian general; the one attacking regiment dies, so the general is captured: an
    Austrian general, taken by the French army that defended (1 VP to the French)."""
    st, _ = engine_game(
        current=ENG,
        phase="attack",
        owners={"provinces_illyriennes": FRA},
        armies={"hongrie": 2, "provinces_illyriennes": 3},
        family={"generals": {"hongrie": 1}},
        dice=[1, 6, 6],
    )
    st, evs = step(st, Attack(seat=ENG, origin="hongrie", target="provinces_illyriennes", dice=1))
    taken = [e for e in evs if type(e).__name__ == "LeadersCaptured"]
    assert [(e.owner, e.by, e.count) for e in taken] == [(AUS, FRA, 1)]
    f = fam(st)
    assert f.captured_generals[AUS][FRA] == 1 and f.captured_generals[ENG] == (0,) * 6
    assert f.vp[FRA] == 1 and f.vp[ENG] == 0 and f.committed == 0


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("level", ["greedy", "random"])
def test_bots_play_the_campaign_to_its_end(level: str) -> None:
    """NAP-CAMP-02/05: greedy and random bots finish a campaign; the same seed plays the
    same game, and the history replays to the same state (ENG-01)."""
    opening = rc.start("napoleon-1796", ["Ann", "Bob"], seed=11)
    _, history = self_play(opening, level=level, seed=4)
    _, again = self_play(opening, level=level, seed=4)
    assert rc.encode(history) == rc.encode(again)
    st = rc.replay(history)
    assert st.phase == "over" and st.winner in (FRA, ENG)
    assert st.round == 5 or any(p.eliminated for p in st.players[:2])


def test_views_hide_hands_from_the_other_player(risk: Run, tmp_path: Path) -> None:
    """Hidden information: a player's hand, and the cards under the cannons, never appear
    in the other player's view."""
    game = cli_game(risk, tmp_path, hands={"Fra": ["castille"], "Austrians": ["laponie"]})
    other = view(risk, game, "Eng")
    assert not seat_of(other, FRA).get("hand") and seat_of(other, FRA)["cards"] == 1
    assert not seat_of(other, AUS).get("hand")
    own = view(risk, game, "Fra")
    assert [c["id"] for c in seat_of(own, FRA)["hand"]] == [card_of("castille")]
    assert not seat_of(own, AUS).get("hand")


def test_show_lists_alliances_objectives_and_round(risk: Run, tmp_path: Path) -> None:
    """`risk show`: the round and year, the alliances and each side's objectives."""
    game = cli_game(risk, tmp_path)
    text = risk("show", game).stdout
    assert "Round 1 of 5 (1803)" in text
    assert "Alliances: Austrians allied to Eng, Prussians allied to Eng, Russians neutral" in text
    assert "Objectives (french, VP):" in text and "Egypt before 1809 (first invasion) 5" in text
    assert "english; 0 VP" in text and "allied to Eng" in text


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"turn": 11}, "round 11 (the turn, 11, unless given) is past napoleon-1796's last"),
        ({"current": AUS}, "Austrians takes no turns"),
        ({"family": {"vp": {"Austrians": 3}}}, "Austrians scores no VP (players only)"),
        ({"family": {"missions": {"Fra": []}}}, "the campaign has no missions"),
        ({"family": {"scored": ["french:nowhere"]}}, "no side's invasion objective"),
        (
            {"family": {"scored": ["french:egypte", "french:egypte"]}},
            "'french:egypte' is listed twice",
        ),
    ],
)
def test_nap_camp_positions_the_campaign_cannot_reach(fields: dict[str, Any], said: str) -> None:
    """NAP-CAMP-02/05/14: a scenario of the campaign keeps to its rounds, its players' turns,
    its scores (the two sides'), no missions, and its one-shot invasions by side and
    territory: anything else is `bad_scenario`, where it used to be stored."""
    with pytest.raises(rc.RiskError) as err:
        engine_game(**fields)
    assert err.value.code == "bad_scenario" and said in err.value.message, err.value.message
    state, _ = engine_game(family={"vp": {"Fra": -2}, "scored": ["french:egypte"]})
    assert fam(state).vp[FRA] == -2 and fam(state).scored == ("french:egypte",)
