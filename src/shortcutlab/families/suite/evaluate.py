"""Evaluate one model on a Shortcut Suite folder: every set, every prompting strategy (section 5).

The model is fitted once per strategy (an ``llm-prompt`` model only draws its few-shot
demonstrations, from ``train``), then predicts every set. Per set: accuracy (E and ¬E apart for
the 2-class HANS-style sets, Table 2, with 3-class predictions mapped to entailment /
non-entailment), the change against ``standard`` (exact McNemar on rows paired through
``source_row_id`` for derived sets, else a two-proportion z-test), the predicted-label
distribution (5.2.3), accuracy per position (Table 3) and, for chain-of-thought strategies, SFS /
ICS / EQS / CFS (Table 4, section 4.2) and optionally the error types of wrong answers (5.2.4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data import LabelSpace, load_table
from shortcutlab.data.pairs import model_inputs
from shortcutlab.engine.cell import predicted_labels
from shortcutlab.errors import CLI, ConfigError, DataError, callers_terms, knob, listed
from shortcutlab.families.suite.build import SuiteBuild
from shortcutlab.families.suite.evaluation import SuiteEvaluation, save_suite_evaluation  # noqa: F401 - re-exported
from shortcutlab.families.suite.explanations import ErrorJudge, explanation_scores
from shortcutlab.families.suite.folder import (
    ENTAILMENT,
    NON_ENTAILMENT,
    STANDARD,
    SuiteFolder,
    normalise_label,
    read_suite,
)
from shortcutlab.metrics import mcnemar_exact
from shortcutlab.metrics.proportions import two_proportion_z_test
from shortcutlab.models import MODELS, make_model
from shortcutlab.models.adapters import (
    json_safe_params,
    model_label,
    refuse_fitted_function,
    renamed_keyword,
    resolve_model,
)
from shortcutlab.models.nli_scorers import NliScorer
from shortcutlab.models.prompts import STRATEGIES
from shortcutlab.params import quoted
from shortcutlab.provenance import tool_record


@dataclass
class _Predictions:
    ranks: np.ndarray  # label ranks, INVALID (-1) for no valid answer
    raw: list[str | None] | None = None
    prompts: list[str] | None = None
    confidence: np.ndarray | None = None


def _suite_of(source: SuiteBuild | str | Path, sets: list[str] | None) -> SuiteFolder:
    """The sets to score: a build object's (read back from its folder when it was written) or
    a folder's."""
    if not isinstance(source, SuiteBuild):
        return read_suite(source, sets)
    if source.path is not None:
        return read_suite(source.path, sets)
    unknown = [s for s in sets or () if s not in source.sets]
    if unknown:
        raise DataError(
            f"The Suite build has no set(s) {listed(unknown)}. Sets: {listed(source.sets)}."
        )
    chosen = {name: source.sets[name] for name in (sets or source.sets)}
    return SuiteFolder(Path("."), dict(source.manifest), chosen)


def evaluate_suite(
    folder: SuiteBuild | str | Path,
    *,
    model: Any = "llm-prompt",  # the CLI's default too
    params: Mapping[str, Any] | None = None,
    train: str | Path | None = None,
    train_options: Mapping[str, Any] | None = None,
    strategies: Sequence[str] | None = None,
    sets: Sequence[str] | None = None,
    nli_scorer: NliScorer | None = None,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    error_judge: ErrorJudge | None = None,
    seed: int = 0,
    model_params: None = None,
) -> SuiteEvaluation:
    """Fit ``model`` (per strategy) and score every set of the Suite ``folder``; ``model`` is
    anything :func:`~shortcutlab.models.adapters.resolve_model` takes.

    ``embed`` (texts -> vectors) gives SFS and ``nli_scorer`` ICS for chain-of-thought
    strategies; without them those metrics are None (printed "—").
    """
    renamed_keyword("evaluate_suite", model_params)
    label = model_label(model, params)
    model, model_params = resolve_model(model, params)
    refuse_fitted_function(model)
    suite = _suite_of(folder, list(sets) if sets is not None else None)
    strategies = _check_strategies(model, strategies)
    train_frame = _training_frame(suite, model, strategies, train, train_options or {})
    space = _label_space(train_frame, suite)
    notes: list[str] = []
    if train is None:
        fitted_on = "the standard set's rows" if suite.has_standard else "the sets' rows"
        notes.append(
            f"No {knob('train')}: {label} was fitted on {fitted_on}, which zero-shot prompts never show; "
            f"the labels are those rows' ({listed(space.values)})."
        )
    if not suite.has_standard:
        notes.append(
            f"The folder has no '{STANDARD}' set: no change against standard is measured, only each set's accuracy."
        )
    runs = []
    for strategy in strategies:
        params = dict(model_params or {})
        if strategy is not None:
            params["strategy"] = strategy
        predictions, usage = _fit_and_predict(suite, model, params, seed, space, train_frame)
        cot = strategy is not None and strategy.endswith("cot")
        runs.append(
            {
                "strategy": strategy,
                "sets": _score_sets(
                    suite,
                    space,
                    predictions,
                    cot=cot,
                    nli_scorer=nli_scorer,
                    embed=embed,
                    error_judge=error_judge,
                ),
                "usage": usage,
            }
        )
    if any(s is not None and s.endswith("cot") for s in strategies):
        if embed is None:
            notes.append("SFS needs a sentence encoder: not computed (—).")
        if nli_scorer is None:
            notes.append(
                f"ICS and EQS need an NLI model ({knob('nli_scorer', flag='--nli-model')}): not computed (—)."
            )
    results = {
        "tool": tool_record(),
        "suite": {"path": str(suite.path), "sets": {n: len(f) for n, f in suite.sets.items()}},
        "model": {"name": label, "params": _plain(json_safe_params(model_params)), "seed": seed},
        "train": {"path": None if train is None else str(train), "rows": len(train_frame)},
        "labels": [str(v) for v in space.values],
        "two_class_sets": [n for n in suite.sets if suite.is_two_class(n)],
        "strategies": runs,
        "notes": notes,
    }
    return SuiteEvaluation(results, notes)


