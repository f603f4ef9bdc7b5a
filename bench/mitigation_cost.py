"""Each mitigation's training cost relative to ``erm`` on the same backend and data.

The data: the shared GoEmotions Maze data built with the single-term cue at λ = 0.8 and 20 %
validation rows (1,379 train / 345 validation rows).

The headline, as whole processes in interleaved pairs (bench/paired.py). A mitigation has no plain
alternative of its own; the closest thing a user would run is erm, so each method of `--methods`
that tfidf-logreg supports is timed as `shortcutlab run` of a one-cell grid (build, fit, store)
next to the same grid with erm. Then `shortcutlab run` + `results` of tfidf-logreg x [erm,
reweight] (build, fits, store, paired bootstrap) next to bench/plain/reweight_sklearn.py, a plain
scikit-learn script fitting the same two models (group-balanced sample weights by hand) on a build
made once, untimed, before the pairs.

Then each method's fit in this process, per backend: sentence-encoder (its embeddings come from
the on-disk cache after the first call, as in a grid), tfidf-logreg, and a tiny BERT
(`transformer`, 2 layers, hidden 64, built here from the training texts) on CPU. For each (backend,
mitigation) the fit (context built from the benchmark, method fit, prediction of the test split) is
timed `--repeats` times, interleaved with erm, and the median is printed next to erm's median and
their ratio. A method a backend does not support is printed as `—`.

    python bench/mitigation_cost.py [--repeats 3] [--methods erm,reweight,...] [--backends ...]
        [--pairs 3] [--save]

Torch is slow with its default two OpenMP threads on a shared 2-core machine; the figures in the
docs were taken with OMP_NUM_THREADS=1 (the same for erm and every method).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import paired
from paired import Side, compare, write_results
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


SPEC = """
name: mitigation-cost
data: {{train: {train}, test: {test}}}
shortcuts: [single-term]
strengths: [0.8]
val_size: 0.2
models: [{{name: tfidf-logreg}}]
mitigations: [{mitigations}]
seeds: [0]
bootstrap: 200
"""


def run_side(scratch: Path, label: str, mitigations: str, *, results: bool = False) -> Side:
    """`shortcutlab run` of a one-model grid with these mitigations (then `results`), a fresh
    output folder each time."""
    name = mitigations.replace(", ", "-")
    spec, out = scratch / f"{name}.yaml", scratch / f"run-{name}"
    text = SPEC.format(train=TRAIN, test=TEST, mitigations=mitigations)
    spec.write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "shortcutlab", "run", str(spec), "--out", str(out)]
    if results:
        shell = " ".join(command) + f" && {sys.executable} -m shortcutlab results {out}"
        command = ["sh", "-c", shell]
    return Side(label, lambda: command, prepare=lambda: shutil.rmtree(out, ignore_errors=True))


def whole_process(args: argparse.Namespace, scratch: Path, benchmark_dir: Path) -> list:
    """Each method against erm as whole `shortcutlab run` processes, then run + results against
    the plain scikit-learn script; interleaved pairs."""
    erm = run_side(scratch, "erm", "erm")
    comparisons = []
    for method in args.methods.split(","):
        if method != "erm" and supported(method, "tfidf-logreg"):
            own = run_side(scratch, f"{method}", method)
            note = "shortcutlab run: build, one tfidf-logreg fit, store; the same grid with erm"
            step = f"run, tfidf-logreg, {method} vs erm"
            comparisons.append(compare(step, own, erm, pairs=args.pairs, note=note))
    tool = run_side(scratch, "shortcutlab run + results", "erm, reweight", results=True)
    plain = [sys.executable, str(Path(__file__).resolve().parent / "plain" / "reweight_sklearn.py")]
    alternative = Side("plain scikit-learn script", lambda: [*plain, str(benchmark_dir)])
    note = "tfidf-logreg x [erm, reweight]; the tool also builds, stores and bootstraps"
    comparisons.append(
        compare("erm + reweight grid", tool, alternative, pairs=args.pairs, note=note)
    )
    return comparisons


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
    paired.add_options(parser)
    args = parser.parse_args()
    if not TRAIN.exists():
        sys.exit(f"{TRAIN} not found; set SHORTCUTLAB_GOEMOTIONS to the goemotions-maze folder.")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        benchmark = build(scratch / "b08")
        comparisons = whole_process(args, scratch, scratch / "b08")
        if args.save:
            write_results("mitigation_cost", comparisons)
        method_costs(args, benchmark, scratch)


if __name__ == "__main__":
    main()
