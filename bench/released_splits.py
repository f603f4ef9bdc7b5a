"""The released GoEmotions single-term splits evaluated as they are, next to plain scikit-learn.

For each released folder (lambda1, lambda2, lambda3: λ = 1, 0.8, 0.6) it runs ONE command,

    shortcutlab evaluate --train train.csv --dev dev.csv --test test.csv \\
        --anti-test test_anti-shortcut.csv --model tfidf-logreg --seeds 1 --out DIR

in its own process, reads Δ = test accuracy − anti-test accuracy from the results.json it wrote,
and prints it beside the Δ of a plain scikit-learn script on the same files, with the settings of
``tfidf-logreg`` (models/tfidf.py): TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
LogisticRegression(C=10, max_iter=1000, random_state=0). The dev file is given to the command but
not used by this model, as the plain script does not use it either. The release is not shipped:
point --data at it (default ../shared/data/goemotions-maze).

    python bench/released_splits.py [--data PATH] [--model-cli shortcutlab]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

FOLDERS = ("lambda1", "lambda2", "lambda3")


def plain_delta(folder: Path) -> tuple[float, float, float]:
    """Test accuracy, anti-test accuracy and their difference with plain pandas + scikit-learn."""
    train, test, anti = (
        pd.read_csv(folder / f"{name}.csv") for name in ("train", "test", "test_anti-shortcut")
    )
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    model = LogisticRegression(C=10.0, max_iter=1000, random_state=0)
    model.fit(vectorizer.fit_transform(train.text), train.label)
    accuracy = [
        float((model.predict(vectorizer.transform(f.text)) == f.label).mean()) for f in (test, anti)
    ]
    return accuracy[0], accuracy[1], accuracy[0] - accuracy[1]


def cli_delta(folder: Path, out: Path) -> tuple[float, float, float, str]:
    """The same three numbers from one ``shortcutlab evaluate`` process, and its command line."""
    command = [
        sys.executable, "-m", "shortcutlab", "evaluate",
        "--train", str(folder / "train.csv"),
        "--dev", str(folder / "dev.csv"),
        "--test", str(folder / "test.csv"),
        "--anti-test", str(folder / "test_anti-shortcut.csv"),
        "--model", "tfidf-logreg", "--seeds", "1", "--bootstrap", "200",
        "--out", str(out),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, text=True)
    statistics = json.loads((out / "results.json").read_text(encoding="utf-8"))["statistics"]
    test, anti = statistics["test_accuracy_mean"], statistics["anti_test_accuracy_mean"]
    return test, anti, statistics["delta_accuracy_mean"], " ".join(command[3:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(os.environ.get("SHORTCUTLAB_GOEMOTIONS", "../shared/data/goemotions-maze"))
    parser.add_argument("--data", type=Path, default=default)
    args = parser.parse_args()
    release = args.data / "single-term"
    if not (release / FOLDERS[0] / "train.csv").exists():
        raise SystemExit(f"The GoEmotions release is not at {args.data}; pass --data.")
    print(
        f"{'folder':8} {'CLI test/anti':>15} {'CLI Δ':>8} {'sklearn test/anti':>19} {'sklearn Δ':>10}  same"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for name in FOLDERS:
            cli = cli_delta(release / name, Path(scratch) / name)
            plain = plain_delta(release / name)
            same = f"{cli[2]:.6f}" == f"{plain[2]:.6f}"
            print(
                f"{name:8} {cli[0]:7.4f}/{cli[1]:.4f} {cli[2]:8.6f} "
                f"{plain[0]:11.4f}/{plain[1]:.4f} {plain[2]:10.6f}  {'yes' if same else 'NO'}"
            )
        shown = cli[3].replace(str(release / name), "DIR").replace(str(Path(scratch) / name), "OUT")
    print(f"One command per folder: shortcutlab {shown}")


if __name__ == "__main__":
    main()
