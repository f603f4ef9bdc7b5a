"""Partial-input baselines: how well one part of a pair predicts the label on its own.

A hypothesis-only classifier beats the majority label on SNLI and MultiNLI (Gururangan et al.,
2018; Poliak et al., 2018): the hypothesis alone carries label cues (negation words for
contradiction, vague words for neutral) that a model can use without reading the premise. For
paired data, each part is given to a model alone and its accuracy compared with always predicting
the training rows' majority label, on the same rows: a one-sided exact McNemar test (the binomial
test of the discordant rows, "greater" for the part right where the majority is wrong), since the
scan asks only whether the part beats the majority.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from shortcutlab.errors import ConfigError, DataError, ended, knob
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.leakage import normalised_texts
from shortcutlab.metrics.attentiveness import wilson_interval
from shortcutlab.models import make_model
from shortcutlab.params import quoted


def partial_input_baselines(
    train: AuditInputs,
    evaluation: AuditInputs | None,
    *,
    model: str = "tfidf-logreg",
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    folds: int = 5,
) -> list[dict[str, Any]]:
    """One candidate-table row per part (``text alone``, ``text_pair alone``); [] for single texts.

    With ``evaluation`` the model is fitted on ``train`` and scored on it; without, the scores are
    stratified ``folds``-fold cross-validated predictions on ``train`` (seeded), each fold against
    the majority label of its own training rows. Rows that share a premise or a hypothesis stay
    in one fold: MultiNLI writes three hypotheses per premise, one per label, so a premise seen in
    training with the two other labels makes a premise-only model wrong on purpose (plain 5-fold
    CV on dev-matched: premise-only accuracy 0.084 against a majority of 0.354).
    """
    if not train.paired:
        return []
    if evaluation is not None and not evaluation.paired:
        raise DataError(
            "The evaluation table has one text per row but the training table has pairs; "
            f"load both with the same {ended(knob('text_pair_col'))}"
        )
    if evaluation is None:
        _check_folds(folds, train)
        groups = shared_text_groups(train)
        if groups.max() + 1 < folds:
            raise DataError(
                f"{folds}-fold cross-validation keeps rows that share a text in one fold, and the "
                f"training rows form only {groups.max() + 1} such groups. Lower folds or pass a test table."
            )
    rows = []
    for part in train.parts():
        if evaluation is None:
            predicted, majority = _cross_validated(train, part, groups, model, params, seed, folds)
            truth, setting = (
                train.ranks,
                f"{folds}-fold cross-validation on train (grouped by shared text)",
            )
        else:
            fitted = _fit(train, part, model, params, seed)
            predicted = fitted.predict_proba(evaluation.part(part)).argmax(axis=1)
            majority = np.full(len(evaluation), _majority(train.ranks, len(train.labels)))
            truth, setting = evaluation.ranks, "fitted on train, scored on test"
        rows.append(_row(part, truth, predicted, majority, train, model, setting))
    return rows


def _row(
    part: str,
    truth: np.ndarray,
    predicted: np.ndarray,
    majority: np.ndarray,
    train: AuditInputs,
    model: str,
    setting: str,
) -> dict[str, Any]:
    correct, majority_correct = predicted == truth, majority == truth
    n = len(truth)
    accuracy, majority_accuracy = float(correct.mean()), float(majority_correct.mean())
    low, high = wilson_interval(int(correct.sum()), n)
    only_part = int((correct & ~majority_correct).sum())
    discordant = only_part + int((~correct & majority_correct).sum())
    p_value = one_sided_mcnemar(only_part, discordant)
    majority_label = train.labels.values[_majority(train.ranks, len(train.labels))]
    direction = "above" if accuracy > majority_accuracy else "not above"
    detail = (
        f"accuracy {accuracy:.3f} [{low:.3f}, {high:.3f}] vs majority ({majority_label}) "
        f"{majority_accuracy:.3f}, {direction}; one-sided exact McNemar p = {p_value:.2g} "
        f"({only_part} of {discordant} discordant rows right only with the part; binomial, "
        "greater than half); "
        f"{model} on {part} alone, {setting}; Wilson 95 % over rows (ignores the variance "
        "between fits)"
    )
    return {
        "candidate": f"{part} alone",
        "kind": "partial-input",
        "part": part,
        "support": n,
        "p_value": p_value,
        "detail": detail,
        "accuracy": accuracy,
        "accuracy_low": low,
        "accuracy_high": high,
        "majority_accuracy": majority_accuracy,
        "majority_label": majority_label.item()
        if hasattr(majority_label, "item")
        else majority_label,
        "rows": n,
        "model": model,
        "evaluated_on": setting,
    }


def one_sided_mcnemar(only_first: int, discordant: int) -> float:
    """P(X >= only_first) for X ~ Bin(discordant, 1/2): the exact McNemar test, one-sided (the
    first is right more often than the second); 1 without discordant rows.

    Examples:
        >>> one_sided_mcnemar(5, 5), one_sided_mcnemar(0, 5), one_sided_mcnemar(0, 0)
        (0.03125, 1.0, 1.0)
    """
    if discordant == 0:
        return 1.0
    from scipy.stats import binom  # only here: importing scipy.stats costs every audit 0.5 s

    return float(min(binom.sf(only_first - 1, discordant, 0.5), 1.0))


def _cross_validated(
    train: AuditInputs,
    part: str,
    groups: np.ndarray,
    model: str,
    params: Mapping[str, Any] | None,
    seed: int,
    folds: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold predictions of ``part`` alone, and each row's fold's majority label."""
    from sklearn.model_selection import StratifiedGroupKFold

    splitter = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    predicted = np.zeros(len(train), dtype=np.int64)
    majority = np.zeros(len(train), dtype=np.int64)
    texts = train.part(part)
    for fitting, held_out in splitter.split(np.zeros(len(train)), train.ranks, groups):
        fitted = _fit(train.select(fitting), part, model, params, seed)
        predicted[held_out] = fitted.predict_proba([texts[i] for i in held_out]).argmax(axis=1)
        majority[held_out] = _majority(train.ranks[fitting], len(train.labels))
    return predicted, majority


