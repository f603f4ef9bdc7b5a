"""NBS and QBS builds on the real Rotten Tomatoes sentences (one of the MPS paper's data sets).

Skipped when the data is absent (set SHORTCUTLAB_ROTTEN_TOMATOES to its folder). Table 11 of the
paper gives mean normalised label entropies of .86 / .99 (NBS) and .80 / .87 (QBS), Imbalanced /
Balanced, for this data set.
"""

import math

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.families.mps.build import build_mps_benchmark
from tests.conftest import ROTTEN_TOMATOES

SENTENCES = ROTTEN_TOMATOES / "sentences.csv"
pytestmark = pytest.mark.skipif(not SENTENCES.exists(), reason="Rotten Tomatoes data not present")


def mean_entropy(frame, column):
    """Mean over values of the label entropy (base 2: two labels), from the written rows."""
    values = []
    for _, group in frame.groupby(column):
        p = group["label"].value_counts(normalize=True).to_numpy()
        values.append(float(-(p * np.log(p)).sum() / math.log(2)))
    return float(np.mean(values))


@pytest.fixture(scope="module", params=["negation", "question"])
def built(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("rt") / request.param
    bench = build_mps_benchmark(SENTENCES, attribute=request.param, inputs=InputOptions(out=out))
    frames = {s: pd.read_csv(out / f"{s}.csv", keep_default_na=False) for s in bench.splits}
    return request.param, bench.manifest, frames


def test_imbalanced_entropy_is_clearly_below_balanced(built):
    attribute, manifest, frames = built
    imbalanced = mean_entropy(frames["imbalanced"], attribute)
    balanced = mean_entropy(frames["balanced"], attribute)
    assert imbalanced < balanced - 0.05, (imbalanced, balanced)
    assert imbalanced == pytest.approx(manifest["label_entropy"]["imbalanced"]["mean"], abs=1e-6)
    assert balanced == pytest.approx(manifest["label_entropy"]["balanced"]["mean"], abs=1e-6)
    for value, labels in manifest["dominant"].items():
        group = frames["imbalanced"][frames["imbalanced"][attribute] == value]["label"]
        assert group.isin(labels).mean() >= 0.75
    # Cross-interactions (section 2.2): the two groups are tied to different labels.
    assert sorted(label for labels in manifest["dominant"].values() for label in labels) == [
        "negative",
        "positive",
    ]


def test_test_set_is_label_balanced_without_shared_text(built):
    _, _, frames = built
    counts = frames["test"]["label"].value_counts()
    assert len(counts) == 2 and counts.nunique() == 1
    test_texts = set(frames["test"]["text"].str.lower())
    for split in ("imbalanced", "balanced"):
        assert not set(frames[split]["text"].str.lower()) & test_texts
    assert len(frames["imbalanced"]) == len(frames["balanced"]) > 3000
