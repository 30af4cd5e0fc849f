"""issue 19: the viewer's page in a real browser: headless Chromium driven by Playwright.

Chromium is the system's (Debian's ``chromium`` package), never one Playwright downloads.
Without it (or without Playwright) these tests are skipped with a warning, unless
``RISK_REQUIRE_BROWSER=1`` (set by .ci/run), which makes them fail instead.

The games and the server are tests/test_webview.py's.  A screenshot of the page is written to
``$RISK_ARTIFACTS`` (default: the test's temporary folder) as ``webview.png``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.requiredkit import unavailable
from tests.test_webview import XSS, Games, games, napoleon, serving

__all__ = ["games", "napoleon"]  # tests/test_webview.py's fixtures, its games shared

CHROMIUM_PATHS = ("chromium", "chromium-browser", "/usr/bin/chromium")


def _chromium() -> str | None:
    for name in CHROMIUM_PATHS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _unavailable(message: str) -> None:
    unavailable(message, "RISK_REQUIRE_BROWSER")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless system Chromium, or a loud skip."""
    executable = _chromium()
    if executable is None:
        _unavailable("browser tests not run: no chromium (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("browser tests not run: Playwright is not installed (pip install playwright)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    yield opened
    context.close()
    assert errors == []  # no script error on any page of the test


def open_at(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=20000)


def version(page: Any) -> int:
    return int(page.get_attribute("body", "data-version"))


def board_in_dom(page: Any) -> dict[str, list[int]]:
    """Each territory's owner and armies as the map shows them (disc data, label text)."""
    cells: dict[str, list[int]] = page.eval_on_selector_all(
        "circle[data-territory]",
        """cs => Object.fromEntries(cs.map(c => [c.dataset.territory,
            [+c.dataset.owner, +c.dataset.armies, +c.nextElementSibling.textContent]]))""",
    )
    return cells


def check_board(page: Any, games: Games, game_id: str, at: int) -> None:
    shown = games.json("show", game_id, "--at", str(at))
    cells = board_in_dom(page)
    assert {t: [o, a] for t, (o, a, _) in cells.items()} == {
        t: [c["owner"], c["armies"]] for t, c in shown["territories"].items()
    }, at
    assert all(a == label for _, a, label in cells.values())  # the visible number too


def test_replay_by_url_and_keys_matches_risk_show(page: Any, games: Games, tmp_path: Path) -> None:
    """issue 19: jump to a version by URL, step by keys; the map is `risk show --at N`'s."""
    total = games.json("show", games.finished)["version"]
    with serving(games, games.finished) as server:
        open_at(page, f"{server.url}?v=120")
        assert version(page) == 120
        check_board(page, games, games.finished, 120)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert version(page) == 122 and page.url.endswith("?v=122")
        check_board(page, games, games.finished, 122)
        page.keyboard.press("ArrowLeft")
        assert version(page) == 121
        turn = games.json("show", games.finished, "--at", "121")["turn"]
        page.keyboard.press("ArrowDown")  # the next turn's first event
        v = version(page)
        assert games.json("show", games.finished, "--at", str(v))["turn"] == turn + 1
        assert games.json("show", games.finished, "--at", str(v - 1))["turn"] == turn
        page.keyboard.press("ArrowUp")
        assert version(page) < v
        page.keyboard.press("End")
        assert version(page) == total
        check_board(page, games, games.finished, total)
        assert "has won" in page.text_content("#status")
        # The log line of the version shown is the one marked; a battle shows its dice.
        current = page.locator("#log li.current")
        assert current.get_attribute("data-v") == str(total)
        assert page.locator("#log li .die.att").count() > 0
        # The slider moves without reloading the page.
        page.evaluate("window.notReloaded = true")
        page.fill("#slider", "40")  # sets the value and fires input
        page.wait_for_selector("body[data-version='40']")
        assert page.evaluate("window.notReloaded") is True
        check_board(page, games, games.finished, 40)
        # Charts and the luck report are drawn, one line / bar per seat.
        assert page.locator("#chart-territories polyline").count() == 3
        assert page.locator("#chart-luck rect[data-losses]").count() == 3
        # The artefact: the page at version 300.
        folder = Path(os.environ.get("RISK_ARTIFACTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        open_at(page, f"{server.url}?v=300")
        page.screenshot(path=str(folder / "webview.png"), full_page=True)
        assert (folder / "webview.png").stat().st_size > 10_000


def test_a_branch_opens_from_the_tree_and_versions_compare(page: Any, games: Games) -> None:
    """issue 19: the tree's branch is one click away; a diff of two versions is shown."""
    with serving(games, games.finished) as server:
        open_at(page, f"{server.url}?v=200")
        link = page.locator(f"#tree li[data-game='{games.branch}'] > a")
        assert "after version 200" in page.text_content(f"#tree li[data-game='{games.branch}']")
        link.click()
        page.wait_for_url(f"**/{games.branch}")
        page.wait_for_selector("body[data-ready='1']")
        branch_total = games.json("show", games.branch)["version"]
        assert version(page) == branch_total
        check_board(page, games, games.branch, branch_total)
        # Mark version 150, move to 200: the differences listed are the map's.
        page.keyboard.press("Home")
        page.fill("#slider", "150")
        page.wait_for_selector("body[data-version='150']")
        page.click("#mark")
        page.fill("#slider", "200")
        page.wait_for_selector("body[data-version='200']")
        a = games.json("show", games.branch, "--at", "150")["territories"]
        b = games.json("show", games.branch, "--at", "200")["territories"]
        changed = {t for t in a if a[t] != b[t]}
        listed = set(
            page.eval_on_selector_all("#diff li[data-diff]", "ls => ls.map(l => l.dataset.diff)")
        )
        assert {t for t in listed if not t.startswith("seat-")} == changed
    # From the parent, the branch is compared at the version shown, as `risk diff` does.
    with serving(games, games.finished) as server:
        open_at(page, f"{server.url}?v=300")
        page.click(f"#tree li[data-game='{games.branch}'] > button.compare")
        page.wait_for_selector(f"#diff li[data-compared='{games.branch}']")
        expected = games.json(
            "diff", games.finished, games.branch, "--at-a", "300", "--at-b", "201"
        )
        assert page.locator("#diff li[data-diff]").count() == len(expected["differences"]) > 0


def test_a_seat_sees_its_hand_and_never_another(page: Any, games: Games) -> None:
    """issue 19 / ENG-07: --as Ann shows Ann's hand; no response carries another seat's."""
    bodies: list[Any] = []
    page.on(
        "response",
        lambda r: bodies.append(r) if r.url.endswith(".json") or "data.json" in r.url else None,
    )
    with serving(games, games.finished, "--as", "Ann") as server:
        at = 300
        open_at(page, f"{server.url}?v={at}")
        shown = games.json("show", games.finished, "--as", "Ann", "--at", str(at))
        hand = page.eval_on_selector_all(
            "#hand li[data-card]", "ls => ls.map(l => [l.dataset.seat, +l.dataset.card])"
        )
        assert hand == [["0", c["id"]] for c in shown["players"][0]["hand"]]
        assert page.is_visible("#secrets")
        received = [json.loads(r.body()) for r in bodies]
    assert received
    for data in received:
        for frame in data["frames"]:
            assert set(frame.get("h", {})) <= {"0"}
    # A spectator's page has no hand at all, in the page or in what it received.
    bodies.clear()
    with serving(games, games.finished) as server:
        open_at(page, f"{server.url}?v=300")
        assert not page.is_visible("#secrets")
        assert page.locator("#hand li").count() == 0
        for r in bodies:
            assert '"hand"' not in r.text() and '"mission"' not in r.text()


def test_a_seat_sees_its_familys_secrets(page: Any, games: Games, napoleon: str) -> None:
    """ENG-07 / NAP-ADV-07: --as Ann on a napoleon-advanced game shows Ann's missions, as
    `risk show --as Ann` gives them, and never another seat's."""
    with serving(games, napoleon, "--as", "Ann") as server:
        at = 200
        open_at(page, f"{server.url}?v={at}")
        shown = games.json("show", napoleon, "--as", "Ann", "--at", str(at))["players"]
        told = page.text_content("#mission")
        assert told == "Missions: " + "; ".join(m["text_en"] for m in shown[0]["missions"])
        assert page.locator("#hand li[data-seat='0']").count() == len(shown[0]["hand"])
        assert page.locator("#secrets [data-seat]:not([data-seat='0'])").count() == 0


def test_a_player_named_script_runs_nothing(page: Any, games: Games) -> None:
    """issue 19: a player named <script>alert(1)</script> is shown as text; nothing runs."""
    dialogs: list[str] = []

    def dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    with serving(games, games.xss) as server:
        open_at(page, server.url)
        names = page.eval_on_selector_all(
            "#players tbody tr td:nth-child(2)", "ts => ts.map(t => t.textContent)"
        )
        page.keyboard.press("Home")
        for _ in range(5):
            page.keyboard.press("ArrowDown")
    assert names[0] == XSS
    assert dialogs == []
    assert page.locator("script:not([id]):not([src])").count() == 0  # no script was injected


def test_the_export_works_offline(page: Any, games: Games, tmp_path: Path) -> None:
    """issue 19: the exported file needs no server and makes no request."""
    out = tmp_path / "game.html"
    games.risk("view", "--export", games.finished, "-o", str(out))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_at(page, f"{out.as_uri()}?v=77")
    assert version(page) == 77
    check_board(page, games, games.finished, 77)
    page.keyboard.press("ArrowRight")
    assert version(page) == 78
    assert [u for u in requests if not u.startswith("file:")] == []


def test_a_live_game_is_followed_without_a_reload(page: Any, games: Games) -> None:
    """issue 19: moves played while the page shows the last version appear by themselves."""
    with serving(games, games.live) as server:
        open_at(page, server.url)
        before = version(page)
        assert page.is_visible("#live")
        page.evaluate("window.notReloaded = true")
        games.risk("bot", games.live, "--as", str(games.json("show", games.live)["to_act"]))
        after = games.json("show", games.live)["version"]
        assert after > before
        page.wait_for_selector(f"body[data-version='{after}']", timeout=15000)
        assert page.evaluate("window.notReloaded") is True
        check_board(page, games, games.live, after)
