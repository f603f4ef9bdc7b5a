"""The audit collector on a hand-written 'shortcutlab audit --out' folder (audit.json as the design
lays it out: every scan and measurement column, nulls where the audit had nothing), rendered by
the real report builder and read back from the page's HTML."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.families.audit.candidates import MEASURE_COLUMNS, SCAN_COLUMNS
from shortcutlab.webreport.build import build_report, write_html_report
from tests.reports.shaded_rendering import parse_shaded

HOSTILE = 'The cat is <b>not</b> "here" & <script>alert(1)</script> gone.'
NOT_AT = HOSTILE.index("not")


def _candidate(**values: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys((*SCAN_COLUMNS, *MEASURE_COLUMNS))
    row.update(values)
    return row


# The hand-written audit.json reads best as compact records.
# fmt: off
def _audit() -> dict[str, Any]:
    candidates = [
        _candidate(
            rank=1, candidate="text_pair: not", kind="token", part="text_pair",
            label="contradiction", support=412, label_count=301, p_label_given_candidate=0.7306,
            prior=0.3333, lift=2.19, pmi=1.13, p_value=0.0, p_adjusted=0.0, significant=True,
            evidence=312.4, test_support=98, test_p_label_given_candidate=0.71, test_lift=2.13,
            drift_p=0.62, drift_p_adjusted=0.91, aligned_rows=70, aligned_accuracy=0.914,
            conflicting_rows=28, conflicting_accuracy=0.5, delta=0.414, delta_low=0.231,
            delta_high=0.6, delta_p=1.2e-5, delta_p_adjusted=2.4e-5, aligned_ece=0.05,
            conflicting_ece=0.21, calibration_gap=0.16, removal_rows=98, removal_changed=0.337,
            removal_accuracy_before=0.796, removal_accuracy_after=0.653,
            removal_label_shift=-0.241, removal_shift_low=-0.29, removal_shift_high=-0.19,
            removal_p=0.0013, removal_p_adjusted=0.0026, relied_on=True, visible=True,
            insertion_rows=500, insertion_changed=0.21, insertion_accuracy_before=0.7,
            insertion_accuracy_after=0.55, insertion_label_shift=0.18, insertion_shift_low=0.15,
            insertion_shift_high=0.21, insertion_p=1e-8, insertion_p_adjusted=2e-8, insertion_label_p_adjusted=3e-12,
            anti_rows=60, anti_accuracy=0.45, removed_rows=90,
            removed_accuracy=0.6, aligned_set_rows=60, aligned_set_accuracy=0.8, anti_delta=0.35,
            anti_delta_low=0.18, anti_delta_high=0.51,
            examples=[
                {
                    "row_id": "r17",
                    "part": "text_pair",
                    "text": HOSTILE,
                    "spans": [[NOT_AT, NOT_AT + 3]],
                    "label": "contradiction",
                },
                {
                    "row_id": "r40",
                    "part": "text_pair",
                    "text": "Nobody is not here.",
                    "spans": [[10, 13]],
                    "label": "contradiction",
                },
            ],
        ),
        _candidate(
            rank=2, candidate="negation = with_negation", kind="attribute", part="text_pair",
            label="contradiction", support=530, label_count=350, p_label_given_candidate=0.66,
            prior=0.3333, lift=1.98, pmi=0.99, p_value=3.2e-41, p_adjusted=1.1e-39,
            significant=True, evidence=40.5,
            examples=[
                {
                    "row_id": "r17",
                    "part": "text_pair",
                    "text": "Nobody came.",
                    "spans": [],
                    "label": "contradiction",
                }
            ],
        ),
        _candidate(
            rank=3, candidate="length = 1–6 words", kind="surface", part="text_pair",
            label="entailment", support=220, label_count=96, p_label_given_candidate=0.436,
            prior=0.3333, lift=1.31, pmi=0.39, p_value=0.00071, p_adjusted=0.0123,
            significant=True, evidence=3.15,
        ),
        _candidate(
            rank=4, candidate="text_pair alone", kind="partial-input", part="text_pair",
            support=600, p_value=2.0e-9,
            detail="accuracy 0.52 [0.48, 0.56] vs majority 0.34",
        ),
        _candidate(
            rank=5, candidate="text: sky", kind="token", part="text", label="neutral", support=21,
            label_count=9, p_label_given_candidate=0.43, prior=0.3333, lift=1.29, pmi=0.37,
            p_value=0.23, p_adjusted=0.71, significant=False, evidence=0.64,
        ),
        _candidate(
            candidate="exact duplicates", kind="leakage", support=3,
            detail="3 test rows repeat a training text; 1 has another label",
        ),
    ]
    return {
        "kind": "shortcutlab-audit",
        "version": 1,
        "data": {
            "train": _source("/data/nli/train.csv", "ab" * 32, 1200),
            "test": _source("/data/nli/test.csv", "cd" * 32, 600),
            "rows": {"train": 1200, "test": 600},
            "paired": True,
            "labels": ["contradiction", "entailment", "neutral"],
            "label_counts": {"train": [400, 400, 400], "test": [200, 200, 200]},
        },
        "config": {"ngram_max": 2, "min_support": 20, "correction": "bh", "alpha": 0.05},
        "seed": 0,
        "correction": {"method": "bh", "alpha": 0.05, "tests": 1917},
        "candidates_total": 6,
        "significant_total": 3,
        "features": {"vocabulary": {"text": 310, "text_pair": 290}, "length_edges": [6, 9, 13]},
        "candidates": candidates,
        "leakage": {
            "threshold": 0.8,
            "exact": [{"train_row": 3, "test_row": 9}],
            "near": [],
            "train_conflicts": 0,
        },
        "partial_input": [
            {
                "candidate": "text_pair alone",
                "kind": "partial-input",
                "part": "text_pair",
                "support": 600,
                "rows": 600,
                "p_value": 2.0e-9,
                "accuracy": 0.52,
                "accuracy_low": 0.48,
                "accuracy_high": 0.56,
                "majority_accuracy": 0.34,
                "majority_label": "contradiction",
                "detail": "accuracy 0.52 [0.48, 0.56] vs majority 0.34",
            },
        ],
        "measurement": {
            "model": "tfidf-logreg",
            "evaluated_on": "test",
            "rows": 600,
            "note": "one fit; intervals resample rows",
        },
    }


# fmt: on


def _source(path: str, sha256: str, rows: int) -> dict[str, Any]:
    """A TableSource record as data/loading.py writes it."""
    return {"path": path, "format": "csv", "sha256": sha256, "rows_read": rows,
            "dropped_empty_text": 0, "dropped_empty_label": 0, "split": None}  # fmt: skip


class _Page(HTMLParser):
    """The page's tables (by figure id: rows of cell texts) and the texts of its elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.marks: list[str] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._mark = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "figure" and "table" in (attributes.get("class") or ""):
            self._table = attributes["id"]
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []
        elif tag == "mark":
            self._mark, self._cell_mark = True, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self._table = None
        elif tag in ("td", "th") and self._table and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "mark":
            self.marks.append("".join(self._cell_mark))
            self._mark = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._mark:
            self._cell_mark.append(data)


