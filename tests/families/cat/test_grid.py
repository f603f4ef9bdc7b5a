from __future__ import annotations

import json

import pytest

from shortcutlab.engine.store import ResultStore
from shortcutlab.errors import ConfigError
from shortcutlab.families import parse_spec, run_experiment
from tests.cli.refusals import invoke
from tests.families.cat.cat_data import write_pair_files
from tests.models.toy_model import TOY, registered

SPEC = """family: cat
name: tiny-cat
data: {{name: cue, train: train.csv, test: test.csv, text: premise, text_pair: hypothesis}}
models: [{{name: tfidf-logreg, id: tfidf}}]
seeds: {seeds}
cat: {{k: 3, default_label: neutral, augment: [false, true]}}
"""


def _spec(folder, seeds="[0]"):
    write_pair_files(folder, cue=True)
    (folder / "spec.yaml").write_text(SPEC.format(seeds=seeds), encoding="utf-8")
    return folder / "spec.yaml"


def test_cat_grid_stores_cells_resumes_and_prints_attentiveness(tmp_path):
    spec = _spec(tmp_path, seeds="[0, 1]")
    report = run_experiment(spec, tmp_path / "run")
    assert (report.total, report.done, report.failed) == (4, 4, 0)
    with ResultStore.for_run(tmp_path / "run") as store:
        cells = store.cells()
    assert sorted(cells["shortcut"]) == ["cat", "cat", "cat+augment", "cat+augment"]
    plain = cells[cells["shortcut"] == "cat"]["metrics"].iloc[0]
    assert plain["attentiveness"]["k"] == 3 and plain["config"]["augment"] is False
    again = run_experiment(spec, tmp_path / "run")
    assert (again.skipped, again.done) == (4, 0)

    result = invoke("results", tmp_path / "run", "--format", "md")
    assert result.exit_code == 0, result.output
    rows = [
        line
        for line in result.stdout.splitlines()
        if line.startswith("| cue") or line.startswith("|  |")
    ]
    assert len(rows) == 2
    plain_cells = cells[cells["shortcut"] == "cat"]["metrics"].tolist()
    per_set = [s for c in plain_cells for s in c["attentiveness"]["per_set"]]
    accuracy = 100 * plain_cells[0]["accuracy"]["value"]  # tfidf-logreg ignores its seed
    mean = 100 * sum(per_set) / len(per_set)
    assert rows[0].startswith(f"| cue | tfidf | no | {accuracy:.1f} ± — | {mean:.1f} ± ")
    # The augmented row's change is its printed accuracy minus the plain row's, with a p.
    plain_row, augmented_row = ([c.strip() for c in row.strip("|").split("|")] for row in rows)
    assert plain_row[-1] == "—"
    change, p_value = augmented_row[-1].rstrip(")").split(" (")
    printed = [float(r[3].split(" ± ")[0]) for r in (augmented_row, plain_row)]
    assert float(change) == pytest.approx(printed[0] - printed[1], abs=0.11)
    assert 0 <= float(p_value) <= 1

    tidy = invoke("results", tmp_path / "run", "--format", "json")
    groups = json.loads(tidy.stdout)
    assert [g["augment"] for g in groups] == [False, True]
    assert groups[0]["sets"] == 6 and groups[0]["accuracy_std"] is None


def test_cat_grid_results_are_byte_identical_across_runs(tmp_path):
    for name in ("a", "b"):
        run_experiment(_spec(tmp_path / name), tmp_path / name / "run")
    printed = [
        invoke("results", tmp_path / name / "run", "--format", "csv").stdout for name in "ab"
    ]
    assert printed[0] == printed[1] and printed[0].count("\n") == 3


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"data": {"train": "t.csv", "test": "d.csv", "text": "premise"}},
            "has no text_pair column",
        ),
        ({"cat": {"k": 0}}, "The 'k' key in spec: cat must be an integer >= 1. Got 0 instead"),
        (
            {"cat": {"augment": ["yes"]}},
            "The 'augment[0]' key in spec: cat must be true or false. Got 'yes' instead.",
        ),
        ({"cat": {"replace": "label"}}, "replace"),
        ({"cat": {"size": 3}}, "size"),
    ],
)
def test_bad_cat_specs_are_refused(tmp_path, change, message):
    for name in ("t.csv", "d.csv"):
        (tmp_path / name).write_text("premise,hypothesis,label\na,b,neutral\n", encoding="utf-8")
    raw = {
        "family": "cat",
        "data": {"train": "t.csv", "test": "d.csv", "text": "premise", "text_pair": "hypothesis"},
        "models": ["tfidf-logreg"],
    } | change
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        parse_spec(raw, base_dir=tmp_path)


def test_a_one_text_model_is_refused_before_the_run_folder_exists(tmp_path):
    spec = _spec(tmp_path)
    spec.write_text(spec.read_text().replace("tfidf-logreg", TOY), encoding="utf-8")
    with registered(), pytest.raises(ConfigError, match=f"The {TOY} model reads one text per row"):
        run_experiment(spec, tmp_path / "run")
    assert not (tmp_path / "run").exists()
