"""CAT's cost: `shortcutlab cat` next to a plain scikit-learn script, then its k sets alone.

First, in one process, on a fitted model: a TF-IDF pair model (tfidf-logreg, C=0.3) is fitted
on 7,000 MultiNLI dev-matched rows; the test table is `--rows` pairs drawn with replacement from
all 9,815 rows (seeded). In one run, alternating, `--repeats` times each:

- plain: k calls of ``predict_proba`` on the kept rows (those CAT scores: prediction not neutral),
  and k calls on all rows;
- CAT: drawing the donors, building the k counterfactual sets of the kept rows and scoring them
  in one batched call over unique inputs (``score_counterfactuals``).

Printed: median seconds, and CAT's time per set relative to one plain call on the kept rows.

The headline is what a user runs against what they would write instead, each a whole process,
in interleaved pairs (bench/paired.py): `shortcutlab cat` on the data split by premise (7,001 /
2,814 rows on all of dev-matched: fit, predict, k sets, the partial-input and majority baselines,
the naive evaluation, the results file) next to bench/plain/cat_pairs.py, a plain scikit-learn
script that fits a two-TF-IDF pair model, predicts, and scores k premise-swapped sets (no
baselines, no checks, no provenance). The split is written once, untimed, to a temporary folder
both sides read.

    python bench/cat_speed.py [--data ../shared/data/mnli-dev-matched/dev_matched.tsv]
        [--rows 10000 --k 5 --repeats 3] [--split-rows N] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import paired
from paired import Comparison, Side, compare, write_results
from shared_data import shared_file

from shortcutlab.data.loading import load_table
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.families.cat.run import score_counterfactuals
from shortcutlab.models import make_model
from shortcutlab.shortcuts.counterfactuals import counterfactual_donors

PLAIN = Path(__file__).resolve().parent / "plain" / "cat_pairs.py"
DEFAULT_DATA = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")


def _seconds(work: Callable[[], object], repeats: int) -> list[float]:
    """Wall seconds of each of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--split-rows",
        type=int,
        default=0,
        help="first N rows for the whole-process pairs (0: all)",
    )
    paired.add_options(parser)
    args = parser.parse_args()

    frame = load_table(args.data, text_col="premise", text_pair_col="hypothesis").frame
    labels = sorted(frame["label"].unique())
    train = frame.iloc[:7000]
    model = make_model("tfidf-logreg", {"C": 0.3})
    model.fit(model_inputs(train), train["label"].map(labels.index).to_numpy(), n_classes=3)
    rng = np.random.default_rng(0)
    test = frame.iloc[rng.integers(len(frame), size=args.rows)].reset_index(drop=True)
    inputs = model_inputs(test)
    predicted = predicted_labels(model.predict_proba(inputs))
    kept = np.flatnonzero(predicted != labels.index("neutral"))
    kept_inputs = [inputs[i] for i in kept]

    def plain_kept() -> None:
        for _ in range(args.k):
            model.predict_proba(kept_inputs)

    def plain_all() -> None:
        for _ in range(args.k):
            model.predict_proba(inputs)

    def cat() -> None:
        donors = counterfactual_donors(test["text"].tolist(), k=args.k, seed=0)
        score_counterfactuals(model, test, donors, kept)

    timings: dict[str, list[float]] = {"plain_kept": [], "plain_all": [], "cat": []}
    for _ in range(args.repeats):  # alternate, so drift in machine load hits every variant
        for name, work in (("plain_kept", plain_kept), ("plain_all", plain_all), ("cat", cat)):
            timings[name] += _seconds(work, 1)
    median = {name: float(np.median(values)) for name, values in timings.items()}
    donors = counterfactual_donors(test["text"].tolist(), k=args.k, seed=0)
    _, unique = score_counterfactuals(model, test, donors, kept)

    print(
        f"{args.rows} MNLI pairs (resampled), tfidf-logreg C=0.3, k={args.k}, median of {args.repeats}"
    )
    print(
        f"kept rows (prediction not neutral): {len(kept)}; unique counterfactual inputs: {unique} "
        f"of {args.k * len(kept)}"
    )
    print(
        f"plain: {args.k} predict_proba calls on the kept rows: {median['plain_kept']:.3f} s "
        f"({median['plain_kept'] / args.k:.3f} s per call)"
    )
    print(
        f"plain: {args.k} predict_proba calls on all {args.rows} rows: {median['plain_all']:.3f} s"
    )
    print(
        f"CAT: donors + {args.k} sets scored in one batched call: {median['cat']:.3f} s "
        f"({median['cat'] / args.k:.3f} s per set)"
    )
    print(f"CAT per set / plain call on the same rows: {median['cat'] / median['plain_kept']:.2f}x")
    whole = frame.iloc[: args.split_rows] if args.split_rows else frame
    result = compare_with_plain_script(whole, args.k, args.pairs)
    if args.save:
        write_results("cat_speed", [result])


def compare_with_plain_script(frame: Any, k: int, pairs: int) -> Comparison:
    """The whole `shortcutlab cat` process against bench/plain/cat_pairs.py, interleaved pairs."""
    premises = frame["text"].unique()
    order = premises[np.random.default_rng(0).permutation(len(premises))]
    group = frame["text"].map({p: i for i, p in enumerate(order)}).to_numpy()
    share = np.cumsum(np.bincount(group, minlength=len(order)))
    cut = int(np.searchsorted(share, int(0.713 * len(frame))))  # 7,001 / 2,814 on all of dev
    columns = {"text": "premise", "text_pair": "hypothesis"}
    with tempfile.TemporaryDirectory() as folder:
        train, test, out = (
            Path(folder) / "train.tsv",
            Path(folder) / "test.tsv",
            Path(folder) / "cat",
        )
        for part, path in zip((group <= cut, group > cut), (train, test), strict=True):
            table = frame[part].rename(columns=columns)[["premise", "hypothesis", "label"]]
            table.to_csv(path, sep="\t", index=False)
        cli = [sys.executable, "-m", "shortcutlab", "cat", "--train", str(train)]
        cli += ["--test", str(test), "--k", str(k), "--out", str(out)]
        tool = Side("shortcutlab cat", lambda: cli, prepare=lambda: shutil.rmtree(out, True))
        plain = [sys.executable, str(PLAIN), str(train), str(test), str(k)]
        alternative = Side("plain scikit-learn script", lambda: plain)
        note = (
            f"{int((group <= cut).sum())} / {int((group > cut).sum())} MNLI rows split by premise, "
            f"k={k}; the tool also fits both partial-input baselines and the naive evaluation"
        )
        return compare(f"cat, k={k}", tool, alternative, pairs=pairs, note=note)


if __name__ == "__main__":
    main()
