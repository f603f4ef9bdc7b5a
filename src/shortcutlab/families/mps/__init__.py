"""MPS (paper 002): labels redistributed around an attribute the texts already have, so one label
dominates each attribute group (Imbalanced), next to a Balanced set and a label-balanced test set;
δ, Δ and ζ over worst-label accuracy.

What lives here, in the order data flows: the builder (``build``, with ``plan``,
``dominant_labels``, ``held_out``, ``rows``, ``redistribute`` and ``manifest``), grids (``spec``,
``grid``, ``runner``, the cell in ``cell``), their statistics (``summary``, ``results``), the
tables and figures (``tables``, ``plots``, ``export``) and the report sections (``report``). It
imports the engine and the shared libraries, never another family.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

FAMILY = Family(
    name="mps",
    title="MPS",
    summary="labels redistributed around an attribute: imbalanced / balanced / test, δ and Δ",
    citation=(
        "MPS: A Multi-Perspective Benchmark for Assessing Spurious Correlations in Text "
        "Classification. Anonymous authors, paper under double-blind review."
    ),
    manifest_kind="mps",
    no_evaluation=(
        "is measured by a grid that fits on Imbalanced and on Balanced, not on its own: write a "
        "spec with 'family: mps' and run 'shortcutlab run SPEC' (docs/tutorials/mps-study.md)."
    ),
    spec_parser="shortcutlab.families.mps.spec:parse_mps_spec",
    planner="shortcutlab.families.mps.runner:plan_mps_run",
    runner="shortcutlab.families.mps.runner:run_mps_experiment",
    plan_columns=(("dataset", "benchmark.dataset.name"), ("attribute", "benchmark.label")),
    results_loader="shortcutlab.families.mps.results:load_mps_results",
    results_text="shortcutlab.families.mps.export:tables",
    results_tables="shortcutlab.families.mps.export:table_sections",
    results_findings="shortcutlab.families.mps.export:findings",
    results_writer="shortcutlab.families.mps.export:write",
    figures="shortcutlab.families.mps.export:figures",
    report_sections="shortcutlab.families.mps.report:sections",
    prediction_splits="shortcutlab.families.mps.cell:prediction_splits",
)
