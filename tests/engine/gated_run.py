"""A model that holds its fit until a file appears, for runs a test must catch in flight.

``python -m tests.engine.gated_run run SPEC --out RUN`` is the CLI with the model registered as
``test-gated``; a spec gives it ``gate: PATH``, and its fit waits until PATH exists (at most
``patience`` seconds, so a broken test ends). Cells run in-process (one job), where the registry
line is.
"""

from __future__ import annotations

import time
from pathlib import Path

from shortcutlab.models import MODELS
from shortcutlab.models.majority import MajorityClass

GATED = "test-gated"


class GatedMajority(MajorityClass):
    """The majority baseline, fitted only once ``gate`` exists."""

    name = GATED

    def __init__(self, gate: str = "", patience: float = 120.0, seed: int = 0) -> None:
        super().__init__(seed=seed)
        self.gate = gate
        self.patience = patience

    def fit(self, texts, labels, **options):  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + self.patience
        while self.gate and not Path(self.gate).exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        return super().fit(texts, labels, **options)


if __name__ == "__main__":
    from shortcutlab.cli.app import main

    MODELS.add(GATED, "tests.engine.gated_run:GatedMajority")
    main()
