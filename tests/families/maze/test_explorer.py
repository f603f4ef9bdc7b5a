"""The row explorer's rows, read back against the run folder's own files (the benchmark CSVs and
the store's probability blobs, decoded here without the explorer's code)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.demo.pipeline import run_demo
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.families import load_results
from shortcutlab.families.maze.evaluate import prediction_rows
from shortcutlab.families.maze.explorer import demo_explorer, grid_explorer
from shortcutlab.families.maze.explorer_rows import split_texts
from tests.families.maze.explorer_helpers import render_explorer_page, small_grid_run
from tests.families.suite.suite_helpers import tautology_on_hypothesis

ALL = 10_000  # no cap: every changed pair of the small run


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_grid_run(tmp_path_factory.mktemp("explorer") / "run")


def stored_predictions(run_dir: Path, cell_id: str, split: str) -> np.ndarray:
    with sqlite3.connect(run_dir / "results.sqlite") as db:
        n_classes, blob = db.execute(
            "SELECT n_classes, probabilities FROM predictions WHERE cell_id = ? AND split = ?",
            (cell_id, split),
        ).fetchone()
    return np.frombuffer(blob, dtype=np.float32).reshape(-1, n_classes)


def expected_pairs(run_dir: Path, cell_id: str, benchmark_id: str) -> pd.DataFrame:
    """Test and anti-test rows side by side with their predicted labels, from the files."""
    folder = run_dir / "benchmarks" / benchmark_id
    labels = [str(v) for v in json.loads((folder / "manifest.json").read_text())["labels"]]
    sides = []
    for split in ("test", "anti_test"):
        frame = pd.read_csv(folder / f"{split}.csv", dtype={"label": str}, keep_default_na=False)
        probabilities = stored_predictions(run_dir, cell_id, split)
        frame["predicted"] = [labels[i] for i in probabilities.argmax(axis=1)]
        frame["p"] = probabilities.max(axis=1)
        sides.append(frame.set_index("row_id"))
    return sides[0].join(sides[1], how="inner", suffixes=("_test", "_anti"))


def test_changed_pairs_come_with_their_texts_predictions_and_spans(run_dir: Path) -> None:
    results = load_results(run_dir)
    explorer = grid_explorer(results, run_dir, per_cell=ALL)
    assert explorer is not None and len(explorer.cells) == 2
    for cell in explorer.cells:
        stored = results.cells.set_index("cell_id").loc[cell.key]
        pairs = expected_pairs(run_dir, cell.key, stored["benchmark_id"])
        changed = pairs[pairs["predicted_test"] != pairs["predicted_anti"]]
        assert 0 < len(changed) < len(pairs)  # the run has both kinds of pairs
        assert sorted(int(r.row_id) for r in cell.rows) == sorted(changed.index)
        assert dict(cell.facts)["changed pairs"] == f"{len(changed)} of {len(pairs)}"
        for row in cell.rows:
            expected = changed.loc[int(row.row_id)]
            assert (row.test_text, row.anti_text) == (expected["text_test"], expected["text_anti"])
            assert row.label == expected["label_test"]
            assert row.test_prediction == expected["predicted_test"]
            assert row.anti_prediction == expected["predicted_anti"]
            assert row.test_confidence == pytest.approx(expected["p_test"], abs=1e-4)
            assert [[s.start, s.end] for s in row.test_spans] == json.loads(
                expected["cue_spans_test"]
            )
            assert [[s.start, s.end] for s in row.anti_spans] == json.loads(
                expected["cue_spans_anti"]
            )
            right = (row.test_prediction == row.label, row.anti_prediction == row.label)
            assert row.change == {(True, False): "broke", (False, True): "fixed"}.get(
                right, "changed"
            )


def test_the_single_term_cue_is_the_marked_text(run_dir: Path) -> None:
    explorer = grid_explorer(load_results(run_dir), run_dir)
    cell = next(c for c in explorer.cells if dict(c.facts)["shortcut"] == "single-term")
    marked = {row.test_text[span.start : span.end] for row in cell.rows for span in row.test_spans}
    assert marked and all(m.lower().startswith("honestly") for m in marked), marked


def test_cells_are_ordered_by_delta_and_delta_is_broke_minus_fixed(run_dir: Path) -> None:
    explorer = grid_explorer(load_results(run_dir), run_dir, per_cell=ALL)
    deltas = [float(dict(c.facts)["Δ accuracy"]) for c in explorer.cells]
    assert deltas == sorted(deltas, reverse=True) and deltas[0] > deltas[-1]
    for cell in explorer.cells:
        changes = [row.change for row in cell.rows]
        paired = int(dict(cell.facts)["changed pairs"].split(" of ")[1])
        # The engine's Δ accuracy over fully paired splits, recounted from the rows shown.
        assert (changes.count("broke") - changes.count("fixed")) / paired == pytest.approx(
            float(dict(cell.facts)["Δ accuracy"]), abs=5e-4
        )
        order = ["broke", "fixed", "changed"]
        assert changes == sorted(changes, key=order.index)


def test_the_page_budget_caps_rows_and_says_how_many_are_left_out(run_dir: Path) -> None:
    full = grid_explorer(load_results(run_dir), run_dir, per_cell=ALL)
    capped = grid_explorer(load_results(run_dir), run_dir, per_cell=5, per_page=7)
    totals = [len(c.rows) for c in full.cells]
    assert [len(c.rows) for c in capped.cells] == [5, 2]
    assert [c.omitted for c in capped.cells] == [totals[0] - 5, totals[1] - 2]
    assert [r.row_id for r in capped.cells[0].rows] == [r.row_id for r in full.cells[0].rows[:5]]
    left_out = sum(totals) - 7
    assert f"at most 5 pairs per cell and 7 in all; {left_out} changed pairs in 2 cells" in (
        " ".join(capped.notes)
    )
    assert "nothing is left out" in " ".join(full.notes)


def test_missing_benchmark_folders_are_said_and_an_empty_run_gives_none(
    run_dir: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    results = load_results(copy)
    folders = sorted((copy / "benchmarks").iterdir())
    shutil.rmtree(folders[0])
    explorer = grid_explorer(results, copy)
    assert len(explorer.cells) == 1
    assert explorer.notes[-1] == (
        f"The cells of 1 builds are not shown: their folders are missing from benchmarks/ "
        f"({folders[0].name})."
    )
    shutil.rmtree(folders[1])
    assert grid_explorer(results, copy) is None


def test_a_build_without_cue_spans_shows_its_texts_unmarked(run_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    for path in (copy / "benchmarks").glob("*/*test.csv"):
        pd.read_csv(path).drop(columns="cue_spans").to_csv(path, index=False)
    with pytest.warns(Warning, match="changed after the build"):
        explorer = grid_explorer(load_results(copy), copy)
    assert all(not row.test_spans for cell in explorer.cells for row in cell.rows)
    names = ", ".join(sorted(p.name for p in (copy / "benchmarks").iterdir()))
    assert f"No cue is marked in {names}: The anti_test split has no cue_spans column." in (
        " ".join(explorer.notes)
    )


def test_the_explorer_is_deterministic_and_its_page_escapes_data(run_dir: Path) -> None:
    first = render_explorer_page(grid_explorer(load_results(run_dir), run_dir))
    second = render_explorer_page(grid_explorer(load_results(run_dir), run_dir))
    assert first == second
    explorer = grid_explorer(load_results(run_dir), run_dir)
    attack = '"><img src=x onerror=alert(1)><script>alert(1)</script>'
    explorer.cells[0].title = attack
    explorer.cells[0].rows[0].test_text = attack
    page = render_explorer_page(explorer)
    assert "<img" not in page and "<script>alert" not in page
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in page  # the option's text
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in page  # the JSON's


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "demo"
    run_demo(
        out,
        train_size=300,
        test_size=200,
        shortcuts=("single-term", "register"),
        strengths=(1.0,),
        seeds=2,  # vary="both": seed 1 fits a re-drawn build, whose rows are not saved
        jobs=1,
        mps=False,
    )
    return out


def test_the_demo_writes_predictions_that_agree_with_its_results(demo_dir: Path) -> None:
    folder = demo_dir / "benchmarks" / "single-term-lambda1"
    written = pd.read_csv(folder / "results" / "tfidf-logreg" / "predictions.csv", dtype=str)
    assert set(written["seed"]) == {"0"}
    record = json.loads((folder / "results" / "tfidf-logreg" / "results.json").read_text())
    saved = Benchmark.load(folder)  # the demo keeps its builds as Parquet
    for split in ("test", "anti_test"):
        truth = saved[split].astype({"row_id": str, "label": str})
        part = written[written["split"] == split]
        assert list(part["row_id"]) == list(truth["row_id"])
        accuracy = (part["predicted"].to_numpy() == truth["label"].to_numpy()).mean()
        assert accuracy == pytest.approx(record["runs"][0]["splits"][split]["accuracy"])


def test_the_demo_explorer_shows_each_cell_fitted_on_its_saved_build(demo_dir: Path) -> None:
    explorer = demo_explorer(demo_dir)
    deltas = [float(dict(c.facts)["Δ accuracy"]) for c in explorer.cells]
    assert deltas == sorted(deltas, reverse=True)
    assert {c.key for c in explorer.cells} == {
        "single-term-lambda1/tfidf-logreg/seed-0",
        "register-lambda1/tfidf-logreg/seed-0",
    }
    notes = [n for n in explorer.notes if n.startswith("No cue is marked")]
    assert notes == [
        "No cue is marked in register-lambda1: register rewrites whole texts (a style), so no "
        "span holds its cue."
    ]
    cell = next(c for c in explorer.cells if c.key.startswith("single-term"))
    test = Benchmark.load(demo_dir / "benchmarks" / "single-term-lambda1")["test"]
    test = test.set_index("row_id")
    assert cell.rows and all(
        row.test_text == test.loc[int(row.row_id), "text"] for row in cell.rows
    )
    assert dict(cell.facts)["seed"] == "0" and dict(cell.facts)["dataset"] == "reviews"


def test_a_folder_without_predictions_gives_no_demo_explorer(tmp_path: Path) -> None:
    (tmp_path / "benchmarks").mkdir()
    assert demo_explorer(tmp_path) is None


def test_a_row_without_a_valid_answer_is_written_empty_and_shown_as_such(
    demo_dir: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "demo"
    shutil.copytree(demo_dir, copy)
    folder = copy / "benchmarks" / "single-term-lambda1"
    benchmark = Benchmark.load(folder)
    k = len(benchmark.labels)
    probabilities = {
        split: np.tile(np.eye(k, dtype=np.float32)[0], (len(benchmark[split]), 1))
        for split in ("test", "anti_test")
    }
    probabilities["test"][0] = 0.0  # a model's "no valid answer" on the first test row
    predicted = {split: predicted_labels(p) for split, p in probabilities.items()}
    written = folder / "results" / "tfidf-logreg" / "predictions.csv"
    prediction_rows(0, benchmark, predicted, probabilities).to_csv(
        written, index=False, lineterminator="\n", float_format="%.6f"
    )
    first = written.read_text().splitlines()[1]
    assert first == f"0,test,{benchmark['test']['row_id'].iloc[0]},,"
    cell = next(c for c in demo_explorer(copy).cells if c.key.startswith("single-term"))
    [row] = cell.rows
    assert row.row_id == str(benchmark["test"]["row_id"].iloc[0])
    assert (row.test_prediction, row.test_confidence) == ("(no valid answer)", None)
    assert (row.anti_prediction, row.anti_confidence) == (str(benchmark.labels.values[0]), 1.0)


def test_a_text_pair_is_shown_on_two_lines_with_the_cue_in_the_second(tmp_path: Path) -> None:
    folder = tmp_path / "pairs"
    tautology_on_hypothesis(folder)
    shown = split_texts(Benchmark.load(folder), "test")
    raw = pd.read_csv(folder / "test.csv", keep_default_na=False)
    marked = 0
    for text, spans, premise, hypothesis, recorded in zip(
        shown.texts, shown.spans, raw["text"], raw["text_pair"], raw["cue_spans"], strict=True
    ):
        assert text == f"{premise}\n{hypothesis}"
        assert [text[start:end] for start, end in spans] == [
            hypothesis[start:end] for start, end in json.loads(recorded)
        ]
        marked += bool(spans)
    assert marked > 0 and not shown.unmarked
