"""Results of an MPS run: per-cell scores, per-group statistics, cross-testing, label distributions.

A group is (dataset, attribute, model, mitigation) over seeds (:mod:`shortcutlab.families.mps.summary`);
the traditional worst-group accuracy is recomputed here from each cell's per-group accuracies
with the spec's ``min_group_size``; the cross-testing table averages each (trained on, tested
on) pair's W-ACC and ACC over the distinct fits; the label distributions come from the build
manifests in the run folder.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import MANIFEST
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.engine.mitigation_spec import fit_id, spec_mitigations
from shortcutlab.engine.run_folder import BENCHMARKS
from shortcutlab.engine.store import ResultStore
from shortcutlab.engine.stored_groups import (
    StoredGroup,
    group_key,
    statistics_settings,
    still_stored,
)
from shortcutlab.engine.summary import (
    SeedOutcome,
    distinct_outcomes,
    group_provenance,
    group_provenance_of,
    mean_std,
    same_predictions,
)
from shortcutlab.errors import ShortcutlabWarning, listed
from shortcutlab.families.mps import tables as mps_tables
from shortcutlab.families.mps.cell import FITS, OWN_TEST, prediction_name
from shortcutlab.families.mps.measurable import blank_unmeasured, manifest_reasons, sentences
from shortcutlab.families.mps.spec import AttributeSpec
from shortcutlab.families.mps.summary import (
    CROSS_METRICS,
    MPS_IDENTITY,
    FitPair,
    apply_mps_holm,
    mps_group_statistics,
    mps_long_table,
    worst_group_accuracy,
)
from shortcutlab.reports.html.document import Block
from shortcutlab.reports.html.notebook import RunResultsView

SPLIT_TITLES = {"imbalanced": "Imbalanced", "balanced": "Balanced", "test": "Test"}
FAMILY = "mps"  # the family of the store's group_statistics rows


@dataclass(repr=False)  # the short repr of RunResultsView
class MpsRunResults(RunResultsView):
    """Everything ``shortcutlab results`` shows for an MPS run, as DataFrames."""

    run_dir: Path
    spec: dict[str, Any]
    cells: pd.DataFrame  # one row per cell: its own test set's scores
    groups: pd.DataFrame  # one row per (dataset, attribute, model): statistics over seeds
    cross: pd.DataFrame  # one row per (dataset, model, trained on, tested on)
    label_counts: pd.DataFrame  # one row per (dataset, attribute, split, value, label)
    entropy: pd.DataFrame  # one row per (dataset, attribute): mean normalised label entropy

    family = "mps"

    def report_tables(self) -> list[Block]:
        from shortcutlab.families.mps.report import table_blocks

        return table_blocks(self)

    def long_table(self, *, per_seed: bool) -> pd.DataFrame:
        return mps_long_table(self.cells if per_seed else self.groups, per_seed=per_seed)

    def gap_table(self) -> pd.DataFrame:
        """Tables 2/3 of the paper: δ, Δ (and ζ) per dataset, a block per model."""
        return mps_tables.gap_table(self.groups)

    def fit_table(self, metric: str) -> pd.DataFrame:
        """W-ACC (``w_acc``), ACC (``accuracy``) or the traditional worst-group accuracy (``wga``)
        of the Imbalanced and Balanced fits per dataset, a block per model."""
        return mps_tables.fit_table(self.groups, metric)

    def cross_test_table(self) -> pd.DataFrame:
        """A.7 Table 9: W-ACC and ACC (Balanced / Imbalanced fit) of each trained-on attribute on
        each attribute's test set."""
        return mps_tables.cross_test_table(self.cross)

    def entropy_table(self) -> pd.DataFrame:
        """Table 11: mean normalised label entropy per attribute value of each split."""
        return mps_tables.entropy_table(self.entropy)


