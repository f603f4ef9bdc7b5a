"""Wall time and peak memory of `shortcutlab demo`, next to the plain work it wraps.

Runs the CLI demo in a subprocess (the README way), then, in the same run, a plain scikit-learn
baseline: fit + predict the same TF-IDF + logistic regression once per (shortcut, strength) cell
on pre-built splits, with no building, statistics or writing. The ratio shows the overhead.

    python bench/demo_wall.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.families.maze.redraw import redraw_from_manifest


def every_build(demo_dir: Path) -> list[Benchmark]:
    """Each cell's saved build and, as the demo re-draws per seed (vary both), its re-drawn
    builds, re-made from the manifest (the demo keeps only each cell's own build)."""
    seeds = json.loads((demo_dir / "demo.json").read_text())["arguments"]["seeds"]
    builds = []
    here, demo_dir = Path.cwd(), demo_dir.resolve()
    os.chdir(demo_dir)  # the manifests name their inputs as corpus/*.csv
    try:
        for cell in sorted((demo_dir / "benchmarks").iterdir()):
            base = Benchmark.load(cell)
            rebuild = redraw_from_manifest(base)
            builds += [base, *(rebuild(seed) for seed in range(1, seeds))]
    finally:
        os.chdir(here)
    return builds


def plain_baseline(builds: list[Benchmark], *, blas_threads: int | None) -> float:
    from threadpoolctl import threadpool_limits

    started = time.perf_counter()
    limit = threadpool_limits(limits=blas_threads, user_api="blas") if blas_threads else None
    for bench in builds:
        model = make_pipeline(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
            LogisticRegression(C=10, max_iter=1000),
        )
        model.fit(bench["train"]["text"], bench["train"]["label"])
        for split in ("test", "anti_test", "original_test"):
            model.predict(bench[split]["text"])
    if limit is not None:
        limit.unregister()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp()) / "demo"
    command = [sys.executable, "-m", "shortcutlab", "demo", "--out", str(out)]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    cells = len(list((out / "benchmarks").iterdir()))
    builds = every_build(out)
    default_threads = plain_baseline(builds, blas_threads=None)
    one_thread = plain_baseline(builds, blas_threads=1)
    print(f"shortcutlab demo wall time: {wall:.1f}s (jobs={args.jobs or 'default'})")
    print(f"peak RSS of the largest process (CLI or worker): {peak_mb:.0f} MB")
    print(
        f"plain sklearn fit+predict of every build of the same {cells} cells, one process, default BLAS threads: {default_threads:.1f}s"
    )
    print(f"the same with one BLAS thread: {one_thread:.1f}s")
    print(f"demo / plain baselines: {wall / default_threads:.2f}x, {wall / one_thread:.2f}x")
    shutil.rmtree(out.parent)


if __name__ == "__main__":
    main()
