"""Evaluate one model on a robustness build: fit it once (on the build's train split or on
``train``), predict the original test rows and every class's perturbed rows, and measure each
class on its changed rows paired by ``row_id`` (:mod:`.statistics`), Holm-adjusted over the
classes. The rows whose prediction flipped are kept for the explorer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.column_names import LABEL, ROW_ID, TEXT
from shortcutlab.data.options import ReadingOptions
from shortcutlab.data.writing import atomic_output_dir, write_json
from shortcutlab.engine.cell import fit_predict_frames, predicted_labels
from shortcutlab.errors import ConfigError, DataError, knob
from shortcutlab.families.robustness import FAMILY
from shortcutlab.families.robustness.build import ORIGINAL, TRAIN
from shortcutlab.families.robustness.statistics import paired_statistics, with_holm
from shortcutlab.families.robustness.tables import long_table_of, write_tables
from shortcutlab.models.adapters import model_label, refuse_fitted_function, resolve_model
from shortcutlab.params import quoted
from shortcutlab.provenance import tool_record

RESULTS_FILE = "results.json"
#: The columns of the flipped rows, in order.
FLIPPED_COLUMNS = (
    "perturbation",
    "kind",
    ROW_ID,
    "original_text",
    "perturbed_text",
    "label",
    "expected",
    "predicted_original",
    "predicted_perturbed",
)


@dataclass(repr=False)  # a short __repr__ below
class RobustnessEvaluation:
    """What evaluating a model on a robustness build measured: ``classes`` (one row per class:
    accuracy original and perturbed, the drop with its interval, McNemar p and its Holm
    adjustment, flip rate and, for DIR, ``toward_expected``, the share of rows whose expected
    label's probability went up, with its interval, sign-test p and its Holm adjustment, and
    ``moved_to_expected``, the share whose label switched to it) and ``flipped`` (the changed
    rows whose prediction changed)."""

    classes: pd.DataFrame
    flipped: pd.DataFrame
    info: dict[str, Any]

    def to_pandas(self) -> pd.DataFrame:
        """The long, tidy table: one row per class × metric (``split`` names the class; columns
        in the glossary, "The tidy table")."""
        return long_table_of(self.classes, dataset=self.info["dataset"], model=self.info["model"])

    def __repr__(self) -> str:
        drops = ", ".join(
            f"{row.perturbation}={row.drop:+.3f}"
            for row in self.classes.itertuples()
            if pd.notna(row.drop)
        )
        return f"RobustnessEvaluation(model={self.info['model']!r}, drop=({drops}))"

    def save(self, out: str | Path, *, overwrite: bool = False) -> Path:
        """Write results.json, classes.csv, flipped.csv and tables.md into ``out`` atomically."""
        out = Path(out)
        with atomic_output_dir(out, overwrite=overwrite) as tmp:
            record = {
                **self.info,
                "classes": json.loads(self.classes.to_json(orient="records")),
            }
            write_json(tmp / RESULTS_FILE, record)
            write_tables(self.classes, self.flipped, tmp)
        return out


def evaluate_robustness(
    folder: str | Path | Benchmark,
    *,
    model: Any = "tfidf-logreg",
    params: Mapping[str, Any] | None = None,
    train: str | Path | Any | None = None,
    seed: int = 0,
    bootstrap: int = 1000,
) -> RobustnessEvaluation:
    """Fit ``model`` (anything :func:`~shortcutlab.models.adapters.resolve_model` takes) on the
    build's train split, or on ``train`` (read with the build's columns), and measure every
    perturbation class of the robustness build ``folder``.

    Examples:
        >>> result = evaluate_robustness("robust-bench", model="tfidf-logreg")  # doctest: +SKIP
    """
    label = model_label(model, params)
    model, params = resolve_model(model, params)
    refuse_fitted_function(model)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 100:
        raise ConfigError(
            f"The 'bootstrap' parameter must be an integer >= 100. Got {quoted(bootstrap)} instead."
        )
    bench = folder if isinstance(folder, Benchmark) else Benchmark.load(folder)
    if bench.manifest.get("kind") != FAMILY.manifest_kind:
        raise DataError(
            f"'{folder}' holds a {bench.manifest.get('kind')!r} build, not a robustness build; "
            "evaluate it with 'shortcutlab evaluate', which picks the family by its kind."
        )
    fitting = _training_benchmark(bench, train)
    classes = list(bench.manifest.get("perturbations", {}))
    tests = {ORIGINAL: bench[ORIGINAL], **{name: bench[name] for name in classes}}
    fitted = fit_predict_frames(fitting, TRAIN, tests, model, params, seed)
    rows, flipped = [], []
    for name in classes:
        figures, flips = measure_class(
            bench, name, fitted.probabilities, bootstrap=bootstrap, seed=seed
        )
        rows.append(figures)
        flipped.append(flips)
    info = {
        "tool": tool_record(),
        "dataset": _dataset_name(bench),
        "model": label,
        "seed": seed,
        "bootstrap": bootstrap,
        "benchmark": {"path": None if bench.path is None else str(bench.path)},
        "labels": bench.labels.to_json(),
    }
    frame = pd.DataFrame(with_holm(rows))
    for count in ("direction_rows", "expected_rows"):  # DIR only: whole numbers, empty for INV
        if count in frame:
            frame[count] = frame[count].astype("Int64")
    flips_frame = pd.concat(flipped, ignore_index=True) if flipped else pd.DataFrame()
    return RobustnessEvaluation(frame, flips_frame.reindex(columns=FLIPPED_COLUMNS), info)


def measure_class(
    bench: Benchmark,
    name: str,
    probabilities: Mapping[str, np.ndarray],
    *,
    bootstrap: int,
    seed: int,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """One class's figures and its flipped rows, from the probabilities the model gave the
    original rows and the class's rows."""
    record = bench.manifest["perturbations"][name]
    original, perturbed = bench[ORIGINAL], bench[name]
    position = pd.Series(np.arange(len(original)), index=original[ROW_ID].to_numpy())
    source = position.reindex(perturbed[ROW_ID].to_numpy()).to_numpy()
    if np.isnan(source.astype(float)).any():
        raise DataError(
            f"The {name} rows name a row_id the original test rows lack; rebuild the benchmark."
        )
    source = source.astype(np.int64)
    labels = bench.labels
    truth_original = labels.ranks(original[LABEL])[source]
    truth_perturbed = labels.ranks(perturbed[LABEL])
    proba_original, proba_perturbed = probabilities[ORIGINAL][source], probabilities[name]
    pred_original, pred_perturbed = (
        predicted_labels(proba_original),
        predicted_labels(proba_perturbed),
    )
    direction = record["kind"] == "DIR"
    figures = paired_statistics(
        truth_original=truth_original,
        truth_perturbed=truth_perturbed,
        proba_original=proba_original,
        proba_perturbed=proba_perturbed,
        direction=direction,
        n_resamples=bootstrap,
        seed=seed,
    )
    figures = {"perturbation": name, "kind": record["kind"], **figures}
    changed = pred_original != pred_perturbed
    values = np.asarray(labels.values, dtype=object)
    flips = pd.DataFrame(
        {
            "perturbation": name,
            "kind": record["kind"],
            ROW_ID: perturbed[ROW_ID].to_numpy()[changed],
            "original_text": original[TEXT].to_numpy()[source][changed],
            "perturbed_text": perturbed[TEXT].to_numpy()[changed],
            "label": original[LABEL].to_numpy()[source][changed],
            "expected": perturbed[LABEL].to_numpy()[changed] if direction else None,
            "predicted_original": _names(values, pred_original[changed]),
            "predicted_perturbed": _names(values, pred_perturbed[changed]),
        }
    )
    return figures, flips


def _names(values: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Label values of ranks ("" for no valid answer)."""
    return np.where(ranks >= 0, values[np.maximum(ranks, 0)], "")


def _training_benchmark(bench: Benchmark, train: Any) -> Benchmark:
    """The rows the model is fitted on, as a benchmark with the build's labels: ``train`` (read
    with the columns the build was read with), else the build's own train split."""
    if train is not None:
        reading = ReadingOptions.from_record(bench.manifest.get("arguments", {}))
        frame = reading.read(train, role="train").frame
    elif TRAIN in bench:
        frame = bench[TRAIN]
    else:
        raise ConfigError(
            f"The robustness build has no train split to fit the model on: pass {knob('train')} "
            "(the rows the model is fitted on), or rebuild it with a train table."
        )
    return Benchmark({TRAIN: frame}, bench.labels, {})


def _dataset_name(bench: Benchmark) -> str | None:
    """The test table's file name, as the tidy table's ``dataset`` names it."""
    path = (bench.manifest.get("inputs", {}).get("test") or {}).get("path")
    return Path(path).stem if path else None
