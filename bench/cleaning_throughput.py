"""Time Shortcut.clean and Shortcut.observe on GoEmotions-like rows (issue 7's budget: < 0.1 s
each for single-term on 200,000 rows), and cleaning as a whole process next to a plain regex.

The headline, as whole processes in interleaved pairs (bench/paired.py), for each shortcut:
bench/tool/clean_rows.py, which reads the rows, cleans them through the public API
(``make_shortcut(NAME).clean``: no CLI command cleans and does nothing else) and writes them with
their per-row counts, next to bench/plain/clean_regex.py, the closest thing a user would write: one
case-insensitive, word-bounded regex of the cue phrases over the column with pandas, counted and
replaced, and the rows written. It is not an exact alternative (no sentence markers, joints or
deliberately kept occurrences), which is why it is the plain one. The rows and the phrase lists
are written once, untimed, to a temporary folder both sides read.

Then the in-process micro-benchmark, against the budget:

The rows are the GoEmotions Maze release's train.csv repeated. Each run gets new string objects
("fresh": CPython has not cached their UTF-8 yet, as for rows just read or just injected) and the
script prints the median and the fastest of the runs; "in a build" times observe on the injected
texts as a build passes them (rows without the cue are the cleaned objects, already encoded).

    SHORTCUTLAB_GOEMOTIONS=/path/to/goemotions-maze python bench/cleaning_throughput.py \\
        [--rows 200000] [--runs 7] [--shortcuts single-term,synonym,category] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import paired
import pandas as pd
from paired import Comparison, Side, compare, write_results

from shortcutlab.data import LabelSpace
from shortcutlab.shortcuts import SplitPlan, make_shortcut

BENCH = Path(__file__).resolve().parent


def cue_phrases(shortcut) -> list[str]:
    """The phrases a plain script would remove for this shortcut (its public fields)."""
    if hasattr(shortcut, "term"):
        return [shortcut.term]
    if hasattr(shortcut, "terms"):
        return list(shortcut.terms)
    fields = ("train_countries", "test_countries", "train_cities", "test_cities")
    return [name for field in fields for name in getattr(shortcut, field, ())]


def paired_cleaning(texts: list[str], names: list[str], pairs: int) -> list[Comparison]:
    """Each shortcut's cleaning as a whole process against the plain regex script."""
    results = []
    with tempfile.TemporaryDirectory() as work:
        rows, out = Path(work) / "rows.csv", Path(work) / "out.csv"
        pd.DataFrame({"text": texts}).to_csv(rows, index=False)
        for name in names:
            phrases = Path(work) / f"{name}.txt"
            phrases.write_text("\n".join(cue_phrases(make_shortcut(name))) + "\n", encoding="utf-8")
            tool = [
                sys.executable,
                str(BENCH / "tool" / "clean_rows.py"),
                str(rows),
                name,
                str(out),
            ]
            plain = [sys.executable, str(BENCH / "plain" / "clean_regex.py"), str(rows)]
            plain += [str(phrases), str(out)]
            results.append(
                compare(
                    f"clean {name}, {len(texts):,} rows",
                    Side("shortcut.clean (API)", lambda tool=tool: tool),
                    Side("plain pandas regex", lambda plain=plain: plain),
                    pairs=pairs,
                    note="read, clean, count and write the rows",
                )
            )
    return results


def fresh(texts: list[str]) -> list[str]:
    """Copies of the strings as new objects (no cached UTF-8 encoding)."""
    return [(t + "\x01")[:-1] for t in texts]


def timed(function, inputs) -> tuple[float, float]:
    """Median and fastest seconds of ``function`` over each of ``inputs`` (made beforehand)."""
    times = []
    for argument in inputs:
        started = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - started)
    return float(np.median(times)), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--shortcuts", default="single-term,synonym,category")
    paired.add_options(parser)
    args = parser.parse_args()
    folder = Path(os.environ.get("SHORTCUTLAB_GOEMOTIONS", "/work/shared/data/goemotions-maze"))
    frame = pd.read_csv(folder / "train.csv")
    repeats = args.rows // len(frame) + 1
    texts = (frame["text"].tolist() * repeats)[: args.rows]
    labels = LabelSpace((0, 1, 2, 3))
    ranks = labels.ranks((frame["label"].tolist() * repeats)[: args.rows])
    plan = SplitPlan(ranks=ranks, labels=labels, strength=1.0)
    results = paired_cleaning(texts, args.shortcuts.split(","), args.pairs)
    if args.save:
        write_results("cleaning_throughput", results)
    print(f"{args.rows:,} rows, {args.runs} runs; milliseconds, median (fastest)")
    print(f"{'shortcut':<13}{'clean':>16}{'observe':>16}{'observe in a build':>22}")
    for name in args.shortcuts.split(","):
        shortcut = make_shortcut(name)
        cleaned = shortcut.clean(texts).texts
        injected = shortcut.inject(cleaned, plan, np.random.SeedSequence(0)).texts
        clean = timed(shortcut.clean, (fresh(texts) for _ in range(args.runs)))
        observe = timed(
            lambda rows: shortcut.observe(rows, plan),  # noqa: B023
            (fresh(injected) for _ in range(args.runs)),
        )
        builds = (
            shortcut.inject(shortcut.clean(fresh(texts)).texts, plan, np.random.SeedSequence(0))
            for _ in range(args.runs)
        )
        in_build = timed(lambda injection: shortcut.observe(injection.texts, plan), builds)  # noqa: B023
        cells = [f"{m * 1000:7.1f} ({f * 1000:5.1f})" for m, f in (clean, observe, in_build)]
        print(f"{name:<13}{cells[0]:>16}{cells[1]:>16}{cells[2]:>22}")


if __name__ == "__main__":
    main()
