"""`risk map`: a picture of the board (SVG, PNG) or a compact text board with neighbours.

The picture is built once as a list of shapes (:func:`scene`), from the board's generic data
(territory ``pos`` on the 1000 x 600 diagram, groups, edges and their kinds) and the view a seat
sees; :func:`svg` writes the shapes as hand-written SVG and :func:`png` draws the same shapes
with Pillow.  Owners and armies are public, so nothing secret is drawn whoever asks.

The last move (the last event naming an ``origin`` and a ``target``, or a ``territory``: a
battle, a conquest, an occupation, a fortification, a placement, a family's own such event) is
an arrow, or a ring around the territory, and is told in words under the map.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import click

from risk_cli import render
from risk_cli.common import (
    App,
    OutputFile,
    as_option,
    echo_json,
    game_argument,
    json_option,
    pass_app,
)
from risk_cli.games import Version
from risk_cli.turns import position, turn_option
from risk_core import Board, load_board

JsonDict = dict[str, Any]
Point = tuple[float, float]

MAP_W, MAP_H = 1000, 600  # the diagram ``Territory.pos`` is given on
MARGIN = 24
FOOTER = 72  # status, players and the last move, under the map
WIDTH, HEIGHT = MAP_W + 2 * MARGIN, MAP_H + 2 * MARGIN + FOOTER
RADIUS = 12
SUPERSAMPLE = 2  # the PNG is drawn this many times larger, then scaled down (smooth edges)

COLOURS = {  # army colours (risk_core.rulesets.base.COLOURS) as fills
    "red": "#d62728",
    "blue": "#1f5fbf",
    "green": "#2ca02c",
    "yellow": "#f2c500",
    "black": "#333333",
    "purple": "#8e44ad",
}
SPARE = ("#ff7f0e", "#17becf", "#8c564b", "#e377c2")  # colours a family may name otherwise
NOBODY = "#bbbbbb"
DARK = {"#d62728", "#1f5fbf", "#2ca02c", "#333333", "#8e44ad", "#8c564b"}
BORDER_INK, SEA_INK, GROUP_INK, HIGHLIGHT = "#8a8a8a", "#3a7bd5", "#c9c2b0", "#ff8c00"
CROSSINGS = ("sea", "lane")  # links that are not a shared border (a hyperspace lane): dashed
BACKGROUND = "#fbf8ef"


# --------------------------------------------------------------------------- shapes
@dataclass(frozen=True)
class Lines:
    """Straight segments drawn as one stroke (an edge crossing the map's side is two)."""

    segments: tuple[tuple[Point, Point], ...]
    colour: str
    width: float
    dashed: bool = False
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Disc:
    centre: Point
    r: float
    fill: str | None
    stroke: str
    width: float
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Label:
    at: Point
    text: str
    size: int
    colour: str
    anchor: str = "middle"  # or "start"
    data: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None
    stroke: str | None = None
    width: float = 0
    data: dict[str, str] = field(default_factory=dict)


Shape = Lines | Disc | Label | Polygon


def _xy(pos: Sequence[float]) -> Point:
    return (pos[0] + MARGIN, pos[1] + MARGIN)


def _segments(a: Sequence[int], b: Sequence[int]) -> tuple[tuple[Point, Point], ...]:
    """``a`` to ``b``, or, when they are more than half the map apart east-west (Alaska and
    Kamchatka), two stubs leaving by the map's sides, as on a globe."""
    (xa, ya), (xb, yb) = a, b
    if abs(xa - xb) <= MAP_W / 2:
        return ((_xy(a), _xy(b)),)
    if xa > xb:
        return tuple((q, p) for p, q in reversed(_segments(b, a)))
    # a is west: it leaves by the west side toward b's image one map-width to the west.
    t = xa / (xa - (xb - MAP_W))
    y_west = ya + t * (yb - ya)
    t = (MAP_W - xb) / (xa + MAP_W - xb)
    y_east = yb + t * (ya - yb)
    return ((_xy(a), _xy((0, y_west))), (_xy((MAP_W, y_east)), _xy(b)))


def colours(players: Sequence[JsonDict]) -> list[str]:
    """Each seat's fill colour."""
    spare = iter(SPARE * len(players))
    return [COLOURS.get(p.get("colour", ""), "") or next(spare) for p in players]


def last_move(events: Sequence[JsonDict], board: Board) -> JsonDict | None:
    """The last event that names territories of ``board``: ``origin`` and ``target``, or a
    ``territory``."""
    for d in reversed(events):
        if _is_territory(d.get("origin"), board) and _is_territory(d.get("target"), board):
            return d
        if _is_territory(d.get("territory"), board):
            return d
    return None


def _is_territory(value: Any, board: Board) -> bool:
    return isinstance(value, str) and value in board.index


def scene(game_id: str, v: JsonDict, board: Board, move: JsonDict | None) -> list[Shape]:
    """The shapes of the map, back to front."""
    fills = colours(v["players"])
    shapes: list[Shape] = [*_group_labels(board), *_edges(board)]
    if move is not None:
        shapes += _highlight(move, board)
    for t in board.territories:
        cell = v["territories"][t.id]
        owner = cell["owner"]
        fill = fills[owner] if 0 <= owner < len(fills) else NOBODY
        x, y = _xy(t.pos)
        data = {"territory": t.id, "owner": str(owner), "armies": str(cell["armies"])}
        shapes.append(Disc((x, y), RADIUS, fill, "#ffffff", 1.5, data))
        ink = "#ffffff" if fill in DARK else "#000000"
        shapes.append(Label((x, y + 4), str(cell["armies"]), 11, ink))
        shapes.append(Label((x, y + RADIUS + 10), t.name_en, 9, "#222222"))
    return shapes + _footer(game_id, v, board, fills, move)


def _group_labels(board: Board) -> list[Shape]:
    """Each group's outline (its territories' convex hull, widened) and name at the centroid."""
    out: list[Shape] = []
    for g, members in zip(board.groups, board.group_members, strict=True):
        points = [_xy(board.territories[t].pos) for t in members]
        cx = sum(x for x, _ in points) / len(points)
        cy = sum(y for _, y in points) / len(points)
        hull = _hull(points)
        if len(hull) >= 3:
            wide = tuple(_away((cx, cy), p, 2 * RADIUS + 4) for p in hull)
            out.append(Polygon(wide, None, GROUP_INK, 1.5, {"outline": g.id}))
        text = f"{g.name_en.upper()} +{g.bonus}"
        out.append(Label((cx, cy), text, 16, GROUP_INK, data={"group": g.id}))
    return out


def _hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def turn(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    upper: list[Point] = []
    for chain, seq in ((lower, pts), (upper, pts[::-1])):
        for p in seq:
            while len(chain) >= 2 and turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
    return lower[:-1] + upper[:-1]


def _away(centre: Point, p: Point, by: float) -> Point:
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    d = math.hypot(dx, dy) or 1.0
    return (p[0] + dx / d * by, p[1] + dy / d * by)


def _edges(board: Board) -> list[Shape]:
    out: list[Shape] = []
    for e in board.edges:
        a, b = (board.territories[board.index[x]].pos for x in (e.a, e.b))
        sea = e.kind in CROSSINGS
        data = {"edge": f"{e.a}|{e.b}", "kind": e.kind}
        out.append(Lines(_segments(a, b), SEA_INK if sea else BORDER_INK, 1.2, sea, data))
    return out


def _highlight(move: JsonDict, board: Board) -> list[Shape]:
    """An arrow from ``origin`` to ``target``, or a ring around ``territory``."""
    pos = {t.id: t.pos for t in board.territories}
    target = move.get("target") or move["territory"]
    tx, ty = _xy(pos[target])
    ring = Disc((tx, ty), RADIUS + 5, None, HIGHLIGHT, 3, {"highlight": target})
    if "origin" not in move or "target" not in move:
        return [ring]
    segments = list(_segments(pos[move["origin"]], pos[target]))
    (x0, y0), (x1, y1) = segments[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * (RADIUS + 2), y1 - uy * (RADIUS + 2))
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    segments[-1] = ((x0, y0), base)
    head = (tip, (base[0] - uy * 7, base[1] + ux * 7), (base[0] + uy * 7, base[1] - ux * 7))
    data = {"last-move": f"{move['origin']}|{target}", "event": str(move.get("type", ""))}
    return [ring, Lines(tuple(segments), HIGHLIGHT, 4, data=data), Polygon(head, HIGHLIGHT)]


def _footer(
    game_id: str, v: JsonDict, board: Board, fills: list[str], move: JsonDict | None
) -> list[Shape]:
    n = render.Names(board, v["players"])
    y = MAP_H + 2 * MARGIN
    status = click.unstyle(f"{heading(game_id, v)} · {render.status_line(v, n)}")
    out: list[Shape] = [Label((MARGIN, y + 4), status, 12, "#222222", "start")]
    x: float = MARGIN
    for p, fill in zip(v["players"], fills, strict=True):
        out.append(Disc((x + 6, y + 22), 6, fill, "#ffffff", 1))
        text = f"{p['name']} {p['territories']}t {p['armies']}a"
        out.append(Label((x + 16, y + 26), text, 11, "#222222", "start"))
        x += 30 + 7 * len(text)
    said = "none yet" if move is None else click.unstyle(render.event_line(move, n))
    out.append(Label((MARGIN, y + 48), f"Last move: {said}", 12, HIGHLIGHT, "start"))
    return out


def heading(game_id: str, v: JsonDict) -> str:
    where = f"round {v['round']}, turn {v['turn']}" if v["turn"] else "setup"
    return f"Game {game_id} · {v['rules']} · {where} · version {v['version']}"


# --------------------------------------------------------------------------- SVG
def svg(shapes: Sequence[Shape]) -> str:
    """The shapes as a standalone SVG document."""
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>',
    ]
    lines += [_svg_shape(s) for s in shapes]
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _data(data: dict[str, str]) -> str:
    return "".join(f" data-{k}={quoteattr(v)}" for k, v in data.items())


def _n(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def _svg_shape(s: Shape) -> str:
    if isinstance(s, Lines):
        d = " ".join(f"M{_n(a[0])},{_n(a[1])} L{_n(b[0])},{_n(b[1])}" for a, b in s.segments)
        dash = ' stroke-dasharray="6 4"' if s.dashed else ""
        return (
            f'<path d="{d}" stroke="{s.colour}" stroke-width="{s.width}" fill="none"'
            f"{dash}{_data(s.data)}/>"
        )
    if isinstance(s, Disc):
        fill = s.fill or "none"
        return (
            f'<circle cx="{_n(s.centre[0])}" cy="{_n(s.centre[1])}" r="{s.r}" fill="{fill}" '
            f'stroke="{s.stroke}" stroke-width="{s.width}"{_data(s.data)}/>'
        )
    if isinstance(s, Polygon):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
        stroke = f' stroke="{s.stroke}" stroke-width="{s.width}"' if s.stroke else ""
        return f'<polygon points="{pts}" fill="{s.fill or "none"}"{stroke}{_data(s.data)}/>'
    weight = ' font-weight="bold"' if s.size >= 11 else ""
    return (
        f'<text x="{_n(s.at[0])}" y="{_n(s.at[1])}" font-size="{s.size}" fill="{s.colour}" '
        f'text-anchor="{s.anchor}"{weight}{_data(s.data)}>{escape(s.text)}</text>'
    )


# --------------------------------------------------------------------------- PNG
def png(shapes: Sequence[Shape]) -> bytes:
    """The same shapes drawn with Pillow, as PNG bytes of WIDTH x HEIGHT."""
    from PIL import Image, ImageDraw, ImageFont  # only when a PNG is asked for

    k = SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * k, HEIGHT * k), BACKGROUND)
    draw = ImageDraw.Draw(image)
    fonts: dict[int, Any] = {}
    for s in shapes:
        if isinstance(s, Lines):
            for a, b in s.segments:
                for p, q in _dashes(a, b) if s.dashed else [(a, b)]:
                    draw.line([_k(p), _k(q)], fill=s.colour, width=round(s.width * k))
        elif isinstance(s, Disc):
            (x, y), r = _k(s.centre), s.r * k
            draw.ellipse(
                [x - r, y - r, x + r, y + r],
                fill=s.fill,
                outline=s.stroke,
                width=round(s.width * k),
            )
        elif isinstance(s, Polygon):
            width = round(s.width * k)
            draw.polygon([_k(p) for p in s.points], fill=s.fill, outline=s.stroke, width=width)
        else:
            font = fonts.setdefault(s.size, ImageFont.load_default(size=s.size * k))
            x, y = _k(s.at)
            anchor = "ms" if s.anchor == "middle" else "ls"  # on the baseline, as SVG
            draw.text((x, y), s.text, fill=s.colour, font=font, anchor=anchor)
    out = io.BytesIO()
    image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


