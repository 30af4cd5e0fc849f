"""Strict input: every value read from a user is checked before it can reach a game.

Scenario files keep every field in its range (die faces the rule set's dice can show, turns and
rounds from 1, trades from 0, armies 1 to a million); the engine itself refuses a battle whose
dice no die could show, so neither a replay nor an audit accepts one; input nested 100,000
deep, a scenario file without end, a version beyond any store and a Redis URL of another
scheme are errors (`Error: … [code]`, status 1, nothing changed), never tracebacks; and a
command naming a field no command has is refused, by the command line and the service alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import Result
from gamekit import position
from test_audit import build, first_of, parse
from test_cli import error, out, scenario

import risk_core as rc
from risk_core import dice
from risk_core import scenario as scenario_file
from risk_core.dice import DiceSpec
from risk_core.model import Attack, BattleFought, DiceScripted
from risk_service import GameService
from risk_service.exchange import audit_export, export_game
from risk_service.history import parse_faces
from risk_service.protocol import Malformed, decode_request

Run = Callable[..., Result]
DEEP = "[" * 100_000 + "]" * 100_000


def _scenario_with(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> str:
    """test_cli's scenario (Ann's attack phase, Peru 10 against Brazil 1), changed."""
    path = Path(scenario(tmp_path))
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    return str(path)


def _refused(risk: Run, path: str, *words: str, code: str = "bad_scenario") -> None:
    """`risk new --scenario path` fails with ``code``, its message naming ``words``, and no
    game is stored."""
    err = error(risk, "new", "--scenario", path).splitlines()[-1]  # after any store notice
    assert err.startswith("Error: ") and err.endswith(f"[{code}]"), err
    for word in words:
        assert word in err, err
    assert out(risk, "games") == []


# --------------------------------------------------------------------------- scenario ranges
@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("dice", [7, 0, 4, -1], ("1 to 6", "7")),  # "7-0 against 4--1"
        ("dice", [6, 6, 6, 0], ("1 to 6", "0")),
        ("dice", [6, -1], ("1 to 6", "-1")),
        ("turn", -3, ("turn", "-3")),
        ("turn", 0, ("turn", "0")),
        ("turn", 10**30, ("turn",)),
        ("round", 0, ("round", "0")),
        ("round", 10, ("round", "10")),  # turn 1 cannot be in round 10
        ("trades", -1, ("trades", "-1")),
        ("trades", 10**30, ("trades",)),
    ],
)
def test_scenario_fields_out_of_range_are_refused(
    risk: Run, tmp_path: Path, field: str, value: Any, words: tuple[str, ...]
) -> None:
    # A scenario whose one field is out of range starts no game.
    _refused(risk, scenario(tmp_path, **{field: value}), *words)


@pytest.mark.parametrize("armies", [0, -5, 10**6 + 1, 10**30])
def test_scenario_armies_out_of_range_are_refused(risk: Run, tmp_path: Path, armies: int) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["territories"]["peru"]["armies"] = armies

    _refused(risk, _scenario_with(tmp_path, change), "Peru", str(armies))


def test_scenario_limits_themselves_are_accepted(risk: Run, tmp_path: Path) -> None:
    # A million armies, a late turn of a late round, many trades: all in range.
    def change(doc: dict[str, Any]) -> None:
        doc["territories"]["peru"]["armies"] = 10**6
        doc.update(turn=10**6, round=10**6, trades=10**6, dice=[1, 6])

    created = out(risk, "new", "--scenario", _scenario_with(tmp_path, change), "--id", "big")
    assert created["game_id"] == "big"
    assert out(risk, "show", "big")["territories"]["peru"]["armies"] == 10**6


def test_a_family_with_other_dice_scripts_its_own_faces() -> None:
    # toy-d8's attackers throw d8: an 8 is a face its dice can show, 0 and 101 are not.
    position(ruleset="toy-d8", dice=[8, 1])
    for face in (0, 101):
        with pytest.raises(rc.RiskError) as err:
            position(ruleset="toy-d8", dice=[face])
        assert err.value.code == "bad_scenario" and str(face) in err.value.message


# --------------------------------------------------------------------------- impossible dice
def _battle() -> tuple[list[rc.Event], rc.GameState, list[rc.Event]]:
    """Ann's scripted 6-6-6 against 1 (Peru 10 against Brazil 1): the opening, the state and
    the attack's events (a battle first)."""
    state, opening = position(
        phase="attack",
        dice=[6, 6, 6, 1],
        owners={"peru": 0, "brazil": 1},
        armies={"peru": 10, "brazil": 1},
    )
    events = rc.decide(state, Attack(seat=0, origin="peru", target="brazil"))
    assert isinstance(events[0], BattleFought)
    return opening, state, events


