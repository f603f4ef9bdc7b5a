"""Wall time and peak memory of the whole 'shortcutlab audit' process against a plain
CountVectorizer + chi-square script (bench/audit_baseline.py) on the same table, and whether each
finds the planted cue.

Data: the GoEmotions texts of the Shortcut Maze release (``goemotions-maze/train.csv``, 1,724
rows, labels 0-3) resampled with replacement to each size, and a cue planted by label: "Honestly, "
starts a row (two comments joined) of label ``--cue-label`` with probability ``--cue-rate`` and any other row with
``--background-rate`` (the Maze's single-term cue, with a weaker schedule). Without that folder a
synthetic table (Zipf-distributed words, uniform labels) takes the texts' place.

Each tool runs as its own process in interleaved pairs (bench/paired.py, which reads each
process's own peak resident memory). The audit also fits n-grams, attributes, surface properties and lexicons and writes
its files; the baseline tests tokens only.

    python bench/audit_speed.py [--sizes 100000 1000000] [--pairs 3] [--min-support 20]
        [--audit-args "--ngram-max 1"] [--before /path/to/older/checkout/src] [--save]
    python bench/audit_speed.py --sizes 10000000 --alone

``--before SRC`` also times the audit of another source tree (``PYTHONPATH=SRC``, e.g. the code
before a change), in the same interleaved rounds, so before and after are measured together.
``--alone`` runs the full audit by itself (``--pairs`` times): for sizes the plain script cannot
hold in memory. A table above a million rows is written a million rows at a time (the first
million are the 1,000,000-row table), so the bench never holds it whole either; the time the
writing took is printed.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import paired
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
#: Rows synthesised at once: a larger table is written in pieces of this many.
PIECE_ROWS = 1_000_000


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


def write_rows(path: Path, rows: int, *, texts: pd.DataFrame | None, cue_label: int = 1) -> float:
    """Write ``rows`` rows of :func:`synthesize` to ``path`` (CSV), :data:`PIECE_ROWS` at a time:
    piece ``k`` is drawn with seed ``k`` (so up to a million rows it is ``synthesize(rows)``), its
    row ids following the previous piece's. Returns the seconds it took."""
    started = time.perf_counter()
    for index, first in enumerate(range(0, rows, PIECE_ROWS)):
        size = min(PIECE_ROWS, rows - first)
        piece = synthesize(size, texts=texts, cue_label=cue_label, seed=index)
        piece["row_id"] += first
        piece.to_csv(path, mode="a" if index else "w", header=not index, index=False)
    return time.perf_counter() - started


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
    found = pd.read_csv(table, dtype={"label": str}, low_memory=False)
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
    parser.add_argument("--min-support", type=int, default=20)
    parser.add_argument("--cue-label", type=int, default=1)
    parser.add_argument("--audit-args", default="", help="extra 'shortcutlab audit' options")
    parser.add_argument(
        "--alone",
        action="store_true",
        help="time the full audit by itself, --pairs runs (sizes the plain script cannot hold)",
    )
    parser.add_argument(
        "--before",
        type=paired.source_tree,
        help="another source tree (its src folder, or a git revision) to time alongside",
    )
    paired.add_options(parser)
    args = parser.parse_args()
    texts = pd.read_csv(args.data) if args.data.is_file() else None
    source = f"{args.data} resampled" if texts is not None else "synthetic (no GoEmotions file)"
    print(f"data: {source}; cue 'Honestly, ' on label {args.cue_label}; seed 0")
    results = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for size in args.sizes:
            data = folder / f"rows-{size}.csv"
            seconds = write_rows(data, size, texts=texts, cue_label=args.cue_label)
            mib = data.stat().st_size / 2**20
            print(f"{size:,} rows written in {seconds:.0f} s ({mib:,.0f} MiB)", flush=True)
            if args.alone:
                audit_alone(size, data, folder, args)
            else:
                results += compare_at(size, data, folder, args)
    if args.save and not args.alone:
        paired.write_results("audit_speed", results)


def compare_at(size: int, data: Path, folder: Path, args: argparse.Namespace) -> list:
    """The full audit and its token scan, each next to the plain script (and the audit of
    ``--before``) in interleaved rounds; the planted cue's rank in each one's output."""
    table = folder / "baseline.csv"
    plain = paired.Side(
        PLAIN,
        lambda: [
            sys.executable,
            str(BASELINE),
            str(data),
            str(table),
            "--min-support",
            str(args.min_support),
        ],  # fmt: skip
        prepare=lambda: table.unlink(missing_ok=True),
    )

    def out_of(label: str) -> Path:
        return folder / "out" / label.replace(" ", "_")

    def audit(label: str, extra: list[str], source: str | None) -> paired.Side:
        out = out_of(label)
        return paired.Side(
            label,
            lambda: audit_command(data, out, args.min_support, extra),
            env=None if source is None else {"PYTHONPATH": source},
            prepare=lambda: shutil.rmtree(out, ignore_errors=True),
        )

    results = []
    for label, extra in ((FULL, shlex.split(args.audit_args)), (TOKENS, TOKENS_ONLY)):
        tool = audit(label, extra, None)
        others = [plain] + (
            [audit(f"{label}, {paired.tree_name(args.before)}", extra, args.before)]
            if args.before
            else []
        )
        results += paired.compare_all(f"{label}, {size:,} rows", tool, others, pairs=args.pairs)
        ranks = [cue_rank_in_audit(out_of(label), args.cue_label)]
        ranks.append(cue_rank_in_baseline(table, args.cue_label))
        print(f"  cue rank: {label} {ranks[0]}, {PLAIN} {ranks[1]}")
    return results


def audit_alone(size: int, data: Path, folder: Path, args: argparse.Namespace) -> None:
    """The full audit by itself, ``--pairs`` runs: median wall and CPU seconds, peak RSS."""
    out = folder / "out" / "alone"
    extra = shlex.split(args.audit_args)
    side = paired.Side(
        FULL,
        lambda: audit_command(data, out, args.min_support, extra),
        prepare=lambda: shutil.rmtree(out, ignore_errors=True),
    )
    load = paired.load_now()
    runs = [paired.run_process(side) for _ in range(args.pairs)]
    wall, peak, cpu = (statistics.median(values) for values in zip(*runs, strict=True))
    print(
        f"{FULL}, {size:,} rows, alone: {wall:.1f} s, CPU {cpu:.1f} s, peak RSS {peak:,.0f} MiB "
        f"(highest {max(run[1] for run in runs):,.0f}); median of {len(runs)} runs, load "
        f"{load:.1f}-{paired.load_now():.1f}; cue rank {cue_rank_in_audit(out, args.cue_label)}",
        flush=True,
    )


if __name__ == "__main__":
    main()
