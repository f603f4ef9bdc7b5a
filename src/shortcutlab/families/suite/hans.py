"""HANS-style sets for the Shortcut Suite (section 4.1): the built-in generator and a reader for the
official ``heuristics_evaluation_set.txt``.

Either way a set holds ``size`` rows (3,000 in the paper) of one heuristic with "labels and
templates equally divided": every sub-case gets ``size / sub-cases`` rows (the remainder spread
over the first ones), and since each sub-case is one label, the labels are balanced too.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import LISTED_NAMES, DataError, InputFileError, knob, listed
from shortcutlab.families.suite.hans_templates import HEURISTICS, Words
from shortcutlab.families.suite.sets import balanced_counts, draw_balanced

ENTAILMENT, NON_ENTAILMENT = "entailment", "non-entailment"
HEURISTIC, SUBCASE = "heuristic", "subcase"
# The official file's columns we read, and its names for the heuristics.
HANS_COLUMNS = ("gold_label", "sentence1", "sentence2", "heuristic", "subcase")
HANS_NAMES = {
    "lexical_overlap": "lexical-overlap",
    "subsequence": "subsequence",
    "constituent": "constituent",
}
_REDRAWS = 10  # attempts at a pair not yet in the set before a repeat is accepted (and counted)


def generate_heuristic_set(
    heuristic: str, size: int, rng: np.random.Generator
) -> tuple[pd.DataFrame, dict[str, int]]:
    """``size`` generated rows of ``heuristic``, balanced over its sub-cases, in shuffled order;
    and a record of how many pairs repeat an earlier one (the vocabulary is finite)."""
    subcases = HEURISTICS[heuristic]
    rows: list[tuple[str, str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    repeats = 0
    for subcase, count in zip(subcases, balanced_counts(size, len(subcases)), strict=True):
        label = ENTAILMENT if subcase.entailed else NON_ENTAILMENT
        for _ in range(count):
            for _attempt in range(_REDRAWS):
                pair = subcase.make(Words(rng))
                if pair not in seen:
                    break
            else:
                repeats += 1
            seen.add(pair)
            rows.append((pair[0], pair[1], label, subcase.name))
    order = rng.permutation(len(rows))
    frame = pd.DataFrame([rows[i] for i in order], columns=[TEXT, TEXT_PAIR, LABEL, SUBCASE])
    return _canonical(frame, heuristic), {"repeated_pairs": repeats}


def read_hans_file(path: str | Path, *, encoding: str = "utf-8") -> pd.DataFrame:
    """The official HANS file (tab-separated, header ``gold_label ... sentence1 sentence2 pairID
    heuristic subcase template``) as ``text, text_pair, label, heuristic, subcase`` rows."""
    path = Path(path)
    if not path.is_file():
        raise InputFileError(
            f"The HANS file '{path}' does not exist. Check the {knob('hans')} path."
        )
    try:
        raw = pd.read_csv(
            path,
            sep="\t",
            dtype=str,
            quoting=csv.QUOTE_NONE,
            keep_default_na=False,
            encoding=encoding,
        )
    except (UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputFileError(
            f"The HANS file '{path}' cannot be read as tab-separated text: {exc}"
        ) from exc
    missing = [c for c in HANS_COLUMNS if c not in raw.columns]
    if missing:
        raise DataError(
            f"The HANS file '{path}' lacks the column(s) {', '.join(missing)} (found: "
            f"{listed(raw.columns, limit=LISTED_NAMES)}); pass the official heuristics_evaluation_set.txt."
        )
    unknown = sorted(set(raw["heuristic"]) - set(HANS_NAMES))
    if unknown:
        raise DataError(
            f"The HANS file '{path}' has unknown heuristic(s) {listed(unknown)}; expected "
            f"{', '.join(HANS_NAMES)}."
        )
    labels = raw["gold_label"].str.strip().str.lower().replace({"non_entailment": NON_ENTAILMENT})
    bad = sorted(set(labels) - {ENTAILMENT, NON_ENTAILMENT})
    if bad:
        raise DataError(
            f"The HANS file '{path}' has gold label(s) {listed(bad)}; expected entailment or "
            f"non-entailment."
        )
    return pd.DataFrame(
        {
            TEXT: raw["sentence1"],
            TEXT_PAIR: raw["sentence2"],
            LABEL: labels,
            HEURISTIC: raw["heuristic"].map(HANS_NAMES),
            SUBCASE: raw["subcase"],
        }
    )


def sample_heuristic_set(
    hans: pd.DataFrame, heuristic: str, size: int, rng: np.random.Generator, *, source: str
) -> pd.DataFrame:
    """``size`` rows of ``heuristic`` from a read HANS file, balanced over its sub-cases."""
    rows = hans[hans[HEURISTIC] == heuristic]
    entailed = sorted(rows.loc[rows[LABEL] == ENTAILMENT, SUBCASE].unique())
    not_entailed = sorted(rows.loc[rows[LABEL] != ENTAILMENT, SUBCASE].unique())
    # Alternate the halves so a remainder keeps the labels within one row of each other.
    subcases = [s for pair in zip(not_entailed, entailed, strict=False) for s in pair]
    subcases += [s for s in not_entailed + entailed if s not in subcases]
    if not subcases:
        raise DataError(f"The HANS file {source} has no {heuristic} rows.")

    def shortfall(subcase: str, count: int, available: int) -> DataError:
        return DataError(
            f"The HANS file {source} has {available} rows of sub-case {subcase}, fewer than the "
            f"{count} a balanced {heuristic} set of {size} needs. Pass a smaller {knob('size')}."
        )

    picked = rng.permutation(draw_balanced(rows[SUBCASE], subcases, size, rng, shortfall))
    frame = rows.iloc[picked][[TEXT, TEXT_PAIR, LABEL, SUBCASE]].reset_index(drop=True)
    return _canonical(frame, heuristic)


def _canonical(frame: pd.DataFrame, heuristic: str) -> pd.DataFrame:
    frame.insert(0, ROW_ID, np.arange(len(frame), dtype=np.int64))
    frame.insert(frame.columns.get_loc(SUBCASE), HEURISTIC, heuristic)
    return frame
