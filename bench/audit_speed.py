"""Wall time and peak memory of the whole 'shortcutlab audit' process against a plain
CountVectorizer + chi-square script (bench/audit_baseline.py) on the same table, and whether each
finds the planted cue.

Data: the GoEmotions texts of the Shortcut Maze release (``goemotions-maze/train.csv``, 1,724
rows, labels 0-3) resampled with replacement to each size, and a cue planted by label: "Honestly, "
starts a row (two comments joined) of label ``--cue-label`` with probability ``--cue-rate`` and any other row with
``--background-rate`` (the Maze's single-term cue, with a weaker schedule). Without that folder a
synthetic table (Zipf-distributed words, uniform labels) takes the texts' place.

Each tool runs as its own subprocess under a small Python wrapper that reads the child's peak
resident memory (``RUSAGE_CHILDREN``: the wrapper has no other child), so a figure is that one
process's. The audit also fits n-grams, attributes, surface properties and lexicons and writes
its files; the baseline tests tokens only.

    python bench/audit_speed.py [--sizes 100000 1000000] [--repeats 3] [--min-support 20]
        [--audit-args "--ngram-max 1"] [--before /path/to/older/checkout/src]

``--before SRC`` also times the audit of another source tree (``PYTHONPATH=SRC``, e.g. the code
before a change), in the same interleaved rounds, so before and after are measured together.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from shared_data import shared_file

DEFAULT_DATA = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "train.csv")
BASELINE = Path(__file__).resolve().parent / "audit_baseline.py"
CUE = "honestly"
FULL, TOKENS, PLAIN = "shortcutlab audit", "shortcutlab audit, tokens", "CountVectorizer + scipy G"
# The audit's token scan alone: the same tests as the baseline (words, one G-test each, BH), plus
# what the command always does (reading and hashing the input, the within-train duplicate search,
# writing audit.json and audit.csv).
TOKENS_ONLY = ["--ngram-max", "1", "--no-attributes", "--no-packaged-lexicons", "--no-surface"]
# Runs argv[2:] and writes its wall seconds, exit code and peak RSS (kB on Linux) to argv[1].
MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
error = done.stderr.strip().splitlines()[-1:] if done.returncode else []
json.dump({"seconds": seconds, "rc": done.returncode, "peak_kb": peak, "error": error},
          open(sys.argv[1], "w"))
"""


def synthesize(
    rows: int,
    *,
    texts: pd.DataFrame | None,
    cue_label: int = 1,
    cue_rate: float = 0.3,
    background_rate: float = 0.05,
    seed: int = 0,
) -> pd.DataFrame:
    """``rows`` rows (row_id, text, label): two comments of ``texts`` (columns text, label) drawn
    with replacement and joined, with the first one's label (so nearly every row is a distinct
    text, as in a real data set of this size: per-text work such as readability and duplicate
    search is not flattered), or synthetic rows when it is None; the cue planted by label."""
    rng = np.random.default_rng(seed)
    if texts is None:
        text, label = _synthetic(rows, rng)
    else:
        drawn = rng.integers(len(texts), size=rows)
        second = rng.integers(len(texts), size=rows)
        comments = texts["text"].astype(str).to_numpy().astype(object)
        text = comments[drawn] + " " + comments[second]
        label = texts["label"].to_numpy()[drawn]
    rate = np.where(label == cue_label, cue_rate, background_rate)
    planted = rng.random(rows) < rate
    text = np.where(planted, "Honestly, " + text.astype(object), text)
    return pd.DataFrame({"row_id": np.arange(rows), "text": text, "label": label})


