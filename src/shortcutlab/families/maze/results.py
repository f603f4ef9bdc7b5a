"""Results of a run: per-cell metrics, per-group statistics over seeds, paper-style tables.

A group is (dataset, model, mitigation, shortcut, λ). Its statistics come from the engine that
``evaluate`` uses (:mod:`shortcutlab.engine.summary`); Holm–Bonferroni runs over all groups
of the grid, per metric, and decides the paper's ``*``. A grid with mitigations also compares
each with erm on the same rows (:mod:`shortcutlab.families.maze.mitigation_summary`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.engine.cell import EVAL_SPLITS, paired_indices, predicted_labels
from shortcutlab.engine.mitigation_spec import baseline_id, fit_id, spec_mitigations
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.stored_groups import (
    StoredGroup,
    back_fill,
    group_key,
    statistics_settings,
    still_stored,
)
from shortcutlab.engine.summary import (
    IDENTITY,
    PairedPredictions,
    SeedOutcome,
    apply_holm,
    group_provenance,
    group_provenance_of,
    group_statistics,
)
from shortcutlab.families.maze.mitigation_summary import (
    SETTING,
    apply_comparison_holm,
    compare_with_erm,
    whole_test_reader,
)
from shortcutlab.families.maze.tidy_rows import flat_scores, group_long_table, seed_long_table
from shortcutlab.metrics import METRICS, split_metric_names
from shortcutlab.reports.html.document import Block
from shortcutlab.reports.html.notebook import RunResultsView
from shortcutlab.reports.mitigation_tables import table3, vs_erm_table
from shortcutlab.reports.tables import SPLIT_TITLES, maze_table, table1
from shortcutlab.reports.tidy import delta_rows

GROUP = list(IDENTITY)
FAMILY = "maze"  # the family of the store's group_statistics rows
VS_ERM = "maze-vs-erm"  # ... and of a setting's comparisons of each mitigation with erm


@dataclass(repr=False)  # the short repr of RunResultsView
class RunResults(RunResultsView):
    """Everything ``shortcutlab results`` shows, as DataFrames."""

    run_dir: Path
    spec: dict[str, Any]
    cells: pd.DataFrame
    groups: pd.DataFrame
    comparisons: pd.DataFrame  # each mitigation against erm (empty without mitigations)

    family = "maze"

    def report_tables(self) -> list[Block]:
        from shortcutlab.families.maze.report_tables import table_blocks

        return table_blocks(self)

    @property
    def has_mitigations(self) -> bool:
        """Whether the run crossed models with methods other than the plain fit."""
        return bool(self.spec.get("mitigations"))

    def table3(self, metric: str = "accuracy", *, marked: bool = True) -> pd.DataFrame:
        """Maze Table 3 layout: Test / Anti / Δ per mitigation (see
        :func:`shortcutlab.reports.mitigation_tables.table3`)."""
        return table3(self.groups, metric=metric, marked=marked)

    def vs_erm(self, metric: str = "accuracy") -> pd.DataFrame:
        """Each mitigation against erm on the same rows (see
        :func:`shortcutlab.reports.mitigation_tables.vs_erm_table`)."""
        return vs_erm_table(self.comparisons, metric=metric)

    def table1(self, *, marked: bool = False) -> pd.DataFrame:
        """Table-1 style at each dataset's strongest λ (see :func:`shortcutlab.reports.tables.table1`)."""
        return table1(self.groups, marked=marked)

    def table9(self, metric: str = "accuracy", *, marked: bool = False) -> pd.DataFrame:
        """Table-9 style by λ (see :func:`shortcutlab.reports.tables.maze_table`)."""
        return maze_table(self.groups, metric=metric, marked=marked)

    def label_distribution(self) -> pd.DataFrame:
        """Share of each predicted label (and of invalid answers) per group and split, mean over seeds."""
        return self._per_split(
            lambda split: [c for c in self.cells.columns if c.startswith(f"{split}_share:")],
            "share:",
        )

    def calibration(self) -> pd.DataFrame:
        """Verbalized confidence vs accuracy and ECE per group and split (LLM cells that gave one)."""
        return self._per_split(
            lambda split: [
                f"{split}_{n}"
                for n in ("accuracy", "confidence", "ece", "invalid")
                if f"{split}_confidence" in self.cells
            ],
            "",
        )

    def usage(self) -> pd.DataFrame:
        """LLM usage summed per model: requests, cache hits, retries, failures, tokens."""
        columns = [c for c in self.cells.columns if c.startswith("usage_")]
        if not columns:
            return pd.DataFrame()
        # Seeds that shared one fit report the same usage once.
        return (
            self.cells.drop_duplicates("fit_id")
            .groupby("model", sort=False)[columns]
            .sum()
            .rename(columns=lambda c: c[len("usage_") :])
        )

    def _per_split(self, columns_of: Any, prefix: str) -> pd.DataFrame:
        """One row per (group, split), in table order, with the split's columns minus their prefix."""
        frames = []
        for split in EVAL_SPLITS:
            columns = columns_of(split)
            if not columns:
                continue
            part = self.cells.groupby(GROUP, sort=False)[columns].mean()
            part.columns = [c[len(split) + 1 :].removeprefix(prefix) for c in columns]
            frames.append(part.assign(split=SPLIT_TITLES[split]).set_index("split", append=True))
        if not frames:
            return pd.DataFrame()
        combined = pd.concat(frames)
        group_rank = {
            key: i for i, key in enumerate(self.groups[GROUP].itertuples(index=False, name=None))
        }
        split_rank = {title: i for i, title in enumerate(SPLIT_TITLES.values())}
        order = sorted(
            range(len(combined)),
            key=lambda i: (group_rank[combined.index[i][:-1]], split_rank[combined.index[i][-1]]),
        )
        return combined.iloc[order]

    def long_table(self, *, per_seed: bool) -> pd.DataFrame:
        return seed_long_table(self.cells) if per_seed else group_long_table(self.groups)

    def delta_frame(self, dataset: str, metric: str) -> pd.DataFrame:
        """The Δ rows of one dataset and metric: the slice of :meth:`to_pandas` the Δ-vs-λ figure
        plots (:func:`shortcutlab.reports.plots.delta_figure`)."""
        table = self.to_pandas()
        return delta_rows(table[table["dataset"] == dataset], metric)


