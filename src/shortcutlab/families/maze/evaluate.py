"""Train a model on a benchmark's training split and measure the shortcut drop over seeds.

For each seed: fit on ``train`` (``validation`` is passed to models that use it), predict
``test``, ``anti_test`` and ``original_test``; accuracy, macro-F1 and per-label accuracy for each;
delta = test - anti-test; an exact McNemar test on the paired rows. Across seeds, the statistics
of :mod:`shortcutlab.engine.summary` (the engine ``results`` uses for grid groups), with
Holm's correction over a family of one. ``vary`` says what each seed re-draws (see
:mod:`shortcutlab.engine.replicates`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.benchmark import MANIFEST, Benchmark
from shortcutlab.data.existing_splits import load_splits
from shortcutlab.data.loading import ROW_ID, TEXT_PAIR
from shortcutlab.data.options import ReadingOptions
from shortcutlab.data.reading import read_json_object
from shortcutlab.engine.cell import (
    Fitted,
    fit_predict,
    predicted_labels,
    predicted_probability,
    score,
    truths_and_pairing,
)
from shortcutlab.engine.replicates import Replicate, plan_replicates
from shortcutlab.engine.summary import (
    PairedPredictions,
    SeedOutcome,
    apply_holm,
    group_statistics,
    records,
)
from shortcutlab.errors import ConfigError, listed
from shortcutlab.families.maze import FAMILY
from shortcutlab.families.maze.evaluation_result import (  # noqa: F401 - re-exported
    PREDICTION_SPLITS,
    RESULT_FILES,
    EvaluationResult,
)
from shortcutlab.families.maze.redraw import (
    Builds,
    Rebuild,
    base_seed,
    check_manifest,
    check_redrawable,
)
from shortcutlab.models import make_model
from shortcutlab.models.adapters import model_label, renamed_keyword, resolve_model
from shortcutlab.models.base import check_pair_support
from shortcutlab.params import quoted


def resolve_seeds(seeds: int | Sequence[int]) -> list[int]:
    """``5`` -> [0, 1, 2, 3, 4]; an explicit list is kept as given."""
    if isinstance(seeds, bool):
        raise ConfigError(
            f"The 'seeds' parameter must be a positive count or a list of seeds. Got {quoted(seeds)} instead."
        )
    if isinstance(seeds, int | np.integer):
        if seeds < 1:
            raise ConfigError(
                f"The 'seeds' parameter must be at least 1. Got {quoted(seeds)} instead."
            )
        return list(range(int(seeds)))
    resolved = [int(s) for s in seeds]
    if not resolved or len(set(resolved)) != len(resolved) or min(resolved) < 0:
        raise ConfigError(
            f"The 'seeds' parameter must list distinct non-negative seeds. Got {quoted(list(seeds))} instead."
        )
    return resolved


def evaluate_benchmark(
    benchmark: Benchmark | str | Path,
    *,
    model: Any = "tfidf-logreg",
    params: Mapping[str, Any] | None = None,
    seeds: int | Sequence[int] = 5,
    bootstrap: int = 1000,
    vary: str = "model",
    rebuild: Rebuild | None = None,
    dataset: str | None = None,
    on_fit: Callable[[int], None] | None = None,
    model_params: None = None,
) -> EvaluationResult:
    """Evaluate ``model`` on a benchmark (object or folder) over ``seeds``.

    ``model`` is a registered name with its ``params``, the path of a saved scikit-learn
    estimator, an estimator object (cloned and fitted per seed), a class or object with ``fit``
    and ``predict_proba`` (:func:`~shortcutlab.models.adapters.resolve_model`).

    With ``vary="data"`` or ``"both"`` each seed re-draws the benchmark: ``rebuild(build_seed)``
    when given, else from the inputs the manifest records. ``dataset`` names the data in the tidy
    row (default: the folder of the training input). ``on_fit(seed)`` is called after each seed.
    """
    renamed_keyword("evaluate_benchmark", model_params)
    label = model_label(model, params)
    model, params = resolve_model(model, params)
    check_maze_kind(benchmark)
    if isinstance(benchmark, Benchmark):
        base = benchmark
    else:
        base = Benchmark.load(benchmark)
        check_manifest(base)  # what the result reports, checked before the fit
    seed_list = resolve_seeds(seeds)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 100:
        raise ConfigError(
            f"The 'bootstrap' parameter must be an integer >= 100. Got {quoted(bootstrap)} instead."
        )
    replicates = plan_replicates(seed_list, vary=vary, build_seed=base_seed(base))
    check_redrawable(base, vary)
    labels = base.labels
    probe = make_model(model, params, seed=seed_list[0])
    try:
        check_pair_support(probe, paired=TEXT_PAIR in base["train"].columns)
        probe.check(len(labels))
    finally:
        probe.close()
    builds = Builds(base, rebuild)
    benches = {r.build_seed: builds.get(r.build_seed) for r in replicates}  # fail before fitting
    fitted = _fit_replicates(
        base, benches, replicates, model, params, refit=probe.depends_on_seed(), on_fit=on_fit
    )
    row = {
        "dataset": dataset or dataset_name(base),
        "model": label,
        "shortcut": base.shortcut or None,
        "strength": base.strength,
        **group_statistics(
            fitted.outcomes, fitted.paired, n_classes=len(labels), n_resamples=bootstrap
        ),
    }
    return EvaluationResult(
        benchmark={
            "path": str(base.path) if base.path else None,
            "kind": base.manifest.get("kind"),
            "shortcut": base.shortcut or None,
            "strength": base.strength,
            "strength_mode": base.manifest.get("arguments", {}).get("strength_mode"),
            "seed": base_seed(base),
            "build_seeds": sorted({r.build_seed for r in replicates}),
            "splits": {s: len(base[s]) for s in base.splits},
        },
        model={
            "name": label,
            "params": {k: v for k, v in probe.get_params().items() if k != "seed"},
            "fits": len(fitted.fits),
        },
        labels=labels.to_json(),
        seeds=seed_list,
        vary=vary,
        runs=fitted.runs,
        statistics=records(apply_holm(pd.DataFrame([row])))[0],  # a family of one test
        summary=_describe(fitted.runs, labels.values),
        predictions=_stacked(fitted.fits, fitted.outcomes),
        row_predictions=pd.concat(fitted.per_row, ignore_index=True) if fitted.per_row else None,
    )


def evaluate_splits(
    train: str | Path | Any,
    test: str | Path | Any,
    anti_test: str | Path | Any,
    *,
    original_test: str | Path | Any | None = None,
    dev: str | Path | Any | None = None,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: ReadingOptions | None = None,
    model: Any = "tfidf-logreg",
    params: Mapping[str, Any] | None = None,
    seeds: int | Sequence[int] = 5,
    bootstrap: int = 1000,
    model_params: None = None,
) -> EvaluationResult:
    """Evaluate ``model`` on existing splits as they are (such as a Shortcut Maze release's
    ``train.csv``, ``test.csv`` and ``test_anti-shortcut.csv``; paths, DataFrames or
    ``datasets.Dataset`` objects, read as :func:`~shortcutlab.load_splits` reads them): the same
    statistics as :func:`evaluate_benchmark` on a build, with the shortcut and λ unknown (``None``).

    Examples:
        >>> result = evaluate_splits("train.csv", "test.csv", "test_anti-shortcut.csv")  # doctest: +SKIP
    """
    renamed_keyword("evaluate_splits", model_params)
    files = load_splits(
        train,
        test,
        anti_test,
        original_test=original_test,
        dev=dev,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
        inputs=inputs,
    )
    return evaluate_benchmark(files, model=model, params=params, seeds=seeds, bootstrap=bootstrap)


def check_maze_kind(benchmark: Benchmark | str | Path) -> None:
    """Refuse another family's build (its manifest's ``kind``) before reading it as a Maze one,
    naming what evaluates it (``shortcutlab evaluate`` picks it by the kind)."""
    if isinstance(benchmark, Benchmark):
        kind, where = benchmark.manifest.get("kind"), "this benchmark"
    else:
        manifest = read_json_object(Path(benchmark) / MANIFEST)
        kind, where = (manifest or {}).get("kind"), f"'{benchmark}'"
    if kind is None or kind in FAMILY.evaluated_kinds():
        return  # no manifest (Benchmark.load says what is wrong) or a Maze build
    raise ConfigError(
        f"evaluate_benchmark evaluates Shortcut Maze builds ({listed(FAMILY.evaluated_kinds())}), "
        f"but {where} is a {quoted(kind)} build; evaluate a Shortcut Suite build with "
        "evaluate_suite(folder, model=...), or run 'shortcutlab evaluate FOLDER', which picks "
        "the evaluation by the kind."
    )


@dataclass
class _Replicates:
    """What fitting every replicate gave: the fits by (build seed, fit seed or None), the paired
    predictions of each fit, each seed's run record and outcome, and the per-row predictions of
    the fits on the benchmark's own build."""

    fits: dict[Hashable, tuple[dict[str, np.ndarray], Fitted]] = field(default_factory=dict)
    paired: dict[Hashable, PairedPredictions] = field(default_factory=dict)
    runs: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[SeedOutcome] = field(default_factory=list)
    per_row: list[pd.DataFrame] = field(default_factory=list)


