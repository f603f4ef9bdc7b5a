"""Explain rows that carry a known cue: SHAP values per token, exact occlusion of the cue, and the
rationale a rationalizing model selected (when it has one).

Occlusion is the change of every output when the cue's characters are removed: a build's span
holds the inserted text with its separator, so removing it gives back the row as it was before the
cue went in. It needs two model calls per row and no sampling.

SHAP asks the model about many masked versions of each row, a few dozen at a time. A model that
embeds texts (``embed_ahead``, e.g. the sentence encoder) is handed the masked versions of many rows
in one call first (:func:`_explain_all`), so it embeds them in large batches and SHAP's small calls
read them back. SHAP's calls themselves stay as they were: the model's head sees the same batches.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, is_paired
from shortcutlab.errors import DataError
from shortcutlab.explain.shap_text import TextExplainer, TokenValues
from shortcutlab.explain.tokens import Span, remove_spans, tokens_in_spans

#: Which part of a row carries the cue: the single text or the first part (0), the second part (1).
FIRST, SECOND = 0, 1
#: Masked inputs handed to ``embed_ahead`` in one call, at most (and one row more): bounds memory.
AHEAD_INPUTS = 20_000


@dataclass
class RowAttribution:
    """One explained row. ``values[t, k]``: SHAP value of token t for output k (probabilities);
    ``probabilities`` on the row as it is, ``without_cue`` with the cue's spans removed."""

    row_id: Any
    text: str  # the part of the row that carries the cue
    spans: list[Span]
    group: str  # the cue's row in the Table 4 layout ("cue", or the side it inserted)
    offsets: list[Span]
    values: np.ndarray
    base: np.ndarray
    probabilities: np.ndarray
    without_cue: np.ndarray
    rationale: list[Span] | None = None

    @property
    def in_cue(self) -> np.ndarray:
        return tokens_in_spans(self.offsets, self.spans)

    @property
    def tokens(self) -> list[str]:
        return [self.text[start:end] for start, end in self.offsets]

    @property
    def predicted(self) -> int:
        return int(np.argmax(self.probabilities))

    @property
    def occlusion(self) -> np.ndarray:
        """Per output, how much the cue adds: p(row) - p(row without the cue)."""
        return self.probabilities - self.without_cue

    @property
    def cue_values(self) -> np.ndarray:
        """Per output, the SHAP values of the cue's tokens summed."""
        return self.values[self.in_cue].sum(axis=0)


@dataclass
class ExplainedRows:
    """The rows of one model and the time each method took (seconds, whole rows)."""

    rows: list[RowAttribution]
    shap_seconds: float
    occlusion_seconds: float


def explain_rows(
    predict_proba: Callable[[list[TextInput]], np.ndarray],
    inputs: Sequence[TextInput],
    spans: Sequence[Sequence[Span]],
    *,
    row_ids: Sequence[Any],
    groups: Sequence[str],
    part: int = FIRST,
    explainer: TextExplainer | None = None,
    rationales: Callable[[list[TextInput]], list[list[Span]]] | None = None,
    embed_ahead: Callable[[list[TextInput]], None] | None = None,
) -> ExplainedRows:
    """Explain every row (each must carry at least one cue span in its ``part``) with
    ``explainer`` (default: every token resolved, see :class:`TextExplainer`). ``embed_ahead``:
    the model's way to prepare for inputs it will be asked about (see the module docstring)."""
    paired = is_paired(inputs)
    for row_id, row_spans in zip(row_ids, spans, strict=True):
        if not row_spans:
            raise DataError(
                f"Row {row_id} carries no recorded cue; explain only rows whose cue_spans is not []."
            )
    explainer = explainer or TextExplainer()

    started = time.perf_counter()
    full = _probabilities(predict_proba, list(inputs))
    occluded = _probabilities(
        predict_proba,
        [
            _with_part(x, remove_spans(_part(x, part), s), part)
            for x, s in zip(inputs, spans, strict=True)
        ],
    )
    occlusion_seconds = time.perf_counter() - started

    started = time.perf_counter()
    explained = _explain_all(predict_proba, explainer, list(inputs), part, embed_ahead)
    shap_seconds = time.perf_counter() - started

    selected = rationales(list(inputs)) if rationales is not None and not paired else None
    rows = [
        RowAttribution(
            row_id=row_id,
            text=_part(item, part),
            spans=[(int(a), int(b)) for a, b in row_spans],
            group=group,
            offsets=values.offsets,
            values=values.values,
            base=values.base,
            probabilities=full[i],
            without_cue=occluded[i],
            rationale=None if selected is None else [(int(a), int(b)) for a, b in selected[i]],
        )
        for i, (row_id, item, row_spans, group, values) in enumerate(
            zip(row_ids, inputs, spans, groups, explained, strict=True)
        )
    ]
    return ExplainedRows(rows, shap_seconds, occlusion_seconds)


def _explain_all(
    predict_proba: Callable[[list[TextInput]], np.ndarray],
    explainer: TextExplainer,
    inputs: list[TextInput],
    part: int,
    embed_ahead: Callable[[list[TextInput]], None] | None,
) -> list[TokenValues]:
    """Each row's SHAP values. With ``embed_ahead``, the masked inputs of the next rows (up to
    :data:`AHEAD_INPUTS`, listed by :meth:`TextExplainer.masked_texts`) are handed to it in one
    call before SHAP asks about them."""
    explained: list[TokenValues] = []
    start = 0
    while start < len(inputs):
        end = len(inputs)
        if embed_ahead is not None:
            ahead: list[TextInput] = []
            end = start
            while end < len(inputs) and len(ahead) < AHEAD_INPUTS:
                text = _part(inputs[end], part)
                ahead += [_with_part(inputs[end], m, part) for m in explainer.masked_texts(text)]
                end += 1
            embed_ahead(list(dict.fromkeys(ahead)))
        for item in inputs[start:end]:

            def predict(masked: list[str], item: TextInput = item) -> np.ndarray:
                return predict_proba([_with_part(item, m, part) for m in masked])

            explained.append(explainer.explain(_part(item, part), predict))
        start = end
    return explained


def _probabilities(
    predict_proba: Callable[[list[TextInput]], np.ndarray], inputs: list[TextInput]
) -> np.ndarray:
    found = np.asarray(predict_proba(inputs), dtype=np.float64)
    if found.ndim != 2 or len(found) != len(inputs):
        raise DataError(
            f"The model returned probabilities of shape {found.shape} for {len(inputs)} inputs."
        )
    return found


def _part(item: TextInput, part: int) -> str:
    return item[part] if isinstance(item, tuple) else item


def _with_part(item: TextInput, text: str, part: int) -> TextInput:
    if not isinstance(item, tuple):
        return text
    return (text, item[1]) if part == FIRST else (item[0], text)
