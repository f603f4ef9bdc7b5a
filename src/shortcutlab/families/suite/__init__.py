"""The Shortcut Suite (Yuan et al.): NLI test sets with one shortcut each (negation and position
tautologies, Bible style, HANS-style lexical overlap, subsequence and constituent), and a model
or an LLM's prompting strategies evaluated on them.

What lives here: the builder (``build``, with ``sets``, ``extended``, ``hans`` and its templates),
the evaluation (``folder``, ``evaluate``, the explanation scores in ``explanations``), its tables
and figures (``tables``, ``plots``) and the report sections (``report``). It imports the engine
and the shared libraries, never another family. The Suite has no grids: ``shortcutlab suite
evaluate`` runs it.
"""

from __future__ import annotations

from shortcutlab.engine.family import Family

#: Rows per set (section 4.1: 3,000 pairs); here so the CLI reads it without loading the builder.
DEFAULT_SIZE = 3000

FAMILY = Family(
    name="suite",
    title="Shortcut Suite",
    summary="NLI test sets with one shortcut each, and a model's accuracy on every one",
    citation=(
        "Yu Yuan, Lili Zhao, Kai Zhang, Guangting Zheng, Qi Liu. Do LLMs Overcome Shortcut "
        "Learning? An Evaluation of Shortcut Challenges in Large Language Models. EMNLP 2024, "
        "pages 12188-12200. https://aclanthology.org/2024.emnlp-main.679/"
    ),
    manifest_kind="shortcut-suite",
    evaluator="shortcutlab.families.suite.evaluate:evaluate_suite",
    evaluate_command="suite evaluate",
    output_collectors={"suite": "shortcutlab.families.suite.report"},
)
