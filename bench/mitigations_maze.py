"""Every mitigation against erm on one Shortcut Maze build: test and anti-test accuracy, the drop
Δ = test − anti, the change of Δ against erm, and each method's fit time relative to erm's.

The build needs a validation split (dfr, llr refit on it). For each model in ``--models`` and each
mitigation the backend supports, one fit (``--seed``) is scored on the test and anti-test rows,
which are paired by ``row_id``. "ΔΔ" is the change of Δ against erm, with a 95% paired bootstrap
interval over rows (one fit each: the interval leaves out the variance between fits and seeds)
and a normal-approximation bootstrap p-value, Holm-adjusted over the methods of a model. "test
McNemar p" compares test-set correctness with erm's, row by row (the cost of the method).
Fit seconds include predicting nothing: only ``fit`` is timed; sentence-encoder times exclude
embedding texts already in the cache.

    python bench/mitigations_maze.py BUILD [--models tfidf-logreg,sentence-encoder]
        [--mitigations erm,reweight,...] [--seed 0]

Build the shared GoEmotions check with
    shortcutlab build --train ../shared/data/goemotions-maze/train.csv
        --test ../shared/data/goemotions-maze/test.csv --shortcut single-term --strength 0.8
        --val-size 0.2 --out BUILD
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from shortcutlab.data.loading import LABEL
from shortcutlab.data.pairs import model_inputs
from shortcutlab.metrics.significance import (
    bootstrap_p_value,
    holm,
    mcnemar_exact,
    percentile_interval,
)
from shortcutlab.mitigations import MITIGATIONS, make_mitigation
from shortcutlab.mitigations.context import mitigation_context
from shortcutlab.splits.benchmark import Benchmark

DEFAULT = "erm,reweight,downsample,groupdro,jtt,dfr,llr,afr"
RESAMPLES = 2000


def correctness(benchmark: Benchmark, predictor, split: str) -> np.ndarray:
    frame = benchmark[split].sort_values("row_id")
    truth = benchmark.labels.ranks(frame[LABEL], where=split)
    return predictor.predict_proba(model_inputs(frame)).argmax(axis=1) == truth


def run(benchmark: Benchmark, model: str, names: list[str], seed: int) -> dict[str, dict]:
    results = {}
    for name in names:
        mitigation = make_mitigation(name)
        if model not in mitigation.backends:
            continue
        context = mitigation_context(benchmark, mitigation, model=model, params={}, seed=seed)
        started = time.perf_counter()
        predictor = mitigation.fit(context)
        seconds = time.perf_counter() - started
        results[name] = {
            "test": correctness(benchmark, predictor, "test"),
            "anti": correctness(benchmark, predictor, "anti_test"),
            "seconds": seconds,
        }
        predictor.close()
    return results


def report(model: str, results: dict[str, dict], seed: int) -> None:
    erm = results["erm"]
    erm_drop = erm["test"].astype(float) - erm["anti"]
    rng = np.random.default_rng(seed)
    n_rows = len(erm_drop)
    draws = rng.integers(n_rows, size=(RESAMPLES, n_rows))
    rows, p_values = [], []
    for name, result in results.items():
        drop = result["test"].astype(float) - result["anti"]
        change = drop - erm_drop  # per paired row
        samples = change[draws].mean(axis=1)
        estimate = float(change.mean())
        p_values.append(bootstrap_p_value(samples, estimate) if name != "erm" else np.nan)
        rows.append((name, result, estimate, percentile_interval(samples)))
    tested = [i for i, (name, *_) in enumerate(rows) if name != "erm"]
    adjusted = dict(zip(tested, holm([p_values[i] for i in tested]), strict=True))
    print(f"\n{model} (seed {seed}; {n_rows} paired test / anti-test rows)")
    header = "mitigation   test   anti   Δ      ΔΔ vs erm [95% CI]        Holm p   test McNemar p  fit s  × erm"
    print(header)
    for index, (name, result, estimate, interval) in enumerate(rows):
        test, anti = result["test"].mean(), result["anti"].mean()
        if name == "erm":
            change_text, p_text, mcnemar_text = "—".ljust(26), "—".ljust(8), "—".ljust(15)
        else:
            change_text = f"{estimate:+.3f} [{interval[0]:+.3f}, {interval[1]:+.3f}]".ljust(26)
            p_text = f"{adjusted[index]:.2g}".ljust(8)
            mcnemar = mcnemar_exact(correct_a=result["test"], correct_b=erm["test"])["p_value"]
            mcnemar_text = f"{mcnemar:.2g}".ljust(15)
        ratio = result["seconds"] / erm["seconds"]
        print(
            f"{name:12s} {test:.3f}  {anti:.3f}  {test - anti:+.3f} {change_text} {p_text} "
            f"{mcnemar_text} {result['seconds']:5.1f}  {ratio:4.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--models", default="tfidf-logreg,sentence-encoder")
    parser.add_argument("--mitigations", default=DEFAULT)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = args.mitigations.split(",")
    unknown = [n for n in names if n not in MITIGATIONS]
    if unknown or names[0] != "erm":
        parser.error(f"--mitigations must start with erm and name registered ones; got {unknown}")
    benchmark = Benchmark.load(args.build)
    warnings.simplefilter("ignore")  # convergence notes of saga / lbfgs on small refits
    for model in args.models.split(","):
        report(model, run(benchmark, model, names, args.seed), args.seed)


if __name__ == "__main__":
    main()