def _k(p: Point) -> Point:
    return (p[0] * SUPERSAMPLE, p[1] * SUPERSAMPLE)


def _dashes(a: Point, b: Point, on: float = 6, off: float = 4) -> list[tuple[Point, Point]]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    out, s = [], 0.0
    while s < length:
        e = min(s + on, length)
        out.append(((a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)))
        s = e + off
    return out


# --------------------------------------------------------------------------- text
def text_board(game_id: str, v: JsonDict, board: Board, move: JsonDict | None) -> str:
    """Per group, each territory with its armies, owner and neighbours (``~``: by sea)."""
    n = render.Names(board, v["players"])
    said = "none yet" if move is None else render.event_line(move, n)
    lines = [heading(game_id, v), render.status_line(v, n), f"Last move: {said}"]
    width = max(len(t.name_en) for t in board.territories) + 2
    names = max(len(p["name"]) for p in v["players"]) + 2
    for g, members in zip(board.groups, board.group_members, strict=True):
        lines += ["", f"{g.name_en} (bonus {g.bonus})"]
        for t in members:
            terr = board.territories[t]
            cell = v["territories"][terr.id]
            owner = cell["owner"]
            who = v["players"][owner]["name"] if owner >= 0 else "unclaimed"
            near = ", ".join(
                board.territories[j].name_en + ("~" if board.edge_kind(t, j) in CROSSINGS else "")
                for j in sorted(board.neighbours[t], key=lambda j: board.territories[j].name_en)
            )
            pad = " " * (names - len(who))
            lines.append(
                f"  {terr.name_en:<{width}}{cell['armies']:>4}  {n.seat(owner)}{pad}{near}"
            )
    lines += ["", "~ by sea"]
    return "\n".join(lines)


