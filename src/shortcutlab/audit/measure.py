"""How much a model relies on each candidate shortcut: aligned vs conflicting rows (compared
within each gold label), counterfactual removal of the candidate's words, and redistribution
anti-tests.

Every prediction comes from ONE call of the model: the evaluation rows and every removed text of
every token/n-gram candidate are predicted together (each distinct input once), then split back.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from shortcutlab.audit.candidates import MEASURE_COLUMNS
from shortcutlab.audit.inputs import AuditInputs
from shortcutlab.audit.predictor import Predictor
from shortcutlab.audit.redistribution import redistribution_figures, redistribution_sets
from shortcutlab.audit.spans import phrase_pattern, remove_phrase
from shortcutlab.data.pairs import TextInput, join_inputs
from shortcutlab.errors import DataError
from shortcutlab.metrics import benjamini_hochberg, expected_calibration_error, holm, mcnemar_exact
from shortcutlab.metrics.proportions import bootstrap_mean_difference, bootstrap_means
from shortcutlab.metrics.significance import percentile_interval
from shortcutlab.registry import check_choice

#: What the intervals leave out; the audit's ``measurement.note`` carries it.
INTERVAL_NOTE = (
    "Intervals are 95 % percentile bootstraps over evaluation rows for one fitted model: they "
    "ignore the variance between fits (seeds, training samples). Aligned and conflicting rows are "
    "resampled independently within each gold label, and the redistribution sets independently, "
    "although those share rows."
)
CORRECTIONS = {"bh": benjamini_hochberg, "holm": holm}
#: Kinds whose candidates are words that can be deleted from the text.
REMOVABLE_KINDS = ("token", "ngram")


@dataclass(frozen=True)
class MeasureSpec:
    """One candidate to measure on the evaluation rows."""

    key: str
    name: str
    kind: str
    part: str  # "text" or "text_pair": where the phrase is removed
    label: int  # the candidate's label rank
    fires: np.ndarray  # bool over the evaluation rows
    phrase: str | None  # token/n-gram words for counterfactual removal (None: no removal)


def measure_candidates(
    predictor: Predictor,
    evaluation: AuditInputs,
    specs: Sequence[MeasureSpec],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    correction: str = "bh",
    redistribution: bool = True,
) -> list[dict]:
    """One dict per spec with every ``MEASURE_COLUMNS`` key (None where it does not apply or a
    group is empty) and ``key``, ``redistribution_note``.

    Aligned rows are those where "the candidate's label iff the indicator fires" is right (it
    fires on a row of that label, or stays off on a row of another), conflicting rows the rest;
    their accuracies and ECEs are pooled, but ``delta`` compares them within each gold label
    (None when no label has rows in both groups). ``delta_p_adjusted`` is corrected over the
    specs with a ``delta_p`` (``correction``: "bh" or "holm"). See :data:`INTERVAL_NOTE`."""
    check_choice("correction", correction, tuple(CORRECTIONS))
    _check_specs(evaluation, specs)
    removals = [_removed_rows(evaluation, spec) for spec in specs]
    removed_inputs = [inputs for _, inputs in removals]
    probabilities = _predict_once(predictor, evaluation, removed_inputs)
    n = len(evaluation)
    base = probabilities[:n]
    predicted = base.argmax(axis=1)
    correct = predicted == evaluation.ranks
    confidence = base.max(axis=1)
    results, offset = [], n
    for spec, (rows, inputs) in zip(specs, removals, strict=True):
        after = probabilities[offset : offset + len(inputs)]
        offset += len(inputs)
        seeds = np.random.SeedSequence([seed, zlib.crc32(spec.key.encode())]).generate_state(3)
        row = dict.fromkeys(MEASURE_COLUMNS)
        row |= {"key": spec.key, "redistribution_note": None}
        row |= _group_figures(
            spec, evaluation.ranks, correct, confidence, n_resamples, int(seeds[0])
        )
        if rows is not None:
            row |= _removal_figures(
                spec, rows, base, after, evaluation.ranks, n_resamples, int(seeds[1])
            )
        if redistribution:
            sets = redistribution_sets(evaluation, spec.fires, spec.label, seed=seed)
            row |= redistribution_figures(
                sets, correct, n_resamples=n_resamples, seed=int(seeds[2])
            )
            row["redistribution_note"] = sets.note
        results.append(row)
    tested = [i for i, row in enumerate(results) if row["delta_p"] is not None]
    adjusted = CORRECTIONS[correction]([results[i]["delta_p"] for i in tested])
    for i, value in zip(tested, adjusted.tolist(), strict=True):
        results[i]["delta_p_adjusted"] = value
    return results


def _check_specs(evaluation: AuditInputs, specs: Sequence[MeasureSpec]) -> None:
    for spec in specs:
        if np.shape(spec.fires) != (len(evaluation),):
            raise DataError(
                f"The candidate {spec.name!r} has an indicator of shape {np.shape(spec.fires)} for "
                f"{len(evaluation)} evaluation rows; compute it on the evaluation table."
            )
        if not 0 <= spec.label < len(evaluation.labels):
            raise DataError(
                f"The candidate {spec.name!r} points to label rank {spec.label}, outside the "
                f"{len(evaluation.labels)} labels of the evaluation table."
            )
        if spec.phrase is not None and spec.part not in evaluation.parts():
            raise DataError(
                f"The candidate {spec.name!r} reads the part {spec.part!r}, which the evaluation "
                f"table does not have (parts: {', '.join(evaluation.parts())})."
            )


def _removed_rows(
    evaluation: AuditInputs, spec: MeasureSpec
) -> tuple[np.ndarray | None, list[TextInput]]:
    """The rows where the spec's phrase was found and deleted, and their model inputs after."""
    if spec.phrase is None or spec.kind not in REMOVABLE_KINDS:
        return None, []
    pattern = phrase_pattern(spec.phrase)
    part = evaluation.part(spec.part)
    rows, edited = [], []
    for i in np.flatnonzero(spec.fires).tolist():
        text = remove_phrase(part[i], pattern)
        if text != part[i]:
            rows.append(i)
            edited.append(text)
    index = np.asarray(rows, dtype=np.int64)
    firsts, seconds = evaluation.texts, evaluation.text_pairs
    if spec.part == "text_pair":
        return index, join_inputs([firsts[i] for i in rows], edited)
    return index, join_inputs(edited, None if seconds is None else [seconds[i] for i in rows])


