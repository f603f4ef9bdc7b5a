"""Which audit candidates are the cue a Shortcut Maze build planted: shared by audit_recall.py and
detection.py.

A candidate matches when its name, or a name its `detail` lists as having the same rows, is one of
the cue's names (words as the audit's tokens read them, lower case, clitics other than n't cut off):

- single-term: the token `term`, `frequent-words has 'term'`, or `lexicon = L` for each packaged list
  L holding the term (candour-markers for "honestly");
- synonym: a token or n-gram equal to one of `terms`, `frequent-words has '...'` a one-word term, or
  `lexicon = L` for each packaged list holding a term;
- category: `lexicon = countries` or `lexicon = cities` (the names inserted);
- concept-occurrence / concept-correlation: `sentence-concept = ` an injected aspect, or a token or
  n-gram that is one of the aspect's keywords in the reviews-aspects category list;
- tautology: a token or n-gram that occurs (as whole words) in one of the clauses ("and", "is not",
  "nothing", ...), or `negation = with_negation`;
- register, author, bible (the style shortcuts, no cue words to name): an indicator the rewrite
  added, i.e. at least 90 % of the rows holding it in the build or in the original text hold it in
  the build only ("thou", "furthermore", "starts lower-case"), and that has no label association
  within its style's rows (:func:`rewrite_markers`). Left out: opinion words, which the rules
  rewriter keeps; words it takes out or only spreads ("really" under Hemingway); and added words
  that stand in for a word with a label association of its own ("do not" for "don't", "i am" for
  "I'm"), which a null build would otherwise count as flags of the style.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency

from shortcutlab.attributes.categories import load_categories
from shortcutlab.families.audit.run import load_inputs
from shortcutlab.families.audit.scan.features import FeatureConfig, fit_features
from shortcutlab.families.audit.scan.lexicons import packaged_lexicons
from shortcutlab.families.audit.scan.tokens import token_texts

OCCURRENCE_SHORTCUTS = ("single-term", "synonym", "category")
STYLE_SHORTCUTS = ("register", "author", "bible")
CONCEPT_SHORTCUTS = ("concept-occurrence", "concept-correlation")
#: The Shortcut Maze's families (section 2.2) and the Shortcut Suite's tautology, by shortcut.
FAMILIES = {
    **dict.fromkeys(OCCURRENCE_SHORTCUTS, "occurrence"),
    **dict.fromkeys(STYLE_SHORTCUTS, "style"),
    **dict.fromkeys(CONCEPT_SHORTCUTS, "concept"),
    "tautology": "tautology",
}
#: The concept shortcuts are audited with the aspect annotator too (keywords of reviews-aspects).
CONCEPT_ATTRIBUTES = ("negation", "question", "frequent-words", "sentence-concept")
CONCEPT_OPTIONS = {"sentence-concept": {"method": "keywords", "categories": "reviews-aspects"}}
CONCEPT_AUDIT = (
    *(argument for name in CONCEPT_ATTRIBUTES for argument in ("--attribute", name)),
    *(
        argument
        for name, options in CONCEPT_OPTIONS.items()
        for key, value in options.items()
        for argument in ("--attribute-option", f"{name}.{key}={value}")
    ),
)
#: A rewrite marker: at least this share of the rows holding it (either text) hold it in the build only.
MARKER_SHARE = 0.9
#: A rewrite marker's rows in its style: no label association at this chi-square p or below.
LABEL_FREE_P = 0.05


def cli(*arguments: str) -> None:
    """Run ``python -m shortcutlab ARGUMENTS`` (stdout discarded); stop on a failure."""
    command = [sys.executable, "-m", "shortcutlab", *arguments]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")


def audit_features(shortcut: str) -> FeatureConfig:
    """The audit's indicators for a build of ``shortcut`` (CONCEPT_AUDIT's, as Python)."""
    if FAMILIES.get(shortcut) == "concept":
        return FeatureConfig(attributes=CONCEPT_ATTRIBUTES, attribute_options=CONCEPT_OPTIONS)
    return FeatureConfig()


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
    listed = {c.name.lower(): c for c in load_categories("reviews-aspects", "maze_cues").categories}
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


#: Shortcut -> the candidate names that are its cue, from the build's shortcut options.
MATCH_RULES: dict[str, Callable[[dict[str, Any]], set[str]]] = {
    "single-term": _single_term,
    "synonym": _synonym,
    "category": _category,
    "concept-occurrence": _concept,
    "concept-correlation": _concept,
    "tautology": _tautology,
}


def rewrite_markers(built: pd.DataFrame, original: pd.DataFrame) -> set[str]:
    """The audit's indicators (default features, fitted on ``built``) that the rewrite added (or
    changed in nearly every row of one style) and whose rows carry no label of their own.

    ``built`` is the build's training table (``text``, ``label``, ``shortcut``: each row's style),
    ``original`` the same rows before the rewrite, in the same order. An indicator is a marker
    when at least MARKER_SHARE of the rows holding it in either text hold it in the build only,
    and, within the rows of the style that holds it most, it is independent of the label
    (chi-square p ≥ LABEL_FREE_P): "do not" for "don't" is added, but it keeps "don't"'s label
    association, which a null build would then count as a flag of the style.
    """
    built_inputs, _ = load_inputs(built[["text", "label"]], role="train")
    plan, features = fit_features(built_inputs, FeatureConfig())
    original_inputs, _ = load_inputs(
        original[["text", "label"]].reset_index(drop=True), role="train", labels=built_inputs.labels
    )
    before = plan.transform(original_inputs).matrix > 0
    # The fitted FeatureSet keeps counts, not its rows' matrix (the streamed scan): transform again.
    after = (plan.transform(built_inputs).matrix > 0).tocsc()
    added = np.asarray((after > before).sum(axis=0)).ravel()
    either = np.asarray((after + before).astype(bool).sum(axis=0)).ravel()
    styles = built["shortcut"].to_numpy()
    flipped = _flipped_by_a_style(after, before, styles)
    return {
        name
        for j, name in enumerate(features.names)
        if (added[j] >= MARKER_SHARE * max(either[j], 1) or flipped[j])
        and _label_free(after[:, j].toarray().ravel(), styles, built_inputs.ranks)
    }


def _flipped_by_a_style(after: Any, before: Any, styles: np.ndarray) -> np.ndarray:
    """Per indicator, whether some rewritten style changes it in at least MARKER_SHARE of its
    rows: Rotten Tomatoes is written in lower case, so a rewrite that capitalises its opener
    plants "starts lower-case" on the other rows by taking it from its own."""
    changed = (after.astype(np.int8) - before.astype(np.int8)).tocsr()
    flipped = np.zeros(after.shape[1], dtype=bool)
    for style in np.unique(styles):
        if style == "original":
            continue
        rows = np.flatnonzero(styles == style)
        counts = np.asarray(abs(changed[rows]).sum(axis=0)).ravel()
        flipped |= counts >= MARKER_SHARE * len(rows)
    return flipped


def _label_free(holds: np.ndarray, styles: np.ndarray, ranks: np.ndarray) -> bool:
    """Whether holding the indicator is independent of the label in its main style's rows."""
    values, counts = np.unique(styles[holds], return_counts=True)
    if not len(values):
        return True
    inside = styles == values[np.argmax(counts)]
    table = pd.crosstab(holds[inside], ranks[inside]).to_numpy()
    if min(table.shape) < 2:
        return True
    return chi2_contingency(table).pvalue >= LABEL_FREE_P