def _fit_and_predict(
    suite: SuiteFolder,
    model: str,
    params: Mapping[str, Any],
    seed: int,
    space: LabelSpace,
    train_frame: pd.DataFrame,
) -> tuple[dict[str, _Predictions], dict[str, Any]]:
    """Fit ``model`` with ``params`` on the training rows, then predict every set; also the
    model's usage record (LLM tokens and calls; empty for other models)."""
    fitted = make_model(model, params, seed=seed)
    fitted.check(len(space))
    fitted.set_label_values(space.values)
    fitted.fit(
        model_inputs(train_frame),
        space.ranks(train_frame["label"], where="train"),
        n_classes=len(space),
    )
    try:
        predictions = {name: _predict(fitted, frame) for name, frame in suite.sets.items()}
    finally:
        fitted.close()
    return predictions, dict(getattr(fitted, "usage_", {}) or {})


def _check_strategies(model: str, strategies: Sequence[str] | None) -> list[str | None]:
    if MODELS.capabilities(model)["learns"]:  # prompting strategies are for prompted models
        if strategies:
            # A fitted function learns nothing either, but is no prompted model.
            prompted = " and ".join(n for n in MODELS.having("learns", False) if n != "function")
            raise ConfigError(
                f"{knob('strategies', flag='--strategy')} applies to the {prompted} model only; the {model} model has no prompting strategies. Leave it out."
            )
        return [None]
    chosen = list(strategies or ["zero-shot"])
    for strategy in chosen:
        if strategy not in STRATEGIES:
            raise ConfigError(
                f"{knob('strategies', flag='--strategy')} takes {', '.join(STRATEGIES)}. Got {quoted(strategy)} instead."
            )
    return list(dict.fromkeys(chosen))


def _training_frame(
    suite: SuiteFolder,
    model: str,
    strategies: list[str | None],
    train: str | Path | None,
    options: Mapping[str, Any],
) -> pd.DataFrame:
    if train is not None:
        frame = load_table(train, role="train", **options).frame
        if "text_pair" not in frame.columns:
            # The CLI's --text-pair-col is a key of train_options in Python.
            pair = (
                "--text-pair-col"
                if callers_terms() == CLI
                else "train_options={'text_pair_col': ...}"
            )
            raise DataError(
                f"The {knob('train')} table '{train}' has one text per row; the Suite's sets are "
                f"premise/hypothesis pairs. Name the second column with {pair}."
            )
        return frame
    few_shot = [s for s in strategies if s is not None and s.startswith("few-shot")]
    learns = MODELS.capabilities(model)["learns"]
    if learns or few_shot:
        what = f"the {model} model" if learns else f"the {few_shot[0]} strategy"
        raise ConfigError(
            f"{what[0].upper()}{what[1:]} learns from training rows; pass {knob('train', 'FILE')} (NLI pairs that are not in the Suite, e.g. the rest of MultiNLI)."
        )
    if suite.has_standard:
        return suite.sets[STANDARD]
    # Without standard the label space is the sets' own labels: those of the 3-class sets if
    # any, else entailment / non-entailment (HANS-style sets alone).
    frames = [f for n, f in suite.sets.items() if not suite.is_two_class(n)] or list(
        suite.sets.values()
    )
    return pd.concat(frames, ignore_index=True)[["text", "text_pair", "label"]]


def _label_space(train_frame: pd.DataFrame, suite: SuiteFolder) -> LabelSpace:
    values = sorted({str(v) for v in train_frame["label"].tolist()})
    space = LabelSpace.infer(train_frame["label"].astype(str).tolist(), given=values)
    for name, frame in suite.sets.items():
        if suite.is_two_class(name):
            continue
        missing = sorted({str(v) for v in frame["label"]} - set(values))
        if missing:
            raise DataError(
                f"The Suite set '{name}' has label(s) {listed(missing)} that the training labels "
                f"({listed(values)}) lack; train on data with the same NLI labels."
            )
    return space


