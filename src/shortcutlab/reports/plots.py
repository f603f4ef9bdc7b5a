"""Figures: the drop Δ against shortcut strength λ (Shortcut Maze, figure 3)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.metrics import METRICS
from shortcutlab.reports.tidy import delta_rows

# Every chart of the report and of the written PNG/SVG files has this size, so none is scaled down
# (with smaller text) next to the others; legends go outside the axes, inside this size.
FIGURE_SIZE = (7.2, 4.2)  # inches
FIGURE_DPI = 110
# Series of one chart: a distinct marker and line style each, so lines that coincide stay apart.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
LINESTYLES = ("-", "--", "-.", ":")


def delta_frame(results: Sequence[Any], metric: str) -> pd.DataFrame:
    """The Δ rows of ``metric`` from :class:`EvaluationResult` objects: the slice of their
    ``to_pandas()`` tables that :func:`delta_figure` plots."""
    return delta_rows(pd.concat([r.to_pandas() for r in results], ignore_index=True), metric)


def series_labels(frame: pd.DataFrame) -> list[str]:
    """A figure's series per row: the shortcut, with the model and the mitigation where the
    rows have more than one."""
    shown = [
        c for c in ("model", "mitigation") if c in frame and frame[c].nunique(dropna=False) > 1
    ]
    return [
        " / ".join(str(v) for v in [row["shortcut"], *(row[c] for c in shown)])
        for _, row in frame.iterrows()
    ]


def plot_delta_vs_strength(
    frame: pd.DataFrame | Sequence[Any],
    path: str | Path,
    *,
    metric: str = "macro_f1",
    title: str | None = None,
) -> Path:
    """Write :func:`delta_figure` to ``path``; the file type follows the suffix (.png, .svg, .pdf)."""
    return save_figure(delta_figure(frame, metric=metric, title=title), Path(path))


def new_figure(columns: int = 1, **options: Any) -> tuple[Any, Any]:
    """A figure of :data:`FIGURE_SIZE` with ``columns`` axes side by side; the constrained layout
    keeps a legend placed outside the axes inside the figure without changing its size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(
        1, columns, figsize=FIGURE_SIZE, dpi=FIGURE_DPI, layout="constrained", **options
    )


def legend_outside(axis: Any, **options: Any) -> Any:
    """The axis's legend to the right of its plot area, top-aligned, never over the data."""
    return axis.legend(
        loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small", **options
    )


def delta_figure(
    frame: pd.DataFrame | Sequence[Any], *, metric: str = "macro_f1", title: str | None = None
) -> Any:
    """Line per series: mean Δ (test − anti-test) by λ with its bootstrap 95 % interval, as a
    matplotlib figure (saved by :func:`save_figure` or inlined by ``reports.html.svg``).

    ``frame`` holds Δ rows of the long table (``to_pandas()``: shortcut, model, mitigation,
    strength, estimate, ci_low, ci_high), or is a list of evaluation results.
    ``title`` is drawn above the axes only when given: the report's heading names the figure.
    """
    if not isinstance(frame, pd.DataFrame):
        frame = delta_frame(frame, metric)
    frame = frame.assign(series=series_labels(frame))
    figure, axis = new_figure()
    series_names = list(dict.fromkeys(frame["series"]))
    strengths = sorted(frame["strength"].unique())
    for number, (series, part) in enumerate(frame.groupby("series", sort=False)):
        part = part.sort_values("strength")
        errors = [part["estimate"] - part["ci_low"], part["ci_high"] - part["estimate"]]
        axis.errorbar(
            part["strength"] + _nudge(number, len(series_names), strengths),
            part["estimate"],
            yerr=errors,
            marker=MARKERS[number % len(MARKERS)],
            linestyle=LINESTYLES[number % len(LINESTYLES)],
            capsize=3,
            label=series,
        )
    axis.set_xticks(strengths)
    axis.axhline(0.0, color="grey", linewidth=0.8, linestyle=":")
    axis.set_xlabel("shortcut strength λ (training)")
    axis.set_ylabel(f"Δ {METRICS.get(metric).title} (test − anti-test)")
    if title:
        axis.set_title(title)
    legend_outside(axis, title="shortcut")
    axis.grid(alpha=0.3)
    return figure


def _nudge(number: int, count: int, strengths: Sequence[float]) -> float:
    """A small sideways shift of series ``number`` of ``count``, so series with the same Δ at a
    λ do not hide each other's points and intervals; all of them stay within a fifth of the gap
    between neighbouring λ values."""
    gaps = [b - a for a, b in zip(strengths, strengths[1:], strict=False)]
    span = 0.2 * (min(gaps) if gaps else 1.0)
    return 0.0 if count < 2 else span * (number / (count - 1) - 0.5)


def save_figure(figure: Any, path: Path) -> Path:
    """Write ``figure`` (type from the suffix) with no timestamp or version string in the file,
    so the same results give the same bytes; then close it."""
    import matplotlib
    import matplotlib.pyplot as plt

    metadata = (
        {"Software": None} if path.suffix.lower() == ".png" else {"Date": None, "Creator": None}
    )
    if path.suffix.lower() == ".svg":
        matplotlib.rcParams["svg.hashsalt"] = "shortcutlab"  # stable element ids
    with literal_text(figure):
        if figure.get_layout_engine() is None:  # constrained figures lay themselves out
            figure.tight_layout()
        figure.savefig(path, metadata=metadata)
    plt.close(figure)
    return path


@contextlib.contextmanager
def literal_text(figure: Any) -> Iterator[None]:
    """Inside the block, ``figure`` draws every text as written: matplotlib reads text between
    two ``$`` as mathtext, so a label such as ``$$`` (a price tier) failed with a ParseException
    and ``$5 or $10`` came out in italics. Texts made while drawing (tick labels) follow the
    rc setting; those made before are switched one by one. Every figure is drawn in such a
    block (:func:`save_figure`, :func:`~shortcutlab.reports.html.svg.svg_markup`)."""
    import matplotlib
    from matplotlib.text import Text

    with matplotlib.rc_context({"text.parse_math": False}):
        for text in figure.findobj(Text):
            text.set_parse_math(False)
        yield
