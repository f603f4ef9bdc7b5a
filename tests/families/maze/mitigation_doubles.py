"""Small mitigations registered only inside tests (the real methods live in
shortcutlab.mitigations): a group-balanced subsample that reads training groups and draws with
its seed, a method that needs held-out rows, one that needs paired inputs, and the plain fit
under another name.

Each is one class and one registry line (``DOUBLES``: the class and its capabilities).
``registered()`` adds them for a ``with`` block (one test, or one module) and removes them after;
``register()`` adds them for good, for a ``shortcutlab`` process a test starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.mitigations import MITIGATIONS, Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.erm import Erm
from shortcutlab.mitigations.registry import GROUPS_HELD_OUT, GROUPS_TRAIN

#: Backends that learn from rows, but not a fine-tuned encoder (slow in these tests).
BACKENDS = {"learns": True, "network": frozenset({None, "bag-of-words"})}


class GroupDownsample(Mitigation):
    """Every training group cut to the smallest group's size (at least ``min_rows``), drawn with
    the seed; the backend fitted on what is left."""

    name = "test-downsample"

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

    def fit(self, context: MitigationContext) -> Predictor:
        model = context.new_model()
        model.fit(context.train.inputs, context.train.labels, n_classes=context.n_classes)
        return model


class PlainCopy(Erm):
    """The plain fit under another name: predictions identical to erm's."""

    name = "test-plain-copy"


#: Each double and the capabilities its registry line declares.
DOUBLES: dict[str, tuple[type[Mitigation], dict[str, Any]]] = {
    GroupDownsample.name: (
        GroupDownsample,
        {"groups": GROUPS_TRAIN, "seeded": True, "backends": BACKENDS},
    ),
    HeldOutOnly.name: (HeldOutOnly, {"groups": GROUPS_HELD_OUT, "backends": BACKENDS}),
    PairsOnly.name: (PairsOnly, {"pairs": True, "backends": BACKENDS}),
    PlainCopy.name: (PlainCopy, {}),
}


def register() -> list[str]:
    """Add the doubles not yet registered; returns their names."""
    added = [name for name in DOUBLES if name not in MITIGATIONS]
    for name in added:
        cls, capabilities = DOUBLES[name]
        MITIGATIONS.add(name, cls, **capabilities)
    return added


@contextmanager
def registered() -> Iterator[None]:
    """The doubles registered inside the block, removed after."""
    added = register()
    try:
        yield
    finally:
        for name in added:
            MITIGATIONS.remove(name)


if (
    __name__ == "__main__"
):  # `python -m tests.families.maze.mitigation_doubles run ...`: the CLI with them
    from shortcutlab.cli.app import main
    from tests.families.maze.mitigation_doubles import register as register_by_name

    register_by_name()  # the classes under their importable name, so workers can unpickle them
    main()