@pytest.mark.parametrize(
    ("attack", "defence"), [((7, 6, 6), (1,)), ((6, 6, 6), (0,)), ((6, 6, 6, 9), (1,))]
)
def test_replay_refuses_a_battle_no_d6_can_throw(
    attack: tuple[int, ...], defence: tuple[int, ...]
) -> None:
    opening, _, events = _battle()
    battle = msgspec.structs.replace(events[0], attack=attack, defence=defence)
    with pytest.raises(rc.RuleError) as err:
        rc.replay([*opening, battle, *events[1:]])
    assert err.value.code == "bad_history"


def test_a_script_with_an_impossible_face_never_makes_a_battle() -> None:
    # A dice script that slipped past every check: the battle it would give is refused.
    opening, _, _ = _battle()
    scripted = [
        DiceScripted(faces=(7, 6, 6, 1)) if isinstance(ev, DiceScripted) else ev for ev in opening
    ]
    state = rc.replay(scripted)
    with pytest.raises(rc.RuleError) as err:
        rc.decide(state, Attack(seat=0, origin="peru", target="brazil"))
    assert err.value.code == "bad_history"


def test_scripted_faces_beyond_any_die_are_refused() -> None:
    with pytest.raises(ValueError):
        DiceScripted(faces=(6, 0))
    with pytest.raises(msgspec.ValidationError):
        rc.decode_event(b'{"type": "dice_scripted", "faces": [6, 101]}')


def test_a_battle_of_other_dice_must_follow_from_its_natural_faces() -> None:
    d8 = {
        "attack_dice": DiceSpec(count=4, sides=8, keep=3),
        "defence_dice": DiceSpec(count=2, sides=8),
    }
    good = BattleFought(
        seat=0, origin="alaska", target="kamchatka", defender=1, attack=(8, 6, 2),
        defence=(7, 3), attacker_losses=0, defender_losses=2, rng=5,
        attack_natural=(2, 8, 1, 6), defence_natural=(3, 7), **d8,
    )  # fmt: skip
    dice.check_faces(good)
    for bad in (
        msgspec.structs.replace(good, attack_natural=(2, 9, 1, 6), attack=(9, 6, 2)),  # no 9
        msgspec.structs.replace(good, defence=(8, 3)),  # 3 and 7 thrown, 8 claimed
        msgspec.structs.replace(good, attack_natural=(2, 8, 6)),  # a die short
        msgspec.structs.replace(good, defence_natural=msgspec.UNSET),
        msgspec.structs.replace(good, attack_dice=DiceSpec(count=4, sides=1)),
    ):
        with pytest.raises(rc.RuleError) as err:
            dice.check_faces(bad)
        assert err.value.code == "bad_history"


def test_an_audit_never_passes_an_impossible_die() -> None:
    # A scenario game's export, its script and battle rewritten to a 9 and the digest fixed:
    # the command replays to the same 9, but no d6 shows one.
    _, opening = position(
        phase="attack",
        dice=[6, 6, 6, 1],
        owners={"peru": 0, "brazil": 1},
        armies={"peru": 10, "brazil": 1},
    )
    with GameService("memory://") as service:
        service.create_schema()
        service.new_game("classic", ["Ann", "Bob", "Cy"], game_id="sc", opening=opening)
        service.submit("sc", Attack(seat=0, origin="peru", target="brazil"))
        header, records = parse(export_game(service, "sc"))
    _, script = first_of(records, "dice_scripted")
    script["faces"][0] = 9
    version, battle = first_of(records, "battle")
    battle["attack"][0] = 9
    report = audit_export(build(header, records, fix_digest=True))
    d = report.divergence
    assert not report.ok and d is not None and d.version == version
    assert "[bad_history]" in d.reason


