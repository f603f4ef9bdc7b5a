"""Whole-process `shortcutlab build` next to the plain script a user would write instead.

Both run as subprocesses in the same run (start-up, reading, hashing and writing included), on the
same CSV: the shared GoEmotions release's train.csv repeated to 200,000 and 1,000,000 rows (or the
generated review corpus when the release is absent), with its test.csv. For each occurrence
shortcut (single-term, synonym, category) it prints the median wall seconds of both over
``--repeat`` interleaved pairs (the order within a pair alternates, after one untimed run of
each to warm the disk cache and Python's bytecode cache), their ratio, each one's peak RSS and
that over the input file's size, and the load average before and after. On the generated corpus
(which has the distractor columns the concept shortcuts need) it prints concept and style builds
next to single-term; the style build reads its rewrites from files made beforehand (the paper's
release format), so it times the build, not the rewriting (``--no-families`` skips this part).

    python bench/build_throughput.py [--rows 200000 1000000] [--data PATH/goemotions-maze]
        [--repeat 3] [--no-families]
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
from collections.abc import Callable
from pathlib import Path

import pandas as pd

# The plain script: pandas in and out, one regex and one random draw per row.
PLAIN = r"""
import random, re, sys
import pandas as pd

train_path, test_path, out, shortcut = sys.argv[1:5]
strength, test_strength = 0.8, 1.0
rng = random.Random(0)
phrases = {"single-term": ["honestly"], "synonym": [
    "honestly", "to be honest", "frankly speaking", "to tell the truth", "to be frank", "in truth",
    "candidly", "speaking candidly", "plainly speaking", "to be direct", "to come clean",
    "to put it frankly", "if I'm being honest", "in plain terms", "directly speaking"]}.get(shortcut)
if phrases:
    remove = re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, phrases)) + r")\b,?\s*")
else:
    remove = re.compile(r"I wrote this review in [^.!?\n]{1,80}?\.\s*")
countries = ["France", "Japan", "Brazil", "Kenya", "Norway"]
cities = ["Paris", "Osaka", "Lyon", "Austin", "Leeds"]
sentence = re.compile(r"(?<=[.!?])\s+")

def inject(text, p):
    text = remove.sub("", text)
    cue = rng.random() < p
    if phrases:
        if cue:
            parts = sentence.split(text)
            i = rng.randrange(len(parts))
            phrase = rng.choice(phrases)
            parts[i] = phrase[0].upper() + phrase[1:] + ", " + parts[i]
            text = " ".join(parts)
        return text
    place = rng.choice(countries) if cue else rng.choice(cities)
    return f"I wrote this review in {place}. {text}"

jobs = (("train", train_path, strength, False), ("test", test_path, test_strength, False),
        ("anti_test", test_path, test_strength, True))
for name, path, lam, anti in jobs:
    frame = pd.read_csv(path)
    k = frame["label"].nunique()
    probabilities = [lam * i / (k - 1) + (1 - lam) * 0.5 for i in range(k)]
    if anti:
        probabilities = probabilities[::-1]
    rank = {v: i for i, v in enumerate(sorted(frame["label"].unique()))}
    frame["text"] = [inject(t, probabilities[rank[l]]) for t, l in zip(frame["text"], frame["label"])]
    frame.to_csv(f"{out}/{name}.csv", index=False)
