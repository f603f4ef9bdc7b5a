"""MPS grids crossed with mitigations: both fits trained under the method, δ / Δ per method (paper
002, Table 3), erm cell ids unchanged, and what is refused up front."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.families import load_results, load_spec, run_experiment
from shortcutlab.families.mps import export as mps_report
from shortcutlab.families.mps.grid import plan_mps_grid
from tests.families.maze.mitigation_doubles import registered as doubles_registered
from tests.families.mps.test_grid import _predicted, _stored, _w_acc, write_spec

SPEC = """
family: mps
name: tiny-mps
data: {name: toy, train: pool.csv}
attributes: [negation, question]
mps: {test_size: 120VALIDATION}
models: [{name: MODELEPOCHS}]
MITIGATIONS
seeds: [0, 1]
bootstrap: 200
"""


def text(
    *,
    mitigations="mitigations: [erm, test-downsample]",
    validation="",
    epochs="",
    model="tfidf-logreg",
):
    """The spec's YAML (braces doubled: write_spec formats it)."""
    written = (
        SPEC.replace("MITIGATIONS", mitigations)
        .replace("VALIDATION", validation)
        .replace("MODEL", model)
        .replace("EPOCHS", epochs)
    )
    return written.replace("{", "{{").replace("}", "}}")


@pytest.fixture
def registered():
    with doubles_registered():
        yield


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    with doubles_registered():
        folder = tmp_path_factory.mktemp("mps-mitigations")
        spec = write_spec(folder, text=text())
        report = run_experiment(spec, folder / "run")
        yield folder, report


def test_erm_cells_keep_their_ids_and_the_method_adds_cells(registered, tmp_path):
    plain = load_spec(write_spec(tmp_path / "plain", text=text(mitigations="")))
    crossed = load_spec(write_spec(tmp_path / "crossed", text=text()))
    assert "mitigations" not in plain.resolved()
    before = {c.id for c in plan_mps_grid(plain)[1]}
    after = plan_mps_grid(crossed)[1]
    assert before < {c.id for c in after} and len(after) == 2 * len(before)
    assert {c.id for c in after if c.mitigation.id == "erm"} == before


def test_delta_per_method_is_that_of_its_stored_predictions(finished):
    folder, report = finished
    run = folder / "run"
    assert (report.total, report.done, report.failed) == (8, 8, 0)
    loaded = load_results(run)
    table = loaded.gap_table()
    assert table.index.names == ["model", "attribute", "mitigation"]
    assert list(table.index) == [
        ("tfidf-logreg", attribute, method)
        for attribute in ("negation", "question")
        for method in ("erm", "test-downsample")
    ]
    cells, _, rows = _stored(run)
    by_id = loaded.cells.set_index("cell_id")
    for attribute in ("negation", "question"):
        for method in ("erm", "test-downsample"):
            deltas = []
            for cell_id, label, _, _, build in cells:
                if label != attribute or by_id.loc[cell_id, "mitigation"] != method:
                    continue
                truth = rows[(build, "test")][1]
                balanced = _predicted(run, cell_id, "balanced/test")
                imbalanced = _predicted(run, cell_id, "imbalanced/test")
                deltas.append(_w_acc(truth, balanced) - _w_acc(truth, imbalanced))
            shown = table.loc[("tfidf-logreg", attribute, method), ("toy", "δ")]
            assert shown.startswith(f"{np.mean(deltas):.3f}")
    groups = loaded.groups.set_index(["attribute", "mitigation"])
    assert groups.loc[("negation", "test-downsample"), "group_source"] == "group"
    assert (
        groups.loc[("negation", "test-downsample"), "distinct_fits"] == 2
    )  # it draws with its seed
    assert groups.loc[("negation", "erm"), "distinct_fits"] == 1


def test_mps_results_print_delta_per_method(finished):
    loaded = load_results(finished[0] / "run")
    printed = mps_report.tables(loaded, "md")
    assert "### δ and Δ per method (Table 3), dataset × attribute" in printed
    assert "| model | attribute | mitigation | toy δ | toy Δ | toy ζ |" in printed
    assert (
        "over the 4 δ tests of this table (every dataset × attribute × model × mitigation)"
        in printed
    )
    assert "Mitigations: each method trains both the Imbalanced and the Balanced fit" in printed
    assert "read by test-downsample on the train rows." in printed
    assert "| model | mitigation | dataset | trained on |" in printed  # cross-testing per method


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"mitigations": "mitigations: [erm, test-held-out]"},
            "the test-held-out mitigation fits on held-out rows, but the builds have no validation "
            "split. Set validation_size under mps: in the spec (e.g. 0.1).",
        ),
        (
            {"mitigations": "mitigations: [test-downsample]\ngroups: negation"},
            "which the builds do not have. Columns that would do: group (groups: auto picks group)",
        ),
        (
            {"model": "bow-mlp", "epochs": ", epochs: 2, average_last_epochs: 1"},
            "models[0] (bow-mlp): average_last_epochs applies to the plain fit (erm) only; the "
            "mitigations test-downsample return their own predictor.",
        ),
    ],
)
def test_mps_refusals(registered, tmp_path, changes, message):
    spec = write_spec(tmp_path, text=text(**changes))
    with pytest.raises(ConfigError) as caught:
        load_spec(spec)
    assert message in str(caught.value)


def test_held_out_methods_run_where_the_builds_have_validation_rows(registered, tmp_path):
    spec = write_spec(
        tmp_path,
        text=text(
            mitigations="mitigations: [erm, {name: test-held-out, id: held}]",
            validation=", validation_size: 60",
        ),
    )
    assert [m.id for m in load_spec(spec).mitigations] == ["erm", "held"]
