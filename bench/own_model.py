"""A user's own scikit-learn pipeline through shortcutlab, against fitting it by hand.

Data: Rotten Tomatoes (``rotten-tomatoes/sentences.csv``, 10,662 sentences, positive/negative),
split 80/20 with a fixed seed, and a Shortcut Maze build on it (single-term, λ = 0.9); without that
folder, the embedded review corpus. The pipeline is TF-IDF word 1-2-grams + logistic regression,
saved with joblib.

First the figures: ``evaluate_benchmark(bench, model=pipeline)`` next to the same pipeline cloned
and fitted by hand on the build's train split (the accuracies must be equal, not close). Then the
whole ``shortcutlab evaluate BUILD --model pipe.joblib`` process (start-up, reading, the fits per
seed, the bootstrap, the tables and written files) in interleaved pairs (bench/paired.py) next to
the plain script a user would write for the same fits and Δ intervals (bench/plain/own_pipeline.py).

    python bench/own_model.py [--seeds 3] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import joblib
import paired
import pandas as pd
from shared_data import shared_file
from sklearn.base import clone
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

import shortcutlab as sl

DATA = shared_file("SHORTCUTLAB_ROTTEN_TOMATOES", "rotten-tomatoes", "sentences.csv")
PLAIN = Path(__file__).resolve().parent / "plain" / "own_pipeline.py"


def tables() -> tuple[pd.DataFrame, pd.DataFrame, str]:
    if DATA.exists():
        frame = pd.read_csv(DATA)
        train, test = train_test_split(
            frame, test_size=0.2, random_state=0, stratify=frame["label"]
        )
        return train, test, "Rotten Tomatoes"
    corpus = sl.generate_corpus(train_size=8000, test_size=2000)
    return corpus["train"], corpus["test"], "the embedded corpus (no shared data)"


def by_hand(pipeline, bench: sl.Benchmark) -> dict[str, float]:
    model = clone(pipeline).set_params(logisticregression__random_state=0)
    model.fit(bench["train"]["text"], bench["train"]["label"])
    return {
        split: float((model.predict(bench[split]["text"]) == bench[split]["label"]).mean())
        for split in ("test", "anti_test", "original_test")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    paired.add_options(parser)
    args = parser.parse_args()
    train, test, name = tables()
    pipeline = make_pipeline(
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True), LogisticRegression(max_iter=1000)
    )
    root = Path(tempfile.mkdtemp(prefix="own-model-bench-"))
    try:
        bench = sl.build_maze_benchmark(train, test, shortcut="single-term", strength=0.9, seed=0)
        bench.save(root / "build")
        print(
            f"{name}: {len(bench['train']):,} train / {len(bench['test']):,} test rows, {bench!r}"
        )
        result = sl.evaluate_benchmark(bench, model=pipeline, seeds=1, bootstrap=1000)
        table = result.to_pandas().query("metric == 'accuracy' and split != 'delta'")
        tool = dict(zip(table["split"], table["estimate"], strict=True))
        hand = by_hand(pipeline, bench)
        for split, value in hand.items():
            same = "equal" if tool[split] == value else "DIFFERENT"
            print(f"  {split}: evaluate_benchmark {tool[split]:.4f}, by hand {value:.4f} ({same})")
        joblib.dump(pipeline, root / "pipe.joblib")
        out = root / "results"
        tool_side = paired.Side(
            "shortcutlab evaluate --model pipe.joblib",
            lambda: [
                sys.executable,
                "-m",
                "shortcutlab",
                "evaluate",
                str(root / "build"),
                "--model",
                str(root / "pipe.joblib"),
                "--seeds",
                str(args.seeds),
                "--bootstrap",
                "1000",
                "--out",
                str(out),
            ],  # fmt: skip
            prepare=lambda: shutil.rmtree(out, ignore_errors=True),
        )
        plain = paired.Side(
            "bench/plain/own_pipeline.py",
            lambda: [
                sys.executable,
                str(PLAIN),
                str(root / "build"),
                str(root / "pipe.joblib"),
                "--seeds",
                str(args.seeds),
            ],  # fmt: skip
        )
        note = f"{args.seeds} seeds, each a fit (LogisticRegression has a random_state)"
        results = [paired.compare("own pipeline", tool_side, plain, pairs=args.pairs, note=note)]
        if args.save:
            paired.write_results("own_model", results)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
