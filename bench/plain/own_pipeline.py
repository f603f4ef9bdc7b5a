"""What a user writes instead of ``shortcutlab evaluate BENCH --model pipe.joblib``: load the saved
pipeline, fit a copy on the build's train split, and score test and anti-test with the paired
bootstrap of the drop Δ (the rows resampled, 1,000 times) — the figures the tool prints first, with
none of its checks, per-label tables, findings or written files. One BLAS thread, as the tool's
fits use.

    python bench/plain/own_pipeline.py BUILD_FOLDER pipe.joblib [--seeds 3]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone
from threadpoolctl import threadpool_limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("pipeline", type=Path)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    splits = {s: pd.read_csv(args.folder / f"{s}.csv") for s in ("train", "test", "anti_test")}
    # The anti-test row of a test row is the one with its row_id (the pairs Δ is measured on).
    anti = splits["anti_test"].set_index("row_id").loc[splits["test"]["row_id"]]
    for seed in range(args.seeds):
        model = clone(joblib.load(args.pipeline))
        if "random_state" in model.get_params():
            model.set_params(random_state=seed)
        model.fit(splits["train"]["text"], splits["train"]["label"])
        test = model.predict(splits["test"]["text"]) == splits["test"]["label"].to_numpy()
        anti_right = model.predict(anti["text"]) == anti["label"].to_numpy()
        delta = test.astype(float) - anti_right.astype(float)
        draws = np.random.default_rng(seed).integers(0, len(delta), (1000, len(delta)))
        low, high = np.percentile(delta[draws].mean(axis=1), [2.5, 97.5])
        print(f"seed {seed}: test {test.mean():.3f} anti-test {anti_right.mean():.3f} "
              f"delta {delta.mean():.3f} [{low:.3f}, {high:.3f}]")  # fmt: skip


if __name__ == "__main__":
    with threadpool_limits(limits=1, user_api="blas"):
        main()
