"""Suites written from measurements: what was measured, with a margin, as requirements.

A run's suite (:mod:`.run_suites`) holds its measured bounds plus a margin, so a check of the
same model on the same data passes and one that leans on a cue more than measured fails. An
audit gives an ``audit`` requirement: no likely shortcut relied on beyond those relied on when it
was saved (``accepted``, a baseline).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from shortcutlab.errors import ConfigError, knob
from shortcutlab.params import is_finite_number, quoted

DECIMALS = 3  # thresholds are written rounded up to this many decimals
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._]+")


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
    """The suite of an audit with a model (its ranked table): ``no_relied_on_shortcuts``, with
    the likely shortcuts relied on now as ``accepted``, those not measured as
    ``accepted_unmeasured`` and styles by word class as ``accepted_styles``: a baseline, so the
    same model on the same data passes and one newly relying on a likely shortcut fails."""
    from shortcutlab.check.audit import LIKELY_SHORTCUT, STYLE, stable_name, style_class

    if "relied_on" not in table.columns or table["relied_on"].isna().all():
        raise ConfigError(
            f"{knob('save_suite')} writes the reliance the audit measured; give {knob('model')}."
        )
    likely = table[
        (table["group"] == LIKELY_SHORTCUT) & table["significant"].fillna(False).astype(bool)
    ]
    relied = likely["relied_on"].fillna(False).astype(bool)
    unmeasured = likely["relied_on"].isna()
    styles = likely["kind"] == STYLE
    block: dict[str, Any] = {"no_relied_on_shortcuts": True}
    for key, rows in (("accepted", relied), ("accepted_unmeasured", unmeasured)):
        if (rows & ~styles).any():
            # A quantile bin's edges change with the data: it is saved by its stem, once.
            chosen = likely.loc[rows & ~styles]
            stable = map(stable_name, chosen["candidate"], chosen["kind"])
            block[key] = list(dict.fromkeys(stable))
    # A style's name lists its markers, which change with the data: it is accepted by class.
    if (styles & (relied | unmeasured)).any():
        chosen = likely.loc[styles & (relied | unmeasured), "candidate"]
        block["accepted_styles"] = sorted({style_class(c) for c in chosen})
    if measure_top != 10:
        block["measure_top"] = measure_top
    return {
        "name": requirement_id(name),
        "data": dict(data),
        "requirements": [{"id": "audit-reliance", "audit": block}],
    }


#: Comments written above a suite's keys: why a baseline is there and how it ends.
SUITE_COMMENTS = {
    "accepted": "relied on when this suite was saved: accepted until removed from this list",
    "accepted_styles": "styles (by word class) relied on when saved: accepted until removed",
    "accepted_unmeasured": "not measured when saved: not inconclusive, but fail if relied on",
}


def suite_yaml(suite: Mapping[str, Any]) -> str:
    """The suite as YAML text, in its keys' order, with :data:`SUITE_COMMENTS` above their keys."""
    import yaml

    text = yaml.safe_dump(dict(suite), sort_keys=False, allow_unicode=True, width=100)
    lines = []
    for line in text.splitlines():
        key = line.strip().split(":", 1)[0]
        if line.strip().endswith(":") and key in SUITE_COMMENTS:
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(f"{indent}# {SUITE_COMMENTS[key]}")
        lines.append(line)
    return "\n".join(lines) + "\n"
