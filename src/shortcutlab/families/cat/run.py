"""One CAT run: fit a pair model, measure its counterfactual attentiveness, compare baselines.

Paper 003: the full model's accuracy; CAT (section 3.3) on the test rows whose prediction is not
the default label, k counterfactual sets scored in one batched call; the partial-input baseline
(3.1: the same model class trained on the kept part alone) against the majority baseline with an
exact McNemar test; the naive partial-input evaluation (3.2: the full model given an empty
replaced part); optionally CAT augmentation of the training split (section 6) before fitting.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.label_agreement import agree_labels
from shortcutlab.data.labels import LabelSpace
from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR
from shortcutlab.data.options import ReadingOptions, reading_options
from shortcutlab.data.pairs import model_inputs, require_pairs
from shortcutlab.data.writing import atomic_output_dir, write_json
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.errors import ConfigError, DataError, knob, warn
from shortcutlab.families.cat.scoring import predict_sets
from shortcutlab.metrics import accuracy, mcnemar_exact
from shortcutlab.metrics.attentiveness import attentiveness_summary, wilson_interval
from shortcutlab.models import make_model
from shortcutlab.models.adapters import json_safe_params, model_label
from shortcutlab.models.base import check_input_kind
from shortcutlab.params import check_choice, quoted
from shortcutlab.provenance import environment, tool_record
from shortcutlab.shortcuts.counterfactuals import (
    REPLACEABLE,
    cat_augment,
    counterfactual_donors,
    resolve_default_label,
    write_check,
)

RESULTS, CHECK = "results.json", "check.csv"
INTERVAL_NOTE = "Wilson 95 % interval over test rows; it ignores the variance between fits"


@dataclass(frozen=True)
class CatConfig:
    """What a CAT run does; ``default_label`` is a preset name, a label value or None (inferred)."""

    model: Any = "tfidf-logreg"  # anything models.adapters.resolve_model takes
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    k: int = 5
    default_label: str | None = None
    replace: str = TEXT
    augment: bool = False
    labels: list[Any] | None = None

    def check(self) -> None:
        check_choice("replace", self.replace, REPLACEABLE)
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ConfigError(
                f"The 'k' parameter of CAT must be a whole number >= 1. Got {quoted(self.k)} instead."
            )


@dataclass
class CatOutcome:
    """The results (what results.json holds) and what --export-check needs."""

    results: dict[str, Any]
    test: pd.DataFrame
    donors: np.ndarray
    kept: np.ndarray
    predicted: list[Any]
    counterfactual_predicted: list[Any]
    default_label: Any
    probabilities: np.ndarray  # the full model's test probabilities (the grid stores them)


def _seeds(seed: int) -> tuple[int, int, int]:
    """Independent seeds for the test counterfactuals, the augmentation and the check sample:
    the counterfactuals depend on the seed only, so models and --augment compare on one set."""
    a, b, c = np.random.SeedSequence(seed).generate_state(3)
    return int(a), int(b), int(c)


def counterfactual_seed(seed: int) -> int:
    """The seed of a CAT run's test counterfactuals (its first set is redrawn from it to show
    a run's pairs to people)."""
    return _seeds(seed)[0]


