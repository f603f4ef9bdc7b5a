"""A new protocol is one module and one registry line: a toy family defined here runs build ->
grid -> ``shortcutlab results`` -> ``shortcutlab report`` through the engine, the registry and
the CLI, with no change anywhere else.

The toy protocol: a build is a seeded train / test split of a labelled table (written with its
manifest, like every family's build); a cell fits a model on train and scores test; a group is
(dataset, model) over seeds. Its numbers are checked against a model fitted here by hand.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from shortcutlab.cli.app import app
from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, ROW_ID, LoadedTable, load_table
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine import run_folder
from shortcutlab.engine.family import Family
from shortcutlab.engine.spec_entries import (
    DatasetSpec,
    ModelSpec,
    parse_datasets,
    parse_models,
    parse_seeds,
)
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.worker import done_outcome, failed_outcome
from shortcutlab.families import FAMILIES
from shortcutlab.metrics import accuracy
from shortcutlab.models import make_model
from shortcutlab.params import check_keys
from shortcutlab.reports.html.document import Section, Table
from shortcutlab.reports.tables import render, tidy_text

TOY = "toy"
TEST_SHARE = 0.3


def build_toy_benchmark(table: Any, *, seed: int, labels: LabelSpace | None = None) -> Benchmark:
    """The toy build: a seeded train / test split of ``table`` with its manifest."""
    frame = (table if isinstance(table, LoadedTable) else load_table(table, role="train")).frame
    values = sorted(set(frame[LABEL].tolist()), key=str)
    labels = labels or LabelSpace.infer(frame[LABEL].tolist(), given=values, source="the table")
    test = np.random.default_rng(seed).random(len(frame)) < TEST_SHARE
    manifest = {"family": TOY, "seed": seed, "labels": labels.to_json()}
    return Benchmark({"train": frame[~test], "test": frame[test]}, labels, manifest)


@dataclass(frozen=True)
class ToySpec:
    name: str
    datasets: list[DatasetSpec]
    models: list[ModelSpec]
    seeds: list[int]
    family = TOY

    def resolved(self) -> dict[str, Any]:
        return {
            "family": TOY,
            "name": self.name,
            "datasets": [d.resolved() for d in self.datasets],
            "models": [m.resolved() for m in self.models],
            "seeds": self.seeds,
        }

    def fingerprint(self) -> str:
        return canonical_hash(self.resolved())


def parse_toy_spec(raw: Mapping[str, Any], *, source: str, base_dir: Path) -> ToySpec:
    check_keys(raw, ("family", "name", "data", "models", "seeds"), source)
    return ToySpec(
        name=str(raw.get("name", "toy")),
        datasets=parse_datasets(raw, source, base_dir, test_required=False),
        models=parse_models(raw, source, base_dir),
        seeds=parse_seeds(raw, source),
    )


@dataclass(frozen=True)
class ToyBuild:
    id: str
    dataset: DatasetSpec
    seed: int
    label: str = "split"


@dataclass(frozen=True)
class ToyCell:
    id: str
    benchmark: ToyBuild
    model: ModelSpec
    seed: int
    config: dict[str, Any] = field(hash=False, compare=False)


def toy_cells(spec: ToySpec) -> list[ToyCell]:
    cells = []
    for dataset in spec.datasets:
        for seed in spec.seeds:
            build_id = f"{dataset.name}-{seed}"
            for model in spec.models:
                config = {"dataset": dataset.resolved(), "model": model.resolved(), "seed": seed}
                build = ToyBuild(build_id, dataset, seed)
                cells.append(ToyCell(canonical_hash(config), build, model, seed, config))
    return cells


def plan_toy_run(spec: ToySpec, out: Path) -> list[run_folder.PlannedCell]:
    finished = run_folder.finished_cells(out)
    return [run_folder.PlannedCell(c, c.id in finished) for c in toy_cells(spec)]


@dataclass
class ToyTask:
    """One cell: fit the model on the build's train split, score its test split."""

    benchmark_id: str
    benchmark_dir: str
    model_name: str
    cells: list[tuple[str, int]]
    cpus: float = 1.0
    gpus: float = 0.0
    shared_fit: bool = False

    def benchmark_dirs(self) -> dict[str, str]:
        return {self.benchmark_id: self.benchmark_dir}

    def run(self, benchmarks: Mapping[str, Benchmark]) -> Any:
        started = time.perf_counter()
        try:
            bench = benchmarks[self.benchmark_id]
            train, test = bench["train"], bench["test"]
            model = make_model(self.model_name, seed=self.cells[0][1])
            model.fit(model_inputs(train), bench.labels.ranks(train[LABEL]), n_classes=2)
            proba = np.asarray(model.predict_proba(model_inputs(test)), dtype=np.float32)
            score = accuracy(y_true=bench.labels.ranks(test[LABEL]), y_pred=proba.argmax(axis=1))
        except Exception as exc:  # noqa: BLE001 - recorded as a failed cell
            return failed_outcome(self, exc, started)
        return done_outcome(self, {"accuracy": score}, {"test": proba}, 0.0, 0.0, started)


def run_toy_experiment(spec: ToySpec, out: Path, **options: Any) -> run_folder.RunReport:
    tables = {d.name: run_folder.dataset_tables(d, test_required=False)[0] for d in spec.datasets}
    cells = toy_cells(spec)

    def prepare(store: ResultStore, pending_ids: set[str]) -> run_folder.PendingWork:
        pending = [c for c in cells if c.id in pending_ids]
        root = run_folder.benchmarks_root(out)
        for build in {c.benchmark.id: c.benchmark for c in pending}.values():
            if not (root / build.id / MANIFEST).exists():
                build_toy_benchmark(tables[build.dataset.name], seed=build.seed).save(
                    root / build.id
                )
        tasks = [
            ToyTask(c.benchmark.id, str(root / c.benchmark.id), c.model.name, [(c.id, c.seed)])
            for c in pending
        ]
        return run_folder.pending_work(pending, tasks, lambda cell: 0.0, lambda c: c.id)

    return run_folder.drive_run(spec, out, [c.id for c in cells], prepare, **options)