def load_mps_results(
    run_dir: Path, store: ResultStore, spec: dict[str, Any], *, bootstrap: int | None = None
) -> MpsRunResults:
    """Statistics of an MPS run folder's current cells (called by ``load_results``)."""
    frame = store.spec_cells()
    min_size = int(spec.get("min_group_size", 10))
    cells = _order(_flatten(frame, min_size), spec)
    reasons = {build: _reasons(run_dir, build) for build in cells["benchmark_id"].unique()}
    cross = _order(_cross(frame), spec)
    n_resamples = bootstrap or int(spec.get("bootstrap", 1000))
    stored, settings = store.group_statistics(FAMILY), statistics_settings(n_resamples)
    rows, measurements = [], {}
    for keys, part in cells.groupby(list(MPS_IDENTITY), sort=False):
        seeds, pairs = _seeds_and_pairs(store, part)
        measurements |= _measurements(seeds, pairs)  # the cross table's, from the predictions
        statistics = still_stored(stored, keys, part["cell_id"], settings) or _statistics(
            store, part, seeds, pairs, n_resamples
        )
        rows.append(
            dict(zip(MPS_IDENTITY, keys, strict=True))
            | blank_unmeasured(statistics, _union(reasons[b] for b in part["benchmark_id"]))
            | group_provenance_of(part, cells)
        )
    counts, entropy = _manifests(run_dir, cells)
    return MpsRunResults(
        run_dir=run_dir,
        spec=spec,
        cells=_blank_cells(cells, reasons),  # the statistics above blank their own gaps
        groups=apply_mps_holm(pd.DataFrame(rows)),
        cross=_cross_groups(cross.assign(measurement=cross["fit_id"].map(measurements))),
        label_counts=counts,
        entropy=entropy,
    )


def store_mps_group_statistics(store: ResultStore, cell_ids: Collection[str]) -> None:
    """Compute and store the statistics of the groups the finished ``cell_ids`` make up, with
    the run's own resamples, except those whose stored row still holds (the run calls this when
    a group's last cell is written)."""
    spec = store.spec()
    cells = _order(
        _flatten(store.cells(cell_ids=cell_ids), int(spec.get("min_group_size", 10))), spec
    )
    n_resamples = int(spec.get("bootstrap", 1000))
    stored, settings = store.group_statistics(FAMILY), statistics_settings(n_resamples)
    fresh = []
    for keys, part in cells.groupby(list(MPS_IDENTITY), sort=False):
        if still_stored(stored, keys, part["cell_id"], settings) is None:
            statistics = _statistics(store, part, *_seeds_and_pairs(store, part), n_resamples)
            fresh.append(StoredGroup(group_key(keys), tuple(part["cell_id"]), settings, statistics))
    store.save_group_statistics(FAMILY, fresh)


def _seeds_and_pairs(
    store: ResultStore, part: pd.DataFrame
) -> tuple[list[SeedOutcome], dict[str, FitPair]]:
    """A group's seeds and the predictions of each of its fits."""
    seeds = [
        SeedOutcome(seed=int(c.seed), fit=c.fit_id, build=c.benchmark_id, scores=c._asdict())
        for c in part.itertuples()
    ]
    firsts = part.drop_duplicates("fit_id")
    return seeds, {c.fit_id: _fit_pair(store, c) for c in firsts.itertuples()}


def _statistics(
    store: ResultStore,
    part: pd.DataFrame,
    seeds: list[SeedOutcome],
    pairs: dict[str, FitPair],
    n_resamples: int,
) -> dict[str, Any]:
    """A group's statistics over its seeds (before blanking and Holm), bootstrapped."""
    first = part.drop_duplicates("fit_id").iloc[0]
    n_classes = store.probabilities(first["cell_id"], _first_name(first)).shape[1]
    return mps_group_statistics(seeds, pairs, n_classes=n_classes, n_resamples=n_resamples)