# --------------------------------------------------------------------------- no tracebacks
@pytest.fixture
def game(risk: Run, tmp_path: Path) -> str:
    out(risk, "new", "--scenario", scenario(tmp_path), "--id", "g1")
    return "g1"


def test_deeply_nested_command_is_a_bad_command(risk: Run, game: str) -> None:
    before = out(risk, "show", game)["version"]
    for text in (DEEP, '{"type": "end", "seat": 0, "x": ' + DEEP + "}"):
        err = risk("submit", game, "-", input=text, code=1).stderr
        assert err.startswith("Error: ") and "[bad_command]" in err
    with pytest.raises(msgspec.DecodeError):
        rc.decode_command(DEEP)
    assert out(risk, "show", game)["version"] == before


@pytest.mark.parametrize(
    ("suffix", "text"),
    [(".json", '{"territories": ' + DEEP + "}"), (".toml", "territories = " + DEEP)],
)
def test_deeply_nested_scenario_is_a_bad_scenario(
    risk: Run, tmp_path: Path, suffix: str, text: str
) -> None:
    path = tmp_path / f"deep{suffix}"
    path.write_text(text)
    _refused(risk, str(path), "nested")


def test_endless_or_huge_scenario_file_is_refused(risk: Run, tmp_path: Path) -> None:
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    _refused(risk, str(link), "MiB")
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (scenario_file.MAX_SCENARIO_BYTES + 1))
    _refused(risk, str(huge), "MiB")


def test_unreadable_scenario_file_is_refused(risk: Run, tmp_path: Path) -> None:
    path = Path(scenario(tmp_path))
    path.chmod(0)
    try:
        path.open("rb").close()
    except PermissionError:
        pass
    else:  # root reads anything: nothing to test then
        pytest.skip("this user can read a file without permissions")
    _refused(risk, str(path), "Cannot read")


# --------------------------------------------------------------------------- given twice
def test_a_key_given_twice_in_a_json_scenario_is_refused(risk: Run, tmp_path: Path) -> None:
    # TOML refuses a key given twice; JSON decoders keep the last one, which silently changed
    # the position (Peru's owner here, or the seed).  Both formats now refuse it.
    text = Path(scenario(tmp_path)).read_text()
    twice = tmp_path / "twice.json"
    for once, again in (
        ('"peru": {', '"peru": {"owner": 1, "armies": 2}, "peru": {'),
        ('"seed": 11', '"seed": 11, "seed": 12'),
    ):
        twice.write_text(text.replace(once, again, 1))
        _refused(risk, str(twice), "given twice", once.split('"')[1])


def test_a_territory_listed_twice_under_two_spellings_is_refused(risk: Run, tmp_path: Path) -> None:
    # CORE-02 (one owner a territory): "peru" and "Peru" are one territory; the later entry
    # overwrote the first unseen.
    def change(doc: dict[str, Any]) -> None:
        doc["territories"]["Peru"] = {"owner": 1, "armies": 2}

    _refused(risk, _scenario_with(tmp_path, change), "Peru is listed twice", "'Peru'")


@pytest.mark.parametrize(("table", "again"), [("hands", "0"), ("missions", "ann")])
def test_a_seat_named_twice_in_one_table_is_refused(
    risk: Run, tmp_path: Path, table: str, again: str
) -> None:
    # ENG-07's secrets per seat: Ann by name and by number (or in two cases) is one seat,
    # and one of her hands or missions was lost.
    def change(doc: dict[str, Any]) -> None:
        doc[table][again] = doc[table]["Bob"] if table == "hands" else "asia_africa"
        doc[table].pop("Bob")

    _refused(risk, _scenario_with(tmp_path, change), f"[{table}] names one seat twice", again)


