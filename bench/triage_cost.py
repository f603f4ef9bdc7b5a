"""What the triage adds to a `--model` audit (issue 35: at most 20 %), as whole processes.

The same `shortcutlab audit BUILD/train.csv --test BUILD/test.csv --model tfidf-logreg` on the
shared GoEmotions data with "frankly" planted at λ = 0.8 (the issue's example), from this tree
and from the tree before the triage (``--before``, default d7396c9), in interleaved rounds
(bench/paired.py). ``--label-names feelings`` names the labels by their emotions (VADER reads
them; no encoder), ``topics`` by topics, which makes the triage load the bundled sentence encoder
for the content words nothing else settles (the older tree has no such option; its audit runs
without names).

    python bench/triage_cost.py [--pairs 3] [--before d7396c9] [--label-names feelings|topics]
        [--cold] [--save]

``--cold`` empties the embedding cache (``SHORTCUTLAB_CACHE``) before every run of this tree, as
on a user's first audit; by default the encoder's vectors of earlier runs are reused.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import paired
from shared_data import shared_file

TRAIN = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "train.csv")
NAMES = ("0=neutral", "1=amusement", "2=joy", "3=excitement")
#: Names that are no feelings: the triage then asks the encoder (its cost, not its judgement).
TOPICS = ("0=politics", "1=sports", "2=music", "3=science")
ROOT = Path(__file__).resolve().parents[1]


def _build(folder: Path) -> Path:
    """The issue's build: "frankly" planted at λ = 0.8, seed 2."""
    out = folder / "build"
    subprocess.run(
        [
            sys.executable, "-m", "shortcutlab", "build", "maze", "--train", str(TRAIN),
            "--test", str(TRAIN.with_name("test.csv")), "--shortcut", "single-term",
            "-o", "term=frankly", "--strength", "0.8", "--seed", "2", "--out", str(out),
        ],
        check=True, capture_output=True,
    )  # fmt: skip
    return out


def _side(
    label: str,
    src: Path,
    build: Path,
    out: Path,
    names: tuple[str, ...] = (),
    cache: Path | None = None,
) -> paired.Side:
    command = [
        sys.executable, "-m", "shortcutlab", "audit", str(build / "train.csv"),
        "--test", str(build / "test.csv"), "--model", "tfidf-logreg", "--out", str(out),
        "--overwrite",
    ]  # fmt: skip
    command += [part for name in names for part in ("--label-name", name)]
    env = dict(os.environ, PYTHONPATH=str(src))
    if cache is not None:  # a cold embedding cache: the encoder loads and encodes every run
        env["SHORTCUTLAB_CACHE"] = str(cache)

    def prepare() -> None:
        shutil.rmtree(out, ignore_errors=True)
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)

    return paired.Side(label, lambda: command, env=env, prepare=prepare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--before", default="d7396c9", help="tree before the triage")
    parser.add_argument(
        "--label-names",
        choices=("feelings", "topics"),
        help="name the labels: their emotions, or topics (which make the triage load the encoder)",
    )
    parser.add_argument(
        "--cold", action="store_true", help="empty the embedding cache before every run"
    )
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    if not TRAIN.is_file():
        raise SystemExit(f"needs the shared GoEmotions data at {TRAIN}")
    before = paired.source_tree(args.before)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        build = _build(folder)
        cache = folder / "cache" if args.cold else None
        names = {"feelings": NAMES, "topics": TOPICS}.get(args.label_names or "", ())
        now = _side("audit with triage", ROOT / "src", build, folder / "now", names, cache)
        old = _side(f"audit, {paired.tree_name(before)}", before, build, folder / "old")
        result = paired.compare(
            "--model audit, GoEmotions frankly λ=0.8"
            + (f", label names: {args.label_names}" if args.label_names else "")
            + (", cold embedding cache" if args.cold else ""),
            now,
            old,
            pairs=args.pairs,
        )
    if args.save:
        paired.write_results("triage_cost", [result])


if __name__ == "__main__":
    main()
