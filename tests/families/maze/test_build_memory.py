"""A million-row ``shortcutlab build maze`` with its output written stays within 3x its input's
size in peak RSS (issue 34: 3.3x when an input up to 256 MiB kept its texts while writing)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from shortcutlab.corpus import generate_corpus

ROOT = Path(__file__).resolve().parents[3]
ROWS = 1_000_000


def _goemotions_like(path: Path) -> int:
    """``ROWS`` review texts of about 100 characters (the GoEmotions release's length), four
    labels; returns the file's size in bytes."""
    import pandas as pd

    corpus = generate_corpus(train_size=4000, test_size=10, seed=0)["train"]
    texts = np.asarray([text[:110].rsplit(" ", 1)[0] for text in corpus["text"]])
    picks = np.random.default_rng(0).integers(len(texts), size=ROWS)
    frame = pd.DataFrame({"label": picks % 4, "text": texts[picks]})
    frame.to_csv(path, index=False)
    return path.stat().st_size


@pytest.mark.slow
def test_a_million_row_build_peaks_under_three_times_its_input(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    paired = importlib.import_module("paired")  # its launcher measures the child alone
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    size_mib = _goemotions_like(train) / 2**20
    test.write_text("label,text\n" + "".join(f"{i % 4},Review number {i}.\n" for i in range(400)))
    out = tmp_path / "built"
    command = [sys.executable, "-m", "shortcutlab", "build", "maze", "--train", str(train),
               "--test", str(test), "--shortcut", "single-term", "--out", str(out)]  # fmt: skip
    env = {"PYTHONPATH": str(ROOT / "src")}
    _, peak_mib, _ = paired.run_process(paired.Side("build", lambda: command, env=env))
    with (out / "train.csv").open("rb") as written:
        assert sum(1 for _ in written) == ROWS + 1  # every row written, and the header
    assert peak_mib <= 3 * size_mib, f"peak {peak_mib:.0f} MiB for a {size_mib:.0f} MiB input"
