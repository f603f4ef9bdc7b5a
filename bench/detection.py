"""Detection with ground truth (issue 35): does the audit's triage put a planted cue first among
its likely shortcuts, and keep genuine label words out of them?

For each data set, Shortcut Maze shortcut, λ and seed, the script builds the benchmark
(`build_maze_benchmark`), audits the build's train split with a model (`audit_dataset(...,
model="tfidf-logreg")`, which measures reliance on the top candidates) and reads `audit.json`.
λ = 0 is the null build: the same cue in half the rows of every label, no association. MultiNLI
is audited unplanted: the hypothesis alone is the planted cue's stand-in (a known artefact), the
premise alone its null (detection_data.py).

Per cell (data set, shortcut, λ) over the seeds, three methods (detection_scoring.py):

- triage: rank of the cue among the likely shortcuts (group "shortcut", by shortcut_rank);
- association: rank among all candidates by the audit's rank (association alone);
- reliance: rank among the candidates the model relies on (relied_on true), in the audit's order;

with recall@1 and @5, the genuine label words each flags (in its top 5 / in all; the lists in
bench/label_words/), and on null builds the flags of the cue. Before the triage lands (no "group"
in audit.json) its columns print "—". The cue's names: maze_cues.py.

Targets (PASS/MISS per row, for the triage; the summary gives every method):
- the cue #1 among likely shortcuts in ≥ 90 % of occurrence and style builds at λ ≥ 0.6, ≥ 60 %
  at λ = 0.4;
- on GoEmotions no emotion word among the top 5 likely shortcuts;
- on null builds no flag of the cue beyond the false-discovery level (≤ 5 % of the builds).

    python bench/detection.py [--datasets corpus,goemotions,rotten-tomatoes,mnli] [--types ...]
        [--strengths 0,0.2,0.4,0.6,0.8,1] [--seeds 0,1,2] [--jobs 2] [--out bench/out/detection]
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from detection_data import DATASETS, PARTIAL_INPUT, Task, prepare, run_task
from detection_scoring import METHODS, MISSING, Cell, cells, summaries

STRENGTHS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
SEEDS = (0, 1, 2)
TYPES = tuple(dict.fromkeys(s for d in DATASETS.values() for s in d.shortcuts))
DEFAULT_OUT = Path(__file__).resolve().parent / "out" / "detection"


def listed(kind: Callable[[str], Any], choices: Sequence[Any] | None = None) -> Callable:
    """An argparse type: a comma-separated list of ``kind``, each one of ``choices``."""

    def parse(text: str) -> tuple[Any, ...]:
        values = tuple(kind(v.strip()) for v in text.split(",") if v.strip())
        wrong = [v for v in values if choices is not None and v not in choices]
        if wrong or not values:
            raise argparse.ArgumentTypeError(
                f"{', '.join(map(str, wrong)) or 'nothing'} is not one of {', '.join(map(str, choices or ()))}"
            )
        return values

    return parse


def strength(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"λ must be in [0, 1]; got {text}")
    return value


def tasks(args: argparse.Namespace, sources: dict[str, Path]) -> list[Task]:
    found = []
    for name, source in sources.items():
        for shortcut in (s for s in DATASETS[name].shortcuts if s in args.types):
            strengths = (1.0,) if shortcut == PARTIAL_INPUT else args.strengths
            for value in strengths:
                for seed in args.seeds:
                    out = args.out / "audits" / name / shortcut / f"lambda{value:g}-seed{seed}"
                    found.append(Task(name, shortcut, value, seed, str(source), str(out)))
    return found


def run_all(found: list[Task], args: argparse.Namespace) -> tuple[list[dict], list[str]]:
    """Every task, in worker processes when --jobs > 1; (results, failures)."""
    results: list[dict] = []
    failures: list[str] = []

    def done(index: int, task: Task, rows: list[dict] | BaseException) -> None:
        where = f"{task.dataset} {task.shortcut} λ={task.strength:g} seed {task.seed}"
        if isinstance(rows, BaseException):
            failures.append(f"{where}: {type(rows).__name__}: {rows}")
            print(f"[{index}/{len(found)}] {where}: FAILED {rows}", flush=True)
            return
        results.extend(rows)
        row = rows[0]
        print(
            f"[{index}/{len(found)}] {where}: build {row['build_s']:.1f} s, cue {row['cue_s']:.1f}"
            f" s, audit {row['audit_s']:.1f} s",
            flush=True,
        )

    options = (args.model, args.top, args.reuse)
    if args.jobs == 1:
        for index, task in enumerate(found, 1):
            try:
                done(index, task, run_task(task, *options))
            except Exception as exc:  # noqa: BLE001 (one failed build must not stop the grid)
                traceback.print_exc()
                done(index, task, exc)
        return results, failures
    context = multiprocessing.get_context("spawn")  # (pyarrow's threads and fork do not mix)
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        futures = {pool.submit(run_task, task, *options): task for task in found}
        for index, future in enumerate(as_completed(futures), 1):
            error = future.exception()
            done(index, futures[future], error if error is not None else future.result())
    return results, failures


def ranks_text(cell: Cell, method: str) -> str:
    """The cue's rank per build (· not flagged) and recall@1 / @5, or the flags on a null cell."""
    found = cell.scored(method)
    if found is None:
        return MISSING
    ranks = " ".join("·" if s.rank is None else str(s.rank) for s in found)
    if cell.null:
        return f"{ranks} (flags {cell.flags(method)})"
    return f"{ranks} ({cell.recall(method, 1):.2f} / {cell.recall(method, 5):.2f})"


