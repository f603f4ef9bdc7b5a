"""How much a model relies on each candidate shortcut: aligned vs conflicting rows (compared
within each gold label), counterfactual removal of the candidate's words, and redistribution
anti-tests.

Every prediction comes from ONE call of the model: the evaluation rows and every removed text of
every token/n-gram candidate are predicted together (each distinct input once), then split back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.errors import DataError
from shortcutlab.families.audit.reliance.counterfactual import (
    INSERTION_ROWS,
    TEST_P_COLUMNS,
    counterfactual_edits,
    edit_figures,
    reliance_p,
    seen_rows,
)
from shortcutlab.families.audit.reliance.predictor import Predictor
from shortcutlab.families.audit.reliance.redistribution import (
    redistribution_figures,
    redistribution_sets,
)
from shortcutlab.families.audit.scan.candidates import MEASURE_COLUMNS, Candidate
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.metrics import cochran_mantel_haenszel, expected_calibration_error
from shortcutlab.metrics.corrections import CORRECTIONS, adjust_p
from shortcutlab.metrics.proportions import bootstrap_mean_difference
from shortcutlab.metrics.resampling import percentile_interval
from shortcutlab.params import check_choice, quoted

#: Rows each group (aligned, conflicting) needs within a gold label for the label to enter Δ: a
#: handful of rows often has an accuracy of 0 or 1, whose bootstrap has no spread.
MIN_GROUP_ROWS = 10
#: Rows the smaller group needs for the ECEs and their gap: the binned ECE of a perfectly
#: calibrated model is 0.18 on 15 rows, 0.10 on 50, 0.05 on 200 and 0.02 on 1,000.
MIN_ECE_ROWS = 200
#: What the figures leave out; the audit's ``measurement.note`` carries it.
INTERVAL_NOTE = (
    "Intervals are 95 % percentile bootstraps over evaluation rows for one fitted model: they "
    "ignore the variance between fits (seeds, training samples). The association Δ compares "
    "aligned and "
    f"conflicting rows within each gold label where both groups have at least {MIN_GROUP_ROWS} "
    "rows; labels below that are left out, and delta_rows counts the rows Δ rests on. Its rows "
    "are resampled independently within each label and group (a group all right or all wrong "
    "adds no spread); its p is the Cochran–Mantel–Haenszel test over the same labels. The "
    "redistribution sets are resampled independently, although they share rows. ECE is biased "
    f"upward in small groups; it is left out below {MIN_ECE_ROWS} rows. An association Δ "
    "compares different rows, so it is no evidence of reliance: relied_on comes from the "
    "counterfactual tests alone (the candidate removed from its rows, and inserted into up to "
    f"{INSERTION_ROWS} rows of the labels it avoids; exact McNemar tests on the paired "
    "correctness and on the paired 'predicts the candidate's label'; reliance_p is the "
    "smallest p of those pointing the candidate's way, Bonferroni over the tests run, and "
    "relied_on is its adjustment over the candidates below alpha), for token and n-gram "
    "candidates the model can see. Attributes, surface "
    "properties, word lists and metadata values have no counterfactual edit here: relied_on "
    "is empty for them."
)


@dataclass(frozen=True)
class MeasureSpec:
    """One candidate to measure and where it fires (bool over the evaluation rows)."""

    candidate: Candidate
    fires: np.ndarray


def measure_candidates(
    predictor: Predictor,
    evaluation: AuditInputs,
    specs: Sequence[MeasureSpec],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    correction: str = "bh",
    alpha: float = 0.05,
    redistribution: bool = True,
) -> list[dict]:
    """One dict per spec with every ``MEASURE_COLUMNS`` key (None where it does not apply or a
    group is too small) and ``key``, ``redistribution_note``.

    Aligned rows are those where "the candidate's label iff the indicator fires" is right (it
    fires on a row of that label, or stays off on a row of another), conflicting rows the rest;
    their accuracies and ECEs are pooled (the ECEs only when both groups have
    :data:`MIN_ECE_ROWS`), but the association ``delta`` compares them within each gold label
    whose groups both have :data:`MIN_GROUP_ROWS` (None when no label does; ``delta_rows``
    counts the rows of the labels used). Token and n-gram candidates are read through the
    model's view (families/audit/reliance/counterfactual.py): ``visible`` says whether it sees
    them, a row carries an n-gram only where its tokens are adjacent in the model's tokens, and
    the counterfactual tests (removal, insertion) decide ``relied_on`` at ``alpha``.
    ``delta_p_adjusted``, ``removal_p_adjusted`` and ``insertion_p_adjusted`` are corrected over
    the specs with that p (``correction``: "bh" or "holm"). See :data:`INTERVAL_NOTE`."""
    check_choice("correction", correction, CORRECTIONS)
    _check_specs(evaluation, specs)
    specs, visible = _through_model_view(predictor, evaluation, specs)
    edits = [
        _edited_rows(evaluation, spec, seen, seed)
        for spec, seen in zip(specs, visible, strict=True)
    ]
    edited_inputs = [inputs for spec_edits in edits for _, inputs in spec_edits.values()]
    probabilities = _predict_once(predictor, evaluation, edited_inputs)
    n = len(evaluation)
    base = probabilities[:n]
    predicted = base.argmax(axis=1)
    correct = predicted == evaluation.ranks
    confidence = base.max(axis=1)
    results, offset = [], n
    for spec, seen, spec_edits in zip(specs, visible, edits, strict=True):
        candidate = spec.candidate
        row = dict.fromkeys(MEASURE_COLUMNS)
        row |= {"key": candidate.key, "redistribution_note": None, "visible": seen}
        row |= _group_figures(
            spec,
            evaluation.ranks,
            correct,
            confidence,
            n_resamples,
            derived_seed(seed, "association bootstrap", candidate.key),
        )
        for test, (rows, inputs) in spec_edits.items():
            after = probabilities[offset : offset + len(inputs)]
            offset += len(inputs)
            row |= edit_figures(
                test,
                candidate.label,
                rows,
                base,
                after,
                evaluation.ranks,
                n_resamples,
                derived_seed(seed, f"{test} bootstrap", candidate.key),
            )
        if redistribution:
            sets = redistribution_sets(evaluation, spec.fires, candidate.label, seed=seed)
            row |= redistribution_figures(
                sets,
                correct,
                n_resamples=n_resamples,
                seed=derived_seed(seed, "redistribution bootstrap", candidate.key),
            )
            row["redistribution_note"] = sets.note
        results.append(row)
    for column in ("delta_p", *TEST_P_COLUMNS):
        _adjust(results, column, correction)
    for row in results:
        row["reliance_p"] = reliance_p(row)
    _adjust(results, "reliance_p", correction)
    for row in results:
        adjusted = row["reliance_p_adjusted"]
        row["relied_on"] = None if adjusted is None else bool(adjusted < alpha)
    return results


def _through_model_view(
    predictor: Predictor, evaluation: AuditInputs, specs: Sequence[MeasureSpec]
) -> tuple[list[MeasureSpec], list[bool | None]]:
    """The specs with token/n-gram indicators narrowed to the rows whose model tokens carry the
    phrase (:func:`~.counterfactual.seen_rows`), and per spec whether the model sees it (None:
    no view, or not a phrase)."""
    narrowed, visible = [], []
    for spec in specs:
        candidate = spec.candidate
        phrase = candidate.phrase if candidate.editable else None
        fires, seen = seen_rows(predictor, evaluation, candidate.part, spec.fires, phrase)
        narrowed.append(replace(spec, fires=fires))
        visible.append(seen)
    return narrowed, visible


def _edited_rows(
    evaluation: AuditInputs, spec: MeasureSpec, visible: bool | None, seed: int
) -> dict[str, tuple[np.ndarray, list[TextInput]]]:
    """Per counterfactual test that applies (none for a candidate the model cannot see), its
    rows and their edited model inputs."""
    candidate = spec.candidate
    if not candidate.editable or visible is False:
        return {}
    return counterfactual_edits(
        evaluation,
        candidate.part,
        spec.fires,
        candidate.label,
        candidate.phrase,
        seed=seed,
        key=candidate.key,
    )


def _adjust(results: list[dict], column: str, correction: str) -> None:
    """Fill ``<column>_adjusted`` over the results that have a ``column`` p-value."""
    p_values = np.array(
        [np.nan if row[column] is None else row[column] for row in results], dtype=np.float64
    )
    for row, value in zip(results, adjust_p(p_values, correction).tolist(), strict=True):
        if row[column] is not None:
            row[f"{column}_adjusted"] = value


def _check_specs(evaluation: AuditInputs, specs: Sequence[MeasureSpec]) -> None:
    for spec in specs:
        candidate = spec.candidate
        if np.shape(spec.fires) != (len(evaluation),):
            raise DataError(
                f"The candidate {quoted(candidate.name)} has an indicator of shape {np.shape(spec.fires)} for "
                f"{len(evaluation)} evaluation rows; compute it on the evaluation table."
            )
        if not 0 <= candidate.label < len(evaluation.labels):
            raise DataError(
                f"The candidate {quoted(candidate.name)} points to label rank {candidate.label}, outside the "
                f"{len(evaluation.labels)} labels of the evaluation table."
            )
        if candidate.editable and candidate.part not in evaluation.parts():
            raise DataError(
                f"The candidate {quoted(candidate.name)} reads the part {quoted(candidate.part)}, which the evaluation "
                f"table does not have (parts: {', '.join(evaluation.parts())})."
            )


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
    split of Nam et al. 2020, "Learning from Failure"): pooled accuracy of each group, their
    ECEs when the smaller group has :data:`MIN_ECE_ROWS`, and the label-stratified Δ with its
    interval and p (see :func:`_stratified_delta`)."""
    fires = np.asarray(spec.fires, dtype=bool)
    aligned = fires == (ranks == spec.candidate.label)
    groups = (("aligned", aligned), ("conflicting", ~aligned))
    out: dict = {}
    for name, members in groups:
        out[f"{name}_rows"] = int(members.sum())
        out[f"{name}_accuracy"] = float(correct[members].mean()) if members.any() else None
    if min(out["aligned_rows"], out["conflicting_rows"]) >= MIN_ECE_ROWS:
        for name, members in groups:
            out[f"{name}_ece"] = expected_calibration_error(
                confidence=confidence[members], correct=correct[members]
            )
        out["calibration_gap"] = out["conflicting_ece"] - out["aligned_ece"]
    return out | _stratified_delta(ranks, aligned, correct, n_resamples, seed)


