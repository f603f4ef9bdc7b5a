"""The shared wording of the findings sentences (:mod:`shortcutlab.reports.findings`): numbers
as the tables print them, p-values as a bound when tiny, lists joined as in prose."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd


def missing(value: Any) -> bool:
    """None, NaN or pandas' NA: a figure that was not measured."""
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def number(value: float, digits: int = 3) -> str:
    """A figure with the tables' three decimals; a minus sign, not a hyphen.

    Examples:
        >>> number(0.2271), number(-0.05)
        ('0.227', '−0.050')
    """
    return f"{value:.{digits}f}".replace("-", "−")


def percent(value: float) -> str:
    """A share as the CAT and Suite tables print it, with a percent sign: ``72.4 %``.

    Examples:
        >>> percent(0.7236)
        '72.4 %'
    """
    return f"{100 * value:.1f} %"


def p_phrase(p: Any, *, adjusted: bool = False) -> str:
    """``p = 0.031``; below 1e-4 a bound, ``p < 1e-11``, so a tiny p never reads as 0.

    Examples:
        >>> p_phrase(0.0312), p_phrase(3.2e-12), p_phrase(0.0), p_phrase(0.08, adjusted=True)
        ('p = 0.031', 'p < 1e-11', 'p < 1e-300', 'adjusted p = 0.08')
        >>> p_phrase(float("nan"))
        'no p-value'
    """
    name = "adjusted p" if adjusted else "p"
    if missing(p):
        return f"no {name}-value"
    if p < 1e-300:
        return f"{name} < 1e-300"
    if p < 1e-4:
        # The smallest power of ten above p: 3.2e-12 < 1e-11.
        return f"{name} < 1e-{math.ceil(-math.log10(p)) - 1}"
    return f"{name} = {p:.2g}"


def strength(value: float) -> str:
    """λ as the tables' column headers print it: ``1``, ``0.8``."""
    return f"{value:g}"


def joined(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``.

    Examples:
        >>> joined(["1"]), joined(["1", "0.8"]), joined(["1", "0.8", "0.6"], "or")
        ('1', '1 and 0.8', '1, 0.8 or 0.6')
    """
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def one_fit_sentence(model: str, one_fit: int, cells: int, hint: str = "") -> str:
    """The finding of a model whose seeds varied nothing in ``one_fit`` of its ``cells`` cells:
    its p-values and intervals there rest on the test rows alone (no spread is measured); then
    ``hint``, the setting that would vary them."""
    tail = f" {hint}" if hint else ""
    if cells == 1:
        return (
            f"Only one distinct fit of {model} (nothing varied between seeds): its p-value covers "
            f"the test rows only, not training or data-draw variance.{tail}"
        )
    where = "per cell" if one_fit == cells else f"in {one_fit} of {cells} cells"
    return (
        f"Only one distinct fit of {model} {where} (nothing varied between seeds): "
        f"{'its' if one_fit == cells else 'their'} p-values cover the test rows only, not "
        f"training or data-draw variance.{tail}"
    )
