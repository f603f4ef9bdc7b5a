"""Figure of a Shortcut Suite evaluation: the predicted-label distribution of each set (paper
section 5.2.3), one stacked horizontal bar per set."""

from __future__ import annotations

from typing import Any

import pandas as pd

from shortcutlab.reports.plots import legend_outside, new_figure


def predicted_label_figure(shares: pd.DataFrame, *, title: str | None = None) -> Any:
    """One bar per set (rows of ``shares``, in order), stacked by the share of each predicted
    label (its columns, in order; ``invalid`` for unparsed answers). Returns the open matplotlib
    figure (save it with ``save_figure`` or inline it with ``svg_markup``). ``title`` is drawn
    only when given: the report's heading names the figure."""
    import matplotlib.pyplot as plt

    colours = plt.get_cmap("tab10" if len(shares.columns) <= 10 else "tab20")
    figure, axis = new_figure()
    names = [str(name) for name in shares.index]
    left = pd.Series(0.0, index=shares.index)
    for i, label in enumerate(shares.columns):
        colour = "lightgrey" if label == "invalid" else colours(i)
        axis.barh(names, shares[label], left=left, color=colour, label=str(label))
        left += shares[label]
    axis.invert_yaxis()  # the first set on top, as in the table
    axis.set_xlim(0, 1)
    axis.set_xlabel("share of the set's rows")
    if title:
        axis.set_title(title)
    legend_outside(axis, title="predicted")
    return figure
