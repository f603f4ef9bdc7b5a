"""Whether an MPS build can measure δ, Δ and ζ at all (paper 002, A.5).

δ compares a fit on Imbalanced with a fit on Balanced; it measures the attribute only when the
two sets differ in label mix within the attribute groups (Table 11's normalised label entropy)
and every label and group has enough rows to be learned and scored. A build that fails either
condition (an annotator whose groups each hold one label, so Balanced cannot even them out; a
label with a handful of rows) would print a number that reads as a measured "no effect". The
build records the reasons in its manifest (``not_measurable``) and warns once; ``results`` and
the report print the affected figures as not measurable, with the reason, never a number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from shortcutlab.errors import knob, listed, warn
from shortcutlab.families.mps.redistribute import normalised_entropy
from shortcutlab.families.mps.summary import GAPS

#: The smallest gap in mean normalised label entropy within groups (Balanced − Imbalanced) that
#: counts as a difference. The paper's builds differ by 0.1 to 0.5 (Table 11; dominance 0.75 of
#: 2 labels gives 0.19); a gap of 0.01 is a binary group at 56 % against 50 %, within the
#: sampling noise of one test set, so δ there would measure noise, not the attribute.
MIN_ENTROPY_DIFFERENCE = 0.01
#: The fewest rows a label (or an attribute group) may have in Imbalanced, Balanced or the test
#: set. Below it a fit cannot learn the label and its per-label accuracy moves in steps of a
#: tenth or more, so W-ACC reports the label's scarcity, not the attribute (A.5.2 makes the
#: same argument for small groups; ``min_group_size`` of the traditional WGA defaults to 10).
MIN_ROWS = 10

ISOLATED, OVERALL, ZETA = GAPS
NOT_MEASURABLE = "not_measurable"  # the manifest key and the results column
TITLES = {ISOLATED: "δ", OVERALL: "Δ", ZETA: "ζ"}
SPLIT_TITLES = {"imbalanced": "Imbalanced", "balanced": "Balanced", "test": "the test set"}
# The figures each split's scarcity touches: δ and Δ read W-ACC(Imbalanced); δ, Δ and ζ read the
# Balanced fit; all three are scored on the test set.
SCARCITY_FIGURES = {
    "imbalanced": (ISOLATED, OVERALL),
    "balanced": (ISOLATED, OVERALL, ZETA),
    "test": (ISOLATED, OVERALL, ZETA),
}


def measurability(label_counts: Mapping[str, Mapping[str, Mapping[str, int]]]) -> dict[str, Any]:
    """The manifest's record: the thresholds, the entropy difference and the reasons (a list
    of ``{"figures": [...], "reason": "..."}``; empty when every figure is measurable).

    ``label_counts`` is ``{split: {value: {label: rows}}}`` (the manifest's splits).

    Examples:
        >>> same = {"a": {"x": 30, "y": 10}, "b": {"x": 10, "y": 30}}
        >>> record = measurability({"imbalanced": same, "balanced": same})
        >>> record["entropy_difference"], record["not_measurable"][0]["figures"]
        (0.0, ['delta_isolated', 'delta_overall'])
    """
    imbalanced, balanced = (_matrix(label_counts.get(s) or {}) for s in ("imbalanced", "balanced"))
    difference = _entropy_difference(imbalanced, balanced)
    reasons = []
    if difference is not None and difference < MIN_ENTROPY_DIFFERENCE:
        reasons.append(
            {
                "figures": [ISOLATED, OVERALL],
                "reason": "Imbalanced and Balanced have the same label mix within groups "
                f"(entropy difference {difference:.3f} < {MIN_ENTROPY_DIFFERENCE})",
            }
        )
    for split, figures in SCARCITY_FIGURES.items():
        counts = label_counts.get(split)
        if counts:
            reasons += _scarce(split, counts, figures)
    return {
        "min_entropy_difference": MIN_ENTROPY_DIFFERENCE,
        "min_rows": MIN_ROWS,
        "entropy_difference": difference,
        NOT_MEASURABLE: reasons,
    }


def warn_not_measurable(reasons: list[dict[str, Any]]) -> None:
    """One warning naming every figure the build cannot measure and why."""
    if reasons:
        warn(
            f"This MPS build cannot measure every figure: {'; '.join(sentences(reasons))}. "
            "'shortcutlab results' and the report will print no number for them. Choose another "
            f"attribute or annotator, keep other values ({knob('values', section='mps')}), or "
            "add rows of the scarce labels."
        )


def sentences(reasons: list[dict[str, Any]]) -> list[str]:
    """``δ, Δ not measurable: <reason>`` per reason."""
    return [
        f"{', '.join(TITLES[f] for f in r['figures'])} not measurable: {r['reason']}"
        for r in reasons
    ]


def manifest_reasons(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A build manifest's reasons; a manifest written before they were recorded is checked from
    its label counts (the same rule)."""
    if NOT_MEASURABLE in manifest:
        return list(manifest[NOT_MEASURABLE])
    splits = manifest.get("splits") or {}
    return measurability({s: r.get("label_counts") or {} for s, r in splits.items()})[
        "not_measurable"
    ]


def _matrix(counts: Mapping[str, Mapping[str, int]]) -> np.ndarray:
    return np.array([list(by_label.values()) for by_label in counts.values()], dtype=np.int64)


def _entropy_difference(imbalanced: np.ndarray, balanced: np.ndarray) -> float | None:
    """Mean normalised label entropy within groups, Balanced minus Imbalanced (None without
    both splits)."""
    if imbalanced.size == 0 or balanced.size == 0 or imbalanced.shape[1] < 2:
        return None
    k = imbalanced.shape[1]
    means = [np.nanmean(normalised_entropy(m, k)) for m in (imbalanced, balanced)]
    return round(float(means[1] - means[0]), 6)


def _scarce(
    split: str, counts: Mapping[str, Mapping[str, int]], figures: tuple[str, ...]
) -> list[dict[str, Any]]:
    """One reason naming every label (and, in the training sets, every attribute group) of
    ``split`` with fewer than MIN_ROWS rows; none where there is none."""
    per_label: dict[str, int] = {}
    for by_label in counts.values():
        for label, rows in by_label.items():
            per_label[label] = per_label.get(label, 0) + int(rows)
    short = [f"label {label!r} ({n})" for label, n in per_label.items() if n < MIN_ROWS]
    if split != "test":  # the test set is drawn per label, not per group
        short += [
            f"group {value!r} ({sum(by_label.values())})"
            for value, by_label in counts.items()
            if sum(by_label.values()) < MIN_ROWS
        ]
    if not short:
        return []
    return [
        {
            "figures": list(figures),
            "reason": f"{SPLIT_TITLES[split]} has fewer than {MIN_ROWS} rows of {listed(short)}",
        }
    ]


def blank_unmeasured(row: dict[str, Any], reasons: list[dict[str, Any]]) -> dict[str, Any]:
    """A group's statistics with every figure a reason names left empty (NaN, never a number),
    and the reasons as text in ``not_measurable`` ("" where every figure is measurable)."""
    row = dict(row)
    for reason in reasons:
        for gap in reason["figures"]:
            for column in (f"{gap}_{stat}" for stat in ("mean", "std", "ci_low", "ci_high")):
                row[column] = math.nan
            if f"p_{gap}" in row:
                row[f"p_{gap}"] = math.nan
    row[NOT_MEASURABLE] = "; ".join(sentences(reasons))
    return row
