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


def llm_tables(results: Any) -> dict[str, Any]:
    """Label distribution, calibration and usage tables, for runs whose models answer in text."""
    answers_in_text = not results.usage().empty or any(
        c.endswith("_invalid") and results.cells[c].any() for c in results.cells
    )
    if not answers_in_text:
        return {}
    found = {
        "label_distribution": (
            "Predicted label distribution (share of rows; invalid = unparseable answers)",
            results.label_distribution(),
        ),
        "calibration": (
            "Verbalized confidence vs accuracy (ECE: expected calibration error)",
            results.calibration(),
        ),
        "usage": ("LLM usage per model", results.usage()),
    }
    return {name: entry for name, entry in found.items() if not entry[1].empty}


def tables(results: Any, fmt: str, metric: str) -> str:
    """Table 1 and the chosen metric's Table 9 (and the LLM tables, if any) as one printable text."""
    check_choice("format", fmt, FORMATS)
    check_choice("metric", metric, METRICS)
    marked = fmt != "csv"  # CSV stays numeric; significance is in groups.csv
    if fmt == "csv":
        text = render(results.table1(), fmt) + "\n" + render(results.table9(metric), fmt)
        return text + "".join(
            "\n" + render(table, fmt) for _, table in llm_tables(results).values()
        )
    prefix = "% " if fmt == "latex" else "### "
    sections = {
        "Table 1 (strongest λ; * = significant drop after Holm-Bonferroni, α = 0.05)": results.table1(
            marked=marked
        ),
        f"Table 9 style, {metric.replace('_', '-')}": results.table9(metric, marked=marked),
        **dict(llm_tables(results).values()),
    }
    return "\n".join(
        f"{prefix}{title}\n\n{render(table, fmt)}" for title, table in sections.items()
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
    for name, (_, table) in llm_tables(results).items():
        path = out / f"{name}{SUFFIX[fmt]}"
        path.write_text(render(table, fmt), encoding="utf-8")
        written.append(path)
    for name, frame in (("groups.csv", results.groups), ("cells.csv", results.cells)):
        frame.to_csv(out / name, index=False, lineterminator="\n")
        written.append(out / name)
    return written + figures(results, out / "figures")
