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
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from shortcutlab.data.loading import CUE_SPANS, TEXT, TEXT_PAIR
from shortcutlab.errors import DataError
from shortcutlab.params import quoted
from shortcutlab.shortcuts.base import Span


def encode_spans(spans: Sequence[Span]) -> str:
    """The column's value for one row (compact JSON, so builds stay byte-identical)."""
    # Written by hand, not json.dumps: the same text for integer pairs, and a build calls this
    # once per row of every split.
    return "[" + ",".join(f"[{int(start)},{int(end)}]" for start, end in spans) + "]"


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
