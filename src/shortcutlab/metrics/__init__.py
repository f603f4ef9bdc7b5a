"""Metrics: pure functions over label-rank arrays."""

from shortcutlab.metrics.classification import (
    INVALID,
    accuracy,
    confusion,
    expected_calibration_error,
    macro_f1,
    per_label_accuracy,
)
from shortcutlab.metrics.proportions import cochran_mantel_haenszel
from shortcutlab.metrics.significance import (
    benjamini_hochberg,
    bootstrap_contrast,
    bootstrap_delta,
    bootstrap_deltas,
    bootstrap_p_value,
    holm,
    mcnemar_exact,
    percentile_interval,
)
from shortcutlab.metrics.worst_group import (
    bootstrap_mps_gaps,
    group_accuracies,
    mps_gaps,
    worst_label_accuracy,
)

__all__ = [
    "INVALID",
    "accuracy",
    "benjamini_hochberg",
    "bootstrap_contrast",
    "bootstrap_delta",
    "bootstrap_deltas",
    "bootstrap_mps_gaps",
    "bootstrap_p_value",
    "cochran_mantel_haenszel",
    "confusion",
    "expected_calibration_error",
    "group_accuracies",
    "holm",
    "macro_f1",
    "mcnemar_exact",
    "mps_gaps",
    "per_label_accuracy",
    "percentile_interval",
    "worst_label_accuracy",
]
