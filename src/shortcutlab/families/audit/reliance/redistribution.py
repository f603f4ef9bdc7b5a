"""Redistribution anti-tests: subsets of the evaluation rows in which a candidate's association
with its label holds, is reversed, or is removed (the MPS builder's Imbalanced and Balanced sets,
paper 002 section 2.2, drawn around the candidate instead of an attribute).

Nothing is predicted here: the sets are row positions of the evaluation table, so the
predictions the measurement already has are reused.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import ShortcutlabError, ShortcutlabWarning
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.mps.build import build_mps_benchmark
from shortcutlab.families.mps.dominant_labels import LABEL_MIX_TOLERANCE
from shortcutlab.metrics.proportions import bootstrap_mean_difference
from shortcutlab.metrics.resampling import percentile_interval
from shortcutlab.params import quoted

#: The attribute column the builder groups by, and its two values.
CANDIDATE, WITH, WITHOUT = "candidate", "with", "without"


@dataclass
class RedistributionSets:
    """Row positions of the evaluation table: ``aligned`` (the ``with`` rows dominated by the
    candidate's label, the ``without`` rows by ``other``), ``anti`` (the reverse) and
    ``removed`` (the aligned set's group sizes, labels as uniform as each group allows).
    A set the rows cannot fill is ``None``, and ``note`` says why."""

    aligned: np.ndarray | None
    anti: np.ndarray | None
    removed: np.ndarray | None
    other: int | None  # the label rank the candidate's label trades places with
    note: str | None


def redistribution_sets(
    evaluation: AuditInputs, fires: np.ndarray, label: int, *, seed: int = 0
) -> RedistributionSets:
    """Draw the aligned, anti and removed sets for the candidate that ``fires`` on the rows.

    ``other`` is the label most frequent among the rows with the candidate besides its own (the
    anti set needs those rows to dominate the ``with`` group). Binary data uses
    ``label_mix="matched"``, so both sets hold the labels equally often and their accuracies
    differ by the association only; with more labels ``note`` says when they differ in label mix.
    The anti set is drawn at the largest size the rows allow, the aligned set at that same size
    (so the two differ in the association, not in size) and the removed set is the aligned set's
    Balanced counterpart (the same group sizes, labels as uniform as each group allows). The builder holds out one row per label as its test set (it always draws
    one); those rows are in no set.

    Examples:
        >>> from shortcutlab.data.labels import LabelSpace
        >>> texts = [f"row {i}" for i in range(80)]
        >>> fires = np.arange(80) < 40  # rows with the candidate: 30 of label 0, 10 of label 1
        >>> ranks = np.array(([0] * 30 + [1] * 10) + ([1] * 30 + [0] * 10))
        >>> rows = AuditInputs(np.arange(80), texts, ranks, LabelSpace((0, 1)))
        >>> sets = redistribution_sets(rows, fires, 0)
        >>> [np.bincount(ranks[s][fires[s]], minlength=2).tolist() for s in (sets.aligned, sets.anti, sets.removed)]
        [[9, 2], [3, 9], [6, 5]]
    """
    fires = np.asarray(fires, dtype=bool)
    present = sorted(set(evaluation.ranks.tolist()))
    others = np.bincount(evaluation.ranks[fires], minlength=len(evaluation.labels))
    others[label] = 0
    if not fires.any() or fires.all() or others.max() == 0 or label not in present:
        reason = (
            "every evaluation row has the candidate"
            if fires.all()
            else "the rows with the candidate hold no other label, or no row has it"
        )
        return RedistributionSets(None, None, None, None, f"no redistribution: {reason}")
    other = int(np.argmax(others))
    values = evaluation.labels.values
    frame = _frame(evaluation, fires)
    options = dict(
        attribute="column",
        attribute_options={"column": CANDIDATE},
        labels=[values[r] for r in present],
        label_mix="matched" if len(present) == 2 else "paper",
        test_size=len(present),
        seed=seed,
    )
    notes: list[str] = []
    # The anti set is the hard one to fill (the data holds the association, not its reverse);
    # the aligned set then takes as many rows, so the two differ in the association, not in size,
    # and the removed set (Balanced at that size) has room to even its groups out.
    anti = _build(
        frame, {WITH: values[other], WITHOUT: values[label]}, None, options, "anti", notes
    )
    size = None if anti is None else len(anti["imbalanced"])
    aligned = _build(
        frame, {WITH: values[label], WITHOUT: values[other]}, size, options, "aligned", notes
    )
    if aligned is None and size is not None:
        aligned = _build(
            frame, {WITH: values[label], WITHOUT: values[other]}, None, options, "aligned", notes
        )
    sets = RedistributionSets(
        aligned=_positions(aligned, "imbalanced"),
        anti=_positions(anti, "imbalanced"),
        removed=_positions(aligned, "balanced"),
        other=other,
        note=None,
    )
    notes.extend(_composition_notes(sets, evaluation.ranks, fires, len(values)))
    sets.note = " | ".join(notes) or None
    return sets


def redistribution_figures(
    sets: RedistributionSets, correct: np.ndarray, *, n_resamples: int = 1000, seed: int = 0
) -> dict[str, float | int | None]:
    """Accuracy on each set and anti_delta = aligned − anti with a percentile bootstrap interval
    (the two sets resampled independently; they can share rows, which the interval ignores)."""
    correct = np.asarray(correct, dtype=np.float64)
    figures: dict[str, float | int | None] = {}
    for prefix, rows in (
        ("aligned_set", sets.aligned),
        ("anti", sets.anti),
        ("removed", sets.removed),
    ):
        figures[f"{prefix}_rows"] = None if rows is None else len(rows)
        figures[f"{prefix}_accuracy"] = (
            None if rows is None or len(rows) == 0 else float(correct[rows].mean())
        )
    figures |= {"anti_delta": None, "anti_delta_low": None, "anti_delta_high": None}
    if figures["aligned_set_accuracy"] is not None and figures["anti_accuracy"] is not None:
        assert sets.aligned is not None and sets.anti is not None
        samples = bootstrap_mean_difference(
            correct[sets.aligned], correct[sets.anti], n_resamples=n_resamples, seed=seed
        )
        low, high = percentile_interval(samples)
        figures["anti_delta"] = figures["aligned_set_accuracy"] - figures["anti_accuracy"]
        figures["anti_delta_low"], figures["anti_delta_high"] = low, high
    return figures


def _frame(evaluation: AuditInputs, fires: np.ndarray) -> Any:  # a pandas DataFrame
    import pandas as pd

    values = evaluation.labels.values
    columns = {ROW_ID: np.arange(len(evaluation)), TEXT: evaluation.texts}
    if evaluation.text_pairs is not None:
        columns[TEXT_PAIR] = evaluation.text_pairs
    columns[LABEL] = [values[r] for r in evaluation.ranks.tolist()]
    columns[CANDIDATE] = np.where(fires, WITH, WITHOUT)
    return pd.DataFrame(columns)


def _build(
    frame: Any, dominant: dict, size: int | None, options: dict, name: str, notes: list[str]
) -> Benchmark | None:
    """One MPS build, or None with the builder's reason added to ``notes``."""
    # The builder's warnings speak of training fits and its CLI flags; the facts that matter
    # for evaluation sets are stated by _composition_notes instead.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ShortcutlabWarning)
        try:
            return build_mps_benchmark(frame, dominant=dominant, size=size, **options)
        except ShortcutlabError as exc:
            if size is None:  # a failure at a given size is retried at the largest; not news
                notes.append(f"{name} set infeasible: {exc}")
            return None


def _composition_notes(
    sets: RedistributionSets, ranks: np.ndarray, fires: np.ndarray, n_labels: int
) -> list[str]:
    """What separates the sets besides the association: a different overall label mix (the
    accuracies then also weigh the labels differently), and groups of the removed set that could
    not be made more even than in the aligned set."""
    notes = []
    if sets.aligned is not None and sets.anti is not None:
        mixes = [
            np.bincount(ranks[s], minlength=n_labels) / len(s) for s in (sets.aligned, sets.anti)
        ]
        distance = float(np.abs(mixes[0] - mixes[1]).sum() / 2)
        if distance > LABEL_MIX_TOLERANCE:
            notes.append(
                f"the aligned and anti sets differ in label mix (total variation {distance:.2f}), "
                "so anti_delta also reflects the model's per-label accuracy"
            )
    if sets.aligned is not None and sets.removed is not None:
        for group, members in ((WITH, fires), (WITHOUT, ~fires)):
            top = [
                np.bincount(ranks[s][members[s]], minlength=n_labels).max()
                / max(members[s].sum(), 1)
                for s in (sets.aligned, sets.removed)
            ]
            if top[1] >= top[0] and members[sets.removed].any():
                notes.append(
                    f"the removed set's {quoted(group)} group is as skewed as in the aligned set "
                    "(too few rows of the other labels there)"
                )
    return notes


def _positions(built: Benchmark | None, split: str) -> np.ndarray | None:
    if built is None:
        return None
    # row_id is the evaluation row's position (the frame numbered its rows 0..n-1).
    return np.sort(built[split][ROW_ID].to_numpy(dtype=np.int64))
