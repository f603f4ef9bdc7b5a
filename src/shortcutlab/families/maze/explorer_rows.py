"""The test/anti-test pairs whose predicted label changed, as the row explorer's rows.

A pair is a test row and the anti-test row with the same ``row_id`` (as the engine pairs them,
:func:`~shortcutlab.engine.cell.paired_indices`). Its change: ``broke`` (right on test, wrong
on anti-test: the drop Δ counts these), ``fixed`` (the reverse), ``changed`` (wrong on both, with
different labels). Texts and cue spans come from the benchmark folder the cell was fitted on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.loading import CUE_SPANS, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.engine.cell import paired_indices
from shortcutlab.errors import DataError
from shortcutlab.families.maze.cue_spans import cue_column, frame_cue_spans
from shortcutlab.metrics import INVALID
from shortcutlab.reports.html.document import ExplorerRow, Span
from shortcutlab.shortcuts import SHORTCUTS

CHANGES = ("broke", "fixed", "changed")  # also the order of a cell's rows
NO_ANSWER = "(no valid answer)"
PAIR_SEPARATOR = "\n"  # a text pair is shown as its two texts on two lines


@dataclass
class SplitPredictions:
    """One split's predictions in its row order: row ids, true and predicted label indices
    (INVALID where a model gave no valid answer) and the predicted label's probability."""

    row_ids: np.ndarray
    truth: np.ndarray
    predicted: np.ndarray
    confidence: np.ndarray  # NaN where there is no valid answer


@dataclass
class ChangedPairs:
    """A cell's pairs whose prediction changed, in :data:`CHANGES` order then test row order."""

    test_positions: np.ndarray
    anti_positions: np.ndarray
    change_kinds: np.ndarray  # indices into CHANGES (names are made only for the rows shown)
    paired: int  # how many pairs were compared


def changed_pairs(test: SplitPredictions, anti: SplitPredictions) -> ChangedPairs:
    test_index, anti_index = paired_indices(test.row_ids, anti.row_ids)
    test_predicted, anti_predicted = test.predicted[test_index], anti.predicted[anti_index]
    test_right = test_predicted == test.truth[test_index]
    anti_right = anti_predicted == anti.truth[anti_index]
    differs = test_predicted != anti_predicted
    kinds = np.select(
        [test_right & ~anti_right, ~test_right & anti_right], [0, 1], default=2
    )  # indices into CHANGES
    chosen = np.flatnonzero(differs)
    chosen = chosen[np.lexsort((test_index[chosen], kinds[chosen]))]
    return ChangedPairs(
        test_positions=test_index[chosen],
        anti_positions=anti_index[chosen],
        change_kinds=kinds[chosen],
        paired=len(test_index),
    )


@dataclass
class SplitTexts:
    """What a split's rows show: the text (and text pair) and the cue's character spans in it."""

    texts: list[str]
    spans: list[list[tuple[int, int]]]  # (start, end) pairs, made Spans only for the rows shown
    position_of: dict[int, int]  # row id -> row position in the benchmark's split file
    unmarked: str = ""  # why no cue is marked ('' when the spans were read)


@dataclass
class BenchmarkTexts:
    """A benchmark folder's test and anti-test texts, read on first use."""

    benchmark: Benchmark
    splits: dict[str, SplitTexts] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        """The label values as shown, in rank order."""
        return [str(value) for value in self.benchmark.labels.to_json()]

    def split(self, name: str) -> SplitTexts:
        if name not in self.splits:
            self.splits[name] = split_texts(self.benchmark, name)
        return self.splits[name]


def split_texts(benchmark: Benchmark, split: str) -> SplitTexts:
    frame = benchmark[split]
    texts = frame[TEXT].astype(str).tolist()
    pairs = frame[TEXT_PAIR].astype(str).tolist() if TEXT_PAIR in frame.columns else None
    missing, column = "", cue_column(benchmark.manifest)
    shortcut = benchmark.shortcut
    try:
        spans = frame_cue_spans(frame, column, split=split)
    except DataError as exc:
        spans = [[] for _ in texts]
        rewrites = shortcut in SHORTCUTS and not SHORTCUTS.capabilities(shortcut)["inserts_cue"]
        missing = (
            f"{shortcut} rewrites whole texts (a style), so no span holds its cue."
            if rewrites and CUE_SPANS not in frame.columns
            else str(exc)
        )
    if pairs is not None:
        shift = column == TEXT_PAIR and not missing
        for i, text in enumerate(texts):
            offset = len(text) + len(PAIR_SEPARATOR)
            texts[i] = text + PAIR_SEPARATOR + pairs[i]
            if shift:
                spans[i] = [(start + offset, end + offset) for start, end in spans[i]]
    ids = frame[ROW_ID].to_numpy()
    return SplitTexts(texts, spans, {int(r): i for i, r in enumerate(ids)}, missing)


def explorer_rows(
    pairs: ChangedPairs,
    test: SplitPredictions,
    anti: SplitPredictions,
    texts: BenchmarkTexts,
    limit: int,
) -> list[ExplorerRow]:
    """The first ``limit`` changed pairs as rows, with the benchmark's texts and label values."""
    if limit <= 0:
        return []  # the texts are not read
    labels = texts.labels
    test_texts, anti_texts = texts.split("test"), texts.split("anti_test")
    rows = []
    for test_at, anti_at, change in zip(
        pairs.test_positions[:limit],
        pairs.anti_positions[:limit],
        pairs.change_kinds[:limit],
        strict=True,
    ):
        row_id = int(test.row_ids[test_at])
        shown_test = test_texts.position_of.get(row_id)
        shown_anti = anti_texts.position_of.get(int(anti.row_ids[anti_at]))
        if shown_test is None or shown_anti is None:
            raise DataError(
                f"Row {row_id} of the stored predictions is not in the benchmark folder "
                f"'{texts.benchmark.path}': the folder does not hold the build the cell was fitted on."
            )
        rows.append(
            ExplorerRow(
                row_id=str(row_id),
                label=labels[test.truth[test_at]],
                test_text=test_texts.texts[shown_test],
                anti_text=anti_texts.texts[shown_anti],
                test_spans=[Span(start, end) for start, end in test_texts.spans[shown_test]],
                anti_spans=[Span(start, end) for start, end in anti_texts.spans[shown_anti]],
                test_prediction=_label(labels, test.predicted[test_at]),
                anti_prediction=_label(labels, anti.predicted[anti_at]),
                test_confidence=_confidence(test.confidence[test_at]),
                anti_confidence=_confidence(anti.confidence[anti_at]),
                change=CHANGES[change],
            )
        )
    return rows


def _label(labels: list[str], index: int) -> str:
    return NO_ANSWER if index == INVALID else labels[index]


def _confidence(value: float) -> float | None:
    return None if np.isnan(value) else round(float(value), 4)  # 4 digits: enough to sort by
