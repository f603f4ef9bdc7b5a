"""The CAT collector on a real CAT grid run and a real 'shortcutlab cat' folder: its tables hold
what the CLI prints."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.families import load_results, run_experiment, run_family
from shortcutlab.families.cat import report as cat
from shortcutlab.reports.html.collect import ReportInput
from shortcutlab.reports.html.document import Facts, Table
from shortcutlab.reports.tables import format_cell
from shortcutlab.webreport import overview
from shortcutlab.webreport.build import run_sections
from tests.cli.test_output_formats import table_cells
from tests.families.cat.cat_data import write_pair_files
from tests.families.cat.test_grid import _spec
from tests.reports.tidy_columns import assert_explained
from tests.reports.view_html import View, assert_csv_holds, assert_shows_tables


@pytest.fixture(scope="module")
def cat_grid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cat-grid")
    run_experiment(_spec(folder), folder / "run")
    return folder / "run"


@pytest.fixture(scope="module")
def cat_output(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cat-single")
    train, test = write_pair_files(folder, cue=True, n_train=300, n_test=120)
    arguments = ["cat", "--train", str(train), "--test", str(test), "--out", str(folder / "out")]
    arguments += ["--text-col", "premise", "--text-pair-col", "hypothesis", "--k", "3"]
    arguments += ["--export-check", "10"]
    printed = CliRunner().invoke(app, [*arguments, "--default-label", "neutral", "--details"])
    assert printed.exit_code == 0, printed.output
    return folder / "out", printed.stdout


def _cells(table: Table) -> list[str]:
    return [format_cell(v, table.digits) for v in table.frame.to_numpy().ravel()]


def test_cat_outputs_are_recognised_and_nothing_else(cat_grid, cat_output, tmp_path):
    assert overview.recognises(cat_grid) and run_family(cat_grid) == "cat"
    assert cat.recognises(cat_output[0]) and not overview.recognises(cat_output[0])
    assert not cat.recognises(tmp_path) and not cat.recognises(cat_grid)
    (tmp_path / "results.json").write_text('{"config": {}}', encoding="utf-8")
    assert not cat.recognises(tmp_path)
    (tmp_path / "results.json").write_text("{not json", encoding="utf-8")
    assert not cat.recognises(tmp_path)


def test_a_grid_run_gives_the_table_results_prints(cat_grid):
    printed = CliRunner().invoke(app, ["results", str(cat_grid), "--details"])
    assert printed.exit_code == 0, printed.output
    (section,) = run_sections(cat_grid)
    (table,) = section.blocks
    assert isinstance(table, Table) and table.title in printed.stdout
    assert len(table.frame) == 2  # augmentation no / yes
    for cell in _cells(table):
        assert cell in printed.stdout
    for note in table.notes:
        assert note in printed.stdout


def test_the_notebook_view_shows_the_report_table_and_to_pandas_the_csv(cat_grid):
    results = load_results(cat_grid)
    (section,) = run_sections(cat_grid)
    view = View(results._repr_html_())
    assert_shows_tables(view, section.blocks)
    assert view.loading == []
    printed = CliRunner().invoke(app, ["results", str(cat_grid), "--format", "csv"])
    assert_csv_holds(printed.stdout, results.to_pandas(wide=True))
    assert_explained(results.to_pandas())
    assert_explained(results.to_pandas(per_seed=True))


def test_a_cat_folder_gives_accuracy_attentiveness_and_baselines(cat_output):
    folder, printed = cat_output
    (section,) = cat.sections(ReportInput("cat", folder))
    facts = next(b for b in section.blocks if isinstance(b, Facts))
    assert ("default label", "neutral") in facts.items
    assert ("pairs to judge by hand", "10 in check.csv") in facts.items
    tables = {b.name: b for b in section.blocks if isinstance(b, Table)}
    assert list(tables) == ["cat-attentiveness", "cat-per-label", "cat-baselines"]
    accuracy, attentiveness = _cells(tables["cat-attentiveness"])[:2]
    # The terminal table: measure | % | 95 % low | 95 % high | ± sd | rows | p vs majority
    shown = {row[0]: row[1:] for row in table_cells(printed)}
    percent, low, high = shown["accuracy"][:3]
    assert f"{percent} [{low}, {high}]" == accuracy
    assert f"{shown['attentiveness'][0]} ± {shown['attentiveness'][3]}" == attentiveness
    assert "over k=3 counterfactual sets" in " ".join(printed.split())
    for label, row in tables["cat-per-label"].frame.iterrows():
        mean, _, _, spread, rows = shown[f"attentiveness, predicted {label}"][:5]
        assert (f"{mean} ± {spread}", float(rows)) == (row["attentiveness"], row["rows"])
    baselines = tables["cat-baselines"].frame["accuracy (%)"]
    assert baselines.iloc[0] == accuracy
    for name, value in baselines.iloc[1:].items():  # partial input, majority, naive partial input
        match = [cells for measure, cells in shown.items() if measure.startswith(name.lower())]
        assert [f"{c[0]} [{c[1]}, {c[2]}]" for c in match] == [value]
    mcnemar = tables["cat-baselines"].notes[1]
    p_value = mcnemar.removeprefix("Partial input vs majority: exact McNemar p = ").split(" ")[0]
    assert float(shown["partial input (text_pair only)"][5]) == pytest.approx(float(p_value))


def test_a_folder_that_lost_its_results_gives_a_notice_not_an_error(tmp_path):
    (section,) = cat.sections(ReportInput("cat", tmp_path))
    (notice,) = section.blocks
    assert notice.texts == [f"'{tmp_path}' no longer holds a CAT results.json."]
