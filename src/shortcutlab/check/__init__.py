"""``shortcutlab check``: a suite of requirements on a model, judged on intervals, for CI.

A suite (YAML) names the data and a list of requirements, each of a registered *kind*
(:data:`~shortcutlab.check.kinds.REQUIREMENTS`: maze, mps, audit, robustness). :func:`check`
fits and measures the model for each and judges the bound of its 95 % interval on the unsafe
side against the threshold: pass, fail, or inconclusive (the point meets it, the interval does
not), which counts as a failure. Suites can be written from measurements (:mod:`.saved`).
"""

from __future__ import annotations

from shortcutlab.check.run import CheckResult, check

__all__ = ["CheckResult", "check"]
