"""Perturbation robustness: a test set perturbed by named classes (INV: the label stays; DIR: it
should move to a declared label), each perturbed row paired to its source row by ``row_id``, and
a model's accuracy drop, flip rate and (DIR) moves to the expected label on the changed rows.

What lives here, in the order data flows: the builder (``build``), one build's evaluation
(``statistics``, ``evaluate``, its tables in ``tables``), grids (``spec``, ``runner``), their
results (``results``) and the report sections (``report``). It imports the engine, the shared
libraries and :mod:`shortcutlab.perturb`, never another family.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

FAMILY = Family(
    name="robustness",
    title="Perturbation robustness",
    summary="a test set perturbed by named classes (INV and DIR): accuracy drop and flips per class",
    citation=(
        "Marco Tulio Ribeiro, Tongshuang Wu, Carlos Guestrin, Sameer Singh. Beyond Accuracy: "
        "Behavioral Testing of NLP Models with CheckList. ACL 2020, pages 4902-4912. "
        "https://aclanthology.org/2020.acl-main.442/"
    ),
    manifest_kind="robustness",
    evaluator="shortcutlab.families.robustness.evaluate:evaluate_robustness",
    evaluate_command="robustness evaluate",
    spec_parser="shortcutlab.families.robustness.spec:parse_robustness_spec",
    planner="shortcutlab.families.robustness.runner:plan_robustness_run",
    runner="shortcutlab.families.robustness.runner:run_robustness_experiment",
    plan_columns=(("dataset", "benchmark.dataset.name"), ("perturbation", "benchmark.label")),
    results_loader="shortcutlab.families.robustness.results:load_robustness_results",
    results_text="shortcutlab.families.robustness.results:results_text",
    results_tables="shortcutlab.families.robustness.results:results_tables",
    results_writer="shortcutlab.families.robustness.results:write_results",
    report_sections="shortcutlab.families.robustness.results:report_sections",
)
