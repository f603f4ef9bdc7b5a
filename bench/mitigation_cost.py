"""Each mitigation's training cost relative to ``erm`` on the same backend and data.

The data: the shared GoEmotions Maze data built with the single-term cue at λ = 0.8 and 20 %
validation rows (1,379 train / 345 validation rows). Backends: sentence-encoder (its embeddings come
from the on-disk cache after the first call, as in a grid), tfidf-logreg, and a tiny BERT
(`transformer`, 2 layers, hidden 64, built here from the training texts) on CPU. For each (backend,
mitigation) the fit (context built from the benchmark, method fit, prediction of the test split) is
timed `--repeats` times, interleaved with erm, and the median is printed next to erm's median and
their ratio. A method a backend does not support is printed as `—`.

Then what a user runs against what they would write instead, as subprocesses, median of 3
interleaved: the whole `shortcutlab run` process on a grid (tfidf-logreg × [erm, reweight], 1 seed;
build, fits, store, results) next to a plain scikit-learn script that fits the same two models
(group-balanced sample weights by hand) on the same build and prints both accuracies.

    python bench/mitigation_cost.py [--repeats 3] [--methods erm,reweight,...] [--backends ...]

Torch is slow with its default two OpenMP threads on a shared 2-core machine; the figures in the
README were taken with OMP_NUM_THREADS=1 (the same for erm and every method).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from pathlib import Path
from typing import Any

from shared_data import shared_file

from shortcutlab.data.benchmark import Benchmark
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError, ShortcutlabWarning
from shortcutlab.mitigations import make_mitigation
from shortcutlab.mitigations.context import mitigation_context

TRAIN = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "train.csv")
TEST = TRAIN.with_name("test.csv")
METHODS = "erm,reweight,downsample,groupdro,jtt,dfr,llr,afr,nfl-co,nfl-cp,a2r,cr"
BACKENDS = "tfidf-logreg,sentence-encoder,transformer"


def build(folder: Path) -> Benchmark:
    command = [
        sys.executable, "-m", "shortcutlab", "build", "maze", "--train", str(TRAIN), "--test", str(TEST),
        "--shortcut", "single-term", "--strength", "0.8", "--val-size", "0.2", "--out", str(folder),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True)
    return Benchmark.load(folder)


def backend_params(backend: str, scratch: Path, benchmark: Benchmark) -> dict[str, Any]:
    if backend != "transformer":
        return {}
    from shortcutlab.models.tiny import build_tiny_bert

    path = scratch / "tiny-bert"
    if not path.exists():
        build_tiny_bert(path, benchmark["train"]["text"].tolist(), seed=0)
    return {"path": str(path), "epochs": 2, "batch_size": 32, "max_length": 64}


def timed_fit(benchmark: Benchmark, method: str, backend: str, params: dict[str, Any]) -> float:
    started = time.perf_counter()
    mitigation = make_mitigation(method)
    context = mitigation_context(benchmark, mitigation, model=backend, params=params, seed=0)
    predictor = mitigation.fit(context)
    predictor.predict_proba(model_inputs(benchmark["test"]))
    predictor.close()
    return time.perf_counter() - started


def supported(method: str, backend: str) -> bool:
    try:
        make_mitigation(method).check_backend(backend)
    except ConfigError:
        return False
    return True


def method_costs(args: argparse.Namespace, benchmark: Benchmark, scratch: Path) -> None:
    print(f"{'backend':<17} {'method':<11} {'median s':>9} {'erm s':>7} {'× erm':>6}")
    for backend in args.backends.split(","):
        params = backend_params(backend, scratch, benchmark)
        timed_fit(benchmark, "erm", backend, params)  # warm caches (embeddings, imports)
        for method in args.methods.split(","):
            if not supported(method, backend):
                print(f"{backend:<17} {method:<11} {'—':>9} {'':>7} {'—':>6}")
                continue
            own, erm = [], []
            for _ in range(args.repeats):  # interleaved, so drift hits both alike
                own.append(timed_fit(benchmark, method, backend, params))
                erm.append(timed_fit(benchmark, "erm", backend, params))
            a, b = statistics.median(own), statistics.median(erm)
            print(f"{backend:<17} {method:<11} {a:>9.2f} {b:>7.2f} {a / b:>6.2f}")


PLAIN = textwrap.dedent(
    """
    import sys
    import numpy as np, pandas as pd
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    folder = sys.argv[1]
    read = lambda s: pd.read_csv(f"{folder}/{s}.csv", keep_default_na=False)
    train, test, anti = read("train"), read("test"), read("anti_test")
    groups = train["label"].astype(str) + "|" + train["shortcut"].astype(str)
    weights = groups.map(1 / groups.value_counts()).to_numpy()
    weights = weights / weights.mean()
    for name, w in (("erm", None), ("reweight", weights)):
        vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
        X = vectorizer.fit_transform(train["text"])
        model = LogisticRegression(C=10, max_iter=1000).fit(X, train["label"], sample_weight=w)
        for split, frame in (("test", test), ("anti", anti)):
            accuracy = (model.predict(vectorizer.transform(frame["text"])) == frame["label"]).mean()
            print(name, split, round(accuracy, 3))
    """
)

SPEC = """
name: mitigation-cost
data: {{train: {train}, test: {test}}}
shortcuts: [single-term]
strengths: [0.8]
val_size: 0.2
models: [{{name: tfidf-logreg}}]
mitigations: [erm, reweight]
seeds: [0]
bootstrap: 200
"""


def whole_process(scratch: Path, benchmark_dir: Path) -> None:
    spec = scratch / "spec.yaml"
    spec.write_text(SPEC.format(train=TRAIN, test=TEST), encoding="utf-8")
    plain = scratch / "plain.py"
    plain.write_text(PLAIN, encoding="utf-8")
    cli, script = [], []
    for repeat in range(3):
        out = scratch / f"run{repeat}"
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "shortcutlab", "run", str(spec), "--out", str(out)],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [sys.executable, "-m", "shortcutlab", "results", str(out)],
            check=True,
            capture_output=True,
        )
        cli.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, str(plain), str(benchmark_dir)], check=True, capture_output=True
        )
        script.append(time.perf_counter() - started)
    a, b = statistics.median(cli), statistics.median(script)
    print(
        f"\nshortcutlab run + results (erm, reweight): {a:.2f} s   plain sklearn script: {b:.2f} s"
        f"   ratio {a / b:.2f}"
    )


def main() -> None:
    warnings.simplefilter("ignore", ShortcutlabWarning)  # jtt's "nothing to upweight" on TF-IDF
    try:
        import transformers

        transformers.logging.set_verbosity_error()  # the tiny BERT's new-head load report
    except ImportError:
        pass
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--methods", default=METHODS)
    parser.add_argument("--backends", default=BACKENDS)
    args = parser.parse_args()
    if not TRAIN.exists():
        sys.exit(f"{TRAIN} not found; set SHORTCUTLAB_GOEMOTIONS to the goemotions-maze folder.")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        benchmark = build(scratch / "b08")
        method_costs(args, benchmark, scratch)
        whole_process(scratch, scratch / "b08")


if __name__ == "__main__":
    main()
