"""Whole-process `shortcutlab build mps` next to the plain pandas script a user would write.

Both run as subprocesses in the same run (start-up, reading, annotating, drawing and writing
included), taking turns within each round, on the same CSV: the Rotten Tomatoes sentences repeated
to 100,000 rows, each copy's texts made distinct by a suffix (or generated rows when the data is
absent). The paper's five attributes are timed with offline annotators: negation, question,
frequent-words, and the two concept levels with the keyword method and the packaged Rotten
Tomatoes category lists. The plain script annotates with the same
rules (pandas string methods; scikit-learn's counts for frequent words; a regex count per
category for the keyword concepts), draws a label-balanced
test set, drops its texts from the pool and samples Imbalanced (dominance 0.75, the label most
frequent in each group) and Balanced sets of the same per-group sizes with groupby-and-sample.
Medians of interleaved pairs of whole processes and the peak RSS of both (bench/paired.py).

    python bench/mps_build.py [--rows 100000] [--pairs 3] [--data PATH/sentences.csv] [--save]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import paired
import pandas as pd

# The five attributes of the paper with offline annotators: (label, build options, plain mode).
# SCS and CCS use the keyword method with the packaged Rotten Tomatoes category lists.
OFFLINE = (
    ("negation", ["--attribute", "negation"], "negation"),
    ("question", ["--attribute", "question"], "question"),
    ("frequent-words", ["--attribute", "frequent-words"], "frequent-words"),
    (
        "scs-keywords",
        [
            "--attribute",
            "sentence-concept",
            "--attribute-option",
            "method=keywords",
            "--attribute-option",
            "categories=rotten-tomatoes-sentence",
        ],
        "rotten-tomatoes-sentence",
    ),  # fmt: skip
    (
        "ccs-keywords",
        [
            "--attribute",
            "core-word-concept",
            "--attribute-option",
            "method=keywords",
            "--attribute-option",
            "categories=rotten-tomatoes-core-word",
        ],
        "rotten-tomatoes-core-word",
    ),  # fmt: skip
)

PLAIN = r"""
import math, sys
import numpy as np
import pandas as pd

pool_path, out, attribute = sys.argv[1:4]
dominance = 0.75
rng = np.random.default_rng(0)
frame = pd.read_csv(pool_path)
lowered = frame["text"].str.lower().str.replace("\u2019", "'")
if attribute == "negation":
    joined = lowered.str.replace(r"\s+n't", "n't", regex=True)
    pattern = r"(?:^|[^a-z0-9'])(?:not|no|none|nobody|never|nothing|[a-z0-9]*n't)(?:$|[^a-z0-9'])"
    found = joined.str.contains(pattern, regex=True)
    frame["value"] = np.where(found, "with_negation", "without_negation")
elif attribute == "question":
    found = frame["text"].str.contains("[?\uff1f]", regex=True)
    frame["value"] = np.where(found, "with_question", "without_question")
elif attribute.startswith("rotten-tomatoes"):  # keyword concepts: most hits wins, six kept
    import re, yaml
    from importlib import resources
    listed = yaml.safe_load(
        resources.files("shortcutlab.attributes.resources").joinpath(f"{attribute}.yaml").read_text()
    )["categories"]
    names = list(listed)
    hits = np.stack([
        lowered.str.count(r"\b(?:" + "|".join(re.escape(w.lower()) for w in spec["keywords"]) + r")\b").to_numpy()
        for spec in listed.values()
    ], axis=1)
    best = np.array(names, dtype=object)[hits.argmax(axis=1)]
    frame["value"] = np.where(hits.max(axis=1) > 0, best, None)
    frame = frame[frame["value"].notna()]
    frame = frame[frame["value"].isin(frame["value"].value_counts().index[:6])]
else:  # frequent words: the six most frequent non-stop words; a row takes the first it holds
    from sklearn.feature_extraction.text import CountVectorizer
    vectorizer = CountVectorizer(stop_words="english")
    counts = vectorizer.fit_transform(frame["text"])
    top = np.asarray(counts.sum(axis=0)).ravel().argsort()[::-1][:6]
    present = counts[:, top].toarray() > 0
    words = vectorizer.get_feature_names_out()[top]
    frame["value"] = np.where(present.any(axis=1), words[present.argmax(axis=1)], None)
    frame = frame[frame["value"].notna()]
frame["key"] = lowered.loc[frame.index].str.split().str.join(" ")
k = frame["label"].nunique()

