"""Rows per second of each Shortcut Suite set builder on 100k NLI pairs (issue 9's benchmark).

The pool is MultiNLI dev-matched resampled with replacement to `--rows` pairs (equal label counts,
so the standard set can take nearly all of them); each set is built from a standard set of the
whole pool, the HANS-style sets generate `--rows` rows each, and the end-to-end line builds and
writes every NLI set with `build_suite_benchmark` (CSV). One run, wall-clock seconds.

Last, what a user runs against what they would write instead: the whole `shortcutlab build
suite --sets standard,negation` process (start-up, reading, hashing, checking, writing)
next to a plain pandas script that draws the same label-balanced sample, appends a random
tautology to each hypothesis and writes both CSVs, both as subprocesses in interleaved pairs (bench/paired.py).

    python bench/suite_build.py [--data ../shared/data/mnli-dev-matched/dev_matched.tsv] [--rows 100000] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import paired
import pandas as pd
from shared_data import shared_file

from shortcutlab.data.loading import load_table
from shortcutlab.data.options import InputOptions
from shortcutlab.families.suite.build import build_suite_benchmark
from shortcutlab.families.suite.extended import paraphrase_overlap_set
from shortcutlab.families.suite.hans import generate_heuristic_set
from shortcutlab.families.suite.sets import negation_set, position_set, standard_set, style_set
from shortcutlab.shortcuts.rewriters import make_rewriter

DEFAULT_DATA = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")
NLI_SETS = "standard,negation,position,style,lexical-overlap,subsequence,constituent"


def timed(function: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - started, result


def resampled_pool(path: Path, rows: int, rng: np.random.Generator) -> pd.DataFrame:
    frame = load_table(path, text_col="premise", text_pair_col="hypothesis").frame
    labels = sorted(frame["label"].unique())
    parts = []
    for label, count in zip(labels, np.array_split(np.arange(rows), len(labels)), strict=True):
        members = np.flatnonzero((frame["label"] == label).to_numpy())
        parts.append(rng.choice(members, size=len(count), replace=True))
    pool = frame.iloc[np.concatenate(parts)].reset_index(drop=True)
    pool["row_id"] = np.arange(len(pool))
    return pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rows", type=int, default=100_000)
    paired.add_options(parser)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    pool = resampled_pool(args.data, args.rows, rng)
    labels = sorted(pool["label"].unique())
    size = len(pool) // len(labels) * len(labels)
    print(f"Pool: {len(pool):,} MultiNLI dev-matched pairs resampled; standard set size {size:,}")
    print(f"{'set':<22}{'rows':>10}{'seconds':>10}{'rows/s':>12}")

    def report(name: str, seconds: float, rows: int) -> None:
        print(f"{name:<22}{rows:>10,}{seconds:>10.2f}{rows / seconds:>12,.0f}")

    seconds, standard = timed(standard_set, pool, labels, size, np.random.default_rng(1))
    report("standard", seconds, len(standard))
    seconds, out = timed(negation_set, standard, np.random.default_rng(2))
    report("negation", seconds, len(out))
    seconds, out = timed(position_set, standard, np.random.default_rng(3))
    report("position", seconds, len(out))
    seconds, (out, _) = timed(style_set, standard, make_rewriter("rules"))
    report("style (rules)", seconds, len(out))
    for heuristic in ("lexical-overlap", "subsequence", "constituent"):
        seconds, (out, record) = timed(
            generate_heuristic_set, heuristic, args.rows, np.random.default_rng(4)
        )
        report(f"{heuristic}", seconds, len(out))
        print(f"{'':<22}  (repeated pairs at this size: {record['repeated_pairs']:,})")
    seconds, out = timed(
        negation_set, standard.drop(columns=["text_pair"]), np.random.default_rng(5), part="text"
    )
    report("sentiment-negation", seconds, len(out))
    seconds, (out, _) = timed(
        paraphrase_overlap_set,
        pool,
        labels,
        size,
        np.random.default_rng(6),
        from_paws=True,
        min_overlap=0.0,
    )
    report("paraphrase-overlap", seconds, len(out))
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "pool.tsv"
        pool.drop(columns=["row_id"]).to_csv(source, sep="\t", index=False)
        seconds, build = timed(
            build_suite_benchmark,
            source,
            sets=NLI_SETS,
            size=size,
            inputs=InputOptions(
                text_col="text", text_pair_col="text_pair", out=Path(folder) / "suite"
            ),
        )
        total = sum(record["rows"] for record in build.manifest["splits"].values())
        report("all NLI sets, written", seconds, total)
        result = compare_with_plain_script(source, Path(folder), size, args.pairs)
    if args.save:
        paired.write_results("suite_build", [result])


PLAIN_SCRIPT = """
import sys
import numpy as np, pandas as pd
source, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
frame = pd.read_csv(source, sep="\\t")
per_label = size // frame["label"].nunique()
standard = frame.groupby("label").sample(n=per_label, random_state=0).sample(frac=1, random_state=1)
standard.to_csv(out + "/standard.csv", index=False)
tautologies = ["and false is not true", "and green is not red", "and up is not down",
               "and no square is a circle", "and nothing comes from nothing", "and history never change"]
draws = np.random.default_rng(2).integers(len(tautologies), size=len(standard))
negation = standard.assign(text_pair=[h.rstrip(".") + " " + tautologies[d] + "."
                                      for h, d in zip(standard["text_pair"], draws)])
negation.to_csv(out + "/negation.csv", index=False)
"""


def compare_with_plain_script(
    source: Path, folder: Path, size: int, pairs: int
) -> paired.Comparison:
    """The whole CLI process against the plain script, interleaved pairs (bench/paired.py)."""
    tool_out, plain_out = folder / "tool-out", folder / "plain-out"

    def fresh(out: Path) -> None:
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()

    tool = paired.Side(
        "shortcutlab build suite",
        lambda: [
            sys.executable,
            "-m",
            "shortcutlab",
            "build",
            "suite",
            "--train",
            str(source),
            "--sets",
            "standard,negation",
            "--size",
            str(size),
            "--out",
            str(tool_out),
        ],  # fmt: skip
        prepare=lambda: shutil.rmtree(tool_out, ignore_errors=True),
    )
    plain = paired.Side(
        "plain pandas script",
        lambda: [sys.executable, "-c", PLAIN_SCRIPT, str(source), str(plain_out), str(size)],
        prepare=lambda: fresh(plain_out),
    )
    return paired.compare(f"standard + negation, {size:,} rows", tool, plain, pairs=pairs)


if __name__ == "__main__":
    main()
