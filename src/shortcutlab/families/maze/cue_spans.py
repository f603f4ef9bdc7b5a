"""Where a Maze build put each inserted cue: the ``cue_spans`` column, a JSON list of
``[start, end]`` character offsets into the text that got the cue (``text``, or ``text_pair`` for a
build with ``inject_on: text_pair``); ``"[]"`` for a row without one.

The spans come from the injector while it writes the text (:class:`InsertingShortcut`), never
from searching the cue's words, so attribution checks know exactly which characters are the cue.

Examples:
    >>> encode_spans([(0, 10)])
    '[[0,10]]'
    >>> decode_spans("[[0,10]]", text="Honestly, it works.")
    [(0, 10)]
    >>> span_column([[(0, 10)], [], [(3, 9)]]).to_pylist()
    ['[[0,10]]', '[]', '[[3,9]]']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from shortcutlab.data.columns import int_array, string_array, text_scalar
from shortcutlab.data.loading import CUE_SPANS, TEXT, TEXT_PAIR
from shortcutlab.errors import DataError
from shortcutlab.params import quoted
from shortcutlab.shortcuts.base import Span


def encode_spans(spans: Sequence[Span]) -> str:
    """The column's value for one row (compact JSON, so builds stay byte-identical)."""
    # Written by hand, not json.dumps: the same text for integer pairs, and a build calls this
    # once per row of every split.
    return "[" + ",".join(f"[{int(start)},{int(end)}]" for start, end in spans) + "]"


def span_column(rows: Sequence[Sequence[Span]]) -> pa.Array:
    """The column's values for many rows: :func:`encode_spans` of each, made by Arrow kernels
    where no row has more than one span (every inserting shortcut's rows)."""
    counts = np.fromiter(map(len, rows), np.int64, len(rows))
    if counts.max(initial=0) > 1:
        return string_array([encode_spans(row) for row in rows])
    pairs = np.fromiter(chain.from_iterable(chain.from_iterable(rows)), np.int64).reshape(-1, 2)
    start, end = np.full(len(rows), -1, np.int64), np.full(len(rows), -1, np.int64)
    start[counts > 0], end[counts > 0] = pairs[:, 0], pairs[:, 1]
    return span_column_of(start, end)


def span_column_of(start: np.ndarray, end: np.ndarray) -> pa.Array:
    """:func:`span_column` of rows holding one span ``[start, end)`` each, or none (-1)."""
    has = start >= 0
    numbers = [
        pc.cast(int_array(np.ascontiguousarray(bound[has], np.int64)), "string")
        for bound in (start, end)
    ]
    pieces = ("[[", numbers[0], ",", numbers[1], "]]", "")
    texts = pc.binary_join_element_wise(
        *(text_scalar(p) if isinstance(p, str) else p for p in pieces)
    )
    # Row i takes its own text, or "[]" (entry 0) where it has no span.
    choices = pa.concat_arrays([string_array(["[]"]), texts])
    return choices.take(int_array(np.where(has, np.cumsum(has), 0)))


def decode_spans(value: Any, *, text: str, where: str = "a row") -> list[Span]:
    """The spans of one row, checked to be ordered, non-empty and inside ``text``."""
    try:
        raw = json.loads(value) if isinstance(value, str) else None
    except json.JSONDecodeError:
        raw = None
    spans: list[Span] = []
    if isinstance(raw, list):
        for item in raw:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item)
            ):
                break
            spans.append((item[0], item[1]))
        else:
            previous_end = 0
            for start, end in spans:
                if not previous_end <= start < end <= len(text):
                    break
                previous_end = end
            else:
                return spans
    raise DataError(
        f"The {CUE_SPANS} value of {where} is {quoted(value)}, which is not a JSON list of ordered "
        f"[start, end] offsets inside its {len(text)}-character text. Rebuild the benchmark."
    )


def cue_column(manifest: dict[str, Any]) -> str:
    """The column whose text the spans index: ``text_pair`` when the build injected there."""
    return TEXT_PAIR if manifest.get("arguments", {}).get("inject_on") == TEXT_PAIR else TEXT


def frame_cue_spans(frame: Any, column: str = TEXT, *, split: str = "split") -> list[list[Span]]:
    """The decoded spans of every row of a split (its ``cue_spans`` column must exist)."""
    if CUE_SPANS not in frame.columns:
        raise DataError(
            f"The {split} split has no {CUE_SPANS} column. Rebuild the benchmark with this version "
            "of shortcutlab (builds record where an inserted cue sits)."
        )
    return [
        decode_spans(value, text=text, where=f"{split} row {row_id}")
        for value, text, row_id in zip(
            frame[CUE_SPANS].tolist(), frame[column].tolist(), frame["row_id"].tolist(), strict=True
        )
    ]