def run_cat(
    train: Any,
    test: Any,
    config: CatConfig,
    *,
    text_col: str | None = None,
    label_col: str | None = None,
    text_pair_col: str | None = None,
    encoding: str | None = None,
    on_empty: str | None = None,
    inputs: ReadingOptions | None = None,
) -> CatOutcome:
    """Fit ``config.model`` on ``train`` and measure it on ``test``: pair tables, each a path, a
    DataFrame or a ``datasets.Dataset``, read with ``text_col`` (x1), ``text_pair_col`` (x2),
    ``label_col``, ``encoding`` and ``on_empty`` (default: ``text``, ``text_pair``, ``label``),
    or with ``inputs`` (giving both is refused)."""
    config.check()
    reading = reading_options(
        "run_cat",
        inputs,
        ReadingOptions,
        text_col=text_col,
        label_col=label_col,
        text_pair_col=text_pair_col,
        encoding=encoding,
        on_empty=on_empty,
    )
    tables = {"train": reading.read(train, role="train"), "test": reading.read(test, role="test")}
    train, test = (table.frame for table in agree_labels(tables).values())
    for name, table in (("training", train), ("test", test)):
        require_pairs(model_inputs(table), f"CAT (the {name} data)", list(table.columns))
    given = config.labels or sorted({*train[LABEL].tolist(), *test[LABEL].tolist()}, key=str)
    labels = LabelSpace.infer(train[LABEL].tolist(), given=given, source="the training data")
    default = resolve_default_label(labels.values, config.default_label)
    default_rank = labels.values.index(default)
    cf_seed, augment_seed, _ = _seeds(config.seed)
    fit_table = (
        cat_augment(train, default_label=default, seed=augment_seed, replace=config.replace)
        if config.augment
        else train
    )
    truth = labels.ranks(test[LABEL], where="The test data")
    donors = counterfactual_donors(test[config.replace].tolist(), k=config.k, seed=cf_seed)

    model = make_model(config.model, config.params, seed=config.seed)
    inputs = model_inputs(test)
    check_input_kind(model, inputs)
    model.set_label_values(labels.values)
    try:
        model.fit(model_inputs(fit_table), labels.ranks(fit_table[LABEL]), n_classes=len(labels))
        probabilities = np.asarray(model.predict_proba(inputs), dtype=np.float32)
        predicted = predicted_labels(probabilities)
        kept = np.flatnonzero((predicted != default_rank) & (predicted >= 0))
        if len(kept) < 2:
            raise DataError(
                f"CAT needs at least two test rows whose prediction is not the default label "
                f"'{default}'; the model predicted another label for {len(kept)} of "
                f"{len(test)} rows. Check {knob('default_label')} or train a stronger model."
            )
        counterfactual, unique = score_counterfactuals(model, test, donors, kept, config.replace)
        naive_predicted = predicted_labels(
            np.asarray(model.predict_proba(_swap_empty(test, config.replace)))
        )
    finally:
        model.close()
    shared = _warn_shared_first_texts(train, test)  # after the refusals: an error stays one line
    summary = attentiveness_summary(
        original=predicted[kept], counterfactual=counterfactual, n_classes=len(labels)
    )
    names = [str(v) for v in labels.values]
    summary["per_label"] = {
        name: entry for name, entry in zip(names, summary["per_label"], strict=True) if entry
    }
    summary |= {"rows_kept": len(kept), "rows_total": len(test), "unique_inputs_scored": unique}
    results = {
        "config": asdict(config)
        | {
            "model": model_label(config.model, config.params),
            "params": json_safe_params(config.params),
            "default_label": default,
        },
        "data": {
            "train_rows": len(train),
            "train_rows_fitted": len(fit_table),
            "augmented_rows": len(fit_table) - len(train),
            "test_rows": len(test),
            "test_rows_sharing_x1_with_train": shared,
            "labels": names,
        },
        "accuracy": _accuracy(truth, predicted),
        "attentiveness": summary,
        "baselines": _baselines(train, test, truth, predicted, naive_predicted, labels, config),
    }
    first_set = predicted.copy()
    first_set[kept] = counterfactual[0]
    return CatOutcome(
        results=results,
        test=test,
        donors=donors[0],
        kept=kept,
        predicted=[_value(labels, r) for r in predicted],
        counterfactual_predicted=[_value(labels, r) for r in first_set],
        default_label=default,
        probabilities=probabilities,
    )


def _warn_shared_first_texts(train: pd.DataFrame, test: pd.DataFrame) -> int:
    """Test rows whose x1 also opens a training row, with a warning when there are any: MultiNLI
    writes up to three hypotheses per premise, one per label, so a split by row teaches a model
    the other labels of a test premise (measured on dev-matched: hypothesis-only 0.37 with a row
    split against 0.47 split by premise; bench/mnli_pairs.py)."""
    shared = int(test[TEXT].isin(set(train[TEXT])).sum())
    if shared:
        warn(
            f"{shared} of {len(test)} test rows share their first text (e.g. the premise) with a "
            f"training row; split the data by that text ({knob('split_by', 'COLUMN')}, or "
            "shortcutlab split) so none is on both sides, or the accuracies and baselines mix in "
            "what the model memorised about it.",
        )
    return shared


def score_counterfactuals(
    model: Any, test: pd.DataFrame, donors: np.ndarray, kept: np.ndarray, replace: str = TEXT
) -> tuple[np.ndarray, int]:
    """Predicted ranks (k, kept rows) of the kept rows' k counterfactual sets (``donors`` is
    (k, rows)), scored in one batched call over unique inputs; and how many inputs were scored."""
    swapped = [_swap(test, row, kept, replace) for row in donors]
    scored, unique = predict_sets(model, swapped)
    return np.stack([predicted_labels(p) for p in scored]), unique


