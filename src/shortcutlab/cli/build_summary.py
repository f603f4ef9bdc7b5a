"""What ``shortcutlab build`` prints: read from the manifest, with rich only (no pandas), so
the command's start-up and memory stay those of the build itself."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def benchmark_summary(console: Console, benchmark: Any) -> None:
    manifest = benchmark.manifest
    arguments = manifest["arguments"]
    splits = manifest["splits"]
    test_strength = splits.get("test", {}).get("strength", arguments["test_strength"])
    same = " (same as training)" if arguments["test_strength"] == "same" else ""
    console.print(
        f"Built {arguments['shortcut']} benchmark (λ={arguments['strength']:g} {arguments['strength_mode']}, "
        f"test λ={test_strength:g}{same}, seed {arguments['seed']}) in {benchmark.path}"
    )
    removed = manifest["removed_occurrences"]
    console.print(
        f"Removed {removed['total']} pre-existing occurrences of the shortcut vocabulary (train {removed['train']}, test {removed['test']})."
    )
    labels = [str(v) for v in benchmark.labels.values]
    table = Table(
        title="Cue rate per label: target / observed",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("split")
    table.add_column("rows", justify="right")
    for label in labels:
        table.add_column(label, justify="right")
    for split, record in splits.items():
        target, observed = record.get("target_rate"), record.get("observed_rate")
        cells = [
            f"{_rate(target[label])} / {_rate(observed[label])}" if target else "—"
            for label in labels
        ]
        table.add_row(split, str(record["rows"]), *cells)
    console.print(table)
    undecidable = sum(r.get("undecidable_rows") or 0 for r in splits.values())
    if undecidable:
        console.print(
            f"Observed rates leave out {undecidable} rows whose text cannot tell the two sides "
            f"apart (—: most of a label's rows)."
        )
    kept = manifest.get("kept_occurrences", {}).get("total", 0)
    if kept:
        console.print(
            f"Kept {kept} occurrences of the vocabulary that are not the cue as inserted "
            f"(e.g. a phrase mid-sentence); see kept_occurrences in the manifest."
        )


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"  # no rate: nothing to measure it on
