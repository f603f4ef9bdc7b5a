"""MPS result tables (paper 002): δ / Δ per dataset × attribute (Tables 2-3), W-ACC and ACC of
both fits, traditional worst-group accuracy, cross-testing (A.7 Table 9) and label entropy
(Table 11), with the footnotes that say what each number accounts for.

Presentation only: every number comes from a tidy row of ``MpsRunResults.groups`` / ``cross`` /
``entropy``. Cells are text: ``mean ± sd`` (``—`` where nothing varied), with ``*`` and the
bootstrap interval on δ and Δ.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from shortcutlab.errors import knob, listed
from shortcutlab.families.mps.summary import CROSS_METRICS
from shortcutlab.metrics import METRICS, fit_metric_names
from shortcutlab.params import check_choice
from shortcutlab.reports.tables import NOT_MEASURED, nothing_varied_note, with_mitigations

GAP_TITLES = {"delta_isolated": "δ", "delta_overall": "Δ", "zeta": "ζ"}
FIT_TITLES = {"imbalanced": "Imbalanced", "balanced": "Balanced"}
NO_GROUP = "n/a"  # a traditional WGA with no (label, value) group large enough
NOT_MEASURABLE_CELL = "not measurable"  # a gap its build cannot measure (measurable.py)


def spread(mean: float, std: float) -> str:
    """``0.712 ± 0.013``, or ``0.712 ± —`` where nothing varied (a spread not measured, not 0).

    Examples:
        >>> spread(0.7123, float("nan")), spread(0.5, 0.01)
        ('0.712 ± —', '0.500 ± 0.010')
    """
    return f"{mean:.3f} ± {NOT_MEASURED if _missing(std) else f'{std:.3f}'}"


def gap_table(groups: pd.DataFrame) -> pd.DataFrame:
    """Rows (model, attribute[, mitigation]: δ and Δ per method, MPS Table 3), columns (dataset,
    δ | Δ | ζ); ``*`` marks a significant δ."""

    def cell(group: pd.Series, gap: str) -> str:
        if _missing(group[f"{gap}_mean"]):
            return NOT_MEASURABLE_CELL  # the footnote says why
        star = "*" if group.get(f"significant_{gap}", False) else ""
        mean = f"{group[f'{gap}_mean']:.3f}{star}"
        sd = NOT_MEASURED if _missing(group[f"{gap}_std"]) else f"{group[f'{gap}_std']:.3f}"
        return f"{mean} ± {sd} [{group[f'{gap}_ci_low']:.3f}, {group[f'{gap}_ci_high']:.3f}]"

    return _by_dataset(
        groups, {title: (lambda g, gap=gap: cell(g, gap)) for gap, title in GAP_TITLES.items()}
    )


def fit_table(groups: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Rows (model, attribute), columns (dataset, Imbalanced | Balanced) of W-ACC (with the worst
    label), ACC, or the traditional worst-group accuracy (with the smallest group's size)."""
    check_choice("metric", metric, fit_metric_names())

    def cell(group: pd.Series, fit: str) -> str:
        mean = group[f"{metric}_{fit}_mean"]
        if _missing(mean):
            return NO_GROUP
        text = spread(mean, group[f"{metric}_{fit}_std"])
        return f"{text} ({group[f'worst_label_{fit}']})" if metric == "w_acc" else text

    columns: dict[str, Any] = {
        title: (lambda g, fit=fit: cell(g, fit)) for fit, title in FIT_TITLES.items()
    }
    if metric == "wga":
        columns["smallest group"] = lambda g: str(int(g["smallest_group_rows"]))
    return _by_dataset(groups, columns)


