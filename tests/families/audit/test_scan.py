"""The scan end to end through ``run_audit`` and the written ``audit.csv``: planted cues rank
first with their label, null tables give nothing after correction, drift against a test table
with another label mix, leakage counts, and pairs' partial-input rows."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from shortcutlab.errors import DataError
from shortcutlab.families.audit.report.output import write_audit
from shortcutlab.families.audit.run import MeasureConfig, run_audit
from shortcutlab.families.audit.scan.candidates import INDICATOR_KINDS, Candidate
from shortcutlab.families.audit.scan.features import FeatureConfig
from shortcutlab.families.audit.scan.inputs import AuditInputs
from shortcutlab.families.audit.scan.stage import ScanConfig
from tests.families.audit.tables import planted, planted_pairs, table

SCAN = ScanConfig(features=FeatureConfig(surface=False))
LABELS = ("neg", "pos")


def _audit_rows(
    folder: Path, train: AuditInputs, test: AuditInputs | None = None
) -> list[dict[str, str]]:
    """The rows of the audit.csv that ``run_audit`` writes, as the text in the file."""
    write_audit(run_audit(train, test, scan_config=SCAN), folder)
    with open(folder / "audit.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _row(rows: list[dict[str, str]], candidate: str) -> dict[str, str]:
    (found,) = [row for row in rows if row["candidate"] == candidate]
    return found


def _cells(row: dict[str, str], *columns: str) -> str:
    """The row's cells in ``columns``, as a line of the file would show them."""
    return ",".join(row[column] for column in columns)


def test_a_planted_token_ranks_first_with_its_label_and_is_significant(tmp_path):
    texts, labels = planted(600, seed=1, cues={"zebra": "pos"})
    rows = _audit_rows(tmp_path / "out", table(texts, labels, space=LABELS))
    first = rows[0]
    assert _cells(first, "rank", "candidate", "kind", "label") == "1,zebra,token,pos"
    assert first["significant"] == "True" and float(first["p_adjusted"]) < 1e-6
    # Counts and lift as the texts themselves give them.
    with_cue = [label for text, label in zip(texts, labels, strict=True) if "zebra" in text]
    assert first["support"] == str(len(with_cue))
    assert first["label_count"] == str(with_cue.count("pos"))
    expected_lift = (with_cue.count("pos") / len(with_cue)) / (labels.count("pos") / len(labels))
    assert float(first["lift"]) == pytest.approx(expected_lift)
    # No test table: the drift columns are empty, not zero.
    assert first["test_support"] == first["test_lift"] == first["drift_p_adjusted"] == ""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_same_texts_without_the_plant_give_no_significant_candidate(tmp_path, seed):
    texts, labels = planted(600, seed=seed, cues={})
    rows = _audit_rows(tmp_path / "out", table(texts, labels, space=LABELS))
    tested = [row for row in rows if row["p_value"]]
    assert sum(row["kind"] == "token" for row in tested) > 50
    assert min(float(row["p_value"]) for row in tested) < 0.05  # chance finds small raw p...
    assert [row["candidate"] for row in tested if row["significant"] == "True"] == []  # ...BH not


def test_a_test_table_with_another_label_mix_but_the_same_association_shows_no_drift(tmp_path):
    train_texts, train_labels = planted(600, seed=1, cues={"zebra": "pos"})
    train = table(train_texts, train_labels, space=LABELS)
    # A quarter positive instead of a half, zebra at the same rates per label; five training
    # rows copied into it verbatim.
    texts, labels = planted(400, seed=7, cues={"zebra": "pos"}, shares={"neg": 0.75, "pos": 0.25})
    copied = [3, 10, 20, 30, 40]
    texts += [train_texts[i] for i in copied]
    labels += [train_labels[i] for i in copied]
    rows = _audit_rows(tmp_path / "same", train, table(texts, labels, space=LABELS))
    zebra = _row(rows, "zebra")
    assert zebra["test_support"] == str(sum("zebra" in text for text in texts))
    assert float(zebra["test_lift"]) > 2  # the lift moved with the prior...
    assert float(zebra["drift_p_adjusted"]) > 0.2  # ...the association did not
    # No text has a negation: "with_negation" lacks support, and "without_negation" (on every
    # row, the complement) is not a candidate of its own.
    assert not [row for row in rows if row["candidate"].startswith("negation")]
    exact = _row(rows, "exact train/test duplicates")
    assert _cells(exact, "kind", "support", "rank", "label") == "leakage,5,,"
    assert exact["detail"].startswith("5 of 405 test rows")

    # The same train against a test table where zebra follows the other label: drift.
    texts, labels = planted(400, seed=8, cues={"zebra": "neg"})
    rows = _audit_rows(tmp_path / "reversed", train, table(texts, labels, space=LABELS))
    assert float(_row(rows, "zebra")["drift_p_adjusted"]) < 1e-6
    assert _row(rows, "exact train/test duplicates")["support"] == "0"


