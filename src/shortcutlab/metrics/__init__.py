"""Metrics and statistics: pure functions over label-rank arrays, and the one home of the package's
statistics.

- ``catalog``: the metric registry :data:`METRICS` (name, title, direction, bootstrap kernel,
  paired test); cell scoring, significance and every result table read it.
- ``classification``: accuracy, macro-F1, per-label accuracy, confusion matrices, ECE.
- ``resampling``: the one bootstrap engine (rows, and fits for a two-level bootstrap), the
  percentile interval and the bootstrap p-value.
- ``significance``: the exact McNemar test and the paired bootstrap of a drop or a contrast.
- ``corrections``: Holm and Benjamini–Hochberg over many p-values.
- ``proportions``: unpaired comparisons (two-proportion z-test, Cochran–Mantel–Haenszel, the
  bootstrap of a mean).
- ``worst_group``: the MPS paper's W-ACC, worst-group accuracy and the gaps δ, Δ, ζ.
- ``association``: indicators and columns against the labels (G-test, chi-squared, drift).
- ``agreement``, ``attentiveness``, ``explanations``: annotator agreement, CAT attentiveness, the
  Shortcut Suite's explanation scores.

It imports only numpy, scipy, scikit-learn and the package's neutral helpers (``errors``,
``registry``, ``params``).
"""

from shortcutlab.metrics.catalog import (
    METRICS,
    Metric,
    fit_metric_names,
    metric_titles,
    split_metric_names,
)
from shortcutlab.metrics.classification import (
    INVALID,
    accuracy,
    confusion,
    expected_calibration_error,
    macro_f1,
    per_label_accuracy,
)
from shortcutlab.metrics.corrections import CORRECTIONS, adjust_p, holm
from shortcutlab.metrics.proportions import cochran_mantel_haenszel
from shortcutlab.metrics.resampling import bootstrap_p_value, percentile_interval, resample
from shortcutlab.metrics.significance import (
    bootstrap_contrast,
    bootstrap_delta,
    bootstrap_deltas,
    mcnemar_exact,
)
from shortcutlab.metrics.worst_group import (
    bootstrap_mps_gaps,
    group_accuracies,
    mps_gaps,
    worst_label_accuracy,
)

__all__ = [
    "CORRECTIONS",
    "INVALID",
    "METRICS",
    "Metric",
    "accuracy",
    "adjust_p",
    "bootstrap_contrast",
    "bootstrap_delta",
    "bootstrap_deltas",
    "bootstrap_mps_gaps",
    "bootstrap_p_value",
    "cochran_mantel_haenszel",
    "confusion",
    "expected_calibration_error",
    "fit_metric_names",
    "group_accuracies",
    "holm",
    "macro_f1",
    "mcnemar_exact",
    "metric_titles",
    "mps_gaps",
    "per_label_accuracy",
    "percentile_interval",
    "resample",
    "split_metric_names",
    "worst_label_accuracy",
]
