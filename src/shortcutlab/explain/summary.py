"""What explained rows say about a model and its cue: the Shortcut Maze Table 4 layout, the share
of rows whose top token is the cue, whether occlusion agrees in sign with SHAP, and how much of the
cue a rationale selected.

Every function reads :class:`RowAttribution` lists and returns plain numbers, dicts or DataFrames.
The intervals resample the explained rows only: one fitted model per method, so the variance of
fitting again with another seed is not in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.explain.explained import RowAttribution
from shortcutlab.explain.tokens import visible_characters
from shortcutlab.metrics.resampling import percentile_interval, resampled_means

OTHERS = "others"
#: An attribution or occlusion this close to zero has no sign (a model that never saw the cue's
#: words moves by rounding error only).
ZERO = 1e-9
N_RESAMPLES = 2000


def token_table(
    rows: Sequence[RowAttribution], labels: Sequence[Any], *, absolute: bool = False
) -> pd.DataFrame:
    """Maze Table 4: mean SHAP value (or |SHAP|) per label of the cue's tokens, one row per cue
    group (the side a row's cue came from, e.g. country / city), and of every other token."""
    groups = list(dict.fromkeys(row.group for row in rows))
    pooled: dict[str, list[np.ndarray]] = {name: [] for name in [*groups, OTHERS]}
    for row in rows:
        values = np.abs(row.values) if absolute else row.values
        pooled[row.group].append(values[row.in_cue])
        pooled[OTHERS].append(values[~row.in_cue])
    table = {name: _column_means(parts, len(labels)) for name, parts in pooled.items()}
    frame = pd.DataFrame.from_dict(table, orient="index", columns=[str(v) for v in labels])
    frame.index.name = "tokens"
    frame.insert(0, "count", [sum(len(p) for p in pooled[name]) for name in pooled])
    return frame


def _column_means(parts: list[np.ndarray], k: int) -> np.ndarray:
    stacked = np.concatenate(parts) if parts else np.zeros((0, k))
    return stacked.mean(axis=0) if len(stacked) else np.full(k, np.nan)


def per_row_abs(rows: Sequence[RowAttribution]) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the mean |SHAP| (over labels) of its cue tokens and of its other tokens (NaN
    for a row whose every token is the cue)."""
    cue, other = [], []
    for row in rows:
        magnitude = np.abs(row.values).mean(axis=1)
        cue.append(magnitude[row.in_cue].mean())
        others = magnitude[~row.in_cue]
        other.append(others.mean() if len(others) else np.nan)
    return np.array(cue), np.array(other)


def top_token_in_cue(rows: Sequence[RowAttribution]) -> dict[str, float]:
    """Share of rows whose largest |SHAP| token (for the predicted label) is part of the cue, and
    the share a token drawn at random would give (the cue's share of each row's tokens)."""
    hits = [bool(row.in_cue[np.argmax(np.abs(row.values[:, row.predicted]))]) for row in rows]
    chance = [float(row.in_cue.mean()) for row in rows]
    return {"share": float(np.mean(hits)), "chance": float(np.mean(chance))}


def sign_agreement(rows: Sequence[RowAttribution]) -> dict[str, Any]:
    """On the predicted label: does removing the cue move the probability the way the cue's summed
    SHAP value says? Rows where occlusion changes nothing have no sign and are left out."""
    signs = [
        (
            np.sign(_zeroed(row.cue_values[row.predicted])),
            np.sign(_zeroed(row.occlusion[row.predicted])),
        )
        for row in rows
    ]
    counted = [(shap, occlusion) for shap, occlusion in signs if occlusion != 0]
    agree = [shap == occlusion for shap, occlusion in counted]
    return {
        "share": float(np.mean(agree)) if agree else None,
        "rows": len(counted),
        "rows_without_change": len(signs) - len(counted),
    }


def _zeroed(value: float) -> float:
    return 0.0 if abs(value) <= ZERO else float(value)


def occlusion_summary(rows: Sequence[RowAttribution]) -> dict[str, float]:
    """Mean change of the predicted label's probability when the cue is removed, and the mean
    total variation (half the summed |change| over labels: how far the cue moves the output)."""
    predicted = [row.occlusion[row.predicted] for row in rows]
    moved = [0.5 * np.abs(row.occlusion).sum() for row in rows]
    return {"predicted_label": float(np.mean(predicted)), "total_variation": float(np.mean(moved))}


def rationale_overlap(rows: Sequence[RowAttribution]) -> dict[str, Any] | None:
    """For models that select a rationale: the share of the cue's characters it kept (recall),
    the share of its characters that are the cue (precision), rows where it touches the cue."""
    chosen = [row for row in rows if row.rationale is not None]
    if not chosen:
        return None
    recall, precision, touched = [], [], []
    for row in chosen:
        cue = visible_characters(row.text, row.spans)
        kept = visible_characters(row.text, row.rationale or [])
        shared = len(cue & kept)
        recall.append(shared / len(cue) if cue else np.nan)
        if kept:
            precision.append(shared / len(kept))
        touched.append(shared > 0)
    return {
        "cue_recall": float(np.nanmean(recall)),
        "precision": float(np.mean(precision)) if precision else None,
        "rows_touching_cue": float(np.mean(touched)),
        "rows": len(chosen),
    }


def mean_with_interval(values: np.ndarray, *, seed: int) -> dict[str, Any]:
    """Mean over rows with a percentile bootstrap interval (rows resampled, seeded)."""
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    if len(values) < 2:
        return {"mean": float(values.mean()) if len(values) else None, "interval_95": None}
    # cost=0: all resamples in one draw, as these intervals were first computed (chunks would
    # draw other rows from the same seed).
    means = resampled_means(values, n_resamples=N_RESAMPLES, seed=seed, cost=0)
    return {"mean": float(values.mean()), "interval_95": percentile_interval(means)}


def summarize(
    rows: Sequence[RowAttribution], labels: Sequence[Any], *, seed: int
) -> dict[str, Any]:
    """Everything printed and written for one model's explained rows."""
    cue, other = per_row_abs(rows)
    pooled_cue = np.concatenate([np.abs(r.values[r.in_cue]).ravel() for r in rows])
    pooled_other = np.concatenate([np.abs(r.values[~r.in_cue]).ravel() for r in rows])
    return {
        "rows": len(rows),
        "mean_abs_shap": {
            "cue": float(pooled_cue.mean()),
            "others": float(pooled_other.mean()) if len(pooled_other) else None,
            "cue_minus_others_per_row": mean_with_interval(cue - other, seed=seed),
        },
        "top_token_in_cue": top_token_in_cue(rows),
        "sign_agreement": sign_agreement(rows),
        "occlusion": occlusion_summary(rows),
        "rationale": rationale_overlap(rows),
        "table": _records(token_table(rows, labels)),
        "table_abs": _records(token_table(rows, labels, absolute=True)),
    }


def compare(
    before: Sequence[RowAttribution], after: Sequence[RowAttribution], *, seed: int
) -> dict[str, Any]:
    """After minus before on the same rows: the cue tokens' mean |SHAP| and the total variation
    of occlusion, each a mean of per-row changes with an interval over rows."""
    if [r.row_id for r in before] != [r.row_id for r in after]:
        raise RuntimeError("Bug: before and after must explain the same rows in the same order.")
    cue_before, _ = per_row_abs(before)
    cue_after, _ = per_row_abs(after)
    moved_before = np.array([0.5 * np.abs(r.occlusion).sum() for r in before])
    moved_after = np.array([0.5 * np.abs(r.occlusion).sum() for r in after])
    return {
        "cue_abs_shap": mean_with_interval(cue_after - cue_before, seed=seed),
        "occlusion_total_variation": mean_with_interval(moved_after - moved_before, seed=seed + 1),
        "top_token_in_cue": top_token_in_cue(after)["share"] - top_token_in_cue(before)["share"],
    }


def _records(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    return {
        str(name): {
            column: (
                None if pd.isna(value) else (int(value) if column == "count" else float(value))
            )
            for column, value in row.items()
        }
        for name, row in frame.iterrows()
    }
