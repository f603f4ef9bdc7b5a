"""Suites written from measurements: what was measured, with a margin, as requirements.

A run's suite (:mod:`.run_suites`) holds its measured bounds plus a margin, so a check of the
same model on the same data passes and one that leans on a cue more than measured fails. An
audit gives an ``audit`` requirement: the likely
shortcuts the model was measured not to rely on must stay so (or, where it relies on none,
``no_relied_on_shortcuts``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from shortcutlab.errors import ConfigError, knob, listed
from shortcutlab.params import is_finite_number, quoted

DECIMALS = 3  # thresholds are written rounded up to this many decimals
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._]+")
#: Audit candidates whose names list their members ("discourse markers: a, b (+2)"), which
#: change with the data, so a saved list would not find them again.
UNSTABLE_NAME_KINDS = ("style",)


def rounded_up(value: float) -> float:
    """``value`` rounded up to :data:`DECIMALS` decimals (a threshold the measurement meets).

    Examples:
        >>> rounded_up(0.0712), rounded_up(0.07), rounded_up(-0.0012)
        (0.072, 0.07, -0.001)
    """
    scale = 10**DECIMALS
    return math.ceil(round(value * scale, 6)) / scale


def rounded_down(value: float) -> float:
    """``value`` rounded down to :data:`DECIMALS` decimals (a floor the measurement meets).

    Examples:
        >>> rounded_down(0.9178), rounded_down(0.91)
        (0.917, 0.91)
    """
    scale = 10**DECIMALS
    return math.floor(round(value * scale, 6)) / scale


def check_margin(margin: Any) -> float:
    if not is_finite_number(margin) or margin < 0:
        raise ConfigError(
            f"{knob('margin', run=True)} must be a number >= 0, e.g. 0.02. Got {quoted(margin)}."
        )
    return float(margin)


def requirement_id(*parts: Any) -> str:
    """A requirement id from its parts: ``single-term-term-frankly-l0.8``."""
    text = "-".join(str(p) for p in parts if p not in (None, "")).replace("-", " ")
    return _UNSAFE_NAME.sub("-", text).strip("-.")[:100] or "requirement"


def audit_suite(
    table: pd.DataFrame, data: Mapping[str, Any], *, name: str = "audit", measure_top: int = 10
) -> dict[str, Any]:
    """The suite of an audit with a model (its ranked table): ``no_relied_on_shortcuts`` when no
    likely shortcut is relied on, else the likely shortcuts measured as not relied on."""
    from shortcutlab.check.audit import LIKELY_SHORTCUT

    if "relied_on" not in table.columns or table["relied_on"].isna().all():
        raise ConfigError(
            f"{knob('save_suite')} writes the reliance the audit measured; give {knob('model')}."
        )
    likely = table[
        (table["group"] == LIKELY_SHORTCUT) & table["significant"].fillna(False).astype(bool)
    ]
    relied = likely["relied_on"].fillna(False).astype(bool)
    block: dict[str, Any]
    if not relied.any():
        block = {"no_relied_on_shortcuts": True}
    else:
        kept = likely[(likely["relied_on"] == False) & ~likely["kind"].isin(UNSTABLE_NAME_KINDS)]  # noqa: E712
        if kept.empty:
            raise ConfigError(
                "The model relies on every likely shortcut the audit measured "
                f"({listed(likely.loc[relied, 'candidate'].tolist())}), so no audit requirement "
                "would pass; repair the model first (shortcutlab audit --fix)."
            )
        block = {"not_relied_on": [str(c) for c in kept["candidate"]]}
    if measure_top != 10:
        block["measure_top"] = measure_top
    return {
        "name": requirement_id(name),
        "data": dict(data),
        "requirements": [{"id": "audit-reliance", "audit": block}],
    }


def suite_yaml(suite: Mapping[str, Any]) -> str:
    """The suite as YAML text, in its keys' order."""
    import yaml

    return yaml.safe_dump(dict(suite), sort_keys=False, allow_unicode=True, width=100)