def _predict(model: Any, frame: pd.DataFrame) -> _Predictions:
    inputs = model_inputs(frame)
    ranks = predicted_labels(np.asarray(model.predict_proba(inputs)))
    details = getattr(model, "prediction_details_", None)
    if details is None or not hasattr(model, "prompt"):
        return _Predictions(ranks)
    return _Predictions(
        ranks,
        raw=list(details["raw"]),
        prompts=[model.prompt(item) for item in inputs],
        confidence=np.asarray(details["confidence"], dtype=np.float64),
    )


def _correctness(
    frame: pd.DataFrame, ranks: np.ndarray, space: LabelSpace, two_class: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(correct per row, gold names): 2-class sets compare mapped names (E vs ¬E)."""
    names = np.array([str(v) for v in space.values] + ["invalid"], dtype=object)
    predicted = names[np.where(ranks < 0, len(space), ranks)]
    if two_class:
        gold = np.array([normalise_label(v) for v in frame["label"]], dtype=object)
        mapped = np.array(
            [
                "invalid"
                if p == "invalid"
                else (ENTAILMENT if normalise_label(p) == ENTAILMENT else NON_ENTAILMENT)
                for p in predicted
            ],
            dtype=object,
        )
        return mapped == gold, gold
    gold = np.array([str(v) for v in frame["label"]], dtype=object)
    return predicted == gold, gold


def _score_sets(
    suite: SuiteFolder,
    space: LabelSpace,
    predictions: dict[str, _Predictions],
    *,
    cot: bool,
    nli_scorer: NliScorer | None,
    embed: Callable[[list[str]], np.ndarray] | None,
    error_judge: ErrorJudge | None,
) -> dict[str, Any]:
    standard = suite.sets.get(STANDARD)
    standard_correct = (
        None
        if standard is None
        else _correctness(standard, predictions[STANDARD].ranks, space, False)[0]
    )
    scored: dict[str, Any] = {}
    for name, frame in suite.sets.items():
        two_class = suite.is_two_class(name)
        run = predictions[name]
        correct, gold = _correctness(frame, run.ranks, space, two_class)
        record: dict[str, Any] = {
            "rows": len(frame),
            "accuracy": float(correct.mean()),
            # Only answers parsed from text can be invalid; for other models nothing could vary.
            "invalid": int((run.ranks < 0).sum()) if run.raw is not None else None,
            "label_distribution": _distribution(run.ranks, space, parsed=run.raw is not None),
        }
        if two_class:
            for key, label in (
                ("accuracy_entailment", ENTAILMENT),
                ("accuracy_non_entailment", NON_ENTAILMENT),
            ):
                rows = gold == label
                record[key] = float(correct[rows].mean()) if rows.any() else None
        if standard is not None and standard_correct is not None and name != STANDARD:
            record["change"] = _change(frame, correct, standard, standard_correct)
        if "position" in frame.columns:
            record["position_accuracy"] = {
                str(position): float(correct[(frame["position"] == position).to_numpy()].mean())
                for position in sorted(frame["position"].dropna().unique(), key=str)
            }
        if cot and run.raw is not None:
            record["explanations"] = explanation_scores(
                prompts=run.prompts or [],
                outputs=run.raw,
                confidence=run.confidence
                if run.confidence is not None
                else np.full(len(frame), np.nan),
                correct=correct,
                embed=embed,
                nli_scorer=nli_scorer,
            )
            if error_judge is not None:
                wrong = np.flatnonzero(~correct & np.array([r is not None for r in run.raw]))
                inputs = model_inputs(frame)
                record["error_types"] = error_judge.count(
                    [inputs[i] for i in wrong],
                    [str(gold[i]) for i in wrong],
                    [run.raw[i] or "" for i in wrong],
                )
        scored[name] = record
    return scored


def _distribution(ranks: np.ndarray, space: LabelSpace, *, parsed: bool) -> dict[str, int]:
    counts = {str(v): int((ranks == i).sum()) for i, v in enumerate(space.values)}
    if parsed:
        counts["invalid"] = int((ranks < 0).sum())
    return counts


def _change(
    frame: pd.DataFrame, correct: np.ndarray, standard: pd.DataFrame, standard_correct: np.ndarray
) -> dict[str, Any]:
    """Accuracy change against standard: paired McNemar where rows name their standard row."""
    if "source_row_id" in frame.columns:
        position = pd.Series(np.arange(len(standard)), index=standard["row_id"].to_numpy())
        sources = pd.to_numeric(frame["source_row_id"], errors="coerce")
        matched = sources.isin(position.index).to_numpy()
        if matched.any():
            paired = position.loc[sources[matched].astype(np.int64).to_numpy()].to_numpy()
            base = standard_correct[paired]
            test = mcnemar_exact(correct_a=base, correct_b=correct[matched])
            return {
                "test": "mcnemar-exact",
                "rows_paired": int(matched.sum()),
                "standard_accuracy": float(base.mean()),
                "delta": float(correct[matched].mean() - base.mean()),
                "p_value": test["p_value"],
            }
    test = two_proportion_z_test(correct_a=correct, correct_b=standard_correct)
    return {
        "test": "two-proportion-z",
        "rows_paired": 0,
        "standard_accuracy": float(standard_correct.mean()),
        "delta": float(correct.mean() - standard_correct.mean()),
        "p_value": test["p_value"],
    }


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
