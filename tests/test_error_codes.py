"""Every error code the code base can raise is one the README lists for scripts to match.

How the codes are collected (a static scan of ``risk_core``, ``risk_service`` and ``risk_cli``
with ``ast``, so that a code in a branch no test reaches is found too):

* an *error class* is ``RiskError`` or any class defined in those packages whose base is an
  error class (``RuleError``, ``SetupError``, ``ServiceError``, ``BoardError``, ``RemoteError``…
  and any added later);
* a *code site* is a call of an error class (its first argument, or ``code=``) or of the
  service's ``Reply`` (its ``code=``);
* the code expression gives its string constants; a conditional gives both branches; a name
  bound in the same function gives the values assigned to it; a name that is a parameter of
  the function gives the string constants passed in that place by every call of that function
  (``_reject(rid, "bad_request", …)``, ``_check_unique(ids, "duplicate_territory", …)``).
  ``err.code`` and the like pass on a code raised elsewhere and add none.

The README's "Error codes scripts can match" paragraph must name each one in backquotes.  The
last two tests check two behaviours it documents: a request id used again with other content
is refused (``request_id_reused``; with the same content it gets the first reply), and an
export whose header names another game than its events is refused (``game_id_mismatch``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("risk_core", "risk_service", "risk_cli")
README_PARAGRAPH = "Error codes scripts can match"


# --------------------------------------------------------------------------- the scan
def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


class _Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None


def _modules() -> list[_Module]:
    return [_Module(p) for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]


def _error_classes(modules: list[_Module]) -> set[str]:
    classes = {"RiskError"}
    defined = [
        (node.name, {_name(b) for b in node.bases})
        for m in modules
        for node in ast.walk(m.tree)
        if isinstance(node, ast.ClassDef)
    ]
    grown = True
    while grown:
        before = len(classes)
        classes |= {name for name, bases in defined if bases & classes}
        grown = len(classes) > before
    return classes


def _code_argument(call: ast.Call, *, positional: bool) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == "code":
            return kw.value
    return call.args[0] if positional and call.args else None


def _argument_at(call: ast.Call, func: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> Any:
    names = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
    offset = 1 if names[:1] in (["self"], ["cls"]) else 0  # a method, called as x.method(...)
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    if param in names:
        i = names.index(param) - offset
        if 0 <= i < len(call.args):
            return call.args[i]
    return None


class _Scan:
    def __init__(self) -> None:
        self.modules = _modules()
        self.errors = _error_classes(self.modules)
        self.codes: dict[str, str] = {}  # code → where it was first found
        self.functions = {
            node.name: node
            for m in self.modules
            for node in ast.walk(m.tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }

    def run(self) -> dict[str, str]:
        for m in self.modules:
            for node in ast.walk(m.tree):
                if isinstance(node, ast.Call):
                    name = _name(node.func)
                    if name in self.errors or name == "Reply":
                        expr = _code_argument(node, positional=name != "Reply")
                        if expr is not None:
                            self._collect(m, node, expr, set())
        return self.codes

    def _collect(self, m: _Module, site: ast.AST, expr: ast.expr, seen: set[Any]) -> None:
        where = f"{m.path.relative_to(ROOT)}:{getattr(site, 'lineno', 0)}"
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            self.codes.setdefault(expr.value, where)
        elif isinstance(expr, ast.IfExp):
            self._collect(m, site, expr.body, seen)
            self._collect(m, site, expr.orelse, seen)
        elif isinstance(expr, ast.BoolOp):
            for value in expr.values:
                self._collect(m, site, value, seen)
        elif isinstance(expr, ast.Name):
            self._name(m, site, expr.id, seen)

    def _name(self, m: _Module, site: ast.AST, name: str, seen: set[Any]) -> None:
        func = m.function_of(site)
        if func is None or (func, name) in seen:
            return
        seen = seen | {(func, name)}
        for node in ast.walk(func):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign | ast.NamedExpr):
                targets = [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                value = getattr(node, "value", None)
                if value is not None:
                    self._collect(m, node, value, seen)
        params = [a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]]
        if name not in params:
            return
        for caller in self.modules:
            for call in ast.walk(caller.tree):
                if isinstance(call, ast.Call) and _name(call.func) == func.name:
                    arg = _argument_at(call, func, name)
                    if arg is not None:
                        self._collect(caller, call, arg, seen)


def raised_codes() -> dict[str, str]:
    """Every error code of the code base, with the place it was first found."""
    return _Scan().run()


def documented_codes() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(README_PARAGRAPH)
    end = text.find("\n\n", start)
    return set(re.findall(r"`([a-z0-9_]+)`", text[start:end]))


# --------------------------------------------------------------------------- the tests
def test_the_scan_finds_codes_of_every_kind() -> None:
    """The scan itself: plain constants, both branches of a conditional, the service's
    replies, and codes handed to a helper as an argument."""
    codes = raised_codes()
    for code in (
        "not_your_turn",  # RuleError("not_your_turn", …)
        "not_connected",  # RuleError("not_adjacent" if … else "not_connected", …)
        "must_place",  # code = "must_trade" if … else "must_place"
        "failed",  # Reply(…, code="failed")
        "stale_timeout",  # _reject(rid, "stale_timeout", …)
        "bad_store",  # ServiceError("bad_store", …)
    ):
        assert code in codes, code


def test_every_error_code_is_in_the_readme() -> None:
    documented = documented_codes()
    missing = {c: where for c, where in sorted(raised_codes().items()) if c not in documented}
    assert not missing, f"codes the README does not list: {missing}"


# --------------------------------------------------------------------------- request ids
def test_a_reused_request_id_with_other_content_is_refused() -> None:
    """Same id, same content: the first reply again (a retry); same id, other content:
    ``request_id_reused``, and nothing is decided."""
    import risk_core
    from risk_service import GameService
    from risk_service.handler import Handler, Item
    from risk_service.protocol import CommandRequest
    from tests.servicekit import claim, new_game

    with GameService("memory://") as service:
        service.create_schema()
        handler = Handler(service, chosen_seeds=True)
        n = 0

        def ask(request: Any) -> Any:
            nonlocal n
            n += 1
            [reply] = handler.handle([Item(0, n, request, seen=True)], {0: 1})
            return reply

        new, _, invitations = new_game("g1", ["Ann", "Bob", "Cy"], request_id="n1", seed=1)
        created = ask(new)
        assert created.ok
        assert ask(new) == created  # a retry
        other = msgspec.structs.replace(new, game_id="g2")
        assert ask(other).code == "request_id_reused"
        other = msgspec.structs.replace(new, players=["Ann", "Bob", "Dee"])
        assert ask(other).code == "request_id_reused"

        state = service.state("g1")
        seat = risk_core.to_act(state)
        assert seat is not None
        claimed, key = claim(invitations[seat])
        assert ask(claimed).ok
        command = risk_core.bots.choose(state, level="greedy", seed=1)
        request = key.sign(
            CommandRequest(request_id="c1", game_id="g1", seat=seat, command=command)
        )
        first = ask(request)
        assert first.ok
        assert ask(request) == first
        version = service.state("g1").version
        other_command = risk_core.bots.choose(service.state("g1"), level="random", seed=9)
        reused = key.sign(msgspec.structs.replace(request, command=other_command))
        assert ask(reused).code == "request_id_reused"
        assert service.state("g1").version == version  # nothing decided


# --------------------------------------------------------------------------- imports
def _renamed_header(data: bytes, game_id: str) -> bytes:
    import json

    first, _, body = data.partition(b"\n")
    header = json.loads(first)
    header["game_id"] = game_id
    return json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" + body


def test_an_export_naming_another_game_is_refused() -> None:
    """An export whose header names another game than its opening (``game_started.game_id``,
    to which the seed commitment is bound) is refused; ``--id`` names the copy explicitly."""
    from risk_core import bots
    from risk_service import GameService
    from risk_service.exchange import export_game, import_game

    with GameService("memory://") as source, GameService("memory://") as target:
        source.create_schema()
        target.create_schema()
        source.new_game("classic", ["Ann", "Bob", "Cy"], seed=3, game_id="orig")
        for i in range(20):
            source.submit("orig", bots.choose(source.state("orig"), level="greedy", seed=i))
        data = export_game(source, "orig")
        forged = _renamed_header(data, "other")
        with pytest.raises(Exception) as err:
            import_game(target, forged)
        assert getattr(err.value, "code", None) == "game_id_mismatch", err.value
        assert "orig" in str(err.value) and "other" in str(err.value)
        assert [g.game_id for g in target.games()] == []
        # Named by the importer: a copy whose opening still names the game it was played as.
        assert import_game(target, forged, game_id="copy").game_id == "copy"
        assert import_game(target, data).game_id == "orig"