def _identity(record: Any) -> dict[str, Any]:
    return {
        "cell_id": record.cell_id,
        "benchmark_id": record.benchmark_id,
        "dataset": record.dataset,
        "attribute": record.shortcut,
        "model": record.model,
        "mitigation": record.mitigation,
        "dominance": record.strength,
        "seed": record.seed,
        # Seeds that share a fit (a seed-independent fit on one build) are one measurement.
        "fit_id": fit_id(record),
    }


def _flatten(frame: pd.DataFrame, min_size: int) -> pd.DataFrame:
    rows = []
    for record in frame.itertuples():
        scores = record.metrics["tests"][OWN_TEST]
        epochs = record.metrics.get("epochs")
        row = _identity(record) | {"epochs": len(epochs["imbalanced"]) if epochs else None}
        row |= group_provenance(record.metrics)
        smallest = []
        for fit in FITS:
            row[f"accuracy_{fit}"] = scores[f"accuracy_{fit}"]
            row[f"w_acc_{fit}"] = scores[f"w_acc_{fit}"]
            row[f"worst_label_{fit}"] = scores[f"worst_label_{fit}"]
            wga, used, low = worst_group_accuracy(scores[f"groups_{fit}"], min_size)
            row[f"wga_{fit}"], row["wga_groups_used"], row["wga_groups"] = (
                wga,
                used,
                len(scores[f"groups_{fit}"]),
            )
            smallest.append(low)
        row["smallest_group_rows"] = min(smallest)
        row |= {gap: scores[gap] for gap in ("delta_isolated", "delta_overall", "zeta")}
        row["epoch_list"] = json.dumps(epochs) if epochs else None
        rows.append(row)
    return pd.DataFrame(rows)


def _reasons(run_dir: Path, build: str) -> list[dict[str, Any]]:
    """Why the figures of a build are not measurable (a build whose manifest is missing gives
    none, and ``_manifests`` warns about it)."""
    path = run_dir / BENCHMARKS / build / MANIFEST
    if not path.exists():
        return []
    return manifest_reasons(json.loads(path.read_text(encoding="utf-8")))


def _union(lists: Any) -> list[dict[str, Any]]:
    """Every reason of the lists, once, in order."""
    found: list[dict[str, Any]] = []
    for reasons in lists:
        found += [r for r in reasons if r not in found]
    return found


def _blank_cells(cells: pd.DataFrame, reasons: dict[str, list[dict[str, Any]]]) -> pd.DataFrame:
    """Each cell's gaps its build cannot measure left empty (cells.csv), with the reasons."""
    cells = cells.copy()
    cells["not_measurable"] = [
        "; ".join(sentences(reasons[build])) for build in cells["benchmark_id"]
    ]
    for build, found in reasons.items():
        gaps = sorted({gap for reason in found for gap in reason["figures"]})
        cells.loc[cells["benchmark_id"] == build, gaps] = np.nan
    return cells


def _measurements(seeds: list[SeedOutcome], pairs: dict[str, FitPair]) -> dict[str, str]:
    """Fit id -> the fit id of the first fit of its group that predicted the same labels on the
    same build (itself where none did): the measurement it repeats."""
    distinct, _ = distinct_outcomes(seeds, pairs)
    builds = {s.fit: s.build for s in seeds}
    return {
        fit: next(
            d.fit
            for d in distinct
            if d.build == builds[fit] and same_predictions(pairs[d.fit], pairs[fit])
        )
        for fit in pairs
    }