def cross_test_table(cross: pd.DataFrame) -> pd.DataFrame:
    """Rows (model, dataset, trained on), columns (tested on, W-ACC | ACC); each cell is
    ``Balanced / Imbalanced`` (the paper's red / black), the mean over distinct fits."""
    tested = list(dict.fromkeys(cross["tested_on"]))
    levels = ["model", *(["mitigation"] if with_mitigations(cross) else []), "dataset", "attribute"]
    index, data = [], []
    for keys, part in cross.groupby(levels, sort=False):
        by_test = {row["tested_on"]: row for _, row in part.iterrows()}
        values = []
        for test in tested:
            for metric in CROSS_METRICS:
                row = by_test.get(test)
                values.append(
                    "—"
                    if row is None
                    else f"{row[f'{metric}_balanced_mean']:.3f} / {row[f'{metric}_imbalanced_mean']:.3f}"
                )
        index.append(keys)
        data.append(values)
    columns = pd.MultiIndex.from_tuples(
        [(test, METRICS.get(m).short_title) for test in tested for m in CROSS_METRICS],
        names=["tested on", ""],
    )
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(index, names=[*levels[:-1], "trained on"]),
        columns=columns,
    )


def entropy_table(entropy: pd.DataFrame) -> pd.DataFrame:
    """Rows (dataset, attribute), columns per split: the mean normalised label entropy over the
    attribute's values (1 = labels uniform within every value)."""
    splits = [c for c in ("Imbalanced", "Balanced", "Test", "Validation") if c in entropy]
    return entropy.set_index(["dataset", "attribute"])[splits]


def mps_notes(groups: pd.DataFrame) -> list[str]:
    """Footnotes of the δ / Δ and W-ACC / ACC tables."""
    tests = int(groups["p_delta_isolated"].notna().sum())
    notes = [
        "δ = W-ACC(Balanced) − W-ACC(Imbalanced); Δ = ACC(Balanced) − W-ACC(Imbalanced); "
        "ζ = ACC(Balanced) − W-ACC(Balanced), so Δ = ζ + δ (paper 002, A.5.4). W-ACC: the "
        "lowest accuracy within one true label (A.5.1), its label in parentheses.",
        f"* significant δ: Holm–Bonferroni-adjusted two-sided p < 0.05 over the {tests} δ tests "
        f"of this table (every dataset × attribute × model{' × mitigation' if with_mitigations(groups) else ''}); "
        "p from a normal approximation on the "
        "paired bootstrap standard error. Δ and ζ carry no star: Δ = ζ + δ and ζ > 0 whenever "
        "per-label accuracies differ, so Δ = 0 would be rejected without any attribute effect "
        "(its unadjusted p is in the csv/json output).",
    ]
    one_fit = groups["ci_resamples"] == "rows"
    rows_only = (
        "percentile bootstrap over the test rows, the same rows for both fits (paired), "
        "conditional on the fitted models: training and data-draw variance are not included"
    )
    if one_fit.all():
        notes.append(f"[low, high]: 95 % {rows_only}.")
    else:
        notes.append(
            "[low, high]: 95 % two-level percentile bootstrap over the test rows (paired between "
            "the fits) and the distinct fits (seeds, builds)"
            + (f"; where the spread is —, {rows_only}." if one_fit.any() else ".")
        )
    notes += spread_notes(groups) + not_measurable_notes(groups)
    averaged = groups.dropna(subset=["epochs"]) if "epochs" in groups else groups.iloc[:0]
    for model, epochs in averaged.groupby("model", sort=False)["epochs"].first().items():
        notes.append(
            f"{model}: every metric is the mean over its last {int(epochs)} epochs (section 3); "
            "the bootstrap averages the epochs, it does not resample them."
        )
    return notes


def spread_notes(groups: pd.DataFrame) -> list[str]:
    """The footnote of a spread printed as ``—`` (the Maze tables' own), where some group has
    one distinct fit."""
    if (groups["ci_resamples"] == "rows").any():
        return [f"± sd over distinct fits; {nothing_varied_note('the spread')}"]
    return []


def not_measurable_notes(groups: pd.DataFrame) -> list[str]:
    """One footnote per dataset × attribute whose builds cannot measure some figure: which
    figures, and why (``not_measurable``, from the build manifests)."""
    if "not_measurable" not in groups:
        return []
    flagged = groups[groups["not_measurable"].fillna("").astype(bool)]
    reasons = dict.fromkeys(
        (row["dataset"], row["attribute"], row["not_measurable"]) for _, row in flagged.iterrows()
    )
    return [
        f"{dataset}, {attribute}: {text}. No number is printed for these figures."
        for dataset, attribute, text in reasons
    ]


