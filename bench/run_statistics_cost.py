"""What storing each group's statistics as it finishes costs `shortcutlab run`: the same grid
run as a whole CLI process by this checkout and by a baseline checkout (``--baseline SRC``, e.g.
the sources before the group_statistics table), in interleaved pairs (bench/paired.py), medians and the ratio; then what
`shortcutlab results` costs on each folder (the baseline's resamples every group, this
checkout's reads them).

    python bench/run_statistics_cost.py --baseline OTHER_CHECKOUT/src [--pairs 3] [--rows 1000] [--save]

The grid: the embedded reviews corpus, single-term and synonym at λ 1.0 and 0.6, tfidf-logreg,
seeds 0-2 (12 cells, 4 groups), the spec's default 1,000 resamples. On a shared machine the
absolute seconds move with the other load; the ratio of interleaved pairs is what counts.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import paired
import yaml

ROOT = Path(__file__).resolve().parents[1]


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
    parser.add_argument(
        "--baseline",
        type=paired.source_tree,
        required=True,
        help="source tree: a src folder or a git revision, e.g. main",
    )
    parser.add_argument("--rows", type=int, default=1000)
    paired.add_options(parser)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="statistics-cost-"))
    try:
        spec_file = work / "spec.yaml"
        spec_file.write_text(yaml.safe_dump(spec(args.rows)))
        compared = []
        for what in ("run", "results"):
            sides = [
                side(what, source, spec_file, work) for source in (ROOT / "src", args.baseline)
            ]
            compared.append(paired.compare(f"{what}, 12 cells", *sides, pairs=args.pairs))
        if args.save:
            paired.write_results("run_statistics_cost", compared)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def side(what: str, source: Path, spec_file: Path, work: Path) -> paired.Side:
    """`run` into a fresh folder, or `results` of the folder a `run` of ``source`` wrote."""
    out = work / f"run-{source.parent.name}"
    label = f"shortcutlab {what}, {paired.tree_name(source)}"
    env = {"PYTHONPATH": str(source)}
    command = [sys.executable, "-m", "shortcutlab", what]
    if what == "run":
        return paired.Side(
            label,
            lambda: [*command, str(spec_file), "--out", str(out)],
            env=env,
            prepare=lambda: shutil.rmtree(out, ignore_errors=True),
        )
    return paired.Side(label, lambda: [*command, str(out)], env=env)


if __name__ == "__main__":
    main()
