"""Metrics: pure functions over label-rank arrays."""

from shortcutlab.metrics.classification import accuracy, confusion, macro_f1, per_label_accuracy
from shortcutlab.metrics.significance import bootstrap_delta, mcnemar_exact

__all__ = [
    "accuracy",
    "bootstrap_delta",
    "confusion",
    "macro_f1",
    "mcnemar_exact",
    "per_label_accuracy",
]
