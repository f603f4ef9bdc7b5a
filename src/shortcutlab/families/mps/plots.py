"""Figure of an MPS build: the label distribution within each attribute value, Imbalanced next to
Balanced, as stacked bars of label shares (paper 002, figures 21-25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.reports.plots import legend_outside, new_figure, save_figure

PANELS = (("imbalanced", "Imbalanced"), ("balanced", "Balanced"))


def plot_label_distribution(
    frame: pd.DataFrame, path: str | Path, *, title: str | None = None
) -> Path:
    """:func:`label_distribution_figure` written to ``path`` (type from the suffix: .png, .svg,
    .pdf)."""
    return save_figure(label_distribution_figure(frame, title=title), Path(path))


def label_distribution_figure(frame: pd.DataFrame, *, title: str | None = None) -> Any:
    """Two panels (Imbalanced, Balanced): a bar per attribute value, stacked by label share.
    ``title`` is drawn above the panels only when given: the report's heading names the figure.

    ``frame`` has columns split, value, label, rows, share (rows of ``MpsRunResults.label_counts``
    for one build). Returns the open matplotlib figure: save it with
    :func:`~shortcutlab.reports.plots.save_figure` or inline it with
    :func:`~shortcutlab.reports.html.svg.svg_markup` (either closes it).
    """
    import matplotlib.pyplot as plt

    values = list(dict.fromkeys(frame["value"]))
    labels = list(dict.fromkeys(frame["label"]))
    colours = plt.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    # One size for any number of values (a wider figure would be scaled down, text and all).
    figure, axes = new_figure(2, sharey=True)
    for axis, (split, name) in zip(axes, PANELS, strict=True):
        part = frame[frame["split"] == split].pivot_table(
            index="value", columns="label", values="share", sort=False
        )
        part = part.reindex(index=values, columns=labels).fillna(0.0)
        sizes = frame[frame["split"] == split].groupby("value", sort=False)["rows"].sum()
        # Rotated names stay on one line: two-line labels at an angle run into their neighbours.
        rows_of = "\n" if len(values) <= 2 else " · "
        ticks = [f"{value}{rows_of}{int(sizes.get(value, 0))} rows" for value in values]
        bottom = pd.Series(0.0, index=values)
        for i, label in enumerate(labels):
            axis.bar(
                ticks,
                part[label].to_numpy(),
                bottom=bottom.to_numpy(),
                color=colours(i),
                label=str(label),
            )
            bottom += part[label]
        axis.set_title(name)
        axis.set_xlabel("attribute value")
        axis.tick_params(axis="x", labelsize="small", labelrotation=40 if len(values) > 2 else 0)
        if len(values) > 2:
            plt.setp(axis.get_xticklabels(), ha="right", rotation_mode="anchor")
    axes[0].set_ylabel("share of the value's rows")
    axes[0].set_ylim(0, 1)
    legend_outside(axes[1], title="label")
    if title:
        figure.suptitle(title)
    return figure
