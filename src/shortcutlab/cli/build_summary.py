"""What ``shortcutlab build maze|mps|suite`` print, read from the manifest: lines, and the Maze
and MPS builds' tables in any ``--table-format`` (:data:`~shortcutlab.cli.build.TableFormat`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console

from shortcutlab.cli.output import Section, cells_table, messages, print_table, show

if TYPE_CHECKING:  # only the md, latex, csv and json summaries load pandas
    import pandas as pd


def benchmark_summary(fmt: str, benchmark: Any) -> None:
    """The Maze build: what was built, the cue rate per label (csv/json: one row per split and
    label, target and observed rate), and the occurrences removed and kept."""
    console = messages(fmt)
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
    title = "Cue rate per label: target / observed"
    if fmt == "table":  # the default: printed from the manifest without loading pandas
        headers, rows = cue_rate_cells(benchmark)
        print_table(console, cells_table(headers, [(False, row) for row in rows], title=title))
    else:
        show(fmt, [Section(cue_rate_table(benchmark), title)], tidy=cue_rates(benchmark))
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


def cue_rate_cells(benchmark: Any) -> tuple[list[str], list[list[str]]]:
    """The headers and rows of :func:`cue_rate_table`, as text: per split, its rows and per
    label "target / observed" cue rate (— where none)."""
    labels = [str(v) for v in benchmark.labels.values]
    rows = []
    for split, record in benchmark.manifest["splits"].items():
        target, observed = record.get("target_rate"), record.get("observed_rate")
        rates = [
            f"{_rate(target[label])} / {_rate(observed[label])}" if target else "—"
            for label in labels
        ]
        rows.append([str(split), str(record["rows"]), *rates])
    return ["split", "rows", *labels], rows


def cue_rate_table(benchmark: Any) -> pd.DataFrame:
    """:func:`cue_rate_cells` as a frame indexed by split (its rows column holding numbers)."""
    import pandas as pd

    headers, rows = cue_rate_cells(benchmark)
    table = {
        row[0]: {"rows": int(row[1])} | dict(zip(headers[2:], row[2:], strict=True)) for row in rows
    }
    return pd.DataFrame.from_dict(table, orient="index").rename_axis("split")


def cue_rates(benchmark: Any) -> pd.DataFrame:
    """The cue rates as data: one row per split and label (rates empty where none)."""
    import pandas as pd

    rows = []
    for split, record in benchmark.manifest["splits"].items():
        target, observed = record.get("target_rate") or {}, record.get("observed_rate") or {}
        for label in map(str, benchmark.labels.values):
            rows.append(
                {
                    "split": split,
                    "rows": record["rows"],
                    "label": label,
                    "target_rate": target.get(label),
                    "observed_rate": observed.get(label),
                }
            )
    return pd.DataFrame(rows)


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"  # no rate: nothing to measure it on


def mps_summary(fmt: str, benchmark: Any) -> None:
    """Sizes, the label shares of every value in Imbalanced and Balanced (csv/json: one row per
    value, split and label), and their entropies."""
    console = messages(fmt)
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
    per_label = len(benchmark.labels.values) <= 6
    title = "Label shares per value" + (" (* dominant)" if per_label else ": the dominant set's")
    table = label_share_table(benchmark)
    if fmt != "table":  # the blank beside an unmarked share only aligns terminal columns
        table = table.map(lambda v: v.rstrip() if isinstance(v, str) else v)
    show(fmt, [Section(table, title)], tidy=label_shares(benchmark))
    console.print(
        "Normalised label entropy, mean over values (paper 002, Table 11): "
        + ", ".join(f"{name} {_rate(record['mean'])}" for name, record in entropy.items())
    )


def label_share_table(benchmark: Any) -> pd.DataFrame:
    """Per value and split: rows, each label's share (* dominant) or, past six labels, the
    dominant set and its share, and the normalised label entropy."""
    import pandas as pd

    manifest = benchmark.manifest
    labels = [str(v) for v in benchmark.labels.values]
    # Past a handful of labels, per-label columns stop fitting: show the dominant set's share.
    per_label = len(labels) <= 6
    rows = {}
    for value in manifest["values"]:
        dominant = [str(label) for label in manifest["dominant"][value]]
        for split in ("imbalanced", "balanced"):
            counts = manifest["splits"][split]["label_counts"][value]
            row: dict[str, Any] = {"rows": sum(counts.values())}
            if per_label:
                marked = split == "imbalanced"
                for label in labels:
                    mark = "*" if marked and label in dominant else " "
                    row[label] = f"{_share(counts, [label])}{mark}"
            else:
                row |= {"dominant": ",".join(dominant), "share": _share(counts, dominant)}
            row["entropy"] = _rate(manifest["label_entropy"][split]["per_value"][value])
            rows[(value, split)] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    return frame.rename_axis(["value", "split"])


def label_shares(benchmark: Any) -> pd.DataFrame:
    """The label shares as data: one row per value, split and label (share empty for an empty
    group), whether the label is the value's dominant one, and the group's entropy."""
    import pandas as pd

    manifest = benchmark.manifest
    rows = []
    for value in manifest["values"]:
        dominant = {str(label) for label in manifest["dominant"][value]}
        for split in ("imbalanced", "balanced"):
            counts = manifest["splits"][split]["label_counts"][value]
            total = sum(counts.values())
            entropy = manifest["label_entropy"][split]["per_value"][value]
            for label in map(str, benchmark.labels.values):
                share = counts[label] / total if total else None
                rows.append(
                    {"value": value, "split": split, "rows": total, "label": label}
                    | {"share": share, "dominant": label in dominant, "entropy": entropy}
                )
    return pd.DataFrame(rows)


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
