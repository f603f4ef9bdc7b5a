"""Throughput of the MPS attribute annotators on Rotten Tomatoes sentences (issue 8's benchmarks).

The headline, as whole processes in interleaved pairs (bench/paired.py): the negation and question
annotators on `--rows` rows (the 10,662 sentences repeated, written once, untimed, to a temporary
file) through bench/tool/annotate_rows.py, which calls the public API
(``shortcutlab.attributes.make_attribute(NAME).annotate``; no CLI command annotates and does
nothing else), next to bench/plain/annotate_regex.py, the plain pandas script a user would write:
one regex per attribute over the column. Both read the rows and write the values.

Then, in this process:
(a) the offline annotators (negation, question, frequent-words, keywords concepts) on `--rows`
    rows (the 10,662 sentences repeated);
(b) the `embedding` concept annotator on `--sample` sentences on the CPU: cold (empty embedding
    cache; the model load is timed apart) and re-run from the cache, then the share of rows kept
    and the agreement with the keywords method for several `min_margin` values (what the default
    0.02 rests on) and the value counts at the default;
(c) the `llm` concept annotator through the local test server (`--latency` seconds per answer,
    `project_backend`'s concept answers) at the client's default concurrency, cold and cached.

    python bench/annotator_throughput.py [--data ../shared/data/rotten-tomatoes/sentences.csv]
        [--rows 100000 --sample 2000 --llm-rows 1000 --latency 0.05] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import paired
import pandas as pd
from paired import Comparison, Side, compare, write_results
from shared_data import shared_file

from shortcutlab.attributes import make_attribute
from shortcutlab.serving.backends import project_backend
from shortcutlab.serving.server import ChatServer

BENCH = Path(__file__).resolve().parent
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


def paired_offline(texts: list[str], rows: int, pairs: int) -> Comparison:
    """negation + question through the API script against the plain pandas regex script."""
    many = (texts * (rows // len(texts) + 1))[:rows]
    with tempfile.TemporaryDirectory(prefix="annotator-pairs-") as work:
        data, out = Path(work) / "rows.csv", Path(work) / "out.csv"
        pd.DataFrame({"text": many}).to_csv(data, index=False)
        tool = [sys.executable, str(BENCH / "tool" / "annotate_rows.py"), str(data), str(out)]
        plain = [sys.executable, str(BENCH / "plain" / "annotate_regex.py"), str(data), str(out)]
        return compare(
            f"negation + question, {rows:,} rows",
            Side("make_attribute(...).annotate (API)", lambda: tool),
            Side("plain pandas regex", lambda: plain),
            pairs=pairs,
            note="read the rows, annotate both attributes, write the values",
        )


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
    paired.add_options(parser)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    texts = pd.read_csv(args.data)["text"].tolist()
    rng = np.random.default_rng(0)
    sample = [texts[i] for i in sorted(rng.choice(len(texts), args.sample, replace=False))]
    result = paired_offline(texts, args.rows, args.pairs)
    if args.save:
        write_results("annotator_throughput", [result])
    offline(texts, args.rows)
    with tempfile.TemporaryDirectory(prefix="annotator-bench-") as work:
        embedding(sample, Path(work) / "embeddings")
        llm(sample[: args.llm_rows], args.latency, Path(work))


if __name__ == "__main__":
    main()
