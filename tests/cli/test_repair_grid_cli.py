"""The data-level repairs in a Maze grid: their candidate defaults to the build's recorded cue, the
cells are stored, resumed and tabled like any method's, and a build without a phrase cue is
refused before anything runs."""

from __future__ import annotations

import csv
import io

import pytest

from tests.cli.refusals import assert_refused, invoke

SPEC = """
name: repairs
data: {{builtin: reviews, train_size: 300, test_size: 200}}
shortcuts: {shortcuts}
strengths: [1.0]
models: [{{name: tfidf-logreg, ngram_range: [1, 1]}}]
mitigations: [erm, remove-candidate, mask-candidate, {{name: counterfactual-augment, id: cfa}}]
seeds: [0, 1]
bootstrap: 100
"""


def write(folder, shortcuts="[{name: single-term, term: frankly}]"):
    path = folder / "spec.yaml"
    path.write_text(SPEC.format(shortcuts=shortcuts))
    return path


@pytest.mark.slow
def test_a_grid_runs_resumes_and_tables_the_repairs(tmp_path):
    spec = write(tmp_path)
    ran = invoke("run", spec, "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    assert "8 cells done, 0 already finished, 0 failed" in ran.stdout
    again = invoke("run", spec, "--out", tmp_path / "run")
    assert "0 cells done, 8 already finished, 0 failed" in again.stdout
    tidy = invoke("results", tmp_path / "run", "--format", "csv")
    rows = {row["mitigation"]: row for row in csv.DictReader(io.StringIO(tidy.stdout))}
    assert list(rows) == ["erm", "remove-candidate", "mask-candidate", "cfa"]
    # Unigrams: with "frankly" gone from (or masked in) every training text, the model cannot
    # tell a test row from its anti-test twin, so the drop is exactly zero; erm's is not.
    assert float(rows["erm"]["delta_accuracy_mean"]) > 0.02
    for repaired in ("remove-candidate", "mask-candidate"):
        assert rows[repaired]["test_accuracy_mean"] == rows[repaired]["anti_test_accuracy_mean"]
    assert abs(float(rows["cfa"]["delta_accuracy_mean"])) < float(
        rows["erm"]["delta_accuracy_mean"]
    )
    shown = invoke("results", tmp_path / "run", "--format", "md")
    assert "| reviews | tfidf-logreg | single-term[term=frankly] | 1.0 | remove-candidate |" in (
        shown.stdout
    )


def test_a_repair_without_candidate_is_refused_on_a_build_without_a_phrase_cue(tmp_path):
    spec = write(tmp_path, shortcuts="[single-term, category]")
    message = (
        "mitigations[1] (remove-candidate): the remove-candidate mitigation has no candidate, and "
        "the shortcut 'category' records no cue phrase to default to. Give it one: "
        "{name: remove-candidate, candidate: PHRASE}."
    )
    assert_refused(tmp_path, message, "run", spec, "--out", tmp_path / "run", "--dry-run")
