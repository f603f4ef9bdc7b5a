"""The long, tidy table every result's ``to_pandas()`` returns: one row per cell × split × metric.

A family's wide rows (one per cell, a metric's figures spread over columns such as
``anti_test_accuracy_mean``) are turned long by one function, :func:`long_table`, from a list of
:class:`Measure` records that say where each long row's figures sit in the wide row. The columns,
in order: the cell's identifying columns, then :data:`FIGURE_COLUMNS`. Every column is explained
in the glossary (docs/glossary.md, "The tidy table").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from shortcutlab.errors import ConfigError

#: The identifying columns every long table starts with (a family adds its own after them).
CELL_COLUMNS = ("dataset", "model", "mitigation", "shortcut", "strength")
#: The columns after the identifying ones, in order.
FIGURE_COLUMNS = (
    "split",
    "metric",
    "estimate",
    "ci_low",
    "ci_high",
    "p",
    "p_adjusted",
    "n",
    "std",
    "significant",
    "interval",
    "seeds",
    "distinct_fits",
    "distinct_builds",
)
FLOAT_COLUMNS = ("estimate", "ci_low", "ci_high", "p", "p_adjusted", "std")
COUNT_COLUMNS = ("n", "seeds", "distinct_fits", "distinct_builds")
#: A wide row's ``ci_resamples`` in plain words: what the bootstrap interval resampled.
INTERVALS = {
    "rows,fits": "bootstrap over rows and fits",
    "rows": "bootstrap over rows only (one fit: fit variance not included)",
}
#: The ``interval`` of a binomial share given with its exact interval, not a bootstrap (a flip
#: rate, a sign test's share).
EXACT_INTERVAL = "exact (Clopper–Pearson) over rows"
#: The split of Δ rows: test − anti-test on the paired rows (Maze).
DELTA = "delta"
#: Figures that describe the whole cell, copied onto each of its long rows.
CELL_COUNTS = ("seeds", "distinct_fits", "distinct_builds")


@dataclass(frozen=True)
class Measure:
    """Where one long row's figures sit in a wide row: the wide column of each figure (None:
    the figure does not exist for this measure); ``keys`` are the values of the family's own
    identifying columns (such as MPS's ``trained_on``)."""

    split: str
    metric: str
    estimate: str
    std: str | None = None
    ci_low: str | None = None
    ci_high: str | None = None
    p: str | None = None
    p_adjusted: str | None = None
    significant: str | None = None
    n: str | None = None
    keys: Mapping[str, Any] = field(default_factory=dict)


def long_table(
    wide: pd.DataFrame | Sequence[Mapping[str, Any]],
    measures: Sequence[Measure],
    *,
    identity: Sequence[str] = CELL_COLUMNS,
    keys: Sequence[str] = (),
    interval: str = "ci_resamples",
) -> pd.DataFrame:
    """One row per wide row × measure whose estimate column the wide row has; the columns are
    ``identity`` (None where the wide row lacks one), ``keys``, then :data:`FIGURE_COLUMNS`.
    ``interval`` names the wide column saying what the interval resampled (see :data:`INTERVALS`)."""
    records = wide.to_dict(orient="records") if isinstance(wide, pd.DataFrame) else list(wide)
    rows = []
    for record in records:
        cell = {column: _value(record.get(column)) for column in identity}
        counts = {column: _value(record.get(column)) for column in CELL_COUNTS}
        for measure in measures:
            if measure.estimate not in record:
                continue
            figures = {
                name: _value(record.get(column)) if column else None
                for name, column in (
                    ("estimate", measure.estimate),
                    ("ci_low", measure.ci_low),
                    ("ci_high", measure.ci_high),
                    ("p", measure.p),
                    ("p_adjusted", measure.p_adjusted),
                    ("n", measure.n),
                    ("std", measure.std),
                    ("significant", measure.significant),
                )
            }
            has_interval = figures["ci_low"] is not None
            rows.append(
                cell
                | {key: measure.keys.get(key) for key in keys}
                | {"split": measure.split, "metric": measure.metric}
                | figures
                | {"interval": _interval(record.get(interval)) if has_interval else None}
                | counts
            )
    table = pd.DataFrame(rows, columns=[*identity, *keys, *FIGURE_COLUMNS])
    return table.astype(
        {column: "float64" for column in FLOAT_COLUMNS}
        | {column: "Int64" for column in COUNT_COLUMNS}  # a count, empty where unknown
    )


def _interval(resampled: Any) -> str | None:
    if resampled is None or (isinstance(resampled, float) and math.isnan(resampled)):
        return "bootstrap over rows"
    return INTERVALS.get(str(resampled), str(resampled))


def _value(value: Any) -> Any:
    """NaN as None, so an absent figure reads the same in every column."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        return _value(value.item())
    return value


def check_shape(*, per_seed: bool, wide: bool) -> None:
    """``to_pandas`` refuses both shapes at once: the wide table has one row per cell."""
    if per_seed and wide:
        raise ConfigError(
            "The 'per_seed' and 'wide' parameters of to_pandas cannot both be true: the wide "
            "table has one row per cell. Pass one of them."
        )


def delta_rows(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """The Δ rows of ``metric`` of a long table: what the Δ-vs-λ figure plots."""
    chosen = (table["split"] == DELTA) & (table["metric"] == metric)
    return table[chosen].reset_index(drop=True)
