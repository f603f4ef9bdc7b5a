"""``--format table|md|csv|json|latex`` on every command that prints a table: csv and json parse
to the numbers the terminal table shows, latex is a booktabs tabular, the terminal table shows
long names whole at 80 columns; and warnings name their build and the knob in the caller's terms."""

from __future__ import annotations

import io
import json
import re

import pandas as pd
import pytest

from shortcutlab.errors import CLI, GRID, caller, knob
from tests.cli.refusals import build_args, invoke
from tests.cli.test_cat_cli import cat_args
from tests.conftest import negation_rows

GRID_SPEC = """
name: formats
data: {builtin: reviews, train_size: 300, test_size: 200}
shortcuts: [concept-occurrence]
strengths: [1.0, 0.6]
models: [{name: tfidf-logreg}]
seeds: [0]
bootstrap: 100
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grid")
    (folder / "spec.yaml").write_text(GRID_SPEC)
    ran = invoke("run", folder / "spec.yaml", "--out", folder / "run")
    assert ran.exit_code == 0, ran.output
    return folder / "run"


def table_cells(printed: str) -> list[list[str]]:
    """The rows of the terminal tables in ``printed``, each as its stripped cells."""
    return [[c.strip() for c in line.split("│")] for line in printed.splitlines() if "│" in line]


def test_results_prints_terminal_tables_with_whole_names_at_80_columns(run_dir, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = invoke("results", run_dir)
    assert shown.exit_code == 0, shown.output
    assert "concept-occurrence" in shown.stdout and "…" not in shown.stdout
    assert "| model |" not in shown.stdout  # Markdown only when asked for


@pytest.mark.slow
def test_results_csv_and_json_hold_the_numbers_of_the_table(run_dir):
    shown = table_cells(invoke("results", run_dir).stdout)
    deltas = [row[-2:] for row in shown if "Δ" in row]  # Table 9: the Δ row, a cell per λ
    assert len(deltas) == 1
    tidy = pd.read_csv(io.StringIO(invoke("results", run_dir, "--format", "csv").stdout))
    records = json.loads(invoke("results", run_dir, "--format", "json").stdout)
    assert [r["strength"] for r in records] == tidy["strength"].tolist() == [1.0, 0.6]
    printed = [float(cell.rstrip("*")) for cell in deltas[0]]
    assert printed == [round(v, 3) for v in tidy["delta_accuracy_mean"]]
    assert [round(r["delta_accuracy_mean"], 3) for r in records] == printed


@pytest.mark.slow
def test_results_latex_and_md(run_dir):
    latex = invoke("results", run_dir, "--format", "latex").stdout
    assert r"\begin{tabular}" in latex and r"\toprule" in latex and "concept-occurrence" in latex
    md = invoke("results", run_dir, "--format", "md").stdout
    assert "| dataset | model | shortcut | row | 1.0 | 0.6 |" in md


@pytest.fixture(scope="module")
def benchmark(run_dir):
    return next((run_dir / "benchmarks").iterdir())


def test_evaluate_every_format_carries_the_same_delta(benchmark, tmp_path):
    common = ("evaluate", benchmark, "--seeds", 1, "--bootstrap", 100, "--out", tmp_path / "r")
    shown = invoke(*common)
    assert shown.exit_code == 0, shown.output
    delta = next(row for row in table_cells(shown.stdout) if row[0] == "Δ")[1].rstrip("*")
    tidy = pd.read_csv(io.StringIO(invoke(*common, "--overwrite", "--format", "csv").stdout))
    assert f"{tidy.loc[0, 'delta_accuracy_mean']:.3f}" == delta
    as_json = invoke(*common, "--overwrite", "--format", "json")
    assert json.loads(as_json.stdout)[0]["shortcut"] == "concept-occurrence"
    assert "Results:" in as_json.stderr and "Results:" not in as_json.stdout
    latex = invoke(*common, "--overwrite", "--format", "latex").stdout
    assert r"\begin{tabular}" in latex and "Accuracy per true label" in latex


def test_cat_every_format(tmp_path):
    args = cat_args(tmp_path, "--default-label", "neutral", "--k", "2")
    shown = invoke(*args)
    assert shown.exit_code == 0, shown.output
    rows = {row[0]: row[1:] for row in table_cells(shown.stdout)}
    tidy = pd.read_csv(io.StringIO(invoke(*args, "--overwrite", "--format", "csv").stdout))
    by_measure = tidy.set_index("measure")
    assert f"{by_measure.loc['accuracy', '%']:.1f}" == rows["accuracy"][0]
    assert f"{by_measure.loc['attentiveness', '± sd']:.1f}" == rows["attentiveness"][3]
    records = json.loads(invoke(*args, "--overwrite", "--format", "json").stdout)
    assert [r["measure"] for r in records] == list(by_measure.index)
    latex = invoke(*args, "--overwrite", "--format", "latex")
    assert r"\begin{tabular}" in latex.stdout and "Wrote" in latex.stderr


def test_list_every_format():
    tidy = pd.read_csv(io.StringIO(invoke("list", "--format", "csv").stdout))
    records = json.loads(invoke("list", "--format", "json").stdout)
    assert [r["name"] for r in records] == tidy["name"].tolist()
    assert "concept-correlation" in tidy["name"].tolist()
    assert r"\begin{tabular}" in invoke("list", "--format", "latex").stdout
    assert "| kind | name |" in invoke("list", "--format", "md").stdout


def test_audit_md_and_latex_show_the_ranked_candidates(tmp_path):
    path = tmp_path / "train.csv"
    negation_rows({(True, 0): 150, (False, 0): 60, (True, 1): 60, (False, 1): 150}).to_csv(
        path, index=False
    )
    base = ("audit", path, "--no-surface", "--no-packaged-lexicons", "--top", 5)
    shown = invoke(*base, "--details")  # the table follows the triage's lists
    assert shown.exit_code == 0, shown.output
    first = table_cells(shown.stdout)[0]
    md = invoke(*base, "--format", "md").stdout
    assert f"| 1 | {first[1]} |" in md
    assert r"\begin{tabular}" in invoke(*base, "--format", "latex").stdout


def test_a_format_outside_the_five_is_refused_by_every_command(tmp_path):
    for args in (("list",), ("results", tmp_path), ("evaluate", tmp_path)):
        refused = invoke(*args, "--format", "html")
        assert refused.exit_code == 2
        assert "'table', 'md', 'csv', 'json', 'latex'. Got 'html'" in refused.stderr


def test_a_knob_is_named_in_the_callers_terms():
    with caller(CLI):
        assert knob("label_mix", "matched", section="mps") == "--label-mix matched"
    with caller(GRID):
        assert knob("label_mix", "matched", section="mps") == "mps: {label_mix: matched}"
        assert knob("vary", "data") == "vary: data"
    assert knob("label_mix", "matched", section="mps") == "label_mix='matched'"


# Negation rare and tied to label 0: sized to their maxima, Imbalanced is mostly label 1.
SHIFTED = {(True, 0): 150, (True, 1): 60, (False, 0): 400, (False, 1): 500}
LABEL_PRIOR = re.compile(r"Warning: MPS build of attribute negation\b.*label priors")


def test_build_mps_warning_names_the_build_and_the_option(tmp_path):
    negation_rows(SHIFTED).to_csv(tmp_path / "pool.csv", index=False)
    built = invoke("build", "mps", "--train", tmp_path / "pool.csv", "--out", tmp_path / "b")
    assert built.exit_code == 0, built.output
    warning = next(line for line in built.stderr.splitlines() if LABEL_PRIOR.search(line))
    assert "--label-mix matched" in warning and "mps: {" not in warning


def test_grid_warning_names_the_build_and_the_spec_key(tmp_path):
    negation_rows(SHIFTED).to_csv(tmp_path / "pool.csv", index=False)
    (tmp_path / "spec.yaml").write_text(
        "family: mps\nname: shifted\ndata: {name: toy, train: pool.csv}\n"
        "attributes: [negation]\nmps: {test_size: 40}\nmodels: [majority]\nseeds: [0]\n"
    )
    ran = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    warning = next(line for line in ran.stderr.splitlines() if LABEL_PRIOR.search(line))
    assert "on dataset toy" in warning and "mps: {label_mix: matched}" in warning
    assert "--label-mix" not in warning


def test_evaluate_names_the_vary_option_not_the_spec_key(benchmark, tmp_path):
    shown = invoke("evaluate", benchmark, "--seeds", 2, "--bootstrap", 100, "--out", tmp_path)
    assert shown.exit_code == 0, shown.output
    assert "Use --vary data or --vary both" in shown.stdout and "vary: data" not in shown.stdout
    grid = invoke("results", benchmark.parent.parent).stdout
    assert "Use vary: data or vary: both" in grid


def test_build_maze_table_format_csv_holds_the_cue_rates_of_the_manifest(tmp_path):
    made = invoke("generate", "--out", tmp_path / "c", "--train-size", 200, "--test-size", 100)
    assert made.exit_code == 0, made.output
    files = {"train": tmp_path / "c" / "train.csv", "test": tmp_path / "c" / "test.csv"}
    args = build_args(files, tmp_path / "b", "--shortcut", "single-term", "--strength", 0.8)
    built = invoke(*args, "--table-format", "csv")
    assert built.exit_code == 0, built.output
    rates = pd.read_csv(io.StringIO(built.stdout)).set_index(["split", "label"])
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    observed = manifest["splits"]["train"]["observed_rate"]["5"]
    assert rates.loc[("train", 5), "observed_rate"] == pytest.approx(observed)
    assert rates.loc[("train", 5), "target_rate"] == pytest.approx(0.9)
    assert rates.loc[("original_test", 1)].isna()[["target_rate", "observed_rate"]].all()
    assert "Built single-term benchmark" in built.stderr


def test_build_mps_table_format_csv_and_md(tmp_path):
    negation_rows(SHIFTED).to_csv(tmp_path / "pool.csv", index=False)
    args = ("build", "mps", "--train", tmp_path / "pool.csv")
    built = invoke(*args, "--out", tmp_path / "b", "--table-format", "csv")
    assert built.exit_code == 0, built.output
    shares = pd.read_csv(io.StringIO(built.stdout))
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    counts = manifest["splits"]["imbalanced"]["label_counts"]["with_negation"]
    row = shares.query("value == 'with_negation' and split == 'imbalanced' and label == 0")
    assert row["share"].item() == pytest.approx(counts["0"] / sum(counts.values()))
    assert row["dominant"].item() == ("0" in map(str, manifest["dominant"]["with_negation"]))
    md = invoke(*args, "--out", tmp_path / "m", "--table-format", "md").stdout
    assert "| value | split | rows | 0 | 1 | entropy |" in md
    refused = invoke(*args, "--out", tmp_path / "r", "--table-format", "html")
    assert refused.exit_code == 2 and "'table_format' parameter" in refused.stderr
