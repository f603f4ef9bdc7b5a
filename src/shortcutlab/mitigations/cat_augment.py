"""``cat-augment``: the counterfactual augmentation of the Counterfactual Attentiveness Test (CAT;
Elazar et al. 2023, "Measuring and Improving Attentiveness to Partial Inputs with
Counterfactuals", section 6; paper 003), as a mitigation.

Every training pair (x1, x2) whose label is not the task's default label gets one counterfactual:
x1 (or x2, ``replace: text_pair``) taken from another training row with a different x1, labelled
with the default label (neutral, non-entailment, ...; section 4.2). The backend is then fitted on
the original and the added rows, so it learns that a pair whose parts do not belong together
has the default relation. The donors are drawn as CAT's (shortcuts/counterfactuals.py), from the seed.
"""

from __future__ import annotations

import numpy as np

from shortcutlab.data.pairs import TEXT, TEXT_PAIR, join_inputs, require_pairs, split_inputs
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor, TrainingRows
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.params import check_one_of, require
from shortcutlab.shortcuts.counterfactuals import counterfactual_donors, resolve_default_label


class CatAugment(Mitigation):
    """Adds one default-labelled counterfactual per non-default training pair.

    Args:
        default_label: A label, or preset nli3, nli2, paraphrase, qa (default: inferred).
        replace: The part swapped for another row's: text or text_pair.
    """

    name = "cat-augment"

    def __init__(self, default_label: str | None = None, replace: str = TEXT) -> None:
        self.default_label = default_label
        self.replace = replace

    def check_params(self) -> None:
        require(
            self.default_label is None or isinstance(self.default_label, str | int | float),
            self.name,
            "default_label",
            "null (inferred from the labels), a preset (nli3, nli2, paraphrase, qa) or a label",
            self.default_label,
        )
        check_one_of(self.name, "replace", self.replace, (TEXT, TEXT_PAIR))

    def fit(self, context: MitigationContext) -> Predictor:
        return fit_backend(context, self.repaired(context))

    def repaired(self, context: MitigationContext) -> TrainingRows:
        """The training rows followed by their counterfactuals (what it trains on)."""
        train = context.train
        require_pairs(train.inputs, "cat-augment")
        given = None if self.default_label is None else str(self.default_label)
        default = resolve_default_label(context.label_values, given)
        default_rank = list(context.label_values).index(default)
        firsts, seconds = split_inputs(train.inputs)
        parts = {TEXT: firsts, TEXT_PAIR: seconds or []}
        donors = counterfactual_donors(parts[self.replace], k=1, seed=context.seed)[0]
        chosen = np.flatnonzero(train.labels != default_rank)
        added_parts = {name: [part[row] for row in chosen] for name, part in parts.items()}
        added_parts[self.replace] = [parts[self.replace][donors[row]] for row in chosen]
        added = join_inputs(added_parts[TEXT], added_parts[TEXT_PAIR])
        return TrainingRows(
            train.inputs + added,
            np.concatenate([train.labels, np.full(len(chosen), default_rank, dtype=np.int64)]),
        )
