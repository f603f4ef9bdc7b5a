"""``audit --fix``: for each candidate the model relies on (or the user named), fit erm and each
repair on the training rows, compare them on the anti-test, a counterfactual test, the plain test
and the rows without the candidate, and recommend a repair (or say plainly that none helps).

The record goes into ``audit.json`` under ``fix``; the recommended repair of each candidate,
applied to every row of the user's training data, is kept in :class:`RepairedTraining` for
:mod:`.output` to write as a CSV with a manifest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError
from shortcutlab.families.audit.repair.compare import (
    FIX_NOTE,
    compare,
    difference_text,
    predict_sets,
    ranking_set,
    recommend,
    recommendation_rule,
)
from shortcutlab.families.audit.repair.config import BASELINE, FixConfig, fix_methods
from shortcutlab.families.audit.repair.methods import (
    RepairFit,
    TrainingChange,
    fit_repair,
    group_names,
    repair_context,
    training_change,
)
from shortcutlab.families.audit.repair.targets import (
    SET_NAMES,
    EvaluationSet,
    FixTarget,
    choose_targets,
    evaluation_sets,
)
from shortcutlab.families.audit.scan.candidates import Candidate
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.mitigations import MITIGATIONS, make_mitigation
from shortcutlab.models.adapters import json_safe_params, model_label


@dataclass
class RepairedTraining:
    """The recommended repair of one candidate applied to the user's whole training table."""

    candidate: str
    method: str
    change: TrainingChange | None  # None: the method changes training, not the rows
    groups: np.ndarray  # "label|with" / "label|without" per original row
    manifest: dict[str, Any]


def repair_candidates(
    table: pd.DataFrame,
    scan_result: Any,
    fitted_on: AuditInputs,
    evaluation: AuditInputs,
    evaluation_features: Any,
    whole_train: AuditInputs,
    *,
    config: FixConfig,
    model: str,
    model_params: Mapping[str, Any],
    seed: int,
    part_names: Mapping[str, str],
    original: AuditInputs | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], list[RepairedTraining]]:
    """The ``fix`` record and the repaired training sets (see the module docstring);
    ``original``: a Maze build's Ori-Test (its test rows before the cue was planted), where a
    repair's cost is charged too."""
    methods = fix_methods(config)
    chosen = choose_targets(table, config.candidates, part_names)
    record: dict[str, Any] = {
        "model": model,
        "methods": methods,
        "held_out": config.held_out,
        "margin": config.margin,
        "rule": recommendation_rule(config.margin),
        "note": FIX_NOTE,
        "targets": [],
    }
    repaired: list[RepairedTraining] = []
    features = scan_result.train_features
    phrases = dict(zip(features.keys, features.phrases, strict=True))
    shared: dict[str, RepairFit] = {}
    try:
        for position, (row, reason) in enumerate(chosen, start=1):
            target = FixTarget(
                Candidate.from_row(row, phrases),
                train_fires=features.column(row.key),  # the scan's features are of these rows
                evaluation_fires=evaluation_features.column(row.key),
                reason=reason,
            )
            heard = f"Repairing {row.candidate} ({position} of {len(chosen)})"
            entry, fits = _repair_one(
                target,
                fitted_on,
                evaluation,
                methods,
                config,
                model,
                dict(model_params),
                seed,
                shared,
                original=original,
                progress=None
                if progress is None
                else lambda text, h=heard: progress(f"{h}: {text}"),
            )
            entry["label"] = row.label
            record["targets"].append(entry)
            if entry["recommended"] is not None:
                repaired.append(
                    _repaired_training(
                        target,
                        entry,
                        fits[entry["recommended"]],
                        whole_train,
                        scan_result,
                        model,
                        dict(model_params),
                        seed,
                    )
                )
    finally:
        _close_shared(shared)
    return record, repaired


def _repair_one(
    target: FixTarget,
    train: AuditInputs,
    evaluation: AuditInputs,
    methods: list[str],
    config: FixConfig,
    model: str,
    model_params: dict[str, Any],
    seed: int,
    shared: dict[str, RepairFit],
    original: AuditInputs | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], dict[str, RepairFit]]:
    """One candidate's table: every method fitted, predicted and compared with erm. A method
    that reads neither the candidate nor its groups (erm, jtt, afr) fits the same model for
    every candidate: it is fitted once, kept in ``shared`` and closed by the caller."""
    sets: dict[str, EvaluationSet] = {}
    fits: dict[str, RepairFit] = {}
    predictions: dict[str, dict[str, np.ndarray]] = {}
    # erm first: the audited model refit (same model, parameters, rows and seed), whose view of
    # the text decides the candidate's evaluation rows as the audit's did
    ordered = [BASELINE, *(m for m in methods if m != BASELINE)]
    for number, method in enumerate(ordered, start=1):
        if progress is not None:
            progress(f"{method} ({number} of {len(methods)})")
        fit = shared.get(method) or fit_repair(
            method,
            target,
            train,
            model=model,
            model_params=model_params,
            held_out=config.held_out,
            seed=seed,
        )
        fits[method] = fit
        if method == BASELINE:
            sets = evaluation_sets(
                target, evaluation, seed=seed, seen_by=fit.predictor, original=original
            )
        if _same_for_every_target(method) and fit.predictor is not None:
            shared[method] = fit
            predictions[method] = predict_sets(fit.predictor, sets)
        elif fit.predictor is not None:
            predictions[method] = predict_sets(fit.predictor, sets)
            close = getattr(fit.predictor, "close", None)
            if close is not None:
                close()
    if BASELINE not in predictions:
        raise ConfigError(
            f"erm could not be fitted for {target.candidate.name!r}: {fits[BASELINE].skipped}"
        )
    figures = compare(
        predictions,
        sets,
        n_resamples=config.n_resamples,
        seed=derived_seed(seed, "repair bootstrap", target.candidate.key),
    )
    ranked_by, why = ranking_set(sets, compared=len(predictions) - 1)
    recommended, sentence = recommend(figures, ranked_by, methods, config.margin)
    sentence = why + sentence
    n = len(train)
    rows = [_method_row(fits[method], figures.get(method, {}), n) for method in methods]
    entry = {
        **_described(target.candidate),
        "reason": target.reason,
        "training_rows": n,
        "training_rows_with": int(target.train_fires.sum()),
        "sets": {
            name: {"rows": None if s.inputs is None else len(s.inputs), "note": s.note}
            for name, s in sets.items()
        },
        "ranked_by": ranked_by,
        "methods": rows,
        "recommended": recommended,
        "recommendation": sentence,
        "label_signal": _label_signal(target, figures, methods),
    }
    return entry, fits


