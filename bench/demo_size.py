"""Wall time and folder size of the whole `shortcutlab demo` process, two source trees interleaved.

Runs `python -m shortcutlab demo` with each tree's `src/` first on PYTHONPATH, in interleaved pairs
whose order alternates (bench/paired.py) so that load from other work on the machine falls on both
alike; prints the medians, their ratio, the peak RSS, the folder sizes (`du -sb`) and whether the
result files of both trees are byte-identical.

    python bench/demo_size.py --baseline /work/main [--candidate .] [--pairs 3] [--jobs 2] [--save]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import paired

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


def demo_side(name: str, tree: Path, out: Path, jobs: int | None) -> paired.Side:
    """The whole demo process with ``tree``'s sources first on PYTHONPATH, into a fresh folder."""
    command = [sys.executable, "-m", "shortcutlab", "demo", "--out", str(out)]
    command += ["--jobs", str(jobs)] if jobs else []
    return paired.Side(
        f"demo of {name} ({tree.name})",
        lambda: command,
        env={"PYTHONPATH": str(tree / "src")},
        cwd=out.parent,
        prepare=lambda: shutil.rmtree(out, ignore_errors=True),
    )


def folder_bytes(folder: Path) -> int:
    du = subprocess.run(["du", "-sb", str(folder)], check=True, capture_output=True, text=True)
    return int(du.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="source tree, e.g. main")
    parser.add_argument("--candidate", type=Path, default=Path("."), help="source tree")
    parser.add_argument("--jobs", type=int, default=None)
    paired.add_options(parser)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    outs = {name: work / name / "shortcutlab-demo" for name in ("baseline", "candidate")}
    for out in outs.values():
        out.parent.mkdir()
    try:
        result = paired.compare(
            "demo",
            demo_side("candidate", args.candidate.resolve(), outs["candidate"], args.jobs),
            demo_side("baseline", args.baseline.resolve(), outs["baseline"], args.jobs),
            pairs=args.pairs,
        )
        sizes = {name: folder_bytes(out) for name, out in outs.items()}
        same = [
            f
            for f in RESULT_FILES
            if (outs["baseline"] / f).read_bytes() == (outs["candidate"] / f).read_bytes()
        ]
    finally:
        shutil.rmtree(work)
    for name, size in sizes.items():
        print(f"{name:9} folder {size:,} bytes ({size / 1e6:.1f} MB)")
    print(f"result files byte-identical: {len(same)} of {len(RESULT_FILES)}")
    if args.save:
        paired.write_results("demo_size", [result])


if __name__ == "__main__":
    main()
