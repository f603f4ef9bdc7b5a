"""A requirement kind: how a suite entry of that kind is read, measured and judged.

Each kind is one class on the :data:`REQUIREMENTS` registry line (lazy ``module:Class``): its
``parse`` reads the entry's own block and thresholds, and ``measure`` returns an
:class:`Outcome`. A new kind is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from shortcutlab.registry import Registry

PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
#: Verdicts that fail the build: an inconclusive one cannot be claimed as a pass at 95 %.
FAILING = (FAIL, INCONCLUSIVE)
#: The interval every figure carries: the library's 95 % percentile bootstrap.
CONFIDENCE = "95 %"

REQUIREMENTS: Registry[Any] = Registry("requirement kind")
REQUIREMENTS.add("maze", "shortcutlab.check.maze:MazeRequirement")
REQUIREMENTS.add("mps", "shortcutlab.check.mps:MpsRequirement")
REQUIREMENTS.add("audit", "shortcutlab.check.audit:AuditRequirement")
REQUIREMENTS.add("robustness", "shortcutlab.check.robustness:RobustnessRequirement")


@dataclass(frozen=True)
class Outcome:
    """One requirement measured and judged: the row of the table and the JUnit testcase."""

    id: str
    kind: str
    requirement: str  # what was asked, in words: "Δ ≤ 0.05 (single-term, λ=0.8)"
    figure: float | str | None
    interval: tuple[float, float] | None
    bound: str  # the figure compared with the threshold: "upper 0.071 ≤ 0.05"
    verdict: str
    notes: tuple[str, ...] = field(default_factory=tuple)
    seconds: float = 0.0  # wall time of the measurement (the JUnit testcase's time)

    @property
    def failed(self) -> bool:
        return self.verdict in FAILING

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "requirement": self.requirement,
            "figure": self.figure,
            "ci_low": None if self.interval is None else self.interval[0],
            "ci_high": None if self.interval is None else self.interval[1],
            "bound": self.bound,
            "verdict": self.verdict,
            "notes": " ".join(self.notes) or None,
        }

    def failure_message(self) -> str:
        """One line for a CI log: the figure, its interval and the bound that decided."""
        figure = self.figure if not isinstance(self.figure, float) else f"{self.figure:.3f}"
        interval = (
            ""
            if self.interval is None
            else f", {CONFIDENCE} interval [{self.interval[0]:.3f}, {self.interval[1]:.3f}]"
        )
        return f"{self.verdict}: {self.requirement}: figure {figure}{interval}; {self.bound}"


class Requirement(Protocol):
    """A parsed requirement of one kind (``id`` set by the suite)."""

    id: str

    def describe(self) -> str: ...

    def measure(self, context: Any) -> Outcome: ...

    def to_entry(self) -> dict[str, Any]: ...


def judge_at_most(point: float, high: float, limit: float) -> str:
    """``pass`` when the interval's upper end is within ``limit``, ``fail`` when the point
    estimate is past it, else ``inconclusive`` (the interval crosses the limit).

    Examples:
        >>> judge_at_most(0.01, 0.04, 0.05), judge_at_most(0.03, 0.07, 0.05), judge_at_most(0.06, 0.09, 0.05)
        ('pass', 'inconclusive', 'fail')
    """
    if high <= limit:
        return PASS
    return FAIL if point > limit else INCONCLUSIVE


def judge_at_least(point: float, low: float, limit: float) -> str:
    """The mirror of :func:`judge_at_most` for a figure that must stay high (a pass rate).

    Examples:
        >>> judge_at_least(0.97, 0.95, 0.9), judge_at_least(0.93, 0.88, 0.9), judge_at_least(0.8, 0.7, 0.9)
        ('pass', 'inconclusive', 'fail')
    """
    if low >= limit:
        return PASS
    return FAIL if point < limit else INCONCLUSIVE


def bound_text(side: str, value: float, limit: float) -> str:
    """``upper 0.071 > 0.05``: the interval end compared and the threshold."""
    sign = ("≤" if value <= limit else ">") if side == "upper" else ("≥" if value >= limit else "<")
    return f"{side} {value:.3f} {sign} {limit:g}"


def entry_block(entry: Mapping[str, Any], kind: str, where: str) -> dict[str, Any]:
    """The kind's own block of a requirement entry (``maze: {...}``), a mapping."""
    from shortcutlab.errors import ConfigError
    from shortcutlab.params import quoted

    block = entry[kind]
    if not isinstance(block, dict):
        raise ConfigError(
            f"{where}: {kind} must be a mapping of its settings. Got {quoted(block)}."
        )
    return block
