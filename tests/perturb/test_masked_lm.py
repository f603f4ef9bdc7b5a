"""``word-swap-mlm``: one word per row swapped for a fill-mask model's guess, from a checkpoint on
disk (tests/perturb/conftest.py builds a tiny one), seeded, and refused in one line without it."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.perturb import perturb
from tests.cli.refusals import assert_refused, invoke

TEXTS = [
    "The strap broke after two days and the seller never answered.",
    "Great sound, comfortable ear cushions, and the battery lasts all week.",
    "ok",  # no word of three letters: nothing to swap
]


def swap(texts, model, seed=0):
    labels = np.zeros(len(texts), dtype=int)
    params = {"model": str(model)}
    return perturb(
        "word-swap-mlm", texts, labels, label_values=["neg", "pos"], seed=seed, params=params
    )


def test_one_word_per_row_becomes_another_whole_word(tiny_mlm):
    out = swap(TEXTS, tiny_mlm)
    assert out.changed.tolist() == [True, True, False]
    for before, after in zip(TEXTS[:2], out.texts[:2], strict=True):
        old, new = before.split(), after.split()
        assert len(old) == len(new)
        differing = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
        assert len(differing) == 1, (before, after)
        ((was, now),) = differing
        word = re.sub(r"\W", "", now)
        assert word.isalpha() and word.lower() != re.sub(r"\W", "", was).lower()
    assert swap(TEXTS, tiny_mlm).texts == out.texts  # the same seed, the same bytes


def test_the_seed_chooses_the_word(tiny_mlm):
    texts = [
        f"The blue strap of model {n} broke after two long days of light use." for n in range(20)
    ]
    assert swap(texts, tiny_mlm, seed=1).texts != swap(texts, tiny_mlm, seed=2).texts


def test_without_a_checkpoint_on_disk_it_is_refused_in_one_line(tmp_path):
    with pytest.raises(ConfigError, match="needs model=FOLDER, a fill-mask checkpoint") as caught:
        swap(TEXTS, tmp_path / "missing")
    assert "\n" not in str(caught.value)


def test_the_cli_builds_it_and_the_manifest_names_the_model(tiny_mlm, tmp_path):
    pd.DataFrame({"text": TEXTS, "label": ["neg", "pos", "neg"]}).to_csv(
        tmp_path / "t.csv", index=False
    )
    base = ["build", "robustness", "--test", tmp_path / "t.csv", "--labels", "neg,pos"]
    base += ["--perturbation", "word-swap-mlm"]
    assert_refused(tmp_path, "needs model=FOLDER", *base, "--out", tmp_path / "refused")
    done = invoke(
        *base, "--perturbation-option", f"word-swap-mlm.model={tiny_mlm}", "--out", tmp_path / "rb"
    )
    assert done.exit_code == 0, done.output
    written = pd.read_csv(tmp_path / "rb" / "word-swap-mlm.csv")
    assert written["row_id"].tolist() == [0, 1]
    manifest = json.loads((tmp_path / "rb" / "manifest.json").read_text())
    text = json.dumps(manifest)
    assert '"model_library": "transformers"' in text and str(tiny_mlm) in text
