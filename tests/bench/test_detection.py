"""bench/detection.py's scoring on hand-made audit.json records (no build, no audit): the planted
cue's rank in each method's list, the label words each flags, the targets, the Markdown table
before and after the triage lands, and the style shortcuts' rewrite markers."""

from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
LABEL_WORDS = {"1": ["lol", "funny"], "2": ["glad"]}


@pytest.fixture
def scoring(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))  # the scripts import their siblings by name
    return importlib.import_module("detection_scoring")


def candidate(
    rank, name, label, *, significant=True, relied_on=None, group=None, order=None, **more
):
    entry = {
        "rank": rank,
        "candidate": name,
        "kind": more.pop("kind", "ngram" if " " in name else "token"),
        "part": "text",
        "label": label,
        "significant": significant,
        "relied_on": relied_on,
        "detail": more.pop("detail", None),
    }
    if group is not None:
        entry |= {
            "group": group,
            "shortcut_rank": order,
            "group_source": "evidence",
            "evidence": [],
        }
    return entry | more


def plain_audit():
    """An audit before the triage: lol and glad (label words) lead, the cue honestly third."""
    return {
        "candidates": [
            candidate(1, "lol", 1, relied_on=True),
            candidate(2, "glad you", 2, relied_on=False),
            candidate(3, "honestly", 2, relied_on=True),
            candidate(4, "lexicon = candour-markers", 2, kind="lexicon"),
            candidate(5, "frequent-words has 'funny'", 1, kind="attribute"),
            candidate(6, "glad", 2, significant=False, relied_on=True),
        ]
    }


def triaged(audit, groups):
    """The same audit with the triage's groups: name -> (group, shortcut_rank)."""
    out = []
    for entry in audit["candidates"]:
        group, order = groups.get(entry["candidate"], ("judgement", None))
        out.append(entry | {"group": group, "shortcut_rank": order})
    return {"candidates": out}


def test_without_groups_the_triage_is_missing_and_the_baselines_score(scoring):
    scores = scoring.score_audit(plain_audit(), {"honestly"}, LABEL_WORDS)
    assert scores["triage"] is None
    # association: every significant candidate by rank; lol, glad you and funny are label words
    assert scores["association"] == scoring.MethodScore(3, 3, 3)
    # reliance: relied_on true in the audit's order (lol, honestly); glad is not significant
    assert scores["reliance"] == scoring.MethodScore(2, 1, 1)


def test_the_triage_ranks_by_shortcut_rank_among_likely_shortcuts(scoring):
    audit = triaged(plain_audit(), {"honestly": ("shortcut", 2), "lol": ("shortcut", 1)})
    audit["candidates"].append(candidate(7, "frankly", 0, group="shortcut", order=3))
    score = scoring.score_method(audit, "triage", {"honestly"}, LABEL_WORDS)
    assert score == scoring.MethodScore(2, 1, 1)  # after lol, which is a label word
    audit = triaged(plain_audit(), {"honestly": ("shortcut", 1), "lol": ("signal", None)})
    assert scoring.score_method(audit, "triage", {"honestly"}, LABEL_WORDS).rank == 1


def test_a_candidate_with_the_same_rows_as_the_cue_matches_it(scoring):
    audit = {"candidates": [candidate(1, "to be", 2, detail="same rows as honestly, to be honest")]}
    assert scoring.score_method(audit, "association", {"to be honest"}, {}).rank == 1
    assert scoring.score_method(audit, "association", {"frankly"}, {}).rank is None


def test_a_cue_that_is_also_a_label_word_counts_as_the_cue_only(scoring):
    audit = {"candidates": [candidate(1, "lol", 1), candidate(2, "funny", 1)]}
    score = scoring.score_method(audit, "association", {"lol"}, LABEL_WORDS)
    assert score == scoring.MethodScore(1, 1, 1)


def test_label_words_are_whole_words_of_the_label_the_candidate_points_to(scoring):
    words = {"1": ["lol"], "2": ["so so"]}
    assert scoring.is_label_word(candidate(1, "lol i", 1), words)
    assert not scoring.is_label_word(candidate(1, "lollipop", 1), words)
    assert not scoring.is_label_word(candidate(1, "lol", 2), words)  # another label's word
    assert scoring.is_label_word(candidate(1, "is so so", 2), words)
    paired = candidate(1, "hypothesis: lol", 1, part="text_pair")
    assert scoring.is_label_word(paired, words)
    assert not scoring.is_label_word(candidate(1, "length = lol", 1, kind="surface"), words)


def result(scoring, scores, *, dataset="corpus", shortcut="single-term", strength=0.6):
    family = {"single-term": "occurrence", "concept-occurrence": "concept"}[shortcut]
    return {
        "dataset": dataset,
        "shortcut": shortcut,
        "family": family,
        "strength": strength,
        "scores": scores,
    }


def triage_scores(scoring, rank, top=0):
    score = scoring.MethodScore(rank, top, top)
    return {"triage": score, "association": score, "reliance": score}


