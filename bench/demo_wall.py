"""Wall time and peak memory of `shortcutlab demo`, next to the plain work it wraps.

The whole `shortcutlab demo` process (the README way) against the plain script a user would write
for the work it wraps (bench/plain/fit_builds.py): fit + predict the same TF-IDF + logistic
regression once per build the demo evaluates (every cell's build and its re-draws per seed), from
pre-built splits, with no building, MPS grid, statistics or writing. Interleaved pairs of whole
processes (bench/paired.py); the ratio is the demo's overhead over that bare work.

    python bench/demo_wall.py [--jobs 2] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import paired

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


def export_builds(builds: list[Benchmark], folder: Path) -> list[str]:
    """Every build as parquet files, the plain script's input (written once, untimed)."""
    folders = []
    for number, build in enumerate(builds):
        folders.append(str(build.save(folder / f"build-{number:03d}", fmt="parquet")))
    return folders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None)
    paired.add_options(parser)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="demo-wall-"))
    demo = [sys.executable, "-m", "shortcutlab", "demo", "--out", str(work / "demo")]
    demo += ["--jobs", str(args.jobs)] if args.jobs else []
    try:
        subprocess.run(
            demo, check=True, stdout=subprocess.DEVNULL
        )  # the builds the plain side fits
        builds = every_build(work / "demo")
        folders = export_builds(builds, work / "builds")
        tool = paired.Side(
            f"shortcutlab demo{f' --jobs {args.jobs}' if args.jobs else ''}",
            lambda: demo,
            prepare=lambda: shutil.rmtree(work / "demo", ignore_errors=True),
        )
        plain = paired.Side(
            "bench/plain/fit_builds.py",
            lambda: [
                sys.executable,
                str(Path(__file__).parent / "plain" / "fit_builds.py"),
                *folders,
            ],
        )
        note = (
            f"the plain script fits and predicts the {len(builds)} Maze builds the demo evaluates, "
            "read from files; the demo also builds them, runs the MPS grid, statistics and report"
        )
        result = paired.compare("demo", tool, plain, pairs=args.pairs, note=note)
        print(note)
        if args.save:
            paired.write_results("demo_wall", [result])
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
