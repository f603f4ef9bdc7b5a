"""Counterfactuals of the Counterfactual Attentiveness Test (CAT, paper 003) and CAT augmentation.

A counterfactual of a pair (x1, x2) keeps x2 and takes x1' from another random row of the same
split (section 3.3): never the row itself and never a row whose x1 is the same text (that would
be no counterfactual). The relation between the parts is then expected to be the task's
*default label* (section 4.2: neutral, non-entailment, not-paraphrase, no-answer). CAT
augmentation (section 6) adds one such counterfactual, labelled with the default label, for every
training row whose label is not the default.

Examples:
    >>> donors = counterfactual_donors(["a", "b", "c", "a"], k=2, seed=0)
    >>> donors.shape, bool((donors != np.arange(4)).all())
    ((2, 4), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.data.writing import write_table
from shortcutlab.errors import ConfigError, DataError, ended, knob, listed
from shortcutlab.params import check_choice, quoted

#: Default labels per task (paper 003 section 4.2); each preset lists the spellings it accepts.
DEFAULT_LABEL_PRESETS: dict[str, tuple[str, ...]] = {
    "nli3": ("neutral",),
    "nli2": ("non-entailment", "not-entailment", "not_entailment", "non_entailment"),
    "paraphrase": ("not-paraphrase", "non-paraphrase", "not_paraphrase", "non_paraphrase"),
    "qa": ("no-answer", "no_answer", "unanswerable"),
}
#: The label set that makes a preset unambiguous when no default label is given.
_PRESET_LABEL_SETS = {"nli3": {"entailment", "neutral", "contradiction"}}
REPLACEABLE = (TEXT, TEXT_PAIR)
#: Columns of the --export-check file; ``assumption_holds`` is left empty for the annotator.
CHECK_COLUMNS = (
    "row_id",
    "donor_row_id",
    TEXT,
    TEXT_PAIR,
    "replaced_text",
    "gold_label",
    "predicted_label",
    "counterfactual_prediction",
    "default_label",
    "assumption_holds",
)


def resolve_default_label(labels: Sequence[Any], given: str | None = None) -> Any:
    """The default label among ``labels``: ``given`` as a preset name or a label value, or,
    without it, the one preset the label set matches (section 4.2)."""
    by_text = {str(v): v for v in labels}
    label_list = listed(labels)
    presets = ", ".join(DEFAULT_LABEL_PRESETS)
    if given is not None:
        if given in DEFAULT_LABEL_PRESETS:
            found = _preset_label(given, labels)
            if found is None:
                raise ConfigError(
                    f"The default label preset '{given}' means "
                    f"{' / '.join(DEFAULT_LABEL_PRESETS[given])}, which is not among the labels "
                    f"({label_list}). Pass {knob('default_label')} with one of the labels."
                )
            return found
        if given in by_text:
            return by_text[given]
        raise ConfigError(
            f"The default label '{given}' is not among the labels ({label_list}) nor a preset "
            f"({presets}). Pass {knob('default_label')} with one of them."
        )
    matches = [name for name in DEFAULT_LABEL_PRESETS if _preset_matches(name, labels)]
    if len(matches) != 1:
        raise ConfigError(
            f"Cannot infer the counterfactual default label from the labels ({label_list}). Pass "
            f"{knob('default_label')} with one of the labels or a preset ({presets})."
        )
    return _preset_label(matches[0], labels)


def _normal(value: Any) -> str:
    return str(value).strip().lower()


def _preset_label(preset: str, labels: Sequence[Any]) -> Any:
    spellings = set(DEFAULT_LABEL_PRESETS[preset])
    return next((v for v in labels if _normal(v) in spellings), None)


def _preset_matches(preset: str, labels: Sequence[Any]) -> bool:
    if _preset_label(preset, labels) is None:
        return False
    required = _PRESET_LABEL_SETS.get(preset)
    if required is not None:
        return {_normal(v) for v in labels} == required
    return len(labels) == 2  # the two-label tasks: NLI-2, paraphrase, answerable-or-not


def counterfactual_donors(firsts: Sequence[str], *, k: int, seed: int) -> np.ndarray:
    """A (k, rows) array: for each set and row, the row whose x1 replaces this row's x1.

    Donors are uniform over the rows whose x1 differs from the row's own x1 (so never the row
    itself). Set ``j`` depends only on ``seed`` and ``j`` (``SeedSequence.spawn``), so the first
    five sets of k = 10 are the sets of k = 5.
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise ConfigError(
            f"The 'k' parameter of CAT must be a whole number >= 1. Got {quoted(k)} instead."
        )
    groups = pd.factorize(pd.Series(list(firsts), dtype=object).astype(str))[0]
    n = len(groups)
    sizes = np.bincount(groups, minlength=1)
    if n < 2 or sizes.max() == n:
        raise DataError(
            f"CAT needs rows with at least two different first texts to swap; the split has {n} "
            f"row(s) and {len(sizes)} distinct first text(s)."
        )
    donors = np.empty((k, n), dtype=np.int64)
    for index, child in enumerate(np.random.SeedSequence(seed).spawn(k)):
        donors[index] = _draw_donors(groups, np.random.default_rng(child))
    return donors