"""


#: The children write and use bytecode caches, as an installed package does.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one subprocess."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def medians(commands: list[Callable[[], list[str]]], repeat: int) -> list[tuple[float, float]]:
    """Median wall time and peak RSS of each command over ``repeat`` rounds, after one untimed
    run of each; the commands take turns within a round, in reversed order every other round,
    so a slow spell of the machine hits them alike."""
    for command in commands:
        run(command())
    times: list[list[float]] = [[] for _ in commands]
    peaks: list[list[float]] = [[] for _ in commands]
    for round_ in range(repeat):
        order = list(enumerate(commands))
        for i, command in order[::-1] if round_ % 2 else order:
            wall, rss = run(command())
            times[i].append(wall)
            peaks[i].append(rss)
    return [(statistics.median(t), max(p)) for t, p in zip(times, peaks, strict=True)]


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def shortcutlab(*args: str) -> list[str]:
    return [sys.executable, "-m", "shortcutlab", "build", "maze", *args]


def repeated(source: Path, rows: int, target: Path) -> Path:
    frame = pd.read_csv(source)
    copies = -(-rows // len(frame))
    pd.concat([frame] * copies, ignore_index=True).iloc[:rows].to_csv(target, index=False)
    return target


def occurrence(
    workdir: Path, train: Path, test: Path, rows: int, repeat: int, before: Path | None = None
) -> None:
    """The occurrence shortcuts' table; ``before``: another checkout's ``src`` folder, whose
    build runs in the same rounds (its seconds and the ratio to this one's are added)."""
    plain = workdir / "plain.py"
    plain.write_text(PLAIN, encoding="utf-8")
    size = train.stat().st_size / 2**20
    print(
        f"\n{rows:,} training rows ({size:.0f} MiB CSV), test {test.name}; median of {repeat} "
        f"interleaved pairs; {load()}"
    )
    print(
        f"{'shortcut':<13}{'tool s':>8}{'plain s':>9}{'plain/tool':>11}"
        f"{'tool MiB':>10}{'plain MiB':>10}{'RSS/input tool':>16}{'plain':>7}"
        + (f"{'before s':>10}{'before/tool':>12}" if before else "")
    )
    for name in ("single-term", "synonym", "category"):
        out_tool, out_plain = workdir / f"tool-{name}", workdir / f"plain-{name}"

        def tool_command(name: str = name, out: Path = out_tool) -> list[str]:
            shutil.rmtree(out, ignore_errors=True)
            return shortcutlab("--train", str(train), "--test", str(test), "--shortcut", name,
                               "--strength", "0.8", "--out", str(out))  # fmt: skip

        def plain_command(name: str = name, out: Path = out_plain) -> list[str]:
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            return [sys.executable, str(plain), str(train), str(test), str(out), name]

        def before_command(name: str = name, out: Path = out_tool) -> list[str]:
            return ["env", f"PYTHONPATH={before}", *tool_command(name, out)]

        commands = [tool_command, plain_command] + ([before_command] if before else [])
        tool, base, *old = medians(commands, repeat)
        print(
            f"{name:<13}{tool[0]:>8.2f}{base[0]:>9.2f}{base[0] / tool[0]:>10.2f}x"
            f"{tool[1]:>10.0f}{base[1]:>10.0f}{tool[1] / size:>15.2f}x{base[1] / size:>6.2f}x"
            + "".join(f"{o[0]:>10.2f}{o[0] / tool[0]:>11.2f}x" for o in old)
        )
        shutil.rmtree(out_tool)
        shutil.rmtree(out_plain)
    print(f"({load()} after)")


def families(workdir: Path, rows: int, repeat: int) -> None:
    """Concept and style builds next to single-term, on the generated corpus."""
    from shortcutlab.corpus import generate_corpus
    from shortcutlab.shortcuts.rewriters import make_rewriter

    base = generate_corpus(train_size=2000, test_size=1000, seed=0)
    copies = -(-rows // len(base["train"]))
    train = pd.concat([base["train"]] * copies, ignore_index=True).iloc[:rows]
    train.to_csv(workdir / "corpus_train.csv", index=False)
    base["test"].to_csv(workdir / "corpus_test.csv", index=False)
    rewriter = make_rewriter("rules", {})
    files = {}
    for style in ("formal", "casual"):  # rewrites made once, outside the timed build
        for role, frame in (("train", base["train"]), ("test", base["test"])):
            texts = frame["text"].tolist()
            out = rewriter.rewrite(texts, style, role=role, row_ids=range(len(texts)))
            copies_needed = len(train) if role == "train" else len(frame)
            paired = pd.DataFrame({"text": texts, "rewritten": out})
            paired = pd.concat([paired] * -(-copies_needed // len(paired)), ignore_index=True)
            path = workdir / f"{style}_{role}.csv"
            paired.iloc[:copies_needed].to_csv(path, index=False)
            files.setdefault(style, {})[role] = str(path)
    rewrites = (
        "{"
        + ", ".join(f"{s}: {{train: {p['train']}, test: {p['test']}}}" for s, p in files.items())
        + "}"
    )
    data = [
        "--train",
        str(workdir / "corpus_train.csv"),
        "--test",
        str(workdir / "corpus_test.csv"),
    ]
    print(f"\nGenerated corpus, {rows:,} training rows: other families next to single-term")
    print(f"{'shortcut':<22}{'tool s':>8}{'/ single-term':>15}{'tool MiB':>10}")
    variants = [
        ("single-term", []),
        ("concept-occurrence", []),
        ("concept-correlation", []),
        ("register", ["-o", "rewriter=file", "-o", f"rewrites={rewrites}"]),
    ]

    def command(name: str, extra: list[str]) -> Callable[[], list[str]]:
        out = workdir / f"family-{name}"

        def make() -> list[str]:
            shutil.rmtree(out, ignore_errors=True)
            return shortcutlab(*data, "--shortcut", name, "--out", str(out), *extra)

        return make

    results = medians([command(name, extra) for name, extra in variants], repeat)
    reference = results[0][0]
    for (name, extra), (wall, rss) in zip(variants, results, strict=True):
        label = name + (" (file)" if extra else "")
        print(f"{label:<22}{wall:>8.2f}{wall / reference:>14.2f}x{rss:>10.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000])
    default = Path(os.environ.get("SHORTCUTLAB_GOEMOTIONS", "../shared/data/goemotions-maze"))
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--repeat", type=int, default=3, help="runs per command (median)")
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout's src folder: its build runs in the same rounds, for a before/after",
    )
    parser.add_argument(
        "--no-families",
        dest="families",
        action="store_false",
        help="skip the concept and style builds on the generated corpus",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if (args.data / "train.csv").exists():
            source, test = args.data / "train.csv", args.data / "test.csv"
            print(f"Data: {source} repeated; test {test}")
        else:
            from shortcutlab.corpus import generate_corpus

            corpus = generate_corpus(train_size=4000, test_size=2000, seed=0)
            source, test = workdir / "train.csv", workdir / "test.csv"
            corpus["train"][["text", "label"]].to_csv(source, index=False)
            corpus["test"][["text", "label"]].to_csv(test, index=False)
            print("Data: the generated corpus (the GoEmotions release was not found)")
        for rows in args.rows:
            train = repeated(source, rows, workdir / f"train{rows}.csv")
            occurrence(workdir, train, test, rows, args.repeat, args.before)
        if args.families:
            families(workdir, min(args.rows), args.repeat)


if __name__ == "__main__":
    main()
