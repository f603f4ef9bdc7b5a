"""What storing each group's statistics as it finishes costs `shortcutlab run`: the same grid
run as a whole CLI process by this checkout and by a baseline checkout (``--baseline SRC``, e.g.
the sources before the group_statistics table), interleaved, medians and the ratio; then what
`shortcutlab results` costs on each folder (the baseline's resamples every group, this
checkout's reads them).

    python bench/run_statistics_cost.py --baseline /work/wt-merge/src [--repeats 3] [--rows 1000]

The grid: the embedded reviews corpus, single-term and synonym at λ 1.0 and 0.6, tfidf-logreg,
seeds 0-2 (12 cells, 4 groups), the spec's default 1,000 resamples. On a shared machine the
absolute seconds move with the other load; the ratio of interleaved pairs is what counts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def timed_cli(source: Path, *arguments: str | Path) -> float:
    """Seconds of one ``shortcutlab ARGUMENTS`` process run from the sources ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "shortcutlab", *map(str, arguments)],
        check=True,
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - started


def spec(rows: int) -> dict[str, object]:
    return {
        "name": "statistics-cost",
        "data": {"builtin": "reviews", "train_size": rows, "test_size": rows},
        "shortcuts": ["single-term", "synonym"],
        "strengths": [1.0, 0.6],
        "models": [{"name": "tfidf-logreg"}],
        "seeds": [0, 1, 2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="source tree, e.g. main")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()
    sources = {"this checkout": ROOT / "src", "baseline": args.baseline.resolve()}
    work = Path(tempfile.mkdtemp(prefix="statistics-cost-"))
    try:
        spec_file = work / "spec.yaml"
        spec_file.write_text(yaml.safe_dump(spec(args.rows)))
        runs: dict[str, list[float]] = {name: [] for name in sources}
        results: dict[str, list[float]] = {name: [] for name in sources}
        for repeat in range(args.repeats):  # interleaved: each pair shares the machine's load
            for number, (name, source) in enumerate(sources.items()):
                out = work / f"run-{number}-{repeat}"
                runs[name].append(timed_cli(source, "run", spec_file, "--out", out))
                results[name].append(timed_cli(source, "results", out))
        print(f"load average before/after: {os.getloadavg()[0]:.1f}")
        for what, timings in (("run", runs), ("results", results)):
            mine, base = (statistics.median(timings[name]) for name in sources)
            print(
                f"{what:8s} this checkout {mine:7.2f} s   baseline {base:7.2f} s   "
                f"this ÷ baseline {mine / base:.3f}   (medians of {args.repeats} interleaved; "
                f"this {[round(t, 2) for t in timings['this checkout']]}, "
                f"baseline {[round(t, 2) for t in timings['baseline']]})"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