def load_maze_results(
    run_dir: Path, store: ResultStore, spec: dict[str, Any], *, bootstrap: int | None = None
) -> RunResults:
    """The per-group statistics of a Maze run's finished cells (``store`` is open); those the
    store lacks are computed, and stored when they use the spec's own resamples."""
    read_at = store.data_version()
    frame = store.spec_cells()
    for record in frame.itertuples():
        _score_new_metrics(record.metrics, store, record.cell_id, record.benchmark_id)
    cells = _flatten(frame, spec)
    scores = dict(zip(frame["cell_id"], frame["metrics"], strict=True))
    n_resamples = bootstrap or int(spec.get("bootstrap", 1000))
    fresh: dict[str, list[StoredGroup]] = {FAMILY: [], VS_ERM: []}
    groups = _groups(cells, scores, store, n_resamples, fresh[FAMILY])
    n_classes = store.probabilities(cells["cell_id"].iloc[0], "test").shape[1]
    comparisons = _comparisons(
        cells,
        store,
        comparison_settings(n_resamples, n_classes),
        lambda part: setting_comparisons(part, scores, store, spec, n_resamples, n_classes),
        fresh[VS_ERM],
    )
    if n_resamples == int(spec.get("bootstrap", 1000)):  # not a --bootstrap override
        for family, computed in fresh.items():
            back_fill(store, family, computed, read_at)
    return RunResults(
        run_dir=run_dir, spec=spec, cells=cells, groups=groups, comparisons=comparisons
    )


