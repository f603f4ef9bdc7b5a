"""The Shortcut Maze grid on the embedded corpus: wall time, per-fit overhead, resume, local vs Ray.

Grid: 10,000 train / 10,000 test rows; 5 shortcut types x 3 strengths x 5 seeds x tfidf-logreg
(75 cells; the five seeds of this seed-independent model share one fit, so 15 fits). The whole
`shortcutlab run` process (builds, fits, store, statistics), with --jobs 1 and with --jobs N, is
timed in interleaved pairs (bench/paired.py) next to the plain script a user would write for the
fits alone (bench/plain/fit_builds.py on the same 15 builds, from files); then the Ray executor
next to the local one, and a resume of the finished grid.

    python bench/grid_overhead.py [--rows 10000] [--jobs 2] [--no-ray] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import paired
import yaml

from shortcutlab.engine.store import ResultStore


def grid_spec(rows: int) -> dict:
    return {
        "name": "maze-embedded",
        "data": {"builtin": "reviews", "train_size": rows, "test_size": rows},
        "shortcuts": [
            "single-term",
            "synonym",
            "category",
            "concept-occurrence",
            "concept-correlation",
        ],
        "strengths": [1.0, 0.8, 0.6],
        "models": [{"name": "tfidf-logreg"}],
        "seeds": [0, 1, 2, 3, 4],
    }


def run_side(root: Path, name: str, *options: str) -> paired.Side:
    """A whole `shortcutlab run` process into a fresh folder (emptied before each run)."""
    out = root / name
    command = [sys.executable, "-m", "shortcutlab", "run", str(root / "spec.yaml")]
    return paired.Side(
        f"shortcutlab run {' '.join(options)}".strip(),
        lambda: [*command, "--out", str(out), *options],
        prepare=lambda: shutil.rmtree(out, ignore_errors=True),
    )


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    paired.add_options(parser)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="grid-bench-"))
    (root / "spec.yaml").write_text(yaml.safe_dump(grid_spec(args.rows)))
    try:
        first = run_side(root, "first", "--jobs", "1")
        paired.run_process(first)  # the builds the plain script fits, and a warm cache
        with ResultStore(root / "first" / "results.sqlite") as store:
            cells = store.cells()
        fits = cells.drop_duplicates("benchmark_id")  # one fit per benchmark: its seeds share it
        folders = [str(root / "first" / "benchmarks" / b) for b in fits["benchmark_id"]]
        print(f"grid: {len(cells)} cells, {len(fits)} fits, {args.rows:,} train / test rows")
        resume = timed([*first.command(), "--jobs", "1"])
        print(f"resume of the finished grid (nothing to run): {resume:.2f} s")
        plain = paired.Side(
            "bench/plain/fit_builds.py",
            lambda: [
                sys.executable,
                str(Path(__file__).parent / "plain" / "fit_builds.py"),
                *folders,
            ],
        )
        # Like for like first: one process each (the plain script is sequential), then --jobs.
        note = "the plain script fits the same builds from files; the run also builds them"
        results = [
            paired.compare(
                "grid, sequential",
                run_side(root, "one", "--jobs", "1"),
                plain,
                pairs=args.pairs,
                note=note,
            ),
            paired.compare(
                f"grid, --jobs {args.jobs}",
                run_side(root, "jobs", "--jobs", str(args.jobs)),
                plain,
                pairs=args.pairs,
                note=note,
            ),
        ]
        if not args.no_ray:
            ray = run_side(root, "ray", "--executor", "ray", "--jobs", str(args.jobs))
            local = run_side(root, "local", "--jobs", str(args.jobs))
            results.append(paired.compare("grid, ray vs local", ray, local, pairs=args.pairs))
        if args.save:
            paired.write_results("grid_overhead", results)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
