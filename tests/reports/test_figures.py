"""The report's charts: one size for all of them (the PNG files too), the legend outside the plot
area, series told apart by marker and line style, and no title inside a figure the report heads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from shortcutlab.families.mps.plots import label_distribution_figure, plot_label_distribution
from shortcutlab.families.suite.plots import predicted_label_figure
from shortcutlab.reports.plots import FIGURE_DPI, FIGURE_SIZE, delta_figure, plot_delta_vs_strength

SHORTCUTS = ("single-term", "synonym", "category", "register", "author", "bible")


def _deltas() -> pd.DataFrame:
    """Six shortcuts at three λ; register and bible share every Δ (one would hide the other)."""
    rows = []
    for number, shortcut in enumerate(SHORTCUTS):
        for strength in (0.6, 0.8, 1.0):
            delta = 0.2 * strength if shortcut in ("register", "bible") else 0.05 * number
            rows.append((shortcut, strength, delta, delta - 0.02, delta + 0.02))
    return pd.DataFrame(rows, columns=["shortcut", "strength", "estimate", "ci_low", "ci_high"])


def _label_counts(values: int) -> pd.DataFrame:
    rows = []
    for split in ("imbalanced", "balanced"):
        for value in range(values):
            for label in ("1", "2", "3", "4", "5"):
                rows.append((split, f"product type {value}", label, 40, 0.2))
    return pd.DataFrame(rows, columns=["split", "value", "label", "rows", "share"])


def _shares() -> pd.DataFrame:
    labels = ["contradiction", "entailment", "neutral", "invalid"]
    return pd.DataFrame(
        [[0.5, 0.3, 0.2, 0.0]] * 7, index=[f"set {i}" for i in range(7)], columns=labels
    )


FIGURES = {
    "delta": lambda: delta_figure(_deltas(), metric="accuracy"),
    "mps-two-values": lambda: label_distribution_figure(_label_counts(2)),
    "mps-six-values": lambda: label_distribution_figure(_label_counts(6)),
    "suite": lambda: predicted_label_figure(_shares()),
}


def _boxes(figure):
    """The legend's and each axes' bounding box in figure pixels, after drawing."""
    import matplotlib.pyplot as plt

    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    legends = [a.get_legend() for a in figure.axes if a.get_legend() is not None]
    boxes = (
        [legend.get_window_extent(renderer) for legend in legends],
        [axis.get_window_extent(renderer) for axis in figure.axes],
    )
    size = tuple(figure.get_size_inches())
    plt.close(figure)
    return boxes, size


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_the_legend_lies_outside_every_axes_and_inside_the_figure(name):
    figure = FIGURES[name]()
    width, height = figure.bbox.width, figure.bbox.height
    (legends, axes), size = _boxes(figure)
    assert size == pytest.approx(FIGURE_SIZE)
    (legend,) = legends
    for axis in axes:
        assert not legend.overlaps(axis), f"{name}: the legend {legend} covers the axes {axis}"
    assert legend.x0 >= 0 and legend.y0 >= 0 and legend.x1 <= width and legend.y1 <= height


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_a_figure_has_no_title_of_its_own_unless_given_one(name):
    import matplotlib.pyplot as plt

    figure = FIGURES[name]()
    titles = [axis.get_title() for axis in figure.axes] + [
        figure._suptitle.get_text() if figure._suptitle else ""
    ]
    plt.close(figure)
    assert set(titles) <= {"", "Imbalanced", "Balanced"}  # the MPS panels keep their names


def test_each_shortcut_has_its_own_marker_and_line_style_and_its_own_points():
    import matplotlib.pyplot as plt

    figure = delta_figure(_deltas(), metric="accuracy")
    lines = [container.lines[0] for container in figure.axes[0].containers]  # the data lines
    styles = [(line.get_marker(), line.get_linestyle()) for line in lines]
    positions = [tuple(np.round(line.get_xydata().ravel(), 6)) for line in lines]
    labels = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    ticks = [round(t, 6) for t in figure.axes[0].get_xticks()]
    plt.close(figure)
    assert labels == list(SHORTCUTS)
    assert len(set(styles)) == len(SHORTCUTS)
    assert len(set(positions)) == len(SHORTCUTS)  # register and bible no longer coincide
    assert ticks == [0.6, 0.8, 1.0]
    for line in positions:  # each point stays near its λ: within a tenth of the gap
        assert all(
            abs(x - s) <= 0.02 + 1e-9 for x, s in zip(line[0::2], (0.6, 0.8, 1.0), strict=True)
        )


def test_the_written_pngs_have_one_size(tmp_path: Path):
    written = [
        plot_delta_vs_strength(_deltas(), tmp_path / "delta.png", metric="accuracy", title="Δ"),
        plot_label_distribution(_label_counts(2), tmp_path / "two.png", title="two values"),
        plot_label_distribution(_label_counts(6), tmp_path / "six.png", title="six values"),
    ]
    sizes = {path.name: Image.open(path).size for path in written}
    expected = tuple(round(inches * FIGURE_DPI) for inches in FIGURE_SIZE)
    assert set(sizes.values()) == {expected}, sizes
