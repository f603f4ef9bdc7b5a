"""The audit finds what is known to be there: shortcuts shortcutlab injected (and nothing of their
kind where none was injected), and MultiNLI's hypothesis artefacts (Gururangan et al., 2018)."""

from __future__ import annotations

import pandas as pd
import pytest

from shortcutlab.corpus import generate_corpus
from shortcutlab.data.options import ReadingOptions
from shortcutlab.families.audit.run import load_inputs, run_audit
from shortcutlab.families.audit.scan.stage import ScanConfig, scan
from shortcutlab.families.maze.build import build_maze_benchmark
from tests.conftest import MNLI

# Fits on the shared MultiNLI data (a minute or more on two cores). The quick loop (-m "not slow") leaves it out.
pytestmark = pytest.mark.slow

#: What counts as the injected cue in the candidate table, per shortcut: the term, its
#: frequent-words value and the packaged list holding it; the lists the category names come from.
CUE_CANDIDATES = {
    "single-term": {"honestly", "frequent-words has 'honestly'", "lexicon = candour-markers"},
    "category": {"lexicon = countries", "lexicon = cities"},
}
TOP = 3
MNLI_LABELS = ("entailment", "neutral", "contradiction")


@pytest.fixture(scope="module")
def review_tables() -> dict[str, pd.DataFrame]:
    return generate_corpus(train_size=1500, test_size=300, seed=3)


def _cue_rows(candidates: pd.DataFrame, names: set[str]) -> pd.DataFrame:
    """Ranked rows whose candidate, or a candidate folded into it (same rows), is a cue name."""

    def named(row: pd.Series) -> set[str]:
        detail = row["detail"] if isinstance(row["detail"], str) else ""
        folded = detail.removeprefix("same rows as ").split(", ") if detail else []
        return {row["candidate"], *folded}

    ranked = candidates[candidates["rank"].notna()]
    return ranked[[bool(named(row) & names) for _, row in ranked.iterrows()]].sort_values("rank")


def _scan(frame: pd.DataFrame) -> pd.DataFrame:
    inputs, _ = load_inputs(frame[["text", "label"]], role="train")
    return scan(inputs, None, ScanConfig()).candidates


@pytest.mark.parametrize("shortcut", sorted(CUE_CANDIDATES))
def test_an_injected_cue_ranks_in_the_top_three_and_is_absent_without_injection(
    review_tables, shortcut
):
    bench = build_maze_benchmark(
        review_tables["train"], review_tables["test"], shortcut=shortcut, strength=0.6, seed=0
    )
    train = bench["train"]
    found = _cue_rows(_scan(train), CUE_CANDIDATES[shortcut])
    best = found.iloc[0]
    assert best["rank"] <= TOP and bool(best["significant"]), found.head()
    # The label it points to is the one the builder gave the cue most often (the split's own
    # "shortcut" column says which rows carry which cue).
    carried = train[train["shortcut"] != ""]
    if shortcut == "single-term":
        assert best["label"] == carried["label"].value_counts().idxmax()
    null = _cue_rows(_scan(review_tables["train"]), CUE_CANDIDATES[shortcut])
    assert not null["significant"].astype(bool).any(), null[null["significant"].astype(bool)]


@pytest.fixture(scope="module")
def mnli_audit():
    if not MNLI.is_file():
        pytest.skip(f"MultiNLI dev-matched is not at {MNLI} (set SHORTCUTLAB_MNLI to its folder)")
    train, _ = load_inputs(
        MNLI,
        role="train",
        given_labels=MNLI_LABELS,
        reading=ReadingOptions(text_col="premise", text_pair_col="hypothesis"),
    )
    return run_audit(train)


@pytest.mark.slow
@pytest.mark.parametrize("word", ["not", "no", "never", "nothing"])
def test_mnli_negation_in_the_hypothesis_points_to_contradiction(mnli_audit, word):
    table = mnli_audit.table
    row = table[(table["kind"] == "token") & (table["candidate"] == f"text_pair: {word}")]
    assert len(row) == 1
    row = row.iloc[0]
    assert row["label"] == "contradiction"
    assert row["significant"] and row["lift"] > 1.3 and row["p_adjusted"] < 1e-6


def test_mnli_the_hypothesis_alone_beats_the_majority_label(mnli_audit):
    rows = {row["candidate"]: row for row in mnli_audit.record["partial_input"]}
    hypothesis = rows["text_pair alone"]
    assert hypothesis["accuracy"] > hypothesis["majority_accuracy"] + 0.05
    listed = mnli_audit.table.set_index("candidate").loc["text_pair alone"]
    assert listed["kind"] == "partial-input" and bool(listed["significant"])