def label_mix_shifts(
    label_counts: pd.DataFrame, tolerance: float = 0.05
) -> dict[tuple[str, str], float]:
    """(dataset, attribute) -> the total variation distance between the overall label mixes of
    its Imbalanced and Balanced sets, for the builds where it is above ``tolerance``."""
    shifted: dict[tuple[str, str], float] = {}
    if label_counts.empty:
        return shifted
    for (dataset, attribute), part in label_counts.groupby(["dataset", "attribute"], sort=False):
        mixes = {
            split: rows.groupby("label")["rows"].sum()
            for split, rows in part.groupby("split")
            if split in ("imbalanced", "balanced")
        }
        if len(mixes) < 2:
            continue
        first, second = (m / m.sum() for m in (mixes["imbalanced"], mixes["balanced"]))
        distance = 0.5 * float(first.sub(second, fill_value=0).abs().sum())
        if distance > tolerance:
            shifted[(dataset, attribute)] = distance
    return shifted


def label_mix_notes(label_counts: pd.DataFrame, tolerance: float = 0.05) -> list[str]:
    """A footnote naming the builds whose Imbalanced and Balanced sets differ in overall label mix
    (total variation distance above ``tolerance``): there δ also measures a label prior."""
    shifted = [
        f"{dataset} {attribute} {distance:.2f}"
        for (dataset, attribute), distance in label_mix_shifts(label_counts, tolerance).items()
    ]
    if not shifted:
        return []
    return [
        "Label mix: Imbalanced and Balanced differ in overall label shares (total variation "
        f"distance) in {listed(shifted)}; there δ also measures the label prior the "
        "Imbalanced fit learns, not only the attribute (the paper's builds share this). "
        f"{knob('label_mix', 'matched', section='mps')} sizes the groups to remove it."
    ]


def wga_notes(min_group_size: int) -> list[str]:
    return [
        f"WGA: traditional worst-group accuracy over the (label, value) groups of the test set "
        f"with at least {min_group_size} rows (min_group_size); smaller groups are left out "
        f"because a group of a few rows gives 0 % or 100 % by chance (A.5.2, Table 8). "
        f"{NO_GROUP}: no group is large enough. smallest group: the smallest group's test rows."
    ]


def cross_notes() -> list[str]:
    return [
        "Each cell: Balanced fit / Imbalanced fit (the paper's red / black), mean over distinct "
        "fits; rows: the attribute whose builds the model was trained on; columns: the attribute "
        "whose test set it was scored on (A.7), without the rows whose text the trained-on build "
        "holds (builds draw their test sets from one pool independently). Spreads are in "
        "cross_test.csv."
    ]


def _by_dataset(groups: pd.DataFrame, columns: dict[str, Any]) -> pd.DataFrame:
    """Rows (model, attribute[, mitigation]), columns (dataset, title) filled by
    ``columns[title](group)``; a run with mitigations gets a row per method (MPS Table 3)."""
    datasets = list(dict.fromkeys(groups["dataset"]))
    levels = ["model", "attribute", *(["mitigation"] if with_mitigations(groups) else [])]
    found = {(*(g[c] for c in levels), g["dataset"]): g for _, g in groups.iterrows()}
    index, data = [], []
    for key in dict.fromkeys(tuple(g[c] for c in levels) for _, g in _row_order(groups, levels)):
        index.append(key)
        data.append(
            [
                make(found[(*key, dataset)]) if (*key, dataset) in found else ""
                for dataset in datasets
                for make in columns.values()
            ]
        )
    return pd.DataFrame(
        data,
        index=pd.MultiIndex.from_tuples(index, names=levels),
        columns=pd.MultiIndex.from_product([datasets, list(columns)], names=["dataset", ""]),
    )


def _row_order(groups: pd.DataFrame, levels: list[str]) -> Any:
    """Rows sorted by each level's first appearance (spec order), model first."""
    ranks = {c: {v: i for i, v in enumerate(dict.fromkeys(groups[c]))} for c in levels}
    ordered = groups.assign(**{f"_{c}": groups[c].map(ranks[c]) for c in levels})
    return ordered.sort_values([f"_{c}" for c in levels], kind="stable").iterrows()


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
