"""``robustness`` requirements: the accuracy drop (or pass rate) under a perturbation class.

``{robustness: {perturbation: typos-keyboard}, max_drop: 0.02}`` or ``min_pass_rate: 0.95``:
the test rows are perturbed by the named class (:mod:`shortcutlab.perturb`, seeded, paired to
their source rows), the model fitted on the suite's training rows predicts both, and the drop
(accuracy original - perturbed) with its 95 % paired bootstrap interval, or the pass rate (the
share of rows whose prediction stays), is judged on the interval's unsafe end.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import Outcome, entry_block
from shortcutlab.check.maze import threshold
from shortcutlab.errors import ConfigError
from shortcutlab.params import check_keys, non_empty_string, refuse, spec_key

BLOCK_KEYS = ("perturbation",)
THRESHOLDS = ("max_drop", "min_pass_rate")
PERTURB_MODULE = "shortcutlab.perturb"


def check_perturbations_available(where: str) -> None:
    """Refuse a robustness requirement where the perturbation classes are not installed."""
    if importlib.util.find_spec(PERTURB_MODULE) is None:
        raise ConfigError(
            f"{where} is a robustness requirement, which needs the perturbation classes "
            f"({PERTURB_MODULE}), and this shortcutlab has none yet; remove the requirement or "
            "upgrade shortcutlab."
        )


@dataclass(frozen=True)
class RobustnessRequirement:
    id: str
    perturbation: str
    max_drop: float | None
    min_pass_rate: float | None

    kind = "robustness"
    thresholds = THRESHOLDS

    @classmethod
    def parse(cls, id: str, entry: dict[str, Any], where: str, base: Path) -> RobustnessRequirement:
        block = entry_block(entry, cls.kind, where)
        check_keys(block, BLOCK_KEYS, f"{where}: robustness")
        if "perturbation" not in block:
            raise refuse(
                spec_key(f"{where}: robustness: perturbation"), "a perturbation class", None
            )
        given = [key for key in THRESHOLDS if key in entry]
        if len(given) != 1:
            raise ConfigError(
                f"{where} needs exactly one of 'max_drop' and 'min_pass_rate'. Got "
                f"{'both' if given else 'neither'}."
            )
        check_perturbations_available(where)
        return cls(
            id=id,
            perturbation=non_empty_string(
                block["perturbation"], f"{where}: robustness: perturbation"
            ),
            max_drop=threshold(entry, "max_drop", where) if "max_drop" in entry else None,
            min_pass_rate=threshold(entry, "min_pass_rate", where)
            if "min_pass_rate" in entry
            else None,
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
        return {"id": self.id, "robustness": {"perturbation": self.perturbation}, **limit}

    def measure(self, context: CheckContext) -> Outcome:  # pragma: no cover - needs perturb
        check_perturbations_available(f"requirement {self.id!r}")
        raise NotImplementedError
