"""``downsample``: every training group cut, by a seeded draw, to the size of the smallest one.

Group-balanced subsampling (SubpopBench's SUBG; Idrissi et al. 2022, "Simple data balancing
achieves competitive worst-group-accuracy"). With ``prior`` it becomes the MPS paper's "human
prior + downsampling" baseline (MPS section 5, after Li et al. 2024): a person names the
attribute values they suspect (``prior: [honestly]``); only the (label, value) groups with a
named value are cut to the smallest of them, and groups with other values are kept whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shortcutlab.errors import ConfigError, listed
from shortcutlab.mitigations.balancing import balanced_rows, require_groups
from shortcutlab.mitigations.base import Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend
from shortcutlab.params import require


class Downsample(Mitigation):
    """Fits the backend on a group-balanced subsample of the training rows.

    Args:
        prior: Suspected attribute values: only their groups are cut (default: all groups).
    """

    name = "downsample"

    def __init__(self, prior: Sequence[str] | None = None) -> None:
        self.prior = prior

    def check_params(self) -> None:
        require(
            self.prior is None
            or (
                isinstance(self.prior, list | tuple)
                and len(self.prior) > 0
                and all(isinstance(v, str | int | float | bool) for v in self.prior)
            ),
            self.name,
            "prior",
            "null or a non-empty list of attribute values",
            self.prior,
        )

    def fit(self, context: MitigationContext) -> Predictor:
        return fit_backend(context, context.train.take(self.kept_rows(context)))

    def kept_rows(self, context: MitigationContext) -> np.ndarray:
        """Sorted positions of the training rows the backend is fitted on (seeded draw)."""
        groups = require_groups(context.train, self.name)
        balanced = None if self.prior is None else self._named_groups(context)
        rng = np.random.default_rng(np.random.SeedSequence(context.seed))
        return balanced_rows(groups, rng, balanced=balanced)

    def _named_groups(self, context: MitigationContext) -> np.ndarray:
        """Codes of the training groups whose attribute value the prior names."""
        values = [name.split("|", 1)[-1] for name in context.group_names]
        present = sorted({values[g] for g in np.unique(context.train.groups)})
        named = {str(v) for v in self.prior or ()}
        unknown = sorted(named - set(present))
        if unknown:
            raise ConfigError(
                f"The 'prior' parameter of downsample names {listed(unknown, show=repr)}, which "
                f"no training group has; the attribute values are {listed(present)}."
            )
        return np.array([code for code, value in enumerate(values) if value in named])
