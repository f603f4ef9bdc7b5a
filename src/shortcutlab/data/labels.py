"""Ordered label sets.

The Shortcut Maze label schedule is by rank (p_i = i/(K-1)), so the order of labels is part of a
benchmark's definition: numeric labels sort numerically; other labels follow the order the user
gives, or their first appearance (with a warning, because that order is an accident of the file).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.errors import ConfigError, DataError, ShortcutlabWarning

Label = int | float | str

_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def normalize_label_values(values: pd.Series) -> pd.Series:
    """Return labels as int, float or str: text that spells numbers becomes numbers.

    Examples:
        >>> normalize_label_values(pd.Series(["1", "10", "2"])).tolist()
        [1, 10, 2]
        >>> normalize_label_values(pd.Series(["0.4", "1.0"])).tolist()
        [0.4, 1.0]
        >>> normalize_label_values(pd.Series(["neg", "pos"])).tolist()
        ['neg', 'pos']
    """
    if pd.api.types.is_bool_dtype(values):
        return values.astype(str).astype(object)
    if pd.api.types.is_integer_dtype(values):
        return values.astype("int64")
    if pd.api.types.is_float_dtype(values):
        return values.astype("float64")  # 0.4 ... 1.0 ratings stay floats even where integral
    text = values.astype(str).str.strip()
    if len(text) and text.map(lambda v: bool(_INT.match(v))).all():
        return text.astype("int64")
    if len(text) and text.map(lambda v: bool(_FLOAT.match(v))).all():
        return text.astype("float64")
    return text.astype(object)


def _coerce_like(given: Sequence[Any], sample: Label) -> list[Label]:
    """Convert user-given label names (strings from the command line) to the data's type."""
    converted = normalize_label_values(pd.Series([str(v) for v in given]))
    out: list[Label] = converted.tolist()
    if isinstance(sample, str):
        out = [str(v) for v in given]
    elif isinstance(sample, float):
        out = [float(v) for v in out] if all(isinstance(v, int | float) for v in out) else out
    return out


@dataclass(frozen=True)
class LabelSpace:
    """An ordered tuple of labels; rank ``i`` is a label's index in :attr:`values`.

    Examples:
        >>> space = LabelSpace((1, 2, 3))
        >>> space.ranks(pd.Series([3, 1])).tolist()
        [2, 0]
        >>> len(space)
        3
    """

    values: tuple[Label, ...]

    def __post_init__(self) -> None:
        if len(set(self.values)) != len(self.values):
            raise ConfigError(f"Labels must be unique. Got {list(self.values)!r} instead.")

    def __len__(self) -> int:
        return len(self.values)

    def ranks(self, labels: pd.Series | Sequence[Label], *, where: str = "data") -> np.ndarray:
        """Map label values to their ranks 0..K-1; unknown values raise a DataError."""
        lookup = {value: rank for rank, value in enumerate(self.values)}
        series = pd.Series(labels, dtype=object)
        ranks = series.map(lookup)
        if ranks.isna().any():
            unknown = sorted({str(v) for v in series[ranks.isna()]})
            raise DataError(
                f"{where} has labels {', '.join(unknown)} that are not in the label set "
                f"{', '.join(map(str, self.values))}."
            )
        return ranks.to_numpy(dtype=np.int64)

    def to_json(self) -> list[Label]:
        return [v.item() if hasattr(v, "item") else v for v in self.values]

    @classmethod
    def infer(
        cls,
        labels: Iterable[Label],
        *,
        given: Sequence[Any] | None = None,
        source: str = "the training data",
    ) -> LabelSpace:
        """Derive the label order from the observed labels (in order of appearance).

        Numeric labels sort numerically; ``given`` fixes the order explicitly; otherwise
        non-numeric labels keep first-appearance order and a :class:`ShortcutlabWarning` says so.
        """
        seen = list(dict.fromkeys(labels))
        if not seen:
            raise DataError(f"{source} has no labels.")
        if given:
            order = _coerce_like(given, seen[0])
            if len(set(order)) != len(order):
                raise ConfigError(f"The 'labels' parameter repeats a label: {list(given)!r}.")
            missing = [v for v in seen if v not in set(order)]
            if missing:
                raise DataError(
                    f"{source} has labels {', '.join(map(str, missing))} that are missing from "
                    f"labels={', '.join(map(str, order))}. List every label in --labels."
                )
            space = cls(tuple(order))
        elif all(isinstance(v, int | float | np.integer | np.floating) for v in seen):
            space = cls(tuple(sorted(seen)))
        else:
            warnings.warn(
                f"Labels of {source} are not numeric; using their order of first appearance "
                f"({', '.join(map(str, seen))}). The label schedule is by rank: pass --labels "
                f"to fix the order.",
                ShortcutlabWarning,
                stacklevel=2,
            )
            space = cls(tuple(seen))
        present = [v for v in space.values if v in set(seen)]
        if len(present) < 2:
            raise DataError(
                f"{source} has fewer than two labels ({', '.join(map(str, seen))}); "
                f"a classifier needs at least two. Check --label-col."
            )
        return space
