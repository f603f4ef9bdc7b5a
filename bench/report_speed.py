"""How long the HTML report of a run takes to write and to open, against what a user runs today.

For each run folder, in `--pairs` interleaved rounds of whole processes (bench/paired.py, medians,
wall and CPU seconds, peak RSS):
- `shortcutlab report RUN --out FILE` as a whole CLI process (interpreter start, imports, page);
- the library call `shortcutlab.webreport.build.write_html_report(RUN, FILE)` in this process
  (imports already paid: what a notebook pays per report), timed after the pairs;
- `shortcutlab results RUN --out DIR` as a whole CLI process: the Markdown tables, CSVs and PNG
  figures a user writes today;
- with `--baseline SRC`, the same `report` CLI run from another checkout's sources (`SRC` on
  PYTHONPATH, e.g. the main branch before a change), interleaved with this one, and the ratio;
then the page's size, whether the CLI's pages (the baseline's among them) are byte-identical,
whether the library's are, and whether the two are the same (they need not be: a note names an
option as the caller gave it, `--vary data` on the command line, `vary='data'` in Python), and
the browser `load` event (Navigation Timing `loadEventEnd - navigationStart`) in headless Debian
chromium via selenium, median of `--opens` fresh navigations of the file, with the console
errors it logged.

    python bench/report_speed.py [RUN ...] [--pairs 3] [--opens 5] [--baseline SRC] [--save]

RUN: a run folder, or the name of one this bench makes in bench/out/ on first use
(bench/made_inputs.py): goemotions-45 (shortcutlab run bench/goemotions-45.yaml) and
synthetic-1000 (bench/synthetic_store.py), both by default. The issue's bar: the 1,000-cell
page's load event in under 2 s. On a shared machine the wall times vary with the other load:
compare the columns of one run, measured interleaved, rather than runs of different days.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import made_inputs
import paired

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.browser: the test suite's headless chromium

from shortcutlab.engine.store import ResultStore  # noqa: E402

DEFAULT_RUNS = ["goemotions-45", "synthetic-1000"]  # made in bench/out/ on first use
NO_VALUE = "—"
LOAD_BAR_SECONDS = 2.0


def timed(action: Callable[[], object]) -> float:
    """Wall seconds of ``action`` in this process."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def library(run: Path, out: Path) -> Callable[[], object]:
    from shortcutlab.webreport.build import write_html_report

    return lambda: write_html_report(run, out)


def load_times(page: Path, opens: int) -> tuple[list[float], list[str]]:
    """Seconds to the load event of ``opens`` fresh navigations, and the console errors logged."""
    import pytest

    from tests.browser import console_errors, open_file, start_browser

    try:
        browser = start_browser()
    except pytest.skip.Exception as missing:  # no chromium here: say so, time nothing
        print(f"browser load not measured: {missing}")
        return [], []
    errors: list[str] = []
    times = []
    try:
        for _ in range(opens):
            browser.get("about:blank")
            open_file(browser, page)  # selenium returns once the load event has fired
            milliseconds = browser.execute_script(
                "const t = performance.timing; return t.loadEventEnd - t.navigationStart;"
            )
            times.append(milliseconds / 1000)
            errors += console_errors(browser)
    finally:
        browser.quit()
    return times, errors


def cell_count(run: Path) -> int:
    with ResultStore.for_run(run) as store:
        return len(store.spec_cells())