def stored_cells(
    store: ResultStore, cell_ids: Collection[str]
) -> tuple[pd.DataFrame, dict[str, dict[str, Any]], dict[str, Any]]:
    """The finished ``cell_ids`` as ``results`` reads them: flat rows, scores, the spec."""
    spec = store.spec()
    frame = store.cells(cell_ids=cell_ids)
    for record in frame.itertuples():
        _score_new_metrics(record.metrics, store, record.cell_id, record.benchmark_id)
    scores = dict(zip(frame["cell_id"], frame["metrics"], strict=True))
    return _flatten(frame, spec), scores, spec


def _score_new_metrics(
    metrics: dict[str, Any], store: ResultStore, cell_id: str, benchmark_id: str
) -> None:
    """Add to a cell's stored ``metrics`` the per-split metrics registered after it ran, scored
    from its stored predictions, so a metric added to the registry also reads older runs."""
    missing = [m for m in split_metric_names() if m not in metrics["delta"]]
    if not missing:
        return
    for split, values in metrics["splits"].items():
        _, truth = store.rows(benchmark_id, split)
        probabilities = store.probabilities(cell_id, split)
        for metric in missing:
            values[metric] = METRICS.get(metric).score(
                y_true=truth,
                y_pred=predicted_labels(probabilities),
                n_classes=probabilities.shape[1],
            )
    for metric in missing:
        metrics["delta"][metric] = (
            metrics["splits"]["test"][metric] - metrics["splits"]["anti_test"][metric]
        )


def _flatten(frame: pd.DataFrame, spec: dict[str, Any]) -> pd.DataFrame:
    rows = []
    for record in frame.itertuples():
        metrics = record.metrics
        row: dict[str, Any] = {
            c: getattr(record, c)
            for c in (
                "cell_id",
                "benchmark_id",
                "dataset",
                "model",
                "mitigation",
                "shortcut",
                "strength",
                "seed",
                "shared_fit",
            )
        }
        # Seeds that share a fit (a seed-independent fit on one build) are one measurement.
        row["fit_id"] = fit_id(record)
        row |= group_provenance(metrics)
        row |= flat_scores(metrics)
        rows.append(row)
    cells = pd.DataFrame(rows)
    # Spec order for datasets, models and shortcuts; strongest λ first; seeds ascending.
    rank = {
        "dataset": {d["name"]: i for i, d in enumerate(spec["datasets"])},
        "model": {m["id"]: i for i, m in enumerate(spec["models"])},
        "mitigation": {m["id"]: i for i, m in enumerate(spec_mitigations(spec))},
        "shortcut": {label: i for i, label in enumerate(_shortcut_labels(spec))},
    }
    keys = cells.assign(
        **{f"_{c}": cells[c].map(rank[c]) for c in rank}, _strength=-cells["strength"]
    )
    order = keys.sort_values(
        ["_dataset", "_model", "_mitigation", "_shortcut", "_strength", "seed"], kind="stable"
    ).index
    return cells.loc[order].reset_index(drop=True)


def _shortcut_labels(spec: dict[str, Any]) -> list[str]:
    from shortcutlab.families.maze.spec import ShortcutSpec

    return [ShortcutSpec.from_resolved(s).label for s in spec["shortcuts"]]


def _groups(
    cells: pd.DataFrame,
    scores: dict[str, dict[str, Any]],
    store: ResultStore,
    n_resamples: int,
    fresh: list[StoredGroup],
) -> pd.DataFrame:
    """Every group's statistics: the stored row where it still holds for the group's cells and
    ``n_resamples`` (a finished run's report resamples nothing), computed afresh otherwise (and
    added to ``fresh``)."""
    stored = store.group_statistics(FAMILY)
    settings = statistics_settings(n_resamples)
    rows = []
    for keys, part in cells.groupby(GROUP, sort=False):
        statistics = still_stored(stored, keys, part["cell_id"], settings)
        if statistics is None:
            statistics = group_row_statistics(part, scores, store, n_resamples)
            fresh.append(StoredGroup(group_key(keys), tuple(part["cell_id"]), settings, statistics))
        rows.append(
            dict(zip(GROUP, keys, strict=True)) | statistics | group_provenance_of(part, cells)
        )
    return apply_holm(pd.DataFrame(rows))  # the family: every group of the grid


