"""What the engine offers, without a store: rule sets, boards, and the JSON Schema."""

from __future__ import annotations

import os
from pathlib import Path

import click
import msgspec

from boards import BOARDS_DIR
from risk_cli import render
from risk_cli.common import echo_json, json_option
from risk_core import Board, board_names, json_schema, load_board, rulesets
from risk_core.board import (
    UnverifiedFact,
    fact_counts,
    family_board_names,
    load_board_dir,
    unverified_facts,
)
from risk_core.board_sections import section_size
from risk_core.rulesets import get as get_ruleset
from risk_core.rulesets.base import CORE_PHASES


@click.command()
@click.argument("name", required=False)
@json_option
def rules(name: str | None, as_json: bool) -> None:
    """List the rule sets, or one rule set's options and phases.

    Each option names the rule or decision (DEC-nn) it settles; set it with
    `risk new --option key=value`.  The list shows the phases a rule set adds to the core
    ones (setup, reinforce, attack...); `risk rules NAME` and --json show them all, and how
    many facts of the rule set's board are reconstructed or unverified.
    """
    infos = [msgspec.to_builtins(info) for info in rulesets()]
    if name is not None:
        get_ruleset(name)  # raises unknown_ruleset, listing the known names
        infos = [i for i in infos if i["name"] == name]
        board = load_board(infos[0]["board"])
        infos[0]["board_facts"] = _counts_info(board)  # how much of it is reconstructed
    if as_json:
        echo_json(infos[0] if name is not None else infos)
    elif name is not None:
        click.echo(render.rules_text(infos[0]))
        click.echo(f"  {facts_sentence(board, detailed=True)}")
    else:
        width = max(len(i["name"]) for i in infos) + 2  # a name never runs into its title
        for i in infos:
            click.echo(f"{i['name']:<{width}}{i['title']}  [{i['board']} board]")
            own = {k: v for k, v in i["phases"].items() if CORE_PHASES.get(k) != v}
            for line in render.phases_text(own, 20):
                click.echo(line)
        click.echo("\nIndented under a rule set: the phases it adds to the core ones.")
        click.echo("Options and every phase of one rule set: risk rules NAME")


@click.group(invoke_without_command=True)
@json_option
@click.pass_context
def boards(ctx: click.Context, as_json: bool) -> None:
    """List the boards shipped with the engine.

    `risk boards show NAME` describes one; `risk boards check PATH` validates a board folder.
    """
    if ctx.invoked_subcommand is not None:
        return
    from risk_core.rulesets import names as ruleset_names

    ruleset_names()  # every family imported: their own boards known too
    found = [load_board(name) for name in sorted({*board_names(), *family_board_names()})]
    if as_json:
        echo_json([_board_info(b) for b in found])
        return
    width = max(len(b.id) for b in found) + 2
    for b in found:
        size = f"{len(b.territories)} territories, {len(b.groups)} groups"
        click.echo(f"{b.id:<{width}}{b.name_en}: {size}")


def _board_info(b: Board) -> dict[str, object]:
    return {
        "id": b.id,
        "version": b.version,
        "name_en": b.name_en,
        "name_fr": b.name_fr,
        "territories": len(b.territories),
        "groups": len(b.groups),
        "missions": len(b.missions),
        "hash": b.content_hash,
    }


# How each kind of fact (risk_core.board.FACT_KINDS) is named in texts.
KIND_LABELS = {
    "board": "board-wide notes",
    "territory": "territories",
    "card": "card symbols",
    "edge": "edges",
    "bonus": "group bonuses",
    "sea_zone": "sea zones",
    "route": "route bonuses",
    "mission": "missions",
    "section": "section items",
}
MARK = "*"
LEGEND = f"  {MARK} not verified against a rulebook or the board: reconstructed or a placeholder"


def facts_sentence(b: Board, detailed: bool = False, see: bool = True) -> str:
    """How many of the board's recorded facts are unverified (CORE-01, GAP-nn), in one line;
    ``detailed`` adds the counts by kind, ``see`` where to read them all."""
    counts = fact_counts(b)
    notes = counts.pop("board", (0, 0))[0]
    unverified = sum(u for u, _ in counts.values())
    total = sum(n for _, n in counts.values())
    text = f"Board {b.id}: {unverified} of {total} recorded facts are reconstructed or unverified"
    if detailed:
        kinds = ", ".join(f"{KIND_LABELS[k]} {u}/{n}" for k, (u, n) in counts.items() if u)
        text += f" ({kinds})" if kinds else ""
        text += f", plus {notes} board-wide note{'s' if notes > 1 else ''}" if notes else ""
    return f"{text}; see `risk boards show {b.id}`." if see else f"{text}."


def _counts_info(b: Board) -> dict[str, dict[str, int]]:
    return {k: {"unverified": u, "recorded": n} for k, (u, n) in fact_counts(b).items()}


def _board_details(b: Board) -> dict[str, object]:
    """Card decks, rule-family sections and unverified facts (CORE-01, GAP-nn provenance)."""
    return {
        "decks": {deck: len(b.deck_cards(deck)) for deck in b.decks},
        "sections": {name: section_size(value) for name, value in b.sections.items()},
        "facts": _counts_info(b),
        "unverified": [msgspec.to_builtins(f) for f in unverified_facts(b)],
    }


