"""Small mitigations registered only inside tests (the real methods live in
shortcutlab.mitigations): a group-balanced subsample that reads training groups and draws with
its seed, a method that needs held-out rows, one that needs paired inputs, and the plain fit
under another name.

``patch_registry(monkeypatch)`` adds them to the registry until the patch is undone (one test,
or one module); ``register()`` adds them for good, for a ``shortcutlab`` process a test starts.
"""

from __future__ import annotations

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import MITIGATIONS, Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.base import GROUPS_HELD_OUT, GROUPS_TRAIN
from shortcutlab.mitigations.erm import Erm

BACKENDS = ("tfidf-logreg", "tfidf-svm", "majority", "bow-mlp")


class GroupDownsample(Mitigation):
    """Every training group cut to the smallest group's size (at least ``min_rows``), drawn with
    the seed; the backend fitted on what is left."""

    name = "test-downsample"
    groups_needed = GROUPS_TRAIN
    backends = BACKENDS
    uses_seed = True

    def __init__(self, min_rows: int = 1) -> None:
        self.min_rows = min_rows

    def check_params(self) -> None:
        if not isinstance(self.min_rows, int) or self.min_rows < 1:
            raise ConfigError(f"min_rows must be an integer >= 1. Got {self.min_rows!r}.")

    def fit(self, context: MitigationContext) -> Predictor:
        groups = context.train.groups
        assert groups is not None, "a method reading training groups must get them"
        rng = np.random.default_rng(context.seed)
        present = np.unique(groups[groups >= 0])
        size = max(self.min_rows, min(int((groups == g).sum()) for g in present))
        kept = np.sort(
            np.concatenate(
                [
                    rng.choice(
                        np.flatnonzero(groups == g),
                        min(size, int((groups == g).sum())),
                        replace=False,
                    )
                    for g in present
                ]
            )
        )
        rows = context.train.take(kept)
        model = context.new_model()
        model.fit(
            rows.inputs,
            rows.labels,
            n_classes=context.n_classes,
            validation=context.validation_pair(),
        )
        return model


class HeldOutOnly(Mitigation):
    """Reads groups on held-out rows only; fits the backend on the training rows plus the
    held-out rows of the largest held-out group (enough to differ from erm)."""

    name = "test-held-out"
    groups_needed = GROUPS_HELD_OUT
    backends = BACKENDS

    def fit(self, context: MitigationContext) -> Predictor:
        assert context.train.groups is None and context.validation is not None
        held_out = context.validation
        assert held_out.groups is not None
        largest = np.bincount(held_out.groups).argmax()
        extra = held_out.take(np.flatnonzero(held_out.groups == largest))
        model = context.new_model()
        model.fit(
            [*context.train.inputs, *extra.inputs],
            np.concatenate([context.train.labels, extra.labels]),
            n_classes=context.n_classes,
        )
        return model


class PairsOnly(Mitigation):
    """Declares that it augments paired inputs (as cat-augment does); otherwise the plain fit."""

    name = "test-pairs-only"
    backends = BACKENDS
    needs_pairs = True

    def fit(self, context: MitigationContext) -> Predictor:
        model = context.new_model()
        model.fit(context.train.inputs, context.train.labels, n_classes=context.n_classes)
        return model


class PlainCopy(Erm):
    """The plain fit under another name: predictions identical to erm's."""

    name = "test-plain-copy"


DOUBLES = {cls.name: cls for cls in (GroupDownsample, HeldOutOnly, PairsOnly, PlainCopy)}


def register() -> None:
    for name, cls in DOUBLES.items():
        if name not in MITIGATIONS:
            MITIGATIONS.add(name, cls)


def patch_registry(patch: pytest.MonkeyPatch) -> None:
    """Add the test mitigations through ``patch``, which removes them when it is undone."""
    for name, cls in DOUBLES.items():
        patch.setitem(MITIGATIONS._entries, name, cls)


if (
    __name__ == "__main__"
):  # `python -m tests.families.maze.mitigation_doubles run ...`: the CLI with them
    from shortcutlab.cli.app import main
    from tests.families.maze.mitigation_doubles import register as register_by_name

    register_by_name()  # the classes under their importable name, so workers can unpickle them
    main()