def _comparisons(
    cells: pd.DataFrame,
    store: ResultStore,
    settings: dict[str, Any],
    compare: Callable[[pd.DataFrame], list[dict[str, Any]]],
    fresh: list[StoredGroup],
) -> pd.DataFrame:
    """Each mitigation against erm, Holm over the grid: a setting's stored rows where they still
    hold for ``settings``, ``compare(setting's cells)`` otherwise (added to ``fresh``; a grid
    without mitigations compares nothing)."""
    rows: list[dict[str, Any]] = []
    if cells["mitigation"].nunique() > 1:
        stored = store.group_statistics(VS_ERM)
        for keys, part in cells.groupby(list(SETTING), sort=False):
            found = still_stored(stored, keys, part["cell_id"], settings)
            if found is None:
                found = {"rows": compare(part)}
                fresh.append(StoredGroup(group_key(keys), tuple(part["cell_id"]), settings, found))
            rows += found["rows"]
    return apply_comparison_holm(pd.DataFrame(rows))


def comparison_settings(n_resamples: int, n_classes: int) -> dict[str, Any]:
    """What a setting's comparisons depend on besides its cells (the grid's label count too)."""
    return statistics_settings(n_resamples) | {"n_classes": int(n_classes)}


def setting_comparisons(
    part: pd.DataFrame,
    scores: dict[str, dict[str, Any]],
    store: ResultStore,
    spec: dict[str, Any],
    n_resamples: int,
    n_classes: int,
) -> list[dict[str, Any]]:
    """The comparisons of one setting's cells (each mitigation against erm), as plain rows; the
    Holm columns are set again over the whole grid."""
    compared = compare_with_erm(
        part,
        scores,
        baseline_id(spec),
        lambda cell_id, benchmark_id: _paired_predictions(store, cell_id, benchmark_id),
        whole_test_reader(store),
        n_classes=n_classes,
        n_resamples=n_resamples,
    )
    return compared.to_dict(orient="records")


def group_row_statistics(
    part: pd.DataFrame, scores: dict[str, dict[str, Any]], store: ResultStore, n_resamples: int
) -> dict[str, Any]:
    """One group's statistics over its seeds (before Holm), from the stored predictions."""
    outcomes = [
        SeedOutcome(seed=int(c.seed), fit=c.fit_id, build=c.benchmark_id, scores=scores[c.cell_id])
        for c in part.itertuples()
    ]
    first_cells = part.drop_duplicates("fit_id")
    predictions = {
        c.fit_id: _paired_predictions(store, c.cell_id, c.benchmark_id)
        for c in first_cells.itertuples()
    }
    n_classes = store.probabilities(first_cells["cell_id"].iloc[0], "test").shape[1]
    return group_statistics(outcomes, predictions, n_classes=n_classes, n_resamples=n_resamples)


def _paired_predictions(store: ResultStore, cell_id: str, benchmark_id: str) -> PairedPredictions:
    test_ids, truth = store.rows(benchmark_id, "test")
    anti_ids, _ = store.rows(benchmark_id, "anti_test")
    test_index, anti_index = paired_indices(test_ids, anti_ids)
    return PairedPredictions(
        row_ids=test_ids[test_index],
        truth=truth[test_index],
        test=predicted_labels(store.probabilities(cell_id, "test"))[test_index],
        anti_test=predicted_labels(store.probabilities(cell_id, "anti_test"))[anti_index],
    )