def words_text(cell: Cell, method: str) -> str:
    top, total = cell.label_words(method), cell.label_words(method, total=True)
    if top is None or total is None:
        return MISSING
    return f"{sum(top)} / {sum(total)}"


def strength_text(cell: Cell) -> str:
    return "real" if cell.strength is None else f"{cell.strength:g}"


def markdown(found: Sequence[Cell]) -> str:
    """The planted and null tables, and the grid-wide targets, as Markdown."""
    head = ["data set", "shortcut", "λ", "builds"]
    for method in METHODS:
        head += [f"{method}: rank (r@1 / r@5)", f"{method}: label words top 5 / all"]
    head += ["target", "result"]
    lines = []
    for title, chosen in (
        ("Planted cues", [c for c in found if not c.null]),
        ("Null builds (λ = 0; MultiNLI: the premise alone)", [c for c in found if c.null]),
    ):
        lines += [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        for cell in chosen:
            row = [cell.dataset, cell.shortcut, strength_text(cell), str(cell.builds)]
            for method in METHODS:
                row += [ranks_text(cell, method), words_text(cell, method)]
            row += ["; ".join(t for t, _ in cell.targets()) or "—", cell.result()]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    lines += ["### Targets over the grid", "", "| target | method | met | builds | result |"]
    lines.append("| --- | --- | --- | --- | --- |")
    for s in summaries(found):
        met = MISSING if s.met is None else str(s.met)
        result = MISSING if s.passed is None else ("PASS" if s.passed else "MISS")
        lines.append(f"| {s.target} | {s.method} | {met} | {s.builds} | {result} |")
    return "\n".join(lines) + "\n"


def cell_rows(found: Sequence[Cell]) -> list[dict[str, Any]]:
    rows = []
    for cell in found:
        row: dict[str, Any] = {
            "dataset": cell.dataset,
            "shortcut": cell.shortcut,
            "family": cell.family,
            "strength": strength_text(cell),
            "null": cell.null,
            "builds": cell.builds,
        }
        for method in METHODS:
            scored = cell.scored(method)
            row[f"{method}_ranks"] = (
                ""
                if scored is None
                else ";".join("" if s.rank is None else str(s.rank) for s in scored)
            )
            for k in (1, 5):
                value = cell.recall(method, k)
                row[f"{method}_recall_at_{k}"] = (
                    "" if value is None or cell.null else round(value, 3)
                )
            row[f"{method}_flags"] = cell.flags(method) if cell.null else ""
            for total, key in ((False, "top5"), (True, "all")):
                words = cell.label_words(method, total)
                row[f"{method}_label_words_{key}"] = "" if words is None else sum(words)
        row["target"] = "; ".join(t for t, _ in cell.targets())
        row["result"] = cell.result()
        rows.append(row)
    return rows


def build_rows(results: Sequence[dict]) -> list[dict[str, Any]]:
    rows = []
    for r in results:
        row = {k: r[k] for k in ("dataset", "shortcut", "family", "strength", "seed", "cue_names")}
        for method in METHODS:
            score = r["scores"][method]
            row[f"{method}_rank"] = "" if score is None or score.rank is None else score.rank
            row[f"{method}_label_words_top5"] = "" if score is None else score.label_words_top
            row[f"{method}_label_words_all"] = "" if score is None else score.label_words_total
        row |= {k: round(r[k], 2) for k in ("build_s", "cue_s", "audit_s")} | {"audit": r["audit"]}
        rows.append(row)
    return rows


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def timing(results: Sequence[dict], args: argparse.Namespace, wall: float) -> str:
    """Seconds per build and audit by data set, and the full grid's time estimated from them."""
    lines = [f"\nwall {wall:.0f} s with --jobs {args.jobs}; per build (means over this run):"]
    full = 0.0
    for name, dataset in DATASETS.items():
        # (MultiNLI scores one audit twice: once per cue)
        mine = list({r["audit"]: r for r in results if r["dataset"] == name}.values())
        if not mine:
            continue
        audit = sum(r["audit_s"] for r in mine) / len(mine)
        build = sum(r["build_s"] + r["cue_s"] for r in mine) / len(mine)
        grid = len(dataset.shortcuts) * len(SEEDS) * (1 if name == "mnli" else len(STRENGTHS))
        full += grid * (audit + build)
        lines.append(
            f"  {name}: {len(mine)} builds, audit {audit:.1f} s, build + cue names {build:.1f} s;"
            f" the full grid has {grid} builds"
        )
    lines.append(
        f"full grid (every data set here, {len(STRENGTHS)} λ, {len(SEEDS)} seeds): about "
        f"{full / 60:.0f} min of one core's time, {full / 60 / args.jobs:.0f} min with --jobs {args.jobs}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=listed(str, tuple(DATASETS)), default=tuple(DATASETS))
    parser.add_argument("--types", type=listed(str, TYPES), default=TYPES)
    parser.add_argument("--strengths", type=listed(strength), default=STRENGTHS)
    parser.add_argument("--seeds", type=listed(int), default=SEEDS)
    parser.add_argument("--jobs", type=int, default=1, help="Worker processes.")
    parser.add_argument("--model", default="tfidf-logreg")
    parser.add_argument("--top", type=int, default=50, help="Candidates audit.json lists.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--reuse", action="store_true", help="Keep audits already in --out.")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1; got {args.jobs}")
    sources = {}
    for name in args.datasets:
        source = prepare(name, args.out)
        if source is None:
            print(f"{DATASETS[name].title} skipped: its shared data is absent")
        else:
            sources[name] = source
    found = tasks(args, sources)
    if not found:
        raise SystemExit("Nothing to run: no data set present carries the types asked for.")
    print(f"{len(found)} builds; audits under {args.out / 'audits'}", flush=True)
    started = time.perf_counter()
    results, failures = run_all(found, args)
    wall = time.perf_counter() - started
    results.sort(key=lambda r: r["seed"])  # (workers finish in any order; cells list by seed)
    grouped = cells(results)
    table = markdown(grouped)
    print("\n" + table)
    print(timing(results, args, wall))
    args.out.mkdir(parents=True, exist_ok=True)
    if results:
        write_csv(args.out / "detection.csv", cell_rows(grouped))
        write_csv(args.out / "builds.csv", build_rows(results))
    (args.out / "detection.md").write_text(table)
    print(f"\nwrote detection.csv, builds.csv and detection.md to {args.out}")
    if failures:
        print(f"{len(failures)} builds failed:\n  " + "\n  ".join(failures), file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
