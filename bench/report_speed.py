"""How long the HTML report of a run takes to write and to open, against what a user runs today.

For each run folder, interleaved `--repeats` times (median printed, and the first call apart):
- `shortcutlab report RUN --out FILE` as a whole CLI process (interpreter start, imports, page);
- the library call `shortcutlab.webreport.build.write_html_report(RUN, FILE)` in this process
  (imports already paid: what a notebook pays per report);
- `shortcutlab results RUN --out DIR` as a whole CLI process: the Markdown tables, CSVs and PNG
  figures a user writes today;
- with `--baseline SRC`, the same `report` CLI run from another checkout's sources (`SRC` on
  PYTHONPATH, e.g. the main branch before a change), interleaved with this one, and the ratio;
- the CPU seconds (user + system) of both report CLI processes, and their ratio: what the
  machine's other load changes far less than the wall time;
then the page's size, whether the CLI's pages (the baseline's among them) are byte-identical,
whether the library's are, and whether the two are the same (they need not be: a note names an
option as the caller gave it, `--vary data` on the command line, `vary='data'` in Python), and
the browser `load` event (Navigation Timing `loadEventEnd - navigationStart`) in headless Debian
chromium via selenium, median of `--opens` fresh navigations of the file, with the console
errors it logged.

    python bench/report_speed.py [RUN ...] [--repeats 3] [--opens 5] [--baseline SRC]

Default runs: /work/bench-runs/goemotions-45 (shortcutlab run bench/goemotions-45.yaml) and
/work/bench-runs/synthetic-1000 (python bench/synthetic_store.py). The issue's bar: the 1,000-cell
page's load event in under 2 s. On a shared machine the wall times vary with the other load:
compare the columns of one run, measured interleaved, rather than runs of different days.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.browser: the test suite's headless chromium

from shortcutlab.engine.store import ResultStore  # noqa: E402

DEFAULT_RUNS = [Path("/work/bench-runs/goemotions-45"), Path("/work/bench-runs/synthetic-1000")]
NO_VALUE = "—"
LOAD_BAR_SECONDS = 2.0


def timed(action: Callable[[], object], cpu: list[float] | None = None) -> float:
    """Wall seconds of ``action``; with ``cpu``, also appends the CPU seconds (user + system) of
    the processes it ran, which the machine's other load changes far less than the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    action()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def cli(*arguments: str, source: Path | None = None) -> Callable[[], object]:
    """The CLI as a whole process (of the checkout whose sources are ``source``, when given)."""
    command = [sys.executable, "-m", "shortcutlab", *arguments]
    env = None if source is None else {**os.environ, "PYTHONPATH": str(source)}
    return lambda: subprocess.run(command, check=True, capture_output=True, env=env)


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
    run: Path, scratch: Path, repeats: int, opens: int, baseline: Path | None = None
) -> dict[str, Any]:
    timings: dict[str, list[float]] = {"report CLI": [], "library": [], "results --out": []}
    pages: dict[str, list[Path]] = {"CLI": [], "library": []}  # the baseline's is a CLI page
    cpu: dict[str, list[float]] = {"report CLI CPU": [], "baseline report CLI CPU": []}
    for repeat in range(repeats):
        by_cli = scratch / f"cli-{repeat}.html"
        by_library = scratch / f"library-{repeat}.html"
        pages["CLI"].append(by_cli)
        pages["library"].append(by_library)
        if baseline is not None:
            by_baseline = scratch / f"baseline-{repeat}.html"
            pages["CLI"].append(by_baseline)
            timings.setdefault("baseline report CLI", []).append(
                timed(
                    cli("report", str(run), "--out", str(by_baseline), source=baseline),
                    cpu["baseline report CLI CPU"],
                )
            )
        timings["report CLI"].append(
            timed(cli("report", str(run), "--out", str(by_cli)), cpu["report CLI CPU"])
        )
        timings["library"].append(timed(library(run, by_library)))
        results_dir = str(scratch / f"results-{repeat}")
        timings["results --out"].append(timed(cli("results", str(run), "--out", results_dir)))
    contents = {kind: {page.read_bytes() for page in written} for kind, written in pages.items()}
    loads, errors = load_times(pages["CLI"][0], opens)
    return {
        "run": run.name,
        "cells": cell_count(run),
        **{name: seconds(values) for name, values in timings.items()},
        "baseline ÷ report": ratio(timings.get("baseline report CLI"), timings["report CLI"]),
        **{f"{name} s": seconds(values) for name, values in cpu.items()},
        "baseline ÷ report, CPU": ratio(cpu["baseline report CLI CPU"], cpu["report CLI CPU"]),
        "MB": f"{pages['CLI'][0].stat().st_size / 1e6:.2f}",
        "CLI pages identical": "yes" if len(contents["CLI"]) == 1 else "NO",
        "library pages identical": "yes" if len(contents["library"]) == 1 else "NO",
        "library = CLI": "yes" if contents["CLI"] == contents["library"] else "no",
        "load s": seconds(loads),
        "console errors": str(len(errors)) if loads else NO_VALUE,
        "first error": errors[0][:120] if errors else "",
        "_load": statistics.median(loads) if loads else None,
    }


def ratio(baseline: list[float] | None, values: list[float]) -> str:
    """How many times the baseline's median the median of ``values`` is ("" without one)."""
    if not baseline:
        return ""
    return f"{statistics.median(baseline) / statistics.median(values):.1f}×"


def seconds(values: list[float]) -> str:
    """``median (first …)``; — when nothing was measured."""
    if not values:
        return NO_VALUE
    median = statistics.median(values)
    return f"{median:.2f}" if len(values) == 1 else f"{median:.2f} (first {values[0]:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", type=Path, default=DEFAULT_RUNS)
    parser.add_argument("--repeats", type=int, default=3, help="Report / results writes per run.")
    parser.add_argument("--opens", type=int, default=5, help="Browser opens of the page per run.")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="Another checkout's src folder: its report CLI is timed interleaved with this one's.",
    )
    args = parser.parse_args()
    missing = [str(run) for run in args.runs if not (run / "results.sqlite").exists()]
    if missing:
        sys.exit(f"not a run folder: {', '.join(missing)} (see this script's docstring)")
    rows = []
    for run in args.runs:
        with tempfile.TemporaryDirectory(prefix="report-speed-") as scratch:
            rows.append(measure(run, Path(scratch), args.repeats, args.opens, args.baseline))
    print(
        f"seconds: median of {args.repeats} writes (first call in brackets); load: median of "
        f"{args.opens} opens in headless chromium"
    )
    print_rows(rows)


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
