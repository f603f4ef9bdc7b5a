"""Shortcut Maze (Zhou et al.): a cue injected into the training data with strength λ, and the
drop Δ = test − anti-test of a model trained on it.

What lives here, in the order data flows: the builder (``build``: one streamed pass per input
table, ``pipeline``, ``stratify``, ``distractors`` for the concept shortcuts, ``cue_spans``), the
single-benchmark evaluation (``evaluate``, ``redraw``), grids (``spec``, ``grid``, ``runner``,
the cell in ``task``), their statistics (``results``, ``mitigation_summary``), the tables and
figures (``export``), the report sections (``report``, ``explorer``), and the explanations
checked against the cue (``explain``; tables and pictures beside it) and the rewrite-quality
checks of the style shortcuts. It imports the engine and the shared libraries, never another
family.
"""

from __future__ import annotations

from shortcutlab.data.existing_splits import EXISTING_SPLITS
from shortcutlab.engine.family import Family

FAMILY = Family(
    name="maze",
    title="Shortcut Maze",
    summary="a cue injected with strength λ: train / test / anti-test, and the drop Δ",
    citation=(
        "Yuqing Zhou, Ruixiang Tang, Ziyu Yao, Ziwei Zhu. Navigating the Shortcut Maze: A "
        "Comprehensive Analysis of Shortcut Learning in Text Classification by Language Models. "
        "Findings of EMNLP 2024, pages 2586-2614. https://aclanthology.org/2024.findings-emnlp.146/"
    ),
    manifest_kind="shortcut-maze",
    evaluator="shortcutlab.families.maze.evaluate:evaluate_benchmark",
    evaluate_command="evaluate",
    also_evaluates=(EXISTING_SPLITS,),
    spec_parser="shortcutlab.families.maze.spec:parse_maze_spec",
    planner="shortcutlab.families.maze.runner:plan_maze_run",
    runner="shortcutlab.families.maze.runner:run_maze_experiment",
    plan_columns=(
        ("dataset", "benchmark.dataset.name"),
        ("shortcut", "benchmark.label"),
        ("λ", "benchmark.strength"),
    ),
    results_loader="shortcutlab.families.maze.results:load_maze_results",
    results_text="shortcutlab.families.maze.export:tables",
    results_tables="shortcutlab.families.maze.export:table_sections",
    results_findings="shortcutlab.families.maze.export:findings",
    results_writer="shortcutlab.families.maze.export:write",
    figures="shortcutlab.families.maze.export:figures",
    report_sections="shortcutlab.families.maze.report:sections",
    output_collectors={
        "evaluation": "shortcutlab.families.maze.evaluation_report",
        "explain": "shortcutlab.families.maze.explain_report",
        "rewrite-quality": "shortcutlab.families.maze.rewrites_report",
    },
    prediction_splits="shortcutlab.families.maze.task:prediction_splits",
)
