"""A robustness grid of 2 models × 6 perturbation classes × 2 seeds killed with SIGKILL mid-run
resumes to exactly the results of an uninterrupted run: the tidy table, the per-class table and
the flipped rows, byte for byte."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from shortcutlab import generate_corpus
from shortcutlab.cli.app import app
from shortcutlab.families import run_experiment
from tests.engine.test_kill_resume import run_and_kill

pytestmark = pytest.mark.slow
runner = CliRunner()
CLASSES = ["case-upper", "typos-swap", "typos-keyboard", "punctuation-add", "sentence-suffix"]
CELLS = 2 * 6 * 2  # models × classes (the five above and negation-add) × seeds
PER_TASK = 6  # a task fits one model on one build and records a cell per class


def write_spec(folder: Path) -> Path:
    corpus = generate_corpus(train_size=1500, test_size=600, levels=4, seed=3)
    for name, frame in corpus.items():
        binary = frame[["text", "label"]].assign(label=np.where(frame["label"] >= 3, "pos", "neg"))
        binary.to_csv(folder / f"{name}.csv", index=False)
    spec = folder / "grid.yaml"
    spec.write_text(
        "family: robustness\nname: killable\n"
        f"data: {{name: reviews, train: {folder / 'train.csv'}, test: {folder / 'test.csv'}, "
        "labels: [neg, pos]}\n"
        "models: [tfidf-logreg, {name: tfidf-svm, cv: 2}]\n"
        f"perturbations: [{', '.join(CLASSES)}, {{negation-add: {{expect: flip}}}}]\n"
        "seeds: [0, 1]\nbootstrap: 200\n",
        encoding="utf-8",
    )
    return spec


def shown(run: Path) -> dict[str, str | bytes]:
    """What a user reads of a run: the tidy CSV and the files 'results --out' writes."""
    tidy = runner.invoke(app, ["results", str(run), "--format", "csv"])
    assert tidy.exit_code == 0, tidy.output
    out = run.parent / f"{run.name}-tables"
    written = runner.invoke(app, ["results", str(run), "--out", str(out)])
    assert written.exit_code == 0, written.output
    return {"tidy": tidy.stdout} | {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_a_killed_robustness_grid_resumes_to_the_uninterrupted_results(tmp_path):
    spec = write_spec(tmp_path)
    clean = run_experiment(spec, tmp_path / "clean")
    assert clean.done == CELLS
    run = tmp_path / "run"
    run_and_kill(spec, run, after_cells=PER_TASK, extra=["--jobs", "1"])
    with sqlite3.connect(run / "results.sqlite") as db:
        done = db.execute("SELECT count(*) FROM cells").fetchone()[0]
    assert PER_TASK <= done < CELLS, "the kill should land mid-run"
    assert done % PER_TASK == 0  # a task's cells are stored together or not at all
    resumed = run_experiment(spec, run)
    assert resumed.skipped == done and resumed.done == CELLS - done
    expected = shown(tmp_path / "clean")
    assert "flipped.csv" in expected and "toward_expected" in expected["tidy"]
    assert shown(run) == expected
