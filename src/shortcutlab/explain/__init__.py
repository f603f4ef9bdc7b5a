"""Attributions checked against a known cue: SHAP values per token (Partition explainer, Text
masker, over any ``predict_proba``), exact occlusion of the cue's characters, and summaries in the
Shortcut Maze Table 4 layout. Tokens map onto a build's ``cue_spans`` by character offsets.

``shap`` is imported only when values are computed (``pip install 'shortcutlab[explain]'``).

It imports ``data``, ``metrics`` and the bottom layer: it works on any ``predict_proba``.
"""

from __future__ import annotations

from shortcutlab.explain.explained import (
    ExplainedRows,
    RowAttribution,
    explain_rows,
)
from shortcutlab.explain.shap_text import TextExplainer, TokenValues
from shortcutlab.explain.summary import (
    compare,
    rationale_overlap,
    sign_agreement,
    summarize,
    token_table,
    top_token_in_cue,
)
from shortcutlab.explain.tokens import remove_spans, tokens_in_spans, word_spans

__all__ = [
    "ExplainedRows",
    "RowAttribution",
    "TextExplainer",
    "TokenValues",
    "compare",
    "explain_rows",
    "rationale_overlap",
    "remove_spans",
    "sign_agreement",
    "summarize",
    "token_table",
    "tokens_in_spans",
    "top_token_in_cue",
    "word_spans",
]
