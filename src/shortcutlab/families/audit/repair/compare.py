"""Each repair against erm on the same rows: accuracy on every evaluation set, the paired
difference with its bootstrap interval, the exact McNemar p, Holm over one candidate's
comparisons, and the recommendation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput
from shortcutlab.families.audit.repair.config import BASELINE
from shortcutlab.families.audit.repair.targets import COST_SETS, SET_NAMES, EvaluationSet
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.metrics import mcnemar_exact
from shortcutlab.metrics.corrections import adjust_p
from shortcutlab.metrics.proportions import bootstrap_means
from shortcutlab.metrics.resampling import percentile_interval

#: The cost sets as the recommendation names them.
COST_NAMES = {
    "without": "rows without the candidate",
    "original": "Ori-Test",
    "plain": "plain test",
}
#: Level of the Holm-adjusted McNemar test a repair's gain must pass.
ALPHA = 0.05
#: What the intervals and tests leave out (the fix record's ``note``).
FIX_NOTE = (
    "Each method is fitted once (seeded); intervals are 95 % paired percentile bootstraps over "
    "the evaluation rows of that one fit per method, so they leave out the variance between fits. "
    "p: exact McNemar test of paired correctness against erm; adjusted: Holm over every "
    "comparison of the candidate (methods × sets). A candidate repaired because the model "
    "relies on it was found on these same evaluation rows, so its repairs' gains may read a "
    "little high (the rows that selected it also judge it); name it with --candidate and "
    "judge on another test file to avoid that."
)


def recommendation_rule(margin: float) -> str:
    """The rule, in words, that picks the recommended repair."""
    return (
        f"A repair is eligible when its cost where the label's signal lives, on the rows without "
        f"the candidate and, for a Shortcut Maze build, on Ori-Test, is not significantly above "
        f"{margin:g}: the upper end of the 95 % interval of (repair − erm) accuracy there is ≥ "
        f"−{margin:g} (the plain test is shown "
        "beside it, but its rows carry the shortcut, so a repair that stops using it pays there "
        "by design). Among eligible repairs whose gain over erm on the ranking set (the anti-"
        "test, or the counterfactual test where no anti-test could be drawn) is positive with a "
        f"McNemar p < {ALPHA:g} after Holm over the repairs compared on that set, the one with "
        "the highest accuracy there is recommended; if none, no repair helps."
    )


def predict_sets(predictor: Any, sets: Mapping[str, EvaluationSet]) -> dict[str, np.ndarray]:
    """Predicted label ranks on every built set, from one ``predict_proba`` call on the
    distinct inputs."""
    everything: list[TextInput] = []
    spans = {}
    for name, chosen in sets.items():
        if chosen.inputs is not None:
            spans[name] = (len(everything), len(everything) + len(chosen.inputs))
            everything += chosen.inputs
    position: dict[TextInput, int] = {}
    index = np.array([position.setdefault(x, len(position)) for x in everything], dtype=np.int64)
    if not position:
        return {}
    predicted = np.asarray(predictor.predict_proba(list(position))).argmax(axis=1)[index]
    return {name: predicted[start:end] for name, (start, end) in spans.items()}


def compare(
    predictions: Mapping[str, Mapping[str, np.ndarray]],
    sets: Mapping[str, EvaluationSet],
    *,
    n_resamples: int,
    seed: int,
) -> dict[str, dict[str, dict[str, Any]]]:
    """{method: {set: figures}}: accuracy and rows for every method, and for every method but
    erm its difference from erm (interval, McNemar p, Holm-adjusted p)."""
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    base = predictions[BASELINE]
    tests: list[tuple[str, str, float]] = []
    for method, predicted in predictions.items():
        figures[method] = {}
        for name in SET_NAMES:
            chosen = sets[name]
            if chosen.inputs is None or name not in predicted or not len(chosen.inputs):
                figures[method][name] = {"rows": None, "accuracy": None}
                continue
            correct = predicted[name] == chosen.truth
            cell: dict[str, Any] = {"rows": len(correct), "accuracy": float(correct.mean())}
            if method != BASELINE and np.array_equal(predicted[name], base[name]):
                # Nothing varied (jtt with nothing to upweight): no interval, no test to correct.
                cell |= {"same_as_baseline": True}
            elif method != BASELINE:
                cell |= _paired(
                    correct, base[name] == chosen.truth, n_resamples, seed, method, name
                )
                tests.append((method, name, cell["p"]))
            figures[method][name] = cell
    adjusted = adjust_p(np.array([p for _, _, p in tests], dtype=np.float64), "holm")
    for (method, name, _), value in zip(tests, adjusted.tolist(), strict=True):
        figures[method][name]["p_adjusted"] = value
    return figures


def _paired(
    correct: np.ndarray, baseline: np.ndarray, n_resamples: int, seed: int, method: str, name: str
) -> dict[str, Any]:
    differences = correct.astype(np.float64) - baseline.astype(np.float64)
    child = derived_seed(seed, "against erm", f"{method} on {name}")
    low, high = percentile_interval(
        bootstrap_means(differences, n_resamples=n_resamples, seed=child)
    )
    return {
        "difference": float(differences.mean()),
        "low": low,
        "high": high,
        "p": mcnemar_exact(correct_a=baseline, correct_b=correct)["p_value"],
    }


def ranking_set(sets: Mapping[str, EvaluationSet], compared: int) -> tuple[str | None, str]:
    """The set the recommendation ranks by, and why when it is not the anti-test: the anti-test
    where it has rows enough for an exact McNemar p below :data:`ALPHA` after Holm over the
    ``compared`` repairs (its smallest p on n rows is 2·0.5ⁿ), else the counterfactual test."""
    anti = len(sets["anti"].inputs or ())
    if anti and compared * 2 * 0.5**anti < ALPHA:
        return "anti", ""
    why = (
        f"The anti-test's {anti} rows cannot show a gain at p < {ALPHA:g} after Holm over "
        f"{compared} repairs, so the counterfactual test ranks them. "
        if anti
        else ""
    )
    if len(sets["counterfactual"].inputs or ()):
        return "counterfactual", why
    return None, why


def recommend(
    figures: Mapping[str, Mapping[str, Mapping[str, Any]]],
    ranked_by: str | None,
    order: Sequence[str],
    margin: float,
) -> tuple[str | None, str]:
    """The recommended method (None: none helps) and the sentence that says so."""
    if ranked_by is None:
        return None, (
            "No repair can be judged: neither an anti-test nor a counterfactual test could be "
            "built for this candidate."
        )
    decision_p = _decision_p(figures, ranked_by, order)
    helping = []
    for method, p_value in decision_p.items():
        gain, costs = figures[method][ranked_by], _cost_cells(figures[method])
        if gain["difference"] > 0 and p_value < ALPHA:
            helping.append((method, all(_cheap(cell, margin) for _, cell in costs)))
    set_name = "anti-test" if ranked_by == "anti" else "counterfactual test"
    if not helping:
        return None, f"No repair helps: none raises the {set_name} accuracy significantly over erm."
    eligible = [m for m, cheap in helping if cheap]
    if not eligible:
        return None, (
            f"No repair helps at an acceptable cost: {', '.join(m for m, _ in helping)} raise the "
            f"{set_name} accuracy significantly, but each costs significantly more than {margin:g} "
            "of accuracy where the label's signal lives (the rows without the candidate, and "
            "Ori-Test for a Maze build)."
        )
    best = max(eligible, key=lambda m: (figures[m][ranked_by]["accuracy"], -order.index(m)))
    cell = figures[best][ranked_by]
    return best, (
        f"Recommended: {best}. {set_name.capitalize()} accuracy "
        f"{figures[BASELINE][ranked_by]['accuracy']:.3f} → {cell['accuracy']:.3f} "
        f"({cell['difference']:+.3f} [{cell['low']:+.3f}, {cell['high']:+.3f}], p "
        f"{decision_p[best]:.2g} after Holm over the {len(decision_p)} repairs compared there); "
        + "; ".join(
            f"{COST_NAMES[name]} {difference_text(cell)}"
            for name, cell in _cost_cells(figures[best])
        )
        + f"; plain test {difference_text(figures[best]['plain'])} (its rows carry the shortcut)."
    )


def _cost_cells(figures: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    """Where a repair's cost is charged: the rows without the candidate and, for a Maze build,
    Ori-Test, where the signal lives (the plain test when neither has rows)."""
    found = [
        (name, figures[name])
        for name in COST_SETS
        if (figures.get(name) or {}).get("accuracy") is not None
    ]
    return found or [("plain", figures["plain"])]


def _cheap(cell: Mapping[str, Any], margin: float) -> bool:
    return bool(cell.get("same_as_baseline")) or (
        cell.get("high") is not None and cell["high"] >= -margin
    )


def difference_text(cell: Mapping[str, Any]) -> str:
    """A repair's difference from erm on one set with its interval, or that nothing differed."""
    if cell.get("same_as_baseline"):
        return "same predictions as erm"
    return f"{cell['difference']:+.3f} [{cell['low']:+.3f}, {cell['high']:+.3f}]"


def _decision_p(
    figures: Mapping[str, Mapping[str, Mapping[str, Any]]], ranked_by: str, order: Sequence[str]
) -> dict[str, float]:
    """Each repair's McNemar p on the ranking set, Holm-adjusted over the repairs tested there:
    the recommendation decides one question per repair ("does it raise the ranking set?"), so
    its family is those tests, not the table's every method × set."""
    tested = [
        m
        for m in order
        if m != BASELINE
        and m in figures
        and figures[m][ranked_by].get("difference") is not None
        and not figures[m][ranked_by].get("same_as_baseline")
    ]
    raw = np.array([figures[m][ranked_by]["p"] for m in tested], dtype=np.float64)
    return dict(zip(tested, adjust_p(raw, "holm").tolist(), strict=True)) if tested else {}


__all__ = [
    "FIX_NOTE",
    "compare",
    "difference_text",
    "predict_sets",
    "ranking_set",
    "recommend",
    "recommendation_rule",
]
