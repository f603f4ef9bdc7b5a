"""The Counterfactual Attentiveness Test (paper 003) for paired inputs: how often a model's
prediction changes when x1 comes from another row, beside partial-input baselines, and CAT
augmentation.

What lives here: one CAT run (``run``, scoring the k counterfactual sets in ``scoring``), grids
(``spec``, ``runner``, ``results``), the table (``export``) and the report sections
(``report``). The counterfactual swap itself is :mod:`shortcutlab.shortcuts.counterfactuals`,
shared with the ``cat-augment`` mitigation. It imports the engine and the shared libraries, never
another family.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

FAMILY = Family(
    name="cat",
    title="Counterfactual Attentiveness Test",
    summary="paired inputs: how often a prediction changes when x1 comes from another row",
    citation=(
        "Yanai Elazar, Bhargavi Paranjape, Hao Peng, Sarah Wiegreffe, Khyathi Chandu, Vivek "
        "Srikumar, Sameer Singh, Noah A. Smith. Measuring and Improving Attentiveness to Partial "
        "Inputs with Counterfactuals. Findings of EMNLP 2024, pages 3603-3623. "
        "https://aclanthology.org/2024.findings-emnlp.205/"
    ),
    spec_parser="shortcutlab.families.cat.spec:parse_cat_spec",
    planner="shortcutlab.families.cat.runner:plan_cat_run",
    runner="shortcutlab.families.cat.runner:run_cat_experiment",
    plan_columns=(("dataset", "benchmark.dataset.name"), ("training", "label")),
    results_loader="shortcutlab.families.cat.results:load_cat_results",
    results_text="shortcutlab.families.cat.export:tables",
    results_tables="shortcutlab.families.cat.export:table_sections",
    results_writer="shortcutlab.families.cat.export:write",
    report_sections="shortcutlab.families.cat.report:grid_sections",
    output_collectors={"cat": "shortcutlab.families.cat.report"},
)
