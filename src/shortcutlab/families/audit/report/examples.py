"""The training rows an audit shows for a candidate: up to five rows of its label that carry it,
drawn from the seed, with the candidate's characters marked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.loading import TEXT
from shortcutlab.families.audit.report.record import EXAMPLES_PER_CANDIDATE
from shortcutlab.families.audit.scan.candidates import INDICATOR_KINDS
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.seeds import derived_seed
from shortcutlab.families.audit.scan.stage import ScanResult
from shortcutlab.shortcuts.phrases_in_text import phrase_spans


def candidate_examples(
    result: ScanResult, train: AuditInputs, row: Any, column: np.ndarray | None
) -> list[dict[str, Any]]:
    """Up to five training rows with the candidate (``column``: its indicator) and its label;
    the phrase's spans marked."""
    if row.kind not in INDICATOR_KINDS or pd.isna(row.label_rank):
        return []
    rows = np.flatnonzero(column & (train.ranks == int(row.label_rank)))
    rng = np.random.default_rng(derived_seed(result.config.seed, "examples", row.key))
    chosen = np.sort(rng.permutation(rows)[:EXAMPLES_PER_CANDIDATE])
    phrases = _marked_phrases(result, row)
    part = row.part or TEXT
    examples = []
    for i in chosen:
        text = train.text(part, i)
        spans = _merged(sorted(span for phrase in phrases for span in phrase_spans(text, phrase)))
        examples.append(
            {
                "row_id": int(train.row_ids[i]),
                "part": part,
                "text": text,
                "spans": spans,
                "label": train.labels.values[int(train.ranks[i])],
            }
        )
    return examples


def _merged(spans: list[list[int]]) -> list[list[int]]:
    """Sorted spans with overlapping ones joined ("new york" inside "new york city")."""
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def _marked_phrases(result: ScanResult, row: Any) -> list[str]:
    """What to mark in an example: a word or n-gram itself, a word list's entries; nothing for
    properties of the whole row (an attribute value, a length bin, a metadata value)."""
    features = result.train_features
    j = features.keys.index(row.key)
    if features.phrases[j]:
        return [features.phrases[j]]
    if row.kind == "lexicon":
        name = features.names[j].split("lexicon = ", 1)[-1]
        return result.config.features.word_lists().get(name, [])
    return []
