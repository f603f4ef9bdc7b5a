"""The check bench's alternative: the same evaluations as the suite, by library calls in a script.

For each Maze shortcut: build the benchmark and evaluate tfidf-logreg on it (one seed, 1,000
resamples); for each perturbation class: fit once, perturb the test rows, predict the changed
rows before and after, and the paired bootstrap of the drop. No suite, table, verdicts or XML.

    python bench/plain/check_plain.py DATA_FOLDER SHORTCUTS PERTURBATIONS
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

import shortcutlab as sl
from shortcutlab.data.labels import LabelSpace
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.metrics.significance import bootstrap_delta
from shortcutlab.models import make_model
from shortcutlab.perturb import perturb


def main(folder: str, shortcuts: str, perturbations: str) -> None:
    train = pd.read_csv(f"{folder}/train.csv")
    test = pd.read_csv(f"{folder}/test.csv")
    for shortcut in shortcuts.split(","):
        bench = sl.build_maze_benchmark(train, test, shortcut=shortcut, strength=0.8, val_size=0)
        result = sl.evaluate_benchmark(bench, model="tfidf-logreg", seeds=1, bootstrap=1000)
        print(shortcut, result.statistics["delta_accuracy_ci_high"])
    labels = LabelSpace.infer(train["label"].tolist())
    model = make_model("tfidf-logreg", seed=0)
    model.fit(train["text"].tolist(), labels.ranks(train["label"]), n_classes=len(labels))
    truth = labels.ranks(test["label"])
    texts = test["text"].tolist()
    for name in perturbations.split(","):
        edited = perturb(name, texts, truth, label_values=labels.values, seed=0)
        rows = np.flatnonzero(edited.changed)
        before = predicted_labels(model.predict_proba([texts[i] for i in rows]))
        after = predicted_labels(model.predict_proba([edited.texts[i] for i in rows]))
        drop = bootstrap_delta(
            y_true=truth[rows], pred_a=before[None], pred_b=after[None], n_classes=len(labels)
        )["accuracy"]
        print(name, drop)


if __name__ == "__main__":
    main(*sys.argv[1:4])
