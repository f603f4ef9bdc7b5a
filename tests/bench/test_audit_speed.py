"""bench/audit_speed.py's parts that run without the audit CLI: the planted-cue data, the plain
CountVectorizer + chi-square baseline it is timed against, and the wrapper that measures a
process."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))  # the scripts import their siblings by name
    return importlib.import_module("audit_speed"), importlib.import_module("audit_baseline")


def test_the_cue_is_planted_by_label_and_the_data_is_seeded(bench):
    speed, _ = bench
    source = pd.DataFrame({"text": [f"text number {i}" for i in range(50)], "label": [0, 1] * 25})
    data = speed.synthesize(20_000, texts=source, cue_label=1, cue_rate=0.3, background_rate=0.05)
    assert data.equals(
        speed.synthesize(20_000, texts=source, cue_label=1, cue_rate=0.3, background_rate=0.05)
    )
    planted = data["text"].str.startswith("Honestly, ")
    originals = data["text"].str.removeprefix("Honestly, ")
    first = originals.str.extract(r"^(text number \d+) text number \d+$")[0]
    assert first.notna().all()  # two source comments joined
    pairs = dict(zip(source["text"], source["label"], strict=True))
    assert (first.map(pairs) == data["label"]).all()  # the first comment's label travels with it
    for label, rate in ((1, 0.3), (0, 0.05)):
        rows = planted[data["label"] == label]
        tolerance = 6 * np.sqrt(rate * (1 - rate) / len(rows))  # six binomial standard errors
        assert abs(rows.mean() - rate) < tolerance


def test_the_baseline_ranks_the_planted_cue_first(bench):
    speed, baseline = bench
    data = speed.synthesize(4_000, texts=None, cue_label=2, cue_rate=0.5, background_rate=0.02)
    found = baseline.scan(data, min_support=20)
    top = found.iloc[0]
    assert (top["token"], top["label"]) == ("honestly", 2)
    assert top["p_adjusted"] < 1e-10 and top["lift"] > 2


def test_without_a_cue_nothing_survives_the_correction(bench):
    speed, baseline = bench
    data = speed.synthesize(4_000, texts=None, cue_rate=0.0, background_rate=0.0, seed=3)
    found = baseline.scan(data, min_support=20)
    assert len(found) > 100 and (found["p_adjusted"] > 0.05).all()


def test_benjamini_hochberg_on_a_hand_example(bench):
    _, baseline = bench
    adjusted = baseline.benjamini_hochberg(np.array([0.01, 0.04, 0.03, 0.005]))
    np.testing.assert_allclose(adjusted, [0.02, 0.04, 0.04, 0.02])


@pytest.mark.slow
def test_the_baseline_runs_as_a_measured_process(bench, tmp_path):
    speed, _ = bench
    paired = importlib.import_module("paired")
    data = speed.synthesize(2_000, texts=None, cue_label=1, cue_rate=0.5, background_rate=0.02)
    data.to_csv(tmp_path / "data.csv", index=False)
    command = [sys.executable, str(BENCH / "audit_baseline.py"), str(tmp_path / "data.csv")]
    side = paired.Side("plain", lambda: [*command, str(tmp_path / "out.csv")])
    seconds, peak_mib, cpu = paired.run_process(side)
    assert seconds > 0 and peak_mib > 10 and cpu > 0
    assert speed.cue_rank_in_baseline(tmp_path / "out.csv", 1) == "1"
    refused = paired.Side("no OUT", lambda: command)  # no OUT argument: argparse refuses
    with pytest.raises(SystemExit, match="required"):
        paired.run_process(refused)
    assert speed.cue_rank_in_audit(tmp_path / "no-audit", 1) == "—"


def test_the_cue_rank_is_read_from_the_audit_table(bench, tmp_path):
    speed, _ = bench
    pd.DataFrame(
        {"rank": [1, 2, 3], "candidate": ["lol", "honestly", "honestly"], "label": [1, 0, 1]}
    ).to_csv(tmp_path / "audit.csv", index=False)
    assert speed.cue_rank_in_audit(tmp_path, 1) == "3"
    assert speed.cue_rank_in_audit(tmp_path, 2) == "not found"


def test_a_large_table_is_written_a_piece_at_a_time_and_starts_as_the_smaller_one(
    bench, tmp_path, monkeypatch
):
    speed, _ = bench
    monkeypatch.setattr(speed, "PIECE_ROWS", 300)
    whole = tmp_path / "whole.csv"
    speed.write_rows(whole, 700, texts=None)
    written = pd.read_csv(whole)
    assert written["row_id"].tolist() == list(range(700))
    first = speed.synthesize(300, texts=None, seed=0)
    assert written.head(300).equals(first)  # the smaller table is the larger one's start
    last = speed.synthesize(100, texts=None, seed=2).assign(row_id=lambda d: d["row_id"] + 600)
    assert written.tail(100).reset_index(drop=True).equals(last)
    small = tmp_path / "small.csv"
    speed.write_rows(small, 250, texts=None)
    assert pd.read_csv(small).equals(speed.synthesize(250, texts=None))
