"""Figures: the drop Δ against shortcut strength λ (Shortcut Maze, figure 3)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shortcutlab.reports.tables import METRIC_NAMES


def plot_delta_vs_strength(
    results: Sequence[Any], path: str | Path, *, metric: str = "macro_f1", title: str | None = None
) -> Path:
    """Line per shortcut: mean Δ (test - anti-test) by λ with its bootstrap 95 % interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    by_shortcut: dict[str, list[Any]] = {}
    for result in results:
        by_shortcut.setdefault(result.benchmark["shortcut"], []).append(result)
    figure, axis = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for shortcut, runs in by_shortcut.items():
        runs = sorted(runs, key=lambda r: r.benchmark["strength"])
        x = [r.benchmark["strength"] for r in runs]
        y = [r.summary["delta"][metric]["mean"] for r in runs]
        low = [m - r.summary["delta"][metric]["ci95"][0] for m, r in zip(y, runs, strict=True)]
        high = [r.summary["delta"][metric]["ci95"][1] - m for m, r in zip(y, runs, strict=True)]
        axis.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=shortcut)
    axis.set_xticks(sorted({r.benchmark["strength"] for r in results}))
    axis.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    axis.set_xlabel("shortcut strength λ (training)")
    axis.set_ylabel(f"Δ {METRIC_NAMES[metric]} (test − anti-test)")
    axis.set_title(title or f"{METRIC_NAMES[metric]} drop with shortcut strength")
    axis.legend(fontsize="small")
    axis.grid(alpha=0.3)
    figure.tight_layout()
    # No timestamps or version strings in the file: the same results give the same bytes.
    metadata = (
        {"Software": None} if path.suffix.lower() == ".png" else {"Date": None, "Creator": None}
    )
    figure.savefig(path, metadata=metadata)
    plt.close(figure)
    return path
