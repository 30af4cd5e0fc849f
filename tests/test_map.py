"""`risk map`: the board as SVG, PNG or text, for every board, at any version."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from risk_cli.mapview import HEIGHT, WIDTH
from risk_core import Board, load_board
from tests.conftest import Run

SVG = "{http://www.w3.org/2000/svg}"
RULES = ["classic", "napoleon", "toy-d8"]  # the shipped boards and a family's own board


def board_of(risk: Run) -> Board:
    return load_board(json.loads(risk("show", "g", "--json").stdout)["board"])


def new_game(risk: Run, rules: str = "classic", *options: str) -> None:
    # A game "g" between Ann, Bob and Cy on the rule set's board.
    args = ["new", "--players", "Ann,Bob,Cy", "--seed", "3", "--id", "g", "--rules", rules]
    for option in options:
        args += ["--option", option]
    risk(*args)


def svg_of(risk: Run, *args: str) -> ET.Element:
    # Without -o and not on a terminal, the SVG goes to standard output.
    return ET.fromstring(risk("map", "g", *args).stdout)


def data(root: ET.Element, key: str) -> dict[str, ET.Element]:
    return {e.get(f"data-{key}", ""): e for e in root.iter() if e.get(f"data-{key}") is not None}


@pytest.mark.parametrize("rules", RULES)
def test_svg_has_every_territory_and_edge(risk: Run, rules: str) -> None:
    new_game(risk, rules)
    board = board_of(risk)
    root = svg_of(risk)
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == str(WIDTH) and root.get("height") == str(HEIGHT)
    # One disc per territory, named on the map too.
    assert set(data(root, "territory")) == {t.id for t in board.territories}
    texts = {e.text for e in root.iter(f"{SVG}text")}
    assert {t.name_en for t in board.territories} <= texts
    # One stroke per edge, sea links dashed.
    edges = data(root, "edge")
    assert set(edges) == {f"{e.a}|{e.b}" for e in board.edges}
    for e in board.edges:
        dashed = edges[f"{e.a}|{e.b}"].get("stroke-dasharray") is not None
        assert dashed == (e.kind == "sea")
    # A label per group.
    assert set(data(root, "group")) == {g.id for g in board.groups}


@pytest.mark.parametrize("rules", RULES)
def test_png_and_svg_files(risk: Run, rules: str, tmp_path: Path) -> None:
    new_game(risk, rules)
    out = risk("map", "g", "-o", str(tmp_path / "board.png")).stdout
    assert "written to" in out
    with Image.open(tmp_path / "board.png") as image:
        assert image.format == "PNG"
        assert image.size == (WIDTH, HEIGHT)
        image.load()
    risk("map", "g", "-o", str(tmp_path / "board.svg"))
    ET.parse(tmp_path / "board.svg")


@pytest.mark.parametrize("rules", RULES)
def test_text_board_lists_territories_and_neighbours(risk: Run, rules: str) -> None:
    new_game(risk, rules)
    board = board_of(risk)
    out = risk("map", "g", "--text").stdout
    for i, t in enumerate(board.territories):
        line = next(x for x in out.splitlines() if x.startswith(f"  {t.name_en} "))
        for j in board.neighbours[i]:
            assert board.territories[j].name_en in line, (t.id, line)
    assert all(g.name_en in out for g in board.groups)


def test_at_changes_the_counts_and_the_last_move(risk: Run) -> None:
    new_game(risk, "classic", "setup_placement=all_at_once")
    dealt = json.loads(risk("show", "g", "--json").stdout)["version"]
    # The seat to act places all its starting armies on one territory.
    v = json.loads(risk("show", "g", "--json").stdout)
    seat = v["to_act"]
    mine = next(t for t, cell in v["territories"].items() if cell["owner"] == seat)
    risk("place", "g", mine, str(v["setup_left"][seat]))
    now, before = svg_of(risk), svg_of(risk, "--at", str(dealt))
    armies = {t: int(e.get("data-armies", "")) for t, e in data(now, "territory").items()}
    earlier = {t: int(e.get("data-armies", "")) for t, e in data(before, "territory").items()}
    assert armies[mine] == earlier[mine] + v["setup_left"][seat]
    assert {t: n for t, n in armies.items() if t != mine} == {
        t: n for t, n in earlier.items() if t != mine
    }
    # The placement is the last move: a ring around it, told under the map and in the text.
    assert list(data(now, "highlight")) == [mine]
    assert not data(before, "highlight")
    assert "Last move: none yet" in risk("map", "g", "--at", str(dealt), "--text").stdout
    name = load_board("classic").territories[load_board("classic").index[mine]].name_en
    assert f"on {name}." in risk("map", "g", "--text").stdout


def test_last_battle_is_an_arrow(risk: Run) -> None:
    new_game(risk, "classic", "setup_placement=all_at_once")
    # The bots play until someone has attacked.
    for _ in range(12):
        seat = json.loads(risk("show", "g", "--json").stdout)["to_act"]
        risk("bot", "g", "--as", str(seat))
        events = json.loads(risk("log", "g", "--json").stdout)["events"]
        if any(d["type"] == "battle" for d in events):
            break
    moves = [d for d in events if "origin" in d or "territory" in d]
    last = moves[-1]
    root = svg_of(risk)
    if "origin" in last:
        arrow = data(root, "last-move")
        assert list(arrow) == [f"{last['origin']}|{last['target']}"]
        assert arrow[f"{last['origin']}|{last['target']}"].get("data-event") == last["type"]
    assert list(data(root, "highlight")) == [last.get("target", last.get("territory"))]


def test_as_a_seat_and_bad_output(risk: Run, tmp_path: Path) -> None:
    new_game(risk)
    # Owners and armies are public: a seat sees the same map as a spectator.
    assert risk("map", "g", "--as", "Bob").stdout == risk("map", "g").stdout
    result = risk("map", "g", "-o", str(tmp_path / "board.txt"), code=2)
    assert "Invalid value for '-o' / '--output': the file must end in .svg or .png" in (
        result.stderr  # named as click names the option in its other errors
    )
    assert "bad_version" in risk("map", "g", "--at", "999", code=1).stderr


def test_png_is_drawn_in_memory() -> None:
    # The PNG writer draws any scene; an empty one is the background alone.
    from risk_cli.mapview import png

    with Image.open(io.BytesIO(png([]))) as image:
        assert image.size == (WIDTH, HEIGHT)


def test_json(risk: Run, tmp_path: Path) -> None:
    new_game(risk)
    board = load_board("classic")
    # Scripts get each territory's owner, armies and neighbours with the edge's kind.
    d = json.loads(risk("map", "g", "--json").stdout)
    assert set(d["territories"]) == {t.id for t in board.territories}
    assert d["territories"]["alaska"]["neighbours"]["kamchatka"] == "sea"
    assert d["last_move"] is None
    written = json.loads(risk("map", "g", "--json", "-o", str(tmp_path / "b.svg")).stdout)
    assert written["file"] == str(tmp_path / "b.svg") and (tmp_path / "b.svg").is_file()