def measure(
    run: Path, scratch: Path, pairs: int, opens: int, baseline: Path | None = None
) -> tuple[dict[str, Any], list[paired.Comparison]]:
    """The report CLI next to `results --out` (what a user writes today) and, with ``baseline``,
    next to that checkout's report, in interleaved pairs of whole processes; then the library
    call in this process, whether every page is the same, and the page's load in a browser."""
    page, old_page, library_page = (scratch / name for name in ("cli.html", "old.html", "lib.html"))
    pages: list[bytes] = []

    def cli_side(label: str, arguments: list[str], out: Path, source: Path | None) -> paired.Side:
        def keep_then_clear() -> None:  # the page of every run is compared, then cleared
            if out.is_file():
                pages.append(out.read_bytes())
                out.unlink()
            shutil.rmtree(out, ignore_errors=True) if out.is_dir() else None

        env = None if source is None else {"PYTHONPATH": str(source)}
        command = [sys.executable, "-m", "shortcutlab", *arguments]
        return paired.Side(label, lambda: command, env=env, prepare=keep_then_clear)

    tool = cli_side("shortcutlab report", ["report", str(run), "--out", str(page)], page, None)
    alternatives = [
        cli_side("shortcutlab results --out", ["results", str(run), "--out", str(scratch / "r")],
                 scratch / "r", None),
    ]  # fmt: skip
    if baseline is not None:
        alternatives.append(cli_side(f"shortcutlab report, {paired.tree_name(baseline)}",
                                     ["report", str(run), "--out", str(old_page)], old_page,
                                     baseline))  # fmt: skip
    step = f"report, {cell_count(run):,} cells"
    compared = paired.compare_all(step, tool, alternatives, pairs=pairs)
    last = page.read_bytes()
    library_seconds = [timed(library(run, library_page)) for _ in range(pairs)]
    loads, errors = load_times(page, opens)
    row = {
        "run": run.name,
        "cells": cell_count(run),
        "library s": seconds(library_seconds),
        "MB": f"{len(last) / 1e6:.2f}",
        "CLI pages identical": "yes" if {last, *pages} == {last} else "NO",
        "library = CLI": "yes" if library_page.read_bytes() == last else "no",
        "load s": seconds(loads),
        "console errors": str(len(errors)) if loads else NO_VALUE,
        "first error": errors[0][:120] if errors else "",
        "_load": statistics.median(loads) if loads else None,
    }
    return row, compared


def seconds(values: list[float]) -> str:
    """``median (first …)``; — when nothing was measured."""
    if not values:
        return NO_VALUE
    median = statistics.median(values)
    return f"{median:.2f}" if len(values) == 1 else f"{median:.2f} (first {values[0]:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", nargs="*", type=made_inputs.input_folder, help="run folders, or names of made ones"
    )
    paired.add_options(parser)
    parser.add_argument("--opens", type=int, default=5, help="Browser opens of the page per run.")
    parser.add_argument(
        "--baseline",
        type=paired.source_tree,
        help="Another checkout's src folder (or a git revision): its report CLI is timed "
        "interleaved with this one's.",
    )
    args = parser.parse_args()
    args.runs = args.runs or [made_inputs.input_folder(name) for name in DEFAULT_RUNS]
    missing = [str(run) for run in args.runs if not (run / "results.sqlite").exists()]
    if missing:
        sys.exit(f"not a run folder: {', '.join(missing)} (see this script's docstring)")
    rows, results = [], []
    for run in args.runs:
        with tempfile.TemporaryDirectory(prefix="report-speed-") as scratch:
            row, compared = measure(run, Path(scratch), args.pairs, args.opens, args.baseline)
            rows.append(row)
            results += compared
    print(f"library: median of {args.pairs} calls; load: median of {args.opens} opens in chromium")
    print_rows(rows)
    if args.save:
        paired.write_results("report_speed", results)


def print_rows(rows: list[dict[str, Any]]) -> None:
    """The measurements as a Markdown table, then the 1,000-cell page's load against the bar."""
    columns = [c for c in rows[0] if not c.startswith("_") and any(row[c] for row in rows)]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")
    for row in rows:
        if row["cells"] >= 1000 and row["_load"] is not None:
            verdict = "under" if row["_load"] < LOAD_BAR_SECONDS else "OVER"
            print(
                f"{row['run']}: load event {row['_load']:.2f} s, {verdict} the issue's "
                f"{LOAD_BAR_SECONDS:g} s for a 1,000-cell page"
            )


if __name__ == "__main__":
    main()
