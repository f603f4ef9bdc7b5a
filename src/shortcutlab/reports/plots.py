"""Figures: the drop Δ against shortcut strength λ (Shortcut Maze, figure 3)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.metrics import METRICS


def delta_frame(results: Sequence[Any], metric: str) -> pd.DataFrame:
    """Plot rows (series, λ, Δ, interval) from :class:`EvaluationResult` objects."""
    return pd.DataFrame(
        {
            "series": [r.benchmark["shortcut"] for r in results],
            "strength": [r.benchmark["strength"] for r in results],
            "delta": [r.statistics[f"delta_{metric}_mean"] for r in results],
            "low": [r.statistics[f"delta_{metric}_ci_low"] for r in results],
            "high": [r.statistics[f"delta_{metric}_ci_high"] for r in results],
        }
    )


def plot_delta_vs_strength(
    frame: pd.DataFrame | Sequence[Any],
    path: str | Path,
    *,
    metric: str = "macro_f1",
    title: str | None = None,
) -> Path:
    """Write :func:`delta_figure` to ``path``; the file type follows the suffix (.png, .svg, .pdf)."""
    return save_figure(delta_figure(frame, metric=metric, title=title), Path(path))


def delta_figure(
    frame: pd.DataFrame | Sequence[Any], *, metric: str = "macro_f1", title: str | None = None
) -> Any:
    """Line per series: mean Δ (test − anti-test) by λ with its bootstrap 95 % interval, as a
    matplotlib figure (saved by :func:`save_figure` or inlined by ``reports.html.svg``).

    ``frame`` has columns series, strength, delta, low, high (or is a list of evaluation results).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not isinstance(frame, pd.DataFrame):
        frame = delta_frame(frame, metric)
    figure, axis = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for series, part in frame.groupby("series", sort=False):
        part = part.sort_values("strength")
        errors = [part["delta"] - part["low"], part["high"] - part["delta"]]
        axis.errorbar(
            part["strength"], part["delta"], yerr=errors, marker="o", capsize=3, label=series
        )
    axis.set_xticks(sorted(frame["strength"].unique()))
    axis.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    axis.set_xlabel("shortcut strength λ (training)")
    shown = METRICS.get(metric).title
    axis.set_ylabel(f"Δ {shown} (test − anti-test)")
    axis.set_title(title or f"{shown} drop with shortcut strength")
    axis.legend(fontsize="small")
    axis.grid(alpha=0.3)
    return figure


def save_figure(figure: Any, path: Path) -> Path:
    """Write ``figure`` (type from the suffix) with no timestamp or version string in the file,
    so the same results give the same bytes; then close it."""
    import matplotlib
    import matplotlib.pyplot as plt

    figure.tight_layout()
    metadata = (
        {"Software": None} if path.suffix.lower() == ".png" else {"Date": None, "Creator": None}
    )
    if path.suffix.lower() == ".svg":
        matplotlib.rcParams["svg.hashsalt"] = "shortcutlab"  # stable element ids
    figure.savefig(path, metadata=metadata)
    plt.close(figure)
    return path
