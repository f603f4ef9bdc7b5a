"""The metric registry: every metric a result table shows is one entry of :data:`METRICS`.

An entry is a :class:`Metric`, registered under its name (the stem of its result columns,
``accuracy`` gives ``test_accuracy_mean``, ``delta_accuracy_ci_low``, ``p_accuracy``, ...): the
title tables print, whether higher is better, its kernel, and how a paired difference of it is
tested. The kernel computes the metric from a stack of confusion matrices (true label × predicted
label, invalid answers in a last column): every bootstrap builds one such stack per chunk of
resamples and each metric reads it, so adding a metric adds no resampling loop.

Two capabilities say where a metric is measured:

- ``per_split`` (default true): scored on each evaluated split of a cell; its drop Δ = test −
  anti-test, interval and p-value are columns of every group (Shortcut Maze, ``evaluate``);
- ``per_fit`` (default false): scored for each fit of a pair trained on one test set (the MPS
  Imbalanced and Balanced fits).

Adding a metric is one entry (a test registers one and removes it again):

Examples:
    >>> METRICS.add("error_rate", Metric("Error rate", lambda m: 1 - accuracy_from_confusion(m),
    ...                                  higher_is_better=False))
    >>> split_metric_names()
    ['accuracy', 'macro_f1', 'error_rate']
    >>> METRICS.remove("error_rate")
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from shortcutlab.metrics.classification import (
    accuracy_from_confusion,
    confusion,
    macro_f1_from_confusion,
    worst_label_accuracy_from_confusion,
)
from shortcutlab.params import quoted
from shortcutlab.registry import Registry

#: How a paired difference of a metric (test against anti-test, a method against erm) is tested.
MCNEMAR = "mcnemar"  # exact McNemar test of per-row correctness; the largest p over distinct fits
BOOTSTRAP = "bootstrap"  # normal approximation on the bootstrap standard error
PAIRED_TESTS = {
    MCNEMAR: "the largest exact McNemar p over distinct fits",
    BOOTSTRAP: "a normal approximation on the bootstrap standard error",
}


@dataclass(frozen=True)
class Metric:
    """One metric: its title, its kernel (a stack of (K, K + 1) confusion matrices to one value
    each; ``None`` where labels alone do not give it), direction and paired test."""

    title: str
    of_confusion: Callable[[np.ndarray], np.ndarray] | None
    higher_is_better: bool = True
    paired_test: str = BOOTSTRAP
    abbreviation: str = ""  # the short title of compact tables (MPS: ACC, W-ACC); title if empty

    def __post_init__(self) -> None:
        if self.paired_test not in PAIRED_TESTS:
            raise ValueError(
                f"A metric's paired test is one of {', '.join(PAIRED_TESTS)}; got {quoted(self.paired_test)}."
            )
        # Cells run McNemar on per-row correctness: it tests a difference of accuracy only.
        if self.paired_test == MCNEMAR and self.of_confusion is not accuracy_from_confusion:
            raise ValueError(
                f"{self.title}: the exact McNemar test compares per-row correctness, the paired "
                "test of accuracy only; give this metric paired_test='bootstrap'."
            )

    @property
    def short_title(self) -> str:
        return self.abbreviation or self.title

    def score(self, *, y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> float:
        """The metric of predicted label ranks ``y_pred`` (-1: no valid answer) against ``y_true``.

        Examples:
            >>> METRICS.get("accuracy").score(y_true=np.array([0, 1]), y_pred=np.array([0, -1]), n_classes=2)
            0.5
        """
        if self.of_confusion is None:
            raise ValueError(f"{self.title} is not a function of the labels alone.")
        matrix = confusion(y_true=y_true, y_pred=y_pred, n_classes=n_classes)
        return float(self.of_confusion(matrix))


METRICS: Registry[Metric] = Registry("metric", capabilities={"per_split": True, "per_fit": False})
METRICS.add(
    "accuracy",
    Metric("Accuracy", accuracy_from_confusion, paired_test=MCNEMAR, abbreviation="ACC"),
    per_fit=True,
)
METRICS.add("macro_f1", Metric("Macro-F1", macro_f1_from_confusion))
METRICS.add(
    "w_acc",
    Metric("Worst-label accuracy", worst_label_accuracy_from_confusion, abbreviation="W-ACC"),
    per_split=False,
    per_fit=True,
)
# Needs each row's (label, attribute value) group: computed from a cell's per-group accuracies
# (``families.mps.summary.worst_group_accuracy``), never bootstrapped.
METRICS.add(
    "wga",
    Metric("Worst-group accuracy", None, abbreviation="WGA"),
    per_split=False,
    per_fit=True,
)


def split_metric_names() -> list[str]:
    """The metrics scored on each evaluated split of a cell, in registration order."""
    return [n for n in METRICS.registration_order() if METRICS.capabilities(n)["per_split"]]


def fit_metric_names() -> list[str]:
    """The metrics scored for each fit of a pair on one test set, in registration order."""
    return [n for n in METRICS.registration_order() if METRICS.capabilities(n)["per_fit"]]


def metric_titles(names: list[str]) -> dict[str, str]:
    """Name -> title of ``names``, in their order."""
    return {name: METRICS.get(name).title for name in names}