def test_a_mission_given_to_two_seats_is_refused(risk: Run, tmp_path: Path) -> None:
    # CL-04: each player is dealt an objective card of its own.
    def change(doc: dict[str, Any]) -> None:
        doc["missions"]["Bob"] = doc["missions"]["Ann"]

    _refused(risk, _scenario_with(tmp_path, change), "na_africa", "two seats")


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("empty.json", b"", ("empty",)),
        ("blank.toml", b" \n\n", ("empty",)),
        ("nan.json", b'{"seed": NaN, "territories": {}}', ("NaN",)),
        ("long.json", b'{"seed": ' + b"9" * 5000 + b', "territories": {}}', ("5,000 digits",)),
        ("latin.toml", 'players = ["Zoé"]'.encode("latin-1"), ("UTF-8", "0xe9")),
    ],
)
def test_a_scenario_file_that_is_no_scenario_says_why(
    risk: Run, tmp_path: Path, name: str, content: bytes, words: tuple[str, ...]
) -> None:
    # Input hygiene (no rule ID): what is wrong with the file, in words, not a decoder's
    # "Input data was truncated" (an empty file) or an int() limit's advice.
    path = tmp_path / name
    path.write_bytes(content)
    _refused(risk, str(path), *words)


@pytest.mark.parametrize(
    ("table", "key", "value", "words"),
    [
        ("territories", "peru", {"owner": 0, "armies": "ten"}, ("[territories] peru", "armies")),
        ("territories", "brazil", {"owner": 1.5, "armies": 1}, ("[territories] brazil", "owner")),
        ("hands", "Bob", "ontario", ("[hands] Bob", "array")),
    ],
)
def test_a_wrong_type_in_a_table_names_its_entry(
    risk: Run, tmp_path: Path, table: str, key: str, value: Any, words: tuple[str, ...]
) -> None:
    # Input hygiene (no rule ID): the decoder says `$.territories[...]`; the message names
    # the territory or seat, so a player need not look through 42 entries.
    def change(doc: dict[str, Any]) -> None:
        doc[table][key] = value

    _refused(risk, _scenario_with(tmp_path, change), *words)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_scenario_file_with_a_byte_order_mark_is_read(
    risk: Run, tmp_path: Path, suffix: str
) -> None:
    # Some editors begin a UTF-8 file with a byte order mark; it is no part of the scenario.
    doc = json.loads(Path(scenario(tmp_path)).read_text())
    text = json.dumps(doc)
    if suffix == ".toml":
        rows = "\n".join(
            f"{t} = {{ owner = {h['owner']}, armies = {h['armies']} }}"
            for t, h in doc["territories"].items()
        )
        head = 'ruleset = "classic"\nplayers = ["Ann", "Bob", "Cy"]\nseed = 11\n'
        text = f"{head}[territories]\n{rows}\n"
    path = tmp_path / f"bom{suffix}"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert out(risk, "new", "--scenario", str(path), "--id", "bom")["game_id"] == "bom"


# Text str.isdigit() takes for a number that int() cannot read (a superscript two; more digits
# than int() converts), and an Arabic-Indic one, a digit to int() but no seat number anyone types.
NOT_NUMBERS = pytest.mark.parametrize(
    "ref", ["\u00b2", "9" * 5000, "\u0661"], ids=["superscript", "5000-digits", "arabic-indic"]
)


@NOT_NUMBERS
@pytest.mark.parametrize("where", ["owner", "current", "hands", "missions"])
def test_a_scenario_seat_that_only_looks_like_a_number_is_unknown(
    risk: Run, tmp_path: Path, where: str, ref: str
) -> None:
    # Input hygiene (the README's error contract; no rule ID): a seat is a number of ASCII
    # digits or a name, else bad_scenario naming it; int() raised a traceback here.
    def change(doc: dict[str, Any]) -> None:
        if where == "owner":
            doc["territories"]["peru"]["owner"] = ref
        elif where == "current":
            doc["current"] = ref
        else:
            doc[where] = {ref: doc[where].pop("Ann")}

    _refused(risk, _scenario_with(tmp_path, change), "Unknown seat")


@NOT_NUMBERS
def test_a_scenario_card_that_only_looks_like_a_number_is_unknown(
    risk: Run, tmp_path: Path, ref: str
) -> None:
    # A hand's card by id takes ASCII digits only; anything else is a territory's name.
    def change(doc: dict[str, Any]) -> None:
        doc["hands"]["Ann"] = [ref]

    _refused(risk, _scenario_with(tmp_path, change), code="unknown_territory")


