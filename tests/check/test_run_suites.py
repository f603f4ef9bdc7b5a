"""``results --save-suite`` of a robustness and an MPS run: the measured bounds ± the margin as
requirements, which ``check`` on the same data passes; a family without a suite writer is refused."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from shortcutlab.check.run_suites import run_suite
from shortcutlab.errors import ConfigError
from tests.cli.refusals import invoke

DATA = "data: {builtin: reviews, train_size: 400, test_size: 200}\n"


def _run(folder: Path, grid: str) -> Path:
    spec = folder / "grid.yaml"
    spec.write_text(grid, encoding="utf-8")
    done = invoke("run", spec, "--out", folder / "run", "--jobs", "1")
    assert done.exit_code == 0, done.output
    return folder / "run"


def _saved(run: Path, margin: str) -> tuple[Path, dict, pd.DataFrame]:
    saved = run.parent / "saved.yaml"
    result = invoke("results", run, "--save-suite", saved, "--margin", margin)
    assert result.exit_code == 0, result.output
    tidy = invoke("results", run, "--format", "csv")
    assert tidy.exit_code == 0, tidy.output
    return (
        saved,
        yaml.safe_load(saved.read_text(encoding="utf-8")),
        pd.read_csv(io.StringIO(tidy.stdout)),
    )


def test_a_robustness_run_saves_one_requirement_per_class_that_check_passes(tmp_path: Path) -> None:
    run = _run(
        tmp_path,
        "family: robustness\nname: rgrid\n" + DATA + "models: [tfidf-logreg]\n"
        "perturbations: [{typos-swap: {rate: 0.2}}, {negation-add: {expect: {5: 1, 4: 1, 1: 5, 2: 5}}}]\n"
        "seeds: [0]\nbootstrap: 200\n",
    )
    saved, suite, tidy = _saved(run, "0.01")
    by_class = {r["robustness"]["perturbation"]: r for r in suite["requirements"]}
    assert set(by_class) == {"typos-swap", "negation-add"}
    assert by_class["typos-swap"]["robustness"]["params"] == {"rate": 0.2}
    assert by_class["negation-add"]["robustness"]["params"] == {
        "expect": {"5": 1, "4": 1, "1": 5, "2": 5}
    }  # as stored

    def bound(split: str, metric: str, end: str) -> float:
        row = tidy[(tidy["split"] == split) & (tidy["metric"] == metric)]
        return float(row[end].iloc[0])

    drop = bound("typos-swap", "accuracy_drop", "ci_high") + 0.01
    assert drop - 1e-9 <= by_class["typos-swap"]["max_drop"] < drop + 0.001  # rounded up
    toward = bound("negation-add", "toward_expected", "ci_low") - 0.01
    assert (
        toward - 0.001 < by_class["negation-add"]["min_pass_rate"] <= toward + 1e-9
    )  # rounded down
    again = invoke("check", saved)
    assert again.exit_code == 0, again.output
    assert "2 of 2 requirements pass" in again.stdout


def test_an_mps_run_saves_max_delta_per_attribute_that_check_passes(tmp_path: Path) -> None:
    run = _run(
        tmp_path,
        "family: mps\nname: mgrid\n" + DATA + "attributes: [negation]\n"
        "models: [tfidf-logreg]\nseeds: [0]\nbootstrap: 200\ncross_test: false\n",
    )
    saved, suite, _ = _saved(run, "0.02")
    [requirement] = suite["requirements"]
    assert requirement["mps"] == {"attribute": "negation"}
    groups = invoke("results", run, "--out", tmp_path / "tables")
    assert groups.exit_code == 0, groups.output
    high = pd.read_csv(tmp_path / "tables" / "groups.csv")["delta_isolated_ci_high"].iloc[0]
    assert high + 0.02 - 1e-9 <= requirement["max_delta"] < high + 0.021
    again = invoke("check", saved)
    assert again.exit_code == 0, again.output
    assert "1 of 1 requirement passes" in again.stdout


def test_save_suite_of_a_family_without_a_suite_writer_is_refused() -> None:
    cat_results = SimpleNamespace(family="cat")
    with pytest.raises(ConfigError) as refused:
        run_suite(cat_results, 0.02)
    assert str(refused.value).endswith(
        "writes the suite of a run of one of the families maze, mps, robustness; this is a cat "
        "run, so write its requirements by hand (docs/how-to/check-in-ci.md)."
    )
