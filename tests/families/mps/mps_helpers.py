"""Small MPS data for the grid tests: a pool whose negated / questioning rows lean to one label,
and benchmark folders written by hand per the builder's contract (MPS_DESIGN.md §2)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from shortcutlab.attributes import make_attribute
from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LoadedTable

GOOD = ["great", "lovely", "superb", "fine", "wonderful", "pleasant"]
BAD = ["awful", "dull", "poor", "boring", "terrible", "weak"]
NOUNS = ["film", "plot", "cast", "ending", "score", "script", "scene", "actor"]


def mps_pool(rows: int = 600, seed: int = 0) -> pd.DataFrame:
    """Two labels (neg, pos), sentiment words that are only weakly predictive, and negations and
    questions spread over both labels so the builder can redistribute them."""
    rng = np.random.default_rng(seed)
    texts, labels = [], []
    for i in range(rows):
        label = "pos" if i % 2 else "neg"
        honest = rng.random() < 0.7
        word = rng.choice(GOOD if (label == "pos") == honest else BAD)
        noun = rng.choice(NOUNS)
        text = f"the {noun} {i} was {word}"
        if rng.random() < 0.4:
            text = f"the {noun} {i} was not {word}"
        if rng.random() < 0.35:
            text += " , was it ?"
        texts.append(text)
        labels.append(label)
    return pd.DataFrame({"text": texts, "label": labels})


def hand_built_mps(
    pool: LoadedTable | pd.DataFrame,
    test: LoadedTable | pd.DataFrame | None = None,
    *,
    attribute: str,
    attribute_options: dict | None = None,
    seed: int = 0,
    labels: list | None = None,
    dominance: float | None = None,
    validation_size: float = 0,
    **_: object,
) -> Benchmark:
    """A benchmark with the MPS builder's splits, columns and manifest keys, made the plain way:
    per attribute value one dominant label takes ``dominance`` of the Imbalanced rows; the Balanced
    rows have the same per-value sizes; the test set is label-balanced and held out."""
    frame = pool.frame if isinstance(pool, LoadedTable) else pool.assign(row_id=range(len(pool)))
    annotator = make_attribute(attribute, attribute_options).fitted(frame["text"].tolist())
    column = annotator.column
    frame = frame.assign(**{column: annotator.annotate(frame["text"].tolist()).values})
    frame = frame[frame[column].notna()].reset_index(drop=True)
    space = LabelSpace(tuple(labels or sorted(frame["label"].unique())))
    k, share = len(space), dominance or 0.75
    rng = np.random.default_rng(seed)
    per_label = frame["label"].value_counts().min() // 4
    held = np.concatenate(
        [rng.permutation(np.flatnonzero(frame["label"] == v))[:per_label] for v in space.values]
    )
    rest = frame.drop(index=held)
    values = sorted(rest[column].unique())
    dominant = {v: [space.values[i % k]] for i, v in enumerate(values)}
    splits = {"imbalanced": [], "balanced": []}
    for value in values:
        group = rest[rest[column] == value]
        counts = group["label"].value_counts()
        top = dominant[value][0]
        n = len(group)
        while n > 0:
            major = math.ceil(share * n)
            minor = math.ceil((n - major) / (k - 1))
            if (
                major <= counts.get(top, 0)
                and all(
                    counts.get(v, 0) >= max(minor, math.ceil(n / k))
                    for v in space.values
                    if v != top
                )
                and counts.get(top, 0) >= math.ceil(n / k)
            ):
                break
            n -= 1
        wants = {
            "imbalanced": {
                v: (major if v == top else (n - major) // (k - 1)) for v in space.values
            },
            "balanced": {v: n // k for v in space.values},
        }
        for name, want in wants.items():
            for label, count in want.items():
                rows = group[group["label"] == label]
                splits[name].append(rows.iloc[rng.permutation(len(rows))[:count]])
    tables = {name: pd.concat(parts) for name, parts in splits.items()}
    tables["test"] = frame.iloc[np.sort(held)]
    manifest_splits = {}
    for name, table in tables.items():
        table = table.sort_values("row_id")[["row_id", "text", "label", column]]
        tables[name] = table.assign(group=table["label"].astype(str) + "|" + table[column])
        counts = tables[name].groupby([column, "label"]).size()
        manifest_splits[name] = {
            "rows": len(table),
            "label_counts": {
                v: {str(label): int(counts.get((v, label), 0)) for label in space.values}
                for v in values
            },
        }
    manifest = {
        "family": "mps",
        "labels": list(space.values),
        "attribute": annotator.config(),
        "column": column,
        "values": values,
        "dominance": share,
        "dominant": dominant,
        "arguments": {"attribute": attribute, "seed": seed},
        "splits": manifest_splits,
    }
    return Benchmark(splits=tables, labels=space, manifest=manifest)
