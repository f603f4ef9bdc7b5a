"""``robustness`` requirements: the accuracy drop (or pass rate) under a perturbation class.

``{robustness: {perturbation: typos-keyboard}, max_drop: 0.02}`` or ``min_pass_rate: 0.95``:
the test rows are perturbed by the named class (:func:`shortcutlab.perturb.perturb`, seeded,
paired to their source rows by position); the model, fitted once on the suite's training rows,
predicts both. The figures are the robustness family's
(:func:`shortcutlab.families.robustness.statistics.paired_statistics`), on the rows the class
changed: the drop (accuracy original - perturbed) with its 95 % paired bootstrap interval,
judged on its upper end; or the pass rate
with its exact (Clopper–Pearson) 95 % interval, judged on its lower end. INV: the share of rows
whose prediction stays (1 − flip rate). DIR (``min_pass_rate`` only): CheckList's direction
rule, the share of rows whose expected label's probability went up, of those where it changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import (
    INCONCLUSIVE,
    Outcome,
    bound_text,
    entry_block,
    judge_at_least,
    judge_at_most,
)
from shortcutlab.check.maze import threshold
from shortcutlab.errors import ConfigError, DataError
from shortcutlab.params import check_keys, non_empty_string, refuse, spec_key

BLOCK_KEYS = ("perturbation", "params")
THRESHOLDS = ("max_drop", "min_pass_rate")


@dataclass(frozen=True)
class RobustnessRequirement:
    id: str
    perturbation: str
    max_drop: float | None
    min_pass_rate: float | None
    params: dict[str, Any] | None = None  # the class's parameters (a DIR class's expect)

    kind = "robustness"
    thresholds = THRESHOLDS

    @classmethod
    def parse(cls, id: str, entry: dict[str, Any], where: str, base: Path) -> RobustnessRequirement:
        from shortcutlab.perturb import PERTURBATIONS, perturbation_names, resolve

        block = entry_block(entry, cls.kind, where)
        check_keys(block, BLOCK_KEYS, f"{where}: robustness")
        if "perturbation" not in block:
            raise refuse(
                spec_key(f"{where}: robustness: perturbation"), "a perturbation class", None
            )
        name = non_empty_string(block["perturbation"], f"{where}: robustness: perturbation")
        if name not in perturbation_names():
            raise ConfigError(
                f"{where}: robustness: perturbation: {PERTURBATIONS.unknown_message(name)}"
            )
        given = [key for key in THRESHOLDS if key in entry]
        if len(given) != 1:
            raise ConfigError(
                f"{where} needs exactly one of 'max_drop' and 'min_pass_rate'. Got "
                f"{'both' if given else 'neither'}."
            )
        if given == ["max_drop"] and PERTURBATIONS.capabilities(resolve(name)[0])["kind"] == "DIR":
            raise ConfigError(
                f"{where}: {name} is a DIR class (the label should move), so an accuracy drop "
                "says nothing; give min_pass_rate (the share moving the expected way)."
            )
        return cls(
            id=id,
            perturbation=name,
            max_drop=threshold(entry, "max_drop", where) if "max_drop" in entry else None,
            min_pass_rate=threshold(entry, "min_pass_rate", where)
            if "min_pass_rate" in entry
            else None,
            params=_params(block.get("params"), f"{where}: robustness: params"),
        )

    def describe(self) -> str:
        if self.max_drop is not None:
            return f"drop ≤ {self.max_drop:g} ({self.perturbation})"
        return f"pass rate ≥ {self.min_pass_rate:g} ({self.perturbation})"

    def to_entry(self) -> dict[str, Any]:
        limit = (
            {"max_drop": self.max_drop}
            if self.max_drop is not None
            else {"min_pass_rate": self.min_pass_rate}
        )
        block: dict[str, Any] = {"perturbation": self.perturbation}
        if self.params:
            block["params"] = self.params
        return {"id": self.id, "robustness": block, **limit}

    def measure(self, context: CheckContext) -> Outcome:
        from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR
        from shortcutlab.engine.summary import BOOTSTRAP_SEED
        from shortcutlab.families.robustness.statistics import paired_statistics
        from shortcutlab.perturb import perturb

        test = context.tables()[1]
        if TEXT_PAIR in test.column_names():
            raise DataError(
                f"Requirement '{self.id}' perturbs single texts, and the suite's data has pairs "
                "(text_pair); remove it or check an unpaired data set."
            )
        labels = context.labels()
        truth = labels.ranks(test.frame[LABEL], where="The test split")
        texts = test.frame[TEXT].tolist()
        edited = perturb(
            self.perturbation,
            texts,
            truth,
            label_values=labels.values,
            seed=context.seed,
            params=self.params,
        )
        direction = edited.expected is not None
        # As the robustness build does: a DIR class measures the changed rows with an expected label
        measured = edited.changed & (edited.expected >= 0) if direction else edited.changed
        rows = np.flatnonzero(measured)
        if not len(rows):
            raise DataError(
                f"The perturbation {self.perturbation} changed none of the {len(texts)} test rows"
                f"{' that have an expected label' if direction else ''}, so requirement "
                f"'{self.id}' measures nothing; choose a class that applies."
            )
        figures = paired_statistics(
            truth_original=truth[rows],
            truth_perturbed=edited.expected[rows] if direction else truth[rows],
            proba_original=context.probabilities([texts[i] for i in rows]),
            proba_perturbed=context.probabilities([edited.texts[i] for i in rows]),
            direction=direction,
            n_resamples=context.bootstrap,
            seed=BOOTSTRAP_SEED,
        )
        return self._judged(figures, f"{len(rows)} of {len(texts)} test rows changed.", direction)

    def _judged(self, figures: dict[str, Any], note: str, direction: bool) -> Outcome:
        """The outcome from the robustness family's figures of the changed rows: the drop, the
        share kept (1 − flip rate) or, for DIR, the share moving toward the expected label."""
        judged = {"id": self.id, "kind": self.kind, "requirement": self.describe()}
        if self.max_drop is not None:
            point, low, high = (figures[k] for k in ("drop", "drop_ci_low", "drop_ci_high"))
            verdict = judge_at_most(point, high, self.max_drop)
            bound = bound_text("upper", high, self.max_drop)
        elif not direction:
            point = 1 - figures["flip_rate"]
            low, high = 1 - figures["flip_rate_ci_high"], 1 - figures["flip_rate_ci_low"]
            verdict = judge_at_least(point, low, float(self.min_pass_rate or 0))
            bound = bound_text("lower", low, float(self.min_pass_rate or 0))
        elif "toward_expected" not in figures:  # no expected label's probability moved at all
            return Outcome(
                **judged,
                figure=None,
                interval=None,
                bound="not measured: the expected label's probability moved on no changed row",
                verdict=INCONCLUSIVE,
                notes=(note,),
            )
        else:
            point = figures["toward_expected"]
            low, high = figures["toward_expected_ci_low"], figures["toward_expected_ci_high"]
            verdict = judge_at_least(point, low, float(self.min_pass_rate or 0))
            bound = bound_text("lower", low, float(self.min_pass_rate or 0))
            note += (
                f" The expected label's probability moved on {figures['direction_rows']} of them."
            )
        return Outcome(
            **judged,
            figure=float(point),
            interval=(float(low), float(high)),
            bound=bound,
            verdict=verdict,
            notes=(note,),
        )


def _params(value: Any, where: str) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise refuse(spec_key(where), "a mapping of the class's parameters", value)
    return value