def _cross(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for record in frame.itertuples():
        for test, scores in record.metrics["tests"].items():
            tested_on = record.shortcut if test == OWN_TEST else test.split("@", 1)[1]
            rows.append(
                _identity(record)
                | {"tested_on": tested_on}
                | {f"{m}_{fit}": scores[f"{m}_{fit}"] for m in CROSS_METRICS for fit in FITS}
            )
    return pd.DataFrame(rows)


def _cross_groups(cross: pd.DataFrame) -> pd.DataFrame:
    rows = []
    keys = ["dataset", "model", "mitigation", "attribute", "tested_on"]
    scores = [f"{m}_{fit}" for m in CROSS_METRICS for fit in FITS]
    for values, part in cross.groupby(keys, sort=False):
        # Fits that predicted the same labels on their own test set are one measurement unless
        # their scores on this test set differ.
        distinct = part.drop_duplicates(["measurement", *scores])
        row = dict(zip(keys, values, strict=True)) | {"distinct_fits": len(distinct)}
        for metric in CROSS_METRICS:
            for fit in FITS:
                name = f"{metric}_{fit}"
                row[f"{name}_mean"], row[f"{name}_std"] = mean_std(distinct[name].tolist())
        rows.append(row)
    return pd.DataFrame(rows)


def _order(frame: pd.DataFrame, spec: dict[str, Any]) -> pd.DataFrame:
    """Spec order for datasets, attributes (and tested-on attributes) and models; seeds ascending."""
    attributes = {AttributeSpec.from_resolved(a).label: i for i, a in enumerate(spec["attributes"])}
    rank = {
        "_dataset": frame["dataset"].map({d["name"]: i for i, d in enumerate(spec["datasets"])}),
        "_attribute": frame["attribute"].map(attributes),
        "_model": frame["model"].map({m["id"]: i for i, m in enumerate(spec["models"])}),
        "_mitigation": frame["mitigation"].map(
            {m["id"]: i for i, m in enumerate(spec_mitigations(spec))}
        ),
    }
    if "tested_on" in frame:
        rank["_tested_on"] = frame["tested_on"].map(attributes)
    keyed = frame.assign(**rank)
    order = keyed.sort_values([*rank, "seed"], kind="stable").index
    return frame.loc[order].reset_index(drop=True)


def _first_name(cell: pd.Series) -> str:
    epochs = json.loads(cell["epoch_list"]) if cell["epoch_list"] else None
    return prediction_name("imbalanced", OWN_TEST, epochs["imbalanced"][0] if epochs else None)


def _fit_pair(store: ResultStore, cell: Any) -> FitPair:
    row_ids, truth = store.rows(cell.benchmark_id, OWN_TEST)
    epochs = json.loads(cell.epoch_list) if cell.epoch_list else None
    predicted = {}
    for fit in FITS:
        names = [prediction_name(fit, OWN_TEST, e) for e in (epochs[fit] if epochs else [None])]
        stacked = np.stack([predicted_labels(store.probabilities(cell.cell_id, n)) for n in names])
        predicted[fit] = stacked if epochs else stacked[0]
    return FitPair(row_ids, truth, predicted["imbalanced"], predicted["balanced"])


def _manifests(run_dir: Path, cells: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Label counts and entropies of each (dataset, attribute)'s first build (lowest seed)."""
    counts, entropy, missing = [], [], []
    for (dataset, attribute), part in cells.groupby(["dataset", "attribute"], sort=False):
        build = part.sort_values("seed")["benchmark_id"].iloc[0]
        path = run_dir / BENCHMARKS / build / MANIFEST
        if not path.exists():
            missing.append(str(path))
            continue
        manifest = json.loads(path.read_text(encoding="utf-8"))
        key = {"dataset": dataset, "attribute": attribute, "build": build}
        for split, record in manifest["splits"].items():
            for value, by_label in (record.get("label_counts") or {}).items():
                total = sum(by_label.values())
                for label, rows in by_label.items():
                    counts.append(
                        key
                        | {"split": split, "value": value, "label": label, "rows": rows}
                        | {"share": rows / total if total else np.nan}
                    )
        entropy.append(
            key
            | {
                SPLIT_TITLES.get(split, split): record.get("mean")
                for split, record in (manifest.get("label_entropy") or {}).items()
            }
        )
    if missing:
        warnings.warn(
            f"Build manifests are missing ({listed(missing)}), so their label distributions "
            "are left out. Run 'shortcutlab run' again to rebuild them.",
            ShortcutlabWarning,
            stacklevel=2,
        )
    return pd.DataFrame(counts), pd.DataFrame(entropy)