def _predict_once(
    predictor: Predictor, evaluation: AuditInputs, removed: Sequence[list[TextInput]]
) -> np.ndarray:
    """Probabilities for the evaluation rows followed by every removed input, in that order,
    from one ``predict_proba`` call on the distinct inputs."""
    everything = evaluation.model_inputs() + [item for inputs in removed for item in inputs]
    position: dict[TextInput, int] = {}
    index = np.array([position.setdefault(item, len(position)) for item in everything])
    distinct = list(position)
    probabilities = np.asarray(predictor.predict_proba(distinct), dtype=np.float64)
    k = len(evaluation.labels)
    if probabilities.shape != (len(distinct), k):
        raise DataError(
            f"The model {predictor.name} returned probabilities of shape {probabilities.shape} for "
            f"{len(distinct)} inputs and {k} labels; it must give one column per label."
        )
    return probabilities[index] if len(index) else np.zeros((0, k))


def _group_figures(
    spec: MeasureSpec,
    ranks: np.ndarray,
    correct: np.ndarray,
    confidence: np.ndarray,
    n_resamples: int,
    seed: int,
) -> dict:
    """Aligned vs conflicting rows of the one-feature bias predictor "the candidate's label when
    the indicator fires, another label when it does not" (the bias-aligned/bias-conflicting
    split of Nam et al. 2020, "Learning from Failure"): pooled accuracy and ECE of each group,
    and the label-stratified Δ with its interval and Wald p (see :func:`_stratified_delta`)."""
    fires = np.asarray(spec.fires, dtype=bool)
    aligned = fires == (ranks == spec.label)
    out: dict = {}
    for name, members in (("aligned", aligned), ("conflicting", ~aligned)):
        out[f"{name}_rows"] = int(members.sum())
        empty = not members.any()
        out[f"{name}_accuracy"] = None if empty else float(correct[members].mean())
        out[f"{name}_ece"] = (
            None
            if empty
            else expected_calibration_error(
                confidence=confidence[members], correct=correct[members]
            )
        )
    if out["aligned_ece"] is not None and out["conflicting_ece"] is not None:
        out["calibration_gap"] = out["conflicting_ece"] - out["aligned_ece"]
    return out | _stratified_delta(ranks, aligned, correct, n_resamples, seed)


