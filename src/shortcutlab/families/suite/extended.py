"""The Shortcut Suite's extended tasks (appendix C).

- ``sentiment-negation``: sentiment data (SST-2 validation in the paper) as the standard set, and
  the Negation shortcut "using the method described in Section 4.1": a tautology appended to the
  end of the (single) text.
- ``paraphrase-overlap``: QQP as the standard set and PAWS "to represent Lexical Overlap shortcut":
  a label-balanced sample of the user's PAWS file. Without one, the high-overlap pairs of the
  user's own paraphrase data stand in for it (both labels, all with most words shared, so word
  overlap no longer tells duplicates apart), leaving out the standard set's rows: evaluation
  compares the two as independent samples. Every row records its word overlap.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR, load_table
from shortcutlab.data.reading import detect_format, read_file
from shortcutlab.errors import DataError, knob
from shortcutlab.families.suite.sets import SOURCE_ROW_ID, standard_set
from shortcutlab.params import quoted

OVERLAP = "overlap"
_WORD = re.compile(r"\w+")
# PAWS's own column names, used when the file lacks the training data's names.
PAWS_COLUMNS = ("sentence1", "sentence2", "label")


def word_overlap(first: str, second: str) -> float:
    """Jaccard similarity of the two texts' lower-cased word sets (1.0: the same words).

    Examples:
        >>> word_overlap("Flights from NYC to Florida", "Flights from Florida to NYC")
        1.0
    """
    a, b = set(_WORD.findall(first.lower())), set(_WORD.findall(second.lower()))
    return len(a & b) / len(a | b) if a | b else 1.0


def with_overlap(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out[OVERLAP] = [
        round(word_overlap(a, b), 6)
        for a, b in zip(out[TEXT].tolist(), out[TEXT_PAIR].tolist(), strict=True)
    ]
    return out


def load_paws(path: str | Path, *, columns: tuple[str, str, str], encoding: str) -> pd.DataFrame:
    """The PAWS file in canonical columns: the training data's column names when it has them,
    else PAWS's own (sentence1, sentence2, label)."""
    path = Path(path)
    header = read_file(path, detect_format(path), encoding=encoding)[0].column_names
    text_col, pair_col, label_col = columns if set(columns) <= set(header) else PAWS_COLUMNS
    table = load_table(
        path,
        text_col=text_col,
        text_pair_col=pair_col,
        label_col=label_col,
        encoding=encoding,
        role="PAWS",
    )
    return table.frame


def paraphrase_overlap_set(
    pairs: pd.DataFrame,
    labels: Sequence[Any],
    size: int,
    rng: np.random.Generator,
    *,
    from_paws: bool,
    min_overlap: float,
    standard_row_ids: Collection[int] = (),
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A label-balanced sample of PAWS pairs, or of the data's pairs with word overlap at least
    ``min_overlap`` that are not among ``standard_row_ids``."""
    scored = with_overlap(pairs)
    record: dict[str, Any] = {"source": "paws" if from_paws else "high-overlap training pairs"}
    if not from_paws:
        outside = ~scored[ROW_ID].isin(standard_row_ids)
        scored = scored[outside & (scored[OVERLAP] >= min_overlap)].reset_index(drop=True)
        record["min_overlap"] = min_overlap
        record["standard_rows_left_out"] = int((~outside).sum())
        counts = scored[LABEL].value_counts().reindex(list(labels), fill_value=0)
        if counts.min() * len(labels) < size:
            raise DataError(
                f"The paraphrase-overlap set needs {size} label-balanced pairs with word overlap "
                f">= {min_overlap} outside the standard set, but the data has only "
                f"{int(counts.min())} of label {quoted(str(counts.idxmin()))}. Pass a PAWS file with "
                f"{knob('paws')} or a smaller {knob('size')}."
            )
    missing = [label for label in labels if label not in set(scored[LABEL])]
    if missing:
        raise DataError(
            f"The PAWS pairs have no row labelled {quoted(str(missing[0]))}, a label of the training data; "
            f"check that both files use the same labels (e.g. 0/1)."
        )
    # Its rows are not derived from the standard set's, so it carries no source_row_id to pair by.
    out = standard_set(scored, labels, size, rng, name="paraphrase-overlap").drop(
        columns=[SOURCE_ROW_ID]
    )
    record["mean_overlap"] = round(float(out[OVERLAP].mean()), 6) if len(out) else None
    return out, record
