"""Write a run's tables and figures: Table 1, Table 9 per metric, per-group statistics, Δ-vs-λ plots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shortcutlab.registry import check_choice
from shortcutlab.reports.plots import plot_delta_vs_strength
from shortcutlab.reports.tables import render

FORMATS = ("md", "csv", "latex")
SUFFIX = {"md": ".md", "csv": ".csv", "latex": ".tex"}
METRICS = ("accuracy", "macro_f1")


def tables(results: Any, fmt: str, metric: str) -> str:
    """Table 1 and the chosen metric's Table 9 as one printable text."""
    check_choice("format", fmt, FORMATS)
    check_choice("metric", metric, METRICS)
    marked = fmt != "csv"  # CSV stays numeric; significance is in groups.csv
    if fmt == "csv":
        return render(results.table1(), fmt) + "\n" + render(results.table9(metric), fmt)
    title1 = "Table 1 (strongest λ; * = significant drop after Holm-Bonferroni, α = 0.05)"
    title9 = f"Table 9 style, {metric.replace('_', '-')}"
    prefix = "% " if fmt == "latex" else "### "
    return (
        f"{prefix}{title1}\n\n{render(results.table1(marked=marked), fmt)}\n"
        f"{prefix}{title9}\n\n{render(results.table9(metric, marked=marked), fmt)}"
    )


def figures(results: Any, out: Path) -> list[Path]:
    """Δ-vs-λ per dataset and metric, as PNG and SVG."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for dataset in results.groups["dataset"].unique():
        for metric in METRICS:
            frame = results.delta_frame(dataset, metric)
            for suffix in (".png", ".svg"):
                path = out / f"delta_vs_strength-{dataset}-{metric}{suffix}"
                written.append(
                    plot_delta_vs_strength(
                        frame,
                        path,
                        metric=metric,
                        title=f"{dataset}: {metric.replace('_', '-')} drop",
                    )
                )
    return written


def write_report(results: Any, out: Path, fmt: str) -> list[Path]:
    """Every table in ``fmt`` plus groups.csv, cells.csv and the figures, into ``out``."""
    check_choice("format", fmt, FORMATS)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    marked = fmt != "csv"
    path = out / f"table1{SUFFIX[fmt]}"
    path.write_text(render(results.table1(marked=marked), fmt), encoding="utf-8")
    written.append(path)
    for metric in METRICS:
        path = out / f"table9-{metric}{SUFFIX[fmt]}"
        path.write_text(render(results.table9(metric, marked=marked), fmt), encoding="utf-8")
        written.append(path)
    for name, frame in (("groups.csv", results.groups), ("cells.csv", results.cells)):
        frame.to_csv(out / name, index=False, lineterminator="\n")
        written.append(out / name)
    return written + figures(results, out / "figures")
