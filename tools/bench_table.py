"""Regenerate the benchmark tables of docs/benchmarks.md from the runs in bench/results/.

The speed benchmarks store every timed run with ``--save`` (bench/paired.py). This script renders
them between markers in docs/benchmarks.md, so no figure there is typed by hand:

    <!-- bench-table: all -->          every stored comparison, one row each
    <!-- bench-table: build_throughput -->   one bench's comparisons
    <!-- /bench-table -->

    python tools/bench_table.py          # rewrite the tables
    python tools/bench_table.py --check  # exit 1 when a table differs from the stored runs
    python tools/bench_table.py --rerun cat_speed  # run a bench's stored command again, --save
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))  # bench/ is scripts, not a package: one shared definition
from paired import cpu_words, peak_words, speed_words, time_ratio  # noqa: E402

RESULTS = ROOT / "bench" / "results"
PAGE = ROOT / "docs" / "benchmarks.md"
BLOCK = re.compile(r"(<!-- bench-table: ([\w-]+) -->\n)(.*?)(<!-- /bench-table -->)", re.S)


def load_records(folder: Path = RESULTS) -> dict[str, dict]:
    """Each bench's stored record, by bench name."""
    records = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        records[record["bench"]] = record
    return records


def _row(record: dict, comparison: dict, *, with_bench: bool) -> str:
    unit, tool, other = (
        comparison["unit"],
        comparison["tool_values"],
        comparison["alternative_values"],
    )
    load = comparison["load"]
    cells = [
        comparison["step"],
        comparison["tool"],
        comparison["alternative"],
        f"{statistics.median(tool):.2f} {unit}",
        f"{statistics.median(other):.2f} {unit}",
        speed_words(time_ratio(unit, tool, other)),
        cpu_words(comparison),
        peak_words(comparison),
        str(len(tool)),
        f"{min(load):.1f}–{max(load):.1f}",
    ]
    if with_bench:
        cells.insert(0, f"`{record['bench']}`")
    return "| " + " | ".join(cells) + " |"


def render(records: dict[str, dict], only: str | None) -> str:
    """The Markdown table of one bench (``only``) or of all of them, with the commands below."""
    chosen = [records[only]] if only else list(records.values())
    header = ["step", "tool", "alternative", "tool", "alternative", "tool is", "CPU", "peak RSS"]
    header += ["pairs", "load"]
    if only is None:
        header.insert(0, "bench")
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for record in chosen:
        for comparison in record["comparisons"]:
            lines.append(_row(record, comparison, with_bench=only is None))
    lines.append("")
    for record in chosen:
        machine = record["machine"]
        where = f"{record['when']}, {machine['cpus']} CPUs, Python {machine['python']}"
        lines.append(f"- `{record['command']}` ({where})")
        for comparison in record["comparisons"]:
            if comparison.get("note"):
                lines.append(f"  - {comparison['step']}: {comparison['note']}")
    lines.append("")
    return "\n".join(lines)


def regenerate(page_text: str, records: dict[str, dict]) -> str:
    """The page with every marked block replaced by its table; an unknown bench is an error."""

    def fill(match: re.Match) -> str:
        name = match.group(2)
        if name != "all" and name not in records:
            raise SystemExit(
                f"docs/benchmarks.md names bench {name!r} with no bench/results/{name}.json"
            )
        return match.group(1) + render(records, None if name == "all" else name) + match.group(4)

    return BLOCK.sub(fill, page_text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a table is stale")
    parser.add_argument("--rerun", nargs="+", default=[], metavar="BENCH", help="run again, --save")
    args = parser.parse_args()
    for name in args.rerun:  # the command exactly as stored, so a figure is re-measured as taken
        command = shlex.split(load_records()[name]["command"])
        subprocess.run([sys.executable, *command[1:], "--save"], cwd=ROOT, check=True)
    current = PAGE.read_text()
    fresh = regenerate(current, load_records())
    if args.check:
        if fresh != current:
            print("docs/benchmarks.md is stale: run python tools/bench_table.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