@dataclass
class ToyResults:
    groups: pd.DataFrame
    family = TOY


def load_toy_results(run_dir: Path, store: ResultStore, spec: Any, *, bootstrap: Any) -> Any:
    cells = store.spec_cells()
    cells = cells.assign(accuracy=[m["accuracy"] for m in cells["metrics"]])
    groups = cells.groupby(["dataset", "model"], sort=False)["accuracy"].agg(["mean", "count"])
    return ToyResults(groups.reset_index().rename(columns={"count": "seeds"}))


def toy_text(results: ToyResults, fmt: str, metric: str, *, details: bool = True) -> str:
    if fmt in ("csv", "json"):
        return tidy_text(results.groups, fmt)
    return render(results.groups.set_index(["dataset", "model"]), fmt)


def toy_write(results: ToyResults, out: Path, fmt: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    (out / "toy.csv").write_text(tidy_text(results.groups, "csv"), encoding="utf-8")
    return [out / "toy.csv"]


def toy_sections(found: Any) -> list[Section]:
    table = Table(name="toy-accuracy", title="Toy accuracy", frame=found.results.groups)
    return [Section(id="toy", title="The toy protocol", blocks=[table])]


TOY_FAMILY = Family(
    name=TOY,
    title="Toy protocol",
    summary="a seeded train / test split and a model's test accuracy",
    spec_parser=parse_toy_spec,
    planner=plan_toy_run,
    runner=run_toy_experiment,
    results_loader=load_toy_results,
    results_text=toy_text,
    results_writer=toy_write,
    report_sections=toy_sections,
)


@pytest.fixture
def toy_family():
    FAMILIES.add(TOY, TOY_FAMILY)  # the one registry line
    yield
    FAMILIES.remove(TOY)


@pytest.fixture
def reviews(tmp_path: Path, corpus: dict[str, pd.DataFrame]) -> Path:
    frame = corpus["train"][["text", "label"]].head(300)
    frame = frame.assign(label=np.where(frame["label"] >= 3, "positive", "negative"))
    frame.to_csv(tmp_path / "reviews.csv", index=False)
    return tmp_path / "reviews.csv"


def by_hand(path: Path, seed: int) -> float:
    """The toy cell's accuracy, computed here without the engine."""
    frame = pd.read_csv(path)
    test = np.random.default_rng(seed).random(len(frame)) < TEST_SHARE
    ranks = (frame["label"] == "positive").to_numpy().astype(int)  # negative < positive
    model = make_model("tfidf-logreg", seed=seed)
    model.fit(frame["text"][~test].tolist(), ranks[~test], n_classes=2)
    predicted = np.asarray(model.predict_proba(frame["text"][test].tolist())).argmax(axis=1)
    return float((predicted == ranks[test]).mean())


def test_a_toy_family_runs_build_grid_results_and_report(toy_family, reviews, tmp_path):
    bench = build_toy_benchmark(reviews, seed=0)
    assert len(bench["train"]) + len(bench["test"]) == 300
    assert set(bench["train"][ROW_ID]).isdisjoint(bench["test"][ROW_ID])

    spec = tmp_path / "toy.yaml"
    spec.write_text(
        f"family: toy\nname: toy-grid\ndata: {{name: reviews, train: {reviews}}}\n"
        "models: [tfidf-logreg]\nseeds: [0, 1]\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    planned = runner.invoke(app, ["run", str(spec), "--out", str(tmp_path / "run"), "--dry-run"])
    assert planned.exit_code == 0, planned.output
    assert "toy-grid: 2 cells" in planned.stdout and "pending" in planned.stdout
    ran = runner.invoke(app, ["run", str(spec), "--out", str(tmp_path / "run"), "--jobs", "1"])
    assert ran.exit_code == 0, ran.output
    assert "2 cells done" in ran.stdout

    tidy = runner.invoke(app, ["results", str(tmp_path / "run"), "--format", "csv"])
    assert tidy.exit_code == 0, tidy.output
    row = pd.read_csv(pd.io.common.StringIO(tidy.stdout)).iloc[0]
    expected = (by_hand(reviews, 0) + by_hand(reviews, 1)) / 2
    assert (row["dataset"], row["model"], row["seeds"]) == ("reviews", "tfidf-logreg", 2)
    assert row["mean"] == pytest.approx(expected, abs=1e-12)
    markdown = runner.invoke(app, ["results", str(tmp_path / "run")])
    assert f"{expected:.3f}" in markdown.stdout

    reported = runner.invoke(app, ["report", str(tmp_path / "run")])
    assert reported.exit_code == 0, reported.output
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "The toy protocol" in page and "Toy accuracy" in page and "Overview" in page
    assert f"{expected:.3f}" in page and "shortcutlab toy run" in page


def test_without_its_registry_line_the_toy_spec_is_refused(reviews, tmp_path):
    spec = tmp_path / "toy.yaml"
    spec.write_text(f"family: toy\ndata: {{train: {reviews}}}\nmodels: [majority]\n")
    refused = CliRunner().invoke(app, ["run", str(spec), "--out", str(tmp_path / "run")])
    assert refused.exit_code == 2
    assert (
        "The 'family' key in toy.yaml must be one of 'cat', 'maze', 'mps', 'robustness'. Got 'toy'"
        in refused.stderr
    )
    assert not (tmp_path / "run").exists()
