"""The Shortcut Maze grid on the embedded corpus: wall time, per-fit overhead, resume, local vs Ray.

Grid: 10,000 train / 10,000 test rows; 5 shortcut types x 3 strengths x 5 seeds x tfidf-logreg
(75 cells; the five seeds of this seed-independent model share one fit, so 15 fits). In the same
run, a plain scikit-learn pipeline (same TF-IDF + logistic regression, one BLAS thread) fits and
predicts the same 15 benchmarks, which gives the engine's overhead per fit.

    python bench/grid_overhead.py [--rows 10000] [--jobs 2] [--no-ray]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from threadpoolctl import threadpool_limits

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.engine.store import ResultStore
from shortcutlab.families import run_experiment


def plain_fit_predict(folder: Path) -> float:
    bench = Benchmark.load(folder)
    started = time.perf_counter()
    with threadpool_limits(limits=1, user_api="blas"):
        model = make_pipeline(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
            LogisticRegression(C=10, max_iter=1000),
        )
        model.fit(bench["train"]["text"].tolist(), bench["train"]["label"].to_numpy())
        for split in ("test", "anti_test", "original_test"):
            model.predict_proba(bench[split]["text"].tolist())
    return time.perf_counter() - started


def timed_run(spec: Path, out: Path, **options) -> float:
    started = time.perf_counter()
    report = run_experiment(spec, out, **options)
    assert report.failed == 0, report.errors
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="grid-bench-"))
    spec = {
        "name": "maze-embedded",
        "data": {"builtin": "reviews", "train_size": args.rows, "test_size": args.rows},
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
    (root / "spec.yaml").write_text(yaml.safe_dump(spec))
    wall = timed_run(root / "spec.yaml", root / "local", jobs=args.jobs)
    resume = timed_run(root / "spec.yaml", root / "local", jobs=args.jobs)
    # Overhead like for like: a sequential engine run against the sequential plain fits (parallel
    # workers on a small machine slow each other down, which is not the engine's overhead).
    sequential = timed_run(root / "spec.yaml", root / "sequential", jobs=1)
    with ResultStore(root / "sequential" / "results.sqlite") as store:
        cells = store.cells()
    fits = cells.drop_duplicates("benchmark_id")  # one fit per benchmark: its seeds shared it
    folder = root / "sequential" / "benchmarks"
    plain = {
        row.benchmark_id: plain_fit_predict(folder / row.benchmark_id) for row in fits.itertuples()
    }
    engine = fits.set_index("benchmark_id")["total_seconds"]
    plain_total, engine_total = sum(plain.values()), float(engine.sum())
    print(
        f"grid: {len(cells)} cells, {len(fits)} fits, {args.rows:,} train / {args.rows:,} test rows"
    )
    print(f"local executor, --jobs {args.jobs}: {wall:.1f}s wall (benchmark builds included)")
    print(f"resume of the finished grid: {resume:.2f}s")
    print(f"local executor, --jobs 1: {sequential:.1f}s wall")
    per_engine, per_plain = engine_total / len(fits), plain_total / len(fits)
    print(
        f"per fit, sequential: engine {per_engine:.2f}s (load, fit, predict, metrics) vs plain {per_plain:.2f}s"
    )
    print(f"engine overhead per fit: {100 * (engine_total / plain_total - 1):+.1f}%")
    print(
        f"whole sequential run (builds, store, statistics) vs the plain fits: {100 * (sequential / plain_total - 1):+.1f}%"
    )
    if not args.no_ray:
        ray_wall = timed_run(root / "spec.yaml", root / "ray", executor="ray", jobs=args.jobs)
        print(f"ray executor, {args.jobs} CPUs: {ray_wall:.1f}s wall vs local {wall:.1f}s")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
