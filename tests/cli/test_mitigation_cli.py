"""``run`` and ``results`` with mitigations: refusals before anything is written, the dry run's
mitigation column, and the printed tables."""

import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.families.maze.mitigation_doubles import registered as doubles_registered

SPEC = """
name: cli-mitigations
data: {{builtin: reviews, train_size: 300, test_size: 200}}
shortcuts: [single-term]
strengths: [1.0]
models: [{{name: {model}}}]
mitigations: {mitigations}
seeds: [0, 1]
val_size: {val_size}
bootstrap: 100
"""


@pytest.fixture(autouse=True)
def registered():
    with doubles_registered():
        yield


def write(folder, *, model="tfidf-logreg", mitigations="[erm, test-downsample]", val_size=0.2):
    path = folder / "spec.yaml"
    path.write_text(SPEC.format(model=model, mitigations=mitigations, val_size=val_size))
    return path


@pytest.mark.parametrize(
    ("changes", "message", "without_data"),
    [
        (
            {"model": "transformer"},
            "The test-downsample mitigation does not support the transformer model. Models "
            "it supports: bow-mlp, majority, object, sentence-encoder, sklearn, tfidf-logreg, "
            "tfidf-svm.",
            True,
        ),
        (
            {"mitigations": "[erm, test-held-out]", "val_size": 0},
            "the test-held-out mitigation fits on held-out rows, but the builds have no "
            "validation split. Set val_size in the spec (e.g. 0.2).",
            True,
        ),
        (
            {"mitigations": "[erm, test-pairs-only]"},
            "The test-pairs-only mitigation needs paired inputs (text and text_pair), but the "
            "dataset 'reviews' has single texts.",
            False,  # the input kind is known once the data is read: run, not --dry-run
        ),
        (
            {"mitigations": "[erm, cat-augment]"},
            "The cat-augment mitigation needs paired inputs (text and text_pair), but the "
            "dataset 'reviews' has single texts.",
            False,
        ),
    ],
)
def test_run_refuses_what_no_cell_could_run(tmp_path, changes, message, without_data):
    spec = write(tmp_path, **changes)
    assert_refused(tmp_path, message, "run", spec, "--out", tmp_path / "run")
    if without_data:  # read from the spec alone, so the dry run refuses it too
        assert_refused(tmp_path, message, "run", spec, "--out", tmp_path / "run", "--dry-run")


def test_dry_run_and_results_show_the_mitigations(tmp_path):
    spec = write(tmp_path)
    dry = invoke("run", spec, "--out", tmp_path / "run", "--dry-run")
    assert dry.exit_code == 0, dry.output
    # Three table rows, then the estimate names the kind it has no past cells of.
    assert "mitigation" in dry.stdout and dry.stdout.count("test-downsample") == 4
    assert "no past cells of this kind (tfidf-logreg / erm, tfidf-logreg / test-downsample)" in (
        " ".join(dry.stdout.split())
    )
    assert "Mitigations: erm, test-downsample; groups: auto, group_labels: train." in dry.stdout
    ran = invoke("run", spec, "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    again = invoke("run", spec, "--out", tmp_path / "run", "--dry-run")
    assert again.stdout.count("done") == 4 and "0 of 4 cells to run" in again.stdout
    shown = invoke("results", tmp_path / "run", "--format", "md", "--out", tmp_path / "report")
    assert shown.exit_code == 0, shown.output
    assert "### Table 3 layout, accuracy: Test / Anti / Δ per mitigation" in shown.stdout
    assert "| reviews | tfidf-logreg | single-term | 1.0 | test-downsample |" in shown.stdout
    written = {p.name for p in (tmp_path / "report").iterdir()}
    assert {"table3-accuracy.md", "vs_erm-macro_f1.md", "vs_erm.csv", "groups.csv"} <= written
    tidy = invoke("results", tmp_path / "run", "--format", "csv")
    assert tidy.stdout.splitlines()[0].startswith(
        '"dataset","model","mitigation","shortcut","strength",'  # quoted: a file for people
    )
