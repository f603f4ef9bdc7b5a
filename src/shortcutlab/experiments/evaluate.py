"""Train a model on a benchmark's training split and measure the shortcut drop over seeds.

For each seed: fit on ``train`` (``validation`` is passed to models that use it), predict
``test``, ``anti_test`` and ``original_test``; accuracy, macro-F1 and per-label accuracy for each;
delta = test - anti-test; an exact McNemar test on the paired rows. Across seeds: mean, variance
(the paper's VAR(delta), Table 9) and a paired bootstrap 95 % interval of the mean delta.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.writing import atomic_output_dir, write_json
from shortcutlab.errors import ConfigError
from shortcutlab.experiments.cell import (
    METRICS,
    fit_predict,
    predicted_labels,
    score,
    truths_and_pairing,
)
from shortcutlab.metrics import bootstrap_delta
from shortcutlab.models import make_model
from shortcutlab.provenance import tool_record
from shortcutlab.splits.benchmark import Benchmark

ALPHA = 0.05
RESULT_FILES = ("results.json", "results.csv")


@dataclass
class EvaluationResult:
    """Per-seed and summary metrics of one model on one benchmark."""

    benchmark: dict[str, Any]
    model: dict[str, Any]
    labels: list[Any]
    seeds: list[int]
    runs: list[dict[str, Any]]
    summary: dict[str, Any]
    predictions: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": tool_record(),
            "benchmark": self.benchmark,
            "model": self.model,
            "labels": self.labels,
            "seeds": self.seeds,
            "summary": self.summary,
            "runs": self.runs,
        }

    def to_frame(self) -> pd.DataFrame:
        """Long format: one row per (seed or mean/var, split, metric) value."""
        rows: list[dict[str, Any]] = []
        for run in self.runs:
            for split, metrics in run["splits"].items():
                rows += _metric_rows(run["seed"], split, metrics, self.labels)
            rows += [
                {"seed": run["seed"], "split": "delta", "metric": m, "value": run["delta"][m]}
                for m in METRICS
            ]
            if run.get("mcnemar"):
                rows.append(
                    {
                        "seed": run["seed"],
                        "split": "delta",
                        "metric": "mcnemar_p",
                        "value": run["mcnemar"]["p_value"],
                    }
                )
        for split, metrics in self.summary["splits"].items():
            for metric in METRICS:
                for stat in ("mean", "var"):
                    rows.append(
                        {
                            "seed": stat,
                            "split": split,
                            "metric": metric,
                            "value": metrics[metric][stat],
                        }
                    )
        for metric in METRICS:
            delta = self.summary["delta"][metric]
            rows += [
                {"seed": stat, "split": "delta", "metric": metric, "value": delta[stat]}
                for stat in ("mean", "var")
            ]
            rows += [
                {"seed": "ci95_low", "split": "delta", "metric": metric, "value": delta["ci95"][0]},
                {
                    "seed": "ci95_high",
                    "split": "delta",
                    "metric": metric,
                    "value": delta["ci95"][1],
                },
            ]
        frame = pd.DataFrame(rows, columns=["seed", "split", "metric", "value"])
        frame.insert(0, "model", self.model["name"])
        frame.insert(1, "shortcut", self.benchmark.get("shortcut"))
        frame.insert(2, "strength", self.benchmark.get("strength"))
        return frame

    def save(self, out: str | Path, *, overwrite: bool = False) -> Path:
        """Write ``results.json`` and ``results.csv`` into ``out`` (atomically)."""
        out = Path(out)
        replace_own = out.is_dir() and {p.name for p in out.iterdir()} <= set(RESULT_FILES)
        with atomic_output_dir(out, overwrite=overwrite or replace_own) as tmp:
            write_json(tmp / "results.json", self.to_json())
            self.to_frame().to_csv(tmp / "results.csv", index=False, lineterminator="\n")
        return out


def _metric_rows(
    seed: Any, split: str, metrics: Mapping[str, Any], labels: Sequence[Any]
) -> list[dict[str, Any]]:
    rows = [{"seed": seed, "split": split, "metric": m, "value": metrics[m]} for m in METRICS]
    for label in labels:
        rows.append(
            {
                "seed": seed,
                "split": split,
                "metric": f"accuracy_label:{label}",
                "value": metrics["per_label_accuracy"][str(label)],
            }
        )
    return rows


def resolve_seeds(seeds: int | Sequence[int]) -> list[int]:
    """``5`` -> [0, 1, 2, 3, 4]; an explicit list is kept as given."""
    if isinstance(seeds, bool):
        raise ConfigError(
            f"The 'seeds' parameter must be a positive count or a list of seeds. Got {seeds!r} instead."
        )
    if isinstance(seeds, int | np.integer):
        if seeds < 1:
            raise ConfigError(f"The 'seeds' parameter must be at least 1. Got {seeds!r} instead.")
        return list(range(int(seeds)))
    resolved = [int(s) for s in seeds]
    if not resolved or len(set(resolved)) != len(resolved) or min(resolved) < 0:
        raise ConfigError(
            f"The 'seeds' parameter must list distinct non-negative seeds. Got {list(seeds)!r} instead."
        )
    return resolved


def evaluate_benchmark(
    benchmark: Benchmark | str | Path,
    *,
    model: str = "tfidf-logreg",
    model_params: Mapping[str, Any] | None = None,
    seeds: int | Sequence[int] = 5,
    bootstrap: int = 1000,
    on_fit: Callable[[int], None] | None = None,
) -> EvaluationResult:
    """Evaluate ``model`` on a benchmark (object or folder) over ``seeds``.

    ``on_fit(seed)`` is called after each seed, for progress displays.
    """
    if not isinstance(benchmark, Benchmark):
        benchmark = Benchmark.load(benchmark)
    seed_list = resolve_seeds(seeds)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 100:
        raise ConfigError(
            f"The 'bootstrap' parameter must be an integer >= 100. Got {bootstrap!r} instead."
        )
    labels = benchmark.labels
    truths, pairing = truths_and_pairing(benchmark)
    probe = make_model(model, model_params, seed=seed_list[0])
    try:
        probe.check(len(labels))
    finally:
        probe.close()
    refit = type(probe).uses_seed
    predictions = {s: np.zeros((len(seed_list), len(benchmark[s])), dtype=np.int64) for s in truths}
    runs = []
    for i, seed in enumerate(seed_list):
        if refit or i == 0:
            fitted = fit_predict(benchmark, model, model_params, seed)
            for split, proba in fitted.probabilities.items():
                predictions[split][i] = predicted_labels(proba)
        else:  # the seed cannot change this model: its predictions are the first seed's
            for split in predictions:
                predictions[split][i] = predictions[split][0]
        seed_predictions = {s: p[i] for s, p in predictions.items()}
        run = {
            "seed": seed,
            **score(truths, seed_predictions, labels.values, pairing, fitted.details),
        }
        if fitted.usage:
            run["usage"] = fitted.usage
        runs.append(run)
        if on_fit is not None:
            on_fit(seed)

    test_index, anti_index = pairing
    distinct = slice(None) if refit else slice(0, 1)  # identical seeds add nothing to the bootstrap
    interval = bootstrap_delta(
        y_true=truths["test"][test_index],
        pred_a=predictions["test"][distinct, test_index],
        pred_b=predictions["anti_test"][distinct, anti_index],
        n_classes=len(labels),
        n_resamples=bootstrap,
        seed=seed_list[0],
    )
    summary = _summarise(runs, list(truths), labels.values, interval, paired_rows=len(test_index))
    return EvaluationResult(
        benchmark={
            "path": str(benchmark.path) if benchmark.path else None,
            "kind": benchmark.manifest.get("kind"),
            "shortcut": benchmark.shortcut or None,
            "strength": benchmark.strength,
            "strength_mode": benchmark.manifest.get("arguments", {}).get("strength_mode"),
            "seed": benchmark.manifest.get("seed"),
            "splits": {s: len(benchmark[s]) for s in benchmark.splits},
        },
        model={
            "name": model,
            "params": {k: v for k, v in probe.get_params().items() if k != "seed"},
            "fits": len(seed_list) if refit else 1,
        },
        labels=labels.to_json(),
        seeds=seed_list,
        runs=runs,
        summary=summary,
        predictions=predictions,
    )


def _mean_var(values: Sequence[float]) -> dict[str, float]:
    array = np.asarray(values, dtype=np.float64)
    # VAR(delta) across seeds: sample variance (ddof=1); a single seed has variance 0.
    return {"mean": float(array.mean()), "var": float(array.var(ddof=1)) if len(array) > 1 else 0.0}


def _summarise(
    runs: list[dict[str, Any]],
    splits: Sequence[str],
    label_values: Sequence[Any],
    interval: dict[str, list[float]],
    *,
    paired_rows: int,
) -> dict[str, Any]:
    summary_splits = {}
    for split in splits:
        entry: dict[str, Any] = {
            m: _mean_var([r["splits"][split][m] for r in runs]) for m in METRICS
        }
        entry["per_label_accuracy"] = {
            str(v): _mean_or_none([r["splits"][split]["per_label_accuracy"][str(v)] for r in runs])
            for v in label_values
        }
        per_seed = [r["splits"][split] for r in runs]
        entry["invalid"] = float(np.mean([s["invalid"] for s in per_seed]))
        entry["label_distribution"] = {
            key: float(np.mean([s["label_distribution"][key] for s in per_seed]))
            for key in per_seed[0]["label_distribution"]
        }
        if all("confidence" in s for s in per_seed):
            entry["confidence"] = {
                key: float(np.mean([s["confidence"][key] for s in per_seed]))
                for key in ("mean", "accuracy", "ece")
            }
        summary_splits[split] = entry
    delta = {m: _mean_var([r["delta"][m] for r in runs]) | {"ci95": interval[m]} for m in METRICS}
    p_values = [r["mcnemar"]["p_value"] for r in runs]
    return {
        "splits": summary_splits,
        "delta": delta,
        "mcnemar": {
            "p_value_max": max(p_values),
            "p_value_min": min(p_values),
            "paired_rows": paired_rows,
            "alpha": ALPHA,
        },
        # Significant only if the drop is significant under every seed (the conservative reading).
        "significant": bool(max(p_values) < ALPHA and delta["accuracy"]["mean"] > 0),
    }


def _mean_or_none(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None
