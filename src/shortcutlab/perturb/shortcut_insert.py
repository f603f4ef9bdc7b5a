"""A Maze shortcut's cue as a perturbation: the cue inserted into every row of the labels it does
not go with, where invariance meets reliance ("inserting 'honestly' flips 23 % of predictions").

The shortcut itself renders the cue (its ``draw`` makes the per-row choices, its ``render``
writes them), so the inserted text is exactly what a Maze build inserts. Under the Maze's label
schedule (p_i = i/(K-1)) the cue goes with the last label; ``cue_label`` names another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import quoted
from shortcutlab.perturb.base import Perturbation, Perturbed
from shortcutlab.shortcuts import SHORTCUTS, RowDraws, SplitPlan, make_shortcut
from shortcutlab.shortcuts.base import TEST_ROLE


def inserting_shortcuts() -> list[str]:
    """The registered shortcuts that insert their cue as text (a style rewrite has no cue to insert)."""
    return SHORTCUTS.having("inserts_cue")


class ShortcutInsert(Perturbation):
    """The cue of a registered shortcut inserted into the rows of every label but ``cue_label``.

    Args:
        shortcut: A registered shortcut that inserts its cue (single-term, synonym, category,
            tautology, concept-occurrence, concept-correlation).
        options: The shortcut's own options (e.g. ``{"term": "frankly"}``).
        cue_label: The label the cue goes with, whose rows stay as they are (default: the last).
    """

    name = "shortcut-insert"

    def __init__(
        self,
        shortcut: str = "single-term",
        options: Mapping[str, Any] | None = None,
        cue_label: Any = None,
    ) -> None:
        self.shortcut = shortcut
        self.options = options
        self.cue_label = cue_label

    def check(self, label_values: Sequence[Any]) -> None:
        SHORTCUTS.get(self.shortcut)  # an unknown name: did you mean, and the full list
        if not SHORTCUTS.capabilities(self.shortcut)["inserts_cue"]:
            raise ConfigError(
                f"The 'shortcut' parameter of shortcut-insert must be a shortcut that inserts its "
                f"cue ({', '.join(inserting_shortcuts())}); {self.shortcut} rewrites whole texts. "
                f"Got {quoted(self.shortcut)} instead."
            )
        self._cue_rank(label_values)
        make_shortcut(self.shortcut, self.options).validate(LabelSpace(tuple(label_values)))

    def _cue_rank(self, label_values: Sequence[Any]) -> int:
        values = [str(value) for value in label_values]
        if self.cue_label is None:
            return len(values) - 1
        if str(self.cue_label) not in values:
            raise ConfigError(
                f"The 'cue_label' parameter of shortcut-insert must be one of the labels "
                f"{listed(list(label_values), show=repr)}. Got {quoted(self.cue_label)} instead."
            )
        return values.index(str(self.cue_label))

    def perturbed(
        self, texts: list[str], labels: np.ndarray, label_values: Sequence[Any], key: np.uint64
    ) -> Perturbed:
        shortcut = make_shortcut(self.shortcut, self.options)
        ranks = labels.astype(np.int64)
        plan = SplitPlan(
            ranks=ranks, labels=LabelSpace(tuple(label_values)), strength=1.0, role=TEST_ROLE
        )
        draws = shortcut.draw(plan, np.random.SeedSequence(int(key)))
        rows = np.flatnonzero(ranks != self._cue_rank(label_values))
        given = RowDraws(np.ones(len(rows), dtype=bool), draws.take(rows).numbers)
        inserted, _ = shortcut.render([texts[r] for r in rows], given, plan.take(rows))
        out = list(texts)
        for row, text in zip(rows.tolist(), inserted, strict=True):
            out[row] = text
        return Perturbed.compared(texts, out)

    def provenance(self) -> dict[str, str]:
        return {**super().provenance(), "shortcut": self.shortcut}