@NOT_NUMBERS
@pytest.mark.parametrize(
    "args",
    [
        ("show", "g1", "--as", "{}"),
        ("moves", "g1", "--as", "{}"),
        ("new", "--players", "A,B,C", "--ask", "{}"),
        ("new", "--players", "A,B,C", "--commander", "{}=Bob"),
        ("trade", "g1", "{}", "{}", "{}", "--as", "0"),
    ],
)
def test_a_seat_or_card_that_only_looks_like_a_number_is_a_clean_error(
    risk: Run, game: str, ref: str, args: tuple[str, ...]
) -> None:
    # Input hygiene, as above: unknown_seat or unknown_territory, never int()'s traceback.
    err = error(risk, *(a.format(ref) for a in args))
    assert err.startswith("Error: ") and err.rstrip().endswith(
        ("[unknown_seat]", "[unknown_territory]")
    ), err
    assert [g["game_id"] for g in out(risk, "games")] == ["g1"]


@NOT_NUMBERS
def test_odds_and_seeds_that_only_look_like_numbers(risk: Run, ref: str) -> None:
    # `risk odds 5 3` takes two numbers; anything else is GAME FROM TO (a usage mistake here),
    # and a seed of other characters is text, hashed as any text seed.
    assert "Give GAME FROM TO" in error(risk, "odds", ref, "3", code=2)
    assert out(risk, "new", "--players", "A,B,C", "--seed", ref, "--id", "s")["game_id"] == "s"


@NOT_NUMBERS
def test_a_dice_script_of_odd_numbers_is_a_bad_script(ref: str) -> None:
    for text in (f"6 {ref}", f"[{ref}]"):
        with pytest.raises(rc.RiskError) as err:
            parse_faces(text)
        assert err.value.code == "bad_script"


@pytest.mark.parametrize(
    "args",
    [
        ("show", "g1", "--at", "99999999999999999999999"),
        ("replay", "g1", "--to", "99999999999999999999999"),
        ("replay", "g1", "--from", "99999999999999999999999"),
        ("branch", "g1", "--at", "99999999999999999999999"),
        ("diff", "g1", "g1", "--at-a", "99999999999999999999999"),
        ("stats", "g1", "--to", "99999999999999999999999"),
    ],
)
def test_versions_beyond_any_store_are_bad_versions(
    risk: Run, game: str, args: tuple[str, ...]
) -> None:
    err = error(risk, *args)
    assert err.startswith("Error: ") and "[bad_version]" in err
    assert [g["game_id"] for g in out(risk, "games")] == ["g1"]


@pytest.mark.parametrize("url", ["foo://x", "redis://x:abc", "redis://x:99999999", "x"])
def test_redis_url_of_another_kind_is_refused(risk: Run, game: str, url: str) -> None:
    err = error(risk, "--redis", url, "show", game)
    assert err.startswith("Error: ") and "[bad_redis_url]" in err


def test_nesting_too_deep_anywhere_else_is_a_clean_error(
    risk: Run, game: str, tmp_path: Path
) -> None:
    # Files read by other commands (an export, a dice script): the command line's last resort.
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    for args in (("import", str(path)), ("branch", game, "--at", "3", "--script", str(path))):
        err = error(risk, *args)
        assert err.startswith("Error: ") and err.rstrip().endswith("]"), err
    assert [g["game_id"] for g in out(risk, "games")] == ["g1"]


# --------------------------------------------------------------------------- unknown fields
def test_submit_refuses_unknown_fields(risk: Run, game: str) -> None:
    before = out(risk, "show", game)["version"]
    err = error(risk, "submit", game, '{"type": "end", "bogus": 3}')
    assert "[bad_command]" in err and "bogus" in err
    err = error(
        risk, "submit", game, '{"type": "attack", "origin": "peru", "target": "brazil", "dcie": 2}'
    )
    assert "[bad_command]" in err and "dcie" in err
    assert out(risk, "show", game)["version"] == before


def test_the_service_refuses_unknown_command_fields_too() -> None:
    request = {
        "request_id": "r1",
        "game_id": "g",
        "seat": 0,
        "sig": "t",
        "command": {"type": "end", "seat": 0, "bogus": 3},
    }
    with pytest.raises(Malformed, match="bogus"):
        decode_request(json.dumps(request).encode())
    del request["command"]["bogus"]  # type: ignore[attr-defined]
    assert decode_request(json.dumps(request).encode()).command == rc.model.EndTurn(seat=0)