def _stratified_delta(
    ranks: np.ndarray, aligned: np.ndarray, correct: np.ndarray, n_resamples: int, seed: int
) -> dict:
    """Δ = Σ_y w_y (acc(aligned, gold y) − acc(conflicting, gold y)) over the gold labels whose
    rows fall in both groups, w_y ∝ the label's rows: comparing rows of the same gold label
    cancels label difficulty (on GoEmotions the conflicting rows of a cue are mostly the easy
    labels, so the pooled difference is negative for a real cue). Interval: rows resampled
    within each (label, group) cell; p: two-sided Wald z-test of the weighted difference."""
    cells = []
    for label in np.unique(ranks).tolist():
        stratum = ranks == label
        a, c = correct[stratum & aligned], correct[stratum & ~aligned]
        if len(a) and len(c):
            cells.append((int(stratum.sum()), a, c))
    if not cells:
        return {}
    weights = np.array([size for size, _, _ in cells], dtype=np.float64)
    weights /= weights.sum()
    p_a = np.array([a.mean() for _, a, _ in cells])
    p_c = np.array([c.mean() for _, _, c in cells])
    n_a = np.array([len(a) for _, a, _ in cells])
    n_c = np.array([len(c) for _, _, c in cells])
    delta = float(weights @ (p_a - p_c))
    variance = float(weights**2 @ (p_a * (1 - p_a) / n_a + p_c * (1 - p_c) / n_c))
    if variance == 0.0:
        # Every cell all right or all wrong (the Wald variance would claim certainty): use the
        # variance under "no difference" (each label's pooled accuracy), as the pooled
        # two-proportion test does. It is 0 only when both groups agree in every label, Δ = 0.
        pooled = (p_a * n_a + p_c * n_c) / (n_a + n_c)
        variance = float(weights**2 @ (pooled * (1 - pooled) * (1 / n_a + 1 / n_c)))
    p_value = 1.0 if variance == 0.0 else float(2 * norm.sf(abs(delta) / np.sqrt(variance)))
    children = np.random.SeedSequence(seed).generate_state(len(cells)).tolist()
    samples = sum(
        w * bootstrap_mean_difference(a, c, n_resamples=n_resamples, seed=child)
        for w, (_, a, c), child in zip(weights.tolist(), cells, children, strict=True)
    )
    low, high = percentile_interval(samples)
    return {"delta": delta, "delta_low": low, "delta_high": high, "delta_p": p_value}


def _removal_figures(
    spec: MeasureSpec,
    rows: np.ndarray,
    base: np.ndarray,
    after: np.ndarray,
    ranks: np.ndarray,
    n_resamples: int,
    seed: int,
) -> dict:
    out: dict = {"removal_rows": len(rows)}
    if len(rows) == 0:
        return out
    before = base[rows]
    truth = ranks[rows]
    right_before = before.argmax(axis=1) == truth
    right_after = after.argmax(axis=1) == truth
    shift = after[:, spec.label] - before[:, spec.label]
    low, high = percentile_interval(bootstrap_means(shift, n_resamples=n_resamples, seed=seed))
    return out | {
        "removal_changed": float(np.mean(before.argmax(axis=1) != after.argmax(axis=1))),
        "removal_accuracy_before": float(right_before.mean()),
        "removal_accuracy_after": float(right_after.mean()),
        "removal_label_shift": float(shift.mean()),
        "removal_shift_low": low,
        "removal_shift_high": high,
        "removal_p": mcnemar_exact(correct_a=right_before, correct_b=right_after)["p_value"],
    }
