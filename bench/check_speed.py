"""`shortcutlab check` end to end: a suite of 5 Maze shortcuts and 10 perturbation classes on
10,000 test rows with tfidf-logreg (issue 37's target: at most 60 s), against a plain script
doing the same evaluations with the library calls (bench/plain/check_plain.py).

The generated review corpus (``--train`` / ``--test`` rows) is written once, untimed, to a
temporary folder both sides read; each side is a whole process, in interleaved pairs
(bench/paired.py). The check side also prints its table and writes JUnit XML.

    python bench/check_speed.py [--train 10000 --test 10000] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path

import paired
from paired import Side, compare, write_results

from shortcutlab.corpus import generate_corpus

PLAIN = Path(__file__).resolve().parent / "plain" / "check_plain.py"
SHORTCUTS = ("single-term", "synonym", "category", "concept-occurrence", "concept-correlation")
PERTURBATIONS = (
    "case-upper",
    "case-lower",
    "typos-keyboard",
    "typos-swap",
    "typos-ocr",
    "punctuation-strip",
    "whitespace-spaces",
    "contractions-expand",
    "sentence-suffix",
    "shortcut:single-term",
)


def suite_text() -> str:
    lines = ["name: bench", "data: {train: train.csv, test: test.csv}", "requirements:"]
    lines += [
        f"  - {{id: {name}, maze: {{shortcut: {name}, strength: 0.8}}, max_delta: 0.05}}"
        for name in SHORTCUTS
    ]
    lines += [
        f"  - {{id: {name.replace(':', '-')}, robustness: {{perturbation: '{name}'}}, max_drop: 0.05}}"
        for name in PERTURBATIONS
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=int, default=10_000)
    parser.add_argument("--test", type=int, default=10_000)
    paired.add_options(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        corpus = generate_corpus(train_size=args.train, test_size=args.test)
        for split in ("train", "test"):
            corpus[split].to_csv(folder / f"{split}.csv", index=False)
        (folder / "suite.yaml").write_text(suite_text(), encoding="utf-8")
        argv = [sys.executable, "-m", "shortcutlab", "check", str(folder / "suite.yaml")]
        argv += ["--junit-xml", str(folder / "check.xml")]
        # check exits 1 when a requirement fails; the bench times the whole run either way.
        check = Side(
            "shortcutlab check",
            lambda: ["bash", "-c", f"{shlex.join(argv)} >/dev/null; test $? -le 1"],
        )
        plain = Side(
            "plain script",
            lambda: [
                sys.executable,
                str(PLAIN),
                str(folder),
                ",".join(SHORTCUTS),
                ",".join(PERTURBATIONS),
            ],
        )
        result = compare(
            f"check: {len(SHORTCUTS)} Maze shortcuts + {len(PERTURBATIONS)} perturbation classes, "
            f"{args.test:,} test rows, tfidf-logreg",
            check,
            plain,
            pairs=args.pairs,
            note="target: shortcutlab check <= 60 s",
        )
    if args.save:
        write_results("check_speed", [result])


if __name__ == "__main__":
    main()