def _synthetic(rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    vocabulary = np.array([f"w{i}" for i in range(3000)], dtype=object)
    weights = 1.0 / np.arange(1, len(vocabulary) + 1)  # Zipf's law, exponent 1
    lengths = rng.integers(4, 31, size=rows)
    words = vocabulary[
        rng.choice(len(vocabulary), size=int(lengths.sum()), p=weights / weights.sum())
    ]
    ends = np.cumsum(lengths)
    text = np.array(
        [" ".join(words[end - n : end]) for end, n in zip(ends, lengths, strict=True)], dtype=object
    )
    return text, rng.integers(4, size=rows)


def measured(command: list[str], folder: Path, source: str | None = None) -> dict[str, Any]:
    """Wall seconds, exit code, peak RSS (MB) and the last error line of ``command`` (with
    ``source`` first on PYTHONPATH when given)."""
    report = folder / "measure.json"
    env = None if source is None else os.environ | {"PYTHONPATH": source}
    subprocess.run([sys.executable, "-c", MEASURE, str(report), *command], check=True, env=env)
    result = json.loads(report.read_text())
    return result | {"peak_mb": result["peak_kb"] / 1024}


def audit_command(data: Path, out: Path, min_support: int, extra: list[str]) -> list[str]:
    """The planned CLI (design doc, issue 12): train only, csv summary."""
    return [
        sys.executable, "-m", "shortcutlab", "audit", str(data), "--text-col", "text",
        "--label-col", "label", "--min-support", str(min_support), "--seed", "0",
        "--out", str(out), "--overwrite", "--format", "csv", *extra,
    ]  # fmt: skip


def cue_rank_in_audit(out: Path, cue_label: int) -> str:
    table = out / "audit.csv"
    if not table.is_file():
        return "—"
    found = pd.read_csv(table, dtype={"label": str})
    hit = found[(found["candidate"] == CUE) & (found["label"] == str(cue_label))]
    return str(int(hit["rank"].iloc[0])) if len(hit) else "not found"


def cue_rank_in_baseline(out: Path, cue_label: int) -> str:
    if not out.is_file():
        return "—"
    found = pd.read_csv(out, dtype={"label": str})
    hit = np.flatnonzero((found["token"] == CUE) & (found["label"] == str(cue_label)))
    return str(int(hit[0]) + 1) if len(hit) else "not found"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--min-support", type=int, default=20)
    parser.add_argument("--cue-label", type=int, default=1)
    parser.add_argument("--audit-args", default="", help="extra 'shortcutlab audit' options")
    parser.add_argument(
        "--before", default=None, help="another source tree (its src folder) to time alongside"
    )
    args = parser.parse_args()
    tools = [(FULL, shlex.split(args.audit_args), None), (TOKENS, TOKENS_ONLY, None)]
    if args.before:
        tools += [
            (f"{FULL} (before)", shlex.split(args.audit_args), args.before),
            (f"{TOKENS} (before)", TOKENS_ONLY, args.before),
        ]

    texts = pd.read_csv(args.data) if args.data.is_file() else None
    source = f"{args.data} resampled" if texts is not None else "synthetic (no GoEmotions file)"
    print(f"data: {source}; cue 'Honestly, ' on label {args.cue_label}; seed 0")
    print(f"{'rows':>9}  {'tool':<35} {'wall s':>8} {'peak MB':>8}  cue rank")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for size in args.sizes:
            data = folder / f"rows-{size}.csv"
            synthesize(size, texts=texts, cue_label=args.cue_label).to_csv(data, index=False)
            runs: dict[str, list[dict[str, Any]]] = {}
            for _ in range(args.repeats):  # alternate, so drift in machine load hits all three
                for tool, extra, source in tools:
                    out = folder / "audit-out"
                    command = audit_command(data, out, args.min_support, extra)
                    result = measured(command, folder, source)
                    _print(size, tool, result, cue_rank_in_audit(out, args.cue_label))
                    runs.setdefault(tool, []).append(result)
                table = folder / "baseline.csv"
                command = [sys.executable, str(BASELINE), str(data), str(table)]
                result = measured([*command, "--min-support", str(args.min_support)], folder)
                rank = cue_rank_in_baseline(table, args.cue_label)
                _print(size, PLAIN, result, rank)
                runs.setdefault(PLAIN, []).append(result)
                table.unlink(missing_ok=True)
            _print_medians(size, runs)


def _print_medians(size: int, runs: dict[str, list[dict[str, Any]]]) -> None:
    """Per tool, the median wall time and peak RSS over the interleaved runs, and both as a
    ratio to the plain script's medians (a ratio of 1.5 = 1.5 times the plain script's)."""
    if any(result["rc"] != 0 for results in runs.values() for result in results):
        print(f"{size:>9}  medians: not computed (a run failed)")
        return
    medians = {
        tool: (
            float(np.median([r["seconds"] for r in results])),
            float(np.median([r["peak_mb"] for r in results])),
        )
        for tool, results in runs.items()
    }
    plain_seconds, plain_mb = medians[PLAIN]
    repeats = len(runs[PLAIN])
    print(f"medians of {repeats} interleaved runs, {size} rows:")
    print(f"{'tool':<35} {'wall s':>8} {'peak MB':>8} {'time ×plain':>12} {'memory ×plain':>14}")
    for tool, (seconds, mb) in medians.items():
        print(
            f"{tool:<35} {seconds:>8.1f} {mb:>8.0f} "
            f"{seconds / plain_seconds:>12.2f} {mb / plain_mb:>14.2f}"
        )


def _print(size: int, tool: str, result: dict[str, Any], rank: str) -> None:
    if result["rc"] != 0:
        print(f"{size:>9}  {tool:<35} {'—':>8} {'—':>8}  failed: {' '.join(result['error'])}")
        return
    print(f"{size:>9}  {tool:<35} {result['seconds']:>8.1f} {result['peak_mb']:>8.0f}  {rank}")


if __name__ == "__main__":
    main()
