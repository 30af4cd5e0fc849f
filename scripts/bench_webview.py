"""Web viewer benchmark: how long a 10,000-event game takes to show in `risk view`.

    .venv/bin/python scripts/bench_webview.py [--turns 2000] [--seed 5] [--repeat 3] [--store FILE]

Plays a 6-player classic game between random bots for ``--turns`` turns (about 10,000 events
at 2,000 turns; in a temporary SQLite file, or in ``--store FILE``, where the game of an
earlier run is reused), then, in the same run, times:

* `risk show GAME` as a process (the baseline: a position in the terminal);
* `risk view GAME` as a process until it prints its URL (the data of every version computed);
* the page in headless Chromium: from opening the address to the final position drawn;
* moving between two distant versions (100 and the last, back and forth): the redraw itself
  (map, log, tables, layout), and the slider's input until the next frame is painted; the
  page redraws from the data it holds, without a request and without reloading.

Needs the system's ``chromium`` and Playwright.  Figures only; no assertion.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN_CLI = "import sys; from risk_cli.main import cli; sys.exit(cli())"


def risk(store: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN_CLI, "--create", "--store", store, *args],
        capture_output=True,
        text=True,
        check=check,
    )


def long_game(store: str, turns: int, seed: int) -> str:
    """The id of a game of about 5 events per turn (reused when the store has one)."""
    listed = json.loads(risk(store, "games", "--json").stdout)
    if listed:
        return str(max(listed, key=lambda g: g["version"])["game_id"])
    made = risk(
        store, "demo", "--players", "6", "--level", "random", "--seed", str(seed),
        "--max-turns", str(turns), "--json", check=False,
    )  # fmt: skip
    found = re.search(r"Game (\w+) did not end", made.stdout + made.stderr)
    if found:  # stopped at --max-turns: stored as it stands, which is what is wanted
        return found.group(1)
    return str(json.loads(made.stdout)["game_id"])


def timed(f: object) -> float:
    start = time.perf_counter()
    f()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--store", type=Path)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-webview-"))
    store = f"sqlite:///{args.store or folder / 'games.db'}"
    game = long_game(store, args.turns, args.seed)
    events = json.loads(risk(store, "show", game, "--json").stdout)["version"]
    print(f"game {game}: {events} events")

    show = [timed(lambda: risk(store, "show", game)) for _ in range(args.repeat)]
    print(f"risk show GAME (process):              {statistics.median(show) * 1000:8.0f} ms")

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    starts, loads, moves, redraws = [], [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium)
        for _ in range(args.repeat):
            start = time.perf_counter()
            server = subprocess.Popen(
                [sys.executable, "-c", RUN_CLI, "--store", store, "view", game, "--port", "0"],
                stdout=subprocess.PIPE,
                text=True,
            )
            assert server.stdout is not None
            url = re.search(r"(http://\S+)", server.stdout.readline())
            starts.append(time.perf_counter() - start)
            assert url, "risk view printed no address"
            page = browser.new_page(bypass_csp=True)  # to time inside the page
            start = time.perf_counter()
            page.goto(url.group(1))
            page.wait_for_selector("body[data-ready='1']")
            loads.append(time.perf_counter() - start)
            for target in [100, events] * 5:
                redraws.append(
                    page.evaluate(
                        """(v) => {
                            const t = performance.now();
                            window.riskView.show(v);
                            document.body.getBoundingClientRect();  // the layout done too
                            return performance.now() - t;
                        }""",
                        target,
                    )
                    / 1000
                )
                moves.append(
                    page.evaluate(
                        """async (v) => {
                            const slider = document.getElementById('slider');
                            const t = performance.now();
                            slider.value = String(v);
                            slider.dispatchEvent(new Event('input'));
                            await new Promise(r => requestAnimationFrame(() => setTimeout(r)));
                            const shown = document.body.dataset.version;
                            if (shown !== String(v)) throw new Error('not moved');
                            return performance.now() - t;
                        }""",
                        target,
                    )
                    / 1000
                )
            page.close()
            server.terminate()
            server.wait()
        browser.close()
    print(f"risk view GAME: address printed after  {statistics.median(starts) * 1000:8.0f} ms")
    print(f"page: final position drawn after       {statistics.median(loads) * 1000:8.0f} ms")
    median, most = statistics.median(redraws) * 1000, max(redraws) * 1000
    print(f"version 100 <-> {events}: redrawn in     {median:8.1f} ms (median), {most:.1f} max")
    median, most = statistics.median(moves) * 1000, max(moves) * 1000
    print(f"slider moved: on screen after          {median:8.1f} ms (median), {most:.1f} max")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
