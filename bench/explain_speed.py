"""Seconds per row of SHAP (``shortcutlab explain``'s Partition explainer) and of exact occlusion,
for ``tfidf-logreg`` and a tiny BERT, on 100 test rows that carry the cue.

Data: the GoEmotions release's train/test built with single-term at λ = 0.8 (the issue's check),
or the generated corpus when the release is absent, built once, untimed, into a temporary folder.

The headline, as whole processes in interleaved pairs (bench/paired.py): `shortcutlab explain
BENCH --model tfidf-logreg --rows N` (fit, SHAP at full resolution, occlusion, results.json and
rows.html) next to bench/plain/shap_text.py, what a user would write with shap alone: fit a TF-IDF
logistic regression in scikit-learn, take the first N test rows containing the cue term and call
``shap.Explainer(f, shap.maskers.Text())`` at its default budget (500 model calls per row, fewer
than full resolution needs beyond ~22 tokens, so it does less work per row).

Then, in this process, for tfidf-logreg and a tiny BERT: each model is fitted once; one row is
explained first so shap's one-off numba compilation is timed apart; SHAP and occlusion seconds
per row next to the same plain shap call, medians of ``--repeats`` rounds in which the two
alternate going first.

    python bench/explain_speed.py [--rows 100] [--repeats 2] [--pairs 3] [--save]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# The table is the output: no load reports or progress bars from Hugging Face in between.
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

import paired
from paired import Comparison, Side, compare, write_results
from shared_data import shared_file

from shortcutlab import make_shortcut
from shortcutlab.corpus import generate_corpus
from shortcutlab.data.options import InputOptions
from shortcutlab.data.pairs import model_inputs
from shortcutlab.explain import TextExplainer, explain_rows, word_spans
from shortcutlab.families.maze.build import build_maze_benchmark
from shortcutlab.families.maze.cue_spans import frame_cue_spans
from shortcutlab.models import make_model
from shortcutlab.models.tiny import build_tiny_bert

BENCH = Path(__file__).resolve().parent


def benchmark(folder: Path):
    train = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "train.csv")
    test = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "test.csv")
    if train.exists() and test.exists():
        source = "GoEmotions release (train 1,724 / test 685)"
    else:
        corpus = generate_corpus(train_size=2000, test_size=700, seed=0)
        train, test = corpus["train"], corpus["test"]
        source = "generated corpus (train 2,000 / test 700)"
    bench = build_maze_benchmark(
        train,
        test,
        shortcut="single-term",
        strength=0.8,
        val_size=0.2,
        inputs=InputOptions(out=folder / "bench"),
    )
    return bench, source


class Counted:
    """predict_proba that counts the inputs it scores."""

    def __init__(self, model) -> None:
        self.model, self.inputs = model, 0

    def __call__(self, inputs):
        self.inputs += len(inputs)
        return self.model.predict_proba(inputs)


def measure(name: str, model, inputs, spans, row_ids, repeats: int) -> dict[str, float]:
    """Medians over ``repeats`` rounds; ours and plain shap alternate which goes first."""
    import shap

    counted = Counted(model)
    started = time.perf_counter()
    explain_rows(counted, inputs[:1], spans[:1], row_ids=row_ids[:1], groups=["cue"])
    first = time.perf_counter() - started
    n = len(inputs)
    ours, occlusion, plain_times = [], [], []
    plain_model = Counted(model)
    plain = shap.Explainer(lambda texts: plain_model([str(t) for t in texts]), shap.maskers.Text())

    def run_ours() -> None:
        counted.inputs = 0
        done = explain_rows(
            counted, inputs, spans, row_ids=row_ids, groups=["cue"] * n, explainer=TextExplainer()
        )
        ours.append(done.shap_seconds / n)
        occlusion.append(done.occlusion_seconds / n)

    def run_plain() -> None:
        plain_model.inputs = 0
        started = time.perf_counter()
        plain(inputs, silent=True)
        plain_times.append((time.perf_counter() - started) / n)

    for round_number in range(repeats):
        for run in (run_ours, run_plain) if round_number % 2 == 0 else (run_plain, run_ours):
            run()
    return {
        "model": name,
        "first": first,
        "shap": statistics.median(ours),
        # explain_rows scores the rows and the occluded rows once besides SHAP's calls
        "calls": (counted.inputs - 2 * n) / n,
        "occlusion": statistics.median(occlusion),
        "plain": statistics.median(plain_times),
        "plain_calls": plain_model.inputs / n,
    }


def paired_explain(bench_dir: Path, rows: int, pairs: int) -> Comparison:
    """`shortcutlab explain` against bench/plain/shap_text.py, whole processes, interleaved."""
    out = bench_dir.parent / "explained"
    tool = [sys.executable, "-m", "shortcutlab", "explain", str(bench_dir), "--model"]
    tool += ["tfidf-logreg", "--rows", str(rows), "--pictures", "0", "--out", str(out)]
    plain = [sys.executable, str(BENCH / "plain" / "shap_text.py"), str(bench_dir)]
    plain += [make_shortcut("single-term").term, str(rows)]
    return compare(
        f"explain {rows} rows, tfidf-logreg",
        Side("shortcutlab explain", lambda: tool, prepare=lambda: shutil.rmtree(out, True)),
        Side("plain shap (Text masker, default budget)", lambda: plain),
        pairs=pairs,
        note="both fit the model; the tool also occludes and writes results.json and rows.html",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=2)
    paired.add_options(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bench, source = benchmark(folder)
        result = paired_explain(folder / "bench", args.rows, args.pairs)
        if args.save:
            write_results("explain_speed", [result])
        test = bench["test"]
        spans = frame_cue_spans(test, split="test")
        carrying = np.flatnonzero([bool(s) for s in spans])[: args.rows]
        picked = test.iloc[carrying]
        inputs, row_spans = model_inputs(picked), [spans[i] for i in carrying]
        row_ids = picked["row_id"].tolist()
        tokens = statistics.mean(len(word_spans(text)) for text in inputs)
        train = bench["train"]
        labels = bench.labels.ranks(train["label"])
        k = len(bench.labels)
        linear = make_model("tfidf-logreg", {}, seed=0)
        linear.fit(model_inputs(train), labels, n_classes=k)
        bert_folder = build_tiny_bert(folder / "tiny-bert", train["text"].tolist(), vocab_size=2000)
        bert = make_model(
            "transformer",
            {"path": str(bert_folder), "epochs": 2, "batch_size": 16, "lr": 1e-3},
            seed=0,
        )
        bert.fit(model_inputs(train), labels, n_classes=k)
        figures = [
            measure("tfidf-logreg", linear, inputs, row_spans, row_ids, args.repeats),
            measure("tiny BERT (transformer)", bert, inputs, row_spans, row_ids, args.repeats),
        ]
        bert.close()
    print(
        f"{source}; single-term λ = 0.8; {len(inputs)} test rows with the cue, {tokens:.1f} tokens on average"
    )
    print(
        "| model | first row (incl. numba compile) | SHAP s/row | model inputs per row | "
        "occlusion s/row | SHAP / occlusion | plain shap (Text masker, 500 evals): s/row, "
        "inputs per row |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for f in figures:
        print(
            f"| {f['model']} | {f['first']:.2f} s | {f['shap']:.3f} | {f['calls']:.0f} | "
            f"{f['occlusion']:.5f} | {f['shap'] / f['occlusion']:.0f}× | {f['plain']:.3f}, "
            f"{f['plain_calls']:.0f} |"
        )


if __name__ == "__main__":
    main()
