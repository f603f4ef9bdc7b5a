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

from shortcutlab.cli.console import out_console, print_warnings
from shortcutlab.cli.output import (
    Section,
    findings,
    frame_table,
    messages,
    print_table,
    print_whole,
    show,
)
from shortcutlab.data.existing_splits import EXISTING_SPLITS
from shortcutlab.errors import GRID, caller
from shortcutlab.reports.tables import NOT_MEASURED, per_label_table, result_table, table_notes


def evaluation(
    result: Any, *, elapsed: float, written: Path, fmt: str = "table", details: bool = False
) -> None:
    """``evaluate``'s output in ``fmt``: its tables (the tidy statistics row for csv and json);
    the summary lines beside terminal tables, on stderr in the other formats; the footnotes and
    the significance lines only with ``details``; then the findings in plain words."""
    bench = result.benchmark
    say = messages(fmt)
    say.print(
        f"{result.model['name']} on {evaluated_benchmark(result)}, "
        f"seeds {result.seeds[0]}..{result.seeds[-1]}, "
        f"vary {result.vary} ({_fits(result)} of "
        f"{_count(len(bench['build_seeds']), 'build')}, {elapsed:.1f}s)",
        markup=False,
    )
    show(fmt, evaluation_sections(result, details=details), tidy=result.to_frame())
    if details:
        significance(say, result.statistics)
    say.print(results_line(written), markup=False)
    findings(fmt, result.findings())


def evaluation_sections(result: Any, *, details: bool = True) -> list[Section]:
    """The tables of one evaluation: Table-9 rows per metric (their footnotes with ``details``),
    accuracy per true label, and for models that answer in text their answers."""
    footnotes = table_notes(result.to_frame()) if details else []
    sections = [
        Section(result_table(result), notes=footnotes),
        Section(per_label_table(result), title="Accuracy per true label"),
    ]
    splits = result.summary["splits"]
    if any(s["invalid"] for s in splits.values()) or any(
        "confidence" in s for s in splits.values()
    ):
        title = "Answers: predicted label counts, invalid answers, verbalized confidence"
        sections.append(Section(llm_table(result), title=title))
    return sections


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
    from shortcutlab.families.maze.evaluation_result import RESULT_FILES

    return "Results: " + ", ".join(str(p) for p in files_written(written, RESULT_FILES))


def files_written(folder: Path, order: tuple[str, ...] = ()) -> list[Path]:
    """Every file of an output folder written whole (atomically): the names of ``order`` first,
    then the others by name."""
    names = sorted(p.name for p in folder.iterdir())
    ordered = [n for n in order if n in names] + [n for n in names if n not in order]
    return [folder / name for name in ordered]


def _fits(result: Any) -> str:
    """The fits made, and how many predicted differently (seeds whose fits agree row for row
    are one measurement: the statistics count those)."""
    made = result.model["fits"]
    distinct = result.statistics.get("distinct_fits", made)
    if made == distinct:
        return _count(made, "distinct fit")
    return f"{_count(made, 'fit')}, {distinct} distinct"


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


def demo(result: Any, *, elapsed: float, fmt: str = "table", details: bool = False) -> None:
    """The demo's tables in ``fmt`` (csv/json: the Maze and MPS statistics, one row per cell),
    what was written, and the findings in plain words; the footnotes and the significance
    verdict only with ``details``."""
    # The MPS notes load with the demo's printout, not with every command.
    from shortcutlab.families.mps.tables import label_mix_notes, mps_notes

    groups = result.groups
    title = "Accuracy by training strength λ (tfidf-logreg, Table-9 style)"
    maze_notes = [*table_notes(groups), _significance_line(groups)] if details else []
    sections = [Section(result.tables["accuracy"], title, maze_notes)]
    tidy: dict[str, Any] = {"maze": groups}
    written = "report.html, summary_accuracy.md, summary_macro_f1.md, summary.csv, delta_vs_strength_*.png"
    if result.mps is not None:
        with caller(GRID):  # label_mix is no demo option: the note names the grid's spec key
            mix = label_mix_notes(result.mps.label_counts)
        footnotes = mps_notes(result.mps.groups) + mix if details else []
        title = "MPS (paper 002): δ = W-ACC(Bal) − W-ACC(Imb), Δ = ACC(Bal) − W-ACC(Imb)"
        sections.append(Section(result.mps.gap_table(), title, footnotes))
        tidy["mps"] = result.mps.groups
        written += "; mps/: gaps.md, w_acc.md, accuracy.md, figures/, run/"
    show(fmt, sections, tidy=tidy)
    messages(fmt).print(
        f"Wrote corpus, benchmarks, results and plots to {result.out} in {elapsed:.0f}s: {written}",
        markup=False,
    )
    findings(fmt, result.findings())


def _significance_line(groups: Any) -> str:
    """Which of the demo's cells have a drop that is not significant after Holm."""
    flagged = [
        f"{s} λ={lam:g}"
        for s, lam, significant in zip(
            groups["shortcut"], groups["strength"], groups["significant_accuracy"], strict=True
        )
        if not significant
    ]
    if not flagged:
        return f"Every accuracy drop is significant after Holm over the demo's {len(groups)} cells."
    return (
        f"Accuracy drops not significant after Holm over the demo's {len(groups)} cells: "
        f"{', '.join(flagged)}."
    )


