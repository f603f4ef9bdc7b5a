"""What a user writes instead of a Shortcut Maze grid, given the benchmark files: for each build
folder, read its splits with pandas, fit TF-IDF word 1-2-grams + logistic regression (the settings
of ``tfidf-logreg``'s reference model, C = 10) and predict every test split. No statistics, store,
report or resume. One BLAS thread, as the tool's fits use: with the default, BLAS threads spin
against each other on a loaded machine and the plain script ran 10x slower, which would credit the
tool with a thread setting rather than its own work.

    python bench/plain/fit_builds.py BUILD_FOLDER [BUILD_FOLDER ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from threadpoolctl import threadpool_limits

TEST_SPLITS = ("test", "anti_test", "original_test")


def read_split(folder: Path, split: str) -> pd.DataFrame:
    """A split as the tool wrote it: parquet (the demo) or CSV (a run's builds)."""
    parquet = folder / f"{split}.parquet"
    return pd.read_parquet(parquet) if parquet.exists() else pd.read_csv(folder / f"{split}.csv")


def main(folders: list[str]) -> None:
    for folder in map(Path, folders):
        train = read_split(folder, "train")
        model = make_pipeline(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
            LogisticRegression(C=10, max_iter=1000),
        )
        model.fit(train["text"], train["label"])
        for split in TEST_SPLITS:
            model.predict(read_split(folder, split)["text"])


if __name__ == "__main__":
    with threadpool_limits(limits=1, user_api="blas"):
        main(sys.argv[1:])