candidates = frame.drop_duplicates("key")
per_label = min(int(0.2 * len(frame) / k), candidates["label"].value_counts().min() // 2)
shares = candidates["value"].value_counts(normalize=True)
test = pd.concat(
    cell.sample(n=min(len(cell), round(per_label * shares[value])), random_state=rng)
    for (value, label), cell in candidates.groupby(["value", "label"])
)
train = frame[~frame["key"].isin(test["key"])]

counts = train.groupby(["value", "label"]).size().unstack(fill_value=0)
dominant = counts.idxmax(axis=1)
imbalanced, balanced = [], []
for value, row in counts.iterrows():
    top = dominant[value]
    others = row.drop(top).sum()
    n = min(int(row[top] / dominance), int(others / (1 - dominance)), int(row.sum()))
    n_top = math.ceil(dominance * n)
    group = train[train["value"] == value]
    imbalanced.append(group[group["label"] == top].sample(n=n_top, random_state=rng))
    share, even = (n - n_top) // (k - 1), n // k
    for label, cell in group.groupby("label"):
        if label != top:
            imbalanced.append(cell.sample(n=min(len(cell), share), random_state=rng))
        balanced.append(cell.sample(n=min(len(cell), even), random_state=rng))
for name, parts in (("imbalanced", imbalanced), ("balanced", balanced), ("test", [test])):
    split = pd.concat(parts).sort_index().drop(columns="key")
    split["group"] = split["label"].astype(str) + "|" + split["value"].astype(str)
    split.to_csv(f"{out}/{name}.csv", index=False)
"""


def pool_file(source: Path | None, rows: int, target: Path) -> str:
    """``rows`` rows of the source repeated, each copy's texts suffixed so every text is new."""
    if source is not None and source.exists():
        frame = pd.read_csv(source)
        copies = -(-rows // len(frame))
        parts = [frame.assign(text=frame["text"] + f" ( copy {i} )") for i in range(copies)]
        pd.concat(parts, ignore_index=True).iloc[:rows].to_csv(target, index=False)
        return f"{source} repeated to {rows:,} rows (a suffix per copy)"
    rng = np.random.default_rng(0)
    label = rng.integers(0, 2, rows)
    negated = rng.random(rows) < np.where(label == 0, 0.3, 0.15)
    question = rng.random(rows) < np.where(label == 0, 0.04, 0.01)
    texts = [
        f"{'this was not' if n else 'this was'} film {i} for me {'?' if q else '.'}"
        for i, (n, q) in enumerate(zip(negated, question, strict=True))
    ]
    pd.DataFrame({"text": texts, "label": label}).to_csv(target, index=False)
    return f"{rows:,} generated rows (the Rotten Tomatoes data was not found)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    paired.add_options(parser)
    default = Path(os.environ.get("SHORTCUTLAB_ROTTEN_TOMATOES", "../shared/data/rotten-tomatoes"))
    parser.add_argument("--data", type=Path, default=default / "sentences.csv")
    args = parser.parse_args()

    from shortcutlab.attributes import ATTRIBUTES

    timed = list(OFFLINE)
    covered = {options[1] for _, options, _ in OFFLINE}
    skipped = [name for name in ATTRIBUTES.names() if name not in covered]
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        pool = workdir / "pool.csv"
        described = pool_file(args.data, args.rows, pool)
        plain = workdir / "plain.py"
        plain.write_text(PLAIN, encoding="utf-8")
        size = pool.stat().st_size / 2**20
        print(f"Data: {described} ({size:.1f} MiB CSV)")
        if skipped:
            print(f"Not timed (need options or a model/server): {', '.join(skipped)}")
        results = [
            paired.compare(
                name, *sides(workdir, pool, plain, name, options, mode), pairs=args.pairs
            )
            for name, options, mode in timed
        ]
    if args.save:
        paired.write_results("mps_build", results)


def sides(
    workdir: Path, pool: Path, plain: Path, name: str, options: list[str], mode: str
) -> tuple[paired.Side, paired.Side]:
    """`shortcutlab build mps` and the plain script for one attribute, each into a fresh folder."""
    out_tool, out_plain = workdir / f"tool-{name}", workdir / f"plain-{name}"

    def fresh_plain_folder() -> None:
        shutil.rmtree(out_plain, ignore_errors=True)
        out_plain.mkdir()

    tool = paired.Side(
        "shortcutlab build mps",
        lambda: [
            sys.executable,
            "-m",
            "shortcutlab",
            "build",
            "mps",
            "--train",
            str(pool),
            *options,
            "--out",
            str(out_tool),
        ],  # fmt: skip
        prepare=lambda: shutil.rmtree(out_tool, ignore_errors=True),
    )
    plain_side = paired.Side(
        "plain pandas script",
        lambda: [sys.executable, str(plain), str(pool), str(out_plain), mode],
        prepare=fresh_plain_folder,
    )
    return tool, plain_side


if __name__ == "__main__":
    main()
