"""Metrics: pure functions over label-rank arrays."""

from shortcutlab.metrics.classification import (
    INVALID,
    accuracy,
    confusion,
    expected_calibration_error,
    macro_f1,
    per_label_accuracy,
)
from shortcutlab.metrics.significance import (
    bootstrap_delta,
    bootstrap_deltas,
    bootstrap_p_value,
    holm,
    mcnemar_exact,
    percentile_interval,
)

__all__ = [
    "INVALID",
    "accuracy",
    "bootstrap_delta",
    "bootstrap_deltas",
    "bootstrap_p_value",
    "confusion",
    "expected_calibration_error",
    "holm",
    "macro_f1",
    "mcnemar_exact",
    "per_label_accuracy",
    "percentile_interval",
]
