"""Recall of `shortcutlab audit` on shortcuts shortcutlab injected, and its null (issue 12's check).

For each Shortcut Maze shortcut (single-term, synonym, category, concept-occurrence,
concept-correlation, tautology) this script builds the benchmark at λ = `--strength` (default 0.6)
from the embedded corpus (`shortcutlab generate`), runs `shortcutlab audit BUILD/train.csv --out
... --format csv` as a subprocess (what a user runs), reads `audit.csv` and prints the best rank of
a candidate that is the injected cue or its attribute. The null: the same audit on data without the
injection, where no candidate matching the rule may survive correction. Two nulls are printed:

- `corpus`: the corpus's own train.csv (the cue's words as people wrote them, no insertion);
- `λ=0`: the same build at strength 0 (mix mode: the cue in half the rows of every label), the same
  texts and cue with no association to the label. Only this one holds the concept and tautology
  cues at all.

What counts as the cue: MATCH_RULES in maze_cues.py (shared with detection.py), whose docstring
lists the rules.

Recall holds when the best matching rank is ≤ 3 and that candidate is significant; the null holds
when no matching candidate is significant. Significant means the audit's default correction
(Benjamini–Hochberg, a false-discovery rate); each null also says whether the matches survive Holm
(family-wise) over the same tests, computed from audit.csv's p-values: on data with hundreds of
real associations, BH lets through a few null features at raw p ≈ 0.01 by design.

Diagnostics (printed apart, not the check): for the concept shortcuts, the best candidate that is a
word or bigram of the injected aspect's sentences (the corpus's `ASPECT_text` column) and is not
tested in the corpus null (the main texts lack it: only the injection brings it); for tautology, the
clause n-grams holding a content word (not a scikit-learn stop word: no "and", "is not", "no",
no negation attribute), which reviews do not use as sentiment cues by themselves.

GoEmotions (the Shortcut Maze's real release, `--goemotions`; skipped when absent): the same
recall for single-term, synonym, category and tautology, built from its train.csv / test.csv.

    python bench/audit_recall.py [--strength 0.6] [--seed 0] [--work DIR] [--goemotions DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from maze_cues import CONCEPT_AUDIT, MATCH_RULES, build, cli, cue_text, grams, listed_names
from shared_data import shared_file
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from shortcutlab.metrics import adjust_p

CORPUS_SHORTCUTS = (
    "single-term",
    "synonym",
    "category",
    "concept-occurrence",
    "concept-correlation",
    "tautology",
)
GOEMOTIONS_SHORTCUTS = ("single-term", "synonym", "category", "tautology")
TOP = 3
DEFAULT_GOEMOTIONS = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "")


def clause_content_grams(options: dict[str, Any]) -> set[str]:
    """Diagnostic: the clauses' n-grams that hold a word other than a stop word."""
    found = set().union(*(grams(c) for c in options["tautologies"]))
    return {g for g in found if set(g.split()) - ENGLISH_STOP_WORDS}


def aspect_sentence_grams(options: dict[str, Any], source: Path) -> set[str]:
    """Diagnostic: the words and bigrams of the injected aspects' sentences (the corpus columns)."""
    frame = pd.read_csv(source / "train.csv")
    aspects = options.get("aspects") or [options["aspect"]]
    texts = [t for a in aspects for t in frame[f"{a}_text"].dropna().astype(str)]
    return set().union(*(grams(t) for t in texts))


@dataclass
class Finding:
    """The best matching candidate of one audit (None when nothing matched) and the significant ones."""

    best: pd.Series | None
    significant: pd.DataFrame


def matching(table: pd.DataFrame, names: set[str]) -> Finding:
    ranked = table[table["rank"].notna()]
    hits = ranked[
        [bool(listed_names(r["candidate"], r["detail"]) & names) for _, r in ranked.iterrows()]
    ]
    hits = hits.sort_values("rank")
    significant = hits[hits["significant"].astype(str) == "True"]
    return Finding(hits.iloc[0] if len(hits) else None, significant)


def holm_survivors(table: pd.DataFrame, finding: Finding, alpha: float = 0.05) -> int:
    """How many of the BH-significant matches Holm also keeps, over every test of the audit."""
    tested = table[table["rank"].notna()]
    holm = pd.Series(adjust_p(tested["p_value"].to_numpy(dtype=float), "holm"), index=tested.index)
    return int((holm.loc[finding.significant.index] < alpha).sum())


def audit(train: Path, out: Path, extra: Sequence[str]) -> pd.DataFrame:
    cli("audit", str(train), "--out", str(out), "--format", "csv", *extra)
    return pd.read_csv(
        out / "audit.csv", keep_default_na=False, na_values=[""], dtype={"label": str}
    )


