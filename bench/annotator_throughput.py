"""Throughput of the MPS attribute annotators on Rotten Tomatoes sentences (issue 8's benchmarks).

(a) the offline annotators (negation, question, frequent-words, keywords concepts) on `--rows`
    rows (the 10,662 sentences repeated);
(b) the `embedding` concept annotator on `--sample` sentences on the CPU: cold (empty embedding
    cache; the model load is timed apart) and re-run from the cache, then the share of rows kept
    and the agreement with the keywords method for several `min_margin` values (what the default
    0.02 rests on) and the value counts at the default;
(c) the `llm` concept annotator through the local test server (`--latency` seconds per answer,
    `project_backend`'s concept answers) at the client's default concurrency, cold and cached.

    python bench/annotator_throughput.py [--data ../shared/data/rotten-tomatoes/sentences.csv]
        [--rows 100000 --sample 2000 --llm-rows 1000 --latency 0.05]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from shared_data import shared_file

from shortcutlab.attributes import make_attribute
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer

DEFAULT_DATA = shared_file("SHORTCUTLAB_ROTTEN_TOMATOES", "rotten-tomatoes", "sentences.csv")
LEVELS = {
    "sentence-concept": "rotten-tomatoes-sentence",
    "core-word-concept": "rotten-tomatoes-core-word",
}
MARGINS = (0.0, 0.01, 0.02, 0.03, 0.05, 0.08)


def timed(function: Any, *args: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - started, result


def offline(texts: list[str], rows: int) -> None:
    many = (texts * (rows // len(texts) + 1))[:rows]
    print(f"(a) offline annotators on {rows:,} rows (seconds, annotate only)")
    attributes = {
        "negation": make_attribute("negation"),
        "question": make_attribute("question"),
        "frequent-words": make_attribute("frequent-words").fitted(many),
        **{
            f"{name} (keywords)": make_attribute(name, {"categories": c, "method": "keywords"})
            for name, c in LEVELS.items()
        },
    }
    for label, attribute in attributes.items():
        seconds, _ = timed(attribute.annotate, many)
        print(f"    {label:<30}{seconds:8.2f} s  ({rows / seconds:,.0f} rows/s)")


def embedding(texts: list[str], cache: Path) -> None:
    print(f"(b) embedding annotator, {len(texts)} sentences, CPU, empty cache in {cache}")

    def make(name: str, margin: float | None = None) -> Any:
        options = {"categories": LEVELS[name], "method": "embedding", "device": "cpu"}
        options |= {"cache_dir": str(cache)} | ({} if margin is None else {"min_margin": margin})
        return make_attribute(name, options)

    load, _ = timed(make("sentence-concept").annotate, ["warm-up"])
    print(f"    model load, 10 categories and 1 text: {load:.1f} s")
    cold, first = timed(make("sentence-concept").annotate, texts)
    print(
        f"    cold:   {cold:6.1f} s  ({len(texts) / cold:,.0f} rows/s, a model load included; "
        f"{first.details['encoded']} encoded)"
    )
    warm, again = timed(make("sentence-concept").annotate, texts)
    print(
        f"    cached: {warm:6.2f} s  ({len(texts) / warm:,.0f} rows/s; {again.details['encoded']} encoded)"
    )
    for name in LEVELS:
        words = make_attribute(name, {"categories": LEVELS[name], "method": "keywords"})
        reference = words.annotate(texts).values
        labelled = np.array([v is not None for v in reference])
        print(f"    {name}: min_margin, rows kept, agreement with keywords on the rows both label")
        for margin in MARGINS:
            values = make(name, margin).annotate(texts).values
            kept = np.array([v is not None for v in values])
            both = kept & labelled
            agree = (values[both] == reference[both]).mean() if both.any() else float("nan")
            print(f"      {margin:5.2f}  {kept.mean():5.1%}  {agree:5.1%} of {both.sum()}")
        counts = make(name).annotate(texts).counts()
        print(f"      counts at the default: {counts}")


def llm(texts: list[str], latency: float, cache: Path) -> None:
    print(f"(c) llm annotator, {len(texts)} sentences, local server at {latency * 1000:.0f} ms")
    with ChatServer(project_backend(), latency=latency) as server:
        client = {"name": "openai-chat", "base_url": server.url, "model": server.model}
        client |= {"api_key_env": None, "cache": str(cache / "llm.sqlite")}
        for name in LEVELS:
            options = {"categories": LEVELS[name], "method": "llm", "client": client}
            cold, first = timed(make_attribute(name, options).annotate, texts)
            warm, again = timed(make_attribute(name, options).annotate, texts)
            usage = first.details["usage"]
            print(
                f"    {name}: cold {cold:.2f} s ({len(texts) / cold:,.0f} rows/s, "
                f"{usage['requests']} requests), cached {warm:.3f} s "
                f"({len(texts) / warm:,.0f} rows/s, {again.details['usage']['requests']} requests); "
                f"invalid {first.details['invalid']}; counts {first.counts()}"
            )
            if again.values.tolist() != first.values.tolist():
                print("    FAILED: the cached re-run gave other values")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--llm-rows", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    texts = pd.read_csv(args.data)["text"].tolist()
    rng = np.random.default_rng(0)
    sample = [texts[i] for i in sorted(rng.choice(len(texts), args.sample, replace=False))]
    offline(texts, args.rows)
    with tempfile.TemporaryDirectory(prefix="annotator-bench-") as work:
        embedding(sample, Path(work) / "embeddings")
        llm(sample[: args.llm_rows], args.latency, Path(work))


if __name__ == "__main__":
    main()