def _summary_text(b: Board) -> str:
    """The board's header and its groups, unverified territories and bonuses marked."""
    unverified = {f.where for f in unverified_facts(b)}

    def name(where: str, text: str) -> str:
        return text + MARK if where in unverified else text

    lines = [
        f"{b.id} (version {b.version}): {b.name_en} / {b.name_fr}",
        f"  {len(b.territories)} territories, {len(b.groups)} groups, "
        f"{len(b.card_symbols)} cards ({b.jokers} jokers), {len(b.missions)} missions",
        f"  {b.content_hash}",
    ]
    for g, members in zip(b.groups, b.group_members, strict=True):
        names = ", ".join(name(f"territories.{b.territories[t].id}", b.name(t)) for t in members)
        bonus = name(f"groups.{g.id}.bonus", str(g.bonus))
        lines.append(f"  {g.name_en} (bonus {bonus}): {names}")
    if any(MARK in line for line in lines[3:]):
        lines.append(LEGEND)
    return "\n".join(lines)


def _details_text(b: Board) -> str:
    decks = ", ".join(f"{deck} {len(b.deck_cards(deck))}" for deck in b.decks)
    lines = [f"  card decks: {decks}"]
    lines += [f"  section {n}: {section_size(v)} items" for n, v in b.sections.items()]
    facts = unverified_facts(b)
    if facts:
        lines.append(f"  {facts_sentence(b, detailed=True, see=False)} Each one and why:")
        lines += _facts_text(facts)
    return "\n".join(lines)


def _facts_text(facts: list[UnverifiedFact]) -> list[str]:
    """The unverified facts by kind; items sharing a note are listed once, under it."""
    lines: list[str] = []
    for kind, label in KIND_LABELS.items():
        by_note: dict[str, list[str]] = {}
        for f in facts:
            if f.kind == kind:
                by_note.setdefault(f.note, []).append(f.where)
        if not by_note:
            continue
        lines.append(f"  {label} ({sum(map(len, by_note.values()))}):")
        for note, wheres in by_note.items():
            if len(wheres) == 1:
                lines.append(f"    {wheres[0]}: {note}")
                continue
            lines.append(f"    {len(wheres)} {label}: {note}")
            lines += _packed(wheres, 100, " " * 6)
    return lines


def _packed(items: list[str], width: int, indent: str) -> list[str]:
    """``items`` joined by commas into lines of at most ``width``, never splitting an item."""
    lines = [indent + items[0]]
    for item in items[1:]:
        if len(lines[-1]) + 2 + len(item) + 1 > width:
            lines[-1] += ","
            lines.append(indent + item)
        else:
            lines[-1] += ", " + item
    return lines


def _group_json(as_json: bool) -> bool:
    """``--json`` given to the subcommand or before it, to `risk boards` itself: `risk boards
    --json show NAME` prints JSON, as its errors already are (``risk_cli.conventions``)."""
    parent = click.get_current_context().parent
    return as_json or bool(parent is not None and parent.params.get("as_json"))


@boards.command(name="show")
@click.argument("name")
@json_option
def boards_show(name: str, as_json: bool) -> None:
    """Describe board NAME; with --json print its board.json file.

    Unverified territories and bonuses are marked with an asterisk; every unverified fact
    follows with the reasoning recorded for it.

    NAME is a shipped board, or the path of a board folder when it contains a slash
    (a rule family's own board, e.g. `./boards/toy`).
    """
    if "/" in name or os.sep in name:
        folder = Path(name)
        board = load_board_dir(folder)
    else:
        board = load_board(name)  # validates the name before any file is read
        folder = BOARDS_DIR / name
        if not (folder / "board.json").is_file():  # a rule family's own board (``board_dir``)
            from risk_core.rulesets.base import registered

            homes = [c.board_dir for c in registered().values() if c.board_name == name]
            folder = Path(next((h for h in homes if h), folder))
    if _group_json(as_json):
        click.echo((folder / "board.json").read_text(encoding="utf-8"), nl=False)
    else:
        click.echo(_summary_text(board))
        click.echo(_details_text(board))


@boards.command(name="check")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@json_option
def boards_check(path: Path, as_json: bool) -> None:
    """Validate the board folder PATH (board.json and optional missions.json).

    Lists every fact the data marks unverified, with its note (an unverified fact without one
    is an error, `unexplained_fact`).
    """
    board = load_board_dir(path)
    if _group_json(as_json):
        echo_json({"ok": True, **_board_info(board), **_board_details(board)})
    else:
        click.echo(
            f"OK: {board.id} v{board.version}, {len(board.territories)} territories, "
            f"{len(board.groups)} groups, {len(board.missions)} missions, "
            f"{board.content_hash}"
        )
        click.echo(_details_text(board))


@click.command()
@json_option
def schema(as_json: bool) -> None:
    """Print the JSON Schema of every command and event (always JSON)."""
    echo_json(json_schema())