def shared_text_groups(table: AuditInputs) -> np.ndarray:
    """A group number per row: rows linked by the same (normalised) text in any part share one.

    Examples:
        >>> from shortcutlab.data.labels import LabelSpace
        >>> pairs = AuditInputs(np.arange(4), ["a", "A", "b", "c"], np.zeros(4, int), LabelSpace((0, 1)), ["x", "y", "y", "z"])
        >>> shared_text_groups(pairs).tolist()
        [0, 0, 0, 1]
    """
    n = len(table)
    keys: dict[tuple[str, str], int] = {}
    rows, nodes = [], []
    for part in table.parts():
        for row, text in enumerate(normalised_texts(table.part(part))):
            rows.append(row)
            nodes.append(n + keys.setdefault((part, text), len(keys)))
    size = n + len(keys)
    graph = sp.coo_matrix((np.ones(len(rows)), (rows, nodes)), shape=(size, size))
    _, component = connected_components(graph, directed=False)
    # numbered by first row, so the folds do not depend on scipy's labelling
    _, first = np.unique(component[:n], return_index=True)
    order = np.argsort(first)
    renumber = np.empty(len(order), dtype=np.int64)
    renumber[order] = np.arange(len(order))
    return renumber[np.searchsorted(np.unique(component[:n]), component[:n])]


def _fit(
    train: AuditInputs, part: str, model: str, params: Mapping[str, Any] | None, seed: int
) -> Any:
    classifier = make_model(model, params, seed=seed)
    classifier.set_label_values(train.labels.values)
    return classifier.fit(train.part(part), train.ranks, n_classes=len(train.labels))


def _majority(ranks: np.ndarray, n_classes: int) -> int:
    """The most frequent label rank (the lowest rank among ties)."""
    return int(np.argmax(np.bincount(ranks, minlength=n_classes)))


def _check_folds(folds: int, train: AuditInputs) -> None:
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise ConfigError(
            f"The 'folds' parameter of partial_input_baselines must be an integer >= 2. "
            f"Got {quoted(folds)} instead."
        )
    largest = int(np.bincount(train.ranks).max())
    if largest < folds:
        raise DataError(
            f"{folds}-fold cross-validation needs at least {folds} training rows of some label; "
            f"the most frequent label has {largest}. Lower folds or pass a test table."
        )
