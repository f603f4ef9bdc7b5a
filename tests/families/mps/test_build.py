"""MPS builds, checked on the files they write: label-balanced held-out sets with no shared text,
the dominance in every Imbalanced group, Balanced groups of the same sizes, the manifest's
entropies recomputed from the rows, and byte-identical rebuilds."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.options import InputOptions
from shortcutlab.errors import ShortcutlabWarning
from shortcutlab.families.mps.build import build_mps_benchmark
from tests.conftest import THREE, folder_bytes, negation_rows

COLUMNS = ["row_id", "text", "label", "negation", "group"]


def normal(text):
    return " ".join(str(text).lower().split())


def read(folder, split):
    return pd.read_csv(folder / f"{split}.csv", keep_default_na=False)


def entropy(counts, k):
    p = np.asarray(counts, dtype=float) / sum(counts)
    p = p[p > 0]
    return float(-(p * np.log(p)).sum() / math.log(k))


def with_case_duplicates(frame, n):
    """``frame`` plus ``n`` rows repeating its texts in capitals with doubled spaces."""
    copies = frame.head(n).copy()
    copies["text"] = copies["text"].str.upper().str.replace(" ", "  ")
    return pd.concat([frame, copies], ignore_index=True)


@pytest.fixture
def three_built(tmp_path):
    pool = with_case_duplicates(negation_rows(THREE, seed=3), 60)
    out = tmp_path / "mps"
    build_mps_benchmark(
        pool, attribute="negation", validation_size=30, seed=1, inputs=InputOptions(out=out)
    )
    return pool, out


def test_columns_groups_and_rows_come_from_the_input(three_built):
    pool, out = three_built
    assert sorted(p.name for p in out.iterdir()) == [
        "balanced.csv",
        "imbalanced.csv",
        "manifest.json",
        "test.csv",
        "validation.csv",
    ]
    for split in ("imbalanced", "balanced", "validation", "test"):
        frame = read(out, split)
        assert list(frame.columns) == COLUMNS
        assert (frame["group"] == frame["label"] + "|" + frame["negation"]).all()
        source = pool.loc[frame["row_id"]]
        assert (source["text"].values == frame["text"].values).all()
        assert (source["label"].values == frame["label"].values).all()
        assert frame["row_id"].is_monotonic_increasing  # pool order
        negated = frame["text"].str.lower().str.contains(" not ")
        assert (negated == (frame["negation"] == "with_negation")).all()


def test_held_out_sets_are_label_balanced_and_share_no_text(three_built):
    pool, out = three_built
    frames = {s: read(out, s) for s in ("imbalanced", "balanced", "validation", "test")}
    for held in ("test", "validation"):
        counts = frames[held]["label"].value_counts()
        assert len(counts) == 3 and counts.nunique() == 1, counts
        texts = frames[held]["text"].map(normal)
        assert texts.is_unique
    test_texts = set(frames["test"]["text"].map(normal))
    validation_texts = set(frames["validation"]["text"].map(normal))
    assert not test_texts & validation_texts
    for training in ("imbalanced", "balanced"):
        texts = set(frames[training]["text"].map(normal))
        assert not texts & test_texts and not texts & validation_texts
    # The test set spreads every label over the groups in proportion to the groups' sizes (in
    # distinct texts), so attribute and label are close to independent there.
    distinct = pool["text"].map(normal).drop_duplicates()
    negated_share = distinct.str.contains(" not ").mean()
    per_label = len(frames["test"]) // 3
    negated = frames["test"][frames["test"]["negation"] == "with_negation"]
    for count in negated["label"].value_counts().reindex(["a", "b", "c"], fill_value=0):
        assert abs(count - per_label * negated_share) < 1


def test_imbalanced_groups_reach_the_dominance_and_balanced_matches_their_sizes(three_built):
    pool, out = three_built
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dominance"] == 0.5  # A.8: fewer than 10 labels
    dominant = manifest["dominant"]
    assert dominant == {"without_negation": ["b"], "with_negation": ["a"]}
    imbalanced, balanced = read(out, "imbalanced"), read(out, "balanced")
    for value, labels in dominant.items():
        group = imbalanced[imbalanced["negation"] == value]["label"].value_counts()
        assert group[labels].sum() / group.sum() >= 0.5
        assert group.drop(labels).max() <= group[labels].min()
    sizes = imbalanced["negation"].value_counts().sort_index()
    assert sizes.equals(balanced["negation"].value_counts().sort_index())
    assert sizes.to_dict() == manifest["sizes"]["per_value"]

    # Balanced is as uniform as the training pool allows: a label with fewer rows than another
    # (by two or more) in a group has no row left in the pool.
    held = set(read(out, "test")["text"].map(normal)) | set(
        read(out, "validation")["text"].map(normal)
    )
    remaining = pool[~pool["text"].map(normal).isin(held)]
    remaining_value = np.where(
        remaining["text"].str.lower().str.contains(" not "), "with_negation", "without_negation"
    )
    available = remaining.groupby([remaining_value, "label"]).size()
    for value, group in balanced.groupby("negation"):
        counts = group["label"].value_counts().reindex(["a", "b", "c"], fill_value=0)
        for low in counts.index:
            if counts.max() - counts[low] >= 2:
                assert counts[low] == available[(value, low)], (value, counts.to_dict())


def test_manifest_entropy_and_counts_recomputed_from_the_files(three_built):
    _, out = three_built
    manifest = json.loads((out / "manifest.json").read_text())
    for split, record in manifest["label_entropy"].items():
        frame = read(out, split)
        per_value = {}
        for value in manifest["values"]:
            counts = frame[frame["negation"] == value]["label"].value_counts()
            assert counts.to_dict() == {
                k: v for k, v in manifest["splits"][split]["label_counts"][value].items() if v
            }
            per_value[value] = entropy(counts.values, 3)
        assert record["per_value"] == pytest.approx(per_value, abs=1e-6)
        assert record["mean"] == pytest.approx(np.mean(list(per_value.values())), abs=1e-6)


def test_duplicates_of_held_out_texts_leave_the_training_pool(three_built):
    pool, out = three_built
    manifest = json.loads((out / "manifest.json").read_text())
    excluded = manifest["excluded"]["train"]
    held = pd.concat([read(out, "test"), read(out, "validation")])
    assert excluded["held_out"] == len(held)
    # Rows of the input sharing a held-out text, other than the held-out rows themselves.
    texts = pool["text"].map(normal)
    sharing = texts.isin(set(held["text"].map(normal))) & ~pool.index.isin(held["row_id"])
    assert excluded["shares_text_with_held_out"] == int(sharing.sum()) > 0


def test_rebuilds_are_byte_identical_in_every_format(tmp_path):
    pool = negation_rows(THREE, seed=5)
    for fmt in ("csv", "jsonl", "parquet"):
        folders = [
            build_mps_benchmark(
                pool,
                seed=2,
                validation_size=0.05,
                inputs=InputOptions(out=tmp_path / f"{fmt}{i}", fmt=fmt),
            ).path
            for i in range(2)
        ]
        assert folder_bytes(folders[0]) == folder_bytes(folders[1])
    other = build_mps_benchmark(pool, seed=3, inputs=InputOptions(out=tmp_path / "seed3"))
    assert (other.path / "imbalanced.csv").read_bytes() != (
        tmp_path / "csv0" / "imbalanced.csv"
    ).read_bytes()


def test_in_memory_benchmark_equals_the_saved_one(tmp_path):
    pool = negation_rows(THREE, seed=5)
    memory = build_mps_benchmark(pool, seed=4)
    saved = build_mps_benchmark(
        pool, seed=4, inputs=InputOptions(out=tmp_path / "b", fmt="parquet")
    )
    assert list(saved.splits) == ["imbalanced", "balanced", "test"]
    for split in memory.splits:
        pd.testing.assert_frame_equal(memory[split], saved[split], check_dtype=False)
    reloaded = Benchmark.load(tmp_path / "b")
    assert reloaded.manifest["family"] == "mps" and reloaded.labels.values == ("a", "b", "c")


def test_build_warnings_point_at_the_callers_line():
    """However deep in the builder a warning arises, it names the line that called the build."""
    rows = pd.DataFrame(
        {
            "text": ["not good", "good", "is it?", "fine", "no way", "great"] * 40,
            "label": ["neg", "pos", "neg", "pos", "pos", "pos"] * 40,
        }
    )
    with pytest.warns(ShortcutlabWarning) as caught:
        build_mps_benchmark(rows, None, attribute="negation", labels=["neg", "pos"])
    assert {Path(w.filename).name for w in caught} == {Path(__file__).name}
