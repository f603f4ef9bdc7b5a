"""Paired inputs: how a row with ``text`` and ``text_pair`` reaches a model.

A model input is a ``str`` (one text) or a ``(first, second)`` tuple (premise/hypothesis,
question1/question2, question/passage). A batch is all one kind: models tell them apart by the
first element, and :func:`split_inputs` gives the two parts back as parallel lists.

Examples:
    >>> split_inputs([("A man sleeps.", "A person rests."), ("It rains.", "It is dry.")])
    (['A man sleeps.', 'It rains.'], ['A person rests.', 'It is dry.'])
    >>> split_inputs(["one text"])
    (['one text'], None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

from shortcutlab.data.column_names import TEXT, TEXT_PAIR
from shortcutlab.errors import LISTED_NAMES, DataError, ended, knob, listed

TextInput = Union[str, tuple[str, str]]  # noqa: UP007 - a runtime alias, read by type checkers

#: Column pairs recognised without --text-pair-col, in the order they are tried (first, second).
NAMED_PAIR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("premise", "hypothesis"),
    ("sentence1", "sentence2"),
    ("question1", "question2"),
    ("question", "passage"),
    ("question", "context"),
)


def model_inputs(frame: Any) -> list[TextInput]:
    """The model inputs of a canonical table (a DataFrame with ``text`` and maybe ``text_pair``)."""
    if TEXT_PAIR in frame.columns:
        return list(zip(frame[TEXT].tolist(), frame[TEXT_PAIR].tolist(), strict=True))
    return frame[TEXT].tolist()


def is_paired(inputs: Sequence[TextInput]) -> bool:
    """Whether ``inputs`` are (first, second) pairs (an empty batch counts as single texts)."""
    return len(inputs) > 0 and isinstance(inputs[0], tuple)


def split_inputs(inputs: Sequence[TextInput]) -> tuple[list[str], list[str] | None]:
    """The first parts and the second parts (``None`` for single texts) as parallel lists."""
    if not is_paired(inputs):
        return [str(t) for t in inputs], None
    firsts, seconds = [], []
    for item in inputs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise DataError(
                "A batch mixes paired and single-text inputs; give every row a text_pair or none."
            )
        firsts.append(str(item[0]))
        seconds.append(str(item[1]))
    return firsts, seconds


def join_inputs(firsts: Sequence[str], seconds: Sequence[str] | None) -> list[TextInput]:
    """The inverse of :func:`split_inputs`."""
    if seconds is None:
        return list(firsts)
    return list(zip(firsts, seconds, strict=True))


def require_pairs(inputs: Sequence[TextInput], what: str, columns: Sequence[str] = ()) -> None:
    """Raise a DataError when ``what`` (a feature that reads both parts) gets single texts."""
    if len(inputs) and not is_paired(inputs):
        found = f" Columns found: {listed(columns, limit=LISTED_NAMES)}." if columns else ""
        raise DataError(
            f"{what} needs paired inputs (e.g. premise and hypothesis) but the data has one text "
            f"per row.{found} Name the second text with {ended(knob('text_pair_col'))}"
        )


def named_pair_columns(columns: Sequence[str]) -> tuple[str, str] | None:
    """The first of :data:`NAMED_PAIR_COLUMNS` present in ``columns``, if any."""
    present = set(columns)
    for first, second in NAMED_PAIR_COLUMNS:
        if first in present and second in present:
            return first, second
    return None
