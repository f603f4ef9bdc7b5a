"""A toy mitigation defined inside the tests: the backend fitted on a seeded random half of the
training rows (subsampling, as in subagging: Bühlmann and Yu 2002, "Analyzing Bagging").

It shows what adding a mitigation takes: one class that follows the ``Mitigation`` contract and
one registry line declaring what it needs (no groups, its own random draw, backends that learn
from rows). :func:`registered` adds the line for a ``with`` block and removes it after; the
mitigation tests run under it (tests/mitigations/conftest.py), so the common tests over the
registry pick it up.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import numpy as np

from shortcutlab.mitigations import MITIGATIONS, Mitigation, MitigationContext, Predictor
from shortcutlab.mitigations.fitting import fit_backend
from tests.registration import registered_for

TOY = "toy-half-sample"


class HalfSample(Mitigation):
    """Fits the backend on half of the training rows, drawn with the seed."""

    name = TOY

    def fit(self, context: MitigationContext) -> Predictor:
        rng = np.random.default_rng(np.random.SeedSequence(context.seed))
        size = len(context.train) // 2
        rows = np.sort(rng.choice(len(context.train), size=size, replace=False))
        return fit_backend(context, context.train.take(rows))


def registered() -> AbstractContextManager[str]:
    """The toy mitigation registered (its one line) inside a ``with`` block; its name is yielded."""
    return registered_for(MITIGATIONS, TOY, HalfSample, seeded=True, backends={"learns": True})


def with_toy(names: Callable[[], list[str]] = MITIGATIONS.names) -> list[str]:
    """``names()`` of the registry while the toy is registered: what a test parametrised over
    the registry runs on (the mitigation tests' autouse fixture registers the toy while they run)."""
    with registered():
        return names()
