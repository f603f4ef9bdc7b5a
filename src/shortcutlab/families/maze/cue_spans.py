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

from shortcutlab.data.columns import string_array
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
    """:func:`span_column` of rows holding one span ``[start, end)`` each, or none (-1).

    The texts are laid out as bytes with numpy: a matrix with a row per text ("[[", the start's
    digits, ",", the end's digits, "]]", each number right-aligned in a field as wide as the
    widest) and a mask of the bytes kept (not the fields' padding; "[" and "]" without a span).
    Arrow's kernels that format and join the numbers took several times as long."""
    has = np.asarray(start) >= 0
    every = bool(has.all())
    numbers = [np.asarray(b, np.int64) if every else np.where(has, b, 0) for b in (start, end)]
    widths = [len(str(int(number.max(initial=0)))) for number in numbers]
    matrix = np.empty((len(has), sum(widths) + 5), np.uint8)
    keep = np.empty(matrix.shape, bool)
    keep[:, :2] = True
    keep[:, 2:] = True if every else has[:, None]
    for at, text in ((0, "[["), (widths[0] + 2, ","), (-2, "]]")):
        matrix[:, at : at + len(text) or None] = np.frombuffer(text.encode(), np.uint8)
    if not every:
        matrix[:, 1] = np.where(has, ord("["), ord("]"))  # "[]" without a span: its first bytes
    digits = [
        _digits_into(matrix[:, 2 : 2 + widths[0]], keep[:, 2 : 2 + widths[0]], numbers[0]),
        _digits_into(matrix[:, 3 + widths[0] : -2], keep[:, 3 + widths[0] : -2], numbers[1]),
    ]
    lengths = digits[0] + digits[1] + 5
    if not every:
        lengths[~has] = 2
    offsets = np.zeros(len(has) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.Array.from_buffers(
        pa.string(), len(has), [None, pa.py_buffer(offsets), pa.py_buffer(matrix[keep])]
    )


def _digits_into(field: np.ndarray, keep: np.ndarray, numbers: np.ndarray) -> np.ndarray:
    """Non-negative numbers as ASCII digits right-aligned in ``field`` (a column per digit):
    ``keep`` loses the padding before them. Returns how many digits each has."""
    digits = np.ones(len(numbers), np.int64)  # a zero has its one digit
    rest = numbers.copy()
    for place in range(field.shape[1] - 1, -1, -1):  # the ones first, right to left
        field[:, place] = rest % 10 + ord("0")
        rest //= 10
        if place:
            keep[:, place - 1] &= rest > 0
            digits += rest > 0
    return digits


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