def _draw_donors(groups: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = len(groups)
    rows = np.arange(n)
    drawn = rng.integers(n - 1, size=n)
    drawn += drawn >= rows  # uniform over the other rows
    for _ in range(20):  # redraw the donors that share the row's x1 (rare unless x1 repeats a lot)
        clash = np.flatnonzero(groups[drawn] == groups)
        if not len(clash):
            return drawn
        drawn[clash] = rng.integers(n, size=len(clash))
    for row in np.flatnonzero(groups[drawn] == groups):  # x1 shared by most rows: draw exactly
        drawn[row] = rng.choice(np.flatnonzero(groups != groups[row]))
    return drawn


def counterfactual_frame(
    frame: pd.DataFrame, donors: np.ndarray, rows: np.ndarray, replace: str = TEXT
) -> pd.DataFrame:
    """The ``rows`` (positions) of ``frame`` with column ``replace`` taken from their donors
    (``donors`` holds a donor position for every row of ``frame``) and the donor's row id in
    ``donor_row_id``."""
    check_choice("replace", replace, REPLACEABLE)
    swapped = frame.iloc[rows].reset_index(drop=True)
    swapped[replace] = frame[replace].to_numpy()[donors[rows]]
    swapped["donor_row_id"] = frame[ROW_ID].to_numpy()[donors[rows]]
    return swapped


def cat_augment(
    frame: pd.DataFrame, *, default_label: Any, seed: int, replace: str = TEXT
) -> pd.DataFrame:
    """The training rows plus, for every row whose label is not ``default_label``, one
    counterfactual (``replace`` from another training row) labelled ``default_label``
    (section 6). Added rows get new row ids after the largest one and ``cat_source_row_id``."""
    check_choice("replace", replace, REPLACEABLE)
    if TEXT_PAIR not in frame.columns:
        raise DataError(
            "CAT augmentation needs paired inputs (text and text_pair); name the second text "
            f"with {ended(knob('text_pair_col'))}"
        )
    donors = counterfactual_donors(frame[replace].tolist(), k=1, seed=seed)[0]
    chosen = np.flatnonzero(frame[LABEL].astype(str).to_numpy() != str(default_label))
    added = counterfactual_frame(frame, donors, chosen, replace)
    added["cat_source_row_id"] = added[ROW_ID].to_numpy()
    added[LABEL] = pd.Series(
        [default_label] * len(added), index=added.index, dtype=frame[LABEL].dtype
    )
    start = int(frame[ROW_ID].max()) + 1 if len(frame) else 0
    added[ROW_ID] = np.arange(start, start + len(added), dtype=frame[ROW_ID].dtype)
    added = added.drop(columns=["donor_row_id"])
    original = frame.assign(cat_source_row_id=pd.array([pd.NA] * len(frame), dtype="Int64"))
    added["cat_source_row_id"] = added["cat_source_row_id"].astype("Int64")
    return pd.concat([original, added], ignore_index=True)


def write_check(
    frame: pd.DataFrame,
    donors: np.ndarray,
    *,
    kept: np.ndarray,
    predicted: Sequence[Any],
    counterfactual_predicted: Sequence[Any],
    default_label: Any,
    size: int,
    seed: int,
    replace: str,
    path: Path,
) -> int:
    """Write ``size`` counterfactual pairs of the kept rows (a seeded sample of the first set)
    for a person to judge the label-flip assumption (section 4.2); returns the rows written.

    ``predicted`` / ``counterfactual_predicted`` are label values for every row of ``frame``.
    """
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 1:
        raise ConfigError(
            f"{knob('export_check')} expects a whole number >= 1. Got {quoted(size)} instead."
        )
    rows = np.sort(np.random.default_rng(seed).permutation(kept)[:size])
    sample = counterfactual_frame(frame, donors, rows, replace)
    table = pd.DataFrame(
        {
            "row_id": sample[ROW_ID].to_numpy(),
            "donor_row_id": sample["donor_row_id"].to_numpy(),
            TEXT: sample[TEXT].to_numpy(),
            TEXT_PAIR: sample[TEXT_PAIR].to_numpy(),
            "replaced_text": frame[replace].to_numpy()[rows],
            "gold_label": frame[LABEL].astype(str).to_numpy()[rows],
            "predicted_label": [str(predicted[r]) for r in rows],
            "counterfactual_prediction": [str(counterfactual_predicted[r]) for r in rows],
            "default_label": str(default_label),
            "assumption_holds": "",
        },
        columns=list(CHECK_COLUMNS),
    )
    write_table(table, path, "csv", for_people=True)  # a check file people fill in
    return len(table)