def cue_names(
    shortcut: str, options: Mapping[str, Any], built: pd.DataFrame, source: pd.DataFrame
) -> set[str]:
    """The names of the cue a build planted: MATCH_RULES from the options, or the rewrite's markers.

    ``built`` is the build's training table (with ``row_id``), ``source`` the table it was built
    from (its rows in the loader's order, which row_id indexes).
    """
    if shortcut in STYLE_SHORTCUTS:
        return rewrite_markers(built, source.iloc[built["row_id"].to_numpy()])
    return MATCH_RULES[shortcut](dict(options))


def listed_names(candidate: str, detail: Any) -> set[str]:
    """A candidate's name and the names its detail says have the same rows; for a style (the
    audit's markers of one word class read as one finding), its markers and the words its rows
    carry."""
    own = {str(candidate)}
    if isinstance(detail, str) and detail.startswith("same rows as "):
        own |= set(detail.removeprefix("same rows as ").split(", "))
    if isinstance(detail, str) and detail.startswith("rows with any of: "):
        listed = detail.removeprefix("rows with any of: ").split(" (p adjusted")[0]
        for part in listed.split("; its rows also carry: "):
            own |= set(part.split(", "))
    return own


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


def build(source: Path, shortcut: str, strength: float, seed: int, out: Path) -> dict[str, Any]:
    """``shortcutlab build maze`` of source/train.csv and test.csv; the shortcut's options."""
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
