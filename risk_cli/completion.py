"""Shell completion: game ids and territory names.

click completes commands and options itself; enable it with

    eval "$(_RISK_COMPLETE=bash_source risk)"     # bash, in ~/.bashrc
    eval "$(_RISK_COMPLETE=zsh_source risk)"      # zsh, in ~/.zshrc
    _RISK_COMPLETE=fish_source risk | source      # fish, in ~/.config/fish/completions/risk.fish

A GAME completes from the games of the store (``--store``/``RISK_STORE``, else the default
file) or, with ``--redis``, of the profile; TERRITORY, FROM and TO from the board of the game
named before them (or ``RISK_GAME``'s).  Completing never starts a store, never asks the
service, and never fails aloud: anything that goes wrong completes nothing.
"""

from __future__ import annotations

import os
from typing import Any

import click
from click.shell_completion import CompletionItem


def _root_params(ctx: click.Context) -> dict[str, Any]:
    return ctx.find_root().params


def game_ids(ctx: click.Context) -> list[str]:
    """The ids of the games this user has: the profile's with --redis, else the store's
    (none when the store does not exist yet).  Never raises."""
    try:
        params = _root_params(ctx)
        if params.get("redis_url") or os.environ.get("RISK_REDIS_URL"):
            from risk_cli import profile

            return sorted(profile.load().games)
        service = _existing_store(params.get("store"))
        if service is None:
            return []
        try:
            return [g.game_id for g in service.games()]
        finally:
            service.close()
    except Exception:  # completion and suggestions are a help, never an error
        return []


def _existing_store(url: str | None) -> Any:
    """The store at ``url`` if it exists (a SQLite file is never started here), else None."""
    from risk_service import GameService
    from risk_service.stores import parse_store

    url = url or os.environ.get("RISK_STORE")
    path = parse_store(url).path
    if path is not None and not path.exists():
        return None
    return GameService(url, create=False, background_checkpoints=False)


def complete_games(ctx: click.Context, incomplete: str) -> list[CompletionItem]:
    key = incomplete.casefold()
    return [CompletionItem(g) for g in game_ids(ctx) if g.casefold().startswith(key)]


def territories(ctx: click.Context) -> list[tuple[str, str]]:
    """(id, name) of every territory of the board of the game in ``ctx`` (its GAME argument,
    else ``RISK_GAME``); none when there is no such game.  Never raises."""
    try:
        game = ctx.params.get("game_id") or os.environ.get("RISK_GAME", "").strip()
        if not game:
            return []
        board = _board_of(ctx, game)
        if board is None:
            return []
        from risk_core import load_board

        return [(t.id, t.name_en) for t in load_board(board).territories]
    except Exception:
        return []


def _board_of(ctx: click.Context, game: str) -> Any:
    params = _root_params(ctx)
    if params.get("redis_url") or os.environ.get("RISK_REDIS_URL"):
        return None  # the service is not asked while completing
    service = _existing_store(params.get("store"))
    if service is None:
        return None
    try:
        return service.state(game).board
    finally:
        service.close()


class TerritoryName(click.types.StringParamType):
    """A territory's id or name, as the commands read it (plain text); completed with the ids
    of the game's board."""

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        key = incomplete.casefold()
        known = territories(ctx)
        found = [(i, n) for i, n in known if i.casefold().startswith(key)]
        if not found:  # a word inside the name: `kamch`, `congo`
            found = [(i, n) for i, n in known if key in i.casefold() or key in n.casefold()]
        return [CompletionItem(i, help=n) for i, n in found]


TERRITORY = TerritoryName()
