"""The MPS collector on a real tiny MPS grid: the tables hold what 'shortcutlab results' prints,
and every build's label distribution is an inline SVG figure."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.families import load_results as run_results
from shortcutlab.families import run_experiment, run_family
from shortcutlab.reports.html.document import Figure, Table
from shortcutlab.reports.tables import format_cell
from shortcutlab.webreport import overview
from shortcutlab.webreport.build import run_sections
from tests.families.mps.test_grid import write_spec
from tests.reports.tidy_columns import assert_explained
from tests.reports.view_html import View, assert_csv_holds, assert_shows_tables


@pytest.fixture(scope="module")
def mps_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mps-report")
    run_experiment(write_spec(folder, seeds="[0]"), folder / "run")
    return folder / "run"


def test_only_run_folders_are_recognised_and_their_family_read(mps_run, tmp_path):
    assert overview.recognises(mps_run) and run_family(mps_run) == "mps"
    assert not overview.recognises(tmp_path)
    assert not overview.recognises(mps_run / "benchmarks")


@pytest.mark.slow
def test_the_tables_hold_what_results_prints(mps_run):
    printed = CliRunner().invoke(app, ["results", str(mps_run), "--details"])
    assert printed.exit_code == 0, printed.output
    found = run_sections(mps_run)
    tables = [b for s in found for b in s.blocks if isinstance(b, Table)]
    titles = [t.title for t in tables]
    assert "W-ACC of the Imbalanced and Balanced fits" in titles
    assert any(t.startswith("δ and Δ") for t in titles)
    for table in tables:
        assert table.title in printed.stdout
        for value in table.frame.to_numpy().ravel():
            # Numbers are shown as the page shows them (format_cell, the table's digits).
            assert format_cell(value, table.digits) in printed.stdout, (table.title, value)
        for note in table.notes:
            assert note in printed.stdout
    gaps = next(t for t in tables if t.title.startswith("δ and Δ"))
    assert any(" ± " in str(v) and "[" in str(v) for v in gaps.frame.to_numpy().ravel())


def test_the_notebook_view_shows_the_report_tables_and_to_pandas_the_csv(mps_run):
    results = run_results(mps_run)
    tables = [b for s in run_sections(mps_run) for b in s.blocks if isinstance(b, Table)]
    view = View(results._repr_html_())
    assert_shows_tables(view, tables)
    assert view.loading == []
    printed = CliRunner().invoke(app, ["results", str(mps_run), "--format", "csv"])
    assert_csv_holds(printed.stdout, results.to_pandas(wide=True))
    assert_explained(results.to_pandas())
    assert_explained(results.to_pandas(per_seed=True))
    long, first = results.to_pandas(), results.groups.iloc[0]
    gaps = long[(long["attribute"] == first["attribute"]) & (long["metric"] == "delta_isolated")]
    assert gaps.iloc[0]["estimate"] == pytest.approx(first["delta_isolated_mean"], nan_ok=True)
    assert gaps.iloc[0]["p_adjusted"] == pytest.approx(first["p_delta_isolated_holm"], nan_ok=True)


def test_results_ends_with_delta_in_words_and_prints_footnotes_only_with_details(mps_run):
    printed = CliRunner().invoke(app, ["results", str(mps_run)])
    assert printed.exit_code == 0, printed.output
    found = printed.stdout.split("\nFindings:\n")[1].splitlines()
    attributes = dict.fromkeys(run_results(mps_run).groups["attribute"])
    assert len(found) >= len(attributes)
    for line, attribute in zip(found, attributes, strict=False):
        assert f"training on labels balanced across {attribute} " in line and "(δ " in line
    assert "δ = W-ACC(Balanced)" not in printed.stdout
    detailed = CliRunner().invoke(app, ["results", str(mps_run), "--details"])
    assert "δ = W-ACC(Balanced)" in detailed.stdout


def test_one_figure_per_dataset_and_attribute(mps_run):
    found = run_sections(mps_run)
    figures = [b for s in found for b in s.blocks if isinstance(b, Figure)]
    assert [f.title for f in figures] == [
        "toy: label shares per negation value",
        "toy: label shares per question value",
    ]
    for figure in figures:
        assert figure.svg.startswith("<svg") and figure.svg.rstrip().endswith("</svg>")
        assert "Imbalanced" in figure.svg and "Balanced" in figure.svg
    again = [b for s in run_sections(mps_run) for b in s.blocks]
    assert [b.svg for b in again if isinstance(b, Figure)] == [f.svg for f in figures]
