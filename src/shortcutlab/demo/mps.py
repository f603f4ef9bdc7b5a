"""The demo's MPS section: an MPS grid (paper 002) on the embedded corpus.

The corpus has what MPS needs without any injection: negated opinions, rhetorical questions, and
a product type (the topic) that says nothing about the rating. The section runs the grid engine
itself (``family: mps``) into ``mps/`` of the demo folder: negation (NBS), question (QBS) and the
product-type concept (SCS, keyword annotator, offline), ``tfidf-logreg`` over the demo's seeds,
and writes the paper-layout tables and the label-distribution figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from shortcutlab.families import load_results, run_experiment
from shortcutlab.families.mps import export as mps_export
from shortcutlab.families.mps.results import MpsRunResults
from shortcutlab.families.mps.spec import parse_mps_spec

MPS_FOLDER = "mps"
# The demo's builds (Maze and MPS) are kept as Parquet (zstd): a fifth of the CSV's bytes, and
# every command that reads a benchmark folder (evaluate, explain, annotate, report) reads either.
SPLIT_FORMAT = "parquet"
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
    # A spec has no key for the builds' format; the build ids do not depend on it.
    datasets = [replace(d, inputs=replace(d.inputs, fmt=SPLIT_FORMAT)) for d in spec.datasets]
    spec = replace(spec, datasets=datasets)
    out = root / MPS_FOLDER
    report = run_experiment(
        spec,
        out / "run",
        jobs=jobs,
        fail_fast=True,
        on_progress=on_progress,
        raise_on_failure=False,
    )
    if report.failed:  # the demo's own grid cannot fail on good input: a bug, not a user error
        cell, error = report.errors[0]
        raise RuntimeError(f"The demo's MPS cell {cell} failed: {error}")
    results = load_results(out / "run")  # an MPS run reads back as MpsRunResults
    mps_export.write(results, out, "md")
    return results
