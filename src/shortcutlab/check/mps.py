"""``mps`` requirements: δ of an attribute the texts already have (MPS, paper 002).

``{mps: {attribute: negation}, max_delta: 0.1}`` builds the MPS benchmark of the suite's data
(:func:`~shortcutlab.families.mps.build.build_mps_benchmark`), fits the model on its Imbalanced
and its Balanced split, and passes when the upper end of δ's 95 % paired bootstrap interval
(:func:`~shortcutlab.metrics.bootstrap_mps_gaps`, as the MPS results compute it) is at most
``max_delta``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import Outcome, bound_text, entry_block, judge_at_most
from shortcutlab.check.maze import threshold
from shortcutlab.families.mps.dominant_labels import LABEL_MIXES
from shortcutlab.params import check_keys, choice, non_empty_string, refuse, spec_key

BLOCK_KEYS = ("attribute", "dominance", "label_mix")
FITS = ("imbalanced", "balanced")


@dataclass(frozen=True)
class MpsRequirement:
    id: str
    attribute: str
    dominance: float | None
    max_delta: float
    label_mix: str = "paper"

    kind = "mps"
    thresholds = ("max_delta",)

    @classmethod
    def parse(cls, id: str, entry: dict[str, Any], where: str, base: Path) -> MpsRequirement:
        from shortcutlab.attributes import ATTRIBUTES

        block = entry_block(entry, cls.kind, where)
        check_keys(block, BLOCK_KEYS, f"{where}: mps")
        if "attribute" not in block:
            raise refuse(spec_key(f"{where}: mps: attribute"), "an attribute name", None)
        attribute = non_empty_string(block["attribute"], f"{where}: mps: attribute")
        if attribute not in ATTRIBUTES:
            from shortcutlab.errors import ConfigError

            raise ConfigError(f"{where}: mps: attribute: {ATTRIBUTES.unknown_message(attribute)}")
        dominance = block.get("dominance")
        return cls(
            id=id,
            attribute=attribute,
            dominance=None if dominance is None else threshold(block, "dominance", f"{where}: mps"),
            max_delta=threshold(entry, "max_delta", where),
            label_mix=choice(
                block.get("label_mix", "paper"), LABEL_MIXES, f"{where}: mps: label_mix"
            ),
        )

    def describe(self) -> str:
        return f"δ ≤ {self.max_delta:g} ({self.attribute})"

    def to_entry(self) -> dict[str, Any]:
        block: dict[str, Any] = {"attribute": self.attribute}
        if self.dominance is not None:
            block["dominance"] = self.dominance
        if self.label_mix != "paper":
            block["label_mix"] = self.label_mix
        return {"id": self.id, "mps": block, "max_delta": self.max_delta}

    def measure(self, context: CheckContext) -> Outcome:
        from shortcutlab.engine.cell import fit_predict_frames, predicted_labels
        from shortcutlab.engine.summary import BOOTSTRAP_SEED
        from shortcutlab.families.mps.build import build_mps_benchmark
        from shortcutlab.metrics import bootstrap_mps_gaps, mps_gaps, percentile_interval

        train, test = context.tables()
        benchmark = build_mps_benchmark(
            train,
            test,
            attribute=self.attribute,
            dominance=self.dominance,
            label_mix=self.label_mix,
            seed=context.seed,
            labels=context.label_list(),
        )
        tests = {"test": benchmark["test"]}
        truth = benchmark.labels.ranks(benchmark["test"]["label"], where="The MPS test split")
        predictions: dict[str, list[np.ndarray]] = {fit: [] for fit in FITS}
        for seed in range(context.seeds):
            for fit in FITS:
                fitted = fit_predict_frames(
                    benchmark, fit, tests, context.model, context.params, seed
                )
                predictions[fit].append(predicted_labels(fitted.probabilities["test"]))
        k = len(benchmark.labels)
        point = float(
            np.mean(
                [
                    mps_gaps(y_true=truth, pred_imbalanced=imb, pred_balanced=bal, n_classes=k)[
                        "delta_isolated"
                    ]
                    for imb, bal in zip(
                        predictions["imbalanced"], predictions["balanced"], strict=True
                    )
                ]
            )
        )
        samples = bootstrap_mps_gaps(
            y_true=truth,
            pred_imbalanced=np.stack(predictions["imbalanced"]),
            pred_balanced=np.stack(predictions["balanced"]),
            n_classes=k,
            n_resamples=context.bootstrap,
            seed=BOOTSTRAP_SEED,
            resample_fits=context.seeds > 1,
        )
        low, high = (float(v) for v in percentile_interval(samples["delta_isolated"]))
        return Outcome(
            id=self.id,
            kind=self.kind,
            requirement=self.describe(),
            figure=point,
            interval=(low, high),
            bound=bound_text("upper", high, self.max_delta),
            verdict=judge_at_most(point, high, self.max_delta),
        )
