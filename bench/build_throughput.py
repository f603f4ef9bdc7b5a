"""Whole-process `shortcutlab build` next to the plain script a user would write instead.

Both run as subprocesses in the same run (start-up, reading, hashing and writing included), on the
same CSV: the shared GoEmotions release's train.csv repeated to 200,000 and 1,000,000 rows (or the
generated review corpus when the release is absent), with its test.csv. For each occurrence
shortcut (single-term, synonym, category) it prints the median wall seconds of both over
``--pairs`` interleaved pairs (bench/paired.py: the order alternates, after one untimed run of
each to warm the disk cache and Python's bytecode cache), their ratio, each one's peak RSS and
that over the input file's size, and the load average before and after. On the generated corpus
(which has the distractor columns the concept shortcuts need) it prints concept and style builds
next to single-term; the style build reads its rewrites from files made beforehand (the paper's
release format), so it times the build, not the rewriting (``--no-families`` skips this part).

    python bench/build_throughput.py [--rows 200000 1000000] [--data PATH/goemotions-maze]
        [--pairs 3] [--before OTHER_CHECKOUT/src] [--no-families] [--save]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import paired
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
def shortcutlab(*args: str) -> list[str]:
    return [sys.executable, "-m", "shortcutlab", "build", "maze", *args]


def repeated(source: Path, rows: int, target: Path) -> Path:
    frame = pd.read_csv(source)
    copies = -(-rows // len(frame))
    pd.concat([frame] * copies, ignore_index=True).iloc[:rows].to_csv(target, index=False)
    return target


def occurrence(
    workdir: Path, train: Path, test: Path, rows: int, pairs: int, before: Path | None = None
) -> list[paired.Comparison]:
    """Each occurrence shortcut's build next to the plain script and, with ``before`` (another
    checkout's ``src``), next to that build, all in the same rounds (bench/paired.py)."""
    plain = workdir / "plain.py"
    plain.write_text(PLAIN, encoding="utf-8")
    size = train.stat().st_size / 2**20
    print(f"\n{rows:,} training rows ({size:.1f} MiB CSV), test {test.name}")
    results = []
    for name in ("single-term", "synonym", "category"):
        out_tool, out_plain = workdir / f"tool-{name}", workdir / f"plain-{name}"
        arguments = ["--train", str(train), "--test", str(test), "--shortcut", name,
                     "--strength", "0.8", "--out", str(out_tool)]  # fmt: skip

        def fresh_plain(out: Path = out_plain) -> None:
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()

        def clear(out: Path = out_tool) -> None:
            shutil.rmtree(out, ignore_errors=True)

        sides = [
            paired.Side("plain pandas script", lambda name=name, out=out_plain: [
                sys.executable, str(plain), str(train), str(test), str(out), name
            ], prepare=fresh_plain),
        ]  # fmt: skip
        if before:
            sides.append(paired.Side(f"shortcutlab build maze, {paired.tree_name(before)}",
                                     lambda a=arguments: shortcutlab(*a),
                                     env={"PYTHONPATH": str(before)}, prepare=clear))  # fmt: skip
        tool = paired.Side(
            "shortcutlab build maze", lambda a=arguments: shortcutlab(*a), prepare=clear
        )
        step = f"{name}, {rows:,} rows ({size:.0f} MiB)"
        compared = paired.compare_all(step, tool, sides, pairs=pairs)
        first = compared[0]
        print(
            f"  peak RSS over the input's size: tool "
            f"{statistics.median(first.tool_peak_mib) / size:.2f}x, plain script "
            f"{statistics.median(first.alternative_peak_mib) / size:.2f}x"
        )
        results += compared
        clear()
        shutil.rmtree(out_plain, ignore_errors=True)
    return results


def families(workdir: Path, rows: int, pairs: int) -> None:
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
            rewrites_frame = pd.DataFrame({"text": texts, "rewritten": out})
            rewrites_frame = pd.concat(
                [rewrites_frame] * -(-copies_needed // len(rewrites_frame)), ignore_index=True
            )
            path = workdir / f"{style}_{role}.csv"
            rewrites_frame.iloc[:copies_needed].to_csv(path, index=False)
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
    variants = [
        ("single-term", []),
        ("concept-occurrence", []),
        ("concept-correlation", []),
        ("register", ["-o", "rewriter=file", "-o", f"rewrites={rewrites}"]),
    ]

    def command(name: str, extra: list[str]) -> paired.Side:
        out = workdir / f"family-{name}"
        return paired.Side(
            name + (" (file)" if extra else ""),
            lambda: shortcutlab(*data, "--shortcut", name, "--out", str(out), *extra),
            prepare=lambda: shutil.rmtree(out, ignore_errors=True),
        )

    # single-term is the reference here: the other families are timed against it, not a script
    reference, *others = [command(name, extra) for name, extra in variants]
    paired.compare_all("families vs single-term", reference, others, pairs=pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000])
    default = Path(os.environ.get("SHORTCUTLAB_GOEMOTIONS", "../shared/data/goemotions-maze"))
    parser.add_argument("--data", type=Path, default=default)
    paired.add_options(parser)
    parser.add_argument(
        "--before",
        type=paired.source_tree,
        help="another checkout's src folder (or a git revision): its build runs in the same rounds, "
        "for a before/after",
    )
    parser.add_argument(
        "--no-families",
        dest="families",
        action="store_false",
        help="skip the concept and style builds on the generated corpus",
    )
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # both sides may use Python's bytecode cache
    results = []
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
            results += occurrence(workdir, train, test, rows, args.pairs, args.before)
        if args.families:
            families(workdir, min(args.rows), args.pairs)
    if args.save:
        paired.write_results("build_throughput", results)


if __name__ == "__main__":
    main()
