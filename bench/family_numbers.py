"""Every protocol's figures on the shared real data, through the CLI, into one folder; and a
comparison of two such folders, figure by figure.

A refactor that must not change any number runs this before and after and compares:

    python bench/family_numbers.py --out /tmp/numbers-before       # on the old commit
    python bench/family_numbers.py --out /tmp/numbers-after        # on the new one
    python bench/family_numbers.py --compare /tmp/numbers-before /tmp/numbers-after

It runs the README's examples of each family, scaled to a few minutes on two cores: a Maze grid on
GoEmotions (three shortcuts, two λ, erm and reweight, two re-drawn builds), a Maze build and
``evaluate``, an MPS grid and build on Rotten Tomatoes, a CAT grid and a ``cat`` run on MultiNLI
split by premise, a Shortcut Suite build and ``suite evaluate``, and ``audit``. It keeps every
``results --format csv|json``, every ``results.json`` and the sha256 of every built file. The
comparison ignores what is not a figure: timings, absolute paths, versions and dates.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from mnli_pairs import split_by_premise
from shared_data import shared_file

GOEMOTIONS = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "")
ROTTEN = shared_file("SHORTCUTLAB_ROTTEN_TOMATOES", "rotten-tomatoes", "sentences.csv")
MNLI = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")
# The ``build`` sub-command of each family: `build maze` since issue 20, `build --family maze` before.
BUILD = {family: ["build", family] for family in ("maze", "mps", "suite")}
VOLATILE = (
    "seconds",
    "elapsed",
    "path",
    "version",
    "created",
    "started",
    "finished",
    "dir",
    "file",
)


def shortcutlab(*args: str | Path, cwd: Path | None = None) -> str:
    command = [str(Path(sys.executable).parent / "shortcutlab"), *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def write_spec(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def grid_results(spec: Path, run: Path, out: Path, name: str) -> None:
    shortcutlab("run", spec, "--out", run, "--jobs", "2")
    (out / f"{name}.results.csv").write_text(shortcutlab("results", run, "--format", "csv"))
    (out / f"{name}.results.json").write_text(shortcutlab("results", run, "--format", "json"))


def hashes(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != "manifest.json"
    }


def collect(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="family-numbers-"))
    train, test = GOEMOTIONS / "train.csv", GOEMOTIONS / "test.csv"
    built: dict[str, dict[str, str]] = {}

    maze = write_spec(
        work / "maze.yaml",
        f"name: maze-goemotions\n"
        f"data: {{name: goemotions, train: {train}, test: {test}}}\n"
        "shortcuts: [single-term, synonym, category]\nstrengths: [1.0, 0.8]\n"
        "models: [{name: tfidf-logreg}]\nmitigations: [erm, reweight]\n"
        "seeds: [0, 1]\nvary: data\nbootstrap: 300\nval_size: 100\n",
    )
    grid_results(maze, work / "maze-run", out, "maze-grid")
    shortcutlab(
        *BUILD["maze"],
        "--train",
        train,
        "--test",
        test,
        "--shortcut",
        "single-term",
        "--strength",
        "0.8",
        "--val-size",
        "100",
        "--seed",
        "0",
        "--out",
        work / "maze-st",
    )
    built["maze-build"] = hashes(work / "maze-st")
    shortcutlab(
        "evaluate",
        work / "maze-st",
        "--seeds",
        "2",
        "--vary",
        "data",
        "--bootstrap",
        "300",
        "--out",
        work / "maze-eval",
    )
    (out / "maze-evaluate.results.csv").write_text((work / "maze-eval/results.csv").read_text())

    mps = write_spec(
        work / "mps.yaml",
        f"family: mps\nname: mps-rt\ndata: {{name: rt, train: {ROTTEN}}}\n"
        "attributes: [negation, question]\nmps: {test_size: 1000}\n"
        "models: [{name: tfidf-svm}]\nmitigations: [erm, reweight]\nseeds: [0, 1]\nvary: data\n",
    )
    grid_results(mps, work / "mps-run", out, "mps-grid")
    shortcutlab(
        *BUILD["mps"], "--train", ROTTEN, "--attribute", "negation", "--out", work / "mps-nbs"
    )
    built["mps-build"] = hashes(work / "mps-nbs")

    frame = pd.read_csv(MNLI, sep="\t").rename(
        columns={"premise": "text", "hypothesis": "text_pair"}
    )
    mnli_train, mnli_test = split_by_premise(frame, 7000, 0)
    mnli_train.to_csv(work / "mnli-train.csv", index=False)
    mnli_test.to_csv(work / "mnli-test.csv", index=False)
    cat = write_spec(
        work / "cat.yaml",
        f"family: cat\ndata: {{name: mnli, train: {work / 'mnli-train.csv'}, "
        f"test: {work / 'mnli-test.csv'}, text: text, text_pair: text_pair}}\n"
        "models: [{name: tfidf-logreg}]\nseeds: [0, 1]\n"
        "cat: {k: 5, default_label: nli3, augment: [false, true]}\n",
    )
    grid_results(cat, work / "cat-run", out, "cat-grid")
    shortcutlab(
        "cat",
        "--train",
        work / "mnli-train.csv",
        "--test",
        work / "mnli-test.csv",
        "--text-pair-col",
        "text_pair",
        "--k",
        "5",
        "--out",
        work / "cat-one",
    )
    (out / "cat.results.json").write_text((work / "cat-one/results.json").read_text())

    shortcutlab(
        *BUILD["suite"],
        "--train",
        work / "mnli-test.csv",
        "--text-pair-col",
        "text_pair",
        "--sets",
        "standard,negation,position,lexical-overlap",
        "--size",
        "600",
        "--out",
        work / "suite",
    )
    built["suite-build"] = hashes(work / "suite")
    shortcutlab(
        "suite",
        "evaluate",
        work / "suite",
        "--model",
        "tfidf-logreg",
        "--train",
        work / "mnli-train.csv",
        "--text-pair-col",
        "text_pair",
        "--out",
        work / "suite-eval",
    )
    (out / "suite.results.json").write_text((work / "suite-eval/results.json").read_text())

    (out / "audit.json").write_text(
        shortcutlab("audit", train, "--test", test, "--model", "tfidf-logreg", "--format", "json")
    )
    (out / "builds.json").write_text(json.dumps(built, indent=1, sort_keys=True))
    print(f"wrote {len(list(out.iterdir()))} files to {out} (work folder {work})")


def _same(a: object, b: object, where: str, diffs: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if any(v in str(key).lower() for v in VOLATILE):
                continue
            if key not in a or key not in b:
                diffs.append(f"{where}.{key}: only in {'after' if key in b else 'before'}")
                continue
            _same(a[key], b[key], f"{where}.{key}", diffs)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]", diffs)
    elif isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return
    elif a != b:
        diffs.append(f"{where}: {str(a)[:80]} != {str(b)[:80]}")


def compare(before: Path, after: Path) -> int:
    diffs: list[str] = []
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    for name in names:
        if not (before / name).exists() or not (after / name).exists():
            diffs.append(f"{name}: only in {'after' if (after / name).exists() else 'before'}")
            continue
        if name.endswith(".csv"):
            a, b = (pd.read_csv(folder / name) for folder in (before, after))
            keep = [c for c in a.columns if not any(v in c.lower() for v in VOLATILE)]
            if list(a.columns) != list(b.columns):
                diffs.append(f"{name}: columns differ: {sorted(set(a.columns) ^ set(b.columns))}")
            elif not a[keep].equals(b[keep]):
                diffs.append(f"{name}: values differ")
        else:
            a, b = (json.loads((folder / name).read_text()) for folder in (before, after))
            _same(a, b, name, diffs)
    print("\n".join(diffs) if diffs else f"identical: {len(names)} files, every figure the same")
    return 1 if diffs else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument(
        "--old-build", action="store_true", help="`build --family X` (before issue 20)"
    )
    args = parser.parse_args()
    if args.old_build:
        BUILD.update({family: ["build", "--family", family] for family in BUILD})
    if args.compare:
        raise SystemExit(compare(*args.compare))
    if args.out is None:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    collect(args.out)


if __name__ == "__main__":
    main()
