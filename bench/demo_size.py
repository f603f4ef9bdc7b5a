"""Wall time and folder size of the whole `shortcutlab demo` process, two source trees interleaved.

Runs `python -m shortcutlab demo` with each tree's `src/` first on PYTHONPATH, alternating
baseline and candidate (B C B C ...) so that load from other work on the machine falls on both
alike; prints each run, the medians, their ratio, the folder sizes (`du -sb`) and whether the
result files of both trees are byte-identical.

    python bench/demo_size.py --baseline /work/main [--candidate .] [--pairs 3] [--jobs 2]
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

# The files whose bytes must not change with a change that only touches how the demo is stored.
RESULT_FILES = (
    "summary.csv",
    "summary_accuracy.md",
    "summary_macro_f1.md",
    "results.json",
    "mps/gaps.md",
    "mps/w_acc.md",
    "mps/accuracy.md",
    "mps/groups.csv",
    "mps/cells.csv",
)


def run_demo(tree: Path, out: Path, jobs: int | None) -> tuple[float, int]:
    """Seconds the whole demo process took, and the bytes of its folder (`du -sb`)."""
    command = [sys.executable, "-m", "shortcutlab", "demo", "--out", str(out)]
    if jobs:
        command += ["--jobs", str(jobs)]
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=out.parent)
    wall = time.perf_counter() - started
    du = subprocess.run(["du", "-sb", str(out)], check=True, capture_output=True, text=True)
    return wall, int(du.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="source tree, e.g. main")
    parser.add_argument("--candidate", type=Path, default=Path("."), help="source tree")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve(), "candidate": args.candidate.resolve()}
    work = Path(tempfile.mkdtemp())
    walls: dict[str, list[float]] = {name: [] for name in trees}
    sizes: dict[str, int] = {}
    try:
        for pair in range(args.pairs):
            for name, tree in trees.items():
                out = work / name / "shortcutlab-demo"
                out.parent.mkdir(exist_ok=True)
                wall, size = run_demo(tree, out, args.jobs)
                walls[name].append(wall)
                sizes[name] = size
                print(f"pair {pair + 1} {name:9} {wall:6.1f} s  {size / 1e6:6.1f} MB", flush=True)
        same = [
            f
            for f in RESULT_FILES
            if (work / "baseline" / "shortcutlab-demo" / f).read_bytes()
            == (work / "candidate" / "shortcutlab-demo" / f).read_bytes()
        ]
    finally:
        shutil.rmtree(work)
    load = os.getloadavg()
    medians = {name: statistics.median(values) for name, values in walls.items()}
    for name, tree in trees.items():
        print(
            f"{name:9} {tree}: median {medians[name]:.1f} s of {args.pairs}, "
            f"folder {sizes[name]:,} bytes ({sizes[name] / 1e6:.1f} MB)"
        )
    print(f"candidate / baseline wall: {medians['candidate'] / medians['baseline']:.2f}")
    print(f"result files byte-identical: {len(same)} of {len(RESULT_FILES)}")
    print(f"load average at the end (1, 5, 15 min): {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