def _rows(page: _Page, table: str) -> dict[str, dict[str, str]]:
    header, *body = page.tables[table]
    return {
        row[1] if table.endswith("candidates") else row[0]: dict(zip(header, row, strict=True))
        for row in body
    }


@pytest.fixture
def audit_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "audit-out"
    folder.mkdir()
    (folder / "audit.json").write_text(json.dumps(_audit()), encoding="utf-8")
    return folder


@pytest.fixture
def page(audit_dir: Path) -> tuple[str, _Page]:
    html = write_html_report(audit_dir).read_text(encoding="utf-8")
    parsed = _Page()
    parsed.feed(html)
    return html, parsed


def test_the_fixture_has_every_column_of_the_tidy_table():
    for candidate in _audit()["candidates"]:
        assert set(candidate) - {"examples"} == {*SCAN_COLUMNS, *MEASURE_COLUMNS}


def test_the_candidate_table_lists_every_candidate_with_dashes_where_empty(page):
    html, parsed = page
    rows = _rows(parsed, "audit-candidates")
    assert list(rows) == [
        "text_pair: not",
        "negation = with_negation",
        "length = 1–6 words",
        "text_pair alone",
        "text: sky",
        "exact duplicates",
    ]
    top = rows["text_pair: not"]
    assert (top["label"], top["support"], top["lift"]) == ("contradiction", "412", "2.19")
    assert top["p"] == "< 1e-300" and top["adjusted p"] == "< 1e-300*"  # underflow, not 0
    assert top["reliance"] == "relied on"
    assert top["association Δ [95 %]"] == "+0.414 [+0.231, +0.600]"
    assert top["drift p (adjusted)"] == "0.91" and top["assoc. Δ adjusted p"] == "2.4e-05"
    attribute = rows["negation = with_negation"]
    assert attribute["adjusted p"] == "1.1e-39*"
    assert attribute["drift p (adjusted)"] == "—" and attribute["association Δ [95 %]"] == "—"
    assert attribute["reliance"] == "—"
    assert rows["text: sky"]["adjusted p"] == "0.71"  # not significant: no star
    leak = rows["exact duplicates"]
    assert [leak[c] for c in ("label", "lift", "p", "adjusted p")] == ["—"] * 4
    cells = {cell for row in rows.values() for cell in row.values()}
    assert not cells & {"0", "0.0", "0.000", "nan", "None"}