def describe(row: pd.Series | None) -> str:
    if row is None:
        return "none tested"
    flag = "" if str(row["significant"]) == "True" else " (not significant)"
    return (
        f"#{int(row['rank'])} {row['candidate']} → {row['label']}, lift {float(row['lift']):.2f}, "
        f"p {float(row['p_value']):.1e}, p_adj {float(row['p_adjusted']):.1e}{flag}"
    )


def null_text(table: pd.DataFrame, names: set[str]) -> str:
    finding = matching(table, names)
    if finding.significant.empty:
        return "holds (no matching candidate significant)"
    shown = "; ".join(describe(row) for _, row in finding.significant.head(3).iterrows())
    more = len(finding.significant) - 3
    return (
        f"FAILS: {len(finding.significant)} significant: {shown}"
        + (f"; +{more} more" if more > 0 else "")
        + f" [under Holm: {holm_survivors(table, finding)} of them]"
    )


def recall(
    title: str,
    source: Path,
    shortcuts: Sequence[str],
    args: argparse.Namespace,
    work: Path,
) -> None:
    print(f"\n== {title}: λ = {args.strength}, seed {args.seed}, {source}")
    nulls: dict[tuple[str, ...], pd.DataFrame] = {}
    for shortcut in shortcuts:
        extra = CONCEPT_AUDIT if shortcut.startswith("concept") else ()
        started = time.perf_counter()
        options = build(source, shortcut, args.strength, args.seed, work / f"build-{shortcut}")
        table = audit(work / f"build-{shortcut}" / "train.csv", work / f"audit-{shortcut}", extra)
        seconds = time.perf_counter() - started
        names = MATCH_RULES[shortcut](options)
        found = matching(table, names)
        if extra not in nulls:
            nulls[extra] = audit(source / "train.csv", work / f"audit-null-{len(nulls)}", extra)
        build(source, shortcut, 0.0, args.seed, work / f"build0-{shortcut}")
        flat = audit(work / f"build0-{shortcut}" / "train.csv", work / f"audit0-{shortcut}", extra)
        hit = (
            found.best is not None
            and int(found.best["rank"]) <= TOP
            and str(found.best["significant"]) == "True"
        )
        print(f"- {shortcut}: cue {cue_text(shortcut, options)}")
        print(f"    rule: {len(names)} names, e.g. {', '.join(sorted(names)[:4])}")
        print(f"    best match: {describe(found.best)}  [{'PASS' if hit else 'FAIL'} rank ≤ {TOP}]")
        top = table[table["rank"].notna()].head(TOP)
        print(
            "    top 3: " + "; ".join(f"{r['candidate']} → {r['label']}" for _, r in top.iterrows())
        )
        print(f"    null, corpus: {null_text(nulls[extra], names)}")
        print(f"    null, λ=0:    {null_text(flat, names)}")
        diagnostic(shortcut, options, source, table, nulls[extra], flat)
        print(f"    build + audit {seconds:.1f} s")


def diagnostic(
    shortcut: str,
    options: dict[str, Any],
    source: Path,
    table: pd.DataFrame,
    null: pd.DataFrame,
    flat: pd.DataFrame,
) -> None:
    """The diagnostics the docstring describes (printed apart from the check)."""
    if shortcut.startswith("concept"):
        in_main = set(null.loc[null["rank"].notna(), "candidate"])
        names = {g for g in aspect_sentence_grams(options, source) if g not in in_main}
        print(
            f"    diagnostic, aspect-sentence words absent from the main texts ({len(names)}): "
            f"best {describe(matching(table, names).best)}"
        )
    elif shortcut == "tautology":
        names = clause_content_grams(options)
        print(
            f"    diagnostic, clause n-grams with a content word ({len(names)}): "
            f"best {describe(matching(table, names).best)}"
        )
        print(f"      null, corpus: {null_text(null, names)}")
        print(f"      null, λ=0:    {null_text(flat, names)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strength", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", type=Path, default=None, help="Keep the builds and audits here.")
    parser.add_argument("--goemotions", type=Path, default=DEFAULT_GOEMOTIONS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        corpus = work / "corpus"
        cli("generate", "--out", str(corpus), "--seed", str(args.seed))
        recall(
            "embedded corpus (4,000 train rows)",
            corpus,
            CORPUS_SHORTCUTS,
            args,
            work / "corpus-runs",
        )
        if (args.goemotions / "train.csv").is_file() and (args.goemotions / "test.csv").is_file():
            recall(
                "GoEmotions (1,724 train rows)",
                args.goemotions,
                GOEMOTIONS_SHORTCUTS,
                args,
                work / "goemotions-runs",
            )
        else:
            print(f"\nGoEmotions skipped: no train.csv and test.csv in {args.goemotions}")


if __name__ == "__main__":
    main()
