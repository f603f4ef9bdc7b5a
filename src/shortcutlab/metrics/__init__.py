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
``registry``, ``params``, ``lazy_exports``).
"""

from __future__ import annotations

from shortcutlab.lazy_exports import lazy_exports

# Submodules load on first use (PEP 562): reading the metric registry costs numpy, not scipy.
_LAZY = {
    "CORRECTIONS": "shortcutlab.metrics.corrections",
    "INVALID": "shortcutlab.metrics.classification",
    "METRICS": "shortcutlab.metrics.catalog",
    "Metric": "shortcutlab.metrics.catalog",
    "accuracy": "shortcutlab.metrics.classification",
    "adjust_p": "shortcutlab.metrics.corrections",
    "bootstrap_contrast": "shortcutlab.metrics.significance",
    "bootstrap_delta": "shortcutlab.metrics.significance",
    "bootstrap_deltas": "shortcutlab.metrics.significance",
    "bootstrap_mps_gaps": "shortcutlab.metrics.worst_group",
    "bootstrap_p_value": "shortcutlab.metrics.resampling",
    "cochran_mantel_haenszel": "shortcutlab.metrics.proportions",
    "confusion": "shortcutlab.metrics.classification",
    "expected_calibration_error": "shortcutlab.metrics.classification",
    "fit_metric_names": "shortcutlab.metrics.catalog",
    "group_accuracies": "shortcutlab.metrics.worst_group",
    "holm": "shortcutlab.metrics.corrections",
    "macro_f1": "shortcutlab.metrics.classification",
    "mcnemar_exact": "shortcutlab.metrics.significance",
    "metric_titles": "shortcutlab.metrics.catalog",
    "mps_gaps": "shortcutlab.metrics.worst_group",
    "per_label_accuracy": "shortcutlab.metrics.classification",
    "percentile_interval": "shortcutlab.metrics.resampling",
    "resample": "shortcutlab.metrics.resampling",
    "split_metric_names": "shortcutlab.metrics.catalog",
    "worst_label_accuracy": "shortcutlab.metrics.worst_group",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


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
