"""Whether two source trees' ``shortcutlab audit`` write the same files: audit.csv and audit.json,
byte for byte, on a few thousand rows of each kind of input.

A change meant to make the audit faster or smaller must not change what it finds. This runs the
audit of this checkout and of ``--before`` (a source folder or a git revision, exported as
bench/paired.py does) on the same inputs, and prints one line per input and file: ``same`` or
where they first differ. The inputs: GoEmotions comments joined in pairs with a planted cue
(bench/audit_speed.py's table); the same with a ``--test`` table holding exact copies, copies in
other case and spacing with another label, and near copies; NLI-like pairs; and a table with
metadata columns, n-grams to 3 and a word list of the user's.

    python bench/audit_same_output.py --before d7396c9 [--rows 5000]

Exit status 1 when a file differs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import paired
import pandas as pd
from audit_speed import DEFAULT_DATA, synthesize

SRC = Path(__file__).resolve().parents[1] / "src"
FILES = ("audit.csv", "audit.json")


def inputs(folder: Path, rows: int) -> dict[str, list[str]]:
    """Each input's audit arguments (its files written into ``folder``)."""
    texts = pd.read_csv(DEFAULT_DATA) if DEFAULT_DATA.is_file() else None
    table = synthesize(rows, texts=texts)
    single = folder / "single.csv"
    table.to_csv(single, index=False)
    rng = np.random.default_rng(1)
    exact = table.sample(rows // 20, random_state=1)
    other = table.sample(rows // 20, random_state=2).assign(
        text=lambda d: d["text"].str.upper().str.replace(" ", "  ", n=1),
        label=lambda d: (d["label"] + 1) % 4,
    )
    near = table[table["text"].str.split().str.len() > 12].sample(rows // 20, random_state=3)
    near = near.assign(text=near["text"] + " indeed")
    fresh = synthesize(rows // 5, texts=texts, seed=9)
    test = pd.concat([exact, other, near, fresh], ignore_index=True)
    test.assign(row_id=np.arange(len(test))).to_csv(folder / "test.csv", index=False)
    words = ["a", "man", "dog", "sleeps", "runs", "park", "not", "never", "the", "nobody"]
    premise = [" ".join(rng.choice(words, size=8)) for _ in range(rows)]
    labels = rng.choice(["entailment", "neutral", "contradiction"], size=rows)
    negated = rng.random(rows) < np.where(labels == "contradiction", 0.5, 0.05)
    hypothesis = [
        ("not " if n else "") + " ".join(rng.choice(words, size=5)) for n in negated.tolist()
    ]
    pairs = pd.DataFrame({"premise": premise, "hypothesis": hypothesis, "label": labels})
    pairs.to_csv(folder / "pairs.csv", index=False)
    meta = table.assign(
        source=rng.choice(["web", "print", ""], size=rows), length=table["text"].str.len()
    )
    meta.to_csv(folder / "meta.csv", index=False)
    (folder / "mine.txt").write_text("frankly\nto be honest\nthank you\n", encoding="utf-8")
    return {
        "single": [str(single)],
        "with --test": [str(single), "--test", str(folder / "test.csv")],
        "pairs": [
            str(folder / "pairs.csv"),
            "--text-col",
            "premise",
            "--text-pair-col",
            "hypothesis",
        ],
        "metadata, 3-grams, a word list": [
            str(folder / "meta.csv"),
            "--meta-col",
            "source",
            "--meta-col",
            "length",
            "--ngram-max",
            "3",
            "--lexicon",
            f"mine={folder / 'mine.txt'}",
            "--min-support",
            "5",
        ],
    }


def audit(source: Path, arguments: list[str], out: Path) -> None:
    """One tree's audit of one input into ``out``; a failure stops the bench."""
    command = [sys.executable, "-m", "shortcutlab", "audit", *arguments, "--seed", "0"]
    environment = os.environ | {"PYTHONPATH": str(source)}
    ran = subprocess.run(
        [*command, "--out", str(out), "--overwrite"], env=environment, capture_output=True
    )
    if ran.returncode != 0:
        raise SystemExit(f"{source}: audit {' '.join(arguments)} failed:\n{ran.stderr.decode()}")


def difference(first: Path, second: Path) -> str:
    """'same', or the first line where the two files differ."""
    one, other = first.read_bytes(), second.read_bytes()
    if one == other:
        return f"same (sha256 {hashlib.sha256(one).hexdigest()[:12]})"
    for number, (a, b) in enumerate(zip(one.splitlines(), other.splitlines(), strict=False), 1):
        if a != b:
            return f"DIFFERENT from line {number}: {a[:60]!r} vs {b[:60]!r}"
    return "DIFFERENT lengths"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=paired.source_tree, required=True)
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args()
    differing = 0
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name, arguments in inputs(folder, args.rows).items():
            outs = [folder / "now", folder / "before"]
            for source, out in zip((SRC, Path(args.before)), outs, strict=True):
                audit(source, arguments, out)
            for file in FILES:
                verdict = difference(outs[0] / file, outs[1] / file)
                differing += not verdict.startswith("same")
                print(f"{name}: {file} {verdict}", flush=True)
    print(f"against {paired.tree_name(args.before)}, {args.rows:,} rows: {differing} files differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
