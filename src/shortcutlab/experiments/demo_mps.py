"""The demo's MPS section: an MPS grid (paper 002) on the embedded corpus.

The corpus has what MPS needs without any injection: negated opinions, rhetorical questions, and
a product type (the topic) that says nothing about the rating. The section runs the grid engine
itself (``family: mps``) into ``mps/`` of the demo folder: negation (NBS), question (QBS) and the
product-type concept (SCS, keyword annotator, offline), ``tfidf-logreg`` over the demo's seeds,
and writes the paper-layout tables and the label-distribution figures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shortcutlab.experiments.mps_results import MpsRunResults
from shortcutlab.experiments.mps_spec import parse_mps_spec
from shortcutlab.experiments.results import load_results
from shortcutlab.experiments.runner import run_experiment
from shortcutlab.reports.mps_report import write_mps_report

MPS_FOLDER = "mps"
MPS_ATTRIBUTES = (
    "negation",
    "question",
    {
        "name": "sentence-concept",
        "id": "product-type",
        "method": "keywords",
        "categories": "reviews-products",
    },
)


def run_mps_demo(
    root: Path,
    *,
    train_size: int,
    test_size: int,
    levels: int,
    seeds: int,
    seed: int,
    vary: str,
    jobs: int,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> MpsRunResults:
    """Run the MPS grid into ``root/mps`` and write its tables (``summary.md``) and figures."""
    spec = parse_mps_spec(
        {
            "family": "mps",
            "name": "demo-mps",
            "data": {
                "builtin": "reviews",
                "train_size": train_size,
                "test_size": test_size,
                "levels": levels,
                "seed": seed,
            },
            "attributes": list(MPS_ATTRIBUTES),
            "models": ["tfidf-logreg"],
            "seeds": list(range(seeds)),
            "vary": vary,
            "build_seed": seed,
        },
        source="demo",
    )
    out = root / MPS_FOLDER
    report = run_experiment(spec, out / "run", jobs=jobs, fail_fast=True, on_progress=on_progress)
    if report.failed:  # the demo's own grid cannot fail on good input: a bug, not a user error
        cell, error = report.errors[0]
        raise RuntimeError(f"The demo's MPS cell {cell} failed: {error}")
    results = load_results(out / "run")
    if not isinstance(results, MpsRunResults):
        raise RuntimeError("The demo's MPS run folder did not read back as an MPS run.")
    write_mps_report(results, out, "md")
    return results