def _value(labels: LabelSpace, rank: int) -> Any:
    return labels.values[rank] if rank >= 0 else "invalid"


def _swap(test: pd.DataFrame, donors: np.ndarray, kept: np.ndarray, replace: str) -> list[Any]:
    firsts, seconds = test[TEXT].to_numpy(), test[TEXT_PAIR].to_numpy()
    if replace == TEXT:
        firsts = firsts[donors[kept]]
        seconds = seconds[kept]
    else:
        firsts, seconds = firsts[kept], seconds[donors[kept]]
    return list(zip(firsts.tolist(), seconds.tolist(), strict=True))


def _swap_empty(test: pd.DataFrame, replace: str) -> list[Any]:
    """Every test pair with the replaced part emptied (the naive partial input, section 3.2)."""
    empty = [""] * len(test)
    firsts = empty if replace == TEXT else test[TEXT].tolist()
    seconds = test[TEXT_PAIR].tolist() if replace == TEXT else empty
    return list(zip(firsts, seconds, strict=True))


def _accuracy(truth: np.ndarray, predicted: np.ndarray) -> dict[str, Any]:
    correct = int((truth == predicted).sum())
    return {
        "value": accuracy(y_true=truth, y_pred=predicted),
        "interval_95": wilson_interval(correct, len(truth)),
        "interval_note": INTERVAL_NOTE,
        "rows": len(truth),
    }


def _baselines(
    train: pd.DataFrame,
    test: pd.DataFrame,
    truth: np.ndarray,
    predicted: np.ndarray,
    naive_predicted: np.ndarray,
    labels: LabelSpace,
    config: CatConfig,
) -> dict[str, Any]:
    """Partial-input (3.1) vs majority with exact McNemar, and the naive partial input (3.2)."""
    part = TEXT_PAIR if config.replace == TEXT else TEXT
    train_ranks = labels.ranks(train[LABEL])
    partial = make_model(config.model, config.params, seed=config.seed)
    partial.set_label_values(labels.values)
    try:
        partial.fit(train[part].tolist(), train_ranks, n_classes=len(labels))
        partial_predicted = predicted_labels(np.asarray(partial.predict_proba(test[part].tolist())))
    finally:
        partial.close()
    majority_rank = int(np.bincount(train_ranks, minlength=len(labels)).argmax())
    majority_predicted = np.full(len(truth), majority_rank)
    test_result = mcnemar_exact(
        correct_a=partial_predicted == truth, correct_b=majority_predicted == truth
    )
    return {
        "partial_input": {
            "trained_on": part,
            "model": model_label(config.model, config.params),
            **_accuracy(truth, partial_predicted),
        },
        "majority": {
            "label": str(labels.values[majority_rank]),
            **_accuracy(truth, majority_predicted),
        },
        "partial_vs_majority": {
            "test": "exact McNemar on paired test rows (b: partial right, majority wrong)",
            **test_result,
            "difference": float(
                np.mean(partial_predicted == truth) - np.mean(majority_predicted == truth)
            ),
        },
        "naive_partial_input": {
            "evaluated_on": f"the full model with {config.replace} = '' (empty)",
            **_accuracy(truth, naive_predicted),
            "agreement_with_full_input": float(np.mean(naive_predicted == predicted)),
        },
    }


def save_cat(
    outcome: CatOutcome,
    out: str | Path,
    *,
    overwrite: bool = False,
    export_check: int | None = None,
    seed: int = 0,
    sources: dict[str, Any] | None = None,
) -> Path:
    """Write ``results.json`` (and ``check.csv`` with ``export_check`` rows) atomically; the
    results record the tool, the versions that can change them and the input ``sources``."""
    outcome.results["provenance"] = {
        "tool": tool_record(),
        "versions": environment(),
        "sources": sources or {},
    }
    with atomic_output_dir(out, overwrite=overwrite) as folder:
        if export_check is not None:
            written = write_check(
                outcome.test,
                outcome.donors,
                kept=outcome.kept,
                predicted=outcome.predicted,
                counterfactual_predicted=outcome.counterfactual_predicted,
                default_label=outcome.default_label,
                size=export_check,
                seed=_seeds(seed)[2],
                replace=outcome.results["config"]["replace"],
                path=folder / CHECK,
            )
            outcome.results["export_check"] = {"file": CHECK, "rows": written}
        write_json(folder / RESULTS, outcome.results)
    return Path(out)
