"""Build throughput per shortcut type on 100,000 generated rows, next to a plain per-row loop.

Prints rows/s for (a) one injector pass (remove pre-existing vocabulary + inject) over 100k rows,
(b) a plain Python loop doing the same removal and insertion row by row, in the same run, and
(c) a whole `build_maze_benchmark` call (100k train rows + 100k test rows, five output splits).
Single core: run with taskset/OMP_NUM_THREADS=1 if the machine is shared.

    python bench/build_throughput.py [--rows 100000]
"""

from __future__ import annotations

import argparse
import random
import re
import time

import numpy as np

from shortcutlab.corpus import generate_corpus
from shortcutlab.data import LabelSpace, load_table
from shortcutlab.shortcuts import SplitPlan, make_shortcut
from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS, load_name_list
from shortcutlab.splits import build_maze_benchmark, distractors_from_columns

SENTENCE = re.compile(r"(?<=[.!?])\s+")


def plain_loop(texts, ranks, probabilities, name, distractors, labels, seed=0):
    """The straightforward implementation: one regex and one random draw per row."""
    rng = random.Random(seed)
    appearance = distractors["appearance"].train
    by_rating: dict[int, list[str]] = {}
    for text, rating in zip(
        appearance.texts, labels.ranks(list(appearance.labels)).tolist(), strict=True
    ):
        by_rating.setdefault(rating, []).append(text)
    phrases = {"single-term": ["honestly"], "synonym": list(PAPER_SYNONYMS)}.get(name, [])
    remover = (
        re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, phrases)) + r")\b,?\s*")
        if phrases
        else None
    )
    if name == "category":
        remover = re.compile(r"I wrote this review in [^.!?\n]{1,80}?\.\s*")
    countries, cities = load_name_list("countries_train"), load_name_list("cities_train")
    out = []
    for text, rank in zip(texts, ranks, strict=True):
        if remover is not None:
            text = remover.sub("", text)
        side_a = rng.random() < probabilities[rank]
        if name in ("single-term", "synonym"):
            if side_a:
                sentences = SENTENCE.split(text)
                i = rng.randrange(len(sentences))
                phrase = rng.choice(phrases)
                sentences[i] = phrase[0].upper() + phrase[1:] + ", " + sentences[i]
                text = " ".join(sentences)
        elif name == "category":
            place = rng.choice(countries) if side_a else rng.choice(cities)
            text = f"I wrote this review in {place}. {text}"
        elif name == "concept-occurrence":
            pool = distractors["appearance" if side_a else "delivery"].train.texts
            text = pool[rng.randrange(len(pool))] + " " + text
        else:
            rating = rank if side_a else rng.randrange(len(probabilities))
            text = rng.choice(by_rating[rating]) + " " + text
        out.append(text)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    started = time.perf_counter()
    corpus = generate_corpus(train_size=args.rows, test_size=args.rows, seed=0)
    print(f"generated 2 x {args.rows:,} rows in {time.perf_counter() - started:.1f}s")
    train, test = load_table(corpus["train"], role="train"), load_table(corpus["test"], role="test")
    distractors = distractors_from_columns(train, test)
    labels = LabelSpace((1, 2, 3, 4, 5))
    ranks = labels.ranks(train.frame["label"])
    texts = train.frame["text"].tolist()
    probabilities = np.arange(5) / 4 * 0.8 + 0.1
    print(
        f"{'shortcut':<22}{'injector rows/s':>16}{'plain loop rows/s':>19}{'speed-up':>10}{'full build rows/s':>19}"
    )
    for name in ("single-term", "synonym", "category", "concept-occurrence", "concept-correlation"):
        options = {"distractors": distractors} if name.startswith("concept") else {}
        shortcut = make_shortcut(name, options)
        plan = SplitPlan(ranks=ranks, labels=labels, strength=0.8)
        t0 = time.perf_counter()
        cleaned = shortcut.clean(texts).texts
        shortcut.inject(cleaned, plan, np.random.SeedSequence(0))
        injector = time.perf_counter() - t0
        t0 = time.perf_counter()
        plain_loop(texts, ranks.tolist(), probabilities.tolist(), name, distractors, labels)
        plain = time.perf_counter() - t0
        t0 = time.perf_counter()
        build_maze_benchmark(train, test, shortcut=name, shortcut_options=options, strength=0.8)
        full = time.perf_counter() - t0
        n = len(texts)
        print(
            f"{name:<22}{n / injector:>16,.0f}{n / plain:>19,.0f}{plain / injector:>9.1f}x{2 * n / full:>19,.0f}"
        )


if __name__ == "__main__":
    main()
