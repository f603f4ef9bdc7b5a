"""Terminal output of the CLI (rich tables and progress); nothing here computes results."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from shortcutlab.data.existing_splits import EXISTING_SPLITS
from shortcutlab.reports.tables import (
    NOT_MEASURED,
    format_cell,
    per_label_table,
    render,
    result_table,
    table_notes,
    tidy_text,
)


def frame_table(frame: pd.DataFrame, *, title: str | None = None, digits: int = 3) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    levels = frame.index.nlevels
    names = list(frame.index.names) if levels > 1 else [frame.index.name or ""]
    for name in names:
        table.add_column(str(name or ""))
    for column in frame.columns:
        if isinstance(column, tuple):  # ("reviews", "δ") -> "reviews δ", as the md tables do
            header = " ".join(str(part) for part in column)
        else:
            header = format_cell(column, 1) if isinstance(column, float) else str(column)
        table.add_column(header, justify="right")
    previous: Any = None
    for position, key in enumerate(frame.index):
        keys = list(key) if isinstance(key, tuple) else [key]
        values = [
            frame.iat[position, i] for i in range(frame.shape[1])
        ]  # per-column dtypes, unlike row
        shown = [str(k) for k in keys]
        if levels > 1 and previous is not None and previous == keys[0]:
            shown[0] = ""
        elif levels > 1 and previous is not None:
            table.add_section()
        previous = keys[0]
        table.add_row(*shown, *(format_cell(v, digits) for v in values))
    return table


def evaluation(console: Console, result: Any, *, elapsed: float, written: Path) -> None:
    bench = result.benchmark
    console.print(
        f"{result.model['name']} on {evaluated_benchmark(result)}, seeds {result.seeds[0]}..{result.seeds[-1]}, "
        f"vary {result.vary} ({_count(result.model['fits'], 'distinct fit')} of "
        f"{_count(len(bench['build_seeds']), 'build')}, {elapsed:.1f}s)",
        markup=False,
    )
    console.print(frame_table(result_table(result)))
    notes(console, table_notes(result.to_frame()))
    console.print(frame_table(per_label_table(result), title="Accuracy per true label"))
    splits = result.summary["splits"]
    if any(s["invalid"] for s in splits.values()) or any(
        "confidence" in s for s in splits.values()
    ):
        console.print(
            frame_table(
                llm_table(result),
                title="Answers: predicted label counts, invalid answers, verbalized confidence",
            )
        )
    significance(console, result.statistics)
    console.print(results_line(written), markup=False)


def evaluated_benchmark(result: Any) -> str:
    """What was evaluated: "single-term (λ=0.8)", or for split files evaluated as they are
    "the split files of lambda1 (shortcut —, λ —)" where nothing recorded them."""
    bench = result.benchmark
    shortcut = bench["shortcut"] or NOT_MEASURED
    strength = NOT_MEASURED if bench["strength"] is None else f"{bench['strength']:g}"
    if bench.get("kind") == EXISTING_SPLITS:
        return (
            f"the split files of {result.statistics['dataset']} (shortcut {shortcut}, λ {strength})"
        )
    return f"{shortcut} (λ={strength})"


def results_line(written: Path) -> str:
    """The closing line: every file the evaluation wrote, in the order it wrote them."""
    # Imported here: the evaluation (scipy, the models) has loaded it already; list does not need it.
    from shortcutlab.families.maze.evaluate import RESULT_FILES

    return "Results: " + ", ".join(str(p) for p in files_written(written, RESULT_FILES))


def files_written(folder: Path, order: tuple[str, ...] = ()) -> list[Path]:
    """Every file of an output folder written whole (atomically): the names of ``order`` first,
    then the others by name."""
    names = sorted(p.name for p in folder.iterdir())
    ordered = [n for n in order if n in names] + [n for n in names if n not in order]
    return [folder / name for name in ordered]


def evaluation_text(
    console: Console, errors: Console, result: Any, fmt: str, *, written: Path
) -> None:
    """``evaluate --format md|latex|csv|json``: the table alone on stdout, the file names on stderr."""
    if fmt in ("csv", "json"):
        text = tidy_text(result.to_frame(), fmt)
    else:
        text = render(result_table(result), fmt, notes=table_notes(result.to_frame()))
    plain(console, text)
    errors.print(results_line(written), markup=False)


def plain(console: Console, text: str) -> None:
    """Machine-readable text exactly as given: no markup, emoji codes, highlighting or wrapping."""
    console.print(text, markup=False, emoji=False, highlight=False, soft_wrap=True, end="")


def notes(console: Console, lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False, emoji=False)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def llm_table(result: Any) -> pd.DataFrame:
    """Per split: mean count of each predicted label, invalid answers, confidence vs accuracy, ECE."""
    rows = {}
    for split, entry in result.summary["splits"].items():
        row = dict(entry["label_distribution"])
        if "confidence" in entry:
            row.update(
                {
                    "confidence": entry["confidence"]["mean"],
                    "accuracy": entry["confidence"]["accuracy"],
                    "ECE": entry["confidence"]["ece"],
                }
            )
        rows[split] = row
    return pd.DataFrame(rows).T


def significance(console: Console, statistics: dict[str, Any]) -> None:
    verdict = "significant" if statistics["significant_accuracy"] else "not significant"
    fits = statistics["distinct_fits"]
    console.print(
        f"Accuracy drop test vs anti-test: {verdict} at α=0.05 (exact McNemar on "
        f"{statistics['paired_rows']} paired rows, "
        + (f"largest p over {fits} distinct fits" if fits > 1 else "p")
        + f" = {statistics['p_accuracy']:.2g})"
    )


def demo(console: Console, result: Any, *, elapsed: float) -> None:
    # The MPS notes load with the demo's printout, not with every command.
    from shortcutlab.families.mps.tables import label_mix_notes, mps_notes

    console.print(
        frame_table(
            result.tables["accuracy"],
            title="Accuracy by training strength λ (tfidf-logreg, Table-9 style)",
        )
    )
    notes(console, table_notes(result.groups))
    groups = result.groups
    flagged = [
        f"{s} λ={lam:g}"
        for s, lam, significant in zip(
            groups["shortcut"], groups["strength"], groups["significant_accuracy"], strict=True
        )
        if not significant
    ]
    console.print(
        f"Every accuracy drop is significant after Holm over the demo's {len(groups)} cells."
        if not flagged
        else f"Accuracy drops not significant after Holm over the demo's {len(groups)} cells: "
        f"{', '.join(flagged)}."
    )
    written = "report.html, summary_accuracy.md, summary_macro_f1.md, summary.csv, delta_vs_strength_*.png"
    if result.mps is not None:
        console.print(
            frame_table(
                result.mps.gap_table(),
                title="MPS (paper 002): δ = W-ACC(Bal) − W-ACC(Imb), Δ = ACC(Bal) − W-ACC(Imb)",
            )
        )
        notes(console, mps_notes(result.mps.groups) + label_mix_notes(result.mps.label_counts))
        written += "; mps/: gaps.md, w_acc.md, accuracy.md, figures/, run/"
    console.print(
        f"Wrote corpus, benchmarks, results and plots to {result.out} in {elapsed:.0f}s: {written}"
    )


@contextlib.contextmanager
def progress(console: Console, title: str) -> Iterator[Callable[[str, int, int], None]]:
    bar = Progress(
        TextColumn(f"{title}: " + "{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task("starting", total=None)

        def update(message: str, done: int, total: int) -> None:
            bar.update(task, description=message, completed=done, total=total)

        yield update


def components(console: Console) -> None:
    """Every registered component: what it is, and each option with its default (read from the
    registries and the components' own signatures and docstrings)."""
    from shortcutlab.attributes import ATTRIBUTES
    from shortcutlab.families import FAMILIES
    from shortcutlab.metrics import METRICS, split_metric_names
    from shortcutlab.mitigations import MITIGATIONS
    from shortcutlab.models import MODELS
    from shortcutlab.shortcuts import SHORTCUTS

    table = Table(show_edge=False, pad_edge=False, show_lines=False)
    for column in ("kind", "name", "description", "options (default)"):
        table.add_column(column, overflow="fold")
    for name in FAMILIES.registration_order():
        table.add_row("family", name, FAMILIES.get(name).summary, "")
    for name in split_metric_names():
        table.add_row("metric", name, METRICS.get(name).title, "")
    for kind, registry, hidden in (
        ("shortcut", SHORTCUTS, ()),
        ("model", MODELS, ("seed",)),  # the run sets each cell's seed
        ("attribute", ATTRIBUTES, ()),
        ("mitigation", MITIGATIONS, ()),
    ):
        table.add_section()
        for name in registry.names():
            defaults = registry.defaults(name)
            options = [f"{k}={_default(v)}" for k, v in defaults.items() if k not in hidden]
            table.add_row(kind, name, registry.summary(name), "\n".join(options) or "none")
    console.print(table)


def _default(value: Any) -> str:
    if isinstance(value, str):
        return value if value.startswith("(") else repr(value)
    if isinstance(value, tuple) and len(value) > 4:
        return f"({', '.join(map(repr, value[:3]))}, ...{len(value) - 3} more)"
    return repr(value)


def time_estimate(estimate: Any) -> str:
    """The dry run's time estimate (an engine ``TimeEstimate``) in words."""
    if estimate.pending == 0:
        return "nothing left to run"
    basis = "median time of finished cells of the same model and mitigation"
    unknown = f"no past cells of this kind ({', '.join(estimate.untimed)})"
    if estimate.seconds is None:
        return f"no estimate: {unknown}"
    minutes = f"about {estimate.seconds / 60:.1f} CPU-minutes"
    if not estimate.untimed:
        return f"{minutes} left ({basis})"
    return (
        f"{minutes} for {estimate.timed} of {estimate.pending} fits ({basis}); "
        f"no estimate for the others: {unknown}"
    )


def dry_run(console: Console, spec: Any, family: Any, planned: list[Any], estimate: Any) -> None:
    table = Table(
        title=f"{spec.name}: {len(planned)} cells",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    settings = getattr(spec, "mitigation", None)
    mitigations = settings is not None and "mitigations" in settings.resolved()
    columns = [title for title, _ in family.plan_columns]
    for column in (*columns, "model", *(("mitigation",) if mitigations else ()), "seed", "status"):
        table.add_column(column)
    for item in planned:
        cell = item.cell
        table.add_row(
            *family.plan_row(cell),
            cell.model.id,
            *((cell.mitigation.id,) if mitigations else ()),
            str(cell.seed),
            "done" if item.finished else "pending",
        )
    console.print(table)
    pending = sum(not p.finished for p in planned)
    benchmarks = len({p.cell.benchmark.id for p in planned})
    console.print(
        f"{pending} of {len(planned)} cells to run over {benchmarks} benchmarks; "
        f"{time_estimate(estimate)}.",
        markup=False,
    )
    if mitigations:
        console.print(
            f"Mitigations: {', '.join(m.id for m in settings.mitigations)}; groups: "
            f"{settings.groups}, group_labels: {settings.group_labels}.",
            markup=False,
        )


def run_report(console: Console, errors: Console, report: Any) -> None:
    console.print(
        f"Run {report.run_dir}: {report.done} cells done, {report.skipped} already finished, {report.failed} failed "
        f"({report.wall_seconds:.1f}s). Tables: shortcutlab results {report.run_dir}"
    )
    for where, error in report.errors[:10]:
        errors.print(
            f"Failed: {where}: {error.splitlines()[0] if error else ''}",
            markup=False,
            soft_wrap=True,
        )
    if len(report.errors) > 10:
        errors.print(f"... and {len(report.errors) - 10} more failed cells.", markup=False)


def rewrite_quality(console: Console, report: Any, *, written: Path | None) -> None:
    settings = report.settings
    console.print(
        frame_table(
            report.summary,
            title=f"Rewrite quality: {settings['rewriter']} rewriter, {settings['rows']} rows ({settings['shortcut']})",
        )
    )
    flagged = report.flagged()
    console.print(
        f"{len(flagged)} of {len(report.rows)} rewrites below the thresholds ({settings['thresholds']})."
    )
    if len(flagged):
        table = Table(
            show_edge=False, pad_edge=False, title="First flagged rewrites", title_justify="left"
        )
        for column in ("row_id", "style", "flags", "rewrite"):
            table.add_column(column)
        for row in flagged.head(10).itertuples():
            table.add_row(
                str(row.row_id),
                row.style,
                row.flags,
                (str(row.rewrite) if row.rewrite else "")[:80],
            )
        console.print(table)
    if written is not None:
        console.print(f"Wrote summary.csv, rows.csv, flagged.csv and quality.json to {written}")
