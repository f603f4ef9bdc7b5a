"""The audit on real MultiNLI (dev-matched): the two known artefacts (Gururangan et al., 2018).

1. Negation words in the hypothesis ("not", "no", "never", "nothing") are contradiction cues: each
   `text_pair: WORD` token's rank, label, lift and Benjamini–Hochberg-adjusted p in the scan.
2. A hypothesis-only classifier beats the majority label: the partial-input rows (`text alone`,
   `text_pair alone`; grouped 5-fold cross-validation, one-sided exact McNemar against the majority).

Run through the Python API (`load_inputs`, `run_audit`) with the CLI's defaults.

    python bench/audit_mnli.py [--data ../shared/data/mnli-dev-matched/dev_matched.tsv]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from shared_data import shared_file

from shortcutlab.data.options import ReadingOptions
from shortcutlab.families.audit.run import load_inputs, run_audit

NEGATIONS = ("not", "no", "never", "nothing")
LABELS = ("entailment", "neutral", "contradiction")
DEFAULT_DATA = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"MultiNLI skipped: {args.data} does not exist")
        return
    started = time.perf_counter()
    train, _ = load_inputs(
        args.data,
        role="train",
        given_labels=LABELS,
        reading=ReadingOptions(text_col="premise", text_pair_col="hypothesis"),
    )
    table = run_audit(train).table
    seconds = time.perf_counter() - started
    ranked = table[table["rank"].notna()]
    print(
        f"MultiNLI dev-matched: {len(train):,} pairs, {len(ranked):,} candidates tested, "
        f"{int(ranked['significant'].fillna(False).astype(bool).sum()):,} significant; {seconds:.1f} s"
    )
    print(
        f"\n{'candidate':<22} {'rank':>5} {'label':<14} {'support':>7} {'p(l|c)':>7} "
        f"{'prior':>6} {'lift':>5} {'p_adjusted':>10} significant"
    )
    for word in NEGATIONS:
        row = ranked[(ranked["kind"] == "token") & (ranked["candidate"] == f"text_pair: {word}")]
        if row.empty:
            print(f"{'text_pair: ' + word:<22} not tested (fewer rows than min_support)")
            continue
        r = row.iloc[0]
        print(
            f"{r['candidate']:<22} {int(r['rank']):>5} {r['label']:<14} {int(r['support']):>7} "
            f"{r['p_label_given_candidate']:>7.3f} {r['prior']:>6.3f} {r['lift']:>5.2f} "
            f"{r['p_adjusted']:>10.1e} {bool(r['significant'])}"
        )
    print("\npartial-input baselines (rank, adjusted p, significant: detail)")
    for r in ranked[ranked["kind"] == "partial-input"].itertuples():
        print(
            f"{r.candidate}: #{int(r.rank)}, p_adj {r.p_adjusted:.1e}, {bool(r.significant)}: {r.detail}"
        )


if __name__ == "__main__":
    main()