def test_recall_targets_by_strength_and_family(scoring):
    ranks = (1, 1, 2)  # two of three builds at #1
    for strength, expected in ((0.6, "MISS"), (0.4, "PASS"), (0.2, "—")):
        [cell] = scoring.cells(
            result(scoring, triage_scores(scoring, r), strength=strength) for r in ranks
        )
        assert cell.recall("triage", 1) == pytest.approx(2 / 3)
        assert cell.recall("triage", 5) == 1
        assert cell.result() == expected
    [concept] = scoring.cells(
        [result(scoring, triage_scores(scoring, 2), shortcut="concept-occurrence")]
    )
    assert concept.targets() == []  # no recall target for the concept family
    assert concept.result() == "—"


def test_goemotions_label_words_and_null_flags(scoring):
    planted = [
        result(scoring, triage_scores(scoring, 1, top=t), dataset="goemotions") for t in (0, 1)
    ]
    [cell] = scoring.cells(planted)
    assert [t for t, _ in cell.targets()] == ["#1 in ≥ 90%", "no label word in top 5"]
    assert cell.result() == "MISS"  # one build has a label word in its top five
    nulls = [result(scoring, triage_scores(scoring, r), strength=0.0) for r in (None, None, 4)]
    [null] = scoring.cells(nulls)
    assert null.null and null.flags("triage") == 1
    assert null.result() == "MISS"  # 1 of 3 builds flags the cue: above 5 %
    [clean] = scoring.cells(nulls[:2])
    assert clean.result() == "PASS"


def test_summaries_count_builds_per_method_and_wait_for_the_triage(scoring):
    plain = {"triage": None, "association": scoring.MethodScore(1, 0, 0), "reliance": None}
    found = scoring.cells([result(scoring, plain), result(scoring, plain, strength=0.0)])
    by_key = {(s.target.split(":")[0], s.method): s for s in scoring.summaries(found)}
    first = by_key[("occurrence and style builds, λ ≥ 0.6", "association")]
    assert (first.met, first.builds, first.passed) == (1, 1, True)
    assert by_key[("occurrence and style builds, λ ≥ 0.6", "triage")].passed is None
    none = by_key[("occurrence and style builds, λ = 0.4", "association")]
    assert (none.builds, none.passed) == (0, None)  # no build at λ = 0.4: nothing to judge
    null = by_key[("null builds that flag the cue (target", "association")]
    assert (null.met, null.builds, null.passed) == (1, 1, False)


def test_the_markdown_table_prints_a_dash_for_the_missing_triage(monkeypatch, scoring):
    monkeypatch.syspath_prepend(str(BENCH))
    detection = importlib.import_module("detection")
    audit = plain_audit()
    scores = scoring.score_audit(audit, {"honestly"}, LABEL_WORDS)
    table = detection.markdown(scoring.cells([result(scoring, scores)]))
    row = next(line for line in table.splitlines() if line.startswith("| corpus"))
    assert row == (
        "| corpus | single-term | 0.6 | 1 | — | — | 3 (0.00 / 1.00) | 3 / 3 | 2 (0.00 / 1.00) "
        "| 1 / 1 | #1 in ≥ 90% | — |"
    )
    groups = {"honestly": ("shortcut", 1), "lol": ("signal", None)}
    scores = scoring.score_audit(triaged(audit, groups), {"honestly"}, LABEL_WORDS)
    table = detection.markdown(scoring.cells([result(scoring, scores)]))
    row = next(line for line in table.splitlines() if line.startswith("| corpus"))
    assert row.startswith("| corpus | single-term | 0.6 | 1 | 1 (1.00 / 1.00) | 0 / 0 |")
    assert row.endswith("| PASS |")


def test_label_word_files_name_every_label_of_their_data_set(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    data = importlib.import_module("detection_data")
    for name in ("corpus", "goemotions"):
        assert set(data.label_words(name)) == {str(v) for v in data.DATASETS[name].label_names}
    assert set(data.label_words("rotten-tomatoes")) == set(data.DATASETS["rotten-tomatoes"].labels)


def test_rewrite_markers_are_what_the_rewrite_added_free_of_any_label(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    cues = importlib.import_module("maze_cues")
    rows = range(80)
    texts = [f"item {i} was nice" + (" but i don't know" if i % 4 == 1 else "") for i in rows]
    original = pd.DataFrame({"text": texts, "label": [i % 2 for i in rows]})
    # Style A in rows 0, 1 (mod 4), of both labels: "thou" opens them, "do not" replaces "don't"
    # (whose rows are all label 1); "nice" is kept everywhere.
    styles = ["shakespeare" if i % 4 < 2 else "hemingway" for i in rows]
    rewritten = [
        "thou " + t.replace("don't", "do not") if style == "shakespeare" else t
        for t, style in zip(texts, styles, strict=True)
    ]
    built = original.assign(text=rewritten, row_id=list(rows), shortcut=styles)
    markers = cues.cue_names("author", {}, built, original)
    assert "thou" in markers
    assert "do not" not in markers  # added, but it carries "don't"'s label 1
    assert not {"nice", "item", "don't"} & markers