def demo_warnings(console: Console, held: list[str], out: Path) -> None:
    """The warnings of the demo's run, after its tables. Those about the MPS grid name keys of
    the spec the demo wrote, since the demo itself has no option for them."""
    if not held:
        return
    grid = any(line.startswith("MPS build") for line in held)
    if grid:
        console.print(
            "The demo's MPS section ran a grid whose spec it saved to "
            f"{out / 'mps' / 'run' / 'spec.resolved.json'}. The demo has no option for the "
            "settings named below: they are keys of that spec, for a grid of your own "
            "('shortcutlab run SPEC --out DIR').",
            markup=False,
            soft_wrap=True,
        )
    print_warnings(console, held)


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
        # Off the terminal (a pipe, a log, a test) a transient bar draws nothing but still ends
        # with a blank line, which came before a refusal's Error: line.
        disable=not console.is_terminal,
    )
    with bar:
        task = bar.add_task("starting", total=None)

        def update(message: str, done: int, total: int) -> None:
            bar.update(task, description=message, completed=done, total=total)

        yield update


def components(fmt: str = "table") -> None:
    """``shortcutlab list``: every registered component, what it is, and each option with its
    default and description (read from the registries and the components' own signatures and
    docstrings). Each option is ``name=default: description``; one line each in the terminal
    table, CSV and JSON, joined by "; " in md and latex, whose cells hold one line."""
    from shortcutlab.attributes import ATTRIBUTES
    from shortcutlab.families import FAMILIES
    from shortcutlab.metrics import METRICS, split_metric_names
    from shortcutlab.mitigations import MITIGATIONS
    from shortcutlab.models import MODELS
    from shortcutlab.shortcuts import SHORTCUTS

    separator = "; " if fmt in ("md", "latex") else "\n"
    rows = [("family", n, FAMILIES.get(n).summary, "") for n in FAMILIES.registration_order()]
    rows += [("metric", n, METRICS.get(n).title, "") for n in split_metric_names()]
    for kind, registry, hidden in (
        ("shortcut", SHORTCUTS, ()),
        ("model", MODELS, ("seed",)),  # the run sets each cell's seed
        ("attribute", ATTRIBUTES, ()),
        ("mitigation", MITIGATIONS, ()),
    ):
        for name in registry.names():
            described = registry.option_help(name)
            options = [
                f"{k}={_default(v)}" + (f": {described[k]}" if described[k] else "")
                for k, v in registry.defaults(name).items()
                if k not in hidden
            ]
            if separator != "\n":  # "a: Says x; b: Says y", not "a: Says x.; b: ..."
                options = [option.removesuffix(".") for option in options]
            rows.append((kind, name, registry.summary(name), separator.join(options) or "none"))
    columns = ["kind", "name", "description", "options (default: description)"]
    frame = pd.DataFrame(rows, columns=columns).set_index(["kind", "name"])
    if fmt == "table":  # descriptions and option lists wrap at spaces; kinds and names never do
        print_table(out_console, frame_table(frame, prose=tuple(columns[2:])))
    else:
        show(fmt, [Section(frame)])


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


def plan_frame(family: Any, planned: list[Any], *, mitigations: bool) -> pd.DataFrame:
    """One row per planned cell: the family's ``plan_columns`` (the first one the index), model,
    mitigation (when the spec sets mitigations), seed, and ``done`` or ``pending``."""
    titles = [title for title, _ in family.plan_columns]
    rows = [
        [
            *family.plan_values(item.cell),
            item.cell.model.id,
            *((item.cell.mitigation.id,) if mitigations else ()),
            item.cell.seed,
            "done" if item.finished else "pending",
        ]
        for item in planned
    ]
    columns = [*titles, "model", *(("mitigation",) if mitigations else ()), "seed", "status"]
    return pd.DataFrame(rows, columns=columns).set_index(titles[0])


def dry_run(fmt: str, spec: Any, family: Any, planned: list[Any], estimate: Any) -> None:
    """``run --dry-run``: the planned cells in ``fmt`` (csv/json: one row per cell), then how many
    are left, the time estimate and the mitigations (on stderr beside csv, json, md and latex)."""
    settings = getattr(spec, "mitigation", None)
    mitigations = settings is not None and "mitigations" in settings.resolved()
    frame = plan_frame(family, planned, mitigations=mitigations)
    shown = frame.map(lambda v: f"{v:g}" if isinstance(v, float) else str(v))  # λ 1, not 1.000
    show(fmt, [Section(shown, f"{spec.name}: {len(planned)} cells")], tidy=frame.reset_index())
    say = messages(fmt)
    pending = sum(not p.finished for p in planned)
    benchmarks = len({p.cell.benchmark.id for p in planned})
    say.print(
        f"{pending} of {len(planned)} cells to run over {benchmarks} benchmarks; "
        f"{time_estimate(estimate)}.",
        markup=False,
    )
    if mitigations:
        say.print(
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
        print_whole(console, table)
    if written is not None:
        console.print(f"Wrote summary.csv, rows.csv, flagged.csv and quality.json to {written}")
