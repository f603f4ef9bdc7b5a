""":func:`check`: measure a model against a suite and judge every requirement on its interval."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import FAIL, INCONCLUSIVE, PASS, Outcome
from shortcutlab.check.suite import CheckSuite, load_check_suite
from shortcutlab.errors import GRID, caller

#: The table's columns, in order (``--format csv|json`` prints them with the raw interval ends).
TABLE_COLUMNS = ("id", "requirement", "figure", "interval", "bound", "verdict")


@dataclass(frozen=True)
class CheckResult:
    """Every requirement's :class:`~shortcutlab.check.kinds.Outcome`, in the suite's order."""

    suite: str
    model: str
    outcomes: list[Outcome]
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every requirement passed (an inconclusive one did not)."""
        return not any(o.failed for o in self.outcomes)

    @property
    def exit_code(self) -> int:
        """What ``shortcutlab check`` exits with: 0 all passed, 1 any failed."""
        return 0 if self.passed else 1

    def counts(self) -> dict[str, int]:
        verdicts = [o.verdict for o in self.outcomes]
        return {v: verdicts.count(v) for v in (PASS, FAIL, INCONCLUSIVE)}

    def summary(self) -> str:
        """``2 of 3 requirements pass; 1 fails (check failed).``"""
        counts, total = self.counts(), len(self.outcomes)
        parts = [f"{counts[FAIL]} fail{'s' if counts[FAIL] == 1 else ''}"] if counts[FAIL] else []
        if counts[INCONCLUSIVE]:
            parts.append(f"{counts[INCONCLUSIVE]} inconclusive (counted as failing)")
        verdict = "check passed" if self.passed else "check failed"
        rest = f"; {', '.join(parts)}" if parts else ""
        noun = "requirement passes" if total == 1 else "requirements pass"
        return f"{counts[PASS]} of {total} {noun}{rest} ({verdict}, {self.model}, {self.seconds:.1f} s)."

    def to_pandas(self) -> pd.DataFrame:
        """One row per requirement: id, kind, requirement, figure, ci_low, ci_high, bound, verdict, notes."""
        return pd.DataFrame([o.to_json() for o in self.outcomes])

    def table(self) -> pd.DataFrame:
        """The printed table: the interval as text ("[0.042, 0.130]")."""
        rows = [
            {
                "id": o.id,
                "requirement": o.requirement,
                "figure": o.figure,
                "interval": "—"
                if o.interval is None
                else f"[{o.interval[0]:.3f}, {o.interval[1]:.3f}]",
                "bound": o.bound,
                "verdict": o.verdict,
            }
            for o in self.outcomes
        ]
        return pd.DataFrame(rows, columns=list(TABLE_COLUMNS)).set_index("id")


def check(
    suite: str | Path | CheckSuite | Mapping[str, Any],
    *,
    model: Any = "tfidf-logreg",
    params: Mapping[str, Any] | None = None,
) -> CheckResult:
    """Measure ``model`` on what ``suite`` (a YAML file, a mapping, or a parsed suite) names and
    judge each requirement on its 95 % interval: it passes when the interval's end on the unsafe
    side meets the threshold (Δ's upper end ≤ max_delta), fails when the point estimate does
    not, and is inconclusive (counted as failing) in between.

    ``model`` is what every function takes (:func:`~shortcutlab.models.adapters.resolve_model`):
    a registered name with its ``params`` (``transformer`` with ``{"path": FOLDER}`` for a
    Hugging Face folder, ``llm-prompt`` with an endpoint), a saved .joblib pipeline or an
    estimator; each requirement fits it on the suite's training data.

    Examples:
        >>> suite = {"data": {"builtin": "reviews", "train_size": 300, "test_size": 200},
        ...          "requirements": [{"id": "cue", "maze": {"shortcut": "single-term",
        ...                            "strength": 0.0}, "max_delta": 0.5}]}
        >>> result = check(suite, model="tfidf-logreg")
        >>> result.passed, [o.verdict for o in result.outcomes]
        (True, ['pass'])
    """
    from shortcutlab.models import make_model
    from shortcutlab.models.adapters import model_label, resolve_model

    started = time.perf_counter()
    label = model_label(model, params)
    parsed = load_check_suite(dict(suite) if isinstance(suite, Mapping) else suite)
    name, resolved = resolve_model(model, params)
    context = CheckContext(
        dataset=parsed.data,
        model=name,
        params=resolved,
        model_label=label,
        seeds=parsed.seeds,
        bootstrap=parsed.bootstrap,
        seed=parsed.seed,
    )
    probe = make_model(name, resolved)  # a model that cannot run is refused before any fit
    try:
        probe.check(len(context.labels()))
    finally:
        probe.close()
    outcomes = []
    for requirement in parsed.requirements:
        began = time.perf_counter()
        with caller(GRID):  # a message names a setting as the suite's block does: mps: {...}
            outcome = requirement.measure(context)
        outcomes.append(replace(outcome, seconds=time.perf_counter() - began))
    return CheckResult(
        suite=parsed.name, model=label, outcomes=outcomes, seconds=time.perf_counter() - started
    )