def test_pairs_find_the_hypothesis_cue_under_its_part_and_the_hypothesis_only_baseline(tmp_path):
    premises, hypotheses, labels = planted_pairs(600, seed=5)
    rows = _audit_rows(tmp_path / "out", table(premises, labels, pairs=hypotheses))
    first = rows[0]
    assert _cells(first, "candidate", "part", "label", "significant") == (
        "text_pair: not,text_pair,contradiction,True"
    )
    alone = _row(rows, "text_pair alone")
    assert alone["kind"] == "partial-input" and alone["part"] == "text_pair"
    assert float(alone["p_value"]) < 0.001 and alone["significant"] == "True"
    assert "above" in alone["detail"] and alone["label"] == alone["lift"] == ""
    premise_only = _row(rows, "text alone")
    assert premise_only["p_value"] and premise_only["significant"] == "False"


def test_a_word_that_mainly_lowers_a_label_says_so_in_its_detail(tmp_path):
    # "zebra" on 2 % of the 'a' rows and 30 % of the 'b' and 'c' rows: its largest lift is a
    # small rise of 'b' or 'c'; what it mainly does is lower 'a'.
    texts, labels = planted(900, seed=4, cues={}, shares={"a": 1 / 3, "b": 1 / 3, "c": 1 / 3})
    rng = np.random.default_rng(9)
    hit = rng.random(900) < np.where(np.array(labels) == "a", 0.02, 0.3)
    texts = [f"{text} zebra" if h else text for text, h in zip(texts, hit, strict=True)]
    zebra = _row(_audit_rows(tmp_path / "out", table(texts, labels)), "zebra")
    with_cue = [label for label, h in zip(labels, hit, strict=True) if h]
    lift_a = (with_cue.count("a") / len(with_cue)) / (labels.count("a") / len(labels))
    assert zebra["label"] in ("b", "c") and zebra["significant"] == "True"
    assert zebra["detail"] == (
        f"same rows as frequent-words has 'zebra'; mainly lowers a (lift {lift_a:.2f})"
    )
    # With two labels, lowering one is raising the other (the label column): no note.
    texts, labels = planted(600, seed=1, cues={"zebra": "pos"})
    rows = _audit_rows(tmp_path / "two", table(texts, labels, space=LABELS))
    assert _row(rows, "zebra")["detail"] == "same rows as frequent-words has 'zebra'"


def test_too_few_rows_after_the_hold_out_says_the_hold_out_took_them():
    # 11 rows of 'rare' in the table; the 20 % hold-out leaves 9 for the scan.
    texts, labels = planted(200, seed=3, cues={})
    texts += [f"rare row {i}" for i in range(11)]
    labels += ["rare"] * 11
    measure = MeasureConfig(model="tfidf-logreg", holdout=0.2)
    message = (
        r"Too few training rows per label for any test after holding out 20 % of the rows to "
        r"measure the model: 'rare' has 9; .* lower holdout=\.\.\. or give a test=\.\.\. table\.$"
    )
    with pytest.raises(DataError, match=message):
        run_audit(table(texts, labels), scan_config=SCAN, measure=measure)
    run_audit(table(texts, labels), scan_config=SCAN)  # without a hold-out the 11 rows do


def test_a_candidate_read_from_the_table_carries_its_words_only_where_they_can_be_edited():
    texts, labels = planted(600, seed=1, cues={"zebra": "pos"})
    audit = run_audit(table(texts, labels, space=LABELS))  # surface properties too
    features = audit.scan.train_features
    phrases = dict(zip(features.keys, features.phrases, strict=True))
    candidates = [
        Candidate.from_row(row, phrases)
        for row in audit.table.itertuples()
        if row.kind in INDICATOR_KINDS and pd.notna(row.label_rank)
    ]
    (zebra,) = [c for c in candidates if c.name == "zebra"]
    assert (zebra.key, zebra.part, zebra.phrase, zebra.editable) == (
        "token:text:zebra", "text", "zebra", True,
    )  # fmt: skip
    assert zebra.label == LABELS.index("pos")
    others = [c for c in candidates if c.kind not in ("token", "ngram")]
    assert others and all(c.phrase is None and not c.editable for c in others)