def _fit_replicates(
    base: Benchmark,
    benches: Mapping[int, Benchmark],
    replicates: Sequence[Replicate],
    model: str,
    params: Mapping[str, Any] | None,
    *,
    refit: bool,
    on_fit: Callable[[int], None] | None,
) -> _Replicates:
    """Fit and score every replicate in order; seeds that cannot change the fit (``refit``
    False) reuse the fit of their build."""
    done = _Replicates()
    labels = base.labels
    for replicate in replicates:
        bench = benches[replicate.build_seed]
        truths, pairing = truths_and_pairing(bench)
        key = (replicate.build_seed, replicate.fit_seed if refit else None)
        if key not in done.fits:
            fitted = fit_predict(bench, model, params, replicate.fit_seed)
            predicted = {s: predicted_labels(p) for s, p in fitted.probabilities.items()}
            done.fits[key] = (predicted, fitted)
            test_index, anti_index = pairing
            done.paired[key] = PairedPredictions(
                row_ids=bench["test"][ROW_ID].to_numpy()[test_index],
                truth=truths["test"][test_index],
                test=predicted["test"][test_index],
                anti_test=predicted["anti_test"][anti_index],
            )
        predicted, fitted = done.fits[key]
        if bench is base:
            rows = prediction_rows(replicate.seed, bench, predicted, fitted.probabilities)
            done.per_row.append(rows)
        scores = score(truths, predicted, labels.values, pairing, fitted.details)
        done.runs.append(
            {
                "seed": replicate.seed,
                "build_seed": replicate.build_seed,
                "fit_seed": replicate.fit_seed,
                **scores,
                **({"usage": fitted.usage} if fitted.usage else {}),
            }
        )
        done.outcomes.append(SeedOutcome(replicate.seed, key, replicate.build_seed, scores))
        if on_fit is not None:
            on_fit(replicate.seed)
    return done


