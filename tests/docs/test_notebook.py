"""The example notebooks run from top to bottom with nbclient, so they cannot rot: no cell fails.
docs/notebooks/quickstart.ipynb's views hold the tables and numbers of what it built, ran and
audited (read back here from the folders it wrote); docs/notebooks/your-data.ipynb goes from a
DataFrame to a Δ-vs-λ plot through objects only, writing no file."""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import shortcutlab
from shortcutlab.families.maze.report_tables import table_blocks
from shortcutlab.reports.html.document import Table
from tests.reports.view_html import View, assert_shows_tables

# Starts a Jupyter kernel and runs the quick-start notebook. The quick loop (-m "not slow") leaves it out.
pytestmark = pytest.mark.slow

nbclient = pytest.importorskip("nbclient", reason="the test extra installs nbclient")
nbformat = pytest.importorskip("nbformat", reason="the test extra installs nbformat")
pytest.importorskip("ipykernel", reason="the test extra installs ipykernel")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "docs" / "notebooks"
NOTEBOOK = NOTEBOOKS / "quickstart.ipynb"
OBJECTS_NOTEBOOK = NOTEBOOKS / "your-data.ipynb"
KERNEL = "shortcutlab-tests"


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """The quick-start notebook executed in a fresh folder (its working folder), and that folder."""
    return _execute(NOTEBOOK, tmp_path_factory.mktemp("notebook"))


@pytest.fixture(scope="module")
def executed_objects(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """The objects-only notebook executed in a fresh folder, and that folder."""
    return _execute(OBJECTS_NOTEBOOK, tmp_path_factory.mktemp("objects-notebook"))


def _execute(path: Path, folder: Path) -> tuple[Any, Path]:
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    # A kernelspec of our own that runs this interpreter: a user's or system 'python3' spec
    # could start another Python, without this checkout's shortcutlab.
    spec = folder / ".kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": KERNEL, "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    specs = KernelSpecManager(kernel_dirs=[str(folder / ".kernels")], ensure_native_kernel=False)
    manager = KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, km=manager, timeout=180, resources={"metadata": {"path": str(folder)}}
    )
    client.execute(env=_environment())
    return notebook, folder


def _environment() -> dict[str, str]:
    """This process's environment, with a relative PYTHONPATH (a checkout's ``src``) made
    absolute: the kernel runs in the notebook's folder."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        parts = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in parts if p)
    return env


def _html_outputs(notebook: Any) -> list[str]:
    return [
        output["data"]["text/html"]
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "text/html" in output.get("data", {})
    ]


def _view(notebook: Any, heading: str) -> View:
    views = [View(text) for text in _html_outputs(notebook) if "shortcutlab-view" in text]
    return next(view for view in views if view.headings[0].startswith(heading))


@pytest.mark.parametrize("path", [NOTEBOOK, OBJECTS_NOTEBOOK], ids=lambda path: path.name)
def test_the_notebook_is_stored_without_outputs(path):
    stored = nbformat.read(path, as_version=4)
    nbformat.validate(stored)
    code = [cell for cell in stored.cells if cell.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


@pytest.mark.parametrize("run", ["executed", "executed_objects"])
def test_every_cell_runs_without_an_error(run, request):
    notebook, _ = request.getfixturevalue(run)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code)
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert errors == []


def test_the_benchmark_view_shows_its_splits(executed):
    notebook, _ = executed
    view = _view(notebook, "Benchmark: shortcut-maze")
    settings = view.tables["benchmark-settings"].column("value")
    assert settings["shortcut"] == "single-term" and settings["strength"] == "0.9"
    sizes = view.tables["benchmark-splits"].column("rows")
    assert sizes == {"train": "400", "test": "200", "anti_test": "200", "original_test": "200"}
    assert view.loading == []


def test_the_run_view_shows_the_report_tables_of_the_run_it_wrote(executed):
    notebook, folder = executed
    run = shortcutlab.load_results(folder / "quickstart-run")
    view = _view(notebook, "Run quickstart")
    assert_shows_tables(view, [b for b in table_blocks(run) if isinstance(b, Table)])
    assert view.loading == []


def test_to_pandas_shows_the_tidy_rows(executed):
    notebook, folder = executed
    table = shortcutlab.load_results(folder / "quickstart-run").to_pandas()
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and "to_pandas" in c.source]
    (shown,) = [o["data"]["text/html"] for o in cell.outputs if "data" in o]
    drops = table[(table["split"] == "delta") & (table["metric"] == "accuracy")]
    columns = ["shortcut", "strength", "estimate", "ci_low", "ci_high", "p_adjusted"]
    with pd.option_context("display.max_columns", 20):  # a kernel's default: not a terminal
        assert shown == drops[columns]._repr_html_()
    assert len(drops) == 2  # one Δ row per λ of the one shortcut


def test_the_audit_view_ranks_the_injected_term_first(executed):
    notebook, _ = executed
    view = _view(notebook, "Shortcut audit")
    candidates = view.tables["audit-candidates"]
    assert candidates.rows[0][:4] == ["#", "group", "candidate", "label"]
    # The planted word leads, alone or as the first marker of the style it belongs to.
    first = candidates.column("candidate")["1"]
    assert first == "honestly" or first.startswith("discourse markers: honestly"), first
    assert view.loading == []


def test_the_objects_notebook_writes_no_file(executed_objects):
    _, folder = executed_objects
    assert sorted(p.name for p in folder.iterdir()) == [".kernels"]  # only this test's kernelspec


def test_the_objects_notebook_tabulates_one_delta_row_per_strength(executed_objects):
    notebook, _ = executed_objects
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and "to_pandas" in c.source]
    (shown,) = [o["data"]["text/html"] for o in cell.outputs if "data" in o]
    (drops,) = pd.read_html(io.StringIO(shown), index_col=0)
    assert drops.columns.tolist() == ["strength", "estimate", "ci_low", "ci_high", "p_adjusted"]
    assert drops["strength"].tolist() == [0.2, 0.6, 1.0]
    assert (drops["ci_low"] <= drops["estimate"]).all()
    assert (drops["estimate"] <= drops["ci_high"]).all()


def test_the_objects_notebook_draws_its_figure(executed_objects):
    notebook, _ = executed_objects
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and "errorbar" in c.source]
    images = [o["data"]["image/png"] for o in cell.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 1
    assert base64.b64decode(images[0]).startswith(b"\x89PNG")
