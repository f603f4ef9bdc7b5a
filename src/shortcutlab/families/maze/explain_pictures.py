"""A row's tokens shaded by their SHAP value for the predicted label (red: towards it, blue:
away from it, as in the Shortcut Maze's figure 4), the cue's tokens underlined; as an HTML
fragment (every text escaped) and as a PNG."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shortcutlab.explain.explained import RowAttribution
from shortcutlab.reports.plots import save_figure

POSITIVE, NEGATIVE = (214, 39, 40), (31, 119, 180)  # matplotlib's tab:red and tab:blue
LINE_CHARACTERS = 90


def _shades(row: RowAttribution) -> tuple[np.ndarray, float]:
    """The predicted label's values and the scale (the row's largest |value|; 1 if all zero)."""
    values = row.values[:, row.predicted]
    peak = float(np.abs(values).max())
    return values, peak if peak > 0 else 1.0


def _caption(row: RowAttribution, labels: Sequence[Any], model: str) -> str:
    label = labels[row.predicted]
    return (
        f"{model} · row {row.row_id}: predicted {label} (p = {row.probabilities[row.predicted]:.3f}; "
        f"{row.without_cue[row.predicted]:.3f} without the cue)"
    )


def row_html(row: RowAttribution, labels: Sequence[Any], *, model: str) -> str:
    """A ``<figure>`` with one ``<span>`` per token; the value is in its title."""
    values, peak = _shades(row)
    parts, position = [], 0
    for (start, end), value, cue in zip(row.offsets, values, row.in_cue, strict=True):
        parts.append(html.escape(row.text[position:start]))
        red, green, blue = POSITIVE if value >= 0 else NEGATIVE
        style = f"background:rgba({red},{green},{blue},{abs(value) / peak:.3f})"
        if cue:
            style += ";text-decoration:underline;text-decoration-thickness:2px"
        parts.append(
            f'<span style="{style}" title="{value:+.4f}">{html.escape(row.text[start:end])}</span>'
        )
        position = end
    parts.append(html.escape(row.text[position:]))
    caption = html.escape(_caption(row, labels, model))
    return (
        f'<figure class="shortcutlab-attribution" data-row-id="{html.escape(str(row.row_id))}">'
        f"<p>{''.join(parts)}</p><figcaption>{caption}</figcaption></figure>"
    )


def _lines(row: RowAttribution) -> list[list[int]]:
    """Token indices per line, wrapped at about LINE_CHARACTERS characters."""
    lines: list[list[int]] = [[]]
    used = 0
    for index, (start, end) in enumerate(row.offsets):
        width = end - start + 1
        if lines[-1] and used + width > LINE_CHARACTERS:
            lines.append([])
            used = 0
        lines[-1].append(index)
        used += width
    return lines


def row_png(row: RowAttribution, labels: Sequence[Any], path: str | Path, *, model: str) -> Path:
    """The same picture as a PNG (monospaced, so the layout needs no text measuring)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values, peak = _shades(row)
    lines = _lines(row)
    figure, axis = plt.subplots(
        figsize=(LINE_CHARACTERS * 0.09 + 0.4, 0.32 * len(lines) + 0.7), dpi=110
    )
    axis.set_axis_off()
    axis.set_xlim(-1, LINE_CHARACTERS + 1)
    axis.set_ylim(len(lines) + 1.2, -0.2)
    for line_number, indices in enumerate(lines):
        column = 0
        for index in indices:
            start, end = row.offsets[index]
            colour = np.array(POSITIVE if values[index] >= 0 else NEGATIVE) / 255
            axis.text(
                column,
                line_number + 0.5,
                row.text[start:end],
                family="monospace",
                fontsize=9,
                va="center",
                bbox={
                    "facecolor": (*colour, abs(values[index]) / peak),
                    "edgecolor": "black" if row.in_cue[index] else "none",
                    "linewidth": 1.2,
                    "boxstyle": "square,pad=0.15",
                },
            )
            column += end - start + 1
    axis.text(0, len(lines) + 0.6, _caption(row, labels, model), fontsize=8, va="center")
    return save_figure(figure, Path(path))