def _method_row(fit: RepairFit, figures: Mapping[str, Any], n: int) -> dict[str, Any]:
    """One method's row of a candidate's record: what it did to the ``n`` training rows and
    its figures on every set."""
    return {
        "method": fit.method,
        "params": fit.params,
        "skipped": fit.skipped,
        "trains_on": fit.trains_on,
        "changed_share": None if fit.change is None else fit.change.changed_share(n),
        "change": None if fit.change is None else fit.change.summary(n),
        **{name: figures.get(name) for name in SET_NAMES},
    }


def _same_for_every_target(method: str) -> bool:
    """Whether ``method`` fits the same model whatever the candidate: it reads no groups, no
    held-out share (drawn per candidate, stratified by its groups) and no candidate."""
    capabilities = MITIGATIONS.capabilities(method)
    return (
        capabilities["groups"] == "none"
        and not capabilities["held_out"]
        and "candidate" not in MITIGATIONS.parameters(method)
    )


def _close_shared(shared: Mapping[str, RepairFit]) -> None:
    for fit in shared.values():
        close = getattr(fit.predictor, "close", None)
        if close is not None:
            close()


def _label_signal(target: FixTarget, figures: Mapping[str, Any], methods: list[str]) -> str | None:
    """The warning that editing the candidate's words can remove label signal, measured on the
    evaluation rows without the candidate."""
    edits = [
        m
        for m in methods
        if m in figures
        and "candidate" in MITIGATIONS.parameters(m)
        and figures[m]["without"].get("accuracy") is not None
    ]
    if not target.candidate.editable or not edits:
        return None
    parts = [f"{m} {difference_text(figures[m]['without'])}" for m in edits]
    rows = figures[BASELINE]["without"]["rows"]
    return (
        f"Removing or masking {target.candidate.phrase!r} can remove label signal too: on the {rows} "
        f"evaluation rows without it, accuracy against erm changes by {'; '.join(parts)}."
    )


def _repaired_training(
    target: FixTarget,
    entry: Mapping[str, Any],
    fit: RepairFit,
    whole_train: AuditInputs,
    scan_result: Any,
    model: str,
    model_params: dict[str, Any],
    seed: int,
) -> RepairedTraining:
    """The recommended repair applied to every row of the user's training table."""
    candidate = target.candidate
    fires = scan_result.plan.transform(whole_train).column(candidate.key)
    whole = replace(target, train_fires=fires)
    capabilities = dict(MITIGATIONS.capabilities(fit.method), held_out=False, groups="train")
    context, _ = repair_context(capabilities, whole, whole_train, model, model_params, 0.2, seed)
    change = training_change(make_mitigation(fit.method, fit.params), context)
    n = len(whole_train)
    method_row = next(m for m in entry["methods"] if m["method"] == fit.method)
    manifest = {
        **_described(candidate),
        "label": entry["label"],
        "method": fit.method,
        "parameters": fit.params,
        "model": model_label(model, model_params),
        "model_parameters": json_safe_params(model_params),
        "seed": seed,
        "rows": n,
        "rows_changed_share": None if change is None else change.changed_share(n),
        "change": "the rows unchanged: this method changes how the model is trained (train it "
        "with shortcutlab's mitigation of that name, groups: group)"
        if change is None
        else change.summary(n),
        "recommendation": entry["recommendation"],
        "figures": {name: method_row[name] for name in SET_NAMES},
    }
    return RepairedTraining(
        candidate.name, fit.method, change, group_names(whole, whole_train), manifest
    )


def _described(candidate: Candidate) -> dict[str, Any]:
    """The candidate as a fix record and a repaired set's manifest name it (a metadata value,
    which belongs to no part, reads as part "text" there)."""
    return {
        "candidate": candidate.name,
        "kind": candidate.kind,
        "part": candidate.part or "text",
        "phrase": candidate.phrase,
    }


__all__ = ["RepairedTraining", "repair_candidates"]
