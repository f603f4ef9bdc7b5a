"""The Shortcut Maze release's test protocol next to shortcutlab's ``--test-strength same`` builds.

For each released GoEmotions single-term folder (λ = 1, 0.8, 0.6) it prints the release's per-label
cue rates of test and anti-test, those of shortcutlab's build from the release's own train.csv and
test.csv with test and anti-test at the training λ, and the accuracy drop Δ of the reference
model (TF-IDF word 1-2-grams, sublinear tf, logistic regression C=10) trained on each; last the
same model's Δ on builds with the default --test-strength 1, to show what that choice adds.
The release is not shipped: point --data at it (default ../shared/data/goemotions-maze).

    python bench/release_protocol.py [--data PATH] [--seeds 3]
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from shortcutlab.families.maze.build import build_maze_benchmark

FOLDERS = (("lambda1", 1.0), ("lambda2", 0.8), ("lambda3", 0.6))


def drop(train: pd.DataFrame, test: pd.DataFrame, anti: pd.DataFrame) -> float:
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    model = LogisticRegression(C=10, max_iter=2000).fit(
        vectorizer.fit_transform(train.text), train.label
    )
    accuracy = [
        (model.predict(vectorizer.transform(f.text)) == f.label).mean() for f in (test, anti)
    ]
    return float(accuracy[0] - accuracy[1])


def rates(frame: pd.DataFrame) -> list[float]:
    hit = frame.text.str.contains(r"\bhonestly\b", flags=re.I)
    return hit.groupby(frame.label).mean().round(2).tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(os.environ.get("SHORTCUTLAB_GOEMOTIONS", "../shared/data/goemotions-maze"))
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    if not (args.data / "train.csv").exists():
        raise SystemExit(f"The GoEmotions release is not at {args.data}; pass --data.")
    for folder, strength in FOLDERS:
        release = {
            name: pd.read_csv(args.data / "single-term" / folder / f"{name}.csv")
            for name in ("train", "test", "test_anti-shortcut")
        }
        deltas, full_strength = [], []
        for seed in range(args.seeds):
            bench = build_maze_benchmark(
                args.data / "train.csv", args.data / "test.csv",
                shortcut="single-term", strength=strength, test_strength="same", seed=seed,
            )  # fmt: skip
            deltas.append(drop(bench["train"], bench["test"], bench["anti_test"]))
            default = build_maze_benchmark(
                args.data / "train.csv", args.data / "test.csv",
                shortcut="single-term", strength=strength, seed=seed,
            )  # fmt: skip  # the tool's default: test and anti-test at λ = 1
            full_strength.append(drop(default["train"], default["test"], default["anti_test"]))
            if seed == 0:
                ours = (rates(bench["test"]), rates(bench["anti_test"]))
        print(f"λ = {strength}")
        print(f"  test rates      release {rates(release['test'])}  ours {ours[0]}")
        print(f"  anti-test rates release {rates(release['test_anti-shortcut'])}  ours {ours[1]}")
        released = drop(release["train"], release["test"], release["test_anti-shortcut"])
        print(f"  TF-IDF Δ        release {released:.3f}  ours {np.mean(deltas):.3f} "
              f"(seeds {', '.join(f'{d:.3f}' for d in deltas)})")  # fmt: skip
        print(f"  TF-IDF Δ with --test-strength 1 (the default): {np.mean(full_strength):.3f}")


if __name__ == "__main__":
    main()
