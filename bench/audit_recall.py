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

What counts as the cue (MATCH_RULES; a candidate matches when its name, or a name its `detail`
lists as having the same rows, is one of these; words as the audit's tokens read them, lower case,
clitics other than n't cut off):

- single-term: the token `term`, `frequent-words has 'term'`, or `lexicon = L` for each packaged list
  L holding the term (candour-markers for "honestly");
- synonym: a token or n-gram equal to one of `terms`, `frequent-words has '...'` a one-word term, or
  `lexicon = L` for each packaged list holding a term;
- category: `lexicon = countries` or `lexicon = cities` (the names inserted);
- concept-occurrence / concept-correlation: `sentence-concept = ` an injected aspect, or a token or
  n-gram that is one of the aspect's keywords in the reviews-aspects category list;
- tautology: a token or n-gram that occurs (as whole words) in one of the clauses ("and", "is not",
  "nothing", ...), or `negation = with_negation`.

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
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from shared_data import shared_file
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from shortcutlab.attributes.categories import load_categories
from shortcutlab.families.audit.lexicons import packaged_lexicons
from shortcutlab.families.audit.tokens import token_texts
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
CONCEPT_AUDIT = (
    "--attribute", "negation",
    "--attribute", "question",
    "--attribute", "frequent-words",
    "--attribute", "sentence-concept",
    "--attribute-option", "sentence-concept.method=keywords",
    "--attribute-option", "sentence-concept.categories=reviews-aspects",
)  # fmt: skip
TOP = 3
DEFAULT_GOEMOTIONS = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "")


def cli(*arguments: str) -> None:
    """Run ``python -m shortcutlab ARGUMENTS`` (stdout discarded); stop on a failure."""
    command = [sys.executable, "-m", "shortcutlab", *arguments]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")


def words(phrase: str) -> str:
    """A phrase as the audit's tokens read it: lower case, clitics cut, single spaces."""
    return " ".join(token_texts([phrase])[0].split())


def lexicons_holding(phrases: Sequence[str]) -> set[str]:
    wanted = {words(p) for p in phrases}
    return {
        f"lexicon = {name}"
        for name, entries in packaged_lexicons().items()
        if wanted & {words(e) for e in entries}
    }


def phrase_names(phrases: Sequence[str]) -> set[str]:
    """Token / n-gram names of the phrases, and frequent-words values of the one-word ones."""
    spaced = {words(p) for p in phrases}
    return spaced | {f"frequent-words has '{p}'" for p in spaced if " " not in p}


def _single_term(options: dict[str, Any]) -> set[str]:
    return phrase_names([options["term"]]) | lexicons_holding([options["term"]])


def _synonym(options: dict[str, Any]) -> set[str]:
    return phrase_names(options["terms"]) | lexicons_holding(options["terms"])


def _category(options: dict[str, Any]) -> set[str]:
    return {"lexicon = countries", "lexicon = cities"}


def _concept(options: dict[str, Any]) -> set[str]:
    aspects = options.get("aspects") or [options["aspect"]]
    listed = {
        c.name.lower(): c for c in load_categories("reviews-aspects", "audit_recall").categories
    }
    names = set()
    for aspect in aspects:
        category = listed[aspect.lower()]
        names.add(f"sentence-concept = {category.name}")
        names |= {words(k) for k in category.keywords}
    return names


def grams(text: str) -> set[str]:
    """The words and bigrams of a text, as the audit's tokens read them."""
    tokens = words(text).split()
    return {
        " ".join(tokens[i:j])
        for i in range(len(tokens))
        for j in (i + 1, i + 2)
        if j <= len(tokens)
    }


def _tautology(options: dict[str, Any]) -> set[str]:
    return {"negation = with_negation"}.union(*(grams(c) for c in options["tautologies"]))


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


#: Shortcut -> the candidate names that are its cue, from the build's shortcut options.
MATCH_RULES: dict[str, Callable[[dict[str, Any]], set[str]]] = {
    "single-term": _single_term,
    "synonym": _synonym,
    "category": _category,
    "concept-occurrence": _concept,
    "concept-correlation": _concept,
    "tautology": _tautology,
}


def cue_text(shortcut: str, options: dict[str, Any]) -> str:
    if shortcut == "single-term":
        return repr(options["term"])
    if shortcut == "synonym":
        return f"{len(options['terms'])} phrases ({', '.join(options['terms'][:3])}, ...)"
    if shortcut == "category":
        return f"{options['template']!r}: countries vs cities"
    if shortcut.startswith("concept"):
        return "aspects " + ", ".join(options.get("aspects") or [options["aspect"]])
    return " / ".join(options["tautologies"][:3]) + " / ..."


@dataclass
class Finding:
    """The best matching candidate of one audit (None when nothing matched) and the significant ones."""

    best: pd.Series | None
    significant: pd.DataFrame


def matching(table: pd.DataFrame, names: set[str]) -> Finding:
    def listed(row: pd.Series) -> set[str]:
        own = {str(row["candidate"])}
        detail = row["detail"]
        if isinstance(detail, str) and detail.startswith("same rows as "):
            own |= set(detail.removeprefix("same rows as ").split(", "))
        return own

    ranked = table[table["rank"].notna()]
    hits = ranked[[bool(listed(row) & names) for _, row in ranked.iterrows()]]
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


def build(source: Path, shortcut: str, strength: float, seed: int, out: Path) -> dict[str, Any]:
    cli(
        "build",
        "maze",
        "--train", str(source / "train.csv"),
        "--test", str(source / "test.csv"),
        "--shortcut", shortcut,
        "--strength", str(strength),
        "--seed", str(seed),
        "--out", str(out),
    )  # fmt: skip
    return json.loads((out / "manifest.json").read_text())["arguments"]["shortcut_options"]


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