def test_overview_leakage_and_partial_input_come_from_the_json(page):
    html, parsed = page
    assert "/data/nli/train.csv (1200 rows, sha256 abababababab…)" in html
    assert "contradiction (400), entailment (400), neutral (400)" in html
    assert "Benjamini–Hochberg (false discovery rate)" in html
    assert "3 of 6 candidates tested" in html and "1917" in html
    assert "exact duplicates: 3 test rows repeat a training text; 1 has another label" in html
    baseline = _rows(parsed, "audit-partial-input")["text_pair alone"]
    assert baseline["accuracy [95 %]"] == "0.520 [0.480, 0.560]"
    assert (baseline["majority label"], baseline["p (one-sided McNemar)"]) == (
        "contradiction",
        "2e-09",
    )


def test_example_rows_are_escaped_with_the_candidate_marked(page):
    html, parsed = page
    assert "<b>not" not in html and "<script>alert" not in html
    escaped = 'The cat is &lt;b&gt;<mark class="cue">not</mark>&lt;/b&gt; &#34;here&#34; &amp;'
    assert escaped in html
    assert parsed.marks == ["not", "not"]  # the attribute's example has no span to mark
    texts = [row["text"] for row in parse_shaded(html).rows]
    assert texts == [HOSTILE, "Nobody is not here.", "Nobody came."]
    assert "row r17 · label contradiction · text_pair" in html
    assert '<p class="shading-legend">' not in html  # no attribution legend without weights
    assert "nothing to mark" in html


def test_the_measurement_table_holds_the_model_figures(page):
    html, parsed = page
    (row,) = _rows(parsed, "audit-reliance").values()
    assert row["candidate"] == "text_pair: not → contradiction"
    assert row["aligned acc. (rows)"] == "0.914 (70)"
    assert row["conflicting acc. (rows)"] == "0.500 (28)"
    assert list(row)[:2] == ["candidate", "reliance"]  # the verdict leads the model's figures
    assert row["reliance"] == "relied on"
    assert row["ECE gap"] == "+0.160" and row["removal acc. before → after"] == "0.796 → 0.653"
    assert row["removal shift [95 %]"] == "-0.241 [-0.290, -0.190]"
    assert row["insertion acc. before → after"] == "0.700 → 0.550"
    assert row["insertion changed"] == "0.210"
    assert row["insertion accuracy p (adjusted)"] == "2e-08"
    assert row["insertion label p (adjusted)"] == "3e-12"
    assert row["anti Δ [95 %]"] == "+0.350 [+0.180, +0.510]"
    assert "Reliance of tfidf-logreg on the candidates" in html


def test_the_page_is_deterministic_and_capped(audit_dir, tmp_path):
    first = write_html_report(audit_dir, tmp_path / "a.html").read_bytes()
    assert write_html_report(audit_dir, tmp_path / "b.html").read_bytes() == first
    audit = _audit()
    audit["candidates"] = [
        dict(audit["candidates"][4], rank=rank, candidate=f"text: w{rank}") for rank in range(1, 61)
    ]
    audit["measurement"] = None
    (audit_dir / "audit.json").write_text(json.dumps(audit), encoding="utf-8")
    parsed = _Page()
    parsed.feed(write_html_report(audit_dir).read_text(encoding="utf-8"))
    assert len(_rows(parsed, "audit-candidates")) == 50
    assert "audit-reliance" not in parsed.tables


def test_discovery_in_a_parent_folder_and_what_is_not_an_audit(audit_dir, tmp_path):
    report = build_report(tmp_path)  # the audit folder as a subfolder
    assert [s.id for s in report.sections][0] == "audit-out-audit"
    assert report.title == "Shortcut audit: train.csv"
    other = tmp_path / "other"
    other.mkdir()
    (other / "audit.json").write_text('{"kind": "something-else"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="holds nothing a report is made from"):
        build_report(other)


def test_an_audit_of_another_version_says_so(audit_dir):
    (audit_dir / "audit.json").write_text(
        json.dumps({"kind": "shortcutlab-audit", "version": 2}), encoding="utf-8"
    )
    html = write_html_report(audit_dir).read_text(encoding="utf-8")
    assert "has version 2; this shortcutlab reads version 1" in html