def prediction_rows(
    seed: int,
    benchmark: Benchmark,
    predicted: Mapping[str, np.ndarray],
    probabilities: Mapping[str, np.ndarray],
) -> pd.DataFrame:
    """One seed's test and anti-test predictions per row: the label (empty for no valid answer)
    and its probability."""
    values = [str(v) for v in benchmark.labels.to_json()]
    frames = []
    for split in PREDICTION_SPLITS:
        ranks = predicted[split]
        frames.append(
            pd.DataFrame(
                {
                    "seed": seed,
                    "split": split,
                    ROW_ID: benchmark[split][ROW_ID].to_numpy(),
                    "predicted": [values[r] if r >= 0 else "" for r in ranks],
                    "confidence": predicted_probability(probabilities[split], ranks),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def family_frame(results: Sequence[EvaluationResult]) -> pd.DataFrame:
    """The tidy rows of several evaluations, with Holm's correction over them as one family."""
    return apply_holm(pd.DataFrame([r.statistics for r in results]))


def dataset_name(benchmark: Benchmark) -> str:
    """The folder of the training input, as a spec names a dataset by default."""
    path = benchmark.manifest.get("inputs", {}).get("train", {}).get("path")
    return (Path(path).parent.name if path else "") or "data"


def _stacked(
    fits: dict[Hashable, tuple[dict[str, np.ndarray], Fitted]], outcomes: list[SeedOutcome]
) -> dict[str, np.ndarray]:
    """Predicted ranks per split as (seeds, rows), when every build has the same rows."""
    per_seed = [fits[o.fit][0] for o in outcomes]
    return {
        split: np.stack([p[split] for p in per_seed])
        for split in per_seed[0]
        if len({len(p[split]) for p in per_seed}) == 1
    }


def _describe(runs: list[dict[str, Any]], label_values: Sequence[Any]) -> dict[str, Any]:
    """Per split, averaged over seeds: per-label accuracy, label counts, invalid answers, confidence."""
    described = {}
    for split in runs[0]["splits"]:
        per_seed = [r["splits"][split] for r in runs]
        entry: dict[str, Any] = {
            "per_label_accuracy": {
                str(v): _mean_or_none([s["per_label_accuracy"][str(v)] for s in per_seed])
                for v in label_values
            },
            "invalid": float(np.mean([s["invalid"] for s in per_seed])),
            "label_distribution": {
                key: float(np.mean([s["label_distribution"][key] for s in per_seed]))
                for key in per_seed[0]["label_distribution"]
            },
        }
        if all("confidence" in s for s in per_seed):
            entry["confidence"] = {
                key: float(np.mean([s["confidence"][key] for s in per_seed]))
                for key in ("mean", "accuracy", "ece")
            }
        described[split] = entry
    return {"splits": described}


def _mean_or_none(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None
