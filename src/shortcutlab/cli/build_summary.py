"""What ``shortcutlab build maze|mps|suite`` print: read from the manifest, with rich only (no
pandas), so the command's start-up and memory stay those of the build itself."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from shortcutlab.cli.output import print_whole


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
    print_whole(console, table)
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


def mps_summary(console: Console, benchmark: Any) -> None:
    """Sizes, the label shares of every value in Imbalanced and Balanced, and their entropies."""
    manifest = benchmark.manifest
    sizes, entropy = manifest["sizes"], manifest["label_entropy"]
    console.print(
        f"Built MPS benchmark for the {manifest['arguments']['attribute']} attribute (dominance "
        f"{manifest['dominance']:g}, seed {manifest['seed']}) in {benchmark.path}"
    )
    held = [f"test {sizes['test']} ({sizes['test_per_label']} per label)"]
    if "validation" in sizes:
        held.insert(
            0, f"validation {sizes['validation']} ({sizes['validation_per_label']} per label)"
        )
    console.print(
        f"Rows: imbalanced {sizes['imbalanced']}, balanced {sizes['balanced']}, {', '.join(held)}."
    )
    excluded = manifest["excluded"]["train"]
    console.print(
        f"Left out of the training pool: {excluded['no_value']} rows without a value, "
        f"{excluded['value_not_kept']} with a value not kept, {excluded['held_out']} held out, "
        f"{excluded['shares_text_with_held_out']} sharing a held-out text."
    )
    labels = [str(v) for v in benchmark.labels.values]
    # Past a handful of labels, per-label columns stop fitting: show the dominant set's share.
    per_label = len(labels) <= 6
    table = Table(
        title="Label shares per value" + (" (* dominant)" if per_label else ": the dominant set's"),
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("value", no_wrap=True)
    table.add_column("split")
    table.add_column("rows", justify="right")
    for label in labels if per_label else ["dominant", "share"]:
        table.add_column(label, justify="right")
    table.add_column("entropy", justify="right")
    for value in manifest["values"]:
        dominant = [str(label) for label in manifest["dominant"][value]]
        for split in ("imbalanced", "balanced"):
            counts = manifest["splits"][split]["label_counts"][value]
            if per_label:
                mark = {
                    label: "*" if label in dominant and split == "imbalanced" else " "
                    for label in labels
                }
                cells = [f"{_share(counts, [label])}{mark[label]}" for label in labels]
            else:
                cells = [",".join(dominant), _share(counts, dominant)]
            table.add_row(
                value if split == "imbalanced" else "",
                split,
                str(sum(counts.values())),
                *cells,
                _rate(entropy[split]["per_value"][value]),
            )
    print_whole(console, table)
    console.print(
        "Normalised label entropy, mean over values (paper 002, Table 11): "
        + ", ".join(f"{name} {_rate(record['mean'])}" for name, record in entropy.items())
    )


def _share(counts: dict[str, int], labels: list[str]) -> str:
    total = sum(counts.values())
    return "—" if total == 0 else f"{sum(counts[label] for label in labels) / total:.2f}"


def suite_summary(console: Console, build: Any) -> None:
    """One line per written set: rows, label counts, and sub-cases or positions where it has them."""
    console.print(f"Built Shortcut Suite sets (seed {build.manifest['seed']}) in {build.path}")
    for record in build.manifest["splits"].values():
        labels = ", ".join(f"{k} {v}" for k, v in record["label_counts"].items())
        extra = ""
        if "subcase_counts" in record:
            counts = record["subcase_counts"].values()
            extra = f"; {len(counts)} sub-cases of {min(counts)}–{max(counts)} rows"
        elif "position_counts" in record:
            extra = "; " + ", ".join(f"{k} {v}" for k, v in record["position_counts"].items())
        console.print(f"  {record['file']}: {record['rows']} rows ({labels}{extra})")