def map_data(game_id: str, v: JsonDict, board: Board, move: JsonDict | None) -> JsonDict:
    """What the map shows, for scripts: each territory's group, position, owner, armies and
    neighbours (with the edge's kind), and the last move."""
    territories = {}
    for i, t in enumerate(board.territories):
        cell = v["territories"][t.id]
        territories[t.id] = {
            "group": t.group,
            "pos": list(t.pos),
            "owner": cell["owner"],
            "armies": cell["armies"],
            "neighbours": {
                board.territories[j].id: board.edge_kind(i, j) for j in board.neighbours[i]
            },
        }
    return {
        "game_id": game_id,
        "board": board.id,
        "version": v["version"],
        "last_move": move,
        "territories": territories,
    }


# --------------------------------------------------------------------------- the command
@click.command("map")
@game_argument
@as_option("Look as this seat (owners and armies are public: the map is the same).")
@click.option("--at", type=Version(), metavar="VERSION", help="The board after this many events.")
@turn_option()
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    help="Write the picture to FILE.svg or FILE.png.",
)
@click.option("--text", "as_text", is_flag=True, help="Print the text board, even to a pipe.")
@json_option
@pass_app
def map_(
    app: App,
    game_id: str,
    as_seat: str | None,
    at: int | None,
    turn: int | None,
    output: Path | None,
    as_text: bool,
    as_json: bool,
) -> None:
    """Draw the board: territories, borders, sea links (dashed), owners, armies, the last move.

    With -o FILE.svg or FILE.png the picture is written there; without it a terminal gets a
    text board (each territory with owner, armies and neighbours; --text forces it) and a
    pipe gets the SVG.  --json prints the board's data instead (and the file written).
    """
    suffix = output.suffix.lower() if output is not None else ""
    if output is not None and suffix not in (".svg", ".png"):
        raise click.BadParameter(
            "the file must end in .svg or .png.", param_hint="'-o' / '--output'"
        )
    v = app.backend.view(game_id, as_seat, at=position(app.backend, game_id, at, turn))
    board = load_board(v["board"])
    move = last_move(app.backend.events(game_id, as_seat, upto=v["version"]), board)
    if as_json and output is None:
        echo_json(map_data(game_id, v, board, move))
        return
    if as_text or (output is None and sys.stdout.isatty()):
        click.echo(text_board(game_id, v, board, move))
        return
    shapes = scene(game_id, v, board, move)
    if output is None:
        click.echo(svg(shapes), nl=False)
    elif suffix == ".svg":
        output.write_text(svg(shapes), encoding="utf-8")
    else:
        output.write_bytes(png(shapes))
    if as_json:
        echo_json({**map_data(game_id, v, board, move), "file": str(output)})
    elif output is not None:
        click.echo(f"Map of {game_id} at version {v['version']} written to {output}.")