def _stratified_delta(
    ranks: np.ndarray, aligned: np.ndarray, correct: np.ndarray, n_resamples: int, seed: int
) -> dict:
    """Δ = Σ_y w_y (acc(aligned, gold y) − acc(conflicting, gold y)) over the gold labels whose
    groups both have :data:`MIN_GROUP_ROWS`, w_y ∝ the label's rows: comparing rows of the same
    gold label cancels label difficulty (on GoEmotions the conflicting rows of a cue are mostly
    the easy labels, so the pooled difference is negative for a real cue). Interval: rows
    resampled within each (label, group) cell. p: Cochran–Mantel–Haenszel over the same labels
    (exact hypergeometric variances; a Wald variance p̂(1 − p̂)/n is 0 on a cell all right or all
    wrong and rejected a true null far too often). CMH weighs the labels by n_a n_c / n rather
    than w_y; both are 0 in expectation when no label's groups differ."""
    cells, labels = [], []
    for label in np.unique(ranks).tolist():
        stratum = ranks == label
        a, c = correct[stratum & aligned], correct[stratum & ~aligned]
        if min(len(a), len(c)) >= MIN_GROUP_ROWS:
            cells.append((a, c))
            labels.append(label)
    if not cells:
        return {"delta_rows": 0}
    sizes = np.array([len(a) + len(c) for a, c in cells], dtype=np.float64)
    weights = sizes / sizes.sum()
    delta = float(weights @ np.array([a.mean() - c.mean() for a, c in cells]))
    tables = np.array(
        [[[a.sum(), len(a) - a.sum()], [c.sum(), len(c) - c.sum()]] for a, c in cells]
    )
    samples = sum(
        w
        * bootstrap_mean_difference(
            a, c, n_resamples=n_resamples, seed=derived_seed(seed, "gold label", str(label))
        )
        for w, (a, c), label in zip(weights.tolist(), cells, labels, strict=True)
    )
    low, high = percentile_interval(samples)
    return {
        "delta": delta,
        "delta_low": low,
        "delta_high": high,
        "delta_p": cochran_mantel_haenszel(tables=tables)["p_value"],
        "delta_rows": int(sizes.sum()),
    }
