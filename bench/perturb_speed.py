"""Perturbing 10,000 texts with 10 classes: shortcutlab next to a plain nlpaug loop (issue 37).

Both sides are whole processes in interleaved pairs (bench/paired.py): bench/tool/perturb_rows.py
calls ``shortcutlab.perturb.perturb`` once per class; bench/plain/nlpaug_loop.py loops over the
texts per class with nlpaug's KeyboardAug, RandomCharAug(swap) and OcrAug for the typos and a line
of Python for the rest. Each reads the same CSV (the first ``--rows`` Rotten Tomatoes sentences,
written once, untimed) and writes one column per class. Afterwards each side runs once more to
print the seconds its perturbing took alone (nlpaug imports torch when it is installed, which a
whole process pays for).

    python bench/perturb_speed.py [--rows 10000] [--pairs 3] [--save]
    (nlpaug must be importable by the plain side: pip install -e ".[bench]", or set
    NLPAUG_PATH to a folder holding it, e.g. from pip install --target)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import paired
import pandas as pd
from paired import Side, compare, write_results
from shared_data import shared_file

HERE = Path(__file__).resolve().parent
TOOL = HERE / "tool" / "perturb_rows.py"
PLAIN = HERE / "plain" / "nlpaug_loop.py"
DATA = shared_file("SHORTCUTLAB_ROTTEN_TOMATOES", "rotten-tomatoes", "sentences.csv")
CLASSES = (
    "case-upper",
    "case-lower",
    "case-title",
    "typos-keyboard",
    "typos-swap",
    "typos-ocr",
    "punctuation-strip",
    "punctuation-add",
    "whitespace-newlines",
    "contractions-expand",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    paired.add_options(parser)
    args = parser.parse_args()
    src = str(HERE.parent / "src")
    tool_env = {"PYTHONPATH": src}
    plain_env = {"PYTHONPATH": os.environ.get("NLPAUG_PATH", "")}
    with tempfile.TemporaryDirectory() as folder:
        rows = Path(folder) / "rows.csv"
        pd.read_csv(DATA, keep_default_na=False).head(args.rows).to_csv(rows, index=False)

        def command(script: Path, out: str) -> list[str]:
            return [sys.executable, str(script), str(rows), str(Path(folder) / out), *CLASSES]

        tool = Side("shortcutlab", lambda: command(TOOL, "tool.csv"), env=tool_env)
        plain = Side("nlpaug loop", lambda: command(PLAIN, "plain.csv"), env=plain_env)
        result = compare(
            f"perturb {args.rows} texts x {len(CLASSES)} classes",
            tool,
            plain,
            pairs=args.pairs,
            note="whole processes; the plain side imports nlpaug (and torch through it)",
        )
        for side in (tool, plain):
            ran = subprocess.run(
                side.command(), env=os.environ | (side.env or {}), capture_output=True, text=True
            )
            print(f"{side.label}: perturbing alone {ran.stdout.strip()} s")
    if args.save:
        print(write_results("perturb_speed", [result]))


if __name__ == "__main__":
    main()
