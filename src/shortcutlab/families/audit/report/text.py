"""Cell texts of the audit's tables, shared by the terminal table and the HTML report.

``None`` stays ``None`` (each surface renders it as its dash), so nothing unmeasured reads as a
number, and a p-value that underflowed reads as a bound, never as 0.
"""

from __future__ import annotations


def p_text(value: float | None) -> str | None:
    """A p-value with two significant digits; one that underflowed is shown as a bound.

    Examples:
        >>> p_text(0.0312), p_text(3.2e-12), p_text(0.0), p_text(None)
        ('0.031', '3.2e-12', '< 1e-300', None)
    """
    if value is None:
        return None
    return "< 1e-300" if value < 1e-300 else f"{value:.2g}"


def interval_text(
    value: float | None, low: float | None, high: float | None, *, sign: bool = True
) -> str | None:
    """``+0.213 [+0.150, +0.270]``; the bare value where no interval was computed.

    Examples:
        >>> interval_text(0.2, 0.1, 0.3), interval_text(0.2, None, None), interval_text(None, 0, 1)
        ('+0.200 [+0.100, +0.300]', '+0.200', None)
    """
    if value is None:
        return None
    form = "{:+.3f}" if sign else "{:.3f}"
    if low is None or high is None:
        return form.format(value)
    return f"{form.format(value)} [{form.format(low)}, {form.format(high)}]"
